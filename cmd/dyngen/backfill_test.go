package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	dynrt "github.com/dyngen/dyngen/generator/runtime"
	"github.com/dyngen/dyngen/internal/lock"
	"github.com/dyngen/dyngen/internal/model"
)

const backfillBefore = `version: 1
package: notes
tables:
  Notes: {partitionKey: PK, sortKey: SK}
entities:
  Note:
    attributes: {id: string, title: string}
    keys:
      primary: {pk: "NOTE#{id}", sk: "NOTE"}
patterns:
  GetNote: {get: Note}
outputs:
  migration:
`

// The release gate of a change that needs a backfill: generation warns
// while it is pending, -check -strict fails, a receipt of its verify
// records it done, and then -check -strict passes.
func TestBackfillGate(t *testing.T) {
	cmd := inCommittedDir(t, backfillBefore)
	after := strings.Replace(strings.Replace(strings.Replace(backfillBefore,
		"Notes: {partitionKey: PK, sortKey: SK}", "Notes:\n    partitionKey: PK\n    sortKey: SK\n    indexes:\n      ByTitle: {partitionKey: TitlePK}", 1),
		"      primary: {pk: \"NOTE#{id}\", sk: \"NOTE\"}\n", "      primary: {pk: \"NOTE#{id}\", sk: \"NOTE\"}\n      ByTitle: {pk: \"TITLE#{title}\"}\n", 1),
		"  GetNote: {get: Note}\n", "  GetNote: {get: Note}\n  ByTitle: {query: Note, index: ByTitle, by: [title]}\n", 1)
	writeSpec(t, after)
	code, _, stderr := cmd("spec.yaml", "-o", "out")
	if code != 0 || !strings.Contains(stderr, "warning: pattern ByTitle reads index ByTitle") {
		t.Fatalf("generate the change: exit %d: %s", code, stderr)
	}
	if code, _, stderr := cmd("-check", "spec.yaml", "-o", "out"); code != 0 {
		t.Errorf("-check: exit %d: %s", code, stderr)
	}
	// Against the base, the finding is breaking, and made safe by the
	// backfill the branch's lock records: the check passes, and says so.
	code, stdout, stderr := cmd("compat", "-against", "main", "spec.yaml", "-o", "out")
	if code != 0 || !strings.Contains(stdout, ": backfill keys: Note joins index ByTitle") || !strings.Contains(stdout, "(backfill Note.ByTitle, pending in the lock)") || !strings.Contains(stdout, "1 made safe by a backfill of the lock") {
		t.Errorf("compat -against main: exit %d\n%s%s", code, stdout, stderr)
	}
	if code, stdout, _ := cmd("compat", "-github", "-against", "main", "spec.yaml", "-o", "out"); code != 0 || !strings.Contains(stdout, "::warning file=spec.yaml") {
		t.Errorf("compat -github -against main: exit %d\n%s", code, stdout)
	}
	if code, _, stderr := cmd("-check", "-strict", "spec.yaml", "-o", "out"); code != 1 || !strings.Contains(stderr, "backfill Note.ByTitle") {
		t.Errorf("-check -strict while pending: exit %d: %s", code, stderr)
	}
	l, err := lock.Parse([]byte(readFile(t, filepath.Join("out", model.LockFile))))
	if err != nil || len(l.Backfills) != 1 {
		t.Fatalf("lock: %v %+v", err, l)
	}
	receipt, err := json.Marshal(dynrt.Receipt{Format: dynrt.ReceiptFormat, Backfill: "Note.ByTitle", Fingerprint: l.Backfills[0].Fingerprint, Table: "Notes", Checked: 5})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("receipt.json", receipt, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("bad.json", []byte(`{"dyngenBackfillReceipt": 1, "backfill": "Note.ByTitle", "extra": 1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"-receipt", "bad.json"}, {"-receipt", "missing.json"}, {"-receipt", "out"}} {
		if code, _, stderr := cmd(append(args, "spec.yaml", "-o", "out")...); code != 1 {
			t.Errorf("%q: exit %d: %s", args, code, stderr)
		}
	}
	if code, _, stderr := cmd("-receipt", "receipt.json", "-check", "spec.yaml", "-o", "out"); code != 2 {
		t.Errorf("-receipt with -check: exit %d: %s", code, stderr)
	}
	if code, _, stderr := cmd("-receipt", "receipt.json", "spec.yaml", "-o", "out"); code != 0 || strings.Contains(stderr, "warning: pattern ByTitle") {
		t.Fatalf("generate with the receipt: exit %d: %s", code, stderr)
	}
	if !strings.Contains(readFile(t, filepath.Join("out", model.LockFile)), `"state": "done"`) {
		t.Error("the lock does not record the backfill done")
	}
	if code, _, stderr := cmd("-check", "-strict", "spec.yaml", "-o", "out"); code != 0 {
		t.Errorf("-check -strict once done: exit %d: %s", code, stderr)
	}
}

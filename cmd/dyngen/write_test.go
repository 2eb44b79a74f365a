package main

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/dyngen/dyngen/generator"
	"github.com/dyngen/dyngen/internal/synthetic"
)

const smallSpec = `version: 1
package: notes
tables:
  Notes: {partitionKey: PK, sortKey: SK}
entities:
  Note:
    attributes: {userId: string, noteId: string, text: string}
    keys: {primary: {pk: "USER#{userId}", sk: "NOTE#{noteId}"}}
patterns:
  GetNote: {get: Note}
  NotesOfUser: {query: Note, by: [userId]}
`

// TestWriteCheckAndStale runs the command on a spec: it writes the
// package, -check agrees, a changed file makes -check fail with a diff,
// files dyngen did not generate are never touched, and a generated file
// the spec no longer produces is removed.
func TestWriteCheckAndStale(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.WriteFile("spec.yaml", []byte(smallSpec), 0o644); err != nil {
		t.Fatal(err)
	}
	mine := filepath.Join("out", "mine.go")
	if err := os.MkdirAll("out", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(mine, []byte("package notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join("out", "old_entity.go")
	if err := os.WriteFile(stale, []byte(generator.Header+"\n\npackage notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"spec.yaml", "-o", "out"}, &stdout, &stderr); code != 0 {
		t.Fatalf("generate: exit %d: %s", code, stderr.String())
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("the stale generated file is still there: %v", err)
	}
	if data, err := os.ReadFile(mine); err != nil || string(data) != "package notes\n" {
		t.Errorf("a file dyngen did not generate was touched: %q %v", data, err)
	}
	note, err := os.ReadFile(filepath.Join("out", "note.go"))
	if err != nil || !strings.Contains(string(note), "// source: ../spec.yaml") {
		t.Fatalf("note.go: %v\n%s", err, note)
	}
	stdout.Reset()
	stderr.Reset()
	if code := run([]string{"-check", "spec.yaml", "-o", "out"}, &stdout, &stderr); code != 0 || stdout.Len() != 0 {
		t.Fatalf("-check on fresh output: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	changed := strings.Replace(string(note), "func (n *Note) UnmarshalItem", "func (n *Note) unmarshalItem", 1)
	if err := os.WriteFile(filepath.Join("out", "note.go"), []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	if code := run([]string{"-check", "spec.yaml", "-o", "out"}, &stdout, &stderr); code != 1 {
		t.Fatalf("-check on changed output: exit %d", code)
	}
	for _, want := range []string{"--- a/out/note.go", "+++ b/out/note.go", "-func (n *Note) unmarshalItem", "+func (n *Note) UnmarshalItem"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("the diff does not hold %q:\n%s", want, stdout.String())
		}
	}
	// A spec with an error writes nothing.
	if err := os.WriteFile("bad.yaml", []byte(strings.Replace(smallSpec, "noteId}\"", "nodeId}\"", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if code := run([]string{"bad.yaml", "-o", "bad"}, &stdout, &stderr); code != 1 {
		t.Fatalf("bad spec: exit %d", code)
	}
	if _, err := os.Stat("bad"); !os.IsNotExist(err) {
		t.Errorf("a spec with errors wrote %v", err)
	}
}

// TestWriteRefusesForeignFile checks that a file dyngen did not generate
// is never overwritten, even when its name is one dyngen wants.
func TestWriteRefusesForeignFile(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.WriteFile("spec.yaml", []byte(smallSpec), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll("out", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("out", "note.go"), []byte("package notes // mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"spec.yaml", "-o", "out"}, &stdout, &stderr); code != 1 {
		t.Fatalf("exit %d, want 1: %s", code, stderr.String())
	}
	if data, _ := os.ReadFile(filepath.Join("out", "note.go")); string(data) != "package notes // mine\n" {
		t.Errorf("note.go was overwritten: %q", data)
	}
}

// BenchmarkCommand runs the command as a user does, writing the package,
// on a synthetic spec of 1,000 entities and 5,000 patterns, with the
// command's garbage collector setting.
func BenchmarkCommand(b *testing.B) {
	defer debug.SetGCPercent(debug.SetGCPercent(gcPercent))
	dir := b.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "spec.yaml"), synthetic.Spec(5000), 0o644); err != nil {
		b.Fatal(err)
	}
	b.Chdir(dir)
	for b.Loop() {
		var stdout, stderr bytes.Buffer
		if code := run([]string{"spec.yaml", "-o", "out"}, &stdout, &stderr); code != 0 {
			b.Fatalf("exit %d: %s", code, stderr.String())
		}
	}
}

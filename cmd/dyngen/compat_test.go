package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"
)

const compatSpec = `version: 1
package: shop
tables:
  Main: {partitionKey: PK, sortKey: SK}
entities:
  User:
    attributes:
      id: string
      role: {type: enum, values: [admin, member]}
    keys: {primary: {pk: "USER#{id}", sk: "USER"}}
patterns:
  GetUser: {get: User}
`

// TestCompat: dyngen compat compares the spec with the lock generation
// wrote; a breaking change fails it (exit 1) until the spec accepts it;
// -json and -github print the same findings for tools.
func TestCompat(t *testing.T) {
	cmd := inDir(t, compatSpec)
	// No such directory (a mistyped -o): an error, not a pass.
	if code, _, stderr := cmd("compat", "spec.yaml", "-o", "out"); code != 1 || !strings.Contains(stderr, "output directory out: no such directory") {
		t.Errorf("compat of no directory: exit %d\n%s", code, stderr)
	}
	// No lock yet: nothing to compare with.
	if err := os.Mkdir("out", 0o755); err != nil {
		t.Fatal(err)
	}
	if code, stdout, stderr := cmd("compat", "spec.yaml", "-o", "out"); code != 0 || stdout != "" || !strings.Contains(stderr, "no lock at out/dyngen.lock.json") {
		t.Errorf("compat without a lock: exit %d\n%s%s", code, stdout, stderr)
	}
	if code, _, stderr := cmd("spec.yaml", "-o", "out"); code != 0 {
		t.Fatalf("generate: exit %d: %s", code, stderr)
	}
	if code, stdout, stderr := cmd("compat", "spec.yaml", "-o", "out"); code != 0 || stdout != "compared with out/dyngen.lock.json: 0 changes, 0 breaking, 0 accepted\n" {
		t.Errorf("compat of the spec generated: exit %d\n%s%s", code, stdout, stderr)
	}
	// An enum value added breaks old code still running.
	added := strings.Replace(compatSpec, "[admin, member]", "[admin, member, guest]", 1)
	writeSpec(t, added)
	code, stdout, stderr := cmd("compat", "spec.yaml", "-o", "out")
	want := "spec.yaml:9:7: breaking read-new: value \"guest\" is added to enum role of User;"
	if code != 1 || !strings.HasPrefix(stdout, want) || !strings.Contains(stdout, "[read-new/User.role=guest/enum-added]") || !strings.HasSuffix(stdout, "1 changes, 1 breaking, 0 accepted\n") {
		t.Errorf("compat of an enum value added: exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, _ = cmd("compat", "-json", "spec.yaml", "-o", "out")
	var doc struct {
		Failed   bool
		Findings []struct {
			ID, Class, Verdict, File string
			Line, Col                int
		}
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil || code != 1 || !doc.Failed || len(doc.Findings) != 1 ||
		doc.Findings[0].ID != "read-new/User.role=guest/enum-added" || doc.Findings[0].Line != 9 || doc.Findings[0].Verdict != "breaking" {
		t.Errorf("compat -json: exit %d, %v\n%s", code, err, stdout)
	}
	code, stdout, _ = cmd("compat", "-github", "spec.yaml", "-o", "out")
	if code != 1 || !strings.HasPrefix(stdout, "::error file=spec.yaml,line=9,col=7,title=dyngen compat%3A breaking read-new::value \"guest\" is added") {
		t.Errorf("compat -github: exit %d\n%s", code, stdout)
	}
	// Accepted on purpose: the check passes, and says so.
	writeSpec(t, added+"accept:\n  read-new/User.role=guest/enum-added: no code of the previous version runs\n  api/GetUser/removed: not removed\n")
	code, stdout, stderr = cmd("compat", "spec.yaml", "-o", "out")
	if code != 0 || !strings.Contains(stdout, "accepted read-new") || !strings.Contains(stdout, "(accepted: no code of the previous version runs)") ||
		!strings.Contains(stdout, "accept api/GetUser/removed matches no finding") {
		t.Errorf("compat of an accepted change: exit %d\n%s%s", code, stdout, stderr)
	}
	// A lock that is no lock is an error, not a pass; so is one that is
	// not a regular file, for compat and for generation, which would
	// otherwise write a new lock without its backfills.
	mustWrite(t, "out/dyngen.lock.json", "{}")
	if code, _, stderr := cmd("compat", "spec.yaml", "-o", "out"); code != 1 || !strings.Contains(stderr, "not a dyngen lock") {
		t.Errorf("compat over a broken lock: exit %d\n%s", code, stderr)
	}
	if err := os.Remove("out/dyngen.lock.json"); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir("out/dyngen.lock.json", 0o755); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := cmd("compat", "spec.yaml", "-o", "out"); code != 1 || !strings.Contains(stderr, "the lock out/dyngen.lock.json can't be read") {
		t.Errorf("compat over a lock that is a directory: exit %d\n%s", code, stderr)
	}
	if code, _, stderr := cmd("spec.yaml", "-o", "out"); code != 1 || !strings.Contains(stderr, "the lock out/dyngen.lock.json can't be read") {
		t.Errorf("generation over a lock that is a directory: exit %d\n%s", code, stderr)
	}
}

// TestCompatAgainst: -against compares with the lock of a git revision,
// as CI does on a pull request: the base branch's lock, whatever the
// working tree holds.
func TestCompatAgainst(t *testing.T) {
	cmd := inCommittedDir(t, compatSpec)
	// The branch regenerates with the change: its own lock holds it, the
	// base's does not.
	writeSpec(t, strings.Replace(compatSpec, "[admin, member]", "[admin]", 1))
	if code, _, stderr := cmd("spec.yaml", "-o", "out"); code != 0 {
		t.Fatalf("generate the change: exit %d: %s", code, stderr)
	}
	if code, stdout, _ := cmd("compat", "spec.yaml", "-o", "out"); code != 0 || !strings.Contains(stdout, "0 changes") {
		t.Errorf("compat against the working tree's lock: exit %d\n%s", code, stdout)
	}
	code, stdout, stderr := cmd("compat", "-against", "main", "spec.yaml", "-o", "out")
	if code != 1 || !strings.Contains(stdout, "[read-old/User.role=member/enum-removed]") || !strings.Contains(stdout, "compared with main:out/dyngen.lock.json") {
		t.Errorf("compat -against main: exit %d\n%s%s", code, stdout, stderr)
	}
	if code, _, stderr := cmd("compat", "-against", "nosuch", "spec.yaml", "-o", "out"); code != 1 || !strings.Contains(stderr, "nosuch is not a git revision") {
		t.Errorf("compat -against nosuch: exit %d\n%s", code, stderr)
	}
	if code, _, stderr := cmd("compat", "-against", "--output=x", "spec.yaml", "-o", "out"); code != 1 || !strings.Contains(stderr, "is not a git revision") {
		t.Errorf("compat -against an option: exit %d\n%s", code, stderr)
	}
}

// inCommittedDir is inDir in a git repository whose branch main holds
// the spec and its package generated into out: the base of a change.
func inCommittedDir(t *testing.T, spec string) func(args ...string) (code int, stdout, stderr string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	cmd := inDir(t, spec)
	git := func(args ...string) {
		t.Helper()
		c := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q", "-b", "main")
	if code, _, stderr := cmd("spec.yaml", "-o", "out"); code != 0 {
		t.Fatalf("generate: exit %d: %s", code, stderr)
	}
	git("add", ".")
	git("commit", "-q", "-m", "base")
	return cmd
}

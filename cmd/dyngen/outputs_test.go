package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dyngen/dyngen/internal/model"
)

// notesOutputs is smallSpec with a second table, a ttl and the
// create-table inputs as outputs.
const notesOutputs = `version: 1
package: notes
tables:
  Notes: {partitionKey: PK, sortKey: SK, ttl: expiresAt}
  Archive: {partitionKey: PK, sortKey: SK}
entities:
  Note:
    table: Notes
    attributes: {userId: string, noteId: string, text: string, expiresAt: {type: time, optional: true}}
    keys: {primary: {pk: "USER#{userId}", sk: "NOTE#{noteId}"}}
  Old:
    table: Archive
    attributes: {userId: string, noteId: string}
    keys: {primary: {pk: "USER#{userId}", sk: "NOTE#{noteId}"}}
patterns:
  GetNote: {get: Note}
  GetOld: {get: Old}
outputs:
  createTable:
`

// inDir runs the command in a new directory holding spec.yaml with spec,
// and returns a function that runs it again there.
func inDir(t *testing.T, spec string) func(args ...string) (code int, stdout, stderr string) {
	t.Helper()
	t.Chdir(t.TempDir())
	writeSpec(t, spec)
	return func(args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		code := run(args, &stdout, &stderr)
		return code, stdout.String(), stderr.String()
	}
}

func writeSpec(t *testing.T, spec string) {
	t.Helper()
	if err := os.WriteFile("spec.yaml", []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// listLine is the line of the list of outputs naming name with the
// checksum of data.
func listLine(name, data string) string {
	sum := sha256.Sum256([]byte(data))
	return hex.EncodeToString(sum[:]) + "  " + name + "\n"
}

// listHead is the head of a list of outputs of spec.yaml generated into out.
const listHead = "# " + model.GeneratedText + "\n# source: ../spec.yaml\n"

// TestOutputsWrittenCheckedAndRemoved: the outputs are written with their
// list, -check compares them; an output with a header is the spec's as a
// Go file is, edited or not; a JSON output is the spec's while it holds
// what dyngen wrote (its checksum in the list), and dyngen does not write
// over a change of it; when the spec stops asking for one (or for all),
// dyngen removes what it wrote, and only that.
func TestOutputsWrittenCheckedAndRemoved(t *testing.T) {
	cmd := inDir(t, notesOutputs+"  design:\n")
	if code, _, stderr := cmd("spec.yaml", "-o", "out"); code != 0 {
		t.Fatalf("generate: exit %d: %s", code, stderr)
	}
	path := filepath.Join("out", "Notes.create-table.json")
	table := readFile(t, path)
	list := readFile(t, filepath.Join("out", model.ManifestFile))
	for _, want := range []string{listHead, "\n" + listLine("Notes.create-table.json", table), "  Notes.update-time-to-live.json\n", "  Archive.create-table.json\n", "  DESIGN.md\n"} {
		if !strings.Contains(list, want) {
			t.Errorf("the list of outputs lacks %q:\n%s", want, list)
		}
	}
	if !strings.Contains(table, `"TableName": "Notes"`) {
		t.Error("Notes.create-table.json does not create Notes")
	}
	if code, stdout, stderr := cmd("-check", "spec.yaml", "-o", "out"); code != 0 || stdout != "" {
		t.Fatalf("-check on fresh output: exit %d\n%s%s", code, stdout, stderr)
	}
	// An edited output with a header: a diff, then written over.
	design := filepath.Join("out", "DESIGN.md")
	generated := readFile(t, design)
	mustWrite(t, design, generated+"\nA note of mine.\n")
	code, stdout, _ := cmd("-check", "spec.yaml", "-o", "out")
	if code != 1 || !strings.Contains(stdout, "--- a/out/DESIGN.md") || !strings.Contains(stdout, "-A note of mine.") {
		t.Fatalf("-check on an edited DESIGN.md: exit %d\n%s", code, stdout)
	}
	if code, _, stderr := cmd("spec.yaml", "-o", "out"); code != 0 || readFile(t, design) != generated {
		t.Fatalf("generate over an edited DESIGN.md: exit %d: %s", code, stderr)
	}
	// An edited JSON output: refused, nothing written, until restored.
	mustWrite(t, path, strings.Replace(table, "PAY_PER_REQUEST", "PROVISIONED", 1))
	before := snapshot(t, ".")
	for _, args := range [][]string{{"-check", "spec.yaml", "-o", "out"}, {"spec.yaml", "-o", "out"}} {
		code, stdout, stderr := cmd(args...)
		if want := path + " was changed since dyngen wrote it"; code != 1 || stdout != "" || !strings.Contains(stderr, want) {
			t.Errorf("%q over an edited output: exit %d, stdout %q, stderr %q; want exit 1, %q", args, code, stdout, stderr, want)
		}
	}
	if diff := sameTree(before, snapshot(t, ".")); diff != "" {
		t.Errorf("the directory changed:\n%s", diff)
	}
	mustWrite(t, path, table)
	// A file of the user's beside the outputs is never touched.
	mine := filepath.Join("out", "notes.json")
	mustWrite(t, mine, "{}\n")
	// Without the Archive table, its input is removed. Without design:,
	// DESIGN.md would be too, but a file of the user's now stands there.
	writeSpec(t, strings.NewReplacer("  Archive: {partitionKey: PK, sortKey: SK}\n", "", "  Old:\n    table: Archive\n    attributes: {userId: string, noteId: string}\n    keys: {primary: {pk: \"USER#{userId}\", sk: \"NOTE#{noteId}\"}}\n", "", "  GetOld: {get: Old}\n", "").Replace(notesOutputs))
	mustWrite(t, design, "# My design\n")
	if code, _, stderr := cmd("spec.yaml", "-o", "out"); code != 0 {
		t.Fatalf("generate without Archive: exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join("out", "Archive.create-table.json")); !os.IsNotExist(err) {
		t.Errorf("the input of a removed table is still there: %v", err)
	}
	if got := readFile(t, design); got != "# My design\n" {
		t.Errorf("a DESIGN.md of the user's was touched: %q", got)
	}
	if err := os.Remove(design); err != nil {
		t.Fatal(err)
	}
	// An output the list does not name but that holds exactly what
	// generation writes (the list was lost) is taken back: nothing is
	// lost.
	list = readFile(t, filepath.Join("out", model.ManifestFile))
	if err := os.Remove(filepath.Join("out", model.ManifestFile)); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := cmd("spec.yaml", "-o", "out"); code != 0 {
		t.Fatalf("generate without the list: exit %d: %s", code, stderr)
	}
	if readFile(t, filepath.Join("out", model.ManifestFile)) != list {
		t.Error("the list was not written again as it was")
	}
	// Without outputs:, every output goes; the lock and the list that
	// names it stay.
	writeSpec(t, smallSpec)
	if code, _, stderr := cmd("spec.yaml", "-o", "out"); code != 0 {
		t.Fatalf("generate without outputs: exit %d: %s", code, stderr)
	}
	for _, name := range []string{"Notes.create-table.json", "Notes.update-time-to-live.json"} {
		if _, err := os.Stat(filepath.Join("out", name)); !os.IsNotExist(err) {
			t.Errorf("%s is still there: %v", name, err)
		}
	}
	if list := readFile(t, filepath.Join("out", model.ManifestFile)); !strings.HasSuffix(list, "  "+model.LockFile+"\n") || strings.Contains(list, "create-table") {
		t.Errorf("the list without outputs:\n%s", list)
	}
	if readFile(t, mine) != "{}\n" {
		t.Error("a file dyngen did not write was touched")
	}
}

// TestOutputsNeverTheSpec: a list edited to name the spec (or another file
// of the directory) with its very checksum can't make dyngen remove it
// when the spec is generated into its own directory (-o .).
func TestOutputsNeverTheSpec(t *testing.T) {
	cmd := inDir(t, notesOutputs)
	if code, _, stderr := cmd("spec.yaml", "-o", "."); code != 0 {
		t.Fatalf("generate: exit %d: %s", code, stderr)
	}
	spec := readFile(t, "spec.yaml")
	list := readFile(t, model.ManifestFile) + listLine("spec.yaml", spec)
	mustWrite(t, model.ManifestFile, list)
	writeSpec(t, strings.Replace(notesOutputs, "outputs:\n  createTable:\n", "", 1))
	spec = readFile(t, "spec.yaml")
	mustWrite(t, model.ManifestFile, list+listLine("spec.yaml", spec))
	if code, _, stderr := cmd("spec.yaml", "-o", "."); code != 0 {
		t.Fatalf("generate without outputs: exit %d: %s", code, stderr)
	}
	if got := readFile(t, "spec.yaml"); got != spec {
		t.Fatalf("the spec was touched: %q", got)
	}
	if _, err := os.Stat("Notes.create-table.json"); !os.IsNotExist(err) {
		t.Errorf("the outputs were not removed: %v", err)
	}
}

// TestOutputsRefuseWhatIsNotListed: a file where an output goes that the
// spec's list does not name is not overwritten, whatever it holds, nor is
// a link; an edited list can't make dyngen write or remove a file
// elsewhere; the list of another spec is not ours. In each case nothing
// is written.
func TestOutputsRefuseWhatIsNotListed(t *testing.T) {
	cases := []struct {
		name    string
		prepare func(t *testing.T)
		want    []string // in stderr
	}{{
		name: "a file of the user's",
		prepare: func(t *testing.T) {
			mustWrite(t, filepath.Join("out", "Notes.create-table.json"), "{\"TableName\": \"Notes\"}\n")
		},
		want: []string{filepath.Join("out", "Notes.create-table.json") + " exists and " + filepath.Join("out", model.ManifestFile) + " does not name it as an output of spec.yaml; move it away"},
	}, {
		name: "a file of the user's, with a list that does not name it",
		prepare: func(t *testing.T) {
			mustWrite(t, filepath.Join("out", model.ManifestFile), listHead+listLine("Archive.create-table.json", "{}\n"))
			mustWrite(t, filepath.Join("out", "Notes.create-table.json"), "{}\n")
		},
		want: []string{"Notes.create-table.json exists and"},
	}, {
		name: "one that differs only in case",
		prepare: func(t *testing.T) {
			mustWrite(t, filepath.Join("out", "notes.create-table.json"), "{}\n")
		},
		want: []string{"notes.create-table.json exists, and where file names ignore case it is " + filepath.Join("out", "Notes.create-table.json")},
	}, {
		name: "an edited list",
		prepare: func(t *testing.T) {
			mustWrite(t, filepath.Join("out", model.ManifestFile), listHead+listLine("../spec.yaml", "")+listLine("/etc/passwd", "")+listLine("store.go", "")+"Notes.create-table.json\n")
		},
		want: []string{model.ManifestFile + `:3 is "`, `  ../spec.yaml", not the checksum and name of a file dyngen writes`, `:4 is "`, `  /etc/passwd"`, `:5 is "`, `  store.go"`, `:6 is "Notes.create-table.json"`},
	}, {
		name: "the list of another spec",
		prepare: func(t *testing.T) {
			mustWrite(t, filepath.Join("out", model.ManifestFile), "# "+model.GeneratedText+"\n# source: ../other.yaml\n"+listLine("Notes.create-table.json", "{}\n"))
		},
		want: []string{model.ManifestFile + " was generated from " + filepath.Join("out", "../other.yaml")},
	}, {
		name: "a list dyngen did not write",
		prepare: func(t *testing.T) {
			mustWrite(t, filepath.Join("out", model.ManifestFile), "Notes.create-table.json\n")
		},
		want: []string{model.ManifestFile + " exists and was not generated by dyngen"},
	}, {
		name: "a link where a listed output goes",
		prepare: func(t *testing.T) {
			mustWrite(t, filepath.Join("out", model.ManifestFile), listHead+listLine("Notes.create-table.json", "{}\n"))
			mustWrite(t, "target.json", "{}\n")
			if err := os.Symlink("../target.json", filepath.Join("out", "Notes.create-table.json")); err != nil {
				t.Skip("no symbolic links here:", err)
			}
		},
		want: []string{"Notes.create-table.json exists and is not a regular file (a symbolic link)"},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cmd := inDir(t, notesOutputs)
			if err := os.MkdirAll("out", 0o755); err != nil {
				t.Fatal(err)
			}
			c.prepare(t)
			before := snapshot(t, ".")
			for _, args := range [][]string{{"spec.yaml", "-o", "out"}, {"-check", "spec.yaml", "-o", "out"}} {
				code, stdout, stderr := cmd(args...)
				if code != 1 || stdout != "" {
					t.Errorf("%q: exit %d, stdout %q; want exit 1 and no diff", args, code, stdout)
				}
				for _, want := range c.want {
					if !strings.Contains(stderr, want) {
						t.Errorf("%q: stderr lacks %q:\n%s", args, want, stderr)
					}
				}
			}
			if diff := sameTree(before, snapshot(t, ".")); diff != "" {
				t.Errorf("the directory changed:\n%s", diff)
			}
		})
	}
}

func mustWrite(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestOutputRenamedInCase: an output renamed only in case is refused
// with the way out, since where names ignore case the old and the new
// name are one file, and removing the old one would remove the new.
func TestOutputRenamedInCase(t *testing.T) {
	cmd := inDir(t, smallSpec+"outputs:\n  design: {file: DESIGN.md}\n")
	if code, _, stderr := cmd("spec.yaml", "-o", "out"); code != 0 {
		t.Fatalf("generate: exit %d: %s", code, stderr)
	}
	writeSpec(t, smallSpec+"outputs:\n  design: {file: design.md}\n")
	before := snapshot(t, ".")
	code, _, stderr := cmd("spec.yaml", "-o", "out")
	old := filepath.Join("out", "DESIGN.md")
	if want := old + " is a file dyngen generated, which it now writes as " + filepath.Join("out", "design.md") + "; where file names ignore case they are one file, so dyngen does not rename it: remove " + old + ", then generate"; code != 1 || !strings.Contains(stderr, want) {
		t.Fatalf("exit %d, stderr %q; want 1 and %q", code, stderr, want)
	}
	if diff := sameTree(before, snapshot(t, ".")); diff != "" {
		t.Errorf("the directory changed:\n%s", diff)
	}
	if err := os.Remove(old); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := cmd("spec.yaml", "-o", "out"); code != 0 {
		t.Fatalf("generate after removing it: exit %d: %s", code, stderr)
	}
}

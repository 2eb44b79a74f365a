package main

import (
	"bytes"
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

// TestOutputsWrittenCheckedAndRemoved: the outputs are written with their
// list, -check compares them, a changed one is a diff, and when the spec
// stops asking for one (or for all), dyngen removes what it wrote, and
// only that.
func TestOutputsWrittenCheckedAndRemoved(t *testing.T) {
	cmd := inDir(t, notesOutputs)
	if code, _, stderr := cmd("spec.yaml", "-o", "out"); code != 0 {
		t.Fatalf("generate: exit %d: %s", code, stderr)
	}
	list := readFile(t, filepath.Join("out", model.ManifestFile))
	for _, want := range []string{"# " + model.GeneratedText + "\n# source: ../spec.yaml\n", "\nNotes.create-table.json\n", "\nNotes.update-time-to-live.json\n", "\nArchive.create-table.json\n"} {
		if !strings.Contains(list, want) {
			t.Errorf("the list of outputs lacks %q:\n%s", want, list)
		}
	}
	if !strings.Contains(readFile(t, filepath.Join("out", "Notes.create-table.json")), `"TableName": "Notes"`) {
		t.Error("Notes.create-table.json does not create Notes")
	}
	if code, stdout, stderr := cmd("-check", "spec.yaml", "-o", "out"); code != 0 || stdout != "" {
		t.Fatalf("-check on fresh output: exit %d\n%s%s", code, stdout, stderr)
	}
	path := filepath.Join("out", "Notes.create-table.json")
	if err := os.WriteFile(path, []byte(strings.Replace(readFile(t, path), "PAY_PER_REQUEST", "PROVISIONED", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, _ := cmd("-check", "spec.yaml", "-o", "out")
	if code != 1 || !strings.Contains(stdout, "--- a/out/Notes.create-table.json") || !strings.Contains(stdout, `+  "BillingMode": "PAY_PER_REQUEST"`) {
		t.Fatalf("-check on a changed output: exit %d\n%s", code, stdout)
	}
	// A file of the user's beside the outputs is never touched.
	mine := filepath.Join("out", "notes.json")
	if err := os.WriteFile(mine, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Without the Archive table, its input is removed.
	writeSpec(t, strings.NewReplacer("  Archive: {partitionKey: PK, sortKey: SK}\n", "", "  Old:\n    table: Archive\n    attributes: {userId: string, noteId: string}\n    keys: {primary: {pk: \"USER#{userId}\", sk: \"NOTE#{noteId}\"}}\n", "", "  GetOld: {get: Old}\n", "").Replace(notesOutputs))
	if code, _, stderr := cmd("spec.yaml", "-o", "out"); code != 0 {
		t.Fatalf("generate without Archive: exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join("out", "Archive.create-table.json")); !os.IsNotExist(err) {
		t.Errorf("the input of a removed table is still there: %v", err)
	}
	if got := readFile(t, path); !strings.Contains(got, "PAY_PER_REQUEST") {
		t.Errorf("the changed output was not rewritten:\n%s", got)
	}
	// An output the list does not name but that holds exactly what
	// generation writes (the list was lost) is taken back: nothing is lost. The changed one
	// above was not.
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
	// Without outputs:, every output and the list go.
	writeSpec(t, smallSpec)
	if code, _, stderr := cmd("spec.yaml", "-o", "out"); code != 0 {
		t.Fatalf("generate without outputs: exit %d: %s", code, stderr)
	}
	for _, name := range []string{model.ManifestFile, "Notes.create-table.json", "Notes.update-time-to-live.json"} {
		if _, err := os.Stat(filepath.Join("out", name)); !os.IsNotExist(err) {
			t.Errorf("%s is still there: %v", name, err)
		}
	}
	if readFile(t, mine) != "{}\n" {
		t.Error("a file dyngen did not write was touched")
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
			mustWrite(t, filepath.Join("out", model.ManifestFile), "# "+model.GeneratedText+"\n# source: ../spec.yaml\nArchive.create-table.json\n")
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
			mustWrite(t, filepath.Join("out", model.ManifestFile), "# "+model.GeneratedText+"\n# source: ../spec.yaml\n../spec.yaml\n/etc/passwd\nstore.go\n")
		},
		want: []string{model.ManifestFile + `:3 names "../spec.yaml", which is not a file dyngen writes`, `:4 names "/etc/passwd"`, `:5 names "store.go"`},
	}, {
		name: "the list of another spec",
		prepare: func(t *testing.T) {
			mustWrite(t, filepath.Join("out", model.ManifestFile), "# "+model.GeneratedText+"\n# source: ../other.yaml\nNotes.create-table.json\n")
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
			mustWrite(t, filepath.Join("out", model.ManifestFile), "# "+model.GeneratedText+"\n# source: ../spec.yaml\nNotes.create-table.json\n")
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

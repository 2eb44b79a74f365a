package main

import (
	"bytes"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite the expected output of the txtar cases")

// TestCases runs every txtar case under testdata: each holds a command
// line (a comment line starting with "dyngen "), the expected exit status
// ("exit N"), input files, and what the run gives: stdout, stderr and the
// files it writes (see writtenSections). A section that is absent expects
// nothing: a case without a written section checks that the run wrote,
// changed and removed no file. With -update the expected sections are
// rewritten from the run.
//
// The cases of a check of the model or of the planner, whose only output
// is diagnostics, are beside the check: internal/model/testdata and
// internal/plan/testdata. These are the command's: its flags and exit
// status, what it writes and refuses to write, the plan it prints, and
// the spec's shape and YAML errors as the command reports them.
func TestCases(t *testing.T) {
	files, err := filepath.Glob("testdata/*/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no txtar cases found")
	}
	for _, file := range files {
		name := strings.TrimSuffix(strings.TrimPrefix(file, "testdata/"), ".txtar")
		t.Run(name, func(t *testing.T) { runCase(t, file) })
	}
}

// isOutput says whether a section of a case is what the run gives rather
// than an input file.
func isOutput(name string) bool {
	return name == "stdout" || name == "stderr" || name == writtenSection || strings.HasPrefix(name, writtenSection+"/")
}

func runCase(t *testing.T, file string) {
	abs, err := filepath.Abs(file)
	if err != nil {
		t.Fatal(err)
	}
	ar, err := txtar.ParseFile(abs)
	if err != nil {
		t.Fatal(err)
	}
	var args []string
	wantExit := 0
	// A case that says "keeps only stderr" does not compare stdout.
	ignoreStdout := strings.Contains(string(ar.Comment), "keeps only stderr")
	var comment []string
	for _, line := range strings.Split(strings.TrimRight(string(ar.Comment), "\n"), "\n") {
		switch {
		case strings.HasPrefix(line, "dyngen "):
			args = strings.Fields(strings.TrimPrefix(line, "dyngen "))
		case strings.HasPrefix(line, "exit "):
			wantExit, err = strconv.Atoi(strings.TrimPrefix(line, "exit "))
			if err != nil {
				t.Fatalf("bad exit line %q", line)
			}
			continue
		}
		comment = append(comment, line)
	}
	if args == nil {
		t.Fatal("the case has no command line (a comment line starting with \"dyngen \")")
	}
	dir := t.TempDir()
	want := map[string]string{}
	inputs := map[string][]byte{}
	for _, f := range ar.Files {
		if isOutput(f.Name) {
			want[f.Name] = string(f.Data)
			continue
		}
		inputs[f.Name] = f.Data
		path := filepath.Join(dir, f.Name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	var stdout, stderr bytes.Buffer
	code := run(args, &stdout, &stderr)
	checkDiagnosticLines(t, file, stderr.String())
	got := []txtar.File{{Name: "stdout", Data: stdout.Bytes()}, {Name: "stderr", Data: stderr.Bytes()}}
	if ignoreStdout {
		got = got[1:]
		delete(want, "stdout")
	}
	written, err := writtenSections(dir, inputs)
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, written...)
	got = slices.DeleteFunc(got, func(f txtar.File) bool { return len(f.Data) == 0 })
	if *update {
		var out []txtar.File
		for _, f := range ar.Files {
			if !isOutput(f.Name) {
				out = append(out, f)
			}
		}
		comment = append(comment, fmt.Sprintf("exit %d", code))
		ar.Comment = []byte(strings.Join(comment, "\n") + "\n")
		ar.Files = append(out, got...)
		if err := os.WriteFile(abs, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if code != wantExit {
		t.Errorf("exit %d, want %d\nstderr:\n%s", code, wantExit, stderr.String())
	}
	for _, f := range got {
		if string(f.Data) != want[f.Name] {
			t.Errorf("%s differs (run with -update to accept)\ngot:\n%s\nwant:\n%s", f.Name, f.Data, want[f.Name])
		}
		delete(want, f.Name)
	}
	for name, data := range want {
		t.Errorf("%s differs (run with -update to accept)\ngot nothing\nwant:\n%s", name, data)
	}
}

// writtenSection names the section of a case that lists the files the
// run wrote; the contents of a file it lists are in the section named
// writtenSection/NAME.
const writtenSection = "written"

// keptSize bounds the files whose contents a case keeps.
const keptSize = 4 << 10

// writtenSections returns what the run changed in dir, whose files were
// inputs before it: a listing of every file it wrote (new, or with other
// bytes than before) or removed, one a line with its path from dir, and
// then the contents of each file it wrote that is not Go and holds at
// most keptSize bytes. A generated Go file is listed by name only: its
// code is the golden tests' (generator/testdata/golden), and a change of
// the generated code rewrites no case here. A directory the run made and
// left empty is listed with a trailing slash.
func writtenSections(dir string, inputs map[string][]byte) ([]txtar.File, error) {
	var listing bytes.Buffer
	var contents []txtar.File
	seen := map[string]bool{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || path == dir {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		name := filepath.ToSlash(rel)
		if d.IsDir() {
			if empty, err := isEmptyDir(path); err != nil || !empty || inputDir(inputs, name) {
				return err
			}
			fmt.Fprintf(&listing, "%s/\n", name)
			return nil
		}
		seen[name] = true
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if before, ok := inputs[name]; ok && bytes.Equal(before, data) {
			return nil
		}
		switch {
		case strings.HasSuffix(name, ".go"):
			fmt.Fprintf(&listing, "%s\n", name)
		case len(data) > keptSize:
			fmt.Fprintf(&listing, "%s (over %d KiB: contents not kept)\n", name, keptSize>>10)
		default:
			fmt.Fprintf(&listing, "%s\n", name)
			contents = append(contents, txtar.File{Name: writtenSection + "/" + name, Data: data})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	var removed []string
	for name := range inputs {
		if !seen[name] {
			removed = append(removed, name)
		}
	}
	slices.Sort(removed)
	for _, name := range removed {
		fmt.Fprintf(&listing, "%s (removed)\n", name)
	}
	return append([]txtar.File{{Name: writtenSection, Data: listing.Bytes()}}, contents...), nil
}

// isEmptyDir says whether the directory at path holds nothing.
func isEmptyDir(path string) (bool, error) {
	entries, err := os.ReadDir(path)
	return len(entries) == 0, err
}

// inputDir says whether name is a directory the inputs made.
func inputDir(inputs map[string][]byte, name string) bool {
	for in := range inputs {
		if strings.HasPrefix(in, name+"/") {
			return true
		}
	}
	return false
}

// TestWrittenSections: the record of a run lists what it wrote, changed,
// made and removed, and nothing it left as it was; it keeps the contents
// of small files that are not Go only.
func TestWrittenSections(t *testing.T) {
	dir := t.TempDir()
	inputs := map[string][]byte{
		"spec.yaml":    []byte("kept as it was"),
		"out/old.go":   []byte("package old"),
		"out/edit.txt": []byte("before"),
		"gone/a.txt":   []byte("removed"),
	}
	files := map[string][]byte{
		"spec.yaml":     []byte("kept as it was"),
		"out/edit.txt":  []byte("after"),
		"out/new.go":    []byte("package new"),
		"out/big.json":  bytes.Repeat([]byte("x"), keptSize+1),
		"out/small.txt": []byte("small"),
	}
	for name, data := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{"gone", "made"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	got, err := writtenSections(dir, inputs)
	if err != nil {
		t.Fatal(err)
	}
	want := []txtar.File{
		{Name: "written", Data: []byte("made/\nout/big.json (over 4 KiB: contents not kept)\nout/edit.txt\nout/new.go\nout/small.txt\ngone/a.txt (removed)\nout/old.go (removed)\n")},
		{Name: "written/out/edit.txt", Data: []byte("after")},
		{Name: "written/out/small.txt", Data: []byte("small")},
	}
	if string(txtar.Format(&txtar.Archive{Files: got})) != string(txtar.Format(&txtar.Archive{Files: want})) {
		t.Errorf("got:\n%s\nwant:\n%s", txtar.Format(&txtar.Archive{Files: got}), txtar.Format(&txtar.Archive{Files: want}))
	}
	if got, err := writtenSections(t.TempDir(), nil); err != nil || len(got[0].Data) != 0 || len(got) != 1 {
		t.Errorf("a run that writes nothing is recorded as %v (%v), want an empty listing", got, err)
	}
}

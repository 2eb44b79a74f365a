package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite the expected output of the txtar cases")

// TestCases runs every txtar case under testdata: each holds a command
// line (a comment line starting with "dyngen "), the expected exit status
// ("exit N"), input files, and the expected stderr and, when present,
// stdout. With -update the expected sections are rewritten from the run.
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
	for _, f := range ar.Files {
		switch f.Name {
		case "stdout", "stderr":
			want[f.Name] = string(f.Data)
			continue
		}
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
	got := map[string]string{"stdout": stdout.String(), "stderr": stderr.String()}
	checkDiagnosticLines(t, file, got["stderr"])
	if *update {
		var out []txtar.File
		for _, f := range ar.Files {
			if f.Name != "stdout" && f.Name != "stderr" {
				out = append(out, f)
			}
		}
		for _, name := range []string{"stdout", "stderr"} {
			if got[name] != "" && !(name == "stdout" && ignoreStdout) {
				out = append(out, txtar.File{Name: name, Data: []byte(got[name])})
			}
		}
		comment = append(comment, fmt.Sprintf("exit %d", code))
		ar.Comment = []byte(strings.Join(comment, "\n") + "\n")
		ar.Files = out
		if err := os.WriteFile(abs, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if code != wantExit {
		t.Errorf("exit %d, want %d\nstderr:\n%s", code, wantExit, got["stderr"])
	}
	for _, name := range []string{"stdout", "stderr"} {
		if name == "stdout" && ignoreStdout {
			continue
		}
		if got[name] != want[name] {
			t.Errorf("%s differs (run with -update to accept)\ngot:\n%s\nwant:\n%s", name, got[name], want[name])
		}
	}
}

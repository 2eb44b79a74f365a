package generator

import (
	"bytes"
	"go/format"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestValidSpecs checks that the specs the project holds up as valid (the
// parser's test specs and the examples) pass the whole pipeline.
func TestValidSpecs(t *testing.T) {
	var files []string
	for _, pattern := range []string{"../spec/testdata/valid/*.yaml", "../example/*/spec.yaml"} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 5 {
		t.Fatalf("found only %d specs", len(files))
	}
	for _, file := range files {
		t.Run(file, func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			res := Check(file, data)
			if err := res.Diags.Err(); err != nil {
				t.Fatal(err)
			}
			if res.Plan == nil || len(res.Plan.Patterns) != len(res.Model.Patterns) {
				t.Fatalf("not every pattern was planned")
			}
		})
	}
}

// TestSourceLineOneLine checks that a spec path holding a line break
// still gives gofmt-clean files whose source line is one comment line.
func TestSourceLineOneLine(t *testing.T) {
	spec := []byte("version: 1\npackage: p\ntables:\n  Notes: {partitionKey: PK}\nentities:\n  Note:\n    attributes: {id: string}\n    keys: {primary: {pk: \"NOTE#{id}\"}}\npatterns:\n  GetNote: {get: Note}\n")
	files, diags := Generate("spec.yaml", "odd\ndir/spec.yaml", spec)
	if diags.HasErrors() {
		t.Fatal(diags.Err())
	}
	for _, f := range files {
		lines := strings.SplitN(string(f.Data), "\n", 3)
		if len(lines) < 3 || lines[1] != `// source: odd\ndir/spec.yaml` {
			t.Errorf("%s starts %q", f.Name, lines[:min(2, len(lines))])
		}
		if out, err := format.Source(f.Data); err != nil || !bytes.Equal(out, f.Data) {
			t.Errorf("%s is not gofmt-clean: %v", f.Name, err)
		}
	}
}

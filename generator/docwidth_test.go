package generator

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// TestDocWidth: every comment line the generator writes fits 80 columns
// (a tab counting as four), for every golden case and example spec, and
// no comment is a jennifer character literal's byte(0x..) form.
func TestDocWidth(t *testing.T) {
	specs := map[string][]byte{}
	goldens, _ := filepath.Glob("testdata/golden/*.txtar")
	for _, file := range goldens {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			if f.Name == "spec.yaml" {
				specs[file] = f.Data
			}
		}
	}
	examples, _ := filepath.Glob("../example/*/spec.yaml")
	for _, file := range append(examples, "../internal/e2e/spec.yaml") {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		specs[file] = data
	}
	if len(specs) < 10 {
		t.Fatalf("only %d specs found", len(specs))
	}
	for name, spec := range specs {
		files, diags := Generate("spec.yaml", "spec.yaml", spec)
		if diags.HasErrors() {
			t.Fatalf("%s: %v", name, diags)
		}
		for _, f := range files {
			for i, line := range strings.Split(string(f.Data), "\n") {
				if strings.Contains(line, "byte(0x") {
					t.Errorf("%s %s:%d: %s", name, f.Name, i+1, line)
				}
				text := strings.TrimLeft(line, "\t")
				if !strings.HasPrefix(text, "//") {
					continue
				}
				if w := len([]rune(line)) + 3*strings.Count(line, "\t"); w > 80 {
					t.Errorf("%s %s:%d: a comment line of %d columns: %s", name, f.Name, i+1, w, line)
				}
			}
		}
	}
}

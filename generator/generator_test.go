package generator

import (
	"os"
	"path/filepath"
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

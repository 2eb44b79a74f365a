package generator

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/txtar"
)

// corpusSpecs are the specs many tests run on: the spec of every golden
// case (named by its txtar file) and of every example and the
// integration tests (named by their path).
func corpusSpecs(t *testing.T) map[string][]byte {
	t.Helper()
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
	return specs
}

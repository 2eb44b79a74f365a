// Package corpus gathers the specs that many tests run on: the spec of
// every golden case of the Go emitter, of every example and of the
// integration tests, and compiles one as far as the plan for tests of the
// stages that come after it.
package corpus

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/dyngen/dyngen/internal/diag"
	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/plan"
	"github.com/dyngen/dyngen/spec"
	"golang.org/x/tools/txtar"
)

// Specs returns the corpus's specs by file name (a golden case is named by
// its txtar file). root is the path of the module's root from the
// caller's directory.
func Specs(root string) (map[string][]byte, error) {
	specs := map[string][]byte{}
	goldens, _ := filepath.Glob(filepath.Join(root, "generator/testdata/golden/*.txtar"))
	for _, file := range goldens {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			return nil, err
		}
		for _, f := range ar.Files {
			if f.Name == "spec.yaml" {
				specs[file] = f.Data
			}
		}
	}
	examples, _ := filepath.Glob(filepath.Join(root, "example/*/spec.yaml"))
	for _, file := range append(examples, filepath.Join(root, "internal/e2e/spec.yaml")) {
		data, err := os.ReadFile(file)
		if err != nil {
			return nil, err
		}
		specs[file] = data
	}
	if len(specs) < 10 {
		return nil, fmt.Errorf("only %d specs found under %s", len(specs), root)
	}
	return specs, nil
}

// Plan parses, resolves and plans the spec in data, as the generator's
// pipeline does; the plan is nil when the spec has errors.
func Plan(file string, data []byte) (*plan.Plan, *diag.List) {
	f, diags := spec.Parse(file, data)
	if diags.HasErrors() {
		return nil, diags
	}
	m := model.Resolve(f, diags)
	if diags.HasErrors() {
		return nil, diags
	}
	return plan.Build(m, diags), diags
}

package generator

import (
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// hostileSpecs reads the specs of testdata/hostile: each txtar archive
// there holds specs whose names and docs meet the generator's own
// identifiers, Go's, file names and comments. It returns them by
// "archive/spec" name, in order.
func hostileSpecs() ([]string, map[string][]byte, error) {
	archives, err := filepath.Glob("testdata/hostile/*.txtar")
	if err != nil {
		return nil, nil, err
	}
	var names []string
	specs := map[string][]byte{}
	for _, file := range archives {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			return nil, nil, err
		}
		for _, f := range ar.Files {
			name := strings.TrimSuffix(filepath.Base(file), ".txtar") + "/" + strings.TrimSuffix(f.Name, ".yaml")
			names = append(names, name)
			specs[name] = f.Data
		}
	}
	return names, specs, nil
}

// TestHostileSpecs checks each spec of testdata/hostile: it is refused
// with an error, or its package is sound (outputProblems: distinct file
// names that every platform builds, gofmt-clean, type-checked, docs in
// comments only).
func TestHostileSpecs(t *testing.T) {
	names, specs, err := hostileSpecs()
	if err != nil {
		t.Fatal(err)
	}
	if len(names) == 0 {
		t.Fatal("no hostile specs")
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			res := Check("spec.yaml", specs[name])
			if res.Diags.HasErrors() {
				t.Logf("refused:\n%v", res.Diags.Err())
			}
			for _, err := range outputProblems(res) {
				t.Error(err)
			}
		})
	}
}

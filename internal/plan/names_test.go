package plan_test

import (
	"maps"
	"path/filepath"
	"testing"

	"github.com/dyngen/dyngen/internal/corpus"
	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/plan"
	"github.com/dyngen/dyngen/spec"
	"golang.org/x/tools/txtar"
)

// TestPackageNames checks that the plan's set of the package's
// unexported names (built once, with the check of their clashes) holds
// every name model.UnexportedNames gives and no other: on the corpus, and
// on the cases whose names clash, where the check goes through the names
// again to say which.
func TestPackageNames(t *testing.T) {
	specs, err := corpus.Specs("../..")
	if err != nil {
		t.Fatal(err)
	}
	cases, _ := filepath.Glob("testdata/generated_name*.txtar")
	if len(cases) == 0 {
		t.Fatal("no case of clashing names in testdata")
	}
	clashing := 0
	for _, file := range cases {
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
	for file, data := range specs {
		f, diags := spec.Parse(file, data)
		if diags.HasErrors() {
			continue
		}
		m := model.Resolve(f, diags)
		if diags.HasErrors() {
			continue
		}
		p := plan.Build(m, diags)
		want := map[string]bool{}
		listed := 0
		for n := range m.UnexportedNames() {
			want[n.Name] = true
			listed++
		}
		if listed > len(want) {
			clashing++
		}
		if !maps.Equal(p.PackageNames, want) {
			t.Errorf("%s: the plan's PackageNames hold %d names, UnexportedNames %d distinct ones", file, len(p.PackageNames), len(want))
		}
	}
	if clashing == 0 {
		t.Errorf("no spec of %v gives two unexported names alike: the check's second pass is not run", cases)
	}
}

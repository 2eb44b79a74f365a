package generator

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/txtar"
)

// TestParamGoTypes: the type the generated method declares for each
// parameter prints as plan.Pattern.GoType, which decides it and which
// `dyngen plan -json` reports (typeCode loses nothing), on every example,
// the integration spec and the golden cases.
func TestParamGoTypes(t *testing.T) {
	specs := map[string][]byte{}
	files, _ := filepath.Glob("../example/*/spec.yaml")
	for _, file := range append(files, "../internal/e2e/spec.yaml") {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		specs[file] = data
	}
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
	if len(specs) < 10 {
		t.Fatalf("only %d specs", len(specs))
	}
	checked := 0
	for name, data := range specs {
		res := Check(name, data)
		if res.Plan == nil {
			continue
		}
		for _, pp := range res.Plan.Patterns {
			m := &method{pp: pp, p: pp.Pattern, req: pp.Request}
			for _, p := range pp.Params {
				want := fmt.Sprintf("%#v", m.paramType(p))
				if got := pp.GoType(p); got != want {
					t.Errorf("%s: %s: parameter %s: plan says %s, the method declares %s", name, pp.Pattern.Name, p.Name, got, want)
				}
				checked++
			}
		}
	}
	if checked < 100 {
		t.Errorf("only %d parameters checked", checked)
	}
}

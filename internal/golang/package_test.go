package golang

import (
	"slices"
	"strings"
	"testing"
)

// TestStoreMethodsOnce: the exported Store methods the pattern files
// declare and StoreAPI lists (method.exported) are the model's
// (model.StoreMethods), in order, on every example, the integration spec
// and the golden cases.
func TestStoreMethodsOnce(t *testing.T) {
	checked := 0
	for name, pl := range corpusPlans(t, nil) {
		var got, want []string
		for _, pp := range pl.Patterns {
			m := &method{pp: pp, p: pp.Pattern, req: pp.Request}
			for _, am := range m.exported() {
				got = append(got, am.name)
			}
		}
		for _, n := range pl.Model.StoreMethods() {
			want = append(want, n.Name)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: the files declare %v, the model names %v", name, got, want)
		}
		checked += len(got)
	}
	if checked < 100 {
		t.Errorf("only %d methods checked", checked)
	}
}

// TestBuildersCalled: every key builder the plan lists for an entity
// (plan.Entity.Builders) is declared in its entity's file and called by a
// method, and no method calls another (Package fails on one the plan
// does not list), on every example, the integration spec and the golden
// cases.
func TestBuildersCalled(t *testing.T) {
	checked := 0
	for name, pl := range corpusPlans(t, nil) {
		files, err := Package(pl, name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var patterns strings.Builder
		byName := map[string]string{}
		for _, f := range files {
			byName[f.Name] = string(f.Data)
			if strings.HasPrefix(f.Name, "patterns") {
				patterns.Write(f.Data)
			}
		}
		for _, pe := range pl.Entities {
			src := byName[pe.Entity.File()]
			for _, b := range pe.Builders {
				if !strings.Contains(src, "\nfunc "+b.Name+"(") {
					t.Errorf("%s: %s does not declare %s", name, pe.Entity.File(), b.Name)
				}
				if !strings.Contains(patterns.String(), b.Name+"(") {
					t.Errorf("%s: no method calls %s", name, b.Name)
				}
				checked++
			}
		}
	}
	if checked < 50 {
		t.Errorf("only %d builders checked", checked)
	}
}

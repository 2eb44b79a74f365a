package golang

import (
	"testing"

	"github.com/dyngen/dyngen/internal/corpus"
	"github.com/dyngen/dyngen/internal/plan"
)

// corpusSpecs are the specs many tests run on (see corpus.Specs).
func corpusSpecs(t *testing.T) map[string][]byte {
	t.Helper()
	specs, err := corpus.Specs("../..")
	if err != nil {
		t.Fatal(err)
	}
	return specs
}

// planOf is the plan of the spec in data, failing the test when the
// spec has errors.
func planOf(t *testing.T, file string, data []byte) *plan.Plan {
	t.Helper()
	p, diags := corpus.Plan(file, data)
	if p == nil {
		t.Fatalf("%s: %v", file, diags.Err())
	}
	return p
}

// corpusPlans are the plans of the corpus's specs (corpusSpecs) and of
// extra, by file name.
func corpusPlans(t *testing.T, extra map[string]string) map[string]*plan.Plan {
	t.Helper()
	specs := corpusSpecs(t)
	for name, data := range extra {
		specs[name] = []byte(data)
	}
	plans := map[string]*plan.Plan{}
	for name, data := range specs {
		plans[name] = planOf(t, name, data)
	}
	return plans
}

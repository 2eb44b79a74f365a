package golang

import (
	"testing"

	"github.com/dyngen/dyngen/internal/corpus"
	"github.com/dyngen/dyngen/internal/diag"
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

// planned is a spec compiled as far as its plan.
type planned struct {
	Plan  *plan.Plan // nil when the spec has errors
	Diags *diag.List
}

// planOf compiles the spec in data as far as its plan.
func planOf(file string, data []byte) planned {
	p, diags := corpus.Plan(file, data)
	return planned{p, diags}
}

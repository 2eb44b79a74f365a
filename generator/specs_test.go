package generator

import (
	"testing"

	"github.com/dyngen/dyngen/internal/corpus"
)

// corpusSpecs are the specs many tests run on (see corpus.Specs).
func corpusSpecs(t *testing.T) map[string][]byte {
	t.Helper()
	specs, err := corpus.Specs("..")
	if err != nil {
		t.Fatal(err)
	}
	return specs
}

package model_test

import (
	"flag"
	"testing"

	"github.com/dyngen/dyngen/internal/checktest"
)

var update = flag.Bool("update", false, "rewrite the diagnostics of the cases in testdata")

// TestChecks runs the cases of the model's checks (testdata/*.txtar, read
// as package checktest says): the diagnostics of spec.Parse and
// model.Resolve on each case's spec must be the case's, and all that
// dyngen's checks report on it.
func TestChecks(t *testing.T) { checktest.Run(t, "testdata", *update, checktest.Model) }

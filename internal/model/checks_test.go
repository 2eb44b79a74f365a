package model_test

import (
	"flag"
	"testing"

	"github.com/dyngen/dyngen/internal/checktest"
	"github.com/dyngen/dyngen/internal/diag"
)

var update = flag.Bool("update", false, "rewrite the diagnostics of the cases in testdata")

// TestChecks runs the cases of the model's checks (testdata/*.txtar, read
// as package checktest says): the diagnostics of spec.Parse and
// model.Resolve on each case's spec must be the case's. They must be all
// that dyngen's checks report on it: a case the planner reports on too
// belongs in internal/plan/testdata.
func TestChecks(t *testing.T) {
	checktest.Run(t, "testdata", *update, func(t *testing.T, data []byte) *diag.List {
		resolved, all := checktest.Stages(t, data)
		if got, want := checktest.Text(all), checktest.Text(resolved); got != want {
			t.Errorf("the planner reports on this spec too, and the case belongs in internal/plan/testdata\nall of dyngen's checks:\n%s\nthe model's:\n%s", got, want)
		}
		return resolved
	})
}

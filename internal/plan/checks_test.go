package plan_test

import (
	"flag"
	"testing"

	"github.com/dyngen/dyngen/internal/checktest"
	"github.com/dyngen/dyngen/internal/diag"
)

var update = flag.Bool("update", false, "rewrite the diagnostics of the cases in testdata")

// TestChecks runs the cases of the planner's checks (testdata/*.txtar,
// read as package checktest says): the diagnostics of dyngen's checks on
// each case's spec (generator.Check: parse, resolve, plan the model or
// its sound part) must be the case's, and the planner must report some of
// them: a case whose diagnostics are all the model's belongs in
// internal/model/testdata.
func TestChecks(t *testing.T) {
	checktest.Run(t, "testdata", *update, func(t *testing.T, data []byte) *diag.List {
		resolved, all := checktest.Stages(t, data)
		if checktest.Text(all) == checktest.Text(resolved) {
			t.Errorf("the planner reports nothing on this spec: the case belongs in internal/model/testdata")
		}
		return all
	})
}

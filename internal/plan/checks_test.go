package plan_test

import (
	"flag"
	"testing"

	"github.com/dyngen/dyngen/internal/checktest"
)

var update = flag.Bool("update", false, "rewrite the diagnostics of the cases in testdata")

// TestChecks runs the cases of the planner's checks (testdata/*.txtar,
// read as package checktest says): the diagnostics of dyngen's checks on
// each case's spec must be the case's, and the planner must report some
// of them.
func TestChecks(t *testing.T) { checktest.Run(t, "testdata", *update, checktest.Plan) }

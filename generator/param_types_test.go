package generator

import (
	"fmt"
	"testing"
)

// TestParamGoTypes: the type the generated method declares for each
// parameter prints as plan.Pattern.GoType, which decides it and which
// `dyngen plan -json` reports (typeCode loses nothing), on every example,
// the integration spec and the golden cases.
func TestParamGoTypes(t *testing.T) {
	specs := corpusSpecs(t)
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

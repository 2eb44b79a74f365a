package generator

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/plan"
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

// TestOneInputRule: a method takes at most model.MaxPositional inputs as
// parameters of their own (besides ctx, an item, a page, keys or items);
// past that it takes one struct, so that two inputs of one Go type can't be
// swapped without a word. Every input counts: the elements an update
// removes from a set too.
func TestOneInputRule(t *testing.T) {
	specs := corpusSpecs(t)
	specs["untag.yaml"] = []byte(`version: 1
package: blog
tables:
  Main: {partitionKey: PK}
entities:
  Post:
    attributes: {id: string, tags: {type: stringSet, optional: true}, banned: {type: stringSet, optional: true}}
    keys: {primary: {pk: "POST#{id}"}}
patterns:
  GetPost: {get: Post}
  Untag: {update: Post, removeFrom: [tags, banned]}
  UntagOne: {update: Post, removeFrom: [tags]}
`)
	checked := 0
	for name, data := range specs {
		res := Check(name, data)
		if res.Plan == nil {
			t.Fatalf("%s: %v", name, res.Diags.Err())
		}
		for _, pp := range res.Plan.Patterns {
			var inputs []string
			for _, p := range pp.Params {
				switch p.Role {
				case plan.ParamPage, plan.ParamItem, plan.ParamKeys, plan.ParamItems, plan.ParamClock:
				default:
					inputs = append(inputs, p.Name)
				}
			}
			if len(inputs) > model.MaxPositional && pp.Struct == nil {
				t.Errorf("%s: %s takes %d inputs as parameters of their own (%s); past %d they are one struct's fields", name, pp.Pattern.Name, len(inputs), strings.Join(inputs, ", "), model.MaxPositional)
			}
			checked++
		}
	}
	if checked < 100 {
		t.Errorf("only %d patterns checked", checked)
	}
}

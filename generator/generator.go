// Package generator runs dyngen's pipeline on a spec:
//
//	spec.Parse -> model.Resolve -> plan.Build -> golang.Package (the Go package)
//	                                          -> output.Render (the outputs: listed)
//
// and returns the files and the diagnostics. Each stage reads only what the
// stages before it made: the model decides every name, the plan every
// request and expression, and the Go emitter (internal/golang) and the
// outputs (internal/output) print them. It never writes anything itself:
// the dyngen command is the only writer.
package generator

import (
	"github.com/dyngen/dyngen/internal/diag"
	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/output"
	"github.com/dyngen/dyngen/internal/plan"
	"github.com/dyngen/dyngen/spec"
)

// Result is what compiling one spec gives.
type Result struct {
	Model *model.Model // nil when the spec could not be read; with errors, only its sound part (see model.Model.Prune)
	Plan  *plan.Plan   // nil when the model has errors
	Diags *diag.List
}

// Check parses the spec in data (file names it in diagnostics), resolves
// the model and plans it. Every problem is in Result.Diags. The model is
// resolved only when the spec's shape is right, so that its errors are
// not echoes of shape errors. The planner then checks every table,
// entity and pattern the model found no error in, and leaves out those
// with errors and what depends on them; Plan is set only when the model
// has no error. The outputs: are resolved with the model and checked on
// the plan by internal/output (output.Resolve, output.Check), from its
// table of formats.
func Check(file string, data []byte) *Result {
	f, diags := spec.Parse(file, data)
	res := &Result{Diags: diags}
	if diags.HasErrors() {
		return res
	}
	res.Model = model.Resolve(f, diags)
	output.Resolve(res.Model, f.Outputs, diags)
	if diags.HasErrors() {
		if res.Model.Prune() {
			output.Check(plan.Build(res.Model, diags), diags)
		}
		return res
	}
	res.Plan = plan.Build(res.Model, diags)
	output.Check(res.Plan, diags)
	return res
}

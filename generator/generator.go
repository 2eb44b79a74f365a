// Package generator runs dyngen's pipeline on a spec: parse, resolve the
// model, plan every access pattern, and (once a spec is free of errors)
// emit the Go package. It returns files and diagnostics; it never writes
// anything itself: the dyngen command is the only writer.
package generator

import (
	"github.com/dyngen/dyngen/internal/diag"
	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/plan"
	"github.com/dyngen/dyngen/spec"
)

// Result is what compiling one spec gives.
type Result struct {
	Model *model.Model // nil when the spec could not be read
	Plan  *plan.Plan   // nil when the model has errors
	Diags *diag.List
}

// Check parses the spec in data (file names it in diagnostics), resolves
// the model and plans it. Every problem is in Result.Diags. Each stage
// runs only when the one before found no error, so that its findings are
// not echoes of earlier mistakes: shape errors come first, then every
// error of meaning, then every refusal of the planner.
func Check(file string, data []byte) *Result {
	f, diags := spec.Parse(file, data)
	res := &Result{Diags: diags}
	if diags.HasErrors() {
		return res
	}
	res.Model = model.Resolve(f, diags)
	if diags.HasErrors() {
		return res
	}
	res.Plan = plan.Build(res.Model, diags)
	return res
}

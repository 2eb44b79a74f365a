// Package templates holds the text/template files dyngen renders for
// what is not Go code: the plan report of `dyngen plan`.
package templates

import (
	"embed"
	"text/template"
)

//go:embed *.tmpl
var files embed.FS

// Plan is the template of the plan report. It prints lines the plan
// package has already laid out and wrapped (see plan.Report.WriteText):
// the template decides the sections and their order.
var Plan = template.Must(template.New("plan.txt.tmpl").ParseFS(files, "plan.txt.tmpl"))

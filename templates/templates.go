// Package templates holds the text/template files dyngen renders for
// what is not Go code: the plan report of `dyngen plan`.
package templates

import (
	"embed"
	"strings"
	"text/template"
)

//go:embed *.tmpl
var files embed.FS

// Plan is the template of the plan report. Its output goes through a
// tabwriter: cells are separated by tabs, and consecutive lines with tabs
// form one aligned table.
var Plan = template.Must(template.New("plan.txt.tmpl").Funcs(template.FuncMap{"join": strings.Join}).ParseFS(files, "plan.txt.tmpl"))

// Package templates holds the text/template files dyngen renders for
// what is not Go code: the plan report of `dyngen plan` (internal/report)
// and the outputs a spec asks for (internal/output/<format>).
package templates

import (
	"embed"
	"text/template"
)

//go:embed *.tmpl
var files embed.FS

// parse parses one template file.
func parse(name string) *template.Template {
	return template.Must(template.New(name).ParseFS(files, name))
}

// Plan is the template of the plan report. It prints lines the plan
// report has already laid out and wrapped (see report.Report.WriteText):
// the template decides the sections and their order.
var Plan = parse("plan.txt.tmpl")

// Manifest is the list of the outputs written besides the Go package
// (model.ManifestFile).
var Manifest = parse("manifest.txt.tmpl")

// Design is the design document (outputs: design:), a Markdown file
// whose every text internal/output has made inert.
var Design = parse("design.md.tmpl")

// CloudFormation is the CloudFormation template of the tables
// (internal/output/cloudformation).
var CloudFormation = parse("cloudformation.yaml.tmpl")

// Backfill is the CloudFormation stack of the backfills (the migration
// output, internal/output/migration).
var Backfill = parse("backfill.cfn.yaml.tmpl")

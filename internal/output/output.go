// Package output lists the outputs a spec may ask for besides the Go
// package (outputs:): Formats is the one table of them, and each format
// is a folder beside this file that owns its decisions (names, quotas,
// what its files hold), its rendering and its tests, reading the plan
// and the model only:
//
//	cloudformation/  the CloudFormation template of the tables (and the IAM policy)
//	terraform/       the Terraform JSON of the tables (and the IAM policy)
//	createtable/     per table, the input of aws dynamodb create-table
//	workbench/       a NoSQL Workbench data model, with sample items
//	design/          a design document (Markdown, Mermaid)
//	iam/             the IAM policy of the generated code's calls, and one per consumer of a stream
//	migration/       the IAM policy of the backfills' calls (their code is the Go package's backfill.go)
//	format/          what they share: File, JSON, the reading of committed tables
//
// The pipeline (generator) resolves outputs: with Resolve, checks the
// formats' names and quotas with Check once the plan is built, renders
// the files with Render, and warns of a deployed table a new output
// would replace with TableChanges. Each reads the table; a new format
// is one entry of Formats and its folder.
package output

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/dyngen/dyngen/internal/compat"
	"github.com/dyngen/dyngen/internal/diag"
	"github.com/dyngen/dyngen/internal/lock"
	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/output/cloudformation"
	"github.com/dyngen/dyngen/internal/output/createtable"
	"github.com/dyngen/dyngen/internal/output/design"
	"github.com/dyngen/dyngen/internal/output/format"
	"github.com/dyngen/dyngen/internal/output/iam"
	"github.com/dyngen/dyngen/internal/output/migration"
	"github.com/dyngen/dyngen/internal/output/terraform"
	"github.com/dyngen/dyngen/internal/output/workbench"
	"github.com/dyngen/dyngen/internal/plan"
	"github.com/dyngen/dyngen/spec"
	"github.com/dyngen/dyngen/templates"
)

// Format is one format of outputs.
type Format struct {
	// Kind is the format's name under outputs: (format.CloudFormation...).
	Kind model.OutputKind
	// File is the default name of the format's file, and Endings the
	// endings a name given with file: may have. Both are empty for a
	// format that writes a file per table (TableFiles), which takes no
	// file:.
	File    string
	Endings []string
	// TableFiles names the files a format writes per table, with what
	// each comes from; nil for a format of one file.
	TableFiles func(t *model.Table) []model.GenName
	// Also names the files a format of one file writes after it, whose
	// names it fixes (model.Output.Also).
	Also []string
	// ConsumerFiles names the files a format of one file writes after
	// those for each consumer of a table's stream, given the name of
	// its file (model.Output.ConsumerFiles); nil for a format that
	// writes none.
	ConsumerFiles func(file string, c *model.Consumer) []model.GenName
	// FileRule says what is wrong, for this format, with name as the
	// file of output o, its own or another format's ("" when nothing
	// is): Terraform reads every .tf.json file of the directory. Nil when
	// the format cares for no name but its own file's.
	FileRule func(o Format, name string) string
	// Check adds the format's errors and warnings on a plan (names its
	// files can't hold, quotas); nil when it has none.
	Check func(p *plan.Plan, o *model.Output, diags *diag.List)
	// Render returns the format's files, named as the model names them
	// (model.OutputFiles).
	Render func(p *plan.Plan, o *model.Output, src Source) ([]File, error)
	// Tool says what deploying the output does where DynamoDB can't
	// change a table in place (the compatibility check's infrastructure
	// findings); nil for a format that deploys no table.
	Tool func(o *model.Output) compat.Tool
}

// Formats are the formats of outputs, in the order the reference lists
// them (spec.OutputKinds). A new format is an entry here, its folder,
// its name in spec.OutputKinds and spec/schema.json, and its section of
// docs/spec.md.
var Formats = []Format{
	{Kind: format.CloudFormation, File: "tables.cfn.yaml", Endings: []string{".yaml", ".yml"},
		Check: cloudformation.Check, Render: cloudformation.Render, Tool: cloudformation.Tool},
	{Kind: format.Terraform, File: "tables.tf.json", Endings: []string{".tf.json"}, FileRule: terraformFile,
		Check: terraform.Check, Render: terraform.Render, Tool: terraform.Tool},
	{Kind: format.CreateTable, TableFiles: createtable.Files, Render: createtable.Render},
	{Kind: format.Workbench, File: "workbench.json", Endings: []string{".json"}, Check: workbench.Check, Render: workbench.Render},
	{Kind: format.Design, File: "DESIGN.md", Endings: []string{".md"}, Render: design.Render},
	{Kind: format.IAM, File: "iam-policy.json", Endings: []string{".json"}, ConsumerFiles: iam.ConsumerFiles, Check: iam.Check, Render: iam.Render},
	{Kind: format.Migration, File: "backfill-iam-policy.json", Endings: []string{".json"}, Also: []string{migration.StackFile}, Render: migration.Render},
}

// terraformFile is the Terraform output's rule of file names: Terraform
// reads every .tf.json file of the directory as configuration, and
// merges an override file into the others.
func terraformFile(o Format, name string) string {
	lower := strings.ToLower(name)
	switch {
	case o.Kind != format.Terraform && strings.HasSuffix(lower, ".tf.json"):
		return fmt.Sprintf("file %q of output %s would be read by Terraform, which reads every .tf.json file of the directory as configuration; e.g. %q", name, o.Kind, o.File)
	case o.Kind == format.Terraform && (lower == "override.tf.json" || strings.HasSuffix(lower, "_override.tf.json")):
		return fmt.Sprintf("file %q of output %s would be an override file to Terraform, which merges it into the other files' resources instead of reading its own; e.g. %q", name, o.Kind, o.File)
	}
	return ""
}

// The names every format shares with package format.
type (
	// File is one output file: its name in the output directory and its
	// contents.
	File = format.File
	// Source is how the outputs name the spec they come from.
	Source = format.Source
)

// NewSource returns the Source of a spec the output directory names path.
func NewSource(path string) Source { return format.NewSource(path) }

// formatOf returns the format of kind k, or nil.
func formatOf(k model.OutputKind) *Format {
	for i := range Formats {
		if Formats[i].Kind == k {
			return &Formats[i]
		}
	}
	return nil
}

// Resolve resolves the spec's outputs: into m.Outputs, in spec order: the
// format of each, and its file, the format's default unless file: names
// another. A file name that can't be written, or that the format or
// another's tool would read otherwise, is an error at file:, and the
// output is left out. The parser has refused the formats it does not
// know.
func Resolve(m *model.Model, outs []*spec.Output, diags *diag.List) {
	for _, so := range outs {
		f := formatOf(model.OutputKind(so.Kind.Value))
		if f == nil {
			continue // the parser refused it
		}
		o := &model.Output{Kind: f.Kind, Pos: so.Pos, File: f.File, FilePos: so.Pos, TableFiles: f.TableFiles, Also: f.Also}
		if so.File.Set {
			o.FilePos = so.File.Pos
			if msg := f.fileProblem(so.File.Value); msg != "" {
				diags.Errorf(so.File.Pos, "%s", msg)
				continue
			}
			o.File = so.File.Value
		}
		if f.ConsumerFiles != nil {
			file, files := o.File, f.ConsumerFiles
			o.ConsumerFiles = func(c *model.Consumer) []model.GenName { return files(file, c) }
		}
		m.Outputs = append(m.Outputs, o)
	}
}

// fileProblem says what is wrong with name as the file of an output of
// format f, or "".
func (f Format) fileProblem(name string) string {
	base, _, _ := strings.Cut(strings.ToLower(name), ".")
	switch {
	case f.TableFiles != nil:
		return fmt.Sprintf("output %s writes a file per table (%s), so it takes no file:; remove it", f.Kind, f.tableFilePattern())
	case !model.IsPlainFileName(name):
		return fmt.Sprintf("file %q of output %s is not a plain file name: use letters, digits, '.', '-' and '_', starting with a letter or digit (e.g. %q)", name, f.Kind, f.File)
	case len(name) > model.MaxFileName:
		return fmt.Sprintf("file name of output %s is %d bytes long; most file systems take at most %d", f.Kind, len(name), model.MaxFileName)
	case model.IsWindowsDevice(name):
		return fmt.Sprintf("file %q of output %s can't be created on Windows, which reserves the name %s for a device; choose another (e.g. %q)", name, f.Kind, base, f.File)
	case !hasEnding(name, f.Endings):
		return fmt.Sprintf("file %q of output %s must end in %s; e.g. %q", name, f.Kind, strings.Join(f.Endings, " or "), f.File)
	case strings.EqualFold(name, model.ManifestFile):
		return fmt.Sprintf("file %q of output %s is the list of outputs dyngen writes; choose another (e.g. %q)", name, f.Kind, f.File)
	case strings.EqualFold(name, model.LockFile):
		return fmt.Sprintf("file %q of output %s is the lock dyngen writes; choose another (e.g. %q)", name, f.Kind, f.File)
	}
	for _, other := range Formats {
		if other.FileRule != nil {
			if msg := other.FileRule(f, name); msg != "" {
				return msg
			}
		}
	}
	return ""
}

// tableFilePattern is how a format of a file per table names its files:
// its first file's name for a table named <table>.
func (f Format) tableFilePattern() string {
	return f.TableFiles(&model.Table{Name: "<table>"})[0].Name
}

func hasEnding(name string, endings []string) bool {
	for _, e := range endings {
		if strings.HasSuffix(strings.ToLower(name), e) && len(name) > len(e) {
			return true
		}
	}
	return false
}

// Check adds the errors and warnings of every format the spec asks for
// on plan p: names and strings its files can't hold, its quotas. It runs
// on the plan of a model with errors too (of its sound part, see
// model.Model.Prune); p nil (no plan) checks nothing.
func Check(p *plan.Plan, diags *diag.List) {
	if p == nil {
		return
	}
	for _, f := range Formats {
		if o := p.Model.Output(f.Kind); o != nil && f.Check != nil {
			f.Check(p, o, diags)
		}
	}
}

// Render returns the files of every output p's model asks for, then
// the lock (model.LockFile) and the manifest, in the order of
// model.OutputFiles.
func Render(p *plan.Plan, src Source) ([]File, error) { return RenderLock(p, src, nil) }

// RenderLock is Render with the lock it writes built already (lock.Build
// of p for src), or nil to build it.
func RenderLock(p *plan.Plan, src Source, l *lock.Lock) ([]File, error) {
	if l == nil {
		l = lock.Build(p, src.Line)
	}
	var out []File
	for _, o := range p.Model.Outputs {
		f := formatOf(o.Kind)
		if f == nil {
			return nil, fmt.Errorf("output %s is not implemented", o.Kind)
		}
		files, err := f.Render(p, o, src)
		if err != nil {
			return nil, fmt.Errorf("output %s: %w", o.Kind, err)
		}
		out = append(out, files...)
	}
	lk, err := lock.Marshal(l)
	if err != nil {
		return nil, err
	}
	out = append(out, File{Name: model.LockFile, Data: lk})
	// The names are the model's: a file the model does not list is a bug.
	want := p.Model.OutputFiles()
	if len(want) != len(out)+1 {
		return nil, fmt.Errorf("rendered %d output files, the model names %d", len(out), len(want)-1)
	}
	type listed struct{ Sum, Name string }
	list := make([]listed, len(out))
	for i, f := range out {
		if f.Name != want[i].Name {
			return nil, fmt.Errorf("rendered %s where the model names %s", f.Name, want[i].Name)
		}
		sum := sha256.Sum256(f.Data)
		list[i] = listed{hex.EncodeToString(sum[:]), f.Name}
	}
	manifest, err := format.Execute(templates.Manifest, struct {
		Header []string
		Files  []listed
	}{format.HashHeader(src), list})
	if err != nil {
		return nil, err
	}
	return append(out, File{Name: model.ManifestFile, Data: manifest}), nil
}

// Tools returns what deploying the outputs of m that deploy its tables
// (each format's Tool) does where DynamoDB can't change a table in
// place, for the compatibility check (compat.Tool), in the order of
// Formats.
func Tools(m *model.Model) []compat.Tool {
	var out []compat.Tool
	for _, f := range Formats {
		if o := m.Output(f.Kind); o != nil && f.Tool != nil {
			out = append(out, f.Tool(o))
		}
	}
	return out
}

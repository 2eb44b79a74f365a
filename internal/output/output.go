// Package output renders the outputs a spec asks for besides the Go
// package (outputs:): table definitions for CloudFormation, Terraform and
// the AWS CLI, a NoSQL Workbench model, a design document and an IAM
// policy. Each is printed from the plan, the tables from the one
// definition the generated Store's Tables prints (plan.TableDef); the
// text formats from the templates of templates/, the JSON ones with
// encoding/json. Nothing here decides a name or an expression: the model
// names the files, the plan decides what they hold.
package output

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"text/template"

	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/plan"
	"github.com/dyngen/dyngen/templates"
)

// File is one output file: its name in the output directory and its
// contents.
type File struct {
	Name string
	Data []byte
}

// Source is how the outputs name the spec they come from.
type Source struct {
	// Line is the spec's path as one line of text, as the Go files'
	// source line has it (model.SourceLine).
	Line string
}

// NewSource returns the Source of a spec the output directory names path.
func NewSource(path string) Source {
	return Source{Line: model.SourceLine(path)}
}

// renderer renders one output.
type renderer func(p *plan.Plan, o *model.Output, src Source) ([]File, error)

// renderers holds the renderer of each format.
var renderers = map[model.OutputKind]renderer{
	model.CloudFormation: cloudFormation,
	model.Terraform:      terraform,
	model.CreateTable:    createTable,
	model.Workbench:      workbench,
	model.Design:         design,
	model.IAM:            iam,
}

// Render returns the files of every output p's model asks for, in the
// order of model.OutputFiles, the manifest last; none when it asks for
// none.
func Render(p *plan.Plan, src Source) ([]File, error) {
	var out []File
	for _, o := range p.Model.Outputs {
		r := renderers[o.Kind]
		if r == nil {
			return nil, fmt.Errorf("output %s is not implemented", o.Kind)
		}
		files, err := r(p, o, src)
		if err != nil {
			return nil, fmt.Errorf("output %s: %w", o.Kind, err)
		}
		out = append(out, files...)
	}
	if len(out) == 0 {
		return nil, nil
	}
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
	manifest, err := execute(templates.Manifest, struct {
		Header []string
		Files  []listed
	}{hashHeader(src), list})
	if err != nil {
		return nil, err
	}
	return append(out, File{model.ManifestFile, manifest}), nil
}

// hashHeader is the header of a format whose comments start with #.
func hashHeader(src Source) []string {
	return []string{"# " + model.GeneratedText, "# source: " + src.Line}
}

// execute renders a template.
func execute(t *template.Template, data any) ([]byte, error) {
	var b bytes.Buffer
	if err := t.Execute(&b, data); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// marshalJSON is v as indented JSON with a final line break, its keys in
// the order of v's struct fields; <, > and & are written as they are, the
// characters that reorder text as escapes (escapeBidi). Every JSON output
// is written by it.
func marshalJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return escapeBidi(b.Bytes()), nil
}

// escapeBidi writes the characters that reorder text (model.IsBidiControl)
// of JSON text as \u escapes, which read back as the same strings: they
// can only stand in strings, where an escape means the character.
// encoding/json escapes U+2028 and U+2029 itself.
func escapeBidi(data []byte) []byte {
	if !bytes.ContainsFunc(data, model.IsBidiControl) {
		return data
	}
	var b bytes.Buffer
	for _, r := range string(data) {
		if model.IsBidiControl(r) {
			fmt.Fprintf(&b, "\\u%04x", r)
			continue
		}
		b.WriteRune(r)
	}
	return b.Bytes()
}

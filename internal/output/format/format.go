// Package format holds what the output formats (the folders beside it,
// one per format) share: the formats' names, the file a format renders,
// how the files name their spec, JSON and template rendering, and the
// reading of a table from a committed output (committed.go). It decides
// nothing of any one format; internal/output lists the formats.
package format

import (
	"bytes"
	"encoding/json"
	"fmt"
	"text/template"

	"github.com/dyngen/dyngen/internal/model"
)

// The formats' names, as outputs: spells them (spec.OutputKinds). A
// format that needs to know whether the spec asks for another (the
// CloudFormation and Terraform outputs hold the IAM policy when it asks
// for the iam output too) names it by these.
const (
	CloudFormation model.OutputKind = "cloudformation"
	Terraform      model.OutputKind = "terraform"
	CreateTable    model.OutputKind = "createTable"
	Workbench      model.OutputKind = "workbench"
	Design         model.OutputKind = "design"
	IAM            model.OutputKind = "iam"
	Migration      model.OutputKind = model.MigrationOutput
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

// HashHeader is the header of a format whose comments start with #.
func HashHeader(src Source) []string {
	return []string{"# " + model.GeneratedText, "# source: " + src.Line}
}

// Execute renders a template.
func Execute(t *template.Template, data any) ([]byte, error) {
	var b bytes.Buffer
	if err := t.Execute(&b, data); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// JSON is v as indented JSON with a final line break, its keys in the
// order of v's struct fields; <, > and & are written as they are, the
// characters that reorder text as escapes (escapeBidi). Every JSON output
// is written by it.
func JSON(v any) ([]byte, error) {
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
	// Every such character is U+061C (D8 9C in UTF-8) or in U+2000 to
	// U+2FFF (a first byte E2): text without those bytes, most of it,
	// is returned without decoding a rune.
	if bytes.IndexByte(data, 0xE2) < 0 && !bytes.Contains(data, []byte("\u061c")) {
		return data
	}
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

// IsAlphanumeric reports whether s is made of A-Z, a-z and 0-9, at least
// one: what a CloudFormation logical ID and an IAM statement id take.
func IsAlphanumeric(s string) bool {
	for _, r := range s {
		if !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9') {
			return false
		}
	}
	return s != ""
}

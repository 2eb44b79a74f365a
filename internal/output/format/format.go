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
	"strings"
	"text/template"
	"unicode/utf8"

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

// The YAML outputs (the CloudFormation templates) write every string as
// these make it: inert.

// YAMLJSON is v as indented JSON (JSON), its lines without the
// final line break, each character outside printable ASCII of its
// strings escaped: YAML reads it as flow collections, every string
// double-quoted, as YAMLString writes them.
func YAMLJSON(v any) ([]string, error) {
	data, err := JSON(v)
	if err != nil {
		return nil, err
	}
	return strings.Split(strings.TrimSuffix(asciiJSON(data), "\n"), "\n"), nil
}

// asciiJSON is JSON text q as YAML flow text: every character of its
// strings outside printable ASCII written as an escape of YAML's
// double-quoted scalars (\u, as JSON's, or \U beyond U+FFFF). A line
// break is kept: encoding/json writes none in a string.
func asciiJSON(q []byte) string {
	var b strings.Builder
	for _, r := range string(q) {
		switch {
		case r >= 0x20 && r < 0x7f, r == '\n':
			b.WriteRune(r)
		case r == utf8.RuneError:
			b.WriteString(`\uFFFD`)
		case r <= 0xffff:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			fmt.Fprintf(&b, `\U%08X`, r)
		}
	}
	return b.String()
}

// YAMLString is s as a YAML double-quoted scalar, inert whatever s
// holds: JSON's quoting (which YAML reads alike), with every character
// outside printable ASCII escaped, so that no line break, control,
// format or bidirectional character reaches the file as it is.
func YAMLString(s string) string {
	q, err := json.Marshal(s) // a string always marshals
	if err != nil {
		panic(err)
	}
	return asciiJSON(q)
}

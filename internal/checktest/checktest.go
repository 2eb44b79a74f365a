// Package checktest runs the test cases of dyngen's checks, kept beside
// the checks: internal/model/testdata holds the cases of the model's
// checks, internal/plan/testdata those of the planner's. A case is a
// txtar archive: its comment says what the case is about, its section
// spec.yaml is a spec, and its section diagnostics is what the checks
// report on it, one diagnostic a line as the command prints them
// (spec.yaml:line:col: message, warnings marked, sorted by position).
//
// The command's own cases (flags, exit status, the files it writes, the
// plan it prints, the spec's shape and YAML errors) stay in
// cmd/dyngen/testdata.
package checktest

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/dyngen/dyngen/generator"
	"github.com/dyngen/dyngen/internal/diag"
	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/spec"
)

// Spec names a case's spec, in its archive and in its diagnostics.
const Spec = "spec.yaml"

// Diagnostics names the section of a case that holds the diagnostics.
const Diagnostics = "diagnostics"

// Run runs every case of dir (dir/*.txtar) as a subtest: check returns
// the diagnostics of the case's spec, which must be those of the case.
// With update, the diagnostics section is rewritten from the run instead.
func Run(t *testing.T, dir string, update bool, check func(t *testing.T, spec []byte) *diag.List) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no cases in %s", dir)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			runCase(t, file, update, check)
		})
	}
}

func runCase(t *testing.T, file string, update bool, check func(t *testing.T, spec []byte) *diag.List) {
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var data []byte
	var want string
	for _, f := range ar.Files {
		switch f.Name {
		case Spec:
			data = f.Data
		case Diagnostics:
			want = string(f.Data)
		default:
			t.Fatalf("unknown section %q: a case holds %s and %s", f.Name, Spec, Diagnostics)
		}
	}
	if data == nil {
		t.Fatalf("the case has no %s", Spec)
	}
	if len(bytes.TrimSpace(ar.Comment)) == 0 {
		t.Error("the case does not say what it is about (its comment is empty)")
	}
	got := Text(check(t, data))
	if !update {
		if got != want {
			t.Errorf("diagnostics differ (run with -update to accept)\ngot:\n%s\nwant:\n%s", got, want)
		}
		return
	}
	ar.Files = []txtar.File{{Name: Spec, Data: data}}
	if got != "" {
		ar.Files = append(ar.Files, txtar.File{Name: Diagnostics, Data: []byte(got)})
	}
	if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Text is the diagnostics of l as the command prints them.
func Text(l *diag.List) string {
	var b strings.Builder
	if err := l.Print(&b); err != nil {
		panic(err) // a strings.Builder does not fail
	}
	return b.String()
}

// Stages checks the spec in data twice: parsed and resolved into the
// model only (spec.Parse, model.Resolve), and by the whole of dyngen's
// checks (generator.Check, which plans the model, or the sound part of a
// model with errors). It fails t when the spec does not parse: a case
// of the spec's shape is the command's.
func Stages(t *testing.T, data []byte) (resolved, all *diag.List) {
	t.Helper()
	f, diags := spec.Parse(Spec, data)
	if diags.HasErrors() {
		t.Fatalf("the spec does not parse; a case of the spec's shape goes to cmd/dyngen/testdata:\n%s", Text(diags))
	}
	model.Resolve(f, diags)
	return diags, generator.Check(Spec, data).Diags
}

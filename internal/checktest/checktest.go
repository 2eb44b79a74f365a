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

// Stage is the stage of dyngen's checks whose cases a package keeps.
type Stage int

const (
	// Model: every diagnostic of a case is the model's, reported by
	// spec.Parse and model.Resolve, and the rest of dyngen's checks
	// (generator.Check) add none; a case the planner reports on too
	// belongs in internal/plan/testdata.
	Model Stage = iota
	// Plan: the diagnostics of a case are those of dyngen's checks
	// (generator.Check: parse, resolve, plan the model or its sound part),
	// and the planner reports some of them; a case whose diagnostics are
	// all the model's belongs in internal/model/testdata.
	Plan
)

// Run runs every case of dir (dir/*.txtar) as a subtest: the
// diagnostics of the case's spec at stage must be those of the case, and
// the case must belong to stage. With update, the diagnostics section is
// rewritten from the run instead.
func Run(t *testing.T, dir string, update bool, stage Stage) {
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
			runCase(t, file, update, stage)
		})
	}
}

// check returns the diagnostics of the spec in data at stage, and fails
// t when they do not belong to it.
func check(t *testing.T, data []byte, stage Stage) *diag.List {
	t.Helper()
	resolved, all := stages(t, data)
	same := Text(all) == Text(resolved)
	switch {
	case stage == Model && !same:
		t.Errorf("the planner reports on this spec too, and the case belongs in internal/plan/testdata\nall of dyngen's checks:\n%s\nthe model's:\n%s", Text(all), Text(resolved))
	case stage == Plan && same:
		t.Errorf("the planner reports nothing on this spec: the case belongs in internal/model/testdata")
	}
	if stage == Model {
		return resolved
	}
	return all
}

// runCase runs the case in file.
func runCase(t *testing.T, file string, update bool, stage Stage) {
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
	got := Text(check(t, data, stage))
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

// stages checks the spec in data twice: parsed and resolved into the
// model only (spec.Parse, model.Resolve), and by the whole of dyngen's
// checks (generator.Check, which plans the model, or the sound part of a
// model with errors). It fails t when the spec does not parse: a case
// of the spec's shape is the command's.
func stages(t *testing.T, data []byte) (resolved, all *diag.List) {
	t.Helper()
	f, diags := spec.Parse(Spec, data)
	if diags.HasErrors() {
		t.Fatalf("the spec does not parse; a case of the spec's shape goes to cmd/dyngen/testdata:\n%s", Text(diags))
	}
	model.Resolve(f, diags)
	return diags, generator.Check(Spec, data).Diags
}

package generator

import (
	"bytes"
	"go/format"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dyngen/dyngen/internal/golang"
	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/plan"
)

// TestValidSpecs checks that the specs the project holds up as valid (the
// parser's test specs and the examples) pass the whole pipeline.
func TestValidSpecs(t *testing.T) {
	var files []string
	for _, pattern := range []string{"../spec/testdata/valid/*.yaml", "../example/*/spec.yaml"} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 5 {
		t.Fatalf("found only %d specs", len(files))
	}
	for _, file := range files {
		t.Run(file, func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			res := Check(file, data)
			if err := res.Diags.Err(); err != nil {
				t.Fatal(err)
			}
			if res.Plan == nil || len(res.Plan.Patterns) != len(res.Model.Patterns) {
				t.Fatalf("not every pattern was planned")
			}
		})
	}
}

// TestSourceLineOneLine checks that a spec path holding a line break
// still gives gofmt-clean files whose source line is one comment line.
func TestSourceLineOneLine(t *testing.T) {
	spec := []byte("version: 1\npackage: p\ntables:\n  Notes: {partitionKey: PK}\nentities:\n  Note:\n    attributes: {id: string}\n    keys: {primary: {pk: \"NOTE#{id}\"}}\npatterns:\n  GetNote: {get: Note}\n")
	files, diags := Generate("spec.yaml", "odd\ndir/spec.yaml", spec)
	if diags.HasErrors() {
		t.Fatal(diags.Err())
	}
	for _, f := range goFiles(files) {
		lines := strings.SplitN(string(f.Data), "\n", 3)
		if len(lines) < 3 || lines[1] != `// source: odd\ndir/spec.yaml` {
			t.Errorf("%s starts %q", f.Name, lines[:min(2, len(lines))])
		}
		if out, err := format.Source(f.Data); err != nil || !bytes.Equal(out, f.Data) {
			t.Errorf("%s is not gofmt-clean: %v", f.Name, err)
		}
	}
}

// TestEmitRefusesGetReadingOtherEntities checks that emission fails, rather
// than emit a get that could return another entity's item, if a plan ever
// said a get through an index may read items of other entities (the
// collision check makes that impossible for a sound spec; FuzzCheck emits
// every sound spec it finds, so it would find a plan that breaks this).
func TestEmitRefusesGetReadingOtherEntities(t *testing.T) {
	spec := []byte(`version: 1
package: p
tables:
  Shop:
    partitionKey: PK
    sortKey: SK
    indexes:
      GSI1: {partitionKey: GSI1PK, sortKey: GSI1SK}
entities:
  Customer:
    attributes: {customerId: string, email: string}
    keys:
      primary: {pk: "CUSTOMER#{customerId}", sk: "PROFILE"}
      GSI1: {pk: "EMAIL#{email}", sk: "CUSTOMER"}
patterns:
  CustomerByEmail: {get: Customer, by: [email]}
`)
	res := Check("spec.yaml", spec)
	if res.Diags.HasErrors() {
		t.Fatal(res.Diags.Err())
	}
	if _, err := golang.Package(res.Plan, "spec.yaml"); err != nil {
		t.Fatalf("the sound plan: %v", err)
	}
	pp := res.Plan.Patterns[0]
	if pp.Call != plan.Query || len(pp.Members) != 1 || pp.Members[0].How != plan.ByKey {
		t.Fatalf("CustomerByEmail is planned as %s with members %+v, want a Query reading only Customer items", pp.Call, pp.Members)
	}
	pp.Members[0].How = plan.ByEntityAttr
	if _, err := golang.Package(res.Plan, "spec.yaml"); err == nil || !strings.Contains(err.Error(), "CustomerByEmail") {
		t.Errorf("emit of a get that may read other entities: %v, want an error naming the pattern", err)
	}
}

// TestGenerateOverLock: a committed lock that can't be read (edited, or
// of a newer dyngen) is an error, and nothing is written over it (the
// backfills it carries: backfill_test.go).
func TestGenerateOverLock(t *testing.T) {
	spec := []byte("version: 1\npackage: p\ntables:\n  Notes: {partitionKey: PK}\nentities:\n  Note:\n    attributes: {id: string}\n    keys: {primary: {pk: \"NOTE#{id}\"}}\npatterns:\n  GetNote: {get: Note}\n")
	lockOf := func(files []File) []byte {
		for _, f := range files {
			if f.Name == model.LockFile {
				return f.Data
			}
		}
		t.Fatalf("no %s among the files", model.LockFile)
		return nil
	}
	files, diags := Generate("spec.yaml", "spec.yaml", spec)
	if diags.HasErrors() {
		t.Fatal(diags.Err())
	}
	if first := lockOf(files); !bytes.Contains(first, []byte(`"backfills": []`)) {
		t.Fatalf("the first lock has no empty backfills:\n%s", first)
	}
	for _, bad := range []string{"{", `{"dyngenLock": 9}`} {
		files, diags = GenerateOver("spec.yaml", "spec.yaml", spec, func(name string) []byte {
			if name == model.LockFile {
				return []byte(bad)
			}
			return nil
		})
		if files != nil || !diags.HasErrors() || !strings.Contains(diags.Err().Error(), "the lock dyngen.lock.json of the output directory can't be read") {
			t.Errorf("over the lock %q: %d files, %v", bad, len(files), diags.Err())
		}
	}
}

package compat_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/dyngen/dyngen/generator"
	"github.com/dyngen/dyngen/internal/compat"
	"github.com/dyngen/dyngen/internal/lock"
	"github.com/dyngen/dyngen/internal/output"
)

var update = flag.Bool("update", false, "rewrite the findings of the cases")

// TestCases runs the corpus: each case is a spec as committed (old.yaml,
// whose lock is built, written and read back) and as changed (new.yaml),
// with the findings the check reports, one per line, then the verdict.
func TestCases(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txtar")
	if err != nil || len(files) < 40 {
		t.Fatalf("%d cases (%v); the corpus holds at least 40", len(files), err)
	}
	kinds := map[string]bool{}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			sections := map[string][]byte{}
			for _, f := range ar.Files {
				sections[f.Name] = f.Data
			}
			old := generator.Check("spec.yaml", sections["old.yaml"])
			if old.Diags.HasErrors() {
				t.Fatalf("old.yaml: %v", old.Diags.Err())
			}
			data, err := lock.Marshal(lock.Build(old.Plan, "spec.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			committed, err := lock.Parse(data)
			if err != nil {
				t.Fatal(err)
			}
			nw := generator.Check("spec.yaml", sections["new.yaml"])
			if nw.Diags.HasErrors() {
				t.Fatalf("new.yaml: %v", nw.Diags.Err())
			}
			res := compat.Check(committed, nw.Plan, output.Tools(nw.Model))
			var b strings.Builder
			for _, f := range res.Findings {
				b.WriteString(f.Text() + "\n")
				kinds[string(f.Class)+"/"+f.ID[strings.LastIndex(f.ID, "/")+1:]] = true
			}
			for _, a := range res.AcceptedNone {
				b.WriteString(a.Pos.String() + ": accept " + a.ID + " matches no finding\n")
			}
			if res.Failed() {
				b.WriteString("fails\n")
			} else {
				b.WriteString("passes\n")
			}
			got := b.String()
			if *update {
				for i, f := range ar.Files {
					if f.Name == "findings" {
						ar.Files[i].Data = []byte(got)
						got = ""
					}
				}
				if got != "" {
					ar.Files = append(ar.Files, txtar.File{Name: "findings", Data: []byte(got)})
				}
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if want := string(sections["findings"]); got != want {
				t.Errorf("findings:\n%s\nwant:\n%s", got, want)
			}
		})
	}
	t.Logf("%d kinds of findings: %v", len(kinds), kinds)
}

// TestUnrelatedSpecs: the check of any valid spec against the lock of
// any other (unrelated designs, the worst a wrong -o or -against gives)
// runs to its end: every part of one is removed or added in the other,
// and nothing panics.
func TestUnrelatedSpecs(t *testing.T) {
	var paths []string
	for _, pattern := range []string{"../../spec/testdata/valid/*.yaml", "../../example/*/spec.yaml", "../../internal/e2e/spec.yaml", "testdata/*.txtar"} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, m...)
	}
	type sound struct {
		path string
		res  *generator.Result
		lock *lock.Lock
	}
	var specs []sound
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(path, ".txtar") {
			// A case's new spec.
			for _, f := range txtar.Parse(data).Files {
				if f.Name == "new.yaml" {
					data = f.Data
				}
			}
		}
		res := generator.Check("spec.yaml", data)
		if res.Diags.HasErrors() {
			continue
		}
		specs = append(specs, sound{path, res, lock.Build(res.Plan, "spec.yaml")})
	}
	if len(specs) < 60 {
		t.Fatalf("%d sound specs", len(specs))
	}
	for _, old := range specs {
		for _, nw := range specs {
			res := compat.Check(old.lock, nw.res.Plan, output.Tools(nw.res.Model))
			if old.path == nw.path && len(res.Findings) > 0 {
				t.Errorf("%s against its own lock: %s", old.path, res.Findings[0].Text())
			}
		}
	}
}

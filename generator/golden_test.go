package generator

import (
	"bytes"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite the expected files of the golden cases")

// TestGolden generates each case of testdata/golden (a txtar holding
// spec.yaml and the files dyngen must generate from it) and compares
// every file byte for byte; -update rewrites the expected files. Each
// case's output is then compiled and vetted.
func TestGolden(t *testing.T) {
	cases, err := filepath.Glob("testdata/golden/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatal("no golden cases")
	}
	for _, file := range cases {
		name := strings.TrimSuffix(filepath.Base(file), ".txtar")
		t.Run(name, func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var spec []byte
			want := map[string][]byte{}
			for _, f := range ar.Files {
				if f.Name == "spec.yaml" {
					spec = f.Data
				} else {
					want[f.Name] = f.Data
				}
			}
			if spec == nil {
				t.Fatal("the case has no spec.yaml")
			}
			files, diags := Generate("spec.yaml", "spec.yaml", spec)
			if diags.HasErrors() {
				t.Fatalf("errors:\n%v", diags.Err())
			}
			// The same spec always gives the same bytes.
			again, _ := Generate("spec.yaml", "spec.yaml", spec)
			if !slices.EqualFunc(files, again, func(a, b File) bool { return a.Name == b.Name && bytes.Equal(a.Data, b.Data) }) {
				t.Fatal("two runs on the same spec gave different output")
			}
			if *update {
				ar.Files = []txtar.File{{Name: "spec.yaml", Data: spec}}
				for _, f := range files {
					ar.Files = append(ar.Files, txtar.File{Name: f.Name, Data: f.Data})
				}
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
			} else {
				var got []string
				for _, f := range files {
					got = append(got, f.Name)
					if w, ok := want[f.Name]; !ok {
						t.Errorf("%s is generated but not expected (run with -update to accept)", f.Name)
					} else if !bytes.Equal(w, f.Data) {
						t.Errorf("%s differs from the expected file (run with -update to accept)", f.Name)
					}
				}
				for name := range want {
					if !slices.Contains(got, name) {
						t.Errorf("%s is expected but not generated", name)
					}
				}
			}
			vet(t, name, files)
		})
	}
}

// vet writes the files into a package under testdata (inside the module,
// so that its dependencies resolve), checks them with gofmt and go vet.
func vet(t *testing.T, name string, files []File) {
	t.Helper()
	if testing.Short() {
		t.Skip("compiling generated code is skipped in -short mode")
	}
	dir, err := os.MkdirTemp("testdata", "vet-"+name+"-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := exec.Command("gofmt", "-l", dir).CombinedOutput(); err != nil || len(out) > 0 {
		t.Errorf("gofmt -l %s: %v\n%s", dir, err, out)
	}
	if out, err := exec.Command("go", "vet", "./"+dir).CombinedOutput(); err != nil {
		t.Errorf("go vet: %v\n%s", err, out)
	}
}

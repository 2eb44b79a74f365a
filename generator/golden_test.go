package generator

import (
	"bytes"
	"flag"
	"go/ast"
	"go/parser"
	"go/token"
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
// case's output is then compiled and vetted, and tested with the case's
// own test files (named *_test.go in the txtar, which -update keeps).
func TestGolden(t *testing.T) {
	cases, err := filepath.Glob("testdata/golden/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatal("no golden cases")
	}
	batch := newVetBatch(t)
	for _, file := range cases {
		name := strings.TrimSuffix(filepath.Base(file), ".txtar")
		t.Run(name, func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var spec []byte
			want := map[string][]byte{}
			var tests []File
			for _, f := range ar.Files {
				switch {
				case f.Name == "spec.yaml":
					spec = f.Data
				case strings.HasSuffix(f.Name, "_test.go"):
					tests = append(tests, File{Name: f.Name, Data: f.Data})
				default:
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
			// The cases are of the Go package: the outputs (the lock and
			// the list at least) have tests of their own.
			files = goFiles(files)
			// The same spec always gives the same bytes.
			again, _ := Generate("spec.yaml", "spec.yaml", spec)
			again = goFiles(again)
			if !slices.EqualFunc(files, again, func(a, b File) bool { return a.Name == b.Name && bytes.Equal(a.Data, b.Data) }) {
				t.Fatal("two runs on the same spec gave different output")
			}
			if *update {
				ar.Files = []txtar.File{{Name: "spec.yaml", Data: spec}}
				for _, f := range tests {
					ar.Files = append(ar.Files, txtar.File{Name: f.Name, Data: f.Data})
				}
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
			if dead := unused(t, files); len(dead) > 0 {
				t.Errorf("unexported declarations no code uses: %v", dead)
			}
			batch.add(t, name, files, tests)
		})
	}
	batch.run()
}

// TestExamplesHaveNoDeadCode checks the committed example packages the
// way TestGolden checks its cases: every unexported declaration of the
// spec's own files is used.
func TestExamplesHaveNoDeadCode(t *testing.T) {
	dirs, err := filepath.Glob("../example/*")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	for _, dir := range append(dirs, "../internal/e2e") {
		paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		var files []File
		for _, p := range paths {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if bytes.HasPrefix(data, []byte(Header)) {
				files = append(files, File{Name: filepath.Base(p), Data: data})
			}
		}
		if len(files) == 0 {
			continue
		}
		if dead := unused(t, files); len(dead) > 0 {
			t.Errorf("%s: unexported declarations no code uses: %v", dir, dead)
		}
	}
}

// unused lists the unexported package-level functions, variables,
// constants and types that the generated files declare and that no file
// uses.
func unused(t *testing.T, files []File) []string {
	t.Helper()
	fset := token.NewFileSet()
	uses := map[string]int{}
	var declared []string
	for _, f := range files {
		af, err := parser.ParseFile(fset, f.Name, f.Data, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(af, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				uses[id.Name]++
			}
			return true
		})
		declared = append(declared, packageNames(af)...)
	}
	var dead []string
	for _, name := range declared {
		if !token.IsExported(name) && uses[name] < 2 {
			dead = append(dead, name)
		}
	}
	return dead
}

// packageNames lists the package-level functions, variables, constants
// and types a file declares.
func packageNames(af *ast.File) []string {
	var out []string
	for _, d := range af.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				out = append(out, d.Name.Name)
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch spec := spec.(type) {
				case *ast.ValueSpec:
					for _, n := range spec.Names {
						out = append(out, n.Name)
					}
				case *ast.TypeSpec:
					out = append(out, spec.Name.Name)
				}
			}
		}
	}
	return out
}

// vet writes the files into a package under testdata (inside the module,
// so that its dependencies resolve), checks them with gofmt and go vet,
// and runs the tests, when there are any.
func vet(t *testing.T, name string, files, tests []File) {
	t.Helper()
	b := newVetBatch(t)
	b.add(t, name, files, tests)
	b.run()
}

// A vetBatch checks generated packages together, once they are all
// written: one gofmt, one go vet and one go test for all of them rather
// than one of each per package, which would load the packages they import
// and start the toolchain again and again.
type vetBatch struct {
	t    *testing.T // the test the problems are reported to
	pkgs []vetPkg
}

type vetPkg struct {
	name, dir string
	generated []string // the paths of the generated files, which gofmt checks
	tests     bool
}

// newVetBatch starts a batch whose problems t reports; the packages'
// directories are removed when t ends.
func newVetBatch(t *testing.T) *vetBatch { return &vetBatch{t: t} }

// add writes the files of the package called name (and tests, its test
// files) into a directory under testdata; t is the test that made them.
func (b *vetBatch) add(t *testing.T, name string, files, tests []File) {
	t.Helper()
	if testing.Short() {
		t.Skip("compiling generated code is skipped in -short mode")
	}
	dir, err := os.MkdirTemp("testdata", "vet-"+name+"-")
	if err != nil {
		t.Fatal(err)
	}
	b.t.Cleanup(func() { os.RemoveAll(dir) })
	p := vetPkg{name: name, dir: dir, tests: len(tests) > 0}
	for i, f := range append(slices.Clone(files), tests...) {
		path := filepath.Join(dir, f.Name)
		if err := os.WriteFile(path, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
		if i < len(files) && strings.HasSuffix(f.Name, ".go") {
			p.generated = append(p.generated, path)
		}
	}
	b.pkgs = append(b.pkgs, p)
}

// run checks every package added: gofmt -l, go vet, and go test of those
// with tests. A problem is reported with the name of its package.
func (b *vetBatch) run() {
	t := b.t
	t.Helper()
	if len(b.pkgs) == 0 {
		return
	}
	var generated, pkgs, tested []string
	for _, p := range b.pkgs {
		generated = append(generated, p.generated...)
		pkgs = append(pkgs, "./"+filepath.ToSlash(p.dir))
		if p.tests {
			tested = append(tested, "./"+filepath.ToSlash(p.dir))
		}
	}
	if out, err := exec.Command("gofmt", append([]string{"-l"}, generated...)...).CombinedOutput(); err != nil || len(out) > 0 {
		b.report(out, err, "gofmt", "-l")
	}
	// go vet and go test build the packages once: the test binaries use
	// the packages go vet compiled.
	if out, err := exec.Command("go", append([]string{"vet"}, pkgs...)...).CombinedOutput(); err != nil {
		b.report(out, err, "go", "vet")
	}
	if len(tested) > 0 {
		if out, err := exec.Command("go", append([]string{"test", "-count=1", "-vet=off"}, tested...)...).CombinedOutput(); err != nil {
			b.report(out, err, "go", "test", "-count=1", "-vet=off")
		}
	}
}

// report reports the failure of command on the batch: what the command
// says of each package it names, run on that package alone, under the
// package's name; all it said when it names none.
func (b *vetBatch) report(out []byte, err error, command ...string) {
	b.t.Helper()
	named := false
	for _, p := range b.pkgs {
		if !bytes.Contains(out, []byte(p.dir)) {
			continue
		}
		named = true
		args := []string{"./" + filepath.ToSlash(p.dir)}
		if command[0] == "gofmt" {
			args = p.generated
		}
		alone, err := exec.Command(command[0], append(command[1:], args...)...).CombinedOutput()
		b.t.Errorf("%s: %s: %v\n%s", p.name, strings.Join(command, " "), err, alone)
	}
	if !named {
		b.t.Errorf("%s: %v\n%s", strings.Join(command, " "), err, out)
	}
}

// goFiles are the Go files of files.
func goFiles(files []File) []File {
	return slices.DeleteFunc(slices.Clone(files), func(f File) bool { return !strings.HasSuffix(f.Name, ".go") })
}

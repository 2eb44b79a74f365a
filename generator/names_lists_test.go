package generator

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"golang.org/x/tools/txtar"

	"github.com/dyngen/dyngen/internal/model"
)

// TestReExported: every name of the runtime's a generated package
// declares as its own (model.ReExported) is one the runtime exports, as
// its source declares it.
func TestReExported(t *testing.T) {
	names, err := filepath.Glob("runtime/*.go")
	if err != nil || len(names) == 0 {
		t.Fatalf("no runtime source: %v", err)
	}
	exported := map[string]bool{}
	fset := token.NewFileSet()
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range packageNames(f) {
			exported[n] = token.IsExported(n)
		}
	}
	for _, group := range model.ReExported {
		for _, name := range group.Names {
			if !exported[name] {
				t.Errorf("model.ReExported lists %s, which the runtime does not export", name)
			}
		}
	}
}

// TestMethodNames checks, on every golden case, that the packages the
// generated files of methods import are in model.ImportNames (and are the
// standard library's, aws-sdk-go-v2's or dyngen's runtime), and that every local
// a Store method declares is in model.MethodLocals (with a number after it
// where it gave way to a parameter) or derived from a parameter's name (an
// encoded key value, a prefix, a rewritten key), so that the plan knows
// every local a parameter may meet (TestLocalsGiveWay).
func TestMethodNames(t *testing.T) {
	cases, _ := filepath.Glob("testdata/golden/*.txtar")
	if len(cases) == 0 {
		t.Fatal("no golden cases")
	}
	derived := func(name string) bool {
		for _, suffix := range []string{"Key", "Prefix"} {
			if i := strings.LastIndex(name, suffix); i > 0 {
				if rest := name[i+len(suffix):]; rest == "" || isDigits(rest) {
					return true
				}
			}
		}
		// A transaction's copy of an item input is written<Field>
		// (plan.Input.Copy).
		if rest, ok := strings.CutPrefix(name, "written"); ok && rest != "" && unicode.IsUpper(rune(rest[0])) {
			return true
		}
		return strings.HasPrefix(name, "rebuilt") && isDigits(name[len("rebuilt"):])
	}
	for _, file := range cases {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		fset := token.NewFileSet()
		for _, tf := range ar.Files {
			if !strings.HasSuffix(tf.Name, ".go") || strings.HasSuffix(tf.Name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, tf.Name, tf.Data, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			// Imports are the file's own: only the files of the spec's code
			// hold methods whose parameters could meet one.
			for _, imp := range f.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				name := path[strings.LastIndex(path, "/")+1:]
				if imp.Name != nil {
					name = imp.Name.Name
				}
				// The standard library, aws-sdk-go-v2 and dyngen's
				// runtime only (see the runtime's package doc).
				if first, _, _ := strings.Cut(path, "/"); strings.Contains(first, ".") && !strings.HasPrefix(path, "github.com/aws/aws-sdk-go-v2/") && path != "github.com/dyngen/dyngen/generator/runtime" {
					t.Errorf("%s/%s imports %s", file, tf.Name, path)
				}
				if !slices.Contains(model.ImportNames, name) {
					t.Errorf("%s/%s imports %s, which model.ImportNames does not list", file, tf.Name, path)
				}
			}
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Recv == nil || fd.Body == nil || !isStore(fd.Recv) {
					continue
				}
				params := map[string]bool{}
				for _, p := range fd.Type.Params.List {
					for _, n := range p.Names {
						params[n.Name] = true
					}
				}
				ast.Inspect(fd.Body, func(n ast.Node) bool {
					var names []*ast.Ident
					switch n := n.(type) {
					case *ast.AssignStmt:
						if unpacksParams(n, params) {
							// The inputs, from the struct the method
							// takes them in: named as parameters are.
							for _, l := range n.Lhs {
								params[l.(*ast.Ident).Name] = true
							}
							return true
						}
						if n.Tok == token.DEFINE {
							for _, l := range n.Lhs {
								if id, ok := l.(*ast.Ident); ok {
									names = append(names, id)
								}
							}
						}
					case *ast.ValueSpec:
						names = n.Names
					case *ast.RangeStmt:
						for _, e := range []ast.Expr{n.Key, n.Value} {
							if id, ok := e.(*ast.Ident); ok && n.Tok == token.DEFINE {
								names = append(names, id)
							}
						}
					case *ast.FuncLit:
						for _, p := range n.Type.Params.List {
							names = append(names, p.Names...)
						}
					}
					for _, id := range names {
						if id.Name == "_" || params[id.Name] || slices.Contains(model.MethodLocals, strings.TrimRight(id.Name, "0123456789")) || derived(id.Name) {
							continue
						}
						t.Errorf("%s/%s: method %s declares %s, which model.MethodLocals does not list", file, tf.Name, fd.Name.Name, id.Name)
					}
					return true
				})
			}
		}
	}
}

func isStore(recv *ast.FieldList) bool {
	if len(recv.List) != 1 {
		return false
	}
	star, ok := recv.List[0].Type.(*ast.StarExpr)
	if !ok {
		return false
	}
	id, ok := star.X.(*ast.Ident)
	return ok && id.Name == "Store"
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// unpacksParams reports whether n declares locals from the fields of a
// parameter: a, b := params.A, params.B.
func unpacksParams(n *ast.AssignStmt, params map[string]bool) bool {
	if n.Tok != token.DEFINE || len(n.Lhs) != len(n.Rhs) {
		return false
	}
	for i, r := range n.Rhs {
		sel, ok := r.(*ast.SelectorExpr)
		if !ok {
			return false
		}
		x, ok := sel.X.(*ast.Ident)
		if _, lhs := n.Lhs[i].(*ast.Ident); !ok || !lhs || !params[x.Name] {
			return false
		}
	}
	return true
}

// TestFixedNames keeps model.FixedNames and model.StoreFixedMethods true:
// on every golden case, each exported package-level name the generated
// files declare is in FixedNames or among the spec's GeneratedNames, and
// each method of *Store is a pattern's (StoreMethods), an input builder
// (unexported), or in StoreFixedMethods.
func TestFixedNames(t *testing.T) {
	cases, _ := filepath.Glob("testdata/golden/*.txtar")
	if len(cases) == 0 {
		t.Fatal("no golden cases")
	}
	for _, file := range cases {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var spec []byte
		for _, f := range ar.Files {
			if f.Name == "spec.yaml" {
				spec = f.Data
			}
		}
		res := Check("spec.yaml", spec)
		if res.Diags.HasErrors() {
			t.Fatal(res.Diags.Err())
		}
		known := map[string]bool{}
		for _, n := range res.Model.GeneratedNames() {
			known[n.Name] = true
		}
		methods := map[string]bool{}
		for _, n := range res.Model.StoreMethods() {
			methods[n.Name] = true
		}
		files, diags := Generate("spec.yaml", "spec.yaml", spec)
		if diags.HasErrors() {
			t.Fatal(diags.Err())
		}
		fset := token.NewFileSet()
		for _, f := range goFiles(files) {
			af, err := parser.ParseFile(fset, f.Name, f.Data, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			for _, name := range packageNames(af) {
				if token.IsExported(name) && !known[name] && !slices.Contains(model.FixedNames, name) {
					t.Errorf("%s/%s declares %s, which is neither in model.FixedNames nor a generated name of the spec", file, f.Name, name)
				}
			}
			for _, d := range af.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv != nil && isStore(fd.Recv) && fd.Name.IsExported() && !methods[fd.Name.Name] && !slices.Contains(model.StoreFixedMethods, fd.Name.Name) {
					t.Errorf("%s/%s declares the Store method %s, which is neither a pattern's nor in model.StoreFixedMethods", file, f.Name, fd.Name.Name)
				}
			}
		}
	}
}

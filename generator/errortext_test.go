package generator

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// TestErrorReasonsAreConstant checks, on every golden case and example,
// that the KeyError and ItemError the spec's code builds have a constant
// Reason: no value, given or stored, can reach an error's text. (The
// runtime's reasons are checked by its tests, and the e2e tests call
// every method with distinctive values.)
func TestErrorReasonsAreConstant(t *testing.T) {
	type file struct{ name, src string }
	var files []file
	cases, _ := filepath.Glob("testdata/golden/*.txtar")
	for _, c := range cases {
		ar, err := txtar.ParseFile(c)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			files = append(files, file{c + "/" + f.Name, string(f.Data)})
		}
	}
	examples, _ := filepath.Glob("../example/*/*.go")
	for _, name := range examples {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, file{name, string(data)})
	}
	var lits int
	fset := token.NewFileSet()
	for _, f := range files {
		base := filepath.Base(f.name)
		if !strings.HasSuffix(base, ".go") || strings.HasSuffix(base, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f.name, f.src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(af, func(n ast.Node) bool {
			cl, ok := n.(*ast.CompositeLit)
			if !ok {
				return true
			}
			if id, ok := cl.Type.(*ast.Ident); !ok || (id.Name != "KeyError" && id.Name != "ItemError") {
				return true
			}
			lits++
			for _, e := range cl.Elts {
				kv, ok := e.(*ast.KeyValueExpr)
				if !ok {
					t.Errorf("%s: %s: a %s without field names", f.name, fset.Position(cl.Pos()), cl.Type)
					continue
				}
				if _, ok := kv.Value.(*ast.BasicLit); !ok {
					t.Errorf("%s: %s: %s.%s is not a constant", f.name, fset.Position(kv.Pos()), cl.Type, kv.Key)
				}
			}
			return true
		})
	}
	if lits == 0 {
		t.Fatal("no KeyError or ItemError literal found")
	}
}

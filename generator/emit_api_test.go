package generator

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"slices"
	"strings"
	"testing"
)

// TestStoreAPI checks, for the spec of every golden case and example,
// that StoreAPI lists every exported method of *Store but Tables, each
// with the signature of the method and a doc comment, in store_api.go.
func TestStoreAPI(t *testing.T) {
	specs := corpusSpecs(t)
	for name, data := range specs {
		t.Run(name, func(t *testing.T) {
			files, diags := Generate("spec.yaml", "spec.yaml", data)
			if diags.HasErrors() {
				t.Fatal(diags.Err())
			}
			patterns := len(Check("spec.yaml", data).Plan.Patterns)
			for _, p := range storeAPIProblems(t, files, patterns > 0) {
				t.Error(p)
			}
		})
	}
}

// storeAPIProblems compares StoreAPI with the exported methods of *Store
// that the files declare.
func storeAPIProblems(t *testing.T, files []File, methodsWanted bool) []string {
	t.Helper()
	fset := token.NewFileSet()
	print := func(n ast.Node) string {
		var b bytes.Buffer
		if err := printer.Fprint(&b, fset, n); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	var methods, listed []string // "name signature"
	var api *ast.InterfaceType
	var apiFile string
	for _, f := range files {
		if !strings.HasSuffix(f.Name, ".go") {
			continue // an output
		}
		af, err := parser.ParseFile(fset, f.Name, f.Data, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range af.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil || !d.Name.IsExported() || print(d.Recv.List[0].Type) != "*Store" || d.Name.Name == "Tables" {
					continue
				}
				methods = append(methods, d.Name.Name+" "+print(d.Type))
			case *ast.GenDecl:
				for _, s := range d.Specs {
					if ts, ok := s.(*ast.TypeSpec); ok && ts.Name.Name == "StoreAPI" {
						api, apiFile = ts.Type.(*ast.InterfaceType), f.Name
					}
				}
			}
		}
	}
	if api == nil {
		return []string{"no StoreAPI"}
	}
	var out []string
	if apiFile != "store_api.go" {
		out = append(out, "StoreAPI is declared in "+apiFile)
	}
	for _, m := range api.Methods.List {
		listed = append(listed, m.Names[0].Name+" "+print(m.Type))
		if m.Doc == nil || !strings.HasPrefix(m.Doc.Text(), m.Names[0].Name+" ") {
			out = append(out, m.Names[0].Name+": no doc comment starting with its name")
		}
	}
	sortedMethods, sortedListed := slices.Sorted(slices.Values(methods)), slices.Sorted(slices.Values(listed))
	if !slices.Equal(sortedMethods, sortedListed) {
		out = append(out, "StoreAPI lists\n\t"+strings.Join(listed, "\n\t")+"\nthe Store declares\n\t"+strings.Join(methods, "\n\t"))
	}
	if methodsWanted != (len(methods) > 0) {
		out = append(out, fmt.Sprintf("the Store declares %d methods of patterns; the spec's plan has patterns: %v", len(methods), methodsWanted))
	}
	return out
}

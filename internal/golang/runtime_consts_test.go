package golang

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strconv"
	"testing"
)

// TestBatchConstants keeps the generator's copies of the runtime's batch
// constants, which the doc comments print, equal to the runtime's.
func TestBatchConstants(t *testing.T) {
	src, err := os.ReadFile("../../generator/runtime/batch.go")
	if err != nil {
		t.Fatal(err)
	}
	f, err := parser.ParseFile(token.NewFileSet(), "batch.go", src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{
		"defaultBatchConcurrency": defaultBatchConcurrency,
		"batchAttempts":           batchAttempts,
		"maxBatchGet":             maxBatchGet,
		"maxBatchWrite":           maxBatchWrite,
	}
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST {
			continue
		}
		for _, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, n := range vs.Names {
				w, ok := want[n.Name]
				if !ok {
					continue
				}
				delete(want, n.Name)
				lit, ok := vs.Values[i].(*ast.BasicLit)
				if got, err := strconv.Atoi(lit.Value); !ok || err != nil || got != w {
					t.Errorf("runtime %s = %s, the generator's is %d", n.Name, lit.Value, w)
				}
			}
		}
	}
	for n := range want {
		t.Errorf("runtime/batch.go declares no constant %s", n)
	}
}

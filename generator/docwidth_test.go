package generator

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

// TestDocWidth: every comment line the generator writes fits 80 columns
// (a tab counting as four), for every golden case and example spec, no
// comment is a jennifer character literal's byte(0x..) form, and every
// exported function and method has its doc comment.
func TestDocWidth(t *testing.T) {
	specs := corpusSpecs(t)
	for name, spec := range specs {
		files, diags := Generate("spec.yaml", "spec.yaml", spec)
		if diags.HasErrors() {
			t.Fatalf("%s: %v", name, diags)
		}
		for _, f := range files {
			if !strings.HasSuffix(f.Name, ".go") {
				continue // an output
			}
			af, err := parser.ParseFile(token.NewFileSet(), f.Name, f.Data, parser.ParseComments|parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range af.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.IsExported() && fd.Doc == nil && fd.Name.Name != "Error" && fd.Name.Name != "Unwrap" {
					t.Errorf("%s %s: %s has no doc comment", name, f.Name, fd.Name.Name)
				}
			}
			for i, line := range strings.Split(string(f.Data), "\n") {
				if strings.Contains(line, "byte(0x") {
					t.Errorf("%s %s:%d: %s", name, f.Name, i+1, line)
				}
				text := strings.TrimLeft(line, "\t")
				if !strings.HasPrefix(text, "//") {
					continue
				}
				if w := len([]rune(line)) + 3*strings.Count(line, "\t"); w > 80 {
					t.Errorf("%s %s:%d: a comment line of %d columns: %s", name, f.Name, i+1, w, line)
				}
			}
		}
	}
}

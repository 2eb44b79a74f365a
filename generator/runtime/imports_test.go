package runtime

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestImports: the runtime imports the standard library and
// aws-sdk-go-v2 only (see the package doc), so that what a generated
// package depends on is those and this package.
func TestImports(t *testing.T) {
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			first, _, _ := strings.Cut(path, "/")
			if strings.Contains(first, ".") && !strings.HasPrefix(path, "github.com/aws/aws-sdk-go-v2/") {
				t.Errorf("%s imports %s", name, path)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("no import checked")
	}
}

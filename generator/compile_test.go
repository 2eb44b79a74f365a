package generator

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/build"
	"go/format"
	"go/importer"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/dyngen/dyngen/internal/golang"
	"github.com/dyngen/dyngen/internal/output"
	"github.com/dyngen/dyngen/internal/plan"
)

// This file checks a generated package the way the Go toolchain will
// see it, in the test process itself: the file names, gofmt, go/types
// against the real aws-sdk-go-v2, directives, and that the spec's docs
// end up in comments only. The fuzz target runs it on every sound spec
// it reaches, so it must be cheap: the imported packages are read once
// per process, from the export data the go command already built.

// compileImports are imported when the importer starts: the packages
// generated code imports. Any other package is listed when first
// imported.
var compileImports = []string{
	"github.com/aws/aws-sdk-go-v2/service/dynamodb", "github.com/aws/aws-sdk-go-v2/service/dynamodb/types", "github.com/aws/aws-sdk-go-v2/aws",
	"github.com/dyngen/dyngen/generator/runtime",
	"context", "iter", "math", "regexp", "strconv", "strings", "time", "unicode/utf8",
}

// exportImporter is a types.Importer that reads packages from the export
// data `go list -export` gives, and keeps every package it imported: a
// package is read once per process, whatever the number of inputs.
type exportImporter struct {
	mu      sync.Mutex
	exports map[string]string // import path -> export data file
	imp     types.Importer
}

// sharedImporter returns the process's importer, every package of
// compileImports already imported.
var sharedImporter = sync.OnceValues(func() (*exportImporter, error) {
	x := &exportImporter{exports: map[string]string{}}
	x.imp = importer.ForCompiler(token.NewFileSet(), "gc", x.lookup)
	if err := x.list(compileImports...); err != nil {
		return nil, err
	}
	for _, path := range compileImports {
		if _, err := x.Import(path); err != nil {
			return nil, err
		}
	}
	return x, nil
})

func (x *exportImporter) Import(path string) (*types.Package, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.imp.Import(path)
}

// lookup opens the export data of a package, listing it first when it is
// not known yet.
func (x *exportImporter) lookup(path string) (io.ReadCloser, error) {
	if _, ok := x.exports[path]; !ok {
		if err := x.list(path); err != nil {
			return nil, err
		}
	}
	file, ok := x.exports[path]
	if !ok {
		return nil, fmt.Errorf("go list gives no export data for %q", path)
	}
	return os.Open(file)
}

// list runs go list -export on the packages and their dependencies.
func (x *exportImporter) list(paths ...string) error {
	args := append([]string{"list", "-export", "-deps", "-f", "{{.ImportPath}}\t{{.Export}}"}, paths...)
	var stderr bytes.Buffer
	cmd := exec.Command("go", args...)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("go list -export %v: %v\n%s", paths, err, stderr.Bytes())
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if path, file, ok := strings.Cut(sc.Text(), "\t"); ok && file != "" {
			x.exports[path] = file
		}
	}
	return sc.Err()
}

// platforms returns the GOOS/GOARCH pairs of the toolchain.
var platforms = sync.OnceValues(func() ([][2]string, error) {
	out, err := exec.Command("go", "tool", "dist", "list").Output()
	if err != nil {
		return nil, fmt.Errorf("go tool dist list: %v", err)
	}
	var list [][2]string
	for line := range strings.FieldsSeq(string(out)) {
		goos, goarch, ok := strings.Cut(line, "/")
		if !ok {
			return nil, fmt.Errorf("go tool dist list: unexpected line %q", line)
		}
		list = append(list, [2]string{goos, goarch})
	}
	if len(list) == 0 {
		return nil, errors.New("go tool dist list lists no platform")
	}
	return list, nil
})

// memo remembers results by a hash of what they were computed from, at
// most memoSize of them (then it starts again): most inputs of the fuzz
// target give some of the same files (store.go).
type memo[V any] struct {
	mu sync.Mutex
	m  map[[sha256.Size]byte]V
}

const memoSize = 1 << 16

func (m *memo[V]) get(key [sha256.Size]byte) (V, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	v, ok := m.m[key]
	return v, ok
}

func (m *memo[V]) put(key [sha256.Size]byte, v V) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.m == nil || len(m.m) >= memoSize {
		m.m = map[[sha256.Size]byte]V{}
	}
	m.m[key] = v
}

// excludedOn memoizes buildExclusions.
var excludedOn memo[[]string]

// buildExclusions lists the platforms on which the go command leaves the
// file out of the package (its name, build constraints, cgo), as
// go/build decides for each GOOS/GOARCH of the toolchain; header is the
// file up to the end of its imports, all go/build reads.
func buildExclusions(name string, header []byte) ([]string, error) {
	key := sha256.Sum256(append([]byte(name+"\x00"), header...))
	if excluded, ok := excludedOn.get(key); ok {
		return excluded, nil
	}
	list, err := platforms()
	if err != nil {
		return nil, err
	}
	var excluded []string
	for _, p := range list {
		ctxt := build.Default
		ctxt.GOOS, ctxt.GOARCH = p[0], p[1]
		ctxt.OpenFile = func(string) (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(header)), nil }
		ok, err := ctxt.MatchFile(".", name)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		if !ok {
			excluded = append(excluded, p[0]+"/"+p[1])
		}
	}
	excludedOn.put(key, excluded)
	return excluded, nil
}

// gofmtCleanFiles holds the files found gofmt-clean: printing is the
// most costly check.
var gofmtCleanFiles memo[bool]

// gofmtClean reports whether src, parsed as af, is what gofmt makes of it.
func gofmtClean(fset *token.FileSet, af *ast.File, src []byte) error {
	sum := sha256.Sum256(src)
	if _, ok := gofmtCleanFiles.get(sum); ok {
		return nil
	}
	var buf bytes.Buffer
	if err := format.Node(&buf, fset, af); err != nil {
		return fmt.Errorf("gofmt: %v", err)
	}
	if !bytes.Equal(buf.Bytes(), src) {
		return fmt.Errorf("not gofmt-clean:\n%s", firstDiff(src, buf.Bytes()))
	}
	gofmtCleanFiles.put(sum, true)
	return nil
}

// compileMu serializes the type checks: they share the imported packages.
var compileMu sync.Mutex

// packageProblems checks the files of a generated package: distinct,
// plain file names that every platform builds, no test file, gofmt-clean
// sources, no compiler or go generate directive, no init function, and a
// package that type-checks against the real imports.
func packageProblems(files []File) []error {
	files = goFiles(files) // the outputs (the lock, the list) are not Go
	var errs []error
	imp, err := sharedImporter()
	if err != nil {
		return []error{err}
	}
	fset := token.NewFileSet()
	var asts []*ast.File
	seen := map[string]bool{}
	for _, f := range files {
		if seen[f.Name] {
			errs = append(errs, fmt.Errorf("two files are named %q", f.Name))
		}
		seen[f.Name] = true
		if f.Name == "" || strings.ContainsAny(f.Name, `/\:`+"\x00") || !strings.HasSuffix(f.Name, ".go") {
			errs = append(errs, fmt.Errorf("file name %q is not the name of a Go file in the output directory", f.Name))
		}
		if strings.HasSuffix(f.Name, "_test.go") {
			errs = append(errs, fmt.Errorf("%s is a test file: the package leaves it out", f.Name))
		}
		// go generate reads its directives line by line, in comments of
		// either kind; the compiler reads //go: and //line comments.
		for i, line := range strings.Split(string(f.Data), "\n") {
			line = strings.TrimLeft(line, " \t")
			for _, d := range []string{"//go:", "//line ", "/*line ", "// +build"} {
				if strings.HasPrefix(line, d) {
					errs = append(errs, fmt.Errorf("%s:%d: a directive: %q", f.Name, i+1, line))
				}
			}
		}
		af, err := parser.ParseFile(fset, f.Name, f.Data, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			errs = append(errs, fmt.Errorf("generated code does not parse: %v", firstErrors(err)))
			continue
		}
		asts = append(asts, af)
		if err := gofmtClean(fset, af, f.Data); err != nil {
			errs = append(errs, fmt.Errorf("%s: %v", f.Name, err))
		}
		header := f.Data[:fset.Position(af.Name.End()).Offset]
		for _, d := range af.Decls {
			if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.IMPORT {
				header = f.Data[:fset.Position(gd.End()).Offset]
			}
		}
		excluded, err := buildExclusions(f.Name, header)
		if err != nil {
			errs = append(errs, err)
		} else if len(excluded) > 0 {
			errs = append(errs, fmt.Errorf("the go command leaves %s out of the package on %d platforms, e.g. %s", f.Name, len(excluded), excluded[0]))
		}
		for _, d := range af.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "init" {
				errs = append(errs, fmt.Errorf("%s: the package has an init function", fset.Position(fd.Pos())))
			}
		}
	}
	if len(asts) < len(files) {
		return errs
	}
	var typeErrs []error
	conf := types.Config{
		Importer: imp,
		Error: func(err error) {
			if len(typeErrs) < 10 {
				typeErrs = append(typeErrs, err)
			}
		},
	}
	compileMu.Lock()
	conf.Check(asts[0].Name.Name, fset, asts, nil)
	compileMu.Unlock()
	if len(typeErrs) > 0 {
		errs = append(errs, fmt.Errorf("generated code does not compile:\n%v", errors.Join(typeErrs...)))
	}
	return errs
}

// firstErrors keeps the first few errors of a parse.
func firstErrors(err error) error {
	var list scanner.ErrorList
	if errors.As(err, &list) && len(list) > 5 {
		list = list[:5]
		return list
	}
	return err
}

// firstDiff shows the first line where got and want differ.
func firstDiff(got, want []byte) string {
	g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := range max(len(g), len(w)) {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return fmt.Sprintf("line %d: %q, gofmt gives %q", i+1, gl, wl)
		}
	}
	return "the files differ in their line ends"
}

// docProblems checks that the spec's docs change nothing but comments:
// it emits the plan again with every doc empty and compares the two
// packages token by token, comments left out. A doc can end a comment
// only with a line break or "*/", so the second emission is skipped for
// docs without them.
func docProblems(p *plan.Plan, files []File) []error {
	var docs []*string
	var saved []string
	eachDoc(reflect.ValueOf(p), map[uintptr]bool{}, func(doc *string) {
		docs = append(docs, doc)
		saved = append(saved, *doc)
	})
	if !slices.ContainsFunc(saved, func(doc string) bool { return strings.ContainsAny(doc, "\n\r") || strings.Contains(doc, "*/") }) {
		return nil
	}
	for _, doc := range docs {
		*doc = ""
	}
	bare, err := golang.Package(p, "spec.yaml")
	for i, doc := range docs {
		*doc = saved[i]
	}
	if err != nil {
		return []error{fmt.Errorf("emitting the spec without its docs failed: %v", err)}
	}
	names := func(files []File) []string {
		var out []string
		for _, f := range files {
			out = append(out, f.Name)
		}
		return out
	}
	if !slices.Equal(names(files), names(bare)) {
		return []error{fmt.Errorf("the docs change the files: %v with them, %v without", names(files), names(bare))}
	}
	var errs []error
	for i := range files {
		if d := tokenDiff(files[i].Data, bare[i].Data); d != "" {
			errs = append(errs, fmt.Errorf("%s: the docs change the code, not only comments: %s", files[i].Name, d))
		}
	}
	return errs
}

// eachDoc calls f on every exported string field named Doc reachable from
// v through exported fields.
func eachDoc(v reflect.Value, seen map[uintptr]bool, f func(*string)) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || seen[v.Pointer()] {
			return
		}
		seen[v.Pointer()] = true
		eachDoc(v.Elem(), seen, f)
	case reflect.Interface:
		if !v.IsNil() {
			eachDoc(v.Elem(), seen, f)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			field := v.Type().Field(i)
			if !field.IsExported() {
				continue
			}
			if field.Name == "Doc" && field.Type.Kind() == reflect.String && v.Field(i).CanSet() {
				f(v.Field(i).Addr().Interface().(*string))
				continue
			}
			eachDoc(v.Field(i), seen, f)
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			eachDoc(v.Index(i), seen, f)
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			eachDoc(it.Value(), seen, f)
		}
	}
}

// tokenDiff compares two Go sources token by token, comments and the
// semicolons line ends give left out, and describes the first difference.
func tokenDiff(a, b []byte) string {
	type tok struct {
		tok token.Token
		lit string
		pos token.Position
	}
	tokens := func(src []byte) []tok {
		fset := token.NewFileSet()
		file := fset.AddFile("", -1, len(src))
		var s scanner.Scanner
		s.Init(file, src, nil, 0)
		var out []tok
		for {
			pos, t, lit := s.Scan()
			if t == token.EOF {
				return out
			}
			if t != token.SEMICOLON {
				out = append(out, tok{t, lit, fset.Position(pos)})
			}
		}
	}
	ta, tb := tokens(a), tokens(b)
	for i := range min(len(ta), len(tb)) {
		if ta[i].tok != tb[i].tok || ta[i].lit != tb[i].lit {
			return fmt.Sprintf("line %d: %s %q where the code without docs has %s %q", ta[i].pos.Line, ta[i].tok, ta[i].lit, tb[i].tok, tb[i].lit)
		}
	}
	switch {
	case len(ta) > len(tb):
		return fmt.Sprintf("line %d: %s %q after the end of the code without docs", ta[len(tb)].pos.Line, ta[len(tb)].tok, ta[len(tb)].lit)
	case len(ta) < len(tb):
		return "the code ends before the code without docs"
	}
	return ""
}

// outputProblems emits a sound spec (res is what Check gave) and checks
// its package; a spec with errors gives no package, and nothing to check.
func outputProblems(res *Result) []error {
	if res.Plan == nil || res.Diags.HasErrors() {
		return nil
	}
	files, err := golang.Package(res.Plan, "spec.yaml")
	if err != nil {
		// jennifer's errors go on with the whole source: the first line
		// of each says what is wrong.
		errs := []error{err}
		if joined, ok := err.(interface{ Unwrap() []error }); ok {
			errs = joined.Unwrap()
		}
		var lines []string
		for _, err := range errs {
			line, _, _ := strings.Cut(err.Error(), "\n")
			lines = append(lines, line)
		}
		return []error{fmt.Errorf("emitting a sound spec failed: %s", strings.Join(lines, "\n"))}
	}
	problems := append(packageProblems(files), docProblems(res.Plan, files)...)
	return append(problems, renderedProblems(res.Plan)...)
}

// renderedProblems renders the outputs a sound spec asks for: rendering
// must not fail, and each file must be what its ending says it is.
func renderedProblems(p *plan.Plan) []error {
	outs, err := output.Render(p, output.NewSource("spec.yaml"))
	if err != nil {
		return []error{fmt.Errorf("rendering the outputs of a sound spec failed: %v", err)}
	}
	var problems []error
	for _, f := range outs {
		switch {
		case strings.HasSuffix(f.Name, ".json") && !json.Valid(f.Data):
			problems = append(problems, fmt.Errorf("%s is not JSON", f.Name))
		case strings.HasSuffix(f.Name, ".yaml") || strings.HasSuffix(f.Name, ".yml"):
			var doc yaml.Node
			if err := yaml.Unmarshal(f.Data, &doc); err != nil {
				problems = append(problems, fmt.Errorf("%s is not YAML: %v", f.Name, err))
			}
		case !utf8.Valid(f.Data):
			problems = append(problems, fmt.Errorf("%s is not UTF-8", f.Name))
		}
	}
	return problems
}

// TestPackageProblems checks that packageProblems and docProblems find
// each kind of broken package, and nothing in a sound one.
func TestPackageProblems(t *testing.T) {
	spec := []byte(`version: 1
package: notes
tables:
  Notes: {partitionKey: PK, sortKey: SK}
entities:
  Note:
    attributes: {userId: string, noteId: string, title: string}
    keys:
      primary: {pk: "USER#{userId}", sk: "NOTE#{noteId}"}
patterns:
  GetNote: {get: Note, doc: "Reads a note.\nA second line."}
  NotesOfUser: {query: Note, by: [userId]}
  Retitle: {update: Note, set: [title]}
`)
	res := Check("spec.yaml", spec)
	if res.Diags.HasErrors() {
		t.Fatal(res.Diags.Err())
	}
	files, err := golang.Package(res.Plan, "spec.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if errs := append(packageProblems(files), docProblems(res.Plan, files)...); len(errs) > 0 {
		t.Fatalf("problems in a sound package: %v", errs)
	}
	// change returns the files with the one named name changed by f.
	change := func(name string, f func(File) []File) []File {
		var out []File
		found := false
		for _, file := range files {
			if file.Name == name {
				out = append(out, f(file)...)
				found = true
			} else {
				out = append(out, file)
			}
		}
		if !found {
			t.Fatalf("no file %s", name)
		}
		return out
	}
	rename := func(name string) func(File) []File {
		return func(f File) []File { return []File{{Name: name, Data: f.Data}} }
	}
	edit := func(old, new string) func(File) []File {
		return func(f File) []File {
			if !bytes.Contains(f.Data, []byte(old)) {
				t.Fatalf("%s holds no %q", f.Name, old)
			}
			return []File{{Name: f.Name, Data: bytes.Replace(f.Data, []byte(old), []byte(new), 1)}}
		}
	}
	for _, c := range []struct {
		name  string
		files []File
		want  string
	}{
		{"duplicate", change("note.go", func(f File) []File { return []File{f, f} }), `two files are named "note.go"`},
		{"goos", change("note.go", rename("note_linux.go")), "leaves note_linux.go out of the package on"},
		{"goarch", change("note.go", rename("note_arm64.go")), "leaves note_arm64.go out of the package on"},
		{"ignored", change("note.go", rename("_note.go")), "leaves _note.go out of the package on"},
		{"test file", change("note.go", rename("note_test.go")), "note_test.go is a test file"},
		{"path", change("note.go", rename("sub/note.go")), `file name "sub/note.go" is not`},
		{"build constraint", change("note.go", edit("// Code generated", "//go:build linux\n\n// Code generated")), "leaves note.go out of the package on"},
		{"directive", change("note.go", edit("\ntype Note struct", "\n//go:generate echo\ntype Note struct")), `a directive: "//go:generate echo"`},
		{"gofmt", change("note.go", edit("type Note struct", "type  Note struct")), "note.go: not gofmt-clean"},
		{"parse", change("note.go", edit("type Note struct", "type Note struct struct")), "does not parse"},
		{"type", change("store.go", edit("type Client interface", "var _ = undefinedName\n\ntype Client interface")), "undefined: undefinedName"},
		{"init", change("store.go", edit("type Client interface", "func init() {}\n\ntype Client interface")), "the package has an init function"},
	} {
		t.Run(c.name, func(t *testing.T) {
			errs := packageProblems(c.files)
			if !strings.Contains(fmt.Sprint(errs), c.want) {
				t.Errorf("problems %v, want one saying %q", errs, c.want)
			}
		})
	}
	t.Run("code in docs", func(t *testing.T) {
		changed := change("patterns.go", edit("\nfunc (s *Store) GetNote", "\nfunc init() {}\n\nfunc (s *Store) GetNote"))
		errs := docProblems(res.Plan, changed)
		if !strings.Contains(fmt.Sprint(errs), "patterns.go: the docs change the code") {
			t.Errorf("problems %v, want one saying the docs change patterns.go", errs)
		}
	})
}

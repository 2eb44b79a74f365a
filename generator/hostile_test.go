package generator

import (
	"fmt"
	"go/ast"
	"go/build/constraint"
	"go/parser"
	"go/scanner"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// Texts a spec may hold that would break out of a comment, make a
// directive or invalid Go source if they were printed as they are.
var hostileTexts = []string{
	// Out of a /* */ block onto a line of code.
	"x */ func init() { panic(\"pwned\") } /*",
	"a\n*/\nfunc init() { panic(\"pwned\") }\n/*",
	// Comment markers at the start, which jennifer prints verbatim.
	"//go:generate echo pwned",
	"/* x\n*/ func init() { panic(\"pwned\") } /*",
	// Line breaks of every kind, then a directive at the start of a line.
	"a\rfunc init() { panic(\"pwned\") }",
	"a\r\n//go:generate echo pwned\n//go:build ignore\n+build ignore\n//line pwned.go:1\n//export pwned\n//extern pwned",
	"a\u2028//go:linkname pwned runtime.pwned\u2029//go:embed pwned\u0085go:generate echo pwned",
	"+build ignore",
	"  +build linux",
	// What Go source can't hold, or shows other than it is.
	"nul \x00 bom \ufeff ctl \x01\x7f\u0085 bidi \u202e\u2066 esc \x1b[31m",
	"",
	"\n\n",
}

// hostileSpec is a spec with s in every place where spec text reaches
// generated code: the package, entity, attribute and pattern docs, an
// enum value, a stored attribute name, the entity attribute, the ttl and
// a key attribute name, a type value and the literal text of a template;
// and doc as a constant an update sets and one of an in condition, and
// the enum value as a constant an index key is rebuilt with.
// Identifiers derived from s (a Go constant from an enum value) are as
// plain(s) would give them. Texts that must be non-empty, or free of a
// template's braces and separators, get a letter or lose those.
func hostileSpec(doc, s string) string {
	q := strconv.Quote
	name := "n" + strings.ReplaceAll(s, "#", " ")             // non-empty, starts an identifier, no separator
	lit := strings.NewReplacer("{", " ", "}", " ").Replace(s) // no placeholder
	return fmt.Sprintf(`version: 1
package: p
doc: %[1]s
tables:
  Things:
    partitionKey: %[2]s
    sortKey: SK
    entityAttribute: %[3]s
    ttl: %[4]s
    indexes:
      ByKind: {partitionKey: GSI1PK, sortKey: GSI1SK}
entities:
  Thing:
    doc: %[1]s
    typeValue: %[5]s
    attributes:
      id: string
      kind: {type: enum, values: [%[6]s, plain], doc: %[1]s}
      note: {type: string, attr: %[7]s, doc: %[1]s}
      expires: {type: time, attr: %[4]s, optional: true, doc: %[1]s}
      st: {type: enum, values: [light, dark]}
    keys:
      primary: {pk: %[8]s, sk: "THEME#{st}"}
      ByKind: {pk: "KIND#{kind}", sk: %[8]s}
patterns:
  GetThing: {get: Thing, doc: %[1]s}
  ThingsOfKind: {query: Thing, by: [kind], index: ByKind, doc: %[1]s}
  PutThing: {put: Thing, doc: %[1]s}
  EditThing: {update: Thing, set: [note], when: {kind: "="}, doc: %[1]s}
  DeleteThing: {delete: Thing, doc: %[1]s}
  GetThings: {batchGet: Thing, select: [note], doc: %[1]s}
  MarkThing: {update: Thing, set: [{note: %[1]s}, {kind: %[6]s}], doc: %[1]s}
  NotedThings: {query: Thing, by: [kind], index: ByKind, filter: {note: {in: [%[1]s, other]}}}
`, q(doc), q("pk"+s), q("t"+s), q("x"+s), q("v"+s), q(name), q("s"+s), q(lit+"#{id}"))
}

// plain keeps the letters and digits of s, the rest as spaces (as many
// as its bytes): the same identifiers and key sizes come of it, and no
// code.
func plain(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		} else {
			b.WriteString(strings.Repeat(" ", utf8.RuneLen(r)))
		}
	}
	return b.String()
}

// TestHostileText generates specs holding hostile text in every place
// text of the spec reaches generated code, and checks that the text stays
// inert: generation succeeds, the files are valid Go, their code (every
// token but comments and the contents of string literals) is the code
// of the same spec with plain text, no comment is a directive or a block
// comment, and the package compiles and passes go vet.
func TestHostileText(t *testing.T) {
	batch := newVetBatch(t)
	for i, s := range hostileTexts {
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			spec := hostileSpec(s, s)
			files, diags := Generate("spec.yaml", "spec.yaml", []byte(spec))
			if diags.HasErrors() {
				t.Fatalf("generating from\n%s\nerrors:\n%v", spec, diags.Err())
			}
			twin, diags := Generate("spec.yaml", "spec.yaml", []byte(hostileSpec("plain", plain(s))))
			if diags.HasErrors() {
				t.Fatalf("the plain twin: %v", diags.Err())
			}
			// The Go files: the lock holds the spec's names, escaped as
			// JSON (its own tests), and so differs from the twin's.
			files, twin = goFiles(files), goFiles(twin)
			if len(files) != len(twin) {
				t.Fatalf("%d files, the plain twin %d", len(files), len(twin))
			}
			for j, f := range files {
				code, comments := tokens(t, f)
				want, _ := tokens(t, twin[j])
				if f.Name != twin[j].Name || !slicesEqual(code, want) {
					t.Errorf("%s: its code differs from the plain twin's:\n%s", f.Name, firstTokenDiff(code, want))
				}
				for _, c := range comments {
					if bad := directive(c); bad != "" {
						t.Errorf("%s: comment %q %s", f.Name, c, bad)
					}
				}
			}
			batch.add(t, "hostile"+strconv.Itoa(i), files, nil)
		})
	}
	batch.run()
}

// tokens scans a generated file: its code, one entry per token (a string
// literal as its kind only), and its comments. Any scanner error (a NUL,
// a BOM, invalid UTF-8) fails the test.
func tokens(t *testing.T, f File) (code, comments []string) {
	t.Helper()
	fset := token.NewFileSet()
	var s scanner.Scanner
	s.Init(fset.AddFile(f.Name, -1, len(f.Data)), f.Data, func(pos token.Position, msg string) {
		t.Errorf("%s: %s", pos, msg)
	}, scanner.ScanComments)
	for {
		_, tok, lit := s.Scan()
		switch tok {
		case token.EOF:
			return code, comments
		case token.COMMENT:
			comments = append(comments, lit)
		case token.STRING, token.CHAR:
			code = append(code, tok.String())
		default:
			code = append(code, tok.String()+" "+lit)
		}
	}
}

// directive tells why a comment is not plain text, or "".
func directive(c string) string {
	if !strings.HasPrefix(c, "//") {
		return "is a block comment"
	}
	switch {
	case constraint.IsGoBuild(c), constraint.IsPlusBuild(c):
		return "is a build constraint"
	case strings.HasPrefix(c, "//go:"), strings.HasPrefix(c, "//line "), strings.HasPrefix(c, "//export "), strings.HasPrefix(c, "//extern "):
		return "is a directive"
	case strings.ContainsAny(c, "\r\u2028\u2029\u0085\ufeff\u202e"):
		return "holds a line break or a character Go source shows other than it is"
	}
	return ""
}

func slicesEqual(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// firstTokenDiff shows where two token lists part.
func firstTokenDiff(a, b []string) string {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return fmt.Sprintf("token %d: %q, want %q (then %q)", i, a[i], b[i], a[i:min(i+8, len(a))])
		}
	}
	return fmt.Sprintf("%d tokens, want %d", len(a), len(b))
}

// TestCommentsGoThroughCommentLines checks that the generator writes no
// comment but through the functions of comment.go, which pass every text
// through model.CommentLines: jennifer's own comment functions print a
// text that holds a newline, or starts with // or /*, so that what
// follows can become code.
func TestCommentsGoThroughCommentLines(t *testing.T) {
	files, err := filepath.Glob("../internal/golang/*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") || filepath.Base(name) == "comment.go" {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				switch sel.Sel.Name {
				case "Comment", "Commentf", "PackageComment", "HeaderComment", "CgoPreamble":
					t.Errorf("%s: %s is called; write comments with comment, commentf, trailing, packageComment or headerComment", fset.Position(sel.Pos()), sel.Sel.Name)
				}
			}
			return true
		})
	}
	if checked < 5 {
		t.Fatalf("checked only %d files", checked)
	}
}

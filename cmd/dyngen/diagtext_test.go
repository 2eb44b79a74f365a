package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/dyngen/dyngen/generator"
)

// emptySubstitutions are what a message shows where a value it was
// built from was empty or missing: "changes , so" (an empty list), two
// spaces or a space before punctuation ("needs ; add"), fmt's own
// complaints ("%!s(MISSING)", "<nil>"), empty brackets and quotes where a
// name goes. They are looked for in a message whose quoted parts
// (Go-quoted spec text, which may hold anything) were taken out first.
var emptySubstitutions = []struct {
	what string
	re   *regexp.Regexp
}{
	// A "." right after a space starts a name (.json, table .notes); a
	// sentence's full stop ends a word.
	{"a space before punctuation (an empty value before it)", regexp.MustCompile(` (?:[,;:)\]]|\.(?: |$))`)},
	{"two spaces (an empty value between them)", regexp.MustCompile(`  `)},
	// A spec key is written with its colon (remove default:, and ...).
	{"punctuation twice (an empty value between)", regexp.MustCompile(`(?:[,;]|(?:^|[^\w]):) ?[,;:]`)},
	{"a fmt complaint", regexp.MustCompile(`%!|<nil>|\(MISSING\)|\(BADINDEX\)|\(EXTRA `)},
	{"empty brackets", regexp.MustCompile(`\(\)|\[\]|\{\}`)},
	{"empty quotes", regexp.MustCompile(`''|“”|‘’`)},
	{"a message ending in a space or open punctuation", regexp.MustCompile(`(?:[ ,;(\[]|(?:^|[^\w]):)$`)},
	{"a message starting with a space or punctuation", regexp.MustCompile(`^[ ,;:]`)}, // "." may be a path
}

// legitimate are texts of messages that the patterns would take for an
// empty value: the characters of a DynamoDB name, listed, and an ellipsis
// in an example ({pk: ...}).
var legitimate = strings.NewReplacer("a-z A-Z 0-9 _ . -", "CHARS", "...", "ELLIPSIS")

// quoted matches the Go-quoted strings and the backquoted ones a message
// holds: spec text, printed with %q or in backquotes, may hold anything.
var quoted = regexp.MustCompile("\"(?:[^\"\\\\]|\\\\.)*\"|`[^`]*`")

// emptySubstitution returns what in msg shows an empty substitution, or "".
// An empty Go-quoted string ("") stays: it is how a message shows an empty
// value the spec gave (typeValue: ""), which is no name missing.
func emptySubstitution(msg string) string {
	rest := quoted.ReplaceAllStringFunc(legitimate.Replace(msg), func(q string) string {
		if q == `""` {
			return q
		}
		return "Q"
	})
	for _, e := range emptySubstitutions {
		if loc := e.re.FindStringIndex(rest); loc != nil {
			return e.what + ": " + strconv.Quote(rest[max(0, loc[0]-20):min(len(rest), loc[1]+20)])
		}
	}
	return ""
}

// checkDiagnosticLines fails t for each line of out (the diagnostics the
// command printed) that shows an empty substitution.
func checkDiagnosticLines(t *testing.T, source, out string) {
	t.Helper()
	for line := range strings.Lines(out) {
		line = strings.TrimSuffix(line, "\n")
		// A diagnostic is file:line:col: (warning:) message; the
		// command's own errors start with "dyngen: ". The usage text is
		// neither.
		var msg string
		if m := positioned.FindStringSubmatch(line); m != nil {
			msg = strings.TrimPrefix(m[1], "warning: ")
		} else if rest, ok := strings.CutPrefix(line, "dyngen: "); ok {
			msg = rest
		} else {
			continue
		}
		if what := emptySubstitution(msg); what != "" {
			t.Errorf("%s: a diagnostic shows %s\n%s", source, what, line)
		}
	}
}

var positioned = regexp.MustCompile(`^[^ ]*:\d+:\d+: (.*)$`)

// TestEmptySubstitutionPatterns: the patterns find what they are for,
// and pass the text diagnostics legitimately hold.
func TestEmptySubstitutionPatterns(t *testing.T) {
	bad := []string{
		`update Rename changes , so it must rewrite GSI1PK="C#{c}" on GSI1`,
		`which also needs ; add  to set`,
		`attribute  of Order`,
		`pattern %!s(MISSING) is refused`,
		`a value <nil>`,
		`index () holds`,
		`add an index built from []`,
		`rename '' to it`,
		`add it to set :`,
		`add it to set,`,
		`the key is , and`,
	}
	for _, msg := range bad {
		if emptySubstitution(msg) == "" {
			t.Errorf("not found in %q", msg)
		}
	}
	good := []string{
		`update Rename changes status, so it must rewrite GSI1SK="{status}#{opened}" on ByQueue, which also needs opened; add opened to set`,
		`typeValue "" of Order is empty`,
		`the template "A ,  ()" holds odd text: fine`,
		"the key `{}` is odd",
		`unique email of User: email has a default (spec.yaml:3:4); remove it`,
		`remove default:, and write a version; or add pk: and sk:`,
		`rename it with attr:`,
		`3 to 255 of a-z A-Z 0-9 _ . -`,
		`file "x.yaml" must end in .json; table .notes gives the file`,
		`a mapping {type: ...}, not a list; add keys: {primary: {pk: ...}}`,
	}
	for _, msg := range good {
		if what := emptySubstitution(msg); what != "" {
			t.Errorf("%q: %s", msg, what)
		}
	}
}

// TestDiagnosticTexts renders every diagnostic the specs of the repository
// reach (the spec and generator test cases, the cases of the model's and
// the planner's checks, the examples, the integration and benchmark specs,
// the fuzz corpora of specs) and fails on one that
// shows an empty substitution. The command's txtar cases are checked as
// they run (runCase), with the command's own output.
func TestDiagnosticTexts(t *testing.T) {
	specs := map[string][]byte{}
	add := func(name string, data []byte) { specs[name] = data }
	glob := func(pattern string) []string {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	for _, pattern := range []string{"../../example/*/spec.yaml", "../../internal/e2e/spec.yaml", "../../internal/bench/*/spec.yaml", "../../spec/testdata/*/*.yaml", "../../generator/testdata/requests/*.yaml", "../../internal/output/*/testdata/*.yaml"} {
		for _, file := range glob(pattern) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			add(file, data)
		}
	}
	// The cases of the model's and the planner's checks were the command's
	// cases, checked as they ran; they are checked here now.
	cases := glob("../../generator/testdata/*/*.txtar")
	cases = append(cases, glob("../../internal/model/testdata/*.txtar")...)
	cases = append(cases, glob("../../internal/plan/testdata/*.txtar")...)
	for _, file := range cases {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			if strings.HasSuffix(f.Name, ".yaml") || strings.HasSuffix(f.Name, ".yml") {
				add(file+"/"+f.Name, f.Data)
			}
		}
	}
	for _, file := range glob("../../generator/testdata/fuzz/*/*") {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		// A corpus entry of `go test fuzz v1`: one []byte("...") line.
		for line := range strings.Lines(string(data)) {
			if q, ok := strings.CutPrefix(strings.TrimSpace(line), "[]byte("); ok {
				if s, err := strconv.Unquote(strings.TrimSuffix(q, ")")); err == nil {
					add(file, []byte(s))
				}
			}
		}
	}
	if len(specs) < 40 {
		t.Fatalf("only %d specs found", len(specs))
	}
	diags := 0
	for name, data := range specs {
		_, list := generator.Generate("spec.yaml", "spec.yaml", data)
		var out bytes.Buffer
		if err := list.Print(&out); err != nil {
			t.Fatal(err)
		}
		diags += list.Len()
		checkDiagnosticLines(t, name, out.String())
	}
	if diags < 100 {
		t.Errorf("only %d diagnostics rendered", diags)
	}
}

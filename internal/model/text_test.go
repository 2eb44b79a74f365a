package model

import (
	"go/build/constraint"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCommentLines(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"", []string{""}},
		{"A note.", []string{"A note."}},
		{"x */ func init() {} /*", []string{"x */ func init() {} /*"}},
		{"a\nb\r\nc\rd\u2028e\u2029f\u0085g", []string{"a", "b", "c", "d", "e", "f", "g"}},
		{"a\n\nb\n", []string{"a", "", "b", ""}},
		{"\r\n\r", []string{"", "", ""}},
		{"trailing \t\nkept\tinside", []string{"trailing", "kept\tinside"}},
		{"nul\x00 esc\x1b del\x7f", []string{`nul\x00 esc\x1b del\x7f`}},
		{"bad \xff\xfe utf8", []string{`bad \xff\xfe utf8`}},
		{"bom \ufeff c1 \u009b", []string{`bom \ufeff c1 \u009b`}},
		{"bidi \u202eevil\u202c \u2066x\u2069 \u200f\u061c", []string{`bidi \u202eevil\u202c \u2066x\u2069 \u200f\u061c`}},
		{"ünïcødé 日本語 🎉", []string{"ünïcødé 日本語 🎉"}},
		{"+build ignore", []string{`"+build ignore"`}},
		{"x\n  +build linux\n+build", []string{"x", `"  +build linux"`, `"+build"`}},
		{"+builder and a +build inside", []string{"+builder and a +build inside"}},
		{"//go:generate rm -rf ~", []string{"//go:generate rm -rf ~"}},
		{"go:generate rm\n//line x.go:1", []string{"go:generate rm", "//line x.go:1"}},
	} {
		got := CommentLines(c.in)
		if !slices.Equal(got, c.want) {
			t.Errorf("CommentLines(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestCommentLinesInert checks what every line CommentLines gives is,
// whatever the text: after "// ", one line of valid UTF-8 holding nothing
// Go source shows other than it is, that no Go tool reads as a directive
// or build constraint, and that CommentLines gives back unchanged.
func TestCommentLinesInert(t *testing.T) {
	texts := []string{
		"a\x00b\x01\x02\x03\x04\x05\x06\x07\x08\x0b\x0c\x0e\x0f\x10\x1f\x7f",
		"\xc3\x28 \xa0\xa1 \xe2\x82 \xf0\x90\x8c \xed\xa0\x80",
		"*/\nfunc init() {}\n/*",
		"//go:build ignore\n//go:embed x\n// +build x\n//export f\n//extern f\n/*line x.go:1*/",
		"\t+build x\n \t +build\t",
		"\u2028+build x\u2029go:build x\u0085\ufeff\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069",
	}
	for i := range 256 {
		texts = append(texts, string([]byte{byte(i)}), "x"+string(rune(i))+"+build y")
	}
	for _, text := range texts {
		lines := CommentLines(text)
		if len(lines) == 0 {
			t.Errorf("CommentLines(%q) gave no line", text)
		}
		for _, line := range lines {
			c := "// " + line
			switch {
			case !utf8.ValidString(c):
				t.Errorf("CommentLines(%q): line %q is not valid UTF-8", text, line)
			case strings.ContainsFunc(c, func(r rune) bool {
				return r != '\t' && (r < 0x20 || r >= 0x7f && r < 0xa0 || r == '\ufeff' || isBidiControl(r) || r == '\u2028' || r == '\u2029')
			}):
				t.Errorf("CommentLines(%q): line %q holds a control character", text, line)
			case constraint.IsPlusBuild(c), constraint.IsGoBuild(c):
				t.Errorf("CommentLines(%q): line %q is a build constraint", text, line)
			case line != strings.TrimRight(line, " \t"):
				t.Errorf("CommentLines(%q): line %q ends in white space", text, line)
			}
			if again := CommentLines(line); !slices.Equal(again, []string{line}) {
				t.Errorf("CommentLines(%q) = %q, want the line back", line, again)
			}
		}
	}
}

func TestCommentLine(t *testing.T) {
	for in, want := range map[string]string{
		"":                     "",
		"one line":             "one line",
		"The title.\nIn lists": "The title. In lists",
		"a\r\n*/ b\u2028c":     "a */ b c",
		"+build x\nmore":       `"+build x" more`,
	} {
		if got := CommentLine(in); got != want {
			t.Errorf("CommentLine(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestCommentWrap: a line longer than CommentWidth is wrapped at spaces,
// a preformatted line goes on one tab further in, and a wrapped line that
// would read as a build constraint is quoted as an unwrapped one is.
func TestCommentWrap(t *testing.T) {
	long := strings.Repeat("word ", 40)
	for _, line := range CommentLines(long) {
		if textWidth(line) > CommentWidth {
			t.Errorf("line of %d columns: %q", textWidth(line), line)
		}
	}
	if got := strings.Join(CommentLines(long), " "); got != strings.TrimSpace(long) {
		t.Errorf("wrapping lost words: %q", got)
	}
	pre := CommentLines("\tKeyConditionExpression: " + strings.Repeat("#a = :a AND ", 10))
	if len(pre) < 2 || !strings.HasPrefix(pre[0], "\t") || !strings.HasPrefix(pre[1], "\t\t") {
		t.Errorf("preformatted line wrapped as %q", pre)
	}
	word := strings.Repeat("x", CommentWidth+10)
	if got := CommentLines(word); len(got) != 1 || got[0] != word {
		t.Errorf("a word longer than the width: %q", got)
	}
	// The second line would start with +build.
	lines := CommentLines(strings.Repeat("a", CommentWidth-1) + " +build ignore")
	if len(lines) != 2 || lines[1] != `"+build ignore"` {
		t.Errorf("wrapped build constraint: %q", lines)
	}
}

// TestArticle: the indefinite article follows the word's first letter,
// whatever its case (an entity's Go name starts with a capital).
func TestArticle(t *testing.T) {
	for word, want := range map[string]string{
		"create": "a create", "update": "an update", "Article": "an Article",
		"Order": "an Order", "Book": "a Book", "": "a ",
	} {
		if got := Article(word); got != want {
			t.Errorf("Article(%q) = %q, want %q", word, got, want)
		}
	}
}

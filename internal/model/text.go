package model

import (
	"fmt"
	"go/build/constraint"
	"strconv"
	"strings"
	"unicode/utf8"
)

// CommentLines returns text as the lines of a Go line comment, each to be
// written after "// " ("//" alone for an empty line), so that no text can
// be anything but a comment in generated code: every text of a spec that
// lands in a comment goes through it.
//
//   - Lines break at \n, \r\n, \r, U+0085, U+2028 and U+2029: a line
//     comment ends at \n only, but the others show as line breaks.
//   - What Go source can't hold or shows other than it is becomes its Go
//     escape: invalid UTF-8 (\xff), control characters but the tab (\x00,
//     \x1b, \u009b), the byte order mark (\ufeff) and the characters that
//     reorder text (\u202e).
//   - A line Go tools would read as a build constraint after "// "
//     ("+build ignore") is Go-quoted. After "// " no other line is a
//     directive: //go:, //line, //export and //extern need the comment
//     marker right before them.
//   - Trailing spaces and tabs are dropped, as gofmt does.
//   - A line longer than CommentWidth is wrapped at spaces; a line that
//     starts with a tab (preformatted, in go doc) goes on under its
//     indentation and one more tab.
//
// A text holding none of these gives its lines unchanged; an empty text
// gives one empty line.
func CommentLines(text string) []string {
	var lines []string
	var b strings.Builder
	wrapped := func(text string) {
		for _, line := range wrap(strings.TrimRight(text, " \t"), CommentWidth) {
			if constraint.IsPlusBuild("// " + line) {
				line = strconv.Quote(line)
			}
			lines = append(lines, line)
		}
	}
	if printableASCII(text) {
		// Nothing to escape and no line break: the usual text, at once.
		wrapped(text)
		return lines
	}
	end := func() {
		wrapped(b.String())
		b.Reset()
	}
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, text[i])
		case r == '\r' && strings.HasPrefix(text[i+1:], "\n"):
			size = 2
			end()
		case IsLineBreak(r):
			end()
		case r == '\t':
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r >= 0x80 && r < 0xa0, r == '\ufeff', isBidiControl(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
		i += size
	}
	end()
	return lines
}

// printableASCII reports whether text is printable ASCII only, without
// a tab: CommentLines writes it as it is.
func printableASCII(text string) bool {
	for i := 0; i < len(text); i++ {
		if c := text[i]; c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}

// IsLineBreak reports whether r shows as a line break: \n, \r, U+0085,
// U+2028 or U+2029.
func IsLineBreak(r rune) bool {
	return r == '\n' || r == '\r' || r == '\u0085' || r == '\u2028' || r == '\u2029'
}

// CommentWidth is the most characters a comment line holds after "// ",
// a tab counting as four: with the marker, a comment indented by up to
// one tab (a struct field's) fits 80 columns.
const CommentWidth = 73

// wrap breaks line at spaces into lines of at most width characters (a
// tab counting as four), keeping its leading tabs and spaces; a word
// longer than width stands alone. A line starting with a tab goes on
// one tab further in.
func wrap(line string, width int) []string {
	if textWidth(line) <= width {
		return []string{line}
	}
	rest := strings.TrimLeft(line, " \t")
	indent := line[:len(line)-len(rest)]
	next := indent
	if strings.HasPrefix(indent, "\t") {
		next = indent + "\t"
	}
	var out []string
	cur := indent
	for _, word := range strings.Fields(rest) {
		switch {
		case strings.TrimLeft(cur, " \t") == "":
			cur += word
		case textWidth(cur)+1+textWidth(word) <= width:
			cur += " " + word
		default:
			out = append(out, cur)
			cur = next + word
		}
	}
	return append(out, cur)
}

// textWidth is how many columns s takes, a tab counting as four.
func textWidth(s string) int {
	return utf8.RuneCountInString(s) + 3*strings.Count(s, "\t")
}

// SourceLine is the path of a spec as generated files name it in their
// source line: one line, its line breaks written \n and \r, then inert
// as a comment line (CommentLine).
func SourceLine(path string) string {
	return CommentLine(strings.NewReplacer("\n", `\n`, "\r", `\r`).Replace(path))
}

// CommentLine is text as one line of a Go line comment: its lines (see
// CommentLines) joined by spaces.
func CommentLine(text string) string {
	return strings.Join(CommentLines(text), " ")
}

// isBidiControl reports whether r changes the order text is shown in
// (the characters of Trojan Source, CVE-2021-42574).
func isBidiControl(r rune) bool {
	switch {
	case r == '\u061c', r == '\u200e', r == '\u200f':
		return true
	case r >= '\u202a' && r <= '\u202e':
		return true
	case r >= '\u2066' && r <= '\u2069':
		return true
	}
	return false
}

// Article is word with its indefinite article, by the word's first
// letter: "a create", "an update", "an Article". It is the one rule of
// every text dyngen writes, docs of generated code included.
func Article(word string) string {
	if word != "" && strings.ContainsRune("aeiouAEIOU", rune(word[0])) {
		return "an " + word
	}
	return "a " + word
}

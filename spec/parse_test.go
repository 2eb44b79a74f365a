package spec

import (
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/dyngen/dyngen/internal/diag"
	"go.yaml.in/yaml/v3"
)

// TestParseBadCharacters checks that a byte YAML refuses (a control
// character, invalid UTF-8) is reported at its line and column, counted
// as the YAML parser counts them: in characters, after a byte order mark,
// with \r\n, \r, NEL, LS and PS as line breaks; one error per line.
func TestParseBadCharacters(t *testing.T) {
	const head = "version: 1\npackage: x\n"
	for _, tc := range []struct {
		name string
		data string
		want []string // "line:col: message part"
	}{
		{"nul", head + "tables:\n  Abc: {partitionKey: P\x00K}\n", []string{"4:24: NUL"}},
		{"control", head + "doc: \"a\x01b\"\n", []string{"3:8: U+0001"}},
		{"del", head + "doc: \"a\x7fb\"\n", []string{"3:8: U+007F"}},
		{"c1 control", head + "doc: \"a\u0080b\"\n", []string{"3:8: U+0080"}},
		{"noncharacter", head + "doc: \"a\uffffb\"\n", []string{"3:8: U+FFFF"}},
		{"invalid utf-8", head + "# caf\xe9\n", []string{"3:6: 0xe9"}},
		{"columns in characters", head + "doc: \"été\xff\"\n", []string{"3:10: 0xff"}},
		{"truncated sequence", head + "doc: \"\xe2\x82\"\n", []string{"3:7: 0xe2"}},
		{"surrogate", head + "doc: \"\xed\xa0\x80\"\n", []string{"3:7: 0xed"}},
		{"crlf", "version: 1\r\npackage: x\r\n\x00\r\n", []string{"3:1: NUL"}},
		{"lone cr", "version: 1\rpackage: x\r  \x00\r", []string{"3:3: NUL"}},
		{"nel ls ps", "# a\u0085b\u2028c\u2029d\x00\n", []string{"4:2: NUL"}},
		{"bom", "\ufeff\x00version: 1\n", []string{"1:1: NUL"}},
		{"bom later", head + "doc: \"\ufeff\x00\"\n", []string{"3:8: NUL"}},
		{"one error per line", head + "doc: \"\x00\x00\x01\"\n# \xff\xfe\n", []string{"3:7: NUL", "4:3: 0xff"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, diags := Parse("spec.yaml", []byte(tc.data))
			var got []string
			for _, d := range diags.Sorted() {
				got = append(got, d.String())
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %d errors, want %d:\n%s", len(got), len(tc.want), strings.Join(got, "\n"))
			}
			for i, w := range tc.want {
				pos, part, _ := strings.Cut(w, ": ")
				if !strings.HasPrefix(got[i], "spec.yaml:"+pos+": ") || !strings.Contains(got[i], part) {
					t.Errorf("error %d is %q, want one at %s naming %s", i, got[i], pos, part)
				}
			}
		})
	}
}

// TestParseManyBadLines checks that a file full of bad bytes (a binary
// file given by mistake) gives a bounded number of errors.
func TestParseManyBadLines(t *testing.T) {
	data := strings.Repeat("\x00\n", 50)
	_, diags := Parse("spec.yaml", []byte(data))
	got := diags.Sorted()
	if len(got) != maxBadLines+1 {
		t.Fatalf("got %d errors, want %d", len(got), maxBadLines+1)
	}
	last := got[len(got)-1]
	if last.Pos.Line != maxBadLines+1 || !strings.Contains(last.Message, "40 more lines") {
		t.Errorf("the last error is %v, want one at line %d counting the 40 more lines", last, maxBadLines+1)
	}
}

// TestParseTextForms checks that a byte order mark, \r\n line ends and
// UTF-16 are read, with positions as in the plain file.
func TestParseTextForms(t *testing.T) {
	const plain = "version: 1\npackage: x\nbogus: 1\n"
	utf16le := func(s string) string {
		b := []byte{0xff, 0xfe}
		for _, u := range utf16.Encode([]rune(s)) {
			b = append(b, byte(u), byte(u>>8))
		}
		return string(b)
	}
	for name, data := range map[string]string{
		"plain":    plain,
		"bom":      "\ufeff" + plain,
		"crlf":     strings.ReplaceAll(plain, "\n", "\r\n"),
		"bom crlf": "\ufeff" + strings.ReplaceAll(plain, "\n", "\r\n"),
		"utf-16":   utf16le(plain),
	} {
		t.Run(name, func(t *testing.T) {
			_, diags := Parse("spec.yaml", []byte(data))
			var unknown []string
			for _, d := range diags.Sorted() {
				if strings.Contains(d.Message, "bogus") {
					unknown = append(unknown, d.String())
				}
			}
			if len(unknown) != 1 || !strings.HasPrefix(unknown[0], "spec.yaml:3:1: ") {
				t.Errorf("want one error about bogus at 3:1, got %q (all: %v)", unknown, diags.Sorted())
			}
		})
	}
}

// TestBadCharactersAgreeWithYAML checks the pre-scan against the YAML
// parser: a character is refused by one exactly when the other's reader
// refuses it.
func TestBadCharactersAgreeWithYAML(t *testing.T) {
	var samples []string
	for r := rune(0); r < 0x300; r++ {
		samples = append(samples, string(r))
	}
	for _, r := range []rune{0xD7FF, 0xE000, 0xFEFF, 0xFFFD, 0xFFFE, 0xFFFF, 0x10000, 0x10FFFF, 0x2028, 0x2029} {
		samples = append(samples, string(r))
	}
	for b := 0x80; b < 0x100; b++ {
		samples = append(samples, string([]byte{byte(b)}))
	}
	samples = append(samples, "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xc0\x80", "\xe2\x82", "\xf0\x9f\x98")
	for _, s := range samples {
		data := []byte("doc: \"a" + s + "b\"\n")
		var n yaml.Node
		err := yaml.Unmarshal(data, &n)
		yamlRefuses := false
		for _, reader := range []string{"UTF-8", "Unicode character", "control characters"} {
			yamlRefuses = yamlRefuses || err != nil && strings.Contains(err.Error(), reader)
		}
		scanRefuses := badCharacters("spec.yaml", data, new(diag.List))
		if yamlRefuses != scanRefuses {
			t.Errorf("%q: YAML refuses it: %v (%v); the pre-scan: %v", s, yamlRefuses, err, scanRefuses)
		}
		if !utf8.ValidString(s) && !scanRefuses {
			t.Errorf("%q: invalid UTF-8 not refused", s)
		}
	}
}

package design

import (
	"strings"
	"testing"
)

// TestEscapeMarkdown checks the one function that makes the spec's texts
// inert in the design document, in each of its places.
func TestEscapeMarkdown(t *testing.T) {
	tests := []struct {
		in   string
		ctx  markdownContext
		want string
	}{
		{"plain text", inText, "plain text"},
		{"a | b", inText, `a \| b`},
		{"# heading", inText, `\# heading`},
		{"- item", inText, `\- item`},
		{"+ item", inText, `\+ item`},
		{"12. item", inText, `12\. item`},
		{"12) item", inText, `12\) item`},
		{"version 1.2", inText, "version 1.2"},
		{"  indented code", inText, "indented code"},
		{"```go\nx\n```", inText, "\\`\\`\\`go x \\`\\`\\`"},
		{"<script>alert(1)</script>", inText, `\<script\>alert(1)\</script\>`},
		{"&amp; [a](b) ![i](j) *e* _u_ ~~s~~ $m$ \\", inText, `\&amp; \[a\](b) \!\[i\](j) \*e\* \_u\_ \~\~s\~\~ \$m\$ \\`},
		{"line\r\nbreak\u2028and\u2029more\u0085end", inText, "line break and more end"},
		{"tab\there", inText, "tab here"},
		{"\u202eevil\u2066x\ufeff\x1b\xff", inText, `\\u202eevil\\u2066x\\ufeff\\x1b\\xff`},
		{"BOOK#{isbn}", inCode, "`BOOK#{isbn}`"},
		{"", inCode, ""},
		{"a|b", inCode, "`a\\|b`"},
		{"a`b", inCode, "``a`b``"},
		{"`a``", inCode, "``` `a`` ```"},
		{" a ", inCode, "`  a  `"},
		{"x\ny\u202e", inCode, "`x\\ny\\u202e`"},
		{"<b>*x*</b>", inCode, "`<b>*x*</b>`"},
		{"spec.yaml", inComment, "spec.yaml"},
		{"a-->b", inComment, "a-&#45;&gt;b"},
		{"a--!>b<!--c---d-", inComment, "a-&#45;!&gt;b&lt;!-&#45;c-&#45;-d-"},
		{"a&b\nc", inComment, `a&amp;b\nc`},
	}
	for _, tt := range tests {
		if got := escapeMarkdown(tt.in, tt.ctx); got != tt.want {
			t.Errorf("escapeMarkdown(%q, %d) = %q, want %q", tt.in, tt.ctx, got, tt.want)
		}
	}
	// In a comment, no two hyphens are ever left in a row.
	for _, in := range []string{"--", "---", "----", "-->", "--!>", "a--b--c", "-"} {
		if got := escapeMarkdown(in, inComment); strings.Contains(got, "--") || strings.ContainsAny(got, "<>") {
			t.Errorf("escapeMarkdown(%q, inComment) = %q: it can end the comment", in, got)
		}
	}
}

// TestMermaidLabel checks that a label keeps letters, digits and the
// characters of key templates, and writes everything else as an entity
// code: nothing can end the label or the statement, or read as a
// directive, a comment, markup or HTML.
func TestMermaidLabel(t *testing.T) {
	tests := []struct{ in, want string }{
		{"PK = BOOK#{isbn}", `"PK = BOOK#{isbn}"`},
		{"Café_1.x/y+z@w,v:u", `"Café_1.x/y+z@w,v:u"`},
		{`a"b`, `"a#34;b"`},
		{"#quot;", `"#quot#59;"`},
		{"%%{init: {'theme':'dark'}}%%", `"#37;#37;{init: {#39;theme#39;:#39;dark#39;}}#37;#37;"`},
		{"a-->b;c|d", `"a#45;#45;#62;b#59;c#124;d"`},
		{"<b>`md`</b>", `"#60;b#62;#96;md#96;#60;/b#62;"`},
		{"x\ny\u2028z\u202e", `"x#92;ny#92;nz#92;u202e"`},
		{"[a](b)", `"#91;a#93;#40;b#41;"`},
	}
	for _, tt := range tests {
		got := mermaid(tt.in)
		if got != tt.want {
			t.Errorf("mermaid(%q) = %s, want %s", tt.in, got, tt.want)
		}
		inner := got[1 : len(got)-1]
		// A ; only ever ends an entity code, and the codes are numbers.
		if strings.ContainsAny(inner, "\"%<>`|[]()\n") || strings.Count(inner, ";") != strings.Count(inner, "#")-strings.Count(tt.in, "#") {
			t.Errorf("mermaid(%q) = %s is not inert", tt.in, got)
		}
	}
}

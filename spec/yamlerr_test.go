package spec

import (
	"fmt"
	"strings"
	"testing"
)

// TestYAMLErrorPositions checks that a YAML syntax error is reported at
// the token the YAML parser stopped at (the positions are those libyaml,
// which the YAML library is a port of, gives as the problem's mark; for a
// key without its colon and a quote never closed, the key and the quote,
// the mark of the construct), with the fix for it; and, when the token
// can't be found, at the line the library names, saying so.
func TestYAMLErrorPositions(t *testing.T) {
	const head = "version: 1\npackage: users\n"
	// far is a spec whose mapping of patterns starts 60 lines above the
	// line that breaks it: the library names the line before the mapping.
	var far strings.Builder
	far.WriteString(head + "patterns:\n")
	for i := range 60 {
		fmt.Fprintf(&far, "  Get%d: {get: User}\n", i)
	}
	far.WriteString(" Put: {put: User}\n")
	for _, tc := range []struct {
		name, data string
		pos        string // line:col
		hint       string // a part of the message
	}{
		{"colon in a value", head + "doc: Returns the user: by id\n", "3:22", `quote the value: doc: "Returns the user: by id"`},
		{"colon in a list item's value", head + "doc:\n  - a: b: c\n", "4:9", `quote the value: a: "b: c"`},
		{"colon on a line indented deeper", head + "tables:\n  Users:\n    partitionKey: PK\n      sortKey: SK\n", "6:14", "indented deeper than the key on line 5"},
		{"colon after a key without one", head + "tables:\n  Users:\n    partitionKey PK\n    sortKey: SK\n", "6:12", "line 5 (partitionKey PK) has no"},
		{"key without its colon", head + "tables:\n  Users:\n    a: b\n    sortKey SK\n    c: d\n", "6:5", `a key needs ": " after it`},
		{"key without its colon, at the end", head + "doc: x\nvalue\n", "4:1", `a key needs ": " after it`},
		{"tab on line 1", "\tversion: 1\n", "1:1", "indent with spaces, not tabs"},
		{"tab indenting a key", head + "tables:\n\tUsers: {}\n", "4:1", "indent with spaces, not tabs"},
		{"tab in a plain value", head + "doc: a\n\tb: c\n", "4:1", "indent with spaces, not tabs"},
		{"tab after spaces", head + "tables:\n  Users:\n   \tpk: x\n", "5:4", "indent with spaces, not tabs"},
		{"tab in a block value far below", head + "doc: >-\n  a\n  b\n  c\n  d\n\te\n", "8:1", "indent with spaces, not tabs"},
		{"at sign", head + "doc: @you\n", "3:6", `quote it: doc: "@you"`},
		{"backquote", head + "doc: `code`\n", "3:6", "quote it"},
		{"percent", head + "doc: %d\n", "3:6", "quote it"},
		{"unknown escape", head + `doc: "C:\q"` + "\n", "3:9", `write \\ for a backslash`},
		{"short unicode escape", head + `doc: "\u12"` + "\n", "3:7", `write \\ for a backslash`},
		{"double quote never closed", head + "doc: \"abc\ntables: {}\n", "3:6", `end it with "`},
		{"single quote never closed", head + "a: 'x'\ndoc: 'it''s\n", "4:6", "end it with '"},
		{"text after a quoted value", head + "doc: \"a\" b\n", "3:10", "put the whole value inside the quotes"},
		{"flow mapping without a comma", head + "tables:\n  Users: {partitionKey: PK sortKey: SK}\n", "4:35", "flow mapping { opened at 4:10"},
		{"flow mapping not closed", head + "tables:\n  Users: {partitionKey: PK\nentities: {}\n", "5:9", "flow mapping { opened at 4:10 is still open here: end it with '}'"},
		{"flow list not closed", head + "unique: [a, b\nentities: {}\n", "4:9", "flow list [ opened at 3:9 is still open here: end it with ']'"},
		{"colon in a flow value", head + "tables: {a: b, c: d: e}\n", "3:20", "flow mapping { opened at 3:9"},
		{"brace with nothing to close", head + "tables: {a: b}}\n", "3:15", "nothing opens this '}'"},
		{"list item without its dash", head + "unique:\n  - a\n  b\n", "5:3", `this line sits in the list of line 4: start it with "- "`},
		{"key dedented", head + "tables:\n  Users:\n    partitionKey: PK\n   sortKey: SK\n", "6:4", "indented by 3 spaces and line 5 by 4 spaces"},
		{"key dedented far below", far.String(), "64:2", "indented by 1 space and line 63 by 2 spaces"},
		{"line at the top level after a value", "\"doc\"\nx: y\n", "2:1", "the spec ends before this line"},
		{"unknown alias", head + "doc: *nothing\n", "3:6", "define the anchor"},
		{"anchor without a name", head + "doc: & x\n", "3:6", `'&' starts an anchor`},
		{"document marker in a quoted value", head + "doc: \"a\n---\n  b\"\n", "4:1", "ends the document"},
		{"tag handle", head + "doc: !x!y z\n", "3:6", "a spec uses no tags"},
		{"indentation indicator 0", head + "doc: |0\n  x\n", "3:7", "1 to 9"},
		// The token at fault is the plain value at 5:23, after the quoted
		// one closing at 5:22; the parser notices it only once it has read
		// the quoted value at 5:49: the line is sure, the column is not.
		{"token read ahead of", "version: 1\nentities:\n  User:\n    keys:\n\"      primary: {pk: \"account:{accountId}\", sk: \"user:{userId}\"}\n", "5:1", "(at a token of this line; the YAML parser gives no column)"},
		{"position not found", head + "doc: !<tag\n", "3:1", "the YAML parser names line 3 and no column"},
		{"position not found, no line", "%YAML 2.0\n---\nversion: 1\n", "1:1", "the YAML parser names no line"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, diags := Parse("spec.yaml", []byte(tc.data))
			errs := diags.Errors()
			if len(errs) != 1 {
				t.Fatalf("%d errors, want 1: %v", len(errs), diags.Err())
			}
			got := errs[0]
			if pos := fmt.Sprintf("%d:%d", got.Pos.Line, got.Pos.Col); pos != tc.pos || !strings.HasPrefix(got.Message, "invalid YAML: ") || !strings.Contains(got.Message, tc.hint) {
				t.Errorf("%v\nwant at %s, saying %q", got, tc.pos, tc.hint)
			}
		})
	}
}

// TestYAMLErrorUTF16 checks that a spec in UTF-16, whose offsets are not
// the parser's, is reported at the line the library names.
func TestYAMLErrorUTF16(t *testing.T) {
	data := []byte{0xff, 0xfe}
	for _, r := range "version: 1\ndoc: @x\n" {
		data = append(data, byte(r), 0)
	}
	_, diags := Parse("spec.yaml", data)
	errs := diags.Errors()
	if len(errs) != 1 || errs[0].Pos.Line != 2 || errs[0].Pos.Col != 1 || !strings.Contains(errs[0].Message, "names line 2") {
		t.Errorf("%v, want one error at 2:1 naming the library's line", diags.Err())
	}
}

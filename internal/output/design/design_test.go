package design_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/dyngen/dyngen/generator"
	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/output"
	"github.com/dyngen/dyngen/internal/output/format"
	"github.com/dyngen/dyngen/internal/plan"
	"github.com/dyngen/dyngen/internal/report"
)

// designOf renders the design document of the spec in file, which must
// plan without error.
func designOf(t *testing.T, file string, src output.Source) (*plan.Plan, string) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	res := generator.Check(file, data)
	if err := res.Diags.Err(); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	files, err := output.Render(res.Plan, src)
	if err != nil {
		t.Fatal(err)
	}
	o := res.Plan.Model.Output(format.Design)
	if o == nil {
		t.Fatalf("%s asks for no design document", file)
	}
	for _, f := range files {
		if f.Name == o.File {
			return res.Plan, string(f.Data)
		}
	}
	t.Fatalf("%s: no file %s among the outputs", file, o.File)
	return nil, ""
}

// TestDesignExamples checks the design document of every example and of
// the end-to-end spec against their plans: a section per table, every
// entity of the table once in its entity/key table with a column per key
// attribute of every index, every pattern once in its table's matrix
// with the call and index the plan chose, and a Mermaid flowchart with
// an edge from one item collection of each index to each entity on it.
func TestDesignExamples(t *testing.T) {
	specs, err := filepath.Glob("../../../example/*/spec.yaml")
	if err != nil || len(specs) == 0 {
		t.Fatalf("no example specs: %v", err)
	}
	specs = append(specs, "../../../example/storeinventory/native/spec.yaml", "../../e2e/spec.yaml", "../../e2e/multikey/spec.yaml", "../../e2e/stream/spec.yaml")
	for _, file := range specs {
		t.Run(filepath.Base(filepath.Dir(file)), func(t *testing.T) {
			p, text := designOf(t, file, output.NewSource("spec.yaml"))
			doc := parseDesign(t, text)
			checkDesign(t, p, doc)
		})
	}
}

// TestDesignHostile renders a spec whose docs, names and key templates
// hold line breaks, fences, pipes, HTML, comment ends, Mermaid
// directives and characters that reorder text (testdata), from a spec
// path that holds them too: the document keeps the structure the plan
// gives it, no text turns into HTML, and the header's comments stay
// comments.
func TestDesignHostile(t *testing.T) {
	src := output.NewSource("dir--><script>x</script>\n# h\u202e|`--!>-")
	p, text := designOf(t, "testdata/design_hostile.yaml", src)
	doc := parseDesign(t, text)
	checkDesign(t, p, doc)
	lines := strings.Split(text, "\n")
	for i, line := range lines[:2] {
		body, ok := strings.CutPrefix(line, "<!-- ")
		body, ok2 := strings.CutSuffix(body, " -->")
		if !ok || !ok2 || strings.Contains(body, "--") || strings.ContainsAny(body, "<>") {
			t.Errorf("header line %d %q is not one HTML comment", i+1, line)
		}
	}
	if !strings.HasPrefix(lines[1], "<!-- source: dir-&#45;&gt;&lt;script&gt;") {
		t.Errorf("source line %q", lines[1])
	}
	// The spec's texts are all there, escaped.
	for _, want := range []string{
		"\\# Not a heading \\`\\`\\` \\| a \\| b \\| --\\> \\<script\\>",
		"\\\\u202eevil next",
		"``A\\|B`<x>\"q\"#{id}``",
		"````S;%%init%%-->end\\n``` x\\u202e````",
		`["Thing<br>SK = S#59;#37;#37;init#37;#37;#45;#45;#62;end#92;n#96;#96;#96; x#92;u202e"]`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the document has no %s", want)
		}
	}
	if len(doc.paragraphs) == 0 || doc.paragraphs[0] != "Line one" {
		t.Errorf("the package doc's first paragraph is %q", doc.paragraphs)
	}
}

// document is a design document cut into the blocks of its structure, as
// far as the tests read it.
type document struct {
	lines      []string
	headings   []string
	paragraphs []string
	// sections are the tables' sections, by table name.
	sections []*designSection
}

// designSection is one table's section: its Markdown tables, by the
// heading they follow, and its Mermaid diagram.
type designSection struct {
	name    string
	tables  map[string][][]string
	diagram []string
}

// parseDesign reads the document's blocks line by line, failing on any
// line that is not one of the blocks the template writes: a heading of
// the template's, a paragraph line that starts no other block, a list
// item, a table row with its head's number of cells, a fenced block.
// Every text line is checked to hold no HTML but <br> and no unescaped
// markup but the template's bold names.
func parseDesign(t *testing.T, text string) *document {
	t.Helper()
	d := &document{lines: strings.Split(text, "\n")}
	var sec *designSection
	heading := ""
	var table [][]string
	lines := strings.Split(text, "\n")
	if lines[len(lines)-1] != "" {
		t.Errorf("the document does not end with a line break")
	}
	endTable := func() {
		if table != nil {
			if sec == nil || sec.tables[heading] != nil {
				t.Errorf("a second table under %q", heading)
			} else {
				sec.tables[heading] = table
			}
		}
		table = nil
	}
	for i := 2; i < len(lines); i++ {
		line := lines[i]
		if !strings.HasPrefix(line, "|") {
			endTable()
		}
		switch {
		case line == "":
		case strings.HasPrefix(line, "```"):
			if line != "```mermaid" || sec == nil || sec.diagram != nil {
				t.Fatalf("line %d: unexpected fence %q", i+1, line)
			}
			j := i + 1
			for j < len(lines) && !strings.HasPrefix(lines[j], "```") {
				j++
			}
			if j == len(lines) || lines[j] != "```" {
				t.Fatalf("line %d: the mermaid block is not closed", i+1)
			}
			sec.diagram = lines[i+1 : j]
			i = j
		case strings.HasPrefix(line, "#"):
			level, title, _ := strings.Cut(line, " ")
			d.headings = append(d.headings, line)
			checkInline(t, i+1, title)
			switch {
			case level == "#" && len(d.headings) == 1 && sec == nil:
			case level == "##" && strings.HasPrefix(title, "Table "):
				sec = &designSection{name: strings.TrimPrefix(title, "Table "), tables: map[string][][]string{}}
				d.sections = append(d.sections, sec)
				heading = ""
			case level == "##" && title == "Assumptions of the cost estimates":
				sec = nil
			case level == "###" && sec != nil && slices.Contains([]string{"Entities and keys", "Access patterns", "Item collections", "Stream"}, title):
				heading = title
			default:
				t.Errorf("line %d: unexpected heading %q", i+1, line)
			}
		case strings.HasPrefix(line, "|"):
			cells := splitRow(line)
			if cells == nil {
				t.Errorf("line %d: not a table row: %q", i+1, line)
				continue
			}
			if table == nil {
				if i+1 == len(lines) || lines[i+1] != "|"+strings.Repeat("---|", len(cells)) {
					t.Errorf("line %d: a table head without its delimiter row", i+1)
				}
				i++
			} else if len(cells) != len(table[0]) {
				t.Errorf("line %d: %d cells, the head has %d: %q", i+1, len(cells), len(table[0]), line)
			}
			for _, c := range cells {
				checkInline(t, i+1, c)
			}
			table = append(table, cells)
		case strings.HasPrefix(line, "- "), strings.HasPrefix(line, "  - "):
			item := strings.TrimPrefix(strings.TrimPrefix(line, "  "), "- ")
			checkInline(t, i+1, item)
		default:
			if regexp.MustCompile(`^(\s|[>=+*_~<-]|[0-9]+[.)])`).MatchString(line) {
				t.Errorf("line %d: a paragraph line that starts a block: %q", i+1, line)
			}
			checkInline(t, i+1, line)
			if heading == "" && sec == nil && len(d.headings) == 1 {
				d.paragraphs = append(d.paragraphs, line)
			}
		}
	}
	endTable()
	return d
}

// splitRow cuts a table row into its cells at the pipes no backslash
// escapes (the pipes a code span holds are escaped too), nil when it is
// not a row.
func splitRow(line string) []string {
	if !strings.HasPrefix(line, "| ") || !strings.HasSuffix(line, " |") {
		return nil
	}
	var cells []string
	start := 1
	for i := 1; i < len(line); i++ {
		switch line[i] {
		case '\\':
			i++
		case '|':
			cells = append(cells, strings.TrimSpace(line[start:i]))
			start = i + 1
		}
	}
	return cells
}

// checkInline fails on inline text that holds HTML other than <br>, or
// markup the template does not write: an unescaped < & [ ] ! ~ $ or _, a
// * outside a **bold** pair, a code span not closed.
func checkInline(t *testing.T, line int, s string) {
	t.Helper()
	stars := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\':
			i++
		case c == '`':
			n := 1
			for i+n < len(s) && s[i+n] == '`' {
				n++
			}
			fence := strings.Repeat("`", n)
			end := strings.Index(s[i+n:], fence)
			// The closing run is exactly n backticks long.
			for end >= 0 && i+n+end+n < len(s) && s[i+n+end+n] == '`' {
				next := strings.Index(s[i+n+end+n:], fence)
				if next < 0 {
					end = -1
					break
				}
				for i+n+end+n < len(s) && s[i+n+end+n] == '`' {
					end++
				}
				end += next
			}
			if end < 0 {
				t.Errorf("line %d: a code span not closed in %q", line, s)
				return
			}
			i += n + end + n - 1
		case strings.HasPrefix(s[i:], "<br>"):
			i += 3
		case c == '*' && strings.HasPrefix(s[i:], "**"):
			stars++
			i++
		case strings.IndexByte("<>&[]!~$_*", c) >= 0:
			t.Errorf("line %d: unescaped %q in %q", line, c, s)
		}
	}
	if stars%2 != 0 {
		t.Errorf("line %d: a ** not closed in %q", line, s)
	}
}

// checkDesign checks the document's sections against the plan.
func checkDesign(t *testing.T, p *plan.Plan, d *document) {
	t.Helper()
	if len(d.sections) != len(p.Tables) {
		t.Fatalf("%d table sections, the plan has %d tables", len(d.sections), len(p.Tables))
	}
	for i, def := range p.Tables {
		sec := d.sections[i]
		tbl := def.Table
		if name := unescape(sec.name); name != tbl.Name {
			t.Errorf("section %d is of table %q, want %q", i, name, tbl.Name)
		}
		// The entity/key table: every entity once, in order, with a
		// template per key attribute of every index it is on.
		rows := sec.tables["Entities and keys"]
		columns := 2
		for _, ix := range tbl.Indexes {
			columns += len(ix.KeyAttrs())
		}
		if len(rows) != len(tbl.Entities)+1 || len(rows[0]) != columns {
			t.Errorf("table %s: entity/key table of %d rows of %d cells, want %d of %d", tbl.Name, len(rows), len(rows[0]), len(tbl.Entities)+1, columns)
			continue
		}
		for j, e := range tbl.Entities {
			row := rows[j+1]
			if unescape(row[0]) != e.Name {
				t.Errorf("table %s: entity row %d is %q, want %s", tbl.Name, j, row[0], e.Name)
			}
			col := 2
			for _, ix := range tbl.Indexes {
				k := e.Key(ix)
				for a := range ix.KeyAttrs() {
					cell := row[col]
					col++
					if k == nil {
						if cell != "" {
							t.Errorf("table %s: %s is not on %s, yet its cell is %q", tbl.Name, e.Name, ix.Name, cell)
						}
						continue
					}
					got, want := unescape(cell), k.AttrTemplates()[a].Source
					if strings.IndexFunc(want, hiddenRune) >= 0 {
						// Shown as escapes: compared below, whole.
						if got == "" || strings.IndexFunc(cell, hiddenRune) >= 0 {
							t.Errorf("table %s: %s's template on %s is %q: hidden characters", tbl.Name, e.Name, ix.Name, cell)
						}
						continue
					}
					if got != want && got != want+" (sparse)" {
						t.Errorf("table %s: %s's template on %s is %q, want %q", tbl.Name, e.Name, ix.Name, got, want)
					}
				}
			}
		}
		// The matrix: every pattern of the table once, with its call and
		// index.
		matrix := sec.tables["Access patterns"]
		var want [][]string
		for _, pp := range p.Patterns {
			if pp.Pattern.Table == tbl {
				want = append(want, []string{pp.Pattern.Name, string(pp.Call), pp.Index.Name})
			}
		}
		if len(matrix) != len(want)+1 && !(len(want) == 0 && matrix == nil) {
			t.Errorf("table %s: the matrix has %d rows, want %d patterns and its head", tbl.Name, len(matrix), len(want))
			continue
		}
		for j, w := range want {
			row := matrix[j+1]
			got := []string{unescape(row[0]), unescape(row[1]), unescape(row[2])}
			if !slices.Equal(got, w) {
				t.Errorf("table %s: matrix row %d is %q, want %q", tbl.Name, j, got, w)
			}
			if steps := len(report.PatternOf(pp(p, w[0])).Steps); steps > 0 && strings.Count(row[3], "<br>") != steps-1 {
				t.Errorf("table %s: %s shows %d steps, want %d", tbl.Name, w[0], strings.Count(row[3], "<br>")+1, steps)
			}
		}
		checkDiagram(t, tbl, sec.diagram)
		checkStream(t, p, tbl, sec, d.lines)
	}
}

// checkStream checks the part of table tbl's stream: none without one;
// with one, a row per consumer, in order, naming it, each entity it
// handles and the view type it needs, and, for a consumer with lambda:,
// its event source mapping; each of its Lambda filters, in order, as an
// item of the document's lists, and the merge said when the plan merged
// them.
func checkStream(t *testing.T, p *plan.Plan, tbl *model.Table, sec *designSection, lines []string) {
	t.Helper()
	s := p.Stream(tbl)
	rows := sec.tables["Stream"]
	if s == nil || len(s.Consumers) == 0 {
		if rows != nil {
			t.Errorf("table %s: a table of consumers, without consumer", tbl.Name)
		}
		return
	}
	if len(rows) != len(s.Consumers)+1 {
		t.Errorf("table %s: %d rows of consumers, want %d and the head", tbl.Name, len(rows), len(s.Consumers))
		return
	}
	for i, pc := range s.Consumers {
		c, row := pc.Consumer, rows[i+1]
		if unescape(row[0]) != c.Name || unescape(row[2]) != pc.ViewType {
			t.Errorf("table %s: consumer row %q, want %s needing %s", tbl.Name, row, c.Name, pc.ViewType)
		}
		if n := strings.Count(row[1], "<br>") + 1; n != len(c.Entities()) {
			t.Errorf("table %s: consumer %s handles %d entities, the row shows %d", tbl.Name, c.Name, len(c.Entities()), n)
		}
		if (c.Lambda != nil) != strings.HasPrefix(row[3], "event source mapping from ") {
			t.Errorf("table %s: consumer %s's Lambda cell %q", tbl.Name, c.Name, row[3])
		}
		for j, f := range pc.Filters {
			prefix := fmt.Sprintf("  - Lambda filter %d (", j+1)
			found := slices.ContainsFunc(lines, func(l string) bool {
				head, span, ok := strings.Cut(l, "): ")
				// A pattern of hidden characters shows them as escapes.
				return ok && strings.HasPrefix(head, prefix) && (unescape(span) == f.Pattern || strings.IndexFunc(f.Pattern, hiddenRune) >= 0)
			})
			if !found {
				t.Errorf("table %s: consumer %s's filter %d %s is not in the document", tbl.Name, c.Name, j+1, f.Pattern)
			}
		}
		merged := slices.ContainsFunc(lines, func(l string) bool { return strings.Contains(l, "the filters are merged") })
		if pc.FiltersMerged && !merged {
			t.Errorf("table %s: consumer %s's filters are merged, the document does not say so", tbl.Name, c.Name)
		}
	}
}

// pp is the plan of the pattern named name.
func pp(p *plan.Plan, name string) *plan.Pattern {
	for _, x := range p.Patterns {
		if x.Pattern.Name == name {
			return x
		}
	}
	return nil
}

// The statements of the flowchart, as the design document writes them.
var (
	indexLine      = regexp.MustCompile(`^  subgraph (I\d+)\["([^"]*)"\]$`)
	collectionLine = regexp.MustCompile(`^    subgraph (I\d+P\d+)\["([^"]*)"\]$`)
	memberLine     = regexp.MustCompile(`^      (I\d+P\d+E\d+)\["([^"]*)"\]$`)
	// label is what a label may hold: letters, digits, the template
	// characters the labels keep, and entity codes.
	label = regexp.MustCompile(`^(?:[\p{L}\p{N} #{}:=_.,/+@]|#\d+;)*$`)
)

// checkDiagram checks table t's flowchart: every statement one the
// document writes, at its depth (an index's subgraph holding its
// collections' subgraphs, each holding its entities' nodes, the IDs
// saying so), every ID once, every label inert; a node per entity and
// index it is on, labelled with the entity's name and its sort key
// template, and entities in one collection only when their partition
// key templates are alike.
func checkDiagram(t *testing.T, tbl *model.Table, lines []string) {
	t.Helper()
	if len(lines) == 0 || lines[0] != "flowchart TB" {
		t.Errorf("table %s: the diagram is not a flowchart: %q", tbl.Name, lines)
		return
	}
	seen := map[string]bool{}
	var order []string // the IDs, as declared
	// depth is how many subgraphs an ID is in: I0 none, I0P1 one.
	depth := func(id string) int { return strings.Count(id, "P") + strings.Count(id, "E") }
	declare := func(id, text string) {
		if seen[id] {
			t.Errorf("table %s: %s declared twice", tbl.Name, id)
		}
		seen[id] = true
		order = append(order, id)
		if !label.MatchString(strings.ReplaceAll(text, "<br>", " ")) {
			t.Errorf("table %s: label %q of %s is not inert", tbl.Name, text, id)
		}
	}
	var stack []string // the open subgraphs
	got := map[string]string{}
	pkOf := map[string]string{} // a collection's partition key label
	for _, line := range lines[1:] {
		var m []string
		switch {
		case line == "    direction LR" && len(stack) == 1, line == "      direction TB" && len(stack) == 2:
		case strings.Contains(line, " ~~~ "):
			// The invisible links that order a level: every ID declared
			// at that level, in order.
			ids := strings.Split(strings.TrimSpace(line), " ~~~ ")
			var want []string
			for _, id := range order {
				if depth(id) == len(stack) && (len(stack) == 0 || strings.HasPrefix(id, stack[len(stack)-1])) {
					want = append(want, id)
				}
			}
			if line != strings.Repeat("  ", len(stack)+1)+strings.Join(ids, " ~~~ ") || !slices.Equal(ids, want) {
				t.Errorf("table %s: the links %q order %q, want %q", tbl.Name, line, ids, want)
			}
		case strings.TrimSpace(line) == "end" && len(stack) > 0 && line == strings.Repeat("  ", len(stack))+"end":
			stack = stack[:len(stack)-1]
		default:
			if m = indexLine.FindStringSubmatch(line); m != nil && len(stack) == 0 {
				stack = append(stack, m[1])
			} else if m = collectionLine.FindStringSubmatch(line); m != nil && len(stack) == 1 && strings.HasPrefix(m[1], stack[0]+"P") {
				stack = append(stack, m[1])
				pkOf[m[1]] = unescapeMermaid(m[2])
			} else if m = memberLine.FindStringSubmatch(line); m != nil && len(stack) == 2 && strings.HasPrefix(m[1], stack[1]+"E") {
				got[m[1]] = unescapeMermaid(m[2])
			} else {
				t.Errorf("table %s: unexpected diagram line %q (in %v)", tbl.Name, line, stack)
				continue
			}
			declare(m[1], m[2])
		}
	}
	if len(stack) != 0 {
		t.Errorf("table %s: subgraphs %v not closed", tbl.Name, stack)
	}
	// Every entity of every index once, in the collection of its
	// partition key template.
	members := 0
	for i, ix := range tbl.Indexes {
		for j, e := range tbl.Entities {
			k := e.Key(ix)
			if k == nil {
				continue
			}
			members++
			var id string
			for g := range got {
				if strings.HasPrefix(g, fmt.Sprintf("I%dP", i)) && strings.HasSuffix(g, fmt.Sprintf("E%d", j)) {
					id = g
				}
			}
			if id == "" {
				t.Errorf("table %s: no node of %s on %s", tbl.Name, e.Name, ix.Name)
				continue
			}
			pkLabel, skLabel := ix.PK.Name+" = "+k.PK.Source, ""
			if k.SK != nil {
				skLabel = ix.SK.Name + " = " + k.SK.Source
			}
			if k.Parts != nil {
				// Each attribute of a multi-attribute key, with its value.
				var pks, sks []string
				for a, ka := range ix.KeyAttrs() {
					v := k.Parts[a].String()
					if lit := k.Parts[a].Segments[0]; lit.Attr == nil {
						v = fmt.Sprintf("%q", lit.Literal)
					}
					if a < len(ix.PKs) {
						pks = append(pks, ka.Name+" = "+v)
					} else {
						sks = append(sks, ka.Name+" = "+v)
					}
				}
				pkLabel, skLabel = strings.Join(pks, ", "), strings.Join(sks, ", ")
			}
			want := e.Name
			if skLabel != "" {
				want += "<br>" + skLabel
			}
			if lbl := got[id]; lbl != want && !strings.HasPrefix(lbl, e.Name+"<br>"+pkLabel) && strings.IndexFunc(want, hiddenRune) < 0 {
				t.Errorf("table %s: node %s is %q, want %q", tbl.Name, id, lbl, want)
			}
			coll, _, _ := strings.Cut(id, "E")
			if pk := pkLabel; pkOf[coll] != pk && !strings.Contains(got[id], "<br>"+pk) && strings.IndexFunc(pk, hiddenRune) < 0 {
				t.Errorf("table %s: %s is in collection %q, its partition key is %q", tbl.Name, e.Name, pkOf[coll], pk)
			}
		}
	}
	if members != len(got) {
		t.Errorf("table %s: %d entity nodes, want %d", tbl.Name, len(got), members)
	}
}

// unescape undoes the Markdown escapes of a text or a code span, as a
// reader sees it: the code span's backticks dropped, \| and \x read as
// | and x.
func unescape(s string) string {
	if strings.HasPrefix(s, "`") {
		n := len(s) - len(strings.TrimLeft(s, "`"))
		end := strings.LastIndex(s, strings.Repeat("`", n))
		inner := s[n:end]
		if strings.HasPrefix(inner, " ") && strings.HasSuffix(inner, " ") && strings.TrimSpace(inner) != "" {
			inner = inner[1 : len(inner)-1]
		}
		return strings.ReplaceAll(inner, `\|`, "|") + s[end+n:]
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// hiddenRune reports whether r does not show as itself: a control or a
// format character.
func hiddenRune(r rune) bool { return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) }

// unescapeMermaid undoes a label's entity codes.
func unescapeMermaid(s string) string {
	return regexp.MustCompile(`#\d+;`).ReplaceAllStringFunc(s, func(code string) string {
		var r rune
		fmt.Sscanf(code, "#%d;", &r)
		return string(r)
	})
}

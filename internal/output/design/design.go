// Package design is the design output (DESIGN.md): per table its key
// schema, the key templates of every entity on every index, the access
// patterns as `dyngen plan` reports them (internal/report), a Mermaid
// flowchart of the item collections (collections.go) and its stream with
// its consumers, every text of the spec made inert for Markdown and
// Mermaid.
package design

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/output/format"
	"github.com/dyngen/dyngen/internal/plan"
	"github.com/dyngen/dyngen/internal/report"
	"github.com/dyngen/dyngen/templates"
)

// designView is the design document as templates/design.md.tmpl prints
// it: every text already made inert (md, mermaid), every table already
// cut into rows of cells.
type designView struct {
	Header      []string
	Title       string
	Doc         []string
	Tables      []designTable
	Assumptions []string
	// Streams is set when a table has a stream, whose section the
	// introduction names.
	Streams bool
}

// designTable is one table's part of the design document.
type designTable struct {
	Name string
	Doc  []string
	// Indexes are the rows of the key schema table, its head first.
	Indexes [][]string
	// Facts are the table's entity attribute, time to live and billing.
	Facts string
	// Entities are the rows of the entity/key table, its head first;
	// EntityDocs an item per entity with a doc.
	Entities   [][]string
	EntityDocs []string
	// Patterns are the rows of the access-pattern matrix, its head
	// first; PatternDocs an item per pattern with a doc or notes, each
	// note a line of its own.
	Patterns    [][]string
	PatternDocs [][]string
	// Diagram are the lines of the Mermaid flowchart of the item
	// collections.
	Diagram []string
	// Stream is the table's stream, nil when it has none.
	Stream *designStream
}

// designStream is the part of a table's stream: its view type, the rows
// of its consumers' table, its head first (none when no consumer reads
// it), and an item per consumer with a doc or Lambda filters, each
// filter a line of its own.
type designStream struct {
	Facts     string
	Consumers [][]string
	Notes     [][]string
}

// Render renders the design document: per table its key schema, the key
// templates of every entity on every index, the access patterns with
// their call, index, key condition and cost, and a Mermaid flowchart of
// the item collections.
func Render(p *plan.Plan, o *model.Output, src format.Source) ([]format.File, error) {
	m := p.Model
	v := designView{
		Header:  []string{"<!-- " + model.GeneratedText + " -->", "<!-- source: " + escapeMarkdown(src.Line, inComment) + " -->"},
		Title:   "Design of package " + md(m.Package),
		Doc:     paragraphs(m.Doc),
		Streams: len(p.Streams) > 0,
	}
	for _, d := range p.Tables {
		v.Tables = append(v.Tables, designTableOf(p, d))
	}
	for _, a := range p.Assumptions {
		v.Assumptions = append(v.Assumptions, md(a))
	}
	data, err := format.Execute(templates.Design, v)
	if err != nil {
		return nil, err
	}
	return []format.File{{Name: o.File, Data: data}}, nil
}

// keyLabel shows the partition key (pk) or the sort key of k: PK =
// USER#{id}; each attribute of a multi-attribute key, tournamentId =
// {tournamentId}, region = {region}, a literal quoted.
func keyLabel(k *model.EntityKey, pk bool) string {
	ix := k.Index
	if k.Parts == nil {
		if pk {
			return ix.PK.Name + " = " + k.PK.Source
		}
		return ix.SK.Name + " = " + k.SK.Source
	}
	n := len(ix.PartitionKeys())
	kas, parts := ix.PartitionKeys(), k.Parts[:n]
	if !pk {
		kas, parts = ix.SortKeys(), k.Parts[n:]
	}
	var out []string
	for i, ka := range kas {
		out = append(out, ka.Name+" = "+parts[i].PartText())
	}
	return strings.Join(out, ", ")
}

// designTableOf is table d's part of the design document.
func designTableOf(p *plan.Plan, d *plan.TableDef) designTable {
	t := d.Table
	dt := designTable{Name: md(t.Name), Doc: paragraphs(t.Doc)}

	// The key schema: the table's own key, then each index.
	dt.Indexes = [][]string{{"Index", "Kind", "Partition key", "Sort key", "Projection", "About"}}
	for _, ix := range t.Indexes {
		row := []string{md(ix.Name), ix.Kind.String(), "", "", "", md(ix.Doc)}
		for i, kas := range [][]*model.KeyAttr{ix.PartitionKeys(), ix.SortKeys()} {
			var cells []string
			for _, k := range kas {
				cells = append(cells, code(k.Name)+" ("+string(k.Type)+")")
			}
			// A multi-attribute key's attributes, in order.
			row[2+i] = strings.Join(cells, ", ")
		}
		if !ix.IsPrimary() {
			typ, nonKey := plan.Projection(ix)
			row[4] = code(typ)
			if len(nonKey) > 0 {
				row[4] += ": " + codes(nonKey)
			}
		}
		if ix.Inverted {
			row[5] = joinText("the table's key, inverted: holds every entity", row[5])
		}
		dt.Indexes = append(dt.Indexes, row)
	}
	if !slices.ContainsFunc(dt.Indexes[1:], func(row []string) bool { return row[5] != "" }) {
		// No index has a doc to give: no column for it.
		for i, row := range dt.Indexes {
			dt.Indexes[i] = row[:5]
		}
	}
	facts := []string{"Entity attribute " + code(t.EntityAttr) + "."}
	if d.TTL != "" {
		facts = append(facts, "Time to live: "+code(d.TTL)+".")
	}
	if d.Stream != "" {
		facts = append(facts, "Stream: "+code(d.Stream)+".")
	}
	facts = append(facts, "Billing: "+code(plan.Billing)+".")
	dt.Facts = strings.Join(facts, " ")

	// The entity/key table: an entity a row, a column per key attribute
	// of every index, each cell the entity's template.
	head := []string{"Entity", code(t.EntityAttr)}
	for _, ix := range t.Indexes {
		for _, k := range ix.KeyAttrs() {
			name := code(k.Name)
			if !ix.IsPrimary() {
				name = md(ix.Name) + ": " + name
			}
			head = append(head, name)
		}
	}
	dt.Entities = [][]string{head}
	for _, e := range t.Entities {
		row := []string{md(e.Name), code(e.TypeValue)}
		for _, ix := range t.Indexes {
			k := e.Key(ix)
			if k == nil {
				for range ix.KeyAttrs() {
					row = append(row, "")
				}
				continue
			}
			for _, tp := range k.AttrTemplates() {
				cell := code(tp.Source)
				if slices.ContainsFunc(tp.Attrs(), func(a *model.Attribute) bool { return a.Optional }) {
					// The item is in the index only when it has the
					// attribute (EntityKey.Sparse).
					cell += " (sparse)"
				}
				row = append(row, cell)
			}
		}
		dt.Entities = append(dt.Entities, row)
		if e.Doc != "" {
			dt.EntityDocs = append(dt.EntityDocs, "**"+md(e.Name)+"**: "+md(e.Doc))
		}
	}

	// The access-pattern matrix.
	dt.Patterns = [][]string{{"Pattern", "Call", "Index", "Key condition", "Order", "Limit", "Cost"}}
	for _, pp := range p.Patterns {
		if pp.Pattern.Table != t {
			continue
		}
		r := report.PatternOf(pp)
		key := code(r.Key)
		if len(r.Requests) > 1 {
			// A get by a unique value: the claim, then the item.
			var reqs []string
			for i, c := range r.Requests {
				reqs = append(reqs, fmt.Sprintf("%d. %s %s: %s", i+1, md(c.Call), md(c.Entity), code(c.Key)))
			}
			key = strings.Join(reqs, "<br>")
		}
		if len(r.Steps) > 0 {
			var steps []string
			for _, s := range r.Steps {
				step := fmt.Sprintf("%d. %s %s", s.Step, md(s.Action), md(s.Entity))
				if s.Table != r.Table {
					step += " on " + md(s.Table)
				}
				steps = append(steps, step+": "+code(s.Key))
			}
			key = strings.Join(steps, "<br>")
		}
		cost := r.Cost.Short()
		if r.Cost.Detail != "" {
			cost += " (" + md(r.Cost.Detail) + ")"
		}
		dt.Patterns = append(dt.Patterns, []string{md(r.Name), md(r.Call), md(r.Index), key, queryOrder(r.Request), queryLimit(r.Request), cost})
		if pp.Pattern.Doc == "" && len(r.Notes) == 0 {
			continue
		}
		item := []string{"**" + md(r.Name) + "**"}
		if pp.Pattern.Doc != "" {
			item[0] += ": " + md(pp.Pattern.Doc)
		}
		for _, n := range r.Notes {
			item = append(item, md(n))
		}
		dt.PatternDocs = append(dt.PatternDocs, item)
	}

	dt.Diagram = collectionDiagram(t)
	if s := p.Stream(t); s != nil {
		dt.Stream = designStreamOf(s)
	}
	return dt
}

// viewTexts say what the records of a stream of each view type carry.
var viewTexts = map[string]string{
	"KEYS_ONLY":          "the keys of the item alone",
	"NEW_IMAGE":          "the item as written",
	"OLD_IMAGE":          "the item as it was",
	"NEW_AND_OLD_IMAGES": "the item as written and as it was",
}

// designStreamOf is the part of stream s: its view type; per consumer
// what it handles (entity, operation, image), the view type that
// carries what it reads, its Lambda event source mapping; its doc and
// its Lambda filters.
func designStreamOf(s *plan.Stream) *designStream {
	t := s.Table
	ds := &designStream{Facts: "View type " + code(t.Stream) + ": each record carries " + viewTexts[t.Stream] + "."}
	if len(s.Consumers) == 0 {
		ds.Facts += " No consumer reads it."
		return ds
	}
	ds.Consumers = [][]string{{"Consumer", "Handles", "View type it needs", "Lambda"}}
	for _, pc := range s.Consumers {
		c := pc.Consumer
		var handles []string
		for _, e := range c.Entities() {
			var ops []string
			for _, o := range c.On {
				if o.Entity == e {
					ops = append(ops, fmt.Sprintf("%s (%s)", o.Op, o.Image))
				}
			}
			if slices.Contains(c.Release, e) {
				ops = append(ops, "expiry: releases its claims and counts (old)")
			}
			handles = append(handles, md(e.Name)+": "+strings.Join(ops, ", "))
		}
		lambda := ""
		if l := c.Lambda; l != nil {
			size := "Lambda's default size"
			if l.BatchSize > 0 {
				size = "up to " + strconv.FormatInt(l.BatchSize, 10) + " records"
			}
			lambda = "event source mapping from " + code(l.StartingPosition) + ", batches of " + size + ", partial batch responses; " + filterCount(pc)
		}
		ds.Consumers = append(ds.Consumers, []string{md(c.Name), strings.Join(handles, "<br>"), code(pc.ViewType), lambda})
		item := []string{"**" + md(c.Name) + "**"}
		if c.Doc != "" {
			item[0] += ": " + md(c.Doc)
		}
		for i, f := range pc.Filters {
			var names []string
			for _, e := range f.Entities {
				names = append(names, md(e.Name))
			}
			item = append(item, fmt.Sprintf("Lambda filter %d (%s): %s", i+1, strings.Join(names, ", "), code(f.Pattern)))
		}
		if pc.FiltersMerged {
			item = append(item, fmt.Sprintf("A filter per entity would be more than the %d an event source mapping takes: the filters are merged, and let through more records than the consumer handles, which its dispatch skips.", plan.MaxFilters))
		}
		if len(item) > 1 || c.Doc != "" {
			ds.Notes = append(ds.Notes, item)
		}
	}
	return ds
}

// filterCount says how many Lambda filters a consumer's event source
// mapping has.
func filterCount(pc *plan.Consumer) string {
	switch n := len(pc.Filters); n {
	case 0:
		return "no filter (any record may be one it handles)"
	case 1:
		return "1 filter"
	default:
		return strconv.Itoa(n) + " filters"
	}
}

// queryOrder is the order cell of a call: the order a Query reads the sort
// key in (ScanIndexForward), "" for another call.
func queryOrder(r report.Request) string {
	switch r.Order {
	case string(model.Asc):
		return "ascending"
	case string(model.Desc):
		return "descending"
	}
	return ""
}

// queryLimit is the limit cell of a call: the Limit a Query sends, fixed
// or per page unless the caller's page sets another; "" for another
// call.
func queryLimit(r report.Request) string {
	switch {
	case r.Limit > 0:
		return strconv.Itoa(r.Limit)
	case r.PageLimit > 0:
		return strconv.Itoa(r.PageLimit) + " a page"
	case r.Order != "":
		return "1 MB a page"
	}
	return ""
}

// collectionDiagram is the Mermaid flowchart of table t's item
// collections: a subgraph per index, holding a subgraph per item
// collection, titled with its partition key template, holding a node per
// entity, labelled with its name and sort key template. Invisible links
// (~~~) keep each level in spec order: the indexes one under the other,
// the collections of an index side by side, the entities of a collection
// one under the other. The IDs are the plan's.
func collectionDiagram(t *model.Table) []string {
	out := []string{"flowchart TB"}
	var indexes []string
	for _, ic := range ItemCollections(t) {
		ix := ic.Index
		var attrs []string
		for _, k := range ix.KeyAttrs() {
			attrs = append(attrs, k.Name)
		}
		title := fmt.Sprintf("%s %s: %s", ix.Kind, ix.Name, strings.Join(attrs, ", "))
		if ix.IsPrimary() {
			title = fmt.Sprintf("table %s: %s", t.Name, strings.Join(attrs, ", "))
		}
		out = append(out, fmt.Sprintf("  subgraph %s[%s]", ic.ID, mermaid(title)), "    direction LR")
		var collections []string
		for _, c := range ic.Collections {
			pk := c.Members[0].Key.PK
			out = append(out, fmt.Sprintf("    subgraph %s[%s]", c.ID, mermaid(keyLabel(c.Members[0].Key, true))), "      direction TB")
			var members []string
			for _, mb := range c.Members {
				k := mb.Key
				label := []string{mb.Entity.Name}
				if k.PK.Source != pk.Source {
					label = append(label, keyLabel(k, true))
				}
				if k.SK != nil {
					label = append(label, keyLabel(k, false))
				}
				out = append(out, fmt.Sprintf("      %s[%s]", mb.ID, mermaidLines(label)))
				members = append(members, mb.ID)
			}
			out = append(out, inOrder("      ", members)...)
			out = append(out, "    end")
			collections = append(collections, c.ID)
		}
		out = append(out, inOrder("    ", collections)...)
		out = append(out, "  end")
		indexes = append(indexes, ic.ID)
	}
	return append(out, inOrder("  ", indexes)...)
}

// inOrder is the invisible links that keep ids in their order: none for
// fewer than two.
func inOrder(indent string, ids []string) []string {
	if len(ids) < 2 {
		return nil
	}
	return []string{indent + strings.Join(ids, " ~~~ ")}
}

// paragraphs are the paragraphs of a doc (separated by an empty line),
// each made one inert line of Markdown text.
func paragraphs(doc string) []string {
	var out []string
	for _, p := range strings.Split(strings.ReplaceAll(doc, "\r\n", "\n"), "\n\n") {
		if s := md(p); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// joinText joins two texts of a cell by "; ", either may be empty.
func joinText(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + "; " + b
}

// codes is names as code spans separated by commas.
func codes(names []string) string {
	var out []string
	for _, n := range names {
		out = append(out, code(n))
	}
	return strings.Join(out, ", ")
}

// md is s as inert Markdown text (escapeMarkdown in text).
func md(s string) string { return escapeMarkdown(s, inText) }

// code is s as an inert Markdown code span (escapeMarkdown in a code
// span): "" when s is empty.
func code(s string) string { return escapeMarkdown(s, inCode) }

// markdownContext is where escapeMarkdown's text goes.
type markdownContext int

const (
	// inText is running text: a paragraph, a list item, a table cell.
	inText markdownContext = iota
	// inCode is a code span in a table cell.
	inCode
	// inComment is the inside of an HTML comment.
	inComment
)

// escapeMarkdown is the one function every text of the spec passes
// through on its way into the design document, which makes it inert
// there: it stays one line, and changes neither the document's blocks
// (headings, lists, tables, fenced code, HTML) nor the inline text
// around it.
//
//   - Line breaks (\n, \r, U+0085, U+2028, U+2029) become spaces in
//     text, their escape (\n) in a code span or a comment; tabs become
//     spaces. Control characters, and format characters such as the
//     ones that reorder text (U+202E) or the byte order mark, become
//     their escape (\u202e), and so do the bytes of invalid UTF-8
//     (\xff): they show, and act on nothing.
//   - In text, every character Markdown or GitHub reads as markup
//     (\ ` * _ [ ] < > | # ! ~ & $) is backslash-escaped, and so is what would
//     start a block at the start of a line (a list's - + or 1., a
//     heading's =); spaces at either end are dropped.
//   - In a code span, the span is delimited by more backticks than the
//     text holds in a row, and | is escaped (\|), which a table cell
//     reads as a | of its text; the span is "" for an empty text.
//   - In a comment, < > and & become entity references and no two
//     hyphens stay in a row: the comment can't end (-->, --!>) or be
//     misread (<!--).
func escapeMarkdown(s string, in markdownContext) string {
	lineBreak := `\n`
	if in == inText {
		lineBreak = " "
	}
	t := shown(s, lineBreak)
	switch in {
	case inCode:
		if t == "" {
			return ""
		}
		t = strings.ReplaceAll(t, "|", `\|`)
		run, longest := 0, 0
		for _, r := range t {
			if r == '`' {
				run++
				longest = max(longest, run)
			} else {
				run = 0
			}
		}
		fence := strings.Repeat("`", longest+1)
		if strings.HasPrefix(t, "`") || strings.HasSuffix(t, "`") || strings.HasPrefix(t, " ") && strings.HasSuffix(t, " ") {
			t = " " + t + " "
		}
		return fence + t + fence
	case inComment:
		t = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(t)
		for strings.Contains(t, "--") {
			t = strings.ReplaceAll(t, "--", "-&#45;")
		}
		return t
	}
	t = strings.TrimSpace(t)
	var out strings.Builder
	for i, r := range t {
		switch {
		case strings.ContainsRune("\\`*_[]<>|#!~&$", r):
			out.WriteByte('\\')
		case i == 0 && strings.ContainsRune("-+=", r):
			out.WriteByte('\\')
		case (r == '.' || r == ')') && i > 0 && i <= 9 && isDigits(t[:i]):
			// 1. or 1) would start an ordered list.
			out.WriteByte('\\')
		}
		out.WriteRune(r)
	}
	return out.String()
}

// mermaid is s as an inert Mermaid label: in double quotes, every
// character but letters, digits, spaces and # { } : = _ . , / + @
// written as Mermaid's entity code of its number (#59; for ;), so that
// nothing in it ends the label, the statement or the code block, or
// reads as a comment, a directive (%%{init}%%), markup or HTML. The #
// stays: Mermaid reads an entity code only up to a ;, and every ; is
// written #59;. Line breaks, control and format characters are first
// written as their escapes, as escapeMarkdown does.
func mermaid(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range shown(s, `\n`) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune(" #{}:=_.,/+@", r) {
			b.WriteRune(r)
		} else {
			fmt.Fprintf(&b, "#%d;", r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// mermaidLines is a label of several lines, each inert (mermaid),
// broken by <br>.
func mermaidLines(lines []string) string {
	var out []string
	for _, l := range lines {
		q := mermaid(l)
		out = append(out, q[1:len(q)-1])
	}
	return `"` + strings.Join(out, "<br>") + `"`
}

// shown is s with every character that does not show as itself written
// so that it shows: a line break (\n, \r\n, \r, U+0085, U+2028, U+2029)
// as lineBreak, a tab as a space, a control or format character as its
// escape (\x1b, \u202e), a byte of invalid UTF-8 as its escape (\xff).
func shown(s, lineBreak string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case model.IsLineBreak(r):
			if r == '\r' && strings.HasPrefix(s[i+1:], "\n") {
				size = 2
			}
			b.WriteString(lineBreak)
		case r == '\t':
			b.WriteByte(' ')
		case hidden(r):
			b.WriteString(runeEscape(r))
		default:
			b.WriteRune(r)
		}
		i += size
	}
	return b.String()
}

// hidden reports whether r is a character that does not show as itself:
// a control character, or a format character (which reorders text, joins
// or hides characters: U+202E, U+200D, U+FEFF).
func hidden(r rune) bool {
	return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Bidi_Control, r)
}

// runeEscape is r's Go escape: \x1b, \u202e.
func runeEscape(r rune) string {
	switch {
	case r < 0x80:
		return fmt.Sprintf(`\x%02x`, r)
	case r <= 0xffff:
		return fmt.Sprintf(`\u%04x`, r)
	}
	return fmt.Sprintf(`\U%08x`, r)
}

// isDigits reports whether s is one or more ASCII digits.
func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

package report

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/dyngen/dyngen/internal/plan"
)

// Width is the most columns a line of the text report takes.
const Width = 100

// textView is the report cut into the lines the template prints, each
// at most Width columns wide.
type textView struct {
	Title       []string
	Tables      []textTable
	Patterns    [][]string
	Writes      []string
	Assumptions []string
}

// textTable is a table's schema lines and its summary of patterns.
type textTable struct {
	Schema  []string
	Summary []string
}

func (r *Report) textView() textView {
	v := textView{Title: wrap(fmt.Sprintf("Plan of %s (package %s)", r.File, r.Package), "", "  ")}
	for _, t := range r.Tables {
		var tt textTable
		head := fmt.Sprintf("Table %s: %s; entity attribute %s", t.Name, keySchemaText(t.PartitionKey, t.SortKey), t.EntityAttribute)
		if t.TTL != "" {
			head += "; ttl " + t.TTL
		}
		if t.Stream != "" {
			head += "; stream " + t.Stream
		}
		tt.Schema = wrap(head, "", "    ")
		for _, ix := range t.Indexes {
			schema := keySchemaText(ix.PartitionKey, ix.SortKey)
			if ix.PartitionKeys != nil {
				schema = "partition " + keyListText(ix.PartitionKeys)
				if len(ix.SortKeys) > 0 {
					schema += ", sort " + keyListText(ix.SortKeys)
				}
			}
			s := fmt.Sprintf("%s %s: %s; projection %s", ix.Kind, ix.Name, schema, ix.Projection)
			if ix.Projection == "include" {
				s += " [" + strings.Join(ix.Include, ", ") + "]"
			}
			if ix.Inverted {
				s += " (inverted: holds every entity)"
			}
			tt.Schema = append(tt.Schema, wrap(s, "  ", "      ")...)
		}
		rows := [][]string{{"PATTERN", "CALL", "INDEX", "COST"}}
		for _, p := range r.Patterns {
			if p.Table == t.Name {
				rows = append(rows, []string{p.Name, p.Call, p.Index, p.Cost.Short()})
			}
		}
		if len(rows) > 1 {
			tt.Summary = columns("  ", rows)
		}
		v.Tables = append(v.Tables, tt)
	}
	var blocks [][]plan.Field
	labels := 0
	for _, p := range r.Patterns {
		fs := p.fields()
		for _, f := range fs {
			labels = max(labels, utf8.RuneCountInString(f.Label))
		}
		blocks = append(blocks, fs)
	}
	for i, p := range r.Patterns {
		head := fmt.Sprintf("%s: %s on %s", p.Name, p.Call, p.Table)
		if p.Index != "primary" {
			head += ", index " + p.Index
		}
		lines := wrap(head, "  ", "      ")
		for _, f := range blocks[i] {
			pad := strings.Repeat(" ", labels-utf8.RuneCountInString(f.Label)+2)
			lines = append(lines, wrap(f.Value, "    "+f.Label+pad, strings.Repeat(" ", 4+labels+2))...)
		}
		v.Patterns = append(v.Patterns, lines)
	}
	var rows [][]string
	for _, w := range r.Writes {
		rows = append(rows, []string{w.Entity, fmt.Sprintf("%g WCU = %s", w.Total, w.detail())})
	}
	for _, line := range columns("  ", rows) {
		// The detail may need more than a line: its continuation goes
		// under the detail's start.
		at := strings.Index(line, " WCU = ")
		start := strings.LastIndex(line[:at], " ") + 1
		v.Writes = append(v.Writes, wrap(line[start:], line[:start], strings.Repeat(" ", utf8.RuneCountInString(line[:start])+2))...)
	}
	for _, a := range r.Assumptions {
		v.Assumptions = append(v.Assumptions, wrap(a, "  ", "    ")...)
	}
	return v
}

func keySchemaText(pk Key, sk *Key) string {
	s := fmt.Sprintf("%s (%s)", pk.Name, pk.Type)
	if sk != nil {
		s += fmt.Sprintf(", %s (%s)", sk.Name, sk.Type)
	}
	return s
}

// keyListText shows the attributes of a multi-attribute key:
// [tenantId (S), region (S)].
func keyListText(ks []Key) string {
	parts := make([]string, len(ks))
	for i, k := range ks {
		parts[i] = fmt.Sprintf("%s (%s)", k.Name, k.Type)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// field is a labelled line of a pattern's details.
func field(label, value string) plan.Field { return plan.Field{Label: label, Value: value} }

// fields are the labelled lines of a pattern's details.
func (p Pattern) fields() []plan.Field {
	var out []plan.Field
	if p.Key != "" {
		label := "key"
		switch p.Call {
		case string(plan.Query):
			label = "key condition"
		case string(plan.BatchGetItem), string(plan.BatchWriteItem):
			label = "key of each"
		}
		if p.Many != nil {
			label = "key of each"
		}
		if len(p.Requests) > 1 {
			// The first request reads the item Key is of, the next ones
			// follow (a get by a unique value: the claim, then the item).
			out = append(out, field(label, fmt.Sprintf("%s (%s)", p.Key, p.Requests[0].Entity)))
			for _, r := range p.Requests[1:] {
				out = append(out, field("then", fmt.Sprintf("%s of %s: %s", r.Call, r.Entity, r.Key)))
			}
		} else {
			out = append(out, field(label, p.Key))
		}
	}
	if o := p.othersText(); o != "" {
		out = append(out, field("other entities", o))
	}
	out = append(out, field("cost", fmt.Sprintf("%s (%s)", p.Cost.Short(), p.Cost.Detail)))
	for _, n := range p.Notes {
		out = append(out, field("note", n))
	}
	out = append(out, p.Request.fields...)
	for _, rw := range p.Rewrites {
		if rw.Remove {
			out = append(out, field("removes", fmt.Sprintf("%s on %s (the item leaves the index)", rw.Attribute, rw.Index)))
		} else {
			out = append(out, field("rewrites", fmt.Sprintf("%s=%q on %s", rw.Attribute, rw.Template, rw.Index)))
		}
	}
	for _, s := range p.Steps {
		out = append(out, field(fmt.Sprintf("step %d", s.Step), fmt.Sprintf("%s on %s: %s %s", s.Action, s.Table, s.Operation, s.Entity)))
		out = append(out, field("  key", s.Key))
		for _, f := range s.Request.fields {
			out = append(out, field("  "+f.Label, f.Value))
		}
		if len(s.Inputs) > 0 {
			out = append(out, field("  inputs", strings.Join(s.Inputs, ", ")))
		}
		versioned := slices.ContainsFunc(s.Values, func(v Value) bool { return v.Source == "versionExpected" })
		switch {
		case s.IfPresent == "":
		case versioned:
			out = append(out, field("  fails with", fmt.Sprintf("%s when the item does not exist, ErrVersionConflict when its version is not the one read, %s when it is", s.IfAbsent, s.IfPresent)))
		case s.IfAbsent == "":
			out = append(out, field("  fails with", s.IfPresent+" when an item has the key"))
		case s.IfAbsent == s.IfPresent:
			out = append(out, field("  fails with", s.IfPresent+" when its condition does not hold"))
		default:
			out = append(out, field("  fails with", fmt.Sprintf("%s when the item does not exist, %s when it does", s.IfAbsent, s.IfPresent)))
		}
	}
	return out
}

// othersText says how items of other entities are kept out of the
// result: "" when no other entity shares the items read.
func (p Pattern) othersText() string {
	var parts []string
	if len(p.Members) > 1 && len(p.Steps) == 0 {
		for _, m := range p.Members {
			if m.By == "sortKeyPrefix" {
				parts = append(parts, fmt.Sprintf("%s by %s prefix %s", m.Entity, m.Attribute, strconv.Quote(m.Prefix)))
			} else {
				parts = append(parts, fmt.Sprintf("%s by %s", m.Entity, m.Attribute))
			}
		}
	}
	if rule := (plan.KeptOut{ByPrefix: p.KeptOutByPrefix}).PrefixRule(); rule != "" {
		parts = append(parts, rule+", kept out by the key condition")
	}
	for _, e := range p.KeptOut {
		parts = append(parts, e+" kept out by the key condition")
	}
	for _, d := range p.Dropped {
		if d.By == "sortKeyPrefix" {
			parts = append(parts, d.Entity+" read, dropped by sort key prefix")
		} else {
			parts = append(parts, fmt.Sprintf("%s read, dropped by %s", d.Entity, d.Attribute))
		}
	}
	return strings.Join(parts, "; ")
}

// Short is the cost as the summary of the text report gives it: "1 RCU",
// "1 RCU + 8 WCU".
func (c Cost) Short() string {
	switch {
	case c.RCU > 0 && c.WCU > 0:
		return fmt.Sprintf("%g RCU + %g WCU", c.RCU, c.WCU)
	case c.RCU > 0:
		return fmt.Sprintf("%g RCU", c.RCU)
	case c.WCU > 0:
		return fmt.Sprintf("%g WCU", c.WCU)
	}
	return "-"
}

// detail is how the write's total adds up: "table 1 + GSI1 1".
func (w Write) detail() string {
	parts := []string{fmt.Sprintf("table %g", w.Table)}
	for _, iw := range w.Indexes {
		parts = append(parts, fmt.Sprintf("%s %g", iw.Index, iw.WCU))
	}
	return strings.Join(parts, " + ")
}

// columns lays rows out as aligned columns, two spaces apart, each line
// starting with indent.
func columns(indent string, rows [][]string) []string {
	var widths []int
	for _, row := range rows {
		for i, cell := range row {
			if i == len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], utf8.RuneCountInString(cell))
		}
	}
	var out []string
	for _, row := range rows {
		var b strings.Builder
		b.WriteString(indent)
		for i, cell := range row {
			b.WriteString(cell)
			if i < len(row)-1 {
				b.WriteString(strings.Repeat(" ", widths[i]-utf8.RuneCountInString(cell)+2))
			}
		}
		out = append(out, b.String())
	}
	return out
}

// wrap breaks text at spaces into lines of at most Width columns: the
// first starts with first, the others with hang. A word wider than the
// room left stands alone on its line. Each line is built in one buffer:
// the report of a large spec has tens of thousands of them.
func wrap(text, first, hang string) []string {
	var out []string
	var b strings.Builder
	b.Grow(min(len(first)+len(text), 2*Width))
	b.WriteString(first)
	room := Width - utf8.RuneCountInString(first)
	empty := true
	for {
		word, rest, more := strings.Cut(text, " ")
		n := utf8.RuneCountInString(word)
		if !empty && n+1 > room {
			out = append(out, b.String())
			b = strings.Builder{}
			b.Grow(min(len(hang)+len(text), 2*Width))
			b.WriteString(hang)
			room, empty = Width-utf8.RuneCountInString(hang), true
		}
		if !empty {
			b.WriteByte(' ')
			room--
		}
		b.WriteString(word)
		room -= n
		empty = false
		if !more {
			break
		}
		text = rest
	}
	return append(out, b.String())
}

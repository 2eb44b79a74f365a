package plan

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/templates"
)

// Report writes the plan as the readable tables `dyngen plan` prints:
// the tables and indexes, one row per pattern, the cost of each call, the
// write amplification of each entity and the assumptions of the
// estimates. The layout is templates/plan.txt.tmpl.
func (p *Plan) Report(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	if err := templates.Plan.Execute(tw, p.reportData()); err != nil {
		return err
	}
	return tw.Flush()
}

type reportRow struct {
	Name, Call, Index, Key, Others, Cost, Detail string
	Notes                                        []string
}

type reportIndex struct {
	Kind, Name, Schema, Projection string
	Inverted                       bool
}

type reportTable struct {
	Name, Schema, EntityAttr, TTL string
	Indexes                       []reportIndex
	Rows                          []reportRow
}

type reportWrite struct {
	Entity, Detail string
	Total          float64
}

type reportData struct {
	File, Package string
	Tables        []reportTable
	Rows          []reportRow
	Writes        []reportWrite
	Assumptions   []string
}

// reportData flattens the plan into what the template shows, in spec
// order.
func (p *Plan) reportData() reportData {
	m := p.Model
	d := reportData{File: m.File, Package: m.Package, Assumptions: p.Assumptions}
	for _, pp := range p.Patterns {
		d.Rows = append(d.Rows, reportRow{
			Name: pp.Pattern.Name, Call: string(pp.Call), Index: pp.Index.Name,
			Key: pp.keyText(), Others: pp.othersText(), Cost: pp.Cost.short(),
			Detail: pp.Cost.Detail, Notes: pp.notes(),
		})
	}
	for _, t := range m.Tables {
		rt := reportTable{Name: t.Name, Schema: keySchema(t.Primary()), EntityAttr: t.EntityAttr, TTL: t.TTL}
		for _, ix := range t.Indexes[1:] {
			rt.Indexes = append(rt.Indexes, reportIndex{Kind: ix.Kind.String(), Name: ix.Name, Schema: keySchema(ix), Projection: projectionName(ix), Inverted: ix.Inverted})
		}
		for i, pp := range p.Patterns {
			if pp.Pattern.Table == t {
				rt.Rows = append(rt.Rows, d.Rows[i])
			}
		}
		d.Tables = append(d.Tables, rt)
	}
	for _, wa := range p.Writes {
		d.Writes = append(d.Writes, reportWrite{Entity: wa.Entity.Name, Detail: ampDetail(wa), Total: wa.Total})
	}
	return d
}

func keySchema(ix *model.Index) string {
	s := fmt.Sprintf("%s (%s)", ix.PK.Name, ix.PK.Type)
	if ix.SK != nil {
		s += fmt.Sprintf(", %s (%s)", ix.SK.Name, ix.SK.Type)
	}
	return s
}

// keyText is the key condition column: the condition, or the key of a
// write.
func (pp *Pattern) keyText() string {
	if pp.Key == nil {
		return "-"
	}
	s := pp.Key.Describe()
	if pp.Call == BatchGetItem || pp.Call == BatchWriteItem {
		s = "each " + s
	}
	return s
}

// othersText is the column on items of other entities.
func (pp *Pattern) othersText() string {
	var parts []string
	if len(pp.Members) > 1 {
		for _, m := range pp.Members {
			if m.How == BySortKeyPrefix {
				parts = append(parts, fmt.Sprintf("%s by %s prefix %s", m.Entity.Name, pp.Index.SK.Name, strconv.Quote(m.Prefix)))
			} else {
				parts = append(parts, fmt.Sprintf("%s by %s", m.Entity.Name, pp.Index.Table.EntityAttr))
			}
		}
	}
	for _, e := range pp.KeptOut {
		parts = append(parts, e.Name+" kept out by the key condition")
	}
	for _, f := range pp.Foreign {
		if f.How == BySortKeyPrefix {
			parts = append(parts, f.Entity.Name+" read, dropped by sort key prefix")
		} else {
			parts = append(parts, fmt.Sprintf("%s read, dropped by %s", f.Entity.Name, pp.Index.Table.EntityAttr))
		}
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, "; ")
}

func (c Cost) short() string {
	switch {
	case c.RCU > 0:
		return fmt.Sprintf("%g RCU", c.RCU)
	case c.WCU > 0:
		return fmt.Sprintf("%g WCU", c.WCU)
	}
	return "-"
}

// notes are the details of a pattern's plan beyond the table row.
func (pp *Pattern) notes() []string {
	var out []string
	if pp.Key != nil && pp.Key.SK.Narrowed {
		out = append(out, "the sort key is bounded to the range of its leading placeholder to keep other entities out")
	}
	if pp.Key != nil && pp.Key.SK.DropEqual {
		out = append(out, "DynamoDB's BETWEEN includes the bound: the item equal to it is dropped after the read")
	}
	if len(pp.FromKeys) > 0 {
		var names []string
		for _, a := range pp.FromKeys {
			names = append(names, a.Name)
		}
		out = append(out, fmt.Sprintf("%s not projected by %s: decoded from the key attributes", strings.Join(names, ", "), pp.Index.Name))
	}
	out = append(out, pp.Request.Describe()...)
	for _, r := range pp.Rebuild {
		if r.Remove {
			out = append(out, fmt.Sprintf("removes %s on %s (the item leaves the index)", r.KeyAttr.Name, r.Index.Name))
		} else {
			out = append(out, fmt.Sprintf("rewrites %s=%q on %s", r.KeyAttr.Name, r.Template.Source, r.Index.Name))
		}
	}
	return out
}

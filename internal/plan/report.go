package plan

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/dyngen/dyngen/internal/model"
)

// Report writes the plan as the readable tables `dyngen plan` prints:
// the tables and indexes, one row per pattern, the write amplification of
// each entity and the assumptions of the estimates.
func (p *Plan) Report(w io.Writer) error {
	m := p.Model
	var b strings.Builder
	fmt.Fprintf(&b, "Plan of %s (package %s)\n", m.File, m.Package)
	for _, t := range m.Tables {
		fmt.Fprintf(&b, "\nTable %s: %s; entity attribute %s", t.Name, keySchema(t.Primary()), t.EntityAttr)
		if t.TTL != "" {
			fmt.Fprintf(&b, "; ttl %s", t.TTL)
		}
		b.WriteString("\n")
		for _, ix := range t.Indexes[1:] {
			fmt.Fprintf(&b, "  %s %s: %s; projection %s", ix.Kind, ix.Name, keySchema(ix), projectionName(ix))
			if ix.Inverted {
				b.WriteString(" (inverted: holds every entity)")
			}
			b.WriteString("\n")
		}
		b.WriteString("\n")
		tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "  PATTERN\tCALL\tINDEX\tKEY CONDITION\tOTHER ENTITIES\tCOST")
		for _, pp := range p.Patterns {
			if pp.Pattern.Table != t {
				continue
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t%s\n", pp.Pattern.Name, pp.Call, pp.Index.Name, pp.keyText(), pp.othersText(), pp.Cost.short())
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	if len(p.Patterns) > 0 {
		b.WriteString("\nCost of one call:\n")
		for _, pp := range p.Patterns {
			fmt.Fprintf(&b, "  %s: %s (%s)\n", pp.Pattern.Name, pp.Cost.short(), pp.Cost.Detail)
			for _, line := range pp.notes() {
				fmt.Fprintf(&b, "    %s\n", line)
			}
		}
	}
	if len(p.Writes) > 0 {
		b.WriteString("\nWrite amplification (WCU of writing one whole item):\n")
		tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		for _, wa := range p.Writes {
			fmt.Fprintf(tw, "  %s\t%s\t= %g WCU\n", wa.Entity.Name, ampDetail(wa), wa.Total)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	b.WriteString("\nAssumptions: " + strings.Join(p.Assumptions, "; ") + ".\n")
	_, err := io.WriteString(w, b.String())
	return err
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
	if pp.Filter != "" {
		out = append(out, "FilterExpression: "+pp.Filter)
	}
	if pp.Condition != "" {
		out = append(out, "ConditionExpression: "+pp.Condition)
	}
	for _, r := range pp.Rebuild {
		if r.Remove {
			out = append(out, fmt.Sprintf("removes %s on %s (the item leaves the index)", r.KeyAttr.Name, r.Index.Name))
		} else {
			out = append(out, fmt.Sprintf("rewrites %s=%q on %s", r.KeyAttr.Name, r.Template.Source, r.Index.Name))
		}
	}
	return out
}

package plan

import (
	"slices"

	"github.com/dyngen/dyngen/internal/model"
)

// TableDef is the definition of one table, decided once: what CreateTable
// and UpdateTimeToLive need to make it. The generated Store's Tables
// prints it; whatever else provisions the tables (a CloudFormation or
// Terraform template) is to print the same. Every table is billed on
// demand (PAY_PER_REQUEST).
type TableDef struct {
	Table *model.Table
	// Attributes are the AttributeDefinitions: the key attributes of the
	// table and of its indexes, each once (by name), in the order the key
	// schemas name them.
	Attributes []*model.KeyAttr
	// Key is the table's own key schema.
	Key *model.Index
	// Global and Local are the secondary indexes, each in spec order.
	Global, Local []*model.Index
	// TTL is the stored name of the attribute time to live reads, or ""
	// when the table has none.
	TTL string
}

// tableDefs defines every table of m, in spec order.
func tableDefs(m *model.Model) []*TableDef {
	var out []*TableDef
	for _, t := range m.Tables {
		if len(t.Indexes) == 0 {
			continue // a table the model refused
		}
		d := &TableDef{Table: t, Key: t.Primary(), TTL: t.TTL}
		for _, ix := range t.Indexes {
			for _, k := range ix.KeyAttrs() {
				if !slices.ContainsFunc(d.Attributes, func(a *model.KeyAttr) bool { return a.Name == k.Name }) {
					d.Attributes = append(d.Attributes, k)
				}
			}
			switch ix.Kind {
			case model.Global:
				d.Global = append(d.Global, ix)
			case model.Local:
				d.Local = append(d.Local, ix)
			}
		}
		out = append(out, d)
	}
	return out
}

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
	// Stream is the view type of the table's stream, or "" when it has
	// none.
	Stream string
}

// tableDefs defines every table of m, in spec order.
func tableDefs(m *model.Model) []*TableDef {
	var out []*TableDef
	for _, t := range m.Tables {
		if len(t.Indexes) == 0 {
			continue // a table the model refused
		}
		d := &TableDef{Table: t, Key: t.Primary(), TTL: t.TTL, Stream: t.Stream}
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

// Billing is the billing mode every table is made with: on demand.
const Billing = "PAY_PER_REQUEST"

// KeyElement is one element of a key schema: an attribute and its role,
// HASH (the partition key) or RANGE (the sort key).
type KeyElement struct {
	Name string
	Type string // HASH or RANGE
}

// KeySchema is the key schema of ix: its partition key, then its sort
// key when it has one; a multi-attribute key's attributes each in order
// (DynamoDB compares the sort key's left to right).
func KeySchema(ix *model.Index) []KeyElement {
	var out []KeyElement
	for _, ka := range ix.PartitionKeys() {
		out = append(out, KeyElement{ka.Name, "HASH"})
	}
	for _, ka := range ix.SortKeys() {
		out = append(out, KeyElement{ka.Name, "RANGE"})
	}
	return out
}

// Projection is the projection of a secondary index as CreateTable takes
// it: ALL, KEYS_ONLY, or INCLUDE with the non-key attributes it adds.
func Projection(ix *model.Index) (typ string, nonKey []string) {
	switch ix.Projection {
	case model.ProjectKeys:
		return "KEYS_ONLY", nil
	case model.ProjectInclude:
		return "INCLUDE", ix.Include
	}
	return "ALL", nil
}

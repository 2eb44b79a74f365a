package model

import (
	"slices"
	"testing"

	"github.com/dyngen/dyngen/internal/diag"
	"github.com/dyngen/dyngen/spec"
)

// names lists the names of a model's tables, entities or patterns.
func names[T any](xs []T, name func(T) string) []string {
	var out []string
	for _, x := range xs {
		out = append(out, name(x))
	}
	return out
}

// TestPrune resolves a spec with an error in a table, an entity and a
// pattern, and checks that Prune leaves exactly the sound rest: the
// broken parts go, and so do what depends on them.
func TestPrune(t *testing.T) {
	const src = `version: 1
package: shop
tables:
  Shop: {partitionKey: PK, sortKey: SK}
  Audit:
    partitionKey: PK
    sortKey: SK
    indexes:
      GSI1: {partitionKey: PK}
entities:
  Customer:
    table: Shop
    attributes: {customerId: string, email: string}
    keys: {primary: {pk: "CUSTOMER#{customerId}", sk: "PROFILE"}}
  Order:
    table: Shop
    attributes: {orderId: string, status: strin}
    keys: {primary: {pk: "ORDER#{orderId}", sk: "ORDER"}}
  Entry:
    table: Audit
    attributes: {entryId: string}
    keys: {primary: {pk: "ENTRY#{entryId}", sk: "ENTRY"}}
patterns:
  GetCustomer: {get: Customer}
  CustomerByMail: {get: Customer, by: [emial]}
  GetOrder: {get: Order}
  GetEntry: {get: Entry}
`
	f, diags := spec.Parse("spec.yaml", []byte(src))
	if diags.HasErrors() {
		t.Fatal(diags.Err())
	}
	m := Resolve(f, diags)
	var msgs []string
	for _, d := range diags.Errors() {
		msgs = append(msgs, d.String())
	}
	if len(msgs) != 3 {
		t.Fatalf("want 3 errors (the index, the type, the pattern's attribute), got %d:\n%v", len(msgs), msgs)
	}
	if !m.Prune() {
		t.Fatal("Prune refused a model whose errors are all in a part")
	}
	tables := names(m.Tables, func(t *Table) string { return t.Name })
	entities := names(m.Entities, func(e *Entity) string { return e.Name })
	patterns := names(m.Patterns, func(p *Pattern) string { return p.Name })
	if !slices.Equal(tables, []string{"Shop"}) || !slices.Equal(entities, []string{"Customer"}) || !slices.Equal(patterns, []string{"GetCustomer"}) {
		t.Errorf("after Prune: tables %v, entities %v, patterns %v; want [Shop], [Customer], [GetCustomer]", tables, entities, patterns)
	}
	if got := names(m.Tables[0].Entities, func(e *Entity) string { return e.Name }); !slices.Equal(got, []string{"Customer"}) {
		t.Errorf("table Shop holds %v after Prune, want [Customer]", got)
	}
}

// TestPruneRefusesLooseErrors checks that an error tied to no part makes
// Prune refuse, and leave the model as it is.
func TestPruneRefusesLooseErrors(t *testing.T) {
	f, diags := spec.Parse("spec.yaml", []byte("version: 1\npackage: p\ntables:\n  Shop: {partitionKey: PK}\nentities:\n  A:\n    attributes: {id: string}\n    keys: {primary: {pk: \"{id}\"}}\n"))
	if diags.HasErrors() {
		t.Fatal(diags.Err())
	}
	r := &resolver{f: f, diags: &diag.List{}, m: &Model{broken: map[any]bool{}}, listed: map[*Index][]spec.Str{}}
	r.tables()
	r.entities()
	r.errorf(r.m.Pos, "an error outside any part")
	if r.m.Prune() {
		t.Fatal("Prune accepted a model with an error tied to no part")
	}
	if len(r.m.Tables) != 1 || len(r.m.Entities) != 1 {
		t.Errorf("Prune changed the model it refused: %d tables, %d entities", len(r.m.Tables), len(r.m.Entities))
	}
}

package plan_test

import (
	"slices"
	"testing"

	"github.com/dyngen/dyngen/internal/model"
)

// TestTableDefs checks the one definition of each table: every key
// attribute defined once, in the order the key schemas name them (SK, a
// key attribute of the table and of the inverted index, once), the
// indexes by kind in spec order, and the ttl attribute.
func TestTableDefs(t *testing.T) {
	res := check(t, "  GetCustomer: {get: Customer}\n")
	defs := res.Plan.Tables
	if len(defs) != 1 || defs[0].Table.Name != "Shop" {
		t.Fatalf("%d definitions, want Shop's", len(defs))
	}
	d := defs[0]
	var attrs []string
	for _, a := range d.Attributes {
		attrs = append(attrs, a.Name+":"+string(a.Type))
	}
	if want := []string{"PK:S", "SK:S", "GSI1PK:S", "GSI1SK:S", "GSI2PK:S", "GSI2SK:S", "GSI3PK:S", "GSI3SK:S", "LSI1SK:S"}; !slices.Equal(attrs, want) {
		t.Errorf("attributes %v, want %v", attrs, want)
	}
	names := func(ixs []*model.Index) []string {
		var out []string
		for _, ix := range ixs {
			out = append(out, ix.Name)
		}
		return out
	}
	if got := names(d.Global); !slices.Equal(got, []string{"GSI1", "ByKeys", "ByTotal", "Inverted"}) {
		t.Errorf("global indexes %v", got)
	}
	if got := names(d.Local); !slices.Equal(got, []string{"LSI1"}) {
		t.Errorf("local indexes %v", got)
	}
	if !d.Key.IsPrimary() || d.TTL != "" {
		t.Errorf("key %s, ttl %q; want the table's own key and no ttl", d.Key.Name, d.TTL)
	}
}

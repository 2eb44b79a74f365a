package design_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dyngen/dyngen/generator"
	"github.com/dyngen/dyngen/internal/corpus"
	"github.com/dyngen/dyngen/internal/output/design"
)

// collections lists the item collections of the first table of the spec
// in data, an index a line: "I0: I0P0[I0P0E0 I0P0E1] I0P1[...]".
func collections(t *testing.T, data string) []string {
	t.Helper()
	res := generator.Check("spec.yaml", []byte(data))
	if err := res.Diags.Err(); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, ic := range design.ItemCollections(res.Plan.Model.Tables[0]) {
		line := ic.ID + ":"
		for _, c := range ic.Collections {
			var ids []string
			for _, m := range c.Members {
				if e := m.Entity; e.Key(ic.Index) != m.Key {
					t.Errorf("%s: the key of %s is not its key on %s", m.ID, e.Name, ic.Index.Name)
				}
				ids = append(ids, m.ID+"="+m.Entity.Name)
			}
			line += fmt.Sprintf(" %s[%s]", c.ID, strings.Join(ids, " "))
		}
		out = append(out, line)
	}
	return out
}

// TestItemCollections checks how the entities of each index are grouped
// into item collections: by the form of their partition key templates,
// in the table's entity order, with IDs made of positions.
func TestItemCollections(t *testing.T) {
	got := collections(t, corpus.Shop+"  GetCustomer: {get: Customer}\n")
	want := []string{
		// A customer, its orders and their lines share CUSTOMER#{customerId}.
		"I0: I0P0[I0P0E0=Customer I0P0E1=Order I0P0E2=Line]",
		"I1: I1P0[I1P0E0=Customer] I1P1[I1P1E1=Order]",
		"I2: I2P0[I2P0E1=Order]",
		"I3: I3P0[I3P0E1=Order]",
		// Only orders name a key on the local index.
		"I4: I4P0[I4P0E1=Order]",
		// The inverted index: each sort key template is a partition of its own.
		"I5: I5P0[I5P0E0=Customer] I5P1[I5P1E1=Order] I5P2[I5P2E2=Line]",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("collections:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// Placeholders of different names but one kind give one partition
	// for equal values; of another kind (an int), or another literal
	// text, they do not.
	got = collections(t, `
version: 1
package: p
tables:
  Things: {partitionKey: PK, sortKey: SK}
entities:
  User:
    attributes: {id: string}
    keys: {primary: {pk: "USER#{id}", sk: "USER"}}
  Post:
    attributes: {author: string, postId: string}
    keys: {primary: {pk: "USER#{author}", sk: "POST#{postId}"}}
  Counter:
    attributes: {n: int}
    keys: {primary: {pk: "USER#{n}", sk: "COUNTER"}}
  Group:
    attributes: {id: string}
    keys: {primary: {pk: "GROUP#{id}", sk: "GROUP"}}
patterns:
  GetUser: {get: User}
`)
	if want := "I0: I0P0[I0P0E0=User I0P0E1=Post] I0P1[I0P1E2=Counter] I0P2[I0P2E3=Group]"; len(got) != 1 || got[0] != want {
		t.Errorf("collections %q, want %q", got, want)
	}
}

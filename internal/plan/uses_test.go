package plan_test

import (
	"testing"

	"github.com/dyngen/dyngen/generator"
	"github.com/dyngen/dyngen/internal/plan"
)

// usesSpec is a table with a time to live: Note stores it, Tag does not,
// and Log stamps its items' created time.
const usesSpec = `
version: 1
package: uses
tables:
  Main:
    partitionKey: PK
    sortKey: SK
    ttl: expiresAt
entities:
  Note:
    attributes: {id: string, at: time, expiresAt: {type: time, format: unix}}
    keys:
      primary: {pk: "NOTE#{id}", sk: "AT#{at}"}
  Tag:
    attributes: {id: string, name: string}
    keys:
      primary: {pk: "TAG#{id}", sk: "NAME#{name}"}
  Log:
    timestamps: {created: at}
    attributes: {id: string, at: time}
    keys:
      primary: {pk: "LOG#{id}", sk: "LOG"}
patterns:
`

// TestUses checks what a package's Store holds beyond its tables, as
// each kind of pattern asks for it.
func TestUses(t *testing.T) {
	for _, c := range []struct {
		name, patterns string
		want           plan.Uses
	}{
		{"get", "  GetTag: {get: Tag}\n", plan.Uses{}},
		{"query", "  Tags: {query: Tag, by: [id]}\n", plan.Uses{Query: true, Cursors: true}},
		{"first", "  FirstTag: {query: Tag, by: [id], first: true}\n", plan.Uses{Query: true}},
		{"batch", "  Tags: {batchGet: Tag}\n", plan.Uses{Batch: true, Concurrent: true}},
		{"many all", "  DeleteTags: {delete: Tag, many: all}\n", plan.Uses{Transaction: true, Many: true}},
		{"many each", "  DeleteTags: {delete: Tag, many: each}\n", plan.Uses{Concurrent: true, Many: true, ManyEach: true}},
		{"many each expiring", "  TouchNotes: {update: Note, set: [expiresAt], many: each}\n", plan.Uses{Concurrent: true, Many: true, ManyEach: true, Expiry: true, Clock: true}},
		{"transaction", "  Both: {transaction: [{put: Tag}, {delete: Note}]}\n", plan.Uses{Transaction: true}},
		{"expiry", "  GetNote: {get: Note}\n", plan.Uses{Expiry: true, Clock: true}},
		{"expiry in a step", "  Both: {transaction: [{put: Tag}, {update: Note, set: [expiresAt]}]}\n", plan.Uses{Transaction: true, Expiry: true, Clock: true}},
		{"stamps", "  PutLog: {put: Log}\n", plan.Uses{Clock: true}},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := generator.Check("spec.yaml", []byte(usesSpec+c.patterns))
			if res.Diags.HasErrors() {
				t.Fatal(res.Diags.Err())
			}
			if got := res.Plan.Uses(); got != c.want {
				t.Errorf("Uses() = %+v, want %+v", got, c.want)
			}
		})
	}
}

package report

import (
	"fmt"
	"strings"

	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/plan"
)

// copyNotes say in words how a write of an entity with copies keeps
// them, after its read r.
func copyNotes(pp *plan.Pattern, r *plan.Pattern) []string {
	var names, keys []string
	for _, c := range pp.Pattern.ReadCopies {
		names = append(names, c.Name)
		for _, a := range c.KeyAttrs() {
			keys = append(keys, a.Name)
		}
	}
	out := []string{fmt.Sprintf("2 requests: GetItem of the item first (consistent, key %s) to read the keys of its copies %s, then the TransactWriteItems; the write holds only while %s still holds the values read", r.Key.Describe(), strings.Join(names, ", "), strings.Join(keys, ", "))}
	if pp.Pattern.Op == model.OpPut {
		out = append(out,
			"over the item read: step 1, and per copy either the put of the copy over itself (its key unchanged) or the delete of the copy read and the create of the new one (its key changed); a transaction never addresses one item twice",
			"when the read finds no item, the put is sent as step 2, a create, with the create of every copy, instead of step 1")
	}
	return out
}

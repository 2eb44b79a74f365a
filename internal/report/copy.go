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
	if u := pp.Unique; pp.Pattern.Op == model.OpUpdate && u.Present != nil && len(u.Present.Copies) > 0 {
		return []string{
			fmt.Sprintf("2 requests: GetItem of the whole item first (consistent, key %s), then the TransactWriteItems; the update holds only while the item is as read (step 1's condition), so the new copy built from it is the item updated", r.Key.Describe()),
			"over the item read: step 1, and per copy whose key the update changes (by the values read and given) the delete of the copy read and the create of the new one, from the item read with the update's sets and removes applied; per other copy, the same update of the copy; a transaction never addresses one item twice",
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

package report

import (
	"fmt"
	"strings"

	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/plan"
)

// emptyNote says which step a write sends over an item whose set was
// read empty (a claim or an item per element for each of its elements).
func emptyNote(e *plan.Swap) string {
	return fmt.Sprintf("over an item whose %s was read empty (absent: DynamoDB stores no empty set, and compares none), step %d is sent instead of step %d, conditioned on the set still absent", e.Attr.Name, e.Empty+1, e.Own+1)
}

// eachNotes say in words how a write of an entity with items per element
// keeps them: which steps are sent once per element (as the method's doc
// says it: plan.EachMove.Sends), and, after the read r (nil for a
// create), what the write holds on.
func eachNotes(pp *plan.Pattern, r *plan.Pattern) []string {
	u := pp.Unique
	set := pp.Entity().Each[0].Of
	bound := fmt.Sprintf(", up to %d elements (maxItems)", set.MaxItems)
	var out []string
	if u.Present != nil && len(u.Present.Each) > 0 {
		for _, mv := range u.Present.Each {
			out = append(out, mv.Sends()+bound)
		}
	} else {
		what := "element of " + set.Name
		if r != nil {
			what += " read"
		}
		for _, s := range pp.Tx.Steps {
			if s.Step.Each != nil {
				out = append(out, fmt.Sprintf("step %d is sent once per %s%s", s.Step.Index+1, what, bound))
			}
		}
	}
	if r == nil {
		return out
	}
	var names []string
	for _, c := range pp.Tx.Steps[0].Step.When {
		if c.Read {
			names = append(names, c.Attr.Name)
		}
	}
	out = append(out, fmt.Sprintf("2 requests: GetItem of the item first (consistent, key %s) to read %s, then the TransactWriteItems; the write holds only while the item still holds the values read", r.Key.Describe(), strings.Join(names, ", ")))
	if e := u.Present.Empty; e != nil {
		out = append(out, emptyNote(e))
	}
	if pp.Pattern.Op == model.OpPut && len(u.Absent.Steps) > 0 {
		out = append(out, fmt.Sprintf("when the read finds no item, the put is sent as step %d, a create, with the item of every element, instead of step 1", u.Absent.Steps[0]+1))
	}
	return out
}

package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/plan"
)

// eachNotes say in words how a write of an entity with items per element
// keeps them: which steps are sent once per element, and, after the read
// r (nil for a create), what the write holds on.
func eachNotes(pp *plan.Pattern, r *plan.Pattern) []string {
	var out []string
	for _, s := range pp.Tx.Steps {
		ea := s.Step.Each
		if ea == nil {
			continue
		}
		set := ea.Of.Name
		what := "element of " + set
		switch {
		case r == nil:
		case pp.Pattern.Op == model.OpDelete:
			what = "element of " + set + " read"
		case s.Step.Role == model.EachDeleteStep:
			what = "element of " + set + " read that the set written does not hold"
		case !slices.Contains(pp.Pattern.SetAttrs(), ea.Of) && pp.Pattern.Op == model.OpUpdate:
			what = "element of " + set + " read, when an attribute the item holds changes"
		default:
			what = "new element of " + set + " (every element when an attribute the item holds changes)"
		}
		out = append(out, fmt.Sprintf("step %d is sent once per %s, up to %d (maxItems)", s.Step.Index+1, what, ea.Of.MaxItems))
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
	if e := pp.Unique.Present.Empty; e != nil {
		out = append(out, fmt.Sprintf("over an item whose %s was read empty (absent: DynamoDB stores no empty set, and compares none), step %d is sent instead of step %d, conditioned on the set still absent", e.Attr.Name, e.Empty+1, e.Own+1))
	}
	if pp.Pattern.Op == model.OpPut {
		out = append(out, "when the read finds no item, the put is sent as step 2, a create, with the item of every element, instead of step 1")
	}
	return out
}

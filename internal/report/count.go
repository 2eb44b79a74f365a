package report

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/plan"
)

// countNotes say in words how a write of an entity with counts keeps
// them: which item it reads, which counter steps it sends when.
func countNotes(pp *plan.Pattern) []string {
	p := pp.Pattern
	if len(p.Counted) == 0 || pp.Unique == nil {
		return nil
	}
	var counts, groups []string
	for _, c := range p.Counted {
		counts = append(counts, c.Name)
		groups = append(groups, c.By.Name)
	}
	var steps, absent []string
	for i, s := range pp.Tx.Steps {
		switch s.Step.Role {
		case model.CountStep:
			steps = append(steps, strconv.Itoa(i+1))
		case model.AbsentCountStep:
			absent = append(absent, strconv.Itoa(i+1))
		}
	}
	var out []string
	switch u := pp.Unique; {
	case u.Read == nil:
		out = append(out, fmt.Sprintf("the counters %s: steps %s add 1 to the number of the item's group", strings.Join(counts, ", "), strings.Join(steps, ", ")))
	case p.Op == model.OpDelete:
		out = append(out, fmt.Sprintf("2 requests: GetItem of the item first (consistent, key %s) to read its groups (%s); no item: nothing sent, no error; the delete holds only while the item is still in the groups read, and steps %s take 1 from their numbers", u.Read.Key.Describe(), strings.Join(groups, ", "), strings.Join(steps, ", ")))
	default:
		out = append(out, fmt.Sprintf("2 requests: GetItem of the item first (consistent, key %s) to read its groups (%s); the write holds only while the item is still in the groups read, and a counter's step (%s) is sent only when the group changes: 1 from the old group's number, 1 to the new one's", u.Read.Key.Describe(), strings.Join(groups, ", "), strings.Join(steps, ", ")))
		if len(absent) > 0 {
			out = append(out, fmt.Sprintf("when the read finds no item, the put is a create, and steps %s add 1 to the number of its groups", strings.Join(absent, ", ")))
		}
	}
	return out
}

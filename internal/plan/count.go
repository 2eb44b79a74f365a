package plan

import (
	"fmt"
	"strings"

	"github.com/dyngen/dyngen/internal/model"
)

// Delta is the amount a counter step adds to the number of group Group
// of count Count: -1 when the item read (From) is in the group, +1 when
// the item written (To) is, their sum when both; From nil for an item
// created (no item read), To nil for an item deleted.
type Delta struct {
	Count    *model.Count
	Group    string
	From, To *Arg
}

// CountMove is the counter step of a count whose group a write over an
// item read may change: sent when the new group (New) differs from the
// one read (Attr of the item read).
type CountMove struct {
	Step int
	Attr *model.Attribute
	New  *Arg
}

// countArg says where parameter q of counter step st takes its value:
// the counter's key from the owner's scope attributes (as newValue gives
// them: the item written, or the write's key), each group's amount from
// the group read (oldValue, nil when nothing is read) and the group
// written (newValue, nil for a delete). p is the write, or nil for a
// transaction's create step.
func countArg(q *Param, st *model.Step, p *model.Pattern, newValue, oldValue func(*model.Attribute) *Arg) *Arg {
	c := st.Count
	owner := c.Owner
	if q.Role == ParamKey {
		return newValue(owner.Attr(q.Attr.Name))
	}
	d := &Delta{Count: c, Group: c.GroupOf(q.Attr)}
	if oldValue != nil && p != nil && p.Op != model.OpCreate && st.Role != model.AbsentCountStep {
		d.From = oldValue(c.By)
	}
	if p == nil || p.Op != model.OpDelete {
		d.To = newOf(p, c.By, newValue)
	}
	return &Arg{Delta: d}
}

// newOf is where write p takes the new value of attribute a: the
// constant an update sets it to, or newValue's.
func newOf(p *model.Pattern, a *model.Attribute, newValue func(*model.Attribute) *Arg) *Arg {
	if p != nil {
		if sc := p.SetConst(a); sc != nil {
			return &Arg{Const: &ConstArg{Entity: p.Entity(), Attr: a, Value: sc.Const.Text, Lit: literal(a, model.OpEq, sc.Const.Text)}}
		}
	}
	return newValue(a)
}

// countMoves are the counter steps a write over an item read sends only
// when the group changes.
func countMoves(pp *Pattern) []*CountMove {
	var out []*CountMove
	for i, s := range pp.Tx.Steps {
		st := s.Step
		if st.Role != model.CountStep {
			continue
		}
		for j, q := range s.Plan.Params {
			if q.Role == ParamAdd {
				out = append(out, &CountMove{Step: i, Attr: st.Count.By, New: s.Args[j].Delta.To})
				break
			}
		}
	}
	return out
}

// String is the amount as `dyngen plan` shows it: "+1 if user.Role is
// admin, -1 if old.Role is admin".
func (d *Delta) String() string {
	var s string
	if d.To != nil {
		s = fmt.Sprintf("+1 if %s is %s", d.To, d.Group)
	}
	if d.From != nil {
		if s != "" {
			s += ", "
		}
		s += fmt.Sprintf("-1 if %s is %s", d.From, d.Group)
	}
	return s
}

// countString is a counter's amount or a constant, as Arg.String shows
// it, or "".
func (a *Arg) countString() string {
	switch {
	case a.Delta != nil:
		return a.Delta.String()
	case a.Const != nil:
		return a.Const.Value
	}
	return ""
}

// countScope says what counter the items of a transaction's steps add
// to: one per table, or the one of the scope values from.
func countScope(c *model.Count, from []string) string {
	if len(c.Per) == 0 {
		return "one counter per table"
	}
	return strings.Join(from, ", ")
}

package plan

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dyngen/dyngen/internal/model"
)

// EachMove is how a write over an item read (a put, an update that sets
// the set or a listed attribute) keeps the items per element of one
// entry: the delete of the item of each element read that the new set
// does not hold (Delete), the put of the item of each new element the
// set read does not hold (Put), and, when a listed attribute changes
// (any of Attrs differs from NewAttrs), the put of the item of every
// element of the new set instead.
type EachMove struct {
	Each *model.Each
	// Delete and Put are the indexes of the steps; Delete is -1 for an
	// update that does not set the set (it deletes no element item).
	Delete, Put int
	// Moves is set when the write may change the set (a put, an update
	// that sets it); New is where it takes the new set from (the set
	// read when it does not).
	Moves bool
	New   *Arg
	// Attrs are the listed attributes, and NewAttrs where the write
	// takes each one's new value from.
	Attrs    []*model.Attribute
	NewAttrs []*Arg
}

// eachMoves are the element items a write over the item read rewrites:
// per entry, its delete step (if any) and its put step.
func eachMoves(pp *Pattern) []*EachMove {
	tx, p := pp.Tx, pp.Pattern
	var out []*EachMove
	for i, s := range tx.Steps {
		ea := s.Step.Each
		if ea == nil || s.Step.Role != model.EachPutStep {
			continue
		}
		mv := &EachMove{Each: ea, Delete: -1, Put: i}
		for j, d := range tx.Steps {
			if d.Step.Each == ea && d.Step.Role == model.EachDeleteStep {
				mv.Delete, mv.Moves = j, true
			}
		}
		build := s.Args[0].Build
		for j, ca := range ea.Entity.Attributes {
			if ca.Name == ea.Of.Name {
				set := *build[j]
				set.Elem = false
				mv.New = &set
			}
		}
		// The listed attributes the write may change: a put's, an
		// update's that it sets.
		for _, a := range ea.Attrs {
			if p.Op == model.OpPut || slices.Contains(p.SetAttrs(), a) {
				mv.Attrs = append(mv.Attrs, a)
			}
		}
		mv.NewAttrs = newArgs(mv.Attrs, ea.Entity, s)
		out = append(out, mv)
	}
	return out
}

// eachArg says where parameter q of step st, which writes or deletes the
// item of one element, takes its value: the key of the item it deletes
// from the item read (old), its element each element of the set read;
// the item it writes from the owner's new values (value, or the constant
// write p sets), field by field, its element each element of the new
// set.
func eachArg(p *model.Pattern, st *model.Step, q *Param, value, old func(*model.Attribute) *Arg) *Arg {
	ea := st.Each
	owner := ea.Owner
	if st.Role == model.EachDeleteStep {
		oa := owner.Attr(q.Attr.Name)
		v := old(oa)
		v.Elem = oa == ea.Of
		return v
	}
	a := &Arg{Input: &Input{Field: ea.Entity.GoName}}
	for _, ca := range ea.Entity.Attributes {
		oa := owner.Attr(ca.Name)
		if oa == ea.Of {
			v := value(oa)
			v.Elem = true
			a.Build = append(a.Build, v)
			continue
		}
		a.Build = append(a.Build, newOf(p, oa, value))
	}
	return a
}

// Sends says when the steps of mv are sent, the entry's name first, as
// the method's doc comment and `dyngen plan` say it.
func (mv *EachMove) Sends() string {
	set := mv.Each.Of.Name
	if !mv.Moves {
		return fmt.Sprintf("%s, step %d is sent for every element of %s read when %s changes", mv.Each.Name, mv.Put+1, set, orNames(mv.Attrs))
	}
	s := fmt.Sprintf("%s, step %d is sent for each element of %s read that the set written does not hold, step %d for each new element", mv.Each.Name, mv.Delete+1, set, mv.Put+1)
	if len(mv.Attrs) > 0 {
		s += fmt.Sprintf(", or for every element when %s changes", orNames(mv.Attrs))
	}
	return s
}

// orNames joins the names of attrs: "state", "state or weight".
func orNames(attrs []*model.Attribute) string {
	var names []string
	for _, a := range attrs {
		names = append(names, a.Name)
	}
	return strings.Join(names, " or ")
}

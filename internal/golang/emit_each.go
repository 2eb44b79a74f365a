package golang

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/plan"
)

// eachMoves emits, for each entry of items per element a write over the
// item read rewrites, the delete of the item of each element read that
// the new set does not hold, and the put of the item of each new
// element, or of every element when a listed attribute changes. each
// emits a step once per element of a set.
func (m *method) eachMoves(g *jen.Group, moves []*plan.EachMove, each func(g *jen.Group, i int, over jen.Code)) {
	for _, mv := range moves {
		was, now := m.id("old").Dot(mv.Each.Of.GoName), m.argCode(mv.New)
		if mv.Moves {
			each(g, mv.Delete, rt("SetAdded").Call(now, was))
		}
		if len(mv.Attrs) == 0 {
			each(g, mv.Put, rt("SetAdded").Call(was, now))
			continue
		}
		ifChanged := g.If(m.changed(mv.Attrs, mv.NewAttrs)).BlockFunc(func(g *jen.Group) {
			// Each element once: a transaction addresses an item once.
			each(g, mv.Put, rt("SetAdded").Call(jen.Nil(), now))
		})
		if mv.Moves {
			ifChanged.Else().BlockFunc(func(g *jen.Group) {
				each(g, mv.Put, rt("SetAdded").Call(was, now))
			})
		}
	}
}

// eachSummary is the summary of a write of an entity with items per
// element.
func (m *method) eachSummary() string {
	ent := m.ent()
	var summary string
	switch m.writeForm() {
	case plan.FormCreate:
		summary = fmt.Sprintf("%s writes the %s and the item of each element of its %s in one TransactWriteItems, only when no item has its key (ErrAlreadyExists from step 1).", m.p.GoName, ent.GoName, m.eachSets())
	case plan.FormPut, plan.FormReplace:
		moves := "The item of an element the new set does not hold is deleted, of a new element written, and of every element when an attribute the items hold changes."
		if len(m.pp.Unique.Absent.Steps) == 0 {
			// A put of the version read: over no item, ErrNotFound.
			summary = fmt.Sprintf("%s writes the %s whole, replacing the item read, and the items of the elements of its %s: GetItem, then TransactWriteItems (two requests). %s The put holds only while the item still holds what was read of them: ErrConditionFailed when another call changed them in between.", m.p.GoName, ent.GoName, m.eachSets(), moves)
			break
		}
		summary = fmt.Sprintf("%s writes the %s whole, replacing any item with its key, and the items of the elements of its %s: GetItem, then TransactWriteItems (two requests). %s Over an item, the put holds only while the item still holds what was read of them; over no item, only while there is still none: ErrConditionFailed when another call changed them in between.", m.p.GoName, ent.GoName, m.eachSets(), moves)
	case plan.FormUpdate:
		summary = fmt.Sprintf("%s updates the %s and the items of the elements of its %s: GetItem, then TransactWriteItems (two requests). The update holds only while the item still holds what was read of them: ErrConditionFailed when another call changed them in between, ErrNotFound when there is no item. The method returns only an error: a transaction returns no item.", m.p.GoName, ent.GoName, m.eachSets())
	default:
		summary = fmt.Sprintf("%s deletes the %s with this key and the item of each element of its %s: GetItem, then TransactWriteItems (two requests).", m.p.GoName, ent.GoName, m.eachSets())
		if m.pp.Version == nil {
			// A versioned delete's sentence says ErrNotFound.
			summary += " Deleting an item that does not exist is no error."
		}
		summary += " ErrConditionFailed when another call changed the set in between."
	}
	return summary + m.txTail("")
}

// eachSets names the set whose elements have items, as a summary says
// it: "tags (ParcelTags)".
func (m *method) eachSets() string {
	ent := m.ent()
	s := ent.Each[0].Of.Name + " ("
	for i, ea := range ent.Each {
		if i > 0 {
			s += ", "
		}
		s += ea.Name
	}
	return s + ")"
}

// eachDoc emits the paragraph of a write's doc comment that says how
// often the steps of its element items are sent.
func (m *method) eachDoc() {
	u := m.pp.Unique
	var puts, deletes []int
	for _, s := range m.pp.Tx.Steps {
		switch {
		case s.Step.Each == nil:
		case s.Step.Role == model.EachPutStep:
			puts = append(puts, s.Step.Index)
		default:
			deletes = append(deletes, s.Step.Index)
		}
	}
	if len(puts)+len(deletes) == 0 {
		return
	}
	comment(m.f, "")
	set := m.ent().Each[0].Of.Name
	switch {
	case u.Present == nil:
		commentf(m.f, "The items per element of %s: %s sent for each element.", set, stepList(puts))
	case len(u.Present.Each) == 0:
		commentf(m.f, "The items per element of %s: %s sent for each element read.", set, stepList(deletes))
	default:
		var parts []string
		for _, mv := range u.Present.Each {
			parts = append(parts, mv.Sends())
		}
		text := fmt.Sprintf("The items per element of %s: for %s.", set, strings.Join(parts, "; for "))
		if len(u.Absent.Steps) > 0 {
			text += fmt.Sprintf(" Over no item, %s sent instead of step 1, and %s for each element.", stepList(u.Absent.Steps[:1]), stepNumbers(puts))
		}
		comment(m.f, text)
	}
}

package plan

import (
	"slices"

	"github.com/dyngen/dyngen/internal/model"
)

// CopyMove is how a write of an entity with copies rewrites one copy
// over the item read: when the copy's key changes (any of Attrs differs
// from New), the delete of the copy read (Release) and the create of the
// new one (Take, ErrAlreadyExists when another item holds its key);
// otherwise the put of the copy over itself, or, for an update, the
// update of the copy (Replace). A transaction may not address one item
// twice, so the two are never sent together.
type CopyMove struct {
	Copy                   *model.Copy
	Release, Take, Replace int // the indexes of the steps
	// Attrs are the owner's attributes the copy's key is built from, and
	// New where the write takes each one's new value from.
	Attrs []*model.Attribute
	New   []*Arg
}

// copyMoves are the copies a put rewrites over the item read: each
// copy's release step and the take and replace steps after it.
func copyMoves(tx *Transaction) []*CopyMove {
	var out []*CopyMove
	for i, s := range tx.Steps {
		c := s.Step.Copy
		if c == nil || s.Step.Role != model.ReleaseStep || i+2 >= len(tx.Steps) {
			continue
		}
		take := tx.Steps[i+1]
		attrs := c.KeyAttrs()
		if p := s.Step.Tx; p.Op == model.OpUpdate {
			// The attributes of the key the update sets: the others keep
			// the value read.
			attrs = slices.DeleteFunc(attrs, func(a *model.Attribute) bool { return !slices.Contains(p.SetAttrs(), a) })
		}
		out = append(out, &CopyMove{Copy: c, Release: i, Take: i + 1, Replace: i + 2, Attrs: attrs, New: newArgs(attrs, c.Entity, take)})
	}
	return out
}

// copyArg says where parameter q of the builder of step st, which
// writes or deletes a copy, takes its value: the key of the copy it
// deletes from the item read (old), the copy it writes from the owner's
// new values (value), field by field.
func copyArg(st *model.Step, q *Param, own *Pattern, value, old func(*model.Attribute) *Arg) *Arg {
	owner := st.Copy.Owner
	if q.Role == ParamKey && (st.Role == model.ReleaseStep || st.Role == model.UpdateCopyStep) {
		return old(owner.Attr(q.Attr.Name))
	}
	if q.Role == ParamCond && q.Cond.Read {
		// The owner's key, as read: the copy is the owner's.
		return old(owner.Attr(q.Cond.Attr.Name))
	}
	if st.Role == model.UpdateCopyStep {
		// The update's own parameter of the same role and attribute.
		for _, oq := range own.Params {
			if oq.Role == q.Role && oq.Operand == q.Operand && (oq.Attr == nil) == (q.Attr == nil) && (q.Attr == nil || oq.Attr.Name == q.Attr.Name) {
				return &Arg{Input: &Input{Field: oq.Name, Attr: oq.Attr}}
			}
		}
		return nil
	}
	// The copy of a create or put is the caller's item; that of an
	// update moving the copy (model.Pattern.AsRead) the item read with
	// the update's values and constants set and its removes removed.
	a := &Arg{Input: &Input{Field: st.Copy.Entity.GoName}}
	p := own.Pattern
	for _, ca := range st.Copy.Entity.Attributes {
		oa := owner.Attr(ca.Name)
		if p.Op == model.OpUpdate && slices.Contains(p.Remove, oa) {
			a.Build = append(a.Build, &Arg{Zero: true})
			continue
		}
		a.Build = append(a.Build, newOf(p, oa, value))
	}
	return a
}

// copyUpdates are the steps that apply an update to the copies read,
// each sent with the update's own step, but those an update that moves
// its copy sends only when the copy's key does not change (moves).
func copyUpdates(tx *Transaction, moves []*CopyMove) []int {
	var out []int
	for i, s := range tx.Steps {
		if s.Step.Copy != nil && s.Step.Role == model.UpdateCopyStep && !slices.ContainsFunc(moves, func(mv *CopyMove) bool { return mv.Replace == i }) {
			out = append(out, i)
		}
	}
	return out
}

// copyGet plans a get of a copy (copy:): a GetItem by the copy's key,
// whose attributes the caller gives, decoded as the owner's item (the
// copy holds every attribute of it).
func (b *builder) copyGet(p *model.Pattern) *Pattern {
	c := p.Copy
	pp := &Pattern{Pattern: p, Call: GetItem, Form: FormCopyGet, Index: c.Entity.Table.Primary(), Key: primaryKey(c.Entity), Inputs: c.KeyAttrs()}
	pp.Members = []*Member{{Entity: c.Entity, How: ByKey}}
	b.request(pp)
	b.cost(pp)
	return pp
}

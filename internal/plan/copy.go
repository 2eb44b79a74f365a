package plan

import (
	"github.com/dyngen/dyngen/internal/model"
)

// CopyMove is how a write of an entity with copies rewrites one copy
// over the item read: when the copy's key changes (any of Attrs differs
// from New), the delete of the copy read (Release) and the create of the
// new one (Take, ErrAlreadyExists when another item holds its key);
// otherwise the put of the copy over itself (Replace). A transaction may
// not address one item twice, so the two are never sent together.
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
	if st.Role == model.UpdateCopyStep {
		// The update's own parameter of the same role and attribute.
		for _, oq := range own.Params {
			if oq.Role == q.Role && oq.Operand == q.Operand && (oq.Attr == nil) == (q.Attr == nil) && (q.Attr == nil || oq.Attr.Name == q.Attr.Name) {
				return &Arg{Input: &Input{Field: oq.Name, Attr: oq.Attr}}
			}
		}
		return nil
	}
	a := &Arg{Input: &Input{Field: st.Copy.Entity.GoName}}
	for _, ca := range st.Copy.Entity.Attributes {
		a.Build = append(a.Build, value(owner.Attr(ca.Name)))
	}
	return a
}

// copyUpdates are the steps that apply an update to the copies read,
// each sent with the update's own step.
func copyUpdates(tx *Transaction) []int {
	var out []int
	for i, s := range tx.Steps {
		if s.Step.Copy != nil && s.Step.Role == model.UpdateCopyStep {
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

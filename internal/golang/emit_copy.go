package golang

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/plan"
)

// copyGet emits a get of a copy (copy:): a GetItem by the copy's key,
// decoded as the owner's item, which the copy holds whole.
func (m *method) copyGet() {
	ent := m.ent()
	c := m.p.Copy
	m.viewType()
	projConst := m.constant("Projection", m.req.Projection)
	m.docHead()
	commentf(m.f, "\tGetItem on table %s (the copy %s)", m.p.Table.Name, c.Entity.Name)
	comment(m.f, "\t  Key: "+m.pp.Key.Describe())
	for _, l := range m.readLines() {
		comment(m.f, "\t  "+l)
	}
	m.signature().BlockFunc(func(g *jen.Group) {
		m.unpack(g)
		fail := m.fail(jen.Nil())
		out := m.local("out")
		key := m.primaryKeyMap(g, c.Entity, func(a *model.Attribute) jen.Code {
			v := m.keyParam(ent.Attr(a.Name))
			if a.Type == model.Enum {
				return jen.Id(model.EnumType(c.Entity, a)).Call(v)
			}
			return v
		}, fail)
		m.getDecoded(g, out, key, fail, projConst)
		g.Return(jen.Op("&").Add(m.id("v")), jen.Nil())
	})
	m.f.Line()
}

// copyGetSummary is the summary of a get of a copy.
func (m *method) copyGetSummary() string {
	ent := m.ent()
	read := "read eventually consistent, as a GetItem is by default"
	if m.p.Consistent {
		read = "a strongly consistent read, which a global index can't give"
	}
	return fmt.Sprintf("%s reads the %s by the key of its copy %s: one GetItem of the copy, which holds the whole item (%s); ErrNotFound when there is none.", m.p.GoName, ent.GoName, m.p.Copy.Name, read)
}

// copyMoves emits, for each copy a write rewrites over the item read,
// the delete of the copy read and the create of the new one when the
// copy's key changes, the put of the copy over itself otherwise.
func (m *method) copyMoves(g *jen.Group, moves []*plan.CopyMove, add func(g *jen.Group, steps ...int)) {
	for _, mv := range moves {
		g.If(m.changed(mv.Attrs, mv.New)).BlockFunc(func(g *jen.Group) {
			add(g, mv.Release, mv.Take)
		}).Else().BlockFunc(func(g *jen.Group) {
			add(g, mv.Replace)
		})
	}
}

// copySummary is the summary of a write of an entity with copies.
func (m *method) copySummary() string {
	ent := m.ent()
	var summary string
	switch m.writeForm() {
	case plan.FormCreate:
		summary = fmt.Sprintf("%s writes the %s and each of its copies in one TransactWriteItems, only when no item has its key (ErrAlreadyExists from step 1) and no item has a copy's key (ErrAlreadyExists from the step \"copy %s.<copy>\").", m.p.GoName, ent.GoName, ent.Name)
	case plan.FormPut, plan.FormReplace:
		summary = fmt.Sprintf("%s writes the %s whole, replacing any item with its key, and its copies: GetItem, then TransactWriteItems (two requests). A copy whose key is unchanged is replaced; one whose key changes is deleted and created under the new key (ErrAlreadyExists from the step \"copy %s.<copy>\" when another item holds it). Over an item, the put holds only while the item still holds the values of the copies' keys read; over no item, only while there is still none: ErrConditionFailed when another call changed them in between, or when a copy read is another item's.", m.p.GoName, ent.GoName, ent.Name)
	case plan.FormUpdate:
		if u := m.pp.Unique; u != nil && u.Present != nil && len(u.Present.Copies) > 0 {
			summary = fmt.Sprintf("%s updates the %s and its copies: GetItem, then TransactWriteItems (two requests). A copy whose key the update changes is deleted, and created under its new key from the item read with the update applied (ErrAlreadyExists from the step \"copy %s.<copy>\" when another item holds that key); a copy whose key stays takes the same update. The update holds only while the item is as read, each attribute holding the value read or still absent: ErrConditionFailed when another call changed it in between, or when a copy read is another item's, ErrNotFound when there is no item, or no copy (from the step \"update copy %s.<copy>\"). The method returns only an error: a transaction returns no item.", m.p.GoName, ent.GoName, ent.Name, ent.Name)
			break
		}
		summary = fmt.Sprintf("%s updates the %s and applies the same update to each of its copies: GetItem, then TransactWriteItems (two requests). The update holds only while the item still holds the values of the copies' keys read: ErrConditionFailed when another call changed them in between, or when a copy read is another item's, ErrNotFound when there is no item, or no copy (from the step \"update copy %s.<copy>\"). The method returns only an error: a transaction returns no item.", m.p.GoName, ent.GoName, ent.Name)
	default:
		summary = fmt.Sprintf("%s deletes the %s with this key and its copies: GetItem, then TransactWriteItems (two requests). Deleting an item that does not exist is no error; ErrConditionFailed when another call changed the values of the copies' keys in between, or when a copy read is another item's.", m.p.GoName, ent.GoName)
	}
	return summary + m.txTail("")
}

// enumAs is value v of enum attribute a of the owner, as the enum type
// of a of entity e (a claim's or a copy's), which has the same values.
func enumAs(e *model.Entity, a *model.Attribute, v jen.Code) jen.Code {
	if a.Optional {
		return jen.Parens(jen.Op("*").Id(model.EnumType(e, a))).Call(v)
	}
	return jen.Id(model.EnumType(e, a)).Call(v)
}

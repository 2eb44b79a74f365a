package model

import (
	"fmt"
	"regexp"
	"slices"

	"github.com/dyngen/dyngen/spec"
)

// Copy is a copy of an entity's whole item under another primary key of
// its table (copies:), for a strongly consistent read by another key,
// which a global index can't give. The copy is an item of the hidden
// entity Entity, holding every attribute of the owner, keyed by the
// copy's templates; it is written in one transaction with the owner's
// item by every write of the owner.
type Copy struct {
	Owner *Entity
	// Name is the copy's name in the spec (ByEmail), Pos its entry.
	Name string
	Pos  Pos
	// Entity is the hidden entity of the copy's items: UserByEmail.
	Entity *Entity
}

var copyName = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]*$`)

// CopyName is the name (and Go name) of the hidden entity of copy name
// of e: UserByEmail.
func CopyName(e *Entity, name string) string { return e.GoName + GoName(name) }

// CopyTypeValue is the value a copy item's entity attribute holds:
// User@ByEmail, which no spec entity's name can be.
func CopyTypeValue(e *Entity, name string) string { return e.TypeValue + "@" + name }

// KeyAttrs are the owner's attributes the copy's key is built from.
func (c *Copy) KeyAttrs() []*Attribute {
	var out []*Attribute
	for _, a := range c.Entity.PrimaryKey().Attrs() {
		if oa := c.Owner.Attr(a.Name); oa != nil && !slices.Contains(out, oa) {
			out = append(out, oa)
		}
	}
	return out
}

// action names a step writing the copy, as the generated docs and
// errors say it: "copy User.ByEmail".
func (c *Copy) action(role StepRole) string {
	what := c.Owner.Name + "." + c.Name
	switch role {
	case ReleaseStep:
		return "delete copy " + what
	case ReplaceStep:
		return "replace copy " + what
	case UpdateCopyStep:
		return "update copy " + what
	}
	return "copy " + what
}

// The roles of the steps of copies, apart from those of unique.go and
// count.go (from 100).
const (
	// ReplaceStep writes a copy whose key does not change over the copy
	// read (a put, without condition).
	ReplaceStep StepRole = 200 + iota
	// UpdateCopyStep applies an update of the owner to a copy read,
	// whose key the update does not change: the same update expression
	// on the copy's key, so that the two stay equal.
	UpdateCopyStep
)

// setsCopyKey returns an attribute of a copy's key that update p sets,
// adds to or removes, and the copy, or nil.
func setsCopyKey(p *Pattern) (*Attribute, *Copy) {
	for _, c := range p.Entity().Copies {
		if a := copyKeyChanged(p, c); a != nil {
			return a, c
		}
	}
	return nil, nil
}

// copyKeyChanged returns an attribute of copy c's key that update p
// sets, adds to or removes, or nil.
func copyKeyChanged(p *Pattern, c *Copy) *Attribute {
	changed := append(append(append(p.SetAttrs(), p.AddAttrs()...), p.Remove...), p.RemoveFrom...)
	for _, a := range c.KeyAttrs() {
		if slices.Contains(changed, a) {
			return a
		}
	}
	return nil
}

// movesKey reports whether update p may move copy c: it sets an
// attribute of its key.
func movesKey(p *Pattern, c *Copy) bool { return copyKeyChanged(p, c) != nil }

// movesCopy says why update p, which changes attribute a of the key of
// copy c, can't move the copy, or "". The new copy is the item read with
// the update applied by the generated code, which sets whole attributes
// (to the caller's values or constants) and removes them; an add, a
// removal of elements, or a path (address.zip, approvals.{reviewer})
// would need the stored value the update changes, which the write would
// compute apart from DynamoDB.
func movesCopy(p *Pattern, a *Attribute, c *Copy) string {
	var what string
	switch {
	case len(p.AddAttrs()) > 0:
		what = "adds to " + p.AddAttrs()[0].Name
	case len(p.RemoveFrom) > 0:
		what = "removes elements from " + p.RemoveFrom[0].Name
	default:
		for _, x := range append(p.SetAttrs(), p.Remove...) {
			if x.IsPath() {
				what = "writes the path " + x.Name
				break
			}
		}
	}
	if what == "" {
		return ""
	}
	return fmt.Sprintf("it changes %s, in the key of copy %s, which moves the copy: the new copy is the item read with the update's sets and removes applied, and the update also %s, which only DynamoDB applies to the stored value; move the copy with an update that sets and removes whole attributes, and make this change in another", a.Name, c.Name, what)
}

// asRead conditions the owner's step st of an update that moves a copy
// on the item being as read: every attribute of e but those of its
// primary key (the key read by) still holds the value read, or is still
// absent. The new copy is built from the item read, so the update must
// change that item, and the copy deleted is the one its values name.
func asRead(st *Step, e *Entity) *Step {
	key := e.PrimaryKey().Attrs()
	for _, a := range e.Attributes {
		if !slices.Contains(key, a) {
			st.Pattern.AsRead = append(st.Pattern.AsRead, a)
		}
	}
	return st
}

// copyUpdateStep is the step of update p that applies it to copy c: the
// same sets, adds and removes, on the copy's attributes, without the
// pattern's when (the owner's step holds it).
func copyUpdateStep(p *Pattern, c *Copy) *Step {
	ce := c.Entity
	// attr is the copy's attribute a is of the owner, or the copy's path
	// (address.zip, approvals.{reviewer}): the copy holds every
	// attribute, object and map of the owner.
	attr := func(a *Attribute) *Attribute {
		if a.IsPath() {
			pa, _ := ce.PathAttr(a.Name)
			return pa
		}
		return ce.Attr(a.Name)
	}
	as := func(attrs []*Attribute) []*Attribute {
		var out []*Attribute
		for _, a := range attrs {
			out = append(out, attr(a))
		}
		return out
	}
	consts := func(cs []*SetConst) []*SetConst {
		var out []*SetConst
		for _, sc := range cs {
			out = append(out, &SetConst{Attr: attr(sc.Attr), Const: sc.Const})
		}
		return out
	}
	sub := *p
	sub.Steps, sub.Read, sub.ReadCopies = nil, nil, nil
	// Without the pattern's when (the owner's step holds it): the copy
	// is the owner's.
	sub.When = ownerHeld(c.Entity, c.Owner, c.Pos)
	sub.Entities, sub.Table, sub.Pos = []*Entity{ce}, ce.Table, c.Pos
	sub.Set, sub.Add, sub.Remove, sub.RemoveFrom = as(p.Set), as(p.Add), as(p.Remove), as(p.RemoveFrom)
	sub.SetConsts, sub.AddConsts = consts(p.SetConsts), consts(p.AddConsts)
	return &Step{Pattern: &sub, Tx: p, As: ce.Name, AsPos: c.Pos, Copy: c, Role: UpdateCopyStep}
}

// copies checks the copies of entity e and returns the spec of the hidden
// entity of each, for the resolver to resolve as it does the spec's own
// entities (names, type value, attributes, keys: the collision check
// proves each copy's key apart from every other).
func (r *resolver) copies(e *Entity, se *spec.Entity, copies map[*spec.Entity]*Copy) []*spec.Entity {
	if len(se.Copies) == 0 || len(e.Keys) == 0 || e.Table == nil || r.m.broken[e] {
		return nil
	}
	pos := se.Copies[0].Index.Pos
	// What a copy can't keep exact yet.
	switch {
	case len(se.Unique) > 0:
		r.errorf(pos, "%s has copies and unique values; dyngen does not yet write both in one transaction: remove one", e.Name)
		return nil
	case len(se.Counts) > 0:
		r.errorf(pos, "%s has copies and counts; dyngen does not yet write both in one transaction: remove one", e.Name)
		return nil
	case e.Version != nil || e.Stamped():
		r.errorf(pos, "%s has copies and a version or timestamps, which the Store sets on the item as it writes it and would not be in its copies; remove copies, or the version and timestamps", e.Name)
		return nil
	case e.TTLAttr() != nil:
		r.errorf(pos, "%s has copies and stores its table's ttl attribute (%s): DynamoDB deletes an expired item and its copies at different times, and a copy left behind would keep its key taken; remove copies, or store the time to live under another name", e.Name, e.TTLAttr().Name)
		return nil
	}
	var out []*spec.Entity
	for _, sk := range se.Copies {
		name := sk.Index.Value
		if !copyName.MatchString(name) {
			r.errorf(sk.Index.Pos, "copy name %q of %s must be a letter then letters, digits or underscores", name, e.Name)
			continue
		}
		switch t := e.Table; {
		case !sk.PK.Set:
			r.errorf(sk.Index.Pos, "copy %s of %s gives no pk; a copy is keyed on the table's own key attributes: add pk", name, e.Name)
			continue
		case t.SK != nil && !sk.SK.Set:
			r.errorf(sk.Index.Pos, "copy %s of %s gives no sk, and table %s has sort key %s: add sk", name, e.Name, t.Name, t.SK.Name)
			continue
		case t.SK == nil && sk.SK.Set:
			r.errorf(sk.SK.Pos, "copy %s of %s gives an sk, and table %s has no sort key: remove sk", name, e.Name, t.Name)
			continue
		}
		str := func(v string) spec.Str { return spec.Str{Value: v, Pos: sk.Index.Pos, Set: true} }
		c := &Copy{Owner: e, Name: name, Pos: sk.Index.Pos}
		e.Copies = append(e.Copies, c)
		cs := &spec.Entity{
			Name:       str(CopyName(e, name)),
			Pos:        sk.Pos,
			Doc:        str(fmt.Sprintf("%s is the copy %s of a %s: the whole item under another primary key, for a strongly consistent read by it. dyngen writes it with the %s.", CopyName(e, name), name, e.Name, e.Name)),
			Table:      str(e.Table.Name),
			TypeValue:  str(CopyTypeValue(e, name)),
			Attributes: se.Attributes,
		}
		keys := *sk
		keys.Index = str(PrimaryName)
		cs.Keys = []*spec.Keys{&keys}
		copies[cs] = c
		out = append(out, cs)
	}
	return out
}

// copyKeys checks the key of the hidden entity ce of a copy, once
// resolved: the attributes it is built from are those whose change a
// write tells by comparing values.
func (r *resolver) copyKeys(ce *Entity) {
	c := ce.CopyOf
	if len(ce.Keys) == 0 {
		return
	}
	for _, a := range c.KeyAttrs() {
		if a.Type != String && a.Type != Enum && a.Type != Int {
			r.errorf(c.Pos, "copy %s of %s: its key uses %s, which is %s; a copy's key takes string, enum and int attributes, whose change a write tells before moving the copy", c.Name, c.Owner.Name, a.Name, a.Describe())
		}
	}
	for _, k := range ce.Keys {
		if k.Index.IsPrimary() || k.Index.Inverted {
			continue // an inverted index holds every item
		}
		// An attribute of the owner stored under an index's key attribute
		// (a natural key) would put the copy in that index.
		r.errorf(c.Pos, "copy %s of %s would be in index %s, whose key attributes the owner's attributes fill; a copy is in no secondary index: store those attributes under other names (attr:)", c.Name, c.Owner.Name, k.Index.Name)
	}
}

// manyCopies is why a write over many keys can't keep an entity's copies.
const manyCopies = "the write reads the item first (GetItem), then writes it and its copies in one transaction, which no one request per key, and no one transaction of every key, can do; write each item with its own call"

// copyWrites plans, in the model, the steps of a write of an entity with
// copies: the write and the copies it writes and deletes, in one
// TransactWriteItems. It refuses the writes that can't keep the copies.
func (r *resolver) copyWrites(p *Pattern) {
	e := p.Entity()
	var steps []*Step
	why := ""
	switch p.Op {
	case OpBatchPut, OpBatchDelete:
		why = "BatchWriteItem sends no transaction, so it can't write the copies with the item; use create, put and delete"
	case OpUpdate:
		if p.Upsert {
			why = "an upsert may create the item unseen, without its copies; remove upsert, or use put"
			break
		}
		if p.Many != "" {
			why = manyCopies
			break
		}
		if a, c := setsCopyKey(p); a != nil {
			if why = movesCopy(p, a, c); why != "" {
				break
			}
			// The copies the update applies to first, always sent; then,
			// per copy it may move, the delete and the create sent when
			// its key changes, and its update otherwise: the steps are
			// sent in their order.
			steps = append(steps, asRead(r.ownStep(p, nil), e))
			for _, c := range e.Copies {
				if !movesKey(p, c) {
					steps = append(steps, copyUpdateStep(p, c))
				}
			}
			for _, c := range e.Copies {
				if movesKey(p, c) {
					take := copyStep(p, c, TakeStep)
					for _, a := range e.Attributes {
						if a.Default != nil && !slices.Contains(p.SetAttrs(), a) {
							take.Pattern.AbsentAsRead = append(take.Pattern.AbsentAsRead, c.Entity.Attr(a.Name))
						}
					}
					steps = append(steps, copyStep(p, c, ReleaseStep), take, copyUpdateStep(p, c))
				}
			}
			break
		}
		steps = append(steps, copyOwnStep(r.ownStep(p, nil), e))
		for _, c := range e.Copies {
			steps = append(steps, copyUpdateStep(p, c))
		}
	case OpCreate:
		steps = append(steps, r.ownStep(p, nil))
		for _, c := range e.Copies {
			steps = append(steps, copyStep(p, c, TakeStep))
		}
	case OpPut:
		steps = append(steps, copyOwnStep(r.ownStep(p, nil), e))
		steps = append(steps, r.absentStep(p))
		for _, c := range e.Copies {
			steps = append(steps, copyStep(p, c, ReleaseStep), copyStep(p, c, TakeStep), copyStep(p, c, ReplaceStep))
		}
	case OpDelete:
		if p.Many != "" {
			why = manyCopies
			break
		}
		steps = append(steps, copyOwnStep(r.ownStep(p, nil), e))
		for _, c := range e.Copies {
			steps = append(steps, copyStep(p, c, ReleaseStep))
		}
	default:
		return
	}
	if why != "" {
		pos := p.OpPos
		if why == manyCopies {
			pos = p.ManyPos
		}
		r.errorf(pos, "pattern %s: %s of %s, which has copies (%s): %s", p.Name, p.Op, e.Name, copyNames(e), why)
		return
	}
	p.Steps = numberSteps(p, steps)
	if p.Op != OpCreate {
		p.ReadCopies = e.Copies
	}
}

// copyOwnStep conditions the owner's step st on each attribute of the
// copies' keys still holding the value read: the copies the write
// deletes are those read.
func copyOwnStep(st *Step, e *Entity) *Step {
	var seen []*Attribute
	for _, c := range e.Copies {
		for _, a := range c.KeyAttrs() {
			if !slices.Contains(seen, a) {
				seen = append(seen, a)
				st.When = append(st.When, &Cond{Attr: a, Pos: c.Pos, Op: OpEq, Read: true})
			}
		}
	}
	return st
}

// copyStep is the step of pattern p that writes (TakeStep: a create, so
// that a taken key fails; ReplaceStep: a put over the copy read) or
// deletes (ReleaseStep) copy c.
func copyStep(p *Pattern, c *Copy, role StepRole) *Step {
	op := OpCreate
	switch role {
	case ReleaseStep:
		op = OpDelete
	case ReplaceStep:
		op = OpPut
	}
	st := derivedStep(p, c.Entity, c.Pos, op)
	st.Copy, st.Role = c, role
	if role != TakeStep {
		st.Pattern.When = ownedWhen(c.Entity, c.Owner, c.Pos)
	}
	return st
}

// ownerHeld are the conditions that an item of derived, an entity dyngen
// writes with its owner's items (a copy, a claim), holds owner's primary
// key as read: it is that owner's. Each is on derived's attribute of the
// name of the owner's key attribute.
func ownerHeld(derived, owner *Entity, pos Pos) []*Cond {
	var out []*Cond
	for _, a := range owner.PrimaryKey().Attrs() {
		out = append(out, &Cond{Attr: derived.Attr(a.Name), Pos: pos, Op: OpEq, Read: true})
	}
	return out
}

// ownedWhen is the condition of a step that writes over or deletes an
// item of derived read for owner: it is the owner's (ownerHeld), or
// there is none (an item written before derived was declared), never
// another item's.
func ownedWhen(derived, owner *Entity, pos Pos) []*Cond {
	held := ownerHeld(derived, owner, pos)
	return []*Cond{{Pos: pos, Or: [][]*Cond{{{Attr: held[0].Attr, Pos: pos, Op: OpNotExists}}, held}}}
}

func copyNames(e *Entity) string { return joinNames(e.Copies, func(c *Copy) string { return c.Name }) }

// transactionDerived refuses the steps of transaction p that write an
// entity with copies or items per element: a transaction's step writes
// one item, and they are written with it by the entity's own patterns.
func (r *resolver) transactionDerived(p *Pattern) {
	for _, st := range p.Steps {
		e := st.Entity()
		if st.Op == OpCheck || st.Op == OpGet {
			continue
		}
		what, why := "", ""
		switch {
		case len(e.Copies) > 0:
			what, why = "copies ("+copyNames(e)+")", "the copies are written with the item by the entity's own patterns"
		case len(e.Each) > 0:
			what, why = "items per element ("+eachNames(e)+")", "the element items are written with the item by the entity's own patterns, one per element"
		default:
			continue
		}
		r.errorf(st.OpPos, "step %d of %s %s: %s %s, which has %s, is not supported in a transaction: %s; use its own %s pattern", st.Index+1, p.Op, p.Name, st.Op, e.Name, what, why, st.Op)
	}
}

// patternCopy resolves the copy a get reads (copy:).
func (r *resolver) patternCopy(p *Pattern, sp *spec.Pattern) {
	if !sp.Copy.Set {
		return
	}
	e := p.Entity()
	if p.Op != OpGet {
		return // copy applies to get only: reported with the pattern's keys
	}
	for _, c := range e.Copies {
		if c.Name == sp.Copy.Value {
			switch {
			case sp.Index.Set:
				r.errorf(sp.Copy.Pos, "pattern %s reads copy %s of %s, a GetItem by the copy's key; remove index", p.Name, c.Name, e.Name)
			case len(sp.By) > 0:
				r.errorf(sp.Copy.Pos, "pattern %s reads copy %s of %s by the attributes of the copy's key; remove by", p.Name, c.Name, e.Name)
			default:
				p.Copy, p.CopyPos = c, sp.Copy.Pos
			}
			return
		}
	}
	var known []string
	for _, c := range e.Copies {
		known = append(known, c.Name)
	}
	if len(known) == 0 {
		r.errorf(sp.Copy.Pos, "pattern %s reads copy %q of %s, which has no copies", p.Name, sp.Copy.Value, e.Name)
		return
	}
	r.errorf(sp.Copy.Pos, "pattern %s reads copy %q, which is not a copy of %s%s", p.Name, sp.Copy.Value, e.Name, nearest(sp.Copy.Value, known))
}

package model

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dyngen/dyngen/spec"
)

// Each is an item written per element of a set attribute of an entity
// (each:): a tag item per tag, so that "parcels with tag T" is a Query.
// The items are those of the hidden entity Entity, named as the entry
// (ParcelTags), holding the element (an attribute named as the set, of
// the element's type), the owner's primary-key attributes and the listed
// attributes, keyed by the entry's templates: the collision check proves
// them apart from every other item.
type Each struct {
	Owner *Entity
	// Name is the entry's name (ParcelTags), Pos its entry.
	Name string
	Pos  Pos
	// Of is the owner's set attribute, with maxItems.
	Of *Attribute
	// Attrs are the listed attributes of the owner the items also hold.
	Attrs []*Attribute
	// Entity is the hidden entity of the element items.
	Entity *Entity
}

// EachTypeValue is the value an element item's entity attribute holds:
// Parcel@each.ParcelTags, which no spec entity's name, nor a copy's type
// value, can be.
func EachTypeValue(e *Entity, name string) string { return e.TypeValue + "@each." + name }

// EachActions is the most actions a write of the owner of ea can send
// for its element items: an update that replaces the whole set deletes
// up to maxItems items and writes up to maxItems.
func EachActions(ea *Each) int { return 2 * ea.Of.MaxItems }

// The roles of the steps of items per element, apart from those of
// unique.go, count.go (from 100) and copy.go (from 200).
const (
	// EachPutStep writes the item of one element (a put: over the
	// element's item, if any, as it must now read).
	EachPutStep StepRole = 300 + iota
	// EachDeleteStep deletes the item of one element read.
	EachDeleteStep
)

// action names a step writing an element item, as the generated docs
// and errors say it: "put each Parcel.ParcelTags".
func (ea *Each) action(role StepRole) string {
	if role == EachDeleteStep {
		return "delete each " + ea.Owner.Name + "." + ea.Name
	}
	return "put each " + ea.Owner.Name + "." + ea.Name
}

// Read are the owner's attributes a write of it reads and conditions
// on, so that the element items it writes hold what the owner holds:
// the set, then the listed attributes (a put or an update: the items
// it writes take the values it does not set from the item read).
func (ea *Each) Read() []*Attribute { return append([]*Attribute{ea.Of}, ea.Attrs...) }

// eachWith refuses, at its first each entry, an entity whose items per
// element dyngen can't yet keep with what else its writes keep.
func (r *resolver) eachWith(e *Entity, se *spec.Entity) bool {
	pos := se.Each[0].Name.Pos
	why := ""
	switch {
	case len(se.Unique) > 0:
		why = "unique values; dyngen does not yet write both in one transaction: remove one"
	case len(se.Counts) > 0:
		why = "counts; dyngen does not yet write both in one transaction: remove one"
	case len(se.Copies) > 0:
		why = "copies; dyngen does not yet write both in one transaction: remove one"
	case e.TTLAttr() != nil:
		why = fmt.Sprintf("stores its table's ttl attribute (%s): DynamoDB deletes an expired item and its element items at different times, and a query by element would find the items of an expired %s; remove each, or store the time to live under another name", e.TTLAttr().Name, e.Name)
	}
	if why != "" {
		r.errorf(pos, "%s has items per element and %s", e.Name, why)
		return false
	}
	return true
}

// each checks the entries of entity e's each and returns the spec of the
// hidden entity of each, for the resolver to resolve as it does the
// spec's own entities (names, type value, attributes, keys and the
// collision check).
func (r *resolver) each(e *Entity, se *spec.Entity, eachs map[*spec.Entity]*Each) []*spec.Entity {
	if len(se.Each) == 0 || len(e.Keys) == 0 || e.Table == nil || r.m.broken[e] || !r.eachWith(e, se) {
		return nil
	}
	specAttr := func(name string) *spec.Attribute {
		for _, sa := range se.Attributes {
			if sa.Name.Value == name {
				return sa
			}
		}
		return nil
	}
	var out []*spec.Entity
	var first *Each
	for _, sea := range se.Each {
		name := sea.Name.Value
		what := fmt.Sprintf("each %s of %s", name, e.Name)
		if !copyName.MatchString(name) {
			r.errorf(sea.Name.Pos, "each name %q of %s must be a letter then letters, digits or underscores", name, e.Name)
			continue
		}
		of := e.Attr(sea.Of.Value)
		switch t := e.Table; {
		case of == nil:
			r.errorf(sea.Of.Pos, "%s: of names %q, which is not an attribute of %s%s", what, sea.Of.Value, e.Name, nearest(sea.Of.Value, entityAttrNames(e)))
			continue
		case of.Type != StringSet && of.Type != IntSet:
			r.errorf(sea.Of.Pos, "%s: of names %s, which is %s; an item is written per element of a stringSet or intSet", what, of.Name, of.Describe())
			continue
		case of.MaxItems == 0:
			r.errorf(sea.Of.Pos, "%s: %s is a set with no maxItems, and every element's item is written in the transaction of every write of %s, which takes at most %d actions; declare the most elements: maxItems: <n>", what, of.Name, e.Name, MaxTransactionActions)
			continue
		case 1+2*of.MaxItems > MaxTransactionActions:
			r.errorf(sea.Of.Pos, "%s: an update replacing the whole of %s (maxItems %d) deletes and writes up to %d element items with the %s, %d actions, and DynamoDB takes at most %d in a transaction: lower maxItems to %d", what, of.Name, of.MaxItems, 2*of.MaxItems, e.Name, 1+2*of.MaxItems, MaxTransactionActions, (MaxTransactionActions-1)/2)
			continue
		case !sea.PK.Set:
			r.errorf(sea.Name.Pos, "%s gives no pk; an element item is keyed on the table's own key attributes: add pk", what)
			continue
		case t.SK != nil && !sea.SK.Set:
			r.errorf(sea.Name.Pos, "%s gives no sk, and table %s has sort key %s: add sk", what, t.Name, t.SK.Name)
			continue
		case t.SK == nil && sea.SK.Set:
			r.errorf(sea.SK.Pos, "%s gives an sk, and table %s has no sort key: remove sk", what, t.Name)
			continue
		case first != nil && of != first.Of:
			r.errorf(sea.Of.Pos, "%s is of %s, and each %s of %s: dyngen writes the items per element of one set of an entity (each write conditions on the set read, and a set read empty needs a step of its own); keep the entries of one set", what, of.Name, first.Name, first.Of.Name)
			continue
		}
		ea := &Each{Owner: e, Name: name, Pos: sea.Name.Pos, Of: of}
		// The element: the set's attribute, of the element's type.
		elem := *specAttr(of.Name)
		elem.Type.Value, elem.Short = string(String), false
		if of.Type == IntSet {
			elem.Type.Value = string(Int)
		}
		elem.Optional, elem.Default, elem.MaxItems = spec.Bool{}, nil, spec.Int{}
		attrs := []*spec.Attribute{&elem}
		held := []*Attribute{of}
		for _, a := range e.PrimaryKey().Attrs() {
			if oa := e.Attr(a.Name); oa != nil && !slices.Contains(held, oa) {
				held = append(held, oa)
				attrs = append(attrs, specAttr(oa.Name))
			}
		}
		ok := true
		for _, n := range sea.Attributes {
			a := e.Attr(n.Value)
			switch {
			case a == nil:
				r.errorf(n.Pos, "%s lists %q, which is not an attribute of %s%s", what, n.Value, e.Name, nearest(n.Value, entityAttrNames(e)))
				ok = false
			case a == of:
				r.errorf(n.Pos, "%s lists %s, the set itself; an element item holds its one element, under the set's name: remove it", what, a.Name)
				ok = false
			case slices.Contains(held, a):
				r.errorf(n.Pos, "%s lists %s, of %s's primary key, which an element item holds already: remove it", what, a.Name, e.Name)
				ok = false
			case e.Managed(a):
				r.errorf(n.Pos, "%s lists %s, which the Store sets as it writes the %s; an element item holds the caller's attributes: remove it", what, a.Name, e.Name)
				ok = false
			case a.Type != String && a.Type != Enum && a.Type != Int && a.Type != Bool:
				r.errorf(n.Pos, "%s lists %s, which is %s; a write compares the value read with the new one to tell whether the element items change, which dyngen does for a string, enum, int or bool: remove it", what, a.Name, a.Describe())
				ok = false
			case a.Optional:
				r.errorf(n.Pos, "%s lists %s, which is optional; every write of the %s holds only while the item still holds the value read, and an absent value is no value to compare: make %s required, or remove it", what, a.Name, e.Name, a.Name)
				ok = false
			case a.Default != nil:
				r.errorf(n.Pos, "%s lists %s, which has a default: an item stored without it reads the default, and a write conditioned on the value read would never hold on it; remove the default, or remove %s", what, a.Name, a.Name)
				ok = false
			default:
				held = append(held, a)
				ea.Attrs = append(ea.Attrs, a)
				attrs = append(attrs, specAttr(a.Name))
			}
		}
		// An attribute stored under a key attribute of the table or of
		// an index (a natural key) would fill that key on the element
		// item too: the item's key is its entry's templates, and it is
		// in no secondary index.
		for _, a := range held {
			for _, ix := range e.Table.Indexes {
				if (ix.PK != nil && ix.PK.Name == a.Stored) || (ix.SK != nil && ix.SK.Name == a.Stored) {
					r.errorf(sea.Name.Pos, "%s: its item would hold %s, which %s stores under %s, a key attribute of %s; an element item is keyed by its entry's templates only: store %s under another name (attr:)", what, a.Name, e.Name, a.Stored, keyOwner(e.Table, ix), a.Name)
					ok = false
				}
			}
		}
		if !ok {
			continue
		}
		str := func(v string) spec.Str { return spec.Str{Value: v, Pos: sea.Name.Pos, Set: true} }
		es := &spec.Entity{
			Name:       sea.Name,
			Pos:        sea.Pos,
			Doc:        str(fmt.Sprintf("%s is an item per element of %s of a %s: the element, the %s's primary-key attributes and %s. dyngen writes it with the %s.", name, of.Name, e.Name, e.Name, listedNames(ea), e.Name)),
			Table:      str(e.Table.Name),
			TypeValue:  str(EachTypeValue(e, name)),
			Attributes: attrs,
			Keys:       []*spec.Keys{{Index: str(PrimaryName), Pos: sea.Pos, PK: sea.PK, SK: sea.SK}},
		}
		e.Each = append(e.Each, ea)
		if first == nil {
			first = ea
		}
		eachs[es] = ea
		out = append(out, es)
		if n := 1 + eachActions(e); len(e.Each) > 1 && n > MaxTransactionActions {
			r.errorf(sea.Name.Pos, "%s: with it, an update replacing the whole of %s (maxItems %d) deletes and writes up to %d element items of %d entries with the %s, %d actions, and DynamoDB takes at most %d in a transaction: lower maxItems, or remove an entry", what, of.Name, of.MaxItems, n-1, len(e.Each), e.Name, n, MaxTransactionActions)
		}
	}
	return out
}

// eachActions is the most actions a write of e can send for its element
// items: an update that replaces the whole set deletes up to maxItems
// items of each entry and writes up to maxItems.
func eachActions(e *Entity) int {
	n := 0
	for _, ea := range e.Each {
		n += EachActions(ea)
	}
	return n
}

func listedNames(ea *Each) string {
	if len(ea.Attrs) == 0 {
		return "no other attribute"
	}
	var names []string
	for _, a := range ea.Attrs {
		names = append(names, a.Name)
	}
	return strings.Join(names, ", ")
}

func entityAttrNames(e *Entity) []string {
	var out []string
	for _, a := range e.Attributes {
		out = append(out, a.Name)
	}
	return out
}

// eachKeys checks the key of the hidden entity ee of an each entry, once
// resolved: it is built from the element, and the element item is in no
// secondary index.
func (r *resolver) eachKeys(ee *Entity) {
	ea := ee.EachOf
	if len(ee.Keys) == 0 {
		return
	}
	held := ee.PrimaryKey().Attrs()
	if !slices.Contains(held, ee.Attr(ea.Of.Name)) {
		r.errorf(ea.Pos, "each %s of %s: its key does not hold the element ({%s}), so every element of a %s would be written to one item: put {%s} in pk or sk", ea.Name, ea.Owner.Name, ea.Of.Name, ea.Owner.Name, ea.Of.Name)
	}
	var missing []string
	for _, a := range ea.Owner.PrimaryKey().Attrs() {
		if !slices.Contains(held, ee.Attr(a.Name)) {
			missing = append(missing, "{"+a.Name+"}")
		}
	}
	if len(missing) > 0 {
		r.errorf(ea.Pos, "each %s of %s: its key does not hold %s of the %s's primary key, so two %ss holding one element would write one item: put %s in pk or sk", ea.Name, ea.Owner.Name, strings.Join(missing, ", "), ea.Owner.Name, ea.Owner.Name, strings.Join(missing, ", "))
	}
	// A listed attribute in the key would move the items when it
	// changes, and a write puts them under the new key without deleting
	// those under the old one.
	for _, a := range held {
		oa := ea.Owner.Attr(a.Name)
		if a.Name != ea.Of.Name && !slices.Contains(ea.Owner.PrimaryKey().Attrs(), oa) {
			r.errorf(ea.Pos, "each %s of %s: its key holds {%s}, which is not the element nor of the %s's primary key; an element item's key is built from those only (a write that changes %s would leave the items under the old key): remove {%s} from pk and sk (list it in attributes to read it)", ea.Name, ea.Owner.Name, a.Name, ea.Owner.Name, a.Name, a.Name)
		}
	}
	for _, k := range ee.Keys {
		if k.Index.IsPrimary() || k.Index.Inverted {
			continue
		}
		r.errorf(ea.Pos, "each %s of %s would be in index %s, whose key attributes the owner's attributes fill; an element item is in no secondary index: store those attributes under other names (attr:)", ea.Name, ea.Owner.Name, k.Index.Name)
	}
}

// keyOwner names the table or index whose key attribute a message names.
func keyOwner(t *Table, ix *Index) string {
	if ix.IsPrimary() {
		return "table " + t.Name
	}
	return "index " + ix.Name
}

// eachWrites plans, in the model, the steps of a write of an entity with
// items per element: the write and the element items it writes and
// deletes, in one TransactWriteItems, each element item's step sent once
// per element (the plan decides which). It refuses the writes that can't
// keep the items.
func (r *resolver) eachWrites(p *Pattern) {
	e := p.Entity()
	of := e.Each[0].Of
	var read []*Attribute
	for _, ea := range e.Each {
		for _, a := range ea.Read() {
			if !slices.Contains(read, a) {
				read = append(read, a)
			}
		}
	}
	var steps []*Step
	why, pos := "", p.OpPos
	own := func() *Step {
		st := r.ownStep(p, nil)
		for _, a := range read {
			if p.Op != OpDelete || a == of {
				st.When = append(st.When, &Cond{Attr: a, Pos: e.Each[0].Pos, Op: OpEq, Read: true})
			}
		}
		return st
	}
	// empty is own, over an item whose set was read empty.
	empty := func() *Step { return emptied(own(), of) }
	items := func(role StepRole) {
		for _, ea := range e.Each {
			steps = append(steps, eachStep(p, ea, role))
		}
	}
	switch p.Op {
	case OpBatchPut, OpBatchDelete:
		why = "BatchWriteItem sends no transaction, so it can't write the element items with the item; use create, put and delete"
	case OpCreate:
		steps = append(steps, r.ownStep(p, nil))
		items(EachPutStep)
	case OpPut:
		steps = append(steps, own())
		if e.Version == nil {
			// A put of a versioned entity writes over the version read,
			// and never creates the item (ErrNotFound).
			steps = append(steps, r.absentStep(p))
		}
		steps = append(steps, empty())
		items(EachDeleteStep)
		items(EachPutStep)
	case OpDelete:
		if p.Many != "" {
			why, pos = eachMany, p.ManyPos
			break
		}
		steps = append(steps, own(), empty())
		items(EachDeleteStep)
	case OpUpdate:
		for _, a := range p.AddAttrs() {
			if slices.Contains(read, a) {
				why = fmt.Sprintf("it adds to %s, which the element items hold, unseen; set it instead", a.Name)
			}
		}
		for _, a := range append(slices.Clone(p.Remove), p.RemoveFrom...) {
			if slices.Contains(read, a) {
				why = fmt.Sprintf("it removes %s, or elements of it, which the element items hold, unseen; set it instead", a.Name)
			}
		}
		sets := slices.ContainsFunc(p.SetAttrs(), func(a *Attribute) bool { return slices.Contains(read, a) })
		switch {
		case why != "":
		case !sets:
			return // the element items stay: a plain UpdateItem
		case p.Upsert:
			why = "an upsert may create the item unseen, without its element items; remove upsert, or create the item first"
		case p.Many != "":
			why, pos = eachMany, p.ManyPos
		}
		if why != "" {
			break
		}
		steps = append(steps, own(), empty())
		if slices.Contains(p.SetAttrs(), of) {
			items(EachDeleteStep)
			items(EachPutStep)
			break
		}
		// The set stays: the items of the entries whose listed
		// attributes the update sets are rewritten.
		for _, ea := range e.Each {
			if slices.ContainsFunc(ea.Attrs, func(a *Attribute) bool { return slices.Contains(p.SetAttrs(), a) }) {
				steps = append(steps, eachStep(p, ea, EachPutStep))
			}
		}
	default:
		return
	}
	if why != "" {
		r.errorf(pos, "pattern %s: %s of %s, which has items per element (%s): %s", p.Name, p.Op, e.Name, eachNames(e), why)
		return
	}
	p.Steps = numberSteps(p, steps)
	if p.Op != OpCreate {
		p.ReadEach = e.Each
	}
}

// eachMany is why a write over many keys can't keep an entity's element
// items.
const eachMany = "the write reads the item first (GetItem), then writes it and its element items in one transaction, which no one request per key, and no one transaction of every key, can do; write each item with its own call"

// eachStep is the step of pattern p that writes (EachPutStep: a put) or
// deletes (EachDeleteStep) the item of one element of ea: the plan sends
// it once per element.
func eachStep(p *Pattern, ea *Each, role StepRole) *Step {
	op := OpPut
	if role == EachDeleteStep {
		op = OpDelete
	}
	st := derivedStep(p, ea.Entity, ea.Pos, op)
	st.Each, st.Role = ea, role
	return st
}

func eachNames(e *Entity) string { return joinNames(e.Each, func(ea *Each) string { return ea.Name }) }

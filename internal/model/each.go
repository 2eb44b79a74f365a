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

// EachNotYet is why an each entry is refused for now, by the plan once
// it has proven the element items' keys apart: the model checks the
// entry, and the plan and the generated code do not yet write the items.
const EachNotYet = "dyngen does not yet write items per element (the plan and the generated code of their steps are not built): remove each, or keep the items with a transaction of your own"

// each checks the entries of entity e's each and returns the spec of the
// hidden entity of each, for the resolver to resolve as it does the
// spec's own entities (names, type value, attributes, keys and the
// collision check).
func (r *resolver) each(e *Entity, se *spec.Entity, eachs map[*spec.Entity]*Each) []*spec.Entity {
	if len(se.Each) == 0 || len(e.Keys) == 0 || e.Table == nil || r.m.broken[e] {
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
		eachs[es] = ea
		out = append(out, es)
	}
	return out
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
	if !slices.Contains(ee.PrimaryKey().Attrs(), ee.Attr(ea.Of.Name)) {
		r.errorf(ea.Pos, "each %s of %s: its key does not hold the element ({%s}), so every element of a %s would be written to one item: put {%s} in pk or sk", ea.Name, ea.Owner.Name, ea.Of.Name, ea.Owner.Name, ea.Of.Name)
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

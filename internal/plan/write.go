package plan

import (
	"slices"
	"strings"

	"github.com/dyngen/dyngen/internal/model"
)

// primaryKey is the exact key of an entity's item on its table.
func primaryKey(e *model.Entity) *KeyCond {
	k := e.PrimaryKey()
	key := &KeyCond{Index: k.Index, PK: k.PK}
	if k.SK != nil {
		key.SK = SKCond{Kind: SKEq, Template: k.SK, Prefix: len(k.SK.Segments)}
	}
	return key
}

func (b *builder) batchGet(p *model.Pattern) *Pattern {
	e := p.Entity()
	pp := &Pattern{Pattern: p, Call: BatchGetItem, Form: FormBatchGet, Index: e.Table.Primary(), Key: primaryKey(e), Inputs: e.PrimaryKey().Attrs()}
	pp.Members = []*Member{{Entity: e, How: ByKey}}
	b.request(pp)
	b.cost(pp)
	return pp
}

// write plans put, create, update, delete and the batch writes.
func (b *builder) write(p *model.Pattern) *Pattern {
	e := p.Entity()
	pp := &Pattern{Pattern: p, Index: e.Table.Primary(), Key: primaryKey(e), Inputs: e.PrimaryKey().Attrs()}
	switch p.Op {
	case model.OpPut, model.OpCreate:
		pp.Call, pp.Form = PutItem, FormPut
		if p.Op == model.OpCreate {
			pp.Form = FormCreate
		}
		if p.Op == model.OpPut && e.Created != nil {
			// PutItem would write the caller's created time over the
			// stored one: an UpdateItem that sets every attribute
			// replaces the item as well, and keeps its created time.
			pp.Call, pp.Form = UpdateItem, FormReplace
			if !b.putCreatedKeys(p) {
				return nil
			}
		}
	case model.OpDelete:
		pp.Call, pp.Form = DeleteItem, FormDelete
	case model.OpUpdate:
		pp.Call, pp.Form = UpdateItem, FormUpdate
		if !b.update(pp) {
			return nil
		}
		b.upsertTTL(p)
	case model.OpBatchPut:
		pp.Call, pp.Form = BatchWriteItem, FormBatchPut
	case model.OpBatchDelete:
		pp.Call, pp.Form = BatchWriteItem, FormBatchDelete
	}
	b.request(pp)
	b.cost(pp)
	return pp
}

// putCreatedKeys refuses a put of an entity with an index key built from
// its created time that it could not keep right without reading the
// item: the put keeps a stored key with if_not_exists, as it keeps the
// stored time, which holds only when nothing else of the key can change
// (its other placeholders are the primary key's) and the item is in the
// index whenever it exists (no optional attribute decides it).
func (b *builder) putCreatedKeys(p *model.Pattern) bool {
	e := p.Entity()
	ok := true
	for _, k := range e.Keys[1:] {
		for i, tm := range k.AttrTemplates() {
			if !e.CreatedIn(tm) {
				continue
			}
			ka := k.Index.KeyAttrs()[i]
			var other []*model.Attribute
			for _, a := range tm.Attrs() {
				if a != e.Created && !slices.Contains(e.PrimaryKey().Attrs(), a) {
					other = append(other, a)
				}
			}
			switch {
			case len(other) > 0:
				b.errorf(p.OpPos, "put %s replaces the item, and %s=%q on %s holds %s, the created time a replaced item keeps without the put reading it, with %s, which the put may change; the put can't rebuild that key: build it from %s and the primary key's attributes only, or write with create and update", p.Name, ka.Name, tm.Source, k.Index.Name, e.Created.Name, names(other), e.Created.Name)
				ok = false
			case k.Sparse():
				b.errorf(p.OpPos, "put %s replaces the item, and %s=%q on %s holds %s, the created time a replaced item keeps without the put reading it, but an item is in %s only with %s, so a put could put a stored item in it without knowing its created time; make %s required, or write with create and update", p.Name, ka.Name, tm.Source, k.Index.Name, e.Created.Name, k.Index.Name, names(k.Presence()), names(k.Presence()))
				ok = false
			}
		}
	}
	return ok
}

// upsertTTL warns of an upsert of an entity that stores its table's ttl
// attribute and does not set it: over an expired item, which DynamoDB
// deletes only eventually, no condition can tell an update from a
// create, so the item is updated in place, keeps its ttl, and stays
// expired (absent to the other patterns).
func (b *builder) upsertTTL(p *model.Pattern) {
	a := p.Entity().TTLAttr()
	if !p.Upsert || a == nil || slices.Contains(p.SetAttrs(), a) || slices.Contains(p.Remove, a) {
		return
	}
	b.diags.Warnf(p.Pos, "pattern %s: an upsert of an expired %s (its %s at or before now, not yet deleted by DynamoDB) updates it in place: the item keeps its %s and stays expired; add %s to set", p.Name, p.Entity().Name, a.Name, a.Name, a.Name)
}

// update finds the index keys an update must rewrite and refuses one it
// can't rebuild from the pattern's inputs.
func (b *builder) update(pp *Pattern) bool {
	p := pp.Pattern
	e := p.Entity()
	ok := true
	// What the update knows: the primary key inputs and the set values,
	// parameters and constants.
	set := p.SetAttrs()
	known := slices.Clone(e.PrimaryKey().Attrs())
	known = append(known, set...)
	changed := append(append(append(slices.Clone(set), p.AddAttrs()...), p.Remove...), p.RemoveFrom...)
	// A key attribute two indexes share holds one template (the model's
	// rule), rebuilt once: an UpdateExpression may name an attribute once.
	rebuilt := map[string]bool{}
	for _, k := range e.Keys[1:] {
		// The optional attributes of the index's templates the update
		// changes decide whether the item is in the index: every key
		// attribute of it is rewritten or removed with them, one built
		// from the primary key alone too.
		var sparse []*model.Attribute
		for _, a := range k.Attrs() {
			if a.Optional && slices.Contains(changed, a) {
				sparse = append(sparse, a)
			}
		}
		leaves := slices.ContainsFunc(sparse, func(a *model.Attribute) bool { return slices.Contains(p.Remove, a) })
		for _, tm := range k.Templates() {
			ka := k.Index.PK
			if tm == k.SK {
				ka = k.Index.SK
			}
			if tm.Implied || rebuilt[ka.Name] {
				// A natural key is the attribute itself; a table key
				// attribute can't change in an update; a derived key's
				// templates are rebuilt for the index they are written
				// for.
				continue
			}
			var touched []*model.Attribute
			for _, a := range tm.Attrs() {
				if slices.Contains(changed, a) {
					touched = append(touched, a)
				}
			}
			if e.CreatedIn(tm) && (len(touched) > 0 || len(sparse) > 0 || p.Upsert) {
				if p.Upsert {
					b.errorf(p.Pos, "update %s has upsert: true, so it may create the item, and a new item's %s=%q on %s needs %s, the created time only a create writes; use create, or put", p.Name, ka.Name, tm.Source, k.Index.Name, e.Created.Name)
				} else {
					b.errorf(p.Pos, "update %s may rewrite %s=%q on %s, which holds %s, the created time the Store writes at create; the update does not read it, so it can't build that key: keep %s in a key with attributes the update does not change (the primary key's), or write with create and put", p.Name, ka.Name, tm.Source, k.Index.Name, e.Created.Name, e.Created.Name)
				}
				ok = false
				continue
			}
			if len(touched) == 0 && len(sparse) == 0 {
				if p.Upsert && !k.Sparse() && knowsAllOf(known, k) {
					// An upsert may create the item: it writes the keys
					// of every index it can build all of. Half of an
					// index's key would put the item in another index
					// keyed by that attribute alone.
					pp.Rebuild = append(pp.Rebuild, &Rebuild{Index: k.Index, KeyAttr: ka, Template: tm})
					rebuilt[ka.Name] = true
				}
				continue
			}
			rb := &Rebuild{Index: k.Index, KeyAttr: ka, Template: tm, Remove: leaves}
			for _, a := range sparse {
				if slices.Contains(p.Set, a) {
					rb.Sparse = append(rb.Sparse, a)
				}
			}
			added := false
			for _, a := range touched {
				if slices.Contains(p.Remove, a) {
					rb.Remove = true
				}
				if slices.Contains(p.AddAttrs(), a) {
					b.errorf(p.Pos, "update %s adds to %s, which %s=%q on %s holds; an atomic add gives no value to rebuild the key with, so use set", p.Name, a.Name, ka.Name, tm.Source, k.Index.Name)
					ok, added = false, true
				}
			}
			if !rb.Remove && !added {
				var missing, absent []*model.Attribute
				for _, a := range tm.Attrs() {
					if !slices.Contains(known, a) {
						missing = append(missing, a)
					}
				}
				// The item is in the index only with every key attribute:
				// where an optional attribute the update does not know
				// decides that, it can't tell whether to write this one.
				for _, a := range k.Presence() {
					if !slices.Contains(known, a) && !slices.Contains(missing, a) {
						absent = append(absent, a)
					}
				}
				changes := names(touched)
				if changes == "" {
					changes = "optional " + names(sparse)
				}
				switch {
				case len(missing) > 0 && len(touched) > 0:
					b.errorf(p.Pos, "update %s changes %s, so it must rewrite %s=%q on %s, which also needs %s; add %s to set", p.Name, names(touched), ka.Name, tm.Source, k.Index.Name, names(missing), names(missing))
					ok = false
				case len(missing) > 0:
					// The template holds nothing the update changes: an
					// optional attribute of another key of the index does.
					b.errorf(p.Pos, "update %s sets optional %s of the key of %s, so it must rewrite %s=%q too, for the item to be in %s with its whole key or not at all, which needs %s; add %s to set", p.Name, names(sparse), k.Index.Name, ka.Name, tm.Source, k.Index.Name, names(missing), names(missing))
					ok = false
				case len(absent) > 0:
					b.errorf(p.Pos, "update %s changes %s, so it must rewrite %s=%q on %s; but an item is in %s only when it holds %s, which the update does not know, and it can't write one key attribute of %s without the others (that would leave the item half in the index, and in any index keyed by %s alone); add %s to set", p.Name, changes, ka.Name, tm.Source, k.Index.Name, k.Index.Name, names(absent), k.Index.Name, ka.Name, names(absent))
					ok = false
				}
			}
			pp.Rebuild = append(pp.Rebuild, rb)
			rebuilt[ka.Name] = true
		}
	}
	if p.Upsert {
		var missing []string
		for _, a := range e.Attributes {
			if a.Optional || e.Managed(a) || slices.Contains(e.PrimaryKey().Attrs(), a) || slices.Contains(set, a) || slices.Contains(p.AddAttrs(), a) {
				continue
			}
			missing = append(missing, a.Name)
		}
		if len(missing) > 0 {
			b.errorf(p.Pos, "update %s has upsert: true, so it may create the item, but it gives no value for %s, which every %s has; add them to set or make them optional", p.Name, strings.Join(missing, ", "), e.Name)
			ok = false
		}
	}
	return ok
}

func names(as []*model.Attribute) string {
	var s []string
	for _, a := range as {
		s = append(s, a.Name)
	}
	return strings.Join(s, ", ")
}

// knowsAllOf reports whether every attribute of k's templates is in
// known.
func knowsAllOf(known []*model.Attribute, k *model.EntityKey) bool {
	return !slices.ContainsFunc(k.Templates(), func(tm *model.Template) bool { return !knowsAll(known, tm) })
}

// knowsAll reports whether every attribute of tm is in known.
func knowsAll(known []*model.Attribute, tm *model.Template) bool {
	for _, a := range tm.Attrs() {
		if !slices.Contains(known, a) {
			return false
		}
	}
	return true
}

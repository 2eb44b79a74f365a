package compat

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dyngen/dyngen/internal/lock"
	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/plan"
)

// Backfills returns the backfills of the design, for the lock a
// generation writes: each backfill of lock old, its entity and index as
// the model names them now, then one pending per finding of r that a
// backfill makes safe (Finding.Backfill) and the spec does not accept.
// A finding whose backfill old holds pending already adds none; one
// whose backfill old holds done asks for it again (the design changed
// what it writes), pending. A backfill of old whose entity, index or
// version is gone is left out, and said in gone; so is a pending
// backfill of an attribute that no longer says backfill: compute. An
// attribute that says it and has no backfill yet gets one, pending,
// when the lock holds its entity (items of it may lack it); idle lists
// those whose entity the lock does not hold (no item is stored before
// this design).
func Backfills(old *lock.Lock, r *Result, m *model.Model) (bs []*model.Backfill, gone []string, idle []*model.Attribute) {
	c := &checker{old: old, m: m}
	byID := map[string]*model.Backfill{}
	// dropped are the computed backfills dropped; fresh, those this
	// generation asks for (new, or pending again).
	var dropped []*model.Backfill
	fresh := map[*model.Backfill]bool{}
	// add adds a backfill like nb, pending, to bs, under an id of its
	// own: fresh.
	add := func(nb *model.Backfill) {
		b := new(*nb)
		b.State = model.BackfillPending
		if byID[b.ID] != nil {
			// Another backfill has the id already (an index and a unique
			// attribute of one name): this one's says its kind.
			b.ID += "." + string(b.Kind)
		}
		byID[b.ID] = b
		fresh[b] = true
		bs = append(bs, b)
	}
	for _, ob := range old.Backfills {
		b := &model.Backfill{ID: ob.ID, Kind: model.BackfillKind(ob.Kind), State: ob.State, Checked: ob.Checked, What: ob.What, Finding: ob.Finding}
		b.Entity = c.entityFor(ob.Entity)
		switch {
		case b.Entity == nil || b.Entity.Table == nil:
			gone = append(gone, fmt.Sprintf("backfill %s (%s): entity %s is gone", ob.ID, ob.State, ob.Entity))
			continue
		case b.Kind == model.IndexKeys:
			b.Index = c.indexFor(b.Entity.Table, ob.Index)
			if b.Index == nil || b.Entity.Key(b.Index) == nil {
				gone = append(gone, fmt.Sprintf("backfill %s (%s): %s is no longer keyed on index %s", ob.ID, ob.State, ob.Entity, ob.Index))
				continue
			}
			if b.Index.Multi() {
				// A multi-attribute key is the items' own attributes:
				// no key of the index to write.
				gone = append(gone, fmt.Sprintf("backfill %s (%s): index %s has a multi-attribute key, made of the items' own attributes, which no index-keys backfill writes", ob.ID, ob.State, b.Index.Name))
				continue
			}
		case b.Kind == model.UniqueClaims:
			if b.Unique = uniqueOf(b.Entity, ob.Attributes); b.Unique == nil {
				gone = append(gone, fmt.Sprintf("backfill %s (%s): %s of %s is no longer unique", ob.ID, ob.State, strings.Join(ob.Attributes, "+"), ob.Entity))
				continue
			}
		case b.Kind == model.Computed:
			b.Attr = attrOf(b.Entity, ob.Attributes)
			switch {
			case b.Attr == nil:
				gone = append(gone, fmt.Sprintf("backfill %s (%s): %s of %s is gone", ob.ID, ob.State, strings.Join(ob.Attributes, "+"), ob.Entity))
				continue
			case !b.Attr.Compute && b.Pending():
				gone = append(gone, fmt.Sprintf("backfill %s (%s): %s of %s no longer says backfill: %s", ob.ID, ob.State, b.Attr.Name, b.Entity.Name, model.Computed))
				dropped = append(dropped, b)
				continue
			}
		case b.Kind == model.InitialVersion:
			if b.Entity.Version == nil {
				gone = append(gone, fmt.Sprintf("backfill %s (%s): %s has no version any more", ob.ID, ob.State, ob.Entity))
				continue
			}
		default:
			gone = append(gone, fmt.Sprintf("backfill %s (%s): of kind %q, which this dyngen does not run", ob.ID, ob.State, ob.Kind))
			continue
		}
		if b.State != model.BackfillDone {
			b.State = model.BackfillPending
		}
		byID[b.ID] = b
		bs = append(bs, b)
	}
	// The keys of an index built from a computed attribute whose backfill
	// is dropped: their backfill, asked for with it, goes with it.
	for _, d := range dropped {
		bs = slices.DeleteFunc(bs, func(x *model.Backfill) bool {
			if x.Kind != model.IndexKeys || x.Entity != d.Entity || x.Finding != d.Finding || !x.Pending() {
				return false
			}
			if _, from := plan.IndexKeyWrites(x.Entity, x.Index); !slices.Contains(from, d.Attr) {
				return false
			}
			gone = append(gone, fmt.Sprintf("backfill %s (%s): it came with %s, dropped", x.ID, x.State, d.ID))
			delete(byID, x.ID)
			return true
		})
	}
	accepted := map[*model.Attribute]bool{}
	for _, f := range r.Findings {
		nb := f.Backfill
		if nb != nil && f.Accepted != "" && nb.Attr != nil {
			accepted[nb.Attr] = true
		}
		if nb == nil || f.Accepted != "" {
			continue
		}
		// The backfill of the same thing (the entity, the index or the
		// unique value), under the id the lock gave it (an entity or
		// index renamed since keeps it).
		var b *model.Backfill
		for _, x := range bs {
			if x.Kind == nb.Kind && x.Entity == nb.Entity && x.Index == nb.Index && x.Unique == nb.Unique && x.Attr == nb.Attr {
				b = x
			}
		}
		if b != nil {
			if b.State == model.BackfillDone {
				b.State, b.Checked, b.Kind, b.Index, b.Unique, b.Finding = model.BackfillPending, 0, nb.Kind, nb.Index, nb.Unique, nb.Finding
				fresh[b] = true
			}
			continue
		}
		add(nb)
	}
	// An attribute that says backfill: compute with no finding (one the
	// lock holds already, optional: a ttl given to the items stored
	// before) is computed too, once: a backfill of it done stays done.
	for _, e := range m.Entities {
		for _, a := range e.Attributes {
			if !a.Compute || accepted[a] || slices.ContainsFunc(bs, func(b *model.Backfill) bool { return b.Kind == model.Computed && b.Attr == a }) {
				continue
			}
			if !c.stored(e) {
				idle = append(idle, a)
				continue
			}
			add(&model.Backfill{ID: e.Name + "." + a.Name, Kind: model.Computed, Entity: e, Attr: a})
		}
	}
	// The keys of a secondary index built from an attribute this
	// generation asks to compute: the items it is computed for lack them
	// too, so they are a backfill of their own, pending (after it:
	// plan.AddBackfills). One carried from the lock keeps its state: a
	// receipt of it is not undone by the next generation.
	for _, b := range slices.Clone(bs) {
		if b.Kind != model.Computed || !fresh[b] {
			continue
		}
		e := b.Entity
		for _, k := range e.Keys[1:] {
			if writes, from := plan.IndexKeyWrites(e, k.Index); len(writes) == 0 || !slices.Contains(from, b.Attr) {
				continue
			}
			i := slices.IndexFunc(bs, func(x *model.Backfill) bool { return x.Kind == model.IndexKeys && x.Entity == e && x.Index == k.Index })
			if i >= 0 {
				bs[i].State, bs[i].Checked = model.BackfillPending, 0
				continue
			}
			add(&model.Backfill{ID: e.Name + "." + k.Index.Name, Kind: model.IndexKeys, Entity: e, Index: k.Index, Finding: b.Finding})
		}
	}
	return slices.Clip(bs), gone, idle
}

// stored reports whether the lock holds entity e (by its name, or the
// one it is renamed from): items of it may be stored.
func (c *checker) stored(e *model.Entity) bool {
	return slices.ContainsFunc(c.old.Entities, func(oe lock.Entity) bool { return c.entityFor(oe.Name) == e })
}

// attrOf is the attribute of e the lock's backfill names (attrs, one
// name): of that name, or renamed from it.
func attrOf(e *model.Entity, attrs []string) *model.Attribute {
	if len(attrs) != 1 {
		return nil
	}
	if a := e.Attr(attrs[0]); a != nil {
		return a
	}
	for _, a := range e.Attributes {
		if a.RenamedFrom.Name == attrs[0] {
			return a
		}
	}
	return nil
}

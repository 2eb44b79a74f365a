package compat

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dyngen/dyngen/internal/lock"
	"github.com/dyngen/dyngen/internal/model"
)

// Backfills returns the backfills of the design, for the lock a
// generation writes: each backfill of lock old, its entity and index as
// the model names them now, then one pending per finding of r that a
// backfill makes safe (Finding.Backfill) and the spec does not accept.
// A finding whose backfill old holds pending already adds none; one
// whose backfill old holds done asks for it again (the design changed
// what it writes), pending. A backfill of old whose entity, index or
// version is gone is left out, and said in gone.
func Backfills(old *lock.Lock, r *Result, m *model.Model) (bs []*model.Backfill, gone []string) {
	c := &checker{old: old, m: m}
	byID := map[string]*model.Backfill{}
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
		case b.Kind == model.UniqueClaims:
			if b.Unique = uniqueOf(b.Entity, ob.Attributes); b.Unique == nil || b.Unique.Each {
				gone = append(gone, fmt.Sprintf("backfill %s (%s): %s of %s is no longer unique", ob.ID, ob.State, strings.Join(ob.Attributes, "+"), ob.Entity))
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
	for _, f := range r.Findings {
		nb := f.Backfill
		if nb == nil || f.Accepted != "" {
			continue
		}
		// The backfill of the same thing (the entity, the index or the
		// unique value), under the id the lock gave it (an entity or
		// index renamed since keeps it).
		var b *model.Backfill
		for _, x := range bs {
			if x.Kind == nb.Kind && x.Entity == nb.Entity && x.Index == nb.Index && x.Unique == nb.Unique {
				b = x
			}
		}
		if b != nil {
			if b.State == model.BackfillDone {
				b.State, b.Checked, b.Kind, b.Index, b.Unique, b.Finding = model.BackfillPending, 0, nb.Kind, nb.Index, nb.Unique, nb.Finding
			}
			continue
		}
		b = new(*nb)
		b.State = model.BackfillPending
		if byID[b.ID] != nil {
			// Another backfill has the id already (an index and a unique
			// attribute of one name): this one's says its kind.
			b.ID += "." + string(b.Kind)
		}
		byID[b.ID] = b
		bs = append(bs, b)
	}
	return slices.Clip(bs), gone
}

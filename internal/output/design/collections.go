package design

import (
	"fmt"

	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/plan"
)

// The design document (outputs: design:) draws, per table, the item
// collections of every index: which entities share its partitions. What
// it draws, and the IDs of the diagram's nodes, are decided here;
// design.go only prints them. The IDs are made of positions (I1P0E2), so
// no two of them can be one and no name of the spec is in them.

// IndexCollections are the item collections of one index.
type IndexCollections struct {
	Index *model.Index
	// ID names the index in the Mermaid diagram of its table: "I" and
	// the index's position among the table's indexes (I0 the table's own
	// key).
	ID          string
	Collections []*ItemCollection
}

// ItemCollection is a set of entities whose items can share a partition
// of an index: their partition key templates have the same shape (the
// same literal text, placeholders of the same kind at the same places),
// so equal inputs give one partition key value. An entity alone in its
// partitions is a collection of one.
type ItemCollection struct {
	// ID names the collection in the Mermaid diagram: its index's ID,
	// "P" and its position among the index's collections (I1P0).
	ID string
	// Members are the collection's entities and their keys on the
	// index, in the table's entity order: the first's partition key
	// template stands for all.
	Members []CollectionMember
}

// CollectionMember is an entity of an item collection and its key on
// the collection's index.
type CollectionMember struct {
	// ID names the member in the Mermaid diagram: its collection's ID,
	// "E" and the entity's position among the table's entities (I1P0E2).
	ID     string
	Entity *model.Entity
	Key    *model.EntityKey
}

// ItemCollections returns the item collections of every index of table
// t, in index order; each collection's position is that of its first
// entity in the table's order.
func ItemCollections(t *model.Table) []*IndexCollections {
	var out []*IndexCollections
	for i, ix := range t.Indexes {
		ic := &IndexCollections{Index: ix, ID: fmt.Sprintf("I%d", i)}
		for j, e := range t.Entities {
			k := e.Key(ix)
			if k == nil {
				continue
			}
			var in *ItemCollection
			for _, c := range ic.Collections {
				if plan.SameShape(c.Members[0].Key.PK, k.PK) {
					in = c
					break
				}
			}
			if in == nil {
				in = &ItemCollection{ID: fmt.Sprintf("%sP%d", ic.ID, len(ic.Collections))}
				ic.Collections = append(ic.Collections, in)
			}
			in.Members = append(in.Members, CollectionMember{fmt.Sprintf("%sE%d", in.ID, j), e, k})
		}
		out = append(out, ic)
	}
	return out
}

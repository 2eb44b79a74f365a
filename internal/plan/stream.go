package plan

import (
	"slices"

	"github.com/dyngen/dyngen/internal/model"
)

// Stream is how the package reads a table's stream: every item the table
// holds (an entity of the spec's, or an item dyngen writes for one) told
// apart by its keys alone, so that a record of any view type, KEYS_ONLY
// too, names its entity. The collision check has proven the primary keys
// of any two entities apart, so at most one item's keys match a record's.
type Stream struct {
	Table *model.Table
	// Decode is the function that decodes a record; Kinds the variable
	// describing the items' keys to the runtime.
	Decode, Kinds string
	Items         []*StreamItem
	// Consumers are the consumers of the stream, in spec order.
	Consumers []*Consumer
}

// StreamItem is one kind of item of a table's stream and its keys.
type StreamItem struct {
	Entity *model.Entity
	// Own names what dyngen writes the item for (model.Entity.Own), ""
	// for an entity of the spec.
	Own string
	// Keys match the record's keys: one per key attribute of the table's
	// primary key, in order.
	Keys []*StreamKey
}

// StreamKey is what an item holds in one key attribute of the table.
type StreamKey struct {
	Attr *model.KeyAttr
	// Pattern is the regular expression of the values of a string key
	// attribute (model.Template.Pattern), whose groups hold Groups, the
	// entity's attributes, in order. It is "" for a number or binary key
	// attribute, whose value is one attribute's own (Whole).
	Pattern string
	Groups  []*model.Attribute
	Whole   *model.Attribute
	// Template is the entity's template of the key attribute.
	Template *model.Template
}

// Consumer is one consumer of a table's stream.
type Consumer struct {
	Consumer *model.Consumer
	// ViewType is the least view type that carries what the consumer
	// reads.
	ViewType string
	// Releases are its releases of expired items, one per entity it
	// releases (release.go).
	Releases []*Release
	// Filters are the event filters of the event source mapping of a
	// consumer with lambda:, which Lambda ORs (stream_filter.go): one
	// per entity it handles, or fewer that let more through
	// (FiltersMerged) when those would be more than an event source
	// mapping takes. Nil when the consumer has no lambda:, or when no
	// filter would leave a record out.
	Filters       []*Filter
	FiltersMerged bool
}

// streams plans the stream of every table that has one.
func streams(m *model.Model) []*Stream {
	var out []*Stream
	for _, t := range m.Tables {
		if t.Stream == "" {
			continue
		}
		s := &Stream{Table: t, Decode: m.DecodeFunc(t), Kinds: model.KindsVar(t)}
		for _, e := range t.Entities {
			if len(e.Keys) == 0 {
				continue
			}
			s.Items = append(s.Items, streamItem(e))
		}
		for _, c := range m.Consumers {
			if c.Table == t {
				pc := &Consumer{Consumer: c, ViewType: model.ViewTypeOf(c.Needs())}
				if len(c.Release) > 0 {
					pc.Releases = releases(c, receiptOf(m, t))
				}
				s.Consumers = append(s.Consumers, pc)
			}
		}
		filterConsumers(s)
		out = append(out, s)
	}
	return out
}

// receiptOf is the receipt entity of the releases of table t, or nil.
func receiptOf(m *model.Model, t *model.Table) *model.Entity {
	for _, e := range t.Entities {
		if e.ReceiptOf == t {
			return e
		}
	}
	return nil
}

// streamItem is how the keys of e's items look.
func streamItem(e *model.Entity) *StreamItem {
	it := &StreamItem{Entity: e, Own: e.Own()}
	k := e.PrimaryKey()
	tms := k.AttrTemplates()
	for i, ka := range k.Index.KeyAttrs() {
		tm := tms[i]
		sk := &StreamKey{Attr: ka, Template: tm}
		if ka.Type != model.S {
			// A number or binary key is one attribute's value.
			sk.Whole = tm.Segments[0].Attr
		} else {
			// A string key, natural too, is matched by its template's
			// language: a natural key of an enum, a date or a time is
			// no string of another.
			sk.Pattern = tm.Pattern()
			sk.Groups = tm.Attrs()
		}
		it.Keys = append(it.Keys, sk)
	}
	return it
}

// Stream returns the plan of table t's stream, or nil.
func (p *Plan) Stream(t *model.Table) *Stream {
	i := slices.IndexFunc(p.Streams, func(s *Stream) bool { return s.Table == t })
	if i < 0 {
		return nil
	}
	return p.Streams[i]
}

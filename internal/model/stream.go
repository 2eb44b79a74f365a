package model

import (
	"slices"
	"strings"

	"github.com/dyngen/dyngen/spec"
)

// The stream side of a package: a table's stream (Table.Stream) is
// decoded into typed changes, one type per entity of the table
// (ChangeType), and each consumer (consumers: of the spec) gets a handler
// interface with one method per entity and operation it handles, its
// dispatch and its Lambda function.

// Consumer is a consumer of a table's stream.
type Consumer struct {
	Name   string
	GoName string
	Doc    string
	Pos    Pos
	Table  *Table
	// On are the changes it handles: per entity in spec order, then per
	// operation in the order insert, modify, remove.
	On []*ConsumerOn
	// Release are the entities whose expired items' unique claims and
	// counts the consumer releases, in spec order; ReleasePos is where.
	Release    []*Entity
	ReleasePos Pos
	// Lambda holds the settings of the event source mapping the outputs
	// declare for the consumer's Lambda function; nil when not asked.
	Lambda *ConsumerLambda
}

// ConsumerLambda holds the settings of a consumer's event source
// mapping: BatchSize 0 for Lambda's default, StartingPosition
// TRIM_HORIZON or LATEST.
type ConsumerLambda struct {
	Pos              Pos
	BatchSize        int64
	StartingPosition string
}

// StreamOps are the operations of a stream record, as a consumer names
// them, in the order of the handler's methods.
var StreamOps = []string{"insert", "modify", "remove"}

// Image is what a consumer reads of an item on a change.
type Image int

const (
	ImageKeys Image = iota // the keys alone
	ImageNew               // the item as written
	ImageOld               // the item as it was
	ImageBoth              // both
)

// Images are the images' names in the spec, by Image.
var Images = []string{"keys", "new", "old", "both"}

func (im Image) String() string { return Images[im] }

// Old and New report whether the image holds the item as it was, and as
// written.
func (im Image) Old() bool { return im == ImageOld || im == ImageBoth }
func (im Image) New() bool { return im == ImageNew || im == ImageBoth }

// defaultImage is what an operation listed without its images reads:
// the item written for an insert or a modify, the item removed for a
// remove.
func defaultImage(op string) Image {
	if op == "remove" {
		return ImageOld
	}
	return ImageNew
}

// ConsumerOn is one operation on one entity a consumer handles.
type ConsumerOn struct {
	Entity *Entity
	Op     string
	Image  Image
	Pos    Pos
}

// Method is the handler's method of the change: the entity's Go name and
// the operation in the past tense (ReviewInserted, ReviewModified,
// ReviewRemoved).
func (o *ConsumerOn) Method() string {
	return o.Entity.GoName + map[string]string{"insert": "Inserted", "modify": "Modified", "remove": "Removed"}[o.Op]
}

// HandlerType is the interface a consumer's handler implements.
func (c *Consumer) HandlerType() string { return c.GoName + "Handler" }

// HandleFunc is the function that dispatches records to a handler.
func (c *Consumer) HandleFunc() string { return "Handle" + c.GoName }

// LambdaFunc is the function that makes a Lambda handler of a handler.
func (c *Consumer) LambdaFunc() string { return c.GoName + "Lambda" }

// Entities lists the entities c handles or releases, in spec order, each
// once.
func (c *Consumer) Entities() []*Entity {
	var out []*Entity
	for _, o := range c.On {
		if !slices.Contains(out, o.Entity) {
			out = append(out, o.Entity)
		}
	}
	for _, e := range c.Release {
		if !slices.Contains(out, e) {
			out = append(out, e)
		}
	}
	return out
}

// Releases reports whether c releases expired items: its functions then
// take the Store, which writes the releases.
func (c *Consumer) Releases() bool { return len(c.Release) > 0 }

// Handles reports whether c hands changes to a handler: it has a
// handler interface.
func (c *Consumer) Handles() bool { return len(c.On) > 0 }

// Needs reports whether c reads the item as it was (old) and as written
// (new) on some change.
func (c *Consumer) Needs() (old, new bool) {
	// A release reads what the expired item held.
	old = len(c.Release) > 0
	for _, o := range c.On {
		old = old || o.Image.Old()
		new = new || o.Image.New()
	}
	return old, new
}

// ViewTypeOf is the least stream view type that carries old and new
// items as asked.
func ViewTypeOf(old, new bool) string {
	switch {
	case old && new:
		return "NEW_AND_OLD_IMAGES"
	case old:
		return "OLD_IMAGE"
	case new:
		return "NEW_IMAGE"
	}
	return "KEYS_ONLY"
}

// Carries reports whether a stream of view type view carries what im
// reads.
func Carries(view string, im Image) bool {
	switch {
	case view == "":
		return false
	case im.Old() && view != "OLD_IMAGE" && view != "NEW_AND_OLD_IMAGES":
		return false
	case im.New() && view != "NEW_IMAGE" && view != "NEW_AND_OLD_IMAGES":
		return false
	}
	return true
}

// Own names what an entity dyngen derives holds (a unique claim, a
// counter, a copy, an element item, a backfill's checkpoint), or is ""
// for an entity of the spec.
func (e *Entity) Own() string {
	switch {
	case e.ClaimOf != nil:
		return "unique claim"
	case e.CountOf != nil:
		return "counter"
	case e.CopyOf != nil:
		return "copy"
	case e.EachOf != nil:
		return "element item"
	case e.CheckpointOf != nil:
		return "backfill checkpoint"
	case e.ReceiptOf != nil:
		return "release receipt"
	}
	return ""
}

// Streamed reports whether the package decodes the changes of e: an
// entity of the spec whose table has a stream.
func (e *Entity) Streamed() bool { return e.Table != nil && e.Table.Stream != "" && e.Own() == "" }

// ChangeType is the Go type of a change of an entity's item.
func (e *Entity) ChangeType() string { return e.GoName + "Change" }

// DecodeFunc is the function that decodes a record of t's stream:
// DecodeChange, or Decode<Table>Change in a spec of several tables.
func (m *Model) DecodeFunc(t *Table) string {
	if len(m.Tables) == 1 {
		return "DecodeChange"
	}
	return "Decode" + t.GoName + "Change"
}

// KindsVar is the variable describing the items of t's stream by their
// keys.
func KindsVar(t *Table) string { return ParamName(t.GoName) + "Kinds" }

// ChangeDecodeFunc is the function that decodes a record of an entity's
// item.
func ChangeDecodeFunc(e *Entity) string { return "decode" + e.GoName + "Change" }

// ConsumerRecordFunc is the function that hands one record to a
// consumer's handler.
func ConsumerRecordFunc(c *Consumer) string { return ParamName(c.GoName) + "Record" }

// ReleaseFunc is the Store's method that releases what an expired item
// of e held, for consumer c.
func ReleaseFunc(c *Consumer, e *Entity) string { return "release" + c.GoName + e.GoName }

// StreamKeyFunc is the function that reads an entity's primary key from a
// record's keys.
func StreamKeyFunc(e *Entity) string { return ParamName(e.GoName) + "StreamKey" }

// Streams reports whether some table of m has a stream.
func (m *Model) Streams() bool {
	return slices.ContainsFunc(m.Tables, func(t *Table) bool { return t.Stream != "" })
}

// consumers resolves the spec's consumers.
func (r *resolver) consumers() {
	defer func() { r.part = nil }()
	byGo := map[string]*Consumer{}
	for _, sc := range r.f.Consumers {
		c := &Consumer{Name: sc.Name.Value, GoName: GoName(sc.Name.Value), Doc: sc.Doc.Value, Pos: sc.Pos}
		r.part = c
		what := "consumer " + c.Name
		switch other := byGo[c.GoName]; {
		case c.GoName == "" || !IsExported(c.GoName):
			r.errorf(sc.Name.Pos, "consumer name %q gives no Go name; start it with a letter", c.Name)
		case other != nil:
			r.errorf(sc.Name.Pos, "consumers %s and %s have the same Go name %s; rename one", other.Name, c.Name, c.GoName)
		default:
			byGo[c.GoName] = c
		}
		first := r.consumerOn(c, sc, what)
		if rel := r.consumerRelease(c, sc, what); first == nil {
			first = rel
		}
		if sc.Table.Set || first == nil {
			c.Table = r.table(sc.Table, sc.Pos, what)
		} else {
			c.Table = first.Table
		}
		if c.Table == nil {
			r.m.Consumers = append(r.m.Consumers, c)
			continue
		}
		for _, e := range c.Release {
			if e.Table != c.Table {
				r.errorf(c.ReleasePos, "%s reads table %s's stream, and entity %s is stored in table %s; a consumer reads one table's stream: release %s's items in a consumer of its own", what, c.Table.Name, e.Name, e.Table.Name, e.Name)
			}
		}
		for _, o := range c.On {
			if o.Entity.Table != c.Table {
				r.errorf(o.Pos, "%s reads table %s's stream, and entity %s is stored in table %s; a consumer reads one table's stream: name %s's changes in a consumer of its own", what, c.Table.Name, o.Entity.Name, o.Entity.Table.Name, o.Entity.Name)
			}
		}
		if sc.Lambda != nil {
			l := &ConsumerLambda{Pos: sc.Lambda.Pos, StartingPosition: "TRIM_HORIZON"}
			if b := sc.Lambda.BatchSize; b.Set {
				if b.Value < 1 || b.Value > 10000 {
					r.errorf(b.Pos, "batchSize of %s is %d; a DynamoDB stream's event source mapping takes 1 to 10000 records a batch", what, b.Value)
				}
				l.BatchSize = b.Value
			}
			if s := sc.Lambda.StartingPosition; s.Set {
				if s.Value != "TRIM_HORIZON" && s.Value != "LATEST" {
					r.errorf(s.Pos, "startingPosition of %s is %q; use TRIM_HORIZON (the oldest record the stream holds) or LATEST", what, s.Value)
				}
				l.StartingPosition = s.Value
			}
			c.Lambda = l
		}
		r.m.Consumers = append(r.m.Consumers, c)
	}
	r.part = nil
	r.consumerViews()
}

// consumerOn resolves the changes a consumer handles, and returns the
// first entity it names that the spec defines, or nil.
func (r *resolver) consumerOn(c *Consumer, sc *spec.Consumer, what string) *Entity {
	var first *Entity
	if len(sc.On) == 0 && len(sc.Release) == 0 {
		r.errorf(sc.OnPos, "%s handles no change; list under on: an entity and its operations (insert, modify, remove), or under release: the entities whose expired items it releases", what)
	}
	for _, so := range sc.On {
		e := r.entity(so.Entity)
		if e == nil {
			continue
		}
		if first == nil {
			first = e
		}
		if own := e.Own(); own != "" {
			r.errorf(so.Entity.Pos, "%s names %s, the %s items dyngen writes for the spec's entities; a consumer handles the spec's own entities", what, e.Name, own)
			continue
		}
		var ons []*ConsumerOn
		for _, sop := range so.Ops {
			op := sop.Op.Value
			if !slices.Contains(StreamOps, op) {
				r.errorf(sop.Op.Pos, "%s: %q is no operation of a stream record; use insert, modify or remove%s", what, op, nearest(op, StreamOps))
				continue
			}
			if slices.ContainsFunc(ons, func(o *ConsumerOn) bool { return o.Op == op }) {
				r.errorf(sop.Op.Pos, "%s lists %s of %s twice", what, op, e.Name)
				continue
			}
			o := &ConsumerOn{Entity: e, Op: op, Image: defaultImage(op), Pos: sop.Op.Pos}
			if sop.Image.Set {
				i := slices.Index(Images, sop.Image.Value)
				if i < 0 {
					r.errorf(sop.Image.Pos, "%s: %s of %s reads %q; read keys, new, old or both%s", what, op, e.Name, sop.Image.Value, nearest(sop.Image.Value, Images))
					continue
				}
				o.Image, o.Pos = Image(i), sop.Image.Pos
			}
			switch {
			case op == "insert" && o.Image.Old():
				r.errorf(o.Pos, "%s reads the old %s on insert, and an insert has none: read new or keys", what, e.Name)
				continue
			case op == "remove" && o.Image.New():
				r.errorf(o.Pos, "%s reads the new %s on remove, and a remove has none: read old or keys", what, e.Name)
				continue
			}
			ons = append(ons, o)
		}
		slices.SortStableFunc(ons, func(a, b *ConsumerOn) int {
			return slices.Index(StreamOps, a.Op) - slices.Index(StreamOps, b.Op)
		})
		c.On = append(c.On, ons...)
	}
	return first
}

// consumerRelease resolves the entities a consumer releases the expired
// items of, and returns the first the spec defines, or nil.
func (r *resolver) consumerRelease(c *Consumer, sc *spec.Consumer, what string) *Entity {
	var first *Entity
	c.ReleasePos = sc.ReleasePos
	for _, n := range sc.Release {
		e := r.entity(n)
		if e == nil {
			continue
		}
		if first == nil {
			first = e
		}
		switch {
		case e.Own() != "":
			r.errorf(n.Pos, "%s releases %s, the %s items dyngen writes for the spec's entities; release the entity that holds them", what, e.Name, e.Own())
		case slices.Contains(c.Release, e):
			r.errorf(n.Pos, "%s lists %s under release twice", what, e.Name)
		case e.TTLAttr() == nil:
			r.errorf(n.Pos, "%s releases %s, which stores no time to live (its table's ttl attribute): its items never expire; remove it from release", what, e.Name)
		case len(e.Unique) == 0 && len(e.Counts) == 0:
			r.errorf(n.Pos, "%s releases %s, which has no unique values and no counts: an expired item holds nothing to release; remove it from release", what, e.Name)
		default:
			c.Release = append(c.Release, e)
		}
	}
	return first
}

// released reports whether a consumer of the spec releases the expired
// items of the entity named name: it may then have unique values or
// counts and a time to live together.
func (r *resolver) released(name string) bool {
	for _, sc := range r.f.Consumers {
		for _, n := range sc.Release {
			if n.Value == name {
				return true
			}
		}
	}
	return false
}

// ReceiptPrefix starts the key of every release receipt:
// DYNGEN#RELEASED#{eventId}.
const ReceiptPrefix = "DYNGEN#RELEASED#"

// ReceiptTTL is how long a release receipt is kept after the record it
// is of: a stream holds a record 24 hours, and its consumers retry it at
// most as long.
const ReceiptTTL = "48h"

// ReceiptName is the name of the receipt entity of table t.
func (m *Model) ReceiptName(t *Table) string {
	if len(m.Tables) == 1 {
		return "ReleaseReceipt"
	}
	return t.GoName + "ReleaseReceipt"
}

// receipts returns the specs of the receipt entities of every table a
// consumer releases expired items of: an item per record released, keyed
// by the record's event ID, written in the release's transaction on
// condition that none is there, so that a record delivered twice
// releases once; it expires by the table's time to live. Like the
// checkpoints of the migration output, it needs string key attributes
// and entities whose partition keys all start with literal text, which
// the collision check then proves apart from the receipts'. set marks
// them.
func (r *resolver) receipts(set map[*spec.Entity]*Table) []*spec.Entity {
	var out []*spec.Entity
	done := map[*Table]bool{}
	for _, sc := range r.f.Consumers {
		for _, n := range sc.Release {
			i := slices.IndexFunc(r.m.Entities, func(e *Entity) bool { return e.Name == n.Value })
			if i < 0 || r.m.Entities[i].Table == nil || r.m.Entities[i].Table.TTL == "" {
				continue
			}
			t := r.m.Entities[i].Table
			if done[t] {
				continue
			}
			done[t] = true
			what := "consumer " + sc.Name.Value
			if slices.ContainsFunc(t.Primary().KeyAttrs(), func(ka *KeyAttr) bool { return ka.Type != S }) {
				r.errorf(sc.ReleasePos, "%s releases expired items of table %s, whose key attributes are not all strings: the release's receipt (keyed %s{eventId}, so that a record delivered twice releases once) fits no key of numbers or bytes", what, t.Name, ReceiptPrefix)
				continue
			}
			if j := slices.IndexFunc(t.Entities, func(e *Entity) bool {
				return len(e.Keys) > 0 && e.PrimaryKey().PK.LiteralPrefix() == ""
			}); j >= 0 {
				r.errorf(sc.ReleasePos, "%s releases expired items of table %s, where entity %s's partition key may be any string: the release's receipts (keyed %s{eventId}) can't be proven apart from its items; start its partition key with literal text", what, t.Name, t.Entities[j].Name, ReceiptPrefix)
				continue
			}
			name := r.m.ReceiptName(t)
			if k := slices.IndexFunc(r.f.Entities, func(se *spec.Entity) bool { return se.Name.Value == name }); k >= 0 {
				r.errorf(r.f.Entities[k].Name.Pos, "entity name %s is the name of the receipt entity of the releases of table %s (%s releases expired items); rename the entity", name, t.Name, what)
				continue
			}
			pos := sc.ReleasePos
			str := func(v string) spec.Str { return spec.Str{Value: v, Pos: pos, Set: true} }
			se := &spec.Entity{
				Name:      str(name),
				Pos:       pos,
				Doc:       str(name + " records that the unique claims and counts an expired item of table " + t.Name + " held were released, by the stream record's event ID: written with the release, so that a record delivered twice releases once, and deleted by the table's time to live " + ReceiptTTL + " after the record."),
				Table:     str(t.Name),
				TypeValue: str("dyngen." + name),
				Attributes: []*spec.Attribute{
					{Name: str("eventId"), Pos: pos, Type: str("string"), Attr: str("dyngen_eventId")},
					{Name: str("expires"), Pos: pos, Type: str("time"), Format: str(string(Unix)), Attr: str(t.TTL)},
				},
			}
			keys := &spec.Keys{Index: str(PrimaryName), Pos: pos, PK: str(ReceiptPrefix + "{eventId}")}
			if t.SK != nil {
				keys.SK = str(ReceiptPrefix + "{eventId}")
			}
			se.Keys = []*spec.Keys{keys}
			set[se] = t
			out = append(out, se)
		}
	}
	return out
}

// consumerViews refuses a consumer that reads what its table's stream
// does not carry, naming the view type every consumer of the table
// needs.
func (r *resolver) consumerViews() {
	for _, t := range r.m.Tables {
		var old, new bool
		var cs []*Consumer
		for _, c := range r.m.Consumers {
			if c.Table == t {
				o, n := c.Needs()
				old, new = old || o, new || n
				cs = append(cs, c)
			}
		}
		if len(cs) == 0 {
			continue
		}
		need := ViewTypeOf(old, new)
		var names []string
		for _, c := range cs {
			names = append(names, c.Name)
		}
		for _, c := range cs {
			r.part = c
			if t.Stream == "" {
				r.errorf(c.Pos, "consumer %s reads table %s's stream, and the table has none; set stream: %s on table %s, the view type its consumers need (%s)", c.Name, t.Name, need, t.Name, strings.Join(names, ", "))
				continue
			}
			if len(c.Release) > 0 && !Carries(t.Stream, ImageOld) {
				r.errorf(c.ReleasePos, "consumer %s releases what expired items held, which it reads from the item as it was, and table %s's stream (%s) does not carry it; set stream: %s on table %s, the view type its consumers need (%s)", c.Name, t.Name, t.Stream, need, t.Name, strings.Join(names, ", "))
			}
			for _, o := range c.On {
				if !Carries(t.Stream, o.Image) {
					r.errorf(o.Pos, "consumer %s reads %s of %s on %s, which table %s's stream (%s) does not carry; set stream: %s on table %s, the view type its consumers need (%s)", c.Name, imageText(o.Image), o.Entity.Name, o.Op, t.Name, t.Stream, need, t.Name, strings.Join(names, ", "))
				}
			}
		}
		r.part = nil
	}
}

// imageText names an image in a message.
func imageText(im Image) string {
	switch im {
	case ImageOld:
		return "the old item"
	case ImageNew:
		return "the new item"
	case ImageBoth:
		return "the old and the new item"
	}
	return "the keys"
}

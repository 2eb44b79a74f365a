// Package model is the resolved, validated form of a spec: tables with
// their indexes, entities with typed attributes and Go names, parsed key
// templates for every index an entity appears in, and patterns whose names
// all refer to something real. The planner works on it; it knows nothing
// of YAML.
//
// Resolution runs in passes (tables, entities, keys, patterns, names), each
// reporting every problem it finds with the position of the spec node.
package model

import (
	"slices"
	"strings"

	"github.com/dyngen/dyngen/internal/diag"
)

// Pos is a position in the spec.
type Pos = diag.Pos

// Model is a whole resolved spec.
type Model struct {
	File    string
	Package string
	Doc     string
	Pos     Pos
	Tables  []*Table
	// Objects are the named object types, in spec order.
	Objects  []*ObjectType
	Entities []*Entity
	Patterns []*Pattern
	// Consumers are the consumers of tables' streams, in spec order.
	Consumers []*Consumer
	// Outputs are the outputs besides the Go package the spec asks for,
	// in spec order.
	Outputs []*Output
	// Accept are the findings of the compatibility check the spec
	// accepts on purpose (accept:), in spec order.
	Accept []*Accept
	// TablesPos, EntitiesPos and PatternsPos are where the spec's tables,
	// entities and patterns are listed: where one removed was.
	TablesPos, EntitiesPos, PatternsPos Pos
	// PackagePos is where the spec names the package.
	PackagePos Pos

	// broken holds the tables, entities and patterns the resolver found
	// an error in; loose is set by an error it could not tie to one.
	broken map[any]bool
	loose  bool
}

// Accept accepts one finding of the compatibility check (internal/compat)
// by its id, for a reason.
type Accept struct {
	ID, Reason string
	Pos        Pos
}

// Renamed is the name a part of the spec had in the lock, when renamedFrom
// renames it: Name, set at Pos; "" when it is not renamed.
type Renamed struct {
	Name string
	Pos  Pos
}

// Prune removes from m the tables, entities and patterns with errors,
// and what depends on them (the entities of a table, the patterns of an
// entity), so that the planner can check the rest without echoing those
// errors. It reports false, and leaves m alone, when an error could not
// be tied to a part of the spec: then nothing is sound to plan.
func (m *Model) Prune() bool {
	if m.loose {
		return false
	}
	tableOK := func(t *Table) bool { return t != nil && !m.broken[t] }
	entityOK := func(e *Entity) bool { return !m.broken[e] && tableOK(e.Table) && len(e.Keys) > 0 }
	m.Tables = slices.DeleteFunc(m.Tables, func(t *Table) bool { return !tableOK(t) })
	for _, t := range m.Tables {
		t.Entities = slices.DeleteFunc(t.Entities, func(e *Entity) bool { return !entityOK(e) })
	}
	m.Entities = slices.DeleteFunc(m.Entities, func(e *Entity) bool { return !entityOK(e) })
	m.Patterns = slices.DeleteFunc(m.Patterns, func(p *Pattern) bool {
		return m.broken[p] || !tableOK(p.Table) || len(p.Entities) == 0 || slices.ContainsFunc(p.Entities, func(e *Entity) bool { return !entityOK(e) })
	})
	m.Consumers = slices.DeleteFunc(m.Consumers, func(c *Consumer) bool {
		return m.broken[c] || !tableOK(c.Table) || slices.ContainsFunc(c.On, func(o *ConsumerOn) bool { return !entityOK(o.Entity) })
	})
	return true
}

// ScalarType is a DynamoDB key attribute type.
type ScalarType string

const (
	S ScalarType = "S"
	N ScalarType = "N"
	B ScalarType = "B"
)

// KeyAttr is a key attribute of a table or index.
type KeyAttr struct {
	Name string
	Type ScalarType
	Pos  Pos
}

// Table is a DynamoDB table.
type Table struct {
	Name       string // logical name; also the default physical name
	GoName     string
	Doc        string
	Pos        Pos
	PK         *KeyAttr
	SK         *KeyAttr // nil when the table has no sort key
	EntityAttr string   // stored name of the attribute holding the entity name
	TTL        string   // stored name of the TTL attribute, or ""
	TTLPos     Pos
	// Stream is the view type of the table's stream (StreamViewTypes),
	// "" for none.
	Stream    string
	StreamPos Pos
	// Indexes are the table's own key (Primary, first) and its secondary
	// indexes in spec order.
	Indexes  []*Index
	Entities []*Entity // the entities stored in the table, in spec order
}

// StreamViewTypes are the view types of a table's stream, as DynamoDB
// names them: what each record carries of the item written.
var StreamViewTypes = []string{"KEYS_ONLY", "NEW_IMAGE", "OLD_IMAGE", "NEW_AND_OLD_IMAGES"}

// Primary returns the table's own key as an index.
func (t *Table) Primary() *Index { return t.Indexes[0] }

// Index returns the index named name ("primary" for the table's own key).
func (t *Table) Index(name string) *Index {
	for _, ix := range t.Indexes {
		if ix.Name == name {
			return ix
		}
	}
	return nil
}

// KeyAttrNamed returns the first declaration of a key attribute named
// name among the table's own key and its indexes, or nil.
func (t *Table) KeyAttrNamed(name string) *KeyAttr {
	for _, ix := range t.Indexes {
		for _, k := range ix.KeyAttrs() {
			if k.Name == name {
				return k
			}
		}
	}
	return nil
}

// IsKeyAttr reports whether name is the stored name of one of the table's
// own key attributes.
func (t *Table) IsKeyAttr(name string) bool {
	return name == t.PK.Name || (t.SK != nil && name == t.SK.Name)
}

// IndexKind tells the table's own key from global and local indexes.
type IndexKind int

const (
	Primary IndexKind = iota
	Global
	Local
)

func (k IndexKind) String() string {
	switch k {
	case Global:
		return "GSI"
	case Local:
		return "LSI"
	}
	return "table"
}

// Projection is what a secondary index carries.
type Projection int

const (
	ProjectAll Projection = iota
	ProjectKeys
	ProjectInclude
)

// PrimaryName is the name of the table's own key among indexes.
const PrimaryName = "primary"

// Index is the table's own key or a secondary index.
type Index struct {
	Name   string
	GoName string
	Doc    string
	Pos    Pos
	// RenamedFrom is its name in the lock, when renamedFrom renames it.
	RenamedFrom Renamed
	Table       *Table
	Kind        IndexKind
	// PK and SK are the index's partition and sort key attributes (SK
	// nil when it has no sort key); for a multi-attribute key, the first
	// of each.
	PK *KeyAttr
	SK *KeyAttr
	// PKs and SKs are all of them, in key schema order: one each, or up
	// to MaxKeyParts of a multi-attribute key (Multi).
	PKs, SKs   []*KeyAttr
	Projection Projection
	// Include holds the stored names an INCLUDE projection lists, plus
	// what dyngen adds to decode items (entity attribute, key template
	// attributes), in order, without duplicates.
	Include    []string
	IncludePos Pos
	// Inverted is true for an index made only of the table's own key
	// attributes: it holds every entity of the table.
	Inverted bool
}

// IsPrimary reports whether ix is the table's own key.
func (ix *Index) IsPrimary() bool { return ix.Kind == Primary }

// KeyAttrs returns the index's key attributes: the partition key's, then
// the sort key's.
func (ix *Index) KeyAttrs() []*KeyAttr {
	return append(slices.Clip(ix.PartitionKeys()), ix.SortKeys()...)
}

// PartitionKeys returns the index's partition key attributes.
func (ix *Index) PartitionKeys() []*KeyAttr {
	if ix.PKs == nil {
		return []*KeyAttr{ix.PK}
	}
	return ix.PKs
}

// SortKeys returns the index's sort key attributes (none when it has no
// sort key).
func (ix *Index) SortKeys() []*KeyAttr {
	if ix.SKs == nil && ix.SK != nil {
		return []*KeyAttr{ix.SK}
	}
	return ix.SKs
}

// IsKeyAttr reports whether name is the stored name of a key attribute
// of the index.
func (ix *Index) IsKeyAttr(name string) bool {
	return slices.ContainsFunc(ix.KeyAttrs(), func(ka *KeyAttr) bool { return ka.Name == name })
}

// Multi reports whether the index's partition key or sort key is made of
// several attributes (a multi-attribute key): DynamoDB compares each in
// its own type, the partition key's all with equality, the sort key's
// left to right.
func (ix *Index) Multi() bool { return len(ix.PKs) > 1 || len(ix.SKs) > 1 }

// MaxKeyParts is the most attributes of a multi-attribute partition key
// or sort key.
const MaxKeyParts = 4

// Projects reports whether the index carries the stored attribute name.
func (ix *Index) Projects(stored string) bool {
	switch ix.Projection {
	case ProjectAll:
		return true
	case ProjectInclude:
		for _, s := range ix.Include {
			if s == stored {
				return true
			}
		}
	}
	// Every index carries the table's and its own key attributes.
	for _, k := range ix.KeyAttrs() {
		if k.Name == stored {
			return true
		}
	}
	return ix.Table.IsKeyAttr(stored)
}

// Entity is one kind of item.
type Entity struct {
	Name   string
	GoName string
	Doc    string
	Pos    Pos
	// RenamedFrom is its name in the lock, when renamedFrom renames it.
	RenamedFrom Renamed
	Table       *Table
	TypeValue   string // value written to the entity attribute
	Attributes  []*Attribute
	// Keys are the entity's templates on every index it appears in, in the
	// table's index order; the primary key first.
	Keys []*EntityKey
	// Version is the int attribute holding the item's version (optimistic
	// locking), or nil.
	Version *Attribute
	// Created and Updated are the time attributes the generated code sets
	// from the Store's clock, or nil.
	Created, Updated *Attribute
	// Unique are the entity's unique values, in spec order.
	Unique []*Unique
	// ClaimOf is set on the claim entity of a unique value (derived by
	// the model, not written in the spec).
	ClaimOf *Unique
	// Counts are the entity's counts of items by group, in spec order.
	Counts []*Count
	// CountOf is set on the counter entity of a count (derived by the
	// model, not written in the spec).
	CountOf *Count
	// Copies are the copies of the entity's item under other primary
	// keys (copy.go), and CopyOf is set on the hidden entity of a copy.
	Copies []*Copy
	CopyOf *Copy
	// Each are the entity's items per element of a set (each.go), and
	// EachOf is set on the hidden entity of one.
	Each   []*Each
	EachOf *Each
	// CheckpointOf is set on the checkpoint entity of a table's backfills
	// (backfill.go), which the migration output adds.
	CheckpointOf *Table
	// ReceiptOf is set on the receipt entity of a table's releases of
	// expired items (stream.go).
	ReceiptOf *Table
	// paths holds the attributes of the paths the patterns name
	// (PathAttr), one per path.
	paths map[string]*Attribute
}

// Stamped reports whether the entity has a created or an updated time.
func (e *Entity) Stamped() bool { return e.Created != nil || e.Updated != nil }

// Managed reports whether the generated code sets a, never the caller:
// the entity's version or one of its timestamps.
func (e *Entity) Managed(a *Attribute) bool {
	return a != nil && (a == e.Version || a == e.Created || a == e.Updated)
}

// CreatedIn reports whether template tm, written by the entity itself
// (not the attribute as a natural key, nor a template written for another
// index), is built from its created time, which only a create knows.
func (e *Entity) CreatedIn(tm *Template) bool {
	return e.Created != nil && !tm.Implied && tm.Has(e.Created)
}

// KeyChecked reports whether a is stored under the name of a key
// attribute of a secondary index of e's table (a natural key, an attribute
// of a multi-attribute key) and its values are checked before a write:
// DynamoDB refuses a write that gives an index key attribute a value no
// key holds (an empty string or binary), whether or not the item holds
// the index's other key attributes, or a number it stores only some
// values of (a float).
func (e *Entity) KeyChecked(a *Attribute) bool {
	ka := e.IndexKeyAttr(a)
	return ka != nil && NaturalChecked(a, ka)
}

// IndexKeyAttr returns the key attribute of a secondary index of e's
// table that a is stored under, or nil.
func (e *Entity) IndexKeyAttr(a *Attribute) *KeyAttr {
	for _, ix := range e.Table.Indexes[1:] {
		for _, ka := range ix.KeyAttrs() {
			if ka.Name == a.Stored && !e.Table.IsKeyAttr(ka.Name) {
				return ka
			}
		}
	}
	return nil
}

// NaturalChecked reports whether attribute a standing as the whole key
// attribute ka (a natural key) is checked: a string or a required binary
// key (never empty), or a number DynamoDB stores only some values of (a
// float).
func NaturalChecked(a *Attribute, ka *KeyAttr) bool {
	switch ka.Type {
	case S:
		return true
	case B:
		// An optional binary that is empty is absent.
		return !a.Optional
	}
	return a.StoredForm().Key.Number != ""
}

// Attr returns the attribute named name (its spec name), or nil.
func (e *Entity) Attr(name string) *Attribute {
	for _, a := range e.Attributes {
		if a.Name == name {
			return a
		}
	}
	return nil
}

// AttrStored returns the attribute stored under name, or nil.
func (e *Entity) AttrStored(name string) *Attribute {
	for _, a := range e.Attributes {
		if a.Stored == name {
			return a
		}
	}
	return nil
}

// Key returns the entity's templates on ix, or nil when it is not in ix.
func (e *Entity) Key(ix *Index) *EntityKey {
	for _, k := range e.Keys {
		if k.Index == ix {
			return k
		}
	}
	return nil
}

// PrimaryKey returns the entity's templates on its table's own key.
func (e *Entity) PrimaryKey() *EntityKey { return e.Keys[0] }

// EntityKey holds an entity's key templates on one index.
type EntityKey struct {
	Index *Index
	PK    *Template
	SK    *Template // nil when the index has no sort key
	Pos   Pos       // the keys entry, or the entity when implied
	// Via is set when the entity does not name the index, yet its item
	// holds every key attribute of it, written for the indexes Via lists
	// (an attribute that keys two indexes): DynamoDB puts the item in the
	// index all the same. Its templates are those keys' own, Implied.
	Via []*EntityKey
	// Parts is set on a key of an index with a multi-attribute key: one
	// template per key attribute, in the order of Index.KeyAttrs, each
	// one segment of PK or SK (whose Multi is set).
	Parts []*Template
	// Unnamed is set on a key of an index with a multi-attribute key that
	// the entity does not name: its items hold every key attribute.
	Unnamed bool
}

// DescribeParts shows a key of an index with a multi-attribute key, each
// key attribute with its value: tournamentId={tournamentId}
// region={region} _type="Match"; "" for another key.
func (k *EntityKey) DescribeParts() string {
	if k.Parts == nil {
		return ""
	}
	parts := make([]string, len(k.Parts))
	for i, ka := range k.Index.KeyAttrs() {
		parts[i] = ka.Name + "=" + k.Parts[i].PartText()
	}
	return strings.Join(parts, " ")
}

// AttrTemplates returns the template of each key attribute of the index,
// in the order of Index.KeyAttrs.
func (k *EntityKey) AttrTemplates() []*Template {
	if k.Parts != nil {
		return k.Parts
	}
	return k.Templates()
}

// Derived reports whether the entity is in the index without naming it.
func (k *EntityKey) Derived() bool { return len(k.Via) > 0 }

// ViaNames lists the indexes a derived key's attributes are written for.
func (k *EntityKey) ViaNames() string {
	var names []string
	for _, v := range k.Via {
		names = append(names, v.Index.Name)
	}
	return strings.Join(names, " and ")
}

// Templates returns pk and, when present, sk.
func (k *EntityKey) Templates() []*Template {
	if k.SK == nil {
		return []*Template{k.PK}
	}
	return []*Template{k.PK, k.SK}
}

// Attrs returns the attributes the key is built from, pk first, each once.
func (k *EntityKey) Attrs() []*Attribute {
	var out []*Attribute
	for _, t := range k.Templates() {
		for _, a := range t.Attrs() {
			if !contains(out, a) {
				out = append(out, a)
			}
		}
	}
	return out
}

// Sparse reports whether an item can be left out of the index because an
// attribute of its templates is optional.
func (k *EntityKey) Sparse() bool { return len(k.Presence()) > 0 }

// Presence returns the optional attributes an item needs, all of them,
// to be in the index: those of the key's templates and, for a derived
// key, those of the keys its attributes are written for (an item holds
// an index's key attributes all or none).
func (k *EntityKey) Presence() []*Attribute {
	var out []*Attribute
	for _, a := range k.Attrs() {
		if a.Optional && !contains(out, a) {
			out = append(out, a)
		}
	}
	for _, v := range k.Via {
		for _, a := range v.Presence() {
			if !contains(out, a) {
				out = append(out, a)
			}
		}
	}
	return out
}

func contains[T comparable](s []T, v T) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

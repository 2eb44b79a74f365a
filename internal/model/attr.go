package model

// Type is an attribute type of the spec.
type Type string

const (
	String    Type = "string"
	Int       Type = "int"
	Float     Type = "float"
	Bool      Type = "bool"
	Time      Type = "time"
	Bytes     Type = "bytes"
	Strings   Type = "strings"
	StringSet Type = "stringSet"
	IntSet    Type = "intSet"
	Map       Type = "map"
	Enum      Type = "enum"
	Document  Type = "document"
	Path      Type = "path"
	// Object is a named object type (Attribute.Of), a Go struct stored
	// as a map (M); Objects a list of them (L of M).
	Object  Type = "object"
	Objects Type = "objects"
)

// Types lists every attribute type, in the order of the reference.
var Types = []Type{String, Int, Float, Bool, Time, Bytes, Strings, StringSet, IntSet, Map, Enum, Document, Object, Objects, Path}

// TimeFormat is how a time attribute is stored.
type TimeFormat string

const (
	RFC3339   TimeFormat = "rfc3339"   // S, UTC, nine fraction digits
	Unix      TimeFormat = "unix"      // N, epoch seconds
	UnixMilli TimeFormat = "unixMilli" // N, epoch milliseconds
	Date      TimeFormat = "date"      // S, YYYY-MM-DD
)

// TimeFormats lists the time formats.
var TimeFormats = []TimeFormat{RFC3339, Unix, UnixMilli, Date}

// RequiredComputed reports whether a says backfill: compute and every
// item must hold it (required, without a default): an item stored
// before lacks it, and fails to decode until a backfill computes it.
func (a *Attribute) RequiredComputed() bool { return a.Compute && !a.Optional && a.Default == nil }

// Attribute is a typed attribute of an entity.
type Attribute struct {
	Name   string // spec name
	Stored string // stored attribute name
	GoName string
	Doc    string
	Pos    Pos
	// RenamedFrom is its name in the lock, when renamedFrom renames it.
	RenamedFrom Renamed
	// Compute (backfill: compute, at ComputePos) says that the items
	// stored without the attribute get it from a function of the
	// user's: a backfill of kind Computed (model.Backfill).
	Compute    bool
	ComputePos Pos
	Type       Type
	// Optional attributes may be absent. An optional scalar (string,
	// enum, int, float, bool, time) is a pointer in Go, nil when absent,
	// so that its zero value is stored and read back like any other. An
	// optional list, set, map, path, bytes or document keeps its Go type
	// and is absent when nil or empty: Go code treats a nil and an empty
	// slice or map alike (len, range, append, encoding/json's omitempty),
	// DynamoDB stores no empty set, and an empty path has no element.
	// A stored NULL reads as absent.
	Optional bool
	// Default is the value a read gives when the item lacks the
	// attribute (a required attribute added to the spec after items
	// were written); nil when there is none. Checked like a condition's
	// constant.
	Default   *Const
	Min, Max  *Bound // int, float
	MaxLength int    // string, path: in characters; 0 means unbounded
	MaxItems  int    // strings, stringSet, intSet: elements; 0 means unbounded
	Values    []string
	Format    TimeFormat // time
	Separator rune       // path: the separator between its elements
	// TTL is set when the attribute is stored under the table's ttl name.
	TTL bool
	// Of is the object type of an object or objects attribute.
	Of *ObjectType
	// In is the object type the attribute is a field of; nil for an
	// entity's attribute.
	In *ObjectType
	// Path is set on the attribute of a path a pattern names
	// (address.zip, Entity.PathAttr): the entity's attribute then the
	// fields the path goes through, the last the field itself. The path
	// attribute is a copy of that field, with the path as its Name (which
	// errors show), the Go names of the path's elements joined as its
	// GoName (AddressZip), and the entity attribute's stored name as its
	// Stored (what projections, IAM and costs see changed or read).
	Path []*Attribute
	// MapKey is set on the attribute of a path to a map's entry whose key
	// the caller gives (approvals.{reviewer}): the name of the key's
	// parameter, as written between the braces. The attribute is the
	// entry's value (a string), its Path the map's path then itself.
	MapKey string
}

// KeyGoName is the Go name of the key parameter of a map entry's path
// (Reviewer).
func (a *Attribute) KeyGoName() string { return GoName(a.MapKey) }

// IsPath reports whether a is the attribute of a path (Path).
func (a *Attribute) IsPath() bool { return len(a.Path) > 0 }

// Root is the entity's attribute a is or is in.
func (a *Attribute) Root() *Attribute {
	if a.IsPath() {
		return a.Path[0]
	}
	return a
}

// Bound is a min or max of a numeric attribute, as written.
type Bound struct {
	Text  string
	Int   int64
	Float float64
	Pos   Pos
}

// DynamoType is the attribute value type the attribute is stored as.
func (a *Attribute) DynamoType() string { return a.StoredForm().Dynamo }

// KeyTypeFits reports whether the attribute may be a whole key attribute
// of type t (a natural key): it is stored with that type.
func (a *Attribute) KeyTypeFits(t ScalarType) bool { return a.StoredForm().Dynamo == string(t) }

// Describe returns the type as written in a spec, with its format.
func (a *Attribute) Describe() string {
	if a.Type == Time && a.Format != RFC3339 {
		return "time (" + string(a.Format) + ")"
	}
	if a.Of != nil {
		return string(a.Type) + " of " + a.Of.Name
	}
	return string(a.Type)
}

// KeepsOrder reports whether the attribute's string key encoding sorts like
// its values (fixed width where needed), wherever it stands in a template.
func (a *Attribute) KeepsOrder() bool { return a.StoredForm().Key.KeepsOrder }

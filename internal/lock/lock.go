// Package lock builds, writes and reads dyngen's lock: a record of what a
// generation committed to, for the next one to compare against. The
// lock is deterministic JSON, written beside the outputs
// (model.LockFile) and committed with them: per table and index its key
// schema; per entity (the spec's and dyngen's own: claims, counters,
// copies, element items) its physical layout, the templates of its keys
// and the stored form of each attribute; per pattern the requests it
// sends; the generated package's exported surface (entity types, their
// fields and enum constants, Store methods with their inputs and
// results); and the state of each
// backfill, which only the lock carries from one generation to the
// next.
//
// It is built from the plan alone (Build), so that every figure in it is
// what the generated code and the outputs print.
package lock

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/output/format"
	"github.com/dyngen/dyngen/internal/plan"
)

// Version is the version of the lock's format this dyngen writes and
// reads. A lock of a newer version is refused (Parse): its meaning may
// have changed. Version 2 gives a backfill its kind, entity, index or
// attributes, fingerprint, count and finding; a lock of version 1 (whose
// backfills were always none) is read as it is. Version 3 adds the
// backfills of kind compute and those of the claims of a set, which a
// dyngen of version 2 would drop as ones it does not run (and so open
// the release gate): it refuses the lock instead. Version 4 adds the
// multi-attribute keys of indexes (Index.PartitionKeys and SortKeys),
// which a dyngen of version 3 would read as their first attributes.
const Version = 4

// Lock is the lock of one spec.
type Lock struct {
	// Format is the version of the format (Version).
	Format int `json:"dyngenLock"`
	// Source is the spec, as the generated files' source line names it.
	Source   string    `json:"source"`
	Package  string    `json:"package"`
	Tables   []Table   `json:"tables"`
	Objects  []Object  `json:"objects,omitempty"`
	Entities []Entity  `json:"entities"`
	Patterns []Pattern `json:"patterns"`
	// Backfills are the rewrites of stored items a change of the design
	// asked for, with their state: carried over from the lock an
	// earlier generation wrote.
	Backfills []Backfill `json:"backfills"`
}

// Table is a table: its key, the attributes dyngen stores in every item,
// and its secondary indexes.
type Table struct {
	Name            string  `json:"name"`
	PartitionKey    Key     `json:"partitionKey"`
	SortKey         *Key    `json:"sortKey,omitempty"`
	EntityAttribute string  `json:"entityAttribute"`
	TTL             string  `json:"ttl,omitempty"`
	Stream          string  `json:"stream,omitempty"`
	Indexes         []Index `json:"indexes"`
}

// Key is a key attribute: its name and DynamoDB type (S, N or B).
type Key struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

// Index is a secondary index: global or local, its key, and what it
// projects (all, keys, or include with the stored names it lists).
type Index struct {
	Name         string `json:"name"`
	Kind         string `json:"kind"`
	PartitionKey Key    `json:"partitionKey"`
	SortKey      *Key   `json:"sortKey,omitempty"`
	// PartitionKeys and SortKeys are set for a multi-attribute key: all
	// its attributes, PartitionKey and SortKey being the first.
	PartitionKeys []Key    `json:"partitionKeys,omitempty"`
	SortKeys      []Key    `json:"sortKeys,omitempty"`
	Projection    string   `json:"projection"`
	Include       []string `json:"include,omitempty"`
}

// Keys returns the index's partition and sort key attributes.
func (i *Index) Keys() (pk, sk []Key) {
	if i.PartitionKeys != nil {
		return i.PartitionKeys, i.SortKeys
	}
	pk = []Key{i.PartitionKey}
	if i.SortKey != nil {
		sk = []Key{*i.SortKey}
	}
	return pk, sk
}

// Entity is the layout of an entity's items.
type Entity struct {
	Name string `json:"name"`
	// Of says, for an entity dyngen derives (whose items it writes with
	// their owner's), what it is: "claim of User.email", "counter of
	// Member.ByRole", "copy ByEmail of Customer", "items per element
	// ParcelTags of Parcel"; "" for the spec's own.
	Of        string `json:"of,omitempty"`
	Table     string `json:"table"`
	TypeValue string `json:"typeValue"`
	// GoType is the entity's Go type; "" for one the package does not
	// export.
	GoType     string      `json:"goType"`
	Keys       []EntityKey `json:"keys"`
	Attributes []Attribute `json:"attributes"`
	Unique     []Unique    `json:"unique,omitempty"`
	Version    string      `json:"version,omitempty"`
	Created    string      `json:"created,omitempty"`
	Updated    string      `json:"updated,omitempty"`
}

// EntityKey is where an entity's items are in one index: the templates
// of the index's key attributes. Via lists, for an index the entity does
// not name, the indexes whose keys put its items in it all the same.
type EntityKey struct {
	Index string   `json:"index"`
	PK    string   `json:"pk"`
	SK    string   `json:"sk,omitempty"`
	Via   []string `json:"via,omitempty"`
}

// Attribute is an attribute as the items store it, and as the Go type
// holds it.
type Attribute struct {
	Name   string `json:"name"`
	Stored string `json:"stored"`
	Type   string `json:"type"`
	// Form is the attribute value type the item holds (S, N, B, BOOL,
	// L, SS, NS, M, or any), with a time's format after a colon (N:unix).
	Form     string   `json:"form"`
	Optional bool     `json:"optional,omitempty"`
	Default  *string  `json:"default,omitempty"`
	Values   []string `json:"values,omitempty"`
	Object   string   `json:"object,omitempty"`
	TTL      bool     `json:"ttl,omitempty"`
	// The checks a write makes of a value: reads do not make them.
	MaxLength int    `json:"maxLength,omitempty"`
	MaxItems  int    `json:"maxItems,omitempty"`
	Min       string `json:"min,omitempty"`
	Max       string `json:"max,omitempty"`
	// GoField is the field of the entity's Go type, and GoType its type;
	// GoConsts the constants of an enum's values, in order.
	GoField  string   `json:"goField"`
	GoType   string   `json:"goType"`
	GoConsts []string `json:"goConsts,omitempty"`
}

// Object is a named object type: a Go struct stored as a map.
type Object struct {
	Name   string      `json:"name"`
	GoType string      `json:"goType"`
	Fields []Attribute `json:"fields"`
}

// Unique is a unique value: the attributes its claims hold.
type Unique struct {
	Attributes []string `json:"attributes"`
	Lower      bool     `json:"lower,omitempty"`
	Each       bool     `json:"each,omitempty"`
	Claim      string   `json:"claim"`
}

// Pattern is a pattern: the Store method, its inputs, and the requests
// it sends.
type Pattern struct {
	Name     string   `json:"name"`
	Op       string   `json:"op"`
	Entities []string `json:"entities"`
	Table    string   `json:"table"`
	Index    string   `json:"index"`
	Call     string   `json:"call"`
	// Method is the Store method, and Inputs what it takes after ctx: its
	// parameters, or the fields of its Params struct (Struct).
	Method string  `json:"method"`
	Struct string  `json:"struct,omitempty"`
	Inputs []Input `json:"inputs"`
	// Methods are the Store methods the pattern declares (its own, and a
	// query's iterator), each with its results.
	Methods []Method `json:"methods"`
	Request *Request `json:"request,omitempty"`
	Steps   []Step   `json:"steps,omitempty"`
}

// Method is a Store method and its results, as Go source.
type Method struct {
	Name    string `json:"name"`
	Results string `json:"results"`
}

// Input is an input of a method: its name (a parameter's, or a field's
// of its Params struct), Go type and role.
type Input struct {
	Name   string `json:"name"`
	GoType string `json:"goType"`
	Role   string `json:"role"`
}

// Request is what one request sends besides its key values.
type Request struct {
	KeyCondition string `json:"keyCondition,omitempty"`
	Filter       string `json:"filter,omitempty"`
	Condition    string `json:"condition,omitempty"`
	Update       string `json:"update,omitempty"`
	Projection   string `json:"projection,omitempty"`
	// Names are the ExpressionAttributeNames, "#placeholder=stored",
	// sorted.
	Names []string `json:"names,omitempty"`
}

// Step is a step of a transaction, or of a write that reads first.
type Step struct {
	Action  string   `json:"action"`
	Call    string   `json:"call"`
	Entity  string   `json:"entity"`
	Request *Request `json:"request,omitempty"`
}

// Backfill is a rewrite of stored items, and how far it went.
type Backfill struct {
	// ID names it: the entity and what it fills (Review.ByGrade).
	ID string `json:"id"`
	// Kind is what it writes (index-keys, version), into the items of
	// Entity (on Index, for index keys).
	Kind   string `json:"kind"`
	Entity string `json:"entity"`
	Index  string `json:"index,omitempty"`
	// Attributes are, for claims, the attributes of the unique value;
	// for compute, the attribute written.
	Attributes []string `json:"attributes,omitempty"`
	State      string   `json:"state"` // pending or done
	// Fingerprint digests what it writes (plan.Backfill.Fingerprint):
	// the verify's receipt that marks it done names the same.
	Fingerprint string `json:"fingerprint"`
	// Checked is, for a backfill done, the items its verify read.
	Checked int64 `json:"checked,omitempty"`
	// What says in words what it writes; Finding is the compatibility
	// finding that asked for it.
	What    string `json:"what"`
	Finding string `json:"finding"`
}

// Build returns the lock of plan p, for the spec the generated files'
// source line names source. Its backfills are the plan's
// (plan.AddBackfills), which the generation carried from the lock it
// replaces and added from the changes it found.
func Build(p *plan.Plan, source string) *Lock {
	m := p.Model
	l := &Lock{Format: Version, Source: source, Package: m.Package, Tables: []Table{}, Entities: []Entity{}, Patterns: []Pattern{}, Backfills: []Backfill{}}
	for _, t := range m.Tables {
		l.Tables = append(l.Tables, table(t))
	}
	for _, o := range m.Objects {
		ob := Object{Name: o.Name, GoType: o.GoName}
		for _, f := range o.Fields {
			ob.Fields = append(ob.Fields, attribute(nil, f))
		}
		l.Objects = append(l.Objects, ob)
	}
	for _, e := range m.Entities {
		l.Entities = append(l.Entities, entity(e))
	}
	for _, pp := range p.Patterns {
		l.Patterns = append(l.Patterns, pattern(pp))
	}
	l.Backfills = BackfillsOf(p)
	return l
}

// BackfillsOf returns the backfills of plan p as the lock records them:
// an empty list for none.
func BackfillsOf(p *plan.Plan) []Backfill {
	out := []Backfill{}
	for _, b := range p.Backfills {
		out = append(out, backfill(b))
	}
	return out
}

func backfill(pb *plan.Backfill) Backfill {
	b := pb.Backfill
	out := Backfill{ID: b.ID, Kind: string(b.Kind), Entity: b.Entity.Name, State: b.State, Fingerprint: pb.Fingerprint, Checked: b.Checked, What: pb.Describe(), Finding: b.Finding}
	if b.Index != nil {
		out.Index = b.Index.Name
	}
	out.Attributes = b.Attributes()
	return out
}

func key(ka *model.KeyAttr) Key { return Key{Name: ka.Name, Type: string(ka.Type)} }

func keyPtr(ka *model.KeyAttr) *Key {
	if ka == nil {
		return nil
	}
	k := key(ka)
	return &k
}

func table(t *model.Table) Table {
	out := Table{Name: t.Name, PartitionKey: key(t.PK), SortKey: keyPtr(t.SK), EntityAttribute: t.EntityAttr, TTL: t.TTL, Stream: t.Stream, Indexes: []Index{}}
	for _, ix := range t.Indexes[1:] {
		kind := "global"
		if ix.Kind == model.Local {
			kind = "local"
		}
		li := Index{Name: ix.Name, Kind: kind, PartitionKey: key(ix.PK), SortKey: keyPtr(ix.SK), Projection: projection(ix.Projection), Include: ix.Include}
		if ix.Multi() {
			for _, ka := range ix.PartitionKeys() {
				li.PartitionKeys = append(li.PartitionKeys, key(ka))
			}
			for _, ka := range ix.SortKeys() {
				li.SortKeys = append(li.SortKeys, key(ka))
			}
		}
		out.Indexes = append(out.Indexes, li)
	}
	return out
}

// projection names what an index projects, as CloudFormation does.
func projection(p model.Projection) string {
	switch p {
	case model.ProjectKeys:
		return "KEYS_ONLY"
	case model.ProjectInclude:
		return "INCLUDE"
	}
	return "ALL"
}

// derivedOf says what entity e, derived by dyngen, is; "" for the
// spec's own.
func derivedOf(e *model.Entity) string {
	switch {
	case e.ClaimOf != nil:
		return "claim of " + e.ClaimOf.Owner.Name + "." + e.ClaimOf.Label()
	case e.CountOf != nil:
		return "counter of " + e.CountOf.Owner.Name + "." + e.CountOf.Name
	case e.CopyOf != nil:
		return "copy " + e.CopyOf.Name + " of " + e.CopyOf.Owner.Name
	case e.EachOf != nil:
		return "items per element " + e.EachOf.Name + " of " + e.EachOf.Owner.Name
	}
	return ""
}

func entity(e *model.Entity) Entity {
	out := Entity{Name: e.Name, Of: derivedOf(e), Table: e.Table.Name, TypeValue: e.TypeValue, GoType: e.GoName, Keys: []EntityKey{}, Attributes: []Attribute{}}
	for _, k := range e.Keys {
		ek := EntityKey{Index: k.Index.Name, PK: k.PK.Source}
		if k.SK != nil {
			ek.SK = k.SK.Source
		}
		for _, v := range k.Via {
			ek.Via = append(ek.Via, v.Index.Name)
		}
		out.Keys = append(out.Keys, ek)
	}
	for _, a := range e.Attributes {
		out.Attributes = append(out.Attributes, attribute(e, a))
	}
	for _, u := range e.Unique {
		var names []string
		for _, a := range u.Attrs {
			names = append(names, a.Name)
		}
		out.Unique = append(out.Unique, Unique{Attributes: names, Lower: u.Lower, Each: u.Each, Claim: u.Claim.Name})
	}
	name := func(a *model.Attribute) string {
		if a == nil {
			return ""
		}
		return a.Name
	}
	out.Version, out.Created, out.Updated = name(e.Version), name(e.Created), name(e.Updated)
	return out
}

// attribute is attribute a of entity e (nil for an object's field).
func attribute(e *model.Entity, a *model.Attribute) Attribute {
	f := a.StoredForm()
	form := f.Dynamo
	if a.Type == model.Time {
		format := a.Format
		switch {
		case a.TTL:
			format = model.Unix
		case format == "":
			format = model.RFC3339
		}
		form += ":" + string(format)
	}
	if a.Type == model.Path {
		// A path is one string of its elements joined by the separator:
		// another separator reads the stored ones otherwise.
		form += ":" + string(a.Separator)
	}
	out := Attribute{Name: a.Name, Stored: a.Stored, Type: string(a.Type), Form: form, Optional: a.Optional, Values: a.Values, TTL: a.TTL,
		MaxLength: a.MaxLength, MaxItems: a.MaxItems, GoField: a.GoName}
	if a.Default != nil {
		d := a.Default.Text
		out.Default = &d
	}
	if a.Min != nil {
		out.Min = a.Min.Text
	}
	if a.Max != nil {
		out.Max = a.Max.Text
	}
	if a.Of != nil {
		out.Object = a.Of.Name
	}
	out.GoType = model.FieldType(e, a)
	if a.Type == model.Enum {
		for _, v := range a.Values {
			out.GoConsts = append(out.GoConsts, model.EnumConst(e, a, v))
		}
	}
	return out
}

func pattern(pp *plan.Pattern) Pattern {
	p := pp.Pattern
	out := Pattern{Name: p.Name, Op: string(p.Op), Table: p.Table.Name, Call: string(pp.Call), Method: p.GoName, Inputs: []Input{}}
	for _, e := range p.Entities {
		out.Entities = append(out.Entities, e.Name)
	}
	if pp.Index != nil {
		out.Index = pp.Index.Name
	}
	if pp.Struct != nil {
		out.Struct = pp.Struct.Type
	}
	for _, q := range pp.Params {
		name := q.Name
		if q.Field != "" {
			name = q.Field
		}
		out.Inputs = append(out.Inputs, Input{Name: name, GoType: pp.GoType(q), Role: q.Role.String()})
	}
	for _, m := range pp.Methods() {
		out.Methods = append(out.Methods, Method{Name: m.Name, Results: strings.Join(m.Results, ", ")})
	}
	out.Request = request(pp.Request)
	if pp.Tx != nil {
		for _, s := range pp.Tx.Steps {
			out.Steps = append(out.Steps, Step{Action: s.Step.Action(), Call: s.Action, Entity: s.Step.Entity().Name, Request: request(s.Plan.Request)})
		}
	}
	return out
}

// request is the part of r the lock keeps, or nil when it sends none.
func request(r *plan.Request) *Request {
	if r == nil {
		return nil
	}
	out := &Request{KeyCondition: r.KeyCondition, Filter: r.Filter, Condition: r.FullCondition(), Projection: r.Projection}
	if r.Update != nil {
		out.Update = r.Update.Expression()
	}
	for _, n := range r.Names {
		out.Names = append(out.Names, n.Placeholder+"="+n.Stored)
	}
	slices.Sort(out.Names)
	if out.KeyCondition == "" && out.Filter == "" && out.Condition == "" && out.Update == "" && out.Projection == "" && out.Names == nil {
		return nil
	}
	return out
}

// lockHead is what Parse reads of a lock before the rest: its format.
type lockHead struct {
	Format *int `json:"dyngenLock"`
}

// formatOf reads the format of a lock: its first key, as Marshal writes
// it, without decoding the rest (a lock of thousands of patterns is
// megabytes); the whole document when another key comes first.
func formatOf(data []byte) (lockHead, error) {
	var head lockHead
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err == nil && t == json.Delim('{') {
		if k, err := dec.Token(); err == nil && k == "dyngenLock" {
			var v int
			if err := dec.Decode(&v); err == nil {
				head.Format = &v
				return head, nil
			}
		}
	}
	err := json.Unmarshal(data, &head)
	return head, err
}

// Marshal writes l as the lock file holds it: as every JSON output is
// written (format.JSON: indented, keys in a fixed order, the characters
// that reorder text escaped).
func Marshal(l *Lock) ([]byte, error) { return format.JSON(l) }

// Parse reads a lock file. A lock of a format newer than Version, or
// one that is not a lock, is an error.
func Parse(data []byte) (*Lock, error) {
	head, err := formatOf(data)
	if err != nil {
		return nil, fmt.Errorf("not a dyngen lock: %w", err)
	}
	switch {
	case head.Format == nil:
		return nil, fmt.Errorf("not a dyngen lock: it has no dyngenLock version")
	case *head.Format > Version:
		return nil, fmt.Errorf("a lock of format %d, newer than this dyngen reads (%s): use the dyngen that wrote it", *head.Format, strconv.Itoa(Version))
	case *head.Format < 1:
		return nil, fmt.Errorf("a lock of format %d, which no dyngen writes", *head.Format)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var l Lock
	if err := dec.Decode(&l); err != nil {
		return nil, fmt.Errorf("lock: %w", err)
	}
	return &l, nil
}

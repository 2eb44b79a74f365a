// Package report is the plan as `dyngen plan` shows it: one Report,
// printed as text for people (WriteText, the sections of
// templates/plan.txt.tmpl) and as JSON for tools and CI (its json tags).
// It prints what the plan decided: the words it shares with the
// generated methods' docs are the plan's (plan.Request.Fields,
// plan.Pattern.ExpiryNote).
package report

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/dyngen/dyngen/internal/diag"
	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/plan"
	"github.com/dyngen/dyngen/templates"
)

// Report is the plan as `dyngen plan` shows it. Both of its forms print
// this one object: the text report (WriteText) for people, and the JSON
// document of `dyngen plan -json` (the json tags) for tools and CI. The
// JSON shape is documented in docs/spec.md; fields are only ever added
// to it.
type Report struct {
	// File is the spec file, as named on the command line.
	File string `json:"file"`
	// Package is the generated package's name; "" when the spec has
	// errors that leave no plan.
	Package string `json:"package"`
	// Tables, Patterns and Writes are empty when the spec has errors
	// that leave no plan (see Diagnostics).
	Tables   []Table   `json:"tables"`
	Patterns []Pattern `json:"patterns"`
	// Writes is what one write of each entity's whole item costs.
	Writes []Write `json:"writes"`
	// Assumptions are the sizes the cost estimates assume.
	Assumptions []string `json:"assumptions"`
	// Diagnostics are every error and warning, sorted by position.
	Diagnostics []Diagnostic `json:"diagnostics"`
}

// Table is a table and its secondary indexes.
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

// Index is a secondary index.
type Index struct {
	Name string `json:"name"`
	// Kind is GSI or LSI.
	Kind         string `json:"kind"`
	PartitionKey Key    `json:"partitionKey"`
	SortKey      *Key   `json:"sortKey,omitempty"`
	// PartitionKeys and SortKeys are set for a multi-attribute key: all
	// its attributes, PartitionKey and SortKey being the first.
	PartitionKeys []Key `json:"partitionKeys,omitempty"`
	SortKeys      []Key `json:"sortKeys,omitempty"`
	// Projection is all, keys or include; Include lists the attributes
	// an include projection adds to the keys.
	Projection string   `json:"projection"`
	Include    []string `json:"include,omitempty"`
	// Inverted is set for an index whose keys are the table's, swapped:
	// it holds every entity.
	Inverted bool `json:"inverted,omitempty"`
}

// Pattern is how one access pattern is served: one call, its
// request and its cost. A transaction is one call whose steps each have
// their own action, table, key and request (Steps); its own key and
// request are then empty.
type Pattern struct {
	Name string `json:"name"`
	// Line and Col are the pattern's position in the spec.
	Line     int      `json:"line"`
	Col      int      `json:"col"`
	Entities []string `json:"entities"`
	// Call is the DynamoDB operation: GetItem, Query, PutItem,
	// UpdateItem, DeleteItem, BatchGetItem, BatchWriteItem,
	// TransactWriteItems or TransactGetItems.
	Call  string `json:"call"`
	Table string `json:"table"`
	// Index is "primary" for the table's own key, else the index's name.
	Index string `json:"index"`
	// Key is the key condition, or the key of a call on one item, with
	// the key attributes' names and the templates their values are built
	// from (PK = "BOOK#{isbn}" AND begins_with(SK, "REVIEW#")); for a
	// batch call, the key of each item. "" for a batch write of whole
	// items. For a get by a unique value, the key of the claim, which the
	// method reads first (see Requests).
	Key string `json:"key,omitempty"`
	// Requests are the method's requests in the order it sends them,
	// when they read items by different keys: a get by a unique value
	// reads the claim by the value, then the item by the key the claim
	// holds.
	Requests []Call `json:"requests,omitempty"`
	// Request is what the call sends, as the generated code sends
	// it.
	Request
	// Members are the entities the call returns or writes, and how an
	// item read is told to be one of them.
	Members []Member `json:"members"`
	// KeptOutByPrefix is how many other entities share the partition
	// whose sort keys start with other literal text than the key
	// condition's, which never reads their items; they are not named.
	KeptOutByPrefix int `json:"keptOutByPrefix,omitempty"`
	// KeptOut are the other entities that share the partition whose items
	// the key condition never reads though their sort keys' literal text
	// does not tell (its bounds keep them out), by name.
	KeptOut []string `json:"keptOutByBound,omitempty"`
	// Dropped are entities whose items the call can read and the
	// generated code drops, and how it tells them.
	Dropped []Member `json:"dropped,omitempty"`
	// Rewrites are the index keys an update rewrites or removes.
	Rewrites []Rewrite `json:"rewrites,omitempty"`
	// Notes are further details of the plan, in words.
	Notes  []string `json:"notes,omitempty"`
	Cost   Cost     `json:"cost"`
	Params []Param  `json:"params"`
	// Steps are the steps of a transaction, in request order.
	Steps []Step `json:"steps,omitempty"`
	// Many is how an update or delete over a list of keys (many:) sends
	// them; Key and the request are then those of each key's write.
	Many *Many `json:"many,omitempty"`
}

// Many is how a write over many keys sends them.
type Many struct {
	// Mode is all (one TransactWriteItems) or each (a call per key).
	Mode string `json:"mode"`
	// Action is the request of each key: UpdateItem or DeleteItem with
	// each, the Update or Delete member of a transaction's item with all.
	Action string `json:"action"`
	// MaxKeys is the most keys a call takes: 100 with all, 0 (no limit)
	// with each.
	MaxKeys int `json:"maxKeys,omitempty"`
	// IfAbsent and IfPresent are the errors a failed condition of one
	// key's write gives, when its item does not exist and when it does.
	IfAbsent  string `json:"ifAbsent,omitempty"`
	IfPresent string `json:"ifPresent,omitempty"`
}

// Step is one step of a transaction: the member of the
// transaction's item it fills, its table, key and request, and where its
// inputs come from.
type Step struct {
	// Step is the step's number, from 1.
	Step int `json:"step"`
	// Action is Put, Update, Delete, ConditionCheck or Get.
	Action string `json:"action"`
	// Operation is the step's operation in the spec: put, create,
	// update, delete, check or get.
	Operation string `json:"operation"`
	Entity    string `json:"entity"`
	Table     string `json:"table"`
	Key       string `json:"key"`
	Request
	// IfAbsent and IfPresent are the errors a failed condition of the
	// step gives, when its item does not exist and when it does.
	IfAbsent  string `json:"ifAbsent,omitempty"`
	IfPresent string `json:"ifPresent,omitempty"`
	// Inputs are the fields of the method's struct each parameter of the
	// step takes ("Like", "Like.PhotoID", "Debit").
	Inputs []string `json:"inputs"`
	Cost   Cost     `json:"cost"`
}

// Request is the expressions a call sends, with their attribute
// name and value placeholders: the strings plan.Request holds, which the
// generated code sends as they are. An expression the call does not send
// is "" (left out of the JSON).
type Request struct {
	KeyCondition string `json:"keyCondition,omitempty"`
	Projection   string `json:"projection,omitempty"`
	Filter       string `json:"filter,omitempty"`
	// Update is the update expression a call sends when it gives every
	// optional attribute a value (see docs/spec.md on optional
	// attributes).
	Update    string `json:"update,omitempty"`
	Condition string `json:"condition,omitempty"`
	// Limit is the Limit the call sends whatever the caller asks: 1 for a
	// get through an index and for a query's first item; 0 for none.
	Limit int `json:"limit,omitempty"`
	// PageLimit is the Limit a page of a Query sends when the caller's
	// page sets none (the pattern's limit); 0 for none, DynamoDB's 1 MB
	// page, and for a call with a fixed Limit.
	PageLimit int `json:"pageLimit,omitempty"`
	// Order is the order a Query reads the sort key in: asc
	// (ScanIndexForward unsent, DynamoDB's default) or desc
	// (ScanIndexForward false); "" for any other call.
	Order  string  `json:"order,omitempty"`
	Names  []Name  `json:"names,omitempty"`
	Values []Value `json:"values,omitempty"`
	// Item are the attributes a put or create writes in place of the
	// caller's values (no placeholder): its version and timestamps.
	Item []Value `json:"item,omitempty"`
	// Sometimes says which update actions a call sends only with some
	// values ("DELETE #tags :tags is sent only when tags holds
	// elements").
	Sometimes []string `json:"sometimes,omitempty"`
	// Held are the parts of the condition that hold attributes as the
	// item read has them (an update that moves a copy): Condition shows
	// each as Present; a call sends Absent instead, and no value, when
	// the item read lacks the attribute.
	Held []Held `json:"held,omitempty"`
	// AbsentAsRead are the attributes the item written leaves out when
	// the item read lacks them.
	AbsentAsRead []string `json:"absentAsRead,omitempty"`
	// fields are the lines the text report shows of the request
	// (plan.Request.Fields).
	fields []plan.Field
}

// Held is a part of a condition holding Attribute as read: Present
// (with the value read as Value) or Absent.
type Held struct {
	Attribute string `json:"attribute"`
	Present   string `json:"present"`
	Absent    string `json:"absent"`
	Value     string `json:"value"`
}

// Call is one request of a method that sends several: its call,
// the entity whose item it reads and its key.
type Call struct {
	Call   string `json:"call"`
	Entity string `json:"entity"`
	Key    string `json:"key"`
}

// Name is an ExpressionAttributeNames entry.
type Name struct {
	Placeholder string `json:"placeholder"`
	Attribute   string `json:"attribute"`
	// Key names the parameter whose value the call sends as the name:
	// the key of a map's entry the caller gives (Attribute is then
	// "{reviewer}").
	Key string `json:"key,omitempty"`
}

// Value is an ExpressionAttributeValues placeholder and where its
// value comes from.
type Value struct {
	Placeholder string `json:"placeholder"`
	// Source is one of partitionKey, sortKey, sortKeyLow, sortKeyHigh,
	// condition, set, add, addLimit, addRest, rebuiltKey, entityType,
	// keyInput, setConstant, removeFrom, versionExpected, versionStep,
	// versionFirst, versionNext, clock, item, itemConstant.
	Source string `json:"source"`
	// Attribute is the attribute the value is of, when there is one
	// (for rebuiltKey, the key attribute).
	Attribute string `json:"attribute,omitempty"`
	// Constant is the value of a constant of the spec, as sent
	// ({S: "closed"}).
	Constant string `json:"constant,omitempty"`
}

// Member is an entity among a call's items and how its items are
// told apart.
type Member struct {
	Entity string `json:"entity"`
	// By is keyCondition (the key condition reads only this entity),
	// sortKeyPrefix or entityAttribute.
	By string `json:"by"`
	// Attribute is the attribute By reads: the sort key or the entity
	// attribute.
	Attribute string `json:"attribute,omitempty"`
	Prefix    string `json:"prefix,omitempty"`
}

// Rewrite is an index key attribute an update writes again.
type Rewrite struct {
	Index     string `json:"index"`
	Attribute string `json:"attribute"`
	// Template is the key template the new value is built from; "" when
	// Remove is set.
	Template string `json:"template,omitempty"`
	// Remove is set when the update removes the key attribute: the item
	// leaves the index.
	Remove bool `json:"remove,omitempty"`
}

// Cost is the estimate of the capacity one call consumes.
type Cost struct {
	RCU    float64 `json:"rcu"`
	WCU    float64 `json:"wcu"`
	Detail string  `json:"detail"`
}

// Param is a parameter of the pattern's method, after ctx.
type Param struct {
	Name string `json:"name"`
	// GoType is its Go type as the generated package spells it.
	GoType string `json:"goType"`
	// Role is the Role's name (key, where, condition, set, add, removeFrom,
	// page, item, keys, items, version, clock), or input or requestToken
	// for the fields of a transaction's struct.
	Role      string `json:"role"`
	Attribute string `json:"attribute,omitempty"`
}

// Write is what one write of an entity's whole item costs.
type Write struct {
	Entity  string       `json:"entity"`
	Table   float64      `json:"table"`
	Indexes []IndexWrite `json:"indexes,omitempty"`
	Total   float64      `json:"total"`
}

// IndexWrite is the WCU one write costs on one index.
type IndexWrite struct {
	Index string  `json:"index"`
	WCU   float64 `json:"wcu"`
}

// Diagnostic is an error or a warning.
type Diagnostic struct {
	File string `json:"file"`
	// Line and Col are 0 when the diagnostic is about the whole file.
	Line     int    `json:"line"`
	Col      int    `json:"col"`
	Severity string `json:"severity"` // error or warning
	Message  string `json:"message"`
}

// New makes the report of a spec file: its plan p (nil when the model
// has errors) and its diagnostics.
func New(file string, p *plan.Plan, diags *diag.List) *Report {
	r := &Report{File: file, Tables: []Table{}, Patterns: []Pattern{}, Writes: []Write{}, Assumptions: []string{}, Diagnostics: []Diagnostic{}}
	for _, d := range diags.Sorted() {
		sev := "error"
		if d.Severity == diag.Warning {
			sev = "warning"
		}
		r.Diagnostics = append(r.Diagnostics, Diagnostic{File: d.Pos.File, Line: d.Pos.Line, Col: d.Pos.Col, Severity: sev, Message: d.Message})
	}
	if p == nil {
		return r
	}
	m := p.Model
	r.Package = m.Package
	r.Patterns = make([]Pattern, 0, len(p.Patterns))
	r.Assumptions = append(r.Assumptions, p.Assumptions...)
	for _, t := range m.Tables {
		rt := Table{Name: t.Name, EntityAttribute: t.EntityAttr, TTL: t.TTL, Stream: t.Stream, Indexes: []Index{}}
		rt.PartitionKey, rt.SortKey = keys(t.Primary())
		for _, ix := range t.Indexes[1:] {
			ri := Index{Name: ix.Name, Kind: ix.Kind.String(), Projection: "all", Inverted: ix.Inverted}
			ri.PartitionKey, ri.SortKey = keys(ix)
			if ix.Multi() {
				for _, ka := range ix.PartitionKeys() {
					ri.PartitionKeys = append(ri.PartitionKeys, Key{Name: ka.Name, Type: string(ka.Type)})
				}
				for _, ka := range ix.SortKeys() {
					ri.SortKeys = append(ri.SortKeys, Key{Name: ka.Name, Type: string(ka.Type)})
				}
			}
			switch ix.Projection {
			case model.ProjectKeys:
				ri.Projection = "keys"
			case model.ProjectInclude:
				ri.Projection = "include"
				ri.Include = ix.Include
			}
			rt.Indexes = append(rt.Indexes, ri)
		}
		r.Tables = append(r.Tables, rt)
	}
	for _, pp := range p.Patterns {
		r.Patterns = append(r.Patterns, PatternOf(pp))
	}
	for _, wa := range p.Writes {
		w := Write{Entity: wa.Entity.Name, Table: wa.Table, Total: wa.Total}
		for _, iw := range wa.Index {
			w.Indexes = append(w.Indexes, IndexWrite{Index: iw.Index.Name, WCU: iw.WCU})
		}
		r.Writes = append(r.Writes, w)
	}
	return r
}

func keys(ix *model.Index) (Key, *Key) {
	pk := Key{Name: ix.PK.Name, Type: fmt.Sprint(ix.PK.Type)}
	if ix.SK == nil {
		return pk, nil
	}
	return pk, &Key{Name: ix.SK.Name, Type: fmt.Sprint(ix.SK.Type)}
}

// costOf is the report of a capacity estimate.
func costOf(c plan.Cost) Cost { return Cost{RCU: c.RCU, WCU: c.WCU, Detail: c.Detail} }

// paramOf is the report of a parameter of pp's method.
func paramOf(pp *plan.Pattern, prm *plan.Param) Param {
	rprm := Param{Name: prm.Name, GoType: pp.GoType(prm), Role: prm.Role.String()}
	if prm.Attr != nil {
		rprm.Attribute = prm.Attr.Name
	}
	return rprm
}

// PatternOf is the pattern's part of the report: what `dyngen plan`
// prints of it, and the design document's row of it.
func PatternOf(pp *plan.Pattern) Pattern {
	if pp.Tx != nil {
		return txPattern(pp)
	}
	p := pp.Pattern
	rp := Pattern{
		Name: p.Name, Line: p.Pos.Line, Col: p.Pos.Col,
		Call: string(pp.Call), Table: p.Table.Name, Index: pp.Index.Name,
		Request: requestOf(pp.Request),
		Members: []Member{},
		Cost:    costOf(pp.Cost),
		Params:  []Param{},
	}
	for _, e := range p.Entities {
		rp.Entities = append(rp.Entities, e.Name)
	}
	if pp.Key != nil {
		rp.Key = pp.Key.Describe()
	}
	if ls := pp.Lookups(); len(ls) > 0 {
		rp.Key = ls[0].Key.Describe()
		for _, l := range ls {
			rp.Requests = append(rp.Requests, Call{Call: string(plan.GetItem), Entity: l.Entity.Name, Key: l.Key.Describe()})
		}
	}
	member := func(e *model.Entity, how plan.Recognize, prefix string) Member {
		switch how {
		case plan.BySortKeyPrefix:
			return Member{Entity: e.Name, By: "sortKeyPrefix", Attribute: pp.Index.SK.Name, Prefix: prefix}
		case plan.ByEntityAttr:
			return Member{Entity: e.Name, By: "entityAttribute", Attribute: p.Table.EntityAttr}
		}
		return Member{Entity: e.Name, By: "keyCondition"}
	}
	if len(pp.Members) == 0 {
		for _, e := range p.Entities {
			rp.Members = append(rp.Members, member(e, plan.ByKey, ""))
		}
	}
	for _, m := range pp.Members {
		rp.Members = append(rp.Members, member(m.Entity, m.How, m.Prefix))
	}
	rp.KeptOutByPrefix = pp.KeptOut.ByPrefix
	for _, e := range pp.KeptOut.Others {
		rp.KeptOut = append(rp.KeptOut, e.Name)
	}
	for _, f := range pp.Foreign {
		rp.Dropped = append(rp.Dropped, member(f.Entity, f.How, ""))
	}
	for _, rb := range pp.Rebuild {
		rw := Rewrite{Index: rb.Index.Name, Attribute: rb.KeyAttr.Name, Remove: rb.Remove}
		if !rb.Remove {
			rw.Template = rb.Template.Source
		}
		rp.Rewrites = append(rp.Rewrites, rw)
	}
	rp.Notes = notes(pp)
	if m := pp.Many; m != nil {
		rm := &Many{Mode: string(m.Mode), Action: string(m.Call), MaxKeys: m.Max, IfAbsent: m.IfAbsent, IfPresent: m.IfPresent}
		if m.Mode == model.ManyAll {
			rm.Action = m.Action
		}
		rp.Many = rm
		rp.Notes = append(manyNotes(pp), rp.Notes...)
	}
	for _, prm := range pp.Params {
		rp.Params = append(rp.Params, paramOf(pp, prm))
	}
	return rp
}

// txPattern is a transaction's part of the report.
func txPattern(pp *plan.Pattern) Pattern {
	p := pp.Pattern
	tx := pp.Tx
	rp := Pattern{
		Name: p.Name, Line: p.Pos.Line, Col: p.Pos.Col,
		Call: string(pp.Call), Table: p.Table.Name, Index: pp.Index.Name,
		Members: []Member{},
		Cost:    costOf(pp.Cost),
		Params:  []Param{},
	}
	for _, s := range tx.Steps {
		e := s.Step.Entity()
		if !slices.Contains(rp.Entities, e.Name) {
			rp.Entities = append(rp.Entities, e.Name)
			rp.Members = append(rp.Members, Member{Entity: e.Name, By: "keyCondition"})
		}
		rs := Step{
			Step: s.Step.Index + 1, Action: s.Action, Operation: string(s.Step.Op),
			Entity: e.Name, Table: s.Step.Table.Name, Key: s.Plan.Key.Describe(),
			Request:  requestOf(s.Plan.Request),
			IfAbsent: s.IfAbsent, IfPresent: s.IfPresent,
			Inputs: []string{},
			Cost:   costOf(s.Plan.Cost),
		}
		for _, a := range s.Args {
			rs.Inputs = append(rs.Inputs, a.String())
		}
		rp.Steps = append(rp.Steps, rs)
	}
	for _, in := range tx.Inputs {
		prm := Param{Name: pp.Struct.Var + "." + in.Field, GoType: in.GoType, Role: "input"}
		if in.Item != nil {
			prm.Role = "item"
		} else if in.Attr != nil {
			prm.Attribute = in.Attr.Name
		}
		rp.Params = append(rp.Params, prm)
	}
	if tx.Token != "" {
		rp.Params = append(rp.Params, Param{Name: pp.Struct.Var + "." + tx.Token, GoType: "string", Role: "requestToken"})
	}
	if tx.Now != "" {
		rp.Params = append(rp.Params, Param{Name: pp.Struct.Var + "." + tx.Now, GoType: "time.Time", Role: "clock"})
	}
	for _, d := range tx.Distinct {
		rp.Notes = append(rp.Notes, fmt.Sprintf("steps %d and %d may address one item: their keys are compared before the call", d[0]+1, d[1]+1))
	}
	if pp.Unique != nil {
		if pp.Key != nil {
			rp.Key = pp.Key.Describe()
		}
		rp.Notes = append(rp.Notes, uniqueNotes(pp)...)
		for _, prm := range pp.Params {
			rp.Params = append(rp.Params, paramOf(pp, prm))
		}
	}
	return rp
}

// notes are the details of a pattern's plan that the report says in
// words.
func notes(pp *plan.Pattern) []string {
	var out []string
	if pp.Unique != nil {
		out = append(out, uniqueNotes(pp)...)
	}
	if pp.Key != nil && pp.Key.SK.Narrowed {
		out = append(out, "the sort key is bounded to the range of its leading placeholder to keep other entities out")
	}
	if pp.Key != nil && pp.Key.SK.DropEqual {
		out = append(out, "DynamoDB's BETWEEN includes the bound: the item equal to it is dropped after the read")
	}
	if len(pp.FromKeys) > 0 {
		var names []string
		for _, a := range pp.FromKeys {
			names = append(names, a.Name)
		}
		out = append(out, fmt.Sprintf("%s not projected by %s: decoded from the key attributes", strings.Join(names, ", "), pp.Index.Name))
	}
	if note := pp.ExpiryNote(); note != "" {
		out = append(out, note)
	}
	return out
}

// manyNotes say in words how a write over many keys sends them.
func manyNotes(pp *plan.Pattern) []string {
	m := pp.Many
	e := pp.Entity().Name
	var out []string
	if m.Mode == model.ManyAll {
		out = append(out, fmt.Sprintf("many: all: one TransactWriteItems of %s of the %s of each key, in the order of the keys: all or none; at most %d keys, and no key twice (numbers by value), refused before the call (ErrTooManyKeys, ErrSameItem)", model.Article(m.Action), e, m.Max))
		if k := m.Kinds(); k != "" {
			out = append(out, fmt.Sprintf("a key whose item fails the condition: a *TransactionError naming the key's index, %s", k))
		}
	} else {
		results := ""
		if pp.Pattern.Op == model.OpUpdate {
			results = "the item of each key after the change, and "
		}
		out = append(out, fmt.Sprintf("many: each: one %s of the %s of each key, up to WithBatchConcurrency at once, whatever the others' results; %san *EachError naming the keys that failed, by index", m.Call, e, results))
		if k := m.Kinds(); k != "" {
			out = append(out, "a key whose item fails the condition: "+k)
		}
	}
	out = append(out, "every key is checked before any request (a refused key is named by its index)")
	return out
}

// uniqueNotes say in words how a pattern with unique values keeps or
// reads their claims.
func uniqueNotes(pp *plan.Pattern) []string {
	var out []string
	u := pp.Unique
	if c := u.Claim; c != nil {
		out = append(out, fmt.Sprintf("2 requests: GetItem of the claim %s, key %s, then GetItem of the %s by the key the claim holds; ErrNotFound when there is no claim, or the item no longer holds the value", c.Entity().Name, c.Key.Describe(), pp.Entity().Name))
	}
	if pp.Tx != nil {
		for _, s := range pp.Tx.Steps {
			if c := s.Step.Claim; c != nil && c.Each {
				what := "element it takes"
				if s.Step.Role == model.ReleaseStep {
					what = "element it releases"
				}
				out = append(out, fmt.Sprintf("step %d is sent once per %s of %s, up to %d (maxItems)", s.Step.Index+1, what, c.Label(), c.Attrs[0].MaxItems))
			}
		}
	}
	out = append(out, countNotes(pp)...)
	if pp.Tx != nil && len(pp.Entity().Each) > 0 {
		return append(out, eachNotes(pp, u.Read)...)
	}
	if r := u.Read; r != nil && len(pp.Pattern.ReadCopies) > 0 {
		return append(out, copyNotes(pp, r)...)
	}
	if r := u.Read; r != nil && len(pp.Pattern.Read) > 0 {
		var names []string
		for _, v := range pp.Pattern.Read {
			for _, a := range v.Attrs {
				if !slices.Contains(names, a.Name) {
					names = append(names, a.Name)
				}
			}
		}
		out = append(out, fmt.Sprintf("2 requests: GetItem of the item first (consistent, key %s) to read %s, then the TransactWriteItems; the write holds only while %s still holds the value read, and the claims of a value that does not change are not sent", r.Key.Describe(), strings.Join(names, ", "), strings.Join(names, ", ")))
		if e := u.Present.Empty; e != nil {
			out = append(out, emptyNote(e))
		}
		switch {
		case pp.Pattern.Op != model.OpPut:
		case len(u.Absent.Steps) > 0:
			out = append(out, "when the read finds no item, the put is sent as step 2, a create, with the claims of every value (steps 4, 6...), instead of step 1")
		default:
			out = append(out, "when the read finds no item, the put sends nothing and fails with ErrNotFound: a put of the version read never creates the item")
		}
	}
	return out
}

// sourceNames are the names of the sources of values in the report.
var sourceNames = map[plan.Source]string{
	plan.PKValue: "partitionKey", plan.KeyPart: "keyAttribute", plan.SKValue: "sortKey", plan.SKLow: "sortKeyLow", plan.SKHigh: "sortKeyHigh",
	plan.CondOperand: "condition", plan.SetValue: "set", plan.AddAmount: "add", plan.AddLimit: "addLimit",
	plan.AddRest: "addRest", plan.RebuiltKey: "rebuiltKey", plan.EntityType: "entityType", plan.KeyInput: "keyInput",
	plan.SetConst: "setConstant", plan.RemoveElems: "removeFrom", plan.Now: "now",
	plan.VersionExpected: "versionExpected", plan.VersionStep: "versionStep", plan.VersionFirst: "versionFirst",
	plan.VersionNext: "versionNext", plan.ClockNow: "clock", plan.ItemAttr: "item", plan.ItemConst: "itemConstant", plan.AddDefault: "addDefault",
}

// requestOf is the request's part of the report.
func requestOf(r *plan.Request) Request {
	rr := Request{KeyCondition: r.KeyCondition, Projection: r.Projection, Filter: r.Filter, Condition: r.FullCondition(), Limit: r.Limit, PageLimit: r.PageLimit, Order: string(r.Order()), Sometimes: r.Sometimes(), fields: r.Fields()}
	if r.Update != nil {
		rr.Update = r.Update.Expression()
	}
	for _, n := range r.Names {
		nm := Name{Placeholder: n.Placeholder, Attribute: n.Stored}
		if n.Key != nil {
			nm.Key = n.Key.MapKey
		}
		rr.Names = append(rr.Names, nm)
	}
	for _, v := range r.Values {
		rv := Value{Placeholder: v.Placeholder, Source: sourceNames[v.Source]}
		if v.Lit != nil {
			rv.Constant = v.Lit.String()
		}
		switch {
		case v.Rebuild != nil:
			rv.Attribute = v.Rebuild.KeyAttr.Name
		case v.Attr != nil:
			rv.Attribute = v.Attr.Name
		case v.Stored != "":
			rv.Attribute = v.Stored
		}
		rr.Values = append(rr.Values, rv)
	}
	for _, v := range r.Item {
		rv := Value{Source: sourceNames[v.Source], Attribute: v.Attr.Name}
		if v.Lit != nil {
			rv.Constant = v.Lit.String()
		}
		rr.Item = append(rr.Item, rv)
	}
	for _, h := range r.Held {
		rr.Held = append(rr.Held, Held{Attribute: h.Attr.Name, Present: h.Present, Absent: h.Absent, Value: h.Value})
	}
	for _, a := range r.AbsentAsRead {
		rr.AbsentAsRead = append(rr.AbsentAsRead, a.Name)
	}
	return rr
}

// WriteText writes the report as the readable text `dyngen plan` prints
// (without the diagnostics, which the command prints as file:line:col:
// message lines): the tables and indexes with a summary row per pattern,
// then every pattern's details, the write amplification of each entity
// and the assumptions of the estimates. No line is wider than Width
// columns, unless a name or a single word (a quoted template without
// spaces) is too long to fit. The sections are templates/plan.txt.tmpl.
func (r *Report) WriteText(w io.Writer) error {
	return templates.Plan.Execute(w, r.textView())
}

package plan

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/dyngen/dyngen/internal/diag"
	"github.com/dyngen/dyngen/internal/model"
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
	Tables   []ReportTable   `json:"tables"`
	Patterns []ReportPattern `json:"patterns"`
	// Writes is what one write of each entity's whole item costs.
	Writes []ReportWrite `json:"writes"`
	// Assumptions are the sizes the cost estimates assume.
	Assumptions []string `json:"assumptions"`
	// Diagnostics are every error and warning, sorted by position.
	Diagnostics []ReportDiagnostic `json:"diagnostics"`
}

// ReportTable is a table and its secondary indexes.
type ReportTable struct {
	Name            string        `json:"name"`
	PartitionKey    ReportKey     `json:"partitionKey"`
	SortKey         *ReportKey    `json:"sortKey,omitempty"`
	EntityAttribute string        `json:"entityAttribute"`
	TTL             string        `json:"ttl,omitempty"`
	Indexes         []ReportIndex `json:"indexes"`
}

// ReportKey is a key attribute: its name and DynamoDB type (S, N or B).
type ReportKey struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

// ReportIndex is a secondary index.
type ReportIndex struct {
	Name string `json:"name"`
	// Kind is GSI or LSI.
	Kind         string     `json:"kind"`
	PartitionKey ReportKey  `json:"partitionKey"`
	SortKey      *ReportKey `json:"sortKey,omitempty"`
	// Projection is all, keys or include; Include lists the attributes
	// an include projection adds to the keys.
	Projection string   `json:"projection"`
	Include    []string `json:"include,omitempty"`
	// Inverted is set for an index whose keys are the table's, swapped:
	// it holds every entity.
	Inverted bool `json:"inverted,omitempty"`
}

// ReportPattern is how one access pattern is served: one call, its
// request and its cost. A transaction is one call whose steps each have
// their own action, table, key and request (Steps); its own key and
// request are then empty.
type ReportPattern struct {
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
	Requests []ReportCall `json:"requests,omitempty"`
	// ReportRequest is what the call sends, as the generated code sends
	// it.
	ReportRequest
	// Members are the entities the call returns or writes, and how an
	// item read is told to be one of them.
	Members []ReportMember `json:"members"`
	// KeptOut are entities that share the partition, whose items the key
	// condition never reads.
	KeptOut []string `json:"keptOut,omitempty"`
	// Dropped are entities whose items the call can read and the
	// generated code drops, and how it tells them.
	Dropped []ReportMember `json:"dropped,omitempty"`
	// Rewrites are the index keys an update rewrites or removes.
	Rewrites []ReportRewrite `json:"rewrites,omitempty"`
	// Notes are further details of the plan, in words.
	Notes  []string      `json:"notes,omitempty"`
	Cost   ReportCost    `json:"cost"`
	Params []ReportParam `json:"params"`
	// Steps are the steps of a transaction, in request order.
	Steps []ReportStep `json:"steps,omitempty"`
}

// ReportStep is one step of a transaction: the member of the
// transaction's item it fills, its table, key and request, and where its
// inputs come from.
type ReportStep struct {
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
	ReportRequest
	// IfAbsent and IfPresent are the errors a failed condition of the
	// step gives, when its item does not exist and when it does.
	IfAbsent  string `json:"ifAbsent,omitempty"`
	IfPresent string `json:"ifPresent,omitempty"`
	// Inputs are the fields of the method's struct each parameter of the
	// step takes ("Like", "Like.PhotoID", "Debit").
	Inputs []string   `json:"inputs"`
	Cost   ReportCost `json:"cost"`
}

// ReportRequest is the expressions a call sends, with their attribute
// name and value placeholders: the strings plan.Request holds, which the
// generated code sends as they are. An expression the call does not send
// is "" (left out of the JSON).
type ReportRequest struct {
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
	Order  string        `json:"order,omitempty"`
	Names  []ReportName  `json:"names,omitempty"`
	Values []ReportValue `json:"values,omitempty"`
	// Item are the attributes a put or create writes in place of the
	// caller's values (no placeholder): its version and timestamps.
	Item []ReportValue `json:"item,omitempty"`
	// Sometimes says which update actions a call sends only with some
	// values ("DELETE #tags :tags is sent only when tags holds
	// elements").
	Sometimes []string `json:"sometimes,omitempty"`
}

// ReportCall is one request of a method that sends several: its call,
// the entity whose item it reads and its key.
type ReportCall struct {
	Call   string `json:"call"`
	Entity string `json:"entity"`
	Key    string `json:"key"`
}

// ReportName is an ExpressionAttributeNames entry.
type ReportName struct {
	Placeholder string `json:"placeholder"`
	Attribute   string `json:"attribute"`
}

// ReportValue is an ExpressionAttributeValues placeholder and where its
// value comes from.
type ReportValue struct {
	Placeholder string `json:"placeholder"`
	// Source is one of partitionKey, sortKey, sortKeyLow, sortKeyHigh,
	// condition, set, add, addLimit, addRest, rebuiltKey, entityType,
	// keyInput, setConstant, removeFrom, versionExpected, versionStep,
	// versionFirst, versionNext, clock, item.
	Source string `json:"source"`
	// Attribute is the attribute the value is of, when there is one
	// (for rebuiltKey, the key attribute).
	Attribute string `json:"attribute,omitempty"`
	// Constant is the value of a constant of the spec, as sent
	// ({S: "closed"}).
	Constant string `json:"constant,omitempty"`
}

// ReportMember is an entity among a call's items and how its items are
// told apart.
type ReportMember struct {
	Entity string `json:"entity"`
	// By is keyCondition (the key condition reads only this entity),
	// sortKeyPrefix or entityAttribute.
	By string `json:"by"`
	// Attribute is the attribute By reads: the sort key or the entity
	// attribute.
	Attribute string `json:"attribute,omitempty"`
	Prefix    string `json:"prefix,omitempty"`
}

// ReportRewrite is an index key attribute an update writes again.
type ReportRewrite struct {
	Index     string `json:"index"`
	Attribute string `json:"attribute"`
	// Template is the key template the new value is built from; "" when
	// Remove is set.
	Template string `json:"template,omitempty"`
	// Remove is set when the update removes the key attribute: the item
	// leaves the index.
	Remove bool `json:"remove,omitempty"`
}

// ReportCost is the estimate of the capacity one call consumes.
type ReportCost struct {
	RCU    float64 `json:"rcu"`
	WCU    float64 `json:"wcu"`
	Detail string  `json:"detail"`
}

// ReportParam is a parameter of the pattern's method, after ctx.
type ReportParam struct {
	Name string `json:"name"`
	// GoType is its Go type as the generated package spells it.
	GoType string `json:"goType"`
	// Role is the Role's name (key, where, condition, set, add, removeFrom,
	// page, item, keys, items, version, clock), or input or requestToken
	// for the fields of a transaction's struct.
	Role      string `json:"role"`
	Attribute string `json:"attribute,omitempty"`
}

// ReportWrite is what one write of an entity's whole item costs.
type ReportWrite struct {
	Entity  string             `json:"entity"`
	Table   float64            `json:"table"`
	Indexes []ReportIndexWrite `json:"indexes,omitempty"`
	Total   float64            `json:"total"`
}

// ReportIndexWrite is the WCU one write costs on one index.
type ReportIndexWrite struct {
	Index string  `json:"index"`
	WCU   float64 `json:"wcu"`
}

// ReportDiagnostic is an error or a warning.
type ReportDiagnostic struct {
	File string `json:"file"`
	// Line and Col are 0 when the diagnostic is about the whole file.
	Line     int    `json:"line"`
	Col      int    `json:"col"`
	Severity string `json:"severity"` // error or warning
	Message  string `json:"message"`
}

// NewReport makes the report of a spec file: its plan p (nil when the
// model has errors) and its diagnostics.
func NewReport(file string, p *Plan, diags *diag.List) *Report {
	r := &Report{File: file, Tables: []ReportTable{}, Patterns: []ReportPattern{}, Writes: []ReportWrite{}, Assumptions: []string{}, Diagnostics: []ReportDiagnostic{}}
	for _, d := range diags.Sorted() {
		sev := "error"
		if d.Severity == diag.Warning {
			sev = "warning"
		}
		r.Diagnostics = append(r.Diagnostics, ReportDiagnostic{File: d.Pos.File, Line: d.Pos.Line, Col: d.Pos.Col, Severity: sev, Message: d.Message})
	}
	if p == nil {
		return r
	}
	m := p.Model
	r.Package = m.Package
	r.Assumptions = append(r.Assumptions, p.Assumptions...)
	for _, t := range m.Tables {
		rt := ReportTable{Name: t.Name, EntityAttribute: t.EntityAttr, TTL: t.TTL, Indexes: []ReportIndex{}}
		rt.PartitionKey, rt.SortKey = reportKeys(t.Primary())
		for _, ix := range t.Indexes[1:] {
			ri := ReportIndex{Name: ix.Name, Kind: ix.Kind.String(), Projection: "all", Inverted: ix.Inverted}
			ri.PartitionKey, ri.SortKey = reportKeys(ix)
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
		r.Patterns = append(r.Patterns, pp.report())
	}
	for _, wa := range p.Writes {
		w := ReportWrite{Entity: wa.Entity.Name, Table: wa.Table, Total: wa.Total}
		for _, iw := range wa.Index {
			w.Indexes = append(w.Indexes, ReportIndexWrite{Index: iw.Index.Name, WCU: iw.WCU})
		}
		r.Writes = append(r.Writes, w)
	}
	return r
}

func reportKeys(ix *model.Index) (ReportKey, *ReportKey) {
	pk := ReportKey{Name: ix.PK.Name, Type: fmt.Sprint(ix.PK.Type)}
	if ix.SK == nil {
		return pk, nil
	}
	return pk, &ReportKey{Name: ix.SK.Name, Type: fmt.Sprint(ix.SK.Type)}
}

// report is the pattern's part of the report.
func (pp *Pattern) report() ReportPattern {
	if pp.Tx != nil {
		return pp.txReport()
	}
	p := pp.Pattern
	rp := ReportPattern{
		Name: p.Name, Line: p.Pos.Line, Col: p.Pos.Col,
		Call: string(pp.Call), Table: p.Table.Name, Index: pp.Index.Name,
		ReportRequest: pp.Request.report(),
		Members:       []ReportMember{},
		Cost:          ReportCost{RCU: pp.Cost.RCU, WCU: pp.Cost.WCU, Detail: pp.Cost.Detail},
		Params:        []ReportParam{},
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
			rp.Requests = append(rp.Requests, ReportCall{Call: string(GetItem), Entity: l.Entity.Name, Key: l.Key.Describe()})
		}
	}
	member := func(e *model.Entity, how Recognize, prefix string) ReportMember {
		switch how {
		case BySortKeyPrefix:
			return ReportMember{Entity: e.Name, By: "sortKeyPrefix", Attribute: pp.Index.SK.Name, Prefix: prefix}
		case ByEntityAttr:
			return ReportMember{Entity: e.Name, By: "entityAttribute", Attribute: p.Table.EntityAttr}
		}
		return ReportMember{Entity: e.Name, By: "keyCondition"}
	}
	if len(pp.Members) == 0 {
		for _, e := range p.Entities {
			rp.Members = append(rp.Members, member(e, ByKey, ""))
		}
	}
	for _, m := range pp.Members {
		rp.Members = append(rp.Members, member(m.Entity, m.How, m.Prefix))
	}
	for _, e := range pp.KeptOut {
		rp.KeptOut = append(rp.KeptOut, e.Name)
	}
	for _, f := range pp.Foreign {
		rp.Dropped = append(rp.Dropped, member(f.Entity, f.How, ""))
	}
	for _, rb := range pp.Rebuild {
		rw := ReportRewrite{Index: rb.Index.Name, Attribute: rb.KeyAttr.Name, Remove: rb.Remove}
		if !rb.Remove {
			rw.Template = rb.Template.Source
		}
		rp.Rewrites = append(rp.Rewrites, rw)
	}
	rp.Notes = pp.notes()
	for _, prm := range pp.Params {
		rprm := ReportParam{Name: prm.Name, GoType: pp.GoType(prm), Role: prm.Role.String()}
		if prm.Attr != nil {
			rprm.Attribute = prm.Attr.Name
		}
		rp.Params = append(rp.Params, rprm)
	}
	return rp
}

// txReport is a transaction's part of the report.
func (pp *Pattern) txReport() ReportPattern {
	p := pp.Pattern
	tx := pp.Tx
	rp := ReportPattern{
		Name: p.Name, Line: p.Pos.Line, Col: p.Pos.Col,
		Call: string(pp.Call), Table: p.Table.Name, Index: pp.Index.Name,
		Members: []ReportMember{},
		Cost:    ReportCost{RCU: pp.Cost.RCU, WCU: pp.Cost.WCU, Detail: pp.Cost.Detail},
		Params:  []ReportParam{},
	}
	for _, s := range tx.Steps {
		e := s.Step.Entity()
		if !slices.Contains(rp.Entities, e.Name) {
			rp.Entities = append(rp.Entities, e.Name)
			rp.Members = append(rp.Members, ReportMember{Entity: e.Name, By: "keyCondition"})
		}
		rs := ReportStep{
			Step: s.Step.Index + 1, Action: s.Action, Operation: string(s.Step.Op),
			Entity: e.Name, Table: s.Step.Table.Name, Key: s.Plan.Key.Describe(),
			ReportRequest: s.Plan.Request.report(),
			IfAbsent:      s.IfAbsent, IfPresent: s.IfPresent,
			Inputs: []string{},
			Cost:   ReportCost{RCU: s.Plan.Cost.RCU, WCU: s.Plan.Cost.WCU, Detail: s.Plan.Cost.Detail},
		}
		for _, a := range s.Args {
			rs.Inputs = append(rs.Inputs, a.String())
		}
		rp.Steps = append(rp.Steps, rs)
	}
	for _, in := range tx.Inputs {
		prm := ReportParam{Name: pp.Struct.Var + "." + in.Field, GoType: in.GoType, Role: "input"}
		if in.Item != nil {
			prm.Role = "item"
		} else if in.Attr != nil {
			prm.Attribute = in.Attr.Name
		}
		rp.Params = append(rp.Params, prm)
	}
	if tx.Token != "" {
		rp.Params = append(rp.Params, ReportParam{Name: pp.Struct.Var + "." + tx.Token, GoType: "string", Role: "requestToken"})
	}
	if tx.Now != "" {
		rp.Params = append(rp.Params, ReportParam{Name: pp.Struct.Var + "." + tx.Now, GoType: "time.Time", Role: "clock"})
	}
	for _, d := range tx.Distinct {
		rp.Notes = append(rp.Notes, fmt.Sprintf("steps %d and %d may address one item: their keys are compared before the call", d[0]+1, d[1]+1))
	}
	if pp.Unique != nil {
		if pp.Key != nil {
			rp.Key = pp.Key.Describe()
		}
		rp.Notes = append(rp.Notes, pp.Unique.notes(pp)...)
		for _, prm := range pp.Params {
			rprm := ReportParam{Name: prm.Name, GoType: pp.GoType(prm), Role: prm.Role.String()}
			if prm.Attr != nil {
				rprm.Attribute = prm.Attr.Name
			}
			rp.Params = append(rp.Params, rprm)
		}
	}
	return rp
}

// notes are the details of a pattern's plan that the report says in
// words.
func (pp *Pattern) notes() []string {
	var out []string
	if u := pp.Unique; u != nil {
		out = append(out, u.notes(pp)...)
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

// ExpiryNote says how the call treats an item whose time to live has
// passed, or "" when it reads or writes it as stored: the report's note
// and the generated method's doc.
func (pp *Pattern) ExpiryNote() string {
	x := pp.Request.Expiry
	if x == nil {
		return ""
	}
	what := fmt.Sprintf("(%s at or before the Store's clock), which DynamoDB deletes only eventually,", x.Attr)
	switch {
	case x.InCode && pp.Call == BatchGetItem:
		return "expired items " + what + " are absent: read and billed, then left out"
	case x.InCode:
		return "an expired item " + what + " is absent: read and billed, then answered ErrNotFound"
	case pp.Call == Query:
		return "expired items " + what + " are absent: read and billed, then left out by the filter"
	case pp.Pattern.Op == model.OpCreate:
		return "an expired item " + what + " is absent: the create replaces it"
	}
	return "an expired item " + what + " is absent: the update answers ErrNotFound"
}

// sourceNames are the names of the sources of values in the report.
var sourceNames = map[Source]string{
	PKValue: "partitionKey", SKValue: "sortKey", SKLow: "sortKeyLow", SKHigh: "sortKeyHigh",
	CondOperand: "condition", SetValue: "set", AddAmount: "add", AddLimit: "addLimit",
	AddRest: "addRest", RebuiltKey: "rebuiltKey", EntityType: "entityType", KeyInput: "keyInput",
	SetConst: "setConstant", RemoveElems: "removeFrom", Now: "now",
	VersionExpected: "versionExpected", VersionStep: "versionStep", VersionFirst: "versionFirst",
	VersionNext: "versionNext", ClockNow: "clock", ItemAttr: "item",
}

// report is the request's part of the report.
func (r *Request) report() ReportRequest {
	rr := ReportRequest{KeyCondition: r.KeyCondition, Projection: r.Projection, Filter: r.Filter, Condition: r.Condition, Limit: r.Limit, PageLimit: r.PageLimit}
	if r.KeyCondition != "" {
		// A Query: the order it reads in.
		rr.Order = string(model.Asc)
		if r.Descending {
			rr.Order = string(model.Desc)
		}
	}
	if r.Update != nil {
		rr.Update = r.Update.Expression()
	}
	for _, n := range r.Names {
		rr.Names = append(rr.Names, ReportName{Placeholder: n.Placeholder, Attribute: n.Stored})
	}
	if r.Update != nil {
		for _, c := range r.Update.Sometimes() {
			if len(c.Unless) > 0 && c.Instead == "" {
				rr.Sometimes = append(rr.Sometimes, fmt.Sprintf("DELETE %s is sent only when %s holds elements", c.Text, c.Unless[0].Name))
			}
		}
	}
	for _, v := range r.Values {
		rv := ReportValue{Placeholder: v.Placeholder, Source: sourceNames[v.Source]}
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
		rv := ReportValue{Source: sourceNames[v.Source], Attribute: v.Attr.Name}
		if v.Lit != nil {
			rv.Constant = v.Lit.String()
		}
		rr.Item = append(rr.Item, rv)
	}
	return rr
}

// Describe lists the request's expressions as a call sends them, one per
// line ("KeyConditionExpression: #pk = :pk").
func (r *Request) Describe() []string {
	var out []string
	for _, f := range r.report().fields() {
		out = append(out, f.label+": "+f.value)
	}
	return out
}

// field is a labelled line of the text report.
type field struct{ label, value string }

// fields are the request's expressions under the names of the call's
// fields.
func (rr ReportRequest) fields() []field {
	var out []field
	add := func(label, expr string) {
		if expr != "" {
			out = append(out, field{label, expr})
		}
	}
	add("KeyConditionExpression", rr.KeyCondition)
	add("ProjectionExpression", rr.Projection)
	add("FilterExpression", rr.Filter)
	add("UpdateExpression", rr.Update)
	add("ConditionExpression", rr.Condition)
	switch rr.Order {
	case string(model.Asc):
		add("ScanIndexForward", "not sent (ascending, DynamoDB's default)")
	case string(model.Desc):
		add("ScanIndexForward", "false (descending)")
	}
	switch {
	case rr.Limit > 0:
		add("Limit", strconv.Itoa(rr.Limit))
	case rr.PageLimit > 0:
		add("Limit", strconv.Itoa(rr.PageLimit)+", unless the page sets another")
	case rr.Order != "":
		add("Limit", "none (a page holds up to 1 MB), unless the page sets one")
	}
	for _, note := range rr.Sometimes {
		out = append(out, field{"note", note})
	}
	var consts []string
	for _, v := range rr.Values {
		if v.Constant != "" {
			consts = append(consts, v.Placeholder+"="+v.Constant)
		}
	}
	add("constant values", strings.Join(consts, ", "))
	var item []string
	for _, v := range rr.Item {
		switch {
		case v.Constant != "":
			item = append(item, v.Attribute+"="+v.Constant)
		case v.Source == "versionNext":
			item = append(item, v.Attribute+"=the version read + 1")
		default:
			item = append(item, v.Attribute+"=the Store's clock")
		}
	}
	add("written in the item", strings.Join(item, ", "))
	if len(rr.Names) > 0 {
		var names []string
		for _, nm := range rr.Names {
			names = append(names, nm.Placeholder+"="+strconv.Quote(nm.Attribute))
		}
		add("ExpressionAttributeNames", strings.Join(names, ", "))
	}
	return out
}

// WriteText writes the report as the readable text `dyngen plan` prints
// (without the diagnostics, which the command prints as file:line:col:
// message lines): the tables and indexes with a summary row per pattern,
// then every pattern's details, the write amplification of each entity
// and the assumptions of the estimates. No line is wider than
// ReportWidth columns, unless a name or a single word (a quoted template
// without spaces) is too long to fit. The sections are
// templates/plan.txt.tmpl.
func (r *Report) WriteText(w io.Writer) error {
	return planTemplate.Execute(w, r.textView())
}

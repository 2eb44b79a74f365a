package golang

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/plan"
)

// The attributes the generated code sets itself, never the caller: an
// entity's version (optimistic locking) and its timestamps. The plan
// decides their expressions and values (plan.VersionExpected,
// VersionStep, VersionFirst, VersionNext, ClockNow, Request.Item); the
// printers here print them for every write pattern.

// writeForm is the form of the write itself: the pattern's, or, for a
// write of an entity with unique values, its first step's, its own.
func (m *method) writeForm() plan.Form {
	if m.pp.Form == plan.FormUniqueWrite {
		return m.pp.Tx.Steps[0].Plan.Form
	}
	return m.pp.Form
}

// versionParam is the parameter the write takes the version its caller
// read in (Pattern.Version): the version's own (item is false), or the
// item it writes, whose field holds it (a put has no version parameter).
func (m *method) versionParam() (p *plan.Param, item bool) {
	if p := m.pp.Param(plan.ParamVersion, m.pp.Version, nil, 0); p != nil {
		return p, false
	}
	if p := m.pp.Params[0]; p.Role == plan.ParamItem {
		return p, true
	}
	m.e.bug("pattern %s has no version parameter", m.p.Name)
	return &plan.Param{Name: "_"}, false
}

// expectedVersion is the version the caller read, as the method (not its
// input builder) reads it: the item's field for a put, else the version
// parameter, or its field in the params struct.
func (m *method) expectedVersion() jen.Code {
	p, item := m.versionParam()
	switch {
	case item:
		return jen.Id(p.Name).Dot(m.pp.Version.GoName)
	case p.Field != "":
		return jen.Id(m.pp.Struct.Var).Dot(p.Field)
	}
	return jen.Id(p.Name)
}

// clockParam is the parameter of a transaction's step builder that
// gives the time the transaction read, or nil.
func (m *method) clockParam() *plan.Param {
	for _, q := range m.pp.Params {
		if q.Role == plan.ParamClock {
			return q
		}
	}
	return nil
}

// usesClock reports whether the request sends a time of the Store's
// clock.
func (m *method) usesClock() bool {
	for _, vs := range [][]*plan.Value{m.req.Values, m.req.Item} {
		for _, v := range vs {
			if v.Source == plan.ClockNow {
				return true
			}
		}
	}
	return false
}

// clockLocal emits the reading of the Store's clock, once per call, when
// the request sends one of its times, and returns the local holding it.
func (m *method) clockLocal(g *jen.Group) string {
	if !m.usesClock() {
		return ""
	}
	if q := m.clockParam(); q != nil {
		// A transaction's step: the transaction read the clock.
		return q.Name
	}
	now := m.local("now")
	g.Id(now).Op(":=").Add(m.id("s")).Dot(model.ClockField).Call()
	return now
}

// managedValue is the attribute value of a value of the version or of a
// timestamp, in the input builder; now is the local holding the clock's
// time. ok is false for a value of another source.
func (m *method) managedValue(v *plan.Value, now string) (jen.Code, bool) {
	switch v.Source {
	case plan.VersionExpected:
		if p, item := m.versionParam(); item {
			return attrValue(v.Attr, jen.Id(p.Name).Dot(v.Attr.GoName)), true
		}
		return attrValue(v.Attr, m.param(plan.ParamVersion, v.Attr, nil, 0)), true
	case plan.VersionStep, plan.VersionFirst:
		return literalValue(v.Lit), true
	case plan.VersionNext:
		return attrValue(v.Attr, jen.Id(m.pp.Params[0].Name).Dot(v.Attr.GoName).Op("+").Lit(1)), true
	case plan.ClockNow:
		return attrValue(v.Attr, jen.Id(now)), true
	}
	return nil, false
}

// stampItem emits the writing of the version and the timestamps a put or
// create sets (Request.Item) into item, over the caller's values.
func (m *method) stampItem(g *jen.Group, item, now string) {
	for _, v := range m.req.Item {
		if v.Source == plan.ItemConst {
			continue // marshalled with the item (marshalStamped)
		}
		val, _ := m.managedValue(v, now)
		g.Id(item).Index(jen.Lit(v.Attr.Stored)).Op("=").Add(val)
	}
}

// marshalStamped emits the marshalling of the item r into the local item,
// and the reading of the clock; it returns the local holding the time.
// When an index key is built from the created time (StampCreated), or
// the pattern sets constants (plan.ItemConst), the item is marshalled
// from a copy of r holding the clock's time and the constants, so that
// the item and its keys hold what the write stores.
func (m *method) marshalStamped(g *jen.Group, r string, fail func(jen.Code) jen.Code) string {
	consts := itemConsts(m.req)
	if !m.req.StampCreated && len(consts) == 0 {
		g.List(m.id("item"), m.id("err")).Op(":=").Id(r).Dot("MarshalItem").Call()
		g.If(m.id("err").Op("!=").Nil()).Block(fail(m.id("err")))
		return m.clockLocal(g)
	}
	now := m.clockLocal(g)
	stamped := m.local("stamped")
	g.Id(stamped).Op(":=").Op("*").Id(r)
	if m.req.StampCreated {
		g.Id(stamped).Dot(m.ent().Created.GoName).Op("=").Id(now)
	}
	// The constants of the pattern's set, whatever the caller's item
	// holds: the item and its keys are marshalled with them.
	m.setItemConsts(g, stamped, consts)
	g.List(m.id("item"), m.id("err")).Op(":=").Id(stamped).Dot("MarshalItem").Call()
	g.If(m.id("err").Op("!=").Nil()).Block(fail(m.id("err")))
	return now
}

// itemConsts are the constants of the set of a put or create the
// request writes (plan.ItemConst).
func itemConsts(req *plan.Request) []*plan.Value {
	var out []*plan.Value
	for _, v := range req.Item {
		if v.Source == plan.ItemConst {
			out = append(out, v)
		}
	}
	return out
}

// setItemConsts emits the setting of the fields of item (a local of the
// entity's type, or a pointer to one) to the constants consts.
func (m *method) setItemConsts(g *jen.Group, item string, consts []*plan.Value) {
	for _, v := range consts {
		val := goLiteral(m.ent(), v.Attr, v.Lit)
		if v.Attr.StoredForm().Pointer {
			g.Id(item).Dot(v.Attr.GoName).Op("=").New(goType(m.ent(), v.Attr))
			g.Op("*").Id(item).Dot(v.Attr.GoName).Op("=").Add(val)
			continue
		}
		g.Id(item).Dot(v.Attr.GoName).Op("=").Add(val)
	}
}

// refreshItem emits, after a put or create that set the version or the
// timestamps, the decoding of the item written into the caller's item,
// so that it holds its new version and times.
func (m *method) refreshItem(g *jen.Group, fail func(jen.Code) jen.Code) {
	if len(m.req.Item) == 0 {
		return
	}
	r := m.pp.Params[0].Name
	g.If(m.id("err").Op(":=").Id(r).Dot("UnmarshalItem").Call(m.id("in").Dot("Item")), m.id("err").Op("!=").Nil()).Block(fail(m.id("err")))
}

// versionErr is the error of a failed write of a versioned item:
// ErrNotFound, ErrVersionConflict, or present (the when condition).
func (m *method) versionErr(present string) jen.Code {
	a := m.pp.Version
	ttl, now := jen.Lit(""), jen.Code(jen.Nil())
	if x := m.req.Expiry; x != nil && !x.InCode {
		// An expired item is absent: the now the request sent tells.
		ttl = jen.Lit(x.Attr)
		now = m.id("in").Dot("ExpressionAttributeValues").Index(jen.Lit(m.req.Placeholder(plan.Now)))
	}
	return rt("VersionErr").Call(jen.Lit(m.p.GoName), m.id("err"), jen.Lit(a.Stored), m.expectedVersion(), jen.Id(present), ttl, now)
}

// managedDoc is what the method's doc says of the version and the
// timestamps it sets and checks.
func (m *method) managedDoc() string {
	e := m.ent()
	form := m.writeForm()
	var out string
	if a := m.pp.Version; a != nil {
		p, item := m.versionParam()
		read := p.Name
		if item {
			read += "." + a.GoName
		}
		out += fmt.Sprintf(" %s is versioned: the stored %s must be %s, the version read, or the call fails with ErrVersionConflict", e.GoName, a.Name, read)
		if form == plan.FormUpdate {
			out += "." // its summary says ErrNotFound already
		} else {
			out += " (ErrNotFound when there is no item)."
		}
		switch form {
		case plan.FormPut, plan.FormReplace:
			out += fmt.Sprintf(" It writes %s + 1.", read)
		case plan.FormUpdate:
			out += fmt.Sprintf(" It adds one to %s.", a.Name)
		}
	}
	var consts []string
	req := m.req
	if m.pp.Form == plan.FormUniqueWrite {
		req = m.pp.Tx.Steps[0].Plan.Request
	}
	for _, v := range itemConsts(req) {
		text := v.Lit.Text
		if v.Lit.Dynamo == "S" {
			text = strconv.Quote(text)
		}
		consts = append(consts, v.Attr.Name+" "+text)
	}
	// writtenBack: the last sentence says the caller's item holds what
	// was written, constants included.
	writtenBack := len(m.req.Item) > 0 && form != plan.FormBatchPut
	if len(consts) > 0 {
		r := m.pp.Params[0].Name
		out += fmt.Sprintf(" It writes %s (set) whatever %s holds", strings.Join(consts, ", "), r)
		if !writtenBack {
			them := "them"
			if len(consts) == 1 {
				them = "it"
			}
			out += fmt.Sprintf(", and on success %s holds %s", r, them)
		}
		out += "."
	}
	if a := e.Version; a != nil && form == plan.FormCreate {
		out += fmt.Sprintf(" It writes %s 1, whatever the item holds.", a.Name)
	}
	var stamps []string
	switch form {
	case plan.FormCreate:
		for _, a := range []*model.Attribute{e.Created, e.Updated} {
			if a != nil {
				stamps = append(stamps, a.Name)
			}
		}
	case plan.FormUpdate:
		if e.Created != nil && m.p.Upsert {
			out += fmt.Sprintf(" A new item's %s is the Store's clock's time; an existing item keeps its own.", e.Created.Name)
		}
		fallthrough
	case plan.FormPut, plan.FormReplace, plan.FormBatchPut:
		if e.Updated != nil {
			stamps = append(stamps, e.Updated.Name)
		}
	}
	switch len(stamps) {
	case 1:
		out += fmt.Sprintf(" It sets %s from the Store's clock, whatever the caller gives.", stamps[0])
	case 2:
		out += fmt.Sprintf(" It sets %s and %s from the Store's clock, whatever the caller gives.", stamps[0], stamps[1])
	}
	if writtenBack {
		out += fmt.Sprintf(" On success %s holds the item as written.", m.pp.Params[0].Name)
	}
	return out
}

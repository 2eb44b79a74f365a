package golang

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/plan"
)

// highCharPiece is the highChar constant as a piece of a key's text.
var highCharPiece = rt("HighChar")

// fail is how the body of the pattern's Store method returns an error:
// zero (the values of its other results), then the error err wrapped in
// a callError naming the method. Every error the method returns passes
// here (the SDK's, a KeyError, an ItemError, ErrNotFound, a cursor's),
// except a conditional write's, which conditionError names (writeErr),
// and a query's DecodeError, which decodeErr names (see query).
func (m *method) fail(zero ...jen.Code) func(err jen.Code) jen.Code {
	return func(err jen.Code) jen.Code {
		return jen.Return(append(slices.Clip(zero), m.callErr(nil, err))...)
	}
}

// callErr is the runtime's error of the method: Fail(method, cause),
// or FailKind(method, kind, cause) with a kind.
func (m *method) callErr(kind, cause jen.Code) jen.Code {
	if kind == nil {
		return rt("Fail").Call(jen.Lit(m.p.GoName), cause)
	}
	if cause == nil {
		cause = jen.Nil()
	}
	return rt("FailKind").Call(jen.Lit(m.p.GoName), kind, cause)
}

// readLines are the doc lines of a read beyond the key condition.
func (m *method) readLines() []string {
	var out []string
	pp := m.pp
	if pp.Key != nil && pp.Key.SK.Narrowed {
		out = append(out, "(the sort key is bounded to the range of its first placeholder, which keeps other entities out)")
	}
	if pp.Call != plan.GetItem {
		// What the key condition keeps out: the rule once, the exceptions
		// by name (plan.KeptOut).
		if rule := pp.KeptOut.PrefixRule(); rule != "" {
			out = append(out, fmt.Sprintf("Items of %s, share the partition; the key condition never reads them.", rule))
		}
		if others := pp.KeptOut.Others; len(others) > 0 {
			var names []string
			for _, e := range others {
				names = append(names, e.Name)
			}
			out = append(out, fmt.Sprintf("Items of %s share the partition; the key condition never reads them.", strings.Join(names, ", ")))
		}
	}
	for _, f := range pp.Foreign {
		if f.How == plan.ByEntityAttr {
			out = append(out, fmt.Sprintf("%s items may be read too (read cost); they are dropped by %s.", f.Entity.Name, m.p.Table.EntityAttr))
		} else {
			out = append(out, fmt.Sprintf("%s items may be read too (read cost); they are dropped by their sort key prefix.", f.Entity.Name))
		}
	}
	if m.req.Projection != "" {
		out = append(out, "ProjectionExpression: "+m.req.Projection)
	}
	if m.req.Filter != "" {
		out = append(out, "FilterExpression: "+m.req.Filter+" (DynamoDB reads, and bills, the items it drops)")
	}
	if m.p.Consistent {
		out = append(out, "ConsistentRead: true")
	}
	if note := m.pp.ExpiryNote(); note != "" {
		out = append(out, upperFirst(note)+".")
	}
	return out
}

// upperFirst is s with its first letter in upper case.
func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// clockNow is the Store clock's now, in epoch seconds.
func (m *method) clockNow() jen.Code {
	if q := m.clockParam(); q != nil {
		return jen.Add(m.paramRef(q)).Dot("Unix").Call()
	}
	return m.id("s").Dot(model.ClockField).Call().Dot("Unix").Call()
}

// dropsForeign reports whether a read of one entity may read items of
// others, which its entity attribute tells apart.
func (m *method) dropsForeign() bool {
	return len(m.pp.Members) == 1 && m.pp.Members[0].How == plan.ByEntityAttr
}

// bound emits one value of the sort key condition: the bound prefix of the
// template, then the where operand (or the least or greatest encoding of
// its attribute), then the high character. It returns the text of a
// string sort key's value, or the value of a whole N or B sort key.
func (m *method) bound(g *jen.Group, scope map[string]string, b plan.Bound, val func(*model.Attribute) jen.Code, fail func(jen.Code) jen.Code, beginsWith bool) (value, text jen.Code) {
	s := m.pp.Key.SK
	tm := s.Template
	w := s.Range
	if ka := m.pp.Key.RangeAttr(); ka != nil {
		// A sort key attribute of a multi-attribute key: the operand is
		// the value, in the attribute's stored form.
		op := m.param(plan.ParamWhere, w.Attr, nil, b.Operand)
		switch {
		case ka.Type == model.N:
			return m.e.numberKeyValue(g, scope, w.Attr, op, m.pp.Param(plan.ParamWhere, w.Attr, nil, b.Operand).Name, fail), nil
		case !beginsWith:
			naturalKeyCheck(g, w.Attr, op, scopeLocal(scope, "err"), fail)
		case w.Attr.Type == model.Bytes:
			// DynamoDB takes no empty value of a key attribute, a prefix
			// included.
			g.If(jen.Len(op).Op("==").Lit(0)).Block(fail(emptyKeyError(w.Attr)))
		default:
			g.If(jen.String().Parens(op).Op("==").Lit("")).Block(fail(emptyKeyError(w.Attr)))
		}
		return attrValue(w.Attr, op), nil
	}
	if tm.KeyType != model.S {
		// A whole N or B sort key: the operand is the value.
		op := m.param(plan.ParamWhere, w.Attr, nil, b.Operand)
		if tm.KeyType == model.N {
			return m.e.numberKeyValue(g, scope, w.Attr, op, m.pp.Param(plan.ParamWhere, w.Attr, nil, b.Operand).Name, fail), nil
		}
		return attrValue(w.Attr, op), nil
	}
	parts := m.e.keyPieces(g, scope, tm, s.Prefix, val, fail)
	// then appends to the bound's text.
	then := func(c jen.Code) { parts = append(parts, piece{code: c}) }
	thenLit := func(l string) { parts = append(parts, piece{lit: l}) }
	var x *model.Attribute
	if s.Prefix < len(tm.Segments) {
		x = tm.Segments[s.Prefix].Attr
	}
	seps := string(tm.Separators())
	switch b.Value {
	case plan.Operand:
		if w == nil {
			break
		}
		op := m.param(plan.ParamWhere, w.Attr, nil, b.Operand)
		opID := m.pp.Param(plan.ParamWhere, w.Attr, nil, b.Operand).Name
		switch {
		case beginsWith && w.Attr.Type == model.Path:
			then(m.e.encodeValue(g, scope, w.Attr, tm, op, opID, fail))
			thenLit(string(w.Attr.Separator))
		case beginsWith:
			then(m.e.encodePrefix(g, scope, w.Attr, op, seps, fail))
		default:
			vid := opID
			if b.Pred {
				op = m.pred(g, w.Attr, op)
				vid += " predecessor"
			}
			then(m.e.encodeValue(g, scope, w.Attr, tm, op, vid, fail))
		}
	case plan.Least, plan.Greatest:
		lo, hi := minMax(x)
		if b.Value == plan.Least {
			thenLit(lo)
		} else {
			thenLit(hi)
		}
	}
	if b.Succ {
		thenLit("\x00")
	}
	if b.High {
		then(highCharPiece)
	}
	return nil, concat(parts)
}

// pred emits the predecessor of a where operand (strict < on a
// fixed-width placeholder that ends the key): when there is none, the
// method returns an empty result.
func (m *method) pred(g *jen.Group, a *model.Attribute, op jen.Code) jen.Code {
	empty := m.emptyResult()
	switch {
	case a.Type == model.Int:
		g.If(jen.Add(op).Op("==").Qual("math", "MinInt64")).Block(empty)
		return jen.Add(op).Op("-").Lit(1)
	case a.Type == model.Bool:
		g.If(jen.Op("!").Add(op)).Block(empty)
		return jen.False()
	case a.Format == model.Date:
		// Nothing is before the first day of year 0000.
		g.Add(m.id("dayBefore")).Op(":=").Add(op).Dot("AddDate").Call(jen.Lit(0), jen.Lit(0), jen.Lit(-1))
		g.If(m.id("dayBefore").Dot("Year").Call().Op("<").Lit(0)).Block(empty)
		return m.id("dayBefore")
	case a.Format == model.Unix || a.TTL:
		return jen.Add(op).Dot("Add").Call(jen.Op("-").Qual("time", "Second"))
	case a.Format == model.UnixMilli:
		return jen.Add(op).Dot("Add").Call(jen.Op("-").Qual("time", "Millisecond"))
	}
	// Nothing is before the first instant of year 0000.
	g.Add(m.id("instantBefore")).Op(":=").Add(op).Dot("Add").Call(jen.Op("-").Lit(1))
	g.If(m.id("instantBefore").Dot("UTC").Call().Dot("Year").Call().Op("<").Lit(0)).Block(empty)
	return m.id("instantBefore")
}

// emptyResult is the return of a query that can match nothing: an empty
// page, or ErrNotFound for a query's first item.
func (m *method) emptyResult() jen.Code {
	if m.pp.Form == plan.FormFirst {
		return jen.Return(jen.Nil(), m.callErr(jen.Id("ErrNotFound"), nil))
	}
	return jen.Return(jen.Op("&").Id(m.p.ResultType()).Values(), jen.Nil())
}

// pluralField is the field of a collection result holding an entity's
// items: the Go name in the plural.
func pluralField(e *model.Entity) string { return e.PluralName() }

// dropExpired emits, for a read that drops an expired item in code (see
// plan.Expiry), the check of item, and then, when it has expired.
func (m *method) dropExpired(g *jen.Group, item jen.Code, then jen.Code) {
	if x := m.req.Expiry; x != nil && x.InCode {
		g.If(rt("Expired").Call(item, jen.Lit(x.Attr), m.clockNow())).Block(then)
	}
}

// The reads are sent by the runtime (dyngen.GetItem, QueryFirst,
// QueryPage, QueryEach): a method builds its key values, and hands them
// over with the description of its request (a dyngen.Get or Query, all
// of it but the values of a call) and the decoder of its item type.

// get emits a GetItem by the whole primary key.
func (m *method) get() {
	m.viewType()
	m.fromKeys()
	fields := []field{litField("Method", m.p.GoName), idField("Index", model.IndexVar(m.pp.Index))}
	if m.p.Consistent {
		fields = append(fields, trueField("Consistent"))
	}
	fields = m.projectionFields(fields)
	if x := m.req.Expiry; x != nil && x.InCode {
		fields = append(fields, litField("TTL", x.Attr))
	}
	m.doc(m.readLines()...)
	m.readMethod(func(g *jen.Group, args jen.Code) {
		// The Get, all of the request but its key, in the call: it is
		// short.
		call := rt("GetItem").Call(m.id("ctx"), m.id("s").Dot("client"), args, jen.Op("&").Add(structLines(rt("Get"), fields)), m.decoder())
		if m.pp.Zero {
			m.zeroIfAbsent(g, call)
			return
		}
		g.Return(call)
	})
}

// readMethod emits the Store method of a read: its signature, and a body
// that builds the read's dyngen.Args from the inputs (readArgs; those a
// struct holds are read from its fields) and then, with send, the
// runtime's call that sends it.
func (m *method) readMethod(send func(g *jen.Group, args jen.Code)) {
	m.signature().BlockFunc(func(g *jen.Group) {
		m.inline = true
		defer func() { m.inline = false }()
		fail := m.fail(jen.Nil())
		m.keyChecks(g, fail)
		send(g, m.readArgs(g, fail))
	})
	m.f.Line()
}

// queryFirstMethod emits the Store method of a read whose result is the
// first item of one Query (dyngen.QueryFirst): a get through an index,
// or first.
func (m *method) queryFirstMethod() {
	m.readMethod(func(g *jen.Group, args jen.Code) {
		g.Return(rt("QueryFirst").Call(m.id("ctx"), m.id("s").Dot("client"), args, m.queryLit(), m.decoder()))
	})
}

// getByQuery emits a get through an index whose key the inputs bind: a
// Query with both keys equal; the first item of the entity is the result.
func (m *method) getByQuery() {
	m.viewType()
	m.fromKeys()
	// No item of another entity can have the key the inputs bind (the
	// collision check refuses such a spec), so the first item the key
	// condition reads is the result: one item is read, and billed.
	if m.dropsForeign() {
		m.e.bug("get %s through %s may read items of other entities", m.p.Name, m.pp.Index.Name)
	}
	lines := append(m.readLines(), "Limit: 1 (of several items of the key, the first in sort key order)")
	m.doc(lines...)
	m.queryFirstMethod()
}

// query emits a Query of one page, its result type and its iterator.
func (m *method) query() {
	m.viewType()
	m.fromKeys()
	m.resultType()
	lines := m.readLines()
	if m.req.Descending {
		lines = append(lines, "ScanIndexForward: false (descending)")
	}
	if m.req.PageLimit > 0 {
		lines = append(lines, fmt.Sprintf("Limit: %d unless %s.Limit is set", m.req.PageLimit, m.pp.Local("page")))
	}
	m.doc(lines...)
	m.readMethod(func(g *jen.Group, args jen.Code) {
		if !m.p.IsCollection() {
			g.Return(rt("QueryPage").Call(m.id("ctx"), m.id("s").Dot("client"), m.id("s").Dot("cursorKeys"), m.id("page"), args, m.queryLit(), m.decoder()))
			return
		}
		// Each item goes to its entity's field; an item that can't be
		// decoded is left out, and listed in the page's DecodeError.
		g.Add(m.id("res")).Op(":=").Op("&").Id(m.p.ResultType()).Values()
		each := jen.Func().Params(m.id("item").Map(jen.String()).Qual(pathTypes, "AttributeValue")).Error().BlockFunc(func(g *jen.Group) {
			m.collect(g)
			g.Return(jen.Nil())
		})
		g.List(m.id("ok"), m.id("err")).Op(":=").Add(rt("QueryEach")).Call(m.id("ctx"), m.id("s").Dot("client"), m.id("s").Dot("cursorKeys"), m.id("page"), args, m.queryLit(), jen.Op("&").Add(m.id("res")).Dot("Next"), each)
		g.If(jen.Op("!").Add(m.id("ok"))).Block(jen.Return(jen.Nil(), m.id("err")))
		g.Return(m.id("res"), m.id("err"))
	})
	m.iterator()
}

// collect emits the assignment of an item of a collection read to its
// entity's field, in the function QueryEach gives each item: it returns
// the error of an item that can't be decoded.
func (m *method) collect(g *jen.Group) {
	t := m.p.Table
	g.Switch().BlockFunc(func(g *jen.Group) {
		for _, mem := range m.pp.Members {
			var cond jen.Code
			if mem.How == plan.BySortKeyPrefix {
				cond = rt("HasKeyPrefix").Call(m.id("item"), jen.Lit(m.pp.Index.SK.Name), jen.Lit(mem.Prefix))
			} else {
				cond = rt("IsType").Call(m.id("item"), jen.Lit(t.EntityAttr), jen.Lit(mem.Entity.TypeValue))
			}
			field := pluralField(mem.Entity)
			g.Case(cond).BlockFunc(func(g *jen.Group) {
				m.fillFromKeys(g, mem.Entity, m.id("item"))
				g.Var().Add(m.id("v")).Id(mem.Entity.GoName)
				g.If(m.id("err").Op(":=").Add(m.id("v")).Dot("UnmarshalItem").Call(m.id("item")), m.id("err").Op("!=").Nil()).Block(jen.Return(m.id("err")))
				g.Add(m.id("res")).Dot(field).Op("=").Append(m.id("res").Dot(field), m.id("v"))
			})
		}
	})
}

// resultType emits the type of one page of a query: the runtime's Result
// of its item type, or, for a collection, a field per entity.
func (m *method) resultType() {
	if !m.p.IsCollection() {
		commentf(m.f, "%s is one page of %s (see dyngen.Result).", m.p.ResultType(), m.p.GoName)
		// An alias: every query of one item type shares the runtime's
		// code for it.
		m.f.Type().Id(m.p.ResultType()).Op("=").Add(rt("Result")).Types(jen.Id(m.itemType()))
		m.f.Line()
		return
	}
	commentf(m.f, "%s is one page of %s.", m.p.ResultType(), m.p.GoName)
	m.f.Type().Id(m.p.ResultType()).StructFunc(func(g *jen.Group) {
		for _, e := range m.p.Entities {
			g.Id(pluralField(e)).Index().Id(e.GoName)
		}
		comment(g, "Next continues with the next page; \"\" after the last one.")
		g.Id("Next").Id("Cursor")
	})
	m.f.Line()
}

// iterator emits the method that walks every page: item by item for one
// entity, page by page for a collection.
func (m *method) iterator() {
	names := m.args(false)
	call := m.id("s").Dot(m.p.GoName).Call(append(append([]jen.Code{m.id("ctx")}, names...), m.id("page"))...)
	walker := "Walk"
	// A page of the walk is a call of the method, on one line.
	page := jen.Func().Params(m.id("page").Id("Page")).Params(jen.Op("*").Id(m.p.ResultType()), jen.Error()).Custom(jen.Options{Open: "{", Close: "}"}, jen.Return(call))
	if m.p.IsCollection() {
		// The page and its Next cursor.
		walker = "WalkPages"
		page = jen.Func().Params(m.id("page").Id("Page")).Params(jen.Op("*").Id(m.p.ResultType()), jen.Id("Cursor"), jen.Error()).Block(
			jen.List(m.id("res"), m.id("err")).Op(":=").Add(call),
			jen.If(m.id("res").Op("==").Nil()).Block(jen.Return(jen.Nil(), jen.Lit(""), m.id("err"))),
			jen.Return(m.id("res"), m.id("res").Dot("Next"), m.id("err")),
		)
	}
	all := m.exported()[1]
	comment(m.f, all.summary())
	m.declare(all).Block(jen.Return(rt(walker).Call(page)))
	m.f.Line()
}

// decoder is the function a read decodes its item with: its type's
// UnmarshalItem (a view's unmarshalItem), after the filling of the
// attributes it reads from keys; an item equal to a strict bound, which
// the key condition could not leave out, is skipped (dyngen.Skip).
func (m *method) decoder() jen.Code {
	method := "UnmarshalItem"
	if len(m.p.Select) > 0 {
		method = "unmarshalItem"
	}
	fill := len(fromKeysOf(m.pp, m.ent())) > 0
	dropEqual := m.pp.Key != nil && m.pp.Key.SK.DropEqual
	if !fill && !dropEqual {
		return jen.Parens(jen.Op("*").Id(m.itemType())).Dot(method)
	}
	v, item := m.id("v"), m.id("item")
	return jen.Func().Params(jen.Add(v).Op("*").Id(m.itemType()), jen.Add(item).Map(jen.String()).Qual(pathTypes, "AttributeValue")).Error().BlockFunc(func(g *jen.Group) {
		m.fillFromKeys(g, m.ent(), item)
		if !dropEqual {
			g.Return(jen.Add(v).Dot(method).Call(item))
			return
		}
		g.If(m.id("err").Op(":=").Add(v).Dot(method).Call(item), m.id("err").Op("!=").Nil()).Block(jen.Return(m.id("err")))
		g.If(jen.Add(v).Dot(m.p.Where.Attr.GoName).Op("==").Add(m.param(plan.ParamWhere, m.p.Where.Attr, nil, 0))).Block(jen.Return(rt("Skip")))
		g.Return(jen.Nil())
	})
}

// readArgs emits the building of a read's dyngen.Args, whose address it
// returns: the table's physical name and the key values that are
// literal text in its literal, then each other key value, built by an
// encoding that keeps its error in the Args (which the runtime returns
// before any call), and the other values (numbers, binary, a condition's
// operands, the clock's now) in Values.
func (m *method) readArgs(g *jen.Group, fail func(jen.Code) jen.Code) jen.Code {
	args := m.local("args")
	m.check = args
	defer func() { m.check = "" }()
	scope := m.scope()
	scope[keyCheckID] = args
	// Each encoding where its text goes (see checkedKey).
	for _, a := range m.ent().Attributes {
		scope[onceID(a)] = "1"
	}
	slots := m.readSlots(g, scope, fail)
	// The literal text first, in the literal (its slots emit nothing).
	fixed := []jen.Code{jen.Id("Table").Op(":").Add(m.id("s").Dot(m.p.Table.StoreField()))}
	for _, sl := range slots {
		if sl.constant {
			_, text := sl.build()
			fixed = append(fixed, jen.Id(sl.field).Op(":").Add(text))
		}
	}
	g.Id(args).Op(":=").Add(rt("Args")).Values(fixed...)
	values := jen.Dict{}
	for _, sl := range slots {
		if sl.constant {
			continue
		}
		if value, text := sl.build(); text != nil {
			g.Id(args).Dot(sl.field).Op("=").Add(text)
		} else {
			values[jen.Lit(sl.name)] = value
		}
	}
	if len(values) > 0 {
		g.Id(args).Dot("Values").Op("=").Map(jen.String()).Qual(pathTypes, "AttributeValue").Values(values)
	}
	if x := m.req.Expiry; x != nil && x.InCode {
		g.Id(args).Dot("Now").Op("=").Add(m.clockNow())
	}
	return jen.Op("&").Id(args)
}

// readSlot is a value of a read's Args: a string field, or another value
// by its name (an attribute, a placeholder); constant where it is
// literal text, whose build emits nothing. build emits what the value
// needs and returns it: its text, or its attribute value.
type readSlot struct {
	field, name string
	constant    bool
	build       func() (value, text jen.Code)
}

// readSlots are the values of a read's Args: a get's key, or a query's
// partition, its sort key condition's values, then the others the
// request sends (a condition's operands, the clock's now).
func (m *method) readSlots(g *jen.Group, scope map[string]string, fail func(jen.Code) jen.Code) []readSlot {
	var out []readSlot
	key := func(field, name string, ka *model.KeyAttr, tm *model.Template) {
		out = append(out, readSlot{field, name, !tm.IsNatural(ka) && tm.IsLiteral(ka), func() (value, text jen.Code) {
			return m.keyArg(g, scope, field, ka, tm, fail)
		}})
	}
	if m.pp.Call != plan.Query {
		k := m.ent().PrimaryKey()
		key("PK", k.Index.PK.Name, k.Index.PK, k.PK)
		if k.SK != nil {
			key("SK", k.Index.SK.Name, k.Index.SK, k.SK)
		}
		return out
	}
	ix, kc, ph := m.pp.Index, m.pp.Key, m.req.Placeholder
	if ix.Multi() {
		// Each attribute of a multi-attribute key has a value of its
		// own, in Values.
		for _, b := range kc.Bound() {
			v := m.req.Values[slices.IndexFunc(m.req.Values, func(v *plan.Value) bool { return v.Source == plan.KeyPart && v.Operand == b.Part })]
			out = append(out, readSlot{"", v.Placeholder, false, func() (value, text jen.Code) {
				return m.keyValue(g, scope, m.ent(), b.Attr, b.Tm, m.keyParam, fail, ""), nil
			}})
		}
	} else {
		key("PK", ph(plan.PKValue), ix.PK, kc.PK)
	}
	bound := func(field string, src plan.Source, b plan.Bound, beginsWith bool) {
		out = append(out, readSlot{field, ph(src), m.boundConstant(b), func() (value, text jen.Code) {
			return m.bound(g, scope, b, m.keyParam, fail, beginsWith)
		}})
	}
	switch sk := kc.SK; sk.Kind {
	case plan.SKEq:
		if !ix.Multi() {
			key("SK", ph(plan.SKValue), ix.SK, sk.Template)
		}
	case plan.SKBeginsWith:
		bound("SK", plan.SKValue, plan.Bound{Value: plan.Operand}, true)
	case plan.SKBetween:
		bound("Lo", plan.SKLow, sk.Lo, false)
		bound("Hi", plan.SKHigh, sk.Hi, false)
	case plan.SKLt, plan.SKLe, plan.SKGt, plan.SKGe:
		bound("SK", plan.SKValue, sk.Lo, false)
	}
	for _, v := range m.req.Values {
		if v.Source == plan.CondOperand || v.Source == plan.Now {
			out = append(out, readSlot{"", v.Placeholder, false, func() (value, text jen.Code) { return m.condValue(v), nil }})
		}
	}
	return out
}

// boundConstant reports whether a bound of the sort key condition is
// literal text: a string sort key, no placeholder before the bound's, and
// no operand (the least or greatest text of its placeholder).
func (m *method) boundConstant(b plan.Bound) bool {
	s := m.pp.Key.SK
	if s.Template.KeyType != model.S || b.Value == plan.Operand && s.Range != nil {
		return false
	}
	return !slices.ContainsFunc(s.Template.Segments[:s.Prefix], func(seg model.Segment) bool { return seg.Attr != nil })
}

// keyArg emits the building of the value of key attribute ka from
// template tm, for field of a read's Args, and returns it: the text of a
// string key, or the attribute value of a natural key or of a key of
// type N or B.
func (m *method) keyArg(g *jen.Group, scope map[string]string, field string, ka *model.KeyAttr, tm *model.Template, fail func(jen.Code) jen.Code) (value, text jen.Code) {
	ent := m.ent()
	if tm.IsNatural(ka) || ka.Type != model.S {
		return m.keyValue(g, scope, ent, ka, tm, m.keyParam, fail, m.local(strings.ToLower(field))), nil
	}
	return nil, m.keyText(g, ent, ka, tm, m.keyParam, fail, "")
}

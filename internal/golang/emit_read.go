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

// get emits a GetItem by the whole primary key.
func (m *method) get() {
	ent := m.ent()
	val := m.keyParam
	m.viewType()
	m.fromKeys()
	projConst := m.constant("Projection", m.req.Projection)
	m.doc(m.readLines()...)
	m.signature().BlockFunc(func(g *jen.Group) {
		m.unpack(g)
		fail := m.fail(jen.Nil())
		key := m.primaryKeyMap(g, ent, val, fail)
		in := jen.Dict{jen.Id("TableName"): m.tableRef(), jen.Id("Key"): key}
		if m.p.Consistent {
			in[jen.Id("ConsistentRead")] = jen.Qual(pathAWS, "Bool").Call(jen.True())
		}
		if projConst != nil {
			in[jen.Id("ProjectionExpression")] = jen.Qual(pathAWS, "String").Call(projConst)
			m.setNames(in)
		}
		g.List(m.id("out"), m.id("err")).Op(":=").Add(m.id("s")).Dot("client").Dot("GetItem").Call(m.id("ctx"), jen.Op("&").Qual(pathDynamo, "GetItemInput").Values(in))
		g.If(m.id("err").Op("!=").Nil()).Block(fail(m.id("err")))
		g.If(m.id("out").Dot("Item").Op("==").Nil()).Block(fail(jen.Id("ErrNotFound")))
		m.dropExpired(g, m.id("out").Dot("Item"), fail(jen.Id("ErrNotFound")))
		m.decode(g, m.id("out").Dot("Item"), m.local("v"), fail)
		g.Return(jen.Op("&").Add(m.id("v")), jen.Nil())
	})
	m.f.Line()
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

// dropExpired emits, for a read that drops an expired item in code (see
// plan.Expiry), the check of item, and then, when it has expired.
func (m *method) dropExpired(g *jen.Group, item jen.Code, then jen.Code) {
	if x := m.req.Expiry; x != nil && x.InCode {
		g.If(rt("Expired").Call(item, jen.Lit(x.Attr), m.clockNow())).Block(then)
	}
}

// clockNow is the Store clock's now, in epoch seconds.
func (m *method) clockNow() jen.Code {
	if q := m.clockParam(); q != nil {
		return jen.Id(q.Name).Dot("Unix").Call()
	}
	return m.id("s").Dot(model.ClockField).Call().Dot("Unix").Call()
}

// getByQuery emits a get through an index whose key the inputs bind: a
// Query with both keys equal; the first item of the entity is the result.
func (m *method) getByQuery() {
	val := m.keyParam
	m.viewType()
	m.fromKeys()
	keyCond := m.constant("KeyCondition", m.req.KeyCondition)
	projConst := m.constant("Projection", m.req.Projection)
	// No item of another entity can have the key the inputs bind (the
	// collision check refuses such a spec), so the first item the key
	// condition reads is the result: one item is read, and billed.
	if m.dropsForeign() {
		m.e.bug("get %s through %s may read items of other entities", m.p.Name, m.pp.Index.Name)
	}
	lines := append(m.readLines(), "Limit: 1", "An index key need not be unique: with several items, the first in sort key order is returned.")
	m.doc(lines...)
	m.signature().BlockFunc(func(g *jen.Group) {
		m.unpack(g)
		fail := m.fail(jen.Nil())
		in := m.queryInput(g, val, keyCond, projConst, nil, fail)
		g.List(m.id("out"), m.id("err")).Op(":=").Add(m.id("s")).Dot("client").Dot("Query").Call(m.id("ctx"), in)
		g.If(m.id("err").Op("!=").Nil()).Block(fail(m.id("err")))
		g.If(jen.Len(m.id("out").Dot("Items")).Op("==").Lit(0)).Block(fail(jen.Id("ErrNotFound")))
		m.dropExpired(g, m.id("out").Dot("Items").Index(jen.Lit(0)), fail(jen.Id("ErrNotFound")))
		m.decode(g, m.id("out").Dot("Items").Index(jen.Lit(0)), m.local("v"), fail)
		g.Return(jen.Op("&").Add(m.id("v")), jen.Nil())
	})
	m.f.Line()
}

// dropsForeign reports whether a read of one entity may read items of
// others, which its entity attribute tells apart.
func (m *method) dropsForeign() bool {
	return len(m.pp.Members) == 1 && m.pp.Members[0].How == plan.ByEntityAttr
}

// skipForeign emits the check that drops an item of another entity, for a
// read of one entity.
func (m *method) skipForeign(g *jen.Group) {
	if m.dropsForeign() {
		g.If(jen.Op("!").Add(rt("IsType")).Call(m.id("item"), jen.Lit(m.p.Table.EntityAttr), jen.Lit(m.ent().TypeValue))).Block(jen.Continue())
	}
}

// queryInput emits the building of the key condition values and returns
// the QueryInput literal (without its ExclusiveStartKey, which cursorStart
// sets). where holds the where operands' parameter names (nil when none).
func (m *method) queryInput(g *jen.Group, val func(*model.Attribute) jen.Code, keyCond, projConst, filterConst jen.Code, fail func(jen.Code) jen.Code) jen.Code {
	return m.queryInputOf(g, val, keyCond, projConst, filterConst, fail, false)
}

// queryInputOf is queryInput; with rebuild, the input is built by a local
// function, newInput, of the method's own values (key texts, parameters,
// constants), which nothing given to the client can change: the method
// calls it for the request, and cursorNext again, only for a page with a
// next one, to bind the next cursor to the request as it was sent.
func (m *method) queryInputOf(g *jen.Group, val func(*model.Attribute) jen.Code, keyCond, projConst, filterConst jen.Code, fail func(jen.Code) jen.Code, rebuild bool) jen.Code {
	ix, key := m.pp.Index, m.pp.Key
	ent := m.ent()
	scope := m.scope()
	// The request's own copy of everything it points to, in one block:
	// the client may change what it is given, and one allocation is
	// cheaper than one per pointer.
	fixed := jen.Dict{jen.Id("Table"): m.id("s").Dot(m.p.Table.StoreField()), jen.Id("KeyCondition"): keyCond}
	keyValues := map[plan.Source]jen.Code{}
	// text puts a string key value into the block, or keeps another.
	text := func(src plan.Source, field string) func(value, text jen.Code) {
		return func(value, text jen.Code) {
			if text == nil {
				keyValues[src] = value
				return
			}
			fixed[jen.Id(field)] = jen.Qual(pathTypes, "AttributeValueMemberS").Values(jen.Dict{jen.Id("Value"): text})
			keyValues[src] = jen.Op("&").Add(m.id("fixed")).Dot(field)
		}
	}
	if key.PK.IsNatural(ix.PK) || ix.PK.Type != model.S {
		v := m.keyValue(g, scope, ent, ix.PK, key.PK, val, fail, m.local("pk"))
		if rebuild {
			// A new value on every build.
			keyValues[plan.PKValue] = v
		} else {
			g.Add(m.id("pkValue")).Op(":=").Add(v)
			keyValues[plan.PKValue] = m.id("pkValue")
		}
	} else {
		text(plan.PKValue, "PK")(nil, m.keyText(g, ent, ix.PK, key.PK, val, fail, m.local("pk")))
	}
	sk := key.SK
	switch sk.Kind {
	case plan.SKEq:
		if sk.Template.IsNatural(ix.SK) || ix.SK.Type != model.S {
			keyValues[plan.SKValue] = m.keyValue(g, scope, ent, ix.SK, sk.Template, val, fail, m.local("sk"))
		} else {
			text(plan.SKValue, "SK")(nil, m.keyText(g, ent, ix.SK, sk.Template, val, fail, m.local("sk")))
		}
	case plan.SKBeginsWith:
		text(plan.SKValue, "SK")(m.bound(g, scope, plan.Bound{Value: plan.Operand}, val, fail, true))
	case plan.SKBetween:
		text(plan.SKLow, "SKLo")(m.bound(g, scope, sk.Lo, val, fail, false))
		text(plan.SKHigh, "SKHi")(m.bound(g, scope, sk.Hi, val, fail, false))
	case plan.SKLt, plan.SKLe, plan.SKGt, plan.SKGe:
		text(plan.SKValue, "SK")(m.bound(g, scope, sk.Lo, val, fail, false))
	}
	values := m.valuesDict(func(v *plan.Value) jen.Code {
		if v.Source == plan.CondOperand || v.Source == plan.Now {
			return m.condValue(v)
		}
		return keyValues[v.Source]
	})
	in := jen.Dict{
		jen.Id("TableName"):                 jen.Op("&").Add(m.id("fixed")).Dot("Table"),
		jen.Id("KeyConditionExpression"):    jen.Op("&").Add(m.id("fixed")).Dot("KeyCondition"),
		jen.Id("ExpressionAttributeValues"): jen.Map(jen.String()).Qual(pathTypes, "AttributeValue").Values(values),
	}
	m.setNames(in)
	ref := func(field string, value jen.Code) {
		fixed[jen.Id(field)] = value
		in[jen.Id(fieldOfInput[field])] = jen.Op("&").Add(m.id("fixed")).Dot(field)
	}
	if !ix.IsPrimary() {
		ref("Index", jen.Lit(ix.Name))
	}
	if m.req.Descending {
		// forward is false: only the pointer is set.
		in[jen.Id("ScanIndexForward")] = jen.Op("&").Add(m.id("fixed")).Dot("Forward")
	}
	if m.p.Consistent {
		ref("Consistent", jen.True())
	}
	switch {
	case m.req.Limit > 0:
		// A get through an index, a query's first item: one item.
		fixed[jen.Id("Limit")] = jen.Lit(m.req.Limit)
	default:
		// A query, one page: at most the page's limit.
		fixed[jen.Id("Limit")] = rt("PageLimit").Call(m.id("page"), jen.Lit(m.req.PageLimit))
	}
	in[jen.Id("Limit")] = m.id("fixed").Dot("LimitRef").Call()
	if projConst != nil {
		ref("Projection", projConst)
	}
	if filterConst != nil {
		ref("Filter", filterConst)
	}
	build := []jen.Code{
		m.id("fixed").Op(":=").Op("&").Add(rt("QueryFixed")).Values(fixed),
		jen.Return(jen.Op("&").Qual(pathDynamo, "QueryInput").Values(in)),
	}
	if rebuild {
		g.Add(m.id("newInput")).Op(":=").Func().Params().Op("*").Qual(pathDynamo, "QueryInput").Block(build...)
		return m.id("newInput").Call()
	}
	g.Add(build[0])
	return jen.Op("&").Qual(pathDynamo, "QueryInput").Values(in)
}

// fieldOfInput is the QueryInput field that points to each field of a
// queryFixed.
var fieldOfInput = map[string]string{"Index": "IndexName", "Consistent": "ConsistentRead", "Projection": "ProjectionExpression", "Filter": "FilterExpression"}

// bound emits one value of the sort key condition: the bound prefix of the
// template, then the where operand (or the least or greatest encoding of
// its attribute), then the high character. It returns the text of a
// string sort key's value, or the value of a whole N or B sort key.
func (m *method) bound(g *jen.Group, scope map[string]string, b plan.Bound, val func(*model.Attribute) jen.Code, fail func(jen.Code) jen.Code, beginsWith bool) (value, text jen.Code) {
	s := m.pp.Key.SK
	tm := s.Template
	w := s.Range
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

// emptyRange emits, for a sort key between two operands of the caller's
// (a where between), the answer without a call when its bounds are the
// wrong way round (DynamoDB refuses such a condition): no item.
func (m *method) emptyRange(g *jen.Group) {
	if sk := m.pp.Key.SK; sk.Kind != plan.SKBetween || sk.Lo.Value != plan.Operand || sk.Hi.Value != plan.Operand {
		return
	}
	value := func(src plan.Source) jen.Code {
		return m.id("in").Dot("ExpressionAttributeValues").Index(jen.Lit(m.req.Placeholder(src)))
	}
	g.If(rt("EmptyRange").Call(value(plan.SKLow), value(plan.SKHigh))).Block(m.emptyResult())
}

// query emits a Query of one page, its result type and its iterator.
func (m *method) query() {
	val := m.keyParam
	m.viewType()
	m.fromKeys()
	m.resultType()
	keyCond := m.constant("KeyCondition", m.req.KeyCondition)
	projConst := m.constant("Projection", m.req.Projection)
	filterConst := m.constant("Filter", m.req.Filter)
	lines := m.readLines()
	if m.req.Descending {
		lines = append(lines, "ScanIndexForward: false (descending)")
	}
	if m.req.PageLimit > 0 {
		lines = append(lines, fmt.Sprintf("Limit: %d unless %s.Limit is set", m.req.PageLimit, m.pp.Local("page")))
	}
	// The shape before the doc, which belongs to the method.
	shape := m.queryShape()
	m.doc(lines...)
	m.signature().BlockFunc(func(g *jen.Group) {
		m.unpack(g)
		fail := m.fail(jen.Nil())
		in := m.queryInputOf(g, val, keyCond, projConst, filterConst, fail, true)
		g.Add(m.id("in")).Op(":=").Add(in)
		m.cursorStart(g, fail, shape)
		m.emptyRange(g)
		g.List(m.id("out"), m.id("err")).Op(":=").Add(m.id("s")).Dot("client").Dot("Query").Call(m.id("ctx"), m.id("in"))
		g.If(m.id("err").Op("!=").Nil()).Block(fail(m.id("err")))
		if m.p.IsCollection() {
			g.Add(m.id("res")).Op(":=").Op("&").Id(m.p.ResultType()).Values()
		} else {
			g.Add(m.id("res")).Op(":=").Op("&").Id(m.p.ResultType()).Values(jen.Id("Items").Op(":").Make(jen.Index().Id(m.itemType()), jen.Lit(0), jen.Len(m.id("out").Dot("Items"))))
		}
		// An item that can't be decoded is left out, and listed in the
		// page's DecodeError: the others are still read.
		g.Var().Add(m.id("undecoded")).Index().Id("UndecodedItem")
		skip := func(err jen.Code) jen.Code {
			return m.id("undecoded").Op("=").Append(m.id("undecoded"), m.undecodable(m.id("i"), err)).Line().Continue()
		}
		g.For(jen.List(m.id("i"), m.id("item")).Op(":=").Range().Add(m.id("out")).Dot("Items")).BlockFunc(func(g *jen.Group) {
			if m.p.IsCollection() {
				m.collect(g, skip)
				return
			}
			m.skipForeign(g)
			m.decode(g, m.id("item"), m.local("v"), skip)
			if m.pp.Key.SK.DropEqual {
				g.If(m.id("v").Dot(m.p.Where.Attr.GoName).Op("==").Add(m.param(plan.ParamWhere, m.p.Where.Attr, nil, 0))).Block(jen.Continue())
			}
			g.Add(m.id("res")).Dot("Items").Op("=").Append(m.id("res").Dot("Items"), m.id("v"))
		})
		g.Add(m.id("res")).Dot("Next").Op("=").Add(rt("CursorNext")).Call(jen.Op("&").Add(m.id("start")), m.id("out").Dot("LastEvaluatedKey"), m.id("newInput"))
		g.Return(m.id("res"), m.decodeErr())
	})
	m.f.Line()
	m.iterator()
}

// undecodable is undecodable(position, err, <the table's primary key
// attribute names>): the entry of an item that can't be decoded in a
// read's DecodeError.
func (m *method) undecodable(position, err jen.Code) jen.Code {
	args := []jen.Code{position, err}
	ix := m.p.Table.Primary()
	args = append(args, jen.Lit(ix.PK.Name))
	if ix.SK != nil {
		args = append(args, jen.Lit(ix.SK.Name))
	}
	return rt("Undecodable").Call(args...)
}

// decodeErr is the error a read returns with its result: its undecoded
// items, in a DecodeError naming the method, or nil.
func (m *method) decodeErr() jen.Code {
	return rt("UndecodedErr").Call(jen.Lit(m.p.GoName), m.id("undecoded"))
}

// collect emits the assignment of an item of a collection read to its
// entity's field; skip is the handling of an item that can't be decoded.
func (m *method) collect(g *jen.Group, skip func(jen.Code) jen.Code) {
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
				g.If(m.id("err").Op(":=").Add(m.id("v")).Dot("UnmarshalItem").Call(m.id("item")), m.id("err").Op("!=").Nil()).Block(skip(m.id("err")))
				g.Add(m.id("res")).Dot(field).Op("=").Append(m.id("res").Dot(field), m.id("v"))
			})
		}
	})
}

// pluralField is the field of a collection result holding an entity's
// items: the Go name in the plural.
func pluralField(e *model.Entity) string { return e.PluralName() }

// resultType emits the type of one page of a query.
func (m *method) resultType() {
	commentf(m.f, "%s is one page of %s.", m.p.ResultType(), m.p.GoName)
	m.f.Type().Id(m.p.ResultType()).StructFunc(func(g *jen.Group) {
		if m.p.IsCollection() {
			for _, e := range m.p.Entities {
				g.Id(pluralField(e)).Index().Id(e.GoName)
			}
		} else {
			g.Id("Items").Index().Id(m.itemType())
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
	call := jen.List(m.id("res"), m.id("err")).Op(":=").Add(m.id("s")).Dot(m.p.GoName).Call(append(append([]jen.Code{m.id("ctx")}, names...), m.id("page"))...)
	var page, ret jen.Code
	elem := m.walkElem()
	walker := "Walk"
	if m.p.IsCollection() {
		page = jen.Func().Params(m.id("page").Id("Page")).Params(elem, jen.Id("Cursor"), jen.Error()).Block(
			call,
			jen.If(m.id("res").Op("==").Nil()).Block(jen.Return(jen.Nil(), jen.Lit(""), m.id("err"))),
			jen.Return(m.id("res"), m.id("res").Dot("Next"), m.id("err")),
		)
		walker = "WalkPages"
	} else {
		page = jen.Func().Params(m.id("page").Id("Page")).Params(jen.Index().Add(elem), jen.Id("Cursor"), jen.Error()).Block(
			call,
			jen.If(m.id("res").Op("==").Nil()).Block(jen.Return(jen.Nil(), jen.Lit(""), m.id("err"))),
			jen.Return(m.id("res").Dot("Items"), m.id("res").Dot("Next"), m.id("err")),
		)
	}
	ret = jen.Return(rt(walker).Call(page))
	all := m.exported()[1]
	comment(m.f, all.summary())
	m.declare(all).Block(ret)
	m.f.Line()
}

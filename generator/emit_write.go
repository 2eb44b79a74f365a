package generator

import (
	"fmt"

	"github.com/dave/jennifer/jen"
	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/plan"
)

// conditionKinds are the errors a failed condition becomes, when the item
// is absent and when it is present.
func (m *method) conditionKinds() (absent, present string) {
	switch {
	case m.p.Op == model.OpCreate:
		return "ErrConditionFailed", "ErrAlreadyExists"
	case m.p.Op == model.OpUpdate && !m.p.Upsert:
		return "ErrNotFound", "ErrConditionFailed"
	}
	return "ErrConditionFailed", "ErrConditionFailed"
}

// conditionInput adds the condition of a put or delete to the input.
func (m *method) conditionInput(in jen.Dict, cond jen.Code) {
	if cond == nil {
		return
	}
	in[jen.Id("ConditionExpression")] = jen.Qual(pathAWS, "String").Call(cond)
	in[jen.Id("ReturnValuesOnConditionCheckFailure")] = jen.Qual(pathTypes, "ReturnValuesOnConditionCheckFailureAllOld")
	m.setNames(in)
	if values := m.valuesDict(m.condValue); len(values) > 0 {
		in[jen.Id("ExpressionAttributeValues")] = jen.Map(jen.String()).Qual(pathTypes, "AttributeValue").Values(values)
	}
}

// writeErr is the error of a write whose call failed: a failed condition
// maps to the pattern's errors (conditionError names the method).
func (m *method) writeErr(hasCond bool) jen.Code {
	if !hasCond {
		return m.callErr(nil, jen.Err())
	}
	absent, present := m.conditionKinds()
	return jen.Id("conditionError").Call(jen.Lit(m.p.GoName), jen.Err(), jen.Id(absent), jen.Id(present))
}

// put emits a PutItem of a whole item (create: only where none has the key).
func (m *method) put() {
	r := m.pp.Params[0].Name
	cond := m.req.Condition
	var condConst jen.Code
	var lines []string
	if cond != "" {
		condConst = m.constant("Condition", cond)
		lines = append(lines, "ConditionExpression: "+cond)
	}
	summary := fmt.Sprintf("%s writes %s whole, replacing any item with its key.", m.p.GoName, r)
	if m.p.Op == model.OpCreate {
		summary = fmt.Sprintf("%s writes %s only when no item has its key: ErrAlreadyExists otherwise.", m.p.GoName, r)
	}
	if len(m.p.When) > 0 {
		summary += " ErrConditionFailed when the when condition does not hold."
	}
	m.doc(summary, lines...)
	m.callWithoutResult("PutItem", condConst != nil)
	m.inputBuilder("PutItemInput", func(g *jen.Group, fail func(jen.Code) jen.Code) jen.Code {
		g.List(jen.Id("item"), jen.Err()).Op(":=").Id(r).Dot("MarshalItem").Call()
		g.If(jen.Err().Op("!=").Nil()).Block(fail(jen.Err()))
		in := jen.Dict{jen.Id("TableName"): m.tableRef(), jen.Id("Item"): jen.Id("item")}
		m.conditionInput(in, condConst)
		return jen.Op("&").Qual(pathDynamo, "PutItemInput").Values(in)
	})
}

// callWithoutResult emits the method of a put or delete: it builds the
// request with the pattern's input builder, sends it with call, and maps
// a failed condition to the pattern's errors.
func (m *method) callWithoutResult(call string, hasCond bool) {
	m.signature(jen.Error()).BlockFunc(func(g *jen.Group) {
		fail := m.fail()
		g.List(jen.Id("in"), jen.Err()).Op(":=").Id("s").Dot(m.p.InputMethod()).Call(m.paramNames()...)
		g.If(jen.Err().Op("!=").Nil()).Block(fail(jen.Err()))
		g.If(jen.List(jen.Id("_"), jen.Err()).Op(":=").Id("s").Dot("client").Dot(call).Call(jen.Id("ctx"), jen.Id("in")), jen.Err().Op("!=").Nil()).Block(
			jen.Return(m.writeErr(hasCond)),
		)
		g.Return(jen.Nil())
	})
	m.f.Line()
}

// inputBuilder emits the method that builds the pattern's request apart
// from its call and its errors, so that another request (a transaction)
// can take the same input: body emits its statements into g, failing
// with fail, and returns the input. Its errors (a KeyError, an ItemError)
// are returned as they are: the method that calls it names itself.
func (m *method) inputBuilder(inputType string, body func(g *jen.Group, fail func(jen.Code) jen.Code) jen.Code) {
	commentf(m.f, "%s builds the request of %s; its errors are a KeyError or an ItemError, which the caller wraps.", m.p.InputMethod(), m.p.GoName)
	m.storeMethod(m.p.InputMethod(), false, true, jen.Op("*").Qual(pathDynamo, inputType), jen.Error()).BlockFunc(func(g *jen.Group) {
		fail := func(err jen.Code) jen.Code { return jen.Return(jen.Nil(), err) }
		m.unpack(g)
		in := body(g, fail)
		g.Return(in, jen.Nil())
	})
	m.f.Line()
}

// paramNames are the method's parameters after ctx, as arguments.
func (m *method) paramNames() []jen.Code { return m.args(true) }

// delete emits a DeleteItem by primary key.
func (m *method) delete() {
	ent := m.ent()
	val := m.keyParam
	cond := m.req.Condition
	var condConst jen.Code
	var lines []string
	if cond != "" {
		condConst = m.constant("Condition", cond)
		lines = append(lines, "ConditionExpression: "+cond)
	}
	summary := fmt.Sprintf("%s deletes the %s with this key; deleting an item that does not exist is no error.", m.p.GoName, ent.GoName)
	if len(m.p.When) > 0 {
		summary += " ErrConditionFailed when the when condition does not hold."
	}
	m.doc(summary, lines...)
	m.callWithoutResult("DeleteItem", condConst != nil)
	m.inputBuilder("DeleteItemInput", func(g *jen.Group, fail func(jen.Code) jen.Code) jen.Code {
		key := m.primaryKeyMap(g, ent, val, fail)
		in := jen.Dict{jen.Id("TableName"): m.tableRef(), jen.Id("Key"): key}
		m.conditionInput(in, condConst)
		return jen.Op("&").Qual(pathDynamo, "DeleteItemInput").Values(in)
	})
}

// addLimit is the bound an atomic add keeps: the attribute's min or max,
// or int64's.
func addLimit(v *plan.Value) jen.Code {
	a := v.Attr
	switch {
	case !v.Max && a.Min != nil:
		return boundLit(a, a.Min)
	case v.Max && a.Max != nil:
		return boundLit(a, a.Max)
	case v.Max:
		return jen.Qual("math", "MaxInt64")
	}
	return jen.Qual("math", "MinInt64")
}

// storable emits the check of an amount an update adds that DynamoDB
// can't take: an empty set, a float out of its range.
func storable(ent *model.Entity, a *model.Attribute, v jen.Code) []jen.Code {
	fail := func(err jen.Code) jen.Code { return jen.Return(jen.Nil(), err) }
	checks := emptiness(ent, a, v, fail)
	if c, reason := unstorable(a, v); c != nil {
		checks = append(checks, jen.If(c).Block(fail(itemError(ent, a, reason))))
	}
	return checks
}

// emptiness emits the check of a value DynamoDB does not store because
// it is empty: an empty set, a nil document.
func emptiness(ent *model.Entity, a *model.Attribute, v jen.Code, fail func(jen.Code) jen.Code) []jen.Code {
	switch a.Type {
	case model.StringSet, model.IntSet:
		return []jen.Code{jen.If(jen.Len(v).Op("==").Lit(0)).Block(fail(itemError(ent, a, "an empty set, which DynamoDB does not store")))}
	case model.Document:
		return []jen.Code{jen.If(jen.Add(v).Op("==").Nil()).Block(fail(itemError(ent, a, "a nil document, which DynamoDB does not store")))}
	}
	return nil
}

// batchGet emits a BatchGetItem of many keys: unique keys, chunks of 100,
// unprocessed keys retried, items in the order of the keys.
func (m *method) batchGet() {
	ent := m.ent()
	k := ent.PrimaryKey()
	m.viewType()
	projConst := m.constant("Projection", m.req.Projection)
	m.doc(fmt.Sprintf("%s reads the %s items of keys, in the order of keys; keys with no item are left out, and a key given twice is read once. Items that can't be decoded are left out too, and the result comes with a DecodeError listing them.", m.p.GoName, ent.GoName),
		"BatchGetItem: 100 keys per request; unprocessed keys and throttled requests are retried with backoff until done or ctx ends.")
	names := []jen.Code{jen.Lit(k.Index.PK.Name)}
	if k.SK != nil {
		names = append(names, jen.Lit(k.Index.SK.Name))
	}
	m.signature(jen.Index().Id(m.itemType()), jen.Error()).BlockFunc(func(g *jen.Group) {
		fail := func(err jen.Code) jen.Code { return jen.Return(jen.Nil(), err) }
		g.Id("in").Op(":=").Make(jen.Index().Map(jen.String()).Qual(pathTypes, "AttributeValue"), jen.Lit(0), jen.Len(jen.Id("keys")))
		g.Id("keyOrder").Op(":=").Make(jen.Index().String(), jen.Lit(0), jen.Len(jen.Id("keys")))
		g.Id("seen").Op(":=").Make(jen.Map(jen.String()).Bool(), jen.Len(jen.Id("keys")))
		g.For(jen.List(jen.Id("_"), jen.Id("k")).Op(":=").Range().Id("keys")).BlockFunc(func(g *jen.Group) {
			key := m.primaryKeyMap(g, ent, func(a *model.Attribute) jen.Code { return jen.Id("k").Dot(a.GoName) }, fail)
			g.Id("keyMap").Op(":=").Add(key)
			g.Id("h").Op(":=").Id("keyHash").Call(append([]jen.Code{jen.Id("keyMap")}, names...)...)
			g.Id("keyOrder").Op("=").Append(jen.Id("keyOrder"), jen.Id("h"))
			g.If(jen.Id("seen").Index(jen.Id("h"))).Block(jen.Continue())
			g.Id("seen").Index(jen.Id("h")).Op("=").True()
			g.Id("in").Op("=").Append(jen.Id("in"), jen.Id("keyMap"))
		})
		var projArg, namesArg jen.Code = jen.Lit(""), jen.Nil()
		if projConst != nil {
			projArg = projConst
			if len(m.req.Names) > 0 {
				namesArg = m.namesMap()
			}
			// The keys are needed to put the items in order.
		}
		g.List(jen.Id("items"), jen.Err()).Op(":=").Id("batchGet").Call(jen.Id("ctx"), jen.Id("s").Dot("client"), jen.Id("s").Dot(tableField(m.p.Table)), jen.Id("in"), jen.Lit(m.p.Consistent), projArg, namesArg)
		g.If(jen.Err().Op("!=").Nil()).Block(fail(m.callErr(nil, jen.Err())))
		// An item that can't be decoded is left out, and listed in the
		// DecodeError by the place of its key: the others are still read.
		g.Id("found").Op(":=").Make(jen.Map(jen.String()).Id(m.itemType()), jen.Len(jen.Id("items")))
		g.Id("failed").Op(":=").Map(jen.String()).Error().Values()
		g.For(jen.List(jen.Id("_"), jen.Id("item")).Op(":=").Range().Id("items")).BlockFunc(func(g *jen.Group) {
			g.Id("h").Op(":=").Id("keyHash").Call(append([]jen.Code{jen.Id("item")}, names...)...)
			m.decode(g, jen.Id("item"), "v", func(err jen.Code) jen.Code {
				return jen.Id("failed").Index(jen.Id("h")).Op("=").Add(err).Line().Continue()
			})
			g.Id("found").Index(jen.Id("h")).Op("=").Id("v")
		})
		g.Id("out").Op(":=").Make(jen.Index().Id(m.itemType()), jen.Lit(0), jen.Len(jen.Id("found")))
		g.Var().Id("undecoded").Index().Id("UndecodedItem")
		g.For(jen.List(jen.Id("i"), jen.Id("h")).Op(":=").Range().Id("keyOrder")).Block(
			jen.If(jen.List(jen.Id("v"), jen.Id("ok")).Op(":=").Id("found").Index(jen.Id("h")), jen.Id("ok")).Block(
				jen.Id("out").Op("=").Append(jen.Id("out"), jen.Id("v")),
				jen.Id("delete").Call(jen.Id("found"), jen.Id("h")),
			).Else().If(jen.List(jen.Err(), jen.Id("ok")).Op(":=").Id("failed").Index(jen.Id("h")), jen.Id("ok")).Block(
				jen.Id("undecoded").Op("=").Append(jen.Id("undecoded"), m.undecodable(jen.Id("i"), jen.Err())),
				jen.Id("delete").Call(jen.Id("failed"), jen.Id("h")),
			),
		)
		g.Return(jen.Id("out"), m.decodeErr())
	})
	m.f.Line()
}

// batchWrite emits a BatchWriteItem of many puts or deletes: one request
// per key (the last put of a key wins), chunks of 25, unprocessed
// requests retried.
func (m *method) batchWrite() {
	ent := m.ent()
	k := ent.PrimaryKey()
	names := []jen.Code{jen.Lit(k.Index.PK.Name)}
	if k.SK != nil {
		names = append(names, jen.Lit(k.Index.SK.Name))
	}
	put := m.p.Op == model.OpBatchPut
	if put {
		m.doc(fmt.Sprintf("%s writes every %s of items whole; of two items with one key, the last is written.", m.p.GoName, ent.GoName),
			"BatchWriteItem: 25 puts per request; unprocessed items and throttled requests are retried with backoff until done or ctx ends.")
	} else {
		m.doc(fmt.Sprintf("%s deletes the %s items of keys; keys with no item are no error.", m.p.GoName, ent.GoName),
			"BatchWriteItem: 25 deletes per request; unprocessed keys and throttled requests are retried with backoff until done or ctx ends.")
	}
	m.signature(jen.Error()).BlockFunc(func(g *jen.Group) {
		fail := func(err jen.Code) jen.Code { return jen.Return(err) }
		src := "keys"
		if put {
			src = "items"
		}
		g.Id("reqs").Op(":=").Make(jen.Index().Qual(pathTypes, "WriteRequest"), jen.Lit(0), jen.Len(jen.Id(src)))
		g.Id("requestAt").Op(":=").Make(jen.Map(jen.String()).Int(), jen.Len(jen.Id(src)))
		g.For(jen.Id("i").Op(":=").Range().Id(src)).BlockFunc(func(g *jen.Group) {
			var req jen.Code
			if put {
				g.List(jen.Id("item"), jen.Err()).Op(":=").Id("items").Index(jen.Id("i")).Dot("MarshalItem").Call()
				g.If(jen.Err().Op("!=").Nil()).Block(fail(jen.Err()))
				g.Id("h").Op(":=").Id("keyHash").Call(append([]jen.Code{jen.Id("item")}, names...)...)
				req = jen.Qual(pathTypes, "WriteRequest").Values(jen.Dict{jen.Id("PutRequest"): jen.Op("&").Qual(pathTypes, "PutRequest").Values(jen.Dict{jen.Id("Item"): jen.Id("item")})})
			} else {
				key := m.primaryKeyMap(g, ent, func(a *model.Attribute) jen.Code { return jen.Id("keys").Index(jen.Id("i")).Dot(a.GoName) }, fail)
				g.Id("keyMap").Op(":=").Add(key)
				g.Id("h").Op(":=").Id("keyHash").Call(append([]jen.Code{jen.Id("keyMap")}, names...)...)
				req = jen.Qual(pathTypes, "WriteRequest").Values(jen.Dict{jen.Id("DeleteRequest"): jen.Op("&").Qual(pathTypes, "DeleteRequest").Values(jen.Dict{jen.Id("Key"): jen.Id("keyMap")})})
			}
			g.If(jen.List(jen.Id("j"), jen.Id("ok")).Op(":=").Id("requestAt").Index(jen.Id("h")), jen.Id("ok")).Block(
				jen.Id("reqs").Index(jen.Id("j")).Op("=").Add(req),
				jen.Continue(),
			)
			g.Id("requestAt").Index(jen.Id("h")).Op("=").Len(jen.Id("reqs"))
			g.Id("reqs").Op("=").Append(jen.Id("reqs"), req)
		})
		g.If(jen.Err().Op(":=").Id("batchWrite").Call(jen.Id("ctx"), jen.Id("s").Dot("client"), jen.Id("s").Dot(tableField(m.p.Table)), jen.Id("reqs")), jen.Err().Op("!=").Nil()).Block(
			fail(m.callErr(nil, jen.Err())),
		)
		g.Return(jen.Nil())
	})
	m.f.Line()
}

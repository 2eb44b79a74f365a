package golang

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/plan"
)

// conditionInput adds the condition of a put or delete to the input.
func (m *method) conditionInput(in jen.Dict, cond jen.Code) {
	if cond == nil {
		return
	}
	in[jen.Id("ConditionExpression")] = jen.Qual(pathAWS, "String").Call(cond)
	in[jen.Id("ReturnValuesOnConditionCheckFailure")] = jen.Qual(pathTypes, "ReturnValuesOnConditionCheckFailureAllOld")
	m.setNames(in)
	if values := m.valuesDict(m.writeValue); len(values) > 0 {
		in[jen.Id("ExpressionAttributeValues")] = jen.Map(jen.String()).Qual(pathTypes, "AttributeValue").Values(values)
	}
}

// writeErr is the error of a write whose call failed: a failed condition
// maps to the pattern's errors (conditionError names the method).
func (m *method) writeErr(hasCond bool) jen.Code {
	if !hasCond {
		return m.callErr(nil, m.id("err"))
	}
	absent, present, _ := plan.ConditionKinds(m.pp)
	if m.pp.Version != nil {
		return m.versionErr(present)
	}
	if x := m.req.Expiry; x != nil && !x.InCode {
		// An expired item is absent: the now the request sent tells.
		now := m.id("in").Dot("ExpressionAttributeValues").Index(jen.Lit(m.req.Placeholder(plan.Now)))
		return rt("ExpiringConditionErr").Call(jen.Lit(m.p.GoName), m.id("err"), jen.Id(absent), jen.Id(present), jen.Lit(x.Attr), now)
	}
	return rt("ConditionErr").Call(jen.Lit(m.p.GoName), m.id("err"), jen.Id(absent), jen.Id(present))
}

// writeCondition emits the constant of a put's or delete's condition and
// returns it with the doc line that shows it; nil and none when the
// request has no condition.
func (m *method) writeCondition() (condConst jen.Code, lines []string) {
	if cond := m.req.Condition; cond != "" {
		return m.constant("Condition", cond), []string{"ConditionExpression: " + cond}
	}
	return nil, nil
}

// put emits a PutItem of a whole item (create: only where none has the key).
func (m *method) put() {
	condConst, lines := m.writeCondition()
	if note := m.pp.ExpiryNote(); note != "" {
		lines = append(lines, upperFirst(note)+".")
	}
	m.doc(lines...)
	m.callWithoutResult("PutItem", condConst != nil)
	m.putInput(condConst)
}

// putInput emits the input builder of a put or create, whose condition
// is the constant condConst (or nil).
func (m *method) putInput(condConst jen.Code) {
	r := m.pp.Params[0].Name
	m.inputBuilder("PutItemInput", func(g *jen.Group, fail func(jen.Code) jen.Code) jen.Code {
		now := m.marshalStamped(g, r, fail)
		m.stampItem(g, m.local("item"), now)
		if as := m.req.AbsentAsRead; len(as) > 0 {
			// The attributes the item read lacks, it lacks too.
			args := []jen.Code{m.id("item"), jen.Id(m.readParam())}
			for _, a := range as {
				args = append(args, jen.Lit(a.Stored))
			}
			g.Add(rt("DropAbsent").Call(args...))
		}
		if condConst == nil {
			// On one line: its two fields.
			return jen.Op("&").Qual(pathDynamo, "PutItemInput").Values(jen.Id("Item").Op(":").Add(m.id("item")), jen.Id("TableName").Op(":").Add(m.tableRef()))
		}
		in := jen.Dict{jen.Id("TableName"): m.tableRef(), jen.Id("Item"): m.id("item")}
		m.conditionInput(in, condConst)
		return jen.Op("&").Qual(pathDynamo, "PutItemInput").Values(in)
	})
}

// callWithoutResult emits the method of a put or delete: it builds the
// request with the pattern's input builder, sends it with call, and maps
// a failed condition to the pattern's errors.
func (m *method) callWithoutResult(call string, hasCond bool) {
	m.signature().BlockFunc(func(g *jen.Group) {
		fail := m.fail()
		g.List(m.id("in"), m.id("err")).Op(":=").Add(m.id("s")).Dot(m.p.InputMethod()).Call(m.paramNames()...)
		if !hasCond && len(m.req.Item) == 0 {
			// The builder's error and the call's, each named by the
			// method.
			g.If(m.id("err").Op("==").Nil()).Block(
				jen.List(jen.Id("_"), m.id("err")).Op("=").Add(m.id("s")).Dot("client").Dot(call).Call(m.id("ctx"), m.id("in")),
			)
			g.Return(rt("Wrap").Call(jen.Lit(m.p.GoName), m.id("err")))
			return
		}
		g.If(m.id("err").Op("!=").Nil()).Block(fail(m.id("err")))
		g.If(jen.List(jen.Id("_"), m.id("err")).Op(":=").Add(m.id("s")).Dot("client").Dot(call).Call(m.id("ctx"), m.id("in")), m.id("err").Op("!=").Nil()).Block(
			jen.Return(m.writeErr(hasCond)),
		)
		m.refreshItem(g, fail)
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
	m.inputBuilderOf(jen.Qual(pathDynamo, inputType), body)
}

// inputBuilderOf is inputBuilder of a request of type typ.
func (m *method) inputBuilderOf(typ *jen.Statement, body func(g *jen.Group, fail func(jen.Code) jen.Code) jen.Code) {
	if m.step != nil {
		st := m.step.Step
		commentf(m.f, "%s builds step %d of %s, %s; its errors are a KeyError or an ItemError, which the caller wraps.", m.p.InputMethod(), st.Index+1, st.Tx.GoName, st.Action())
	} else if m.ofKey {
		commentf(m.f, "%s builds the request of %s for one key; the caller wraps its errors.", m.p.InputMethod(), m.p.GoName)
	} else {
		commentf(m.f, "%s builds the request of %s; the caller wraps its errors.", m.p.InputMethod(), m.p.GoName)
	}
	m.storeMethod(m.p.InputMethod(), false, true, jen.Op("*").Add(typ), jen.Error()).BlockFunc(func(g *jen.Group) {
		fail := func(err jen.Code) jen.Code { return jen.Return(jen.Nil(), err) }
		m.unpack(g)
		m.keyChecks(g, fail)
		in := body(g, fail)
		if m.step != nil && m.step.Stamps {
			// The step decodes the item it built, stamped, back into the
			// item it was given (the transaction's copy of the caller's),
			// which then holds the version and times the step writes in
			// their stored form, for later steps' binds and for the caller
			// on success.
			v := m.local("in")
			g.Id(v).Op(":=").Add(in)
			g.If(m.id("err").Op(":=").Id(m.pp.Params[0].Name).Dot("UnmarshalItem").Call(m.id("item")), m.id("err").Op("!=").Nil()).Block(fail(m.id("err")))
			in = jen.Id(v)
		}
		g.Return(in, jen.Nil())
	})
	m.f.Line()
}

// writeValue is the value of a placeholder of a put's or delete's
// condition: the version the caller read, or a when operand.
func (m *method) writeValue(v *plan.Value) jen.Code {
	if c, ok := m.managedValue(v, ""); ok {
		return c
	}
	return m.condValue(v)
}

// paramNames are the method's parameters after ctx, as arguments.
func (m *method) paramNames() []jen.Code { return m.args(true) }

// delete emits a DeleteItem by primary key.
func (m *method) delete() {
	condConst, lines := m.writeCondition()
	m.doc(lines...)
	m.callWithoutResult("DeleteItem", condConst != nil)
	m.deleteInput(condConst)
}

// deleteInput emits the input builder of a delete, whose condition is
// the constant condConst (or nil).
func (m *method) deleteInput(condConst jen.Code) {
	m.inputBuilder("DeleteItemInput", func(g *jen.Group, fail func(jen.Code) jen.Code) jen.Code {
		key := m.primaryKeyMap(g, m.ent(), m.keyParam, fail)
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

// batchLines are the doc lines of a batch method on how it calls
// DynamoDB.
func batchLines(call string, per int, what string) []string {
	return []string{
		fmt.Sprintf("%s: %d %s per request, up to %s (default %d) requests at once", call, per, what, model.BatchOption, defaultBatchConcurrency),
		fmt.Sprintf("Unprocessed %s and throttled requests: retried with backoff, %d requests per chunk at most", what, batchAttempts),
	}
}

// batchCall is the batchCall literal of the method: its name, table, key
// attribute names and the Store's concurrency.
func (m *method) batchCall() jen.Code {
	k := m.ent().PrimaryKey()
	names := []jen.Code{jen.Lit(k.Index.PK.Name)}
	if k.SK != nil {
		names = append(names, jen.Lit(k.Index.SK.Name))
	}
	call := jen.Dict{
		jen.Id("Method"):  jen.Lit(m.p.GoName),
		jen.Id("Table"):   m.id("s").Dot(m.p.Table.StoreField()),
		jen.Id("Key"):     jen.Index().String().Values(names...),
		jen.Id("Workers"): m.id("s").Dot(model.BatchField),
	}
	if x := m.req.Expiry; x != nil && x.InCode {
		// Expired items are absent: left out.
		call[jen.Id("TTL")] = jen.Lit(x.Attr)
		call[jen.Id("Now")] = m.clockNow()
	}
	return rt("BatchCall").Values(call)
}

// batchItemFail returns the error of a value refused before any call.
func (m *method) batchItemFail(src, done string, results ...jen.Code) func(jen.Code) jen.Code {
	return func(err jen.Code) jen.Code {
		e := rt("BatchItemError").Call(jen.Lit(m.p.GoName), jen.Lit(done), m.id("i"), jen.Len(m.id(src)), err)
		return jen.Return(append(results, e)...)
	}
}

// batchGet emits a BatchGetItem of many keys: the runtime drops repeated
// keys, sends chunks of 100 and puts the items in the order of the keys.
func (m *method) batchGet() {
	ent := m.ent()
	m.viewType()
	projConst := m.constant("Projection", m.req.Projection)
	lines := batchLines("BatchGetItem", maxBatchGet, "keys")
	if note := m.pp.ExpiryNote(); note != "" {
		lines = append(lines, upperFirst(note)+".")
	}
	m.doc(lines...)
	m.signature().BlockFunc(func(g *jen.Group) {
		fail := m.batchItemFail("keys", "read", jen.Nil())
		g.Add(m.id("in")).Op(":=").Make(jen.Index().Map(jen.String()).Qual(pathTypes, "AttributeValue"), jen.Len(m.id("keys")))
		g.For(m.id("i").Op(":=").Range().Add(m.id("keys"))).BlockFunc(func(g *jen.Group) {
			key := m.primaryKeyMap(g, ent, func(a *model.Attribute) jen.Code { return m.id("keys").Index(m.id("i")).Dot(a.GoName) }, fail)
			g.Add(m.id("in")).Index(m.id("i")).Op("=").Add(key)
		})
		// The projection keeps the keys: they put the items in order.
		var projArg, namesArg jen.Code = jen.Lit(""), jen.Nil()
		if projConst != nil {
			projArg = projConst
			if len(m.req.Names) > 0 {
				namesArg = m.namesMap()
			}
		}
		decode := jen.Func().Params(m.id("item").Map(jen.String()).Qual(pathTypes, "AttributeValue")).Params(jen.Id(m.itemType()), jen.Error()).BlockFunc(func(g *jen.Group) {
			m.decode(g, m.id("item"), m.local("v"), func(err jen.Code) jen.Code { return jen.Return(jen.Id(m.itemType()).Values(), err) })
			g.Return(m.id("v"), jen.Nil())
		})
		g.Return(rt("BatchGet").Call(m.id("ctx"), m.id("s").Dot("client"), m.batchCall(), m.id("in"), jen.Lit(m.p.Consistent), projArg, namesArg, decode))
	})
	m.f.Line()
}

// batchWrite emits a BatchWriteItem of many puts or deletes: the runtime
// sends one request per key (the last put of a key wins) in chunks of 25.
func (m *method) batchWrite() {
	ent := m.ent()
	put := m.pp.Form == plan.FormBatchPut
	src, done := "keys", "deleted"
	if put {
		src, done = "items", "written"
		m.doc(batchLines("BatchWriteItem", maxBatchWrite, "puts")...)
	} else {
		m.doc(batchLines("BatchWriteItem", maxBatchWrite, "deletes")...)
	}
	m.signature().BlockFunc(func(g *jen.Group) {
		fail := m.batchItemFail(src, done)
		g.Add(m.id("reqs")).Op(":=").Make(jen.Index().Qual(pathTypes, "WriteRequest"), jen.Len(m.id(src)))
		now := m.clockLocal(g)
		g.For(m.id("i").Op(":=").Range().Add(m.id(src))).BlockFunc(func(g *jen.Group) {
			var req jen.Code
			if put {
				g.List(m.id("item"), m.id("err")).Op(":=").Add(m.id("items")).Index(m.id("i")).Dot("MarshalItem").Call()
				g.If(m.id("err").Op("!=").Nil()).Block(fail(m.id("err")))
				m.stampItem(g, m.local("item"), now)
				req = jen.Qual(pathTypes, "WriteRequest").Values(jen.Dict{jen.Id("PutRequest"): jen.Op("&").Qual(pathTypes, "PutRequest").Values(jen.Dict{jen.Id("Item"): m.id("item")})})
			} else {
				key := m.primaryKeyMap(g, ent, func(a *model.Attribute) jen.Code { return m.id("keys").Index(m.id("i")).Dot(a.GoName) }, fail)
				req = jen.Qual(pathTypes, "WriteRequest").Values(jen.Dict{jen.Id("DeleteRequest"): jen.Op("&").Qual(pathTypes, "DeleteRequest").Values(jen.Dict{jen.Id("Key"): key})})
			}
			g.Add(m.id("reqs")).Index(m.id("i")).Op("=").Add(req)
		})
		g.Return(rt("BatchWrite").Call(m.id("ctx"), m.id("s").Dot("client"), m.batchCall(), jen.Lit(done), m.id("reqs")))
	})
	m.f.Line()
}

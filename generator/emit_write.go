package generator

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/plan"
)

// writeCondition registers the names and values of a write's condition
// (the operation's own and when) and returns the expression, or "".
func (m *method) writeCondition() string {
	var parts []string
	// The item's own condition names the partition key #pk, as the plan
	// shows it.
	if m.p.Op == model.OpCreate || (m.p.Op == model.OpUpdate && !m.p.Upsert) {
		if _, taken := m.names["#pk"]; !taken {
			m.names["#pk"] = m.p.Table.PK.Name
		}
	}
	switch {
	case m.p.Op == model.OpCreate:
		parts = append(parts, "attribute_not_exists("+m.name(m.p.Table.PK.Name)+")")
	case m.p.Op == model.OpUpdate && !m.p.Upsert:
		parts = append(parts, "attribute_exists("+m.name(m.p.Table.PK.Name)+")")
	}
	if c := m.conds(m.p.When, "_when"); c != "" {
		parts = append(parts, c)
	}
	return strings.Join(parts, " AND ")
}

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

// conditionInput adds the condition of a write to the input.
func (m *method) conditionInput(in jen.Dict, cond jen.Code, values jen.Dict) {
	if cond == nil {
		return
	}
	in[jen.Id("ConditionExpression")] = jen.Qual(pathAWS, "String").Call(cond)
	in[jen.Id("ReturnValuesOnConditionCheckFailure")] = jen.Qual(pathTypes, "ReturnValuesOnConditionCheckFailureAllOld")
	in[jen.Id("ExpressionAttributeNames")] = m.namesMap()
	if len(values) > 0 {
		in[jen.Id("ExpressionAttributeValues")] = jen.Map(jen.String()).Qual(pathTypes, "AttributeValue").Values(values)
	}
}

// writeErr is the error return of a conditional write.
func (m *method) writeErr(hasCond bool) jen.Code {
	if !hasCond {
		return m.callErr(nil, jen.Err())
	}
	absent, present := m.conditionKinds()
	return jen.Id("conditionError").Call(jen.Lit(m.p.GoName), jen.Err(), jen.Id(absent), jen.Id(present))
}

// put emits a PutItem of a whole item (create: only where none has the key).
func (m *method) put() {
	ent := m.ent()
	r := model.ParamName(ent.GoName)
	m.used = append(m.used, r)
	m.params = append(m.params, jen.Id(r).Op("*").Id(ent.GoName))
	m.addCondParams(m.p.When)
	cond := m.writeCondition()
	var condConst jen.Code
	if cond != "" {
		condConst = m.constant("Condition", cond)
	}
	var lines []string
	if cond != "" {
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
	m.signature(jen.Error()).BlockFunc(func(g *jen.Group) {
		g.List(jen.Id("item"), jen.Err()).Op(":=").Id(r).Dot("MarshalItem").Call()
		g.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err()))
		in := jen.Dict{jen.Id("TableName"): m.tableRef(), jen.Id("Item"): jen.Id("item")}
		values := jen.Dict{}
		m.condValues(m.p.When, "_when", values)
		m.conditionInput(in, condConst, values)
		g.If(jen.List(jen.Id("_"), jen.Err()).Op(":=").Id("s").Dot("client").Dot("PutItem").Call(jen.Id("ctx"), jen.Op("&").Qual(pathDynamo, "PutItemInput").Values(in)), jen.Err().Op("!=").Nil()).Block(
			jen.Return(m.writeErr(condConst != nil)),
		)
		g.Return(jen.Nil())
	})
	m.f.Line()
}

// delete emits a DeleteItem by primary key.
func (m *method) delete() {
	ent := m.ent()
	val := m.keyParams(m.pp.Inputs)
	m.addCondParams(m.p.When)
	cond := m.writeCondition()
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
	m.signature(jen.Error()).BlockFunc(func(g *jen.Group) {
		fail := func(err jen.Code) jen.Code { return jen.Return(err) }
		key := m.primaryKeyMap(g, ent, val, fail)
		in := jen.Dict{jen.Id("TableName"): m.tableRef(), jen.Id("Key"): key}
		values := jen.Dict{}
		m.condValues(m.p.When, "_when", values)
		m.conditionInput(in, condConst, values)
		g.If(jen.List(jen.Id("_"), jen.Err()).Op(":=").Id("s").Dot("client").Dot("DeleteItem").Call(jen.Id("ctx"), jen.Op("&").Qual(pathDynamo, "DeleteItemInput").Values(in)), jen.Err().Op("!=").Nil()).Block(
			jen.Return(m.writeErr(condConst != nil)),
		)
		g.Return(jen.Nil())
	})
	m.f.Line()
}

// update emits an UpdateItem: set, add and remove, the index keys the
// plan rewrites, and the item after the update as the result.
func (m *method) update() {
	ent := m.ent()
	p := m.p
	val := m.keyParams(m.pp.Inputs)
	setParams := map[string]string{}
	for _, a := range p.Set {
		setParams[a.Name] = m.param(a, "")
	}
	for _, a := range p.Add {
		setParams[a.Name] = m.param(a, "")
	}
	m.addCondParams(p.When)
	lookup := func(a *model.Attribute) jen.Code {
		if n, ok := setParams[a.Name]; ok {
			return jen.Id(n)
		}
		return val(a)
	}
	// The expression. An optional attribute set to its zero value is
	// removed, as a put leaves it out; so is an index key built from it
	// (the item leaves that sparse index). Those clauses are chosen at run
	// time; the rest is fixed.
	var set, add, remove []string
	valueOf := map[string]jen.Code{} // placeholder -> value
	type optional struct {
		a         *model.Attribute
		name, ph  string
		setClause string
	}
	var optionals []optional
	for _, a := range p.Set {
		ph := m.value(a.Name)
		clause := m.name(a.Stored) + " = " + ph
		if a.Optional {
			optionals = append(optionals, optional{a, m.name(a.Stored), ph, clause})
			continue
		}
		set = append(set, clause)
		valueOf[ph] = attrValue(a, jen.Id(setParams[a.Name]))
	}
	type rebuilt struct {
		ph, name string
		rb       *plan.Rebuild
		sparse   []*model.Attribute // optional set attributes of its template
	}
	var rebuilds []rebuilt
	for _, rb := range m.pp.Rebuild {
		if rb.Remove {
			remove = append(remove, m.name(rb.KeyAttr.Name))
			continue
		}
		r := rebuilt{ph: m.value(rb.KeyAttr.Name), name: m.name(rb.KeyAttr.Name), rb: rb}
		for _, a := range rb.Template.Attrs() {
			if a.Optional && slices.Contains(p.Set, a) {
				r.sparse = append(r.sparse, a)
			}
		}
		if len(r.sparse) == 0 {
			set = append(set, r.name+" = "+r.ph)
		}
		rebuilds = append(rebuilds, r)
	}
	if p.Upsert {
		ph := m.value(p.Table.EntityAttr)
		set = append(set, m.name(p.Table.EntityAttr)+" = "+ph)
		valueOf[ph] = jen.Op("&").Qual(pathTypes, "AttributeValueMemberS").Values(jen.Dict{jen.Id("Value"): jen.Lit(ent.TypeValue)})
		// A created item holds the attributes of its primary key too,
		// unless they are the key attributes themselves (natural keys).
		for _, a := range ent.PrimaryKey().Attrs() {
			if p.Table.IsKeyAttr(a.Stored) {
				continue
			}
			ph := m.value(a.Name)
			set = append(set, m.name(a.Stored)+" = "+ph)
			valueOf[ph] = attrValue(a, val(a))
		}
	}
	for _, a := range p.Add {
		ph := m.value(a.Name)
		add = append(add, m.name(a.Stored)+" "+ph)
		valueOf[ph] = attrValue(a, jen.Id(setParams[a.Name]))
	}
	for _, a := range p.Remove {
		remove = append(remove, m.name(a.Stored))
	}
	dynamic := len(optionals) > 0
	// The whole expression, with every optional value given.
	allSet := slices.Clone(set)
	for _, o := range optionals {
		allSet = append(allSet, o.setClause)
	}
	for _, r := range rebuilds {
		if len(r.sparse) > 0 {
			allSet = append(allSet, r.name+" = "+r.ph)
		}
	}
	expr := joinClauses(allSet, add, remove)
	var updateConst jen.Code
	if !dynamic {
		updateConst = m.constant("Update", expr)
	}
	cond := m.writeCondition()
	// An atomic add to a number with a min or max can't be checked before
	// the call: the stored value must stay in bounds, so the condition
	// says so (value >= min - amount), and so does a new item's amount.
	type boundValue struct {
		ph   string
		expr jen.Code
	}
	var bounds []boundValue
	for _, a := range p.Add {
		if a.Min == nil && a.Max == nil {
			continue
		}
		name, amount := m.name(a.Stored), ":"+safeName(a.Name)
		for _, b := range []struct {
			bound  *model.Bound
			op, by string
		}{{a.Min, ">=", "Min"}, {a.Max, "<=", "Max"}} {
			if b.bound == nil {
				continue
			}
			limit, rest := m.value(a.Name+"_"+strings.ToLower(b.by)), m.value(a.Name+"_rest"+b.by)
			part := fmt.Sprintf("((attribute_not_exists(%s) AND %s %s %s) OR %s %s %s)", name, amount, b.op, limit, name, b.op, rest)
			if cond != "" {
				cond += " AND "
			}
			cond += part
			bl := boundLit(a, b.bound)
			bounds = append(bounds,
				boundValue{limit, attrValue(a, jen.Add(bl))},
				boundValue{rest, attrValue(a, jen.Add(bl).Op("-").Id(setParams[a.Name]))},
			)
		}
	}
	var condConst jen.Code
	lines := []string{"UpdateExpression: " + expr}
	if dynamic {
		var names []string
		for _, o := range optionals {
			names = append(names, o.a.Name)
		}
		lines = append(lines, fmt.Sprintf("(%s given its zero value is removed instead, with the index keys built from it)", strings.Join(names, ", ")))
	}
	if cond != "" {
		condConst = m.constant("Condition", cond)
		lines = append(lines, "ConditionExpression: "+cond)
	}
	for _, r := range rebuilds {
		lines = append(lines, fmt.Sprintf("rewrites %s=%q on %s", r.rb.KeyAttr.Name, r.rb.Template.Source, r.rb.Index.Name))
	}
	summary := fmt.Sprintf("%s changes a %s and returns it as it is after the change.", p.GoName, ent.GoName)
	if !p.Upsert {
		summary += " ErrNotFound when there is no such item."
	} else {
		summary += " It creates the item when there is none."
	}
	if len(p.When) > 0 {
		summary += " ErrConditionFailed when the when condition does not hold."
	}
	m.doc(summary, lines...)
	m.signature(jen.Op("*").Id(ent.GoName), jen.Error()).BlockFunc(func(g *jen.Group) {
		fail := func(err jen.Code) jen.Code { return jen.Return(jen.Nil(), err) }
		var checks []jen.Code
		for _, a := range p.Set {
			checks = append(checks, m.checkValue(ent, a, jen.Id(setParams[a.Name]))...)
			if !a.Optional {
				// An optional attribute's zero value removes it.
				checks = append(checks, storable(ent, a, jen.Id(setParams[a.Name]))...)
			} else if c, reason := unstorable(a, jen.Id(setParams[a.Name])); c != nil {
				checks = append(checks, jen.If(jen.Add(notZero(a, jen.Id(setParams[a.Name]))).Op("&&").Add(c)).Block(jen.Return(jen.Nil(), itemError(ent, a, reason))))
			}
		}
		for _, a := range p.Add {
			checks = append(checks, storable(ent, a, jen.Id(setParams[a.Name]))...)
		}
		for _, c := range checks {
			g.Add(c)
		}
		key := m.primaryKeyMap(g, ent, val, fail)
		values := jen.Dict{}
		for ph, v := range valueOf {
			values[jen.Lit(ph)] = v
		}
		for _, b := range bounds {
			values[jen.Lit(b.ph)] = b.expr
		}
		var later []jen.Code // statements that need the values map
		for i, r := range rebuilds {
			name := fmt.Sprintf("rebuilt%d", i+1)
			build := []jen.Code{
				jen.List(jen.Id(name), jen.Err()).Op(":=").Id(m.e.useBuilder(ent, r.rb.KeyAttr)).CallFunc(func(g *jen.Group) {
					for _, a := range r.rb.Template.Attrs() {
						g.Add(lookup(a))
					}
				}),
				jen.If(jen.Err().Op("!=").Nil()).Block(fail(jen.Err())),
			}
			if len(r.sparse) == 0 {
				for _, c := range build {
					g.Add(c)
				}
				values[jen.Lit(r.ph)] = keyAttrValue(r.rb.KeyAttr, jen.Id(name))
				continue
			}
			var zero *jen.Statement
			for _, a := range r.sparse {
				c := isZero(a, jen.Id(setParams[a.Name]))
				if zero == nil {
					zero = jen.Add(c)
				} else {
					zero = zero.Op("||").Add(c)
				}
			}
			build = append(build,
				jen.Id("set").Op("=").Append(jen.Id("set"), jen.Lit(r.name+" = "+r.ph)),
				jen.Id("values").Index(jen.Lit(r.ph)).Op("=").Add(keyAttrValue(r.rb.KeyAttr, jen.Id(name))),
			)
			later = append(later, jen.If(zero).Block(
				jen.Id("remove").Op("=").Append(jen.Id("remove"), jen.Lit(r.name)),
			).Else().Block(build...))
		}
		m.condValues(p.When, "_when", values)
		update := jen.Code(jen.Qual(pathAWS, "String").Call(updateConst))
		valuesExpr := jen.Code(jen.Map(jen.String()).Qual(pathTypes, "AttributeValue").Values(values))
		if dynamic {
			g.Id("values").Op(":=").Add(valuesExpr)
			g.Id("set").Op(":=").Index().String().ValuesFunc(func(g *jen.Group) {
				for _, c := range set {
					g.Lit(c)
				}
			})
			g.Id("remove").Op(":=").Index().String().ValuesFunc(func(g *jen.Group) {
				for _, c := range remove {
					g.Lit(c)
				}
			})
			for _, o := range optionals {
				g.If(isZero(o.a, jen.Id(setParams[o.a.Name]))).Block(
					jen.Id("remove").Op("=").Append(jen.Id("remove"), jen.Lit(o.name)),
				).Else().Block(
					jen.Id("set").Op("=").Append(jen.Id("set"), jen.Lit(o.setClause)),
					jen.Id("values").Index(jen.Lit(o.ph)).Op("=").Add(attrValue(o.a, jen.Id(setParams[o.a.Name]))),
				)
			}
			for _, c := range later {
				g.Add(c)
			}
			update = jen.Qual(pathAWS, "String").Call(jen.Id("updateExpression").Call(jen.Id("set"), jen.Lit(strings.Join(add, ", ")), jen.Id("remove")))
			valuesExpr = jen.Id("values")
		}
		in := jen.Dict{
			jen.Id("TableName"):                m.tableRef(),
			jen.Id("Key"):                      key,
			jen.Id("UpdateExpression"):         update,
			jen.Id("ExpressionAttributeNames"): m.namesMap(),
			jen.Id("ReturnValues"):             jen.Qual(pathTypes, "ReturnValueAllNew"),
		}
		if dynamic || len(values) > 0 {
			in[jen.Id("ExpressionAttributeValues")] = valuesExpr
		}
		if condConst != nil {
			in[jen.Id("ConditionExpression")] = jen.Qual(pathAWS, "String").Call(condConst)
			in[jen.Id("ReturnValuesOnConditionCheckFailure")] = jen.Qual(pathTypes, "ReturnValuesOnConditionCheckFailureAllOld")
		}
		g.List(jen.Id("out"), jen.Err()).Op(":=").Id("s").Dot("client").Dot("UpdateItem").Call(jen.Id("ctx"), jen.Op("&").Qual(pathDynamo, "UpdateItemInput").Values(in))
		g.If(jen.Err().Op("!=").Nil()).Block(fail(m.writeErr(condConst != nil)))
		g.Var().Id("v").Id(ent.GoName)
		g.If(jen.Err().Op(":=").Id("v").Dot("UnmarshalItem").Call(jen.Id("out").Dot("Attributes")), jen.Err().Op("!=").Nil()).Block(fail(jen.Err()))
		g.Return(jen.Op("&").Id("v"), jen.Nil())
	})
	m.f.Line()
}

// joinClauses writes an update expression from its SET, ADD and REMOVE
// parts.
func joinClauses(set, add, remove []string) string {
	var clauses []string
	if len(set) > 0 {
		clauses = append(clauses, "SET "+strings.Join(set, ", "))
	}
	if len(add) > 0 {
		clauses = append(clauses, "ADD "+strings.Join(add, ", "))
	}
	if len(remove) > 0 {
		clauses = append(clauses, "REMOVE "+strings.Join(remove, ", "))
	}
	return strings.Join(clauses, " ")
}

// checkValue emits the spec's checks of one value an update sets.
func (m *method) checkValue(ent *model.Entity, a *model.Attribute, v jen.Code) []jen.Code {
	fail := func(reason string) jen.Code {
		return jen.Return(jen.Nil(), itemError(ent, a, reason))
	}
	var out []jen.Code
	if a.Min != nil {
		out = append(out, jen.If(jen.Add(v).Op("<").Add(boundLit(a, a.Min))).Block(fail("below its min "+a.Min.Text)))
	}
	if a.Max != nil {
		out = append(out, jen.If(jen.Add(v).Op(">").Add(boundLit(a, a.Max))).Block(fail("above its max "+a.Max.Text)))
	}
	if a.MaxLength > 0 && a.Type == model.String {
		out = append(out, jen.If(jen.Qual("unicode/utf8", "RuneCountInString").Call(v).Op(">").Lit(a.MaxLength)).Block(fail(fmt.Sprintf("longer than its maxLength %d", a.MaxLength))))
	}
	if a.Type == model.Enum {
		cond := jen.Op("!").Add(v).Dot("Valid").Call()
		if a.Optional {
			cond = jen.Add(v).Op("!=").Lit("").Op("&&").Add(cond)
		}
		out = append(out, jen.If(cond).Block(fail("not one of "+strings.Join(quoteAll(a.Values), ", "))))
	}
	return out
}

// storable emits the check of a value an update sets or adds that
// DynamoDB can't take: an empty set, a nil document, a float out of its
// range, a time with no four-digit year.
func storable(ent *model.Entity, a *model.Attribute, v jen.Code) []jen.Code {
	fail := func(reason string) jen.Code {
		return jen.Return(jen.Nil(), itemError(ent, a, reason))
	}
	switch a.Type {
	case model.StringSet, model.IntSet:
		return []jen.Code{jen.If(jen.Len(v).Op("==").Lit(0)).Block(fail("an empty set, which DynamoDB does not store"))}
	case model.Document:
		return []jen.Code{jen.If(jen.Add(v).Op("==").Nil()).Block(fail("a nil document, which DynamoDB does not store"))}
	}
	if c, reason := unstorable(a, v); c != nil {
		return []jen.Code{jen.If(c).Block(fail(reason))}
	}
	return nil
}

// batchGet emits a BatchGetItem of many keys: unique keys, chunks of 100,
// unprocessed keys retried, items in the order of the keys.
func (m *method) batchGet() {
	ent := m.ent()
	k := ent.PrimaryKey()
	m.used = append(m.used, "keys")
	m.params = append(m.params, jen.Id("keys").Index().Id(ent.KeyType()))
	m.viewType()
	proj := m.projection()
	var projConst jen.Code
	if proj != "" {
		projConst = m.constant("Projection", proj)
	}
	m.doc(fmt.Sprintf("%s reads the %s items of keys, in the order of keys; keys with no item are left out, and a key given twice is read once.", m.p.GoName, ent.GoName),
		"BatchGetItem: 100 keys per request; unprocessed keys and throttled requests are retried with backoff until done or ctx ends.")
	names := []jen.Code{jen.Lit(k.Index.PK.Name)}
	if k.SK != nil {
		names = append(names, jen.Lit(k.Index.SK.Name))
	}
	m.signature(jen.Index().Id(m.itemType()), jen.Error()).BlockFunc(func(g *jen.Group) {
		fail := func(err jen.Code) jen.Code { return jen.Return(jen.Nil(), err) }
		g.Id("in").Op(":=").Make(jen.Index().Map(jen.String()).Qual(pathTypes, "AttributeValue"), jen.Lit(0), jen.Len(jen.Id("keys")))
		g.Id("order").Op(":=").Make(jen.Index().String(), jen.Lit(0), jen.Len(jen.Id("keys")))
		g.Id("seen").Op(":=").Make(jen.Map(jen.String()).Bool(), jen.Len(jen.Id("keys")))
		g.For(jen.List(jen.Id("_"), jen.Id("k")).Op(":=").Range().Id("keys")).BlockFunc(func(g *jen.Group) {
			key := m.primaryKeyMap(g, ent, func(a *model.Attribute) jen.Code { return jen.Id("k").Dot(a.GoName) }, fail)
			g.Id("key").Op(":=").Add(key)
			g.Id("h").Op(":=").Id("keyHash").Call(append([]jen.Code{jen.Id("key")}, names...)...)
			g.Id("order").Op("=").Append(jen.Id("order"), jen.Id("h"))
			g.If(jen.Id("seen").Index(jen.Id("h"))).Block(jen.Continue())
			g.Id("seen").Index(jen.Id("h")).Op("=").True()
			g.Id("in").Op("=").Append(jen.Id("in"), jen.Id("key"))
		})
		var projArg, namesArg jen.Code = jen.Lit(""), jen.Nil()
		if projConst != nil {
			projArg, namesArg = projConst, m.namesMap()
			// The keys are needed to put the items in order.
		}
		g.List(jen.Id("items"), jen.Err()).Op(":=").Id("batchGet").Call(jen.Id("ctx"), jen.Id("s").Dot("client"), jen.Id("s").Dot(tableField(m.p.Table)), jen.Id("in"), jen.Lit(m.p.Consistent), projArg, namesArg)
		g.If(jen.Err().Op("!=").Nil()).Block(fail(m.callErr(nil, jen.Err())))
		g.Id("found").Op(":=").Make(jen.Map(jen.String()).Id(m.itemType()), jen.Len(jen.Id("items")))
		g.For(jen.List(jen.Id("_"), jen.Id("item")).Op(":=").Range().Id("items")).BlockFunc(func(g *jen.Group) {
			m.decode(g, jen.Id("item"), "v", fail)
			g.Id("found").Index(jen.Id("keyHash").Call(append([]jen.Code{jen.Id("item")}, names...)...)).Op("=").Id("v")
		})
		g.Id("out").Op(":=").Make(jen.Index().Id(m.itemType()), jen.Lit(0), jen.Len(jen.Id("found")))
		g.For(jen.List(jen.Id("_"), jen.Id("h")).Op(":=").Range().Id("order")).Block(
			jen.If(jen.List(jen.Id("v"), jen.Id("ok")).Op(":=").Id("found").Index(jen.Id("h")), jen.Id("ok")).Block(
				jen.Id("out").Op("=").Append(jen.Id("out"), jen.Id("v")),
				jen.Id("delete").Call(jen.Id("found"), jen.Id("h")),
			),
		)
		g.Return(jen.Id("out"), jen.Nil())
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
		m.used = append(m.used, "items")
		m.params = append(m.params, jen.Id("items").Index().Id(ent.GoName))
		m.doc(fmt.Sprintf("%s writes every %s of items whole; of two items with one key, the last is written.", m.p.GoName, ent.GoName),
			"BatchWriteItem: 25 puts per request; unprocessed items and throttled requests are retried with backoff until done or ctx ends.")
	} else {
		m.used = append(m.used, "keys")
		m.params = append(m.params, jen.Id("keys").Index().Id(ent.KeyType()))
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
		g.Id("at").Op(":=").Make(jen.Map(jen.String()).Int(), jen.Len(jen.Id(src)))
		g.For(jen.Id("i").Op(":=").Range().Id(src)).BlockFunc(func(g *jen.Group) {
			var req jen.Code
			if put {
				g.List(jen.Id("item"), jen.Err()).Op(":=").Id("items").Index(jen.Id("i")).Dot("MarshalItem").Call()
				g.If(jen.Err().Op("!=").Nil()).Block(fail(jen.Err()))
				g.Id("h").Op(":=").Id("keyHash").Call(append([]jen.Code{jen.Id("item")}, names...)...)
				req = jen.Qual(pathTypes, "WriteRequest").Values(jen.Dict{jen.Id("PutRequest"): jen.Op("&").Qual(pathTypes, "PutRequest").Values(jen.Dict{jen.Id("Item"): jen.Id("item")})})
			} else {
				key := m.primaryKeyMap(g, ent, func(a *model.Attribute) jen.Code { return jen.Id("keys").Index(jen.Id("i")).Dot(a.GoName) }, fail)
				g.Id("key").Op(":=").Add(key)
				g.Id("h").Op(":=").Id("keyHash").Call(append([]jen.Code{jen.Id("key")}, names...)...)
				req = jen.Qual(pathTypes, "WriteRequest").Values(jen.Dict{jen.Id("DeleteRequest"): jen.Op("&").Qual(pathTypes, "DeleteRequest").Values(jen.Dict{jen.Id("Key"): jen.Id("key")})})
			}
			g.If(jen.List(jen.Id("j"), jen.Id("ok")).Op(":=").Id("at").Index(jen.Id("h")), jen.Id("ok")).Block(
				jen.Id("reqs").Index(jen.Id("j")).Op("=").Add(req),
				jen.Continue(),
			)
			g.Id("at").Index(jen.Id("h")).Op("=").Len(jen.Id("reqs"))
			g.Id("reqs").Op("=").Append(jen.Id("reqs"), req)
		})
		g.If(jen.Err().Op(":=").Id("batchWrite").Call(jen.Id("ctx"), jen.Id("s").Dot("client"), jen.Id("s").Dot(tableField(m.p.Table)), jen.Id("reqs")), jen.Err().Op("!=").Nil()).Block(
			fail(m.callErr(nil, jen.Err())),
		)
		g.Return(jen.Nil())
	})
	m.f.Line()
}

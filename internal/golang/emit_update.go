package golang

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/plan"
)

// updater prints an update: the plan decided its actions and values
// (plan.Update), and each method here prints one part of them. An action
// built from an optional attribute is sent only when the call gives it a
// value, and its REMOVE otherwise (plan.Clause.Unless).
type updater struct {
	*method
	u                 *plan.Update
	always, sometimes []*plan.Clause
	// params holds the parameter of each attribute the update sets or adds.
	params                 map[*model.Attribute]string
	updateConst, condConst jen.Code
	// heldVar is the variable of the condition's parts that hold
	// attributes as read (plan.Request.Held), or nil.
	heldVar jen.Code
	// rebuilt holds the value of each rewritten index key, once built.
	rebuilt map[*plan.Value]jen.Code
	// now is the local holding the Store's clock's time, when the update
	// sets a timestamp.
	now string
}

// update emits an UpdateItem: its doc, the method that sends it and
// returns the item as it is after the change, and its input builder.
func (m *method) update() {
	up := m.updater()
	up.doc()
	up.call()
	m.inputBuilder("UpdateItemInput", up.input)
}

// updater starts the printing of an update: it emits its expression
// constants.
func (m *method) updater() *updater {
	up := &updater{method: m, u: m.req.Update, params: map[*model.Attribute]string{}, rebuilt: map[*plan.Value]jen.Code{}}
	up.always, up.sometimes = up.u.Static()
	for _, q := range m.pp.Params {
		if q.Role == plan.ParamSet || q.Role == plan.ParamAdd || q.Role == plan.ParamElems {
			up.params[q.Attr] = q.Name
		}
	}
	if !up.dynamic() {
		up.updateConst = m.constant("Update", up.u.Expression())
	}
	up.condConst = m.constant("Condition", m.req.Condition)
	up.heldVar = m.heldParts()
	return up
}

// doc emits the update's doc comment.
func (up *updater) doc() { up.method.doc(up.lines()...) }

// lines are the doc lines of the update's request beyond its call and
// key.
func (up *updater) lines() []string {
	p := up.p
	lines := []string{"UpdateExpression: " + up.u.Expression()}
	if len(up.sometimes) > 0 {
		var names []string
		pointers, others := false, false
		for _, a := range p.Set {
			if a.Optional {
				names = append(names, a.Name)
				pointers = pointers || a.StoredForm().Pointer
				others = others || !a.StoredForm().Pointer
			}
		}
		given := "nil, or an empty list, set or map,"
		switch {
		case !others:
			given = "nil"
		case !pointers:
			given = "nil or empty"
		}
		note := fmt.Sprintf("(%s: %s removes the attribute", strings.Join(names, ", "), given)
		for _, rb := range up.pp.Rebuild {
			if slices.ContainsFunc(rb.Template.Attrs(), func(a *model.Attribute) bool { return a.Optional && slices.Contains(p.Set, a) }) {
				note += ", with the index keys built from it"
				break
			}
		}
		lines = append(lines, note+")")
	}
	lines = append(lines, up.paramLines()...)
	if c := up.req.FullCondition(); c != "" {
		lines = append(lines, "ConditionExpression: "+c)
	}
	if note := up.req.HeldNote(); note != "" {
		lines = append(lines, "("+note+")")
	}
	if note := up.pp.ExpiryNote(); note != "" {
		lines = append(lines, upperFirst(note)+".")
	}
	for _, rb := range up.pp.Rebuild {
		if !rb.Remove {
			lines = append(lines, fmt.Sprintf("rewrites %s=%q on %s", rb.KeyAttr.Name, rb.Template.Source, rb.Index.Name))
		}
	}
	return lines
}

// call emits the method: build the input, send it, map a failed
// condition, decode the item the update returns.
func (up *updater) call() {
	ent := up.ent()
	up.signature().BlockFunc(func(g *jen.Group) {
		fail := up.fail(jen.Nil())
		g.List(up.id("in"), up.id("err")).Op(":=").Add(up.id("s")).Dot(up.p.InputMethod()).Call(up.paramNames()...)
		g.If(up.id("err").Op("!=").Nil()).Block(fail(up.id("err")))
		g.List(up.id("out"), up.id("err")).Op(":=").Add(up.id("s")).Dot("client").Dot("UpdateItem").Call(up.id("ctx"), up.id("in"))
		g.If(up.id("err").Op("!=").Nil()).Block(jen.Return(jen.Nil(), up.writeErr(up.condConst != nil)))
		g.Var().Add(up.id("v")).Id(ent.GoName)
		g.If(up.id("err").Op(":=").Add(up.id("v")).Dot("UnmarshalItem").Call(up.id("out").Dot("Attributes")), up.id("err").Op("!=").Nil()).Block(fail(up.id("err")))
		g.Return(jen.Op("&").Add(up.id("v")), jen.Nil())
	})
	up.f.Line()
}

// input emits the body of the update's input builder and returns the
// input.
func (up *updater) input(g *jen.Group, fail func(jen.Code) jen.Code) jen.Code {
	up.checks(g, fail)
	up.now = up.clockLocal(g)
	key := up.primaryKeyMap(g, up.ent(), up.keyParam, fail)
	for _, c := range up.always {
		up.rebuildKeys(g, c, fail)
	}
	values := up.valuesDict(up.value)
	in := jen.Dict{
		jen.Id("TableName"):    up.tableRef(),
		jen.Id("Key"):          key,
		jen.Id("ReturnValues"): jen.Qual(pathTypes, "ReturnValueAllNew"),
	}
	if !up.ownNames() {
		up.setNames(in)
	}
	if up.condConst != nil {
		in[jen.Id("ConditionExpression")] = jen.Qual(pathAWS, "String").Call(up.condConst)
		in[jen.Id("ReturnValuesOnConditionCheckFailure")] = jen.Qual(pathTypes, "ReturnValuesOnConditionCheckFailureAllOld")
	}
	if !up.dynamic() {
		in[jen.Id("UpdateExpression")] = jen.Qual(pathAWS, "String").Call(up.updateConst)
		if len(values) > 0 {
			in[jen.Id("ExpressionAttributeValues")] = jen.Map(jen.String()).Qual(pathTypes, "AttributeValue").Values(values)
		}
		return up.held(jen.Op("&").Qual(pathDynamo, "UpdateItemInput").Values(in))
	}
	up.chooseActions(g, values, fail)
	up.expression(g, in)
	g.Add(up.id("in")).Op(":=").Op("&").Qual(pathDynamo, "UpdateItemInput").Values(in)
	up.sendIfAny(g)
	// DynamoDB refuses an empty map of values: a call that sets nothing
	// but removes sends none.
	g.If(jen.Len(up.id("values")).Op(">").Lit(0)).Block(
		up.id("in").Dot("ExpressionAttributeValues").Op("=").Add(up.id("values")),
	)
	return up.held(up.id("in"))
}

// held is input in with the parts of its condition that hold attributes
// as the item read has them (plan.Request.Held), which the runtime
// chooses by what the item holds; in itself when there are none.
func (up *updater) held(in jen.Code) jen.Code {
	if up.heldVar == nil {
		return in
	}
	return rt("HoldRead").Call(in, jen.Id(up.readParam()), up.heldVar)
}

// readParam is the name of the step builder's parameter of the item
// read (plan.ParamRead).
func (m *method) readParam() string {
	for _, q := range m.pp.Params {
		if q.Role == plan.ParamRead {
			return q.Name
		}
	}
	m.e.bug("step %s has no parameter of the item read", m.p.Name)
	return ""
}

// heldParts emits the variable holding the parts of plan.Request.Held,
// and returns it, or nil when there are none.
func (m *method) heldParts() jen.Code {
	if len(m.req.Held) == 0 {
		return nil
	}
	name := m.p.ConstName("Held")
	commentf(m.f, "%s are the parts of the condition of %s that hold each attribute as the item read has it: Present when the item holds the attribute, with the value read, Absent when it does not.", name, m.p.InputMethod())
	m.f.Var().Id(name).Op("=").Index().Add(rt("Held")).ValuesFunc(func(g *jen.Group) {
		for _, h := range m.req.Held {
			g.Values(jen.Dict{jen.Id("Stored"): jen.Lit(h.Stored), jen.Id("Present"): jen.Lit(h.Present), jen.Id("Absent"): jen.Lit(h.Absent), jen.Id("Value"): jen.Lit(h.Value)})
		}
	})
	m.f.Line()
	return jen.Id(name)
}

// checks emits the spec's checks of the values the update sets and adds,
// and of what DynamoDB can't store. An optional scalar's are run only
// when the call gives it a value; an optional set, list or map given
// none is removed, so only a required one is refused empty.
func (up *updater) checks(g *jen.Group, fail func(jen.Code) jen.Code) {
	ent := up.ent()
	for _, a := range up.p.Set {
		v := jen.Id(up.params[a])
		if ent.KeyChecked(a) {
			// A value no key attribute holds is a KeyError, as on writes
			// of the whole item; absent (nil, or an empty binary or
			// path), it removes the attribute.
			presentKeyCheck(g, a, v, up.local("err"), fail)
		}
		checks := valueChecks(ent, a, deref(a, v), fail)
		if !a.Optional {
			checks = append(checks, emptiness(ent, a, v, fail)...)
		}
		if a.StoredForm().Pointer && len(checks) > 0 {
			checks = []jen.Code{jen.If(present(a, v)).Block(checks...)}
		}
		for _, c := range checks {
			g.Add(c)
		}
	}
	for _, a := range up.p.Add {
		for _, c := range storable(ent, a, jen.Id(up.params[a])) {
			g.Add(c)
		}
	}
	up.checkElems(g)
}

// setValue is the value the update sets attribute a to: its parameter,
// dereferenced for an optional scalar, which only code run when the
// call gives it reads.
func (up *updater) setValue(a *model.Attribute) jen.Code { return deref(a, jen.Id(up.params[a])) }

// rebuildKeys emits the building of the index keys clause c rewrites.
func (up *updater) rebuildKeys(g *jen.Group, c *plan.Clause, fail func(jen.Code) jen.Code) {
	for _, v := range c.Values {
		if v.Source != plan.RebuiltKey {
			continue
		}
		name := up.derived(model.RebuiltVar(len(up.rebuilt) + 1))
		g.List(jen.Id(name), up.id("err")).Op(":=").Id(up.e.builder(up.ent(), v.Rebuild.KeyAttr)).CallFunc(func(g *jen.Group) {
			for _, a := range v.Rebuild.Template.Attrs() {
				if _, ok := up.params[a]; ok {
					g.Add(up.setValue(a))
				} else if l := up.setConst(a); l != nil {
					g.Add(goLiteral(up.ent(), a, l))
				} else {
					g.Add(up.keyParam(a))
				}
			}
		})
		g.If(up.id("err").Op("!=").Nil()).Block(fail(up.id("err")))
		up.rebuilt[v] = keyAttrValue(v.Rebuild.KeyAttr, jen.Id(name))
	}
}

// value is the attribute value a placeholder of the update stands for.
func (up *updater) value(v *plan.Value) jen.Code {
	switch v.Source {
	case plan.SetValue:
		return attrValue(v.Attr, up.setValue(v.Attr))
	case plan.AddAmount, plan.RemoveElems:
		if v.Lit != nil {
			return literalValue(v.Lit)
		}
		return attrValue(v.Attr, jen.Id(up.params[v.Attr]))
	case plan.SetConst, plan.AddDefault:
		return literalValue(v.Lit)
	case plan.AddLimit:
		return attrValue(v.Attr, addLimit(v))
	case plan.AddRest:
		amount := up.amount(v.Attr)
		if v.Attr.Type == model.Int {
			return rt("IntDiff").Call(addLimit(v), amount)
		}
		return attrValue(v.Attr, jen.Add(addLimit(v)).Op("-").Add(amount))
	case plan.RebuiltKey:
		return up.rebuilt[v]
	case plan.EntityType:
		return jen.Op("&").Qual(pathTypes, "AttributeValueMemberS").Values(jen.Dict{jen.Id("Value"): jen.Lit(up.ent().TypeValue)})
	case plan.KeyInput:
		return attrValue(v.Attr, up.keyParam(v.Attr))
	}
	if c, ok := up.managedValue(v, up.now); ok {
		return c
	}
	return up.condValue(v)
}

// amount is the amount the update adds to a: its parameter, or the
// constant of the spec as the plan sends it.
func (up *updater) amount(a *model.Attribute) jen.Code {
	for _, v := range up.req.Values {
		if v.Source == plan.AddAmount && v.Attr == a && v.Lit != nil {
			return goLiteral(up.ent(), a, v.Lit)
		}
	}
	return jen.Id(up.params[a])
}

// chooseActions emits the lists of SET and REMOVE actions and the values
// map, and for each action that depends on the call's values, the choice
// between it and its REMOVE.
func (up *updater) chooseActions(g *jen.Group, values jen.Dict, fail func(jen.Code) jen.Code) {
	g.Add(up.id("values")).Op(":=").Map(jen.String()).Qual(pathTypes, "AttributeValue").Values(values)
	g.Add(up.id("set")).Op(":=").Index().String().ValuesFunc(func(g *jen.Group) {
		for _, c := range up.always {
			g.Lit(c.Text)
		}
	})
	g.Add(up.id("remove")).Op(":=").Index().String().ValuesFunc(func(g *jen.Group) {
		for _, c := range up.u.Remove {
			g.Lit(c.Text)
		}
	})
	up.chooseDeletes(g)
	for _, c := range up.sometimes {
		var zero *jen.Statement
		for _, a := range c.Unless {
			z := absent(a, jen.Id(up.params[a]))
			if zero == nil {
				zero = jen.Add(z)
			} else {
				zero = zero.Op("||").Add(z)
			}
		}
		g.If(zero).Block(
			up.id("remove").Op("=").Append(up.id("remove"), jen.Lit(c.Instead)),
		).Else().BlockFunc(func(g *jen.Group) {
			up.rebuildKeys(g, c, fail)
			g.Add(up.id("set")).Op("=").Append(up.id("set"), jen.Lit(c.Text))
			for _, v := range c.Values {
				g.Add(up.id("values")).Index(jen.Lit(v.Placeholder)).Op("=").Add(up.value(v))
			}
		})
	}
}

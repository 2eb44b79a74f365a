package golang

import (
	"github.com/dave/jennifer/jen"

	"github.com/dyngen/dyngen/internal/plan"
)

// replace emits a put of an entity with a created time, which the plan
// sends as an UpdateItem (plan.replace): it sets every attribute the item
// holds and removes those it lacks, as PutItem would write it whole, and
// writes the created time only where the stored item has none.
func (m *method) replace() {
	r := m.pp.Params[0].Name
	u := m.req.Update
	_, sometimes := u.Static()
	var updateConst jen.Code
	if len(sometimes) == 0 {
		updateConst = m.constant("Update", u.Expression())
	}
	condConst := m.constant("Condition", m.req.Condition)
	lines := []string{"UpdateExpression: " + u.Expression()}
	if len(sometimes) > 0 {
		lines = append(lines, "(an attribute the item lacks is removed instead of set)")
	}
	if m.req.Condition != "" {
		lines = append(lines, "ConditionExpression: "+m.req.Condition)
	}
	m.doc(lines...)
	m.signature().BlockFunc(func(g *jen.Group) {
		fail := m.fail()
		g.List(m.id("in"), m.id("err")).Op(":=").Add(m.id("s")).Dot(m.p.InputMethod()).Call(m.paramNames()...)
		g.If(m.id("err").Op("!=").Nil()).Block(fail(m.id("err")))
		g.List(m.id("out"), m.id("err")).Op(":=").Add(m.id("s")).Dot("client").Dot("UpdateItem").Call(m.id("ctx"), m.id("in"))
		g.If(m.id("err").Op("!=").Nil()).Block(jen.Return(m.writeErr(condConst != nil)))
		g.If(m.id("err").Op(":=").Id(r).Dot("UnmarshalItem").Call(m.id("out").Dot("Attributes")), m.id("err").Op("!=").Nil()).Block(fail(m.id("err")))
		g.Return(jen.Nil())
	})
	m.f.Line()
	m.replaceInput(updateConst, condConst)
}

// replaceInput emits the input builder of a put sent as an UpdateItem,
// whose expressions are the constants updateConst (nil when the actions
// depend on the item) and condConst (or nil).
func (m *method) replaceInput(updateConst, condConst jen.Code) {
	r := m.pp.Params[0].Name
	always, sometimes := m.req.Update.Static()
	m.inputBuilder("UpdateItemInput", func(g *jen.Group, fail func(jen.Code) jen.Code) jen.Code {
		now := m.marshalStamped(g, r, fail)
		m.stampItem(g, m.local("item"), now)
		key := jen.Dict{}
		for _, ka := range m.p.Table.Primary().KeyAttrs() {
			key[jen.Lit(ka.Name)] = m.id("item").Index(jen.Lit(ka.Name))
		}
		value := func(v *plan.Value) jen.Code {
			if v.Source == plan.ItemAttr {
				return m.id("item").Index(jen.Lit(v.Stored))
			}
			if c, ok := m.managedValue(v, now); ok {
				return c
			}
			return m.condValue(v)
		}
		in := jen.Dict{
			jen.Id("TableName"):    m.tableRef(),
			jen.Id("Key"):          jen.Map(jen.String()).Qual(pathTypes, "AttributeValue").Values(key),
			jen.Id("ReturnValues"): jen.Qual(pathTypes, "ReturnValueAllNew"),
		}
		m.setNames(in)
		if condConst != nil {
			in[jen.Id("ConditionExpression")] = jen.Qual(pathAWS, "String").Call(condConst)
			in[jen.Id("ReturnValuesOnConditionCheckFailure")] = jen.Qual(pathTypes, "ReturnValuesOnConditionCheckFailureAllOld")
		}
		values := m.valuesDict(value)
		if len(sometimes) == 0 {
			in[jen.Id("UpdateExpression")] = jen.Qual(pathAWS, "String").Call(updateConst)
			in[jen.Id("ExpressionAttributeValues")] = jen.Map(jen.String()).Qual(pathTypes, "AttributeValue").Values(values)
			return jen.Op("&").Qual(pathDynamo, "UpdateItemInput").Values(in)
		}
		// An attribute the item lacks is removed: the put writes the
		// item whole.
		g.Add(m.id("values")).Op(":=").Map(jen.String()).Qual(pathTypes, "AttributeValue").Values(values)
		g.Add(m.id("set")).Op(":=").Index().String().ValuesFunc(func(g *jen.Group) {
			for _, c := range always {
				g.Lit(c.Text)
			}
		})
		g.Var().Add(m.id("remove")).Index().String()
		for _, c := range sometimes {
			v := c.Values[0]
			g.If(jen.List(m.id("v"), m.id("ok")).Op(":=").Add(m.id("item")).Index(jen.Lit(v.Stored)), m.id("ok")).Block(
				m.id("set").Op("=").Append(m.id("set"), jen.Lit(c.Text)),
				m.id("values").Index(jen.Lit(v.Placeholder)).Op("=").Add(m.id("v")),
			).Else().Block(
				m.id("remove").Op("=").Append(m.id("remove"), jen.Lit(c.Instead)),
			)
		}
		in[jen.Id("UpdateExpression")] = jen.Qual(pathAWS, "String").Call(rt("UpdateExpression").Call(m.id("set"), jen.Lit(""), m.id("remove"), jen.Nil()))
		in[jen.Id("ExpressionAttributeValues")] = m.id("values")
		return jen.Op("&").Qual(pathDynamo, "UpdateItemInput").Values(in)
	})
}

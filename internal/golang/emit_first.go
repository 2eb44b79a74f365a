package golang

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/dyngen/dyngen/internal/plan"
)

// first emits a query's first item: one Query with Limit 1, whose item
// is the result (the planner refuses a first whose key condition may read
// an item the method would drop, and the model one with a filter).
func (m *method) first() {
	val := m.keyParam
	m.viewType()
	m.fromKeys()
	keyCond := m.constant("KeyCondition", m.req.KeyCondition)
	projConst := m.constant("Projection", m.req.Projection)
	if m.req.Filter != "" || len(m.pp.Foreign) > 0 {
		m.e.bug("first %s may read an item it drops", m.p.Name)
	}
	lines := m.readLines()
	if m.req.Descending {
		lines = append(lines, "ScanIndexForward: false (descending)")
	}
	lines = append(lines, fmt.Sprintf("Limit: %d", m.req.Limit))
	m.doc(lines...)
	m.signature().BlockFunc(func(g *jen.Group) {
		m.unpack(g)
		fail := m.fail(jen.Nil())
		in := m.queryInput(g, val, keyCond, projConst, nil, fail)
		g.Add(m.id("in")).Op(":=").Add(in)
		m.emptyRange(g)
		g.List(m.id("out"), m.id("err")).Op(":=").Add(m.id("s")).Dot("client").Dot("Query").Call(m.id("ctx"), m.id("in"))
		g.If(m.id("err").Op("!=").Nil()).Block(fail(m.id("err")))
		g.If(jen.Len(m.id("out").Dot("Items")).Op("==").Lit(0)).Block(m.emptyResult())
		m.decode(g, m.id("out").Dot("Items").Index(jen.Lit(0)), m.local("v"), fail)
		if m.pp.Key.SK.DropEqual {
			// In ascending order, the item equal to the bound comes
			// last: read first, it is the only one (the planner refuses
			// this in descending order).
			g.If(m.id("v").Dot(m.p.Where.Attr.GoName).Op("==").Add(m.param(plan.ParamWhere, m.p.Where.Attr, nil, 0))).Block(m.emptyResult())
		}
		g.Return(jen.Op("&").Add(m.id("v")), jen.Nil())
	})
	m.f.Line()
}

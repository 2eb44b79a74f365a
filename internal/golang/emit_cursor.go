package golang

import (
	"github.com/dave/jennifer/jen"

	"github.com/dyngen/dyngen/internal/plan"
)

// hasCursors reports whether the package pages queries: whether it has
// cursors and the Store's cursor key (a query's first item has none).
func hasCursors(p *plan.Plan) bool {
	for _, pp := range p.Patterns {
		if pp.Form == plan.FormPages {
			return true
		}
	}
	return false
}

// hasQuery reports whether a pattern of p is a query, its first item's
// included.
func hasQuery(p *plan.Plan) bool {
	for _, pp := range p.Patterns {
		if pp.Form == plan.FormPages || pp.Form == plan.FormFirst {
			return true
		}
	}
	return false
}

// queryShape emits the query's queryShape, the same for every call: the
// check of a cursor's start key (the plan's start key and key condition)
// with the placeholders of the values it is checked against, which are
// those the request sends. It returns its name.
func (m *method) queryShape() string {
	key := m.pp.Key
	var attrs []jen.Code
	for _, a := range key.StartKey() {
		// One line each: the fields in a list, not a jen.Dict.
		fields := []jen.Code{jen.Id("Name").Op(":").Lit(a.Name), jen.Id("Kind").Op(":").LitRune(rune(a.Type[0]))}
		if a.Sort {
			fields = append(fields, jen.Id("Sort").Op(":").True())
		}
		attrs = append(attrs, jen.Values(fields...))
	}
	check := jen.Dict{
		jen.Id("Pattern"): jen.Lit(m.p.Name),
		jen.Id("Attrs"):   jen.Index().Add(rt("StartAttr")).Values(attrs...),
		jen.Id("PK"):      jen.Lit(key.Index.PK.Name),
	}
	shape := jen.Dict{jen.Id("PKValue"): jen.Lit(m.req.Placeholder(plan.PKValue))}
	if op := key.SK.Kind.Operator(); op != "" {
		check[jen.Id("SK")] = jen.Lit(key.Index.SK.Name)
		check[jen.Id("Op")] = jen.Lit(op)
		if key.SK.Kind == plan.SKBetween {
			shape[jen.Id("Lo")] = jen.Lit(m.req.Placeholder(plan.SKLow))
			shape[jen.Id("Hi")] = jen.Lit(m.req.Placeholder(plan.SKHigh))
		} else {
			shape[jen.Id("Lo")] = jen.Lit(m.req.Placeholder(plan.SKValue))
		}
	}
	if ph := m.req.Placeholder(plan.Now); ph != "" {
		// The Store clock's now changes from page to page.
		shape[jen.Id("Clock")] = jen.Lit(ph)
	}
	shape[jen.Id("Keys")] = rt("QueryKeys").Values(check)
	name := m.p.ConstName("Shape")
	commentf(m.f, "%s is how %s binds and checks its cursors.", name, m.p.GoName)
	m.f.Var().Id(name).Op("=").Op("&").Add(rt("QueryShape")).Values(shape)
	m.f.Line()
	return name
}

// cursorStart emits the start of a query's page: cursorStart binds the
// cursors to the request in (built before), and sets its
// ExclusiveStartKey from page.Cursor once the key it holds passes the
// check of the query's shape (see queryShape).
func (m *method) cursorStart(g *jen.Group, fail func(jen.Code) jen.Code, shape string) {
	g.List(m.id("start"), m.id("err")).Op(":=").Add(rt("CursorStart")).Call(
		m.id("s").Dot("cursorKeys"), m.id("page").Dot("Cursor"), m.id("in"), jen.Id(shape),
	)
	g.If(m.id("err").Op("!=").Nil()).Block(fail(m.id("err")))
}

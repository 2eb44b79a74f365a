package generator

import (
	"github.com/dave/jennifer/jen"
	"github.com/dyngen/dyngen/internal/plan"
)

// hasCursors reports whether the package pages queries: whether it has
// cursors and the Store's cursor key (a query's first item has none).
func hasCursors(p *plan.Plan) bool {
	for _, pp := range p.Patterns {
		if pp.Call == plan.Query && pp.Pattern.Op == "query" && !pp.Pattern.First {
			return true
		}
	}
	return false
}

// hasQuery reports whether a pattern of p is a query, its first item's
// included.
func hasQuery(p *plan.Plan) bool {
	for _, pp := range p.Patterns {
		if pp.Call == plan.Query && pp.Pattern.Op == "query" {
			return true
		}
	}
	return false
}

// cursorStart emits the start of a query's page: cursorStart binds the
// cursors to the request in (built before), and sets its
// ExclusiveStartKey from page.Cursor once the key it holds passes the
// check of the plan's start key and key condition. The values it is
// checked against are those the request sends.
func (m *method) cursorStart(g *jen.Group, fail func(jen.Code) jen.Code) {
	key := m.pp.Key
	var attrs []jen.Code
	for _, a := range key.StartKey() {
		attrs = append(attrs, jen.Values(jen.Lit(a.Name), jen.LitRune(rune(a.Type[0])), jen.Lit(a.Sort)))
	}
	value := func(src plan.Source) jen.Code {
		return jen.Id("in").Dot("ExpressionAttributeValues").Index(jen.Lit(m.req.Placeholder(src)))
	}
	check := jen.Dict{
		jen.Id("pattern"): jen.Lit(m.p.Name),
		jen.Id("attrs"):   jen.Index().Id("startAttr").Values(attrs...),
		jen.Id("pk"):      jen.Lit(key.Index.PK.Name),
		jen.Id("pkValue"): value(plan.PKValue),
	}
	if op := key.SK.Kind.Operator(); op != "" {
		check[jen.Id("sk")] = jen.Lit(key.Index.SK.Name)
		check[jen.Id("op")] = jen.Lit(op)
		if key.SK.Kind == plan.SKBetween {
			check[jen.Id("lo")] = value(plan.SKLow)
			check[jen.Id("hi")] = value(plan.SKHigh)
		} else {
			check[jen.Id("lo")] = value(plan.SKValue)
		}
	}
	g.List(jen.Id("start"), jen.Err()).Op(":=").Id("cursorStart").Call(
		jen.Id("s").Dot("cursorKeys"), jen.Id("page").Dot("Cursor"), jen.Id("in"),
		jen.Op("&").Id("queryKeys").Values(check),
	)
	g.If(jen.Err().Op("!=").Nil()).Block(fail(jen.Err()))
}

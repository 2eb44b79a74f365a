package golang

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/plan"
)

// The parts of an update that set constants and remove elements from
// sets (plan.Update.Delete), and the doc lines of its parameters.

// paramLines are the doc lines of the constants the update sets and of
// the parameters of add and removeFrom.
func (up *updater) paramLines() []string {
	var out []string
	for _, v := range up.req.Values {
		if (v.Source == plan.SetConst || v.Source == plan.AddAmount) && v.Lit != nil {
			out = append(out, fmt.Sprintf("%s: the constant %s", v.Placeholder, v.Lit))
		}
	}
	for _, a := range up.p.Add {
		if a.Type == model.Int || a.Type == model.Float {
			out = append(out, fmt.Sprintf("%s: the amount added to %s; a negative amount subtracts", up.params[a], a.Name))
		} else {
			out = append(out, fmt.Sprintf("%s: its elements are added to the set %s", up.params[a], a.Name))
		}
	}
	for _, a := range up.p.RemoveFrom {
		out = append(out, fmt.Sprintf("%s: its elements are removed from the set %s; when empty, the request sends no DELETE for it", up.params[a], a.Name))
	}
	return out
}

// ownNames reports whether an action only some calls send uses a name
// no other part of the request does: the names are then a local map,
// from which an action not sent takes its names out.
func (up *updater) ownNames() bool {
	for _, c := range up.u.Sometimes() {
		if len(c.Names) > 0 {
			return true
		}
	}
	return false
}

// setConst is the constant the update sets a to, as the plan decided
// it, or nil.
func (up *updater) setConst(a *model.Attribute) *plan.Literal {
	for _, v := range up.req.Values {
		if v.Source == plan.SetConst && v.Attr == a {
			return v.Lit
		}
	}
	return nil
}

// dropNames is the else branch that takes the names only c uses out of
// the names map, or nothing.
func (up *updater) dropNames(c *plan.Clause) jen.Code {
	if len(c.Names) == 0 {
		return jen.Null()
	}
	return jen.Else().BlockFunc(func(g *jen.Group) {
		for _, n := range c.Names {
			g.Delete(up.id("names"), jen.Lit(n))
		}
	})
}

// dynamic reports whether the update's actions are chosen at run time.
func (up *updater) dynamic() bool { return len(up.u.Sometimes()) > 0 }

// checkElems emits the checks of the elements the update removes from
// sets: strings must be valid UTF-8.
func (up *updater) checkElems(g *jen.Group) {
	for _, a := range up.p.RemoveFrom {
		if c, reason := invalidUTF8(a, jen.Id(up.params[a])); c != nil {
			g.If(c).Block(jen.Return(jen.Nil(), itemError(up.ent(), a, reason)))
		}
	}
}

// chooseDeletes emits the list of DELETE actions, the names map when an
// action takes names out of it, and the choice of each DELETE: sent only
// with elements to remove, its names only with it.
func (up *updater) chooseDeletes(g *jen.Group) {
	if len(up.u.Delete) > 0 {
		g.Var().Add(up.id("del")).Index().String()
	}
	if up.ownNames() {
		g.Add(up.id("names")).Op(":=").Add(up.namesMap())
	}
	for _, c := range up.u.Delete {
		a := c.Unless[0]
		g.If(present(a, jen.Id(up.params[a]))).BlockFunc(func(g *jen.Group) {
			g.Add(up.id("del")).Op("=").Append(up.id("del"), jen.Lit(c.Text))
			for _, v := range c.Values {
				g.Add(up.id("values")).Index(jen.Lit(v.Placeholder)).Op("=").Add(up.value(v))
			}
		}).Add(up.dropNames(c))
	}
}

// expression sets the UpdateExpression of an update whose actions are
// chosen at run time, or, when a call may choose none, emits it as local
// expr, for sendIfAny.
func (up *updater) expression(g *jen.Group, in jen.Dict) {
	var del jen.Code = jen.Nil()
	if len(up.u.Delete) > 0 {
		del = up.id("del")
	}
	expr := rt("UpdateExpression").Call(up.id("set"), jen.Lit(up.u.AddText()), up.id("remove"), del)
	if up.u.MayBeEmpty() {
		g.Add(up.id("expr")).Op(":=").Add(expr)
		return
	}
	in[jen.Id("UpdateExpression")] = jen.Qual(pathAWS, "String").Call(expr)
}

// sendIfAny emits the setting of the input's expression and names when
// they may be empty: DynamoDB refuses an empty expression (a call that
// changes nothing sends none) and an empty map of names.
func (up *updater) sendIfAny(g *jen.Group) {
	if up.u.MayBeEmpty() {
		g.If(up.id("expr").Op("!=").Lit("")).Block(
			up.id("in").Dot("UpdateExpression").Op("=").Qual(pathAWS, "String").Call(up.id("expr")),
		)
	}
	if up.ownNames() {
		g.If(jen.Len(up.id("names")).Op(">").Lit(0)).Block(
			up.id("in").Dot("ExpressionAttributeNames").Op("=").Add(up.id("names")),
		)
	}
}

package golang

import (
	"github.com/dave/jennifer/jen"

	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/plan"
)

// countArgCode is the value of argument a of parameter q of counter step
// s, each value the argument takes from elsewhere printed by field: the
// counter's key (in the counter's enum type), or the amount a group's
// number changes by (runtime.CountDelta).
func (m *method) countArgCode(s *plan.Step, q *plan.Param, a *plan.Arg, field func(*plan.Arg) jen.Code) jen.Code {
	if d := a.Delta; d != nil {
		in := func(v *plan.Arg) jen.Code {
			if v == nil {
				return jen.False()
			}
			return m.inGroup(d.Count, field(v), d.Group)
		}
		return rt("CountDelta").Call(in(d.From), in(d.To))
	}
	v := field(a)
	if q.Attr != nil && q.Attr.Type == model.Enum {
		v = jen.Id(model.EnumType(s.Step.Entity(), q.Attr)).Call(v)
	}
	return v
}

// inGroup is the test that value v of count c's group attribute is
// group g.
func (m *method) inGroup(c *model.Count, v jen.Code, g string) jen.Code {
	if c.By.Type == model.Bool {
		if g == "true" {
			return v
		}
		return jen.Op("!").Add(v)
	}
	return jen.Add(v).Op("==").Id(model.EnumConst(c.Owner, c.By, g))
}

// constCode is the Go value of a constant of the spec an argument takes.
func constCode(c *plan.ConstArg) jen.Code {
	if c.Attr.Type == model.Bool {
		return jen.Lit(c.Value == "true")
	}
	return jen.Id(model.EnumConst(c.Entity, c.Attr, c.Value))
}

// zeroIfAbsent emits the return of a get of a counter by call: with no
// item, the counter of the caller's key with every number 0.
func (m *method) zeroIfAbsent(g *jen.Group, call jen.Code) {
	g.List(m.id("v"), m.id("err")).Op(":=").Add(call)
	zero := jen.Dict{}
	for _, a := range m.pp.Inputs {
		zero[jen.Id(a.GoName)] = m.keyParam(a)
	}
	g.If(jen.Qual("errors", "Is").Call(m.id("err"), jen.Id("ErrNotFound"))).Block(
		jen.Return(jen.Op("&").Id(m.ent().GoName).Values(zero), jen.Nil()),
	)
	g.Return(m.id("v"), m.id("err"))
}

package golang

import (
	"fmt"
	"strconv"
	"strings"

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
	switch c.Attr.Type {
	case model.Bool:
		return jen.Lit(c.Value == "true")
	case model.Enum:
		return jen.Id(model.EnumConst(c.Entity, c.Attr, c.Value))
	}
	// The value the request sends, in the attribute's Go type.
	return goLiteral(c.Entity, c.Attr, c.Lit)
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

// countSentence says how a write of an entity with unique values keeps
// its counts too.
const countSentence = "The counters of its counts are updated in the same transaction: the number of the group an item leaves less one, of the group it joins plus one."

// countSummary is the summary of a write of an entity with counts and no
// unique value.
func (m *method) countSummary() string {
	ent := m.ent()
	var s string
	switch m.p.Op {
	case model.OpCreate:
		s = fmt.Sprintf("%s writes the %s only when no item has its key (ErrAlreadyExists from step 1), and adds 1 to the number of its group in each counter of its counts, in the same transaction. One request: TransactWriteItems.", m.p.GoName, ent.GoName)
	case model.OpPut:
		if len(m.pp.Unique.Absent.Steps) == 0 {
			s = fmt.Sprintf("%s writes the %s whole, replacing the item read, and moves it between the groups of its counts when its group changes: GetItem, then TransactWriteItems (two requests). The put holds only while the item is still in the groups read: ErrConditionFailed when another call changed them in between; ErrNotFound when there is no item.", m.p.GoName, ent.GoName)
			break
		}
		s = fmt.Sprintf("%s writes the %s whole, replacing any item with its key, and keeps its counts: GetItem, then TransactWriteItems (two requests). Over an item, the put holds only while the item is still in the groups read, and moves it between groups when they change; over no item, it holds only while there is still none, and adds 1 to the number of each of its groups: ErrConditionFailed when another call changed the item, or created it, in between.", m.p.GoName, ent.GoName)
	case model.OpUpdate:
		s = fmt.Sprintf("%s updates the %s and moves it between the groups of its counts when its group changes: GetItem, then TransactWriteItems (two requests). The update holds only while the item is still in the groups read: ErrConditionFailed when another call changed them in between, ErrNotFound when there is no item.", m.p.GoName, ent.GoName)
	default:
		s = fmt.Sprintf("%s deletes the %s with this key and takes 1 from the number of each of its groups: GetItem, then TransactWriteItems (two requests). Deleting an item that does not exist is no error and counts nothing; ErrConditionFailed when another call changed its groups in between.", m.p.GoName, ent.GoName)
	}
	return s + m.txTail(" (a counter, say)")
}

// countDoc ends the doc comment of a write over an item read that keeps
// counts: which steps it sends when.
func (m *method) countDoc() {
	u := m.pp.Unique
	comment(m.f, "")
	var steps []string
	for _, c := range u.Present.Counts {
		steps = append(steps, strconv.Itoa(c.Step+1))
	}
	claims := ""
	if len(u.Present.Moves) > 0 {
		claims = ", the release and claim steps of a unique value only when the value changes,"
	}
	if len(u.Absent.Steps) > 0 {
		commentf(m.f, "Over an item read, %s sent%s and a counter's step (%s) only when the item's group changes; over no item, %s.", stepList(u.Present.Steps), claims, strings.Join(steps, ", "), stepNumbers(u.Absent.Steps))
		return
	}
	commentf(m.f, "A counter's step (%s) is sent only when the item's group changes%s.", strings.Join(steps, ", "), strings.TrimSuffix(claims, ","))
}

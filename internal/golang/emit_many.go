package golang

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/plan"
)

// many emits an update or delete over a list of keys (many:): the
// builder of one key's request, as the single write would send it, the
// method's description for the runtime (dyngen.Many), and the method,
// which sends every key's request in one TransactWriteItems (many: all)
// or one call per key, concurrently (many: each).
func (m *method) many() {
	mn := m.pp.Many
	im := m.itemMethod()
	var lines []string
	switch mn.Item.Form {
	case plan.FormUpdate:
		up := im.updater()
		lines = up.lines()
		im.inputBuilder("UpdateItemInput", up.input)
	case plan.FormDelete:
		condConst, condLines := im.writeCondition()
		lines = condLines
		im.deleteInput(condConst)
	case plan.FormCheck:
		if c := mn.Item.Request.Condition; c != "" {
			lines = []string{"ConditionExpression: " + c}
		}
		if note := mn.Item.ExpiryNote(); note != "" {
			lines = append(lines, upperFirst(note)+".")
		}
		im.stepBuilder()
	default:
		m.e.bug("pattern %s: many over a write of form %d", m.p.Name, mn.Item.Form)
		return
	}
	m.manyVar()
	m.manyDoc(lines)
	if mn.Mode == model.ManyAll {
		m.manyAll(im)
	} else {
		m.manyEach(im)
	}
}

// itemMethod is the printer of the write of one key's item of a write
// over many keys.
func (m *method) itemMethod() *method {
	item := m.pp.Many.Item
	return &method{e: m.e, f: m.f, pp: item, p: m.p, req: item.Request, ofKey: true}
}

// manyVar emits the description of a write over many keys for the
// runtime.
func (m *method) manyVar() {
	mn := m.pp.Many
	step := stepDict(m.manyAction(), m.p.Table, mn.IfAbsent, mn.IfPresent, mn.Item.Request)
	d := jen.Dict{
		jen.Id("Method"): jen.Lit(m.p.GoName),
		jen.Id("Action"): jen.Lit(m.manyAction()),
		jen.Id("Step"):   rt("TransactStep").Values(step),
	}
	if mn.Mode == model.ManyEach {
		d[jen.Id("PerKey")] = jen.True()
	}
	commentf(m.f, "%s describes the request of %s of each key's item for the runtime.", m.p.ConstName("Many"), m.p.GoName)
	m.f.Var().Id(m.p.ConstName("Many")).Op("=").Op("&").Add(rt("Many")).Values(d)
	m.f.Line()
}

// manyAction is what a write over many keys does to each item, as its
// errors say it: "update Book".
func (m *method) manyAction() string { return string(m.p.Op) + " " + m.ent().Name }

// manyDoc emits the doc comment of a write over many keys: its summary,
// then the request of each key.
func (m *method) manyDoc(lines []string) {
	mn := m.pp.Many
	m.docHead()
	if mn.Mode == model.ManyAll {
		commentf(m.f, "\tTransactWriteItems on table %s: %s per key, in the order of keys", m.p.Table.Name, model.Article(mn.Action))
	} else {
		commentf(m.f, "\t%s on table %s, per key", mn.Call, m.p.Table.Name)
	}
	comment(m.f, "\tKey: "+m.pp.Key.Describe())
	for _, l := range lines {
		comment(m.f, "\t"+l)
	}
}

// manySummary is the first paragraph of the doc comment of a write over
// many keys.
func (m *method) manySummary() string {
	mn := m.pp.Many
	im := m.itemMethod()
	p, ent := m.p, m.ent()
	verb := "changes"
	switch p.Op {
	case model.OpDelete:
		verb = "deletes"
	case model.OpCheck:
		verb = "checks, writing nothing,"
	}
	var s string
	switch {
	case p.Op == model.OpCheck:
		s = fmt.Sprintf("%s checks, in one transaction that writes nothing, that the %s of each key of keys exists", p.GoName, ent.GoName)
		if len(p.When) > 0 {
			s += " and its when condition holds"
		}
		s += fmt.Sprintf(". It takes at most %d keys (ErrTooManyKeys), no key twice (ErrSameItem), each checked before the call. A key whose item fails the check gives a *TransactionError whose Key is the key's index in keys, wrapping %s, with the SDK's TransactionCanceledException. ErrTransactionConflict when another request changed an item meanwhile.", mn.Max, mn.Kinds())
		return s
	case mn.Mode == model.ManyAll:
		s = fmt.Sprintf("%s %s the %s of each key of keys in one transaction: all of them, or none. It takes at most %d keys (ErrTooManyKeys), no key twice (ErrSameItem), each checked before the call.", p.GoName, verb, ent.GoName, mn.Max)
		if mn.IfPresent != "" {
			s += fmt.Sprintf(" A key whose item fails the condition gives a *TransactionError whose Key is the key's index in keys, wrapping %s, with the SDK's TransactionCanceledException.", mn.Kinds())
		}
		s += " ErrTransactionConflict when another request changed an item meanwhile."
	default:
		s = fmt.Sprintf("%s %s the %s of each key of keys, with one %s per key, up to the Store's batch concurrency at once; each key is written whatever the others' results. Every key is checked before any call (an *EachError with Refused set names the key refused).", p.GoName, verb, ent.GoName, mn.Call)
		if p.Op == model.OpUpdate {
			s += " It returns, in the order of keys, each item as it is after the change, nil where its write failed,"
		} else {
			s += " It returns"
		}
		s += " with an *EachError naming each key that failed by its index, with its error"
		if mn.IfPresent != "" {
			s += " (" + mn.Kinds() + ")"
		}
		s += "."
	}
	if p.Op == model.OpDelete && mn.IfPresent == "" {
		s += " Deleting an item that does not exist is no error."
	}
	return s + im.managedDoc()
}

// manyArgs are the arguments of the builder of key k's request: the
// key's attributes, the inputs every key shares, the time read once.
func (m *method) manyArgs(k jen.Code, now string) []jen.Code {
	var out []jen.Code
	single := len(m.pp.Inputs) == 1
	for _, q := range m.pp.Many.Item.Params {
		switch q.Role {
		case plan.ParamKey:
			if single {
				out = append(out, k)
			} else {
				out = append(out, jen.Add(k).Dot(q.Attr.GoName))
			}
		case plan.ParamClock:
			out = append(out, jen.Id(now))
		default:
			out = append(out, m.param(q.Role, q.Attr, q.Cond, q.Operand))
		}
	}
	return out
}

// manyClock emits, when one key's request takes the time, the one
// reading of the Store's clock of the call, and returns its local.
func (m *method) manyClock(g *jen.Group) string {
	for _, q := range m.pp.Many.Item.Params {
		if q.Role == plan.ParamClock {
			now := m.local("now")
			g.Id(now).Op(":=").Add(m.id("s")).Dot(model.ClockField).Call()
			return now
		}
	}
	return ""
}

// keysParam is the method's slice of keys.
func (m *method) keysParam() jen.Code {
	for _, q := range m.pp.Params {
		if q.Role == plan.ParamKeys {
			return jen.Id(q.Name)
		}
	}
	m.e.bug("pattern %s has no keys", m.p.Name)
	return jen.Id("_")
}

// manyAll emits the method of many: all: every key's request in one
// TransactWriteItems.
func (m *method) manyAll(im *method) {
	mn := m.pp.Many
	desc := jen.Id(m.p.ConstName("Many"))
	keys := m.keysParam()
	m.signature().BlockFunc(func(g *jen.Group) {
		m.unpack(g)
		g.If(m.id("err").Op(":=").Add(desc).Dot("Count").Call(jen.Len(keys)), m.id("err").Op("!=").Nil()).Block(jen.Return(m.id("err")))
		// No key: nothing to write (DynamoDB refuses an empty transaction).
		g.If(jen.Len(keys).Op("==").Lit(0)).Block(jen.Return(jen.Nil()))
		now := m.manyClock(g)
		g.Add(m.id("items")).Op(":=").Make(jen.Index().Qual(pathTypes, "TransactWriteItem"), jen.Len(keys))
		g.For(jen.List(m.id("i"), m.id("k")).Op(":=").Range().Add(keys)).BlockFunc(func(g *jen.Group) {
			g.Var().Add(m.id("err")).Error()
			build := rt(stepWrappers[mn.Action]).Call(m.id("s").Dot(m.p.InputMethod()).Call(m.manyArgs(m.id("k"), now)...))
			g.If(jen.List(m.id("items").Index(m.id("i")), m.id("err")).Op("=").Add(build), m.id("err").Op("!=").Nil()).Block(
				jen.Return(desc.Clone().Dot("Refused").Call(m.id("i"), m.id("err"))),
			)
		})
		g.If(m.id("err").Op(":=").Add(desc).Dot("Distinct").Call(m.id("items")), m.id("err").Op("!=").Nil()).Block(jen.Return(m.id("err")))
		g.Add(m.id("in")).Op(":=").Op("&").Qual(pathDynamo, "TransactWriteItemsInput").Values(jen.Dict{jen.Id("TransactItems"): m.id("items")})
		g.If(jen.List(jen.Id("_"), m.id("err")).Op(":=").Add(m.id("s")).Dot("client").Dot("TransactWriteItems").Call(m.id("ctx"), m.id("in")), m.id("err").Op("!=").Nil()).Block(
			jen.Return(desc.Clone().Dot("Err").Call(m.id("err"), m.id("in").Dot("TransactItems"))),
		)
		g.Return(jen.Nil())
	})
	m.f.Line()
}

// manyEach emits the method of many: each: every key's request built
// and checked first, then sent, one call per key, concurrently.
func (m *method) manyEach(im *method) {
	mn := m.pp.Many
	desc := jen.Id(m.p.ConstName("Many"))
	keys := m.keysParam()
	update := m.p.Op == model.OpUpdate
	inputType := "DeleteItemInput"
	if update {
		inputType = "UpdateItemInput"
	}
	m.signature().BlockFunc(func(g *jen.Group) {
		m.unpack(g)
		zero := []jen.Code{}
		if update {
			zero = append(zero, jen.Nil())
		}
		ret := func(err jen.Code) jen.Code { return jen.Return(append(zero, err)...) }
		now := m.manyClock(g)
		g.Add(m.id("reqs")).Op(":=").Make(jen.Index().Op("*").Qual(pathDynamo, inputType), jen.Len(keys))
		g.For(jen.List(m.id("i"), m.id("k")).Op(":=").Range().Add(keys)).BlockFunc(func(g *jen.Group) {
			g.List(m.id("in"), m.id("err")).Op(":=").Add(m.id("s")).Dot(m.p.InputMethod()).Call(m.manyArgs(m.id("k"), now)...)
			g.If(m.id("err").Op("!=").Nil()).Block(ret(desc.Clone().Dot("Refused").Call(m.id("i"), m.id("err"))))
			g.Add(m.id("reqs")).Index(m.id("i")).Op("=").Add(m.id("in"))
		})
		if update {
			g.Add(m.id("res")).Op(":=").Make(jen.Index().Op("*").Id(m.ent().GoName), jen.Len(keys))
		}
		hasCond := mn.Item.Request.Condition != ""
		write := jen.Func().Params(im.id("ctx").Qual("context", "Context"), m.id("i").Int()).Error().BlockFunc(func(g *jen.Group) {
			g.Add(im.id("in")).Op(":=").Add(m.id("reqs")).Index(m.id("i"))
			if update {
				g.List(im.id("out"), im.id("err")).Op(":=").Add(m.id("s")).Dot("client").Dot(string(mn.Call)).Call(im.id("ctx"), im.id("in"))
				g.If(im.id("err").Op("!=").Nil()).Block(jen.Return(im.writeErr(hasCond)))
				g.Var().Add(im.id("v")).Id(m.ent().GoName)
				g.If(im.id("err").Op(":=").Add(im.id("v")).Dot("UnmarshalItem").Call(im.id("out").Dot("Attributes")), im.id("err").Op("!=").Nil()).Block(
					jen.Return(im.callErr(nil, im.id("err"))),
				)
				g.Add(m.id("res")).Index(m.id("i")).Op("=").Op("&").Add(im.id("v"))
				g.Return(jen.Nil())
				return
			}
			g.If(jen.List(jen.Id("_"), im.id("err")).Op(":=").Add(m.id("s")).Dot("client").Dot(string(mn.Call)).Call(im.id("ctx"), im.id("in")), im.id("err").Op("!=").Nil()).Block(
				jen.Return(im.writeErr(hasCond)),
			)
			g.Return(jen.Nil())
		})
		each := desc.Clone().Dot("Each").Call(m.id("ctx"), jen.Len(keys), m.id("s").Dot(model.BatchField), write)
		if update {
			g.Return(m.id("res"), each)
		} else {
			g.Return(each)
		}
	})
	m.f.Line()
}

package golang

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/plan"
)

// uniqueWrite emits a write of an entity with unique values: the request
// builder of each step, the transaction's description, and the method
// that reads the item (but for a create), then sends the write and its
// claims in one TransactWriteItems, as the plan decided by what the read
// finds (plan.Unique.Absent, Present).
func (m *method) uniqueWrite() {
	tx := m.pp.Tx
	u := m.pp.Unique
	for _, s := range tx.Steps {
		sm := &method{e: m.e, f: m.f, pp: s.Plan, p: s.Plan.Pattern, req: s.Plan.Request, step: s}
		sm.stepBuilder()
	}
	m.txVar()
	m.uniqueDoc()
	ent := m.ent()
	txVar := jen.Id(m.p.ConstName("Tx"))
	itemsVar, keepVar, out := m.local("items"), m.local("keep"), m.local("out")
	m.signature().BlockFunc(func(g *jen.Group) {
		m.unpack(g)
		fail := m.fail()
		// Before the read: a key refused is refused whatever is stored.
		m.keyChecks(g, fail)
		m.readClock(g)
		stepVar := m.local("step")
		el := m.local("el")
		// one emits the building of step i's request, made a
		// transaction's item by the runtime's wrapper of its action, and
		// its adding to items and keep.
		one := func(g *jen.Group, i int) {
			s := tx.Steps[i]
			var args []jen.Code
			for j, q := range s.Plan.Params {
				if s.Step.Count != nil {
					args = append(args, m.countArgCode(s, q, s.Args[j], m.argCode))
					continue
				}
				v := m.argCode(s.Args[j])
				if (s.Step.Claim != nil || s.Step.Copy != nil || s.Step.Each != nil) && q.Attr != nil && q.Attr.Type == model.Enum {
					// The claim's enum type from the owner's: a pointer to
					// it for an update's optional value.
					if q.Pointer {
						v = jen.Parens(jen.Op("*").Id(model.EnumType(s.Step.Entity(), q.Attr))).Call(v)
					} else {
						v = jen.Id(model.EnumType(s.Step.Entity(), q.Attr)).Call(v)
					}
				}
				args = append(args, v)
			}
			g.If(jen.List(jen.Id(stepVar), m.id("err")).Op("=").Add(rt(stepWrappers[s.Action])).Call(m.id("s").Dot(s.Plan.Pattern.InputMethod()).Call(args...)), m.id("err").Op("!=").Nil()).Block(
				jen.Return(txVar.Clone().Dot("StepError").Call(jen.Lit(i), m.id("err"))),
			)
			g.Id(itemsVar).Op("=").Append(jen.Id(itemsVar), jen.Id(stepVar))
			g.Id(keepVar).Op("=").Append(jen.Id(keepVar), jen.Lit(i))
		}
		// each emits step i once per element of the set over: a claim of
		// an element, taken or released.
		each := func(g *jen.Group, i int, over jen.Code) {
			g.For(jen.List(jen.Id("_"), jen.Id(el)).Op(":=").Range().Add(over)).BlockFunc(func(g *jen.Group) { one(g, i) })
		}
		// add emits the steps, each of a set's claims once per element
		// (of the set written for a take, of the set read for a release).
		add := func(g *jen.Group, steps ...int) {
			for _, i := range steps {
				if set := m.elemSet(tx.Steps[i]); set != nil {
					each(g, i, rt("SetAdded").Call(jen.Nil(), set))
					continue
				}
				one(g, i)
			}
		}
		// sends emits what the write does: fail, return, or add its
		// steps, and, for each unique value the write may change, the
		// release of its old claim and the taking of the new one when the
		// value read differs from the new one.
		sends := func(g *jen.Group, s *plan.Sends) {
			switch {
			case s.Fail != "":
				g.Add(fail(jen.Id(s.Fail)))
				return
			case len(s.Steps) == 0:
				// Nothing to write.
				g.Return(jen.Nil())
				return
			}
			if e := s.Empty; e != nil {
				rest := slices.DeleteFunc(slices.Clone(s.Steps), func(i int) bool { return i == e.Own })
				g.If(jen.Len(m.id("old").Dot(e.Attr.GoName)).Op("==").Lit(0)).BlockFunc(func(g *jen.Group) {
					add(g, e.Empty)
				}).Else().BlockFunc(func(g *jen.Group) {
					add(g, e.Own)
				})
				add(g, rest...)
			} else {
				add(g, s.Steps...)
			}
			for _, mv := range s.Moves {
				if mv.Each {
					// The elements read that the new set does not hold,
					// and the new ones the set read does not hold.
					was, now := m.id("old").Dot(mv.Attrs[0].GoName), m.argCode(setArg(mv.New[0]))
					each(g, mv.Release, rt("SetAdded").Call(now, was))
					each(g, mv.Take, rt("SetAdded").Call(was, now))
					continue
				}
				g.If(m.changed(mv.Attrs, mv.New)).BlockFunc(func(g *jen.Group) {
					add(g, mv.Release, mv.Take)
				})
			}
			for _, mv := range s.Counts {
				g.If(m.id("old").Dot(mv.Attr.GoName).Op("!=").Add(m.argCode(mv.New))).BlockFunc(func(g *jen.Group) {
					add(g, mv.Step)
				})
			}
			m.copyMoves(g, s.Copies, add)
			m.eachMoves(g, s.Each, each)
		}
		// present emits the decoding of the item read, and what the
		// write does over it.
		present := func(g *jen.Group) {
			g.Var().Add(m.id("old")).Id(ent.GoName)
			g.If(m.id("err").Op(":=").Add(m.id("old")).Dot("UnmarshalItem").Call(jen.Id(out).Dot("Item")), m.id("err").Op("!=").Nil()).Block(fail(m.id("err")))
			sends(g, u.Present)
		}
		if u.Read != nil {
			key := m.primaryKeyMap(g, ent, m.readKey, fail)
			in := jen.Dict{jen.Id("TableName"): m.tableRef(), jen.Id("Key"): key, jen.Id("ConsistentRead"): jen.Qual(pathAWS, "Bool").Call(jen.True())}
			g.List(jen.Id(out), m.id("err")).Op(":=").Add(m.id("s")).Dot("client").Dot("GetItem").Call(m.id("ctx"), jen.Op("&").Qual(pathDynamo, "GetItemInput").Values(in))
			g.If(m.id("err").Op("!=").Nil()).Block(fail(m.id("err")))
		}
		g.Var().Id(itemsVar).Index().Qual(pathTypes, "TransactWriteItem")
		g.Var().Id(keepVar).Index().Int()
		g.Var().Id(stepVar).Qual(pathTypes, "TransactWriteItem")
		if u.Read == nil {
			g.Var().Add(m.id("err")).Error()
		}
		absent := func(g *jen.Group) { sends(g, u.Absent) }
		switch {
		case u.Read == nil:
			// A create: nothing read.
			absent(g)
		case len(u.Absent.Steps) > 0:
			g.If(jen.Id(out).Dot("Item").Op("==").Nil()).BlockFunc(absent).Else().BlockFunc(present)
		default:
			g.If(jen.Id(out).Dot("Item").Op("==").Nil()).BlockFunc(absent)
			present(g)
		}
		g.Add(m.id("in")).Op(":=").Op("&").Qual(pathDynamo, "TransactWriteItemsInput").Values(jen.Dict{jen.Id("TransactItems"): jen.Id(itemsVar)})
		g.If(jen.List(jen.Id("_"), m.id("err")).Op(":=").Add(m.id("s")).Dot("client").Dot("TransactWriteItems").Call(m.id("ctx"), m.id("in")), m.id("err").Op("!=").Nil()).Block(
			jen.Return(txVar.Clone().Dot("Only").Call(jen.Id(keepVar).Op("...")).Dot("Err").Call(m.id("err"), m.id("in").Dot("TransactItems"))),
		)
		if u.Refresh {
			// The caller's item holds what was written: the version and
			// the times the Store set.
			g.If(m.id("err").Op(":=").Id(m.pp.Params[0].Name).Dot("UnmarshalItem").Call(jen.Id(itemsVar).Index(jen.Lit(0)).Dot("Put").Dot("Item")), m.id("err").Op("!=").Nil()).Block(fail(m.id("err")))
		} else if m.pp.Params[0].Role == plan.ParamItem {
			// A put sent as an update, which keeps a stored created time
			// it does not read: the caller's item takes the constants of
			// the set alone.
			m.setItemConsts(g, m.pp.Params[0].Name, itemConsts(m.pp.Tx.Steps[0].Plan.Request))
		}
		g.Return(jen.Nil())
	})
	m.f.Line()
}

// takeOf and releaseOf are the indexes of the steps that take and
// release the claims of c, or -1.
func takeOf(tx *plan.Transaction, c *model.Unique) int    { return roleOf(tx, c, model.TakeStep) }
func releaseOf(tx *plan.Transaction, c *model.Unique) int { return roleOf(tx, c, model.ReleaseStep) }

func roleOf(tx *plan.Transaction, c *model.Unique, role model.StepRole) int {
	for i, s := range tx.Steps {
		if s.Step.Claim == c && s.Step.Role == role {
			return i
		}
	}
	return -1
}

// setElemType is the Go type of an element of set a.
func setElemType(a *model.Attribute) jen.Code {
	if a.Type == model.IntSet {
		return jen.Int64()
	}
	return jen.String()
}

// setArg is a, the set rather than one of its elements.
func setArg(a *plan.Arg) *plan.Arg {
	c := *a
	c.Elem = false
	return &c
}

// elemSet is the set whose elements step s is sent once for (a claim of
// a set's elements), or nil.
func (m *method) elemSet(s *plan.Step) jen.Code {
	for _, a := range s.Args {
		if a.Elem {
			return m.argCode(setArg(a))
		}
		for _, b := range a.Build {
			if b.Elem {
				return m.argCode(setArg(b))
			}
		}
	}
	return nil
}

// readKey is the value of a key attribute of the item a write reads
// first: its key parameter, or the field of the item a put writes.
func (m *method) readKey(a *model.Attribute) jen.Code {
	if q := m.pp.Params[0]; q.Role == plan.ParamItem {
		return jen.Id(q.Name).Dot(a.GoName)
	}
	return m.keyParam(a)
}

// changed is the condition that the item read (the local old) holds, in
// one of attrs, another value than the write's, news[i] for attrs[i]
// (compared lower-cased where the new value is: a claim of normalize:
// lower).
func (m *method) changed(attrs []*model.Attribute, news []*plan.Arg) *jen.Statement {
	var changed *jen.Statement
	for i, a := range attrs {
		var was jen.Code = m.id("old").Dot(a.GoName)
		if news[i].Lower {
			was = jen.Qual("strings", "ToLower").Call(was)
		}
		c := jen.Add(was).Op("!=").Add(m.argCode(news[i]))
		if changed == nil {
			changed = c
		} else {
			changed = changed.Op("||").Add(c)
		}
	}
	return changed
}

// argCode is the value of a step's argument, as the plan says where it
// comes from.
func (m *method) argCode(a *plan.Arg) jen.Code {
	if a.Clock {
		// The time readClock read once for every step.
		return jen.Id(m.local("now"))
	}
	if a.Build != nil {
		return m.claimCode(a, m.argCode)
	}
	if a.Const != nil {
		return constCode(a.Const)
	}
	if a.Elem {
		// The element of the set the step is sent for.
		return jen.Id(m.local("el"))
	}
	v := jen.Id(a.Input.Field)
	if a.Field != "" {
		v = v.Dot(a.Field)
	}
	return lower(a, v)
}

// lower is v, lower-cased when the plan says the claim holds it so (a
// value of normalize: lower).
func lower(a *plan.Arg, v jen.Code) jen.Code {
	if a.Lower {
		return jen.Qual("strings", "ToLower").Call(v)
	}
	return v
}

// claimCode is the claim argument a builds, each field's value printed
// by field.
func (m *method) claimCode(a *plan.Arg, field func(*plan.Arg) jen.Code) jen.Code {
	claim := m.claimOf(a.Input.Field)
	d := jen.Dict{}
	for i, ca := range claim.Attributes {
		if a.Build[i].Zero {
			continue // removed: left at its zero value
		}
		v := field(a.Build[i])
		// A constant of an optional scalar (an update's set: [{nick: x}]
		// that moves a copy) is a value; the field is a pointer to one.
		ptr := a.Build[i].Const != nil && ca.Optional && ca.StoredForm().Pointer
		switch {
		case ca.Type == model.Enum && ptr:
			v = jen.Id(model.EnumType(claim, ca)).Call(v)
		case ca.Type == model.Enum:
			v = enumAs(claim, ca, v)
		}
		if ptr {
			v = jen.New(v)
		}
		d[jen.Id(ca.GoName)] = v
	}
	return jen.Op("&").Id(claim.GoName).Values(d)
}

// claimOf is the claim entity of Go name name.
func (m *method) claimOf(name string) *model.Entity {
	for _, e := range m.e.p.Model.Entities {
		if (e.ClaimOf != nil || e.CopyOf != nil || e.EachOf != nil) && e.GoName == name {
			return e
		}
	}
	m.e.bug("pattern %s has no claim %s", m.p.Name, name)
	return m.ent()
}

// uniqueSummary is the summary of a write of an entity with unique
// values.
func (m *method) uniqueSummary() string {
	ent := m.ent()
	var summary string
	switch m.writeForm() {
	case plan.FormCreate:
		summary = fmt.Sprintf("%s writes the %s only when no item has its key (ErrAlreadyExists from step 1) and no other %s holds its unique values: each is claimed in the same transaction (ErrAlreadyExists from the step \"claim %s.<attribute>\"). One request: TransactWriteItems.", m.p.GoName, ent.GoName, ent.GoName, ent.Name)
	case plan.FormPut, plan.FormReplace:
		if len(m.pp.Unique.Absent.Steps) == 0 {
			// A put of the version read: over no item, ErrNotFound.
			summary = fmt.Sprintf("%s writes the %s whole, replacing the item read, and moves the claims of the unique values it changes: GetItem, then TransactWriteItems (two requests). The put holds only while the item still holds the values read: ErrConditionFailed when another call changed them in between, ErrAlreadyExists from the step \"claim %s.<attribute>\" when another %s holds a new value.", m.p.GoName, ent.GoName, ent.Name, ent.GoName)
			break
		}
		summary = fmt.Sprintf("%s writes the %s whole, replacing any item with its key, and moves the claims of the unique values it changes: GetItem, then TransactWriteItems (two requests). Over an item, the put holds only while the item still holds the values read; over no item, it holds only while there is still none: ErrConditionFailed when another call changed them in between, ErrAlreadyExists from the step \"claim %s.<attribute>\" when another %s holds a new value.", m.p.GoName, ent.GoName, ent.Name, ent.GoName)
	case plan.FormUpdate:
		summary = fmt.Sprintf("%s updates the %s and moves the claims of the unique values it changes: GetItem, then TransactWriteItems (two requests). The update holds only while the item still holds the values read: ErrConditionFailed when another call changed them in between, ErrNotFound when there is no item, ErrAlreadyExists from the step \"claim %s.<attribute>\" when another %s holds the new value.", m.p.GoName, ent.GoName, ent.Name, ent.GoName)
	default:
		summary = fmt.Sprintf("%s deletes the %s with this key and releases the claims of its unique values: GetItem, then TransactWriteItems (two requests). Deleting an item that does not exist is no error; ErrConditionFailed when another call changed its unique values in between.", m.p.GoName, ent.GoName)
	}
	return summary + m.txTail("")
}

// uniqueDoc emits the doc comment of a write of an entity with unique
// values.
func (m *method) uniqueDoc() {
	tx := m.pp.Tx
	m.docHead()
	if r := m.pp.Unique.Read; r != nil {
		comment(m.f, "\tGetItem (ConsistentRead) on table "+m.p.Table.Name)
		comment(m.f, "\t  Key: "+r.Key.Describe())
	}
	comment(m.f, "\tTransactWriteItems")
	for _, s := range tx.Steps {
		comment(m.f, fmt.Sprintf("\tstep %d, %s on table %s: %s", s.Step.Index+1, s.Action, s.Step.Table.Name, s.Step.Action()))
		comment(m.f, "\t  Key: "+s.Plan.Key.Describe())
		for _, l := range s.Plan.Request.Describe() {
			comment(m.f, "\t  "+l)
		}
	}
	if u := m.pp.Unique; u.Present != nil && u.Present.Empty != nil {
		comment(m.f, "")
		commentf(m.f, "Over an item whose %s was read empty, step %d is sent instead of step %d.", u.Present.Empty.Attr.Name, u.Present.Empty.Empty+1, u.Present.Empty.Own+1)
	}
	for _, s := range m.pp.Tx.Steps {
		if c := s.Step.Claim; c != nil && c.Each {
			take, release := takeOf(m.pp.Tx, c), releaseOf(m.pp.Tx, c)
			comment(m.f, "")
			switch {
			case take >= 0 && release >= 0:
				commentf(m.f, "The claims of %s are one per element: step %d is sent for each element the write takes, step %d for each it releases; an element the set read and the set written both hold sends neither.", c.Label(), take+1, release+1)
			case take >= 0:
				commentf(m.f, "The claims of %s are one per element: step %d is sent for each element.", c.Label(), take+1)
			default:
				commentf(m.f, "The claims of %s are one per element: step %d is sent for each element read.", c.Label(), release+1)
			}
			break
		}
	}
	m.eachDoc()
	switch u := m.pp.Unique; {
	case u.Present != nil && len(u.Present.Counts) > 0:
		m.countDoc()
	case u.Present == nil || len(u.Present.Moves) == 0:
	case len(u.Absent.Steps) > 0:
		comment(m.f, "")
		commentf(m.f, "Over an item read, %s sent, and the release and claim steps of a value only when the value changes; over no item, step %d and every claim step.", stepList(u.Present.Steps), u.Absent.Steps[0]+1)
	default:
		comment(m.f, "")
		comment(m.f, "The release and claim steps of a value are sent only when the value changes.")
	}
}

// lookupGet emits a get by a unique value: a GetItem of the value's
// claim, then a GetItem of the item by the key the claim holds.
func (m *method) lookupGet() {
	ent := m.ent()
	u := m.pp.Unique
	claim := u.Value.Claim
	m.viewType()
	projConst := m.constant("Projection", m.req.Projection)
	m.docHead()
	commentf(m.f, "\tGetItem on table %s (the claim %s)", m.p.Table.Name, claim.Name)
	comment(m.f, "\t  Key: "+u.Claim.Key.Describe())
	commentf(m.f, "\tthen GetItem on table %s", m.p.Table.Name)
	comment(m.f, "\t  Key: "+m.pp.Key.Describe())
	for _, l := range m.readLines() {
		comment(m.f, "\t  "+l)
	}
	m.signature().BlockFunc(func(g *jen.Group) {
		m.unpack(g)
		fail := m.fail(jen.Nil())
		owner := u.Value.Owner
		// value is the caller's value of the owner's attribute a, as the
		// claim holds it (lower-cased for normalize: lower).
		value := func(a *model.Attribute) jen.Code {
			if u.Value.Each {
				// The element, a parameter of the claim's attribute.
				return m.keyParam(claim.Attr(a.Name))
			}
			v := m.keyParam(a)
			if u.Value.Normalized(a) {
				return jen.Qual("strings", "ToLower").Call(v)
			}
			return v
		}
		c, out := m.local("claim"), m.local("out")
		g.Var().Id(c).Id(claim.GoName)
		g.BlockFunc(func(g *jen.Group) {
			key := m.primaryKeyMap(g, claim, func(a *model.Attribute) jen.Code {
				v := value(owner.Attr(a.Name))
				if a.Type == model.Enum {
					return jen.Id(model.EnumType(claim, a)).Call(v)
				}
				return v
			}, fail)
			m.sendGet(g, out, key, fail, nil)
			g.If(m.id("err").Op(":=").Id(c).Dot("UnmarshalItem").Call(jen.Id(out).Dot("Item")), m.id("err").Op("!=").Nil()).Block(fail(m.id("err")))
		})
		key := m.primaryKeyMap(g, ent, func(a *model.Attribute) jen.Code {
			ca := claim.Attr(a.Name)
			v := jen.Id(c).Dot(ca.GoName)
			if a.Type == model.Enum {
				return jen.Id(model.EnumType(ent, a)).Call(v)
			}
			return v
		}, fail)
		m.getDecoded(g, out, key, fail, projConst)
		// The item changed its value after the claim was read.
		var changed *jen.Statement
		for _, a := range u.Value.Attrs {
			if u.Value.Each {
				// The set no longer holds the element.
				changed = jen.Len(rt("SetAdded").Call(m.id("v").Dot(a.GoName), jen.Index().Add(setElemType(a)).Values(value(a)))).Op("!=").Lit(0)
				continue
			}
			var held jen.Code = m.id("v").Dot(a.GoName)
			if u.Value.Normalized(a) {
				held = jen.Qual("strings", "ToLower").Call(held)
			}
			ch := jen.Add(held).Op("!=").Add(value(a))
			if changed == nil {
				changed = ch
			} else {
				changed = changed.Op("||").Add(ch)
			}
		}
		g.If(changed).Block(fail(jen.Id("ErrNotFound")))
		g.Return(jen.Op("&").Add(m.id("v")), jen.Nil())
	})
	m.f.Line()
}

// stepList names steps by their indexes, with their verb: "step 1 is",
// "steps 1 and 2 are".
func stepList(steps []int) string {
	if len(steps) == 1 {
		return stepNumbers(steps) + " is"
	}
	return stepNumbers(steps) + " are"
}

// stepNumbers names steps by their indexes: "step 1", "steps 1, 2 and 3".
func stepNumbers(steps []int) string {
	var names []string
	for _, i := range steps {
		names = append(names, strconv.Itoa(i+1))
	}
	return joinSteps(names)
}

// joinSteps names the steps of names (their numbers, and what more a
// name says): "step 1", "steps 1, 2 and 3"; "" for none.
func joinSteps(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return "step " + names[0]
	}
	return "steps " + strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// getDecoded sends the GetItem of key into the local out, with the
// pattern's projection projConst when it has one, answers ErrNotFound for
// an expired item, and decodes the item into the local v.
func (m *method) getDecoded(g *jen.Group, out string, key jen.Code, fail func(jen.Code) jen.Code, projConst jen.Code) {
	m.sendGet(g, out, key, fail, func(in jen.Dict) {
		if projConst != nil {
			in[jen.Id("ProjectionExpression")] = jen.Qual(pathAWS, "String").Call(projConst)
			m.setNames(in)
		}
	})
	m.dropExpired(g, jen.Id(out).Dot("Item"), fail(jen.Id("ErrNotFound")))
	m.decode(g, jen.Id(out).Dot("Item"), m.local("v"), fail)
}

// sendGet emits a GetItem of key into the local out, read as the pattern
// reads (consistently or not), and its failures: the SDK's error, and
// ErrNotFound when there is no item. project, when not nil, adds to the
// request's input.
func (m *method) sendGet(g *jen.Group, out string, key jen.Code, fail func(jen.Code) jen.Code, project func(jen.Dict)) {
	in := jen.Dict{jen.Id("TableName"): m.tableRef(), jen.Id("Key"): key}
	if m.p.Consistent {
		in[jen.Id("ConsistentRead")] = jen.Qual(pathAWS, "Bool").Call(jen.True())
	}
	if project != nil {
		project(in)
	}
	g.List(jen.Id(out), m.id("err")).Op(":=").Add(m.id("s")).Dot("client").Dot("GetItem").Call(m.id("ctx"), jen.Op("&").Qual(pathDynamo, "GetItemInput").Values(in))
	g.If(m.id("err").Op("!=").Nil()).Block(fail(m.id("err")))
	g.If(jen.Id(out).Dot("Item").Op("==").Nil()).Block(fail(jen.Id("ErrNotFound")))
}

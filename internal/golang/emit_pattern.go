package golang

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/dyngen/dyngen/internal/keylang"
	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/plan"
)

// patternsFile emits one method per pattern, in spec order, with its
// expressions as constants and its result types.
func (e *emitter) patternsFile(patterns []*plan.Pattern) *jen.File {
	f := e.newFile()
	e.indexVars(f, patterns)
	for _, pp := range patterns {
		m := &method{e: e, f: f, pp: pp, p: pp.Pattern, req: pp.Request}
		m.emit()
	}
	return f
}

// method emits one pattern's method.
type method struct {
	e  *emitter
	f  *jen.File
	pp *plan.Pattern
	p  *model.Pattern
	// req holds the expressions the call sends, with their placeholders.
	req *plan.Request
	// step is the transaction's step whose request builder is emitted,
	// or nil.
	step *plan.Step
	// ofKey is set on the printer of the request builder of one key of a
	// write over many keys (plan.Many.Item).
	ofKey bool
	// check is the local of the dyngen.KeyCheck that keeps the errors of
	// a read's key values (see readArgs); "" elsewhere.
	check string
	// inline is set where the inputs a method takes in a struct are read
	// from its fields, with no local of their own (see paramRef).
	inline bool
}

func (m *method) ent() *model.Entity { return m.p.Entity() }

// tableRef is the TableName of a request: the client gets its own copy of
// the Store's name.
func (m *method) tableRef() jen.Code {
	return jen.Qual(pathAWS, "String").Call(m.id("s").Dot(m.p.Table.StoreField()))
}

// param is the name of the method's parameter of role r for attribute a
// (or condition c) and operand i, as the plan named it.
func (m *method) param(r plan.Role, a *model.Attribute, c *model.Cond, i int) jen.Code {
	p := m.pp.Param(r, a, c, i)
	if p == nil {
		m.e.bug("pattern %s has no parameter of role %d for %v", m.p.Name, r, a)
		return jen.Id("_")
	}
	return m.paramRef(p)
}

// paramRef is a parameter as the body reads it: its name, or, where the
// method reads its struct's fields in place (inline), the field.
func (m *method) paramRef(p *plan.Param) jen.Code {
	if m.inline && p.Field != "" {
		return jen.Id(m.pp.Struct.Var).Dot(p.Field)
	}
	return jen.Id(p.Name)
}

// paramType is the Go type of a parameter, as the plan decided it.
func (m *method) paramType(p *plan.Param) jen.Code { return typeCode(m.pp.GoType(p)) }

// local is the name of the method's own name base (one of
// model.MethodLocals), as the plan decided it: base, or, where a
// parameter has it, the name that gives way (plan.Pattern.Local).
func (m *method) local(base string) string { return m.pp.Local(base) }

// derived is a local named after what it holds rather than one of the
// method's own names (rebuilt1, the first key an update rewrites): base,
// or base with underscores after it where a parameter or a package-level
// name the local would hide has that name.
func (m *method) derived(base string) string {
	name := base
	for slices.ContainsFunc(m.pp.Params, func(p *plan.Param) bool { return p.Name == name }) || m.e.packageNames[name] {
		name += "_"
	}
	return name
}

// scope is a new scope of encoded key values for the method's body: the
// locals it declares keep apart from the parameters.
func (m *method) scope() map[string]string {
	scope := m.e.newScope()
	for _, p := range m.pp.Params {
		scope["param|"+p.Name] = p.Name
	}
	for l, n := range m.pp.Locals {
		scope["local|"+l] = n
	}
	return scope
}

// emit emits the pattern's method, and what comes with it, by the form
// the plan decided.
func (m *method) emit() {
	m.paramsStruct()
	switch m.pp.Form {
	case plan.FormGet:
		m.get()
	case plan.FormGetByQuery:
		m.getByQuery()
	case plan.FormFirst:
		m.first()
	case plan.FormPages:
		m.query()
	case plan.FormPut, plan.FormCreate:
		m.put()
	case plan.FormReplace:
		m.replace()
	case plan.FormUpdate:
		m.update()
	case plan.FormDelete:
		m.delete()
	case plan.FormBatchGet:
		m.batchGet()
	case plan.FormBatchPut, plan.FormBatchDelete:
		m.batchWrite()
	case plan.FormTransactWrite, plan.FormTransactGet:
		m.transaction()
	case plan.FormUniqueWrite:
		m.uniqueWrite()
	case plan.FormLookup:
		m.lookupGet()
	case plan.FormManyAll, plan.FormManyEach:
		m.many()
	case plan.FormCopyGet:
		m.copyGet()
	default:
		m.e.bug("pattern %s has no method of form %d", m.p.Name, m.pp.Form)
	}
}

// docHead writes the head of the method's doc comment: the spec's doc
// first (go doc shows its first sentence as the method's summary), then
// the summary, each a paragraph.
func (m *method) docHead() {
	if m.p.Doc != "" {
		comment(m.f, m.p.Doc)
		comment(m.f, "")
	}
	comment(m.f, m.summary())
	comment(m.f, "")
}

// doc writes the method's doc comment: the pattern, the summary, the
// call, the index, the key condition and how each key is built.
func (m *method) doc(lines ...string) {
	m.docHead()
	where := "table " + m.p.Table.Name
	if !m.pp.Index.IsPrimary() {
		where = fmt.Sprintf("%s %s of table %s", m.pp.Index.Kind, m.pp.Index.Name, m.p.Table.Name)
	}
	comment(m.f, fmt.Sprintf("\t%s on %s", m.pp.Call, where))
	if m.pp.Key != nil {
		label := "KeyConditionExpression:"
		switch m.pp.Call {
		case plan.GetItem, plan.PutItem, plan.UpdateItem, plan.DeleteItem:
			label = "Key:"
		case plan.BatchGetItem, plan.BatchWriteItem:
			label = "Key of each item:"
		}
		comment(m.f, "\t"+label+" "+m.pp.Key.Describe())
	}
	for _, l := range lines {
		comment(m.f, "\t"+l)
	}
	for _, p := range m.pp.Params {
		if p.Renamed && p.Field == "" {
			comment(m.f, "")
			what := m.ent().Name
			if p.Attr != nil {
				what = p.Attr.Name
			}
			commentf(m.f, "Parameter %s is %s (%s is taken).", p.Name, what, strings.TrimSuffix(p.Name, "_"))
		}
	}
}

// constant emits a named string constant and returns a reference to it,
// or nil for an expression the request does not send ("").
func (m *method) constant(suffix, value string) jen.Code {
	if value == "" {
		return nil
	}
	name := m.p.ConstName(suffix)
	m.f.Const().Id(name).Op("=").Lit(value)
	m.f.Line()
	return jen.Id(name)
}

// keyValue emits the attribute value of key attribute ka of the entity's
// key on the pattern's index, built from the inputs, and returns it.
func (m *method) keyValue(g *jen.Group, scope map[string]string, ent *model.Entity, ka *model.KeyAttr, tm *model.Template, val func(*model.Attribute) jen.Code, fail func(jen.Code) jen.Code, varName string) jen.Code {
	if tm.IsNatural(ka) {
		a := tm.Segments[0].Attr
		v := val(a)
		switch ka.Type {
		case model.S, model.B:
			naturalKeyCheck(g, a, v, scopeLocal(scope, "err"), fail)
		case model.N:
			return m.e.numberKeyValue(g, scope, a, v, "", fail)
		}
		return attrValue(a, v)
	}
	// A new value on every call, literal text included: the client may
	// change what it is given.
	return keyAttrValue(ka, m.keyText(g, ent, ka, tm, val, fail, varName))
}

// keyText emits the building of the value of key attribute ka from
// template tm (not a natural key) and returns its text (or number, or
// bytes): the literal text of a constant template, else the builder's
// result, in variable varName.
func (m *method) keyText(g *jen.Group, ent *model.Entity, ka *model.KeyAttr, tm *model.Template, val func(*model.Attribute) jen.Code, fail func(jen.Code) jen.Code, varName string) jen.Code {
	if tm.IsLiteral(ka) {
		return jen.Lit(tm.String())
	}
	var args []jen.Code
	for _, a := range tm.Attrs() {
		args = append(args, val(a))
	}
	if m.check != "" {
		// A read's: the builder's error kept by its KeyCheck.
		return jen.Id(m.check).Dot("Key").Call(jen.Id(m.e.builder(ent, ka)).Call(args...))
	}
	g.List(jen.Id(varName), m.id("err")).Op(":=").Id(m.e.builder(ent, ka)).Call(args...)
	g.If(m.id("err").Op("!=").Nil()).Block(fail(m.id("err")))
	return jen.Id(varName)
}

// primaryKeyMap emits the Key map of an entity's item from inputs.
func (m *method) primaryKeyMap(g *jen.Group, ent *model.Entity, val func(*model.Attribute) jen.Code, fail func(jen.Code) jen.Code) jen.Code {
	k := ent.PrimaryKey()
	scope := m.scope()
	pk := m.keyValue(g, scope, ent, k.Index.PK, k.PK, val, fail, m.local("pk"))
	d := jen.Dict{jen.Lit(k.Index.PK.Name): pk}
	if k.SK != nil {
		d[jen.Lit(k.Index.SK.Name)] = m.keyValue(g, scope, ent, k.Index.SK, k.SK, val, fail, m.local("sk"))
	}
	return jen.Map(jen.String()).Qual(pathTypes, "AttributeValue").Values(d)
}

// keyParam is the parameter of a key input.
func (m *method) keyParam(a *model.Attribute) jen.Code { return m.param(plan.ParamKey, a, nil, 0) }

// setNames sets the ExpressionAttributeNames of the input, unless the
// expressions name every attribute plainly (see plan.Plain).
func (m *method) setNames(in jen.Dict) {
	if len(m.req.Names) > 0 {
		in[jen.Id("ExpressionAttributeNames")] = m.namesMap()
	}
}

// namesMap is the ExpressionAttributeNames of the call, a new map on
// every call: the client may change what it is given.
func (m *method) namesMap() jen.Code {
	return jen.Map(jen.String()).String().ValuesFunc(func(g *jen.Group) {
		for _, n := range m.req.Names {
			if n.Key != nil {
				// A map entry's key, the caller's: checked (keyChecks).
				g.Lit(n.Placeholder).Op(":").Add(m.param(plan.ParamMapKey, n.Key, nil, 0))
				continue
			}
			g.Lit(n.Placeholder).Op(":").Lit(n.Stored)
		}
	})
}

// valuesDict holds the ExpressionAttributeValues of the request that
// every call sends, each given by value; the values of update actions
// that only some calls send are left out.
func (m *method) valuesDict(value func(*plan.Value) jen.Code) jen.Dict {
	d := jen.Dict{}
	sometimes := m.sometimesValues()
	for _, v := range m.req.Values {
		if !sometimes[v] {
			d[jen.Lit(v.Placeholder)] = value(v)
		}
	}
	return d
}

// sometimesValues are the values of the update actions only some calls
// send.
func (m *method) sometimesValues() map[*plan.Value]bool {
	out := map[*plan.Value]bool{}
	if u := m.req.Update; u != nil {
		for _, c := range u.Sometimes() {
			for _, v := range c.Values {
				out[v] = true
			}
		}
	}
	return out
}

// condValue is the value of a condition's operand: the method's
// parameter, or the constant the spec gives.
func (m *method) condValue(v *plan.Value) jen.Code {
	if v.Source == plan.Now {
		return rt("IntValue").Call(m.clockNow())
	}
	c := v.Cond
	a := plan.CondOperandAttr(c)
	if c.IsParam() {
		return operandValue(a, c.Op, m.param(plan.ParamCond, c.Attr, c, v.Operand))
	}
	return literalValue(v.Lit)
}

// operandValue is the attribute value of a condition operand.
func operandValue(a *model.Attribute, op model.CondOp, v jen.Code) jen.Code {
	if op == model.OpBeginsWith && a.Type == model.Path {
		return jen.Op("&").Qual(pathTypes, "AttributeValueMemberS").Values(jen.Dict{jen.Id("Value"): jen.Qual("strings", "Join").Call(v, jen.Lit(string(a.Separator)))})
	}
	return attrValue(a, v)
}

// signature starts the pattern's method: ctx, then its parameters, and
// its results (see exported).
func (m *method) signature() *jen.Statement { return m.declare(m.exported()[0]) }

// declare starts the exported Store method am: StoreAPI prints its
// signature with the same code (methodSig).
func (m *method) declare(am apiMethod) *jen.Statement {
	return m.storeMethod(am.name, true, am.page, am.results...)
}

// storeMethod starts a Store method named name whose parameters are the
// pattern's (the page left out unless withPage), after ctx when withCtx.
// Its signature is printed by methodSig, the one printer of a Store
// method's signature.
func (m *method) storeMethod(name string, withCtx, withPage bool, results ...jen.Code) *jen.Statement {
	return m.f.Func().Params(m.id("s").Op("*").Id("Store")).Add(m.methodSig(name, withCtx, withPage, results))
}

// methodSig prints a Store method's name, parameters and results.
func (m *method) methodSig(name string, withCtx, withPage bool, results []jen.Code) *jen.Statement {
	return jen.Id(name).ParamsFunc(func(g *jen.Group) {
		if withCtx {
			g.Add(m.id("ctx")).Qual("context", "Context")
		}
		m.params(g, withPage)
	}).Params(results...)
}

// params prints the method's parameters after ctx, the page among them
// when withPage: each input as a parameter of its own, or the struct of
// the inputs (plan.ParamsStruct) where its first field stands.
func (m *method) params(g *jen.Group, withPage bool) {
	st := m.pp.Struct
	if m.pp.Tx != nil && m.pp.Unique == nil {
		g.Id(st.Var).Id(st.Type)
		return
	}
	printed := false
	for _, p := range m.pp.Params {
		switch {
		case p.Role == plan.ParamPage && !withPage:
		case p.Field == "":
			g.Id(p.Name).Add(m.paramType(p))
		case !printed:
			printed = true
			g.Id(st.Var).Id(st.Type)
		}
	}
}

// args are the method's parameters after ctx as the arguments of a call
// with the same parameters, the page among them when withPage.
func (m *method) args(withPage bool) []jen.Code {
	var out []jen.Code
	printed := false
	for _, p := range m.pp.Params {
		switch {
		case p.Role == plan.ParamPage && !withPage:
		case p.Field == "":
			out = append(out, jen.Id(p.Name))
		case !printed:
			printed = true
			out = append(out, jen.Id(m.pp.Struct.Var))
		}
	}
	return out
}

// unpack declares, when the method takes its inputs in a struct, each
// input as a local named as its parameter would be, from its field, so
// that the body reads them as parameters.
func (m *method) unpack(g *jen.Group) {
	st := m.pp.Struct
	if st == nil {
		return
	}
	for _, p := range m.pp.Params {
		if p.Field != "" {
			g.Id(p.Name).Op(":=").Id(st.Var).Dot(p.Field)
		}
	}
}

// paramsStruct emits the pattern's own struct of inputs, when its method
// takes one: a field per input, with what it is for.
func (m *method) paramsStruct() {
	st := m.pp.Struct
	if st == nil || !st.Own || m.pp.Tx != nil && m.pp.Unique == nil {
		return
	}
	commentf(m.f, "%s holds the inputs of %s.", st.Type, m.p.GoName)
	for i, p := range st.Renamed {
		if i == 0 {
			comment(m.f, "")
		}
		commentf(m.f, "%s is named for its role: %s has another input too.", p.Field, p.Attr.Name)
	}
	m.f.Type().Id(st.Type).StructFunc(func(g *jen.Group) {
		for _, p := range m.pp.Params {
			if p.Field == "" {
				continue
			}
			f := jen.Id(p.Field).Add(m.paramType(p))
			if note := paramNote(p); note != "" {
				trailing(f, note)
			}
			g.Add(f)
		}
	})
	m.f.Line()
}

// condPlace tells apart the conditions of one attribute that take
// parameters (in the branches of an or): ", condition 2 on owner".
func condPlace(p *plan.Param) string {
	if p.Nth == 0 {
		return ""
	}
	return fmt.Sprintf(", condition %d on %s", p.Nth, p.Cond.Attr.Name)
}

// paramNote says what an input is for, on its field.
func paramNote(p *plan.Param) string {
	switch p.Role {
	case plan.ParamWhere:
		return "the sort key condition's operand"
	case plan.ParamCond:
		return fmt.Sprintf("the operand of %s %s%s", p.Cond.Attr.Name, p.Cond.Op, condPlace(p))
	case plan.ParamSet:
		if p.Pointer {
			return "the value set; nil removes it"
		}
		return "the value set"
	case plan.ParamAdd:
		if p.Attr.Type == model.Int || p.Attr.Type == model.Float {
			return "added; a negative number subtracts"
		}
		return "the elements added"
	case plan.ParamElems:
		return "the elements removed; empty removes none"
	case plan.ParamVersion:
		return "the version read; ErrVersionConflict when the stored one differs"
	case plan.ParamMapKey:
		return "the key of the entry of " + p.Attr.Path[len(p.Attr.Path)-2].Name
	}
	return ""
}

// keyChecks emits the checks of the keys of map entries the call gives:
// DynamoDB refuses an empty name, and a key must be valid UTF-8.
func (m *method) keyChecks(g *jen.Group, fail func(jen.Code) jen.Code) {
	for _, q := range m.pp.Params {
		if q.Role != plan.ParamMapKey {
			continue
		}
		k := m.paramRef(q)
		g.If(jen.Add(k).Op("==").Lit("").Op("||").Op("!").Qual("unicode/utf8", "ValidString").Call(k)).Block(
			fail(itemError(m.ent(), q.Attr, "the key of the entry is empty or not valid UTF-8")),
		)
	}
}

// resultType is the type a read returns for one item: the entity, or the
// pattern's view type with select.
func (m *method) itemType() string { return m.pp.ItemType() }

// viewType emits the view type of a read with select, and its decoder.
func (m *method) viewType() {
	if len(m.p.Select) == 0 {
		return
	}
	ent := m.ent()
	attrs := plan.SelectAttrs(m.p)
	commentf(m.f, "%s holds the attributes of %s that %s reads.", m.p.ViewType(), model.Article(ent.GoName), m.p.GoName)
	m.f.Type().Id(m.p.ViewType()).StructFunc(func(g *jen.Group) {
		for _, a := range attrs {
			g.Id(a.GoName).Add(fieldType(ent, a))
		}
	})
	m.f.Line()
	commentf(m.f, "unmarshalItem sets view from the attributes %s reads.", m.p.GoName)
	// A function of its own, where no parameter of the pattern's is:
	// its names are the usual ones.
	m.f.Func().Params(jen.Id("view").Op("*").Id(m.p.ViewType())).Id("unmarshalItem").Params(jen.Id("item").Map(jen.String()).Qual(pathTypes, "AttributeValue")).Error().BlockFunc(func(g *jen.Group) {
		decodeAttrs(g, ent, attrs, jen.Id("view"))
	})
	m.f.Line()
}

// decode emits the decoding of item into a new value of the read's item
// type, as variable name; onErr is what the method does with the error of
// an item that can't be decoded (return it, or list it and go on).
func (m *method) decode(g *jen.Group, item jen.Code, name string, onErr func(jen.Code) jen.Code) {
	m.fillFromKeys(g, m.ent(), item)
	g.Var().Id(name).Id(m.itemType())
	method := "UnmarshalItem"
	if len(m.p.Select) > 0 {
		method = "unmarshalItem"
	}
	g.If(m.id("err").Op(":=").Id(name).Dot(method).Call(item), m.id("err").Op("!=").Nil()).Block(onErr(m.id("err")))
}

// minMax returns the least and greatest key text of a fixed-width
// attribute.
func minMax(a *model.Attribute) (string, string) {
	k := a.StoredForm().Key.Lang
	lo, _ := keylang.MinEnc(k)
	hi, _ := keylang.MaxEnc(k)
	return lo, hi
}

// id is the identifier of name, one of the method's own names
// (model.MethodLocals: the receiver, ctx, page, in, out, err...), as the
// plan names it: it gives way to a parameter of the spec's that has it.
func (m *method) id(name string) *jen.Statement { return jen.Id(m.local(name)) }

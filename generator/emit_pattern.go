package generator

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/dave/jennifer/jen"
	"github.com/dyngen/dyngen/internal/keylang"
	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/plan"
)

// patternsFile emits one method per pattern, in spec order, with its
// expressions as constants and its result types.
func (e *emitter) patternsFile(patterns []*plan.Pattern) *jen.File {
	f := e.newFile()
	for _, pp := range patterns {
		m := &method{e: e, f: f, pp: pp, p: pp.Pattern, names: map[string]string{}, values: map[string]bool{}}
		m.emit()
		m.declareShared()
	}
	return f
}

// method emits one pattern's method.
type method struct {
	e  *emitter
	f  *jen.File
	pp *plan.Pattern
	p  *model.Pattern
	// names and values are the expression attribute names and values of
	// the call, by placeholder.
	names  map[string]string
	values map[string]bool
	params []jen.Code // the method's parameters after ctx
	// condParams maps each condition operand to its parameter names, and
	// whereParams holds the where operands' parameter names.
	condParams  map[*model.Cond][]string
	whereParams []string
	// sharedVars are the package-level values the method's calls share.
	sharedVars []jen.Code
	namesUsed  bool
	used       []string // parameter names taken
}

func (m *method) ent() *model.Entity { return m.p.Entity() }

func (m *method) tableRef() jen.Code {
	return jen.Op("&").Id("s").Dot(tableField(m.p.Table))
}

// lowerName is the unexported prefix of the pattern's constants.
func (m *method) lowerName() string { return model.ParamName(m.p.GoName) }

// param adds a parameter for attribute a and returns its name.
func (m *method) param(a *model.Attribute, suffix string) string {
	name := paramName(a) + suffix
	for i := 2; slices.Contains(m.used, name); i++ {
		name = fmt.Sprintf("%s%s%d", paramName(a), suffix, i)
	}
	m.used = append(m.used, name)
	m.params = append(m.params, jen.Id(name).Add(goType(m.ent(), a)))
	return name
}

func (m *method) emit() {
	switch m.pp.Call {
	case plan.GetItem:
		m.get()
	case plan.Query:
		if m.p.Op == model.OpGet {
			m.getByQuery()
		} else {
			m.query()
		}
	case plan.PutItem:
		m.put()
	case plan.UpdateItem:
		m.update()
	case plan.DeleteItem:
		m.delete()
	case plan.BatchGetItem:
		m.batchGet()
	case plan.BatchWriteItem:
		m.batchWrite()
	}
}

// doc writes the method's doc comment: the pattern, the call, the index,
// the key condition and how each key is built.
func (m *method) doc(summary string, lines ...string) {
	comment(m.f, summary)
	if m.p.Doc != "" {
		comment(m.f, "")
		comment(m.f, m.p.Doc)
	}
	comment(m.f, "")
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
}

// constant emits a named string constant and returns a reference to it.
func (m *method) constant(suffix, value string) jen.Code {
	name := m.lowerName() + suffix
	m.f.Const().Id(name).Op("=").Lit(value)
	m.f.Line()
	return jen.Id(name)
}

// keyValue emits the attribute value of key attribute ka of the entity's
// key on the pattern's index, built from the inputs, and returns it.
func (m *method) keyValue(g *jen.Group, scope map[string]string, ent *model.Entity, ka *model.KeyAttr, tm *model.Template, val func(*model.Attribute) jen.Code, fail func(jen.Code) jen.Code, varName string) jen.Code {
	if isNatural(tm, ka) {
		a := tm.Segments[0].Attr
		v := val(a)
		if ka.Type == model.S {
			naturalKeyCheck(g, a, v, fail)
		}
		return attrValue(a, v)
	}
	if isConstant(tm, ka) {
		return jen.Id(m.e.useBuilder(ent, ka))
	}
	var args []jen.Code
	for _, a := range tm.Attrs() {
		args = append(args, val(a))
	}
	g.List(jen.Id(varName), jen.Err()).Op(":=").Id(m.e.useBuilder(ent, ka)).Call(args...)
	g.If(jen.Err().Op("!=").Nil()).Block(fail(jen.Err()))
	return keyAttrValue(ka, jen.Id(varName))
}

// primaryKeyMap emits the Key map of an entity's item from inputs.
func (m *method) primaryKeyMap(g *jen.Group, ent *model.Entity, val func(*model.Attribute) jen.Code, fail func(jen.Code) jen.Code) jen.Code {
	k := ent.PrimaryKey()
	scope := map[string]string{}
	pk := m.keyValue(g, scope, ent, k.Index.PK, k.PK, val, fail, "pk")
	d := jen.Dict{jen.Lit(k.Index.PK.Name): pk}
	if k.SK != nil {
		d[jen.Lit(k.Index.SK.Name)] = m.keyValue(g, scope, ent, k.Index.SK, k.SK, val, fail, "sk")
	}
	return jen.Map(jen.String()).Qual(pathTypes, "AttributeValue").Values(d)
}

// keyParams adds a parameter per key input and returns the lookup.
func (m *method) keyParams(attrs []*model.Attribute) func(*model.Attribute) jen.Code {
	byName := map[string]string{}
	for _, a := range attrs {
		byName[a.Name] = m.param(a, "")
	}
	return func(a *model.Attribute) jen.Code { return jen.Id(byName[a.Name]) }
}

// condParams adds the parameters of filter or when conditions.
func (m *method) addCondParams(cs []*model.Cond) {
	if m.condParams == nil {
		m.condParams = map[*model.Cond][]string{}
	}
	for _, c := range cs {
		if !c.IsParam() {
			continue
		}
		if c.Op == model.OpBetween {
			m.condParams[c] = []string{m.param(c.Attr, "From"), m.param(c.Attr, "To")}
		} else {
			m.condParams[c] = []string{m.param(condOperandAttr(c), "")}
		}
	}
}

// condOperandAttr is the attribute whose Go type an operand has: for
// contains on a set or list, the element type.
func condOperandAttr(c *model.Cond) *model.Attribute {
	if c.Op != model.OpContains {
		return c.Attr
	}
	el := *c.Attr
	switch c.Attr.Type {
	case model.Strings, model.StringSet:
		el.Type = model.String
	case model.IntSet:
		el.Type = model.Int
	}
	return &el
}

// conds emits the expression of conditions, registering its names and
// values, and returns the expression text.
func (m *method) conds(cs []*model.Cond, valueSuffix string) string {
	return plan.CondExpression(cs, m.name, func(attr, part string) string { return m.value(attr + valueSuffix + part) })
}

// name registers an attribute name placeholder (#name) and returns it.
func (m *method) name(stored string) string {
	for ph, s := range m.names {
		if s == stored {
			return ph
		}
	}
	ph := "#" + safeName(stored)
	for i := 2; m.names[ph] != ""; i++ {
		ph = fmt.Sprintf("#%s%d", safeName(stored), i)
	}
	m.names[ph] = stored
	return ph
}

// value registers a value placeholder (:name) and returns it.
func (m *method) value(base string) string {
	ph := ":" + safeName(base)
	for i := 2; m.values[ph]; i++ {
		ph = fmt.Sprintf(":%s%d", safeName(base), i)
	}
	m.values[ph] = true
	return ph
}

func safeName(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 128 && (r == '_' || ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') || ('0' <= r && r <= '9')) {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "a"
	}
	return b.String()
}

// namesMap is the ExpressionAttributeNames of the call: a package-level
// map shared by every call (the names are fixed), declared after the
// method with every name the method registered.
func (m *method) namesMap() jen.Code {
	m.namesUsed = true
	return jen.Id(m.lowerName() + "Names")
}

// declareShared emits the package-level values of the method: its names
// map and the values known when generating.
func (m *method) declareShared() {
	if !m.namesUsed && len(m.sharedVars) == 0 {
		return
	}
	commentf(m.f, "The parts of %s's requests that never change, shared by every call", m.p.GoName)
	comment(m.f, "(the SDK only reads them).")
	m.f.Var().DefsFunc(func(g *jen.Group) {
		if m.namesUsed {
			keys := make([]string, 0, len(m.names))
			for k := range m.names {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			g.Id(m.lowerName() + "Names").Op("=").Map(jen.String()).String().ValuesFunc(func(g *jen.Group) {
				for _, k := range keys {
					g.Lit(k).Op(":").Lit(m.names[k])
				}
			})
		}
		for _, v := range m.sharedVars {
			g.Add(v)
		}
	})
	m.f.Line()
}

// condValues emits the values of condition operands into d.
func (m *method) condValues(cs []*model.Cond, valueSuffix string, d jen.Dict) {
	for _, c := range cs {
		if c.Op.Operands() == 0 {
			continue
		}
		a := condOperandAttr(c)
		phs := []string{":" + safeName(c.Attr.Name+valueSuffix)}
		if c.Op == model.OpBetween {
			phs = []string{":" + safeName(c.Attr.Name+valueSuffix+"_from"), ":" + safeName(c.Attr.Name+valueSuffix+"_to")}
		}
		for i, ph := range phs {
			var v jen.Code
			if c.IsParam() {
				v = operandValue(a, c.Op, jen.Id(m.condParams[c][i]))
			} else {
				v = constValue(m.ent(), a, c.Op, c.Consts[i].Text)
			}
			d[jen.Lit(ph)] = v
		}
	}
}

// operandValue is the attribute value of a condition operand.
func operandValue(a *model.Attribute, op model.CondOp, v jen.Code) jen.Code {
	if op == model.OpBeginsWith && a.Type == model.Path {
		return jen.Op("&").Qual(pathTypes, "AttributeValueMemberS").Values(jen.Dict{jen.Id("Value"): jen.Qual("strings", "Join").Call(v, jen.Lit(string(a.Separator)))})
	}
	return attrValue(a, v)
}

// constValue is the attribute value of a constant written in the spec.
func constValue(ent *model.Entity, a *model.Attribute, op model.CondOp, text string) jen.Code {
	switch a.Type {
	case model.Int:
		return jen.Op("&").Qual(pathTypes, "AttributeValueMemberN").Values(jen.Dict{jen.Id("Value"): jen.Lit(strings.ReplaceAll(text, "_", ""))})
	case model.Float:
		return jen.Op("&").Qual(pathTypes, "AttributeValueMemberN").Values(jen.Dict{jen.Id("Value"): jen.Lit(text)})
	case model.Bool:
		return jen.Op("&").Qual(pathTypes, "AttributeValueMemberBOOL").Values(jen.Dict{jen.Id("Value"): jen.Lit(text == "true")})
	case model.Time:
		if a.DynamoType() == "N" {
			return jen.Op("&").Qual(pathTypes, "AttributeValueMemberN").Values(jen.Dict{jen.Id("Value"): jen.Lit(text)})
		}
		if a.Format == model.Date {
			return jen.Op("&").Qual(pathTypes, "AttributeValueMemberS").Values(jen.Dict{jen.Id("Value"): jen.Lit(text)})
		}
		// The model checked the constant; it is written as dyngen stores
		// times.
		t, _ := time.Parse(time.RFC3339Nano, text)
		return jen.Op("&").Qual(pathTypes, "AttributeValueMemberS").Values(jen.Dict{jen.Id("Value"): jen.Lit(t.UTC().Format("2006-01-02T15:04:05.000000000Z"))})
	}
	return jen.Op("&").Qual(pathTypes, "AttributeValueMemberS").Values(jen.Dict{jen.Id("Value"): jen.Lit(text)})
}

func (m *method) signature(results ...jen.Code) *jen.Statement {
	return m.f.Func().Params(jen.Id("s").Op("*").Id("Store")).Id(m.p.GoName).ParamsFunc(func(g *jen.Group) {
		g.Id("ctx").Qual("context", "Context")
		for _, p := range m.params {
			g.Add(p)
		}
	}).Params(results...)
}

// selectAttrs are the attributes a read with select returns: the selected
// ones and the primary key attributes.
func (m *method) selectAttrs() []*model.Attribute {
	out := slices.Clone(m.p.Select)
	for _, a := range m.ent().PrimaryKey().Attrs() {
		if !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	return out
}

// resultType is the type a read returns for one item: the entity, or the
// pattern's view type with select.
func (m *method) itemType() string {
	if len(m.p.Select) > 0 {
		return m.p.ViewType()
	}
	return m.ent().GoName
}

// viewType emits the view type of a read with select, and its decoder.
func (m *method) viewType() {
	if len(m.p.Select) == 0 {
		return
	}
	ent := m.ent()
	attrs := m.selectAttrs()
	commentf(m.f, "%s holds the attributes of a %s that %s reads.", m.p.ViewType(), ent.GoName, m.p.GoName)
	m.f.Type().Id(m.p.ViewType()).StructFunc(func(g *jen.Group) {
		for _, a := range attrs {
			g.Id(a.GoName).Add(goType(ent, a))
		}
	})
	m.f.Line()
	commentf(m.f, "unmarshalItem sets view from the attributes %s reads.", m.p.GoName)
	m.f.Func().Params(jen.Id("view").Op("*").Id(m.p.ViewType())).Id("unmarshalItem").Params(jen.Id("item").Map(jen.String()).Qual(pathTypes, "AttributeValue")).Error().BlockFunc(func(g *jen.Group) {
		decodeAttrs(g, ent, attrs, jen.Id("view"))
	})
	m.f.Line()
}

// projection registers the names of a select's attributes (and what tells
// entities apart) and returns the ProjectionExpression, or "".
func (m *method) projection() string {
	if len(m.p.Select) == 0 || len(m.pp.FromKeys) > 0 {
		// Without select, or when attributes are read back from keys,
		// the read returns what the index projects.
		return ""
	}
	var parts []string
	for _, a := range m.selectAttrs() {
		parts = append(parts, m.name(a.Stored))
	}
	for _, mem := range m.pp.Members {
		if mem.How == plan.ByEntityAttr {
			parts = append(parts, m.name(m.p.Table.EntityAttr))
			break
		}
	}
	if m.p.Op == model.OpBatchGet {
		// A batch get puts the items in the order of the keys by their
		// key attributes.
		for _, ka := range m.p.Table.Primary().KeyAttrs() {
			if n := m.name(ka.Name); !slices.Contains(parts, n) {
				parts = append(parts, n)
			}
		}
	}
	return strings.Join(parts, ", ")
}

// decode emits the decoding of item into a new value of the read's item
// type, returning it as variable name.
func (m *method) decode(g *jen.Group, item jen.Code, name string, fail func(jen.Code) jen.Code) {
	m.fillFromKeys(g, m.ent(), item)
	g.Var().Id(name).Id(m.itemType())
	method := "UnmarshalItem"
	if len(m.p.Select) > 0 {
		method = "unmarshalItem"
	}
	g.If(jen.Err().Op(":=").Id(name).Dot(method).Call(item), jen.Err().Op("!=").Nil()).Block(fail(jen.Err()))
}

// minMax returns the least and greatest key text of a fixed-width
// attribute.
func minMax(a *model.Attribute) (string, string) {
	k := plan.KeyKind(a)
	lo, _ := keylang.MinEnc(k)
	hi, _ := keylang.MaxEnc(k)
	return lo, hi
}

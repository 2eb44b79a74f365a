package golang

import (
	"slices"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/plan"
)

// Reading attributes back from keys: when an index does not project an
// attribute a read needs but the attribute is a placeholder of a key the
// index carries, the generated code parses the key's text with a pattern
// made from the template (the key rules make the parse unique) and puts
// the attribute into the item in its stored form before decoding it.

// fromKeysOf lists the attributes of e a read decodes from keys.
func fromKeysOf(pp *plan.Pattern, e *model.Entity) []*model.Attribute {
	var out []*model.Attribute
	for _, a := range pp.FromKeys {
		if slices.Contains(e.Attributes, a) {
			out = append(out, a)
		}
	}
	return out
}

// keySource is a key a read parses attributes out of: a string key the
// index carries, whose template holds them.
type keySource struct {
	ka    *model.KeyAttr
	tm    *model.Template
	attrs []*model.Attribute // the attributes taken from it, in template order
	group []int              // the group of each in tm.Pattern()
}

// keySourcesOf decides where a read of pp on e finds each of attrs: in
// the first key that holds it, of the index's own (then the table's,
// which every index carries).
func keySourcesOf(pp *plan.Pattern, e *model.Entity, attrs []*model.Attribute) []*keySource {
	var sources []*keySource
	uses := map[*model.Attribute]*keySource{}
	for _, a := range attrs {
		s := findKeySource(pp, e, a)
		if s == nil {
			continue
		}
		if i := slices.IndexFunc(sources, func(x *keySource) bool { return x.ka.Name == s.ka.Name }); i >= 0 {
			s = sources[i]
		} else {
			sources = append(sources, s)
		}
		uses[a] = s
	}
	for _, s := range sources {
		for i, a := range s.tm.Attrs() {
			if uses[a] == s {
				s.attrs = append(s.attrs, a)
				s.group = append(s.group, i+1)
			}
		}
	}
	return sources
}

// findKeySource is the first string key of the index of pp (then of the
// table) whose template holds a, or nil.
func findKeySource(pp *plan.Pattern, e *model.Entity, a *model.Attribute) *keySource {
	for _, k := range []*model.EntityKey{e.Key(pp.Index), e.PrimaryKey()} {
		if k == nil {
			continue
		}
		for i, tm := range k.AttrTemplates() {
			if tm.Has(a) && tm.KeyType == model.S {
				return &keySource{ka: k.Index.KeyAttrs()[i], tm: tm}
			}
		}
	}
	return nil
}

// fromKeys emits, for each entity of the read, the function that puts the
// attributes the index does not project into the item, from its keys.
func (m *method) fromKeys() {
	for _, e := range m.p.Entities {
		attrs := fromKeysOf(m.pp, e)
		if len(attrs) == 0 {
			continue
		}
		sources := keySourcesOf(m.pp, e, attrs)
		for _, s := range sources {
			m.keyPatternVar(e, s)
		}
		m.fromKeysFunc(e, attrs, sources)
	}
}

// keyPatternVar emits the regular expression that parses a key source.
func (m *method) keyPatternVar(e *model.Entity, s *keySource) {
	commentf(m.f, "%s parses %s=%q of %s items.", model.KeyPatternVar(m.p, e, s.ka), s.ka.Name, s.tm.Source, e.GoName)
	m.f.Var().Id(model.KeyPatternVar(m.p, e, s.ka)).Op("=").Qual("regexp", "MustCompile").Call(jen.Lit(s.tm.Pattern()))
	m.f.Line()
}

// fromKeysFunc emits the function that puts attrs into the item, from
// each key source that the item holds and that parses.
func (m *method) fromKeysFunc(e *model.Entity, attrs []*model.Attribute, sources []*keySource) {
	var names []string
	for _, a := range attrs {
		names = append(names, a.Name)
	}
	commentf(m.f, "%s puts %s, which %s does not project, into item from its keys.", model.FromKeysName(m.p, e), strings.Join(names, ", "), m.pp.Index.Name)
	m.f.Func().Id(model.FromKeysName(m.p, e)).Params(m.id("item").Map(jen.String()).Qual(pathTypes, "AttributeValue")).BlockFunc(func(g *jen.Group) {
		for _, s := range sources {
			g.Add(m.fromKeySource(e, s))
		}
	})
	m.f.Line()
}

// fromKeySource is the parse of one key source and the setting of the
// attributes it gives.
func (m *method) fromKeySource(e *model.Entity, s *keySource) jen.Code {
	var sets []jen.Code
	for i, a := range s.attrs {
		sets = append(sets, m.id("item").Index(jen.Lit(a.Stored)).Op("=").Add(storedFromKey(a, jen.Id("m").Index(jen.Lit(s.group[i])))))
	}
	return jen.If(
		jen.List(m.id("keyAttr"), m.id("ok")).Op(":=").Add(m.id("item")).Index(jen.Lit(s.ka.Name)).Assert(jen.Op("*").Qual(pathTypes, "AttributeValueMemberS")),
		m.id("ok"),
	).Block(
		jen.If(
			jen.Id("m").Op(":=").Id(model.KeyPatternVar(m.p, e, s.ka)).Dot("FindStringSubmatch").Call(m.id("keyAttr").Dot("Value")),
			jen.Id("m").Op("!=").Nil(),
		).Block(sets...),
	)
}

// storedFromKey turns the text of a placeholder in a key into the
// attribute value the attribute is stored as.
func storedFromKey(a *model.Attribute, text jen.Code) jen.Code {
	switch a.StoredForm().Dynamo {
	case "N":
		// A fixed-width int in the key, a number in the item.
		return rt("StoredInt").Call(text)
	case "BOOL":
		return jen.Op("&").Qual(pathTypes, "AttributeValueMemberBOOL").Values(jen.Id("Value").Op(":").Add(text).Op("==").Lit("true"))
	}
	return jen.Op("&").Qual(pathTypes, "AttributeValueMemberS").Values(jen.Id("Value").Op(":").Add(text))
}

// decodeWith emits the filling from keys before a decode, when the read
// needs it for e.
func (m *method) fillFromKeys(g *jen.Group, e *model.Entity, item jen.Code) {
	if len(fromKeysOf(m.pp, e)) > 0 {
		g.Id(model.FromKeysName(m.p, e)).Call(item)
	}
}

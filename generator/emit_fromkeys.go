package generator

import (
	"regexp"
	"slices"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/dyngen/dyngen/internal/keylang"
	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/plan"
)

// Reading attributes back from keys: when an index does not project an
// attribute a read needs but the attribute is a placeholder of a key the
// index carries, the generated code parses the key's text with a pattern
// made from the template (the key rules make the parse unique) and puts
// the attribute into the item in its stored form before decoding it.

// keyPattern is the regular expression of a template's keys, with one
// group per placeholder, in order.
func keyPattern(tm *model.Template) string {
	seps := tm.Separators()
	class := "[^" + regexp.QuoteMeta(string(seps)) + "]+"
	if len(seps) == 0 {
		class = ".+"
	}
	var b strings.Builder
	b.WriteString("^")
	for _, s := range tm.Segments {
		if s.Attr == nil {
			b.WriteString(regexp.QuoteMeta(s.Literal))
			continue
		}
		b.WriteString("(")
		a := s.Attr
		switch a.StoredForm().Key.Lang {
		case keylang.Path:
			b.WriteString(class + "(?:" + regexp.QuoteMeta(string(a.Separator)) + class + ")*")
		case keylang.Enum:
			var alts []string
			for _, v := range a.Values {
				alts = append(alts, regexp.QuoteMeta(v))
			}
			b.WriteString(strings.Join(alts, "|"))
		case keylang.Int:
			b.WriteString("-?[0-9]{19}")
		case keylang.Time:
			b.WriteString(`[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{9}Z`)
		case keylang.Date:
			b.WriteString(`[0-9]{4}-[0-9]{2}-[0-9]{2}`)
		case keylang.Bool:
			b.WriteString("true|false")
		default:
			b.WriteString(class)
		}
		b.WriteString(")")
	}
	b.WriteString("$")
	return b.String()
}

// fromKeysName is the function that fills the attributes a read of
// pattern p decodes from keys, for entity e.
func fromKeysName(p *model.Pattern, e *model.Entity) string {
	name := model.ParamName(p.GoName) + "FromKeys"
	if p.IsCollection() {
		name = model.ParamName(p.GoName) + e.GoName + "FromKeys"
	}
	return name
}

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

// fromKeys emits, for each entity of the read, the function that puts the
// attributes the index does not project into the item, from its keys.
func (m *method) fromKeys() {
	for _, e := range m.p.Entities {
		attrs := fromKeysOf(m.pp, e)
		if len(attrs) == 0 {
			continue
		}
		// For each attribute, a key of the index (its own, then the
		// table's, which every index carries) whose template holds it.
		type source struct {
			ka *model.KeyAttr
			tm *model.Template
		}
		var sources []source
		find := func(a *model.Attribute) (source, bool) {
			for _, k := range []*model.EntityKey{e.Key(m.pp.Index), e.PrimaryKey()} {
				if k == nil {
					continue
				}
				for i, tm := range k.Templates() {
					if tm.Has(a) && tm.KeyType == model.S {
						return source{k.Index.KeyAttrs()[i], tm}, true
					}
				}
			}
			return source{}, false
		}
		uses := map[*model.Attribute]source{}
		for _, a := range attrs {
			if s, ok := find(a); ok {
				uses[a] = s
				if !slices.ContainsFunc(sources, func(x source) bool { return x.ka.Name == s.ka.Name }) {
					sources = append(sources, s)
				}
			}
		}
		for _, s := range sources {
			commentf(m.f, "%s parses %s=%q of %s items.", patternVar(m.p, e, s.ka), s.ka.Name, s.tm.Source, e.GoName)
			m.f.Var().Id(patternVar(m.p, e, s.ka)).Op("=").Qual("regexp", "MustCompile").Call(jen.Lit(keyPattern(s.tm)))
			m.f.Line()
		}
		var names []string
		for _, a := range attrs {
			names = append(names, a.Name)
		}
		commentf(m.f, "%s puts %s, which %s does not project, into item from its keys.", fromKeysName(m.p, e), strings.Join(names, ", "), m.pp.Index.Name)
		m.f.Func().Id(fromKeysName(m.p, e)).Params(jen.Id("item").Map(jen.String()).Qual(pathTypes, "AttributeValue")).BlockFunc(func(g *jen.Group) {
			for _, s := range sources {
				var sets []jen.Code
				group := 0
				for _, seg := range s.tm.Segments {
					if seg.Attr == nil {
						continue
					}
					group++
					a := seg.Attr
					if u, ok := uses[a]; !ok || u.ka.Name != s.ka.Name {
						continue
					}
					sets = append(sets, jen.Id("item").Index(jen.Lit(a.Stored)).Op("=").Add(storedFromKey(a, jen.Id("m").Index(jen.Lit(group)))))
				}
				g.If(
					jen.List(jen.Id("key"), jen.Id("ok")).Op(":=").Id("item").Index(jen.Lit(s.ka.Name)).Assert(jen.Op("*").Qual(pathTypes, "AttributeValueMemberS")),
					jen.Id("ok"),
				).Block(
					jen.If(
						jen.Id("m").Op(":=").Id(patternVar(m.p, e, s.ka)).Dot("FindStringSubmatch").Call(jen.Id("key").Dot("Value")),
						jen.Id("m").Op("!=").Nil(),
					).Block(sets...),
				)
			}
		})
		m.f.Line()
	}
}

// patternVar is the variable of a key's regular expression.
func patternVar(p *model.Pattern, e *model.Entity, ka *model.KeyAttr) string {
	return model.ParamName(p.GoName) + e.GoName + model.GoName(ka.Name) + "Pattern"
}

// storedFromKey turns the text of a placeholder in a key into the
// attribute value the attribute is stored as.
func storedFromKey(a *model.Attribute, text jen.Code) jen.Code {
	switch a.StoredForm().Dynamo {
	case "N":
		// A fixed-width int in the key, a number in the item.
		return jen.Id("storedInt").Call(text)
	case "BOOL":
		return jen.Op("&").Qual(pathTypes, "AttributeValueMemberBOOL").Values(jen.Id("Value").Op(":").Add(text).Op("==").Lit("true"))
	}
	return jen.Op("&").Qual(pathTypes, "AttributeValueMemberS").Values(jen.Id("Value").Op(":").Add(text))
}

// decodeWith emits the filling from keys before a decode, when the read
// needs it for e.
func (m *method) fillFromKeys(g *jen.Group, e *model.Entity, item jen.Code) {
	if len(fromKeysOf(m.pp, e)) > 0 {
		g.Id(fromKeysName(m.p, e)).Call(item)
	}
}

package generator

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/plan"
)

// receiver is the receiver name of an entity's methods.
func receiver(ent *model.Entity) string {
	return strings.ToLower(ent.GoName[:1])
}

// entityFile emits an entity: its enum types, its struct, its key
// builders, and MarshalItem / UnmarshalItem written out field by field.
func (e *emitter) entityFile(ent *model.Entity) *jen.File {
	f := e.newFile()
	for _, a := range ent.Attributes {
		if a.Type == model.Enum {
			e.enum(f, ent, a)
		}
	}
	e.entityStruct(f, ent)
	if e.p.Model.NeedsKeyType(ent) {
		e.keyStruct(f, ent)
	}
	e.keyBuilders(f, ent)
	e.validate(f, ent)
	e.marshal(f, ent)
	e.unmarshal(f, ent)
	return f
}

func (e *emitter) enum(f *jen.File, ent *model.Entity, a *model.Attribute) {
	name := model.EnumType(ent, a)
	commentf(f, "%s is the type of %s.%s: one of %s.", name, ent.GoName, a.GoName, strings.Join(quoteAll(a.Values), ", "))
	f.Type().Id(name).String()
	f.Line()
	commentf(f, "The values of %s.", name)
	f.Const().DefsFunc(func(g *jen.Group) {
		for _, v := range a.Values {
			g.Id(model.EnumConst(ent, a, v)).Id(name).Op("=").Lit(v)
		}
	})
	f.Line()
	commentf(f, "Valid reports whether v is one of the values of %s.", name)
	f.Func().Params(jen.Id("v").Id(name)).Id("Valid").Params().Bool().Block(
		jen.Switch(jen.Id("v")).Block(
			jen.CaseFunc(func(g *jen.Group) {
				for _, v := range a.Values {
					g.Id(model.EnumConst(ent, a, v))
				}
			}).Block(jen.Return(jen.True())),
		),
		jen.Return(jen.False()),
	)
	f.Line()
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strconv.Quote(s)
	}
	return out
}

// entityStruct emits the struct, with the spec's docs and how the entity
// is stored.
func (e *emitter) entityStruct(f *jen.File, ent *model.Entity) {
	doc := ent.GoName + " is an item of table " + ent.Table.Name + "."
	if ent.Doc != "" {
		doc = ent.GoName + ": " + ent.Doc
		if strings.HasPrefix(ent.Doc, ent.GoName+" ") {
			doc = ent.Doc
		}
	}
	comment(f, doc)
	comment(f, "")
	commentf(f, "Stored in table %s with %s=%q, under these keys:", ent.Table.Name, ent.Table.EntityAttr, ent.TypeValue)
	comment(f, "")
	for _, k := range ent.Keys {
		comment(f, "\t"+describeEntityKey(k))
	}
	f.Type().Id(ent.GoName).StructFunc(func(g *jen.Group) {
		for _, a := range ent.Attributes {
			var notes []string
			if a.Doc != "" {
				notes = append(notes, strings.TrimSuffix(a.Doc, "."))
			}
			if a.Stored != a.Name {
				notes = append(notes, "stored as "+a.Stored)
			}
			if a.Optional {
				notes = append(notes, "optional: not written when zero")
			}
			switch {
			case a.TTL:
				notes = append(notes, "the table's time to live, in epoch seconds")
			case a.Type == model.Time && a.Format != model.RFC3339:
				notes = append(notes, "stored as "+string(a.Format))
			case a.Type == model.Path:
				notes = append(notes, fmt.Sprintf("a path, stored joined by %q", string(a.Separator)))
			case a.Type == model.Document:
				notes = append(notes, "a document, kept as DynamoDB stores it")
			}
			if model.GoName(a.Name) != a.GoName && a.GoName != "" {
				notes = append(notes, "attribute "+a.Name)
			}
			st := jen.Id(a.GoName).Add(goType(ent, a))
			if len(notes) > 0 {
				trailing(st, strings.Join(notes, "; "))
			}
			g.Add(st)
		}
	})
	f.Line()
}

// describeEntityKey shows an entity's templates on one index.
func describeEntityKey(k *model.EntityKey) string {
	s := fmt.Sprintf("%s: %s=%q", indexTitle(k.Index), k.Index.PK.Name, k.PK.Source)
	if k.SK != nil {
		s += fmt.Sprintf(" %s=%q", k.Index.SK.Name, k.SK.Source)
	}
	return s
}

func indexTitle(ix *model.Index) string {
	if ix.IsPrimary() {
		return "table " + ix.Table.Name
	}
	return ix.Kind.String() + " " + ix.Name
}

// keyStruct emits the struct of an entity's primary key attributes.
func (e *emitter) keyStruct(f *jen.File, ent *model.Entity) {
	commentf(f, "%s holds the primary key attributes of a %s.", ent.KeyType(), ent.GoName)
	f.Type().Id(ent.KeyType()).StructFunc(func(g *jen.Group) {
		for _, a := range ent.PrimaryKey().Attrs() {
			g.Id(a.GoName).Add(goType(ent, a))
		}
	})
	f.Line()
}

// validate emits the checks of min, max, maxLength, enum values and path
// elements that every write runs first.
func (e *emitter) validate(f *jen.File, ent *model.Entity) {
	r := receiver(ent)
	var checks []jen.Code
	fail := func(a *model.Attribute, reason string) jen.Code {
		return jen.Return(itemError(ent, a, reason))
	}
	for _, a := range ent.Attributes {
		field := jen.Id(r).Dot(a.GoName)
		guard := func(cond jen.Code) jen.Code {
			if a.Optional {
				return jen.Add(notZero(a, field)).Op("&&").Parens(cond)
			}
			return cond
		}
		if a.Min != nil {
			checks = append(checks, jen.If(guard(jen.Add(field).Op("<").Add(boundLit(a, a.Min)))).Block(fail(a, "below its min "+a.Min.Text)))
		}
		if a.Max != nil {
			checks = append(checks, jen.If(guard(jen.Add(field).Op(">").Add(boundLit(a, a.Max)))).Block(fail(a, "above its max "+a.Max.Text)))
		}
		if a.MaxLength > 0 && a.Type == model.String {
			checks = append(checks, jen.If(jen.Qual("unicode/utf8", "RuneCountInString").Call(field).Op(">").Lit(a.MaxLength)).Block(fail(a, fmt.Sprintf("longer than its maxLength %d", a.MaxLength))))
		}
		if a.Type == model.Enum {
			checks = append(checks, jen.If(guard(jen.Op("!").Add(field).Dot("Valid").Call())).Block(fail(a, "not one of "+strings.Join(quoteAll(a.Values), ", "))))
		}
		if c, reason := unstorable(a, field); c != nil {
			checks = append(checks, jen.If(guard(c)).Block(fail(a, reason)))
		}
		if c, reason := invalidUTF8(a, field); c != nil {
			checks = append(checks, jen.If(c).Block(fail(a, reason)))
		}
		if a.Type == model.Path {
			var st []jen.Code
			if a.MaxLength > 0 {
				st = append(st, jen.If(jen.Qual("unicode/utf8", "RuneCountInString").Call(jen.Qual("strings", "Join").Call(field, jen.Lit(string(a.Separator)))).Op(">").Lit(a.MaxLength)).Block(fail(a, fmt.Sprintf("longer than its maxLength %d", a.MaxLength))))
			}
			st = append(st, jen.For(jen.List(jen.Id("_"), jen.Id("el")).Op(":=").Range().Add(field)).Block(
				jen.If(jen.Id("el").Op("==").Lit("").Op("||").Qual("strings", "Contains").Call(jen.Id("el"), jen.Lit(string(a.Separator))).Op("||").Op("!").Qual("unicode/utf8", "ValidString").Call(jen.Id("el"))).Block(
					fail(a, fmt.Sprintf("a path element is empty, holds %q or is not valid UTF-8", string(a.Separator))),
				),
			))
			checks = append(checks, st...)
		}
	}
	commentf(f, "validate checks %s against the constraints of the spec before a write.", r)
	f.Func().Params(jen.Id(r).Op("*").Id(ent.GoName)).Id("validate").Params().Error().BlockFunc(func(g *jen.Group) {
		for _, c := range checks {
			g.Add(c)
		}
		g.Return(jen.Nil())
	})
	f.Line()
}

// boundLit is a min or max as a Go constant of the attribute's type.
func boundLit(a *model.Attribute, b *model.Bound) jen.Code {
	if a.Type == model.Int {
		return jen.Id(strconv.FormatInt(b.Int, 10))
	}
	return jen.Id(strconv.FormatFloat(b.Float, 'g', -1, 64))
}

// marshal emits MarshalItem: every attribute, the entity attribute, and
// the keys of every index the item is in. Each value a key holds is
// encoded once; the item's scalar attribute values are allocated in one
// block (a struct of arrays) rather than one by one.
func (e *emitter) marshal(f *jen.File, ent *model.Entity) {
	r := receiver(ent)
	t := ent.Table
	fail := func(err jen.Code) jen.Code { return jen.Return(jen.Nil(), err) }
	valuesType := model.ParamName(ent.GoName) + "Values"
	// The slots of the values block, by member type.
	kinds := []string{"s", "n", "b", "bool"}
	members := map[string]string{"s": "AttributeValueMemberS", "n": "AttributeValueMemberN", "b": "AttributeValueMemberB", "bool": "AttributeValueMemberBOOL"}
	slots := map[string][]jen.Code{}
	take := func(kind string, v jen.Code) jen.Code {
		slots[kind] = append(slots[kind], v)
		return jen.Op("&").Id("vals").Dot(kind).Index(jen.Lit(len(slots[kind]) - 1))
	}
	type insert struct {
		name  string
		value jen.Code
		cond  jen.Code // nil: always
	}
	var inserts []insert
	val := func(a *model.Attribute) jen.Code { return jen.Id(r).Dot(a.GoName) }
	commentf(f, "MarshalItem returns %s as DynamoDB stores it: its attributes, %s=%q,", r, t.EntityAttr, ent.TypeValue)
	comment(f, "and the key attributes of every index it is in. It refuses key values")
	comment(f, "that could make the key of another item (see KeyError) and values that")
	comment(f, "break the spec's constraints (see ItemError).")
	f.Func().Params(jen.Id(r).Op("*").Id(ent.GoName)).Id("MarshalItem").Params().Params(jen.Map(jen.String()).Qual(pathTypes, "AttributeValue"), jen.Error()).BlockFunc(func(g *jen.Group) {
		comment(g, "The keys first, so that a value no key can hold is a KeyError on")
		comment(g, "writes as on reads; then the spec's constraints.")
		scope := map[string]string{}
		// timeSpans holds where each time's text stands in the key buffer.
		timeSpans := map[string][2]string{}
		written := map[string]bool{}
		// The string keys every item has are written into one buffer
		// (one allocation for all their texts), after the loop.
		type plainKey struct {
			ka *model.KeyAttr
			tm *model.Template
			v  string
		}
		var plain []plainKey
		for _, k := range ent.Keys {
			var sparse []*model.Attribute
			for _, a := range k.Attrs() {
				if a.Optional {
					sparse = append(sparse, a)
				}
			}
			type built struct {
				ka *model.KeyAttr
				tm *model.Template
				v  string
			}
			var keys []built
			for i, tm := range k.Templates() {
				ka := k.Index.KeyAttrs()[i]
				if isNatural(tm, ka) && ka.Type == model.S && !written[ka.Name] {
					// The attribute is the key: its value is checked as
					// the key builders check it.
					written[ka.Name] = true
					a := tm.Segments[0].Attr
					if a.Optional {
						g.If(notZero(a, val(a))).BlockFunc(func(ig *jen.Group) { naturalKeyCheck(ig, a, val(a), fail) })
					} else {
						naturalKeyCheck(g, a, val(a), fail)
					}
					continue
				}
				if tm.Implied || written[ka.Name] {
					continue
				}
				written[ka.Name] = true
				v := model.ParamName(model.GoName(ka.Name))
				if v == "" || slices.Contains([]string{"item", "vals", "err", r}, v) {
					v = "key" + strconv.Itoa(len(written))
				}
				keys = append(keys, built{ka, tm, v})
			}
			if len(keys) == 0 {
				continue
			}
			var cond jen.Code
			if len(sparse) == 0 {
				for _, b := range keys {
					if b.ka.Type == model.S {
						plain = append(plain, plainKey(b))
					} else {
						e.buildKey(g, scope, ent, b.ka, b.tm, val, fail, b.v, true)
					}
				}
			} else {
				in := "in" + k.Index.GoName
				var c *jen.Statement
				for _, a := range sparse {
					z := notZero(a, val(a))
					if c == nil {
						c = jen.Add(z)
					} else {
						c = c.Op("&&").Add(z)
					}
				}
				commentf(g, "Only an item with %s is in %s.", attrNames(sparse), indexTitle(k.Index))
				for _, b := range keys {
					g.Var().Id(b.v).Add(keyGoType(b.ka))
				}
				g.Id(in).Op(":=").Add(c)
				g.If(jen.Id(in)).BlockFunc(func(ig *jen.Group) {
					local := maps.Clone(scope)
					for _, b := range keys {
						e.buildKey(ig, local, ent, b.ka, b.tm, val, fail, b.v, false)
					}
				})
				cond = jen.Id(in)
			}
			for _, b := range keys {
				kind := map[model.ScalarType]string{model.S: "s", model.N: "n", model.B: "b"}[b.ka.Type]
				inserts = append(inserts, insert{b.ka.Name, take(kind, jen.Id(b.v)), cond})
			}
		}
		if len(plain) == 1 {
			e.buildKey(g, scope, ent, plain[0].ka, plain[0].tm, val, fail, plain[0].v, true)
		} else if len(plain) > 1 {
			size := 0
			for _, k := range plain {
				size += estimateKey(k.tm)
			}
			comment(g, "The key texts, written into one buffer: one allocation for all.")
			g.Var().Id("keyBuf").Index(jen.Lit(min(max(size, 64), 1024))).Byte()
			g.Id("text").Op(":=").Id("keyBuf").Index(jen.Empty(), jen.Lit(0))
			// A time's text is appended in place (text, err = ...): err
			// is then declared first.
			for _, k := range plain {
				if slices.ContainsFunc(k.tm.Attrs(), appendsTime) {
					g.Var().Err().Error()
					break
				}
			}
			ends := make([]string, len(plain))
			for i, k := range plain {
				seps := string(k.tm.Separators())
				for _, seg := range k.tm.Segments {
					a := seg.Attr
					switch {
					case a == nil:
						g.Id("text").Op("=").Append(jen.Id("text"), jen.Lit(seg.Literal).Op("..."))
					case appendsTime(a):
						// A time is written once into the buffer; later
						// keys, and the stored attribute, reuse its text.
						if span, ok := timeSpans[a.Name]; ok {
							g.Id("text").Op("=").Append(jen.Id("text"), jen.Id("text").Index(jen.Id(span[0]), jen.Id(span[1])).Op("..."))
							continue
						}
						from, to := paramName(a)+"From", paramName(a)+"To"
						g.Id(from).Op(":=").Len(jen.Id("text"))
						g.List(jen.Id("text"), jen.Err()).Op("=").Id("appendKeyTime").Call(jen.Id("text"), jen.Lit(a.Name), val(a))
						g.If(jen.Err().Op("!=").Nil()).Block(fail(jen.Err()))
						g.Id(to).Op(":=").Len(jen.Id("text"))
						timeSpans[a.Name] = [2]string{from, to}
					default:
						enc := e.encodeValue(g, scope, a, k.tm.KeyType, seps, val(a), "", fail)
						g.Id("text").Op("=").Append(jen.Id("text"), jen.Add(enc).Op("..."))
					}
				}
				ends[i] = k.v + "End"
				g.Id(ends[i]).Op(":=").Len(jen.Id("text"))
			}
			g.Id("texts").Op(":=").String().Parens(jen.Id("text"))
			for i, k := range plain {
				var from jen.Code = jen.Empty()
				if i > 0 {
					from = jen.Id(ends[i-1])
				}
				value, checked := sizeChecked(ent, k.ka, k.tm, jen.Id("texts").Index(from, jen.Id(ends[i])))
				if !checked {
					g.Id(k.v).Op(":=").Add(value)
					continue
				}
				g.List(jen.Id(k.v), jen.Err()).Op(":=").Add(value)
				g.If(jen.Err().Op("!=").Nil()).Block(fail(jen.Err()))
			}
		}
		g.If(jen.Err().Op(":=").Id(r).Dot("validate").Call(), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err()))
		inserts = append(inserts, insert{name: t.EntityAttr, value: take("s", jen.Lit(ent.TypeValue))})
		for _, a := range ent.Attributes {
			field := val(a)
			var v jen.Code
			if span, ok := timeSpans[a.Name]; ok && appendsTime(a) {
				// The text the keys already hold.
				v = take("s", jen.Id("texts").Index(jen.Id(span[0]), jen.Id(span[1])))
			} else if name, ok := scope[scopeID(a, "", "keyTime", "")]; ok {
				// The key encoding of the item's own value, when a key holds it.
				v = take("s", jen.Id(name))
			} else if m := blockMember(a); m != "" {
				v = take(strings.ToLower(m), storedText(a, field))
			} else {
				v = attrValue(a, field)
			}
			ins := insert{name: a.Stored, value: v}
			if !a.StoredForm().Always {
				ins.cond = notZero(a, field)
			}
			inserts = append(inserts, ins)
		}
		comment(g, "One allocation holds the item's scalar attribute values.")
		multi := jen.Options{Open: "{", Close: "}", Separator: ",", Multi: true}
		g.Id("vals").Op(":=").Op("&").Id(valuesType).CustomFunc(multi, func(g *jen.Group) {
			for _, kind := range kinds {
				if len(slots[kind]) == 0 {
					continue
				}
				g.Id(kind).Op(":").Index(jen.Lit(len(slots[kind]))).Qual(pathTypes, members[kind]).CustomFunc(multi, func(g *jen.Group) {
					for _, v := range slots[kind] {
						g.Values(jen.Id("Value").Op(":").Add(v))
					}
				})
			}
		})
		g.Id("item").Op(":=").Make(jen.Map(jen.String()).Qual(pathTypes, "AttributeValue"), jen.Lit(len(inserts)))
		for _, ins := range inserts {
			st := jen.Id("item").Index(jen.Lit(ins.name)).Op("=").Add(ins.value)
			if ins.cond == nil {
				g.Add(st)
			} else {
				g.If(ins.cond).Block(st)
			}
		}
		g.Return(jen.Id("item"), jen.Nil())
	})
	f.Line()
	commentf(f, "%s holds the scalar attribute values of one %s item, allocated at once.", valuesType, ent.GoName)
	f.Type().Id(valuesType).StructFunc(func(g *jen.Group) {
		for _, kind := range kinds {
			if len(slots[kind]) > 0 {
				g.Id(kind).Index(jen.Lit(len(slots[kind]))).Qual(pathTypes, members[kind])
			}
		}
	})
	f.Line()
}

// keyGoType is the Go type of a built key value.
func keyGoType(ka *model.KeyAttr) jen.Code {
	if ka.Type == model.B {
		return jen.Index().Byte()
	}
	return jen.String()
}

// buildKey emits the building of key attribute ka's value from template
// tm into variable v (declared with := when declare, else assigned),
// encoding each placeholder once per scope.
func (e *emitter) buildKey(g *jen.Group, scope map[string]string, ent *model.Entity, ka *model.KeyAttr, tm *model.Template, val func(*model.Attribute) jen.Code, fail func(jen.Code) jen.Code, v string, declare bool) {
	expr := e.keyExpr(g, scope, ent, tm, len(tm.Segments), val, fail)
	assign := func(value jen.Code) {
		if declare {
			g.Id(v).Op(":=").Add(value)
		} else {
			g.Id(v).Op("=").Add(value)
		}
	}
	switch ka.Type {
	case model.S:
		value, checked := sizeChecked(ent, ka, tm, expr)
		if !checked {
			assign(value)
			return
		}
		if declare {
			g.List(jen.Id(v), jen.Err()).Op(":=").Add(value)
			g.If(jen.Err().Op("!=").Nil()).Block(fail(jen.Err()))
			return
		}
		g.List(jen.Id(v+"Built"), jen.Err()).Op(":=").Add(value)
		g.If(jen.Err().Op("!=").Nil()).Block(fail(jen.Err()))
		g.Id(v).Op("=").Id(v + "Built")
	case model.B:
		a := tm.Segments[0].Attr
		g.If(jen.Len(val(a)).Op("==").Lit(0)).Block(fail(emptyKeyError(a)))
		assign(expr)
	default:
		assign(expr)
	}
}

// appendsTime reports whether a placeholder's text is a time appended in
// place to the key buffer of MarshalItem (appendKeyTime).
func appendsTime(a *model.Attribute) bool {
	return a.StoredForm().Key.Func == "keyTime"
}

func attrNames(as []*model.Attribute) string {
	var names []string
	for _, a := range as {
		names = append(names, a.Name)
	}
	return strings.Join(names, " and ")
}

// keyAttrValue is the attribute value of a built key string (or number).
func keyAttrValue(ka *model.KeyAttr, v jen.Code) jen.Code { return memberValue(string(ka.Type), v) }

// unmarshal emits UnmarshalItem: each attribute looked up by name, decoded
// by type; a required attribute that is missing is an error.
func (e *emitter) unmarshal(f *jen.File, ent *model.Entity) {
	r := receiver(ent)
	commentf(f, "UnmarshalItem sets %s from an item as DynamoDB returns it. A missing", r)
	comment(f, "required attribute, or one stored with another type, is an ItemError;")
	comment(f, "an optional attribute the item lacks is set to its zero value.")
	f.Func().Params(jen.Id(r).Op("*").Id(ent.GoName)).Id("UnmarshalItem").Params(jen.Id("item").Map(jen.String()).Qual(pathTypes, "AttributeValue")).Error().BlockFunc(func(g *jen.Group) {
		decodeAttrs(g, ent, ent.Attributes, jen.Id(r))
	})
	f.Line()
}

// decodeAttrs emits the decoding of item's attributes attrs into the
// fields of target, one line each, and the return of the first error.
func decodeAttrs(g *jen.Group, ent *model.Entity, attrs []*model.Attribute, target jen.Code) {
	decoded := slices.ContainsFunc(attrs, func(a *model.Attribute) bool { return a.StoredForm().Reader != "" })
	if decoded {
		g.Id("dec").Op(":=").Id("itemDecoder").Values(jen.Id("entity").Op(":").Lit(ent.Name))
	}
	for _, a := range attrs {
		g.Add(target).Dot(a.GoName).Op("=").Add(decodeAttr(ent, a))
	}
	if decoded {
		g.Return(jen.Id("dec").Dot("err"))
	} else {
		g.Return(jen.Nil())
	}
}

// itemError is &ItemError{Entity: ..., Attr: ..., Reason: ...} on one line.
func itemError(ent *model.Entity, a *model.Attribute, reason string) jen.Code {
	return jen.Op("&").Id("ItemError").Values(
		jen.Id("Entity").Op(":").Lit(ent.Name),
		jen.Id("Attr").Op(":").Lit(a.Name),
		jen.Id("Reason").Op(":").Lit(reason),
	)
}

// estimateKey is the usual length of a key built from tm: its literal
// text and a typical length of each value.
func estimateKey(tm *model.Template) int {
	n := 0
	for _, seg := range tm.Segments {
		switch {
		case seg.Attr == nil:
			n += len(seg.Literal)
		default:
			if b, ok := plan.MaxEncodedBytes(seg.Attr); ok && seg.Attr.KeepsOrder() {
				n += b
			} else {
				n += 24
			}
		}
	}
	return n
}

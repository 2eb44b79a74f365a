package golang

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/plan"
)

// builder is the name of the builder of an entity's key attribute ka,
// which a method calls: one the plan lists (plan.Entity.Builders).
func (e *emitter) builder(ent *model.Entity, ka *model.KeyAttr) string {
	b := e.p.Entity(ent).Builder(ka)
	if b == nil {
		e.bug("entity %s has no builder of %s", ent.Name, ka.Name)
		return "_"
	}
	return b.Name
}

// keyBuilders emits the functions that build the entity's key attributes
// the methods build (plan.Entity.Builders): the value the template gives
// for the attributes (or, for a template of literal text, the value
// itself).
func (e *emitter) keyBuilders(f *jen.File, ent *model.Entity) {
	for _, b := range e.p.Entity(ent).Builders {
		e.keyBuilder(f, ent, b)
	}
}

func (e *emitter) keyBuilder(f *jen.File, ent *model.Entity, b *plan.Builder) {
	name, ka, tm := b.Name, b.KeyAttr, b.Template
	ret := jen.String()
	zero := jen.Lit("")
	if ka.Type == model.B {
		ret, zero = jen.Index().Byte(), jen.Nil()
	}
	commentf(f, "%s builds %s=%q of %s items.", name, ka.Name, tm.Source, ent.GoName)
	f.Func().Id(name).ParamsFunc(func(g *jen.Group) {
		for _, a := range tm.Attrs() {
			g.Id(a.VarName()).Add(goType(ent, a))
		}
	}).Params(ret, jen.Error()).BlockFunc(func(g *jen.Group) {
		fail := func(err jen.Code) jen.Code { return jen.Return(zero, err) }
		scope := e.newScope()
		checked := checksKeys(tm)
		if checked {
			// The encodings keep their first error, returned at the end.
			g.Var().Id(keyCheck).Add(rt("KeyCheck"))
			scope[keyCheckID] = keyCheck
			markOnce(scope, tm.Segments)
		}
		expr := e.keyExpr(g, scope, ent, tm, len(tm.Segments), func(a *model.Attribute) jen.Code { return jen.Id(a.VarName()) }, fail)
		switch ka.Type {
		case model.S:
			switch {
			case checked && b.Limit != plan.NoLimit:
				g.Return(jen.Id(keyCheck).Dot("Sized").Call(jen.Lit(ka.Name), expr, rt(limitConsts[b.Limit])))
			case checked:
				g.Return(jen.Id(keyCheck).Dot("Done").Call(expr))
			case b.Limit != plan.NoLimit:
				g.Return(keySized(ka, b.Limit, expr))
			default:
				g.Return(expr, jen.Nil())
			}
		case model.B:
			a := tm.Segments[0].Attr
			g.If(jen.Len(jen.Id(a.VarName())).Op("==").Lit(0)).Block(fail(emptyKeyError(a)))
			g.Return(expr, jen.Nil())
		default:
			if checked {
				g.Return(jen.Id(keyCheck).Dot("Done").Call(expr))
				return
			}
			g.Return(expr, jen.Nil())
		}
	})
	f.Line()
}

// keySized is keySize's call on text, the value of string key attribute
// ka, which refuses a key over limit (its error to be checked).
func keySized(ka *model.KeyAttr, limit plan.KeyLimit, text jen.Code) jen.Code {
	return rt("KeySize").Call(jen.Lit(ka.Name), text, rt(limitConsts[limit]))
}

// limitConsts are the runtime's constants of the key size limits.
var limitConsts = map[plan.KeyLimit]string{plan.PartitionKeyLimit: "MaxPartitionKey", plan.SortKeyLimit: "MaxSortKey"}

// naturalKeyCheck emits the check of v, the value of attribute a standing
// as a whole key attribute (a natural key), calling fail with its error:
// a string must not be empty, an enum must be one of its values, a float
// a number DynamoDB stores. errName is the local of the error.
func naturalKeyCheck(g *jen.Group, a *model.Attribute, v jen.Code, errName string, fail func(err jen.Code) jen.Code) {
	checked := func(call jen.Code) {
		g.If(jen.List(jen.Id("_"), jen.Id(errName)).Op(":=").Add(call), jen.Id(errName).Op("!=").Nil()).Block(fail(jen.Id(errName)))
	}
	switch a.Type {
	case model.String:
		g.If(jen.Add(v).Op("==").Lit("")).Block(fail(emptyKeyError(a)))
	case model.Bytes:
		// An empty binary is no key DynamoDB takes.
		g.If(jen.Len(v).Op("==").Lit(0)).Block(fail(emptyKeyError(a)))
	case model.Time:
		// Stored as text, a time has a fixed width, and so sorts like its
		// value, only in the years 0000-9999.
		if f := a.StoredForm(); f.Dynamo == "S" {
			checked(rt(f.Key.Func).Call(jen.Lit(a.Name), v))
		}
	case model.Path:
		// Stored joined by its separator: an element may be neither empty
		// nor hold it, or two paths would be one key (and none would be
		// an empty key).
		sep := string(a.Separator)
		checked(rt("KeyPath").Call(jen.Lit(a.Name), v, jen.Lit(sep), jen.Lit(sep)))
	case model.Enum:
		checked(rt("KeyEnum").Call(jen.Lit(a.Name), jen.String().Parens(v), dot(v, "Valid").Call(), jen.Lit("")))
	default:
		if fn := a.StoredForm().Key.Number; fn != "" {
			checked(rt(fn).Call(jen.Lit(a.Name), v))
		}
	}
}

// presentKeyCheck emits naturalKeyCheck of v, the field or parameter of
// attribute a, when it is present if a is optional: absent, it writes no
// key.
func presentKeyCheck(g *jen.Group, a *model.Attribute, v jen.Code, errName string, fail func(err jen.Code) jen.Code) {
	if !a.Optional {
		naturalKeyCheck(g, a, v, errName, fail)
		return
	}
	g.If(present(a, v)).BlockFunc(func(ig *jen.Group) { naturalKeyCheck(ig, a, deref(a, v), errName, fail) })
}

// scopeLocal is the name of local name (one of model.MethodLocals) in
// scope: the method's, as its plan names it (m.scope), or name itself in
// a function of no pattern (a key builder, MarshalItem).
func scopeLocal(scope map[string]string, name string) string {
	if n, ok := scope["local|"+name]; ok {
		return n
	}
	return name
}

// encodePrefix emits the check of v, the beginsWith operand of a string or
// enum attribute a placed in a key whose separators are seps, and returns
// the expression of its text. It may be empty; otherwise a string's is
// checked like a string of the key, and an enum's must start one of the
// enum's values.
func (e *emitter) encodePrefix(g *jen.Group, scope map[string]string, a *model.Attribute, v jen.Code, seps string, fail func(err jen.Code) jen.Code) jen.Code {
	name := e.scopeName(scope, a.PrefixVar())
	scope["prefix|"+name] = name
	call := rt("KeyPrefix").Call(jen.Lit(a.Name), v, jen.Lit(seps))
	if a.Type == model.Enum {
		args := []jen.Code{jen.Lit(a.Name), jen.String().Parens(v), jen.Lit(seps)}
		for _, value := range a.Values {
			args = append(args, jen.Lit(value))
		}
		call = rt("KeyEnumPrefix").Call(args...)
	}
	errID := jen.Id(scopeLocal(scope, "err"))
	g.List(jen.Id(name), errID).Op(":=").Add(call)
	g.If(jen.Add(errID).Op("!=").Nil()).Block(fail(errID))
	return jen.Id(name)
}

// emptyKeyError is the KeyError of an empty value standing as a whole key
// attribute (DynamoDB refuses an empty key).
func emptyKeyError(a *model.Attribute) jen.Code {
	return jen.Op("&").Id("KeyError").Values(jen.Id("Attr").Op(":").Lit(a.Name), jen.Id("Reason").Op(":").Lit("empty"))
}

// keyExpr emits the encoding of the first n segments of tm, with the
// values val gives, into g (with an error check where an encoding can
// fail, calling fail), and returns the expression that concatenates them.
// scope remembers the encoded values already declared in the function.
func (e *emitter) keyExpr(g *jen.Group, scope map[string]string, ent *model.Entity, tm *model.Template, n int, val func(*model.Attribute) jen.Code, fail func(err jen.Code) jen.Code) *jen.Statement {
	return concat(e.keyPieces(g, scope, tm, n, val, fail))
}

// keyPieces emits the encoding of the first n segments of tm and returns
// the pieces of their text.
func (e *emitter) keyPieces(g *jen.Group, scope map[string]string, tm *model.Template, n int, val func(*model.Attribute) jen.Code, fail func(err jen.Code) jen.Code) []piece {
	var parts []piece
	for _, seg := range tm.Segments[:n] {
		if seg.Attr == nil {
			parts = append(parts, piece{lit: seg.Literal})
			continue
		}
		parts = append(parts, piece{code: e.encodeValue(g, scope, seg.Attr, tm, val(seg.Attr), "", fail)})
	}
	return parts
}

// piece is a part of a key's text: literal text known when generating,
// or code that computes it.
type piece struct {
	lit  string
	code jen.Code
}

// concat joins pieces of a key's text with +, merging literal pieces that
// stand next to each other ("PRIO#" + "9223372036854775807" is one).
func concat(parts []piece) *jen.Statement {
	var merged []jen.Code
	var lit strings.Builder
	pending := false
	flush := func() {
		if pending {
			merged = append(merged, jen.Lit(lit.String()))
			lit.Reset()
			pending = false
		}
	}
	for _, p := range parts {
		if p.code == nil {
			lit.WriteString(p.lit)
			pending = true
			continue
		}
		flush()
		merged = append(merged, p.code)
	}
	flush()
	if len(merged) == 0 {
		return jen.Lit("")
	}
	expr := jen.Add(merged[0])
	for _, c := range merged[1:] {
		expr = expr.Op("+").Add(c)
	}
	return expr
}

// encodeValue emits the encoding of one placeholder value of template tm
// and returns the expression of its text (or bytes, in a B key). vid
// names the value v within the scope: "" for the scope's own value of the
// attribute, or the name of another value (a where operand); an encoding
// is declared once per attribute, separators, encoding and value.
func (e *emitter) encodeValue(g *jen.Group, scope map[string]string, a *model.Attribute, tm *model.Template, v jen.Code, vid string, fail func(err jen.Code) jen.Code) jen.Code {
	seps := string(tm.Separators())
	switch tm.KeyType {
	case model.N:
		// A number's text, as the item holds it; checked where DynamoDB
		// stores only some values (a float).
		k := a.StoredForm().Key
		if k.Number == "" {
			return storedText(a, v)
		}
		return e.checkedKey(g, scope, scopeID(a, "", k.Number, vid), a, k.Number, []jen.Code{jen.Lit(a.Name), baseValue(a, model.BaseValue, v)}, fail)
	case model.B:
		return v
	}
	k := tm.KeyForm(a)
	switch {
	case k.Func == "":
		return v
	case !k.Checked:
		return rt(k.Func).Call(baseValue(a, k.Arg, v))
	}
	// Refused are the separators the encoding refuses ("" when it takes
	// none, as a time's).
	refused := ""
	if k.Seps {
		refused = seps
	}
	return e.checkedKey(g, scope, scopeID(a, refused, k.Func, vid), a, k.Func, keyArgs(a, k, v, seps), fail)
}

// checkedKey emits, once per scope and id, the call of fn, a checked key
// encoding of attribute a, which returns the text and an error, into a
// local named after a, and returns the local. Its error is checked at
// once, calling fail; or, where the scope has a dyngen.KeyCheck (see
// keyCheck), kept by it, for one check of the whole key or item.
func (e *emitter) checkedKey(g *jen.Group, scope map[string]string, id string, a *model.Attribute, fn string, args []jen.Code, fail func(err jen.Code) jen.Code) jen.Code {
	name, declared := scope[id]
	if declared {
		return jen.Id(name)
	}
	if check, ok := scope[keyCheckID]; ok && scope[onceID(a)] != "" {
		// Used once: the encoding where its text goes.
		return jen.Id(check).Dot(fn).Call(args...)
	}
	name = e.scopeName(scope, a.KeyVar())
	scope[id] = name
	if check, ok := scope[keyCheckID]; ok {
		g.Id(name).Op(":=").Id(check).Dot(fn).Call(args...)
		return jen.Id(name)
	}
	errID := jen.Id(scopeLocal(scope, "err"))
	g.List(jen.Id(name), errID).Op(":=").Add(rt(fn)).Call(args...)
	g.If(jen.Add(errID).Op("!=").Nil()).Block(fail(errID))
	return jen.Id(name)
}

// keyCheckID is the key of a scope's dyngen.KeyCheck, whose name is
// keyCheck, in a function of no pattern (a key builder, MarshalItem):
// the encodings keep their errors there, checked once.
const keyCheckID = "keyCheck|"

// onceID is the key of the mark, in a scope with a dyngen.KeyCheck, of
// an attribute whose encoding the function uses once: the encoding is
// then written where its text goes, with no local.
func onceID(a *model.Attribute) string { return "once|" + a.Name }

// markOnce marks in scope the attributes that stand once among the
// segments of templates.
func markOnce(scope map[string]string, segments ...[]model.Segment) {
	n := map[*model.Attribute]int{}
	for _, segs := range segments {
		for _, seg := range segs {
			if seg.Attr != nil {
				n[seg.Attr]++
			}
		}
	}
	for a, c := range n {
		if c == 1 {
			scope[onceID(a)] = "1"
		}
	}
}

// keyCheck is the local of a key builder's or MarshalItem's
// dyngen.KeyCheck (model.MethodLocals lists it).
const keyCheck = "check"

// checksKeys reports whether a template has a checked encoding: one that
// can refuse a value.
func checksKeys(tm *model.Template) bool {
	for _, a := range tm.Attrs() {
		switch tm.KeyType {
		case model.N:
			if a.StoredForm().Key.Number != "" {
				return true
			}
		case model.S:
			if k := tm.KeyForm(a); k.Func != "" && k.Checked {
				return true
			}
		}
	}
	return false
}

// numberKeyValue emits the attribute value of v, a value of attribute a
// standing as a whole key attribute of type N (a natural key, or a query
// operand on one), vid naming it as encodeValue's does: a float
// DynamoDB can't store is refused with a KeyError.
func (e *emitter) numberKeyValue(g *jen.Group, scope map[string]string, a *model.Attribute, v jen.Code, vid string, fail func(err jen.Code) jen.Code) jen.Code {
	if a.StoredForm().Key.Number == "" {
		return attrValue(a, v)
	}
	return memberValue("N", e.encodeValue(g, scope, a, &model.Template{KeyType: model.N}, v, vid, fail))
}

// keyArgs are the arguments of a checked key encoding of v, a value of
// attribute a, in a key whose separators are seps.
func keyArgs(a *model.Attribute, k model.KeyForm, v jen.Code, seps string) []jen.Code {
	args := []jen.Code{jen.Lit(a.Name), baseValue(a, k.Arg, v)}
	if k.Valid {
		args = append(args, dot(v, "Valid").Call())
	}
	if k.PathSep {
		args = append(args, jen.Lit(string(a.Separator)))
	}
	if k.Seps {
		args = append(args, jen.Lit(seps))
	}
	return args
}

// scopeName is base, or base with the least number from 2 up, whichever
// neither a name of the scope (its locals and the method's parameters)
// nor a package-level name the local would hide has.
func (e *emitter) scopeName(scope map[string]string, base string) string {
	taken := mapValues(scope)
	name := base
	for i := 2; e.packageNames[name] || slices.Contains(taken, name); i++ {
		name = fmt.Sprintf("%s%d", base, i)
	}
	return name
}

// scopeID is the key of an encoded value in a scope: the attribute, the
// separators the encoding refuses, the encoding function and the value.
func scopeID(a *model.Attribute, refused, fn, vid string) string {
	return a.Name + "|" + refused + "|" + fn + "|" + vid
}

func mapValues(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

package golang

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dave/jennifer/jen"

	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/plan"
)

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
	if e.keyTypes[ent] {
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
	owner := ""
	if a.In != nil {
		owner = a.In.GoName
	} else {
		owner = ent.GoName
	}
	commentf(f, "%s is the type of %s.%s: one of %s.", name, owner, a.GoName, strings.Join(quoteAll(a.Values), ", "))
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
	entityDoc(f, ent)
	f.Type().Id(ent.GoName).StructFunc(func(g *jen.Group) {
		for _, a := range ent.Attributes {
			st := jen.Id(a.GoName).Add(fieldType(ent, a))
			switch note := strings.Join(append(fieldNotes(a), managedNotes(ent, a)...), "; "); {
			case len(note) > maxTrailing:
				comment(g, capitalize(note)+".")
			case note != "":
				trailing(st, note)
			}
			g.Add(st)
		}
	})
	f.Line()
}

// maxTrailing is the longest note written at the end of a field's line;
// a longer one goes above the field, so that lines stay within 80
// columns.
const maxTrailing = 40

// capitalize is s with its first letter upper case.
func capitalize(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

// entityDoc emits the doc of an entity's struct: the spec's doc first, as
// its own paragraph (go doc's summary), then the table and the templates
// of its keys.
func entityDoc(f *jen.File, ent *model.Entity) {
	if ent.Doc != "" {
		comment(f, ent.Doc)
		comment(f, "")
	}
	commentf(f, "%s is an item of table %s, with %s=%q, under these keys:", ent.GoName, ent.Table.Name, ent.Table.EntityAttr, ent.TypeValue)
	comment(f, "")
	for _, k := range ent.Keys {
		comment(f, "\t"+describeEntityKey(k))
	}
}

// fieldNotes are the notes of an attribute's field: its doc, and how it
// is stored where that is not plain from its type.
func fieldNotes(a *model.Attribute) []string {
	var notes []string
	if a.Doc != "" {
		notes = append(notes, strings.TrimSuffix(a.Doc, "."))
	}
	if a.Stored != a.Name {
		notes = append(notes, "stored as "+a.Stored)
	}
	switch {
	case a.StoredForm().Pointer:
		notes = append(notes, "optional: nil when absent")
	case a.Optional && a.StoredForm().OmitZero:
		notes = append(notes, "optional: absent when empty")
	case a.Optional:
		notes = append(notes, "optional: absent when nil or empty")
	case a.Default != nil:
		notes = append(notes, "default "+a.Default.Text+" when the item lacks it")
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
	return notes
}

// managedNotes say which field the Store's writes set themselves: the
// version and the timestamps.
func managedNotes(ent *model.Entity, a *model.Attribute) []string {
	switch a {
	case nil:
	case ent.Version:
		return []string{"the version: each write checks and sets it"}
	case ent.Created:
		return []string{"the Store sets it for a new item"}
	case ent.Updated:
		return []string{"the Store sets it on every write"}
	}
	return nil
}

// describeEntityKey shows an entity's templates on one index.
func describeEntityKey(k *model.EntityKey) string {
	if k.Parts != nil {
		s := indexTitle(k.Index) + ": " + k.DescribeParts()
		if k.Unnamed {
			s += " (its items hold every key attribute)"
		}
		return s
	}
	s := fmt.Sprintf("%s: %s=%q", indexTitle(k.Index), k.Index.PK.Name, k.PK.Source)
	if k.SK != nil {
		s += fmt.Sprintf(" %s=%q", k.Index.SK.Name, k.SK.Source)
	}
	if k.Derived() {
		s += " (written for " + k.ViaNames() + ")"
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
// elements that every write runs first: one switch of them, but for the
// loop over a path's elements.
func (e *emitter) validate(f *jen.File, ent *model.Entity) {
	r := ent.Receiver()
	commentf(f, "validate checks %s against the constraints of the spec before a write.", r)
	f.Func().Params(jen.Id(r).Op("*").Id(ent.GoName)).Id("validate").Params().Error().BlockFunc(func(g *jen.Group) {
		var cases []jen.Code
		flush := func() {
			if len(cases) > 0 {
				g.Switch().Block(cases...)
				cases = nil
			}
		}
		for _, a := range ent.Attributes {
			v := jen.Id(r).Dot(a.GoName)
			for _, c := range valueConds(ent, a, deref(a, v)) {
				cond := c.cond
				if a.StoredForm().Pointer {
					// An optional attribute's, only when it is present.
					cond = jen.Add(present(a, v)).Op("&&").Add(cond)
				}
				cases = append(cases, jen.Case(cond).Block(jen.Return(itemError(ent, a, c.reason))))
			}
			if a.Type == model.Path {
				flush()
				g.Add(pathLoop(ent, a, deref(a, v), func(err jen.Code) jen.Code { return jen.Return(err) }))
			}
			if a.Of != nil {
				flush()
				g.Add(objectIf(ent, a, v, func(err jen.Code) jen.Code { return jen.Return(err) }))
			}
		}
		flush()
		g.Return(jen.Nil())
	})
	f.Line()
}

// objectIf is the check of v, the field of object or objects attribute a
// (or the parameter that sets it), against its fields' constraints: when
// it is present, for an optional object.
func objectIf(ent *model.Entity, a *model.Attribute, v jen.Code, fail func(jen.Code) jen.Code) jen.Code {
	check := jen.If(jen.Err().Op(":=").Add(objectCheck(ent, a, deref(a, v))), jen.Err().Op("!=").Nil()).Block(fail(jen.Err()))
	if a.StoredForm().Pointer {
		return jen.If(present(a, v)).Block(check)
	}
	return check
}

// condition is a check of a value before a write: when cond holds, the
// value breaks the spec's constraint that reason says.
type condition struct {
	cond   jen.Code
	reason string
}

// valueConds are the conditions of v, a value of attribute a, that refuse
// it before a write: its bounds, length, enum value, what DynamoDB can't
// store, its strings' UTF-8, a path's length, and a time to live that is
// not set. (A path's elements are checked by pathLoop.)
func valueConds(ent *model.Entity, a *model.Attribute, v jen.Code) []condition {
	var conds []condition
	check := func(cond jen.Code, reason string) {
		conds = append(conds, condition{cond, reason})
	}
	if a.Min != nil {
		check(jen.Add(v).Op("<").Add(boundLit(a, a.Min)), "below its min "+a.Min.Text)
	}
	if a.Max != nil {
		check(jen.Add(v).Op(">").Add(boundLit(a, a.Max)), "above its max "+a.Max.Text)
	}
	if a.MaxLength > 0 && a.Type == model.String {
		check(jen.Qual("unicode/utf8", "RuneCountInString").Call(v).Op(">").Lit(a.MaxLength), fmt.Sprintf("longer than its maxLength %d", a.MaxLength))
	}
	if a.MaxItems > 0 {
		check(jen.Len(v).Op(">").Lit(a.MaxItems), fmt.Sprintf("more than its maxItems %d elements", a.MaxItems))
	}
	if a.Type == model.Enum {
		check(jen.Op("!").Add(dot(v, "Valid")).Call(), "not one of "+strings.Join(quoteAll(a.Values), ", "))
	}
	if a.TTL {
		// The zero time is epoch second -62135596800: stored, the item
		// would never expire.
		check(dot(v, "IsZero").Call(), "the zero time; a time to live must be set")
	}
	if c, reason := unstorable(a, v); c != nil {
		check(c, reason)
	}
	if c, reason := invalidUTF8(a, v); c != nil {
		check(c, reason)
	}
	if a.Type == model.Path && a.MaxLength > 0 {
		check(jen.Qual("unicode/utf8", "RuneCountInString").Call(jen.Qual("strings", "Join").Call(v, jen.Lit(string(a.Separator)))).Op(">").Lit(a.MaxLength), fmt.Sprintf("longer than its maxLength %d", a.MaxLength))
	}
	return conds
}

// valueChecks are the checks of v, a value of attribute a, before a
// write (valueConds, then a path's elements); fail is the return of an
// error.
func valueChecks(ent *model.Entity, a *model.Attribute, v jen.Code, fail func(jen.Code) jen.Code) []jen.Code {
	var checks []jen.Code
	for _, c := range valueConds(ent, a, v) {
		checks = append(checks, jen.If(c.cond).Block(fail(itemError(ent, a, c.reason))))
	}
	if a.Type == model.Path {
		checks = append(checks, pathLoop(ent, a, v, fail))
	}
	if a.Of != nil {
		// v is the value, present: checked whole.
		checks = append(checks, jen.If(jen.Err().Op(":=").Add(objectCheck(ent, a, v)), jen.Err().Op("!=").Nil()).Block(fail(jen.Err())))
	}
	return checks
}

// pathLoop is the check of each element of v, a path: not empty, free of
// the separator, and valid UTF-8.
func pathLoop(ent *model.Entity, a *model.Attribute, v jen.Code, fail func(jen.Code) jen.Code) jen.Code {
	sep := string(a.Separator)
	return jen.For(jen.List(jen.Id("_"), jen.Id("el")).Op(":=").Range().Add(v)).Block(
		jen.If(jen.Id("el").Op("==").Lit("").Op("||").Qual("strings", "Contains").Call(jen.Id("el"), jen.Lit(sep)).Op("||").Op("!").Qual("unicode/utf8", "ValidString").Call(jen.Id("el"))).Block(
			fail(itemError(ent, a, fmt.Sprintf("a path element is empty, holds %q or is not valid UTF-8", sep))),
		),
	)
}

// boundLit is a min or max as a Go constant of the attribute's type.
func boundLit(a *model.Attribute, b *model.Bound) jen.Code {
	if a.Type == model.Int {
		return jen.Id(strconv.FormatInt(b.Int, 10))
	}
	return jen.Id(strconv.FormatFloat(b.Float, 'g', -1, 64))
}

// marshal emits MarshalItem, as the plan's layout says (plan.ItemLayout), and the
// struct of its values block: every attribute, the entity attribute, and
// the keys of every index the item is in. Each value a key holds is
// encoded once; the item's scalar attribute values are allocated in one
// block (a struct of arrays) rather than one by one.
func (e *emitter) marshal(f *jen.File, ent *model.Entity) {
	p := &itemPrinter{e: e, ent: ent, l: e.p.Entity(ent).Layout, scope: e.newScope()}
	p.doc(f)
	f.Func().Params(jen.Id(p.l.Recv).Op("*").Id(ent.GoName)).Id("MarshalItem").Params().Params(jen.Map(jen.String()).Qual(pathTypes, "AttributeValue"), jen.Error()).BlockFunc(p.body)
	f.Line()
	p.valuesStruct(f)
	f.Line()
}

// itemPrinter prints an entity's item layout as MarshalItem.
type itemPrinter struct {
	e   *emitter
	ent *model.Entity
	l   *plan.ItemLayout
	// scope holds the key encodings declared in MarshalItem's body.
	scope map[string]string
	// started is set once the key buffer's text is declared.
	started bool
}

// field is the field of attribute a.
func (p *itemPrinter) field(a *model.Attribute) jen.Code { return jen.Id(p.l.Recv).Dot(a.GoName) }

// val is the value of attribute a: its field, dereferenced for an
// optional scalar, which only code run when it is present reads.
func (p *itemPrinter) val(a *model.Attribute) jen.Code { return deref(a, p.field(a)) }

// marshalFail is MarshalItem's return of an error.
func marshalFail(err jen.Code) jen.Code { return jen.Return(jen.Nil(), err) }

// multiLine is a composite literal with one element a line.
var multiLine = jen.Options{Open: "{", Close: "}", Separator: ",", Multi: true}

// doc prints MarshalItem's doc.
func (p *itemPrinter) doc(f *jen.File) {
	commentf(f, "MarshalItem returns %s as DynamoDB stores it, with %s=%q and the keys of "+
		"every index it is in (see KeyError and ItemError).", p.l.Recv, p.ent.Table.EntityAttr, p.ent.TypeValue)
}

// body prints the keys, the checks of the spec's constraints, the values
// block and the item.
func (p *itemPrinter) body(g *jen.Group) {
	if len(p.l.Steps)+len(p.l.Plain) > 0 {
		comment(g, "The keys first (a value no key can hold is a KeyError on writes "+
			"as on reads), then the spec's constraints, then one block of values.")
	}
	for _, s := range p.l.Steps {
		p.keyStep(g, s)
	}
	p.plainKeys(g)
	g.If(jen.Err().Op(":=").Id(p.l.Recv).Dot("validate").Call(), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err()))
	p.valuesBlock(g)
	p.itemMap(g)
}

// keyStep prints a step of the keys before the plain keys.
func (p *itemPrinter) keyStep(g *jen.Group, s plan.KeyStep) {
	switch {
	case s.Natural != nil:
		p.naturalCheck(g, s.Natural)
	case s.Build != nil:
		p.buildKey(g, p.scope, s.Build, true)
	default:
		p.sparseKeys(g, s.Sparse)
	}
}

// naturalCheck prints the check of an attribute that is a whole key
// (naturalChecked), when it is present if it is optional.
func (p *itemPrinter) naturalCheck(g *jen.Group, a *model.Attribute) {
	presentKeyCheck(g, a, p.field(a), "err", marshalFail)
}

// sparseKeys prints the keys of a sparse index, built when the item is in
// it, each placeholder encoded in the block's own scope.
func (p *itemPrinter) sparseKeys(g *jen.Group, s *plan.SparseKeys) {
	commentf(g, "Only an item with %s is in %s.", attrNames(s.Attrs), indexTitle(s.Index))
	for _, k := range s.Keys {
		g.Var().Id(k.Var).Add(keyGoType(k.KeyAttr))
	}
	g.Id(s.In).Op(":=").Add(p.allPresent(s.Attrs))
	g.If(jen.Id(s.In)).BlockFunc(func(ig *jen.Group) {
		local := maps.Clone(p.scope)
		for _, k := range s.Keys {
			p.buildKey(ig, local, k, false)
		}
	})
}

// allPresent is the condition that every one of attrs is present.
func (p *itemPrinter) allPresent(attrs []*model.Attribute) jen.Code {
	var c *jen.Statement
	for _, a := range attrs {
		z := present(a, p.field(a))
		if c == nil {
			c = jen.Add(z)
		} else {
			c = c.Op("&&").Add(z)
		}
	}
	return c
}

// buildKey prints the building of key k into its variable (declared with
// := when declare, else assigned), encoding each placeholder once per
// scope.
func (p *itemPrinter) buildKey(g *jen.Group, scope map[string]string, k *plan.KeyBuild, declare bool) {
	expr := p.e.keyExpr(g, scope, p.ent, k.Template, len(k.Template.Segments), p.val, marshalFail)
	switch {
	case k.Limit != plan.NoLimit:
		p.assignSized(g, k, expr, declare)
		return
	case k.KeyAttr.Type == model.B:
		a := k.Template.Segments[0].Attr
		g.If(jen.Len(p.val(a)).Op("==").Lit(0)).Block(marshalFail(emptyKeyError(a)))
	}
	if declare {
		g.Id(k.Var).Op(":=").Add(expr)
	} else {
		g.Id(k.Var).Op("=").Add(expr)
	}
}

// assignSized prints the size check of string key k, of text expr, into
// its variable.
func (p *itemPrinter) assignSized(g *jen.Group, k *plan.KeyBuild, expr jen.Code, declare bool) {
	v := k.Var
	if !declare {
		v = k.Built
	}
	g.List(jen.Id(v), jen.Err()).Op(":=").Add(keySized(k.KeyAttr, k.Limit, expr))
	g.If(jen.Err().Op("!=").Nil()).Block(marshalFail(jen.Err()))
	if !declare {
		g.Id(k.Var).Op("=").Id(v)
	}
}

// plainKeys prints the string keys every item has: one built alone,
// several written into one buffer.
func (p *itemPrinter) plainKeys(g *jen.Group) {
	switch len(p.l.Plain) {
	case 0:
	case 1:
		p.buildKey(g, p.scope, p.l.Plain[0], true)
	default:
		p.keyBuffer(g)
	}
}

// keyBuffer prints the buffer of the plain keys' texts, their texts, and
// each key sliced from them.
func (p *itemPrinter) keyBuffer(g *jen.Group) {
	g.Var().Id("keyBuf").Index(jen.Lit(p.l.BufSize)).Byte()
	g.Var().Id(keyCheck).Add(rt("KeyCheck"))
	p.scope[keyCheckID] = keyCheck
	var segments [][]model.Segment
	for _, k := range p.l.Plain {
		segments = append(segments, k.Template.Segments)
	}
	markOnce(p.scope, segments...)
	p.started = false
	for _, k := range p.l.Plain {
		p.bufferedText(g, k)
	}
	g.Id("texts").Op(":=").String().Parens(jen.Id("text"))
	for i, k := range p.l.Plain {
		p.bufferedKey(g, i, k)
	}
	for id := range p.scope {
		if strings.HasPrefix(id, "once|") || id == keyCheckID {
			delete(p.scope, id)
		}
	}
	g.If(jen.Id(keyCheck).Dot("Err").Op("!=").Nil()).Block(marshalFail(jen.Id(keyCheck).Dot("Err")))
}

// bufferedText prints the appending of key k's text to the buffer, and
// where it ends.
func (p *itemPrinter) bufferedText(g *jen.Group, k *plan.KeyBuild) {
	for _, pc := range k.Pieces {
		p.keyPiece(g, k, pc)
	}
	g.Id(k.End).Op(":=").Len(jen.Id("text"))
}

// keyPiece prints the appending of a piece of key k's text to the
// buffer.
func (p *itemPrinter) keyPiece(g *jen.Group, k *plan.KeyBuild, pc *plan.KeyPiece) {
	a := pc.Attr
	if !p.started {
		// The buffer's text starts with the first piece, or empty.
		p.started = true
		if a == nil {
			g.Id("text").Op(":=").Append(jen.Id("keyBuf").Index(jen.Empty(), jen.Lit(0)), jen.Lit(pc.Lit).Op("..."))
			return
		}
		g.Id("text").Op(":=").Id("keyBuf").Index(jen.Empty(), jen.Lit(0))
	}
	switch {
	case a == nil:
		g.Id("text").Op("=").Append(jen.Id("text"), jen.Lit(pc.Lit).Op("..."))
	case pc.How == plan.PieceTimeCopy:
		g.Id("text").Op("=").Append(jen.Id("text"), jen.Id("text").Index(jen.Id(pc.From), jen.Id(pc.To)).Op("..."))
	case pc.How == plan.PieceTimeNew:
		g.Id(pc.From).Op(":=").Len(jen.Id("text"))
		g.Id("text").Op("=").Id(keyCheck).Dot("AppendKeyTime").Call(jen.Id("text"), jen.Lit(a.Name), p.val(a))
		g.Id(pc.To).Op(":=").Len(jen.Id("text"))
	default:
		enc := p.e.encodeValue(g, p.scope, a, k.Template, p.val(a), "", marshalFail)
		g.Id("text").Op("=").Append(jen.Id("text"), jen.Add(enc).Op("..."))
	}
}

// bufferedKey prints the i-th plain key, sliced from the buffer's texts,
// with its size check.
func (p *itemPrinter) bufferedKey(g *jen.Group, i int, k *plan.KeyBuild) {
	var from jen.Code = jen.Empty()
	if i > 0 {
		from = jen.Id(p.l.Plain[i-1].End)
	}
	text := jen.Id("texts").Index(from, jen.Id(k.End))
	if k.Limit == plan.NoLimit {
		g.Id(k.Var).Op(":=").Add(text)
		return
	}
	g.Id(k.Var).Op(":=").Id(keyCheck).Dot("KeySize").Call(jen.Lit(k.KeyAttr.Name), text, rt(limitConsts[k.Limit]))
}

// valuesBlock prints the values block: one allocation for the item's
// scalar attribute values.
func (p *itemPrinter) valuesBlock(g *jen.Group) {
	g.Id("vals").Op(":=").Op("&").Id(p.l.ValuesType).CustomFunc(multiLine, func(g *jen.Group) {
		for _, b := range p.l.Blocks {
			var values []jen.Code
			for _, it := range b.Items {
				values = append(values, jen.Values(jen.Id("Value").Op(":").Add(p.slotValue(it))))
			}
			g.Id(b.Field).Op(":").Index(jen.Lit(len(b.Items))).Qual(pathTypes, "AttributeValueMember"+b.Member).Add(rows(values, valuesPerLine))
		}
	})
}

// slotValue is the value an item attribute's slot holds.
func (p *itemPrinter) slotValue(it *plan.ItemEntry) jen.Code {
	switch {
	case it.Key != nil:
		return jen.Id(it.Key.Var)
	case it.Attr == nil:
		return jen.Lit(p.ent.TypeValue)
	case it.KeyText:
		return p.keyText(it)
	}
	return storedText(it.Attr, p.val(it.Attr))
}

// keyText is the text a plain key holds of a time: in the buffer, or the
// encoding the one plain key declared.
func (p *itemPrinter) keyText(it *plan.ItemEntry) jen.Code {
	if s := it.Span; s != nil {
		return jen.Id("texts").Index(jen.Id(s.From), jen.Id(s.To))
	}
	return jen.Id(p.scope[scopeID(it.Attr, "", "keyTime", "")])
}

// itemMap prints the item and its return: each attribute set, under its
// condition; a literal of them all when none has one.
func (p *itemPrinter) itemMap(g *jen.Group) {
	mapType := jen.Map(jen.String()).Qual(pathTypes, "AttributeValue")
	// A literal where no attribute is set under a condition, and none
	// twice (a key attribute that is the attribute itself).
	names := map[string]bool{}
	twice := slices.ContainsFunc(p.l.Items, func(it *plan.ItemEntry) bool {
		seen := names[it.Name]
		names[it.Name] = true
		return seen
	})
	if !twice && !slices.ContainsFunc(p.l.Items, func(it *plan.ItemEntry) bool { return it.In != "" || it.Present }) {
		var entries []jen.Code
		for _, it := range p.l.Items {
			entries = append(entries, jen.Lit(it.Name).Op(":").Add(p.itemValue(it)))
		}
		g.Return(jen.Add(mapType).Add(rows(entries, entriesPerLine)), jen.Nil())
		return
	}
	g.Id("item").Op(":=").Make(mapType, jen.Lit(len(p.l.Items)))
	for _, it := range p.l.Items {
		st := jen.Id("item").Index(jen.Lit(it.Name)).Op("=").Add(p.itemValue(it))
		switch {
		case it.In != "":
			g.If(jen.Id(it.In)).Block(st)
		case it.Present:
			g.If(present(it.Attr, p.field(it.Attr))).Block(st)
		default:
			g.Add(st)
		}
	}
	g.Return(jen.Id("item"), jen.Nil())
}

// itemValue is the attribute value of an item attribute: its slot in the
// values block, or a value of its own.
func (p *itemPrinter) itemValue(it *plan.ItemEntry) jen.Code {
	if it.Member == "" {
		return attrValue(it.Attr, p.val(it.Attr))
	}
	return jen.Op("&").Id("vals").Dot(it.Block.Field).Index(jen.Lit(it.Slot))
}

// valuesPerLine and entriesPerLine are how many members of the values
// block, and entries of an item, rows puts on a line.
const (
	valuesPerLine  = 3
	entriesPerLine = 3
)

// rows is the body of a composite literal of elems, perLine of them on
// each line.
func rows(elems []jen.Code, perLine int) jen.Code {
	var lines []jen.Code
	for i := 0; i < len(elems); i += perLine {
		line := jen.Null()
		for j, e := range elems[i:min(i+perLine, len(elems))] {
			if j > 0 {
				line.Op(",")
			}
			line.Add(e)
		}
		lines = append(lines, line)
	}
	if len(lines) == 1 {
		return jen.Values(lines[0])
	}
	return jen.Custom(multiLine, lines...)
}

// valuesStruct prints the struct of the values block.
func (p *itemPrinter) valuesStruct(f *jen.File) {
	commentf(f, "%s holds the scalar values of one %s item, allocated at once.", p.l.ValuesType, p.ent.GoName)
	f.Type().Id(p.l.ValuesType).StructFunc(func(g *jen.Group) {
		for _, b := range p.l.Blocks {
			g.Id(b.Field).Index(jen.Lit(len(b.Items))).Qual(pathTypes, "AttributeValueMember"+b.Member)
		}
	})
}

// keyGoType is the Go type of a built key value.
func keyGoType(ka *model.KeyAttr) jen.Code {
	if ka.Type == model.B {
		return jen.Index().Byte()
	}
	return jen.String()
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
	r := ent.Receiver()
	commentf(f, "UnmarshalItem sets %s from an item (see dyngen.ItemDecoder).", r)
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
		g.Id("dec").Op(":=").Add(rt("ItemDecoder")).Values(jen.Id("Entity").Op(":").Lit(ent.Name))
	}
	for _, a := range attrs {
		g.Add(target).Dot(a.GoName).Op("=").Add(decodeAttr(ent, a))
	}
	if decoded {
		g.Return(jen.Id("dec").Dot("Err"))
	} else {
		g.Return(jen.Nil())
	}
}

// itemError is &ItemError{Entity: ..., Attr: ..., Reason: ...} on one line.
// An object's field's (ent nil) names no entity: the attribute holding
// the object names it (objectCheck).
func itemError(ent *model.Entity, a *model.Attribute, reason string) jen.Code {
	if ent == nil {
		return jen.Op("&").Id("ItemError").Values(
			jen.Id("Attr").Op(":").Lit(a.Name),
			jen.Id("Reason").Op(":").Lit(reason),
		)
	}
	return jen.Op("&").Id("ItemError").Values(
		jen.Id("Entity").Op(":").Lit(ent.Name),
		jen.Id("Attr").Op(":").Lit(a.Name),
		jen.Id("Reason").Op(":").Lit(reason),
	)
}

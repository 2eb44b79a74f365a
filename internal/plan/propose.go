package plan

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/dyngen/dyngen/internal/keylang"
	"github.com/dyngen/dyngen/internal/model"
)

// The fixes the planner proposes are written so that they can be applied
// as written: a new index as "e.g. NAME: {declaration} with keys NAME:
// {pk: ..., sk: ...} on Entity", changed templates as "e.g. keys INDEX:
// {sk: ...} on Entity" (several joined by " and "), and pattern changes as
// "add X to by" or "remove consistent: true". Each proposal is checked
// before it is made: the planner serves the pattern with it, and it gives
// no key collision.

// indexProposal proposes a global index that serves p, or says why no
// index can (where on an attribute no key serves).
func (b *builder) indexProposal(p *model.Pattern) (fix, why string) {
	if why := unkeyableWhere(p.Where); why != "" {
		return "", why
	}
	if p.IsCollection() && p.Where != nil {
		return "", ""
	}
	t := p.Table
	gsis := 0
	for _, ix := range t.Indexes {
		if ix.Kind == model.Global {
			gsis++
		}
	}
	if gsis >= 20 {
		return "", ""
	}
	name := freeIndexName(t, "GSI", gsis+1)
	ix := &model.Index{Name: name, GoName: name, Table: t, Kind: model.Global, Projection: model.ProjectAll,
		PK: &model.KeyAttr{Name: name + "PK", Type: model.S}, SK: &model.KeyAttr{Name: name + "SK", Type: model.S}}
	var keys []*model.EntityKey
	for _, e := range p.Entities {
		var pk []model.Segment
		for _, by := range p.By {
			a := e.Attr(by)
			if a == nil {
				return "", ""
			}
			pk = append(pk, model.Segment{Literal: word(by)}, model.Segment{Attr: a})
		}
		pkT := joinTemplate(pk)
		skT := joinTemplate(sortKeyItems(p, e, nil))
		if pkT == nil || skT == nil || !stringKeyOK(pkT, MaxPartitionKeyBytes) || !stringKeyOK(skT, MaxSortKeyBytes) {
			return "", ""
		}
		keys = append(keys, &model.EntityKey{Index: ix, PK: pkT, SK: skT})
	}
	// The entities of a collection must not collide on it.
	for i, a := range keys {
		for _, c := range keys[i+1:] {
			if v, _ := keylang.Collide(keyOf(a), keyOf(c)); v != keylang.Disjoint {
				return "", ""
			}
		}
	}
	if !b.servesWith(p, ix, keys) {
		return "", ""
	}
	var with []string
	for i, e := range p.Entities {
		with = append(with, fmt.Sprintf("keys %s: {pk: %q, sk: %q} on %s", name, keys[i].PK.Source, keys[i].SK.Source, e.Name))
	}
	fix = fmt.Sprintf("add an index whose partition key is built from [%s], e.g. %s: {partitionKey: %sPK, sortKey: %sSK} with %s",
		strings.Join(p.By, ", "), name, name, name, strings.Join(with, " and "))
	if p.Index != "" {
		fix += fmt.Sprintf(" and index: %s on %s", name, p.Name)
	}
	return fix, ""
}

// localIndexFix proposes a local index that serves p with a consistent
// read, when by builds the table's partition key.
func (b *builder) localIndexFix(p *model.Pattern) []string {
	t := p.Table
	if t.SK == nil || p.IsCollection() || unkeyableWhere(p.Where) != "" {
		return nil
	}
	locals := 0
	for _, ix := range t.Indexes {
		if ix.Kind == model.Local {
			locals++
		}
	}
	if locals >= 5 {
		return nil
	}
	e := p.Entity()
	prim := e.PrimaryKey()
	var lead []*model.Attribute
	for _, name := range p.By {
		a := e.Attr(name)
		if !prim.PK.Has(a) {
			lead = append(lead, a)
		}
	}
	for _, a := range prim.PK.Attrs() {
		if !slices.Contains(p.By, a.Name) {
			return nil
		}
	}
	name := freeIndexName(t, "LSI", locals+1)
	ix := &model.Index{Name: name, GoName: name, Table: t, Kind: model.Local, Projection: model.ProjectAll,
		PK: t.PK, SK: &model.KeyAttr{Name: name + "SK", Type: model.S}}
	pk := *prim.PK
	pk.Implied = true
	skT := joinTemplate(sortKeyItems(p, e, lead))
	if skT == nil || !stringKeyOK(skT, MaxSortKeyBytes) {
		return nil
	}
	if !b.servesWith(p, ix, []*model.EntityKey{{Index: ix, PK: &pk, SK: skT}}) {
		return nil
	}
	return []string{fmt.Sprintf("add a local index (DynamoDB creates local indexes only with the table), e.g. %s: {local: true, sortKey: %sSK} with keys %s: {sk: %q} on %s", name, name, name, skT.Source, e.Name)}
}

// collectionFix proposes, for a collection whose entities have different
// partition key templates on an index, to give them the first entity's.
func (b *builder) collectionFix(p *model.Pattern) []string {
	if !p.IsCollection() {
		return nil
	}
next:
	for _, ix := range readIndexes(p) {
		first := p.Entity().Key(ix)
		if first == nil || first.PK.Implied || first.PK.KeyType != model.S {
			continue
		}
		for _, a := range first.PK.Attrs() {
			if !slices.Contains(p.By, a.Name) {
				continue next
			}
		}
		var changes []keyChange
		for _, e := range p.Entities[1:] {
			k := e.Key(ix)
			if k == nil || k.PK.Implied {
				continue next
			}
			if k.PK.Source == first.PK.Source {
				continue
			}
			tm := retarget(first.PK, e)
			if tm == nil {
				continue next
			}
			changes = append(changes, keyChange{e: e, ix: ix, keyAttr: ix.PK, tm: tm})
		}
		if len(changes) == 0 || !changesOK(changes, nil) {
			continue
		}
		// The pattern must then be served on ix.
		var saved []*model.Template
		for _, c := range changes {
			k := c.e.Key(ix)
			saved = append(saved, k.PK)
			k.PK = c.tm
		}
		served := b.tryRead(p, ix).plan != nil
		for i, c := range changes {
			c.e.Key(ix).PK = saved[i]
		}
		if !served {
			continue
		}
		var what []string
		for _, c := range changes {
			what = append(what, c.String())
		}
		return []string{fmt.Sprintf("give the entities one partition key on %s, e.g. %s", ix.Name, strings.Join(what, " and "))}
	}
	return nil
}

// servesWith reports whether p is served on the new index ix when its
// entities have keys on it.
func (b *builder) servesWith(p *model.Pattern, ix *model.Index, keys []*model.EntityKey) bool {
	saved := make([][]*model.EntityKey, len(p.Entities))
	for i, e := range p.Entities {
		saved[i] = e.Keys
		e.Keys = append(slices.Clip(e.Keys), keys[i])
	}
	c := b.tryRead(p, ix)
	for i, e := range p.Entities {
		e.Keys = saved[i]
	}
	return c.plan != nil
}

// sortKeyItems are the segments of a proposed sort key for p's entity e:
// the lead attributes (by attributes the partition key does not hold),
// then the where attribute, then the primary key's other attributes. A
// get binds the whole key, so its sort key is the lead alone, or the
// entity's name; so is a member of a collection told apart by its name.
func sortKeyItems(p *model.Pattern, e *model.Entity, lead []*model.Attribute) []model.Segment {
	var segs []model.Segment
	for _, a := range lead {
		segs = append(segs, model.Segment{Attr: a})
	}
	if p.Op == model.OpGet {
		if len(segs) == 0 {
			segs = append(segs, model.Segment{Literal: word(e.Name)})
		}
		return segs
	}
	if p.IsCollection() {
		segs = append([]model.Segment{{Literal: word(e.Name)}}, segs...)
	}
	w := p.Where
	used := func(a *model.Attribute) bool {
		return slices.Contains(p.By, a.Name) || (w != nil && w.Attr.Name == a.Name)
	}
	hasPath := slices.ContainsFunc(lead, func(a *model.Attribute) bool { return a.Type == model.Path })
	var rest []model.Segment
	for _, a := range e.PrimaryKey().Attrs() {
		if used(a) || !inStringKey(a) || (a.Type == model.Path && (hasPath || (w != nil && w.Attr.Type == model.Path))) {
			continue
		}
		rest = append(rest, model.Segment{Attr: a})
	}
	if w != nil {
		segs = append(segs, model.Segment{Attr: w.Attr})
		switch {
		case w.Op == model.OpBeginsWith && w.Attr.Type == model.Path && len(rest) == 0:
			// A path's subtree is one prefix only when its separator
			// follows it.
			segs = append(segs, model.Segment{Literal: string(w.Attr.Separator)})
		case w.Op != model.OpBeginsWith && !w.Attr.KeepsOrder():
			// A string compares in order only placed last in the key.
			rest = nil
		}
	}
	segs = append(segs, rest...)
	if len(segs) == 0 {
		segs = append(segs, model.Segment{Literal: word(e.Name)})
	}
	return segs
}

// unkeyableWhere says why no string sort key can serve a where condition,
// or "".
func unkeyableWhere(w *model.Cond) string {
	if w == nil {
		return ""
	}
	a := w.Attr
	switch {
	case w.Op == model.OpBeginsWith:
		return ""
	case a.Type == model.Path:
		return fmt.Sprintf("No index can serve where %s %s: a path compares only with beginsWith.", a.Name, w.Op)
	case a.Type == model.Enum && enumOrder(a) != "":
		return fmt.Sprintf("No index can serve where %s %s: %s.", a.Name, w.Op, enumOrder(a))
	}
	return ""
}

// enumOrder says why a range or order on an enum in a string key would not
// follow its declared order, or "" when its values are declared in the
// order of their text: a key holds the value's text, so a key condition
// and the order of a Query compare text.
func enumOrder(a *model.Attribute) string {
	if slices.IsSorted(a.Values) {
		return ""
	}
	sorted := slices.Sorted(slices.Values(a.Values))
	return fmt.Sprintf("%s is an enum, whose key text sorts as text (%s), not in its declared order (%s)", a.Name, strings.Join(sorted, ", "), strings.Join(a.Values, ", "))
}

// inStringKey reports whether a can be a placeholder of a string key.
func inStringKey(a *model.Attribute) bool { return a.StoredForm().Key.Func != "" }

// joinTemplate makes a string key template of segments, with the
// separator ("#", or the separator of a path it holds) between any two of
// them; a literal that is the separator itself ends the key as is. It
// returns nil for no segments.
func joinTemplate(segs []model.Segment) *model.Template {
	if len(segs) == 0 {
		return nil
	}
	sep := "#"
	for _, s := range segs {
		if s.Attr != nil && s.Attr.Type == model.Path {
			sep = string(s.Attr.Separator)
		}
	}
	tm := &model.Template{KeyType: model.S}
	add := func(s model.Segment) {
		n := len(tm.Segments)
		if s.Attr == nil && n > 0 && tm.Segments[n-1].Attr == nil {
			tm.Segments[n-1].Literal += s.Literal
			return
		}
		tm.Segments = append(tm.Segments, s)
	}
	for i, s := range segs {
		if i > 0 && (s.Attr != nil || s.Literal != sep) {
			add(model.Segment{Literal: sep})
		}
		add(s)
	}
	tm.Source = tm.String()
	return tm
}

// stringKeyOK applies the rules of string key templates to a proposed
// template: placeholder types, enum values and path separators apart
// from the separators, one path, and a size within limit when bounded.
func stringKeyOK(tm *model.Template, limit int) bool {
	seps := tm.Separators()
	paths := 0
	for i, s := range tm.Segments {
		a := s.Attr
		if a == nil {
			continue
		}
		if !inStringKey(a) || (i > 0 && tm.Segments[i-1].Attr != nil) {
			return false
		}
		switch a.Type {
		case model.Enum:
			for _, v := range a.Values {
				if strings.ContainsAny(v, string(seps)) {
					return false
				}
			}
		case model.Path:
			paths++
			if !slices.Contains(seps, a.Separator) {
				return false
			}
		}
	}
	if size, ok := MaxKeyBytes(tm); paths > 1 || (ok && size > limit) {
		return false
	}
	return true
}

// retarget is tm written for entity e: the same text, with e's attributes
// of the same names; nil when e lacks one.
func retarget(tm *model.Template, e *model.Entity) *model.Template {
	out := &model.Template{Source: tm.Source, KeyType: tm.KeyType}
	for _, s := range tm.Segments {
		if s.Attr != nil {
			a := e.Attr(s.Attr.Name)
			if a == nil || a.Type != s.Attr.Type {
				return nil
			}
			s.Attr = a
		}
		out.Segments = append(out.Segments, s)
	}
	return out
}

// word is a name in capitals, letters and digits only, for literal text
// that can't hold a separator: customerId -> CUSTOMERID.
func word(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			b.WriteRune(unicode.ToUpper(r))
		}
	}
	if b.Len() == 0 {
		return "KEY"
	}
	return b.String()
}

// freeIndexName is prefix followed by the first number from n on that
// names no index and no key attribute of t.
func freeIndexName(t *model.Table, prefix string, n int) string {
	// taken reports whether a key attribute of that name would meet a
	// name the table holds already: a key attribute, an entity's stored
	// attribute, the entity attribute.
	taken := func(name string) bool {
		if t.KeyAttrNamed(name) != nil || name == t.EntityAttr {
			return true
		}
		for _, e := range t.Entities {
			if e.AttrStored(name) != nil {
				return true
			}
		}
		return false
	}
	for {
		name := fmt.Sprintf("%s%d", prefix, n)
		if t.Index(name) == nil && !taken(name+"PK") && !taken(name+"SK") {
			return name
		}
		n++
	}
}

// keyChange is a proposed new template for one key attribute of an
// entity, written in its keys entry for index ix.
type keyChange struct {
	e       *model.Entity
	ix      *model.Index
	keyAttr *model.KeyAttr
	tm      *model.Template
}

// String writes the change in the form of a keys entry.
func (c keyChange) String() string {
	which := "pk"
	if c.ix.SK != nil && c.keyAttr == c.ix.SK {
		which = "sk"
	}
	if cp := c.e.CopyOf; cp != nil {
		// A copy's templates are written in its owner's copies.
		return fmt.Sprintf("copies %s: {%s: %q} on %s", cp.Name, which, c.tm.Source, cp.Owner.Name)
	}
	if ea := c.e.EachOf; ea != nil {
		// An element item's templates are written in its owner's each.
		return fmt.Sprintf("each %s: {%s: %q} on %s", ea.Name, which, c.tm.Source, ea.Owner.Name)
	}
	return fmt.Sprintf("keys %s: {%s: %q} on %s", c.ix.Name, which, c.tm.Source, c.e.Name)
}

// changesOK reports whether the changes can be written as they are and
// give no key collision that the spec does not already have, on every
// index that holds the changed key attributes. When target is set, its
// two entities must no longer collide on the changes' index.
func changesOK(changes []keyChange, target []*model.Entity) bool {
	for _, c := range changes {
		if c.tm.KeyType != model.S {
			return false
		}
		limit := MaxSortKeyBytes
		if c.keyAttr == c.ix.PK {
			limit = MaxPartitionKeyBytes
		}
		if !stringKeyOK(c.tm, limit) {
			return false
		}
		// The entity writes the template once, in this keys entry.
		for _, k := range c.e.Keys {
			for i, tm := range k.AttrTemplates() {
				if k.Index.KeyAttrs()[i].Name == c.keyAttr.Name && !tm.Implied && k.Index != c.ix {
					return false
				}
			}
		}
	}
	// newKey is an entity's key on ix with the changes applied.
	newKey := func(e *model.Entity, ix *model.Index) (keylang.Key, bool) {
		k := e.Key(ix)
		key := keyOf(k)
		changed := false
		for _, c := range changes {
			if c.e != e {
				continue
			}
			if ix.PK.Name == c.keyAttr.Name {
				key.PK, changed = keyTemplate(c.tm), true
			}
			if ix.SK != nil && ix.SK.Name == c.keyAttr.Name {
				sk := keyTemplate(c.tm)
				key.SK, changed = &sk, true
			}
		}
		return key, changed
	}
	t := changes[0].e.Table
	for _, ix := range t.Indexes {
		if ix.Inverted {
			continue
		}
		var in []*model.Entity
		for _, e := range t.Entities {
			if e.Key(ix) != nil {
				in = append(in, e)
			}
		}
		for i, x := range in {
			for _, y := range in[i+1:] {
				kx, cx := newKey(x, ix)
				ky, cy := newKey(y, ix)
				if !cx && !cy {
					continue
				}
				if v, _ := keylang.Collide(kx, ky); v == keylang.Disjoint {
					continue
				}
				if ix == changes[0].ix && slices.Contains(target, x) && slices.Contains(target, y) {
					return false
				}
				// A pair that collides already is an error of its own; any
				// other must stay apart.
				if v, _ := keylang.Collide(keyOf(x.Key(ix)), keyOf(y.Key(ix))); v == keylang.Disjoint {
					return false
				}
			}
		}
	}
	return true
}

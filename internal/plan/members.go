package plan

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dyngen/dyngen/internal/model"
)

// members decides how the items a read returns are told apart: which
// other entities the key condition can read, and whether a literal sort
// key prefix or the entity attribute separates them. Where the next part
// of the sort key has a fixed-width encoding (a time, an int), it narrows
// the condition to that encoding's range when that keeps other entities
// out (a review keyed "{date}#..." next to its book keyed "BOOK#...").
func (b *builder) members(pp *Pattern, keys []*model.EntityKey) string {
	ix := pp.Index
	p := pp.Pattern
	if ix.Multi() {
		return b.membersMulti(pp)
	}
	kept, foreign := b.foreignEntities(p, ix, pp.Key)
	if len(foreign) > 0 && len(p.Entities) == 1 {
		if narrowed, ok := narrow(pp.Key.SK); ok {
			k := *pp.Key
			k.SK = narrowed
			if kn, f := b.foreignEntities(p, ix, &k); len(f) < len(foreign) {
				pp.Key.SK, kept, foreign = narrowed, kn, f
			}
		}
	}
	pp.KeptOut = kept
	needAttr := false
	if len(p.Entities) == 1 {
		how := ByKey
		if len(foreign) > 0 {
			how, needAttr = ByEntityAttr, true
		}
		pp.Members = []*Member{{Entity: p.Entity(), How: how}}
	} else {
		// Everything that can be read: the members and foreign entities.
		all := append(slices.Clone(p.Entities), foreign...)
		for i, e := range p.Entities {
			m := &Member{Entity: e, How: ByEntityAttr}
			lp := keys[i].SK.LiteralPrefix()
			if lp != "" && b.prefixSeparates(lp, e, all, ix) {
				m.How, m.Prefix = BySortKeyPrefix, lp
			} else {
				needAttr = true
			}
			pp.Members = append(pp.Members, m)
		}
	}
	how := BySortKeyPrefix
	if needAttr {
		how = ByEntityAttr
	}
	for _, f := range foreign {
		pp.Foreign = append(pp.Foreign, &Foreign{Entity: f, How: how})
	}
	if needAttr && !ix.Projects(ix.Table.EntityAttr) {
		var names []string
		for _, f := range foreign {
			names = append(names, f.Name)
		}
		return fmt.Sprintf("items of several entities (%s) share its key range, and it does not project the entity attribute %s that tells them apart", strings.Join(names, ", "), ix.Table.EntityAttr)
	}
	return ""
}

// foreignEntities lists the entities of ix, other than p's, that can
// share the partition: those whose items the key condition never reads
// (kept: counted when their sort keys' literal start keeps them out,
// named otherwise) and those whose items it can read (read), in the
// table's order.
//
// It runs for every read on every index that can serve it, over every
// entity of the table, so each entity should cost little: literal prefixes
// set most entities apart, and the other verdicts are shared by all
// templates of one language (langs).
func (b *builder) foreignEntities(p *model.Pattern, ix *model.Index, key *KeyCond) (KeptOut, []*model.Entity) {
	pk := b.langs.template(key.PK)
	pkLead := key.PK.LiteralPrefix()
	// Whether two templates of key.PK's language share a key (yes unless
	// the language is empty), worked out when first needed: -1 until then.
	pkSelf := -1
	region := -1
	// Every sort key the condition reads starts with this literal text;
	// a template that starts with other text is out at once.
	lead := regionLead(key.SK)
	kept, read := b.keptBuf[:0], b.readBuf[:0]
	byPrefix := 0
	for _, o := range b.onIndex(ix) {
		if slices.Contains(p.Entities, o.e) {
			continue
		}
		// Can the partition be shared? Yes for templates of the same shape;
		// no when their literal starts differ; else when their languages
		// share a key.
		if o.pk == pk {
			if pkSelf < 0 {
				pkSelf = 0
				if b.langs.overlaps(pk, pk) {
					pkSelf = 1
				}
			}
			if pkSelf == 0 && !sameShape(o.k.PK, key.PK) {
				continue
			}
		} else if diverge(o.pkLead, pkLead) || !b.langs.overlaps(o.pk, pk) {
			continue
		}
		if ix.SK != nil {
			if lead != "" && diverge(lead, o.skLead) {
				byPrefix++
				continue
			}
			if region < 0 {
				region = b.langs.region(key.SK, ix)
				if b.langs.lang(region) == nil {
					region = anyLang // skRegion's nil: any sort key
				}
			}
			if region != anyLang && !b.langs.overlaps(o.sk, region) {
				kept = append(kept, o.e)
				continue
			}
		}
		read = append(read, o.e)
	}
	// The lists are built in scratch space and copied out at their size:
	// with a thousand entities sharing a partition, growing them by
	// appending costs more than the rest of planning.
	b.keptBuf, b.readBuf = kept, read
	return KeptOut{ByPrefix: byPrefix, Others: clone(kept)}, clone(read)
}

// membersMulti decides the members of a read of an index with a
// multi-attribute key, where no sort key text tells entities apart: the
// key condition must read no item of another entity. Another entity's
// items are out when one attribute the condition binds with equality
// holds values of that entity's that can't be the ones bound (its type
// value, an enum value of its own). A collection's members are told by
// the entity attribute.
func (b *builder) membersMulti(pp *Pattern) string {
	ix, p := pp.Index, pp.Pattern
	bound := pp.Key.Bound()
	var kept, read []*model.Entity
	for _, e := range ix.Table.Entities {
		k := e.Key(ix)
		if k == nil || slices.Contains(p.Entities, e) {
			continue
		}
		apart := slices.ContainsFunc(bound, func(bp BoundPart) bool {
			return !b.langs.overlaps(b.langs.template(k.Parts[bp.Part]), b.langs.template(bp.Tm))
		})
		if apart {
			kept = append(kept, e)
		} else {
			read = append(read, e)
		}
	}
	pp.KeptOut = KeptOut{Others: kept}
	var refused []string
	for _, e := range read {
		if !slices.Contains(p.Drops, e) {
			refused = append(refused, e.Name)
		}
	}
	if len(refused) > 0 {
		return fmt.Sprintf("its key condition can read items of %s: they hold every key attribute of %s, and their values can be the ones it binds (%s); %s, or accept reading and dropping them (billed) with drops: [%s]", strings.Join(refused, ", "), ix.Name, multiBound(bound), multiApart(ix, pp.Key.SK.Prefix), strings.Join(refused, ", "))
	}
	how := ByKey
	if len(p.Entities) > 1 || len(read) > 0 {
		how = ByEntityAttr
		if !ix.Projects(ix.Table.EntityAttr) {
			return fmt.Sprintf("it reads several entities, told apart by the entity attribute %s, which it does not project", ix.Table.EntityAttr)
		}
	}
	for _, e := range p.Entities {
		pp.Members = append(pp.Members, &Member{Entity: e, How: how})
	}
	for _, e := range read {
		pp.Foreign = append(pp.Foreign, &Foreign{Entity: e, How: ByEntityAttr})
	}
	return ""
}

// multiBound names the key attributes a key condition binds: "tenantId,
// region".
func multiBound(bound []BoundPart) string {
	var names []string
	for _, bp := range bound {
		names = append(names, bp.Attr.Name)
	}
	return strings.Join(names, ", ")
}

// multiApart proposes how a read of ix that binds prefix attributes of its
// multi-attribute sort key can keep other entities out: by binding the
// entity attribute, placed in the sort key right after them.
func multiApart(ix *model.Index, prefix int) string {
	attr := ix.Table.EntityAttr
	sks := ix.SortKeys()
	if i := slices.IndexFunc(sks, func(ka *model.KeyAttr) bool { return ka.Name == attr }); i >= 0 {
		return fmt.Sprintf("the entity attribute %s is in the sort key of %s, after %s, which the pattern does not bind; move %s before it, or bind it with by", attr, ix.Name, sks[prefix].Name, attr)
	}
	if len(sks) == model.MaxKeyParts {
		return fmt.Sprintf("give %s a key attribute that tells the entities apart", ix.Name)
	}
	with := slices.Concat(sks[:prefix], []*model.KeyAttr{{Name: attr, Type: model.S}}, sks[prefix:])
	return fmt.Sprintf("add the entity attribute %s to the sort key of %s after the attributes the pattern binds (sortKey: %s), so that the key condition binds it", attr, ix.Name, keyAttrsSpec(with))
}

// indexed is an entity's key on an index, with what foreignEntities
// looks at.
type indexed struct {
	e              *model.Entity
	k              *model.EntityKey
	pk, sk         int    // language numbers of the templates (sk -1 without)
	pkLead, skLead string // their literal starts
}

// onIndex lists the entities with a key on ix, in the table's order.
func (b *builder) onIndex(ix *model.Index) []indexed {
	if l, ok := b.indexed[ix]; ok {
		return l
	}
	var l []indexed
	for _, e := range ix.Table.Entities {
		k := e.Key(ix)
		if k == nil {
			continue
		}
		o := indexed{e: e, k: k, pk: b.langs.template(k.PK), sk: -1, pkLead: k.PK.LiteralPrefix()}
		if k.SK != nil {
			o.sk, o.skLead = b.langs.template(k.SK), k.SK.LiteralPrefix()
		}
		l = append(l, o)
	}
	b.indexed[ix] = l
	return l
}

// clone copies s, nil when empty.
func clone[S ~[]E, E any](s S) S {
	if len(s) == 0 {
		return nil
	}
	return slices.Clone(s)
}

// diverge reports whether two literal texts, both non-empty, differ before
// either ends, so that no string starts with both.
func diverge(x, y string) bool {
	n := min(len(x), len(y))
	return n > 0 && x[:n] != y[:n]
}

// narrow bounds an open or prefix condition to the range of encodings of
// the next placeholder, when its encoding has a fixed least and greatest
// value.
func narrow(s SKCond) (SKCond, bool) {
	if s.Template == nil || s.Template.KeyType != model.S || s.Range != nil || (s.Kind != SKNone && s.Kind != SKBeginsWith) {
		return s, false
	}
	if s.Prefix >= len(s.Template.Segments) {
		return s, false
	}
	x := s.Template.Segments[s.Prefix].Attr
	if x == nil || !x.KeepsOrder() {
		return s, false
	}
	s.Kind = SKBetween
	s.Lo = Bound{Value: Least}
	s.Hi = Bound{Value: Greatest, High: true}
	s.Narrowed = true
	return s, true
}

// prefixSeparates reports whether no entity of all other than e can have
// a sort key starting with lp (in a partition e's key can share).
func (b *builder) prefixSeparates(lp string, e *model.Entity, all []*model.Entity, ix *model.Index) bool {
	pre := -1
	for _, o := range all {
		if o == e {
			continue
		}
		sk := o.Key(ix).SK
		if diverge(lp, sk.LiteralPrefix()) {
			continue
		}
		if pre < 0 {
			pre = b.langs.prefix(lp)
		}
		if b.langs.overlaps(b.langs.template(sk), pre) {
			return false
		}
	}
	return true
}

// projects checks rule 5: the index carries every attribute the result
// needs, or the attribute can be read back from a key it carries.
func projects(pp *Pattern) string {
	ix := pp.Index
	p := pp.Pattern
	for _, e := range p.Entities {
		need := e.Attributes
		if len(p.Select) > 0 {
			need = slices.Clone(p.Select)
			for _, a := range e.PrimaryKey().Attrs() {
				if !slices.Contains(need, a) {
					need = append(need, a)
				}
			}
		}
		for _, a := range need {
			if ix.Projects(a.Stored) {
				continue
			}
			if inKeys(e, ix, a) {
				if !slices.Contains(pp.FromKeys, a) {
					pp.FromKeys = append(pp.FromKeys, a)
				}
				continue
			}
			fix := "select the attributes the pattern needs"
			if len(p.Select) > 0 {
				fix = "select fewer attributes"
			}
			return fmt.Sprintf("it does not project %s of %s (projection %s); project it, or %s", a.Name, e.Name, projectionName(ix), fix)
		}
	}
	return ""
}

func projectionName(ix *model.Index) string {
	switch ix.Projection {
	case model.ProjectKeys:
		return "keys"
	case model.ProjectInclude:
		return "[" + strings.Join(ix.Include, ", ") + "]"
	}
	return "all"
}

// inKeys reports whether a is a placeholder of a key template whose key
// attribute ix carries: its own keys or the table's.
func inKeys(e *model.Entity, ix *model.Index, a *model.Attribute) bool {
	if k := e.Key(ix); k != nil && slices.Contains(k.Attrs(), a) {
		return true
	}
	return slices.Contains(e.PrimaryKey().Attrs(), a)
}

// regionLead is the literal text every sort key a condition reads starts
// with: the literal text its bound prefix starts with ("" when none).
func regionLead(s SKCond) string {
	if s.Template == nil || s.Kind == SKNone || s.Template.KeyType != model.S {
		return ""
	}
	switch s.Kind {
	case SKEq, SKBeginsWith, SKBetween:
	default:
		return ""
	}
	if s.Prefix == 0 || s.Template.Segments[0].Attr != nil {
		return ""
	}
	return s.Template.Segments[0].Literal
}

// sameShape reports whether two templates have the same literal text and
// placeholders of the same kind in the same places: then they give the
// same keys (a template always gives some key).
func sameShape(x, y *model.Template) bool {
	if x.KeyType != y.KeyType || len(x.Segments) != len(y.Segments) {
		return false
	}
	for i, a := range x.Segments {
		c := y.Segments[i]
		switch {
		case (a.Attr == nil) != (c.Attr == nil):
			return false
		case a.Attr == nil:
			if a.Literal != c.Literal {
				return false
			}
		case a.Attr.StoredForm().Key.Lang != c.Attr.StoredForm().Key.Lang || x.TakesEmpty(a.Attr) != y.TakesEmpty(c.Attr) || !slices.Equal(a.Attr.Values, c.Attr.Values) || a.Attr.Separator != c.Attr.Separator:
			return false
		}
	}
	return true
}

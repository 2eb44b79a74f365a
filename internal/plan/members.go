package plan

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dyngen/dyngen/internal/keylang"
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
	sharing, foreign := b.foreignEntities(p, ix, pp.Key)
	if len(foreign) > 0 && len(p.Entities) == 1 {
		if narrowed, ok := narrow(pp.Key.SK); ok {
			k := *pp.Key
			k.SK = narrowed
			if _, f := b.foreignEntities(p, ix, &k); len(f) < len(foreign) {
				pp.Key.SK, foreign = narrowed, f
			}
		}
	}
	for _, e := range sharing {
		if !slices.Contains(foreign, e) {
			pp.KeptOut = append(pp.KeptOut, e)
		}
	}
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
// share the partition, and those of them whose items the key condition
// can read.
func (b *builder) foreignEntities(p *model.Pattern, ix *model.Index, key *KeyCond) (sharing, read []*model.Entity) {
	var region *keylang.Lang
	regionDone := false
	// Every sort key the condition reads starts with this literal text;
	// a template that starts with other text is out at once.
	lead := regionLead(key.SK)
	for _, e := range ix.Table.Entities {
		if slices.Contains(p.Entities, e) {
			continue
		}
		k := e.Key(ix)
		if k == nil || !b.pkOverlap(k.PK, key.PK) {
			continue
		}
		sharing = append(sharing, e)
		if ix.SK != nil {
			if lit := k.SK.LiteralPrefix(); lead != "" && lit != "" && !strings.HasPrefix(lead, lit) && !strings.HasPrefix(lit, lead) {
				continue
			}
			if !regionDone {
				region, regionDone = skRegion(key.SK, ix), true
			}
			if region != nil && !overlaps(b.langs.of(k.SK), region) {
				continue
			}
		}
		read = append(read, e)
	}
	return sharing, read
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
	pre := prefixLang(lp)
	for _, o := range all {
		if o == e {
			continue
		}
		if overlaps(b.langs.of(o.Key(ix).SK), pre) {
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

// pkOverlap reports, once per pair of templates, whether two partition
// key templates can give the same key.
func (b *builder) pkOverlap(x, y *model.Template) bool {
	pair := [2]*model.Template{x, y}
	if v, ok := b.overlap[pair]; ok {
		return v
	}
	v := sameShape(x, y) || !literalsDiverge(x, y) && overlaps(b.langs.of(x), b.langs.of(y))
	b.overlap[pair] = v
	return v
}

// literalsDiverge reports whether the literal texts two templates start
// with differ, so that no key of one is a key of the other.
func literalsDiverge(x, y *model.Template) bool {
	a, c := x.LiteralPrefix(), y.LiteralPrefix()
	return a != "" && c != "" && !strings.HasPrefix(a, c) && !strings.HasPrefix(c, a)
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
		case a.Attr.StoredForm().Key.Lang != c.Attr.StoredForm().Key.Lang || !slices.Equal(a.Attr.Values, c.Attr.Values) || a.Attr.Separator != c.Attr.Separator:
			return false
		}
	}
	return true
}

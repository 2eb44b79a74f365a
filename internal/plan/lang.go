package plan

import (
	"github.com/dyngen/dyngen/internal/keylang"
	"github.com/dyngen/dyngen/internal/model"
)

// keyTemplate converts a model template to its key language form. A
// whole N key is a number, which the Int language stands for (any two
// numeric placeholders can hold the same number); a whole B key is any
// non-empty value.
func keyTemplate(t *model.Template) keylang.Template {
	var out keylang.Template
	for _, s := range t.Segments {
		if s.Attr == nil {
			out.Segs = append(out.Segs, keylang.Segment{Lit: s.Literal})
			continue
		}
		seg := keylang.Segment{Var: s.Attr.Name, Kind: s.Attr.StoredForm().Key.Lang, Values: s.Attr.Values, PathSep: s.Attr.Separator}
		switch t.KeyType {
		case model.N:
			seg.Kind = keylang.Int
		case model.B:
			seg.Kind = keylang.String
		}
		out.Segs = append(out.Segs, seg)
	}
	return out
}

// langs caches the language of each template: the planner asks for the
// same templates' languages for every pattern on their index.
type langs map[*model.Template]*keylang.Lang

// of is the language of every key a template can produce.
func (c langs) of(t *model.Template) *keylang.Lang {
	if l, ok := c[t]; ok {
		return l
	}
	l := keylang.TemplateLang(keyTemplate(t))
	c[t] = &l
	return &l
}

// prefixLang is every string that starts with s.
func prefixLang(s string) *keylang.Lang {
	l := keylang.Concat(keylang.Literal(s), keylang.Any())
	return &l
}

// skRegion is the language of sort keys a condition can read, over every
// value of its inputs; nil means any sort key.
func skRegion(s SKCond, ix *model.Index) *keylang.Lang {
	if ix.SK == nil || s.Template == nil {
		return nil
	}
	kt := keyTemplate(s.Template)
	switch s.Kind {
	case SKEq:
		l := keylang.TemplateLang(kt)
		return &l
	case SKBeginsWith:
		if s.Prefix == 0 {
			return nil
		}
		l := keylang.Prefix(kt, s.Prefix)
		return &l
	case SKBetween:
		if s.Template.KeyType != model.S || s.Prefix >= len(kt.Segs) {
			return nil
		}
		k := kt.Segs[s.Prefix].Kind
		lo, okLo := keylang.MinEnc(k)
		hi, okHi := keylang.MaxEnc(k)
		if !okLo || !okHi {
			if s.Prefix == 0 {
				return nil
			}
			l := keylang.Prefix(kt, s.Prefix)
			return &l
		}
		parts := make([]keylang.Lang, 0, s.Prefix+1)
		for i := range s.Prefix {
			parts = append(parts, keylang.SegmentLang(kt, i))
		}
		parts = append(parts, keylang.Interval(lo, hi+string(HighChar)))
		l := keylang.Concat(parts...)
		return &l
	}
	return nil
}

// overlaps reports whether two languages share a string; nil is every
// string.
func overlaps(a, b *keylang.Lang) bool {
	switch {
	case a == nil && b == nil:
		return true
	case a == nil:
		return !b.IsEmpty()
	case b == nil:
		return !a.IsEmpty()
	}
	return !keylang.Intersect(*a, *b).IsEmpty()
}

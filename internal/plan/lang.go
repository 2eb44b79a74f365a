package plan

import (
	"fmt"
	"strconv"

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
		seg := keylang.Segment{Var: s.Attr.Name, Kind: s.Attr.StoredForm().Key.Lang, Values: s.Attr.Values, PathSep: s.Attr.Separator, Empty: t.TakesEmpty(s.Attr)}
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

// langs numbers the languages the planner intersects (those of key
// templates, of the sort keys a condition reads and of literal prefixes)
// and remembers which pairs share a string. A language is known by a
// description of what it is built from: two templates with the same
// literal text and placeholders of the same kinds, whatever their names,
// give the same keys, so the thousand entities of a table keyed
// "OWNER#{owner}" have one language, built once, and each pair of
// languages is intersected once.
type langs struct {
	ids   map[string]int
	list  []*keylang.Lang // by number, built when first needed; nil is every string
	build []func() *keylang.Lang
	// byTemplate holds the number of each template met.
	byTemplate map[*model.Template]int
	overlap    map[[2]int32]bool
}

// anyLang is the number of the language of every string.
const anyLang = 0

func newLangs() *langs {
	c := &langs{ids: map[string]int{}, byTemplate: map[*model.Template]int{}, overlap: map[[2]int32]bool{}}
	c.intern("*", func() *keylang.Lang { return nil })
	return c
}

// intern numbers the language described by desc, which build makes.
func (c *langs) intern(desc string, build func() *keylang.Lang) int {
	if id, ok := c.ids[desc]; ok {
		return id
	}
	id := len(c.list)
	c.ids[desc] = id
	c.list = append(c.list, nil)
	c.build = append(c.build, build)
	return id
}

// lang is the language numbered id; nil is every string.
func (c *langs) lang(id int) *keylang.Lang {
	if f := c.build[id]; f != nil {
		c.list[id], c.build[id] = f(), nil
	}
	return c.list[id]
}

// template numbers the language of every key t can produce.
func (c *langs) template(t *model.Template) int {
	if id, ok := c.byTemplate[t]; ok {
		return id
	}
	kt := keyTemplate(t)
	id := c.intern("T"+describe(t.KeyType, kt), func() *keylang.Lang {
		l := keylang.TemplateLang(kt)
		return &l
	})
	c.byTemplate[t] = id
	return id
}

// region numbers the language of sort keys a condition on ix can read
// (skRegion). The description holds only what skRegion reads, so that
// conditions that read the same keys share a number: the whole template
// for an equality, else the kind of condition, the bound segments, the
// template's separators (which its placeholders' values exclude) and,
// for a range, the kind of the placeholder it bounds.
func (c *langs) region(s SKCond, ix *model.Index) int {
	if ix.SK == nil || s.Template == nil {
		return anyLang
	}
	switch s.Kind {
	case SKEq:
		return c.template(s.Template)
	case SKBeginsWith, SKBetween:
	default:
		return anyLang
	}
	kt := keyTemplate(s.Template)
	n := min(s.Prefix, len(kt.Segs))
	desc := fmt.Sprintf("R%d,%q,%s,%s", s.Kind, kt.Seps(), describe(s.Template.KeyType, keylang.Template{Segs: kt.Segs[:n]}), s.Template.KeyType)
	if s.Kind == SKBetween {
		if s.Prefix < len(kt.Segs) {
			desc += fmt.Sprintf(",next %d", kt.Segs[s.Prefix].Kind)
		} else {
			desc += ",end"
		}
	}
	return c.intern(desc, func() *keylang.Lang { return skRegion(s, ix) })
}

// prefix numbers the language of every string that starts with s.
func (c *langs) prefix(s string) int {
	return c.intern("P"+s, func() *keylang.Lang { return prefixLang(s) })
}

// overlaps reports whether the languages numbered a and b share a string.
func (c *langs) overlaps(a, b int) bool {
	pair := [2]int32{int32(min(a, b)), int32(max(a, b))}
	if v, ok := c.overlap[pair]; ok {
		return v
	}
	v := overlaps(c.lang(a), c.lang(b))
	c.overlap[pair] = v
	return v
}

// describe writes down everything the language of a key template depends
// on: its key type, literal text and each placeholder's kind, whether it
// may be empty, enum values and path separator (not its name).
func describe(kt model.ScalarType, t keylang.Template) string {
	b := []byte(kt)
	for _, s := range t.Segs {
		if !s.IsVar() {
			b = append(b, 'L')
			b = strconv.AppendQuote(b, s.Lit)
			continue
		}
		b = append(b, 'V')
		if s.Empty {
			b = append(b, 'E')
		}
		b = strconv.AppendInt(b, int64(s.Kind), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(s.PathSep), 10)
		for _, v := range s.Values {
			b = append(b, ',')
			b = strconv.AppendQuote(b, v)
		}
		b = append(b, ';')
	}
	return string(b)
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
	return keylang.Overlaps(*a, *b)
}

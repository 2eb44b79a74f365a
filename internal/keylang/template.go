package keylang

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode"
)

// Kind is the type of a placeholder, which fixes how its value is written
// into a key.
type Kind int

// The placeholder kinds.
const (
	String Kind = iota
	Path
	Enum
	Int
	Time
	Date
	Bool
)

var kindNames = [...]string{"String", "Path", "Enum", "Int", "Time", "Date", "Bool"}

func (k Kind) String() string {
	if k >= 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Segment is a piece of a template: literal text when Var is empty,
// otherwise a placeholder.
type Segment struct {
	Lit     string   // literal text, when Var == ""
	Var     string   // placeholder name
	Kind    Kind     // placeholder kind
	Values  []string // the values of an Enum
	PathSep rune     // the element separator of a Path
	// Empty is set when a String placeholder may also hold the empty
	// string (an optional attribute's present "" in a template with
	// literal text, whose key is never empty).
	Empty bool
}

// IsVar reports whether the segment is a placeholder.
func (s Segment) IsVar() bool { return s.Var != "" }

// Template is a key template: literal text and typed placeholders.
type Template struct{ Segs []Segment }

// Key is an entity's key on one index: the partition key template and, when
// the index has a sort key, the sort key template.
type Key struct {
	PK Template
	SK *Template
}

// Seps returns the template's separator characters: every character of its
// literal text that is neither a letter nor a digit, sorted.
func (t Template) Seps() []rune {
	var out []rune
	for _, s := range t.Segs {
		if s.IsVar() {
			continue
		}
		for _, r := range s.Lit {
			if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !slices.Contains(out, r) {
				out = append(out, r)
			}
		}
	}
	slices.Sort(out)
	return out
}

// String returns the template as written, e.g. "BOOK#{isbn}".
func (t Template) String() string {
	var b strings.Builder
	for _, s := range t.Segs {
		if s.IsVar() {
			b.WriteString("{" + s.Var + "}")
		} else {
			b.WriteString(s.Lit)
		}
	}
	return b.String()
}

func (k Key) String() string {
	if k.SK == nil {
		return k.PK.String()
	}
	return k.PK.String() + " / " + k.SK.String()
}

// Validate checks the rules the caller is expected to enforce: a
// placeholder name at most once per template, at most one Path, a Path's
// separator among the template's separators, Enum values non-empty and free
// of separators, and two placeholders always parted by literal text holding
// a separator. Collide does not need them to hold (it never panics and
// never answers wrongly), but they keep its search small: with a name used
// twice in one template it may run out of its work budget and answer
// Undecided.
func (t Template) Validate() error {
	seps := t.Seps()
	seen := map[string]bool{}
	paths := 0
	lastVar := -1
	for i, s := range t.Segs {
		if !s.IsVar() {
			if containsAny(s.Lit, seps) {
				lastVar = -1
			}
			continue
		}
		if lastVar >= 0 {
			return fmt.Errorf("%s: placeholders {%s} and {%s} are not parted by a separator", t, t.Segs[lastVar].Var, s.Var)
		}
		lastVar = i
		if seen[s.Var] {
			return fmt.Errorf("%s: placeholder {%s} appears twice", t, s.Var)
		}
		seen[s.Var] = true
		switch s.Kind {
		case Path:
			paths++
			if !slices.Contains(seps, s.PathSep) {
				return fmt.Errorf("%s: path separator %q of {%s} is not a separator of the template", t, s.PathSep, s.Var)
			}
		case Enum:
			if len(s.Values) == 0 {
				return fmt.Errorf("%s: enum {%s} has no values", t, s.Var)
			}
			for _, v := range s.Values {
				if v == "" || containsAny(v, seps) {
					return fmt.Errorf("%s: enum {%s} value %q is empty or holds a separator", t, s.Var, v)
				}
			}
		case String, Int, Time, Date, Bool:
		default:
			return fmt.Errorf("%s: placeholder {%s} has unknown kind %v", t, s.Var, s.Kind)
		}
	}
	if paths > 1 {
		return fmt.Errorf("%s: more than one path placeholder", t)
	}
	return nil
}

// Validate checks both templates (Template.Validate) and that a
// placeholder used by both has one kind.
func (k Key) Validate() error {
	if err := k.PK.Validate(); err != nil {
		return err
	}
	if k.SK == nil {
		return nil
	}
	if err := k.SK.Validate(); err != nil {
		return err
	}
	for _, a := range k.PK.Segs {
		for _, b := range k.SK.Segs {
			if a.IsVar() && a.Var == b.Var && a.Kind != b.Kind {
				return fmt.Errorf("%v: placeholder {%s} is %v in the partition key, %v in the sort key", k, a.Var, a.Kind, b.Kind)
			}
		}
	}
	return nil
}

func containsAny(s string, rs []rune) bool {
	for _, r := range s {
		if slices.Contains(rs, r) {
			return true
		}
	}
	return false
}

// TemplateLang returns the language of t: every key string t can produce.
func TemplateLang(t Template) Lang {
	ls := make([]Lang, len(t.Segs))
	for i := range t.Segs {
		ls[i] = SegmentLang(t, i)
	}
	return Concat(ls...)
}

// Prefix returns the language of the first n segments of t followed by any
// string: every string that begins with what t produces for its first n
// segments. n is clamped to [0, len(t.Segs)].
func Prefix(t Template, n int) Lang {
	n = max(0, min(n, len(t.Segs)))
	ls := make([]Lang, 0, n+1)
	for i := range n {
		ls = append(ls, SegmentLang(t, i))
	}
	return Concat(append(ls, Any())...)
}

// SegmentLang returns the language of segment i of t: the literal itself,
// or the encodings of the placeholder's values in this template.
func SegmentLang(t Template, i int) Lang {
	if i < 0 || i >= len(t.Segs) {
		return Empty()
	}
	s := t.Segs[i]
	if !s.IsVar() {
		return Literal(s.Lit)
	}
	return ValueLang(s, t.Seps())
}

// ValueLang returns the language of a placeholder's encoded values in a
// template whose separator characters are seps.
func ValueLang(s Segment, seps []rune) Lang {
	switch s.Kind {
	case String:
		l := plus(chars(scalarsWithout(append(slices.Clone(seps), MaxRune))))
		if s.Empty {
			l = Union(Epsilon(), l)
		}
		return l
	case Path:
		// The path separator is one of seps; should a caller break that
		// rule, elements still exclude it, as CheckPath does.
		elem := plus(chars(scalarsWithout(append(slices.Clone(seps), s.PathSep, MaxRune))))
		return Concat(elem, star(Concat(Literal(string(s.PathSep)), elem)))
	case Enum:
		ls := make([]Lang, len(s.Values))
		for i, v := range s.Values {
			ls[i] = Literal(v)
		}
		return Union(ls...)
	case Int:
		return intLang()
	case Time:
		return timeLang()
	case Date:
		return dateLang()
	case Bool:
		return Union(Literal("false"), Literal("true"))
	}
	return Empty()
}

// maxIntDigits is math.MaxInt64 in decimal: the greatest 19-digit body of
// an Int encoding.
const maxIntDigits = "9223372036854775807"

// intLang is the language of Int encodings: 19 decimal digits up to
// 9223372036854775807, optionally preceded by "-".
var intLang = sync.OnceValue(func() Lang {
	// States 0..19: equal to the bound so far; 20+i: below it after i digits.
	n := len(maxIntDigits)
	l := Lang{edges: make([][]edge, 2*n+1), start: []int{0}, final: make([]bool, 2*n+1)}
	below := func(i int) int { return n + i }
	for i := range n {
		d := rune(maxIntDigits[i])
		l.edges[i] = append(l.edges[i], edge{d, d, i + 1})
		if d > '0' {
			l.edges[i] = append(l.edges[i], edge{'0', d - 1, below(i + 1)})
		}
		if i > 0 {
			l.edges[below(i)] = append(l.edges[below(i)], edge{'0', '9', below(i + 1)})
		}
	}
	l.final[n] = true
	l.final[below(n)] = true
	digits := l.trim()
	return compact(Union(digits, Concat(Literal("-"), digits)))
})

var digit = sync.OnceValue(func() Lang { return charRange('0', '9') })

// dateLang is YYYY-MM-DD with years 0000-9999, months 01-12, days 01-31.
var dateLang = sync.OnceValue(func() Lang {
	month := Union(Concat(Literal("0"), charRange('1', '9')), Concat(Literal("1"), charRange('0', '2')))
	day := Union(
		Concat(Literal("0"), charRange('1', '9')),
		Concat(charRange('1', '2'), digit()),
		Concat(Literal("3"), charRange('0', '1')))
	return compact(Concat(repeat(digit(), 4), Literal("-"), month, Literal("-"), day))
})

// timeLang is YYYY-MM-DDTHH:MM:SS.nnnnnnnnnZ with the field ranges of
// dateLang, hours 00-23, minutes and seconds 00-59.
var timeLang = sync.OnceValue(func() Lang {
	hour := Union(Concat(charRange('0', '1'), digit()), Concat(Literal("2"), charRange('0', '3')))
	sixty := Concat(charRange('0', '5'), digit())
	return compact(Concat(dateLang(), Literal("T"), hour, Literal(":"), sixty, Literal(":"), sixty,
		Literal("."), repeat(digit(), 9), Literal("Z")))
})

// MaxRune is the greatest code point. No String or Path value holds it:
// appended to a bound, it puts the bound above every key that starts with
// the bound's text.
const MaxRune = '\U0010FFFF'

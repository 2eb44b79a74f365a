package keylang

import (
	"math/rand/v2"
	"testing"
)

func TestLangBasics(t *testing.T) {
	ab := Concat(Literal("a"), Union(Literal("b"), Literal("cd")))
	for s, want := range map[string]bool{"ab": true, "acd": true, "a": false, "abcd": false, "": false} {
		if ab.Contains(s) != want {
			t.Errorf("Contains(%q) = %v", s, !want)
		}
	}
	if s, ok := ab.Shortest(); !ok || s != "ab" {
		t.Errorf("Shortest = %q %v", s, ok)
	}
	if !Empty().IsEmpty() || Epsilon().IsEmpty() || !Any().Contains("") || !Any().Contains("x\U0010FFFF") {
		t.Error("Empty/Epsilon/Any")
	}
	if !Intersect(Literal("ab"), Literal("ac")).IsEmpty() {
		t.Error("Intersect of different literals not empty")
	}
	if _, ok := Empty().Shortest(); ok {
		t.Error("Shortest of empty")
	}
	if !Equal(Concat(Any(), Any()), Any()) || Equal(Any(), Literal("a")) {
		t.Error("Equal")
	}
	if !Subset(Literal("x"), Any()) || Subset(Any(), Literal("x")) {
		t.Error("Subset")
	}
}

func TestPrefixAndTemplateLang(t *testing.T) {
	tm := tpl(lit("BOOK#"), str("isbn"), lit("#V"))
	l := TemplateLang(tm)
	if !l.Contains("BOOK#123#V") || l.Contains("BOOK#1#2#V") || l.Contains("BOOK##V") {
		t.Error("TemplateLang")
	}
	p := Prefix(tm, 1)
	if !p.Contains("BOOK#") || !p.Contains("BOOK#anything#at:all") || p.Contains("BOO") {
		t.Error("Prefix 1")
	}
	p2 := Prefix(tm, 2)
	if !p2.Contains("BOOK#1") || !p2.Contains("BOOK#1#x") || p2.Contains("BOOK#") {
		t.Error("Prefix 2")
	}
	if !Equal(Prefix(tm, 99), Concat(l, Any())) || !Equal(Prefix(tm, -1), Any()) {
		t.Error("Prefix clamp")
	}
	// Would items of "{date}#USER#{username}" fall into begins_with "BOOK#"?
	other := tpl(Segment{Var: "date", Kind: Date}, lit("#USER#"), str("username"))
	if !Intersect(TemplateLang(other), Prefix(tpl(lit("BOOK#")), 1)).IsEmpty() {
		t.Error("date-led sort keys fall under BOOK#")
	}
	// Or into BETWEEN 2021-01-01 AND 2021-12-31~?
	if Intersect(TemplateLang(other), Interval("2021-01-01", "2021-12-31~")).IsEmpty() {
		t.Error("date range misses")
	}
}

func TestIntervalRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	alpha := []rune("ab#\u00e9")
	word := func() string {
		n := r.IntN(4)
		rs := make([]rune, n)
		for i := range rs {
			rs[i] = alpha[r.IntN(len(alpha))]
		}
		return string(rs)
	}
	for range 300 {
		lo, hi := word(), word()
		l := Interval(lo, hi)
		for range 30 {
			s := word()
			if want := lo <= s && s <= hi; l.Contains(s) != want {
				t.Fatalf("Interval(%q, %q).Contains(%q) = %v", lo, hi, s, !want)
			}
		}
		if s, ok := l.Shortest(); ok != (lo <= hi) || (ok && !(lo <= s && s <= hi)) {
			t.Fatalf("Interval(%q, %q).Shortest = %q %v", lo, hi, s, ok)
		}
	}
}

func TestCompact(t *testing.T) {
	ls := []Lang{
		intLang(), timeLang(), dateLang(),
		Union(Literal("ab"), Literal("abab"), Literal("b")),
		Concat(plus(Literal("ab")), Any()),
		Interval("a#", "b:c"),
		Prefix(tpl(lit("C#"), path("p", '#'), lit("#"), kind("n", Int)), 3),
	}
	for i, l := range ls {
		c := compact(l)
		if !Equal(c, l) {
			t.Errorf("%d: compact changed the language", i)
		}
		if len(c.edges) > len(determinize(l).edges) {
			t.Errorf("%d: compact grew", i)
		}
	}
	// The minimal automaton for Int: 19 digits below or at the bound
	// (2 x 19 states after the first), an optional "-", and the start.
	if n := len(intLang().edges); n > 40 {
		t.Errorf("int automaton has %d states", n)
	}
}

// TestOverlapsRandom compares Overlaps with the emptiness of the
// intersection on random languages of templates, prefixes, intervals and
// their unions.
func TestOverlapsRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	g := keyGen{r}
	word := func() string {
		rs := make([]rune, r.IntN(4))
		for i := range rs {
			rs[i] = valueAlpha[r.IntN(len(valueAlpha))]
		}
		return string(rs)
	}
	var random func(depth int) Lang
	random = func(depth int) Lang {
		switch x := r.IntN(7); {
		case x == 0:
			return Literal(word())
		case x == 1:
			return Interval(word(), word())
		case x == 2:
			tm := g.template(nil, "pq")
			return Prefix(tm, r.IntN(len(tm.Segs)+1))
		case x == 3 && depth < 2:
			return Union(random(depth+1), random(depth+1))
		case x == 4 && depth < 2:
			return Concat(random(depth+1), random(depth+1))
		case x == 5:
			return Empty()
		}
		return TemplateLang(g.template(nil, "pq"))
	}
	both := 0
	for range 3000 {
		a, b := random(0), random(0)
		want := !Intersect(a, b).IsEmpty()
		if got := Overlaps(a, b); got != want {
			s, _ := Intersect(a, b).Shortest()
			t.Fatalf("Overlaps = %v, want %v (a shared string: %q)", got, want, s)
		}
		if want {
			both++
		}
	}
	if both < 300 || both > 2700 {
		t.Errorf("%d of 3000 pairs overlap: the test says little", both)
	}
}

package keylang

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// The brute-force cross-check compares Collide with an enumeration of
// small values on random small keys.
//
// Each side's values are enumerated over the alphabet valueAlpha (the
// literal alphabet plus one letter no literal uses) up to a length bound L
// chosen per side so the enumeration stays small (L is at least 2 and
// usually 3 or 4); every key pair (pk, sk) is computed and the two sets are
// intersected. Both directions are then checked:
//
//   - if the enumeration finds a collision, Collide must answer Collision
//     (a Disjoint would be wrong, whatever the bound);
//   - if Collide answers Collision, its witness must render to equal keys
//     on both sides; and if every witness value lies in the enumerated
//     space (length <= L, characters of valueAlpha), the enumeration must
//     have found a collision too.
//
// Why a small bound shows a wrong Disjoint: literals here are at most two
// characters and templates at most three segments, so a collision aligns
// each value against at most a few literal characters and a few values of
// the other side; the word equations that arise (x = a·y with x = y·a and
// the like) have their least solutions within a few characters. The test
// logs how many of Collide's collisions the enumeration also found: when
// it finds nearly all of them, the bound is large enough to catch a
// checker that misses collisions.

var (
	litAlpha   = []rune("ab#:")
	valueAlpha = []rune("ab#:c")
	sepAlpha   = []rune("#:")
)

type keyGen struct{ r *rand.Rand }

// template makes a random template of 0-3 segments that follows the rules
// of Validate. reuse offers placeholders of the other template of the key
// to share.
func (g keyGen) template(reuse []Segment, names string) Template {
	r := g.r
	n := r.IntN(4)
	isVar := make([]bool, n)
	for i := range n {
		isVar[i] = r.IntN(2) == 0 && (i == 0 || !isVar[i-1])
	}
	segs := make([]Segment, n)
	for i := range n {
		if isVar[i] {
			continue
		}
		m := 1 + r.IntN(2)
		rs := make([]rune, m)
		for j := range rs {
			rs[j] = litAlpha[r.IntN(len(litAlpha))]
		}
		if i > 0 && i+1 < n && isVar[i-1] && isVar[i+1] && !strings.ContainsAny(string(rs), "#:") {
			rs[r.IntN(m)] = sepAlpha[r.IntN(2)]
		}
		segs[i] = Segment{Lit: string(rs)}
	}
	t := Template{Segs: segs}
	seps := t.Seps()
	used := map[string]bool{}
	hasPath := false
	for i := range n {
		if !isVar[i] {
			continue
		}
		// Share a placeholder of the other template?
		if len(reuse) > 0 && r.IntN(3) != 0 {
			s := reuse[r.IntN(len(reuse))]
			if !used[s.Var] && (s.Kind != Path || (!hasPath && slices.Contains(seps, s.PathSep))) {
				used[s.Var] = true
				hasPath = hasPath || s.Kind == Path
				segs[i] = s
				continue
			}
		}
		var name string
		for {
			name = string(names[r.IntN(len(names))])
			if !used[name] {
				break
			}
		}
		used[name] = true
		s := Segment{Var: name}
		switch x := r.IntN(20); {
		case x < 9:
			s.Kind = String
			s.Empty = r.IntN(3) == 0
		case x < 13:
			s.Kind = Enum
			pool := []string{"a", "b", "c", "ab", "ba", "bc", "cc"}
			for _, v := range pool {
				if r.IntN(3) == 0 {
					s.Values = append(s.Values, v)
				}
			}
			if len(s.Values) == 0 {
				s.Values = []string{pool[r.IntN(len(pool))]}
			}
		case x < 15:
			s.Kind = Bool
		default:
			if len(seps) > 0 && !hasPath {
				s.Kind = Path
				s.PathSep = seps[r.IntN(len(seps))]
				hasPath = true
			} else {
				s.Kind = String
			}
		}
		segs[i] = s
	}
	return t
}

func (g keyGen) key(withSK bool) Key {
	pk := g.template(nil, "pq")
	k := Key{PK: pk}
	if withSK {
		var reuse []Segment
		for _, s := range pk.Segs {
			if s.IsVar() {
				reuse = append(reuse, s)
			}
		}
		sk := g.template(reuse, "rs")
		k.SK = &sk
	}
	return k
}

// mutate returns a variant of k: a literal character changed, a
// placeholder's kind changed, or a placeholder replaced by literal text.
// Variants of one key collide far more often than independent keys, so
// they probe the boundary between the verdicts. It returns false when the
// variant breaks the rules of Validate.
func (g keyGen) mutate(k Key) (Key, bool) {
	r := g.r
	clone := func(t Template) Template { return Template{Segs: slices.Clone(t.Segs)} }
	out := Key{PK: clone(k.PK)}
	tmpls := []*Template{&out.PK}
	if k.SK != nil {
		sk := clone(*k.SK)
		out.SK = &sk
		tmpls = append(tmpls, out.SK)
	}
	for range 1 + r.IntN(2) {
		t := tmpls[r.IntN(len(tmpls))]
		if len(t.Segs) == 0 {
			continue
		}
		i := r.IntN(len(t.Segs))
		s := t.Segs[i]
		switch {
		case !s.IsVar():
			rs := []rune(s.Lit)
			if len(rs) > 0 {
				rs[r.IntN(len(rs))] = litAlpha[r.IntN(len(litAlpha))]
			}
			t.Segs[i].Lit = string(rs)
		case r.IntN(2) == 0:
			t.Segs[i] = Segment{Lit: string(valueAlpha[r.IntN(3)]) + string(litAlpha[r.IntN(len(litAlpha))])[:r.IntN(2)]}
		default:
			ns := Segment{Var: s.Var, Kind: Kind(r.IntN(3) * 2)} // String, Enum or Time
			if ns.Kind == Time {
				ns.Kind = Bool
			}
			if ns.Kind == Enum {
				ns.Values = []string{"a", "ab", "c"}[:1+r.IntN(3)]
			}
			for _, t2 := range tmpls {
				for j := range t2.Segs {
					if t2.Segs[j].Var == s.Var {
						t2.Segs[j] = ns
					}
				}
			}
		}
	}
	for _, t := range tmpls {
		if t.Validate() != nil {
			return Key{}, false
		}
	}
	return out, true
}

// refOK is a reference check of a value against the rules of one
// template, written independently of the automata.
func refOK(s Segment, seps []rune, v string) bool {
	elemOK := func(e string) bool {
		return e != "" && !strings.ContainsFunc(e, func(r rune) bool { return slices.Contains(seps, r) })
	}
	switch s.Kind {
	case String:
		return v == "" && s.Empty || elemOK(v)
	case Path:
		for _, e := range strings.Split(v, string(s.PathSep)) {
			if !elemOK(e) {
				return false
			}
		}
		return true
	case Enum:
		return slices.Contains(s.Values, v)
	case Bool:
		return v == "true" || v == "false"
	}
	return false
}

// words returns every string over alpha of length 1..n.
func words(alpha []rune, n int) []string {
	out := []string{}
	cur := []string{""}
	for range n {
		var next []string
		for _, w := range cur {
			for _, r := range alpha {
				next = append(next, w+string(r))
			}
		}
		out = append(out, next...)
		cur = next
	}
	return out
}

type bruteSide struct {
	names   []string
	segs    map[string]Segment
	domains map[string][]string
	bound   int
}

func newBruteSide(k Key, maxProduct int) bruteSide {
	b := bruteSide{segs: map[string]Segment{}}
	tmpls := []Template{k.PK}
	if k.SK != nil {
		tmpls = append(tmpls, *k.SK)
	}
	for _, t := range tmpls {
		for _, s := range t.Segs {
			if s.IsVar() && b.segs[s.Var].Var == "" {
				b.names = append(b.names, s.Var)
				b.segs[s.Var] = s
			}
		}
	}
	domain := func(name string, L int) []string {
		s := b.segs[name]
		var cands []string
		switch s.Kind {
		case Enum:
			cands = s.Values
		case Bool:
			cands = []string{"true", "false"}
		default:
			// The empty value, which only a String marked Empty takes.
			cands = append([]string{""}, words(valueAlpha, L)...)
		}
		var out []string
		for _, v := range cands {
			ok := true
			for _, t := range tmpls {
				seps := t.Seps()
				for _, g := range t.Segs {
					if g.Var == name && !refOK(g, seps, v) {
						ok = false
					}
				}
			}
			if ok {
				out = append(out, v)
			}
		}
		return out
	}
	for L := 1; L <= 4; L++ {
		ds := map[string][]string{}
		prod := 1
		for _, n := range b.names {
			ds[n] = domain(n, L)
			prod *= max(1, len(ds[n]))
		}
		if L > 2 && prod > maxProduct {
			break
		}
		b.domains, b.bound = ds, L
	}
	return b
}

// keys enumerates every (pk, sk) the side produces with its domains.
func (b bruteSide) keys(k Key) map[string]bool {
	out := map[string]bool{}
	vals := map[string]string{}
	render := func(t Template) string {
		var sb strings.Builder
		for _, s := range t.Segs {
			if s.IsVar() {
				sb.WriteString(vals[s.Var])
			} else {
				sb.WriteString(s.Lit)
			}
		}
		return sb.String()
	}
	var rec func(i int)
	rec = func(i int) {
		if i == len(b.names) {
			key := render(k.PK)
			if k.SK != nil {
				key += "\x00" + render(*k.SK)
			}
			out[key] = true
			return
		}
		for _, v := range b.domains[b.names[i]] {
			vals[b.names[i]] = v
			rec(i + 1)
		}
	}
	rec(0)
	return out
}

// inSpace reports whether the witness values all lie in the enumeration.
func (b bruteSide) inSpace(vals map[string]string) bool {
	for _, n := range b.names {
		if !slices.Contains(b.domains[n], vals[n]) {
			return false
		}
	}
	return true
}

// matcher reports whether key k produces exactly the strings pk and sk
// for some values, of any length (a backtracking parse, exact and
// unbounded).
func matcher(k Key) func(key string) bool {
	tmpls := []Template{k.PK}
	if k.SK != nil {
		tmpls = append(tmpls, *k.SK)
	}
	type rule struct {
		seg  Segment
		seps []rune
	}
	rules := map[string][]rule{}
	for _, t := range tmpls {
		seps := t.Seps()
		for _, g := range t.Segs {
			if g.IsVar() {
				rules[g.Var] = append(rules[g.Var], rule{g, seps})
			}
		}
	}
	ok := func(name, v string) bool {
		for _, r := range rules[name] {
			if !refOK(r.seg, r.seps, v) {
				return false
			}
		}
		return true
	}
	return func(key string) bool {
		strs := strings.SplitN(key, "\x00", 2)
		if len(strs) != len(tmpls) {
			return false
		}
		vals := map[string]string{}
		var m func(ti, si, pos int) bool
		m = func(ti, si, pos int) bool {
			if ti == len(tmpls) {
				return true
			}
			s := strs[ti]
			if si == len(tmpls[ti].Segs) {
				return pos == len(s) && m(ti+1, 0, 0)
			}
			g := tmpls[ti].Segs[si]
			if !g.IsVar() {
				return strings.HasPrefix(s[pos:], g.Lit) && m(ti, si+1, pos+len(g.Lit))
			}
			if v, set := vals[g.Var]; set {
				return strings.HasPrefix(s[pos:], v) && m(ti, si+1, pos+len(v))
			}
			for e := pos; e <= len(s); e++ { // empty only where refOK allows it
				if v := s[pos:e]; ok(g.Var, v) {
					vals[g.Var] = v
					if m(ti, si+1, e) {
						return true
					}
					delete(vals, g.Var)
				}
			}
			return false
		}
		return m(0, 0, 0)
	}
}

// bruteCollide enumerates each side's keys with bounded values and parses
// them with the other side's templates, unbounded: it finds every
// collision in which one of the two sides' values lie in its enumeration.
func bruteCollide(a, b Key, maxProduct int) (bool, bruteSide, bruteSide) {
	ba, bb := newBruteSide(a, maxProduct), newBruteSide(b, maxProduct)
	ma, mb := matcher(a), matcher(b)
	for k := range ba.keys(a) {
		if mb(k) {
			return true, ba, bb
		}
	}
	for k := range bb.keys(b) {
		if ma(k) {
			return true, ba, bb
		}
	}
	return false, ba, bb
}

func TestBruteForce(t *testing.T) {
	for _, c := range []struct {
		seed       uint64
		n          int
		maxProduct int
		shared     bool // only keys sharing a placeholder between pk and sk
	}{{1, 1500, 3000, false}, {2, 300, 30000, false}, {3, 1500, 3000, true}} {
		t.Run(fmt.Sprint("seed", c.seed), func(t *testing.T) {
			t.Parallel() // each seed its own generator
			g := keyGen{rand.New(rand.NewPCG(c.seed, 99))}
			var collisions, found, disjoint, shared int
			bounds := map[int]int{}
			for i := range c.n {
				withSK := c.shared || g.r.IntN(4) != 0
				a, b := g.key(withSK), g.key(withSK)
				for c.shared && !hasShared(a) {
					a = g.key(true)
				}
				if g.r.IntN(2) == 0 {
					if m, ok := g.mutate(a); ok {
						b = m
					}
				}
				if hasShared(a) || hasShared(b) {
					shared++
				}
				v, w := Collide(a, b)
				brute, ba, bb := bruteCollide(a, b, c.maxProduct)
				bounds[min(ba.bound, bb.bound)]++
				switch v {
				case Undecided:
					t.Fatalf("case %d: Collide(%v, %v) = Undecided", i, a, b)
				case Disjoint:
					disjoint++
					if brute {
						t.Fatalf("case %d: Collide(%v, %v) = Disjoint, enumeration finds a collision", i, a, b)
					}
				case Collision:
					collisions++
					checkWitness(t, a, b, w)
					if brute {
						found++
					} else if testing.Verbose() && i < 600 {
						t.Logf("missed: %v vs %v: %+v (bounds %d %d)", a, b, w, ba.bound, bb.bound)
					}
					if !brute && (ba.inSpace(w.A) || bb.inSpace(w.B)) {
						t.Fatalf("case %d: witness %+v lies in the enumeration, which found nothing", i, w)
					}
				}
				if v2, _ := Collide(b, a); v2 != v {
					t.Fatalf("case %d: Collide not symmetric: %v vs %v", i, v, v2)
				}
			}
			t.Logf("%d cases (%d with shared placeholders): %d disjoint, %d collisions, %d of them found by enumeration; bounds %v",
				c.n, shared, disjoint, collisions, found, bounds)
			if found < collisions*9/10 {
				t.Errorf("enumeration found only %d of %d collisions: bound too small to be a check", found, collisions)
			}
		})
	}
}

func hasShared(k Key) bool {
	if k.SK == nil {
		return false
	}
	for _, s := range k.PK.Segs {
		for _, u := range k.SK.Segs {
			if s.IsVar() && s.Var == u.Var {
				return true
			}
		}
	}
	return false
}

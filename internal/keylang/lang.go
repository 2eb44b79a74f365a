package keylang

import (
	"encoding/binary"
	"slices"
	"unicode/utf8"
)

// maxRune is the greatest Unicode code point.
const maxRune = utf8.MaxRune

// rng is an inclusive range of code points.
type rng struct{ lo, hi rune }

// scalars are the Unicode scalar values: every code point but the
// surrogates, which cannot occur in valid UTF-8.
var scalars = []rng{{0, 0xD7FF}, {0xE000, maxRune}}

// clip returns the scalar values in [lo, hi].
func clip(lo, hi rune) []rng {
	var out []rng
	for _, s := range scalars {
		a, b := max(lo, s.lo), min(hi, s.hi)
		if a <= b {
			out = append(out, rng{a, b})
		}
	}
	return out
}

// scalarsWithout returns the scalar values other than the given runes.
func scalarsWithout(rs []rune) []rng {
	sorted := slices.Clone(rs)
	slices.Sort(sorted)
	var out []rng
	cur := rune(0)
	for _, r := range sorted {
		if r < cur {
			continue
		}
		if r > cur {
			out = append(out, clip(cur, r-1)...)
		}
		cur = r + 1
	}
	if cur <= maxRune {
		out = append(out, clip(cur, maxRune)...)
	}
	return out
}

// edge is a transition on any code point in [lo, hi].
type edge struct {
	lo, hi rune
	to     int
}

// Lang is a regular language of strings, compared code point by code point
// (which is the order of their UTF-8 bytes). It is held as a finite
// automaton without empty moves whose transitions are labelled with ranges
// of code points. A Lang is immutable: every operation returns a new one.
// The zero Lang is the empty language.
type Lang struct {
	edges [][]edge
	start []int
	final []bool
}

// Empty returns the language with no strings.
func Empty() Lang { return Lang{} }

// Epsilon returns the language holding only the empty string.
func Epsilon() Lang {
	return Lang{edges: [][]edge{nil}, start: []int{0}, final: []bool{true}}
}

// Literal returns the language holding only s.
func Literal(s string) Lang {
	rs := []rune(s)
	l := Lang{edges: make([][]edge, len(rs)+1), start: []int{0}, final: make([]bool, len(rs)+1)}
	for i, r := range rs {
		l.edges[i] = []edge{{r, r, i + 1}}
	}
	l.final[len(rs)] = true
	return l
}

// chars returns the language of the one-character strings in rs.
func chars(rs []rng) Lang {
	l := Lang{edges: make([][]edge, 2), start: []int{0}, final: []bool{false, true}}
	for _, r := range rs {
		l.edges[0] = append(l.edges[0], edge{r.lo, r.hi, 1})
	}
	return l.trim()
}

// charRange returns the one-character strings from lo to hi.
func charRange(lo, hi rune) Lang { return chars(clip(lo, hi)) }

// Any returns the language of all strings (of Unicode scalar values),
// including the empty string.
func Any() Lang {
	l := Lang{edges: make([][]edge, 1), start: []int{0}, final: []bool{true}}
	for _, r := range scalars {
		l.edges[0] = append(l.edges[0], edge{r.lo, r.hi, 0})
	}
	return l
}

// nullable reports whether l holds the empty string.
func (l Lang) nullable() bool {
	for _, s := range l.start {
		if l.final[s] {
			return true
		}
	}
	return false
}

// shifted returns l's edges with every state number increased by off.
func shifted(es []edge, off int) []edge {
	out := make([]edge, len(es))
	for i, e := range es {
		out[i] = edge{e.lo, e.hi, e.to + off}
	}
	return out
}

// Concat returns the concatenation of the languages.
func Concat(ls ...Lang) Lang {
	out := Epsilon()
	for _, l := range ls {
		out = concat2(out, l)
	}
	return out
}

func concat2(a, b Lang) Lang {
	off := len(a.edges)
	n := off + len(b.edges)
	out := Lang{edges: make([][]edge, n), final: make([]bool, n)}
	for s, es := range a.edges {
		out.edges[s] = shifted(es, 0)
	}
	for s, es := range b.edges {
		out.edges[off+s] = shifted(es, off)
		out.final[off+s] = b.final[s]
	}
	bNull := b.nullable()
	for s := range a.edges {
		if !a.final[s] {
			continue
		}
		if bNull {
			out.final[s] = true
		}
		for _, st := range b.start {
			out.edges[s] = append(out.edges[s], shifted(b.edges[st], off)...)
		}
	}
	out.start = slices.Clone(a.start)
	if a.nullable() {
		for _, st := range b.start {
			out.start = append(out.start, st+off)
		}
	}
	return out.trim()
}

// Union returns the union of the languages.
func Union(ls ...Lang) Lang {
	var out Lang
	for _, l := range ls {
		off := len(out.edges)
		for s, es := range l.edges {
			out.edges = append(out.edges, shifted(es, off))
			out.final = append(out.final, l.final[s])
		}
		for _, st := range l.start {
			out.start = append(out.start, st+off)
		}
	}
	return out.trim()
}

// plus returns l+, one or more strings of l concatenated.
func plus(l Lang) Lang {
	out := Lang{edges: make([][]edge, len(l.edges)), start: slices.Clone(l.start), final: slices.Clone(l.final)}
	for s, es := range l.edges {
		out.edges[s] = shifted(es, 0)
	}
	for s := range l.edges {
		if l.final[s] {
			for _, st := range l.start {
				out.edges[s] = append(out.edges[s], l.edges[st]...)
			}
		}
	}
	return out.trim()
}

// star returns l*, zero or more strings of l concatenated.
func star(l Lang) Lang { return Union(Epsilon(), plus(l)) }

// repeat returns l concatenated n times.
func repeat(l Lang, n int) Lang {
	out := Epsilon()
	for range n {
		out = concat2(out, l)
	}
	return out
}

// Intersect returns the strings in both a and b.
func Intersect(a, b Lang) Lang {
	type pair struct{ x, y int }
	idx := map[pair]int{}
	var pairs []pair
	var out Lang
	add := func(p pair) int {
		if i, ok := idx[p]; ok {
			return i
		}
		i := len(pairs)
		idx[p] = i
		pairs = append(pairs, p)
		out.edges = append(out.edges, nil)
		out.final = append(out.final, a.final[p.x] && b.final[p.y])
		return i
	}
	for _, x := range a.start {
		for _, y := range b.start {
			out.start = append(out.start, add(pair{x, y}))
		}
	}
	for i := 0; i < len(pairs); i++ {
		p := pairs[i]
		for _, ea := range a.edges[p.x] {
			for _, eb := range b.edges[p.y] {
				lo, hi := max(ea.lo, eb.lo), min(ea.hi, eb.hi)
				if lo <= hi {
					t := add(pair{ea.to, eb.to})
					out.edges[i] = append(out.edges[i], edge{lo, hi, t})
				}
			}
		}
	}
	return out.trim()
}

// Overlaps reports whether a and b share a string, as
// !Intersect(a, b).IsEmpty() does, without building the intersection: it
// walks the pairs of states reachable from the start states and stops at
// the first pair of final states.
func Overlaps(a, b Lang) bool {
	na, nb := len(a.edges), len(b.edges)
	if na == 0 || nb == 0 {
		return false
	}
	if na*nb > 1<<22 {
		return !Intersect(a, b).IsEmpty()
	}
	seen := make([]bool, na*nb)
	var stack []int
	push := func(x, y int) {
		if i := x*nb + y; !seen[i] {
			seen[i] = true
			stack = append(stack, i)
		}
	}
	for _, x := range a.start {
		for _, y := range b.start {
			push(x, y)
		}
	}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		x, y := i/nb, i%nb
		if a.final[x] && b.final[y] {
			return true
		}
		for _, ea := range a.edges[x] {
			for _, eb := range b.edges[y] {
				if max(ea.lo, eb.lo) <= min(ea.hi, eb.hi) {
					push(ea.to, eb.to)
				}
			}
		}
	}
	return false
}

// trim drops the states that are not both reachable from a start state
// and able to reach a final state.
func (l Lang) trim() Lang {
	n := len(l.edges)
	reach := make([]bool, n)
	stack := []int{}
	for _, s := range l.start {
		if !reach[s] {
			reach[s] = true
			stack = append(stack, s)
		}
	}
	rev := make([][]int, n)
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, e := range l.edges[s] {
			rev[e.to] = append(rev[e.to], s)
			if !reach[e.to] {
				reach[e.to] = true
				stack = append(stack, e.to)
			}
		}
	}
	co := make([]bool, n)
	for s := range n {
		if reach[s] && l.final[s] {
			co[s] = true
			stack = append(stack, s)
		}
	}
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, p := range rev[s] {
			if !co[p] {
				co[p] = true
				stack = append(stack, p)
			}
		}
	}
	num := make([]int, n)
	k := 0
	for s := range n {
		if reach[s] && co[s] {
			num[s] = k
			k++
		} else {
			num[s] = -1
		}
	}
	out := Lang{edges: make([][]edge, k), final: make([]bool, k)}
	for s := range n {
		if num[s] < 0 {
			continue
		}
		out.final[num[s]] = l.final[s]
		for _, e := range l.edges[s] {
			if num[e.to] >= 0 {
				out.edges[num[s]] = append(out.edges[num[s]], edge{e.lo, e.hi, num[e.to]})
			}
		}
	}
	for _, s := range l.start {
		if num[s] >= 0 && !slices.Contains(out.start, num[s]) {
			out.start = append(out.start, num[s])
		}
	}
	return out
}

// IsEmpty reports whether l holds no string.
func (l Lang) IsEmpty() bool { return len(l.trim().start) == 0 }

// Contains reports whether s is in l. A string that is not valid UTF-8 is
// in no language.
func (l Lang) Contains(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	cur := slices.Clone(l.start)
	for _, r := range s {
		var next []int
		for _, st := range cur {
			for _, e := range l.edges[st] {
				if e.lo <= r && r <= e.hi && !slices.Contains(next, e.to) {
					next = append(next, e.to)
				}
			}
		}
		if len(next) == 0 {
			return false
		}
		cur = next
	}
	for _, st := range cur {
		if l.final[st] {
			return true
		}
	}
	return false
}

// Shortest returns a shortest string of l, preferring readable characters
// (lower-case letters, then digits, then upper-case letters, then other
// printable ASCII). It reports false when l is empty.
func (l Lang) Shortest() (string, bool) {
	n := len(l.edges)
	prev := make([]int, n)
	via := make([]rune, n)
	seen := make([]bool, n)
	var queue []int
	for _, s := range l.start {
		if l.final[s] {
			return "", true
		}
		if !seen[s] {
			seen[s] = true
			prev[s] = -1
			queue = append(queue, s)
		}
	}
	for i := 0; i < len(queue); i++ {
		s := queue[i]
		es := slices.Clone(l.edges[s])
		slices.SortStableFunc(es, func(a, b edge) int {
			return niceRank(a.lo, a.hi) - niceRank(b.lo, b.hi)
		})
		for _, e := range es {
			if seen[e.to] {
				continue
			}
			seen[e.to] = true
			prev[e.to] = s
			via[e.to] = niceRune(e.lo, e.hi)
			if l.final[e.to] {
				var rs []rune
				for t := e.to; prev[t] >= 0; t = prev[t] {
					rs = append(rs, via[t])
				}
				slices.Reverse(rs)
				return string(rs), true
			}
			queue = append(queue, e.to)
		}
	}
	return "", false
}

// niceClasses are the characters an example string prefers, best first.
var niceClasses = []rng{{'a', 'z'}, {'0', '9'}, {'A', 'Z'}, {'!', '~'}}

// niceRank ranks the range [lo, hi] by the best character it holds.
func niceRank(lo, hi rune) int {
	for i, c := range niceClasses {
		if max(lo, c.lo) <= min(hi, c.hi) {
			return i
		}
	}
	return len(niceClasses)
}

// niceRune picks a readable character of [lo, hi].
func niceRune(lo, hi rune) rune {
	for _, c := range niceClasses {
		if a := max(lo, c.lo); a <= min(hi, c.hi) {
			return a
		}
	}
	if r := clip(lo, hi); len(r) > 0 {
		return r[0].lo
	}
	return lo
}

// Interval returns the strings s with lo <= s <= hi, in code point order
// (the order DynamoDB uses for the UTF-8 bytes of string keys).
func Interval(lo, hi string) Lang { return Intersect(atLeast(lo), atMost(hi)) }

// atLeast returns the strings s >= lo.
func atLeast(lo string) Lang {
	rs := []rune(lo)
	n := len(rs)
	gt := n + 1
	l := Lang{edges: make([][]edge, n+2), start: []int{0}, final: make([]bool, n+2)}
	for i, r := range rs {
		l.edges[i] = []edge{{r, r, i + 1}}
		for _, c := range clip(r+1, maxRune) {
			l.edges[i] = append(l.edges[i], edge{c.lo, c.hi, gt})
		}
	}
	for _, c := range scalars {
		l.edges[n] = append(l.edges[n], edge{c.lo, c.hi, gt})
		l.edges[gt] = append(l.edges[gt], edge{c.lo, c.hi, gt})
	}
	l.final[n] = true
	l.final[gt] = true
	return l.trim()
}

// atMost returns the strings s <= hi.
func atMost(hi string) Lang {
	rs := []rune(hi)
	n := len(rs)
	lt := n + 1
	l := Lang{edges: make([][]edge, n+2), start: []int{0}, final: make([]bool, n+2)}
	for i, r := range rs {
		l.edges[i] = []edge{{r, r, i + 1}}
		for _, c := range clip(0, r-1) {
			l.edges[i] = append(l.edges[i], edge{c.lo, c.hi, lt})
		}
		l.final[i] = true
	}
	for _, c := range scalars {
		l.edges[lt] = append(l.edges[lt], edge{c.lo, c.hi, lt})
	}
	l.final[n] = true
	l.final[lt] = true
	return l.trim()
}

// Subset reports whether every string of a is in b.
func Subset(a, b Lang) bool {
	da, db := determinize(a), determinize(b)
	type pair struct{ p, q int } // q < 0: b has rejected the prefix
	seen := map[pair]bool{{0, 0}: true}
	stack := []pair{{0, 0}}
	push := func(x pair) {
		if !seen[x] {
			seen[x] = true
			stack = append(stack, x)
		}
	}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if da.final[x.p] && (x.q < 0 || !db.final[x.q]) {
			return false
		}
		for _, ea := range da.edges[x.p] {
			cur := ea.lo
			if x.q >= 0 {
				for _, eb := range db.edges[x.q] {
					lo, hi := max(ea.lo, eb.lo), min(ea.hi, eb.hi)
					if lo > hi {
						continue
					}
					if lo > cur {
						push(pair{ea.to, -1})
					}
					push(pair{ea.to, eb.to})
					cur = hi + 1
				}
			}
			if cur <= ea.hi {
				push(pair{ea.to, -1})
			}
		}
	}
	return true
}

// Equal reports whether a and b hold the same strings.
func Equal(a, b Lang) bool { return Subset(a, b) && Subset(b, a) }

// dfa is a deterministic automaton: start state 0, each state's edges
// disjoint and sorted.
type dfa struct {
	edges [][]edge
	final []bool
}

// determinize builds a deterministic automaton for l by the subset
// construction, splitting code point ranges where the subsets differ.
func determinize(l Lang) dfa {
	l = l.trim()
	start := slices.Clone(l.start)
	slices.Sort(start)
	if len(start) == 0 {
		return dfa{edges: [][]edge{nil}, final: []bool{false}}
	}
	ids := map[string]int{}
	var sets [][]int
	var out dfa
	key := func(set []int) string {
		b := make([]byte, 0, 4*len(set))
		for _, s := range set {
			b = append(b, byte(s), byte(s>>8), byte(s>>16), byte(s>>24))
		}
		return string(b)
	}
	add := func(set []int) int {
		k := key(set)
		if i, ok := ids[k]; ok {
			return i
		}
		i := len(sets)
		ids[k] = i
		sets = append(sets, set)
		fin := false
		for _, s := range set {
			fin = fin || l.final[s]
		}
		out.edges = append(out.edges, nil)
		out.final = append(out.final, fin)
		return i
	}
	add(start)
	for i := 0; i < len(sets); i++ {
		set := sets[i]
		var pts []rune
		for _, s := range set {
			for _, e := range l.edges[s] {
				pts = append(pts, e.lo, e.hi+1)
			}
		}
		slices.Sort(pts)
		pts = slices.Compact(pts)
		var es []edge
		for k := 0; k+1 < len(pts); k++ {
			lo, hi := pts[k], pts[k+1]-1
			var tgt []int
			for _, s := range set {
				for _, e := range l.edges[s] {
					if e.lo <= lo && hi <= e.hi {
						tgt = append(tgt, e.to)
					}
				}
			}
			if len(tgt) == 0 {
				continue
			}
			slices.Sort(tgt)
			t := add(slices.Compact(tgt))
			if n := len(es); n > 0 && es[n-1].to == t && es[n-1].hi+1 == lo {
				es[n-1].hi = hi
			} else {
				es = append(es, edge{lo, hi, t})
			}
		}
		out.edges[i] = es
	}
	return out
}

// minimize merges the states of d that accept the same strings (Moore's
// partition refinement); state 0 stays the start.
func minimize(d dfa) dfa {
	n := len(d.edges)
	class := make([]int, n)
	for s := range n {
		if d.final[s] {
			class[s] = 1
		}
	}
	for {
		// A state's signature: its class and its edges' ranges with the
		// classes of their targets, adjacent ranges merged.
		ids := map[string]int{}
		next := make([]int, n)
		for s := range n {
			b := binary.AppendUvarint(nil, uint64(class[s]))
			var last edge
			have := false
			flush := func() {
				if have {
					b = binary.AppendUvarint(b, uint64(last.lo))
					b = binary.AppendUvarint(b, uint64(last.hi))
					b = binary.AppendUvarint(b, uint64(last.to))
				}
			}
			for _, e := range d.edges[s] {
				c := class[e.to]
				if have && last.to == c && last.hi+1 == e.lo {
					last.hi = e.hi
					continue
				}
				flush()
				last, have = edge{e.lo, e.hi, c}, true
			}
			flush()
			id, ok := ids[string(b)]
			if !ok {
				id = len(ids)
				ids[string(b)] = id
			}
			next[s] = id
		}
		stable := len(ids) == countDistinct(class)
		class = next
		if stable {
			break
		}
	}
	// Renumber so that the start's class is 0.
	num := map[int]int{class[0]: 0}
	order := []int{0}
	for s := range n {
		if _, ok := num[class[s]]; !ok {
			num[class[s]] = len(order)
			order = append(order, s)
		}
	}
	out := dfa{edges: make([][]edge, len(order)), final: make([]bool, len(order))}
	for i, s := range order {
		out.final[i] = d.final[s]
		var es []edge
		for _, e := range d.edges[s] {
			t := num[class[e.to]]
			if k := len(es); k > 0 && es[k-1].to == t && es[k-1].hi+1 == e.lo {
				es[k-1].hi = e.hi
			} else {
				es = append(es, edge{e.lo, e.hi, t})
			}
		}
		out.edges[i] = es
	}
	return out
}

func countDistinct(xs []int) int {
	seen := map[int]bool{}
	for _, x := range xs {
		seen[x] = true
	}
	return len(seen)
}

// lang turns a deterministic automaton back into a Lang.
func (d dfa) lang() Lang {
	l := Lang{edges: make([][]edge, len(d.edges)), start: []int{0}, final: slices.Clone(d.final)}
	for s, es := range d.edges {
		l.edges[s] = slices.Clone(es)
	}
	return l.trim()
}

// compact returns an equivalent Lang with the fewest states: its minimal
// deterministic automaton.
func compact(l Lang) Lang { return minimize(determinize(l)).lang() }

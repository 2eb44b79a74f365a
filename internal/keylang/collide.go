package keylang

import (
	"encoding/binary"
	"fmt"
	"slices"
	"sort"
)

// Verdict is the answer of Collide.
type Verdict int

// The verdicts.
const (
	// Disjoint: no values make the two keys equal.
	Disjoint Verdict = iota
	// Collision: some values make the two keys equal; a Witness shows them.
	Collision
	// Undecided: the inputs break the rules Validate checks in a way the
	// checker cannot handle (a placeholder of one entity with two kinds, a
	// sort key on only one side), or the search ran out of its work budget.
	Undecided
)

func (v Verdict) String() string {
	switch v {
	case Disjoint:
		return "Disjoint"
	case Collision:
		return "Collision"
	case Undecided:
		return "Undecided"
	}
	return "Verdict(?)"
}

// Witness shows a collision: values for both entities' placeholders (as a
// user writes them: "42", "2021-03-05T18:54:56Z", "x#y" for a path) and the
// stored key strings both produce.
type Witness struct {
	A, B   map[string]string
	PK, SK string
}

// DefaultBudget bounds the work of one Collide call (search nodes plus
// automaton states explored). Inputs that follow the rules of Validate stay
// far below it.
const DefaultBudget = 1 << 26

// Collide reports whether keys a and b, of two entities on one index, can
// ever be equal: whether some values for a's placeholders and some for b's
// make the partition keys equal and, when the index has a sort key, the
// sort keys too. The two keys' placeholders are independent even when they
// share names; within one key a name shared by PK and SK is one value.
func Collide(a, b Key) (Verdict, *Witness) { return CollideBudget(a, b, DefaultBudget) }

// CollideBudget is Collide with an explicit work budget.
func CollideBudget(a, b Key, budget int) (Verdict, *Witness) {
	return CollidePrepared(Prepare(a), Prepare(b), budget)
}

// Prepared is a key made ready for Collide: the languages of its
// placeholders, built and minimized. Checking every pair of n keys with
// prepared keys builds those languages n times rather than n² times.
type Prepared struct {
	sk   bool
	side *side // nil when the key uses a placeholder with two kinds
	dfas []dfa // the minimal automaton of each of side.vars
}

// Prepare makes k ready for CollidePrepared. A Prepared is only read, so
// it may be used in any number of calls.
func Prepare(k Key) *Prepared {
	p := &Prepared{sk: k.SK != nil}
	s, ok := newSide(k)
	if !ok {
		return p
	}
	p.side = s
	for _, v := range s.vars {
		p.dfas = append(p.dfas, minimize(determinize(v.lang)))
	}
	return p
}

// CollidePrepared is CollideBudget on prepared keys.
func CollidePrepared(a, b *Prepared, budget int) (Verdict, *Witness) {
	if a.sk != b.sk || a.side == nil || b.side == nil {
		return Undecided, nil
	}
	sa, sb := a.side, b.side
	vars := append(slices.Clone(sa.vars), sb.vars...)
	dfas := append(slices.Clone(a.dfas), b.dfas...)
	var lits []rune
	for _, s := range []*side{sa, sb} {
		for _, t := range s.tmpls {
			for _, g := range t.Segs {
				if !g.IsVar() {
					lits = append(lits, []rune(g.Lit)...)
				}
			}
		}
	}
	e := newEngine(dfas, lits, budget)
	left := e.tokens(sa, 0)
	right := e.tokens(sb, len(sa.vars))
	e.nextVar = int32(len(vars))

	var nullable []int32
	for i, d := range dfas {
		if d.final[0] {
			nullable = append(nullable, int32(i))
		}
	}
	if len(nullable) > 8 {
		return Undecided, nil
	}
	// A value may be empty only for a String marked Empty or an Enum
	// listing "": try every choice
	// of which such placeholders are empty; the search itself only deals
	// in non-empty values.
	for mask := 0; mask < 1<<len(nullable); mask++ {
		empty := map[int32]bool{}
		for j, v := range nullable {
			if mask&(1<<j) != 0 {
				empty[v] = true
			}
		}
		drop := func(ts []tok) []tok {
			return slices.DeleteFunc(slices.Clone(ts), func(t tok) bool { return isVar(t) && empty[tokVar(t)] })
		}
		l, r := drop(left), drop(right)
		cons := map[int32]constraint{}
		ok := true
		e.recs = e.recs[:0]
		for i := range vars {
			v := int32(i)
			if empty[v] {
				e.recs = append(e.recs, rec{v, nil})
				continue
			}
			c := constraint{{e.offset[i], e.intern(e.finals[i])}}
			if _, sat := e.sat(c); !sat {
				ok = false
				break
			}
			cons[v] = c
		}
		if !ok {
			continue
		}
		if e.solve(l, r, cons) {
			w := e.witness(sa, sb, vars)
			if w == nil {
				return Undecided, nil
			}
			return Collision, w
		}
		if e.aborted {
			return Undecided, nil
		}
	}
	if e.aborted || e.cut {
		return Undecided, nil
	}
	return Disjoint, nil
}

// side holds one entity's key: its templates and placeholders.
type side struct {
	tmpls []Template
	vars  []sideVar
	index map[string]int
}

type sideVar struct {
	name string
	kind Kind
	lang Lang     // the intersection of its languages in every template using it
	sigs []string // the distinct languages intersected, by langSig
}

// langSig identifies the language of placeholder g in template t.
func langSig(t Template, g Segment) string {
	switch g.Kind {
	case String:
		if g.Empty {
			return "S0" + string(t.Seps())
		}
		return "S" + string(t.Seps())
	case Path:
		return "P" + string(g.PathSep) + string(t.Seps())
	case Enum:
		return fmt.Sprintf("E%q", g.Values)
	}
	return g.Kind.String()
}

func newSide(k Key) (*side, bool) {
	s := &side{tmpls: []Template{k.PK}, index: map[string]int{}}
	if k.SK != nil {
		s.tmpls = append(s.tmpls, *k.SK)
	}
	for _, t := range s.tmpls {
		for i, g := range t.Segs {
			if !g.IsVar() {
				continue
			}
			sig := langSig(t, g)
			if j, ok := s.index[g.Var]; ok {
				v := &s.vars[j]
				if v.kind != g.Kind {
					return nil, false
				}
				if !slices.Contains(v.sigs, sig) {
					v.sigs = append(v.sigs, sig)
					v.lang = compact(Intersect(v.lang, SegmentLang(t, i)))
				}
				continue
			}
			s.index[g.Var] = len(s.vars)
			s.vars = append(s.vars, sideVar{g.Var, g.Kind, compact(SegmentLang(t, i)), []string{sig}})
		}
	}
	return s, true
}

// tok is a symbol of the equation: a character class (>= 0) or a variable
// (< 0).
type tok = int32

func isVar(t tok) bool        { return t < 0 }
func varTok(v int32) tok      { return -v - 1 }
func tokVar(t tok) int32      { return -t - 1 }
func (e *engine) bottom() tok { return tok(e.nc) }

// conj requires a variable's value to lead state start to a state in the
// end set end.
type conj struct{ start, end int32 }

// constraint is a conjunction of conj, sorted by start with distinct starts
// (the automata are deterministic, so one start has one end state).
type constraint []conj

// rec records how a variable's value is made: the concatenation of seq.
type rec struct {
	v   int32
	seq []tok
}

type satResult struct {
	word []tok
	ok   bool
}

// engine solves one equation by Nielsen transformation; see the package
// documentation.
type engine struct {
	nc      int     // character classes; class nc is the pk/sk divider
	classLo []rune  // first code point of each class
	rep     []rune  // a readable code point of each class
	order   []int32 // classes, most readable first
	trans   []int32 // state*(nc+1)+class -> state, or -1
	offset  []int32 // first state of each variable's automaton
	finals  [][]int32

	endSets [][]int32
	endBits [][]uint64
	endIDs  map[string]int32
	satMemo map[string]satResult
	visited map[string]struct{}
	recs    []rec
	nextVar int32
	work    int
	budget  int
	aborted bool // the budget ran out
	depth   int
	cut     bool // a branch was cut at maxDepth
}

func newEngine(dfas []dfa, lits []rune, budget int) *engine {
	e := &engine{endIDs: map[string]int32{}, satMemo: map[string]satResult{}, visited: map[string]struct{}{}, budget: budget}
	pts := []rune{0, maxRune + 1}
	for _, d := range dfas {
		for _, es := range d.edges {
			for _, x := range es {
				pts = append(pts, x.lo, x.hi+1)
			}
		}
	}
	for _, r := range lits {
		if r >= 0 && r <= maxRune {
			pts = append(pts, r, r+1)
		}
	}
	slices.Sort(pts)
	pts = slices.Compact(pts)
	e.nc = len(pts) - 1
	e.classLo = pts[:e.nc]
	for k := range e.nc {
		e.rep = append(e.rep, niceRune(pts[k], pts[k+1]-1))
		e.order = append(e.order, int32(k))
	}
	rank := func(k int32) int { return niceRank(pts[k], pts[k+1]-1) }
	sort.SliceStable(e.order, func(i, j int) bool { return rank(e.order[i]) < rank(e.order[j]) })
	total := 0
	for _, d := range dfas {
		e.offset = append(e.offset, int32(total))
		total += len(d.edges)
	}
	w := e.nc + 1
	e.trans = make([]int32, total*w)
	for i := range e.trans {
		e.trans[i] = -1
	}
	e.endBits = nil
	for i, d := range dfas {
		off := int(e.offset[i])
		var fin []int32
		for s, es := range d.edges {
			if d.final[s] {
				fin = append(fin, int32(off+s))
			}
			for _, x := range es {
				for k := e.classOf(x.lo); k < e.nc && e.classLo[k] <= x.hi; k++ {
					e.trans[(off+s)*w+k] = int32(off + x.to)
				}
			}
		}
		e.finals = append(e.finals, fin)
	}
	return e
}

func (e *engine) classOf(r rune) int {
	return sort.Search(e.nc, func(i int) bool { return e.classLo[i] > r }) - 1
}

// tokens writes a side's templates as one token sequence, PK and SK parted
// by the divider class that no value contains.
func (e *engine) tokens(s *side, base int) []tok {
	var out []tok
	for i, t := range s.tmpls {
		if i > 0 {
			out = append(out, e.bottom())
		}
		for _, g := range t.Segs {
			if g.IsVar() {
				out = append(out, varTok(int32(base+s.index[g.Var])))
				continue
			}
			for _, r := range g.Lit {
				out = append(out, tok(e.classOf(r)))
			}
		}
	}
	return out
}

func (e *engine) next(state int32, class tok) int32 {
	return e.trans[int(state)*(e.nc+1)+int(class)]
}

func (e *engine) intern(set []int32) int32 {
	b := make([]byte, 0, 4*len(set))
	for _, s := range set {
		b = binary.LittleEndian.AppendUint32(b, uint32(s))
	}
	if id, ok := e.endIDs[string(b)]; ok {
		return id
	}
	id := int32(len(e.endSets))
	e.endIDs[string(b)] = id
	e.endSets = append(e.endSets, set)
	n := len(e.trans)/(e.nc+1) + 1
	bits := make([]uint64, (n+63)/64)
	for _, s := range set {
		bits[s/64] |= 1 << (s % 64)
	}
	e.endBits = append(e.endBits, bits)
	return id
}

func (e *engine) inEnd(state, end int32) bool {
	return e.endBits[end][state/64]&(1<<(state%64)) != 0
}

// tick counts n units of work and reports whether the budget is spent.
func (e *engine) tick(n int) bool {
	e.work += n
	if e.work > e.budget {
		e.aborted = true
	}
	return e.aborted
}

// normalize sorts c by start and merges conjuncts with one start.
func (e *engine) normalize(c constraint) (constraint, bool) {
	c = slices.Clone(c)
	slices.SortFunc(c, func(a, b conj) int { return int(a.start) - int(b.start) })
	out := c[:0]
	for _, x := range c {
		if n := len(out); n > 0 && out[n-1].start == x.start {
			if out[n-1].end != x.end {
				var both []int32
				for _, s := range e.endSets[x.end] {
					if e.inEnd(s, out[n-1].end) {
						both = append(both, s)
					}
				}
				if len(both) == 0 {
					return nil, false
				}
				out[n-1].end = e.intern(both)
			}
			continue
		}
		out = append(out, x)
	}
	return out, true
}

func (e *engine) merge(a, b constraint) (constraint, bool) {
	return e.normalize(append(slices.Clone(a), b...))
}

func conKey(c constraint) string {
	b := make([]byte, 0, 8*len(c))
	for _, x := range c {
		b = binary.LittleEndian.AppendUint32(b, uint32(x.start))
		b = binary.LittleEndian.AppendUint32(b, uint32(x.end))
	}
	return string(b)
}

func tupleKey(t []int32) string {
	b := make([]byte, 0, 4*len(t))
	for _, s := range t {
		b = binary.LittleEndian.AppendUint32(b, uint32(s))
	}
	return string(b)
}

// step moves every state of t on class k; it reports false if one dies.
func (e *engine) step(t []int32, k int32) ([]int32, bool) {
	out := make([]int32, len(t))
	for i, s := range t {
		n := e.next(s, k)
		if n < 0 {
			return nil, false
		}
		out[i] = n
	}
	return out, true
}

// sat returns a shortest non-empty word meeting c, if there is one.
func (e *engine) sat(c constraint) ([]tok, bool) {
	key := conKey(c)
	if r, ok := e.satMemo[key]; ok {
		return r.word, r.ok
	}
	type bn struct {
		t      []int32
		parent int
		class  int32
	}
	start := make([]int32, len(c))
	for i, x := range c {
		start[i] = x.start
	}
	nodes := []bn{{start, -1, -1}}
	seen := map[string]bool{tupleKey(start): true}
	goal := func(t []int32) bool {
		for i, x := range c {
			if !e.inEnd(t[i], x.end) {
				return false
			}
		}
		return true
	}
	for i := 0; i < len(nodes); i++ {
		if e.tick(len(e.order) * (1 + len(c))) {
			return nil, false
		}
		for _, k := range e.order {
			nt, ok := e.step(nodes[i].t, k)
			if !ok {
				continue
			}
			if goal(nt) {
				word := []tok{k}
				for j := i; nodes[j].parent >= 0; j = nodes[j].parent {
					word = append(word, nodes[j].class)
				}
				slices.Reverse(word)
				e.satMemo[key] = satResult{word, true}
				return word, true
			}
			tk := tupleKey(nt)
			if seen[tk] {
				continue
			}
			seen[tk] = true
			nodes = append(nodes, bn{nt, i, k})
		}
	}
	e.satMemo[key] = satResult{nil, false}
	return nil, false
}

// splits lists, for U = V·U' (U' non-empty), the states U's conjuncts can
// be in after reading a value of V: every reachable tuple, shortest V
// first.
func (e *engine) splits(cu, cv constraint) [][]int32 {
	k := len(cu)
	start := make([]int32, 0, k+len(cv))
	for _, x := range cu {
		start = append(start, x.start)
	}
	for _, x := range cv {
		start = append(start, x.start)
	}
	queue := [][]int32{start}
	seen := map[string]bool{tupleKey(start): true}
	got := map[string]bool{}
	var out [][]int32
	for i := 0; i < len(queue); i++ {
		if e.tick(len(e.order) * (1 + len(start))) {
			return nil
		}
		for _, cl := range e.order {
			nt, ok := e.step(queue[i], cl)
			if !ok {
				continue
			}
			tk := tupleKey(nt)
			if seen[tk] {
				continue
			}
			seen[tk] = true
			queue = append(queue, nt)
			done := true
			for j, x := range cv {
				if !e.inEnd(nt[k+j], x.end) {
					done = false
					break
				}
			}
			if pk := tupleKey(nt[:k]); done && !got[pk] {
				got[pk] = true
				out = append(out, nt[:k:k])
			}
		}
	}
	return out
}

func occurs(l, r []tok, t tok) bool { return slices.Contains(l, t) || slices.Contains(r, t) }

// vanish gives variable v, which no longer occurs, a value of its own.
func (e *engine) vanish(v int32, cons map[int32]constraint) bool {
	w, ok := e.sat(cons[v])
	if !ok {
		return false
	}
	e.recs = append(e.recs, rec{v, w})
	return true
}

// simplify cancels equal symbols at both ends of the equation. It reports
// false when the ends hold different characters.
func (e *engine) simplify(l, r []tok, cons map[int32]constraint) ([]tok, []tok, bool) {
	for len(l) > 0 && len(r) > 0 {
		x, y := l[0], r[0]
		if x == y {
			l, r = l[1:], r[1:]
			if isVar(x) && !occurs(l, r, x) && !e.vanish(tokVar(x), cons) {
				return nil, nil, false
			}
			continue
		}
		if !isVar(x) && !isVar(y) {
			return nil, nil, false
		}
		break
	}
	for len(l) > 0 && len(r) > 0 {
		x, y := l[len(l)-1], r[len(r)-1]
		if x == y {
			l, r = l[:len(l)-1], r[:len(r)-1]
			if isVar(x) && !occurs(l, r, x) && !e.vanish(tokVar(x), cons) {
				return nil, nil, false
			}
			continue
		}
		if !isVar(x) && !isVar(y) {
			return nil, nil, false
		}
		break
	}
	return l, r, true
}

// minLen is a lower bound on the length of a side.
func (e *engine) minLen(ts []tok, cons map[int32]constraint) (n int, hasVar bool) {
	var seen map[tok]int
	for _, t := range ts {
		if !isVar(t) {
			n++
			continue
		}
		hasVar = true
		m, ok := seen[t]
		if !ok {
			w, _ := e.sat(cons[tokVar(t)])
			m = len(w)
			if seen == nil {
				seen = map[tok]int{}
			}
			seen[t] = m
		}
		n += m
	}
	return n, hasVar
}

// canon is the node's identity: the equation with variables renamed in
// order of appearance, and their constraints.
func (e *engine) canon(l, r []tok, cons map[int32]constraint) string {
	var order []int32
	buf := make([]byte, 0, 8*(len(l)+len(r)))
	put := func(t tok) {
		if isVar(t) {
			v := tokVar(t)
			id := slices.Index(order, v)
			if id < 0 {
				id = len(order)
				order = append(order, v)
			}
			t = varTok(int32(id))
		}
		buf = binary.AppendVarint(buf, int64(t))
	}
	for _, t := range l {
		put(t)
	}
	buf = binary.AppendVarint(buf, 1<<40)
	for _, t := range r {
		put(t)
	}
	for _, v := range order {
		buf = binary.AppendVarint(buf, 1<<41)
		for _, x := range cons[v] {
			buf = binary.AppendVarint(buf, int64(x.start))
			buf = binary.AppendVarint(buf, int64(x.end))
		}
	}
	return string(buf)
}

// solve reports whether the equation l = r has a solution in non-empty
// values meeting cons; on success e.recs defines every variable.
func (e *engine) solve(l, r []tok, cons map[int32]constraint) bool {
	if e.aborted {
		return false
	}
	if e.depth >= maxDepth {
		// Too deep to recurse safely: give up on this branch only. A
		// solution found elsewhere still stands, but Disjoint can no
		// longer be claimed.
		e.cut = true
		return false
	}
	e.depth++
	defer func() { e.depth-- }()
	mark := len(e.recs)
	l, r, ok := e.simplify(l, r, cons)
	if ok {
		ok = e.branch(l, r, cons)
	}
	if !ok {
		e.recs = e.recs[:mark]
	}
	return ok
}

// maxDepth bounds the search's recursion. A path of the search consumes at
// least one character of the common key string per level, and DynamoDB
// keys are at most 2048 bytes (partition) and 1024 bytes (sort).
const maxDepth = 10000

func (e *engine) branch(l, r []tok, cons map[int32]constraint) bool {
	if len(l) == 0 || len(r) == 0 {
		return len(l) == 0 && len(r) == 0
	}
	// A node costs about as much as a few automaton steps per symbol.
	if e.tick(16 * (len(l) + len(r))) {
		return false
	}
	nl, vl := e.minLen(l, cons)
	nr, vr := e.minLen(r, cons)
	if (!vl && nl < nr) || (!vr && nr < nl) || e.aborted {
		return false
	}
	key := e.canon(l, r, cons)
	if _, seen := e.visited[key]; seen {
		return false
	}
	e.visited[key] = struct{}{}
	x, y := l[0], r[0]
	switch {
	case isVar(x) && isVar(y):
		u, v := tokVar(x), tokVar(y)
		// Equal values.
		if m, ok := e.merge(cons[u], cons[v]); ok {
			if _, ok := e.sat(m); ok {
				nc := cloneCons(cons, u)
				nc[v] = m
				if e.try(u, []tok{y}, l, r, nc) {
					return true
				}
			}
		}
		return e.longer(u, v, l, r, cons) || e.longer(v, u, l, r, cons)
	case isVar(x):
		return e.varChar(tokVar(x), y, l, r, cons)
	default:
		return e.varChar(tokVar(y), x, l, r, cons)
	}
}

func cloneCons(cons map[int32]constraint, drop int32) map[int32]constraint {
	out := make(map[int32]constraint, len(cons)+1)
	for k, v := range cons {
		if k != drop {
			out[k] = v
		}
	}
	return out
}

// try substitutes repl for u everywhere and solves the result.
func (e *engine) try(u int32, repl []tok, l, r []tok, cons map[int32]constraint) bool {
	subst := func(ts []tok) []tok {
		out := make([]tok, 0, len(ts)+len(repl))
		for _, t := range ts {
			if t == varTok(u) {
				out = append(out, repl...)
			} else {
				out = append(out, t)
			}
		}
		return out
	}
	m := len(e.recs)
	e.recs = append(e.recs, rec{u, repl})
	if e.solve(subst(l), subst(r), cons) {
		return true
	}
	e.recs = e.recs[:m]
	return false
}

// longer tries u = v·u' with u' non-empty.
func (e *engine) longer(u, v int32, l, r []tok, cons map[int32]constraint) bool {
	cu, cv := cons[u], cons[v]
	for _, rt := range e.splits(cu, cv) {
		if e.aborted {
			return false
		}
		rest := make(constraint, len(cu))
		pin := make(constraint, len(cu))
		for i, x := range cu {
			rest[i] = conj{rt[i], x.end}
			pin[i] = conj{x.start, e.intern([]int32{rt[i]})}
		}
		rest, ok := e.normalize(rest)
		if !ok {
			continue
		}
		if _, ok := e.sat(rest); !ok {
			continue
		}
		nv, ok := e.merge(cv, pin)
		if !ok {
			continue
		}
		u2 := e.nextVar
		e.nextVar++
		nc := cloneCons(cons, u)
		nc[v] = nv
		nc[u2] = rest
		if e.try(u, []tok{varTok(v), varTok(u2)}, l, r, nc) {
			return true
		}
	}
	return false
}

// varChar tries u = c and u = c·u' with u' non-empty.
func (e *engine) varChar(u int32, c tok, l, r []tok, cons map[int32]constraint) bool {
	cu := cons[u]
	whole := true
	rest := make(constraint, len(cu))
	for i, x := range cu {
		n := e.next(x.start, c)
		if n < 0 {
			return false
		}
		whole = whole && e.inEnd(n, x.end)
		rest[i] = conj{n, x.end}
	}
	if whole && e.try(u, []tok{c}, l, r, cloneCons(cons, u)) {
		return true
	}
	rest, ok := e.normalize(rest)
	if !ok {
		return false
	}
	if _, ok := e.sat(rest); !ok {
		return false
	}
	u2 := e.nextVar
	e.nextVar++
	nc := cloneCons(cons, u)
	nc[u2] = rest
	return e.try(u, []tok{c, varTok(u2)}, l, r, nc)
}

// witness builds the values from the recorded substitutions and checks
// them: nil means the check failed (which would be a bug).
func (e *engine) witness(sa, sb *side, vars []sideVar) *Witness {
	def := map[int32][]tok{}
	for _, x := range e.recs {
		def[x.v] = x.seq
	}
	memo := map[int32]string{}
	var val func(v int32, depth int) (string, bool)
	val = func(v int32, depth int) (string, bool) {
		if s, ok := memo[v]; ok {
			return s, true
		}
		seq, ok := def[v]
		if !ok || depth > 1<<16 {
			return "", false
		}
		var rs []rune
		for _, t := range seq {
			if !isVar(t) {
				if int(t) >= e.nc {
					return "", false
				}
				rs = append(rs, e.rep[t])
				continue
			}
			s, ok := val(tokVar(t), depth+1)
			if !ok {
				return "", false
			}
			rs = append(rs, []rune(s)...)
		}
		memo[v] = string(rs)
		return memo[v], true
	}
	enc := make([]string, len(vars))
	for i, v := range vars {
		s, ok := val(int32(i), 0)
		if !ok || !v.lang.Contains(s) {
			return nil
		}
		enc[i] = s
	}
	render := func(s *side, base int) ([]string, map[string]string) {
		var keys []string
		for _, t := range s.tmpls {
			var b []byte
			for _, g := range t.Segs {
				if g.IsVar() {
					b = append(b, enc[base+s.index[g.Var]]...)
				} else {
					b = append(b, g.Lit...)
				}
			}
			keys = append(keys, string(b))
		}
		user := map[string]string{}
		for i, v := range s.vars {
			user[v.name] = userForm(v.kind, enc[base+i])
		}
		return keys, user
	}
	ka, ua := render(sa, 0)
	kb, ub := render(sb, len(sa.vars))
	if !slices.Equal(ka, kb) {
		return nil
	}
	w := &Witness{A: ua, B: ub, PK: ka[0]}
	if len(ka) > 1 {
		w.SK = ka[1]
	}
	return w
}

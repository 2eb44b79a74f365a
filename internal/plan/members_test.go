package plan

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/dyngen/dyngen/internal/diag"
	"github.com/dyngen/dyngen/internal/keylang"
	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/synthetic"
	"github.com/dyngen/dyngen/spec"
)

// The planner decides which entities a read can meet with shortcuts
// (literal starts, languages shared by templates of one shape, verdicts
// remembered per pair of languages). The tests below compare it with the
// plain computation those shortcuts stand for: every language built afresh
// from its template and intersected, with no literal test and no cache.

// freshLang is the language of t, built without the cache.
func freshLang(t *model.Template) *keylang.Lang {
	l := keylang.TemplateLang(keyTemplate(t))
	return &l
}

// plainOverlaps is overlaps by building the intersection.
func plainOverlaps(a, b *keylang.Lang) bool {
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

// plainForeign is foreignEntities without shortcuts.
func plainForeign(p *model.Pattern, ix *model.Index, key *KeyCond) (kept, read []*model.Entity) {
	var region *keylang.Lang
	if ix.SK != nil {
		region = skRegion(key.SK, ix)
	}
	for _, e := range ix.Table.Entities {
		k := e.Key(ix)
		if slices.Contains(p.Entities, e) || k == nil {
			continue
		}
		if !sameShape(k.PK, key.PK) && !plainOverlaps(freshLang(k.PK), freshLang(key.PK)) {
			continue
		}
		if ix.SK != nil && region != nil && !plainOverlaps(freshLang(k.SK), region) {
			kept = append(kept, e)
			continue
		}
		read = append(read, e)
	}
	return kept, read
}

// plainSeparates is prefixSeparates without shortcuts.
func plainSeparates(lp string, e *model.Entity, all []*model.Entity, ix *model.Index) bool {
	for _, o := range all {
		if o != e && plainOverlaps(freshLang(o.Key(ix).SK), prefixLang(lp)) {
			return false
		}
	}
	return true
}

// plainCollisions is collisions with keylang.Collide run on every pair.
func plainCollisions(ix *model.Index, diags *diag.List) {
	if ix.Inverted {
		return
	}
	var in []*model.Entity
	for _, e := range ix.Table.Entities {
		if e.Key(ix) != nil {
			in = append(in, e)
		}
	}
	for i, a := range in {
		for _, b := range in[i+1:] {
			ka, kb := a.Key(ix), b.Key(ix)
			verdict, w := keylang.Collide(keyOf(ka), keyOf(kb))
			switch verdict {
			case keylang.Collision:
				diags.Errorf(kb.Pos, "%s and %s can have the same key on %s: %s (%s) and %s (%s) both give %s%s; %s",
					a.Name, b.Name, indexName(ix), describeKey(ka), a.Name, describeKey(kb), b.Name, witnessKey(ix, w), witnessValues(a, b, w), collisionFix(ix, a, ka, b, kb))
			case keylang.Undecided:
				diags.Warnf(kb.Pos, "could not decide whether %s and %s can have the same key on %s (%s and %s)", a.Name, b.Name, indexName(ix), describeKey(ka), describeKey(kb))
			}
		}
	}
}

// plainKeptOut is the KeptOut of the entities plainForeign keeps out
// from a condition key on ix: counted when their sort keys start with
// literal text the condition's does not, named otherwise.
func plainKeptOut(kept []*model.Entity, ix *model.Index, key *KeyCond) KeptOut {
	var k KeptOut
	lead := regionLead(key.SK)
	for _, e := range kept {
		if lead != "" && !strings.HasPrefix(lead, e.Key(ix).SK.LiteralPrefix()) && !strings.HasPrefix(e.Key(ix).SK.LiteralPrefix(), lead) {
			k.ByPrefix++
			continue
		}
		k.Others = append(k.Others, e)
	}
	return k
}

// keptNames shows a KeptOut.
func keptNames(k KeptOut) string {
	return fmt.Sprintf("%d by prefix and %s", k.ByPrefix, entityNames(k.Others))
}

func entityNames(es []*model.Entity) string {
	var s []string
	for _, e := range es {
		s = append(s, e.Name)
	}
	return "[" + strings.Join(s, " ") + "]"
}

func diagText(l *diag.List) string {
	var b strings.Builder
	for _, d := range l.Sorted() {
		fmt.Fprintln(&b, d)
	}
	return b.String()
}

// randomTable builds tables of random entities whose templates follow
// the rules keylang.Template.Validate states (as resolved specs do). The
// templates are drawn from a few shapes with fresh attributes, so that
// many are distinct templates of one language, and the literal texts
// share starts, so that literal tests alone do not decide.
type randomTable struct {
	r *rand.Rand
	n int // attributes made, for fresh names
}

var (
	litPieces = []string{"A", "B", "AB", "A#", "#", "#B", ":", "A:"}
	sepPieces = []string{"#", "A#", "#B", ":", "A:", "#A#"}
)

func (g *randomTable) attr(kind int) *model.Attribute {
	g.n++
	a := &model.Attribute{Name: fmt.Sprintf("a%d", g.n), Stored: fmt.Sprintf("a%d", g.n)}
	switch kind {
	case 0:
		a.Type = model.String
	case 1:
		a.Type = model.Int
	case 2:
		a.Type, a.Values = model.Enum, []string{"A", "B"}
	case 3:
		a.Type, a.Values = model.Enum, []string{"A", "AB"}
	case 4:
		a.Type, a.Format = model.Time, model.Date
	case 5:
		a.Type, a.Format = model.Time, model.RFC3339
	case 6:
		a.Type = model.Bool
	default:
		// No value at all: a template of no key, which resolving refuses,
		// but the planner must still answer as the plain computation.
		a.Type = model.Enum
	}
	return a
}

// template makes a template of one to three segments. shared offers the
// attributes of the entity's other template, to reuse.
func (g *randomTable) template(shared []*model.Attribute) *model.Template {
	r := g.r
	t := &model.Template{KeyType: model.S}
	n := 1 + r.IntN(3)
	lastVar := false
	for i := range n {
		if i > 0 && !lastVar && r.IntN(4) != 0 || i == 0 && r.IntN(2) == 0 {
			var a *model.Attribute
			for _, s := range shared {
				if r.IntN(4) == 0 && !t.Has(s) {
					a = s
				}
			}
			if a == nil {
				a = g.attr(max(0, r.IntN(13)-6)) // half of them strings
				if r.IntN(50) == 0 {
					a = g.attr(7)
				}
			}
			t.Segments = append(t.Segments, model.Segment{Attr: a})
			lastVar = true
			continue
		}
		pieces := litPieces
		if lastVar {
			pieces = sepPieces
		}
		t.Segments = append(t.Segments, model.Segment{Literal: pieces[r.IntN(len(pieces))]})
		lastVar = false
	}
	t.Source = t.String()
	return t
}

// table makes a table with a primary key and an index without sort key,
// and entities whose templates are copies, with fresh attributes, of a few
// shapes.
func (g *randomTable) table(entities int) *model.Table {
	t := &model.Table{Name: "T", PK: &model.KeyAttr{Name: "PK", Type: model.S}, SK: &model.KeyAttr{Name: "SK", Type: model.S}, EntityAttr: "_type"}
	primary := &model.Index{Name: "T", Table: t, Kind: model.Primary, PK: t.PK, SK: t.SK}
	byPK := &model.Index{Name: "G", Table: t, Kind: model.Global, PK: &model.KeyAttr{Name: "GPK", Type: model.S}}
	t.Indexes = []*model.Index{primary, byPK}
	var pkShapes, skShapes []*model.Template
	for range 3 {
		pkShapes = append(pkShapes, g.template(nil))
		skShapes = append(skShapes, g.template(nil))
	}
	for i := range entities {
		e := &model.Entity{Name: fmt.Sprintf("E%d", i), Table: t}
		pk := g.pick(pkShapes, nil)
		sk := g.pick(skShapes, pk.Attrs())
		e.Keys = []*model.EntityKey{
			{Index: primary, PK: pk, SK: sk},
			{Index: byPK, PK: g.pick(pkShapes, nil)},
		}
		t.Entities = append(t.Entities, e)
	}
	return t
}

// pick returns a new template: most often a copy of one of shapes with
// fresh attributes of the same kinds, else a new random one.
func (g *randomTable) pick(shapes []*model.Template, shared []*model.Attribute) *model.Template {
	if g.r.IntN(3) == 0 {
		return g.template(shared)
	}
	src := shapes[g.r.IntN(len(shapes))]
	t := &model.Template{KeyType: src.KeyType}
	for _, s := range src.Segments {
		if s.Attr != nil {
			a := *s.Attr
			g.n++
			a.Name = fmt.Sprintf("a%d", g.n)
			s.Attr = &a
		}
		t.Segments = append(t.Segments, s)
	}
	t.Source = t.String()
	return t
}

// condition makes a sort key condition on tm of a form tryRead makes: the
// whole partition, the whole key, a bound prefix, or a range on the
// placeholder after the bound prefix.
func (g *randomTable) condition(tm *model.Template) SKCond {
	n := len(tm.Segments)
	s := SKCond{Template: tm, Prefix: g.r.IntN(n + 1)}
	var vars []int
	for i, seg := range tm.Segments {
		if seg.Attr != nil {
			vars = append(vars, i)
		}
	}
	switch g.r.IntN(4) {
	case 0:
		s.Prefix = 0
	case 1:
		s.Kind, s.Prefix = SKEq, n
	case 2:
		s.Kind, s.Prefix = SKBeginsWith, 1+g.r.IntN(n)
	default:
		if len(vars) == 0 {
			return g.condition(tm)
		}
		s.Prefix = vars[g.r.IntN(len(vars))]
		s.Kind = []SKKind{SKBetween, SKLt, SKGe, SKBeginsWith}[g.r.IntN(4)]
	}
	return s
}

func TestForeignEntitiesExact(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 19))
	g := &randomTable{r: r}
	checked, read, kept := 0, 0, 0
	for trial := range 300 {
		tab := g.table(2 + r.IntN(9))
		b := &builder{langs: newLangs(), indexed: map[*model.Index][]indexed{}}
		for range 20 {
			ix := tab.Indexes[r.IntN(len(tab.Indexes))]
			es := slices.Clone(tab.Entities)
			r.Shuffle(len(es), func(i, j int) { es[i], es[j] = es[j], es[i] })
			p := &model.Pattern{Name: "P", Table: tab, Entities: es[:1+r.IntN(2)]}
			first := p.Entities[0].Key(ix)
			key := &KeyCond{Index: ix, PK: first.PK}
			if ix.SK != nil {
				tm := first.SK
				if r.IntN(4) == 0 {
					tm = g.template(nil) // a collection's common part: a template of its own
				}
				key.SK = g.condition(tm)
			}
			keys := []*KeyCond{key}
			if narrowed, ok := narrow(key.SK); ok {
				k := *key
				k.SK = narrowed
				keys = append(keys, &k)
			}
			for _, key := range keys {
				gotKept, gotRead := b.foreignEntities(p, ix, key)
				plainKept, wantRead := plainForeign(p, ix, key)
				wantKept := plainKeptOut(plainKept, ix, key)
				if keptNames(gotKept) != keptNames(wantKept) || entityNames(gotRead) != entityNames(wantRead) {
					var ks []string
					for _, e := range tab.Entities {
						ks = append(ks, fmt.Sprintf("%s %v", e.Name, keyOf(e.Key(ix))))
					}
					t.Fatalf("trial %d, pattern of %s on %s, pk %q, sk %+v:\nkept %s read %s\nwant kept %s read %s\nkeys: %s",
						trial, entityNames(p.Entities), ix.Name, key.PK.Source, key.SK, keptNames(gotKept), entityNames(gotRead), keptNames(wantKept), entityNames(wantRead), strings.Join(ks, "; "))
				}
				checked++
				read += len(gotRead)
				kept += gotKept.Len()
			}
			if ix.SK == nil {
				continue
			}
			lp := first.SK.LiteralPrefix()
			if r.IntN(3) == 0 {
				lp = litPieces[r.IntN(len(litPieces))]
			}
			if lp == "" {
				continue
			}
			all := append(slices.Clone(p.Entities), es[len(p.Entities):len(p.Entities)+r.IntN(len(es)-len(p.Entities)+1)]...)
			e := p.Entities[0]
			if got, want := b.prefixSeparates(lp, e, all, ix), plainSeparates(lp, e, all, ix); got != want {
				t.Fatalf("trial %d: prefix %q of %s among %s: separates %v, want %v", trial, lp, e.Name, entityNames(all), got, want)
			}
		}
	}
	// The random tables must give both answers often, or the test shows
	// nothing.
	if read < checked/2 || kept < checked/8 {
		t.Errorf("%d conditions: %d entities read, %d kept out", checked, read, kept)
	}
}

func TestCollisionsExact(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 20))
	g := &randomTable{r: r}
	found := 0
	defer func() { t.Logf("%d collisions", found) }()
	for trial := range 60 {
		tab := g.table(2 + r.IntN(6))
		for _, ix := range tab.Indexes {
			var got, want diag.List
			collisions(ix, newLangs(), &got)
			plainCollisions(ix, &want)
			if diagText(&got) != diagText(&want) {
				t.Fatalf("trial %d, %s:\n%s\nwant\n%s", trial, ix.Name, diagText(&got), diagText(&want))
			}
			found += got.Len()
		}
	}
	if found < 20 {
		t.Errorf("only %d collisions in the random tables", found)
	}
}

// TestOneTableExact plans a sample of the benchmark's one-table spec and
// checks every read's entities and the collision check against the plain
// computation.
func TestOneTableExact(t *testing.T) {
	data := synthetic.SpecTables(200, 40)
	f, diags := spec.Parse("big.yaml", data)
	m := model.Resolve(f, diags)
	if diags.HasErrors() {
		t.Fatal(diags.Err())
	}
	if len(m.Tables) != 1 {
		t.Fatalf("%d tables", len(m.Tables))
	}
	p := Build(m, diags)
	if diags.HasErrors() {
		t.Fatal(diags.Err())
	}
	var got, want diag.List
	for _, ix := range m.Tables[0].Indexes {
		collisions(ix, newLangs(), &got)
		plainCollisions(ix, &want)
	}
	if diagText(&got) != diagText(&want) {
		t.Errorf("collisions:\n%s\nwant\n%s", diagText(&got), diagText(&want))
	}
	reads := 0
	for _, pp := range p.Patterns {
		if pp.Key == nil || pp.Pattern.Op != model.OpGet && pp.Pattern.Op != model.OpQuery {
			continue
		}
		reads++
		var foreign []*model.Entity
		for _, f := range pp.Foreign {
			foreign = append(foreign, f.Entity)
		}
		plainKept, read := plainForeign(pp.Pattern, pp.Index, pp.Key)
		kept := plainKeptOut(plainKept, pp.Index, pp.Key)
		if keptNames(pp.KeptOut) != keptNames(kept) || entityNames(foreign) != entityNames(read) {
			t.Errorf("%s: kept out %s, foreign %s; want %s and %s", pp.Pattern.Name, keptNames(pp.KeptOut), entityNames(foreign), keptNames(kept), entityNames(read))
		}
	}
	if reads < 100 {
		t.Errorf("only %d queries", reads)
	}
}

// TestOneTableScales plans 400 entities in one table, where every query's
// partition is shared by all of them, and in tables of ten. Planning the
// one table allocated eleven times as much, the pairs of templates the
// planner had compared: planning grew with the square of the entities
// sharing a table. The lists of entities each read kept out, one pointer
// per entity, went too: KeptOut counts those of the rule of sort key
// prefixes (both allocate the same now).
func TestOneTableScales(t *testing.T) {
	alloc := func(perTable int) uint64 {
		f, diags := spec.Parse("big.yaml", synthetic.SpecTables(2000, perTable))
		m := model.Resolve(f, diags)
		if diags.HasErrors() {
			t.Fatal(diags.Err())
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		Build(m, diags)
		runtime.ReadMemStats(&after)
		if diags.HasErrors() {
			t.Fatal(diags.Err())
		}
		return after.TotalAlloc - before.TotalAlloc
	}
	tens, one := alloc(10), alloc(400)
	t.Logf("tables of ten: %d KB; one table: %d KB", tens>>10, one>>10)
	if one > 3*tens {
		t.Errorf("planning 400 entities in one table allocates %.1f times as much as in tables of ten (%d KB and %d KB)", float64(one)/float64(tens), one>>10, tens>>10)
	}
}

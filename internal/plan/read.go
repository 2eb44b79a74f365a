package plan

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/dyngen/dyngen/internal/model"
)

// candidate is a read pattern planned on one index.
type candidate struct {
	plan   *Pattern
	reason string // why the index can't serve the pattern, when plan is nil
	// pkBound is set when the inputs build the index's partition key, so
	// that the refusal is about the rest of the key or the projection.
	pkBound bool
}

// read plans a get or query: it tries every index (or the one the pattern
// forces) and keeps the best that serves the pattern, or refuses it.
func (b *builder) read(p *model.Pattern) *Pattern {
	t := p.Table
	indexes := t.Indexes
	if p.Index != "" {
		indexes = []*model.Index{t.Index(p.Index)}
	}
	var ok []*Pattern
	var reasons []string
	pkBound := false
	for _, ix := range indexes {
		c := b.tryRead(p, ix)
		if c.plan != nil {
			ok = append(ok, c.plan)
		} else {
			reasons = append(reasons, fmt.Sprintf("%s: %s", ix.Name, c.reason))
			pkBound = pkBound || c.pkBound
		}
	}
	if len(ok) == 0 {
		b.refuse(p, reasons, pkBound)
		return nil
	}
	best := slices.MinFunc(ok, func(x, y *Pattern) int {
		return cmp.Or(
			cmp.Compare(callRank(x.Call), callRank(y.Call)),
			cmp.Compare(len(x.Foreign), len(y.Foreign)),
			cmp.Compare(x.Index.Kind, y.Index.Kind),
			cmp.Compare(slices.Index(t.Indexes, x.Index), slices.Index(t.Indexes, y.Index)),
		)
	})
	if len(p.Filter) > 0 {
		b.diags.Warnf(p.Pos, "pattern %s filters on %s: DynamoDB reads, and bills, every item the key condition selects, including those the filter drops", p.Name, condAttrs(p.Filter))
	}
	b.request(best)
	b.cost(best)
	return best
}

func callRank(c Call) int {
	if c == GetItem {
		return 0
	}
	return 1
}

func condAttrs(cs []*model.Cond) string {
	var names []string
	for _, c := range cs {
		names = append(names, c.Attr.Name)
	}
	return strings.Join(names, ", ")
}

// tryRead plans p on ix, or says why ix can't serve it.
func (b *builder) tryRead(p *model.Pattern, ix *model.Index) candidate {
	fail := func(format string, args ...any) candidate {
		return candidate{reason: fmt.Sprintf(format, args...)}
	}
	if p.Consistent && ix.Kind == model.Global {
		return fail("a global index has no consistent reads")
	}
	var keys []*model.EntityKey
	for _, e := range p.Entities {
		k := e.Key(ix)
		if k == nil {
			return fail("%s is not in this index", e.Name)
		}
		keys = append(keys, k)
	}
	first := keys[0]
	// Rule 1: the partition key is built from by attributes only.
	for _, a := range first.PK.Attrs() {
		if !slices.Contains(p.By, a.Name) {
			return fail("its partition key %s=%q needs %s, which is not in by", ix.PK.Name, first.PK.Source, a.Name)
		}
	}
	bound := map[string]bool{}
	for _, a := range first.PK.Attrs() {
		bound[a.Name] = true
	}
	failBound := func(format string, args ...any) candidate {
		c := fail(format, args...)
		c.pkBound = true
		return c
	}
	// Rule 6: every entity shares the partition for the same inputs.
	for i, k := range keys[1:] {
		if k.PK.String() != first.PK.String() {
			return fail("%s's partition key is %q but %s's is %q, so they are not one item collection", p.Entities[0].Name, first.PK.Source, p.Entities[i+1].Name, k.PK.Source)
		}
	}
	var sk *model.Template
	if ix.SK != nil {
		sk = first.SK
		if len(keys) > 1 {
			sk = commonPrefix(keys)
		}
	}
	// Rule 2: the other by attributes are the leading sk placeholders.
	prefix := 0
	if sk != nil {
		prefix = bindPrefix(sk, p.By, bound)
		if err := pathInPrefix(sk, prefix); err != "" {
			return failBound("%s", err)
		}
	}
	for _, name := range p.By {
		if !bound[name] {
			if sk == nil {
				if ix.SK == nil {
					return failBound("%s has no sort key, and its partition key %q does not use %s", ix.Name, first.PK.Source, name)
				}
				return failBound("%s is not in the key", name)
			}
			return failBound("by %s is not a leading placeholder of the sort key %s=%q (after the bound part %s)", name, ix.SK.Name, sk.Source, quoteTemplate(sk, prefix, ""))
		}
	}
	key := &KeyCond{Index: ix, PK: first.PK}
	if sk != nil {
		key.SK = SKCond{Template: sk, Prefix: prefix}
		full := prefix == len(sk.Segments) && len(keys) == 1
		switch {
		case full:
			key.SK.Kind = SKEq
		case prefix > 0:
			key.SK.Kind = SKBeginsWith
		}
		// Rule 3: where is the next placeholder, in an order-keeping form.
		if p.Where != nil {
			if msg := whereCond(&key.SK, ix.SK, p.Where); msg != "" {
				return failBound("%s", msg)
			}
		}
	} else if p.Where != nil {
		return failBound("%s has no sort key for where %s", ix.Name, p.Where.Attr.Name)
	}
	// Rule 4: order is honoured on that sort key.
	if p.OrderPos.Line != 0 && len(keys) == 1 {
		if msg := orderOK(ix, key); msg != "" {
			return failBound("%s", msg)
		}
	}
	call := Query
	if p.Op == model.OpGet {
		if ix.SK != nil && key.SK.Kind != SKEq {
			return failBound("get needs the whole key; by %s leaves the sort key %s=%q open", strings.Join(p.By, ", "), ix.SK.Name, sk.Source)
		}
		if ix.IsPrimary() {
			call = GetItem
		}
	}
	pp := &Pattern{Pattern: p, Call: call, Index: ix, Key: key}
	for _, name := range p.By {
		pp.Inputs = append(pp.Inputs, p.Entity().Attr(name))
	}
	// Other entities reading through the same key condition.
	if msg := b.members(pp, keys); msg != "" {
		return failBound("%s", msg)
	}
	// Rule 5: the index projects what the result needs.
	if msg := projects(pp); msg != "" {
		return failBound("%s", msg)
	}
	for _, f := range p.Filter {
		if f.Attr.Stored == ix.PK.Name || (ix.SK != nil && f.Attr.Stored == ix.SK.Name) {
			return failBound("filter on %s, a key attribute of %s; narrow it with by or where instead", f.Attr.Name, ix.Name)
		}
		if !ix.Projects(f.Attr.Stored) {
			return failBound("filter on %s, which %s does not project", f.Attr.Name, ix.Name)
		}
	}
	return candidate{plan: pp}
}

// bindPrefix walks sk from the start, binding literal text and the
// placeholders the inputs give, and returns the number of bound segments.
// It marks the by attributes it uses in bound.
func bindPrefix(sk *model.Template, by []string, bound map[string]bool) int {
	n := 0
	for _, seg := range sk.Segments {
		if seg.Attr != nil {
			name := seg.Attr.Name
			if !bound[name] && !slices.Contains(by, name) {
				break
			}
			bound[name] = true
		}
		n++
	}
	return n
}

// pathInPrefix refuses a prefix in which a bound path is followed by
// another bound placeholder: the path's own separators would make the
// prefix ambiguous ("A#b#" is category A, id b, or category A#b).
func pathInPrefix(sk *model.Template, prefix int) string {
	if prefix == len(sk.Segments) {
		return ""
	}
	for i, seg := range sk.Segments[:prefix] {
		if seg.Attr == nil || seg.Attr.Type != model.Path {
			continue
		}
		for _, later := range sk.Segments[i+1 : prefix] {
			if later.Attr != nil {
				return fmt.Sprintf("by binds %s after path %s in the sort key prefix, which a longer path could also match; bind the whole key, or only up to the path", later.Attr.Name, seg.Attr.Name)
			}
		}
	}
	return ""
}

// commonPrefix returns the part of the sort key templates all keys share:
// the same placeholders and literal text, up to the first difference.
func commonPrefix(keys []*model.EntityKey) *model.Template {
	out := &model.Template{Source: "", Pos: keys[0].SK.Pos, KeyType: keys[0].SK.KeyType}
	segs := keys[0].SK.Segments
	for i, seg := range segs {
		same := true
		lit := seg.Literal
		for _, k := range keys[1:] {
			if i >= len(k.SK.Segments) {
				same = false
				lit = ""
				break
			}
			o := k.SK.Segments[i]
			if seg.Attr != nil || o.Attr != nil {
				if seg.Attr == nil || o.Attr == nil || seg.Attr.Name != o.Attr.Name {
					same, lit = false, ""
					break
				}
				continue
			}
			if o.Literal != lit {
				same = false
				lit = commonString(lit, o.Literal)
			}
		}
		if !same {
			if lit != "" {
				out.Segments = append(out.Segments, model.Segment{Literal: lit})
			}
			break
		}
		out.Segments = append(out.Segments, seg)
	}
	out.Source = out.String()
	return out
}

func commonString(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	// Keep whole UTF-8 characters.
	for i > 0 && i < len(a) && a[i]&0xC0 == 0x80 {
		i--
	}
	return a[:i]
}

// whereCond turns the where condition into the sort key condition, or
// says why it can't be one on this sort key.
func whereCond(s *SKCond, skAttr *model.KeyAttr, w *model.Cond) string {
	segs := s.Template.Segments
	if s.Prefix >= len(segs) || segs[s.Prefix].Attr == nil || segs[s.Prefix].Attr.Name != w.Attr.Name {
		next := "nothing (the inputs bind the whole sort key)"
		if s.Prefix < len(segs) && segs[s.Prefix].Attr != nil {
			next = segs[s.Prefix].Attr.Name
		}
		if !s.Template.Has(w.Attr) && !slices.ContainsFunc(s.Template.Attrs(), func(a *model.Attribute) bool { return a.Name == w.Attr.Name }) {
			return fmt.Sprintf("where %s: %s is not in its sort key %s=%q", w.Attr.Name, w.Attr.Name, skAttr.Name, s.Template.Source)
		}
		return fmt.Sprintf("where %s must be the next placeholder of the sort key %s=%q after the bound part, which is %s", w.Attr.Name, skAttr.Name, s.Template.Source, next)
	}
	x := segs[s.Prefix].Attr
	last := s.Prefix == len(segs)-1
	s.Range = w
	op := w.Op
	if s.Template.KeyType != model.S {
		// A whole N or B sort key compares natively.
		switch op {
		case model.OpLt:
			s.Kind = SKLt
		case model.OpLe:
			s.Kind = SKLe
		case model.OpGt:
			s.Kind = SKGt
		case model.OpGe:
			s.Kind = SKGe
		case model.OpBetween:
			s.Kind, s.Lo, s.Hi = SKBetween, Bound{Value: Operand}, Bound{Value: Operand, Operand: 1}
		case model.OpBeginsWith:
			if s.Template.KeyType == model.N {
				return fmt.Sprintf("where %s beginsWith: the sort key %s is a number", x.Name, skAttr.Name)
			}
			s.Kind = SKBeginsWith
		}
		s.Lo = Bound{Value: Operand}
		if op == model.OpBetween {
			s.Hi = Bound{Value: Operand, Operand: 1}
		}
		return ""
	}
	if op == model.OpBeginsWith {
		switch x.Type {
		case model.String, model.Enum:
		case model.Path:
			if last {
				return fmt.Sprintf("where %s beginsWith: the path ends the sort key %q, so its subtree is not one prefix; add a placeholder after it, e.g. \"{%s}#{id}\"", x.Name, s.Template.Source, x.Name)
			}
		default:
			return fmt.Sprintf("where %s beginsWith: %s is %s; beginsWith applies to strings", x.Name, x.Name, x.Describe())
		}
		s.Kind = SKBeginsWith
		return ""
	}
	fixed := x.KeepsOrder()
	if !fixed && !last {
		return fmt.Sprintf("where %s %s: %s is a %s followed by more of the sort key %q, so its key text does not sort like its values (only int, time and bool do, or a string placed last)", x.Name, op, x.Name, x.Type, s.Template.Source)
	}
	if x.Type == model.Path {
		return fmt.Sprintf("where %s %s: a path compares only with beginsWith", x.Name, op)
	}
	s.Kind = SKBetween
	switch {
	case fixed:
		switch op {
		case model.OpGe:
			s.Lo, s.Hi = Bound{Value: Operand}, Bound{Value: Greatest, High: true}
		case model.OpGt:
			s.Lo, s.Hi = Bound{Value: Operand, High: true}, Bound{Value: Greatest, High: true}
		case model.OpLe:
			s.Lo, s.Hi = Bound{Value: Least}, Bound{Value: Operand, High: true}
		case model.OpLt:
			s.Lo, s.Hi = Bound{Value: Least}, Bound{Value: Operand}
			if last {
				s.Hi = Bound{Value: Operand, Pred: true, High: true}
			}
		case model.OpBetween:
			s.Lo, s.Hi = Bound{Value: Operand}, Bound{Value: Operand, Operand: 1, High: true}
		}
	default:
		// A string or enum placed last: its text order is its value order.
		if s.Prefix == 0 {
			// No prefix to bound the other side: compare directly.
			s.Lo = Bound{Value: Operand}
			switch op {
			case model.OpLt:
				s.Kind = SKLt
			case model.OpLe:
				s.Kind = SKLe
			case model.OpGt:
				s.Kind = SKGt
			case model.OpGe:
				s.Kind = SKGe
			case model.OpBetween:
				s.Hi = Bound{Value: Operand, Operand: 1}
			}
			return ""
		}
		switch op {
		case model.OpGe:
			s.Lo, s.Hi = Bound{Value: Operand}, Bound{Value: Nothing, High: true}
		case model.OpGt:
			s.Lo, s.Hi = Bound{Value: Operand, Succ: true}, Bound{Value: Nothing, High: true}
		case model.OpLe:
			s.Lo, s.Hi = Bound{Value: Nothing}, Bound{Value: Operand}
		case model.OpLt:
			s.Lo, s.Hi = Bound{Value: Nothing}, Bound{Value: Operand}
			s.DropEqual = true
		case model.OpBetween:
			s.Lo, s.Hi = Bound{Value: Operand}, Bound{Value: Operand, Operand: 1}
		}
	}
	return ""
}

// orderOK checks that the order of results is the order of the attribute
// that follows the bound part of the sort key.
func orderOK(ix *model.Index, key *KeyCond) string {
	if ix.SK == nil {
		return fmt.Sprintf("order needs a sort key, and %s has none", ix.Name)
	}
	s := key.SK
	if s.Template.KeyType != model.S || s.Prefix >= len(s.Template.Segments) {
		return ""
	}
	x := s.Template.Segments[s.Prefix].Attr
	if x == nil {
		return ""
	}
	if !x.KeepsOrder() && s.Prefix != len(s.Template.Segments)-1 {
		return fmt.Sprintf("order sorts by the sort key %s=%q, whose next part {%s} is a %s followed by more text, so the order would not be the order of %s", ix.SK.Name, s.Template.Source, x.Name, x.Type, x.Name)
	}
	return ""
}

// refuse reports a read no index can serve, with what would fix it: a new
// index when no index has a partition key the inputs build (otherwise the
// reasons say what to change).
func (b *builder) refuse(p *model.Pattern, reasons []string, pkBound bool) {
	e := p.Entity()
	var keys []string
	for _, k := range e.Keys {
		s := fmt.Sprintf("%s %s=%q", k.Index.Name, k.Index.PK.Name, k.PK.Source)
		if k.SK != nil {
			s += fmt.Sprintf(" %s=%q", k.Index.SK.Name, k.SK.Source)
		}
		keys = append(keys, s)
	}
	which := "no index of table " + p.Table.Name + " serves it"
	if p.Index != "" {
		which = "the index it names can't serve it"
	}
	fix := ""
	switch {
	case len(p.By) == 0:
		fix = " A query needs by: the attributes its partition key is built from."
	case !pkBound:
		fix = " " + proposal(p)
	}
	b.errorf(p.Pos, "pattern %s would need a Scan: %s (%s). %s's keys are %s.%s",
		p.Name, which, strings.Join(reasons, "; "), e.Name, strings.Join(keys, ", "), fix)
}

// proposal suggests an index that would serve p.
func proposal(p *model.Pattern) string {
	t := p.Table
	e := p.Entity()
	gsis := 0
	for _, ix := range t.Indexes {
		if ix.Kind == model.Global {
			gsis++
		}
	}
	name := fmt.Sprintf("GSI%d", gsis+1)
	for t.Index(name) != nil || t.KeyAttrNamed(name+"PK") != nil || t.KeyAttrNamed(name+"SK") != nil {
		gsis++
		name = fmt.Sprintf("GSI%d", gsis+1)
	}
	var pk []string
	for _, by := range p.By {
		pk = append(pk, strings.ToUpper(by)+"#{"+by+"}")
	}
	if len(pk) == 0 {
		pk = []string{strings.ToUpper(e.Name)}
	}
	var sk []string
	w := p.Where
	if w != nil && !w.Attr.KeepsOrder() && w.Op != model.OpBeginsWith {
		// A string compares in order only placed last in the key.
		sk = []string{"{" + w.Attr.Name + "}"}
	} else {
		if w != nil {
			sk = append(sk, "{"+w.Attr.Name+"}")
		}
		for _, a := range e.PrimaryKey().Attrs() {
			if !slices.Contains(p.By, a.Name) && (w == nil || w.Attr != a) {
				sk = append(sk, "{"+a.Name+"}")
			}
		}
	}
	if len(sk) == 0 {
		sk = []string{strings.ToUpper(e.Name)}
	}
	return fmt.Sprintf("Add an index whose partition key is built from [%s], e.g. %s: {partitionKey: %sPK, sortKey: %sSK} with keys %s: {pk: %q, sk: %q} on %s",
		strings.Join(p.By, ", "), name, name, name, name, strings.Join(pk, "#"), strings.Join(sk, "#"), e.Name)
}

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
	ix     *model.Index
	plan   *Pattern
	reason string // why the index can't serve the pattern, when plan is nil
	// pkBound is set when the inputs build the index's partition key, so
	// that the refusal is about the rest of the key or the projection.
	pkBound bool
}

// read plans a get or query: it tries every index (or the one the pattern
// forces) and keeps the best that serves the pattern, or refuses it.
func (b *builder) read(p *model.Pattern) *Pattern {
	if u := uniqueLookup(p); u != nil {
		return b.lookup(p, u)
	}
	if p.Copy != nil {
		return b.copyGet(p)
	}
	t := p.Table
	var ok []*Pattern
	var failed []candidate
	for _, ix := range readIndexes(p) {
		c := b.tryRead(p, ix)
		c.ix = ix
		if c.plan != nil {
			ok = append(ok, c.plan)
		} else {
			failed = append(failed, c)
		}
	}
	if len(ok) == 0 {
		b.refuse(p, failed)
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
	for _, e := range p.Drops {
		if !slices.ContainsFunc(best.Foreign, func(f *Foreign) bool { return f.Entity == e }) {
			b.diags.Warnf(p.DropsPos, "pattern %s: drops names %s, whose items its key condition on %s never reads; remove it", p.Name, e.Name, indexName(best.Index))
		}
	}
	b.request(best)
	b.cost(best)
	return best
}

// readIndexes are the indexes a read may use: every index of its table, or
// the one it names.
func readIndexes(p *model.Pattern) []*model.Index {
	if p.Index != "" {
		return []*model.Index{p.Table.Index(p.Index)}
	}
	return p.Table.Indexes
}

func callRank(c Call) int {
	if c == GetItem {
		return 0
	}
	return 1
}

func condAttrs(cs []*model.Cond) string {
	var names []string
	for _, c := range model.Leaves(cs) {
		if !slices.Contains(names, c.Attr.Name) {
			names = append(names, c.Attr.Name)
		}
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
			if ix.Multi() {
				return fail("its partition key (%s) needs %s, which is not in by: DynamoDB compares every partition key attribute with equality", keyAttrList(ix.PartitionKeys()), a.Name)
			}
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
			if ix.Multi() {
				return fail("%s's partition key is (%s) but %s's is (%s), so they are not one item collection", p.Entities[0].Name, first.PK.Source, p.Entities[i+1].Name, k.PK.Source)
			}
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
		if err := pathInPrefix(sk, prefix); err != "" && !sk.Multi {
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
			if sk.Multi {
				return failBound("by %s is not among the leading attributes of the sort key (%s) of %s, which DynamoDB compares left to right: %s", name, keyAttrList(ix.SKs), ix.Name, multiNext(ix, prefix))
			}
			return failBound("by %s is not a leading placeholder of the sort key %s=%q (after the bound part %s)", name, ix.SK.Name, sk.Source, quoteTemplate(sk, prefix, ""))
		}
	}
	key := &KeyCond{Index: ix, PK: first.PK, Parts: first.Parts}
	if sk != nil {
		key.SK = SKCond{Template: sk, Prefix: prefix}
		full := prefix == len(sk.Segments) && len(keys) == 1
		switch {
		case full:
			key.SK.Kind = SKEq
		case prefix > 0 && !sk.Multi:
			key.SK.Kind = SKBeginsWith
		}
		// Rule 3: where is the next placeholder, in an order-keeping form.
		if p.Where != nil {
			if msg := whereCond(&key.SK, ix, p.Where, soleEntity(p)); msg != "" {
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
			if ix.Multi() {
				return failBound("get needs the whole key; by %s leaves %s of the sort key (%s) open", strings.Join(p.By, ", "), keyAttrList(ix.SKs[key.SK.Prefix:]), keyAttrList(ix.SKs))
			}
			return failBound("get needs the whole key; by %s leaves the sort key %s=%q open", strings.Join(p.By, ", "), ix.SK.Name, sk.Source)
		}
		if ix.IsPrimary() {
			call = GetItem
		}
	}
	pp := &Pattern{Pattern: p, Call: call, Form: readForm(p, call), Index: ix, Key: key}
	for _, name := range p.By {
		pp.Inputs = append(pp.Inputs, p.Entity().Attr(name))
	}
	// Other entities reading through the same key condition.
	if msg := b.members(pp, keys); msg != "" {
		return failBound("%s", msg)
	}
	if p.First {
		if msg := firstOK(pp); msg != "" {
			return failBound("%s", msg)
		}
	}
	// Rule 5: the index projects what the result needs.
	if msg := projects(pp); msg != "" {
		return failBound("%s", msg)
	}
	for _, f := range model.Leaves(p.Filter) {
		if slices.ContainsFunc(ix.KeyAttrs(), func(ka *model.KeyAttr) bool { return ka.Name == f.Attr.Stored }) {
			return failBound("filter on %s, a key attribute of %s; narrow it with by or where instead", f.Attr.Name, ix.Name)
		}
		if !ix.Projects(f.Attr.Stored) {
			return failBound("filter on %s, which %s does not project", f.Attr.Name, ix.Name)
		}
	}
	if p.Expires() && !ix.Projects(p.Table.TTL) {
		return failBound("expired items are told by the ttl attribute %s, which %s does not project; project it, or add expired: include", p.Table.TTL, ix.Name)
	}
	return candidate{plan: pp}
}

// firstOK says why a query's first item can't be read with Limit 1 from
// the key condition of pp: the one item read must be the result, so the
// key condition must read no item the method would then drop.
func firstOK(pp *Pattern) string {
	p := pp.Pattern
	if len(pp.Foreign) > 0 {
		var names []string
		for _, f := range pp.Foreign {
			names = append(names, f.Entity.Name)
		}
		if pp.Index.Multi() {
			return fmt.Sprintf("first reads one item with Limit 1, and items of %s share the key range, so the one item read may be one of theirs, dropped, while %s item follows; bind the entity attribute %s in the key condition (a key attribute of %s before the attributes the pattern leaves open), or remove first", strings.Join(names, ", "), model.Article(p.Entity().Name), p.Table.EntityAttr, pp.Index.Name)
		}
		return fmt.Sprintf("first reads one item with Limit 1, and items of %s share the key range, so the one item read may be one of theirs, dropped, while %s item follows; give %s a sort key prefix that no other entity's sort key starts with, or remove first", strings.Join(names, ", "), model.Article(p.Entity().Name), p.Entity().Name)
	}
	if pp.Key.SK.DropEqual && p.Order == model.Desc {
		return fmt.Sprintf("first reads one item with Limit 1, and where %s < reads the item equal to the bound and drops it after the read (BETWEEN includes the bound): in descending order it comes first, and an item before it would be missed; use <=, or order asc, or remove first", p.Where.Attr.Name)
	}
	return ""
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
	multi := keys[0].SK.Multi
	out := &model.Template{Source: "", Pos: keys[0].SK.Pos, KeyType: keys[0].SK.KeyType, Multi: multi}
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
			// A part of a multi-attribute key is a whole value: no part
			// of its text is shared.
			if lit != "" && !multi {
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

// soleEntity is the entity of a pattern of one entity, or nil.
func soleEntity(p *model.Pattern) *model.Entity {
	if p.IsCollection() {
		return nil
	}
	return p.Entity()
}

// whereCond turns the where condition into the sort key condition, or
// says why it can't be one on the sort key of ix. e is the pattern's
// entity, nil for a collection.
func whereCond(s *SKCond, ix *model.Index, w *model.Cond, e *model.Entity) string {
	if s.Template.Multi {
		return whereMulti(s, ix, w)
	}
	skAttr := ix.SK
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
		if op == model.OpBeginsWith && s.Template.KeyType == model.N {
			return fmt.Sprintf("where %s beginsWith: the sort key %s is a number", x.Name, skAttr.Name)
		}
		s.compareDirectly(op)
		return ""
	}
	if op == model.OpBeginsWith {
		switch x.Type {
		case model.String, model.Enum:
		case model.Path:
			if last {
				return fmt.Sprintf("where %s beginsWith: the path ends the sort key %q, so no one prefix selects a node and its subtree (%q would also match %q)%s", x.Name, s.Template.Source, "a"+string(x.Separator)+"b", "a"+string(x.Separator)+"bc", pathEndFix(ix, e, x))
			}
		default:
			return fmt.Sprintf("where %s beginsWith: %s is %s; beginsWith applies to strings", x.Name, x.Name, x.Describe())
		}
		s.Kind = SKBeginsWith
		return ""
	}
	fixed := x.KeepsOrder()
	if x.Type == model.Path {
		return fmt.Sprintf("where %s %s: a path compares only with beginsWith", x.Name, op)
	}
	if !fixed && !last {
		return fmt.Sprintf("where %s %s: %s is %s followed by more of the sort key %q, so its key text does not sort like its values (only int, time and bool do, or a string placed last)", x.Name, op, x.Name, model.Article(string(x.Type)), s.Template.Source)
	}
	if x.Type == model.Enum {
		if why := enumOrder(x); why != "" {
			return fmt.Sprintf("where %s %s: %s, so a range of keys is not a range of values; read each value with by, or key on an int that ranks the values", x.Name, op, why)
		}
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
			s.compareDirectly(op)
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

// whereMulti turns the where condition into the condition on the sort key
// attribute of a multi-attribute key that follows the ones the inputs
// bind with equality, or says why it can't be one. DynamoDB compares the
// attribute in its own type: a number as a number, a string by its UTF-8
// bytes; begins_with takes a string.
func whereMulti(s *SKCond, ix *model.Index, w *model.Cond) string {
	segs := s.Template.Segments
	if s.Prefix >= len(segs) || segs[s.Prefix].Attr == nil || segs[s.Prefix].Attr.Name != w.Attr.Name {
		if !ix.IsKeyAttr(w.Attr.Stored) || slices.ContainsFunc(ix.PartitionKeys(), func(ka *model.KeyAttr) bool { return ka.Name == w.Attr.Stored }) {
			return fmt.Sprintf("where %s: %s is not in the sort key (%s) of %s", w.Attr.Name, w.Attr.Name, keyAttrList(ix.SKs), ix.Name)
		}
		return fmt.Sprintf("where %s: DynamoDB compares the sort key attributes (%s) of %s left to right, with equality on all before the one compared: %s", w.Attr.Name, keyAttrList(ix.SKs), ix.Name, multiNext(ix, s.Prefix))
	}
	x := segs[s.Prefix].Attr
	ka := ix.SKs[s.Prefix]
	s.Range = w
	s.compareDirectly(w.Op)
	if w.Op == model.OpBeginsWith {
		switch {
		case ka.Type == model.B && x.Type == model.Bytes:
			// A binary compares by its bytes: begins_with takes one.
		case ka.Type != model.S:
			return fmt.Sprintf("where %s beginsWith: key attribute %s of %s is of type %s; beginsWith applies to strings and binary", x.Name, ka.Name, ix.Name, ka.Type)
		case x.Type == model.Path:
			return fmt.Sprintf("where %s beginsWith: the path is the whole value of key attribute %s of %s, so no one prefix selects a node and its subtree (%q would also match %q); key the index on a synthetic sort key that ends with the path's separator", x.Name, ka.Name, ix.Name, "a"+string(x.Separator)+"b", "a"+string(x.Separator)+"bc")
		case x.Type != model.String && x.Type != model.Enum:
			return fmt.Sprintf("where %s beginsWith: %s is %s; beginsWith applies to strings", x.Name, x.Name, x.Describe())
		}
		return ""
	}
	if x.Type == model.Path {
		return fmt.Sprintf("where %s %s: a path compares only with beginsWith", x.Name, w.Op)
	}
	if x.Type == model.Enum {
		if why := enumOrder(x); why != "" {
			return fmt.Sprintf("where %s %s: %s, so a range of keys is not a range of values; read each value with by, or key on an int that ranks the values", x.Name, w.Op, why)
		}
	}
	return ""
}

// directKinds are the sort key conditions of where's operators compared
// with the operand itself (a whole key, or a key attribute of a
// multi-attribute key).
var directKinds = map[model.CondOp]SKKind{model.OpLt: SKLt, model.OpLe: SKLe, model.OpGt: SKGt, model.OpGe: SKGe, model.OpBetween: SKBetween, model.OpBeginsWith: SKBeginsWith}

// compareDirectly makes s compare the sort key with where's operand (op):
// the operand the value, both operands of a between.
func (s *SKCond) compareDirectly(op model.CondOp) {
	s.Kind, s.Lo = directKinds[op], Bound{Value: Operand}
	if op == model.OpBetween {
		s.Hi = Bound{Value: Operand, Operand: 1}
	}
}

// keyAttrList names key attributes: "round, bracket, startsAt".
func keyAttrList(kas []*model.KeyAttr) string {
	names := make([]string, len(kas))
	for i, ka := range kas {
		names[i] = ka.Name
	}
	return strings.Join(names, ", ")
}

// multiNext says what the inputs of a read bind of the sort key of ix, a
// multi-attribute key, and which attribute comes next.
func multiNext(ix *model.Index, prefix int) string {
	if prefix >= len(ix.SKs) {
		return "the inputs bind all of them"
	}
	next := ix.SKs[prefix].Name
	if prefix == 0 {
		return "the inputs bind none, so the next is " + next
	}
	return fmt.Sprintf("the inputs bind %s, so the next is %s", keyAttrList(ix.SKs[:prefix]), next)
}

// orderOK checks that the order of results is the order of the attribute
// that follows the bound part of the sort key.
func orderOK(ix *model.Index, key *KeyCond) string {
	if ix.SK == nil {
		return fmt.Sprintf("order needs a sort key, and %s has none", ix.Name)
	}
	s := key.SK
	if s.Template.Multi {
		// Each attribute compares in its own type; an enum in the order
		// of its text.
		if s.Prefix < len(s.Template.Segments) {
			if x := s.Template.Segments[s.Prefix].Attr; x != nil && x.Type == model.Enum {
				if why := enumOrder(x); why != "" {
					return fmt.Sprintf("order sorts by the sort key attribute %s of %s, which holds the text of the value: %s; leave order out (the items then come in the order of the text), or key on an int that ranks the values", ix.SKs[s.Prefix].Name, ix.Name, why)
				}
			}
		}
		return ""
	}
	if s.Template.KeyType != model.S || s.Prefix >= len(s.Template.Segments) {
		return ""
	}
	x := s.Template.Segments[s.Prefix].Attr
	if x == nil {
		return ""
	}
	if !x.KeepsOrder() && s.Prefix != len(s.Template.Segments)-1 {
		return fmt.Sprintf("order sorts by the sort key %s=%q, whose next part {%s} is %s followed by more text, so the order would not be the order of %s", ix.SK.Name, s.Template.Source, x.Name, model.Article(string(x.Type)), x.Name)
	}
	if x.Type == model.Enum {
		if why := enumOrder(x); why != "" {
			return fmt.Sprintf("order sorts by the sort key %s=%q, whose next part {%s} holds the text of the value: %s; leave order out (the items then come in the order of the key text), or key on an int that ranks the values", ix.SK.Name, s.Template.Source, x.Name, why)
		}
	}
	return ""
}

// pathEndFix proposes to end e's sort key on ix with the path's separator,
// so that the node and its subtree share the prefix path + separator.
func pathEndFix(ix *model.Index, e *model.Entity, x *model.Attribute) string {
	if e == nil {
		return ""
	}
	k := e.Key(ix)
	if k == nil || k.SK == nil || k.SK.Implied {
		return ""
	}
	tm := &model.Template{KeyType: k.SK.KeyType, Segments: append(slices.Clone(k.SK.Segments), model.Segment{Literal: string(x.Separator)})}
	tm.Source = tm.String()
	c := keyChange{e: e, ix: ix, keyAttr: ix.SK, tm: tm}
	if !changesOK([]keyChange{c}, nil) {
		return ""
	}
	return "; end the sort key with the path's separator, e.g. " + c.String()
}

// refuse reports a read no index can serve, with the real reason and
// what would fix it. Three cases tell the reason apart: a consistent read
// that only a global index would serve; inputs that build the partition
// key of an index whose sort key, projection or members don't fit the
// rest of the pattern; and inputs that build no partition key, so that
// only a Scan could read the items.
func (b *builder) refuse(p *model.Pattern, failed []candidate) {
	e := p.Entity()
	var keys []string
	for _, k := range e.Keys {
		if k.Parts != nil {
			keys = append(keys, k.Index.Name+" "+describeKey(k))
			continue
		}
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
	var inconsistent []string // global indexes that serve p without consistent
	if p.Consistent {
		for _, c := range failed {
			if c.ix.Kind == model.Global && b.servesInconsistent(p, c.ix) {
				inconsistent = append(inconsistent, c.ix.Name)
			}
		}
	}
	var reasons, bound []string
	for _, c := range failed {
		r := c.reason
		if slices.Contains(inconsistent, c.ix.Name) {
			r += " (without consistent: true it would serve the pattern)"
		}
		reasons = append(reasons, fmt.Sprintf("%s: %s", c.ix.Name, r))
		if c.pkBound {
			bound = append(bound, c.ix.Name)
		}
	}
	var head string
	var fixes []string
	var notes []string
	switch {
	case len(inconsistent) > 0:
		head = fmt.Sprintf("pattern %s asks for consistent: true, which only the table and its local indexes serve, and none of them serves it (%s)", p.Name, strings.Join(reasons, "; "))
		if p.Index != "" {
			head = fmt.Sprintf("pattern %s asks for consistent: true, but the index it names is global, and a global index has no consistent reads (%s)", p.Name, strings.Join(reasons, "; "))
		}
		fixes = append(fixes, "remove consistent: true")
		fixes = append(fixes, b.otherIndexFix(p)...)
		fixes = append(fixes, b.byFix(p)...)
		fixes = append(fixes, b.localIndexFix(p)...)
	case len(bound) > 0:
		head = fmt.Sprintf("pattern %s: by builds the partition key of %s, but the rest of the pattern does not fit (%s)", p.Name, strings.Join(bound, " and "), strings.Join(reasons, "; "))
		fixes = append(fixes, b.otherIndexFix(p)...)
		fixes = append(fixes, b.byFix(p)...)
		if p.Consistent {
			fixes = append(fixes, b.localIndexFix(p)...)
		}
	default:
		head = fmt.Sprintf("pattern %s would need a Scan: %s (%s)", p.Name, which, strings.Join(reasons, "; "))
		if len(p.By) == 0 {
			notes = append(notes, "A query needs by: the attributes its partition key is built from.")
			break
		}
		fixes = append(fixes, b.otherIndexFix(p)...)
		fixes = append(fixes, b.byFix(p)...)
		fixes = append(fixes, b.collectionFix(p)...)
		if p.Consistent {
			notes = append(notes, fmt.Sprintf("Only the table and its local indexes serve consistent reads, and their partition key %s=%q is built from %s.", p.Table.PK.Name, e.PrimaryKey().PK.Source, names(e.PrimaryKey().PK.Attrs())))
		} else if fix, why := b.indexProposal(p); fix != "" {
			fixes = append(fixes, fix)
		} else if why != "" {
			notes = append(notes, why)
		}
	}
	msg := fmt.Sprintf("%s. %s's keys are %s.", head, e.Name, strings.Join(keys, ", "))
	for _, n := range notes {
		msg += " " + n
	}
	if len(fixes) > 0 {
		msg += " " + upperFirst(strings.Join(fixes, "; or "))
	}
	b.errorf(p.Pos, "%s", msg)
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// servesInconsistent reports whether the global index ix would serve p
// if p did not ask for a consistent read.
func (b *builder) servesInconsistent(p *model.Pattern, ix *model.Index) bool {
	q := *p
	q.Consistent = false
	return b.tryRead(&q, ix).plan != nil
}

// otherIndexFix proposes to drop index: when another index of the table
// serves the pattern (not with order:, which would then be the order of
// another sort key).
func (b *builder) otherIndexFix(p *model.Pattern) []string {
	if p.Index == "" || p.OrderPos.Line != 0 {
		return nil
	}
	for _, ix := range p.Table.Indexes {
		if ix.Name != p.Index && b.tryRead(p, ix).plan != nil {
			return []string{fmt.Sprintf("remove index: %s (%s serves the pattern)", p.Index, ix.Name)}
		}
	}
	return nil
}

// byFix proposes to add to by what the partition key of an index needs,
// when the pattern is then served: a get by orderId on a table keyed
// "CUSTOMER#{customerId}" / "ORDER#{orderId}" needs customerId too.
func (b *builder) byFix(p *model.Pattern) []string {
	var best []string
	for _, ix := range readIndexes(p) {
		k := p.Entity().Key(ix)
		if k == nil {
			continue
		}
		var missing []string
		for _, a := range k.PK.Attrs() {
			if !slices.Contains(p.By, a.Name) {
				missing = append(missing, a.Name)
			}
		}
		if len(missing) == 0 || (best != nil && len(missing) >= len(best)) {
			continue
		}
		usable := true
		for _, name := range missing {
			if p.Where != nil && p.Where.Attr.Name == name {
				usable = false
			}
			for _, e := range p.Entities {
				if e.Attr(name) == nil {
					usable = false
				}
			}
		}
		if !usable {
			continue
		}
		q := *p
		q.By = append(slices.Clone(p.By), missing...)
		if b.tryRead(&q, ix).plan != nil {
			best = missing
		}
	}
	if best == nil {
		return nil
	}
	return []string{fmt.Sprintf("add %s to by", strings.Join(best, ", "))}
}

// readForm is the form of the method of a read p served by call.
func readForm(p *model.Pattern, call Call) Form {
	switch {
	case call == GetItem:
		return FormGet
	case p.Op == model.OpGet:
		return FormGetByQuery
	case p.First:
		return FormFirst
	}
	return FormPages
}

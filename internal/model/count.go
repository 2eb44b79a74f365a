package model

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dyngen/dyngen/spec"
)

// Count is a count of an entity's items by group: per value of the
// attributes Per (the scope, attributes of the owner's primary key), one
// number for each value of By (an enum or a bool), held by one hidden
// item of the entity Counter and kept by every write of the owner in one
// transaction with its item.
type Count struct {
	Owner *Entity
	Name  string
	// Pos is the count's entry in the entity's counts list.
	Pos Pos
	Per []*Attribute
	By  *Attribute
	// Groups are the values of By, in order (false, true for a bool),
	// and Attrs the counter's attribute of each (set with Counter).
	Groups []string
	Attrs  []string
	// Counter is the hidden entity of the counter item: the scope
	// attributes, then a number per group.
	Counter *Entity
}

// CountPrefix starts the key of every counter item:
// COUNT#<Entity>#<count>#{scope}...
const CountPrefix = "COUNT"

// CountTypeValue is the value a counter item's entity attribute holds:
// Member#MembersByRole.
func CountTypeValue(e *Entity, name string) string { return e.TypeValue + "#" + name }

// CountTemplate is the template of both key attributes of a counter: a
// literal naming the entity and the count, then the scope's values.
func CountTemplate(e *Entity, name string, per []*Attribute) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s#%s#%s", CountPrefix, e.Name, name)
	for _, a := range per {
		fmt.Fprintf(&b, "#{%s}", a.Name)
	}
	return b.String()
}

// GroupAttr is the counter's attribute counting the items of group value
// v, or nil.
func (c *Count) GroupAttr(v string) *Attribute {
	if c.Counter == nil {
		return nil
	}
	for i, g := range c.Groups {
		if g == v {
			return c.Counter.Attr(c.Attrs[i])
		}
	}
	return nil
}

// GroupOf is the group value the counter's attribute a counts, or "".
func (c *Count) GroupOf(a *Attribute) string {
	for i, n := range c.Attrs {
		if n == a.Name {
			return c.Groups[i]
		}
	}
	return ""
}

// counts checks the counts list of entity e and returns the spec of the
// counter entity of each, for the resolver to resolve as it does the
// spec's own entities.
func (r *resolver) counts(e *Entity, se *spec.Entity, counters map[*spec.Entity]*Count) []*spec.Entity {
	if len(se.Counts) == 0 || len(e.Keys) == 0 || e.Table == nil {
		return nil
	}
	if ttl := e.TTLAttr(); ttl != nil && !r.released(e.Name) {
		r.errorf(se.CountsPos, "%s has counts and stores its table's ttl attribute (%s): DynamoDB deletes an expired item without a write of dyngen, which would leave its count one too high; release its counts with a consumer of the table's stream that lists %s under release:, remove counts, or store the time to live under another name", e.Name, ttl.Name, e.Name)
		return nil
	}
	t := e.Table
	pkAttrs := e.PrimaryKey().Attrs()
	var out []*spec.Entity
	names := map[string]bool{}
	for _, sc := range se.Counts {
		what := fmt.Sprintf("count %s of %s", sc.Name.Value, e.Name)
		if names[sc.Name.Value] {
			r.errorf(sc.Name.Pos, "%s is listed twice; name the counts apart", what)
			continue
		}
		names[sc.Name.Value] = true
		known := func() []string {
			var out []string
			for _, x := range e.Attributes {
				out = append(out, x.Name)
			}
			return out
		}
		bad := false
		by := e.Attr(sc.By.Value)
		switch {
		case by == nil:
			r.errorf(sc.By.Pos, "%s: by names %q, which is not an attribute of %s%s", what, sc.By.Value, e.Name, nearest(sc.By.Value, known()))
			bad = true
		case by.Type != Enum && by.Type != Bool:
			r.errorf(sc.By.Pos, "%s: by is %s, which is %s; a count's groups are the values of an enum or a bool, a fixed set: the counter item holds one number per group, and a string's values are unbounded (an item holds at most 400 KB)", what, by.Name, by.Describe())
			bad = true
		case by.Optional:
			r.errorf(sc.By.Pos, "%s: by is %s, which is optional, and an item without it would be in no group; make it required (remove optional: true)", what, by.Name)
			bad = true
		case by.Default != nil:
			r.errorf(by.Default.Pos, "%s: by is %s, which has a default, which a read gives an item stored without it; such an item is in no count, and every write of it would fail the condition on the group it read: remove default:", what, by.Name)
			bad = true
		case slices.Contains(pkAttrs, by):
			r.errorf(sc.By.Pos, "%s: by is %s, which is in the primary key of %s: an item's group could never change, and each group would be an item; count by an attribute out of the key", what, by.Name, e.Name)
			bad = true
		}
		var per []*Attribute
		for _, n := range sc.Per {
			a := e.Attr(n.Value)
			switch {
			case a == nil:
				r.errorf(n.Pos, "%s: per names %q, which is not an attribute of %s%s", what, n.Value, e.Name, nearest(n.Value, known()))
				bad = true
			case slices.Contains(per, a):
				r.errorf(n.Pos, "%s: per lists %s twice; remove one", what, a.Name)
				bad = true
			case a == by:
				r.errorf(n.Pos, "%s: per lists %s, which is the group (by); remove it from per", what, a.Name)
				bad = true
			case !slices.Contains(pkAttrs, a):
				r.errorf(n.Pos, "%s: per lists %s, which is not in the primary key of %s: no write changes a key attribute, so an item stays on one counter; a scope a write could change would move the item between two counter items; count per attributes of the primary key (%s)", what, a.Name, e.Name, attrNames(pkAttrs))
				bad = true
			default:
				per = append(per, a)
			}
		}
		for _, ka := range t.Primary().KeyAttrs() {
			if ka.Type != S {
				r.errorf(sc.Name.Pos, "%s: the counter is an item keyed %q, and key attribute %s of table %s is of type %s; a table with counts needs string (S) key attributes", what, CountTemplate(e, sc.Name.Value, per), ka.Name, t.Name, ka.Type)
				bad = true
			}
		}
		for _, x := range per {
			if !bad && t.KeyAttrNamed(x.Name) != nil {
				r.errorf(sc.Name.Pos, "%s: the counter stores %s under its name, which is a key attribute of table %s; rename the attribute (its stored name may stay: attr:)", what, x.Name, t.Name)
				bad = true
			}
		}
		if bad {
			continue
		}
		c := &Count{Owner: e, Name: sc.Name.Value, Pos: sc.Name.Pos, Per: per, By: by}
		if by.Type == Bool {
			c.Groups = []string{"false", "true"}
		} else {
			c.Groups = slices.Clone(by.Values)
		}
		// Each group's number is stored under the group's value, and
		// named (in the model and in Go) as its enum constant is.
		taken := map[string]bool{}
		stored := map[string]*Attribute{}
		for _, x := range per {
			taken[x.Name], taken[x.GoName] = true, true
			stored[x.Stored] = x
		}
		for _, g := range c.Groups {
			name := strings.TrimPrefix(EnumConst(e, by, g), EnumType(e, by))
			if by.Type == Bool {
				name = GoName(g)
			}
			switch {
			case stored[g] != nil:
				r.errorf(sc.By.Pos, "%s: the counter stores the number of group %q under its value, which is where it stores per attribute %s; rename the value", what, g, stored[g].Name)
				bad = true
			case taken[name]:
				r.errorf(sc.By.Pos, "%s: the number of group %q would be named %s, which another group or a per attribute is; rename one", what, g, name)
				bad = true
			case t.KeyAttrNamed(g) != nil || g == t.EntityAttr || g == t.TTL:
				r.errorf(sc.By.Pos, "%s: the counter stores the number of group %q under its value, which is a key attribute, the entity attribute or the ttl attribute of table %s; rename the value", what, g, t.Name)
				bad = true
			}
			taken[name] = true
			c.Attrs = append(c.Attrs, name)
		}
		if bad {
			continue
		}
		e.Counts = append(e.Counts, c)
		str := func(v string) spec.Str { return spec.Str{Value: v, Pos: sc.Name.Pos, Set: true} }
		cs := &spec.Entity{
			Name:      sc.Name,
			Pos:       sc.Pos,
			Doc:       str(fmt.Sprintf("%s counts the %s items by %s: one number per group, kept by every write of a %s in one transaction with its item.", sc.Name.Value, e.Name, by.Name, e.Name)),
			Table:     str(t.Name),
			TypeValue: str(CountTypeValue(e, sc.Name.Value)),
		}
		for _, x := range per {
			cs.Attributes = append(cs.Attributes, specAttr(x, sc.Pos))
		}
		for i, g := range c.Groups {
			// A number no write added to yet (a group added to the spec
			// since) reads 0.
			zero := &spec.Const{Value: "0", Tag: "!!int", Pos: sc.Pos}
			cs.Attributes = append(cs.Attributes, &spec.Attribute{Name: str(c.Attrs[i]), Attr: str(g), Pos: sc.Pos, Type: str(string(Int)), Default: zero, Doc: str(fmt.Sprintf("The number of %s items whose %s is %s.", e.Name, by.Name, g))})
		}
		keys := &spec.Keys{Index: str(PrimaryName), Pos: sc.Pos, PK: str(CountTemplate(e, sc.Name.Value, per))}
		if t.SK != nil {
			keys.SK = keys.PK
		}
		cs.Keys = []*spec.Keys{keys}
		counters[cs] = c
		out = append(out, cs)
	}
	return out
}

func attrNames(as []*Attribute) string {
	var names []string
	for _, a := range as {
		names = append(names, a.Name)
	}
	return strings.Join(names, ", ")
}

// The roles of a step that adds to the numbers of a counter
// (Step.Count): CountStep, but AbsentCountStep for a put's when the
// read found no item (the put is then a create: its item leaves no
// group).
const (
	CountStep StepRole = 100 + iota
	AbsentCountStep
)

// countWrites adds to every write of an entity with counts, after the
// steps uniqueWrites planned (if any), the update of each counter it
// changes, and reads the item first where the groups it moves between
// are those the item holds: a delete, a put, an update that sets a
// group. It refuses the writes that can't keep the counts exact.
func (r *resolver) countWrites() {
	defer func() { r.part = nil }()
	for _, p := range r.m.Patterns {
		if p.Op.IsTransaction() {
			r.part = p
			r.transactionCounts(p)
			continue
		}
		if len(p.Entities) == 0 {
			continue
		}
		e := p.Entity()
		if len(e.Counts) == 0 || e.ClaimOf != nil || e.CountOf != nil {
			continue
		}
		r.part = p
		var counted []*Count
		switch p.Op {
		case OpBatchPut, OpBatchDelete:
			r.errorf(p.OpPos, "pattern %s: %s of %s, which has counts (%s): BatchWriteItem sends no condition and no transaction, so it can't tell which items it creates, replaces or deletes, nor keep their counts; use create, put and delete", p.Name, p.Op, e.Name, countNames(e))
			continue
		case OpCreate, OpDelete, OpPut:
			counted = e.Counts
		case OpUpdate:
			for _, c := range e.Counts {
				if slices.Contains(p.SetAttrs(), c.By) {
					counted = append(counted, c)
				}
			}
			if len(counted) == 0 {
				continue // the groups stay: no count changes
			}
			if p.Upsert {
				r.errorf(p.OpPos, "pattern %s: an upsert of %s sets %s, the group of count %s, and an upsert may create the item unseen, without counting it; remove upsert, or create the item first", p.Name, e.Name, counted[0].By.Name, counted[0].Name)
				continue
			}
		default:
			continue
		}
		if p.Many != "" {
			// As with unique values: the single write reads the item
			// first, then sends a transaction of the write and the
			// counters.
			what := "deletes"
			if p.Op == OpUpdate {
				what = "sets the group of"
			}
			r.errorf(p.ManyPos, "pattern %s: many over %s, which has counts (%s): a write that %s the item reads it first to move its counts (GetItem, then a transaction of the write and the counters), which a write over many keys can't do; write each item with its own %s", p.Name, e.Name, countNames(e), what, p.Op)
			continue
		}
		if p.Steps == nil {
			// No unique value made the write a transaction: its own
			// step, and, for an unversioned put, its create over no item.
			own := r.ownStep(p, nil)
			p.Steps = append(p.Steps, own)
			if p.Op == OpPut && e.Version == nil {
				p.Steps = append(p.Steps, r.absentStep(p))
			}
		}
		if p.Op != OpCreate {
			// The write holds only while the item is still in the groups
			// read.
			for _, st := range p.Steps {
				if st.Claim != nil || st.Role == AbsentStep {
					continue
				}
				for _, c := range counted {
					if !slices.ContainsFunc(st.When, func(w *Cond) bool { return w.Read && w.Attr == c.By }) {
						st.When = append(st.When, &Cond{Attr: c.By, Pos: c.Pos, Op: OpEq, Read: true})
					}
				}
			}
		}
		for _, c := range counted {
			p.Steps = append(p.Steps, countStep(p, c, CountStep))
		}
		if p.Op == OpPut && e.Version == nil {
			for _, c := range counted {
				p.Steps = append(p.Steps, countStep(p, c, AbsentCountStep))
			}
		}
		numberSteps(p, p.Steps)
		p.Counted = counted
		if len(p.Steps) > MaxTransactionActions {
			r.errorf(p.OpPos, "pattern %s writes %d items with the claims and counters of %s, and DynamoDB takes at most %d actions in one transaction", p.Name, len(p.Steps), e.Name, MaxTransactionActions)
		}
	}
}

// countStep is the step of pattern p that adds to the numbers of count
// c's counter: an update of the counter (created by its first ADD, so an
// upsert) adding to each group's number the change of the items in it.
func countStep(p *Pattern, c *Count, role StepRole) *Step {
	ct := c.Counter
	st := derivedStep(p, ct, c.Pos, OpUpdate)
	st.Upsert = true
	for _, n := range c.Attrs {
		st.Add = append(st.Add, ct.Attr(n))
	}
	st.Count, st.Role = c, role
	return st
}

func countNames(e *Entity) string {
	return joinNames(e.Counts, func(c *Count) string { return c.Name })
}

// ReadsFirst reports whether a write of an entity with unique values,
// counts or items per element reads the item before its transaction: to
// learn the values its claims hold, the groups its counts move between,
// or the set whose elements have items.
func (p *Pattern) ReadsFirst() bool {
	return len(p.Read) > 0 || len(p.Counted) > 0 && p.Op != OpCreate || len(p.ReadEach) > 0
}

// transactionCounts adds to transaction p, after its steps (and the
// claims transactionClaims added), the counter update of each count of
// the item each create step writes, and refuses the steps that would
// need to read an item first: a put, a delete, an update that sets a
// group.
func (r *resolver) transactionCounts(p *Pattern) {
	var adds []*Step
	n := len(p.Steps)
	for _, st := range p.Steps[:n] {
		if st.Claim != nil || st.Count != nil {
			continue
		}
		e := st.Entity()
		if len(e.Counts) == 0 {
			continue
		}
		switch {
		case st.Op == OpCheck || st.Op == OpGet:
		case st.Op == OpUpdate:
			for _, c := range e.Counts {
				if slices.Contains(st.SetAttrs(), c.By) {
					r.errorf(st.OpPos, "step %d of %s %s: update %s sets %s, the group of count %s, which is not supported in a transaction: it would read the item first to learn the group it leaves; use the entity's own update pattern", st.Index+1, p.Op, p.Name, e.Name, c.By.Name, c.Name)
				}
			}
		case st.Op == OpCreate:
			for _, c := range e.Counts {
				cs := countStep(p, c, CountStep)
				cs.Of = st
				adds = append(adds, cs)
			}
		default:
			r.errorf(st.OpPos, "step %d of %s %s: %s %s, which has counts (%s), is not supported in a transaction: it would read the item first to learn the groups it counts in; use the entity's own %s pattern (a create step is supported: its counts are added to the transaction)", st.Index+1, p.Op, p.Name, st.Op, e.Name, countNames(e), st.Op)
		}
	}
	for _, c := range adds {
		c.Index = len(p.Steps)
		c.Pattern.Name = fmt.Sprintf("%s step %d", p.Name, c.Index+1)
		c.Pattern.GoName = fmt.Sprintf("%sStep%d", p.GoName, c.Index+1)
		if c.Index == MaxTransactionActions {
			r.errorf(c.Of.OpPos, "%s %s has %d steps with the counters its creates update, and DynamoDB takes at most %d actions in one transaction: split the transaction", p.Op, p.Name, n+len(adds), MaxTransactionActions)
			return
		}
		p.Steps = append(p.Steps, c)
	}
}

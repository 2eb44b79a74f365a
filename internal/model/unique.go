package model

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dyngen/dyngen/spec"
)

// Unique is a unique value of an entity: no two of its items hold one
// value of Attrs (several attributes: one combination of their values).
// Each value is claimed by an item of its own, of the entity Claim,
// stored in the owner's table and written in one transaction with the
// owner's item.
type Unique struct {
	Owner *Entity
	// Attrs are the attributes whose values the claim holds, in the
	// spec's order: one, or several together (a composite).
	Attrs []*Attribute
	// Lower is set by normalize: lower: the claim holds the string
	// values lower-cased (strings.ToLower), the item what was written.
	Lower bool
	// Each is set on the unique value of a set (stringSet, intSet): no
	// two items hold one element, each element claimed by an item of its
	// own. Attrs is then the set alone.
	Each bool
	// Pos is the attribute's entry in the entity's unique list.
	Pos Pos
	// Claim is the hidden entity of the claims: the unique attributes and
	// the owner's primary key attributes, which lead a lookup to the
	// owner.
	Claim *Entity
}

// Label names the unique value in messages, step names and type values:
// its attribute, or its attributes joined by "+" (libraryId+email).
func (u *Unique) Label() string { return uniqueLabel(u.Attrs) }

func uniqueLabel(attrs []*Attribute) string {
	var names []string
	for _, a := range attrs {
		names = append(names, a.Name)
	}
	return strings.Join(names, "+")
}

// Has reports whether a is one of the attributes of u.
func (u *Unique) Has(a *Attribute) bool { return slices.Contains(u.Attrs, a) }

// Normalized reports whether the claim holds attribute a of u
// normalised (lower-cased): a string of a unique value with normalize:
// lower.
func (u *Unique) Normalized(a *Attribute) bool { return u.Lower && a.Type == String && u.Has(a) }

// ClaimPrefix starts the key of every claim item:
// UNIQUE#<Entity>#<attribute>#{value}.
const ClaimPrefix = "UNIQUE"

// ClaimName is the name (and Go name) of the claim entity of attributes
// attrs of e: UserEmailClaim, MemberLibraryIDEmailClaim.
func ClaimName(e *Entity, attrs []*Attribute) string {
	name := e.GoName
	for _, a := range attrs {
		name += a.GoName
	}
	return name + "Claim"
}

// ClaimTypeValue is the value a claim item's entity attribute holds:
// User.email, Member.libraryId+email. No attribute name holds a "+", so
// a composite's never meets a single value's.
func ClaimTypeValue(e *Entity, attrs []*Attribute) string {
	return e.TypeValue + "." + uniqueLabel(attrs)
}

// ClaimTemplate is the template of both key attributes of a claim: a
// literal naming the entity and the attributes, then the values, every
// part apart by "#" (UNIQUE#User#email#{email},
// UNIQUE#Member#libraryId#email#{libraryId}#{email}). The key builder
// refuses a string value holding a separator of the template, so the
// values read back one way, and a key of n attributes has 2+2n parts:
// claims of different attributes never meet. The literal joins the
// names with "#" rather than "+" (as the type value does) because every
// such character of a template is a separator its values may not hold,
// and an email may hold "+".
func ClaimTemplate(e *Entity, attrs []*Attribute) string {
	var names, values []string
	for _, a := range attrs {
		names = append(names, a.Name)
		values = append(values, "{"+a.Name+"}")
	}
	return fmt.Sprintf("%s#%s#%s#%s", ClaimPrefix, e.Name, strings.Join(names, "#"), strings.Join(values, "#"))
}

// UniquesWith returns e's unique values that attribute a is one of.
func (e *Entity) UniquesWith(a *Attribute) []*Unique {
	var out []*Unique
	for _, u := range e.Unique {
		if u.Has(a) {
			out = append(out, u)
		}
	}
	return out
}

// UniqueBy returns e's unique value of exactly the attributes attrs, in
// any order, or nil.
func (e *Entity) UniqueBy(attrs []*Attribute) *Unique {
	for _, u := range e.Unique {
		if sameAttrs(u.Attrs, attrs) {
			return u
		}
	}
	return nil
}

// sameAttrs reports whether a and b hold the same attributes, in any
// order.
func sameAttrs(a, b []*Attribute) bool {
	if len(a) != len(b) {
		return false
	}
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}

// uniques checks the unique list of entity e and returns the spec of
// the claim entity of each value, for the resolver to resolve as it does
// the spec's own entities (names, type value, attributes, keys).
func (r *resolver) uniques(e *Entity, se *spec.Entity, claims map[*spec.Entity]*Unique) []*spec.Entity {
	if len(se.Unique) == 0 || len(e.Keys) == 0 || e.Table == nil {
		return nil
	}
	var out []*spec.Entity
	pkAttrs := e.PrimaryKey().Attrs()
	if ttl := e.TTLAttr(); ttl != nil && !r.released(e.Name) {
		r.errorf(se.UniquePos, "%s has unique values and stores its table's ttl attribute (%s): DynamoDB deletes an expired item without its claims, which would keep its values taken; release them with a consumer of the table's stream that lists %s under release:, remove unique, or store the time to live under another name", e.Name, ttl.Name, e.Name)
		return nil
	}
	for _, su := range se.Unique {
		var names []string
		for _, n := range su.Of {
			names = append(names, n.Value)
		}
		what := fmt.Sprintf("unique %s of %s", strings.Join(names, "+"), e.Name)
		var attrs []*Attribute
		bad := false
		for _, n := range su.Of {
			a := e.Attr(n.Value)
			if a == nil {
				r.errorf(n.Pos, "%s: %q is not an attribute of %s%s", what, n.Value, e.Name, e.nearestAttr(n.Value))
				bad = true
				continue
			}
			switch {
			case slices.Contains(attrs, a):
				r.errorf(n.Pos, "%s: %s is listed twice in one entry; remove one", what, a.Name)
				bad = true
			case (a.Type == StringSet || a.Type == IntSet) && len(su.Of) > 1:
				r.errorf(n.Pos, "%s: %s is a set, whose elements are claimed one by one: a set is unique alone; list it as an entry of its own", what, a.Name)
				bad = true
			case (a.Type == StringSet || a.Type == IntSet) && su.Normalize.Set:
				r.errorf(su.Normalize.Pos, "%s: %s is a set; normalize applies to string values, not to the elements of a set", what, a.Name)
				bad = true
			case (a.Type == StringSet || a.Type == IntSet) && a.MaxItems == 0:
				r.errorf(n.Pos, "%s: %s is a set with no maxItems, and each of its elements is a claim, written in the transaction of every write, which takes at most %d actions; declare the most elements: maxItems: <n>", what, a.Name, MaxTransactionActions)
				bad = true
			case (a.Type == StringSet || a.Type == IntSet) && e.Unique != nil && slices.ContainsFunc(e.Unique, func(u *Unique) bool { return u.Each }):
				r.errorf(n.Pos, "%s: %s has a unique set already (%s); one set per entity has claims per element", what, e.Name, e.Unique[slices.IndexFunc(e.Unique, func(u *Unique) bool { return u.Each })].Label())
				bad = true
			case a.Type == StringSet || a.Type == IntSet:
				// A claim per element.
			case a.Type != String && a.Type != Enum && a.Type != Int:
				r.errorf(n.Pos, "%s: %s is %s; a unique value is a string, an enum or an int, or a stringSet or intSet (a claim per element)", what, a.Name, a.Describe())
				bad = true
			case a.Optional:
				r.errorf(n.Pos, "%s: %s is optional, and an item without a value claims none; make it required (remove optional: true)", what, a.Name)
				bad = true
			case len(su.Of) == 1 && slices.Contains(pkAttrs, a):
				r.errorf(n.Pos, "%s: %s is in the primary key of %s, which no two items share already; remove it from unique", what, a.Name, e.Name)
				bad = true
			case a.Default != nil:
				// An item stored without the value has no claim: every write
				// of it conditions on the default it reads and fails, and
				// another item may claim the default, so two items would read
				// one value.
				r.errorf(a.Default.Pos, "%s: %s has a default, which a read gives an item stored without it; such an item has no claim, so every write of it fails its claim's condition, and another item can claim the default: remove default:, and write a value and its claim into the items that lack one", what, a.Name)
				bad = true
			}
			attrs = append(attrs, a)
		}
		if bad {
			continue
		}
		if len(attrs) > 1 && !slices.ContainsFunc(pkAttrs, func(k *Attribute) bool { return !slices.Contains(attrs, k) }) {
			r.errorf(su.Pos, "%s: %s holds every attribute of the primary key of %s, which no two items share already; remove it from unique", what, strings.Join(names, "+"), e.Name)
			continue
		}
		lower := su.Normalize.Value == "lower"
		if lower && !slices.ContainsFunc(attrs, func(a *Attribute) bool { return a.Type == String }) {
			r.errorf(su.Normalize.Pos, "%s: normalize: lower applies to string values, and %s holds none; remove normalize", what, strings.Join(names, "+"))
			continue
		}
		if i := slices.IndexFunc(attrs, func(a *Attribute) bool { return lower && a.Type == String && slices.Contains(pkAttrs, a) }); i >= 0 {
			// The claim holds the owner's key, to lead to it: lower-cased,
			// it leads nowhere, and two items of keys that differ in case
			// take one claim.
			r.errorf(su.Normalize.Pos, "%s: normalize: lower would hold %s, of the primary key of %s, lower-cased in the claim, which leads to the item by it: remove normalize, or %s from the unique value", what, attrs[i].Name, e.Name, attrs[i].Name)
			continue
		}
		if other := e.UniqueBy(attrs); other != nil {
			r.errorf(su.Pos, "%s: %s is listed twice; remove one", what, strings.Join(names, "+"))
			continue
		}
		t := e.Table
		for _, ka := range t.Primary().KeyAttrs() {
			if ka.Type != S {
				r.errorf(su.Pos, "%s: the claim of a value is an item keyed %q, and key attribute %s of table %s is of type %s; a table with unique values needs string (S) key attributes", what, ClaimTemplate(e, attrs), ka.Name, t.Name, ka.Type)
				bad = true
			}
		}
		stored := slices.Clone(attrs)
		for _, k := range pkAttrs {
			if !slices.Contains(stored, k) {
				stored = append(stored, k)
			}
		}
		for _, x := range stored {
			if !bad && t.KeyAttrNamed(x.Name) != nil {
				r.errorf(su.Pos, "%s: the claim stores %s under its name, which is a key attribute of table %s; rename the attribute (its stored name may stay: attr:)", what, x.Name, t.Name)
				bad = true
			}
		}
		if bad {
			continue
		}
		u := &Unique{Owner: e, Attrs: attrs, Lower: lower, Pos: su.Pos, Each: attrs[0].Type == StringSet || attrs[0].Type == IntSet}
		e.Unique = append(e.Unique, u)
		str := func(v string) spec.Str { return spec.Str{Value: v, Pos: su.Pos, Set: true} }
		name := ClaimName(e, attrs)
		doc := fmt.Sprintf("%s is the claim of a value of %s's unique %s: an item of its own, keyed by the value, that leads to the %s holding it. dyngen writes it with the %s.", name, e.Name, u.Label(), e.Name, e.Name)
		if len(attrs) > 1 {
			doc = fmt.Sprintf("%s is the claim of the values of %s's unique %s, together: an item of its own, keyed by the values, that leads to the %s holding them. dyngen writes it with the %s.", name, e.Name, u.Label(), e.Name, e.Name)
		}
		if lower {
			doc += " It holds the string values lower-cased (strings.ToLower), the " + e.Name + " what was written."
		}
		if u.Each {
			doc = fmt.Sprintf("%s is the claim of an element of %s's unique set %s: an item of its own per element, keyed by the element, that leads to the %s holding it. dyngen writes it with the %s.", name, e.Name, u.Label(), e.Name, e.Name)
		}
		cs := &spec.Entity{
			Name:      str(name),
			Pos:       su.Pos,
			Doc:       str(doc),
			Table:     str(t.Name),
			TypeValue: str(ClaimTypeValue(e, attrs)),
		}
		for _, x := range stored {
			sa := specAttr(x, su.Pos)
			switch {
			case u.Each && x == attrs[0] && x.Type == StringSet:
				sa.Type = str(string(String)) // an element
			case u.Each && x == attrs[0]:
				sa.Type = str(string(Int))
			}
			cs.Attributes = append(cs.Attributes, sa)
		}
		keys := &spec.Keys{Index: str(PrimaryName), Pos: su.Pos, PK: str(ClaimTemplate(e, attrs))}
		if t.SK != nil {
			keys.SK = str(ClaimTemplate(e, attrs))
		}
		cs.Keys = []*spec.Keys{keys}
		claims[cs] = u
		out = append(out, cs)
	}
	return out
}

// StepRole is what a step of a write of an entity with unique values
// does.
type StepRole int

const (
	// OwnStep is the pattern's own write.
	OwnStep StepRole = iota
	// TakeStep creates the claim of a value (attribute_not_exists).
	TakeStep
	// ReleaseStep deletes the claim of the value read before the write.
	ReleaseStep
	// AbsentStep is a put's write when the read found no item: a create
	// (attribute_not_exists), sent instead of the OwnStep.
	AbsentStep
	// EmptyStep is the write over an item whose unique set (claims per
	// element) was read empty, that is absent: the OwnStep conditioned on
	// the set still absent (DynamoDB takes no empty set to compare),
	// sent instead of the OwnStep.
	EmptyStep
)

// uniqueWrites plans, in the model, the steps of every write of an entity
// with unique values: the write and the claims it takes and releases, in
// one TransactWriteItems. It refuses the writes that can't keep the
// claims.
func (r *resolver) uniqueWrites() {
	defer func() { r.part = nil }()
	for _, p := range r.m.Patterns {
		r.part = p
		r.addToBounded(p)
	}
	for _, p := range r.m.Patterns {
		if p.Op.IsTransaction() {
			r.part = p
			r.transactionClaims(p)
			r.transactionDerived(p)
			continue
		}
		if len(p.Entities) == 0 {
			continue
		}
		e := p.Entity()
		if e.ClaimOf != nil || e.CopyOf != nil {
			continue // refused in patternEntities
		}
		if len(e.Copies) > 0 {
			r.part = p
			r.copyWrites(p)
			continue
		}
		if len(e.Each) > 0 {
			r.part = p
			r.eachWrites(p)
			continue
		}
		if len(e.Unique) == 0 {
			continue
		}
		r.part = p
		var steps []*Step
		var eq []*Unique
		if p.Many != "" && (p.Op == OpDelete || p.Op == OpUpdate && slices.ContainsFunc(p.SetAttrs(), func(a *Attribute) bool { return len(e.UniquesWith(a)) > 0 })) {
			// The single write reads its item first (GetItem), then sends
			// a transaction of the write and the claims: no one request
			// per key, and no one transaction of every key, can do that.
			what := "deletes"
			if p.Op == OpUpdate {
				what = "sets a unique value of"
			}
			r.errorf(p.ManyPos, "pattern %s: many over %s, which has unique values (%s): a write that %s the item reads it first to release or move its claims (GetItem, then a transaction of the write and the claims), which a write over many keys can't do; write each item with its own %s", p.Name, e.Name, uniqueNames(e), what, p.Op)
			continue
		}
		switch p.Op {
		case OpBatchPut, OpBatchDelete:
			r.errorf(p.OpPos, "pattern %s: %s of %s, which has unique values (%s): BatchWriteItem sends no condition and no transaction, so it can't keep the claims of the values; use create and delete", p.Name, p.Op, e.Name, uniqueNames(e))
			continue
		case OpPut:
			// The item read decides: over it, the put holds while it
			// still holds the values read; without it, the put is a
			// create.
			eq = e.Unique
			steps = append(steps, r.ownStep(p, eq))
			if e.Version == nil {
				// A put of a versioned entity writes over the version
				// read, and never creates the item (ErrNotFound).
				steps = append(steps, r.absentStep(p))
			}
			for _, u := range eq {
				steps = append(steps, claimStep(p, u, ReleaseStep), claimStep(p, u, TakeStep))
			}
		case OpCreate:
			steps = append(steps, r.ownStep(p, nil))
			for _, u := range e.Unique {
				steps = append(steps, claimStep(p, u, TakeStep))
			}
		case OpUpdate:
			for _, a := range p.RemoveFrom {
				if len(e.UniquesWith(a)) > 0 {
					r.errorf(p.OpPos, "pattern %s removes elements from unique %s of %s, which changes the set without the claims of its elements; set it instead", p.Name, a.Name, e.Name)
				}
			}
			for _, a := range p.AddAttrs() {
				if len(e.UniquesWith(a)) > 0 {
					r.errorf(p.OpPos, "pattern %s adds to unique %s of %s, which changes the value without its claim; set it instead", p.Name, a.Name, e.Name)
				}
			}
			for _, sc := range p.SetConsts {
				for _, u := range e.UniquesWith(sc.Attr) {
					if len(u.Attrs) == 1 {
						r.errorf(p.OpPos, "pattern %s sets unique %s of %s to a constant, which only one item can hold; set it to a parameter", p.Name, sc.Attr.Name, e.Name)
					} else {
						r.errorf(p.OpPos, "pattern %s sets %s of %s, one of its unique %s, to a constant, whose claim the update would move: the move of a claim takes parameters; set it to a parameter", p.Name, sc.Attr.Name, e.Name, u.Label())
					}
					break
				}
			}
			// A value moves when one of its attributes changes: the
			// others the new claim holds are those read.
			for _, u := range e.Unique {
				if slices.ContainsFunc(p.Set, u.Has) {
					eq = append(eq, u)
				}
			}
			if len(eq) == 0 {
				continue // the claims stay: a plain UpdateItem
			}
			if p.Upsert {
				r.errorf(p.OpPos, "pattern %s: an upsert of %s sets unique %s, and an upsert may create the item unseen, without the claim of its value; remove upsert, or create the item first", p.Name, e.Name, eq[0].Label())
				continue
			}
			steps = append(steps, r.ownStep(p, eq))
			for _, u := range eq {
				steps = append(steps, claimStep(p, u, ReleaseStep), claimStep(p, u, TakeStep))
			}
		case OpDelete:
			eq = e.Unique
			steps = append(steps, r.ownStep(p, eq))
			for _, u := range eq {
				steps = append(steps, claimStep(p, u, ReleaseStep))
			}
		default:
			continue
		}
		if each := eachOf(eq); each != nil {
			// Over an item whose set was read empty (absent), the write
			// conditions on the set still absent.
			empty := emptied(r.ownStep(p, eq), each.Attrs[0])
			at := 1
			if len(steps) > 1 && steps[1].Role == AbsentStep {
				at = 2
			}
			steps = slices.Insert(steps, at, empty)
		}
		if n := worstActions(p, e, eq); n > MaxTransactionActions {
			r.errorf(p.OpPos, "pattern %s: %s of %s can send %d actions in its transaction (its write, and the claims it takes and releases: %s), and DynamoDB takes at most %d: lower maxItems", p.Name, p.Op, e.Name, n, actionsDetail(p, e, eq), MaxTransactionActions)
			continue
		}
		p.Steps = numberSteps(p, steps)
		p.Read = eq
	}
}

// absentStep is put p's write over no item read: a create
// (attribute_not_exists), sent instead of its own step.
func (r *resolver) absentStep(p *Pattern) *Step {
	st := r.ownStep(p, nil)
	st.Op, st.Role = OpCreate, AbsentStep
	return st
}

// emptied makes st the write sent over an item whose set was read empty
// (absent: DynamoDB stores no empty set, and compares none): its
// condition that set holds the value read becomes that it is still
// absent.
func emptied(st *Step, set *Attribute) *Step {
	st.Role, st.EmptySet = EmptyStep, set
	for _, c := range st.When {
		if c.Read && c.Attr == set {
			c.Op, c.Read = OpNotExists, false
		}
	}
	return st
}

// addToBounded refuses an update (or an update step of transaction p)
// that adds elements to a set with maxItems: ADD writes them unseen, and
// the set could pass its maximum.
func (r *resolver) addToBounded(p *Pattern) {
	ps := []*Pattern{p}
	if p.Op.IsTransaction() {
		ps = nil
		for _, st := range p.Steps {
			ps = append(ps, st.Pattern)
		}
	}
	for _, q := range ps {
		if q.Op != OpUpdate {
			continue
		}
		for _, a := range q.AddAttrs() {
			if a.MaxItems > 0 {
				r.errorf(q.OpPos, "pattern %s adds elements to %s, which has maxItems %d: the update writes them without reading the set, which could pass its maximum; set the whole set instead", p.Name, a.Name, a.MaxItems)
			}
		}
	}
}

// eachOf returns the unique value of eq with a claim per element, or nil.
func eachOf(eq []*Unique) *Unique {
	for _, u := range eq {
		if u.Each {
			return u
		}
	}
	return nil
}

// claimActions is the most claim actions a write sends for unique value
// u: one per element of a set (maxItems) or one, each way it moves
// (a take, a release, or both).
func claimActions(u *Unique, ways int) int {
	if u.Each {
		return ways * u.Attrs[0].MaxItems
	}
	return ways
}

// worstActions is the most actions the transaction of write p of e can
// send: its write, and the claims it takes (create, a put over no item),
// releases (delete) or moves (update, a put over an item: the release of
// every element read and the taking of every element written, at most).
func worstActions(p *Pattern, e *Entity, eq []*Unique) int {
	n := 1
	switch p.Op {
	case OpCreate:
		for _, u := range e.Unique {
			n += claimActions(u, 1)
		}
	default:
		ways := 2
		if p.Op == OpDelete {
			ways = 1
		}
		for _, u := range eq {
			n += claimActions(u, ways)
		}
	}
	return n
}

// actionsDetail says what worstActions counts.
func actionsDetail(p *Pattern, e *Entity, eq []*Unique) string {
	us, what := eq, "a release and a take"
	switch p.Op {
	case OpCreate:
		us, what = e.Unique, "a take"
	case OpDelete:
		what = "a release"
	}
	var parts []string
	for _, u := range us {
		if u.Each {
			parts = append(parts, fmt.Sprintf("%s of each of up to %d elements of %s", what, u.Attrs[0].MaxItems, u.Label()))
		} else {
			parts = append(parts, fmt.Sprintf("%s of %s", what, u.Label()))
		}
	}
	return strings.Join(parts, ", ")
}

// ownStep is the step of pattern p that writes its item: the pattern
// itself, its condition holding also when each value of eq is still the
// one read before.
func (r *resolver) ownStep(p *Pattern, eq []*Unique) *Step {
	sub := *p
	sub.Steps = nil
	sub.When = slices.Clone(p.When)
	// The key's attributes are the key read by: they hold.
	seen := p.Entity().PrimaryKey().Attrs()
	for _, u := range eq {
		for _, a := range u.Attrs {
			if slices.Contains(seen, a) {
				continue // of two values
			}
			seen = append(seen, a)
			sub.When = append(sub.When, &Cond{Attr: a, Pos: u.Pos, Op: OpEq, Read: true})
		}
	}
	return &Step{Pattern: &sub, Tx: p, As: p.Entity().Name, AsPos: p.OpPos}
}

// claimStep is the step of pattern p that takes or releases the claim of
// unique value u.
func claimStep(p *Pattern, u *Unique, role StepRole) *Step {
	op := OpCreate
	if role == ReleaseStep {
		op = OpDelete
	}
	st := derivedStep(p, u.Claim, u.Pos, op)
	st.Claim, st.Role = u, role
	if role == ReleaseStep {
		st.Pattern.When = ownedWhen(u.Claim, u.Owner, u.Pos)
	}
	return st
}

// numberSteps numbers steps, the steps of write p in request order, and
// names each after p ("Save step 2", SaveStep2: its request builder).
func numberSteps(p *Pattern, steps []*Step) []*Step {
	for i, st := range steps {
		st.Index = i
		st.Pattern.Name = fmt.Sprintf("%s step %d", p.Name, i+1)
		st.Pattern.GoName = fmt.Sprintf("%sStep%d", p.GoName, i+1)
	}
	return steps
}

// joinNames joins the names of xs, by name, with commas: what a message
// lists of an entity's unique values, counts, copies or entries.
func joinNames[T any](xs []T, name func(T) string) string {
	var names []string
	for _, x := range xs {
		names = append(names, name(x))
	}
	return strings.Join(names, ", ")
}

// derivedStep is a step of write p that writes (op) the item of entity
// e, which the model derives from p's entity (a claim, a counter, a
// copy, an element item), declared at pos.
func derivedStep(p *Pattern, e *Entity, pos Pos, op Op) *Step {
	sub := &Pattern{Op: op, OpPos: p.OpPos, Pos: pos, Entities: []*Entity{e}, Table: e.Table, Order: Asc, IncludeExpired: true}
	return &Step{Pattern: sub, Tx: p, As: e.Name, AsPos: pos}
}

func uniqueNames(e *Entity) string { return joinNames(e.Unique, (*Unique).Label) }

// setsUnique reports whether update p sets a unique value, or adds to
// one.
func setsUnique(p *Pattern) bool {
	for _, a := range append(append(p.SetAttrs(), p.AddAttrs()...), p.RemoveFrom...) {
		if len(p.Entity().UniquesWith(a)) > 0 {
			return true
		}
	}
	return false
}

// label names an entity in a message: a claim says whose it is.
func (e *Entity) label() string {
	if u := e.ClaimOf; u != nil {
		return fmt.Sprintf("%s (the claim of %s's unique %s)", e.Name, u.Owner.Name, u.Label())
	}
	if c := e.CountOf; c != nil {
		return fmt.Sprintf("%s (the counter of %s's count by %s)", e.Name, c.Owner.Name, c.By.Name)
	}
	if c := e.CopyOf; c != nil {
		return fmt.Sprintf("%s (the copy %s of %s)", e.Name, c.Name, c.Owner.Name)
	}
	if ea := e.EachOf; ea != nil {
		return fmt.Sprintf("%s (the items per element of %s's %s)", e.Name, ea.Owner.Name, ea.Of.Name)
	}
	return e.Name
}

// transactionClaims adds to transaction p, after its own steps, the
// claim of each unique value of the item each create step writes, and
// refuses the steps that would need to read an item first: a put, a
// delete, an update that sets a unique value.
func (r *resolver) transactionClaims(p *Pattern) {
	var claims []*Step
	for _, st := range p.Steps {
		e := st.Entity()
		switch {
		case len(e.Unique) == 0 || st.Op == OpCheck || st.Op == OpGet || st.Op == OpUpdate && !setsUnique(st.Pattern):
		case st.Op == OpCreate && eachOf(e.Unique) != nil:
			r.errorf(st.OpPos, "step %d of %s %s: create %s, whose unique set %s has a claim per element, is not supported in a transaction: the number of its claims is known only at run time; use the entity's own create pattern", st.Index+1, p.Op, p.Name, e.Name, eachOf(e.Unique).Label())
		case st.Op == OpCreate:
			for _, u := range e.Unique {
				c := claimStep(p, u, TakeStep)
				c.Of = st
				claims = append(claims, c)
			}
		default:
			r.errorf(st.OpPos, "step %d of %s %s: %s %s, which has unique values (%s), is not supported in a transaction: it would read the item first to move its claims; use the entity's own %s pattern (a create step is supported: its claims are added to the transaction)", st.Index+1, p.Op, p.Name, st.Op, e.Name, uniqueNames(e), st.Op)
		}
	}
	total := len(p.Steps) + len(claims)
	for _, c := range claims {
		c.Index = len(p.Steps)
		c.Pattern.Name = fmt.Sprintf("%s step %d", p.Name, c.Index+1)
		c.Pattern.GoName = fmt.Sprintf("%sStep%d", p.GoName, c.Index+1)
		if c.Index == MaxTransactionActions {
			r.errorf(c.Of.OpPos, "%s %s has %d steps with the claims of the unique values its creates write, and DynamoDB takes at most %d actions in one transaction: split the transaction", p.Op, p.Name, total, MaxTransactionActions)
			return
		}
		p.Steps = append(p.Steps, c)
	}
}

// specAttr is attribute x of an owner written as the spec's attribute
// of a hidden entity the model derives (a claim, a counter), at pos: its
// names, type, maxLength, enum values, time format and path separator.
func specAttr(x *Attribute, pos spec.Pos) *spec.Attribute {
	str := func(v string) spec.Str { return spec.Str{Value: v, Pos: pos, Set: true} }
	sa := &spec.Attribute{Name: str(x.Name), Pos: pos, Type: str(string(x.Type)), Go: str(x.GoName), MaxLength: spec.Int{Value: int64(x.MaxLength), Set: x.MaxLength > 0, Pos: pos}}
	for _, v := range x.Values {
		sa.Values = append(sa.Values, str(v))
	}
	if x.Type == Time {
		sa.Format = str(string(x.Format))
	}
	if x.Type == Path {
		sa.Separator = str(string(x.Separator))
	}
	return sa
}

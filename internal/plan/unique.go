package plan

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dyngen/dyngen/internal/model"
)

// Unique is the plan of a write of an entity with unique values, or of a
// get by one of them (Pattern.Unique).
type Unique struct {
	// Read is the GetItem of the current item a write sends before its
	// transaction (consistent, the whole item), to learn the values its
	// claims hold; nil for a create. The method's local "old" (one of
	// model.MethodLocals, Pattern.Local) holds the item read.
	Read *Pattern
	// Absent is what a write does when the read finds no item (a create,
	// which reads nothing: always), and Present what it does over the
	// item read (nil for a create).
	Absent, Present *Sends
	// Refresh is set when the caller's item is decoded, on success, from
	// the first item the transaction wrote: it then holds the version and
	// the times the Store set.
	Refresh bool
	// Claim is the GetItem of the claim a get by a unique value sends
	// first; the pattern's own GetItem then reads the owner by the key
	// the claim holds. Nil for a write.
	Claim *Pattern
	// Value is the unique value a get reads the claim of.
	Value *model.Unique
}

// Sends is what a write of an entity with unique values does after its
// read: fail, send nothing, or send steps of its transaction.
type Sends struct {
	// Fail is the error the write returns instead of sending anything
	// (ErrNotFound), or "". With no Fail and no Steps, the write sends
	// nothing and succeeds (a delete of an item that does not exist).
	Fail string
	// Steps are the indexes of the steps sent whatever the values, in
	// order.
	Steps []int
	// Moves are the claims of the unique values the write may change,
	// each sent only when its value changes.
	Moves []*Move
	// Counts are the counter updates of the counts whose groups the
	// write may change, each sent only when the group changes.
	Counts []*CountMove
	// Copies are the copies of the item the write rewrites (copy.go).
	Copies []*CopyMove
	// Each are the items per element the write rewrites (each.go).
	Each []*EachMove
	// Empty, when not nil, is sent instead of the write's own step when
	// the unique set read is empty (absent).
	Empty *Swap
}

// Swap is the step sent instead of step Own when the set Attr of the
// item read is empty: the write conditioned on the set still absent.
type Swap struct {
	Attr       *model.Attribute
	Own, Empty int
}

// Move is the release of the claim of a unique value read and the taking
// of the new value's, sent when the new value differs from the one read:
// when one of its attributes does (as the claim holds it: lower-cased
// for normalize: lower).
type Move struct {
	Release, Take int // the indexes of the steps
	// Attrs are the owner's attributes holding the value, and New where
	// the write takes the new value of each from (Lower set when the
	// claim holds it lower-cased: the values read and new compare
	// lower-cased).
	Attrs []*model.Attribute
	New   []*Arg
	// Each is set on the move of a set's claims, element by element:
	// the release of each element read that the new set does not hold,
	// the taking of each new element the set read does not hold.
	Each bool
}

// uniqueWrite plans a write of an entity with unique values: the GetItem
// of the values its claims hold (but for a create), then one
// TransactWriteItems of its own write and the claims it releases and
// takes, which the model decided (Pattern.Steps). The method takes what
// the write alone would.
func (b *builder) uniqueWrite(p *model.Pattern) *Pattern {
	own := b.write(p)
	if own == nil {
		return nil
	}
	b.params(own)
	e := p.Entity()
	pp := &Pattern{Pattern: p, Call: TransactWriteItems, Form: FormUniqueWrite, Index: own.Index, Key: own.Key, Inputs: own.Inputs, Params: own.Params, Struct: own.Struct,
		Locals: own.Locals, Version: own.Version, Request: &Request{}, Tx: &Transaction{}, Unique: &Unique{}}
	if p.ReadsFirst() || len(p.ReadCopies) > 0 {
		read := &Pattern{Pattern: p, Call: GetItem, Form: FormGet, Index: own.Index, Key: own.Key, Inputs: own.Inputs, Request: &Request{}}
		read.Members = []*Member{{Entity: e, How: ByKey}}
		b.cost(read)
		read.Cost.RCU = readUnits(b.sizes.item(e), true)
		pp.Unique.Read = read
	}
	for _, st := range p.Steps {
		sp := b.stepPlan(st)
		if sp == nil {
			return nil
		}
		// The builder takes parameters of its own.
		for _, q := range sp.Params {
			q.Field = ""
		}
		s := newStep(st, sp)
		if st.Role == model.AbsentStep {
			// Another call wrote the item after the read.
			s.IfPresent = "ErrConditionFailed"
		}
		s.Args = uniqueArgs(pp, own, s)
		pp.Tx.Steps = append(pp.Tx.Steps, s)
	}
	uniqueSends(pp)
	b.txCost(pp)
	if r := pp.Unique.Read; r != nil {
		pp.Cost.RCU += r.Cost.RCU
		pp.Cost.Detail = fmt.Sprintf("GetItem first (consistent): %s; then %s", r.Cost.Detail, pp.Cost.Detail)
	}
	return pp
}

// uniqueSends decides which steps a write of an entity with unique values
// sends, by what its read finds: a create reads nothing and sends every
// step; over the item read, a delete sends every step (its write and the
// releases), an update or put its write and, for each unique value that
// changes, the release of its claim and the taking of the new one. Over
// no item, an unversioned put sends its create (the AbsentStep) and the
// taking of every value; a versioned put and an update fail with
// ErrNotFound; a delete, of an item that is not there, succeeds unless it
// checks a version (ErrNotFound).
func uniqueSends(pp *Pattern) {
	u, tx := pp.Unique, pp.Tx
	var all, absent []int
	var swap *Swap
	for i, s := range tx.Steps {
		if s.Step.Role == model.EmptyStep {
			swap = &Swap{Own: 0, Empty: i, Attr: s.Step.EmptySet}
			continue
		}
		all = append(all, i)
		if s.Step.Role == model.AbsentStep || s.Step.Role == model.TakeStep || s.Step.Role == model.AbsentCountStep || s.Step.Role == model.EachPutStep {
			absent = append(absent, i)
		}
	}
	switch op := pp.Pattern.Op; {
	case op == model.OpCreate:
		u.Absent = &Sends{Steps: all}
	case op == model.OpDelete:
		u.Absent, u.Present = &Sends{}, &Sends{Steps: all}
		if pp.Version != nil {
			// The version read must still be there.
			u.Absent.Fail = "ErrNotFound"
		}
	default:
		cm := copyMoves(tx)
		u.Absent, u.Present = &Sends{Fail: "ErrNotFound"}, &Sends{Steps: append([]int{0}, copyUpdates(tx, cm)...), Moves: moves(tx), Counts: countMoves(pp), Copies: cm, Each: eachMoves(pp)}
		if op == model.OpPut && pp.Version == nil {
			// Over no item, the put is a create, and takes every claim.
			u.Absent = &Sends{Steps: absent}
		}
	}
	if u.Present != nil && len(u.Present.Steps) > 0 {
		u.Present.Empty = swap
	}
	first := tx.Steps[0]
	u.Refresh = pp.Params[0].Role == ParamItem && len(first.Plan.Request.Item) > 0 && first.Action == "Put"
}

// moves are the claims a write of an entity with unique values moves
// when their values change: each release step, and the take step after
// it, with the new value the take step's claim holds.
func moves(tx *Transaction) []*Move {
	var out []*Move
	for i, s := range tx.Steps {
		if s.Step.Role != model.ReleaseStep || s.Step.Copy != nil || i+1 == len(tx.Steps) {
			continue
		}
		take := tx.Steps[i+1]
		u := s.Step.Claim
		out = append(out, &Move{Release: i, Take: i + 1, Attrs: u.Attrs, Each: u.Each, New: newArgs(u.Attrs, u.Claim, take)})
	}
	return out
}

// uniqueArgs says where each parameter of step s's request builder takes
// its value: the method's parameter of the same role (Input.Field is its
// name; for the item of a create, Field is a field of it), the item read
// before (Input.Field is the local "old"), or, for the claim a step takes, its
// fields one by one (Build).
func uniqueArgs(pp, own *Pattern, s *Step) []*Arg {
	p := pp.Pattern
	st := s.Step
	outer := func(q *Param) *Input { return &Input{Field: q.Name, Attr: q.Attr} }
	old := func(a *model.Attribute) *Arg {
		return &Arg{Input: &Input{Field: pp.Local("old"), Attr: a}, Field: a.GoName}
	}
	// value is where the write's value of attribute a of the owner comes
	// from: the item a create writes, the update's key or set parameter;
	// an attribute of a composite value an update does not set keeps the
	// value read.
	value := func(a *model.Attribute) *Arg {
		for _, q := range own.Params {
			switch {
			case q.Role == ParamItem:
				return &Arg{Input: outer(q), Field: a.GoName}
			case (q.Role == ParamKey || q.Role == ParamSet) && q.Attr == a:
				return &Arg{Input: outer(q)}
			}
		}
		return old(a)
	}
	owner := p.Entity()
	var args []*Arg
	for _, q := range s.Plan.Params {
		switch {
		case q.Role == ParamClock:
			args = append(args, &Arg{Clock: true})
		case q.Role == ParamRead:
			// The item read, as stored.
			args = append(args, &Arg{Input: &Input{Field: pp.Local("out")}, Field: "Item"})
		case st.Count != nil:
			args = append(args, countArg(q, st, p, value, old))
		case st.Copy != nil:
			args = append(args, copyArg(st, q, own, value, old))
		case st.Each != nil:
			args = append(args, eachArg(p, st, q, value, old))
		case st.Claim == nil && q.Role == ParamCond && q.Cond.Read:
			args = append(args, old(q.Cond.Attr))
		case st.Claim == nil:
			// The pattern's own parameter.
			for _, oq := range own.Params {
				if oq.Role == q.Role && oq.Attr == q.Attr && oq.Cond == q.Cond && oq.Operand == q.Operand {
					args = append(args, &Arg{Input: outer(oq)})
				}
			}
		case q.Role == ParamCond && q.Cond.Read:
			// The owner's key, as read: the claim released is its own.
			args = append(args, old(owner.Attr(q.Cond.Attr.Name)))
		case st.Role == model.ReleaseStep:
			// The claim's key: the value read.
			oa := owner.Attr(q.Attr.Name)
			v := old(oa)
			v.Lower = st.Claim.Normalized(oa)
			v.Elem = st.Claim.Each && st.Claim.Has(oa)
			args = append(args, v)
		default:
			// The claim: the new value and the owner's key.
			a := &Arg{Input: &Input{Field: st.Claim.Claim.GoName}}
			for _, ca := range st.Claim.Claim.Attributes {
				oa := owner.Attr(ca.Name)
				v := value(oa)
				v.Lower = st.Claim.Normalized(oa)
				v.Elem = st.Claim.Each && st.Claim.Has(oa)
				a.Build = append(a.Build, v)
			}
			args = append(args, a)
		}
	}
	return args
}

// String says where an argument takes its value, as `dyngen plan` shows
// it: user.Email, old.Email, UserEmailClaim{email: email, ...}.
func (a *Arg) String() string {
	if a.Clock {
		return "the time read once"
	}
	if a.Zero {
		return "removed"
	}
	if s := a.countString(); s != "" {
		return s
	}
	if a.Build != nil {
		var parts []string
		for _, b := range a.Build {
			parts = append(parts, b.String())
		}
		return a.Input.Field + "{" + strings.Join(parts, ", ") + "}"
	}
	s := a.Input.Field
	if a.Field != "" {
		s += "." + a.Field
	}
	if a.Lower {
		s = "strings.ToLower(" + s + ")"
	}
	if a.Elem {
		s = "each element of " + s
	}
	return s
}

// uniqueLookup returns the unique value a get reads its item by: a get
// whose by names the attributes of a unique value of its entity (one,
// or those of a composite, in any order), on no given index.
func uniqueLookup(p *model.Pattern) *model.Unique {
	if p.Op != model.OpGet || p.Index != "" || len(p.By) == 0 || len(p.Entities) != 1 {
		return nil
	}
	e := p.Entity()
	var attrs []*model.Attribute
	for _, n := range p.By {
		a := e.Attr(n)
		if a == nil {
			return nil
		}
		attrs = append(attrs, a)
	}
	return e.UniqueBy(attrs)
}

// lookup plans a get by a unique value: a GetItem of the value's claim,
// then a GetItem of the item by the key the claim holds.
func (b *builder) lookup(p *model.Pattern, u *model.Unique) *Pattern {
	e := p.Entity()
	c := u.Claim
	for _, a := range u.Attrs {
		if len(p.Select) > 0 && !slices.Contains(p.Select, a) {
			b.errorf(p.SelectPos, "pattern %s reads %s by its unique %s, and checks that the item read still holds it: add %s to select", p.Name, e.Name, u.Label(), a.Name)
			return nil
		}
	}
	cp := &model.Pattern{Name: p.Name + " claim", GoName: p.GoName + "Claim", Pos: p.Pos, Op: model.OpGet, OpPos: p.OpPos,
		Entities: []*model.Entity{c}, Table: c.Table, Order: model.Asc, Consistent: p.Consistent, IncludeExpired: true}
	claim := &Pattern{Pattern: cp, Call: GetItem, Form: FormGet, Index: c.Table.Primary(), Key: primaryKey(c), Inputs: c.PrimaryKey().Attrs()}
	claim.Members = []*Member{{Entity: c, How: ByKey}}
	b.request(claim)
	b.cost(claim)
	pp := &Pattern{Pattern: p, Call: GetItem, Form: FormLookup, Index: e.Table.Primary(), Key: primaryKey(e), Inputs: lookupInputs(u), Unique: &Unique{Claim: claim, Value: u}}
	pp.Members = []*Member{{Entity: e, How: ByKey}}
	b.request(pp)
	b.cost(pp)
	pp.Cost.RCU += claim.Cost.RCU
	pp.Cost.Detail = fmt.Sprintf("GetItem of the claim %s: %s; then GetItem of the %s: %s", c.Name, claim.Cost.Detail, e.Name, pp.Cost.Detail)
	return pp
}

// lookupInputs are the inputs of a get by unique value u: its
// attributes, or the element of a set with a claim per element (the
// claim's attribute, of the element's type).
func lookupInputs(u *model.Unique) []*model.Attribute {
	if u.Each {
		return []*model.Attribute{u.Claim.Attr(u.Attrs[0].Name)}
	}
	return u.Attrs
}

// Lookup is one of the GetItems of a get by a unique value: the entity
// whose item it reads, and its key.
type Lookup struct {
	Entity *model.Entity
	Key    *KeyCond
}

// Lookups are the GetItems a get by a unique value sends, in order: the
// claim's, by the value the caller gives, then the item's, by the key
// the claim holds. Nil for any other pattern.
func (pp *Pattern) Lookups() []Lookup {
	if pp.Unique == nil || pp.Unique.Claim == nil {
		return nil
	}
	c := pp.Unique.Claim
	return []Lookup{{c.Entity(), c.Key}, {pp.Entity(), pp.Key}}
}

// claimArg is the claim step st of a transaction takes: built from the
// fields of the item in, which its create step writes.
func claimArg(st *model.Step, in *Input) *Arg {
	owner := st.Of.Entity()
	a := &Arg{Input: &Input{Field: st.Claim.Claim.GoName}}
	for _, ca := range st.Claim.Claim.Attributes {
		oa := owner.Attr(ca.Name)
		a.Build = append(a.Build, &Arg{Input: in, Field: oa.GoName, Lower: st.Claim.Normalized(oa)})
	}
	return a
}

// newArgs are the arguments of take, the step that writes the hidden
// entity derived (a claim, a copy), from which it takes the new value of
// each of the owner's attrs: where a move compares what was read.
func newArgs(attrs []*model.Attribute, derived *model.Entity, take *Step) []*Arg {
	var out []*Arg
	for _, a := range attrs {
		for j, ca := range derived.Attributes {
			if ca.Name == a.Name {
				out = append(out, take.Args[0].Build[j])
			}
		}
	}
	return out
}

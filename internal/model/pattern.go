package model

import (
	"slices"
	"strings"
)

// Op is a pattern's operation.
type Op string

const (
	OpGet         Op = "get"
	OpQuery       Op = "query"
	OpPut         Op = "put"
	OpCreate      Op = "create"
	OpUpdate      Op = "update"
	OpDelete      Op = "delete"
	OpBatchGet    Op = "batchGet"
	OpBatchPut    Op = "batchPut"
	OpBatchDelete Op = "batchDelete"
	// OpTransaction writes its steps in one TransactWriteItems, and
	// OpTransactGet reads its steps in one TransactGetItems.
	OpTransaction Op = "transaction"
	OpTransactGet Op = "transactGet"
	// OpCheck is a step of a transaction that writes nothing: a condition
	// on an item (ConditionCheck).
	OpCheck Op = "check"
)

// IsRead reports whether the operation reads items.
func (o Op) IsRead() bool { return o == OpGet || o == OpQuery || o == OpBatchGet }

// IsTransaction reports whether the operation is a transaction of steps.
func (o Op) IsTransaction() bool { return o == OpTransaction || o == OpTransactGet }

// Order is a query's sort order.
type Order string

const (
	Asc  Order = "asc"
	Desc Order = "desc"
)

// Pattern is a named access pattern, resolved.
type Pattern struct {
	Name   string
	GoName string
	Doc    string
	Pos    Pos
	// RenamedFrom is its name in the lock, when renamedFrom renames it.
	RenamedFrom Renamed
	Op          Op
	OpPos       Pos
	Entities    []*Entity // one, or several for a collection query
	// Table is the table every entity of the pattern is stored in.
	Table *Table
	// By are the equality inputs, by name; ByAttrs[i][j] is the attribute
	// of Entities[j] named By[i].
	By    []string
	ByPos []Pos
	// Where is the range condition on the sort key, or nil.
	Where    *Cond
	Order    Order
	OrderPos Pos
	Limit    int
	LimitPos Pos
	// First is set for a query that returns its first item, read with
	// Limit 1, rather than a page.
	First    bool
	FirstPos Pos
	// Drops are the entities whose items the read's key condition may
	// read and the read drops (drops:), at DropsPos.
	Drops      []*Entity
	DropsPos   Pos
	Index      string // forced index name, or ""
	IndexPos   Pos
	Consistent bool
	ConsPos    Pos
	// Copy is the copy of the entity a get reads (copy:), or nil.
	Copy      *Copy
	CopyPos   Pos
	Filter    []*Cond
	When      []*Cond
	Select    []*Attribute
	SelectPos Pos
	// Set are the attributes an update sets to a method parameter,
	// SetConsts those it sets to a constant of the spec.
	Set       []*Attribute
	SetConsts []*SetConst
	Add       []*Attribute
	Remove    []*Attribute
	// RemoveFrom are the sets an update removes the given elements from.
	RemoveFrom []*Attribute
	// Parents are the optional objects the paths an update writes into
	// are in (billing of billing.city): DynamoDB refuses a write into an
	// absent map (a ValidationException), so the update's condition
	// holds attribute_exists of each, and a call on an item without one
	// fails with ErrConditionFailed.
	Parents []*Attribute
	// AddConsts are the numbers an update adds a constant amount to.
	AddConsts []*SetConst
	Upsert    bool
	// IncludeExpired is set by expired: include: the pattern reads, and
	// writes over, items whose time to live has passed as stored ones.
	IncludeExpired bool
	ExpiredPos     Pos
	// Steps are a transaction's steps, in request order. Entities and
	// Table are those of its first step. A write of an entity with unique
	// values (create, delete, an update that sets one) has steps too: its
	// own write, then the claims it releases and takes (Step.Claim).
	Steps []*Step
	// InTx is set on a step of a transaction.
	InTx bool
	// Read are the unique values a write reads before its transaction
	// (GetItem) and conditions its write on: an update's that it sets, a
	// delete's.
	Read []*Unique
	// Counted are the counts whose counters a write of an entity with
	// counts adds to (a step each, Step.Count): a create's, delete's and
	// put's every count, an update's whose group it sets.
	Counted []*Count
	// ReadCopies are the copies whose keys a write reads before its
	// transaction (GetItem) and conditions its write on (copy.go).
	ReadCopies []*Copy
	// AsRead, on the step of an update that moves a copy (copy.go), are
	// the attributes its write holds only while each still holds what the
	// read found, or is still absent: the item the new copy is built
	// from is the item the update changes.
	AsRead []*Attribute
	// AbsentAsRead, on the step of such an update that creates the new
	// copy, are the attributes with a default the update does not set:
	// the copy leaves out each the item read lacks, as the item does,
	// rather than store the default a read gives it (an add to it would
	// then start from another value on the copy).
	AbsentAsRead []*Attribute
	// ReadEach are the entries of items per element whose set (and
	// listed attributes) a write reads before its transaction (GetItem)
	// and conditions its write on (each.go).
	ReadEach []*Each
	// Missing is set on a check step that holds when no item has the key
	// (exists: false).
	Missing bool
	// Many is set on an update or delete over a list of keys the caller
	// gives (many:): ManyAll writes them in one transaction, ManyEach
	// with one call per key.
	Many    ManyMode
	ManyPos Pos
}

// ManyMode is how a write over many keys writes them.
type ManyMode string

const (
	// ManyAll: one TransactWriteItems, all or none, at most 100 keys.
	ManyAll ManyMode = "all"
	// ManyEach: one call per key, concurrently, with a result per key.
	ManyEach ManyMode = "each"
)

// Step is one step of a transaction: a pattern of its own (Name
// "LikePhoto step 2", GoName LikePhotoStep2), whose method is not
// generated, only the builder of its request.
type Step struct {
	*Pattern
	// Tx is the transaction, and Index the step's place in it, from 0.
	Tx    *Pattern
	Index int
	// As names the step: its as, or its entity's name.
	As    string
	AsPos Pos
	// Bind lists the step's inputs taken from elsewhere than the input
	// named after the attribute.
	Bind []*Binding
	// Claim is the unique value whose claim the step takes or releases
	// (Role), in a write of an entity with unique values; nil for the
	// write itself and for the steps of a transaction pattern.
	Claim *Unique
	Role  StepRole
	// Count is the count whose counter the step adds to (Role
	// CountStep).
	Count *Count
	// Copy is the copy of the owner's item the step writes or deletes
	// (Role), in a write of an entity with copies.
	Copy *Copy
	// Each is the entry of items per element whose item the step
	// writes or deletes (Role), once per element, in a write of the
	// entity with them (each.go).
	Each *Each
	// EmptySet is, on an EmptyStep, the set read empty.
	EmptySet *Attribute
	// Of is, for the claim a transaction pattern adds, the create step
	// whose item holds the value.
	Of *Step
}

// Binding is where a step takes the value of one of its attributes:
// the transaction's input named Input, or the field of attribute From of
// the item that step Item writes.
type Binding struct {
	Attr  *Attribute
	Input string
	Item  *Step
	From  *Attribute
	Pos   Pos
}

// Action is what the step does, as the generated docs and errors say it:
// "create Like", "update Photo", "check User".
func (s *Step) Action() string {
	switch {
	case s.Claim != nil && s.Role == TakeStep:
		return "claim " + s.Claim.Owner.Name + "." + s.Claim.Label()
	case s.Claim != nil:
		return "release " + s.Claim.Owner.Name + "." + s.Claim.Label()
	case s.Count != nil:
		return "count " + s.Count.Owner.Name + " in " + s.Count.Name
	case s.Copy != nil:
		return s.Copy.action(s.Role)
	case s.Each != nil:
		return s.Each.action(s.Role)
	case s.Role == EmptyStep:
		return string(s.Op) + " " + s.Entity().Name + " (its set read empty)"
	case s.Role == AbsentStep:
		return "put " + s.Entity().Name + " (no item read)"
	}
	return string(s.Op) + " " + s.Entity().Name
}

// FieldName is the Go name of the step's field, in a transaction's
// struct of inputs for the item it writes, in a transactGet's result for
// the item it reads: its as, or its entity's Go name.
func (s *Step) FieldName() string {
	if s.As == s.Entity().Name {
		return s.Entity().GoName
	}
	return GoName(s.As)
}

// Binding returns the step's binding of a, or nil.
func (s *Step) Binding(a *Attribute) *Binding {
	for _, b := range s.Bind {
		if b.Attr == a {
			return b
		}
	}
	return nil
}

// AddConst returns the constant the update adds to a, or nil.
func (p *Pattern) AddConst(a *Attribute) *SetConst { return constOf(p.AddConsts, a) }

// AddAttrs returns every attribute the update adds to: those added a
// parameter, then those added a constant.
func (p *Pattern) AddAttrs() []*Attribute { return withConsts(p.Add, p.AddConsts) }

// parents are the optional objects the paths an update writes into
// (set, add, remove, removeFrom) are in, each once, in the order of the
// paths (Pattern.Parents).
func (p *Pattern) parents() []*Attribute {
	var out []*Attribute
	var seen []string
	for _, list := range [][]*Attribute{withConsts(p.Set, p.SetConsts), p.AddAttrs(), p.Remove, p.RemoveFrom} {
		for _, a := range list {
			for i, x := range a.Path[:max(len(a.Path)-1, 0)] {
				if !x.Optional {
					continue
				}
				key := strings.Join(a.StoredPath()[:i+1], ".")
				if slices.Contains(seen, key) {
					continue
				}
				seen = append(seen, key)
				parent := x
				if i > 0 {
					parent, _ = p.Entity().PathAttr(pathText(a.Path[:i+1]))
				}
				out = append(out, parent)
			}
		}
	}
	return out
}

// Expires reports whether the pattern treats items whose time to live
// has passed as absent: an entity of it stores its table's ttl
// attribute, and the pattern has no expired: include. A create or a put
// of an entity with unique values or counts does not: its expired items
// are released on deletion (Consumer.Release).
func (p *Pattern) Expires() bool {
	if p.IncludeExpired || p.Table == nil || p.Table.TTL == "" {
		return false
	}
	for _, e := range p.Entities {
		if e.TTLAttr() == nil {
			continue
		}
		if (p.Op == OpCreate || p.Op == OpPut) && (len(e.Unique) > 0 || len(e.Counts) > 0) {
			// An expired item whose claims and counts a consumer releases
			// (Consumer.Release) is there for a create or a put until
			// DynamoDB deletes it: neither replaces it without moving
			// what it holds (a create fails, a put moves its claims and
			// counts as over any item), and the release frees it only
			// once it is deleted. Checks, updates and deletes treat it
			// as absent, as reads do: they replace nothing.
			continue
		}
		return true
	}
	return false
}

// TTLAttr returns the entity's attribute stored under its table's ttl
// name, or nil.
func (e *Entity) TTLAttr() *Attribute {
	for _, a := range e.Attributes {
		if a.TTL {
			return a
		}
	}
	return nil
}

// SetConst is an attribute an update sets to a constant, already checked
// against the attribute's type.
type SetConst struct {
	Attr  *Attribute
	Const Const
}

// SetAttrs returns every attribute the update sets: those set to a
// parameter, then those set to a constant.
func (p *Pattern) SetAttrs() []*Attribute { return withConsts(p.Set, p.SetConsts) }

// SetConst returns the constant the update sets a to, or nil.
func (p *Pattern) SetConst(a *Attribute) *SetConst { return constOf(p.SetConsts, a) }

// constOf returns the constant of consts for a, or nil.
func constOf(consts []*SetConst, a *Attribute) *SetConst {
	for _, sc := range consts {
		if sc.Attr == a {
			return sc
		}
	}
	return nil
}

// withConsts returns the attributes given as parameters, then those of
// the constants.
func withConsts(params []*Attribute, consts []*SetConst) []*Attribute {
	out := slices.Clone(params)
	for _, sc := range consts {
		out = append(out, sc.Attr)
	}
	return out
}

// Entity returns the pattern's first (for most operations, only) entity.
func (p *Pattern) Entity() *Entity { return p.Entities[0] }

// IsCollection reports whether the pattern returns several entity types.
func (p *Pattern) IsCollection() bool { return len(p.Entities) > 1 }

// CondOp is an operator of where, filter or when.
type CondOp string

const (
	OpEq         CondOp = "="
	OpNe         CondOp = "<>"
	OpLt         CondOp = "<"
	OpLe         CondOp = "<="
	OpGt         CondOp = ">"
	OpGe         CondOp = ">="
	OpBetween    CondOp = "between"
	OpBeginsWith CondOp = "beginsWith"
	OpContains   CondOp = "contains"
	OpExists     CondOp = "exists"
	OpNotExists  CondOp = "notExists"
	OpIn         CondOp = "in"
)

// Operands is the number of values the operator compares with; for in,
// the number is the constant list's (at least 1).
func (o CondOp) Operands() int {
	switch o {
	case OpExists, OpNotExists:
		return 0
	case OpBetween:
		return 2
	}
	return 1
}

// Cond is one condition on an attribute, or a disjunction (Or). For a
// collection query's where, Attr is the attribute of the first entity.
type Cond struct {
	Attr *Attribute
	Pos  Pos
	Op   CondOp
	// Or is set on the or of a filter or when (Attr is then nil, and Pos
	// the key's): its branches, two or more, each a list of conditions
	// joined by AND, the branches joined by OR.
	Or [][]*Cond
	// Read is set on a condition a write of an entity with unique values
	// adds: the attribute still holds the value read before the write.
	Read bool
	// Consts holds the constant operands, already checked against the
	// attribute's type, as they will be written (Go literal text is the
	// emitter's choice). Empty when the operands are method parameters.
	Consts []Const
}

// IsParam reports whether the condition's operands are method parameters.
func (c *Cond) IsParam() bool { return c.Or == nil && len(c.Consts) == 0 && c.Op.Operands() > 0 }

// Leaves are the conditions on attributes of cs, those of its ors'
// branches too, in spec order.
func Leaves(cs []*Cond) []*Cond {
	var out []*Cond
	for _, c := range cs {
		if c.Or == nil {
			out = append(out, c)
			continue
		}
		for _, br := range c.Or {
			out = append(out, Leaves(br)...)
		}
	}
	return out
}

// Const is a constant operand.
type Const struct {
	Text string // the value as written in the spec
	Pos  Pos
}

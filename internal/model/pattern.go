package model

import "slices"

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
)

// IsRead reports whether the operation reads items.
func (o Op) IsRead() bool { return o == OpGet || o == OpQuery || o == OpBatchGet }

// Order is a query's sort order.
type Order string

const (
	Asc  Order = "asc"
	Desc Order = "desc"
)

// Pattern is a named access pattern, resolved.
type Pattern struct {
	Name     string
	GoName   string
	Doc      string
	Pos      Pos
	Op       Op
	OpPos    Pos
	Entities []*Entity // one, or several for a collection query
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
	First      bool
	FirstPos   Pos
	Index      string // forced index name, or ""
	IndexPos   Pos
	Consistent bool
	ConsPos    Pos
	Filter     []*Cond
	When       []*Cond
	Select     []*Attribute
	SelectPos  Pos
	// Set are the attributes an update sets to a method parameter,
	// SetConsts those it sets to a constant of the spec.
	Set       []*Attribute
	SetConsts []*SetConst
	Add       []*Attribute
	Remove    []*Attribute
	// RemoveFrom are the sets an update removes the given elements from.
	RemoveFrom []*Attribute
	Upsert     bool
	// IncludeExpired is set by expired: include: the pattern reads, and
	// writes over, items whose time to live has passed as stored ones.
	IncludeExpired bool
	ExpiredPos     Pos
}

// Expires reports whether the pattern treats items whose time to live
// has passed as absent: an entity of it stores its table's ttl
// attribute, and the pattern has no expired: include.
func (p *Pattern) Expires() bool {
	if p.IncludeExpired || p.Table == nil || p.Table.TTL == "" {
		return false
	}
	for _, e := range p.Entities {
		if e.TTLAttr() != nil {
			return true
		}
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
func (p *Pattern) SetAttrs() []*Attribute {
	out := slices.Clone(p.Set)
	for _, sc := range p.SetConsts {
		out = append(out, sc.Attr)
	}
	return out
}

// SetConst returns the constant the update sets a to, or nil.
func (p *Pattern) SetConst(a *Attribute) *SetConst {
	for _, sc := range p.SetConsts {
		if sc.Attr == a {
			return sc
		}
	}
	return nil
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

// Cond is one condition on an attribute. For a collection query's where,
// Attr is the attribute of the first entity.
type Cond struct {
	Attr *Attribute
	Pos  Pos
	Op   CondOp
	// Consts holds the constant operands, already checked against the
	// attribute's type, as they will be written (Go literal text is the
	// emitter's choice). Empty when the operands are method parameters.
	Consts []Const
}

// IsParam reports whether the condition's operands are method parameters.
func (c *Cond) IsParam() bool { return len(c.Consts) == 0 && c.Op.Operands() > 0 }

// Const is a constant operand.
type Const struct {
	Text string // the value as written in the spec
	Pos  Pos
}

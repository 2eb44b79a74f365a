package plan

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dyngen/dyngen/internal/model"
)

// KeyCond is the key of a call: the partition key, always fully bound,
// and a condition on the sort key.
type KeyCond struct {
	Index *model.Index
	PK    *model.Template
	SK    SKCond
	// Parts is set for a multi-attribute key: the template of each key
	// attribute (model.EntityKey.Parts of the read's first entity; those
	// the condition binds are every member's).
	Parts []*model.Template
}

// SKKind is the form of a sort key condition.
type SKKind int

const (
	SKNone       SKKind = iota // the whole partition
	SKEq                       // sk = :sk
	SKBeginsWith               // begins_with(sk, :sk)
	SKBetween                  // sk BETWEEN :sklo AND :skhi
	SKLt                       // sk < :sk (a whole-key N, S or B sort key)
	SKLe
	SKGt
	SKGe
)

// Operator is the operator of a sort key condition of kind k as the
// KeyConditionExpression writes it ("=", "begins_with", "BETWEEN", "<",
// "<=", ">", ">="); "" for SKNone.
func (k SKKind) Operator() string {
	return [...]string{SKEq: "=", SKBeginsWith: "begins_with", SKBetween: "BETWEEN", SKLt: "<", SKLe: "<=", SKGt: ">", SKGe: ">="}[k]
}

// StartAttr is an attribute of a query's start key (its
// ExclusiveStartKey, a LastEvaluatedKey DynamoDB gave).
type StartAttr struct {
	*model.KeyAttr
	// Sort is set for a sort key of the index or of the table, whose
	// value is at most 1024 bytes (a partition key's 2048).
	Sort bool
}

// StartKey lists the attributes of the start key of a query with k: the
// index's key, then the table's (a secondary index's start key holds
// both), each once.
func (k *KeyCond) StartKey() []StartAttr {
	var out []StartAttr
	add := func(ka *model.KeyAttr, sort bool) {
		for i := range out {
			if out[i].Name == ka.Name {
				out[i].Sort = out[i].Sort || sort
				return
			}
		}
		out = append(out, StartAttr{ka, sort})
	}
	for _, ix := range []*model.Index{k.Index, k.Index.Table.Primary()} {
		for _, ka := range ix.PartitionKeys() {
			add(ka, false)
		}
		for _, ka := range ix.SortKeys() {
			add(ka, true)
		}
	}
	return out
}

// BoundPart is an attribute of a multi-attribute key that the key condition
// binds with equality, with its value's template (one segment: an
// attribute, or the entity's type value).
type BoundPart struct {
	Attr *model.KeyAttr
	Tm   *model.Template
	// Part is its place in Index.KeyAttrs.
	Part int
}

// Bound lists what the key condition of a multi-attribute key binds with
// equality: every partition key attribute, then the sort key attributes
// before the one SK compares (all of them with SKEq).
func (k *KeyCond) Bound() []BoundPart {
	if !k.Index.Multi() {
		return nil
	}
	var out []BoundPart
	for i, ka := range k.Index.KeyAttrs()[:len(k.Index.PKs)+k.SK.Prefix] {
		out = append(out, BoundPart{ka, k.Parts[i], i})
	}
	return out
}

// Op is the operator of the condition on the sort key as a query's
// cursor check takes it: "" when the query reads the whole partition,
// and, for a multi-attribute key, when it compares no sort key attribute
// but with the equalities of Bound.
func (k *KeyCond) Op() string {
	if k.Index.Multi() && k.RangeAttr() == nil {
		return ""
	}
	return k.SK.Kind.Operator()
}

// RangeAttr is the sort key attribute of a multi-attribute key that SK
// compares (with its Kind other than SKNone and SKEq), else nil.
func (k *KeyCond) RangeAttr() *model.KeyAttr {
	if !k.Index.Multi() || k.SK.Kind == SKNone || k.SK.Kind == SKEq {
		return nil
	}
	return k.Index.SKs[k.SK.Prefix]
}

// SKCond is the condition on the sort key.
type SKCond struct {
	Kind SKKind
	// Template is the sort key template the condition is built from (for
	// a collection, the part all members share); nil with SKNone when the
	// index has no sort key.
	Template *model.Template
	// Prefix is the number of leading segments of Template that the
	// inputs bind (literal text included).
	Prefix int
	// Range is the where condition it serves, or nil. A beginsWith on a
	// path selects the node and everything below it: the operand is the
	// path followed by its separator.
	Range *model.Cond
	// Lo and Hi are the bounds of SKBetween, the value of the others.
	Lo, Hi Bound
	// DropEqual is set when the condition reads items whose range
	// attribute equals the operand and the generated code must drop them
	// (a strict < on a string placed last in the sort key).
	DropEqual bool
	// Narrowed is set when the planner added bounds no where asked for, to
	// keep items of other entities out of the read.
	Narrowed bool
}

// BoundValue is what follows the bound prefix in a bound.
type BoundValue int

const (
	Nothing  BoundValue = iota // the prefix alone
	Operand                    // the encoded where operand (Bound.Operand)
	Least                      // the least encoding of the range attribute's type
	Greatest                   // the greatest encoding of the range attribute's type
)

// HighChar is the greatest code point; appended to a bound it places the
// bound above every key that starts with the bound's text.
const HighChar = '\U0010FFFF'

// Bound is one bound of a sort key range: the bound prefix of the
// template, then a value, then optionally HighChar.
type Bound struct {
	Value   BoundValue
	Operand int  // 0, or 1 for the upper operand of between
	Pred    bool // use the operand's predecessor (strict < on a last fixed-width placeholder)
	Succ    bool // append U+0000: the least string above the operand (strict > on a last string)
	High    bool // append HighChar
}

// Expression is the KeyConditionExpression, with #pk, #sk, :pk, :sk,
// :sklo and :skhi placeholders.
func (k *KeyCond) Expression() string {
	pk := "#pk = :pk"
	switch k.SK.Kind {
	case SKEq:
		return pk + " AND #sk = :sk"
	case SKBeginsWith:
		return pk + " AND begins_with(#sk, :sk)"
	case SKBetween:
		return pk + " AND #sk BETWEEN :sklo AND :skhi"
	case SKLt:
		return pk + " AND #sk < :sk"
	case SKLe:
		return pk + " AND #sk <= :sk"
	case SKGt:
		return pk + " AND #sk > :sk"
	case SKGe:
		return pk + " AND #sk >= :sk"
	}
	return pk
}

// Describe shows the key condition with the key attributes' names and the
// templates the values are built from, e.g.
// PK = "BOOK#{isbn}" AND begins_with(SK, "REVIEW#").
func (k *KeyCond) Describe() string {
	if k.Index.Multi() {
		return k.describeMulti()
	}
	pk := fmt.Sprintf("%s = %s", k.Index.PK.Name, quoteTemplate(k.PK, len(k.PK.Segments), ""))
	if k.Index.SK == nil || k.SK.Kind == SKNone {
		return pk
	}
	sk := k.Index.SK.Name
	s := k.SK
	switch s.Kind {
	case SKEq:
		return fmt.Sprintf("%s AND %s = %s", pk, sk, quoteTemplate(s.Template, len(s.Template.Segments), ""))
	case SKBeginsWith:
		return fmt.Sprintf("%s AND begins_with(%s, %s)", pk, sk, s.bound(Bound{Value: Operand}, true))
	case SKBetween:
		return fmt.Sprintf("%s AND %s BETWEEN %s AND %s", pk, sk, s.bound(s.Lo, false), s.bound(s.Hi, false))
	}
	op := map[SKKind]string{SKLt: "<", SKLe: "<=", SKGt: ">", SKGe: ">="}[s.Kind]
	return fmt.Sprintf("%s AND %s %s %s", pk, sk, op, s.bound(s.Lo, false))
}

// describeMulti shows the key condition of a multi-attribute key, each
// attribute with its value: tournamentId = {tournamentId} AND region =
// {region} AND startsAt >= {startsAt}.
func (k *KeyCond) describeMulti() string {
	var parts []string
	for _, b := range k.Bound() {
		parts = append(parts, fmt.Sprintf("%s = %s", b.Attr.Name, b.Tm.PartText()))
	}
	if ka := k.RangeAttr(); ka != nil {
		s := k.SK
		name := "?"
		if s.Range != nil {
			name = s.Range.Attr.Name
		}
		switch s.Kind {
		case SKBeginsWith:
			parts = append(parts, fmt.Sprintf("begins_with(%s, {%s:prefix})", ka.Name, name))
		case SKBetween:
			parts = append(parts, fmt.Sprintf("%s BETWEEN {%s:from} AND {%s:to}", ka.Name, name, name))
		default:
			parts = append(parts, fmt.Sprintf("%s %s {%s}", ka.Name, s.Kind.Operator(), name))
		}
	}
	return strings.Join(parts, " AND ")
}

// bound renders a bound as a quoted template text.
func (s SKCond) bound(b Bound, beginsWith bool) string {
	var suffix string
	var x *model.Attribute
	if s.Prefix < len(s.Template.Segments) {
		x = s.Template.Segments[s.Prefix].Attr
	}
	name := func() string {
		if x == nil {
			return "?"
		}
		return x.Name
	}
	switch b.Value {
	case Operand:
		if s.Range != nil {
			switch {
			case s.Range.Op == model.OpBetween && b.Operand == 0:
				suffix = "{" + name() + ":from}"
			case s.Range.Op == model.OpBetween:
				suffix = "{" + name() + ":to}"
			default:
				suffix = "{" + name() + "}"
			}
			if beginsWith && x != nil {
				if x.Type == model.Path {
					suffix = "{" + x.Name + "}" + string(x.Separator)
				} else {
					suffix = "{" + x.Name + ":prefix}"
				}
			}
		}
		if b.Pred {
			suffix = strings.TrimSuffix(suffix, "}") + "-1}"
		}
	case Least:
		suffix = "{" + name() + ":min}"
	case Greatest:
		suffix = "{" + name() + ":max}"
	}
	if b.Succ {
		suffix += `\x00`
	}
	if b.High {
		suffix += `\U0010FFFF`
	}
	return quoteTemplate(s.Template, s.Prefix, suffix)
}

// quoteTemplate quotes the first n segments of t, then suffix. A whole
// number or binary key is shown bare: {orderId}.
func quoteTemplate(t *model.Template, n int, suffix string) string {
	var b strings.Builder
	for _, seg := range t.Segments[:n] {
		if seg.Attr != nil {
			b.WriteString("{" + seg.Attr.Name + "}")
		} else {
			q := strconv.Quote(seg.Literal)
			b.WriteString(q[1 : len(q)-1])
		}
	}
	b.WriteString(suffix)
	if t.KeyType != model.S {
		// A number or binary key is its value: no quotes.
		return b.String()
	}
	return `"` + b.String() + `"`
}

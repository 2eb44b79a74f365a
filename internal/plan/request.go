package plan

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/dyngen/dyngen/internal/model"
)

// Request is everything one call of a pattern sends besides its keys and
// its item: the expressions, with the attribute name and value
// placeholders they share. One namer per request gives every placeholder,
// so no two meet; the generated code and `dyngen plan` both print this
// object, so they can't disagree.
type Request struct {
	KeyCondition string // a Query's KeyConditionExpression
	Projection   string
	Filter       string
	Condition    string
	Update       *Update
	// Limit is the Limit every call of a Query sends: 1 for a get through
	// an index and for a query's first item; 0 when the caller's page
	// sets it.
	Limit int
	// PageLimit is the Limit a page of a Query sends when the caller's
	// page sets none: the pattern's limit, or 0 for none (DynamoDB's
	// 1 MB page). 0 too for a call whose Limit is fixed.
	PageLimit int
	// Descending is set when a Query reads the sort key from the highest
	// (ScanIndexForward false, order: desc); a Query without it reads
	// ascending, DynamoDB's default, and leaves ScanIndexForward unsent.
	Descending bool
	// Names are the ExpressionAttributeNames, by placeholder, sorted.
	Names []Name
	// Values are the ExpressionAttributeValues, in the order they were
	// named. A value of a clause that is not always sent (see
	// Clause.Unless) is sent only with it.
	Values []*Value
	// Item are the attributes a PutItem writes in place of the caller's
	// values: the constants of its set (ItemConst), the version
	// (VersionFirst, VersionNext) and the timestamps (ClockNow), each
	// under its stored name (Placeholder is "").
	Item []*Value
	// StampCreated is set on a create or put of an entity whose index
	// key is built from its created time: the item is marshalled from a
	// copy of the caller's whose created time is the clock's, so that the
	// key holds the time the write stores (a put keeps a stored item's
	// key with if_not_exists, as it keeps its created time).
	StampCreated bool
	// Expiry is how the call treats an item whose time to live has
	// passed, or nil when it reads or writes such items as stored.
	Expiry *Expiry
	// AbsentAsRead are the attributes a PutItem leaves out of its item
	// when the item read lacks them (model.Pattern.AbsentAsRead).
	AbsentAsRead []*model.Attribute
	// Held are the parts of the condition sent after Condition, joined
	// by AND, one per attribute the write holds only while it is as the
	// item read has it (model.Pattern.AsRead): chosen per call, by
	// whether the item read holds the attribute.
	Held []*Held
}

// Held is the part of a write's condition that holds attribute Attr as
// the item read has it: Present, which sends the stored value read as
// Value, when the item holds it; Absent otherwise. Both name it by one
// placeholder, in Request.Names; Value is in no Request.Values, since it
// is sent only with Present.
type Held struct {
	// Attr is the attribute held, and Stored its stored name (a backfill
	// holds the index key attributes it writes, which are no attribute:
	// Attr is nil).
	Attr            *model.Attribute
	Stored          string
	Present, Absent string // "#name = :name_read", "attribute_not_exists(#name)"
	Value           string // ":name_read"
}

// FullCondition is the ConditionExpression a call sends when the item
// read holds every attribute of Held, as the plan and the methods' docs
// show it.
func (r *Request) FullCondition() string {
	return r.conditionWith(func(h *Held) string { return h.Present })
}

// conditionWith is Condition and each part of Held as part gives it,
// joined by AND.
func (r *Request) conditionWith(part func(*Held) string) string {
	parts := []string{r.Condition}
	for _, h := range r.Held {
		parts = append(parts, part(h))
	}
	return joinAnd(parts...)
}

// Expiry is how a call treats an item whose time to live has passed (its
// table's ttl attribute holds epoch seconds at or before the Store
// clock's now): as absent, since DynamoDB deletes it only eventually.
type Expiry struct {
	// Attr is the stored name of the table's ttl attribute.
	Attr string
	// InCode is set when the generated code drops an expired item after
	// the read (a get, a batchGet, a query of an index keyed by the ttl
	// attribute): the request sends nothing for it.
	// Otherwise Text is the part of the request's FilterExpression (a
	// query leaves expired items out) or ConditionExpression (a create
	// replaces one, an update of one fails as of an absent item) that
	// does it, with the Now value.
	InCode bool
	Text   string
}

// Name is an attribute name placeholder and the stored name it stands for.
type Name struct {
	Placeholder string
	Stored      string
	// Key is set when the name is the key of a map's entry the caller
	// gives (approvals.{reviewer}): the entry's path attribute, whose
	// ParamMapKey parameter the call sends as the name; Stored is then
	// "{reviewer}", as the report shows it.
	Key *model.Attribute `json:"-"`
}

// Source is where the value of a placeholder comes from.
type Source int

const (
	PKValue     Source = iota // the partition key of the call
	SKValue                   // the sort key operand of =, begins_with, <, <=, >, >=
	SKLow                     // the lower bound of a sort key BETWEEN
	SKHigh                    // the upper bound of a sort key BETWEEN
	CondOperand               // operand Operand of condition Cond
	SetValue                  // the value an update sets Attr to
	SetConst                  // the constant an update sets Attr to (Lit)
	RemoveElems               // the elements an update removes from set Attr
	AddAmount                 // the amount an update adds to Attr
	AddLimit                  // Attr's min (or max, with Max)
	AddRest                   // Attr's min (or max) less the amount added
	RebuiltKey                // the new value of Rebuild's key attribute
	EntityType                // the entity's type value (an upsert writes it)
	KeyInput                  // a primary key attribute Attr (an upsert writes it)
	Now                       // the Store clock's now, in epoch seconds (Expiry)
	// The version of a versioned entity (model.Entity.Version) and its
	// timestamps, which the generated code sets, never the caller.
	VersionExpected // the version Attr the caller read: the item's, or a parameter
	VersionStep     // the 1 an update adds to version Attr (Lit)
	VersionFirst    // the version Attr a create writes: 1 (Lit)
	VersionNext     // the version Attr a put writes: the one read, plus one
	ClockNow        // the Store's clock's time, for timestamp Attr
	ItemAttr        // the value of Stored in the item a put writes (sent as an update)
	// ItemConst is the constant of the spec (Lit) a create or put writes
	// to Attr whatever the caller's item holds (Request.Item): the item
	// is marshalled with it, its keys too, and it is written back into
	// the caller's item on success.
	ItemConst
	// AddDefault is the default of number Attr (Lit), which an add
	// starts from when the item lacks the attribute, as a read gives it.
	AddDefault
	// KeyPart is the value of an attribute of a multi-attribute key that
	// the key condition binds with equality (KeyCond.Bound): key
	// attribute Operand of the index's KeyAttrs, from input Attr, or the
	// entity's type value (Lit).
	KeyPart
)

// Value is an attribute value placeholder and where its value comes from.
type Value struct {
	Placeholder string
	Source      Source
	Attr        *model.Attribute
	Cond        *model.Cond
	Operand     int // 0, or 1 for the upper operand of between, or i of in
	Max         bool
	Rebuild     *Rebuild
	// Lit is the value of a constant of the spec (SetConst, or a
	// CondOperand of a condition with constants), as it is sent.
	Lit *Literal
	// Stored is the stored name of an ItemAttr value: an attribute of
	// the entity (Attr), the entity attribute or an index key attribute.
	Stored string
}

// Literal is a constant of the spec as a request sends it: an attribute
// value of type Dynamo (S, N or BOOL) holding Text (model.StoredConst).
type Literal struct {
	Dynamo, Text string
}

// literal is the value a request sends for constant text of attribute a,
// an operand of op (model.OpEq for a value an update sets).
func literal(a *model.Attribute, op model.CondOp, text string) *Literal {
	dynamo, stored := model.StoredConst(a, op, text)
	return &Literal{Dynamo: dynamo, Text: stored}
}

// String is the literal as `dyngen plan` shows it, in DynamoDB's JSON
// form: {S: "closed"}, {N: "3"}, {BOOL: true}.
func (l *Literal) String() string {
	if l.Dynamo == "BOOL" {
		return "{BOOL: " + l.Text + "}"
	}
	return fmt.Sprintf("{%s: %s}", l.Dynamo, strconv.Quote(l.Text))
}

// UsesClock reports whether the request sends a time of the Store's
// clock: a timestamp, or the now an expired item is told by.
func (r *Request) UsesClock() bool {
	for _, vs := range [][]*Value{r.Values, r.Item} {
		for _, v := range vs {
			if v.Source == ClockNow || v.Source == Now {
				return true
			}
		}
	}
	return false
}

// Placeholder is the placeholder of the request's first value from
// source s, or "".
func (r *Request) Placeholder(s Source) string {
	for _, v := range r.Values {
		if v.Source == s {
			return v.Placeholder
		}
	}
	return ""
}

// Update is an UpdateExpression: its SET, ADD, REMOVE and DELETE
// actions.
type Update struct {
	Set, Add, Remove, Delete []*Clause
}

// Clause is one action of an update expression.
type Clause struct {
	Text string // "#grade = :grade", "#views :views", "#note", "#tags :tags"
	// Unless lists attributes the clause is built from: when a call
	// gives any of them its zero value (an optional attribute's, or the
	// empty set a DELETE would remove), the clause and its values are not
	// sent, and Instead, when not "", is sent among the REMOVE actions
	// (the attribute, or the index key built from it, is removed).
	Unless  []*model.Attribute
	Instead string
	Values  []*Value // the values the clause sends
	// Names are the name placeholders no other part of the request uses:
	// they are not sent when the clause is not (DynamoDB refuses an
	// unused name).
	Names []string
}

// Static returns the SET actions sent on every call and those sent only
// with non-zero values, in the order the generated code adds them.
func (u *Update) Static() (always, sometimes []*Clause) {
	for _, c := range u.Set {
		if len(c.Unless) > 0 {
			sometimes = append(sometimes, c)
		} else {
			always = append(always, c)
		}
	}
	return always, sometimes
}

// Expression is the update expression a call sends when it gives every
// optional attribute a value: the actions sent on every call first, then
// the others, as the generated code builds it.
func (u *Update) Expression() string {
	always, sometimes := u.Static()
	return joinClauses(texts(append(always, sometimes...)), texts(u.Add), texts(u.Remove), texts(u.Delete))
}

// MayBeEmpty reports whether a call may send no action at all: every
// action is a DELETE sent only with elements to remove.
func (u *Update) MayBeEmpty() bool {
	return len(u.Set)+len(u.Add)+len(u.Remove) == 0
}

// Sometimes returns the actions only some calls send: the SET actions
// sent only with non-zero values, then the DELETE actions, sent only
// with elements to remove.
func (u *Update) Sometimes() []*Clause {
	_, sometimes := u.Static()
	return append(sometimes, u.Delete...)
}

// AddText is the ADD part of the update's actions, without ADD.
func (u *Update) AddText() string { return strings.Join(texts(u.Add), ", ") }

func texts(cs []*Clause) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Text)
	}
	return out
}

// joinClauses writes an update expression from its SET, ADD, REMOVE and
// DELETE actions, in the order the runtime's updateExpression writes them.
func joinClauses(set, add, remove, del []string) string {
	var clauses []string
	if len(set) > 0 {
		clauses = append(clauses, "SET "+strings.Join(set, ", "))
	}
	if len(add) > 0 {
		clauses = append(clauses, "ADD "+strings.Join(add, ", "))
	}
	if len(remove) > 0 {
		clauses = append(clauses, "REMOVE "+strings.Join(remove, ", "))
	}
	if len(del) > 0 {
		clauses = append(clauses, "DELETE "+strings.Join(del, ", "))
	}
	return strings.Join(clauses, " ")
}

// Placeholders of the key condition, the same in every Query.
const (
	keyPK   = "#pk"
	keySK   = "#sk"
	valPK   = ":pk"
	valSK   = ":sk"
	valSKLo = ":sklo"
	valSKHi = ":skhi"
)

// requestNamer gives the placeholders of one request: one #name per
// stored attribute name, and a :value per operand, each unique.
type requestNamer struct {
	req   *Request
	names map[string]string // stored name -> placeholder
	used  map[string]bool   // placeholders taken
}

func newRequestNamer(req *Request) *requestNamer {
	return &requestNamer{req: req, names: map[string]string{}, used: map[string]bool{}}
}

// name returns how the request's expressions name a stored attribute:
// the name itself where it is plainly no reserved word (see Plain), else
// a placeholder, the same for every use in the request. want is the
// placeholder to take when it is free ("" to derive it from the name).
func (n *requestNamer) name(stored, want string) string {
	if Plain(stored) {
		return stored
	}
	if ph, ok := n.names[stored]; ok {
		return ph
	}
	if want == "" {
		want = "#" + placeholderText(stored)
	}
	ph := n.take(want)
	n.names[stored] = ph
	n.req.Names = append(n.req.Names, Name{Placeholder: ph, Stored: stored})
	return ph
}

// attr returns how the request's expressions name attribute a: as name
// does, and for the attribute of a path (address.zip) each element so,
// joined by dots (#address.#zip): a path is never one name, and no name
// is spliced in.
func (n *requestNamer) attr(a *model.Attribute) string {
	if !a.IsPath() {
		return n.name(a.Stored, "")
	}
	var parts []string
	for i, s := range a.StoredPath() {
		if x := a.Path[i]; x.MapKey != "" {
			parts = append(parts, n.key(x))
			continue
		}
		parts = append(parts, n.name(s, ""))
	}
	return strings.Join(parts, ".")
}

// key returns the placeholder of the key of map entry a, which the caller
// gives: a name of its own (#approvals_reviewer), whose value the call
// sets from the key's parameter, never in the expression's text.
func (n *requestNamer) key(a *model.Attribute) string {
	id := "{" + a.Name
	if ph, ok := n.names[id]; ok {
		return ph
	}
	ph := n.take("#" + placeholderText(a.Path[0].Name+"_"+a.MapKey))
	n.names[id] = ph
	n.req.Names = append(n.req.Names, Name{Placeholder: ph, Stored: "{" + a.MapKey + "}", Key: a})
	return ph
}

// value takes a new value placeholder from base.
func (n *requestNamer) value(base string, v *Value) *Value {
	v.Placeholder = n.take(":" + placeholderText(base))
	n.req.Values = append(n.req.Values, v)
	return v
}

// take returns want, or want with the least number from 2 up that makes
// it free.
func (n *requestNamer) take(want string) string {
	ph := want
	for i := 2; n.used[ph]; i++ {
		ph = fmt.Sprintf("%s%d", want, i)
	}
	n.used[ph] = true
	return ph
}

// Plain reports whether an expression may name a stored attribute as it
// is, with no #placeholder: a name of ASCII letters and digits, starting
// with a letter, that holds a digit (DynamoDB's reserved words are
// words: GSI1PK, LSI2SK, A1 are none), or one of PK and SK, the key names
// of most single-table designs. A test checks these against DynamoDB
// Local, and that it refuses reserved words. Every other name, reserved
// word or not, gets a placeholder: no list of reserved words is needed.
func Plain(name string) bool {
	if name == "PK" || name == "SK" {
		return true
	}
	digit := false
	for i, r := range name {
		switch {
		case 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z':
		case '0' <= r && r <= '9' && i > 0:
			digit = true
		default:
			return false
		}
	}
	return digit
}

// placeholderText keeps the characters a placeholder may hold (ASCII
// letters, digits and _) and writes _ for the others.
func placeholderText(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		if r == '{' || r == '}' {
			// A map entry's path (approvals.{reviewer}):
			// approvals_reviewer.
			continue
		}
		if r < 128 && (r == '_' || ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') || ('0' <= r && r <= '9')) {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "a"
	}
	return b.String()
}

// term is one part of a condition expression that its parts join by
// AND; or is set on a disjunction written bare ("a OR b"), which needs
// parentheses beside another part (AND binds tighter than OR).
type term struct {
	text string
	or   bool
}

// joinTerms joins the parts of a condition expression by AND, with
// parentheses exactly where needed: around a disjunction beside another
// part.
func joinTerms(ts []term) string {
	if len(ts) == 1 {
		return ts[0].text
	}
	var parts []string
	for _, t := range ts {
		if t.or {
			parts = append(parts, "("+t.text+")")
		} else {
			parts = append(parts, t.text)
		}
	}
	return strings.Join(parts, " AND ")
}

// conds writes conditions as one condition expression, joined by AND,
// naming their attributes and operands; suffix ends the base of each
// operand's placeholder (":grade_when").
func (n *requestNamer) conds(cs []*model.Cond, suffix string) string {
	return joinTerms(n.terms(cs, suffix))
}

// terms writes each condition as a part of a condition expression,
// naming their attributes and operands in order; an or is its branches
// joined by OR, each its conditions joined by AND.
func (n *requestNamer) terms(cs []*model.Cond, suffix string) []term {
	var parts []term
	for _, c := range cs {
		if c.Or != nil {
			var branches []string
			for _, br := range c.Or {
				branches = append(branches, joinTerms(n.terms(br, suffix)))
			}
			parts = append(parts, term{text: strings.Join(branches, " OR "), or: true})
			continue
		}
		name := n.attr(c.Attr)
		operand := func(i int, part string) string {
			v := &Value{Source: CondOperand, Cond: c, Operand: i, Attr: c.Attr}
			if !c.IsParam() {
				v.Lit = literal(c.Attr, c.Op, c.Consts[i].Text)
			}
			return n.value(c.Attr.Name+suffix+part, v).Placeholder
		}
		switch c.Op {
		case model.OpIn:
			var ops []string
			for i := range c.Consts {
				ops = append(ops, operand(i, "_"+strconv.Itoa(i+1)))
			}
			parts = append(parts, term{text: fmt.Sprintf("%s IN (%s)", name, strings.Join(ops, ", "))})
		case model.OpExists:
			parts = append(parts, term{text: fmt.Sprintf("attribute_exists(%s)", name)})
		case model.OpNotExists:
			parts = append(parts, term{text: fmt.Sprintf("attribute_not_exists(%s)", name)})
		case model.OpBetween:
			lo := operand(0, "_from")
			hi := operand(1, "_to")
			parts = append(parts, term{text: fmt.Sprintf("%s BETWEEN %s AND %s", name, lo, hi)})
		case model.OpBeginsWith:
			parts = append(parts, term{text: fmt.Sprintf("begins_with(%s, %s)", name, operand(0, ""))})
		case model.OpContains:
			parts = append(parts, term{text: fmt.Sprintf("contains(%s, %s)", name, operand(0, ""))})
		default:
			parts = append(parts, term{text: fmt.Sprintf("%s %s %s", name, c.Op, operand(0, ""))})
		}
	}
	return parts
}

// request decides the expressions of a planned pattern and names their
// placeholders.
func (b *builder) request(pp *Pattern) {
	req := &Request{}
	n := newRequestNamer(req)
	p := pp.Pattern
	switch pp.Call {
	case Query:
		keyCondition(n, pp.Key)
		req.Projection = projection(n, pp)
		filter := n.terms(p.Filter, "")
		if p.Op == model.OpGet || p.First {
			req.Limit = 1
		} else {
			req.PageLimit = p.Limit
		}
		req.Descending = p.Order == model.Desc
		switch {
		case !p.Expires():
		case p.Op == model.OpGet || pp.Index.IsKeyAttr(p.Table.TTL):
			// A key attribute of the index can't be in a
			// FilterExpression: the expired items are read and dropped.
			req.Expiry = &Expiry{Attr: p.Table.TTL, InCode: true}
		default:
			// The model refuses first with expiry: DynamoDB would apply
			// the filter after the limit.
			req.Expiry = n.expiry(p, "(attribute_not_exists(%[1]s) OR %[1]s > %[2]s)")
			filter = append(filter, term{text: req.Expiry.Text})
		}
		if len(filter) > 0 {
			req.Filter = joinTerms(filter)
		}
	case GetItem, BatchGetItem:
		req.Projection = projection(n, pp)
		if p.Expires() {
			req.Expiry = &Expiry{Attr: p.Table.TTL, InCode: true}
		}
	case BatchWriteItem:
		req.Item = itemValues(pp)
	case PutItem, DeleteItem, ConditionCheck:
		req.Condition = condition(n, pp, nil)
		req.Item = itemValues(pp)
		req.AbsentAsRead = p.AbsentAsRead
		req.StampCreated = p.Op == model.OpCreate && createdKeyed(p.Entity())
	case UpdateItem:
		if p.Op == model.OpPut {
			replace(n, pp, req)
			req.Condition = condition(n, pp, nil)
			req.Item = itemValues(pp)
			req.StampCreated = createdKeyed(p.Entity())
			break
		}
		amounts := update(n, pp, req)
		req.Condition = condition(n, pp, amounts)
		ownNames(req)
	}
	slices.SortFunc(req.Names, func(x, y Name) int { return strings.Compare(x.Placeholder, y.Placeholder) })
	pp.Request = req
	b.expressionSizes(pp)
}

// longestCondition is the longest ConditionExpression a call may send:
// each part of Held in its longer form.
func (r *Request) longestCondition() string {
	return r.conditionWith(func(h *Held) string {
		if len(h.Absent) > len(h.Present) {
			return h.Absent
		}
		return h.Present
	})
}

// maxExpression is the longest expression string DynamoDB takes, in
// bytes.
const maxExpression = 4096

// expressionSizes refuses a request whose expression DynamoDB would
// refuse for its length: every call of the method would fail. An update
// is measured with every action it may send.
func (b *builder) expressionSizes(pp *Pattern) {
	r := pp.Request
	update := ""
	if r.Update != nil {
		update = r.Update.Expression()
	}
	for _, e := range []struct{ field, text string }{
		{"KeyConditionExpression", r.KeyCondition}, {"ProjectionExpression", r.Projection},
		{"FilterExpression", r.Filter}, {"ConditionExpression", r.longestCondition()}, {"UpdateExpression", update},
	} {
		if len(e.text) > maxExpression {
			p := pp.Pattern
			fix := "give the attributes shorter stored names (attr:), or write fewer of them in one request (a put of an entity with a created time names every attribute: without it, the put is a PutItem)"
			if e.field == "ConditionExpression" && len(r.Held) > 0 {
				fix = "an update that moves a copy conditions on every attribute of the item read; give the attributes shorter stored names (attr:), or move the copy with a put"
			}
			b.errorf(p.Pos, "%s %s: its %s may be %d bytes, and DynamoDB takes at most %d; %s", p.Op, p.Name, e.field, len(e.text), maxExpression, fix)
		}
	}
}

// expiry names the ttl attribute and the Now value of a request that
// leaves expired items out by its expression, written by format from
// them (%[1]s the attribute, %[2]s the value).
func (n *requestNamer) expiry(p *model.Pattern, format string) *Expiry {
	name := n.name(p.Table.TTL, "")
	now := n.value("now", &Value{Source: Now}).Placeholder
	return &Expiry{Attr: p.Table.TTL, Text: fmt.Sprintf(format, name, now)}
}

// joinAnd joins the non-empty expressions with AND.
func joinAnd(exprs ...string) string {
	var parts []string
	for _, e := range exprs {
		if e != "" {
			parts = append(parts, e)
		}
	}
	return strings.Join(parts, " AND ")
}

// keyCondition names the key attributes and the key values of a Query.
func keyCondition(n *requestNamer, k *KeyCond) {
	if k.Index.Multi() {
		keyConditionMulti(n, k)
		return
	}
	req := n.req
	pk := n.name(k.Index.PK.Name, keyPK)
	n.value(valPK[1:], &Value{Source: PKValue})
	expr := pk + " = " + req.Values[0].Placeholder
	if k.SK.Kind != SKNone {
		expr += " AND " + skTerm(n, k.SK.Kind, n.name(k.Index.SK.Name, keySK))
	}
	req.KeyCondition = expr
}

// skTerm is the condition of kind on the sort key attribute the request
// names sk, with its values: sk = :sk, begins_with(sk, :sk), sk BETWEEN
// :sklo AND :skhi, sk < :sk.
func skTerm(n *requestNamer, kind SKKind, sk string) string {
	switch kind {
	case SKBeginsWith:
		return fmt.Sprintf("begins_with(%s, %s)", sk, n.value(valSK[1:], &Value{Source: SKValue}).Placeholder)
	case SKBetween:
		lo := n.value(valSKLo[1:], &Value{Source: SKLow}).Placeholder
		hi := n.value(valSKHi[1:], &Value{Source: SKHigh}).Placeholder
		return fmt.Sprintf("%s BETWEEN %s AND %s", sk, lo, hi)
	}
	return fmt.Sprintf("%s %s %s", sk, kind.Operator(), n.value(valSK[1:], &Value{Source: SKValue}).Placeholder)
}

// keyConditionMulti names the key attributes and values of a Query of an
// index with a multi-attribute key: equality on each attribute it binds,
// then the condition on the next sort key attribute, each named and given
// a value of its own.
func keyConditionMulti(n *requestNamer, k *KeyCond) {
	var parts []string
	for _, b := range k.Bound() {
		v := &Value{Source: KeyPart, Operand: b.Part}
		if a := b.Tm.Segments[0].Attr; a != nil {
			v.Attr = a
		} else {
			v.Lit = &Literal{Dynamo: "S", Text: b.Tm.Segments[0].Literal}
		}
		ph := n.value(b.Attr.Name, v).Placeholder
		parts = append(parts, n.name(b.Attr.Name, "")+" = "+ph)
	}
	if ka := k.RangeAttr(); ka != nil {
		parts = append(parts, skTerm(n, k.SK.Kind, n.name(ka.Name, "")))
	}
	n.req.KeyCondition = strings.Join(parts, " AND ")
}

// projection names what a read with select asks for: the selected
// attributes, the primary key's attributes, what tells entities apart
// and, for a batch read, the table's key attributes (the items are put
// in the order of the keys by them). Without select, or when attributes
// are read back from keys, a read returns what the index projects: "".
func projection(n *requestNamer, pp *Pattern) string {
	p := pp.Pattern
	if len(p.Select) == 0 || len(pp.FromKeys) > 0 {
		return ""
	}
	var parts []string
	add := func(stored string) {
		if ph := n.name(stored, ""); !slices.Contains(parts, ph) {
			parts = append(parts, ph)
		}
	}
	for _, a := range SelectAttrs(p) {
		add(a.Stored)
	}
	if p.Expires() && (p.Op == model.OpGet || p.Op == model.OpBatchGet) {
		// The code that drops an expired item reads the ttl attribute.
		add(p.Table.TTL)
	}
	for _, mem := range pp.Members {
		if mem.How == ByEntityAttr {
			add(p.Table.EntityAttr)
			break
		}
	}
	if p.Op == model.OpBatchGet {
		for _, ka := range p.Table.Primary().KeyAttrs() {
			add(ka.Name)
		}
	}
	return strings.Join(parts, ", ")
}

// SelectAttrs are the attributes a read with select returns: the
// selected ones and the primary key's attributes.
func SelectAttrs(p *model.Pattern) []*model.Attribute {
	out := slices.Clone(p.Select)
	for _, a := range p.Entity().PrimaryKey().Attrs() {
		if !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	return out
}

// condition writes a write's ConditionExpression: the operation's own
// (create: no item has the key; update: the item exists), the when
// conditions, and the bounds an atomic add keeps. amounts holds the
// placeholders of the add amounts, by attribute.
func condition(n *requestNamer, pp *Pattern, amounts map[*model.Attribute]added) string {
	p := pp.Pattern
	var parts []term
	switch {
	case (p.Op == model.OpCreate || p.Op == model.OpCheck && p.Missing) && p.Expires():
		// An expired item is absent: a create replaces it.
		pk := n.name(p.Table.PK.Name, keyPK)
		n.req.Expiry = n.expiry(p, "%[1]s <= %[2]s")
		parts = append(parts, term{text: fmt.Sprintf("(attribute_not_exists(%s) OR %s)", pk, n.req.Expiry.Text)})
	case p.Op == model.OpCreate:
		parts = append(parts, term{text: fmt.Sprintf("attribute_not_exists(%s)", n.name(p.Table.PK.Name, keyPK))})
	case (p.Op == model.OpUpdate && !p.Upsert || p.Op == model.OpCheck && !p.Missing) && p.Expires():
		// An expired item is absent: an update or check of it fails,
		// ErrNotFound.
		pk := n.name(p.Table.PK.Name, keyPK)
		n.req.Expiry = n.expiry(p, "(attribute_not_exists(%[1]s) OR %[1]s > %[2]s)")
		parts = append(parts, term{text: fmt.Sprintf("attribute_exists(%s) AND %s", pk, n.req.Expiry.Text)})
	case p.Op == model.OpUpdate && !p.Upsert, p.Op == model.OpCheck && !p.Missing:
		parts = append(parts, term{text: fmt.Sprintf("attribute_exists(%s)", n.name(p.Table.PK.Name, keyPK))})
	case p.Op == model.OpCheck:
		parts = append(parts, term{text: fmt.Sprintf("attribute_not_exists(%s)", n.name(p.Table.PK.Name, keyPK))})
	}
	// A path into an optional object: the object is there, else
	// DynamoDB refuses the call.
	for _, a := range p.Parents {
		parts = append(parts, term{text: fmt.Sprintf("attribute_exists(%s)", n.attr(a))})
	}
	parts = append(parts, n.terms(p.When, "_when")...)
	if c := versionCondition(n, pp); c != "" {
		parts = append(parts, term{text: c})
	}
	// An atomic add keeps a number with a min or max in its bounds, and an
	// int in int64's (DynamoDB's numbers go further, and the package could
	// not read the sum back): a new item's amount is checked against the
	// bound, a stored value against the bound less the amount, which the
	// call computes exactly.
	for _, a := range p.AddAttrs() {
		if p.Entity().CountOf != nil {
			// A counter's number counts items: never near int64's bounds.
			break
		}
		name := n.attr(a)
		for _, bound := range []struct {
			set bool
			max bool
			op  string
		}{{a.Min != nil || a.Type == model.Int, false, ">="}, {a.Max != nil || a.Type == model.Int, true, "<="}} {
			if !bound.set {
				continue
			}
			label := "min"
			if bound.max {
				label = "max"
			}
			rest := func() string {
				return n.value(a.Name+"_rest"+strings.ToUpper(label[:1])+label[1:], &Value{Source: AddRest, Attr: a, Max: bound.max}).Placeholder
			}
			if ad := amounts[a]; ad.dflt != "" {
				// Over no value, the default plus the amount is in bounds:
				// the default against the bound less the amount.
				r := rest()
				parts = append(parts, term{text: fmt.Sprintf("((attribute_not_exists(%s) AND %s %s %s) OR %s %s %s)", name, ad.dflt, bound.op, r, name, bound.op, r)})
				continue
			}
			limit := n.value(a.Name+"_"+label, &Value{Source: AddLimit, Attr: a, Max: bound.max}).Placeholder
			parts = append(parts, term{text: fmt.Sprintf("((attribute_not_exists(%s) AND %s %s %s) OR %s %s %s)", name, amounts[a].amount, bound.op, limit, name, bound.op, rest())})
		}
	}
	// The attributes the write holds as read (copy.go): each named
	// always, its value placeholder taken, and sent with Present only.
	for _, a := range p.AsRead {
		name := n.attr(a)
		ph := n.take(":" + placeholderText(a.Name+"_read"))
		n.req.Held = append(n.req.Held, &Held{Attr: a, Stored: a.Stored, Present: name + " = " + ph, Absent: "attribute_not_exists(" + name + ")", Value: ph})
	}
	if len(parts) == 0 {
		return ""
	}
	if len(parts) == 1 && parts[0].or && len(n.req.Held) > 0 {
		// The held parts follow with AND: an or alone is parenthesised,
		// as joinTerms does beside other parts.
		return "(" + parts[0].text + ")"
	}
	return joinTerms(parts)
}

// added are the placeholders of what an update adds to a number: the
// amount, and the default it starts from when the item lacks the
// number ("" for none: ADD starts from 0).
type added struct{ amount, dflt string }

// addDefault is the default of number a that an add starts from, or "":
// a number with a default other than 0.
func addDefault(a *model.Attribute) string {
	if a.Default == nil || a.Type != model.Int && a.Type != model.Float {
		return ""
	}
	if _, stored := model.StoredConst(a, model.OpEq, a.Default.Text); stored == "0" {
		return "" // ADD's own start
	}
	return a.Default.Text
}

// update writes an update's actions: the attributes it sets, the index
// keys it rewrites or removes, what an upsert writes for a new item, the
// amounts it adds and the attributes it removes. An optional attribute
// set to its zero value is removed, as a put leaves it out, and so is an
// index key built from it (the item leaves that sparse index): those
// actions are chosen at run time. It returns the add amounts'
// placeholders.
func update(n *requestNamer, pp *Pattern, req *Request) map[*model.Attribute]added {
	p := pp.Pattern
	u := &Update{}
	req.Update = u
	var sometimes []*Clause
	for _, a := range p.Set {
		name := n.attr(a)
		v := n.value(a.Name, &Value{Source: SetValue, Attr: a})
		c := &Clause{Text: name + " = " + v.Placeholder, Values: []*Value{v}}
		if a.Optional {
			c.Unless, c.Instead = []*model.Attribute{a}, name
			sometimes = append(sometimes, c)
			continue
		}
		u.Set = append(u.Set, c)
	}
	// A constant is sent on every call: the model refused an optional
	// attribute's zero value.
	for _, sc := range p.SetConsts {
		a := sc.Attr
		name := n.attr(a)
		v := n.value(a.Name, &Value{Source: SetConst, Attr: a, Lit: literal(a, model.OpEq, sc.Const.Text)})
		u.Set = append(u.Set, &Clause{Text: name + " = " + v.Placeholder, Values: []*Value{v}})
	}
	var sparse []*Clause
	for _, rb := range pp.Rebuild {
		name := n.name(rb.KeyAttr.Name, "")
		if rb.Remove {
			u.Remove = append(u.Remove, &Clause{Text: name})
			continue
		}
		v := n.value(rb.KeyAttr.Name, &Value{Source: RebuiltKey, Rebuild: rb})
		c := &Clause{Text: name + " = " + v.Placeholder, Values: []*Value{v}}
		c.Unless = rb.Sparse
		if len(c.Unless) > 0 {
			c.Instead = name
			sparse = append(sparse, c)
			continue
		}
		u.Set = append(u.Set, c)
	}
	if p.Upsert {
		e := p.Entity()
		name := n.name(p.Table.EntityAttr, "")
		v := n.value(p.Table.EntityAttr, &Value{Source: EntityType})
		u.Set = append(u.Set, &Clause{Text: name + " = " + v.Placeholder, Values: []*Value{v}})
		// A created item holds the attributes of its primary key too,
		// unless they are the key attributes themselves (natural keys).
		for _, a := range e.PrimaryKey().Attrs() {
			if p.Table.IsKeyAttr(a.Stored) {
				continue
			}
			name := n.name(a.Stored, "")
			v := n.value(a.Name, &Value{Source: KeyInput, Attr: a})
			u.Set = append(u.Set, &Clause{Text: name + " = " + v.Placeholder, Values: []*Value{v}})
		}
	}
	u.Set = append(u.Set, managedClauses(n, pp)...)
	u.Set = append(append(u.Set, sometimes...), sparse...)
	amounts := map[*model.Attribute]added{}
	for _, a := range p.AddAttrs() {
		name := n.attr(a)
		v := &Value{Source: AddAmount, Attr: a}
		if sc := p.AddConst(a); sc != nil {
			v.Lit = literal(a, model.OpEq, sc.Const.Text)
		}
		v = n.value(a.Name, v)
		if d := addDefault(a); d != "" {
			// ADD starts an absent number from 0, and a read gives the
			// default: start from it.
			dv := n.value(a.Name+"_default", &Value{Source: AddDefault, Attr: a, Lit: literal(a, model.OpEq, d)})
			amounts[a] = added{amount: v.Placeholder, dflt: dv.Placeholder}
			u.Set = append(u.Set, &Clause{Text: fmt.Sprintf("%s = if_not_exists(%s, %s) + %s", name, name, dv.Placeholder, v.Placeholder), Values: []*Value{dv, v}})
			continue
		}
		amounts[a] = added{amount: v.Placeholder}
		u.Add = append(u.Add, &Clause{Text: name + " " + v.Placeholder, Values: []*Value{v}})
	}
	for _, a := range p.Remove {
		u.Remove = append(u.Remove, &Clause{Text: n.attr(a)})
	}
	// DynamoDB refuses an empty set: a call that gives no elements to
	// remove sends no DELETE action for them.
	for _, a := range p.RemoveFrom {
		name := n.attr(a)
		v := n.value(a.Name, &Value{Source: RemoveElems, Attr: a})
		u.Delete = append(u.Delete, &Clause{Text: name + " " + v.Placeholder, Unless: []*model.Attribute{a}, Values: []*Value{v}})
	}
	return amounts
}

var namePlaceholder = regexp.MustCompile(`#[A-Za-z0-9_]+`)

// ownNames finds, for each action only some calls send with nothing in
// its place, the name placeholders no other part of the request uses.
func ownNames(req *Request) {
	if req.Update == nil {
		return
	}
	uses := map[string]int{}
	count := func(text string) {
		for _, ph := range namePlaceholder.FindAllString(text, -1) {
			uses[ph]++
		}
	}
	for _, e := range []string{req.KeyCondition, req.Projection, req.Filter, req.FullCondition()} {
		count(e)
	}
	u := req.Update
	for _, cs := range [][]*Clause{u.Set, u.Add, u.Remove, u.Delete} {
		for _, c := range cs {
			count(c.Text)
			count(c.Instead)
		}
	}
	for _, c := range u.Sometimes() {
		if c.Instead != "" {
			continue
		}
		for _, ph := range namePlaceholder.FindAllString(c.Text, -1) {
			if uses[ph] == 1 {
				c.Names = append(c.Names, ph)
			}
		}
	}
}

// versionCondition is the part of a write's condition that checks the
// version the caller read, for a put, update or delete of a versioned
// entity: "#rev = :rev_expected" (and it sets Pattern.Version). An absent
// item fails it too, which the generated code tells apart (ErrNotFound)
// by the item DynamoDB returns.
func versionCondition(n *requestNamer, pp *Pattern) string {
	p := pp.Pattern
	a := p.Entity().Version
	if a == nil {
		return ""
	}
	switch p.Op {
	case model.OpPut, model.OpUpdate, model.OpDelete:
	case model.OpCheck:
		if p.Missing {
			return ""
		}
	default:
		return ""
	}
	name := n.name(a.Stored, "")
	v := n.value(a.Name+"_expected", &Value{Source: VersionExpected, Attr: a})
	pp.Version = a
	return name + " = " + v.Placeholder
}

// managedClauses are the SET actions of an update that keep the entity's
// version and timestamps: the version goes up by one ("#rev = #rev +
// :rev_one"), the updated time is the clock's, and an upsert writes the
// created time only when the item has none ("#createdAt =
// if_not_exists(#createdAt, :createdAt_now)").
func managedClauses(n *requestNamer, pp *Pattern) []*Clause {
	p := pp.Pattern
	e := p.Entity()
	var out []*Clause
	if a := e.Version; a != nil {
		name := n.name(a.Stored, "")
		v := n.value(a.Name+"_one", &Value{Source: VersionStep, Attr: a, Lit: &Literal{Dynamo: "N", Text: "1"}})
		out = append(out, &Clause{Text: fmt.Sprintf("%s = %s + %s", name, name, v.Placeholder), Values: []*Value{v}})
	}
	if a := e.Created; a != nil && p.Upsert {
		name := n.name(a.Stored, "")
		v := n.value(a.Name+"_now", &Value{Source: ClockNow, Attr: a})
		out = append(out, &Clause{Text: fmt.Sprintf("%s = if_not_exists(%s, %s)", name, name, v.Placeholder), Values: []*Value{v}})
	}
	if a := e.Updated; a != nil {
		name := n.name(a.Stored, "")
		v := n.value(a.Name+"_now", &Value{Source: ClockNow, Attr: a})
		out = append(out, &Clause{Text: name + " = " + v.Placeholder, Values: []*Value{v}})
	}
	return out
}

// itemValues are the attributes a put or create writes in place of the
// caller's: the constants of its set, the version (1 on create, the one read plus one on put) and
// the timestamps (both on create, the updated time on put and on each
// item of a batch put).
func itemValues(pp *Pattern) []*Value {
	p := pp.Pattern
	e := p.Entity()
	var out []*Value
	if p.Op == model.OpCreate || p.Op == model.OpPut {
		for _, sc := range p.SetConsts {
			out = append(out, &Value{Source: ItemConst, Attr: sc.Attr, Lit: literal(sc.Attr, model.OpEq, sc.Const.Text)})
		}
	}
	switch p.Op {
	case model.OpCreate:
		if a := e.Version; a != nil {
			out = append(out, &Value{Source: VersionFirst, Attr: a, Lit: &Literal{Dynamo: "N", Text: "1"}})
		}
		for _, a := range []*model.Attribute{e.Created, e.Updated} {
			if a != nil {
				out = append(out, &Value{Source: ClockNow, Attr: a})
			}
		}
	case model.OpPut, model.OpBatchPut:
		if a := e.Version; a != nil {
			out = append(out, &Value{Source: VersionNext, Attr: a})
		}
		if a := e.Updated; a != nil {
			out = append(out, &Value{Source: ClockNow, Attr: a})
		}
	}
	return out
}

// replace writes the actions of a put of an entity with a created time,
// which is sent as an UpdateItem (see builder.write): it sets every
// attribute the item holds and removes each one it may lack when it
// lacks it (an optional attribute, the key attributes of an index the
// item may be left out of), as a PutItem would replace the item whole,
// and writes the created time only when the stored item has none, so
// that an item replaced keeps its own. The version and the updated time
// are the item's, which the put sets first (Request.Item).
func replace(n *requestNamer, pp *Pattern, req *Request) {
	p := pp.Pattern
	e := p.Entity()
	t := p.Table
	u := &Update{}
	req.Update = u
	var sometimes []*Clause
	add := func(stored, base string, a *model.Attribute, absent []*model.Attribute) {
		name := n.name(stored, "")
		v := n.value(base, &Value{Source: ItemAttr, Attr: a, Stored: stored})
		c := &Clause{Text: name + " = " + v.Placeholder, Values: []*Value{v}}
		if len(absent) > 0 {
			c.Unless, c.Instead = absent, name
			sometimes = append(sometimes, c)
			return
		}
		u.Set = append(u.Set, c)
	}
	add(t.EntityAttr, t.EntityAttr, nil, nil)
	for _, a := range e.Attributes {
		if t.IsKeyAttr(a.Stored) || a == e.Created {
			continue
		}
		// An attribute the item may lack (an optional one, an empty set,
		// a nil document: MarshalItem leaves them out) is removed instead.
		var absent []*model.Attribute
		if !a.StoredForm().Always {
			absent = []*model.Attribute{a}
		}
		add(a.Stored, a.Name, a, absent)
	}
	if a := e.Created; a != nil {
		name := n.name(a.Stored, "")
		v := n.value(a.Name+"_now", &Value{Source: ClockNow, Attr: a})
		u.Set = append(u.Set, &Clause{Text: fmt.Sprintf("%s = if_not_exists(%s, %s)", name, name, v.Placeholder), Values: []*Value{v}})
	}
	seen := map[string]bool{}
	for _, k := range e.Keys[1:] {
		var absent []*model.Attribute
		for _, a := range k.Attrs() {
			if a.Optional {
				absent = append(absent, a)
			}
		}
		for i, tm := range k.AttrTemplates() {
			ka := k.Index.KeyAttrs()[i]
			if tm.Implied || t.IsKeyAttr(ka.Name) || seen[ka.Name] {
				continue
			}
			seen[ka.Name] = true
			if e.CreatedIn(tm) {
				// Built from the created time: a replaced item keeps its
				// key as it keeps its time (the planner refuses such a
				// template with attributes a put may change).
				name := n.name(ka.Name, "")
				v := n.value(ka.Name, &Value{Source: ItemAttr, Stored: ka.Name})
				u.Set = append(u.Set, &Clause{Text: fmt.Sprintf("%s = if_not_exists(%s, %s)", name, name, v.Placeholder), Values: []*Value{v}})
				continue
			}
			add(ka.Name, ka.Name, nil, absent)
		}
	}
	u.Set = append(u.Set, sometimes...)
}

// createdKeyed reports whether an index key template e writes is built
// from its created time.
func createdKeyed(e *model.Entity) bool {
	for _, k := range e.Keys {
		if slices.ContainsFunc(k.Templates(), e.CreatedIn) {
			return true
		}
	}
	return false
}

package plan

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dyngen/dyngen/internal/model"
)

// The calls of a transaction, and of its steps that are no call of their
// own.
const (
	TransactWriteItems Call = "TransactWriteItems"
	TransactGetItems   Call = "TransactGetItems"
	// ConditionCheck is a step of a transaction that writes nothing.
	ConditionCheck Call = "ConditionCheck"
)

// maxTransactionBytes is the most a transaction may hold (DynamoDB's
// 4 MB), and maxItemBytes the largest item.
const (
	maxTransactionBytes = 4 << 20
	maxItemBytes        = 400 << 10
)

// Step is one step of a transaction, planned.
type Step struct {
	Step *model.Step
	// Plan is the step as a call of its own: its key, its request and
	// the parameters of the function that builds it (never a struct).
	Plan *Pattern
	// Action is the member of the transaction's item the step fills:
	// Put, Update, Delete, ConditionCheck or Get.
	Action string
	// Args are where each of Plan.Params takes its value, in order.
	Args []*Arg
	// Stamps is set on a step that writes the caller's item of a
	// transaction with values of its own (Input.Written): its builder
	// decodes the item it built back into the item it was given, the
	// method's copy.
	Stamps bool
	// IfAbsent and IfPresent are the errors a failed condition of the
	// step is (ErrNotFound, ErrAlreadyExists, ErrConditionFailed...),
	// when the item does not exist and when it does; "" when the step
	// has no condition, or none that an absent item fails.
	IfAbsent, IfPresent string
}

// Arg is where a step's parameter takes its value: an input of the
// transaction, or, for an item input, the field Field of the item; or,
// with Clock, the time the transaction read once.
type Arg struct {
	Input *Input
	Field string
	Clock bool
	// Build is set on the claim item a write of an entity with unique
	// values takes: where each of its fields, in the order of the claim
	// entity's attributes, takes its value (Input.Field is then the
	// claim's type).
	Build []*Arg
	// Delta is set on the amount a counter step adds to a group's
	// number: -1 when the item read was in the group, +1 when the item
	// written is, their sum when both.
	Delta *Delta
	// Const is set on the value of an attribute an update sets to a
	// constant of the spec (Attr), as written in the spec.
	Const *ConstArg
	// Lower is set when the value is a string a claim holds lower-cased
	// (normalize: lower): strings.ToLower of it.
	Lower bool
	// Elem is set when the value is a set whose elements are claimed one
	// by one: the step is sent once per element (Sends), and the
	// argument is the element (the method's local "el").
	Elem bool
	// Zero is set on a field of a Build left at its zero value: an
	// attribute the update a copy is built for removes.
	Zero bool
}

// ConstArg is a constant of the spec an argument takes: Value of Attr
// (an enum or a bool) of Entity.
type ConstArg struct {
	Entity *model.Entity
	Attr   *model.Attribute
	Value  string
	// Lit is the value as the request sends it (0x10 is 16).
	Lit *Literal
}

// Input is a field of the struct a transaction's method takes.
type Input struct {
	Field  string
	GoType string
	// Item is the step whose whole item the input is, or nil.
	Item *model.Step
	// Attr is the attribute of the first step that takes the input.
	Attr *model.Attribute
	// Steps are the steps that take it, in order.
	Steps []*model.Step
	// Written are the attributes of an item input that its step writes
	// itself (the constants of its set, version, timestamps), which the method gives back into the
	// caller's item on success and later steps' binds read as written.
	// A put's created time is not among them: the step keeps the stored
	// one, which it does not read.
	Written []*model.Attribute
	// Copy is the local of the method holding its copy of an item
	// input: written<Field>, a name no method local, nothing of Go's or
	// the package's has.
	Copy string
}

// Transaction is the plan of a transaction pattern's steps.
type Transaction struct {
	Steps  []*Step
	Inputs []*Input
	// Token is the field of the struct that holds the call's client
	// request token, and Now the one that holds the time its steps take
	// instead of the Store's clock ("" when no step reads the clock).
	Token, Now string
	// Distinct lists the pairs of steps (indexes, the first lower) that
	// may address the same item, depending on the values of a call: the
	// method compares their keys before the call.
	Distinct [][2]int
	// Order is the order the method builds the steps' requests in (the
	// request keeps the steps' own; see buildOrder): building a step that
	// writes an item stamps the copy of it with the version and times it
	// writes, which a bind of another step then reads.
	Order []int
}

// ItemInputs are the inputs that are a step's whole item, in order: a
// pointer to the caller's item, copied by the method, stamped with what
// the step writes, and given back on success.
func (tx *Transaction) ItemInputs() []*Input {
	var out []*Input
	for _, in := range tx.Inputs {
		if in.Item != nil {
			out = append(out, in)
		}
	}
	return out
}

// TokenField is the field of a transaction's struct holding its client
// request token, and NowField the one holding the time its steps take.
const (
	TokenField = "RequestToken"
	NowField   = "Now"
)

// fixedFields says what the fields of a transaction's struct that no
// input may take hold.
var fixedFields = map[string]string{TokenField: "client request token", NowField: "time"}

// ConditionKinds returns the errors a failed condition of a write or
// check p is, when the item does not exist and when it does: the names
// of the runtime's error variables. ok is false when p sends no
// condition.
func ConditionKinds(pp *Pattern) (absent, present string, ok bool) {
	p := pp.Pattern
	if pp.Request == nil || pp.Request.Condition == "" {
		return "", "", false
	}
	switch {
	case p.Op == model.OpCreate:
		return "ErrConditionFailed", "ErrAlreadyExists", true
	case p.Op == model.OpUpdate && !p.Upsert:
		return "ErrNotFound", "ErrConditionFailed", true
	case p.Op == model.OpCheck && p.Missing:
		return "ErrConditionFailed", "ErrAlreadyExists", true
	case p.Op == model.OpCheck:
		return "ErrNotFound", "ErrConditionFailed", true
	case (p.Op == model.OpPut || p.Op == model.OpDelete) && p.Entity().Version != nil:
		// A versioned item the caller read must still be there.
		return "ErrNotFound", "ErrConditionFailed", true
	}
	return "ErrConditionFailed", "ErrConditionFailed", true
}

// actions are the members of a transaction's item that steps of each
// call fill.
var actions = map[Call]string{PutItem: "Put", UpdateItem: "Update", DeleteItem: "Delete", ConditionCheck: "ConditionCheck", GetItem: "Get"}

// newStep is step st of a transaction, planned as sp: its action and the
// errors of its condition.
func newStep(st *model.Step, sp *Pattern) *Step {
	s := &Step{Step: st, Plan: sp, Action: actions[sp.Call]}
	s.IfAbsent, s.IfPresent = stepKinds(sp)
	return s
}

// stepKinds are the errors a failed condition of a transaction's step
// is, when its item is absent and present: ConditionKinds, but "" for
// the absent item of a step whose condition only an item with the key
// fails (a create or a check of no item, without when or expiry).
func stepKinds(sp *Pattern) (absent, present string) {
	absent, present, _ = ConditionKinds(sp)
	if present == "ErrAlreadyExists" && len(sp.Pattern.When) == 0 && !sp.Pattern.Expires() {
		absent = ""
	}
	return absent, present
}

// transaction plans a transaction's steps, the inputs they share, the
// items they address and the cost.
func (b *builder) transaction(p *model.Pattern) *Pattern {
	call, form := TransactWriteItems, FormTransactWrite
	if p.Op == model.OpTransactGet {
		call, form = TransactGetItems, FormTransactGet
	}
	// The transaction sends no expression of its own: its steps do.
	pp := &Pattern{Pattern: p, Call: call, Form: form, Index: p.Table.Primary(), Tx: &Transaction{}, Request: &Request{}}
	if call == TransactWriteItems {
		pp.Tx.Token = TokenField
	}
	ok := true
	for _, st := range p.Steps {
		sp := b.stepPlan(st)
		if sp == nil {
			ok = false
			continue
		}
		pp.Tx.Steps = append(pp.Tx.Steps, newStep(st, sp))
	}
	if !ok {
		return nil
	}
	if !b.txInputs(pp) || !b.distinct(pp) {
		return nil
	}
	pp.Tx.Order = buildOrder(pp.Tx)
	b.txSize(pp)
	b.txCost(pp)
	// The method's parameters: the struct of inputs, whose fields the
	// plan named.
	pp.Struct = &ParamsStruct{Type: p.ParamsType(), Var: "params", Own: true}
	return pp
}

// stepPlan plans a step as a call of its own.
func (b *builder) stepPlan(st *model.Step) *Pattern {
	p := st.Pattern
	var sp *Pattern
	switch p.Op {
	case model.OpGet:
		e := p.Entity()
		sp = &Pattern{Pattern: p, Call: GetItem, Form: FormGet, Index: e.Table.Primary(), Key: primaryKey(e), Inputs: e.PrimaryKey().Attrs()}
		sp.Members = []*Member{{Entity: e, How: ByKey}}
		b.request(sp)
		b.cost(sp)
	case model.OpCheck:
		e := p.Entity()
		sp = &Pattern{Pattern: p, Call: ConditionCheck, Form: FormCheck, Index: e.Table.Primary(), Key: primaryKey(e), Inputs: e.PrimaryKey().Attrs()}
		b.request(sp)
		b.cost(sp)
	default:
		sp = b.write(p)
	}
	if sp == nil {
		return nil
	}
	b.params(sp)
	// The step's builder takes its values as parameters of their own,
	// and the time of its timestamps and expiry from the transaction,
	// which reads the clock once: a retry with the same request token
	// must send the same values.
	sp.Struct = nil
	if sp.Request.UsesClock() {
		sp.Params = append(sp.Params, &Param{Name: sp.Local("now"), Role: ParamClock})
	}
	if len(sp.Request.Held) > 0 || len(sp.Request.AbsentAsRead) > 0 {
		// The item read, whose values the condition holds, or whose
		// absent attributes the item written leaves out.
		sp.Params = append(sp.Params, &Param{Name: sp.Local("old"), Role: ParamRead})
	}
	return sp
}

// txInputs decides the fields of the transaction's struct and where each
// step's parameter takes its value: a field of its own name (shared by
// the steps that take a value of that name), the input its bind names,
// or a field of another step's item.
func (b *builder) txInputs(pp *Pattern) bool {
	tx := pp.Tx
	p := pp.Pattern
	ok := true
	byField := map[string]*Input{}
	where := func(st *model.Step) string {
		return fmt.Sprintf("step %d (%s)", st.Index+1, st.Action())
	}
	take := func(field, goType string, st *model.Step, a *model.Attribute, pos model.Pos) *Input {
		if in := byField[field]; in != nil {
			if in.Item != nil {
				b.errorf(pos, "%s %s: %s takes an input %s, the name of the item %s writes; bind it to another name", p.Op, p.Name, where(st), field, where(in.Item))
				ok = false
				return nil
			}
			if in.GoType != goType {
				b.errorf(pos, "%s %s: %s and %s both take %s, as %s and as %s; bind one of them to another name", p.Op, p.Name, where(in.Steps[0]), where(st), field, in.GoType, goType)
				ok = false
				return nil
			}
			if !slices.Contains(in.Steps, st) {
				in.Steps = append(in.Steps, st)
			}
			return in
		}
		if field == tx.Token || field == NowField && tx.Token != "" {
			b.errorf(pos, "%s %s: %s takes an input %s, the field of the call's %s; bind it to another name", p.Op, p.Name, where(st), field, fixedFields[field])
			ok = false
			return nil
		}
		in := &Input{Field: field, GoType: goType, Attr: a, Steps: []*model.Step{st}}
		byField[field] = in
		tx.Inputs = append(tx.Inputs, in)
		return in
	}
	// The items first: a bind may name them from any step.
	items := map[*model.Step]*Input{}
	for _, s := range tx.Steps {
		st := s.Step
		if st.Op != model.OpPut && st.Op != model.OpCreate || st.Claim != nil {
			continue
		}
		field := st.FieldName()
		if field == tx.Token || field == NowField && tx.Token != "" {
			b.errorf(st.AsPos, "%s %s: %s writes an item named %s, the field of the call's %s; give it as: <name>", p.Op, p.Name, where(st), field, fixedFields[field])
			ok = false
			continue
		}
		if prev := byField[field]; prev != nil {
			b.errorf(st.AsPos, "%s %s: %s and %s both write an item named %s; give one of them as: <name>", p.Op, p.Name, where(prev.Item), where(st), field)
			ok = false
			continue
		}
		in := &Input{Field: field, GoType: "*" + st.Entity().GoName, Item: st, Steps: []*model.Step{st}}
		in.Copy = model.LocalName("written"+field, func(n string) bool {
			return model.TakenByCode(n) || b.packageNames[n]
		})
		e := st.Entity()
		for _, sc := range st.SetConsts {
			in.Written = append(in.Written, sc.Attr)
		}
		for _, a := range []*model.Attribute{e.Version, e.Created, e.Updated} {
			if a != nil && (a != e.Created || st.Op == model.OpCreate) {
				in.Written = append(in.Written, a)
			}
		}
		s.Stamps = len(in.Written) > 0
		byField[field] = in
		tx.Inputs = append(tx.Inputs, in)
		items[st] = in
	}
	for _, s := range tx.Steps {
		st := s.Step
		// The names the step's inputs would have in a struct of their
		// own name the transaction's; the builder takes parameters.
		fieldNames(s.Plan)
		fields := map[*Param]string{}
		for _, q := range s.Plan.Params {
			fields[q], q.Field = q.Field, ""
		}
		for _, q := range s.Plan.Params {
			goType := s.Plan.GoType(q)
			if q.Role == ParamClock {
				s.Args = append(s.Args, &Arg{Clock: true})
				if tx.Token != "" {
					tx.Now = NowField
				}
				continue
			}
			if st.Count != nil {
				// A counter of the item a create step writes.
				s.Args = append(s.Args, countArg(q, st, nil, func(a *model.Attribute) *Arg { return &Arg{Input: items[st.Of], Field: a.GoName} }, nil))
				continue
			}
			if q.Role == ParamItem && st.Claim != nil {
				// The claim of a value of the item a create step writes.
				s.Args = append(s.Args, claimArg(st, items[st.Of]))
				continue
			}
			if q.Role == ParamItem {
				s.Args = append(s.Args, &Arg{Input: items[st]})
				continue
			}
			var bd *model.Binding
			if q.Role == ParamKey || q.Role == ParamSet || q.Role == ParamAdd || q.Role == ParamElems {
				bd = st.Binding(q.Attr)
			}
			switch {
			case q.Role == ParamVersion:
				// The version an update or delete checks is its item's:
				// never shared by name with another step's.
				field := st.FieldName() + q.Attr.GoName
				if in := byField[field]; in != nil {
					b.errorf(st.OpPos, "%s %s: %s and %s both take the version %s; give one of them as: <name>", p.Op, p.Name, where(in.Steps[0]), where(st), field)
					ok = false
					continue
				}
				in := take(field, goType, st, q.Attr, st.OpPos)
				if in == nil {
					continue
				}
				s.Args = append(s.Args, &Arg{Input: in})
			case bd != nil && bd.Item != nil:
				src := items[bd.Item]
				if src == nil {
					ok = false
					continue
				}
				srcType := model.FieldType(bd.Item.Entity(), bd.From)
				if srcType != goType {
					b.errorf(bd.Pos, "%s %s: %s takes %s as %s, and %s.%s is %s; bind it to a value of its type", p.Op, p.Name, where(st), q.Attr.Name, goType, bd.Item.As, bd.From.Name, srcType)
					ok = false
					continue
				}
				if e := bd.Item.Entity(); e.Managed(bd.From) && !slices.Contains(src.Written, bd.From) {
					// A put's created time: not among what the step
					// writes itself (Input.Written).
					b.errorf(bd.Pos, "%s %s: %s takes %s from %s.%s, but step %d (%s) keeps the %s of a stored %s, which the transaction does not read, and writes the Store's time only for a new one; bind it to an input", p.Op, p.Name, where(st), q.Attr.Name, bd.Item.As, bd.From.Name, bd.Item.Index+1, bd.Item.Action(), bd.From.Name, e.Name)
					ok = false
					continue
				}
				if !slices.Contains(src.Steps, st) {
					src.Steps = append(src.Steps, st)
				}
				s.Args = append(s.Args, &Arg{Input: src, Field: bd.From.GoName})
			case bd != nil:
				in := take(model.GoName(bd.Input), goType, st, q.Attr, bd.Pos)
				if in == nil {
					continue
				}
				s.Args = append(s.Args, &Arg{Input: in})
			default:
				in := take(fields[q], goType, st, q.Attr, st.OpPos)
				if in == nil {
					continue
				}
				s.Args = append(s.Args, &Arg{Input: in})
			}
		}
	}
	return ok
}

// buildOrder is the order a transaction's method builds its steps'
// requests in: the steps' own, but a step that takes values of the item
// a later step writes with values of its own (a version, times) comes
// after that step, which stamps the item with them. A value refused
// before the call is then the first step's in step order that has one,
// wherever no bind reaches ahead.
func buildOrder(tx *Transaction) []int {
	placed := make([]bool, len(tx.Steps))
	var order []int
	var place func(i int)
	place = func(i int) {
		if placed[i] {
			return
		}
		placed[i] = true
		for _, a := range tx.Steps[i].Args {
			for _, b := range append([]*Arg{a}, a.Build...) {
				if b.Input == nil || len(b.Input.Written) == 0 || b.Input.Item == tx.Steps[i].Step {
					continue
				}
				for j, s := range tx.Steps {
					if s.Step == b.Input.Item {
						place(j)
					}
				}
			}
		}
		order = append(order, i)
	}
	for i := range tx.Steps {
		place(i)
	}
	return order
}

// distinct finds the steps that address the same item of one table:
// DynamoDB refuses two actions on one item in a transaction. Items of
// two entities never meet (the model's keys can't collide). Two steps of
// one entity whose keys take every value from the same inputs always
// address one item, and are refused; otherwise the method compares their
// keys before the call.
func (b *builder) distinct(pp *Pattern) bool {
	tx := pp.Tx
	p := pp.Pattern
	ok := true
	source := func(s *Step, a *model.Attribute) string {
		for i, q := range s.Plan.Params {
			arg := s.Args[i]
			switch {
			case q.Role == ParamItem && arg.Build != nil:
				for j, ca := range s.Step.Entity().Attributes {
					if ca == a {
						return arg.Build[j].String()
					}
				}
			case q.Role == ParamItem:
				if sc := s.Step.SetConst(a); sc != nil {
					// The step writes the constant, whatever the item holds.
					return "the constant " + literal(a, model.OpEq, sc.Const.Text).String()
				}
				return arg.Input.Field + "." + a.GoName
			case q.Role == ParamKey && q.Attr == a:
				if arg.Field != "" {
					return arg.Input.Field + "." + arg.Field
				}
				return arg.Input.Field
			}
		}
		return ""
	}
	for i, x := range tx.Steps {
		for j := i + 1; j < len(tx.Steps); j++ {
			y := tx.Steps[j]
			if x.Step.Entity() != y.Step.Entity() {
				continue
			}
			e := x.Step.Entity()
			same, never := true, false
			var from []string
			for _, a := range e.PrimaryKey().Attrs() {
				sx, sy := source(x, a), source(y, a)
				from = append(from, fmt.Sprintf("%s from %s", a.Name, sx))
				if sx != sy {
					same = false
					// Two different constants: the keys never meet.
					never = never || strings.HasPrefix(sx, "the constant ") && strings.HasPrefix(sy, "the constant ")
				}
			}
			if never {
				continue
			}
			if same && x.Step.Count != nil {
				// Two creates of a counted entity, into one counter.
				b.errorf(y.Step.Of.OpPos, "%s %s: steps %d and %d both update the counter %s, for the %s items steps %d and %d create (%s), and DynamoDB refuses two actions on one item in a transaction; create the items in calls of their own", p.Op, p.Name, i+1, j+1, e.Name, x.Step.Count.Owner.Name, x.Step.Of.Index+1, y.Step.Of.Index+1, countScope(x.Step.Count, from))
				ok = false
				continue
			}
			if same {
				b.errorf(y.Step.OpPos, "%s %s: steps %d and %d both address the %s item of %s, whatever the call gives, and DynamoDB refuses two actions on one item in a transaction; bind the key of one of them to another input", p.Op, p.Name, i+1, j+1, e.Name, strings.Join(from, ", "))
				ok = false
				continue
			}
			tx.Distinct = append(tx.Distinct, [2]int{i, j})
		}
	}
	return ok
}

// txSize warns when the items a transaction writes could pass DynamoDB's
// 4 MB: each at most as large as its attributes' declared bounds allow,
// and at most 400 KB.
func (b *builder) txSize(pp *Pattern) {
	if pp.Call != TransactWriteItems {
		return
	}
	total := 0
	var unbounded []string
	for _, s := range pp.Tx.Steps {
		if s.Plan.Call != PutItem && s.Plan.Call != UpdateItem {
			continue
		}
		n, bounded := maxItemSize(s.Step.Entity())
		if !bounded {
			unbounded = append(unbounded, fmt.Sprint(s.Step.Index+1))
		}
		total += n
	}
	if total > maxTransactionBytes {
		detail := ""
		if len(unbounded) > 0 {
			detail = fmt.Sprintf(" (the items of steps %s have attributes without a maxLength, and count as 400 KB)", strings.Join(unbounded, ", "))
		}
		b.diags.Warnf(pp.Pattern.Pos, "%s %s may write up to %d KB, and DynamoDB refuses a transaction over 4 MB%s; bound the attributes with maxLength or split the transaction", pp.Pattern.Op, pp.Pattern.Name, total>>10, detail)
	}
}

// maxItemSize is the largest item of e its declared bounds allow, at most
// 400 KB; bounded is false when an attribute has no bound.
func maxItemSize(e *model.Entity) (n int, bounded bool) {
	bounded = true
	for _, a := range e.Attributes {
		m, ok := MaxEncodedBytes(a)
		switch a.Type {
		case model.Float:
			m, ok = 21, true // 38 digits, two to a byte, and the exponent
		case model.Bool:
			m, ok = 1, true
		}
		if !ok {
			return maxItemBytes, false
		}
		n += len(a.Stored) + m
	}
	for _, k := range e.Keys {
		for _, tm := range k.Templates() {
			m, _ := MaxKeyBytes(tm)
			n += m + 8
		}
	}
	return min(n, maxItemBytes), bounded
}

// txCost is the capacity a transaction consumes: DynamoDB bills two
// units for each item of a transaction, for its prepare and commit.
func (b *builder) txCost(pp *Pattern) {
	var parts []string
	var copies []*CopyMove
	if u := pp.Unique; u != nil && u.Present != nil {
		copies = u.Present.Copies
	}
	for i, s := range pp.Tx.Steps {
		c := s.Plan.Cost
		if s.Step.Role == model.EmptyStep || s.Step.Role == model.AbsentStep {
			// Sent instead of the write's own step, which costs as much.
			parts = append(parts, fmt.Sprintf("step %d: instead of step 1", s.Step.Index+1))
			continue
		}
		if s.Step.Role == model.AbsentCountStep {
			// Sent, over no item, instead of the count's step over one.
			if j := slices.IndexFunc(pp.Tx.Steps, func(o *Step) bool { return o.Step.Count == s.Step.Count && o.Step.Role == model.CountStep }); j >= 0 {
				parts = append(parts, fmt.Sprintf("step %d: instead of step %d", s.Step.Index+1, j+1))
				continue
			}
		}
		if j := slices.IndexFunc(copies, func(mv *CopyMove) bool { return mv.Replace == i }); j >= 0 {
			// Sent instead of the delete and create of the copy, which
			// cost as much or more.
			mv := copies[j]
			parts = append(parts, fmt.Sprintf("step %d: instead of steps %d and %d", s.Step.Index+1, mv.Release+1, mv.Take+1))
			continue
		}
		if n := perElement(s.Step); n > 0 {
			// Once per element, at most maxItems.
			pp.Cost.RCU += float64(2*n) * c.RCU
			pp.Cost.WCU += float64(2*n) * c.WCU
			parts = append(parts, fmt.Sprintf("step %d: up to %d elements x 2 x (%s)", s.Step.Index+1, n, c.Detail))
			continue
		}
		pp.Cost.RCU += 2 * c.RCU
		pp.Cost.WCU += 2 * c.WCU
		parts = append(parts, fmt.Sprintf("step %d: 2 x (%s)", s.Step.Index+1, c.Detail))
	}
	pp.Cost.Detail = "a transaction bills each item twice; " + strings.Join(parts, "; ")
}

// perElement is the most times step st is sent, once per element of a
// set (a claim per element, an item per element): the set's maxItems;
// 0 for a step sent once.
func perElement(st *model.Step) int {
	switch {
	case st.Claim != nil && st.Claim.Each:
		return st.Claim.Attrs[0].MaxItems
	case st.Each != nil:
		return st.Each.Of.MaxItems
	}
	return 0
}

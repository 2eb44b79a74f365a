package plan

import (
	"fmt"

	"github.com/dyngen/dyngen/internal/model"
)

// MaxManyAll is the most keys a write over many keys in one transaction
// (many: all) takes: DynamoDB's 100 actions of a TransactWriteItems.
const MaxManyAll = model.MaxTransactionActions

// Many is the plan of an update or delete over a list of keys the caller
// gives (many:): the write of one key's item, planned as the single
// write would be, and how the keys are sent.
type Many struct {
	Mode model.ManyMode
	// Item is the write of one key's item as a call of its own: its key,
	// request, checks of values and index keys rewritten. Its builder
	// takes its values as parameters of their own (never a struct): the
	// key's attributes, then the inputs every key shares, then the time
	// the call read once (ParamClock), when the request sends one.
	Item *Pattern
	// Call is the call of one key's write (UpdateItem or DeleteItem), and
	// Action the member of a transaction's item it fills (Update,
	// Delete) with many: all.
	Call   Call
	Action string
	// Max is the most keys one call of the method takes: 100 with many:
	// all; 0 (no limit) with many: each.
	Max int
	// IfAbsent and IfPresent are the errors a failed condition of one
	// key's write is, when its item does not exist and when it does
	// (ConditionKinds); "" when the write sends no condition.
	IfAbsent, IfPresent string
}

// Shared are the parameters of the method every key shares: those of
// the write of one key but its key's attributes and the time.
func (m *Many) Shared() []*Param {
	var out []*Param
	for _, q := range m.Item.Params {
		if q.Role != ParamKey && q.Role != ParamClock {
			out = append(out, q)
		}
	}
	return out
}

// many plans an update or delete over many keys: the write of one key's
// item as the single write would be, and the method that takes the keys
// and the inputs they share.
func (b *builder) many(p *model.Pattern) *Pattern {
	var item *Pattern
	if p.Op == model.OpCheck {
		// A ConditionCheck of each key's item, as a transaction's check
		// step is planned.
		e := p.Entity()
		item = &Pattern{Pattern: p, Call: ConditionCheck, Form: FormCheck, Index: e.Table.Primary(), Key: primaryKey(e), Inputs: e.PrimaryKey().Attrs()}
		b.request(item)
		b.cost(item)
	} else {
		item = b.write(p)
	}
	if item == nil {
		return nil
	}
	b.params(item)
	// The builder of one key's request takes its values as parameters of
	// their own, and the time of its timestamps and expiry from the
	// method, which reads the clock once for every key.
	item.Struct = nil
	for _, q := range item.Params {
		q.Field = ""
	}
	if item.Request.UsesClock() {
		item.Params = append(item.Params, &Param{Name: item.Local("now"), Role: ParamClock})
	}
	m := &Many{Mode: p.Many, Item: item, Call: item.Call, Action: actions[item.Call]}
	m.IfAbsent, m.IfPresent, _ = ConditionKinds(item)
	pp := &Pattern{Pattern: p, Call: item.Call, Index: item.Index, Key: item.Key, Inputs: item.Inputs,
		Rebuild: item.Rebuild, Request: item.Request, Many: m}
	switch p.Many {
	case model.ManyAll:
		pp.Call, pp.Form = TransactWriteItems, FormManyAll
		m.Max = MaxManyAll
	default:
		pp.Form = FormManyEach
	}
	b.manyParams(pp)
	b.manyCost(pp)
	return pp
}

// manyParams decides the parameters of a write over many keys: the keys,
// in a slice of the entity's key type (or of the key's one attribute's
// type), then the inputs every key shares, as the single write names
// them, in a struct of their own past model.MaxPositional.
func (b *builder) manyParams(pp *Pattern) {
	m := pp.Many
	keys := &Param{Name: "keys", Role: ParamKeys, fixed: true}
	out := []*Param{keys}
	for _, q := range m.Shared() {
		c := *q
		c.Field = ""
		out = append(out, &c)
	}
	taken := func(name string) bool {
		return model.TakenByPackage(name) || b.packageNames[name] || name == keys.Name
	}
	// A shared input named keys takes the name the single write gave it;
	// the slice of keys then gives way, as a local does.
	pp.Params = out
	pp.Struct = inputsStruct(pp, taken)
	pp.Locals = b.locals(pp)
	keys.Name = pp.Local("keys")
}

// manyCost is the capacity a write over many keys consumes, per key:
// the single write's, twice in a transaction (DynamoDB bills each item
// of a transaction twice).
func (b *builder) manyCost(pp *Pattern) {
	c := pp.Many.Item.Cost
	switch pp.Many.Mode {
	case model.ManyAll:
		pp.Cost = Cost{RCU: 2 * c.RCU, WCU: 2 * c.WCU, Detail: fmt.Sprintf("per key, up to %d keys in one transaction, which bills each item twice: 2 x (%s)", MaxManyAll, c.Detail)}
	default:
		pp.Cost = Cost{RCU: c.RCU, WCU: c.WCU, Detail: fmt.Sprintf("per key, one %s each: %s", pp.Many.Call, c.Detail)}
	}
}

// Kinds says in words which errors a failed condition of one key's write
// is: "ErrNotFound when the item does not exist, ErrConditionFailed when
// it does", or one error for both; "" when the write sends no condition.
func (m *Many) Kinds() string {
	switch {
	case m.IfPresent == "":
		return ""
	case m.IfAbsent == m.IfPresent:
		return m.IfPresent
	}
	return fmt.Sprintf("%s when the item does not exist, %s when it does", m.IfAbsent, m.IfPresent)
}

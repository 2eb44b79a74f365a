package iam

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dyngen/dyngen/internal/diag"
	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/output/format"
	"github.com/dyngen/dyngen/internal/plan"
)

// Action is an IAM action of DynamoDB, without its service prefix
// ("GetItem" for dynamodb:GetItem).
type Action string

// The IAM actions the generated code's calls need. A call of the
// classic API is authorized by the action of its name; a transaction by
// the action of each of its items (Put, Update, Delete and Get by
// PutItem, UpdateItem, DeleteItem and GetItem, ConditionCheck by
// ConditionCheckItem): there is no IAM action for TransactWriteItems or
// TransactGetItems themselves.
const (
	ActGetItem            Action = "GetItem"
	ActBatchGetItem       Action = "BatchGetItem"
	ActQuery              Action = "Query"
	ActPutItem            Action = "PutItem"
	ActUpdateItem         Action = "UpdateItem"
	ActDeleteItem         Action = "DeleteItem"
	ActBatchWriteItem     Action = "BatchWriteItem"
	ActConditionCheckItem Action = "ConditionCheckItem"
)

// actionOrder is the order of actions in a statement: reads, then
// writes.
var actionOrder = []Action{ActGetItem, ActBatchGetItem, ActQuery, ActPutItem, ActUpdateItem, ActDeleteItem, ActBatchWriteItem, ActConditionCheckItem}

// callActions is the action a call of its own needs.
var callActions = map[plan.Call]Action{
	plan.GetItem: ActGetItem, plan.BatchGetItem: ActBatchGetItem, plan.Query: ActQuery, plan.PutItem: ActPutItem,
	plan.UpdateItem: ActUpdateItem, plan.DeleteItem: ActDeleteItem, plan.BatchWriteItem: ActBatchWriteItem,
}

// stepActions is the action each member of a transaction's item needs.
var stepActions = map[string]Action{
	"Put": ActPutItem, "Update": ActUpdateItem, "Delete": ActDeleteItem,
	"ConditionCheck": ActConditionCheckItem, "Get": ActGetItem,
}

// Access is everything the generated code may ask of DynamoDB, as the
// statements of the IAM policy that allows exactly that: per table and
// secondary index, the actions of the calls made on it and the partition
// key values they send.
type Access struct {
	Grants []*Grant
}

// Grant is one statement of the policy: actions on one table or index,
// and the partition key values their calls may send.
type Grant struct {
	// Sid is the statement's id: the Go names of the table and index,
	// then Table or Index, then the actions (BookReviewsTableGetItemPutItem,
	// BookReviewsGSI1IndexQuery).
	Sid string
	// Index is the table's own key (the table) or a secondary index.
	Index   *model.Index
	Actions []Action
	// Templates are the partition key templates the calls send, each
	// once, in spec order.
	Templates []*model.Template
	// LeadingKeys are the patterns (IAM StringLike, their literal * ? and
	// $ written ${*} ${?} ${$}) every partition key value sent matches:
	// a template's literal prefix then *, or a constant template's value.
	// Nil when a template starts with a placeholder, is not a string, or
	// has no literal text a policy can hold: the statement then binds no
	// key (Unbound says why).
	LeadingKeys []string
	Unbound     string
}

// Resource is what the IAM policy calls the grant's resource: "table/T"
// or "table/T/index/I", with the table's name in the spec.
func (g *Grant) Resource() string {
	if g.Index.IsPrimary() {
		return "table/" + g.Index.Table.Name
	}
	return "table/" + g.Index.Table.Name + "/index/" + g.Index.Name
}

// use is one call's need: an action on an index with the partition key
// template it sends.
type use struct {
	index  *model.Index
	action Action
	pk     *model.Template
	// pattern is the pattern that makes the call.
	pattern *model.Pattern
}

// uses lists every call the generated code makes, as an action on a
// table or index: the pattern's own call, each item of a transaction,
// and the GetItem a write of an entity with unique values sends first or
// a get by a unique value sends for the claim.
func uses(p *plan.Plan) []use {
	var out []use
	add := func(pp *plan.Pattern, a Action) {
		if pp.Key != nil {
			out = append(out, use{pp.Index, a, pp.Key.PK, pp.Pattern})
			return
		}
		// A batch write of whole items: the keys of its entities' items.
		for _, e := range pp.Pattern.Entities {
			out = append(out, use{pp.Index, a, e.Key(pp.Index).PK, pp.Pattern})
		}
	}
	for _, pp := range p.Patterns {
		if u := pp.Unique; u != nil {
			if u.Read != nil {
				add(u.Read, ActGetItem)
			}
			if u.Claim != nil {
				add(u.Claim, ActGetItem)
			}
		}
		if m := pp.Many; m != nil {
			// Each key's write, whether sent alone (many: each) or as an
			// item of a TransactWriteItems (many: all), which needs the
			// item's action.
			if m.Mode == model.ManyAll {
				add(m.Item, stepActions[m.Action])
			} else {
				add(m.Item, callActions[m.Call])
			}
			continue
		}
		if pp.Tx != nil {
			for _, s := range pp.Tx.Steps {
				add(s.Plan, stepActions[s.Action])
			}
			continue
		}
		add(pp, callActions[pp.Call])
	}
	return out
}

// AccessOf decides the statements of the IAM policy of plan p: per
// table and index in spec order, the actions the patterns' calls make
// there, those whose calls send the same partition key patterns in one
// statement. Check says what IAM would refuse of it.
func AccessOf(p *plan.Plan) *Access {
	// The calls on each index, in the order they are made.
	on := map[*model.Index][]use{}
	for _, u := range uses(p) {
		on[u.index] = append(on[u.index], u)
	}
	acc := &Access{}
	for _, t := range p.Model.Tables {
		for _, ix := range t.Indexes {
			// The templates each action sends on ix, each once.
			sent := map[Action][]*model.Template{}
			for _, u := range on[ix] {
				if !slices.Contains(sent[u.action], u.pk) {
					sent[u.action] = append(sent[u.action], u.pk)
				}
			}
			var grants []*Grant
			for _, a := range actionOrder {
				ts := sent[a]
				if len(ts) == 0 {
					continue
				}
				keys, why := LeadingKeys(ts)
				i := slices.IndexFunc(grants, func(g *Grant) bool { return slices.Equal(g.LeadingKeys, keys) && (g.Unbound == "") == (why == "") })
				if i < 0 {
					grants = append(grants, &Grant{Index: ix, LeadingKeys: keys, Unbound: why})
					i = len(grants) - 1
				}
				g := grants[i]
				g.Actions = append(g.Actions, a)
				for _, tpl := range ts {
					if !slices.Contains(g.Templates, tpl) {
						g.Templates = append(g.Templates, tpl)
					}
				}
			}
			for _, g := range grants {
				g.Sid = t.GoName + "Table"
				if !ix.IsPrimary() {
					g.Sid = t.GoName + ix.GoName + "Index"
				}
				for _, a := range g.Actions {
					g.Sid += string(a)
				}
			}
			acc.Grants = append(acc.Grants, grants...)
		}
	}
	return acc
}

// Check refuses what IAM would refuse of the policy of plan p: a call
// dyngen knows no action of, two statements of one id, an id IAM does
// not take; and warns of a policy larger than a managed policy may be.
// It refuses an id IAM does not take in a consumer's policy too.
func Check(p *plan.Plan, o *model.Output, diags *diag.List) {
	for _, u := range uses(p) {
		if !slices.Contains(actionOrder, u.action) {
			diags.Errorf(u.pattern.Pos, "pattern %s makes a call dyngen knows no IAM action of; please report it", u.pattern.Name)
		}
	}
	acc := AccessOf(p)
	sids := map[string]*model.Index{}
	for _, g := range acc.Grants {
		ix := g.Index
		what := describeIndex(ix)
		switch other := sids[g.Sid]; {
		// "For IAM policies, basic alphanumeric characters
		// (A-Z,a-z,0-9) are the only allowed characters in the
		// Sid value" (IAM User Guide, grammar of the IAM JSON
		// policy language).
		case !format.IsAlphanumeric(g.Sid):
			diags.Errorf(ix.Pos, "the IAM policy's statement of %s would be %q, and a statement id holds only A-Z, a-z and 0-9; rename the %s", what, g.Sid, strings.Fields(what)[0])
		case other != nil && other != ix:
			diags.Errorf(ix.Pos, "the IAM policy's statement of %s is %s, like that of %s; rename one of them", what, g.Sid, describeIndex(other))
		default:
			sids[g.Sid] = ix
		}
	}
	checkSize(p.Model, o, acc, diags)
	checkConsumers(p.Model, diags)
}

// describeIndex names a table or an index in an error.
func describeIndex(ix *model.Index) string {
	if ix.IsPrimary() {
		return "table " + ix.Table.Name
	}
	return "index " + ix.Name + " of table " + ix.Table.Name
}

// LeadingKeys returns the dynamodb:LeadingKeys patterns that the values
// of partition key templates ts match, sorted, each once; or nil and why
// no pattern can bind them: a pattern is the template's literal prefix
// then *, and a template that starts with a placeholder, or is no
// string, has none. The prefix is cut at the first character an IAM
// policy can't hold (outside U+0020-U+00FF), and its *, ? and $ are
// written as IAM's special variables ${*}, ${?} and ${$}, so that they
// match themselves and no text of the template reads as a policy
// variable.
func LeadingKeys(ts []*model.Template) ([]string, string) {
	var out []string
	for _, t := range ts {
		if t.Multi {
			return nil, fmt.Sprintf("its partition key is a multi-attribute key (%s), and dynamodb:LeadingKeys holds the value of a partition key of one attribute", t.Source)
		}
		if t.KeyType != model.S {
			return nil, fmt.Sprintf("partition key values of type %s (%s) are not strings a pattern can match", t.KeyType, t.Source)
		}
		prefix := t.LiteralPrefix()
		whole := t.IsConstant()
		for i, r := range prefix {
			if r < 0x20 || r > 0xFF {
				prefix, whole = prefix[:i], false
				break
			}
		}
		if prefix == "" {
			return nil, fmt.Sprintf("partition key template %q starts with a placeholder", t.Source)
		}
		pat := iamEscape.Replace(prefix)
		if !whole {
			pat += "*"
		}
		if !slices.Contains(out, pat) {
			out = append(out, pat)
		}
	}
	slices.Sort(out)
	return out, ""
}

// iamEscape writes the characters that StringLike and policy variables
// read as IAM's special variables for them ("IAM policy elements:
// Variables and tags", Special characters).
var iamEscape = strings.NewReplacer("*", "${*}", "?", "${?}", "$", "${$}")

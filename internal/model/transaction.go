package model

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/dyngen/dyngen/spec"
)

// MaxTransactionActions is the most actions one TransactWriteItems or
// TransactGetItems takes (DynamoDB's limit).
const MaxTransactionActions = 100

// stepOps are the operations of the steps of each transaction.
var stepOps = map[Op][]Op{
	OpTransaction: {OpPut, OpCreate, OpUpdate, OpDelete, OpCheck},
	OpTransactGet: {OpGet},
}

// stepKeys are the keys each step operation takes besides its operation,
// doc, as and bind.
var stepKeys = map[Op][]string{
	OpGet:    {"expired"},
	OpPut:    {"when", "set"},
	OpCreate: {"when", "expired", "set"},
	OpUpdate: {"set", "add", "remove", "removeFrom", "upsert", "when", "expired"},
	OpDelete: {"when"},
	OpCheck:  {"when", "exists", "expired"},
}

// inputName is the form of an input a bind names.
var inputName = entityName

// transaction resolves a transaction's steps and their bindings. It
// reports whether the pattern is whole.
func (r *resolver) transaction(p *Pattern, sp *spec.Pattern) bool {
	for _, g := range sp.Given {
		if g.Value != "doc" && g.Value != string(p.Op) {
			r.errorf(g.Pos, "%s does not apply to %s pattern; its steps take their own keys", g.Value, Article(string(p.Op)))
		}
	}
	ok := true
	for i, ss := range sp.Steps {
		if i == MaxTransactionActions {
			r.errorf(ss.Pos, "%s %s has %d steps, and DynamoDB takes at most %d actions in one transaction; step %d is one too many: split the transaction", p.Op, p.Name, len(sp.Steps), MaxTransactionActions, i+1)
			return false
		}
		st := r.step(p, ss, i)
		if st == nil {
			ok = false
			continue
		}
		p.Steps = append(p.Steps, st)
	}
	if !ok || len(p.Steps) == 0 {
		return false
	}
	for i, st := range p.Steps {
		if !r.binds(st, sp.Steps[i]) {
			ok = false
		}
	}
	if p.Op == OpTransactGet {
		// The result holds a field per step, named by the step.
		seen := map[string]*Step{}
		for _, st := range p.Steps {
			if prev := seen[st.FieldName()]; prev != nil {
				r.errorf(st.AsPos, "transactGet %s: steps %d and %d are both named %s, and the result holds a field per step; give one of them as: <name>", p.Name, prev.Index+1, st.Index+1, st.FieldName())
				ok = false
				continue
			}
			seen[st.FieldName()] = st
		}
	}
	p.Entities = []*Entity{p.Steps[0].Entity()}
	p.Table = p.Steps[0].Table
	return ok
}

// step resolves step i of transaction p as a pattern of its own.
func (r *resolver) step(p *Pattern, ss *spec.Pattern, i int) *Step {
	what := fmt.Sprintf("step %d of %s %s", i+1, p.Op, p.Name)
	sub := &Pattern{
		Name:   fmt.Sprintf("%s step %d", p.Name, i+1),
		GoName: p.GoName + "Step" + strconv.Itoa(i+1),
		Doc:    ss.Doc.Value,
		Pos:    ss.Pos,
		Order:  Asc,
		InTx:   true,
	}
	st := &Step{Pattern: sub, Tx: p, Index: i}
	if !ss.Op.Set {
		return nil // the parser said so
	}
	op := Op(ss.Op.Value)
	if !slices.Contains(stepOps[p.Op], op) {
		var names []string
		for _, o := range stepOps[p.Op] {
			names = append(names, string(o))
		}
		r.errorf(ss.Op.Pos, "%s: %s is not a step of a %s; a step is one of %s", what, op, p.Op, strings.Join(names, ", "))
		return nil
	}
	sub.Op, sub.OpPos = op, ss.Op.Pos
	if !r.patternEntities(sub, ss) {
		return nil
	}
	for _, g := range ss.Given {
		switch {
		case g.Value == "doc" || g.Value == "as" || g.Value == "bind" || g.Value == string(op):
		case !slices.Contains(stepKeys[op], g.Value):
			var takes string
			if len(stepKeys[op]) > 0 {
				takes = "; it takes " + strings.Join(stepKeys[op], ", ")
			}
			r.errorf(g.Pos, "%s: %s does not apply to %s step%s", what, g.Value, Article(string(op)), takes)
			return nil
		}
	}
	st.As, st.AsPos = sub.Entity().Name, sub.OpPos
	if ss.As.Set {
		if !inputName.MatchString(ss.As.Value) {
			r.errorf(ss.As.Pos, "%s: as %q must be a letter then letters, digits or underscores", what, ss.As.Value)
			return nil
		}
		st.As, st.AsPos = ss.As.Value, ss.As.Pos
	}
	if op == OpCheck {
		sub.Missing = ss.Exists.Set && !ss.Exists.Value
		if sub.Missing && len(ss.When) > 0 {
			r.errorf(ss.When[0].Pos, "%s: exists: false checks that no item has the key, and a condition on the attributes of no item can't hold; remove when", what)
			return nil
		}
	}
	before := r.diags.Len()
	r.patternKeys(sub, ss)
	if r.diags.Len() > before {
		return nil
	}
	return st
}

// binds resolves a step's bind.
func (r *resolver) binds(st *Step, ss *spec.Pattern) bool {
	what := fmt.Sprintf("step %d of %s %s", st.Index+1, st.Tx.Op, st.Tx.Name)
	ok := true
	fail := func(pos Pos, format string, args ...any) {
		r.errorf(pos, "%s: bind %s", what, fmt.Sprintf(format, args...))
		ok = false
	}
	e := st.Entity()
	for _, sb := range ss.Bind {
		a := e.Attr(sb.Attr.Value)
		if a == nil {
			fail(sb.Attr.Pos, "%s: %q is not an attribute of %s%s", sb.Attr.Value, sb.Attr.Value, e.Name, e.nearestAttr(sb.Attr.Value))
			continue
		}
		if !slices.Contains(st.InputAttrs(), a) {
			if st.Op == OpPut || st.Op == OpCreate {
				fail(sb.Attr.Pos, "%s: %s step takes its whole item as one input; bind names attributes of the key, set, add and removeFrom of the other steps", a.Name, Article(string(st.Op)))
			} else {
				fail(sb.Attr.Pos, "%s: the step takes no input for %s; bind names an attribute of its key, or of its set, add or removeFrom", a.Name, a.Name)
			}
			continue
		}
		b := &Binding{Attr: a, Pos: sb.Attr.Pos}
		from := sb.From.Value
		if step, attr, dotted := strings.Cut(from, "."); dotted {
			var items []*Step
			var named []string
			for _, o := range st.Tx.Steps {
				if o.Op != OpPut && o.Op != OpCreate {
					continue
				}
				if !slices.Contains(named, o.As) {
					named = append(named, o.As)
				}
				if o.As == step {
					items = append(items, o)
				}
			}
			switch {
			case len(items) == 0:
				fail(sb.From.Pos, "%s: %q names no step that writes an item%s (a step is named by its as, or its entity)", a.Name, step, nearest(step, named))
				continue
			case len(items) > 1:
				fail(sb.From.Pos, "%s: steps %d and %d are both named %s; give one of them as: <name>", a.Name, items[0].Index+1, items[1].Index+1, step)
				continue
			case items[0] == st:
				fail(sb.From.Pos, "%s: a step can't take an input from its own item", a.Name)
				continue
			}
			src := items[0].Entity().Attr(attr)
			if src == nil {
				var known []string
				for _, x := range items[0].Entity().Attributes {
					known = append(known, x.Name)
				}
				fail(sb.From.Pos, "%s: %q is not an attribute of %s%s", a.Name, attr, items[0].Entity().Name, nearest(attr, known))
				continue
			}
			b.Item, b.From = items[0], src
		} else {
			if !inputName.MatchString(from) {
				fail(sb.From.Pos, "%s: %q is neither an input name (a letter then letters, digits or underscores) nor Step.attribute", a.Name, from)
				continue
			}
			b.Input = from
		}
		st.Bind = append(st.Bind, b)
	}
	return ok
}

// InputAttrs are the attributes a step takes a value of as an input,
// which bind may name: its primary key's, and for an update those it
// sets, adds to and removes elements from.
func (s *Step) InputAttrs() []*Attribute {
	switch s.Op {
	case OpPut, OpCreate:
		return nil
	}
	out := slices.Clone(s.Entity().PrimaryKey().Attrs())
	if s.Op == OpUpdate {
		out = append(out, s.Set...)
		out = append(out, s.Add...)
		out = append(out, s.RemoveFrom...)
	}
	return out
}

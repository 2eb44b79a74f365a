package golang

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/plan"
)

// TestParamGoTypes: the type the generated method declares for each
// parameter prints as plan.Pattern.GoType, which decides it and which
// `dyngen plan -json` reports (typeCode loses nothing), on every example,
// the integration spec and the golden cases.
func TestParamGoTypes(t *testing.T) {
	checked := 0
	for name, pl := range corpusPlans(t, nil) {
		for _, pp := range pl.Patterns {
			m := &method{pp: pp, p: pp.Pattern, req: pp.Request}
			for _, p := range pp.Params {
				want := fmt.Sprintf("%#v", m.paramType(p))
				if got := pp.GoType(p); got != want {
					t.Errorf("%s: %s: parameter %s: plan says %s, the method declares %s", name, pp.Pattern.Name, p.Name, got, want)
				}
				checked++
			}
		}
	}
	if checked < 100 {
		t.Errorf("only %d parameters checked", checked)
	}
}

// TestOneInputRule: a method takes at most model.MaxPositional inputs as
// parameters of their own (besides ctx, an item, a page, keys or items);
// past that it takes one struct, so that two inputs of one Go type can't be
// swapped without a word. Every input counts: the elements an update
// removes from a set too.
func TestOneInputRule(t *testing.T) {
	plans := corpusPlans(t, map[string]string{"untag.yaml": `version: 1
package: blog
tables:
  Main: {partitionKey: PK}
entities:
  Post:
    attributes: {id: string, tags: {type: stringSet, optional: true}, banned: {type: stringSet, optional: true}}
    keys: {primary: {pk: "POST#{id}"}}
patterns:
  GetPost: {get: Post}
  Untag: {update: Post, removeFrom: [tags, banned]}
  UntagOne: {update: Post, removeFrom: [tags]}
`})
	checked := 0
	for name, pl := range plans {
		for _, pp := range pl.Patterns {
			var inputs []string
			for _, p := range pp.Params {
				switch p.Role {
				case plan.ParamPage, plan.ParamItem, plan.ParamKeys, plan.ParamItems, plan.ParamClock:
				default:
					inputs = append(inputs, p.Name)
				}
			}
			if len(inputs) > model.MaxPositional && pp.Struct == nil {
				t.Errorf("%s: %s takes %d inputs as parameters of their own (%s); past %d they are one struct's fields", name, pp.Pattern.Name, len(inputs), strings.Join(inputs, ", "), model.MaxPositional)
			}
			checked++
		}
	}
	if checked < 100 {
		t.Errorf("only %d patterns checked", checked)
	}
}

// TestVersionInputsAreSent: a method, or a transaction's step, asks for the
// version read only when its request is conditioned on it: a check that no
// item has the key (exists: false) sends none, so it takes none.
func TestVersionInputsAreSent(t *testing.T) {
	plans := corpusPlans(t, map[string]string{"vault.yaml": `version: 1
package: vault
tables:
  Main: {partitionKey: PK, sortKey: SK}
entities:
  Account:
    version: rev
    attributes: {id: string, rev: int, balance: int}
    keys: {primary: {pk: "A#{id}", sk: "A"}}
  Transfer:
    attributes: {id: string, from: string, to: string}
    keys: {primary: {pk: "T#{id}", sk: "T"}}
patterns:
  GetAccount: {get: Account}
  Move:
    transaction:
      - check: Account
        as: from
        exists: false
        bind: {id: Transfer.from}
      - check: Account
        as: to
        bind: {id: Transfer.to}
      - create: Transfer
`})
	checked := 0
	// sent lists the values the requests of pp send: its own, and each
	// step's of a transaction (or of a write with unique values).
	sent := func(pp *plan.Pattern) []*plan.Value {
		var vs []*plan.Value
		if pp.Request != nil {
			vs = append(vs, pp.Request.Values...)
		}
		if pp.Tx != nil {
			for _, st := range pp.Tx.Steps {
				if st.Plan.Request != nil {
					vs = append(vs, st.Plan.Request.Values...)
				}
			}
		}
		return vs
	}
	check := func(name, what string, pp *plan.Pattern) {
		for _, p := range pp.Params {
			if p.Role != plan.ParamVersion {
				continue
			}
			checked++
			if !slices.ContainsFunc(sent(pp), func(v *plan.Value) bool { return v.Source == plan.VersionExpected && v.Attr == p.Attr }) {
				t.Errorf("%s: %s takes the version %s, which its request never sends", name, what, p.Name)
			}
		}
	}
	for name, pl := range plans {
		for _, pp := range pl.Patterns {
			check(name, pp.Pattern.Name, pp)
			if pp.Tx == nil {
				continue
			}
			for _, st := range pp.Tx.Steps {
				check(name, st.Plan.Pattern.Name, st.Plan)
			}
			for _, in := range pp.Tx.Inputs {
				if in.Attr == nil || in.Item != nil || in.Attr != in.Steps[0].Entity().Version {
					continue
				}
				checked++
				if !slices.ContainsFunc(pp.Tx.Steps, func(st *plan.Step) bool {
					return slices.Contains(in.Steps, st.Step) && slices.ContainsFunc(sent(st.Plan), func(v *plan.Value) bool { return v.Source == plan.VersionExpected })
				}) {
					t.Errorf("%s: %s has the input %s, a version no step sends", name, pp.Pattern.Name, in.Field)
				}
			}
		}
	}
	if checked < 5 {
		t.Errorf("only %d version inputs checked", checked)
	}
}

// TestVersionFieldName: the version read has one field name in every
// params struct of an entity's patterns, a call's or a transaction step's
// (without as): the entity's and the attribute's Go names (VaultRev).
func TestVersionFieldName(t *testing.T) {
	for name, pl := range corpusPlans(t, nil) {
		fields := map[*model.Entity]map[string][]string{}
		note := func(e *model.Entity, field, where string) {
			if fields[e] == nil {
				fields[e] = map[string][]string{}
			}
			fields[e][field] = append(fields[e][field], where)
		}
		for _, pp := range pl.Patterns {
			if pp.Tx != nil && pp.Unique == nil {
				for _, in := range pp.Tx.Inputs {
					st := in.Steps[0]
					if in.Item == nil && in.Attr != nil && in.Attr == st.Entity().Version && st.As == st.Entity().Name {
						note(st.Entity(), in.Field, pp.Pattern.Name)
					}
				}
				continue
			}
			for _, p := range pp.Params {
				if p.Role == plan.ParamVersion {
					note(pp.Pattern.Entity(), p.Field, pp.Pattern.Name)
				}
			}
		}
		for e, names := range fields {
			if len(names) > 1 {
				t.Errorf("%s: the version of %s has %d field names: %v", name, e.Name, len(names), names)
			}
			for field, where := range names {
				if want := e.GoName + e.Version.GoName; field != want {
					t.Errorf("%s: %v name the version of %s %s, want %s", name, where, e.Name, field, want)
				}
			}
		}
	}
}

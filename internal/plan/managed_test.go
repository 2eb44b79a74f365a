package plan_test

import (
	"testing"

	"github.com/dyngen/dyngen/generator"
	"github.com/dyngen/dyngen/internal/plan"
)

const managedSpec = `
version: 1
package: bank
tables:
  Bank:
    partitionKey: PK
    sortKey: SK
    indexes:
      ByOwner: {partitionKey: GSI1PK, sortKey: GSI1SK}
entities:
  Account:
    version: rev
    timestamps: {created: openedAt, updated: changedAt}
    attributes:
      id: string
      rev: int
      balance: int
      owner: {type: string, optional: true}
      openedAt: time
      changedAt: time
    keys:
      primary: {pk: "ACCOUNT#{id}", sk: "ACCOUNT"}
      ByOwner: {pk: "OWNER#{owner}", sk: "{id}"}
  Log:
    timestamps: {created: at}
    attributes: {id: string, text: string, at: time}
    keys:
      primary: {pk: "LOG#{id}", sk: "LOG"}
patterns:
  Open: {create: Account}
  Save: {put: Account}
  Deposit: {update: Account, set: [balance], when: {balance: ">="}}
  Close: {delete: Account}
  Write: {update: Log, set: [text], upsert: true}
  Rewrite: {update: Log, set: [text]}
`

func managedPlans(t *testing.T) map[string]*plan.Pattern {
	t.Helper()
	res := generator.Check("spec.yaml", []byte(managedSpec))
	if res.Diags.HasErrors() {
		t.Fatal(res.Diags.Err())
	}
	out := map[string]*plan.Pattern{}
	for _, pp := range res.Plan.Patterns {
		out[pp.Pattern.Name] = pp
	}
	return out
}

func sources(vs []*plan.Value) map[string]plan.Source {
	out := map[string]plan.Source{}
	for _, v := range vs {
		key := v.Placeholder
		if key == "" {
			key = v.Attr.Name
		}
		out[key] = v.Source
	}
	return out
}

// TestVersionRequests: the version check is the last part of each
// write's condition, an update adds one to the version and sets the
// updated time, a create writes version 1 and both times, and a put of
// an entity with a created time is an UpdateItem that keeps it and
// removes the optional attributes and sparse index keys the item lacks.
func TestVersionRequests(t *testing.T) {
	pps := managedPlans(t)
	for name, want := range map[string]string{
		"Open":    "attribute_not_exists(PK)",
		"Save":    "#rev = :rev_expected",
		"Deposit": "attribute_exists(PK) AND #balance >= :balance_when AND #rev = :rev_expected",
		"Close":   "#rev = :rev_expected",
	} {
		if got := pps[name].Request.Condition; got != want {
			t.Errorf("%s: condition %q, want %q", name, got, want)
		}
	}
	dep := pps["Deposit"].Request
	if got, want := dep.Update.Expression(), "SET #balance = :balance, #rev = #rev + :rev_one, #changedAt = :changedAt_now"; got != want {
		t.Errorf("Deposit: update %q, want %q", got, want)
	}
	if s := sources(dep.Values); s[":rev_one"] != plan.VersionStep || s[":rev_expected"] != plan.VersionExpected || s[":changedAt_now"] != plan.ClockNow {
		t.Errorf("Deposit: value sources %v", s)
	}
	if s := sources(pps["Open"].Request.Item); len(s) != 3 || s["rev"] != plan.VersionFirst || s["openedAt"] != plan.ClockNow || s["changedAt"] != plan.ClockNow {
		t.Errorf("Open: item values %v", s)
	}
	save := pps["Save"]
	if save.Call != plan.UpdateItem {
		t.Fatalf("Save is a %s, want an UpdateItem", save.Call)
	}
	if s := sources(save.Request.Item); len(s) != 2 || s["rev"] != plan.VersionNext || s["changedAt"] != plan.ClockNow {
		t.Errorf("Save: item values %v", s)
	}
	want := "SET #_type = :_type, #id = :id, #rev = :rev, #balance = :balance, #changedAt = :changedAt, " +
		"#openedAt = if_not_exists(#openedAt, :openedAt_now), #owner = :owner, GSI1PK = :GSI1PK, GSI1SK = :GSI1SK"
	if got := save.Request.Update.Expression(); got != want {
		t.Errorf("Save: update\n%q, want\n%q", got, want)
	}
	_, sometimes := save.Request.Update.Static()
	var removed []string
	for _, c := range sometimes {
		removed = append(removed, c.Instead)
	}
	if len(removed) != 3 || removed[0] != "#owner" || removed[1] != "GSI1PK" || removed[2] != "GSI1SK" {
		t.Errorf("Save: removes %v when the item lacks them, want #owner, GSI1PK, GSI1SK", removed)
	}
	// An upsert writes the created time only for a new item; an update
	// leaves it alone.
	if got, want := pps["Write"].Request.Update.Expression(), "SET #text = :text, #_type = :_type, #id = :id, #at = if_not_exists(#at, :at_now)"; got != want {
		t.Errorf("Write: update %q, want %q", got, want)
	}
	if got, want := pps["Rewrite"].Request.Update.Expression(), "SET #text = :text"; got != want {
		t.Errorf("Rewrite: update %q, want %q", got, want)
	}
}

// TestVersionParam: an update or delete of a versioned entity takes the
// version read, named after the entity and the attribute as a
// transaction's step names it, in its params struct.
func TestVersionParam(t *testing.T) {
	pps := managedPlans(t)
	for _, name := range []string{"Deposit", "Close"} {
		pp := pps[name]
		var found *plan.Param
		for _, p := range pp.Params {
			if p.Role == plan.ParamVersion {
				found = p
			}
		}
		if found == nil || found.Name != "accountRev" || found.Field != "AccountRev" || pp.GoType(found) != "int64" {
			t.Errorf("%s: version parameter %+v", name, found)
		}
	}
}

package plan_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/dyngen/dyngen/generator"
	"github.com/dyngen/dyngen/internal/plan"
)

const constSpec = `
version: 1
package: tickets
tables:
  Tickets:
    partitionKey: PK
    sortKey: SK
    indexes:
      ByQueue: {partitionKey: GSI1PK, sortKey: GSI1SK}
entities:
  Ticket:
    attributes:
      id: string
      queue: string
      status: {type: enum, values: [open, closed]}
      opened: time
      due: {type: time, format: unix, optional: true}
      score: int
      tags: {type: stringSet, optional: true}
    keys:
      primary: {pk: "TICKET#{id}", sk: "TICKET"}
      ByQueue: {pk: "QUEUE#{queue}", sk: "{status}#{opened}#{id}"}
patterns:
  Close: {update: Ticket, set: [opened, {status: closed}, {score: 0x10}]}
  Create: {update: Ticket, set: [queue, opened, {status: open}, {score: 1}], upsert: true}
  Stamp: {update: Ticket, set: [{due: "2024-01-02T03:04:05Z"}]}
  Untag: {update: Ticket, removeFrom: [tags]}
  UntagTagged: {update: Ticket, removeFrom: [tags], when: {tags: exists}}
  Scored: {update: Ticket, add: [score], removeFrom: [tags]}
  Open: {query: Ticket, by: [queue], filter: {status: {in: [open, closed]}, score: {in: [1, 2, 3]}}}
  DueBefore: {query: Ticket, by: [queue], filter: {due: {"<": "2024-01-02T03:04:05Z"}}}
`

func constPlans(t *testing.T) map[string]*plan.Pattern {
	t.Helper()
	res := generator.Check("spec.yaml", []byte(constSpec))
	if res.Diags.HasErrors() {
		t.Fatal(res.Diags.Err())
	}
	out := map[string]*plan.Pattern{}
	for _, pp := range res.Plan.Patterns {
		out[pp.Pattern.Name] = pp
	}
	return out
}

// literals maps each value placeholder holding a constant to its literal.
func literals(req *plan.Request) map[string]string {
	out := map[string]string{}
	for _, v := range req.Values {
		if v.Lit != nil {
			out[v.Placeholder] = v.Lit.String()
		}
	}
	return out
}

func paramNames(pp *plan.Pattern) []string {
	var out []string
	for _, p := range pp.Params {
		out = append(out, p.Name)
	}
	return out
}

func TestSetConstants(t *testing.T) {
	got := constPlans(t)
	close := got["Close"]
	// A constant makes no parameter; the key built from it is rebuilt.
	if names := paramNames(close); !slices.Equal(names, []string{"id", "opened"}) {
		t.Errorf("Close's parameters are %v, want [id opened]", names)
	}
	if r := close.Rebuild; len(r) != 1 || r[0].KeyAttr.Name != "GSI1SK" || r[0].Remove {
		t.Errorf("Close should rewrite GSI1SK: %+v", r)
	}
	if e := close.Request.Update.Expression(); e != "SET #opened = :opened, #status = :status, #score = :score, GSI1SK = :GSI1SK" {
		t.Errorf("Close's update expression is %q", e)
	}
	want := map[string]string{":status": `{S: "closed"}`, ":score": `{N: "16"}`}
	if l := literals(close.Request); len(l) != len(want) || l[":status"] != want[":status"] || l[":score"] != want[":score"] {
		t.Errorf("Close's constants are %v, want %v", l, want)
	}
	for _, v := range close.Request.Values {
		if v.Placeholder == ":status" && v.Source != plan.SetConst {
			t.Errorf(":status has source %d, want SetConst", v.Source)
		}
	}
	if d := strings.Join(close.Request.Describe(), "\n"); !strings.Contains(d, `constant values: :status={S: "closed"}, :score={N: "16"}`) {
		t.Errorf("Describe does not show the constants:\n%s", d)
	}
	// A constant gives the upsert its value.
	if l := literals(got["Create"].Request); l[":status"] != `{S: "open"}` {
		t.Errorf("Create's constants are %v", l)
	}
	// A time stored as epoch seconds is sent as them.
	if l := literals(got["Stamp"].Request); l[":due"] != `{N: "1704164645"}` {
		t.Errorf("Stamp's constants are %v", l)
	}
}

func TestRemoveFrom(t *testing.T) {
	got := constPlans(t)
	u := got["Untag"].Request.Update
	if len(u.Delete) != 1 {
		t.Fatalf("Untag has %d DELETE actions, want 1", len(u.Delete))
	}
	c := u.Delete[0]
	if c.Text != "#tags :tags" || len(c.Unless) != 1 || c.Unless[0].Name != "tags" || c.Instead != "" {
		t.Errorf("Untag's DELETE action is %+v", c)
	}
	// Sent only with elements, and so is its name, which no other part
	// of the request uses.
	if !slices.Equal(c.Names, []string{"#tags"}) {
		t.Errorf("Untag's DELETE names %v, want [#tags]", c.Names)
	}
	if e := u.Expression(); e != "DELETE #tags :tags" || !u.MayBeEmpty() {
		t.Errorf("Untag's update expression is %q (may be empty: %v)", e, u.MayBeEmpty())
	}
	pp := got["Untag"]
	if p := pp.Params[len(pp.Params)-1]; p.Role != plan.ParamElems || p.Name != "tags" {
		t.Errorf("Untag's last parameter is %+v, want tags (ParamElems)", p)
	}
	if d := strings.Join(pp.Request.Describe(), "\n"); !strings.Contains(d, "note: DELETE #tags :tags is sent only when tags holds elements") {
		t.Errorf("Describe does not say when the DELETE is sent:\n%s", d)
	}
	// The condition names tags too: the name is always sent.
	if c := got["UntagTagged"].Request.Update.Delete[0]; len(c.Names) != 0 {
		t.Errorf("UntagTagged's DELETE names %v, which the condition uses", c.Names)
	}
	su := got["Scored"].Request.Update
	if e := su.Expression(); e != "ADD #score :score DELETE #tags :tags" || su.MayBeEmpty() {
		t.Errorf("Scored's update expression is %q (may be empty: %v)", e, su.MayBeEmpty())
	}
}

func TestInConditions(t *testing.T) {
	req := constPlans(t)["Open"].Request
	if req.Filter != "#status IN (:status_1, :status_2) AND #score IN (:score_1, :score_2, :score_3)" {
		t.Errorf("filter %q", req.Filter)
	}
	l := literals(req)
	if l[":status_2"] != `{S: "closed"}` || l[":score_3"] != `{N: "3"}` {
		t.Errorf("constants %v", l)
	}
	// A condition's constant for a time stored as epoch seconds is sent
	// as them, not as the text written.
	if l := literals(constPlans(t)["DueBefore"].Request); l[":due"] != `{N: "1704164645"}` {
		t.Errorf("DueBefore's constants are %v", l)
	}
}

func TestUpdateConstantRefusals(t *testing.T) {
	for _, tt := range []struct{ pattern, want string }{
		{"{update: Ticket, set: [{status: open}]}", `update P changes status, so it must rewrite GSI1SK="{status}#{opened}#{id}" on ByQueue, which also needs opened; add opened to set`},
		{"{update: Ticket, set: [{status: open}, queue, opened], upsert: true}", "gives no value for score"},
		{"{update: Ticket, set: [{id: x}]}", `update P can't set id: it is part of the primary key`},
	} {
		res := generator.Check("spec.yaml", []byte(constSpec+"  P: "+tt.pattern+"\n"))
		if err := res.Diags.Err(); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error does not say %q:\n%v", tt.pattern, tt.want, err)
		}
	}
}

// TestUpdateCostCountsConstantsAndRemoveFrom: an index that projects what
// an update changes is written too, whether the update sets a constant or
// removes elements from a set.
func TestUpdateCostCountsConstantsAndRemoveFrom(t *testing.T) {
	got := constPlans(t)
	for _, name := range []string{"Stamp", "Untag"} {
		if d := got[name].Cost.Detail; !strings.Contains(d, "ByQueue") {
			t.Errorf("%s's cost does not count the write on ByQueue, which projects everything: %s", name, d)
		}
	}
}

// TestSparseIndexMembership: an update that sets or removes an optional
// attribute deciding whether the item is in a sparse index rewrites, or
// removes, every key attribute of that index, also one built only from
// the primary key's attributes, so that the item is in the index whole
// or not at all.
func TestSparseIndexMembership(t *testing.T) {
	res := generator.Check("spec.yaml", []byte(`
version: 1
package: repos
tables:
  Main:
    partitionKey: PK
    sortKey: SK
    indexes:
      GSI1: {partitionKey: GSI1PK, sortKey: GSI1SK}
entities:
  Repo:
    attributes:
      ownerId: string
      repoId: string
      public: {type: bool, optional: true}
    keys:
      primary: {pk: "OWNER#{ownerId}", sk: "REPO#{repoId}"}
      GSI1: {pk: "PUBLIC#{public}", sk: "REPO#{repoId}"}
patterns:
  SetVisibility: {update: Repo, set: [public]}
  Hide: {update: Repo, remove: [public]}
  ByVisibility: {query: Repo, by: [public]}
`))
	if res.Diags.HasErrors() {
		t.Fatal(res.Diags.Err())
	}
	for _, pp := range res.Plan.Patterns {
		u := pp.Request.Update
		switch pp.Pattern.Name {
		case "SetVisibility":
			_, sometimes := u.Static()
			var got []string
			for _, c := range sometimes {
				got = append(got, c.Text+" unless "+c.Unless[0].Name+" instead "+c.Instead)
			}
			want := []string{"#public = :public unless public instead #public", "GSI1PK = :GSI1PK unless public instead GSI1PK", "GSI1SK = :GSI1SK unless public instead GSI1SK"}
			if !slices.Equal(got, want) {
				t.Errorf("SetVisibility's actions sent with public:\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
			}
		case "Hide":
			var got []string
			for _, c := range u.Remove {
				got = append(got, c.Text)
			}
			if want := []string{"GSI1PK", "GSI1SK", "#public"}; !slices.Equal(got, want) {
				t.Errorf("Hide removes %q, want %q", got, want)
			}
		}
	}
}

// TestSharedKeyAttributeRebuiltOnce: a key attribute two indexes share is
// one attribute of the item: an update that rebuilds it names it once
// (DynamoDB refuses an UpdateExpression whose paths overlap), and an
// upsert that writes both indexes' keys writes it once.
func TestSharedKeyAttributeRebuiltOnce(t *testing.T) {
	spec := `
version: 1
package: shared
tables:
  Shared:
    partitionKey: PK
    sortKey: SK
    indexes:
      GSI0: {partitionKey: K3, sortKey: K2}
      GSI1: {partitionKey: K3}
entities:
  Item:
    attributes: {id: string, a: string, secret: string}
    keys:
      primary: {pk: "I#{id}", sk: "I"}
      GSI0: {pk: "R#{a}", sk: "R#{id}"}
      GSI1: {pk: "R#{a}"}
patterns:
  SetA: {update: Item, set: [a]}
  Upsert: {update: Item, set: [a, secret], upsert: true}
`
	res := generator.Check("spec.yaml", []byte(spec))
	if res.Diags.HasErrors() {
		t.Fatal(res.Diags.Err())
	}
	for _, pp := range res.Plan.Patterns {
		expr := pp.Request.Update.Expression()
		if n := strings.Count(expr, "K3 = "); n != 1 {
			t.Errorf("%s: %q sets K3 %d times, want once", pp.Pattern.Name, expr, n)
		}
	}
}

// TestSetConstantZeroOfOptional: a constant that is an optional
// attribute's zero value is a present value, sent as it is (false, 0,
// ""), as a pointer to it would be; removing the attribute is remove's.
func TestSetConstantZeroOfOptional(t *testing.T) {
	spec := `
version: 1
package: flags
tables:
  Main: {partitionKey: PK, sortKey: SK}
entities:
  Item:
    attributes:
      id: string
      c: {type: bool, optional: true}
      n: {type: int, optional: true}
      s: {type: string, optional: true}
    keys: {primary: {pk: "I#{id}", sk: "I"}}
patterns:
  Zero: {update: Item, set: [{c: false}, {n: 0}, {s: ""}]}
`
	res := generator.Check("spec.yaml", []byte(spec))
	if err := res.Diags.Err(); err != nil {
		t.Fatal(err)
	}
	req := res.Plan.Patterns[0].Request
	want := map[string]string{":c": `{BOOL: false}`, ":n": `{N: "0"}`, ":s": `{S: ""}`}
	if l := literals(req); len(l) != len(want) || l[":c"] != want[":c"] || l[":n"] != want[":n"] || l[":s"] != want[":s"] {
		t.Errorf("constants %v, want %v", l, want)
	}
	if e := req.Update.Expression(); e != "SET #c = :c, #n = :n, #s = :s" {
		t.Errorf("update expression %q", e)
	}
}

// TestUpdateCostMultiAttributeKeys: an update of any attribute of a
// multi-attribute key moves the item in the index (a delete and a put
// there), and so does one that writes the updated time standing in such a
// key; a put sent as an UpdateItem writes the whole item.
func TestUpdateCostMultiAttributeKeys(t *testing.T) {
	res := generator.Check("spec.yaml", []byte(`
version: 1
package: tickets
tables:
  Main:
    partitionKey: PK
    sortKey: SK
    indexes:
      byDesk:
        partitionKey: [org, desk]
        sortKey: [changedAt]
entities:
  Ticket:
    attributes:
      id: string
      org: string
      desk: string
      note: {type: string, optional: true}
      openedAt: time
      changedAt: time
    timestamps: {created: openedAt, updated: changedAt}
    keys:
      primary: {pk: "T#{id}", sk: T}
patterns:
  Move: {update: Ticket, set: [desk]}
  Note: {update: Ticket, set: [note]}
  Save: {put: Ticket}
`))
	if res.Diags.HasErrors() {
		t.Fatal(res.Diags.Err())
	}
	want := map[string]string{"Move": "table 1 + byDesk 2", "Note": "table 1 + byDesk 2", "Save": "table 1 + byDesk 1"}
	for _, pp := range res.Plan.Patterns {
		if w, ok := want[pp.Pattern.Name]; ok && pp.Cost.Detail != w {
			t.Errorf("%s costs %q, want %q", pp.Pattern.Name, pp.Cost.Detail, w)
		}
	}
}

package iam_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/dyngen/dyngen/generator"
	"github.com/dyngen/dyngen/internal/corpus"
	"github.com/dyngen/dyngen/internal/output/iam"
)

const askIAM = "outputs:\n  iam:\n"

// grants returns the policy's grants by statement id, failing on errors.
func grants(t *testing.T, res *generator.Result) map[string]*iam.Grant {
	t.Helper()
	if errs := res.Diags.Errors(); len(errs) > 0 {
		t.Fatalf("unexpected errors:\n%v", res.Diags.Err())
	}
	out := map[string]*iam.Grant{}
	for _, g := range iam.AccessOf(res.Plan).Grants {
		out[g.Sid] = g
	}
	return out
}

func sids(gs map[string]*iam.Grant) []string {
	var out []string
	for s := range gs {
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

// TestAccessStatements checks the statements of a few patterns: the
// actions of the calls on each table and index, grouped by the partition
// key patterns they send; an index's patterns are those of its own
// partition key.
func TestAccessStatements(t *testing.T) {
	gs := grants(t, generator.Check("spec.yaml", []byte(corpus.Shop+`  GetCustomer: {get: Customer}
  AddOrder: {create: Order}
  OrdersOf: {query: Order, by: [customerId]}
  ByStatus: {query: Order, by: [status]}
  DropLine: {delete: Line}
`+askIAM)))
	if got := sids(gs); !slices.Equal(got, []string{"ShopGSI1IndexQuery", "ShopTableGetItemQueryPutItemDeleteItem"}) {
		t.Fatalf("statements %v", got)
	}
	table := gs["ShopTableGetItemQueryPutItemDeleteItem"]
	if !slices.Equal(table.LeadingKeys, []string{"CUSTOMER#*"}) || table.Unbound != "" || table.Resource() != "table/Shop" {
		t.Errorf("table statement: keys %v (%q) on %s", table.LeadingKeys, table.Unbound, table.Resource())
	}
	if g := gs["ShopGSI1IndexQuery"]; !slices.Equal(g.LeadingKeys, []string{"STATUS#*"}) || g.Resource() != "table/Shop/index/GSI1" {
		t.Errorf("GSI1 statement: keys %v on %s", g.LeadingKeys, g.Resource())
	}
}

const accessUniqueSpec = `
version: 1
package: accounts
tables:
  Accounts: {partitionKey: PK, sortKey: SK}
entities:
  User:
    attributes:
      name: string
      email: string
    unique: [email]
    keys:
      primary: {pk: "USER#{name}", sk: "USER"}
patterns:
  ChangeEmail: {update: User, set: [email]}
  UserByEmail: {get: User, by: [email]}
outputs:
  iam:
`

// TestAccessUnique checks the calls of unique values: the GetItem a
// change of a unique value sends first and the one of a get by a unique
// value, the claims the transaction puts and deletes, each with the
// claim's key.
func TestAccessUnique(t *testing.T) {
	gs := grants(t, generator.Check("spec.yaml", []byte(accessUniqueSpec)))
	want := map[string][]string{
		"AccountsTableGetItem":           {"UNIQUE#User#email#*", "USER#*"},
		"AccountsTablePutItemDeleteItem": {"UNIQUE#User#email#*"},
		"AccountsTableUpdateItem":        {"USER#*"},
	}
	if got := sids(gs); len(got) != len(want) {
		t.Fatalf("statements %v", got)
	}
	for sid, keys := range want {
		g := gs[sid]
		if g == nil {
			t.Fatalf("no statement %s among %v", sid, sids(gs))
		}
		if !slices.Equal(g.LeadingKeys, keys) {
			t.Errorf("%s: keys %v, want %v", sid, g.LeadingKeys, keys)
		}
	}
	// Without the get by email, the GetItem is the read of the update.
	gs = grants(t, generator.Check("spec.yaml", []byte(strings.Replace(accessUniqueSpec, "  UserByEmail: {get: User, by: [email]}\n", "", 1))))
	if g := gs["AccountsTableGetItemUpdateItem"]; g == nil || !slices.Equal(g.LeadingKeys, []string{"USER#*"}) {
		t.Errorf("the read before the update: statements %v", sids(gs))
	}
}

// TestLeadingKeysUnbound checks what binds no key: a template that
// starts with a placeholder, or with text an IAM policy can't hold, and
// a number key; and that the actions whose calls bind none share one
// statement without a condition.
func TestLeadingKeysUnbound(t *testing.T) {
	spec := `
version: 1
package: loose
tables:
  Things: {partitionKey: PK, sortKey: SK}
  Counts: {partitionKey: {name: n, type: N}}
entities:
  Free:
    table: Things
    attributes: {id: string}
    keys: {primary: {pk: "{id}#FREE", sk: "X"}}
  Wide:
    table: Things
    attributes: {id: string}
    keys: {primary: {pk: "日{id}", sk: "WIDE"}}
  Count:
    table: Counts
    attributes: {n: int}
patterns:
  GetFree: {get: Free}
  AddWide: {create: Wide}
  GetCount: {get: Count}
outputs:
  iam:
`
	gs := grants(t, generator.Check("spec.yaml", []byte(spec)))
	if got := sids(gs); !slices.Equal(got, []string{"CountsTableGetItem", "ThingsTableGetItemPutItem"}) {
		t.Fatalf("statements %v", got)
	}
	for sid, why := range map[string]string{"CountsTableGetItem": "of type N", "ThingsTableGetItemPutItem": "starts with a placeholder"} {
		if g := gs[sid]; g.LeadingKeys != nil || !strings.Contains(g.Unbound, why) {
			t.Errorf("%s: keys %v, unbound %q; want none because %s", sid, g.LeadingKeys, g.Unbound, why)
		}
	}
}

// TestAccessSidClash checks that two statements of one id are an error
// at the spec's position, with a fix, not a renamed statement; and none
// when the spec asks for no IAM policy.
func TestAccessSidClash(t *testing.T) {
	spec := `
version: 1
package: clash
tables:
  abc:
    partitionKey: PK
    indexes: {def_ghi: {partitionKey: GPK}}
  abc_def:
    partitionKey: PK
    indexes: {ghi: {partitionKey: GPK}}
entities:
  One:
    table: abc
    attributes: {id: string, g: string}
    keys: {primary: {pk: "ONE#{id}"}, def_ghi: {pk: "G#{g}"}}
  Two:
    table: abc_def
    attributes: {id: string, g: string}
    keys: {primary: {pk: "TWO#{id}"}, ghi: {pk: "G#{g}"}}
patterns:
  OnesOf: {query: One, by: [g]}
  TwosOf: {query: Two, by: [g]}
outputs:
  iam:
`
	res := generator.Check("spec.yaml", []byte(spec))
	err := res.Diags.Err()
	if err == nil {
		t.Fatal("no error for two statements AbcDefGhiIndexQuery")
	}
	if msg := err.Error(); !strings.Contains(msg, "spec.yaml:10:") || !strings.Contains(msg, "AbcDefGhiIndexQuery") || !strings.Contains(msg, "rename one of them") {
		t.Errorf("error %q, want the second index's position, the id and a fix", msg)
	}
	without := strings.TrimSuffix(spec, askIAM)
	if without == spec {
		t.Fatal("the spec does not end in the iam output")
	}
	if res := generator.Check("spec.yaml", []byte(without)); res.Diags.HasErrors() {
		t.Errorf("errors without the iam output: %v", res.Diags.Err())
	}
}

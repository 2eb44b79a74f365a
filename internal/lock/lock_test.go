package lock_test

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/dyngen/dyngen/generator"
	"github.com/dyngen/dyngen/internal/lock"
	"github.com/dyngen/dyngen/internal/plan"
)

const spec = `
version: 1
package: users
tables:
  Main:
    partitionKey: PK
    sortKey: SK
    ttl: expiresAt
    indexes:
      GSI1: {partitionKey: GSI1PK, sortKey: GSI1SK, projection: keys}
entities:
  User:
    attributes:
      id: string
      email: {type: string, maxLength: 200}
      nick: {type: string, optional: true}
      rank: {type: int, default: 3, min: 0}
      role: {type: enum, values: [admin, member]}
      since: {type: time, format: date}
    keys:
      primary: {pk: "USER#{id}", sk: "USER"}
      GSI1: {pk: "ROLE#{role}", sk: "USER#{id}"}
    unique: [email]
  Session:
    attributes: {id: string, expiresAt: {type: time, optional: true}}
    keys: {primary: {pk: "SESSION#{id}", sk: "SESSION"}}
patterns:
  CreateUser: {create: User}
  GetUser: {get: User}
  UsersByRole: {query: User, by: [role], select: [id, role]}
  Promote: {update: User, set: [role, nick], add: [rank]}
`

func planOf(t *testing.T, src string) *plan.Plan {
	t.Helper()
	res := generator.Check("spec.yaml", []byte(src))
	if res.Diags.HasErrors() {
		t.Fatal(res.Diags.Err())
	}
	return res.Plan
}

// find returns the x of xs named name, failing t when there is none.
func find[T any](t *testing.T, xs []T, name string, nameOf func(T) string) T {
	t.Helper()
	for _, x := range xs {
		if nameOf(x) == name {
			return x
		}
	}
	var none T
	t.Fatalf("the lock has no %T %s", none, name)
	return none
}

func entityOf(t *testing.T, l *lock.Lock, name string) lock.Entity {
	t.Helper()
	return find(t, l.Entities, name, func(e lock.Entity) string { return e.Name })
}

func attrOf(t *testing.T, e lock.Entity, name string) lock.Attribute {
	t.Helper()
	return find(t, e.Attributes, name, func(a lock.Attribute) string { return a.Name })
}

func patternOf(t *testing.T, l *lock.Lock, name string) lock.Pattern {
	t.Helper()
	return find(t, l.Patterns, name, func(p lock.Pattern) string { return p.Name })
}

// The lock records the layout the plan decided: keys, indexes, stored
// forms, the entities dyngen derives, the requests and the inputs.
func TestBuild(t *testing.T) {
	l := lock.Build(planOf(t, spec), "spec.yaml")
	if l.Format != lock.Version || l.Source != "spec.yaml" || l.Package != "users" {
		t.Errorf("head: %d %q %q", l.Format, l.Source, l.Package)
	}
	tb := l.Tables[0]
	if tb.Name != "Main" || tb.PartitionKey != (lock.Key{Name: "PK", Type: "S"}) || tb.SortKey == nil || tb.SortKey.Name != "SK" || tb.TTL != "expiresAt" || tb.EntityAttribute != "_type" {
		t.Errorf("table: %+v", tb)
	}
	if len(tb.Indexes) != 1 || tb.Indexes[0].Name != "GSI1" || tb.Indexes[0].Kind != "global" || tb.Indexes[0].Projection != "KEYS_ONLY" {
		t.Errorf("indexes: %+v", tb.Indexes)
	}
	u := entityOf(t, l, "User")
	if u.Of != "" || u.TypeValue != "User" || u.GoType != "User" || len(u.Keys) != 2 || u.Keys[1].Index != "GSI1" || u.Keys[1].PK != "ROLE#{role}" || u.Keys[1].SK != "USER#{id}" || u.Keys[1].Via != nil {
		t.Errorf("User: %+v", u)
	}
	for _, c := range []struct {
		name, form, goType string
		optional, ttl      bool
		dflt               string
	}{
		{"email", "S", "string", false, false, ""},
		{"nick", "S", "*string", true, false, ""},
		{"rank", "N", "int64", false, false, "3"},
		{"since", "S:date", "time.Time", false, false, ""},
	} {
		a := attrOf(t, u, c.name)
		d := ""
		if a.Default != nil {
			d = *a.Default
		}
		if a.Form != c.form || a.GoType != c.goType || a.Optional != c.optional || a.TTL != c.ttl || d != c.dflt {
			t.Errorf("attribute %s: %+v", c.name, a)
		}
	}
	if a := attrOf(t, entityOf(t, l, "Session"), "expiresAt"); a.Form != "N:unix" || !a.TTL || !a.Optional || a.GoType != "*time.Time" {
		t.Errorf("the ttl attribute: %+v", a)
	}
	if a := attrOf(t, u, "role"); !slices.Equal(a.Values, []string{"admin", "member"}) || a.GoType != "UserRole" {
		t.Errorf("role: %+v", a)
	}
	if a := attrOf(t, u, "email"); a.MaxLength != 200 {
		t.Errorf("email: %+v", a)
	}
	if len(u.Unique) != 1 || u.Unique[0].Claim != "UserEmailClaim" || !slices.Equal(u.Unique[0].Attributes, []string{"email"}) {
		t.Errorf("unique: %+v", u.Unique)
	}
	if c := entityOf(t, l, "UserEmailClaim"); c.Of != "claim of User.email" || len(c.Keys) != 1 || !strings.HasPrefix(c.Keys[0].PK, "UNIQUE#User#email#") {
		t.Errorf("the claim: %+v", c)
	}
	create := patternOf(t, l, "CreateUser")
	if create.Call != "TransactWriteItems" || len(create.Steps) != 2 || create.Steps[1].Entity != "UserEmailClaim" || create.Steps[1].Request == nil || create.Steps[1].Request.Condition != "attribute_not_exists(PK)" {
		t.Errorf("CreateUser: %+v", create)
	}
	q := patternOf(t, l, "UsersByRole")
	if q.Index != "GSI1" || q.Call != "Query" || q.Request == nil || q.Request.KeyCondition == "" {
		t.Errorf("UsersByRole: %+v", q)
	}
	pr := patternOf(t, l, "Promote")
	var inputs []string
	for _, in := range pr.Inputs {
		inputs = append(inputs, in.Name+" "+in.GoType+" "+in.Role)
	}
	if pr.Struct != "PromoteParams" || !slices.Equal(inputs, []string{"ID string key", "Role UserRole set", "Nick *string set", "Rank int64 add"}) {
		t.Errorf("Promote: struct %q, inputs %q", pr.Struct, inputs)
	}
	if pr.Request == nil || !strings.Contains(pr.Request.Update, "if_not_exists(#rank, :rank_default)") || !slices.Contains(pr.Request.Names, "#rank=rank") {
		t.Errorf("Promote's request: %+v", pr.Request)
	}
}

// The lock's bytes are the same for the same plan, and read back to the
// same bytes.
func TestMarshalParse(t *testing.T) {
	p := planOf(t, spec)
	a, err := lock.Marshal(lock.Build(p, "spec.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := lock.Marshal(lock.Build(planOf(t, spec), "spec.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Error("two locks of one spec differ")
	}
	l, err := lock.Parse(a)
	if err != nil {
		t.Fatal(err)
	}
	again, err := lock.Marshal(l)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, again) {
		t.Errorf("the lock read back writes other bytes:\n%s\nwant:\n%s", again, a)
	}
}

// A first lock has no backfill: an empty list, not null.
func TestBuildNoBackfills(t *testing.T) {
	if l := lock.Build(planOf(t, spec), "spec.yaml"); l.Backfills == nil || len(l.Backfills) != 0 {
		t.Errorf("backfills of a first lock: %#v, want none (an empty list)", l.Backfills)
	}
}

// A lock of format 1, as the dyngen before backfills wrote it (its
// backfills none), is read.
func TestParseFormat1(t *testing.T) {
	l, err := lock.Parse([]byte(`{"dyngenLock": 1, "source": "spec.yaml", "package": "p", "tables": [], "entities": [], "patterns": [], "backfills": []}`))
	if err != nil || l.Format != 1 || l.Package != "p" {
		t.Errorf("a lock of format 1: %+v, %v", l, err)
	}
}

// What is no lock of this dyngen's is refused, with the reason.
func TestParseRefuses(t *testing.T) {
	for _, c := range []struct{ data, want string }{
		{fmt.Sprintf(`{"dyngenLock": %d, "tables": []}`, lock.Version+1), "newer than this dyngen reads"},
		{`{"dyngenLock": 0}`, "which no dyngen writes"},
		{`{"tables": []}`, "no dyngenLock version"},
		{`[1, 2]`, "not a dyngen lock"},
		{`{"dyngenLock": 1, "tabels": []}`, "unknown field"},
		{`{"dyngenLock": 1, "tables": 3}`, "lock:"},
	} {
		if _, err := lock.Parse([]byte(c.data)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%s): %v; want an error saying %q", c.data, err, c.want)
		}
	}
}

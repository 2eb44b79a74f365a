package plan_test

import (
	"testing"

	"github.com/dyngen/dyngen/generator"
	"github.com/dyngen/dyngen/internal/plan"
)

const expirySpec = `
version: 1
package: sessions
tables:
  Sessions:
    partitionKey: PK
    sortKey: SK
    ttl: ttl
    indexes:
      ByUser: {partitionKey: GSI1PK, sortKey: GSI1SK, projection: [state]}
entities:
  User:
    attributes: {userId: string, name: string}
    keys: {primary: {pk: "USER#{userId}", sk: "USER"}}
  Session:
    attributes: {userId: string, sessionId: string, state: string, ttl: {type: time, optional: true}}
    keys:
      primary: {pk: "USER#{userId}", sk: "SESSION#{sessionId}"}
      ByUser: {pk: "U#{userId}", sk: "{sessionId}"}
patterns:
  GetSession: {get: Session}
  SessionByUser: {get: Session, by: [userId, sessionId], index: ByUser, select: [state]}
  Sessions: {query: Session, by: [userId], filter: {state: "="}}
  SessionsOfUser: {query: Session, by: [userId], index: ByUser, select: [sessionId]}
  UserPage: {query: [User, Session], by: [userId]}
  AllSessions: {query: Session, by: [userId], expired: include}
  LatestSession: {query: Session, by: [userId], order: desc, first: true, expired: include}
  GetSessions: {batchGet: Session, select: [state]}
  CreateSession: {create: Session}
  CreateStored: {create: Session, expired: include}
  EndSession: {update: Session, set: [state]}
  TouchSession: {update: Session, set: [state], upsert: true}
  PutSession: {put: Session}
  DeleteSession: {delete: Session}
  GetUser: {get: User}
  CreateUser: {create: User}
`

// TestExpiryRequests: the plan decides how each call treats an expired
// item: a query's filter (joined with its own), a create's and an
// update's condition, with the Now value; a get and a batchGet drop it in
// code, reading the ttl attribute; the patterns with expired: include,
// an upsert, a put, a delete and the entities without ttl are unchanged.
func TestExpiryRequests(t *testing.T) {
	res := generator.Check("spec.yaml", []byte(expirySpec))
	if res.Diags.HasErrors() {
		t.Fatal(res.Diags.Err())
	}
	pats := map[string]*plan.Pattern{}
	for _, pp := range res.Plan.Patterns {
		pats[pp.Pattern.Name] = pp
	}
	type want struct {
		inCode                        bool
		filter, condition, projection string
		now                           string // the Now placeholder, "" for none
	}
	const live = "(attribute_not_exists(#ttl) OR #ttl > :now)"
	for name, w := range map[string]*want{
		"GetSession":     {inCode: true},
		"SessionByUser":  {inCode: true, projection: "#state, #userId, #sessionId, #ttl"},
		"Sessions":       {filter: "#state = :state AND " + live, now: ":now"},
		"SessionsOfUser": {filter: live, projection: "#sessionId, #userId", now: ":now"},
		"UserPage":       {filter: live, now: ":now"},
		"AllSessions":    nil,
		"LatestSession":  nil,
		"GetSessions":    {inCode: true, projection: "#state, #userId, #sessionId, #ttl, PK, SK"},
		"CreateSession":  {condition: "(attribute_not_exists(PK) OR #ttl <= :now)", now: ":now"},
		"CreateStored":   nil,
		"EndSession":     {condition: "attribute_exists(PK) AND " + live, now: ":now"},
		"TouchSession":   nil,
		"PutSession":     nil,
		"DeleteSession":  nil,
		"GetUser":        nil,
		"CreateUser":     nil,
	} {
		pp := pats[name]
		if pp == nil {
			t.Fatalf("%s: not planned", name)
		}
		req, x := pp.Request, pp.Request.Expiry
		if w == nil {
			if x != nil || req.Placeholder(plan.Now) != "" {
				t.Errorf("%s: expiry %+v, now %q; want none", name, x, req.Placeholder(plan.Now))
			}
			continue
		}
		if x == nil || x.Attr != "ttl" || x.InCode != w.inCode {
			t.Errorf("%s: expiry %+v, want in code %v on ttl", name, x, w.inCode)
			continue
		}
		if got := req.Placeholder(plan.Now); got != w.now {
			t.Errorf("%s: Now placeholder %q, want %q", name, got, w.now)
		}
		if req.Filter != w.filter {
			t.Errorf("%s: filter %q, want %q", name, req.Filter, w.filter)
		}
		if w.condition != "" && req.Condition != w.condition {
			t.Errorf("%s: condition %q, want %q", name, req.Condition, w.condition)
		}
		if w.projection != "" && req.Projection != w.projection {
			t.Errorf("%s: projection %q, want %q", name, req.Projection, w.projection)
		}
		if pp.ExpiryNote() == "" {
			t.Errorf("%s: no note says how expired items are treated", name)
		}
	}
}

// TestReleasedExpiry: the writes of an entity whose expired items a
// consumer releases (release:) treat an expired item as there where they
// would replace it (a create: its condition is the plain one, so it
// fails over an expired item whose claims and counts are not released
// yet), and as absent everywhere else: a check and an update keep the
// expiry of their condition, as a get keeps its own.
func TestReleasedExpiry(t *testing.T) {
	spec := `
version: 1
package: sessions
tables:
  Sessions: {partitionKey: PK, sortKey: SK, ttl: ttl, stream: OLD_IMAGE}
entities:
  Session:
    attributes: {sessionId: string, token: string, state: string, ttl: {type: time, format: unix}}
    unique: [token]
    keys: {primary: {pk: "SESSION#{sessionId}", sk: "SESSION"}}
  Order:
    attributes: {orderId: string, sessionId: string}
    keys: {primary: {pk: "ORDER#{orderId}", sk: "ORDER"}}
patterns:
  GetSession: {get: Session}
  CreateSession: {create: Session}
  EndSession: {update: Session, set: [state]}
  PlaceOrder:
    transaction:
      - check: Session
        bind: {sessionId: Order.sessionId}
      - create: Order
consumers:
  Expiry:
    release: [Session]
`
	res := generator.Check("spec.yaml", []byte(spec))
	if res.Diags.HasErrors() {
		t.Fatal(res.Diags.Err())
	}
	for _, pp := range res.Plan.Patterns {
		switch pp.Pattern.Name {
		case "GetSession", "EndSession":
			if !pp.Pattern.Expires() {
				t.Errorf("%s does not treat an expired session as absent", pp.Pattern.Name)
			}
		case "CreateSession":
			if pp.Pattern.Expires() {
				t.Errorf("CreateSession replaces an expired session unreleased")
			}
		case "PlaceOrder":
			check := pp.Tx.Steps[0]
			if !check.Plan.Pattern.Expires() || check.Plan.Request.Expiry == nil {
				t.Errorf("the check of a session treats an expired one as there: %q", check.Plan.Request.Condition)
			}
		}
	}
}

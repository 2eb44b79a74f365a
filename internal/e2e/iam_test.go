package e2e

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/dyngen/dyngen/internal/iamcheck"
)

// Every Store of this package's tests is made by newChecked: each call
// it makes is evaluated against the committed IAM policy, and a denial
// fails the test. The tests below make sure that check can fail: a
// policy with an action or a partition key pattern taken out denies
// calls the Store makes.

// recorded collects the requests of the calls a Store makes, each once.
type recorded struct {
	mu   sync.Mutex
	seen map[string]bool
	reqs []iamcheck.Request
}

// add records r.
func (rec *recorded) add(r iamcheck.Request) {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	k := fmt.Sprint(r)
	if rec.seen == nil {
		rec.seen = map[string]bool{}
	}
	if !rec.seen[k] {
		rec.seen[k] = true
		rec.reqs = append(rec.reqs, r)
	}
}

// recordingStore returns a Store over next whose calls the committed
// policy must allow, recorded in rec.
func recordingStore(t *testing.T, next Client, rec *recorded, opts ...Option) *Store {
	t.Helper()
	chk := iamcheck.New(t, policyFile, next)
	chk.Record = rec.add
	s := New(chk, opts...)
	for _, table := range s.Tables() {
		chk.Add(table.Name, table.Create)
	}
	return s
}

// firstCalls records the requests of the first call of every method of
// the Store, over a client that refuses every call (no DynamoDB).
func firstCalls(t *testing.T) *recorded {
	t.Helper()
	rec := &recorded{}
	s := recordingStore(t, refusing{}, rec)
	for _, in := range []inputs{bad, badValues} {
		storeErrors(s, in)
	}
	return rec
}

// committedPolicy reads the committed policy.
func committedPolicy(t *testing.T) *iamcheck.Policy {
	t.Helper()
	p, err := iamcheck.Load(policyFile)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// denied lists the requests of reqs p denies.
func denied(p *iamcheck.Policy, reqs []iamcheck.Request) []iamcheck.Request {
	var out []iamcheck.Request
	for _, r := range reqs {
		if !p.Allows(r.Action, r.Resource, r.Keys) {
			out = append(out, r)
		}
	}
	return out
}

// leadingKeys returns the partition key patterns of statement st, or
// nil when it binds none.
func leadingKeys(st iamcheck.Statement) []any {
	l, _ := st.Condition["ForAllValues:StringLike"][iamcheck.LeadingKeys].([]any)
	return l
}

// TestIAMPolicyMutations checks, over the first call of every Store
// method, that the committed policy grants only what those calls need:
// every action on every table and index of the policy is requested;
// taking one out of its statement denies a call; and binding a
// statement's partition key to a prefix no template makes denies a
// call of each of its actions.
func TestIAMPolicyMutations(t *testing.T) {
	p := committedPolicy(t)
	reqs := firstCalls(t).reqs
	if len(reqs) == 0 {
		t.Fatal("no request recorded")
	}
	for i, st := range p.Statement {
		for j, a := range st.Action {
			q := p.Clone()
			q.Statement[i].Action = slices.Delete(slices.Clone(st.Action), j, j+1)
			if len(denied(q, reqs)) == 0 {
				t.Errorf("without %s in statement %s, the policy denies no call", a, st.Sid)
			}
		}
		if leadingKeys(st) == nil {
			continue
		}
		q := p.Clone()
		q.Statement[i].Condition["ForAllValues:StringLike"][iamcheck.LeadingKeys] = []any{"no-template-makes-this#*"}
		for _, a := range st.Action {
			if !slices.ContainsFunc(denied(q, reqs), func(r iamcheck.Request) bool { return r.Action == a }) {
				t.Errorf("with statement %s bound to another prefix, the policy denies no %s call", st.Sid, a)
			}
		}
	}
}

// TestIAMPolicyLeadingKeysLive checks, against DynamoDB Local, that each
// partition key pattern of the policy is needed: taking any one out of
// its statement denies a request of the Store's calls, the first call
// of each method (as above), the calls of writes of entities with
// unique values (their reads, then transactions of claims), counts,
// copies and items per element, and a read keyed by an enum.
func TestIAMPolicyLeadingKeysLive(t *testing.T) {
	t.Parallel()
	rec := firstCalls(t)
	var checked *iamcheck.Checker
	// The committed policy checks every call (newStore); a second
	// checker, innermost, records them.
	s, _ := newStore(t, func(c Client) Client {
		checked = iamcheck.NewChecker(committedPolicy(t), c, t.Errorf)
		checked.Record = rec.add
		return checked
	})
	for _, table := range s.Tables() {
		checked.Add(table.Name, table.Create)
	}
	uniqueWrites(t, s)
	enumKeyedReads(t, s)
	countedWrites(t, s)
	copyWrites(t, s)
	eachWrites(t, s)
	p := committedPolicy(t)
	for i, st := range p.Statement {
		pats := leadingKeys(st)
		for j := range pats {
			q := p.Clone()
			q.Statement[i].Condition["ForAllValues:StringLike"][iamcheck.LeadingKeys] = slices.Delete(slices.Clone(pats), j, j+1)
			if len(denied(q, rec.reqs)) == 0 {
				t.Errorf("without pattern %v in statement %s, the policy denies no call", pats[j], st.Sid)
			}
		}
	}
}

// enumKeyedReads reads through an index whose partition key is built
// from an enum, which the first calls (given values no enum holds) never
// send.
func enumKeyedReads(t *testing.T, s *Store) {
	t.Helper()
	collect(t, s.ToolsByStatusAll(t.Context(), ToolsByStatusParams{Status: ToolStatusAvailable}))
}

// uniqueWrites writes entities with unique values: create, change,
// delete, each of which reads first, then claims and releases.
func uniqueWrites(t *testing.T, s *Store) {
	t.Helper()
	ctx := t.Context()
	must(t, s.CreateAccount(ctx, &Account{Username: "iam", Email: "iam@x.org", Name: "I"}))
	must(t, s.ChangeAccountEmail(ctx, ChangeAccountEmailParams{Username: "iam", Email: "iam2@x.org"}))
	if _, err := s.AccountByEmail(ctx, "iam2@x.org"); err != nil {
		t.Fatal(err)
	}
	must(t, s.DeleteAccount(ctx, "iam"))
	must(t, s.CreateProfile(ctx, &Profile{ProfileID: "p1", Handle: "h1"}))
	pr, err := s.GetProfile(ctx, "p1")
	if err != nil {
		t.Fatal(err)
	}
	pr.Handle = "h2"
	must(t, s.PutProfile(ctx, pr))
	if pr, err = s.GetProfile(ctx, "p1"); err != nil {
		t.Fatal(err)
	}
	must(t, s.DeleteProfile(ctx, DeleteProfileParams{ProfileID: "p1", ProfileRev: pr.Rev}))
	// Composite, normalised and per-element unique values.
	must(t, s.CreatePatron(ctx, &Patron{LibraryID: "l1", PatronID: "p1", Email: "iam@x.org"}))
	must(t, s.ChangePatronEmail(ctx, ChangePatronEmailParams{LibraryID: "l1", PatronID: "p1", Email: "iam2@x.org"}))
	must(t, s.DeletePatron(ctx, PatronKey{LibraryID: "l1", PatronID: "p1"}))
	must(t, s.CreateLogin(ctx, &Login{LoginID: "l1", Email: "Iam@x.org"}))
	must(t, s.ChangeLoginEmail(ctx, ChangeLoginEmailParams{LoginID: "l1", Email: "iam2@x.org"}))
	must(t, s.DeleteLogin(ctx, "l1"))
	must(t, s.CreateGear(ctx, &Gear{GearID: "t1", Barcodes: []string{"b1"}}))
	must(t, s.ChangeGearBarcodes(ctx, ChangeGearBarcodesParams{GearID: "t1", Barcodes: []string{"b2"}}))
	must(t, s.DeleteGear(ctx, "t1"))
}

// TestIAMPolicyDenialFailsLive checks, against DynamoDB Local, that a
// checker reports the calls a policy denies as the Store makes them: a
// policy without dynamodb:DeleteItem denies the release of a claim, an
// item of a transaction, evaluated on its own.
func TestIAMPolicyDenialFailsLive(t *testing.T) {
	t.Parallel()
	p := committedPolicy(t)
	for i := range p.Statement {
		p.Statement[i].Action = slices.DeleteFunc(p.Statement[i].Action, func(a string) bool { return a == "dynamodb:DeleteItem" })
	}
	var mu sync.Mutex
	var denials []string
	var checked *iamcheck.Checker
	s, _ := newStore(t, func(c Client) Client {
		checked = iamcheck.NewChecker(p, c, func(format string, args ...any) {
			mu.Lock()
			defer mu.Unlock()
			denials = append(denials, fmt.Sprintf(format, args...))
		})
		return checked
	})
	for _, table := range s.Tables() {
		checked.Add(table.Name, table.Create)
	}
	ctx := t.Context()
	must(t, s.CreateAccount(ctx, &Account{Username: "iam", Email: "iam@x.org", Name: "I"}))
	if len(denials) != 0 {
		t.Fatalf("a create, which deletes nothing, is denied: %q", denials)
	}
	must(t, s.ChangeAccountEmail(ctx, ChangeAccountEmailParams{Username: "iam", Email: "iam2@x.org"}))
	want := `the IAM policy denies a TransactWriteItems call: dynamodb:DeleteItem on table/Main, partition key values ["UNIQUE#Account#email#iam@x.org"]`
	if !slices.Contains(denials, want) {
		t.Errorf("denials %q, want %q", denials, want)
	}
	if strings.Contains(fmt.Sprint(denials), "PutItem") {
		t.Errorf("a transaction's other items are denied too: %q", denials)
	}
}

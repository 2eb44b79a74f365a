package telemetryhub_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dyngen/dyngen/example/internal/exampletest"
	"github.com/dyngen/dyngen/example/telemetryhub"
	"github.com/dyngen/dyngen/internal/dynamotest"
	"github.com/dyngen/dyngen/internal/iamcheck"
)

// newStore returns a Store over tables of unique names in DynamoDB Local
// (see exampletest.NewStore).
func newStore(t *testing.T) *telemetryhub.Store {
	t.Helper()
	return exampletest.NewStore(t, func(chk *iamcheck.Checker) *telemetryhub.Store {
		return telemetryhub.New(chk, telemetryhub.WithTelemetryHubTable(dynamotest.TableName("TelemetryHub")))
	})
}

// ---- fixtures ------------------------------------------------------------------

// An account with four users and three service groups, and a second
// account, whose items must never mix with the first's. Ids are globally
// unique, as the article's are.
var (
	acme   = telemetryhub.Account{AccountID: "acc-7f3a9c", Name: "Acme Rockets"}
	globex = telemetryhub.Account{AccountID: "acc-19be02", Name: "Globex"}

	signup = time.Date(2023, 4, 1, 9, 0, 0, 0, time.UTC)

	acmeUsers = []telemetryhub.User{
		{AccountID: acme.AccountID, UserID: "usr-0001", FirstName: "Wile E.", LastName: "Coyote", Role: "admin", CreatedAt: signup},
		{AccountID: acme.AccountID, UserID: "usr-0002", FirstName: "Road", LastName: "Runner", Role: "viewer", CreatedAt: signup.Add(26 * time.Hour)},
		{AccountID: acme.AccountID, UserID: "usr-0003", FirstName: "Marvin", LastName: "Martian", Role: "developer", CreatedAt: signup.AddDate(0, 2, 3)},
		{AccountID: acme.AccountID, UserID: "usr-0004", FirstName: "Daffy", LastName: "Duck", Role: "developer", CreatedAt: signup.AddDate(1, 0, 0).Add(123 * time.Millisecond)},
	}
	acmeGroups = []telemetryhub.ServiceGroup{
		{AccountID: acme.AccountID, ServiceGroupID: "sg-dev-41", Name: "dev"},
		{AccountID: acme.AccountID, ServiceGroupID: "sg-prod-17", Name: "prod"},
		{AccountID: acme.AccountID, ServiceGroupID: "sg-stage-03", Name: "staging"},
	}
	globexUsers = []telemetryhub.User{
		{AccountID: globex.AccountID, UserID: "usr-0100", FirstName: "Hank", LastName: "Scorpio", Role: "admin", CreatedAt: signup},
	}
	globexGroups = []telemetryhub.ServiceGroup{
		{AccountID: globex.AccountID, ServiceGroupID: "sg-prod-99", Name: "prod"},
	}
)

// grants: which user has access to which service group.
var grants = []struct{ user, group string }{
	{"usr-0001", "sg-dev-41"},
	{"usr-0001", "sg-prod-17"},
	{"usr-0001", "sg-stage-03"},
	{"usr-0002", "sg-prod-17"},
	{"usr-0003", "sg-dev-41"},
	{"usr-0003", "sg-stage-03"},
	{"usr-0100", "sg-prod-99"},
	// usr-0004 has no access yet.
}

func membership(i int) telemetryhub.Membership {
	return telemetryhub.Membership{
		UserID:         grants[i].user,
		ServiceGroupID: grants[i].group,
		GrantedAt:      signup.AddDate(0, 3, i).Add(time.Duration(i) * time.Minute),
	}
}

func seed(t *testing.T, s *telemetryhub.Store) {
	t.Helper()
	ctx := t.Context()
	for _, a := range []telemetryhub.Account{acme, globex} {
		if err := s.CreateAccount(ctx, &a); err != nil {
			t.Fatalf("CreateAccount %s: %v", a.AccountID, err)
		}
	}
	for _, u := range append(slices.Clone(acmeUsers), globexUsers...) {
		if err := s.CreateUser(ctx, &u); err != nil {
			t.Fatalf("CreateUser %s: %v", u.UserID, err)
		}
	}
	for _, g := range append(slices.Clone(acmeGroups), globexGroups...) {
		if err := s.CreateServiceGroup(ctx, &g); err != nil {
			t.Fatalf("CreateServiceGroup %s: %v", g.ServiceGroupID, err)
		}
	}
	for i := range grants {
		grant(t, s, membership(i))
	}
}

// accountOf returns the account of a user of the fixtures.
func accountOf(user string) string {
	for _, us := range [][]telemetryhub.User{acmeUsers, globexUsers} {
		for _, u := range us {
			if u.UserID == user {
				return u.AccountID
			}
		}
	}
	return ""
}

// grant gives a user of the fixtures access to a service group of their
// account, failing the test on an error.
func grant(t *testing.T, s *telemetryhub.Store, m telemetryhub.Membership) {
	t.Helper()
	if err := s.GrantServiceGroup(t.Context(), telemetryhub.GrantServiceGroupParams{Membership: &m, AccountID: accountOf(m.UserID)}); err != nil {
		t.Fatalf("GrantServiceGroup %s -> %s: %v", m.UserID, m.ServiceGroupID, err)
	}
}

// counted returns the groups, each with the number of members grants gives
// it.
func counted(groups []telemetryhub.ServiceGroup) []telemetryhub.ServiceGroup {
	out := slices.Clone(groups)
	for i := range out {
		out[i].Members = int64(len(usersOf(out[i].ServiceGroupID)))
	}
	return out
}

// members returns the stored member count of a service group of acme.
func members(t *testing.T, s *telemetryhub.Store, group string) int64 {
	t.Helper()
	for g, err := range s.ServiceGroupsOfAccountAll(t.Context(), acme.AccountID) {
		if err != nil {
			t.Fatal(err)
		}
		if g.ServiceGroupID == group {
			return g.Members
		}
	}
	t.Fatalf("no service group %s in %s", group, acme.AccountID)
	return 0
}

// stepFailed checks the failure of a step of a transaction (see
// exampletest.StepFailedOf).
var stepFailed = exampletest.StepFailedOf(func(e *telemetryhub.TransactionError) (int, string) { return e.Step, e.Action },
	telemetryhub.ErrNotFound, telemetryhub.ErrAlreadyExists, telemetryhub.ErrConditionFailed, telemetryhub.ErrInvalidKey)

// membershipsWhere returns the memberships of grants that keep says to, in
// the order of key (the sort key of the query).
func membershipsWhere(keep func(user, group string) bool, key func(m telemetryhub.Membership) string) []telemetryhub.Membership {
	var out []telemetryhub.Membership
	for i, g := range grants {
		if keep(g.user, g.group) {
			out = append(out, membership(i))
		}
	}
	slices.SortFunc(out, func(a, b telemetryhub.Membership) int { return strings.Compare(key(a), key(b)) })
	return out
}

func groupsOf(user string) []telemetryhub.Membership {
	return membershipsWhere(func(u, _ string) bool { return u == user }, func(m telemetryhub.Membership) string { return m.ServiceGroupID })
}

func usersOf(group string) []telemetryhub.Membership {
	return membershipsWhere(func(_, g string) bool { return g == group }, func(m telemetryhub.Membership) string { return m.UserID })
}

// ---- comparisons ---------------------------------------------------------------

func checkUser(t *testing.T, what string, got, want telemetryhub.User) {
	t.Helper()
	if got.AccountID != want.AccountID || got.UserID != want.UserID || got.FirstName != want.FirstName ||
		got.LastName != want.LastName || got.Role != want.Role || !got.CreatedAt.Equal(want.CreatedAt) {
		t.Errorf("%s = %+v, want %+v", what, got, want)
	}
}

func checkUsers(t *testing.T, what string, got, want []telemetryhub.User) {
	t.Helper()
	exampletest.CheckEach(t, what, "users", got, want, checkUser)
}

func checkGroups(t *testing.T, what string, got, want []telemetryhub.ServiceGroup) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s = %+v, want %+v", what, got, want)
	}
}

func checkMemberships(t *testing.T, what string, got, want []telemetryhub.Membership) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d memberships %+v, want %d %+v", what, len(got), got, len(want), want)
		return
	}
	for i := range got {
		if got[i].UserID != want[i].UserID || got[i].ServiceGroupID != want[i].ServiceGroupID || !got[i].GrantedAt.Equal(want[i].GrantedAt) {
			t.Errorf("%s[%d] = %+v, want %+v", what, i, got[i], want[i])
		}
	}
}

// ---- tests ---------------------------------------------------------------------

func TestGetAccountAndUser(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	seed(t, s)

	a, err := s.GetAccount(ctx, acme.AccountID)
	if err != nil {
		t.Fatalf("GetAccount: %v", err)
	}
	if *a != acme {
		t.Errorf("GetAccount = %+v, want %+v", *a, acme)
	}
	if _, err := s.GetAccount(ctx, "acc-000000"); !errors.Is(err, telemetryhub.ErrNotFound) {
		t.Errorf("GetAccount of a missing account: %v, want ErrNotFound", err)
	}
	if err := s.CreateAccount(ctx, &telemetryhub.Account{AccountID: acme.AccountID, Name: "Impostor"}); !errors.Is(err, telemetryhub.ErrAlreadyExists) {
		t.Errorf("CreateAccount of an existing account: %v, want ErrAlreadyExists", err)
	}

	for _, want := range acmeUsers {
		u, err := s.GetUser(ctx, telemetryhub.UserKey{AccountID: acme.AccountID, UserID: want.UserID})
		if err != nil {
			t.Fatalf("GetUser %s: %v", want.UserID, err)
		}
		checkUser(t, "GetUser "+want.UserID, *u, want)
	}
	// A user is found under their own account only.
	if _, err := s.GetUser(ctx, telemetryhub.UserKey{AccountID: globex.AccountID, UserID: acmeUsers[0].UserID}); !errors.Is(err, telemetryhub.ErrNotFound) {
		t.Errorf("GetUser under another account: %v, want ErrNotFound", err)
	}
	if err := s.CreateUser(ctx, &acmeUsers[1]); !errors.Is(err, telemetryhub.ErrAlreadyExists) {
		t.Errorf("CreateUser of an existing user: %v, want ErrAlreadyExists", err)
	}
	if err := s.CreateServiceGroup(ctx, &acmeGroups[0]); !errors.Is(err, telemetryhub.ErrAlreadyExists) {
		t.Errorf("CreateServiceGroup of an existing group: %v, want ErrAlreadyExists", err)
	}
	// ':' is the separator of every key: an id can't hold it.
	if _, err := s.GetUser(ctx, telemetryhub.UserKey{AccountID: acme.AccountID, UserID: "usr:0001"}); !errors.Is(err, telemetryhub.ErrInvalidKey) {
		t.Errorf("GetUser with ':' in the id: %v, want ErrInvalidKey", err)
	}
	if err := s.CreateAccount(ctx, &telemetryhub.Account{AccountID: "acc:1", Name: "x"}); !errors.Is(err, telemetryhub.ErrInvalidKey) {
		t.Errorf("CreateAccount with ':' in the id: %v, want ErrInvalidKey", err)
	}

	// UserByID: the user from their id alone, through the inverse GSI, with
	// the account they belong to.
	res, err := s.UserByID(ctx, "usr-0003", telemetryhub.Page{})
	if err != nil {
		t.Fatalf("UserByID: %v", err)
	}
	checkUsers(t, "UserByID usr-0003", res.Items, acmeUsers[2:3])
	var got []telemetryhub.User
	for u, err := range s.UserByIDAll(ctx, "usr-0100") {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, u)
	}
	checkUsers(t, "UserByIDAll usr-0100", got, globexUsers)
	if r, err := s.UserByID(ctx, "usr-9999", telemetryhub.Page{}); err != nil || len(r.Items) != 0 {
		t.Errorf("UserByID of a missing user: %+v, %v", r, err)
	}
}

func TestUsersAndGroupsOfAccount(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	seed(t, s)

	// The users only: not the account's metadata item, not its groups.
	res, err := s.UsersOfAccount(ctx, acme.AccountID, telemetryhub.Page{})
	if err != nil {
		t.Fatalf("UsersOfAccount: %v", err)
	}
	checkUsers(t, "UsersOfAccount acme", res.Items, acmeUsers)
	var users []telemetryhub.User
	page := telemetryhub.Page{Limit: 3}
	for {
		r, err := s.UsersOfAccount(ctx, acme.AccountID, page)
		if err != nil {
			t.Fatal(err)
		}
		users = append(users, r.Items...)
		if r.Next == "" {
			break
		}
		page.Cursor = r.Next
	}
	checkUsers(t, "UsersOfAccount acme, pages of 3", users, acmeUsers)
	users = nil
	for u, err := range s.UsersOfAccountAll(ctx, globex.AccountID) {
		if err != nil {
			t.Fatal(err)
		}
		users = append(users, u)
	}
	checkUsers(t, "UsersOfAccountAll globex", users, globexUsers)

	gres, err := s.ServiceGroupsOfAccount(ctx, acme.AccountID, telemetryhub.Page{})
	if err != nil {
		t.Fatalf("ServiceGroupsOfAccount: %v", err)
	}
	checkGroups(t, "ServiceGroupsOfAccount acme", gres.Items, counted(acmeGroups))
	var groups []telemetryhub.ServiceGroup
	for g, err := range s.ServiceGroupsOfAccountAll(ctx, globex.AccountID) {
		if err != nil {
			t.Fatal(err)
		}
		groups = append(groups, g)
	}
	checkGroups(t, "ServiceGroupsOfAccountAll globex", groups, counted(globexGroups))

	// An account with nothing in it yet.
	empty := telemetryhub.Account{AccountID: "acc-newbie", Name: "Newbie"}
	if err := s.CreateAccount(ctx, &empty); err != nil {
		t.Fatal(err)
	}
	if r, err := s.UsersOfAccount(ctx, empty.AccountID, telemetryhub.Page{}); err != nil || len(r.Items) != 0 {
		t.Errorf("UsersOfAccount of an empty account: %+v, %v", r, err)
	}
	if r, err := s.ServiceGroupsOfAccount(ctx, empty.AccountID, telemetryhub.Page{}); err != nil || len(r.Items) != 0 {
		t.Errorf("ServiceGroupsOfAccount of an empty account: %+v, %v", r, err)
	}
}

// TestAccountData reads everything of an account in one Query, each item
// typed as its own entity.
func TestAccountData(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	seed(t, s)

	res, err := s.AccountData(ctx, acme.AccountID, telemetryhub.Page{})
	if err != nil {
		t.Fatalf("AccountData: %v", err)
	}
	if len(res.Accounts) != 1 || res.Accounts[0] != acme {
		t.Errorf("AccountData accounts = %+v, want [%+v]", res.Accounts, acme)
	}
	checkUsers(t, "AccountData users", res.Users, acmeUsers)
	checkGroups(t, "AccountData service groups", res.ServiceGroups, counted(acmeGroups))
	if res.Next != "" {
		t.Errorf("AccountData: Next = %q, want \"\"", res.Next)
	}

	// Page by page, 2 items a page (8 items: 4 pages, maybe a 5th empty).
	var accounts []telemetryhub.Account
	var users []telemetryhub.User
	var groups []telemetryhub.ServiceGroup
	pages := 0
	page := telemetryhub.Page{Limit: 2}
	for {
		r, err := s.AccountData(ctx, acme.AccountID, page)
		if err != nil {
			t.Fatal(err)
		}
		pages++
		if n := len(r.Accounts) + len(r.Users) + len(r.ServiceGroups); n > 2 {
			t.Errorf("AccountData with Limit 2: %d items on a page", n)
		}
		accounts = append(accounts, r.Accounts...)
		users = append(users, r.Users...)
		groups = append(groups, r.ServiceGroups...)
		if r.Next == "" {
			break
		}
		page.Cursor = r.Next
	}
	if pages < 4 {
		t.Errorf("AccountData, 8 items 2 a page: %d pages", pages)
	}
	if len(accounts) != 1 || accounts[0] != acme {
		t.Errorf("AccountData pages: accounts = %+v", accounts)
	}
	checkUsers(t, "AccountData pages: users", users, acmeUsers)
	checkGroups(t, "AccountData pages: service groups", groups, counted(acmeGroups))

	// With the iterator, for the other account.
	accounts, users, groups = nil, nil, nil
	for r, err := range s.AccountDataAll(ctx, globex.AccountID) {
		if err != nil {
			t.Fatal(err)
		}
		accounts = append(accounts, r.Accounts...)
		users = append(users, r.Users...)
		groups = append(groups, r.ServiceGroups...)
	}
	if len(accounts) != 1 || accounts[0] != globex {
		t.Errorf("AccountDataAll globex: accounts = %+v", accounts)
	}
	checkUsers(t, "AccountDataAll globex: users", users, globexUsers)
	checkGroups(t, "AccountDataAll globex: service groups", groups, counted(globexGroups))

	// A missing account: nothing.
	r, err := s.AccountData(ctx, "acc-000000", telemetryhub.Page{})
	if err != nil || len(r.Accounts)+len(r.Users)+len(r.ServiceGroups) != 0 {
		t.Errorf("AccountData of a missing account: %+v, %v", r, err)
	}
}

// TestMembershipsBothWays walks the many-to-many relationship both ways:
// the service groups of a user on the table, the users of a service group
// on the inverse GSI.
func TestMembershipsBothWays(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	seed(t, s)

	for _, u := range []string{"usr-0001", "usr-0002", "usr-0003", "usr-0004", "usr-0100"} {
		res, err := s.ServiceGroupsOfUser(ctx, u, telemetryhub.Page{})
		if err != nil {
			t.Fatalf("ServiceGroupsOfUser %s: %v", u, err)
		}
		checkMemberships(t, "ServiceGroupsOfUser "+u, res.Items, groupsOf(u))
		var all []telemetryhub.Membership
		for m, err := range s.ServiceGroupsOfUserAll(ctx, u) {
			if err != nil {
				t.Fatal(err)
			}
			all = append(all, m)
		}
		checkMemberships(t, "ServiceGroupsOfUserAll "+u, all, groupsOf(u))
	}
	// The service group's own item shares its GSI partition (SK
	// servicegroup:<id>, PK account:<id>) and never shows as a membership.
	for _, g := range []string{"sg-dev-41", "sg-prod-17", "sg-stage-03", "sg-prod-99"} {
		res, err := s.UsersOfServiceGroup(ctx, g, telemetryhub.Page{})
		if err != nil {
			t.Fatalf("UsersOfServiceGroup %s: %v", g, err)
		}
		checkMemberships(t, "UsersOfServiceGroup "+g, res.Items, usersOf(g))
		var all []telemetryhub.Membership
		page := telemetryhub.Page{Limit: 1}
		for {
			r, err := s.UsersOfServiceGroup(ctx, g, page)
			if err != nil {
				t.Fatal(err)
			}
			all = append(all, r.Items...)
			if r.Next == "" {
				break
			}
			page.Cursor = r.Next
		}
		checkMemberships(t, "UsersOfServiceGroup "+g+", pages of 1", all, usersOf(g))
		all = nil
		for m, err := range s.UsersOfServiceGroupAll(ctx, g) {
			if err != nil {
				t.Fatal(err)
			}
			all = append(all, m)
		}
		checkMemberships(t, "UsersOfServiceGroupAll "+g, all, usersOf(g))
	}
	// A group nobody has access to: no membership, and the group's own item
	// (alone in its GSI partition) is not one.
	lonely := telemetryhub.ServiceGroup{AccountID: acme.AccountID, ServiceGroupID: "sg-lonely-00", Name: "sandbox"}
	if err := s.CreateServiceGroup(ctx, &lonely); err != nil {
		t.Fatal(err)
	}
	if r, err := s.UsersOfServiceGroup(ctx, lonely.ServiceGroupID, telemetryhub.Page{}); err != nil || len(r.Items) != 0 {
		t.Errorf("UsersOfServiceGroup of a group without members: %+v, %v", r, err)
	}

	// From a membership back to the full user and group: UserByID and the
	// account's groups.
	for _, m := range usersOf("sg-stage-03") {
		r, err := s.UserByID(ctx, m.UserID, telemetryhub.Page{})
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Items) != 1 || r.Items[0].AccountID != acme.AccountID {
			t.Errorf("UserByID %s: %+v, want one user of %s", m.UserID, r.Items, acme.AccountID)
		}
	}
}

// TestGrantAndRevoke grants a user a service group and revokes it: each
// time both directions of the relationship follow, and the group's member
// count with them, or, when a step fails, nothing changes.
func TestGrantAndRevoke(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	seed(t, s)
	const prod = "sg-prod-17"
	if n := members(t, s, prod); n != 2 {
		t.Fatalf("%s has %d members after the seed, want 2", prod, n)
	}

	daffy := acmeUsers[3].UserID
	daffyProd := telemetryhub.Membership{UserID: daffy, ServiceGroupID: prod, GrantedAt: time.Date(2025, 2, 14, 16, 45, 30, 250_000_000, time.UTC)}
	params := telemetryhub.GrantServiceGroupParams{Membership: &daffyProd, AccountID: acme.AccountID}
	if err := s.GrantServiceGroup(ctx, params); err != nil {
		t.Fatalf("GrantServiceGroup: %v", err)
	}
	if n := members(t, s, prod); n != 3 {
		t.Errorf("%s has %d members after the grant, want 3", prod, n)
	}
	// Granting it again is refused at step 2 (create Membership), keeps the
	// first grant's date and counts nothing.
	later := daffyProd
	later.GrantedAt = daffyProd.GrantedAt.Add(time.Hour)
	again := params
	again.Membership = &later
	stepFailed(t, "GrantServiceGroup of an existing membership", s.GrantServiceGroup(ctx, again), 2, telemetryhub.ErrAlreadyExists, true)
	if n := members(t, s, prod); n != 3 {
		t.Errorf("%s has %d members after a refused grant, want 3", prod, n)
	}

	r, err := s.ServiceGroupsOfUser(ctx, daffy, telemetryhub.Page{})
	if err != nil {
		t.Fatal(err)
	}
	checkMemberships(t, "ServiceGroupsOfUser after the grant", r.Items, []telemetryhub.Membership{daffyProd})
	u, err := s.UsersOfServiceGroup(ctx, prod, telemetryhub.Page{})
	if err != nil {
		t.Fatal(err)
	}
	want := append(usersOf(prod), daffyProd) // usr-0004 sorts last
	checkMemberships(t, "UsersOfServiceGroup after the grant", u.Items, want)

	// Grants the transaction refuses, writing no membership and counting
	// nothing: a user who does not exist (step 1, check User); a user of
	// another account, who is no user of the account given (step 1), or
	// whose account has no such group (step 3, update ServiceGroup); a
	// group that does not exist (step 3).
	hank := globexUsers[0].UserID
	for _, c := range []struct {
		what    string
		user    string
		group   string
		account string
		step    int
	}{
		{"a missing user", "usr-9999", prod, acme.AccountID, 1},
		{"a user of another account, under acme", hank, prod, acme.AccountID, 1},
		{"a group of another account, under globex", hank, prod, globex.AccountID, 3},
		{"a missing group", daffy, "sg-none-00", acme.AccountID, 3},
	} {
		m := telemetryhub.Membership{UserID: c.user, ServiceGroupID: c.group, GrantedAt: daffyProd.GrantedAt}
		err := s.GrantServiceGroup(ctx, telemetryhub.GrantServiceGroupParams{Membership: &m, AccountID: c.account})
		stepFailed(t, "GrantServiceGroup of "+c.what, err, c.step, telemetryhub.ErrNotFound, true)
		r, err := s.ServiceGroupsOfUser(ctx, c.user, telemetryhub.Page{})
		if err != nil {
			t.Fatal(err)
		}
		if slices.ContainsFunc(r.Items, func(m telemetryhub.Membership) bool { return m.ServiceGroupID == c.group }) {
			t.Errorf("GrantServiceGroup of %s wrote the membership", c.what)
		}
	}
	if n := members(t, s, prod); n != 3 {
		t.Errorf("%s has %d members after the refused grants, want 3", prod, n)
	}
	// A key value holding the separator is refused before the call.
	bad := telemetryhub.GrantServiceGroupParams{Membership: &telemetryhub.Membership{UserID: "usr:0004", ServiceGroupID: prod}, AccountID: acme.AccountID}
	stepFailed(t, "GrantServiceGroup with ':' in the user id", s.GrantServiceGroup(ctx, bad), 1, telemetryhub.ErrInvalidKey, false)

	// Revoke it: gone both ways, and counted.
	revoke := telemetryhub.RevokeServiceGroupParams{UserID: daffy, ServiceGroupID: prod, AccountID: acme.AccountID}
	if err := s.RevokeServiceGroup(ctx, revoke); err != nil {
		t.Fatalf("RevokeServiceGroup: %v", err)
	}
	if n := members(t, s, prod); n != 2 {
		t.Errorf("%s has %d members after the revoke, want 2", prod, n)
	}
	// Revoking again: the delete's condition (the membership exists) fails
	// at step 1, and the count stays. Without the condition, deleting no
	// membership would still take one from the count.
	stepFailed(t, "RevokeServiceGroup of a revoked membership", s.RevokeServiceGroup(ctx, revoke), 1, telemetryhub.ErrConditionFailed, true)
	if n := members(t, s, prod); n != 2 {
		t.Errorf("%s has %d members after revoking twice, want 2", prod, n)
	}
	r, err = s.ServiceGroupsOfUser(ctx, daffy, telemetryhub.Page{})
	if err != nil {
		t.Fatal(err)
	}
	checkMemberships(t, "ServiceGroupsOfUser after the revoke", r.Items, nil)
	u, err = s.UsersOfServiceGroup(ctx, prod, telemetryhub.Page{})
	if err != nil {
		t.Fatal(err)
	}
	checkMemberships(t, "UsersOfServiceGroup after the revoke", u.Items, usersOf(prod))

	// A revoke naming the wrong account finds no group to count down at
	// step 2: the membership stays.
	wrong := telemetryhub.RevokeServiceGroupParams{UserID: "usr-0002", ServiceGroupID: prod, AccountID: globex.AccountID}
	stepFailed(t, "RevokeServiceGroup under another account", s.RevokeServiceGroup(ctx, wrong), 2, telemetryhub.ErrNotFound, true)
	r, err = s.ServiceGroupsOfUser(ctx, "usr-0002", telemetryhub.Page{})
	if err != nil {
		t.Fatal(err)
	}
	checkMemberships(t, "ServiceGroupsOfUser usr-0002 after a refused revoke", r.Items, groupsOf("usr-0002"))

	// Revoking one of several grants leaves the others.
	if err := s.RevokeServiceGroup(ctx, telemetryhub.RevokeServiceGroupParams{UserID: "usr-0001", ServiceGroupID: "sg-dev-41", AccountID: acme.AccountID}); err != nil {
		t.Fatal(err)
	}
	r, err = s.ServiceGroupsOfUser(ctx, "usr-0001", telemetryhub.Page{})
	if err != nil {
		t.Fatal(err)
	}
	checkMemberships(t, "ServiceGroupsOfUser usr-0001 after revoking dev", r.Items, groupsOf("usr-0001")[1:])
	u, err = s.UsersOfServiceGroup(ctx, "sg-dev-41", telemetryhub.Page{})
	if err != nil {
		t.Fatal(err)
	}
	checkMemberships(t, "UsersOfServiceGroup dev after revoking usr-0001", u.Items, usersOf("sg-dev-41")[1:])

	// The account's own data: its users untouched, each group counting its
	// memberships.
	ad, err := s.AccountData(ctx, acme.AccountID, telemetryhub.Page{})
	if err != nil {
		t.Fatal(err)
	}
	checkUsers(t, "AccountData users after the grants", ad.Users, acmeUsers)
	wantGroups := counted(acmeGroups)
	wantGroups[0].Members-- // dev, without usr-0001
	checkGroups(t, "AccountData groups after the grants", ad.ServiceGroups, wantGroups)
}

// TestGrantCountsConcurrently grants one group to many users at once: the
// transactions on the one group item either succeed or fail whole, so the
// count is the number of memberships written.
func TestGrantCountsConcurrently(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	if err := s.CreateServiceGroup(ctx, &acmeGroups[0]); err != nil {
		t.Fatal(err)
	}
	const n = 12
	for i := range n {
		u := telemetryhub.User{AccountID: acme.AccountID, UserID: fmt.Sprintf("usr-%04d", 500+i), FirstName: "U", LastName: "Ser", Role: "viewer", CreatedAt: signup}
		if err := s.CreateUser(ctx, &u); err != nil {
			t.Fatal(err)
		}
	}
	group := acmeGroups[0].ServiceGroupID
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			m := telemetryhub.Membership{UserID: fmt.Sprintf("usr-%04d", 500+i), ServiceGroupID: group, GrantedAt: signup}
			errs[i] = s.GrantServiceGroup(ctx, telemetryhub.GrantServiceGroupParams{Membership: &m, AccountID: acme.AccountID})
		})
	}
	wg.Wait()
	granted := 0
	for i, err := range errs {
		switch {
		case err == nil:
			granted++
		case errors.Is(err, telemetryhub.ErrTransactionConflict):
			t.Logf("grant %d: %v", i, err)
		default:
			t.Errorf("grant %d: %v", i, err)
		}
	}
	if granted == 0 {
		t.Fatal("no grant succeeded")
	}
	r, err := s.UsersOfServiceGroup(ctx, group, telemetryhub.Page{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Items) != granted {
		t.Errorf("%d grants succeeded, %d memberships written", granted, len(r.Items))
	}
	if got := members(t, s, group); got != int64(granted) {
		t.Errorf("%s counts %d members, %d memberships written", group, got, granted)
	}
}

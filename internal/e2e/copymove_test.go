package e2e

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"sort"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// An update that sets an attribute of a copy's key (ChangeCustomerEmail,
// MoveCustomerToGold) reads the whole item, then, in one transaction,
// updates it conditioned on the item being as read, deletes the copy read
// and creates the new one from the item read with the update applied.

// afterGet is a client that runs then once, after the first GetItem it
// passes: a write of another caller between a method's read and its
// transaction, made at one point and no other.
type afterGet struct {
	Client
	once sync.Once
	then func()
}

func (c *afterGet) GetItem(ctx context.Context, in *dynamodb.GetItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	out, err := c.Client.GetItem(ctx, in, optFns...)
	c.once.Do(c.then)
	return out, err
}

// sameCopy checks that customer id and its copy by email are one item:
// the copy of the customer's email, read by the copy, decodes to what
// the customer's item decodes to, and is in no index.
func sameCopy(t *testing.T, s *Store, c *dynamodb.Client, id string) *Customer {
	t.Helper()
	ctx := context.Background()
	item, err := s.GetCustomer(ctx, id)
	if err != nil {
		t.Fatalf("GetCustomer %s: %v", id, err)
	}
	cp, err := s.CustomerByEmail(ctx, item.Email)
	if err != nil {
		t.Fatalf("CustomerByEmail %s (of %s): %v", item.Email, id, err)
	}
	if !reflect.DeepEqual(item, cp) {
		t.Errorf("the copy of %s reads %+v; the item %+v", id, cp, item)
	}
	if raw := copyOf(t, s, c, item.Email); raw["GSI1PK"] != nil {
		t.Errorf("the copy of %s holds GSI1PK: %v", id, raw)
	}
	return item
}

// putStored writes item, of string attributes (and an empty prefs map
// when withPrefs), with the raw client: an item as older code, or
// another tool, left it.
func putStored(t *testing.T, s *Store, c *dynamodb.Client, withPrefs bool, kv ...string) {
	t.Helper()
	item := map[string]types.AttributeValue{}
	for i := 0; i+1 < len(kv); i += 2 {
		item[kv[i]] = &types.AttributeValueMemberS{Value: kv[i+1]}
	}
	if withPrefs {
		item["prefs"] = &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{}}
	}
	_, err := c.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String(s.mainTable), Item: item})
	must(t, err)
}

// storedCustomer writes customer id of email, stored without a copy,
// nick or visits, with the raw client.
func storedCustomer(t *testing.T, s *Store, c *dynamodb.Client, id, email, name string) {
	t.Helper()
	putStored(t, s, c, true, "PK", "CUSTOMER#"+id, "SK", "CUSTOMER#"+id, "_type", "Customer", "customerId", id, "email", email,
		"name", name, "tier", "basic", "GSI1PK", "TIER#basic", "GSI1SK", "CUSTOMER#"+id)
}

func TestCopyMoveUpdate(t *testing.T) {
	ctx := context.Background()
	s, c := newStore(t, nil)
	nick := "A"
	must(t, s.CreateCustomer(ctx, &Customer{CustomerID: "m1", Email: "a@example.com", Name: "Ann", Tier: CustomerTierBasic, Tags: []string{"old"}, Prefs: map[string]string{"lang": "en"}, Nick: &nick, Visits: 3}))

	// The email changes: the copy moves, built from the item read with
	// the update applied (tags set, nick removed), the rest kept.
	must(t, s.ChangeCustomerEmail(ctx, ChangeCustomerEmailParams{CustomerID: "m1", Email: "b@example.com", Tags: []string{"new"}}))
	if raw := copyOf(t, s, c, "a@example.com"); raw != nil {
		t.Errorf("the copy of the old email is still there: %v", raw)
	}
	got := sameCopy(t, s, c, "m1")
	want := &Customer{CustomerID: "m1", Email: "b@example.com", Name: "Ann", Tier: CustomerTierBasic, Tags: []string{"new"}, Prefs: map[string]string{"lang": "en"}, Visits: 3}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("after ChangeCustomerEmail: %+v; want %+v", got, want)
	}

	// The same email: the copy takes the same update where it is.
	must(t, s.ChangeCustomerEmail(ctx, ChangeCustomerEmailParams{CustomerID: "m1", Email: "b@example.com", Tags: []string{"x", "y"}}))
	if got := sameCopy(t, s, c, "m1"); len(got.Tags) != 2 {
		t.Errorf("tags after an update keeping the email: %v", got.Tags)
	}

	// A constant in the update (tier: gold) reaches the copy, and the
	// item's index key, not the copy's.
	must(t, s.MoveCustomerToGold(ctx, MoveCustomerToGoldParams{CustomerID: "m1", Email: "g@example.com"}))
	if got := sameCopy(t, s, c, "m1"); got.Tier != CustomerTierGold || got.Email != "g@example.com" {
		t.Errorf("after MoveCustomerToGold: %+v", got)
	}
	page, err := s.CustomersByTier(ctx, CustomerTierGold, Page{})
	must(t, err)
	if len(page.Items) != 1 || page.Items[0].CustomerID != "m1" {
		t.Errorf("CustomersByTier gold: %+v", page.Items)
	}

	// Another customer's email: the copy's key is taken, and nothing
	// changes.
	must(t, s.CreateCustomer(ctx, &Customer{CustomerID: "m2", Email: "taken@example.com", Name: "Bo", Tier: CustomerTierBasic}))
	err = s.ChangeCustomerEmail(ctx, ChangeCustomerEmailParams{CustomerID: "m1", Email: "taken@example.com"})
	var te *TransactionError
	if !errors.Is(err, ErrAlreadyExists) || !errors.As(err, &te) || te.Action != copyAction {
		t.Errorf("ChangeCustomerEmail to a taken email: %v; want ErrAlreadyExists from %q", err, copyAction)
	}
	if got := sameCopy(t, s, c, "m1"); got.Email != "g@example.com" {
		t.Errorf("the failed change wrote email %s", got.Email)
	}
	if got := sameCopy(t, s, c, "m2"); got.Name != "Bo" {
		t.Errorf("the failed change wrote the other customer: %+v", got)
	}

	// No item: ErrNotFound, nothing written.
	if err := s.ChangeCustomerEmail(ctx, ChangeCustomerEmailParams{CustomerID: "none", Email: "n@example.com"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("ChangeCustomerEmail of no item: %v; want ErrNotFound", err)
	}
	if raw := copyOf(t, s, c, "n@example.com"); raw != nil {
		t.Errorf("ChangeCustomerEmail of no item wrote a copy: %v", raw)
	}
}

// TestCopyMoveStoredWithout: an item stored without an optional
// attribute and without one that has a default (as older code wrote it)
// is held as read by attribute_not_exists, and its copy moves.
func TestCopyMoveStoredWithout(t *testing.T) {
	ctx := context.Background()
	s, c := newStore(t, nil)
	storedCustomer(t, s, c, "w1", "w@example.com", "W")
	putStored(t, s, c, true, "PK", "CUSTEMAIL#w@example.com", "SK", "CUSTEMAIL#w@example.com", "_type", "Customer@ByEmail",
		"customerId", "w1", "email", "w@example.com", "name", "W", "tier", "basic")
	must(t, s.ChangeCustomerEmail(ctx, ChangeCustomerEmailParams{CustomerID: "w1", Email: "w2@example.com"}))
	if got := sameCopy(t, s, c, "w1"); got.Email != "w2@example.com" || got.Visits != 5 || got.Nick != nil {
		t.Errorf("after the move: %+v", got)
	}
	// The new copy lacks visits as the item does, rather than store the
	// default 5 a read gives: an add then gives both one value.
	if raw := copyOf(t, s, c, "w2@example.com"); raw["visits"] != nil {
		t.Errorf("the new copy stores visits, which the item lacks: %v", raw["visits"])
	}
	must(t, s.CountCustomerVisit(ctx, CountCustomerVisitParams{CustomerID: "w1", Visits: 1}))
	sameCopy(t, s, c, "w1")
}

// TestCopyMoveChangedBetween: another caller's write between the read
// and the transaction (of an attribute the item read holds, or of one it
// lacks) fails the update with ErrConditionFailed: the copy it would
// have built would not be the item. Nothing the update would write is
// written, and the other write stands, copy included.
func TestCopyMoveChangedBetween(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name    string
		between func(s *Store) error
		check   func(c *Customer) bool
	}{
		{"a value read", func(s *Store) error {
			return s.SetCustomerPref(ctx, SetCustomerPrefParams{CustomerID: "r1", Key: "lang", PrefsValue: "de"})
		}, func(c *Customer) bool { return c.Prefs["lang"] == "de" }},
		{"an attribute the item read lacks", func(s *Store) error {
			nick := "late"
			return s.PutCustomer(ctx, &Customer{CustomerID: "r1", Email: "r@example.com", Name: "R", Tier: CustomerTierBasic, Prefs: map[string]string{"lang": "en"}, Nick: &nick})
		}, func(c *Customer) bool { return c.Nick != nil && *c.Nick == "late" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var other *Store
			s, c, opts := newStoreOpts(t, func(next Client) Client {
				return &afterGet{Client: next, then: func() {
					if err := tc.between(other); err != nil {
						t.Errorf("the write between: %v", err)
					}
				}}
			})
			other = New(c, opts...)
			must(t, other.CreateCustomer(ctx, &Customer{CustomerID: "r1", Email: "r@example.com", Name: "R", Tier: CustomerTierBasic, Prefs: map[string]string{"lang": "en"}}))
			err := s.ChangeCustomerEmail(ctx, ChangeCustomerEmailParams{CustomerID: "r1", Email: "r2@example.com", Tags: []string{"t"}})
			var te *TransactionError
			if !errors.Is(err, ErrConditionFailed) || !errors.As(err, &te) || te.Step != 1 {
				t.Fatalf("ChangeCustomerEmail after a write between: %v; want ErrConditionFailed from step 1", err)
			}
			got := sameCopy(t, other, c, "r1")
			if got.Email != "r@example.com" || len(got.Tags) != 0 || !tc.check(got) {
				t.Errorf("after the failed update: %+v", got)
			}
			if raw := copyOf(t, other, c, "r2@example.com"); raw != nil {
				t.Errorf("the failed update wrote the new copy: %v", raw)
			}
		})
	}
}

// copyItems returns, by email, the customer each copy item of the table
// holds (its customerId), read with a consistent Scan.
func copyItems(t *testing.T, s *Store, c *dynamodb.Client) map[string]string {
	t.Helper()
	out := map[string]string{}
	var start map[string]types.AttributeValue
	for {
		page, err := c.Scan(context.Background(), &dynamodb.ScanInput{
			TableName: aws.String(s.mainTable), ConsistentRead: aws.Bool(true), ExclusiveStartKey: start,
			FilterExpression:          aws.String("#t = :t"),
			ExpressionAttributeNames:  map[string]string{"#t": "_type"},
			ExpressionAttributeValues: map[string]types.AttributeValue{":t": &types.AttributeValueMemberS{Value: "Customer@ByEmail"}},
		})
		must(t, err)
		for _, it := range page.Items {
			email := it["email"].(*types.AttributeValueMemberS).Value
			out[email] = it["customerId"].(*types.AttributeValueMemberS).Value
		}
		if page.LastEvaluatedKey == nil {
			return out
		}
		start = page.LastEvaluatedKey
	}
}

// checkCopies checks that the copies of the table are exactly one per
// customer of ids, under its email, each reading what its item reads.
func checkCopies(t *testing.T, s *Store, c *dynamodb.Client, ids []string) {
	t.Helper()
	want := map[string]string{}
	for _, id := range ids {
		item, err := s.GetCustomer(context.Background(), id)
		if errors.Is(err, ErrNotFound) {
			continue
		}
		must(t, err)
		want[item.Email] = id
		sameCopy(t, s, c, id)
	}
	if got := copyItems(t, s, c); !reflect.DeepEqual(got, want) {
		t.Errorf("copies by email: %v; want %v", got, want)
	}
}

// TestCopyMoveProperty runs seeded random writes of four customers over
// five emails (creates, puts, updates that move the copy or keep it,
// map entries, deletes) and checks after each that the copies are
// exactly one per customer, holding what its item holds.
func TestCopyMoveProperty(t *testing.T) {
	ctx := context.Background()
	s, c := newStore(t, nil)
	ids := []string{"p0", "p1", "p2", "p3"}
	rng := rand.New(rand.NewPCG(19, 9))
	email := func() string { return fmt.Sprintf("e%d@example.com", rng.IntN(5)) }
	tags := func() []string {
		var out []string
		for i := range rng.IntN(3) {
			out = append(out, fmt.Sprintf("t%d", i+rng.IntN(2)))
		}
		sort.Strings(out)
		return out
	}
	nick := func() *string {
		if rng.IntN(2) == 0 {
			return nil
		}
		n := fmt.Sprintf("n%d", rng.IntN(3))
		return &n
	}
	for step := range 150 {
		id := ids[rng.IntN(len(ids))]
		var err error
		var op string
		switch k := rng.IntN(8); k {
		case 0:
			op = "create"
			err = s.CreateCustomer(ctx, &Customer{CustomerID: id, Email: email(), Name: "c", Tier: CustomerTierBasic, Tags: tags(), Nick: nick(), Prefs: map[string]string{}})
		case 1:
			op = "put"
			err = s.PutCustomer(ctx, &Customer{CustomerID: id, Email: email(), Name: "p", Tier: CustomerTierGold, Tags: tags(), Nick: nick(), Prefs: map[string]string{"k": "v"}, Visits: int64(rng.IntN(9))})
		case 2, 3:
			op = "change email"
			err = s.ChangeCustomerEmail(ctx, ChangeCustomerEmailParams{CustomerID: id, Email: email(), Tags: tags()})
		case 4:
			op = "move to gold"
			err = s.MoveCustomerToGold(ctx, MoveCustomerToGoldParams{CustomerID: id, Email: email()})
		case 5:
			op = "rename"
			// An add of no elements is refused: add one at least.
			err = s.RenameCustomer(ctx, RenameCustomerParams{CustomerID: id, Name: fmt.Sprintf("r%d", step), Tier: CustomerTierBasic, Tags: append(tags(), "r")})
		case 6:
			op = "set pref"
			err = s.SetCustomerPref(ctx, SetCustomerPrefParams{CustomerID: id, Key: fmt.Sprintf("k%d", rng.IntN(3)), PrefsValue: "v"})
		default:
			op = "delete"
			err = s.DeleteCustomer(ctx, id)
		}
		// A taken email, a customer that exists (create) or does not
		// (updates): nothing written. Nothing else may fail alone.
		if err != nil && !errors.Is(err, ErrAlreadyExists) && !errors.Is(err, ErrNotFound) {
			t.Fatalf("step %d, %s %s: %v", step, op, id, err)
		}
		checkCopies(t, s, c, ids)
		if t.Failed() {
			t.Fatalf("after step %d, %s %s (%v)", step, op, id, err)
		}
	}
}

// TestCopyMoveConcurrent races 16 email changes of one customer and 16
// writes of a map entry: each change succeeds, or fails with nothing
// written because another write came between its read and its
// transaction; at the end the customer has one copy, under the email
// the item holds, holding what the item holds.
func TestCopyMoveConcurrent(t *testing.T) {
	ctx := context.Background()
	s, c := newStore(t, nil)
	must(t, s.CreateCustomer(ctx, &Customer{CustomerID: "k1", Email: "k@example.com", Name: "K", Tier: CustomerTierBasic, Prefs: map[string]string{}}))
	const n = 16
	errs := make([]error, 2*n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			errs[i] = s.ChangeCustomerEmail(ctx, ChangeCustomerEmailParams{CustomerID: "k1", Email: fmt.Sprintf("k%d@example.com", i)})
		})
		wg.Go(func() {
			errs[n+i] = s.SetCustomerPref(ctx, SetCustomerPrefParams{CustomerID: "k1", Key: fmt.Sprintf("p%d", i), PrefsValue: "v"})
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil && !errors.Is(err, ErrConditionFailed) && !errors.Is(err, ErrTransactionConflict) {
			t.Errorf("write %d: %v; want nil, ErrConditionFailed or ErrTransactionConflict", i, err)
		}
	}
	checkCopies(t, s, c, []string{"k1"})
	// The entries the map holds are those whose writes succeeded.
	item, err := s.GetCustomer(ctx, "k1")
	must(t, err)
	for i := range n {
		if _, ok := item.Prefs[fmt.Sprintf("p%d", i)]; ok != (errs[n+i] == nil) {
			t.Errorf("entry p%d: held %v, write error %v", i, ok, errs[n+i])
		}
	}
}

// TestCopyOfAnother: two customers share an email, one with its copy,
// the other stored without (written before the copy was declared). The
// writes of the second one, which would delete, replace or update the
// copy of its email, find it is the first one's: ErrConditionFailed,
// and nothing written.
func TestCopyOfAnother(t *testing.T) {
	ctx := context.Background()
	s, c := newStore(t, nil)
	must(t, s.CreateCustomer(ctx, &Customer{CustomerID: "a1", Email: "shared@example.com", Name: "A", Tier: CustomerTierBasic, Prefs: map[string]string{}}))
	storedCustomer(t, s, c, "b1", "shared@example.com", "B")
	for _, tc := range []struct {
		name, action string
		write        func() error
	}{
		{"move", "delete copy Customer.ByEmail", func() error {
			return s.ChangeCustomerEmail(ctx, ChangeCustomerEmailParams{CustomerID: "b1", Email: "b@example.com"})
		}},
		{"put", "replace copy Customer.ByEmail", func() error {
			return s.PutCustomer(ctx, &Customer{CustomerID: "b1", Email: "shared@example.com", Name: "B2", Tier: CustomerTierGold, Prefs: map[string]string{}})
		}},
		{"update", "update copy Customer.ByEmail", func() error {
			return s.RenameCustomer(ctx, RenameCustomerParams{CustomerID: "b1", Name: "B3", Tier: CustomerTierGold, Tags: []string{"t"}})
		}},
		{"delete", "delete copy Customer.ByEmail", func() error { return s.DeleteCustomer(ctx, "b1") }},
	} {
		err := tc.write()
		var te *TransactionError
		if !errors.Is(err, ErrConditionFailed) || !errors.As(err, &te) || te.Action != tc.action {
			t.Errorf("%s of the customer without a copy: %v; want ErrConditionFailed from %q", tc.name, err, tc.action)
		}
		if got := sameCopy(t, s, c, "a1"); got.Name != "A" || got.Email != "shared@example.com" {
			t.Errorf("after the %s, the copy of a1: %+v", tc.name, got)
		}
		if b, err := s.GetCustomer(ctx, "b1"); err != nil || b.Name != "B" || b.Email != "shared@example.com" {
			t.Errorf("after the %s, b1: %+v, %v", tc.name, b, err)
		}
	}
}

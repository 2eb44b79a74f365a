package e2e

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// copyAction is the action of the step that creates a customer's copy by
// email.
const copyAction = "copy Customer.ByEmail"

// consistentItem reads the item of key pk, sk with the raw client (consistent),
// or nil.
func consistentItem(t *testing.T, s *Store, c *dynamodb.Client, pk, sk string) map[string]types.AttributeValue {
	t.Helper()
	out, err := c.GetItem(context.Background(), &dynamodb.GetItemInput{
		TableName:      aws.String(s.mainTable),
		Key:            map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: pk}, "SK": &types.AttributeValueMemberS{Value: sk}},
		ConsistentRead: aws.Bool(true),
	})
	if err != nil {
		t.Fatalf("GetItem %s %s: %v", pk, sk, err)
	}
	return out.Item
}

// copyOf returns the raw copy item of email, or nil.
func copyOf(t *testing.T, s *Store, c *dynamodb.Client, email string) map[string]types.AttributeValue {
	t.Helper()
	return consistentItem(t, s, c, "CUSTEMAIL#"+email, "CUSTEMAIL#"+email)
}

func TestCopiesLifecycle(t *testing.T) {
	ctx := context.Background()
	s, c := newStore(t, nil)
	cu := &Customer{CustomerID: "c1", Email: "ann@example.com", Name: "Ann", Tier: CustomerTierGold, Tags: []string{"vip"}}
	if err := s.CreateCustomer(ctx, cu); err != nil {
		t.Fatal(err)
	}
	// The copy holds the whole item, read strongly consistent by email.
	got, err := s.CustomerByEmail(ctx, "ann@example.com")
	if err != nil {
		t.Fatal(err)
	}
	if got.CustomerID != "c1" || got.Name != "Ann" || got.Tier != CustomerTierGold || len(got.Tags) != 1 || got.Tags[0] != "vip" {
		t.Errorf("CustomerByEmail: %+v", got)
	}
	cp := copyOf(t, s, c, "ann@example.com")
	if v, ok := cp["_type"].(*types.AttributeValueMemberS); !ok || v.Value != "Customer@ByEmail" {
		t.Errorf("copy's _type: %#v", cp["_type"])
	}
	// The copy is in no secondary index: it holds no GSI1 key, and the
	// query by tier finds the customer once.
	if _, ok := cp["GSI1PK"]; ok {
		t.Errorf("the copy holds GSI1PK: %v", cp)
	}
	page, err := s.CustomersByTier(ctx, CustomerTierGold, Page{})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Items) != 1 || page.Items[0].CustomerID != "c1" {
		t.Errorf("CustomersByTier: %+v", page.Items)
	}
	out, err := c.Query(ctx, &dynamodb.QueryInput{
		TableName: aws.String(s.mainTable), IndexName: aws.String("GSI1"),
		KeyConditionExpression:    aws.String("GSI1PK = :pk"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": &types.AttributeValueMemberS{Value: "TIER#gold"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if out.Count != 1 {
		t.Errorf("GSI1 holds %d items of tier gold; want 1 (the copy is in no index)", out.Count)
	}

	// A put with the same email replaces the copy.
	cu.Name = "Ann B"
	if err := s.PutCustomer(ctx, cu); err != nil {
		t.Fatal(err)
	}
	if got, err := s.CustomerByEmail(ctx, "ann@example.com"); err != nil || got.Name != "Ann B" {
		t.Errorf("CustomerByEmail after a put: %+v, %v", got, err)
	}

	// A put of another email moves the copy: the old key is gone, the
	// new one holds the item.
	cu.Email = "ann@example.org"
	if err := s.PutCustomer(ctx, cu); err != nil {
		t.Fatal(err)
	}
	if cp := copyOf(t, s, c, "ann@example.com"); cp != nil {
		t.Errorf("the copy of the old email is still there: %v", cp)
	}
	if _, err := s.CustomerByEmail(ctx, "ann@example.com"); !errors.Is(err, ErrNotFound) {
		t.Errorf("CustomerByEmail of the old email: %v; want ErrNotFound", err)
	}
	if got, err := s.CustomerByEmail(ctx, "ann@example.org"); err != nil || got.CustomerID != "c1" || got.Email != "ann@example.org" {
		t.Errorf("CustomerByEmail of the new email: %+v, %v", got, err)
	}

	// A delete removes the item and its copy.
	if err := s.DeleteCustomer(ctx, "c1"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GetCustomer(ctx, "c1"); !errors.Is(err, ErrNotFound) {
		t.Errorf("GetCustomer after the delete: %v", err)
	}
	if cp := copyOf(t, s, c, "ann@example.org"); cp != nil {
		t.Errorf("the copy is still there after the delete: %v", cp)
	}
	// Deleting what is not there is no error.
	if err := s.DeleteCustomer(ctx, "c1"); err != nil {
		t.Errorf("DeleteCustomer of no item: %v", err)
	}
}

func TestCopiesTakenKey(t *testing.T) {
	ctx := context.Background()
	s, c := newStore(t, nil)
	if err := s.CreateCustomer(ctx, &Customer{CustomerID: "c1", Email: "same@example.com", Name: "A", Tier: CustomerTierBasic}); err != nil {
		t.Fatal(err)
	}
	taken := func(err error) {
		t.Helper()
		var te *TransactionError
		if !errors.As(err, &te) || te.Action != copyAction {
			t.Fatalf("error %v is no failure of the step %q", err, copyAction)
		}
		if !errors.Is(err, ErrAlreadyExists) {
			t.Errorf("error %v is not ErrAlreadyExists", err)
		}
	}
	// A create whose copy's key is taken writes nothing.
	taken(s.CreateCustomer(ctx, &Customer{CustomerID: "c2", Email: "same@example.com", Name: "B", Tier: CustomerTierBasic}))
	if _, err := s.GetCustomer(ctx, "c2"); !errors.Is(err, ErrNotFound) {
		t.Errorf("GetCustomer c2 after a failed create: %v", err)
	}
	// So does a put over no item, and a put that moves the copy onto a
	// taken key.
	taken(s.PutCustomer(ctx, &Customer{CustomerID: "c2", Email: "same@example.com", Name: "B", Tier: CustomerTierBasic}))
	if err := s.CreateCustomer(ctx, &Customer{CustomerID: "c3", Email: "other@example.com", Name: "C", Tier: CustomerTierBasic}); err != nil {
		t.Fatal(err)
	}
	taken(s.PutCustomer(ctx, &Customer{CustomerID: "c3", Email: "same@example.com", Name: "C", Tier: CustomerTierBasic}))
	if got, err := s.CustomerByEmail(ctx, "other@example.com"); err != nil || got.CustomerID != "c3" {
		t.Errorf("CustomerByEmail other@ after a failed move: %+v, %v", got, err)
	}
	if got, err := s.CustomerByEmail(ctx, "same@example.com"); err != nil || got.CustomerID != "c1" || got.Name != "A" {
		t.Errorf("CustomerByEmail same@ after failed writes: %+v, %v", got, err)
	}
	if cp := copyOf(t, s, c, "same@example.com"); cp == nil {
		t.Error("the copy of c1 is gone")
	}
	// A create of an existing customer fails on its own step.
	err := s.CreateCustomer(ctx, &Customer{CustomerID: "c1", Email: "new@example.com", Name: "A", Tier: CustomerTierBasic})
	var te *TransactionError
	if !errors.As(err, &te) || te.Step != 1 || !errors.Is(err, ErrAlreadyExists) {
		t.Errorf("CreateCustomer of an existing key: %v; want ErrAlreadyExists from step 1", err)
	}
	if cp := copyOf(t, s, c, "new@example.com"); cp != nil {
		t.Errorf("a failed create wrote a copy: %v", cp)
	}
}

func TestCopiesUpdate(t *testing.T) {
	ctx := context.Background()
	s, c := newStore(t, nil)
	if err := s.CreateCustomer(ctx, &Customer{CustomerID: "c1", Email: "bo@example.com", Name: "Bo", Tier: CustomerTierBasic}); err != nil {
		t.Fatal(err)
	}
	// The update is applied to the item and to its copy: the copy reads
	// what the item holds, and stays out of the index the new tier keys.
	if err := s.RenameCustomer(ctx, RenameCustomerParams{CustomerID: "c1", Name: "Bo B", Tier: CustomerTierGold, Tags: []string{"new"}}); err != nil {
		t.Fatal(err)
	}
	item, err := s.GetCustomer(ctx, "c1")
	if err != nil {
		t.Fatal(err)
	}
	cp, err := s.CustomerByEmail(ctx, "bo@example.com")
	if err != nil {
		t.Fatal(err)
	}
	if cp.Name != "Bo B" || cp.Tier != CustomerTierGold || len(cp.Tags) != 1 || cp.Tags[0] != "new" {
		t.Errorf("the copy after the update: %+v", cp)
	}
	if cp.Name != item.Name || cp.Tier != item.Tier || len(cp.Tags) != len(item.Tags) {
		t.Errorf("the copy %+v differs from the item %+v", cp, item)
	}
	if raw := copyOf(t, s, c, "bo@example.com"); raw["GSI1PK"] != nil {
		t.Errorf("the update wrote GSI1PK into the copy: %v", raw)
	}
	page, err := s.CustomersByTier(ctx, CustomerTierGold, Page{})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Items) != 1 {
		t.Errorf("CustomersByTier gold: %d items; want 1", len(page.Items))
	}
	// No item: ErrNotFound, and nothing written.
	if err := s.RenameCustomer(ctx, RenameCustomerParams{CustomerID: "none", Name: "x", Tier: CustomerTierBasic, Tags: []string{"t"}}); !errors.Is(err, ErrNotFound) {
		t.Errorf("RenameCustomer of no item: %v; want ErrNotFound", err)
	}
	if raw := consistentItem(t, s, c, "CUSTOMER#none", "CUSTOMER#none"); raw != nil {
		t.Errorf("RenameCustomer of no item wrote %v", raw)
	}
}

// TestCopiesConcurrentCreate races 16 creates of customers with one
// email: exactly one wins, the others fail on the copy's step, and the
// copy holds the winner.
func TestCopiesConcurrentCreate(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t, nil)
	const n = 16
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			cu := &Customer{CustomerID: fmt.Sprintf("r%d", i), Email: "race@example.com", Name: "n", Tier: CustomerTierBasic}
			for {
				errs[i] = s.CreateCustomer(ctx, cu)
				// A conflict with another transaction changed nothing:
				// retry it.
				if !errors.Is(errs[i], ErrTransactionConflict) {
					return
				}
			}
		})
	}
	wg.Wait()
	winner := -1
	for i, err := range errs {
		switch {
		case err == nil && winner >= 0:
			t.Errorf("creates %d and %d both succeeded", winner, i)
		case err == nil:
			winner = i
		default:
			var te *TransactionError
			if !errors.As(err, &te) || te.Action != copyAction || !errors.Is(err, ErrAlreadyExists) {
				t.Errorf("create %d: %v; want ErrAlreadyExists from %q", i, err, copyAction)
			}
		}
	}
	if winner < 0 {
		t.Fatal("no create succeeded")
	}
	got, err := s.CustomerByEmail(ctx, "race@example.com")
	if err != nil || got.CustomerID != fmt.Sprintf("r%d", winner) {
		t.Errorf("CustomerByEmail: %+v, %v; want r%d", got, err, winner)
	}
	for i := range n {
		_, err := s.GetCustomer(ctx, fmt.Sprintf("r%d", i))
		if (i == winner) != (err == nil) {
			t.Errorf("GetCustomer r%d: %v", i, err)
		}
	}
}

// copyWrites writes a customer and its copy: create, update, an update
// and a put that move the copy, delete, each but the create reading first, and reads it by the
// copy and by tier; the IAM policy test records their calls.
func copyWrites(t *testing.T, s *Store) {
	t.Helper()
	ctx := t.Context()
	cu := &Customer{CustomerID: "iam", Email: "iam@x.org", Name: "I", Tier: CustomerTierBasic}
	must(t, s.CreateCustomer(ctx, cu))
	must(t, s.RenameCustomer(ctx, RenameCustomerParams{CustomerID: "iam", Name: "J", Tier: CustomerTierGold, Tags: []string{"t"}}))
	if _, err := s.CustomerByEmail(ctx, "iam@x.org"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CustomersByTier(ctx, CustomerTierGold, Page{}); err != nil {
		t.Fatal(err)
	}
	must(t, s.ChangeCustomerEmail(ctx, ChangeCustomerEmailParams{CustomerID: "iam", Email: "iam3@x.org"}))
	cu.Email = "iam2@x.org"
	must(t, s.PutCustomer(ctx, cu))
	must(t, s.DeleteCustomer(ctx, "iam"))
}

// TestCopiesPathUpdate: an update of a map's entry by a key the caller
// gives is applied to the copy too (the same SET or REMOVE on the
// copy's key, in one transaction), so the copy read by email holds what
// the item holds.
func TestCopiesPathUpdate(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t, nil)
	must(t, s.CreateCustomer(ctx, &Customer{CustomerID: "p1", Email: "pat@example.com", Name: "Pat", Tier: CustomerTierBasic}))
	both := func(want map[string]string) {
		t.Helper()
		item, err := s.GetCustomer(ctx, "p1")
		must(t, err)
		cp, err := s.CustomerByEmail(ctx, "pat@example.com")
		must(t, err)
		if !maps.Equal(item.Prefs, want) || !maps.Equal(cp.Prefs, want) {
			t.Errorf("prefs: item %v, copy %v, want %v", item.Prefs, cp.Prefs, want)
		}
	}
	must(t, s.SetCustomerPref(ctx, SetCustomerPrefParams{CustomerID: "p1", Key: "theme.dark#1", PrefsValue: "on"}))
	must(t, s.SetCustomerPref(ctx, SetCustomerPrefParams{CustomerID: "p1", Key: "lang", PrefsValue: "fr"}))
	both(map[string]string{"theme.dark#1": "on", "lang": "fr"})
	must(t, s.DropCustomerPref(ctx, DropCustomerPrefParams{CustomerID: "p1", Key: "lang"}))
	both(map[string]string{"theme.dark#1": "on"})
	var ie *ItemError
	if err := s.SetCustomerPref(ctx, SetCustomerPrefParams{CustomerID: "p1", Key: "", PrefsValue: "x"}); !errors.As(err, &ie) {
		t.Errorf("an empty key: %v, want an ItemError", err)
	}
	if err := s.SetCustomerPref(ctx, SetCustomerPrefParams{CustomerID: "nope", Key: "k", PrefsValue: "x"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("no customer: %v, want ErrNotFound", err)
	}
}

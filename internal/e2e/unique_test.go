package e2e

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// claimAction is the action of the step that claims an account's email.
const claimAction = "claim Account.email"

// claims counts the claim items of email in the Main table, by a Query
// of the raw client on the claim's partition.
func claims(t *testing.T, s *Store, c *dynamodb.Client, email string) int {
	t.Helper()
	out, err := c.Query(context.Background(), &dynamodb.QueryInput{
		TableName:                 aws.String(s.mainTable),
		KeyConditionExpression:    aws.String("PK = :pk"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": &types.AttributeValueMemberS{Value: "UNIQUE#Account#email#" + email}},
		ConsistentRead:            aws.Bool(true),
	})
	if err != nil {
		t.Fatalf("Query of the claims of %s: %v", email, err)
	}
	return int(out.Count)
}

// holder checks that AccountByEmail finds the account username by email,
// or none when username is "".
func holder(t *testing.T, s *Store, email, username string) {
	t.Helper()
	a, err := s.AccountByEmail(context.Background(), email)
	switch {
	case username == "" && !errors.Is(err, ErrNotFound):
		t.Errorf("AccountByEmail %s: %v, %v; want ErrNotFound", email, a, err)
	case username == "":
	case err != nil:
		t.Errorf("AccountByEmail %s: %v; want %s", email, err, username)
	case a.Username != username || a.Email != email:
		t.Errorf("AccountByEmail %s: %+v; want %s", email, a, username)
	}
}

// claimTaken checks that err is the failure of the claim of an email.
func claimTaken(t *testing.T, err error) {
	t.Helper()
	var te *TransactionError
	if !errors.As(err, &te) || te.Action != claimAction {
		t.Fatalf("error %v is no failure of the step %q", err, claimAction)
	}
	if !errors.Is(err, ErrAlreadyExists) {
		t.Errorf("error %v is not ErrAlreadyExists", err)
	}
}

func TestUniqueCreateConcurrent(t *testing.T) {
	ctx := context.Background()
	s, c := newStore(t, nil)
	const n = 16
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			a := &Account{Username: fmt.Sprintf("user%d", i), Email: "same@example.com", Name: "n"}
			for {
				errs[i] = s.CreateAccount(ctx, a)
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
		if err == nil {
			if winner >= 0 {
				t.Fatalf("users %d and %d both took the email", winner, i)
			}
			winner = i
			continue
		}
		claimTaken(t, err)
	}
	if winner < 0 {
		t.Fatal("no user took the email")
	}
	if got := claims(t, s, c, "same@example.com"); got != 1 {
		t.Errorf("%d claim items, want 1", got)
	}
	holder(t, s, "same@example.com", fmt.Sprintf("user%d", winner))
	for i := range n {
		_, err := s.GetAccount(ctx, fmt.Sprintf("user%d", i))
		if (i == winner) != (err == nil) {
			t.Errorf("GetAccount user%d: %v", i, err)
		}
	}
	// A taken username fails the create of the account, step 1.
	err := s.CreateAccount(ctx, &Account{Username: fmt.Sprintf("user%d", winner), Email: "other@example.com"})
	stepFailed(t, err, 1, ErrAlreadyExists)
	if got := claims(t, s, c, "other@example.com"); got != 0 {
		t.Errorf("%d claims of other@example.com after the failed create, want 0", got)
	}
}

func TestUniqueUpdateMovesTheClaim(t *testing.T) {
	ctx := context.Background()
	s, c := newStore(t, nil)
	for _, a := range []*Account{{Username: "ann", Email: "a@x.org"}, {Username: "bob", Email: "b@x.org"}} {
		if err := s.CreateAccount(ctx, a); err != nil {
			t.Fatal(err)
		}
	}
	// bob can't take ann's email.
	err := s.ChangeAccountEmail(ctx, ChangeAccountEmailParams{Username: "bob", Email: "a@x.org"})
	claimTaken(t, err)
	holder(t, s, "b@x.org", "bob")
	// ann moves: her old email is free again.
	if err := s.ChangeAccountEmail(ctx, ChangeAccountEmailParams{Username: "ann", Email: "a2@x.org"}); err != nil {
		t.Fatalf("ChangeAccountEmail: %v", err)
	}
	holder(t, s, "a2@x.org", "ann")
	holder(t, s, "a@x.org", "")
	if got := claims(t, s, c, "a@x.org"); got != 0 {
		t.Errorf("%d claims of the old email, want 0", got)
	}
	if err := s.ChangeAccountEmail(ctx, ChangeAccountEmailParams{Username: "bob", Email: "a@x.org"}); err != nil {
		t.Fatalf("bob takes the freed email: %v", err)
	}
	holder(t, s, "a@x.org", "bob")
	holder(t, s, "b@x.org", "")
	// Setting the same email sends no claim, and keeps it.
	if err := s.ChangeAccountEmail(ctx, ChangeAccountEmailParams{Username: "bob", Email: "a@x.org"}); err != nil {
		t.Fatalf("same email: %v", err)
	}
	holder(t, s, "a@x.org", "bob")
	// An update that does not set the email keeps the claims.
	if _, err := s.RenameAccount(ctx, RenameAccountParams{Username: "bob", Name: "Bob"}); err != nil {
		t.Fatalf("RenameAccount: %v", err)
	}
	holder(t, s, "a@x.org", "bob")
	// No account: ErrNotFound, and no claim taken.
	err = s.ChangeAccountEmail(ctx, ChangeAccountEmailParams{Username: "carl", Email: "c@x.org"})
	if !errors.Is(err, ErrNotFound) {
		t.Errorf("ChangeAccountEmail of no account: %v; want ErrNotFound", err)
	}
	if got := claims(t, s, c, "c@x.org"); got != 0 {
		t.Errorf("%d claims of c@x.org, want 0", got)
	}
}

func TestUniqueDeleteReleasesTheClaim(t *testing.T) {
	ctx := context.Background()
	s, c := newStore(t, nil)
	if err := s.CreateAccount(ctx, &Account{Username: "ann", Email: "a@x.org"}); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteAccount(ctx, "ann"); err != nil {
		t.Fatalf("DeleteAccount: %v", err)
	}
	if got := claims(t, s, c, "a@x.org"); got != 0 {
		t.Errorf("%d claims after the delete, want 0", got)
	}
	holder(t, s, "a@x.org", "")
	if err := s.DeleteAccount(ctx, "ann"); err != nil {
		t.Errorf("DeleteAccount of no account: %v; want no error", err)
	}
	if err := s.CreateAccount(ctx, &Account{Username: "bob", Email: "a@x.org"}); err != nil {
		t.Fatalf("bob takes the released email: %v", err)
	}
	holder(t, s, "a@x.org", "bob")
}

// changer is a Client that, once, runs change between a call's GetItem
// and its TransactWriteItems.
type changer struct {
	Client
	once   sync.Once
	change func()
}

func (c *changer) TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, optFns ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	if c.change != nil {
		c.once.Do(c.change)
	}
	return c.Client.TransactWriteItems(ctx, in, optFns...)
}

func TestUniqueConcurrentChange(t *testing.T) {
	ctx := context.Background()
	var ch *changer
	s, c := newStore(t, func(c Client) Client { ch = &changer{Client: c}; return ch })
	other := newChecked(t, c, WithMainTable(s.mainTable))
	if err := s.CreateAccount(ctx, &Account{Username: "ann", Email: "a@x.org"}); err != nil {
		t.Fatal(err)
	}
	// Another call moves ann to b@x.org between this call's read (which
	// saw a@x.org) and its transaction.
	ch.once = sync.Once{}
	ch.change = func() {
		if err := other.ChangeAccountEmail(ctx, ChangeAccountEmailParams{Username: "ann", Email: "b@x.org"}); err != nil {
			t.Errorf("the concurrent change: %v", err)
		}
	}
	err := s.ChangeAccountEmail(ctx, ChangeAccountEmailParams{Username: "ann", Email: "c@x.org"})
	stepFailed(t, err, 1, ErrConditionFailed)
	holder(t, s, "b@x.org", "ann")
	for _, email := range []string{"a@x.org", "c@x.org"} {
		if got := claims(t, s, c, email); got != 0 {
			t.Errorf("%d claims of %s, want 0", got, email)
		}
	}
	// A delete that read b@x.org fails when the email moves again.
	ch.once = sync.Once{}
	ch.change = func() {
		if err := other.ChangeAccountEmail(ctx, ChangeAccountEmailParams{Username: "ann", Email: "d@x.org"}); err != nil {
			t.Errorf("the concurrent change: %v", err)
		}
	}
	err = s.DeleteAccount(ctx, "ann")
	stepFailed(t, err, 1, ErrConditionFailed)
	holder(t, s, "d@x.org", "ann")
	if got := claims(t, s, c, "b@x.org"); got != 0 {
		t.Errorf("%d claims of b@x.org, want 0", got)
	}
}

func TestUniquePutMovesTheClaim(t *testing.T) {
	ctx := context.Background()
	s, c := newStore(t, nil)
	// Over no item, a put is a create that claims its email.
	if err := s.SaveAccount(ctx, &Account{Username: "ann", Email: "a@x.org", Name: "Ann"}); err != nil {
		t.Fatalf("SaveAccount of a new account: %v", err)
	}
	holder(t, s, "a@x.org", "ann")
	// Another account can't put the email, new or not.
	err := s.SaveAccount(ctx, &Account{Username: "bob", Email: "a@x.org"})
	claimTaken(t, err)
	var te *TransactionError
	if errors.As(err, &te) && te.Step != 4 {
		t.Errorf("failed step %d, want 4 (claim, after step 3 the create)", te.Step)
	}
	if _, err := s.GetAccount(ctx, "bob"); !errors.Is(err, ErrNotFound) {
		t.Errorf("GetAccount bob after the failed put: %v", err)
	}
	// A put that changes the email moves the claim.
	if err := s.SaveAccount(ctx, &Account{Username: "ann", Email: "a2@x.org", Name: "Ann"}); err != nil {
		t.Fatalf("SaveAccount moving the email: %v", err)
	}
	holder(t, s, "a2@x.org", "ann")
	holder(t, s, "a@x.org", "")
	if got := claims(t, s, c, "a@x.org"); got != 0 {
		t.Errorf("%d claims of the old email, want 0", got)
	}
	// A put that keeps the email keeps the claim.
	if err := s.SaveAccount(ctx, &Account{Username: "ann", Email: "a2@x.org", Name: "Ann B."}); err != nil {
		t.Fatalf("SaveAccount keeping the email: %v", err)
	}
	holder(t, s, "a2@x.org", "ann")
	if a, err := s.GetAccount(ctx, "ann"); err != nil || a.Name != "Ann B." {
		t.Errorf("GetAccount ann: %+v, %v", a, err)
	}
	if got := claims(t, s, c, "a2@x.org"); got != 1 {
		t.Errorf("%d claims of a2@x.org, want 1", got)
	}
}

func TestUniquePutConcurrentCreate(t *testing.T) {
	ctx := context.Background()
	var ch *changer
	s, c := newStore(t, func(c Client) Client { ch = &changer{Client: c}; return ch })
	other := newChecked(t, c, WithMainTable(s.mainTable))
	// Another call creates ann between this put's read (no item) and its
	// transaction: the put, a create, fails cleanly.
	ch.change = func() {
		if err := other.CreateAccount(ctx, &Account{Username: "ann", Email: "b@x.org"}); err != nil {
			t.Errorf("the concurrent create: %v", err)
		}
	}
	err := s.SaveAccount(ctx, &Account{Username: "ann", Email: "a@x.org"})
	stepFailed(t, err, 2, ErrConditionFailed)
	holder(t, s, "b@x.org", "ann")
	if got := claims(t, s, c, "a@x.org"); got != 0 {
		t.Errorf("%d claims of a@x.org, want 0", got)
	}
}

func TestUniqueTransactionCreateClaims(t *testing.T) {
	ctx := context.Background()
	s, c := newStore(t, nil)
	open := OpenAccountParams{Account: &Account{Username: "ann", Email: "a@x.org"}, Member: &Member{Username: "ann"}}
	if err := s.OpenAccount(ctx, open); err != nil {
		t.Fatalf("OpenAccount: %v", err)
	}
	holder(t, s, "a@x.org", "ann")
	// Another account with the email: the claim the transaction adds
	// fails, and nothing is written.
	err := s.OpenAccount(ctx, OpenAccountParams{Account: &Account{Username: "bob", Email: "a@x.org"}, Member: &Member{Username: "bob"}})
	stepFailed(t, err, 3, ErrAlreadyExists)
	claimTaken(t, err)
	if _, err := s.GetAccount(ctx, "bob"); !errors.Is(err, ErrNotFound) {
		t.Errorf("GetAccount bob: %v", err)
	}
	if _, err := s.GetMember(ctx, "bob"); !errors.Is(err, ErrNotFound) {
		t.Errorf("GetMember bob: %v", err)
	}
	if got := claims(t, s, c, "a@x.org"); got != 1 {
		t.Errorf("%d claims, want 1", got)
	}
}

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

// claimItems counts the claim items of key pk in the Main table, by a
// Query of the raw client on the claim's partition.
func claimItems(t *testing.T, s *Store, c *dynamodb.Client, pk string) int {
	t.Helper()
	out, err := c.Query(context.Background(), &dynamodb.QueryInput{
		TableName:                 aws.String(s.mainTable),
		KeyConditionExpression:    aws.String("PK = :pk"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": &types.AttributeValueMemberS{Value: pk}},
		ConsistentRead:            aws.Bool(true),
	})
	if err != nil {
		t.Fatalf("Query of the claims %s: %v", pk, err)
	}
	return int(out.Count)
}

// patronClaim is the key of the claim of (library, email).
func patronClaim(library, email string) string {
	return "UNIQUE#Patron#libraryId#email#" + library + "#" + email
}

// patronHolder checks that PatronByEmail finds patron id by (library,
// email), or none when id is "".
func patronHolder(t *testing.T, s *Store, library, email, id string) {
	t.Helper()
	p, err := s.PatronByEmail(context.Background(), PatronByEmailParams{LibraryID: library, Email: email})
	switch {
	case id == "" && !errors.Is(err, ErrNotFound):
		t.Errorf("PatronByEmail %s %s: %v, %v; want ErrNotFound", library, email, p, err)
	case id == "":
	case err != nil:
		t.Errorf("PatronByEmail %s %s: %v; want %s", library, email, err, id)
	case p.PatronID != id || p.LibraryID != library || p.Email != email:
		t.Errorf("PatronByEmail %s %s: %+v; want %s", library, email, p, id)
	}
}

// taken checks that err is the failure of the claim step action, with
// ErrAlreadyExists.
func taken(t *testing.T, err error, action string) {
	t.Helper()
	var te *TransactionError
	if !errors.As(err, &te) || te.Action != action {
		t.Fatalf("error %v is no failure of the step %q", err, action)
	}
	if !errors.Is(err, ErrAlreadyExists) {
		t.Errorf("error %v is not ErrAlreadyExists", err)
	}
}

const patronClaimAction = "claim Patron.libraryId+email"

func TestUniqueCompositeOnePerLibrary(t *testing.T) {
	ctx := context.Background()
	s, c := newStore(t, nil)
	// One email in two libraries: two patrons.
	for _, p := range []*Patron{{LibraryID: "north", PatronID: "p1", Email: "ann@x.org"}, {LibraryID: "south", PatronID: "p1", Email: "ann@x.org"}} {
		if err := s.CreatePatron(ctx, p); err != nil {
			t.Fatalf("CreatePatron %+v: %v", p, err)
		}
	}
	// Not twice in one library.
	err := s.CreatePatron(ctx, &Patron{LibraryID: "north", PatronID: "p2", Email: "ann@x.org"})
	taken(t, err, patronClaimAction)
	if _, err := s.GetPatron(ctx, PatronKey{LibraryID: "north", PatronID: "p2"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("the refused patron was written: %v", err)
	}
	patronHolder(t, s, "north", "ann@x.org", "p1")
	patronHolder(t, s, "south", "ann@x.org", "p1")
	patronHolder(t, s, "east", "ann@x.org", "")

	// A move of the email frees the old pair, in its library only.
	if err := s.CreatePatron(ctx, &Patron{LibraryID: "north", PatronID: "p2", Email: "bob@x.org"}); err != nil {
		t.Fatal(err)
	}
	err = s.ChangePatronEmail(ctx, ChangePatronEmailParams{LibraryID: "north", PatronID: "p2", Email: "ann@x.org"})
	taken(t, err, patronClaimAction)
	if err := s.ChangePatronEmail(ctx, ChangePatronEmailParams{LibraryID: "north", PatronID: "p1", Email: "ann2@x.org"}); err != nil {
		t.Fatalf("ChangePatronEmail: %v", err)
	}
	patronHolder(t, s, "north", "ann@x.org", "")
	patronHolder(t, s, "north", "ann2@x.org", "p1")
	patronHolder(t, s, "south", "ann@x.org", "p1")
	if got := claimItems(t, s, c, patronClaim("north", "ann@x.org")); got != 0 {
		t.Errorf("%d claims of the old pair, want 0", got)
	}
	if err := s.ChangePatronEmail(ctx, ChangePatronEmailParams{LibraryID: "north", PatronID: "p2", Email: "ann@x.org"}); err != nil {
		t.Fatalf("p2 takes the freed pair: %v", err)
	}
	patronHolder(t, s, "north", "ann@x.org", "p2")
	patronHolder(t, s, "north", "bob@x.org", "")

	// A put over the item moves the claim of the values it changes; a
	// put of the same values sends no claim step.
	if err := s.SavePatron(ctx, &Patron{LibraryID: "north", PatronID: "p2", Email: "carl@x.org", Name: "Carl"}); err != nil {
		t.Fatalf("SavePatron: %v", err)
	}
	patronHolder(t, s, "north", "carl@x.org", "p2")
	patronHolder(t, s, "north", "ann@x.org", "")
	if err := s.SavePatron(ctx, &Patron{LibraryID: "north", PatronID: "p2", Email: "carl@x.org", Name: "Carl 2"}); err != nil {
		t.Fatalf("SavePatron with the same email: %v", err)
	}
	patronHolder(t, s, "north", "carl@x.org", "p2")
	err = s.SavePatron(ctx, &Patron{LibraryID: "north", PatronID: "p3", Email: "carl@x.org"})
	taken(t, err, patronClaimAction)

	// A delete frees the pair.
	if err := s.DeletePatron(ctx, PatronKey{LibraryID: "north", PatronID: "p2"}); err != nil {
		t.Fatalf("DeletePatron: %v", err)
	}
	if got := claimItems(t, s, c, patronClaim("north", "carl@x.org")); got != 0 {
		t.Errorf("%d claims after the delete, want 0", got)
	}
	if err := s.CreatePatron(ctx, &Patron{LibraryID: "north", PatronID: "p3", Email: "carl@x.org"}); err != nil {
		t.Fatalf("p3 takes the released pair: %v", err)
	}

	// A value holding the separator of the claim's key is refused before
	// any call: "a#b" in library "x" would read as library "x#a".
	err = s.CreatePatron(ctx, &Patron{LibraryID: "north", PatronID: "p4", Email: "a#b@x.org"})
	if !errors.Is(err, ErrInvalidKey) {
		t.Errorf("CreatePatron with # in the email: %v; want ErrInvalidKey", err)
	}
}

func TestUniqueCompositeConcurrent(t *testing.T) {
	ctx := context.Background()
	s, c := newStore(t, nil)
	const n = 16
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			p := &Patron{LibraryID: "lib", PatronID: fmt.Sprintf("p%d", i), Email: "same@x.org"}
			for {
				errs[i] = s.CreatePatron(ctx, p)
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
				t.Fatalf("patrons %d and %d both took the email", winner, i)
			}
			winner = i
			continue
		}
		taken(t, err, patronClaimAction)
	}
	if winner < 0 {
		t.Fatal("no patron took the email")
	}
	if got := claimItems(t, s, c, patronClaim("lib", "same@x.org")); got != 1 {
		t.Errorf("%d claim items, want 1", got)
	}
	patronHolder(t, s, "lib", "same@x.org", fmt.Sprintf("p%d", winner))
	for i := range n {
		_, err := s.GetPatron(ctx, PatronKey{LibraryID: "lib", PatronID: fmt.Sprintf("p%d", i)})
		if (i == winner) != (err == nil) {
			t.Errorf("GetPatron p%d: %v", i, err)
		}
	}
}

const loginClaimAction = "claim Login.email"

func TestUniqueNormalized(t *testing.T) {
	ctx := context.Background()
	s, c := newStore(t, nil)
	if err := s.CreateLogin(ctx, &Login{LoginID: "bob", Email: "Bob@X.com"}); err != nil {
		t.Fatal(err)
	}
	// Another case of the same email is taken.
	err := s.CreateLogin(ctx, &Login{LoginID: "rob", Email: "bob@x.com"})
	taken(t, err, loginClaimAction)
	// The item keeps what was written; the claim holds it lower-cased.
	l, err := s.GetLogin(ctx, "bob")
	if err != nil || l.Email != "Bob@X.com" {
		t.Fatalf("GetLogin: %+v, %v; want Bob@X.com", l, err)
	}
	if got := claimItems(t, s, c, "UNIQUE#Login#email#bob@x.com"); got != 1 {
		t.Errorf("%d claims of bob@x.com, want 1", got)
	}
	// A read by any case finds it.
	for _, e := range []string{"BOB@x.com", "bob@x.com", "Bob@X.com"} {
		l, err := s.LoginByEmail(ctx, e)
		if err != nil || l.LoginID != "bob" || l.Email != "Bob@X.com" {
			t.Errorf("LoginByEmail %s: %+v, %v; want bob", e, l, err)
		}
	}
	// A change of case only moves nothing: the item holds the new text,
	// the claim stays.
	if err := s.ChangeLoginEmail(ctx, ChangeLoginEmailParams{LoginID: "bob", Email: "bob@x.com"}); err != nil {
		t.Fatalf("ChangeLoginEmail of the case: %v", err)
	}
	if l, err := s.GetLogin(ctx, "bob"); err != nil || l.Email != "bob@x.com" {
		t.Errorf("GetLogin: %+v, %v; want bob@x.com", l, err)
	}
	if got := claimItems(t, s, c, "UNIQUE#Login#email#bob@x.com"); got != 1 {
		t.Errorf("%d claims of bob@x.com after the change of case, want 1", got)
	}
	// A change of the value moves the claim: the old one is free in any
	// case.
	if err := s.ChangeLoginEmail(ctx, ChangeLoginEmailParams{LoginID: "bob", Email: "Robert@X.com"}); err != nil {
		t.Fatalf("ChangeLoginEmail: %v", err)
	}
	if got := claimItems(t, s, c, "UNIQUE#Login#email#bob@x.com"); got != 0 {
		t.Errorf("%d claims of the old email, want 0", got)
	}
	if err := s.CreateLogin(ctx, &Login{LoginID: "rob", Email: "BOB@x.com"}); err != nil {
		t.Fatalf("rob takes the freed email: %v", err)
	}
	err = s.ChangeLoginEmail(ctx, ChangeLoginEmailParams{LoginID: "rob", Email: "robert@x.COM"})
	taken(t, err, loginClaimAction)
	// A delete releases the claim of the value as stored, lower-cased.
	if err := s.DeleteLogin(ctx, "bob"); err != nil {
		t.Fatalf("DeleteLogin: %v", err)
	}
	if got := claimItems(t, s, c, "UNIQUE#Login#email#robert@x.com"); got != 0 {
		t.Errorf("%d claims after the delete, want 0", got)
	}
	if _, err := s.LoginByEmail(ctx, "robert@x.com"); !errors.Is(err, ErrNotFound) {
		t.Errorf("LoginByEmail of the deleted login: %v; want ErrNotFound", err)
	}
	// A transaction's two creates whose emails differ in case only: one
	// claim key, refused before the call.
	err = s.OpenLogins(ctx, OpenLoginsParams{First: &Login{LoginID: "x1", Email: "New@x.com"}, Second: &Login{LoginID: "x2", Email: "new@X.com"}})
	if !errors.Is(err, ErrSameItem) {
		t.Errorf("OpenLogins with one email in two cases: %v; want ErrSameItem", err)
	}
	if err := s.OpenLogins(ctx, OpenLoginsParams{First: &Login{LoginID: "x1", Email: "New@x.com"}, Second: &Login{LoginID: "x2", Email: "Other@X.com"}}); err != nil {
		t.Fatalf("OpenLogins: %v", err)
	}
	err = s.CreateLogin(ctx, &Login{LoginID: "x3", Email: "OTHER@x.com"})
	taken(t, err, loginClaimAction)
}

package e2e

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dyngen/dyngen/internal/dynamotest"
)

// stepFailed checks that err is the failure of step (from 0) of a
// transaction, of kind want, with the SDK's cancellation reachable.
func stepFailed(t *testing.T, err error, step int, want error) {
	t.Helper()
	var te *TransactionError
	if !errors.As(err, &te) {
		t.Fatalf("error %v is no *TransactionError", err)
	}
	if te.Step != step {
		t.Errorf("failed step %d (%s, %s), want %d", te.Step, te.Action, te.Reason, step)
	}
	if !errors.Is(err, want) {
		t.Errorf("error %v is not %v", err, want)
	}
	var tce *types.TransactionCanceledException
	if !errors.As(err, &tce) {
		t.Errorf("error %v does not wrap the TransactionCanceledException", err)
	}
	for _, other := range []error{ErrNotFound, ErrAlreadyExists, ErrConditionFailed, ErrTransactionConflict} {
		if other != want && errors.Is(err, other) {
			t.Errorf("error %v is also %v", err, other)
		}
	}
}

func mustMember(t *testing.T, s *Store, username string) *Member {
	t.Helper()
	m, err := s.GetMember(context.Background(), username)
	if err != nil {
		t.Fatalf("GetMember %s: %v", username, err)
	}
	return m
}

func TestTransactionLikePhoto(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t, nil)
	if err := s.CreateMember(ctx, &Member{Username: "ann"}); err != nil {
		t.Fatal(err)
	}
	if err := s.CreatePhoto(ctx, &Photo{PhotoID: "p1", Owner: "bob"}); err != nil {
		t.Fatal(err)
	}
	like := Like{PhotoID: "p1", Username: "ann"}
	if err := s.LikePhoto(ctx, LikePhotoParams{Like: &like}); err != nil {
		t.Fatalf("LikePhoto: %v", err)
	}
	if _, err := s.GetLike(ctx, LikeKey{PhotoID: "p1", Username: "ann"}); err != nil {
		t.Fatalf("the like was not written: %v", err)
	}
	photo, err := s.GetPhoto(ctx, "p1")
	if err != nil || photo.LikesCount != 1 {
		t.Fatalf("photo after one like = %+v, %v; want 1 like", photo, err)
	}

	// The same like again: step 2 (create Like) finds it, nothing changes.
	err = s.LikePhoto(ctx, LikePhotoParams{Like: &like})
	stepFailed(t, err, 2, ErrAlreadyExists)
	var te *TransactionError
	if errors.As(err, &te) && (te.Reason != "ConditionalCheckFailed" || te.Action != "create Like") {
		t.Errorf("step error %+v, want reason ConditionalCheckFailed of create Like", te)
	}
	if photo, _ := s.GetPhoto(ctx, "p1"); photo.LikesCount != 1 {
		t.Errorf("a cancelled like counted: %d likes", photo.LikesCount)
	}

	// No such photo: step 3 (update Photo) fails, and the like of step 2
	// is not written.
	err = s.LikePhoto(ctx, LikePhotoParams{Like: &Like{PhotoID: "p2", Username: "ann"}})
	stepFailed(t, err, 3, ErrNotFound)
	if _, err := s.GetLike(ctx, LikeKey{PhotoID: "p2", Username: "ann"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("the like of a cancelled transaction: %v", err)
	}

	// No such member: step 1 (check Member).
	stepFailed(t, s.LikePhoto(ctx, LikePhotoParams{Like: &Like{PhotoID: "p1", Username: "zed"}}), 1, ErrNotFound)

	// Unlike: the delete's condition holds, the count goes down; a second
	// unlike fails at step 1 and the count stays.
	if err := s.UnlikePhoto(ctx, UnlikePhotoParams{PhotoID: "p1", Username: "ann"}); err != nil {
		t.Fatalf("UnlikePhoto: %v", err)
	}
	if photo, _ := s.GetPhoto(ctx, "p1"); photo.LikesCount != 0 {
		t.Errorf("after unlike: %d likes", photo.LikesCount)
	}
	stepFailed(t, s.UnlikePhoto(ctx, UnlikePhotoParams{PhotoID: "p1", Username: "ann"}), 1, ErrConditionFailed)
	if photo, _ := s.GetPhoto(ctx, "p1"); photo.LikesCount != 0 {
		t.Errorf("after a failed unlike: %d likes", photo.LikesCount)
	}
}

func TestTransactionFollow(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t, nil)
	for _, u := range []string{"ann", "bob", "cy"} {
		if err := s.CreateMember(ctx, &Member{Username: u}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.FollowMember(ctx, FollowMemberParams{Follow: &Follow{Follower: "ann", Followee: "bob"}}); err != nil {
		t.Fatalf("FollowMember: %v", err)
	}
	if ann, bob := mustMember(t, s, "ann"), mustMember(t, s, "bob"); ann.Following != 1 || bob.Followers != 1 || ann.Followers != 0 || bob.Following != 0 {
		t.Errorf("after ann follows bob: ann %+v, bob %+v", ann, bob)
	}
	// cy blocks ann: the check of step 1 (no Block) fails.
	if err := s.CreateBlock(ctx, &Block{Blocker: "cy", Blocked: "ann"}); err != nil {
		t.Fatal(err)
	}
	stepFailed(t, s.FollowMember(ctx, FollowMemberParams{Follow: &Follow{Follower: "ann", Followee: "cy"}}), 1, ErrAlreadyExists)
	if _, err := s.GetFollow(ctx, FollowKey{Follower: "ann", Followee: "cy"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("a blocked follow was written: %v", err)
	}
	// bob follows cy, who does not block him.
	if err := s.FollowMember(ctx, FollowMemberParams{Follow: &Follow{Follower: "bob", Followee: "cy"}}); err != nil {
		t.Fatalf("FollowMember bob -> cy: %v", err)
	}
	if cy := mustMember(t, s, "cy"); cy.Followers != 1 {
		t.Errorf("cy has %d followers, want 1", cy.Followers)
	}
}

func TestTransactionSameItem(t *testing.T) {
	ctx := context.Background()
	// Refused before any call: noCalls fails the test if one is made.
	s := newChecked(t, noCalls{t})
	err := s.FollowMember(ctx, FollowMemberParams{Follow: &Follow{Follower: "ann", Followee: "ann"}})
	var te *TransactionError
	if !errors.Is(err, ErrSameItem) || !errors.As(err, &te) || te.Step != 4 {
		t.Errorf("following oneself: %v, want ErrSameItem at step 4", err)
	}
	if err := s.Transfer(ctx, TransferParams{From: "ann", To: "ann", Debit: -1, Credit: 1}); !errors.Is(err, ErrSameItem) {
		t.Errorf("a transfer to oneself: %v, want ErrSameItem", err)
	}
	// A key value refused before the call names its step.
	err = s.Transfer(ctx, TransferParams{From: "", To: "bob"})
	if !errors.Is(err, ErrInvalidKey) || !errors.As(err, &te) || te.Step != 1 {
		t.Errorf("an empty key: %v, want ErrInvalidKey at step 1", err)
	}
}

func TestTransactionBalance(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t, nil)
	if err := s.CreateMember(ctx, &Member{Username: "ann", Balance: 100}); err != nil {
		t.Fatal(err)
	}
	if err := s.PlacePurchase(ctx, PlacePurchaseParams{Purchase: &Purchase{Username: "ann", PurchaseID: "o1", Total: 30}, Balance: -30}); err != nil {
		t.Fatalf("PlacePurchase: %v", err)
	}
	if ann := mustMember(t, s, "ann"); ann.Balance != 70 {
		t.Errorf("balance %d, want 70", ann.Balance)
	}
	// The balance can't go below 0 (min: 0): the update's condition fails,
	// and the purchase is not recorded.
	err := s.PlacePurchase(ctx, PlacePurchaseParams{Purchase: &Purchase{Username: "ann", PurchaseID: "o2", Total: 100}, Balance: -100})
	stepFailed(t, err, 2, ErrConditionFailed)
	if ann := mustMember(t, s, "ann"); ann.Balance != 70 {
		t.Errorf("balance %d after a refused purchase, want 70", ann.Balance)
	}

	// A request token makes a repeated call change nothing again.
	p := PlacePurchaseParams{Purchase: &Purchase{Username: "ann", PurchaseID: "o3", Total: 20}, Balance: -20, RequestToken: dynamotest.TableName("order-o3")}
	for i := range 2 {
		if err := s.PlacePurchase(ctx, p); err != nil {
			t.Fatalf("call %d with a request token: %v", i+1, err)
		}
	}
	if ann := mustMember(t, s, "ann"); ann.Balance != 50 {
		t.Errorf("balance %d after a repeated call, want 50", ann.Balance)
	}

	if err := s.CreateMember(ctx, &Member{Username: "bob"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Transfer(ctx, TransferParams{From: "ann", Debit: -50, To: "bob", Credit: 50}); err != nil {
		t.Fatalf("Transfer: %v", err)
	}
	if ann, bob := mustMember(t, s, "ann"), mustMember(t, s, "bob"); ann.Balance != 0 || bob.Balance != 50 {
		t.Errorf("after the transfer: ann %d, bob %d", ann.Balance, bob.Balance)
	}
	stepFailed(t, s.Transfer(ctx, TransferParams{From: "ann", Debit: -1, To: "bob", Credit: 1}), 1, ErrConditionFailed)
}

func TestTransactGet(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t, nil)
	if err := s.CreateMember(ctx, &Member{Username: "ann", Balance: 5}); err != nil {
		t.Fatal(err)
	}
	if err := s.CreatePhoto(ctx, &Photo{PhotoID: "p1", Owner: "bob"}); err != nil {
		t.Fatal(err)
	}
	res, err := s.MemberAndPhoto(ctx, MemberAndPhotoParams{Username: "ann", PhotoID: "p1"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Member == nil || res.Member.Balance != 5 || res.Photo == nil || res.Photo.Owner != "bob" || res.Like != nil {
		t.Errorf("result %+v", res)
	}
	if err := s.LikePhoto(ctx, LikePhotoParams{Like: &Like{PhotoID: "p1", Username: "ann"}}); err != nil {
		t.Fatal(err)
	}
	res, err = s.MemberAndPhoto(ctx, MemberAndPhotoParams{Username: "ann", PhotoID: "p1"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Like == nil || res.Photo.LikesCount != 1 {
		t.Errorf("after the like: %+v", res)
	}
	res, err = s.MemberAndPhoto(ctx, MemberAndPhotoParams{Username: "zed", PhotoID: "p9"})
	if err != nil || res.Member != nil || res.Photo != nil || res.Like != nil {
		t.Errorf("absent items: %+v, %v", res, err)
	}
}

// conflicting cancels every transaction with a TransactionConflict on
// its second step, which DynamoDB Local never does.
type conflicting struct{ Client }

func (conflicting) TransactWriteItems(context.Context, *dynamodb.TransactWriteItemsInput, ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	return nil, &types.TransactionCanceledException{
		Message: aws.String("e2e: cancelled"),
		CancellationReasons: []types.CancellationReason{
			{Code: aws.String("None")},
			{Code: aws.String("TransactionConflict")},
		},
	}
}

func TestTransactionConflict(t *testing.T) {
	s := newChecked(t, conflicting{noCalls{t}})
	err := s.Transfer(context.Background(), TransferParams{From: "ann", Debit: -1, To: "bob", Credit: 1})
	stepFailed(t, err, 2, ErrTransactionConflict)
	var r interface{ RetryableError() bool }
	if !errors.As(err, &r) || !r.RetryableError() {
		t.Errorf("a conflict is not marked retryable: %v", err)
	}
	// Another reason is not retryable.
	var te *TransactionError
	errors.As(err, &te)
	te.Err = ErrConditionFailed
	if te.RetryableError() {
		t.Error("a failed condition is marked retryable")
	}
}

// TestTransactionExpiry: in a transaction too, an expired item is absent:
// a create writes over it, a check of it fails as for no item
// (ErrNotFound), and a transactGet leaves it out.
func TestTransactionExpiry(t *testing.T) {
	ctx := context.Background()
	now, later := expiryStores(t)
	must(t, now.CreateMember(ctx, &Member{Username: "o"}))
	w := expiring("o", "w", soon())
	must(t, now.CreateWidget(ctx, w))
	check := CountWidgetParams{OwnerID: "o", WidgetID: "w"}
	must(t, now.CountWidget(ctx, check))
	stepFailed(t, later.CountWidget(ctx, check), 1, ErrNotFound)
	if m := mustMember(t, now, "o"); m.Followers != 1 {
		t.Errorf("the member was counted %d times, want once", m.Followers)
	}
	res, err := later.WidgetAndMember(ctx, WidgetAndMemberParams{OwnerID: "o", WidgetID: "w"})
	if err != nil || res.Widget != nil || res.Member == nil {
		t.Errorf("transactGet of an expired widget: %+v, %v; want no widget, the member", res, err)
	}
	if res, err := now.WidgetAndMember(ctx, WidgetAndMemberParams{OwnerID: "o", WidgetID: "w"}); err != nil || res.Widget == nil {
		t.Errorf("transactGet of a live widget: %+v, %v", res, err)
	}
	// A create over the live widget fails; over the expired one, it
	// replaces it.
	renewed := expiring("o", "w", soon())
	renewed.Name = "renewed"
	stepFailed(t, now.RenewWidget(ctx, RenewWidgetParams{Widget: &*renewed}), 1, ErrAlreadyExists)
	must(t, later.RenewWidget(ctx, RenewWidgetParams{Widget: &*renewed}))
	if got, err := now.GetWidget(ctx, WidgetKey{OwnerID: "o", WidgetID: "w"}); err != nil || got.Name != "renewed" {
		t.Errorf("after the renewal: %+v, %v", got, err)
	}
}

// TestTransactionVersions: steps of versioned items check the version
// each was read at and set the next, a stale one failing its step with
// ErrVersionConflict (not ErrNotFound); a step's created item takes its
// times from the Store's clock.
func TestTransactionVersions(t *testing.T) {
	ctx := context.Background()
	clock := &fakeClock{}
	t1 := time.Date(2025, 5, 6, 7, 8, 9, 0, time.UTC)
	clock.set(t1)
	s, _ := newStore(t, nil, WithClock(clock.Now))
	must(t, s.CreateVault(ctx, &Vault{OwnerID: "o", VaultID: "a", Gold: 10}))
	must(t, s.CreateVault(ctx, &Vault{OwnerID: "o", VaultID: "b"}))
	move := MoveGoldParams{
		OwnerID: "o", FromID: "a", FromRev: 1, Debit: -4, ToID: "b", ToRev: 1, Credit: 4,
		Ledger: &Ledger{OwnerID: "o", LedgerID: "m1", Note: "a to b"},
	}
	must(t, s.MoveGold(ctx, move))
	a, err := s.GetVault(ctx, VaultKey{OwnerID: "o", VaultID: "a"})
	must(t, err)
	b, err := s.GetVault(ctx, VaultKey{OwnerID: "o", VaultID: "b"})
	must(t, err)
	if a.Gold != 6 || a.Rev != 2 || b.Gold != 4 || b.Rev != 2 {
		t.Errorf("after the move: a %+v, b %+v", a, b)
	}
	l, err := s.GetLedger(ctx, LedgerKey{OwnerID: "o", LedgerID: "m1"})
	if err != nil || !l.CreatedAt.Equal(t1) || !l.UpdatedAt.Equal(t1) {
		t.Errorf("the ledger written by the move: %+v, %v; want its times %v", l, err, t1)
	}

	// The same move again: a's version is stale (step 1), then b's.
	move.Ledger.LedgerID = "m2"
	stepFailed(t, s.MoveGold(ctx, move), 1, ErrVersionConflict)
	move.FromRev = 2
	stepFailed(t, s.MoveGold(ctx, move), 2, ErrVersionConflict)
	move.ToRev = 2
	must(t, s.MoveGold(ctx, move))
	// No such vault: ErrNotFound, not a version conflict.
	move.Ledger.LedgerID, move.ToID, move.FromRev = "m3", "nosuch", 3
	stepFailed(t, s.MoveGold(ctx, move), 2, ErrNotFound)
	if a, _ := s.GetVault(ctx, VaultKey{OwnerID: "o", VaultID: "a"}); a.Gold != 2 || a.Rev != 3 {
		t.Errorf("after two moves and a failed one: a %+v", a)
	}
}

// TestRequestToken: a token DynamoDB would refuse (over 36 characters,
// or not UTF-8) is refused before the call; one of 36 is sent.
func TestRequestToken(t *testing.T) {
	ctx := context.Background()
	s := newChecked(t, noCalls{t})
	p := TransferParams{From: "ann", Debit: -1, To: "bob", Credit: 1}
	for _, token := range []string{strings.Repeat("x", 37), "\xff"} {
		p.RequestToken = token
		if err := s.Transfer(ctx, p); !errors.Is(err, ErrInvalidRequestToken) {
			t.Errorf("token %q: %v, want ErrInvalidRequestToken", token, err)
		}
	}
	p.RequestToken = strings.Repeat("é", 36)
	if err := newChecked(t, conflicting{noCalls{t}}).Transfer(ctx, p); !errors.Is(err, ErrTransactionConflict) {
		t.Errorf("a token of 36 characters: %v, want the call made", err)
	}
}

// TestRequestTokenWithClock: a transaction whose steps take the Store's
// clock (timestamps) reads it once per call, and a retry with the same
// request token and the same Now sends the same values: it succeeds and
// changes nothing again, however the clock moved.
func TestRequestTokenWithClock(t *testing.T) {
	ctx := context.Background()
	var ticks int64
	clock := func() time.Time { ticks++; return time.Unix(1_700_000_000+ticks, 0) }
	s, _ := newStore(t, nil, WithClock(clock))
	must(t, s.CreateVault(ctx, &Vault{OwnerID: "o", VaultID: "a", Gold: 10}))
	must(t, s.CreateVault(ctx, &Vault{OwnerID: "o", VaultID: "b"}))
	move := MoveGoldParams{
		OwnerID: "o", FromID: "a", FromRev: 1, Debit: -4, ToID: "b", ToRev: 1, Credit: 4,
		Ledger:       &Ledger{OwnerID: "o", LedgerID: "m1", Note: "a to b"},
		RequestToken: dynamotest.TableName("move-m1"),
		Now:          time.Date(2025, 5, 6, 7, 8, 9, 0, time.UTC),
	}
	for i := range 2 {
		if err := s.MoveGold(ctx, move); err != nil {
			t.Fatalf("call %d: %v", i+1, err)
		}
	}
	a, err := s.GetVault(ctx, VaultKey{OwnerID: "o", VaultID: "a"})
	must(t, err)
	l, err := s.GetLedger(ctx, LedgerKey{OwnerID: "o", LedgerID: "m1"})
	must(t, err)
	if a.Gold != 6 || a.Rev != 2 || !a.UpdatedAt.Equal(move.Now) || !l.CreatedAt.Equal(move.Now) {
		t.Errorf("after a repeated move: vault %+v, ledger %+v; want one move at %v", a, l, move.Now)
	}
}

// TestTransactionWritesBack: the values a step writes itself (a version,
// times from the Store's clock) are what a later step's bind takes and
// what the caller's item holds after the call, as after a call of its
// own: OpenVault's event is numbered by the vault's first version and
// dated by its created time, and the vault can be put at once with the
// version the transaction gave it back. A failed transaction leaves the
// caller's item as it was.
func TestTransactionWritesBack(t *testing.T) {
	ctx := context.Background()
	clock := &fakeClock{}
	// Nanoseconds the stored form keeps, in a zone it does not: the item
	// holds the time as it reads back.
	t1 := time.Date(2025, 5, 6, 7, 8, 9, 123456789, time.FixedZone("x", 3600))
	clock.set(t1)
	s, _ := newStore(t, nil, WithClock(clock.Now))
	v := &Vault{OwnerID: "o", VaultID: "v", Gold: 3, Rev: 42}
	must(t, s.OpenVault(ctx, OpenVaultParams{Vault: v, Note: "opened"}))
	stored, err := s.GetVault(ctx, VaultKey{OwnerID: "o", VaultID: "v"})
	must(t, err)
	if *v != *stored {
		t.Errorf("the caller's vault after OpenVault: %+v; want it as stored, %+v", *v, *stored)
	}
	if v.Rev != 1 || !v.CreatedAt.Equal(t1) || !v.UpdatedAt.Equal(t1) {
		t.Errorf("the vault after OpenVault: rev %d, created %v, updated %v; want 1 and %v", v.Rev, v.CreatedAt, v.UpdatedAt, t1)
	}
	ev, err := s.GetEvent(ctx, EventKey{OwnerID: "o", Seq: 1})
	if err != nil || !ev.At.Equal(t1) || ev.Note != "opened" {
		t.Errorf("the event of the opening: %+v, %v; want seq 1 (the vault's version) at %v", ev, err, t1)
	}
	// The version given back is the stored one: a versioned put succeeds.
	v.Gold = 4
	must(t, s.PutVault(ctx, v))
	if v.Rev != 2 {
		t.Errorf("after PutVault: rev %d, want 2", v.Rev)
	}

	// Opened again: the create fails, and the caller's item is untouched.
	again := &Vault{OwnerID: "o", VaultID: "v", Gold: 9, Rev: 7}
	stepFailed(t, s.OpenVault(ctx, OpenVaultParams{Vault: again, Note: "twice"}), 1, ErrAlreadyExists)
	if again.Rev != 7 || !again.CreatedAt.IsZero() || again.Gold != 9 {
		t.Errorf("the caller's vault after a failed OpenVault: %+v; want it unchanged", *again)
	}
	// No item: an ItemError naming the step, before any call.
	err = s.OpenVault(ctx, OpenVaultParams{Note: "none"})
	var ie *ItemError
	if !errors.As(err, &ie) || ie.Entity != "Vault" {
		t.Errorf("OpenVault without a vault: %v; want an ItemError of Vault", err)
	}
}

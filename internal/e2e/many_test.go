package e2e

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// countingClient counts the write calls that reach DynamoDB.
type countingClient struct {
	Client
	transactions, updates, deletes atomic.Int64
}

func (c *countingClient) TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, optFns ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	c.transactions.Add(1)
	return c.Client.TransactWriteItems(ctx, in, optFns...)
}

func (c *countingClient) UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	c.updates.Add(1)
	return c.Client.UpdateItem(ctx, in, optFns...)
}

func (c *countingClient) DeleteItem(ctx context.Context, in *dynamodb.DeleteItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error) {
	c.deletes.Add(1)
	return c.Client.DeleteItem(ctx, in, optFns...)
}

// newManyStore is a Store whose write calls are counted, with a clock
// fixed at now.
func newManyStore(t *testing.T, now time.Time, extra ...Option) (*Store, *countingClient) {
	t.Helper()
	var cc *countingClient
	s, _ := newStore(t, func(c Client) Client {
		cc = &countingClient{Client: c}
		return cc
	}, append([]Option{WithClock(func() time.Time { return now })}, extra...)...)
	return s, cc
}

// createBooks creates books 0..n-1 of library lib on shelf, and returns
// their keys.
func createBooks(t *testing.T, s *Store, lib string, n int, shelf string) []BookKey {
	t.Helper()
	var keys []BookKey
	for i := range n {
		b := &Book{LibraryID: lib, BookID: fmt.Sprintf("b%d", i), Shelf: shelf}
		if err := s.CreateBook(context.Background(), b); err != nil {
			t.Fatal(err)
		}
		keys = append(keys, BookKey{LibraryID: lib, BookID: b.BookID})
	}
	return keys
}

// shelves reads the shelf of each key's book ("" where there is none).
func shelves(t *testing.T, s *Store, keys []BookKey) []string {
	t.Helper()
	var out []string
	for _, k := range keys {
		b, err := s.GetBook(context.Background(), k)
		switch {
		case errors.Is(err, ErrNotFound):
			out = append(out, "")
		case err != nil:
			t.Fatal(err)
		default:
			out = append(out, b.Shelf)
		}
	}
	return out
}

func wantShelves(t *testing.T, s *Store, keys []BookKey, want ...string) {
	t.Helper()
	got := shelves(t, s, keys)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("shelves = %q, want %q", got, want)
	}
}

// keyOf is the key of the TransactionError err wraps, or fails.
func txErrKey(t *testing.T, err error) int {
	t.Helper()
	var te *TransactionError
	if !errors.As(err, &te) {
		t.Fatalf("err = %v, want a *TransactionError", err)
	}
	if te.Step != te.Key+1 || te.Action != "update Book" && te.Action != "delete Book" && te.Action != "check Book" && te.Action != "delete Gauge" {
		t.Errorf("TransactionError = %+v: want Step = Key+1 and the write's action", te)
	}
	return te.Key
}

func TestManyAllShelvesEveryBook(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	s, cc := newManyStore(t, now)
	keys := createBooks(t, s, "L1", 3, "A")
	if err := s.ShelveBooks(ctx, keys, "B"); err != nil {
		t.Fatal(err)
	}
	wantShelves(t, s, keys, "B", "B", "B")
	for _, k := range keys {
		b, err := s.GetBook(ctx, k)
		if err != nil {
			t.Fatal(err)
		}
		if !b.ChangedAt.Equal(now) {
			t.Errorf("%v: changedAt = %v, want the clock's %v", k, b.ChangedAt, now)
		}
	}
	if n := cc.transactions.Load(); n != 1 {
		t.Errorf("%d TransactWriteItems, want 1", n)
	}
	// No key: nothing to write, no call.
	if err := s.ShelveBooks(ctx, nil, "C"); err != nil {
		t.Fatal(err)
	}
	if n := cc.transactions.Load(); n != 1 {
		t.Errorf("%d TransactWriteItems after an empty list, want 1", n)
	}
}

func TestManyAllMissingChangesNone(t *testing.T) {
	ctx := context.Background()
	s, _ := newManyStore(t, time.Now())
	keys := createBooks(t, s, "L2", 2, "A")
	keys = append(keys, BookKey{LibraryID: "L2", BookID: "missing"})
	err := s.ShelveBooks(ctx, keys, "B")
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("err = %v, want ErrNotFound", err)
	}
	if k := txErrKey(t, err); k != 2 {
		t.Errorf("TransactionError.Key = %d, want 2", k)
	}
	wantShelves(t, s, keys, "A", "A", "")
}

func TestManyAllExpiredIsAbsent(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	s, _ := newManyStore(t, now)
	keys := createBooks(t, s, "L3", 2, "A")
	past := now.Add(-time.Hour)
	if err := s.CreateBook(ctx, &Book{LibraryID: "L3", BookID: "old", Shelf: "A", ExpiresAt: &past}); err != nil {
		t.Fatal(err)
	}
	keys = append([]BookKey{{LibraryID: "L3", BookID: "old"}}, keys...)
	err := s.ShelveBooks(ctx, keys, "B")
	if !errors.Is(err, ErrNotFound) || txErrKey(t, err) != 0 {
		t.Fatalf("err = %v, want ErrNotFound naming key 0, the expired book", err)
	}
}

func TestManyAllRefusedBeforeTheCall(t *testing.T) {
	ctx := context.Background()
	s, cc := newManyStore(t, time.Now())
	keys := createBooks(t, s, "L4", 2, "A")

	t.Run("101 keys", func(t *testing.T) {
		many := make([]BookKey, 101)
		for i := range many {
			many[i] = BookKey{LibraryID: "L4", BookID: fmt.Sprintf("x%d", i)}
		}
		many[0] = keys[0]
		if err := s.ShelveBooks(ctx, many, "B"); !errors.Is(err, ErrTooManyKeys) {
			t.Fatalf("err = %v, want ErrTooManyKeys", err)
		}
		// 100 is DynamoDB's limit, and taken.
		if err := s.ShelveBooks(ctx, many[:100], "B"); !errors.Is(err, ErrNotFound) || txErrKey(t, err) != 1 {
			t.Fatalf("100 keys: err = %v, want ErrNotFound naming key 1", err)
		}
	})
	t.Run("equal keys", func(t *testing.T) {
		twice := []BookKey{keys[0], keys[1], keys[0]}
		err := s.ShelveBooks(ctx, twice, "B")
		if !errors.Is(err, ErrSameItem) || txErrKey(t, err) != 2 {
			t.Fatalf("err = %v, want ErrSameItem naming key 2", err)
		}
	})
	t.Run("equal numbers", func(t *testing.T) {
		// 0 and -0 are one number, one key.
		gauges := []GaugeKey{{Zone: 0, Level: 1}, {Zone: math.Copysign(0, -1), Level: 1}}
		err := s.DropGauges(ctx, gauges)
		if !errors.Is(err, ErrSameItem) || txErrKey(t, err) != 1 {
			t.Fatalf("err = %v, want ErrSameItem naming key 1", err)
		}
	})
	t.Run("invalid key", func(t *testing.T) {
		bad := []BookKey{keys[0], {LibraryID: "L4", BookID: ""}}
		err := s.ShelveBooks(ctx, bad, "B")
		var ke *KeyError
		if !errors.As(err, &ke) || !errors.Is(err, ErrInvalidKey) || txErrKey(t, err) != 1 {
			t.Fatalf("err = %v, want a KeyError naming key 1", err)
		}
	})
	t.Run("invalid value", func(t *testing.T) {
		long := fmt.Sprintf("%041d", 0) // past shelf's maxLength 40
		var ie *ItemError
		if err := s.ShelveBooks(ctx, keys, long); !errors.As(err, &ie) || txErrKey(t, err) != 0 {
			t.Fatalf("err = %v, want an ItemError naming key 0", err)
		}
	})
	// Only the 100 keys' transaction was sent.
	if n := cc.transactions.Load(); n != 1 {
		t.Errorf("%d TransactWriteItems, want 1", n)
	}
	wantShelves(t, s, keys, "A", "A")
}

func TestManyAllBoundsAndConditions(t *testing.T) {
	ctx := context.Background()
	s, _ := newManyStore(t, time.Now())
	keys := createBooks(t, s, "L5", 3, "A")
	// Book 1 is at loans' max: lending it again fails the bound, and
	// none of the three is lent.
	const most = 1_000_000_000
	if err := s.CreateBook(ctx, &Book{LibraryID: "L5", BookID: "b1", Shelf: "A", Loans: most - 1}); !errors.Is(err, ErrAlreadyExists) {
		t.Fatalf("err = %v, want ErrAlreadyExists", err)
	}
	must(t, s.DeleteBooks(ctx, keys[1:2]))
	must(t, s.CreateBook(ctx, &Book{LibraryID: "L5", BookID: "b1", Shelf: "A", Loans: most - 1}))
	must(t, s.LendBooks(ctx, keys[1:2]))
	err := s.LendBooks(ctx, keys)
	if !errors.Is(err, ErrConditionFailed) || txErrKey(t, err) != 1 {
		t.Fatalf("err = %v, want ErrConditionFailed naming key 1", err)
	}
	for i, k := range keys {
		b, err := s.GetBook(ctx, k)
		if err != nil {
			t.Fatal(err)
		}
		want := int64(0)
		if i == 1 {
			want = most
		}
		if b.Loans != want {
			t.Errorf("book %d: loans = %d, want %d", i, b.Loans, want)
		}
	}

	// Discard the books of shelf A: one is on B, so none is deleted.
	if err := s.ShelveBooks(ctx, keys[2:], "B"); err != nil {
		t.Fatal(err)
	}
	err = s.DiscardBooks(ctx, keys, "A")
	if !errors.Is(err, ErrConditionFailed) || txErrKey(t, err) != 2 {
		t.Fatalf("err = %v, want ErrConditionFailed naming key 2", err)
	}
	wantShelves(t, s, keys, "A", "A", "B")
	if err := s.DiscardBooks(ctx, keys[:2], "A"); err != nil {
		t.Fatal(err)
	}
	wantShelves(t, s, keys, "", "", "B")
}

func TestManyEach(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	s, cc := newManyStore(t, now, WithBatchConcurrency(3))
	keys := createBooks(t, s, "L6", 4, "A")
	// Keys 1 and 3 have no book.
	mixed := []BookKey{keys[0], {LibraryID: "L6", BookID: "none1"}, keys[2], {LibraryID: "L6", BookID: "none3"}}
	items, err := s.ShelveEach(ctx, mixed, "B")
	var ee *EachError
	if !errors.As(err, &ee) || !errors.Is(err, ErrNotFound) {
		t.Fatalf("err = %v, want an *EachError wrapping ErrNotFound", err)
	}
	if ee.Refused || len(ee.Failed) != 2 || ee.Failed[0].Key != 1 || ee.Failed[1].Key != 3 {
		t.Fatalf("EachError = %+v, want keys 1 and 3 failed", ee)
	}
	for _, f := range ee.Failed {
		if !errors.Is(f.Err, ErrNotFound) {
			t.Errorf("key %d: %v, want ErrNotFound", f.Key, f.Err)
		}
	}
	if len(items) != 4 || items[1] != nil || items[3] != nil {
		t.Fatalf("items = %v, want 4, nil at 1 and 3", items)
	}
	for _, i := range []int{0, 2} {
		if b := items[i]; b == nil || b.BookID != mixed[i].BookID || b.Shelf != "B" || !b.ChangedAt.Equal(now) {
			t.Errorf("items[%d] = %+v, want book %s on B, changed at the clock's time", i, b, mixed[i].BookID)
		}
	}
	wantShelves(t, s, keys, "B", "A", "B", "A")
	if n := cc.updates.Load(); n != 4 {
		t.Errorf("%d UpdateItem, want one per key, 4", n)
	}

	// Many keys, more than the concurrency and than 100: every one is
	// written.
	var lots []BookKey
	for i := range 120 {
		lots = append(lots, BookKey{LibraryID: "L6", BookID: fmt.Sprintf("x%d", i)})
	}
	for _, k := range lots {
		if err := s.CreateBook(ctx, &Book{LibraryID: k.LibraryID, BookID: k.BookID, Shelf: "A"}); err != nil {
			t.Fatal(err)
		}
	}
	items, err = s.ShelveEach(ctx, lots, "C")
	if err != nil {
		t.Fatal(err)
	}
	for i, b := range items {
		if b == nil || b.BookID != lots[i].BookID || b.Shelf != "C" {
			t.Fatalf("items[%d] = %+v, want book %s on C", i, b, lots[i].BookID)
		}
	}
	wantShelves(t, s, lots[:3], "C", "C", "C")

	// A refused key: nothing is sent.
	before := cc.updates.Load()
	items, err = s.ShelveEach(ctx, []BookKey{keys[0], {LibraryID: "", BookID: "b"}}, "D")
	if !errors.As(err, &ee) || !ee.Refused || len(ee.Failed) != 1 || ee.Failed[0].Key != 1 || !errors.Is(err, ErrInvalidKey) || items != nil {
		t.Fatalf("items, err = %v, %v, want nil and a refused EachError naming key 1", items, err)
	}
	if n := cc.updates.Load(); n != before {
		t.Errorf("%d UpdateItem sent after a refused key", n-before)
	}

	// Delete each: an absent book is no error.
	if err := s.DeleteBooks(ctx, mixed); err != nil {
		t.Fatal(err)
	}
	wantShelves(t, s, keys, "", "A", "", "A")
}

func TestManyCheck(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	s, cc := newManyStore(t, now)
	keys := createBooks(t, s, "L7", 3, "A")
	if err := s.BooksOnShelf(ctx, keys, "A"); err != nil {
		t.Fatal(err)
	}
	if err := s.ShelveBooks(ctx, keys[1:2], "B"); err != nil {
		t.Fatal(err)
	}
	err := s.BooksOnShelf(ctx, keys, "A")
	if !errors.Is(err, ErrConditionFailed) || txErrKey(t, err) != 1 {
		t.Fatalf("err = %v, want ErrConditionFailed naming key 1", err)
	}
	past := now.Add(-time.Minute)
	if err := s.CreateBook(ctx, &Book{LibraryID: "L7", BookID: "old", Shelf: "A", ExpiresAt: &past}); err != nil {
		t.Fatal(err)
	}
	for _, missing := range []BookKey{{LibraryID: "L7", BookID: "none"}, {LibraryID: "L7", BookID: "old"}} {
		err = s.BooksOnShelf(ctx, []BookKey{keys[0], keys[2], missing}, "A")
		if !errors.Is(err, ErrNotFound) || txErrKey(t, err) != 2 {
			t.Fatalf("%v: err = %v, want ErrNotFound naming key 2", missing, err)
		}
	}
	// A check writes nothing.
	wantShelves(t, s, keys, "A", "B", "A")
	if n := cc.updates.Load() + cc.deletes.Load(); n != 0 {
		t.Errorf("%d single writes, want none", n)
	}
}

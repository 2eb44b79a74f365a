package e2e

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestVersionLostUpdates: 16 writers, half with a replacing put and half
// with an update, each read the counter, wait until all have read it, and
// write their increment with the version read, round after round. In a
// round all hold one version: exactly one write succeeds and the 15 others
// are ErrVersionConflict, whatever order DynamoDB serves them in. After
// the rounds the counter holds one increment per round and its version
// one more: no increment is lost, none is counted twice.
func TestVersionLostUpdates(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t, nil)
	ctx := t.Context()
	key := CounterKey{OwnerID: "o", CounterID: "race"}
	must(t, s.CreateCounter(ctx, &Counter{OwnerID: key.OwnerID, CounterID: key.CounterID}))
	const writers, rounds = 16, 40
	for round := range rounds {
		var read, done sync.WaitGroup
		read.Add(writers)
		write := make(chan struct{})
		errs := make(chan error, writers)
		for w := range writers {
			done.Go(func() {
				cur, err := s.GetCounter(ctx, key)
				read.Done()
				if err != nil {
					errs <- err
					return
				}
				<-write // every writer holds the version read
				if w%2 == 0 {
					cur.Count++
					err = s.PutCounter(ctx, cur)
				} else {
					_, err = s.SetCount(ctx, SetCountParams{OwnerID: key.OwnerID, CounterID: key.CounterID, CounterRev: cur.Rev, Count: cur.Count + 1})
				}
				errs <- err
			})
		}
		read.Wait()
		close(write)
		done.Wait()
		close(errs)
		won, conflicts := 0, 0
		for err := range errs {
			switch {
			case err == nil:
				won++
			case errors.Is(err, ErrVersionConflict):
				conflicts++
			default:
				t.Fatalf("round %d: %v", round, err)
			}
		}
		if won != 1 || conflicts != writers-1 {
			t.Fatalf("round %d: %d writes of one version succeeded and %d conflicted, want 1 and %d", round, won, conflicts, writers-1)
		}
	}
	got, err := s.GetCounter(ctx, key)
	must(t, err)
	if got.Count != rounds || got.Rev != rounds+1 {
		t.Errorf("after %d rounds: count %d, version %d; want %d and %d", rounds, got.Count, got.Rev, rounds, rounds+1)
	}
}

// TestVersionErrors: create writes version 1 whatever the item holds; a
// stale version is ErrVersionConflict, not ErrNotFound, and changes
// nothing; an absent item is ErrNotFound for put, update and delete.
func TestVersionErrors(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t, nil)
	ctx := t.Context()
	c := &Counter{OwnerID: "o", CounterID: "c", Rev: 41, Count: 5}
	must(t, s.CreateCounter(ctx, c))
	if c.Rev != 1 {
		t.Errorf("CreateCounter left the item's Rev %d, want 1", c.Rev)
	}
	stored, err := s.GetCounter(ctx, CounterKey{OwnerID: "o", CounterID: "c"})
	must(t, err)
	if stored.Rev != 1 || stored.Count != 5 {
		t.Errorf("created counter: %+v, want version 1, count 5", stored)
	}
	// A put with the version read writes the next one, into the item too.
	stale := *stored
	stored.Count = 6
	must(t, s.PutCounter(ctx, stored))
	if stored.Rev != 2 {
		t.Errorf("PutCounter left the item's Rev %d, want 2", stored.Rev)
	}
	// The version read before that put is stale now.
	stale.Count = 100
	checkConflict := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, ErrVersionConflict) || errors.Is(err, ErrNotFound) || errors.Is(err, ErrConditionFailed) {
			t.Errorf("%s with a stale version: %v, want ErrVersionConflict only", what, err)
		}
	}
	checkConflict("PutCounter", s.PutCounter(ctx, &stale))
	if stale.Rev != 1 {
		t.Errorf("a failed PutCounter changed the item's Rev to %d", stale.Rev)
	}
	_, err = s.SetCount(ctx, SetCountParams{OwnerID: "o", CounterID: "c", CounterRev: 1, Count: 100})
	checkConflict("SetCount", err)
	checkConflict("DeleteCounter", s.DeleteCounter(ctx, DeleteCounterParams{OwnerID: "o", CounterID: "c", CounterRev: 1}))
	got, err := s.GetCounter(ctx, CounterKey{OwnerID: "o", CounterID: "c"})
	must(t, err)
	if got.Rev != 2 || got.Count != 6 {
		t.Errorf("after the stale writes: %+v, want version 2, count 6", got)
	}
	// An update with the version read returns the next one.
	upd, err := s.SetCount(ctx, SetCountParams{OwnerID: "o", CounterID: "c", CounterRev: 2, Count: 7})
	must(t, err)
	if upd.Rev != 3 || upd.Count != 7 {
		t.Errorf("SetCount returned %+v, want version 3, count 7", upd)
	}
	must(t, s.DeleteCounter(ctx, DeleteCounterParams{OwnerID: "o", CounterID: "c", CounterRev: 3}))
	// No item: ErrNotFound, not a conflict.
	checkNotFound := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, ErrNotFound) || errors.Is(err, ErrVersionConflict) {
			t.Errorf("%s of an absent item: %v, want ErrNotFound only", what, err)
		}
	}
	checkNotFound("PutCounter", s.PutCounter(ctx, &Counter{OwnerID: "o", CounterID: "c", Rev: 3}))
	_, err = s.SetCount(ctx, SetCountParams{OwnerID: "o", CounterID: "c", CounterRev: 3, Count: 1})
	checkNotFound("SetCount", err)
	checkNotFound("DeleteCounter", s.DeleteCounter(ctx, DeleteCounterParams{OwnerID: "o", CounterID: "c", CounterRev: 3}))
	if _, err := s.GetCounter(ctx, CounterKey{OwnerID: "o", CounterID: "c"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("the put of an absent item wrote it: %v", err)
	}
}

// fakeClock is a clock the test moves.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
}

// TestTimestamps: under a fake clock, create sets both times whatever
// the caller gives; an update moves only the updated time; an upsert
// writes the created time only when it creates the item.
func TestTimestamps(t *testing.T) {
	t.Parallel()
	clock := &fakeClock{}
	s, _ := newStore(t, nil, WithClock(clock.Now))
	ctx := t.Context()
	t1 := time.Date(2025, 1, 2, 3, 4, 5, 600_000_000, time.UTC)
	t2 := t1.Add(90 * time.Minute)
	t3 := t2.Add(24 * time.Hour)
	clock.set(t1)
	l := &Ledger{OwnerID: "o", LedgerID: "l", Note: "first", CreatedAt: t3, UpdatedAt: t3}
	must(t, s.CreateLedger(ctx, l))
	if !l.CreatedAt.Equal(t1) || !l.UpdatedAt.Equal(t1) {
		t.Errorf("CreateLedger left the item's times %v, %v; want %v for both", l.CreatedAt, l.UpdatedAt, t1)
	}
	got, err := s.GetLedger(ctx, LedgerKey{OwnerID: "o", LedgerID: "l"})
	must(t, err)
	if !got.CreatedAt.Equal(t1) || !got.UpdatedAt.Equal(t1) {
		t.Errorf("created ledger: created %v, updated %v; want %v for both", got.CreatedAt, got.UpdatedAt, t1)
	}
	clock.set(t2)
	upd, err := s.Annotate(ctx, AnnotateParams{OwnerID: "o", LedgerID: "l", Note: "second"})
	must(t, err)
	if !upd.CreatedAt.Equal(t1) || !upd.UpdatedAt.Equal(t2) || upd.Note != "second" {
		t.Errorf("Annotate returned created %v, updated %v, note %q; want %v, %v, second", upd.CreatedAt, upd.UpdatedAt, upd.Note, t1, t2)
	}
	// An upsert of an existing item keeps its created time.
	clock.set(t3)
	upd, err = s.OpenLedger(ctx, OpenLedgerParams{OwnerID: "o", LedgerID: "l", Note: "third"})
	must(t, err)
	if !upd.CreatedAt.Equal(t1) || !upd.UpdatedAt.Equal(t3) {
		t.Errorf("OpenLedger of an existing ledger: created %v, updated %v; want %v, %v", upd.CreatedAt, upd.UpdatedAt, t1, t3)
	}
	// An upsert that creates the item writes both.
	upd, err = s.OpenLedger(ctx, OpenLedgerParams{OwnerID: "o", LedgerID: "new", Note: "n"})
	must(t, err)
	if !upd.CreatedAt.Equal(t3) || !upd.UpdatedAt.Equal(t3) {
		t.Errorf("OpenLedger of a new ledger: created %v, updated %v; want %v for both", upd.CreatedAt, upd.UpdatedAt, t3)
	}
}

// TestVersionTimestamps: a versioned counter's updated time moves with
// every write, from the Store's clock, in the format of its attribute.
func TestVersionTimestamps(t *testing.T) {
	t.Parallel()
	clock := &fakeClock{}
	s, _ := newStore(t, nil, WithClock(clock.Now))
	ctx := t.Context()
	t1 := time.Date(2025, 5, 6, 7, 8, 9, 123_000_000, time.UTC)
	clock.set(t1)
	c := &Counter{OwnerID: "o", CounterID: "t"}
	must(t, s.CreateCounter(ctx, c))
	if !c.UpdatedAt.Equal(t1) {
		t.Errorf("CreateCounter: updated %v, want %v", c.UpdatedAt, t1)
	}
	t2 := t1.Add(time.Second)
	clock.set(t2)
	must(t, s.PutCounter(ctx, c))
	got, err := s.GetCounter(ctx, CounterKey{OwnerID: "o", CounterID: "t"})
	must(t, err)
	if !got.UpdatedAt.Equal(t2) || got.Rev != 2 {
		t.Errorf("after PutCounter: updated %v, version %d; want %v, 2", got.UpdatedAt, got.Rev, t2)
	}
}

// TestReplaceKeepsCreated: a replacing put of an entity with a created
// time keeps the stored created time whatever the caller gives, writes
// the clock's updated time, writes a new item's created time from the
// clock, and removes what the new item lacks (an optional attribute, and
// with it the item's entry of the sparse index).
func TestReplaceKeepsCreated(t *testing.T) {
	t.Parallel()
	clock := &fakeClock{}
	s, _ := newStore(t, nil, WithClock(clock.Now))
	ctx := t.Context()
	t1 := time.Date(2025, 2, 3, 4, 5, 6, 0, time.UTC)
	t2 := t1.Add(time.Hour)
	long := time.Date(1999, 1, 1, 0, 0, 0, 0, time.UTC)
	clock.set(t1)
	// A put of a new item writes the clock's time as its created time.
	tag := "red"
	l := &Ledger{OwnerID: "o", LedgerID: "p", Note: "one", Tag: &tag, CreatedAt: long}
	must(t, s.PutLedger(ctx, l))
	if !l.CreatedAt.Equal(t1) || !l.UpdatedAt.Equal(t1) {
		t.Errorf("PutLedger of a new ledger: created %v, updated %v; want %v for both", l.CreatedAt, l.UpdatedAt, t1)
	}
	if got := collect(t, s.LedgersTaggedAll(ctx, "red")); len(got) != 1 {
		t.Errorf("LedgersTagged(red) read %d ledgers, want 1", len(got))
	}
	// A replacing put keeps it, whatever the caller gives.
	clock.set(t2)
	r := &Ledger{OwnerID: "o", LedgerID: "p", Note: "two", CreatedAt: long, UpdatedAt: long}
	must(t, s.PutLedger(ctx, r))
	got, err := s.GetLedger(ctx, LedgerKey{OwnerID: "o", LedgerID: "p"})
	must(t, err)
	if !got.CreatedAt.Equal(t1) || !got.UpdatedAt.Equal(t2) || got.Note != "two" || got.Tag != nil {
		t.Errorf("replaced ledger: created %v, updated %v, note %q, tag %v; want %v, %v, two, no tag", got.CreatedAt, got.UpdatedAt, got.Note, got.Tag, t1, t2)
	}
	if !r.CreatedAt.Equal(t1) || !r.UpdatedAt.Equal(t2) {
		t.Errorf("PutLedger left the item's times %v, %v; want %v, %v", r.CreatedAt, r.UpdatedAt, t1, t2)
	}
	if got := collect(t, s.LedgersTaggedAll(ctx, "red")); len(got) != 0 {
		t.Errorf("LedgersTagged(red) read %d ledgers after the tag was dropped, want 0", len(got))
	}
}

// TestVersionedReplace: the put of a versioned entity with a created
// time, one UpdateItem, checks the version read like a PutItem would:
// the next version and the created time kept on success, a stale version
// ErrVersionConflict, an absent item ErrNotFound and no item written.
func TestVersionedReplace(t *testing.T) {
	t.Parallel()
	clock := &fakeClock{}
	s, _ := newStore(t, nil, WithClock(clock.Now))
	ctx := t.Context()
	t1 := time.Date(2025, 7, 8, 9, 10, 11, 0, time.UTC)
	t2 := t1.Add(time.Minute)
	clock.set(t1)
	v := &Vault{OwnerID: "o", VaultID: "v", Gold: 1}
	must(t, s.CreateVault(ctx, v))
	stale := *v
	clock.set(t2)
	v.Gold = 2
	v.CreatedAt = t2
	must(t, s.PutVault(ctx, v))
	if v.Rev != 2 || !v.CreatedAt.Equal(t1) || !v.UpdatedAt.Equal(t2) {
		t.Errorf("after PutVault: version %d, created %v, updated %v; want 2, %v, %v", v.Rev, v.CreatedAt, v.UpdatedAt, t1, t2)
	}
	stale.Gold = 100
	if err := s.PutVault(ctx, &stale); !errors.Is(err, ErrVersionConflict) || errors.Is(err, ErrNotFound) {
		t.Errorf("PutVault with a stale version: %v, want ErrVersionConflict", err)
	}
	got, err := s.GetVault(ctx, VaultKey{OwnerID: "o", VaultID: "v"})
	must(t, err)
	if got.Gold != 2 || got.Rev != 2 {
		t.Errorf("after a stale put: %+v, want gold 2, version 2", got)
	}
	if err := s.PutVault(ctx, &Vault{OwnerID: "o", VaultID: "none", Rev: 1}); !errors.Is(err, ErrNotFound) || errors.Is(err, ErrVersionConflict) {
		t.Errorf("PutVault of an absent item: %v, want ErrNotFound", err)
	}
	if _, err := s.GetVault(ctx, VaultKey{OwnerID: "o", VaultID: "none"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("the put of an absent item wrote it: %v", err)
	}
}

// TestCreatedKey: an index key built from the created time ("newest
// first") holds the time the Store writes at create; a replacing put
// keeps the stored time and key (if_not_exists) whatever the caller's
// item says, and writes the clock's time for a new item; an update that
// does not touch the key leaves it.
func TestCreatedKey(t *testing.T) {
	ctx := t.Context()
	clock := &fakeClock{}
	t1 := time.Date(2025, 3, 1, 10, 0, 0, 111, time.UTC)
	t2, t3 := t1.Add(time.Minute), t1.Add(2*time.Minute)
	s, _ := newStore(t, nil, WithClock(clock.Now))
	newest := func() []string {
		t.Helper()
		res, err := s.NewestPosts(ctx, "ann", Page{})
		must(t, err)
		var ids []string
		for _, p := range res.Items {
			ids = append(ids, p.PostID+"@"+p.CreatedAt.Format(time.TimeOnly))
		}
		return ids
	}
	clock.set(t1)
	first := &Post{Author: "ann", PostID: "p1", Title: "first", CreatedAt: t3.Add(time.Hour)}
	must(t, s.CreatePost(ctx, first))
	if !first.CreatedAt.Equal(t1) {
		t.Errorf("created %v, want the clock's %v", first.CreatedAt, t1)
	}
	clock.set(t2)
	must(t, s.CreatePost(ctx, &Post{Author: "ann", PostID: "p2", Title: "second"}))
	if got, want := strings.Join(newest(), " "), "p2@10:01:00 p1@10:00:00"; got != want {
		t.Errorf("newest first: %s, want %s", got, want)
	}
	// A put of p1 whose caller gives another time keeps the stored one,
	// in the item and in its key: p1 stays second.
	clock.set(t3)
	replaced := &Post{Author: "ann", PostID: "p1", Title: "first, again", CreatedAt: t3.Add(time.Hour)}
	must(t, s.PutPost(ctx, replaced))
	if !replaced.CreatedAt.Equal(t1) || replaced.Title != "first, again" {
		t.Errorf("after the put: %+v; want created %v", replaced, t1)
	}
	// A put of a new post writes the clock's time and its key.
	must(t, s.PutPost(ctx, &Post{Author: "ann", PostID: "p3", Title: "third"}))
	_, err := s.RetitlePost(ctx, RetitlePostParams{PostID: "p2", Title: "second, retitled"})
	must(t, err)
	if got, want := strings.Join(newest(), " "), "p3@10:02:00 p2@10:01:00 p1@10:00:00"; got != want {
		t.Errorf("newest first after the puts: %s, want %s", got, want)
	}
	// Moving p1 to another author rewrites the partition key only; its
	// sort key, built from the created time, stays.
	_, err = s.MovePost(ctx, MovePostParams{PostID: "p1", Author: "bob"})
	must(t, err)
	res, err := s.NewestPosts(ctx, "bob", Page{})
	must(t, err)
	if len(res.Items) != 1 || !res.Items[0].CreatedAt.Equal(t1) {
		t.Errorf("bob's posts: %+v; want p1 created %v", res.Items, t1)
	}
}

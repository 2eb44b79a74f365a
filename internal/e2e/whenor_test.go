package e2e

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
)

// loanCap is the most active loans BorrowTool and LendTool allow: their
// when is {or: [{active: notExists}, {active: {"<": 3}}]}.
const loanCap = 3

// TestBorrowToolCap borrows on a counter that does not exist yet: the
// first borrow creates it (attribute_not_exists(#active) holds), the next
// ones hold while active < 3, and the fourth fails with
// ErrConditionFailed, leaving the count at the cap.
func TestBorrowToolCap(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t, nil)
	ctx := t.Context()
	if _, err := s.GetLoanCount(ctx, "m"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("GetLoanCount before any borrow: %v, want ErrNotFound", err)
	}
	for i := 1; i <= loanCap; i++ {
		got, err := s.BorrowTool(ctx, "m")
		if err != nil {
			t.Fatalf("borrow %d: %v", i, err)
		}
		if got.Active == nil || *got.Active != int64(i) {
			t.Fatalf("borrow %d: active %v, want %d", i, got.Active, i)
		}
	}
	if _, err := s.BorrowTool(ctx, "m"); !errors.Is(err, ErrConditionFailed) {
		t.Errorf("borrow %d: %v, want ErrConditionFailed", loanCap+1, err)
	}
	got, err := s.GetLoanCount(ctx, "m")
	must(t, err)
	if got.Active == nil || *got.Active != loanCap {
		t.Errorf("active after the refused borrow: %v, want %d", got.Active, loanCap)
	}
	// Another member's counter is its own.
	if _, err := s.BorrowTool(ctx, "other"); err != nil {
		t.Errorf("borrow of another member: %v", err)
	}
}

// TestBorrowToolConcurrent races 16 borrowers on a counter that does not
// exist yet: exactly loanCap of them succeed, the others fail with
// ErrConditionFailed, and the count is the cap.
func TestBorrowToolConcurrent(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t, nil)
	ctx := t.Context()
	const borrowers = 16
	errs := make([]error, borrowers)
	var wg sync.WaitGroup
	for i := range borrowers {
		wg.Go(func() {
			_, errs[i] = s.BorrowTool(ctx, "race")
		})
	}
	wg.Wait()
	won := 0
	for i, err := range errs {
		switch {
		case err == nil:
			won++
		case !errors.Is(err, ErrConditionFailed):
			t.Errorf("borrower %d: %v, want nil or ErrConditionFailed", i, err)
		}
	}
	if won != loanCap {
		t.Errorf("%d borrowers won, want %d", won, loanCap)
	}
	got, err := s.GetLoanCount(ctx, "race")
	must(t, err)
	if got.Active == nil || *got.Active != loanCap {
		t.Errorf("active after the race: %v, want %d", got.Active, loanCap)
	}
}

// TestCreateToolConstants creates tools whose status and checked the
// caller gives otherwise (or not at all): the stored item holds the
// constants, GSI1's key is built from the constant status, and the
// caller's item reads them after the call.
func TestCreateToolConstants(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t, nil)
	ctx := t.Context()
	yes := true
	tool := &Tool{ToolID: "t1", Status: ToolStatusLent, Owner: "ann", Price: 5, Checked: &yes}
	must(t, s.CreateTool(ctx, tool))
	if tool.Status != ToolStatusAvailable || tool.Checked == nil || *tool.Checked {
		t.Errorf("the caller's item after CreateTool: status %q, checked %v; want available, false", tool.Status, tool.Checked)
	}
	stored, err := s.GetTool(ctx, "t1")
	must(t, err)
	if stored.Status != ToolStatusAvailable || stored.Checked == nil || *stored.Checked || stored.Owner != "ann" || stored.Price != 5 {
		t.Errorf("stored tool %+v (checked %v); want available, checked false, owner ann, price 5", stored, stored.Checked)
	}
	// An empty status (no valid value) is no matter: the constant is written.
	must(t, s.CreateTool(ctx, &Tool{ToolID: "t2", Owner: "bob", Price: 7}))
	// GSI1 is keyed by the status written, not the one given.
	all := ToolsByStatusParams{Status: ToolStatusAvailable, Price: 1000}
	if got := toolIDs(t, s, all); !slices.Equal(got, []string{"t1", "t2"}) {
		t.Errorf("available tools: %v, want [t1 t2]", got)
	}
	if got := toolIDs(t, s, ToolsByStatusParams{Status: ToolStatusLent, Price: 1000}); len(got) != 0 {
		t.Errorf("lent tools: %v, want none", got)
	}
	// A create that fails leaves the caller's item as it was.
	again := &Tool{ToolID: "t1", Status: ToolStatusBroken, Owner: "ann", Price: 5}
	if err := s.CreateTool(ctx, again); !errors.Is(err, ErrAlreadyExists) {
		t.Errorf("CreateTool of t1 again: %v, want ErrAlreadyExists", err)
	}
	if again.Status != ToolStatusBroken || again.Checked != nil {
		t.Errorf("the caller's item after a failed create: status %q, checked %v; want broken, nil", again.Status, again.Checked)
	}
}

// TestToolsByStatusOr filters with price < :price OR #price > :price2
// AND (#owner = :owner OR #owner = :owner2): the two conditions on price
// and on owner take their own parameters.
func TestToolsByStatusOr(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t, nil)
	ctx := t.Context()
	for i, tl := range []struct {
		owner string
		price int64
	}{{"ann", 5}, {"ann", 200}, {"bob", 300}, {"cat", 400}, {"ann", 50}, {"bob", 9}} {
		must(t, s.CreateTool(ctx, &Tool{ToolID: fmt.Sprintf("t%d", i+1), Owner: tl.owner, Price: tl.price}))
	}
	got := toolIDs(t, s, ToolsByStatusParams{Status: ToolStatusAvailable, Price: 10, Price2: 100, Owner: "ann", Owner2: "bob"})
	if want := []string{"t1", "t2", "t3", "t6"}; !slices.Equal(got, want) {
		t.Errorf("price < 10 OR price > 100 AND (owner ann OR bob): %v, want %v", got, want)
	}
	got = toolIDs(t, s, ToolsByStatusParams{Status: ToolStatusAvailable, Price: 0, Price2: 100, Owner: "cat", Owner2: "cat"})
	if want := []string{"t4"}; !slices.Equal(got, want) {
		t.Errorf("price < 0 OR price > 100 AND owner cat: %v, want %v", got, want)
	}
}

// toolIDs are the ids of the tools ToolsByStatus reads, in key order.
func toolIDs(t *testing.T, s *Store, p ToolsByStatusParams) []string {
	t.Helper()
	var ids []string
	for _, tl := range collect(t, s.ToolsByStatusAll(t.Context(), p)) {
		ids = append(ids, tl.ToolID)
	}
	return ids
}

// TestPutBrokenTool puts tools as broken, with when {or: [{toolId:
// notExists}, {status: {"<>": lent}}]}: over no item, and over a tool
// that is not lent; a lent tool fails with ErrConditionFailed and the
// caller's item stays as it was. DropTool deletes a broken tool, and
// no tool is no error.
func TestPutBrokenTool(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t, nil)
	ctx := t.Context()
	fresh := &Tool{ToolID: "p1", Status: ToolStatusAvailable, Owner: "ann", Price: 3}
	must(t, s.PutBrokenTool(ctx, fresh))
	if fresh.Status != ToolStatusBroken {
		t.Errorf("the caller's item after PutBrokenTool: status %q, want broken", fresh.Status)
	}
	stored, err := s.GetTool(ctx, "p1")
	must(t, err)
	if stored.Status != ToolStatusBroken {
		t.Errorf("stored status %q, want broken", stored.Status)
	}
	// Over an available tool: it is not lent.
	must(t, s.CreateTool(ctx, &Tool{ToolID: "p2", Owner: "bob", Price: 4}))
	must(t, s.PutBrokenTool(ctx, &Tool{ToolID: "p2", Owner: "bob", Price: 4}))
	// Over a lent tool: refused.
	must(t, s.LendTool(ctx, LendToolParams{Tool: &Tool{ToolID: "p3", Owner: "cat", Price: 5}}))
	over := &Tool{ToolID: "p3", Status: ToolStatusAvailable, Owner: "cat", Price: 5}
	if err := s.PutBrokenTool(ctx, over); !errors.Is(err, ErrConditionFailed) {
		t.Errorf("PutBrokenTool over a lent tool: %v, want ErrConditionFailed", err)
	}
	if over.Status != ToolStatusAvailable {
		t.Errorf("the caller's item after a failed put: status %q, want available", over.Status)
	}
	// DropTool: a broken tool goes, a lent one stays, no tool is no error.
	must(t, s.DropTool(ctx, "p1"))
	if _, err := s.GetTool(ctx, "p1"); !errors.Is(err, ErrNotFound) {
		t.Errorf("GetTool of the dropped tool: %v, want ErrNotFound", err)
	}
	must(t, s.DropTool(ctx, "p1"))
	if err := s.DropTool(ctx, "p3"); !errors.Is(err, ErrConditionFailed) {
		t.Errorf("DropTool of a lent tool: %v, want ErrConditionFailed", err)
	}
}

// TestLendTool writes a new tool as lent in a transaction, whatever the
// caller's item holds, and counts it on its owner's counter, which may
// not exist yet: the caller's item reads lent after the call; the fourth
// lend to one owner fails at step 2 with ErrConditionFailed, and writes
// no tool.
func TestLendTool(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t, nil)
	ctx := t.Context()
	for i := 1; i <= loanCap; i++ {
		tl := &Tool{ToolID: fmt.Sprintf("l%d", i), Status: ToolStatusAvailable, Owner: "dan", Price: 1}
		must(t, s.LendTool(ctx, LendToolParams{Tool: tl}))
		if tl.Status != ToolStatusLent {
			t.Errorf("lend %d: the caller's item reads status %q, want lent", i, tl.Status)
		}
		stored, err := s.GetTool(ctx, tl.ToolID)
		must(t, err)
		if stored.Status != ToolStatusLent {
			t.Errorf("lend %d: stored status %q, want lent", i, stored.Status)
		}
	}
	extra := &Tool{ToolID: "l4", Status: ToolStatusAvailable, Owner: "dan", Price: 1}
	err := s.LendTool(ctx, LendToolParams{Tool: extra})
	var te *TransactionError
	if !errors.As(err, &te) || te.Step != 2 || !errors.Is(err, ErrConditionFailed) {
		t.Fatalf("lend %d: %v, want a *TransactionError of step 2, ErrConditionFailed", loanCap+1, err)
	}
	if extra.Status != ToolStatusAvailable {
		t.Errorf("the caller's item after a failed lend: status %q, want available", extra.Status)
	}
	if _, err := s.GetTool(ctx, "l4"); !errors.Is(err, ErrNotFound) {
		t.Errorf("GetTool of the tool of the failed lend: %v, want ErrNotFound", err)
	}
	got, err := s.GetLoanCount(ctx, "dan")
	must(t, err)
	if got.Active == nil || *got.Active != loanCap {
		t.Errorf("dan's active loans: %v, want %d", got.Active, loanCap)
	}
}

// TestTakeLeaseOr: an or in the when of an update of a versioned entity
// that expires, (#holder = :holder_when OR begins_with(#holder,
// :holder_when2)), joined by AND to the item's existence, its expiry and
// its version: the errors are told apart as without or. No item, or an
// expired one, is ErrNotFound; a stale version is ErrVersionConflict; a
// holder neither free nor a guest is ErrConditionFailed.
func TestTakeLeaseOr(t *testing.T) {
	ctx := t.Context()
	now, later := expiryStores(t)
	must(t, now.CreateLease(ctx, &Lease{LeaseID: "l", Holder: "free", ExpiresAt: soon()}))
	if _, err := now.TakeLease(ctx, TakeLeaseParams{LeaseID: "none", LeaseRev: 1, Holder: "ann"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("TakeLease of no lease: %v, want ErrNotFound", err)
	}
	if _, err := now.TakeLease(ctx, TakeLeaseParams{LeaseID: "l", LeaseRev: 7, Holder: "ann"}); !errors.Is(err, ErrVersionConflict) {
		t.Errorf("TakeLease with a stale version: %v, want ErrVersionConflict", err)
	}
	got, err := now.TakeLease(ctx, TakeLeaseParams{LeaseID: "l", LeaseRev: 1, Holder: "ann"})
	if err != nil {
		t.Fatalf("TakeLease of a free lease: %v", err)
	}
	if got.Holder != "ann" || got.Rev != 2 {
		t.Errorf("TakeLease gave holder %q, version %d; want ann, 2", got.Holder, got.Rev)
	}
	// Held by ann: neither branch holds, at the right version.
	_, err = now.TakeLease(ctx, TakeLeaseParams{LeaseID: "l", LeaseRev: 2, Holder: "bob"})
	if !errors.Is(err, ErrConditionFailed) || errors.Is(err, ErrVersionConflict) || errors.Is(err, ErrNotFound) {
		t.Errorf("TakeLease of a held lease: %v, want ErrConditionFailed alone", err)
	}
	// A guest's lease is taken: the second branch.
	if _, err := now.RenewLease(ctx, RenewLeaseParams{LeaseID: "l", LeaseRev: 2, Holder: "guest-7"}); err != nil {
		t.Fatalf("RenewLease to a guest: %v", err)
	}
	if got, err = now.TakeLease(ctx, TakeLeaseParams{LeaseID: "l", LeaseRev: 3, Holder: "bob"}); err != nil || got.Holder != "bob" {
		t.Errorf("TakeLease of a guest's lease: %v, %+v; want bob's", err, got)
	}
	// Expired: absent, whatever the when and the version.
	if _, err := later.TakeLease(ctx, TakeLeaseParams{LeaseID: "l", LeaseRev: 4, Holder: "cy"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("TakeLease of an expired lease: %v, want ErrNotFound", err)
	}
}

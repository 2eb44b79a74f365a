package e2e

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestVersionedExpiry: an update of a versioned item whose time to live
// has passed is ErrNotFound, whatever version it is given: an expired item
// is absent, as for an update of its own entity without a version.
func TestVersionedExpiry(t *testing.T) {
	ctx := context.Background()
	now, later := expiryStores(t)
	l := &Lease{LeaseID: "l", Holder: "ann", ExpiresAt: soon()}
	must(t, now.CreateLease(ctx, l))
	if _, err := now.RenewLease(ctx, RenewLeaseParams{LeaseID: "l", LeaseRev: 1, Holder: "bob"}); err != nil {
		t.Fatalf("RenewLease of a live lease: %v", err)
	}
	for _, rev := range []int64{2, 1} {
		if _, err := later.RenewLease(ctx, RenewLeaseParams{LeaseID: "l", LeaseRev: rev, Holder: "cy"}); !errors.Is(err, ErrNotFound) || errors.Is(err, ErrVersionConflict) {
			t.Errorf("RenewLease of an expired lease with version %d: %v, want ErrNotFound", rev, err)
		}
	}
}

// TestVersionedUnique: a versioned entity with a unique value. A put or
// delete of the version read never recreates an item another writer
// deleted (ErrNotFound); a put whose item lacks an attribute MarshalItem
// leaves out (an empty set) removes it, as a PutItem would.
func TestVersionedUnique(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t, nil)
	p := &Profile{ProfileID: "p", Handle: "ann", Tags: []string{"a"}}
	must(t, s.CreateProfile(ctx, p))
	if p.Rev != 1 || p.CreatedAt.IsZero() {
		t.Errorf("after CreateProfile the caller's item is %+v, want version 1 and its created time", p)
	}
	got, err := s.GetProfile(ctx, "p")
	must(t, err)
	if got.Rev != 1 {
		t.Fatalf("a created profile has version %d, want 1", got.Rev)
	}
	// An empty set: the put removes the attribute.
	got.Tags = nil
	must(t, s.PutProfile(ctx, got))
	again, err := s.GetProfile(ctx, "p")
	must(t, err)
	if len(again.Tags) != 0 || again.Rev != 2 {
		t.Errorf("after a put of no tags: %+v", again)
	}
	// Another writer deletes it; a put of the version read answers
	// ErrNotFound and writes nothing.
	must(t, s.DeleteProfile(ctx, DeleteProfileParams{ProfileID: "p", ProfileRev: 2}))
	if err := s.PutProfile(ctx, again); !errors.Is(err, ErrNotFound) {
		t.Errorf("PutProfile of a deleted profile: %v, want ErrNotFound", err)
	}
	if _, err := s.GetProfile(ctx, "p"); !errors.Is(err, ErrNotFound) {
		t.Errorf("the deleted profile came back: %v", err)
	}
	if err := s.DeleteProfile(ctx, DeleteProfileParams{ProfileID: "p", ProfileRev: 2}); !errors.Is(err, ErrNotFound) {
		t.Errorf("DeleteProfile of a deleted profile: %v, want ErrNotFound", err)
	}
	// Its handle is free again.
	must(t, s.CreateProfile(ctx, &Profile{ProfileID: "q", Handle: "ann", Tags: []string{"b"}}))
}

// TestCheckVersion: a check step of a versioned entity holds only at the
// version read.
func TestCheckVersion(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t, nil, WithClock(func() time.Time { return time.Unix(1_700_000_000, 0) }))
	must(t, s.CreateMember(ctx, &Member{Username: "o"}))
	must(t, s.CreateVault(ctx, &Vault{OwnerID: "o", VaultID: "v"}))
	must(t, s.AuditVault(ctx, AuditVaultParams{OwnerID: "o", VaultID: "v", VaultRev: 1}))
	stepFailed(t, s.AuditVault(ctx, AuditVaultParams{OwnerID: "o", VaultID: "v", VaultRev: 2}), 1, ErrVersionConflict)
	stepFailed(t, s.AuditVault(ctx, AuditVaultParams{OwnerID: "o", VaultID: "none", VaultRev: 1}), 1, ErrNotFound)
	if m := mustMember(t, s, "o"); m.Followers != 1 {
		t.Errorf("the member was counted %d times, want once", m.Followers)
	}
}

package e2e

import (
	"context"
	"errors"
	"testing"
)

// TestAddToDefault: an add to a number with a default, of an item
// stored without it (written before the attribute was declared), starts
// from the default a read gives, not from DynamoDB's 0: the item reads 3,
// then 3+2. Its bounds hold for the default plus the amount.
func TestAddToDefault(t *testing.T) {
	ctx := context.Background()
	s, c := newStore(t, nil)
	putStored(t, s, c, false, "PK", "OWNER#o", "SK", "REPO#old", "_type", "Repo", "ownerId", "o", "repoId", "old")
	repo, err := s.GetRepo(ctx, RepoKey{OwnerID: "o", RepoID: "old"})
	must(t, err)
	if repo.Rank != 3 || repo.Score != 8 {
		t.Fatalf("the item stored without rank and score reads %d and %d; want the defaults 3 and 8", repo.Rank, repo.Score)
	}
	// Past score's max: 8+3 > 10, refused, and nothing written.
	if _, err := s.RankRepo(ctx, RankRepoParams{OwnerID: "o", RepoID: "old", Rank: 2, Score: 3}); !errors.Is(err, ErrConditionFailed) {
		t.Errorf("an add taking the default past max: %v; want ErrConditionFailed", err)
	}
	got, err := s.RankRepo(ctx, RankRepoParams{OwnerID: "o", RepoID: "old", Rank: 2, Score: 2})
	must(t, err)
	if got.Rank != 5 || got.Score != 10 {
		t.Errorf("after adding 2 and 2 to the defaults: rank %d, score %d; want 5 and 10", got.Rank, got.Score)
	}
	// Stored now: the add goes on from the stored values.
	got, err = s.RankRepo(ctx, RankRepoParams{OwnerID: "o", RepoID: "old", Rank: -1, Score: -10})
	must(t, err)
	if got.Rank != 4 || got.Score != 0 {
		t.Errorf("after adding -1 and -10: rank %d, score %d; want 4 and 0", got.Rank, got.Score)
	}
	// Below min from the default: 8-9 < 0.
	putStored(t, s, c, false, "PK", "OWNER#o", "SK", "REPO#old2", "_type", "Repo", "ownerId", "o", "repoId", "old2")
	if _, err := s.RankRepo(ctx, RankRepoParams{OwnerID: "o", RepoID: "old2", Rank: 0, Score: -9}); !errors.Is(err, ErrConditionFailed) {
		t.Errorf("an add taking the default below min: %v; want ErrConditionFailed", err)
	}
	if _, err := s.RankRepo(ctx, RankRepoParams{OwnerID: "o", RepoID: "old2", Rank: 0, Score: -8}); err != nil {
		t.Errorf("an add taking the default to min: %v", err)
	}
}

package e2e

import (
	"errors"
	"maps"
	"sync"
	"testing"
)

// TestApprovePullRequest: an update sets one entry of a map by the key
// the caller gives (SET #approvals.#approvals_reviewer, the key a name
// placeholder's value), the other entries kept; its when refuses a
// second approval by the same reviewer (ErrConditionFailed); a remove
// takes the entry out; an empty or non-UTF-8 key is refused before any
// call; an entry of an absent optional map is ErrConditionFailed.
func TestApprovePullRequest(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t, nil)
	ctx := t.Context()
	must(t, s.PutPullRequest(ctx, &PullRequest{Repo: "mapentry", Number: 1, Approvals: map[string]string{"carol": "lgtm"}}))

	got, err := s.ApprovePullRequest(ctx, ApprovePullRequestParams{Repo: "mapentry", Number: 1, Reviewer: "alice", ApprovalsValue: "approved"})
	must(t, err)
	if want := map[string]string{"carol": "lgtm", "alice": "approved"}; !maps.Equal(got.Approvals, want) {
		t.Errorf("after alice's approval: %v, want %v", got.Approvals, want)
	}
	// Keys that are no names: dots, #, braces, spaces are a key's text.
	for _, k := range []string{"bob.smith", "#approvals", "{reviewer}", "a b", ":v"} {
		got, err = s.ApprovePullRequest(ctx, ApprovePullRequestParams{Repo: "mapentry", Number: 1, Reviewer: k, ApprovalsValue: "ok"})
		must(t, err)
		if got.Approvals[k] != "ok" {
			t.Errorf("key %q: approvals %v", k, got.Approvals)
		}
	}
	_, err = s.ApprovePullRequest(ctx, ApprovePullRequestParams{Repo: "mapentry", Number: 1, Reviewer: "alice", ApprovalsValue: "again"})
	if !errors.Is(err, ErrConditionFailed) {
		t.Errorf("alice's second approval: %v, want ErrConditionFailed", err)
	}
	for _, k := range []string{"", "\xff"} {
		_, err = s.ApprovePullRequest(ctx, ApprovePullRequestParams{Repo: "mapentry", Number: 1, Reviewer: k, ApprovalsValue: "x"})
		var ie *ItemError
		if !errors.As(err, &ie) || ie.Attr != "approvals.{reviewer}" {
			t.Errorf("key %q: %v, want an ItemError of approvals.{reviewer}", k, err)
		}
	}
	if _, err := s.ApprovePullRequest(ctx, ApprovePullRequestParams{Repo: "mapentry", Number: 2, Reviewer: "alice"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("an approval of a missing pull request: %v, want ErrNotFound", err)
	}

	got, err = s.WithdrawApproval(ctx, WithdrawApprovalParams{Repo: "mapentry", Number: 1, Reviewer: "alice"})
	must(t, err)
	if _, ok := got.Approvals["alice"]; ok || got.Approvals["carol"] != "lgtm" {
		t.Errorf("after alice's withdrawal: %v", got.Approvals)
	}
	if _, err := s.WithdrawApproval(ctx, WithdrawApprovalParams{Repo: "mapentry", Number: 1, Reviewer: "alice"}); !errors.Is(err, ErrConditionFailed) {
		t.Errorf("a second withdrawal: %v, want ErrConditionFailed", err)
	}

	// labels is optional and absent: DynamoDB can't write into it.
	if _, err := s.LabelPullRequest(ctx, LabelPullRequestParams{Repo: "mapentry", Number: 1, Label: "bug", LabelsValue: "red"}); !errors.Is(err, ErrConditionFailed) {
		t.Errorf("a label of a pull request without labels: %v, want ErrConditionFailed", err)
	}
}

// TestApprovePullRequestRace: 16 concurrent approvals by one reviewer:
// exactly one is written, the others fail their condition.
func TestApprovePullRequestRace(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t, nil)
	ctx := t.Context()
	must(t, s.PutPullRequest(ctx, &PullRequest{Repo: "mapentry-race", Number: 1, Approvals: map[string]string{}}))
	const n = 16
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			_, errs[i] = s.ApprovePullRequest(ctx, ApprovePullRequestParams{Repo: "mapentry-race", Number: 1, Reviewer: "dave", ApprovalsValue: string(rune('a' + i))})
		})
	}
	wg.Wait()
	won := 0
	for _, err := range errs {
		switch {
		case err == nil:
			won++
		case !errors.Is(err, ErrConditionFailed):
			t.Errorf("an approval: %v, want nil or ErrConditionFailed", err)
		}
	}
	if won != 1 {
		t.Errorf("%d approvals by one reviewer were written, want 1", won)
	}
}

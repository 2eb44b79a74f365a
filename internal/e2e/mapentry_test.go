package e2e

import (
	"errors"
	"maps"
	"slices"
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

// TestMapEntryFilterAndWhen: a query filters on a map's entry by the key
// the caller gives, a delete's and a put's when test one; the key is a
// name placeholder's value (dots and # are a key's text), and an empty
// or non-UTF-8 key is refused before any call.
func TestMapEntryFilterAndWhen(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t, nil)
	ctx := t.Context()
	must(t, s.PutPullRequest(ctx, &PullRequest{Repo: "filter", Number: 1, Approvals: map[string]string{"ann": "ok", "a.b#c": "ok"}}))
	must(t, s.PutPullRequest(ctx, &PullRequest{Repo: "filter", Number: 2, Approvals: map[string]string{"bob": "ok"}}))
	must(t, s.PutPullRequest(ctx, &PullRequest{Repo: "filter", Number: 3, Approvals: map[string]string{"ann": "ok", "bob": "ok"}}))
	approvedBy := func(reviewer string) []int64 {
		t.Helper()
		var out []int64
		for pr, err := range s.PullRequestsApprovedByAll(ctx, PullRequestsApprovedByParams{Repo: "filter", Reviewer: reviewer}) {
			must(t, err)
			out = append(out, pr.Number)
		}
		return out
	}
	for reviewer, want := range map[string][]int64{"ann": {1, 3}, "bob": {2, 3}, "a.b#c": {1}, "a": nil, "#approvals": nil} {
		if got := approvedBy(reviewer); !slices.Equal(got, want) {
			t.Errorf("PullRequestsApprovedBy %q: %v, want %v", reviewer, got, want)
		}
	}
	for _, k := range []string{"", "\xff"} {
		var ie *ItemError
		if _, err := s.PullRequestsApprovedBy(ctx, PullRequestsApprovedByParams{Repo: "filter", Reviewer: k}, Page{}); !errors.As(err, &ie) || ie.Attr != "approvals.{reviewer}" {
			t.Errorf("PullRequestsApprovedBy %q: %v, want an ItemError of approvals.{reviewer}", k, err)
		}
		if err := s.MergePullRequest(ctx, MergePullRequestParams{Repo: "filter", Number: 1, Reviewer: k}); !errors.As(err, &ie) {
			t.Errorf("MergePullRequest %q: %v, want an ItemError", k, err)
		}
		if err := s.ReopenPullRequest(ctx, &PullRequest{Repo: "filter", Number: 1, Approvals: map[string]string{}}, k); !errors.As(err, &ie) {
			t.Errorf("ReopenPullRequest %q: %v, want an ItemError", k, err)
		}
	}
	// A put over an item the reviewer approved: refused; over one the
	// reviewer did not: written.
	if err := s.ReopenPullRequest(ctx, &PullRequest{Repo: "filter", Number: 1, Approvals: map[string]string{}}, "a.b#c"); !errors.Is(err, ErrConditionFailed) {
		t.Errorf("ReopenPullRequest over a.b#c's approval: %v, want ErrConditionFailed", err)
	}
	must(t, s.ReopenPullRequest(ctx, &PullRequest{Repo: "filter", Number: 2, Approvals: map[string]string{"carol": "ok"}}, "ann"))
	// A delete the reviewer did not approve: refused, the item kept.
	if err := s.MergePullRequest(ctx, MergePullRequestParams{Repo: "filter", Number: 3, Reviewer: "carol"}); !errors.Is(err, ErrConditionFailed) {
		t.Errorf("MergePullRequest without carol's approval: %v, want ErrConditionFailed", err)
	}
	must(t, s.MergePullRequest(ctx, MergePullRequestParams{Repo: "filter", Number: 3, Reviewer: "bob"}))
	if got := approvedBy("bob"); len(got) != 0 {
		t.Errorf("PullRequestsApprovedBy bob after the merges: %v, want none", got)
	}
	if got := approvedBy("carol"); !slices.Equal(got, []int64{2}) {
		t.Errorf("PullRequestsApprovedBy carol: %v, want [2]", got)
	}
}

package e2e

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// TestShelveWidget sets constants: the status, from draft or live only
// (an in condition), a name holding what would end a comment or a string
// literal, and the attributes of the ByKeys sort key, which is rebuilt
// from them and read back from the key's text.
func TestShelveWidget(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t, nil)
	ctx := t.Context()
	if _, err := s.ShelveWidget(ctx, ShelveWidgetParams{OwnerID: "o", WidgetID: "missing"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("ShelveWidget of a missing item: %v, want ErrNotFound", err)
	}
	w := newWidget("o", "w")
	w.Serial = "S-shelve"
	must(t, s.CreateWidget(ctx, w))
	got, err := s.ShelveWidget(ctx, ShelveWidgetParams{OwnerID: "o", WidgetID: "w"})
	must(t, err)
	want := *w
	want.Status = WidgetStatusRetired
	want.Name = "*/ \"shelved\"\n`back` \\ end"
	want.Version = 7
	want.Active = false
	want.Day = time.Date(2023, 12, 31, 0, 0, 0, 0, time.UTC)
	want.CreatedAt = time.Date(2024, 6, 7, 6, 9, 10, 500_000_000, time.UTC)
	checkWidget(t, "ShelveWidget's result", got, &want)
	stored, err := s.GetWidget(ctx, WidgetKey{OwnerID: "o", WidgetID: "w"})
	must(t, err)
	checkWidget(t, "the shelved widget", stored, &want)
	// The rebuilt key holds the constants: read back from its text.
	keys := collect(t, s.WidgetKeysAll(ctx, "S-shelve"))
	if len(keys) != 1 {
		t.Fatalf("WidgetKeys read %d items, want 1", len(keys))
	}
	if k := keys[0]; k.Version != 7 || k.Active || !k.Day.Equal(want.Day) || !k.CreatedAt.Equal(want.CreatedAt) {
		t.Errorf("the rebuilt key reads back as %+v, want version 7, inactive, day %v, created %v", k, want.Day, want.CreatedAt)
	}
	// retired is not in [draft, live].
	if _, err := s.ShelveWidget(ctx, ShelveWidgetParams{OwnerID: "o", WidgetID: "w"}); !errors.Is(err, ErrConditionFailed) {
		t.Errorf("ShelveWidget of a retired widget: %v, want ErrConditionFailed", err)
	}
	// A draft is shelved too.
	d := newWidget("o", "d")
	d.Status = WidgetStatusDraft
	must(t, s.CreateWidget(ctx, d))
	if _, err := s.ShelveWidget(ctx, ShelveWidgetParams{OwnerID: "o", WidgetID: "d"}); err != nil {
		t.Errorf("ShelveWidget of a draft: %v", err)
	}
}

// TestWidgetsInStatus filters with in: draft and retired widgets, not
// live ones.
func TestWidgetsInStatus(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t, nil)
	ctx := t.Context()
	for id, st := range map[string]WidgetStatus{"a": WidgetStatusDraft, "b": WidgetStatusLive, "c": WidgetStatusRetired, "d": WidgetStatusLive} {
		w := newWidget("o-in", id)
		w.Status = st
		must(t, s.CreateWidget(ctx, w))
	}
	var ids []string
	for w, err := range s.WidgetsInStatusAll(ctx, "o-in") {
		must(t, err)
		ids = append(ids, w.WidgetID)
	}
	slices.Sort(ids)
	if !slices.Equal(ids, []string{"a", "c"}) {
		t.Errorf("WidgetsInStatus read %v, want [a c]", ids)
	}
}

// TestRemoveFromSets removes elements from sets: those given go, others
// stay, one not in the set is no error; an empty set given sends no
// DELETE, and a call with none changes nothing; removing every element
// removes the attribute (DynamoDB stores no empty set).
func TestRemoveFromSets(t *testing.T) {
	t.Parallel()
	s, raw := newStore(t, nil)
	ctx := t.Context()
	if _, err := s.UnlabelWidget(ctx, UnlabelWidgetParams{OwnerID: "o", WidgetID: "missing", Labels: []string{"x"}, Sizes: nil}); !errors.Is(err, ErrNotFound) {
		t.Errorf("UnlabelWidget of a missing item: %v, want ErrNotFound", err)
	}
	if _, err := s.UnlabelWidget(ctx, UnlabelWidgetParams{OwnerID: "o", WidgetID: "missing", Labels: nil, Sizes: nil}); !errors.Is(err, ErrNotFound) {
		t.Errorf("UnlabelWidget of a missing item, removing nothing: %v, want ErrNotFound", err)
	}
	w := newWidget("o", "w")
	w.Labels = []string{"x", "y", "z"}
	w.Sizes = []int64{1, 2, 3}
	must(t, s.CreateWidget(ctx, w))
	want := *w

	got, err := s.UnlabelWidget(ctx, UnlabelWidgetParams{OwnerID: "o", WidgetID: "w", Labels: []string{"x", "x", "absent"}, Sizes: []int64{2}})
	must(t, err)
	want.Labels, want.Sizes = []string{"y", "z"}, []int64{1, 3}
	checkWidget(t, "UnlabelWidget's result", got, &want)

	// Only sizes: the labels are left as they are.
	got, err = s.UnlabelWidget(ctx, UnlabelWidgetParams{OwnerID: "o", WidgetID: "w", Labels: nil, Sizes: []int64{1}})
	must(t, err)
	want.Sizes = []int64{3}
	checkWidget(t, "UnlabelWidget of sizes only", got, &want)

	// Nothing to remove: no UpdateExpression at all; the item is returned.
	got, err = s.UnlabelWidget(ctx, UnlabelWidgetParams{OwnerID: "o", WidgetID: "w", Labels: []string{}, Sizes: nil})
	must(t, err)
	checkWidget(t, "UnlabelWidget removing nothing", got, &want)

	// Every element: the attribute is gone.
	got, err = s.UnlabelWidget(ctx, UnlabelWidgetParams{OwnerID: "o", WidgetID: "w", Labels: []string{"y", "z"}, Sizes: []int64{3}})
	must(t, err)
	want.Labels, want.Sizes = nil, nil
	checkWidget(t, "UnlabelWidget removing every element", got, &want)
	item, err := raw.GetItem(ctx, &dynamodb.GetItemInput{TableName: &s.mainTable, Key: map[string]types.AttributeValue{
		"PK": &types.AttributeValueMemberS{Value: "OWNER#o"},
		"SK": &types.AttributeValueMemberS{Value: "WIDGET#w"},
	}})
	must(t, err)
	for _, name := range []string{"labels", "sizes"} {
		if v, ok := item.Item[name]; ok {
			t.Errorf("the stored item still holds %s = %v", name, v)
		}
	}
	// Removing from an absent set is no error.
	if _, err := s.UnlabelWidget(ctx, UnlabelWidgetParams{OwnerID: "o", WidgetID: "w", Labels: []string{"q"}, Sizes: []int64{9}}); err != nil {
		t.Errorf("UnlabelWidget of absent sets: %v", err)
	}
	// Strings that are not UTF-8 are refused before the call.
	if _, err := s.UnlabelWidget(ctx, UnlabelWidgetParams{OwnerID: "o", WidgetID: "w", Labels: []string{"\xff"}, Sizes: nil}); !errors.Is(err, ErrInvalidItem) {
		t.Errorf("UnlabelWidget of a string that is not UTF-8: %v, want ErrInvalidItem", err)
	}
}

// TestRelabelWidget adds to a set and a negative amount to a number,
// and removes from another set, in one update.
func TestRelabelWidget(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t, nil)
	ctx := t.Context()
	w := newWidget("o", "w")
	w.Count = 10
	w.Labels = []string{"x"}
	w.Sizes = []int64{1, 2}
	must(t, s.CreateWidget(ctx, w))
	got, err := s.RelabelWidget(ctx, RelabelWidgetParams{OwnerID: "o", WidgetID: "w", Count: -15, Labels: []string{"y"}, Sizes: []int64{1}})
	must(t, err)
	want := *w
	want.Count, want.Labels, want.Sizes = -5, []string{"x", "y"}, []int64{2}
	checkWidget(t, "RelabelWidget's result", got, &want)
	// The sum stays within count's bounds (min -1000000).
	if _, err := s.RelabelWidget(ctx, RelabelWidgetParams{OwnerID: "o", WidgetID: "w", Count: -1_000_000, Labels: []string{"z"}, Sizes: nil}); !errors.Is(err, ErrConditionFailed) {
		t.Errorf("RelabelWidget below count's min: %v, want ErrConditionFailed", err)
	}
}

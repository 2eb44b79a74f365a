package e2e

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// TestAddKeepsBounds: an atomic add keeps a number in its min and max and
// an int in int64's range, by condition, so that no amount, however
// large, stores a number out of bounds or one the package can't read
// back.
func TestAddKeepsBounds(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t, nil)
	ctx := t.Context()
	var ccf *types.ConditionalCheckFailedException

	// count has min -1000000: adding math.MinInt64 to 0 would pass a
	// check that computes min - amount in int64 (it overflows).
	w := newWidget("o", "w")
	w.Count = 0
	must(t, s.CreateWidget(ctx, w))
	extra := &types.AttributeValueMemberL{Value: []types.AttributeValue{&types.AttributeValueMemberN{Value: "7"}}}
	exp := time.Unix(2_100_000_000, 0)
	for _, amount := range []int64{math.MinInt64, math.MaxInt64, -1_000_001, 1_000_001} {
		_, err := s.EditWidget(ctx, EditWidgetParams{OwnerID: "o", WidgetID: "w", Name: "x", Price: 1, Tags: nil, Attrs: nil, Extra: extra, ExpiresAt: new(exp), Count: amount, Labels: []string{"q"}, Sizes: []int64{1}, Version: w.Version})
		if !errors.Is(err, ErrConditionFailed) || !errors.As(err, &ccf) {
			t.Errorf("EditWidget adding %d to a count of 0 in [-1000000, 1000000]: %v, want ErrConditionFailed", amount, err)
		}
	}
	got, err := s.GetWidget(ctx, WidgetKey{OwnerID: "o", WidgetID: "w"})
	must(t, err)
	if got.Count != 0 {
		t.Errorf("count after refused adds: %d, want 0", got.Count)
	}
	if _, err := s.EditWidget(ctx, EditWidgetParams{OwnerID: "o", WidgetID: "w", Name: "x", Price: 1, Tags: nil, Attrs: nil, Extra: extra, ExpiresAt: new(exp), Count: 1_000_000, Labels: []string{"q"}, Sizes: []int64{1}, Version: w.Version}); err != nil {
		t.Errorf("EditWidget adding up to the max: %v", err)
	}

	// hits has no bounds: it stays an int64. A new item takes any int64.
	t0 := time.UnixMilli(1_700_000_000_001)
	if _, err := s.Hit(ctx, HitParams{DeviceID: 9, Seq: 1, Value: 1.5, At: t0, Unit: new("C"), Hits: math.MaxInt64}); err != nil {
		t.Fatalf("Hit creating an item with MaxInt64 hits: %v", err)
	}
	if _, err := s.Hit(ctx, HitParams{DeviceID: 9, Seq: 1, Value: 1.5, At: t0, Unit: new("C"), Hits: 1}); !errors.Is(err, ErrConditionFailed) {
		t.Errorf("Hit adding 1 to MaxInt64: %v, want ErrConditionFailed", err)
	}
	if _, err := s.Hit(ctx, HitParams{DeviceID: 9, Seq: 2, Value: 1.5, At: t0, Unit: new("C"), Hits: math.MinInt64}); err != nil {
		t.Fatalf("Hit creating an item with MinInt64 hits: %v", err)
	}
	if _, err := s.Hit(ctx, HitParams{DeviceID: 9, Seq: 2, Value: 1.5, At: t0, Unit: new("C"), Hits: -1}); !errors.Is(err, ErrConditionFailed) {
		t.Errorf("Hit adding -1 to MinInt64: %v, want ErrConditionFailed", err)
	}
	for seq, want := range map[int64]int64{1: math.MaxInt64, 2: math.MinInt64} {
		r, err := s.GetReading(ctx, ReadingKey{DeviceID: 9, Seq: seq})
		if err != nil {
			t.Errorf("GetReading after a refused add: %v (the stored number must stay readable)", err)
			continue
		}
		if r.Hits == nil || *r.Hits != want {
			t.Errorf("hits after a refused add: %s, want %d", show(r.Hits), want)
		}
	}
	// Adds that stay in range still work at the edges.
	r, err := s.Hit(ctx, HitParams{DeviceID: 9, Seq: 1, Value: 1.5, At: t0, Unit: new("C"), Hits: math.MinInt64})
	must(t, err)
	if r.Hits == nil || *r.Hits != -1 {
		t.Errorf("MaxInt64 + MinInt64 = %s, want -1", show(r.Hits))
	}
}

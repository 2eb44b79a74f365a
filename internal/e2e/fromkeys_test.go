package e2e

import (
	"context"
	"testing"
	"time"
)

// TestReadBackFromKeys reads through ByKeys, which projects only the keys:
// every attribute the read returns is parsed back from the keys' text, a
// negative int, a bool, a date and a sub-second time included.
func TestReadBackFromKeys(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t, nil)
	want := map[string]*Widget{}
	for i, v := range []int64{-7, 0, 1 << 40} {
		w := newWidget("owner-fk", string(rune('a'+i)))
		w.Serial = "S-fk"
		w.Version = v
		w.Active = i%2 == 0
		w.CreatedAt = time.Date(2024, 3, 5, 18, 54, 56, 500_000_000+i, time.UTC)
		must(t, s.CreateWidget(ctx, w))
		want[w.WidgetID] = w
	}
	got := collect(t, s.WidgetKeysAll(ctx, "S-fk"))
	if len(got) != len(want) {
		t.Fatalf("read %d items, want %d", len(got), len(want))
	}
	for i, g := range got {
		w := want[g.WidgetID]
		if w == nil {
			t.Fatalf("item %d: unknown widget %q", i, g.WidgetID)
		}
		if g.OwnerID != w.OwnerID || g.Serial != w.Serial || g.Version != w.Version || g.Active != w.Active ||
			!g.CreatedAt.Equal(w.CreatedAt) || !g.Day.Equal(w.Day) {
			t.Errorf("item %d: got %+v, want widget %+v", i, g, w)
		}
	}
	// The sort key starts with the version: the items come in numeric
	// order, the negative one first.
	for i, v := range []int64{-7, 0, 1 << 40} {
		if got[i].Version != v {
			t.Errorf("item %d has version %d, want %d", i, got[i].Version, v)
		}
	}
}

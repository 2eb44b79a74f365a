package e2e

import (
	"context"
	"errors"
	"slices"
	"sync/atomic"
	"testing"
	"time"
)

// expiryStores returns two Stores over the same new tables: now, whose
// clock says the time the Stores were made and moves a millisecond on
// every reading, and later, whose clock says an hour from the real now and
// moves a second on every reading (so that no two requests see one now).
// An item whose time to live is ten minutes from its writing (soon) is
// live for now, however long the test takes on a loaded machine, and
// expired for later; DynamoDB Local, whose clock is the real one, does not
// delete it: the robust way to test expiry.
func expiryStores(t *testing.T) (now, later *Store) {
	t.Helper()
	made, _, opts := newStoreOpts(t, nil)
	start := time.Now()
	var nowTicks, laterTicks atomic.Int64
	nowClock := func() time.Time {
		return start.Add(time.Duration(nowTicks.Add(1)) * time.Millisecond)
	}
	laterClock := func() time.Time {
		return time.Now().Add(time.Hour + time.Duration(laterTicks.Add(1))*time.Second)
	}
	now = newChecked(t, made.client, append(slices.Clip(opts), WithClock(nowClock))...)
	later = newChecked(t, made.client, append(slices.Clip(opts), WithClock(laterClock))...)
	return now, later
}

// expiring is a widget whose time to live is ten minutes away (nil:
// none).
func expiring(owner, id string, ttl *time.Time) *Widget {
	w := newWidget(owner, id)
	w.ExpiresAt = ttl
	w.Serial = "S-" + owner + "-" + id
	return w
}

func soon() *time.Time { return new(time.Now().Add(10 * time.Minute).Truncate(time.Second)) }

// TestExpiredGet: a get of an expired item, by its key and through an
// index, is ErrNotFound; the same item is found on a clock before its
// time to live.
func TestExpiredGet(t *testing.T) {
	ctx := context.Background()
	now, later := expiryStores(t)
	w := expiring("o", "w", soon())
	must(t, now.CreateWidget(ctx, w))
	key := WidgetKey{OwnerID: "o", WidgetID: "w"}
	if _, err := now.GetWidget(ctx, key); err != nil {
		t.Fatalf("GetWidget before its time to live: %v", err)
	}
	if got, err := later.GetWidget(ctx, key); !errors.Is(err, ErrNotFound) {
		t.Errorf("GetWidget of an expired widget = %v, %v; want ErrNotFound", got, err)
	}
	by := WidgetBySerialParams{Region: "eu", Serial: w.Serial}
	if _, err := now.WidgetBySerial(ctx, by); err != nil {
		t.Fatalf("WidgetBySerial before its time to live: %v", err)
	}
	if got, err := later.WidgetBySerial(ctx, by); !errors.Is(err, ErrNotFound) {
		t.Errorf("WidgetBySerial of an expired widget = %v, %v; want ErrNotFound", got, err)
	}
}

// TestExpiredQuery: a query leaves expired items out (a collection keeps
// the items of the entity without ttl), page after page although the
// clock moves; a pattern with expired: include returns them.
func TestExpiredQuery(t *testing.T) {
	ctx := context.Background()
	now, later := expiryStores(t)
	far := new(time.Now().Add(48 * time.Hour).Truncate(time.Second))
	for _, w := range []*Widget{
		expiring("o", "a-expiring", soon()),
		expiring("o", "b-never", nil),
		expiring("o", "c-expiring", soon()),
		expiring("o", "d-later", far),
		expiring("o", "e-expiring", soon()),
	} {
		must(t, now.CreateWidget(ctx, w))
	}
	must(t, now.CreateNote(ctx, &Note{OwnerID: "o", NoteID: "n", Text: "t", Type: NoteTypePlain}))

	all := []string{"a-expiring", "b-never", "c-expiring", "d-later", "e-expiring"}
	live := []string{"b-never", "d-later"}
	res, err := now.ActiveWidgets(ctx, "o", Page{})
	must(t, err)
	if got := widgetIDs(res.Items); !slices.Equal(got, all) {
		t.Errorf("ActiveWidgets before the time to live = %v, want %v", got, all)
	}
	res, err = later.ActiveWidgets(ctx, "o", Page{})
	must(t, err)
	if got := widgetIDs(res.Items); !slices.Equal(got, live) {
		t.Errorf("ActiveWidgets after the time to live = %v, want %v", got, live)
	}
	// One item per page: the cursors hold across pages read at other
	// nows.
	var paged []string
	cursor := Cursor("")
	for range 10 {
		res, err := later.ActiveWidgets(ctx, "o", Page{Cursor: cursor, Limit: 1})
		must(t, err)
		paged = append(paged, widgetIDs(res.Items)...)
		if cursor = res.Next; cursor == "" {
			break
		}
	}
	if !slices.Equal(paged, live) {
		t.Errorf("ActiveWidgets page by page after the time to live = %v, want %v", paged, live)
	}
	var walked []string
	for w, err := range later.ActiveWidgetsAll(ctx, "o") {
		must(t, err)
		walked = append(walked, w.WidgetID)
	}
	if !slices.Equal(walked, live) {
		t.Errorf("ActiveWidgetsAll after the time to live = %v, want %v", walked, live)
	}
	page, err := later.OwnerPage(ctx, "o", Page{})
	must(t, err)
	if got := widgetIDs(page.Widgets); !slices.Equal(got, live) || len(page.Notes) != 1 {
		t.Errorf("OwnerPage after the time to live = widgets %v and %d notes, want %v and 1", got, len(page.Notes), live)
	}
	with, err := later.WidgetsWithExpired(ctx, "o", Page{})
	must(t, err)
	if got := widgetIDs(with.Items); !slices.Equal(got, all) {
		t.Errorf("WidgetsWithExpired (expired: include) = %v, want %v", got, all)
	}
}

// TestExpiredBatchGet: a batchGet leaves expired items out, as absent.
func TestExpiredBatchGet(t *testing.T) {
	ctx := context.Background()
	now, later := expiryStores(t)
	must(t, now.CreateWidget(ctx, expiring("o", "gone", soon())))
	must(t, now.CreateWidget(ctx, expiring("o", "kept", nil)))
	keys := []WidgetKey{{OwnerID: "o", WidgetID: "gone"}, {OwnerID: "o", WidgetID: "kept"}, {OwnerID: "o", WidgetID: "absent"}}
	items, err := now.WidgetNamesByKey(ctx, keys)
	must(t, err)
	if len(items) != 2 {
		t.Errorf("WidgetNamesByKey before the time to live read %d items, want 2", len(items))
	}
	items, err = later.WidgetNamesByKey(ctx, keys)
	must(t, err)
	if len(items) != 1 || items[0].WidgetID != "kept" {
		t.Errorf("WidgetNamesByKey after the time to live = %+v, want only kept", items)
	}
}

// TestExpiredWrites: a create over an expired item replaces it, one over
// a live item is ErrAlreadyExists; an update of an expired item is
// ErrNotFound, as of an absent one.
func TestExpiredWrites(t *testing.T) {
	ctx := context.Background()
	now, later := expiryStores(t)
	must(t, now.CreateWidget(ctx, expiring("o", "w", soon())))
	if err := now.CreateWidget(ctx, expiring("o", "w", nil)); !errors.Is(err, ErrAlreadyExists) {
		t.Fatalf("CreateWidget over a live widget = %v, want ErrAlreadyExists", err)
	}
	retire := RetireWidgetParams{OwnerID: "o", WidgetID: "w", Status: WidgetStatusRetired}
	if got, err := later.RetireWidget(ctx, retire); !errors.Is(err, ErrNotFound) {
		t.Errorf("RetireWidget of an expired widget = %v, %v; want ErrNotFound", got, err)
	}
	fresh := expiring("o", "w", nil)
	fresh.Name = "fresh"
	if err := later.CreateWidget(ctx, fresh); err != nil {
		t.Fatalf("CreateWidget over an expired widget: %v", err)
	}
	got, err := later.GetWidget(ctx, WidgetKey{OwnerID: "o", WidgetID: "w"})
	must(t, err)
	if got.Name != "fresh" || got.ExpiresAt != nil {
		t.Errorf("the created widget = name %q, expiresAt %s; want fresh, none", got.Name, show(got.ExpiresAt))
	}
	if err := later.CreateWidget(ctx, expiring("o", "w", nil)); !errors.Is(err, ErrAlreadyExists) {
		t.Errorf("CreateWidget over the created widget = %v, want ErrAlreadyExists", err)
	}
	retired, err := later.RetireWidget(ctx, retire)
	must(t, err)
	if retired.Status != WidgetStatusRetired {
		t.Errorf("RetireWidget of a live widget: status %s, want retired", retired.Status)
	}
}

package e2e

import (
	"errors"
	"slices"
	"testing"
	"time"
)

// TestFirstItem checks the patterns with first: true: each returns the
// query's first item in its order, or ErrNotFound, from one Query with
// Limit 1 that reads one item (none for an empty range, which is
// answered without a call).
func TestFirstItem(t *testing.T) {
	t.Parallel()
	rec := &queryRecorder{}
	s, _ := newStore(t, func(c Client) Client { rec.Client = c; return rec })
	ctx := t.Context()
	seqs := []int64{minInt, -100, -11, -10, -9, -2, -1, 0, 1, 2, 9, 10, 11, 100, maxInt}
	var rs []Reading
	for i, n := range slices.Backward(seqs) { // written in no particular order
		rs = append(rs, Reading{DeviceID: -3, Seq: n, Value: float64(n) / 4, At: time.UnixMilli(int64(i) * 1001), Unit: new("u")})
	}
	must(t, s.PutReadings(ctx, rs))
	must(t, s.SaveReading(ctx, &Reading{DeviceID: 4, Seq: 7, Value: 1, At: time.UnixMilli(5)}))
	reading := func(seq int64) Reading {
		return rs[slices.IndexFunc(rs, func(r Reading) bool { return r.Seq == seq })]
	}
	// calls checks the Query calls since the last check: n calls, each
	// with Limit 1, reading at most one item.
	calls := func(what string, n int) {
		t.Helper()
		rec.mu.Lock()
		defer rec.mu.Unlock()
		if len(rec.limits) != n || slices.ContainsFunc(rec.limits, func(l int32) bool { return l != 1 }) || slices.ContainsFunc(rec.scanned, func(c int32) bool { return c > 1 }) {
			t.Errorf("%s: Query calls with limits %v read %v items; want %d call(s), Limit 1, reading at most 1 item", what, rec.limits, rec.scanned, n)
		}
		rec.limits, rec.scanned = nil, nil
	}

	r, err := s.LatestReading(ctx, -3)
	must(t, err)
	checkReading(t, "LatestReading", *r, reading(maxInt))
	calls("LatestReading", 1)
	r, err = s.LatestReading(ctx, 4)
	must(t, err)
	if r.DeviceID != 4 || r.Seq != 7 {
		t.Errorf("LatestReading(4) = reading %d of device %d, want 7 of device 4", r.Seq, r.DeviceID)
	}
	calls("LatestReading(4)", 1)
	if _, err := s.LatestReading(ctx, 5); !errors.Is(err, ErrNotFound) {
		t.Errorf("LatestReading of a device without readings: %v, want ErrNotFound", err)
	}
	calls("LatestReading(5)", 1)

	for _, x := range []int64{minInt, -10, -1, 0, 10, 11, maxInt} {
		// The first reading from x to 10, in ascending order.
		r, err := s.FirstReadingBetween(ctx, FirstReadingBetweenParams{DeviceID: -3, SeqFrom: x, SeqTo: 10})
		if i := slices.IndexFunc(seqs, func(n int64) bool { return x <= n && n <= 10 }); i >= 0 {
			must(t, err)
			checkReading(t, "FirstReadingBetween", *r, reading(seqs[i]))
			calls("FirstReadingBetween", 1)
		} else if !errors.Is(err, ErrNotFound) {
			t.Errorf("FirstReadingBetween(%d, 10) = %v, %v; want ErrNotFound", x, r, err)
		} else {
			// From 11 to 10 is an empty range: no call.
			calls("FirstReadingBetween of an empty range", 0)
		}
		// The last reading before x, in descending order.
		v, err := s.LastReadingBefore(ctx, LastReadingBeforeParams{DeviceID: -3, Seq: x})
		calls("LastReadingBefore", 1)
		var want *Reading
		for _, n := range slices.Backward(seqs) {
			if n < x {
				rd := reading(n)
				want = &rd
				break
			}
		}
		switch {
		case want == nil && !errors.Is(err, ErrNotFound):
			t.Errorf("LastReadingBefore(%d) = %v, %v; want ErrNotFound", x, v, err)
		case want != nil && err != nil:
			t.Errorf("LastReadingBefore(%d): %v", x, err)
		case want != nil && (v.Seq != want.Seq || v.DeviceID != -3 || v.Value != want.Value):
			t.Errorf("LastReadingBefore(%d) = %+v, want reading %d", x, *v, want.Seq)
		}
	}

	// Events share their partition with a widget and a note, on both
	// sides of EVENT#: the key condition keeps them out, so the one item
	// read is an event.
	must(t, s.CreateWidget(ctx, newWidget("o", "w")))
	must(t, s.CreateNote(ctx, &Note{OwnerID: "o", NoteID: "n", Text: "t", Type: NoteTypePlain}))
	rec.limits, rec.scanned = nil, nil
	if _, err := s.LatestEvent(ctx, "o"); !errors.Is(err, ErrNotFound) {
		t.Errorf("LatestEvent of an owner with a widget and a note but no event: %v, want ErrNotFound", err)
	}
	calls("LatestEvent without events", 1)
	var evs []Event
	for i, n := range eventSeqs {
		evs = append(evs, Event{OwnerID: "o", Seq: n, At: time.Unix(1_700_000_000, int64(i)), Note: "e"})
	}
	must(t, s.PutEvents(ctx, evs))
	rec.limits, rec.scanned = nil, nil
	e, err := s.LatestEvent(ctx, "o")
	must(t, err)
	checkEvent(t, "LatestEvent", *e, evs[len(evs)-1])
	calls("LatestEvent", 1)
}

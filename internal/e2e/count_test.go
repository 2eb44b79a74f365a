package e2e

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// parcelCounts are the numbers of a depot's parcels by state and of the
// table's parcels by fragile.
type parcelCounts struct {
	Received, InTransit, Delivered int64
	NotFragile, Fragile            int64
}

// storedCounts reads the counters of depot, as StateCounts and
// FragileCounts give them.
func storedCounts(t *testing.T, s *Store, depot string) parcelCounts {
	t.Helper()
	ctx := context.Background()
	st, err := s.StateCounts(ctx, depot)
	if err != nil {
		t.Fatalf("StateCounts %s: %v", depot, err)
	}
	if st.DepotID != depot {
		t.Errorf("StateCounts %s: depot %q", depot, st.DepotID)
	}
	fr, err := s.FragileCounts(ctx)
	if err != nil {
		t.Fatalf("FragileCounts: %v", err)
	}
	return parcelCounts{Received: st.Received, InTransit: st.InTransit, Delivered: st.Delivered, NotFragile: fr.False, Fragile: fr.True}
}

// recount counts the parcels of the depots by a Query of each: what the
// counters must hold (the fragile numbers over every depot given, which
// must be every depot the test wrote).
func recount(t *testing.T, s *Store, depot string, others ...string) parcelCounts {
	t.Helper()
	var c parcelCounts
	for i, d := range append([]string{depot}, others...) {
		for p, err := range s.ParcelsInDepotAll(context.Background(), d) {
			if err != nil {
				t.Fatalf("ParcelsInDepot %s: %v", d, err)
			}
			if i == 0 {
				switch p.State {
				case ParcelStateReceived:
					c.Received++
				case ParcelStateInTransit:
					c.InTransit++
				case ParcelStateDelivered:
					c.Delivered++
				}
			}
			if p.Fragile {
				c.Fragile++
			} else {
				c.NotFragile++
			}
		}
	}
	return c
}

// countsAre checks that the counters of depot hold want, and that want
// is what a recount of the items finds.
func countsAre(t *testing.T, s *Store, want parcelCounts, depot string, others ...string) {
	t.Helper()
	if got := recount(t, s, depot, others...); got != want {
		t.Fatalf("recount of the items: %+v; the test wants %+v", got, want)
	}
	if got := storedCounts(t, s, depot); got != want {
		t.Errorf("counters of %s: %+v; want %+v", depot, got, want)
	}
}

func TestCountsKeptByWrites(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t, nil)
	// No counter item yet: every number is 0.
	countsAre(t, s, parcelCounts{}, "d1", "d2")

	p1 := &Parcel{DepotID: "d1", ParcelID: "p1", State: ParcelStateReceived, Label: "a"}
	p2 := &Parcel{DepotID: "d1", ParcelID: "p2", State: ParcelStateReceived, Fragile: true, Label: "b"}
	p3 := &Parcel{DepotID: "d2", ParcelID: "p3", State: ParcelStateInTransit, Label: "c"}
	for _, p := range []*Parcel{p1, p2, p3} {
		if err := s.CreateParcel(ctx, p); err != nil {
			t.Fatalf("CreateParcel %s: %v", p.ParcelID, err)
		}
	}
	countsAre(t, s, parcelCounts{Received: 2, NotFragile: 2, Fragile: 1}, "d1", "d2")
	countsAre(t, s, parcelCounts{InTransit: 1, NotFragile: 2, Fragile: 1}, "d2", "d1")

	// A create of an item that exists counts nothing.
	if err := s.CreateParcel(ctx, p1); !errors.Is(err, ErrAlreadyExists) {
		t.Fatalf("CreateParcel of p1 again: %v; want ErrAlreadyExists", err)
	}
	countsAre(t, s, parcelCounts{Received: 2, NotFragile: 2, Fragile: 1}, "d1", "d2")

	// A status change moves one count.
	if err := s.MoveParcel(ctx, MoveParcelParams{DepotID: "d1", ParcelID: "p1", State: ParcelStateInTransit}); err != nil {
		t.Fatalf("MoveParcel: %v", err)
	}
	countsAre(t, s, parcelCounts{Received: 1, InTransit: 1, NotFragile: 2, Fragile: 1}, "d1", "d2")
	// To the same state: nothing moves.
	if err := s.MoveParcel(ctx, MoveParcelParams{DepotID: "d1", ParcelID: "p1", State: ParcelStateInTransit}); err != nil {
		t.Fatalf("MoveParcel to the same state: %v", err)
	}
	countsAre(t, s, parcelCounts{Received: 1, InTransit: 1, NotFragile: 2, Fragile: 1}, "d1", "d2")
	// A constant.
	if err := s.DeliverParcel(ctx, DeliverParcelParams{DepotID: "d1", ParcelID: "p2"}); err != nil {
		t.Fatalf("DeliverParcel: %v", err)
	}
	countsAre(t, s, parcelCounts{InTransit: 1, Delivered: 1, NotFragile: 2, Fragile: 1}, "d1", "d2")
	// The other count.
	if err := s.MarkFragile(ctx, MarkFragileParams{DepotID: "d2", ParcelID: "p3", Fragile: true}); err != nil {
		t.Fatalf("MarkFragile: %v", err)
	}
	countsAre(t, s, parcelCounts{InTransit: 1, Delivered: 1, NotFragile: 1, Fragile: 2}, "d1", "d2")
	// An update that sets no group changes no count.
	if _, err := s.RelabelParcel(ctx, RelabelParcelParams{DepotID: "d1", ParcelID: "p1", Label: "z"}); err != nil {
		t.Fatalf("RelabelParcel: %v", err)
	}
	countsAre(t, s, parcelCounts{InTransit: 1, Delivered: 1, NotFragile: 1, Fragile: 2}, "d1", "d2")
	// An update of no item: ErrNotFound, nothing counted.
	if err := s.MoveParcel(ctx, MoveParcelParams{DepotID: "d1", ParcelID: "nope", State: ParcelStateDelivered}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("MoveParcel of no item: %v; want ErrNotFound", err)
	}

	// A put over an item moves it; over no item, creates and counts it.
	if err := s.PutParcel(ctx, &Parcel{DepotID: "d1", ParcelID: "p1", State: ParcelStateReceived, Fragile: true}); err != nil {
		t.Fatalf("PutParcel over p1: %v", err)
	}
	countsAre(t, s, parcelCounts{Received: 1, Delivered: 1, Fragile: 3}, "d1", "d2")
	if err := s.PutParcel(ctx, &Parcel{DepotID: "d1", ParcelID: "p4", State: ParcelStateDelivered}); err != nil {
		t.Fatalf("PutParcel of p4: %v", err)
	}
	countsAre(t, s, parcelCounts{Received: 1, Delivered: 2, NotFragile: 1, Fragile: 3}, "d1", "d2")

	// A transaction's create counts its item.
	if err := s.ReceiveParcel(ctx, ReceiveParcelParams{Parcel: &Parcel{DepotID: "d1", ParcelID: "p5", State: ParcelStateReceived}}); err != nil {
		t.Fatalf("ReceiveParcel: %v", err)
	}
	countsAre(t, s, parcelCounts{Received: 2, Delivered: 2, NotFragile: 2, Fragile: 3}, "d1", "d2")

	// A delete takes its item out; deleting no item counts nothing.
	for range 2 {
		if err := s.DeleteParcel(ctx, ParcelKey{DepotID: "d1", ParcelID: "p2"}); err != nil {
			t.Fatalf("DeleteParcel: %v", err)
		}
		countsAre(t, s, parcelCounts{Received: 2, Delivered: 1, NotFragile: 2, Fragile: 2}, "d1", "d2")
	}
	countsAre(t, s, parcelCounts{InTransit: 0, NotFragile: 2, Fragile: 2}, "d3", "d1", "d2")
}

// TestCountsConcurrent has 16 goroutines create, move, flag and delete a
// few parcels at once, retrying what a caller would (a conflict with
// another transaction, a condition on what another call changed since
// the read): at the end, the counters equal a recount of the items.
func TestCountsConcurrent(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t, nil)
	const writers, rounds, parcels = 16, 12, 4
	states := []ParcelState{ParcelStateReceived, ParcelStateInTransit, ParcelStateDelivered}
	depots := []string{"d1", "d2"}
	var wg sync.WaitGroup
	errs := make([]error, writers)
	for w := range writers {
		wg.Go(func() {
			for r := range rounds {
				// Each writer's sequence is fixed by its number: what
				// varies is only how the writes meet.
				depot := depots[(w+r)%len(depots)]
				id := fmt.Sprintf("p%d", (w*7+r*3)%parcels)
				key := ParcelKey{DepotID: depot, ParcelID: id}
				state := states[(w+r)%len(states)]
				var err error
				for {
					switch (w + r) % 5 {
					case 0, 1:
						err = s.CreateParcel(ctx, &Parcel{DepotID: depot, ParcelID: id, State: state, Fragile: r%2 == 0})
						if errors.Is(err, ErrAlreadyExists) {
							err = nil // another writer created it
						}
					case 2:
						err = s.MoveParcel(ctx, MoveParcelParams{DepotID: depot, ParcelID: id, State: state})
					case 3:
						err = s.PutParcel(ctx, &Parcel{DepotID: depot, ParcelID: id, State: state, Fragile: w%2 == 0})
					case 4:
						err = s.DeleteParcel(ctx, key)
					}
					if errors.Is(err, ErrNotFound) {
						err = nil // another writer deleted it
					}
					// A conflict changed nothing; a failed condition is
					// another call's write between the read and the
					// transaction: read again.
					if !errors.Is(err, ErrTransactionConflict) && !errors.Is(err, ErrConditionFailed) {
						break
					}
				}
				if err != nil {
					errs[w] = fmt.Errorf("writer %d round %d: %w", w, r, err)
					return
				}
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range depots {
		want := recount(t, s, d, others(depots, d)...)
		if got := storedCounts(t, s, d); got != want {
			t.Errorf("counters of %s: %+v; a recount of the items: %+v", d, got, want)
		}
	}
}

// others are the depots of ds but d.
func others(ds []string, d string) []string {
	var out []string
	for _, x := range ds {
		if x != d {
			out = append(out, x)
		}
	}
	return out
}

// countedWrites writes an entity with counts: a create, which adds to
// its counters, and a delete, which reads first, then takes from them.
func countedWrites(t *testing.T, s *Store) {
	t.Helper()
	ctx := t.Context()
	must(t, s.CreateParcel(ctx, &Parcel{DepotID: "iam", ParcelID: "p", State: ParcelStateReceived}))
	must(t, s.DeleteParcel(ctx, ParcelKey{DepotID: "iam", ParcelID: "p"}))
}

// TestCountsGroupAddedLater reads a counter item written before a group
// existed (no number stored for it): that group's number reads 0.
func TestCountsGroupAddedLater(t *testing.T) {
	ctx := context.Background()
	s, c := newStore(t, nil)
	key := "COUNT#Parcel#ParcelsByState#d9"
	_, err := c.PutItem(ctx, &dynamodb.PutItemInput{
		TableName: aws.String(s.mainTable),
		Item: map[string]types.AttributeValue{
			"PK": &types.AttributeValueMemberS{Value: key}, "SK": &types.AttributeValueMemberS{Value: key},
			"_type": &types.AttributeValueMemberS{Value: "Parcel#ParcelsByState"}, "depotId": &types.AttributeValueMemberS{Value: "d9"},
			"received": &types.AttributeValueMemberN{Value: "2"},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.StateCounts(ctx, "d9")
	if err != nil {
		t.Fatalf("StateCounts: %v", err)
	}
	if want := (ParcelsByState{DepotID: "d9", Received: 2}); *got != want {
		t.Errorf("StateCounts: %+v; want %+v", *got, want)
	}
	// A write adds to every group's number, creating the missing ones.
	must(t, s.CreateParcel(ctx, &Parcel{DepotID: "d9", ParcelID: "p", State: ParcelStateDelivered}))
	if got, err = s.StateCounts(ctx, "d9"); err != nil || *got != (ParcelsByState{DepotID: "d9", Received: 2, Delivered: 1}) {
		t.Errorf("StateCounts after a create: %+v, %v", got, err)
	}
}

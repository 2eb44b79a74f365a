package e2e

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// elementItems reads, with a Scan of the test's own table (a test may),
// every item per element of the crates, each as a line: the entry, the
// label, the crate and what the item holds of it.
func elementItems(t *testing.T, s *Store, c *dynamodb.Client) []string {
	t.Helper()
	var out []string
	in := &dynamodb.ScanInput{TableName: aws.String(s.mainTable), ConsistentRead: aws.Bool(true)}
	for {
		page, err := c.Scan(context.Background(), in)
		if err != nil {
			t.Fatalf("Scan: %v", err)
		}
		for _, item := range page.Items {
			typ, _ := item["_type"].(*types.AttributeValueMemberS)
			switch {
			case typ == nil:
			case typ.Value == "Crate@each.CrateLabels":
				var v CrateLabels
				if err := v.UnmarshalItem(item); err != nil {
					t.Fatalf("CrateLabels item %v: %v", item, err)
				}
				out = append(out, fmt.Sprintf("CrateLabels %s %s %s %d", v.Labels, v.CrateID, v.Zone, v.Weight))
			case typ.Value == "Crate@each.LabelledCrates":
				var v LabelledCrates
				if err := v.UnmarshalItem(item); err != nil {
					t.Fatalf("LabelledCrates item %v: %v", item, err)
				}
				out = append(out, fmt.Sprintf("LabelledCrates %s %s", v.Labels, v.CrateID))
			}
		}
		if page.LastEvaluatedKey == nil {
			break
		}
		in.ExclusiveStartKey = page.LastEvaluatedKey
	}
	sort.Strings(out)
	return out
}

// wantElementItems are the lines elementItems must read for the crates
// of ids as GetCrate reads them: an item per label per entry, holding
// the crate's zone and weight.
func wantElementItems(t *testing.T, s *Store, ids []string) []string {
	t.Helper()
	var out []string
	for _, id := range ids {
		cr, err := s.GetCrate(context.Background(), id)
		if errors.Is(err, ErrNotFound) {
			continue
		}
		if err != nil {
			t.Fatalf("GetCrate %s: %v", id, err)
		}
		for _, l := range cr.Labels {
			out = append(out, fmt.Sprintf("CrateLabels %s %s %s %d", l, id, cr.Zone, cr.Weight), fmt.Sprintf("LabelledCrates %s %s", l, id))
		}
	}
	sort.Strings(out)
	return out
}

// sameElementItems checks that the items per element are exactly those
// the crates of ids hold.
func sameElementItems(t *testing.T, s *Store, c *dynamodb.Client, ids []string, after string) {
	t.Helper()
	got, want := elementItems(t, s, c), wantElementItems(t, s, ids)
	if !slices.Equal(got, want) {
		t.Fatalf("after %s, the items per element are\n%s\nwant\n%s", after, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// labelled returns the crates CratesWithLabel finds for label, as
// "id zone weight".
func labelled(t *testing.T, s *Store, label string) []string {
	t.Helper()
	var out []string
	for v, err := range s.CratesWithLabelAll(context.Background(), label) {
		if err != nil {
			t.Fatalf("CratesWithLabel %s: %v", label, err)
		}
		out = append(out, fmt.Sprintf("%s %s %d", v.CrateID, v.Zone, v.Weight))
	}
	return out
}

func TestEachLifecycle(t *testing.T) {
	ctx := context.Background()
	s, c := newStore(t, nil)
	ids := []string{"c1", "c2"}
	// The create's constant zone is what the items hold, whatever the
	// caller's item held.
	if err := s.CreateCrate(ctx, &Crate{CrateID: "c1", Labels: []string{"red", "fragile", "red"}, Zone: CrateZoneOutbound, Weight: 12}); err != nil {
		t.Fatal(err)
	}
	sameElementItems(t, s, c, ids, "CreateCrate")
	if got := labelled(t, s, "red"); !slices.Equal(got, []string{"c1 inbound 12"}) {
		t.Errorf("CratesWithLabel red: %v", got)
	}
	// The element item: its type value, the label, the crate's key and
	// listed attributes, nothing else; in no secondary index.
	item := consistentItem(t, s, c, "LABEL#red", "CRATE#c1")
	var names []string
	for n := range item {
		names = append(names, n)
	}
	sort.Strings(names)
	if want := []string{"PK", "SK", "_type", "crateId", "labels", "weight", "zone"}; !slices.Equal(names, want) {
		t.Errorf("the element item holds %v, want %v", names, want)
	}
	if v, ok := item["labels"].(*types.AttributeValueMemberS); !ok || v.Value != "red" {
		t.Errorf("the element item's labels: %#v", item["labels"])
	}
	// A crate with no labels has no element items; its first labels are
	// written over the set read empty.
	if err := s.CreateCrate(ctx, &Crate{CrateID: "c2", Weight: 3}); err != nil {
		t.Fatal(err)
	}
	sameElementItems(t, s, c, ids, "CreateCrate with no labels")
	if err := s.LabelCrate(ctx, LabelCrateParams{CrateID: "c2", Labels: []string{"red", "blue"}}); err != nil {
		t.Fatal(err)
	}
	sameElementItems(t, s, c, ids, "LabelCrate over no labels")
	// Labels move: fragile dropped, green added, red kept.
	if err := s.LabelCrate(ctx, LabelCrateParams{CrateID: "c1", Labels: []string{"red", "green"}}); err != nil {
		t.Fatal(err)
	}
	sameElementItems(t, s, c, ids, "LabelCrate")
	// A listed attribute changes: every label's item is rewritten.
	if err := s.MoveCrate(ctx, MoveCrateParams{CrateID: "c1", Zone: CrateZoneStored, Weight: 40}); err != nil {
		t.Fatal(err)
	}
	sameElementItems(t, s, c, ids, "MoveCrate")
	if got := labelled(t, s, "red"); !slices.Equal(got, []string{"c1 stored 40", "c2 inbound 3"}) {
		t.Errorf("CratesWithLabel red after MoveCrate: %v", got)
	}
	// A constant, under a when.
	if err := s.ShipCrate(ctx, "c2"); !errors.Is(err, ErrConditionFailed) {
		t.Errorf("ShipCrate of an inbound crate: %v, want ErrConditionFailed", err)
	}
	if err := s.ShipCrate(ctx, "c1"); err != nil {
		t.Fatal(err)
	}
	sameElementItems(t, s, c, ids, "ShipCrate")
	// An attribute no element item holds: a plain update.
	if _, err := s.NoteCrate(ctx, NoteCrateParams{CrateID: "c1", Note: aws.String("handle with care")}); err != nil {
		t.Fatal(err)
	}
	sameElementItems(t, s, c, ids, "NoteCrate")
	// A put moves labels and listed attributes at once.
	if err := s.SaveCrate(ctx, &Crate{CrateID: "c1", Labels: []string{"green", "blue"}, Zone: CrateZoneInbound, Weight: 7}); err != nil {
		t.Fatal(err)
	}
	sameElementItems(t, s, c, ids, "SaveCrate")
	// A put over no item creates it and its items.
	if err := s.SaveCrate(ctx, &Crate{CrateID: "c3", Labels: []string{"blue"}, Zone: CrateZoneStored, Weight: 1}); err != nil {
		t.Fatal(err)
	}
	ids = append(ids, "c3")
	sameElementItems(t, s, c, ids, "SaveCrate over no item")
	// Labels cleared: every item deleted.
	if err := s.LabelCrate(ctx, LabelCrateParams{CrateID: "c2", Labels: nil}); err != nil {
		t.Fatal(err)
	}
	sameElementItems(t, s, c, ids, "LabelCrate to none")
	// More labels than maxItems: refused before any request.
	if err := s.LabelCrate(ctx, LabelCrateParams{CrateID: "c1", Labels: []string{"1", "2", "3", "4", "5", "6", "7"}}); err == nil {
		t.Error("LabelCrate with 7 labels (maxItems 6): no error")
	}
	sameElementItems(t, s, c, ids, "a refused LabelCrate")
	// Updates of no crate fail, and write nothing.
	if err := s.LabelCrate(ctx, LabelCrateParams{CrateID: "nope", Labels: []string{"red"}}); !errors.Is(err, ErrNotFound) {
		t.Errorf("LabelCrate of no crate: %v, want ErrNotFound", err)
	}
	for _, id := range ids {
		if err := s.DeleteCrate(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	sameElementItems(t, s, c, ids, "DeleteCrate")
	if got := elementItems(t, s, c); len(got) != 0 {
		t.Errorf("items left after every crate was deleted: %v", got)
	}
	// Deleting no crate is no error.
	if err := s.DeleteCrate(ctx, "c1"); err != nil {
		t.Errorf("DeleteCrate of no crate: %v", err)
	}
}

// TestEachProperty runs seeded random sequences of every write of
// crates, each followed by the check that the items per element are
// exactly those the crates hold: what is written is what the reads see.
func TestEachProperty(t *testing.T) {
	ctx := context.Background()
	s, c := newStore(t, nil)
	ids := []string{"a", "b", "c"}
	labels := []string{"l1", "l2", "l3", "l4", "l5", "l6", "l7"}
	zones := []CrateZone{CrateZoneInbound, CrateZoneStored, CrateZoneOutbound}
	r := rand.New(rand.NewPCG(19, 42))
	someLabels := func() []string {
		var out []string
		for _, l := range labels {
			if r.IntN(3) == 0 {
				out = append(out, l)
			}
		}
		if len(out) > 6 {
			out = out[:6]
		}
		return out
	}
	// ok are the errors a random write may meet: a crate that exists or
	// does not, a when that does not hold.
	ok := func(err error) bool {
		return err == nil || errors.Is(err, ErrAlreadyExists) || errors.Is(err, ErrNotFound) || errors.Is(err, ErrConditionFailed)
	}
	for i := range 150 {
		id := ids[r.IntN(len(ids))]
		var err error
		var what string
		switch r.IntN(7) {
		case 0:
			what = "CreateCrate"
			err = s.CreateCrate(ctx, &Crate{CrateID: id, Labels: someLabels(), Weight: int64(r.IntN(5))})
		case 1:
			what = "SaveCrate"
			err = s.SaveCrate(ctx, &Crate{CrateID: id, Labels: someLabels(), Zone: zones[r.IntN(3)], Weight: int64(r.IntN(5))})
		case 2:
			what = "LabelCrate"
			err = s.LabelCrate(ctx, LabelCrateParams{CrateID: id, Labels: someLabels()})
		case 3:
			what = "MoveCrate"
			err = s.MoveCrate(ctx, MoveCrateParams{CrateID: id, Zone: zones[r.IntN(3)], Weight: int64(r.IntN(5))})
		case 4:
			what = "ShipCrate"
			err = s.ShipCrate(ctx, id)
		case 5:
			what = "NoteCrate"
			_, err = s.NoteCrate(ctx, NoteCrateParams{CrateID: id, Note: aws.String(fmt.Sprint(i))})
		default:
			what = "DeleteCrate"
			err = s.DeleteCrate(ctx, id)
		}
		if !ok(err) {
			t.Fatalf("write %d, %s %s: %v", i, what, id, err)
		}
		sameElementItems(t, s, c, ids, fmt.Sprintf("write %d, %s %s (%v)", i, what, id, err))
	}
}

// TestEachConcurrent: writers of one crate's labels and zone at once.
// Each write is conditioned on what it read, so every one either
// succeeds or fails with ErrConditionFailed, and whatever the order the
// items per element end exactly as the crate holds them.
func TestEachConcurrent(t *testing.T) {
	ctx := context.Background()
	s, c := newStore(t, nil)
	if err := s.CreateCrate(ctx, &Crate{CrateID: "x", Labels: []string{"l0"}, Weight: 1}); err != nil {
		t.Fatal(err)
	}
	const writers = 16
	errs := make([]error, writers)
	var wg sync.WaitGroup
	for i := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i%2 == 0 {
				errs[i] = s.LabelCrate(ctx, LabelCrateParams{CrateID: "x", Labels: []string{fmt.Sprintf("l%d", i%5), fmt.Sprintf("m%d", i)}})
				return
			}
			errs[i] = s.MoveCrate(ctx, MoveCrateParams{CrateID: "x", Zone: CrateZoneStored, Weight: int64(i)})
		}()
	}
	wg.Wait()
	won := 0
	for i, err := range errs {
		switch {
		case err == nil:
			won++
		case !errors.Is(err, ErrConditionFailed) && !errors.Is(err, ErrTransactionConflict):
			t.Errorf("writer %d: %v, want nil or ErrConditionFailed", i, err)
		}
	}
	if won == 0 {
		t.Error("no writer succeeded")
	}
	sameElementItems(t, s, c, []string{"x"}, "the concurrent writers")
}

// TestEachIntSet: items per element of an intSet, keyed by the number,
// of a versioned entity: a write of a version other than the stored one
// fails with ErrVersionConflict and changes no element item.
func TestEachIntSet(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t, nil)
	bins := func(slot int64) []string {
		t.Helper()
		var out []string
		for v, err := range s.BinsWithSlotAll(ctx, slot) {
			if err != nil {
				t.Fatalf("BinsWithSlot %d: %v", slot, err)
			}
			out = append(out, v.BinID)
		}
		return out
	}
	b1 := &Bin{BinID: "b1", Slots: []int64{3, -1}}
	if err := s.CreateBin(ctx, b1); err != nil {
		t.Fatal(err)
	}
	if b1.Rev != 1 {
		t.Errorf("CreateBin: the caller's item holds rev %d, want 1", b1.Rev)
	}
	if err := s.CreateBin(ctx, &Bin{BinID: "b2", Slots: []int64{3}}); err != nil {
		t.Fatal(err)
	}
	if got := bins(3); !slices.Equal(got, []string{"b1", "b2"}) {
		t.Errorf("BinsWithSlot 3: %v", got)
	}
	if got := bins(-1); !slices.Equal(got, []string{"b1"}) {
		t.Errorf("BinsWithSlot -1: %v", got)
	}
	// A stale version: refused, nothing moves.
	if err := s.SaveBin(ctx, &Bin{BinID: "b1", Slots: []int64{9}, Rev: 7}); !errors.Is(err, ErrVersionConflict) {
		t.Fatalf("SaveBin of a stale version: %v, want ErrVersionConflict", err)
	}
	if got := bins(9); len(got) != 0 {
		t.Errorf("BinsWithSlot 9 after a refused SaveBin: %v", got)
	}
	b1.Slots = []int64{-1, 7}
	if err := s.SaveBin(ctx, b1); err != nil {
		t.Fatal(err)
	}
	if b1.Rev != 2 {
		t.Errorf("SaveBin: the caller's item holds rev %d, want 2", b1.Rev)
	}
	for slot, want := range map[int64][]string{3: {"b2"}, -1: {"b1"}, 7: {"b1"}} {
		if got := bins(slot); !slices.Equal(got, want) {
			t.Errorf("BinsWithSlot %d after SaveBin: %v, want %v", slot, got, want)
		}
	}
	if err := s.DeleteBin(ctx, DeleteBinParams{BinID: "b1", BinRev: 1}); !errors.Is(err, ErrVersionConflict) {
		t.Fatalf("DeleteBin of a stale version: %v, want ErrVersionConflict", err)
	}
	if got := bins(7); !slices.Equal(got, []string{"b1"}) {
		t.Errorf("BinsWithSlot 7 after a refused DeleteBin: %v", got)
	}
	if err := s.DeleteBin(ctx, DeleteBinParams{BinID: "b1", BinRev: 2}); err != nil {
		t.Fatal(err)
	}
	for slot, want := range map[int64][]string{3: {"b2"}, -1: nil, 7: nil} {
		if got := bins(slot); !slices.Equal(got, want) {
			t.Errorf("BinsWithSlot %d after DeleteBin: %v, want %v", slot, got, want)
		}
	}
}

// eachWrites writes crates and bins with every write that keeps their
// items per element, so that the policy is checked on the element items'
// puts and deletes, which the first calls (over no item) do not send.
func eachWrites(t *testing.T, s *Store) {
	t.Helper()
	ctx := t.Context()
	must(t, s.CreateCrate(ctx, &Crate{CrateID: "iam", Labels: []string{"a"}, Weight: 1}))
	must(t, s.LabelCrate(ctx, LabelCrateParams{CrateID: "iam", Labels: []string{"b"}}))
	must(t, s.MoveCrate(ctx, MoveCrateParams{CrateID: "iam", Zone: CrateZoneStored, Weight: 2}))
	must(t, s.SaveCrate(ctx, &Crate{CrateID: "iam", Labels: []string{"c"}, Zone: CrateZoneStored, Weight: 3}))
	must(t, s.DeleteCrate(ctx, "iam"))
	bin := &Bin{BinID: "iam", Slots: []int64{1}}
	must(t, s.CreateBin(ctx, bin))
	bin.Slots = []int64{2}
	must(t, s.SaveBin(ctx, bin))
	must(t, s.DeleteBin(ctx, DeleteBinParams{BinID: "iam", BinRev: bin.Rev}))
}

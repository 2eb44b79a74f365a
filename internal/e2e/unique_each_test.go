package e2e

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
)

const gearClaimAction = "claim Gear.barcodes"

// gearHolder checks that GearByBarcode finds tool id by barcode, or
// none when id is "".
func gearHolder(t *testing.T, s *Store, barcode, id string) {
	t.Helper()
	tl, err := s.GearByBarcode(context.Background(), barcode)
	switch {
	case id == "" && !errors.Is(err, ErrNotFound):
		t.Errorf("GearByBarcode %s: %v, %v; want ErrNotFound", barcode, tl, err)
	case id == "":
	case err != nil:
		t.Errorf("GearByBarcode %s: %v; want %s", barcode, err, id)
	case tl.GearID != id:
		t.Errorf("GearByBarcode %s: %+v; want %s", barcode, tl, id)
	}
}

func TestUniqueEachElement(t *testing.T) {
	ctx := context.Background()
	s, c := newStore(t, nil)
	count := func(barcode string) int { return claimItems(t, s, c, "UNIQUE#Gear#barcodes#"+barcode) }
	if err := s.CreateGear(ctx, &Gear{GearID: "saw", Name: "Saw", Barcodes: []string{"a", "b", "a"}}); err != nil {
		t.Fatalf("CreateGear: %v", err)
	}
	gearHolder(t, s, "a", "saw")
	gearHolder(t, s, "b", "saw")
	gearHolder(t, s, "c", "")
	// Overlapping barcodes conflict, and nothing of the refused tool is
	// written.
	err := s.CreateGear(ctx, &Gear{GearID: "drill", Barcodes: []string{"c", "b"}})
	taken(t, err, gearClaimAction)
	if _, err := s.GetGear(ctx, "drill"); !errors.Is(err, ErrNotFound) {
		t.Errorf("the refused tool was written: %v", err)
	}
	if got := count("c"); got != 0 {
		t.Errorf("%d claims of c after the refused create, want 0", got)
	}
	if err := s.CreateGear(ctx, &Gear{GearID: "drill", Barcodes: []string{"c", "d"}}); err != nil {
		t.Fatalf("CreateGear drill: %v", err)
	}
	// A move: b released, e taken, a kept.
	if err := s.ChangeGearBarcodes(ctx, ChangeGearBarcodesParams{GearID: "saw", Barcodes: []string{"e", "a"}}); err != nil {
		t.Fatalf("ChangeGearBarcodes: %v", err)
	}
	gearHolder(t, s, "a", "saw")
	gearHolder(t, s, "b", "")
	gearHolder(t, s, "e", "saw")
	if got := count("b"); got != 0 {
		t.Errorf("%d claims of the released b, want 0", got)
	}
	// Another tool can then take the released one, not a taken one.
	err = s.ChangeGearBarcodes(ctx, ChangeGearBarcodesParams{GearID: "drill", Barcodes: []string{"c", "d", "e"}})
	taken(t, err, gearClaimAction)
	if err := s.ChangeGearBarcodes(ctx, ChangeGearBarcodesParams{GearID: "drill", Barcodes: []string{"d", "b"}}); err != nil {
		t.Fatalf("drill takes the released b: %v", err)
	}
	gearHolder(t, s, "b", "drill")
	gearHolder(t, s, "c", "")
	// The same set in another order moves nothing.
	if err := s.ChangeGearBarcodes(ctx, ChangeGearBarcodesParams{GearID: "drill", Barcodes: []string{"b", "d"}}); err != nil {
		t.Fatalf("the same set: %v", err)
	}
	gearHolder(t, s, "b", "drill")
	gearHolder(t, s, "d", "drill")
	// A put over the item moves the claims; a put of an empty set frees
	// them all, and the next write conditions on the set still absent.
	if err := s.SaveGear(ctx, &Gear{GearID: "drill", Name: "Drill", Barcodes: []string{"d", "f"}}); err != nil {
		t.Fatalf("SaveGear: %v", err)
	}
	gearHolder(t, s, "b", "")
	gearHolder(t, s, "f", "drill")
	if err := s.SaveGear(ctx, &Gear{GearID: "drill", Name: "Drill"}); err != nil {
		t.Fatalf("SaveGear with no barcodes: %v", err)
	}
	gearHolder(t, s, "d", "")
	gearHolder(t, s, "f", "")
	if err := s.ChangeGearBarcodes(ctx, ChangeGearBarcodesParams{GearID: "drill", Barcodes: []string{"f"}}); err != nil {
		t.Fatalf("ChangeGearBarcodes from none: %v", err)
	}
	gearHolder(t, s, "f", "drill")
	// A put of a new tool takes every claim.
	err = s.SaveGear(ctx, &Gear{GearID: "plane", Barcodes: []string{"g", "f"}})
	taken(t, err, gearClaimAction)
	if err := s.SaveGear(ctx, &Gear{GearID: "plane", Barcodes: []string{"g", "h"}}); err != nil {
		t.Fatalf("SaveGear of a new tool: %v", err)
	}
	gearHolder(t, s, "h", "plane")
	// A delete frees every element.
	if err := s.DeleteGear(ctx, "saw"); err != nil {
		t.Fatalf("DeleteGear: %v", err)
	}
	for _, b := range []string{"a", "e"} {
		if got := count(b); got != 0 {
			t.Errorf("%d claims of %s after the delete, want 0", got, b)
		}
		gearHolder(t, s, b, "")
	}
	if err := s.CreateGear(ctx, &Gear{GearID: "saw2", Barcodes: []string{"a", "e"}}); err != nil {
		t.Fatalf("saw2 takes the freed barcodes: %v", err)
	}
	// maxItems is checked before any call.
	var many []string
	for i := range 9 {
		many = append(many, fmt.Sprint("m", i))
	}
	err = s.CreateGear(ctx, &Gear{GearID: "big", Barcodes: many})
	var ie *ItemError
	if !errors.As(err, &ie) {
		t.Errorf("CreateGear with 9 barcodes: %v; want an *ItemError", err)
	}
	if got := count("m0"); got != 0 {
		t.Errorf("%d claims of m0, want 0", got)
	}
}

// TestUniqueEachConcurrentMoves has two writers move one tool's set at
// once: the one whose read is stale fails (ErrConditionFailed, or a
// conflict), and the claims are exactly the set's elements.
func TestUniqueEachConcurrentMoves(t *testing.T) {
	ctx := context.Background()
	s, c := newStore(t, nil)
	if err := s.CreateGear(ctx, &Gear{GearID: "saw", Barcodes: []string{"a", "b"}}); err != nil {
		t.Fatal(err)
	}
	const n = 8
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			// Each writer adds an element of its own; failures are
			// expected, as long as the claims match the item after.
			_ = s.ChangeGearBarcodes(ctx, ChangeGearBarcodesParams{GearID: "saw", Barcodes: []string{"a", "b", fmt.Sprint("x", i)}})
		})
	}
	wg.Wait()
	tl, err := s.GetGear(ctx, "saw")
	if err != nil {
		t.Fatal(err)
	}
	held := map[string]bool{}
	for _, b := range tl.Barcodes {
		held[b] = true
	}
	for i := range n {
		b := fmt.Sprint("x", i)
		if got := claimItems(t, s, c, "UNIQUE#Gear#barcodes#"+b); got != map[bool]int{true: 1, false: 0}[held[b]] {
			t.Errorf("%d claims of %s, held by the tool: %v", got, b, held[b])
		}
	}
}

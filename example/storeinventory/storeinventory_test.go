package storeinventory_test

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/dyngen/dyngen/example/internal/exampletest"
	"github.com/dyngen/dyngen/example/storeinventory"
	"github.com/dyngen/dyngen/internal/dynamotest"
	"github.com/dyngen/dyngen/internal/iamcheck"
)

// newStore returns a Store over tables of unique names in DynamoDB Local
// (see exampletest.NewStore).
func newStore(t *testing.T) *storeinventory.Store {
	t.Helper()
	return exampletest.NewStore(t, func(chk *iamcheck.Checker) *storeinventory.Store {
		return storeinventory.New(chk, storeinventory.WithStoreInventoryTable(dynamotest.TableName("StoreInventory")))
	})
}

// ---- fixtures ------------------------------------------------------------------

var (
	electronics = []string{"Electronics"}
	laptops     = []string{"Electronics", "Laptops"}
	accessories = []string{"Electronics", "Laptops", "Accessories"}
	outlet      = []string{"ElectronicsOutlet"}
	outletLaps  = []string{"ElectronicsOutlet", "Laptops"}
)

// goods of StoreA. The accessories' prices (in cents) sort differently as
// text and as numbers: 95 < 900 < 1000 < 1500 < 4999 < 10000.
var storeA = []storeinventory.Good{
	{StoreID: "StoreA", Category: electronics, GoodID: "tv-55", Name: "55\" OLED TV", Price: 129900},
	{StoreID: "StoreA", Category: electronics, GoodID: "hdmi-2m", Name: "HDMI cable, 2 m", Price: 1299},
	{StoreID: "StoreA", Category: laptops, GoodID: "xps-13", Name: "Dell XPS 13", Price: 99900},
	{StoreID: "StoreA", Category: laptops, GoodID: "mbp-14", Name: "MacBook Pro 14\"", Price: 199900},
	{StoreID: "StoreA", Category: laptops, GoodID: "tp-x1", Name: "ThinkPad X1 Carbon", Price: 149900},
	{StoreID: "StoreA", Category: accessories, GoodID: "sticker", Name: "Laptop sticker", Price: 95},
	{StoreID: "StoreA", Category: accessories, GoodID: "dock", Name: "USB-C dock", Price: 10000},
	{StoreID: "StoreA", Category: accessories, GoodID: "mouse", Name: "Wireless mouse", Price: 900},
	{StoreID: "StoreA", Category: accessories, GoodID: "hub", Name: "USB hub", Price: 1000},
	{StoreID: "StoreA", Category: accessories, GoodID: "sleeve", Name: "Laptop sleeve", Price: 1500},
	{StoreID: "StoreA", Category: accessories, GoodID: "charger", Name: "65 W charger", Price: 4999},
	{StoreID: "StoreA", Category: outlet, GoodID: "phone-refurb", Name: "Refurbished phone", Price: 19900},
	{StoreID: "StoreA", Category: outletLaps, GoodID: "air-refurb", Name: "Refurbished MacBook Air", Price: 69900},
}

// goods of StoreB, in the same categories: never among StoreA's.
var storeB = []storeinventory.Good{
	{StoreID: "StoreB", Category: electronics, GoodID: "radio", Name: "DAB radio", Price: 4900},
	{StoreID: "StoreB", Category: accessories, GoodID: "mouse", Name: "Wired mouse", Price: 500},
}

func seed(t *testing.T, s *storeinventory.Store) {
	t.Helper()
	ctx := t.Context()
	for _, st := range []storeinventory.StoreMetadata{
		{StoreID: "StoreA", Location: "Drottninggatan 53, Stockholm"},
		{StoreID: "StoreB", Location: "Kungsportsavenyen 10, Gothenburg"},
	} {
		if err := s.AddStore(ctx, &st); err != nil {
			t.Fatalf("AddStore %s: %v", st.StoreID, err)
		}
	}
	for _, g := range append(slices.Clone(storeA), storeB...) {
		if err := s.AddGood(ctx, &g); err != nil {
			t.Fatalf("AddGood %s/%s: %v", g.StoreID, g.GoodID, err)
		}
	}
}

// ---- expectations and comparisons ----------------------------------------------

// sk is a good's table sort key as the spec builds it: the category path,
// then the good id, joined by "#".
func sk(g storeinventory.Good) string {
	return strings.Join(g.Category, "#") + "#" + g.GoodID
}

// inCategory returns StoreA's goods under the category path (at any level
// below it), in sort key order.
func inCategory(path []string) []storeinventory.Good {
	var out []storeinventory.Good
	for _, g := range storeA {
		if len(g.Category) >= len(path) && slices.Equal(g.Category[:len(path)], path) {
			out = append(out, g)
		}
	}
	slices.SortFunc(out, func(a, b storeinventory.Good) int { return strings.Compare(sk(a), sk(b)) })
	return out
}

// exactly returns StoreA's goods of exactly the category, cheapest first,
// priced from lo to hi.
func exactly(path []string, lo, hi int64) []storeinventory.Good {
	var out []storeinventory.Good
	for _, g := range storeA {
		if slices.Equal(g.Category, path) && g.Price >= lo && g.Price <= hi {
			out = append(out, g)
		}
	}
	slices.SortFunc(out, func(a, b storeinventory.Good) int { return int(a.Price - b.Price) })
	return out
}

func checkGood(t *testing.T, what string, got, want storeinventory.Good) {
	t.Helper()
	if got.StoreID != want.StoreID {
		t.Errorf("%s: StoreID = %q, want %q", what, got.StoreID, want.StoreID)
	}
	if !slices.Equal(got.Category, want.Category) {
		t.Errorf("%s: Category = %q, want %q", what, got.Category, want.Category)
	}
	if got.GoodID != want.GoodID {
		t.Errorf("%s: GoodID = %q, want %q", what, got.GoodID, want.GoodID)
	}
	if got.Name != want.Name {
		t.Errorf("%s: Name = %q, want %q", what, got.Name, want.Name)
	}
	if got.Price != want.Price {
		t.Errorf("%s: Price = %d, want %d", what, got.Price, want.Price)
	}
}

func ids(gs []storeinventory.Good) []string {
	out := make([]string, len(gs))
	for i, g := range gs {
		out[i] = g.GoodID
	}
	return out
}

func prices(gs []storeinventory.Good) []int64 {
	out := make([]int64, len(gs))
	for i, g := range gs {
		out[i] = g.Price
	}
	return out
}

// checkGoods compares two lists of goods, in order.
func checkGoods(t *testing.T, what string, got, want []storeinventory.Good) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: goods %q, want %q", what, ids(got), ids(want))
		return
	}
	for i := range got {
		checkGood(t, fmt.Sprintf("%s[%d]", what, i), got[i], want[i])
	}
}

// ---- tests ---------------------------------------------------------------------

func TestStoreLocation(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	seed(t, s)

	loc, err := s.StoreLocation(ctx, "StoreA")
	if err != nil {
		t.Fatalf("StoreLocation: %v", err)
	}
	if loc.StoreID != "StoreA" || loc.Location != "Drottninggatan 53, Stockholm" {
		t.Errorf("StoreLocation StoreA = %+v", *loc)
	}
	loc, err = s.StoreLocation(ctx, "StoreB")
	if err != nil {
		t.Fatal(err)
	}
	if loc.StoreID != "StoreB" || loc.Location != "Kungsportsavenyen 10, Gothenburg" {
		t.Errorf("StoreLocation StoreB = %+v", *loc)
	}
	if _, err := s.StoreLocation(ctx, "StoreZ"); !errors.Is(err, storeinventory.ErrNotFound) {
		t.Errorf("StoreLocation of a missing store: %v, want ErrNotFound", err)
	}
	if _, err := s.StoreLocation(ctx, "Store#A"); !errors.Is(err, storeinventory.ErrInvalidKey) {
		t.Errorf("StoreLocation with '#' in the id: %v, want ErrInvalidKey", err)
	}

	// AddStore refuses an existing store; MoveStore changes the location.
	if err := s.AddStore(ctx, &storeinventory.StoreMetadata{StoreID: "StoreA", Location: "elsewhere"}); !errors.Is(err, storeinventory.ErrAlreadyExists) {
		t.Errorf("AddStore of an existing store: %v, want ErrAlreadyExists", err)
	}
	moved, err := s.MoveStore(ctx, storeinventory.MoveStoreParams{StoreID: "StoreA", Location: "Sveavägen 44, Stockholm"})
	if err != nil {
		t.Fatalf("MoveStore: %v", err)
	}
	if moved.StoreID != "StoreA" || moved.Location != "Sveavägen 44, Stockholm" {
		t.Errorf("MoveStore result = %+v", *moved)
	}
	loc, err = s.StoreLocation(ctx, "StoreA")
	if err != nil {
		t.Fatal(err)
	}
	if loc.Location != "Sveavägen 44, Stockholm" {
		t.Errorf("StoreLocation after MoveStore = %q", loc.Location)
	}
	if _, err := s.MoveStore(ctx, storeinventory.MoveStoreParams{StoreID: "StoreZ", Location: "nowhere"}); !errors.Is(err, storeinventory.ErrNotFound) {
		t.Errorf("MoveStore of a missing store: %v, want ErrNotFound", err)
	}
	if _, err := s.StoreLocation(ctx, "StoreZ"); !errors.Is(err, storeinventory.ErrNotFound) {
		t.Errorf("StoreLocation after a refused MoveStore: %v, want ErrNotFound (MoveStore must not create)", err)
	}
}

func TestGoodsOfStore(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	seed(t, s)

	want := inCategory(nil) // every good of StoreA, in sort key order
	res, err := s.GoodsOfStore(ctx, "StoreA", storeinventory.Page{})
	if err != nil {
		t.Fatalf("GoodsOfStore: %v", err)
	}
	checkGoods(t, "GoodsOfStore StoreA", res.Items, want)
	if res.Next != "" {
		t.Errorf("GoodsOfStore: Next = %q, want \"\"", res.Next)
	}

	// Page by page, 4 a page, and with the iterator.
	var got []storeinventory.Good
	page := storeinventory.Page{Limit: 4}
	pages := 0
	for {
		r, err := s.GoodsOfStore(ctx, "StoreA", page)
		if err != nil {
			t.Fatal(err)
		}
		pages++
		got = append(got, r.Items...)
		if r.Next == "" {
			break
		}
		page.Cursor = r.Next
	}
	if pages != 4 {
		t.Errorf("GoodsOfStore, 13 goods 4 a page: %d pages, want 4", pages)
	}
	checkGoods(t, "GoodsOfStore pages", got, want)
	got = nil
	for g, err := range s.GoodsOfStoreAll(ctx, "StoreA") {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, g)
	}
	checkGoods(t, "GoodsOfStoreAll", got, want)

	res, err = s.GoodsOfStore(ctx, "StoreB", storeinventory.Page{})
	if err != nil {
		t.Fatal(err)
	}
	checkGoods(t, "GoodsOfStore StoreB", res.Items, []storeinventory.Good{storeB[1], storeB[0]})

	// A store without goods (its metadata item is in another partition).
	if err := s.AddStore(ctx, &storeinventory.StoreMetadata{StoreID: "StoreC", Location: "Malmö"}); err != nil {
		t.Fatal(err)
	}
	res, err = s.GoodsOfStore(ctx, "StoreC", storeinventory.Page{})
	if err != nil || len(res.Items) != 0 {
		t.Errorf("GoodsOfStore of a store without goods: %+v, %v", res, err)
	}
}

// TestGoodsInCategory queries each level of the hierarchy: a level returns
// its goods and those of the levels below, and a category never returns
// another that merely starts with the same letters (Electronics is not
// ElectronicsOutlet).
func TestGoodsInCategory(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	seed(t, s)

	for _, tc := range []struct {
		path []string
		n    int
	}{
		{electronics, 11},
		{laptops, 9},
		{accessories, 6},
		{outlet, 2},
		{outletLaps, 1},
		{[]string{"Electronics", "Lap"}, 0}, // a partial level matches nothing
		{[]string{"Electronics", "Laptops", "Accessories", "Cables"}, 0},
		{[]string{"Garden"}, 0},
	} {
		what := "GoodsInCategory " + strings.Join(tc.path, "#")
		want := inCategory(tc.path)
		if len(want) != tc.n {
			t.Fatalf("%s: fixture has %d goods, want %d", what, len(want), tc.n)
		}
		res, err := s.GoodsInCategory(ctx, storeinventory.GoodsInCategoryParams{StoreID: "StoreA", Category: tc.path}, storeinventory.Page{})
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		checkGoods(t, what, res.Items, want)
		for _, g := range res.Items {
			if g.Category[0] != tc.path[0] {
				t.Errorf("%s: returned %s of category %q", what, g.GoodID, g.Category)
			}
		}
		var got []storeinventory.Good
		for g, err := range s.GoodsInCategoryAll(ctx, storeinventory.GoodsInCategoryParams{StoreID: "StoreA", Category: tc.path}) {
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, g)
		}
		checkGoods(t, what+" (All)", got, want)
	}

	// StoreB's goods stay in StoreB.
	res, err := s.GoodsInCategory(ctx, storeinventory.GoodsInCategoryParams{StoreID: "StoreB", Category: electronics}, storeinventory.Page{})
	if err != nil {
		t.Fatal(err)
	}
	checkGoods(t, "GoodsInCategory StoreB Electronics", res.Items, []storeinventory.Good{storeB[1], storeB[0]})

	// Pages of 2 through the accessories.
	var got []storeinventory.Good
	page := storeinventory.Page{Limit: 2}
	for {
		r, err := s.GoodsInCategory(ctx, storeinventory.GoodsInCategoryParams{StoreID: "StoreA", Category: accessories}, page)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Items) > 2 {
			t.Errorf("GoodsInCategory with Limit 2: %d items", len(r.Items))
		}
		got = append(got, r.Items...)
		if r.Next == "" {
			break
		}
		page.Cursor = r.Next
	}
	checkGoods(t, "GoodsInCategory accessories, pages of 2", got, inCategory(accessories))

	// Bad paths are refused before any call.
	if _, err := s.GoodsInCategory(ctx, storeinventory.GoodsInCategoryParams{StoreID: "StoreA", Category: nil}, storeinventory.Page{}); !errors.Is(err, storeinventory.ErrInvalidKey) {
		t.Errorf("GoodsInCategory with an empty path: %v, want ErrInvalidKey", err)
	}
	if _, err := s.GoodsInCategory(ctx, storeinventory.GoodsInCategoryParams{StoreID: "StoreA", Category: []string{"Electronics#Laptops"}}, storeinventory.Page{}); !errors.Is(err, storeinventory.ErrInvalidKey) {
		t.Errorf("GoodsInCategory with '#' in an element: %v, want ErrInvalidKey", err)
	}
	if _, err := s.GoodsInCategory(ctx, storeinventory.GoodsInCategoryParams{StoreID: "StoreA", Category: []string{"Electronics", ""}}, storeinventory.Page{}); !errors.Is(err, storeinventory.ErrInvalidKey) {
		t.Errorf("GoodsInCategory with an empty element: %v, want ErrInvalidKey", err)
	}
	bad := storeinventory.Good{StoreID: "StoreA", Category: []string{"Electronics", "Lap#tops"}, GoodID: "x", Name: "x", Price: 1}
	if err := s.AddGood(ctx, &bad); !errors.Is(err, storeinventory.ErrInvalidKey) {
		t.Errorf("AddGood with '#' in a category element: %v, want ErrInvalidKey", err)
	}
}

// TestGoodsByPrice reads the goods of one category through GSI1, cheapest
// first and within price ranges: the order is numeric (95 < 900 < 1000 <
// 10000), not the text order of the prices.
func TestGoodsByPrice(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	seed(t, s)

	// One exact category each: the levels below are in other GSI1 partitions.
	for _, path := range [][]string{electronics, laptops, accessories, outlet, outletLaps} {
		what := "GoodsInCategoryByPrice " + strings.Join(path, "#")
		want := exactly(path, 0, math.MaxInt64)
		res, err := s.GoodsInCategoryByPrice(ctx, storeinventory.GoodsInCategoryByPriceParams{StoreID: "StoreA", Category: path}, storeinventory.Page{})
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		checkGoods(t, what, res.Items, want)
		var got []storeinventory.Good
		for g, err := range s.GoodsInCategoryByPriceAll(ctx, storeinventory.GoodsInCategoryByPriceParams{StoreID: "StoreA", Category: path}) {
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, g)
		}
		checkGoods(t, what+" (All)", got, want)
	}
	res, err := s.GoodsInCategoryByPrice(ctx, storeinventory.GoodsInCategoryByPriceParams{StoreID: "StoreA", Category: accessories}, storeinventory.Page{})
	if err != nil {
		t.Fatal(err)
	}
	if p := prices(res.Items); !slices.Equal(p, []int64{95, 900, 1000, 1500, 4999, 10000}) {
		t.Errorf("GoodsInCategoryByPrice accessories: prices %v, want [95 900 1000 1500 4999 10000]", p)
	}

	for _, tc := range []struct {
		path   []string
		lo, hi int64
		want   []int64
	}{
		{accessories, 900, 1500, []int64{900, 1000, 1500}}, // bounds included
		{accessories, 901, 1499, []int64{1000}},
		{accessories, 96, 9999, []int64{900, 1000, 1500, 4999}}, // 95 and 10000 just out
		{accessories, 0, 100, []int64{95}},
		{accessories, 1000, 1000, []int64{1000}},
		{accessories, 5000, math.MaxInt64, []int64{10000}},
		{accessories, 0, math.MaxInt64, []int64{95, 900, 1000, 1500, 4999, 10000}},
		{accessories, math.MinInt64, -1, nil},
		{accessories, 1500, 900, nil}, // an empty range
		{laptops, 100000, 150000, []int64{149900}},
		{laptops, 99900, 199900, []int64{99900, 149900, 199900}},
		{electronics, 1000, 200000, []int64{1299, 129900}},
		{outlet, 0, math.MaxInt64, []int64{19900}},
	} {
		what := fmt.Sprintf("GoodsInPriceRange %s [%d, %d]", strings.Join(tc.path, "#"), tc.lo, tc.hi)
		res, err := s.GoodsInPriceRange(ctx, storeinventory.GoodsInPriceRangeParams{StoreID: "StoreA", Category: tc.path, PriceFrom: tc.lo, PriceTo: tc.hi}, storeinventory.Page{})
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		checkGoods(t, what, res.Items, exactly(tc.path, tc.lo, tc.hi))
		if p := prices(res.Items); !slices.Equal(p, tc.want) {
			t.Errorf("%s: prices %v, want %v", what, p, tc.want)
		}
		var got []storeinventory.Good
		for g, err := range s.GoodsInPriceRangeAll(ctx, storeinventory.GoodsInPriceRangeParams{StoreID: "StoreA", Category: tc.path, PriceFrom: tc.lo, PriceTo: tc.hi}) {
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, g)
		}
		if p := prices(got); !slices.Equal(p, tc.want) {
			t.Errorf("%s (All): prices %v, want %v", what, p, tc.want)
		}
	}

	// Pages of 2 through a price range.
	var got []storeinventory.Good
	page := storeinventory.Page{Limit: 2}
	for {
		r, err := s.GoodsInPriceRange(ctx, storeinventory.GoodsInPriceRangeParams{StoreID: "StoreA", Category: accessories, PriceFrom: 900, PriceTo: 10000}, page)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, r.Items...)
		if r.Next == "" {
			break
		}
		page.Cursor = r.Next
	}
	if p := prices(got); !slices.Equal(p, []int64{900, 1000, 1500, 4999, 10000}) {
		t.Errorf("GoodsInPriceRange in pages of 2: prices %v", p)
	}

	// StoreB's accessories are in their own GSI1 partition.
	r, err := s.GoodsInPriceRange(ctx, storeinventory.GoodsInPriceRangeParams{StoreID: "StoreB", Category: accessories, PriceFrom: 0, PriceTo: math.MaxInt64}, storeinventory.Page{})
	if err != nil {
		t.Fatal(err)
	}
	checkGoods(t, "GoodsInPriceRange StoreB accessories", r.Items, []storeinventory.Good{storeB[1]})
}

// TestGoodWrites adds, replaces, reprices and removes goods, and checks that
// the table and GSI1 both follow.
func TestGoodWrites(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	seed(t, s)

	// AddGood refuses a good that exists; SaveGood replaces it.
	mouse := storeA[7]
	dup := mouse
	dup.Name = "Impostor mouse"
	if err := s.AddGood(ctx, &dup); !errors.Is(err, storeinventory.ErrAlreadyExists) {
		t.Errorf("AddGood of an existing good: %v, want ErrAlreadyExists", err)
	}
	renamed := mouse
	renamed.Name = "Wireless mouse (silent)"
	renamed.Price = 1200
	if err := s.SaveGood(ctx, &renamed); err != nil {
		t.Fatalf("SaveGood: %v", err)
	}
	res, err := s.GoodsInCategoryByPrice(ctx, storeinventory.GoodsInCategoryByPriceParams{StoreID: "StoreA", Category: accessories}, storeinventory.Page{})
	if err != nil {
		t.Fatal(err)
	}
	if p := prices(res.Items); !slices.Equal(p, []int64{95, 1000, 1200, 1500, 4999, 10000}) {
		t.Errorf("GoodsInCategoryByPrice after SaveGood: prices %v", p)
	}
	for _, g := range res.Items {
		if g.GoodID == "mouse" {
			checkGood(t, "saved mouse", g, renamed)
		}
	}
	// SaveGood also creates.
	cam := storeinventory.Good{StoreID: "StoreA", Category: accessories, GoodID: "webcam", Name: "HD webcam", Price: 3900}
	if err := s.SaveGood(ctx, &cam); err != nil {
		t.Fatal(err)
	}

	// Reprice moves the good in GSI1's price order.
	dock := storeA[6]
	repriced, err := s.Reprice(ctx, storeinventory.RepriceParams{StoreID: "StoreA", Category: accessories, GoodID: "dock", Price: 850})
	if err != nil {
		t.Fatalf("Reprice: %v", err)
	}
	want := dock
	want.Price = 850
	checkGood(t, "Reprice result", *repriced, want)
	r, err := s.GoodsInPriceRange(ctx, storeinventory.GoodsInPriceRangeParams{StoreID: "StoreA", Category: accessories, PriceFrom: 0, PriceTo: 1000}, storeinventory.Page{})
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(r.Items); !slices.Equal(got, []string{"sticker", "dock", "hub"}) {
		t.Errorf("GoodsInPriceRange [0, 1000] after Reprice: %q, want [sticker dock hub]", got)
	}
	r, err = s.GoodsInPriceRange(ctx, storeinventory.GoodsInPriceRangeParams{StoreID: "StoreA", Category: accessories, PriceFrom: 5000, PriceTo: math.MaxInt64}, storeinventory.Page{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Items) != 0 {
		t.Errorf("GoodsInPriceRange [5000, max] after Reprice: %q, want none", ids(r.Items))
	}
	if _, err := s.Reprice(ctx, storeinventory.RepriceParams{StoreID: "StoreA", Category: accessories, GoodID: "no-such-good", Price: 100}); !errors.Is(err, storeinventory.ErrNotFound) {
		t.Errorf("Reprice of a missing good: %v, want ErrNotFound", err)
	}
	if _, err := s.Reprice(ctx, storeinventory.RepriceParams{StoreID: "StoreA", Category: laptops, GoodID: "dock", Price: 100}); !errors.Is(err, storeinventory.ErrNotFound) {
		t.Errorf("Reprice in the wrong category: %v, want ErrNotFound", err)
	}
	if _, err := s.Reprice(ctx, storeinventory.RepriceParams{StoreID: "StoreA", Category: accessories, GoodID: "dock", Price: -1}); !errors.Is(err, storeinventory.ErrInvalidItem) {
		t.Errorf("Reprice to a negative price: %v, want ErrInvalidItem", err)
	}
	neg := storeinventory.Good{StoreID: "StoreA", Category: accessories, GoodID: "free", Name: "x", Price: -5}
	if err := s.AddGood(ctx, &neg); !errors.Is(err, storeinventory.ErrInvalidItem) {
		t.Errorf("AddGood with a negative price: %v, want ErrInvalidItem", err)
	}

	// RemoveGood: gone from the table and from GSI1; removing again is no error.
	if err := s.RemoveGood(ctx, storeinventory.GoodKey{StoreID: "StoreA", Category: accessories, GoodID: "hub"}); err != nil {
		t.Fatalf("RemoveGood: %v", err)
	}
	if err := s.RemoveGood(ctx, storeinventory.GoodKey{StoreID: "StoreA", Category: accessories, GoodID: "hub"}); err != nil {
		t.Errorf("RemoveGood of a removed good: %v", err)
	}
	all, err := s.GoodsInCategory(ctx, storeinventory.GoodsInCategoryParams{StoreID: "StoreA", Category: accessories}, storeinventory.Page{})
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(all.Items); !slices.Equal(got, []string{"charger", "dock", "mouse", "sleeve", "sticker", "webcam"}) {
		t.Errorf("GoodsInCategory accessories after RemoveGood: %q", got)
	}
	byPrice, err := s.GoodsInCategoryByPrice(ctx, storeinventory.GoodsInCategoryByPriceParams{StoreID: "StoreA", Category: accessories}, storeinventory.Page{})
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(byPrice.Items); !slices.Equal(got, []string{"sticker", "dock", "mouse", "sleeve", "webcam", "charger"}) {
		t.Errorf("GoodsInCategoryByPrice accessories after the writes: %q", got)
	}
	if p := prices(byPrice.Items); !slices.Equal(p, []int64{95, 850, 1200, 1500, 3900, 4999}) {
		t.Errorf("GoodsInCategoryByPrice accessories after the writes: prices %v", p)
	}
}

// stepFailed checks the failure of a step of a transaction (see
// exampletest.StepFailedOf).
var stepFailed = exampletest.StepFailedOf(func(e *storeinventory.TransactionError) (int, string) { return e.Step, e.Action },
	storeinventory.ErrNotFound, storeinventory.ErrAlreadyExists, storeinventory.ErrConditionFailed, storeinventory.ErrSameItem)

// TestMoveGood moves a good to another category: the delete under the old
// category and the create under the new one happen together or not at all,
// on the table and on GSI1.
func TestMoveGood(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	seed(t, s)
	// idsIn returns the ids of StoreA's goods of exactly the category, on
	// the table (by sort key) and on GSI1 (by price).
	idsIn := func(category []string) (table, gsi []string) {
		t.Helper()
		r, err := s.GoodsInCategory(ctx, storeinventory.GoodsInCategoryParams{StoreID: "StoreA", Category: category}, storeinventory.Page{})
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range r.Items {
			if slices.Equal(g.Category, category) {
				table = append(table, g.GoodID)
			}
		}
		p, err := s.GoodsInCategoryByPrice(ctx, storeinventory.GoodsInCategoryByPriceParams{StoreID: "StoreA", Category: category}, storeinventory.Page{})
		if err != nil {
			t.Fatal(err)
		}
		return table, ids(p.Items)
	}

	dock := storeA[6] // in accessories
	moved := dock
	moved.Category = laptops
	move := storeinventory.MoveGoodParams{Good: &moved, FromCategory: accessories}
	if err := s.MoveGood(ctx, move); err != nil {
		t.Fatalf("MoveGood: %v", err)
	}
	table, gsi := idsIn(accessories)
	if slices.Contains(table, "dock") || slices.Contains(gsi, "dock") {
		t.Errorf("accessories after the move: table %q, GSI1 %q; the dock is still there", table, gsi)
	}
	table, gsi = idsIn(laptops)
	if want := []string{"dock", "mbp-14", "tp-x1", "xps-13"}; !slices.Equal(table, want) {
		t.Errorf("laptops after the move: %q, want %q", table, want)
	}
	if want := []string{"dock", "xps-13", "tp-x1", "mbp-14"}; !slices.Equal(gsi, want) {
		t.Errorf("laptops by price after the move: %q, want %q", gsi, want)
	}

	// Moving it again from accessories: the delete's condition (the good is
	// there) fails at step 1, and no second dock is created.
	stepFailed(t, "MoveGood of a good not in the old category", s.MoveGood(ctx, move), 1, storeinventory.ErrConditionFailed, true)
	if table, _ := idsIn(laptops); len(table) != 4 {
		t.Errorf("laptops after a refused move: %q", table)
	}

	// A good of that id already in the new category: the create fails at
	// step 2, and the good stays in its old category.
	if err := s.AddGood(ctx, &storeinventory.Good{StoreID: "StoreA", Category: electronics, GoodID: "mouse", Name: "Mouse (display model)", Price: 500}); err != nil {
		t.Fatal(err)
	}
	mouse := storeA[7]
	into := mouse
	into.Category = electronics
	stepFailed(t, "MoveGood onto an existing good", s.MoveGood(ctx, storeinventory.MoveGoodParams{Good: &into, FromCategory: accessories}), 2, storeinventory.ErrAlreadyExists, true)
	if table, gsi := idsIn(accessories); !slices.Contains(table, "mouse") || !slices.Contains(gsi, "mouse") {
		t.Errorf("accessories after a refused move: table %q, GSI1 %q; the mouse is gone", table, gsi)
	}

	// The same category twice: the two steps would address one item,
	// refused before the call.
	stepFailed(t, "MoveGood into its own category", s.MoveGood(ctx, storeinventory.MoveGoodParams{Good: &mouse, FromCategory: accessories}), 2, storeinventory.ErrSameItem, false)
}

package storeinventory_test

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dyngen/dyngen/example/internal/exampletest"
	synthetic "github.com/dyngen/dyngen/example/storeinventory"
	storeinventory "github.com/dyngen/dyngen/example/storeinventory/native"
	"github.com/dyngen/dyngen/internal/dynamotest"
	"github.com/dyngen/dyngen/internal/iamcheck"
)

func newStore(t *testing.T) *storeinventory.Store {
	t.Helper()
	return exampletest.NewStore(t, func(chk *iamcheck.Checker) *storeinventory.Store {
		return storeinventory.New(chk, storeinventory.WithStoreInventoryTable(dynamotest.TableName("StoreInventory")))
	})
}

var (
	laptops     = []string{"Electronics", "Laptops"}
	accessories = []string{"Electronics", "Laptops", "Accessories"}
)

// goods whose prices (in cents) sort differently as text and as numbers.
var goods = []storeinventory.Good{
	{StoreID: "StoreA", Category: accessories, GoodID: "sticker", Name: "Laptop sticker", Price: 95},
	{StoreID: "StoreA", Category: accessories, GoodID: "dock", Name: "USB-C dock", Price: 10000},
	{StoreID: "StoreA", Category: accessories, GoodID: "mouse", Name: "Wireless mouse", Price: 900},
	{StoreID: "StoreA", Category: accessories, GoodID: "hub", Name: "USB hub", Price: 1000},
	{StoreID: "StoreA", Category: accessories, GoodID: "sleeve", Name: "Laptop sleeve", Price: 1500},
	{StoreID: "StoreA", Category: laptops, GoodID: "xps-13", Name: "Dell XPS 13", Price: 99900},
	{StoreID: "StoreB", Category: accessories, GoodID: "mouse", Name: "Wired mouse", Price: 500},
}

func ids(gs []storeinventory.Good) []string {
	var out []string
	for _, g := range gs {
		out = append(out, g.GoodID)
	}
	return out
}

// TestByCategory reads the goods of one category of a store through the
// multi-attribute index, cheapest first and by a range of prices, which
// DynamoDB compares as numbers; the store's metadata, which holds no
// category nor price, is not in the index.
func TestByCategory(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	if err := s.AddStore(ctx, &storeinventory.StoreMetadata{StoreID: "StoreA", Location: "Stockholm"}); err != nil {
		t.Fatal(err)
	}
	for _, g := range goods {
		if err := s.AddGood(ctx, &g); err != nil {
			t.Fatal(err)
		}
	}
	res, err := s.GoodsInCategoryByPrice(ctx, storeinventory.GoodsInCategoryByPriceParams{StoreID: "StoreA", Category: accessories}, storeinventory.Page{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := ids(res.Items), []string{"sticker", "mouse", "hub", "sleeve", "dock"}; !slices.Equal(got, want) {
		t.Errorf("GoodsInCategoryByPrice: %v, want %v", got, want)
	}
	rng, err := s.GoodsInPriceRange(ctx, storeinventory.GoodsInPriceRangeParams{StoreID: "StoreA", Category: accessories, PriceFrom: 900, PriceTo: 1500}, storeinventory.Page{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := ids(rng.Items), []string{"mouse", "hub", "sleeve"}; !slices.Equal(got, want) {
		t.Errorf("GoodsInPriceRange 900..1500: %v, want %v", got, want)
	}
	// A category element holding the separator would name another
	// category's key ("Electronics#Laptops" is Electronics, Laptops).
	var keyErr *storeinventory.KeyError
	_, err = s.GoodsInCategoryByPrice(ctx, storeinventory.GoodsInCategoryByPriceParams{StoreID: "StoreA", Category: []string{"Electronics#Laptops"}}, storeinventory.Page{})
	if !errors.As(err, &keyErr) || keyErr.Attr != "category" {
		t.Errorf("a category element holding #: %v, want a KeyError of category", err)
	}
	// Repriced: DynamoDB moves the good in the index.
	if _, err := s.Reprice(ctx, storeinventory.RepriceParams{StoreID: "StoreA", Category: accessories, GoodID: "dock", Price: 1}); err != nil {
		t.Fatal(err)
	}
	res, err = s.GoodsInCategoryByPrice(ctx, storeinventory.GoodsInCategoryByPriceParams{StoreID: "StoreA", Category: accessories}, storeinventory.Page{Limit: 1})
	if err != nil || len(res.Items) != 1 || res.Items[0].GoodID != "dock" {
		t.Errorf("cheapest after the reprice: %+v, %v; want dock", res, err)
	}
}

// itemSize is the size DynamoDB counts of an item of S and N attributes:
// each name's and value's bytes, a number's value taking one byte per two
// significant digits, plus one.
func itemSize(item map[string]types.AttributeValue) int {
	n := 0
	for name, v := range item {
		n += len(name)
		switch v := v.(type) {
		case *types.AttributeValueMemberS:
			n += len(v.Value)
		case *types.AttributeValueMemberN:
			n += (len(v.Value)+1)/2 + 1
		}
	}
	return n
}

// writeUnits are the write capacity units of putting an item of size bytes
// in the table and in the global indexes it is in (each projecting the
// whole item): one per KB begun, in each.
func writeUnits(size, indexes int) float64 {
	return math.Ceil(float64(size)/1024) * float64(1+indexes)
}

// BenchmarkGoodItem measures the good's item before (the example's
// synthetic GSI1PK and GSI1SK) and after (the multi-attribute index): its
// marshalling, its size and its write cost, over the goods above.
func BenchmarkGoodItem(b *testing.B) {
	b.Run("synthetic", func(b *testing.B) {
		items := make([]synthetic.Good, len(goods))
		for i, g := range goods {
			items[i] = synthetic.Good{StoreID: g.StoreID, Category: g.Category, GoodID: g.GoodID, Name: g.Name, Price: g.Price}
		}
		bench(b, func(i int) (map[string]types.AttributeValue, error) { return items[i%len(items)].MarshalItem() })
	})
	b.Run("native", func(b *testing.B) {
		bench(b, func(i int) (map[string]types.AttributeValue, error) { return goods[i%len(goods)].MarshalItem() })
	})
}

func bench(b *testing.B, marshal func(i int) (map[string]types.AttributeValue, error)) {
	size := 0
	for i := range goods {
		item, err := marshal(i)
		if err != nil {
			b.Fatal(err)
		}
		size += itemSize(item)
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := marshal(i); err != nil {
			b.Fatal(err)
		}
	}
	avg := float64(size) / float64(len(goods))
	b.ReportMetric(avg, "item-bytes")
	b.ReportMetric(writeUnits(int(avg), 1), "WCU/put")
}

package main

import (
	"strings"
	"testing"

	"github.com/dyngen/dyngen/example/internal/exampletest"
)

// patterns are the access patterns of spec.yaml: the demo runs each.
var patterns = []string{
	"StoreLocation", "GoodsOfStore", "GoodsInCategory", "GoodsInCategoryByPrice", "GoodsInPriceRange",
	"AddStore", "MoveStore", "AddGood", "SaveGood", "Reprice", "RemoveGood", "MoveGood",
}

func TestDemo(t *testing.T) {
	text := exampletest.Demo(t, run, patterns, []string{
		"StoreA is at Drottninggatan 53, Stockholm",
		"StoreZ: error ErrNotFound",
		"adding tv-55 again: error ErrAlreadyExists",
		"StoreA is now at Sveavägen 44, Stockholm",
		"repricing a missing good: error ErrNotFound",
		"moving it again from the accessories: step 1 (delete Good): error ErrConditionFailed",
	})
	// The price range comes back in numeric order: $9.00, $10.00, $100.00.
	section := exampletest.Between(text, "== GoodsInPriceRange:", "\n== ")
	if i, j, k := strings.Index(section, "$9.00"), strings.Index(section, "$10.00"), strings.Index(section, "$100.00"); i < 0 || j < i || k < j {
		t.Errorf("GoodsInPriceRange's output is not in numeric price order:\n%s", section)
	}
	// Electronics is not ElectronicsOutlet.
	section = exampletest.Between(text, "== GoodsInCategory: StoreA, category Electronics and below", "\n== ")
	if section == "" || strings.Contains(section, "ElectronicsOutlet") {
		t.Errorf("GoodsInCategory Electronics shows ElectronicsOutlet goods:\n%s", section)
	}
	// The moved hub is in Electronics, on GSI1 too, and no longer an accessory.
	section = exampletest.Between(text, "== MoveGood:", "\n== ")
	if !strings.Contains(section, "  StoreA Electronics                            hub ") {
		t.Errorf("MoveGood's output does not show the hub in Electronics:\n%s", section)
	}
	if strings.Contains(section, "Accessories") {
		t.Errorf("MoveGood's output shows an accessory:\n%s", section)
	}
}

package main

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/dyngen/dyngen/internal/dynamotest"
)

// patterns are the access patterns of spec.yaml: the demo runs each.
var patterns = []string{
	"StoreLocation", "GoodsOfStore", "GoodsInCategory", "GoodsInCategoryByPrice", "GoodsInPriceRange",
	"AddStore", "MoveStore", "AddGood", "SaveGood", "Reprice", "RemoveGood", "MoveGood",
}

func TestDemo(t *testing.T) {
	c := dynamotest.Client(t)
	var out bytes.Buffer
	if err := run(t.Context(), c, &out); err != nil {
		t.Fatalf("run: %v\noutput:\n%s", err, out.String())
	}
	text := out.String()
	t.Log("\n" + text)
	for _, p := range patterns {
		if !strings.Contains(text, "== "+p+":") {
			t.Errorf("the demo's output does not show pattern %s", p)
		}
	}
	for _, want := range []string{
		"StoreA is at Drottninggatan 53, Stockholm",
		"StoreZ: error ErrNotFound",
		"adding tv-55 again: error ErrAlreadyExists",
		"StoreA is now at Sveavägen 44, Stockholm",
		"repricing a missing good: error ErrNotFound",
		"moving it again from the accessories: step 1 (delete Good): error ErrConditionFailed",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the demo's output does not show %q", want)
		}
	}
	// The price range comes back in numeric order: $9.00, $10.00, $100.00.
	section := between(text, "== GoodsInPriceRange:", "\n== ")
	if i, j, k := strings.Index(section, "$9.00"), strings.Index(section, "$10.00"), strings.Index(section, "$100.00"); i < 0 || j < i || k < j {
		t.Errorf("GoodsInPriceRange's output is not in numeric price order:\n%s", section)
	}
	// Electronics is not ElectronicsOutlet.
	section = between(text, "== GoodsInCategory: StoreA, category Electronics and below", "\n== ")
	if section == "" || strings.Contains(section, "ElectronicsOutlet") {
		t.Errorf("GoodsInCategory Electronics shows ElectronicsOutlet goods:\n%s", section)
	}
	// The moved hub is in Electronics, on GSI1 too, and no longer an accessory.
	section = between(text, "== MoveGood:", "\n== ")
	if !strings.Contains(section, "  StoreA Electronics                            hub ") {
		t.Errorf("MoveGood's output does not show the hub in Electronics:\n%s", section)
	}
	if strings.Contains(section, "Accessories") {
		t.Errorf("MoveGood's output shows an accessory:\n%s", section)
	}
	checkDeleted(t, c, text)
}

// between returns the text after the line holding the first from, up to
// the next to.
func between(text, from, to string) string {
	i := strings.Index(text, from)
	if i < 0 {
		return ""
	}
	rest := text[i+len(from):]
	if nl := strings.IndexByte(rest, '\n'); nl >= 0 {
		rest = rest[nl:]
	}
	if j := strings.Index(rest, to); j >= 0 {
		rest = rest[:j]
	}
	return rest
}

// checkDeleted checks that the tables the demo says it created are gone.
func checkDeleted(t *testing.T, c *dynamodb.Client, text string) {
	t.Helper()
	names := regexp.MustCompile(`(?m)^created table (\S+)$`).FindAllStringSubmatch(text, -1)
	if len(names) == 0 {
		t.Fatal("the demo's output names no table it created")
	}
	for _, m := range names {
		_, err := c.DescribeTable(t.Context(), &dynamodb.DescribeTableInput{TableName: aws.String(m[1])})
		if code := dynamotest.ErrorCode(err); code != "ResourceNotFoundException" {
			t.Errorf("table %s after the demo: error code %q (%v), want ResourceNotFoundException", m[1], code, err)
		}
	}
}

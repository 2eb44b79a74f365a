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
	"CartContents", "AddToCart", "ChangeQuantity", "RemoveFromCart",
	"TrackingPage", "TrackingEvents", "LatestTrackingEvent", "PlaceOrder", "GetOrder", "RecordTrackingEvent",
	"AddOrderLine", "AddOrderLines",
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
		"+2 B07XJ8C8F5   -> quantity 3",
		"0316769487 -> quantity 2",
		"changing a product not in the cart: error ErrNotFound",
		"adding it again: error ErrAlreadyExists",
		"recording it again: step 1 (create TrackingEvent): error ErrAlreadyExists",
		"an event of an order never placed: step 2 (update Order): error ErrNotFound",
		"PICKED   Picked at fulfilment centre SEA8 -> order status PICKED",
		"an order without events: error ErrNotFound",
		"total $167.95",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the demo's output does not show %q", want)
		}
	}
	// The tracking events come back in the order they happened.
	events := between(text, "== TrackingEvents:", "\n== ")
	if i, j, k := strings.Index(events, "PLACED"), strings.Index(events, "PICKED"), strings.Index(events, "SHIPPED"); i < 0 || j < i || k < j {
		t.Errorf("TrackingEvents' output is not in time order:\n%s", events)
	}
	// The latest event is the last one recorded.
	if latest := between(text, "== LatestTrackingEvent:", "\n== "); !strings.Contains(latest, "SHIPPED") || strings.Contains(latest, "PLACED") {
		t.Errorf("LatestTrackingEvent's output is not the SHIPPED event alone:\n%s", latest)
	}
	// The order's status is that of its last event.
	if got := between(text, "== GetOrder:", "\n== "); !strings.Contains(got, "status SHIPPED") {
		t.Errorf("GetOrder's output is not the status SHIPPED:\n%s", got)
	}
	// The lines come back by SKU, numerically: 7, 42, 1000.
	page := between(text, "== TrackingPage:", "\n== ")
	if !strings.Contains(page, "order 11289374410 status SHIPPED") {
		t.Errorf("TrackingPage's output does not show the order:\n%s", page)
	}
	if i, j, k := strings.Index(page, "SKU 7 "), strings.Index(page, "SKU 42 "), strings.Index(page, "SKU 1000"); i < 0 || j < i || k < j {
		t.Errorf("TrackingPage's lines are not in SKU order:\n%s", page)
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

package main

import (
	"strings"
	"testing"

	"github.com/dyngen/dyngen/example/internal/exampletest"
)

// patterns are the access patterns of spec.yaml: the demo runs each.
var patterns = []string{
	"CartContents", "AddToCart", "ChangeQuantity", "RemoveFromCart",
	"TrackingPage", "TrackingEvents", "LatestTrackingEvent", "PlaceOrder", "GetOrder", "RecordTrackingEvent",
	"AddOrderLine", "AddOrderLines",
}

func TestDemo(t *testing.T) {
	text := exampletest.Demo(t, run, patterns, []string{
		"+2 B07XJ8C8F5   -> quantity 3",
		"0316769487 -> quantity 2",
		"changing a product not in the cart: error ErrNotFound",
		"adding it again: error ErrAlreadyExists",
		"recording it again: step 1 (create TrackingEvent): error ErrAlreadyExists",
		"an event of an order never placed: step 2 (update Order): error ErrNotFound",
		"PICKED   Picked at fulfilment centre SEA8 -> order status PICKED",
		"an order without events: error ErrNotFound",
		"total $167.95",
	})
	// The tracking events come back in the order they happened.
	events := exampletest.Between(text, "== TrackingEvents:", "\n== ")
	if i, j, k := strings.Index(events, "PLACED"), strings.Index(events, "PICKED"), strings.Index(events, "SHIPPED"); i < 0 || j < i || k < j {
		t.Errorf("TrackingEvents' output is not in time order:\n%s", events)
	}
	// The latest event is the last one recorded.
	if latest := exampletest.Between(text, "== LatestTrackingEvent:", "\n== "); !strings.Contains(latest, "SHIPPED") || strings.Contains(latest, "PLACED") {
		t.Errorf("LatestTrackingEvent's output is not the SHIPPED event alone:\n%s", latest)
	}
	// The order's status is that of its last event.
	if got := exampletest.Between(text, "== GetOrder:", "\n== "); !strings.Contains(got, "status SHIPPED") {
		t.Errorf("GetOrder's output is not the status SHIPPED:\n%s", got)
	}
	// The lines come back by SKU, numerically: 7, 42, 1000.
	page := exampletest.Between(text, "== TrackingPage:", "\n== ")
	if !strings.Contains(page, "order 11289374410 status SHIPPED") {
		t.Errorf("TrackingPage's output does not show the order:\n%s", page)
	}
	if i, j, k := strings.Index(page, "SKU 7 "), strings.Index(page, "SKU 42 "), strings.Index(page, "SKU 1000"); i < 0 || j < i || k < j {
		t.Errorf("TrackingPage's lines are not in SKU order:\n%s", page)
	}
}

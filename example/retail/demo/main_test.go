package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dyngen/dyngen/example/internal/exampletest"
)

// patterns are the access patterns of spec.yaml: the demo runs each.
var patterns = []string{
	"GetCustomer", "OrdersOfCustomer", "RecentOrders", "GetOrder", "OrderOfCustomer",
	"InvoicesOfCustomer", "OrdersOfInvoice",
	"CreateCustomer", "PlaceOrder", "SetOrderStatus", "CreateInvoice",
}

func TestDemo(t *testing.T) {
	text := exampletest.Demo(t, run, patterns, []string{
		"creating 12345 again: error ErrAlreadyExists",
		"customer 99999: error ErrNotFound",
		"12345 Jane Doe <jane.doe@example.com>",
		"order f9e8d7c6 of 67890 on 2024-02-08: shipped   $129.99",
		"invoice inv12ab34cd: order a1b2c305 of customer 12345",
		"a second invoice of that order: step 3 (update Order): error ErrConditionFailed",
		"Omar's invoice under the same invoice id: step 2 (create InvoiceOrder): error ErrAlreadyExists",
		"order a1b2c305 of 12345 on 2024-02-22: delivered $62.50, invoiced",
		"(10 shown; more: true)",
	})
	// OrderOfCustomer: the order for its customer, none for another.
	if sec := exampletest.Between(text, "== OrderOfCustomer:", "\n== "); strings.Count(sec, "order a1b2c303") != 1 || !strings.Contains(sec, "(none)") {
		t.Errorf("OrderOfCustomer's output:\n%s", sec)
	}
	// RecentOrders: a1b2c311 (placed) down to a1b2c302, newest first.
	sec := exampletest.Between(text, "== RecentOrders:", "\n== ")
	prev := -1
	for i := 11; i >= 2; i-- {
		at := strings.Index(sec, fmt.Sprintf("order a1b2c3%02d", i))
		if at < prev {
			t.Errorf("RecentOrders' output lacks order a1b2c3%02d or is not newest first:\n%s", i, sec)
			break
		}
		prev = at
	}
	if strings.Contains(sec, "a1b2c301") || strings.Contains(sec, "a1b2c300") {
		t.Errorf("RecentOrders' output shows more than the ten most recent:\n%s", sec)
	}
}

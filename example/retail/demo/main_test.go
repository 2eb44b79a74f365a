package main

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/dyngen/dyngen/internal/dynamotest"
)

// patterns are the access patterns of spec.yaml: the demo runs each.
var patterns = []string{
	"GetCustomer", "OrdersOfCustomer", "RecentOrders", "GetOrder", "OrderOfCustomer",
	"InvoicesOfCustomer", "OrdersOfInvoice",
	"CreateCustomer", "PlaceOrder", "SetOrderStatus", "CreateInvoice",
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
		"creating 12345 again: error ErrAlreadyExists",
		"customer 99999: error ErrNotFound",
		"12345 Jane Doe <jane.doe@example.com>",
		"order f9e8d7c6 of 67890 on 2024-02-08: shipped   $129.99",
		"invoice inv12ab34cd: order a1b2c305 of customer 12345",
		"a second invoice of that order: step 3 (update Order): error ErrConditionFailed",
		"Omar's invoice under the same invoice id: step 2 (create InvoiceOrder): error ErrAlreadyExists",
		"order a1b2c305 of 12345 on 2024-02-22: delivered $62.50, invoiced",
		"(10 shown; more: true)",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the demo's output does not show %q", want)
		}
	}
	// OrderOfCustomer: the order for its customer, none for another.
	if sec := between(text, "== OrderOfCustomer:", "\n== "); strings.Count(sec, "order a1b2c303") != 1 || !strings.Contains(sec, "(none)") {
		t.Errorf("OrderOfCustomer's output:\n%s", sec)
	}
	// RecentOrders: a1b2c311 (placed) down to a1b2c302, newest first.
	sec := between(text, "== RecentOrders:", "\n== ")
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

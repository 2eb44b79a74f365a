package retail_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/dyngen/dyngen/example/internal/exampletest"
	"github.com/dyngen/dyngen/example/retail"
	"github.com/dyngen/dyngen/internal/dynamotest"
	"github.com/dyngen/dyngen/internal/iamcheck"
)

// newStore returns a Store over tables of unique names in DynamoDB Local
// (see exampletest.NewStore).
func newStore(t *testing.T) *retail.Store {
	t.Helper()
	return exampletest.NewStore(t, func(chk *iamcheck.Checker) *retail.Store {
		return retail.New(chk, retail.WithRetailTableTable(dynamotest.TableName("retail_table")))
	})
}

// ---- fixtures ------------------------------------------------------------------

var (
	jane = retail.Customer{CustomerID: "12345", Name: "Jane Doe", Email: "jane.doe@example.com"}
	omar = retail.Customer{CustomerID: "67890", Name: "Omar Haddad", Email: "omar@example.org"}
	// A customer whose id is also an invoice's id: in the article's literal
	// layout the two would share the key <id>/ROOT.
	twin = retail.Customer{CustomerID: "inv12ab34cd", Name: "Ines Vale", Email: "ines@example.net"}
)

var statuses = []retail.OrderStatus{retail.OrderStatusPlaced, retail.OrderStatusShipped, retail.OrderStatusDelivered, retail.OrderStatusCancelled}

// ordersOf returns n orders of a customer, oldest first, a few days and
// hours apart, with ids that don't sort like their dates.
func ordersOf(c retail.Customer, n int, first time.Time) []retail.Order {
	out := make([]retail.Order, n)
	for i := range out {
		out[i] = retail.Order{
			CustomerID: c.CustomerID,
			OrderID:    fmt.Sprintf("%c%x", 'a'+rune((n-i)%26), 0xb2c3d4+i*7919),
			OrderDate:  first.AddDate(0, 0, 3*i).Add(time.Duration(i) * 37 * time.Minute),
			Status:     statuses[i%len(statuses)],
			Total:      int64(1999 + 1000*i),
		}
	}
	return out
}

// newestFirst returns a copy of os, newest first.
func newestFirst(os []retail.Order) []retail.Order {
	out := slices.Clone(os)
	slices.SortFunc(out, func(a, b retail.Order) int { return b.OrderDate.Compare(a.OrderDate) })
	return out
}

// ---- comparisons ---------------------------------------------------------------

func checkCustomer(t *testing.T, what string, got *retail.Customer, want retail.Customer) {
	t.Helper()
	if got == nil {
		t.Errorf("%s: nil customer", what)
	} else if *got != want {
		t.Errorf("%s = %+v, want %+v", what, *got, want)
	}
}

func checkOrder(t *testing.T, what string, got, want retail.Order) {
	t.Helper()
	if got.CustomerID != want.CustomerID {
		t.Errorf("%s: CustomerID = %q, want %q", what, got.CustomerID, want.CustomerID)
	}
	if got.OrderID != want.OrderID {
		t.Errorf("%s: OrderID = %q, want %q", what, got.OrderID, want.OrderID)
	}
	if !got.OrderDate.Equal(want.OrderDate) {
		t.Errorf("%s: OrderDate = %s, want %s", what, got.OrderDate, want.OrderDate)
	}
	if got.Status != want.Status {
		t.Errorf("%s: Status = %q, want %q", what, got.Status, want.Status)
	}
	if got.Total != want.Total {
		t.Errorf("%s: Total = %d, want %d", what, got.Total, want.Total)
	}
	if got.Invoiced != want.Invoiced {
		t.Errorf("%s: Invoiced = %t, want %t", what, got.Invoiced, want.Invoiced)
	}
}

func checkOrders(t *testing.T, what string, got, want []retail.Order) {
	t.Helper()
	exampletest.CheckEach(t, what, "orders", got, want, checkOrder)
}

func checkInvoice(t *testing.T, what string, got, want retail.Invoice) {
	t.Helper()
	if got.CustomerID != want.CustomerID || got.InvoiceID != want.InvoiceID || got.OrderID != want.OrderID ||
		!got.InvoiceDate.Equal(want.InvoiceDate) || got.Amount != want.Amount {
		t.Errorf("%s = %+v, want %+v", what, got, want)
	}
}

func checkInvoiceOrder(t *testing.T, what string, got *retail.InvoiceOrder, want retail.InvoiceOrder) {
	t.Helper()
	if got == nil {
		t.Errorf("%s: nil", what)
		return
	}
	if got.InvoiceID != want.InvoiceID || got.CustomerID != want.CustomerID || got.OrderID != want.OrderID ||
		!got.OrderDate.Equal(want.OrderDate) || got.OrderTotal != want.OrderTotal {
		t.Errorf("%s = %+v, want %+v", what, *got, want)
	}
}

// invoiceOf returns the params of CreateInvoice for an invoice of order o
// with the given id, both items filled from the order.
func invoiceOf(o retail.Order, id string) retail.CreateInvoiceParams {
	return retail.CreateInvoiceParams{
		Invoice:      &retail.Invoice{CustomerID: o.CustomerID, InvoiceID: id, OrderID: o.OrderID, InvoiceDate: o.OrderDate.Add(2 * time.Hour), Amount: o.Total},
		InvoiceOrder: &retail.InvoiceOrder{InvoiceID: id, CustomerID: o.CustomerID, OrderID: o.OrderID, OrderDate: o.OrderDate, OrderTotal: o.Total},
	}
}

// stepFailed checks the failure of a step of a transaction (see
// exampletest.StepFailedOf).
var stepFailed = exampletest.StepFailedOf(func(e *retail.TransactionError) (int, string) { return e.Step, e.Action },
	retail.ErrNotFound, retail.ErrAlreadyExists, retail.ErrConditionFailed, retail.ErrInvalidKey)

// seeded is what seed wrote.
type seeded struct {
	janeOrders, omarOrders []retail.Order
	janeInvoices           []retail.Invoice
	invoiceOrders          []retail.InvoiceOrder
}

// seed writes three customers; 15 orders of jane, 3 of omar, written in a
// shuffled order; and an invoice (with its invoice item) for three of
// jane's orders, one of them with twin's id. The orders it returns are
// marked invoiced as stored.
func seed(t *testing.T, s *retail.Store) seeded {
	t.Helper()
	ctx := t.Context()
	for _, c := range []retail.Customer{jane, omar, twin} {
		if err := s.CreateCustomer(ctx, &c); err != nil {
			t.Fatalf("CreateCustomer %s: %v", c.CustomerID, err)
		}
	}
	var d seeded
	d.janeOrders = ordersOf(jane, 15, time.Date(2023, 11, 20, 14, 5, 0, 0, time.UTC))
	d.omarOrders = ordersOf(omar, 3, time.Date(2024, 1, 2, 9, 0, 0, 0, time.UTC))
	all := append(slices.Clone(d.janeOrders), d.omarOrders...)
	r := rand.New(rand.NewPCG(1, 2))
	r.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
	for _, o := range all {
		if err := s.PlaceOrder(ctx, &o); err != nil {
			t.Fatalf("PlaceOrder %s: %v", o.OrderID, err)
		}
	}
	for i, k := range []int{2, 7, 11} {
		o := d.janeOrders[k]
		id := fmt.Sprintf("inv%02dx%s", i, o.OrderID)
		if i == 1 {
			id = twin.CustomerID
		}
		p := invoiceOf(o, id)
		if err := s.CreateInvoice(ctx, p); err != nil {
			t.Fatalf("CreateInvoice %s: %v", id, err)
		}
		d.janeOrders[k].Invoiced = true
		d.janeInvoices = append(d.janeInvoices, *p.Invoice)
		d.invoiceOrders = append(d.invoiceOrders, *p.InvoiceOrder)
	}
	slices.SortFunc(d.janeInvoices, func(a, b retail.Invoice) int { // the sort key: INVC#<id>
		switch {
		case a.InvoiceID < b.InvoiceID:
			return -1
		case a.InvoiceID > b.InvoiceID:
			return 1
		}
		return 0
	})
	return d
}

// ---- tests ---------------------------------------------------------------------

func TestGetCustomer(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	d := seed(t, s)

	for _, want := range []retail.Customer{jane, omar, twin} {
		got, err := s.GetCustomer(ctx, want.CustomerID)
		if err != nil {
			t.Fatalf("GetCustomer %s: %v", want.CustomerID, err)
		}
		checkCustomer(t, "GetCustomer "+want.CustomerID, got, want)
	}
	if _, err := s.GetCustomer(ctx, "99999"); !errors.Is(err, retail.ErrNotFound) {
		t.Errorf("GetCustomer of a missing customer: %v, want ErrNotFound", err)
	}
	if err := s.CreateCustomer(ctx, &retail.Customer{CustomerID: jane.CustomerID, Name: "Impostor", Email: "x@example.com"}); !errors.Is(err, retail.ErrAlreadyExists) {
		t.Errorf("CreateCustomer of an existing customer: %v, want ErrAlreadyExists", err)
	}
	got, err := s.GetCustomer(ctx, jane.CustomerID)
	if err != nil {
		t.Fatal(err)
	}
	checkCustomer(t, "GetCustomer after a refused CreateCustomer", got, jane)

	// The customer twin and the invoice item of the same id live side by
	// side (dyngen caught their shared key in the article's layout).
	got, err = s.GetCustomer(ctx, twin.CustomerID)
	if err != nil {
		t.Fatal(err)
	}
	checkCustomer(t, "GetCustomer of the invoice id's twin", got, twin)
	item, err := s.OrdersOfInvoice(ctx, twin.CustomerID)
	if err != nil {
		t.Fatalf("OrdersOfInvoice %s: %v", twin.CustomerID, err)
	}
	checkInvoiceOrder(t, "OrdersOfInvoice of the customer id's twin", item, d.invoiceOrders[1])
}

func TestOrdersOfCustomer(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	d := seed(t, s)

	// Oldest first; the customer's ROOT item and invoices share the
	// partition and never show.
	res, err := s.OrdersOfCustomer(ctx, jane.CustomerID, retail.Page{})
	if err != nil {
		t.Fatalf("OrdersOfCustomer: %v", err)
	}
	checkOrders(t, "OrdersOfCustomer jane", res.Items, d.janeOrders)
	if res.Next != "" {
		t.Errorf("OrdersOfCustomer: Next = %q, want \"\"", res.Next)
	}
	var got []retail.Order
	for o, err := range s.OrdersOfCustomerAll(ctx, omar.CustomerID) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, o)
	}
	checkOrders(t, "OrdersOfCustomerAll omar", got, d.omarOrders)

	// Pages of 4.
	got = nil
	page := retail.Page{Limit: 4}
	for {
		r, err := s.OrdersOfCustomer(ctx, jane.CustomerID, page)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, r.Items...)
		if r.Next == "" {
			break
		}
		page.Cursor = r.Next
	}
	checkOrders(t, "OrdersOfCustomer, pages of 4", got, d.janeOrders)

	// A customer without orders: none (the customer item is kept out).
	if r, err := s.OrdersOfCustomer(ctx, twin.CustomerID, retail.Page{}); err != nil || len(r.Items) != 0 {
		t.Errorf("OrdersOfCustomer of a customer without orders: %+v, %v", r, err)
	}
}

// TestRecentOrders writes 15 orders at different dates, in shuffled order,
// and reads the ten newest, newest first.
func TestRecentOrders(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	d := seed(t, s)
	want := newestFirst(d.janeOrders)

	res, err := s.RecentOrders(ctx, jane.CustomerID, retail.Page{})
	if err != nil {
		t.Fatalf("RecentOrders: %v", err)
	}
	checkOrders(t, "RecentOrders jane", res.Items, want[:10])
	for i := 1; i < len(res.Items); i++ {
		if !res.Items[i].OrderDate.Before(res.Items[i-1].OrderDate) {
			t.Errorf("RecentOrders: order %d (%s) is not older than order %d (%s)", i, res.Items[i].OrderDate, i-1, res.Items[i-1].OrderDate)
		}
	}
	if res.Next == "" {
		t.Error("RecentOrders: Next is empty, but 5 older orders are left")
	}
	// The next page: the five oldest.
	older, err := s.RecentOrders(ctx, jane.CustomerID, retail.Page{Cursor: res.Next})
	if err != nil {
		t.Fatal(err)
	}
	checkOrders(t, "RecentOrders second page", older.Items, want[10:])

	// The iterator walks them all, newest first.
	var got []retail.Order
	for o, err := range s.RecentOrdersAll(ctx, jane.CustomerID) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, o)
	}
	checkOrders(t, "RecentOrdersAll jane", got, want)

	// Fewer than ten: all of them, newest first.
	res, err = s.RecentOrders(ctx, omar.CustomerID, retail.Page{})
	if err != nil {
		t.Fatal(err)
	}
	checkOrders(t, "RecentOrders omar", res.Items, newestFirst(d.omarOrders))
	if res.Next != "" {
		t.Errorf("RecentOrders omar: Next = %q, want \"\"", res.Next)
	}

	// An eleventh newest order pushes the oldest of the ten out.
	newest := retail.Order{CustomerID: jane.CustomerID, OrderID: "z0000001", OrderDate: want[0].OrderDate.Add(time.Minute), Status: retail.OrderStatusPlaced, Total: 100}
	if err := s.PlaceOrder(ctx, &newest); err != nil {
		t.Fatal(err)
	}
	res, err = s.RecentOrders(ctx, jane.CustomerID, retail.Page{})
	if err != nil {
		t.Fatal(err)
	}
	checkOrders(t, "RecentOrders after a new order", res.Items, append([]retail.Order{newest}, want[:9]...))

	// Two orders at the same instant keep distinct keys.
	same := retail.Order{CustomerID: jane.CustomerID, OrderID: "z0000002", OrderDate: newest.OrderDate, Status: retail.OrderStatusPlaced, Total: 200}
	if err := s.PlaceOrder(ctx, &same); err != nil {
		t.Fatalf("PlaceOrder at the same instant as another: %v", err)
	}
	res, err = s.RecentOrders(ctx, jane.CustomerID, retail.Page{Limit: 2})
	if err != nil {
		t.Fatal(err)
	}
	checkOrders(t, "RecentOrders, two at the same instant", res.Items, []retail.Order{same, newest})
}

func TestGetOrder(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	d := seed(t, s)

	for _, want := range append(slices.Clone(d.janeOrders), d.omarOrders...) {
		got, err := s.GetOrder(ctx, want.OrderID)
		if err != nil {
			t.Fatalf("GetOrder %s: %v", want.OrderID, err)
		}
		checkOrder(t, "GetOrder "+want.OrderID, *got, want)
	}
	if _, err := s.GetOrder(ctx, "nope0000"); !errors.Is(err, retail.ErrNotFound) {
		t.Errorf("GetOrder of a missing order: %v, want ErrNotFound", err)
	}
	// The invoice ids are not order ids (invoices are not on the GSI).
	if _, err := s.GetOrder(ctx, d.janeInvoices[0].InvoiceID); !errors.Is(err, retail.ErrNotFound) {
		t.Errorf("GetOrder of an invoice id: %v, want ErrNotFound", err)
	}

	// PlaceOrder refuses an order that exists.
	dup := d.janeOrders[4]
	dup.Total = 1
	if err := s.PlaceOrder(ctx, &dup); !errors.Is(err, retail.ErrAlreadyExists) {
		t.Errorf("PlaceOrder of an existing order: %v, want ErrAlreadyExists", err)
	}
	bad := d.janeOrders[4]
	bad.OrderID, bad.Status = "fresh001", "lost"
	if err := s.PlaceOrder(ctx, &bad); !errors.Is(err, retail.ErrInvalidItem) {
		t.Errorf("PlaceOrder with status %q: %v, want ErrInvalidItem", bad.Status, err)
	}

	// SetOrderStatus: the table and the GSI both show the change.
	o := d.janeOrders[0]
	upd, err := s.SetOrderStatus(ctx, retail.SetOrderStatusParams{CustomerID: o.CustomerID, OrderDate: o.OrderDate, OrderID: o.OrderID, Status: retail.OrderStatusDelivered})
	if err != nil {
		t.Fatalf("SetOrderStatus: %v", err)
	}
	want := o
	want.Status = retail.OrderStatusDelivered
	checkOrder(t, "SetOrderStatus result", *upd, want)
	got, err := s.GetOrder(ctx, o.OrderID)
	if err != nil {
		t.Fatal(err)
	}
	checkOrder(t, "GetOrder after SetOrderStatus", *got, want)
	all, err := s.OrdersOfCustomer(ctx, jane.CustomerID, retail.Page{Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	checkOrders(t, "OrdersOfCustomer after SetOrderStatus", all.Items, []retail.Order{want})
	if _, err := s.SetOrderStatus(ctx, retail.SetOrderStatusParams{CustomerID: o.CustomerID, OrderDate: o.OrderDate.Add(time.Second), OrderID: o.OrderID, Status: retail.OrderStatusShipped}); !errors.Is(err, retail.ErrNotFound) {
		t.Errorf("SetOrderStatus with the wrong date: %v, want ErrNotFound", err)
	}
	if _, err := s.SetOrderStatus(ctx, retail.SetOrderStatusParams{CustomerID: o.CustomerID, OrderDate: o.OrderDate, OrderID: o.OrderID, Status: "returned"}); !errors.Is(err, retail.ErrInvalidItem) {
		t.Errorf("SetOrderStatus to %q: %v, want ErrInvalidItem", "returned", err)
	}
}

func TestOrderOfCustomer(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	d := seed(t, s)

	o := d.janeOrders[6]
	res, err := s.OrderOfCustomer(ctx, retail.OrderOfCustomerParams{OrderID: o.OrderID, CustomerID: jane.CustomerID}, retail.Page{})
	if err != nil {
		t.Fatalf("OrderOfCustomer: %v", err)
	}
	checkOrders(t, "OrderOfCustomer jane's order", res.Items, []retail.Order{o})
	if res.Next != "" {
		t.Errorf("OrderOfCustomer: Next = %q, want \"\"", res.Next)
	}
	// Another customer's order: none, though the order exists.
	res, err = s.OrderOfCustomer(ctx, retail.OrderOfCustomerParams{OrderID: o.OrderID, CustomerID: omar.CustomerID}, retail.Page{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Items) != 0 {
		t.Errorf("OrderOfCustomer with another customer: %d orders, want none", len(res.Items))
	}
	// A missing order: none.
	res, err = s.OrderOfCustomer(ctx, retail.OrderOfCustomerParams{OrderID: "nope0000", CustomerID: jane.CustomerID}, retail.Page{})
	if err != nil || len(res.Items) != 0 {
		t.Errorf("OrderOfCustomer of a missing order: %+v, %v", res, err)
	}
	// The iterator.
	var got []retail.Order
	for o, err := range s.OrderOfCustomerAll(ctx, retail.OrderOfCustomerParams{OrderID: d.omarOrders[1].OrderID, CustomerID: omar.CustomerID}) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, o)
	}
	checkOrders(t, "OrderOfCustomerAll omar", got, []retail.Order{d.omarOrders[1]})
	got = nil
	for o, err := range s.OrderOfCustomerAll(ctx, retail.OrderOfCustomerParams{OrderID: d.omarOrders[1].OrderID, CustomerID: jane.CustomerID}) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, o)
	}
	if len(got) != 0 {
		t.Errorf("OrderOfCustomerAll of omar's order for jane: %d orders, want none", len(got))
	}
}

func TestInvoices(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	d := seed(t, s)

	res, err := s.InvoicesOfCustomer(ctx, jane.CustomerID, retail.Page{})
	if err != nil {
		t.Fatalf("InvoicesOfCustomer: %v", err)
	}
	if len(res.Items) != len(d.janeInvoices) {
		t.Fatalf("InvoicesOfCustomer jane: %d invoices, want %d", len(res.Items), len(d.janeInvoices))
	}
	for i := range res.Items {
		checkInvoice(t, fmt.Sprintf("InvoicesOfCustomer[%d]", i), res.Items[i], d.janeInvoices[i])
	}
	var n int
	for inv, err := range s.InvoicesOfCustomerAll(ctx, jane.CustomerID) {
		if err != nil {
			t.Fatal(err)
		}
		checkInvoice(t, fmt.Sprintf("InvoicesOfCustomerAll[%d]", n), inv, d.janeInvoices[n])
		n++
	}
	if n != len(d.janeInvoices) {
		t.Errorf("InvoicesOfCustomerAll: %d invoices, want %d", n, len(d.janeInvoices))
	}
	if r, err := s.InvoicesOfCustomer(ctx, omar.CustomerID, retail.Page{}); err != nil || len(r.Items) != 0 {
		t.Errorf("InvoicesOfCustomer of a customer without invoices: %+v, %v", r, err)
	}

	// The orders of each invoice, from its invoice item; the order it names
	// is found through the GSI.
	for _, want := range d.invoiceOrders {
		got, err := s.OrdersOfInvoice(ctx, want.InvoiceID)
		if err != nil {
			t.Fatalf("OrdersOfInvoice %s: %v", want.InvoiceID, err)
		}
		checkInvoiceOrder(t, "OrdersOfInvoice "+want.InvoiceID, got, want)
		o, err := s.GetOrder(ctx, got.OrderID)
		if err != nil {
			t.Fatal(err)
		}
		if o.CustomerID != jane.CustomerID || o.Total != want.OrderTotal || !o.OrderDate.Equal(want.OrderDate) {
			t.Errorf("GetOrder of invoice %s's order: %+v", want.InvoiceID, *o)
		}
	}
	if _, err := s.OrdersOfInvoice(ctx, jane.CustomerID); !errors.Is(err, retail.ErrNotFound) {
		t.Errorf("OrdersOfInvoice of a customer id: %v, want ErrNotFound", err)
	}

	// The invoiced orders say so.
	for _, k := range []int{2, 7, 11} {
		o, err := s.GetOrder(ctx, d.janeOrders[k].OrderID)
		if err != nil {
			t.Fatal(err)
		}
		checkOrder(t, "GetOrder of an invoiced order", *o, d.janeOrders[k])
	}
}

// TestCreateInvoice: the invoice, its invoice item and the order's mark are
// written together, or not at all.
func TestCreateInvoice(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	d := seed(t, s)
	// nothingWritten checks that neither item of invoice id exists for
	// customer c.
	nothingWritten := func(what, c, id string) {
		t.Helper()
		if _, err := s.OrdersOfInvoice(ctx, id); !errors.Is(err, retail.ErrNotFound) {
			t.Errorf("%s: the invoice item was written (%v)", what, err)
		}
		for inv, err := range s.InvoicesOfCustomerAll(ctx, c) {
			if err != nil {
				t.Fatal(err)
			}
			if inv.InvoiceID == id {
				t.Errorf("%s: the invoice was written", what)
			}
		}
	}
	invoiced := d.janeOrders[2]

	// The same invoice again: step 1 (create Invoice) finds it.
	again := invoiceOf(invoiced, d.invoiceOrders[0].InvoiceID)
	stepFailed(t, "CreateInvoice of an existing invoice", s.CreateInvoice(ctx, again), 1, retail.ErrAlreadyExists, true)

	// A second invoice of an invoiced order: step 3 (update Order) finds
	// it invoiced already, and neither item of the new invoice is written.
	second := invoiceOf(invoiced, "inv99second")
	stepFailed(t, "CreateInvoice of an invoiced order", s.CreateInvoice(ctx, second), 3, retail.ErrConditionFailed, true)
	nothingWritten("a second invoice of an order", jane.CustomerID, "inv99second")

	// An invoice of an order that does not exist (an unknown id, or the
	// date of another order): step 3 finds no order.
	ghost := d.janeOrders[0]
	ghost.OrderID = "zz0000"
	stepFailed(t, "CreateInvoice of a missing order", s.CreateInvoice(ctx, invoiceOf(ghost, "inv98ghost")), 3, retail.ErrNotFound, true)
	nothingWritten("an invoice of a missing order", jane.CustomerID, "inv98ghost")
	moved := d.janeOrders[0]
	moved.OrderDate = moved.OrderDate.Add(time.Second)
	stepFailed(t, "CreateInvoice with another order date", s.CreateInvoice(ctx, invoiceOf(moved, "inv97moved")), 3, retail.ErrNotFound, true)
	nothingWritten("an invoice with another order date", jane.CustomerID, "inv97moved")

	// An invoice id is unique across customers: the invoice item, keyed by
	// the id alone, exists (step 2), so omar's invoice is not written
	// either, although its own key (in omar's collection) is free.
	omars := invoiceOf(d.omarOrders[0], d.invoiceOrders[0].InvoiceID)
	stepFailed(t, "CreateInvoice with another customer's invoice id", s.CreateInvoice(ctx, omars), 2, retail.ErrAlreadyExists, true)
	if r, err := s.InvoicesOfCustomer(ctx, omar.CustomerID, retail.Page{}); err != nil || len(r.Items) != 0 {
		t.Errorf("InvoicesOfCustomer omar after a refused invoice: %+v, %v", r, err)
	}
	if o, err := s.GetOrder(ctx, d.omarOrders[0].OrderID); err != nil || o.Invoiced {
		t.Errorf("omar's order after a refused invoice: %+v, %v; want not invoiced", o, err)
	}

	// A key value refused before the call names its step.
	bad := invoiceOf(d.janeOrders[0], "inv#1")
	stepFailed(t, "CreateInvoice with '#' in the id", s.CreateInvoice(ctx, bad), 1, retail.ErrInvalidKey, false)

	// The order not invoiced yet gets its invoice, once.
	p := invoiceOf(d.janeOrders[0], "inv96first")
	if err := s.CreateInvoice(ctx, p); err != nil {
		t.Fatalf("CreateInvoice: %v", err)
	}
	o, err := s.GetOrder(ctx, d.janeOrders[0].OrderID)
	if err != nil {
		t.Fatal(err)
	}
	want := d.janeOrders[0]
	want.Invoiced = true
	checkOrder(t, "GetOrder after CreateInvoice", *o, want)
	got, err := s.OrdersOfInvoice(ctx, "inv96first")
	if err != nil {
		t.Fatalf("OrdersOfInvoice: %v", err)
	}
	checkInvoiceOrder(t, "OrdersOfInvoice after CreateInvoice", got, *p.InvoiceOrder)
	res, err := s.InvoicesOfCustomer(ctx, jane.CustomerID, retail.Page{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Items) != len(d.janeInvoices)+1 {
		t.Errorf("InvoicesOfCustomer jane: %d invoices, want %d", len(res.Items), len(d.janeInvoices)+1)
	}
}

// TestPlaceOrderNotInvoiced: a new order has no invoice yet. PlaceOrder
// writes invoiced false whatever the caller's order says (and the caller's
// order holds false on success), so CreateInvoice, which invoices only an
// order not invoiced, can give it its invoice.
func TestPlaceOrderNotInvoiced(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	o := ordersOf(jane, 1, time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC))[0]
	want := o
	o.Invoiced = true
	if err := s.PlaceOrder(ctx, &o); err != nil {
		t.Fatalf("PlaceOrder: %v", err)
	}
	if o.Invoiced {
		t.Error("PlaceOrder: the caller's order still says invoiced")
	}
	got, err := s.GetOrder(ctx, o.OrderID)
	if err != nil {
		t.Fatalf("GetOrder: %v", err)
	}
	checkOrder(t, "GetOrder of an order placed as invoiced", *got, want)

	if err := s.CreateInvoice(ctx, invoiceOf(o, "inv01placed")); err != nil {
		t.Fatalf("CreateInvoice of the new order: %v", err)
	}
	want.Invoiced = true
	if got, err = s.GetOrder(ctx, o.OrderID); err != nil {
		t.Fatalf("GetOrder: %v", err)
	}
	checkOrder(t, "GetOrder after CreateInvoice", *got, want)

	// A refused order (a status not of the enum) is not written, and the
	// caller's order is left as it was.
	bad := ordersOf(jane, 2, time.Date(2024, 5, 7, 0, 0, 0, 0, time.UTC))[1]
	bad.Status, bad.Invoiced = "lost", true
	if err := s.PlaceOrder(ctx, &bad); !errors.Is(err, retail.ErrInvalidItem) {
		t.Errorf("PlaceOrder with status %q: %v, want ErrInvalidItem", bad.Status, err)
	}
	if !bad.Invoiced {
		t.Error("a refused PlaceOrder changed the caller's order")
	}
}

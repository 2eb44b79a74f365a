package orders_test

import (
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dyngen/dyngen/example/internal/exampletest"
	"github.com/dyngen/dyngen/example/orders"
	"github.com/dyngen/dyngen/internal/dynamotest"
	"github.com/dyngen/dyngen/internal/iamcheck"
)

// newStore returns a Store over tables of unique names in DynamoDB Local
// (see exampletest.NewStore).
func newStore(t *testing.T) *orders.Store {
	t.Helper()
	return exampletest.NewStore(t, func(chk *iamcheck.Checker) *orders.Store {
		return orders.New(chk, orders.WithCartsTable(dynamotest.TableName("Carts")), orders.WithOrdersTable(dynamotest.TableName("Orders")))
	})
}

// ksuid returns a KSUID for the instant at: 27 base62 characters, a 4-byte
// timestamp (seconds since 2014-05-13) then 16 random bytes, so that the
// text order is the time order (to the second).
func ksuid(t *testing.T, at time.Time) string {
	t.Helper()
	var b [20]byte
	binary.BigEndian.PutUint32(b[:4], uint32(at.Unix()-1_400_000_000))
	if _, err := rand.Read(b[4:]); err != nil {
		t.Fatal(err)
	}
	const digits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	n := new(big.Int).SetBytes(b[:])
	out := make([]byte, 27)
	base, mod := big.NewInt(62), new(big.Int)
	for i := len(out) - 1; i >= 0; i-- {
		n.DivMod(n, base, mod)
		out[i] = digits[mod.Int64()]
	}
	return string(out)
}

// ---- comparisons ---------------------------------------------------------------

func checkCartItem(t *testing.T, what string, got, want orders.CartItem) {
	t.Helper()
	if got != want {
		t.Errorf("%s = %+v, want %+v", what, got, want)
	}
}

func checkCart(t *testing.T, what string, got, want []orders.CartItem) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d items %+v, want %d %+v", what, len(got), got, len(want), want)
		return
	}
	for i := range got {
		checkCartItem(t, fmt.Sprintf("%s[%d]", what, i), got[i], want[i])
	}
}

func checkLine(t *testing.T, what string, got, want orders.OrderLine) {
	t.Helper()
	if got.OrderID != want.OrderID {
		t.Errorf("%s: OrderID = %d, want %d", what, got.OrderID, want.OrderID)
	}
	if got.SKU != want.SKU {
		t.Errorf("%s: SKU = %d, want %d", what, got.SKU, want.SKU)
	}
	if got.ProductName != want.ProductName {
		t.Errorf("%s: ProductName = %q, want %q", what, got.ProductName, want.ProductName)
	}
	if got.Quantity != want.Quantity {
		t.Errorf("%s: Quantity = %d, want %d", what, got.Quantity, want.Quantity)
	}
	if got.UnitPrice != want.UnitPrice {
		t.Errorf("%s: UnitPrice = %d, want %d", what, got.UnitPrice, want.UnitPrice)
	}
}

func checkLines(t *testing.T, what string, got, want []orders.OrderLine) {
	t.Helper()
	exampletest.CheckEach(t, what, "lines", got, want, checkLine)
}

func checkEvent(t *testing.T, what string, got, want orders.TrackingEvent) {
	t.Helper()
	if got.OrderID != want.OrderID || got.EventID != want.EventID || got.Status != want.Status ||
		(got.Message == nil) != (want.Message == nil) || got.Message != nil && *got.Message != *want.Message {
		t.Errorf("%s = %s, want %s", what, fmtEvent(got), fmtEvent(want))
	}
}

// fmtEvent formats an event for a test message, its message absent or
// quoted.
func fmtEvent(e orders.TrackingEvent) string {
	msg := "absent"
	if e.Message != nil {
		msg = strconv.Quote(*e.Message)
	}
	return fmt.Sprintf("{OrderID:%d EventID:%s Status:%s Message:%s}", e.OrderID, e.EventID, e.Status, msg)
}

func checkEvents(t *testing.T, what string, got, want []orders.TrackingEvent) {
	t.Helper()
	exampletest.CheckEach(t, what, "events", got, want, checkEvent)
}

// stepFailed checks the failure of a step of a transaction (see
// exampletest.StepFailedOf).
var stepFailed = exampletest.StepFailedOf(func(e *orders.TransactionError) (int, string) { return e.Step, e.Action },
	orders.ErrNotFound, orders.ErrAlreadyExists, orders.ErrConditionFailed, orders.ErrInvalidKey)

// record records e with RecordTrackingEvent, failing the test on an error.
func record(t *testing.T, s *orders.Store, e orders.TrackingEvent) {
	t.Helper()
	if err := s.RecordTrackingEvent(t.Context(), orders.RecordTrackingEventParams{TrackingEvent: &e}); err != nil {
		t.Fatalf("RecordTrackingEvent %s %s: %v", e.EventID, e.Status, err)
	}
}

// placeOrder creates the order's own item with status NEW.
func placeOrder(t *testing.T, s *orders.Store, orderID int64) {
	t.Helper()
	if err := s.PlaceOrder(t.Context(), &orders.Order{OrderID: orderID, Status: "NEW"}); err != nil {
		t.Fatalf("PlaceOrder %d: %v", orderID, err)
	}
}

// checkStatus checks the status of the order's own item.
func checkStatus(t *testing.T, what string, s *orders.Store, orderID int64, want string) {
	t.Helper()
	o, err := s.GetOrder(t.Context(), orderID)
	if err != nil {
		t.Fatalf("%s: GetOrder %d: %v", what, orderID, err)
	}
	if o.OrderID != orderID || o.Status != want {
		t.Errorf("%s: order %+v, want status %s", what, *o, want)
	}
}

func cartOf(t *testing.T, s *orders.Store, cartID string) []orders.CartItem {
	t.Helper()
	var out []orders.CartItem
	for it, err := range s.CartContentsAll(t.Context(), cartID) {
		if err != nil {
			t.Fatalf("CartContentsAll %s: %v", cartID, err)
		}
		out = append(out, it)
	}
	return out
}

// ---- carts ---------------------------------------------------------------------

func TestCart(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	const cart = "petes-cart"

	// An empty cart.
	res, err := s.CartContents(ctx, cart, orders.Page{})
	if err != nil {
		t.Fatalf("CartContents of an empty cart: %v", err)
	}
	if len(res.Items) != 0 || res.Next != "" {
		t.Errorf("CartContents of an empty cart: %+v", res)
	}

	// AddToCart creates the item, then adds to its quantity.
	for _, add := range []struct {
		product string
		n, want int64
	}{
		{"B07XJ8C8F5", 1, 1}, // an echo dot
		{"B08N5WRWNW", 2, 2},
		{"B07XJ8C8F5", 3, 4},
		{"0316769487", 1, 1}, // a book, by its ISBN-10
		{"B08N5WRWNW", 0, 2},
	} {
		it, err := s.AddToCart(ctx, orders.AddToCartParams{CartID: cart, ProductID: add.product, Quantity: add.n})
		if err != nil {
			t.Fatalf("AddToCart %s +%d: %v", add.product, add.n, err)
		}
		checkCartItem(t, fmt.Sprintf("AddToCart %s +%d", add.product, add.n), *it, orders.CartItem{CartID: cart, ProductID: add.product, Quantity: add.want})
	}
	// quantity has min 0: no amount takes it below, math.MinInt64 (whose
	// min - amount overflows an int64) included, on a stored item or a new
	// one.
	for _, product := range []string{"B07XJ8C8F5", "new-product"} {
		for _, n := range []int64{math.MinInt64, -5} {
			if _, err := s.AddToCart(ctx, orders.AddToCartParams{CartID: cart, ProductID: product, Quantity: n}); !errors.Is(err, orders.ErrConditionFailed) {
				t.Errorf("AddToCart %s %d: %v, want ErrConditionFailed", product, n, err)
			}
		}
	}
	// Another cart, which must not mix with Pete's.
	if _, err := s.AddToCart(ctx, orders.AddToCartParams{CartID: "alexs-cart", ProductID: "B07XJ8C8F5", Quantity: 7}); err != nil {
		t.Fatal(err)
	}

	want := []orders.CartItem{ // product id order: the cart's sort key
		{CartID: cart, ProductID: "0316769487", Quantity: 1},
		{CartID: cart, ProductID: "B07XJ8C8F5", Quantity: 4},
		{CartID: cart, ProductID: "B08N5WRWNW", Quantity: 2},
	}
	res, err = s.CartContents(ctx, cart, orders.Page{})
	if err != nil {
		t.Fatalf("CartContents: %v", err)
	}
	checkCart(t, "CartContents", res.Items, want)
	checkCart(t, "CartContentsAll", cartOf(t, s, cart), want)
	checkCart(t, "CartContents of another cart", cartOf(t, s, "alexs-cart"), []orders.CartItem{{CartID: "alexs-cart", ProductID: "B07XJ8C8F5", Quantity: 7}})

	// Pages of one item.
	var got []orders.CartItem
	page := orders.Page{Limit: 1}
	for {
		r, err := s.CartContents(ctx, cart, page)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, r.Items...)
		if r.Next == "" {
			break
		}
		page.Cursor = r.Next
	}
	checkCart(t, "CartContents, pages of 1", got, want)

	// ChangeQuantity sets the quantity of a product in the cart.
	it, err := s.ChangeQuantity(ctx, orders.ChangeQuantityParams{CartID: cart, ProductID: "B07XJ8C8F5", Quantity: 10})
	if err != nil {
		t.Fatalf("ChangeQuantity: %v", err)
	}
	checkCartItem(t, "ChangeQuantity", *it, orders.CartItem{CartID: cart, ProductID: "B07XJ8C8F5", Quantity: 10})
	it, err = s.ChangeQuantity(ctx, orders.ChangeQuantityParams{CartID: cart, ProductID: "B08N5WRWNW", Quantity: 0})
	if err != nil {
		t.Fatalf("ChangeQuantity to 0: %v", err)
	}
	checkCartItem(t, "ChangeQuantity to 0", *it, orders.CartItem{CartID: cart, ProductID: "B08N5WRWNW", Quantity: 0})
	// ... only of a product already there: it creates nothing.
	if _, err := s.ChangeQuantity(ctx, orders.ChangeQuantityParams{CartID: cart, ProductID: "B000000000", Quantity: 3}); !errors.Is(err, orders.ErrNotFound) {
		t.Errorf("ChangeQuantity of a product not in the cart: %v, want ErrNotFound", err)
	}
	if _, err := s.ChangeQuantity(ctx, orders.ChangeQuantityParams{CartID: cart, ProductID: "B07XJ8C8F5", Quantity: -1}); !errors.Is(err, orders.ErrInvalidItem) {
		t.Errorf("ChangeQuantity to -1: %v, want ErrInvalidItem", err)
	}
	if _, err := s.ChangeQuantity(ctx, orders.ChangeQuantityParams{CartID: "", ProductID: "B07XJ8C8F5", Quantity: 1}); !errors.Is(err, orders.ErrInvalidKey) {
		t.Errorf("ChangeQuantity with an empty cart id: %v, want ErrInvalidKey", err)
	}
	if _, err := s.AddToCart(ctx, orders.AddToCartParams{CartID: cart, ProductID: "", Quantity: 1}); !errors.Is(err, orders.ErrInvalidKey) {
		t.Errorf("AddToCart with an empty product id: %v, want ErrInvalidKey", err)
	}

	// RemoveFromCart; removing again is no error.
	if err := s.RemoveFromCart(ctx, orders.CartItemKey{CartID: cart, ProductID: "0316769487"}); err != nil {
		t.Fatalf("RemoveFromCart: %v", err)
	}
	if err := s.RemoveFromCart(ctx, orders.CartItemKey{CartID: cart, ProductID: "0316769487"}); err != nil {
		t.Errorf("RemoveFromCart of a removed product: %v", err)
	}
	checkCart(t, "CartContents after the changes", cartOf(t, s, cart), []orders.CartItem{
		{CartID: cart, ProductID: "B07XJ8C8F5", Quantity: 10},
		{CartID: cart, ProductID: "B08N5WRWNW", Quantity: 0},
	})
	// A removed product can be added back, from zero.
	it, err = s.AddToCart(ctx, orders.AddToCartParams{CartID: cart, ProductID: "0316769487", Quantity: 2})
	if err != nil {
		t.Fatal(err)
	}
	checkCartItem(t, "AddToCart after RemoveFromCart", *it, orders.CartItem{CartID: cart, ProductID: "0316769487", Quantity: 2})
}

// TestAddToCartIsAtomic adds to one product from many goroutines at once:
// an atomic ADD loses none of them.
func TestAddToCartIsAtomic(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	const workers, each = 8, 5
	var wg sync.WaitGroup
	errs := make(chan error, workers*each)
	for range workers {
		wg.Go(func() {
			for range each {
				if _, err := s.AddToCart(ctx, orders.AddToCartParams{CartID: "busy-cart", ProductID: "B07XJ8C8F5", Quantity: 1}); err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("AddToCart: %v", err)
	}
	checkCart(t, "CartContents after concurrent adds", cartOf(t, s, "busy-cart"), []orders.CartItem{
		{CartID: "busy-cart", ProductID: "B07XJ8C8F5", Quantity: workers * each},
	})
	// A negative amount takes some away.
	it, err := s.AddToCart(ctx, orders.AddToCartParams{CartID: "busy-cart", ProductID: "B07XJ8C8F5", Quantity: -15})
	if err != nil {
		t.Fatalf("AddToCart -15: %v", err)
	}
	if it.Quantity != workers*each-15 {
		t.Errorf("AddToCart -15: quantity %d, want %d", it.Quantity, workers*each-15)
	}
}

// TestAddToCartBelowZero: CartItem.quantity has min 0 in the spec. An
// atomic add can't be checked before the call, so AddToCart's condition
// keeps the stored quantity at or above 0: taking away more than the cart
// holds, or adding a negative amount to a new product, is ErrConditionFailed.
func TestAddToCartBelowZero(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	if _, err := s.AddToCart(ctx, orders.AddToCartParams{CartID: "cart-1", ProductID: "B07XJ8C8F5", Quantity: 2}); err != nil {
		t.Fatal(err)
	}
	_, err := s.AddToCart(ctx, orders.AddToCartParams{CartID: "cart-1", ProductID: "B07XJ8C8F5", Quantity: -5})
	_, errNew := s.AddToCart(ctx, orders.AddToCartParams{CartID: "cart-1", ProductID: "B000NEW000", Quantity: -1})
	items := cartOf(t, s, "cart-1")
	if err == nil || errNew == nil {
		t.Fatalf("AddToCart(2) then AddToCart(-5): err %v; AddToCart(-1) on a new product: err %v; the cart now holds %+v", err, errNew, items)
	}
	if !errors.Is(err, orders.ErrConditionFailed) && !errors.Is(err, orders.ErrInvalidItem) {
		t.Errorf("AddToCart below 0: %v, want ErrConditionFailed or ErrInvalidItem", err)
	}
	checkCart(t, "cart after a refused AddToCart", items, []orders.CartItem{{CartID: "cart-1", ProductID: "B07XJ8C8F5", Quantity: 2}})
}

// ---- orders --------------------------------------------------------------------

// order returns the lines of an order (numeric SKUs, chosen so that their
// text order differs from their numeric order) and its tracking events,
// one an hour from placed, oldest first.
func order(t *testing.T, orderID int64, placed time.Time) ([]orders.OrderLine, []orders.TrackingEvent) {
	lines := []orders.OrderLine{
		{OrderID: orderID, SKU: 1000, ProductName: "Echo Dot (4th Gen)", Quantity: 2, UnitPrice: 4999},
		{OrderID: orderID, SKU: 42, ProductName: "The Hitchhiker's Guide to the Galaxy", Quantity: 1, UnitPrice: 899},
		{OrderID: orderID, SKU: 900, ProductName: "USB-C cable", Quantity: 3, UnitPrice: 1299},
		{OrderID: orderID, SKU: 7, ProductName: "Gift wrap", Quantity: 1, UnitPrice: 0},
	}
	// The optional message: absent (nil), or present, an empty one too.
	statuses := []struct {
		status  string
		message *string
	}{
		{"PLACED", new("Order received")},
		{"PAYMENT_CONFIRMED", nil},
		{"PICKED", new("Picked at fulfilment centre SEA8")},
		{"SHIPPED", new("Handed to carrier, tracking 1Z999AA10123456784")},
		{"OUT_FOR_DELIVERY", new("")},
		{"DELIVERED", new("Left at front door")},
	}
	events := make([]orders.TrackingEvent, len(statuses))
	for i, st := range statuses {
		events[i] = orders.TrackingEvent{
			OrderID: orderID,
			EventID: ksuid(t, placed.Add(time.Duration(i)*time.Hour)),
			Status:  st.status,
			Message: st.message,
		}
	}
	return lines, events
}

// bySKU returns the lines in SKU order.
func bySKU(ls []orders.OrderLine) []orders.OrderLine {
	out := slices.Clone(ls)
	slices.SortFunc(out, func(a, b orders.OrderLine) int { return int(a.SKU - b.SKU) })
	return out
}

func TestTrackingPage(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	const orderID = 112_8937_4410
	placed := time.Date(2024, 11, 29, 8, 15, 0, 0, time.UTC)
	lines, events := order(t, orderID, placed)
	// Another order's items, which must never show.
	otherLines, otherEvents := order(t, orderID+1, placed)
	placeOrder(t, s, orderID)
	placeOrder(t, s, orderID+1)

	// The lines: one by one, and in a batch for the other order.
	for i := range lines {
		if err := s.AddOrderLine(ctx, &lines[i]); err != nil {
			t.Fatalf("AddOrderLine %d: %v", lines[i].SKU, err)
		}
	}
	if err := s.AddOrderLines(ctx, otherLines); err != nil {
		t.Fatalf("AddOrderLines: %v", err)
	}
	// The events, recorded out of order: the sort key puts them in order.
	// The order's status is that of the last event recorded (events[4]),
	// not of the latest event by id (events[5]).
	for _, i := range []int{2, 0, 1, 5, 3, 4} {
		record(t, s, events[i])
	}
	for _, e := range otherEvents[:2] {
		record(t, s, e)
	}
	wantOrder := []orders.Order{{OrderID: orderID, Status: events[4].Status}}

	// One Query: the lines (by SKU, numerically) then the events (in time order).
	res, err := s.TrackingPage(ctx, orderID, orders.Page{})
	if err != nil {
		t.Fatalf("TrackingPage: %v", err)
	}
	checkLines(t, "TrackingPage lines", res.OrderLines, bySKU(lines))
	checkEvents(t, "TrackingPage events", res.TrackingEvents, events)
	if !slices.Equal(res.Orders, wantOrder) {
		t.Errorf("TrackingPage order = %+v, want %+v", res.Orders, wantOrder)
	}
	if res.Next != "" {
		t.Errorf("TrackingPage: Next = %q, want \"\"", res.Next)
	}
	if got := []int64{res.OrderLines[0].SKU, res.OrderLines[1].SKU, res.OrderLines[2].SKU, res.OrderLines[3].SKU}; !slices.Equal(got, []int64{7, 42, 900, 1000}) {
		t.Errorf("TrackingPage: SKUs %v, want [7 42 900 1000]", got)
	}

	// Page by page, 3 items a page: the same items, each typed right.
	var gotOrders []orders.Order
	var gotLines []orders.OrderLine
	var gotEvents []orders.TrackingEvent
	pages := 0
	page := orders.Page{Limit: 3}
	for {
		r, err := s.TrackingPage(ctx, orderID, page)
		if err != nil {
			t.Fatal(err)
		}
		pages++
		gotOrders = append(gotOrders, r.Orders...)
		gotLines = append(gotLines, r.OrderLines...)
		gotEvents = append(gotEvents, r.TrackingEvents...)
		if r.Next == "" {
			break
		}
		page.Cursor = r.Next
	}
	if pages < 4 {
		t.Errorf("TrackingPage, 11 items 3 a page: %d pages", pages)
	}
	if !slices.Equal(gotOrders, wantOrder) {
		t.Errorf("TrackingPage pages: order = %+v, want %+v", gotOrders, wantOrder)
	}
	checkLines(t, "TrackingPage pages: lines", gotLines, bySKU(lines))
	checkEvents(t, "TrackingPage pages: events", gotEvents, events)

	// And with the iterator.
	gotOrders, gotLines, gotEvents = nil, nil, nil
	for r, err := range s.TrackingPageAll(ctx, orderID+1) {
		if err != nil {
			t.Fatal(err)
		}
		gotOrders = append(gotOrders, r.Orders...)
		gotLines = append(gotLines, r.OrderLines...)
		gotEvents = append(gotEvents, r.TrackingEvents...)
	}
	checkLines(t, "TrackingPageAll other order: lines", gotLines, bySKU(otherLines))
	checkEvents(t, "TrackingPageAll other order: events", gotEvents, otherEvents[:2])
	if want := []orders.Order{{OrderID: orderID + 1, Status: otherEvents[1].Status}}; !slices.Equal(gotOrders, want) {
		t.Errorf("TrackingPageAll other order: order = %+v, want %+v", gotOrders, want)
	}

	// An order that does not exist: an empty page.
	res, err = s.TrackingPage(ctx, 1, orders.Page{})
	if err != nil || len(res.Orders)+len(res.OrderLines)+len(res.TrackingEvents) != 0 {
		t.Errorf("TrackingPage of a missing order: %+v, %v", res, err)
	}
	// A cursor of one order is refused for another.
	first, err := s.TrackingPage(ctx, orderID, orders.Page{Limit: 2})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.TrackingPage(ctx, orderID+1, orders.Page{Cursor: first.Next}); !errors.Is(err, orders.ErrInvalidCursor) {
		t.Errorf("TrackingPage with another order's cursor: %v, want ErrInvalidCursor", err)
	}
}

func TestTrackingEvents(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	const orderID = 20_240_001
	placed := time.Date(2025, 1, 3, 22, 40, 0, 0, time.UTC)
	lines, events := order(t, orderID, placed)
	placeOrder(t, s, orderID)
	if err := s.AddOrderLines(ctx, lines); err != nil {
		t.Fatal(err)
	}

	// No event yet: the lines share the partition but never show.
	res, err := s.TrackingEvents(ctx, orderID, orders.Page{})
	if err != nil {
		t.Fatalf("TrackingEvents: %v", err)
	}
	if len(res.Items) != 0 || res.Next != "" {
		t.Errorf("TrackingEvents of an order without events: %+v", res)
	}
	if ev, err := s.LatestTrackingEvent(ctx, orderID); !errors.Is(err, orders.ErrNotFound) {
		t.Errorf("LatestTrackingEvent of an order without events: %+v, %v; want ErrNotFound", ev, err)
	}

	// Record them one by one: after each, the events so far, in order,
	// the last one is the latest, and the order has its status.
	for i := range events {
		record(t, s, events[i])
		checkStatus(t, fmt.Sprintf("after event %d", i+1), s, orderID, events[i].Status)
		res, err := s.TrackingEvents(ctx, orderID, orders.Page{})
		if err != nil {
			t.Fatal(err)
		}
		checkEvents(t, fmt.Sprintf("TrackingEvents after %d", i+1), res.Items, events[:i+1])
		latest, err := s.LatestTrackingEvent(ctx, orderID)
		if err != nil {
			t.Fatalf("LatestTrackingEvent after %d: %v", i+1, err)
		}
		checkEvents(t, fmt.Sprintf("LatestTrackingEvent after %d", i+1), []orders.TrackingEvent{*latest}, events[i:i+1])
	}
	// Recording an event again is refused at step 1 (create
	// TrackingEvent), and changes nothing: neither the event nor the
	// order's status.
	again := events[3]
	again.Status = "LOST"
	err = s.RecordTrackingEvent(ctx, orders.RecordTrackingEventParams{TrackingEvent: &again})
	stepFailed(t, "RecordTrackingEvent of a recorded event", err, 1, orders.ErrAlreadyExists, true)
	checkStatus(t, "after a refused event", s, orderID, events[len(events)-1].Status)
	// An event id can't hold the key's separator: refused before the call,
	// at step 1.
	bad := orders.TrackingEvent{OrderID: orderID, EventID: "2a#b", Status: "X"}
	err = s.RecordTrackingEvent(ctx, orders.RecordTrackingEventParams{TrackingEvent: &bad})
	stepFailed(t, "RecordTrackingEvent with '#' in the event id", err, 1, orders.ErrInvalidKey, false)

	// Pages of 2, and the iterator.
	var got []orders.TrackingEvent
	page := orders.Page{Limit: 2}
	for {
		r, err := s.TrackingEvents(ctx, orderID, page)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, r.Items...)
		if r.Next == "" {
			break
		}
		page.Cursor = r.Next
	}
	checkEvents(t, "TrackingEvents, pages of 2", got, events)
	got = nil
	for e, err := range s.TrackingEventsAll(ctx, orderID) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, e)
	}
	checkEvents(t, "TrackingEventsAll", got, events)
	for i := 1; i < len(got); i++ {
		if strings.Compare(got[i-1].EventID, got[i].EventID) >= 0 {
			t.Errorf("TrackingEventsAll: event %d (%s) does not sort after event %d (%s)", i, got[i].EventID, i-1, got[i-1].EventID)
		}
	}
	// The lines are still all there.
	tp, err := s.TrackingPage(ctx, orderID, orders.Page{})
	if err != nil {
		t.Fatal(err)
	}
	checkLines(t, "TrackingPage lines", tp.OrderLines, bySKU(lines))
}

// TestOrderStatus: RecordTrackingEvent writes the event and the order's
// status in one transaction, all or nothing.
func TestOrderStatus(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	const orderID = 7_000_001
	_, events := order(t, orderID, time.Date(2025, 2, 1, 9, 0, 0, 0, time.UTC))

	// An event of an order that does not exist: the update of step 2
	// finds no order, and the event of step 1 is not written either.
	err := s.RecordTrackingEvent(ctx, orders.RecordTrackingEventParams{TrackingEvent: &events[0]})
	stepFailed(t, "RecordTrackingEvent of a missing order", err, 2, orders.ErrNotFound, true)
	if res, err := s.TrackingPage(ctx, orderID, orders.Page{}); err != nil || len(res.Orders)+len(res.OrderLines)+len(res.TrackingEvents) != 0 {
		t.Errorf("TrackingPage after a cancelled event: %+v, %v; want nothing", res, err)
	}
	if _, err := s.GetOrder(ctx, orderID); !errors.Is(err, orders.ErrNotFound) {
		t.Errorf("GetOrder of a missing order: %v, want ErrNotFound", err)
	}

	// PlaceOrder creates the order once.
	placeOrder(t, s, orderID)
	checkStatus(t, "a new order", s, orderID, "NEW")
	if err := s.PlaceOrder(ctx, &orders.Order{OrderID: orderID, Status: "PLACED"}); !errors.Is(err, orders.ErrAlreadyExists) {
		t.Errorf("PlaceOrder of an existing order: %v, want ErrAlreadyExists", err)
	}
	checkStatus(t, "after a refused PlaceOrder", s, orderID, "NEW")

	// Now the same event is recorded, and the order takes its status.
	record(t, s, events[0])
	checkStatus(t, "after the first event", s, orderID, events[0].Status)

	// A request token makes a retried call (after a lost answer, say)
	// succeed without writing again; without it the retry is refused.
	// DynamoDB takes a token of 1 to 36 characters: the KSUID (27).
	p := orders.RecordTrackingEventParams{TrackingEvent: &events[1], RequestToken: events[1].EventID}
	for i := range 2 {
		if err := s.RecordTrackingEvent(ctx, p); err != nil {
			t.Fatalf("RecordTrackingEvent with a request token, call %d: %v", i+1, err)
		}
	}
	err = s.RecordTrackingEvent(ctx, orders.RecordTrackingEventParams{TrackingEvent: &events[1]})
	stepFailed(t, "RecordTrackingEvent again without the token", err, 1, orders.ErrAlreadyExists, true)
	checkStatus(t, "after the second event", s, orderID, events[1].Status)
	res, err := s.TrackingEvents(ctx, orderID, orders.Page{})
	if err != nil {
		t.Fatal(err)
	}
	checkEvents(t, "TrackingEvents", res.Items, events[:2])
}

func TestOrderLines(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	const orderID = 5_550_123

	// AddOrderLine refuses a line that exists.
	line := orders.OrderLine{OrderID: orderID, SKU: 42, ProductName: "Towel", Quantity: 1, UnitPrice: 1500}
	if err := s.AddOrderLine(ctx, &line); err != nil {
		t.Fatal(err)
	}
	dup := line
	dup.Quantity = 9
	if err := s.AddOrderLine(ctx, &dup); !errors.Is(err, orders.ErrAlreadyExists) {
		t.Errorf("AddOrderLine of an existing line: %v, want ErrAlreadyExists", err)
	}
	if err := s.AddOrderLine(ctx, &orders.OrderLine{OrderID: orderID, SKU: 43, ProductName: "x", Quantity: 0, UnitPrice: 1}); !errors.Is(err, orders.ErrInvalidItem) {
		t.Errorf("AddOrderLine with quantity 0: %v, want ErrInvalidItem", err)
	}

	// AddOrderLines writes more than one batch (25 puts a request); of two
	// lines with one key, the last is written.
	var batch []orders.OrderLine
	for i := range 60 {
		batch = append(batch, orders.OrderLine{
			OrderID:     orderID,
			SKU:         int64(100 + i*37),
			ProductName: fmt.Sprintf("Part %03d", i),
			Quantity:    int64(i%4 + 1),
			UnitPrice:   int64(250 * (i + 1)),
		})
	}
	batch = append(batch, orders.OrderLine{OrderID: orderID, SKU: 100, ProductName: "Part 000 (replaced)", Quantity: 5, UnitPrice: 1})
	if err := s.AddOrderLines(ctx, batch); err != nil {
		t.Fatalf("AddOrderLines: %v", err)
	}
	want := append([]orders.OrderLine{line, batch[60]}, batch[1:60]...)
	var got []orders.OrderLine
	for r, err := range s.TrackingPageAll(ctx, orderID) {
		if err != nil {
			t.Fatal(err)
		}
		if len(r.TrackingEvents) != 0 {
			t.Errorf("TrackingPage: %d events, want none", len(r.TrackingEvents))
		}
		got = append(got, r.OrderLines...)
	}
	checkLines(t, "TrackingPage after AddOrderLines", got, want)
	// A bad line in a batch refuses the whole batch before any write.
	if err := s.AddOrderLines(ctx, []orders.OrderLine{{OrderID: 77, SKU: 1, ProductName: "ok", Quantity: 1}, {OrderID: 77, SKU: 2, ProductName: "bad", Quantity: 0}}); !errors.Is(err, orders.ErrInvalidItem) {
		t.Errorf("AddOrderLines with a bad line: %v, want ErrInvalidItem", err)
	}
	if r, err := s.TrackingPage(ctx, 77, orders.Page{}); err != nil || len(r.OrderLines) != 0 {
		t.Errorf("TrackingPage after a refused batch: %+v, %v", r, err)
	}
	if err := s.AddOrderLines(ctx, nil); err != nil {
		t.Errorf("AddOrderLines of no line: %v", err)
	}
}

// Command demo runs every access pattern of the orders model against a
// DynamoDB server (DynamoDB Local) and prints what each returns.
//
//	DYNAMODB_ENDPOINT=http://127.0.0.1:8000 go run ./example/orders/demo
//
// It creates the model's two tables under unique names and deletes them at
// the end.
package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/dyngen/dyngen/example/orders"
)

func main() {
	endpoint := os.Getenv("DYNAMODB_ENDPOINT")
	if endpoint == "" {
		fmt.Fprintln(os.Stderr, "demo: DYNAMODB_ENDPOINT is not set; point it at DynamoDB Local, e.g.\n"+
			"  scripts/dynamodb-local run go run ./example/orders/demo")
		os.Exit(2)
	}
	client := dynamodb.New(dynamodb.Options{
		Region:       "us-east-1",
		BaseEndpoint: aws.String(endpoint),
		// DynamoDB Local checks no signature: dummy credentials do.
		Credentials: credentials.NewStaticCredentialsProvider("demo", "demo", ""),
		// DynamoDB Local's responses make the CRC32 check warn.
		DisableValidateResponseChecksum: true,
	})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := run(ctx, client, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "demo:", err)
		os.Exit(1)
	}
}

// run creates the tables, runs every pattern on a little data, prints what
// each returns to out, and deletes the tables.
func run(ctx context.Context, client *dynamodb.Client, out io.Writer) (err error) {
	var b [4]byte
	if _, err := rand.Read(b[:]); err != nil {
		return err
	}
	suffix := hex.EncodeToString(b[:])
	s := orders.New(client, orders.WithCartsTable("Carts-demo-"+suffix), orders.WithOrdersTable("Orders-demo-"+suffix))
	for _, table := range s.Tables() {
		name, cerr := createTable(ctx, client, table)
		if name != "" {
			defer func() { err = errors.Join(err, deleteTable(client, name)) }()
		}
		if cerr != nil {
			return cerr
		}
		fmt.Fprintf(out, "created table %s\n", name)
	}
	return demo(ctx, s, out)
}

func demo(ctx context.Context, s *orders.Store, out io.Writer) error {
	p := func(format string, args ...any) { fmt.Fprintf(out, format+"\n", args...) }
	section := func(pattern, what string) { p("\n== %s: %s", pattern, what) }
	showCart := func(cart string) error {
		res, err := s.CartContents(ctx, cart, orders.Page{})
		if err != nil {
			return err
		}
		if len(res.Items) == 0 {
			p("  (empty)")
		}
		for _, it := range res.Items {
			p("  %-12s x %d", it.ProductID, it.Quantity)
		}
		return nil
	}
	const cart = "petes-cart"

	section("AddToCart", "Pete fills his cart (an atomic add per product)")
	for _, add := range []struct {
		product string
		n       int64
	}{{"B07XJ8C8F5", 1}, {"0316769487", 1}, {"B07XJ8C8F5", 2}, {"B08N5WRWNW", 1}} {
		it, err := s.AddToCart(ctx, orders.AddToCartParams{CartID: cart, ProductID: add.product, Quantity: add.n})
		if err != nil {
			return err
		}
		p("  +%d %-12s -> quantity %d", add.n, add.product, it.Quantity)
	}

	section("CartContents", "Pete's cart")
	if err := showCart(cart); err != nil {
		return err
	}

	section("ChangeQuantity", "Pete wants 2 of the book")
	it, err := s.ChangeQuantity(ctx, orders.ChangeQuantityParams{CartID: cart, ProductID: "0316769487", Quantity: 2})
	if err != nil {
		return err
	}
	p("  %s -> quantity %d", it.ProductID, it.Quantity)
	_, err = s.ChangeQuantity(ctx, orders.ChangeQuantityParams{CartID: cart, ProductID: "B000000000", Quantity: 1})
	p("changing a product not in the cart: %s", sentinel(err))

	section("RemoveFromCart", "Pete drops B08N5WRWNW")
	if err := s.RemoveFromCart(ctx, orders.CartItemKey{CartID: cart, ProductID: "B08N5WRWNW"}); err != nil {
		return err
	}
	if err := showCart(cart); err != nil {
		return err
	}

	const orderID = 112_8937_4410
	section("PlaceOrder", fmt.Sprintf("checkout: order %d, its own item", orderID))
	if err := s.PlaceOrder(ctx, &orders.Order{OrderID: orderID, Status: "NEW"}); err != nil {
		return err
	}
	p("  order %d status NEW", orderID)

	section("AddOrderLine", fmt.Sprintf("checkout: order %d, one line", orderID))
	first := orders.OrderLine{OrderID: orderID, SKU: 1000, ProductName: "Echo Dot (4th Gen)", Quantity: 3, UnitPrice: 4999}
	if err := s.AddOrderLine(ctx, &first); err != nil {
		return err
	}
	p("  %s", fmtLine(first))
	err = s.AddOrderLine(ctx, &first)
	p("adding it again: %s", sentinel(err))

	section("AddOrderLines", "the other lines, in one batch")
	rest := []orders.OrderLine{
		{OrderID: orderID, SKU: 42, ProductName: "The Catcher in the Rye", Quantity: 2, UnitPrice: 899},
		{OrderID: orderID, SKU: 7, ProductName: "Gift wrap", Quantity: 1, UnitPrice: 0},
	}
	if err := s.AddOrderLines(ctx, rest); err != nil {
		return err
	}
	for _, l := range rest {
		p("  %s", fmtLine(l))
	}

	section("RecordTrackingEvent", "the order moves along: each event and the order's status, one transaction")
	placed := time.Date(2024, 11, 29, 8, 15, 0, 0, time.UTC)
	for i, st := range []struct{ status, message string }{
		{"PLACED", "Order received"},
		{"PICKED", "Picked at fulfilment centre SEA8"},
		{"SHIPPED", "Handed to carrier"},
	} {
		e := orders.TrackingEvent{OrderID: orderID, EventID: ksuid(placed.Add(time.Duration(i) * 3 * time.Hour)), Status: st.status, Message: new(st.message)}
		if err := s.RecordTrackingEvent(ctx, orders.RecordTrackingEventParams{TrackingEvent: &e}); err != nil {
			return err
		}
		o, err := s.GetOrder(ctx, orderID)
		if err != nil {
			return err
		}
		p("  %s -> order status %s", fmtEvent(e), o.Status)
		if i == 0 {
			again := e
			again.Status = "LOST"
			err := s.RecordTrackingEvent(ctx, orders.RecordTrackingEventParams{TrackingEvent: &again})
			p("  recording it again: %s", sentinel(err))
		}
	}
	lost := orders.TrackingEvent{OrderID: orderID + 1, EventID: ksuid(placed), Status: "PLACED"}
	err = s.RecordTrackingEvent(ctx, orders.RecordTrackingEventParams{TrackingEvent: &lost})
	p("an event of an order never placed: %s", sentinel(err))

	section("GetOrder", "the order's own item: the status of its last event")
	o, err := s.GetOrder(ctx, orderID)
	if err != nil {
		return err
	}
	p("  order %d status %s", o.OrderID, o.Status)

	section("TrackingPage", "the lines and the tracking events of the order, one Query")
	res, err := s.TrackingPage(ctx, orderID, orders.Page{})
	if err != nil {
		return err
	}
	for _, o := range res.Orders {
		p("  order %d status %s", o.OrderID, o.Status)
	}
	var total int64
	for _, l := range res.OrderLines {
		p("  line  %s", fmtLine(l))
		total += l.Quantity * l.UnitPrice
	}
	p("  total $%d.%02d", total/100, total%100)
	for _, e := range res.TrackingEvents {
		p("  event %s", fmtEvent(e))
	}

	section("TrackingEvents", "the tracking events only, in the order they happened")
	for e, err := range s.TrackingEventsAll(ctx, orderID) {
		if err != nil {
			return err
		}
		p("  %s", fmtEvent(e))
	}

	section("LatestTrackingEvent", "where the order is now: its latest event, one item")
	latest, err := s.LatestTrackingEvent(ctx, orderID)
	if err != nil {
		return err
	}
	p("  %s", fmtEvent(*latest))
	_, err = s.LatestTrackingEvent(ctx, orderID+1)
	p("an order without events: %s", sentinel(err))
	return nil
}

func fmtLine(l orders.OrderLine) string {
	return fmt.Sprintf("SKU %-5d %-26q %d x $%d.%02d", l.SKU, l.ProductName, l.Quantity, l.UnitPrice/100, l.UnitPrice%100)
}

func fmtEvent(e orders.TrackingEvent) string {
	s := fmt.Sprintf("%s %-8s", e.EventID, e.Status)
	if e.Message != nil {
		s += " " + *e.Message
	}
	return s
}

// ksuid returns a KSUID for the instant at: 27 base62 characters, a 4-byte
// timestamp (seconds since 2014-05-13) then 16 random bytes, so that the
// text order is the time order.
func ksuid(at time.Time) string {
	var b [20]byte
	ts := uint32(at.Unix() - 1_400_000_000)
	b[0], b[1], b[2], b[3] = byte(ts>>24), byte(ts>>16), byte(ts>>8), byte(ts)
	rand.Read(b[4:]) // never fails on supported platforms
	const digits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	out := make([]byte, 27)
	n := b[:]
	for i := len(out) - 1; i >= 0; i-- {
		// Divide the big-endian number n by 62 in place; the remainder is the digit.
		var rem uint
		for j := range n {
			cur := rem<<8 | uint(n[j])
			n[j] = byte(cur / 62)
			rem = cur % 62
		}
		out[i] = digits[rem]
	}
	return string(out)
}

// sentinel names the error sentinel of the package that err wraps, and
// the step of a transaction that failed.
func sentinel(err error) string {
	var te *orders.TransactionError
	if errors.As(err, &te) {
		return fmt.Sprintf("step %d (%s): %s", te.Step, te.Action, sentinel(te.Err))
	}
	for _, e := range []struct {
		name string
		err  error
	}{
		{"ErrNotFound", orders.ErrNotFound},
		{"ErrAlreadyExists", orders.ErrAlreadyExists},
		{"ErrConditionFailed", orders.ErrConditionFailed},
		{"ErrInvalidKey", orders.ErrInvalidKey},
		{"ErrInvalidItem", orders.ErrInvalidItem},
		{"ErrInvalidCursor", orders.ErrInvalidCursor},
	} {
		if errors.Is(err, e.err) {
			return "error " + e.name
		}
	}
	if err == nil {
		return "no error"
	}
	return "error: " + err.Error()
}

// createTable creates a table of the Store under the name the Store gave
// it, waits until it is active and turns its time to live on, if the spec
// names an attribute for it. It returns the name even when the wait
// fails, so that the caller can delete the table.
func createTable(ctx context.Context, c *dynamodb.Client, table orders.Table) (string, error) {
	name := aws.ToString(table.Create.TableName)
	if _, err := c.CreateTable(ctx, table.Create); err != nil {
		return "", fmt.Errorf("create table %s: %w", name, err)
	}
	w := dynamodb.NewTableExistsWaiter(c, func(o *dynamodb.TableExistsWaiterOptions) {
		o.MinDelay = 50 * time.Millisecond
		o.MaxDelay = time.Second
	})
	if err := w.Wait(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)}, time.Minute); err != nil {
		return name, fmt.Errorf("wait for table %s: %w", name, err)
	}
	if table.TimeToLive != nil {
		if _, err := c.UpdateTimeToLive(ctx, table.TimeToLive); err != nil {
			return name, fmt.Errorf("turn time to live on for table %s: %w", name, err)
		}
	}
	return name, nil
}

// deleteTable deletes a table the demo created, even when ctx has ended.
func deleteTable(c *dynamodb.Client, name string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(name)}); err != nil {
		return fmt.Errorf("delete table %s: %w", name, err)
	}
	return nil
}

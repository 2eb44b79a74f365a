// Command demo runs every access pattern of the retail model against a
// DynamoDB server (DynamoDB Local) and prints what each returns.
//
//	DYNAMODB_ENDPOINT=http://127.0.0.1:8000 go run ./example/retail/demo
//
// It creates the model's table under a unique name and deletes it at the end.
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
	"github.com/dyngen/dyngen/example/retail"
)

func main() {
	endpoint := os.Getenv("DYNAMODB_ENDPOINT")
	if endpoint == "" {
		fmt.Fprintln(os.Stderr, "demo: DYNAMODB_ENDPOINT is not set; point it at DynamoDB Local, e.g.\n"+
			"  scripts/dynamodb-local run go run ./example/retail/demo")
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
	s := retail.New(client, retail.WithRetailTableTable("retail_table-demo-"+suffix))
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

func demo(ctx context.Context, s *retail.Store, out io.Writer) error {
	p := func(format string, args ...any) { fmt.Fprintf(out, format+"\n", args...) }
	section := func(pattern, what string) { p("\n== %s: %s", pattern, what) }
	list := func(os []retail.Order) {
		if len(os) == 0 {
			p("  (none)")
		}
		for _, o := range os {
			p("  %s", fmtOrder(o))
		}
	}

	section("CreateCustomer", "two customers")
	jane := retail.Customer{CustomerID: "12345", Name: "Jane Doe", Email: "jane.doe@example.com"}
	omar := retail.Customer{CustomerID: "67890", Name: "Omar Haddad", Email: "omar@example.org"}
	for _, c := range []retail.Customer{jane, omar} {
		if err := s.CreateCustomer(ctx, &c); err != nil {
			return err
		}
		p("  %s %s <%s>", c.CustomerID, c.Name, c.Email)
	}
	err := s.CreateCustomer(ctx, &jane)
	p("creating %s again: %s", jane.CustomerID, sentinel(err))

	section("PlaceOrder", "Jane places 12 orders over a few months, Omar one")
	first := time.Date(2024, 1, 8, 10, 30, 0, 0, time.UTC)
	var janes []retail.Order
	for i := range 12 {
		o := retail.Order{
			CustomerID: jane.CustomerID,
			OrderID:    fmt.Sprintf("a1b2c3%02d", i),
			OrderDate:  first.AddDate(0, 0, 9*i),
			Status:     retail.OrderStatusDelivered,
			Total:      int64(2500 + 750*i),
		}
		if err := s.PlaceOrder(ctx, &o); err != nil {
			return err
		}
		janes = append(janes, o)
		p("  %s", fmtOrder(o))
	}
	omars := retail.Order{CustomerID: omar.CustomerID, OrderID: "f9e8d7c6", OrderDate: first.AddDate(0, 1, 0), Status: retail.OrderStatusShipped, Total: 12999}
	if err := s.PlaceOrder(ctx, &omars); err != nil {
		return err
	}
	p("  %s", fmtOrder(omars))

	section("SetOrderStatus", "Jane's latest order is only placed, not delivered yet")
	last := janes[len(janes)-1]
	upd, err := s.SetOrderStatus(ctx, retail.SetOrderStatusParams{CustomerID: last.CustomerID, OrderDate: last.OrderDate, OrderID: last.OrderID, Status: retail.OrderStatusPlaced})
	if err != nil {
		return err
	}
	p("  %s", fmtOrder(*upd))

	section("CreateInvoice", "an invoice for Jane's order a1b2c305: the invoice, the invoice item and the order's mark, one transaction")
	o5 := janes[5]
	invoice := func(o retail.Order, id string) retail.CreateInvoiceParams {
		return retail.CreateInvoiceParams{
			Invoice:      &retail.Invoice{CustomerID: o.CustomerID, InvoiceID: id, OrderID: o.OrderID, InvoiceDate: o.OrderDate.Add(3 * time.Hour), Amount: o.Total},
			InvoiceOrder: &retail.InvoiceOrder{InvoiceID: id, CustomerID: o.CustomerID, OrderID: o.OrderID, OrderDate: o.OrderDate, OrderTotal: o.Total},
		}
	}
	params := invoice(o5, "inv12ab34cd")
	if err := s.CreateInvoice(ctx, params); err != nil {
		return err
	}
	inv, item := *params.Invoice, *params.InvoiceOrder
	p("  %s", fmtInvoice(inv))
	p("  invoice %s -> order %s", item.InvoiceID, item.OrderID)
	err = s.CreateInvoice(ctx, invoice(o5, "inv55second"))
	p("a second invoice of that order: %s", sentinel(err))
	err = s.CreateInvoice(ctx, invoice(omars, "inv12ab34cd"))
	p("Omar's invoice under the same invoice id: %s", sentinel(err))

	section("GetCustomer", "SELECT * FROM CUSTOMER WHERE CUSTOMER_ID = 12345")
	c, err := s.GetCustomer(ctx, jane.CustomerID)
	if err != nil {
		return err
	}
	p("  %s %s <%s>", c.CustomerID, c.Name, c.Email)
	_, err = s.GetCustomer(ctx, "99999")
	p("customer 99999: %s", sentinel(err))

	section("OrdersOfCustomer", "every order of customer 12345, oldest first")
	for o, err := range s.OrdersOfCustomerAll(ctx, jane.CustomerID) {
		if err != nil {
			return err
		}
		p("  %s", fmtOrder(o))
	}

	section("GetOrder", "SELECT * FROM ORDER WHERE ORDER_ID = 'f9e8d7c6' (GSI)")
	o, err := s.GetOrder(ctx, omars.OrderID)
	if err != nil {
		return err
	}
	p("  %s", fmtOrder(*o))

	section("OrderOfCustomer", "order a1b2c303 of customer 12345, then of customer 67890")
	res, err := s.OrderOfCustomer(ctx, retail.OrderOfCustomerParams{OrderID: janes[3].OrderID, CustomerID: jane.CustomerID}, retail.Page{})
	if err != nil {
		return err
	}
	list(res.Items)
	res, err = s.OrderOfCustomer(ctx, retail.OrderOfCustomerParams{OrderID: janes[3].OrderID, CustomerID: omar.CustomerID}, retail.Page{})
	if err != nil {
		return err
	}
	list(res.Items)

	section("InvoicesOfCustomer", "every invoice of customer 12345")
	invs, err := s.InvoicesOfCustomer(ctx, jane.CustomerID, retail.Page{})
	if err != nil {
		return err
	}
	for _, inv := range invs.Items {
		p("  %s", fmtInvoice(inv))
	}

	section("OrdersOfInvoice", "the order of invoice inv12ab34cd")
	got, err := s.OrdersOfInvoice(ctx, inv.InvoiceID)
	if err != nil {
		return err
	}
	p("  invoice %s: order %s of customer %s, %s, $%d.%02d", got.InvoiceID, got.OrderID, got.CustomerID, got.OrderDate.Format(time.DateOnly), got.OrderTotal/100, got.OrderTotal%100)

	section("RecentOrders", "the ten most recent orders of customer 12345, newest first")
	recent, err := s.RecentOrders(ctx, jane.CustomerID, retail.Page{})
	if err != nil {
		return err
	}
	list(recent.Items)
	p("  (%d shown; more: %t)", len(recent.Items), recent.Next != "")
	return nil
}

func fmtOrder(o retail.Order) string {
	s := fmt.Sprintf("order %s of %s on %s: %-9s $%d.%02d", o.OrderID, o.CustomerID, o.OrderDate.Format(time.DateOnly), o.Status, o.Total/100, o.Total%100)
	if o.Invoiced {
		s += ", invoiced"
	}
	return s
}

func fmtInvoice(i retail.Invoice) string {
	return fmt.Sprintf("invoice %s of %s for order %s on %s: $%d.%02d", i.InvoiceID, i.CustomerID, i.OrderID, i.InvoiceDate.Format(time.DateOnly), i.Amount/100, i.Amount%100)
}

// sentinel names the step of a transaction that failed, and the error
// sentinel of the package that err wraps.
func sentinel(err error) string {
	var te *retail.TransactionError
	if errors.As(err, &te) {
		return fmt.Sprintf("step %d (%s): %s", te.Step, te.Action, sentinel(te.Err))
	}
	for _, e := range []struct {
		name string
		err  error
	}{
		{"ErrNotFound", retail.ErrNotFound},
		{"ErrAlreadyExists", retail.ErrAlreadyExists},
		{"ErrConditionFailed", retail.ErrConditionFailed},
		{"ErrInvalidKey", retail.ErrInvalidKey},
		{"ErrInvalidItem", retail.ErrInvalidItem},
		{"ErrInvalidCursor", retail.ErrInvalidCursor},
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
func createTable(ctx context.Context, c *dynamodb.Client, table retail.Table) (string, error) {
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

package orders_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/dyngen/dyngen/example/orders"
	dyngen "github.com/dyngen/dyngen/generator/runtime"
	"github.com/dyngen/dyngen/internal/dynamotest"
)

// notifier is the Notifications consumer of the README: it tells the
// customer of each tracking event, here by noting it.
type notifier struct {
	sent []string
	// down fails the notification of the event with this id.
	down string
}

func (n *notifier) TrackingEventInserted(ctx context.Context, c *orders.TrackingEventChange) error {
	if c.New.EventID == n.down {
		return errors.New("the mail server is down")
	}
	n.sent = append(n.sent, fmt.Sprintf("order %d: %s", c.New.OrderID, c.New.Status))
	return nil
}

// TestNotifications reads table Orders' stream after the writes of an
// order: the consumer is handed each tracking event once, in the order
// recorded, and nothing else (the order's own item and its status
// updates, its lines); a failed notification stops the batch at its
// record, so that it and the events after it are retried.
func TestNotifications(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	const orderID = 20_240_002
	lines, events := order(t, orderID, time.Date(2025, 1, 3, 22, 40, 0, 0, time.UTC))
	placeOrder(t, s, orderID)
	if err := s.AddOrderLines(ctx, lines); err != nil {
		t.Fatal(err)
	}
	for _, e := range events {
		record(t, s, e)
	}
	var table string
	for _, tb := range s.Tables() {
		if tb.Name == "Orders" {
			table = aws.ToString(tb.Create.TableName)
		}
	}
	records, err := dyngen.RecordsFromStreams(dynamotest.StreamRecords(t, table))
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, e := range events {
		want = append(want, fmt.Sprintf("order %d: %s", orderID, e.Status))
	}
	n := &notifier{}
	if err := orders.HandleNotifications(ctx, n, records); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(n.sent, want) {
		t.Errorf("notified %q, want %q", n.sent, want)
	}

	// The third notification fails: the first two are sent, and the
	// error names the third event's record.
	down := &notifier{down: events[2].EventID}
	err = orders.HandleNotifications(ctx, down, records)
	var re *orders.RecordError
	if !errors.As(err, &re) {
		t.Fatalf("a failed notification: %v, want a *RecordError", err)
	}
	c, err := orders.DecodeOrdersChange(&records[re.Position])
	if te, ok := c.(*orders.TrackingEventChange); err != nil || !ok || te.New.EventID != events[2].EventID {
		t.Errorf("the failure at record %d: %+v, %v; want the third event's", re.Position, c, err)
	}
	if !slices.Equal(down.sent, want[:2]) {
		t.Errorf("before the failure: %q, want %q", down.sent, want[:2])
	}
}

package bench

// Bulk benchmarks: 10,000 items written and read with a generated batch
// method, at several concurrencies, against the sequential loop of the
// same Store's single-item methods, on DynamoDB Local. See "Bulk" in
// BENCHMARKS.md. Without DYNAMODB_ENDPOINT they skip:
//
//	scripts/dynamodb-local run go test ./internal/bench/ -run '^$' -bench Bulk -benchtime 1x

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/dyngen/dyngen/internal/dynamotest"
	"github.com/dyngen/dyngen/internal/e2e"
)

// bulkItems is how many items each pass writes or reads.
const bulkItems = 10_000

// bulkReverse runs the batch sub-benchmarks from the highest concurrency
// down, and the reads before the writes. Alternating it between passes
// spreads the machine's load drifts over every variant.
var bulkReverse = flag.Bool("bulk.reverse", false, "run BenchmarkBulk's variants in the reverse order")

// bulkConcurrencies are the WithBatchConcurrency values measured, in the
// order -bulk.reverse says.
func bulkConcurrencies() []int {
	cs := []int{1, 2, 4, 8, 16}
	if *bulkReverse {
		slices.Reverse(cs)
	}
	return cs
}

// bulkEvents are the items written and read: 10,000 events of 20 owners.
func bulkEvents() ([]e2e.Event, []e2e.EventKey) {
	evs := make([]e2e.Event, bulkItems)
	keys := make([]e2e.EventKey, bulkItems)
	at := time.Date(2024, 3, 14, 15, 9, 26, 535897932, time.UTC)
	for i := range evs {
		evs[i] = e2e.Event{
			OwnerID: fmt.Sprintf("owner-%02d", i%20),
			Seq:     int64(i),
			At:      at.Add(time.Duration(i) * time.Second),
			Note:    "Clear, precise and full of idiomatic examples; the exercises are worth doing.",
		}
		keys[i] = e2e.EventKey{OwnerID: evs[i].OwnerID, Seq: evs[i].Seq}
	}
	return evs, keys
}

// newBulk creates the e2e package's Main table (deleted when b ends) and
// returns the client, the one connection pool under every Store of a
// benchmark, and the table's physical name. It skips b when
// DYNAMODB_ENDPOINT is unset.
func newBulk(b *testing.B) (*dynamodb.Client, string) {
	b.Helper()
	if os.Getenv(dynamotest.EndpointEnv) == "" {
		b.Skip(dynamotest.EndpointEnv + " is not set; run: scripts/dynamodb-local run go test ./internal/bench/ -run '^$' -bench Bulk -benchtime 1x")
	}
	c := dynamotest.Client(b)
	name := dynamotest.TableName("Main")
	for _, t := range e2e.New(c, e2e.WithMainTable(name)).Tables() {
		if t.Name == "Main" {
			dynamotest.MakeTable(b, c, t.Create, t.TimeToLive)
			return c, name
		}
	}
	b.Fatal("Tables() has no table Main")
	return nil, ""
}

// bulkRun times fn, which handles bulkItems items, and reports items/s.
func bulkRun(b *testing.B, fn func() error) {
	b.ReportAllocs()
	for b.Loop() {
		if err := fn(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(bulkItems*b.N)/b.Elapsed().Seconds(), "items/s")
}

// BenchmarkBulk writes then reads 10,000 events: sequential, one
// PutEvent / GetEvent per item; batch/c=N, PutEvents / GetEvents of all
// of them with WithBatchConcurrency(N). Every pass writes the same items,
// replacing them; the reads find every item.
func BenchmarkBulk(b *testing.B) {
	c, table := newBulk(b)
	ctx := context.Background()
	evs, keys := bulkEvents()
	seq := e2e.New(c, e2e.WithMainTable(table))
	if err := seq.PutEvents(ctx, evs); err != nil {
		b.Fatal(err)
	}
	// Both ways read the same items.
	got, err := seq.GetEvents(ctx, keys)
	if err != nil {
		b.Fatal(err)
	}
	one, err := seq.GetEvent(ctx, keys[bulkItems-1])
	if err != nil {
		b.Fatal(err)
	}
	if len(got) != bulkItems || !got[bulkItems-1].At.Equal(one.At) || got[bulkItems-1].Note != one.Note {
		b.Fatalf("GetEvents: %d items, the last %+v; GetEvent: %+v", len(got), got[len(got)-1], *one)
	}

	put := func(b *testing.B) {
		b.Run("put/sequential", func(b *testing.B) {
			bulkRun(b, func() error {
				for i := range evs {
					if err := seq.PutEvent(ctx, &evs[i]); err != nil {
						return err
					}
				}
				return nil
			})
		})
		for _, n := range bulkConcurrencies() {
			s := e2e.New(c, e2e.WithMainTable(table), e2e.WithBatchConcurrency(n))
			b.Run(fmt.Sprintf("put/batch/c=%d", n), func(b *testing.B) {
				bulkRun(b, func() error { return s.PutEvents(ctx, evs) })
			})
		}
	}
	get := func(b *testing.B) {
		b.Run("get/sequential", func(b *testing.B) {
			bulkRun(b, func() error {
				for _, k := range keys {
					if _, err := seq.GetEvent(ctx, k); err != nil {
						return err
					}
				}
				return nil
			})
		})
		for _, n := range bulkConcurrencies() {
			s := e2e.New(c, e2e.WithMainTable(table), e2e.WithBatchConcurrency(n))
			b.Run(fmt.Sprintf("get/batch/c=%d", n), func(b *testing.B) {
				bulkRun(b, func() error {
					got, err := s.GetEvents(ctx, keys)
					if err == nil && len(got) != bulkItems {
						err = errors.New("GetEvents: an item is missing")
					}
					return err
				})
			})
		}
	}
	if *bulkReverse {
		get(b)
		put(b)
	} else {
		put(b)
		get(b)
	}
}

// bulkRTT is the time BenchmarkBulkLatency adds to every request.
var bulkRTT = flag.Duration("bulk.rtt", 10*time.Millisecond, "the latency BenchmarkBulkLatency adds to each request")

// slowClient adds a fixed latency to every batch request, as the network
// and the service do to a request to DynamoDB, which DynamoDB Local on
// the same machine lacks.
type slowClient struct {
	*dynamodb.Client
	rtt time.Duration
}

func (c slowClient) wait(ctx context.Context) error {
	t := time.NewTimer(c.rtt)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

func (c slowClient) BatchGetItem(ctx context.Context, in *dynamodb.BatchGetItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	if err := c.wait(ctx); err != nil {
		return nil, err
	}
	return c.Client.BatchGetItem(ctx, in, optFns...)
}

func (c slowClient) BatchWriteItem(ctx context.Context, in *dynamodb.BatchWriteItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	if err := c.wait(ctx); err != nil {
		return nil, err
	}
	return c.Client.BatchWriteItem(ctx, in, optFns...)
}

// BenchmarkBulkLatency is BenchmarkBulk's batch variants with -bulk.rtt
// added to every request: how the concurrency pays where each request
// waits on the network, not on a server sharing the client's CPU. (The
// sequential loop, 10,000 round trips, is left out.)
func BenchmarkBulkLatency(b *testing.B) {
	c, table := newBulk(b)
	ctx := context.Background()
	evs, keys := bulkEvents()
	slow := slowClient{c, *bulkRTT}
	if err := e2e.New(slow, e2e.WithMainTable(table)).PutEvents(ctx, evs); err != nil {
		b.Fatal(err)
	}
	for _, op := range []string{"put", "get"} {
		for _, n := range bulkConcurrencies() {
			s := e2e.New(slow, e2e.WithMainTable(table), e2e.WithBatchConcurrency(n))
			b.Run(fmt.Sprintf("%s/batch/c=%d", op, n), func(b *testing.B) {
				bulkRun(b, func() error {
					if op == "put" {
						return s.PutEvents(ctx, evs)
					}
					got, err := s.GetEvents(ctx, keys)
					if err == nil && len(got) != bulkItems {
						err = errors.New("GetEvents: an item is missing")
					}
					return err
				})
			})
		}
	}
}

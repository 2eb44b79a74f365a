package e2e

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dyngen/dyngen/internal/dynamotest"
)

// flakyClient stands between the store and DynamoDB Local: it fails every
// throttleEvery-th batch call with ProvisionedThroughputExceededException
// (sending nothing), and of the other batch calls it sends only the first
// two thirds of the keys or items, returning the rest as unprocessed, as
// DynamoDB does under load. It counts what reaches DynamoDB.
type flakyClient struct {
	Client
	throttleEvery int

	mu        sync.Mutex
	calls     int
	throttled int
	held      int
	sent      map[string]int // key -> times sent to DynamoDB
}

func newFlaky(c Client, throttleEvery int) *flakyClient {
	return &flakyClient{Client: c, throttleEvery: throttleEvery, sent: map[string]int{}}
}

// itemKey identifies an item's key in the counts.
func itemKey(item map[string]types.AttributeValue) string {
	var s string
	for _, n := range []string{"PK", "SK", "deviceId", "seq"} {
		switch v := item[n].(type) {
		case *types.AttributeValueMemberS:
			s += n + "=" + v.Value + ";"
		case *types.AttributeValueMemberN:
			s += n + "=" + v.Value + ";"
		}
	}
	return s
}

// turn decides the fate of one call: throttle it, or send how many of n.
func (f *flakyClient) turn(n int) (throttle bool, send int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	if f.throttleEvery > 0 && f.calls%f.throttleEvery == 0 {
		f.throttled++
		return true, 0
	}
	send = n - n/3
	f.held += n - send
	return false, send
}

func (f *flakyClient) count(items []map[string]types.AttributeValue) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, it := range items {
		f.sent[itemKey(it)]++
	}
}

func (f *flakyClient) BatchGetItem(ctx context.Context, in *dynamodb.BatchGetItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	total := 0
	for _, ka := range in.RequestItems {
		total += len(ka.Keys)
	}
	throttle, send := f.turn(total)
	if throttle {
		return nil, &types.ProvisionedThroughputExceededException{Message: aws.String("e2e: throttled")}
	}
	real := &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{}, ReturnConsumedCapacity: in.ReturnConsumedCapacity}
	held := map[string]types.KeysAndAttributes{}
	for table, ka := range in.RequestItems {
		k := min(send, len(ka.Keys))
		send -= k
		sent, rest := ka, ka
		sent.Keys, rest.Keys = ka.Keys[:k], ka.Keys[k:]
		if len(sent.Keys) > 0 {
			real.RequestItems[table] = sent
		}
		if len(rest.Keys) > 0 {
			held[table] = rest
		}
	}
	out := &dynamodb.BatchGetItemOutput{Responses: map[string][]map[string]types.AttributeValue{}}
	if len(real.RequestItems) > 0 {
		for _, ka := range real.RequestItems {
			f.count(ka.Keys)
		}
		var err error
		out, err = f.Client.BatchGetItem(ctx, real, optFns...)
		if err != nil {
			return nil, err
		}
	}
	if out.UnprocessedKeys == nil {
		out.UnprocessedKeys = map[string]types.KeysAndAttributes{}
	}
	for table, ka := range held {
		if u, ok := out.UnprocessedKeys[table]; ok {
			ka.Keys = append(append([]map[string]types.AttributeValue(nil), u.Keys...), ka.Keys...)
		}
		out.UnprocessedKeys[table] = ka
	}
	return out, nil
}

func (f *flakyClient) BatchWriteItem(ctx context.Context, in *dynamodb.BatchWriteItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	total := 0
	for _, reqs := range in.RequestItems {
		total += len(reqs)
	}
	throttle, send := f.turn(total)
	if throttle {
		return nil, &types.ProvisionedThroughputExceededException{Message: aws.String("e2e: throttled")}
	}
	real := &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{}}
	held := map[string][]types.WriteRequest{}
	for table, reqs := range in.RequestItems {
		k := min(send, len(reqs))
		send -= k
		if k > 0 {
			real.RequestItems[table] = reqs[:k]
		}
		if k < len(reqs) {
			held[table] = reqs[k:]
		}
	}
	out := &dynamodb.BatchWriteItemOutput{}
	if len(real.RequestItems) > 0 {
		for _, reqs := range real.RequestItems {
			for _, r := range reqs {
				switch {
				case r.PutRequest != nil:
					f.count([]map[string]types.AttributeValue{r.PutRequest.Item})
				case r.DeleteRequest != nil:
					f.count([]map[string]types.AttributeValue{r.DeleteRequest.Key})
				}
			}
		}
		var err error
		out, err = f.Client.BatchWriteItem(ctx, real, optFns...)
		if err != nil {
			return nil, err
		}
	}
	if out.UnprocessedItems == nil {
		out.UnprocessedItems = map[string][]types.WriteRequest{}
	}
	for table, reqs := range held {
		out.UnprocessedItems[table] = append(out.UnprocessedItems[table], reqs...)
	}
	return out, nil
}

// sentOnce checks that every key reached DynamoDB exactly once, and
// returns how many keys did.
func (f *flakyClient) sentOnce(t *testing.T, what string) int {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	for k, n := range f.sent {
		if n != 1 {
			t.Errorf("%s: key %s sent %d times", what, k, n)
		}
	}
	n := len(f.sent)
	f.sent = map[string]int{}
	return n
}

func TestBatchRetries(t *testing.T) {
	t.Parallel()
	var flaky *flakyClient
	s, _ := newStore(t, func(c Client) Client {
		flaky = newFlaky(c, 4)
		return flaky
	})
	ctx := t.Context()

	const n = 160
	evs := make([]Event, n)
	keys := make([]EventKey, n)
	for i := range evs {
		evs[i] = Event{OwnerID: fmt.Sprint("o", i%2), Seq: int64(n/2 - i), At: time.Unix(int64(i), 5), Note: fmt.Sprint("note ", i)}
		keys[i] = EventKey{evs[i].OwnerID, evs[i].Seq}
	}
	must(t, s.PutEvents(ctx, evs))
	if got := flaky.sentOnce(t, "PutEvents"); got != n {
		t.Errorf("PutEvents sent %d items, want %d", got, n)
	}
	if flaky.throttled == 0 || flaky.held == 0 {
		t.Fatalf("the flaky client throttled %d calls and held %d items back: the retries were not exercised", flaky.throttled, flaky.held)
	}
	// Every item is there once, read without the flaky client's batch
	// calls (a Query).
	got := append(collect(t, s.EventsAll(ctx, "o0")), collect(t, s.EventsAll(ctx, "o1"))...)
	if len(got) != n {
		t.Fatalf("after PutEvents: %d events, want %d", len(got), n)
	}

	read, err := s.GetEvents(ctx, keys)
	must(t, err)
	if got := flaky.sentOnce(t, "GetEvents"); got != n {
		t.Errorf("GetEvents sent %d keys, want %d", got, n)
	}
	if len(read) != n {
		t.Fatalf("GetEvents: %d items, want %d", len(read), n)
	}
	for i := range evs {
		checkEvent(t, fmt.Sprintf("GetEvents[%d]", i), read[i], evs[i])
	}

	must(t, s.DeleteEvents(ctx, keys[:n/2]))
	if got := flaky.sentOnce(t, "DeleteEvents"); got != n/2 {
		t.Errorf("DeleteEvents sent %d keys, want %d", got, n/2)
	}
	read, err = s.GetEvents(ctx, keys)
	must(t, err)
	flaky.sentOnce(t, "GetEvents after DeleteEvents")
	if len(read) != n/2 {
		t.Fatalf("GetEvents after deleting half: %d items, want %d", len(read), n/2)
	}
	for i := range read {
		checkEvent(t, "GetEvents after DeleteEvents", read[i], evs[n/2+i])
	}

	// The natural-key table, with a consistent batch get.
	rs := make([]Reading, 60)
	rkeys := make([]ReadingKey, len(rs))
	for i := range rs {
		rs[i] = Reading{DeviceID: int64(i % 3), Seq: int64(-i), Value: float64(i) / 8, At: time.UnixMilli(int64(i))}
		rkeys[i] = ReadingKey{rs[i].DeviceID, rs[i].Seq}
	}
	must(t, s.PutReadings(ctx, rs))
	flaky.sentOnce(t, "PutReadings")
	gotR, err := s.GetReadings(ctx, rkeys)
	must(t, err)
	flaky.sentOnce(t, "GetReadings")
	if len(gotR) != len(rs) {
		t.Fatalf("GetReadings: %d, want %d", len(gotR), len(rs))
	}
	for i := range rs {
		checkReading(t, "GetReadings", gotR[i], rs[i])
	}
}

// alwaysThrottled refuses every batch call for load.
type alwaysThrottled struct{ Client }

func (alwaysThrottled) BatchGetItem(context.Context, *dynamodb.BatchGetItemInput, ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	return nil, &types.ProvisionedThroughputExceededException{Message: aws.String("e2e: throttled")}
}

func (alwaysThrottled) BatchWriteItem(context.Context, *dynamodb.BatchWriteItemInput, ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	return nil, &types.ProvisionedThroughputExceededException{Message: aws.String("e2e: throttled")}
}

// expiringCtx is a context whose deadline passes when the test says, not
// when a clock does: expire ends it with context.DeadlineExceeded.
type expiringCtx struct {
	context.Context
	done chan struct{}
	once sync.Once
}

func newExpiringCtx(parent context.Context) *expiringCtx {
	return &expiringCtx{Context: parent, done: make(chan struct{})}
}

func (c *expiringCtx) Done() <-chan struct{} { return c.done }

func (c *expiringCtx) Err() error {
	select {
	case <-c.done:
		return context.DeadlineExceeded
	default:
		return nil
	}
}

func (c *expiringCtx) expire() { c.once.Do(func() { close(c.done) }) }

// throttledUntil refuses every batch call for load, and passes the
// deadline of ctx at its second call.
type throttledUntil struct {
	alwaysThrottled
	ctx   *expiringCtx
	calls atomic.Int64
}

func (c *throttledUntil) BatchGetItem(ctx context.Context, in *dynamodb.BatchGetItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	if c.calls.Add(1) == 2 {
		c.ctx.expire()
	}
	return c.alwaysThrottled.BatchGetItem(ctx, in, opts...)
}

func (c *throttledUntil) BatchWriteItem(ctx context.Context, in *dynamodb.BatchWriteItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	if c.calls.Add(1) == 2 {
		c.ctx.expire()
	}
	return c.alwaysThrottled.BatchWriteItem(ctx, in, opts...)
}

func TestBatchGivesUp(t *testing.T) {
	t.Parallel()
	evs := []Event{{OwnerID: "o", Seq: 1, At: time.Unix(1, 0)}, {OwnerID: "o", Seq: 2, At: time.Unix(1, 0)}}
	keys := []EventKey{{"o", 1}, {"o", 2}}

	// With a deadline, the context's error, if the deadline comes first:
	// it comes after the second request, whatever the time.
	for _, op := range []string{"put", "get"} {
		ctx := newExpiringCtx(t.Context())
		s := newChecked(t, &throttledUntil{ctx: ctx}, WithMainTable("Main"))
		var err error
		if op == "put" {
			err = s.PutEvents(ctx, evs)
		} else {
			_, err = s.GetEvents(ctx, keys)
		}
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("%s, always throttled: %v, want the context's deadline", op, err)
		}
	}

	// With none, the attempts run out: in a synctest bubble, whose clock
	// moves only when every goroutine waits, so the backoffs take no time.
	t.Run("no deadline", func(t *testing.T) {
		for _, op := range []string{"put", "get"} {
			t.Run(op, func(t *testing.T) {
				t.Parallel()
				synctest.Test(t, func(t *testing.T) {
					s := newChecked(t, alwaysThrottled{}, WithMainTable("Main"))
					var err error
					if op == "put" {
						err = s.PutEvents(context.Background(), evs)
					} else {
						var got []Event
						got, err = s.GetEvents(context.Background(), keys)
						if len(got) != 0 {
							t.Errorf("%d events read", len(got))
						}
					}
					if !errors.Is(err, ErrRetriesExhausted) {
						t.Fatalf("%v, want ErrRetriesExhausted", err)
					}
					var pt *types.ProvisionedThroughputExceededException
					if !errors.As(err, &pt) {
						t.Errorf("%v does not wrap the last throttling error", err)
					}
					be := batchErr(t, err)
					checkIndexes(t, "NotDone", be.NotDone, []int{0, 1})
					checkIndexes(t, "Unknown", be.Unknown, nil)
				})
			})
		}
	})

	// Errors other than throttling end the batch at once, wrapped.
	c := dynamotest.Client(t)
	s := newChecked(t, c, WithMainTable("e2e-no-such-table"))
	err := s.PutEvents(t.Context(), evs)
	var rnf *types.ResourceNotFoundException
	if !errors.As(err, &rnf) {
		t.Errorf("PutEvents to a missing table: %v, want a ResourceNotFoundException", err)
	}
	// DynamoDB refused the request: nothing was written, and that is known.
	be := batchErr(t, err)
	checkIndexes(t, "NotDone", be.NotDone, []int{0, 1})
	checkIndexes(t, "Unknown", be.Unknown, nil)
	_, err = s.GetEvents(t.Context(), keys)
	if code := dynamotest.ErrorCode(err); code != "ResourceNotFoundException" {
		t.Errorf("GetEvents from a missing table: error code %q (%v)", code, err)
	}
}

// batchErr returns err's *BatchError, failing t if there is none.
func batchErr(t *testing.T, err error) *BatchError {
	t.Helper()
	var be *BatchError
	if !errors.As(err, &be) {
		t.Fatalf("%v: no *BatchError", err)
	}
	return be
}

func checkIndexes(t *testing.T, what string, got, want []int) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

// peakClient counts the batch requests in flight at once. before, when
// set, is called with each request's number (from 1) and may return
// another table to send it to.
type peakClient struct {
	Client
	before func(call int) (table string)

	mu       sync.Mutex
	calls    int
	inFlight int
	peak     int
}

func (p *peakClient) enter() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.inFlight++
	p.peak = max(p.peak, p.inFlight)
	p.calls++
	return p.calls
}

func (p *peakClient) leave() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.inFlight--
}

func (p *peakClient) BatchGetItem(ctx context.Context, in *dynamodb.BatchGetItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	call := p.enter()
	defer p.leave()
	if p.before != nil {
		if table := p.before(call); table != "" {
			for _, ka := range in.RequestItems {
				in.RequestItems = map[string]types.KeysAndAttributes{table: ka}
			}
		}
	}
	return p.Client.BatchGetItem(ctx, in, optFns...)
}

func (p *peakClient) BatchWriteItem(ctx context.Context, in *dynamodb.BatchWriteItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	call := p.enter()
	defer p.leave()
	if p.before != nil {
		if table := p.before(call); table != "" {
			for _, reqs := range in.RequestItems {
				in.RequestItems = map[string][]types.WriteRequest{table: reqs}
			}
		}
	}
	return p.Client.BatchWriteItem(ctx, in, optFns...)
}

// storedEvents reads every event of the owners with a Query, by key.
func storedEvents(t *testing.T, s *Store, owners ...string) map[EventKey]Event {
	t.Helper()
	out := map[EventKey]Event{}
	for _, o := range owners {
		for _, e := range collect(t, s.EventsAll(t.Context(), o)) {
			out[EventKey{e.OwnerID, e.Seq}] = e
		}
	}
	return out
}

func manyEvents(n int) ([]Event, []EventKey) {
	evs := make([]Event, n)
	keys := make([]EventKey, n)
	for i := range evs {
		evs[i] = Event{OwnerID: fmt.Sprint("o", i%3), Seq: int64(i - n/2), At: time.Unix(int64(i), 7), Note: fmt.Sprint("note ", i)}
		keys[i] = EventKey{evs[i].OwnerID, evs[i].Seq}
	}
	return evs, keys
}

// TestBatchConcurrent: a large batch is sent WithBatchConcurrency
// requests at a time, no more; the reads come back in the order of the
// keys whatever order the chunks were done in.
func TestBatchConcurrent(t *testing.T) {
	t.Parallel()
	for _, workers := range []int{1, 4} {
		t.Run(fmt.Sprint("workers ", workers), func(t *testing.T) {
			t.Parallel()
			var peak *peakClient
			s, _ := newStore(t, func(c Client) Client {
				peak = &peakClient{Client: c}
				return peak
			}, WithBatchConcurrency(workers))
			if workers > 1 {
				// The first request waits for the second: sent side by
				// side, whatever the scheduling (sent one at a time, the
				// test would hang until go test's -timeout).
				second := make(chan struct{})
				peak.before = func(call int) string {
					switch call {
					case 1:
						<-second
					case 2:
						close(second)
					}
					return ""
				}
			}
			ctx := t.Context()
			const n = 1000
			evs, keys := manyEvents(n)
			must(t, s.PutEvents(ctx, evs))
			if peak.calls != n/25 {
				t.Errorf("PutEvents: %d requests, want %d", peak.calls, n/25)
			}
			if got := storedEvents(t, s, "o0", "o1", "o2"); len(got) != n {
				t.Fatalf("%d events stored, want %d", len(got), n)
			}
			// The keys shuffled, with some twice: the items come back in
			// their order, each key once, at its first place.
			order := rand.New(rand.NewPCG(1, 2)).Perm(n)
			var ks []EventKey
			for _, i := range order {
				ks = append(ks, keys[i])
			}
			ks = append(ks, ks[:50]...)
			got, err := s.GetEvents(ctx, ks)
			must(t, err)
			if len(got) != n {
				t.Fatalf("GetEvents: %d events, want %d", len(got), n)
			}
			for j, i := range order {
				checkEvent(t, fmt.Sprintf("GetEvents[%d]", j), got[j], evs[i])
			}
			must(t, s.DeleteEvents(ctx, keys))
			if got := storedEvents(t, s, "o0", "o1", "o2"); len(got) != 0 {
				t.Errorf("%d events left after DeleteEvents", len(got))
			}
			switch {
			case peak.peak > workers:
				t.Errorf("%d requests in flight at once, over %d", peak.peak, workers)
			case workers > 1 && peak.peak < 2:
				t.Errorf("at most %d request in flight at once with %d allowed", peak.peak, workers)
			}
			t.Logf("%d requests, at most %d at once", peak.calls, peak.peak)
		})
	}
}

// TestBatchPartialFailure: one request of a batch is refused by DynamoDB
// (sent to a table that does not exist): the batch stops, and its
// BatchError tells exactly which items were written, as DynamoDB holds
// them.
func TestBatchPartialFailure(t *testing.T) {
	t.Parallel()
	var peak *peakClient
	s, _ := newStore(t, func(c Client) Client {
		peak = &peakClient{Client: c}
		return peak
	}, WithBatchConcurrency(3))
	peak.before = func(call int) string {
		if call == 4 {
			return "e2e-no-such-table"
		}
		return ""
	}
	ctx := t.Context()
	const n = 500
	evs, keys := manyEvents(n)
	err := s.PutEvents(ctx, evs)
	var rnf *types.ResourceNotFoundException
	if !errors.As(err, &rnf) {
		t.Fatalf("PutEvents: %v, want the ResourceNotFoundException", err)
	}
	be := batchErr(t, err)
	if len(be.Unknown) != 0 || len(be.NotDone) < 25 || be.Method != "PutEvents" || be.Item != -1 {
		t.Errorf("PutEvents: %d not done, %d unknown, method %q, item %d", len(be.NotDone), len(be.Unknown), be.Method, be.Item)
	}
	// That no chunk starts after the failure depends on when the workers
	// run here; TestBatchFailureStopsOthers (generator/runtime) proves it
	// on a clock of its own.
	stored := storedEvents(t, s, "o0", "o1", "o2")
	for i, k := range keys {
		_, ok := stored[k]
		if notDone := slices.Contains(be.NotDone, i); ok == notDone {
			t.Errorf("item %d: stored %v, reported not written %v", i, ok, notDone)
		}
	}
	t.Logf("%d requests; %d items written, %d not", peak.calls, len(stored), len(be.NotDone))

	// A read that fails the same way returns the items it read, and the
	// keys not read.
	must(t, s.PutEvents(ctx, evs))
	peak.mu.Lock()
	peak.calls = 0
	peak.mu.Unlock()
	peak.before = func(call int) string {
		if call == 2 {
			return "e2e-no-such-table"
		}
		return ""
	}
	got, err := s.GetEvents(ctx, keys)
	be = batchErr(t, err)
	if !errors.As(err, &rnf) || len(be.NotDone) < 100 || len(be.Unknown) != 0 {
		t.Fatalf("GetEvents: %v, %d keys not read", err, len(be.NotDone))
	}
	j := 0
	for i := range keys {
		if slices.Contains(be.NotDone, i) {
			continue
		}
		if j >= len(got) {
			t.Fatalf("GetEvents returned %d events, fewer than the %d keys read", len(got), n-len(be.NotDone))
		}
		checkEvent(t, fmt.Sprintf("GetEvents: key %d", i), got[j], evs[i])
		j++
	}
	if j != len(got) {
		t.Errorf("GetEvents returned %d events for %d keys read", len(got), j)
	}
}

// TestBatchCancelMidway: the caller's context ends while a batch is in
// flight. The items reported written are stored, those reported not
// written are not; the others' fate is unknown.
func TestBatchCancelMidway(t *testing.T) {
	t.Parallel()
	var peak *peakClient
	s, _ := newStore(t, func(c Client) Client {
		peak = &peakClient{Client: c}
		return peak
	}, WithBatchConcurrency(4))
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	peak.before = func(call int) string {
		if call == 6 {
			cancel()
		}
		return ""
	}
	const n = 500
	evs, keys := manyEvents(n)
	err := s.PutEvents(ctx, evs)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("PutEvents: %v, want context.Canceled", err)
	}
	be := batchErr(t, err)
	if len(be.NotDone) == 0 || len(be.Unknown) == 0 {
		t.Errorf("%d not written, %d unknown: want some of each", len(be.NotDone), len(be.Unknown))
	}
	stored := storedEvents(t, s, "o0", "o1", "o2")
	written := 0
	for i, k := range keys {
		_, ok := stored[k]
		switch {
		case slices.Contains(be.Unknown, i):
		case slices.Contains(be.NotDone, i):
			if ok {
				t.Errorf("item %d reported not written is stored", i)
			}
		default:
			written++
			if !ok {
				t.Errorf("item %d reported written is not stored", i)
			}
		}
	}
	// The sixth request starts once two have ended: their chunks are
	// done.
	if written < 2*25 {
		t.Errorf("%d items reported written, want the 2 chunks done before the cancel at least", written)
	}
	t.Logf("%d written, %d not, %d unknown", written, len(be.NotDone), len(be.Unknown))
}

// TestBatchItemErrors: a value refused before any call is named by the
// method and its index, not its value; nothing is sent.
func TestBatchItemErrors(t *testing.T) {
	t.Parallel()
	var peak *peakClient
	s, _ := newStore(t, func(c Client) Client {
		peak = &peakClient{Client: c}
		return peak
	})
	keys := []EventKey{{"a", 1}, {"b", 2}, {"c", 3}, {"", 4}, {"e", 5}}
	_, err := s.GetEvents(t.Context(), keys)
	if want := "dyngen: GetEvents: item 3: invalid key value for ownerId: empty"; err == nil || err.Error() != want {
		t.Errorf("GetEvents: %v, want %q", err, want)
	}
	var ke *KeyError
	if !errors.As(err, &ke) || !errors.Is(err, ErrInvalidKey) {
		t.Errorf("GetEvents: %v is no KeyError", err)
	}
	be := batchErr(t, err)
	if be.Item != 3 {
		t.Errorf("Item %d, want 3", be.Item)
	}
	checkIndexes(t, "NotDone", be.NotDone, []int{0, 1, 2, 3, 4})

	keys[3].OwnerID = "x#y"
	err = s.DeleteEvents(t.Context(), keys)
	if want := "dyngen: DeleteEvents: item 3: invalid key value for ownerId: holds '#', a separator of its key"; err == nil || err.Error() != want {
		t.Errorf("DeleteEvents: %v, want %q", err, want)
	}
	evs, _ := manyEvents(5)
	evs[2].OwnerID = "secret\xff"
	err = s.PutEvents(t.Context(), evs)
	if err == nil || !strings.HasPrefix(err.Error(), "dyngen: PutEvents: item 2: ") || strings.Contains(err.Error(), "secret") {
		t.Errorf("PutEvents: %v, want item 2 named, not its value", err)
	}
	if peak.calls != 0 {
		t.Errorf("%d requests sent", peak.calls)
	}
}

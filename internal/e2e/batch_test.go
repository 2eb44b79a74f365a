package e2e

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
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

func TestBatchGivesUp(t *testing.T) {
	t.Parallel()
	s := New(alwaysThrottled{}, WithMainTable("Main"))
	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	err := s.PutEvents(ctx, []Event{{OwnerID: "o", Seq: 1, At: time.Unix(1, 0)}})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("PutEvents, always throttled: %v, want the context's deadline", err)
	}
	_, err = s.GetEvents(ctx, []EventKey{{"o", 1}})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("GetEvents, always throttled: %v, want the context's deadline", err)
	}

	// Errors other than throttling end the batch at once, wrapped.
	c := dynamotest.Client(t)
	s = New(c, WithMainTable("e2e-no-such-table"))
	err = s.PutEvents(t.Context(), []Event{{OwnerID: "o", Seq: 1, At: time.Unix(1, 0)}})
	var rnf *types.ResourceNotFoundException
	if !errors.As(err, &rnf) {
		t.Errorf("PutEvents to a missing table: %v, want a ResourceNotFoundException", err)
	}
	_, err = s.GetEvents(t.Context(), []EventKey{{"o", 1}})
	if code := dynamotest.ErrorCode(err); code != "ResourceNotFoundException" {
		t.Errorf("GetEvents from a missing table: error code %q (%v)", code, err)
	}
}

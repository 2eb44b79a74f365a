package runtime

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
)

const fakeTable = "tbl"

// fakeDB is a BatchGetItem/BatchWriteItem endpoint that leaves a random
// part of each request unprocessed and sometimes throttles a whole request,
// but never more than maxBad times for one key, so that the loops end
// quickly. It records every request and what it served.
type fakeDB struct {
	t *testing.T

	mu        sync.Mutex
	rng       *rand.Rand
	maxBad    int     // times a key may be left unprocessed or throttled; < 0: always
	unprocP   float64 // chance that a key is left unprocessed
	throttleP float64 // chance that a request is throttled whole
	fail      func(call int, ids []string) error

	calls      int
	getReqs    [][]string // ids of each BatchGetItem request
	writeReqs  [][]string // ids of each BatchWriteItem request
	bad        map[string]int
	served     map[string]int // times an id was read or written
	throttles  int
	unprocSent int
}

func newFakeDB(t *testing.T, seed uint64) *fakeDB {
	return &fakeDB{
		t:         t,
		rng:       rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)),
		maxBad:    3,
		unprocP:   0.3,
		throttleP: 0.15,
		bad:       map[string]int{},
		served:    map[string]int{},
	}
}

// The throttling errors DynamoDB returns, as the SDK wraps them.
func throttleError(i int) error {
	var err error
	switch i % 3 {
	case 0:
		err = &types.ProvisionedThroughputExceededException{Message: aws.String("slow down")}
	case 1:
		err = &types.ThrottlingException{Message: aws.String("slow down")}
	default:
		err = &types.RequestLimitExceeded{Message: aws.String("slow down")}
	}
	return &smithy.OperationError{ServiceID: "DynamoDB", OperationName: "Batch", Err: err}
}

func keyID(k map[string]types.AttributeValue) string {
	pk, ok := k["pk"].(*types.AttributeValueMemberS)
	if !ok {
		return "?"
	}
	return pk.Value
}

func testKey(i int) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{
		"pk": &types.AttributeValueMemberS{Value: "K" + strconv.Itoa(i)},
		"sk": &types.AttributeValueMemberN{Value: strconv.Itoa(i)},
	}
}

// decide returns which of ids to process, or a throttling error for the
// whole request. The caller holds mu.
func (f *fakeDB) decide(ids []string) (process []bool, err error) {
	canFail := func(id string) bool { return f.maxBad < 0 || f.bad[id] < f.maxBad }
	all := true
	for _, id := range ids {
		all = all && canFail(id)
	}
	if all && f.rng.Float64() < f.throttleP {
		for _, id := range ids {
			f.bad[id]++
		}
		f.throttles++
		return nil, throttleError(f.throttles)
	}
	process = make([]bool, len(ids))
	for i, id := range ids {
		if canFail(id) && f.rng.Float64() < f.unprocP {
			f.bad[id]++
			f.unprocSent++
			continue
		}
		process[i] = true
	}
	return process, nil
}

func (f *fakeDB) BatchGetItem(ctx context.Context, in *dynamodb.BatchGetItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	if len(in.RequestItems) != 1 {
		f.t.Errorf("BatchGetItem with %d tables", len(in.RequestItems))
	}
	ka, ok := in.RequestItems[fakeTable]
	if !ok {
		f.t.Errorf("BatchGetItem without table %q: %v", fakeTable, in.RequestItems)
	}
	ids := make([]string, len(ka.Keys))
	seen := map[string]bool{}
	for i, k := range ka.Keys {
		ids[i] = keyID(k)
		if seen[ids[i]] {
			f.t.Errorf("BatchGetItem request %d holds key %s twice", len(f.getReqs), ids[i])
		}
		seen[ids[i]] = true
		if f.served[ids[i]] > 0 {
			f.t.Errorf("BatchGetItem request %d asks again for key %s, already served", len(f.getReqs), ids[i])
		}
	}
	f.getReqs = append(f.getReqs, ids)
	if len(ids) == 0 {
		f.t.Errorf("BatchGetItem request %d is empty (DynamoDB refuses those)", len(f.getReqs)-1)
	}
	if len(ids) > 100 {
		f.t.Errorf("BatchGetItem request %d has %d keys, over 100", len(f.getReqs)-1, len(ids))
	}
	if ka.ConsistentRead == nil || !*ka.ConsistentRead {
		f.t.Errorf("BatchGetItem request %d: ConsistentRead = %v, want true", len(f.getReqs)-1, ka.ConsistentRead)
	}
	if aws.ToString(ka.ProjectionExpression) != "#a, sk" || ka.ExpressionAttributeNames["#a"] != "pk" {
		f.t.Errorf("BatchGetItem request %d: projection %q, names %v", len(f.getReqs)-1, aws.ToString(ka.ProjectionExpression), ka.ExpressionAttributeNames)
	}
	if f.fail != nil {
		if err := f.fail(f.calls-1, ids); err != nil {
			return nil, err
		}
	}
	process, err := f.decide(ids)
	if err != nil {
		return nil, err
	}
	out := &dynamodb.BatchGetItemOutput{Responses: map[string][]map[string]types.AttributeValue{}}
	var unproc []map[string]types.AttributeValue
	for i, k := range ka.Keys {
		if !process[i] {
			unproc = append(unproc, k)
			continue
		}
		f.served[ids[i]]++
		item := map[string]types.AttributeValue{"data": &types.AttributeValueMemberS{Value: "item of " + ids[i]}}
		for n, v := range k {
			item[n] = v
		}
		out.Responses[fakeTable] = append(out.Responses[fakeTable], item)
	}
	// Shuffle the answers, as DynamoDB does not keep the order.
	f.rng.Shuffle(len(out.Responses[fakeTable]), func(i, j int) {
		r := out.Responses[fakeTable]
		r[i], r[j] = r[j], r[i]
	})
	if len(unproc) > 0 {
		out.UnprocessedKeys = map[string]types.KeysAndAttributes{fakeTable: {Keys: unproc, ProjectionExpression: ka.ProjectionExpression}}
	} else if f.rng.IntN(2) == 0 {
		out.UnprocessedKeys = map[string]types.KeysAndAttributes{} // DynamoDB sends an empty map
	}
	return out, nil
}

func (f *fakeDB) BatchWriteItem(ctx context.Context, in *dynamodb.BatchWriteItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	if len(in.RequestItems) != 1 {
		f.t.Errorf("BatchWriteItem with %d tables", len(in.RequestItems))
	}
	reqs, ok := in.RequestItems[fakeTable]
	if !ok {
		f.t.Errorf("BatchWriteItem without table %q", fakeTable)
	}
	ids := make([]string, len(reqs))
	seen := map[string]bool{}
	for i, r := range reqs {
		switch {
		case r.PutRequest != nil && r.DeleteRequest == nil:
			ids[i] = keyID(r.PutRequest.Item)
			if d, ok := r.PutRequest.Item["data"].(*types.AttributeValueMemberS); !ok || d.Value != "v"+ids[i] {
				f.t.Errorf("BatchWriteItem: put of %s with data %v", ids[i], r.PutRequest.Item["data"])
			}
		case r.DeleteRequest != nil && r.PutRequest == nil:
			ids[i] = keyID(r.DeleteRequest.Key)
		default:
			f.t.Errorf("BatchWriteItem: malformed request %d", i)
		}
		if seen[ids[i]] {
			f.t.Errorf("BatchWriteItem request %d holds %s twice", len(f.writeReqs), ids[i])
		}
		seen[ids[i]] = true
		if f.served[ids[i]] > 0 {
			f.t.Errorf("BatchWriteItem request %d writes %s again", len(f.writeReqs), ids[i])
		}
	}
	f.writeReqs = append(f.writeReqs, ids)
	if len(ids) == 0 {
		f.t.Errorf("BatchWriteItem request %d is empty (DynamoDB refuses those)", len(f.writeReqs)-1)
	}
	if len(ids) > 25 {
		f.t.Errorf("BatchWriteItem request %d has %d writes, over 25", len(f.writeReqs)-1, len(ids))
	}
	if f.fail != nil {
		if err := f.fail(f.calls-1, ids); err != nil {
			return nil, err
		}
	}
	process, err := f.decide(ids)
	if err != nil {
		return nil, err
	}
	out := &dynamodb.BatchWriteItemOutput{}
	var unproc []types.WriteRequest
	for i, r := range reqs {
		if !process[i] {
			unproc = append(unproc, r)
			continue
		}
		f.served[ids[i]]++
	}
	if len(unproc) > 0 {
		out.UnprocessedItems = map[string][]types.WriteRequest{fakeTable: unproc}
	} else if f.rng.IntN(2) == 0 {
		out.UnprocessedItems = map[string][]types.WriteRequest{}
	}
	return out, nil
}

var projNames = map[string]string{"#a": "pk"}

func TestBatchGetEveryKeyOnce(t *testing.T) {
	for _, n := range []int{0, 1, 99, 100, 101, 250} {
		for seed := range uint64(2) {
			t.Run(fmt.Sprintf("%d keys seed %d", n, seed), func(t *testing.T) {
				t.Parallel()
				f := newFakeDB(t, uint64(n)*10+seed)
				keys := make([]map[string]types.AttributeValue, n)
				for i := range keys {
					keys[i] = testKey(i)
				}
				ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
				defer cancel()
				items, err := batchGet(ctx, f, fakeTable, keys, true, "#a, sk", projNames)
				if err != nil {
					t.Fatalf("batchGet: %v", err)
				}
				got := map[string]int{}
				for _, it := range items {
					id := keyID(it)
					got[id]++
					if d, _ := it["data"].(*types.AttributeValueMemberS); d == nil || d.Value != "item of "+id {
						t.Errorf("item %s has data %v", id, it["data"])
					}
				}
				if len(items) != n {
					t.Errorf("batchGet returned %d items for %d keys", len(items), n)
				}
				for i := range n {
					id := keyID(testKey(i))
					if got[id] != 1 || f.served[id] != 1 {
						t.Errorf("key %s: returned %d times, served %d times", id, got[id], f.served[id])
					}
				}
				// Each chunk of 100 is done before the next starts: every
				// request holds keys of one chunk.
				for r, ids := range f.getReqs {
					chunk := -1
					for _, id := range ids {
						i, _ := strconv.Atoi(id[1:])
						if chunk >= 0 && i/100 != chunk {
							t.Errorf("request %d mixes chunks", r)
						}
						chunk = i / 100
					}
				}
				if n == 0 && len(f.getReqs) != 0 {
					t.Errorf("%d requests for no keys", len(f.getReqs))
				}
				if n > 0 && len(f.getReqs) < (n+99)/100 {
					t.Errorf("%d requests for %d keys", len(f.getReqs), n)
				}
				t.Logf("%d requests, %d throttled, %d keys left unprocessed", len(f.getReqs), f.throttles, f.unprocSent)
			})
		}
	}
}

func TestBatchWriteEveryRequestOnce(t *testing.T) {
	for _, n := range []int{0, 1, 24, 25, 26, 60} {
		for seed := range uint64(2) {
			t.Run(fmt.Sprintf("%d writes seed %d", n, seed), func(t *testing.T) {
				t.Parallel()
				f := newFakeDB(t, uint64(n)*10+seed+1000)
				reqs := make([]types.WriteRequest, n)
				for i := range reqs {
					k := testKey(i)
					if i%3 == 2 {
						reqs[i] = types.WriteRequest{DeleteRequest: &types.DeleteRequest{Key: k}}
					} else {
						k["data"] = &types.AttributeValueMemberS{Value: "v" + keyID(k)}
						reqs[i] = types.WriteRequest{PutRequest: &types.PutRequest{Item: k}}
					}
				}
				ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
				defer cancel()
				if err := batchWrite(ctx, f, fakeTable, reqs); err != nil {
					t.Fatalf("batchWrite: %v", err)
				}
				for i := range n {
					if id := keyID(testKey(i)); f.served[id] != 1 {
						t.Errorf("write %s done %d times", id, f.served[id])
					}
				}
				if len(f.served) != n {
					t.Errorf("%d distinct writes done, want %d", len(f.served), n)
				}
				for r, ids := range f.writeReqs {
					chunk := -1
					for _, id := range ids {
						i, _ := strconv.Atoi(id[1:])
						if chunk >= 0 && i/25 != chunk {
							t.Errorf("request %d mixes chunks", r)
						}
						chunk = i / 25
					}
				}
				if n == 0 && len(f.writeReqs) != 0 {
					t.Errorf("%d requests for no writes", len(f.writeReqs))
				}
				if n > 0 && len(f.writeReqs) < (n+24)/25 {
					t.Errorf("%d requests for %d writes", len(f.writeReqs), n)
				}
				t.Logf("%d requests, %d throttled, %d writes left unprocessed", len(f.writeReqs), f.throttles, f.unprocSent)
			})
		}
	}
}

// TestBatchFakeExercisesRetries guards the tests above: the fake must
// really leave keys unprocessed and throttle requests.
func TestBatchFakeExercisesRetries(t *testing.T) {
	t.Parallel()
	f := newFakeDB(t, 42)
	keys := make([]map[string]types.AttributeValue, 250)
	for i := range keys {
		keys[i] = testKey(i)
	}
	if _, err := batchGet(t.Context(), f, fakeTable, keys, true, "#a, sk", projNames); err != nil {
		t.Fatal(err)
	}
	if f.throttles == 0 || f.unprocSent == 0 || len(f.getReqs) <= 3 {
		t.Errorf("fake: %d throttles, %d unprocessed keys, %d requests", f.throttles, f.unprocSent, len(f.getReqs))
	}
}

func TestBatchNonThrottlingErrorReturnedAtOnce(t *testing.T) {
	sdkErrs := []func() error{
		func() error { return &types.ResourceNotFoundException{Message: aws.String("no table")} },
		func() error { return &types.InternalServerError{Message: aws.String("oops")} },
		func() error { return &types.ItemCollectionSizeLimitExceededException{Message: aws.String("bad key")} },
		func() error { return errors.New("connection reset") },
	}
	for i, mk := range sdkErrs {
		for _, failChunk := range []int{0, 1} {
			t.Run(fmt.Sprintf("err %d chunk %d", i, failChunk), func(t *testing.T) {
				t.Parallel()
				orig := mk()
				wrapped := &smithy.OperationError{ServiceID: "DynamoDB", OperationName: "Batch", Err: orig}
				// Fail the first request of chunk failChunk.
				failIn := func(size int) func(int, []string) error {
					return func(_ int, ids []string) error {
						if n, _ := strconv.Atoi(ids[0][1:]); n/size == failChunk {
							return wrapped
						}
						return nil
					}
				}

				f := newFakeDB(t, uint64(i))
				f.unprocP, f.throttleP = 0, 0
				f.fail = failIn(maxBatchGet)
				keys := make([]map[string]types.AttributeValue, 150)
				for i := range keys {
					keys[i] = testKey(i)
				}
				// A deadline, so that a loop retrying this error fails
				// instead of hanging.
				ctx, cancel := context.WithTimeout(t.Context(), 3*time.Second)
				defer cancel()
				items, err := batchGet(ctx, f, fakeTable, keys, true, "#a, sk", projNames)
				if items != nil {
					t.Errorf("batchGet returned %d items with the error", len(items))
				}
				checkSameError(t, err, orig)
				if len(f.getReqs) != failChunk+1 {
					t.Errorf("batchGet sent %d requests, want %d (no retry of a non-throttling error)", len(f.getReqs), failChunk+1)
				}

				f = newFakeDB(t, uint64(i))
				f.unprocP, f.throttleP = 0, 0
				f.fail = failIn(maxBatchWrite)
				reqs := make([]types.WriteRequest, 40)
				for i := range reqs {
					reqs[i] = types.WriteRequest{DeleteRequest: &types.DeleteRequest{Key: testKey(i)}}
				}
				err = batchWrite(ctx, f, fakeTable, reqs)
				checkSameError(t, err, orig)
				if len(f.writeReqs) != failChunk+1 {
					t.Errorf("batchWrite sent %d requests, want %d", len(f.writeReqs), failChunk+1)
				}
			})
		}
	}
}

// checkSameError fails unless errors.As on err finds orig itself.
func checkSameError(t *testing.T, err, orig error) {
	t.Helper()
	if err == nil {
		t.Fatal("no error")
	}
	if !errors.Is(err, orig) {
		t.Errorf("errors.Is(%v, original) = false", err)
	}
	switch o := orig.(type) {
	case *types.ResourceNotFoundException:
		var got *types.ResourceNotFoundException
		if !errors.As(err, &got) || got != o {
			t.Errorf("errors.As(%v, *ResourceNotFoundException) = %v", err, got)
		}
	case *types.InternalServerError:
		var got *types.InternalServerError
		if !errors.As(err, &got) || got != o {
			t.Errorf("errors.As(%v, *InternalServerError) = %v", err, got)
		}
	case *types.ItemCollectionSizeLimitExceededException:
		var got *types.ItemCollectionSizeLimitExceededException
		if !errors.As(err, &got) || got != o {
			t.Errorf("errors.As(%v, *ItemCollectionSizeLimitExceededException) = %v", err, got)
		}
	}
	if throttled(err) {
		t.Errorf("throttled(%v) = true", err)
	}
}

// TestBatchCancel: a store that never processes anything (every key
// unprocessed, or every request throttled) keeps the loops going until
// the context ends; they then return its error.
func TestBatchCancel(t *testing.T) {
	for _, mode := range []string{"unprocessed", "throttled"} {
		for _, op := range []string{"get", "write"} {
			for _, how := range []string{"cancel", "deadline", "cancelled before"} {
				t.Run(mode+" "+op+" "+how, func(t *testing.T) {
					t.Parallel()
					f := newFakeDB(t, 7)
					f.maxBad = -1
					if mode == "unprocessed" {
						f.unprocP, f.throttleP = 1, 0
					} else {
						f.unprocP, f.throttleP = 0, 1
					}
					var ctx context.Context
					var cancel context.CancelFunc
					want := context.Canceled
					switch how {
					case "cancel":
						ctx, cancel = context.WithCancel(t.Context())
						time.AfterFunc(150*time.Millisecond, cancel)
					case "deadline":
						ctx, cancel = context.WithTimeout(t.Context(), 150*time.Millisecond)
						want = context.DeadlineExceeded
					default:
						ctx, cancel = context.WithCancel(t.Context())
						cancel()
					}
					defer cancel()
					start := time.Now()
					var err error
					if op == "get" {
						keys := make([]map[string]types.AttributeValue, 120)
						for i := range keys {
							keys[i] = testKey(i)
						}
						var items []map[string]types.AttributeValue
						items, err = batchGet(ctx, f, fakeTable, keys, true, "#a, sk", projNames)
						if items != nil {
							t.Errorf("batchGet returned %d items with the error", len(items))
						}
					} else {
						reqs := make([]types.WriteRequest, 30)
						for i := range reqs {
							reqs[i] = types.WriteRequest{DeleteRequest: &types.DeleteRequest{Key: testKey(i)}}
						}
						err = batchWrite(ctx, f, fakeTable, reqs)
					}
					elapsed := time.Since(start)
					if !errors.Is(err, want) {
						t.Errorf("error %v, want %v", err, want)
					}
					if elapsed > time.Second {
						t.Errorf("took %v after the context ended at 150ms", elapsed)
					}
					if len(f.served) != 0 {
						t.Errorf("%d keys served by a store that serves none", len(f.served))
					}
					calls := len(f.getReqs) + len(f.writeReqs)
					switch {
					case how == "cancelled before" && calls > 1:
						t.Errorf("%d requests with a context cancelled before the call", calls)
					case how != "cancelled before" && calls < 2:
						t.Errorf("only %d requests in 150ms: no retry?", calls)
					}
					// Only the first chunk was tried.
					for _, ids := range append(f.getReqs, f.writeReqs...) {
						if n, _ := strconv.Atoi(ids[0][1:]); n != 0 {
							t.Errorf("a request starts at %s: the loop went on to another chunk", ids[0])
						}
					}
				})
			}
		}
	}
}

func TestThrottled(t *testing.T) {
	wrap := func(err error) error {
		return &smithy.OperationError{ServiceID: "DynamoDB", OperationName: "BatchGetItem", Err: err}
	}
	for i := range 3 {
		if err := throttleError(i); !throttled(err) || !throttled(errors.Unwrap(err)) || !throttled(fmt.Errorf("x: %w", err)) {
			t.Errorf("throttled(%v) = false", err)
		}
	}
	for _, err := range []error{
		nil,
		errors.New("ProvisionedThroughputExceededException"),
		&types.ResourceNotFoundException{},
		wrap(&types.ConditionalCheckFailedException{}),
		wrap(&types.InternalServerError{}),
		&types.TransactionConflictException{},
		context.Canceled,
	} {
		if throttled(err) {
			t.Errorf("throttled(%v) = true", err)
		}
	}
}

func TestBackoff(t *testing.T) {
	// With the context done, every attempt returns its error at once,
	// without panicking on a huge attempt number.
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	for _, attempt := range []int{0, 1, 5, 6, 7, 15, 16, 17, 30, 62, 63, 64, 100, 1 << 20} {
		if err := backoff(ctx, attempt); !errors.Is(err, context.Canceled) {
			t.Errorf("backoff(cancelled, %d) = %v", attempt, err)
		}
	}
	// A first retry waits at most backoffBase (+1ms).
	start := time.Now()
	for range 10 {
		if err := backoff(t.Context(), 0); err != nil {
			t.Fatal(err)
		}
	}
	if d := time.Since(start); d > 10*(backoffBase+time.Millisecond)+200*time.Millisecond {
		t.Errorf("10 first backoffs took %v", d)
	}
}

// changingBatchClient changes everything it is given after reading it,
// as a careless client wrapper may, and returns no item.
type changingBatchClient struct{ seen []types.KeysAndAttributes }

func (c *changingBatchClient) BatchGetItem(_ context.Context, in *dynamodb.BatchGetItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	for _, ka := range in.RequestItems {
		c.seen = append(c.seen, types.KeysAndAttributes{
			ConsistentRead:           aws.Bool(*ka.ConsistentRead),
			ProjectionExpression:     aws.String(*ka.ProjectionExpression),
			ExpressionAttributeNames: maps.Clone(ka.ExpressionAttributeNames),
		})
		*ka.ConsistentRead = !*ka.ConsistentRead
		*ka.ProjectionExpression = "changed"
		for k := range ka.ExpressionAttributeNames {
			ka.ExpressionAttributeNames[k] = "changed"
		}
	}
	return &dynamodb.BatchGetItemOutput{}, nil
}

// TestBatchGetRequestsShareNothing: each request of a batch read has its
// own projection, names and consistency, so that a client that changes
// one request's changes no later one.
func TestBatchGetRequestsShareNothing(t *testing.T) {
	keys := make([]map[string]types.AttributeValue, 250)
	for i := range keys {
		keys[i] = testKey(i)
	}
	c := &changingBatchClient{}
	if _, err := batchGet(t.Context(), c, "T", keys, true, "#n", map[string]string{"#n": "name"}); err != nil {
		t.Fatal(err)
	}
	if len(c.seen) != 3 {
		t.Fatalf("%d requests, want 3", len(c.seen))
	}
	for i, ka := range c.seen {
		if !*ka.ConsistentRead || *ka.ProjectionExpression != "#n" || ka.ExpressionAttributeNames["#n"] != "name" {
			t.Errorf("request %d holds what the client changed in an earlier one: %v %q %v", i, *ka.ConsistentRead, *ka.ProjectionExpression, ka.ExpressionAttributeNames)
		}
	}
}

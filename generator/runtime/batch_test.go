package runtime

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"
)

const fakeTable = "tbl"

// The tests of batches that retry, wait or run requests side by side run
// in a synctest bubble: time there is the bubble's own, and it moves only
// when every goroutine of the bubble is blocked. So the backoffs between
// retries take no real time, a deadline or a sleep ends at the same point
// of the calls whatever the load of the machine, and a request held by a
// sleep returns only once every request that can be sent beside it has
// been: no test depends on how fast or in what order goroutines run.

// parallelBubble is the parallel subtest running f in a synctest bubble.
func parallelBubble(f func(t *testing.T)) func(t *testing.T) {
	return func(t *testing.T) {
		t.Parallel()
		synctest.Test(t, f)
	}
}

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

// testCall is the BatchCall of the tests' table, keyed by pk and sk.
func testCall(workers int) BatchCall {
	return BatchCall{Method: "M", Table: fakeTable, Key: []string{"pk", "sk"}, Workers: workers}
}

// rawItem is the decoder of the tests: the item as it is.
func rawItem(item map[string]types.AttributeValue) (map[string]types.AttributeValue, error) {
	return item, nil
}

// getAll is BatchGet of the tests' keys, consistent, with a projection.
func getAll(ctx context.Context, c batchGetClient, workers int, keys []map[string]types.AttributeValue) ([]map[string]types.AttributeValue, error) {
	return BatchGet(ctx, c, testCall(workers), keys, true, "#a, sk", projNames, rawItem)
}

// writeAll is BatchWrite of reqs.
func writeAll(ctx context.Context, c batchWriteClient, workers int, reqs []types.WriteRequest) error {
	return BatchWrite(ctx, c, testCall(workers), "written", reqs)
}

func TestBatchGetEveryKeyOnce(t *testing.T) {
	for _, n := range []int{0, 1, 99, 100, 101, 250, 1234} {
		for seed := range uint64(2) {
			workers := 1 + int(seed)*3
			t.Run(fmt.Sprintf("%d keys seed %d workers %d", n, seed, workers), parallelBubble(func(t *testing.T) {
				f := newFakeDB(t, uint64(n)*10+seed)
				keys := make([]map[string]types.AttributeValue, n)
				for i := range keys {
					keys[i] = testKey(i)
				}
				// A deadline of the bubble's time, so that a loop retrying
				// for ever fails instead of hanging.
				ctx, cancel := context.WithTimeout(t.Context(), time.Hour)
				defer cancel()
				items, err := getAll(ctx, f, workers, keys)
				if err != nil {
					t.Fatalf("batchGet: %v", err)
				}
				got := map[string]int{}
				for i, it := range items {
					// In the order of the keys, whatever order the
					// chunks were done in.
					if id, want := keyID(it), keyID(testKey(i)); id != want {
						t.Fatalf("item %d is %s, want %s", i, id, want)
					}
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
				// No request mixes two chunks.
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
			}))
		}
	}
}

func TestBatchWriteEveryRequestOnce(t *testing.T) {
	for _, n := range []int{0, 1, 24, 25, 26, 60, 1234} {
		for seed := range uint64(2) {
			workers := 1 + int(seed)*3
			t.Run(fmt.Sprintf("%d writes seed %d workers %d", n, seed, workers), parallelBubble(func(t *testing.T) {
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
				// A deadline of the bubble's time, so that a loop retrying
				// for ever fails instead of hanging.
				ctx, cancel := context.WithTimeout(t.Context(), time.Hour)
				defer cancel()
				if err := writeAll(ctx, f, workers, reqs); err != nil {
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
			}))
		}
	}
}

// TestBatchFakeExercisesRetries guards the tests above: the fake must
// really leave keys unprocessed and throttle requests.
func TestBatchFakeExercisesRetries(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		f := newFakeDB(t, 42)
		keys := make([]map[string]types.AttributeValue, 250)
		for i := range keys {
			keys[i] = testKey(i)
		}
		if _, err := getAll(t.Context(), f, 2, keys); err != nil {
			t.Fatal(err)
		}
		if f.throttles == 0 || f.unprocSent == 0 || len(f.getReqs) <= 3 {
			t.Errorf("fake: %d throttles, %d unprocessed keys, %d requests", f.throttles, f.unprocSent, len(f.getReqs))
		}
	})
}

// httpStatus wraps err as the SDK does an error DynamoDB answered with
// status code.
func httpStatus(code int, err error) error {
	return &awshttp.ResponseError{ResponseError: &smithyhttp.ResponseError{
		Response: &smithyhttp.Response{Response: &http.Response{StatusCode: code}},
		Err:      err,
	}}
}

// indexes returns lo, lo+1, ..., hi-1.
func indexes(lo, hi int) []int {
	var out []int
	for i := lo; i < hi; i++ {
		out = append(out, i)
	}
	return out
}

// asBatchError returns err's *BatchError, failing t if there is none.
func asBatchError(t *testing.T, err error) *BatchError {
	t.Helper()
	var be *BatchError
	if !errors.As(err, &be) {
		t.Fatalf("%v: no *BatchError", err)
	}
	return be
}

// checkIndexes fails unless got lists want.
func checkIndexes(t *testing.T, what string, got, want []int) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

// TestBatchNonThrottlingErrorReturnedAtOnce: an error other than
// throttling ends the batch without a retry; the chunks before were done,
// the failed chunk is not (a read, or a write DynamoDB refused) or unknown
// (a write with no answer), the chunks after are not sent.
func TestBatchNonThrottlingErrorReturnedAtOnce(t *testing.T) {
	sdkErrs := []func() error{
		func() error { return &types.ResourceNotFoundException{Message: aws.String("no table")} },
		func() error { return &types.InternalServerError{Message: aws.String("oops")} },
		func() error { return &types.ItemCollectionSizeLimitExceededException{Message: aws.String("bad key")} },
		func() error { return errors.New("connection reset") },
	}
	for i, mk := range sdkErrs {
		for _, status := range []int{0, 400, 500} {
			for _, failChunk := range []int{0, 1} {
				t.Run(fmt.Sprintf("err %d status %d chunk %d", i, status, failChunk), parallelBubble(func(t *testing.T) {
					orig := mk()
					var wrapped error = orig
					if status != 0 {
						wrapped = httpStatus(status, orig)
					}
					wrapped = &smithy.OperationError{ServiceID: "DynamoDB", OperationName: "Batch", Err: wrapped}
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
					keys := make([]map[string]types.AttributeValue, 250)
					for i := range keys {
						keys[i] = testKey(i)
					}
					// A deadline of the bubble's time, so that a loop
					// retrying this error fails instead of hanging.
					ctx, cancel := context.WithTimeout(t.Context(), time.Hour)
					defer cancel()
					items, err := getAll(ctx, f, 1, keys)
					if len(items) != failChunk*maxBatchGet {
						t.Errorf("batchGet returned %d items with the error, want the %d read", len(items), failChunk*maxBatchGet)
					}
					checkSameError(t, err, orig)
					be := asBatchError(t, err)
					checkIndexes(t, "get NotDone", be.NotDone, indexes(failChunk*maxBatchGet, 250))
					checkIndexes(t, "get Unknown", be.Unknown, nil)
					if be.Item != -1 || be.Method != "M" {
						t.Errorf("get: Item %d, Method %q", be.Item, be.Method)
					}
					if len(f.getReqs) != failChunk+1 {
						t.Errorf("batchGet sent %d requests, want %d (no retry of a non-throttling error)", len(f.getReqs), failChunk+1)
					}

					f = newFakeDB(t, uint64(i))
					f.unprocP, f.throttleP = 0, 0
					f.fail = failIn(maxBatchWrite)
					reqs := make([]types.WriteRequest, 60)
					for i := range reqs {
						reqs[i] = types.WriteRequest{DeleteRequest: &types.DeleteRequest{Key: testKey(i)}}
					}
					err = writeAll(ctx, f, 1, reqs)
					checkSameError(t, err, orig)
					be = asBatchError(t, err)
					failed := indexes(failChunk*maxBatchWrite, (failChunk+1)*maxBatchWrite)
					after := indexes((failChunk+1)*maxBatchWrite, 60)
					if status == 400 {
						// DynamoDB refused the request: nothing of it was done.
						checkIndexes(t, "write NotDone", be.NotDone, append(failed, after...))
						checkIndexes(t, "write Unknown", be.Unknown, nil)
					} else {
						checkIndexes(t, "write NotDone", be.NotDone, after)
						checkIndexes(t, "write Unknown", be.Unknown, failed)
					}
					if len(f.writeReqs) != failChunk+1 {
						t.Errorf("batchWrite sent %d requests, want %d", len(f.writeReqs), failChunk+1)
					}
				}))
			}
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
// the context ends; they then return its error, with every index not
// done.
func TestBatchCancel(t *testing.T) {
	for _, mode := range []string{"unprocessed", "throttled"} {
		for _, op := range []string{"get", "write"} {
			for _, how := range []string{"cancel", "deadline", "cancelled before"} {
				t.Run(mode+" "+op+" "+how, parallelBubble(func(t *testing.T) {
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
					n := 120
					if op == "get" {
						keys := make([]map[string]types.AttributeValue, n)
						for i := range keys {
							keys[i] = testKey(i)
						}
						var items []map[string]types.AttributeValue
						items, err = getAll(ctx, f, 1, keys)
						if len(items) != 0 {
							t.Errorf("batchGet returned %d items with the error", len(items))
						}
					} else {
						n = 30
						reqs := make([]types.WriteRequest, n)
						for i := range reqs {
							reqs[i] = types.WriteRequest{DeleteRequest: &types.DeleteRequest{Key: testKey(i)}}
						}
						err = writeAll(ctx, f, 1, reqs)
					}
					elapsed := time.Since(start)
					if !errors.Is(err, want) {
						t.Errorf("error %v, want %v", err, want)
					}
					be := asBatchError(t, err)
					checkIndexes(t, "NotDone", be.NotDone, indexes(0, n))
					checkIndexes(t, "Unknown", be.Unknown, nil)
					// The bubble's clock stands still while the loop runs: the
					// call ends when the context does, not after a backoff.
					if end := 150 * time.Millisecond; how == "cancelled before" && elapsed != 0 || how != "cancelled before" && elapsed != end {
						t.Errorf("returned %v after the call, the context ended at %v", elapsed, end)
					}
					if len(f.served) != 0 {
						t.Errorf("%d keys served by a store that serves none", len(f.served))
					}
					calls := len(f.getReqs) + len(f.writeReqs)
					switch {
					case how == "cancelled before" && calls > 0:
						t.Errorf("%d requests with a context cancelled before the call", calls)
					case how != "cancelled before" && calls < 2:
						t.Errorf("only %d requests in 150ms: no retry?", calls)
					}
					// One chunk at a time: only the first was tried.
					for _, ids := range append(f.getReqs, f.writeReqs...) {
						if n, _ := strconv.Atoi(ids[0][1:]); n != 0 {
							t.Errorf("a request starts at %s: the loop went on to another chunk", ids[0])
						}
					}
				}))
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
	synctest.Test(t, func(t *testing.T) {
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
		if d := time.Since(start); d > 10*(backoffBase+time.Millisecond) || d == 0 {
			t.Errorf("10 first backoffs took %v, want at most 10 × %v, more than 0", d, backoffBase+time.Millisecond)
		}
	})
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
	call := BatchCall{Method: "M", Table: "T", Key: []string{"pk", "sk"}, Workers: 1}
	if _, err := BatchGet(t.Context(), c, call, keys, true, "#n", map[string]string{"#n": "name"}, rawItem); err != nil {
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

// TestBatchAttemptsRunOut: a store that never processes a chunk (every key
// left unprocessed, or every request throttled) makes the method fail after
// batchAttempts requests of that chunk, with no deadline on the context:
// ErrRetriesExhausted (and the throttling error), the other chunks done.
func TestBatchAttemptsRunOut(t *testing.T) {
	for _, mode := range []string{"unprocessed", "throttled"} {
		for _, op := range []string{"get", "write"} {
			t.Run(mode+" "+op, parallelBubble(func(t *testing.T) {
				f := newFakeDB(t, 11)
				f.unprocP, f.throttleP = 0, 0
				// The second chunk is never processed; its requests are
				// counted.
				size := maxBatchGet
				if op == "write" {
					size = maxBatchWrite
				}
				stuck := 0
				f.maxBad = -1
				f.fail = func(_ int, ids []string) error {
					f.unprocP = 0
					if n, _ := strconv.Atoi(ids[0][1:]); n/size != 1 {
						return nil
					}
					stuck++
					if mode == "throttled" {
						return throttleError(stuck)
					}
					f.unprocP = 1
					return nil
				}
				n := 3 * size
				var err error
				start := time.Now()
				if op == "get" {
					keys := make([]map[string]types.AttributeValue, n)
					for i := range keys {
						keys[i] = testKey(i)
					}
					var items []map[string]types.AttributeValue
					items, err = getAll(context.Background(), f, 3, keys)
					if len(items) != 2*size {
						t.Errorf("%d items returned with the error, want the %d read", len(items), 2*size)
					}
					for _, it := range items {
						if i, _ := strconv.Atoi(keyID(it)[1:]); i/size == 1 {
							t.Errorf("item %s returned, of the chunk never read", keyID(it))
						}
					}
				} else {
					reqs := make([]types.WriteRequest, n)
					for i := range reqs {
						reqs[i] = types.WriteRequest{DeleteRequest: &types.DeleteRequest{Key: testKey(i)}}
					}
					err = writeAll(context.Background(), f, 3, reqs)
				}
				t.Logf("gave up after %v", time.Since(start))
				if !errors.Is(err, ErrRetriesExhausted) {
					t.Fatalf("error %v, want ErrRetriesExhausted", err)
				}
				if mode == "throttled" && !throttled(err) {
					t.Errorf("error %v does not wrap the last throttling error", err)
				}
				if stuck != batchAttempts {
					t.Errorf("the stuck chunk was sent %d times, want batchAttempts (%d)", stuck, batchAttempts)
				}
				be := asBatchError(t, err)
				checkIndexes(t, "NotDone", be.NotDone, indexes(size, 2*size))
				checkIndexes(t, "Unknown", be.Unknown, nil)
				want := "attempts ran out"
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not say %q", err, want)
				}
			}))
		}
	}
}

// gateClient serves batch requests by calling serve, and counts the
// requests in flight: the most at once is peak.
type gateClient struct {
	serve func(ctx context.Context, call int, ids []string) (unprocessed []string, err error)

	mu       sync.Mutex
	calls    int
	inFlight int
	peak     int
	done     map[string]bool // ids served
	items    map[string]map[string]types.AttributeValue
}

func newGate(serve func(ctx context.Context, call int, ids []string) ([]string, error)) *gateClient {
	return &gateClient{serve: serve, done: map[string]bool{}}
}

func (g *gateClient) enter() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.inFlight++
	g.peak = max(g.peak, g.inFlight)
	g.calls++
	return g.calls - 1
}

func (g *gateClient) leave(ids, unprocessed []string, err error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.inFlight--
	if err != nil {
		return
	}
	for _, id := range ids {
		if !slices.Contains(unprocessed, id) {
			g.done[id] = true
		}
	}
}

func (g *gateClient) inFlightNow() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.inFlight
}

func (g *gateClient) BatchGetItem(ctx context.Context, in *dynamodb.BatchGetItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	call := g.enter()
	ka := in.RequestItems[fakeTable]
	var ids []string
	for _, k := range ka.Keys {
		ids = append(ids, keyID(k))
	}
	unproc, err := g.serve(ctx, call, ids)
	g.leave(ids, unproc, err)
	if err != nil {
		return nil, err
	}
	out := &dynamodb.BatchGetItemOutput{Responses: map[string][]map[string]types.AttributeValue{}}
	for _, k := range ka.Keys {
		if slices.Contains(unproc, keyID(k)) {
			u := out.UnprocessedKeys[fakeTable]
			u.Keys = append(u.Keys, k)
			out.UnprocessedKeys = map[string]types.KeysAndAttributes{fakeTable: u}
			continue
		}
		out.Responses[fakeTable] = append(out.Responses[fakeTable], maps.Clone(k))
	}
	return out, nil
}

func (g *gateClient) BatchWriteItem(ctx context.Context, in *dynamodb.BatchWriteItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	call := g.enter()
	var ids []string
	for _, r := range in.RequestItems[fakeTable] {
		ids = append(ids, keyID(writeKey(r)))
	}
	unproc, err := g.serve(ctx, call, ids)
	g.leave(ids, unproc, err)
	if err != nil {
		return nil, err
	}
	out := &dynamodb.BatchWriteItemOutput{}
	for _, r := range in.RequestItems[fakeTable] {
		if slices.Contains(unproc, keyID(writeKey(r))) {
			out.UnprocessedItems = map[string][]types.WriteRequest{fakeTable: append(out.UnprocessedItems[fakeTable], r)}
		}
	}
	return out, nil
}

func deleteReqs(n int) []types.WriteRequest {
	reqs := make([]types.WriteRequest, n)
	for i := range reqs {
		reqs[i] = types.WriteRequest{DeleteRequest: &types.DeleteRequest{Key: testKey(i)}}
	}
	return reqs
}

func getKeys(n int) []map[string]types.AttributeValue {
	keys := make([]map[string]types.AttributeValue, n)
	for i := range keys {
		keys[i] = testKey(i)
	}
	return keys
}

// TestBatchConcurrencyBound: at most workers requests are in flight at
// once, and that many are when there are chunks enough; 0 means
// defaultBatchConcurrency.
func TestBatchConcurrencyBound(t *testing.T) {
	for _, workers := range []int{1, 2, 5, 0, 40} {
		for _, op := range []string{"get", "write"} {
			t.Run(fmt.Sprintf("%s workers %d", op, workers), parallelBubble(func(t *testing.T) {
				want := workers
				if workers < 1 {
					want = defaultBatchConcurrency
				}
				const chunks = 30
				want = min(want, chunks)
				g := newGate(func(context.Context, int, []string) ([]string, error) {
					// Hold the request a second of the bubble's time,
					// which passes only once every worker is blocked:
					// every request the workers may have in flight
					// beside it is sent, and the peak is exactly the
					// bound.
					time.Sleep(time.Second)
					return nil, nil
				})
				var err error
				n := chunks * maxBatchWrite
				if op == "get" {
					n = chunks * maxBatchGet
					var items []map[string]types.AttributeValue
					items, err = getAll(t.Context(), g, workers, getKeys(n))
					if len(items) != n {
						t.Errorf("%d items, want %d", len(items), n)
					}
				} else {
					err = writeAll(t.Context(), g, workers, deleteReqs(n))
				}
				if err != nil {
					t.Fatal(err)
				}
				if g.peak != want {
					t.Errorf("at most %d requests in flight at once, want %d", g.peak, want)
				}
				if g.calls != chunks || len(g.done) != n {
					t.Errorf("%d calls doing %d, want %d and %d", g.calls, len(g.done), chunks, n)
				}
			}))
		}
	}
}

// TestBatchFailureStopsOthers: when a chunk fails for good, no chunk
// starts after it and no request is sent again; the requests in flight
// finish, and what they did is reported done.
func TestBatchFailureStopsOthers(t *testing.T) {
	for _, op := range []string{"get", "write"} {
		t.Run(op, parallelBubble(func(t *testing.T) {
			size := maxBatchGet
			if op == "write" {
				size = maxBatchWrite
			}
			const workers, chunks = 4, 10
			failed := make(chan struct{})
			var g *gateClient
			g = newGate(func(_ context.Context, _ int, ids []string) ([]string, error) {
				chunk := 0
				if n, _ := strconv.Atoi(ids[0][1:]); n > 0 {
					chunk = n / size
				}
				switch chunk {
				case 0:
					// Fail once the three other chunks are in flight: a
					// second of the bubble's time passes only once every
					// worker is blocked.
					time.Sleep(time.Second)
					if n := g.inFlightNow(); n != workers {
						t.Errorf("%d chunks in flight when the first fails, want the %d first", n, workers)
					}
					defer close(failed)
					return nil, httpStatus(400, &types.ResourceNotFoundException{Message: aws.String("no table")})
				case 1:
					// In flight when chunk 0 fails: done, and the keys left
					// unprocessed are not sent again. The sleep ends once
					// the failure has stopped the batch (every other
					// goroutine blocked).
					<-failed
					time.Sleep(time.Second)
					return ids[:5], nil
				case 2, 3:
					<-failed
					time.Sleep(time.Second)
					return nil, nil
				}
				t.Errorf("chunk %d started after chunk 0 failed", chunk)
				return nil, nil
			})
			var err error
			n := chunks * size
			if op == "get" {
				var items []map[string]types.AttributeValue
				items, err = getAll(t.Context(), g, workers, getKeys(n))
				// The items of chunks 1 (but its 5 unprocessed keys), 2 and 3.
				if len(items) != 3*size-5 {
					t.Errorf("%d items returned, want %d", len(items), 3*size-5)
				}
			} else {
				err = writeAll(t.Context(), g, workers, deleteReqs(n))
			}
			var rnf *types.ResourceNotFoundException
			if !errors.As(err, &rnf) {
				t.Fatalf("error %v, want the ResourceNotFoundException", err)
			}
			be := asBatchError(t, err)
			want := append(indexes(0, size), indexes(size, size+5)...)
			want = append(want, indexes(4*size, n)...)
			checkIndexes(t, "NotDone", be.NotDone, want)
			checkIndexes(t, "Unknown", be.Unknown, nil)
			if g.calls != workers {
				t.Errorf("%d requests, want %d", g.calls, workers)
			}
			// What is reported done is what the store did.
			for i := range n {
				if g.done[keyID(testKey(i))] == slices.Contains(be.NotDone, i) {
					t.Errorf("index %d: done %v, reported not done %v", i, g.done[keyID(testKey(i))], slices.Contains(be.NotDone, i))
				}
			}
		}))
	}
}

// TestBatchCancelInFlight: the caller's context ends while requests are in
// flight. The writes they held are unknown (the SDK gives up on the call
// without DynamoDB's answer), the reads not done; the chunks done before
// are done, and those not started not done.
func TestBatchCancelInFlight(t *testing.T) {
	for _, op := range []string{"get", "write"} {
		t.Run(op, parallelBubble(func(t *testing.T) {
			size := maxBatchGet
			if op == "write" {
				size = maxBatchWrite
			}
			const workers, chunks = 2, 6
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			var g *gateClient
			g = newGate(func(ctx context.Context, _ int, ids []string) ([]string, error) {
				n, _ := strconv.Atoi(ids[0][1:])
				if n/size < 2 {
					return nil, nil
				}
				// Chunks 2 and 3 hang until the caller gives up, which
				// chunk 2 does once both are in flight: a second of the
				// bubble's time passes only once every worker is blocked.
				if n/size == 2 {
					time.Sleep(time.Second)
					if n := g.inFlightNow(); n != workers {
						t.Errorf("%d requests in flight when the caller gives up, want %d", n, workers)
					}
					cancel()
				}
				<-ctx.Done()
				return nil, &smithy.OperationError{ServiceID: "DynamoDB", OperationName: "Batch", Err: ctx.Err()}
			})
			var err error
			n := chunks * size
			if op == "get" {
				var items []map[string]types.AttributeValue
				items, err = getAll(ctx, g, workers, getKeys(n))
				if len(items) != 2*size {
					t.Errorf("%d items returned, want %d", len(items), 2*size)
				}
			} else {
				err = writeAll(ctx, g, workers, deleteReqs(n))
			}
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("error %v, want context.Canceled", err)
			}
			be := asBatchError(t, err)
			if op == "get" {
				checkIndexes(t, "NotDone", be.NotDone, indexes(2*size, n))
				checkIndexes(t, "Unknown", be.Unknown, nil)
			} else {
				checkIndexes(t, "NotDone", be.NotDone, indexes(4*size, n))
				checkIndexes(t, "Unknown", be.Unknown, indexes(2*size, 4*size))
			}
			if g.calls != 4 {
				t.Errorf("%d requests, want 4", g.calls)
			}
		}))
	}
}

// TestBatchDuplicates: a key given twice is read once, at its first place,
// and reported with both its indexes; of two writes with one key the last
// is sent.
func TestBatchDuplicates(t *testing.T) {
	// Keys 0..149, then 0..149 again, reversed: every key twice.
	keys := getKeys(150)
	for i := 149; i >= 0; i-- {
		keys = append(keys, testKey(i))
	}
	var g *gateClient
	g = newGate(func(_ context.Context, _ int, ids []string) ([]string, error) {
		if len(ids) != 100 && len(ids) != 50 {
			t.Errorf("a request of %d keys", len(ids))
		}
		if ids[0] == "K100" {
			return nil, httpStatus(400, errors.New("refused"))
		}
		return nil, nil
	})
	items, err := getAll(t.Context(), g, 1, keys)
	if len(items) != 100 {
		t.Fatalf("%d items, want 100", len(items))
	}
	for i, it := range items {
		if keyID(it) != keyID(testKey(i)) {
			t.Fatalf("item %d is %s", i, keyID(it))
		}
	}
	be := asBatchError(t, err)
	checkIndexes(t, "NotDone", be.NotDone, append(indexes(100, 150), indexes(150, 200)...))

	// Puts: the last of a key is sent.
	reqs := make([]types.WriteRequest, 0, 60)
	for i := range 60 {
		k := testKey(i % 30)
		k["data"] = &types.AttributeValueMemberS{Value: "v" + strconv.Itoa(i)}
		reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: k}})
	}
	rec := &recordWrites{}
	if err := writeAll(t.Context(), rec, 3, reqs); err != nil {
		t.Fatal(err)
	}
	if len(rec.data) != 30 {
		t.Errorf("%d items written, want 30", len(rec.data))
	}
	for id, d := range rec.data {
		i, _ := strconv.Atoi(id[1:])
		if d != "v"+strconv.Itoa(i+30) {
			t.Errorf("%s written with %s, want the last", id, d)
		}
	}
}

// recordWrites keeps the data each put writes.
type recordWrites struct {
	mu   sync.Mutex
	data map[string]string
}

func (r *recordWrites) BatchWriteItem(_ context.Context, in *dynamodb.BatchWriteItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.data == nil {
		r.data = map[string]string{}
	}
	for _, w := range in.RequestItems[fakeTable] {
		id := keyID(w.PutRequest.Item)
		if _, ok := r.data[id]; ok {
			return nil, errors.New("key written twice")
		}
		r.data[id] = w.PutRequest.Item["data"].(*types.AttributeValueMemberS).Value
	}
	return &dynamodb.BatchWriteItemOutput{}, nil
}

// TestBatchDecodeError: an item read that can't be decoded is reported by
// its index, as not read; the others are returned.
func TestBatchDecodeError(t *testing.T) {
	g := newGate(func(context.Context, int, []string) ([]string, error) { return nil, nil })
	keys := getKeys(250)
	keys = append(keys, testKey(7))
	bad := &ItemError{Entity: "E", Attr: "a", Reason: "stored as S"}
	items, err := BatchGet(t.Context(), g, testCall(3), keys, false, "", nil, func(item map[string]types.AttributeValue) (string, error) {
		if id := keyID(item); id != "K7" && id != "K170" {
			return id, nil
		}
		return "", bad
	})
	if len(items) != 248 || items[7] != "K8" || items[169] != "K171" {
		t.Errorf("%d items returned (%v...)", len(items), items[:9])
	}
	if !errors.Is(err, ErrInvalidItem) {
		t.Fatalf("error %v, want ErrInvalidItem", err)
	}
	be := asBatchError(t, err)
	if be.Item != -1 {
		t.Errorf("Item %d, want -1: the error is about two items", be.Item)
	}
	checkIndexes(t, "NotDone", be.NotDone, []int{7, 170, 250})
	var de *DecodeError
	if !errors.As(err, &de) || len(de.Items) != 2 || de.Items[0].Position != 7 || de.Items[1].Position != 170 || de.Items[0].Err != bad {
		t.Fatalf("error %v: want a DecodeError listing the items of keys 7 and 170", err)
	}
	if got := de.Items[0].KeyAttrs; len(got) != 2 || got[0] != "pk" || got[1] != "sk" {
		t.Errorf("KeyAttrs %q, want the call's key attributes", got)
	}
}

// TestBatchErrorText: a BatchError names the method, and the item or how
// many were not done; no value.
func TestBatchErrorText(t *testing.T) {
	err := BatchItemError("BatchGetCartItems", "read", 3, 5, &KeyError{Attr: "cartId", Value: "secret", Reason: "empty"})
	if want := pkgPrefix + "BatchGetCartItems: item 3: invalid key value for cartId: empty"; err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
	var ke *KeyError
	if !errors.Is(err, ErrInvalidKey) || !errors.As(err, &ke) {
		t.Errorf("%v: not a KeyError", err)
	}
	be := asBatchError(t, err)
	checkIndexes(t, "NotDone", be.NotDone, indexes(0, 5))
	if strings.Contains(err.Error(), "secret") {
		t.Errorf("error %q holds the value", err)
	}

	g := newGate(func(_ context.Context, call int, ids []string) ([]string, error) {
		if call == 0 {
			return nil, nil
		}
		return nil, errors.New("connection reset")
	})
	err = BatchWrite(t.Context(), g, BatchCall{Method: "PutThings", Table: fakeTable, Key: []string{"pk", "sk"}, Workers: 1}, "written", deleteReqs(60))
	if want := pkgPrefix + "PutThings: 10 of 60 items not written, 25 unknown: connection reset"; err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
	err = BatchWrite(t.Context(), g, BatchCall{Method: "DeleteThings", Table: fakeTable, Key: []string{"pk", "sk"}, Workers: 1}, "deleted", deleteReqs(60))
	if want := pkgPrefix + "DeleteThings: 35 of 60 keys not deleted, 25 unknown: connection reset"; err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
}

// TestBatchPanic: a client's panic in a chunk is raised in the caller's
// goroutine.
func TestBatchPanic(t *testing.T) {
	g := newGate(func(_ context.Context, call int, _ []string) ([]string, error) {
		if call == 3 {
			panic("client bug")
		}
		return nil, nil
	})
	defer func() {
		if p := recover(); p != "client bug" {
			t.Errorf("recovered %v", p)
		}
	}()
	writeAll(t.Context(), g, 4, deleteReqs(300))
	t.Error("no panic")
}

// numberTable answers as DynamoDB does for a table keyed by pk (S) and sk
// (N): it holds a number's value, not its text, so it refuses a request
// that names one key twice (1e+06 and 1000000, or 0 and -0), and gives
// keys back in its own form (1000000, 0), as items read and as keys left
// unprocessed. Its first request of each kind leaves its last keys
// unprocessed.
type numberTable struct {
	mu      sync.Mutex
	items   map[string]bool // by key, sk in DynamoDB's form
	gets    int
	writes  int
	written []string // the keys written and deleted, in DynamoDB's form
}

// dynamoKey is a key as DynamoDB gives it back, and its text; ok is false
// for a number DynamoDB refuses.
func dynamoKey(k map[string]types.AttributeValue) (map[string]types.AttributeValue, string, bool) {
	text, ok := NumberText(k["sk"].(*types.AttributeValueMemberN).Value)
	pk := k["pk"].(*types.AttributeValueMemberS).Value
	return map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: pk}, "sk": &types.AttributeValueMemberN{Value: text}}, pk + "|" + text, ok
}

// numbersRefused is DynamoDB's answer to a request it refuses.
var numbersRefused = httpStatus(400, errors.New("ValidationException: provided list of item keys contains duplicates"))

func (n *numberTable) BatchGetItem(_ context.Context, in *dynamodb.BatchGetItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.gets++
	keys := in.RequestItems[fakeTable].Keys
	out := &dynamodb.BatchGetItemOutput{Responses: map[string][]map[string]types.AttributeValue{}, UnprocessedKeys: map[string]types.KeysAndAttributes{}}
	seen := map[string]bool{}
	var left []map[string]types.AttributeValue
	for i, k := range keys {
		key, id, ok := dynamoKey(k)
		if !ok || seen[id] {
			return nil, numbersRefused
		}
		seen[id] = true
		switch {
		case n.gets == 1 && i >= len(keys)/2:
			left = append(left, key)
		case n.items[id]:
			out.Responses[fakeTable] = append(out.Responses[fakeTable], key)
		}
	}
	if len(left) > 0 {
		out.UnprocessedKeys[fakeTable] = types.KeysAndAttributes{Keys: left}
	}
	return out, nil
}

func (n *numberTable) BatchWriteItem(_ context.Context, in *dynamodb.BatchWriteItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.writes++
	reqs := in.RequestItems[fakeTable]
	out := &dynamodb.BatchWriteItemOutput{UnprocessedItems: map[string][]types.WriteRequest{}}
	seen := map[string]bool{}
	for i, r := range reqs {
		key, id, ok := dynamoKey(writeKey(r))
		if !ok || seen[id] {
			return nil, numbersRefused
		}
		seen[id] = true
		if n.writes == 1 && i >= len(reqs)/2 {
			out.UnprocessedItems[fakeTable] = append(out.UnprocessedItems[fakeTable], types.WriteRequest{DeleteRequest: &types.DeleteRequest{Key: key}})
			continue
		}
		n.written = append(n.written, id)
	}
	return out, nil
}

// numberKey is a key of numberTable.
func numberKey(pk, sk string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: pk}, "sk": &types.AttributeValueMemberN{Value: sk}}
}

// The keys of a batch are numbers by value: the items and unprocessed
// keys DynamoDB answers with, in its own form, are found among those sent
// in another, and two texts of one number are one key.
func TestBatchNumbersByValue(t *testing.T) {
	distinct := []string{"1e+06", "1234567", "1e+21", "1e-05", "-2e+07", "1.50", "0", "1.2345678901234567890123456789012345678E+37", "1E-130", "9.9999999999999999999999999999999999999e125"}
	for _, texts := range [][]string{distinct, append(slices.Clone(distinct), "-0", "0.0", "1000000", "1e21")} {
		n := &numberTable{items: map[string]bool{}}
		keys := make([]map[string]types.AttributeValue, len(texts))
		for i, s := range texts {
			keys[i] = numberKey("p", s)
			_, id, ok := dynamoKey(keys[i])
			if !ok {
				t.Fatalf("%s is no number", s)
			}
			n.items[id] = true
		}
		items, err := BatchGet(t.Context(), n, testCall(1), keys, false, "", nil, rawItem)
		if err != nil {
			t.Fatal(err)
		}
		// One item per number: 0, -0 and 0.0 are one.
		if len(items) != len(distinct) || n.gets != 2 {
			t.Errorf("keys %q: %d items in %d requests, want %d in 2", texts, len(items), n.gets, len(distinct))
		}
		// Deletes: each number is deleted once, those left unprocessed
		// again.
		reqs := make([]types.WriteRequest, len(texts))
		for i, k := range keys {
			reqs[i] = types.WriteRequest{DeleteRequest: &types.DeleteRequest{Key: k}}
		}
		if err := BatchWrite(t.Context(), n, testCall(1), "deleted", reqs); err != nil {
			t.Fatal(err)
		}
		slices.Sort(n.written)
		if len(n.written) != len(distinct) || len(slices.Compact(n.written)) != len(distinct) || n.writes != 2 {
			t.Errorf("keys %q: deleted %q in %d requests, want every number once in 2", texts, n.written, n.writes)
		}
	}
}

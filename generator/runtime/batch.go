package runtime

import (
	"context"
	"errors"
	"maps"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// DynamoDB's limits on one batch request.
const (
	maxBatchGet   = 100
	maxBatchWrite = 25
)

// defaultBatchConcurrency is how many requests of one batch method are in
// flight at once unless WithBatchConcurrency says otherwise: measured, the
// throughput of batches stops growing there, on DynamoDB Local and with
// 10 ms of latency added to each request ("Bulk" in dyngen's
// BENCHMARKS.md).
const defaultBatchConcurrency = 8

// batchAttempts bounds the requests sent for one chunk (100 keys of a
// read, 25 writes): when the last still leaves some of it unprocessed or
// is throttled, the method fails with ErrRetriesExhausted, whether or
// not the context has a deadline.
const batchAttempts = 10

// Backoff between retries of unprocessed items: full jitter over an
// exponentially growing window, capped.
const (
	backoffBase = 20 * time.Millisecond
	backoffCap  = 2 * time.Second
)

// ErrRetriesExhausted: a batch method sent a chunk of its items
// batchAttempts (10) times and DynamoDB still left some unprocessed or
// throttled the request. The method's *BatchError tells which items were
// done.
var ErrRetriesExhausted = errors.New(pkgPrefix + "retries exhausted")

// BatchError is the error of a batch method (BatchGet, batchPut,
// batchDelete): which of the items or keys passed were done and which
// were not, and why. The other indexes were done: the item written, the
// key deleted, or the key read (found or not).
type BatchError struct {
	// Method is the Store method.
	Method string
	// Item is the index, in the slice passed to the method, of the item
	// or key the error is about when it is one's: a value refused before
	// any call (Err is then a *KeyError or *ItemError, and no call was
	// made). It is -1 when the error is the calls', or a *DecodeError
	// listing the items read that can't be decoded (by the places of
	// their keys; they are in NotDone too).
	Item int
	// NotDone holds the indexes, in increasing order, of the items not
	// written, the keys not deleted or the keys not read. A key given
	// twice has both its indexes here or neither.
	NotDone []int
	// Unknown holds the indexes, in increasing order, of the writes sent
	// in a request whose answer never came (the context ended or the
	// connection failed during the call, or DynamoDB failed on its side):
	// DynamoDB may have done them or not. Reads are never unknown.
	Unknown []int
	// Err is the cause: the SDK's error, the context's, ErrRetriesExhausted
	// (wrapping the last throttling error, if any), or the value's error.
	Err error

	total int    // the length of the slice passed
	done  string // what is done to an item: written, deleted, read
}

func (e *BatchError) Error() string {
	msg := pkgPrefix + e.Method + ": "
	if e.Item >= 0 {
		msg += "item " + strconv.Itoa(e.Item)
	} else {
		noun := "items"
		if e.done != "written" {
			noun = "keys"
		}
		msg += strconv.Itoa(len(e.NotDone)) + " of " + strconv.Itoa(e.total) + " " + noun + " not " + e.done
		if len(e.Unknown) > 0 {
			msg += ", " + strconv.Itoa(len(e.Unknown)) + " unknown"
		}
	}
	if e.Err != nil {
		msg += ": " + strings.TrimPrefix(e.Err.Error(), pkgPrefix)
	}
	return msg
}

func (e *BatchError) Unwrap() error { return e.Err }

// attemptsError is the cause of a failure when a chunk's attempts ran
// out: it wraps ErrRetriesExhausted and the last attempt's throttling
// error, if it was throttled.
type attemptsError struct{ last error }

func (e *attemptsError) Error() string {
	msg := "retries exhausted: " + strconv.Itoa(batchAttempts) + " attempts ran out"
	if e.last != nil {
		return msg + ", the last throttled: " + e.last.Error()
	}
	return msg + ", the last left items unprocessed"
}

func (e *attemptsError) Unwrap() []error {
	if e.last != nil {
		return []error{ErrRetriesExhausted, e.last}
	}
	return []error{ErrRetriesExhausted}
}

// BatchItemError is the error of a batch method that refuses the value
// at index i of the n it was passed, before any call: nothing is done.
func BatchItemError(method, done string, i, n int, err error) error {
	notDone := make([]int, n)
	for j := range notDone {
		notDone[j] = j
	}
	return &BatchError{Method: method, Item: i, NotDone: notDone, Err: err, total: n, done: done}
}

// BatchCall is what a batch method tells the runtime about itself.
type BatchCall struct {
	Method  string   // the Store method, for its errors
	Table   string   // the table's physical name
	Key     []string // the primary key's attribute names
	Workers int      // requests in flight at once; < 1: defaultBatchConcurrency
	// ttl is the ttl attribute of a read that leaves expired items out
	// (see expired), "" for none; now is the Store clock's, in epoch
	// seconds.
	TTL string
	Now int64
}

// What became of one unique key or write of a batch.
const (
	batchNotDone uint8 = iota // not sent, refused, or left unprocessed
	batchDone
	batchUnknown // sent, with no answer: maybe done
)

// errBatchStopped ends a chunk when another has failed; it is never
// returned to the caller.
var errBatchStopped = errors.New("batch stopped")

// backoff waits before retry attempt (0, 1, ...), or returns the
// context's error.
func backoff(ctx context.Context, attempt int) error {
	return backoffOrStop(ctx, nil, attempt)
}

// backoffOrStop is backoff that also ends, with errBatchStopped, when
// stop is closed.
func backoffOrStop(ctx context.Context, stop <-chan struct{}, attempt int) error {
	window := backoffCap
	if attempt < 16 && backoffBase<<attempt < backoffCap {
		window = backoffBase << attempt
	}
	t := time.NewTimer(rand.N(window) + time.Millisecond)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-stop:
		return errBatchStopped
	case <-t.C:
		return nil
	}
}

// throttled reports whether err is DynamoDB refusing the request for
// load: the request may be sent again as it was.
func throttled(err error) bool {
	var pt *types.ProvisionedThroughputExceededException
	var rl *types.RequestLimitExceeded
	var te *types.ThrottlingException
	return errors.As(err, &pt) || errors.As(err, &rl) || errors.As(err, &te)
}

// refused reports whether err is DynamoDB's answer that it refused the
// request (an HTTP status 4xx): nothing of it was done. Any other error
// (no answer, or a server error) leaves unknown what was done.
func refused(err error) bool {
	var status interface{ HTTPStatusCode() int }
	if !errors.As(err, &status) {
		return false
	}
	code := status.HTTPStatusCode()
	return code >= 400 && code < 500
}

// batchUnique numbers the distinct keys of n values, key(i) being the
// i-th value's: send lists, per distinct key in the order of first
// appearance, the index of the value to send (the last of its key when
// last, else the first), and of maps each index to its key's number.
func batchUnique(n int, key func(i int) map[string]types.AttributeValue, names []string, last bool) (send, of []int) {
	send = make([]int, 0, n)
	of = make([]int, n)
	at := make(map[string]int, n)
	for i := range n {
		h := keyHash(key(i), names...)
		if j, ok := at[h]; ok {
			of[i] = j
			if last {
				send[j] = i
			}
			continue
		}
		at[h] = len(send)
		of[i] = len(send)
		send = append(send, i)
	}
	return send, of
}

// batchRun runs chunk(0), ..., chunk(n-1), at most workers at a time,
// until one fails: then no other chunk starts, and those running stop
// before their next request (their stop channel closes) and return
// errBatchStopped. The requests in flight are not cancelled, so that what
// they did is known. It returns the first failure. A panic in a chunk is
// raised again in the caller's goroutine once the others have stopped.
func batchRun(n, workers int, chunk func(c int, stop <-chan struct{}) error) error {
	if workers < 1 {
		workers = defaultBatchConcurrency
	}
	workers = min(workers, n)
	next := make(chan int, n)
	for c := range n {
		next <- c
	}
	close(next)
	stop := make(chan struct{})
	var (
		once    sync.Once
		first   error
		panicky any
		wg      sync.WaitGroup
	)
	fail := func(err error, p any) {
		once.Do(func() {
			first, panicky = err, p
			close(stop)
		})
	}
	work := func() {
		defer func() {
			if p := recover(); p != nil {
				fail(nil, p)
			}
		}()
		for c := range next {
			select {
			case <-stop:
				return
			default:
			}
			if err := chunk(c, stop); err != nil {
				fail(err, nil)
				return
			}
		}
	}
	wg.Add(workers)
	for range workers {
		go func() {
			defer wg.Done()
			work()
		}()
	}
	wg.Wait()
	if panicky != nil {
		panic(panicky)
	}
	return first
}

// batchStopped returns the context's error, or errBatchStopped once stop
// is closed, or nil: whether a chunk may send its next request.
func batchStopped(ctx context.Context, stop <-chan struct{}) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	select {
	case <-stop:
		return errBatchStopped
	default:
		return nil
	}
}

// batchFailure is the error of a batch whose calls failed with err:
// state holds what became of each distinct key, of maps the caller's
// indexes to them.
func batchFailure(call BatchCall, done string, of []int, state []uint8, err error) *BatchError {
	e := &BatchError{Method: call.Method, Item: -1, Err: err, total: len(of), done: done}
	for i, k := range of {
		switch state[k] {
		case batchNotDone:
			e.NotDone = append(e.NotDone, i)
		case batchUnknown:
			e.Unknown = append(e.Unknown, i)
		}
	}
	return e
}

type batchGetClient interface {
	BatchGetItem(ctx context.Context, in *dynamodb.BatchGetItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error)
}

// BatchGet reads the items of keys, one per index of the caller's slice
// (a key may repeat), and decodes them: in the order of keys, absent
// items left out, a key given twice read once, at its first place. It
// sends 100 distinct keys per request, call.workers requests at once;
// each chunk's unprocessed keys and throttled requests are retried with
// backoff, batchAttempts requests at most. On a failure it returns the
// items read, and a *BatchError with the indexes of the keys not read.
func BatchGet[T any](ctx context.Context, c batchGetClient, call BatchCall, keys []map[string]types.AttributeValue, consistent bool, projection string, names map[string]string, decode func(item map[string]types.AttributeValue) (T, error)) ([]T, error) {
	send, of := batchUnique(len(keys), func(i int) map[string]types.AttributeValue { return keys[i] }, call.Key, false)
	items := make([]map[string]types.AttributeValue, len(send))
	state := make([]uint8, len(send))
	chunks := (len(send) + maxBatchGet - 1) / maxBatchGet
	err := batchRun(chunks, call.Workers, func(chunk int, stop <-chan struct{}) error {
		lo, hi := chunk*maxBatchGet, min((chunk+1)*maxBatchGet, len(send))
		at := make(map[string]int, hi-lo) // a key's number, by its hash
		for k := lo; k < hi; k++ {
			at[keyHash(keys[send[k]], call.Key...)] = k
		}
		pending := make([]map[string]types.AttributeValue, 0, hi-lo)
		for k := lo; k < hi; k++ {
			pending = append(pending, keys[send[k]])
		}
		var last error
		for attempt := 0; ; attempt++ {
			if err := batchStopped(ctx, stop); err != nil {
				return err
			}
			// Each request has its own copies: the client may change
			// what it is given.
			read, proj := consistent, projection
			ka := types.KeysAndAttributes{Keys: pending, ConsistentRead: &read}
			if projection != "" {
				ka.ProjectionExpression = &proj
				ka.ExpressionAttributeNames = maps.Clone(names)
			}
			res, err := c.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{call.Table: ka}})
			if err != nil {
				if !throttled(err) {
					return err
				}
				last = err
			} else {
				last = nil
				for _, item := range res.Responses[call.Table] {
					if k, ok := at[keyHash(item, call.Key...)]; ok {
						items[k] = item
					}
				}
				// The keys sent and not left unprocessed are read.
				left := map[int]bool{}
				next := pending[:0:0]
				for _, key := range res.UnprocessedKeys[call.Table].Keys {
					if k, ok := at[keyHash(key, call.Key...)]; ok && !left[k] && state[k] == batchNotDone {
						left[k] = true
						next = append(next, keys[send[k]])
					}
				}
				for _, key := range pending {
					if k := at[keyHash(key, call.Key...)]; !left[k] {
						state[k] = batchDone
					}
				}
				pending = next
				if len(pending) == 0 {
					return nil
				}
			}
			if attempt+1 >= batchAttempts {
				return &attemptsError{last}
			}
			if err := backoffOrStop(ctx, stop, attempt); err != nil {
				return err
			}
		}
	})
	out := make([]T, 0, len(send))
	var undecoded []UndecodedItem
	for i, k := range of {
		if send[k] != i || items[k] == nil || state[k] != batchDone {
			continue
		}
		if call.TTL != "" && Expired(items[k], call.TTL, call.Now) {
			continue // absent
		}
		v, derr := decode(items[k])
		if derr != nil {
			// Left out, and listed by the place of its key: the other
			// items are still read.
			state[k] = batchNotDone
			undecoded = append(undecoded, undecodable(i, derr, call.Key...))
			continue
		}
		out = append(out, v)
	}
	if err == nil && len(undecoded) == 0 {
		return out, nil
	}
	e := batchFailure(call, "read", of, state, err)
	if err == nil {
		e.Err = &DecodeError{Items: undecoded}
	}
	return out, e
}

type batchWriteClient interface {
	BatchWriteItem(ctx context.Context, in *dynamodb.BatchWriteItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error)
}

// writeKey is the item of a put or the key of a delete.
func writeKey(r types.WriteRequest) map[string]types.AttributeValue {
	if r.PutRequest != nil {
		return r.PutRequest.Item
	}
	if r.DeleteRequest != nil {
		return r.DeleteRequest.Key
	}
	return nil
}

// BatchWrite sends the write requests, one per index of the caller's
// slice, to call.table: one request per key (of two with one key, the
// last), 25 per request, call.workers requests at once; each chunk's
// unprocessed items and throttled requests are retried with backoff,
// batchAttempts requests at most. done is what a write does (written,
// deleted). On a failure it returns a *BatchError with the indexes of the
// writes not done and of those whose fate is unknown.
func BatchWrite(ctx context.Context, c batchWriteClient, call BatchCall, done string, reqs []types.WriteRequest) error {
	send, of := batchUnique(len(reqs), func(i int) map[string]types.AttributeValue { return writeKey(reqs[i]) }, call.Key, true)
	state := make([]uint8, len(send))
	chunks := (len(send) + maxBatchWrite - 1) / maxBatchWrite
	err := batchRun(chunks, call.Workers, func(chunk int, stop <-chan struct{}) error {
		lo, hi := chunk*maxBatchWrite, min((chunk+1)*maxBatchWrite, len(send))
		pending := make([]int, 0, hi-lo) // the numbers of the keys to send
		for k := lo; k < hi; k++ {
			pending = append(pending, k)
		}
		var at map[string]int // a key's number, by its hash, once needed
		var last error
		for attempt := 0; ; attempt++ {
			if err := batchStopped(ctx, stop); err != nil {
				return err
			}
			batch := make([]types.WriteRequest, len(pending))
			for j, k := range pending {
				batch[j] = reqs[send[k]]
			}
			res, err := c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{call.Table: batch}})
			if err != nil {
				if !throttled(err) {
					if !refused(err) {
						for _, k := range pending {
							state[k] = batchUnknown
						}
					}
					return err
				}
				last = err
			} else {
				last = nil
				unprocessed := res.UnprocessedItems[call.Table]
				if len(unprocessed) > 0 && at == nil {
					at = make(map[string]int, hi-lo)
					for k := lo; k < hi; k++ {
						at[keyHash(writeKey(reqs[send[k]]), call.Key...)] = k
					}
				}
				left := map[int]bool{}
				for _, r := range unprocessed {
					if k, ok := at[keyHash(writeKey(r), call.Key...)]; ok {
						left[k] = true
					}
				}
				next := pending[:0:0]
				for _, k := range pending {
					if left[k] {
						next = append(next, k)
					} else {
						state[k] = batchDone
					}
				}
				pending = next
				if len(pending) == 0 {
					return nil
				}
			}
			if attempt+1 >= batchAttempts {
				return &attemptsError{last}
			}
			if err := backoffOrStop(ctx, stop, attempt); err != nil {
				return err
			}
		}
	})
	if err != nil {
		return batchFailure(call, done, of, state, err)
	}
	return nil
}

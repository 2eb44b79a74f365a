package runtime

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// MaxTransactItems is the most items DynamoDB takes in one
// TransactWriteItems: the most keys a write over many keys with
// many: all takes.
const MaxTransactItems = 100

// ErrTooManyKeys: a write over many keys done as one transaction (many:
// all) was given more keys than DynamoDB takes in one transaction (100).
// Nothing was sent.
var ErrTooManyKeys = errors.New(pkgPrefix + "too many keys for one transaction")

// Many describes, for its method, a write of the same change to the item
// of each key of the caller's slice (a pattern with many: all or many:
// each): what is done to each item, and the errors of its failed
// condition.
type Many struct {
	Method string
	// Action is what is done to each key's item, as the spec says it:
	// "update Book".
	Action string
	// Step is the write of one key's item, as a step of a transaction:
	// the errors of a failed condition and its table's key attributes.
	Step TransactStep
	// PerKey is set for many: each: one call per key, with a result per
	// key; otherwise (many: all) the keys are written in one transaction.
	PerKey bool
}

// Count refuses, for many: all, more keys than one transaction takes
// (ErrTooManyKeys), before anything is built or sent.
func (m *Many) Count(n int) error {
	if m.PerKey || n <= MaxTransactItems {
		return nil
	}
	return &callError{method: m.Method, kind: ErrTooManyKeys, cause: errors.New(strconv.Itoa(n) + " keys, at most " + strconv.Itoa(MaxTransactItems))}
}

// Refused is the error of a value refused before any request, while the
// request of the key at index i of the caller's slice was built (a
// KeyError, an ItemError): a *TransactionError naming the key (many:
// all), or an *EachError naming it alone, Refused set (many: each).
// Nothing was sent.
func (m *Many) Refused(i int, err error) error {
	if m.PerKey {
		return &EachError{Method: m.Method, Failed: []KeyFailure{{Key: i, Err: &callError{method: m.Method, cause: err}}}, Refused: true}
	}
	return &callError{method: m.Method, cause: &TransactionError{Step: i + 1, Key: i, Action: m.Action, Err: err}}
}

// Distinct refuses, for many: all, two keys that address one item
// (DynamoDB refuses two actions on one item in a transaction): the
// second of them is ErrSameItem. Numbers are compared by value (0 and -0
// are one key).
func (m *Many) Distinct(items []types.TransactWriteItem) error {
	seen := make(map[string]bool, len(items))
	for i, it := range items {
		h := keyHash(transactKey(it), m.Step.Key...)
		if seen[h] {
			return m.Refused(i, ErrSameItem)
		}
		seen[h] = true
	}
	return nil
}

// Err maps the error of the TransactWriteItems of many: all: a
// cancellation becomes a *TransactionError naming the first key whose
// item has a reason, by its index in the caller's slice (Key), with the
// kind of its failed condition, as for a transaction's step.
func (m *Many) Err(err error, items []types.TransactWriteItem) error {
	t := &Transaction{Method: m.Method, Steps: slices.Repeat([]TransactStep{m.Step}, len(items)), keys: true}
	return t.Err(err, items)
}

// EachError is the error of a write over many keys with many: each,
// one call per key: the keys whose call failed, by their index in the
// caller's slice, each with its error, the error the pattern's single
// call would give (ErrNotFound, ErrConditionFailed, the SDK's...). Every
// other key's write was done. errors.Is and errors.As look into each
// key's error.
type EachError struct {
	Method string
	// Failed are the keys that failed, in increasing order of index.
	Failed []KeyFailure
	// Refused is set when a key or value was refused before any request
	// (Failed then names that key alone, with a *KeyError or *ItemError):
	// nothing was sent.
	Refused bool
	total   int
}

// KeyFailure is the failure of the write of one key of a write over many
// keys: the key's index in the caller's slice, and the error.
type KeyFailure struct {
	Key int
	Err error
}

func (e *EachError) Error() string {
	var b strings.Builder
	b.WriteString(pkgPrefix + e.Method + ": ")
	if e.Refused {
		b.WriteString("nothing sent: ")
	} else {
		b.WriteString(strconv.Itoa(len(e.Failed)) + " of " + strconv.Itoa(e.total) + " keys failed: ")
	}
	for i, f := range e.Failed {
		if i == 3 {
			b.WriteString("; ...")
			break
		}
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString("key " + strconv.Itoa(f.Key) + ": " + withoutMethod(f.Err, e.Method))
	}
	return b.String()
}

// withoutMethod is the text of a method's error without the prefix that
// names the method.
func withoutMethod(err error, method string) string {
	if err == nil {
		return "<nil>"
	}
	return strings.TrimPrefix(strings.TrimPrefix(err.Error(), pkgPrefix), method+": ")
}

// Unwrap gives every key's error, in order, to errors.Is and errors.As.
func (e *EachError) Unwrap() []error {
	out := make([]error, 0, len(e.Failed))
	for _, f := range e.Failed {
		out = append(out, f.Err)
	}
	return out
}

// Each runs write(ctx, i) for every i from 0 to n-1, up to workers (the
// Store's batch concurrency; < 1: the default) at once, for many: each.
// Every key is written, whatever the others' results; it returns nil, or
// an *EachError naming each key whose write failed. A panic in write is
// raised again in the caller's goroutine once the others have finished.
func (m *Many) Each(ctx context.Context, n, workers int, write func(ctx context.Context, i int) error) error {
	errs := make([]error, n)
	if n > 0 {
		// batchRun stops at its first failure; every key is written here,
		// so each write reports its error in errs and never fails.
		batchRun(n, workers, func(i int, _ <-chan struct{}) error {
			errs[i] = write(ctx, i)
			return nil
		})
	}
	var failed []KeyFailure
	for i, err := range errs {
		if err != nil {
			failed = append(failed, KeyFailure{Key: i, Err: err})
		}
	}
	if len(failed) == 0 {
		return nil
	}
	return &EachError{Method: m.Method, Failed: failed, total: n}
}

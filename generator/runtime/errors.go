package runtime

import (
	"errors"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Errors of the store's methods, for errors.Is. The SDK's own error, when
// there is one, is wrapped too, for errors.As.
var (
	// ErrNotFound: the item does not exist.
	ErrNotFound = errors.New(pkgPrefix + "item not found")
	// ErrAlreadyExists: a create found an item with the same key.
	ErrAlreadyExists = errors.New(pkgPrefix + "item already exists")
	// ErrConditionFailed: the pattern's when condition did not hold.
	ErrConditionFailed = errors.New(pkgPrefix + "condition failed")
	// ErrInvalidKey: a value can't be part of a key (see KeyError).
	ErrInvalidKey = errors.New(pkgPrefix + "invalid key value")
	// ErrInvalidItem: an attribute breaks its spec constraints (see
	// ItemError), or a stored item can't be decoded.
	ErrInvalidItem = errors.New(pkgPrefix + "invalid item")
	// ErrInvalidCursor: a cursor was damaged, comes from another query
	// (table, pattern, partition or operands), is not sealed with the
	// Store's cursor key, or holds a start key outside the query's key
	// condition.
	ErrInvalidCursor = errors.New(pkgPrefix + "invalid cursor")
)

// KeyError tells why a value can't be part of a key. It wraps
// ErrInvalidKey.
type KeyError struct {
	Attr   string // the attribute, as the spec names it
	Value  string
	Reason string
}

func (e *KeyError) Error() string {
	return pkgPrefix + "invalid key value for " + e.Attr + ": " + e.Reason
}

func (e *KeyError) Unwrap() error { return ErrInvalidKey }

// ItemError tells which attribute of an item breaks its constraints, or
// can't be decoded. It wraps ErrInvalidItem.
type ItemError struct {
	Entity string
	Attr   string
	Reason string
}

func (e *ItemError) Error() string {
	return pkgPrefix + e.Entity + "." + e.Attr + ": " + e.Reason
}

func (e *ItemError) Unwrap() error { return ErrInvalidItem }

// callError is the error of a store method: the method's name, then
// kind (ErrNotFound, ErrConditionFailed, ...) when not nil, then the
// cause (the SDK's error) when not nil. errors.Is finds kind and
// errors.As finds the cause.
type callError struct {
	method string
	kind   error
	cause  error
}

func (e *callError) Error() string {
	msg := pkgPrefix + e.method
	if e.kind != nil {
		msg += ": " + strings.TrimPrefix(e.kind.Error(), pkgPrefix)
	}
	if e.cause != nil {
		msg += ": " + e.cause.Error()
	}
	return msg
}

func (e *callError) Unwrap() []error {
	var out []error
	if e.kind != nil {
		out = append(out, e.kind)
	}
	if e.cause != nil {
		out = append(out, e.cause)
	}
	return out
}

// conditionError maps the error of a conditional write: a failed
// condition becomes ifAbsent when DynamoDB returned no item (the item
// does not exist), ifPresent when it did; other errors keep their cause.
func conditionError(method string, err, ifAbsent, ifPresent error) error {
	var ccf *types.ConditionalCheckFailedException
	if errors.As(err, &ccf) {
		if len(ccf.Item) == 0 {
			return &callError{method, ifAbsent, err}
		}
		return &callError{method, ifPresent, err}
	}
	return &callError{method, nil, err}
}

package runtime

import (
	"errors"
	"strconv"
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
	// ErrVersionConflict: a write of a versioned item was given a
	// version that is not the stored one: another write came between
	// the read and this one. Read the item again and retry.
	ErrVersionConflict = errors.New(pkgPrefix + "version conflict")
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
// ErrInvalidKey. Its message names the attribute and the reason, never
// the value.
type KeyError struct {
	Attr   string // the attribute, as the spec names it
	Value  string // the value refused, for the caller (not in the message)
	Reason string
}

func (e *KeyError) Error() string {
	return pkgPrefix + "invalid key value for " + e.Attr + ": " + e.Reason
}

func (e *KeyError) Unwrap() error { return ErrInvalidKey }

// ItemError tells which attribute of an item breaks its constraints, or
// can't be decoded. It wraps ErrInvalidItem. Its message names the
// attribute and the reason, never the value.
type ItemError struct {
	Entity string
	Attr   string
	Reason string
}

func (e *ItemError) Error() string {
	if e.Entity == "" && e.Attr == "" {
		return pkgPrefix + e.Reason
	}
	return pkgPrefix + e.Entity + "." + e.Attr + ": " + e.Reason
}

func (e *ItemError) Unwrap() error { return ErrInvalidItem }

// callError is the error of a store method: every error a method returns
// is one. It holds the method's name, then kind (ErrNotFound,
// ErrConditionFailed, ...) when not nil, then the cause when not nil:
// the SDK's error, a KeyError, an ItemError, a DecodeError or one of the
// Err variables. errors.Is finds kind and errors.As finds the cause.
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
		msg += ": " + strings.TrimPrefix(e.cause.Error(), pkgPrefix)
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

// ConditionErr maps the error of a conditional write: a failed
// condition becomes ifAbsent when DynamoDB returned no item (the item
// does not exist), ifPresent when it did; other errors keep their cause.
func ConditionErr(method string, err, ifAbsent, ifPresent error) error {
	var ccf *types.ConditionalCheckFailedException
	if errors.As(err, &ccf) {
		if len(ccf.Item) == 0 {
			return &callError{method, ifAbsent, err}
		}
		return &callError{method, ifPresent, err}
	}
	return &callError{method, nil, err}
}

// ExpiringConditionErr is ConditionErr for a write that treats an
// expired item as absent: a failed condition whose item has expired (its
// ttl attribute at or before now, the value the request sent) becomes
// ifAbsent too.
func ExpiringConditionErr(method string, err, ifAbsent, ifPresent error, ttl string, now types.AttributeValue) error {
	var ccf *types.ConditionalCheckFailedException
	if errors.As(err, &ccf) && len(ccf.Item) > 0 && expiredAt(ccf.Item, ttl, now) {
		return &callError{method, ifAbsent, err}
	}
	return ConditionErr(method, err, ifAbsent, ifPresent)
}

// VersionErr maps the error of a conditional write of a versioned
// item, which holds its version in attribute attr: a failed condition is
// ErrNotFound when DynamoDB returned no item (there is none) or, for a
// write that treats an expired item as absent (ttl is not ""), one whose
// time to live is at or before now, the value the request sent; else
// ErrVersionConflict when the stored version is not expected; when it
// is, the pattern's when condition failed: ifPresent. Other errors keep
// their cause.
func VersionErr(method string, err error, attr string, expected int64, ifPresent error, ttl string, now types.AttributeValue) error {
	var ccf *types.ConditionalCheckFailedException
	if !errors.As(err, &ccf) {
		return &callError{method, nil, err}
	}
	if len(ccf.Item) == 0 {
		return &callError{method, ErrNotFound, err}
	}
	if expiredAt(ccf.Item, ttl, now) {
		return &callError{method, ErrNotFound, err}
	}
	if n, ok := ccf.Item[attr].(*types.AttributeValueMemberN); !ok || !sameNumber(n.Value, strconv.FormatInt(expected, 10)) {
		return &callError{method, ErrVersionConflict, err}
	}
	return &callError{method, ifPresent, err}
}

// DecodeError is the error of a read that left out of its result the
// items it could not decode: the result holds every other item. Items
// lists those left out, in the order they were read. It wraps each one's
// ItemError, so errors.Is finds ErrInvalidItem and errors.As the first
// ItemError.
type DecodeError struct {
	Items []UndecodedItem
}

// UndecodedItem is an item a read could not decode.
type UndecodedItem struct {
	// Position is where the item was: among the items DynamoDB returned
	// for the page of a query (from 0), or, for a batch read, the place
	// of its key in the keys given (the first place, for a key given
	// twice).
	Position int
	// KeyAttrs names the attributes of the table's primary key, which
	// identify the item; no error holds their values.
	KeyAttrs []string
	// Err tells which attribute can't be decoded, and why.
	Err *ItemError
}

func (e *DecodeError) Error() string {
	var b strings.Builder
	b.WriteString(pkgPrefix)
	if len(e.Items) == 1 {
		b.WriteString("1 item can't be decoded")
	} else {
		b.WriteString(strconv.Itoa(len(e.Items)) + " items can't be decoded")
	}
	for i, u := range e.Items {
		if i == 0 {
			b.WriteString(": ")
		} else {
			b.WriteString("; ")
		}
		b.WriteString("item " + strconv.Itoa(u.Position))
		if len(u.KeyAttrs) > 0 {
			b.WriteString(" (key " + strings.Join(u.KeyAttrs, ", ") + ")")
		}
		if u.Err != nil {
			b.WriteString(": " + strings.TrimPrefix(u.Err.Error(), pkgPrefix))
		}
	}
	return b.String()
}

// Unwrap returns the ItemError of every item, or ErrInvalidItem when
// there is none.
func (e *DecodeError) Unwrap() []error {
	out := make([]error, 0, len(e.Items))
	for _, u := range e.Items {
		if u.Err != nil {
			out = append(out, u.Err)
		}
	}
	if len(out) == 0 {
		out = append(out, ErrInvalidItem)
	}
	return out
}

// undecodable is the item at position that could not be decoded (err,
// which the decoders make an ItemError); keyAttrs name the table's
// primary key attributes.
func undecodable(position int, err error, keyAttrs ...string) UndecodedItem {
	ie, ok := err.(*ItemError)
	if !ok && !errors.As(err, &ie) {
		ie = &ItemError{Reason: "can't be decoded"}
	}
	return UndecodedItem{Position: position, KeyAttrs: keyAttrs, Err: ie}
}

// undecodedErr is the error of method's read that left out the items of
// undecoded: nil when there are none.
//
//go:noinline
func undecodedErr(method string, undecoded []UndecodedItem) error {
	if len(undecoded) == 0 {
		return nil
	}
	return &callError{method: method, cause: &DecodeError{Items: undecoded}}
}

// pkgPrefix starts every error message of the runtime.
const pkgPrefix = "dyngen: "

// Fail is the error of the Store method named method that failed with
// cause: the SDK's error, a KeyError, an ItemError, a DecodeError, a
// cursor's error or one of the Err variables. errors.Is and errors.As
// find cause.
func Fail(method string, cause error) error { return &callError{method: method, cause: cause} }

// FailKind is Fail with the kind of the failure (ErrNotFound,
// ErrConditionFailed, ...), which errors.Is finds, before its cause (nil
// for none).
func FailKind(method string, kind, cause error) error {
	return &callError{method: method, kind: kind, cause: cause}
}

// Wrap is Fail(method, err), or nil when err is nil.
func Wrap(method string, err error) error {
	if err == nil {
		return nil
	}
	return Fail(method, err)
}

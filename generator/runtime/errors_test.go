package runtime

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
)

var allKinds = []error{ErrNotFound, ErrAlreadyExists, ErrConditionFailed, ErrInvalidKey, ErrInvalidItem, ErrInvalidCursor}

func TestErrorKindsDistinct(t *testing.T) {
	for i, a := range allKinds {
		if !strings.HasPrefix(a.Error(), pkgPrefix) {
			t.Errorf("%q lacks the prefix %q", a, pkgPrefix)
		}
		for j, b := range allKinds {
			if (i == j) != errors.Is(a, b) {
				t.Errorf("errors.Is(%v, %v) = %v", a, b, errors.Is(a, b))
			}
		}
	}
}

// callErr builds a store method's error as the generated code does.
func callErr(method string, kind, cause error) error { return &callError{method, kind, cause} }

func TestCallErrorWithKind(t *testing.T) {
	ccf := &types.ConditionalCheckFailedException{Message: aws.String("The conditional request failed")}
	sdkErr := &smithy.OperationError{ServiceID: "DynamoDB", OperationName: "PutItem", Err: ccf}
	err := callErr("CreateBook", ErrAlreadyExists, sdkErr)

	if !errors.Is(err, ErrAlreadyExists) {
		t.Errorf("errors.Is(%v, ErrAlreadyExists) = false", err)
	}
	for _, k := range allKinds {
		if k != ErrAlreadyExists && errors.Is(err, k) {
			t.Errorf("errors.Is(%v, %v) = true", err, k)
		}
	}
	var got *types.ConditionalCheckFailedException
	if !errors.As(err, &got) || got != ccf {
		t.Errorf("errors.As(%v, *ConditionalCheckFailedException) = %v, want the original", err, got)
	}
	var op *smithy.OperationError
	if !errors.As(err, &op) || op != sdkErr {
		t.Errorf("errors.As(%v, *smithy.OperationError) = %v", err, op)
	}
	var api smithy.APIError
	if !errors.As(err, &api) || api.ErrorCode() != "ConditionalCheckFailedException" {
		t.Errorf("errors.As(%v, smithy.APIError) = %v", err, api)
	}
	msg := err.Error()
	if want := pkgPrefix + "CreateBook: item already exists: " + sdkErr.Error(); msg != want {
		t.Errorf("message %q, want %q", msg, want)
	}
	if strings.Count(msg, pkgPrefix) != 1 {
		t.Errorf("message %q repeats the prefix %q", msg, pkgPrefix)
	}
	// Wrapped again by the caller, all still holds.
	outer := fmt.Errorf("handler: %w", err)
	if !errors.Is(outer, ErrAlreadyExists) || !errors.As(outer, &got) || !errors.Is(outer, ccf) {
		t.Errorf("wrapped again: Is %v, As %v", errors.Is(outer, ErrAlreadyExists), errors.As(outer, &got))
	}
}

func TestCallErrorWithoutKindOrCause(t *testing.T) {
	rnf := &types.ResourceNotFoundException{Message: aws.String("Requested resource not found")}
	err := callErr("GetBook", nil, rnf)
	for _, k := range allKinds {
		if errors.Is(err, k) {
			t.Errorf("errors.Is(%v, %v) = true with no kind", err, k)
		}
	}
	var got *types.ResourceNotFoundException
	if !errors.As(err, &got) || got != rnf {
		t.Errorf("errors.As(%v, *ResourceNotFoundException) = %v", err, got)
	}
	if msg, want := err.Error(), pkgPrefix+"GetBook: "+rnf.Error(); msg != want {
		t.Errorf("message %q, want %q", msg, want)
	}
	// A kind without a cause (e.g. ErrNotFound from an empty GetItem).
	err = callErr("GetBook", ErrNotFound, nil)
	if !errors.Is(err, ErrNotFound) {
		t.Errorf("errors.Is(%v, ErrNotFound) = false", err)
	}
	if msg, want := err.Error(), pkgPrefix+"GetBook: item not found"; msg != want {
		t.Errorf("message %q, want %q", msg, want)
	}
	if msg := callErr("M", nil, nil).Error(); msg != pkgPrefix+"M" {
		t.Errorf("callError with neither: %q", msg)
	}
	// Every kind, with an error that is not the SDK's.
	plain := errors.New("boom")
	for _, k := range allKinds {
		err := callErr("M", k, plain)
		if !errors.Is(err, k) || !errors.Is(err, plain) {
			t.Errorf("callError(M, %v, boom) = %v: Is kind %v, Is cause %v", k, err, errors.Is(err, k), errors.Is(err, plain))
		}
		if want := pkgPrefix + "M: " + strings.TrimPrefix(k.Error(), pkgPrefix) + ": boom"; err.Error() != want {
			t.Errorf("message %q, want %q", err, want)
		}
	}
}

func TestConditionError(t *testing.T) {
	absent := &types.ConditionalCheckFailedException{Message: aws.String("no")}
	present := &types.ConditionalCheckFailedException{Message: aws.String("no"), Item: map[string]types.AttributeValue{
		"pk": &types.AttributeValueMemberS{Value: "BOOK#1"},
	}}
	emptyItem := &types.ConditionalCheckFailedException{Item: map[string]types.AttributeValue{}}
	op := func(err error) error {
		return &smithy.OperationError{ServiceID: "DynamoDB", OperationName: "UpdateItem", Err: err}
	}
	for _, tt := range []struct {
		name  string
		err   error
		ccf   *types.ConditionalCheckFailedException
		want  error // kind
		other []error
	}{
		{"absent", absent, absent, ErrNotFound, []error{ErrConditionFailed}},
		{"absent wrapped", op(absent), absent, ErrNotFound, []error{ErrConditionFailed}},
		{"absent, empty item", op(emptyItem), emptyItem, ErrNotFound, []error{ErrConditionFailed}},
		{"present", present, present, ErrConditionFailed, []error{ErrNotFound}},
		{"present wrapped twice", fmt.Errorf("x: %w", op(present)), present, ErrConditionFailed, []error{ErrNotFound}},
		{"joined", errors.Join(errors.New("other"), present), present, ErrConditionFailed, []error{ErrNotFound}},
	} {
		err := ConditionErr("UpdateBook", tt.err, ErrNotFound, ErrConditionFailed)
		if !errors.Is(err, tt.want) {
			t.Errorf("%s: errors.Is(%v, %v) = false", tt.name, err, tt.want)
		}
		for _, o := range tt.other {
			if errors.Is(err, o) {
				t.Errorf("%s: errors.Is(%v, %v) = true", tt.name, err, o)
			}
		}
		var got *types.ConditionalCheckFailedException
		if !errors.As(err, &got) || got != tt.ccf {
			t.Errorf("%s: errors.As(%v, *ConditionalCheckFailedException) = %v, want the original", tt.name, err, got)
		}
		if !errors.Is(err, tt.err) {
			t.Errorf("%s: the cause is not wrapped: %v", tt.name, err)
		}
		if !strings.HasPrefix(err.Error(), pkgPrefix+"UpdateBook: ") {
			t.Errorf("%s: message %q", tt.name, err)
		}
	}
	// A create: the condition fails when the item exists.
	err := ConditionErr("CreateBook", op(present), nil, ErrAlreadyExists)
	if !errors.Is(err, ErrAlreadyExists) {
		t.Errorf("create: %v", err)
	}
	// Errors that are not a failed condition keep their cause, no kind.
	for _, cause := range []error{
		errors.New("ConditionalCheckFailedException"),
		&types.TransactionCanceledException{Message: aws.String("ConditionalCheckFailed")},
		op(&types.ProvisionedThroughputExceededException{}),
		&smithy.GenericAPIError{Code: "ConditionalCheckFailedException"},
		ErrConditionFailed,
	} {
		err := ConditionErr("UpdateBook", cause, ErrNotFound, ErrAlreadyExists)
		if errors.Is(err, ErrNotFound) || errors.Is(err, ErrAlreadyExists) {
			t.Errorf("conditionError(%v) = %v: has a kind", cause, err)
		}
		var got *types.ConditionalCheckFailedException
		if errors.As(err, &got) {
			t.Errorf("conditionError(%v): As finds a ConditionalCheckFailedException", cause)
		}
		if !errors.Is(err, cause) {
			t.Errorf("conditionError(%v) = %v lost its cause", cause, err)
		}
		if want := pkgPrefix + "UpdateBook: " + strings.TrimPrefix(cause.Error(), pkgPrefix); err.Error() != want {
			t.Errorf("message %q, want %q", err, want)
		}
	}
}

func TestVersionError(t *testing.T) {
	stored := func(item map[string]types.AttributeValue) error {
		return &smithy.OperationError{ServiceID: "DynamoDB", OperationName: "PutItem", Err: &types.ConditionalCheckFailedException{Item: item}}
	}
	n := func(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }
	for _, tt := range []struct {
		name  string
		err   error
		want  error
		other []error
	}{
		{"absent", stored(nil), ErrNotFound, []error{ErrVersionConflict, ErrConditionFailed}},
		{"another version", stored(map[string]types.AttributeValue{"rev": n("8")}), ErrVersionConflict, []error{ErrNotFound, ErrConditionFailed}},
		{"no version stored", stored(map[string]types.AttributeValue{"id": &types.AttributeValueMemberS{Value: "a"}}), ErrVersionConflict, []error{ErrNotFound, ErrConditionFailed}},
		{"the version read: the when failed", stored(map[string]types.AttributeValue{"rev": n("7")}), ErrConditionFailed, []error{ErrNotFound, ErrVersionConflict}},
		// By value: 7.0 is the version read.
		{"the version read in another text", stored(map[string]types.AttributeValue{"rev": n("7.0")}), ErrConditionFailed, []error{ErrNotFound, ErrVersionConflict}},
		{"a version of no number", stored(map[string]types.AttributeValue{"rev": n("7x")}), ErrVersionConflict, []error{ErrNotFound, ErrConditionFailed}},
		// An expired item is absent, whatever its version.
		{"expired, another version", stored(map[string]types.AttributeValue{"rev": n("8"), "exp": n("100")}), ErrNotFound, []error{ErrVersionConflict, ErrConditionFailed}},
		{"expired, the version read", stored(map[string]types.AttributeValue{"rev": n("7"), "exp": n("200")}), ErrNotFound, []error{ErrVersionConflict, ErrConditionFailed}},
		{"not expired yet", stored(map[string]types.AttributeValue{"rev": n("8"), "exp": n("201")}), ErrVersionConflict, []error{ErrNotFound, ErrConditionFailed}},
	} {
		err := VersionErr("SaveBook", tt.err, "rev", 7, ErrConditionFailed, "exp", n("200"))
		if !errors.Is(err, tt.want) {
			t.Errorf("%s: errors.Is(%v, %v) = false", tt.name, err, tt.want)
		}
		for _, o := range tt.other {
			if errors.Is(err, o) {
				t.Errorf("%s: errors.Is(%v, %v) = true", tt.name, err, o)
			}
		}
		if !errors.Is(err, tt.err) {
			t.Errorf("%s: the cause is not wrapped: %v", tt.name, err)
		}
	}
	// Another error keeps its cause, with no kind.
	cause := errors.New("throttled")
	err := VersionErr("SaveBook", cause, "rev", 7, ErrConditionFailed, "", nil)
	if !errors.Is(err, cause) || errors.Is(err, ErrVersionConflict) || errors.Is(err, ErrNotFound) {
		t.Errorf("versionError(%v) = %v", cause, err)
	}
}

func TestKeyAndItemErrors(t *testing.T) {
	ke := &KeyError{Attr: "isbn", Value: "a#b", Reason: "holds '#'"}
	if got, want := ke.Error(), pkgPrefix+"invalid key value for isbn: holds '#'"; got != want {
		t.Errorf("KeyError.Error() = %q, want %q", got, want)
	}
	if !errors.Is(ke, ErrInvalidKey) || errors.Is(ke, ErrInvalidItem) {
		t.Errorf("KeyError Is: ErrInvalidKey %v, ErrInvalidItem %v", errors.Is(ke, ErrInvalidKey), errors.Is(ke, ErrInvalidItem))
	}
	ie := &ItemError{Entity: "Book", Attr: "title", Reason: "missing"}
	if got, want := ie.Error(), pkgPrefix+"Book.title: missing"; got != want {
		t.Errorf("ItemError.Error() = %q, want %q", got, want)
	}
	if !errors.Is(ie, ErrInvalidItem) || errors.Is(ie, ErrInvalidKey) {
		t.Errorf("ItemError Is: ErrInvalidItem %v, ErrInvalidKey %v", errors.Is(ie, ErrInvalidItem), errors.Is(ie, ErrInvalidKey))
	}
	// Through callError, the details stay reachable.
	err := callErr("PutBook", nil, ke)
	var got *KeyError
	if !errors.As(err, &got) || got != ke || !errors.Is(err, ErrInvalidKey) {
		t.Errorf("callError lost the KeyError: %v", err)
	}
}

// TestCallErrorOverOwnErrors checks that a method's error over a KeyError,
// an ItemError or ErrInvalidCursor names the method once, with one
// prefix, and keeps the error reachable.
func TestCallErrorOverOwnErrors(t *testing.T) {
	ke := &KeyError{Attr: "isbn", Value: "a#b", Reason: "holds '#', a separator of its key"}
	ie := &ItemError{Entity: "Book", Attr: "title", Reason: "missing"}
	for _, tt := range []struct {
		cause error
		is    error
		want  string
	}{
		{ke, ErrInvalidKey, "GetBook: invalid key value for isbn: holds '#', a separator of its key"},
		{ie, ErrInvalidItem, "GetBook: Book.title: missing"},
		{ErrInvalidCursor, ErrInvalidCursor, "GetBook: invalid cursor"},
		{ErrNotFound, ErrNotFound, "GetBook: item not found"},
	} {
		err := callErr("GetBook", nil, tt.cause)
		if got := err.Error(); got != pkgPrefix+tt.want {
			t.Errorf("message %q, want %q", got, pkgPrefix+tt.want)
		}
		if !errors.Is(err, tt.is) || !errors.Is(err, tt.cause) {
			t.Errorf("%v: errors.Is %v = false", err, tt.is)
		}
	}
	var gotKE *KeyError
	if err := callErr("GetBook", nil, ke); !errors.As(err, &gotKE) || gotKE != ke {
		t.Errorf("errors.As(*KeyError) = %v", gotKE)
	}
	var gotIE *ItemError
	if err := callErr("GetBook", nil, ie); !errors.As(err, &gotIE) || gotIE != ie {
		t.Errorf("errors.As(*ItemError) = %v", gotIE)
	}
}

func TestDecodeError(t *testing.T) {
	if err := undecodedErr("Books", nil); err != nil {
		t.Errorf("decodeErr with no undecoded item = %v, want nil", err)
	}
	a := &ItemError{Entity: "Book", Attr: "pages", Reason: "not stored as N"}
	b := &ItemError{Entity: "Review", Attr: "stars", Reason: "missing"}
	err := undecodedErr("Books", []UndecodedItem{
		undecodable(1, a, "PK", "SK"),
		// The decoders return an ItemError; another error is still listed.
		undecodable(4, errors.New("boom"), "PK", "SK"),
		undecodable(7, fmt.Errorf("wrapped: %w", b), "PK", "SK"),
	})
	want := pkgPrefix + "Books: 3 items can't be decoded: item 1 (key PK, SK): Book.pages: not stored as N; " +
		"item 4 (key PK, SK): can't be decoded; item 7 (key PK, SK): Review.stars: missing"
	if err.Error() != want {
		t.Errorf("message\n%q, want\n%q", err, want)
	}
	if !errors.Is(err, ErrInvalidItem) || errors.Is(err, ErrInvalidKey) {
		t.Errorf("errors.Is: ErrInvalidItem %v, ErrInvalidKey %v", errors.Is(err, ErrInvalidItem), errors.Is(err, ErrInvalidKey))
	}
	var de *DecodeError
	if !errors.As(err, &de) || len(de.Items) != 3 {
		t.Fatalf("errors.As(*DecodeError) = %v", de)
	}
	for i, want := range []struct {
		pos  int
		attr string
	}{{1, "pages"}, {4, ""}, {7, "stars"}} {
		u := de.Items[i]
		if u.Position != want.pos || u.Err == nil || u.Err.Attr != want.attr || !slices.Equal(u.KeyAttrs, []string{"PK", "SK"}) {
			t.Errorf("item %d: %+v, want position %d, attribute %q", i, u, want.pos, want.attr)
		}
	}
	var ie *ItemError
	if !errors.As(err, &ie) || ie != a {
		t.Errorf("errors.As(*ItemError) = %v, want the first", ie)
	}
	one := &DecodeError{Items: []UndecodedItem{undecodable(0, b, "id")}}
	if want := pkgPrefix + "1 item can't be decoded: item 0 (key id): Review.stars: missing"; one.Error() != want {
		t.Errorf("message %q, want %q", one, want)
	}
	if !errors.Is(&DecodeError{}, ErrInvalidItem) {
		t.Error("an empty DecodeError is not ErrInvalidItem")
	}
}

// TestExpiringConditionError: a write that treats an expired item as
// absent maps the failed condition of an expired item (its ttl at or
// before the now the request sent) as of an absent one.
func TestExpiringConditionError(t *testing.T) {
	item := func(ttl string) *types.ConditionalCheckFailedException {
		it := map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "W#1"}}
		if ttl != "" {
			it["exp"] = &types.AttributeValueMemberN{Value: ttl}
		}
		return &types.ConditionalCheckFailedException{Item: it}
	}
	now := &types.AttributeValueMemberN{Value: "1000"}
	for _, tt := range []struct {
		name string
		err  error
		now  types.AttributeValue
		want error
	}{
		{"absent", &types.ConditionalCheckFailedException{}, now, ErrNotFound},
		{"expired before now", item("999"), now, ErrNotFound},
		{"expired at now", item("1000"), now, ErrNotFound},
		{"live", item("1001"), now, ErrConditionFailed},
		{"no ttl", item(""), now, ErrConditionFailed},
		{"a ttl that is no number", item("soon"), now, ErrConditionFailed},
		{"no now sent", item("999"), nil, ErrConditionFailed},
	} {
		err := ExpiringConditionErr("UpdateW", tt.err, ErrNotFound, ErrConditionFailed, "exp", tt.now)
		if !errors.Is(err, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, err, tt.want)
		}
		if !errors.Is(err, tt.err) {
			t.Errorf("%s: the cause is not wrapped: %v", tt.name, err)
		}
	}
	other := errors.New("throttled")
	if err := ExpiringConditionErr("UpdateW", other, ErrNotFound, ErrConditionFailed, "exp", now); errors.Is(err, ErrNotFound) || errors.Is(err, ErrConditionFailed) || !errors.Is(err, other) {
		t.Errorf("another error: %v", err)
	}
}

// TestExpired: an item has expired when its ttl attribute is a number at
// or before now; without one, or with another type, it never expires.
func TestExpired(t *testing.T) {
	for _, tt := range []struct {
		name string
		v    types.AttributeValue
		want bool
	}{
		{"before", &types.AttributeValueMemberN{Value: "99"}, true},
		{"at", &types.AttributeValueMemberN{Value: "100"}, true},
		{"after", &types.AttributeValueMemberN{Value: "101"}, false},
		{"a fraction before", &types.AttributeValueMemberN{Value: "99.5"}, true},
		{"a string", &types.AttributeValueMemberS{Value: "1"}, false},
		{"not a number", &types.AttributeValueMemberN{Value: "x"}, false},
		{"absent", nil, false},
	} {
		item := map[string]types.AttributeValue{}
		if tt.v != nil {
			item["exp"] = tt.v
		}
		if got := Expired(item, "exp", 100); got != tt.want {
			t.Errorf("%s: expired = %v, want %v", tt.name, got, tt.want)
		}
	}
}

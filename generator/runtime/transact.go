package runtime

import (
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

var (
	// ErrTransactionConflict: another request changed an item of the
	// transaction while it ran. The transaction changed nothing, and
	// retrying it may succeed (TransactionError.RetryableError).
	ErrTransactionConflict = errors.New(pkgPrefix + "transaction conflict")
	// ErrSameItem: two steps of a transaction address one item, which
	// DynamoDB refuses; the values of the call made their keys equal.
	ErrSameItem = errors.New(pkgPrefix + "two steps of the transaction address one item")
	// ErrInvalidRequestToken: a transaction's RequestToken is longer than
	// the 36 characters DynamoDB takes, or is not UTF-8.
	ErrInvalidRequestToken = errors.New(pkgPrefix + "invalid request token")
)

// TransactionError tells which step of a transaction failed, and why. It
// wraps the step's kind of error (ErrAlreadyExists, ErrNotFound,
// ErrConditionFailed, ErrVersionConflict, ErrTransactionConflict,
// ErrSameItem, a KeyError or an ItemError) for errors.Is and errors.As,
// and the SDK's *types.TransactionCanceledException, which lists every
// step's reason.
type TransactionError struct {
	// Step is the step's number, from 1, in the order of the spec and of
	// the request, as the method's doc comment and dyngen plan count
	// them.
	Step int
	// Key is, for a write over many keys in one transaction (many:
	// all), the index in the caller's slice of the key whose item failed
	// (Step-1: the items are sent in the order of the keys); -1 for a
	// step of a transaction pattern or of a write with unique values.
	Key int
	// Action is what the step does, as the spec says it: "create Like".
	Action string
	// Reason is DynamoDB's cancellation reason for the step
	// (ConditionalCheckFailed, TransactionConflict, ...); "" for a value
	// refused before the call.
	Reason string
	// Err is the step's kind of error; nil for a reason that has none.
	Err   error
	cause error
}

func (e *TransactionError) Error() string {
	msg := pkgPrefix + "step " + strconv.Itoa(e.Step) + " (" + e.Action + ")"
	if e.Key >= 0 {
		msg = pkgPrefix + "key " + strconv.Itoa(e.Key) + " (" + e.Action + ")"
	}
	if e.Err != nil {
		msg += ": " + strings.TrimPrefix(e.Err.Error(), pkgPrefix)
	} else if e.Reason != "" {
		msg += ": " + e.Reason
	}
	return msg
}

func (e *TransactionError) Unwrap() []error {
	var out []error
	if e.Err != nil {
		out = append(out, e.Err)
	}
	if e.cause != nil {
		out = append(out, e.cause)
	}
	return out
}

// RetryableError reports whether retrying the transaction may succeed: a
// conflict with another request. It serves the caller's retry loop: the
// SDK's retryer sees the call's own exception.
func (e *TransactionError) RetryableError() bool { return e.Err == ErrTransactionConflict }

// Transaction describes a transaction's steps for its method: what each
// does, the errors a failed condition of each is, and the pairs of steps
// whose keys the method compares before the call.
type Transaction struct {
	Method   string
	Steps    []TransactStep
	Distinct [][2]int
	// sent is, when not nil, each sent item's place among the steps (see
	// only).
	sent []int
	// keys is set on the transaction of a write over many keys (Many):
	// its errors name the key (TransactionError.Key).
	keys bool
}

// TransactStep is one step of a transaction: its action, the errors of a
// failed condition when its item is absent and present, its table's key
// attributes and, for a step that treats an expired item as absent, the
// ttl attribute and the placeholder of the now its condition compares.
type TransactStep struct {
	Action              string
	IfAbsent, IfPresent error
	Key                 []string
	TTL, Now            string
	// version is the stored attribute holding the item's version, and
	// expected the placeholder of the version the step expects, for a
	// step of a versioned entity.
	Version, Expected string
}

// stepError is the error of a value refused before the call by the step
// at index i.
func (t *Transaction) StepError(i int, err error) error {
	return &callError{method: t.Method, cause: &TransactionError{Step: t.number(i), Key: t.key(i), Action: t.Steps[i].Action, Err: err}}
}

// number is the number, from 1, of the step at index i among those
// sent: its place among all the steps.
func (t *Transaction) number(i int) int {
	if i < len(t.sent) {
		return t.sent[i] + 1
	}
	return i + 1
}

// key is TransactionError.Key of the item at index i: i for a write
// over many keys, else -1.
func (t *Transaction) key(i int) int {
	if t.keys {
		return i
	}
	return -1
}

// distinctItems refuses a transaction whose steps of a pair of
// t.distinct address one item.
func (t *Transaction) DistinctItems(items []types.TransactWriteItem) error {
	for _, d := range t.Distinct {
		if sameKey(transactKey(items[d[0]]), transactKey(items[d[1]]), t.Steps[d[0]].Key) {
			return t.StepError(d[1], ErrSameItem)
		}
	}
	return nil
}

// distinctGets is distinctItems for the items a TransactGet reads.
func (t *Transaction) DistinctGets(items []types.TransactGetItem) error {
	for _, d := range t.Distinct {
		if sameKey(items[d[0]].Get.Key, items[d[1]].Get.Key, t.Steps[d[0]].Key) {
			return t.StepError(d[1], ErrSameItem)
		}
	}
	return nil
}

// transactKey is the key of a transaction's item: the item a Put writes
// holds it.
func transactKey(it types.TransactWriteItem) map[string]types.AttributeValue {
	switch {
	case it.Put != nil:
		return it.Put.Item
	case it.Update != nil:
		return it.Update.Key
	case it.Delete != nil:
		return it.Delete.Key
	case it.ConditionCheck != nil:
		return it.ConditionCheck.Key
	}
	return nil
}

// sameKey reports whether x and y hold equal values of the key
// attributes names.
func sameKey(x, y map[string]types.AttributeValue, names []string) bool {
	for _, n := range names {
		switch a := x[n].(type) {
		case *types.AttributeValueMemberS:
			b, ok := y[n].(*types.AttributeValueMemberS)
			if !ok || a.Value != b.Value {
				return false
			}
		case *types.AttributeValueMemberN:
			// By value: 0 and -0 are one key.
			b, ok := y[n].(*types.AttributeValueMemberN)
			if !ok || !sameNumber(a.Value, b.Value) {
				return false
			}
		case *types.AttributeValueMemberB:
			b, ok := y[n].(*types.AttributeValueMemberB)
			if !ok || string(a.Value) != string(b.Value) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// err maps the error of the transaction's call of items (nil for a
// read): a cancellation becomes a TransactionError for its first step
// with a reason, in request order; a failed condition is the step's
// ifAbsent when DynamoDB returned no item
// (ReturnValuesOnConditionCheckFailure ALL_OLD) or an expired one, its
// ifPresent when it returned another.
func (t *Transaction) Err(err error, items []types.TransactWriteItem) error {
	var tce *types.TransactionCanceledException
	if !errors.As(err, &tce) {
		return &callError{method: t.Method, cause: err}
	}
	for i, r := range tce.CancellationReasons {
		code := aws.ToString(r.Code)
		if code == "" || code == "None" || i >= len(t.Steps) {
			continue
		}
		te := &TransactionError{Step: t.number(i), Key: t.key(i), Action: t.Steps[i].Action, Reason: code, cause: err}
		switch code {
		case "ConditionalCheckFailed":
			st := &t.Steps[i]
			switch {
			case len(r.Item) == 0, i < len(items) && st.expired(r.Item, items[i]):
				te.Err = st.IfAbsent
			case i < len(items) && st.staleVersion(r.Item, items[i]):
				te.Err = ErrVersionConflict
			default:
				te.Err = st.IfPresent
			}
			if te.Err == nil {
				te.Err = ErrConditionFailed
			}
		case "TransactionConflict":
			te.Err = ErrTransactionConflict
		}
		return &callError{method: t.Method, cause: te}
	}
	return &callError{method: t.Method, cause: err}
}

// expired reports whether a step that treats an expired item as absent
// failed on an item expired at the now its request sent.
func (s *TransactStep) expired(item map[string]types.AttributeValue, sent types.TransactWriteItem) bool {
	return s.TTL != "" && expiredAt(item, s.TTL, sentValues(sent)[s.Now])
}

// staleVersion reports whether a step of a versioned entity failed on
// an item whose version is not the one its request expected.
func (s *TransactStep) staleVersion(item map[string]types.AttributeValue, sent types.TransactWriteItem) bool {
	if s.Version == "" {
		return false
	}
	want, ok := sentValues(sent)[s.Expected].(*types.AttributeValueMemberN)
	if !ok {
		return false
	}
	got, ok := item[s.Version].(*types.AttributeValueMemberN)
	return !ok || !sameNumber(got.Value, want.Value)
}

// sentValues are the ExpressionAttributeValues of a transaction's item.
func sentValues(sent types.TransactWriteItem) map[string]types.AttributeValue {
	switch {
	case sent.Put != nil:
		return sent.Put.ExpressionAttributeValues
	case sent.Update != nil:
		return sent.Update.ExpressionAttributeValues
	case sent.Delete != nil:
		return sent.Delete.ExpressionAttributeValues
	case sent.ConditionCheck != nil:
		return sent.ConditionCheck.ExpressionAttributeValues
	}
	return nil
}

// maxRequestToken is the longest ClientRequestToken DynamoDB takes, in
// characters.
const maxRequestToken = 36

// requestToken is the ClientRequestToken of a call: nil when the caller
// gives none (the SDK then makes one per call). A token DynamoDB would
// refuse, longer than 36 characters or not UTF-8, is refused before the
// call.
func (t *Transaction) RequestToken(token string) (*string, error) {
	if token == "" {
		return nil, nil
	}
	if !utf8.ValidString(token) || utf8.RuneCountInString(token) > maxRequestToken {
		return nil, &callError{method: t.Method, kind: ErrInvalidRequestToken}
	}
	return &token, nil
}

// TransactPut, TransactUpdate and TransactDelete make the request of a
// write, built as the write's own call would send it, a transaction's
// item; TransactCheck and TransactGet wrap a check and a get. Each
// passes on the error of the step's builder.
func TransactPut(in *dynamodb.PutItemInput, err error) (types.TransactWriteItem, error) {
	if err != nil {
		return types.TransactWriteItem{}, err
	}
	return types.TransactWriteItem{Put: &types.Put{
		TableName:                           in.TableName,
		Item:                                in.Item,
		ConditionExpression:                 in.ConditionExpression,
		ExpressionAttributeNames:            in.ExpressionAttributeNames,
		ExpressionAttributeValues:           in.ExpressionAttributeValues,
		ReturnValuesOnConditionCheckFailure: in.ReturnValuesOnConditionCheckFailure,
	}}, nil
}

func TransactUpdate(in *dynamodb.UpdateItemInput, err error) (types.TransactWriteItem, error) {
	if err != nil {
		return types.TransactWriteItem{}, err
	}
	return types.TransactWriteItem{Update: &types.Update{
		TableName:                           in.TableName,
		Key:                                 in.Key,
		UpdateExpression:                    in.UpdateExpression,
		ConditionExpression:                 in.ConditionExpression,
		ExpressionAttributeNames:            in.ExpressionAttributeNames,
		ExpressionAttributeValues:           in.ExpressionAttributeValues,
		ReturnValuesOnConditionCheckFailure: in.ReturnValuesOnConditionCheckFailure,
	}}, nil
}

func TransactDelete(in *dynamodb.DeleteItemInput, err error) (types.TransactWriteItem, error) {
	if err != nil {
		return types.TransactWriteItem{}, err
	}
	return types.TransactWriteItem{Delete: &types.Delete{
		TableName:                           in.TableName,
		Key:                                 in.Key,
		ConditionExpression:                 in.ConditionExpression,
		ExpressionAttributeNames:            in.ExpressionAttributeNames,
		ExpressionAttributeValues:           in.ExpressionAttributeValues,
		ReturnValuesOnConditionCheckFailure: in.ReturnValuesOnConditionCheckFailure,
	}}, nil
}

func TransactCheck(in *types.ConditionCheck, err error) (types.TransactWriteItem, error) {
	return types.TransactWriteItem{ConditionCheck: in}, err
}

func TransactGet(in *types.Get, err error) (types.TransactGetItem, error) {
	return types.TransactGetItem{Get: in}, err
}

// ItemAt is the item of the i-th response of a TransactGetItems: nil when
// there is no such item.
func ItemAt(responses []types.ItemResponse, i int) map[string]types.AttributeValue {
	if i < len(responses) {
		return responses[i].Item
	}
	return nil
}

// only is the transaction of the steps keep, in the order sent: a write
// of an entity with unique values leaves out the claims of a value that
// does not change. Its errors name each step by its place among t's.
func (t *Transaction) Only(keep ...int) *Transaction {
	o := &Transaction{Method: t.Method, sent: keep}
	for _, i := range keep {
		o.Steps = append(o.Steps, t.Steps[i])
	}
	return o
}

// CountDelta is the amount a write adds to the number of one group of a
// count kept by group: -1 when the item read was in the group (was), +1
// when the item written is (is), 0 when both or neither.
func CountDelta(was, is bool) int64 {
	var d int64
	if was {
		d--
	}
	if is {
		d++
	}
	return d
}

// Held is one part of an update's condition that holds an attribute as
// a read found it (see HoldRead).
type Held struct {
	// Stored is the attribute's stored name.
	Stored string
	// Present is the part sent when the item read holds the attribute,
	// "#name = :name_read", Value its placeholder of the value read;
	// Absent the part sent when the item read lacks it,
	// "attribute_not_exists(#name)".
	Present, Absent, Value string
}

// HoldRead adds to the condition of in, after what it holds, the part
// of each of held that item, the item read as stored, calls for, with
// the value read: the update then holds only while each attribute holds
// what the read found, or is still absent. Numbers, sets and maps compare
// as DynamoDB compares them (by value, sets in any order), so an item
// changed by no one else always passes.
func HoldRead(in *dynamodb.UpdateItemInput, item map[string]types.AttributeValue, held []Held) *dynamodb.UpdateItemInput {
	parts := make([]string, 0, len(held)+1)
	if c := aws.ToString(in.ConditionExpression); c != "" {
		parts = append(parts, c)
	}
	for _, h := range held {
		v, ok := item[h.Stored]
		if !ok {
			parts = append(parts, h.Absent)
			continue
		}
		if in.ExpressionAttributeValues == nil {
			in.ExpressionAttributeValues = map[string]types.AttributeValue{}
		}
		in.ExpressionAttributeValues[h.Value] = v
		parts = append(parts, h.Present)
	}
	in.ConditionExpression = aws.String(strings.Join(parts, " AND "))
	return in
}

// DropAbsent deletes from item, an item a write is about to store, each
// attribute of names that read, the item read before, lacks: the copy an
// update moves holds what its owner holds, and a read gives an absent
// attribute its default without storing it.
func DropAbsent(item, read map[string]types.AttributeValue, names ...string) {
	for _, n := range names {
		if _, ok := read[n]; !ok {
			delete(item, n)
		}
	}
}

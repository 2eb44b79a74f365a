package runtime

import (
	"errors"
	"strconv"
	"strings"

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
)

// TransactionError tells which step of a transaction failed, and why. It
// wraps the step's kind of error (ErrAlreadyExists, ErrNotFound,
// ErrConditionFailed, ErrTransactionConflict, ErrSameItem, a KeyError or
// an ItemError) for errors.Is and errors.As, and the SDK's
// *types.TransactionCanceledException, which lists every step's reason.
type TransactionError struct {
	// Step is the step's place in the transaction, from 0, in the order
	// of the spec and of the request. (A write of an entity with unique
	// values sends some of its steps: Step is the place among all of
	// them, as its doc comment numbers them from 1.)
	Step int
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
	msg := pkgPrefix + "step " + strconv.Itoa(e.Step+1) + " (" + e.Action + ")"
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
// conflict with another request. The SDK's retryer reads it.
func (e *TransactionError) RetryableError() bool { return e.Err == ErrTransactionConflict }

// transaction describes a transaction's steps for its method: what each
// does, the errors a failed condition of each is, and the pairs of steps
// whose keys the method compares before the call.
type transaction struct {
	method   string
	steps    []transactStep
	distinct [][2]int
	// sent is, when not nil, each sent item's place among the steps (see
	// only).
	sent []int
}

// transactStep is one step of a transaction: its action, the errors of a
// failed condition when its item is absent and present, its table's key
// attributes and, for a step that treats an expired item as absent, the
// ttl attribute and the placeholder of the now its condition compares.
type transactStep struct {
	action              string
	ifAbsent, ifPresent error
	key                 []string
	ttl, now            string
}

// stepError is the error of a value step i refused before the call.
func (t *transaction) stepError(i int, err error) error {
	return &callError{method: t.method, cause: &TransactionError{Step: i, Action: t.steps[i].action, Err: err}}
}

// distinctItems refuses a call whose steps of a pair of t.distinct
// address one item: keys holds each step's key, or its item.
func (t *transaction) distinctItems(keys ...map[string]types.AttributeValue) error {
	for _, d := range t.distinct {
		if sameKey(keys[d[0]], keys[d[1]], t.steps[d[0]].key) {
			return t.stepError(d[1], ErrSameItem)
		}
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
			b, ok := y[n].(*types.AttributeValueMemberN)
			// The generated code writes a number of a key in one form.
			if !ok || a.Value != b.Value {
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
func (t *transaction) err(err error, items []types.TransactWriteItem) error {
	var tce *types.TransactionCanceledException
	if !errors.As(err, &tce) {
		return &callError{method: t.method, cause: err}
	}
	for i, r := range tce.CancellationReasons {
		code := aws.ToString(r.Code)
		if code == "" || code == "None" || i >= len(t.steps) {
			continue
		}
		te := &TransactionError{Step: i, Action: t.steps[i].action, Reason: code, cause: err}
		if i < len(t.sent) {
			te.Step = t.sent[i]
		}
		switch code {
		case "ConditionalCheckFailed":
			te.Err = t.steps[i].ifPresent
			if len(r.Item) == 0 || i < len(items) && t.steps[i].expired(r.Item, items[i]) {
				te.Err = t.steps[i].ifAbsent
			}
			if te.Err == nil {
				te.Err = ErrConditionFailed
			}
		case "TransactionConflict":
			te.Err = ErrTransactionConflict
		}
		return &callError{method: t.method, cause: te}
	}
	return &callError{method: t.method, cause: err}
}

// expired reports whether a step that treats an expired item as absent
// failed on an item expired at the now its request sent.
func (s *transactStep) expired(item map[string]types.AttributeValue, sent types.TransactWriteItem) bool {
	if s.ttl == "" {
		return false
	}
	var values map[string]types.AttributeValue
	switch {
	case sent.Put != nil:
		values = sent.Put.ExpressionAttributeValues
	case sent.Update != nil:
		values = sent.Update.ExpressionAttributeValues
	case sent.ConditionCheck != nil:
		values = sent.ConditionCheck.ExpressionAttributeValues
	}
	n, ok := values[s.now].(*types.AttributeValueMemberN)
	if !ok {
		return false
	}
	sec, err := strconv.ParseInt(n.Value, 10, 64)
	return err == nil && expired(item, s.ttl, sec)
}

// requestToken is the ClientRequestToken of a call: nil when the caller
// gives none (the SDK then makes one per call).
func requestToken(token string) *string {
	if token == "" {
		return nil
	}
	return &token
}

// transactPut, transactUpdate and transactDelete make the request of a
// write, built as the write's own call, a step of a transaction.
func transactPut(in *dynamodb.PutItemInput) types.TransactWriteItem {
	return types.TransactWriteItem{Put: &types.Put{
		TableName:                           in.TableName,
		Item:                                in.Item,
		ConditionExpression:                 in.ConditionExpression,
		ExpressionAttributeNames:            in.ExpressionAttributeNames,
		ExpressionAttributeValues:           in.ExpressionAttributeValues,
		ReturnValuesOnConditionCheckFailure: in.ReturnValuesOnConditionCheckFailure,
	}}
}

func transactUpdate(in *dynamodb.UpdateItemInput) types.TransactWriteItem {
	return types.TransactWriteItem{Update: &types.Update{
		TableName:                           in.TableName,
		Key:                                 in.Key,
		UpdateExpression:                    in.UpdateExpression,
		ConditionExpression:                 in.ConditionExpression,
		ExpressionAttributeNames:            in.ExpressionAttributeNames,
		ExpressionAttributeValues:           in.ExpressionAttributeValues,
		ReturnValuesOnConditionCheckFailure: in.ReturnValuesOnConditionCheckFailure,
	}}
}

func transactDelete(in *dynamodb.DeleteItemInput) types.TransactWriteItem {
	return types.TransactWriteItem{Delete: &types.Delete{
		TableName:                           in.TableName,
		Key:                                 in.Key,
		ConditionExpression:                 in.ConditionExpression,
		ExpressionAttributeNames:            in.ExpressionAttributeNames,
		ExpressionAttributeValues:           in.ExpressionAttributeValues,
		ReturnValuesOnConditionCheckFailure: in.ReturnValuesOnConditionCheckFailure,
	}}
}

// itemAt is the item of the i-th response of a TransactGetItems: nil when
// there is no such item.
func itemAt(responses []types.ItemResponse, i int) map[string]types.AttributeValue {
	if i < len(responses) {
		return responses[i].Item
	}
	return nil
}

// only is the transaction of the steps keep, in the order sent: a write
// of an entity with unique values leaves out the claims of a value that
// does not change. Its errors name each step by its place among t's.
func (t *transaction) only(keep ...int) *transaction {
	o := &transaction{method: t.method, sent: keep}
	for _, i := range keep {
		o.steps = append(o.steps, t.steps[i])
	}
	return o
}

package runtime

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// An item that DynamoDB's time to live deletes leaves behind what dyngen
// wrote with it: the claims of its unique values stay taken, and the
// counters that count it stay one too high. A consumer of the table's
// stream that releases the entity (release: in the spec) frees them when
// the record of the deletion arrives, in one transaction built from the
// item as it was (see Release): the receipt of the record, the Delete
// of each claim and an update of each counter.

// ReleaseClient is the call a release makes.
type ReleaseClient interface {
	TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, optFns ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error)
}

// Release is the transaction that frees what an expired item held.
type Release struct {
	// Method names the release in errors; Table is the table's physical
	// name and Keys its key attributes.
	Method string
	Table  string
	Keys   []string
	// Receipt is the receipt's item (its entity's MarshalItem), put on
	// ReceiptCondition (ReceiptNames its names): no receipt of the record
	// there yet.
	Receipt          map[string]types.AttributeValue
	ReceiptCondition string
	ReceiptNames     map[string]string
	// Steps are the claims deleted and the counters updated.
	Steps []ReleaseStep
}

// ReleaseStep is one claim's Delete or one counter's update: the item its
// entity's MarshalItem built from the item that expired, whose key
// attributes the step addresses.
type ReleaseStep struct {
	// What names it in errors: "the claim of email", "count ByStatus".
	What string
	Item map[string]types.AttributeValue
	// Update is the UpdateExpression of a counter's update; a claim's
	// step, without one, is a Delete.
	Update    string
	Condition string
	Names     map[string]string
	// Values are the values of the placeholders; FromItem names, per
	// placeholder, the attribute of Item whose value it takes (a claim's
	// owner's key, as the claim holds it).
	Values   map[string]types.AttributeValue
	FromItem map[string]string
}

// ReceiptKept is how long a release's receipt is kept after its record
// was written: a stream holds a record 24 hours, and its consumers retry
// it at most that long.
const ReceiptKept = 48 * time.Hour

// ReleaseAge is the oldest record a release takes: a DynamoDB stream
// holds a record 24 hours, and a record older than that (a Kinesis data
// stream keeps records longer, and replays them) may be one released
// before whose receipt is gone.
const ReleaseAge = 24 * time.Hour

// ReceiptOf is the receipt of r's release: the ID of its item, a digest
// of the record's event ID and sequence number (whatever text they hold,
// a key's), and when it expires, ReceiptKept after now (now the Store's
// clock). It refuses, wrapping ErrInvalidRecord, a record that says
// neither, or that is older than ReleaseAge by now: the receipt of an
// earlier release of it may be gone, and releasing it again would free
// what another item holds.
func ReceiptOf(r *StreamRecord, now time.Time) (id string, expires time.Time, err error) {
	if r.EventID == "" && r.SequenceNumber == "" {
		return "", time.Time{}, fmt.Errorf("%w: a removal to release has no event ID and no sequence number to key its receipt by", ErrInvalidRecord)
	}
	if !r.Created.IsZero() && now.Sub(r.Created) > ReleaseAge {
		return "", time.Time{}, fmt.Errorf("%w: a removal written %s ago, more than the %s a DynamoDB stream holds a record: an earlier release of it may have left no receipt, so it is not released again", ErrInvalidRecord, now.Sub(r.Created).Truncate(time.Second), ReleaseAge)
	}
	sum := sha256.Sum256([]byte(r.EventID + "\x00" + r.SequenceNumber))
	return hex.EncodeToString(sum[:16]), now.Add(ReceiptKept).UTC().Truncate(time.Second), nil
}

// ReleaseExpired sends rel. It reports whether it released anything:
// false when the receipt was there already (the record was released
// before). A claim held by another item, or gone, and a counter that is
// gone hold nothing of the item's: their steps are left out and the rest
// sent again. Any other failure is an error.
func ReleaseExpired(ctx context.Context, c ReleaseClient, rel *Release) (bool, error) {
	steps := append([]ReleaseStep(nil), rel.Steps...)
	for {
		items, err := rel.items(steps)
		if err != nil {
			return false, &callError{method: rel.Method, cause: err}
		}
		_, err = c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: items})
		if err == nil {
			return true, nil
		}
		var tce *types.TransactionCanceledException
		if !errors.As(err, &tce) {
			return false, &callError{method: rel.Method, cause: err}
		}
		failed := map[int]bool{}
		for i, r := range tce.CancellationReasons {
			code := aws.ToString(r.Code)
			switch {
			case code == "" || code == "None":
			case code != "ConditionalCheckFailed":
				return false, &callError{method: rel.Method, cause: err}
			case i == 0:
				// The receipt is there: released before.
				return false, nil
			case i <= len(steps):
				failed[i-1] = true
			}
		}
		if len(failed) == 0 {
			return false, &callError{method: rel.Method, cause: err}
		}
		var kept []ReleaseStep
		for i, st := range steps {
			if !failed[i] {
				kept = append(kept, st)
			}
		}
		steps = kept
	}
}

// items are the transaction's actions: the receipt's Put, then steps.
func (rel *Release) items(steps []ReleaseStep) ([]types.TransactWriteItem, error) {
	if 1+len(steps) > MaxTransactItems {
		return nil, fmt.Errorf("releases %d claims and counters, more than one transaction of %d actions takes", len(steps), MaxTransactItems)
	}
	items := make([]types.TransactWriteItem, 0, 1+len(steps))
	items = append(items, types.TransactWriteItem{Put: &types.Put{
		TableName:                aws.String(rel.Table),
		Item:                     rel.Receipt,
		ConditionExpression:      aws.String(rel.ReceiptCondition),
		ExpressionAttributeNames: ownNames(rel.ReceiptNames),
	}})
	for _, st := range steps {
		key := map[string]types.AttributeValue{}
		for _, k := range rel.Keys {
			v, ok := st.Item[k]
			if !ok {
				return nil, fmt.Errorf("%s: the item built holds no key attribute %s", st.What, k)
			}
			key[k] = v
		}
		values := maps.Clone(st.Values)
		for ph, attr := range st.FromItem {
			v, ok := st.Item[attr]
			if !ok {
				return nil, fmt.Errorf("%s: the item built holds no %s", st.What, attr)
			}
			if values == nil {
				values = map[string]types.AttributeValue{}
			}
			values[ph] = v
		}
		if st.Update == "" {
			items = append(items, types.TransactWriteItem{Delete: &types.Delete{
				TableName: aws.String(rel.Table), Key: key,
				ConditionExpression:       aws.String(st.Condition),
				ExpressionAttributeNames:  ownNames(st.Names),
				ExpressionAttributeValues: values,
			}})
			continue
		}
		items = append(items, types.TransactWriteItem{Update: &types.Update{
			TableName: aws.String(rel.Table), Key: key,
			UpdateExpression:          aws.String(st.Update),
			ConditionExpression:       aws.String(st.Condition),
			ExpressionAttributeNames:  ownNames(st.Names),
			ExpressionAttributeValues: values,
		}})
	}
	return items, nil
}

// Delta is the value a counter's group takes in a release: -1 for the
// group the item was in, 0 for the others.
func Delta(in bool) types.AttributeValue {
	if in {
		return &types.AttributeValueMemberN{Value: "-1"}
	}
	return &types.AttributeValueMemberN{Value: "0"}
}

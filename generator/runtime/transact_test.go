package runtime

import (
	"errors"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// A transaction that sends some of its steps names the failed one by its
// place among all of them, with its action and error kinds.
func TestTransactionOnly(t *testing.T) {
	tx := &Transaction{Method: "ChangeEmail", Steps: []TransactStep{
		{Action: "update User", IfAbsent: ErrNotFound, IfPresent: ErrConditionFailed},
		{Action: "release User.email"},
		{Action: "claim User.email", IfAbsent: ErrConditionFailed, IfPresent: ErrAlreadyExists},
		{Action: "release User.phone"},
		{Action: "claim User.phone", IfAbsent: ErrConditionFailed, IfPresent: ErrAlreadyExists},
	}}
	none, failed := aws.String("None"), aws.String("ConditionalCheckFailed")
	claim := map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "UNIQUE#User#phone#1"}}
	// Sent: the update and the phone's steps; the phone's claim fails.
	cause := &types.TransactionCanceledException{CancellationReasons: []types.CancellationReason{
		{Code: none}, {Code: none}, {Code: failed, Item: claim},
	}}
	err := tx.Only(0, 3, 4).Err(cause, nil)
	var te *TransactionError
	if !errors.As(err, &te) {
		t.Fatalf("error %v is no *TransactionError", err)
	}
	if te.Step != 5 || te.Action != "claim User.phone" || !errors.Is(err, ErrAlreadyExists) {
		t.Errorf("step %d (%s): %v; want step 5 (claim User.phone), ErrAlreadyExists", te.Step, te.Action, err)
	}
	// All of t: the places are the request's. (Steps count from 1.)
	cause = &types.TransactionCanceledException{CancellationReasons: []types.CancellationReason{{Code: failed, Item: claim}}}
	if err := tx.Err(cause, nil); !errors.As(err, &te) || te.Step != 1 || !errors.Is(err, ErrConditionFailed) {
		t.Errorf("err of all steps: %v", err)
	}
}

// Two steps whose keys hold one number in two texts address one item:
// ErrSameItem, before the call.
func TestSameKeyNumbers(t *testing.T) {
	key := func(pk string, sk string) map[string]types.AttributeValue {
		return map[string]types.AttributeValue{"zone": &types.AttributeValueMemberN{Value: pk}, "level": &types.AttributeValueMemberN{Value: sk}}
	}
	tx := &Transaction{Method: "Label", Distinct: [][2]int{{0, 1}}, Steps: []TransactStep{
		{Action: "update Gauge", Key: []string{"zone", "level"}},
		{Action: "update Gauge", Key: []string{"zone", "level"}},
	}}
	for _, tt := range []struct {
		a, b [2]string
		same bool
	}{
		{[2]string{"1", "0"}, [2]string{"1", "-0"}, true},
		{[2]string{"1e+06", "1"}, [2]string{"1000000", "1.0"}, true},
		{[2]string{"7", "0.00001"}, [2]string{"7", "1e-05"}, true},
		{[2]string{"7", "1"}, [2]string{"7", "10"}, false},
		{[2]string{"7", "1e-130"}, [2]string{"7", "-1e-130"}, false},
	} {
		items := []types.TransactWriteItem{
			{Update: &types.Update{Key: key(tt.a[0], tt.a[1])}},
			{Delete: &types.Delete{Key: key(tt.b[0], tt.b[1])}},
		}
		err := tx.DistinctItems(items)
		if got := errors.Is(err, ErrSameItem); got != tt.same {
			t.Errorf("keys %v and %v: %v, want the same item %v", tt.a, tt.b, err, tt.same)
		}
		gets := []types.TransactGetItem{{Get: &types.Get{Key: key(tt.a[0], tt.a[1])}}, {Get: &types.Get{Key: key(tt.b[0], tt.b[1])}}}
		if got := errors.Is(tx.DistinctGets(gets), ErrSameItem); got != tt.same {
			t.Errorf("gets of keys %v and %v: the same item %v, want %v", tt.a, tt.b, got, tt.same)
		}
	}
}

// A step's version is compared by value: an item holding the expected
// version in another text failed on the step's own condition, not on
// its version.
func TestStaleVersionNumbers(t *testing.T) {
	tx := &Transaction{Method: "Save", Steps: []TransactStep{{Action: "put Doc", IfAbsent: ErrNotFound, IfPresent: ErrConditionFailed, Version: "rev", Expected: ":rev"}}}
	sent := []types.TransactWriteItem{{Put: &types.Put{ExpressionAttributeValues: map[string]types.AttributeValue{":rev": &types.AttributeValueMemberN{Value: "5"}}}}}
	for _, tt := range []struct {
		stored string
		want   error
	}{{"5", ErrConditionFailed}, {"5.0", ErrConditionFailed}, {"5e0", ErrConditionFailed}, {"6", ErrVersionConflict}} {
		cause := &types.TransactionCanceledException{CancellationReasons: []types.CancellationReason{{
			Code: aws.String("ConditionalCheckFailed"),
			Item: map[string]types.AttributeValue{"rev": &types.AttributeValueMemberN{Value: tt.stored}},
		}}}
		if err := tx.Err(cause, sent); !errors.Is(err, tt.want) {
			t.Errorf("stored version %s: %v, want %v", tt.stored, err, tt.want)
		}
	}
}

func TestCountDelta(t *testing.T) {
	for _, c := range []struct {
		was, is bool
		want    int64
	}{{false, false, 0}, {true, false, -1}, {false, true, 1}, {true, true, 0}} {
		if got := CountDelta(c.was, c.is); got != c.want {
			t.Errorf("CountDelta(%v, %v) = %d, want %d", c.was, c.is, got, c.want)
		}
	}
}

// HoldRead adds, after the condition, each attribute's part as the item
// read calls for: the value read when it holds the attribute, its
// absence when it does not; with no values before, it makes the map.
func TestHoldRead(t *testing.T) {
	held := []Held{
		{Stored: "email", Present: "#email = :email_read", Absent: "attribute_not_exists(#email)", Value: ":email_read"},
		{Stored: "nick", Present: "#nick = :nick_read", Absent: "attribute_not_exists(#nick)", Value: ":nick_read"},
	}
	email := &types.AttributeValueMemberS{Value: "a@b"}
	for _, tc := range []struct {
		name   string
		cond   *string
		values map[string]types.AttributeValue
		item   map[string]types.AttributeValue
		want   string
		sent   []string
	}{
		{"both held", aws.String("attribute_exists(PK)"), map[string]types.AttributeValue{":x": email},
			map[string]types.AttributeValue{"email": email, "nick": email},
			"attribute_exists(PK) AND #email = :email_read AND #nick = :nick_read", []string{":x", ":email_read", ":nick_read"}},
		{"one absent", aws.String("attribute_exists(PK)"), nil,
			map[string]types.AttributeValue{"email": email},
			"attribute_exists(PK) AND #email = :email_read AND attribute_not_exists(#nick)", []string{":email_read"}},
		{"no condition before", nil, nil, map[string]types.AttributeValue{},
			"attribute_not_exists(#email) AND attribute_not_exists(#nick)", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := HoldRead(&dynamodb.UpdateItemInput{ConditionExpression: tc.cond, ExpressionAttributeValues: tc.values}, tc.item, held)
			if got := aws.ToString(in.ConditionExpression); got != tc.want {
				t.Errorf("condition %q; want %q", got, tc.want)
			}
			if len(in.ExpressionAttributeValues) != len(tc.sent) {
				t.Errorf("values %v; want %v", in.ExpressionAttributeValues, tc.sent)
			}
			for _, ph := range tc.sent {
				if in.ExpressionAttributeValues[ph] == nil {
					t.Errorf("value %s not sent: %v", ph, in.ExpressionAttributeValues)
				}
			}
			if v := in.ExpressionAttributeValues[":email_read"]; v != nil && v != types.AttributeValue(email) {
				t.Errorf(":email_read is %v; want the value read", v)
			}
		})
	}
}

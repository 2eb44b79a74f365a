package runtime

import (
	"errors"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// A transaction that sends some of its steps names the failed one by its
// place among all of them, with its action and error kinds.
func TestTransactionOnly(t *testing.T) {
	tx := &transaction{method: "ChangeEmail", steps: []transactStep{
		{action: "update User", ifAbsent: ErrNotFound, ifPresent: ErrConditionFailed},
		{action: "release User.email"},
		{action: "claim User.email", ifAbsent: ErrConditionFailed, ifPresent: ErrAlreadyExists},
		{action: "release User.phone"},
		{action: "claim User.phone", ifAbsent: ErrConditionFailed, ifPresent: ErrAlreadyExists},
	}}
	none, failed := aws.String("None"), aws.String("ConditionalCheckFailed")
	claim := map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "UNIQUE#User#phone#1"}}
	// Sent: the update and the phone's steps; the phone's claim fails.
	cause := &types.TransactionCanceledException{CancellationReasons: []types.CancellationReason{
		{Code: none}, {Code: none}, {Code: failed, Item: claim},
	}}
	err := tx.only(0, 3, 4).err(cause, nil)
	var te *TransactionError
	if !errors.As(err, &te) {
		t.Fatalf("error %v is no *TransactionError", err)
	}
	if te.Step != 5 || te.Action != "claim User.phone" || !errors.Is(err, ErrAlreadyExists) {
		t.Errorf("step %d (%s): %v; want step 5 (claim User.phone), ErrAlreadyExists", te.Step, te.Action, err)
	}
	// All of t: the places are the request's. (Steps count from 1.)
	cause = &types.TransactionCanceledException{CancellationReasons: []types.CancellationReason{{Code: failed, Item: claim}}}
	if err := tx.err(cause, nil); !errors.As(err, &te) || te.Step != 1 || !errors.Is(err, ErrConditionFailed) {
		t.Errorf("err of all steps: %v", err)
	}
}

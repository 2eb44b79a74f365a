package runtime

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// cancelling fails each transaction with the reasons of its turn, then
// succeeds; it keeps the actions of each.
type cancelling struct {
	turns [][]string
	sent  [][]types.TransactWriteItem
}

func (c *cancelling) TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, _ ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	c.sent = append(c.sent, in.TransactItems)
	if len(c.turns) == 0 {
		return &dynamodb.TransactWriteItemsOutput{}, nil
	}
	codes := c.turns[0]
	c.turns = c.turns[1:]
	var reasons []types.CancellationReason
	for _, code := range codes {
		reasons = append(reasons, types.CancellationReason{Code: aws.String(code)})
	}
	return nil, &types.TransactionCanceledException{CancellationReasons: reasons}
}

func releaseOf() *Release {
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	item := func(pk, owner string) map[string]types.AttributeValue {
		return map[string]types.AttributeValue{"PK": s(pk), "SK": s(pk), "owner": s(owner)}
	}
	return &Release{
		Method: "Expiry", Table: "T", Keys: []string{"PK", "SK"},
		Receipt: item("DYNGEN#RELEASED#x", ""), ReceiptCondition: "attribute_not_exists(PK)",
		Steps: []ReleaseStep{
			{What: "the claim of a", Item: item("UNIQUE#a", "o"), Condition: "attribute_not_exists(PK) OR #owner = :owner", Names: map[string]string{"#owner": "owner"}, FromItem: map[string]string{":owner": "owner"}},
			{What: "the claim of b", Item: item("UNIQUE#b", "o"), Condition: "attribute_not_exists(PK) OR #owner = :owner", Names: map[string]string{"#owner": "owner"}, FromItem: map[string]string{":owner": "owner"}},
			{What: "count C", Item: item("COUNT#C", ""), Update: "ADD #n :n", Condition: "attribute_exists(PK)", Names: map[string]string{"#n": "n"}, Values: map[string]types.AttributeValue{":n": Delta(true)}},
		},
	}
}

// TestReleaseExpired sends the receipt first, then the claims and the
// counters; a receipt already there is a release done before; a claim or
// counter whose condition fails is left out and the rest sent again; any
// other cancellation is an error.
func TestReleaseExpired(t *testing.T) {
	ctx := context.Background()
	c := &cancelling{}
	if done, err := ReleaseExpired(ctx, c, releaseOf()); !done || err != nil || len(c.sent) != 1 || len(c.sent[0]) != 4 {
		t.Fatalf("a release: %v, %v, %d calls", done, err, len(c.sent))
	}
	put := c.sent[0][0].Put
	if put == nil || aws.ToString(put.ConditionExpression) != "attribute_not_exists(PK)" {
		t.Errorf("the first action is no receipt's Put: %+v", c.sent[0][0])
	}
	del := c.sent[0][1].Delete
	if del == nil || len(del.Key) != 2 || del.ExpressionAttributeValues[":owner"].(*types.AttributeValueMemberS).Value != "o" {
		t.Errorf("a claim's Delete: %+v", del)
	}
	if up := c.sent[0][3].Update; up == nil || up.ExpressionAttributeValues[":n"].(*types.AttributeValueMemberN).Value != "-1" {
		t.Errorf("a counter's update: %+v", up)
	}

	c = &cancelling{turns: [][]string{{"ConditionalCheckFailed", "None", "None", "None"}}}
	if done, err := ReleaseExpired(ctx, c, releaseOf()); done || err != nil || len(c.sent) != 1 {
		t.Errorf("a receipt already there: %v, %v, %d calls; want released before, one call", done, err, len(c.sent))
	}

	c = &cancelling{turns: [][]string{{"None", "None", "ConditionalCheckFailed", "None"}, {"None", "None", "ConditionalCheckFailed"}}}
	if done, err := ReleaseExpired(ctx, c, releaseOf()); !done || err != nil || len(c.sent) != 3 || len(c.sent[1]) != 3 || len(c.sent[2]) != 2 {
		t.Errorf("claims held by others: %v, %v, calls of %d actions", done, err, len(c.sent))
	}
	if len(c.sent) == 3 {
		// Claim b, then the counter, were left out: claim a is sent.
		if d := c.sent[2][1].Delete; d == nil || d.Key["PK"].(*types.AttributeValueMemberS).Value != "UNIQUE#a" {
			t.Errorf("the last call's second action: %+v", c.sent[2][1])
		}
	}

	c = &cancelling{turns: [][]string{{"None", "ThrottlingError", "None", "None"}}}
	if _, err := ReleaseExpired(ctx, c, releaseOf()); err == nil {
		t.Error("a throttled release succeeded")
	}
}

// TestReceiptOf keys a receipt by a digest of the record's event ID and
// sequence number, the same for the record delivered again, and refuses
// a record that names neither or is older than a DynamoDB stream keeps
// one.
func TestReceiptOf(t *testing.T) {
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	r := &StreamRecord{EventID: "e#1", SequenceNumber: "100", Created: now.Add(-time.Hour)}
	id, expires, err := ReceiptOf(r, now)
	if err != nil || len(id) != 32 || !expires.Equal(now.Add(ReceiptKept)) {
		t.Fatalf("ReceiptOf: %q, %v, %v", id, expires, err)
	}
	again, _, _ := ReceiptOf(&StreamRecord{EventID: "e#1", SequenceNumber: "100"}, now.Add(time.Minute))
	other, _, _ := ReceiptOf(&StreamRecord{EventID: "e#1", SequenceNumber: "101"}, now)
	if again != id || other == id {
		t.Errorf("the same record: %q and %q; another: %q", id, again, other)
	}
	if _, _, err := ReceiptOf(&StreamRecord{}, now); !errors.Is(err, ErrInvalidRecord) {
		t.Errorf("a record without ID: %v", err)
	}
	if _, _, err := ReceiptOf(&StreamRecord{EventID: "e", Created: now.Add(-ReleaseAge - time.Second)}, now); !errors.Is(err, ErrInvalidRecord) {
		t.Errorf("a record older than a stream keeps: %v", err)
	}
}

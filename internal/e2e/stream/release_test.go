package stream

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dyngen/dyngen/internal/dynamotest"
	"github.com/dyngen/dyngen/internal/iamcheck"
)

// expire deletes a session as DynamoDB's time to live does: the item
// alone, without a write of the Store (its claim and its count stay),
// and returns the record of the deletion, marked as one by the time to
// live (DynamoDB Local's deletions by its time to live come when they
// will; this one comes at once).
func expire(t *testing.T, s *Store, table string, sessionID string) StreamRecord {
	t.Helper()
	ctx := context.Background()
	key := map[string]types.AttributeValue{
		"PK": &types.AttributeValueMemberS{Value: "CUSTOMER#c"},
		"SK": &types.AttributeValueMemberS{Value: "SESSION#" + sessionID},
	}
	if _, err := dynamotest.Client(t).DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String(table), Key: key}); err != nil {
		t.Fatal(err)
	}
	records := readStream(t, table)
	for i := len(records) - 1; i >= 0; i-- {
		r := records[i]
		if c, err := DecodeShopChange(&r); err == nil && r.Op == OpRemove {
			if sc, ok := c.(*SessionChange); ok && sc.Key.SessionID == sessionID {
				r.Expired = true
				return r
			}
		}
	}
	t.Fatalf("no record of the deletion of session %s", sessionID)
	return StreamRecord{}
}

// counts checks the customer's sessions by kind.
func counts(t *testing.T, s *Store, what string, web, app int64) {
	t.Helper()
	c, err := s.SessionCounts(context.Background(), "c")
	if err != nil {
		t.Fatalf("%s: SessionCounts: %v", what, err)
	}
	if c.Web != web || c.App != app {
		t.Errorf("%s: %d web and %d app sessions counted, want %d and %d", what, c.Web, c.App, web, app)
	}
}

// TestReleaseExpired releases what an expired session held when the
// record of its deletion by the time to live arrives: its token is free
// again and its count is one less; the same record delivered again
// releases nothing again, even once another session holds the token; a
// removal that is no expiry (the Store's own delete, which released
// already) releases nothing.
func TestReleaseExpired(t *testing.T) {
	s, names := newStore(t)
	ctx := context.Background()
	table := names["Shop"]
	// The releases are sent under the consumer's IAM policy.
	chk := iamcheck.New(t, "iam-policy-expiry.json", dynamotest.Client(t))
	for _, tb := range s.Tables() {
		chk.Add(tb.Name, tb.Create)
	}
	consumer := New(chk, WithShopTable(table), WithTagsTable(names["Tags"]))
	defer func() {
		if chk.Checked() == 0 {
			t.Error("no release was checked against the consumer's IAM policy")
		}
	}()
	later := time.Now().Add(time.Hour).Truncate(time.Second)
	for _, ss := range []*Session{
		{CustomerID: "c", SessionID: "s1", Token: "t1", Kind: SessionKindWeb, ExpiresAt: later},
		{CustomerID: "c", SessionID: "s2", Token: "t2", Kind: SessionKindApp, ExpiresAt: later},
		{CustomerID: "c", SessionID: "s3", Token: "t3", Kind: SessionKindWeb, ExpiresAt: later},
	} {
		if err := s.CreateSession(ctx, ss); err != nil {
			t.Fatal(err)
		}
	}
	counts(t, s, "three sessions", 2, 1)

	rec := expire(t, s, table, "s1")
	// Expired, its token is still claimed and its count still held.
	if err := s.CreateSession(ctx, &Session{CustomerID: "c", SessionID: "s4", Token: "t1", Kind: SessionKindApp, ExpiresAt: later}); !errors.Is(err, ErrAlreadyExists) {
		t.Fatalf("a token an expired session holds before its release: %v, want ErrAlreadyExists", err)
	}
	counts(t, s, "s1 expired, not released", 2, 1)

	if err := HandleExpiry(ctx, consumer, []StreamRecord{rec}); err != nil {
		t.Fatal(err)
	}
	counts(t, s, "s1 released", 1, 1)
	if err := s.CreateSession(ctx, &Session{CustomerID: "c", SessionID: "s4", Token: "t1", Kind: SessionKindApp, ExpiresAt: later}); err != nil {
		t.Fatalf("the token of a released session: %v", err)
	}
	counts(t, s, "s4 holds t1", 1, 2)

	// Delivered again: nothing more is released, and s4's claim of t1
	// stays.
	for range 2 {
		if err := HandleExpiry(ctx, consumer, []StreamRecord{rec}); err != nil {
			t.Fatal(err)
		}
	}
	counts(t, s, "s1's record delivered again", 1, 2)
	if err := s.CreateSession(ctx, &Session{CustomerID: "c", SessionID: "s5", Token: "t1", Kind: SessionKindWeb, ExpiresAt: later}); !errors.Is(err, ErrAlreadyExists) {
		t.Fatalf("t1, which s4 holds, after s1's record delivered again: %v, want ErrAlreadyExists", err)
	}

	// The Store's own delete releases its claim and count; its record is
	// no expiry, and the consumer leaves it.
	if err := s.DeleteSession(ctx, SessionKey{CustomerID: "c", SessionID: "s3"}); err != nil {
		t.Fatal(err)
	}
	counts(t, s, "s3 deleted", 0, 2)
	if err := HandleExpiry(ctx, consumer, readStream(t, table)); err != nil {
		t.Fatal(err)
	}
	counts(t, s, "every record of the stream handed over", 0, 2)

	// A session whose time has passed is absent to reads, and there for
	// writes until DynamoDB deletes it and its release frees its token.
	past := time.Now().Add(-time.Hour).Truncate(time.Second)
	if err := s.CreateSession(ctx, &Session{CustomerID: "c", SessionID: "s6", Token: "t6", Kind: SessionKindWeb, ExpiresAt: past}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GetSession(ctx, SessionKey{CustomerID: "c", SessionID: "s6"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("an expired session read: %v, want ErrNotFound", err)
	}
	if err := s.CreateSession(ctx, &Session{CustomerID: "c", SessionID: "s6", Token: "t7", Kind: SessionKindApp, ExpiresAt: later}); !errors.Is(err, ErrAlreadyExists) {
		t.Errorf("a create over an expired session not yet deleted: %v, want ErrAlreadyExists", err)
	}
	counts(t, s, "s6 expired, not deleted", 1, 2)
	if err := expiryLambdaRun(ctx, consumer, expire(t, s, table, "s6")); err != nil {
		t.Fatal(err)
	}
	counts(t, s, "s6 released through the Lambda function", 0, 2)
	if err := s.CreateSession(ctx, &Session{CustomerID: "c", SessionID: "s6", Token: "t6", Kind: SessionKindApp, ExpiresAt: later}); err != nil {
		t.Errorf("s6 again with its token once released: %v", err)
	}
	counts(t, s, "s6 anew", 0, 3)
}

// expiryLambdaRun hands r to the consumer's Lambda function, as an event
// of one record, and fails when the function reports a failure.
func expiryLambdaRun(ctx context.Context, s *Store, r StreamRecord) error {
	resp, err := ExpiryLambda(s)(ctx, &StreamEvent{Records: []EventRecord{{Record: r}}})
	if err != nil {
		return err
	}
	if len(resp.BatchItemFailures) > 0 {
		return errors.New("the record failed")
	}
	return nil
}

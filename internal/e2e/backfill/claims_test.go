package backfill

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	dyngen "github.com/dyngen/dyngen/generator/runtime"
)

// claims reads every claim of an email, by the email it holds: the id of
// the user it leads to.
func (e *env) claims(t testing.TB) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, item := range e.scanAll(t, "") {
		if str(item, "_type") == "User.email" {
			out[str(item, "email")] = str(item, "id")
		}
	}
	return out
}

// The backfill of the claims of a value made unique: each user stored
// before gets the claim its writes take now (the email lower-cased);
// two users of one email are a conflict, reported with the user that
// holds the claim, never written over; once the user's value is changed,
// a run again claims it, and the verify passes.
func TestBackfillClaims(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	for i := range 20 {
		u := user(i)
		if i == 19 {
			u.Email = strings.ToUpper(user(3).Email) // user 3's, in other case
		}
		e.putOld(t, u)
	}
	for i := 20; i < 25; i++ {
		if err := e.store.PutUser(ctx, user(i)); err != nil {
			t.Fatal(err)
		}
	}
	rep := e.run(t, e.bf, "User.email", dyngen.BackfillOptions{Segments: 3, Write: true})
	if rep.Scanned != 25 || rep.Written != 19 || rep.Already != 5 || rep.Conflicts != 1 || len(rep.Problems) != 1 {
		t.Fatalf("claims: %+v; want 25 read, 19 written, 5 claimed already, 1 conflict", rep)
	}
	claims := e.claims(t)
	if len(claims) != 24 {
		t.Fatalf("%d claims, want 24: %v", len(claims), claims)
	}
	winner := claims[strings.ToLower(user(3).Email)]
	loser := map[string]string{"u00003": "u00019", "u00019": "u00003"}[winner]
	if loser == "" || !strings.Contains(rep.Problems[0], `PK="USER#`+loser+`"`) || !strings.Contains(rep.Problems[0], "conflict: its value") || !strings.Contains(rep.Problems[0], "is claimed by") || !strings.Contains(rep.Problems[0], `id="`+winner+`"`) {
		t.Errorf("the conflict: %q; the claim is %s's", rep.Problems[0], winner)
	}
	for email, id := range claims {
		if id != "u00003" && id != "u00019" && strings.ToLower(e.users(t)[id]["email"].(*types.AttributeValueMemberS).Value) != email {
			t.Errorf("claim of %s leads to %s, which holds another email", email, id)
		}
	}
	if v := e.verify(t, "User.email", 2); v.Lacking != 1 || v.Conflicts != 1 {
		t.Errorf("verify with the conflict: %+v, want the one lacking", v)
	}
	// A run again reads the segment of the conflict again (it was not
	// recorded done), and leaves the claim to the user that holds it; so
	// does a run in other segments (another order).
	if rep := e.run(t, e.bf, "User.email", dyngen.BackfillOptions{Segments: 3, Write: true}); rep.Conflicts != 1 || rep.Written != 0 || rep.Scanned == 0 {
		t.Errorf("a run again with the conflict: %+v", rep)
	}
	if rep := e.run(t, e.bf, "User.email", dyngen.BackfillOptions{Segments: 5, Write: true}); rep.Conflicts != 1 || rep.Written != 0 {
		t.Errorf("a run in other segments with the conflict: %+v", rep)
	}
	if got := e.claims(t)[strings.ToLower(user(3).Email)]; got != winner {
		t.Errorf("the claim of the email in conflict leads to %s after a run again, was %s", got, winner)
	}
	// The user changes the loser's email, the item alone (a write of the
	// Store would release the claim of its old value: the winner's), and
	// runs again: the segment left open is read again.
	if _, err := e.raw.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: &e.table, Key: map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "USER#" + loser}, "SK": &types.AttributeValueMemberS{Value: "USER#" + loser}},
		UpdateExpression: aws.String("SET email = :e"), ExpressionAttributeValues: map[string]types.AttributeValue{":e": &types.AttributeValueMemberS{Value: "other@example.com"}}}); err != nil {
		t.Fatal(err)
	}
	if rep := e.run(t, e.bf, "User.email", dyngen.BackfillOptions{Segments: 3, Write: true}); rep.Written != 1 || rep.Conflicts != 0 {
		t.Errorf("the run again: %+v, want the one claim written", rep)
	}
	if v := e.verify(t, "User.email", 2); v.Lacking != 0 || v.Conflicts != 0 || v.Scanned != 25 {
		t.Errorf("verify: %+v", v)
	}
	// The Store now refuses a taken email, in any case.
	taken := user(30)
	taken.Email = strings.ToUpper(user(7).Email)
	if err := e.store.PutUser(ctx, taken); err == nil {
		t.Error("a user of an email claimed by the backfill was stored")
	}
}

// claimRacer changes a user's email between the backfill's read of the
// claim and its transaction: the first transaction for user id runs
// write first.
type claimRacer struct {
	dyngen.BackfillClient
	id    string
	write func()
	once  sync.Once
}

func (c *claimRacer) TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, optFns ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	if str(in.TransactItems[0].ConditionCheck.Key, "PK") == "USER#"+c.id {
		c.once.Do(c.write)
	}
	return c.BackfillClient.TransactWriteItems(ctx, in, optFns...)
}

// A live write of the value between the backfill's read and its write
// fails the transaction (the item is held as read): the backfill reads
// the item again and claims the value it holds now, never the old one.
func TestBackfillClaimsYield(t *testing.T) {
	e := newEnv(t)
	for i := range 4 {
		e.putOld(t, user(i))
	}
	u := user(2)
	u.Email = "moved@example.com"
	rc := &claimRacer{BackfillClient: e.bf, id: u.ID, write: func() { e.putOld(t, u) }}
	rep := e.run(t, rc, "User.email", dyngen.BackfillOptions{Segments: 1, Write: true})
	if rep.Retried != 1 || rep.Written != 4 {
		t.Errorf("%+v: want 4 written, 1 read again", rep)
	}
	claims := e.claims(t)
	if claims["moved@example.com"] != u.ID || claims[strings.ToLower(user(2).Email)] != "" {
		t.Errorf("claims %v: want user 2's new email claimed, its old one not", claims)
	}
}

// The Store's release of a claim holds only while the claim is the
// item's (or absent): a write of an item stored before its value was
// made unique, whose value another item's claim holds, fails, and never
// deletes the other item's claim.
func TestStoreReleasesOnlyItsClaim(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	a, b := user(1), user(2)
	b.Email = a.Email
	e.putOld(t, a)
	e.putOld(t, b)
	e.run(t, e.bf, "User.email", dyngen.BackfillOptions{Segments: 1, Write: true})
	winner := e.claims(t)[strings.ToLower(a.Email)]
	loser := map[string]*User{a.ID: b, b.ID: a}[winner]
	if loser == nil {
		t.Fatalf("the claim of the shared email leads to %q", winner)
	}
	moved := *loser
	moved.Email = "elsewhere@example.com"
	if err := e.store.PutUser(ctx, &moved); !errors.Is(err, ErrConditionFailed) {
		t.Errorf("a put of the user without the claim: %v, want ErrConditionFailed", err)
	}
	if got := e.claims(t)[strings.ToLower(a.Email)]; got != winner {
		t.Errorf("the claim of the shared email leads to %q after the failed put, was %q", got, winner)
	}
}

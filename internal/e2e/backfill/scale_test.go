package backfill

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	dyngen "github.com/dyngen/dyngen/generator/runtime"
	"github.com/dyngen/dyngen/internal/dynamotest"
	"github.com/dyngen/dyngen/internal/iamcheck"
)

// The environment of a backfill process TestBackfillAtScale starts: this
// test binary, run again with these set, runs one segment (TestMain) and
// exits with BackfillMain's code, or kills itself with SIGKILL after
// killAfterEnv writes.
const (
	childEnv     = "DYNGEN_BACKFILL_CHILD" // the table's physical name
	segmentEnv   = "DYNGEN_BACKFILL_SEGMENT"
	killAfterEnv = "DYNGEN_BACKFILL_KILL_AFTER"
	// itemsEnv sets the number of users of TestBackfillAtScale (100,000
	// unless set), for a quicker run by hand.
	itemsEnv = "DYNGEN_BACKFILL_ITEMS"
)

// scaleSegments is the number of segments, and of processes, of the run.
const scaleSegments = 4

func TestMain(m *testing.M) {
	if table := os.Getenv(childEnv); table != "" {
		os.Exit(child(table))
	}
	os.Exit(m.Run())
}

// child runs segment $DYNGEN_BACKFILL_SEGMENT of User.GSI1 on table,
// every call checked against the backfills' IAM policy.
func child(table string) int {
	c := dynamotest.NewClient(os.Getenv(dynamotest.EndpointEnv))
	policy, err := iamcheck.Load("backfill-iam-policy.json")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 3
	}
	var denied atomic.Bool
	chk := iamcheck.NewChecker(policy, c, func(format string, args ...any) {
		denied.Store(true)
		fmt.Fprintf(os.Stderr, format+"\n", args...)
	})
	opts := []Option{WithThingsTable(table)}
	for _, t := range New(nil, opts...).Tables() {
		chk.Add(t.Name, t.Create)
	}
	var client dyngen.BackfillClient = chk
	if n, err := strconv.Atoi(os.Getenv(killAfterEnv)); err == nil {
		client = &killer{BackfillClient: chk, left: int64(n)}
	}
	args := []string{"-write", "-segments", strconv.Itoa(scaleSegments), "-segment", os.Getenv(segmentEnv), "-page", "400", "-quiet", "User.GSI1"}
	code := BackfillMain(context.Background(), client, args, opts...)
	if denied.Load() {
		return 3
	}
	return code
}

// killer kills its process with SIGKILL after its left-th UpdateItem: a
// run stopped at once in the middle of a page, between two writes, with
// no chance to record anything.
type killer struct {
	dyngen.BackfillClient
	left int64
}

func (k *killer) UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	out, err := k.BackfillClient.UpdateItem(ctx, in, optFns...)
	if atomic.AddInt64(&k.left, -1) == 0 {
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {}
	}
	return out, err
}

// runChild runs the backfill of one segment in a process of its own.
func runChild(t *testing.T, table string, segment, killAfter int) error {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+table, segmentEnv+"="+strconv.Itoa(segment), dynamotest.EndpointEnv+"="+dynamotest.Endpoint(t))
	if killAfter > 0 {
		cmd.Env = append(cmd.Env, killAfterEnv+"="+strconv.Itoa(killAfter))
	}
	out, err := cmd.CombinedOutput()
	t.Logf("segment %d (%v):\n%s", segment, err, out)
	return err
}

// TestBackfillAtScale: 100,000 users stored before GSI1 existed; the
// backfill of GSI1 runs as 4 processes, one per segment, while live
// writers (new code) rename users and change their grades; one process
// is killed with SIGKILL in the middle of its segment, and run again. A
// verify then finds no user lacking its GSI1 keys: every user is in the
// index exactly once, under the grade it holds, no live write is lost,
// and no key of a stale grade was written over a newer one.
func TestBackfillAtScale(t *testing.T) {
	n := 100000
	if s := os.Getenv(itemsEnv); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil || n < 1000 {
			t.Fatalf("%s=%q: want a number of users, 1000 or more", itemsEnv, s)
		}
	}
	e := newEnv(t)
	ctx := context.Background()
	loadOld(t, e, n)

	// Live writers: writer w owns the users i with i%writers == w among
	// the first owned ones, and writes them over and over until the
	// backfill ends, so that the last write of each is known.
	const writers, owned = 2, 2000
	last := make([]*User, owned)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var writes atomic.Int64
	for w := range writers {
		wg.Go(func() {
			for round := 1; ; round++ {
				for i := w; i < owned; i += writers {
					select {
					case <-stop:
						return
					default:
					}
					u := user(i)
					u.Grade, u.Name = int64((i+round)%7), fmt.Sprintf("user %d, round %d", i, round)
					if _, err := e.store.RenameUser(ctx, RenameUserParams{ID: u.ID, Name: u.Name, Grade: u.Grade}); err != nil {
						t.Error(err)
						return
					}
					last[i] = u
					writes.Add(1)
				}
			}
		})
	}

	// The four processes; segment 1's is killed after 1,000 writes, and
	// run again once the others are done.
	var pwg sync.WaitGroup
	errs := make([]error, scaleSegments)
	for s := range scaleSegments {
		pwg.Go(func() {
			kill := 0
			if s == 1 {
				kill = 1000
			}
			errs[s] = runChild(t, e.table, s, kill)
		})
	}
	pwg.Wait()
	for s, err := range errs {
		var exit *exec.ExitError
		switch {
		case s == 1 && !(errors.As(err, &exit) && exit.Sys().(syscall.WaitStatus).Signal() == syscall.SIGKILL):
			t.Fatalf("segment 1 was to be killed by SIGKILL: %v", err)
		case s != 1 && err != nil:
			t.Fatalf("segment %d: %v", s, err)
		}
	}
	cp := checkpoint(t, e, 1)
	if cp.Done || cp.Scanned == 0 {
		t.Fatalf("segment 1's checkpoint after the kill: %+v; want it stopped in the middle", cp)
	}
	if err := runChild(t, e.table, 1, 0); err != nil {
		t.Fatalf("segment 1, resumed: %v", err)
	}
	close(stop)
	wg.Wait()
	if writes.Load() < owned {
		t.Errorf("the live writers wrote %d times while the backfill ran, want %d at least (each user they own once)", writes.Load(), owned)
	}

	rep := e.verify(t, "User.GSI1", 8)
	if rep.Scanned != int64(n) || rep.Lacking != 0 || rep.Unreadable != 0 {
		t.Fatalf("verify: %+v; want %d users, none lacking", rep, n)
	}
	for s := range scaleSegments {
		if cp := checkpoint(t, e, s); !cp.Done {
			t.Errorf("segment %d's checkpoint: %+v, want done", s, cp)
		}
	}
	users := e.users(t)
	if len(users) != n {
		t.Fatalf("%d users, want %d", len(users), n)
	}
	for i, u := range last {
		if u == nil {
			continue
		}
		var got User
		if err := got.UnmarshalItem(users[u.ID]); err != nil {
			t.Fatal(err)
		}
		if got.Grade != u.Grade || got.Name != u.Name {
			t.Fatalf("user %d: grade %d, name %q; the last live write set %d, %q", i, got.Grade, got.Name, u.Grade, u.Name)
		}
	}
	e.checkIndex(t, users, "GSI1")
}

// loadOld stores n users as the code before GSI1 wrote them, 25 to a
// BatchWriteItem, 8 at a time.
func loadOld(t testing.TB, e *env, n int) {
	t.Helper()
	ctx := context.Background()
	batches := make(chan []types.WriteRequest)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for reqs := range batches {
				for len(reqs) > 0 {
					out, err := e.raw.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{e.table: reqs}})
					if err != nil {
						t.Error(err)
						return
					}
					reqs = out.UnprocessedItems[e.table]
				}
			}
		})
	}
	var reqs []types.WriteRequest
	for i := range n {
		item, err := user(i).MarshalItem()
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range indexKeys {
			delete(item, k)
		}
		reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: item}})
		if len(reqs) == 25 || i == n-1 {
			batches <- reqs
			reqs = nil
		}
	}
	close(batches)
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
}

// checkpoint reads the checkpoint of segment s of User.GSI1's run.
func checkpoint(t testing.TB, e *env, s int) dyngen.Checkpoint {
	t.Helper()
	j := e.job(t, "User.GSI1")
	item, err := j.Checkpoints.Marshal(dyngen.Checkpoint{Backfill: "User.GSI1", Segments: scaleSegments, Segment: s})
	if err != nil {
		t.Fatal(err)
	}
	out, err := e.raw.GetItem(context.Background(), &dynamodb.GetItemInput{TableName: &e.table, Key: map[string]types.AttributeValue{"PK": item["PK"], "SK": item["SK"]}, ConsistentRead: aws.Bool(true)})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Item) == 0 {
		t.Fatalf("segment %d has no checkpoint", s)
	}
	cp, err := j.Checkpoints.Unmarshal(out.Item)
	if err != nil {
		t.Fatal(err)
	}
	return cp
}

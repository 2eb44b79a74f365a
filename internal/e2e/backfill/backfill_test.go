package backfill

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	dyngen "github.com/dyngen/dyngen/generator/runtime"
	"github.com/dyngen/dyngen/internal/dynamotest"
	"github.com/dyngen/dyngen/internal/iamcheck"
)

// env is a test's tables: the Store (new code, whose calls iam-policy.json
// must allow), the backfills' client (whose calls backfill-iam-policy.json
// must allow), the raw client, and the options naming the tables.
type env struct {
	store *Store
	bf    *iamcheck.Checker
	raw   *dynamodb.Client
	opts  []Option
	table string
}

func newEnv(t testing.TB) *env {
	t.Helper()
	c := dynamotest.Client(t)
	e := &env{raw: c, table: dynamotest.TableName("Things")}
	e.opts = []Option{WithThingsTable(e.table), WithBackfillFuncs(sessionFuncs)}
	chk := iamcheck.New(t, "iam-policy.json", c)
	e.store = New(chk, e.opts...)
	e.bf = iamcheck.New(t, "backfill-iam-policy.json", c)
	for _, table := range e.store.Tables() {
		chk.Add(table.Name, table.Create)
		e.bf.Add(table.Name, table.Create)
		dynamotest.MakeTable(t, c, table.Create, table.TimeToLive)
	}
	return e
}

// The stored names of the index keys the backfills write.
var indexKeys = []string{"GSI1PK", "GSI1SK", "NickPK"}

// putOld stores u as the code before the change wrote it: without the
// keys of GSI1 and ByNick.
func (e *env) putOld(t testing.TB, u *User) { e.putWithout(t, u, indexKeys...) }

// putWithout stores x, as its MarshalItem writes it but without the
// attributes names, with the raw client: an item of the code before the
// change.
func (e *env) putWithout(t testing.TB, x interface {
	MarshalItem() (map[string]types.AttributeValue, error)
}, names ...string) {
	t.Helper()
	item, err := x.MarshalItem()
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range names {
		delete(item, k)
	}
	if _, err := e.raw.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: &e.table, Item: item}); err != nil {
		t.Fatal(err)
	}
}

func user(i int) *User {
	u := &User{ID: fmt.Sprintf("u%05d", i), Name: fmt.Sprintf("user %d", i), Grade: int64(i % 7), Email: fmt.Sprintf("User%05d@Example.COM", i)}
	if i%3 != 0 {
		nick := fmt.Sprintf("nick%05d", i)
		u.Nick = &nick
	}
	return u
}

// job returns the pending backfill id of the package, over e's tables.
func (e *env) job(t testing.TB, id string) dyngen.BackfillJob {
	t.Helper()
	for _, j := range Backfills(e.opts...) {
		if j.Backfill.ID == id {
			return j
		}
	}
	t.Fatalf("no backfill %s", id)
	return dyngen.BackfillJob{}
}

func (e *env) run(t testing.TB, client dyngen.BackfillClient, id string, o dyngen.BackfillOptions) *dyngen.BackfillReport {
	t.Helper()
	j := e.job(t, id)
	o.TableName = j.TableName
	rep, err := dyngen.RunBackfill(context.Background(), client, j.Backfill, j.Checkpoints, o)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func (e *env) verify(t testing.TB, id string, segments int) *dyngen.BackfillReport {
	t.Helper()
	j := e.job(t, id)
	rep, err := dyngen.VerifyBackfill(context.Background(), e.bf, j.Backfill, dyngen.BackfillOptions{TableName: j.TableName, Segments: segments})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// scanAll reads every item of the table (or of index ix) with the raw
// client.
func (e *env) scanAll(t testing.TB, ix string) []map[string]types.AttributeValue {
	t.Helper()
	in := &dynamodb.ScanInput{TableName: &e.table}
	if ix != "" {
		in.IndexName = &ix
	}
	var out []map[string]types.AttributeValue
	p := dynamodb.NewScanPaginator(e.raw, in)
	for p.HasMorePages() {
		page, err := p.NextPage(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, page.Items...)
	}
	return out
}

func str(item map[string]types.AttributeValue, name string) string {
	if v, ok := item[name].(*types.AttributeValueMemberS); ok {
		return v.Value
	}
	return ""
}

// users reads every User item of the table, by id.
func (e *env) users(t testing.TB) map[string]map[string]types.AttributeValue {
	t.Helper()
	out := map[string]map[string]types.AttributeValue{}
	for _, item := range e.scanAll(t, "") {
		if str(item, "_type") == "User" {
			out[str(item, "id")] = item
		}
	}
	return out
}

// checkIndexed checks that every User item holds the index keys its
// MarshalItem writes (the keys the Store writes), and that each index
// holds each user exactly once (ByNick only those with a nick).
func (e *env) checkIndexed(t testing.TB, want int) {
	t.Helper()
	users := e.users(t)
	if len(users) != want {
		t.Fatalf("%d users stored, want %d", len(users), want)
	}
	e.checkIndex(t, users, "GSI1")
	e.checkIndex(t, users, "ByNick")
}

// checkIndex checks that every user of users holds the keys of index ix
// its MarshalItem writes, and that ix holds each user that has them
// exactly once, and no other item.
func (e *env) checkIndex(t testing.TB, users map[string]map[string]types.AttributeValue, ix string) {
	t.Helper()
	keys := map[string][]string{"GSI1": {"GSI1PK", "GSI1SK"}, "ByNick": {"NickPK"}}[ix]
	in := 0
	for id, item := range users {
		var u User
		if err := u.UnmarshalItem(item); err != nil {
			t.Fatalf("user %s: %v", id, err)
		}
		full, err := u.MarshalItem()
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range keys {
			got, has := item[k]
			w, should := full[k]
			if has != should || has && !dyngen.SameValue(got, w) {
				t.Fatalf("user %s: %s is %v, want %v", id, k, got, w)
			}
		}
		if _, ok := full[keys[0]]; ok {
			in++
		}
	}
	seen := map[string]bool{}
	for _, item := range e.scanAll(t, ix) {
		if str(item, "_type") != "User" {
			t.Fatalf("index %s holds an item of %q", ix, str(item, "_type"))
		}
		id := str(item, "id")
		if seen[id] {
			t.Fatalf("index %s holds user %s twice", ix, id)
		}
		seen[id] = true
	}
	if len(seen) != in {
		t.Fatalf("index %s holds %d users, want %d", ix, len(seen), in)
	}
}

// A dry run reads and prints, and writes nothing.
func TestBackfillDryRun(t *testing.T) {
	e := newEnv(t)
	for i := range 12 {
		e.putOld(t, user(i))
	}
	var log bytes.Buffer
	rep := e.run(t, e.bf, "User.GSI1", dyngen.BackfillOptions{Segments: 2, Log: &log})
	if rep.Scanned != 12 || rep.Written != 12 || rep.Already != 0 {
		t.Errorf("dry run: %+v, want 12 scanned, 12 to write", rep)
	}
	if n := strings.Count(log.String(), "would write"); n != 12 {
		t.Errorf("the dry run printed %d items it would write, want 12:\n%s", n, log.String())
	}
	if !strings.Contains(log.String(), `GSI1PK="GRADE#`) {
		t.Errorf("the dry run does not print the key it would write:\n%s", log.String())
	}
	for _, item := range e.scanAll(t, "") {
		if _, ok := item["GSI1PK"]; ok || str(item, "_type") != "User" {
			t.Fatalf("a dry run wrote: %v", item)
		}
	}
}

// A run writes each index's keys into the items that lack them, leaves
// the items that hold them, and a verify then finds none lacking.
func TestBackfillRunVerify(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	for i := range 40 {
		e.putOld(t, user(i))
	}
	for i := 40; i < 50; i++ {
		if err := e.store.PutUser(ctx, user(i)); err != nil {
			t.Fatal(err)
		}
	}
	for _, id := range []string{"User.GSI1", "User.ByNick"} {
		if rep := e.verify(t, id, 1); rep.Scanned != 50 || rep.Lacking == 0 {
			t.Errorf("%s: verify before the run: %+v; want items lacking", id, rep)
		}
	}
	rep := e.run(t, e.bf, "User.GSI1", dyngen.BackfillOptions{Segments: 3, Write: true, PageSize: 7})
	if rep.Scanned != 50 || rep.Written != 40 || rep.Already != 10 || rep.Unreadable != 0 {
		t.Errorf("User.GSI1: %+v, want 50 scanned, 40 written, 10 held already", rep)
	}
	// ByNick is sparse: the old users without a nick hold none of it.
	rep = e.run(t, e.bf, "User.ByNick", dyngen.BackfillOptions{Segments: 2, Write: true})
	withNick := 0
	for i := range 40 {
		if user(i).Nick != nil {
			withNick++
		}
	}
	if rep.Written != int64(withNick) || rep.Already != int64(50-withNick) {
		t.Errorf("User.ByNick: %+v, want %d written, %d holding it already", rep, withNick, 50-withNick)
	}
	e.checkIndexed(t, 50)
	for _, id := range []string{"User.GSI1", "User.ByNick"} {
		if rep := e.verify(t, id, 4); rep.Scanned != 50 || rep.Lacking != 0 || rep.Unreadable != 0 {
			t.Errorf("%s: verify after the run: %+v; want none lacking", id, rep)
		}
	}
	// The Store's queries find them.
	for g := range int64(7) {
		got := 0
		for _, err := range e.store.ByGradeAll(ctx, g) {
			if err != nil {
				t.Fatal(err)
			}
			got++
		}
		want := 0
		for i := range 50 {
			if user(i).Grade == g {
				want++
			}
		}
		if got != want {
			t.Errorf("ByGrade(%d): %d users, want %d", g, got, want)
		}
	}
	// A run again, over checkpoints done, reads nothing; with other
	// segments (checkpoints of their own) it reads everything and
	// writes nothing.
	if rep := e.run(t, e.bf, "User.GSI1", dyngen.BackfillOptions{Segments: 3, Write: true}); rep.Scanned != 0 {
		t.Errorf("a run over its checkpoints done: %+v, want nothing read", rep)
	}
	if rep := e.run(t, e.bf, "User.GSI1", dyngen.BackfillOptions{Segments: 5, Write: true}); rep.Scanned != 50 || rep.Written != 0 || rep.Already != 50 {
		t.Errorf("a run again: %+v, want 50 read, none written", rep)
	}
	if e.bf.Checked() == 0 {
		t.Error("no call of the backfills was checked against their IAM policy")
	}
}

// liveWriter makes a write between a backfill's read of an item and its
// UpdateItem of it: the first update of item id runs write first.
type liveWriter struct {
	dyngen.BackfillClient
	id    string
	write func()
	once  sync.Once
}

func (l *liveWriter) UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	if str(in.Key, "PK") == "USER#"+l.id {
		l.once.Do(l.write)
	}
	return l.BackfillClient.UpdateItem(ctx, in, optFns...)
}

// A backfill yields to live writers: a write between its read and its
// update fails its update, and it reads the item again and computes
// anew, whether the writer was new code (which wrote the keys) or old
// code still running (which did not).
func TestBackfillYieldsToLiveWrites(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name string
		old  bool
	}{{"new code", false}, {"old code", true}} {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			for i := range 5 {
				e.putOld(t, user(i))
			}
			u := user(2)
			u.Grade, u.Name = 99, "renamed"
			lw := &liveWriter{BackfillClient: e.bf, id: u.ID, write: func() {
				if c.old {
					e.putOld(t, u)
					return
				}
				if _, err := e.store.RenameUser(ctx, RenameUserParams{ID: u.ID, Name: u.Name, Grade: u.Grade}); err != nil {
					t.Error(err)
				}
			}}
			rep := e.run(t, lw, "User.GSI1", dyngen.BackfillOptions{Segments: 1, Write: true})
			if rep.Retried != 1 {
				t.Errorf("%+v: want 1 write read again", rep)
			}
			// New code's update writes the keys it changes (GSI1PK),
			// not GSI1SK, which the old item lacks: the backfill writes
			// it too.
			if rep.Written != 5 {
				t.Errorf("%+v: want 5 written", rep)
			}
			item := e.users(t)[u.ID]
			full, err := u.MarshalItem()
			if err != nil {
				t.Fatal(err)
			}
			if str(item, "GSI1PK") != str(full, "GSI1PK") || str(item, "GSI1SK") != str(full, "GSI1SK") || str(item, "name") != "renamed" {
				t.Errorf("the user written between: GSI1PK %q, name %q; want its live write kept, keyed by grade 99", str(item, "GSI1PK"), str(item, "name"))
			}
		})
	}
}

// failAfter fails every UpdateItem after the first n.
type failAfter struct {
	dyngen.BackfillClient
	mu sync.Mutex
	n  int
}

var errCut = errors.New("cut")

func (f *failAfter) UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	f.mu.Lock()
	f.n--
	n := f.n
	f.mu.Unlock()
	if n < 0 {
		return nil, errCut
	}
	return f.BackfillClient.UpdateItem(ctx, in, optFns...)
}

// A run that stops mid-segment resumes from its checkpoint: the pages it
// recorded are not read again.
func TestBackfillResumes(t *testing.T) {
	e := newEnv(t)
	for i := range 60 {
		e.putOld(t, user(i))
	}
	j := e.job(t, "User.GSI1")
	o := dyngen.BackfillOptions{TableName: j.TableName, Segments: 1, Write: true, PageSize: 10}
	_, err := dyngen.RunBackfill(context.Background(), &failAfter{BackfillClient: e.bf, n: 25}, j.Backfill, j.Checkpoints, o)
	if !errors.Is(err, errCut) {
		t.Fatalf("the cut run: %v", err)
	}
	rep := e.run(t, e.bf, "User.GSI1", dyngen.BackfillOptions{Segments: 1, Write: true, PageSize: 10})
	// Two pages were recorded (20 items); the third was cut after 5
	// writes, which the resumed run finds done.
	if rep.Scanned != 40 || rep.Written != 35 || rep.Already != 5 {
		t.Errorf("the resumed run: %+v, want 40 read (from the third page), 35 written, 5 held already", rep)
	}
	if rep := e.verify(t, "User.GSI1", 2); rep.Lacking != 0 || rep.Scanned != 60 {
		t.Errorf("verify: %+v", rep)
	}
}

// The checkpoints are items of their own, apart from every User: in no
// index, read by no query of the Store.
func TestBackfillCheckpointsApart(t *testing.T) {
	e := newEnv(t)
	for i := range 10 {
		e.putOld(t, user(i))
	}
	e.run(t, e.bf, "User.GSI1", dyngen.BackfillOptions{Segments: 3, Write: true})
	cps := 0
	for _, item := range e.scanAll(t, "") {
		if str(item, "_type") == "dyngen.BackfillCheckpoint" {
			cps++
			if !strings.HasPrefix(str(item, "PK"), "DYNGEN#BACKFILL#") {
				t.Errorf("a checkpoint keyed %v", item["PK"])
			}
		}
	}
	if cps != 3 {
		t.Errorf("%d checkpoints, want 3 (one per segment)", cps)
	}
	for _, ix := range []string{"GSI1", "ByNick"} {
		for _, item := range e.scanAll(t, ix) {
			if str(item, "_type") != "User" {
				t.Errorf("index %s holds %v", ix, item)
			}
		}
	}
}

// The command line: a dry run by default, -write, -verify with a receipt
// naming the backfill's definition, and exit codes.
func TestBackfillMain(t *testing.T) {
	e := newEnv(t)
	for i := range 8 {
		e.putOld(t, user(i))
	}
	ctx := context.Background()
	main := func(args ...string) (int, string) {
		var out, errs bytes.Buffer
		code := dyngen.BackfillMain(ctx, e.bf, Backfills(e.opts...), args, &out, &errs)
		return code, out.String() + errs.String()
	}
	receipt := filepath.Join(t.TempDir(), "receipt.json")
	if code, out := main("-verify", "-receipt", receipt, "User.GSI1"); code != 1 || !strings.Contains(out, "8 lacking") {
		t.Errorf("verify before: exit %d\n%s", code, out)
	}
	if _, err := os.Stat(receipt); err == nil {
		t.Error("a verify that found items lacking wrote a receipt")
	}
	if code, out := main("-segments", "2", "User.GSI1"); code != 0 || !strings.Contains(out, "dry run") {
		t.Errorf("dry run: exit %d\n%s", code, out)
	}
	if code, out := main("-write", "-segments", "2", "-quiet"); code != 0 || !strings.Contains(out, "User.GSI1: 8 items: 8 written") || !strings.Contains(out, "User.ByNick: 8 items: 5 written") || !strings.Contains(out, "User.email: 8 items: 8 written") {
		t.Errorf("run of all three: exit %d\n%s", code, out)
	}
	if code, out := main("-verify", "-segments", "3", "-receipt", receipt, "User.GSI1"); code != 0 || !strings.Contains(out, "0 lacking") {
		t.Errorf("verify: exit %d\n%s", code, out)
	}
	data, err := os.ReadFile(receipt)
	if err != nil {
		t.Fatal(err)
	}
	var r dyngen.Receipt
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	if j := e.job(t, "User.GSI1"); r.Backfill != "User.GSI1" || r.Fingerprint != j.Backfill.Fingerprint || r.Checked != 8 || r.Table != "Things" {
		t.Errorf("receipt %+v", r)
	}
	for _, args := range [][]string{{"Nope"}, {"-segments", "0"}, {"-segment", "4", "-segments", "4"}, {"-receipt", receipt}} {
		if code, out := main(args...); code != 2 {
			t.Errorf("%q: exit %d, want 2\n%s", args, code, out)
		}
	}
	if code, out := main("-list"); code != 0 || !slices.Equal(strings.Fields(out)[:2], []string{"Session.minutes", "Things"}) || !strings.Contains(out, "\nUser.email\tThings\t") {
		t.Errorf("-list: exit %d\n%s", code, out)
	}
}

// An item left open by one run of a pass (here, one page per run, as
// Lambda invocations stopped by their deadline) keeps the segment from
// being recorded done by the run that ends the pass, though that run
// met none: the checkpoint carries it, and the pass's end says so
// (LeftOpen); the next pass reads the segment again from its start.
func TestBackfillOpenAcrossRuns(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	for i := range 6 {
		e.putOld(t, user(i))
	}
	// u00000 can't be read: its name is a number.
	e.spoil(t, "u00000", &types.AttributeValueMemberN{Value: "7"})
	j := e.job(t, "User.GSI1")
	var runs, open, leftOpen int64
	for {
		runs++
		rep, err := dyngen.RunBackfill(ctx, e.bf, j.Backfill, j.Checkpoints, dyngen.BackfillOptions{TableName: j.TableName, Segments: 1, Write: true, PageSize: 1, Deadline: time.Now()})
		if err != nil {
			t.Fatal(err)
		}
		open += rep.Unreadable
		leftOpen += rep.LeftOpen
		if !rep.Stopped || runs > 20 {
			if rep.Unreadable != 0 {
				t.Fatalf("the run that ends the pass met the item left open itself (%d runs); the test needs it met earlier", runs)
			}
			break
		}
	}
	if open != 1 || leftOpen != 1 {
		t.Fatalf("over %d runs: %d items left open, %d passes ended open; want 1 and 1", runs, open, leftOpen)
	}
	// The pass ended open: the next run starts the segment over, and
	// meets the item again.
	rep, err := dyngen.RunBackfill(ctx, e.bf, j.Backfill, j.Checkpoints, dyngen.BackfillOptions{TableName: j.TableName, Segments: 1, Write: true})
	if err != nil || rep.Scanned != 6 || rep.Unreadable != 1 || rep.LeftOpen != 1 || rep.Already != 5 {
		t.Fatalf("the next pass: %+v, %v", rep, err)
	}
}

// A Lambda invocation whose segment's pass ends with an item left open
// returns open, not done: the state machine fails the segment rather
// than invoke it again for ever.
func TestRunSegmentOpen(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	for i := range 3 {
		e.putOld(t, user(i))
	}
	e.spoil(t, "u00001", nil)
	ev := dyngen.SegmentEvent{Backfill: "User.GSI1", Segments: 1, Segment: 0}
	res, err := dyngen.RunSegment(ctx, e.bf, Backfills(e.opts...), ev, time.Minute)
	if err != nil || res.Done || !res.Open || res.Unreadable != 1 || res.Written != 2 {
		t.Fatalf("RunSegment: %+v, %v; want open, not done, 1 unreadable, 2 written", res, err)
	}
	// Fixed, a new pass reads the item again and is done.
	e.putOld(t, user(1))
	if res, err := dyngen.RunSegment(ctx, e.bf, Backfills(e.opts...), ev, time.Minute); err != nil || !res.Done || res.Open || res.Written != 1 {
		t.Fatalf("RunSegment after the fix: %+v, %v", res, err)
	}
}

// spoil makes user id unreadable to its entity: its name set to name, in
// a form User can't read, or removed (nil), with the raw client.
func (e *env) spoil(t testing.TB, id string, name types.AttributeValue) {
	t.Helper()
	in := &dynamodb.UpdateItemInput{TableName: &e.table, Key: map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "USER#" + id}, "SK": &types.AttributeValueMemberS{Value: "USER#" + id}},
		UpdateExpression: aws.String("REMOVE #n"), ExpressionAttributeNames: map[string]string{"#n": "name"}}
	if name != nil {
		in.UpdateExpression, in.ExpressionAttributeValues = aws.String("SET #n = :n"), map[string]types.AttributeValue{":n": name}
	}
	if _, err := e.raw.UpdateItem(context.Background(), in); err != nil {
		t.Fatal(err)
	}
}

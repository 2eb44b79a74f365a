package runtime

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func TestSameValue(t *testing.T) {
	for _, c := range []struct {
		a, b types.AttributeValue
		same bool
	}{
		{avS("a"), avS("a"), true},
		{avS("a"), avS("b"), false},
		{avS("1"), avN("1"), false},
		{avN("1"), avN("1.0"), true},
		{avN("10"), avN("1E1"), true},
		{avN("1"), avN("2"), false},
		{&types.AttributeValueMemberB{Value: []byte{1}}, &types.AttributeValueMemberB{Value: []byte{1}}, true},
		{&types.AttributeValueMemberB{Value: []byte{1}}, &types.AttributeValueMemberB{Value: []byte{2}}, false},
		{&types.AttributeValueMemberBOOL{Value: true}, &types.AttributeValueMemberBOOL{Value: true}, true},
		{&types.AttributeValueMemberNULL{Value: true}, &types.AttributeValueMemberNULL{Value: true}, true},
		{&types.AttributeValueMemberSS{Value: []string{"a", "b"}}, &types.AttributeValueMemberSS{Value: []string{"b", "a"}}, true},
		{&types.AttributeValueMemberSS{Value: []string{"a", "b"}}, &types.AttributeValueMemberSS{Value: []string{"a"}}, false},
		{&types.AttributeValueMemberNS{Value: []string{"1", "2"}}, &types.AttributeValueMemberNS{Value: []string{"2.0", "1"}}, true},
		{&types.AttributeValueMemberL{Value: []types.AttributeValue{avS("a"), avN("1")}}, &types.AttributeValueMemberL{Value: []types.AttributeValue{avS("a"), avN("1.00")}}, true},
		{&types.AttributeValueMemberL{Value: []types.AttributeValue{avS("a"), avN("1")}}, &types.AttributeValueMemberL{Value: []types.AttributeValue{avN("1"), avS("a")}}, false},
		{&types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"x": avN("1")}}, &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"x": avN("1")}}, true},
		{&types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"x": avN("1")}}, &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"y": avN("1")}}, false},
		{nil, avS("a"), false},
		{avS("a"), nil, false},
	} {
		if got := SameValue(c.a, c.b); got != c.same {
			t.Errorf("SameValue(%v, %v) = %v, want %v", c.a, c.b, got, c.same)
		}
	}
}

func TestStartKeyRoundTrip(t *testing.T) {
	key := map[string]types.AttributeValue{"PK": avS("USER#1\"\n"), "SK": avN("-1.5e3"), "GSI1PK": &types.AttributeValueMemberB{Value: []byte{0, 255}}}
	s, err := EncodeStartKey(key)
	if err != nil {
		t.Fatal(err)
	}
	back, err := DecodeStartKey(s)
	if err != nil {
		t.Fatal(err)
	}
	if len(back) != 3 || !SameValue(back["PK"], key["PK"]) || back["SK"].(*types.AttributeValueMemberN).Value != "-1.5e3" || !SameValue(back["GSI1PK"], key["GSI1PK"]) {
		t.Errorf("round trip of %v gave %v", key, back)
	}
	if again, _ := EncodeStartKey(back); again != s {
		t.Errorf("encoded again %s, first %s", again, s)
	}
	if _, err := EncodeStartKey(map[string]types.AttributeValue{"PK": &types.AttributeValueMemberBOOL{}}); err == nil {
		t.Error("a start key of a BOOL was encoded")
	}
	for _, bad := range []string{"", "{}", "[]", `[{"n":"PK","t":"X","v":"a"}]`, `[{"n":"PK","t":"B","v":"%%"}]`, `[1,2,3,4,5]`} {
		if _, err := DecodeStartKey(bad); err == nil {
			t.Errorf("DecodeStartKey(%q) read a key", bad)
		}
	}
}

func TestPick(t *testing.T) {
	item := map[string]types.AttributeValue{"A": avS("a"), "B": avS("b"), "C": avS("c")}
	if got, err := Pick(item, "A", "B"); err != nil || len(got) != 2 || !SameValue(got["B"], avS("b")) {
		t.Errorf("Pick(A, B) = %v, %v", got, err)
	}
	if got, err := Pick(item, "X", "Y"); err != nil || got != nil {
		t.Errorf("Pick of none = %v, %v; want nil (not in the index)", got, err)
	}
	if _, err := Pick(item, "A", "Y"); err == nil {
		t.Error("Pick of some: no error")
	}
	if got, _ := FirstVersion(map[string]types.AttributeValue{"v": avN("7")}, "v"); !SameValue(got["v"], avN("7")) {
		t.Errorf("FirstVersion of a versioned item: %v", got)
	}
	if got, _ := FirstVersion(item, "v"); !SameValue(got["v"], avN("1")) {
		t.Errorf("FirstVersion of an item without one: %v", got)
	}
}

// fakeClock is a clock that moves only when the limiter sleeps.
type fakeClock struct{ now time.Time }

func (c *fakeClock) time() time.Time { return c.now }
func (c *fakeClock) sleep(_ context.Context, d time.Duration) error {
	c.now = c.now.Add(d)
	return nil
}

// The limiter holds the units consumed to its rate: over any run of
// calls, the units spent before the last call are paid for at the rate
// by the time it starts.
func TestLimiterHoldsRate(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, rate := range []float64{1, 25, 400} {
		clk := &fakeClock{now: time.Unix(1000, 0)}
		l := &limiter{rate: rate, now: clk.time, sleep: clk.sleep}
		start := clk.now
		spent := 0.0
		for range 2000 {
			if err := l.wait(context.Background()); err != nil {
				t.Fatal(err)
			}
			elapsed := clk.now.Sub(start).Seconds()
			if spent > rate*elapsed+1e-6 {
				t.Fatalf("rate %v: %.1f units spent within %.3f s", rate, spent, elapsed)
			}
			// And no longer than the rate asks.
			if elapsed > spent/rate+1e-6 {
				t.Fatalf("rate %v: %.3f s for %.1f units, due at %.3f s", rate, elapsed, spent, spent/rate)
			}
			u := 0.5 + rng.Float64()*10
			l.spend(u)
			spent += u
		}
	}
	// After a long idle spell, the credit is one second at the rate: no
	// burst past it.
	clk := &fakeClock{now: time.Unix(1000, 0)}
	l := &limiter{rate: 10, now: clk.time, sleep: clk.sleep}
	if err := l.wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	l.spend(1)
	clk.now = clk.now.Add(10 * time.Minute)
	start, spent := clk.now, 0.0
	for range 600 {
		if err := l.wait(context.Background()); err != nil {
			t.Fatal(err)
		}
		if elapsed := clk.now.Sub(start).Seconds(); spent > 10*elapsed+10+1e-6 {
			t.Fatalf("after an idle spell: %.0f units within %.2f s at 10 a second", spent, elapsed)
		}
		l.spend(10)
		spent += 10
	}
	// No rate: no wait.
	clk = &fakeClock{now: time.Unix(0, 0)}
	l = &limiter{now: clk.time, sleep: clk.sleep}
	l.spend(1e6)
	if err := l.wait(context.Background()); err != nil || !clk.now.Equal(time.Unix(0, 0)) {
		t.Errorf("no rate: waited until %v, %v", clk.now, err)
	}
}

func TestBackfillOptionsSegments(t *testing.T) {
	for _, c := range []struct {
		o    BackfillOptions
		want string
	}{
		{BackfillOptions{Segments: 0}, "0 segments"},
		{BackfillOptions{Segments: 1000001}, "segments"},
		{BackfillOptions{Segments: 4, Only: []int{4}}, "segment 4 of 4"},
		{BackfillOptions{Segments: 4, Only: []int{-1}}, "segment -1 of 4"},
	} {
		if _, err := c.o.segmentsOf(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.o, err, c.want)
		}
	}
	if segs, err := (&BackfillOptions{Segments: 3}).segmentsOf(); err != nil || len(segs) != 3 || segs[2] != 2 {
		t.Errorf("3 segments: %v %v", segs, err)
	}
}

// segmentTable is an in-memory table of one segment a backfill runs over:
// its items in key order, scanned a page of two at a time, every write
// applied, the checkpoints kept by key.
type segmentTable struct {
	items       []map[string]types.AttributeValue
	checkpoints map[string]map[string]types.AttributeValue
	updates     int
}

func (f *segmentTable) Scan(_ context.Context, in *dynamodb.ScanInput, _ ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	from := 0
	if k := in.ExclusiveStartKey; k != nil {
		for i, it := range f.items {
			if SameValue(it["PK"], k["PK"]) {
				from = i + 1
			}
		}
	}
	to := min(from+2, len(f.items))
	out := &dynamodb.ScanOutput{Items: f.items[from:to], ConsumedCapacity: &types.ConsumedCapacity{CapacityUnits: aws.Float64(1)}}
	if to < len(f.items) {
		out.LastEvaluatedKey = map[string]types.AttributeValue{"PK": f.items[to-1]["PK"]}
	}
	return out, nil
}

func (f *segmentTable) UpdateItem(_ context.Context, in *dynamodb.UpdateItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	f.updates++
	for _, it := range f.items {
		if SameValue(it["PK"], in.Key["PK"]) {
			it["K"] = in.ExpressionAttributeValues[":K"]
		}
	}
	return &dynamodb.UpdateItemOutput{}, nil
}

func (f *segmentTable) GetItem(_ context.Context, in *dynamodb.GetItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	return &dynamodb.GetItemOutput{Item: f.checkpoints[in.Key["PK"].(*types.AttributeValueMemberS).Value]}, nil
}

func (f *segmentTable) PutItem(_ context.Context, in *dynamodb.PutItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	f.checkpoints[in.Item["PK"].(*types.AttributeValueMemberS).Value] = in.Item
	return &dynamodb.PutItemOutput{}, nil
}

func (f *segmentTable) TransactWriteItems(context.Context, *dynamodb.TransactWriteItemsInput, ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	return nil, errors.New("no transaction here")
}

// A deadline stops a run at a page's start, never before its first
// page; the checkpoint then resumes it where it stopped, and the run
// that ends the segment says it is done.
func TestBackfillDeadline(t *testing.T) {
	f := &segmentTable{checkpoints: map[string]map[string]types.AttributeValue{}}
	for i := range 7 {
		f.items = append(f.items, map[string]types.AttributeValue{"PK": avS(fmt.Sprintf("I#%d", i)), "T": avS("E")})
	}
	b := &Backfill{ID: "E.K", Fingerprint: "f", Key: []string{"PK"}, EntityAttr: "T", TypeValue: "E", Filter: "T = :t",
		Set: "SET K = :K", Clear: "REMOVE K", Condition: "T = :t", Writes: []BackfillWrite{{Stored: "K", Value: ":K"}},
		Fill: func(item map[string]types.AttributeValue) (map[string]types.AttributeValue, error) {
			return map[string]types.AttributeValue{"K": avS("k")}, nil
		}}
	cps := &Checkpoints{
		Marshal: func(c Checkpoint) (map[string]types.AttributeValue, error) {
			item := map[string]types.AttributeValue{"PK": avS("CP#" + c.Backfill), "after": avS(c.After), "done": &types.AttributeValueMemberBOOL{Value: c.Done}, "scanned": avN(fmt.Sprint(c.Scanned))}
			return item, nil
		},
		Unmarshal: func(item map[string]types.AttributeValue) (Checkpoint, error) {
			n, _ := strconv.ParseInt(item["scanned"].(*types.AttributeValueMemberN).Value, 10, 64)
			return Checkpoint{Backfill: "E.K", Fingerprint: "f", Segments: 1, After: item["after"].(*types.AttributeValueMemberS).Value, Done: item["done"].(*types.AttributeValueMemberBOOL).Value, Scanned: n}, nil
		}}
	clk := &fakeClock{now: time.Unix(1000, 0)}
	o := BackfillOptions{TableName: "T", Segments: 1, Write: true, Deadline: clk.now.Add(-time.Second), clock: clk.time, sleep: clk.sleep}
	rep, err := RunBackfill(context.Background(), f, b, cps, o)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Stopped || rep.Scanned != 2 || f.updates != 2 {
		t.Fatalf("a run past its deadline: %+v, %d updates; want it stopped after its first page of 2", rep, f.updates)
	}
	for run := 2; ; run++ {
		rep, err = RunBackfill(context.Background(), f, b, cps, o)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Scanned != 2 && !(rep.Scanned == 1 && !rep.Stopped) {
			t.Fatalf("run %d: %+v, want a page of 2 (or the last of 1)", run, rep)
		}
		if !rep.Stopped {
			break
		}
	}
	if f.updates != 7 {
		t.Errorf("%d items written, want 7, each once", f.updates)
	}
	if rep, _ := RunBackfill(context.Background(), f, b, cps, o); rep.Scanned != 0 || f.updates != 7 {
		t.Errorf("a run over the segment done: %+v", rep)
	}
	o.Restart = true
	if rep, _ := RunBackfill(context.Background(), f, b, cps, o); rep.Scanned != 2 || rep.Already != 2 || f.updates != 7 {
		t.Errorf("a run again with Restart: %+v, %d updates; want the first page read again, nothing written", rep, f.updates)
	}
}

// A checkpoint's start key, whatever text the item holds: never a panic;
// one that reads writes itself back the same.
func FuzzStartKey(f *testing.F) {
	for _, key := range sampleKeys()[:8] {
		if s, err := EncodeStartKey(key); err == nil {
			f.Add(s)
		}
	}
	f.Add(`[{"n":"PK","t":"B","v":"AAE="}]`)
	f.Add(`[{"n":"PK","t":"N","v":"-1e3"},{"n":"SK","t":"S","v":""}]`)
	f.Fuzz(func(t *testing.T, s string) {
		key, err := DecodeStartKey(s)
		if err != nil {
			return
		}
		again, err := EncodeStartKey(key)
		if err != nil {
			t.Fatalf("DecodeStartKey(%q) read %v, which does not encode: %v", s, key, err)
		}
		back, err := DecodeStartKey(again)
		if err != nil || len(back) != len(key) {
			t.Fatalf("%q: encoded again %q, read back %v, %v", s, again, back, err)
		}
		for name, v := range key {
			if !SameValue(back[name], v) && !(isN(v) && back[name].(*types.AttributeValueMemberN).Value == v.(*types.AttributeValueMemberN).Value) {
				t.Fatalf("%q: %s reads back %v, was %v", s, name, back[name], v)
			}
		}
	})
}

func isN(v types.AttributeValue) bool {
	_, ok := v.(*types.AttributeValueMemberN)
	return ok
}

// Missing is true only when every error a decoder kept is a required
// attribute of those named missing: the decoder goes on past one, so an
// error of another attribute after it is seen.
func TestMissing(t *testing.T) {
	decode := func(item map[string]types.AttributeValue) error {
		dec := ItemDecoder{Entity: "E"}
		dec.String("a", item["a"], Required)
		dec.Int("b", item["b"], Required)
		dec.String("c", item["c"], Required)
		return dec.Err
	}
	s := &types.AttributeValueMemberS{Value: "x"}
	n := &types.AttributeValueMemberN{Value: "1"}
	for _, c := range []struct {
		item  map[string]types.AttributeValue
		attrs []string
		want  bool
	}{
		{map[string]types.AttributeValue{"b": n, "c": s}, []string{"a"}, true},
		{map[string]types.AttributeValue{"b": n, "c": s}, []string{"b"}, false},
		{map[string]types.AttributeValue{"c": s}, []string{"a", "b"}, true},
		{map[string]types.AttributeValue{"c": s}, []string{"a"}, false},
		{map[string]types.AttributeValue{"b": s, "c": s}, []string{"a"}, false}, // b in another form, after a missing
		{map[string]types.AttributeValue{"a": s, "b": n, "c": s}, []string{"a"}, false},
	} {
		err := decode(c.item)
		if got := err != nil && Missing(err, c.attrs...); got != c.want {
			t.Errorf("Missing(%v, %v) = %v, want %v", err, c.attrs, got, c.want)
		}
		if err != nil && !errors.Is(err, ErrInvalidItem) {
			t.Errorf("%v is not ErrInvalidItem", err)
		}
	}
}

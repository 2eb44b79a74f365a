package e2e

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	dyngen "github.com/dyngen/dyngen/generator/runtime"
)

// callRecorder records the Query inputs a store sends.
type callRecorder struct {
	Client
	mu      sync.Mutex
	queries []*dynamodb.QueryInput
}

func (r *callRecorder) Query(ctx context.Context, in *dynamodb.QueryInput, opts ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	r.mu.Lock()
	r.queries = append(r.queries, in)
	r.mu.Unlock()
	return r.Client.Query(ctx, in, opts...)
}

func (r *callRecorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.queries)
}

func (r *callRecorder) last() *dynamodb.QueryInput {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.queries[len(r.queries)-1]
}

// clocks are the placeholders of the Store clock's now that the queries
// of these tests send (WidgetsInRegion leaves expired widgets out, and
// its request holds :now): a cursor is bound to the placeholder, not to
// its value.
var clocks = map[string]string{"WidgetsInRegion": ":now"}

// forge is what a caller who knows the format of an unsigned cursor can
// build: a cursor of the query sent as in (same table, index and values,
// so the checksum holds) around any key.
func forge(pattern string, in *dynamodb.QueryInput, key map[string]types.AttributeValue) Cursor {
	return dyngen.UnsignedCursor(pattern, clocks[pattern], in, key)
}

// variants are start keys made from a real one: each change is a key no
// page of the query can give.
func variants(real map[string]types.AttributeValue, changes map[string]map[string]types.AttributeValue) map[string]map[string]types.AttributeValue {
	out := map[string]map[string]types.AttributeValue{}
	for what, change := range changes {
		k := maps.Clone(real)
		for n, v := range change {
			if v == nil {
				delete(k, n)
			} else {
				k[n] = v
			}
		}
		out[what] = k
	}
	return out
}

func sv(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
func nv(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }

// TestForgedCursors builds unsigned cursors around start keys outside the
// query's key condition, with the right checksum: each is refused with
// ErrInvalidCursor and no request is sent (DynamoDB would answer some with
// a ValidationException, and read others from where the caller chose).
func TestForgedCursors(t *testing.T) {
	t.Parallel()
	rec := &callRecorder{}
	s, _ := newStore(t, func(c Client) Client { rec.Client = c; return rec })
	ctx := t.Context()
	var evs []Event
	for i := range 10 {
		evs = append(evs, Event{OwnerID: "o", Seq: int64(i), At: time.Unix(int64(i), 0), Note: "e"})
		evs = append(evs, Event{OwnerID: "p", Seq: int64(i), At: time.Unix(int64(i), 0), Note: "e"})
	}
	must(t, s.PutEvents(ctx, evs))
	for i := range 4 {
		w := newWidget("o", fmt.Sprintf("w%d", i))
		w.Region, w.Serial = new("eu"), fmt.Sprintf("S%d", i)
		must(t, s.CreateWidget(ctx, w))
	}
	for i := range 8 {
		must(t, s.SaveReading(ctx, &Reading{DeviceID: 7, Seq: int64(i), Value: 1, At: time.UnixMilli(1)}))
	}

	cases := []struct {
		pattern string
		// first reads the first page (Limit 2); call reads the page at c.
		first, call func(c Cursor) (Cursor, error)
		changes     map[string]map[string]types.AttributeValue
	}{
		{
			pattern: "EventsBetween",
			call: func(c Cursor) (Cursor, error) {
				res, err := s.EventsBetween(ctx, EventsBetweenParams{OwnerID: "o", SeqFrom: 2, SeqTo: 6}, Page{Cursor: c, Limit: 2})
				if err != nil {
					return "", err
				}
				return res.Next, nil
			},
			changes: map[string]map[string]types.AttributeValue{
				"a sort key below the range":      {"SK": sv("EVENT#" + dyngen.KeyInt(1))},
				"a sort key above the range":      {"SK": sv("EVENT#" + dyngen.KeyInt(7))},
				"a sort key of another entity":    {"SK": sv("NOTE#x")},
				"another partition":               {"PK": sv("OWNER#p")},
				"a partition key of another type": {"PK": nv("1")},
				"a sort key of another type":      {"SK": nv("3")},
				"no sort key":                     {"SK": nil},
				"no partition key":                {"PK": nil},
				"an extra attribute":              {"GSI1PK": sv("x")},
				"an empty sort key":               {"SK": sv("")},
			},
		},
		{
			pattern: "WidgetsInRegion",
			call: func(c Cursor) (Cursor, error) {
				res, err := s.WidgetsInRegion(ctx, WidgetsInRegionParams{Region: "eu", Status: WidgetStatusLive}, Page{Cursor: c, Limit: 2})
				if err != nil {
					return "", err
				}
				return res.Next, nil
			},
			changes: map[string]map[string]types.AttributeValue{
				"an index sort key outside begins_with": {"GSI1SK": sv("SERIAK#S9")},
				"another region":                        {"GSI1PK": sv("REGION#us")},
				"no table partition key":                {"PK": nil},
				"no table sort key":                     {"SK": nil},
				"no index sort key":                     {"GSI1SK": nil},
				"the table's key only":                  {"GSI1PK": nil, "GSI1SK": nil},
				"an LSI key too":                        {"LSI1SK": sv("CAT/x")},
				"a table sort key of another type":      {"SK": &types.AttributeValueMemberB{Value: []byte("WIDGET#w1")}},
			},
		},
		{
			pattern: "ReadingsFrom",
			call: func(c Cursor) (Cursor, error) {
				res, err := s.ReadingsFrom(ctx, ReadingsFromParams{DeviceID: 7, Seq: 3}, Page{Cursor: c, Limit: 2})
				if err != nil {
					return "", err
				}
				return res.Next, nil
			},
			changes: map[string]map[string]types.AttributeValue{
				"a sort key below the bound":   {"seq": nv("2")},
				"a sort key far below":         {"seq": nv("-1e100")},
				"another device":               {"deviceId": nv("8")},
				"a sort key that is no number": {"seq": nv("4x")},
				"a sort key as a string":       {"seq": sv("4")},
			},
		},
	}
	for _, tc := range cases {
		// A real first page and cursor; the request it sent.
		next, err := tc.call("")
		must(t, err)
		if next == "" {
			t.Fatalf("%s: no second page", tc.pattern)
		}
		in := rec.last()
		// The test's own encoder makes the store's cursors: decoding the
		// real one with the query's binding gives its key back.
		real, err := dyngen.UnsignedCursorKey(tc.pattern, clocks[tc.pattern], in, next)
		if err != nil {
			t.Fatalf("%s: the test can't decode the store's cursor: %v", tc.pattern, err)
		}
		if again := forge(tc.pattern, in, real); again != next {
			t.Fatalf("%s: the test's encoder does not make the store's cursor", tc.pattern)
		}
		// A forged cursor of the real key is taken: what is refused below
		// is refused for its key, not its checksum.
		n := rec.count()
		if _, err := tc.call(forge(tc.pattern, in, real)); err != nil {
			t.Fatalf("%s: a cursor built around the real key: %v", tc.pattern, err)
		}
		if rec.count() != n+1 {
			t.Fatalf("%s: the page of a real key sent %d requests", tc.pattern, rec.count()-n)
		}
		for what, key := range variants(real, tc.changes) {
			n := rec.count()
			_, err := tc.call(forge(tc.pattern, in, key))
			if !errors.Is(err, ErrInvalidCursor) {
				t.Errorf("%s, %s: %v, want ErrInvalidCursor", tc.pattern, what, err)
			}
			if rec.count() != n {
				t.Errorf("%s, %s: %d requests sent", tc.pattern, what, rec.count()-n)
			}
		}
	}
}

// TestCursorsWithKey pages with a Store that seals its cursors: the pages
// are right, the cursors hide their keys, and a cursor is taken only by
// a Store with the same secret.
func TestCursorsWithKey(t *testing.T) {
	t.Parallel()
	rec := &callRecorder{}
	secret := []byte("0123456789abcdef0123456789abcdef")
	s, client, tables := newStoreOpts(t, func(c Client) Client { rec.Client = c; return rec }, WithCursorKey(secret))
	ctx := t.Context()
	var evs []Event
	for i := range 10 {
		evs = append(evs, Event{OwnerID: "o", Seq: int64(i), At: time.Unix(int64(i), 0), Note: "e"})
	}
	must(t, s.PutEvents(ctx, evs))
	var got []int64
	var cursors []Cursor
	for cur, n := Cursor(""), 0; ; n++ {
		if n > 10 {
			t.Fatal("EventsBetween does not end")
		}
		res, err := s.EventsBetween(ctx, EventsBetweenParams{OwnerID: "o", SeqFrom: 1, SeqTo: 8}, Page{Cursor: cur, Limit: 3})
		must(t, err)
		got = append(got, seqsOf(res.Items)...)
		if res.Next == "" {
			break
		}
		cur = res.Next
		cursors = append(cursors, cur)
	}
	if want := []int64{1, 2, 3, 4, 5, 6, 7, 8}; !slices.Equal(got, want) {
		t.Errorf("EventsBetween page by page with a key = %v, want %v", got, want)
	}
	if len(cursors) < 2 {
		t.Fatalf("%d cursors", len(cursors))
	}
	// All at once, through the iterator.
	var all []int64
	for e, err := range s.EventsAll(ctx, "o") {
		must(t, err)
		all = append(all, e.Seq)
	}
	if len(all) != 10 {
		t.Errorf("EventsAll with a key: %v", all)
	}
	cur := cursors[0]
	raw, err := base64.RawURLEncoding.DecodeString(string(cur))
	must(t, err)
	for _, text := range []string{"OWNER#o", "EVENT#", dyngen.KeyInt(3)} {
		if bytes.Contains(raw, []byte(text)) {
			t.Errorf("a sealed cursor holds %q in clear", text)
		}
	}
	refused := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, ErrInvalidCursor) {
			t.Errorf("%s: %v, want ErrInvalidCursor", what, err)
		}
	}
	same := newChecked(t, client, append(slices.Clip(tables), WithCursorKey(slices.Clone(secret)))...)
	res, err := same.EventsBetween(ctx, EventsBetweenParams{OwnerID: "o", SeqFrom: 1, SeqTo: 8}, Page{Cursor: cur, Limit: 3})
	must(t, err)
	if !slices.Equal(seqsOf(res.Items), []int64{4, 5, 6}) {
		t.Errorf("another Store with the same secret: %v", seqsOf(res.Items))
	}
	other := newChecked(t, client, append(slices.Clip(tables), WithCursorKey([]byte("another secret, as long as it is")))...)
	_, err = other.EventsBetween(ctx, EventsBetweenParams{OwnerID: "o", SeqFrom: 1, SeqTo: 8}, Page{Cursor: cur})
	refused("a Store with another secret", err)
	plain := newChecked(t, client, tables...)
	_, err = plain.EventsBetween(ctx, EventsBetweenParams{OwnerID: "o", SeqFrom: 1, SeqTo: 8}, Page{Cursor: cur})
	refused("a Store without a key", err)
	pres, err := plain.EventsBetween(ctx, EventsBetweenParams{OwnerID: "o", SeqFrom: 1, SeqTo: 8}, Page{Limit: 3})
	must(t, err)
	n := rec.count()
	_, err = s.EventsBetween(ctx, EventsBetweenParams{OwnerID: "o", SeqFrom: 1, SeqTo: 8}, Page{Cursor: pres.Next})
	refused("an unsigned cursor given to a Store with a key", err)
	_, err = s.EventsBetween(ctx, EventsBetweenParams{OwnerID: "o", SeqFrom: 1, SeqTo: 7}, Page{Cursor: cur})
	refused("another where operand", err)
	_, err = s.EventsBetween(ctx, EventsBetweenParams{OwnerID: "p", SeqFrom: 1, SeqTo: 8}, Page{Cursor: cur})
	refused("another partition", err)
	_, err = s.EventsUpTo(ctx, EventsUpToParams{OwnerID: "o", Seq: 8}, Page{Cursor: cur})
	refused("another pattern", err)
	// A forged unsigned cursor of the real request, given to the Store
	// with a key.
	in := rec.last()
	_, err = s.EventsBetween(ctx, EventsBetweenParams{OwnerID: "o", SeqFrom: 1, SeqTo: 8}, Page{Cursor: forge("EventsBetween", in, map[string]types.AttributeValue{"PK": sv("OWNER#o"), "SK": sv("EVENT#" + dyngen.KeyInt(4))})})
	refused("a forged unsigned cursor", err)
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	for i := range len(cur) {
		b := []byte(cur)
		b[i] = alphabet[strings.IndexByte(alphabet, b[i])^32] // the top bit: never unused
		_, err := s.EventsBetween(ctx, EventsBetweenParams{OwnerID: "o", SeqFrom: 1, SeqTo: 8}, Page{Cursor: Cursor(b)})
		refused("a sealed cursor with character "+strconv.Itoa(i)+" changed", err)
	}
	if rec.count() != n {
		t.Errorf("refused cursors sent %d requests", rec.count()-n)
	}
	// Another table name: the same spec's Store over other tables.
	moved, _, _ := newStoreOpts(t, nil, WithCursorKey(secret))
	_, err = moved.EventsBetween(ctx, EventsBetweenParams{OwnerID: "o", SeqFrom: 1, SeqTo: 8}, Page{Cursor: cur})
	refused("another physical table", err)
}

// scribbler is a client that changes the request it was given once it
// has answered: the partition value, the sort key's bounds and the table
// name. A client may; the store must not read them back.
type scribbler struct{ Client }

func (c scribbler) Query(ctx context.Context, in *dynamodb.QueryInput, opts ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	out, err := c.Client.Query(ctx, in, opts...)
	for _, v := range in.ExpressionAttributeValues {
		if s, ok := v.(*types.AttributeValueMemberS); ok {
			s.Value = "OWNER#p"
		}
	}
	if in.TableName != nil {
		*in.TableName = "elsewhere"
	}
	return out, err
}

// TestCursorNotFromClientMemory checks that the next cursor is made of
// what the query sent, not of memory the client was given and changed.
func TestCursorNotFromClientMemory(t *testing.T) {
	t.Parallel()
	s, client, tables := newStoreOpts(t, func(c Client) Client { return scribbler{c} })
	ctx := t.Context()
	var evs []Event
	for i := range 6 {
		evs = append(evs, Event{OwnerID: "o", Seq: int64(i), At: time.Unix(int64(i), 0), Note: "e"})
	}
	must(t, s.PutEvents(ctx, evs))
	res, err := s.EventsBetween(ctx, EventsBetweenParams{OwnerID: "o", SeqFrom: 0, SeqTo: 5}, Page{Limit: 2})
	must(t, err)
	if res.Next == "" {
		t.Fatal("no next page")
	}
	// A store with a client that changes nothing takes the cursor for the
	// query it came from.
	plain := newChecked(t, client, tables...)
	next, err := plain.EventsBetween(ctx, EventsBetweenParams{OwnerID: "o", SeqFrom: 0, SeqTo: 5}, Page{Cursor: res.Next, Limit: 2})
	must(t, err)
	if got := seqsOf(next.Items); !slices.Equal(got, []int64{2, 3}) {
		t.Errorf("the page after the cursor = %v, want [2 3]", got)
	}
}

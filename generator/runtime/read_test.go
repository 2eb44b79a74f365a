package runtime

import (
	"context"
	"errors"
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// readClient records the requests of the reads and answers with items.
type readClient struct {
	gets    []*dynamodb.GetItemInput
	queries []*dynamodb.QueryInput
	item    map[string]types.AttributeValue
	items   []map[string]types.AttributeValue
	last    map[string]types.AttributeValue // the LastEvaluatedKey of a page
}

func (c *readClient) GetItem(_ context.Context, in *dynamodb.GetItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	c.gets = append(c.gets, in)
	return &dynamodb.GetItemOutput{Item: c.item}, nil
}

func (c *readClient) Query(_ context.Context, in *dynamodb.QueryInput, _ ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	c.queries = append(c.queries, in)
	return &dynamodb.QueryOutput{Items: c.items, LastEvaluatedKey: c.last}, nil
}

// readItem is an item type the tests decode: its name, which "bad"
// refuses and "skip" skips.
type readItem struct{ Name string }

func decodeReadItem(v *readItem, item map[string]types.AttributeValue) error {
	d := ItemDecoder{Entity: "R"}
	v.Name = d.String("name", item["name"], Required)
	switch {
	case d.Err != nil:
		return d.Err
	case v.Name == "bad":
		return &ItemError{Entity: "R", Attr: "name", Reason: "bad"}
	case v.Name == "skip":
		return Skip
	}
	return nil
}

func named(name string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "P"}, "SK": &types.AttributeValueMemberS{Value: name}, "name": &types.AttributeValueMemberS{Value: name}, "_type": &types.AttributeValueMemberS{Value: "R"}}
}

var readIndex = &Index{PK: "PK", SK: "SK", Item: []string{"PK", "SK"}, Start: []StartAttr{{Name: "PK", Kind: 'S'}, {Name: "SK", Kind: 'S', Sort: true}}}

func TestGetItem(t *testing.T) {
	ctx := context.Background()
	g := &Get{Method: "GetR", Index: readIndex, Consistent: true, Projection: "#n", Names: map[string]string{"#n": "name"}, TTL: "ttl"}
	c := &readClient{item: named("ana")}
	v, err := GetItem(ctx, c, &Args{Table: "T", PK: "P", SK: "ana", Now: 100}, g, decodeReadItem)
	if err != nil || v.Name != "ana" {
		t.Fatalf("GetItem: %v, %v", v, err)
	}
	in := c.gets[0]
	if *in.TableName != "T" || *in.ConsistentRead != true || *in.ProjectionExpression != "#n" || !reflect.DeepEqual(in.Key, map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "P"}, "SK": &types.AttributeValueMemberS{Value: "ana"}}) {
		t.Errorf("GetItem sent %+v", in)
	}
	// The request's names are its own.
	in.ExpressionAttributeNames["#n"] = "changed"
	if g.Names["#n"] != "name" {
		t.Error("the client changed the Get's names")
	}
	// A key value of type N, from Values.
	GetItem(ctx, c, &Args{Table: "T", PK: "P", Values: map[string]types.AttributeValue{"SK": &types.AttributeValueMemberN{Value: "7"}}}, g, decodeReadItem)
	if n, ok := c.gets[1].Key["SK"].(*types.AttributeValueMemberN); !ok || n.Value != "7" {
		t.Errorf("GetItem sent the key %v", c.gets[1].Key)
	}
	for _, tc := range []struct {
		what string
		item map[string]types.AttributeValue
		want error
	}{
		{"no item", nil, ErrNotFound},
		{"an expired item", func() map[string]types.AttributeValue {
			item := named("ana")
			item["ttl"] = &types.AttributeValueMemberN{Value: "100"}
			return item
		}(), ErrNotFound},
		{"a skipped item", named("skip"), ErrNotFound},
		{"an item that can't be decoded", named("bad"), ErrInvalidItem},
	} {
		c.item = tc.item
		if v, err := GetItem(ctx, c, &Args{Table: "T", PK: "P", SK: "x", Now: 100}, g, decodeReadItem); v != nil || !errors.Is(err, tc.want) || err.Error()[:len("dyngen: GetR: ")] != "dyngen: GetR: " {
			t.Errorf("%s: %v, %v; want the method's error over %v", tc.what, v, err, tc.want)
		}
	}
	// A key value an encoding refused: no call.
	n := len(c.gets)
	a := Args{Table: "T"}
	a.PK = a.KeyString("id", "", "#")
	if _, err := GetItem(ctx, c, &a, g, decodeReadItem); !errors.Is(err, ErrInvalidKey) || len(c.gets) != n {
		t.Errorf("a refused key value: %v, %d calls", err, len(c.gets)-n)
	}
}

func TestQueryPage(t *testing.T) {
	ctx := context.Background()
	q := &Query{Method: "ListR", Index: readIndex, KeyCondition: "PK = :pk AND SK BETWEEN :lo AND :hi", Descending: true, Limit: 3, Op: "BETWEEN", PK: ":pk", Lo: ":lo", Hi: ":hi", TypeAttr: "_type", TypeValue: "R"}
	other := named("x")
	other["_type"] = &types.AttributeValueMemberS{Value: "Other"}
	last := map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "P"}, "SK": &types.AttributeValueMemberS{Value: "b"}}
	c := &readClient{items: []map[string]types.AttributeValue{named("a"), other, named("bad"), named("skip"), named("b")}, last: last}
	a := Args{Table: "T", PK: "P", Lo: "a", Hi: "z"}
	res, err := QueryPage(ctx, c, nil, Page{}, &a, q, decodeReadItem)
	var de *DecodeError
	if res == nil || !errors.As(err, &de) || len(de.Items) != 1 || de.Items[0].Position != 2 {
		t.Fatalf("QueryPage: %v, %v; want a page and the DecodeError of item 2", res, err)
	}
	if len(res.Items) != 2 || res.Items[0].Name != "a" || res.Items[1].Name != "b" || res.Next == "" {
		t.Errorf("the page holds %+v, next %q", res.Items, res.Next)
	}
	// An item that can't be decoded leaves nothing of it in the page's
	// spare capacity, last of the page as it is here.
	failedLast := &readClient{items: []map[string]types.AttributeValue{named("a"), named("bad")}}
	if res, _ := QueryPage(ctx, failedLast, nil, Page{}, &Args{Table: "T", PK: "P", Lo: "a", Hi: "z"}, q, decodeReadItem); res == nil || len(res.Items) != 1 {
		t.Fatalf("a page whose last item can't be decoded: %v", res)
	} else {
		for i, v := range res.Items[len(res.Items):cap(res.Items)] {
			if v != (readItem{}) {
				t.Errorf("the page's spare slot %d holds %+v", len(res.Items)+i, v)
			}
		}
	}
	in := c.queries[0]
	if *in.Limit != 3 || *in.ScanIndexForward || in.IndexName != nil || *in.KeyConditionExpression != q.KeyCondition || len(in.ExpressionAttributeValues) != 3 {
		t.Errorf("QueryPage sent %+v", in)
	}
	// The next page, from the cursor: its start key, checked, is sent.
	c.last = nil
	if _, err := QueryPage(ctx, c, nil, Page{Cursor: res.Next, Limit: 2}, &a, q, decodeReadItem); err == nil || !errors.As(err, &de) {
		t.Fatalf("the next page: %v", err)
	}
	if in := c.queries[1]; *in.Limit != 2 || in.ExclusiveStartKey["SK"].(*types.AttributeValueMemberS).Value != "b" {
		t.Errorf("the next page sent %+v", in)
	}
	// A cursor of another partition is refused before any call.
	n := len(c.queries)
	b := a
	b.PK = "Q"
	if _, err := QueryPage(ctx, c, nil, Page{Cursor: res.Next}, &b, q, decodeReadItem); !errors.Is(err, ErrInvalidCursor) || len(c.queries) != n {
		t.Errorf("a cursor of another partition: %v, %d calls", err, len(c.queries)-n)
	}
	// Bounds the wrong way round: an empty page, and no call.
	b = a
	b.Lo, b.Hi = "z", "a"
	if res, err := QueryPage(ctx, c, nil, Page{}, &b, q, decodeReadItem); err != nil || res == nil || res.Items == nil || len(res.Items) != 0 || len(c.queries) != n {
		t.Errorf("empty bounds: %v, %v, %d calls", res, err, len(c.queries)-n)
	}
	// Values given in Values are the request's own copies.
	b = a
	b.Values = map[string]types.AttributeValue{":lo": &types.AttributeValueMemberS{Value: "b"}, ":x": &types.AttributeValueMemberL{Value: []types.AttributeValue{&types.AttributeValueMemberN{Value: "1"}}}}
	QueryPage(ctx, c, nil, Page{}, &b, q, decodeReadItem)
	sent := c.queries[len(c.queries)-1].ExpressionAttributeValues
	if !reflect.DeepEqual(sent[":lo"], b.Values[":lo"]) || !reflect.DeepEqual(sent[":x"], b.Values[":x"]) || sent[":x"] == b.Values[":x"] {
		t.Errorf("sent %v for the values %v", sent, b.Values)
	}
}

func TestQueryFirstAndEach(t *testing.T) {
	ctx := context.Background()
	q := &Query{Method: "FirstR", Index: readIndex, KeyCondition: "PK = :pk", Limit: 1, PK: ":pk", TTL: "ttl"}
	c := &readClient{items: []map[string]types.AttributeValue{named("a")}}
	if v, err := QueryFirst(ctx, c, &Args{Table: "T", PK: "P"}, q, decodeReadItem); err != nil || v.Name != "a" {
		t.Errorf("QueryFirst: %v, %v", v, err)
	}
	c.items = nil
	if _, err := QueryFirst(ctx, c, &Args{Table: "T", PK: "P"}, q, decodeReadItem); !errors.Is(err, ErrNotFound) {
		t.Errorf("QueryFirst of no item: %v", err)
	}
	// The first item skipped by the decoder, or expired, is absent; one
	// the decoder refuses is its error.
	expired := named("a")
	expired["ttl"] = &types.AttributeValueMemberN{Value: "100"}
	notFound := func(err error) bool { return errors.Is(err, ErrNotFound) }
	refused := func(err error) bool { var ie *ItemError; return errors.As(err, &ie) && !notFound(err) }
	for _, tc := range []struct {
		name string
		item map[string]types.AttributeValue
		want func(error) bool
	}{
		{"skipped", named("skip"), notFound},
		{"expired", expired, notFound},
		{"refused", named("bad"), refused},
	} {
		c.items = []map[string]types.AttributeValue{tc.item}
		if v, err := QueryFirst(ctx, c, &Args{Table: "T", PK: "P", Now: 100}, q, decodeReadItem); v != nil || !tc.want(err) {
			t.Errorf("QueryFirst of an item %s: %v, %v", tc.name, v, err)
		}
	}
	// Bounds the wrong way round: absent, and no call.
	n := len(c.queries)
	between := &Query{Method: "FirstR", Index: readIndex, KeyCondition: "PK = :pk AND SK BETWEEN :lo AND :hi", Limit: 1, Op: "BETWEEN", PK: ":pk", Lo: ":lo", Hi: ":hi"}
	if _, err := QueryFirst(ctx, c, &Args{Table: "T", PK: "P", Lo: "z", Hi: "a"}, between, decodeReadItem); !errors.Is(err, ErrNotFound) || len(c.queries) != n {
		t.Errorf("QueryFirst of empty bounds: %v, %d calls", err, len(c.queries)-n)
	}
	c.items = []map[string]types.AttributeValue{named("a"), named("bad"), named("b")}
	var names []string
	var next Cursor
	ok, err := QueryEach(ctx, c, nil, Page{}, &Args{Table: "T", PK: "P"}, &Query{Method: "EachR", Index: readIndex, KeyCondition: "PK = :pk", PK: ":pk"}, &next, func(item map[string]types.AttributeValue) error {
		var v readItem
		if err := decodeReadItem(&v, item); err != nil {
			return err
		}
		names = append(names, v.Name)
		return nil
	})
	var de *DecodeError
	if !ok || !errors.As(err, &de) || len(names) != 2 || next != "" {
		t.Errorf("QueryEach: %v, %v, %v, %q", ok, err, names, next)
	}
}

func TestKeyCheck(t *testing.T) {
	var k KeyCheck
	a := k.KeyString("a", "x#y", "#")
	b := k.KeyTime("b", time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC))
	c := k.KeyString("c", "ok", "#")
	var ke *KeyError
	if !errors.As(k.Err, &ke) || ke.Attr != "a" || a != "" || b != "" || c != "ok" {
		t.Errorf("KeyCheck kept %v; texts %q %q %q", k.Err, a, b, c)
	}
	if s, err := k.Sized("K", "ok", 10); s != "" || err != k.Err {
		t.Errorf("Sized after an error: %q, %v", s, err)
	}
	var ok KeyCheck
	if s, err := ok.Sized("K", strconv.Itoa(12345), 4); s != "" || !errors.As(err, &ke) || ke.Attr != "K" {
		t.Errorf("Sized over the limit: %q, %v", s, err)
	}
	if s, err := ok.Done("k"); s != "k" || err != nil {
		t.Errorf("Done: %q, %v", s, err)
	}
}

func TestCloneValue(t *testing.T) {
	v := &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{
		"l": &types.AttributeValueMemberL{Value: []types.AttributeValue{&types.AttributeValueMemberB{Value: []byte("b")}}},
		"s": &types.AttributeValueMemberSS{Value: []string{"x"}},
	}}
	c := cloneValue(v).(*types.AttributeValueMemberM)
	if !reflect.DeepEqual(c, v) {
		t.Fatalf("clone %v of %v", c, v)
	}
	c.Value["l"].(*types.AttributeValueMemberL).Value[0].(*types.AttributeValueMemberB).Value[0] = 'z'
	c.Value["s"].(*types.AttributeValueMemberSS).Value[0] = "z"
	if string(v.Value["l"].(*types.AttributeValueMemberL).Value[0].(*types.AttributeValueMemberB).Value) != "b" || v.Value["s"].(*types.AttributeValueMemberSS).Value[0] != "x" {
		t.Error("the clone shares a value with the original")
	}
}

// TestQueryKeeps drops another entity's items (TypeAttr) and, for a query
// whose expired items are dropped after the read (TTL), those at or before
// now.
func TestQueryKeeps(t *testing.T) {
	q := &Query{TypeAttr: "_type", TypeValue: "Session", TTL: "exp"}
	item := func(typ, exp string) map[string]types.AttributeValue {
		it := map[string]types.AttributeValue{"_type": &types.AttributeValueMemberS{Value: typ}}
		if exp != "" {
			it["exp"] = &types.AttributeValueMemberN{Value: exp}
		}
		return it
	}
	for _, c := range []struct {
		item map[string]types.AttributeValue
		want bool
	}{
		{item("Session", "101"), true},
		{item("Session", "100"), false},
		{item("Session", "99"), false},
		{item("Session", ""), true},
		{item("Team", "101"), false},
	} {
		if got := q.keeps(c.item, 100); got != c.want {
			t.Errorf("keeps(%v) at 100 = %v, want %v", c.item, got, c.want)
		}
	}
	if !(&Query{}).keeps(item("Team", "1"), 100) {
		t.Error("a query of no type nor ttl dropped an item")
	}
}

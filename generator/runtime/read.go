package runtime

import (
	"context"
	"errors"
	"iter"
	"maps"
	"slices"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// The reads of generated code: a GetItem by the whole primary key
// (GetItem), and a Query of one page (QueryPage, QueryEach) or of its
// first item (QueryFirst). Each method hands over what its plan decided,
// once per pattern (Get, Query: the expressions, the index, the order,
// the cursor check), and what one call gives (Args: the table's physical
// name and the key values), with the decoder of its item type; the
// runtime builds the request, calls, and decodes.

// Index is an index as the reads of a generated package use it: its
// name and key attributes, and the attributes of its start keys.
type Index struct {
	// Name is the index's name; "" for the table's primary key.
	Name string
	// PK and SK are the index's key attributes; SK is "" when it has
	// none. Of a multi-attribute key, they are the first of each (a
	// query names them all in Query.Equal and Query.Attr).
	PK, SK string
	// Start are the attributes of a start key of a query of the index:
	// the index's key and the table's, each once.
	Start []StartAttr
	// Item are the table's primary key attributes, which identify an item
	// (UndecodedItem.KeyAttrs).
	Item []string
}

// Args are what one call of a read gives: the table's physical name and
// the values of the key. A string value is given as a string; another
// (a number, binary, a condition's operand, the clock's now) in Values.
// The encodings of the values keep their errors in its KeyCheck: the
// read returns the first, named by its method, before any call.
type Args struct {
	KeyCheck
	// Table is the table's physical name.
	Table string
	// PK, SK, Lo and Hi are string values: a get's partition and sort
	// key, or a query's values of the placeholders Query.PK, SK, Lo and
	// Hi, where Values holds none of that placeholder.
	PK, SK, Lo, Hi string
	// Values holds the other values: by attribute name (a get's key of
	// type N or B) or by placeholder (a query's).
	Values map[string]types.AttributeValue
	// Now is the Store clock's now, in epoch seconds, for a read that
	// drops expired items (Get.TTL, Query.TTL).
	Now int64
}

// Skip, returned by a read's decoder, drops the item it was given: not
// an error, it is no part of the result (a query's item equal to a strict
// bound, which the key condition could not leave out).
var Skip = errors.New(pkgPrefix + "item skipped")

// Get is a GetItem by the whole primary key, as a pattern sends it but
// for its key values.
type Get struct {
	// Method is the Store method, which its errors name.
	Method string
	// Index is the table's primary key.
	Index *Index
	// Consistent asks for a strongly consistent read.
	Consistent bool
	// Projection is the ProjectionExpression ("" for none), and Names
	// its ExpressionAttributeNames (nil for none).
	Projection string
	Names      map[string]string
	// TTL is the time to live attribute of a read that treats expired
	// items as absent (see Expired), "" for none.
	TTL string
}

// GetClient is the GetItem of a Client.
type GetClient interface {
	GetItem(ctx context.Context, in *dynamodb.GetItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error)
}

// getFixed holds a GetItem's input and what it points to, the request's
// own: the client may change what it is given, and one block is cheaper
// than a value per pointer.
type getFixed struct {
	in                dynamodb.GetItemInput
	table, projection string
	consistent        bool
	pk, sk            types.AttributeValueMemberS
}

// GetItem reads the item of g with the key of a and decodes it; the
// method's error over ErrNotFound when there is none (or it has
// expired), or over the SDK's or the decoder's error.
func GetItem[T any](ctx context.Context, c GetClient, a *Args, g *Get, decode func(*T, map[string]types.AttributeValue) error) (*T, error) {
	item, err := getItem(ctx, c, g, a)
	if err != nil {
		return nil, err
	}
	var v T
	if err := decode(&v, item); err != nil {
		return nil, decodeFail(g.Method, err)
	}
	return &v, nil
}

// The generic reads (GetItem, QueryFirst, QueryPage, Walk) are built by
// the user's build once per item type: what does not depend on the item
// type is out of line, in functions built once. GetItem and QueryFirst
// each decode their item with the same few lines: a generic function of
// them both would be one more function to build per item type.

// decodeFail is the error of method's read of one item that its decoder
// refused with err: ErrNotFound when the decoder skipped it.
//
//go:noinline
func decodeFail(method string, err error) error {
	if err == Skip {
		err = ErrNotFound
	}
	return Fail(method, err)
}

// getItem sends g's GetItem and returns its item.
//
//go:noinline
func getItem(ctx context.Context, c GetClient, g *Get, a *Args) (map[string]types.AttributeValue, error) {
	if a.Err != nil {
		return nil, Fail(g.Method, a.Err)
	}
	f := &getFixed{table: a.Table, projection: g.Projection, consistent: g.Consistent}
	key := make(map[string]types.AttributeValue, 2)
	if v, ok := a.Values[g.Index.PK]; ok {
		key[g.Index.PK] = cloneValue(v)
	} else {
		f.pk.Value = a.PK
		key[g.Index.PK] = &f.pk
	}
	if sk := g.Index.SK; sk != "" {
		if v, ok := a.Values[sk]; ok {
			key[sk] = cloneValue(v)
		} else {
			f.sk.Value = a.SK
			key[sk] = &f.sk
		}
	}
	in := &f.in
	in.TableName, in.Key = &f.table, key
	if g.Consistent {
		in.ConsistentRead = &f.consistent
	}
	if g.Projection != "" {
		in.ProjectionExpression = &f.projection
		in.ExpressionAttributeNames = maps.Clone(g.Names)
	}
	out, err := c.GetItem(ctx, in)
	if err != nil {
		return nil, Fail(g.Method, err)
	}
	if out.Item == nil || g.TTL != "" && Expired(out.Item, g.TTL, a.Now) {
		return nil, Fail(g.Method, ErrNotFound)
	}
	return out.Item, nil
}

// Query is a Query, as a pattern sends it but for its values, and what
// its method keeps of the items it reads.
type Query struct {
	// Method is the Store method, which its errors name; Pattern, when
	// not "", is the spec's name of the pattern, which its cursors are
	// bound to (Method otherwise).
	Method, Pattern string
	// Index is the index the query reads.
	Index *Index
	// KeyCondition, Filter and Projection are its expressions ("" for
	// none), and Names their ExpressionAttributeNames (nil for none).
	KeyCondition, Filter, Projection string
	Names                            map[string]string
	// Descending reads in descending sort key order; Consistent asks
	// for strongly consistent reads.
	Descending, Consistent bool
	// Limit is the Limit of a query's first item (QueryFirst), or a
	// page's unless Page.Limit is set (QueryPage, QueryEach); 0 for
	// none.
	Limit int32
	// Op is the operator of the key condition on the index's sort key:
	// "=", "<", "<=", ">", ">=", "BETWEEN" or "begins_with"; "" when
	// the query reads the whole partition.
	Op string
	// PK, SK, Lo and Hi are the placeholders of the key condition's
	// values: the partition, the operand of Op (SK), the bounds of a
	// BETWEEN (Lo, Hi); "" for none. Lo is set only with Op "BETWEEN".
	PK, SK, Lo, Hi string
	// Equal is set for an index with a multi-attribute key: each key
	// attribute the key condition compares with equality (every one of
	// the partition key, then the leading ones of the sort key), with
	// the placeholder of its value; PK is then "". Attr is the sort key
	// attribute Op compares ("" for the index's one sort key).
	Equal []KeyValue
	Attr  string
	// Clock is the placeholder of the Store clock's now, which a query
	// that leaves expired items out sends ("" for none): a cursor is
	// bound to its name, not its value.
	Clock string
	// TypeAttr and TypeValue, when not "", keep only the items whose
	// TypeAttr holds TypeValue: the others are another entity's.
	TypeAttr, TypeValue string
	// TTL is the time to live attribute of a query that drops expired
	// items after the read, "" for none: a first item (QueryFirst) is
	// then absent when it has expired, and a page (QueryPage, QueryEach)
	// leaves them out, as a query of an index keyed by the attribute
	// can't filter on it (version 6).
	TTL string
}

// KeyValue is a key attribute and the placeholder of its value in a key
// condition.
type KeyValue struct {
	Attr, Value string
}

// QueryClient is the Query of a Client.
type QueryClient interface {
	Query(ctx context.Context, in *dynamodb.QueryInput, optFns ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error)
}

// queryFixed holds a Query's input and what it points to, the request's
// own: the client may change what it is given, and one block is cheaper
// than a value per pointer.
type queryFixed struct {
	in                                             dynamodb.QueryInput
	table, index, keyCondition, filter, projection string
	forward, consistent                            bool
	limit                                          int32
	pk, sk, skLo, skHi                             types.AttributeValueMemberS
}

// limitRef is the input's Limit: nil for none.
func (f *queryFixed) limitRef() *int32 {
	if f.limit <= 0 {
		return nil
	}
	return &f.limit
}

// input is q's request with the values of a, and limit (0: none). A
// request sent has its own copies of the values (fresh): the client may
// change what it is given.
func (q *Query) input(a *Args, limit int32, fresh bool) *dynamodb.QueryInput {
	values := make(map[string]types.AttributeValue, q.values()+len(a.Values))
	// One block, written before any call: what is written to memory just
	// allocated needs the garbage collector's write barrier the least.
	f := &queryFixed{
		table: a.Table, index: q.Index.Name, keyCondition: q.KeyCondition,
		filter: q.Filter, projection: q.Projection, consistent: q.Consistent,
		limit: limit,
		pk:    types.AttributeValueMemberS{Value: a.PK},
		sk:    types.AttributeValueMemberS{Value: a.SK},
		skLo:  types.AttributeValueMemberS{Value: a.Lo},
		skHi:  types.AttributeValueMemberS{Value: a.Hi},
	}
	in := &f.in
	in.TableName, in.KeyConditionExpression = &f.table, &f.keyCondition
	in.ExpressionAttributeValues, in.Limit = values, f.limitRef()
	if q.Index.Name != "" {
		in.IndexName = &f.index
	}
	if q.Filter != "" {
		in.FilterExpression = &f.filter
	}
	if q.Projection != "" {
		in.ProjectionExpression = &f.projection
	}
	if q.Descending {
		// Forward is false: only the pointer is set.
		in.ScanIndexForward = &f.forward
	}
	if q.Consistent {
		in.ConsistentRead = &f.consistent
	}
	if len(a.Values) > 0 {
		for ph, v := range a.Values {
			if fresh {
				v = cloneValue(v)
			}
			values[ph] = v
		}
	}
	// The string values, the request's own, where Values holds none.
	putString(values, a.Values, q.PK, &f.pk)
	putString(values, a.Values, q.SK, &f.sk)
	putString(values, a.Values, q.Lo, &f.skLo)
	putString(values, a.Values, q.Hi, &f.skHi)
	if q.Names != nil {
		in.ExpressionAttributeNames = maps.Clone(q.Names)
	}
	return in
}

// putString sets placeholder ph (none: "") of values to field, unless
// given holds ph.
func putString(values, given map[string]types.AttributeValue, ph string, field *types.AttributeValueMemberS) {
	if ph == "" {
		return
	}
	if given != nil {
		if _, ok := given[ph]; ok {
			return
		}
	}
	values[ph] = field
}

// values is how many key condition values q sends.
func (q *Query) values() int {
	n := 1 + len(q.Equal)
	if q.SK != "" {
		n++
	}
	if q.Lo != "" {
		n += 2
	}
	return n
}

// empty reports whether the key condition of in, sent with the values
// of a, can read no item: the bounds of a BETWEEN the wrong way round,
// which DynamoDB refuses.
func (q *Query) empty(a *Args, in *dynamodb.QueryInput) bool {
	if q.Lo == "" {
		// No BETWEEN.
		return false
	}
	if a.Values == nil {
		// Both strings, compared as DynamoDB compares them: by their
		// UTF-8 bytes.
		return a.Lo > a.Hi
	}
	return emptyRange(in.ExpressionAttributeValues[q.Lo], in.ExpressionAttributeValues[q.Hi])
}

// pattern is the name q's cursors are bound to.
func (q *Query) pattern() string {
	if q.Pattern != "" {
		return q.Pattern
	}
	return q.Method
}

// shape is how q binds and checks its cursors.
func (q *Query) shape() queryShape {
	s := queryShape{
		keys:    queryKeys{pattern: q.pattern(), attrs: q.Index.Start, op: q.Op},
		pkValue: q.PK,
		lo:      q.SK,
		clock:   q.Clock,
		equal:   q.Equal,
	}
	if q.PK != "" {
		s.keys.pk = q.Index.PK
	}
	if q.Op != "" {
		s.keys.sk = q.Index.SK
		if q.Attr != "" {
			s.keys.sk = q.Attr
		}
	}
	if q.Op == "BETWEEN" {
		s.lo, s.hi = q.Lo, q.Hi
	}
	return s
}

// QueryFirst reads the first item of q with the values of a and decodes
// it; the method's error over ErrNotFound when there is none (or it has
// expired, or the decoder skips it), or over the SDK's or the decoder's
// error.
func QueryFirst[T any](ctx context.Context, c QueryClient, a *Args, q *Query, decode func(*T, map[string]types.AttributeValue) error) (*T, error) {
	item, err := queryFirst(ctx, c, a, q)
	if err != nil {
		return nil, err
	}
	var v T
	if err := decode(&v, item); err != nil {
		return nil, decodeFail(q.Method, err)
	}
	return &v, nil
}

// queryFirst sends q's request and returns its first item.
//
//go:noinline
func queryFirst(ctx context.Context, c QueryClient, a *Args, q *Query) (map[string]types.AttributeValue, error) {
	if a.Err != nil {
		return nil, Fail(q.Method, a.Err)
	}
	in := q.input(a, q.Limit, true)
	if q.empty(a, in) {
		return nil, Fail(q.Method, ErrNotFound)
	}
	out, err := c.Query(ctx, in)
	if err != nil {
		return nil, Fail(q.Method, err)
	}
	if len(out.Items) == 0 || q.TTL != "" && Expired(out.Items[0], q.TTL, a.Now) {
		return nil, Fail(q.Method, ErrNotFound)
	}
	return out.Items[0], nil
}

// Result is one page of a query of one entity (or of its view): its
// items, and the cursor of the page after it. A generated package names
// it for each query: type ReviewsOfBookResult = dyngen.Result[Review].
type Result[T any] struct {
	Items []T
	// Next continues with the next page; "" after the last one.
	Next Cursor
}

// QueryPage reads one page of q with the values of a, from page's
// cursor, and decodes its items. Items that can't be decoded are left
// out of the result, which comes with the method's error over a
// DecodeError listing them; on any other error the result is nil. An
// empty page's Items are empty, not nil.
func QueryPage[T any](ctx context.Context, c QueryClient, keys *CursorKeys, page Page, a *Args, q *Query, decode func(*T, map[string]types.AttributeValue) error) (*Result[T], error) {
	items, next, err := querySend(ctx, c, keys, q, page, a)
	if err != nil {
		return nil, err
	}
	res := &Result[T]{Items: make([]T, len(items)), Next: next}
	n := 0
	var undecoded []UndecodedItem
	for i, item := range items {
		if !q.keeps(item, a.Now) {
			continue
		}
		// Decoded in place: a value of its own would escape to the heap
		// (decode is unknown here).
		if err := decode(&res.Items[n], item); err != nil {
			var zero T
			res.Items[n] = zero
			undecoded = q.undecoded(undecoded, i, err)
			continue
		}
		n++
	}
	res.Items = res.Items[:n]
	return res, undecodedErr(q.Method, undecoded)
}

// QueryEach is QueryPage for a query of several entities: each is given
// every item the query keeps, and an error of it leaves the item out of
// the page, listed in the DecodeError. It sets *next to the next page's
// cursor; ok is false on an error that leaves no page, and *next is then
// left as it was.
func QueryEach(ctx context.Context, c QueryClient, keys *CursorKeys, page Page, a *Args, q *Query, next *Cursor, each func(item map[string]types.AttributeValue) error) (ok bool, err error) {
	items, cursor, err := querySend(ctx, c, keys, q, page, a)
	if err != nil {
		return false, err
	}
	*next = cursor
	var undecoded []UndecodedItem
	for i, item := range items {
		if q.keeps(item, a.Now) {
			if err := each(item); err != nil {
				undecoded = q.undecoded(undecoded, i, err)
			}
		}
	}
	return true, undecodedErr(q.Method, undecoded)
}

// keeps reports whether q keeps an item it read: one of its entity, when
// it reads items of others (TypeAttr).
//
//go:noinline
func (q *Query) keeps(item map[string]types.AttributeValue, now int64) bool {
	return (q.TypeAttr == "" || IsType(item, q.TypeAttr, q.TypeValue)) && (q.TTL == "" || !Expired(item, q.TTL, now))
}

// undecoded is list with the item at position i, which the decoder
// refused with err, unless it skipped it (Skip): an item that can't be
// decoded is left out of the page, and listed in its DecodeError.
//
//go:noinline
func (q *Query) undecoded(list []UndecodedItem, i int, err error) []UndecodedItem {
	if err == Skip {
		return list
	}
	return append(list, undecodable(i, err, q.Index.Item...))
}

// querySend sends q's request from page's cursor: the items DynamoDB
// returned, and the next page's cursor; none where the key condition
// can read no item.
func querySend(ctx context.Context, c QueryClient, keys *CursorKeys, q *Query, page Page, a *Args) ([]map[string]types.AttributeValue, Cursor, error) {
	if a.Err != nil {
		return nil, "", Fail(q.Method, a.Err)
	}
	limit := pageLimit(page, q.Limit)
	in := q.input(a, limit, true)
	// The check of a cursor's start key, made only with a cursor.
	var scope *cursorScope
	if page.Cursor != "" {
		shape := q.shape()
		start, err := cursorStart(keys, page.Cursor, in, &shape)
		if err != nil {
			return nil, "", Fail(q.Method, err)
		}
		scope = &start
	}
	if q.empty(a, in) {
		return nil, "", nil
	}
	out, err := c.Query(ctx, in)
	if err != nil {
		return nil, "", Fail(q.Method, err)
	}
	if len(out.LastEvaluatedKey) == 0 {
		return out.Items, "", nil
	}
	if scope == nil {
		scope = &cursorScope{keys: keys, pattern: q.pattern(), clock: q.Clock}
	}
	next := cursorNext(scope, out.LastEvaluatedKey, func() *dynamodb.QueryInput { return q.input(a, limit, false) })
	return out.Items, next, nil
}

// Walk yields every item of every page that page returns, reading the
// pages one at a time from the first. A page's error is yielded after
// its items; the walk goes on with the next page when the page has one (a
// page that left out the items it could not decode, with a DecodeError),
// and stops after the last page, at an error with no next page, and when
// the caller stops.
//
//go:noinline
func Walk[T any](page func(Page) (*Result[T], error)) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var p Page
		for {
			r, err := page(p)
			var next Cursor
			if r != nil {
				for _, v := range r.Items {
					if !yield(v, nil) {
						return
					}
				}
				next = r.Next
			}
			if err != nil {
				var zero T
				if !yield(zero, err) {
					return
				}
			}
			if next == "" {
				return
			}
			p.Cursor = next
		}
	}
}

// cloneValue is a copy of av that shares nothing with it.
func cloneValue(av types.AttributeValue) types.AttributeValue {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return &types.AttributeValueMemberS{Value: v.Value}
	case *types.AttributeValueMemberN:
		return &types.AttributeValueMemberN{Value: v.Value}
	case *types.AttributeValueMemberB:
		return &types.AttributeValueMemberB{Value: slices.Clone(v.Value)}
	case *types.AttributeValueMemberBOOL:
		return &types.AttributeValueMemberBOOL{Value: v.Value}
	case *types.AttributeValueMemberNULL:
		return &types.AttributeValueMemberNULL{Value: v.Value}
	case *types.AttributeValueMemberSS:
		return &types.AttributeValueMemberSS{Value: slices.Clone(v.Value)}
	case *types.AttributeValueMemberNS:
		return &types.AttributeValueMemberNS{Value: slices.Clone(v.Value)}
	case *types.AttributeValueMemberBS:
		out := make([][]byte, len(v.Value))
		for i, b := range v.Value {
			out[i] = slices.Clone(b)
		}
		return &types.AttributeValueMemberBS{Value: out}
	case *types.AttributeValueMemberL:
		out := make([]types.AttributeValue, len(v.Value))
		for i, e := range v.Value {
			out[i] = cloneValue(e)
		}
		return &types.AttributeValueMemberL{Value: out}
	case *types.AttributeValueMemberM:
		out := make(map[string]types.AttributeValue, len(v.Value))
		for k, e := range v.Value {
			out[k] = cloneValue(e)
		}
		return &types.AttributeValueMemberM{Value: out}
	}
	return av
}

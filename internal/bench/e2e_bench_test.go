// getrusage(2), for the client's CPU time, is Unix-only, as is
// scripts/dynamodb-local.

//go:build unix

package bench

// End-to-end benchmarks: the generated Store methods against the same
// requests issued by hand with the SDK's *dynamodb.Client, both against
// DynamoDB Local. They measure the overhead of a generated method over the
// raw call it makes; see "End to end" in BENCHMARKS.md. Without
// DYNAMODB_ENDPOINT they skip:
//
//	scripts/dynamodb-local run go test ./internal/bench/ -run '^$' -bench E2E -benchtime 2000x

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"maps"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dyngen/dyngen/internal/bench/bookreviews"
	"github.com/dyngen/dyngen/internal/dynamotest"
)

// e2eSDKFirst runs each E2E benchmark's sdk sub-benchmark before its
// generated one. Alternating it between passes removes any advantage of
// running first or second (a warmer server, a fuller table, a later GC).
var e2eSDKFirst = flag.Bool("e2e.sdkfirst", false, "run the sdk sub-benchmark of each E2E benchmark before the generated one")

// --- the same four patterns, written by hand with the SDK ---------------------

// rawStore is what a user of the SDK writes by hand for GetBook,
// ReviewsOfBook, WriteReview and UpdateReview: each method sends exactly
// the request the generated method sends (TestE2ESameRequests checks it),
// with the key strings built by concatenation and nothing validated, and
// decodes the answer into the same struct with type assertions (no
// reflection). The requests are literals, as a user writes them; the
// generated code shares their fixed parts between calls instead.
//
// client is a *dynamodb.Client in the benchmarks. It is held as the
// bookreviews.Client interface, as the generated Store holds it, so that
// both variants call the SDK the same way and the test can record the
// requests.
type rawStore struct {
	client bookreviews.Client
	table  string
}

var errRawNotFound = errors.New("raw: no such item")

func (s *rawStore) GetBook(ctx context.Context, isbn string) (*bookreviews.Book, error) {
	key := "BOOK#" + isbn
	out, err := s.client.GetItem(ctx, &dynamodb.GetItemInput{
		Key: map[string]types.AttributeValue{
			"PK": &types.AttributeValueMemberS{Value: key},
			"SK": &types.AttributeValueMemberS{Value: key},
		},
		TableName: &s.table,
	})
	if err != nil {
		return nil, err
	}
	if out.Item == nil {
		return nil, errRawNotFound
	}
	var v bookreviews.Book
	if err := rawDecodeBook(out.Item, &v); err != nil {
		return nil, err
	}
	return &v, nil
}

// ReviewsOfBook returns one page and DynamoDB's LastEvaluatedKey, which the
// caller passes back as start for the next page (the generated method
// encodes it into a Cursor).
func (s *rawStore) ReviewsOfBook(ctx context.Context, isbn string, start map[string]types.AttributeValue) ([]bookreviews.Review, map[string]types.AttributeValue, error) {
	out, err := s.client.Query(ctx, &dynamodb.QueryInput{
		ExclusiveStartKey: start,
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":pk":   &types.AttributeValueMemberS{Value: "BOOK#" + isbn},
			":skhi": &types.AttributeValueMemberS{Value: skHigh},
			":sklo": &types.AttributeValueMemberS{Value: skLow},
		},
		KeyConditionExpression: aws.String("PK = :pk AND SK BETWEEN :sklo AND :skhi"),
		Limit:                  aws.Int32(15),
		ScanIndexForward:       aws.Bool(false),
		TableName:              &s.table,
	})
	if err != nil {
		return nil, nil, err
	}
	items := make([]bookreviews.Review, len(out.Items))
	for i, item := range out.Items {
		if err := unmarshalHandwritten(item, &items[i]); err != nil {
			return nil, nil, err
		}
	}
	return items, out.LastEvaluatedKey, nil
}

// WriteReview puts the review only when no item has its key, as the
// generated WriteReview does. The item is marshalHandwritten's map literal
// (the same attributes as MarshalItem: TestMarshalSameItem).
func (s *rawStore) WriteReview(ctx context.Context, r *bookreviews.Review) error {
	item, err := marshalHandwritten(r)
	if err != nil {
		return err
	}
	_, err = s.client.PutItem(ctx, &dynamodb.PutItemInput{
		ConditionExpression:                 aws.String("attribute_not_exists(PK)"),
		Item:                                item,
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
		TableName:                           &s.table,
	})
	return err
}

func (s *rawStore) UpdateReview(ctx context.Context, isbn string, reviewDate time.Time, username string, grade int64, reviewText string) (*bookreviews.Review, error) {
	out, err := s.client.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		ConditionExpression:      aws.String("attribute_exists(PK)"),
		ExpressionAttributeNames: map[string]string{"#Grade": "Grade", "#ReviewText": "ReviewText"},
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":grade":      &types.AttributeValueMemberN{Value: strconv.FormatInt(grade, 10)},
			":reviewText": &types.AttributeValueMemberS{Value: reviewText},
		},
		Key: map[string]types.AttributeValue{
			"PK": &types.AttributeValueMemberS{Value: "BOOK#" + isbn},
			"SK": &types.AttributeValueMemberS{Value: reviewDate.UTC().Format(timeLayout) + "#USER#" + username},
		},
		ReturnValues:                        types.ReturnValueAllNew,
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
		TableName:                           &s.table,
		UpdateExpression:                    aws.String("SET #Grade = :grade, #ReviewText = :reviewText"),
	})
	if err != nil {
		return nil, err
	}
	var v bookreviews.Review
	if err := unmarshalHandwritten(out.Attributes, &v); err != nil {
		return nil, err
	}
	return &v, nil
}

// rawDecodeBook decodes a Book with type assertions; PublicationYear is
// optional, as in the spec.
func rawDecodeBook(item map[string]types.AttributeValue, out *bookreviews.Book) error {
	isbn, ok1 := item["isbn"].(*types.AttributeValueMemberS)
	title, ok2 := item["Title"].(*types.AttributeValueMemberS)
	author, ok3 := item["Author"].(*types.AttributeValueMemberS)
	if !ok1 || !ok2 || !ok3 {
		return errors.New("raw: missing or mistyped attribute")
	}
	*out = bookreviews.Book{ISBN: isbn.Value, Title: title.Value, Author: author.Value}
	if av, ok := item["PublicationYear"]; ok {
		n, ok := av.(*types.AttributeValueMemberN)
		if !ok {
			return errors.New("raw: mistyped PublicationYear")
		}
		y, err := strconv.ParseInt(n.Value, 10, 64)
		if err != nil {
			return err
		}
		out.PublicationYear = &y
	}
	return nil
}

// --- fixtures -------------------------------------------------------------------

var e2eBook = bookreviews.Book{
	ISBN:            review.ISBN,
	Title:           "The Go Programming Language",
	Author:          "Alan A. A. Donovan, Brian W. Kernighan",
	PublicationYear: new(int64(2015)),
}

// e2eReviews are the 50 reviews of e2eBook the Query benchmark pages
// through (it reads the newest 15), each like the in-memory benchmarks'
// review, one hour and 1,234,567 ns apart.
func e2eReviews() []bookreviews.Review {
	rs := make([]bookreviews.Review, 50)
	for i := range rs {
		rs[i] = review
		rs[i].Username = "reader" + strconv.Itoa(i%7)
		rs[i].Grade = int64(i % 11)
		rs[i].ReviewDate = review.ReviewDate.Add(time.Duration(i) * (time.Hour + 1234567))
	}
	return rs
}

// e2eWriteISBN is the partition the PutItem benchmark writes to, away from
// the reviews the Query benchmark reads.
const e2eWriteISBN = "978-0000000002"

// e2eSeq makes every written review's date, hence its key, unique in the
// process: WriteReview refuses to replace an item.
var e2eSeq atomic.Int64

// --- tests: both variants send the same request and return the same value ------

// recorder stands in for DynamoDB: it keeps each request and answers with
// canned output.
type recorder struct {
	get    *dynamodb.GetItemInput
	query  *dynamodb.QueryInput
	put    *dynamodb.PutItemInput
	update *dynamodb.UpdateItemInput

	book    map[string]types.AttributeValue
	reviews []map[string]types.AttributeValue
	last    map[string]types.AttributeValue
}

func (c *recorder) GetItem(_ context.Context, in *dynamodb.GetItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	c.get = in
	return &dynamodb.GetItemOutput{Item: c.book}, nil
}

func (c *recorder) Query(_ context.Context, in *dynamodb.QueryInput, _ ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	c.query = in
	return &dynamodb.QueryOutput{Items: c.reviews, LastEvaluatedKey: c.last}, nil
}

func (c *recorder) PutItem(_ context.Context, in *dynamodb.PutItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	c.put = in
	return &dynamodb.PutItemOutput{}, nil
}

func (c *recorder) UpdateItem(_ context.Context, in *dynamodb.UpdateItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	c.update = in
	return &dynamodb.UpdateItemOutput{Attributes: c.reviews[0]}, nil
}

func (c *recorder) DeleteItem(context.Context, *dynamodb.DeleteItemInput, ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error) {
	return nil, errors.New("recorder: DeleteItem is not used")
}

func newRecorder(t testing.TB) *recorder {
	t.Helper()
	book, err := e2eBook.MarshalItem()
	if err != nil {
		t.Fatal(err)
	}
	c := &recorder{book: book}
	for _, r := range e2eReviews()[:15] {
		item, err := r.MarshalItem()
		if err != nil {
			t.Fatal(err)
		}
		c.reviews = append(c.reviews, item)
	}
	last := c.reviews[len(c.reviews)-1]
	c.last = map[string]types.AttributeValue{"PK": last["PK"], "SK": last["SK"]}
	return c
}

// TestE2ESameRequests checks that rawStore sends the very requests the
// generated methods send (reflect.DeepEqual on the inputs: same table, keys,
// expressions, names, values, limit, order, return values) and decodes
// their answers to equal values.
func TestE2ESameRequests(t *testing.T) {
	ctx := context.Background()
	const table = "bench-table"
	gen, raw := newRecorder(t), newRecorder(t)
	store := bookreviews.New(gen, bookreviews.WithBookReviewsTable(table))
	rs := &rawStore{client: raw, table: table}

	gb, err1 := store.GetBook(ctx, e2eBook.ISBN)
	rb, err2 := rs.GetBook(ctx, e2eBook.ISBN)
	if err := errors.Join(err1, err2); err != nil {
		t.Fatal(err)
	}
	sameRequest(t, "GetItem", gen.get, raw.get)
	sameValue(t, "GetBook", gb, rb)

	gq, err1 := store.ReviewsOfBook(ctx, e2eBook.ISBN, bookreviews.Page{})
	rq, last, err2 := rs.ReviewsOfBook(ctx, e2eBook.ISBN, nil)
	if err := errors.Join(err1, err2); err != nil {
		t.Fatal(err)
	}
	sameRequest(t, "Query", gen.query, raw.query)
	sameValue(t, "ReviewsOfBook", gq.Items, rq)
	if len(rq) != 15 || gq.Next == "" || !reflect.DeepEqual(last, raw.last) {
		t.Errorf("ReviewsOfBook: %d items, Next %q, LastEvaluatedKey %v: want 15, a cursor, the page's last key", len(rq), gq.Next, last)
	}

	r := review
	if err := errors.Join(store.WriteReview(ctx, &r), rs.WriteReview(ctx, &r)); err != nil {
		t.Fatal(err)
	}
	sameRequest(t, "PutItem", gen.put, raw.put)

	gu, err1 := store.UpdateReview(ctx, bookreviews.UpdateReviewParams{ISBN: r.ISBN, ReviewDate: r.ReviewDate, Username: r.Username, Grade: 7, ReviewText: "Updated."})
	ru, err2 := rs.UpdateReview(ctx, r.ISBN, r.ReviewDate, r.Username, 7, "Updated.")
	if err := errors.Join(err1, err2); err != nil {
		t.Fatal(err)
	}
	sameRequest(t, "UpdateItem", gen.update, raw.update)
	sameValue(t, "UpdateReview", gu, ru)
}

func sameRequest(t *testing.T, op string, gen, raw any) {
	t.Helper()
	if reflect.ValueOf(gen).IsNil() || reflect.ValueOf(raw).IsNil() {
		t.Fatalf("%s: a variant sent no request", op)
	}
	if !reflect.DeepEqual(gen, raw) {
		t.Errorf("%s requests differ:\ngenerated: %+v\nsdk:       %+v", op, reflect.ValueOf(gen).Elem(), reflect.ValueOf(raw).Elem())
	}
}

func sameValue(t testing.TB, op string, gen, raw any) {
	t.Helper()
	if !reflect.DeepEqual(gen, raw) {
		t.Errorf("%s results differ:\ngenerated: %+v\nsdk:       %+v", op, gen, raw)
	}
}

// --- benchmarks -------------------------------------------------------------------

// e2eEnv is one table in DynamoDB Local, with both stores on it and the
// same *dynamodb.Client (so the same connection pool) under both.
type e2eEnv struct {
	store *bookreviews.Store
	raw   *rawStore
}

// newE2E creates a fresh table (deleted when b ends) from the spec's
// definition. It skips b when DYNAMODB_ENDPOINT is unset.
func newE2E(b *testing.B) *e2eEnv {
	b.Helper()
	if os.Getenv(dynamotest.EndpointEnv) == "" {
		b.Skip(dynamotest.EndpointEnv + " is not set; run: scripts/dynamodb-local run go test ./internal/bench/ -run '^$' -bench E2E")
	}
	c := dynamotest.Client(b)
	name := dynamotest.TableName("BookReviews")
	store := bookreviews.New(c, bookreviews.WithBookReviewsTable(name))
	tables := store.Tables()
	if len(tables) != 1 {
		b.Fatalf("Tables() = %d tables, want BookReviews only", len(tables))
	}
	dynamotest.MakeTable(b, c, tables[0].Create, tables[0].TimeToLive)
	return &e2eEnv{
		store: store,
		raw:   &rawStore{client: c, table: name},
	}
}

// e2eWarmUp calls each variant n times, alternately, before any timing:
// the HTTP connection is open and DynamoDB Local's JIT has compiled the
// request's path when the timed loops start.
func e2eWarmUp(b *testing.B, n int, gen, raw func() error) {
	b.Helper()
	for range n {
		if err := errors.Join(gen(), raw()); err != nil {
			b.Fatal(err)
		}
	}
}

// e2eRun times the two variants as sub-benchmarks "generated" and "sdk", in
// the order -e2e.sdkfirst says. Each reports allocs/op and cpu-ns/op, the
// benchmark process's CPU time per call: the client's work (the method, the
// SDK, HTTP, the GC), not the server's.
func e2eRun(b *testing.B, gen, raw func() error) {
	variants := []struct {
		name string
		fn   func() error
	}{{"generated", gen}, {"sdk", raw}}
	if *e2eSDKFirst {
		variants[0], variants[1] = variants[1], variants[0]
	}
	for _, v := range variants {
		b.Run(v.name, func(b *testing.B) {
			var err error
			cpu := startRusage(b)
			for b.Loop() {
				if err = v.fn(); err != nil {
					break
				}
			}
			cpu.stop()
			if err != nil {
				b.Fatal(err)
			}
		})
	}
}

// BenchmarkE2EGetItem: GetBook against a GetItem of the same key.
func BenchmarkE2EGetItem(b *testing.B) {
	e := newE2E(b)
	ctx := context.Background()
	if err := e.store.AddBook(ctx, &e2eBook); err != nil {
		b.Fatal(err)
	}
	gen := func() error { _, err := e.store.GetBook(ctx, e2eBook.ISBN); return err }
	raw := func() error { _, err := e.raw.GetBook(ctx, e2eBook.ISBN); return err }

	g, err1 := e.store.GetBook(ctx, e2eBook.ISBN)
	r, err2 := e.raw.GetBook(ctx, e2eBook.ISBN)
	if err := errors.Join(err1, err2); err != nil {
		b.Fatal(err)
	}
	sameValue(b, "GetBook", g, r)
	sameValue(b, "GetBook", *g, e2eBook)

	e2eWarmUp(b, 200, gen, raw)
	e2eRun(b, gen, raw)
}

// BenchmarkE2EQuery: the first page of ReviewsOfBook (15 reviews, newest
// first, out of the 50 of the book, whose item shares the partition)
// against the same Query. The generated method also turns the
// LastEvaluatedKey into a Cursor.
func BenchmarkE2EQuery(b *testing.B) {
	e := newE2E(b)
	ctx := context.Background()
	if err := e.store.AddBook(ctx, &e2eBook); err != nil {
		b.Fatal(err)
	}
	for _, r := range e2eReviews() {
		if err := e.store.WriteReview(ctx, &r); err != nil {
			b.Fatal(err)
		}
	}
	gen := func() error {
		_, err := e.store.ReviewsOfBook(ctx, e2eBook.ISBN, bookreviews.Page{})
		return err
	}
	raw := func() error { _, _, err := e.raw.ReviewsOfBook(ctx, e2eBook.ISBN, nil); return err }

	g, err1 := e.store.ReviewsOfBook(ctx, e2eBook.ISBN, bookreviews.Page{})
	r, last, err2 := e.raw.ReviewsOfBook(ctx, e2eBook.ISBN, nil)
	if err := errors.Join(err1, err2); err != nil {
		b.Fatal(err)
	}
	sameValue(b, "ReviewsOfBook", g.Items, r)
	if len(r) != 15 || g.Next == "" || last == nil {
		b.Fatalf("ReviewsOfBook: %d items, Next %q, LastEvaluatedKey %v: want 15 and a next page", len(r), g.Next, last)
	}

	e2eWarmUp(b, 200, gen, raw)
	e2eRun(b, gen, raw)
}

// BenchmarkE2EPutItem: WriteReview against the same conditional PutItem.
// Every call writes a new review (its date, in its sort key, is unique), so
// the condition always holds; both variants write the same number of items
// to the same partition.
func BenchmarkE2EPutItem(b *testing.B) {
	e := newE2E(b)
	ctx := context.Background()
	base := review
	base.ISBN = e2eWriteISBN
	next := func() *bookreviews.Review {
		r := base
		r.ReviewDate = base.ReviewDate.Add(time.Duration(e2eSeq.Add(1)))
		return &r
	}
	gen := func() error { return e.store.WriteReview(ctx, next()) }
	raw := func() error { return e.raw.WriteReview(ctx, next()) }

	// The same review twice: the second write, by either variant, must be
	// refused as the first one's condition would refuse it.
	r := next()
	if err := e.raw.WriteReview(ctx, r); err != nil {
		b.Fatal(err)
	}
	if err := e.store.WriteReview(ctx, r); !errors.Is(err, bookreviews.ErrAlreadyExists) {
		b.Fatalf("generated WriteReview of an existing review: %v, want ErrAlreadyExists", err)
	}
	got, err := e.store.ReviewsOfBook(ctx, e2eWriteISBN, bookreviews.Page{})
	if err != nil {
		b.Fatal(err)
	}
	sameValue(b, "WriteReview", got.Items, []bookreviews.Review{*r})

	e2eWarmUp(b, 200, gen, raw)
	e2eRun(b, gen, raw)
}

// BenchmarkE2EUpdateItem: UpdateReview against the same conditional
// UpdateItem returning ALL_NEW, on one review, the grade changing each
// call.
func BenchmarkE2EUpdateItem(b *testing.B) {
	e := newE2E(b)
	ctx := context.Background()
	r := review
	if err := e.store.WriteReview(ctx, &r); err != nil {
		b.Fatal(err)
	}
	const text = "Updated: still clear and precise, and the exercises are worth doing."
	var grade atomic.Int64
	gen := func() error {
		_, err := e.store.UpdateReview(ctx, bookreviews.UpdateReviewParams{ISBN: r.ISBN, ReviewDate: r.ReviewDate, Username: r.Username, Grade: grade.Add(1) % 11, ReviewText: text})
		return err
	}
	raw := func() error {
		_, err := e.raw.UpdateReview(ctx, r.ISBN, r.ReviewDate, r.Username, grade.Add(1)%11, text)
		return err
	}

	g, err1 := e.store.UpdateReview(ctx, bookreviews.UpdateReviewParams{ISBN: r.ISBN, ReviewDate: r.ReviewDate, Username: r.Username, Grade: 3, ReviewText: text})
	s, err2 := e.raw.UpdateReview(ctx, r.ISBN, r.ReviewDate, r.Username, 3, text)
	if err := errors.Join(err1, err2); err != nil {
		b.Fatal(err)
	}
	want := r
	want.Grade, want.ReviewText = 3, text
	sameValue(b, "UpdateReview", g, s)
	sameValue(b, "UpdateReview", *g, want)

	e2eWarmUp(b, 200, gen, raw)
	e2eRun(b, gen, raw)
}

// BenchmarkE2ECanned runs the same calls as the E2E benchmarks against the
// recorder instead of DynamoDB Local: no HTTP, no SDK pipeline, the
// answers canned (the Query's page holds 15 reviews and a
// LastEvaluatedKey). What is left is what each variant does around the
// call, so generated minus sdk here is the generated method's overhead in
// nanoseconds, measured without the network's noise. It needs no server.
func BenchmarkE2ECanned(b *testing.B) {
	ctx := context.Background()
	c := newRecorder(b)
	store := bookreviews.New(c, bookreviews.WithBookReviewsTable("bench-table"))
	rs := &rawStore{client: c, table: "bench-table"}
	r := review
	const text = "Updated: still clear and precise, and the exercises are worth doing."
	ops := []struct {
		name     string
		gen, raw func() error
	}{
		{"GetItem",
			func() error { _, err := store.GetBook(ctx, e2eBook.ISBN); return err },
			func() error { _, err := rs.GetBook(ctx, e2eBook.ISBN); return err }},
		{"Query",
			func() error { _, err := store.ReviewsOfBook(ctx, e2eBook.ISBN, bookreviews.Page{}); return err },
			func() error { _, _, err := rs.ReviewsOfBook(ctx, e2eBook.ISBN, nil); return err }},
		{"PutItem",
			func() error { return store.WriteReview(ctx, &r) },
			func() error { return rs.WriteReview(ctx, &r) }},
		{"UpdateItem",
			func() error {
				_, err := store.UpdateReview(ctx, bookreviews.UpdateReviewParams{ISBN: r.ISBN, ReviewDate: r.ReviewDate, Username: r.Username, Grade: 7, ReviewText: text})
				return err
			},
			func() error { _, err := rs.UpdateReview(ctx, r.ISBN, r.ReviewDate, r.Username, 7, text); return err }},
	}
	for _, op := range ops {
		b.Run(op.name, func(b *testing.B) { e2eRun(b, op.gen, op.raw) })
	}
}

// rusageClock is cpuClock with getrusage(2) rather than /proc/self/stat:
// microsecond resolution instead of 10 ms ticks, which matters here, where
// the client's CPU time is a small part of a loop's wall time.
type rusageClock struct {
	b     *testing.B
	start time.Duration
}

func startRusage(b *testing.B) rusageClock {
	b.ReportAllocs()
	return rusageClock{b, rusageCPU()}
}

func (c rusageClock) stop() {
	end := rusageCPU()
	if c.start >= 0 && end >= 0 && c.b.N > 0 {
		c.b.ReportMetric(float64(end-c.start)/float64(c.b.N), "cpu-ns/op")
	}
}

// rusageCPU returns the process's user + system time, or -1.
func rusageCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return -1
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkPutAsUpdate measures the alternative to a put that docs/spec.md
// (Backfills: a put of old code) weighs: the item written by PutItem, as
// generated code writes it, against an UpdateItem that sets each of its
// attributes but the key (and would remove the absent ones), which keeps
// the attributes the writer does not know. Both overwrite one review;
// wcu/op is the write capacity DynamoDB Local reports per call.
func BenchmarkPutAsUpdate(b *testing.B) {
	e := newE2E(b)
	ctx := context.Background()
	r := review
	r.ISBN = e2eWriteISBN
	item, err := r.MarshalItem()
	if err != nil {
		b.Fatal(err)
	}
	key := map[string]types.AttributeValue{"PK": item["PK"], "SK": item["SK"]}
	var sets []string
	names := map[string]string{}
	values := map[string]types.AttributeValue{}
	for i, name := range slices.Sorted(maps.Keys(item)) {
		if name == "PK" || name == "SK" {
			continue
		}
		sets = append(sets, fmt.Sprintf("#a%d = :a%d", i, i))
		names[fmt.Sprintf("#a%d", i)] = name
		values[fmt.Sprintf(":a%d", i)] = item[name]
	}
	put := &dynamodb.PutItemInput{TableName: &e.raw.table, Item: item, ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal}
	update := &dynamodb.UpdateItemInput{TableName: &e.raw.table, Key: key, UpdateExpression: aws.String("SET " + strings.Join(sets, ", ")),
		ExpressionAttributeNames: names, ExpressionAttributeValues: values, ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal}
	var wcu float64
	calls := 0
	count := func(cc *types.ConsumedCapacity) {
		if cc != nil && cc.CapacityUnits != nil {
			wcu += *cc.CapacityUnits
		}
		calls++
	}
	variants := []struct {
		name string
		fn   func() error
	}{
		{"put", func() error {
			out, err := e.raw.client.PutItem(ctx, put)
			if err == nil {
				count(out.ConsumedCapacity)
			}
			return err
		}},
		{"update", func() error {
			out, err := e.raw.client.UpdateItem(ctx, update)
			if err == nil {
				count(out.ConsumedCapacity)
			}
			return err
		}},
	}
	e2eWarmUp(b, 200, variants[0].fn, variants[1].fn)
	for _, v := range variants {
		b.Run(v.name, func(b *testing.B) {
			wcu, calls = 0, 0
			for b.Loop() {
				if err := v.fn(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(wcu/float64(calls), "wcu/op")
		})
	}
}

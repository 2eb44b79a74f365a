package bench

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/guregu/dynamo/v2"

	"github.com/dyngen/dyngen/internal/bench/bookreviews"
)

// The item every benchmark works on. The review date has nine significant
// fraction digits and is in UTC, so the libraries' default time encoding
// (RFC 3339 with trailing zeros trimmed) writes exactly the bytes dyngen
// writes (nine fixed fraction digits): the alternatives keep their default,
// fastest, time path and still store the same attribute.
var review = bookreviews.Review{
	ISBN:       "978-0134190440",
	Username:   "gopher",
	Grade:      9,
	ReviewText: "Clear, precise and full of idiomatic examples; the chapter on concurrency alone is worth the price.",
	ReviewDate: time.Date(2024, time.March, 14, 15, 9, 26, 535897932, time.UTC),
}

// timeLayout is dyngen's time layout: UTC, nine fraction digits, so that the
// text order of a key is the time order. A user of the other libraries
// builds the key strings with the same layout.
const timeLayout = "2006-01-02T15:04:05.000000000Z"

// --- the equivalent structs -------------------------------------------------

// avReview is the Review as a user of attributevalue writes it: the key
// attributes and the entity type are fields the caller fills.
type avReview struct {
	PK         string    `dynamodbav:"PK"`
	SK         string    `dynamodbav:"SK"`
	GSI1PK     string    `dynamodbav:"GSI1PK"`
	GSI1SK     string    `dynamodbav:"GSI1SK"`
	Type       string    `dynamodbav:"_type"`
	ISBN       string    `dynamodbav:"isbn"`
	Username   string    `dynamodbav:"username"`
	Grade      int64     `dynamodbav:"Grade"`
	ReviewText string    `dynamodbav:"ReviewText"`
	ReviewDate time.Time `dynamodbav:"ReviewDate"`
}

// guReview is the same for guregu/dynamo.
type guReview struct {
	PK         string    `dynamo:"PK"`
	SK         string    `dynamo:"SK"`
	GSI1PK     string    `dynamo:"GSI1PK"`
	GSI1SK     string    `dynamo:"GSI1SK"`
	Type       string    `dynamo:"_type"`
	ISBN       string    `dynamo:"isbn"`
	Username   string    `dynamo:"username"`
	Grade      int64     `dynamo:"Grade"`
	ReviewText string    `dynamo:"ReviewText"`
	ReviewDate time.Time `dynamo:"ReviewDate"`
}

// avAttrs and guAttrs hold only the Review's own attributes: what a program
// that reads reviews but never writes them back would decode into. The
// libraries then skip the key attributes and _type, as the generated
// UnmarshalItem does.
type avAttrs struct {
	ISBN       string    `dynamodbav:"isbn"`
	Username   string    `dynamodbav:"username"`
	Grade      int64     `dynamodbav:"Grade"`
	ReviewText string    `dynamodbav:"ReviewText"`
	ReviewDate time.Time `dynamodbav:"ReviewDate"`
}

type guAttrs struct {
	ISBN       string    `dynamo:"isbn"`
	Username   string    `dynamo:"username"`
	Grade      int64     `dynamo:"Grade"`
	ReviewText string    `dynamo:"ReviewText"`
	ReviewDate time.Time `dynamo:"ReviewDate"`
}

// reviewKeys builds the four key strings the way a user of a reflection
// library does: the time formatted once with the key layout, then string
// concatenation (cheaper than fmt.Sprintf, so it favours the alternatives).
// Unlike dyngen it checks nothing (no empty value, separator or size check).
func reviewKeys(r *bookreviews.Review) (pk, sk, gsi1pk, gsi1sk string) {
	date := r.ReviewDate.UTC().Format(timeLayout)
	return "BOOK#" + r.ISBN, date + "#USER#" + r.Username, "USER#" + r.Username, date + "#BOOK#" + r.ISBN
}

func toAV(r *bookreviews.Review) avReview {
	pk, sk, gpk, gsk := reviewKeys(r)
	return avReview{
		PK: pk, SK: sk, GSI1PK: gpk, GSI1SK: gsk, Type: "Review",
		ISBN: r.ISBN, Username: r.Username, Grade: r.Grade, ReviewText: r.ReviewText, ReviewDate: r.ReviewDate,
	}
}

func toGU(r *bookreviews.Review) guReview {
	pk, sk, gpk, gsk := reviewKeys(r)
	return guReview{
		PK: pk, SK: sk, GSI1PK: gpk, GSI1SK: gsk, Type: "Review",
		ISBN: r.ISBN, Username: r.Username, Grade: r.Grade, ReviewText: r.ReviewText, ReviewDate: r.ReviewDate,
	}
}

// --- the four marshalers ------------------------------------------------------

func marshalGenerated(r *bookreviews.Review) (map[string]types.AttributeValue, error) {
	return r.MarshalItem()
}

func marshalAttributeValue(r *bookreviews.Review) (map[string]types.AttributeValue, error) {
	v := toAV(r)
	return attributevalue.MarshalMap(&v)
}

func marshalGuregu(r *bookreviews.Review) (map[string]types.AttributeValue, error) {
	v := toGU(r)
	return dynamo.MarshalItem(&v)
}

// marshalHandwritten is the floor: a map literal, no validation.
func marshalHandwritten(r *bookreviews.Review) (map[string]types.AttributeValue, error) {
	date := r.ReviewDate.UTC().Format(timeLayout)
	return map[string]types.AttributeValue{
		"PK":         &types.AttributeValueMemberS{Value: "BOOK#" + r.ISBN},
		"SK":         &types.AttributeValueMemberS{Value: date + "#USER#" + r.Username},
		"GSI1PK":     &types.AttributeValueMemberS{Value: "USER#" + r.Username},
		"GSI1SK":     &types.AttributeValueMemberS{Value: date + "#BOOK#" + r.ISBN},
		"_type":      &types.AttributeValueMemberS{Value: "Review"},
		"isbn":       &types.AttributeValueMemberS{Value: r.ISBN},
		"username":   &types.AttributeValueMemberS{Value: r.Username},
		"Grade":      &types.AttributeValueMemberN{Value: strconv.FormatInt(r.Grade, 10)},
		"ReviewText": &types.AttributeValueMemberS{Value: r.ReviewText},
		"ReviewDate": &types.AttributeValueMemberS{Value: date},
	}, nil
}

var marshalers = []struct {
	name string
	fn   func(*bookreviews.Review) (map[string]types.AttributeValue, error)
}{
	{"generated", marshalGenerated},
	{"attributevalue", marshalAttributeValue},
	{"guregu", marshalGuregu},
	{"handwritten", marshalHandwritten},
}

// --- the four unmarshalers ----------------------------------------------------

// Each decodes into its own type, as its user would, and the tests convert
// the result to a Review to compare. The alternatives decode either into the
// struct they marshal from (attributevalue, guregu: they also decode the key
// attributes and _type, as a program with one struct per entity does) or
// into a struct of the attributes only (attributevalue-attrs, guregu-attrs:
// the same work as the generated code, the fairest comparison).

func unmarshalGenerated(item map[string]types.AttributeValue, out *bookreviews.Review) error {
	return out.UnmarshalItem(item)
}

func unmarshalAttributeValue(item map[string]types.AttributeValue, out *avReview) error {
	return attributevalue.UnmarshalMap(item, out)
}

func unmarshalGuregu(item map[string]types.AttributeValue, out *guReview) error {
	return dynamo.UnmarshalItem(item, out)
}

// unmarshalHandwritten is the floor: type assertions and the parsers, with
// the type checks a correct program needs but without error detail.
func unmarshalHandwritten(item map[string]types.AttributeValue, out *bookreviews.Review) error {
	isbn, ok1 := item["isbn"].(*types.AttributeValueMemberS)
	user, ok2 := item["username"].(*types.AttributeValueMemberS)
	grade, ok3 := item["Grade"].(*types.AttributeValueMemberN)
	text, ok4 := item["ReviewText"].(*types.AttributeValueMemberS)
	date, ok5 := item["ReviewDate"].(*types.AttributeValueMemberS)
	if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 {
		return errors.New("handwritten: missing or mistyped attribute")
	}
	g, err := strconv.ParseInt(grade.Value, 10, 64)
	if err != nil {
		return err
	}
	t, err := time.Parse(time.RFC3339Nano, date.Value)
	if err != nil {
		return err
	}
	*out = bookreviews.Review{ISBN: isbn.Value, Username: user.Value, Grade: g, ReviewText: text.Value, ReviewDate: t}
	return nil
}

// --- query input building -----------------------------------------------------

// fakeClient stands in for DynamoDB: Query keeps its input and returns an
// empty page. The other calls are not used.
type fakeClient struct {
	bookreviews.Client
	in *dynamodb.QueryInput
}

func (c *fakeClient) Query(_ context.Context, in *dynamodb.QueryInput, _ ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	c.in = in
	return &emptyOutput, nil
}

var emptyOutput dynamodb.QueryOutput

// The sort key bounds of ReviewsOfBook: every review date, so that the
// book (SK "BOOK#...") stays out. See patterns.go.
const (
	skLow  = "0000-01-01T00:00:00.000000000Z"
	skHigh = "9999-12-31T23:59:59.999999999Z\U0010FFFF"
)

// builderReviewsOfBook is ReviewsOfBook written with the SDK's expression
// builder and attributevalue, as a user of the SDK writes it: the same
// key string, the same QueryInput, the same call, the same (empty) decoding.
// The key string is not checked (dyngen refuses an empty ISBN or one holding
// "#").
func builderReviewsOfBook(ctx context.Context, client bookreviews.Client, table, isbn string) ([]avReview, error) {
	keyCond := expression.Key("PK").Equal(expression.Value("BOOK#" + isbn)).
		And(expression.Key("SK").Between(expression.Value(skLow), expression.Value(skHigh)))
	expr, err := expression.NewBuilder().WithKeyCondition(keyCond).Build()
	if err != nil {
		return nil, err
	}
	out, err := client.Query(ctx, &dynamodb.QueryInput{
		TableName:                 aws.String(table),
		KeyConditionExpression:    expr.KeyCondition(),
		ExpressionAttributeNames:  expr.Names(),
		ExpressionAttributeValues: expr.Values(),
		ScanIndexForward:          aws.Bool(false),
		Limit:                     aws.Int32(15),
	})
	if err != nil {
		return nil, err
	}
	// Item by item like the generated code (UnmarshalListOfMaps would add
	// reflection work even for an empty page).
	items := make([]avReview, len(out.Items))
	for i, item := range out.Items {
		if err := attributevalue.UnmarshalMap(item, &items[i]); err != nil {
			return nil, err
		}
	}
	return items, nil
}

// handwrittenReviewsOfBook is the floor: a QueryInput literal.
func handwrittenReviewsOfBook(ctx context.Context, client bookreviews.Client, table, isbn string) ([]bookreviews.Review, error) {
	out, err := client.Query(ctx, &dynamodb.QueryInput{
		TableName:              aws.String(table),
		KeyConditionExpression: aws.String("PK = :pk AND SK BETWEEN :sklo AND :skhi"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":pk":   &types.AttributeValueMemberS{Value: "BOOK#" + isbn},
			":sklo": &types.AttributeValueMemberS{Value: skLow},
			":skhi": &types.AttributeValueMemberS{Value: skHigh},
		},
		ScanIndexForward: aws.Bool(false),
		Limit:            aws.Int32(15),
	})
	if err != nil {
		return nil, err
	}
	items := make([]bookreviews.Review, len(out.Items))
	for i, item := range out.Items {
		if err := unmarshalHandwritten(item, &items[i]); err != nil {
			return nil, err
		}
	}
	return items, nil
}

// --- tests: the compared code does the same thing -------------------------------

func TestMarshalSameItem(t *testing.T) {
	want, err := marshalGenerated(&review)
	if err != nil {
		t.Fatal(err)
	}
	if len(want) != 10 {
		t.Fatalf("generated item has %d attributes, want 10: %v", len(want), describeItem(want))
	}
	for _, m := range marshalers[1:] {
		got, err := m.fn(&review)
		if err != nil {
			t.Fatalf("%s: %v", m.name, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s marshals\n%s\nthe generated code\n%s", m.name, describeItem(got), describeItem(want))
		}
	}
}

func TestUnmarshalSameValue(t *testing.T) {
	item, err := review.MarshalItem()
	if err != nil {
		t.Fatal(err)
	}
	pk, sk, gpk, gsk := reviewKeys(&review)

	var gen bookreviews.Review
	if err := unmarshalGenerated(item, &gen); err != nil {
		t.Fatal(err)
	}
	var hand bookreviews.Review
	if err := unmarshalHandwritten(item, &hand); err != nil {
		t.Fatal(err)
	}
	var av avReview
	if err := unmarshalAttributeValue(item, &av); err != nil {
		t.Fatal(err)
	}
	var gu guReview
	if err := unmarshalGuregu(item, &gu); err != nil {
		t.Fatal(err)
	}
	var ava avAttrs
	if err := attributevalue.UnmarshalMap(item, &ava); err != nil {
		t.Fatal(err)
	}
	var gua guAttrs
	if err := dynamo.UnmarshalItem(item, &gua); err != nil {
		t.Fatal(err)
	}
	if want := toAV(&review); av != want {
		t.Errorf("attributevalue decodes %+v, want %+v", av, want)
	}
	if want := toGU(&review); gu != want {
		t.Errorf("guregu decodes %+v, want %+v", gu, want)
	}
	if av.PK != pk || av.SK != sk || av.GSI1PK != gpk || av.GSI1SK != gsk {
		t.Errorf("attributevalue keys %q %q %q %q", av.PK, av.SK, av.GSI1PK, av.GSI1SK)
	}
	decoded := map[string]bookreviews.Review{
		"generated":            gen,
		"handwritten":          hand,
		"attributevalue":       {ISBN: av.ISBN, Username: av.Username, Grade: av.Grade, ReviewText: av.ReviewText, ReviewDate: av.ReviewDate},
		"guregu":               {ISBN: gu.ISBN, Username: gu.Username, Grade: gu.Grade, ReviewText: gu.ReviewText, ReviewDate: gu.ReviewDate},
		"attributevalue-attrs": bookreviews.Review(ava),
		"guregu-attrs":         bookreviews.Review(gua),
	}
	for name, got := range decoded {
		// == on time.Time also compares the location: all must be UTC.
		if got != review {
			t.Errorf("%s decodes %+v, want %+v", name, got, review)
		}
	}
}

func TestQueryInputSameSemantics(t *testing.T) {
	ctx := context.Background()
	gen := &fakeClient{}
	if _, err := bookreviews.New(gen).ReviewsOfBook(ctx, review.ISBN, bookreviews.Page{}); err != nil {
		t.Fatal(err)
	}
	bld := &fakeClient{}
	if _, err := builderReviewsOfBook(ctx, bld, "BookReviews", review.ISBN); err != nil {
		t.Fatal(err)
	}
	hand := &fakeClient{}
	if _, err := handwrittenReviewsOfBook(ctx, hand, "BookReviews", review.ISBN); err != nil {
		t.Fatal(err)
	}
	want := describeQuery(t, gen.in)
	const wantCond = "PK = S:BOOK#978-0134190440 AND SK BETWEEN S:" + skLow + " AND S:" + skHigh
	if !strings.Contains(want, "KeyCondition: "+wantCond+"\n") {
		t.Fatalf("generated query\n%s\ndoes not hold the condition %s", want, wantCond)
	}
	for name, c := range map[string]*fakeClient{"builder": bld, "handwritten": hand} {
		if got := describeQuery(t, c.in); got != want {
			t.Errorf("%s builds the query\n%s\nthe generated code\n%s", name, got, want)
		}
	}
}

// describeItem writes an item in attribute name order.
func describeItem(item map[string]types.AttributeValue) string {
	var b strings.Builder
	for _, name := range slices.Sorted(maps.Keys(item)) {
		fmt.Fprintf(&b, "  %s = %s\n", name, describeValue(item[name]))
	}
	return b.String()
}

func describeValue(av types.AttributeValue) string {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return "S:" + v.Value
	case *types.AttributeValueMemberN:
		return "N:" + v.Value
	}
	return fmt.Sprintf("%T:%v", av, av)
}

// describeQuery writes what a QueryInput asks, independent of the
// placeholder names: in the key condition, each #name is replaced by the
// attribute it stands for and each :value by its value; the grouping
// parentheses the builder adds are dropped (the conditions are only ANDed).
// It fails the test when a placeholder is unbound or a binding unused.
func describeQuery(t *testing.T, in *dynamodb.QueryInput) string {
	t.Helper()
	if in == nil {
		t.Fatal("no Query call")
	}
	cond := strings.NewReplacer("(", " ", ")", " ").Replace(aws.ToString(in.KeyConditionExpression))
	usedNames, usedValues := map[string]bool{}, map[string]bool{}
	var words []string
	for _, w := range strings.Fields(cond) {
		switch {
		case strings.HasPrefix(w, "#"):
			name, ok := in.ExpressionAttributeNames[w]
			if !ok {
				t.Fatalf("unbound name %s in %q", w, cond)
			}
			usedNames[w] = true
			w = name
		case strings.HasPrefix(w, ":"):
			v, ok := in.ExpressionAttributeValues[w]
			if !ok {
				t.Fatalf("unbound value %s in %q", w, cond)
			}
			usedValues[w] = true
			w = describeValue(v)
		default:
			w = strings.ToUpper(w)
		}
		words = append(words, w)
	}
	if len(usedNames) != len(in.ExpressionAttributeNames) || len(usedValues) != len(in.ExpressionAttributeValues) {
		t.Fatalf("unused placeholders: names %v values %v, condition %q", in.ExpressionAttributeNames, in.ExpressionAttributeValues, cond)
	}
	var limit string
	if in.Limit != nil {
		limit = strconv.Itoa(int(*in.Limit))
	}
	return fmt.Sprintf("Table: %s\nIndex: %s\nKeyCondition: %s\nScanIndexForward: %v\nLimit: %s\nExclusiveStartKey: %v\nFilter: %s\nProjection: %s\nSelect: %s\nConsistentRead: %v\n",
		aws.ToString(in.TableName), aws.ToString(in.IndexName), strings.Join(words, " "),
		aws.ToBool(in.ScanIndexForward), limit, in.ExclusiveStartKey,
		aws.ToString(in.FilterExpression), aws.ToString(in.ProjectionExpression), in.Select, aws.ToBool(in.ConsistentRead))
}

// --- benchmarks -----------------------------------------------------------------

// cpuClock measures the process's CPU time (user + system, all threads, so
// the garbage collector's background work too) over a benchmark loop and
// reports it per iteration as cpu-ns/op. On a machine other processes load,
// ns/op (wall time) counts the time the benchmark waits for a core; CPU
// time does not. It reads /proc/self/stat (Linux, 10 ms ticks: the loops
// run about a second, so the error is about 1%); elsewhere it reports
// nothing.
type cpuClock struct {
	b     *testing.B
	start time.Duration
}

func startCPU(b *testing.B) cpuClock {
	b.ReportAllocs()
	return cpuClock{b, processCPU()}
}

func (c cpuClock) stop() {
	end := processCPU()
	if c.start >= 0 && end >= 0 && c.b.N > 0 {
		c.b.ReportMetric(float64(end-c.start)/float64(c.b.N), "cpu-ns/op")
	}
}

// processCPU returns utime+stime of /proc/self/stat, or -1.
func processCPU() time.Duration {
	data, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return -1
	}
	// The fields after the command name, which ends at the last ')':
	// state is field 3, utime 14 and stime 15 (proc(5)).
	i := strings.LastIndexByte(string(data), ')')
	if i < 0 {
		return -1
	}
	f := strings.Fields(string(data[i+1:]))
	if len(f) < 13 {
		return -1
	}
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return -1
	}
	const tick = 10 * time.Millisecond // USER_HZ, 100 on Linux
	return time.Duration(utime+stime) * tick
}

var (
	sinkItem  map[string]types.AttributeValue
	sinkError error
)

func BenchmarkMarshal(b *testing.B) {
	for _, m := range marshalers {
		b.Run(m.name, func(b *testing.B) {
			r := review
			cpu := startCPU(b)
			for b.Loop() {
				sinkItem, sinkError = m.fn(&r)
			}
			cpu.stop()
			if sinkError != nil {
				b.Fatal(sinkError)
			}
		})
	}
}

func BenchmarkUnmarshal(b *testing.B) {
	item, err := review.MarshalItem()
	if err != nil {
		b.Fatal(err)
	}
	b.Run("generated", func(b *testing.B) {
		cpu := startCPU(b)
		for b.Loop() {
			var r bookreviews.Review
			err = unmarshalGenerated(item, &r)
		}
		cpu.stop()
	})
	b.Run("attributevalue", func(b *testing.B) {
		cpu := startCPU(b)
		for b.Loop() {
			var r avReview
			err = unmarshalAttributeValue(item, &r)
		}
		cpu.stop()
	})
	b.Run("guregu", func(b *testing.B) {
		cpu := startCPU(b)
		for b.Loop() {
			var r guReview
			err = unmarshalGuregu(item, &r)
		}
		cpu.stop()
	})
	b.Run("attributevalue-attrs", func(b *testing.B) {
		cpu := startCPU(b)
		for b.Loop() {
			var r avAttrs
			err = attributevalue.UnmarshalMap(item, &r)
		}
		cpu.stop()
	})
	b.Run("guregu-attrs", func(b *testing.B) {
		cpu := startCPU(b)
		for b.Loop() {
			var r guAttrs
			err = dynamo.UnmarshalItem(item, &r)
		}
		cpu.stop()
	})
	b.Run("handwritten", func(b *testing.B) {
		cpu := startCPU(b)
		for b.Loop() {
			var r bookreviews.Review
			err = unmarshalHandwritten(item, &r)
		}
		cpu.stop()
	})
	if err != nil {
		b.Fatal(err)
	}
}

// BenchmarkQueryInput times one call of the ReviewsOfBook pattern against a
// client that answers at once with an empty page: building the key and the
// QueryInput, the call, and handling the (empty) output.
func BenchmarkQueryInput(b *testing.B) {
	ctx := context.Background()
	var err error
	b.Run("generated", func(b *testing.B) {
		store := bookreviews.New(&fakeClient{})
		cpu := startCPU(b)
		for b.Loop() {
			_, err = store.ReviewsOfBook(ctx, review.ISBN, bookreviews.Page{})
		}
		cpu.stop()
	})
	b.Run("builder", func(b *testing.B) {
		c := &fakeClient{}
		cpu := startCPU(b)
		for b.Loop() {
			_, err = builderReviewsOfBook(ctx, c, "BookReviews", review.ISBN)
		}
		cpu.stop()
	})
	b.Run("handwritten", func(b *testing.B) {
		c := &fakeClient{}
		cpu := startCPU(b)
		for b.Loop() {
			_, err = handwrittenReviewsOfBook(ctx, c, "BookReviews", review.ISBN)
		}
		cpu.stop()
	})
	if err != nil {
		b.Fatal(err)
	}
}

// --- sketch: what the generator could emit ---------------------------------------
//
// The functions below are NOT generated code: they are hand-written
// prototypes of the changes BENCHMARKS.md proposes for the generator, kept
// here so that the proposal's gain is measured, not guessed. They keep every
// check the generated code makes (no empty or non-UTF-8 key value, no "#"
// in one, key size limits, years 0000-9999, the grade's range, UTF-8 text)
// and produce
// the same item and the same QueryInput (see TestSketchSame).

// sketchBlock holds all the attribute values of one Review item: one
// allocation instead of ten.
type sketchBlock struct {
	s [9]types.AttributeValueMemberS
	n types.AttributeValueMemberN
}

// sketchMarshal checks each key value once, formats the time once with a
// fixed-layout formatter (no layout parsing) and copies its bytes where the
// keys need it, writes every key text into one buffer turned into one string
// (the attributes are substrings of it), and allocates the attribute values
// in one block.
func sketchMarshal(r *bookreviews.Review) (map[string]types.AttributeValue, error) {
	if r.Grade < 0 || r.Grade > 10 {
		return nil, &bookreviews.ItemError{Entity: "Review", Attr: "grade", Reason: "out of range"}
	}
	if !utf8.ValidString(r.ReviewText) {
		return nil, &bookreviews.ItemError{Entity: "Review", Attr: "reviewText", Reason: "not valid UTF-8"}
	}
	if err := sketchKeyString("isbn", r.ISBN); err != nil {
		return nil, err
	}
	if err := sketchKeyString("username", r.Username); err != nil {
		return nil, err
	}
	t := r.ReviewDate.UTC()
	if y := t.Year(); y < 0 || y > 9999 {
		return nil, &bookreviews.KeyError{Attr: "reviewDate", Value: t.String(), Reason: "year outside 0000-9999"}
	}
	var arr [256]byte
	b := appendSketchTime(arr[:0], t) // [0, 30): the date
	pkAt := len(b)
	b = append(b, "BOOK#"...)
	b = append(b, r.ISBN...)
	skAt := len(b)
	b = append(b, b[:pkAt]...) // the date again, copied
	b = append(b, "#USER#"...)
	b = append(b, r.Username...)
	gpkAt := len(b)
	b = append(b, "USER#"...)
	b = append(b, r.Username...)
	gskAt := len(b)
	b = append(b, b[:pkAt]...)
	b = append(b, "#BOOK#"...)
	b = append(b, r.ISBN...)
	s := string(b)
	pk, sk, gpk, gsk := s[pkAt:skAt], s[skAt:gpkAt], s[gpkAt:gskAt], s[gskAt:]
	if len(pk) > 2048 || len(gpk) > 2048 || len(sk) > 1024 || len(gsk) > 1024 {
		return nil, &bookreviews.KeyError{Attr: "PK", Reason: "over DynamoDB's key size"}
	}
	blk := &sketchBlock{}
	blk.s = [9]types.AttributeValueMemberS{
		{Value: pk}, {Value: sk}, {Value: gpk}, {Value: gsk}, {Value: "Review"},
		{Value: r.ISBN}, {Value: r.Username}, {Value: r.ReviewText}, {Value: s[:pkAt]},
	}
	blk.n.Value = strconv.FormatInt(r.Grade, 10)
	item := make(map[string]types.AttributeValue, 10)
	item["PK"] = &blk.s[0]
	item["SK"] = &blk.s[1]
	item["GSI1PK"] = &blk.s[2]
	item["GSI1SK"] = &blk.s[3]
	item["_type"] = &blk.s[4]
	item["isbn"] = &blk.s[5]
	item["username"] = &blk.s[6]
	item["Grade"] = &blk.n
	item["ReviewText"] = &blk.s[7]
	item["ReviewDate"] = &blk.s[8]
	return item, nil
}

func sketchKeyString(attr, v string) error {
	if v == "" || !utf8.ValidString(v) || strings.IndexByte(v, '#') >= 0 {
		return &bookreviews.KeyError{Attr: attr, Value: v, Reason: "not a valid key value"}
	}
	return nil
}

// appendSketchTime writes t (already UTC) as 2006-01-02T15:04:05.000000000Z
// without parsing a layout.
func appendSketchTime(b []byte, t time.Time) []byte {
	y, mo, d := t.Date()
	h, mi, s := t.Clock()
	b = appendDigits(b, y, 4)
	b = append(b, '-')
	b = appendDigits(b, int(mo), 2)
	b = append(b, '-')
	b = appendDigits(b, d, 2)
	b = append(b, 'T')
	b = appendDigits(b, h, 2)
	b = append(b, ':')
	b = appendDigits(b, mi, 2)
	b = append(b, ':')
	b = appendDigits(b, s, 2)
	b = append(b, '.')
	b = appendDigits(b, t.Nanosecond(), 9)
	return append(b, 'Z')
}

func appendDigits(b []byte, v, width int) []byte {
	var d [9]byte
	for i := width - 1; i >= 0; i-- {
		d[i] = byte('0' + v%10)
		v /= 10
	}
	return append(b, d[:width]...)
}

// The parts of ReviewsOfBook's input that do not depend on the call: DynamoDB
// and the SDK only read a QueryInput, so they can be shared.
var (
	sketchLow  = &types.AttributeValueMemberS{Value: skLow}
	sketchHigh = &types.AttributeValueMemberS{Value: skHigh}
)

// sketchReviewsOfBook is ReviewsOfBook with the shared names and bounds, and
// the cursor partition computed only when there is a cursor to read or write.
func sketchReviewsOfBook(ctx context.Context, client bookreviews.Client, table *string, isbn string, page bookreviews.Page) (*bookreviews.ReviewsOfBookResult, error) {
	if err := sketchKeyString("isbn", isbn); err != nil {
		return nil, err
	}
	pk := "BOOK#" + isbn
	if len(pk) > 2048 {
		return nil, &bookreviews.KeyError{Attr: "PK", Reason: "over DynamoDB's key size"}
	}
	if page.Cursor != "" {
		return nil, errors.New("sketch: cursors are not prototyped")
	}
	limit := int32(15)
	if page.Limit > 0 {
		limit = int32(min(page.Limit, 1<<31-1))
	}
	out, err := client.Query(ctx, &dynamodb.QueryInput{
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":pk":   &types.AttributeValueMemberS{Value: pk},
			":skhi": sketchHigh,
			":sklo": sketchLow,
		},
		KeyConditionExpression: aws.String("PK = :pk AND SK BETWEEN :sklo AND :skhi"),
		ScanIndexForward:       aws.Bool(false),
		TableName:              table,
		Limit:                  &limit,
	})
	if err != nil {
		return nil, err
	}
	res := &bookreviews.ReviewsOfBookResult{}
	for _, item := range out.Items {
		var v bookreviews.Review
		if err := v.UnmarshalItem(item); err != nil {
			return nil, err
		}
		res.Items = append(res.Items, v)
	}
	if len(out.LastEvaluatedKey) != 0 {
		return nil, errors.New("sketch: cursors are not prototyped")
	}
	return res, nil
}

func TestSketchSame(t *testing.T) {
	want, err := review.MarshalItem()
	if err != nil {
		t.Fatal(err)
	}
	got, err := sketchMarshal(&review)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("sketch marshals\n%s\nthe generated code\n%s", describeItem(got), describeItem(want))
	}
	for _, tm := range []time.Time{review.ReviewDate, {}, time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC), time.Date(1970, 1, 1, 0, 0, 0, 1000, time.FixedZone("x", 3600))} {
		if got, want := string(appendSketchTime(nil, tm.UTC())), tm.UTC().Format(timeLayout); got != want {
			t.Errorf("appendSketchTime = %s, want %s", got, want)
		}
	}
	ctx := context.Background()
	gen, sk := &fakeClient{}, &fakeClient{}
	if _, err := bookreviews.New(gen).ReviewsOfBook(ctx, review.ISBN, bookreviews.Page{}); err != nil {
		t.Fatal(err)
	}
	table := "BookReviews"
	if _, err := sketchReviewsOfBook(ctx, sk, &table, review.ISBN, bookreviews.Page{}); err != nil {
		t.Fatal(err)
	}
	if got, want := describeQuery(t, sk.in), describeQuery(t, gen.in); got != want {
		t.Errorf("sketch builds the query\n%s\nthe generated code\n%s", got, want)
	}
}

// BenchmarkSketch times the prototypes; compare with Marshal/generated and
// QueryInput/generated.
func BenchmarkSketch(b *testing.B) {
	b.Run("marshal", func(b *testing.B) {
		r := review
		cpu := startCPU(b)
		for b.Loop() {
			sinkItem, sinkError = sketchMarshal(&r)
		}
		cpu.stop()
		if sinkError != nil {
			b.Fatal(sinkError)
		}
	})
	b.Run("query", func(b *testing.B) {
		ctx := context.Background()
		c := &fakeClient{}
		table := "BookReviews"
		var err error
		cpu := startCPU(b)
		for b.Loop() {
			_, err = sketchReviewsOfBook(ctx, c, &table, review.ISBN, bookreviews.Page{})
		}
		cpu.stop()
		if err != nil {
			b.Fatal(err)
		}
	})
}

package e2e

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dyngen/dyngen/internal/dynamotest"
	"github.com/dyngen/dyngen/internal/iamcheck"
)

// newStore returns a Store over tables of unique names, and the raw
// client; it creates the tables from the Store's own Tables. wrap, when
// not nil, stands between the store and the client; extra options go to
// the Store. Every call the Store makes must be one the spec's IAM
// policy allows (see newChecked).
func newStore(t *testing.T, wrap func(Client) Client, extra ...Option) (*Store, *dynamodb.Client) {
	t.Helper()
	s, c, _ := newStoreOpts(t, wrap, extra...)
	return s, c
}

// newStoreOpts is newStore with extra options, returning the options that
// name the tables too, to make other Stores over them.
func newStoreOpts(t testing.TB, wrap func(Client) Client, extra ...Option) (*Store, *dynamodb.Client, []Option) {
	t.Helper()
	c := dynamotest.Client(t)
	var client Client = c
	if wrap != nil {
		client = wrap(c)
	}
	opts := []Option{WithMainTable(dynamotest.TableName("Main")), WithReadingsTable(dynamotest.TableName("Readings")), WithGaugesTable(dynamotest.TableName("Gauges"))}
	s := newChecked(t, client, append(slices.Clip(opts), extra...)...)
	for _, table := range s.Tables() {
		dynamotest.MakeTableFromFiles(t, c, ".", table.Name, table.Create, table.TimeToLive)
	}
	return s, c, opts
}

// policyFile is the spec's IAM policy, as dyngen wrote it.
const policyFile = "iam-policy.json"

// newChecked returns a Store over next made with opts, whose every call
// the spec's IAM policy (policyFile) must allow: the test fails on a
// call it denies, each table named by its name in the spec. The calls a
// test makes itself on a raw client are not checked.
func newChecked(t testing.TB, next Client, opts ...Option) *Store {
	t.Helper()
	chk := iamcheck.New(t, policyFile, next)
	s := New(chk, opts...)
	for _, table := range s.Tables() {
		chk.Add(table.Name, table.Create)
	}
	return s
}

// ---- fixtures and comparisons --------------------------------------------------

var plus0530 = time.FixedZone("+05:30", 5*3600+1800)

func newWidget(owner, id string) *Widget {
	name := "widget " + id
	if len(name) > 100 {
		name = "widget"
	}
	return &Widget{
		OwnerID:   owner,
		WidgetID:  id,
		Name:      name,
		Count:     -42,
		Price:     19.99,
		Active:    true,
		Version:   1,
		CreatedAt: time.Date(2024, 3, 5, 18, 54, 56, 123456789, plus0530),
		UpdatedAt: time.Unix(1_700_000_000, 0),
		SeenAt:    time.UnixMilli(1_700_000_000_123),
		Day:       time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC),
		ExpiresAt: new(time.Unix(2_000_000_000, 0)),
		Blob:      []byte{0, 1, 2, 0xff},
		Tags:      []string{"b", "a", "b", ""},
		Labels:    []string{"x", "y"},
		Sizes:     []int64{-3, 0, 1 << 40},
		Attrs:     map[string]string{"k": "v", "empty": ""},
		Status:    WidgetStatusLive,
		Extra: &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{
			"n": &types.AttributeValueMemberN{Value: "12.5"},
			"l": &types.AttributeValueMemberL{Value: []types.AttributeValue{
				&types.AttributeValueMemberS{Value: "s"},
				&types.AttributeValueMemberBOOL{Value: true},
				&types.AttributeValueMemberNULL{Value: true},
			}},
		}},
		Category: []string{"Electronics", "Laptops"},
		Region:   new("eu"),
		Serial:   "S-" + id,
		KindName: new("gadget"),
	}
}

// diff collects the differences between two values, field by field.
type diff []string

func (d *diff) eq(field string, got, want any) {
	if !reflect.DeepEqual(got, want) {
		*d = append(*d, fmt.Sprintf("%s = %s, want %s", field, show(got), show(want)))
	}
}

// show formats a value for a test message, with what a non-nil pointer
// points to instead of its address.
func show(v any) string {
	if rv := reflect.ValueOf(v); rv.Kind() == reflect.Pointer && !rv.IsNil() {
		return fmt.Sprintf("&%#v", rv.Elem().Interface())
	}
	return fmt.Sprintf("%#v", v)
}

func (d *diff) time(field string, got, want time.Time) {
	if !got.Equal(want) {
		*d = append(*d, fmt.Sprintf("%s = %s, want %s", field, got.Format(time.RFC3339Nano), want.Format(time.RFC3339Nano)))
	}
}

// ptime compares two optional times: both absent, or equal instants.
func (d *diff) ptime(field string, got, want *time.Time) {
	switch {
	case got == nil && want == nil:
	case got == nil || want == nil:
		*d = append(*d, fmt.Sprintf("%s = %v, want %v", field, got, want))
	default:
		d.time(field, *got, *want)
	}
}

func (d *diff) strs(field string, got, want []string) {
	if !slices.Equal(got, want) {
		*d = append(*d, fmt.Sprintf("%s = %q, want %q", field, got, want))
	}
}

// set compares two sets: DynamoDB keeps no order in a set.
func (d *diff) set(field string, got, want []string) {
	d.strs(field, slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(want)))
}

func (d *diff) report(t *testing.T, what string) {
	t.Helper()
	for _, s := range *d {
		t.Errorf("%s: %s", what, s)
	}
}

func checkWidget(t *testing.T, what string, got, want *Widget) {
	t.Helper()
	if got == nil {
		t.Errorf("%s: nil widget", what)
		return
	}
	var d diff
	d.eq("OwnerID", got.OwnerID, want.OwnerID)
	d.eq("WidgetID", got.WidgetID, want.WidgetID)
	d.eq("Name", got.Name, want.Name)
	d.eq("Count", got.Count, want.Count)
	d.eq("Price", got.Price, want.Price)
	d.eq("Active", got.Active, want.Active)
	d.eq("Version", got.Version, want.Version)
	d.time("CreatedAt", got.CreatedAt, want.CreatedAt)
	d.time("UpdatedAt", got.UpdatedAt, want.UpdatedAt)
	d.time("SeenAt", got.SeenAt, want.SeenAt)
	d.time("Day", got.Day, want.Day)
	d.ptime("ExpiresAt", got.ExpiresAt, want.ExpiresAt)
	if !slices.Equal(got.Blob, want.Blob) {
		d = append(d, fmt.Sprintf("Blob = %x, want %x", got.Blob, want.Blob))
	}
	d.strs("Tags", got.Tags, want.Tags)
	d.set("Labels", got.Labels, want.Labels)
	gs, ws := slices.Sorted(slices.Values(got.Sizes)), slices.Sorted(slices.Values(want.Sizes))
	if !slices.Equal(gs, ws) {
		d = append(d, fmt.Sprintf("Sizes = %v, want %v", gs, ws))
	}
	if !maps.Equal(got.Attrs, want.Attrs) {
		d = append(d, fmt.Sprintf("Attrs = %v, want %v", got.Attrs, want.Attrs))
	}
	d.eq("Status", got.Status, want.Status)
	d.eq("Extra", got.Extra, want.Extra)
	d.strs("Category", got.Category, want.Category)
	d.eq("Region", got.Region, want.Region)
	d.eq("Serial", got.Serial, want.Serial)
	d.eq("KindName", got.KindName, want.KindName)
	d.report(t, what)
}

func checkEvent(t *testing.T, what string, got, want Event) {
	t.Helper()
	var d diff
	d.eq("OwnerID", got.OwnerID, want.OwnerID)
	d.eq("Seq", got.Seq, want.Seq)
	d.time("At", got.At, want.At)
	d.eq("Note", got.Note, want.Note)
	d.report(t, what)
}

func checkReading(t *testing.T, what string, got, want Reading) {
	t.Helper()
	var d diff
	d.eq("DeviceID", got.DeviceID, want.DeviceID)
	d.eq("Seq", got.Seq, want.Seq)
	d.eq("Value", got.Value, want.Value)
	d.time("At", got.At, want.At)
	d.eq("Hits", got.Hits, want.Hits)
	d.eq("Unit", got.Unit, want.Unit)
	d.report(t, what)
}

// must fails the test at once on an error.
func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// collect walks an iterator to its end.
func collect[T any](t *testing.T, seq func(func(T, error) bool)) []T {
	t.Helper()
	var out []T
	for v, err := range seq {
		if err != nil {
			t.Fatalf("iterator: %v", err)
		}
		out = append(out, v)
	}
	return out
}

func seqsOf(evs []Event) []int64 {
	out := make([]int64, len(evs))
	for i, e := range evs {
		out[i] = e.Seq
	}
	return out
}

// ---- single items ------------------------------------------------------------

// consistency records the ConsistentRead of the reads that pass.
type consistency struct {
	Client
	mu   sync.Mutex
	seen map[string]bool // call -> ConsistentRead
}

func (c *consistency) note(call string, v *bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seen[call] = aws.ToBool(v)
}

func (c *consistency) GetItem(ctx context.Context, in *dynamodb.GetItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	c.note("GetItem", in.ConsistentRead)
	return c.Client.GetItem(ctx, in, optFns...)
}

func (c *consistency) Query(ctx context.Context, in *dynamodb.QueryInput, optFns ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	c.note("Query "+aws.ToString(in.IndexName), in.ConsistentRead)
	return c.Client.Query(ctx, in, optFns...)
}

func (c *consistency) BatchGetItem(ctx context.Context, in *dynamodb.BatchGetItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	for _, ka := range in.RequestItems {
		c.note("BatchGetItem", ka.ConsistentRead)
	}
	return c.Client.BatchGetItem(ctx, in, optFns...)
}

func TestWidgetRoundTrip(t *testing.T) {
	t.Parallel()
	rec := &consistency{seen: map[string]bool{}}
	s, raw := newStore(t, func(c Client) Client { rec.Client = c; return rec })
	ctx := t.Context()
	w := newWidget("o1", "w1")
	must(t, s.CreateWidget(ctx, w))

	got, err := s.GetWidget(ctx, WidgetKey{OwnerID: "o1", WidgetID: "w1"})
	must(t, err)
	checkWidget(t, "GetWidget", got, w)
	if !rec.seen["GetItem"] {
		t.Error("GetWidget (consistent: true) did not ask for a consistent read")
	}

	// How each attribute is stored.
	out, err := raw.GetItem(ctx, &dynamodb.GetItemInput{
		TableName: &s.mainTable,
		Key: map[string]types.AttributeValue{
			"PK": &types.AttributeValueMemberS{Value: "OWNER#o1"},
			"SK": &types.AttributeValueMemberS{Value: "WIDGET#w1"},
		},
	})
	must(t, err)
	for name, want := range map[string]types.AttributeValue{
		"_type":      &types.AttributeValueMemberS{Value: "Widget"},
		"GSI1PK":     &types.AttributeValueMemberS{Value: "REGION#eu"},
		"GSI1SK":     &types.AttributeValueMemberS{Value: "SERIAL#S-w1"},
		"LSI1SK":     &types.AttributeValueMemberS{Value: "CAT/Electronics/Laptops/w1"},
		"ownerId":    &types.AttributeValueMemberS{Value: "o1"},
		"created_at": &types.AttributeValueMemberS{Value: "2024-03-05T13:24:56.123456789Z"},
		"updatedAt":  &types.AttributeValueMemberN{Value: "1700000000"},
		"seenAt":     &types.AttributeValueMemberN{Value: "1700000000123"},
		"day":        &types.AttributeValueMemberS{Value: "2024-02-29"},
		"expiresAt":  &types.AttributeValueMemberN{Value: "2000000000"},
		"category":   &types.AttributeValueMemberS{Value: "Electronics/Laptops"},
		"status":     &types.AttributeValueMemberS{Value: "live"},
		"kind":       &types.AttributeValueMemberS{Value: "gadget"},
		"active":     &types.AttributeValueMemberBOOL{Value: true},
		"count":      &types.AttributeValueMemberN{Value: "-42"},
	} {
		if got := out.Item[name]; !reflect.DeepEqual(got, want) {
			t.Errorf("stored %s = %#v, want %#v", name, got, want)
		}
	}

	// Through the GSI (a get by both its keys) and the inverted index.
	got, err = s.WidgetBySerial(ctx, WidgetBySerialParams{Region: "eu", Serial: "S-w1"})
	must(t, err)
	checkWidget(t, "WidgetBySerial", got, w)
	owners, err := s.WidgetOwners(ctx, "w1", Page{})
	must(t, err)
	if len(owners.Items) != 1 || owners.Next != "" {
		t.Fatalf("WidgetOwners: %d items, next %q; want 1, none", len(owners.Items), owners.Next)
	}
	checkWidget(t, "WidgetOwners", &owners.Items[0], w)

	// A widget whose optional attributes are all absent (nil, or empty for
	// lists, sets, maps and bytes): none is written, and it is in no GSI1
	// partition (sparse).
	bare := &Widget{
		OwnerID: "o1", WidgetID: "w2", Name: "bare", Status: WidgetStatusDraft,
		CreatedAt: time.Date(2001, 1, 1, 0, 0, 0, 1, time.UTC), UpdatedAt: time.Unix(0, 0), SeenAt: time.UnixMilli(-1),
		Day: time.Date(1999, 12, 31, 0, 0, 0, 0, time.UTC), Category: []string{"Misc"}, Serial: "S-w2",
	}
	must(t, s.CreateWidget(ctx, bare))
	got, err = s.GetWidget(ctx, WidgetKey{OwnerID: "o1", WidgetID: "w2"})
	must(t, err)
	checkWidget(t, "GetWidget of a bare widget", got, bare)
	// The empty region is a region (REGION#), which the bare widget, with
	// no region, is not in.
	if _, err := s.WidgetBySerial(ctx, WidgetBySerialParams{Region: "", Serial: "S-w2"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("WidgetBySerial with an empty region: %v, want ErrNotFound", err)
	}

	if _, err := s.GetWidget(ctx, WidgetKey{OwnerID: "o1", WidgetID: "nope"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("GetWidget of a missing widget: %v, want ErrNotFound", err)
	}
	if _, err := s.WidgetBySerial(ctx, WidgetBySerialParams{Region: "eu", Serial: "nope"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("WidgetBySerial of a missing widget: %v, want ErrNotFound", err)
	}
}

func TestWidgetQueries(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t, nil)
	ctx := t.Context()
	cats := map[string][]string{
		"a": {"Electronics"},
		"b": {"Electronics", "Laptops"},
		"c": {"Electronics", "Laptops", "Accessories"},
		"d": {"ElectronicsOutlet"},
		"e": {"Electronics", "LaptopsRefurbished"},
		"f": {"Garden"},
	}
	want := map[string]*Widget{}
	for _, id := range slices.Sorted(maps.Keys(cats)) {
		w := newWidget("o1", id)
		w.Category = cats[id]
		w.Active = id != "b"
		w.Region = new("eu")
		if id == "c" || id == "f" {
			w.Status = WidgetStatusDraft
			w.Region = new("us")
		}
		want[id] = w
		must(t, s.CreateWidget(ctx, w))
	}
	// Another owner's widget in the same category and region.
	must(t, s.CreateWidget(ctx, newWidget("o2", "z")))

	ids := func(ws []Widget) []string {
		var out []string
		for _, w := range ws {
			out = append(out, w.OwnerID+"/"+w.WidgetID)
		}
		return out
	}
	for _, tc := range []struct {
		path []string
		want []string
	}{
		{[]string{"Electronics"}, []string{"o1/a", "o1/b", "o1/c", "o1/e"}},
		{[]string{"Electronics", "Laptops"}, []string{"o1/b", "o1/c"}},
		{[]string{"Electronics", "Laptops", "Accessories"}, []string{"o1/c"}},
		{[]string{"ElectronicsOutlet"}, []string{"o1/d"}},
		{[]string{"Electron"}, nil},
		{[]string{"Garden", "Tools"}, nil},
	} {
		res, err := s.WidgetsInCategory(ctx, WidgetsInCategoryParams{OwnerID: "o1", Category: tc.path}, Page{})
		must(t, err)
		got := ids(res.Items)
		slices.Sort(got)
		if !slices.Equal(got, tc.want) {
			t.Errorf("WidgetsInCategory(%q) = %q, want %q", tc.path, got, tc.want)
		}
		for _, w := range res.Items {
			checkWidget(t, "WidgetsInCategory", &w, want[w.WidgetID])
		}
	}
	for _, bad := range [][]string{nil, {"Electronics", ""}, {"Electronics/Laptops"}} {
		if _, err := s.WidgetsInCategory(ctx, WidgetsInCategoryParams{OwnerID: "o1", Category: bad}, Page{}); !errors.Is(err, ErrInvalidKey) {
			t.Errorf("WidgetsInCategory(%q): %v, want ErrInvalidKey", bad, err)
		}
	}

	// A filter with a constant: active = true.
	active := collect(t, s.ActiveWidgetsAll(ctx, "o1"))
	if got := ids(active); !slices.Equal(got, []string{"o1/a", "o1/c", "o1/d", "o1/e", "o1/f"}) {
		t.Errorf("ActiveWidgets = %q", got)
	}
	// A filter with a parameter, on the sparse GSI.
	res, err := s.WidgetsInRegion(ctx, WidgetsInRegionParams{Region: "eu", Status: WidgetStatusLive}, Page{})
	must(t, err)
	if got := ids(res.Items); !slices.Equal(got, []string{"o1/a", "o1/b", "o1/d", "o1/e", "o2/z"}) {
		t.Errorf("WidgetsInRegion(eu, live) = %q", got)
	}
	res, err = s.WidgetsInRegion(ctx, WidgetsInRegionParams{Region: "us", Status: WidgetStatusDraft}, Page{})
	must(t, err)
	if got := ids(res.Items); !slices.Equal(got, []string{"o1/c", "o1/f"}) {
		t.Errorf("WidgetsInRegion(us, draft) = %q", got)
	}
	res, err = s.WidgetsInRegion(ctx, WidgetsInRegionParams{Region: "us", Status: WidgetStatusLive}, Page{})
	must(t, err)
	if len(res.Items) != 0 {
		t.Errorf("WidgetsInRegion(us, live) = %q, want none", ids(res.Items))
	}
	// A page limit smaller than the matches: the filter runs after the
	// limit, and the pages still add up to every match once.
	var pages []string
	for cur, n := Cursor(""), 0; ; n++ {
		res, err := s.WidgetsInRegion(ctx, WidgetsInRegionParams{Region: "eu", Status: WidgetStatusLive}, Page{Cursor: cur, Limit: 2})
		must(t, err)
		if len(res.Items) > 2 {
			t.Fatalf("WidgetsInRegion with Limit 2 returned %d items", len(res.Items))
		}
		pages = append(pages, ids(res.Items)...)
		if res.Next == "" {
			break
		}
		if n > 10 {
			t.Fatal("WidgetsInRegion does not end")
		}
		cur = res.Next
	}
	if !slices.Equal(pages, []string{"o1/a", "o1/b", "o1/d", "o1/e", "o2/z"}) {
		t.Errorf("WidgetsInRegion by pages of 2 = %q", pages)
	}

	// select: a view of name and status (and the key attributes).
	names := collect(t, s.WidgetNamesAll(ctx, "o1"))
	if len(names) != len(cats) {
		t.Fatalf("WidgetNames: %d items, want %d", len(names), len(cats))
	}
	for _, n := range names {
		w := want[n.WidgetID]
		if w == nil || n.OwnerID != "o1" || n.Name != w.Name || n.Status != w.Status {
			t.Errorf("WidgetNames item %+v does not match the widget written", n)
		}
	}
	// batchGet with select.
	views, err := s.WidgetNamesByKey(ctx, []WidgetKey{{"o1", "c"}, {"o1", "nope"}, {"o1", "a"}, {"o2", "z"}})
	must(t, err)
	var got []string
	for _, v := range views {
		got = append(got, v.OwnerID+"/"+v.WidgetID+"="+v.Name)
	}
	if want := []string{"o1/c=widget c", "o1/a=widget a", "o2/z=widget z"}; !slices.Equal(got, want) {
		t.Errorf("WidgetNamesByKey = %q, want %q", got, want)
	}
}

func TestCreateTwice(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t, nil)
	ctx := t.Context()
	must(t, s.CreateNote(ctx, &Note{OwnerID: "o", NoteID: "n", Text: "first", Type: NoteTypePlain}))
	err := s.CreateNote(ctx, &Note{OwnerID: "o", NoteID: "n", Text: "second", Type: NoteTypeRich})
	if !errors.Is(err, ErrAlreadyExists) {
		t.Fatalf("second CreateNote: %v, want ErrAlreadyExists", err)
	}
	var ccf *types.ConditionalCheckFailedException
	if !errors.As(err, &ccf) {
		t.Errorf("second CreateNote: errors.As finds no ConditionalCheckFailedException in %v", err)
	}
	if code := dynamotest.ErrorCode(err); code != "ConditionalCheckFailedException" {
		t.Errorf("second CreateNote: error code %q", code)
	}
	n, err := s.GetNote(ctx, NoteKey{OwnerID: "o", NoteID: "n"})
	must(t, err)
	if n.Text != "first" || n.Type != NoteTypePlain || n.Range != nil {
		t.Errorf("the note after a refused create: %+v", n)
	}
	// An item of another entity in the partition does not count.
	must(t, s.CreatePin(ctx, &Pin{OwnerID: "o", PinID: "n", Label: "l", Folder: []string{"a"}}))
	must(t, s.CreateWidget(ctx, newWidget("o", "n")))
	if err := s.CreateWidget(ctx, newWidget("o", "n")); !errors.Is(err, ErrAlreadyExists) {
		t.Errorf("second CreateWidget: %v, want ErrAlreadyExists", err)
	}

	must(t, s.DeleteNote(ctx, NoteKey{OwnerID: "o", NoteID: "n"}))
	if _, err := s.GetNote(ctx, NoteKey{OwnerID: "o", NoteID: "n"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("GetNote after DeleteNote: %v, want ErrNotFound", err)
	}
	must(t, s.DeleteNote(ctx, NoteKey{OwnerID: "o", NoteID: "n"})) // no item: no error
	must(t, s.CreateNote(ctx, &Note{OwnerID: "o", NoteID: "n", Text: "again", Type: NoteTypeRich, Range: new(int64(-7))}))
	n, err = s.GetNote(ctx, NoteKey{OwnerID: "o", NoteID: "n"})
	must(t, err)
	if n.Text != "again" || n.Type != NoteTypeRich || n.Range == nil || *n.Range != -7 {
		t.Errorf("the note created again: %+v", n)
	}
}

func TestUpdates(t *testing.T) {
	t.Parallel()
	s, raw := newStore(t, nil)
	ctx := t.Context()
	w := newWidget("o", "w")
	w.Labels = []string{"x"}
	w.Sizes = nil
	must(t, s.CreateWidget(ctx, w))

	extra := &types.AttributeValueMemberL{Value: []types.AttributeValue{&types.AttributeValueMemberN{Value: "7"}}}
	exp := time.Unix(2_100_000_000, 0)
	got, err := s.EditWidget(ctx, EditWidgetParams{OwnerID: "o", WidgetID: "w", Name: "renamed", Price: 0.5, Tags: []string{"t1"}, Attrs: map[string]string{"a": "b"}, Extra: extra, ExpiresAt: new(exp), Count: 10, Labels: []string{"x", "z"}, Sizes: []int64{4, -4}, Version: 1})
	must(t, err)
	want := *w
	want.Name, want.Price, want.Tags, want.Attrs, want.Extra, want.ExpiresAt = "renamed", 0.5, []string{"t1"}, map[string]string{"a": "b"}, extra, new(exp)
	want.Count = w.Count + 10
	want.Labels = []string{"x", "z"}
	want.Sizes = []int64{4, -4}
	want.Blob, want.KindName = nil, nil
	checkWidget(t, "EditWidget's result", got, &want)
	stored, err := s.GetWidget(ctx, WidgetKey{OwnerID: "o", WidgetID: "w"})
	must(t, err)
	checkWidget(t, "GetWidget after EditWidget", stored, &want)

	// The when condition with a parameter: version = 1 holds no more once
	// the version changes.
	must(t, s.PutWidget(ctx, &want, 2)) // stored version 1 < 2
	want.Version = 5
	must(t, s.PutWidget(ctx, &want, 2)) // still 1 < 2
	_, err = s.EditWidget(ctx, EditWidgetParams{OwnerID: "o", WidgetID: "w", Name: "again", Price: 1, Tags: nil, Attrs: nil, Extra: extra, ExpiresAt: new(exp), Count: 1, Labels: []string{"q"}, Sizes: []int64{1}, Version: 1})
	if !errors.Is(err, ErrConditionFailed) {
		t.Fatalf("EditWidget with a stale version: %v, want ErrConditionFailed", err)
	}
	var ccf *types.ConditionalCheckFailedException
	if !errors.As(err, &ccf) {
		t.Errorf("EditWidget with a stale version: no ConditionalCheckFailedException in %v", err)
	}
	if errors.Is(err, ErrNotFound) {
		t.Errorf("EditWidget with a stale version is also ErrNotFound: %v", err)
	}
	if err := s.PutWidget(ctx, &want, 5); !errors.Is(err, ErrConditionFailed) || !errors.As(err, &ccf) {
		t.Errorf("PutWidget when the stored version is not below: %v, want ErrConditionFailed", err)
	}
	if err := s.PutWidget(ctx, newWidget("o", "new"), 100); !errors.Is(err, ErrConditionFailed) {
		t.Errorf("PutWidget of a new item with a when on its version: %v, want ErrConditionFailed", err)
	}
	stored, err = s.GetWidget(ctx, WidgetKey{OwnerID: "o", WidgetID: "w"})
	must(t, err)
	checkWidget(t, "GetWidget after refused writes", stored, &want)

	// An update of a missing item.
	_, err = s.EditWidget(ctx, EditWidgetParams{OwnerID: "o", WidgetID: "missing", Name: "x", Price: 1, Tags: nil, Attrs: nil, Extra: extra, ExpiresAt: new(exp), Count: 1, Labels: []string{"q"}, Sizes: []int64{1}, Version: 1})
	if !errors.Is(err, ErrNotFound) {
		t.Errorf("EditWidget of a missing item: %v, want ErrNotFound", err)
	}
	if _, err := s.RetireWidget(ctx, RetireWidgetParams{OwnerID: "o", WidgetID: "missing", Status: WidgetStatusRetired}); !errors.Is(err, ErrNotFound) {
		t.Errorf("RetireWidget of a missing item: %v, want ErrNotFound", err)
	}
	if _, err := s.MoveWidget(ctx, MoveWidgetParams{OwnerID: "o", WidgetID: "missing", Region: new("eu"), Serial: "s"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("MoveWidget of a missing item: %v, want ErrNotFound", err)
	}
	if _, err := s.GetWidget(ctx, WidgetKey{OwnerID: "o", WidgetID: "missing"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("a failed update created an item: %v", err)
	}

	// Checks before the call.
	if _, err := s.EditWidget(ctx, EditWidgetParams{OwnerID: "o", WidgetID: "w", Name: strings.Repeat("n", 101), Price: 1, Tags: nil, Attrs: nil, Extra: extra, ExpiresAt: new(exp), Count: 1, Labels: []string{"q"}, Sizes: []int64{1}, Version: 5}); !errors.Is(err, ErrInvalidItem) {
		t.Errorf("EditWidget with a name over maxLength: %v, want ErrInvalidItem", err)
	}
	// Values DynamoDB can't take: an empty set, a nil document.
	if _, err := s.EditWidget(ctx, EditWidgetParams{OwnerID: "o", WidgetID: "w", Name: "n", Price: 1, Tags: nil, Attrs: nil, Extra: extra, ExpiresAt: new(exp), Count: 1, Labels: nil, Sizes: []int64{1}, Version: 5}); !errors.Is(err, ErrInvalidItem) {
		t.Errorf("EditWidget adding an empty string set: %v, want ErrInvalidItem", err)
	}
	if _, err := s.EditWidget(ctx, EditWidgetParams{OwnerID: "o", WidgetID: "w", Name: "n", Price: 1, Tags: nil, Attrs: nil, Extra: extra, ExpiresAt: new(exp), Count: 1, Labels: []string{"a"}, Sizes: []int64{}, Version: 5}); !errors.Is(err, ErrInvalidItem) {
		t.Errorf("EditWidget adding an empty int set: %v, want ErrInvalidItem", err)
	}
	// An optional attribute given nil (a map given empty) is removed, as a
	// put leaves it out.
	other := newWidget("o", "w-zero")
	must(t, s.CreateWidget(ctx, other))
	edited, err := s.EditWidget(ctx, EditWidgetParams{OwnerID: "o", WidgetID: "w-zero", Name: "n", Price: 1, Tags: nil, Attrs: nil, Extra: nil, ExpiresAt: nil, Count: 1, Labels: []string{"a"}, Sizes: []int64{1}, Version: other.Version})
	must(t, err)
	if edited.Extra != nil || edited.Attrs != nil || edited.ExpiresAt != nil {
		t.Errorf("EditWidget with absent optional values kept extra=%v attrs=%v expiresAt=%s", edited.Extra, edited.Attrs, show(edited.ExpiresAt))
	}
	zeroItem, err2 := raw.GetItem(ctx, &dynamodb.GetItemInput{TableName: &s.mainTable, Key: map[string]types.AttributeValue{
		"PK": &types.AttributeValueMemberS{Value: "OWNER#o"},
		"SK": &types.AttributeValueMemberS{Value: "WIDGET#w-zero"},
	}})
	must(t, err2)
	for _, name := range []string{"expiresAt", "extra", "attrs"} {
		if v, ok := zeroItem.Item[name]; ok {
			t.Errorf("the stored item still holds %s = %v", name, v)
		}
	}
	if _, err := s.RetireWidget(ctx, RetireWidgetParams{OwnerID: "o", WidgetID: "w", Status: "gone"}); !errors.Is(err, ErrInvalidItem) {
		t.Errorf("RetireWidget to a value not of the enum: %v, want ErrInvalidItem", err)
	}

	// when with a constant: status = live; delete when status = retired.
	if err := s.DeleteWidget(ctx, WidgetKey{OwnerID: "o", WidgetID: "w"}); !errors.Is(err, ErrConditionFailed) || !errors.As(err, &ccf) {
		t.Errorf("DeleteWidget of a live widget: %v, want ErrConditionFailed", err)
	}
	got, err = s.RetireWidget(ctx, RetireWidgetParams{OwnerID: "o", WidgetID: "w", Status: WidgetStatusRetired})
	must(t, err)
	want.Status = WidgetStatusRetired
	checkWidget(t, "RetireWidget's result", got, &want)
	if _, err := s.RetireWidget(ctx, RetireWidgetParams{OwnerID: "o", WidgetID: "w", Status: WidgetStatusRetired}); !errors.Is(err, ErrConditionFailed) {
		t.Errorf("RetireWidget of a retired widget: %v, want ErrConditionFailed", err)
	}
	must(t, s.DeleteWidget(ctx, WidgetKey{OwnerID: "o", WidgetID: "w"}))
	if _, err := s.GetWidget(ctx, WidgetKey{OwnerID: "o", WidgetID: "w"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("GetWidget after DeleteWidget: %v, want ErrNotFound", err)
	}
	if err := s.DeleteWidget(ctx, WidgetKey{OwnerID: "o", WidgetID: "w"}); !errors.Is(err, ErrConditionFailed) {
		t.Errorf("DeleteWidget with a when of a missing item: %v, want ErrConditionFailed", err)
	}
}

func TestMoveWidget(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t, nil)
	ctx := t.Context()
	w := newWidget("o", "w")
	w.Region, w.Serial = new("eu"), "s1"
	must(t, s.CreateWidget(ctx, w))
	got, err := s.MoveWidget(ctx, MoveWidgetParams{OwnerID: "o", WidgetID: "w", Region: new("us"), Serial: "s2"})
	must(t, err)
	want := *w
	want.Region, want.Serial = new("us"), "s2"
	checkWidget(t, "MoveWidget's result", got, &want)

	got, err = s.WidgetBySerial(ctx, WidgetBySerialParams{Region: "us", Serial: "s2"})
	must(t, err)
	checkWidget(t, "WidgetBySerial by the new key", got, &want)
	if _, err := s.WidgetBySerial(ctx, WidgetBySerialParams{Region: "eu", Serial: "s1"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("WidgetBySerial by the old key: %v, want ErrNotFound", err)
	}
	if res, err := s.WidgetsInRegion(ctx, WidgetsInRegionParams{Region: "eu", Status: WidgetStatusLive}, Page{}); err != nil || len(res.Items) != 0 {
		t.Errorf("WidgetsInRegion(eu) after the move: %v, %v; want none", res, err)
	}
	if res, err := s.WidgetsInRegion(ctx, WidgetsInRegionParams{Region: "us", Status: WidgetStatusLive}, Page{}); err != nil || len(res.Items) != 1 {
		t.Errorf("WidgetsInRegion(us) after the move: %v, %v; want the widget", res, err)
	}

	// A widget with no region is in no GSI1 partition; moving it puts it in one.
	bare := newWidget("o", "bare")
	bare.Region = nil
	must(t, s.CreateWidget(ctx, bare))
	if _, err := s.WidgetBySerial(ctx, WidgetBySerialParams{Region: "eu", Serial: bare.Serial}); !errors.Is(err, ErrNotFound) {
		t.Errorf("WidgetBySerial of a widget with no region: %v, want ErrNotFound", err)
	}
	_, err = s.MoveWidget(ctx, MoveWidgetParams{OwnerID: "o", WidgetID: "bare", Region: new("eu"), Serial: "s3"})
	must(t, err)
	got, err = s.WidgetBySerial(ctx, WidgetBySerialParams{Region: "eu", Serial: "s3"})
	must(t, err)
	if got.WidgetID != "bare" || got.Region == nil || *got.Region != "eu" || got.Serial != "s3" {
		t.Errorf("WidgetBySerial after moving a bare widget: %+v", got)
	}
	if _, err := s.MoveWidget(ctx, MoveWidgetParams{OwnerID: "o", WidgetID: "bare", Region: new("e#u"), Serial: "s3"}); !errors.Is(err, ErrInvalidKey) {
		t.Errorf("MoveWidget to a region holding the separator: %v, want ErrInvalidKey", err)
	}
	// A present empty region is a value, not an absence: GSI1PK="REGION#",
	// never empty, finds it.
	got, err = s.MoveWidget(ctx, MoveWidgetParams{OwnerID: "o", WidgetID: "bare", Region: new(""), Serial: "s3"})
	must(t, err)
	if got.Region == nil || *got.Region != "" {
		t.Errorf("MoveWidget to an empty region: %+v", got)
	}
	got, err = s.WidgetBySerial(ctx, WidgetBySerialParams{Region: "", Serial: "s3"})
	must(t, err)
	if got.WidgetID != "bare" || got.Region == nil || *got.Region != "" {
		t.Errorf("WidgetBySerial after moving a widget to the empty region: %+v", got)
	}
	// A nil region removes the attribute and the GSI1 keys built from it.
	got, err = s.MoveWidget(ctx, MoveWidgetParams{OwnerID: "o", WidgetID: "bare", Region: nil, Serial: "s4"})
	must(t, err)
	if got.Region != nil || got.Serial != "s4" {
		t.Errorf("MoveWidget to no region: %+v", got)
	}
	if _, err := s.WidgetBySerial(ctx, WidgetBySerialParams{Region: "eu", Serial: "s4"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("WidgetBySerial after removing the region: %v, want ErrNotFound", err)
	}
	if res, err := s.WidgetsInRegion(ctx, WidgetsInRegionParams{Region: "eu", Status: WidgetStatusLive}, Page{}); err != nil || len(res.Items) != 0 {
		t.Errorf("WidgetsInRegion(eu) after removing the region: %v, %v; want none", res, err)
	}
}

func TestUpsert(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t, nil)
	ctx := t.Context()
	at := time.Date(2024, 1, 2, 3, 4, 5, 600_000_000, time.UTC)
	got, err := s.TouchEvent(ctx, TouchEventParams{OwnerID: "o", Seq: -5, Note: "created", At: at})
	must(t, err)
	want := Event{OwnerID: "o", Seq: -5, At: at, Note: "created"}
	checkEvent(t, "TouchEvent creating the item", *got, want)
	evs, err := s.GetEvents(ctx, []EventKey{{"o", -5}})
	must(t, err)
	if len(evs) != 1 {
		t.Fatalf("GetEvents after the upsert: %d items", len(evs))
	}
	checkEvent(t, "GetEvents after the upsert", evs[0], want)
	// Its LSI key was written too.
	if res, err := s.EventsAtFrom(ctx, EventsAtFromParams{OwnerID: "o", At: at}, Page{}); err != nil || len(res.Items) != 1 {
		t.Errorf("EventsAtFrom after the upsert: %v, %v", res, err)
	}
	at2 := at.Add(time.Hour)
	got, err = s.TouchEvent(ctx, TouchEventParams{OwnerID: "o", Seq: -5, Note: "changed", At: at2})
	must(t, err)
	want.Note, want.At = "changed", at2
	checkEvent(t, "TouchEvent changing the item", *got, want)
	if res, err := s.EventsAtBefore(ctx, EventsAtBeforeParams{OwnerID: "o", At: at2}, Page{}); err != nil || len(res.Items) != 0 {
		t.Errorf("EventsAtBefore the new time after the upsert moved it: %v, %v; want none", res, err)
	}

	// On the natural-key table: add to a counter that does not exist yet.
	t0 := time.UnixMilli(1_700_000_000_001)
	r, err := s.Hit(ctx, HitParams{DeviceID: 7, Seq: -1, Value: 1.5, At: t0, Unit: new("C"), Hits: 2})
	must(t, err)
	checkReading(t, "Hit creating the item", *r, Reading{DeviceID: 7, Seq: -1, Value: 1.5, At: t0, Hits: new(int64(2)), Unit: new("C")})
	r, err = s.Hit(ctx, HitParams{DeviceID: 7, Seq: -1, Value: 2.5, At: t0, Unit: new("F"), Hits: 3})
	must(t, err)
	checkReading(t, "Hit changing the item", *r, Reading{DeviceID: 7, Seq: -1, Value: 2.5, At: t0, Hits: new(int64(5)), Unit: new("F")})
	r, err = s.GetReading(ctx, ReadingKey{DeviceID: 7, Seq: -1})
	must(t, err)
	checkReading(t, "GetReading after Hit", *r, Reading{DeviceID: 7, Seq: -1, Value: 2.5, At: t0, Hits: new(int64(5)), Unit: new("F")})

	// A present zero is stored and read back; a nil unit removes it.
	r, err = s.Hit(ctx, HitParams{DeviceID: 7, Seq: -2, Value: 0, At: t0, Unit: new(""), Hits: 0})
	must(t, err)
	zero := Reading{DeviceID: 7, Seq: -2, Value: 0, At: t0, Hits: new(int64(0)), Unit: new("")}
	checkReading(t, "Hit with zero values", *r, zero)
	r, err = s.GetReading(ctx, ReadingKey{DeviceID: 7, Seq: -2})
	must(t, err)
	checkReading(t, "GetReading after Hit with zero values", *r, zero)
	r, err = s.Hit(ctx, HitParams{DeviceID: 7, Seq: -2, Value: 0, At: t0, Unit: nil, Hits: 0})
	must(t, err)
	zero.Unit = nil
	checkReading(t, "Hit with a nil unit", *r, zero)
	r, err = s.GetReading(ctx, ReadingKey{DeviceID: 7, Seq: -2})
	must(t, err)
	checkReading(t, "GetReading after Hit with a nil unit", *r, zero)
}

// ---- key conditions -----------------------------------------------------------

const (
	minInt = -1 << 63
	maxInt = 1<<63 - 1
)

var eventSeqs = []int64{minInt, -1_000_000, -1000, -11, -10, -9, -2, -1, 0, 1, 2, 9, 10, 11, 1000, 1_000_000, maxInt}

func TestEventsWhere(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t, nil)
	ctx := t.Context()
	// Items of the other entities of the partition, on both sides.
	must(t, s.CreateWidget(ctx, newWidget("o", "w")))
	must(t, s.CreateNote(ctx, &Note{OwnerID: "o", NoteID: "n", Text: "t", Type: NoteTypePlain}))
	var evs []Event
	for i, n := range slices.Backward(eventSeqs) { // written in no particular order
		evs = append(evs, Event{OwnerID: "o", Seq: n, At: time.Unix(1_700_000_000, int64(i)), Note: fmt.Sprint(n)})
	}
	must(t, s.PutEvents(ctx, evs))
	// Another owner's events.
	must(t, s.PutEvents(ctx, []Event{{OwnerID: "p", Seq: 0, At: time.Unix(1, 0), Note: "p"}}))

	sel := func(keep func(int64) bool) []int64 {
		var out []int64
		for _, n := range eventSeqs {
			if keep(n) {
				out = append(out, n)
			}
		}
		return out
	}
	rev := func(s []int64) []int64 { s = slices.Clone(s); slices.Reverse(s); return s }
	all := collect(t, s.EventsAll(ctx, "o"))
	if got := seqsOf(all); !slices.Equal(got, eventSeqs) {
		t.Errorf("Events = %v, want %v", got, eventSeqs)
	}
	for _, e := range all {
		checkEvent(t, "Events", e, evs[slices.IndexFunc(evs, func(x Event) bool { return x.Seq == e.Seq })])
	}
	for _, x := range []int64{minInt, minInt + 1, -1000, -10, -1, 0, 1, 10, 5, 1000, maxInt - 1, maxInt} {
		for _, tc := range []struct {
			name string
			got  func() []Event
			want []int64
		}{
			{"EventsBefore", func() []Event { return collect(t, s.EventsBeforeAll(ctx, EventsBeforeParams{OwnerID: "o", Seq: x})) }, sel(func(n int64) bool { return n < x })},
			{"EventsUpTo", func() []Event { return collect(t, s.EventsUpToAll(ctx, EventsUpToParams{OwnerID: "o", Seq: x})) }, sel(func(n int64) bool { return n <= x })},
			{"EventsAfter", func() []Event { return collect(t, s.EventsAfterAll(ctx, EventsAfterParams{OwnerID: "o", Seq: x})) }, sel(func(n int64) bool { return n > x })},
			{"EventsFrom", func() []Event { return collect(t, s.EventsFromAll(ctx, EventsFromParams{OwnerID: "o", Seq: x})) }, rev(sel(func(n int64) bool { return n >= x }))},
			{"EventsBetween(x, 10)", func() []Event {
				return collect(t, s.EventsBetweenAll(ctx, EventsBetweenParams{OwnerID: "o", SeqFrom: x, SeqTo: 10}))
			}, sel(func(n int64) bool { return x <= n && n <= 10 })},
			{"EventsBetween(-10, x)", func() []Event {
				return collect(t, s.EventsBetweenAll(ctx, EventsBetweenParams{OwnerID: "o", SeqFrom: -10, SeqTo: x}))
			}, sel(func(n int64) bool { return -10 <= n && n <= x })},
			{"EventsBetween(x, x)", func() []Event {
				return collect(t, s.EventsBetweenAll(ctx, EventsBetweenParams{OwnerID: "o", SeqFrom: x, SeqTo: x}))
			}, sel(func(n int64) bool { return n == x })},
		} {
			if got := seqsOf(tc.got()); !slices.Equal(got, tc.want) {
				t.Errorf("%s(%d) = %v, want %v", tc.name, x, got, tc.want)
			}
		}
	}
	if got := seqsOf(collect(t, s.EventsBetweenAll(ctx, EventsBetweenParams{OwnerID: "o", SeqFrom: 10, SeqTo: -10}))); len(got) != 0 {
		t.Errorf("EventsBetween(10, -10) = %v, want none", got)
	}

	// order desc with the pattern's limit of 3 a page.
	res, err := s.EventsDesc(ctx, "o", Page{})
	must(t, err)
	if got := seqsOf(res.Items); !slices.Equal(got, rev(eventSeqs)[:3]) || res.Next == "" {
		t.Errorf("EventsDesc first page = %v (next %q), want %v and a next page", got, res.Next, rev(eventSeqs)[:3])
	}
	res, err = s.EventsDesc(ctx, "o", Page{Cursor: res.Next, Limit: 5})
	must(t, err)
	if got := seqsOf(res.Items); !slices.Equal(got, rev(eventSeqs)[3:8]) {
		t.Errorf("EventsDesc second page, limit 5 = %v, want %v", got, rev(eventSeqs)[3:8])
	}
	if got := seqsOf(collect(t, s.EventsDescAll(ctx, "o"))); !slices.Equal(got, rev(eventSeqs)) {
		t.Errorf("EventsDescAll = %v", got)
	}
}

func TestEventTimes(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t, nil)
	ctx := t.Context()
	must(t, s.CreateWidget(ctx, newWidget("o", "w"))) // CAT/... on LSI1
	base := time.Date(2021, 3, 5, 18, 54, 56, 0, time.UTC)
	// Sub-second instants, written in several zones: the key is UTC with
	// nine fraction digits, so 56.5 sorts after 56 and before 56.500000001.
	times := []time.Time{
		time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC),
		base.Add(-time.Second),
		base.In(plus0530),
		base.Add(time.Nanosecond),
		base.Add(5 * time.Millisecond),
		base.Add(500 * time.Millisecond).In(time.FixedZone("-07:00", -7*3600)),
		base.Add(500*time.Millisecond + time.Nanosecond),
		base.Add(time.Second),
		time.Date(9999, 12, 31, 23, 59, 59, 999_999_999, time.UTC),
	}
	var evs []Event
	for i, at := range times {
		evs = append(evs, Event{OwnerID: "o", Seq: int64(100 - i), At: at, Note: fmt.Sprint(i)})
	}
	must(t, s.PutEvents(ctx, evs))
	idx := func(es []Event) []int {
		var out []int
		for _, e := range es {
			i := slices.IndexFunc(times, func(t time.Time) bool { return t.Equal(e.At) })
			if i < 0 || e.Note != fmt.Sprint(i) {
				out = append(out, -1)
				continue
			}
			out = append(out, i)
		}
		return out
	}
	sel := func(keep func(time.Time) bool) []int {
		var out []int
		for i, at := range times {
			if keep(at) {
				out = append(out, i)
			}
		}
		return out
	}
	rev := func(s []int) []int { s = slices.Clone(s); slices.Reverse(s); return s }
	for _, x := range []time.Time{times[0], base, base.Add(time.Nanosecond), base.Add(500 * time.Millisecond), base.Add(499 * time.Millisecond), times[len(times)-1]} {
		lo := base.Add(-time.Second)
		for _, tc := range []struct {
			name string
			got  []Event
			want []int
		}{
			{"EventsAtBefore", collect(t, s.EventsAtBeforeAll(ctx, EventsAtBeforeParams{OwnerID: "o", At: x})), sel(func(a time.Time) bool { return a.Before(x) })},
			{"EventsAtUpTo", collect(t, s.EventsAtUpToAll(ctx, EventsAtUpToParams{OwnerID: "o", At: x})), sel(func(a time.Time) bool { return !a.After(x) })},
			{"EventsAtAfter", collect(t, s.EventsAtAfterAll(ctx, EventsAtAfterParams{OwnerID: "o", At: x})), sel(func(a time.Time) bool { return a.After(x) })},
			{"EventsAtFrom", collect(t, s.EventsAtFromAll(ctx, EventsAtFromParams{OwnerID: "o", At: x})), sel(func(a time.Time) bool { return !a.Before(x) })},
			{"EventsAtBetween(lo, x)", collect(t, s.EventsAtBetweenAll(ctx, EventsAtBetweenParams{OwnerID: "o", AtFrom: lo, AtTo: x})), rev(sel(func(a time.Time) bool { return !a.Before(lo) && !a.After(x) }))},
		} {
			if got := idx(tc.got); !slices.Equal(got, tc.want) {
				t.Errorf("%s(%s) = %v, want %v", tc.name, x.Format(time.RFC3339Nano), got, tc.want)
			}
		}
	}
	// Times that have no key.
	if _, err := s.EventsAtFrom(ctx, EventsAtFromParams{OwnerID: "o", At: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)}, Page{}); !errors.Is(err, ErrInvalidKey) {
		t.Errorf("EventsAtFrom year 10000: %v, want ErrInvalidKey", err)
	}
	// A time with no four-digit year can't be in a key: the write is
	// refused as the query is, with ErrInvalidKey.
	if err := s.PutEvent(ctx, &Event{OwnerID: "o", Seq: 1, At: time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC)}); !errors.Is(err, ErrInvalidKey) {
		t.Errorf("PutEvent year -1: %v, want ErrInvalidKey", err)
	}
}

func TestReadings(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t, nil)
	ctx := t.Context()
	seqs := []int64{minInt, -100, -11, -10, -9, -2, -1, 0, 1, 2, 9, 10, 11, 100, maxInt}
	var rs []Reading
	for i, n := range seqs {
		rs = append(rs, Reading{DeviceID: -3, Seq: n, Value: float64(n) / 4, At: time.UnixMilli(int64(i) * 1001), Unit: new("u")})
	}
	must(t, s.PutReadings(ctx, rs))
	must(t, s.SaveReading(ctx, &Reading{DeviceID: 4, Seq: 0, Value: 1, At: time.UnixMilli(5)}))
	seqOf := func(rs []Reading) []int64 {
		var out []int64
		for _, r := range rs {
			out = append(out, r.Seq)
		}
		return out
	}
	sel := func(keep func(int64) bool) []int64 {
		var out []int64
		for _, n := range seqs {
			if keep(n) {
				out = append(out, n)
			}
		}
		return out
	}
	for _, x := range []int64{minInt, -10, -1, 0, 10, maxInt} {
		got := seqOf(collect(t, s.ReadingsBetweenAll(ctx, ReadingsBetweenParams{DeviceID: -3, SeqFrom: x, SeqTo: 10})))
		if want := sel(func(n int64) bool { return x <= n && n <= 10 }); !slices.Equal(got, want) {
			t.Errorf("ReadingsBetween(%d, 10) = %v, want %v", x, got, want)
		}
		got = seqOf(collect(t, s.ReadingsBeforeAll(ctx, ReadingsBeforeParams{DeviceID: -3, Seq: x})))
		want := sel(func(n int64) bool { return n < x })
		slices.Reverse(want)
		if !slices.Equal(got, want) {
			t.Errorf("ReadingsBefore(%d) = %v, want %v", x, got, want)
		}
		got = seqOf(collect(t, s.ReadingsFromAll(ctx, ReadingsFromParams{DeviceID: -3, Seq: x})))
		if want := sel(func(n int64) bool { return n >= x }); !slices.Equal(got, want) {
			t.Errorf("ReadingsFrom(%d) = %v, want %v", x, got, want)
		}
	}
	res, err := s.ReadingsFrom(ctx, ReadingsFromParams{DeviceID: -3, Seq: minInt}, Page{})
	must(t, err)
	if len(res.Items) != 5 || res.Next == "" {
		t.Errorf("ReadingsFrom with the pattern's limit 5: %d items, next %q", len(res.Items), res.Next)
	}
	for i, r := range res.Items {
		checkReading(t, "ReadingsFrom", r, rs[i])
	}
	r, err := s.GetReading(ctx, ReadingKey{DeviceID: -3, Seq: maxInt})
	must(t, err)
	checkReading(t, "GetReading", *r, rs[len(rs)-1])
	if _, err := s.GetReading(ctx, ReadingKey{DeviceID: -3, Seq: 3}); !errors.Is(err, ErrNotFound) {
		t.Errorf("GetReading of a missing reading: %v, want ErrNotFound", err)
	}
}

// ---- partitions shared by several entities --------------------------------------

func TestForeignEntities(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t, nil)
	ctx := t.Context()
	for _, id := range []string{"a", "b"} {
		must(t, s.CreateWidget(ctx, newWidget("o", id)))
	}
	for i := range 5 {
		must(t, s.CreateNote(ctx, &Note{OwnerID: "o", NoteID: fmt.Sprint("n", i), Text: "note", Type: NoteTypePlain}))
		// Pins sort among the notes: NOTE#N... < NOTE#PIN#... < NOTE#n...
		must(t, s.CreatePin(ctx, &Pin{OwnerID: "o", PinID: fmt.Sprint("p", i), Label: "pin", Folder: []string{"f", fmt.Sprint(i)}}))
		must(t, s.CreateNote(ctx, &Note{OwnerID: "o", NoteID: fmt.Sprint("Z", i), Text: "note", Type: NoteTypeRich}))
		must(t, s.PutEvent(ctx, &Event{OwnerID: "o", Seq: int64(i), At: time.Unix(int64(i), 0), Note: "e"}))
	}
	// Each page size, down to one item a page: a page may hold only
	// foreign items, and is then empty but not the last.
	for _, limit := range []int{0, 1, 2, 3, 7} {
		var notes []Note
		for cur, n := Cursor(""), 0; ; n++ {
			res, err := s.Notes(ctx, "o", Page{Cursor: cur, Limit: limit})
			must(t, err)
			notes = append(notes, res.Items...)
			if res.Next == "" {
				break
			}
			if n > 100 {
				t.Fatal("Notes does not end")
			}
			cur = res.Next
		}
		if len(notes) != 10 {
			t.Errorf("Notes with limit %d: %d notes, want 10", limit, len(notes))
		}
		for _, n := range notes {
			if n.Text != "note" || !strings.HasPrefix(n.NoteID, "n") && !strings.HasPrefix(n.NoteID, "Z") {
				t.Errorf("Notes with limit %d returned %+v", limit, n)
			}
		}
		var ws, ns int
		for cur, n := Cursor(""), 0; ; n++ {
			res, err := s.OwnerPage(ctx, "o", Page{Cursor: cur, Limit: limit})
			must(t, err)
			ws += len(res.Widgets)
			ns += len(res.Notes)
			for _, w := range res.Widgets {
				if !strings.HasPrefix(w.Name, "widget") {
					t.Errorf("OwnerPage: a widget %+v", w)
				}
			}
			for _, n := range res.Notes {
				if n.Text != "note" {
					t.Errorf("OwnerPage: a note %+v", n)
				}
			}
			if res.Next == "" {
				break
			}
			if n > 100 {
				t.Fatal("OwnerPage does not end")
			}
			cur = res.Next
		}
		if ws != 2 || ns != 10 {
			t.Errorf("OwnerPage with limit %d: %d widgets, %d notes; want 2, 10", limit, ws, ns)
		}
	}
	pins := collect(t, s.PinsAll(ctx, "o"))
	if len(pins) != 5 {
		t.Errorf("Pins: %d, want 5", len(pins))
	}
	for i, p := range pins {
		if p.Label != "pin" || !slices.Equal(p.Folder, []string{"f", fmt.Sprint(i)}) {
			t.Errorf("Pins[%d] = %+v", i, p)
		}
	}
	if evs := collect(t, s.EventsAll(ctx, "o")); len(evs) != 5 {
		t.Errorf("Events: %d, want 5", len(evs))
	}
	if ws := collect(t, s.ActiveWidgetsAll(ctx, "o")); len(ws) != 2 {
		t.Errorf("ActiveWidgets: %d, want 2", len(ws))
	}
	// A pin's key is not a note's.
	if _, err := s.GetNote(ctx, NoteKey{OwnerID: "o", NoteID: "PIN#p0"}); !errors.Is(err, ErrInvalidKey) {
		t.Errorf("GetNote of a pin's key: %v, want ErrInvalidKey", err)
	}
}

// ---- hostile keys ------------------------------------------------------------

func TestHostileKeys(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t, nil)
	ctx := t.Context()
	isKeyErr := func(what string, err error) {
		t.Helper()
		var ke *KeyError
		if !errors.Is(err, ErrInvalidKey) || !errors.As(err, &ke) {
			t.Errorf("%s: %v, want a KeyError (ErrInvalidKey)", what, err)
		}
	}
	for _, bad := range []string{"", "a#b", "#", "WIDGET#x", strings.Repeat("x", 3000)} {
		w := newWidget(bad, "w")
		isKeyErr(fmt.Sprintf("CreateWidget with owner %.20q", bad), s.CreateWidget(ctx, w))
		w = newWidget("o", bad)
		isKeyErr(fmt.Sprintf("CreateWidget with id %.20q", bad), s.CreateWidget(ctx, w))
		_, err := s.GetWidget(ctx, WidgetKey{OwnerID: "o", WidgetID: bad})
		isKeyErr(fmt.Sprintf("GetWidget %.20q", bad), err)
		_, err = s.Notes(ctx, bad, Page{})
		isKeyErr(fmt.Sprintf("Notes %.20q", bad), err)
		_, err = s.EditWidget(ctx, EditWidgetParams{OwnerID: bad, WidgetID: "w", Name: "n", Price: 1, Tags: nil, Attrs: nil, Extra: &types.AttributeValueMemberNULL{Value: true}, ExpiresAt: nil, Count: 0, Labels: []string{"a"}, Sizes: []int64{1}, Version: 1})
		isKeyErr(fmt.Sprintf("EditWidget %.20q", bad), err)
		isKeyErr(fmt.Sprintf("DeleteNote %.20q", bad), s.DeleteNote(ctx, NoteKey{OwnerID: "o", NoteID: bad}))
		_, err = s.GetEvents(ctx, []EventKey{{"o", 1}, {bad, 1}})
		isKeyErr(fmt.Sprintf("GetEvents %.20q", bad), err)
		isKeyErr(fmt.Sprintf("PutEvents %.20q", bad), s.PutEvents(ctx, []Event{{OwnerID: bad, At: time.Unix(0, 0)}}))
		isKeyErr(fmt.Sprintf("DeleteEvents %.20q", bad), s.DeleteEvents(ctx, []EventKey{{bad, 1}}))
	}
	// A GSI key value with the separator.
	w := newWidget("o", "w")
	w.Region = new("eu#west")
	isKeyErr("CreateWidget with a region holding #", s.CreateWidget(ctx, w))
	w.Region, w.Serial = new("eu"), "S#1"
	isKeyErr("CreateWidget with a serial holding #", s.CreateWidget(ctx, w))
	// Invalid UTF-8 can't be in a key.
	isKeyErr("CreateWidget with invalid UTF-8", s.CreateWidget(ctx, newWidget("o", "\xff")))
	// A category path element with the path's separator is refused; it
	// can't make the LSI key of another widget.
	w = newWidget("o", "w")
	w.Category = []string{"a/b"}
	if err := s.CreateWidget(ctx, w); !errors.Is(err, ErrInvalidItem) && !errors.Is(err, ErrInvalidKey) {
		t.Errorf("CreateWidget with a category element holding /: %v, want ErrInvalidItem or ErrInvalidKey", err)
	}
	w.Category = nil
	isKeyErr("CreateWidget with an empty category", s.CreateWidget(ctx, w))

	// Keys at DynamoDB's limits: 1024 bytes for a sort key. PK is the
	// sort key of the inverted index, SK its partition key.
	for _, n := range []int{1000, 1018, 1019, 1500, 2042, 2043} {
		owner := strings.Repeat("o", n)
		err := s.CreateWidget(ctx, newWidget(owner, "w"))
		if len("OWNER#")+n <= 1024 {
			if err != nil {
				t.Errorf("CreateWidget with a %d-byte PK: %v", len("OWNER#")+n, err)
			}
		} else {
			isKeyErr(fmt.Sprintf("CreateWidget with a %d-byte PK", len("OWNER#")+n), err)
		}
		id := strings.Repeat("i", n)
		err = s.CreateWidget(ctx, newWidget("o", id))
		if len("WIDGET#")+n <= 1024 {
			if err != nil {
				t.Errorf("CreateWidget with a %d-byte SK: %v", len("WIDGET#")+n, err)
			}
		} else {
			isKeyErr(fmt.Sprintf("CreateWidget with a %d-byte SK", len("WIDGET#")+n), err)
		}
	}

	// Unicode is fine, and comes back as written.
	for _, id := range []string{"ünïcødé", "日本語", "🎉 party", "tab\there", "a b", "ＷＩＤＧＥＴ＃", "\u0000nul"} {
		w := newWidget("ø"+id, id)
		w.Region, w.Serial = new(id), id
		w.Category = []string{id, id}
		must(t, s.CreateWidget(ctx, w))
		got, err := s.GetWidget(ctx, WidgetKey{OwnerID: "ø" + id, WidgetID: id})
		must(t, err)
		checkWidget(t, fmt.Sprintf("GetWidget %q", id), got, w)
		got, err = s.WidgetBySerial(ctx, WidgetBySerialParams{Region: id, Serial: id})
		must(t, err)
		checkWidget(t, fmt.Sprintf("WidgetBySerial %q", id), got, w)
		res, err := s.WidgetsInCategory(ctx, WidgetsInCategoryParams{OwnerID: "ø" + id, Category: []string{id}}, Page{})
		must(t, err)
		if len(res.Items) != 1 {
			t.Errorf("WidgetsInCategory %q: %d items", id, len(res.Items))
		}
	}
}

// ---- cursors -------------------------------------------------------------------

func TestCursors(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t, nil)
	ctx := t.Context()
	var evs []Event
	for i := range 10 {
		evs = append(evs, Event{OwnerID: "o", Seq: int64(i), At: time.Unix(int64(i), 0), Note: "e"})
		evs = append(evs, Event{OwnerID: "p", Seq: int64(i), At: time.Unix(int64(i), 0), Note: "e"})
	}
	must(t, s.PutEvents(ctx, evs))
	res, err := s.Events(ctx, "o", Page{Limit: 4})
	must(t, err)
	if res.Next == "" {
		t.Fatal("Events with Limit 4 of 10: no next page")
	}
	cur := res.Next
	// The cursor works where it comes from.
	next, err := s.Events(ctx, "o", Page{Cursor: cur, Limit: 4})
	must(t, err)
	if got := seqsOf(next.Items); !slices.Equal(got, []int64{4, 5, 6, 7}) {
		t.Errorf("the page after the cursor = %v", got)
	}
	refused := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, ErrInvalidCursor) {
			t.Errorf("%s: %v, want ErrInvalidCursor", what, err)
		}
	}
	_, err = s.Events(ctx, "p", Page{Cursor: cur})
	refused("a cursor of another partition", err)
	_, err = s.EventsDesc(ctx, "o", Page{Cursor: cur})
	refused("a cursor of another pattern (EventsDesc)", err)
	_, err = s.EventsUpTo(ctx, EventsUpToParams{OwnerID: "o", Seq: 100}, Page{Cursor: cur})
	refused("a cursor of another pattern (EventsUpTo)", err)
	_, err = s.Notes(ctx, "o", Page{Cursor: cur})
	refused("a cursor of another entity's pattern", err)
	_, err = s.ReadingsFrom(ctx, ReadingsFromParams{DeviceID: 1, Seq: 0}, Page{Cursor: cur})
	refused("a cursor of another table's pattern", err)
	// Tampered cursors: each byte changed, cut, lengthened, not base64.
	// A character is changed in its top bit, which is never one of the
	// last character's unused low bits.
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	for i := range len(cur) {
		b := []byte(cur)
		b[i] = alphabet[strings.IndexByte(alphabet, b[i])^32]
		_, err := s.Events(ctx, "o", Page{Cursor: Cursor(b)})
		refused(fmt.Sprintf("a cursor with byte %d changed", i), err)
	}
	for _, bad := range []Cursor{cur[:len(cur)-1], cur[:len(cur)/2], cur + "A", cur + "AAAA", "!!!!", "x", Cursor(strings.Repeat("A", 200))} {
		_, err := s.Events(ctx, "o", Page{Cursor: bad})
		refused(fmt.Sprintf("cursor %.30q", bad), err)
	}
	// The errors of the iterators too.
	for _, err := range s.EventsAll(ctx, "") {
		if !errors.Is(err, ErrInvalidKey) {
			t.Errorf("EventsAll with an empty owner: %v, want ErrInvalidKey", err)
		}
	}
}

// ---- batches -------------------------------------------------------------------

func TestBatches(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t, nil)
	ctx := t.Context()
	var evs []Event
	for i := range 250 {
		evs = append(evs, Event{OwnerID: fmt.Sprint("o", i%3), Seq: int64(i - 125), At: time.Unix(0, int64(i)), Note: fmt.Sprint(i)})
	}
	// A key given twice: the last item is written.
	dup := evs[7]
	dup.Note = "last"
	must(t, s.PutEvents(ctx, append(slices.Clone(evs), dup)))
	evs[7] = dup

	keyOf := func(e Event) EventKey { return EventKey{e.OwnerID, e.Seq} }
	var keys []EventKey
	var want []Event
	for i := len(evs) - 1; i >= 0; i -= 2 { // reverse order, every other one
		keys = append(keys, keyOf(evs[i]))
		want = append(want, evs[i])
		if i%10 == 1 {
			keys = append(keys, EventKey{"o0", 1_000_000 + int64(i)}) // missing
			keys = append(keys, keyOf(evs[i]))                        // a duplicate
		}
	}
	keys = append(keys, keyOf(evs[len(evs)-1])) // the first key again, last
	got, err := s.GetEvents(ctx, keys)
	must(t, err)
	if len(got) != len(want) {
		t.Fatalf("GetEvents: %d items, want %d", len(got), len(want))
	}
	for i := range want {
		checkEvent(t, fmt.Sprintf("GetEvents[%d]", i), got[i], want[i])
	}
	if got, err := s.GetEvents(ctx, nil); err != nil || len(got) != 0 {
		t.Errorf("GetEvents(nil) = %v, %v", got, err)
	}
	if got, err := s.GetEvents(ctx, []EventKey{{"nobody", 1}}); err != nil || len(got) != 0 {
		t.Errorf("GetEvents of a missing key = %v, %v", got, err)
	}

	// Delete every third, with duplicates and missing keys.
	var del []EventKey
	var left []Event
	for i, e := range evs {
		if i%3 == 0 {
			del = append(del, keyOf(e), keyOf(e), EventKey{"nobody", int64(i)})
		} else {
			left = append(left, e)
		}
	}
	must(t, s.DeleteEvents(ctx, del))
	all := append(append(collect(t, s.EventsAll(ctx, "o0")), collect(t, s.EventsAll(ctx, "o1"))...), collect(t, s.EventsAll(ctx, "o2"))...)
	if len(all) != len(left) {
		t.Fatalf("after DeleteEvents: %d events, want %d", len(all), len(left))
	}
	byKey := map[EventKey]Event{}
	for _, e := range all {
		byKey[keyOf(e)] = e
	}
	for _, e := range left {
		g, ok := byKey[keyOf(e)]
		if !ok {
			t.Errorf("event %v deleted", keyOf(e))
			continue
		}
		checkEvent(t, "after DeleteEvents", g, e)
	}
	must(t, s.DeleteEvents(ctx, nil))
	must(t, s.PutEvents(ctx, nil))

	// The natural-key table.
	var rs []Reading
	var rkeys []ReadingKey
	for i := range 120 {
		r := Reading{DeviceID: int64(i%4 - 2), Seq: int64(60 - i), Value: float64(i) * 1.25, At: time.UnixMilli(int64(i) * 999)}
		rs = append(rs, r)
		rkeys = append(rkeys, ReadingKey{r.DeviceID, r.Seq})
	}
	must(t, s.PutReadings(ctx, rs))
	slices.Reverse(rkeys)
	gotR, err := s.GetReadings(ctx, append(rkeys, ReadingKey{99, 99}))
	must(t, err)
	if len(gotR) != len(rs) {
		t.Fatalf("GetReadings: %d, want %d", len(gotR), len(rs))
	}
	for i, r := range gotR {
		checkReading(t, fmt.Sprintf("GetReadings[%d]", i), r, rs[len(rs)-1-i])
	}
	must(t, s.DeleteReadings(ctx, rkeys[:100]))
	gotR, err = s.GetReadings(ctx, rkeys)
	must(t, err)
	if len(gotR) != 20 {
		t.Errorf("GetReadings after deleting 100 of 120: %d", len(gotR))
	}
}

// ---- pages of DynamoDB's 1 MB --------------------------------------------------

func TestPagination(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t, nil)
	ctx := t.Context()
	// Items of about 1 KB, a little over 2 MB of them: DynamoDB's pages of
	// 1 MB make three pages.
	const n = 2100
	pad := strings.Repeat("x", 1000)
	evs := make([]Event, n)
	for i := range evs {
		evs[i] = Event{OwnerID: "big", Seq: int64(i - n/2), At: time.Unix(1_600_000_000, int64(i)*1000), Note: fmt.Sprintf("%05d%s", i, pad)}
	}
	// Written in an order of their own.
	shuffled := slices.Clone(evs)
	for i := range shuffled {
		j := (i * 7919) % n
		shuffled[i], shuffled[j] = shuffled[j], shuffled[i]
	}
	must(t, s.PutEvents(ctx, shuffled))
	must(t, s.CreateWidget(ctx, newWidget("big", "w"))) // a foreign item after the events

	check := func(what string, got []Event, want []Event) {
		t.Helper()
		if len(got) != len(want) {
			t.Errorf("%s: %d items, want %d", what, len(got), len(want))
		}
		seen := map[int64]bool{}
		for i, e := range got {
			if seen[e.Seq] {
				t.Errorf("%s: seq %d twice", what, e.Seq)
			}
			seen[e.Seq] = true
			if i < len(want) && (e.Seq != want[i].Seq || e.Note != want[i].Note || !e.At.Equal(want[i].At)) {
				t.Fatalf("%s: item %d is seq %d, want %d", what, i, e.Seq, want[i].Seq)
			}
		}
	}
	check("EventsAll", collect(t, s.EventsAll(ctx, "big")), evs)

	// Explicit pages without a limit: DynamoDB's 1 MB pages.
	var got []Event
	pages := 0
	for cur := Cursor(""); ; {
		res, err := s.Events(ctx, "big", Page{Cursor: cur})
		must(t, err)
		pages++
		got = append(got, res.Items...)
		if res.Next == "" {
			break
		}
		cur = res.Next
	}
	check("Events by 1 MB pages", got, evs)
	if pages < 3 {
		t.Errorf("Events read %d items of 1 KB in %d pages; DynamoDB's pages hold 1 MB", n, pages)
	}
	// Pages of a limit, descending.
	rev := slices.Clone(evs)
	slices.Reverse(rev)
	got = got[:0]
	pages = 0
	for cur := Cursor(""); ; {
		res, err := s.EventsDesc(ctx, "big", Page{Cursor: cur, Limit: 777})
		must(t, err)
		pages++
		if len(res.Items) > 777 {
			t.Fatalf("EventsDesc with Limit 777 returned %d", len(res.Items))
		}
		got = append(got, res.Items...)
		if res.Next == "" {
			break
		}
		cur = res.Next
	}
	check("EventsDesc by pages of 777", got, rev)
	if want := (n + 776) / 777; pages < want {
		t.Errorf("EventsDesc by pages of 777: %d pages, want %d", pages, want)
	}
	// The iterator stops when told.
	k := 0
	for _, err := range s.EventsDescAll(ctx, "big") {
		must(t, err)
		if k++; k == 1200 {
			break
		}
	}
	// A range over several pages.
	check("EventsBetween", collect(t, s.EventsBetweenAll(ctx, EventsBetweenParams{OwnerID: "big", SeqFrom: -1000, SeqTo: 1000})), evs[n/2-1000:n/2+1001])
	check("EventsAtFrom", collect(t, s.EventsAtFromAll(ctx, EventsAtFromParams{OwnerID: "big", At: evs[100].At})), evs[100:])
	// The same items in one batchGet of more than 100 keys.
	keys := make([]EventKey, n)
	for i, e := range evs {
		keys[i] = EventKey{e.OwnerID, e.Seq}
	}
	batch, err := s.GetEvents(ctx, keys)
	must(t, err)
	check("GetEvents", batch, evs)
}

func TestConsistentReads(t *testing.T) {
	t.Parallel()
	rec := &consistency{seen: map[string]bool{}}
	s, _ := newStore(t, func(c Client) Client { rec.Client = c; return rec })
	ctx := t.Context()
	must(t, s.PutEvent(ctx, &Event{OwnerID: "o", Seq: 1, At: time.Unix(1, 0), Note: "n"}))
	must(t, s.SaveReading(ctx, &Reading{DeviceID: 1, Seq: 1, Value: 1, At: time.UnixMilli(1)}))
	if res, err := s.Events(ctx, "o", Page{}); err != nil || len(res.Items) != 1 {
		t.Fatalf("Events: %v, %v", res, err)
	}
	if !rec.seen["Query "] {
		t.Error("Events (consistent: true) did not ask for a consistent read")
	}
	if _, err := s.EventsDesc(ctx, "o", Page{}); err != nil || rec.seen["Query "] {
		t.Errorf("EventsDesc asked for a consistent read (%v)", err)
	}
	if rs, err := s.GetReadings(ctx, []ReadingKey{{1, 1}}); err != nil || len(rs) != 1 {
		t.Fatalf("GetReadings: %v, %v", rs, err)
	}
	if !rec.seen["BatchGetItem"] {
		t.Error("GetReadings (consistent: true) did not ask for a consistent read")
	}
	if _, err := s.GetEvents(ctx, []EventKey{{"o", 1}}); err != nil || rec.seen["BatchGetItem"] {
		t.Errorf("GetEvents asked for a consistent read (%v)", err)
	}
}

// queryRecorder records the Query calls a store makes and what each read.
type queryRecorder struct {
	Client
	mu      sync.Mutex
	limits  []int32
	scanned []int32
}

func (r *queryRecorder) Query(ctx context.Context, in *dynamodb.QueryInput, opts ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	out, err := r.Client.Query(ctx, in, opts...)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.limits = append(r.limits, aws.ToInt32(in.Limit))
	if out != nil {
		r.scanned = append(r.scanned, out.ScannedCount)
	}
	return out, err
}

// TestGetThroughIndexReadsOneItem checks that a get through an index key
// several items share reads one item, in one call, and returns one of
// them.
func TestGetThroughIndexReadsOneItem(t *testing.T) {
	t.Parallel()
	rec := &queryRecorder{}
	s, _ := newStore(t, func(c Client) Client { rec.Client = c; return rec })
	ctx := context.Background()
	ids := map[string]bool{}
	for i := range 5 {
		w := newWidget("o1", fmt.Sprintf("w%d", i))
		w.Region, w.Serial = new("eu"), "shared"
		must(t, s.CreateWidget(ctx, w))
		ids[w.WidgetID] = true
	}
	got, err := s.WidgetBySerial(ctx, WidgetBySerialParams{Region: "eu", Serial: "shared"})
	must(t, err)
	if !ids[got.WidgetID] || got.Region == nil || *got.Region != "eu" || got.Serial != "shared" {
		t.Errorf("WidgetBySerial = widget %q of region %s, serial %q; want one of the five", got.WidgetID, show(got.Region), got.Serial)
	}
	if !slices.Equal(rec.limits, []int32{1}) || !slices.Equal(rec.scanned, []int32{1}) {
		t.Errorf("Query calls with limits %v read %v items; want one call, Limit 1, reading 1 item", rec.limits, rec.scanned)
	}
}

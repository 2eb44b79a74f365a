package e2e

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Stored values of the items that can't be decoded; no error may hold
// one.
const (
	badName    = "9876543210123" // a Widget's name stored as N
	badText    = "5551234567"    // a Note's text stored as N
	badEventAt = "SECRET-at-zq7" // an Event's time that is no RFC 3339 time
)

// putRaw writes item to table with the raw client, past the generated
// code's checks.
func putRaw(t *testing.T, c *dynamodb.Client, table string, item map[string]types.AttributeValue) {
	t.Helper()
	if _, err := c.PutItem(t.Context(), &dynamodb.PutItemInput{TableName: &table, Item: item}); err != nil {
		t.Fatal(err)
	}
}

// marshal is the item of v, with change applied.
func marshal(t *testing.T, v interface {
	MarshalItem() (map[string]types.AttributeValue, error)
}, change func(map[string]types.AttributeValue)) map[string]types.AttributeValue {
	t.Helper()
	item, err := v.MarshalItem()
	if err != nil {
		t.Fatal(err)
	}
	change(item)
	return item
}

// methodOf is the Store method an error names, "" when none does: a
// BatchError's, or the one a method's error starts with ("dyngen:
// GetWidget: ...").
func methodOf(err error) string {
	var be *BatchError
	if errors.As(err, &be) {
		return be.Method
	}
	rest, ok := strings.CutPrefix(err.Error(), "dyngen: ")
	method, _, found := strings.Cut(rest, ": ")
	if !ok || !found || method == "" || strings.ContainsAny(method, " .") {
		return ""
	}
	return method
}

// noStoredValue fails when the message of err holds a stored value.
func noStoredValue(t *testing.T, what string, err error) {
	t.Helper()
	if err == nil {
		return
	}
	for _, v := range []string{badName, badText, badEventAt} {
		if strings.Contains(err.Error(), v) {
			t.Errorf("%s: %q holds the stored value %q", what, err, v)
		}
	}
}

// at is an item a DecodeError lists: its position and the attribute
// that can't be decoded.
type at struct {
	pos  int
	attr string
}

// checkDecodeErr checks that err is method's DecodeError listing the
// items want.
func checkDecodeErr(t *testing.T, what, method string, err error, want ...at) {
	t.Helper()
	noStoredValue(t, what, err)
	var de *DecodeError
	var ie *ItemError
	if !errors.As(err, &de) || !errors.Is(err, ErrInvalidItem) || !errors.As(err, &ie) || methodOf(err) != method {
		t.Errorf("%s: %v, want a DecodeError of %s", what, err, method)
		return
	}
	var got []at
	for _, u := range de.Items {
		if u.Err == nil || !slices.Equal(u.KeyAttrs, []string{"PK", "SK"}) {
			t.Errorf("%s: item %d: %+v, want an ItemError and key PK, SK", what, u.Position, u)
			continue
		}
		got = append(got, at{u.Position, u.Err.Attr})
	}
	if !slices.Equal(got, want) {
		t.Errorf("%s: undecoded items %v, want %v", what, got, want)
	}
}

// checkItemErr checks that err is method's error over the ItemError of
// attribute attr: the error of a read of one item that can't be decoded.
func checkItemErr(t *testing.T, what, method string, err error, attr string) {
	t.Helper()
	noStoredValue(t, what, err)
	var ie *ItemError
	if !errors.Is(err, ErrInvalidItem) || !errors.As(err, &ie) || ie.Attr != attr || methodOf(err) != method {
		t.Errorf("%s: %v, want %s's ItemError on %s", what, err, method, attr)
	}
	if !strings.Contains(fmt.Sprint(err), method+": ") {
		t.Errorf("%s: %q does not name %s", what, err, method)
	}
}

func widgetIDs(ws []Widget) []string {
	var out []string
	for _, w := range ws {
		out = append(out, w.WidgetID)
	}
	return out
}

// TestUndecodableItems writes, with the raw client, items that can't be
// decoded among good ones, and checks that every read returns the good
// ones and lists the others, by position, in a DecodeError; a read of one
// such item is an ItemError naming the method.
func TestUndecodableItems(t *testing.T) {
	t.Parallel()
	s, c := newStore(t, nil)
	ctx := t.Context()
	for _, id := range []string{"w1", "w2", "w3"} {
		must(t, s.CreateWidget(ctx, newWidget("o", id)))
	}
	bad := newWidget("o", "w2b")
	bad.Region, bad.Serial = new("bad"), "S-bad"
	putRaw(t, c, s.mainTable, marshal(t, bad, func(item map[string]types.AttributeValue) {
		item["name"] = &types.AttributeValueMemberN{Value: badName}
	}))
	must(t, s.CreateNote(ctx, &Note{OwnerID: "o", NoteID: "n1", Text: "good", Type: NoteTypePlain}))
	putRaw(t, c, s.mainTable, marshal(t, &Note{OwnerID: "o", NoteID: "n2", Text: "x", Type: NoteTypePlain}, func(item map[string]types.AttributeValue) {
		item["text"] = &types.AttributeValueMemberN{Value: badText}
	}))

	// Query of one entity: WIDGET#w1, w2, w2b, w3.
	res, err := s.ActiveWidgets(ctx, "o", Page{})
	if res == nil || !slices.Equal(widgetIDs(res.Items), []string{"w1", "w2", "w3"}) {
		t.Fatalf("ActiveWidgets: %+v, %v; want w1, w2, w3", res, err)
	}
	checkDecodeErr(t, "ActiveWidgets", "ActiveWidgets", err, at{2, "name"})
	// A query that drops another entity's items (Pin) by type.
	notes, err := s.Notes(ctx, "o", Page{})
	if notes == nil || len(notes.Items) != 1 || notes.Items[0].NoteID != "n1" {
		t.Errorf("Notes: %+v, %v; want n1", notes, err)
	}
	checkDecodeErr(t, "Notes", "Notes", err, at{1, "text"})
	// A view (select).
	names, err := s.WidgetNames(ctx, "o", Page{})
	if names == nil || len(names.Items) != 3 {
		t.Errorf("WidgetNames: %+v, %v; want 3 items", names, err)
	}
	checkDecodeErr(t, "WidgetNames", "WidgetNames", err, at{2, "name"})
	// A collection: NOTE#n1, n2, WIDGET#w1, w2, w2b, w3.
	page, err := s.OwnerPage(ctx, "o", Page{})
	if page == nil || len(page.Notes) != 1 || !slices.Equal(widgetIDs(page.Widgets), []string{"w1", "w2", "w3"}) {
		t.Fatalf("OwnerPage: %+v, %v", page, err)
	}
	checkDecodeErr(t, "OwnerPage", "OwnerPage", err, at{1, "text"}, at{4, "name"})

	// The iterators yield the good items and the error, and go on.
	var got []string
	for w, err := range s.ActiveWidgetsAll(ctx, "o") {
		if err != nil {
			checkDecodeErr(t, "ActiveWidgetsAll", "ActiveWidgets", err, at{2, "name"})
			got = append(got, "error")
			continue
		}
		got = append(got, w.WidgetID)
	}
	if want := []string{"w1", "w2", "w3", "error"}; !slices.Equal(got, want) {
		t.Errorf("ActiveWidgetsAll yields %v, want %v", got, want)
	}
	var pages int
	var de *DecodeError
	for p, err := range s.OwnerPageAll(ctx, "o") {
		pages++
		if p == nil || len(p.Widgets) != 3 || !errors.As(err, &de) {
			t.Errorf("OwnerPageAll: page %+v, %v; want the page with its DecodeError", p, err)
		}
	}
	if pages != 1 {
		t.Errorf("OwnerPageAll yields %d pages, want 1", pages)
	}

	// A read of one item that can't be decoded.
	_, err = s.GetWidget(ctx, WidgetKey{OwnerID: "o", WidgetID: "w2b"})
	checkItemErr(t, "GetWidget", "GetWidget", err, "name")
	_, err = s.WidgetBySerial(ctx, WidgetBySerialParams{Region: "bad", Serial: "S-bad"})
	checkItemErr(t, "WidgetBySerial", "WidgetBySerial", err, "name")
	_, err = s.GetNote(ctx, NoteKey{OwnerID: "o", NoteID: "n2"})
	checkItemErr(t, "GetNote", "GetNote", err, "text")
	// An update writes, then can't decode the item it returns.
	_, err = s.MoveWidget(ctx, MoveWidgetParams{OwnerID: "o", WidgetID: "w2b", Region: new("bad"), Serial: "S-bad2"})
	checkItemErr(t, "MoveWidget", "MoveWidget", err, "name")

	// A batch read: the position is the key's.
	items, err := s.WidgetNamesByKey(ctx, []WidgetKey{{"o", "w1"}, {"o", "w2b"}, {"o", "w3"}, {"o", "w2b"}, {"o", "none"}})
	if len(items) != 2 || items[0].WidgetID != "w1" || items[1].WidgetID != "w3" {
		t.Errorf("WidgetNamesByKey: %+v, want w1, w3", items)
	}
	checkDecodeErr(t, "WidgetNamesByKey", "WidgetNamesByKey", err, at{1, "name"})
}

// TestUndecodablePages checks that an iterator yields the error of an
// item that can't be decoded where its page ends, and goes on with the
// next pages; and that a batch read lists an event by its key's position.
func TestUndecodablePages(t *testing.T) {
	t.Parallel()
	s, c := newStore(t, nil)
	ctx := t.Context()
	when := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	for seq := int64(1); seq <= 7; seq++ {
		e := &Event{OwnerID: "e", Seq: seq, At: when, Note: "n"}
		if seq != 4 {
			must(t, s.PutEvent(ctx, e))
			continue
		}
		putRaw(t, c, s.mainTable, marshal(t, e, func(item map[string]types.AttributeValue) {
			item["at"] = &types.AttributeValueMemberS{Value: badEventAt}
		}))
	}
	// EventsDesc reads 3 a page: 7 6 5 | 4 3 2 | 1.
	var got []string
	for e, err := range s.EventsDescAll(ctx, "e") {
		if err != nil {
			checkDecodeErr(t, "EventsDescAll", "EventsDesc", err, at{0, "at"})
			got = append(got, "error")
			continue
		}
		got = append(got, fmt.Sprint(e.Seq))
	}
	if want := []string{"7", "6", "5", "3", "2", "error", "1"}; !slices.Equal(got, want) {
		t.Errorf("EventsDescAll yields %v, want %v", got, want)
	}
	// The page itself, with its cursor: the caller can go on.
	first, err := s.EventsDesc(ctx, "e", Page{})
	must(t, err)
	second, err := s.EventsDesc(ctx, "e", Page{Cursor: first.Next})
	if second == nil || !slices.Equal(seqsOf(second.Items), []int64{3, 2}) || second.Next == "" {
		t.Fatalf("EventsDesc, second page: %+v, %v", second, err)
	}
	checkDecodeErr(t, "EventsDesc", "EventsDesc", err, at{0, "at"})
	third, err := s.EventsDesc(ctx, "e", Page{Cursor: second.Next})
	if err != nil || !slices.Equal(seqsOf(third.Items), []int64{1}) {
		t.Errorf("EventsDesc, third page: %+v, %v", third, err)
	}

	evs, err := s.GetEvents(ctx, []EventKey{{"e", 1}, {"e", 2}, {"e", 4}, {"e", 3}})
	if !slices.Equal(seqsOf(evs), []int64{1, 2, 3}) {
		t.Errorf("GetEvents: %v, want 1, 2, 3", seqsOf(evs))
	}
	checkDecodeErr(t, "GetEvents", "GetEvents", err, at{2, "at"})
}

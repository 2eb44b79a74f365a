package stream

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	dyngen "github.com/dyngen/dyngen/generator/runtime"
	"github.com/dyngen/dyngen/internal/dynamotest"
)

// newStore makes the tables of the spec, with their streams, from the
// createTable output, and a Store on them.
func newStore(t *testing.T) (*Store, map[string]string) {
	t.Helper()
	c := dynamotest.Client(t)
	s := New(c, WithShopTable(dynamotest.TableName("Shop")), WithTagsTable(dynamotest.TableName("Tags")))
	names := map[string]string{}
	for _, table := range s.Tables() {
		dynamotest.MakeTableFromFiles(t, c, ".", table.Name, table.Create, table.TimeToLive)
		names[table.Name] = aws.ToString(table.Create.TableName)
	}
	return s, names
}

// readStream reads every record of table's stream through the DynamoDB
// Streams API, and converts them.
func readStream(t *testing.T, table string) []StreamRecord {
	t.Helper()
	records, err := dyngen.RecordsFromStreams(dynamotest.StreamRecords(t, table))
	if err != nil {
		t.Fatalf("RecordsFromStreams: %v", err)
	}
	return records
}

// describe writes a decoded change as one line a test compares: the
// entity or what dyngen writes, the operation, the key, and the images'
// fields that change.
func describe(t *testing.T, c Change) string {
	t.Helper()
	switch c := c.(type) {
	case *CustomerChange:
		return fmt.Sprintf("Customer %s %s old=%s new=%s", c.Op, c.Key.CustomerID, customerText(c.Old), customerText(c.New))
	case *OrderChange:
		return fmt.Sprintf("Order %s %s/%d old=%s new=%s", c.Op, c.Key.CustomerID, c.Key.OrderID, orderText(c.Old), orderText(c.New))
	case *TagChange:
		if c.Old != nil || c.New != nil {
			t.Errorf("a KEYS_ONLY record decoded with images: %+v", c)
		}
		return fmt.Sprintf("Tag %s %s/%d", c.Op, c.Key.Tag, c.Key.N)
	case *OwnChange:
		return fmt.Sprintf("%s %s %s", c.Own, c.Op, c.Entity)
	case *UnknownChange:
		return fmt.Sprintf("unknown %s", c.Op)
	}
	t.Fatalf("a change of type %T", c)
	return ""
}

func customerText(c *Customer) string {
	if c == nil {
		return "-"
	}
	return fmt.Sprintf("%s/%s/%s/%d", c.Email, c.Name, c.Tier, c.Rev)
}

func orderText(o *Order) string {
	if o == nil {
		return "-"
	}
	return fmt.Sprintf("%s/%g", o.Status, o.Total)
}

// decodeAll decodes every record of table's stream with decode.
func decodeAll(t *testing.T, records []StreamRecord, decode func(*StreamRecord) (Change, error)) []string {
	t.Helper()
	var out []string
	for i := range records {
		c, err := decode(&records[i])
		if err != nil {
			t.Fatalf("record %d: %v", i, err)
		}
		if c.Source() != &records[i] {
			t.Errorf("record %d: the change's Source is not its record", i)
		}
		out = append(out, describe(t, c))
	}
	return out
}

// TestStoreWritesDecoded writes through the Store (a create, updates, a
// transaction that claims a unique value and counts an order, deletes)
// and reads the table's stream back through the DynamoDB Streams API:
// every record decodes into exactly the change made, in order, each item
// dyngen writes (claims, counters) recognised as such.
func TestStoreWritesDecoded(t *testing.T) {
	s, names := newStore(t)
	ctx := context.Background()
	placed := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(s.CreateCustomer(ctx, &Customer{CustomerID: "ann", Email: "ann@example.com", Name: "Ann", Tier: CustomerTierFree}))
	_, err := s.RenameCustomer(ctx, RenameCustomerParams{CustomerID: "ann", CustomerRev: 1, Name: "Anne"})
	must(err)
	must(s.PutOrder(ctx, &Order{CustomerID: "ann", OrderID: 7, Status: OrderStatusOpen, Total: 12.5, PlacedAt: placed}))
	must(s.PayOrder(ctx, PayOrderParams{CustomerID: "ann", OrderID: 7}))
	must(s.PlaceFirstOrder(ctx, PlaceFirstOrderParams{
		Customer: &Customer{CustomerID: "bob", Email: "bob@example.com", Name: "Bob", Tier: CustomerTierPro},
		Order:    &Order{CustomerID: "bob", OrderID: 1, Status: OrderStatusOpen, Total: 3, PlacedAt: placed},
	}))
	must(s.ChangeEmail(ctx, ChangeEmailParams{CustomerID: "ann", CustomerRev: 2, Email: "anne@example.com"}))
	must(s.DeleteOrder(ctx, OrderKey{CustomerID: "ann", OrderID: 7}))
	must(s.DeleteCustomer(ctx, DeleteCustomerParams{CustomerID: "bob", CustomerRev: 1}))

	got := decodeAll(t, readStream(t, names["Shop"]), DecodeShopChange)
	want := []string{
		// CreateCustomer: the item and its claim, in one transaction.
		"Customer INSERT ann old=- new=ann@example.com/Ann/free/1",
		"unique claim INSERT CustomerEmailClaim",
		"Customer MODIFY ann old=ann@example.com/Ann/free/1 new=ann@example.com/Anne/free/2",
		// PutOrder: the order and its counter.
		"Order INSERT ann/7 old=- new=open/12.5",
		"counter INSERT OrdersByStatus",
		"Order MODIFY ann/7 old=open/12.5 new=paid/12.5",
		"counter MODIFY OrdersByStatus",
		// PlaceFirstOrder: a customer, its claim, an order, its counter.
		"Customer INSERT bob old=- new=bob@example.com/Bob/pro/1",
		"unique claim INSERT CustomerEmailClaim",
		"Order INSERT bob/1 old=- new=open/3",
		"counter INSERT OrdersByStatus",
		// ChangeEmail: the new claim taken, the old one released.
		"Customer MODIFY ann old=ann@example.com/Anne/free/2 new=anne@example.com/Anne/free/3",
		"unique claim INSERT CustomerEmailClaim",
		"unique claim REMOVE CustomerEmailClaim",
		"Order REMOVE ann/7 old=paid/12.5 new=-",
		"counter MODIFY OrdersByStatus",
		"Customer REMOVE bob old=bob@example.com/Bob/pro/1 new=-",
		"unique claim REMOVE CustomerEmailClaim",
	}
	// The stream orders the records of one item; a transaction's items
	// are written at once, in no order the stream promises. Compare each
	// transaction's records as a set, the calls in order.
	if !sameChanges(got, want) {
		t.Errorf("changes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// sameChanges reports whether got holds want's changes with each item's
// changes in want's order: the order a stream promises.
func sameChanges(got, want []string) bool {
	if len(got) != len(want) {
		return false
	}
	g, w := slices.Clone(got), slices.Clone(want)
	slices.Sort(g)
	slices.Sort(w)
	if !slices.Equal(g, w) {
		return false
	}
	// Per item (the part before old=), the order of want.
	perItem := func(list []string) map[string][]string {
		out := map[string][]string{}
		for _, c := range list {
			f := strings.Fields(c)
			key := f[0] + " " + f[len(f)-1]
			if len(f) > 3 {
				key = f[0] + " " + f[2]
			}
			out[key] = append(out[key], c)
		}
		return out
	}
	gi, wi := perItem(got), perItem(want)
	for k, w := range wi {
		if !slices.Equal(gi[k], w) {
			return false
		}
	}
	return true
}

// TestKeysOnly reads a KEYS_ONLY stream of a table keyed by its entity's
// own attributes: each record names its entity and key by the keys alone.
func TestKeysOnly(t *testing.T) {
	s, names := newStore(t)
	ctx := context.Background()
	if err := s.PutTag(ctx, &Tag{Tag: "red#1", N: -3}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.LabelTag(ctx, LabelTagParams{Tag: "red#1", N: -3, Label: ptr("warm")}); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteTag(ctx, TagKey{Tag: "red#1", N: -3}); err != nil {
		t.Fatal(err)
	}
	got := decodeAll(t, readStream(t, names["Tags"]), DecodeTagsChange)
	want := []string{"Tag INSERT red#1/-3", "Tag MODIFY red#1/-3", "Tag REMOVE red#1/-3"}
	if !slices.Equal(got, want) {
		t.Errorf("changes %q, want %q", got, want)
	}
}

func ptr[T any](v T) *T { return &v }

// recorder is a handler of every consumer that records what it is
// handed, and fails the changes fail names.
type recorder struct {
	got  []string
	fail func(c Change) bool
}

func (r *recorder) note(c Change, what string) error {
	if r.fail != nil && r.fail(c) {
		return errors.New("handler failed")
	}
	r.got = append(r.got, what)
	return nil
}

func (r *recorder) CustomerInserted(ctx context.Context, c *CustomerChange) error {
	return r.note(c, "inserted "+c.New.CustomerID)
}

func (r *recorder) CustomerModified(ctx context.Context, c *CustomerChange) error {
	return r.note(c, "modified "+c.New.CustomerID+" "+c.New.Name)
}

func (r *recorder) CustomerRemoved(ctx context.Context, c *CustomerChange) error {
	what := "removed " + c.Old.CustomerID
	if c.Expired {
		what += " (expired)"
	}
	return r.note(c, what)
}

func (r *recorder) OrderInserted(ctx context.Context, c *OrderChange) error {
	return r.note(c, fmt.Sprintf("order %d of %s", c.New.OrderID, c.New.CustomerID))
}

func (r *recorder) OrderModified(ctx context.Context, c *OrderChange) error {
	return r.note(c, fmt.Sprintf("order %d %s -> %s", c.Key.OrderID, c.Old.Status, c.New.Status))
}

func (r *recorder) OrderRemoved(ctx context.Context, c *OrderChange) error {
	return r.note(c, fmt.Sprintf("order %d removed", c.Key.OrderID))
}

// TestConsumers hands a stream's records to the consumers' handlers: each
// gets the changes it handles, in order, and skips the rest (claims,
// counters, what it does not handle); a handler's failure stops the batch
// at its record.
func TestConsumers(t *testing.T) {
	s, names := newStore(t)
	ctx := context.Background()
	placed := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	if err := s.CreateCustomer(ctx, &Customer{CustomerID: "ann", Email: "ann@example.com", Name: "Ann", Tier: CustomerTierFree}); err != nil {
		t.Fatal(err)
	}
	if err := s.PutOrder(ctx, &Order{CustomerID: "ann", OrderID: 1, Status: OrderStatusOpen, Total: 1, PlacedAt: placed}); err != nil {
		t.Fatal(err)
	}
	if err := s.PayOrder(ctx, PayOrderParams{CustomerID: "ann", OrderID: 1}); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteOrder(ctx, OrderKey{CustomerID: "ann", OrderID: 1}); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteCustomer(ctx, DeleteCustomerParams{CustomerID: "ann", CustomerRev: 1}); err != nil {
		t.Fatal(err)
	}
	records := readStream(t, names["Shop"])

	feed := &recorder{}
	if err := HandleFeed(ctx, feed, records); err != nil {
		t.Fatal(err)
	}
	want := []string{"inserted ann", "order 1 of ann", "order 1 open -> paid", "order 1 removed", "removed ann"}
	if !slices.Equal(feed.got, want) {
		t.Errorf("Feed handled %q, want %q", feed.got, want)
	}
	audit := &recorder{}
	if err := HandleAudit(ctx, audit, records); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(audit.got, []string{"removed ann"}) {
		t.Errorf("Audit handled %q, want the removal alone", audit.got)
	}

	// The payment fails: the records before it are handled, it and those
	// after are not, and the error names its position.
	failing := &recorder{fail: func(c Change) bool {
		o, ok := c.(*OrderChange)
		return ok && o.Op == OpModify
	}}
	err := HandleFeed(ctx, failing, records)
	var re *RecordError
	if !errors.As(err, &re) {
		t.Fatalf("a failing handler: %v, want a *RecordError", err)
	}
	at := slices.IndexFunc(records, func(r StreamRecord) bool {
		c, err := DecodeShopChange(&r)
		o, ok := c.(*OrderChange)
		return err == nil && ok && o.Op == OpModify
	})
	if re.Position != at || re.SequenceNumber != records[at].SequenceNumber {
		t.Errorf("the failure at record %d (%s), want %d (%s)", re.Position, re.SequenceNumber, at, records[at].SequenceNumber)
	}
	if !slices.Equal(failing.got, want[:2]) {
		t.Errorf("before the failure: %q, want %q", failing.got, want[:2])
	}
}

// TestChangesProperty writes random sequences of puts, updates and deletes
// of a few items through the Store and checks the stream against a model
// of the table: each write that changes an item is one record of its
// entity, of the operation the model predicts, with the item as it was
// and as written.
func TestChangesProperty(t *testing.T) {
	for seed := range uint64(4) {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			s, names := newStore(t)
			ctx := context.Background()
			rng := rand.New(rand.NewPCG(seed, 27))
			placed := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
			held := map[int64]*Order{}
			var want []string
			for range 40 {
				id := rng.Int64N(4)
				old := held[id]
				switch rng.IntN(3) {
				case 0:
					o := &Order{CustomerID: "c", OrderID: id, Status: OrderStatusOpen, Total: float64(rng.IntN(1000)) / 8, PlacedAt: placed}
					if err := s.PutOrder(ctx, o); err != nil {
						t.Fatal(err)
					}
					if old == nil {
						want = append(want, fmt.Sprintf("Order INSERT c/%d old=- new=%s", id, orderText(o)))
					} else if orderText(old) != orderText(o) {
						want = append(want, fmt.Sprintf("Order MODIFY c/%d old=%s new=%s", id, orderText(old), orderText(o)))
					}
					held[id] = o
				case 1:
					err := s.PayOrder(ctx, PayOrderParams{CustomerID: "c", OrderID: id})
					if old == nil {
						if !errors.Is(err, ErrNotFound) && !errors.Is(err, ErrConditionFailed) {
							t.Fatalf("pay an absent order: %v", err)
						}
						continue
					}
					if err != nil {
						t.Fatal(err)
					}
					paid := *old
					paid.Status = OrderStatusPaid
					if orderText(old) != orderText(&paid) {
						want = append(want, fmt.Sprintf("Order MODIFY c/%d old=%s new=%s", id, orderText(old), orderText(&paid)))
					}
					held[id] = &paid
				case 2:
					if err := s.DeleteOrder(ctx, OrderKey{CustomerID: "c", OrderID: id}); err != nil {
						t.Fatal(err)
					}
					if old != nil {
						want = append(want, fmt.Sprintf("Order REMOVE c/%d old=%s new=-", id, orderText(old)))
					}
					delete(held, id)
				}
			}
			var got []string
			for _, c := range decodeAll(t, readStream(t, names["Shop"]), DecodeShopChange) {
				if strings.HasPrefix(c, "Order ") {
					got = append(got, c)
				}
			}
			if !slices.Equal(got, want) {
				t.Errorf("changes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

// TestKeyLanguages reads back the records of items whose keys test the
// patterns that tell items apart: separators that hold a hyphen between
// two others (a character class, not a range), a name both key
// attributes hold, a natural key of an enum beside a template of the
// same sort key; each is its entity's, and keys the Store never writes
// (two names) are refused.
func TestKeyLanguages(t *testing.T) {
	s, names := newStore(t)
	ctx := context.Background()
	if err := s.PutLog(ctx, &Log{App: "shop", Env: "prod.eu", ID: "order1"}); err != nil {
		t.Fatal(err)
	}
	if err := s.PutMember(ctx, &Member{Name: "alice"}); err != nil {
		t.Fatal(err)
	}
	if err := s.PutFlag(ctx, &Flag{State: FlagStateOn}); err != nil {
		t.Fatal(err)
	}
	if err := s.PutNote(ctx, &Note{ID: "n1"}); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range readStream(t, names["Shop"]) {
		c, err := DecodeShopChange(&r)
		if err != nil {
			t.Fatal(err)
		}
		switch c := c.(type) {
		case *LogChange:
			got = append(got, "log "+c.Key.App+" "+c.Key.Env+" "+c.Key.ID)
		case *MemberChange:
			got = append(got, "member "+c.Key.Name)
		default:
			t.Errorf("a change of %T", c)
		}
	}
	for _, r := range readStream(t, names["Flags"]) {
		c, err := DecodeFlagsChange(&r)
		if err != nil {
			t.Fatal(err)
		}
		switch c := c.(type) {
		case *FlagChange:
			got = append(got, "flag "+string(c.Key.State))
		case *NoteChange:
			got = append(got, "note "+c.Key.ID)
		default:
			t.Errorf("a change of %T", c)
		}
	}
	want := []string{"log shop prod.eu order1", "member alice", "flag on", "note n1"}
	if !slices.Equal(got, want) {
		t.Errorf("changes %q, want %q", got, want)
	}
	// A member's keys that hold two names: no key the Store writes.
	r := StreamRecord{Op: OpInsert, Keys: map[string]types.AttributeValue{
		"PK": &types.AttributeValueMemberS{Value: "MEMBER#alice"},
		"SK": &types.AttributeValueMemberS{Value: "MEMBER#bob"},
	}}
	if c, err := DecodeShopChange(&r); !errors.Is(err, ErrInvalidItem) || c != nil {
		t.Errorf("keys of two names: %v, %v; want ErrInvalidItem and no change", c, err)
	}
}

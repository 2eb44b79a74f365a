package stream

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"slices"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	dyngen "github.com/dyngen/dyngen/generator/runtime"
)

// TestLambdaEvent decodes a Lambda event of table Shop's stream, in the
// JSON Lambda sends (AWS's documented sample, with this spec's keys):
// FeedLambda hands the handler each change it handles, skips the claim
// and the item of no known entity, tells a removal by time to live, and
// at the record that does not decode (a version that is no number) answers the
// partial batch response naming its sequence number, handling none after
// it.
func TestLambdaEvent(t *testing.T) {
	data, err := os.ReadFile("testdata/feed-event.json")
	if err != nil {
		t.Fatal(err)
	}
	var ev StreamEvent
	if err := json.Unmarshal(data, &ev); err != nil {
		t.Fatal(err)
	}
	h := &recorder{}
	resp, err := FeedLambda(h)(context.Background(), &ev)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"inserted ann", "order 7 open -> paid", "removed ann (expired)"}
	if !slices.Equal(h.got, want) {
		t.Errorf("handled %q, want %q", h.got, want)
	}
	if len(resp.BatchItemFailures) != 1 || resp.BatchItemFailures[0].ItemIdentifier != "600" {
		t.Errorf("batch response %+v, want the failure of record 600", resp)
	}
	out, err := json.Marshal(resp)
	if err != nil || string(out) != `{"batchItemFailures":[{"itemIdentifier":"600"}]}` {
		t.Errorf("the response as Lambda reads it: %s, %v", out, err)
	}

	// Decoded one by one: the claim is dyngen's own item, the legacy
	// key no known item's, and bob's rev (a string) an invalid item.
	var kinds []string
	for i := range ev.Records {
		r := &ev.Records[i]
		if r.Err != nil {
			t.Fatalf("record %d: %v", i, r.Err)
		}
		c, err := DecodeShopChange(&r.Record)
		switch {
		case errors.Is(err, ErrInvalidItem):
			kinds = append(kinds, "invalid")
		case err != nil:
			t.Fatalf("record %d: %v", i, err)
		default:
			kinds = append(kinds, describe(t, c))
		}
	}
	wantKinds := []string{
		"Customer INSERT ann old=- new=ann@example.com/Ann/free/1",
		"unique claim INSERT CustomerEmailClaim",
		"Order MODIFY ann/7 old=open/12.5 new=paid/12.5",
		"unknown REMOVE",
		"Customer REMOVE ann old=ann@example.com/Ann/free/1 new=-",
		"invalid",
		"Customer INSERT cy old=- new=cy@example.com/Cy/pro/1",
	}
	if !slices.Equal(kinds, wantKinds) {
		t.Errorf("decoded %q, want %q", kinds, wantKinds)
	}
}

// TestLambdaNoFailure answers an empty list of failures, as Lambda reads
// it, when every record is handled.
func TestLambdaNoFailure(t *testing.T) {
	data, err := os.ReadFile("testdata/feed-event.json")
	if err != nil {
		t.Fatal(err)
	}
	var ev StreamEvent
	if err := json.Unmarshal(data, &ev); err != nil {
		t.Fatal(err)
	}
	ev.Records = ev.Records[:5]
	resp, err := FeedLambda(&recorder{})(context.Background(), &ev)
	if err != nil {
		t.Fatal(err)
	}
	if out, err := json.Marshal(resp); err != nil || string(out) != `{"batchItemFailures":[]}` {
		t.Errorf("the response: %s, %v", out, err)
	}
}

// FuzzDecodeRecords feeds hostile Lambda events (wrong types, missing
// keys, unknown entities, huge numbers, any JSON) to the generated
// decoding and the consumers' dispatch: nothing panics, every change
// decoded is of the entity its keys name, and a consumer's failure is at
// a record it could not handle.
func FuzzDecodeRecords(f *testing.F) {
	data, err := os.ReadFile("testdata/feed-event.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add([]byte(`{"Records":[{"eventName":"INSERT","dynamodb":{"Keys":{"PK":{"S":"CUSTOMER#a"},"SK":{"S":"ORDER#99999999999999999999"}},"NewImage":{"orderId":{"N":"1e125"}}}}]}`))
	f.Add([]byte(`{"Records":[{"eventName":"REMOVE","dynamodb":{"Keys":{"PK":{"N":"1"},"SK":{"B":"AA=="}}}}]}`))
	f.Add([]byte(`{"Records":[{"eventName":"MODIFY","dynamodb":{"SequenceNumber":"1","Keys":{"PK":{"S":"CUSTOMER#a"},"SK":{"S":"PROFILE"}},"NewImage":{"rev":{"S":"x"}}}}]}`))
	f.Add([]byte(`{"Records":[{"eventName":"INSERT","dynamodb":{"Keys":{"tag":{"S":"t"},"n":{"N":"-0"}}}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var ev StreamEvent
		if json.Unmarshal(data, &ev) != nil {
			return
		}
		for i := range ev.Records {
			r := &ev.Records[i].Record
			if ev.Records[i].Err != nil {
				continue
			}
			for _, decode := range []func(*StreamRecord) (Change, error){DecodeShopChange, DecodeTagsChange} {
				c, err := decode(r)
				if err != nil {
					if !errors.Is(err, ErrInvalidItem) && !errors.Is(err, ErrInvalidKey) && !errors.Is(err, ErrInvalidRecord) {
						t.Errorf("record %d: an error of no known kind: %v", i, err)
					}
					continue
				}
				if c.Source() != r {
					t.Errorf("record %d: the change's source is another record", i)
				}
				// The key decoded builds the record's keys again.
				pk, _ := r.Keys["PK"].(*types.AttributeValueMemberS)
				sk, _ := r.Keys["SK"].(*types.AttributeValueMemberS)
				switch c := c.(type) {
				case *CustomerChange:
					if pk.Value != "CUSTOMER#"+c.Key.CustomerID || sk.Value != "PROFILE" {
						t.Errorf("record %d: keys %s %s decoded as %+v", i, pk.Value, sk.Value, c.Key)
					}
				case *OrderChange:
					if pk.Value != "CUSTOMER#"+c.Key.CustomerID || sk.Value != "ORDER#"+dyngen.KeyInt(c.Key.OrderID) {
						t.Errorf("record %d: keys %s %s decoded as %+v", i, pk.Value, sk.Value, c.Key)
					}
				case *TagChange:
					tag, _ := r.Keys["tag"].(*types.AttributeValueMemberS)
					if tag.Value != c.Key.Tag {
						t.Errorf("record %d: tag %q decoded as %+v", i, tag.Value, c.Key)
					}
				}
			}
		}
		ctx := context.Background()
		_, _ = FeedLambda(&recorder{})(ctx, &ev)
		_, _ = AuditLambda(&recorder{})(ctx, &ev)
		_, _ = TagLogLambda(&tagRecorder{})(ctx, &ev)
	})
}

type tagRecorder struct{ n int }

func (r *tagRecorder) TagInserted(ctx context.Context, c *TagChange) error { r.n++; return nil }
func (r *tagRecorder) TagRemoved(ctx context.Context, c *TagChange) error  { r.n++; return nil }

// TestLambdaNilEvent: the event of a payload null (aws-lambda-go gives a
// nil event) has no record, and fails none.
func TestLambdaNilEvent(t *testing.T) {
	resp, err := FeedLambda(&recorder{})(context.Background(), nil)
	if err != nil || resp == nil || len(resp.BatchItemFailures) != 0 {
		t.Errorf("a nil event: %+v, %v", resp, err)
	}
}

// TestImagesNotRead: a consumer decodes only the images it reads: an old
// item that no longer decodes (written before an attribute it lacks was
// required) fails no consumer that reads the keys or the new item alone.
func TestImagesNotRead(t *testing.T) {
	keys := map[string]types.AttributeValue{
		"PK": &types.AttributeValueMemberS{Value: "CUSTOMER#ann"},
		"SK": &types.AttributeValueMemberS{Value: "ORDER#0000000000000000007"},
	}
	old := map[string]types.AttributeValue{"customerId": &types.AttributeValueMemberS{Value: "ann"}}
	r := StreamRecord{Op: OpRemove, SequenceNumber: "1", Keys: keys, OldImage: old}
	h := &recorder{}
	if err := HandleFeed(context.Background(), h, []StreamRecord{r}); err != nil {
		t.Fatalf("a removal Feed reads the keys of, with an old item that does not decode: %v", err)
	}
	if len(h.got) != 1 || h.got[0] != "order 7 removed" {
		t.Errorf("handled %q", h.got)
	}
	// Decoded whole, the old item fails.
	if _, err := DecodeShopChange(&r); !errors.Is(err, ErrInvalidItem) {
		t.Errorf("DecodeShopChange of an old item that does not decode: %v", err)
	}
}

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

var _ = time.Now
var _ types.AttributeValue

type sentRequest struct {
	Package, Pattern, Variant                                    string
	KeyCondition, Filter, Condition, Update, Projection          string
	Names                                                        map[string]string
	NamesNil                                                     bool
	Values                                                       []string
	ValuesNil                                                    bool
	IndexName                                                    string
	HasKeyCondition, HasFilter, HasCondition, HasUpdate, HasProj bool
	Limit                                                        int32
	Shared                                                       []string
}

type recorder struct{ got []sentRequest }

// mutated marks what a client changed in a request it was given: a later
// request that holds it shares memory with an earlier one.
const mutated = "changed by the client"

// shared lists what a request holds that a client changed in an earlier
// one, then changes all of it, as a careless client wrapper may.
func shared(strs []*string, maps []map[string]string, avs []map[string]types.AttributeValue, limit *int32) []string {
	var out []string
	for _, p := range strs {
		if p != nil {
			if *p == mutated {
				out = append(out, "an expression or index name")
			}
			*p = mutated
		}
	}
	for _, m := range maps {
		for k, v := range m {
			if v == mutated {
				out = append(out, "the name of "+k)
			}
			m[k] = mutated
		}
	}
	for _, m := range avs {
		for k, v := range m {
			switch v := v.(type) {
			case *types.AttributeValueMemberS:
				if v.Value == mutated {
					out = append(out, "the value of "+k)
				}
				v.Value = mutated
			case *types.AttributeValueMemberN:
				if v.Value == mutated {
					out = append(out, "the value of "+k)
				}
				v.Value = mutated
			case *types.AttributeValueMemberB:
				if string(v.Value) == mutated {
					out = append(out, "the value of "+k)
				}
				v.Value = []byte(mutated)
			case *types.AttributeValueMemberBOOL:
				// Only the key's own values are checked for sharing;
				// a BOOL operand is changed all the same.
				v.Value = !v.Value
			}
		}
	}
	if limit != nil {
		if *limit == -7 {
			out = append(out, "the limit")
		}
		*limit = -7
	}
	return out
}

func (r *recorder) add(kc, f, c, u, pr *string, names map[string]string, values map[string]types.AttributeValue, index *string) {
	s := sentRequest{
		KeyCondition: aws.ToString(kc), Filter: aws.ToString(f), Condition: aws.ToString(c), Update: aws.ToString(u), Projection: aws.ToString(pr),
		HasKeyCondition: kc != nil, HasFilter: f != nil, HasCondition: c != nil, HasUpdate: u != nil, HasProj: pr != nil,
		NamesNil: names == nil, ValuesNil: values == nil, IndexName: aws.ToString(index),
	}
	if names != nil {
		s.Names = map[string]string{}
		for k, v := range names {
			s.Names[k] = v
		}
	}
	for k := range values {
		s.Values = append(s.Values, k)
	}
	r.got = append(r.got, s)
}

// change records what a request shares with earlier ones, then changes
// all it holds.
func (r *recorder) change(strs []*string, maps []map[string]string, avs []map[string]types.AttributeValue, limit *int32) {
	last := &r.got[len(r.got)-1]
	last.Shared = append(last.Shared, shared(strs, maps, avs, limit)...)
}

func (r *recorder) GetItem(_ context.Context, in *dynamodb.GetItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	r.add(nil, nil, nil, nil, in.ProjectionExpression, in.ExpressionAttributeNames, nil, nil)
	r.change([]*string{in.ProjectionExpression, in.TableName}, []map[string]string{in.ExpressionAttributeNames}, []map[string]types.AttributeValue{in.Key}, nil)
	return &dynamodb.GetItemOutput{}, nil
}

func (r *recorder) Query(_ context.Context, in *dynamodb.QueryInput, _ ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	r.add(in.KeyConditionExpression, in.FilterExpression, nil, nil, in.ProjectionExpression, in.ExpressionAttributeNames, in.ExpressionAttributeValues, in.IndexName)
	last := &r.got[len(r.got)-1]
	last.Limit = aws.ToInt32(in.Limit)
	// The generated code sets ScanIndexForward only to false and
	// ConsistentRead only to true: the other value is a client's change.
	if in.ScanIndexForward != nil {
		if *in.ScanIndexForward {
			last.Shared = append(last.Shared, "ScanIndexForward")
		}
		*in.ScanIndexForward = true
	}
	if in.ConsistentRead != nil {
		if !*in.ConsistentRead {
			last.Shared = append(last.Shared, "ConsistentRead")
		}
		*in.ConsistentRead = false
	}
	r.change([]*string{in.KeyConditionExpression, in.FilterExpression, in.ProjectionExpression, in.IndexName, in.TableName}, []map[string]string{in.ExpressionAttributeNames}, []map[string]types.AttributeValue{in.ExpressionAttributeValues}, in.Limit)
	return &dynamodb.QueryOutput{}, nil
}

func (r *recorder) PutItem(_ context.Context, in *dynamodb.PutItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	r.add(nil, nil, in.ConditionExpression, nil, nil, in.ExpressionAttributeNames, in.ExpressionAttributeValues, nil)
	r.change([]*string{in.ConditionExpression, in.TableName}, []map[string]string{in.ExpressionAttributeNames}, []map[string]types.AttributeValue{in.ExpressionAttributeValues, in.Item}, nil)
	return &dynamodb.PutItemOutput{}, nil
}

func (r *recorder) UpdateItem(_ context.Context, in *dynamodb.UpdateItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	r.add(nil, nil, in.ConditionExpression, in.UpdateExpression, nil, in.ExpressionAttributeNames, in.ExpressionAttributeValues, nil)
	r.change([]*string{in.ConditionExpression, in.UpdateExpression, in.TableName}, []map[string]string{in.ExpressionAttributeNames}, []map[string]types.AttributeValue{in.ExpressionAttributeValues, in.Key}, nil)
	return &dynamodb.UpdateItemOutput{}, nil
}

func (r *recorder) DeleteItem(_ context.Context, in *dynamodb.DeleteItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error) {
	r.add(nil, nil, in.ConditionExpression, nil, nil, in.ExpressionAttributeNames, in.ExpressionAttributeValues, nil)
	r.change([]*string{in.ConditionExpression, in.TableName}, []map[string]string{in.ExpressionAttributeNames}, []map[string]types.AttributeValue{in.ExpressionAttributeValues, in.Key}, nil)
	return &dynamodb.DeleteItemOutput{}, nil
}

func (r *recorder) BatchGetItem(_ context.Context, in *dynamodb.BatchGetItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	for _, ka := range in.RequestItems {
		r.add(nil, nil, nil, nil, ka.ProjectionExpression, ka.ExpressionAttributeNames, nil, nil)
		r.change([]*string{ka.ProjectionExpression}, []map[string]string{ka.ExpressionAttributeNames}, ka.Keys, nil)
	}
	return &dynamodb.BatchGetItemOutput{}, nil
}

func (r *recorder) BatchWriteItem(_ context.Context, in *dynamodb.BatchWriteItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	r.add(nil, nil, nil, nil, nil, nil, nil, nil)
	return &dynamodb.BatchWriteItemOutput{}, nil
}

// rec and store serve every call of the test: a request may share
// nothing with an earlier one, through the package or the Store.
var rec = &recorder{}
var store = New(rec)

func record(t *testing.T, pattern, variant string, call func(s *Store) error) {
	before := len(rec.got)
	err := call(store)
	if len(rec.got) == before {
		t.Errorf("%s (%s) sent nothing: %v", pattern, variant, err)
		return
	}
	r := rec.got[before]
	r.Package, r.Pattern, r.Variant = "e2e", pattern, variant
	line, _ := json.Marshal(r)
	fmt.Printf("REQUEST %s\n", line)
}

func TestDumpRequests(t *testing.T) {
	ctx := context.Background()
	record(t, "WidgetKeys", "given", func(s *Store) error {
		_, err := s.WidgetKeys(ctx, "v", Page{})
		return err
	})
	record(t, "WidgetKeys", "zero", func(s *Store) error {
		_, err := s.WidgetKeys(ctx, "v", Page{})
		return err
	})
	record(t, "GetWidget", "given", func(s *Store) error {
		_, err := s.GetWidget(ctx, WidgetKey{OwnerID: "v", WidgetID: "v"})
		return err
	})
	record(t, "GetWidget", "zero", func(s *Store) error {
		_, err := s.GetWidget(ctx, WidgetKey{OwnerID: "v", WidgetID: "v"})
		return err
	})
	record(t, "WidgetBySerial", "given", func(s *Store) error {
		_, err := s.WidgetBySerial(ctx, WidgetBySerialParams{Region: "v", Serial: "v"})
		return err
	})
	record(t, "WidgetBySerial", "zero", func(s *Store) error {
		_, err := s.WidgetBySerial(ctx, WidgetBySerialParams{Region: "v", Serial: "v"})
		return err
	})
	record(t, "WidgetsInRegion", "given", func(s *Store) error {
		_, err := s.WidgetsInRegion(ctx, WidgetsInRegionParams{Region: "v", Status: WidgetStatus("draft")}, Page{})
		return err
	})
	record(t, "WidgetsInRegion", "zero", func(s *Store) error {
		_, err := s.WidgetsInRegion(ctx, WidgetsInRegionParams{Region: "v", Status: WidgetStatus("draft")}, Page{})
		return err
	})
	record(t, "ActiveWidgets", "given", func(s *Store) error {
		_, err := s.ActiveWidgets(ctx, "v", Page{})
		return err
	})
	record(t, "ActiveWidgets", "zero", func(s *Store) error {
		_, err := s.ActiveWidgets(ctx, "v", Page{})
		return err
	})
	record(t, "WidgetsInStatus", "given", func(s *Store) error {
		_, err := s.WidgetsInStatus(ctx, "v", Page{})
		return err
	})
	record(t, "WidgetsInStatus", "zero", func(s *Store) error {
		_, err := s.WidgetsInStatus(ctx, "v", Page{})
		return err
	})
	record(t, "WidgetsInCategory", "given", func(s *Store) error {
		_, err := s.WidgetsInCategory(ctx, WidgetsInCategoryParams{OwnerID: "v", Category: []string{"p", "q"}}, Page{})
		return err
	})
	record(t, "WidgetsInCategory", "zero", func(s *Store) error {
		_, err := s.WidgetsInCategory(ctx, WidgetsInCategoryParams{OwnerID: "v", Category: []string{"p", "q"}}, Page{})
		return err
	})
	record(t, "WidgetNames", "given", func(s *Store) error {
		_, err := s.WidgetNames(ctx, "v", Page{})
		return err
	})
	record(t, "WidgetNames", "zero", func(s *Store) error {
		_, err := s.WidgetNames(ctx, "v", Page{})
		return err
	})
	record(t, "WidgetOwners", "given", func(s *Store) error {
		_, err := s.WidgetOwners(ctx, "v", Page{})
		return err
	})
	record(t, "WidgetOwners", "zero", func(s *Store) error {
		_, err := s.WidgetOwners(ctx, "v", Page{})
		return err
	})
	record(t, "OwnerPage", "given", func(s *Store) error {
		_, err := s.OwnerPage(ctx, "v", Page{})
		return err
	})
	record(t, "OwnerPage", "zero", func(s *Store) error {
		_, err := s.OwnerPage(ctx, "v", Page{})
		return err
	})
	record(t, "Events", "given", func(s *Store) error {
		_, err := s.Events(ctx, "v", Page{})
		return err
	})
	record(t, "Events", "zero", func(s *Store) error {
		_, err := s.Events(ctx, "v", Page{})
		return err
	})
	record(t, "LatestEvent", "given", func(s *Store) error {
		_, err := s.LatestEvent(ctx, "v")
		return err
	})
	record(t, "LatestEvent", "zero", func(s *Store) error {
		_, err := s.LatestEvent(ctx, "v")
		return err
	})
	record(t, "EventsDesc", "given", func(s *Store) error {
		_, err := s.EventsDesc(ctx, "v", Page{})
		return err
	})
	record(t, "EventsDesc", "zero", func(s *Store) error {
		_, err := s.EventsDesc(ctx, "v", Page{})
		return err
	})
	record(t, "EventsBefore", "given", func(s *Store) error {
		_, err := s.EventsBefore(ctx, EventsBeforeParams{OwnerID: "v", Seq: 7}, Page{})
		return err
	})
	record(t, "EventsBefore", "zero", func(s *Store) error {
		_, err := s.EventsBefore(ctx, EventsBeforeParams{OwnerID: "v", Seq: 7}, Page{})
		return err
	})
	record(t, "EventsUpTo", "given", func(s *Store) error {
		_, err := s.EventsUpTo(ctx, EventsUpToParams{OwnerID: "v", Seq: 7}, Page{})
		return err
	})
	record(t, "EventsUpTo", "zero", func(s *Store) error {
		_, err := s.EventsUpTo(ctx, EventsUpToParams{OwnerID: "v", Seq: 7}, Page{})
		return err
	})
	record(t, "EventsAfter", "given", func(s *Store) error {
		_, err := s.EventsAfter(ctx, EventsAfterParams{OwnerID: "v", Seq: 7}, Page{})
		return err
	})
	record(t, "EventsAfter", "zero", func(s *Store) error {
		_, err := s.EventsAfter(ctx, EventsAfterParams{OwnerID: "v", Seq: 7}, Page{})
		return err
	})
	record(t, "EventsFrom", "given", func(s *Store) error {
		_, err := s.EventsFrom(ctx, EventsFromParams{OwnerID: "v", Seq: 7}, Page{})
		return err
	})
	record(t, "EventsFrom", "zero", func(s *Store) error {
		_, err := s.EventsFrom(ctx, EventsFromParams{OwnerID: "v", Seq: 7}, Page{})
		return err
	})
	record(t, "EventsBetween", "given", func(s *Store) error {
		_, err := s.EventsBetween(ctx, EventsBetweenParams{OwnerID: "v", SeqFrom: 7, SeqTo: 7}, Page{})
		return err
	})
	record(t, "EventsBetween", "zero", func(s *Store) error {
		_, err := s.EventsBetween(ctx, EventsBetweenParams{OwnerID: "v", SeqFrom: 7, SeqTo: 7}, Page{})
		return err
	})
	record(t, "EventsAtBefore", "given", func(s *Store) error {
		_, err := s.EventsAtBefore(ctx, EventsAtBeforeParams{OwnerID: "v", At: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)}, Page{})
		return err
	})
	record(t, "EventsAtBefore", "zero", func(s *Store) error {
		_, err := s.EventsAtBefore(ctx, EventsAtBeforeParams{OwnerID: "v", At: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)}, Page{})
		return err
	})
	record(t, "EventsAtUpTo", "given", func(s *Store) error {
		_, err := s.EventsAtUpTo(ctx, EventsAtUpToParams{OwnerID: "v", At: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)}, Page{})
		return err
	})
	record(t, "EventsAtUpTo", "zero", func(s *Store) error {
		_, err := s.EventsAtUpTo(ctx, EventsAtUpToParams{OwnerID: "v", At: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)}, Page{})
		return err
	})
	record(t, "EventsAtAfter", "given", func(s *Store) error {
		_, err := s.EventsAtAfter(ctx, EventsAtAfterParams{OwnerID: "v", At: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)}, Page{})
		return err
	})
	record(t, "EventsAtAfter", "zero", func(s *Store) error {
		_, err := s.EventsAtAfter(ctx, EventsAtAfterParams{OwnerID: "v", At: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)}, Page{})
		return err
	})
	record(t, "EventsAtFrom", "given", func(s *Store) error {
		_, err := s.EventsAtFrom(ctx, EventsAtFromParams{OwnerID: "v", At: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)}, Page{})
		return err
	})
	record(t, "EventsAtFrom", "zero", func(s *Store) error {
		_, err := s.EventsAtFrom(ctx, EventsAtFromParams{OwnerID: "v", At: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)}, Page{})
		return err
	})
	record(t, "EventsAtBetween", "given", func(s *Store) error {
		_, err := s.EventsAtBetween(ctx, EventsAtBetweenParams{OwnerID: "v", AtFrom: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC), AtTo: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)}, Page{})
		return err
	})
	record(t, "EventsAtBetween", "zero", func(s *Store) error {
		_, err := s.EventsAtBetween(ctx, EventsAtBetweenParams{OwnerID: "v", AtFrom: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC), AtTo: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)}, Page{})
		return err
	})
	record(t, "Notes", "given", func(s *Store) error {
		_, err := s.Notes(ctx, "v", Page{})
		return err
	})
	record(t, "Notes", "zero", func(s *Store) error {
		_, err := s.Notes(ctx, "v", Page{})
		return err
	})
	record(t, "GetNote", "given", func(s *Store) error {
		_, err := s.GetNote(ctx, NoteKey{OwnerID: "v", NoteID: "v"})
		return err
	})
	record(t, "GetNote", "zero", func(s *Store) error {
		_, err := s.GetNote(ctx, NoteKey{OwnerID: "v", NoteID: "v"})
		return err
	})
	record(t, "Pins", "given", func(s *Store) error {
		_, err := s.Pins(ctx, "v", Page{})
		return err
	})
	record(t, "Pins", "zero", func(s *Store) error {
		_, err := s.Pins(ctx, "v", Page{})
		return err
	})
	record(t, "CreateWidget", "given", func(s *Store) error {
		err := s.CreateWidget(ctx, &Widget{OwnerID: "v", WidgetID: "v", Name: "v", Count: -1000000, Price: 1.5, Active: true, Version: 7, CreatedAt: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC), UpdatedAt: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC), SeenAt: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC), Day: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC), ExpiresAt: new(time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)), Blob: []byte("b"), Tags: []string{"v"}, Labels: []string{"v"}, Sizes: []int64{7}, Attrs: map[string]string{"k": "v"}, Status: WidgetStatus("draft"), Extra: &types.AttributeValueMemberS{Value: "d"}, Category: []string{"p", "q"}, Region: new("v"), Serial: "v", KindName: new("v")})
		return err
	})
	record(t, "CreateWidget", "zero", func(s *Store) error {
		err := s.CreateWidget(ctx, &Widget{OwnerID: "v", WidgetID: "v", Name: "v", Count: -1000000, Price: 1.5, Active: true, Version: 7, CreatedAt: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC), UpdatedAt: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC), SeenAt: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC), Day: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC), ExpiresAt: new(time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)), Blob: []byte("b"), Tags: []string{"v"}, Labels: []string{"v"}, Sizes: []int64{7}, Attrs: map[string]string{"k": "v"}, Status: WidgetStatus("draft"), Extra: &types.AttributeValueMemberS{Value: "d"}, Category: []string{"p", "q"}, Region: new("v"), Serial: "v", KindName: new("v")})
		return err
	})
	record(t, "PutWidget", "given", func(s *Store) error {
		err := s.PutWidget(ctx, &Widget{OwnerID: "v", WidgetID: "v", Name: "v", Count: -1000000, Price: 1.5, Active: true, Version: 7, CreatedAt: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC), UpdatedAt: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC), SeenAt: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC), Day: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC), ExpiresAt: new(time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)), Blob: []byte("b"), Tags: []string{"v"}, Labels: []string{"v"}, Sizes: []int64{7}, Attrs: map[string]string{"k": "v"}, Status: WidgetStatus("draft"), Extra: &types.AttributeValueMemberS{Value: "d"}, Category: []string{"p", "q"}, Region: new("v"), Serial: "v", KindName: new("v")}, 7)
		return err
	})
	record(t, "PutWidget", "zero", func(s *Store) error {
		err := s.PutWidget(ctx, &Widget{OwnerID: "v", WidgetID: "v", Name: "v", Count: -1000000, Price: 1.5, Active: true, Version: 7, CreatedAt: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC), UpdatedAt: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC), SeenAt: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC), Day: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC), ExpiresAt: new(time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)), Blob: []byte("b"), Tags: []string{"v"}, Labels: []string{"v"}, Sizes: []int64{7}, Attrs: map[string]string{"k": "v"}, Status: WidgetStatus("draft"), Extra: &types.AttributeValueMemberS{Value: "d"}, Category: []string{"p", "q"}, Region: new("v"), Serial: "v", KindName: new("v")}, 7)
		return err
	})
	record(t, "EditWidget", "given", func(s *Store) error {
		_, err := s.EditWidget(ctx, EditWidgetParams{OwnerID: "v", WidgetID: "v", Name: "v", Price: 1.5, Tags: []string{"v"}, Attrs: map[string]string{"k": "v"}, Extra: &types.AttributeValueMemberS{Value: "d"}, ExpiresAt: new(time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)), Count: -1000000, Labels: []string{"v"}, Sizes: []int64{7}, Version: 7})
		return err
	})
	record(t, "EditWidget", "zero", func(s *Store) error {
		_, err := s.EditWidget(ctx, EditWidgetParams{OwnerID: "v", WidgetID: "v", Name: "v", Price: 1.5, Tags: []string{"v"}, Attrs: nil, Extra: nil, ExpiresAt: nil, Count: -1000000, Labels: []string{"v"}, Sizes: []int64{7}, Version: 7})
		return err
	})
	record(t, "RetireWidget", "given", func(s *Store) error {
		_, err := s.RetireWidget(ctx, RetireWidgetParams{OwnerID: "v", WidgetID: "v", Status: WidgetStatus("draft")})
		return err
	})
	record(t, "RetireWidget", "zero", func(s *Store) error {
		_, err := s.RetireWidget(ctx, RetireWidgetParams{OwnerID: "v", WidgetID: "v", Status: WidgetStatus("draft")})
		return err
	})
	record(t, "ShelveWidget", "given", func(s *Store) error {
		_, err := s.ShelveWidget(ctx, ShelveWidgetParams{OwnerID: "v", WidgetID: "v"})
		return err
	})
	record(t, "ShelveWidget", "zero", func(s *Store) error {
		_, err := s.ShelveWidget(ctx, ShelveWidgetParams{OwnerID: "v", WidgetID: "v"})
		return err
	})
	record(t, "UnlabelWidget", "given", func(s *Store) error {
		_, err := s.UnlabelWidget(ctx, UnlabelWidgetParams{OwnerID: "v", WidgetID: "v", Labels: []string{"v"}, Sizes: []int64{7}})
		return err
	})
	record(t, "UnlabelWidget", "zero", func(s *Store) error {
		_, err := s.UnlabelWidget(ctx, UnlabelWidgetParams{OwnerID: "v", WidgetID: "v", Labels: nil, Sizes: nil})
		return err
	})
	record(t, "RelabelWidget", "given", func(s *Store) error {
		_, err := s.RelabelWidget(ctx, RelabelWidgetParams{OwnerID: "v", WidgetID: "v", Count: -1000000, Labels: []string{"v"}, Sizes: []int64{7}})
		return err
	})
	record(t, "RelabelWidget", "zero", func(s *Store) error {
		_, err := s.RelabelWidget(ctx, RelabelWidgetParams{OwnerID: "v", WidgetID: "v", Count: -1000000, Labels: []string{"v"}, Sizes: nil})
		return err
	})
	record(t, "MoveWidget", "given", func(s *Store) error {
		_, err := s.MoveWidget(ctx, MoveWidgetParams{OwnerID: "v", WidgetID: "v", Region: new("v"), Serial: "v"})
		return err
	})
	record(t, "MoveWidget", "zero", func(s *Store) error {
		_, err := s.MoveWidget(ctx, MoveWidgetParams{OwnerID: "v", WidgetID: "v", Region: nil, Serial: "v"})
		return err
	})
	record(t, "DeleteWidget", "given", func(s *Store) error {
		err := s.DeleteWidget(ctx, WidgetKey{OwnerID: "v", WidgetID: "v"})
		return err
	})
	record(t, "DeleteWidget", "zero", func(s *Store) error {
		err := s.DeleteWidget(ctx, WidgetKey{OwnerID: "v", WidgetID: "v"})
		return err
	})
	record(t, "PutEvent", "given", func(s *Store) error {
		err := s.PutEvent(ctx, &Event{OwnerID: "v", Seq: 7, At: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC), Note: "v"})
		return err
	})
	record(t, "PutEvent", "zero", func(s *Store) error {
		err := s.PutEvent(ctx, &Event{OwnerID: "v", Seq: 7, At: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC), Note: "v"})
		return err
	})
	record(t, "CreateNote", "given", func(s *Store) error {
		err := s.CreateNote(ctx, &Note{OwnerID: "v", NoteID: "v", Text: "v", Type: NoteType("plain"), Range: new(int64(7))})
		return err
	})
	record(t, "CreateNote", "zero", func(s *Store) error {
		err := s.CreateNote(ctx, &Note{OwnerID: "v", NoteID: "v", Text: "v", Type: NoteType("plain"), Range: new(int64(7))})
		return err
	})
	record(t, "CreatePin", "given", func(s *Store) error {
		err := s.CreatePin(ctx, &Pin{OwnerID: "v", PinID: "v", Label: "v", Folder: []string{"p", "q"}})
		return err
	})
	record(t, "CreatePin", "zero", func(s *Store) error {
		err := s.CreatePin(ctx, &Pin{OwnerID: "v", PinID: "v", Label: "v", Folder: []string{"p", "q"}})
		return err
	})
	record(t, "DeleteNote", "given", func(s *Store) error {
		err := s.DeleteNote(ctx, NoteKey{OwnerID: "v", NoteID: "v"})
		return err
	})
	record(t, "DeleteNote", "zero", func(s *Store) error {
		err := s.DeleteNote(ctx, NoteKey{OwnerID: "v", NoteID: "v"})
		return err
	})
	record(t, "TouchEvent", "given", func(s *Store) error {
		_, err := s.TouchEvent(ctx, TouchEventParams{OwnerID: "v", Seq: 7, Note: "v", At: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)})
		return err
	})
	record(t, "TouchEvent", "zero", func(s *Store) error {
		_, err := s.TouchEvent(ctx, TouchEventParams{OwnerID: "v", Seq: 7, Note: "v", At: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)})
		return err
	})
	record(t, "GetEvent", "given", func(s *Store) error {
		_, err := s.GetEvent(ctx, EventKey{OwnerID: "v", Seq: 7})
		return err
	})
	record(t, "GetEvent", "zero", func(s *Store) error {
		_, err := s.GetEvent(ctx, EventKey{OwnerID: "v", Seq: 7})
		return err
	})
	record(t, "GetEvents", "given", func(s *Store) error {
		_, err := s.GetEvents(ctx, []EventKey{{OwnerID: "v", Seq: 7}})
		return err
	})
	record(t, "GetEvents", "zero", func(s *Store) error {
		_, err := s.GetEvents(ctx, []EventKey{{OwnerID: "v", Seq: 7}})
		return err
	})
	record(t, "WidgetNamesByKey", "given", func(s *Store) error {
		_, err := s.WidgetNamesByKey(ctx, []WidgetKey{{OwnerID: "v", WidgetID: "v"}})
		return err
	})
	record(t, "WidgetNamesByKey", "zero", func(s *Store) error {
		_, err := s.WidgetNamesByKey(ctx, []WidgetKey{{OwnerID: "v", WidgetID: "v"}})
		return err
	})
	record(t, "PutEvents", "given", func(s *Store) error {
		err := s.PutEvents(ctx, []Event{Event{OwnerID: "v", Seq: 7, At: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC), Note: "v"}})
		return err
	})
	record(t, "PutEvents", "zero", func(s *Store) error {
		err := s.PutEvents(ctx, []Event{Event{OwnerID: "v", Seq: 7, At: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC), Note: "v"}})
		return err
	})
	record(t, "DeleteEvents", "given", func(s *Store) error {
		err := s.DeleteEvents(ctx, []EventKey{{OwnerID: "v", Seq: 7}})
		return err
	})
	record(t, "DeleteEvents", "zero", func(s *Store) error {
		err := s.DeleteEvents(ctx, []EventKey{{OwnerID: "v", Seq: 7}})
		return err
	})
	record(t, "GetTheme", "given", func(s *Store) error {
		_, err := s.GetTheme(ctx, ThemeKey{OwnerID: "v", Style: ThemeStyle("dark")})
		return err
	})
	record(t, "GetTheme", "zero", func(s *Store) error {
		_, err := s.GetTheme(ctx, ThemeKey{OwnerID: "v", Style: ThemeStyle("dark")})
		return err
	})
	record(t, "CreateTheme", "given", func(s *Store) error {
		err := s.CreateTheme(ctx, &Theme{OwnerID: "v", Style: ThemeStyle("dark"), Color: "v"})
		return err
	})
	record(t, "CreateTheme", "zero", func(s *Store) error {
		err := s.CreateTheme(ctx, &Theme{OwnerID: "v", Style: ThemeStyle("dark"), Color: "v"})
		return err
	})
	record(t, "PutTheme", "given", func(s *Store) error {
		err := s.PutTheme(ctx, &Theme{OwnerID: "v", Style: ThemeStyle("dark"), Color: "v"})
		return err
	})
	record(t, "PutTheme", "zero", func(s *Store) error {
		err := s.PutTheme(ctx, &Theme{OwnerID: "v", Style: ThemeStyle("dark"), Color: "v"})
		return err
	})
	record(t, "ThemesLike", "given", func(s *Store) error {
		_, err := s.ThemesLike(ctx, ThemesLikeParams{OwnerID: "v", Style: ThemeStyle("dark")}, Page{})
		return err
	})
	record(t, "ThemesLike", "zero", func(s *Store) error {
		_, err := s.ThemesLike(ctx, ThemesLikeParams{OwnerID: "v", Style: ThemeStyle("dark")}, Page{})
		return err
	})
	record(t, "ThemesFrom", "given", func(s *Store) error {
		_, err := s.ThemesFrom(ctx, ThemesFromParams{OwnerID: "v", Style: ThemeStyle("dark")}, Page{})
		return err
	})
	record(t, "ThemesFrom", "zero", func(s *Store) error {
		_, err := s.ThemesFrom(ctx, ThemesFromParams{OwnerID: "v", Style: ThemeStyle("dark")}, Page{})
		return err
	})
	record(t, "RecolorTheme", "given", func(s *Store) error {
		_, err := s.RecolorTheme(ctx, RecolorThemeParams{OwnerID: "v", Style: ThemeStyle("dark"), Color: "v"})
		return err
	})
	record(t, "RecolorTheme", "zero", func(s *Store) error {
		_, err := s.RecolorTheme(ctx, RecolorThemeParams{OwnerID: "v", Style: ThemeStyle("dark"), Color: "v"})
		return err
	})
	record(t, "DeleteTheme", "given", func(s *Store) error {
		err := s.DeleteTheme(ctx, ThemeKey{OwnerID: "v", Style: ThemeStyle("dark")})
		return err
	})
	record(t, "DeleteTheme", "zero", func(s *Store) error {
		err := s.DeleteTheme(ctx, ThemeKey{OwnerID: "v", Style: ThemeStyle("dark")})
		return err
	})
	record(t, "GetThemes", "given", func(s *Store) error {
		_, err := s.GetThemes(ctx, []ThemeKey{{OwnerID: "v", Style: ThemeStyle("dark")}})
		return err
	})
	record(t, "GetThemes", "zero", func(s *Store) error {
		_, err := s.GetThemes(ctx, []ThemeKey{{OwnerID: "v", Style: ThemeStyle("dark")}})
		return err
	})
	record(t, "PutThemes", "given", func(s *Store) error {
		err := s.PutThemes(ctx, []Theme{Theme{OwnerID: "v", Style: ThemeStyle("dark"), Color: "v"}})
		return err
	})
	record(t, "PutThemes", "zero", func(s *Store) error {
		err := s.PutThemes(ctx, []Theme{Theme{OwnerID: "v", Style: ThemeStyle("dark"), Color: "v"}})
		return err
	})
	record(t, "DeleteThemes", "given", func(s *Store) error {
		err := s.DeleteThemes(ctx, []ThemeKey{{OwnerID: "v", Style: ThemeStyle("dark")}})
		return err
	})
	record(t, "DeleteThemes", "zero", func(s *Store) error {
		err := s.DeleteThemes(ctx, []ThemeKey{{OwnerID: "v", Style: ThemeStyle("dark")}})
		return err
	})
	record(t, "CreateAdminTheme", "given", func(s *Store) error {
		err := s.CreateAdminTheme(ctx, &AdminTheme{OwnerID: "v", Style: "v", Color: "v"})
		return err
	})
	record(t, "CreateAdminTheme", "zero", func(s *Store) error {
		err := s.CreateAdminTheme(ctx, &AdminTheme{OwnerID: "v", Style: "v", Color: "v"})
		return err
	})
	record(t, "GetAdminTheme", "given", func(s *Store) error {
		_, err := s.GetAdminTheme(ctx, "v")
		return err
	})
	record(t, "GetAdminTheme", "zero", func(s *Store) error {
		_, err := s.GetAdminTheme(ctx, "v")
		return err
	})
	record(t, "GetReading", "given", func(s *Store) error {
		_, err := s.GetReading(ctx, ReadingKey{DeviceID: 7, Seq: 7})
		return err
	})
	record(t, "GetReading", "zero", func(s *Store) error {
		_, err := s.GetReading(ctx, ReadingKey{DeviceID: 7, Seq: 7})
		return err
	})
	record(t, "ReadingsBetween", "given", func(s *Store) error {
		_, err := s.ReadingsBetween(ctx, ReadingsBetweenParams{DeviceID: 7, SeqFrom: 7, SeqTo: 7}, Page{})
		return err
	})
	record(t, "ReadingsBetween", "zero", func(s *Store) error {
		_, err := s.ReadingsBetween(ctx, ReadingsBetweenParams{DeviceID: 7, SeqFrom: 7, SeqTo: 7}, Page{})
		return err
	})
	record(t, "ReadingsBefore", "given", func(s *Store) error {
		_, err := s.ReadingsBefore(ctx, ReadingsBeforeParams{DeviceID: 7, Seq: 7}, Page{})
		return err
	})
	record(t, "ReadingsBefore", "zero", func(s *Store) error {
		_, err := s.ReadingsBefore(ctx, ReadingsBeforeParams{DeviceID: 7, Seq: 7}, Page{})
		return err
	})
	record(t, "ReadingsFrom", "given", func(s *Store) error {
		_, err := s.ReadingsFrom(ctx, ReadingsFromParams{DeviceID: 7, Seq: 7}, Page{})
		return err
	})
	record(t, "ReadingsFrom", "zero", func(s *Store) error {
		_, err := s.ReadingsFrom(ctx, ReadingsFromParams{DeviceID: 7, Seq: 7}, Page{})
		return err
	})
	record(t, "LatestReading", "given", func(s *Store) error {
		_, err := s.LatestReading(ctx, 7)
		return err
	})
	record(t, "LatestReading", "zero", func(s *Store) error {
		_, err := s.LatestReading(ctx, 7)
		return err
	})
	record(t, "FirstReadingBetween", "given", func(s *Store) error {
		_, err := s.FirstReadingBetween(ctx, FirstReadingBetweenParams{DeviceID: 7, SeqFrom: 7, SeqTo: 7})
		return err
	})
	record(t, "FirstReadingBetween", "zero", func(s *Store) error {
		_, err := s.FirstReadingBetween(ctx, FirstReadingBetweenParams{DeviceID: 7, SeqFrom: 7, SeqTo: 7})
		return err
	})
	record(t, "LastReadingBefore", "given", func(s *Store) error {
		_, err := s.LastReadingBefore(ctx, LastReadingBeforeParams{DeviceID: 7, Seq: 7})
		return err
	})
	record(t, "LastReadingBefore", "zero", func(s *Store) error {
		_, err := s.LastReadingBefore(ctx, LastReadingBeforeParams{DeviceID: 7, Seq: 7})
		return err
	})
	record(t, "SaveReading", "given", func(s *Store) error {
		err := s.SaveReading(ctx, &Reading{DeviceID: 7, Seq: 7, Value: 1.5, At: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC), Hits: new(int64(7)), Unit: new("v")})
		return err
	})
	record(t, "SaveReading", "zero", func(s *Store) error {
		err := s.SaveReading(ctx, &Reading{DeviceID: 7, Seq: 7, Value: 1.5, At: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC), Hits: new(int64(7)), Unit: new("v")})
		return err
	})
	record(t, "Hit", "given", func(s *Store) error {
		_, err := s.Hit(ctx, HitParams{DeviceID: 7, Seq: 7, Value: 1.5, At: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC), Unit: new("v"), Hits: 7})
		return err
	})
	record(t, "Hit", "zero", func(s *Store) error {
		_, err := s.Hit(ctx, HitParams{DeviceID: 7, Seq: 7, Value: 1.5, At: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC), Unit: nil, Hits: 7})
		return err
	})
	record(t, "GetReadings", "given", func(s *Store) error {
		_, err := s.GetReadings(ctx, []ReadingKey{{DeviceID: 7, Seq: 7}})
		return err
	})
	record(t, "GetReadings", "zero", func(s *Store) error {
		_, err := s.GetReadings(ctx, []ReadingKey{{DeviceID: 7, Seq: 7}})
		return err
	})
	record(t, "PutReadings", "given", func(s *Store) error {
		err := s.PutReadings(ctx, []Reading{Reading{DeviceID: 7, Seq: 7, Value: 1.5, At: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC), Hits: new(int64(7)), Unit: new("v")}})
		return err
	})
	record(t, "PutReadings", "zero", func(s *Store) error {
		err := s.PutReadings(ctx, []Reading{Reading{DeviceID: 7, Seq: 7, Value: 1.5, At: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC), Hits: new(int64(7)), Unit: new("v")}})
		return err
	})
	record(t, "DeleteReadings", "given", func(s *Store) error {
		err := s.DeleteReadings(ctx, []ReadingKey{{DeviceID: 7, Seq: 7}})
		return err
	})
	record(t, "DeleteReadings", "zero", func(s *Store) error {
		err := s.DeleteReadings(ctx, []ReadingKey{{DeviceID: 7, Seq: 7}})
		return err
	})
	record(t, "GetRepo", "given", func(s *Store) error {
		_, err := s.GetRepo(ctx, RepoKey{OwnerID: "v", RepoID: "v"})
		return err
	})
	record(t, "GetRepo", "zero", func(s *Store) error {
		_, err := s.GetRepo(ctx, RepoKey{OwnerID: "v", RepoID: "v"})
		return err
	})
	record(t, "CreateRepo", "given", func(s *Store) error {
		err := s.CreateRepo(ctx, &Repo{OwnerID: "v", RepoID: "v", Public: new(true), Stars: new(int64(7)), Humidity: new(1.5), Topic: new("v"), Level: new(RepoLevel("low")), SeenAt: new(time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)), License: "v", Rank: 7, Kind: RepoKind("code"), Since: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)})
		return err
	})
	record(t, "CreateRepo", "zero", func(s *Store) error {
		err := s.CreateRepo(ctx, &Repo{OwnerID: "v", RepoID: "v", Public: new(true), Stars: new(int64(7)), Humidity: new(1.5), Topic: new("v"), Level: new(RepoLevel("low")), SeenAt: new(time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)), License: "v", Rank: 7, Kind: RepoKind("code"), Since: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)})
		return err
	})
	record(t, "ReposByVisibility", "given", func(s *Store) error {
		_, err := s.ReposByVisibility(ctx, true, Page{})
		return err
	})
	record(t, "ReposByVisibility", "zero", func(s *Store) error {
		_, err := s.ReposByVisibility(ctx, true, Page{})
		return err
	})
	record(t, "SetRepoVisibility", "given", func(s *Store) error {
		_, err := s.SetRepoVisibility(ctx, SetRepoVisibilityParams{OwnerID: "v", RepoID: "v", Public: new(true), Stars: new(int64(7)), Humidity: new(1.5)})
		return err
	})
	record(t, "SetRepoVisibility", "zero", func(s *Store) error {
		_, err := s.SetRepoVisibility(ctx, SetRepoVisibilityParams{OwnerID: "v", RepoID: "v", Public: nil, Stars: nil, Humidity: nil})
		return err
	})
}

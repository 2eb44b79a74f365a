package tasks

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
	r.Package, r.Pattern, r.Variant = "tasks", pattern, variant
	line, _ := json.Marshal(r)
	fmt.Printf("REQUEST %s\n", line)
}

func TestDumpRequests(t *testing.T) {
	ctx := context.Background()
	record(t, "CloseTask", "given", func(s *Store) error {
		_, err := s.CloseTask(ctx, CloseTaskParams{ID: "v", ClosedAt: new(time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC))})
		return err
	})
	record(t, "CloseTask", "zero", func(s *Store) error {
		_, err := s.CloseTask(ctx, CloseTaskParams{ID: "v", ClosedAt: nil})
		return err
	})
	record(t, "Untag", "given", func(s *Store) error {
		_, err := s.Untag(ctx, "v", []string{"v"})
		return err
	})
	record(t, "Untag", "zero", func(s *Store) error {
		_, err := s.Untag(ctx, "v", nil)
		return err
	})
	record(t, "Open", "given", func(s *Store) error {
		_, err := s.Open(ctx, "v", Page{})
		return err
	})
	record(t, "Open", "zero", func(s *Store) error {
		_, err := s.Open(ctx, "v", Page{})
		return err
	})
	record(t, "Relabel", "given", func(s *Store) error {
		_, err := s.Relabel(ctx, RelabelParams{ID: "v", Done: true, Count: 7, Tags: []string{"v"}})
		return err
	})
	record(t, "Relabel", "zero", func(s *Store) error {
		_, err := s.Relabel(ctx, RelabelParams{ID: "v", Done: true, Count: 7, Tags: nil})
		return err
	})
}

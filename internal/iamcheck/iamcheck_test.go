package iamcheck

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// testPolicy is the policy of the tests: statements with and without a
// condition, special variables, a Deny and a wildcard resource.
const testPolicy = `{"Version": "2012-10-17", "Statement": [
 {"Sid": "TTableGetItemQuery", "Effect": "Allow", "Action": ["dynamodb:GetItem", "dynamodb:Query"],
  "Resource": ["arn:aws:dynamodb:*:*:table/T"],
  "Condition": {"ForAllValues:StringLike": {"dynamodb:LeadingKeys": ["A#*", "B${*}?", "C"]}, "Null": {"dynamodb:LeadingKeys": "false"}}},
 {"Sid": "TGSI1IndexQuery", "Effect": "Allow", "Action": ["dynamodb:Query"],
  "Resource": ["arn:aws:dynamodb:*:*:table/T/index/GSI1"]},
 {"Sid": "TTablePutItemBatchWriteItem", "Effect": "Allow", "Action": ["dynamodb:PutItem", "dynamodb:BatchWriteItem", "dynamodb:ConditionCheckItem"],
  "Resource": ["arn:aws:dynamodb:*:*:table/T"],
  "Condition": {"ForAllValues:StringLike": {"dynamodb:LeadingKeys": ["A#*"]}, "Null": {"dynamodb:LeadingKeys": "false"}}},
 {"Sid": "NoDelete", "Effect": "Deny", "Action": ["dynamodb:DeleteItem"], "Resource": ["arn:aws:dynamodb:*:*:table/T"]},
 {"Sid": "Delete", "Effect": "Allow", "Action": ["dynamodb:DeleteItem"], "Resource": ["arn:aws:dynamodb:*:*:table/*"]}
]}`

// mustParse parses doc or fails the test.
func mustParse(t *testing.T, doc string) *Policy {
	t.Helper()
	p, err := Parse([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestAllows checks the evaluator on actions, resources, the key
// patterns with their special variables, the Null guard and Deny.
func TestAllows(t *testing.T) {
	p := mustParse(t, testPolicy)
	cases := []struct {
		action, resource string
		keys             []string
		want             bool
	}{
		{"dynamodb:GetItem", "table/T", []string{"A#1"}, true},
		{"dynamodb:getitem", "table/T", []string{"A#1"}, true}, // actions are case-insensitive
		{"dynamodb:GetItem", "table/T", []string{"A"}, false},
		{"dynamodb:GetItem", "table/T", []string{"B*x"}, true},
		{"dynamodb:GetItem", "table/T", []string{"Bxx"}, false}, // ${*} is a literal *
		{"dynamodb:GetItem", "table/T", []string{"B*"}, false},  // ? is one character
		{"dynamodb:GetItem", "table/T", []string{"C"}, true},
		{"dynamodb:GetItem", "table/T", []string{"CC"}, false},
		{"dynamodb:GetItem", "table/T", nil, false}, // the Null guard
		{"dynamodb:GetItem", "table/T", []string{"A#1", "C"}, true},
		{"dynamodb:GetItem", "table/T", []string{"A#1", "D"}, false}, // ForAllValues: every value
		{"dynamodb:GetItem", "table/U", []string{"A#1"}, false},
		{"dynamodb:GetItem", "table/T/index/GSI1", []string{"A#1"}, false},
		{"dynamodb:Query", "table/T/index/GSI1", []string{"anything"}, true},
		{"dynamodb:Query", "table/T/index/GSI2", []string{"anything"}, false},
		{"dynamodb:Scan", "table/T", []string{"A#1"}, false},
		{"dynamodb:PutItem", "table/T", []string{"C"}, false},
		{"dynamodb:DeleteItem", "table/T", []string{"A#1"}, false}, // Deny wins
		{"dynamodb:DeleteItem", "table/U", []string{"A#1"}, true},
	}
	for _, c := range cases {
		if got := p.Allows(c.action, c.resource, c.keys); got != c.want {
			t.Errorf("Allows(%s, %s, %q) = %v, want %v", c.action, c.resource, c.keys, got, c.want)
		}
	}
}

// TestParseRefuses checks that Parse refuses what the evaluator does
// not know, rather than evaluate it wrongly.
func TestParseRefuses(t *testing.T) {
	for _, bad := range []string{
		strings.Replace(testPolicy, `"Deny"`, `"Permit"`, 1),
		strings.Replace(testPolicy, `ForAllValues:StringLike`, `ForAnyValue:StringLike`, 1),
		strings.Replace(testPolicy, `"Null": {"dynamodb:LeadingKeys": "false"}`, `"Null": {"dynamodb:Attributes": "false"}`, 1),
		strings.Replace(testPolicy, `"Null": {"dynamodb:LeadingKeys": "false"}`, `"Null": {"dynamodb:LeadingKeys": "no"}`, 1),
		`{"Statement": [`,
	} {
		if bad == testPolicy {
			t.Fatal("the broken policy is the good one")
		}
		if _, err := Parse([]byte(bad)); err == nil {
			t.Errorf("Parse accepts %s", bad)
		}
	}
}

// TestClone checks that a clone's changes leave the policy alone.
func TestClone(t *testing.T) {
	p := mustParse(t, testPolicy)
	q := p.Clone()
	q.Statement[0].Action = nil
	q.Statement[0].Condition["ForAllValues:StringLike"][LeadingKeys] = []any{"Z"}
	if !p.Allows("dynamodb:GetItem", "table/T", []string{"A#1"}) {
		t.Error("changing the clone changed the policy")
	}
}

// s is a string attribute value.
func s(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }

// addTables adds the tables of the tests: T's physical name T-x1, its
// partition key PK, GSI1's G1; U's (N) n.
func addTables(ts *Tables) {
	ts.Add("T", &dynamodb.CreateTableInput{
		TableName: aws.String("T-x1"),
		KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange}},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("GSI1"),
			KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange}, {AttributeName: aws.String("G1"), KeyType: types.KeyTypeHash}}}},
		LocalSecondaryIndexes: []types.LocalSecondaryIndex{{IndexName: aws.String("LSI1"),
			KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("L1"), KeyType: types.KeyTypeRange}}}},
	})
	ts.Add("U", &dynamodb.CreateTableInput{
		TableName: aws.String("U-x2"),
		KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("n"), KeyType: types.KeyTypeHash}},
	})
}

// TestRequests checks how calls become requests: one per call, per
// table of a batch with every item's key, per item of a transaction by
// its member's action; the spec's table names, the index's partition
// key for a query.
func TestRequests(t *testing.T) {
	ts := &Tables{}
	addTables(ts)
	key := map[string]types.AttributeValue{"PK": s("A#1"), "SK": s("X")}
	cases := []struct {
		in   any
		want string
	}{
		{&dynamodb.GetItemInput{TableName: aws.String("T-x1"), Key: key}, `[dynamodb:GetItem on table/T, partition key values ["A#1"]]`},
		{&dynamodb.PutItemInput{TableName: aws.String("T-x1"), Item: map[string]types.AttributeValue{"PK": s("B"), "SK": s("X"), "a": s("y")}},
			`[dynamodb:PutItem on table/T, partition key values ["B"]]`},
		{&dynamodb.UpdateItemInput{TableName: aws.String("U-x2"), Key: map[string]types.AttributeValue{"n": &types.AttributeValueMemberN{Value: "12"}}},
			`[dynamodb:UpdateItem on table/U, partition key values ["12"]]`},
		{&dynamodb.DeleteItemInput{TableName: aws.String("T-x1"), Key: key}, `[dynamodb:DeleteItem on table/T, partition key values ["A#1"]]`},
		{&dynamodb.QueryInput{TableName: aws.String("T-x1"), KeyConditionExpression: aws.String("PK = :pk AND begins_with(SK, :sk)"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":pk": s("A#2"), ":sk": s("S")}},
			`[dynamodb:Query on table/T, partition key values ["A#2"]]`},
		{&dynamodb.QueryInput{TableName: aws.String("T-x1"), IndexName: aws.String("GSI1"), KeyConditionExpression: aws.String("#s = :sk and #g = :pk"),
			ExpressionAttributeNames:  map[string]string{"#g": "G1", "#s": "SK"},
			ExpressionAttributeValues: map[string]types.AttributeValue{":pk": s("G#1"), ":sk": s("S")}},
			`[dynamodb:Query on table/T/index/GSI1, partition key values ["G#1"]]`},
		{&dynamodb.QueryInput{TableName: aws.String("T-x1"), IndexName: aws.String("LSI1"), KeyConditionExpression: aws.String(":pk = PK"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":pk": s("A#3")}},
			`[dynamodb:Query on table/T/index/LSI1, partition key values ["A#3"]]`},
		{&dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{
			"U-x2": {Keys: []map[string]types.AttributeValue{{"n": &types.AttributeValueMemberN{Value: "1"}}}},
			"T-x1": {Keys: []map[string]types.AttributeValue{key, {"PK": s("C"), "SK": s("Y")}}},
		}}, `[dynamodb:BatchGetItem on table/T, partition key values ["A#1" "C"] dynamodb:BatchGetItem on table/U, partition key values ["1"]]`},
		{&dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{
			"T-x1": {{PutRequest: &types.PutRequest{Item: key}}, {DeleteRequest: &types.DeleteRequest{Key: map[string]types.AttributeValue{"PK": s("D"), "SK": s("Y")}}}},
		}}, `[dynamodb:BatchWriteItem on table/T, partition key values ["A#1" "D"]]`},
		{&dynamodb.TransactGetItemsInput{TransactItems: []types.TransactGetItem{
			{Get: &types.Get{TableName: aws.String("T-x1"), Key: key}},
			{Get: &types.Get{TableName: aws.String("U-x2"), Key: map[string]types.AttributeValue{"n": &types.AttributeValueMemberN{Value: "3"}}}},
		}}, `[dynamodb:GetItem on table/T, partition key values ["A#1"] dynamodb:GetItem on table/U, partition key values ["3"]]`},
		{&dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
			{Put: &types.Put{TableName: aws.String("T-x1"), Item: key}},
			{Update: &types.Update{TableName: aws.String("T-x1"), Key: map[string]types.AttributeValue{"PK": s("E"), "SK": s("Y")}}},
			{Delete: &types.Delete{TableName: aws.String("T-x1"), Key: map[string]types.AttributeValue{"PK": s("F"), "SK": s("Y")}}},
			{ConditionCheck: &types.ConditionCheck{TableName: aws.String("T-x1"), Key: map[string]types.AttributeValue{"PK": s("G"), "SK": s("Y")}}},
		}}, `[dynamodb:PutItem on table/T, partition key values ["A#1"] dynamodb:UpdateItem on table/T, partition key values ["E"] ` +
			`dynamodb:DeleteItem on table/T, partition key values ["F"] dynamodb:ConditionCheckItem on table/T, partition key values ["G"]]`},
		{&dynamodb.ScanInput{TableName: aws.String("T-x1"), Segment: aws.Int32(1), TotalSegments: aws.Int32(4)}, `[dynamodb:Scan on table/T, partition key values []]`},
	}
	for _, c := range cases {
		got, err := ts.Requests(c.in)
		if err != nil {
			t.Errorf("%T: %v", c.in, err)
			continue
		}
		if fmt.Sprint(got) != c.want {
			t.Errorf("%T:\ngot  %v\nwant %s", c.in, got, c.want)
		}
	}
	// What the checker can't read is an error, never a request let by.
	for _, in := range []any{
		&dynamodb.GetItemInput{TableName: aws.String("T"), Key: key},                                              // the spec's name: no table of the Store
		&dynamodb.GetItemInput{TableName: aws.String("T-x1"), Key: map[string]types.AttributeValue{"SK": s("X")}}, // no partition key
		&dynamodb.QueryInput{TableName: aws.String("T-x1"), IndexName: aws.String("GSI9"), KeyConditionExpression: aws.String("PK = :pk")},
		&dynamodb.QueryInput{TableName: aws.String("T-x1"), KeyConditionExpression: aws.String("SK = :pk"), ExpressionAttributeValues: map[string]types.AttributeValue{":pk": s("A")}},
		&dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{{}}},
		&dynamodb.ScanInput{TableName: aws.String("T")},
	} {
		if got, err := ts.Requests(in); err == nil {
			t.Errorf("%T %+v: requests %v, want an error", in, in, got)
		}
	}
}

// fake answers every call with an empty output.
type fake struct{ Client }

// GetItem answers with no item.
func (fake) GetItem(context.Context, *dynamodb.GetItemInput, ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	return &dynamodb.GetItemOutput{}, nil
}

// TransactWriteItems answers with success.
func (fake) TransactWriteItems(context.Context, *dynamodb.TransactWriteItemsInput, ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	return &dynamodb.TransactWriteItemsOutput{}, nil
}

// TestChecker checks that the checker reports each denied request of a
// call, and only those, and still makes the call.
func TestChecker(t *testing.T) {
	var reports []string
	c := NewChecker(mustParse(t, testPolicy), fake{}, func(format string, args ...any) {
		reports = append(reports, fmt.Sprintf(format, args...))
	})
	var got []Request
	c.Record = func(r Request) { got = append(got, r) }
	addTables(&c.Tables)
	ctx := context.Background()
	if _, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("T-x1"), Key: map[string]types.AttributeValue{"PK": s("A#1")}}); err != nil {
		t.Fatal(err)
	}
	if len(reports) != 0 {
		t.Fatalf("an allowed call is reported: %q", reports)
	}
	_, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		{Put: &types.Put{TableName: aws.String("T-x1"), Item: map[string]types.AttributeValue{"PK": s("A#1")}}},
		{ConditionCheck: &types.ConditionCheck{TableName: aws.String("T-x1"), Key: map[string]types.AttributeValue{"PK": s("Z")}}},
		{Delete: &types.Delete{TableName: aws.String("T-x1"), Key: map[string]types.AttributeValue{"PK": s("A#1")}}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`the IAM policy denies a TransactWriteItems call: dynamodb:ConditionCheckItem on table/T, partition key values ["Z"]`,
		`the IAM policy denies a TransactWriteItems call: dynamodb:DeleteItem on table/T, partition key values ["A#1"]`,
	}
	if !slices.Equal(reports, want) {
		t.Errorf("reports:\n%q\nwant\n%q", reports, want)
	}
	if c.Checked() != 4 || len(got) != 4 {
		t.Errorf("%d requests checked, %d recorded, want 4", c.Checked(), len(got))
	}
	reports = nil
	if _, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("elsewhere"), Key: map[string]types.AttributeValue{"PK": s("A#1")}}); err != nil {
		t.Fatal(err)
	}
	if len(reports) != 1 || !strings.Contains(reports[0], `table "elsewhere" is none of the Store's`) {
		t.Errorf("a call on an unknown table: reports %q", reports)
	}
}

package dynamotest

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func TestDecide(t *testing.T) {
	for _, tc := range []struct {
		endpoint, ci string
		fail, skip   bool
	}{
		{endpoint: "http://127.0.0.1:8000", ci: ""},
		{endpoint: "http://127.0.0.1:8000", ci: "true"},
		{endpoint: "", ci: "", skip: true},
		{endpoint: "", ci: "true", fail: true},
		{endpoint: "", ci: "1", fail: true},
	} {
		fail, msg := decide(tc.endpoint, tc.ci)
		skip := !fail && msg != ""
		if fail != tc.fail || skip != tc.skip {
			t.Errorf("decide(%q, %q) = fail %v, skip %v; want fail %v, skip %v", tc.endpoint, tc.ci, fail, skip, tc.fail, tc.skip)
		}
		if (fail || skip) && !strings.Contains(msg, HowToRun) {
			t.Errorf("decide(%q, %q): message %q does not say how to run: %q", tc.endpoint, tc.ci, msg, HowToRun)
		}
	}
}

// fakeTB records what Endpoint does instead of stopping the test.
type fakeTB struct {
	testing.TB
	skipped, failed bool
	msg             string
}

func (f *fakeTB) Helper()               {}
func (f *fakeTB) Skip(args ...any)      { f.skipped = true; f.msg = fmt.Sprint(args...) }
func (f *fakeTB) Fatal(args ...any)     { f.failed = true; f.msg = fmt.Sprint(args...) }
func (f *fakeTB) Skipf(string, ...any)  { panic("unexpected Skipf") }
func (f *fakeTB) Fatalf(string, ...any) { panic("unexpected Fatalf") }

func TestEndpoint(t *testing.T) {
	for _, tc := range []struct {
		name, endpoint, ci string
		want               string
		skipped, failed    bool
	}{
		{name: "set", endpoint: "http://127.0.0.1:1234", want: "http://127.0.0.1:1234"},
		{name: "set in CI", endpoint: "http://127.0.0.1:1234", ci: "true", want: "http://127.0.0.1:1234"},
		{name: "unset", skipped: true},
		{name: "unset in CI", ci: "true", failed: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(EndpointEnv, tc.endpoint)
			t.Setenv("CI", tc.ci)
			f := &fakeTB{}
			got := Endpoint(f)
			if got != tc.want || f.skipped != tc.skipped || f.failed != tc.failed {
				t.Errorf("Endpoint = %q, skipped %v, failed %v; want %q, %v, %v (message %q)",
					got, f.skipped, f.failed, tc.want, tc.skipped, tc.failed, f.msg)
			}
		})
	}
}

func TestErrorCode(t *testing.T) {
	if got := ErrorCode(nil); got != "" {
		t.Errorf("ErrorCode(nil) = %q", got)
	}
	if got := ErrorCode(errors.New("ConditionalCheckFailedException")); got != "" {
		t.Errorf("ErrorCode(plain error) = %q, want \"\"", got)
	}
	err := fmt.Errorf("put: %w", &types.ConditionalCheckFailedException{Message: aws.String("no")})
	if got := ErrorCode(err); got != "ConditionalCheckFailedException" {
		t.Errorf("ErrorCode(wrapped) = %q", got)
	}
}

func TestUniqueName(t *testing.T) {
	a, b := uniqueName("Things"), uniqueName("Things")
	if a == b || !strings.HasPrefix(a, "Things-") {
		t.Errorf("uniqueName: %q, %q", a, b)
	}
	if long := uniqueName(strings.Repeat("x", 300)); len(long) != maxTableName {
		t.Errorf("uniqueName of a long name has length %d, want %d", len(long), maxTableName)
	}
}

// thingsTable has a GSI and an LSI, as generated code may ask for.
func thingsTable() *dynamodb.CreateTableInput {
	s := func(name string) types.AttributeDefinition {
		return types.AttributeDefinition{AttributeName: aws.String(name), AttributeType: types.ScalarAttributeTypeS}
	}
	key := func(hash, rng string) []types.KeySchemaElement {
		return []types.KeySchemaElement{
			{AttributeName: aws.String(hash), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String(rng), KeyType: types.KeyTypeRange},
		}
	}
	all := &types.Projection{ProjectionType: types.ProjectionTypeAll}
	return &dynamodb.CreateTableInput{
		TableName:            aws.String("Things"),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{s("pk"), s("sk"), s("gpk"), s("gsk"), s("lsk")},
		KeySchema:            key("pk", "sk"),
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{
			{IndexName: aws.String("byG"), KeySchema: key("gpk", "gsk"), Projection: all},
		},
		LocalSecondaryIndexes: []types.LocalSecondaryIndex{
			{IndexName: aws.String("byL"), KeySchema: key("pk", "lsk"), Projection: all},
		},
	}
}

func str(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }

func TestDynamoDBLocal(t *testing.T) {
	c := Client(t)
	ctx := t.Context()
	in := thingsTable()
	name := CreateTable(t, c, in)
	if aws.ToString(in.TableName) != "Things" {
		t.Errorf("CreateTable changed its input's TableName to %q", aws.ToString(in.TableName))
	}
	if !strings.HasPrefix(name, "Things-") {
		t.Errorf("table name %q does not start with Things-", name)
	}

	d, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: &name})
	if err != nil {
		t.Fatal(err)
	}
	if tab := d.Table; tab.TableStatus != types.TableStatusActive ||
		len(tab.GlobalSecondaryIndexes) != 1 || aws.ToString(tab.GlobalSecondaryIndexes[0].IndexName) != "byG" ||
		len(tab.LocalSecondaryIndexes) != 1 || aws.ToString(tab.LocalSecondaryIndexes[0].IndexName) != "byL" {
		t.Fatalf("table %s: status %s, GSIs %d, LSIs %d", name, tab.TableStatus, len(tab.GlobalSecondaryIndexes), len(tab.LocalSecondaryIndexes))
	}

	item := map[string]types.AttributeValue{
		"pk": str("p1"), "sk": str("s1"), "gpk": str("g1"), "gsk": str("gs1"), "lsk": str("l1"), "v": str("hello"),
	}
	if _, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: &name, Item: item}); err != nil {
		t.Fatal(err)
	}

	got, err := c.GetItem(ctx, &dynamodb.GetItemInput{
		TableName:      &name,
		Key:            map[string]types.AttributeValue{"pk": str("p1"), "sk": str("s1")},
		ConsistentRead: aws.Bool(true),
	})
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := got.Item["v"].(*types.AttributeValueMemberS); !ok || v.Value != "hello" {
		t.Errorf("GetItem: %#v", got.Item)
	}

	for _, q := range []struct {
		index, hashName, hash string
	}{
		{"", "pk", "p1"},
		{"byG", "gpk", "g1"},
		{"byL", "pk", "p1"},
	} {
		in := &dynamodb.QueryInput{
			TableName:                 &name,
			KeyConditionExpression:    aws.String("#h = :h"),
			ExpressionAttributeNames:  map[string]string{"#h": q.hashName},
			ExpressionAttributeValues: map[string]types.AttributeValue{":h": str(q.hash)},
		}
		if q.index != "" {
			in.IndexName = aws.String(q.index)
		}
		out, err := c.Query(ctx, in)
		if err != nil {
			t.Fatalf("query %q: %v", q.index, err)
		}
		if out.Count != 1 {
			t.Errorf("query %q: %d items, want 1", q.index, out.Count)
		}
	}

	_, err = c.PutItem(ctx, &dynamodb.PutItemInput{
		TableName:           &name,
		Item:                item,
		ConditionExpression: aws.String("attribute_not_exists(pk)"),
	})
	if code := ErrorCode(err); code != "ConditionalCheckFailedException" {
		t.Errorf("conditional put of an existing item: error code %q (%v), want ConditionalCheckFailedException", code, err)
	}
}

// TestCreateTableCleanup checks that tables of the same name coexist, and that
// a test's tables are gone when it ends.
func TestCreateTableCleanup(t *testing.T) {
	c := Client(t)
	var names []string
	for i := range 2 {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			names = append(names, CreateTable(t, c, thingsTable()))
		})
	}
	if len(names) != 2 || names[0] == names[1] {
		t.Fatalf("table names %q", names)
	}
	for _, name := range names {
		_, err := c.DescribeTable(t.Context(), &dynamodb.DescribeTableInput{TableName: aws.String(name)})
		if code := ErrorCode(err); code != "ResourceNotFoundException" {
			t.Errorf("table %s after its test: error code %q (%v), want ResourceNotFoundException", name, code, err)
		}
	}
}

// TestMakeTable checks that MakeTable creates a table under the name it is
// given and turns its time to live on.
func TestMakeTable(t *testing.T) {
	c := Client(t)
	ctx := t.Context()
	in := thingsTable()
	name := TableName("Things")
	in.TableName = aws.String(name)
	MakeTable(t, c, in, &dynamodb.UpdateTimeToLiveInput{
		TableName:               aws.String(name),
		TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String("expires"), Enabled: aws.Bool(true)},
	})
	d, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
	if err != nil {
		t.Fatal(err)
	}
	if d.Table.TableStatus != types.TableStatusActive {
		t.Errorf("table %s is %s, want ACTIVE", name, d.Table.TableStatus)
	}
	ttl, err := c.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: aws.String(name)})
	if err != nil {
		t.Fatal(err)
	}
	if d := ttl.TimeToLiveDescription; d == nil || aws.ToString(d.AttributeName) != "expires" || (d.TimeToLiveStatus != types.TimeToLiveStatusEnabled && d.TimeToLiveStatus != types.TimeToLiveStatusEnabling) {
		t.Errorf("time to live of %s: %+v, want enabled on expires", name, d)
	}
}

package iamcheck

import (
	"context"
	"encoding/base64"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Client is the DynamoDB client of a generated package: the calls a
// Store makes. Every generated package's Client has these methods, so a
// *Checker stands for any of them.
type Client interface {
	GetItem(ctx context.Context, in *dynamodb.GetItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error)
	Query(ctx context.Context, in *dynamodb.QueryInput, optFns ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error)
	PutItem(ctx context.Context, in *dynamodb.PutItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error)
	UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error)
	DeleteItem(ctx context.Context, in *dynamodb.DeleteItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error)
	BatchGetItem(ctx context.Context, in *dynamodb.BatchGetItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error)
	BatchWriteItem(ctx context.Context, in *dynamodb.BatchWriteItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error)
	TransactGetItems(ctx context.Context, in *dynamodb.TransactGetItemsInput, optFns ...func(*dynamodb.Options)) (*dynamodb.TransactGetItemsOutput, error)
	TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, optFns ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error)
}

var _ Client = (*dynamodb.Client)(nil)

// Request is one authorization IAM decides for a call: an action on a
// table or index (by the spec's names), with the partition key values of
// the items it addresses (dynamodb:LeadingKeys). A call of the classic
// API is one request; a batch one per table, with every item's key; a
// transaction one per item, by the action of its member (IAM has no
// action for TransactWriteItems or TransactGetItems: "Using IAM with
// DynamoDB transactions").
type Request struct {
	Action   string
	Resource string
	Keys     []string
}

// String writes the request for a test's failure.
func (r Request) String() string {
	return fmt.Sprintf("%s on %s, partition key values %q", r.Action, r.Resource, r.Keys)
}

// Tables knows the tables of the requests: their names in the spec and
// their partition keys' attributes, by their physical names.
type Tables struct {
	mu     sync.Mutex
	tables map[string]*table
}

// table is a table of Tables.
type table struct {
	spec string
	// pk is the partition key attribute of the table ("") and of each
	// index.
	pk map[string]string
}

// Add declares the table create makes (a Store's Tables()[i].Create,
// under its physical name), whose name in the spec is spec.
func (ts *Tables) Add(spec string, create *dynamodb.CreateTableInput) {
	t := &table{spec: spec, pk: map[string]string{"": hashKey(create.KeySchema)}}
	for _, g := range create.GlobalSecondaryIndexes {
		t.pk[aws.ToString(g.IndexName)] = hashKey(g.KeySchema)
	}
	for _, l := range create.LocalSecondaryIndexes {
		t.pk[aws.ToString(l.IndexName)] = hashKey(l.KeySchema)
	}
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.tables == nil {
		ts.tables = map[string]*table{}
	}
	ts.tables[aws.ToString(create.TableName)] = t
}

// hashKey is the partition key attribute of a key schema.
func hashKey(ks []types.KeySchemaElement) string {
	for _, k := range ks {
		if k.KeyType == types.KeyTypeHash {
			return aws.ToString(k.AttributeName)
		}
	}
	return ""
}

// lookup returns the table of physical name name.
func (ts *Tables) lookup(name *string) (*table, error) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	t := ts.tables[aws.ToString(name)]
	if t == nil {
		return nil, fmt.Errorf("table %q is none of the Store's", aws.ToString(name))
	}
	return t, nil
}

// resource is the policy's name of index ix ("" the table) of t.
func (t *table) resource(ix string) string {
	if ix == "" {
		return "table/" + t.spec
	}
	return "table/" + t.spec + "/index/" + ix
}

// keyOf is the partition key value of an item or key of t's index ix.
func (t *table) keyOf(ix string, item map[string]types.AttributeValue) (string, error) {
	name, ok := t.pk[ix]
	if !ok {
		return "", fmt.Errorf("table %s has no index %q", t.spec, ix)
	}
	return keyValue(name, item[name])
}

// keyValue is the text of a partition key value as IAM compares it: a
// string or number as written, binary in base64.
func keyValue(name string, v types.AttributeValue) (string, error) {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return v.Value, nil
	case *types.AttributeValueMemberN:
		return v.Value, nil
	case *types.AttributeValueMemberB:
		return base64.StdEncoding.EncodeToString(v.Value), nil
	case nil:
		return "", fmt.Errorf("no partition key %s", name)
	}
	return "", fmt.Errorf("partition key %s of type %T", name, v)
}

// one is the request of a call of the classic API on one item.
func (ts *Tables) one(action string, name *string, item map[string]types.AttributeValue) ([]Request, error) {
	t, err := ts.lookup(name)
	if err != nil {
		return nil, err
	}
	k, err := t.keyOf("", item)
	if err != nil {
		return nil, err
	}
	return []Request{{action, t.resource(""), []string{k}}}, nil
}

// Requests returns the requests IAM authorizes for a call: in is the
// call's input (*dynamodb.GetItemInput, ...).
func (ts *Tables) Requests(in any) ([]Request, error) {
	switch in := in.(type) {
	case *dynamodb.GetItemInput:
		return ts.one("dynamodb:GetItem", in.TableName, in.Key)
	case *dynamodb.PutItemInput:
		return ts.one("dynamodb:PutItem", in.TableName, in.Item)
	case *dynamodb.UpdateItemInput:
		return ts.one("dynamodb:UpdateItem", in.TableName, in.Key)
	case *dynamodb.DeleteItemInput:
		return ts.one("dynamodb:DeleteItem", in.TableName, in.Key)
	case *dynamodb.ScanInput:
		// A Scan sends no key: a statement that binds keys does not
		// allow it.
		t, err := ts.lookup(in.TableName)
		if err != nil {
			return nil, err
		}
		return []Request{{"dynamodb:Scan", t.resource(aws.ToString(in.IndexName)), nil}}, nil
	case *dynamodb.QueryInput:
		t, err := ts.lookup(in.TableName)
		if err != nil {
			return nil, err
		}
		ix := aws.ToString(in.IndexName)
		name, ok := t.pk[ix]
		if !ok {
			return nil, fmt.Errorf("table %s has no index %q", t.spec, ix)
		}
		v, err := keyCondition(aws.ToString(in.KeyConditionExpression), name, in.ExpressionAttributeNames, in.ExpressionAttributeValues)
		if err != nil {
			return nil, err
		}
		k, err := keyValue(name, v)
		if err != nil {
			return nil, err
		}
		return []Request{{"dynamodb:Query", t.resource(ix), []string{k}}}, nil
	case *dynamodb.BatchGetItemInput:
		var out []Request
		for _, name := range sortedKeys(in.RequestItems) {
			t, err := ts.lookup(&name)
			if err != nil {
				return nil, err
			}
			r := Request{Action: "dynamodb:BatchGetItem", Resource: t.resource("")}
			for _, key := range in.RequestItems[name].Keys {
				k, err := t.keyOf("", key)
				if err != nil {
					return nil, err
				}
				r.Keys = append(r.Keys, k)
			}
			out = append(out, r)
		}
		return out, nil
	case *dynamodb.BatchWriteItemInput:
		var out []Request
		for _, name := range sortedKeys(in.RequestItems) {
			t, err := ts.lookup(&name)
			if err != nil {
				return nil, err
			}
			r := Request{Action: "dynamodb:BatchWriteItem", Resource: t.resource("")}
			for _, w := range in.RequestItems[name] {
				var item map[string]types.AttributeValue
				switch {
				case w.PutRequest != nil && w.DeleteRequest == nil:
					item = w.PutRequest.Item
				case w.DeleteRequest != nil && w.PutRequest == nil:
					item = w.DeleteRequest.Key
				default:
					return nil, fmt.Errorf("a write request of table %s is neither one put nor one delete", t.spec)
				}
				k, err := t.keyOf("", item)
				if err != nil {
					return nil, err
				}
				r.Keys = append(r.Keys, k)
			}
			out = append(out, r)
		}
		return out, nil
	case *dynamodb.TransactGetItemsInput:
		var out []Request
		for _, it := range in.TransactItems {
			if it.Get == nil {
				return nil, fmt.Errorf("a transaction's item has no Get")
			}
			rs, err := ts.one("dynamodb:GetItem", it.Get.TableName, it.Get.Key)
			if err != nil {
				return nil, err
			}
			out = append(out, rs...)
		}
		return out, nil
	case *dynamodb.TransactWriteItemsInput:
		var out []Request
		for _, it := range in.TransactItems {
			var rs []Request
			var err error
			switch {
			case it.Put != nil:
				rs, err = ts.one("dynamodb:PutItem", it.Put.TableName, it.Put.Item)
			case it.Update != nil:
				rs, err = ts.one("dynamodb:UpdateItem", it.Update.TableName, it.Update.Key)
			case it.Delete != nil:
				rs, err = ts.one("dynamodb:DeleteItem", it.Delete.TableName, it.Delete.Key)
			case it.ConditionCheck != nil:
				rs, err = ts.one("dynamodb:ConditionCheckItem", it.ConditionCheck.TableName, it.ConditionCheck.Key)
			default:
				err = fmt.Errorf("a transaction's item has no member")
			}
			if err != nil {
				return nil, err
			}
			out = append(out, rs...)
		}
		return out, nil
	}
	return nil, fmt.Errorf("a call of input %T", in)
}

// sortedKeys are m's keys, sorted: the requests of a batch in a
// deterministic order.
func sortedKeys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

var (
	and      = regexp.MustCompile(`(?i)\s+AND\s+`)
	equality = regexp.MustCompile(`^\s*\(?\s*([#:]?[A-Za-z0-9_.\-]+)\s*=\s*([#:]?[A-Za-z0-9_.\-]+)\s*\)?\s*$`)
)

// keyCondition is the value a Query's key condition expression gives
// partition key attribute pk: the operand of its equality on pk, names
// (#n) and values (:v) resolved.
func keyCondition(expr, pk string, names map[string]string, values map[string]types.AttributeValue) (types.AttributeValue, error) {
	name := func(s string) string {
		if strings.HasPrefix(s, "#") {
			return names[s]
		}
		return s
	}
	for _, part := range and.Split(expr, -1) {
		m := equality.FindStringSubmatch(part)
		if m == nil {
			continue
		}
		l, r := m[1], m[2]
		if strings.HasPrefix(l, ":") {
			l, r = r, l
		}
		if name(l) == pk && strings.HasPrefix(r, ":") {
			if v, ok := values[r]; ok {
				return v, nil
			}
			return nil, fmt.Errorf("key condition %q: no value %s", expr, r)
		}
	}
	return nil, fmt.Errorf("key condition %q: no equality on partition key %s", expr, pk)
}

// Checker is a Client that evaluates its policy on every call, before
// passing it to the next client: each request the policy denies, or a
// call it can't read, is reported (the call goes on: the report is the
// test's failure).
type Checker struct {
	Tables
	policy *Policy
	next   Client
	report func(format string, args ...any)
	// Record, when not nil, is given every request evaluated.
	Record func(Request)
	mu     sync.Mutex
	n      int
}

// NewChecker returns a Checker of policy in front of next, which reports
// through report (t.Errorf); tables are declared with Add.
func NewChecker(policy *Policy, next Client, report func(format string, args ...any)) *Checker {
	return &Checker{policy: policy, next: next, report: report}
}

// Checked returns how many requests the checker evaluated.
func (c *Checker) Checked() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// check evaluates the requests of call op of input in.
func (c *Checker) check(op string, in any) {
	reqs, err := c.Requests(in)
	if err != nil {
		c.report("IAM check of a %s call: %v", op, err)
		return
	}
	c.mu.Lock()
	c.n += len(reqs)
	c.mu.Unlock()
	for _, r := range reqs {
		if c.Record != nil {
			c.Record(r)
		}
		if !c.policy.Allows(r.Action, r.Resource, r.Keys) {
			c.report("the IAM policy denies a %s call: %s", op, r)
		}
	}
}

// Scan checks and passes the call on, to a next that scans (a
// backfill's client): a Store's Client never does.
func (c *Checker) Scan(ctx context.Context, in *dynamodb.ScanInput, optFns ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	c.check("Scan", in)
	sc, ok := c.next.(interface {
		Scan(context.Context, *dynamodb.ScanInput, ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error)
	})
	if !ok {
		return nil, fmt.Errorf("iamcheck: the client behind the checker does not scan")
	}
	return sc.Scan(ctx, in, optFns...)
}

// GetItem checks and passes the call on.
func (c *Checker) GetItem(ctx context.Context, in *dynamodb.GetItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	c.check("GetItem", in)
	return c.next.GetItem(ctx, in, optFns...)
}

// Query checks and passes the call on.
func (c *Checker) Query(ctx context.Context, in *dynamodb.QueryInput, optFns ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	c.check("Query", in)
	return c.next.Query(ctx, in, optFns...)
}

// PutItem checks and passes the call on.
func (c *Checker) PutItem(ctx context.Context, in *dynamodb.PutItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	c.check("PutItem", in)
	return c.next.PutItem(ctx, in, optFns...)
}

// UpdateItem checks and passes the call on.
func (c *Checker) UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	c.check("UpdateItem", in)
	return c.next.UpdateItem(ctx, in, optFns...)
}

// DeleteItem checks and passes the call on.
func (c *Checker) DeleteItem(ctx context.Context, in *dynamodb.DeleteItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error) {
	c.check("DeleteItem", in)
	return c.next.DeleteItem(ctx, in, optFns...)
}

// BatchGetItem checks and passes the call on.
func (c *Checker) BatchGetItem(ctx context.Context, in *dynamodb.BatchGetItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	c.check("BatchGetItem", in)
	return c.next.BatchGetItem(ctx, in, optFns...)
}

// BatchWriteItem checks and passes the call on.
func (c *Checker) BatchWriteItem(ctx context.Context, in *dynamodb.BatchWriteItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	c.check("BatchWriteItem", in)
	return c.next.BatchWriteItem(ctx, in, optFns...)
}

// TransactGetItems checks and passes the call on.
func (c *Checker) TransactGetItems(ctx context.Context, in *dynamodb.TransactGetItemsInput, optFns ...func(*dynamodb.Options)) (*dynamodb.TransactGetItemsOutput, error) {
	c.check("TransactGetItems", in)
	return c.next.TransactGetItems(ctx, in, optFns...)
}

// TransactWriteItems checks and passes the call on.
func (c *Checker) TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, optFns ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	c.check("TransactWriteItems", in)
	return c.next.TransactWriteItems(ctx, in, optFns...)
}

// New returns a Checker of the policy in file (the committed
// iam-policy.json of a generated package) in front of next, whose
// denials fail the test t.
func New(t testing.TB, file string, next Client) *Checker {
	t.Helper()
	p, err := Load(file)
	if err != nil {
		t.Fatal(err)
	}
	return NewChecker(p, next, t.Errorf)
}

// Package dynamotest helps integration tests talk to DynamoDB Local.
//
// The server is started by scripts/dynamodb-local, which exports its address
// in DYNAMODB_ENDPOINT:
//
//	scripts/dynamodb-local run go test ./...
//
// Without DYNAMODB_ENDPOINT the tests that need the server are skipped, except
// in CI (the environment variable CI is non-empty), where they fail: in CI a
// missing server is an error, never a reason to skip.
//
// Tests assert errors by their code (see [ErrorCode]), never by message text.
package dynamotest

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	streamtypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
	"github.com/aws/smithy-go"
)

// EndpointEnv names the environment variable holding DynamoDB Local's URL.
const EndpointEnv = "DYNAMODB_ENDPOINT"

// HowToRun says how to run the integration tests with a server.
const HowToRun = "scripts/dynamodb-local run go test ./..."

// Region is the region the clients of this package use.
const Region = "us-east-1"

// decide says what Endpoint does for the values of DYNAMODB_ENDPOINT and CI:
// use the endpoint (msg is ""), or skip, or fail with msg.
func decide(endpoint, ci string) (fail bool, msg string) {
	if endpoint != "" {
		return false, ""
	}
	if ci != "" {
		return true, EndpointEnv + " is not set, and CI is: integration tests need DynamoDB Local; run them as: " + HowToRun
	}
	return false, EndpointEnv + " is not set; to run this test with DynamoDB Local: " + HowToRun
}

// Endpoint returns the DynamoDB Local URL from DYNAMODB_ENDPOINT. When it is
// unset (or empty) the test is skipped, or, when CI is non-empty, fails.
func Endpoint(t testing.TB) string {
	t.Helper()
	endpoint := os.Getenv(EndpointEnv)
	fail, msg := decide(endpoint, os.Getenv("CI"))
	switch {
	case msg == "":
		return endpoint
	case fail:
		t.Fatal(msg)
	default:
		t.Skip(msg)
	}
	return "" // only reached with a fake testing.TB
}

// Client returns a DynamoDB client for [Endpoint]'s server, with static dummy
// credentials (DynamoDB Local checks no signature) and region us-east-1. It
// skips or fails the test as Endpoint does.
func Client(t testing.TB) *dynamodb.Client {
	t.Helper()
	return NewClient(Endpoint(t))
}

// NewClient is Client for the server at endpoint, for a process of a
// test's own that has no testing.TB.
func NewClient(endpoint string) *dynamodb.Client {
	return dynamodb.New(dynamodb.Options{
		Region:       Region,
		BaseEndpoint: aws.String(endpoint),
		Credentials:  credentials.NewStaticCredentialsProvider("dyngen", "dyngen", ""),
		// DynamoDB Local's responses make the CRC32 check warn; there is no
		// network in between to corrupt them.
		DisableValidateResponseChecksum: true,
	})
}

// StreamsClient is a client of DynamoDB Local's streams (the DynamoDB
// Streams API, at the same endpoint).
func StreamsClient(t testing.TB) *dynamodbstreams.Client {
	t.Helper()
	return dynamodbstreams.New(dynamodbstreams.Options{
		Region:       Region,
		BaseEndpoint: aws.String(Endpoint(t)),
		Credentials:  credentials.NewStaticCredentialsProvider("dyngen", "dyngen", ""),
	})
}

// StreamRecords reads every record of table's stream, shard by shard from
// its oldest record, through the DynamoDB Streams API: what a consumer
// of the stream is handed.
func StreamRecords(t testing.TB, table string) []streamtypes.Record {
	t.Helper()
	ctx := context.Background()
	desc, err := Client(t).DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)})
	if err != nil {
		t.Fatal(err)
	}
	arn := desc.Table.LatestStreamArn
	if arn == nil {
		t.Fatalf("table %s has no stream", table)
	}
	sc := StreamsClient(t)
	ds, err := sc.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: arn})
	if err != nil {
		t.Fatal(err)
	}
	var out []streamtypes.Record
	for _, sh := range ds.StreamDescription.Shards {
		it, err := sc.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: arn, ShardId: sh.ShardId, ShardIteratorType: streamtypes.ShardIteratorTypeTrimHorizon})
		if err != nil {
			t.Fatal(err)
		}
		// A shard that is still open gives an iterator to its end; an
		// empty page is its end for now.
		for iter := it.ShardIterator; iter != nil; {
			page, err := sc.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: iter})
			if err != nil {
				t.Fatal(err)
			}
			if len(page.Records) == 0 {
				break
			}
			out = append(out, page.Records...)
			iter = page.NextShardIterator
		}
	}
	return out
}

// maxTableName is DynamoDB's limit on a table name's length.
const maxTableName = 255

// CreateTable creates the table that in describes under a unique name (in's
// TableName, "-" and a random suffix, so tests may run in parallel), waits
// until it is ACTIVE, and deletes it when the test ends. The rest of in, key
// schema, attributes, indexes and all, is sent as given; in itself is not
// modified. It returns the name the table was created under.
func CreateTable(t testing.TB, c *dynamodb.Client, in *dynamodb.CreateTableInput) string {
	t.Helper()
	if in == nil {
		t.Fatal("dynamotest.CreateTable: nil input")
	}
	req := *in
	req.TableName = aws.String(TableName(aws.ToString(in.TableName)))
	MakeTable(t, c, &req, nil)
	return aws.ToString(req.TableName)
}

// TableName returns a physical table name for a test: base, "-" and a
// random suffix, within DynamoDB's limits, so that tests may run in
// parallel. A Store made with it (With<Table>Table) gives the table's
// definition under that name to [MakeTable].
func TableName(base string) string { return uniqueName(base) }

// MakeTable creates the table that create describes, under its own name,
// waits until it is ACTIVE, turns time to live on with ttl when ttl is not
// nil, and deletes the table when the test ends.
func MakeTable(t testing.TB, c *dynamodb.Client, create *dynamodb.CreateTableInput, ttl *dynamodb.UpdateTimeToLiveInput) {
	t.Helper()
	if create == nil {
		t.Fatal("dynamotest.MakeTable: nil input")
	}
	name := aws.ToString(create.TableName)
	// No deadline of its own: DynamoDB Local on a loaded machine may take
	// long, and go test's -timeout ends a test that hangs.
	ctx := t.Context()
	if _, err := c.CreateTable(ctx, create); err != nil {
		t.Fatalf("create table %s: %v", name, err)
	}
	t.Cleanup(func() {
		// t.Context() is already canceled when cleanups run.
		_, err := c.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: aws.String(name)})
		if err != nil && ErrorCode(err) != "ResourceNotFoundException" {
			t.Errorf("delete table %s: %v", name, err)
		}
	})
	w := dynamodb.NewTableExistsWaiter(c, func(o *dynamodb.TableExistsWaiterOptions) {
		o.MinDelay = 50 * time.Millisecond // the default is 20 s
		o.MaxDelay = time.Second
	})
	// The waiter needs a bound: one no loaded machine reaches (Local makes
	// a table ACTIVE at once).
	if err := w.Wait(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)}, time.Hour); err != nil {
		t.Fatalf("wait for table %s to be active: %v", name, err)
	}
	if ttl == nil {
		return
	}
	if aws.ToString(ttl.TableName) != name {
		t.Fatalf("dynamotest.MakeTable: time to live of table %s given for table %s", aws.ToString(ttl.TableName), name)
	}
	if _, err := c.UpdateTimeToLive(ctx, ttl); err != nil {
		t.Fatalf("turn time to live on for table %s: %v", name, err)
	}
}

// MakeTableFromFiles creates a table from the files of the createTable
// output in dir: name.create-table.json, and name.update-time-to-live.json
// when the table has a ttl, as `aws dynamodb create-table
// --cli-input-json` and `update-time-to-live` read them. The files name the
// spec's table; it is created under the physical name of create, the
// Store's own definition of the table (its Tables), which the files must
// equal field for field, and deleted when the test ends. So a test that
// runs a Store on it proves the files are the definition the code runs on.
func MakeTableFromFiles(t testing.TB, c *dynamodb.Client, dir, name string, create *dynamodb.CreateTableInput, ttl *dynamodb.UpdateTimeToLiveInput) {
	t.Helper()
	physical := aws.ToString(create.TableName)
	fromFile := new(dynamodb.CreateTableInput)
	readInput(t, filepath.Join(dir, name+".create-table.json"), name, fromFile)
	fromFile.TableName = aws.String(physical)
	if !reflect.DeepEqual(fromFile, create) {
		t.Fatalf("%s.create-table.json is not the table the Store defines:\nfile:  %s\nStore: %s", name, show(fromFile), show(create))
	}
	var ttlFile *dynamodb.UpdateTimeToLiveInput
	ttlPath := filepath.Join(dir, name+".update-time-to-live.json")
	if _, err := os.Stat(ttlPath); err == nil || ttl != nil {
		ttlFile = new(dynamodb.UpdateTimeToLiveInput)
		readInput(t, ttlPath, name, ttlFile)
		ttlFile.TableName = aws.String(physical)
		if !reflect.DeepEqual(ttlFile, ttl) {
			t.Fatalf("%s.update-time-to-live.json is not the time to live the Store defines:\nfile:  %s\nStore: %s", name, show(ttlFile), show(ttl))
		}
	}
	MakeTable(t, c, fromFile, ttlFile)
}

// readInput decodes the input of an AWS CLI command from the JSON file at
// path into in: every key must be one of the input's (case aside, as the
// CLI's keys are the API's), and the file must name table.
func readInput(t testing.TB, path, table string, in any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(in); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var named struct{ TableName string }
	if err := json.Unmarshal(data, &named); err != nil || named.TableName != table {
		t.Fatalf("%s names table %q, not %s (%v)", path, named.TableName, table, err)
	}
}

// show prints an input for a message.
func show(v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		return err.Error()
	}
	return string(data)
}

// uniqueName returns base with a random suffix, within DynamoDB's limits.
func uniqueName(base string) string {
	if base == "" {
		base = "table"
	}
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand does not fail on supported platforms
	}
	suffix := "-" + hex.EncodeToString(b[:])
	if len(base) > maxTableName-len(suffix) {
		base = base[:maxTableName-len(suffix)]
	}
	return base + suffix
}

// ErrorCode returns the error code of the API error in err's chain, such as
// "ConditionalCheckFailedException" or "ResourceNotFoundException", or "" when
// err is nil or holds no API error.
func ErrorCode(err error) string {
	var ae smithy.APIError
	if errors.As(err, &ae) {
		return ae.ErrorCode()
	}
	return ""
}

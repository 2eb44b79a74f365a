// Package exampletest holds what the tests of the examples share: a Store
// over tables of its own in DynamoDB Local, checked against the example's
// IAM policy and create-table files (NewStore); the check of a failed
// transaction step (StepFailedOf); the check of a list, element by element
// (CheckEach); and the run of an example's demo (Demo, Between).
//
// The tests run against DynamoDB Local (see package dynamotest); each
// runs in its example's directory, where the spec's outputs are.
package exampletest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dyngen/dyngen/internal/dynamotest"
	"github.com/dyngen/dyngen/internal/iamcheck"
)

// Table is a table of a generated Store, as its Tables method gives it.
type Table = struct {
	Name       string
	Create     *dynamodb.CreateTableInput
	TimeToLive *dynamodb.UpdateTimeToLiveInput
}

// tableOf is the Table type of a generated package.
type tableOf interface{ ~Table }

// Store is a generated Store: it lists its tables.
type Store[T tableOf] interface{ Tables() []T }

// PolicyFile is the IAM policy an example's spec writes (the iam output).
const PolicyFile = "iam-policy.json"

// NewStore returns the Store newStore makes over a client of DynamoDB
// Local, with its tables created (under the unique names newStore gives
// them) from the create-table inputs of the spec's outputs, after
// checking they are the Store's own Tables; they are deleted when the test
// ends. Every call of the Store must be one the IAM policy dyngen wrote
// (PolicyFile) allows: the test fails on a call it denies.
func NewStore[S Store[T], T tableOf](t *testing.T, newStore func(c *iamcheck.Checker) S) S {
	t.Helper()
	c := dynamotest.Client(t)
	chk := iamcheck.New(t, PolicyFile, c)
	s := newStore(chk)
	for _, table := range s.Tables() {
		table := Table(table)
		chk.Add(table.Name, table.Create)
		dynamotest.MakeTableFromFiles(t, c, ".", table.Name, table.Create, table.TimeToLive)
	}
	return s
}

// StepFailed checks that err is the failure of step (from 1) of a
// transaction, of kind want and of no other kind, with the SDK's
// cancellation reachable when DynamoDB cancelled it (viaDynamoDB).
type StepFailed func(t *testing.T, what string, err error, step int, want error, viaDynamoDB bool)

// StepFailedOf returns the StepFailed of a generated package: E is its
// *TransactionError, stepOf reads the step's number and action from one,
// and kinds are the package's kinds of error that err must not be besides
// want.
func StepFailedOf[E error](stepOf func(E) (step int, action string), kinds ...error) StepFailed {
	return func(t *testing.T, what string, err error, step int, want error, viaDynamoDB bool) {
		t.Helper()
		var te E
		if !errors.As(err, &te) {
			t.Errorf("%s: %v, want a %T", what, err, te)
			return
		}
		if got, action := stepOf(te); got != step {
			t.Errorf("%s: failed at step %d (%s), want %d", what, got, action, step)
		}
		if !errors.Is(err, want) {
			t.Errorf("%s: %v, want %v", what, err, want)
		}
		for _, other := range kinds {
			if other != want && errors.Is(err, other) {
				t.Errorf("%s: %v is also %v", what, err, other)
			}
		}
		var tce *types.TransactionCanceledException
		if errors.As(err, &tce) != viaDynamoDB {
			t.Errorf("%s: %v: wraps a TransactionCanceledException %v, want %v", what, err, !viaDynamoDB, viaDynamoDB)
		}
	}
}

// CheckEach checks that got has as many elements as want (noun names
// them in the message), and each of the first ones the two have with
// check, as what[i].
func CheckEach[T any](t *testing.T, what, noun string, got, want []T, check func(t *testing.T, what string, got, want T)) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d %s, want %d", what, len(got), noun, len(want))
	}
	for i := range min(len(got), len(want)) {
		check(t, fmt.Sprintf("%s[%d]", what, i), got[i], want[i])
	}
}

// Demo runs an example's demo, run (what its main does), against DynamoDB
// Local, and checks its output: a section "== P:" for each access pattern
// P of patterns, each text of wants, and every table the demo says it
// created ("created table NAME") gone when it returns. It returns the
// output for the demo's own checks.
func Demo(t *testing.T, run func(context.Context, *dynamodb.Client, io.Writer) error, patterns, wants []string) string {
	t.Helper()
	c := dynamotest.Client(t)
	var out bytes.Buffer
	if err := run(t.Context(), c, &out); err != nil {
		t.Fatalf("run: %v\noutput:\n%s", err, out.String())
	}
	text := out.String()
	t.Log("\n" + text)
	for _, p := range patterns {
		if !strings.Contains(text, "== "+p+":") {
			t.Errorf("the demo's output does not show pattern %s", p)
		}
	}
	for _, want := range wants {
		if !strings.Contains(text, want) {
			t.Errorf("the demo's output does not show %q", want)
		}
	}
	checkDeleted(t, c, text)
	return text
}

// createdTable finds the tables a demo says it created.
var createdTable = regexp.MustCompile(`(?m)^created table (\S+)$`)

// checkDeleted checks that the tables the demo says it created are gone.
func checkDeleted(t *testing.T, c *dynamodb.Client, text string) {
	t.Helper()
	names := createdTable.FindAllStringSubmatch(text, -1)
	if len(names) == 0 {
		t.Fatal("the demo's output names no table it created")
	}
	for _, m := range names {
		_, err := c.DescribeTable(t.Context(), &dynamodb.DescribeTableInput{TableName: aws.String(m[1])})
		if code := dynamotest.ErrorCode(err); code != "ResourceNotFoundException" {
			t.Errorf("table %s after the demo: error code %q (%v), want ResourceNotFoundException", m[1], code, err)
		}
	}
}

// Between returns the text after the line holding the first from, up to
// the next to.
func Between(text, from, to string) string {
	i := strings.Index(text, from)
	if i < 0 {
		return ""
	}
	rest := text[i+len(from):]
	if nl := strings.IndexByte(rest, '\n'); nl >= 0 {
		rest = rest[nl:]
	}
	if j := strings.Index(rest, to); j >= 0 {
		rest = rest[:j]
	}
	return rest
}

package iam_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/dyngen/dyngen/generator"
	"github.com/dyngen/dyngen/internal/iamcheck"
	"github.com/dyngen/dyngen/internal/output"
	"github.com/dyngen/dyngen/internal/output/iam"
	"github.com/dyngen/dyngen/internal/output/outputtest"
)

// streamSpec has two tables with streams, and consumers of each: one
// with lambda:, one without, one of the second table; the iam output
// under a file name of its own.
const streamSpec = `
version: 1
package: stream
tables:
  Shop: {partitionKey: PK, sortKey: SK, stream: NEW_AND_OLD_IMAGES, indexes: {GSI1: {partitionKey: GSI1PK, sortKey: GSI1SK}}}
  Tags:
    partitionKey: {name: tag, type: S}
    sortKey: {name: n, type: N}
    stream: KEYS_ONLY
entities:
  Customer:
    table: Shop
    attributes: {customerId: string, email: string}
    keys:
      primary: {pk: "CUSTOMER#{customerId}", sk: "PROFILE"}
      GSI1: {pk: "EMAIL#{email}", sk: "CUSTOMER"}
  Tag:
    table: Tags
    attributes: {tag: string, n: int}
patterns:
  GetCustomer: {get: Customer}
  CustomerByEmail: {get: Customer, by: [email]}
  CreateCustomer: {create: Customer}
  PutTag: {put: Tag}
consumers:
  Feed:
    on: {Customer: [insert, modify, remove]}
    lambda: {batchSize: 100}
  Audit:
    table: Shop
    on: {Customer: {remove: old}}
  TagLog:
    on: {Tag: {insert: keys, remove: keys}}
outputs:
  iam: {file: policy.json}
`

// streamARN is the ARN of a table's stream as IAM reads it: a stream
// label at the end.
var streamARN = regexp.MustCompile(`^arn:aws:dynamodb:\*:\*:table/[a-zA-Z0-9_.-]{3,255}/stream/\*$`)

// TestConsumerPolicies: each consumer's policy is a file of its own,
// named after the iam output's file and the consumer, listed by the
// model with the outputs; it follows the IAM grammar, allows the stream
// calls on its table's stream (ListStreams on "*", the one resource it
// takes) and nothing else: no stream of another table, no call on any
// table or index. The Store's policy allows no stream call.
func TestConsumerPolicies(t *testing.T) {
	sch := outputtest.CompileSchema(t, iamSchemaFile)
	res := generator.Check("spec.yaml", []byte(streamSpec))
	if err := res.Diags.Err(); err != nil {
		t.Fatal(err)
	}
	files, err := output.Render(res.Plan, output.NewSource("spec.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string][]byte{}
	var names []string
	for _, f := range files {
		byName[f.Name] = f.Data
		names = append(names, f.Name)
	}
	want := []string{"policy.json", "policy-feed.json", "policy-audit.json", "policy-tag-log.json"}
	if !slices.Equal(names[:len(want)], want) {
		t.Fatalf("files %q, want %q first", names, want)
	}
	var listed []string
	for _, n := range res.Model.OutputFiles() {
		listed = append(listed, n.Name)
	}
	if !slices.Equal(listed[:len(want)], want) {
		t.Errorf("the model lists %q", listed)
	}

	store, err := iamcheck.Parse(byName["policy.json"])
	if err != nil {
		t.Fatal(err)
	}
	streamCalls := []string{"dynamodb:DescribeStream", "dynamodb:GetRecords", "dynamodb:GetShardIterator", "dynamodb:ListStreams"}
	for _, table := range []string{"Shop", "Tags"} {
		for _, a := range streamCalls {
			if store.Allows(a, "table/"+table+"/stream/2024-01-01T00:00:00.000", nil) || store.Allows(a, "*", nil) {
				t.Errorf("the Store's policy allows %s", a)
			}
		}
	}

	tableCalls := []string{"dynamodb:GetItem", "dynamodb:Query", "dynamodb:Scan", "dynamodb:PutItem", "dynamodb:UpdateItem",
		"dynamodb:DeleteItem", "dynamodb:BatchGetItem", "dynamodb:BatchWriteItem", "dynamodb:ConditionCheckItem", "dynamodb:DescribeTable"}
	for file, table := range map[string]string{"policy-feed.json": "Shop", "policy-audit.json": "Shop", "policy-tag-log.json": "Tags"} {
		t.Run(file, func(t *testing.T) {
			doc := byName[file]
			checkConsumerPolicy(t, sch, doc)
			p, err := iamcheck.Parse(doc)
			if err != nil {
				t.Fatal(err)
			}
			other := map[string]string{"Shop": "Tags", "Tags": "Shop"}[table]
			for _, a := range streamCalls[:3] {
				if !p.Allows(a, "table/"+table+"/stream/2024-01-01T00:00:00.000", nil) {
					t.Errorf("%s on the stream of %s is denied", a, table)
				}
				if p.Allows(a, "table/"+other+"/stream/2024-01-01T00:00:00.000", nil) {
					t.Errorf("%s on the stream of %s is allowed", a, other)
				}
				if p.Allows(a, "table/"+table, nil) {
					t.Errorf("%s on table %s itself is allowed", a, table)
				}
			}
			if !p.Allows("dynamodb:ListStreams", "*", nil) {
				t.Error("ListStreams is denied")
			}
			for _, a := range tableCalls {
				for _, r := range []string{"table/" + table, "table/" + table + "/index/GSI1", "table/" + other} {
					for _, keys := range [][]string{nil, {"CUSTOMER#1"}, {"a"}} {
						if p.Allows(a, r, keys) {
							t.Errorf("%s on %s (keys %q) is allowed", a, r, keys)
						}
					}
				}
			}
		})
	}
}

// checkConsumerPolicy checks a consumer's policy against the grammar of
// IAM policies, and that each statement holds actions of DynamoDB's
// streams on a stream's ARN, or ListStreams on "*".
func checkConsumerPolicy(t *testing.T, sch interface{ Validate(any) error }, doc []byte) {
	t.Helper()
	var v any
	if err := json.Unmarshal(doc, &v); err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(v); err != nil {
		t.Errorf("grammar: %v", err)
	}
	var p iamcheck.Policy
	if err := json.Unmarshal(doc, &p); err != nil {
		t.Fatal(err)
	}
	if len(p.Statement) != 2 {
		t.Fatalf("%d statements:\n%s", len(p.Statement), doc)
	}
	for _, st := range p.Statement {
		switch {
		case slices.Equal(st.Action, []string{"dynamodb:ListStreams"}):
			if !slices.Equal(st.Resource, []string{"*"}) {
				t.Errorf("ListStreams on %q", st.Resource)
			}
		case slices.Equal(st.Action, []string{"dynamodb:DescribeStream", "dynamodb:GetRecords", "dynamodb:GetShardIterator"}):
			if len(st.Resource) != 1 || !streamARN.MatchString(st.Resource[0]) {
				t.Errorf("%s on %q", st.Action, st.Resource)
			}
		default:
			t.Errorf("statement %s allows %q", st.Sid, st.Action)
		}
		if st.Effect != "Allow" || st.Condition != nil || !regexp.MustCompile(`^[A-Za-z0-9]+$`).MatchString(st.Sid) {
			t.Errorf("statement %+v", st)
		}
		for _, a := range st.Action {
			if !slices.Contains(dynamodbActions, strings.TrimPrefix(a, "dynamodb:")) {
				t.Errorf("%s is no action of DynamoDB", a)
			}
		}
	}
}

// TestConsumerPolicyCfnLint has AWS's cfn-lint check each consumer's
// policy as the document of a managed policy: its grammar and actions,
// from AWS's own data.
func TestConsumerPolicyCfnLint(t *testing.T) {
	lint := outputtest.PyCfnLint(t)
	res := generator.Check("spec.yaml", []byte(streamSpec))
	if err := res.Diags.Err(); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var files []string
	for _, c := range res.Model.Consumers {
		data, err := json.Marshal(iam.IAMConsumerDocument(c))
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Join(dir, c.Name+".json")
		if err := os.WriteFile(name, cfnPolicy(t, data), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, name)
	}
	for _, line := range outputtest.RunPyCfnLint(t, lint, append([]string{"--format", "parseable", "--"}, files...)...) {
		t.Errorf("cfn-lint: %s", line)
	}
}

// TestConsumerFileClash: a consumer's policy file that meets another
// output's file is refused, at the one listed second, with its fix.
func TestConsumerFileClash(t *testing.T) {
	for _, tc := range []struct{ outputs, want string }{
		{"  workbench: {file: policy-feed.json}\n  iam: {file: policy.json}", "spec.yaml:27:5: output workbench and the IAM policy of consumer Feed both give the file policy-feed.json; rename consumer Feed"},
		{"  iam: {file: policy.json}\n  workbench: {file: Policy-Feed.json}", "the IAM policy of consumer Feed and output workbench both give the file policy-feed.json and Policy-Feed.json, one file where names ignore case; set file: on output workbench"},
	} {
		spec := strings.Replace(streamSpec, "  iam: {file: policy.json}", tc.outputs, 1)
		err := generator.Check("spec.yaml", []byte(spec)).Diags.Err()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("error %v, want %q", err, tc.want)
		}
	}
}

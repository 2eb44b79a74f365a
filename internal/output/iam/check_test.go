package iam_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/dyngen/dyngen/internal/output/outputtest"
)

// The IAM policy checker: the grammar of the IAM JSON policy language as
// a JSON Schema (testdata/iam-policy.schema.json), and what a schema
// can't say: the ARNs of DynamoDB's tables and indexes, its action
// names, the condition operators and keys, the characters a policy may
// hold and the policy variables it may use.

const iamSchemaFile = "testdata/iam-policy.schema.json"

// dynamodbActions are the IAM actions of DynamoDB (Service Authorization
// Reference, "Actions, resources, and condition keys for Amazon
// DynamoDB"). TransactWriteItems and TransactGetItems are API operations,
// not actions: a transaction is authorized by the action of each of its
// items ("Using IAM with DynamoDB transactions").
var dynamodbActions = []string{
	"AssociateTableReplica", "BatchGetItem", "BatchWriteItem", "ConditionCheckItem",
	"CreateBackup", "CreateGlobalTable", "CreateGlobalTableWitness", "CreateTable", "CreateTableReplica",
	"DeleteBackup", "DeleteGlobalTableWitness", "DeleteItem", "DeleteResourcePolicy", "DeleteTable", "DeleteTableReplica",
	"DescribeBackup", "DescribeContinuousBackups", "DescribeContributorInsights",
	"DescribeEndpoints", "DescribeExport", "DescribeGlobalTable", "DescribeGlobalTableSettings",
	"DescribeImport", "DescribeKinesisStreamingDestination", "DescribeLimits",
	"DescribeReservedCapacity", "DescribeReservedCapacityOfferings", "DescribeStream",
	"DescribeTable", "DescribeTableReplicaAutoScaling", "DescribeTimeToLive",
	"DisableKinesisStreamingDestination", "EnableKinesisStreamingDestination",
	"ExportTableToPointInTime", "GetAbacStatus", "GetItem", "GetRecords", "GetResourcePolicy", "GetShardIterator",
	"ImportTable", "InjectError", "ListBackups", "ListContributorInsights", "ListExports", "ListGlobalTables",
	"ListImports", "ListStreams", "ListTables", "ListTagsOfResource",
	"PartiQLDelete", "PartiQLInsert", "PartiQLSelect", "PartiQLUpdate",
	"PurchaseReservedCapacityOfferings", "PutItem", "PutResourcePolicy", "Query",
	"ReadDataForReplication", "ReplicateSettings", "RestoreTableFromAwsBackup", "RestoreTableFromBackup", "RestoreTableToPointInTime", "Scan",
	"StartAwsBackupJob", "TagResource", "UntagResource", "UpdateAbacStatus", "UpdateContinuousBackups",
	"UpdateContributorInsights", "UpdateGlobalTable", "UpdateGlobalTableSettings",
	"UpdateGlobalTableVersion", "UpdateItem", "UpdateKinesisStreamingDestination", "UpdateTable",
	"UpdateTableReplicaAutoScaling", "UpdateTimeToLive", "WriteDataForReplication",
}

// conditionOperators are IAM's condition operators ("IAM JSON policy
// elements: Condition operators"); each but Null may end in IfExists,
// and take ForAllValues: or ForAnyValue: before it.
var conditionOperators = []string{
	"StringEquals", "StringNotEquals", "StringEqualsIgnoreCase", "StringNotEqualsIgnoreCase",
	"StringLike", "StringNotLike", "NumericEquals", "NumericNotEquals", "NumericLessThan",
	"NumericLessThanEquals", "NumericGreaterThan", "NumericGreaterThanEquals", "DateEquals",
	"DateNotEquals", "DateLessThan", "DateLessThanEquals", "DateGreaterThan",
	"DateGreaterThanEquals", "Bool", "BinaryEquals", "IpAddress", "NotIpAddress", "ArnEquals",
	"ArnLike", "ArnNotEquals", "ArnNotLike", "Null",
}

// dynamodbKeys are DynamoDB's condition keys, and whether each is
// multivalued (ArrayOfString: the set operators apply to it).
var dynamodbKeys = map[string]bool{
	"dynamodb:LeadingKeys": true, "dynamodb:Attributes": true, "dynamodb:Select": false,
	"dynamodb:ReturnValues": false, "dynamodb:ReturnConsumedCapacity": false,
	"dynamodb:EnclosingOperation": false, "dynamodb:FullTableScan": false,
}

// dynamoName is a DynamoDB table or index name.
const dynamoName = `[a-zA-Z0-9_.-]{3,255}`

// dynamodbARN is the ARN of a table or of an index of it, its region
// and account given or *.
var dynamodbARN = regexp.MustCompile(`^arn:aws(-cn|-us-gov)?:dynamodb:([a-z]{2}(-[a-z]+)+-[0-9]|\*):([0-9]{12}|\*):table/` + dynamoName + `(/index/` + dynamoName + `)?$`)

// policyVariable is a policy variable; only the special ones that write
// *, ? and $ may appear in the policies dyngen writes, whose values come
// from the spec and must be inert.
var policyVariable = regexp.MustCompile(`\$\{[^}]*\}`)

// checkIAMPolicy checks doc against the grammar and returns what is
// wrong with it.
func checkIAMPolicy(t *testing.T, sch *jsonschema.Schema, doc []byte) []string {
	t.Helper()
	var errs []string
	bad := func(format string, args ...any) { errs = append(errs, fmt.Sprintf(format, args...)) }
	// "IAM policy documents can contain only the following Unicode
	// characters: horizontal tab (U+0009), linefeed (U+000A), carriage
	// return (U+000D), and characters in the range U+0020 to U+00FF."
	text := string(doc)
	for _, r := range text {
		if r != '\t' && r != '\n' && r != '\r' && (r < 0x20 || r > 0xFF) {
			bad("character %U is not allowed in a policy", r)
		}
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return append(errs, fmt.Sprintf("not JSON: %v", err))
	}
	if err := sch.Validate(v); err != nil {
		return append(errs, fmt.Sprintf("grammar: %v", err))
	}
	var p struct {
		Version   string
		Statement []struct {
			Sid       string
			Effect    string
			Action    []string
			Resource  []string
			Condition map[string]map[string]any
		}
	}
	dec := json.NewDecoder(bytes.NewReader(doc))
	if err := dec.Decode(&p); err != nil {
		// The grammar lets one statement, or one action, stand without
		// an array; dyngen always writes arrays.
		return append(errs, fmt.Sprintf("not in dyngen's form (arrays everywhere): %v", err))
	}
	if p.Version != "2012-10-17" {
		bad("version %q: policy variables need 2012-10-17", p.Version)
	}
	sids := map[string]bool{}
	for i, st := range p.Statement {
		at := fmt.Sprintf("statement %d (%s)", i, st.Sid)
		switch {
		case st.Sid == "":
			bad("%s: no Sid", at)
		case sids[st.Sid]:
			bad("%s: Sid used twice", at)
		}
		sids[st.Sid] = true
		for _, a := range st.Action {
			name, ok := strings.CutPrefix(a, "dynamodb:")
			if !ok || !slices.Contains(dynamodbActions, name) {
				bad("%s: %q is not an action of DynamoDB", at, a)
			}
		}
		for _, r := range st.Resource {
			if !dynamodbARN.MatchString(r) {
				bad("%s: %q is not the ARN of a DynamoDB table or index", at, r)
			}
		}
		for op, keys := range st.Condition {
			base := op
			set := ""
			if q, rest, ok := strings.Cut(op, ":"); ok {
				set, base = q, rest
				if set != "ForAllValues" && set != "ForAnyValue" {
					bad("%s: %q is not a set operator", at, set)
				}
			}
			if base != "Null" {
				base = strings.TrimSuffix(base, "IfExists")
			}
			if !slices.Contains(conditionOperators, base) {
				bad("%s: %q is not a condition operator", at, op)
			}
			for k, val := range keys {
				multi, dynamo := dynamodbKeys[k]
				switch {
				case !dynamo && !strings.HasPrefix(k, "aws:"):
					bad("%s: %q is not a condition key of DynamoDB", at, k)
				case dynamo && set != "" && !multi:
					bad("%s: %s on single-valued key %s", at, set, k)
				case dynamo && set == "" && multi && base != "Null":
					bad("%s: multivalued key %s needs ForAllValues or ForAnyValue", at, k)
				}
				vals, ok := val.([]any)
				if !ok {
					vals = []any{val}
				}
				for _, x := range vals {
					s, _ := x.(string)
					if base == "Null" && s != "true" && s != "false" {
						bad("%s: Null takes true or false, not %v", at, x)
					}
					for _, pv := range policyVariable.FindAllString(s, -1) {
						if pv != "${*}" && pv != "${?}" && pv != "${$}" {
							bad("%s: %q holds the policy variable %s", at, s, pv)
						}
					}
				}
				// "ForAllValues ... also returns true if there are no
				// context keys in the request": the Null guard keeps a
				// request with no key out.
				if set == "ForAllValues" && st.Effect == "Allow" {
					if null, _ := st.Condition["Null"][k].(string); null != "false" {
						bad("%s: ForAllValues on %s without the guard \"Null\": {%q: \"false\"}", at, k, k)
					}
				}
			}
		}
	}
	return errs
}

// TestIAMChecker makes sure the checker refuses what it should: each
// broken policy has at least one error.
func TestIAMChecker(t *testing.T) {
	sch := outputtest.CompileSchema(t, iamSchemaFile)
	good := `{"Version": "2012-10-17", "Statement": [{"Sid": "A", "Effect": "Allow", "Action": ["dynamodb:GetItem"],
		"Resource": ["arn:aws:dynamodb:*:*:table/Things"],
		"Condition": {"ForAllValues:StringLike": {"dynamodb:LeadingKeys": ["A#*"]}, "Null": {"dynamodb:LeadingKeys": "false"}}}]}`
	if errs := checkIAMPolicy(t, sch, []byte(good)); len(errs) > 0 {
		t.Fatalf("a good policy is refused: %v", errs)
	}
	// Each broken policy, and what its error says.
	broken := map[string][2]string{
		"no statement":         {`{"Version": "2012-10-17"}`, "grammar"},
		"unknown element":      {`{"Version": "2012-10-17", "Id": "x", "Statement": []}`, "grammar"},
		"principal":            {strings.Replace(good, `"Sid"`, `"Principal": "*", "Sid"`, 1), "grammar"},
		"bad effect":           {strings.Replace(good, `"Allow"`, `"Permit"`, 1), "grammar"},
		"sid with a dash":      {strings.Replace(good, `"Sid": "A"`, `"Sid": "A-1"`, 1), "grammar"},
		"no resource":          {strings.Replace(good, `"Resource": ["arn:aws:dynamodb:*:*:table/Things"],`, ``, 1), "grammar"},
		"empty action list":    {strings.Replace(good, `["dynamodb:GetItem"]`, `[]`, 1), "grammar"},
		"old version":          {strings.Replace(good, `2012-10-17`, `2008-10-17`, 1), "policy variables need"},
		"transact action":      {strings.Replace(good, `dynamodb:GetItem`, `dynamodb:TransactWriteItems`, 1), "not an action of DynamoDB"},
		"other service":        {strings.Replace(good, `dynamodb:GetItem`, `s3:GetObject`, 1), "not an action of DynamoDB"},
		"short table name":     {strings.Replace(good, `table/Things`, `table/T`, 1), "not the ARN"},
		"not an arn":           {strings.Replace(good, `arn:aws:dynamodb:*:*:table/Things`, `Things`, 1), "not the ARN"},
		"unknown operator":     {strings.Replace(good, `ForAllValues:StringLike`, `ForAllValues:StringMatches`, 1), "not a condition operator"},
		"unknown set operator": {strings.Replace(good, `ForAllValues:StringLike`, `ForEach:StringLike`, 1), "not a set operator"},
		"unknown key":          {strings.Replace(good, `"dynamodb:LeadingKeys": ["A#*"]`, `"dynamodb:Leadingkeys": ["A#*"]`, 1), "not a condition key"},
		"no set operator":      {strings.Replace(good, `ForAllValues:StringLike`, `StringLike`, 1), "needs ForAllValues"},
		"no Null guard":        {strings.Replace(good, `"Null": {"dynamodb:LeadingKeys": "false"}`, `"Null": {"dynamodb:LeadingKeys": "true"}`, 1), "without the guard"},
		"Null not boolean":     {strings.Replace(good, `"false"}`, `"no"}`, 1), "Null takes true or false"},
		"policy variable":      {strings.Replace(good, `A#*`, `${aws:username}*`, 1), "holds the policy variable"},
		"line separator":       {strings.Replace(good, `A#*`, "A\u2028*", 1), "not allowed in a policy"},
		"duplicate sid":        {strings.Replace(good, `}}]}`, `}}, {"Sid": "A", "Effect": "Allow", "Action": ["dynamodb:Query"], "Resource": ["arn:aws:dynamodb:*:*:table/Things"]}]}`, 1), "Sid used twice"},
		"single-valued ForAll": {strings.Replace(good, `"dynamodb:LeadingKeys": ["A#*"]}`, `"dynamodb:LeadingKeys": ["A#*"], "dynamodb:Select": "COUNT"}`, 1), "on single-valued key"},
	}
	for name, c := range broken {
		doc, want := c[0], c[1]
		if doc == good {
			t.Fatalf("%s: the broken policy is the good one", name)
		}
		errs := checkIAMPolicy(t, sch, []byte(doc))
		if !slices.ContainsFunc(errs, func(e string) bool { return strings.Contains(e, want) }) {
			t.Errorf("%s: errors %q, want one about %q, for\n%s", name, errs, want, doc)
		}
	}
}

// readFile reads a file the test needs.
func readFile(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

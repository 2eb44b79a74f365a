package iam

import (
	"strings"

	"github.com/dyngen/dyngen/internal/diag"
	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/output/format"
)

// The IAM policy of each consumer of a table's stream, a file of its own
// beside iam-policy.json (ConsumerFile): what reads the stream for the
// consumer (Lambda's event source mapping, as the function's execution
// role, or a reader of the DynamoDB Streams API) makes the stream calls
// alone, and no call on the table, so that its role is given those and
// nothing else. The Store's policy holds none of them. A consumer that
// releases expired items (release:) may also write what a release
// writes, and nothing else.

// The actions of the DynamoDB Streams calls a reader of a stream makes:
// DescribeStream (the shards), GetShardIterator and GetRecords (a
// shard's records) on the stream, and ListStreams (the table's streams),
// which takes no resource but "*" (Service Authorization Reference,
// actions defined by Amazon DynamoDB: ListStreams has no resource type).
// Lambda reads a stream for an event source mapping with the four, as
// the function's execution role (AWSLambdaDynamoDBExecutionRole holds
// them).
const (
	ActDescribeStream   Action = "DescribeStream"
	ActGetShardIterator Action = "GetShardIterator"
	ActGetRecords       Action = "GetRecords"
	ActListStreams      Action = "ListStreams"
)

// StreamActions are the actions of a consumer's policy on its table's
// stream, in the order the statement lists them.
var StreamActions = []Action{ActDescribeStream, ActGetRecords, ActGetShardIterator}

// ConsumerFile is the file of consumer c's policy, beside the iam
// output's file (iam-policy.json): the file's name without .json, a
// hyphen and the consumer's Go name in snake case, hyphens for its
// underscores (iam-policy-feed.json, iam-policy-tag-log.json).
func ConsumerFile(file string, c *model.Consumer) string {
	base := file
	if strings.HasSuffix(strings.ToLower(file), ".json") {
		base = file[:len(file)-len(".json")]
	}
	return base + "-" + strings.ReplaceAll(model.Snake(c.GoName), "_", "-") + ".json"
}

// ConsumerFiles names the files the iam output, of file file, writes for
// consumer c (model.Output.ConsumerFiles): its policy.
func ConsumerFiles(file string, c *model.Consumer) []model.GenName {
	return []model.GenName{{Name: ConsumerFile(file, c), From: "the IAM policy of consumer " + c.Name, Pos: c.Pos, Fix: "rename consumer " + c.Name}}
}

// StreamSid is the statement id of consumer c's stream reads: its
// table's Go name, Stream, then the actions
// (ShopStreamDescribeStreamGetRecordsGetShardIterator).
func StreamSid(c *model.Consumer) string {
	sid := c.Table.GoName + "Stream"
	for _, a := range StreamActions {
		sid += string(a)
	}
	return sid
}

// ListStreamsSid is the statement id of ListStreams.
const ListStreamsSid = "ListStreams"

// StreamARN is the ARN of every stream of table t, as the iam output
// writes it: any region and account, the spec's table name, any stream
// label.
func StreamARN(t *model.Table) string { return ARNPrefix + "table/" + t.Name + "/stream/*" }

// ConsumerDocument is the policy of consumer c: the stream reads on its
// table's stream, its resource as arn writes it, and ListStreams on
// every resource (the one it takes); each other string as str makes it
// inert for the output.
func ConsumerDocument(c *model.Consumer, arn func(t *model.Table) any, str func(string) string) PolicyDocument {
	read := PolicyStatement{Sid: str(StreamSid(c)), Effect: "Allow", Resource: []any{arn(c.Table)}}
	for _, a := range StreamActions {
		read.Action = append(read.Action, str("dynamodb:"+string(a)))
	}
	list := PolicyStatement{Sid: ListStreamsSid, Effect: "Allow", Action: []string{str("dynamodb:" + string(ActListStreams))}, Resource: []any{"*"}}
	doc := PolicyDocument{Version: PolicyVersion, Statement: []PolicyStatement{read, list}}
	if rel := releaseStatement(c, str); rel != nil {
		doc.Statement = append(doc.Statement, *rel)
	}
	return doc
}

// ReleaseActions are the actions of a consumer's releases of expired
// items (model.Consumer.Release), on its table: the Put of the receipt,
// the Delete of each claim and the update of each counter, which its
// TransactWriteItems sends.
var ReleaseActions = []Action{ActPutItem, ActUpdateItem, ActDeleteItem}

// ReleaseSid is the statement id of consumer c's releases: its table's
// Go name and Release.
func ReleaseSid(c *model.Consumer) string { return c.Table.GoName + "Release" }

// releaseStatement is the statement of consumer c's releases, or nil for
// a consumer that releases nothing: the release actions on its table,
// bound to the partition keys of the items a release writes (the
// receipts, the claims and the counters of the entities it releases),
// which all start with literal text.
func releaseStatement(c *model.Consumer, str func(string) string) *PolicyStatement {
	if !c.Releases() {
		return nil
	}
	var pks []*model.Template
	for _, e := range c.Table.Entities {
		if e.ReceiptOf == c.Table {
			pks = append(pks, e.PrimaryKey().PK)
		}
	}
	for _, e := range c.Release {
		for _, u := range e.Unique {
			pks = append(pks, u.Claim.PrimaryKey().PK)
		}
		for _, cnt := range e.Counts {
			pks = append(pks, cnt.Counter.PrimaryKey().PK)
		}
	}
	st := &PolicyStatement{Sid: str(ReleaseSid(c)), Effect: "Allow", Resource: []any{ARNPrefix + "table/" + c.Table.Name}}
	for _, a := range ReleaseActions {
		st.Action = append(st.Action, str("dynamodb:"+string(a)))
	}
	if keys, _ := LeadingKeys(pks); keys != nil {
		for i := range keys {
			keys[i] = str(keys[i])
		}
		st.Condition = &PolicyCondition{PolicyKeys{keys}, PolicyNull{"false"}}
	}
	return st
}

// IAMConsumerDocument is consumer c's policy as the iam output writes
// it: the stream's ARN StreamARN.
func IAMConsumerDocument(c *model.Consumer) PolicyDocument {
	return ConsumerDocument(c, func(t *model.Table) any { return StreamARN(t) }, func(s string) string { return s })
}

// checkConsumers refuses a consumer's policy IAM would refuse: a
// statement id that is not alphanumeric (its table's Go name).
func checkConsumers(m *model.Model, diags *diag.List) {
	reported := map[*model.Table]bool{}
	for _, c := range m.Consumers {
		if sid := StreamSid(c); !format.IsAlphanumeric(sid) && !reported[c.Table] {
			reported[c.Table] = true
			diags.Errorf(c.Table.Pos, "the IAM policy of consumer %s reads table %s's stream in the statement %q, and a statement id holds only A-Z, a-z and 0-9; rename the table", c.Name, c.Table.Name, sid)
		}
	}
}

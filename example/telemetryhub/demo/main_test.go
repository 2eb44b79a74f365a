package main

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/dyngen/dyngen/internal/dynamotest"
)

// patterns are the access patterns of spec.yaml: the demo runs each.
var patterns = []string{
	"GetAccount", "GetUser", "UsersOfAccount", "ServiceGroupsOfAccount", "AccountData",
	"ServiceGroupsOfUser", "UsersOfServiceGroup", "UserByID",
	"CreateAccount", "CreateUser", "CreateServiceGroup", "GrantServiceGroup", "RevokeServiceGroup",
}

func TestDemo(t *testing.T) {
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
	for _, want := range []string{
		"creating it again: error ErrAlreadyExists",
		"granting usr-0001 sg-dev-41 again: step 2 (create Membership): error ErrAlreadyExists",
		"granting a user who does not exist: step 1 (check User): error ErrNotFound",
		"granting a group that does not exist: step 3 (update ServiceGroup): error ErrNotFound",
		"user usr-0003 -> service group sg-dev-41 (members 2)",
		"usr-9999: error ErrNotFound",
		"account       acc-7f3a9c \"Acme Rockets\"",
		"service group sg-prod-17 \"prod\", members 2",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the demo's output does not show %q", want)
		}
	}
	for _, tc := range []struct {
		section string
		want    []string
		not     []string
	}{
		{"== ServiceGroupsOfUser:", []string{"usr-0001 -> service group sg-dev-41", "usr-0001 -> service group sg-prod-17"}, []string{"usr-0002", "usr-0003"}},
		{"== UsersOfServiceGroup:", []string{"usr-0001 -> service group sg-prod-17", "usr-0002 -> service group sg-prod-17"}, []string{"sg-dev-41", "usr-0003"}},
		{"== UserByID:", []string{"usr-0003 of acc-7f3a9c: Marvin Martian"}, []string{"usr-0001", "usr-0002"}},
		{"== RevokeServiceGroup:", []string{"revoking it again: step 1 (delete Membership): error ErrConditionFailed", "sg-prod-17, members 1:", "usr-0002 -> service group sg-prod-17"}, []string{"usr-0001"}},
	} {
		sec := between(text, tc.section, "\n== ")
		for _, w := range tc.want {
			if !strings.Contains(sec, w) {
				t.Errorf("%s output lacks %q:\n%s", tc.section, w, sec)
			}
		}
		for _, n := range tc.not {
			if strings.Contains(sec, n) {
				t.Errorf("%s output shows %q:\n%s", tc.section, n, sec)
			}
		}
	}
	checkDeleted(t, c, text)
}

// between returns the text after the line holding the first from, up to
// the next to.
func between(text, from, to string) string {
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

// checkDeleted checks that the tables the demo says it created are gone.
func checkDeleted(t *testing.T, c *dynamodb.Client, text string) {
	t.Helper()
	names := regexp.MustCompile(`(?m)^created table (\S+)$`).FindAllStringSubmatch(text, -1)
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

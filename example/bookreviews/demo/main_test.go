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
	"GetBook", "GetUser", "UserByEmail", "BookPage", "ReviewsOfBook", "UserPage", "ReviewsOfUser",
	"AddBook", "AddUser", "ChangeEmail", "WriteReview", "UpdateReview", "DeleteReview",
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
		`book   978-0134190440 "The Go Programming Language" by Alan A. A. Donovan, Brian W. Kernighan (2015), 5 reviews`,
		"writing the first again: step 1 (create Review): error ErrAlreadyExists",
		"a user with alice's email: step 2 (claim User.email): error ErrAlreadyExists",
		"bob@example.com is bob",
		"carol@example.com now: error ErrNotFound",
		"a review of a missing book: step 2 (update Book): error ErrNotFound",
		"deleting it again: step 1 (delete Review): error ErrConditionFailed",
		"Kernighan (2015), 4 reviews",
		"adding it again: error ErrAlreadyExists",
		"a missing book: error ErrNotFound",
		"updating a missing review: error ErrNotFound",
		`10/10 "Clear and precise; I reread it every year."`,
		"the book has 4 reviews left",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the demo's output does not show %q", want)
		}
	}
	checkDeleted(t, c, text)
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

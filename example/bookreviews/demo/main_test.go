package main

import (
	"testing"

	"github.com/dyngen/dyngen/example/internal/exampletest"
)

// patterns are the access patterns of spec.yaml: the demo runs each.
var patterns = []string{
	"GetBook", "GetUser", "UserByEmail", "BookPage", "ReviewsOfBook", "UserPage", "ReviewsOfUser",
	"AddBook", "AddUser", "ChangeEmail", "WriteReview", "UpdateReview", "DeleteReview",
}

func TestDemo(t *testing.T) {
	exampletest.Demo(t, run, patterns, []string{
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
	})
}

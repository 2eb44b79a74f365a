package compat

import (
	"strings"

	"github.com/dyngen/dyngen/internal/model"
)

// A Tool is an output of the spec that deploys its tables
// (CloudFormation, Terraform): what its deploy does where DynamoDB can't
// change a table in place. The check says it in the infrastructure
// findings of a spec that asks for the output; each output's package
// gives its own (output.Tools).
type Tool struct {
	// Replaced says what deploying table t does when its key or its
	// local indexes change; typeOnly, when only a key attribute's type
	// does.
	Replaced func(t *model.Table, typeOnly bool) string
	// GlobalIndexes says what deploying n creations and deletions of
	// global indexes of table t at once does, and whether the deploy
	// fails.
	GlobalIndexes func(t *model.Table, n int) (fails bool, what string)
	// Removed says what deploying the outputs without table name does.
	Removed func(name string) string
}

// removed is what deploying the outputs without table name does: each
// tool's answer, or, with none, the deploy's, which is yours.
func (c *checker) removed(name string) string {
	if len(c.tools) == 0 {
		return "its items: a deploy that deletes the table deletes them"
	}
	var what []string
	for _, tl := range c.tools {
		what = append(what, tl.Removed(name))
	}
	return "its items: " + strings.Join(what, "; ")
}

// replaced is what deploying table t, whose key or local indexes
// change, does: DynamoDB's answer, then each tool's.
func (c *checker) replaced(t *model.Table, typeOnly bool) string {
	out := "the table's items: DynamoDB can't change a table's key or local indexes, only create the table anew, empty"
	for _, tl := range c.tools {
		out += "; " + tl.Replaced(t, typeOnly)
	}
	return out
}

// globalIndexes is what deploying n creations and deletions of global
// indexes of table t at once does, and whether it fails: DynamoDB's
// UpdateTable takes one a call, and each tool says what its deploy
// does; with no tool of dyngen's, the deploy is the user's, and may
// fail.
func (c *checker) globalIndexes(t *model.Table, n int) (bool, string) {
	if len(c.tools) == 0 {
		return true, "the deploy: DynamoDB's UpdateTable creates or deletes one global index a call, so a deploy that sends them at once fails"
	}
	fails := false
	var what []string
	for _, tl := range c.tools {
		f, w := tl.GlobalIndexes(t, n)
		fails = fails || f
		what = append(what, w)
	}
	if !fails {
		return false, "no deploy: " + strings.Join(what, "; ")
	}
	return true, "the deploy: " + strings.Join(what, "; ")
}

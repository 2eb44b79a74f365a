package generator

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dyngen/dyngen/internal/model"
)

// actionsSpec is a spec with a transaction of n steps, each an update of
// a different user (bound to an input of its own).
func actionsSpec(n int) string {
	var b strings.Builder
	b.WriteString(`version: 1
package: many
tables:
  Main: {partitionKey: PK, sortKey: SK}
entities:
  User:
    attributes: {username: {type: string, maxLength: 64}, followers: int}
    keys: {primary: {pk: "USER#{username}", sk: "USER#{username}"}}
patterns:
  Many:
    transaction:
`)
	for i := range n {
		fmt.Fprintf(&b, "      - {update: User, add: [{followers: 1}], bind: {username: u%d}}\n", i+1)
	}
	return b.String()
}

// TestTransactionActions: DynamoDB takes at most 100 actions in a
// transaction: a transaction of 100 steps generates a package that
// compiles, one of 101 is refused at the 101st step.
func TestTransactionActions(t *testing.T) {
	files, diags := Generate("many.yaml", "many.yaml", []byte(actionsSpec(model.MaxTransactionActions)))
	if diags.HasErrors() {
		t.Fatalf("100 steps: %v", diags.Err())
	}
	for _, err := range packageProblems(files) {
		t.Error(err)
	}
	_, diags = Generate("many.yaml", "many.yaml", []byte(actionsSpec(model.MaxTransactionActions+1)))
	if !diags.HasErrors() {
		t.Fatal("101 steps: no error")
	}
	want := fmt.Sprintf("many.yaml:%d:9: transaction Many has 101 steps", 12+model.MaxTransactionActions)
	if msg := diags.Err().Error(); !strings.HasPrefix(msg, want) {
		t.Errorf("101 steps: %s; want it to start %q", msg, want)
	}
}

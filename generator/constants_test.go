package generator

import (
	"strings"
	"testing"
)

// TestNumberConstants: a number constant of a condition is sent as
// DynamoDB reads numbers, whatever form YAML writes it in, and one that
// is no finite number is refused.
func TestNumberConstants(t *testing.T) {
	spec := func(n, f string) []byte {
		return []byte(`version: 1
package: consts
tables:
  Main: {partitionKey: PK, sortKey: SK}
entities:
  Item:
    attributes: {id: string, n: int, f: float}
    keys:
      primary: {pk: "I#{id}", sk: "I"}
patterns:
  Drop: {delete: Item, when: {n: {">=": ` + n + `}, f: {"<": ` + f + `}}}
`)
	}
	files, diags := Generate("spec.yaml", "spec.yaml", spec("0x10", "1_000.5"))
	if diags.HasErrors() {
		t.Fatalf("errors: %v", diags.Err())
	}
	var patterns string
	for _, f := range files {
		if f.Name == "patterns.go" {
			patterns = string(f.Data)
		}
	}
	for _, want := range []string{`&types.AttributeValueMemberN{Value: "16"}`, `&types.AttributeValueMemberN{Value: "1000.5"}`} {
		if !strings.Contains(patterns, want) {
			t.Errorf("patterns.go does not send %s", want)
		}
	}
	for _, f := range []string{".inf", "-.inf", ".nan", "1e400"} {
		if _, diags := Generate("spec.yaml", "spec.yaml", spec("1", f)); !diags.HasErrors() {
			t.Errorf("the float constant %s is accepted", f)
		}
	}
}

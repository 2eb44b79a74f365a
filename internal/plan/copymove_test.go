package plan_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dyngen/dyngen/generator"
)

// An update that moves a copy holds every attribute as read, each part
// sent as `#a = :a_read` or, when the item read lacks the attribute, as
// attribute_not_exists(#a): the ConditionExpression is measured with
// each part in its longer form, and refused when a call could send more
// than DynamoDB takes.
func TestCopyMoveConditionSize(t *testing.T) {
	for _, tc := range []struct {
		attrs   int
		refused bool
	}{{100, false}, {150, true}} {
		var b strings.Builder
		b.WriteString("version: 1\npackage: wide\ntables:\n  Main: {partitionKey: PK, sortKey: SK}\nentities:\n  Wide:\n    attributes:\n      id: string\n      email: string\n")
		for i := range tc.attrs {
			fmt.Fprintf(&b, "      a%03d: {type: string, optional: true}\n", i)
		}
		b.WriteString("    keys: {primary: {pk: \"WIDE#{id}\", sk: \"WIDE\"}}\n    copies:\n      ByEmail: {pk: \"WEMAIL#{email}\", sk: \"WEMAIL\"}\npatterns:\n  MoveWide: {update: Wide, set: [email]}\n")
		res := generator.Check("spec.yaml", []byte(b.String()))
		err := res.Diags.Err()
		refused := err != nil && strings.Contains(err.Error(), "ConditionExpression may be") && strings.Contains(err.Error(), "moves a copy")
		if refused != tc.refused {
			t.Errorf("%d optional attributes: refused %v, want %v (%v)", tc.attrs, refused, tc.refused, err)
		}
		if !tc.refused && err != nil {
			t.Errorf("%d optional attributes: %v", tc.attrs, err)
		}
	}
}

package generator

import (
	"strings"
	"testing"
)

// shopSpec is a table of customers with two global indexes, deployed
// by the outputs outs, changed by the replacements of change.
func shopSpec(outs string, change ...string) []byte {
	s := `version: 1
package: shop
tables:
  Shop:
    partitionKey: PK
    sortKey: SK
    indexes:
      ByEmail: {partitionKey: GSI1PK}
      ByName: {partitionKey: GSI2PK}
entities:
  Customer:
    attributes:
      id: string
      email: string
      name: string
    keys:
      primary: {pk: "CUSTOMER#{id}", sk: "PROFILE"}
      ByEmail: {pk: "EMAIL#{email}"}
      ByName: {pk: "NAME#{name}"}
patterns:
  GetCustomer: {get: Customer}
outputs:
` + outs
	return []byte(strings.NewReplacer(change...).Replace(s))
}

// Generation warns, at the table, of each breaking change of the
// tables' infrastructure since the committed lock, saying what each
// output that deploys them does (the check's findings, compat.Tool):
// a key changed replaces the table (CloudFormation refuses to while its
// name stays; Terraform destroys it), and is not also warned of for its
// global indexes, created with it; two global indexes removed fail a
// CloudFormation deploy, not a Terraform one; a stream's view type
// changed can't be deployed in one update (the stream is disabled, and
// a new one of another ARN enabled), while a stream added can; a
// finding the spec accepts is not warned of.
func TestInfrastructureWarnings(t *testing.T) {
	both := "  cloudformation:\n  terraform:\n"
	noIndexes := []string{"    indexes:\n      ByEmail: {partitionKey: GSI1PK}\n      ByName: {partitionKey: GSI2PK}\n", "", "      ByEmail: {pk: \"EMAIL#{email}\"}\n      ByName: {pk: \"NAME#{name}\"}\n", ""}
	stream := []string{"    sortKey: SK\n", "    sortKey: SK\n    stream: NEW_IMAGE\n"}
	for _, c := range []struct {
		name, outs string
		base       []string
		change     []string
		want       []string
		not        []string
	}{
		{"stream view type", both, stream, []string{stream[0], strings.Replace(stream[1], "NEW_IMAGE", "NEW_AND_OLD_IMAGES", 1)},
			[]string{"spec.yaml:7:13: warning: the stream of table Shop changes from NEW_IMAGE to NEW_AND_OLD_IMAGES since the committed lock", "it must be disabled and a new one enabled, of another ARN", "[infrastructure/Shop/stream-changed: dyngen compat lists every finding"},
			nil},
		{"stream added", both, nil, stream,
			nil,
			[]string{"stream"}},
		{"key", both, nil, []string{"sortKey: SK", "sortKey: Sort"},
			[]string{"spec.yaml:4:3: warning: the key of table Shop changes from PK (S), SK (S) to PK (S), Sort (S) since the committed lock", "CloudFormation (tables.cfn.yaml) replaces a table", "with ShopTableName unchanged, deploying fails", "Terraform (tables.tf.json) destroys the table and creates it anew, empty", "[infrastructure/Shop/key-schema: dyngen compat lists every finding"},
			[]string{"global indexes of table"}},
		{"indexes cloudformation", both, nil, noIndexes,
			[]string{"spec.yaml:4:3: warning: one deploy creates or deletes 2 global indexes of table Shop", "CloudFormation (tables.cfn.yaml) creates or deletes one global secondary index per update, so deploying the 2 changes at once fails"},
			nil},
		{"indexes terraform", "  terraform:\n", nil, noIndexes,
			nil,
			[]string{"global indexes of table"}},
		{"accepted", both, nil, []string{"sortKey: SK", "sortKey: Sort", "outputs:\n", "accept:\n  infrastructure/Shop/key-schema: no item is stored yet\noutputs:\n"},
			nil,
			[]string{"the key of table Shop"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			before, d, _ := generation(t, shopSpec(c.outs, c.base...), nil, Options{})
			if d.HasErrors() {
				t.Fatal(d.Err())
			}
			_, d, _ = generation(t, shopSpec(c.outs, c.change...), marshal(t, before), Options{})
			if d.HasErrors() {
				t.Fatal(d.Err())
			}
			got := warnings(d)
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("no warning %q among:\n%s", w, got)
				}
			}
			for _, w := range c.not {
				if strings.Contains(got, w) {
					t.Errorf("a warning says %q:\n%s", w, got)
				}
			}
		})
	}
}

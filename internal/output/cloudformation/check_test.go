package cloudformation_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dyngen/dyngen/generator"
	"github.com/dyngen/dyngen/internal/output/cloudformation"
	"github.com/dyngen/dyngen/internal/output/iam"
)

// cfnSpec is a spec of the tables given (YAML lines under tables:), each
// with a partition key PK and no entity of its own but the first's.
func cfnSpec(tables, outputs string) string {
	return `version: 1
package: shop
tables:
` + tables + `entities:
  Thing:
    attributes:
      id: string
    keys:
      primary: {pk: "T#{id}"}
patterns:
  GetThing: {get: Thing, by: [id]}
` + outputs
}

// TestCloudFormationNames checks the logical IDs the plan refuses when
// the spec asks for the CloudFormation output, and only then.
func TestCloudFormationNames(t *testing.T) {
	long := strings.Repeat("a", 240)
	var many strings.Builder
	for i := range 5 {
		fmt.Fprintf(&many, "  t%02d:\n    partitionKey: PK\n    indexes:\n", i)
		for j := range 20 {
			fmt.Fprintf(&many, "      g%02d: {partitionKey: G%dPK}\n", j, j)
		}
	}
	for _, tt := range []struct {
		name, tables string
		want         []string
	}{
		{"clash", "  aaa:\n    partitionKey: PK\n    indexes:\n      x-table: {partitionKey: GSI1PK}\n  aaa-table-x:\n    partitionKey: PK\n",
			[]string{"spec.yaml:8:3: the read capacity parameter of index x-table of table aaa and the read capacity parameter of table aaa-table-x both give the CloudFormation logical ID AaaTableXTableReadCapacity, and a template's parameters and resources need distinct logical IDs; rename table aaa-table-x, or index x-table of table aaa"}},
		{"long", "  aaa:\n    partitionKey: PK\n  " + long + ":\n    partitionKey: PK\n",
			[]string{"spec.yaml:6:3: the point-in-time recovery condition of table " + long + " gives a CloudFormation logical ID of 267 characters, CloudFormation takes at most 255; rename table " + long + ", 12 characters shorter at least"}},
		{"quota", many.String(),
			[]string{"the CloudFormation output would declare 230 Parameters (6 per table, 2 per global secondary index, 1 per consumer with lambda:); CloudFormation takes at most 200 in a template: generate some of the tables from another spec"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			spec := cfnSpec(tt.tables, "outputs:\n  cloudformation:\n")
			res := generator.Check("spec.yaml", []byte(spec))
			errs := res.Diags.Errors()
			var got []string
			for _, e := range errs {
				if strings.Contains(e.String(), "CloudFormation") {
					got = append(got, e.String())
				}
			}
			if len(got) != len(tt.want) {
				t.Fatalf("CloudFormation errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			for i := range got {
				if !strings.HasSuffix(got[i], tt.want[i]) {
					t.Errorf("error %q, want %q", got[i], tt.want[i])
				}
			}
			// Without the output, none of these is an error.
			res = generator.Check("spec.yaml", []byte(cfnSpec(tt.tables, "")))
			for _, e := range res.Diags.Errors() {
				if strings.Contains(e.String(), "CloudFormation") {
					t.Errorf("without the CloudFormation output: %s", e)
				}
			}
		})
	}
}

// TestCloudFormationPolicyNames checks that the IAM policy's logical IDs
// are among the CloudFormation output's names when the spec asks for
// the iam output too, and that tables whose names come nearest to them
// don't meet them.
func TestCloudFormationPolicyNames(t *testing.T) {
	ids := cloudformation.PolicyIDsOf()
	tables := "  access:\n    partitionKey: PK\n  access-policy:\n    partitionKey: PK\n    indexes:\n      arn: {partitionKey: GSI1PK}\n  policy:\n    partitionKey: PK\n"
	for _, outputs := range []string{"outputs:\n  cloudformation:\n  iam:\n", "outputs:\n  cloudformation:\n", "outputs:\n  iam:\n"} {
		spec := strings.Replace(cfnSpec(tables, outputs), "  Thing:\n", "  Thing:\n    table: access\n", 1)
		res := generator.Check("spec.yaml", []byte(spec))
		if res.Diags.HasErrors() {
			t.Fatalf("%s: %v", outputs, res.Diags.Err())
		}
		want := strings.Contains(outputs, "cloudformation") && strings.Contains(outputs, "iam")
		var got []string
		for _, n := range cloudformation.Names(res.Model) {
			if n.Name == ids.Resource || n.Name == ids.ArnOutput {
				got = append(got, string(n.Section)+" "+n.Name)
			}
		}
		if w := []string{"Resources " + ids.Resource, "Outputs " + ids.ArnOutput}; want != (strings.Join(got, ",") == strings.Join(w, ",")) || !want && got != nil {
			t.Errorf("%s: the policy's names are %q", outputs, got)
		}
		if (cloudformation.Policy(res.Plan) != nil) != want {
			t.Errorf("%s: Policy() = %v", outputs, cloudformation.Policy(res.Plan))
		}
	}
	// Without pattern, the policy has no statement: the template holds
	// none (IAM refuses it).
	spec := strings.Replace(cfnSpec("  things:\n    partitionKey: PK\n", "outputs:\n  cloudformation:\n  iam:\n"), "  GetThing: {get: Thing, by: [id]}\n", "", 1)
	spec = strings.Replace(spec, "patterns:\n", "", 1)
	res := generator.Check("spec.yaml", []byte(spec))
	if res.Diags.HasErrors() {
		t.Fatal(res.Diags.Err())
	}
	if iam.AccessOf(res.Plan) == nil || len(iam.AccessOf(res.Plan).Grants) != 0 || cloudformation.Policy(res.Plan) != nil {
		t.Errorf("without pattern: access %v, Policy() = %v", iam.AccessOf(res.Plan), cloudformation.Policy(res.Plan))
	}
}

// TestCloudFormationConsumerNames: a consumer with lambda: gives the
// logical IDs of its function's parameter and its event source mapping,
// checked with the others (one too long is refused, with the consumer to
// rename); a consumer without lambda: gives none.
func TestCloudFormationConsumerNames(t *testing.T) {
	long := "C" + strings.Repeat("c", 240)
	spec := strings.Replace(cfnSpec("  things:\n    partitionKey: PK\n    stream: KEYS_ONLY\n", ""), "  Thing:\n", "  Thing:\n    table: things\n", 1) +
		"consumers:\n  " + long + ":\n    on: {Thing: {insert: keys}}\n    lambda: {}\n  Other:\n    on: {Thing: {remove: keys}}\n" +
		"outputs:\n  cloudformation:\n"
	res := generator.Check("spec.yaml", []byte(spec))
	errs := res.Diags.Errors()
	if len(errs) != 1 || !strings.HasSuffix(errs[0].String(), "the event source mapping of consumer "+long+" gives a CloudFormation logical ID of 259 characters, CloudFormation takes at most 255; rename consumer "+long+", 4 characters shorter at least") {
		t.Fatalf("errors %v", errs)
	}
	var got []string
	for _, n := range cloudformation.Names(res.Model) {
		if strings.HasPrefix(n.From, "the function parameter") || strings.HasPrefix(n.From, "the event source mapping") {
			got = append(got, string(n.Section)+" "+n.Name)
		}
	}
	if want := []string{"Parameters " + long + "FunctionName", "Resources " + long + "EventSourceMapping"}; strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("the consumers' names are %q", got)
	}
}

package output_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/dyngen/dyngen/generator"
	"github.com/dyngen/dyngen/internal/diag"
	"github.com/dyngen/dyngen/internal/output"
	"github.com/dyngen/dyngen/internal/plan"
)

// gsiPlan is the plan of testdata/cloudformation.yaml, whose table
// shop-orders has the global secondary indexes ByKeys and ByTotal and
// whose table 2counters has none; with terraform, it asks for the
// Terraform output too (tables.tf.json).
func gsiPlan(t *testing.T, terraform bool) *plan.Plan {
	t.Helper()
	src, err := os.ReadFile("testdata/cloudformation.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if terraform {
		src = append(src, "  terraform:\n"...)
	}
	res := generator.Check("spec.yaml", src)
	if res.Plan == nil || res.Diags.HasErrors() {
		t.Fatal(res.Diags.Err())
	}
	return res.Plan
}

// cfnWith is a CloudFormation template whose tables (logical ID, then
// index names) have the global secondary indexes given.
func cfnWith(tables ...[]string) string {
	var b strings.Builder
	b.WriteString("AWSTemplateFormatVersion: \"2010-09-09\"\nResources:\n  Other:\n    Type: AWS::S3::Bucket\n")
	for _, t := range tables {
		b.WriteString("  " + t[0] + ":\n    Type: AWS::DynamoDB::Table\n    Properties:\n      KeySchema: []\n")
		if len(t) > 1 {
			b.WriteString("      GlobalSecondaryIndexes:\n")
			for _, n := range t[1:] {
				b.WriteString("        - IndexName: \"" + n + "\"\n          Projection: {ProjectionType: ALL}\n")
			}
		}
	}
	return b.String()
}

func TestGSIChanges(t *testing.T) {
	const warnTail = " one global secondary index per update (DynamoDB's UpdateTable), so deploying the %d changes at once fails; deploy in steps, one index added or removed in each (generate and deploy with one change, then the next)"
	for _, tt := range []struct {
		name      string
		terraform bool
		files     map[string]string
		want      []string // the warnings' text before warnTail
	}{
		{name: "none committed"},
		{name: "unchanged", files: map[string]string{"tables.cfn.yaml": cfnWith([]string{"ShopOrdersTable", "ByKeys", "ByTotal"}, []string{"T2CountersTable"})}},
		{name: "one added", files: map[string]string{"tables.cfn.yaml": cfnWith([]string{"ShopOrdersTable", "ByKeys"})}},
		{name: "one removed", files: map[string]string{"tables.cfn.yaml": cfnWith([]string{"ShopOrdersTable", "ByKeys", "ByTotal", "Old"})}},
		{name: "two added", files: map[string]string{"tables.cfn.yaml": cfnWith([]string{"ShopOrdersTable"}, []string{"T2CountersTable"})},
			want: []string{"table shop-orders gains global secondary indexes ByKeys, ByTotal since the committed tables.cfn.yaml: CloudFormation creates or deletes"}},
		{name: "renamed", files: map[string]string{"tables.cfn.yaml": cfnWith([]string{"ShopOrdersTable", "ByKeys", "ByAmount"})},
			want: []string{"table shop-orders gains global secondary indexes ByTotal and loses ByAmount since the committed tables.cfn.yaml: CloudFormation creates or deletes"}},
		{name: "two removed", files: map[string]string{"tables.cfn.yaml": cfnWith([]string{"ShopOrdersTable", "ByKeys", "ByTotal"}, []string{"T2CountersTable", "A", "B"})},
			want: []string{"table 2counters loses global secondary indexes A, B since the committed tables.cfn.yaml: CloudFormation creates or deletes"}},
		{name: "new table", files: map[string]string{"tables.cfn.yaml": cfnWith([]string{"OtherTable", "X", "Y", "Z"})}},
		{name: "unreadable", files: map[string]string{"tables.cfn.yaml": "Resources: [\n"}},
		{name: "terraform not asked for", files: map[string]string{"tables.tf.json": `{"resource": {"aws_dynamodb_table": {"shop_orders": {}}}}`}},
		{name: "terraform", terraform: true,
			files: map[string]string{"tables.tf.json": `{"resource": {"aws_dynamodb_table": {
				"shop_orders": {"name": "x", "global_secondary_index": [{"name": "ByKeys"}, {"name": "A"}, {"name": "B"}]},
				"t2_counters": {"global_secondary_index": {"name": "C"}}}}}`},
			want: []string{"table shop-orders gains global secondary indexes ByTotal and loses A, B since the committed tables.tf.json: Terraform creates or deletes"}},
		{name: "both alike", terraform: true,
			files: map[string]string{
				"tables.tf.json":  `{"resource": {"aws_dynamodb_table": {"shop_orders": {"global_secondary_index": []}}}}`,
				"tables.cfn.yaml": cfnWith([]string{"ShopOrdersTable"})},
			want: []string{"table shop-orders gains global secondary indexes ByKeys, ByTotal since the committed tables.cfn.yaml and tables.tf.json: CloudFormation and Terraform create or delete"}},
		{name: "both apart", terraform: true,
			files: map[string]string{
				"tables.tf.json":  `{"resource": {"aws_dynamodb_table": {"shop_orders": {"global_secondary_index": [{"name": "ByKeys"}, {"name": "ByTotal"}, {"name": "A"}, {"name": "B"}]}}}}`,
				"tables.cfn.yaml": cfnWith([]string{"ShopOrdersTable"})},
			want: []string{
				"table shop-orders gains global secondary indexes ByKeys, ByTotal since the committed tables.cfn.yaml: CloudFormation creates or deletes",
				"table shop-orders loses global secondary indexes A, B since the committed tables.tf.json: Terraform creates or deletes",
			}},
		{name: "terraform unreadable", terraform: true,
			files: map[string]string{"tables.tf.json": `{"resource": {"aws_dynamodb_table": {"shop_orders": {"global_secondary_index": "x"}}}}`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := gsiPlan(t, tt.terraform)
			var diags diag.List
			output.GSIChanges(p, func(name string) []byte {
				if s, ok := tt.files[name]; ok {
					return []byte(s)
				}
				return nil
			}, &diags)
			got := diags.Sorted()
			if len(got) != len(tt.want) {
				t.Fatalf("%d warnings, want %d: %v", len(got), len(tt.want), got)
			}
			for i, d := range got {
				w := tt.want[i]
				// The number of changes: the index names the warning lists.
				names := strings.Count(w, ", ") + strings.Count(w, " and loses ") + 1
				want := w + fmt.Sprintf(warnTail, names)
				if d.Severity != diag.Warning || d.Message != want {
					t.Errorf("warning %q,\nwant    %q", d.Message, want)
				}
				if d.Pos.Line == 0 {
					t.Errorf("warning without a position: %s", d)
				}
			}
		})
	}
}

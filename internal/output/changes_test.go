package output_test

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/dyngen/dyngen/generator"
	"github.com/dyngen/dyngen/internal/diag"
	"github.com/dyngen/dyngen/internal/output"
	"github.com/dyngen/dyngen/internal/plan"
	"go.yaml.in/yaml/v3"
)

// gsiPlan is the plan of testdata/cloudformation.yaml, whose table
// shop-orders has the key PK, SK (both S), the global secondary indexes
// ByKeys and ByTotal and the local one ByStatus (sort key LSI1SK, all
// attributes), and whose table 2counters has the key counterId (S) and
// no index; with terraform, it asks for the Terraform output too
// (tables.tf.json).
func gsiPlan(t *testing.T, terraform bool) *plan.Plan {
	t.Helper()
	src, err := os.ReadFile("cloudformation/testdata/cloudformation.yaml")
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
// index names) have the global secondary indexes given, and no key
// schema (so that only their indexes are compared).
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

// committedTable returns the output file of the plan's spec named file,
// as generated, with edit applied to its table resources (decoded from
// YAML or JSON, by logical ID or resource name), re-encoded: what an
// earlier generation of another spec would have left.
func committedTable(t *testing.T, file string, edit func(tables map[string]any)) string {
	t.Helper()
	files, err := output.Render(gsiPlan(t, true), output.NewSource("spec.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if f.Name != file {
			continue
		}
		var doc map[string]any
		if strings.HasSuffix(file, ".json") {
			if err := json.Unmarshal(f.Data, &doc); err != nil {
				t.Fatal(err)
			}
			edit(doc["resource"].(map[string]any)["aws_dynamodb_table"].(map[string]any))
			out, err := json.Marshal(doc)
			if err != nil {
				t.Fatal(err)
			}
			return string(out)
		}
		if err := yaml.Unmarshal(f.Data, &doc); err != nil {
			t.Fatal(err)
		}
		props := map[string]any{}
		for id, r := range doc["Resources"].(map[string]any) {
			if r.(map[string]any)["Type"] == "AWS::DynamoDB::Table" {
				props[id] = r.(map[string]any)["Properties"]
			}
		}
		edit(props)
		out, err := yaml.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		return string(out)
	}
	t.Fatalf("no output %s", file)
	return ""
}

// at returns m[keys[0]][keys[1]]... of decoded YAML or JSON, where a
// key of a list is its index.
func at(v any, keys ...any) any {
	for _, k := range keys {
		switch k := k.(type) {
		case string:
			v = v.(map[string]any)[k]
		case int:
			v = v.([]any)[k]
		}
	}
	return v
}

// set sets the value at keys (see at) to x.
func set(v any, x any, keys ...any) {
	p := at(v, keys[:len(keys)-1]...)
	switch k := keys[len(keys)-1].(type) {
	case string:
		p.(map[string]any)[k] = x
	case int:
		p.([]any)[k] = x
	}
}

// Tails of the warnings, after what changed.
const (
	gsiTail    = " one global secondary index per update (DynamoDB's UpdateTable), so deploying the %d changes at once fails; deploy in steps, one index added or removed in each (generate and deploy with one change, then the next)"
	cfnReplace = ". CloudFormation replaces a table whose key schema, key attribute types or local secondary indexes change, and refuses to replace one of a custom TableName: with %[1]s unchanged, deploying fails; with a new %[1]s, it creates a new, empty table and leaves the old one with its items out of the stack (UpdateReplacePolicy: Retain). To keep the items, deploy the change as a new table (a new %[1]s, or a new table in the spec) and copy the items over (a migration); or keep the table's key and local indexes as they were"
	tfReplace  = ". Terraform destroys the table and creates it anew, empty: its items are lost (with %[1]s_deletion_protection on, the apply fails instead). To keep the items, make the changed table a new table (a new table in the spec, or a copy of the resource under another %[1]s_table_name), copy the items over (a migration), then remove the old one; or keep the table's key and local indexes as they were"
	tfType     = ". Terraform does not apply that: the AWS provider plans no change for a new attribute type, so the deployed table keeps its key types, which the Store's requests no longer fit (they fail). Create the table anew under another name (%s_table_name, or a new table in the spec) and copy the items over (a migration); or keep the key types as they were"
)

func TestTableChanges(t *testing.T) {
	gsi := func(w string) string {
		// The number of changes: the index names the warning lists.
		names := strings.Count(w, ", ") + strings.Count(w, " and loses ") + 1
		return w + fmt.Sprintf(gsiTail, names)
	}
	cfnKey := func(props map[string]any) {
		// shop-orders' partition key was OrderPK.
		set(props, "OrderPK", "ShopOrdersTable", "KeySchema", 0, "AttributeName")
		set(props, "OrderPK", "ShopOrdersTable", "AttributeDefinitions", 0, "AttributeName")
	}
	for _, tt := range []struct {
		name      string
		terraform bool
		files     map[string]string
		want      []string // the warnings
	}{
		{name: "none committed"},
		{name: "as generated", terraform: true, files: map[string]string{
			"tables.cfn.yaml": committedTable(t, "tables.cfn.yaml", func(map[string]any) {}),
			"tables.tf.json":  committedTable(t, "tables.tf.json", func(map[string]any) {})}},

		// Global secondary indexes: CloudFormation only.
		{name: "unchanged", files: map[string]string{"tables.cfn.yaml": cfnWith([]string{"ShopOrdersTable", "ByKeys", "ByTotal"}, []string{"T2CountersTable"})}},
		{name: "one added", files: map[string]string{"tables.cfn.yaml": cfnWith([]string{"ShopOrdersTable", "ByKeys"})}},
		{name: "one removed", files: map[string]string{"tables.cfn.yaml": cfnWith([]string{"ShopOrdersTable", "ByKeys", "ByTotal", "Old"})}},
		{name: "two added", files: map[string]string{"tables.cfn.yaml": cfnWith([]string{"ShopOrdersTable"}, []string{"T2CountersTable"})},
			want: []string{gsi("table shop-orders gains global secondary indexes ByKeys, ByTotal since the committed tables.cfn.yaml: CloudFormation creates or deletes")}},
		{name: "renamed", files: map[string]string{"tables.cfn.yaml": cfnWith([]string{"ShopOrdersTable", "ByKeys", "ByAmount"})},
			want: []string{gsi("table shop-orders gains global secondary indexes ByTotal and loses ByAmount since the committed tables.cfn.yaml: CloudFormation creates or deletes")}},
		{name: "two removed", files: map[string]string{"tables.cfn.yaml": cfnWith([]string{"ShopOrdersTable", "ByKeys", "ByTotal"}, []string{"T2CountersTable", "A", "B"})},
			want: []string{gsi("table 2counters loses global secondary indexes A, B since the committed tables.cfn.yaml: CloudFormation creates or deletes")}},
		{name: "new table", files: map[string]string{"tables.cfn.yaml": cfnWith([]string{"OtherTable", "X", "Y", "Z"})}},
		{name: "unreadable", files: map[string]string{"tables.cfn.yaml": "Resources: [\n"}},
		{name: "terraform not asked for", files: map[string]string{"tables.tf.json": `{"resource": {"aws_dynamodb_table": {"shop_orders": {}}}}`}},
		{name: "terraform creates and deletes one at a time", terraform: true,
			files: map[string]string{"tables.tf.json": `{"resource": {"aws_dynamodb_table": {
				"shop_orders": {"name": "x", "global_secondary_index": [{"name": "ByKeys"}, {"name": "A"}, {"name": "B"}]},
				"t2_counters": {"global_secondary_index": {"name": "C"}}}}}`}},
		{name: "both", terraform: true,
			files: map[string]string{
				"tables.tf.json":  `{"resource": {"aws_dynamodb_table": {"shop_orders": {"global_secondary_index": []}}}}`,
				"tables.cfn.yaml": cfnWith([]string{"ShopOrdersTable"})},
			want: []string{gsi("table shop-orders gains global secondary indexes ByKeys, ByTotal since the committed tables.cfn.yaml: CloudFormation creates or deletes")}},
		{name: "terraform unreadable", terraform: true,
			files: map[string]string{"tables.tf.json": `{"resource": {"aws_dynamodb_table": {"shop_orders": {"global_secondary_index": "x"}}}}`}},

		// Changes that replace the table.
		{name: "cfn partition key renamed", files: map[string]string{"tables.cfn.yaml": committedTable(t, "tables.cfn.yaml", cfnKey)},
			want: []string{"table shop-orders changes since the committed tables.cfn.yaml: partition key OrderPK (S) becomes PK (S)" + fmt.Sprintf(cfnReplace, "ShopOrdersTableName")}},
		{name: "cfn replaced, its indexes not compared", files: map[string]string{"tables.cfn.yaml": committedTable(t, "tables.cfn.yaml", func(props map[string]any) {
			cfnKey(props)
			delete(props["ShopOrdersTable"].(map[string]any), "GlobalSecondaryIndexes")
		})},
			want: []string{"table shop-orders changes since the committed tables.cfn.yaml: partition key OrderPK (S) becomes PK (S)" + fmt.Sprintf(cfnReplace, "ShopOrdersTableName")}},
		{name: "cfn key type", files: map[string]string{"tables.cfn.yaml": committedTable(t, "tables.cfn.yaml", func(props map[string]any) {
			set(props, "N", "T2CountersTable", "AttributeDefinitions", 0, "AttributeType")
		})},
			want: []string{"table 2counters changes since the committed tables.cfn.yaml: partition key counterId (N) becomes counterId (S)" + fmt.Sprintf(cfnReplace, "T2CountersTableName")}},
		{name: "cfn sort key added", files: map[string]string{"tables.cfn.yaml": committedTable(t, "tables.cfn.yaml", func(props map[string]any) {
			set(props, at(props, "ShopOrdersTable", "KeySchema").([]any)[:1], "ShopOrdersTable", "KeySchema")
		})},
			want: []string{"table shop-orders changes since the committed tables.cfn.yaml: gains the sort key SK (S)" + fmt.Sprintf(cfnReplace, "ShopOrdersTableName")}},
		{name: "cfn local index added and another removed", files: map[string]string{"tables.cfn.yaml": committedTable(t, "tables.cfn.yaml", func(props map[string]any) {
			set(props, "Old", "ShopOrdersTable", "LocalSecondaryIndexes", 0, "IndexName")
		})},
			want: []string{"table shop-orders changes since the committed tables.cfn.yaml: gains the local secondary index ByStatus; loses the local secondary index Old" + fmt.Sprintf(cfnReplace, "ShopOrdersTableName")}},
		{name: "cfn local index projection", files: map[string]string{"tables.cfn.yaml": committedTable(t, "tables.cfn.yaml", func(props map[string]any) {
			set(props, map[string]any{"ProjectionType": "INCLUDE", "NonKeyAttributes": []any{"b", "a"}}, "ShopOrdersTable", "LocalSecondaryIndexes", 0, "Projection")
		})},
			want: []string{"table shop-orders changes since the committed tables.cfn.yaml: local secondary index ByStatus changes (sort key LSI1SK (S), projection INCLUDE a, b becomes sort key LSI1SK (S), projection ALL)" + fmt.Sprintf(cfnReplace, "ShopOrdersTableName")}},
		{name: "cfn local index sort key", files: map[string]string{"tables.cfn.yaml": committedTable(t, "tables.cfn.yaml", func(props map[string]any) {
			set(props, "Other", "ShopOrdersTable", "LocalSecondaryIndexes", 0, "KeySchema", 1, "AttributeName")
		})},
			want: []string{"table shop-orders changes since the committed tables.cfn.yaml: local secondary index ByStatus changes (sort key Other, projection ALL becomes sort key LSI1SK (S), projection ALL)" + fmt.Sprintf(cfnReplace, "ShopOrdersTableName")}},
		{name: "cfn key unreadable", files: map[string]string{"tables.cfn.yaml": committedTable(t, "tables.cfn.yaml", func(props map[string]any) {
			set(props, map[string]any{"Fn::If": []any{"c", "a", "b"}}, "ShopOrdersTable", "KeySchema")
		})}},
		{name: "tf hash key renamed", terraform: true, files: map[string]string{"tables.tf.json": committedTable(t, "tables.tf.json", func(r map[string]any) {
			set(r, "Order$${PK}", "shop_orders", "hash_key")
			set(r, "Order$${PK}", "shop_orders", "attribute", 0, "name")
		})},
			want: []string{"table shop-orders changes since the committed tables.tf.json: partition key Order${PK} (S) becomes PK (S)" + fmt.Sprintf(tfReplace, "shop_orders")}},
		{name: "tf range key removed and local index", terraform: true, files: map[string]string{"tables.tf.json": committedTable(t, "tables.tf.json", func(r map[string]any) {
			delete(r["audit_log"].(map[string]any), "range_key")
			delete(r["shop_orders"].(map[string]any), "local_secondary_index")
		})},
			want: []string{
				"table shop-orders changes since the committed tables.tf.json: gains the local secondary index ByStatus" + fmt.Sprintf(tfReplace, "shop_orders"),
				"table audit-log changes since the committed tables.tf.json: gains the sort key SK (S)" + fmt.Sprintf(tfReplace, "audit_log"),
			}},
		{name: "tf key type only", terraform: true, files: map[string]string{"tables.tf.json": committedTable(t, "tables.tf.json", func(r map[string]any) {
			set(r, "B", "t2_counters", "attribute", 0, "type")
		})},
			want: []string{"table 2counters changes since the committed tables.tf.json: partition key counterId (B) becomes counterId (S)" + fmt.Sprintf(tfType, "t2_counters")}},
		{name: "both replace", terraform: true, files: map[string]string{
			"tables.cfn.yaml": committedTable(t, "tables.cfn.yaml", cfnKey),
			"tables.tf.json": committedTable(t, "tables.tf.json", func(r map[string]any) {
				set(r, "OrderPK", "shop_orders", "hash_key")
			})},
			want: []string{
				"table shop-orders changes since the committed tables.cfn.yaml: partition key OrderPK (S) becomes PK (S)" + fmt.Sprintf(cfnReplace, "ShopOrdersTableName"),
				// The committed file defines no type of OrderPK.
				"table shop-orders changes since the committed tables.tf.json: partition key OrderPK becomes PK (S)" + fmt.Sprintf(tfReplace, "shop_orders"),
			}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := gsiPlan(t, tt.terraform)
			var diags diag.List
			output.TableChanges(p, func(name string) []byte {
				if s, ok := tt.files[name]; ok {
					return []byte(s)
				}
				return nil
			}, &diags)
			got := diags.Sorted()
			for i, d := range got {
				if i >= len(tt.want) || d.Severity != diag.Warning || d.Message != tt.want[i] {
					t.Errorf("warning %q", d.Message)
				}
				if d.Pos.Line == 0 {
					t.Errorf("warning without a position: %s", d)
				}
			}
			if len(got) != len(tt.want) {
				t.Fatalf("%d warnings, want %d:\n%s", len(got), len(tt.want), strings.Join(tt.want, "\n"))
			}
		})
	}
}

package terraform_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/dyngen/dyngen/generator"
	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/output"
	"github.com/dyngen/dyngen/internal/output/format"
	"github.com/dyngen/dyngen/internal/output/iam"
	"github.com/dyngen/dyngen/internal/output/terraform"
	"github.com/dyngen/dyngen/internal/plan"
)

// tfDoc is a decoded tables.tf.json, as generic JSON.
type tfDoc map[string]any

// obj is v as a JSON object, failing the test when it is not one.
func obj(t *testing.T, v any, what string) map[string]any {
	t.Helper()
	m, ok := v.(map[string]any)
	if !ok {
		t.Fatalf("%s is %T, want an object", what, v)
	}
	return m
}

// list is v as a JSON array of objects, failing the test when it is not
// one.
func list(t *testing.T, v any, what string) []map[string]any {
	t.Helper()
	a, ok := v.([]any)
	if !ok {
		t.Fatalf("%s is %T, want an array", what, v)
	}
	var out []map[string]any
	for i, e := range a {
		out = append(out, obj(t, e, fmt.Sprintf("%s[%d]", what, i)))
	}
	return out
}

// tfLiteral is how Terraform reads s, a JSON string where it takes an
// expression: a template in which "$${" and "%%{" stand for "${" and
// "%{", and an unescaped "${" or "%{" starts an interpolation or a
// directive. ok is false when s holds one: s is then not a literal.
func tfLiteral(s string) (lit string, ok bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case strings.HasPrefix(s[i:], "$${"), strings.HasPrefix(s[i:], "%%{"):
			b.WriteString(s[i+1 : i+3])
			i += 2
		case strings.HasPrefix(s[i:], "${"), strings.HasPrefix(s[i:], "%{"):
			return "", false
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String(), true
}

// literal is the literal value of the string v, failing the test when v
// is not a string or not a literal template.
func literal(t *testing.T, v any, what string) string {
	t.Helper()
	s, ok := v.(string)
	if !ok {
		t.Fatalf("%s is %T, want a string", what, v)
	}
	lit, ok := tfLiteral(s)
	if !ok {
		t.Fatalf("%s = %q is a template Terraform evaluates, not a literal", what, s)
	}
	return lit
}

// tableArgs are the arguments and blocks of aws_dynamodb_table the
// output may use; global and local index blocks have theirs.
var (
	tableArgs  = []string{"name", "billing_mode", "read_capacity", "write_capacity", "hash_key", "range_key", "attribute", "global_secondary_index", "local_secondary_index", "stream_enabled", "stream_view_type", "ttl", "point_in_time_recovery", "deletion_protection_enabled"}
	globalArgs = []string{"name", "key_schema", "projection_type", "non_key_attributes", "read_capacity", "write_capacity"}
	localArgs  = []string{"name", "range_key", "projection_type", "non_key_attributes"}
)

// onlyKeys fails the test for a member of m that allowed does not list.
func onlyKeys(t *testing.T, m map[string]any, allowed []string, what string) {
	t.Helper()
	for k := range m {
		if !slices.Contains(allowed, k) {
			t.Errorf("%s has %q, not one of %v", what, k, allowed)
		}
	}
}

// checkTerraform checks the decoded output doc of p: one resource per
// table definition, each argument what the definition says, the
// variables and outputs the model names. Every spec string is read as
// Terraform reads it (tfLiteral).
func checkTerraform(t *testing.T, p *plan.Plan, data []byte) {
	t.Helper()
	var doc tfDoc
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	onlyKeys(t, doc, []string{"//", "terraform", "variable", "locals", "resource", "output"}, "the file")
	if c, _ := doc["//"].(string); !strings.HasPrefix(c, model.GeneratedText+" source: ") {
		t.Errorf(`"//" = %q, want the generated-code header and the source`, c)
	}
	aws := obj(t, obj(t, obj(t, doc["terraform"], "terraform")["required_providers"], "required_providers")["aws"], "aws")
	if aws["source"] != "hashicorp/aws" || aws["version"] != terraform.AWSProvider {
		t.Errorf("required provider %v", aws)
	}
	vars := obj(t, doc["variable"], "variable")
	outs := obj(t, doc["output"], "output")
	resources := obj(t, doc["resource"], "resource")
	res := obj(t, resources["aws_dynamodb_table"], "aws_dynamodb_table")
	if len(res) != len(p.Tables) {
		t.Errorf("%d tables, want %d", len(res), len(p.Tables))
	}
	wantVars, wantOuts := 0, 2*len(p.Tables)
	for _, d := range p.Tables {
		wantVars += 6 + 2*len(d.Global)
	}
	wantVars += checkTerraformMappings(t, p, resources, vars)
	if terraform.HoldsPolicy(p.Model) {
		wantVars, wantOuts = wantVars+1, wantOuts+1
		checkTerraformPolicy(t, p, doc, vars, outs)
	} else if doc["locals"] != nil || resources["aws_iam_policy"] != nil {
		t.Errorf("a policy without the iam output: %v", doc["locals"])
	}
	if len(vars) != wantVars || len(outs) != wantOuts {
		t.Errorf("%d variables and %d outputs, want %d and %d", len(vars), len(outs), wantVars, wantOuts)
	}
	for _, d := range p.Tables {
		n := terraform.TableNamesOf(d.Table)
		tn := n.Resource
		what := "aws_dynamodb_table." + tn
		r := obj(t, res[tn], what)
		onlyKeys(t, r, tableArgs, what)
		// The physical name: a variable whose default is the spec's name
		// (a literal value: Terraform reads a default as it is).
		if v := obj(t, vars[n.NameVar], "variable "+n.NameVar); v["default"] != d.Table.Name || v["type"] != "string" {
			t.Errorf("variable %s = %v, want a string defaulting to %q", n.NameVar, v, d.Table.Name)
		}
		wantDefaults := map[string]any{
			n.BillingModeVar:        plan.Billing,
			n.ReadCapacityVar:       json.Number("5"),
			n.WriteCapacityVar:      json.Number("5"),
			n.PITRVar:               false,
			n.DeletionProtectionVar: false,
		}
		for _, ix := range d.Global {
			in := terraform.IndexNamesOf(ix)
			wantDefaults[in.ReadCapacityVar] = nil
			wantDefaults[in.WriteCapacityVar] = nil
		}
		for name, def := range wantDefaults {
			if v := obj(t, vars[name], "variable "+name); v["default"] != def || !hasKey(v, "default") {
				t.Errorf("variable %s defaults to %v, want %v", name, v["default"], def)
			} else if _, ok := v["validation"]; !ok && (name != n.PITRVar && name != n.DeletionProtectionVar) {
				t.Errorf("variable %s has no validation", name)
			}
		}
		provisioned := func(v string) string {
			return `${var.` + n.BillingModeVar + ` == "PROVISIONED" ? ` + v + ` : null}`
		}
		for arg, want := range map[string]string{
			"name":                        "${var." + n.NameVar + "}",
			"billing_mode":                "${var." + n.BillingModeVar + "}",
			"read_capacity":               provisioned("var." + n.ReadCapacityVar),
			"write_capacity":              provisioned("var." + n.WriteCapacityVar),
			"deletion_protection_enabled": "${var." + n.DeletionProtectionVar + "}",
		} {
			if r[arg] != want {
				t.Errorf("%s.%s = %v, want %s", what, arg, r[arg], want)
			}
		}
		if pitr := list(t, r["point_in_time_recovery"], what+".point_in_time_recovery"); len(pitr) != 1 || pitr[0]["enabled"] != "${var."+n.PITRVar+"}" {
			t.Errorf("%s.point_in_time_recovery = %v", what, pitr)
		}
		// The key schema.
		var keys []plan.KeyElement
		keys = append(keys, plan.KeyElement{Name: literal(t, r["hash_key"], what+".hash_key"), Type: "HASH"})
		if r["range_key"] != nil {
			keys = append(keys, plan.KeyElement{Name: literal(t, r["range_key"], what+".range_key"), Type: "RANGE"})
		}
		if want := plan.KeySchema(d.Key); !slices.Equal(keys, want) {
			t.Errorf("%s keys %v, want %v", what, keys, want)
		}
		// The attribute definitions, in the definition's order.
		var attrs, wantAttrs []string
		for i, a := range list(t, r["attribute"], what+".attribute") {
			attrs = append(attrs, literal(t, a["name"], fmt.Sprintf("%s.attribute[%d].name", what, i))+":"+fmt.Sprint(a["type"]))
		}
		for _, a := range d.Attributes {
			wantAttrs = append(wantAttrs, a.Name+":"+string(a.Type))
		}
		if !slices.Equal(attrs, wantAttrs) {
			t.Errorf("%s attributes %q, want %q", what, attrs, wantAttrs)
		}
		// The global indexes: keys in key_schema blocks, never the
		// deprecated hash_key and range_key.
		eachIndexBlock(t, r, "global_secondary_index", globalArgs, what, d.Global, func(ix *model.Index, g map[string]any, gw string) {
			var ks []plan.KeyElement
			for j, k := range list(t, g["key_schema"], gw+".key_schema") {
				ks = append(ks, plan.KeyElement{Name: literal(t, k["attribute_name"], fmt.Sprintf("%s.key_schema[%d]", gw, j)), Type: fmt.Sprint(k["key_type"])})
			}
			if want := plan.KeySchema(ix); !slices.Equal(ks, want) {
				t.Errorf("%s key_schema %v, want %v", gw, ks, want)
			}
			in := terraform.IndexNamesOf(ix)
			if g["read_capacity"] != provisioned("coalesce(var."+in.ReadCapacityVar+", var."+n.ReadCapacityVar+")") ||
				g["write_capacity"] != provisioned("coalesce(var."+in.WriteCapacityVar+", var."+n.WriteCapacityVar+")") {
				t.Errorf("%s capacity %v/%v", gw, g["read_capacity"], g["write_capacity"])
			}
		})
		// The local indexes: the table's partition key, their own sort key.
		eachIndexBlock(t, r, "local_secondary_index", localArgs, what, d.Local, func(ix *model.Index, l map[string]any, lw string) {
			if sk := literal(t, l["range_key"], lw+".range_key"); sk != plan.KeySchema(ix)[1].Name {
				t.Errorf("%s.range_key = %q, want %q", lw, sk, plan.KeySchema(ix)[1].Name)
			}
		})
		// The stream: enabled with its view type, nothing without one.
		if d.Stream == "" {
			if r["stream_enabled"] != nil || r["stream_view_type"] != nil {
				t.Errorf("%s has a stream, the table has none", what)
			}
		} else if r["stream_enabled"] != true || r["stream_view_type"] != d.Stream {
			t.Errorf("%s stream_enabled %v, stream_view_type %v; want true, %s", what, r["stream_enabled"], r["stream_view_type"], d.Stream)
		}
		// Time to live: on for the ttl attribute, no block without one.
		if d.TTL == "" {
			if r["ttl"] != nil {
				t.Errorf("%s has ttl %v, the table has none", what, r["ttl"])
			}
		} else if ttl := list(t, r["ttl"], what+".ttl"); len(ttl) != 1 || ttl[0]["enabled"] != true || literal(t, ttl[0]["attribute_name"], what+".ttl") != d.TTL {
			t.Errorf("%s.ttl = %v, want %q enabled", what, ttl, d.TTL)
		}
		// The outputs: the table's name and ARN.
		for name, attr := range map[string]string{n.NameOutput: "name", n.ARNOutput: "arn"} {
			if o := obj(t, outs[name], "output "+name); o["value"] != "${"+what+"."+attr+"}" {
				t.Errorf("output %s = %v, want the table's %s", name, o["value"], attr)
			}
		}
	}
}

// mappingArgs are the arguments and blocks of
// aws_lambda_event_source_mapping the output may use.
var mappingArgs = []string{"event_source_arn", "function_name", "starting_position", "batch_size", "function_response_types", "filter_criteria"}

// checkTerraformMappings checks the aws_lambda_event_source_mapping of
// each consumer with lambda: against the plan: its table's stream, the
// variable of its function (a string without default, which Terraform
// asks for), the spec's starting position and batch size, the partial
// batch response, the plan's filters in order, each pattern a literal;
// no mapping for another consumer. It returns the number of variables
// they declare.
func checkTerraformMappings(t *testing.T, p *plan.Plan, resources, vars map[string]any) int {
	t.Helper()
	var ms map[string]any
	if resources["aws_lambda_event_source_mapping"] != nil {
		ms = obj(t, resources["aws_lambda_event_source_mapping"], "aws_lambda_event_source_mapping")
	}
	n := 0
	for _, c := range p.Model.Consumers {
		names := terraform.ConsumerNamesOf(c)
		if c.Lambda == nil {
			if ms[names.Resource] != nil || vars[names.FunctionVar] != nil {
				t.Errorf("consumer %s, without lambda:, has a mapping or a variable", c.Name)
			}
			continue
		}
		n++
		what := "aws_lambda_event_source_mapping." + names.Resource
		m := obj(t, ms[names.Resource], what)
		onlyKeys(t, m, mappingArgs, what)
		v := obj(t, vars[names.FunctionVar], "variable "+names.FunctionVar)
		if hasKey(v, "default") || v["type"] != "string" || v["validation"] == nil {
			t.Errorf("variable %s = %v, want a string without default, validated", names.FunctionVar, v)
		}
		literal(t, v["description"], "variable "+names.FunctionVar+".description")
		want := map[string]any{
			"event_source_arn":        "${aws_dynamodb_table." + terraform.ResourceName(c.Table) + ".stream_arn}",
			"function_name":           "${var." + names.FunctionVar + "}",
			"starting_position":       c.Lambda.StartingPosition,
			"function_response_types": []any{"ReportBatchItemFailures"},
		}
		if c.Lambda.BatchSize > 0 {
			want["batch_size"] = json.Number(fmt.Sprint(c.Lambda.BatchSize))
		}
		for arg, w := range want {
			if !reflect.DeepEqual(m[arg], w) {
				t.Errorf("%s.%s = %v, want %v", what, arg, m[arg], w)
			}
		}
		if c.Lambda.BatchSize == 0 && hasKey(m, "batch_size") {
			t.Errorf("%s.batch_size = %v, the spec sets none", what, m["batch_size"])
		}
		var patterns, wantPatterns []string
		if m["filter_criteria"] != nil {
			fc := list(t, m["filter_criteria"], what+".filter_criteria")
			if len(fc) != 1 {
				t.Fatalf("%s has %d filter_criteria blocks", what, len(fc))
			}
			for i, f := range list(t, fc[0]["filter"], what+".filter_criteria[0].filter") {
				onlyKeys(t, f, []string{"pattern"}, what)
				patterns = append(patterns, literal(t, f["pattern"], fmt.Sprintf("%s.filter_criteria[0].filter[%d].pattern", what, i)))
			}
		}
		for _, f := range p.Consumer(c).Filters {
			wantPatterns = append(wantPatterns, f.Pattern)
		}
		if !slices.Equal(patterns, wantPatterns) {
			t.Errorf("%s filters %q, want %q", what, patterns, wantPatterns)
		}
	}
	if len(ms) != n {
		t.Errorf("%d event source mappings, want %d", len(ms), n)
	}
	return n
}

// eachIndexBlock checks the blocks arg of table resource r (what): one
// per index of want, in its order, each with only the arguments allowed,
// the index's name and its projection; then calls check with each index,
// its block and the block's path.
func eachIndexBlock(t *testing.T, r map[string]any, arg string, allowed []string, what string, want []*model.Index, check func(ix *model.Index, block map[string]any, path string)) {
	t.Helper()
	var blocks []map[string]any
	if r[arg] != nil || len(want) > 0 {
		blocks = list(t, r[arg], what+"."+arg)
	}
	if len(blocks) != len(want) {
		t.Fatalf("%s has %d %s blocks, want %d", what, len(blocks), arg, len(want))
	}
	for i, ix := range want {
		b, path := blocks[i], fmt.Sprintf("%s.%s[%d]", what, arg, i)
		onlyKeys(t, b, allowed, path)
		if name := literal(t, b["name"], path+".name"); name != ix.Name {
			t.Errorf("%s is %q, want %q", path, name, ix.Name)
		}
		checkProjection(t, b, ix, path)
		check(ix, b, path)
	}
}

// hasKey reports whether m has the member k (a null one too).
func hasKey(m map[string]any, k string) bool {
	_, ok := m[k]
	return ok
}

// checkTerraformPolicy checks the IAM policy of the Terraform output doc
// of p: its local value is the iam output's document once each resource
// is resolved (resolvePolicy), the aws_iam_policy encodes it, its name is
// a variable and its ARN an output.
func checkTerraformPolicy(t *testing.T, p *plan.Plan, doc tfDoc, vars, outs map[string]any) {
	t.Helper()
	got := resolvePolicy(t, p, obj(t, doc["locals"], "locals")[terraform.PolicyLocal], "local."+terraform.PolicyLocal)
	var want any
	if err := json.Unmarshal(render(t, p, p.Model.Output(format.IAM).File), &want); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the policy document resolves to\n%v\nthe iam output's is\n%v", got, want)
	}
	what := "aws_iam_policy." + terraform.PolicyResource
	pol := obj(t, obj(t, obj(t, doc["resource"], "resource")["aws_iam_policy"], "aws_iam_policy")[terraform.PolicyResource], what)
	onlyKeys(t, pol, []string{"name", "description", "policy"}, what)
	literal(t, pol["description"], what+".description")
	if pol["name"] != "${var."+terraform.PolicyNameVar+"}" || pol["policy"] != "${jsonencode(local."+terraform.PolicyLocal+")}" {
		t.Errorf("%s = %v", what, pol)
	}
	if v := obj(t, vars[terraform.PolicyNameVar], "variable "+terraform.PolicyNameVar); v["default"] != p.Model.Package+"-dynamodb" {
		t.Errorf("variable %s = %v", terraform.PolicyNameVar, v)
	}
	if o := obj(t, outs[terraform.PolicyARNOutput], "output "+terraform.PolicyARNOutput); o["value"] != "${"+what+".arn}" {
		t.Errorf("output %s = %v", terraform.PolicyARNOutput, o)
	}
}

// resolvePolicy is v, the policy document of the Terraform output, as
// Terraform reads it with each table's ARN the iam output's ARN of the
// table: a string that starts with the reference
// ${aws_dynamodb_table.<name>.arn} is that ARN then the literal rest,
// every other string a literal (what is where is for the caller's
// comparison to check).
func resolvePolicy(t *testing.T, p *plan.Plan, v any, path string) any {
	t.Helper()
	switch v := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range v {
			out[k] = resolvePolicy(t, p, e, path+"."+k)
		}
		return out
	case []any:
		out := []any{}
		for i, e := range v {
			out = append(out, resolvePolicy(t, p, e, fmt.Sprintf("%s[%d]", path, i)))
		}
		return out
	case string:
		for _, d := range p.Tables {
			ref := "${aws_dynamodb_table." + terraform.TableNamesOf(d.Table).Resource + ".arn}"
			if rest, ok := strings.CutPrefix(v, ref); ok {
				return iam.ARNPrefix + "table/" + d.Table.Name + literal(t, rest, path)
			}
		}
		return literal(t, v, path)
	}
	return v
}

// checkProjection checks the projection_type and non_key_attributes of
// an index block against the index's projection.
func checkProjection(t *testing.T, ix map[string]any, want *model.Index, what string) {
	t.Helper()
	typ, nonKey := plan.Projection(want)
	var got []string
	if ix["non_key_attributes"] != nil {
		a, _ := ix["non_key_attributes"].([]any)
		for i, v := range a {
			got = append(got, literal(t, v, fmt.Sprintf("%s.non_key_attributes[%d]", what, i)))
		}
	}
	if ix["projection_type"] != typ || !slices.Equal(got, nonKey) {
		t.Errorf("%s projection %v %q, want %s %q", what, ix["projection_type"], got, typ, nonKey)
	}
}

// TestTerraformExamples checks the tables.tf.json of every example and of
// the end-to-end spec against the plan of its spec, and that rendering
// it again gives the same bytes.
func TestTerraformExamples(t *testing.T) {
	specs, err := filepath.Glob("../../../example/*/spec.yaml")
	if err != nil {
		t.Fatal(err)
	}
	specs = append(specs, "../../../example/storeinventory/native/spec.yaml", "../../e2e/spec.yaml", "../../e2e/multikey/spec.yaml", "../../e2e/stream/spec.yaml")
	for _, spec := range specs {
		dir := filepath.Dir(spec)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			src, err := os.ReadFile(spec)
			if err != nil {
				t.Fatal(err)
			}
			res := generator.Check("spec.yaml", src)
			if err := res.Diags.Err(); err != nil {
				t.Fatal(err)
			}
			o := res.Model.Output(format.Terraform)
			if o == nil {
				t.Fatal("the spec asks for no Terraform output")
			}
			data, err := os.ReadFile(filepath.Join(dir, o.File))
			if err != nil {
				t.Fatal(err)
			}
			checkTerraform(t, res.Plan, data)
			again := render(t, res.Plan, o.File)
			if !bytes.Equal(again, data) {
				t.Errorf("rendering %s again gives other bytes", o.File)
			}
		})
	}
}

// render renders p's outputs and returns the file named name.
func render(t *testing.T, p *plan.Plan, name string) []byte {
	t.Helper()
	files, err := output.Render(p, output.NewSource("spec.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if f.Name == name {
			return f.Data
		}
	}
	t.Fatalf("no %s among the outputs", name)
	return nil
}

// hostileTF is a spec whose key attribute names, ttl and INCLUDE list
// hold what Terraform would read as interpolations and directives, JSON
// and HTML syntax, line and paragraph separators and bidi controls; a
// consumer of its stream, whose filter holds those key attribute names
// and the partition key's prefix.
const hostileTF = `
version: 1
package: shop
tables:
  Shop:
    partitionKey: "P${var.x}K"
    sortKey: "S%{ if true }x%{ endif }"
    ttl: "exp$${x}"
    stream: NEW_IMAGE
    indexes:
      GSI1:
        partitionKey: "G\"1\n}\"${aws_dynamodb_table.x.arn}"
        sortKey: {name: "</script>|'\u2028\u202e-->%%{x}$", type: N}
        projection: ["n${o}te", "!Ref x"]
      LSI1: {local: true, sortKey: "L$${y}%{"}
entities:
  Item:
    attributes:
      id: string
      n: int
      note: {type: string, optional: true, attr: "n${o}te"}
      ref: {type: string, optional: true, attr: "!Ref x"}
      expires: {type: time, optional: true, attr: "exp$${x}"}
    keys:
      primary: {pk: "I$*?%T#{id}", sk: "ITEM"}
      GSI1: {pk: "X#{id}", sk: "{n}"}
      LSI1: {sk: "L#{id}"}
patterns:
  GetItem: {get: Item}
consumers:
  Items:
    on: {Item: [insert, modify]}
    lambda: {batchSize: 10}
outputs:
  terraform:
  iam:
`

// TestTerraformHostile renders a spec whose names Terraform would read as
// templates and checks that each reaches Terraform as the spec's own
// string, in the structure of any other spec.
func TestTerraformHostile(t *testing.T) {
	res := generator.Check("spec.yaml", []byte(hostileTF))
	if err := res.Diags.Err(); err != nil {
		t.Fatal(err)
	}
	d := res.Plan.Tables[0]
	if d.TTL != "exp$${x}" || len(d.Global) != 1 || len(d.Local) != 1 || !strings.Contains(d.Global[0].PK.Name, "${") {
		t.Fatalf("the spec did not give the hostile names: ttl %q", d.TTL)
	}
	// IAM's escapes of *, ? and $ in a partition key pattern are what
	// Terraform would read as an interpolation.
	if keys := iam.AccessOf(res.Plan).Grants[0].LeadingKeys; len(keys) != 1 || !strings.HasPrefix(keys[0], "I${$}${*}${?}%T#") {
		t.Fatalf("the spec did not give the hostile partition key pattern: %q", keys)
	}
	data := render(t, res.Plan, "tables.tf.json")
	checkTerraform(t, res.Plan, data)
	if t.Failed() {
		t.Logf("%s", data)
	}
}

// TestTerraformLiteral checks the test's reading of a Terraform template
// on the values Terraform 1.11 gives these strings as output values.
func TestTerraformLiteral(t *testing.T) {
	for s, want := range map[string]string{
		"plain": "plain", "$${x}": "${x}", "%%{x}": "%{x}", "$$${x}": "$${x}", "$$$${x}": "$$${x}",
		"%%%{x}": "%%{x}", "L$$${y}%%{": "L$${y}%{", "x$": "x$", "$$": "$$", "$ {": "$ {", "100%": "100%",
	} {
		if got, ok := tfLiteral(s); !ok || got != want {
			t.Errorf("tfLiteral(%q) = %q, %v; want %q", s, got, ok, want)
		}
	}
	for _, s := range []string{"${x}", "a%{ if x }", "x$${y}${z}", "$$$${x}${y}"} {
		if _, ok := tfLiteral(s); ok {
			t.Errorf("tfLiteral(%q) is a literal; it is a template", s)
		}
	}
}

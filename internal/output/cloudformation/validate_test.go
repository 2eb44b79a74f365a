package cloudformation_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/dyngen/dyngen/generator"
	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/output"
	"github.com/dyngen/dyngen/internal/output/cloudformation"
	"github.com/dyngen/dyngen/internal/output/format"
	"github.com/dyngen/dyngen/internal/output/iam"
	"github.com/dyngen/dyngen/internal/output/outputtest"
	"github.com/dyngen/dyngen/internal/plan"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// cfnCase is a spec whose CloudFormation output the tests read: the
// committed file of an example, or the output rendered from a test spec.
type cfnCase struct {
	spec string
	plan *plan.Plan
	data []byte
}

// cfnCases returns every example's committed tables.cfn.yaml, and the
// rendered output of testdata/cloudformation.yaml.
func cfnCases(t *testing.T) []cfnCase {
	t.Helper()
	specs, err := filepath.Glob("../../../example/*/spec.yaml")
	if err != nil || len(specs) == 0 {
		t.Fatalf("no example spec found (%v)", err)
	}
	specs = append(specs, "../../../example/storeinventory/native/spec.yaml", "../../e2e/spec.yaml", "../../e2e/multikey/spec.yaml", "../../e2e/stream/spec.yaml", "testdata/cloudformation.yaml")
	var out []cfnCase
	for _, spec := range specs {
		src, err := os.ReadFile(spec)
		if err != nil {
			t.Fatal(err)
		}
		res := generator.Check(spec, src)
		if res.Plan == nil || res.Diags.HasErrors() {
			t.Fatalf("%s: %v", spec, res.Diags.Err())
		}
		o := res.Plan.Model.Output(format.CloudFormation)
		if o == nil {
			t.Fatalf("%s asks for no CloudFormation output", spec)
		}
		c := cfnCase{spec: spec, plan: res.Plan}
		if strings.HasPrefix(spec, "testdata/") {
			files, err := output.Render(res.Plan, output.NewSource("spec.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range files {
				if f.Name == o.File {
					c.data = f.Data
				}
			}
		} else if c.data, err = os.ReadFile(filepath.Join(filepath.Dir(spec), o.File)); err != nil {
			t.Fatal(err)
		}
		if c.data == nil {
			t.Fatalf("%s: no %s rendered", spec, o.File)
		}
		out = append(out, c)
	}
	return out
}

// deployment is the parameter values of one deployment of a template:
// those it sets, the defaults for the others.
type deployment struct {
	name string
	set  func(ids cloudformation.TableIDs, global []cloudformation.IndexIDs) map[string]string
}

var deployments = []deployment{
	{"defaults", func(cloudformation.TableIDs, []cloudformation.IndexIDs) map[string]string { return nil }},
	{"provisioned", func(ids cloudformation.TableIDs, global []cloudformation.IndexIDs) map[string]string {
		m := map[string]string{
			ids.Name:                "prod-" + ids.Resource,
			ids.BillingMode:         "PROVISIONED",
			ids.ReadCapacity:        "7",
			ids.WriteCapacity:       "9",
			ids.PointInTimeRecovery: "true",
			ids.DeletionProtection:  "true",
		}
		if len(global) > 0 {
			m[global[0].ReadCapacity] = "3"
			m[global[0].WriteCapacity] = "4"
		}
		return m
	}},
}

// TestCloudFormationMatchesPlan reads each template as a deployment
// would (intrinsic functions evaluated with the defaults, and with every
// parameter set) and compares every table with its plan.TableDef.
func TestCloudFormationMatchesPlan(t *testing.T) {
	for _, c := range cfnCases(t) {
		for _, dep := range deployments {
			t.Run(c.spec+"/"+dep.name, func(t *testing.T) {
				tmpl := parseTemplate(t, c.data)
				values := deploymentValues(c.plan, dep)
				got := resolveTemplate(t, tmpl, values)
				checkAgainstPlan(t, c.plan, got, values)
			})
		}
	}
}

// deploymentValues are the parameter values of deployment dep of the
// template of plan p: those dep sets of each table, and the function of
// each consumer with lambda:, which has no default: a name in the
// deployment with the defaults, an ARN in the other.
func deploymentValues(p *plan.Plan, dep deployment) map[string]string {
	values := map[string]string{}
	for _, d := range p.Tables {
		for k, v := range dep.set(cloudformation.TableIDsOf(d.Table), globalIDs(d)) {
			values[k] = v
		}
	}
	for _, c := range p.Model.Consumers {
		if c.Lambda == nil {
			continue
		}
		fn := "fn-" + c.GoName
		if dep.name != "defaults" {
			fn = "arn:aws:lambda:us-east-1:123456789012:function:" + fn
		}
		values[cloudformation.ConsumerIDsOf(c).Function] = fn
	}
	return values
}

func globalIDs(d *plan.TableDef) []cloudformation.IndexIDs {
	var out []cloudformation.IndexIDs
	for _, ix := range d.Global {
		out = append(out, cloudformation.IndexIDsOf(ix))
	}
	return out
}

// checkAgainstPlan compares the resolved template with the plan.
func checkAgainstPlan(t *testing.T, p *plan.Plan, tmpl map[string]any, values map[string]string) {
	t.Helper()
	resources, _ := tmpl["Resources"].(map[string]any)
	outputs, _ := tmpl["Outputs"].(map[string]any)
	policy := 0
	if cloudformation.Policy(p) != nil {
		policy = 1
		checkPolicy(t, p, resources, outputs, values)
	} else if _, ok := resources[cloudformation.PolicyIDsOf().Resource]; ok {
		t.Errorf("the template holds the IAM policy, which the plan leaves out")
	}
	mappings := checkMappings(t, p, resources, values)
	if len(resources) != len(p.Tables)+policy+mappings {
		t.Errorf("%d resources, the plan has %d tables, %d policy and %d consumers with lambda:", len(resources), len(p.Tables), policy, mappings)
	}
	if len(outputs) != 2*len(p.Tables)+policy {
		t.Errorf("%d outputs, want 2 per table (%d) and %d for the policy", len(outputs), 2*len(p.Tables), policy)
	}
	// Each table with secondary indexes depends on the one before.
	var indexed any
	for _, d := range p.Tables {
		ids := cloudformation.TableIDsOf(d.Table)
		r, _ := resources[ids.Resource].(map[string]any)
		if r["Type"] != "AWS::DynamoDB::Table" {
			t.Errorf("resource %s: type %v, want AWS::DynamoDB::Table", ids.Resource, r["Type"])
			continue
		}
		if len(d.Global)+len(d.Local) > 0 {
			if r["DependsOn"] != indexed {
				t.Errorf("resource %s depends on %v, want %v", ids.Resource, r["DependsOn"], indexed)
			}
			indexed = ids.Resource
		} else if r["DependsOn"] != nil {
			t.Errorf("resource %s, without index, depends on %v", ids.Resource, r["DependsOn"])
		}
		// Neither a stack's deletion nor an update that replaces the
		// table deletes its items.
		if r["DeletionPolicy"] != "Retain" || r["UpdateReplacePolicy"] != "Retain" {
			t.Errorf("resource %s: DeletionPolicy %v, UpdateReplacePolicy %v, want Retain", ids.Resource, r["DeletionPolicy"], r["UpdateReplacePolicy"])
		}
		provisioned := values[ids.BillingMode] == "PROVISIONED"
		throughput := func(read, write string) map[string]any {
			if !provisioned {
				return nil
			}
			return map[string]any{"ReadCapacityUnits": num(read), "WriteCapacityUnits": num(write)}
		}
		want := map[string]any{
			"TableName":                        orDefault(values[ids.Name], d.Table.Name),
			"KeySchema":                        keySchema(d.Key),
			"BillingMode":                      orDefault(values[ids.BillingMode], plan.Billing),
			"DeletionProtectionEnabled":        values[ids.DeletionProtection] == "true",
			"PointInTimeRecoverySpecification": map[string]any{"PointInTimeRecoveryEnabled": values[ids.PointInTimeRecovery] == "true"},
		}
		if tp := throughput(values[ids.ReadCapacity], values[ids.WriteCapacity]); tp != nil {
			want["ProvisionedThroughput"] = tp
		}
		var attrs []any
		for _, a := range d.Attributes {
			attrs = append(attrs, map[string]any{"AttributeName": a.Name, "AttributeType": string(a.Type)})
		}
		want["AttributeDefinitions"] = attrs
		var global, local []any
		for _, ix := range d.Global {
			g := index(ix)
			ixIDs := cloudformation.IndexIDsOf(ix)
			read, write := orDefault(values[ixIDs.ReadCapacity], values[ids.ReadCapacity]), orDefault(values[ixIDs.WriteCapacity], values[ids.WriteCapacity])
			if tp := throughput(read, write); tp != nil {
				g["ProvisionedThroughput"] = tp
			}
			global = append(global, g)
		}
		for _, ix := range d.Local {
			local = append(local, index(ix))
		}
		if global != nil {
			want["GlobalSecondaryIndexes"] = global
		}
		if local != nil {
			want["LocalSecondaryIndexes"] = local
		}
		if d.TTL != "" {
			want["TimeToLiveSpecification"] = map[string]any{"AttributeName": d.TTL, "Enabled": true}
		}
		if d.Stream != "" {
			want["StreamSpecification"] = map[string]any{"StreamViewType": d.Stream}
		}
		if got := r["Properties"]; !reflect.DeepEqual(got, want) {
			t.Errorf("resource %s:\ngot  %s\nwant %s", ids.Resource, jsonText(got), jsonText(want))
		}
		for id, v := range map[string]string{ids.NameOutput: "ref:" + ids.Resource, ids.ArnOutput: "arn:" + ids.Resource} {
			o, _ := outputs[id].(map[string]any)
			if o["Value"] != v {
				t.Errorf("output %s: value %v, want %s", id, o["Value"], v)
			}
			if ex, _ := o["Export"].(map[string]any); ex["Name"] != "stack-"+id {
				t.Errorf("output %s: export %v, want stack-%s", id, o["Export"], id)
			}
		}
	}
}

// checkMappings checks the event source mapping of each consumer with
// lambda: against the plan: the stream of its table's resource, the
// function the deployment gives, the starting position and batch size
// of the spec, the partial batch response, the plan's filters in order;
// and returns how many there are.
func checkMappings(t *testing.T, p *plan.Plan, resources map[string]any, values map[string]string) int {
	t.Helper()
	n := 0
	for _, c := range p.Model.Consumers {
		ids := cloudformation.ConsumerIDsOf(c)
		r, ok := resources[ids.Mapping].(map[string]any)
		if c.Lambda == nil {
			if ok {
				t.Errorf("consumer %s, without lambda:, has the resource %s", c.Name, ids.Mapping)
			}
			continue
		}
		n++
		if r["Type"] != "AWS::Lambda::EventSourceMapping" {
			t.Errorf("resource %s: type %v, want AWS::Lambda::EventSourceMapping", ids.Mapping, r["Type"])
			continue
		}
		want := map[string]any{
			"EventSourceArn":        "streamarn:" + cloudformation.ResourceID(c.Table),
			"FunctionName":          values[ids.Function],
			"StartingPosition":      c.Lambda.StartingPosition,
			"FunctionResponseTypes": []any{"ReportBatchItemFailures"},
		}
		if c.Lambda.BatchSize > 0 {
			want["BatchSize"] = int(c.Lambda.BatchSize)
		}
		if fs := p.Consumer(c).Filters; fs != nil {
			var filters []any
			for _, f := range fs {
				filters = append(filters, map[string]any{"Pattern": f.Pattern})
			}
			want["FilterCriteria"] = map[string]any{"Filters": filters}
		}
		if got := r["Properties"]; !reflect.DeepEqual(got, want) {
			t.Errorf("resource %s:\ngot  %s\nwant %s", ids.Mapping, jsonText(got), jsonText(want))
		}
	}
	return n
}

// checkPolicy checks the template's IAM policy: its statements are the
// iam output's (rendered from the same plan), each resource an ARN of a
// table resource of the template that, resolved with the deployed
// table name, is the iam output's ARN of that table renamed; its ARN is
// an output, exported.
func checkPolicy(t *testing.T, p *plan.Plan, resources, outputs map[string]any, values map[string]string) {
	t.Helper()
	ids := cloudformation.PolicyIDsOf()
	r, _ := resources[ids.Resource].(map[string]any)
	if r["Type"] != "AWS::IAM::ManagedPolicy" {
		t.Errorf("resource %s: type %v, want AWS::IAM::ManagedPolicy", ids.Resource, r["Type"])
		return
	}
	props, _ := r["Properties"].(map[string]any)
	got := props["PolicyDocument"]
	// The tables' ARNs, as the iam output names them and as the
	// resolved template does.
	deployed := map[string]string{}
	for _, d := range p.Tables {
		tid := cloudformation.TableIDsOf(d.Table)
		deployed["arn:"+tid.Resource] = iam.ARNPrefix + "table/" + orDefault(values[tid.Name], d.Table.Name)
		deployed[iam.ARNPrefix+"table/"+d.Table.Name] = deployed["arn:"+tid.Resource]
	}
	// Resolved ARNs: arn:<table resource>[/index/<name>].
	resolved := func(doc any) any {
		sts, _ := doc.(map[string]any)["Statement"].([]any)
		for _, st := range sts {
			st, _ := st.(map[string]any)
			rs, _ := st["Resource"].([]any)
			for i, res := range rs {
				s, _ := res.(string)
				table, index, _ := strings.Cut(s, "/index/")
				arn, ok := deployed[table]
				if !ok {
					t.Errorf("statement %v: resource %v is not the ARN of a table", st["Sid"], res)
					continue
				}
				if index != "" {
					arn += "/index/" + index
				}
				rs[i] = arn
			}
		}
		return doc
	}
	files, err := output.Render(p, output.NewSource("spec.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var want any
	for _, f := range files {
		if f.Name == p.Model.Output(format.IAM).File {
			if err := json.Unmarshal(f.Data, &want); err != nil {
				t.Fatal(err)
			}
		}
	}
	if want == nil {
		t.Fatal("no IAM output rendered")
	}
	if got, want := resolved(got), resolved(want); !reflect.DeepEqual(got, want) {
		t.Errorf("the template's IAM policy is not the iam output's:\ngot  %s\nwant %s", jsonText(got), jsonText(want))
	}
	// A customer managed policy holds at most 6,144 characters, white
	// space not counted: so must the deployed one, its ARNs of a long
	// region and an account.
	deployedText := strings.ReplaceAll(jsonText(got), iam.ARNPrefix, "arn:aws:dynamodb:ap-southeast-4:123456789012:")
	if n := len(strings.Join(strings.Fields(deployedText), "")); n > 6144 {
		t.Errorf("the deployed policy takes %d characters, more than a managed policy holds", n)
	}
	o, _ := outputs[ids.ArnOutput].(map[string]any)
	if o["Value"] != "ref:"+ids.Resource {
		t.Errorf("output %s: value %v, want ref:%s", ids.ArnOutput, o["Value"], ids.Resource)
	}
	if ex, _ := o["Export"].(map[string]any); ex["Name"] != "stack-"+ids.ArnOutput {
		t.Errorf("output %s: export %v, want stack-%s", ids.ArnOutput, o["Export"], ids.ArnOutput)
	}
}

func orDefault(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

// num is a number parameter's value as the resolved template holds it;
// "" (not set) is the default of the capacities, 5.
func num(s string) any {
	if s == "" || s == "0" {
		s = "5"
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		panic(err)
	}
	return n
}

func keySchema(ix *model.Index) []any {
	var out []any
	for _, k := range plan.KeySchema(ix) {
		out = append(out, map[string]any{"AttributeName": k.Name, "KeyType": k.Type})
	}
	return out
}

func index(ix *model.Index) map[string]any {
	typ, nonKey := plan.Projection(ix)
	proj := map[string]any{"ProjectionType": typ}
	if nonKey != nil {
		var nk []any
		for _, a := range nonKey {
			nk = append(nk, a)
		}
		proj["NonKeyAttributes"] = nk
	}
	return map[string]any{"IndexName": ix.Name, "KeySchema": keySchema(ix), "Projection": proj}
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func parseTemplate(t *testing.T, data []byte) map[string]any {
	return outputtest.ParseTemplate(t, data)
}

func resolveTemplate(t *testing.T, tmpl map[string]any, values map[string]string) map[string]any {
	return outputtest.ResolveTemplate(t, tmpl, values)
}

// TestCloudFormationSchema validates every template, as deployed with
// the defaults and with every parameter set, against the schema of
// CloudFormation templates goformation generates from AWS's resource
// specification: the properties of AWS::DynamoDB::Table and their
// types, the required ones, no unknown one. The schema comes from the
// module cache (.ci/run downloads it); without it the test fails in CI
// and is skipped elsewhere.
func TestCloudFormationSchema(t *testing.T) {
	sch := cfnSchema(t)
	for _, c := range cfnCases(t) {
		for _, dep := range deployments {
			t.Run(c.spec+"/"+dep.name, func(t *testing.T) {
				resolved := resolveTemplate(t, parseTemplate(t, c.data), deploymentValues(c.plan, dep))
				doc, err := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(jsonText(resolved))))
				if err != nil {
					t.Fatal(err)
				}
				if err := sch.Validate(doc); err != nil {
					t.Errorf("the template does not follow CloudFormation's schema:\n%v", err)
				}
			})
		}
	}
}

// TestCIDownloadsSchema keeps .ci/run's download and the version the
// tests read one.
func TestCIDownloadsSchema(t *testing.T) {
	run, err := os.ReadFile("../../../.ci/run")
	if err != nil {
		t.Fatal(err)
	}
	if want := "go mod download " + outputtest.Goformation + "@" + outputtest.GoformationVersion; !strings.Contains(string(run), want) {
		t.Errorf(".ci/run does not run %q", want)
	}
}

// cfnSchema compiles goformation's schema of CloudFormation templates,
// its resources narrowed to the types the output declares.
func cfnSchema(t *testing.T) *jsonschema.Schema {
	return outputtest.CloudFormationSchema(t, "AWS::DynamoDB::Table", "AWS::IAM::ManagedPolicy", "AWS::Lambda::EventSourceMapping")
}

// cfnLint is the cfn-lint of npm that testdata/cfn-lint/package.json pins;
// .ci/run installs it (npm ci).
const cfnLint = "testdata/cfn-lint/node_modules/.bin/cfn-lint"

// ansi matches the colors cfn-lint prints.
var ansi = regexp.MustCompile("\x1b\\[[0-9;]*m")

// TestCloudFormationLint runs cfn-lint on every template, deployed with
// the defaults: it evaluates the intrinsic functions, and checks every
// reference, condition and attribute, the parameters' values, and the
// properties against its copy of AWS's resource specification. That copy
// predates DeletionProtectionEnabled (2023), and an event source
// mapping's FunctionResponseTypes and FilterCriteria (2021): the
// findings allowed are those properties, once per table and mapping
// (TestCloudFormationCfnLint's cfn-lint, and the schema, know them). cfn-lint 1.9.7 loses its place in a
// resource once two Fn::If have given objects (the ProvisionedThroughput
// of a provisioned table and of its indexes) and then reports every
// intrinsic function after them as misplaced: the provisioned
// deployments are left to TestCloudFormationSchema. Without cfn-lint the
// test fails in CI and is skipped elsewhere.
func TestCloudFormationLint(t *testing.T) {
	if _, err := os.Stat(cfnLint); err != nil {
		msg := fmt.Sprintf("cfn-lint is not installed (%v); run: npm ci --prefix internal/output/cloudformation/testdata/cfn-lint", err)
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	for _, c := range cfnCases(t) {
		t.Run(c.spec, func(t *testing.T) {
			lint(t, c.data, c.plan)
		})
	}
}

// lint runs cfn-lint on the template of plan p, and fails the test on
// any finding but those expected.
func lint(t *testing.T, data []byte, p *plan.Plan) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "tables.cfn.yaml")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	allowed := map[string]int{}
	for _, d := range p.Tables {
		allowed["Resources > "+cloudformation.ResourceID(d.Table)+" > Properties > DeletionProtectionEnabled: DeletionProtectionEnabled is not a valid property of AWS::DynamoDB::Table"]++
	}
	// Nor does it know an event source mapping's partial batch response
	// and filters (2021).
	for _, c := range p.Model.Consumers {
		if c.Lambda == nil {
			continue
		}
		props := []string{"FunctionResponseTypes"}
		if len(p.Consumer(c).Filters) > 0 {
			props = append(props, "FilterCriteria")
		}
		for _, prop := range props {
			allowed["Resources > "+cloudformation.ConsumerIDsOf(c).Mapping+" > Properties > "+prop+": "+prop+" is not a valid property of AWS::Lambda::EventSourceMapping"]++
		}
	}
	out, _ := exec.Command(cfnLint, "validate", file).CombinedOutput()
	text := ansi.ReplaceAllString(string(out), "")
	var resource string
	for _, line := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(line, "Resource: "):
			resource = strings.TrimPrefix(line, "Resource: ")
		case strings.HasPrefix(line, "Message: "):
			finding := resource + ": " + strings.TrimPrefix(line, "Message: ")
			if allowed[finding] == 0 {
				t.Errorf("cfn-lint: %s", finding)
			}
			allowed[finding]--
		}
	}
	for finding, n := range allowed {
		if n > 0 {
			t.Errorf("cfn-lint did not report %q (did it read the template?)\n%s", finding, text)
		}
	}
}

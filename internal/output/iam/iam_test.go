package iam_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/dyngen/dyngen/generator"
	"github.com/dyngen/dyngen/internal/iamcheck"
	"github.com/dyngen/dyngen/internal/output"
	"github.com/dyngen/dyngen/internal/output/iam"
	"github.com/dyngen/dyngen/internal/output/outputtest"
	"github.com/dyngen/dyngen/internal/report"
)

// call is a call the report says the generated code makes: an action
// on a table or index, and the key it sends as the report prints it
// ("" for a batch write of whole items).
type call struct {
	Action, Resource, Key string
}

// stepActions are the IAM actions of a transaction's members: there is
// no IAM action for TransactWriteItems or TransactGetItems ("Using IAM
// with DynamoDB transactions").
var stepActions = map[string]string{"Put": "PutItem", "Update": "UpdateItem", "Delete": "DeleteItem", "ConditionCheck": "ConditionCheckItem", "Get": "GetItem"}

var (
	claimNote = regexp.MustCompile(`^2 requests: GetItem of the claim \S+, key (.*), then GetItem of`)
	readNote  = regexp.MustCompile(`^2 requests: GetItem of the item first \(consistent, key (.*)\) to read`)
)

// reportCalls lists the calls of the report of a spec, read from what
// `dyngen plan -json` prints, independently of iam.AccessOf.
func reportCalls(t *testing.T, r *report.Report) []call {
	t.Helper()
	var out []call
	for _, p := range r.Patterns {
		resource := "table/" + p.Table
		for _, n := range p.Notes {
			for _, re := range []*regexp.Regexp{claimNote, readNote} {
				if m := re.FindStringSubmatch(n); m != nil {
					out = append(out, call{"GetItem", resource, m[1]})
				}
			}
		}
		if len(p.Steps) > 0 {
			for _, s := range p.Steps {
				a := stepActions[s.Action]
				if a == "" {
					t.Fatalf("%s: step %d has action %q", p.Name, s.Step, s.Action)
				}
				out = append(out, call{a, "table/" + s.Table, s.Key})
			}
			continue
		}
		if p.Many != nil && p.Many.Mode == "all" {
			// A write over many keys in one transaction: each key's item
			// needs its action.
			a := stepActions[p.Many.Action]
			if a == "" {
				t.Fatalf("%s: many with action %q", p.Name, p.Many.Action)
			}
			out = append(out, call{a, resource, p.Key})
			continue
		}
		if !slices.Contains([]string{"GetItem", "Query", "PutItem", "UpdateItem", "DeleteItem", "BatchGetItem", "BatchWriteItem"}, p.Call) {
			t.Fatalf("%s: call %s without steps", p.Name, p.Call)
		}
		if p.Index != "primary" {
			resource += "/index/" + p.Index
		}
		out = append(out, call{p.Call, resource, p.Key})
	}
	return out
}

var (
	pkOfKey     = regexp.MustCompile(`^\S+ = ("(?:[^"\\]|\\.)*")`)
	placeholder = regexp.MustCompile(`\{[^{}]*\}`)
)

// sampleKey is a partition key value a call of key sends: its template
// with a value in each placeholder; ok is false when the key is no
// string (a number or binary key is printed without quotes).
func sampleKey(t *testing.T, key string) (string, bool) {
	m := pkOfKey.FindStringSubmatch(key)
	if m == nil {
		return "", false
	}
	tpl, err := strconv.Unquote(m[1])
	if err != nil {
		t.Fatalf("key %s: %v", key, err)
	}
	return placeholder.ReplaceAllString(tpl, "v1"), true
}

// renderIAM plans the spec in file and renders its IAM policy.
func renderIAM(t *testing.T, file string, data []byte) (*generator.Result, []byte) {
	t.Helper()
	res := generator.Check(file, data)
	if res.Diags.HasErrors() {
		t.Fatalf("%s: %v", file, res.Diags.Err())
	}
	files, err := output.Render(res.Plan, output.NewSource(filepath.Base(file)))
	if err != nil {
		t.Fatal(err)
	}
	name := res.Model.Output("iam").File
	for _, f := range files {
		if f.Name == name {
			return res, f.Data
		}
	}
	t.Fatalf("%s: no %s among the outputs", file, name)
	return nil, nil
}

// checkAgainstReport checks that the policy allows exactly the calls
// of the spec's report: each one, with the partition key value it
// sends; no other action on any table or index; and, where a statement
// binds the partition key, neither a key of another prefix nor a
// request with no key.
func checkAgainstReport(t *testing.T, res *generator.Result, doc []byte) {
	t.Helper()
	p, err := iamcheck.Parse(doc)
	if err != nil {
		t.Fatal(err)
	}
	calls := reportCalls(t, report.New("spec.yaml", res.Plan, res.Diags))
	want := map[string]bool{}
	for _, c := range calls {
		want["dynamodb:"+c.Action+" "+c.Resource] = true
		key, ok := sampleKey(t, c.Key)
		switch {
		case c.Key == "":
			// A batch write of whole items: its keys are the items'.
		case !ok:
			// The key is no string: no pattern binds it.
			if !p.Allows("dynamodb:"+c.Action, c.Resource, []string{"12"}) {
				t.Errorf("dynamodb:%s on %s with key %s is not allowed", c.Action, c.Resource, c.Key)
			}
		case !p.Allows("dynamodb:"+c.Action, c.Resource, []string{key}):
			t.Errorf("dynamodb:%s on %s with partition key %q (%s) is not allowed", c.Action, c.Resource, key, c.Key)
		}
	}
	got := map[string]bool{}
	for _, st := range p.Statement {
		for _, a := range st.Action {
			for _, r := range st.Resource {
				got[a+" "+strings.TrimPrefix(r, iam.ARNPrefix)] = true
			}
		}
	}
	for k := range got {
		if !want[k] {
			t.Errorf("the policy allows %s, which no call of the report makes", k)
		}
	}
	for k := range want {
		if !got[k] {
			t.Errorf("the report's call %s is not in the policy", k)
		}
	}
	for _, st := range p.Statement {
		if st.Condition == nil {
			continue
		}
		for _, a := range st.Action {
			r := strings.TrimPrefix(st.Resource[0], iam.ARNPrefix)
			// An action some statement allows without a condition
			// reaches every key.
			if slices.ContainsFunc(p.Statement, func(o iamcheck.Statement) bool {
				return o.Condition == nil && slices.Contains(o.Action, a) && slices.Equal(o.Resource, st.Resource)
			}) {
				continue
			}
			if p.Allows(a, r, []string{"\x7fnot-a-key"}) {
				t.Errorf("%s: %s on %s is allowed for a key no template makes", st.Sid, a, r)
			}
			if p.Allows(a, r, nil) {
				t.Errorf("%s: %s on %s is allowed for a request with no key", st.Sid, a, r)
			}
		}
	}
}

// exampleSpecs are the specs of the examples and of the end-to-end
// test, which all ask for the IAM policy.
func exampleSpecs(t *testing.T) []string {
	specs, err := filepath.Glob("../../../example/*/spec.yaml")
	if err != nil || len(specs) == 0 {
		t.Fatalf("no example specs: %v", err)
	}
	return append(specs, "../../../example/storeinventory/native/spec.yaml", "../../e2e/spec.yaml", "../../e2e/multikey/spec.yaml")
}

// TestIAMPolicyExamples checks the IAM policy of every example: the
// file written is the one rendered, it follows the IAM policy grammar,
// it grants exactly the calls of the spec's report and no more, and it
// grants no Scan nor any wildcard.
func TestIAMPolicyExamples(t *testing.T) {
	sch := outputtest.CompileSchema(t, iamSchemaFile)
	for _, file := range exampleSpecs(t) {
		t.Run(filepath.Base(filepath.Dir(file)), func(t *testing.T) {
			res, doc := renderIAM(t, file, readFile(t, file))
			onDisk := readFile(t, filepath.Join(filepath.Dir(file), res.Model.Output("iam").File))
			if !bytes.Equal(doc, onDisk) {
				t.Errorf("the committed %s is not the rendered one: regenerate the example", res.Model.Output("iam").File)
			}
			for _, e := range checkIAMPolicy(t, sch, doc) {
				t.Error(e)
			}
			for _, s := range []string{`"*"`, `"dynamodb:*`, `"dynamodb:Scan"`, "NotAction", "NotResource", "Deny"} {
				if bytes.Contains(doc, []byte(s)) {
					t.Errorf("the policy holds %s", s)
				}
			}
			checkAgainstReport(t, res, doc)
			// A managed policy holds at most 6,144 characters, white
			// space not counted (IAM User Guide, IAM and AWS STS quotas).
			if n := policySize(t, res, doc); n > iam.ManagedPolicyMaxSize {
				t.Errorf("the policy takes %d characters, more than a managed policy holds", n)
			}
		})
	}
}

// policySize returns the characters of the printed policy doc, white
// space not counted, and checks that the plan's size of it, which
// decides the warning on a policy too large, is the same.
func policySize(t *testing.T, res *generator.Result, doc []byte) int {
	t.Helper()
	n := utf8.RuneCount(bytes.Join(bytes.Fields(doc), nil))
	if got := iam.AccessOf(res.Plan).Size(); got != n {
		t.Errorf("the plan says the policy takes %d characters, the printed one takes %d", got, n)
	}
	return n
}

// warehouseSpec has n tables, each with an index, and the patterns that
// give each a statement of its own and one of its index: the 24
// statements of 12 tables take more than a managed policy holds, the 22
// of 11 do not.
func warehouseSpec(n int) string {
	var b strings.Builder
	b.WriteString("version: 1\npackage: warehouse\ntables:\n")
	for i := range n {
		fmt.Fprintf(&b, "  Warehouse%02d:\n    partitionKey: PK\n    sortKey: SK\n    indexes:\n      GSI1: {partitionKey: GSI1PK, sortKey: GSI1SK}\n", i)
	}
	b.WriteString("entities:\n")
	for i := range n {
		fmt.Fprintf(&b, "  Shipment%02d:\n    table: Warehouse%02d\n    attributes: {shipmentId: string, region: string}\n    keys:\n", i, i)
		b.WriteString("      primary: {pk: \"SHIPMENT#{shipmentId}\", sk: \"SHIPMENT\"}\n      GSI1: {pk: \"REGION#{region}\", sk: \"SHIPMENT#{shipmentId}\"}\n")
	}
	b.WriteString("patterns:\n")
	for i := range n {
		fmt.Fprintf(&b, "  GetShipment%02d: {get: Shipment%02d}\n  CreateShipment%02d: {create: Shipment%02d}\n", i, i, i, i)
		fmt.Fprintf(&b, "  ShipmentsInRegion%02d: {query: Shipment%02d, by: [region], index: GSI1}\n", i, i)
	}
	b.WriteString("outputs:\n  iam:\n")
	return b.String()
}

// TestIAMPolicySize checks the warning on a policy larger than a
// managed policy holds: the plan's size is the printed policy's, white
// space not counted, and the warning, at the iam output, comes when it
// is over 6,144 and only then.
func TestIAMPolicySize(t *testing.T) {
	var sizes []int
	for _, n := range []int{1, 11, 12} {
		res := generator.Check("spec.yaml", []byte(warehouseSpec(n)))
		if res.Diags.HasErrors() {
			t.Fatalf("%d tables: %v", n, res.Diags.Err())
		}
		files, err := output.Render(res.Plan, output.NewSource("spec.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		var doc []byte
		for _, f := range files {
			if f.Name == "iam-policy.json" {
				doc = f.Data
			}
		}
		size := policySize(t, res, doc)
		sizes = append(sizes, size)
		var warned []string
		for _, d := range res.Diags.Sorted() {
			if strings.Contains(d.Message, "IAM policy takes") {
				warned = append(warned, d.String())
			}
		}
		pos := res.Model.Output("iam").Pos
		want := fmt.Sprintf("%s: warning: the IAM policy takes %s characters without white space, more than the 6,144 of a managed policy", pos, thousandsOf(size))
		switch {
		case size <= iam.ManagedPolicyMaxSize && len(warned) > 0:
			t.Errorf("%d tables, %d characters: warned %q", n, size, warned)
		case size > iam.ManagedPolicyMaxSize && (len(warned) != 1 || !strings.HasPrefix(warned[0], want)):
			t.Errorf("%d tables, %d characters: warned %q, want one starting %q", n, size, warned, want)
		}
	}
	// The cases hold a policy under the limit and one over it.
	if sizes[1] > iam.ManagedPolicyMaxSize || sizes[2] <= iam.ManagedPolicyMaxSize {
		t.Errorf("sizes %v: 11 tables should fit a managed policy, 12 should not", sizes)
	}
}

// thousandsOf writes n as the warning does: 6,385.
func thousandsOf(n int) string {
	s := strconv.Itoa(n)
	if len(s) > 3 {
		s = s[:len(s)-3] + "," + s[len(s)-3:]
	}
	return s
}

// hostileSpec has partition key templates whose literal text holds what
// StringLike, JSON or a policy variable would read: * ? $ " \ ' and
// ${...} (braces can't be literal text, so "$" then a placeholder), a
// line separator, text outside Latin-1, and a number key.
const hostileSpec = `
version: 1
package: hostile
tables:
  Things:
    partitionKey: PK
    sortKey: SK
  Counts:
    partitionKey: {name: n, type: N}
entities:
  Star:
    table: Things
    attributes: {id: string}
    keys: {primary: {pk: "A*?{id}", sk: "X"}}
  Quote:
    table: Things
    attributes: {id: string}
    keys: {primary: {pk: "D$\"\\'{id}", sk: "X"}}
  Dollar:
    table: Things
    attributes: {id: string}
    keys: {primary: {pk: "E$${id}", sk: "X"}}
  Wide:
    table: Things
    attributes: {id: string}
    keys: {primary: {pk: "AB日{id}", sk: "X"}}
  Line:
    table: Things
    attributes: {id: string}
    keys: {primary: {pk: "L\u2028-->{id}", sk: "X"}}
  Const:
    table: Things
    attributes: {id: string}
    keys: {primary: {pk: "CONFIG*", sk: "C#{id}"}}
  Count:
    table: Counts
    attributes: {n: int}
patterns:
  GetStar: {get: Star}
  GetQuote: {get: Quote}
  GetDollar: {get: Dollar}
  GetWide: {get: Wide}
  GetLine: {get: Line}
  GetConst: {get: Const}
  GetCount: {get: Count}
outputs:
  iam:
`

// TestIAMPolicyHostile checks that no literal text of a template changes
// the policy's structure or what it allows: the policy follows the
// grammar, allows each key its template makes, and the *, ? and $ of a
// literal match only themselves.
func TestIAMPolicyHostile(t *testing.T) {
	sch := outputtest.CompileSchema(t, iamSchemaFile)
	res, doc := renderIAM(t, "spec.yaml", []byte(hostileSpec))
	for _, e := range checkIAMPolicy(t, sch, doc) {
		t.Error(e)
	}
	checkAgainstReport(t, res, doc)
	policySize(t, res, doc)
	p, err := iamcheck.Parse(doc)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Statement) != 2 {
		t.Fatalf("%d statements, want one per table:\n%s", len(p.Statement), doc)
	}
	get := func(key string) bool { return p.Allows("dynamodb:GetItem", "table/Things", []string{key}) }
	for _, key := range []string{"A*?x", `D$"\'x`, "E$$x", "AB日x", "ABx", "L\u2028-->x", "Lx", "CONFIG*"} {
		if !get(key) {
			t.Errorf("key %q is not allowed", key)
		}
	}
	for _, key := range []string{"Axyx", "A*x", `D$"x`, "Exxx", "CONFIG", "CONFIGx", "x"} {
		if get(key) {
			t.Errorf("key %q is allowed", key)
		}
	}
	if !p.Allows("dynamodb:GetItem", "table/Counts", []string{"12"}) {
		t.Errorf("a number key is not allowed: its statement should bind no key")
	}
}

// cfnPolicy wraps a policy in a CloudFormation template, as the policy
// document of an AWS::IAM::ManagedPolicy, for cfn-lint to check.
func cfnPolicy(t *testing.T, doc []byte) []byte {
	t.Helper()
	var v any
	if err := json.Unmarshal(doc, &v); err != nil {
		t.Fatal(err)
	}
	out, err := json.MarshalIndent(map[string]any{
		"AWSTemplateFormatVersion": "2010-09-09",
		"Resources":                map[string]any{"Policy": map[string]any{"Type": "AWS::IAM::ManagedPolicy", "Properties": map[string]any{"PolicyDocument": v}}},
	}, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestIAMPolicyCfnLint has AWS's cfn-lint (outputtest.PyCfnLintVersion: skipped
// without it, failed when DYNGEN_CFN_LINT is "required", as in CI) check
// every example's policy and the hostile one as the document of a
// managed policy: its grammar (rule E3510) and its action names (W3037),
// from AWS's own data. A transaction's API name, which is no IAM action,
// must fail it.
func TestIAMPolicyCfnLint(t *testing.T) {
	lint := outputtest.PyCfnLint(t)
	dir := t.TempDir()
	var files []string
	var bad []byte
	for _, spec := range exampleSpecs(t) {
		_, doc := renderIAM(t, spec, readFile(t, spec))
		name := filepath.Join(dir, filepath.Base(filepath.Dir(spec))+".json")
		if err := os.WriteFile(name, cfnPolicy(t, doc), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, name)
		bad = bytes.Replace(doc, []byte(`"dynamodb:GetItem"`), []byte(`"dynamodb:TransactGetItems"`), 1)
	}
	_, doc := renderIAM(t, "spec.yaml", []byte(hostileSpec))
	name := filepath.Join(dir, "hostile.json")
	if err := os.WriteFile(name, cfnPolicy(t, doc), 0o644); err != nil {
		t.Fatal(err)
	}
	files = append(files, name)
	name = filepath.Join(dir, "bad.json")
	if err := os.WriteFile(name, cfnPolicy(t, bad), 0o644); err != nil {
		t.Fatal(err)
	}
	// The findings about the bad policy are the control's.
	var control []string
	for _, line := range outputtest.RunPyCfnLint(t, lint, append([]string{"--format", "parseable", "--"}, append(files, name)...)...) {
		if strings.HasPrefix(line, name+":") {
			control = append(control, line)
		} else {
			t.Errorf("cfn-lint: %s", line)
		}
	}
	if !slices.ContainsFunc(control, func(f string) bool { return strings.Contains(f, "transactgetitems") }) {
		t.Errorf("cfn-lint passes dynamodb:TransactGetItems:\n%s", strings.Join(control, "\n"))
	}
}

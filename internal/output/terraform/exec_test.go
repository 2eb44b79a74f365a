package terraform_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/dyngen/dyngen/generator"
	"github.com/dyngen/dyngen/internal/output/format"
	"github.com/dyngen/dyngen/internal/output/iam"
	"github.com/dyngen/dyngen/internal/output/terraform"
	"github.com/dyngen/dyngen/internal/plan"
)

// terraformBinary is the terraform or tofu command on PATH, or "".
func terraformBinary() string {
	for _, name := range []string{"terraform", "tofu"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// leaf is a string or bool of a resource's body, by its path.
type leaf struct {
	path  string
	value any
}

// leaves appends the strings and bools of v, by path, in an order of
// their own.
func leaves(path string, v any, out *[]leaf) {
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			leaves(path+"."+k, v[k], out)
		}
	case []any:
		for i, e := range v {
			leaves(fmt.Sprintf("%s[%d]", path, i), e, out)
		}
	default:
		*out = append(*out, leaf{path, v})
	}
}

// TestTerraformEvaluates has Terraform (or OpenTofu) itself read the
// Terraform output of the hostile spec and of every example, when one
// is installed: the AWS provider it would need to validate the
// resources can't be installed here, so the test keeps the file's
// variables and local values and makes each string and bool of a
// resource an output value, which Terraform reads as it reads a
// resource argument (a template); a reference to a table's ARN or stream
// ARN, which only the provider knows, is replaced by the iam output's
// ARN of the table or its stream, and a variable without default (a
// consumer's function) is given a value. It applies that configuration
// (no resource, no provider) with every table on demand, then with every
// other table provisioned (the first, then the second), and checks each
// value: a literal reads as the test reads it (tfLiteral, whose
// agreement with the spec's names TestTerraformHostile checks), a
// capacity as the table's billing mode and the variables give it (a
// global index's first capacity its own, the second its table's), a
// reference as the variable's value, the policy as the iam output's
// document. A billing mode outside the two, a capacity of an index under
// 1, a policy name IAM refuses and an empty function name are refused by
// the variables' validations.
func TestTerraformEvaluates(t *testing.T) {
	bin := terraformBinary()
	if bin == "" {
		t.Skip("neither terraform nor tofu is installed")
	}
	cases := map[string][]byte{"hostile": []byte(hostileTF)}
	specs, _ := filepath.Glob("../../../example/*/spec.yaml")
	for _, spec := range append(specs, "../../../example/storeinventory/native/spec.yaml", "../../e2e/spec.yaml", "../../e2e/multikey/spec.yaml", "../../e2e/stream/spec.yaml") {
		data, err := os.ReadFile(spec)
		if err != nil {
			t.Fatal(err)
		}
		cases[filepath.Base(filepath.Dir(spec))] = data
	}
	for name, spec := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel() // each case in a directory of its own
			res := generator.Check("spec.yaml", spec)
			if err := res.Diags.Err(); err != nil {
				t.Fatal(err)
			}
			p := res.Plan
			var doc map[string]any
			if err := json.Unmarshal(render(t, p, res.Model.Output(format.Terraform).File), &doc); err != nil {
				t.Fatal(err)
			}
			var ls []leaf
			leaves("", doc["resource"], &ls)
			vars := doc["variable"].(map[string]any)
			// A variable without default (a consumer's function) is
			// given a value; a reference to a table's stream ARN, which
			// only the provider knows, is a literal ARN.
			fixed, given := map[string]any{}, map[string]string{}
			var givenArgs []string
			for name, v := range vars {
				if _, ok := v.(map[string]any)["default"]; !ok {
					given[name] = "fn-" + name
					givenArgs = append(givenArgs, "-var="+name+"="+given[name])
				}
			}
			outs := map[string]any{}
			for i, l := range ls {
				value := l.value
				if s, ok := value.(string); ok {
					if v, ok := given[strings.TrimSuffix(strings.TrimPrefix(s, "${var."), "}")]; ok {
						fixed[l.path] = v
					}
					for _, d := range p.Tables {
						if s == "${aws_dynamodb_table."+terraform.TableNamesOf(d.Table).Resource+".stream_arn}" {
							arn := iam.StreamARN(d.Table)
							value, fixed[l.path] = strings.ReplaceAll(arn, "${", "$${"), arn
						}
					}
				}
				outs[fmt.Sprintf("o%d", i)] = map[string]any{"value": value}
			}
			cfg := map[string]any{"variable": doc["variable"], "output": outs}
			if doc["locals"] != nil {
				cfg["locals"] = withTableARNs(p, doc["locals"])
			}
			data, err := json.Marshal(cfg)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "main.tf.json"), data, 0o644); err != nil {
				t.Fatal(err)
			}
			var policy any
			if terraform.HoldsPolicy(p.Model) {
				if err := json.Unmarshal(render(t, p, p.Model.Output(format.IAM).File), &policy); err != nil {
					t.Fatal(err)
				}
			}
			rounds := []int{-1, 0}
			if len(p.Tables) > 1 {
				rounds = append(rounds, 1)
			}
			for _, first := range rounds {
				// Tables first, first+2, ... provisioned, the others on
				// demand (none when first is -1); every table's capacities
				// 7 and 9, a global index's read capacity 3.
				want := maps.Clone(fixed)
				args := slices.Clone(givenArgs)
				for i, d := range p.Tables {
					n := terraform.TableNamesOf(d.Table)
					mode := "PAY_PER_REQUEST"
					if first >= 0 && i >= first && (i-first)%2 == 0 {
						mode = "PROVISIONED"
					}
					args = append(args, "-var="+n.BillingModeVar+"="+mode, "-var="+n.ReadCapacityVar+"=7", "-var="+n.WriteCapacityVar+"=9")
					path := ".aws_dynamodb_table." + n.Resource
					want[path+".billing_mode"] = mode
					if mode == "PROVISIONED" {
						want[path+".read_capacity"], want[path+".write_capacity"] = 7.0, 9.0
					} else {
						want[path+".read_capacity"], want[path+".write_capacity"] = nil, nil
					}
					for j, ix := range d.Global {
						args = append(args, "-var="+terraform.IndexNamesOf(ix).ReadCapacityVar+"=3")
						ixPath := fmt.Sprintf("%s.global_secondary_index[%d]", path, j)
						if mode == "PROVISIONED" {
							want[ixPath+".read_capacity"], want[ixPath+".write_capacity"] = 3.0, 9.0
						} else {
							want[ixPath+".read_capacity"], want[ixPath+".write_capacity"] = nil, nil
						}
					}
				}
				got := apply(t, bin, dir, args...)
				for i, l := range ls {
					checkLeaf(t, l, got[fmt.Sprintf("o%d", i)], vars, want, policy)
				}
			}
			d := p.Tables[0]
			refused := map[string]string{
				"-var=" + terraform.TableNamesOf(d.Table).BillingModeVar + "=ON_DEMAND": "PAY_PER_REQUEST or PROVISIONED",
			}
			if len(d.Global) > 0 {
				refused["-var="+terraform.IndexNamesOf(d.Global[0]).WriteCapacityVar+"=0"] = "null or a whole number"
			}
			if terraform.HoldsPolicy(p.Model) {
				refused["-var="+terraform.PolicyNameVar+"=a b"] = "128 letters"
			}
			for name := range given {
				refused["-var="+name+"="] = "1 to 140 characters"
			}
			for arg, msg := range refused {
				// The last value of a variable given twice is the one
				// Terraform reads.
				args := append(slices.Clone(givenArgs), arg)
				if out, err := run(bin, dir, append([]string{"plan", "-input=false", "-no-color"}, args...)...); err == nil || !strings.Contains(out, msg) {
					t.Errorf("%s accepted:\n%s", arg, out)
				}
			}
		})
	}
}

// withTableARNs is the local values v of the Terraform output with each
// string that starts with a reference to a table's ARN
// (${aws_dynamodb_table.<name>.arn}, never the start of a string of the
// spec, which is inert) starting with the iam output's ARN of the table
// instead.
func withTableARNs(p *plan.Plan, v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range v {
			out[k] = withTableARNs(p, e)
		}
		return out
	case []any:
		var out []any
		for _, e := range v {
			out = append(out, withTableARNs(p, e))
		}
		return out
	case string:
		for _, d := range p.Tables {
			ref := "${aws_dynamodb_table." + terraform.TableNamesOf(d.Table).Resource + ".arn}"
			if rest, ok := strings.CutPrefix(v, ref); ok {
				return strings.ReplaceAll(iam.ARNPrefix+"table/"+d.Table.Name, "${", "$${") + rest
			}
		}
	}
	return v
}

// checkLeaf checks the value Terraform gave leaf l (nil when null):
// want's, by path, or a literal's, a variable's default, or the policy.
func checkLeaf(t *testing.T, l leaf, got any, vars, want map[string]any, policy any) {
	t.Helper()
	if w, ok := want[l.path]; ok {
		if got != w {
			t.Errorf("%s = %v: Terraform gives %v, want %v", l.path, l.value, got, w)
		}
		return
	}
	s, isString := l.value.(string)
	if !isString {
		if got != l.value {
			t.Errorf("%s = %v, Terraform reads %v", l.path, l.value, got)
		}
		return
	}
	if lit, ok := tfLiteral(s); ok {
		if got != lit {
			t.Errorf("%s = %q: the test reads %q, Terraform %v", l.path, s, lit, got)
		}
		return
	}
	if l.path == ".aws_iam_policy."+terraform.PolicyResource+".policy" {
		var doc any
		if g, _ := got.(string); json.Unmarshal([]byte(g), &doc) != nil || !reflect.DeepEqual(doc, policy) {
			t.Errorf("%s = %q: Terraform gives\n%v\nwant the iam output's\n%v", l.path, s, got, policy)
		}
		return
	}
	ref := strings.TrimSuffix(strings.TrimPrefix(s, "${var."), "}")
	v, ok := vars[ref].(map[string]any)
	if !ok {
		t.Errorf("%s = %q: not a reference the output makes", l.path, s)
		return
	}
	if got != v["default"] {
		t.Errorf("%s = %q: Terraform gives %v, want %v", l.path, s, got, v["default"])
	}
}

// apply applies the configuration of dir with args and returns its
// output values.
func apply(t *testing.T, bin, dir string, args ...string) map[string]any {
	t.Helper()
	if out, err := run(bin, dir, append([]string{"apply", "-auto-approve", "-input=false", "-no-color"}, args...)...); err != nil {
		t.Fatalf("%s apply: %v\n%s", filepath.Base(bin), err, out)
	}
	out, err := run(bin, dir, "output", "-json")
	if err != nil {
		t.Fatalf("%s output: %v\n%s", filepath.Base(bin), err, out)
	}
	var values map[string]struct{ Value any }
	if err := json.Unmarshal([]byte(out), &values); err != nil {
		t.Fatalf("%s output: %v\n%s", filepath.Base(bin), err, out)
	}
	got := map[string]any{}
	for k, v := range values {
		got[k] = v.Value
	}
	return got
}

// run runs the command in dir, with no CLI configuration, checkpoint or
// color, and returns its standard output (and error output on failure).
func run(bin, dir string, args ...string) (string, error) {
	cmd := exec.Command(bin, append([]string{"-chdir=" + dir}, args...)...)
	cmd.Env = append(os.Environ(), "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1", "TF_CLI_CONFIG_FILE="+os.DevNull, "TF_DATA_DIR="+filepath.Join(dir, ".terraform"))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if err != nil {
		return stdout.String() + stderr.String(), err
	}
	return stdout.String(), nil
}

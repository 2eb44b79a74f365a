package output_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dyngen/dyngen/generator"
	"github.com/dyngen/dyngen/internal/model"
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
// variables and makes each string and bool of a resource an output
// value, which Terraform reads as it reads a resource argument (a
// template). It applies that configuration (no resource, no provider)
// on demand and provisioned, and checks each value: a literal reads as
// the test reads it (tfLiteral, whose agreement with the spec's names
// TestTerraformHostile checks), a reference as the variable's value. A
// billing mode outside the two is refused by the variable's validation.
func TestTerraformEvaluates(t *testing.T) {
	bin := terraformBinary()
	if bin == "" {
		t.Skip("neither terraform nor tofu is installed")
	}
	cases := map[string][]byte{"hostile": []byte(hostileTF)}
	specs, _ := filepath.Glob("../../example/*/spec.yaml")
	for _, spec := range append(specs, "../e2e/spec.yaml") {
		data, err := os.ReadFile(spec)
		if err != nil {
			t.Fatal(err)
		}
		cases[filepath.Base(filepath.Dir(spec))] = data
	}
	for name, spec := range cases {
		t.Run(name, func(t *testing.T) {
			res := generator.Check("spec.yaml", spec)
			if err := res.Diags.Err(); err != nil {
				t.Fatal(err)
			}
			var doc map[string]any
			if err := json.Unmarshal(render(t, res.Plan, res.Model.Output(model.Terraform).File), &doc); err != nil {
				t.Fatal(err)
			}
			var ls []leaf
			leaves("", doc["resource"], &ls)
			outs := map[string]any{}
			for i, l := range ls {
				outs[fmt.Sprintf("o%d", i)] = map[string]any{"value": l.value}
			}
			cfg, err := json.Marshal(map[string]any{"variable": doc["variable"], "output": outs})
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "main.tf.json"), cfg, 0o644); err != nil {
				t.Fatal(err)
			}
			vars := doc["variable"].(map[string]any)
			for _, billing := range []string{"PAY_PER_REQUEST", "PROVISIONED"} {
				got := apply(t, bin, dir, "-var=billing_mode="+billing, "-var=read_capacity=7", "-var=write_capacity=9")
				for i, l := range ls {
					checkLeaf(t, l, got[fmt.Sprintf("o%d", i)], vars, billing)
				}
			}
			if out, err := run(bin, dir, "plan", "-input=false", "-no-color", "-var=billing_mode=ON_DEMAND"); err == nil || !strings.Contains(out, "PAY_PER_REQUEST or PROVISIONED") {
				t.Errorf("billing mode ON_DEMAND accepted:\n%s", out)
			}
		})
	}
}

// checkLeaf checks the value Terraform gave leaf l (nil when null).
func checkLeaf(t *testing.T, l leaf, got any, vars map[string]any, billing string) {
	t.Helper()
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
	var want any
	switch ref := strings.TrimSuffix(strings.TrimPrefix(s, "${var."), "}"); {
	case strings.Contains(s, "PROVISIONED"):
		// The capacity: sent only when provisioned.
		if billing == "PROVISIONED" {
			want = map[bool]float64{true: 7, false: 9}[strings.Contains(s, "read_capacity")]
		}
	case ref == model.TerraformBillingModeVar:
		want = billing
	case vars[ref] != nil:
		want = vars[ref].(map[string]any)["default"]
	default:
		t.Errorf("%s = %q: not a reference the output makes", l.path, s)
		return
	}
	if got != want {
		t.Errorf("%s = %q: Terraform gives %v, want %v", l.path, s, got, want)
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

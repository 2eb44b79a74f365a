package cloudformation_test

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dyngen/dyngen/internal/output/outputtest"
)

// cfnLintArgs run cfn-lint with every rule, informational ones
// included, on deployment files, each naming a template and the values
// of its parameters: a finding about a template starts with the
// template's path, one about a parameter's value with the deployment's.
var cfnLintArgs = []string{"--include-checks", "I", "--non-zero-exit-code", "informational", "--format", "parseable", "--deployment-files"}

// TestCloudFormationCfnLint runs AWS's cfn-lint on every template (each
// example's and the end-to-end tests' committed file, and the output of
// testdata/cloudformation.yaml: a local index, INCLUDE and KEYS_ONLY
// projections, a ttl, a numeric key, the IAM policy with *, ? and $ in
// its patterns, a stream consumer's event source mapping with its
// filters), deployed with the defaults and with every parameter set
// (provisioned, renamed, the functions' names or ARNs): the templates'
// grammar, the resources' properties against AWS's current schemas, the
// intrinsic functions, references and conditions, the parameters'
// values, the IAM policy's grammar and actions, and its best practices.
// Any finding fails. A broken template must fail it.
func TestCloudFormationCfnLint(t *testing.T) {
	lint := outputtest.PyCfnLint(t)
	dir := t.TempDir()
	cases := cfnCases(t)
	// Each deployment (a template deployed with the defaults, or with
	// every parameter set) lints a copy of its template of its own, so
	// that a finding names the deployment: all in one run of cfn-lint,
	// which takes seconds to start.
	type run struct{ name, template, deployment string }
	var runs []run
	var deploymentFiles []string
	deploy := func(name string, template []byte, params map[string]string) {
		r := run{name, filepath.Join(dir, name+".cfn.yaml"), filepath.Join(dir, name+".deployment.yaml")}
		var d strings.Builder
		fmt.Fprintf(&d, "template-file-path: %s\nparameters:\n", r.template)
		for _, k := range slices.Sorted(maps.Keys(params)) {
			fmt.Fprintf(&d, "  %s: %q\n", k, params[k])
		}
		if len(params) == 0 {
			d.WriteString("  {}\n")
		}
		for file, data := range map[string][]byte{r.template: template, r.deployment: []byte(d.String())} {
			if err := os.WriteFile(file, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		runs = append(runs, r)
		deploymentFiles = append(deploymentFiles, r.deployment)
	}
	for i, c := range cases {
		base := fmt.Sprintf("%d-%s", i, filepath.Base(filepath.Dir(c.spec)))
		for _, dep := range deployments {
			deploy(base+"."+dep.name, c.data, deploymentValues(c.plan, dep))
		}
	}
	// The control: a DeletionPolicy CloudFormation does not know, and a
	// transaction's API name, which is no IAM action, in the last
	// template.
	bad := bytes.Replace(cases[len(cases)-1].data, []byte("DeletionPolicy: Retain"), []byte("DeletionPolicy: Keep"), 1)
	bad = bytes.Replace(bad, []byte(`"dynamodb:GetItem"`), []byte(`"dynamodb:TransactGetItems"`), 1)
	deploy("bad", bad, nil)
	var control []string
	for _, f := range outputtest.RunPyCfnLint(t, lint, append(cfnLintArgs, deploymentFiles...)...) {
		i := slices.IndexFunc(runs, func(r run) bool {
			return strings.HasPrefix(f, r.template+":") || strings.HasPrefix(f, r.deployment+":")
		})
		switch {
		case i < 0:
			t.Errorf("cfn-lint: %s", f)
		case runs[i].name == "bad":
			control = append(control, f)
		default:
			t.Errorf("cfn-lint, %s: %s", runs[i].name, f)
		}
	}
	for _, want := range []string{":E3035:'Keep'", ":W3037:'transactgetitems'"} {
		if !slices.ContainsFunc(control, func(f string) bool { return strings.Contains(f, want) }) {
			t.Errorf("cfn-lint does not report %s in a broken template:\n%s", want, strings.Join(control, "\n"))
		}
	}
}

// TestCIInstallsCfnLint keeps .ci/run's install of cfn-lint and the
// version the test requires one.
func TestCIInstallsCfnLint(t *testing.T) {
	run, err := os.ReadFile("../../../.ci/run")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"pip install --quiet cfn-lint==" + outputtest.PyCfnLintVersion + "; then", "export DYNGEN_CFN_LINT=required"} {
		if !strings.Contains(string(run), want) {
			t.Errorf(".ci/run does not hold %q", want)
		}
	}
}

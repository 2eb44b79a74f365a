package output_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// pyCfnLintVersion is the version of AWS's cfn-lint (Python) that
// TestCloudFormationCfnLint runs; .ci/run installs it with pip and then
// sets DYNGEN_CFN_LINT=required. (The cfn-lint of npm that
// TestCloudFormationLint runs is another program.)
const pyCfnLintVersion = "1.51.0"

// pyCfnLint returns the path of cfn-lint pyCfnLintVersion. Without it,
// the test fails when DYNGEN_CFN_LINT is "required", and is skipped
// otherwise.
func pyCfnLint(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("cfn-lint")
	why := ""
	if err != nil {
		why = "cfn-lint is not installed"
	} else {
		out, err := exec.Command(path, "--version").CombinedOutput()
		if v := strings.TrimSpace(string(out)); err != nil || v != "cfn-lint "+pyCfnLintVersion {
			why = fmt.Sprintf("%s --version says %q (%v), not cfn-lint %s", path, v, err, pyCfnLintVersion)
		}
	}
	if why != "" {
		msg := why + "; run: pip install cfn-lint==" + pyCfnLintVersion
		if os.Getenv("DYNGEN_CFN_LINT") == "required" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return path
}

// runCfnLint runs cfn-lint on files with every rule, informational ones
// included, and the parameter values given ("Key=Value"), and returns
// its findings, a line each.
func runCfnLint(t *testing.T, lint string, files, params []string) []string {
	t.Helper()
	args := []string{"--include-checks", "I", "--non-zero-exit-code", "informational", "--format", "parseable"}
	if len(params) > 0 {
		args = append(append(args, "--parameters"), params...)
	}
	cmd := exec.Command(lint, append(append(args, "--"), files...)...)
	// Away from any .cfnlintrc of the tree.
	cmd.Dir = t.TempDir()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var findings []string
	for _, line := range strings.Split(stdout.String(), "\n") {
		if line != "" {
			findings = append(findings, line)
		}
	}
	if err != nil && len(findings) == 0 || stderr.Len() > 0 {
		t.Fatalf("cfn-lint: %v\n%s%s", err, stdout.Bytes(), stderr.Bytes())
	}
	return findings
}

// TestCloudFormationCfnLint runs AWS's cfn-lint on every template (each
// example's and the end-to-end test's committed file, and the output of
// testdata/cloudformation.yaml: a local index, INCLUDE and KEYS_ONLY
// projections, a ttl, a numeric key, the IAM policy with *, ? and $ in
// its patterns), deployed with the defaults and with every parameter
// set (provisioned, renamed): the templates' grammar, the resources'
// properties against AWS's current schemas, the intrinsic functions,
// references and conditions, the parameters' values, the IAM policy's
// grammar and actions, and its best practices. Any finding fails. A
// broken template must fail it.
func TestCloudFormationCfnLint(t *testing.T) {
	lint := pyCfnLint(t)
	if testing.Short() {
		t.Skip("cfn-lint takes seconds")
	}
	dir := t.TempDir()
	cases := cfnCases(t)
	var files []string
	for i, c := range cases {
		name := filepath.Join(dir, fmt.Sprintf("%d-%s.cfn.yaml", i, filepath.Base(filepath.Dir(c.spec))))
		if err := os.WriteFile(name, c.data, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, name)
	}
	// The control: a DeletionPolicy CloudFormation does not know, and a
	// transaction's API name, which is no IAM action, in the last
	// template.
	bad := bytes.Replace(cases[len(cases)-1].data, []byte("DeletionPolicy: Retain"), []byte("DeletionPolicy: Keep"), 1)
	bad = bytes.Replace(bad, []byte(`"dynamodb:GetItem"`), []byte(`"dynamodb:TransactGetItems"`), 1)
	badFile := filepath.Join(dir, "bad.cfn.yaml")
	if err := os.WriteFile(badFile, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	var control []string
	for _, f := range runCfnLint(t, lint, append(files, badFile), nil) {
		if strings.HasPrefix(f, badFile+":") {
			control = append(control, f)
		} else {
			t.Errorf("cfn-lint, defaults: %s", f)
		}
	}
	for _, want := range []string{":E3035:'Keep'", ":W3037:'transactgetitems'"} {
		if !slices.ContainsFunc(control, func(f string) bool { return strings.Contains(f, want) }) {
			t.Errorf("cfn-lint does not report %s in a broken template:\n%s", want, strings.Join(control, "\n"))
		}
	}
	for i, c := range cases {
		t.Run(c.spec+"/"+deployments[1].name, func(t *testing.T) {
			t.Parallel()
			var params []string
			for _, d := range c.plan.Tables {
				for k, v := range deployments[1].set(d.Table.CloudFormationIDs(), globalIDs(d)) {
					params = append(params, k+"="+v)
				}
			}
			slices.Sort(params)
			for _, f := range runCfnLint(t, lint, files[i:i+1], params) {
				t.Errorf("cfn-lint: %s", f)
			}
		})
	}
}

// TestCIInstallsCfnLint keeps .ci/run's install of cfn-lint and the
// version the test requires one.
func TestCIInstallsCfnLint(t *testing.T) {
	run, err := os.ReadFile("../../.ci/run")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"pip install --quiet cfn-lint==" + pyCfnLintVersion + "; then", "export DYNGEN_CFN_LINT=required"} {
		if !strings.Contains(string(run), want) {
			t.Errorf(".ci/run does not hold %q", want)
		}
	}
}

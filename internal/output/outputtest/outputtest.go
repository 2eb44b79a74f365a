// Package outputtest holds what the tests of several output formats
// share: a spec, the compiling of a JSON Schema of a format, and AWS's
// cfn-lint, which checks the CloudFormation template and the IAM policy
// as a managed policy's document.
package outputtest

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// PyCfnLintVersion is the version of AWS's cfn-lint (Python) that the
// tests run; .ci/run installs it with pip and then sets
// DYNGEN_CFN_LINT=required. (The cfn-lint of npm that the CloudFormation
// output's TestCloudFormationLint runs is another program.)
const PyCfnLintVersion = "1.51.0"

// findPyCfnLint finds cfn-lint PyCfnLintVersion, once per process (it
// takes seconds to start): its path, or why there is none.
var findPyCfnLint = sync.OnceValues(func() (path, why string) {
	path, err := exec.LookPath("cfn-lint")
	if err != nil {
		return "", "cfn-lint is not installed"
	}
	out, err := exec.Command(path, "--version").CombinedOutput()
	if v := strings.TrimSpace(string(out)); err != nil || v != "cfn-lint "+PyCfnLintVersion {
		return "", fmt.Sprintf("%s --version says %q (%v), not cfn-lint %s", path, v, err, PyCfnLintVersion)
	}
	return path, ""
})

// PyCfnLint returns the path of cfn-lint PyCfnLintVersion. Without it,
// the test fails when DYNGEN_CFN_LINT is "required", and is skipped
// otherwise.
func PyCfnLint(t *testing.T) string {
	t.Helper()
	path, why := findPyCfnLint()
	if why != "" {
		msg := why + "; run: pip install cfn-lint==" + PyCfnLintVersion
		if os.Getenv("DYNGEN_CFN_LINT") == "required" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	if testing.Short() {
		t.Skip("cfn-lint takes seconds")
	}
	return path
}

// RunPyCfnLint runs the cfn-lint at path lint (PyCfnLint) with args, in a
// directory of its own (away from any .cfnlintrc of the tree), and
// returns its findings, a line each: with --format parseable, each
// starts with the path of its file. cfn-lint takes seconds to start: a
// test lints all its files in one run. The test fails when cfn-lint
// fails with no finding, or writes to its standard error.
func RunPyCfnLint(t *testing.T, lint string, args ...string) []string {
	t.Helper()
	cmd := exec.Command(lint, args...)
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

// CompileSchema compiles the JSON Schema in file (a format's grammar);
// the compiler also checks it against the draft 2020-12 meta-schema.
func CompileSchema(t *testing.T, file string) *jsonschema.Schema {
	t.Helper()
	sch, err := jsonschema.NewCompiler().Compile(file)
	if err != nil {
		t.Fatalf("compiling %s: %v", file, err)
	}
	return sch
}

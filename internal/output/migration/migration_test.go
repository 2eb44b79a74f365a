package migration_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"

	"github.com/dyngen/dyngen/internal/output/migration"
	"github.com/dyngen/dyngen/internal/output/outputtest"
)

// stacks are the committed stacks of the specs with the migration
// output.
func stacks(t *testing.T) map[string][]byte {
	t.Helper()
	files, err := filepath.Glob("../../../internal/e2e/backfill/" + migration.StackFile)
	if err != nil || len(files) == 0 {
		t.Fatalf("no committed %s (%v)", migration.StackFile, err)
	}
	out := map[string][]byte{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[f] = data
	}
	return out
}

// parse reads a stack's YAML as JSON's values.
func parse(t *testing.T, data []byte) map[string]any {
	t.Helper()
	var v map[string]any
	if err := yaml.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestStackSchema validates each stack against the schema of
// CloudFormation templates goformation generates from AWS's resource
// specification: the properties of its IAM roles, Lambda function and
// state machine, their types, the required ones, no unknown one.
func TestStackSchema(t *testing.T) {
	sch := outputtest.CloudFormationSchema(t, "AWS::IAM::Role", "AWS::Lambda::Function", "AWS::StepFunctions::StateMachine")
	// Deployed with the defaults, and with every parameter set.
	deployments := []map[string]string{{"CodeBucket": "code", "CodeKey": "backfill.zip"}, {"CodeBucket": "code", "CodeKey": "b.zip", "Architecture": "x86_64", "MemorySize": "2048", "ThingsTableName": "things-prod"}}
	validate := func(data []byte, values map[string]string) error {
		text, err := json.Marshal(outputtest.ResolveTemplate(t, outputtest.ParseTemplate(t, data), values))
		if err != nil {
			t.Fatal(err)
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(text))
		if err != nil {
			t.Fatal(err)
		}
		return sch.Validate(doc)
	}
	for file, data := range stacks(t) {
		for _, values := range deployments {
			if err := validate(data, values); err != nil {
				t.Errorf("%s, deployed with %v, does not follow CloudFormation's schema:\n%v", file, values, err)
			}
		}
		// The control: a property no Lambda function has.
		bad := bytes.Replace(data, []byte("      Timeout: 900\n"), []byte("      Timeout: 900\n      Timeouts: 900\n"), 1)
		if validate(bad, deployments[0]) == nil {
			t.Errorf("%s with an unknown property of the function validates", file)
		}
	}
}

// aslValidator is the asl-validator of npm that
// testdata/asl-validator/package.json pins; .ci/run installs it.
const aslValidator = "testdata/asl-validator/node_modules/.bin/asl-validator"

// TestStateMachineASL validates the state machine's definition, as each
// stack holds it, with asl-validator, a published validator of the
// Amazon States Language (its JSON schema of every state type, the
// paths, the ARNs of the Task's resource, the states reached). A broken
// definition must fail it. Without asl-validator the test fails in CI
// and is skipped elsewhere.
func TestStateMachineASL(t *testing.T) {
	if _, err := os.Stat(aslValidator); err != nil {
		msg := "asl-validator is not installed (" + err.Error() + "); run: npm ci --prefix internal/output/migration/testdata/asl-validator"
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	validate := func(def any) (bool, string) {
		t.Helper()
		data, err := json.Marshal(def)
		if err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(t.TempDir(), "definition.json")
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(aslValidator, "--json-path", file).CombinedOutput()
		return err == nil, string(out)
	}
	for file, data := range stacks(t) {
		def := parse(t, data)["Resources"].(map[string]any)["StateMachine"].(map[string]any)["Properties"].(map[string]any)["Definition"]
		if ok, out := validate(def); !ok {
			t.Errorf("%s: the state machine is not valid:\n%s", file, out)
		}
		// The control: a Choice leading to a state that is not there.
		text, _ := json.Marshal(def)
		var bad any
		if err := json.Unmarshal(bytes.Replace(text, []byte(`"Next":"Segment done"`), []byte(`"Next":"Segment gone"`), 1), &bad); err != nil {
			t.Fatal(err)
		}
		if ok, out := validate(bad); ok {
			t.Errorf("%s: a definition with a Choice to no state validates:\n%s", file, out)
		}
	}
}

// TestCIInstallsASLValidator keeps .ci/run's install and the test's path
// one.
func TestCIInstallsASLValidator(t *testing.T) {
	run, err := os.ReadFile("../../../.ci/run")
	if err != nil {
		t.Fatal(err)
	}
	if want := "npm ci --no-audit --no-fund --prefix internal/output/migration/testdata/asl-validator"; !strings.Contains(string(run), want) {
		t.Errorf(".ci/run does not run %q", want)
	}
}

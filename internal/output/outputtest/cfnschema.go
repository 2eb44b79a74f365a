package outputtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Goformation is the module whose schema of CloudFormation templates
// (generated from AWS's CloudFormation resource specification) validates
// the CloudFormation outputs. .ci/run downloads this version into the
// module cache.
const (
	Goformation        = "github.com/awslabs/goformation/v7"
	GoformationVersion = "v7.14.9"
)

// CloudFormationSchema compiles goformation's schema of CloudFormation
// templates, its resources narrowed to types (those a template
// declares) and its quotas brought to today's. The schema comes from the
// module cache (.ci/run downloads it); without it the test fails in CI
// and is skipped elsewhere.
func CloudFormationSchema(t *testing.T, types ...string) *jsonschema.Schema {
	t.Helper()
	path := os.Getenv("DYNGEN_CFN_SCHEMA")
	if path == "" {
		cache, err := exec.Command("go", "env", "GOMODCACHE").Output()
		if err != nil {
			t.Fatalf("go env GOMODCACHE: %v", err)
		}
		path = filepath.Join(strings.TrimSpace(string(cache)), Goformation+"@"+GoformationVersion, "schema", "cloudformation.schema.json")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		msg := fmt.Sprintf("CloudFormation's schema is not installed (%v); run: go mod download %s@%s", err, Goformation, GoformationVersion)
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	var root map[string]any
	if err := json.Unmarshal(data, &root); err != nil {
		t.Fatal(err)
	}
	// The file's $id is the draft's own URL; it is a draft-04 schema.
	delete(root, "$id")
	root["$schema"] = "http://json-schema.org/draft-04/schema#"
	var refs []any
	for _, typ := range types {
		refs = append(refs, map[string]any{"$ref": "#/definitions/" + typ})
	}
	props := root["properties"].(map[string]any)
	props["Resources"].(map[string]any)["patternProperties"] = map[string]any{
		"^[a-zA-Z0-9]+$": map[string]any{"oneOf": refs},
	}
	// goformation's schema takes an object for each of a state machine's
	// DefinitionSubstitutions; CloudFormation's own schema of
	// AWS::StepFunctions::StateMachine (its registry's) takes a string,
	// an integer or a boolean.
	if sm, ok := root["definitions"].(map[string]any)["AWS::StepFunctions::StateMachine"].(map[string]any); ok {
		subs := sm["properties"].(map[string]any)["Properties"].(map[string]any)["properties"].(map[string]any)["DefinitionSubstitutions"].(map[string]any)
		subs["patternProperties"] = map[string]any{"^[a-zA-Z0-9]+$": map[string]any{"type": []any{"string", "integer", "boolean"}}}
		subs["additionalProperties"] = false
	}
	// The schema holds older quotas (50 parameters, 60 outputs);
	// CloudFormation now takes 200 of each.
	props["Parameters"].(map[string]any)["maxProperties"] = 200
	props["Outputs"].(map[string]any)["maxProperties"] = 200
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(string(mustJSON(t, root)))))
	if err != nil {
		t.Fatal(err)
	}
	const id = "file:///cloudformation.schema.json"
	c := jsonschema.NewCompiler()
	if err := c.AddResource(id, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(id)
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

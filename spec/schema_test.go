package spec

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"
)

const (
	schemaID    = "https://github.com/dyngen/dyngen/spec/schema.json"
	schemaDraft = "https://json-schema.org/draft/2020-12/schema"
	// schemaFile is the schema on disk, relative to this package; the
	// `# yaml-language-server: $schema=...` comment of every spec in the
	// repository must lead to it.
	schemaFile = "schema.json"
	// schemaComment starts the comment that tells yaml-language-server
	// which schema a file follows.
	schemaComment = "# yaml-language-server: $schema="
)

// compileSchema compiles the embedded schema; the compiler also checks it
// against the draft 2020-12 meta-schema.
func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(JSONSchema))
	if err != nil {
		t.Fatalf("schema.json is not JSON: %v", err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(schemaID, doc); err != nil {
		t.Fatalf("adding schema.json: %v", err)
	}
	sch, err := c.Compile(schemaID)
	if err != nil {
		t.Fatalf("compiling schema.json: %v", err)
	}
	return sch
}

func TestSchemaCompiles(t *testing.T) {
	compileSchema(t)

	var head struct {
		Schema string `json:"$schema"`
		ID     string `json:"$id"`
	}
	if err := json.Unmarshal(JSONSchema, &head); err != nil {
		t.Fatal(err)
	}
	if head.Schema != schemaDraft {
		t.Errorf("$schema = %q, want %q", head.Schema, schemaDraft)
	}
	if head.ID != schemaID {
		t.Errorf("$id = %q, want %q", head.ID, schemaID)
	}
}

// TestSchemaDocumented checks what editors rely on: every property shows a
// title and a description on hover, and every object schema refuses
// unknown keys with additionalProperties false (a map of user-chosen names
// lists its name pattern under patternProperties).
func TestSchemaDocumented(t *testing.T) {
	var root map[string]any
	if err := json.Unmarshal(JSONSchema, &root); err != nil {
		t.Fatal(err)
	}
	defs, _ := root["$defs"].(map[string]any)

	// annotated reports whether s, or a schema its $ref chain leads to,
	// has the annotation key.
	annotated := func(s map[string]any, key string) bool {
		for range 10 {
			if v, _ := s[key].(string); v != "" {
				return true
			}
			ref, _ := s["$ref"].(string)
			name, ok := strings.CutPrefix(ref, "#/$defs/")
			if !ok {
				return false
			}
			if s, ok = defs[name].(map[string]any); !ok {
				t.Errorf("$ref %q leads nowhere", ref)
				return false
			}
		}
		return false
	}

	objects := 0
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch v := v.(type) {
		case []any:
			for i, e := range v {
				walk(fmt.Sprintf("%s/%d", path, i), e)
			}
		case map[string]any:
			if v["type"] == "object" {
				objects++
				props, _ := v["properties"].(map[string]any)
				if v["additionalProperties"] != false {
					t.Errorf("%s: an object schema without additionalProperties: false accepts unknown keys", path)
				}
				for _, name := range slices.Sorted(maps.Keys(props)) {
					if props[name] == false {
						continue // a key refused outright, such as an index named primary
					}
					p, ok := props[name].(map[string]any)
					if !ok {
						t.Errorf("%s/properties/%s: not a schema object", path, name)
						continue
					}
					for _, key := range []string{"title", "description"} {
						if !annotated(p, key) {
							t.Errorf("%s/properties/%s: no %s", path, name, key)
						}
					}
				}
			}
			for _, k := range slices.Sorted(maps.Keys(v)) {
				walk(path+"/"+k, v[k])
			}
		}
	}
	walk("#", root)
	if objects < 10 {
		t.Errorf("found only %d object schemas; is the walk broken?", objects)
	}
}

// TestSchemaValidSpecs checks that the schema takes every spec of
// testdata/valid (which the whole pipeline takes too: generator's
// TestValidSpecs) and of testdata/schema-only (valid to the schema, and
// refused for now by a later stage, e.g. each, which the plan refuses).
func TestSchemaValidSpecs(t *testing.T) {
	sch := compileSchema(t)
	files := globAll(t, "testdata/valid/*.yaml", "testdata/schema-only/*.yaml")
	if len(files) == 0 {
		t.Fatal("no files in testdata/valid")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			inst := loadYAML(t, file)
			if err := sch.Validate(inst); err != nil {
				t.Errorf("%s: %v", file, err)
			}
		})
	}
}

// TestSchemaExamples validates every spec of the example models. Other
// YAML files there (those without a top-level version key) are not specs.
func TestSchemaExamples(t *testing.T) {
	sch := compileSchema(t)
	files := globAll(t, "../example/*/*.yaml", "../example/*/*.yml")
	if len(files) == 0 {
		t.Skip("no example specs yet")
	}
	for _, file := range files {
		t.Run(strings.TrimPrefix(filepath.ToSlash(file), "../"), func(t *testing.T) {
			inst := loadYAML(t, file)
			if m, ok := inst.(map[string]any); !ok || m["version"] == nil {
				t.Skipf("%s has no version key: not a spec", file)
			}
			if err := sch.Validate(inst); err != nil {
				t.Errorf("%s: %v", file, err)
			}
			if target, ok := schemaTarget(t, file); ok {
				checkSchemaTarget(t, file, target)
			}
		})
	}
}

// TestSchemaInvalidSpecs checks that the schema refuses every file of
// testdata/schema-invalid. Line 2 of each file gives the one reason as
// "# <JSON pointer>: <reason>"; the schema must report an error at that
// pointer ("/" stands for the document itself), so a file refused for
// another reason than the one it documents fails the test.
func TestSchemaInvalidSpecs(t *testing.T) {
	sch := compileSchema(t)
	files := globAll(t, "testdata/schema-invalid/*.yaml")
	if len(files) == 0 {
		t.Fatal("no files in testdata/schema-invalid")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			ptr, reason := invalidReason(t, file)
			inst := loadYAML(t, file)
			err := sch.Validate(inst)
			if err == nil {
				t.Fatalf("%s: the schema accepts it; want it refused: %s", file, reason)
			}
			var ve *jsonschema.ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("%s: %v", file, err)
			}
			if !slices.Contains(errorLocations(ve, nil), ptr) {
				t.Errorf("%s: no error at %q (the reason: %s); errors:\n%v", file, ptr, reason, err)
			}
		})
	}
}

// errorLocations appends the instance location (a JSON pointer) of err and
// of all its causes to locs.
func errorLocations(err *jsonschema.ValidationError, locs []string) []string {
	var ptr strings.Builder
	for _, tok := range err.InstanceLocation {
		ptr.WriteString("/")
		ptr.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(tok))
	}
	locs = append(locs, ptr.String())
	for _, c := range err.Causes {
		locs = errorLocations(c, locs)
	}
	return locs
}

// invalidReason reads line 2 of an invalid spec: "# <pointer>: <reason>".
func invalidReason(t *testing.T, file string) (ptr, reason string) {
	t.Helper()
	lines := readLines(t, file)
	if len(lines) < 2 {
		t.Fatalf("%s: want the reason on line 2", file)
	}
	rest, ok := strings.CutPrefix(lines[1], "# /")
	ptr, reason, ok2 := strings.Cut(rest, ": ")
	if !ok || !ok2 || strings.TrimSpace(reason) == "" {
		t.Fatalf("%s:2: want \"# <JSON pointer>: <reason>\", got %q", file, lines[1])
	}
	if ptr == "" {
		return "", reason // "/": the document
	}
	return "/" + ptr, reason
}

// TestSchemaComment checks that every file under testdata starts with the
// yaml-language-server comment and that its path leads to schema.json, so
// an editor opening the file finds the schema.
func TestSchemaComment(t *testing.T) {
	files := globAll(t, "testdata/valid/*.yaml", "testdata/schema-invalid/*.yaml")
	if len(files) == 0 {
		t.Fatal("no files in testdata")
	}
	for _, file := range files {
		lines := readLines(t, file)
		if len(lines) == 0 || !strings.HasPrefix(lines[0], schemaComment) {
			t.Errorf("%s:1: want %q<path>", file, schemaComment)
			continue
		}
		checkSchemaTarget(t, file, strings.TrimSpace(strings.TrimPrefix(lines[0], schemaComment)))
	}
}

// schemaTarget returns the path of a file's $schema comment, if any.
func schemaTarget(t *testing.T, file string) (string, bool) {
	t.Helper()
	for _, line := range readLines(t, file) {
		if rest, ok := strings.CutPrefix(line, schemaComment); ok {
			return strings.TrimSpace(rest), true
		}
	}
	return "", false
}

// checkSchemaTarget checks that target, relative to file's directory, is
// schema.json.
func checkSchemaTarget(t *testing.T, file, target string) {
	t.Helper()
	want, err := os.Stat(schemaFile)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(filepath.Dir(file), filepath.FromSlash(target))
	got, err := os.Stat(path)
	if err != nil {
		t.Errorf("%s: $schema=%s: %v", file, target, err)
		return
	}
	if !os.SameFile(got, want) {
		t.Errorf("%s: $schema=%s leads to %s, not to spec/%s", file, target, path, schemaFile)
	}
}

func globAll(t *testing.T, patterns ...string) []string {
	t.Helper()
	var files []string
	for _, p := range patterns {
		m, err := filepath.Glob(p)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	slices.Sort(files)
	return files
}

func readLines(t *testing.T, file string) []string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	return lines
}

// loadYAML reads a YAML file into the JSON data model the validator takes.
func loadYAML(t *testing.T, file string) any {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := yaml.Unmarshal(data, &v); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	inst, err := yamlToJSON(v)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return inst
}

// yamlToJSON converts a value decoded by go.yaml.in/yaml/v3 into the JSON
// data model: map[string]any, []any, string, bool, nil and json.Number.
// Scalar mapping keys become their text, as the parser reads them.
func yamlToJSON(v any) (any, error) {
	switch v := v.(type) {
	case nil, string, bool:
		return v, nil
	case int:
		return json.Number(strconv.Itoa(v)), nil
	case int64:
		return json.Number(strconv.FormatInt(v, 10)), nil
	case uint64:
		return json.Number(strconv.FormatUint(v, 10)), nil
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("%v has no JSON form", v)
		}
		return json.Number(strconv.FormatFloat(v, 'g', -1, 64)), nil
	case time.Time:
		return v.Format(time.RFC3339Nano), nil
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			c, err := yamlToJSON(e)
			if err != nil {
				return nil, err
			}
			out[i] = c
		}
		return out, nil
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			c, err := yamlToJSON(e)
			if err != nil {
				return nil, err
			}
			out[k] = c
		}
		return out, nil
	case map[any]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			switch k.(type) {
			case string, bool, int, int64, uint64, float64:
			default:
				return nil, fmt.Errorf("mapping key %v (%T) has no JSON form", k, k)
			}
			c, err := yamlToJSON(e)
			if err != nil {
				return nil, err
			}
			out[fmt.Sprint(k)] = c
		}
		return out, nil
	}
	return nil, fmt.Errorf("value %v (%T) has no JSON form", v, v)
}

func TestSchemaYAMLToJSON(t *testing.T) {
	var v any
	src := "a: 1\nb: [2.5, true, null, x]\n3: {c: 1e3}\nd: 2001-02-03\n"
	if err := yaml.Unmarshal([]byte(src), &v); err != nil {
		t.Fatal(err)
	}
	got, err := yamlToJSON(v)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"a": json.Number("1"),
		"b": []any{json.Number("2.5"), true, nil, "x"},
		"3": map[string]any{"c": json.Number("1000")},
		"d": "2001-02-03T00:00:00Z", // yaml.v3 reads a plain date as a time.Time
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("yamlToJSON(%q) = %#v, want %#v", src, got, want)
	}
	if _, err := yamlToJSON(map[any]any{"k": []int{1}}); err == nil {
		t.Error("yamlToJSON accepted a Go []int")
	}
}

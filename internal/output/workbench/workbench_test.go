package workbench_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/dyngen/dyngen/generator"
	"github.com/dyngen/dyngen/internal/output/outputtest"
)

// wbSchemaFile is the schema of the Workbench model.
const wbSchemaFile = "testdata/workbench.schema.json"

// validateJSON reports whether data, a JSON document, is valid by sch.
func validateJSON(sch *jsonschema.Schema, data []byte) error {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return err
	}
	return sch.Validate(doc)
}

// TestWorkbenchSchemaAcceptsExports checks that the schema is no
// stricter than Workbench: it accepts the models of testdata, in the
// shapes Workbench exports, and every model in the directory
// DYNGEN_WORKBENCH_SAMPLES names when it is set (models exported by
// Workbench, such as those of aws-samples/aws-dynamodb-examples).
func TestWorkbenchSchemaAcceptsExports(t *testing.T) {
	sch := outputtest.CompileSchema(t, wbSchemaFile)
	files, err := filepath.Glob("testdata/workbench-samples/*.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 4 {
		t.Fatalf("found %d sample models", len(files))
	}
	if dir := os.Getenv("DYNGEN_WORKBENCH_SAMPLES"); dir != "" {
		more, err := filepath.Glob(filepath.Join(dir, "*.json"))
		if err != nil || len(more) == 0 {
			t.Fatalf("DYNGEN_WORKBENCH_SAMPLES=%s holds no model (%v)", dir, err)
		}
		files = append(files, more...)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := validateJSON(sch, data); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// wbSpecs are the specs whose generated workbench.json is committed.
var wbSpecs = []string{
	"../../../example/bookreviews/spec.yaml",
	"../../../example/orders/spec.yaml",
	"../../../example/retail/spec.yaml",
	"../../../example/storeinventory/spec.yaml",
	"../../../example/telemetryhub/spec.yaml",
	"../../e2e/spec.yaml",
}

// generateWorkbench generates the spec in data and returns its
// workbench.json.
func generateWorkbench(t *testing.T, file string, data []byte) []byte {
	t.Helper()
	files, diags := generator.Generate(file, "spec.yaml", data)
	if diags.HasErrors() {
		t.Fatalf("%s: %v", file, diags.Err())
	}
	for _, f := range files {
		if f.Name == "workbench.json" {
			return f.Data
		}
	}
	t.Fatalf("%s: no workbench.json generated", file)
	return nil
}

// TestWorkbenchGenerated checks the committed workbench.json of every
// example and of e2e: it is what the spec generates now (so the other
// tests read the current output), the schema accepts it, and it holds
// together as Workbench reads it (checkWorkbenchModel).
func TestWorkbenchGenerated(t *testing.T) {
	sch := outputtest.CompileSchema(t, wbSchemaFile)
	for _, spec := range wbSpecs {
		t.Run(filepath.Base(filepath.Dir(spec)), func(t *testing.T) {
			src, err := os.ReadFile(spec)
			if err != nil {
				t.Fatal(err)
			}
			got := generateWorkbench(t, spec, src)
			committed, err := os.ReadFile(filepath.Join(filepath.Dir(spec), "workbench.json"))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, committed) {
				t.Errorf("the committed workbench.json is not what the spec generates: regenerate it")
			}
			if again := generateWorkbench(t, spec, src); !bytes.Equal(got, again) {
				t.Errorf("two generations differ")
			}
			if err := validateJSON(sch, got); err != nil {
				t.Errorf("the schema refuses it: %v", err)
			}
			checkWorkbenchModel(t, got)
		})
	}
}

// wbModel is what checkWorkbenchModel reads of a model.
type wbModel struct {
	ModelMetadata struct{ Description string }
	DataModel     []struct {
		TableName     string
		KeyAttributes struct {
			PartitionKey wbAttr
			SortKey      *wbAttr
		}
		NonKeyAttributes       []wbAttr
		GlobalSecondaryIndexes []struct {
			IndexName     string
			KeyAttributes struct {
				PartitionKey wbAttr
				SortKey      *wbAttr
			}
			Projection struct{ NonKeyAttributes []string }
		}
		TableFacets []struct {
			FacetName         string
			KeyAttributeAlias struct{ PartitionKeyAlias, SortKeyAlias string }
			NonKeyAttributes  []string
			TableData         []map[string]map[string]json.RawMessage
		}
	}
}

type wbAttr struct{ AttributeName, AttributeType string }

// checkWorkbenchModel checks what the schema can't: every attribute a
// facet, an index or an item names is an attribute of its table, of the
// type the table says (an item's key attributes of the key's type), the
// facet names are unique, and a facet has a sort key alias exactly when
// its table has a sort key.
func checkWorkbenchModel(t *testing.T, data []byte) {
	t.Helper()
	var m wbModel
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	facets := map[string]bool{}
	for _, tb := range m.DataModel {
		types := map[string]string{tb.KeyAttributes.PartitionKey.AttributeName: tb.KeyAttributes.PartitionKey.AttributeType}
		keys := map[string]bool{tb.KeyAttributes.PartitionKey.AttributeName: true}
		if sk := tb.KeyAttributes.SortKey; sk != nil {
			types[sk.AttributeName] = sk.AttributeType
			keys[sk.AttributeName] = true
		}
		for _, a := range tb.NonKeyAttributes {
			if _, dup := types[a.AttributeName]; dup {
				t.Errorf("table %s lists %s twice", tb.TableName, a.AttributeName)
			}
			types[a.AttributeName] = a.AttributeType
		}
		for _, ix := range tb.GlobalSecondaryIndexes {
			for _, k := range []*wbAttr{&ix.KeyAttributes.PartitionKey, ix.KeyAttributes.SortKey} {
				if k != nil && types[k.AttributeName] != k.AttributeType {
					t.Errorf("index %s: key %s is %s, the table says %q", ix.IndexName, k.AttributeName, k.AttributeType, types[k.AttributeName])
				}
			}
			for _, n := range ix.Projection.NonKeyAttributes {
				if _, ok := types[n]; !ok {
					t.Errorf("index %s projects %s, no attribute of table %s", ix.IndexName, n, tb.TableName)
				}
			}
		}
		itemTypes := map[string]map[string]bool{}
		for _, f := range tb.TableFacets {
			if facets[f.FacetName] {
				t.Errorf("two facets are named %s", f.FacetName)
			}
			facets[f.FacetName] = true
			if (f.KeyAttributeAlias.SortKeyAlias != "") != (tb.KeyAttributes.SortKey != nil) {
				t.Errorf("facet %s: sort key alias %q for a table with sort key %v", f.FacetName, f.KeyAttributeAlias.SortKeyAlias, tb.KeyAttributes.SortKey)
			}
			holds := map[string]bool{}
			for _, n := range f.NonKeyAttributes {
				if _, ok := types[n]; !ok || keys[n] {
					t.Errorf("facet %s: %s is no non-key attribute of table %s", f.FacetName, n, tb.TableName)
				}
				holds[n] = true
			}
			for i, item := range f.TableData {
				for k := range keys {
					if item[k] == nil {
						t.Errorf("facet %s, item %d: no key attribute %s", f.FacetName, i, k)
					}
				}
				for n, v := range item {
					if !keys[n] && !holds[n] {
						t.Errorf("facet %s, item %d: %s is not among the facet's attributes", f.FacetName, i, n)
					}
					for typ := range v {
						if keys[n] && types[n] != typ {
							t.Errorf("facet %s, item %d: key %s is %s, the table says %q", f.FacetName, i, n, typ, types[n])
						}
						if itemTypes[n] == nil {
							itemTypes[n] = map[string]bool{}
						}
						itemTypes[n][typ] = true
					}
				}
			}
		}
		// An attribute two entities store with two types has the type
		// of one of them.
		for n, typs := range itemTypes {
			if !typs[types[n]] {
				t.Errorf("table %s: %s is %s, its items hold %v", tb.TableName, n, types[n], typs)
			}
		}
	}
}

// TestWorkbenchSchemaRejects checks that the schema can fail: broken
// copies of a generated model are refused.
func TestWorkbenchSchemaRejects(t *testing.T) {
	sch := outputtest.CompileSchema(t, wbSchemaFile)
	good, err := os.ReadFile("../../../example/bookreviews/workbench.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := validateJSON(sch, good); err != nil {
		t.Fatalf("the model itself is refused: %v", err)
	}
	table := func(m map[string]any) map[string]any { return m["DataModel"].([]any)[0].(map[string]any) }
	facet := func(m map[string]any) map[string]any { return table(m)["TableFacets"].([]any)[0].(map[string]any) }
	item := func(m map[string]any) map[string]any {
		return facet(m)["TableData"].([]any)[0].(map[string]any)
	}
	cases := []struct {
		name   string
		mutate func(m map[string]any)
	}{
		{"no KeyAttributes", func(m map[string]any) { delete(table(m), "KeyAttributes") }},
		{"no partition key", func(m map[string]any) { delete(table(m)["KeyAttributes"].(map[string]any), "PartitionKey") }},
		{"a key of type BOOL", func(m map[string]any) {
			table(m)["KeyAttributes"].(map[string]any)["PartitionKey"].(map[string]any)["AttributeType"] = "BOOL"
		}},
		{"an attribute of type STRING", func(m map[string]any) {
			table(m)["NonKeyAttributes"].([]any)[0].(map[string]any)["AttributeType"] = "STRING"
		}},
		{"version 2.0", func(m map[string]any) { m["ModelMetadata"].(map[string]any)["Version"] = "2.0" }},
		{"a date as RFC 3339", func(m map[string]any) { m["ModelMetadata"].(map[string]any)["DateCreated"] = "2025-01-01T00:00:00Z" }},
		{"no DataModel", func(m map[string]any) { delete(m, "DataModel") }},
		{"a misspelled key", func(m map[string]any) { table(m)["TableFacet"] = table(m)["TableFacets"] }},
		{"a facet without a name", func(m map[string]any) { delete(facet(m), "FacetName") }},
		{"a plain value in an item", func(m map[string]any) { item(m)["PK"] = "BOOK#isbn1" }},
		{"a value of two types", func(m map[string]any) { item(m)["PK"] = map[string]any{"S": "a", "N": "1"} }},
		{"an unknown value type", func(m map[string]any) { item(m)["PK"] = map[string]any{"STRING": "a"} }},
		{"a number that is no number", func(m map[string]any) { item(m)["ReviewCount"] = map[string]any{"N": "one"} }},
		{"a number as a JSON number", func(m map[string]any) { item(m)["ReviewCount"] = map[string]any{"N": 1} }},
		{"provisioned without capacity", func(m map[string]any) { table(m)["BillingMode"] = "PROVISIONED" }},
		{"an unknown billing mode", func(m map[string]any) { table(m)["BillingMode"] = "ON_DEMAND" }},
		{"INCLUDE without attributes", func(m map[string]any) {
			table(m)["GlobalSecondaryIndexes"].([]any)[0].(map[string]any)["Projection"] = map[string]any{"ProjectionType": "INCLUDE"}
		}},
	}
	for _, c := range cases {
		var m map[string]any
		if err := json.Unmarshal(good, &m); err != nil {
			t.Fatal(err)
		}
		c.mutate(m)
		data, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		if err := validateJSON(sch, data); err == nil {
			t.Errorf("%s: accepted", c.name)
		}
	}
}

// hostile holds what could end a JSON string, a script or a line, or
// read as a reference or a tag in the tools around the model.
const hostile = "a\"b\\c\n</script><!-- --> ${x} !Ref y | 'q' \u2028\u2029 \u202etxt.exe"

// TestWorkbenchHostile checks that spec strings stay strings: a hostile
// package doc and enum value reach the model as the same text, and the
// model keeps its structure (the schema accepts it).
func TestWorkbenchHostile(t *testing.T) {
	q, err := json.Marshal(hostile)
	if err != nil {
		t.Fatal(err)
	}
	spec := []byte(`version: 1
package: p
doc: ` + string(q) + `
tables:
  Notes: {partitionKey: PK, sortKey: SK}
entities:
  Note:
    attributes:
      id: string
      kind: {type: enum, values: [` + string(q) + `, plain]}
    keys: {primary: {pk: "NOTE#{id}", sk: "NOTE"}}
patterns:
  GetNote: {get: Note}
outputs:
  workbench:
`)
	data := generateWorkbench(t, "spec.yaml", spec)
	if err := validateJSON(outputtest.CompileSchema(t, wbSchemaFile), data); err != nil {
		t.Fatalf("the schema refuses it: %v\n%s", err, data)
	}
	for _, bad := range []string{"\n</script>", "\u2028", "\u202e"} {
		if bytes.Contains(data, []byte(bad)) {
			t.Errorf("the model holds %q as it is", bad)
		}
	}
	var m wbModel
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	if m.ModelMetadata.Description != hostile {
		t.Errorf("Description = %q, want %q", m.ModelMetadata.Description, hostile)
	}
	if len(m.DataModel) != 1 || len(m.DataModel[0].TableFacets) != 1 {
		t.Fatalf("the model's structure changed: %s", data)
	}
	var kind string
	if err := json.Unmarshal(m.DataModel[0].TableFacets[0].TableData[0]["kind"]["S"], &kind); err != nil || kind != hostile {
		t.Errorf("the sample kind is %q (%v), want %q", kind, err, hostile)
	}
	if !strings.HasSuffix(string(data), "}\n") {
		t.Errorf("the model does not end with a line break")
	}
}

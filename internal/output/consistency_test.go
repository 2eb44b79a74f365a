package output_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/dyngen/dyngen/generator"
	"go.yaml.in/yaml/v3"
)

// The committed outputs that describe tables: the CloudFormation
// template, the Terraform configuration and the create-table inputs.
// TestOutputsAgree reads each as its tool would and compares the tables
// they describe with each other, so that a drift of one format from the
// others fails, whatever the plan says.

// sameTable is a table as one output describes it, in a form every
// format reads into: its physical name (the default), attribute
// definitions, key schema, indexes and time to live.
type sameTable struct {
	Name       string
	Attributes map[string]string // name -> S, N or B
	Key        []string          // "name HASH", "name RANGE"
	Global     map[string]sameIndex
	Local      map[string]sameIndex
	TTL        string // the attribute; "" with none
}

// sameIndex is a secondary index: its key schema and projection, the
// non-key attributes sorted.
type sameIndex struct {
	Key        []string
	Projection string
	NonKey     []string
}

// keyElems reads a key schema.
func keyElems(names, types []string) []string {
	var out []string
	for i := range names {
		out = append(out, names[i]+" "+types[i])
	}
	return out
}

// sortedOrNil sorts a copy of ss; nil when empty.
func sortedOrNil(ss []string) []string {
	if len(ss) == 0 {
		return nil
	}
	ss = slices.Clone(ss)
	slices.Sort(ss)
	return ss
}

// Key schema and projection as CloudFormation and create-table write
// them (the same property names).
type (
	awsKey struct {
		AttributeName string `yaml:"AttributeName"`
		KeyType       string `yaml:"KeyType"`
	}
	awsIndex struct {
		IndexName  string   `yaml:"IndexName"`
		KeySchema  []awsKey `yaml:"KeySchema"`
		Projection struct {
			ProjectionType   string   `yaml:"ProjectionType"`
			NonKeyAttributes []string `yaml:"NonKeyAttributes"`
		} `yaml:"Projection"`
	}
	awsAttr struct {
		AttributeName string `yaml:"AttributeName"`
		AttributeType string `yaml:"AttributeType"`
	}
)

func (k awsKey) String() string { return k.AttributeName + " " + k.KeyType }

// awsTable fills t from what CloudFormation and create-table share.
func awsTable(t *sameTable, attrs []awsAttr, key []awsKey, global, local []awsIndex) error {
	t.Attributes = map[string]string{}
	for _, a := range attrs {
		if _, dup := t.Attributes[a.AttributeName]; dup {
			return fmt.Errorf("attribute %s defined twice", a.AttributeName)
		}
		t.Attributes[a.AttributeName] = a.AttributeType
	}
	for _, k := range key {
		t.Key = append(t.Key, k.String())
	}
	index := func(ixs []awsIndex) map[string]sameIndex {
		out := map[string]sameIndex{}
		for _, ix := range ixs {
			s := sameIndex{Projection: ix.Projection.ProjectionType, NonKey: sortedOrNil(ix.Projection.NonKeyAttributes)}
			for _, k := range ix.KeySchema {
				s.Key = append(s.Key, k.String())
			}
			out[ix.IndexName] = s
		}
		return out
	}
	t.Global, t.Local = index(global), index(local)
	return nil
}

// cfnTables reads a CloudFormation template's tables, each named by
// its TableName parameter's default.
func cfnTables(data []byte) (map[string]sameTable, error) {
	var tmpl struct {
		Parameters map[string]struct {
			Default string `yaml:"Default"`
		} `yaml:"Parameters"`
		Resources map[string]struct {
			Type       string    `yaml:"Type"`
			Properties yaml.Node `yaml:"Properties"`
		} `yaml:"Resources"`
	}
	if err := yaml.Unmarshal(data, &tmpl); err != nil {
		return nil, err
	}
	out := map[string]sameTable{}
	for id, r := range tmpl.Resources {
		if r.Type != "AWS::DynamoDB::Table" {
			continue
		}
		var props struct {
			TableName struct {
				Ref string `yaml:"Ref"`
			} `yaml:"TableName"`
			AttributeDefinitions    []awsAttr  `yaml:"AttributeDefinitions"`
			KeySchema               []awsKey   `yaml:"KeySchema"`
			GlobalSecondaryIndexes  []awsIndex `yaml:"GlobalSecondaryIndexes"`
			LocalSecondaryIndexes   []awsIndex `yaml:"LocalSecondaryIndexes"`
			TimeToLiveSpecification *struct {
				AttributeName string `yaml:"AttributeName"`
				Enabled       bool   `yaml:"Enabled"`
			} `yaml:"TimeToLiveSpecification"`
		}
		if err := r.Properties.Decode(&props); err != nil {
			return nil, fmt.Errorf("%s: %v", id, err)
		}
		p, ok := tmpl.Parameters[props.TableName.Ref]
		if !ok {
			return nil, fmt.Errorf("%s: TableName is no parameter's Ref", id)
		}
		t := sameTable{Name: p.Default}
		if err := awsTable(&t, props.AttributeDefinitions, props.KeySchema, props.GlobalSecondaryIndexes, props.LocalSecondaryIndexes); err != nil {
			return nil, fmt.Errorf("%s: %v", id, err)
		}
		if s := props.TimeToLiveSpecification; s != nil {
			if !s.Enabled {
				return nil, fmt.Errorf("%s: time to live not enabled", id)
			}
			t.TTL = s.AttributeName
		}
		out[t.Name] = t
	}
	return out, nil
}

// tfTables reads a Terraform JSON configuration's aws_dynamodb_table
// resources, each named by its name variable's default, every spec
// string read back from Terraform's template syntax ($${ and %%{).
func tfTables(data []byte) (map[string]sameTable, error) {
	unescape := strings.NewReplacer("$${", "${", "%%{", "%{").Replace
	type keyBlock struct {
		AttributeName string `json:"attribute_name"`
		KeyType       string `json:"key_type"`
	}
	var conf struct {
		Variable map[string]struct {
			Default any `json:"default"`
		} `json:"variable"`
		Resource struct {
			Tables map[string]struct {
				Name      string `json:"name"`
				HashKey   string `json:"hash_key"`
				RangeKey  string `json:"range_key"`
				Attribute []struct {
					Name string `json:"name"`
					Type string `json:"type"`
				} `json:"attribute"`
				GSI []struct {
					Name       string     `json:"name"`
					KeySchema  []keyBlock `json:"key_schema"`
					Projection string     `json:"projection_type"`
					NonKey     []string   `json:"non_key_attributes"`
				} `json:"global_secondary_index"`
				LSI []struct {
					Name       string   `json:"name"`
					RangeKey   string   `json:"range_key"`
					Projection string   `json:"projection_type"`
					NonKey     []string `json:"non_key_attributes"`
				} `json:"local_secondary_index"`
				TTL []struct {
					AttributeName string `json:"attribute_name"`
					Enabled       bool   `json:"enabled"`
				} `json:"ttl"`
			} `json:"aws_dynamodb_table"`
		} `json:"resource"`
	}
	dec := json.NewDecoder(strings.NewReader(string(data)))
	if err := dec.Decode(&conf); err != nil {
		return nil, err
	}
	all := func(ss []string) []string {
		var out []string
		for _, s := range ss {
			out = append(out, unescape(s))
		}
		return sortedOrNil(out)
	}
	out := map[string]sameTable{}
	for res, r := range conf.Resource.Tables {
		v, ok := strings.CutPrefix(r.Name, "${var.")
		v, ok2 := strings.CutSuffix(v, "}")
		def, ok3 := conf.Variable[v].Default.(string)
		if !ok || !ok2 || !ok3 {
			return nil, fmt.Errorf("%s: name %q is not a variable with a default", res, r.Name)
		}
		t := sameTable{Name: def, Attributes: map[string]string{}, Global: map[string]sameIndex{}, Local: map[string]sameIndex{}}
		for _, a := range r.Attribute {
			if _, dup := t.Attributes[unescape(a.Name)]; dup {
				return nil, fmt.Errorf("%s: attribute %s defined twice", res, a.Name)
			}
			t.Attributes[unescape(a.Name)] = a.Type
		}
		t.Key = []string{unescape(r.HashKey) + " HASH"}
		if r.RangeKey != "" {
			t.Key = append(t.Key, unescape(r.RangeKey)+" RANGE")
		}
		for _, g := range r.GSI {
			ix := sameIndex{Projection: g.Projection, NonKey: all(g.NonKey)}
			for _, k := range g.KeySchema {
				ix.Key = append(ix.Key, unescape(k.AttributeName)+" "+k.KeyType)
			}
			t.Global[unescape(g.Name)] = ix
		}
		for _, l := range r.LSI {
			t.Local[unescape(l.Name)] = sameIndex{Key: []string{t.Key[0], unescape(l.RangeKey) + " RANGE"}, Projection: l.Projection, NonKey: all(l.NonKey)}
		}
		switch len(r.TTL) {
		case 0:
		case 1:
			if !r.TTL[0].Enabled {
				return nil, fmt.Errorf("%s: time to live not enabled", res)
			}
			t.TTL = unescape(r.TTL[0].AttributeName)
		default:
			return nil, fmt.Errorf("%s: %d ttl blocks", res, len(r.TTL))
		}
		out[t.Name] = t
	}
	return out, nil
}

// createTables reads the create-table inputs of dir (and the
// update-time-to-live input of a table with a ttl).
func createTables(dir string) (map[string]sameTable, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.create-table.json"))
	if err != nil {
		return nil, err
	}
	out := map[string]sameTable{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var in struct {
			TableName              string
			AttributeDefinitions   []awsAttr
			KeySchema              []awsKey
			GlobalSecondaryIndexes []awsIndex
			LocalSecondaryIndexes  []awsIndex
		}
		if err := json.Unmarshal(data, &in); err != nil {
			return nil, fmt.Errorf("%s: %v", f, err)
		}
		t := sameTable{Name: in.TableName}
		if err := awsTable(&t, in.AttributeDefinitions, in.KeySchema, in.GlobalSecondaryIndexes, in.LocalSecondaryIndexes); err != nil {
			return nil, fmt.Errorf("%s: %v", f, err)
		}
		ttlFile := strings.TrimSuffix(f, ".create-table.json") + ".update-time-to-live.json"
		if data, err := os.ReadFile(ttlFile); err == nil {
			var ttl struct {
				TableName               string
				TimeToLiveSpecification struct {
					Enabled       bool
					AttributeName string
				}
			}
			if err := json.Unmarshal(data, &ttl); err != nil {
				return nil, fmt.Errorf("%s: %v", ttlFile, err)
			}
			if ttl.TableName != t.Name || !ttl.TimeToLiveSpecification.Enabled {
				return nil, fmt.Errorf("%s: table %q, enabled %v", ttlFile, ttl.TableName, ttl.TimeToLiveSpecification.Enabled)
			}
			t.TTL = ttl.TimeToLiveSpecification.AttributeName
		} else if !os.IsNotExist(err) {
			return nil, err
		}
		out[t.Name] = t
	}
	return out, nil
}

// TestOutputsAgree checks that, in every example and in internal/e2e,
// the committed tables.cfn.yaml, tables.tf.json and create-table
// inputs describe the same tables: attributes and their types, key
// schema, global and local secondary indexes with their keys and
// projections, time to live. So do the three outputs of the
// CloudFormation output's test spec (an INCLUDE projection, which no
// example has), generated here.
func TestOutputsAgree(t *testing.T) {
	dirs, err := filepath.Glob("../../example/*/tables.cfn.yaml")
	if err != nil {
		t.Fatal(err)
	}
	dirs = append(dirs, "../e2e/tables.cfn.yaml")
	if len(dirs) < 2 {
		t.Fatalf("found only %v", dirs)
	}
	for _, f := range dirs {
		dir := filepath.Dir(f)
		t.Run(filepath.Base(dir), func(t *testing.T) { outputsAgree(t, dir) })
	}
	t.Run("testdata/cloudformation.yaml", func(t *testing.T) {
		src, err := os.ReadFile("cloudformation/testdata/cloudformation.yaml")
		if err != nil {
			t.Fatal(err)
		}
		src = append(src, "  terraform:\n  createTable:\n"...)
		files, diags := generator.Generate("spec.yaml", "spec.yaml", src)
		if diags.HasErrors() {
			t.Fatal(diags.Err())
		}
		dir := t.TempDir()
		for _, f := range files {
			if err := os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		outputsAgree(t, dir)
	})
}

// outputsAgree compares the tables of the outputs in dir.
func outputsAgree(t *testing.T, dir string) {
	t.Helper()
	cfnData, err := os.ReadFile(filepath.Join(dir, "tables.cfn.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	tfData, err := os.ReadFile(filepath.Join(dir, "tables.tf.json"))
	if err != nil {
		t.Fatal(err)
	}
	cfn, err := cfnTables(cfnData)
	if err != nil {
		t.Fatalf("tables.cfn.yaml: %v", err)
	}
	tf, err := tfTables(tfData)
	if err != nil {
		t.Fatalf("tables.tf.json: %v", err)
	}
	ct, err := createTables(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(ct) == 0 {
		t.Fatal("no create-table input")
	}
	formats := []struct {
		name   string
		tables map[string]sameTable
	}{{"tables.cfn.yaml", cfn}, {"tables.tf.json", tf}, {"the create-table inputs", ct}}
	for _, a := range formats[1:] {
		b := formats[0]
		if !reflect.DeepEqual(a.tables, b.tables) {
			t.Errorf("%s and %s differ:\n%s: %+v\n%s: %+v", b.name, a.name, b.name, b.tables, a.name, a.tables)
		}
	}
	// Attributes are exactly the key attributes, each with a type.
	for name, tab := range ct {
		var keys []string
		for _, k := range tab.Key {
			keys = append(keys, strings.Fields(k)[0])
		}
		for _, ixs := range []map[string]sameIndex{tab.Global, tab.Local} {
			for _, ix := range ixs {
				for _, k := range ix.Key {
					keys = append(keys, strings.Fields(k)[0])
				}
			}
		}
		for _, k := range keys {
			if tab.Attributes[k] == "" {
				t.Errorf("table %s: key attribute %s has no definition", name, k)
			}
		}
		if len(tab.Attributes) != len(slices.Compact(sortedOrNil(keys))) {
			t.Errorf("table %s: attributes %v are not the key attributes %v", name, tab.Attributes, keys)
		}
	}
}

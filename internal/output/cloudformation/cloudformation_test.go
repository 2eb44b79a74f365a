package cloudformation

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/output/format"
	"github.com/dyngen/dyngen/internal/output/iam"
	"github.com/dyngen/dyngen/internal/plan"
	"go.yaml.in/yaml/v3"
)

// hostile are strings that would change a YAML file's structure, or
// what a reader sees, if written as they are.
var hostile = []string{
	"plain",
	"a\nb: c",
	"x\r\n- y",
	"-->",
	"</script>",
	"a|b",
	"it's",
	`say "hi"`,
	`back\slash`,
	"${AWS::StackName}",
	"!Ref Other",
	"&anchor *alias",
	"# comment",
	"key: value",
	"{Ref: X}",
	"line\u2028sep\u2029para",
	"bidi\u202eevil\u202c\u2066x\u2069",
	"nul\x00bell\x07del\x7f",
	"tab\tend ",
	"emoji \U0001F600 é",
	"\ufeffbom",
	"",
}

// TestYAMLStringInert checks that every hostile string is written as one
// printable ASCII double-quoted scalar that YAML reads back as it was.
func TestYAMLStringInert(t *testing.T) {
	for _, s := range hostile {
		q := format.YAMLString(s)
		if !strings.HasPrefix(q, `"`) || !strings.HasSuffix(q, `"`) || len(q) < 2 {
			t.Errorf("format.YAMLString(%q) = %s: not a double-quoted scalar", s, q)
		}
		for _, r := range q {
			if r < 0x20 || r >= 0x7f {
				t.Errorf("format.YAMLString(%q) = %s holds %U", s, q, r)
			}
		}
		var got map[string]string
		if err := yaml.Unmarshal([]byte("k: "+q+"\n"), &got); err != nil {
			t.Errorf("format.YAMLString(%q) = %s: %v", s, q, err)
			continue
		}
		if got["k"] != s || len(got) != 1 {
			t.Errorf("format.YAMLString(%q) = %s reads back as %q", s, q, got)
		}
	}
}

// hostilePlan is the plan of one table whose names are s (the model
// refuses most of these; the output must be inert whatever reaches it).
func hostilePlan(s string) *plan.Plan {
	t := &model.Table{Name: s, GoName: "Hostile", TTL: s + "ttl"}
	t.PK = &model.KeyAttr{Name: s + "pk", Type: "S"}
	t.SK = &model.KeyAttr{Name: s + "sk", Type: "N"}
	primary := &model.Index{Name: model.PrimaryName, GoName: "Primary", Table: t, Kind: model.Primary, PK: t.PK, SK: t.SK}
	global := &model.Index{Name: s + "gsi", GoName: "ByX", Table: t, Kind: model.Global,
		PK: &model.KeyAttr{Name: s + "gpk", Type: "S"}, Projection: model.ProjectInclude, Include: []string{s + "inc"}}
	local := &model.Index{Name: s + "lsi", GoName: "ByY", Table: t, Kind: model.Local,
		PK: t.PK, SK: &model.KeyAttr{Name: s + "lsk", Type: "S"}}
	t.Indexes = []*model.Index{primary, global, local}
	m := &model.Model{Tables: []*model.Table{t}}
	return &plan.Plan{Model: m, Tables: []*plan.TableDef{{
		Table: t, Key: primary, Global: []*model.Index{global}, Local: []*model.Index{local}, TTL: t.TTL,
		Attributes: []*model.KeyAttr{t.PK, t.SK, global.PK, local.SK},
	}}}
}

// TestCloudFormationHostile renders a table named by each hostile string
// from a spec of a hostile path: the file has the lines of the plain
// one, and YAML reads every name back as it was, where it was.
func TestCloudFormationHostile(t *testing.T) {
	render := func(s string) []byte {
		files, err := Render(hostilePlan(s), &model.Output{Kind: format.CloudFormation, File: "tables.cfn.yaml"}, format.NewSource(s+"spec.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		return files[0].Data
	}
	plain := render("plain")
	for _, s := range hostile {
		data := render(s)
		if got, want := bytes.Count(data, []byte("\n")), bytes.Count(plain, []byte("\n")); got != want {
			t.Errorf("%q: %d lines, the plain template has %d", s, got, want)
		}
		var tmpl struct {
			Parameters map[string]struct {
				Default string `yaml:"Default"`
			} `yaml:"Parameters"`
			Resources map[string]struct {
				Type       string `yaml:"Type"`
				Properties struct {
					AttributeDefinitions []struct {
						AttributeName string `yaml:"AttributeName"`
					} `yaml:"AttributeDefinitions"`
					KeySchema []struct {
						AttributeName string `yaml:"AttributeName"`
					} `yaml:"KeySchema"`
					GlobalSecondaryIndexes []struct {
						IndexName string `yaml:"IndexName"`
						KeySchema []struct {
							AttributeName string `yaml:"AttributeName"`
						} `yaml:"KeySchema"`
						Projection struct {
							NonKeyAttributes []string `yaml:"NonKeyAttributes"`
						} `yaml:"Projection"`
					} `yaml:"GlobalSecondaryIndexes"`
					LocalSecondaryIndexes []struct {
						IndexName string `yaml:"IndexName"`
						KeySchema []struct {
							AttributeName string `yaml:"AttributeName"`
						} `yaml:"KeySchema"`
					} `yaml:"LocalSecondaryIndexes"`
					TimeToLiveSpecification struct {
						AttributeName string `yaml:"AttributeName"`
					} `yaml:"TimeToLiveSpecification"`
				} `yaml:"Properties"`
			} `yaml:"Resources"`
		}
		if err := yaml.Unmarshal(data, &tmpl); err != nil {
			t.Errorf("%q: %v\n%s", s, err, data)
			continue
		}
		r, ok := tmpl.Resources["HostileTable"]
		if len(tmpl.Resources) != 1 || !ok || r.Type != "AWS::DynamoDB::Table" {
			t.Errorf("%q: resources %v", s, tmpl.Resources)
			continue
		}
		pr := r.Properties
		got := []string{tmpl.Parameters["HostileTableName"].Default}
		for _, a := range pr.AttributeDefinitions {
			got = append(got, a.AttributeName)
		}
		for _, k := range pr.KeySchema {
			got = append(got, k.AttributeName)
		}
		for _, ix := range pr.GlobalSecondaryIndexes {
			got = append(got, ix.IndexName, ix.KeySchema[0].AttributeName)
			got = append(got, ix.Projection.NonKeyAttributes...)
		}
		for _, ix := range pr.LocalSecondaryIndexes {
			got = append(got, ix.IndexName, ix.KeySchema[1].AttributeName)
		}
		got = append(got, pr.TimeToLiveSpecification.AttributeName)
		want := []string{s, s + "pk", s + "sk", s + "gpk", s + "lsk", s + "pk", s + "sk", s + "gsi", s + "gpk", s + "inc", s + "lsi", s + "lsk", s + "ttl"}
		if strings.Join(got, "\x00") != strings.Join(want, "\x00") {
			t.Errorf("%q: the names read back are\n%q, want\n%q", s, got, want)
		}
	}
}

// TestCloudFormationDeterministic renders one plan twice.
func TestCloudFormationDeterministic(t *testing.T) {
	o := &model.Output{Kind: format.CloudFormation, File: "tables.cfn.yaml"}
	a, err := Render(hostilePlan("x"), o, format.NewSource("spec.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := Render(hostilePlan("x"), o, format.NewSource("spec.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a[0].Data, b[0].Data) {
		t.Error("two renderings of one plan differ")
	}
	if !bytes.HasPrefix(a[0].Data, []byte("# "+model.GeneratedText+"\n# source: spec.yaml\n")) {
		t.Errorf("the template does not start with the generated-code header:\n%s", a[0].Data)
	}
}

// TestYAMLJSONInert checks that a document of hostile strings, as the
// template holds the IAM policy, is printable ASCII that YAML reads back
// as JSON does, indented as the template indents it.
func TestYAMLJSONInert(t *testing.T) {
	doc := map[string]any{"Statement": []any{map[string]any{"Sid": "A", "Keys": hostile}}}
	lines, err := format.YAMLJSON(doc)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("Resources:\n  P:\n    PolicyDocument:\n")
	for _, l := range lines {
		for _, r := range l {
			if r < 0x20 || r >= 0x7f {
				t.Errorf("line %q holds %U", l, r)
			}
		}
		b.WriteString("        " + l + "\n")
	}
	b.WriteString("    Other: x\n")
	var got struct {
		Resources map[string]map[string]any `yaml:"Resources"`
	}
	if err := yaml.Unmarshal([]byte(b.String()), &got); err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	want, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	if g, err := json.Marshal(got.Resources["P"]["PolicyDocument"]); err != nil || !bytes.Equal(g, want) {
		t.Errorf("YAML reads\n%s\nwant\n%s", g, want)
	}
	if got.Resources["P"]["Other"] != "x" || len(got.Resources["P"]) != 2 {
		t.Errorf("the document changed what follows it: %v", got.Resources["P"])
	}
}

// TestCFARN checks the ARNs of the template's policy: the table's Arn
// attribute, and Fn::Sub of it for an index, whose name must hold
// nothing Fn::Sub reads.
func TestCFARN(t *testing.T) {
	p := hostilePlan("x")
	d := p.Tables[0]
	got, err := cfARN(&iam.Grant{Index: d.Key})
	if want := (cfGetAtt{[2]string{"HostileTable", "Arn"}}); err != nil || got != want {
		t.Errorf("table: %v, %v; want %v", got, err, want)
	}
	ix := d.Global[0]
	ix.Name = "By.Name-1_x"
	got, err = cfARN(&iam.Grant{Index: ix})
	if want := (cfSub{"${HostileTable.Arn}/index/By.Name-1_x"}); err != nil || got != want {
		t.Errorf("index: %v, %v; want %v", got, err, want)
	}
	for _, name := range []string{"x${AWS::Region}", "x$", "x}", "a b", "é"} {
		ix.Name = name
		if got, err := cfARN(&iam.Grant{Index: ix}); err == nil {
			t.Errorf("index %q: %v, want an error", name, got)
		}
	}
}

package output

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/plan"
)

// TerraformAWSProvider is the version constraint of the AWS provider the
// Terraform output is written for: the syntax of aws_dynamodb_table from
// 6.29.0 on (a global secondary index's keys in key_schema blocks, its
// hash_key and range_key deprecated), from the release that has the
// fixes of that syntax (a perpetual diff on an index with a sort key;
// removing one index removed and re-created the others).
const TerraformAWSProvider = ">= 6.37.0, < 7.0.0"

// The Terraform JSON output (https://developer.hashicorp.com/terraform/
// language/syntax/json), as structs whose fields are in the order the
// file shows them. A string Terraform reads as an expression is a
// template: every spec string written as one goes through tfString; a
// variable's default and description are literal values.
type (
	tfFile struct {
		Comment   string      `json:"//"`
		Terraform tfSettings  `json:"terraform"`
		Variable  tfObject    `json:"variable"`
		Resource  tfResources `json:"resource"`
		Output    tfObject    `json:"output"`
	}
	tfSettings struct {
		RequiredProviders map[string]tfProvider `json:"required_providers"`
	}
	tfProvider struct {
		Source  string `json:"source"`
		Version string `json:"version"`
	}
	tfResources struct {
		Table tfObject `json:"aws_dynamodb_table"`
	}
	tfVariable struct {
		Type        string         `json:"type"`
		Default     any            `json:"default"`
		Description string         `json:"description"`
		Validation  []tfValidation `json:"validation,omitempty"`
	}
	tfValidation struct {
		Condition    string `json:"condition"`
		ErrorMessage string `json:"error_message"`
	}
	tfTable struct {
		Name                      string      `json:"name"`
		BillingMode               string      `json:"billing_mode"`
		ReadCapacity              string      `json:"read_capacity"`
		WriteCapacity             string      `json:"write_capacity"`
		HashKey                   string      `json:"hash_key"`
		RangeKey                  string      `json:"range_key,omitempty"`
		Attribute                 []tfAttr    `json:"attribute"`
		GlobalSecondaryIndex      []tfGlobal  `json:"global_secondary_index,omitempty"`
		LocalSecondaryIndex       []tfLocal   `json:"local_secondary_index,omitempty"`
		TTL                       []tfTTL     `json:"ttl,omitempty"`
		PointInTimeRecovery       []tfEnabled `json:"point_in_time_recovery"`
		DeletionProtectionEnabled string      `json:"deletion_protection_enabled"`
	}
	tfAttr struct {
		Name string `json:"name"`
		Type string `json:"type"`
	}
	tfGlobal struct {
		Name             string        `json:"name"`
		KeySchema        []tfKeySchema `json:"key_schema"`
		ProjectionType   string        `json:"projection_type"`
		NonKeyAttributes []string      `json:"non_key_attributes,omitempty"`
		ReadCapacity     string        `json:"read_capacity"`
		WriteCapacity    string        `json:"write_capacity"`
	}
	tfKeySchema struct {
		AttributeName string `json:"attribute_name"`
		KeyType       string `json:"key_type"`
	}
	tfLocal struct {
		Name             string   `json:"name"`
		RangeKey         string   `json:"range_key"`
		ProjectionType   string   `json:"projection_type"`
		NonKeyAttributes []string `json:"non_key_attributes,omitempty"`
	}
	tfTTL struct {
		AttributeName string `json:"attribute_name"`
		Enabled       bool   `json:"enabled"`
	}
	tfEnabled struct {
		Enabled string `json:"enabled"`
	}
	tfOutput struct {
		Description string `json:"description"`
		Value       string `json:"value"`
	}
)

// tfObject is a JSON object whose members keep the order they were
// added in (a Terraform file lists its tables in spec order).
type tfObject []tfMember

// tfMember is a member of a tfObject: a block label or a name, and its
// value.
type tfMember struct {
	Name  string
	Value any
}

// MarshalJSON writes o's members in order.
func (o tfObject) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(m.Name); err != nil {
			return nil, err
		}
		b.WriteByte(':')
		if err := enc.Encode(m.Value); err != nil {
			return nil, err
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// tfString makes s, a string of the spec, inert where Terraform reads a
// JSON string as a template: "${" (an interpolation) is written "$${"
// and "%{" (a directive) "%%{", which Terraform reads back as s. JSON
// quoting itself is encoding/json's.
func tfString(s string) string {
	return tfEscaper.Replace(s)
}

// tfEscaper writes the escapes of Terraform's templates.
var tfEscaper = strings.NewReplacer("${", "$${", "%{", "%%{")

// tfStrings is tfString of each of ss.
func tfStrings(ss []string) []string {
	var out []string
	for _, s := range ss {
		out = append(out, tfString(s))
	}
	return out
}

// tfRef is an expression of references only, as a JSON string holds it.
func tfRef(expr string) string { return "${" + expr + "}" }

// terraform renders tables.tf.json: an aws_dynamodb_table per table,
// printed from the plan's one definition of the table, its physical name
// an input variable, billing, point-in-time recovery and deletion
// protection input variables shared by the tables, and each table's name
// and ARN as output values. Every name is the model's.
func terraform(p *plan.Plan, o *model.Output, src Source) ([]File, error) {
	billing := "var." + model.TerraformBillingModeVar
	provisioned := func(v string) string {
		return tfRef(fmt.Sprintf(`%s == "PROVISIONED" ? var.%s : null`, billing, v))
	}
	read, write := provisioned(model.TerraformReadCapacityVar), provisioned(model.TerraformWriteCapacityVar)
	f := tfFile{
		Comment: model.GeneratedText + " source: " + src.Line,
		Terraform: tfSettings{RequiredProviders: map[string]tfProvider{
			"aws": {Source: "hashicorp/aws", Version: TerraformAWSProvider},
		}},
	}
	for _, d := range p.Tables {
		t := d.Table
		f.Variable = append(f.Variable, tfMember{t.TerraformTableNameVar(), tfVariable{
			Type: "string", Default: t.Name,
			Description: "The physical name of table " + t.Name + ".",
		}})
		res := tfTable{
			Name:                      tfRef("var." + t.TerraformTableNameVar()),
			BillingMode:               tfRef(billing),
			ReadCapacity:              read,
			WriteCapacity:             write,
			PointInTimeRecovery:       []tfEnabled{{tfRef("var." + model.TerraformPITRVar)}},
			DeletionProtectionEnabled: tfRef("var." + model.TerraformDeletionProtectionVar),
		}
		for _, k := range plan.KeySchema(d.Key) {
			if k.Type == "HASH" {
				res.HashKey = tfString(k.Name)
			} else {
				res.RangeKey = tfString(k.Name)
			}
		}
		for _, a := range d.Attributes {
			res.Attribute = append(res.Attribute, tfAttr{tfString(a.Name), string(a.Type)})
		}
		for _, ix := range d.Global {
			typ, nonKey := plan.Projection(ix)
			g := tfGlobal{Name: tfString(ix.Name), ProjectionType: typ, NonKeyAttributes: tfStrings(nonKey), ReadCapacity: read, WriteCapacity: write}
			for _, k := range plan.KeySchema(ix) {
				g.KeySchema = append(g.KeySchema, tfKeySchema{tfString(k.Name), k.Type})
			}
			res.GlobalSecondaryIndex = append(res.GlobalSecondaryIndex, g)
		}
		for _, ix := range d.Local {
			typ, nonKey := plan.Projection(ix)
			l := tfLocal{Name: tfString(ix.Name), ProjectionType: typ, NonKeyAttributes: tfStrings(nonKey)}
			for _, k := range plan.KeySchema(ix) {
				if k.Type == "RANGE" {
					l.RangeKey = tfString(k.Name)
				}
			}
			res.LocalSecondaryIndex = append(res.LocalSecondaryIndex, l)
		}
		if d.TTL != "" {
			res.TTL = []tfTTL{{tfString(d.TTL), true}}
		}
		f.Resource.Table = append(f.Resource.Table, tfMember{t.TerraformName(), res})
		ref := "aws_dynamodb_table." + t.TerraformName()
		f.Output = append(f.Output,
			tfMember{t.TerraformNameOutput(), tfOutput{"The physical name of table " + t.Name + ".", tfRef(ref + ".name")}},
			tfMember{t.TerraformARNOutput(), tfOutput{"The ARN of table " + t.Name + ".", tfRef(ref + ".arn")}})
	}
	f.Variable = append(f.Variable,
		tfMember{model.TerraformBillingModeVar, tfVariable{
			Type: "string", Default: plan.Billing,
			Description: "The billing mode of every table: PAY_PER_REQUEST (on demand) or PROVISIONED (read_capacity and write_capacity units for each table and global index).",
			Validation: []tfValidation{{
				Condition:    tfRef(fmt.Sprintf(`contains(["PAY_PER_REQUEST", "PROVISIONED"], %s)`, billing)),
				ErrorMessage: "The billing mode must be PAY_PER_REQUEST or PROVISIONED.",
			}},
		}},
		capacityVar(model.TerraformReadCapacityVar, "read"),
		capacityVar(model.TerraformWriteCapacityVar, "write"),
		tfMember{model.TerraformPITRVar, tfVariable{
			Type: "bool", Default: false,
			Description: "Whether point-in-time recovery is on for every table.",
		}},
		tfMember{model.TerraformDeletionProtectionVar, tfVariable{
			Type: "bool", Default: false,
			Description: "Whether deletion protection is on for every table.",
		}},
	)
	data, err := marshalJSON(f)
	if err != nil {
		return nil, err
	}
	return []File{{o.File, data}}, nil
}

// capacityVar is the variable of the read or write capacity units of
// every table and global index when billing is PROVISIONED.
func capacityVar(name, what string) tfMember {
	return tfMember{name, tfVariable{
		Type: "number", Default: 5,
		Description: "The " + what + " capacity units of every table and global index when billing_mode is PROVISIONED; not sent on demand.",
		Validation: []tfValidation{{
			Condition:    tfRef(fmt.Sprintf("var.%s >= 1 && floor(var.%s) == var.%s", name, name, name)),
			ErrorMessage: "The " + what + " capacity must be a whole number of at least 1.",
		}},
	}}
}

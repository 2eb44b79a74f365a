package terraform

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/output/format"
	"github.com/dyngen/dyngen/internal/output/iam"
	"github.com/dyngen/dyngen/internal/plan"
)

// AWSProvider is the version constraint of the AWS provider the
// Terraform output is written for: the syntax of aws_dynamodb_table from
// 6.29.0 on (a global secondary index's keys in key_schema blocks, its
// hash_key and range_key deprecated), from the release that has the
// fixes of that syntax (a perpetual diff on an index with a sort key;
// removing one index removed and re-created the others).
const AWSProvider = ">= 6.37.0, < 7.0.0"

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
		Locals    tfObject    `json:"locals,omitempty"`
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
		Table   tfObject `json:"aws_dynamodb_table"`
		Mapping tfObject `json:"aws_lambda_event_source_mapping,omitempty"`
		Policy  tfObject `json:"aws_iam_policy,omitempty"`
	}
	// tfMapping is the aws_lambda_event_source_mapping of a consumer
	// with lambda:.
	tfMapping struct {
		EventSourceARN        string             `json:"event_source_arn"`
		FunctionName          string             `json:"function_name"`
		StartingPosition      string             `json:"starting_position"`
		BatchSize             int64              `json:"batch_size,omitempty"`
		FunctionResponseTypes []string           `json:"function_response_types"`
		FilterCriteria        []tfFilterCriteria `json:"filter_criteria,omitempty"`
	}
	tfFilterCriteria struct {
		Filter []tfFilter `json:"filter"`
	}
	tfFilter struct {
		Pattern string `json:"pattern"`
	}
	// tfRequiredVariable is an input variable without a default, which
	// Terraform asks for.
	tfRequiredVariable struct {
		Type        string         `json:"type"`
		Description string         `json:"description"`
		Validation  []tfValidation `json:"validation,omitempty"`
	}
	tfPolicy struct {
		Name        string `json:"name"`
		Description string `json:"description"`
		Policy      string `json:"policy"`
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
		StreamEnabled             bool        `json:"stream_enabled,omitempty"`
		StreamViewType            string      `json:"stream_view_type,omitempty"`
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

// Render renders tables.tf.json: an aws_dynamodb_table per table,
// printed from the plan's one definition of the table, with input
// variables of its physical name, billing (and each global index's
// capacities), point-in-time recovery and deletion protection, and its
// name and ARN as output values; an aws_lambda_event_source_mapping per
// consumer with lambda: (addMappings); when the spec asks for the iam
// output too, the IAM policy of the plan's access (addPolicy). Every
// name is names.go's.
func Render(p *plan.Plan, o *model.Output, src format.Source) ([]format.File, error) {
	f := tfFile{
		Comment: model.GeneratedText + " source: " + src.Line,
		Terraform: tfSettings{RequiredProviders: map[string]tfProvider{
			"aws": {Source: "hashicorp/aws", Version: AWSProvider},
		}},
	}
	for _, d := range p.Tables {
		t := d.Table
		n := TableNamesOf(t)
		provisioned := func(v string) string {
			return tfRef(fmt.Sprintf(`var.%s == "PROVISIONED" ? %s : null`, n.BillingModeVar, v))
		}
		f.Variable = append(f.Variable,
			tfMember{n.NameVar, tfVariable{
				Type: "string", Default: t.Name,
				Description: "The physical name of table " + t.Name + ".",
			}},
			tfMember{n.BillingModeVar, tfVariable{
				Type: "string", Default: plan.Billing,
				Description: "The billing mode of table " + t.Name + ": PAY_PER_REQUEST (on demand) or PROVISIONED (" + n.ReadCapacityVar + " and " + n.WriteCapacityVar + " units).",
				Validation: []tfValidation{{
					Condition:    tfRef(fmt.Sprintf(`contains(["PAY_PER_REQUEST", "PROVISIONED"], var.%s)`, n.BillingModeVar)),
					ErrorMessage: "The billing mode must be PAY_PER_REQUEST or PROVISIONED.",
				}},
			}},
			capacityVar(n.ReadCapacityVar, "read", "table "+t.Name, n.BillingModeVar),
			capacityVar(n.WriteCapacityVar, "write", "table "+t.Name, n.BillingModeVar),
		)
		res := tfTable{
			Name:                      tfRef("var." + n.NameVar),
			BillingMode:               tfRef("var." + n.BillingModeVar),
			ReadCapacity:              provisioned("var." + n.ReadCapacityVar),
			WriteCapacity:             provisioned("var." + n.WriteCapacityVar),
			PointInTimeRecovery:       []tfEnabled{{tfRef("var." + n.PITRVar)}},
			DeletionProtectionEnabled: tfRef("var." + n.DeletionProtectionVar),
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
			in := IndexNamesOf(ix)
			what := "index " + ix.Name + " of table " + t.Name
			f.Variable = append(f.Variable,
				indexCapacityVar(in.ReadCapacityVar, "read", what, n.ReadCapacityVar, n.BillingModeVar),
				indexCapacityVar(in.WriteCapacityVar, "write", what, n.WriteCapacityVar, n.BillingModeVar))
			typ, nonKey := plan.Projection(ix)
			g := tfGlobal{
				Name: tfString(ix.Name), ProjectionType: typ, NonKeyAttributes: tfStrings(nonKey),
				ReadCapacity:  provisioned(fmt.Sprintf("coalesce(var.%s, var.%s)", in.ReadCapacityVar, n.ReadCapacityVar)),
				WriteCapacity: provisioned(fmt.Sprintf("coalesce(var.%s, var.%s)", in.WriteCapacityVar, n.WriteCapacityVar)),
			}
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
		if d.Stream != "" {
			res.StreamEnabled, res.StreamViewType = true, d.Stream
		}
		f.Variable = append(f.Variable,
			tfMember{n.PITRVar, tfVariable{
				Type: "bool", Default: false,
				Description: "Whether point-in-time recovery is on for table " + t.Name + ".",
			}},
			tfMember{n.DeletionProtectionVar, tfVariable{
				Type: "bool", Default: false,
				Description: "Whether deletion protection is on for table " + t.Name + ": it can't be deleted while it is.",
			}},
		)
		f.Resource.Table = append(f.Resource.Table, tfMember{n.Resource, res})
		ref := "aws_dynamodb_table." + n.Resource
		f.Output = append(f.Output,
			tfMember{n.NameOutput, tfOutput{"The physical name of table " + t.Name + ".", tfRef(ref + ".name")}},
			tfMember{n.ARNOutput, tfOutput{"The ARN of table " + t.Name + ".", tfRef(ref + ".arn")}})
	}
	addMappings(p, &f)
	if HoldsPolicy(p.Model) {
		if err := addPolicy(iam.AccessOf(p), p.Model, &f); err != nil {
			return nil, err
		}
	}
	data, err := format.JSON(f)
	if err != nil {
		return nil, err
	}
	return []format.File{{Name: o.File, Data: data}}, nil
}

// addMappings adds to f, per consumer with lambda: in spec order, the
// input variable of its Lambda function's name or ARN, which has no
// default, and its aws_lambda_event_source_mapping: its table's stream,
// the starting position and batch size of the spec, Lambda's partial
// batch response (the function reports the records it failed, which
// alone are sent again), and the filters of the plan.
func addMappings(p *plan.Plan, f *tfFile) {
	for _, c := range p.Model.Consumers {
		pc := p.Consumer(c)
		if c.Lambda == nil || pc == nil {
			continue
		}
		n := ConsumerNamesOf(c)
		f.Variable = append(f.Variable, tfMember{n.FunctionVar, tfRequiredVariable{
			Type:        "string",
			Description: "The name or ARN of the Lambda function of consumer " + c.Name + ", which reads the stream of table " + c.Table.Name + ".",
			Validation: []tfValidation{{
				Condition:    tfRef(fmt.Sprintf("length(var.%s) >= 1 && length(var.%s) <= 140", n.FunctionVar, n.FunctionVar)),
				ErrorMessage: "A Lambda function's name or ARN is 1 to 140 characters.",
			}},
		}})
		m := tfMapping{
			EventSourceARN:        tfRef("aws_dynamodb_table." + ResourceName(c.Table) + ".stream_arn"),
			FunctionName:          tfRef("var." + n.FunctionVar),
			StartingPosition:      c.Lambda.StartingPosition,
			BatchSize:             c.Lambda.BatchSize,
			FunctionResponseTypes: []string{"ReportBatchItemFailures"},
		}
		if len(pc.Filters) > 0 {
			fc := tfFilterCriteria{}
			for _, flt := range pc.Filters {
				fc.Filter = append(fc.Filter, tfFilter{tfString(flt.Pattern)})
			}
			m.FilterCriteria = []tfFilterCriteria{fc}
		}
		f.Resource.Mapping = append(f.Resource.Mapping, tfMember{n.Resource, m})
	}
}

// addPolicy adds to f the IAM policy the iam output writes (the
// document of acc, the access of the package m), its resources the ARNs of the
// module's tables: the document as a local value, whose strings
// Terraform reads as templates (each of the plan's goes through
// tfString), an aws_iam_policy of it (jsonencode), the variable of the
// policy's name and the output of its ARN.
func addPolicy(acc *iam.Access, m *model.Model, f *tfFile) error {
	arn := func(g *iam.Grant) (any, error) {
		s := tfRef("aws_dynamodb_table." + ResourceName(g.Index.Table) + ".arn")
		if !g.Index.IsPrimary() {
			s += "/index/" + tfString(g.Index.Name)
		}
		return s, nil
	}
	name := PolicyNameVar
	f.Variable = append(f.Variable, tfMember{name, tfVariable{
		Type: "string", Default: PolicyName(m),
		Description: "The name of the IAM policy that allows the calls of package " + m.Package + " on its tables.",
		Validation: []tfValidation{{
			Condition:    tfRef(fmt.Sprintf(`can(regex("^[A-Za-z0-9_+=,.@-]{1,128}$", var.%s))`, name)),
			ErrorMessage: "An IAM policy name is 1 to 128 letters, digits and _+=,.@- characters.",
		}},
	}})
	doc, err := acc.Document(arn, tfString)
	if err != nil {
		return err
	}
	f.Locals = append(f.Locals, tfMember{PolicyLocal, doc})
	f.Resource.Policy = append(f.Resource.Policy, tfMember{PolicyResource, tfPolicy{
		Name:        tfRef("var." + name),
		Description: tfString("The calls of package " + m.Package + " on its DynamoDB tables."),
		Policy:      tfRef("jsonencode(local." + PolicyLocal + ")"),
	}})
	f.Output = append(f.Output, tfMember{PolicyARNOutput, tfOutput{
		"The ARN of the IAM policy of package " + m.Package + ".",
		tfRef("aws_iam_policy." + PolicyResource + ".arn"),
	}})
	return nil
}

// capacityVar is the variable of the read or write capacity units of
// one table when its billing mode (variable billing) is PROVISIONED.
func capacityVar(name, what, of, billing string) tfMember {
	return tfMember{name, tfVariable{
		Type: "number", Default: 5,
		Description: "The " + what + " capacity units of " + of + " when " + billing + " is PROVISIONED; not sent on demand.",
		Validation: []tfValidation{{
			Condition:    tfRef(fmt.Sprintf("var.%s >= 1 && floor(var.%s) == var.%s", name, name, name)),
			ErrorMessage: "The " + what + " capacity must be a whole number of at least 1.",
		}},
	}}
}

// indexCapacityVar is the variable of the read or write capacity units
// of a global index when its table's billing mode is PROVISIONED: null,
// the default, for the table's (variable table).
func indexCapacityVar(name, what, of, table, billing string) tfMember {
	return tfMember{name, tfVariable{
		Type: "number", Default: nil,
		Description: "The " + what + " capacity units of " + of + " when " + billing + " is PROVISIONED, or null (the default) for the table's " + table + "; not sent on demand.",
		Validation: []tfValidation{{
			Condition:    tfRef(fmt.Sprintf("var.%s == null ? true : var.%s >= 1 && floor(var.%s) == var.%s", name, name, name, name)),
			ErrorMessage: "The " + what + " capacity must be null or a whole number of at least 1.",
		}},
	}}
}

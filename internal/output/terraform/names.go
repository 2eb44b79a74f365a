package terraform

import (
	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/output/format"
)

// The names the Terraform output (tables.tf.json) declares. Terraform
// keeps apart the resources of each type, the input variables, the
// output values and the local values. Each name here is decided once;
// Check refuses two of one namespace that are equal.
//
// Every name of a table starts with the table's resource name
// (ResourceName), every name of a global index with the table's
// then the index's Go name in snake case; each ends with a suffix of its
// own. So names of two kinds never meet, but a table's and an index's
// can: table a with index b, and table a_b, both give the variable
// a_b_read_capacity; table a with index b_c, and table a_b with index c,
// both give a_b_c_read_capacity.

// TableNames are the names the Terraform output gives one table.
type TableNames struct {
	// Resource is the aws_dynamodb_table resource.
	Resource string
	// The input variables: the physical table name, the billing mode, the
	// table's capacities when provisioned, point-in-time recovery and
	// deletion protection.
	NameVar, BillingModeVar, ReadCapacityVar, WriteCapacityVar, PITRVar, DeletionProtectionVar string
	// The output values: the physical table name and its ARN.
	NameOutput, ARNOutput string
}

// ResourceName is the name of table t's aws_dynamodb_table resource.
// Two Go names may give one (ABTable and AbTable): Check refuses that.
func ResourceName(t *model.Table) string { return model.Snake(t.GoName) }

// TableNamesOf returns the names of table t in the Terraform output.
func TableNamesOf(t *model.Table) TableNames {
	r := ResourceName(t)
	return TableNames{
		Resource:              r,
		NameVar:               r + "_table_name",
		BillingModeVar:        r + "_billing_mode",
		ReadCapacityVar:       r + "_read_capacity",
		WriteCapacityVar:      r + "_write_capacity",
		PITRVar:               r + "_point_in_time_recovery",
		DeletionProtectionVar: r + "_deletion_protection",
		NameOutput:            r + "_table_name",
		ARNOutput:             r + "_table_arn",
	}
}

// IndexNames are the names the Terraform output gives one global
// secondary index: the variables of its capacities when its table is
// provisioned (null, the default, stands for the table's).
type IndexNames struct {
	ReadCapacityVar, WriteCapacityVar string
}

// IndexNamesOf returns the names of global secondary index ix in the
// Terraform output.
func IndexNamesOf(ix *model.Index) IndexNames {
	r := ResourceName(ix.Table) + "_" + model.Snake(ix.GoName)
	return IndexNames{
		ReadCapacityVar:  r + "_read_capacity",
		WriteCapacityVar: r + "_write_capacity",
	}
}

// ConsumerNames are the names the Terraform output gives a consumer of a
// table's stream with lambda:: its aws_lambda_event_source_mapping, and
// the input variable of its Lambda function's name or ARN. Both are the
// consumer's Go name in snake case (ConsumerResource), the variable's
// then _function_name, which no table's or index's name ends in: two
// consumers may meet (ABFeed and AbFeed), no consumer and table.
type ConsumerNames struct {
	Resource, FunctionVar string
}

// ConsumerResource is the name of consumer c's
// aws_lambda_event_source_mapping.
func ConsumerResource(c *model.Consumer) string { return model.Snake(c.GoName) }

// ConsumerNamesOf returns the names of consumer c in the Terraform
// output.
func ConsumerNamesOf(c *model.Consumer) ConsumerNames {
	r := ConsumerResource(c)
	return ConsumerNames{Resource: r, FunctionVar: r + "_function_name"}
}

// The names of the IAM policy the Terraform output declares when the
// spec asks for the iam output too: the policy of iam-policy.json, its
// resources the module's tables.
const (
	// PolicyResource is the aws_iam_policy resource.
	PolicyResource = "dynamodb"
	// PolicyLocal is the local value of the policy document,
	// which the resource's policy argument encodes (jsonencode).
	PolicyLocal = "dynamodb_policy"
	// PolicyNameVar is the input variable of the policy's name
	// (PolicyName by default).
	PolicyNameVar = "iam_policy_name"
	// PolicyARNOutput is the output value of the policy's ARN.
	PolicyARNOutput = "iam_policy_arn"
)

// PolicyName is the default name of the IAM policy of the
// Terraform output: the package's, then -dynamodb.
func PolicyName(m *model.Model) string { return m.Package + "-dynamodb" }

// HoldsPolicy reports whether the Terraform output declares the IAM
// policy: when the spec asks for both the terraform and the iam output.
func HoldsPolicy(m *model.Model) bool {
	return m.Output(format.Terraform) != nil && m.Output(format.IAM) != nil
}

// Names lists the names the Terraform output declares, by
// namespace: its aws_dynamodb_table resources, its input variables and
// its output values, each in the order the output declares them. A name
// of a table, index or consumer comes with its position and the fix of a
// clash. The policy's resource and local value are alone in their
// namespaces; the consumers' aws_lambda_event_source_mapping resources
// are MappingNames.
func Names(m *model.Model) (resources, variables, outputs []model.GenName) {
	for _, t := range m.Tables {
		from := "table " + t.Name
		fix := "rename one of the tables"
		n := TableNamesOf(t)
		resources = append(resources, model.GenName{Name: n.Resource, From: from, Pos: t.Pos, Fix: fix})
		for _, v := range []string{n.NameVar, n.BillingModeVar, n.ReadCapacityVar, n.WriteCapacityVar} {
			variables = append(variables, model.GenName{Name: v, From: from, Pos: t.Pos, Fix: fix})
		}
		for _, ix := range t.Indexes {
			if ix.Kind != model.Global {
				continue
			}
			ixFrom := "index " + ix.Name + " of table " + t.Name
			ixFix := "rename one of them"
			in := IndexNamesOf(ix)
			variables = append(variables,
				model.GenName{Name: in.ReadCapacityVar, From: ixFrom, Pos: ix.Pos, Fix: ixFix},
				model.GenName{Name: in.WriteCapacityVar, From: ixFrom, Pos: ix.Pos, Fix: ixFix})
		}
		for _, v := range []string{n.PITRVar, n.DeletionProtectionVar} {
			variables = append(variables, model.GenName{Name: v, From: from, Pos: t.Pos, Fix: fix})
		}
		outputs = append(outputs,
			model.GenName{Name: n.NameOutput, From: from, Pos: t.Pos, Fix: fix},
			model.GenName{Name: n.ARNOutput, From: from, Pos: t.Pos, Fix: fix})
	}
	for _, c := range m.Consumers {
		if c.Lambda != nil {
			variables = append(variables, model.GenName{Name: ConsumerNamesOf(c).FunctionVar, From: "consumer " + c.Name, Pos: c.Pos, Fix: "rename one of the consumers"})
		}
	}
	if HoldsPolicy(m) {
		from := "the IAM policy"
		variables = append(variables, model.GenName{Name: PolicyNameVar, From: from, Pos: m.Pos})
		outputs = append(outputs, model.GenName{Name: PolicyARNOutput, From: from, Pos: m.Pos})
	}
	return resources, variables, outputs
}

// MappingNames lists the aws_lambda_event_source_mapping resources the
// Terraform output declares, one per consumer with lambda:, in spec
// order.
func MappingNames(m *model.Model) []model.GenName {
	var out []model.GenName
	for _, c := range m.Consumers {
		if c.Lambda != nil {
			out = append(out, model.GenName{Name: ConsumerResource(c), From: "consumer " + c.Name, Pos: c.Pos, Fix: "rename one of the consumers"})
		}
	}
	return out
}

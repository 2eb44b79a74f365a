package model

// The names the Terraform output (tables.tf.json) declares. Terraform
// keeps apart the resources of each type, the input variables, the
// output values and the local values. Each name here is decided once;
// the plan's checks refuse two of one namespace that are equal.
//
// Every name of a table starts with the table's resource name
// (Table.TerraformName), every name of a global index with the table's
// then the index's Go name in snake case; each ends with a suffix of its
// own. So names of two kinds never meet, but a table's and an index's
// can: table a with index b, and table a_b, both give the variable
// a_b_read_capacity; table a with index b_c, and table a_b with index c,
// both give a_b_c_read_capacity.

// TFTableNames are the names the Terraform output gives one table.
type TFTableNames struct {
	// Resource is the aws_dynamodb_table resource.
	Resource string
	// The input variables: the physical table name, the billing mode, the
	// table's capacities when provisioned, point-in-time recovery and
	// deletion protection.
	NameVar, BillingModeVar, ReadCapacityVar, WriteCapacityVar, PITRVar, DeletionProtectionVar string
	// The output values: the physical table name and its ARN.
	NameOutput, ARNOutput string
}

// TerraformNames returns the names of table t in the Terraform output.
func (t *Table) TerraformNames() TFTableNames {
	r := t.TerraformName()
	return TFTableNames{
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

// TFIndexNames are the names the Terraform output gives one global
// secondary index: the variables of its capacities when its table is
// provisioned (null, the default, stands for the table's).
type TFIndexNames struct {
	ReadCapacityVar, WriteCapacityVar string
}

// TerraformNames returns the names of global secondary index ix in the
// Terraform output.
func (ix *Index) TerraformNames() TFIndexNames {
	r := ix.Table.TerraformName() + "_" + snake(ix.GoName)
	return TFIndexNames{
		ReadCapacityVar:  r + "_read_capacity",
		WriteCapacityVar: r + "_write_capacity",
	}
}

// The names of the IAM policy the Terraform output declares when the
// spec asks for the iam output too: the policy of iam-policy.json, its
// resources the module's tables.
const (
	// TerraformPolicyResource is the aws_iam_policy resource.
	TerraformPolicyResource = "dynamodb"
	// TerraformPolicyLocal is the local value of the policy document,
	// which the resource's policy argument encodes (jsonencode).
	TerraformPolicyLocal = "dynamodb_policy"
	// TerraformPolicyNameVar is the input variable of the policy's name
	// (Model.TerraformPolicyName by default).
	TerraformPolicyNameVar = "iam_policy_name"
	// TerraformPolicyARNOutput is the output value of the policy's ARN.
	TerraformPolicyARNOutput = "iam_policy_arn"
)

// TerraformPolicyName is the default name of the IAM policy of the
// Terraform output: the package's, then -dynamodb.
func (m *Model) TerraformPolicyName() string { return m.Package + "-dynamodb" }

// TerraformPolicy reports whether the Terraform output declares the IAM
// policy: when the spec asks for both the terraform and the iam output.
func (m *Model) TerraformPolicy() bool {
	return m.Output(Terraform) != nil && m.Output(IAM) != nil
}

// TerraformNames lists the names the Terraform output declares, by
// namespace: its aws_dynamodb_table resources, its input variables and
// its output values, each in the order the output declares them. A name
// of a table or index comes with its position and the fix of a clash.
// The policy's resource and local value are alone in their namespaces.
func (m *Model) TerraformNames() (resources, variables, outputs []GenName) {
	for _, t := range m.Tables {
		from := "table " + t.Name
		fix := "rename one of the tables"
		n := t.TerraformNames()
		resources = append(resources, GenName{n.Resource, from, t.Pos, fix})
		for _, v := range []string{n.NameVar, n.BillingModeVar, n.ReadCapacityVar, n.WriteCapacityVar} {
			variables = append(variables, GenName{v, from, t.Pos, fix})
		}
		for _, ix := range t.Indexes {
			if ix.Kind != Global {
				continue
			}
			ixFrom := "index " + ix.Name + " of table " + t.Name
			ixFix := "rename one of them"
			in := ix.TerraformNames()
			variables = append(variables,
				GenName{in.ReadCapacityVar, ixFrom, ix.Pos, ixFix},
				GenName{in.WriteCapacityVar, ixFrom, ix.Pos, ixFix})
		}
		for _, v := range []string{n.PITRVar, n.DeletionProtectionVar} {
			variables = append(variables, GenName{v, from, t.Pos, fix})
		}
		outputs = append(outputs,
			GenName{n.NameOutput, from, t.Pos, fix},
			GenName{n.ARNOutput, from, t.Pos, fix})
	}
	if m.TerraformPolicy() {
		from := "the IAM policy"
		variables = append(variables, GenName{TerraformPolicyNameVar, from, m.Pos, ""})
		outputs = append(outputs, GenName{TerraformPolicyARNOutput, from, m.Pos, ""})
	}
	return resources, variables, outputs
}

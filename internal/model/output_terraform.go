package model

// The names the Terraform output (tables.tf.json) declares. Terraform
// keeps three namespaces apart: resources of one type, input variables
// and output values. Each name here is decided once; the plan's checks
// refuse two of one namespace that are equal.

// The input variables the Terraform output declares once for all its
// tables, besides a table name variable per table
// (Table.TerraformTableNameVar).
const (
	// TerraformBillingModeVar is the billing mode of every table:
	// PAY_PER_REQUEST (the default) or PROVISIONED.
	TerraformBillingModeVar = "billing_mode"
	// TerraformReadCapacityVar and TerraformWriteCapacityVar are the
	// capacity units of every table and global index when billing_mode
	// is PROVISIONED; on demand they are not sent.
	TerraformReadCapacityVar  = "read_capacity"
	TerraformWriteCapacityVar = "write_capacity"
	// TerraformPITRVar turns point-in-time recovery on for every table.
	TerraformPITRVar = "point_in_time_recovery"
	// TerraformDeletionProtectionVar turns deletion protection on for
	// every table.
	TerraformDeletionProtectionVar = "deletion_protection"
)

// TerraformSharedVars lists the variables the Terraform output declares
// once for all its tables, in the order it declares them.
var TerraformSharedVars = []string{
	TerraformBillingModeVar,
	TerraformReadCapacityVar,
	TerraformWriteCapacityVar,
	TerraformPITRVar,
	TerraformDeletionProtectionVar,
}

// TerraformTableNameVar is the input variable of table t's physical name
// in the Terraform output; its default is the spec's name.
func (t *Table) TerraformTableNameVar() string { return t.TerraformName() + "_table_name" }

// TerraformNameOutput is the output value of table t's physical name in
// the Terraform output.
func (t *Table) TerraformNameOutput() string { return t.TerraformName() + "_table_name" }

// TerraformARNOutput is the output value of table t's ARN in the
// Terraform output.
func (t *Table) TerraformARNOutput() string { return t.TerraformName() + "_table_arn" }

// TerraformNames lists the names the Terraform output declares, by
// namespace: its aws_dynamodb_table resources, its input variables and
// its output values, each in the order the output declares them. A name
// of a table comes with the table's position and the fix of a clash.
func (m *Model) TerraformNames() (resources, variables, outputs []GenName) {
	for _, t := range m.Tables {
		from := "table " + t.Name
		fix := "rename one of the tables"
		resources = append(resources, GenName{t.TerraformName(), from, t.Pos, fix})
		variables = append(variables, GenName{t.TerraformTableNameVar(), from, t.Pos, fix})
		outputs = append(outputs,
			GenName{t.TerraformNameOutput(), from, t.Pos, fix},
			GenName{t.TerraformARNOutput(), from, t.Pos, fix})
	}
	for _, v := range TerraformSharedVars {
		variables = append(variables, GenName{v, "the Terraform output's variable " + v, m.Pos, ""})
	}
	return resources, variables, outputs
}

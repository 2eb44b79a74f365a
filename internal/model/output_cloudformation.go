package model

// The logical IDs of the CloudFormation output. Each table gives its
// resource (Table.CloudFormationID), its parameters, conditions and
// outputs, all named after the resource's logical ID; each global
// secondary index gives the parameters and conditions of its own
// capacities, named after the resource's logical ID and the index's Go
// name. When the spec asks for the IAM policy too, the template also
// holds that policy as a resource with an output of its ARN
// (CFPolicyIDs). The plan refuses two that meet (CloudFormationNames).

// CFSection is a section of a CloudFormation template whose entries
// are named by logical IDs.
type CFSection string

// The sections of logical IDs.
const (
	CFParameters CFSection = "Parameters"
	CFResources  CFSection = "Resources"
	CFConditions CFSection = "Conditions"
	CFOutputs    CFSection = "Outputs"
)

// Namespace is the set of logical IDs within which those of section s
// must differ: parameters and resources share one (Ref reads both);
// conditions and outputs each have their own.
func (s CFSection) Namespace() string {
	if s == CFParameters || s == CFResources {
		return "parameters and resources"
	}
	return string(s)
}

// MaxCFLogicalID is the longest logical ID CloudFormation takes.
const MaxCFLogicalID = 255

// CFTableIDs are the logical IDs the CloudFormation output gives one
// table.
type CFTableIDs struct {
	// Resource is the AWS::DynamoDB::Table resource.
	Resource string
	// The parameters: the physical table name, the billing mode, the
	// table's capacities when provisioned, point-in-time recovery and
	// deletion protection.
	Name, BillingMode, ReadCapacity, WriteCapacity, PointInTimeRecovery, DeletionProtection string
	// The conditions: provisioned billing, point-in-time recovery on,
	// deletion protection on.
	Provisioned, PointInTimeRecoveryOn, DeletionProtectionOn string
	// The outputs: the physical table name and its ARN.
	NameOutput, ArnOutput string
}

// CloudFormationIDs returns the logical IDs of table t in the
// CloudFormation output.
func (t *Table) CloudFormationIDs() CFTableIDs {
	r := t.CloudFormationID()
	return CFTableIDs{
		Resource:              r,
		Name:                  r + "Name",
		BillingMode:           r + "BillingMode",
		ReadCapacity:          r + "ReadCapacity",
		WriteCapacity:         r + "WriteCapacity",
		PointInTimeRecovery:   r + "PointInTimeRecovery",
		DeletionProtection:    r + "DeletionProtection",
		Provisioned:           r + "IsProvisioned",
		PointInTimeRecoveryOn: r + "HasPointInTimeRecovery",
		DeletionProtectionOn:  r + "HasDeletionProtection",
		NameOutput:            r + "Name",
		ArnOutput:             r + "Arn",
	}
}

// CFIndexIDs are the logical IDs the CloudFormation output gives one
// global secondary index: the parameters of its capacities when its
// table is provisioned (0 stands for the table's), and the conditions
// that they are 0.
type CFIndexIDs struct {
	ReadCapacity, WriteCapacity               string
	ReadCapacityOfTable, WriteCapacityOfTable string
}

// CloudFormationIDs returns the logical IDs of global secondary index ix
// in the CloudFormation output.
func (ix *Index) CloudFormationIDs() CFIndexIDs {
	r := ix.Table.CloudFormationID() + ix.GoName
	return CFIndexIDs{
		ReadCapacity:         r + "ReadCapacity",
		WriteCapacity:        r + "WriteCapacity",
		ReadCapacityOfTable:  r + "UsesTableReadCapacity",
		WriteCapacityOfTable: r + "UsesTableWriteCapacity",
	}
}

// CFPolicyIDs are the logical IDs of the IAM policy the CloudFormation
// output holds when the spec asks for the iam output too: the
// AWS::IAM::ManagedPolicy resource and the output of its ARN. No table
// or index gives either (a table's logical IDs all start with its
// resource's, which ends in Table, and end in Table, Name, Arn,
// BillingMode, Capacity, Recovery, Protection or IsProvisioned);
// CloudFormationNames lists them with the others all the same.
type CFPolicyIDs struct {
	Resource, ArnOutput string
}

// CloudFormationPolicyIDs returns the logical IDs of the IAM policy in
// the CloudFormation output.
func CloudFormationPolicyIDs() CFPolicyIDs {
	return CFPolicyIDs{Resource: "AccessPolicy", ArnOutput: "AccessPolicyArn"}
}

// CloudFormationPolicy reports whether the CloudFormation output may
// hold the IAM policy: whether the spec asks for both outputs. (The
// plan leaves the policy out when it has no statement.)
func (m *Model) CloudFormationPolicy() bool {
	return m.Output(CloudFormation) != nil && m.Output(IAM) != nil
}

// CFName is one logical ID of the CloudFormation output, with its
// section and what it comes from.
type CFName struct {
	Section CFSection
	GenName
}

// CloudFormationNames lists every logical ID of the CloudFormation
// output, in the order the output declares them within a section. The
// IAM policy's, which can't be renamed, have no Fix.
func (m *Model) CloudFormationNames() []CFName {
	var out []CFName
	for _, t := range m.Tables {
		if len(t.Indexes) == 0 {
			continue // a table the model refused
		}
		ids := t.CloudFormationIDs()
		add := func(s CFSection, name, what string) {
			out = append(out, CFName{s, GenName{name, what + " of table " + t.Name, t.Pos, "rename table " + t.Name}})
		}
		add(CFResources, ids.Resource, "the resource")
		add(CFParameters, ids.Name, "the name parameter")
		add(CFParameters, ids.BillingMode, "the billing mode parameter")
		add(CFParameters, ids.ReadCapacity, "the read capacity parameter")
		add(CFParameters, ids.WriteCapacity, "the write capacity parameter")
		add(CFParameters, ids.PointInTimeRecovery, "the point-in-time recovery parameter")
		add(CFParameters, ids.DeletionProtection, "the deletion protection parameter")
		add(CFConditions, ids.Provisioned, "the provisioned billing condition")
		add(CFConditions, ids.PointInTimeRecoveryOn, "the point-in-time recovery condition")
		add(CFConditions, ids.DeletionProtectionOn, "the deletion protection condition")
		add(CFOutputs, ids.NameOutput, "the name output")
		add(CFOutputs, ids.ArnOutput, "the ARN output")
		for _, ix := range t.Indexes {
			if ix.Kind != Global {
				continue
			}
			ixIDs := ix.CloudFormationIDs()
			add := func(s CFSection, name, what string) {
				out = append(out, CFName{s, GenName{name, what + " of index " + ix.Name + " of table " + t.Name, ix.Pos, "rename index " + ix.Name + " of table " + t.Name}})
			}
			add(CFParameters, ixIDs.ReadCapacity, "the read capacity parameter")
			add(CFParameters, ixIDs.WriteCapacity, "the write capacity parameter")
			add(CFConditions, ixIDs.ReadCapacityOfTable, "the read capacity condition")
			add(CFConditions, ixIDs.WriteCapacityOfTable, "the write capacity condition")
		}
	}
	if m.CloudFormationPolicy() {
		ids, pos := CloudFormationPolicyIDs(), m.Output(IAM).Pos
		out = append(out,
			CFName{CFResources, GenName{ids.Resource, "the IAM policy's resource", pos, ""}},
			CFName{CFOutputs, GenName{ids.ArnOutput, "the IAM policy's ARN output", pos, ""}})
	}
	return out
}

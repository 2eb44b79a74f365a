package cloudformation

import (
	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/output/format"
)

// The logical IDs of the CloudFormation output. Each table gives its
// resource (ResourceID), its parameters, conditions and
// outputs, all named after the resource's logical ID; each global
// secondary index gives the parameters and conditions of its own
// capacities, named after the resource's logical ID and the index's Go
// name; each consumer of a stream with lambda: gives the parameter of
// its function and its event source mapping (ConsumerIDs). When the spec
// asks for the IAM policy too, the template also holds that policy as a
// resource with an output of its ARN (PolicyIDs). Check refuses two that
// meet (Names).

// Section is a section of a CloudFormation template whose entries
// are named by logical IDs.
type Section string

// The sections of logical IDs.
const (
	Parameters Section = "Parameters"
	Resources  Section = "Resources"
	Conditions Section = "Conditions"
	Outputs    Section = "Outputs"
)

// Namespace is the set of logical IDs within which those of section s
// must differ: parameters and resources share one (Ref reads both);
// conditions and outputs each have their own.
func (s Section) Namespace() string {
	if s == Parameters || s == Resources {
		return "parameters and resources"
	}
	return string(s)
}

// ResourceID is the logical ID of table t's AWS::DynamoDB::Table
// resource. Table Go names differ, so these do.
func ResourceID(t *model.Table) string { return t.GoName + "Table" }

// MaxLogicalID is the longest logical ID CloudFormation takes.
const MaxLogicalID = 255

// TableIDs are the logical IDs the CloudFormation output gives one
// table.
type TableIDs struct {
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

// TableIDsOf returns the logical IDs of table t in the CloudFormation
// output.
func TableIDsOf(t *model.Table) TableIDs {
	r := ResourceID(t)
	return TableIDs{
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

// IndexIDs are the logical IDs the CloudFormation output gives one
// global secondary index: the parameters of its capacities when its
// table is provisioned (0 stands for the table's), and the conditions
// that they are 0.
type IndexIDs struct {
	ReadCapacity, WriteCapacity               string
	ReadCapacityOfTable, WriteCapacityOfTable string
}

// IndexIDsOf returns the logical IDs of global secondary index ix in the
// CloudFormation output.
func IndexIDsOf(ix *model.Index) IndexIDs {
	r := ResourceID(ix.Table) + ix.GoName
	return IndexIDs{
		ReadCapacity:         r + "ReadCapacity",
		WriteCapacity:        r + "WriteCapacity",
		ReadCapacityOfTable:  r + "UsesTableReadCapacity",
		WriteCapacityOfTable: r + "UsesTableWriteCapacity",
	}
}

// PolicyIDs are the logical IDs of the IAM policy the CloudFormation
// output holds when the spec asks for the iam output too: the
// AWS::IAM::ManagedPolicy resource and the output of its ARN. No table
// or index gives either (a table's logical IDs all start with its
// resource's, which ends in Table, and end in Table, Name, Arn,
// BillingMode, Capacity, Recovery, Protection or IsProvisioned);
// Names lists them with the others all the same.
type PolicyIDs struct {
	Resource, ArnOutput string
}

// PolicyIDsOf returns the logical IDs of the IAM policy in
// the CloudFormation output.
func PolicyIDsOf() PolicyIDs {
	return PolicyIDs{Resource: "AccessPolicy", ArnOutput: "AccessPolicyArn"}
}

// HoldsPolicy reports whether the CloudFormation output may
// hold the IAM policy: whether the spec asks for both outputs. (The
// plan leaves the policy out when it has no statement.)
func HoldsPolicy(m *model.Model) bool {
	return m.Output(format.CloudFormation) != nil && m.Output(format.IAM) != nil
}

// ConsumerIDs are the logical IDs the CloudFormation output gives a
// consumer of a table's stream with lambda:: the parameter of its Lambda
// function's name or ARN, and its AWS::Lambda::EventSourceMapping. Each
// starts with the consumer's Go name (unique among consumers); Names
// lists them with the others, whose clashes Check refuses.
type ConsumerIDs struct {
	Function, Mapping string
}

// ConsumerIDsOf returns the logical IDs of consumer c in the
// CloudFormation output.
func ConsumerIDsOf(c *model.Consumer) ConsumerIDs {
	return ConsumerIDs{Function: c.GoName + "FunctionName", Mapping: c.GoName + "EventSourceMapping"}
}

// Name is one logical ID of the CloudFormation output, with its
// section and what it comes from.
type Name struct {
	Section Section
	model.GenName
}

// Names lists every logical ID of the CloudFormation
// output, in the order the output declares them within a section. The
// IAM policy's, which can't be renamed, have no Fix.
func Names(m *model.Model) []Name {
	var out []Name
	for _, t := range m.Tables {
		if len(t.Indexes) == 0 {
			continue // a table the model refused
		}
		ids := TableIDsOf(t)
		add := func(s Section, name, what string) {
			out = append(out, Name{s, model.GenName{Name: name, From: what + " of table " + t.Name, Pos: t.Pos, Fix: "rename table " + t.Name}})
		}
		add(Resources, ids.Resource, "the resource")
		add(Parameters, ids.Name, "the name parameter")
		add(Parameters, ids.BillingMode, "the billing mode parameter")
		add(Parameters, ids.ReadCapacity, "the read capacity parameter")
		add(Parameters, ids.WriteCapacity, "the write capacity parameter")
		add(Parameters, ids.PointInTimeRecovery, "the point-in-time recovery parameter")
		add(Parameters, ids.DeletionProtection, "the deletion protection parameter")
		add(Conditions, ids.Provisioned, "the provisioned billing condition")
		add(Conditions, ids.PointInTimeRecoveryOn, "the point-in-time recovery condition")
		add(Conditions, ids.DeletionProtectionOn, "the deletion protection condition")
		add(Outputs, ids.NameOutput, "the name output")
		add(Outputs, ids.ArnOutput, "the ARN output")
		for _, ix := range t.Indexes {
			if ix.Kind != model.Global {
				continue
			}
			ixIDs := IndexIDsOf(ix)
			add := func(s Section, name, what string) {
				out = append(out, Name{s, model.GenName{Name: name, From: what + " of index " + ix.Name + " of table " + t.Name, Pos: ix.Pos, Fix: "rename index " + ix.Name + " of table " + t.Name}})
			}
			add(Parameters, ixIDs.ReadCapacity, "the read capacity parameter")
			add(Parameters, ixIDs.WriteCapacity, "the write capacity parameter")
			add(Conditions, ixIDs.ReadCapacityOfTable, "the read capacity condition")
			add(Conditions, ixIDs.WriteCapacityOfTable, "the write capacity condition")
		}
	}
	for _, c := range m.Consumers {
		if c.Lambda == nil {
			continue
		}
		ids := ConsumerIDsOf(c)
		add := func(s Section, name, what string) {
			out = append(out, Name{s, model.GenName{Name: name, From: what + " of consumer " + c.Name, Pos: c.Pos, Fix: "rename consumer " + c.Name}})
		}
		add(Parameters, ids.Function, "the function parameter")
		add(Resources, ids.Mapping, "the event source mapping")
	}
	if HoldsPolicy(m) {
		ids, pos := PolicyIDsOf(), m.Output(format.IAM).Pos
		out = append(out,
			Name{Resources, model.GenName{Name: ids.Resource, From: "the IAM policy's resource", Pos: pos}},
			Name{Outputs, model.GenName{Name: ids.ArnOutput, From: "the IAM policy's ARN output", Pos: pos}})
	}
	return out
}

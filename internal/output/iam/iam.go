// Package iam is the iam output (iam-policy.json): the IAM policy that
// allows exactly the calls the generated code makes. It decides the
// policy's statements (AccessOf: per table and index, the actions of the
// calls made there and the partition key patterns they send,
// dynamodb:LeadingKeys), refuses what IAM would refuse of them (Check)
// and renders the document. The CloudFormation and Terraform outputs hold
// the same policy when the spec asks for them too. Each consumer of a
// table's stream gets a policy of its own, in a file of its own
// (stream.go): the stream calls that read it, nothing on the table.
package iam

import (
	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/output/format"
	"github.com/dyngen/dyngen/internal/plan"
)

// Render renders the IAM policy of the plan's calls (AccessOf): a
// statement per table or index and group of actions, on the spec's
// table names; then the policy of each consumer of a table's stream, in
// spec order, in its file (ConsumerFile).
func Render(p *plan.Plan, o *model.Output, _ format.Source) ([]format.File, error) {
	data, err := format.JSON(AccessOf(p).IAMDocument())
	if err != nil {
		return nil, err
	}
	out := []format.File{{Name: o.File, Data: data}}
	for _, c := range p.Model.Consumers {
		data, err := format.JSON(IAMConsumerDocument(c))
		if err != nil {
			return nil, err
		}
		out = append(out, format.File{Name: ConsumerFile(o.File, c), Data: data})
	}
	return out, nil
}

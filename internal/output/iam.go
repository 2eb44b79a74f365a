package output

import (
	"fmt"

	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/plan"
)

// IAMARNPrefix starts the ARN of every table in the iam output: any
// region and account, the aws partition.
const IAMARNPrefix = plan.IAMARNPrefix

// iam renders the IAM policy the plan decided (plan.Access): a statement
// per table or index and group of actions, on the spec's table names.
func iam(p *plan.Plan, o *model.Output, _ Source) ([]File, error) {
	if p.Access == nil {
		return nil, fmt.Errorf("the plan has no access to print")
	}
	doc, err := iamPolicyOf(p.Access, func(g *plan.Grant) (any, error) {
		return g.ARN(), nil
	}, func(s string) string { return s })
	if err != nil {
		return nil, err
	}
	data, err := marshalJSON(doc)
	if err != nil {
		return nil, err
	}
	return []File{{o.File, data}}, nil
}

// iamPolicyOf is the policy document of the access the plan decided
// (plan.Access.Document), which every output that holds the policy
// prints (the iam output, CloudFormation's and Terraform's): each
// grant's resource as arn writes it, and each other string of the plan
// (statement ids, actions, partition key patterns) as str makes it inert
// for the output.
func iamPolicyOf(acc *plan.Access, arn func(*plan.Grant) (any, error), str func(string) string) (plan.PolicyDocument, error) {
	return acc.Document(arn, str)
}

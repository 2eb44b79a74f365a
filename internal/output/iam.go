package output

import (
	"fmt"

	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/plan"
)

// The IAM policy document, in the order of AWS's grammar of the IAM JSON
// policy language. A Resource is an ARN as the format that holds the
// policy writes it: a string in iam-policy.json, an intrinsic function
// of the table resource in the CloudFormation template.
type (
	iamPolicy struct {
		Version   string         `json:"Version"`
		Statement []iamStatement `json:"Statement"`
	}
	iamStatement struct {
		Sid       string        `json:"Sid"`
		Effect    string        `json:"Effect"`
		Action    []string      `json:"Action"`
		Resource  []any         `json:"Resource"`
		Condition *iamCondition `json:"Condition,omitempty"`
	}
	// iamCondition binds the partition key values of a request: each
	// matches one of the patterns, and there is one at least (a request
	// with no key would make ForAllValues true).
	iamCondition struct {
		LeadingKeys iamKeys `json:"ForAllValues:StringLike"`
		Null        iamNull `json:"Null"`
	}
	iamKeys struct {
		LeadingKeys []string `json:"dynamodb:LeadingKeys"`
	}
	iamNull struct {
		LeadingKeys string `json:"dynamodb:LeadingKeys"`
	}
)

// iamVersion is the version of the policy language: the one that reads
// policy variables, which the patterns use to write *, ? and $.
const iamVersion = "2012-10-17"

// IAMARNPrefix starts the ARN of every table: any region and account,
// the aws partition.
const IAMARNPrefix = "arn:aws:dynamodb:*:*:"

// iam renders the IAM policy the plan decided (plan.Access): a statement
// per table or index and group of actions, on the spec's table names.
func iam(p *plan.Plan, o *model.Output, _ Source) ([]File, error) {
	if p.Access == nil {
		return nil, fmt.Errorf("the plan has no access to print")
	}
	doc, err := iamPolicyOf(p.Access, func(g *plan.Grant) (any, error) {
		return IAMARNPrefix + g.Resource(), nil
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

// iamPolicyOf is the policy document of the access the plan decided, a
// statement per grant, which every output that holds the policy prints
// (the iam output, CloudFormation's and Terraform's): each grant's
// resource as arn writes it, and each other string of the plan
// (statement ids, actions, partition key patterns) as str makes it inert
// for the output.
func iamPolicyOf(acc *plan.Access, arn func(*plan.Grant) (any, error), str func(string) string) (iamPolicy, error) {
	doc := iamPolicy{Version: iamVersion, Statement: []iamStatement{}}
	for _, g := range acc.Grants {
		r, err := arn(g)
		if err != nil {
			return iamPolicy{}, err
		}
		st := iamStatement{Sid: str(g.Sid), Effect: "Allow", Resource: []any{r}}
		for _, a := range g.Actions {
			st.Action = append(st.Action, str("dynamodb:"+string(a)))
		}
		if g.LeadingKeys != nil {
			keys := []string{}
			for _, k := range g.LeadingKeys {
				keys = append(keys, str(k))
			}
			st.Condition = &iamCondition{iamKeys{keys}, iamNull{"false"}}
		}
		doc.Statement = append(doc.Statement, st)
	}
	return doc, nil
}

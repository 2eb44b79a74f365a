package output

import (
	"fmt"

	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/plan"
)

// The IAM policy document, in the order of AWS's grammar of the IAM JSON
// policy language.
type (
	iamPolicy struct {
		Version   string         `json:"Version"`
		Statement []iamStatement `json:"Statement"`
	}
	iamStatement struct {
		Sid       string        `json:"Sid"`
		Effect    string        `json:"Effect"`
		Action    []string      `json:"Action"`
		Resource  []string      `json:"Resource"`
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
	doc := iamPolicy{Version: iamVersion, Statement: []iamStatement{}}
	for _, g := range p.Access.Grants {
		st := iamStatement{Sid: g.Sid, Effect: "Allow", Resource: []string{IAMARNPrefix + g.Resource()}}
		for _, a := range g.Actions {
			st.Action = append(st.Action, "dynamodb:"+string(a))
		}
		if g.LeadingKeys != nil {
			st.Condition = &iamCondition{iamKeys{g.LeadingKeys}, iamNull{"false"}}
		}
		doc.Statement = append(doc.Statement, st)
	}
	data, err := marshalJSON(doc)
	if err != nil {
		return nil, err
	}
	return []File{{o.File, data}}, nil
}

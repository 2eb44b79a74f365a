package iam

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode"

	"github.com/dyngen/dyngen/internal/diag"
	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/output/format"
)

// The IAM policy document, in the order of AWS's grammar of the IAM JSON
// policy language: the statements of the access AccessOf decided, which
// every output that holds the policy prints (the iam output,
// CloudFormation's and Terraform's). A Resource is an ARN as the output
// that holds the policy writes it: a string in iam-policy.json, an
// intrinsic function of the table resource in the CloudFormation
// template.
type (
	// PolicyDocument is the policy.
	PolicyDocument struct {
		Version   string            `json:"Version"`
		Statement []PolicyStatement `json:"Statement"`
	}
	// PolicyStatement is a statement of the policy, of one grant.
	PolicyStatement struct {
		Sid       string           `json:"Sid"`
		Effect    string           `json:"Effect"`
		Action    []string         `json:"Action"`
		Resource  []any            `json:"Resource"`
		Condition *PolicyCondition `json:"Condition,omitempty"`
	}
	// PolicyCondition binds the partition key values of a request: each
	// matches one of the patterns, and there is one at least (a request
	// with no key would make ForAllValues true).
	PolicyCondition struct {
		LeadingKeys PolicyKeys `json:"ForAllValues:StringLike"`
		Null        PolicyNull `json:"Null"`
	}
	// PolicyKeys are the patterns of the partition key values.
	PolicyKeys struct {
		LeadingKeys []string `json:"dynamodb:LeadingKeys"`
	}
	// PolicyNull requires the partition key in the request.
	PolicyNull struct {
		LeadingKeys string `json:"dynamodb:LeadingKeys"`
	}
)

// PolicyVersion is the version of the policy language: the one that
// reads policy variables, which the patterns use to write *, ? and $.
const PolicyVersion = "2012-10-17"

// ARNPrefix starts the ARN of every table in the iam output: any
// region and account, the aws partition.
const ARNPrefix = "arn:aws:dynamodb:*:*:"

// ManagedPolicyMaxSize is the most characters a managed policy may hold,
// white space not counted (IAM User Guide, IAM and AWS STS quotas, its
// character limits).
const ManagedPolicyMaxSize = 6144

// The most characters the inline policies of one identity may hold
// together, white space not counted (IAM User Guide, IAM and AWS STS
// quotas).
const (
	InlineRolePolicyMaxSize  = 10240
	InlineGroupPolicyMaxSize = 5120
	InlineUserPolicyMaxSize  = 2048
)

// Document is the policy document of the access: a statement per grant,
// each grant's resource as arn writes it, and each other string of the
// access (statement ids, actions, partition key patterns) as str makes it
// inert for the output.
func (a *Access) Document(arn func(*Grant) (any, error), str func(string) string) (PolicyDocument, error) {
	doc := PolicyDocument{Version: PolicyVersion, Statement: []PolicyStatement{}}
	for _, g := range a.Grants {
		r, err := arn(g)
		if err != nil {
			return PolicyDocument{}, err
		}
		st := PolicyStatement{Sid: str(g.Sid), Effect: "Allow", Resource: []any{r}}
		for _, act := range g.Actions {
			st.Action = append(st.Action, str("dynamodb:"+string(act)))
		}
		if g.LeadingKeys != nil {
			keys := []string{}
			for _, k := range g.LeadingKeys {
				keys = append(keys, str(k))
			}
			st.Condition = &PolicyCondition{PolicyKeys{keys}, PolicyNull{"false"}}
		}
		doc.Statement = append(doc.Statement, st)
	}
	return doc, nil
}

// IAMDocument is the policy document as the iam output writes it: each
// resource its ARN (Grant.ARN), every other string as the access has it.
func (a *Access) IAMDocument() PolicyDocument {
	doc, err := a.Document(func(g *Grant) (any, error) { return g.ARN(), nil }, func(s string) string { return s })
	if err != nil {
		panic(err) // the ARN function does not fail
	}
	return doc
}

// ARN is the grant's resource as the iam output writes it.
func (g *Grant) ARN() string { return ARNPrefix + g.Resource() }

// Size is the number of characters of the policy as the iam output
// writes it (JSON, no HTML escaping), white space not counted, as IAM
// counts a policy against its quotas.
func (a *Access) Size() int {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(a.IAMDocument()); err != nil {
		panic(err) // strings and slices only
	}
	n := 0
	for _, r := range b.String() {
		if !unicode.IsSpace(r) {
			n++
		}
	}
	return n
}

// checkSize warns, at the iam output o, when the policy is larger than
// a managed policy may be.
func checkSize(m *model.Model, o *model.Output, acc *Access, diags *diag.List) {
	n := acc.Size()
	if n <= ManagedPolicyMaxSize {
		return
	}
	also := ""
	switch {
	case m.Output(format.CloudFormation) != nil && m.Output(format.Terraform) != nil:
		also = " (the CloudFormation and Terraform outputs' managed policy too)"
	case m.Output(format.CloudFormation) != nil:
		also = " (the CloudFormation output's managed policy too)"
	case m.Output(format.Terraform) != nil:
		also = " (the Terraform output's managed policy too)"
	}
	diags.Warnf(o.Pos,
		"the IAM policy takes %s characters without white space, more than the %s of a managed policy: AWS refuses to create it%s; "+
			"split its statements (one table or index each) into several managed policies when you attach them, a policy per table for instance, "+
			"or attach it as an inline policy, whose limit is on the sum of an identity's inline policies: %s characters for a role, %s for a group, %s for a user",
		thousands(n), thousands(ManagedPolicyMaxSize), also,
		thousands(InlineRolePolicyMaxSize), thousands(InlineGroupPolicyMaxSize), thousands(InlineUserPolicyMaxSize))
}

// thousands writes n with a comma between thousands, as AWS writes its
// quotas.
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

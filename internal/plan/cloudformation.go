package plan

import (
	"strings"

	"github.com/dyngen/dyngen/internal/diag"
	"github.com/dyngen/dyngen/internal/model"
)

// cfQuotas are CloudFormation's quotas on the entries of a template's
// sections that the output could pass.
var cfQuotas = map[model.CFSection]struct {
	max int
	per string
}{
	model.CFParameters: {200, "6 per table, 2 per global secondary index"},
	model.CFOutputs:    {200, "2 per table, 1 for the IAM policy"},
	model.CFResources:  {500, "1 per table, 1 for the IAM policy"},
}

// cloudFormationNames refuses, when the spec asks for the CloudFormation
// output, a logical ID CloudFormation would refuse: two that meet in one
// namespace, one that is not alphanumeric or is too long; and a template
// with more parameters, outputs or resources than CloudFormation takes.
func cloudFormationNames(m *model.Model, diags *diag.List) {
	o := m.Output(model.CloudFormation)
	if o == nil {
		return
	}
	checkCFNames(m.CloudFormationNames(), o, diags)
}

// checkCFNames checks the logical IDs of the CloudFormation output o.
func checkCFNames(names []model.CFName, o *model.Output, diags *diag.List) {
	seen := map[string]model.CFName{}
	reported := map[[2]model.Pos]bool{}
	count := map[model.CFSection]int{}
	longest := map[model.Pos]model.CFName{}
	var order []model.Pos
	for _, n := range names {
		count[n.Section]++
		switch {
		case !isCFLogicalID(n.Name):
			diags.Errorf(n.Pos, "%s gives the CloudFormation logical ID %q, which is not alphanumeric (A-Z, a-z, 0-9); %s", n.From, n.Name, n.Fix)
			continue
		case len(n.Name) > model.MaxCFLogicalID:
			// One error per table or index: of its longest logical ID.
			if l, ok := longest[n.Pos]; !ok || len(n.Name) > len(l.Name) {
				if !ok {
					order = append(order, n.Pos)
				}
				longest[n.Pos] = n
			}
			continue
		}
		key := n.Section.Namespace() + "\x00" + n.Name
		if first, dup := seen[key]; dup {
			if pair := [2]model.Pos{first.Pos, n.Pos}; !reported[pair] {
				reported[pair] = true
				// The error is where a rename fixes it: the IAM
				// policy's logical IDs (no Fix) are fixed.
				at, other := n, first
				if at.Fix == "" {
					at, other = first, n
				}
				fix := at.Fix
				if other.Fix != "" && other.Fix != at.Fix {
					fix += ", or " + strings.TrimPrefix(other.Fix, "rename ")
				}
				diags.Errorf(at.Pos, "%s and %s both give the CloudFormation logical ID %s, and a template's %s need distinct logical IDs; %s", first.From, n.From, n.Name, n.Section.Namespace(), fix)
			}
			continue
		}
		seen[key] = n
	}
	for _, pos := range order {
		n := longest[pos]
		diags.Errorf(n.Pos, "%s gives a CloudFormation logical ID of %d characters, CloudFormation takes at most %d; %s, %d characters shorter at least", n.From, len(n.Name), model.MaxCFLogicalID, n.Fix, len(n.Name)-model.MaxCFLogicalID)
	}
	for _, s := range []model.CFSection{model.CFParameters, model.CFOutputs, model.CFResources} {
		if q := cfQuotas[s]; count[s] > q.max {
			diags.Errorf(o.Pos, "the CloudFormation output would declare %d %s (%s); CloudFormation takes at most %d in a template: generate some of the tables from another spec", count[s], string(s), q.per, q.max)
		}
	}
}

// isCFLogicalID reports whether s is made of the characters a
// CloudFormation logical ID takes: A-Z, a-z, 0-9, at least one.
func isCFLogicalID(s string) bool {
	for _, r := range s {
		if !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9') {
			return false
		}
	}
	return s != ""
}

// CloudFormationPolicy returns the access the CloudFormation output
// holds as an AWS::IAM::ManagedPolicy, its resources the stack's tables:
// the IAM policy's (Access), when the spec asks for both outputs and the
// policy has a statement (IAM refuses a policy without); else nil.
func (p *Plan) CloudFormationPolicy() *Access {
	if !p.Model.CloudFormationPolicy() || p.Access == nil || len(p.Access.Grants) == 0 {
		return nil
	}
	return p.Access
}

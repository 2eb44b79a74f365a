package cloudformation

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dyngen/dyngen/internal/diag"
	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/output/format"
	"github.com/dyngen/dyngen/internal/output/iam"
	"github.com/dyngen/dyngen/internal/plan"
)

// cfQuotas are CloudFormation's quotas on the entries of a template's
// sections that the output could pass.
var cfQuotas = map[Section]struct {
	max int
	per string
}{
	Parameters: {200, "6 per table, 2 per global secondary index, 1 per consumer with lambda:"},
	Outputs:    {200, "2 per table, 1 for the IAM policy"},
	Resources:  {500, "1 per table, 1 for the IAM policy, 1 per consumer with lambda:"},
}

// Check refuses, in the CloudFormation output o, a logical ID
// CloudFormation would refuse: two that meet in one namespace, one that
// is not alphanumeric or is too long; a template with more parameters,
// outputs or resources than CloudFormation takes; and a spec string
// CloudFormation would read as a dynamic reference (checkStrings).
func Check(p *plan.Plan, o *model.Output, diags *diag.List) {
	checkNames(Names(p.Model), o, diags)
	var acc *iam.Access
	if HoldsPolicy(p.Model) {
		acc = iam.AccessOf(p)
	}
	checkStrings(p, acc, diags)
}

// checkNames checks the logical IDs of the CloudFormation output o.
func checkNames(names []Name, o *model.Output, diags *diag.List) {
	seen := map[string]Name{}
	reported := map[[2]model.Pos]bool{}
	count := map[Section]int{}
	longest := map[model.Pos]Name{}
	var order []model.Pos
	for _, n := range names {
		count[n.Section]++
		switch {
		case !format.IsAlphanumeric(n.Name):
			diags.Errorf(n.Pos, "%s gives the CloudFormation logical ID %q, which is not alphanumeric (A-Z, a-z, 0-9); %s", n.From, n.Name, n.Fix)
			continue
		case len(n.Name) > MaxLogicalID:
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
		diags.Errorf(n.Pos, "%s gives a CloudFormation logical ID of %d characters, CloudFormation takes at most %d; %s, %d characters shorter at least", n.From, len(n.Name), MaxLogicalID, n.Fix, len(n.Name)-MaxLogicalID)
	}
	for _, s := range []Section{Parameters, Outputs, Resources} {
		if q := cfQuotas[s]; count[s] > q.max {
			diags.Errorf(o.Pos, "the CloudFormation output would declare %d %s (%s); CloudFormation takes at most %d in a template: generate some of the tables from another spec", count[s], string(s), q.per, q.max)
		}
	}
}

// Policy returns the access the CloudFormation output holds as an
// AWS::IAM::ManagedPolicy, its resources the stack's tables: the IAM
// policy's (iam.Access), when the spec asks for both outputs and the
// policy has a statement (IAM refuses a policy without); else nil.
func Policy(p *plan.Plan) *iam.Access {
	if !HoldsPolicy(p.Model) {
		return nil
	}
	if acc := iam.AccessOf(p); len(acc.Grants) > 0 {
		return acc
	}
	return nil
}

// cfDynamicRef is what starts a CloudFormation dynamic reference
// ({{resolve:ssm:...}}, {{resolve:ssm-secure:...}},
// {{resolve:secretsmanager:...}}), which CloudFormation resolves inside
// any string of a resource property, quoted or not. CloudFormation
// documents the references' forms but not how strictly it reads them
// (case, spaces, services it may add), so every "{{" is refused rather
// than "{{resolve:" only: no DynamoDB name needs it.
const cfDynamicRef = "{{"

// checkStrings refuses a spec string the template's resources hold
// that CloudFormation would read as a dynamic reference, replacing it by
// what SSM or Secrets Manager hold there: the stack's table would differ
// from the Store's Tables (or the policy from the iam output). The
// strings are the key attribute names, the attributes a projection
// lists, the ttl attribute and, in the IAM policy, the partition key
// patterns (dynamodb:LeadingKeys) of acc, the policy the template
// holds (nil when none). Table and index names can't hold a
// brace (a-z A-Z 0-9 _ . -); nor can the filter patterns of the event
// source mappings hold "{{": compact JSON opens an object with {", and
// the literal text of a key template they hold has no brace.
func checkStrings(p *plan.Plan, acc *iam.Access, diags *diag.List) {
	refuse := func(pos model.Pos, what, fix string) {
		diags.Errorf(pos, "%s holds %q: CloudFormation reads {{resolve:...}} in the strings of a template's resources as a dynamic reference and puts there a value stored in SSM or Secrets Manager, so the stack's table would not be the Store's (dyngen refuses any %q there); %s", what, cfDynamicRef, cfDynamicRef, fix)
	}
	for _, d := range p.Tables {
		for _, a := range d.Attributes {
			if strings.Contains(a.Name, cfDynamicRef) {
				refuse(a.Pos, fmt.Sprintf("key attribute %q", a.Name), "rename the key attribute")
			}
		}
		for _, ix := range slices.Concat(d.Global, d.Local) {
			_, nonKey := plan.Projection(ix)
			for _, n := range nonKey {
				if strings.Contains(n, cfDynamicRef) {
					pos := ix.IncludePos
					if pos.Line == 0 {
						pos = ix.Pos
					}
					refuse(pos, fmt.Sprintf("the attribute %q that index %s projects", n, ix.Name), "give the attribute another stored name (attr:)")
				}
			}
		}
		if strings.Contains(d.TTL, cfDynamicRef) {
			refuse(d.Table.TTLPos, fmt.Sprintf("the ttl attribute %q of table %s", d.TTL, d.Table.Name), "give the attribute another stored name (attr:), and ttl: that name")
		}
	}
	if acc == nil {
		return
	}
	reported := map[*model.Template]bool{}
	for _, g := range acc.Grants {
		for _, t := range g.Templates {
			keys, _ := iam.LeadingKeys([]*model.Template{t})
			if reported[t] || !slices.ContainsFunc(keys, func(k string) bool { return strings.Contains(k, cfDynamicRef) }) {
				continue
			}
			reported[t] = true
			refuse(t.Pos, fmt.Sprintf("partition key template %q, whose literal prefix the template's IAM policy holds (dynamodb:LeadingKeys),", t.Source), "write the key's literal text without it")
		}
	}
}

package terraform

import (
	"github.com/dyngen/dyngen/internal/diag"
	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/plan"
)

// Check refuses, in the Terraform output, two resources, two input
// variables or two output values of one name there: tables ABTable and
// AbTable both give ab_table; table a with global index b, and table
// a_b, both give the variable a_b_read_capacity; consumers ABFeed and
// AbFeed both give the event source mapping ab_feed. Terraform would
// refuse the file; dyngen says which tables, indexes or consumers to
// rename. Two sources that meet in one namespace may meet in the others
// too, and in several names: one error says so.
func Check(p *plan.Plan, _ *model.Output, diags *diag.List) {
	resources, variables, outputs := Names(p.Model)
	reported := map[[2]model.Pos]bool{}
	for _, ns := range []struct {
		what  string
		names []model.GenName
	}{
		{"the resource aws_dynamodb_table.", resources},
		{"the resource aws_lambda_event_source_mapping.", MappingNames(p.Model)},
		{"the variable ", variables},
		{"the output ", outputs},
	} {
		seen := map[string]model.GenName{}
		for _, n := range ns.names {
			first, dup := seen[n.Name]
			if !dup {
				seen[n.Name] = n
				continue
			}
			if pair := [2]model.Pos{first.Pos, n.Pos}; !reported[pair] {
				reported[pair] = true
				fix := n.Fix
				switch {
				case fix == "":
					fix = first.Fix
				case first.Fix != "" && first.Fix != fix:
					fix = "rename one of them"
				}
				diags.Errorf(n.Pos, "%s and %s both give %s%s in the Terraform output; %s", first.From, n.From, ns.what, n.Name, fix)
			}
		}
	}
}

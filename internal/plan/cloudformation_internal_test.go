package plan

import (
	"strings"
	"testing"

	"github.com/dyngen/dyngen/internal/diag"
	"github.com/dyngen/dyngen/internal/model"
)

// TestCloudFormationPolicyClash checks that a logical ID of the IAM
// policy, which can't be renamed, met by a table's is an error at the
// table, with the table's fix, whichever comes first. No table gives
// one today (see model.CFPolicyIDs): the names are built by hand.
func TestCloudFormationPolicyClash(t *testing.T) {
	ids := model.CloudFormationPolicyIDs()
	iamPos := model.Pos{File: "spec.yaml", Line: 30, Col: 3}
	tablePos := model.Pos{File: "spec.yaml", Line: 4, Col: 3}
	policy := model.CFName{Section: model.CFResources, GenName: model.GenName{Name: ids.Resource, From: "the IAM policy's resource", Pos: iamPos}}
	table := model.CFName{Section: model.CFParameters, GenName: model.GenName{Name: ids.Resource, From: "the name parameter of table x", Pos: tablePos, Fix: "rename table x"}}
	output := model.CFName{Section: model.CFOutputs, GenName: model.GenName{Name: ids.ArnOutput, From: "the IAM policy's ARN output", Pos: iamPos}}
	tableOutput := model.CFName{Section: model.CFOutputs, GenName: model.GenName{Name: ids.ArnOutput, From: "the ARN output of table y", Pos: tablePos, Fix: "rename table y"}}
	for _, names := range [][]model.CFName{{policy, table}, {table, policy}, {tableOutput, output}, {output, tableOutput}} {
		var diags diag.List
		checkCFNames(names, &model.Output{Kind: model.CloudFormation}, &diags)
		errs := diags.Errors()
		if len(errs) != 1 {
			t.Errorf("%s, %s: %d errors, want 1: %v", names[0].From, names[1].From, len(errs), errs)
			continue
		}
		e := errs[0].String()
		if errs[0].Pos != tablePos || !strings.HasSuffix(e, "; "+names[0].Fix+names[1].Fix) || !strings.Contains(e, "both give the CloudFormation logical ID "+names[0].Name) {
			t.Errorf("%s, %s: %s", names[0].From, names[1].From, e)
		}
	}
}

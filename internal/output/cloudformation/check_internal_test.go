package cloudformation

import (
	"strings"
	"testing"

	"github.com/dyngen/dyngen/internal/diag"
	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/output/format"
	"github.com/dyngen/dyngen/internal/output/iam"
	"github.com/dyngen/dyngen/internal/plan"
)

// TestCloudFormationPolicyClash checks that a logical ID of the IAM
// policy, which can't be renamed, met by a table's is an error at the
// table, with the table's fix, whichever comes first. No table gives
// one today (see PolicyIDs): the names are built by hand.
func TestCloudFormationPolicyClash(t *testing.T) {
	ids := PolicyIDsOf()
	iamPos := model.Pos{File: "spec.yaml", Line: 30, Col: 3}
	tablePos := model.Pos{File: "spec.yaml", Line: 4, Col: 3}
	policy := Name{Section: Resources, GenName: model.GenName{Name: ids.Resource, From: "the IAM policy's resource", Pos: iamPos}}
	table := Name{Section: Parameters, GenName: model.GenName{Name: ids.Resource, From: "the name parameter of table x", Pos: tablePos, Fix: "rename table x"}}
	output := Name{Section: Outputs, GenName: model.GenName{Name: ids.ArnOutput, From: "the IAM policy's ARN output", Pos: iamPos}}
	tableOutput := Name{Section: Outputs, GenName: model.GenName{Name: ids.ArnOutput, From: "the ARN output of table y", Pos: tablePos, Fix: "rename table y"}}
	for _, names := range [][]Name{{policy, table}, {table, policy}, {tableOutput, output}, {output, tableOutput}} {
		var diags diag.List
		checkNames(names, &model.Output{Kind: format.CloudFormation}, &diags)
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

// TestCloudFormationPolicyDynamicReference checks that a partition key
// pattern of the CloudFormation output's IAM policy holding "{{" is an
// error at its template, once, and only when the spec asks for the
// CloudFormation output with the policy. No spec's template can hold a
// brace today (the template syntax refuses it): the plan is built by
// hand.
func TestCloudFormationPolicyDynamicReference(t *testing.T) {
	pos := model.Pos{File: "spec.yaml", Line: 12, Col: 20}
	id := &model.Attribute{Name: "id"}
	bad := &model.Template{Source: "A{{resolve:ssm:x}}#{id}", Pos: pos, KeyType: model.S,
		Segments: []model.Segment{{Literal: "A{{resolve:ssm:x}}#"}, {Attr: id}}}
	good := &model.Template{Source: "B#{id}", KeyType: model.S, Segments: []model.Segment{{Literal: "B#"}, {Attr: id}}}
	grants := []*iam.Grant{{Templates: []*model.Template{good, bad}}, {Templates: []*model.Template{bad}}}
	for _, tt := range []struct {
		outputs []model.OutputKind
		errors  int
	}{
		{[]model.OutputKind{format.CloudFormation, format.IAM}, 1},
		{[]model.OutputKind{format.IAM}, 0},
		{[]model.OutputKind{format.CloudFormation}, 0}, // no policy in the template
	} {
		m := &model.Model{}
		for _, k := range tt.outputs {
			m.Outputs = append(m.Outputs, &model.Output{Kind: k})
		}
		var diags diag.List
		var acc *iam.Access // as Check gives it
		if HoldsPolicy(m) {
			acc = &iam.Access{Grants: grants}
		}
		checkStrings(&plan.Plan{Model: m}, acc, &diags)
		errs := diags.Errors()
		if len(errs) != tt.errors {
			t.Fatalf("outputs %v: %d errors, want %d: %v", tt.outputs, len(errs), tt.errors, errs)
		}
		if len(errs) == 1 && (errs[0].Pos != pos || !strings.Contains(errs[0].Message, `partition key template "A{{resolve:ssm:x}}#{id}"`)) {
			t.Errorf("error %s", errs[0])
		}
	}
}

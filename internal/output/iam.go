package output

import (
	"fmt"

	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/plan"
)

// iam renders the IAM policy the plan decided (plan.Access): a statement
// per table or index and group of actions, on the spec's table names.
func iam(p *plan.Plan, o *model.Output, _ Source) ([]File, error) {
	if p.Access == nil {
		return nil, fmt.Errorf("the plan has no access to print")
	}
	data, err := marshalJSON(p.Access.IAMDocument())
	if err != nil {
		return nil, err
	}
	return []File{{o.File, data}}, nil
}

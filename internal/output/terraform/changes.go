package terraform

import (
	"fmt"

	"github.com/dyngen/dyngen/internal/compat"
	"github.com/dyngen/dyngen/internal/model"
)

// Tool is what applying the configuration of output o does where
// DynamoDB can't change a table in place, for the compatibility check's
// infrastructure findings (compat.Tool): a table whose key schema or
// local secondary indexes change is destroyed and created anew (for a
// changed name or index), or keeps its old key types (for a changed type
// alone: the AWS provider plans no change for it). The provider
// creates and deletes global secondary indexes one UpdateTable at a
// time, so several in one apply do not fail it.
func Tool(o *model.Output) compat.Tool {
	return compat.Tool{
		Replaced: func(t *model.Table, typeOnly bool) string {
			names := TableNamesOf(t)
			if typeOnly {
				return fmt.Sprintf("Terraform (%s) does not apply it: the AWS provider plans no change for a new key attribute type, so the deployed table keeps its key types, which the Store's requests no longer fit (they fail); create the table anew under another name (%s, or a new table in the spec)", o.File, names.NameVar)
			}
			return fmt.Sprintf("Terraform (%s) destroys the table and creates it anew, empty: its items are lost (with %s on, the apply fails instead); to keep them, make the changed table a new one (a new table in the spec, or the resource under another %s)", o.File, names.DeletionProtectionVar, names.NameVar)
		},
		Removed: func(name string) string {
			return fmt.Sprintf("Terraform (%s) destroys the table with its items (unless its deletion protection is on: the apply fails)", o.File)
		},
		GlobalIndexes: func(t *model.Table, n int) (bool, string) {
			return false, fmt.Sprintf("Terraform (%s) applies them: its AWS provider creates and deletes global secondary indexes one UpdateTable at a time, each waited for", o.File)
		},
	}
}

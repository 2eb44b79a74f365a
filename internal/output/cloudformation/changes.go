package cloudformation

import (
	"fmt"

	"github.com/dyngen/dyngen/internal/compat"
	"github.com/dyngen/dyngen/internal/model"
)

// Tool is what deploying the template of output o does where DynamoDB
// can't change a table in place, for the compatibility check's
// infrastructure findings (compat.Tool):
//
//   - a table whose key schema (partition or sort key, by name or type)
//     or local secondary indexes change: CloudFormation replaces it,
//     and refuses to while its custom TableName stays;
//   - global secondary indexes created and deleted, more than one in
//     all: CloudFormation creates or deletes one per update (DynamoDB's
//     UpdateTable), and fails on more.
func Tool(o *model.Output) compat.Tool {
	return compat.Tool{
		Replaced: func(t *model.Table, _ bool) string {
			ids := TableIDsOf(t)
			return fmt.Sprintf("CloudFormation (%s) replaces a table whose key schema, key attribute types or local secondary indexes change, and refuses to replace one of a custom TableName: with %s unchanged, deploying fails; with a new %s, it creates a new, empty table and leaves the old one with its items out of the stack (UpdateReplacePolicy: Retain)", o.File, ids.Name, ids.Name)
		},
		Removed: func(name string) string {
			return fmt.Sprintf("CloudFormation (%s) removes the table from the stack and keeps it, with its items (DeletionPolicy: Retain): it is no longer the stack's, and a table of its name can't be created again while it is there", o.File)
		},
		GlobalIndexes: func(t *model.Table, n int) (bool, string) {
			return true, fmt.Sprintf("CloudFormation (%s) creates or deletes one global secondary index per update, so deploying the %d changes at once fails, and the stack rolls back", o.File, n)
		},
	}
}

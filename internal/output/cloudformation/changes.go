package cloudformation

import (
	"slices"
	"strings"

	"github.com/dyngen/dyngen/internal/diag"
	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/output/format"
	"github.com/dyngen/dyngen/internal/plan"
	"go.yaml.in/yaml/v3"
)

// Changes warns, at the table in the spec, of each table whose
// definition in the plan differs from the committed CloudFormation
// template (the file o names as an earlier generation left it, which is
// presumably what is deployed) in a way that deploying fails at or that
// loses the table's items:
//
//   - its key schema (partition or sort key, by name or type) or its
//     local secondary indexes changed: CloudFormation replaces the table
//     (and refuses to while its custom TableName stays);
//   - its global secondary indexes gain and lose more than one in all:
//     CloudFormation creates or deletes one per update (DynamoDB's
//     UpdateTable) and fails on more.
//
// A table is matched by its logical ID, an index by its name. A
// committed file that can't be read as a template is not compared: the
// generation replaces it.
func Changes(p *plan.Plan, o *model.Output, committed format.Committed, diags *diag.List) {
	format.WarnChanges(p, o, committed, committedTables, ResourceID, tableChanges, diags)
}

// tableChanges warns of the changes of table d since the committed
// CloudFormation template file.
func tableChanges(d *plan.TableDef, had format.CommittedTable, file string, diags *diag.List) {
	ids := TableIDsOf(d.Table)
	if what, _ := format.ReplacingChanges(d, had); len(what) > 0 {
		diags.Warnf(d.Table.Pos, "table %s changes since the committed %s: %s. CloudFormation replaces a table whose key schema, key attribute types or local secondary indexes change, and refuses to replace one of a custom TableName: with %s unchanged, deploying fails; with a new %s, it creates a new, empty table and leaves the old one with its items out of the stack (UpdateReplacePolicy: Retain). To keep the items, deploy the change as a new table (a new %s, or a new table in the spec) and copy the items over (a migration); or keep the table's key and local indexes as they were",
			d.Table.Name, file, strings.Join(what, "; "), ids.Name, ids.Name, ids.Name)
		return // a replaced table is created with all its indexes
	}
	var added, removed []string
	for _, ix := range d.Global {
		if !slices.Contains(had.GSIs, ix.Name) {
			added = append(added, ix.Name)
		}
	}
	for _, n := range had.GSIs {
		if !slices.ContainsFunc(d.Global, func(ix *model.Index) bool { return ix.Name == n }) {
			removed = append(removed, n)
		}
	}
	if len(added)+len(removed) <= 1 {
		return
	}
	var what []string
	if len(added) > 0 {
		what = append(what, "gains global secondary indexes "+strings.Join(added, ", "))
	}
	if len(removed) > 0 {
		if len(added) > 0 {
			what = append(what, "loses "+strings.Join(removed, ", "))
		} else {
			what = append(what, "loses global secondary indexes "+strings.Join(removed, ", "))
		}
	}
	diags.Warnf(d.Table.Pos, "table %s %s since the committed %s: CloudFormation creates or deletes one global secondary index per update (DynamoDB's UpdateTable), so deploying the %d changes at once fails; deploy in steps, one index added or removed in each (generate and deploy with one change, then the next)",
		d.Table.Name, strings.Join(what, " and "), file, len(added)+len(removed))
}

// committedTables reads a CloudFormation template: each
// AWS::DynamoDB::Table, by logical ID. It reports false when data is
// nil or not such a template. A table whose key schema, attribute
// definitions or local indexes can't be read has keyKnown false.
func committedTables(data []byte) (map[string]format.CommittedTable, bool) {
	if data == nil {
		return nil, false
	}
	var tmpl struct {
		Resources map[string]struct {
			Type       string    `yaml:"Type"`
			Properties yaml.Node `yaml:"Properties"`
		} `yaml:"Resources"`
	}
	if err := yaml.Unmarshal(data, &tmpl); err != nil || tmpl.Resources == nil {
		return nil, false
	}
	type keyElem struct {
		AttributeName string `yaml:"AttributeName"`
		KeyType       string `yaml:"KeyType"`
	}
	keys := func(ks []keyElem) []format.CommittedKey {
		out := []format.CommittedKey{}
		for _, k := range ks {
			out = append(out, format.CommittedKey{Name: k.AttributeName, Role: k.KeyType})
		}
		return out
	}
	out := map[string]format.CommittedTable{}
	for id, r := range tmpl.Resources {
		if r.Type != "AWS::DynamoDB::Table" {
			continue
		}
		var gsis struct {
			GlobalSecondaryIndexes []struct {
				IndexName string `yaml:"IndexName"`
			} `yaml:"GlobalSecondaryIndexes"`
		}
		if err := r.Properties.Decode(&gsis); err != nil && r.Properties.Kind != 0 {
			return nil, false
		}
		t := format.CommittedTable{GSIs: []string{}}
		for _, g := range gsis.GlobalSecondaryIndexes {
			t.GSIs = append(t.GSIs, g.IndexName)
		}
		var props struct {
			AttributeDefinitions []struct {
				AttributeName string `yaml:"AttributeName"`
				AttributeType string `yaml:"AttributeType"`
			} `yaml:"AttributeDefinitions"`
			KeySchema             []keyElem `yaml:"KeySchema"`
			LocalSecondaryIndexes []struct {
				IndexName  string    `yaml:"IndexName"`
				KeySchema  []keyElem `yaml:"KeySchema"`
				Projection struct {
					ProjectionType   string   `yaml:"ProjectionType"`
					NonKeyAttributes []string `yaml:"NonKeyAttributes"`
				} `yaml:"Projection"`
			} `yaml:"LocalSecondaryIndexes"`
		}
		if r.Properties.Decode(&props) == nil && len(props.KeySchema) > 0 {
			types := map[string]string{}
			for _, a := range props.AttributeDefinitions {
				types[a.AttributeName] = a.AttributeType
			}
			t.KeyKnown = true
			t.Key = format.WithTypes(keys(props.KeySchema), types)
			for _, l := range props.LocalSecondaryIndexes {
				nonKey := slices.Clone(l.Projection.NonKeyAttributes)
				slices.Sort(nonKey)
				t.LSIs = append(t.LSIs, format.CommittedLSI{Name: l.IndexName, Key: format.WithTypes(keys(l.KeySchema), types), Projection: l.Projection.ProjectionType, NonKey: nonKey})
			}
		}
		out[id] = t
	}
	return out, true
}

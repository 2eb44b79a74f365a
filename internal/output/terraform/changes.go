package terraform

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/dyngen/dyngen/internal/diag"
	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/output/format"
	"github.com/dyngen/dyngen/internal/plan"
)

// Changes warns, at the table in the spec, of each table whose
// definition in the plan differs from the committed Terraform
// configuration (the file o names as an earlier generation left it,
// which is presumably what is deployed) in a way that deploying fails at
// or that loses the table's items: its key schema (partition or sort
// key, by name or type) or its local secondary indexes changed.
// Terraform destroys and re-creates the table (for a changed name or
// index) or keeps the old key type (for a changed type alone). Its AWS
// provider deletes, then creates, global secondary indexes one
// UpdateTable at a time, so they are not warned of.
//
// A table is matched by its resource name, an index by its name. A
// committed file that can't be read as a configuration is not compared:
// the generation replaces it.
func Changes(p *plan.Plan, o *model.Output, committed format.Committed, diags *diag.List) {
	format.WarnChanges(p, o, committed, committedTables, ResourceName, tableChanges, diags)
}

// tableChanges warns of the changes of table d since the committed
// Terraform configuration file.
func tableChanges(d *plan.TableDef, had format.CommittedTable, file string, diags *diag.List) {
	what, typeOnly := format.ReplacingChanges(d, had)
	if len(what) == 0 {
		return
	}
	names := TableNamesOf(d.Table)
	if typeOnly {
		diags.Warnf(d.Table.Pos, "table %s changes since the committed %s: %s. Terraform does not apply that: the AWS provider plans no change for a new attribute type, so the deployed table keeps its key types, which the Store's requests no longer fit (they fail). Create the table anew under another name (%s, or a new table in the spec) and copy the items over (a migration); or keep the key types as they were",
			d.Table.Name, file, strings.Join(what, "; "), names.NameVar)
		return
	}
	diags.Warnf(d.Table.Pos, "table %s changes since the committed %s: %s. Terraform destroys the table and creates it anew, empty: its items are lost (with %s on, the apply fails instead). To keep the items, make the changed table a new table (a new table in the spec, or a copy of the resource under another %s), copy the items over (a migration), then remove the old one; or keep the table's key and local indexes as they were",
		d.Table.Name, file, strings.Join(what, "; "), names.DeletionProtectionVar, names.NameVar)
}

// tfUnescaper reads a Terraform template string back as the spec's
// string (the reverse of tfEscaper).
var tfUnescaper = strings.NewReplacer("$${", "${", "%%{", "%{")

// tfBlocks decodes a Terraform JSON block argument, a list of objects
// or one object; it reports false when raw is neither.
func tfBlocks[T any](raw json.RawMessage) ([]T, bool) {
	if len(raw) == 0 {
		return nil, true
	}
	var list []T
	if err := json.Unmarshal(raw, &list); err == nil {
		return list, true
	}
	var one T
	if err := json.Unmarshal(raw, &one); err != nil {
		return nil, false
	}
	return []T{one}, true
}

// committedTables reads a Terraform JSON configuration: each
// aws_dynamodb_table resource, by resource name. It reports false when
// data is nil or not such a configuration. A table whose keys,
// attributes or local indexes can't be read has keyKnown false.
func committedTables(data []byte) (map[string]format.CommittedTable, bool) {
	if data == nil {
		return nil, false
	}
	var conf struct {
		Resource struct {
			Tables map[string]struct {
				GSI      json.RawMessage `json:"global_secondary_index"`
				HashKey  *string         `json:"hash_key"`
				RangeKey *string         `json:"range_key"`
				Attr     json.RawMessage `json:"attribute"`
				LSI      json.RawMessage `json:"local_secondary_index"`
			} `json:"aws_dynamodb_table"`
		} `json:"resource"`
	}
	if err := json.Unmarshal(data, &conf); err != nil || conf.Resource.Tables == nil {
		return nil, false
	}
	type gsiBlock struct {
		Name string `json:"name"`
	}
	type attrBlock struct {
		Name string `json:"name"`
		Type string `json:"type"`
	}
	type lsiBlock struct {
		Name       string   `json:"name"`
		RangeKey   string   `json:"range_key"`
		Projection string   `json:"projection_type"`
		NonKey     []string `json:"non_key_attributes"`
	}
	out := map[string]format.CommittedTable{}
	for name, r := range conf.Resource.Tables {
		gsis, ok := tfBlocks[gsiBlock](r.GSI)
		if !ok {
			return nil, false
		}
		t := format.CommittedTable{GSIs: []string{}}
		for _, g := range gsis {
			t.GSIs = append(t.GSIs, tfUnescaper.Replace(g.Name))
		}
		attrs, aok := tfBlocks[attrBlock](r.Attr)
		lsis, lok := tfBlocks[lsiBlock](r.LSI)
		if r.HashKey != nil && aok && lok {
			types := map[string]string{}
			for _, a := range attrs {
				types[tfUnescaper.Replace(a.Name)] = a.Type
			}
			hash := format.CommittedKey{Name: tfUnescaper.Replace(*r.HashKey), Role: "HASH"}
			t.KeyKnown = true
			t.Key = []format.CommittedKey{hash}
			if r.RangeKey != nil {
				t.Key = append(t.Key, format.CommittedKey{Name: tfUnescaper.Replace(*r.RangeKey), Role: "RANGE"})
			}
			t.Key = format.WithTypes(t.Key, types)
			for _, l := range lsis {
				nonKey := []string{}
				for _, a := range l.NonKey {
					nonKey = append(nonKey, tfUnescaper.Replace(a))
				}
				slices.Sort(nonKey)
				key := format.WithTypes([]format.CommittedKey{hash, {Name: tfUnescaper.Replace(l.RangeKey), Role: "RANGE"}}, types)
				t.LSIs = append(t.LSIs, format.CommittedLSI{Name: tfUnescaper.Replace(l.Name), Key: key, Projection: l.Projection, NonKey: nonKey})
			}
		}
		out[name] = t
	}
	return out, true
}

package output

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/dyngen/dyngen/internal/diag"
	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/plan"
	"go.yaml.in/yaml/v3"
)

// Committed gives the bytes of an output file as an earlier generation
// left it in the output directory, or nil when there is none.
type Committed func(name string) []byte

// committedTable is a table as a committed CloudFormation or Terraform
// output declares it: what TableChanges compares with the plan.
type committedTable struct {
	// gsis are the names of the global secondary indexes.
	gsis []string
	// key is the table's key schema, and lsis its local secondary
	// indexes; keyKnown is false when the file's table could not be
	// read that far (its key is then not compared).
	key      []committedKey
	lsis     []committedLSI
	keyKnown bool
}

// committedKey is one element of a committed key schema: the attribute,
// its type (S, N, B; "" when the file defines none) and its role.
type committedKey struct {
	Name, Type, Role string
}

// committedLSI is a committed local secondary index: its name, key
// schema, projection type and non-key attributes (sorted).
type committedLSI struct {
	Name       string
	Key        []committedKey
	Projection string
	NonKey     []string
}

// TableChanges warns, at the table in the spec, of each table whose
// definition in the plan differs from the committed CloudFormation or
// Terraform output (the file an earlier generation left, which is
// presumably what is deployed) in a way that deploying fails at or that
// loses the table's items:
//
//   - its key schema (partition or sort key, by name or type) or its
//     local secondary indexes changed: CloudFormation replaces the table
//     (and refuses to while its custom TableName stays), Terraform
//     destroys and re-creates it (for a changed name or index) or keeps
//     the old key type (for a changed type alone);
//   - in the CloudFormation output, its global secondary indexes gain
//     and lose more than one in all: CloudFormation creates or deletes
//     one per update (DynamoDB's UpdateTable) and fails on more.
//     Terraform's AWS provider deletes, then creates, them one
//     UpdateTable at a time, so it is not warned of.
//
// Only the outputs the spec asks for are read, at their file names; a
// table is matched by its logical ID (CloudFormation) or resource name
// (Terraform), an index by its name. A committed file that can't be
// read as its format is not compared: the generation replaces it.
func TableChanges(p *plan.Plan, committed Committed, diags *diag.List) {
	if o := p.Model.Output(model.CloudFormation); o != nil {
		if tables, ok := cloudFormationTables(committed(o.File)); ok {
			for _, d := range p.Tables {
				if had, ok := tables[d.Table.CloudFormationID()]; ok {
					cfTableChanges(d, had, o.File, diags)
				}
			}
		}
	}
	if o := p.Model.Output(model.Terraform); o != nil {
		if tables, ok := terraformTables(committed(o.File)); ok {
			for _, d := range p.Tables {
				if had, ok := tables[d.Table.TerraformName()]; ok {
					tfTableChanges(d, had, o.File, diags)
				}
			}
		}
	}
}

// cfTableChanges warns of the changes of table d since the committed
// CloudFormation template file.
func cfTableChanges(d *plan.TableDef, had committedTable, file string, diags *diag.List) {
	ids := d.Table.CloudFormationIDs()
	if what, _ := replacingChanges(d, had); len(what) > 0 {
		diags.Warnf(d.Table.Pos, "table %s changes since the committed %s: %s. CloudFormation replaces a table whose key schema, key attribute types or local secondary indexes change, and refuses to replace one of a custom TableName: with %s unchanged, deploying fails; with a new %s, it creates a new, empty table and leaves the old one with its items out of the stack (UpdateReplacePolicy: Retain). To keep the items, deploy the change as a new table (a new %s, or a new table in the spec) and copy the items over (a migration); or keep the table's key and local indexes as they were",
			d.Table.Name, file, strings.Join(what, "; "), ids.Name, ids.Name, ids.Name)
		return // a replaced table is created with all its indexes
	}
	var added, removed []string
	for _, ix := range d.Global {
		if !slices.Contains(had.gsis, ix.Name) {
			added = append(added, ix.Name)
		}
	}
	for _, n := range had.gsis {
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

// tfTableChanges warns of the changes of table d since the committed
// Terraform configuration file.
func tfTableChanges(d *plan.TableDef, had committedTable, file string, diags *diag.List) {
	what, typeOnly := replacingChanges(d, had)
	if len(what) == 0 {
		return
	}
	names := d.Table.TerraformNames()
	if typeOnly {
		diags.Warnf(d.Table.Pos, "table %s changes since the committed %s: %s. Terraform does not apply that: the AWS provider plans no change for a new attribute type, so the deployed table keeps its key types, which the Store's requests no longer fit (they fail). Create the table anew under another name (%s, or a new table in the spec) and copy the items over (a migration); or keep the key types as they were",
			d.Table.Name, file, strings.Join(what, "; "), names.NameVar)
		return
	}
	diags.Warnf(d.Table.Pos, "table %s changes since the committed %s: %s. Terraform destroys the table and creates it anew, empty: its items are lost (with %s on, the apply fails instead). To keep the items, make the changed table a new table (a new table in the spec, or a copy of the resource under another %s), copy the items over (a migration), then remove the old one; or keep the table's key and local indexes as they were",
		d.Table.Name, file, strings.Join(what, "; "), names.DeletionProtectionVar, names.NameVar)
}

// replacingChanges describes the changes of table d's key schema, key
// attribute types and local secondary indexes since had, the committed
// table; typeOnly reports that only key attribute types changed.
func replacingChanges(d *plan.TableDef, had committedTable) (what []string, typeOnly bool) {
	if !had.keyKnown {
		return nil, false
	}
	named := false
	role := map[string]string{"HASH": "partition key", "RANGE": "sort key"}
	want := keyOf(d.Key)
	for _, r := range []string{"HASH", "RANGE"} {
		w, wok := keyRole(want, r)
		h, hok := keyRole(had.key, r)
		switch {
		case !wok && !hok:
		case !hok:
			named = true
			what = append(what, fmt.Sprintf("gains the %s %s", role[r], w))
		case !wok:
			named = true
			what = append(what, fmt.Sprintf("loses the %s %s", role[r], h))
		case w.Name != h.Name:
			named = true
			what = append(what, fmt.Sprintf("%s %s becomes %s", role[r], h, w))
		case h.Type != "" && w.Type != h.Type:
			what = append(what, fmt.Sprintf("%s %s becomes %s", role[r], h, w))
		}
	}
	for _, ix := range d.Local {
		i := slices.IndexFunc(had.lsis, func(l committedLSI) bool { return l.Name == ix.Name })
		if i < 0 {
			named = true
			what = append(what, "gains the local secondary index "+ix.Name)
			continue
		}
		if w := lsiOf(ix); !lsiEqual(w, had.lsis[i]) {
			named = true
			what = append(what, fmt.Sprintf("local secondary index %s changes (%s becomes %s)", ix.Name, had.lsis[i], w))
		}
	}
	for _, l := range had.lsis {
		if !slices.ContainsFunc(d.Local, func(ix *model.Index) bool { return ix.Name == l.Name }) {
			named = true
			what = append(what, "loses the local secondary index "+l.Name)
		}
	}
	return what, len(what) > 0 && !named
}

// String describes a key element: its name and type.
func (k committedKey) String() string {
	if k.Type == "" {
		return k.Name
	}
	return k.Name + " (" + k.Type + ")"
}

// String describes a local secondary index: its sort key and projection.
func (l committedLSI) String() string {
	s := "no sort key"
	if k, ok := keyRole(l.Key, "RANGE"); ok {
		s = "sort key " + k.String()
	}
	s += ", projection " + l.Projection
	if len(l.NonKey) > 0 {
		s += " " + strings.Join(l.NonKey, ", ")
	}
	return s
}

// keyOf is the key schema of ix with its attributes' types.
func keyOf(ix *model.Index) []committedKey {
	var out []committedKey
	for i, k := range plan.KeySchema(ix) {
		out = append(out, committedKey{k.Name, string(ix.KeyAttrs()[i].Type), k.Type})
	}
	return out
}

// keyRole returns the element of role r (HASH or RANGE) of key.
func keyRole(key []committedKey, r string) (committedKey, bool) {
	i := slices.IndexFunc(key, func(k committedKey) bool { return k.Role == r })
	if i < 0 {
		return committedKey{}, false
	}
	return key[i], true
}

// lsiOf is the local secondary index ix as a committed file holds it.
func lsiOf(ix *model.Index) committedLSI {
	typ, nonKey := plan.Projection(ix)
	nonKey = slices.Clone(nonKey)
	slices.Sort(nonKey)
	return committedLSI{Name: ix.Name, Key: keyOf(ix), Projection: typ, NonKey: nonKey}
}

// lsiEqual reports whether the local secondary index w (the plan's) is
// h (the committed one): its sort key (and type, when h's is known),
// projection and non-key attributes. The partition key is the table's.
func lsiEqual(w, h committedLSI) bool {
	ws, wok := keyRole(w.Key, "RANGE")
	hs, hok := keyRole(h.Key, "RANGE")
	if wok != hok || ws.Name != hs.Name || hs.Type != "" && ws.Type != hs.Type {
		return false
	}
	return w.Projection == h.Projection && slices.Equal(w.NonKey, h.NonKey)
}

// withTypes sets the type of each key element from types (by name).
func withTypes(key []committedKey, types map[string]string) []committedKey {
	for i := range key {
		key[i].Type = types[key[i].Name]
	}
	return key
}

// cloudFormationTables reads a CloudFormation template: each
// AWS::DynamoDB::Table, by logical ID. It reports false when data is
// nil or not such a template. A table whose key schema, attribute
// definitions or local indexes can't be read has keyKnown false.
func cloudFormationTables(data []byte) (map[string]committedTable, bool) {
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
	keys := func(ks []keyElem) []committedKey {
		out := []committedKey{}
		for _, k := range ks {
			out = append(out, committedKey{Name: k.AttributeName, Role: k.KeyType})
		}
		return out
	}
	out := map[string]committedTable{}
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
		t := committedTable{gsis: []string{}}
		for _, g := range gsis.GlobalSecondaryIndexes {
			t.gsis = append(t.gsis, g.IndexName)
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
			t.keyKnown = true
			t.key = withTypes(keys(props.KeySchema), types)
			for _, l := range props.LocalSecondaryIndexes {
				nonKey := slices.Clone(l.Projection.NonKeyAttributes)
				slices.Sort(nonKey)
				t.lsis = append(t.lsis, committedLSI{Name: l.IndexName, Key: withTypes(keys(l.KeySchema), types), Projection: l.Projection.ProjectionType, NonKey: nonKey})
			}
		}
		out[id] = t
	}
	return out, true
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

// terraformTables reads a Terraform JSON configuration: each
// aws_dynamodb_table resource, by resource name. It reports false when
// data is nil or not such a configuration. A table whose keys,
// attributes or local indexes can't be read has keyKnown false.
func terraformTables(data []byte) (map[string]committedTable, bool) {
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
	out := map[string]committedTable{}
	for name, r := range conf.Resource.Tables {
		gsis, ok := tfBlocks[gsiBlock](r.GSI)
		if !ok {
			return nil, false
		}
		t := committedTable{gsis: []string{}}
		for _, g := range gsis {
			t.gsis = append(t.gsis, tfUnescaper.Replace(g.Name))
		}
		attrs, aok := tfBlocks[attrBlock](r.Attr)
		lsis, lok := tfBlocks[lsiBlock](r.LSI)
		if r.HashKey != nil && aok && lok {
			types := map[string]string{}
			for _, a := range attrs {
				types[tfUnescaper.Replace(a.Name)] = a.Type
			}
			hash := committedKey{Name: tfUnescaper.Replace(*r.HashKey), Role: "HASH"}
			t.keyKnown = true
			t.key = []committedKey{hash}
			if r.RangeKey != nil {
				t.key = append(t.key, committedKey{Name: tfUnescaper.Replace(*r.RangeKey), Role: "RANGE"})
			}
			t.key = withTypes(t.key, types)
			for _, l := range lsis {
				nonKey := []string{}
				for _, a := range l.NonKey {
					nonKey = append(nonKey, tfUnescaper.Replace(a))
				}
				slices.Sort(nonKey)
				key := withTypes([]committedKey{hash, {Name: tfUnescaper.Replace(l.RangeKey), Role: "RANGE"}}, types)
				t.lsis = append(t.lsis, committedLSI{Name: tfUnescaper.Replace(l.Name), Key: key, Projection: l.Projection, NonKey: nonKey})
			}
		}
		out[name] = t
	}
	return out, true
}

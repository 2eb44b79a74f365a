package output

import (
	"encoding/json"
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

// GSIChanges warns of each table whose global secondary indexes, in the
// plan, differ from those of the committed CloudFormation or Terraform
// output by more than one index added or removed: DynamoDB creates or
// deletes one global secondary index per UpdateTable, and neither
// CloudFormation nor Terraform splits the update, so deploying it fails.
// Only the outputs the spec asks for are read, at their file names; a
// table is matched by its logical ID (CloudFormation) or resource name
// (Terraform), an index by its name. A committed file that can't be
// read as its format is not compared: the generation replaces it.
func GSIChanges(p *plan.Plan, committed Committed, diags *diag.List) {
	type source struct {
		file, tool string
		gsis       map[string][]string // by table key
		key        func(*model.Table) string
	}
	var sources []source
	if o := p.Model.Output(model.CloudFormation); o != nil {
		if gsis, ok := cloudFormationGSIs(committed(o.File)); ok {
			sources = append(sources, source{o.File, "CloudFormation", gsis, (*model.Table).CloudFormationID})
		}
	}
	if o := p.Model.Output(model.Terraform); o != nil {
		if gsis, ok := terraformGSIs(committed(o.File)); ok {
			sources = append(sources, source{o.File, "Terraform", gsis, (*model.Table).TerraformName})
		}
	}
	for _, d := range p.Tables {
		var want []string
		for _, ix := range d.Global {
			want = append(want, ix.Name)
		}
		// The files that show one change are named in one warning.
		type change struct {
			added, removed []string
			files, tools   []string
		}
		var changes []*change
		for _, s := range sources {
			had, ok := s.gsis[s.key(d.Table)]
			if !ok {
				continue // a new table: created with its indexes
			}
			c := &change{}
			for _, n := range want {
				if !slices.Contains(had, n) {
					c.added = append(c.added, n)
				}
			}
			for _, n := range had {
				if !slices.Contains(want, n) {
					c.removed = append(c.removed, n)
				}
			}
			if len(c.added)+len(c.removed) <= 1 {
				continue
			}
			i := slices.IndexFunc(changes, func(o *change) bool {
				return slices.Equal(o.added, c.added) && slices.Equal(o.removed, c.removed)
			})
			if i < 0 {
				changes = append(changes, c)
				i = len(changes) - 1
			}
			changes[i].files = append(changes[i].files, s.file)
			changes[i].tools = append(changes[i].tools, s.tool)
		}
		for _, c := range changes {
			var what []string
			if len(c.added) > 0 {
				what = append(what, "gains global secondary indexes "+strings.Join(c.added, ", "))
			}
			if len(c.removed) > 0 {
				what = append(what, "loses "+strings.Join(c.removed, ", "))
			}
			verb := "creates or deletes"
			if len(c.tools) > 1 {
				verb = "create or delete"
			}
			if len(c.added) == 0 {
				what[0] = "loses global secondary indexes " + strings.Join(c.removed, ", ")
			}
			diags.Warnf(d.Table.Pos, "table %s %s since the committed %s: %s %s one global secondary index per update (DynamoDB's UpdateTable), so deploying the %d changes at once fails; deploy in steps, one index added or removed in each (generate and deploy with one change, then the next)",
				d.Table.Name, strings.Join(what, " and "), strings.Join(c.files, " and "), strings.Join(c.tools, " and "), verb, len(c.added)+len(c.removed))
		}
	}
}

// cloudFormationGSIs reads a CloudFormation template: the index names of
// each AWS::DynamoDB::Table's GlobalSecondaryIndexes, by logical ID. It
// reports false when data is nil or not such a template.
func cloudFormationGSIs(data []byte) (map[string][]string, bool) {
	if data == nil {
		return nil, false
	}
	var tmpl struct {
		Resources map[string]struct {
			Type       string `yaml:"Type"`
			Properties struct {
				GlobalSecondaryIndexes []struct {
					IndexName string `yaml:"IndexName"`
				} `yaml:"GlobalSecondaryIndexes"`
			} `yaml:"Properties"`
		} `yaml:"Resources"`
	}
	if err := yaml.Unmarshal(data, &tmpl); err != nil || tmpl.Resources == nil {
		return nil, false
	}
	out := map[string][]string{}
	for id, r := range tmpl.Resources {
		if r.Type != "AWS::DynamoDB::Table" {
			continue
		}
		names := []string{}
		for _, g := range r.Properties.GlobalSecondaryIndexes {
			names = append(names, g.IndexName)
		}
		out[id] = names
	}
	return out, true
}

// terraformGSIs reads a Terraform JSON configuration: the names of each
// aws_dynamodb_table resource's global_secondary_index blocks (a list of
// objects, or one object), by resource name. It reports false when data
// is nil or not such a configuration.
func terraformGSIs(data []byte) (map[string][]string, bool) {
	if data == nil {
		return nil, false
	}
	var conf struct {
		Resource struct {
			Tables map[string]struct {
				GSI json.RawMessage `json:"global_secondary_index"`
			} `json:"aws_dynamodb_table"`
		} `json:"resource"`
	}
	if err := json.Unmarshal(data, &conf); err != nil || conf.Resource.Tables == nil {
		return nil, false
	}
	type block struct {
		Name string `json:"name"`
	}
	out := map[string][]string{}
	for name, t := range conf.Resource.Tables {
		var blocks []block
		if len(t.GSI) > 0 {
			if err := json.Unmarshal(t.GSI, &blocks); err != nil {
				var one block
				if err := json.Unmarshal(t.GSI, &one); err != nil {
					return nil, false
				}
				blocks = []block{one}
			}
		}
		names := []string{}
		for _, b := range blocks {
			names = append(names, b.Name)
		}
		out[name] = names
	}
	return out, true
}

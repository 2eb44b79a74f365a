// Package createtable is the createTable output: per table, the input of
// `aws dynamodb create-table --cli-input-json` (<table>.create-table.json),
// and of `aws dynamodb update-time-to-live --cli-input-json` for a table
// with a ttl (<table>.update-time-to-live.json).
package createtable

import (
	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/output/format"
	"github.com/dyngen/dyngen/internal/plan"
)

// The create-table input, as `aws dynamodb create-table --cli-input-json`
// reads it: the keys and their order are those of the command's
// --generate-cli-skeleton.
type (
	cliCreateTable struct {
		AttributeDefinitions   []cliAttribute `json:"AttributeDefinitions"`
		TableName              string         `json:"TableName"`
		KeySchema              []cliKey       `json:"KeySchema"`
		LocalSecondaryIndexes  []cliIndex     `json:"LocalSecondaryIndexes,omitempty"`
		GlobalSecondaryIndexes []cliIndex     `json:"GlobalSecondaryIndexes,omitempty"`
		BillingMode            string         `json:"BillingMode"`
		StreamSpecification    *cliStream     `json:"StreamSpecification,omitempty"`
	}
	cliStream struct {
		StreamEnabled  bool   `json:"StreamEnabled"`
		StreamViewType string `json:"StreamViewType"`
	}
	cliAttribute struct {
		AttributeName string `json:"AttributeName"`
		AttributeType string `json:"AttributeType"`
	}
	cliKey struct {
		AttributeName string `json:"AttributeName"`
		KeyType       string `json:"KeyType"`
	}
	cliIndex struct {
		IndexName  string        `json:"IndexName"`
		KeySchema  []cliKey      `json:"KeySchema"`
		Projection cliProjection `json:"Projection"`
	}
	cliProjection struct {
		ProjectionType   string   `json:"ProjectionType"`
		NonKeyAttributes []string `json:"NonKeyAttributes,omitempty"`
	}
	cliTimeToLive struct {
		TableName               string     `json:"TableName"`
		TimeToLiveSpecification cliTTLSpec `json:"TimeToLiveSpecification"`
	}
	cliTTLSpec struct {
		Enabled       bool   `json:"Enabled"`
		AttributeName string `json:"AttributeName"`
	}
)

// CreateTableFile is the create-table input of table t.
func CreateTableFile(t *model.Table) string { return t.Name + ".create-table.json" }

// TimeToLiveFile is the update-time-to-live input of table t, when t has
// a ttl.
func TimeToLiveFile(t *model.Table) string { return t.Name + ".update-time-to-live.json" }

// Files names the files of table t, with what each comes from: its
// create-table input, and its update-time-to-live input when it has a
// ttl.
func Files(t *model.Table) []model.GenName {
	out := []model.GenName{{Name: CreateTableFile(t), From: "the create-table input of table " + t.Name, Pos: t.Pos, Fix: "rename the table"}}
	if t.TTL != "" {
		out = append(out, model.GenName{Name: TimeToLiveFile(t), From: "the update-time-to-live input of table " + t.Name, Pos: t.Pos, Fix: "rename the table"})
	}
	return out
}

// Render renders, per table, the input of `aws dynamodb
// create-table --cli-input-json`, and of `aws dynamodb
// update-time-to-live --cli-input-json` for a table with a ttl. The
// table names are the spec's.
func Render(p *plan.Plan, _ *model.Output, _ format.Source) ([]format.File, error) {
	var out []format.File
	for _, d := range p.Tables {
		in := cliCreateTable{TableName: d.Table.Name, KeySchema: cliKeys(d.Key), BillingMode: plan.Billing}
		for _, a := range d.Attributes {
			in.AttributeDefinitions = append(in.AttributeDefinitions, cliAttribute{a.Name, string(a.Type)})
		}
		for _, ix := range d.Local {
			in.LocalSecondaryIndexes = append(in.LocalSecondaryIndexes, cliIndexOf(ix))
		}
		for _, ix := range d.Global {
			in.GlobalSecondaryIndexes = append(in.GlobalSecondaryIndexes, cliIndexOf(ix))
		}
		if d.Stream != "" {
			in.StreamSpecification = &cliStream{true, d.Stream}
		}
		data, err := format.JSON(in)
		if err != nil {
			return nil, err
		}
		out = append(out, format.File{Name: CreateTableFile(d.Table), Data: data})
		if d.TTL == "" {
			continue
		}
		data, err = format.JSON(cliTimeToLive{d.Table.Name, cliTTLSpec{true, d.TTL}})
		if err != nil {
			return nil, err
		}
		out = append(out, format.File{Name: TimeToLiveFile(d.Table), Data: data})
	}
	return out, nil
}

func cliKeys(ix *model.Index) []cliKey {
	var out []cliKey
	for _, k := range plan.KeySchema(ix) {
		out = append(out, cliKey{k.Name, k.Type})
	}
	return out
}

func cliIndexOf(ix *model.Index) cliIndex {
	typ, nonKey := plan.Projection(ix)
	return cliIndex{IndexName: ix.Name, KeySchema: cliKeys(ix), Projection: cliProjection{typ, nonKey}}
}

// Package workbench is the workbench output (workbench.json): a NoSQL
// Workbench data model of the tables, with a facet per entity and a
// sample item of each (samples.go), whose values pass the generated
// package's own rules.
package workbench

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"github.com/dyngen/dyngen/internal/diag"

	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/output/format"
	"github.com/dyngen/dyngen/internal/plan"
)

// The NoSQL Workbench data model, format 3.0: the keys and their order
// are those of the models NoSQL Workbench exports (see
// testdata/workbench.schema.json, written from them).
type (
	wbModel struct {
		ModelName     string     `json:"ModelName"`
		ModelMetadata wbMetadata `json:"ModelMetadata"`
		DataModel     []wbTable  `json:"DataModel"`
	}
	wbMetadata struct {
		Author           string `json:"Author"`
		DateCreated      string `json:"DateCreated"`
		DateLastModified string `json:"DateLastModified"`
		Description      string `json:"Description"`
		AWSService       string `json:"AWSService"`
		Version          string `json:"Version"`
	}
	wbTable struct {
		TableName              string        `json:"TableName"`
		KeyAttributes          wbKeys        `json:"KeyAttributes"`
		NonKeyAttributes       []wbAttribute `json:"NonKeyAttributes"`
		TableFacets            []wbFacet     `json:"TableFacets"`
		GlobalSecondaryIndexes []wbIndex     `json:"GlobalSecondaryIndexes,omitempty"`
		DataAccess             wbDataAccess  `json:"DataAccess"`
		BillingMode            string        `json:"BillingMode"`
	}
	wbKeys struct {
		PartitionKey wbAttribute  `json:"PartitionKey"`
		SortKey      *wbAttribute `json:"SortKey,omitempty"`
	}
	wbAttribute struct {
		AttributeName string `json:"AttributeName"`
		AttributeType string `json:"AttributeType"`
	}
	wbFacet struct {
		FacetName         string       `json:"FacetName"`
		KeyAttributeAlias wbAlias      `json:"KeyAttributeAlias"`
		TableData         []wbItem     `json:"TableData"`
		NonKeyAttributes  []string     `json:"NonKeyAttributes"`
		DataAccess        wbDataAccess `json:"DataAccess"`
	}
	wbAlias struct {
		PartitionKeyAlias string `json:"PartitionKeyAlias"`
		SortKeyAlias      string `json:"SortKeyAlias,omitempty"`
	}
	wbIndex struct {
		IndexName     string       `json:"IndexName"`
		KeyAttributes wbKeys       `json:"KeyAttributes"`
		Projection    wbProjection `json:"Projection"`
	}
	wbProjection struct {
		ProjectionType   string   `json:"ProjectionType"`
		NonKeyAttributes []string `json:"NonKeyAttributes,omitempty"`
	}
	// wbDataAccess is where Workbench imports sample data from; the
	// models it exports name MySQL, with no settings.
	wbDataAccess struct {
		MySQL struct{} `json:"MySql"`
	}
)

// WorkbenchDate is the creation and modification date of every model:
// a fixed date, in Workbench's format, so that the file changes only
// when the spec does.
const WorkbenchDate = "Jan 01, 2025, 12:00 AM"

// Render renders the NoSQL Workbench data model: a table per table of
// the plan with its key attributes, global secondary indexes and billing
// (plan.TableDef), and a facet per entity with its key aliases, its
// non-key attributes and a sample item (WorkbenchOf). Local
// secondary indexes are left out: the format has no place for them.
func Render(p *plan.Plan, o *model.Output, _ format.Source) ([]format.File, error) {
	out := wbModel{
		ModelName: p.Model.Package,
		ModelMetadata: wbMetadata{
			Author:           "dyngen",
			DateCreated:      WorkbenchDate,
			DateLastModified: WorkbenchDate,
			Description:      p.Model.Doc,
			AWSService:       "Amazon DynamoDB",
			Version:          "3.0",
		},
		DataModel: []wbTable{},
	}
	for _, d := range p.Tables {
		w, err := WorkbenchOf(d)
		if err != nil {
			return nil, err
		}
		t := wbTable{
			TableName:        d.Table.Name,
			KeyAttributes:    wbKeysOf(d.Key),
			NonKeyAttributes: []wbAttribute{},
			TableFacets:      []wbFacet{},
			BillingMode:      plan.Billing,
		}
		for _, a := range w.NonKey {
			t.NonKeyAttributes = append(t.NonKeyAttributes, wbAttribute{a.Name, a.Type})
		}
		for _, f := range w.Facets {
			t.TableFacets = append(t.TableFacets, wbFacet{
				FacetName:         f.Entity.GoName,
				KeyAttributeAlias: wbAlias{f.PKAlias, f.SKAlias},
				TableData:         []wbItem{f.Item},
				NonKeyAttributes:  append([]string{}, f.NonKey...),
			})
		}
		for _, ix := range d.Global {
			if ix.Multi() {
				continue // the format holds one attribute per key (Check)
			}
			typ, nonKey := plan.Projection(ix)
			t.GlobalSecondaryIndexes = append(t.GlobalSecondaryIndexes, wbIndex{ix.Name, wbKeysOf(ix), wbProjection{typ, nonKey}})
		}
		out.DataModel = append(out.DataModel, t)
	}
	data, err := format.JSON(out)
	if err != nil {
		return nil, err
	}
	return []format.File{{Name: o.File, Data: data}}, nil
}

// Check warns of each index with a multi-attribute key, which the
// model leaves out: NoSQL Workbench's data model gives an index one
// partition key attribute and one sort key attribute (KeyAttributes).
func Check(p *plan.Plan, o *model.Output, diags *diag.List) {
	for _, d := range p.Tables {
		for _, ix := range d.Global {
			if ix.Multi() {
				diags.Warnf(o.Pos, "the NoSQL Workbench model %s leaves out index %s of table %s: its data model holds one partition key and one sort key attribute per index, and %s has a multi-attribute key", o.File, ix.Name, d.Table.Name, ix.Name)
			}
		}
	}
}

// wbKeysOf is the key attributes of ix.
func wbKeysOf(ix *model.Index) wbKeys {
	k := wbKeys{PartitionKey: wbAttribute{ix.PK.Name, string(ix.PK.Type)}}
	if ix.SK != nil {
		k.SortKey = &wbAttribute{ix.SK.Name, string(ix.SK.Type)}
	}
	return k
}

// wbItem is a sample item in DynamoDB's JSON form, its attributes in
// order.
type wbItem []SampleAttr

// MarshalJSON writes the item as a JSON object, its attributes in order.
func (it wbItem) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, a := range it {
		if i > 0 {
			b.WriteByte(',')
		}
		name, err := plainJSON(a.Name)
		if err != nil {
			return nil, err
		}
		val, err := wbValue(a.Value).MarshalJSON()
		if err != nil {
			return nil, err
		}
		b.Write(name)
		b.WriteByte(':')
		b.Write(val)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// wbValue is an attribute value in DynamoDB's JSON form.
type wbValue SampleValue

// MarshalJSON writes the value as DynamoDB's JSON does: an object of
// one member, named by the value's type.
func (v wbValue) MarshalJSON() ([]byte, error) {
	var content any
	switch v.Type {
	case "S", "N":
		content = v.Text
	case "B":
		content = base64.StdEncoding.EncodeToString([]byte(v.Text))
	case "BOOL":
		content = v.Bool
	case "SS", "NS":
		content = v.Set
	case "L":
		l := make([]wbValue, len(v.List))
		for i, e := range v.List {
			l[i] = wbValue(e)
		}
		content = l
	case "M":
		content = wbItem(v.Map)
	}
	return plainJSON(map[string]any{v.Type: content})
}

// plainJSON is v as compact JSON, <, > and & written as they are (as
// format.JSON writes the rest of the file).
func plainJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

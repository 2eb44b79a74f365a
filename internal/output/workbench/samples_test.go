package workbench_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dyngen/dyngen/generator"
	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/output/workbench"
)

const workbenchSpec = `version: 1
package: p
tables:
  Main:
    partitionKey: PK
    sortKey: SK
    indexes:
      GSI1: {partitionKey: GSI1PK, sortKey: GSI1SK}
  Nums:
    partitionKey: {name: n, type: N}
entities:
  Thing:
    table: Main
    attributes:
      id: {type: string, maxLength: 3}
      seq: {type: int, min: 5}
      neg: {type: int, max: -2}
      ratio: {type: float, min: 2.25}
      on: bool
      at: time
      day: {type: time, format: date}
      secs: {type: time, format: unix}
      ms: {type: time, format: unixMilli}
      state: {type: enum, values: [open, shut]}
      where: {type: path, separator: /}
      blob: bytes
      tags: strings
      set: stringSet
      nums: intSet
      meta: map
      doc: {type: document, optional: true}
      note: {type: string, optional: true, attr: Note}
    keys:
      primary: {pk: "T#{id}", sk: "{seq}#{neg}#{on}#{at}#{day}#{secs}#{state}"}
      GSI1: {pk: "W/{where}", sk: "{ms}"}
  Num:
    table: Nums
    attributes:
      n: float
      label: string
patterns:
  GetThing: {get: Thing}
  GetNum: {get: Num}
`

// workbenchOf plans workbenchSpec and returns what the Workbench model
// shows of each table.
func workbenchOf(t *testing.T) []*workbench.Workbench {
	t.Helper()
	res := generator.Check("spec.yaml", []byte(workbenchSpec))
	if err := res.Diags.Err(); err != nil {
		t.Fatal(err)
	}
	var out []*workbench.Workbench
	for _, d := range res.Plan.Tables {
		w, err := workbench.WorkbenchOf(d)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, w)
	}
	return out
}

// show writes a sample value as DynamoDB JSON would, shortly.
func show(v workbench.SampleValue) string {
	switch v.Type {
	case "BOOL":
		return fmt.Sprintf("BOOL:%v", v.Bool)
	case "L":
		var parts []string
		for _, e := range v.List {
			parts = append(parts, show(e))
		}
		return "L:[" + strings.Join(parts, ",") + "]"
	case "SS", "NS":
		return v.Type + ":" + strings.Join(v.Set, ",")
	case "M":
		var parts []string
		for _, a := range v.Map {
			parts = append(parts, a.Name+"="+show(a.Value))
		}
		return "M:{" + strings.Join(parts, ",") + "}"
	}
	return v.Type + ":" + v.Text
}

// TestSampleItem checks the sample item of an entity of every attribute
// type: values within the attribute's bounds and length, in its stored
// form, and key attributes in the form the generated key builders write
// (fixed-width numbers and times, the first enum value, the path's
// separator), in the table's index order, before the entity attribute
// and the attributes.
func TestSampleItem(t *testing.T) {
	ws := workbenchOf(t)
	thing := ws[0].Facets[0]
	var got []string
	for _, a := range thing.Item {
		got = append(got, a.Name+" "+show(a.Value))
	}
	want := []string{
		"PK S:T#id1",
		"SK S:0000000000000000005#-9223372036854775806#true#2025-01-02T03:04:05.000000000Z#2025-01-02#0000000001735787045#open",
		"GSI1PK S:W/where1/2",
		"GSI1SK S:0000001735787045000",
		"_type S:Thing",
		"id S:id1",
		"seq N:5",
		"neg N:-2",
		"ratio N:2.25",
		"on BOOL:true",
		"at S:2025-01-02T03:04:05.000000000Z",
		"day S:2025-01-02",
		"secs N:1735787045",
		"ms N:1735787045000",
		"state S:open",
		"where S:where1/2",
		"blob B:blob1",
		"tags L:[S:tags1]",
		"set SS:set1",
		"nums NS:1",
		"meta M:{key=S:value}",
		"doc S:doc1",
		"Note S:note1",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("sample item\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if thing.PKAlias != "T#{id}" || thing.SKAlias != "{seq}#{neg}#{on}#{at}#{day}#{secs}#{state}" {
		t.Errorf("aliases %q, %q", thing.PKAlias, thing.SKAlias)
	}
	if want := "GSI1PK GSI1SK _type id seq neg ratio on at day secs ms state where blob tags set nums meta doc Note"; strings.Join(thing.NonKey, " ") != want {
		t.Errorf("facet attributes %v, want %s", thing.NonKey, want)
	}
	var table []string
	for _, a := range ws[0].NonKey {
		table = append(table, a.Name+":"+a.Type)
	}
	if want := "GSI1PK:S GSI1SK:S _type:S id:S seq:N neg:N ratio:N on:BOOL at:S day:S secs:N ms:N state:S where:S blob:B tags:L set:SS nums:NS meta:M doc:S Note:S"; strings.Join(table, " ") != want {
		t.Errorf("table attributes %v, want %s", table, want)
	}

	// A natural key of type N: the attribute is the key, its number text
	// the key's value, its name the alias; no sort key alias.
	num := ws[1].Facets[0]
	if len(num.Item) != 3 || num.Item[0].Name != "n" || show(num.Item[0].Value) != "N:1.5" || num.PKAlias != "n" || num.SKAlias != "" {
		t.Errorf("Num: item %v, aliases %q %q", num.Item, num.PKAlias, num.SKAlias)
	}
	if strings.Join(num.NonKey, " ") != "_type label" {
		t.Errorf("Num attributes %v", num.NonKey)
	}
}

// TestKeyValueRefuses checks that a sample the key rules refuse is an
// error, not a key: a value holding a separator of its template, and a
// number key of a string.
func TestKeyValueRefuses(t *testing.T) {
	id := &model.Attribute{Name: "id", Type: model.String}
	tm := &model.Template{Source: "T#{id}", Segments: []model.Segment{{Literal: "T#"}, {Attr: id}}, KeyType: model.S}
	if _, err := workbench.KeyValue(model.S, tm, map[*model.Attribute]workbench.SampleValue{id: {Type: "S", Text: "a#b"}}); err == nil {
		t.Errorf("a value holding the separator # made a key")
	}
	if v, err := workbench.KeyValue(model.S, tm, map[*model.Attribute]workbench.SampleValue{id: {Type: "S", Text: "ab"}}); err != nil || v.Text != "T#ab" {
		t.Errorf("key %q, %v; want T#ab", v.Text, err)
	}
	whole := &model.Template{Source: "{id}", Segments: []model.Segment{{Attr: id}}, KeyType: model.N}
	if _, err := workbench.KeyValue(model.N, whole, map[*model.Attribute]workbench.SampleValue{id: {Type: "S", Text: "ab"}}); err == nil {
		t.Errorf("a string made a number key")
	}
}

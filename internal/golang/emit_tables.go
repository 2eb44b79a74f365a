package golang

import (
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/plan"
)

// tables emits Table and the Store's Tables: per table, the requests that
// make it under the physical name the Store was given, printed from the
// plan's definition of the table.
func (e *emitter) tables(f *jen.File) {
	comment(f, "Table is the definition of one table of the spec under the physical name a "+
		"Store was given: the requests that make it.")
	f.Type().Id("Table").StructFunc(func(g *jen.Group) {
		comment(g, "Name is the table's name in the spec.")
		g.Id("Name").String()
		comment(g, "Create makes the table, its indexes included, with on-demand billing.")
		g.Id("Create").Op("*").Qual(pathDynamo, "CreateTableInput")
		comment(g, "TimeToLive turns time to live on, on the attribute the spec names, once\nthe table is active; nil when the spec names none.")
		g.Id("TimeToLive").Op("*").Qual(pathDynamo, "UpdateTimeToLiveInput")
	})
	f.Line()
	comment(f, "Tables returns the definition of every table of the spec, in spec order, "+
		"under the physical names s was given; each call returns new values.")
	// A line per setting some tables have, naming them with it.
	for _, note := range []struct {
		label string
		of    func(*plan.TableDef) string
	}{
		{"Time to live", func(d *plan.TableDef) string { return when(d.TTL != "", d.Table.Name+" reads attribute "+d.TTL) }},
		{"Streams", func(d *plan.TableDef) string { return when(d.Stream != "", d.Table.Name+" records "+d.Stream) }},
	} {
		var parts []string
		for _, d := range e.p.Tables {
			if s := note.of(d); s != "" {
				parts = append(parts, s)
			}
		}
		if len(parts) > 0 {
			comment(f, note.label+": "+strings.Join(parts, "; ")+".")
		}
	}
	f.Func().Params(jen.Id("s").Op("*").Id("Store")).Id("Tables").Params().Index().Id("Table").Block(
		jen.Return(jen.Index().Id("Table").ValuesFunc(func(g *jen.Group) {
			for _, d := range e.p.Tables {
				g.Add(e.table(d))
			}
		})),
	)
}

// when is s when ok, else "".
func when(ok bool, s string) string {
	if ok {
		return s
	}
	return ""
}

// table is the Table value of one table.
func (e *emitter) table(d *plan.TableDef) jen.Code {
	name := func() jen.Code { return jen.Qual(pathAWS, "String").Call(jen.Id("s").Dot(d.Table.StoreField())) }
	fields := jen.Dict{
		jen.Id("Name"):   jen.Lit(d.Table.Name),
		jen.Id("Create"): jen.Op("&").Qual(pathDynamo, "CreateTableInput").Values(createTable(d, name())),
	}
	if d.TTL != "" {
		fields[jen.Id("TimeToLive")] = jen.Op("&").Qual(pathDynamo, "UpdateTimeToLiveInput").Values(jen.Dict{
			jen.Id("TableName"): name(),
			jen.Id("TimeToLiveSpecification"): jen.Op("&").Qual(pathTypes, "TimeToLiveSpecification").Values(jen.Dict{
				jen.Id("AttributeName"): jen.Qual(pathAWS, "String").Call(jen.Lit(d.TTL)),
				jen.Id("Enabled"):       jen.Qual(pathAWS, "Bool").Call(jen.True()),
			}),
		})
	}
	return jen.Values(fields)
}

// createTable is the fields of the CreateTableInput of a table named name.
func createTable(d *plan.TableDef, name jen.Code) jen.Dict {
	in := jen.Dict{
		jen.Id("TableName"):   name,
		jen.Id("BillingMode"): jen.Qual(pathTypes, sdkEnum[plan.Billing]),
		jen.Id("AttributeDefinitions"): jen.Index().Qual(pathTypes, "AttributeDefinition").ValuesFunc(func(g *jen.Group) {
			for _, k := range d.Attributes {
				g.Values(jen.Dict{
					jen.Id("AttributeName"): jen.Qual(pathAWS, "String").Call(jen.Lit(k.Name)),
					jen.Id("AttributeType"): jen.Qual(pathTypes, "ScalarAttributeType"+string(k.Type)),
				})
			}
		}),
		jen.Id("KeySchema"): keySchema(d.Key),
	}
	indexes := func(typ string, list []*model.Index) jen.Code {
		return jen.Index().Qual(pathTypes, typ).ValuesFunc(func(g *jen.Group) {
			for _, ix := range list {
				g.Values(jen.Dict{
					jen.Id("IndexName"):  jen.Qual(pathAWS, "String").Call(jen.Lit(ix.Name)),
					jen.Id("KeySchema"):  keySchema(ix),
					jen.Id("Projection"): projection(ix),
				})
			}
		})
	}
	if len(d.Global) > 0 {
		in[jen.Id("GlobalSecondaryIndexes")] = indexes("GlobalSecondaryIndex", d.Global)
	}
	if len(d.Local) > 0 {
		in[jen.Id("LocalSecondaryIndexes")] = indexes("LocalSecondaryIndex", d.Local)
	}
	if d.Stream != "" {
		in[jen.Id("StreamSpecification")] = jen.Op("&").Qual(pathTypes, "StreamSpecification").Values(jen.Dict{
			jen.Id("StreamEnabled"):  jen.Qual(pathAWS, "Bool").Call(jen.True()),
			jen.Id("StreamViewType"): jen.Qual(pathTypes, streamEnum[d.Stream]),
		})
	}
	return in
}

func keySchema(ix *model.Index) jen.Code {
	return jen.Index().Qual(pathTypes, "KeySchemaElement").ValuesFunc(func(g *jen.Group) {
		for _, k := range plan.KeySchema(ix) {
			g.Values(jen.Dict{jen.Id("AttributeName"): jen.Qual(pathAWS, "String").Call(jen.Lit(k.Name)), jen.Id("KeyType"): jen.Qual(pathTypes, sdkEnum[k.Type])})
		}
	})
}

func projection(ix *model.Index) jen.Code {
	typ, nonKey := plan.Projection(ix)
	fields := jen.Dict{jen.Id("ProjectionType"): jen.Qual(pathTypes, sdkEnum[typ])}
	if len(nonKey) > 0 {
		fields[jen.Id("NonKeyAttributes")] = jen.Index().String().ValuesFunc(func(g *jen.Group) {
			for _, a := range nonKey {
				g.Lit(a)
			}
		})
	}
	return jen.Op("&").Qual(pathTypes, "Projection").Values(fields)
}

// streamEnum names the SDK's constant of each stream view type
// (model.StreamViewTypes).
var streamEnum = map[string]string{
	"KEYS_ONLY":          "StreamViewTypeKeysOnly",
	"NEW_IMAGE":          "StreamViewTypeNewImage",
	"OLD_IMAGE":          "StreamViewTypeOldImage",
	"NEW_AND_OLD_IMAGES": "StreamViewTypeNewAndOldImages",
}

// sdkEnum names the SDK's constant of each value of the table definition.
var sdkEnum = map[string]string{
	"HASH":            "KeyTypeHash",
	"RANGE":           "KeyTypeRange",
	"ALL":             "ProjectionTypeAll",
	"KEYS_ONLY":       "ProjectionTypeKeysOnly",
	"INCLUDE":         "ProjectionTypeInclude",
	"PAY_PER_REQUEST": "BillingModePayPerRequest",
}

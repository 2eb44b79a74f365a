package golang

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/plan"
)

// The stream side of the package (streams.go): per table with a stream,
// the description of its items' keys, the decoding of a record into a
// typed change, and per consumer its handler interface, its dispatch and
// its Lambda function. The plan decides (plan.Stream); this prints.

// streamsFile emits streams.go.
func (e *emitter) streamsFile() *jen.File {
	f := e.newFile()
	comment(f, "The operations of a stream record (StreamRecord.Op, and a change's Op).")
	f.Const().DefsFunc(func(g *jen.Group) {
		for _, n := range model.StreamOpConsts {
			g.Id(n).Op("=").Add(rt(n))
		}
	})
	f.Line()
	for _, s := range e.p.Streams {
		e.kinds(f, s)
		e.decodeFunc(f, s)
		for i, it := range s.Items {
			if it.Own == "" {
				e.changeType(f, s, i, it)
			}
		}
		for _, c := range s.Consumers {
			e.consumer(f, s, c)
		}
	}
	return f
}

// kinds emits the variable that tells the items of s apart by their keys.
func (e *emitter) kinds(f *jen.File, s *plan.Stream) {
	commentf(f, "%s tells the items of table %s apart by their keys alone, as the records of its stream (%s) carry them: the entities' key templates, proven apart, and the items dyngen writes for them.", s.Kinds, s.Table.Name, s.Table.Stream)
	f.Var().Id(s.Kinds).Op("=").Index().Add(rt("ItemKind")).ValuesFunc(func(g *jen.Group) {
		for _, it := range s.Items {
			fields := []jen.Code{jen.Id("Entity").Op(":").Lit(it.Entity.GoName)}
			if it.Own != "" {
				fields = append(fields, jen.Id("Own").Op(":").Lit(it.Own))
			}
			var keys []jen.Code
			for _, k := range it.Keys {
				kf := []jen.Code{jen.Id("Attr").Op(":").Lit(k.Attr.Name), jen.Id("Type").Op(":").Lit(string(k.Attr.Type))}
				if k.Pattern != "" {
					kf = append(kf, jen.Id("Pattern").Op(":").Qual("regexp", "MustCompile").Call(jen.Lit(k.Pattern)))
				}
				keys = append(keys, jen.Values(kf...))
			}
			fields = append(fields, jen.Id("Keys").Op(":").Index().Add(rt("KeyShape")).Values(keys...))
			g.Line().Values(fields...)
		}
		g.Line()
	})
	f.Line()
}

// decodeFunc emits the function that decodes a record of s.
func (e *emitter) decodeFunc(f *jen.File, s *plan.Stream) {
	var types []string
	for _, it := range s.Items {
		if it.Own == "" {
			types = append(types, "*"+it.Entity.ChangeType())
		}
	}
	commentf(f, "%s decodes a record of table %s's stream into a change: %s for an item of the entity, told by its keys alone; an *OwnChange for an item dyngen writes for an entity (a unique claim, a counter...); an *UnknownChange for keys of no item this package knows. A change's Old and New hold the item as it was and as written, as far as the record carries them (the stream's view type is %s). The error, for keys of an entity whose item or key does not decode, wraps ErrInvalidItem or ErrInvalidKey.", s.Decode, s.Table.Name, strings.Join(types, ", "), s.Table.Stream)
	f.Func().Id(s.Decode).Params(jen.Id("r").Op("*").Id("StreamRecord")).Params(jen.Id("Change"), jen.Error()).Block(
		jen.Switch(jen.Id("i").Op(":=").Add(rt("KindOf")).Call(jen.Id(s.Kinds), jen.Id("r").Dot("Keys")), jen.Id("i")).BlockFunc(func(g *jen.Group) {
			for i, it := range s.Items {
				if it.Own != "" {
					continue
				}
				trailing(g.Case(jen.Lit(i)), it.Entity.GoName).Line().Return(jen.Id(model.ChangeDecodeFunc(it.Entity)).Call(jen.Id("r")))
			}
			g.Default().Block(jen.Return(rt("OtherChange").Call(jen.Id(s.Kinds), jen.Id("i"), jen.Id("r")), jen.Nil()))
		}),
	)
	f.Line()
}

// changeType emits the change type of an entity of s (the i-th item),
// its Source method, the reading of its key from a record's keys, and its
// decoding.
func (e *emitter) changeType(f *jen.File, s *plan.Stream, i int, it *plan.StreamItem) {
	ent := it.Entity
	name := ent.ChangeType()
	commentf(f, "%s is a change of %s item, decoded from a record of table %s's stream (%s).", name, model.Article(ent.GoName), s.Table.Name, s.Decode)
	f.Type().Id(name).StructFunc(func(g *jen.Group) {
		comment(g, "Op is the operation: OpInsert, OpModify or OpRemove.")
		g.Id("Op").Id("StreamOp")
		comment(g, "Expired is set on a remove by DynamoDB's time to live.")
		g.Id("Expired").Bool()
		comment(g, "Key is the item's primary key, read from the record's keys.")
		g.Id("Key").Id(ent.KeyType())
		comment(g, "Old is the item as it was and New as written; each is nil where the record carries none (an insert's Old, a remove's New, and what the stream's view type leaves out).")
		g.List(jen.Id("Old"), jen.Id("New")).Op("*").Id(ent.GoName)
		comment(g, "Record is the record decoded.")
		g.Id("Record").Op("*").Id("StreamRecord")
	})
	f.Line()
	comment(f, "Source returns the record c was decoded from.")
	f.Func().Params(jen.Id("c").Op("*").Id(name)).Id("Source").Params().Op("*").Id("StreamRecord").Block(jen.Return(jen.Id("c").Dot("Record")))
	f.Line()
	e.streamKeyFunc(f, s, i, it)
	commentf(f, "%s decodes a record whose keys are %s item's.", model.ChangeDecodeFunc(ent), model.Article(ent.GoName))
	f.Func().Id(model.ChangeDecodeFunc(ent)).Params(jen.Id("r").Op("*").Id("StreamRecord")).Params(jen.Op("*").Id(name), jen.Error()).Block(
		jen.List(jen.Id("key"), jen.Err()).Op(":=").Id(model.StreamKeyFunc(ent)).Call(jen.Id("r").Dot("Keys")),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.List(jen.Id("before"), jen.Id("after"), jen.Err()).Op(":=").Add(rt("DecodeImages")).Call(jen.Id("r"), jen.Parens(jen.Op("*").Id(ent.GoName)).Dot("UnmarshalItem")),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.Return(jen.Op("&").Id(name).Values(
			jen.Id("Op").Op(":").Id("r").Dot("Op"),
			jen.Id("Expired").Op(":").Id("r").Dot("Expired"),
			jen.Id("Key").Op(":").Id("key"),
			jen.Id("Old").Op(":").Id("before"),
			jen.Id("New").Op(":").Id("after"),
			jen.Id("Record").Op(":").Id("r"),
		), jen.Nil()),
	)
	f.Line()
}

// streamKeyFunc emits the function that reads an entity's primary key
// from a record's keys: the placeholders' text of its string keys, in
// the form the item stores them, and a key attribute that is one
// attribute's value as it is; then each decoded as UnmarshalItem does.
func (e *emitter) streamKeyFunc(f *jen.File, s *plan.Stream, i int, it *plan.StreamItem) {
	ent := it.Entity
	commentf(f, "%s reads %s's primary key from the keys of a record that %s names %s's.", model.StreamKeyFunc(ent), model.Article(ent.GoName), s.Kinds, ent.GoName)
	f.Func().Id(model.StreamKeyFunc(ent)).Params(jen.Id("keys").Map(jen.String()).Qual(pathTypes, "AttributeValue")).Params(jen.Id(ent.KeyType()), jen.Error()).BlockFunc(func(g *jen.Group) {
		g.Var().Id("k").Id(ent.KeyType())
		g.Id("item").Op(":=").Make(jen.Map(jen.String()).Qual(pathTypes, "AttributeValue"), jen.Lit(len(ent.PrimaryKey().Attrs())))
		set := map[*model.Attribute]bool{}
		for j, k := range it.Keys {
			if k.Whole != nil {
				if !set[k.Whole] {
					set[k.Whole] = true
					g.Id("item").Index(jen.Lit(k.Whole.Stored)).Op("=").Id("keys").Index(jen.Lit(k.Attr.Name))
				}
				continue
			}
			var sets []jen.Code
			for gi, a := range k.Groups {
				if set[a] {
					continue
				}
				set[a] = true
				sets = append(sets, jen.Id("item").Index(jen.Lit(a.Stored)).Op("=").Add(storedFromKey(a, jen.Id("g").Index(jen.Lit(gi)))))
			}
			if len(sets) == 0 {
				continue
			}
			g.If(
				jen.Id("g").Op(":=").Id(s.Kinds).Index(jen.Lit(i)).Dot("Groups").Call(jen.Id("keys"), jen.Lit(j)),
				jen.Len(jen.Id("g")).Op("==").Lit(len(k.Groups)),
			).Block(sets...)
		}
		g.Id("dec").Op(":=").Add(rt("ItemDecoder")).Values(jen.Id("Entity").Op(":").Lit(ent.Name))
		for _, a := range ent.PrimaryKey().Attrs() {
			g.Id("k").Dot(a.GoName).Op("=").Add(decodeAttr(ent, a))
		}
		g.Return(jen.Id("k"), jen.Id("dec").Dot("Err"))
	})
	f.Line()
}

// consumer emits a consumer's handler interface, its dispatch of one
// record, of records and of a Lambda event.
func (e *emitter) consumer(f *jen.File, s *plan.Stream, pc *plan.Consumer) {
	c := pc.Consumer
	if c.Doc != "" {
		comment(f, c.Doc)
		comment(f, "")
	}
	commentf(f, "%s handles the changes consumer %s takes from table %s's stream, one method per entity and operation; %s hands them over in order. A method's error stops the batch at its record.", c.HandlerType(), c.Name, s.Table.Name, c.HandleFunc())
	f.Type().Id(c.HandlerType()).InterfaceFunc(func(g *jen.Group) {
		for _, o := range c.On {
			comment(g, handlerDoc(o))
			g.Id(o.Method()).Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("c").Op("*").Id(o.Entity.ChangeType())).Error()
		}
	})
	f.Line()
	record := model.ConsumerRecordFunc(c)
	commentf(f, "%s hands r to h when it is a change %s handles.", record, c.Name)
	f.Func().Id(record).Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("h").Id(c.HandlerType()), jen.Id("r").Op("*").Id("StreamRecord")).Error().BlockFunc(func(g *jen.Group) {
		g.Switch(rt("KindOf").Call(jen.Id(s.Kinds), jen.Id("r").Dot("Keys"))).BlockFunc(func(g *jen.Group) {
			for _, ent := range c.Entities() {
				i := e.itemIndex(s, ent)
				trailing(g.Case(jen.Lit(i)), ent.GoName).Line().Switch(jen.Id("r").Dot("Op")).BlockFunc(func(g *jen.Group) {
					for _, o := range c.On {
						if o.Entity != ent {
							continue
						}
						g.Case(jen.Id(opConst(o.Op))).BlockFunc(func(g *jen.Group) {
							if o.Image != model.ImageKeys {
								g.If(jen.Err().Op(":=").Add(rt("NeedImages")).Call(jen.Lit(c.Name), jen.Id("r"), jen.Lit(o.Image.Old()), jen.Lit(o.Image.New())), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err()))
							}
							g.List(jen.Id("c"), jen.Err()).Op(":=").Id(model.ChangeDecodeFunc(ent)).Call(jen.Id("r"))
							g.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err()))
							g.Return(jen.Id("h").Dot(o.Method()).Call(jen.Id("ctx"), jen.Id("c")))
						})
					}
				})
			}
		})
		g.Return(jen.Nil())
	})
	f.Line()
	commentf(f, "%s hands each record of records that consumer %s handles to h, in order, and skips the others (other entities and operations, the items dyngen writes, unknown keys). It stops at the first record that h fails or that does not decode, and returns a *RecordError with its position: the records before it are handled, it and those after are not.", c.HandleFunc(), c.Name)
	f.Func().Id(c.HandleFunc()).Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("h").Id(c.HandlerType()), jen.Id("records").Index().Id("StreamRecord")).Error().Block(
		jen.Return(rt("HandleRecords").Call(jen.Id("ctx"), jen.Id("records"), jen.Func().Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("r").Op("*").Id("StreamRecord")).Error().Block(
			jen.Return(jen.Id(record).Call(jen.Id("ctx"), jen.Id("h"), jen.Id("r"))),
		))),
	)
	f.Line()
	commentf(f, "%s is %s as a Lambda function of a DynamoDB stream's event source mapping, or of a Kinesis data stream's that DynamoDB feeds: lambda.Start(%s(h)) takes the events as they are. At the first record that fails, it answers the partial batch response naming it (ReportBatchItemFailures), so that Lambda retries from that record and no record is handled twice before it.", c.LambdaFunc(), c.HandleFunc(), c.LambdaFunc())
	f.Func().Id(c.LambdaFunc()).Params(jen.Id("h").Id(c.HandlerType())).Func().Params(jen.Qual("context", "Context"), jen.Op("*").Id("StreamEvent")).Params(jen.Op("*").Id("BatchResponse"), jen.Error()).Block(
		jen.Return(jen.Func().Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("ev").Op("*").Id("StreamEvent")).Params(jen.Op("*").Id("BatchResponse"), jen.Error()).Block(
			jen.Return(rt("HandleEvent").Call(jen.Id("ctx"), jen.Id("ev").Dot("Records"), jen.Func().Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("r").Op("*").Id("StreamRecord")).Error().Block(
				jen.Return(jen.Id(record).Call(jen.Id("ctx"), jen.Id("h"), jen.Id("r"))),
			))),
		)),
	)
	f.Line()
}

// handlerDoc is the doc of a handler's method.
func handlerDoc(o *model.ConsumerOn) string {
	what := map[string]string{
		"insert": "%s item written where none was",
		"modify": "%s item written over another",
		"remove": "%s item deleted, or expired (c.Expired)",
	}[o.Op]
	reads := map[model.Image]string{
		model.ImageKeys: "c.Key is its key",
		model.ImageNew:  "c.New is the item as written",
		model.ImageOld:  "c.Old is the item as it was",
		model.ImageBoth: "c.Old and c.New are the item as it was and as written",
	}[o.Image]
	return fmt.Sprintf("%s handles %s: %s.", o.Method(), fmt.Sprintf(what, model.Article(o.Entity.GoName)), reads)
}

// opConst is the package's constant of a consumer's operation.
func opConst(op string) string {
	return map[string]string{"insert": "OpInsert", "modify": "OpModify", "remove": "OpRemove"}[op]
}

// itemIndex is the index of ent's items among s's.
func (e *emitter) itemIndex(s *plan.Stream, ent *model.Entity) int {
	for i, it := range s.Items {
		if it.Entity == ent {
			return i
		}
	}
	e.bug("entity %s is not of the stream of table %s", ent.Name, s.Table.Name)
	return -1
}

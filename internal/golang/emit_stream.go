package golang

import (
	"fmt"
	"slices"
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
	commentf(f, "%s decodes a record of table %s's stream into a change: %s for an item of the entity, told by its keys alone; an *OwnChange for an item dyngen writes for an entity (a unique claim, a counter...); an *UnknownChange for keys of no item this package knows. A change's Old and New hold the item as it was and as written, as far as the record carries them (the stream's view type is %s). The error, for keys of an entity whose item or key does not decode (keys the Store never writes: two values of one attribute), is an *ItemError, which wraps ErrInvalidItem.", s.Decode, s.Table.Name, strings.Join(types, ", "), s.Table.Stream)
	f.Func().Id(s.Decode).Params(jen.Id("r").Op("*").Id("StreamRecord")).Params(jen.Id("Change"), jen.Error()).Block(
		jen.Switch(jen.Id("i").Op(":=").Add(rt("KindOf")).Call(jen.Id(s.Kinds), jen.Id("r").Dot("Keys")), jen.Id("i")).BlockFunc(func(g *jen.Group) {
			for i, it := range s.Items {
				if it.Own != "" {
					continue
				}
				trailing(g.Case(jen.Lit(i)), it.Entity.GoName).Line().Add(
					jen.List(jen.Id("c"), jen.Err()).Op(":=").Id(model.ChangeDecodeFunc(it.Entity)).Call(jen.Id("r"), jen.True(), jen.True()),
					jen.Line(),
					// A change that did not decode is no typed nil.
					jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
					jen.Line(),
					jen.Return(jen.Id("c"), jen.Nil()),
				)
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
	commentf(f, "%s decodes a record whose keys are %s item's, and of its images those old and new ask for.", model.ChangeDecodeFunc(ent), model.Article(ent.GoName))
	f.Func().Id(model.ChangeDecodeFunc(ent)).Params(jen.Id("r").Op("*").Id("StreamRecord"), jen.List(jen.Id("old"), jen.Id("new")).Bool()).Params(jen.Op("*").Id(name), jen.Error()).Block(
		jen.List(jen.Id("key"), jen.Err()).Op(":=").Id(model.StreamKeyFunc(ent)).Call(jen.Id("r").Dot("Keys")),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.List(jen.Id("before"), jen.Id("after"), jen.Err()).Op(":=").Add(rt("DecodeImages")).Call(jen.Id("r"), jen.Parens(jen.Op("*").Id(ent.GoName)).Dot("UnmarshalItem"), jen.Id("old"), jen.Id("new")),
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
		// first is where each attribute's text was first read: a key
		// attribute's group variable and the group.
		type at struct {
			g string
			i int
		}
		first := map[*model.Attribute]at{}
		for j, k := range it.Keys {
			if k.Whole != nil {
				if _, ok := first[k.Whole]; !ok {
					first[k.Whole] = at{}
					g.Id("item").Index(jen.Lit(k.Whole.Stored)).Op("=").Id("keys").Index(jen.Lit(k.Attr.Name))
				}
				continue
			}
			if len(k.Groups) == 0 {
				continue
			}
			gv := fmt.Sprintf("g%d", j)
			g.Id(gv).Op(":=").Id(s.Kinds).Index(jen.Lit(i)).Dot("Groups").Call(jen.Id("keys"), jen.Lit(j))
			var sets []jen.Code
			for gi, a := range k.Groups {
				if f, ok := first[a]; ok && f.g != "" {
					// A key attribute repeats another's value: the keys
					// the Store writes hold one value in both.
					g.If(jen.Len(jen.Id(gv)).Op("==").Lit(len(k.Groups)).Op("&&").Len(jen.Id(f.g)).Op(">").Lit(f.i).Op("&&").Id(gv).Index(jen.Lit(gi)).Op("!=").Id(f.g).Index(jen.Lit(f.i))).Block(
						jen.Return(jen.Id("k"), itemError(ent, a, "its keys hold two values of it")),
					)
					continue
				}
				first[a] = at{g: gv, i: gi}
				sets = append(sets, jen.Id("item").Index(jen.Lit(a.Stored)).Op("=").Add(storedFromKey(a, jen.Id(gv).Index(jen.Lit(gi)))))
			}
			if len(sets) > 0 {
				g.If(jen.Len(jen.Id(gv)).Op("==").Lit(len(k.Groups))).Block(sets...)
			}
		}
		g.Id("dec").Op(":=").Add(rt("ItemDecoder")).Values(jen.Id("Entity").Op(":").Lit(ent.Name))
		for _, a := range ent.PrimaryKey().Attrs() {
			g.Id("k").Dot(a.GoName).Op("=").Add(decodeAttr(ent, a))
		}
		g.Return(jen.Id("k"), jen.Id("dec").Dot("Err"))
	})
	f.Line()
}

// consumer emits a consumer's handler interface, its releases of expired
// items, its dispatch of one record, of records and of a Lambda event.
// A consumer that releases takes the Store, which writes the releases.
func (e *emitter) consumer(f *jen.File, s *plan.Stream, pc *plan.Consumer) {
	c := pc.Consumer
	if c.Doc != "" {
		comment(f, c.Doc)
		comment(f, "")
	}
	// params are the consumer's functions' parameters before the
	// records, and args the arguments that pass them on.
	params := []jen.Code{jen.Id("ctx").Qual("context", "Context")}
	args := []jen.Code{jen.Id("ctx")}
	if c.Releases() {
		params = append(params, jen.Id("s").Op("*").Id("Store"))
		args = append(args, jen.Id("s"))
	}
	if c.Handles() {
		params = append(params, jen.Id("h").Id(c.HandlerType()))
		args = append(args, jen.Id("h"))
		commentf(f, "%s handles the changes consumer %s takes from table %s's stream, one method per entity and operation; %s hands them over in order. A method's error stops the batch at its record.", c.HandlerType(), c.Name, s.Table.Name, c.HandleFunc())
		f.Type().Id(c.HandlerType()).InterfaceFunc(func(g *jen.Group) {
			for _, o := range c.On {
				comment(g, handlerDoc(o))
				g.Id(o.Method()).Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("c").Op("*").Id(o.Entity.ChangeType())).Error()
			}
		})
		f.Line()
	}
	for _, rel := range pc.Releases {
		e.release(f, s, c, rel)
	}
	record := model.ConsumerRecordFunc(c)
	commentf(f, "%s hands r to consumer %s when it is a change the consumer handles or an expiry it releases.", record, c.Name)
	f.Func().Id(record).Params(append(slices.Clone(params), jen.Id("r").Op("*").Id("StreamRecord"))...).Error().BlockFunc(func(g *jen.Group) {
		g.Switch(rt("KindOf").Call(jen.Id(s.Kinds), jen.Id("r").Dot("Keys"))).BlockFunc(func(g *jen.Group) {
			for _, ent := range c.Entities() {
				var body []jen.Code
				if i := slices.IndexFunc(pc.Releases, func(r *plan.Release) bool { return r.Entity == ent }); i >= 0 {
					body = append(body, jen.If(jen.Id("r").Dot("Op").Op("==").Id("OpRemove").Op("&&").Id("r").Dot("Expired")).Block(
						jen.If(jen.Err().Op(":=").Add(rt("NeedImages")).Call(jen.Lit(c.Name), jen.Id("r"), jen.True(), jen.False()), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
						jen.If(jen.Err().Op(":=").Id("s").Dot(pc.Releases[i].Func).Call(jen.Id("ctx"), jen.Id("r")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
					))
				}
				if slices.ContainsFunc(c.On, func(o *model.ConsumerOn) bool { return o.Entity == ent }) {
					body = append(body, jen.Switch(jen.Id("r").Dot("Op")).BlockFunc(func(g *jen.Group) {
						for _, o := range c.On {
							if o.Entity != ent {
								continue
							}
							g.Case(jen.Id(opConst(o.Op))).BlockFunc(func(g *jen.Group) {
								if o.Image != model.ImageKeys {
									g.If(jen.Err().Op(":=").Add(rt("NeedImages")).Call(jen.Lit(c.Name), jen.Id("r"), jen.Lit(o.Image.Old()), jen.Lit(o.Image.New())), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err()))
								}
								g.List(jen.Id("c"), jen.Err()).Op(":=").Id(model.ChangeDecodeFunc(ent)).Call(jen.Id("r"), jen.Lit(o.Image.Old()), jen.Lit(o.Image.New()))
								g.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err()))
								g.Return(jen.Id("h").Dot(o.Method()).Call(jen.Id("ctx"), jen.Id("c")))
							})
						}
					}))
				}
				trailing(g.Case(jen.Lit(e.itemIndex(s, ent))), ent.GoName).Line().Add(body...)
			}
		})
		g.Return(jen.Nil())
	})
	f.Line()
	handle := "hands each record of records that consumer %s handles to h, in order, and skips the others (other entities and operations, the items dyngen writes, unknown keys)."
	if c.Releases() && !c.Handles() {
		handle = "releases, in order, what the items of each record of records that consumer %s releases held, and skips the others."
	} else if c.Releases() {
		handle = "hands each record of records that consumer %s handles to h, in order, releasing what each expired item it releases held, and skips the others (other entities and operations, the items dyngen writes, unknown keys)."
	}
	commentf(f, "%s "+handle+" It stops at the first record that fails (it does not decode, or the handler or the release fails), and returns a *RecordError with its position: the records before it are done, it and those after are not.", c.HandleFunc(), c.Name)
	f.Func().Id(c.HandleFunc()).Params(append(slices.Clone(params), jen.Id("records").Index().Id("StreamRecord"))...).Error().Block(
		jen.Return(rt("HandleRecords").Call(jen.Id("ctx"), jen.Id("records"), jen.Func().Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("r").Op("*").Id("StreamRecord")).Error().Block(
			jen.Return(jen.Id(record).Call(append(slices.Clone(args), jen.Id("r"))...)),
		))),
	)
	f.Line()
	commentf(f, "%s is %s as a Lambda function of a DynamoDB stream's event source mapping, or of a Kinesis data stream's that DynamoDB feeds: lambda.Start(%s(%s)) takes the events as they are. At the first record that fails, it answers the partial batch response naming it (ReportBatchItemFailures), so that Lambda retries from that record and no record is handled twice before it.", c.LambdaFunc(), c.HandleFunc(), c.LambdaFunc(), strings.Join(argNames(c), ", "))
	f.Func().Id(c.LambdaFunc()).Params(params[1:]...).Func().Params(jen.Qual("context", "Context"), jen.Op("*").Id("StreamEvent")).Params(jen.Op("*").Id("BatchResponse"), jen.Error()).Block(
		jen.Return(jen.Func().Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("ev").Op("*").Id("StreamEvent")).Params(jen.Op("*").Id("BatchResponse"), jen.Error()).Block(
			jen.Return(rt("HandleEvent").Call(jen.Id("ctx"), rt("EventRecords").Call(jen.Id("ev")), jen.Func().Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("r").Op("*").Id("StreamRecord")).Error().Block(
				jen.Return(jen.Id(record).Call(append(slices.Clone(args), jen.Id("r"))...)),
			))),
		)),
	)
	f.Line()
}

// argNames are the arguments a consumer's Lambda function takes, as its
// doc shows them.
func argNames(c *model.Consumer) []string {
	var out []string
	if c.Releases() {
		out = append(out, "s")
	}
	if c.Handles() {
		out = append(out, "h")
	}
	return out
}

// release emits the Store's method that frees what an expired item of
// rel's entity held (plan.Release): the receipt of the record, the
// Delete of each claim, the update of each counter, in one transaction.
func (e *emitter) release(f *jen.File, s *plan.Stream, c *model.Consumer, rel *plan.Release) {
	ent := rel.Entity
	var what []string
	for _, rc := range rel.Claims {
		what = append(what, "the claim of "+rc.Unique.Label())
	}
	for _, rc := range rel.Counts {
		what = append(what, "its count in "+rc.Count.Name)
	}
	commentf(f, "%s frees, for consumer %s, what an expired %s item held: %s. One TransactWriteItems, with the Put of a %s keyed by the record (dyngen.ReceiptOf), on condition that none is there: a record delivered again releases nothing again.", rel.Func, c.Name, ent.GoName, strings.Join(what, ", "), rel.Receipt.GoName)
	t := s.Table
	var keys []jen.Code
	for _, ka := range t.Primary().KeyAttrs() {
		keys = append(keys, jen.Lit(ka.Name))
	}
	f.Func().Params(jen.Id("s").Op("*").Id("Store")).Id(rel.Func).Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("r").Op("*").Id("StreamRecord")).Error().BlockFunc(func(g *jen.Group) {
		// The attributes the release reads of the old item, alone: one
		// that no longer decodes (an attribute required since) never
		// blocks the release.
		g.Var().Id("old").Id(ent.GoName)
		g.If(jen.Err().Op(":=").Func().Params(jen.Id("item").Map(jen.String()).Qual(pathTypes, "AttributeValue")).Error().BlockFunc(func(g *jen.Group) {
			decodeAttrs(g, ent, rel.Reads, jen.Id("old"))
		}).Call(jen.Id("r").Dot("OldImage")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err()))
		g.List(jen.Id("receiptID"), jen.Id("receiptTTL"), jen.Err()).Op(":=").Add(rt("ReceiptOf")).Call(jen.Id("r"), jen.Id("s").Dot(model.ClockField).Call())
		g.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err()))
		receipt := receiptFields(rel.Receipt)
		g.List(jen.Id("receipt"), jen.Err()).Op(":=").Parens(jen.Op("&").Id(rel.Receipt.GoName).Values(receipt)).Dot("MarshalItem").Call()
		g.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err()))
		d := jen.Dict{
			jen.Id("Method"):           jen.Lit(c.Name),
			jen.Id("Table"):            jen.Id("s").Dot(t.StoreField()),
			jen.Id("Keys"):             jen.Index().String().Values(keys...),
			jen.Id("Receipt"):          jen.Id("receipt"),
			jen.Id("ReceiptCondition"): jen.Lit(rel.ReceiptRequest.Condition),
		}
		if n := namesLit(rel.ReceiptRequest.Names); n != nil {
			d[jen.Id("ReceiptNames")] = n
		}
		g.Id("rel").Op(":=").Op("&").Add(rt("Release")).Values(d)
		for _, rc := range rel.Claims {
			from := jen.Dict{}
			for _, o := range rc.Owner {
				from[jen.Lit(o.Value)] = jen.Lit(o.Stored)
			}
			step := func(item jen.Code) jen.Code {
				sd := jen.Dict{
					jen.Id("What"):      jen.Lit("the claim of " + rc.Unique.Label()),
					jen.Id("Item"):      item,
					jen.Id("Condition"): jen.Lit(rc.Request.Condition),
					jen.Id("FromItem"):  jen.Map(jen.String()).String().Values(from),
				}
				if n := namesLit(rc.Request.Names); n != nil {
					sd[jen.Id("Names")] = n
				}
				return jen.Id("rel").Dot("Steps").Op("=").Append(jen.Id("rel").Dot("Steps"), rt("ReleaseStep").Values(sd))
			}
			claim := e.claimItem(ent, rc.Unique, jen.Id("old"), jen.Id("el"))
			body := []jen.Code{
				jen.List(jen.Id("claim"), jen.Err()).Op(":=").Add(claim),
				jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
				step(jen.Id("claim")),
			}
			if rc.Unique.Each {
				g.For(jen.List(jen.Id("_"), jen.Id("el")).Op(":=").Range().Add(rt("SetAdded")).Call(jen.Nil(), jen.Id("old").Dot(rc.Unique.Attrs[0].GoName))).Block(body...)
				continue
			}
			g.Block(body...)
		}
		for _, rc := range rel.Counts {
			ct := rc.Count.Counter
			fields := jen.Dict{}
			for _, a := range rc.Count.Per {
				v := jen.Id("old").Dot(a.GoName)
				if ca := ct.Attr(a.Name); ca != nil && ca.Type == model.Enum {
					v = jen.Id(model.EnumType(ct, ca)).Call(v)
				}
				fields[jen.Id(ct.Attr(a.Name).GoName)] = v
			}
			values := jen.Dict{}
			for i, ph := range rc.Groups {
				values[jen.Lit(ph)] = rt("Delta").Call(inGroup(ent, rc.Count, i))
			}
			sd := jen.Dict{
				jen.Id("What"):      jen.Lit("count " + rc.Count.Name),
				jen.Id("Item"):      jen.Id("counter"),
				jen.Id("Update"):    jen.Lit(rc.Request.Update.Expression()),
				jen.Id("Condition"): jen.Lit(rc.Request.Condition),
				jen.Id("Values"):    jen.Map(jen.String()).Qual(pathTypes, "AttributeValue").Values(values),
			}
			if n := namesLit(rc.Request.Names); n != nil {
				sd[jen.Id("Names")] = n
			}
			g.Block(
				jen.List(jen.Id("counter"), jen.Err()).Op(":=").Parens(jen.Op("&").Id(ct.GoName).Values(fields)).Dot("MarshalItem").Call(),
				jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
				jen.Id("rel").Dot("Steps").Op("=").Append(jen.Id("rel").Dot("Steps"), rt("ReleaseStep").Values(sd)),
			)
		}
		g.List(jen.Id("_"), jen.Err()).Op("=").Add(rt("ReleaseExpired")).Call(jen.Id("ctx"), jen.Id("s").Dot("client"), jen.Id("rel"))
		g.Return(jen.Err())
	})
	f.Line()
}

// receiptFields are the fields of the receipt of record r's release: its
// ID and when it expires (dyngen.ReceiptOf).
func receiptFields(receipt *model.Entity) jen.Dict {
	d := jen.Dict{}
	for _, a := range receipt.Attributes {
		switch a.Type {
		case model.String:
			d[jen.Id(a.GoName)] = jen.Id("receiptID")
		case model.Time:
			d[jen.Id(a.GoName)] = jen.Id("receiptTTL")
		}
	}
	return d
}

// inGroup is whether the item old was in group i of count c.
func inGroup(ent *model.Entity, c *model.Count, i int) jen.Code {
	by := jen.Id("old").Dot(c.By.GoName)
	if c.By.Type == model.Enum {
		return by.Op("==").Id(model.EnumConst(ent, c.By, c.Groups[i]))
	}
	if c.Groups[i] == "true" {
		return by
	}
	return jen.Op("!").Add(by)
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

// opConst is the package's constant of a consumer's operation
// (model.StreamOpConsts, in the order of model.StreamOps).
func opConst(op string) string { return model.StreamOpConsts[slices.Index(model.StreamOps, op)] }

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

// claimItem is the MarshalItem of the claim of u that the owner's item x
// holds, as the Store's writes take it: the values (lower-cased where
// normalize says so; of a set, the element el) and the owner's key.
func (e *emitter) claimItem(owner *model.Entity, u *model.Unique, x, el jen.Code) jen.Code {
	ce := u.Claim
	fields := jen.Dict{}
	for _, ca := range ce.Attributes {
		a := owner.Attr(ca.Name)
		if a == nil {
			e.bug("claim %s holds %s, which %s does not", ce.Name, ca.Name, owner.Name)
			continue
		}
		v := jen.Add(x).Dot(a.GoName)
		if u.Each && a == u.Attrs[0] {
			v = jen.Add(el)
		}
		if u.Lower && a.Type == model.String && slices.Contains(u.Attrs, a) {
			v = jen.Qual("strings", "ToLower").Call(v)
		}
		if ca.Type == model.Enum {
			v = jen.Id(model.EnumType(ce, ca)).Call(v)
		}
		fields[jen.Id(ca.GoName)] = v
	}
	return jen.Parens(jen.Op("&").Id(ce.GoName).Values(fields)).Dot("MarshalItem").Call()
}

package golang

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/plan"
)

// backfillFile is the migration output's file (model.BackfillFile): the
// backfills of the lock still pending, as the runtime runs them
// (dyngen.Backfill), each printed from its plan (plan.Backfill), and
// the command line that runs them. It is the only code of the package
// that Scans; the Store never does.
func (e *emitter) backfillFile() *jen.File {
	m := e.p.Model
	f := e.newFile()
	comment(f, "BackfillClient is the part of *dynamodb.Client the backfills call: Scan, which the Store never calls, and the reads and writes of one item. It has its own IAM policy (output migration).")
	f.Type().Id(model.BackfillClientName).Op("=").Add(rt("BackfillClient"))
	f.Line()

	e.backfillFuncs(f)
	var pending []*plan.Backfill
	for _, pb := range e.p.Backfills {
		if pb.Backfill.Pending() {
			pending = append(pending, pb)
		}
	}
	var doc strings.Builder
	fmt.Fprintf(&doc, "%s returns the backfills of the lock still pending, in its order, on the tables the options name (the Store's options). Each scans its table by segment and writes, per item of its entity that lacks what it writes, one UpdateItem (for claims, a transaction of the item's ConditionCheck and the claim's Put) held while the item is as read, and records where each segment stands in a %s item, so that a run resumes where it stopped.", model.BackfillsName, "checkpoint")
	if len(pending) == 0 {
		doc.WriteString("\n\nThe lock holds no backfill pending.")
	}
	for _, pb := range pending {
		b := pb.Backfill
		fmt.Fprintf(&doc, "\n\n%s %s:\n\n", b.ID, pb.Describe())
		for _, l := range backfillCalls(pb) {
			doc.WriteString("\t" + l + "\n")
		}
	}
	comment(f, strings.TrimRight(doc.String(), "\n"))
	scope := e.newScope()
	st := e.scopeName(scope, "s")
	scope["store"] = st
	cps := map[*model.Table]string{}
	f.Func().Id(model.BackfillsName).Params(jen.Id("opts").Op("...").Id("Option")).Index().Add(rt("BackfillJob")).BlockFunc(func(g *jen.Group) {
		if len(pending) == 0 {
			g.Return(jen.Nil())
			return
		}
		g.Id(st).Op(":=").Id("New").Call(jen.Nil(), jen.Id("opts").Op("..."))
		for _, pb := range pending {
			t := pb.Backfill.Entity.Table
			if cps[t] != "" {
				continue
			}
			name := e.scopeName(scope, model.ParamName(t.GoName)+"Checkpoints")
			scope["cp|"+t.Name] = name
			cps[t] = name
			g.Id(name).Op(":=").Add(e.checkpoints(t))
		}
		for _, pb := range pending {
			if pb.Backfill.Kind == model.Computed {
				e.computeVar(g, scope, st, pb)
			}
		}
		g.Return(jen.Index().Add(rt("BackfillJob")).ValuesFunc(func(g *jen.Group) {
			for _, pb := range pending {
				t := pb.Backfill.Entity.Table
				g.Values(jen.Dict{
					jen.Id("Backfill"):    jen.Op("&").Add(e.backfillValue(pb, scope)),
					jen.Id("Checkpoints"): jen.Id(cps[t]),
					jen.Id("TableName"):   jen.Id(st).Dot(t.StoreField()),
				})
			}
		}))
	})
	f.Line()
	commentf(f, "%s runs the backfill command line (dyngen.BackfillMain) with args, the program's arguments without its name, on client, and returns its exit code: a program's main is\n\n\tos.Exit(%s.%s(ctx, client, os.Args[1:]))\n\nWithout -write it is a dry run; -segments N -segment I runs one segment of N, so that N processes (or Lambda invocations) share a scan; -verify reads every item, and with -receipt FILE writes the receipt dyngen -receipt records the backfill done with. Run with no argument as a Lambda function, it serves the invocations of the backfill stack's state machine. %s names the physical name of each table, as the Store's option does, when set; opts come after (with %s, the functions of %s).", model.BackfillMainName, m.Package, model.BackfillMainName, tableEnvs(m), model.WithBackfillFuncsName, model.BackfillFuncsName)
	mscope := e.newScope()
	for _, p := range []string{"ctx", "client", "args", "opts"} {
		mscope[p] = p
	}
	env, name := e.scopeName(mscope, "env"), ""
	mscope["env"] = env
	name = e.scopeName(mscope, "name")
	f.Func().Id(model.BackfillMainName).Params(
		jen.Id("ctx").Qual("context", "Context"),
		jen.Id("client").Id(model.BackfillClientName),
		jen.Id("args").Index().String(),
		jen.Id("opts").Op("...").Id("Option"),
	).Int().BlockFunc(func(g *jen.Group) {
		comment(g, "The tables the environment names (the backfill stack's function sets them), before opts.")
		g.Var().Id(env).Index().Id("Option")
		for _, t := range m.Tables {
			g.If(jen.Id(name).Op(":=").Qual("os", "Getenv").Call(jen.Lit(t.TableEnv())), jen.Id(name).Op("!=").Lit("")).Block(
				jen.Id(env).Op("=").Append(jen.Id(env), jen.Id(t.TableOption()).Call(jen.Id(name))),
			)
		}
		g.Return(rt("BackfillMain").Call(jen.Id("ctx"), jen.Id("client"), jen.Id(model.BackfillsName).Call(jen.Append(jen.Id(env), jen.Id("opts").Op("...")).Op("...")), jen.Id("args"), jen.Qual("os", "Stdout"), jen.Qual("os", "Stderr")))
	})
	return f
}

// tableEnvs lists the tables' environment variables, for a doc.
func tableEnvs(m *model.Model) string {
	var out []string
	for _, t := range m.Tables {
		out = append(out, t.TableEnv())
	}
	if len(out) == 1 {
		return "The environment variable " + out[0]
	}
	return "The environment variables " + strings.Join(out, ", ")
}

// backfillCalls describes the calls of a backfill, for its doc.
func backfillCalls(pb *plan.Backfill) []string {
	b := pb.Backfill
	scan := []string{
		"Scan on table " + b.Entity.Table.Name + ", by segment",
		"ProjectionExpression: " + orAll(pb.Scan.Projection),
		"FilterExpression: " + pb.Scan.Filter,
	}
	switch {
	case pb.Claim != nil && b.Unique.Each:
		return append(scan,
			"GetItem of the claim of each element, then TransactWriteItems per item whose claims are missing (a Put of each)",
			"ConditionCheck of the item: "+pb.FullCondition(),
			"Put of the claim: "+pb.Claim.Condition)
	case pb.Claim != nil:
		return append(scan,
			"GetItem of the item's claim, then TransactWriteItems per item whose claim is missing",
			"ConditionCheck of the item: "+pb.FullCondition(),
			"Put of the claim: "+pb.Claim.Condition)
	case b.Kind == model.Computed:
		return append(scan,
			"UpdateItem per item that lacks it, of the value "+model.BackfillFuncsName+"."+model.ComputeFunc(b.Entity, b.Attr)+" returns",
			"UpdateExpression: "+pb.Set,
			"ConditionExpression: "+pb.FullCondition())
	}
	return append(scan,
		"UpdateItem per item that lacks it",
		"UpdateExpression: "+pb.Set+" (or "+pb.Clear+", for an item left out)",
		"ConditionExpression: "+pb.FullCondition())
}

// orAll is a projection, or says there is none.
func orAll(p string) string {
	if p == "" {
		return "(none: whole items)"
	}
	return p
}

// backfillValue is the dyngen.Backfill of pb, in the scope of the
// package's Backfills (where a computed one's Compute is a local).
func (e *emitter) backfillValue(pb *plan.Backfill, scope map[string]string) jen.Code {
	b := pb.Backfill
	ent := b.Entity
	t := ent.Table
	var keys []jen.Code
	for _, ka := range t.Primary().KeyAttrs() {
		keys = append(keys, jen.Lit(ka.Name))
	}
	var writes []jen.Code
	var writeNames []jen.Code
	for _, w := range pb.Writes {
		writes = append(writes, jen.Values(jen.Dict{jen.Id("Stored"): jen.Lit(w.Stored), jen.Id("Value"): jen.Lit(w.Value)}))
		writeNames = append(writeNames, jen.Lit(w.Stored))
	}
	var held []jen.Code
	for _, h := range pb.Write.Held {
		held = append(held, jen.Values(jen.Dict{jen.Id("Stored"): jen.Lit(h.Stored), jen.Id("Present"): jen.Lit(h.Present), jen.Id("Absent"): jen.Lit(h.Absent), jen.Id("Value"): jen.Lit(h.Value)}))
	}
	fill := jen.Id("Fill")
	switch {
	case pb.Claim != nil && b.Unique.Each:
		fill = jen.Id("Claims")
	case pb.Claim != nil:
		fill = jen.Id("Claim")
	case b.Kind == model.Computed:
		fill = jen.Id("Compute")
	}
	d := jen.Dict{
		jen.Id("ID"):          jen.Lit(b.ID),
		jen.Id("Fingerprint"): jen.Lit(pb.Fingerprint),
		jen.Id("What"):        jen.Lit(pb.Describe()),
		jen.Id("Table"):       jen.Lit(t.Name),
		jen.Id("Key"):         jen.Index().String().Values(keys...),
		jen.Id("EntityAttr"):  jen.Lit(t.EntityAttr),
		jen.Id("TypeValue"):   jen.Lit(ent.TypeValue),
		jen.Id("Projection"):  jen.Lit(pb.Scan.Projection),
		jen.Id("Filter"):      jen.Lit(pb.Scan.Filter),
		jen.Id("ScanValues"):  typeValues(pb.Scan, ent),
		jen.Id("Condition"):   jen.Lit(pb.Write.Condition),
		jen.Id("WriteValues"): typeValues(pb.Write, ent),
		jen.Id("Held"):        jen.Index().Add(rt("Held")).Values(held...),
	}
	if b.Kind == model.Computed {
		d[fill] = jen.Id(scope["compute|"+b.ID])
		d[jen.Id("Needs")] = jen.Lit(fmt.Sprintf("%s is not given (the Store's option %s)", computeNeeds(pb), model.WithBackfillFuncsName))
	} else {
		d[fill] = e.fill(pb, writeNames)
	}
	if len(writes) > 0 {
		d[jen.Id("Set")], d[jen.Id("Clear")] = jen.Lit(pb.Set), jen.Lit(pb.Clear)
		d[jen.Id("Writes")] = jen.Index().Add(rt("BackfillWrite")).Values(writes...)
	}
	if pb.Claim != nil {
		var owner []jen.Code
		for _, o := range pb.ClaimOwner {
			owner = append(owner, jen.Values(jen.Dict{jen.Id("Stored"): jen.Lit(o.Stored), jen.Id("Value"): jen.Lit(o.Value)}))
		}
		d[jen.Id("ClaimCondition")] = jen.Lit(pb.Claim.Condition)
		d[jen.Id("ClaimOwner")] = jen.Index().Add(rt("BackfillWrite")).Values(owner...)
		if n := namesLit(pb.Claim.Names); n != nil {
			d[jen.Id("ClaimNames")] = n
		}
	}
	if n := namesLit(pb.Scan.Names); n != nil {
		d[jen.Id("ReadNames")] = n
	}
	if n := namesLit(pb.Write.Names); n != nil {
		d[jen.Id("UpdateNames")] = n
	}
	return rt("Backfill").Values(d)
}

// namesLit is a map literal of the placeholders of names, or nil for
// none.
func namesLit(names []plan.Name) jen.Code {
	if len(names) == 0 {
		return nil
	}
	d := jen.Dict{}
	for _, n := range names {
		d[jen.Lit(n.Placeholder)] = jen.Lit(n.Stored)
	}
	return jen.Map(jen.String()).String().Values(d)
}

// typeValues is the ExpressionAttributeValues of a backfill's request:
// its only value is the entity's type.
func typeValues(req *plan.Request, ent *model.Entity) jen.Code {
	d := jen.Dict{}
	for _, v := range req.Values {
		d[jen.Lit(v.Placeholder)] = jen.Op("&").Qual(pathTypes, "AttributeValueMemberS").Values(jen.Dict{jen.Id("Value"): jen.Lit(ent.TypeValue)})
	}
	return jen.Map(jen.String()).Qual(pathTypes, "AttributeValue").Values(d)
}

// fill is the Fill of a backfill: what an item should hold. An index's
// keys are what the entity's own MarshalItem writes for the item as
// decoded (a Store's put of it writes the same), the first version 1.
func (e *emitter) fill(pb *plan.Backfill, writes []jen.Code) jen.Code {
	b := pb.Backfill
	item := jen.Id("item")
	mapType := jen.Map(jen.String()).Qual(pathTypes, "AttributeValue")
	result := mapType.Clone()
	if b.Unique != nil && b.Unique.Each {
		result = jen.Index().Add(mapType.Clone())
	}
	return jen.Func().Params(item.Clone().Add(mapType.Clone())).Params(result, jen.Error()).BlockFunc(func(g *jen.Group) {
		switch b.Kind {
		case model.IndexKeys:
			g.Var().Id("x").Id(b.Entity.GoName)
			g.If(jen.Err().Op(":=").Id("x").Dot("UnmarshalItem").Call(item), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err()))
			g.List(jen.Id("full"), jen.Err()).Op(":=").Id("x").Dot("MarshalItem").Call()
			g.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err()))
			g.Return(rt("Pick").Call(append([]jen.Code{jen.Id("full")}, writes...)...))
		case model.InitialVersion:
			g.Return(rt("FirstVersion").Call(item, writes[0]))
		case model.UniqueClaims:
			// The claim the Store's writes take: the values (lower-cased
			// where normalize says so), and the owner's key; of a set,
			// one per element.
			u := b.Unique
			g.Var().Id("x").Id(b.Entity.GoName)
			g.If(jen.Err().Op(":=").Id("x").Dot("UnmarshalItem").Call(item), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err()))
			claim := e.claimItem(b.Entity, u, jen.Id("x"), jen.Id("el"))
			if !u.Each {
				g.Return(claim)
				return
			}
			// An item the Store can't write (more elements than
			// maxItems, the transaction's bound) is reported, never
			// claimed.
			g.If(jen.List(jen.Id("_"), jen.Err()).Op(":=").Id("x").Dot("MarshalItem").Call(), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err()))
			g.Var().Id("claims").Index().Add(mapType.Clone())
			g.For(jen.List(jen.Id("_"), jen.Id("el")).Op(":=").Range().Add(rt("SetAdded")).Call(jen.Nil(), jen.Id("x").Dot(u.Attrs[0].GoName))).Block(
				jen.List(jen.Id("c"), jen.Err()).Op(":=").Add(claim),
				jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
				jen.Id("claims").Op("=").Append(jen.Id("claims"), jen.Id("c")),
			)
			g.Return(jen.Id("claims"), jen.Nil())
		}
	})
}

// computeNeeds names the functions of BackfillFuncs the Compute of pb
// needs (plan.Backfill.Computes).
func computeNeeds(pb *plan.Backfill) string {
	var names []string
	for _, a := range pb.Computes {
		names = append(names, model.BackfillFuncsName+"."+model.ComputeFunc(pb.Backfill.Entity, a))
	}
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// backfillFuncs declares the package's BackfillFuncs, a field per
// attribute that says backfill: compute, and its option.
func (e *emitter) backfillFuncs(f *jen.File) {
	m := e.p.Model
	commentf(f, "%s are the functions of yours that compute, for the items stored without it, each attribute that says backfill: compute: each is given the item as stored (the attribute at its zero value) and returns its value, which the backfill writes, held while the item is as read (a nil pointer, for an optional attribute, leaves the item without it). A backfill whose function is nil refuses to run. Give them to the backfills with the option %s.", model.BackfillFuncsName, model.WithBackfillFuncsName)
	f.Type().Id(model.BackfillFuncsName).StructFunc(func(g *jen.Group) {
		for _, ent := range m.Entities {
			for _, a := range ent.Attributes {
				if !a.Compute {
					continue
				}
				comment(g, fmt.Sprintf("%s computes %s of %s (stored as %s).", model.ComputeFunc(ent, a), a.Name, ent.Name, a.Stored))
				g.Id(model.ComputeFunc(ent, a)).Func().Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("item").Op("*").Id(ent.GoName)).Params(fieldType(ent, a), jen.Error())
			}
		}
	})
	f.Line()
	commentf(f, "%s gives the backfills the functions that compute attributes (%s). The Store's own methods do not call them.", model.WithBackfillFuncsName, model.BackfillFuncsName)
	f.Func().Id(model.WithBackfillFuncsName).Params(jen.Id("funcs").Id(model.BackfillFuncsName)).Id("Option").Block(
		jen.Return(jen.Func().Params(jen.Id("s").Op("*").Id("Store")).Block(jen.Id("s").Dot(model.BackfillFuncsField).Op("=").Id("funcs"))),
	)
	f.Line()
}

// computeVar declares, in the package's Backfills (g, of scope, whose
// Store is st), the Compute of pb, a backfill of an attribute computed
// by the user's function: nil while one of the functions it needs
// (plan.Backfill.Computes) is not given. The item is decoded with the attributes backfills compute
// tolerated as absent (or NULL); an item that holds the attribute keeps
// it; else the other pending ones the item lacks are computed first (so
// that the entity's checks see a whole item, and the function a
// consistent one), then this one, whose value is written as the
// entity's MarshalItem stores it, once the item it leaves reads back.
func (e *emitter) computeVar(g *jen.Group, scope map[string]string, st string, pb *plan.Backfill) {
	b := pb.Backfill
	ent, a := b.Entity, b.Attr
	name := e.scopeName(scope, model.ParamName(model.ComputeFunc(ent, a))+"Compute")
	scope["compute|"+b.ID] = name
	others := pb.Computes
	var tolerated, storedNames []jen.Code
	if v := pb.Unversioned; v != nil {
		tolerated = append(tolerated, jen.Lit(v.Name))
	}
	for _, x := range pb.Missing {
		tolerated = append(tolerated, jen.Lit(x.Name))
		storedNames = append(storedNames, jen.Lit(x.Stored))
	}
	funcs := make([]string, len(others))
	var given []jen.Code
	var conds []jen.Code
	for i, x := range others {
		funcs[i] = e.scopeName(scope, "f")
		scope[funcs[i]] = funcs[i]
		given = append(given, jen.Id(funcs[i]))
		conds = append(conds, jen.Id(st).Dot(model.BackfillFuncsField).Dot(model.ComputeFunc(ent, x)))
	}
	nonNil := jen.Null()
	for i, f := range given {
		if i > 0 {
			nonNil.Op("&&")
		}
		nonNil.Add(f).Op("!=").Nil()
	}
	mapType := jen.Map(jen.String()).Qual(pathTypes, "AttributeValue")
	stored := jen.Lit(a.Stored)
	failed := func(err jen.Code) jen.Code {
		if len(tolerated) == 0 {
			return jen.Add(err).Op("!=").Nil()
		}
		return jen.Add(err).Op("!=").Nil().Op("&&").Op("!").Add(rt("Missing")).Call(append([]jen.Code{err}, tolerated...)...)
	}
	g.Var().Id(name).Func().Params(jen.Qual("context", "Context"), mapType.Clone()).Params(mapType.Clone(), jen.Error())
	g.If(jen.List(given...).Op(":=").List(conds...), nonNil).Block(
		jen.Id(name).Op("=").Func().Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("item").Add(mapType.Clone())).Params(mapType.Clone(), jen.Error()).BlockFunc(func(g *jen.Group) {
			read := jen.Id("item")
			if len(storedNames) > 0 {
				comment(g, "The attributes backfills compute read as absent when NULL.")
				g.Id("read").Op(":=").Add(rt("DropNull")).Call(append([]jen.Code{jen.Id("item")}, storedNames...)...)
				read = jen.Id("read")
			}
			g.Var().Id("x").Id(ent.GoName)
			g.If(jen.Err().Op(":=").Id("x").Dot("UnmarshalItem").Call(read.Clone()), failed(jen.Err())).Block(jen.Return(jen.Nil(), jen.Err()))
			comment(g, "An item that holds it keeps it.")
			g.If(jen.List(jen.Id("held"), jen.Id("ok")).Op(":=").Add(rt("Present")).Call(jen.Id("item"), stored.Clone()), jen.Id("ok")).Block(jen.Return(jen.Id("held"), jen.Nil()))
			for i := len(others) - 1; i >= 0; i-- {
				x := others[i]
				set := []jen.Code{
					jen.List(jen.Id("v"), jen.Err()).Op(":=").Id(funcs[i]).Call(jen.Id("ctx"), jen.Op("&").Id("x")),
					jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
					jen.Id("x").Dot(x.GoName).Op("=").Id("v"),
				}
				if i == 0 {
					for _, c := range set {
						g.Add(c)
					}
					continue
				}
				comment(g, fmt.Sprintf("%s, computed by another backfill, for the entity's checks when the item lacks it.", x.Name))
				g.If(jen.List(jen.Id("_"), jen.Id("ok")).Op(":=").Add(rt("Present")).Call(jen.Id("item"), jen.Lit(x.Stored)), jen.Op("!").Id("ok")).Block(set...)
			}
			g.List(jen.Id("full"), jen.Err()).Op(":=").Id("x").Dot("MarshalItem").Call()
			g.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err()))
			g.List(jen.Id("want"), jen.Err()).Op(":=").Add(rt("Pick")).Call(jen.Id("full"), stored.Clone())
			g.If(jen.Err().Op("!=").Nil().Op("||").Id("want").Op("==").Nil()).Block(jen.Return(jen.Id("want"), jen.Err()))
			comment(g, "Never written unless the item as written reads back (but for what other backfills compute).")
			g.If(jen.Err().Op(":=").Parens(jen.Op("&").Id(ent.GoName).Values()).Dot("UnmarshalItem").Call(rt("With").Call(read.Clone(), jen.Id("want"))), failed(jen.Err())).Block(jen.Return(jen.Nil(), jen.Err()))
			g.Return(jen.Id("want"), jen.Nil())
		}),
	)
}

// checkpoints is the dyngen.Checkpoints of table t: its checkpoint
// entity's MarshalItem and UnmarshalItem, as the runtime's Checkpoint.
func (e *emitter) checkpoints(t *model.Table) jen.Code {
	var ce *model.Entity
	for _, x := range e.p.Model.Entities {
		if x.CheckpointOf == t {
			ce = x
		}
	}
	if ce == nil {
		e.bug("table %s has no checkpoint entity", t.Name)
		return jen.Nil()
	}
	field := func(name string) string { return ce.Attr(name).GoName }
	c, x := jen.Id("c"), jen.Id("x")
	conv := []struct {
		name, runtime string
		int           bool
	}{{"backfill", "Backfill", false}, {"fingerprint", "Fingerprint", false}, {"segments", "Segments", true}, {"segment", "Segment", true}, {"done", "Done", false}, {"scanned", "Scanned", false}, {"written", "Written", false}}
	toEntity, toRuntime := jen.Dict{}, jen.Dict{}
	for _, cv := range conv {
		if cv.int {
			toEntity[jen.Id(field(cv.name))] = jen.Int64().Call(c.Clone().Dot(cv.runtime))
			toRuntime[jen.Id(cv.runtime)] = jen.Int().Call(x.Clone().Dot(field(cv.name)))
			continue
		}
		toEntity[jen.Id(field(cv.name))] = c.Clone().Dot(cv.runtime)
		toRuntime[jen.Id(cv.runtime)] = x.Clone().Dot(field(cv.name))
	}
	after, open := field("after"), field("open")
	mapType := jen.Map(jen.String()).Qual(pathTypes, "AttributeValue")
	return jen.Op("&").Add(rt("Checkpoints")).Values(jen.Dict{
		jen.Id("Marshal"): jen.Func().Params(c.Clone().Add(rt("Checkpoint"))).Params(mapType.Clone(), jen.Error()).Block(
			x.Clone().Op(":=").Id(ce.GoName).Values(toEntity),
			jen.If(c.Clone().Dot("After").Op("!=").Lit("")).Block(x.Clone().Dot(after).Op("=").Op("&").Add(c.Clone().Dot("After"))),
			jen.If(c.Clone().Dot("Open")).Block(x.Clone().Dot(open).Op("=").Op("&").Add(c.Clone().Dot("Open"))),
			jen.Return(x.Clone().Dot("MarshalItem").Call()),
		),
		jen.Id("Unmarshal"): jen.Func().Params(jen.Id("item").Add(mapType.Clone())).Params(rt("Checkpoint"), jen.Error()).Block(
			jen.Var().Add(x.Clone()).Id(ce.GoName),
			jen.Err().Op(":=").Add(x.Clone()).Dot("UnmarshalItem").Call(jen.Id("item")),
			c.Clone().Op(":=").Add(rt("Checkpoint")).Values(toRuntime),
			jen.If(x.Clone().Dot(after).Op("!=").Nil()).Block(c.Clone().Dot("After").Op("=").Op("*").Add(x.Clone()).Dot(after)),
			jen.If(x.Clone().Dot(open).Op("!=").Nil()).Block(c.Clone().Dot("Open").Op("=").Op("*").Add(x.Clone()).Dot(open)),
			jen.Return(c, jen.Err()),
		),
	})
}

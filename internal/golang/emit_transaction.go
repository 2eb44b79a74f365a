package golang

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/plan"
)

// transaction emits a transaction: the request builder of each step, the
// struct of its inputs, its description for the runtime (transaction),
// and the method that sends every step in one call.
func (m *method) transaction() {
	tx := m.pp.Tx
	for _, s := range tx.Steps {
		sm := &method{e: m.e, f: m.f, pp: s.Plan, p: s.Plan.Pattern, req: s.Plan.Request, step: s}
		sm.stepBuilder()
	}
	m.txStruct()
	if m.pp.Call == plan.TransactGetItems {
		m.txResult()
	}
	m.txVar()
	m.txDoc()
	if m.pp.Call == plan.TransactGetItems {
		m.transactGet()
	} else {
		m.transactWrite()
	}
}

// stepBuilder emits the function that builds a step's request, as its own
// call would send it (the runtime makes it a transaction's item).
func (m *method) stepBuilder() {
	switch m.pp.Form {
	case plan.FormPut, plan.FormCreate:
		m.putInput(m.constant("Condition", m.req.Condition))
	case plan.FormDelete:
		m.deleteInput(m.constant("Condition", m.req.Condition))
	case plan.FormReplace:
		// A put of an entity with a created time, sent as an update.
		_, sometimes := m.req.Update.Static()
		var updateConst jen.Code
		if len(sometimes) == 0 {
			updateConst = m.constant("Update", m.req.Update.Expression())
		}
		m.replaceInput(updateConst, m.constant("Condition", m.req.Condition))
	case plan.FormUpdate:
		up := m.updater()
		m.inputBuilder("UpdateItemInput", up.input)
	case plan.FormCheck:
		condConst := m.constant("Condition", m.req.Condition)
		m.inputBuilderOf(jen.Qual(pathTypes, "ConditionCheck"), func(g *jen.Group, fail func(jen.Code) jen.Code) jen.Code {
			key := m.primaryKeyMap(g, m.ent(), m.keyParam, fail)
			in := jen.Dict{jen.Id("TableName"): m.tableRef(), jen.Id("Key"): key}
			m.conditionInput(in, condConst)
			return jen.Op("&").Qual(pathTypes, "ConditionCheck").Values(in)
		})
	case plan.FormGet:
		m.inputBuilderOf(jen.Qual(pathTypes, "Get"), func(g *jen.Group, fail func(jen.Code) jen.Code) jen.Code {
			key := m.primaryKeyMap(g, m.ent(), m.keyParam, fail)
			return jen.Op("&").Qual(pathTypes, "Get").Values(jen.Dict{jen.Id("TableName"): m.tableRef(), jen.Id("Key"): key})
		})
	default:
		m.e.bug("step %s has no builder for %s", m.p.Name, m.pp.Call)
	}
}

// stepNames lists steps as "step 2 (update Photo)" or "steps 2 (update
// Photo) and 3 (update User)".
func stepNames(steps []*plan.Step, users func(*plan.Step) bool) string {
	var names []string
	for _, s := range steps {
		if users(s) {
			names = append(names, fmt.Sprintf("%d (%s)", s.Step.Index+1, s.Step.Action()))
		}
	}
	return joinSteps(names)
}

// txStruct emits the struct of a transaction's inputs: the items its
// steps write, the values they share by name, and the request token.
func (m *method) txStruct() {
	tx := m.pp.Tx
	st := m.pp.Struct
	commentf(m.f, "%s holds the inputs of %s. A field named after an attribute is that attribute's value in every step that takes it.", st.Type, m.p.GoName)
	m.f.Type().Id(st.Type).StructFunc(func(g *jen.Group) {
		for _, in := range tx.Inputs {
			var what string
			users := stepNames(tx.Steps, func(s *plan.Step) bool {
				if s.Step == in.Item {
					return false
				}
				for j, a := range s.Args {
					if a.Input == in {
						if what == "" {
							what = inputRole(s.Plan.Params[j])
						}
						return true
					}
				}
				return false
			})
			written := ""
			if len(in.Written) > 0 {
				written = fmt.Sprintf(" On success it holds the item as written, with the %s the step writes.", andList(in.Written))
			}
			switch {
			case in.Item == nil:
				commentf(g, "%s is %s, in %s.", in.Field, what, users)
			case users == "":
				commentf(g, "%s is the item step %d writes (%s).%s", in.Field, in.Item.Index+1, in.Item.Action(), written)
			default:
				verb := "takes"
				if strings.HasPrefix(users, "steps ") {
					verb = "take"
				}
				commentf(g, "%s is the item step %d writes (%s); %s also %s values of its fields, as the step writes them.%s", in.Field, in.Item.Index+1, in.Item.Action(), users, verb, written)
			}
			g.Id(in.Field).Add(typeCode(in.GoType))
		}
		if tx.Now != "" {
			commentf(g, "%s, when not zero, is the time the steps write and tell expired items by, instead of the Store's clock. A retry with the same %s must send the same values, times included: give it the %s of the first call.", tx.Now, tx.Token, tx.Now)
			g.Id(tx.Now).Qual("time", "Time")
		}
		if tx.Token != "" {
			commentf(g, "%s, when not empty, is the call's ClientRequestToken, 1 to 36 characters (ErrInvalidRequestToken otherwise): a call repeated with the same token within 10 minutes changes nothing again and succeeds, so a retry after a lost answer is safe. Without one, the SDK gives each call its own token, which makes only its own retries idempotent.", tx.Token)
			g.Id(tx.Token).String()
		}
	})
	m.f.Line()
}

// andList names attributes: "rev, createdAt and updatedAt".
func andList(attrs []*model.Attribute) string {
	var names []string
	for _, a := range attrs {
		names = append(names, a.Name)
	}
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// inputRole says what a step's parameter is, for the field of the
// transaction's struct that gives it.
func inputRole(q *plan.Param) string {
	switch q.Role {
	case plan.ParamKey:
		return fmt.Sprintf("%s, of the key", q.Attr.Name)
	case plan.ParamSet:
		if q.Pointer {
			return fmt.Sprintf("the value %s is set to (nil removes it)", q.Attr.Name)
		}
		return fmt.Sprintf("the value %s is set to", q.Attr.Name)
	case plan.ParamAdd:
		return fmt.Sprintf("the amount added to %s (a negative amount subtracts)", q.Attr.Name)
	case plan.ParamElems:
		return fmt.Sprintf("the elements removed from %s", q.Attr.Name)
	case plan.ParamCond:
		return fmt.Sprintf("the operand of the condition %s %s%s", q.Cond.Attr.Name, q.Cond.Op, condPlace(q))
	case plan.ParamVersion:
		return fmt.Sprintf("the version %s of the item as it was read: the step fails with ErrVersionConflict when the stored one differs", q.Attr.Name)
	case plan.ParamMapKey:
		return fmt.Sprintf("the key of the entry %s", q.Attr.Name)
	}
	return "an input"
}

// txResult emits the result of a transactGet: a field per step.
func (m *method) txResult() {
	tx := m.pp.Tx
	commentf(m.f, "%s holds the items %s reads, read together: each is nil when there is no such item.", m.p.ResultType(), m.p.GoName)
	m.f.Type().Id(m.p.ResultType()).StructFunc(func(g *jen.Group) {
		for _, s := range tx.Steps {
			g.Add(trailing(jen.Id(s.Step.FieldName()).Op("*").Id(s.Step.Entity().GoName), fmt.Sprintf("step %d", s.Step.Index+1)))
		}
	})
	m.f.Line()
}

// txVar emits the transaction's description for the runtime.
func (m *method) txVar() {
	tx := m.pp.Tx
	commentf(m.f, "%s describes the steps of %s for the runtime.", m.p.ConstName("Tx"), m.p.GoName)
	fields := jen.Dict{
		jen.Id("Method"): jen.Lit(m.p.GoName),
		jen.Id("Steps"): jen.Index().Add(rt("TransactStep")).ValuesFunc(func(g *jen.Group) {
			for _, s := range tx.Steps {
				d := stepDict(s.Step.Action(), s.Step.Table, s.IfAbsent, s.IfPresent, s.Plan.Request)
				for _, v := range s.Plan.Request.Values {
					if v.Source == plan.VersionExpected {
						d[jen.Id("Version")] = jen.Lit(v.Attr.Stored)
						d[jen.Id("Expected")] = jen.Lit(v.Placeholder)
					}
				}
				g.Values(d)
			}
		}),
	}
	if len(tx.Distinct) > 0 {
		fields[jen.Id("Distinct")] = jen.Index().Index(jen.Lit(2)).Int().ValuesFunc(func(g *jen.Group) {
			for _, d := range tx.Distinct {
				g.Values(jen.Lit(d[0]), jen.Lit(d[1]))
			}
		})
	}
	m.f.Var().Id(m.p.ConstName("Tx")).Op("=").Add(rt("Transaction")).Values(fields)
	m.f.Line()
}

// stepDict is the dyngen.TransactStep of a step that does action on the
// primary key of table t, failing with ifAbsent or ifPresent (when not
// "") as its condition does, and with its request's expiry.
func stepDict(action string, t *model.Table, ifAbsent, ifPresent string, req *plan.Request) jen.Dict {
	ix := t.Primary()
	key := []jen.Code{jen.Lit(ix.PK.Name)}
	if ix.SK != nil {
		key = append(key, jen.Lit(ix.SK.Name))
	}
	d := jen.Dict{jen.Id("Action"): jen.Lit(action), jen.Id("Key"): jen.Index().String().Values(key...)}
	if ifAbsent != "" {
		d[jen.Id("IfAbsent")] = jen.Id(ifAbsent)
	}
	if ifPresent != "" {
		d[jen.Id("IfPresent")] = jen.Id(ifPresent)
	}
	if x := req.Expiry; x != nil && !x.InCode {
		d[jen.Id("TTL")] = jen.Lit(x.Attr)
		d[jen.Id("Now")] = jen.Lit(req.Placeholder(plan.Now))
	}
	return d
}

// stepErrors are the errors a transaction's steps may fail with, in a
// fixed order: their conditions' and a conflict's.
func stepErrors(tx *plan.Transaction) []string {
	may := map[string]bool{"ErrTransactionConflict": true}
	for _, s := range tx.Steps {
		may[s.IfAbsent], may[s.IfPresent] = true, true
		for _, v := range s.Plan.Request.Values {
			if v.Source == plan.VersionExpected {
				may["ErrVersionConflict"] = true
			}
		}
	}
	var out []string
	for _, e := range []string{"ErrAlreadyExists", "ErrNotFound", "ErrConditionFailed", "ErrVersionConflict", "ErrTransactionConflict"} {
		if may[e] {
			out = append(out, e)
		}
	}
	return out
}

// txDoc emits the doc comment of a transaction's method: what it does,
// then each step's action, table, key and expressions.
func (m *method) txDoc() {
	tx := m.pp.Tx
	m.docHead()
	comment(m.f, "\t"+string(m.pp.Call))
	for _, s := range tx.Steps {
		comment(m.f, fmt.Sprintf("\tstep %d, %s on table %s: %s", s.Step.Index+1, s.Action, s.Step.Table.Name, s.Step.Action()))
		comment(m.f, "\t  Key: "+s.Plan.Key.Describe())
		for _, l := range s.Plan.Request.Describe() {
			comment(m.f, "\t  "+l)
		}
	}
	if len(tx.Distinct) > 0 {
		var pairs []string
		for _, d := range tx.Distinct {
			pairs = append(pairs, fmt.Sprintf("%d and %d", d[0]+1, d[1]+1))
		}
		comment(m.f, "")
		commentf(m.f, "Steps %s may address one item, which DynamoDB refuses: their keys are compared before the call (ErrSameItem).", strings.Join(pairs, ", "))
	}
	if tx.Token != "" {
		comment(m.f, "")
		commentf(m.f, "Give params.%s to make a retried call idempotent.", tx.Token)
	}
}

// stepCalls emits the building of every step's request into items[i],
// made a transaction's item by the runtime's wrap function of its action
// (transactPut...), failing with the step's error.
func (m *method) stepCalls(g *jen.Group, fail func(jen.Code) jen.Code, itemType string) {
	tx := m.pp.Tx
	st := m.pp.Struct
	g.Add(m.id("items")).Op(":=").Make(jen.Index().Qual(pathTypes, itemType), jen.Lit(len(tx.Steps)))
	g.Var().Add(m.id("err")).Error()
	now := m.readClock(g)
	m.itemCopies(g, fail)
	input := func(in *plan.Input) *jen.Statement {
		if in.Item != nil {
			return jen.Id(in.Copy)
		}
		return jen.Id(st.Var).Dot(in.Field)
	}
	for _, i := range tx.Order {
		s := tx.Steps[i]
		var args []jen.Code
		for j, q := range s.Plan.Params {
			a := s.Args[j]
			if a.Clock {
				args = append(args, jen.Id(now))
				continue
			}
			if s.Step.Count != nil {
				// A counter, of the item a create step writes.
				args = append(args, m.countArgCode(s, q, a, func(b *plan.Arg) jen.Code { return input(b.Input).Dot(b.Field) }))
				continue
			}
			if a.Build != nil {
				// A claim, built from the fields of an item.
				args = append(args, m.claimCode(a, func(b *plan.Arg) jen.Code { return lower(b, input(b.Input).Dot(b.Field)) }))
				continue
			}
			v := input(a.Input)
			if a.Field != "" {
				v = v.Dot(a.Field)
			}
			if q.Role == plan.ParamItem {
				v = jen.Op("&").Add(v)
			}
			args = append(args, v)
		}
		build := rt(stepWrappers[s.Action]).Call(m.id("s").Dot(s.Plan.Pattern.InputMethod()).Call(args...))
		g.If(jen.List(m.id("items").Index(jen.Lit(i)), m.id("err")).Op("=").Add(build), m.id("err").Op("!=").Nil()).Block(
			fail(jen.Id(m.p.ConstName("Tx")).Dot("StepError").Call(jen.Lit(i), m.id("err"))),
		)
	}
}

// itemCopies emits, for each item a step writes, the check that the
// caller gave one and a copy of it, which building the step stamps with
// the version and times it writes (so that a bind of them reads what is
// written) and which the method gives back on success: the local the
// plan named (Input.Copy).
func (m *method) itemCopies(g *jen.Group, fail func(jen.Code) jen.Code) {
	st := m.pp.Struct
	for _, in := range m.pp.Tx.ItemInputs() {
		g.If(jen.Id(st.Var).Dot(in.Field).Op("==").Nil()).Block(
			fail(jen.Id(m.p.ConstName("Tx")).Dot("StepError").Call(jen.Lit(in.Item.Index), jen.Op("&").Id("ItemError").Values(
				jen.Id("Entity").Op(":").Lit(in.Item.Entity().Name),
				jen.Id("Reason").Op(":").Lit(fmt.Sprintf("no item: %s.%s is nil", st.Var, in.Field)),
			))),
		)
		g.Id(in.Copy).Op(":=").Op("*").Id(st.Var).Dot(in.Field)
	}
}

// giveBack emits, after a transaction succeeded, the copies of its items,
// as written, into the caller's items.
func (m *method) giveBack(g *jen.Group) {
	for _, in := range m.pp.Tx.ItemInputs() {
		g.Op("*").Id(m.pp.Struct.Var).Dot(in.Field).Op("=").Id(in.Copy)
	}
}

// stepWrappers are the runtime's functions that make a step's request,
// built as its own call would send it, a transaction's item, by the
// step's action.
var stepWrappers = map[string]string{"Put": "TransactPut", "Update": "TransactUpdate", "Delete": "TransactDelete", "ConditionCheck": "TransactCheck", "Get": "TransactGet"}

// readClock emits, when a step takes the time, the one reading of the
// Store's clock of the call, or the struct's Now when given, and returns
// the local holding it.
func (m *method) readClock(g *jen.Group) string {
	uses := false
	for _, s := range m.pp.Tx.Steps {
		uses = uses || slices.ContainsFunc(s.Args, func(a *plan.Arg) bool { return a.Clock })
	}
	if !uses {
		return ""
	}
	now := m.local("now")
	g.Id(now).Op(":=").Add(m.id("s")).Dot(model.ClockField).Call()
	if f := m.pp.Tx.Now; f != "" {
		g.If(jen.Op("!").Id(m.pp.Struct.Var).Dot(f).Dot("IsZero").Call()).Block(jen.Id(now).Op("=").Id(m.pp.Struct.Var).Dot(f))
	}
	return now
}

// transactWrite emits the method of a transaction of writes.
func (m *method) transactWrite() {
	tx := m.pp.Tx
	txVar := jen.Id(m.p.ConstName("Tx"))
	m.signature().BlockFunc(func(g *jen.Group) {
		fail := func(err jen.Code) jen.Code { return jen.Return(err) }
		m.stepCalls(g, fail, "TransactWriteItem")
		if len(tx.Distinct) > 0 {
			g.If(m.id("err").Op(":=").Add(txVar).Dot("DistinctItems").Call(m.id("items")), m.id("err").Op("!=").Nil()).Block(jen.Return(m.id("err")))
		}
		g.List(m.id("token"), m.id("err")).Op(":=").Add(txVar).Dot("RequestToken").Call(jen.Id(m.pp.Struct.Var).Dot(tx.Token))
		g.If(m.id("err").Op("!=").Nil()).Block(jen.Return(m.id("err")))
		g.Add(m.id("in")).Op(":=").Op("&").Qual(pathDynamo, "TransactWriteItemsInput").Values(jen.Dict{
			jen.Id("TransactItems"):      m.id("items"),
			jen.Id("ClientRequestToken"): m.id("token"),
		})
		g.If(jen.List(jen.Id("_"), m.id("err")).Op(":=").Add(m.id("s")).Dot("client").Dot("TransactWriteItems").Call(m.id("ctx"), m.id("in")), m.id("err").Op("!=").Nil()).Block(
			jen.Return(txVar.Clone().Dot("Err").Call(m.id("err"), m.id("in").Dot("TransactItems"))),
		)
		m.giveBack(g)
		g.Return(jen.Nil())
	})
	m.f.Line()
}

// transactGet emits the method of a transactGet.
func (m *method) transactGet() {
	tx := m.pp.Tx
	txVar := jen.Id(m.p.ConstName("Tx"))
	m.signature().BlockFunc(func(g *jen.Group) {
		fail := func(err jen.Code) jen.Code { return jen.Return(jen.Nil(), err) }
		m.stepCalls(g, fail, "TransactGetItem")
		if len(tx.Distinct) > 0 {
			g.If(m.id("err").Op(":=").Add(txVar).Dot("DistinctGets").Call(m.id("items")), m.id("err").Op("!=").Nil()).Block(jen.Return(jen.Nil(), m.id("err")))
		}
		in := jen.Op("&").Qual(pathDynamo, "TransactGetItemsInput").Values(jen.Dict{jen.Id("TransactItems"): m.id("items")})
		g.List(m.id("out"), m.id("err")).Op(":=").Add(m.id("s")).Dot("client").Dot("TransactGetItems").Call(m.id("ctx"), in)
		g.If(m.id("err").Op("!=").Nil()).Block(fail(txVar.Clone().Dot("Err").Call(m.id("err"), jen.Nil())))
		g.Var().Add(m.id("res")).Id(m.p.ResultType())
		now := m.local("now")
		if slices.ContainsFunc(tx.Steps, func(s *plan.Step) bool { return s.Plan.Request.Expiry != nil }) {
			g.Id(now).Op(":=").Add(m.clockNow())
		}
		for i, s := range tx.Steps {
			ent := s.Step.Entity()
			present := jen.Len(m.id("item")).Op(">").Lit(0)
			if x := s.Plan.Request.Expiry; x != nil && x.InCode {
				// An expired item is absent.
				present = present.Op("&&").Op("!").Add(rt("Expired")).Call(m.id("item"), jen.Lit(x.Attr), jen.Id(now))
			}
			g.If(m.id("item").Op(":=").Add(rt("ItemAt")).Call(m.id("out").Dot("Responses"), jen.Lit(i)), present).Block(
				jen.Var().Add(m.id("v")).Id(ent.GoName),
				jen.If(m.id("err").Op(":=").Add(m.id("v")).Dot("UnmarshalItem").Call(m.id("item")), m.id("err").Op("!=").Nil()).Block(fail(txVar.Clone().Dot("StepError").Call(jen.Lit(i), m.id("err")))),
				m.id("res").Dot(s.Step.FieldName()).Op("=").Op("&").Add(m.id("v")),
			)
		}
		g.Return(jen.Op("&").Add(m.id("res")), jen.Nil())
	})
	m.f.Line()
}

package golang

import (
	"slices"
	"strconv"

	"github.com/dave/jennifer/jen"

	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/plan"
)

// isRead reports whether the runtime sends the request of pp from a Read
// variable and an index's (see readVar): a get by the primary key or a
// query, but a unique value's lookup and a get of a copy.
func isRead(pp *plan.Pattern) bool {
	return pp.Unique == nil && pp.Form != plan.FormCopyGet && (pp.Call == plan.GetItem || pp.Call == plan.Query)
}

// indexVars emits the indexes the reads of patterns use, in the order of
// their tables' indexes: each index's key attributes, those of its start
// keys, and the table's, for the runtime.
func (e *emitter) indexVars(f *jen.File, patterns []*plan.Pattern) {
	var used []*model.Index
	for _, pp := range patterns {
		if isRead(pp) && !slices.Contains(used, pp.Index) {
			used = append(used, pp.Index)
		}
	}
	for _, t := range e.p.Model.Tables {
		for _, ix := range t.Indexes {
			if !slices.Contains(used, ix) {
				continue
			}
			var start []jen.Code
			for _, a := range (&plan.KeyCond{Index: ix}).StartKey() {
				// One line each: the fields in a list, not a jen.Dict.
				fields := []jen.Code{jen.Id("Name").Op(":").Lit(a.Name), jen.Id("Kind").Op(":").LitRune(rune(a.Type[0]))}
				if a.Sort {
					fields = append(fields, jen.Id("Sort").Op(":").True())
				}
				start = append(start, jen.Values(fields...))
			}
			var item []jen.Code
			for _, ka := range t.Primary().KeyAttrs() {
				item = append(item, jen.Lit(ka.Name))
			}
			fields := []field{litField("Name", ix.Name), litField("PK", ix.PK.Name)}
			if ix.IsPrimary() {
				fields = fields[1:]
			}
			if ix.SK != nil {
				fields = append(fields, litField("SK", ix.SK.Name))
			}
			fields = append(fields, field{"Item", jen.Index().String().Values(item...), 30}, field{"Start", jen.Index().Add(rt("StartAttr")).Values(start...), 0})
			what := "table " + t.Name + "'s primary key"
			if !ix.IsPrimary() {
				what = ix.Kind.String() + " " + ix.Name + " of table " + t.Name
			}
			commentf(f, "%s is %s, as the reads use it.", model.IndexVar(ix), what)
			f.Var().Id(model.IndexVar(ix)).Op("=").Op("&").Add(structLines(rt("Index"), fields))
			f.Line()
		}
	}
}

// field is a field of a struct literal the generated code holds, and
// about the width of its value as printed; 0 for a long value, which
// stands on a line of its own.
type field struct {
	name  string
	value jen.Code
	width int
}

// litField is a field holding a string literal.
func litField(name, s string) field { return field{name, jen.Lit(s), len(strconv.Quote(s))} }

// idField is a field holding an identifier.
func idField(name, id string) field { return field{name, jen.Id(id), len(id)} }

// trueField is a field holding true.
func trueField(name string) field { return field{name, jen.True(), 4} }

// intField is a field holding an int.
func intField(name string, n int) field { return field{name, jen.Lit(n), len(strconv.Itoa(n))} }

// maxFieldsLine is the most characters of fields structLines puts on one
// line, its tab left out.
const maxFieldsLine = 80

// structLines is the literal of a struct type typ with fields, several
// on a line where they fit: a description the runtime reads, which a
// field a line would make long.
func structLines(typ jen.Code, fields []field) jen.Code {
	var lines []jen.Code
	var line *jen.Statement
	width := 0
	for _, f := range fields {
		w := len(f.name) + 2 + f.width + 2
		if f.width == 0 {
			// A long value: a line of its own.
			w = maxFieldsLine
		}
		if line == nil || width+w > maxFieldsLine {
			line = jen.Null()
			lines = append(lines, line)
			width = 0
		} else {
			line.Op(",")
		}
		line.Id(f.name).Op(":").Add(f.value)
		width += w
	}
	if len(lines) == 1 {
		return jen.Add(typ).Values(lines[0])
	}
	return jen.Add(typ).Custom(jen.Options{Open: "{", Close: "}", Separator: ",", Multi: true}, lines...)
}

// projectionFields adds to the fields of a Get the projection of the
// request and its names.
func (m *method) projectionFields(fields []field) []field {
	if m.req.Projection == "" {
		return fields
	}
	fields = append(fields, litField("Projection", m.req.Projection))
	if len(m.req.Names) > 0 {
		fields = append(fields, field{"Names", m.namesMap(), 0})
	}
	return fields
}

// queryLit is the dyngen.Query of the pattern's read, all of its request
// but the values of a call: the expressions, the index, the order and
// limit, the cursor check (the key condition's operator and
// placeholders, the clock's placeholder) and the items it keeps.
func (m *method) queryLit() jen.Code {
	// The expressions are the Read's fields: a reviewer sees them there.
	var exprs []field
	for _, c := range []struct{ field, value string }{
		{"KeyCondition", m.req.KeyCondition},
		{"Filter", m.req.Filter},
		{"Projection", m.req.Projection},
	} {
		if c.value != "" {
			exprs = append(exprs, litField(c.field, c.value))
		}
	}
	fields := []field{litField("Method", m.p.GoName)}
	if m.p.Name != m.p.GoName {
		// The cursors are bound to the spec's name of the pattern.
		fields = append(fields, litField("Pattern", m.p.Name))
	}
	fields = append(fields, idField("Index", model.IndexVar(m.pp.Index)))
	fields = append(fields, exprs...)
	if len(m.req.Names) > 0 {
		fields = append(fields, field{"Names", m.namesMap(), 0})
	}
	if m.req.Descending {
		fields = append(fields, trueField("Descending"))
	}
	if m.p.Consistent {
		fields = append(fields, trueField("Consistent"))
	}
	switch {
	case m.req.Limit > 0:
		// A get through an index, a query's first item: one item.
		fields = append(fields, intField("Limit", int(m.req.Limit)))
	case m.req.PageLimit > 0:
		fields = append(fields, intField("Limit", int(m.req.PageLimit)))
	}
	if op := m.pp.Key.Op(); op != "" {
		fields = append(fields, litField("Op", op))
	}
	if ka := m.pp.Key.RangeAttr(); ka != nil {
		fields = append(fields, litField("Attr", ka.Name))
	}
	if m.pp.Index.Multi() {
		// Each attribute compared with equality, with its value's
		// placeholder.
		var eq []jen.Code
		for _, v := range m.req.Values {
			if v.Source == plan.KeyPart {
				eq = append(eq, jen.Values(jen.Id("Attr").Op(":").Lit(m.pp.Index.KeyAttrs()[v.Operand].Name), jen.Id("Value").Op(":").Lit(v.Placeholder)))
			}
		}
		fields = append(fields, field{"Equal", jen.Index().Add(rt("KeyValue")).Values(eq...), 0})
	}
	for _, v := range []struct {
		name string
		src  plan.Source
	}{{"PK", plan.PKValue}, {"SK", plan.SKValue}, {"Lo", plan.SKLow}, {"Hi", plan.SKHigh}, {"Clock", plan.Now}} {
		if ph := m.req.Placeholder(v.src); ph != "" {
			fields = append(fields, litField(v.name, ph))
		}
	}
	if m.dropsForeign() {
		fields = append(fields, litField("TypeAttr", m.p.Table.EntityAttr), litField("TypeValue", m.ent().TypeValue))
	}
	if x := m.req.Expiry; x != nil && x.InCode {
		fields = append(fields, litField("TTL", x.Attr))
	}
	return jen.Op("&").Add(structLines(rt("Query"), fields))
}

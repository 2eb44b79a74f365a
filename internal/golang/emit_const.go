package golang

import (
	"strconv"
	"strings"
	"time"

	"github.com/dave/jennifer/jen"

	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/plan"
)

// Printing the constants of the spec: the plan decided each one's value
// as the request sends it (plan.Literal); every constant reaches the
// generated code through literalValue, or goLiteral where a key builder
// takes it as a Go value, and only as a Go literal (jen.Lit quotes it).

// literalValue is the attribute value a request sends for a constant.
func literalValue(l *plan.Literal) jen.Code {
	if l.Dynamo == "BOOL" {
		return memberValue("BOOL", jen.Lit(l.Text == "true"))
	}
	return memberValue(l.Dynamo, jen.Lit(l.Text))
}

// goLiteral is the Go value of attribute a that constant l stores, as a
// key builder takes it and a read of a default gives it.
func goLiteral(ent *model.Entity, a *model.Attribute, l *plan.Literal) jen.Code {
	f := a.StoredForm()
	switch f.Go {
	case model.GoInt64:
		n, _ := strconv.ParseInt(l.Text, 10, 64)
		return jen.Lit(n)
	case model.GoFloat64:
		x, _ := strconv.ParseFloat(l.Text, 64)
		return jen.Lit(x)
	case model.GoBool:
		return jen.Lit(l.Text == "true")
	case model.GoEnum:
		return jen.Id(model.EnumType(ent, a)).Parens(jen.Lit(l.Text))
	case model.GoStrings:
		// A path: its elements.
		return jen.Index().String().ValuesFunc(func(g *jen.Group) {
			for _, el := range strings.Split(l.Text, string(a.Separator)) {
				g.Lit(el)
			}
		})
	case model.GoTime:
		if l.Dynamo == "N" {
			n, _ := strconv.ParseInt(l.Text, 10, 64)
			// In UTC, as the readers give a time stored as N.
			if f.Base == model.BaseUnixMilli {
				return jen.Qual("time", "UnixMilli").Call(jen.Lit(n)).Dot("UTC").Call()
			}
			return jen.Qual("time", "Unix").Call(jen.Lit(n), jen.Lit(0)).Dot("UTC").Call()
		}
		layout := "2006-01-02T15:04:05.000000000Z"
		if f.Text == model.TextDate {
			layout = time.DateOnly
		}
		t, _ := time.Parse(layout, l.Text)
		return jen.Qual("time", "Date").Call(jen.Lit(t.Year()), jen.Qual("time", t.Month().String()), jen.Lit(t.Day()),
			jen.Lit(t.Hour()), jen.Lit(t.Minute()), jen.Lit(t.Second()), jen.Lit(t.Nanosecond()), jen.Qual("time", "UTC"))
	}
	return jen.Lit(l.Text)
}

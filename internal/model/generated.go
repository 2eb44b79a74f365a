package model

import (
	"fmt"
	"strings"
)

// The names of the generated package, derived here so that the checks and
// the emitter agree on them.

// FixedNames are the package-level identifiers every generated package
// declares.
var FixedNames = []string{
	"Store", "New", "Option", "Client", "Cursor", "Tables",
	"ErrNotFound", "ErrAlreadyExists", "ErrConditionFailed", "ErrInvalidKey",
}

// EntityMethods are the methods generated on every entity type; an
// attribute can't have a Go field of the same name.
var EntityMethods = []string{"MarshalItem", "UnmarshalItem"}

// EnumType is the Go type of an enum attribute: the entity's and the
// attribute's Go names (OrderStatus).
func EnumType(e *Entity, a *Attribute) string { return e.GoName + a.GoName }

// EnumConst is the Go constant of one enum value (OrderStatusShipped).
func EnumConst(e *Entity, a *Attribute, value string) string {
	g := GoName(value)
	if g == "" {
		// A value that starts with a digit or has no letter: keep its
		// characters that can stand in an identifier.
		var b strings.Builder
		for _, r := range value {
			if r < 128 && (r == '_' || ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') || ('0' <= r && r <= '9')) {
				b.WriteRune(r)
			}
		}
		g = "V" + b.String()
	}
	return EnumType(e, a) + g
}

// PageType is the Go type of one page of a query's results.
func (p *Pattern) PageType() string { return p.GoName + "Page" }

// ViewType is the Go type a read with select returns.
func (p *Pattern) ViewType() string { return p.GoName + "Item" }

// GenName is a package-level identifier the generated code declares, with
// what it comes from.
type GenName struct {
	Name string
	From string
	Pos  Pos
}

// GeneratedNames lists the package-level identifiers the spec makes the
// generator declare, besides FixedNames, in spec order.
func (m *Model) GeneratedNames() []GenName {
	var out []GenName
	for _, t := range m.Tables {
		out = append(out, GenName{t.GoName + "Table", "table " + t.Name, t.Pos})
	}
	for _, e := range m.Entities {
		out = append(out, GenName{e.GoName, "entity " + e.Name, e.Pos})
		for _, a := range e.Attributes {
			if a.Type != Enum {
				continue
			}
			out = append(out, GenName{EnumType(e, a), fmt.Sprintf("enum %s of %s", a.Name, e.Name), a.Pos})
			for _, v := range a.Values {
				out = append(out, GenName{EnumConst(e, a, v), fmt.Sprintf("enum value %q of %s.%s", v, e.Name, a.Name), a.Pos})
			}
		}
	}
	for _, p := range m.Patterns {
		if p.Op == OpQuery {
			out = append(out, GenName{p.PageType(), "pattern " + p.Name, p.Pos})
		}
		if len(p.Select) > 0 {
			out = append(out, GenName{p.ViewType(), "pattern " + p.Name, p.Pos})
		}
	}
	return out
}

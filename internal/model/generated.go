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
	"Store", "New", "Option", "Client", "Cursor", "Page", "Tables",
	"KeyError", "ItemError",
	"ErrNotFound", "ErrAlreadyExists", "ErrConditionFailed", "ErrInvalidKey",
	"ErrInvalidItem", "ErrInvalidCursor",
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

// ResultType is the Go type of one page of a query's results.
func (p *Pattern) ResultType() string { return p.GoName + "Result" }

// AllMethod is the Store method that walks every page of a query.
func (p *Pattern) AllMethod() string { return p.GoName + "All" }

// TableOption is the option that sets a table's physical name.
func (t *Table) TableOption() string { return "With" + t.GoName + "Table" }

// KeyType is the Go type holding an entity's primary key attributes, for
// batch reads and deletes.
func (e *Entity) KeyType() string { return e.GoName + "Key" }

// NeedsKeyType reports whether a pattern of m takes keys of e.
func (m *Model) NeedsKeyType(e *Entity) bool {
	for _, p := range m.Patterns {
		if (p.Op == OpBatchGet || p.Op == OpBatchDelete) && p.Entity() == e {
			return true
		}
	}
	return false
}

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
		out = append(out, GenName{t.TableOption(), "table " + t.Name, t.Pos})
	}
	for _, e := range m.Entities {
		out = append(out, GenName{e.GoName, "entity " + e.Name, e.Pos})
		if m.NeedsKeyType(e) {
			out = append(out, GenName{e.KeyType(), "entity " + e.Name, e.Pos})
		}
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
			out = append(out, GenName{p.ResultType(), "pattern " + p.Name, p.Pos})
		}
		if len(p.Select) > 0 {
			out = append(out, GenName{p.ViewType(), "pattern " + p.Name, p.Pos})
		}
	}
	return out
}

// StoreMethods lists the methods the generated Store declares, with what
// they come from: one per pattern, and an iterator per query.
func (m *Model) StoreMethods() []GenName {
	var out []GenName
	for _, p := range m.Patterns {
		out = append(out, GenName{p.GoName, "pattern " + p.Name, p.Pos})
		if p.Op == OpQuery {
			out = append(out, GenName{p.AllMethod(), "pattern " + p.Name, p.Pos})
		}
	}
	return out
}

// PluralName is the entity's Go name in the plural: the field of a
// collection read's result that holds its items.
func (e *Entity) PluralName() string {
	n := e.GoName
	switch {
	case strings.HasSuffix(n, "y") && len(n) > 1 && !strings.ContainsAny(n[len(n)-2:len(n)-1], "aeiou"):
		return n[:len(n)-1] + "ies"
	case strings.HasSuffix(n, "s"), strings.HasSuffix(n, "x"), strings.HasSuffix(n, "ch"), strings.HasSuffix(n, "sh"):
		return n + "es"
	}
	return n + "s"
}

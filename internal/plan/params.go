package plan

import (
	"fmt"
	"slices"

	"github.com/dyngen/dyngen/internal/model"
)

// Role is what a method's parameter gives the call.
type Role int

const (
	ParamKey   Role = iota // an attribute the key is built from (Attr)
	ParamWhere             // operand Operand of the where condition (Attr)
	ParamCond              // operand Operand of a filter or when condition (Cond)
	ParamSet               // the value an update sets Attr to
	ParamAdd               // the amount an update adds to Attr
	ParamPage              // the page of a query
	ParamItem              // the item a put writes
	ParamKeys              // the keys of a batch read or delete
	ParamItems             // the items of a batch put
)

// Param is a parameter of a pattern's method, after ctx.
type Param struct {
	Name    string
	Role    Role
	Attr    *model.Attribute
	Cond    *model.Cond
	Operand int
	// Renamed is set when Name is not the name derived from the
	// attribute, because that name is taken (a Go keyword or predeclared
	// identifier, an imported package, a name the package or the method
	// declares, or another parameter): the doc comment says so.
	Renamed bool
}

// Param returns the pattern's parameter of role r for attribute a (or
// condition c) and operand i, or nil.
func (pp *Pattern) Param(r Role, a *model.Attribute, c *model.Cond, i int) *Param {
	for _, p := range pp.Params {
		if p.Role == r && p.Attr == a && p.Cond == c && p.Operand == i {
			return p
		}
	}
	return nil
}

// params decides the parameters of a pattern's method and their names.
func (b *builder) params(pp *Pattern) {
	p := pp.Pattern
	var out []*Param
	taken := func(name string) bool {
		return model.TakenByCode(name) || b.packageNames[name] || slices.ContainsFunc(out, func(q *Param) bool { return q.Name == name })
	}
	// name returns base, or base_ (then base_2, base_3...) when base is
	// taken.
	name := func(base string) string {
		if !taken(base) {
			return base
		}
		n := base + "_"
		for i := 2; taken(n); i++ {
			n = fmt.Sprintf("%s_%d", base, i)
		}
		return n
	}
	add := func(r Role, a *model.Attribute, c *model.Cond, i int, suffix string) {
		base := model.ParamName(a.GoName) + suffix
		n := name(base)
		out = append(out, &Param{Name: n, Role: r, Attr: a, Cond: c, Operand: i, Renamed: n != base})
	}
	fixed := func(r Role, name string) {
		out = append(out, &Param{Name: name, Role: r})
	}
	conds := func(cs []*model.Cond) {
		for _, c := range cs {
			if !c.IsParam() {
				continue
			}
			if c.Op == model.OpBetween {
				add(ParamCond, c.Attr, c, 0, "From")
				add(ParamCond, c.Attr, c, 1, "To")
			} else {
				add(ParamCond, c.Attr, c, 0, "")
			}
		}
	}
	keys := func() {
		for _, a := range pp.Inputs {
			add(ParamKey, a, nil, 0, "")
		}
	}
	switch p.Op {
	case model.OpGet, model.OpDelete:
		keys()
		conds(p.When)
	case model.OpQuery:
		keys()
		if w := p.Where; w != nil {
			if w.Op == model.OpBetween {
				add(ParamWhere, w.Attr, nil, 0, "From")
				add(ParamWhere, w.Attr, nil, 1, "To")
			} else {
				add(ParamWhere, w.Attr, nil, 0, "")
			}
		}
		conds(p.Filter)
		if !p.First {
			fixed(ParamPage, "page")
		}
	case model.OpPut, model.OpCreate:
		base := model.ParamName(p.Entity().GoName)
		n := name(base)
		out = append(out, &Param{Name: n, Role: ParamItem, Renamed: n != base})
		conds(p.When)
	case model.OpUpdate:
		keys()
		for _, a := range p.Set {
			add(ParamSet, a, nil, 0, "")
		}
		for _, a := range p.Add {
			add(ParamAdd, a, nil, 0, "")
		}
		conds(p.When)
	case model.OpBatchGet, model.OpBatchDelete:
		fixed(ParamKeys, "keys")
	case model.OpBatchPut:
		fixed(ParamItems, "items")
	}
	pp.Params = out
}

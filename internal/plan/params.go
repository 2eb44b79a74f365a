package plan

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/dyngen/dyngen/internal/model"
)

// Role is what a method's parameter gives the call.
type Role int

const (
	ParamKey     Role = iota // an attribute the key is built from (Attr)
	ParamWhere               // operand Operand of the where condition (Attr)
	ParamCond                // operand Operand of a filter or when condition (Cond)
	ParamSet                 // the value an update sets Attr to
	ParamAdd                 // the amount an update adds to Attr
	ParamElems               // the elements an update removes from set Attr
	ParamPage                // the page of a query
	ParamItem                // the item a put writes
	ParamKeys                // the keys of a batch read or delete
	ParamItems               // the items of a batch put
	ParamVersion             // the version Attr the caller read (update, delete)
	ParamClock               // the time a transaction's step takes, read once per call
	ParamMapKey              // the key of the map entry Attr (approvals.{reviewer})
	ParamRead                // the item a transaction's write read, as stored (Request.Held)

	roleCount // the number of roles; each has a name (Role.String)
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
	// identifier, an imported package, a name the package declares, or
	// another parameter): the doc comment says so. The method's own
	// locals never take a parameter's name: they give way
	// (Pattern.Locals).
	Renamed bool
	// Nth is, for an operand of a condition whose attribute has several
	// conditions with parameters (in the branches of an or), the
	// condition's place among them from 1; from 2, the name and the
	// field end with it (owner, owner2). 0 otherwise.
	Nth int
	// Pointer is set when the parameter is a pointer to the attribute's
	// value: an update's value of an optional scalar, nil removing it.
	Pointer bool
	// Field is the parameter's field in the method's Inputs struct; ""
	// when the method takes its inputs as parameters of their own.
	Field string
	// fixed is set on a parameter the generated code names (page, keys,
	// items), which gives way to a parameter of the spec's as a local
	// does (Pattern.Locals).
	fixed bool
}

// ParamsStruct is the struct a method takes its inputs in, past
// model.MaxPositional of them: the entity's key type, or the pattern's
// own (model.Pattern.ParamsType). The method's body declares each
// parameter as a local from its field, so it reads them as it would
// parameters.
type ParamsStruct struct {
	Type string // the struct's type
	Var  string // the method's parameter holding it
	// Own is set when Type is the pattern's own, declared with the
	// method; the entity's key type is declared with the entity.
	Own bool
	// Renamed lists the fields not named after their attribute alone,
	// because another field has that name.
	Renamed []*Param
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
	// A parameter keeps the spec's name unless the method could not use
	// it: a name of Go's or of the package, or another parameter's. The
	// method's own locals give way to it (locals).
	taken := func(name string) bool {
		return model.TakenByPackage(name) || b.packageNames[name] || slices.ContainsFunc(out, func(q *Param) bool { return q.Name == name })
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
	// fixed is a parameter of the generated code's (page, keys, items):
	// it is named after the locals are (locals), and gives way as they
	// do.
	fixed := func(r Role, name string) {
		out = append(out, &Param{Name: name, Role: r, fixed: true})
	}
	// An attribute with several conditions that take parameters (in the
	// branches of an or) names the second one's after its place (owner2,
	// priceFrom2): a name another parameter has is refused, never changed.
	conds := func(cs []*model.Cond) {
		several := map[*model.Attribute]int{}
		for _, c := range model.Leaves(cs) {
			if c.IsParam() {
				several[c.Attr]++
			}
		}
		seen := map[*model.Attribute]int{}
		for _, c := range model.Leaves(cs) {
			if !c.IsParam() {
				continue
			}
			seen[c.Attr]++
			nth, num := seen[c.Attr], ""
			if several[c.Attr] == 1 {
				nth = 0
			}
			if nth > 1 {
				num = strconv.Itoa(nth)
				base := model.ParamName(c.Attr.GoName)
				for _, part := range operandParts(c) {
					want := base + part + num
					if q := slices.IndexFunc(out, func(q *Param) bool { return q.Name == want }); q >= 0 {
						b.errorf(c.Pos, "%s %s: condition %d on %s takes a parameter named %s after its place, and %s is the name of the parameter of %s; give attribute %s another Go name (go:), or make one of the conditions on %s a constant", p.Op, p.Name, nth, c.Attr.Name, want, want, out[q].Attr.Name, out[q].Attr.Name, c.Attr.Name)
					}
				}
			}
			for i, part := range operandParts(c) {
				add(ParamCond, c.Attr, c, i, part+num)
				out[len(out)-1].Nth = nth
			}
		}
	}
	keys := func() {
		for _, a := range pp.Inputs {
			add(ParamKey, a, nil, 0, "")
		}
	}
	// version is the version the caller read, which an update, delete or
	// check of a versioned entity expects; a check that no item has the
	// key (exists: false) reads no version. It is named after the entity
	// and the attribute (vaultRev), as a transaction's step names its own
	// (VaultRev, FromRev for a step as: from): one name in every params
	// struct.
	version := func() {
		if a := p.Entity().Version; a != nil && p.Op != model.OpGet && !p.Missing {
			base := model.ParamName(p.Entity().GoName + a.GoName)
			n := name(base)
			out = append(out, &Param{Name: n, Role: ParamVersion, Attr: a, Renamed: n != base})
		}
	}
	// mapKeys adds the keys of the map entries the call writes or tests
	// (approvals.{reviewer}), once each, before the values: the
	// parameters that name what the values are of.
	mapKeys := func(lists ...[]*model.Attribute) {
		for _, list := range lists {
			for _, a := range list {
				if a.MapKey != "" && !slices.ContainsFunc(out, func(q *Param) bool { return q.Role == ParamMapKey && q.Attr == a }) {
					base := model.ParamName(a.KeyGoName())
					n := name(base)
					out = append(out, &Param{Name: n, Role: ParamMapKey, Attr: a, Renamed: n != base})
				}
			}
		}
	}
	switch p.Op {
	case model.OpGet, model.OpDelete, model.OpCheck:
		keys()
		version()
		mapKeys(condAttrList(p.When))
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
		mapKeys(condAttrList(p.Filter))
		conds(p.Filter)
		if !p.First {
			fixed(ParamPage, "page")
		}
	case model.OpPut, model.OpCreate:
		base := model.ParamName(p.Entity().GoName)
		n := name(base)
		out = append(out, &Param{Name: n, Role: ParamItem, Renamed: n != base})
		mapKeys(condAttrList(p.When))
		conds(p.When)
	case model.OpUpdate:
		keys()
		version()
		mapKeys(p.SetAttrs(), p.Remove, condAttrList(p.When))
		for _, a := range p.Set {
			add(ParamSet, a, nil, 0, "")
			out[len(out)-1].Pointer = a.StoredForm().Pointer
		}
		for _, a := range p.Add {
			add(ParamAdd, a, nil, 0, "")
		}
		for _, a := range p.RemoveFrom {
			add(ParamElems, a, nil, 0, "")
		}
		conds(p.When)
	case model.OpBatchGet, model.OpBatchDelete:
		fixed(ParamKeys, "keys")
	case model.OpBatchPut:
		fixed(ParamItems, "items")
	}
	pp.Params = out
	pp.Struct = inputsStruct(pp, taken)
	pp.Locals = b.locals(pp)
	for _, q := range out {
		if q.fixed {
			q.Name = pp.Local(q.Name)
		}
	}
}

// operandParts are the endings of the names of a condition's operands
// given as parameters: From and To for between, none for one operand.
func operandParts(c *model.Cond) []string {
	if c.Op == model.OpBetween {
		return []string{"From", "To"}
	}
	return []string{""}
}

// locals decides the names of the method's own locals (and receiver,
// ctx and fixed parameters: model.MethodLocals) that a parameter of the
// spec's, or the struct holding them, takes: each gives way to the least
// numbered name (item2) that no parameter, no other local, nothing of
// Go's or the package's has.
func (b *builder) locals(pp *Pattern) map[string]string {
	// Most methods have no parameter named as a local: they need no map.
	isLocal := func(n string) bool { return slices.Contains(model.MethodLocals, n) }
	if !slices.ContainsFunc(pp.Params, func(q *Param) bool { return !q.fixed && isLocal(q.Name) }) &&
		(pp.Struct == nil || !isLocal(pp.Struct.Var)) {
		return nil
	}
	params := map[string]bool{}
	for _, q := range pp.Params {
		if !q.fixed {
			params[q.Name] = true
		}
	}
	if pp.Struct != nil {
		params[pp.Struct.Var] = true
	}
	var out map[string]string
	used := map[string]bool{}
	for _, l := range model.MethodLocals {
		used[l] = true
	}
	for _, l := range model.MethodLocals {
		if !params[l] {
			continue
		}
		n := model.LocalName(l, func(n string) bool {
			return params[n] || used[n] || model.TakenByPackage(n) || b.packageNames[n]
		})
		if out == nil {
			out = map[string]string{}
		}
		out[l], used[n] = n, true
	}
	return out
}

// inputsStruct decides the struct the method takes its inputs in, and
// each input's field: named after its attribute (with From or To for a
// range), or after its role too (WhenVersion, FilterStatus) when another
// field has that name.
func inputsStruct(pp *Pattern, taken func(string) bool) *ParamsStruct {
	t := pp.Pattern.ParamsType()
	if t == "" {
		return nil
	}
	in := &ParamsStruct{Type: t, Own: !pp.Pattern.TakesKey()}
	in.Var = "params"
	if !in.Own {
		in.Var = "key"
	}
	for i := 2; taken(in.Var); i++ {
		in.Var = fmt.Sprintf("%s%d", strings.TrimRight(in.Var, "0123456789"), i)
	}
	in.Renamed = fieldNames(pp)
	return in
}

// fieldNames names each input's field in a struct of the pattern's
// inputs, and returns those named after their role too.
func fieldNames(pp *Pattern) []*Param {
	var renamed []*Param
	fields := map[string]bool{}
	for _, q := range pp.Params {
		if q.Attr == nil && q.Cond == nil {
			continue
		}
		a := q.Attr
		if q.Cond != nil {
			a = q.Cond.Attr
		}
		suffix := ""
		if q.Cond != nil && q.Cond.Op == model.OpBetween || q.Role == ParamWhere && pp.Pattern.Where.Op == model.OpBetween {
			suffix = []string{"From", "To"}[q.Operand]
		}
		if q.Nth > 1 {
			suffix += strconv.Itoa(q.Nth)
		}
		q.Field = a.GoName + suffix
		switch q.Role {
		case ParamVersion:
			q.Field = pp.Pattern.Entity().GoName + a.GoName
		case ParamMapKey:
			q.Field = a.KeyGoName()
		}
		if fields[q.Field] {
			q.Field = roleWord(pp, q) + q.Field
			renamed = append(renamed, q)
		}
		for i := 2; fields[q.Field]; i++ {
			q.Field = fmt.Sprintf("%s%s%d", a.GoName, suffix, i)
		}
		fields[q.Field] = true
	}
	return renamed
}

// roleWord names what a parameter is for, to tell its field from
// another of the same attribute.
func roleWord(pp *Pattern, q *Param) string {
	switch q.Role {
	case ParamWhere:
		return "Where"
	case ParamSet:
		return "Set"
	case ParamAdd:
		return "Add"
	case ParamVersion:
		return "Version"
	case ParamElems:
		return "RemoveFrom"
	case ParamCond:
		if slices.Contains(model.Leaves(pp.Pattern.Filter), q.Cond) {
			return "Filter"
		}
		return "When"
	}
	return "Key"
}

// roleNames are the roles' names in `dyngen plan -json`, the spec's words
// where the spec has one (removeFrom). A test checks that every role has
// one.
var roleNames = [roleCount]string{
	ParamKey:     "key",
	ParamWhere:   "where",
	ParamCond:    "condition",
	ParamSet:     "set",
	ParamAdd:     "add",
	ParamElems:   "removeFrom",
	ParamPage:    "page",
	ParamItem:    "item",
	ParamKeys:    "keys",
	ParamItems:   "items",
	ParamVersion: "version",
	ParamClock:   "clock",
	ParamMapKey:  "mapKey",
	ParamRead:    "read",
}

// String is the role's name in `dyngen plan -json`.
func (r Role) String() string {
	if r >= 0 && r < roleCount && roleNames[r] != "" {
		return roleNames[r]
	}
	return fmt.Sprintf("Role(%d)", int(r))
}

// MarshalText writes the role as its name.
func (r Role) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// GoType is the Go type of the parameter p of the pattern's method, as
// the generated package spells it ("string", "time.Time", "*Book",
// "[]BookKey", "Page"). The generator's tests keep it equal to the type
// the generated method declares.
func (pp *Pattern) GoType(p *Param) string {
	ent := pp.Entity()
	switch p.Role {
	case ParamCond:
		return model.GoType(ent, CondOperandAttr(p.Cond))
	case ParamPage:
		return "Page"
	case ParamClock:
		return "time.Time"
	case ParamItem:
		return "*" + ent.GoName
	case ParamKeys:
		if pp.Many != nil && len(pp.Inputs) == 1 {
			// A write over many keys of a key of one attribute takes
			// that attribute's values.
			return "[]" + model.GoType(ent, pp.Inputs[0])
		}
		return "[]" + ent.KeyType()
	case ParamItems:
		return "[]" + ent.GoName
	case ParamMapKey:
		return "string"
	case ParamRead:
		return "map[string]types.AttributeValue"
	}
	if p.Pointer {
		return "*" + model.GoType(ent, p.Attr)
	}
	return model.GoType(ent, p.Attr)
}

// CondOperandAttr is the attribute whose type a condition's operand has:
// the condition's own, or, for contains on a list or set, one of its
// elements.
func CondOperandAttr(c *model.Cond) *model.Attribute {
	if c.Op != model.OpContains {
		return c.Attr
	}
	el := *c.Attr
	switch c.Attr.Type {
	case model.Strings, model.StringSet:
		el.Type = model.String
	case model.IntSet:
		el.Type = model.Int
	}
	return &el
}

// condAttrList are the attributes of conditions cs, those of their or
// branches too.
func condAttrList(cs []*model.Cond) []*model.Attribute {
	var out []*model.Attribute
	for _, c := range cs {
		if c.Attr != nil {
			out = append(out, c.Attr)
		}
		for _, br := range c.Or {
			out = append(out, condAttrList(br)...)
		}
	}
	return out
}

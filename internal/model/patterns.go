package model

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dyngen/dyngen/spec"
)

// allowed lists, per operation, the pattern keys it takes besides the
// operation itself and doc.
var allowed = map[Op][]string{
	OpGet:         {"by", "index", "consistent", "select", "expired", "copy", "drops"},
	OpQuery:       {"by", "where", "order", "limit", "first", "index", "consistent", "filter", "select", "expired", "drops"},
	OpPut:         {"when", "set"},
	OpCreate:      {"when", "expired", "set"},
	OpUpdate:      {"set", "add", "remove", "removeFrom", "upsert", "when", "expired", "many"},
	OpDelete:      {"when", "many"},
	OpBatchGet:    {"consistent", "select", "expired"},
	OpBatchPut:    {},
	OpBatchDelete: {},
	OpCheck:       {"when", "expired", "many"},
}

// whereOps are the range operators of a query's where.
var whereOps = []CondOp{OpLt, OpLe, OpGt, OpGe, OpBetween, OpBeginsWith}

// condOps are the operators of filter and when.
var condOps = []CondOp{OpEq, OpNe, OpLt, OpLe, OpGt, OpGe, OpBetween, OpBeginsWith, OpContains, OpExists, OpNotExists, OpIn}

func opNames(ops []CondOp) string {
	var s []string
	for _, o := range ops {
		s = append(s, string(o))
	}
	return strings.Join(s, ", ")
}

func (r *resolver) patterns() {
	goNames := map[string]*Pattern{}
	defer func() { r.part = nil }()
	for _, sp := range r.f.Patterns {
		p := &Pattern{Name: sp.Name.Value, Doc: sp.Doc.Value, Pos: sp.Name.Pos, Order: Asc, RenamedFrom: renamed(sp.RenamedFrom)}
		r.part = p
		if !entityName.MatchString(p.Name) {
			r.errorf(sp.Name.Pos, "pattern name %q must be a letter then letters, digits or underscores", p.Name)
		}
		p.GoName = GoName(p.Name)
		switch {
		case p.GoName == "":
			r.errorf(sp.Name.Pos, "pattern name %q gives no Go method name; start it with a letter", p.Name)
		case goNames[p.GoName] != nil:
			r.errorf(sp.Name.Pos, "patterns %s and %s have the same Go name %s", goNames[p.GoName].Name, p.Name, p.GoName)
		default:
			goNames[p.GoName] = p
		}
		if !sp.Op.Set {
			continue
		}
		p.Op, p.OpPos = Op(sp.Op.Value), sp.Op.Pos
		if p.Op.IsTransaction() {
			if r.transaction(p, sp) {
				r.m.Patterns = append(r.m.Patterns, p)
			}
			continue
		}
		if !r.patternEntities(p, sp) {
			continue
		}
		r.patternKeys(p, sp)
		if p.Op == OpCheck && p.Many != ManyAll {
			// ConditionCheck exists only in a transaction: a check of one
			// item is a step, a check of many keys' items one transaction.
			if !sp.Many.Set {
				r.errorf(p.OpPos, "pattern %s: a check writes nothing and is sent only in a transaction: check the items of a list of keys with many: all, or check one item as a step of a transaction", p.Name)
			}
			continue
		}
		r.m.Patterns = append(r.m.Patterns, p)
	}
}

func (r *resolver) entity(name spec.Str) *Entity {
	for _, e := range r.m.Entities {
		if e.Name == name.Value {
			return e
		}
	}
	var known []string
	for _, e := range r.m.Entities {
		known = append(known, e.Name)
	}
	r.errorf(name.Pos, "%q is not an entity of the spec%s", name.Value, nearest(name.Value, known))
	return nil
}

func (r *resolver) patternEntities(p *Pattern, sp *spec.Pattern) bool {
	if sp.EntityList && p.Op != OpQuery {
		r.errorf(p.OpPos, "%s takes one entity; only query reads several", p.Op)
		return false
	}
	ok := len(sp.Entities) > 0
	for _, n := range sp.Entities {
		e := r.entity(n)
		if e == nil {
			ok = false
			continue
		}
		if slices.Contains(p.Entities, e) {
			r.errorf(n.Pos, "pattern %s lists entity %s twice", p.Name, e.Name)
			continue
		}
		if e.Table == nil || len(e.Keys) == 0 {
			ok = false // the entity's own errors are reported
			continue
		}
		if u := e.ClaimOf; u != nil {
			r.errorf(n.Pos, "%s is the claim of %s's unique %s, which dyngen writes with the %s; read the %s by it with get: %s, by: [%s]", e.Name, u.Owner.Name, u.Label(), u.Owner.Name, u.Owner.Name, u.Owner.Name, strings.Join(strings.Split(u.Label(), "+"), ", "))
			ok = false
			continue
		}
		if c := e.CountOf; c != nil && p.Op != OpGet {
			r.errorf(n.Pos, "%s is the counter of %s's count by %s, which dyngen writes with the %s; a pattern reads it with get: %s", e.Name, c.Owner.Name, c.By.Name, c.Owner.Name, e.Name)
			ok = false
			continue
		}
		if c := e.CopyOf; c != nil {
			r.errorf(n.Pos, "%s is the copy %s of %s, which dyngen writes with the %s; read it with get: %s, copy: %s", e.Name, c.Name, c.Owner.Name, c.Owner.Name, c.Owner.Name, c.Name)
			ok = false
			continue
		}
		if ea := e.EachOf; ea != nil && p.Op != OpQuery && p.Op != OpGet {
			r.errorf(n.Pos, "%s is the items per element of %s's %s, which dyngen writes with the %s; a pattern reads them with query: %s or get: %s, and writes the %s", e.Name, ea.Owner.Name, ea.Of.Name, ea.Owner.Name, e.Name, e.Name, ea.Owner.Name)
			ok = false
			continue
		}
		if p.Table != nil && e.Table != p.Table {
			r.errorf(n.Pos, "pattern %s reads %s from table %s and %s from table %s; one Query reads one table", p.Name, p.Entities[0].Name, p.Table.Name, e.Name, e.Table.Name)
			ok = false
			continue
		}
		p.Table = e.Table
		p.Entities = append(p.Entities, e)
	}
	return ok && len(p.Entities) > 0
}

// attrOf finds the attribute name in every entity of the pattern (they
// must agree on its type); it returns the first entity's attribute.
func (r *resolver) attrOf(p *Pattern, name spec.Str, what string) *Attribute {
	if strings.Contains(name.Value, ".") {
		return r.pathOf(p, name, what)
	}
	var first *Attribute
	for _, e := range p.Entities {
		a := e.Attr(name.Value)
		if a == nil {
			r.errorf(name.Pos, "%s %q is not an attribute of %s%s", what, name.Value, e.Name, e.nearestAttr(name.Value))
			return nil
		}
		if first == nil {
			first = a
		} else if a.Describe() != first.Describe() {
			r.errorf(name.Pos, "%s %s is %s in %s but %s in %s; a collection reads it as one type", what, name.Value, first.Describe(), p.Entities[0].Name, a.Describe(), e.Name)
			return nil
		}
	}
	return first
}

// pathsTaken are the keys of a pattern that take a path (address.zip):
// those that read or write a field of an object, where DynamoDB takes a
// document path. (Keys and projections take whole attributes.)
var pathsTaken = []string{"set", "add", "remove", "when", "filter"}

// pathOf finds the attribute of path name (address.zip) in the pattern's
// entity.
func (r *resolver) pathOf(p *Pattern, name spec.Str, what string) *Attribute {
	if !slices.Contains(pathsTaken, what) {
		r.errorf(name.Pos, "%s takes attributes, not paths: %q names a field of an object; paths are for %s", what, name.Value, strings.Join(pathsTaken, ", "))
		return nil
	}
	if len(p.Entities) != 1 {
		r.errorf(name.Pos, "%s %s: a path names the field of one entity's object, and pattern %s reads %d entities", what, name.Value, p.Name, len(p.Entities))
		return nil
	}
	a, why := p.Entities[0].PathAttr(name.Value)
	if a == nil {
		r.errorf(name.Pos, "%s %s: %s", what, name.Value, why)
		return nil
	}
	if a.MapKey != "" && !mapKeyAllowed(p, what) {
		r.errorf(name.Pos, "%s %s: a map's entry by a key the caller gives is for the set, remove and when of an update, the when of a put or delete, and the filter of a query (not a transaction's step, nor a write over many keys)", what, name.Value)
		return nil
	}
	return a
}

// mapKeyAllowed reports whether pattern p may name, in its part what
// (set, remove, when, filter), a map's entry by a key the caller gives:
// the call sends the key as the value of a name placeholder.
func mapKeyAllowed(p *Pattern, what string) bool {
	if p.InTx || p.Many != "" {
		return false
	}
	switch p.Op {
	case OpUpdate:
		return what == "set" || what == "remove" || what == "when"
	case OpPut, OpDelete:
		return what == "when"
	case OpQuery:
		return what == "filter"
	}
	return false
}

func (r *resolver) patternKeys(p *Pattern, sp *spec.Pattern) {
	ok := allowed[p.Op]
	for _, g := range sp.Given {
		if g.Value == "doc" || slices.Contains(spec.Operations, g.Value) || !isPatternKey(g.Value) {
			continue
		}
		if !slices.Contains(ok, g.Value) {
			r.errorf(g.Pos, "%s does not apply to %s pattern%s", g.Value, Article(string(p.Op)), appliesTo(g.Value))
		}
	}
	// by
	for _, b := range sp.By {
		if slices.Contains(p.By, b.Value) {
			r.errorf(b.Pos, "by lists %s twice", b.Value)
			continue
		}
		if a := r.attrOf(p, b, "by"); a != nil {
			p.By = append(p.By, b.Value)
			p.ByPos = append(p.ByPos, b.Pos)
		}
	}
	if p.Op == OpGet && sp.By == nil {
		// A get without by reads the item by its whole primary key.
		for _, a := range p.Entity().PrimaryKey().Attrs() {
			p.By = append(p.By, a.Name)
			p.ByPos = append(p.ByPos, p.OpPos)
		}
	}
	// where
	if len(sp.Where) > 1 {
		r.errorf(sp.Where[1].Pos, "where narrows one sort-key attribute; %s and %s are two (use filter for the rest)", sp.Where[0].Attr.Value, sp.Where[1].Attr.Value)
	}
	if len(sp.Where) > 0 {
		w := sp.Where[0]
		if c := r.cond(p, w, whereOps, "where"); c != nil {
			if slices.Contains(p.By, c.Attr.Name) {
				r.errorf(w.Pos, "%s is both in by and in where", c.Attr.Name)
			} else {
				p.Where = c
			}
		}
	}
	if sp.Order.Set {
		switch Order(sp.Order.Value) {
		case Asc, Desc:
			p.Order, p.OrderPos = Order(sp.Order.Value), sp.Order.Pos
		default:
			r.errorf(sp.Order.Pos, "order must be asc or desc, not %q", sp.Order.Value)
		}
	}
	if sp.Limit.Set {
		if sp.Limit.Value < 1 || sp.Limit.Value > 1_000_000 {
			r.errorf(sp.Limit.Pos, "limit must be between 1 and 1000000")
		} else {
			p.Limit, p.LimitPos = int(sp.Limit.Value), sp.Limit.Pos
		}
	}
	if sp.Expired.Set && slices.Contains(allowed[p.Op], "expired") {
		r.expired(p, sp)
	}
	if sp.First.Set && sp.First.Value && p.Op == OpQuery {
		r.first(p, sp)
	}
	if sp.Many.Set && slices.Contains(allowed[p.Op], "many") {
		r.many(p, sp)
	}
	if sp.Index.Set {
		if p.Table.Index(sp.Index.Value) == nil {
			var known []string
			for _, ix := range p.Table.Indexes {
				known = append(known, ix.Name)
			}
			r.errorf(sp.Index.Pos, "index %q is not an index of table %s%s", sp.Index.Value, p.Table.Name, nearest(sp.Index.Value, known))
		} else {
			p.Index, p.IndexPos = sp.Index.Value, sp.Index.Pos
		}
	}
	p.Consistent, p.ConsPos = sp.Consistent.Value, sp.Consistent.Pos
	if len(sp.Drops) > 0 && slices.Contains(allowed[p.Op], "drops") {
		r.drops(p, sp)
	}
	r.patternCopy(p, sp)
	p.Filter = r.conds(p, sp.Filter, "filter", false)
	p.Upsert = sp.Upsert.Value
	p.When = r.conds(p, sp.When, "when", false)
	if len(sp.Select) > 0 && len(p.Entities) > 1 {
		r.errorf(sp.Select[0].Pos, "select applies to a read of one entity; %s reads %d", p.Name, len(p.Entities))
	}
	p.Select = r.attrList(p, sp.Select, "select")
	if len(sp.Select) > 0 {
		p.SelectPos = sp.Select[0].Pos
	}
	p.Add = r.attrList(p, sp.Add, "add")
	p.Remove = r.attrList(p, sp.Remove, "remove")
	p.RemoveFrom = r.attrList(p, sp.RemoveFrom, "removeFrom")
	switch p.Op {
	case OpUpdate:
		p.Set = r.attrList(p, sp.Set, "set")
		r.update(p, sp)
	case OpCreate, OpPut:
		r.itemConsts(p, sp)
	default:
		p.Set = r.attrList(p, sp.Set, "set")
	}
	r.managedWrites(p, sp)
}

// managedWrites refuses a write that can't keep an entity's version or
// timestamps: a batch write of a versioned entity, or a batch put of one
// with a created time (BatchWriteItem takes no condition and no update
// expression); an upsert of a versioned entity (a new item is made by
// create, which writes version 1); an update that changes one of them,
// or a when on the version, which the generated code sets and checks
// itself.
func (r *resolver) managedWrites(p *Pattern, sp *spec.Pattern) {
	e := p.Entity()
	if e == nil || len(p.Entities) != 1 {
		return
	}
	if v := e.Version; v != nil {
		switch p.Op {
		case OpBatchPut, OpBatchDelete:
			r.errorf(p.OpPos, "%s %s: %s is versioned (version: %s), and BatchWriteItem takes no condition, so it can't check the version; use %s in a loop, or remove version from %s", p.Op, e.Name, e.Name, v.Name, map[Op]string{OpBatchPut: "put", OpBatchDelete: "delete"}[p.Op], e.Name)
		case OpUpdate:
			if p.Upsert {
				r.errorf(sp.Upsert.Pos, "update %s: %s is versioned (version: %s), and an upsert that creates the item would have no version the caller read; use create for a new item and remove upsert", p.Name, e.Name, v.Name)
			}
		}
		for _, c := range Leaves(p.When) {
			if c.Attr == v {
				r.errorf(c.Pos, "%s %s: when on %s, the version, which the method checks itself against the version the caller read; remove it", p.Op, p.Name, v.Name)
			}
		}
	}
	if c := e.Created; c != nil && p.Op == OpBatchPut {
		r.errorf(p.OpPos, "batchPut %s: BatchWriteItem replaces items whole with no update expression, so it can't keep the created time (timestamps created: %s) of an item it replaces; use put in a loop, or remove created from the timestamps of %s", e.Name, c.Name, e.Name)
	}
	if p.Op != OpUpdate {
		return
	}
	refuse := func(list []*Attribute, names []spec.Str, what string) {
		for i, a := range list {
			if !e.Managed(a) {
				continue
			}
			role := "its version"
			switch a {
			case e.Created:
				role = "its created time"
			case e.Updated:
				role = "its updated time"
			}
			r.errorf(posOf(names, a.Name, i), "update %s can't %s %s: it is %s, which the generated code sets itself; remove it from %s", p.Name, what, a.Name, role, what)
		}
	}
	refuse(p.Set, sp.Set, "set")
	var consts []*Attribute
	var constNames []spec.Str
	for _, sc := range sp.SetConsts {
		constNames = append(constNames, sc.Attr)
	}
	for _, sc := range p.SetConsts {
		consts = append(consts, sc.Attr)
	}
	refuse(consts, constNames, "set")
	refuse(p.Add, sp.Add, "add")
	refuse(p.Remove, sp.Remove, "remove")
	refuse(p.RemoveFrom, sp.RemoveFrom, "removeFrom")
}

// drops resolves the entities a read accepts to read and drop: other
// entities of its table, each once.
func (r *resolver) drops(p *Pattern, sp *spec.Pattern) {
	p.DropsPos = sp.DropsPos
	for _, name := range sp.Drops {
		e := r.entity(name)
		switch {
		case e == nil:
		case e.Table != p.Table:
			r.errorf(name.Pos, "pattern %s: drops names %s, an entity of table %s; it reads table %s", p.Name, e.Name, e.Table.Name, p.Table.Name)
		case slices.Contains(p.Entities, e):
			r.errorf(name.Pos, "pattern %s: drops names %s, which it reads; name the other entities whose items it may read", p.Name, e.Name)
		case slices.Contains(p.Drops, e):
			r.errorf(name.Pos, "pattern %s: drops names %s twice", p.Name, e.Name)
		default:
			p.Drops = append(p.Drops, e)
		}
	}
}

// first checks first: true on a query: one item of one entity, read
// with Limit 1, so no page size and no filter (DynamoDB applies the
// filter after the limit).
func (r *resolver) first(p *Pattern, sp *spec.Pattern) {
	pos := sp.First.Pos
	ok := true
	if sp.Limit.Set {
		r.errorf(pos, "pattern %s: first reads one item, with Limit 1, and limit sets the size of a page, which first does not return; remove limit", p.Name)
		ok = false
	}
	if len(sp.Filter) > 0 {
		r.errorf(pos, "pattern %s: first reads one item with Limit 1, and DynamoDB applies the filter after the limit: the one item read may be dropped while a later one matches, and the method would answer ErrNotFound; narrow the query with by or where instead of filter, or remove first", p.Name)
		ok = false
	}
	if len(p.Entities) > 1 {
		var names []string
		for _, e := range p.Entities {
			names = append(names, e.Name)
		}
		r.errorf(pos, "pattern %s: first returns one item of one entity, and the query reads %s; query one entity", p.Name, strings.Join(names, ", "))
		ok = false
	}
	if ok && p.Expires() {
		// Leaving the expired items out takes a filter, which DynamoDB
		// applies after the Limit 1 (see filter above).
		r.errorf(pos, "pattern %s: first reads one item with Limit 1, and %s stores the ttl attribute %s: the one item read may have expired while a later one has not, and leaving expired items out takes a filter, which DynamoDB applies after the limit; add expired: include to return the first item even when it has expired, or remove first", p.Name, p.Entity().Name, p.Table.TTL)
		ok = false
	}
	if ok {
		p.First, p.FirstPos = true, pos
	}
}

// many checks many: on an update or delete: all or each, and not on a
// versioned entity, whose writes each take the version their caller
// read of their own item: a change given once for every key can't carry
// one, and a write that does not check it would write over changes the
// version is there to keep. (An entity with unique values is checked
// with its claims: see uniqueWrites.)
func (r *resolver) many(p *Pattern, sp *spec.Pattern) {
	pos := sp.Many.Pos
	switch m := ManyMode(sp.Many.Value); m {
	case ManyEach:
		if p.Op == OpCheck {
			r.errorf(pos, "pattern %s: a check writes nothing and is sent only in a transaction, so it takes many: all, not each", p.Name)
			return
		}
		fallthrough
	case ManyAll:
		if v := p.Entity().Version; v != nil {
			r.errorf(pos, "pattern %s: many over %s, which is versioned (version: %s): each write checks the version its caller read of its own item, and a write over many keys takes one change for every key; write each item with its own %s, or a transaction", p.Name, p.Entity().Name, v.Name, p.Op)
			return
		}
		p.Many, p.ManyPos = m, pos
	default:
		r.errorf(pos, "many must be all (one transaction, all or none) or each (one call per key), not %q", sp.Many.Value)
	}
}

// expired checks expired: include: it applies to a pattern of an entity
// that stores its table's ttl attribute.
func (r *resolver) expired(p *Pattern, sp *spec.Pattern) {
	pos := sp.Expired.Pos
	switch {
	case sp.Expired.Value != "include":
		r.errorf(pos, "expired must be include, not %q (by default, items whose time to live has passed are absent)", sp.Expired.Value)
	case p.Table.TTL == "":
		r.errorf(pos, "pattern %s: expired: include applies to a table with a ttl, and table %s has none; remove expired", p.Name, p.Table.Name)
	default:
		p.IncludeExpired, p.ExpiredPos = true, pos
		if !slices.ContainsFunc(p.Entities, func(e *Entity) bool { return e.TTLAttr() != nil }) {
			p.IncludeExpired = false
			r.errorf(pos, "pattern %s: expired: include applies to an entity that stores the ttl attribute %s of table %s, and %s does not; remove expired", p.Name, p.Table.TTL, p.Table.Name, entityNames(p.Entities))
		}
	}
}

// entityNames lists the entities' names, joined by ", ".
func entityNames(es []*Entity) string {
	var names []string
	for _, e := range es {
		names = append(names, e.Name)
	}
	return strings.Join(names, ", ")
}

var patternKeys = []string{"by", "where", "order", "limit", "first", "drops", "index", "consistent", "filter", "when", "select", "set", "add", "remove", "removeFrom", "upsert", "expired", "many", "copy"}

func isPatternKey(k string) bool { return slices.Contains(patternKeys, k) }

// appliesTo says which operations take a pattern key.
func appliesTo(key string) string {
	var ops []string
	for _, op := range spec.Operations {
		if slices.Contains(allowed[Op(op)], key) {
			ops = append(ops, op)
		}
	}
	if len(ops) == 0 {
		return ""
	}
	return "; it applies to " + strings.Join(ops, ", ")
}

func (r *resolver) attrList(p *Pattern, names []spec.Str, what string) []*Attribute {
	var out []*Attribute
	for _, n := range names {
		a := r.attrOf(p, n, what)
		if a == nil {
			continue
		}
		if slices.Contains(out, a) {
			r.errorf(n.Pos, "%s lists %s twice", what, n.Value)
			continue
		}
		out = append(out, a)
	}
	return out
}

// update checks set, add and remove against the attributes' types and the
// primary key.
func (r *resolver) update(p *Pattern, sp *spec.Pattern) {
	if len(p.Set)+len(p.Add)+len(p.Remove)+len(p.RemoveFrom) == 0 && len(sp.Set)+len(sp.SetConsts)+len(sp.Add)+len(sp.AddConsts)+len(sp.Remove)+len(sp.RemoveFrom) == 0 {
		r.errorf(p.OpPos, "update %s changes nothing; give set, add, remove or removeFrom", p.Entity().Name)
		return
	}
	e := p.Entity()
	prim := e.PrimaryKey()
	seen := map[*Attribute]string{}
	// written are the attributes and paths the update writes so far.
	var written []*Attribute
	check := func(list []*Attribute, names []spec.Str, what string) {
		for i, a := range list {
			pos := posOf(names, a.Name, i)
			if prev, dup := seen[a]; dup {
				r.errorf(pos, "update %s: %s is in both %s and %s", p.Name, a.Name, prev, what)
				continue
			}
			seen[a] = what
			for _, o := range written {
				switch {
				case !overlap(o, a):
				case a.MapKey != "" && o.MapKey != "":
					r.errorf(pos, "update %s: %s and %s may be one entry (the keys given may be equal), and DynamoDB refuses an update that writes a path twice; write one entry per update", p.Name, o.Name, a.Name)
				default:
					r.errorf(pos, "update %s: %s and %s overlap (one is in the other), and DynamoDB refuses an update that writes both; write the object whole or its fields", p.Name, o.Name, a.Name)
				}
			}
			written = append(written, a)
			for _, tm := range prim.Templates() {
				if tm.Has(a) {
					r.errorf(pos, "update %s can't %s %s: it is part of the primary key %s=%q, and UpdateItem can't move an item; use delete and create", p.Name, what, a.Name, keyAttrOf(prim, tm).Name, tm.Source)
				}
			}
			switch what {
			case "add":
				switch a.Type {
				case Int, Float, StringSet, IntSet:
				default:
					r.errorf(pos, "add needs a number or a set; %s is %s (use set)", a.Name, a.Type)
				}
			case "remove":
				if !a.Optional && a.MapKey == "" {
					r.errorf(pos, "remove %s: the attribute is not optional, so every item must have it; mark it optional: true or use set", a.Name)
				}
			case "removeFrom":
				if a.Type != StringSet && a.Type != IntSet {
					r.errorf(pos, "removeFrom needs a stringSet or intSet; %s is %s", a.Name, a.Describe())
				}
			}
		}
	}
	// The constants of set and add: each checked as a value of its
	// attribute (setConst, addConst), then as the parameters are.
	check(p.Set, sp.Set, "set")
	var consts []*Attribute
	var constNames []spec.Str
	consts, constNames, p.SetConsts = r.constItems(p, sp.SetConsts, p.Set, "set", r.setConst)
	check(consts, constNames, "set")
	check(p.Add, sp.Add, "add")
	consts, constNames, p.AddConsts = r.constItems(p, sp.AddConsts, p.Add, "add", r.addConst)
	check(consts, constNames, "add")
	check(p.Remove, sp.Remove, "remove")
	check(p.RemoveFrom, sp.RemoveFrom, "removeFrom")
	p.Parents = p.parents()
	if p.Upsert {
		for _, list := range [][]*Attribute{p.SetAttrs(), p.AddAttrs(), p.Remove, p.RemoveFrom} {
			for _, a := range list {
				if a.IsPath() {
					r.errorf(p.OpPos, "update %s is an upsert, which may create the item, and %s writes into %s, which a new item lacks (DynamoDB refuses the call); set the object whole, or remove upsert", p.Name, a.Name, a.Path[0].Name)
					return
				}
			}
		}
	}
}

// itemConsts resolves the set of a create or a put: constants only (the
// caller's item gives every other value), each written whatever the
// item holds and written back into it, checked as an update's constant
// is (setConst), in every key template of the entity, the primary key's
// too (a constant fixes that part of the key). Refused: a name without a
// constant, an attribute the generated code sets itself (the version,
// the timestamps), and a unique value (every item written would hold the
// one value, which only one item may hold).
func (r *resolver) itemConsts(p *Pattern, sp *spec.Pattern) {
	e := p.Entity()
	for _, n := range sp.Set {
		if a := r.attrOf(p, n, "set"); a != nil {
			r.errorf(n.Pos, "%s %s: set %s without a constant: the item gives %s; write {%s: <value>} to write a constant whatever the item holds, or remove it from set", p.Op, p.Name, a.Name, a.Name, a.Name)
		}
	}
	valid := func(p *Pattern, sc *spec.SetConst, a *Attribute) bool {
		if e.Managed(a) {
			role := "its version"
			switch a {
			case e.Created:
				role = "its created time"
			case e.Updated:
				role = "its updated time"
			}
			r.errorf(sc.Attr.Pos, "%s %s can't set %s: it is %s, which the generated code sets itself; remove it from set", p.Op, p.Name, a.Name, role)
			return false
		}
		if len(e.UniquesWith(a)) > 0 {
			r.errorf(sc.Attr.Pos, "%s %s can't set %s to a constant: %s is a unique value of %s, and every item the %s writes would hold the one value, which only one item may hold; remove it from set (the item gives it)", p.Op, p.Name, a.Name, a.Name, e.Name, p.Op)
			return false
		}
		return r.setConst(p, sc, a)
	}
	_, _, p.SetConsts = r.constItems(p, sp.SetConsts, nil, "set", valid)
}

// constItems resolves the items of set or add (what) that give a
// constant: an attribute of the pattern, not listed twice (params are the
// attributes the same key lists by name), checked by valid. It returns
// every attribute named, with its name, and the constants valid accepts.
func (r *resolver) constItems(p *Pattern, items []*spec.SetConst, params []*Attribute, what string, valid func(*Pattern, *spec.SetConst, *Attribute) bool) ([]*Attribute, []spec.Str, []*SetConst) {
	var attrs []*Attribute
	var names []spec.Str
	var out []*SetConst
	for _, sc := range items {
		a := r.attrOf(p, sc.Attr, what)
		if a == nil {
			continue
		}
		if slices.Contains(attrs, a) || slices.Contains(params, a) {
			r.errorf(sc.Attr.Pos, "%s lists %s twice", what, a.Name)
			continue
		}
		attrs = append(attrs, a)
		names = append(names, sc.Attr)
		if valid(p, sc, a) {
			out = append(out, &SetConst{Attr: a, Const: Const{Text: sc.Const.Value, Pos: sc.Const.Pos}})
		}
	}
	return attrs, names, out
}

// conds resolves the conditions of a filter or a when (what), and the
// branches of their ors; inOr is set within an or. A when's conditions
// are checked against the operation (whenOnKey, whenOnCreate). A
// condition refused is left out, and so is an or with a branch refused.
func (r *resolver) conds(p *Pattern, scs []*spec.Cond, what string, inOr bool) []*Cond {
	when := what == "when" && slices.Contains(allowed[p.Op], "when")
	var out []*Cond
	for _, sc := range scs {
		if sc.Or == nil {
			c := r.cond(p, sc, condOps, what)
			if c == nil || when && (!r.whenOnKey(p, c, sc.Attr.Pos, inOr) || !r.whenOnCreate(p, c, sc.Attr.Pos)) {
				continue
			}
			out = append(out, c)
			continue
		}
		if when && p.Op == OpCreate {
			r.errorf(sc.Pos, "%s %s: when with or: a create writes only where no item has the key, so its condition reads the attributes of no item, and each condition of the or always holds there or never does; remove it (put with this when replaces only an item that meets it)", p.Op, p.Name)
			continue
		}
		c := &Cond{Pos: sc.Pos}
		whole := true
		for _, br := range sc.Or {
			cs := r.conds(p, br, what, true)
			whole = whole && len(cs) == len(br)
			c.Or = append(c.Or, cs)
		}
		if whole {
			out = append(out, c)
		}
	}
	return out
}

// whenOnKey refuses a when on an attribute of the primary key, which the
// key already fixes: a comparison always holds or never does, and exists
// or notExists repeat or contradict the operation's own condition. Only
// exists on put (replace an existing item) and on delete (fail when there
// is none) says something. Within an or (inOr), exists and notExists
// test whether the item exists, which says something wherever the
// operation does not decide it: on a put, a delete and an upsert of an
// entity without a version. It reports whether c is kept.
func (r *resolver) whenOnKey(p *Pattern, c *Cond, pos Pos, inOr bool) bool {
	e := p.Entity()
	prim := e.PrimaryKey()
	var key string
	for _, tm := range prim.Templates() {
		if tm.Has(c.Attr) {
			key = fmt.Sprintf("%s=%q", keyAttrOf(prim, tm).Name, tm.Source)
			break
		}
	}
	if key == "" {
		if !e.Table.IsKeyAttr(c.Attr.Stored) {
			return true
		}
		key = c.Attr.Stored
	}
	a := c.Attr.Name
	where := fmt.Sprintf("%s %s: when on %s, an attribute of the primary key %s", p.Op, p.Name, a, key)
	if inOr && (c.Op == OpExists || c.Op == OpNotExists) {
		return r.existsInOr(p, c, pos, where)
	}
	switch {
	case p.Op == OpCheck && (c.Op == OpExists || c.Op == OpNotExists):
		r.errorf(pos, "%s: whether the item exists is the check's exists (true by default, false to check that there is none); remove it", where)
	case c.Op != OpExists && c.Op != OpNotExists:
		r.errorf(pos, "%s: the key already fixes its value, so the condition %q on it is always true or always false; remove it", where, c.Op)
	case p.Op == OpPut && c.Op == OpExists, p.Op == OpDelete && c.Op == OpExists:
		return true
	case p.Op == OpPut:
		r.errorf(pos, "%s: notExists writes only where no item has the key, which is what create does; use create: %s without this condition", where, e.Name)
	case p.Op == OpDelete:
		r.errorf(pos, "%s: notExists holds only where there is no item to delete; remove it", where)
	case p.Op == OpCreate && c.Op == OpExists:
		r.errorf(pos, "%s: exists never holds, since create writes only where no item has the key; remove it (put with when: {%s: exists} replaces only an existing item)", where, a)
	case p.Op == OpCreate:
		r.errorf(pos, "%s: notExists repeats create's own condition that no item has the key; remove it", where)
	case p.Upsert && c.Op == OpExists:
		r.errorf(pos, "%s: exists keeps the upsert from ever creating the item; remove it and upsert: true (an update without upsert changes only an existing item)", where)
	case p.Upsert:
		r.errorf(pos, "%s: notExists keeps the upsert from ever changing an existing item; use create: %s without this condition", where, e.Name)
	case c.Op == OpExists:
		r.errorf(pos, "%s: exists repeats update's own condition that the item exists (ErrNotFound otherwise); remove it", where)
	default:
		r.errorf(pos, "%s: notExists never holds, since update changes only an existing item; remove it (create writes a new item)", where)
	}
	return false
}

// existsInOr decides exists or notExists on an attribute of the primary
// key within an or: a test of whether the item exists. It says something
// where the operation leaves that open: a put (create, or replace an item
// that meets the other branch), a delete (nothing to delete, or an item
// that meets it) and an upsert; it is refused where the operation decides
// it (an update without upsert, a check, a put or delete of a versioned
// entity, which holds only over the item whose version was read): the or
// would always hold, or its branch never. It reports whether c is kept.
func (r *resolver) existsInOr(p *Pattern, c *Cond, pos Pos, where string) bool {
	holds := "never holds there, so its branch never does; remove the branch"
	if c.Op == OpExists {
		holds = "always holds there, so the or always does; remove the or"
	}
	switch {
	case p.Op == OpCheck:
		r.errorf(pos, "%s, within an or: a check holds only where the item exists (the check's exists decides it), and %s %s", where, c.Op, holds)
	case p.Op == OpUpdate && !p.Upsert:
		r.errorf(pos, "%s, within an or: an update changes only an existing item, and %s %s (with upsert: true, the or may test whether the item exists)", where, c.Op, holds)
	case (p.Op == OpPut || p.Op == OpDelete) && p.Entity().Version != nil:
		r.errorf(pos, "%s, within an or: %s is versioned, and a %s holds only over the item whose version the caller read: %s %s", where, p.Entity().Name, p.Op, c.Op, holds)
	default:
		return true
	}
	return false
}

// whenOnCreate refuses a when on a create (whenOnKey has refused those
// on the primary key): a create writes only where no item has the key, or
// where an expired item lingers, which is absent, so its condition reads
// the attributes of no item. An absent attribute fails a comparison,
// exists, in and contains, so the create could never succeed; it passes
// notExists and <>, which then do nothing. It reports whether c is kept.
func (r *resolver) whenOnCreate(p *Pattern, c *Cond, pos Pos) bool {
	if p.Op != OpCreate {
		return true
	}
	where := fmt.Sprintf("%s %s: when on %s: a create writes only where no item has the key, so its condition reads the attributes of no item", p.Op, p.Name, c.Attr.Name)
	switch c.Op {
	case OpNotExists, OpNe:
		r.errorf(pos, "%s, and %q on %s always holds there: it does nothing; remove it", where, c.Op, c.Attr.Name)
	default:
		r.errorf(pos, "%s, and %q on %s never holds there: the create could never succeed; remove it (put with this when replaces only an item that meets it)", where, c.Op, c.Attr.Name)
	}
	return false
}

func keyAttrOf(k *EntityKey, tm *Template) *KeyAttr {
	if tm == k.PK {
		return k.Index.PK
	}
	return k.Index.SK
}

func posOf(names []spec.Str, name string, fallback int) Pos {
	for _, n := range names {
		if n.Value == name {
			return n.Pos
		}
	}
	if fallback < len(names) {
		return names[fallback].Pos
	}
	return Pos{}
}

// cond resolves one condition: the attribute, the operator (one of ops),
// and any constants, checked against the attribute's type.
func (r *resolver) cond(p *Pattern, sc *spec.Cond, ops []CondOp, what string) *Cond {
	a := r.attrOf(p, sc.Attr, what)
	if a == nil {
		return nil
	}
	op := CondOp(sc.Op.Value)
	if !slices.Contains(ops, op) {
		if what == "where" && (op == OpEq || slices.Contains(condOps, op)) {
			if op == OpEq {
				r.errorf(sc.Op.Pos, "where takes a range operator (%s); for equality put %s in by", opNames(ops), a.Name)
			} else {
				r.errorf(sc.Op.Pos, "where takes a range operator (%s); %s on %s belongs in filter", opNames(ops), op, a.Name)
			}
			return nil
		}
		var names []string
		for _, o := range ops {
			names = append(names, string(o))
		}
		hint := ""
		if n := nearest(sc.Op.Value, names); strings.HasPrefix(n, "; did you mean") {
			hint = n
		}
		r.errorf(sc.Op.Pos, "%s on %s: unknown operator %q; use one of %s%s", what, a.Name, sc.Op.Value, opNames(ops), hint)
		return nil
	}
	c := &Cond{Attr: a, Pos: sc.Pos, Op: op}
	if !opFits(op, a) {
		r.errorf(sc.Op.Pos, "%s on %s: %s does not apply to %s", what, a.Name, op, a.Describe())
		return nil
	}
	if op == OpIn {
		if len(sc.Consts) == 0 {
			r.errorf(sc.Op.Pos, "%s on %s: in takes a constant list, as in %s: {in: [a, b]}; a list given at run time is not supported", what, a.Name, a.Name)
			return nil
		}
		if !r.inConsts(c, sc, what) {
			return nil
		}
		return c
	}
	if sc.Consts != nil || len(sc.Consts) > 0 {
		if op.Operands() == 0 {
			r.errorf(sc.Op.Pos, "%s on %s: %s takes no value; write %s: %s", what, a.Name, op, a.Name, op)
			return nil
		}
		if len(sc.Consts) != op.Operands() {
			r.errorf(sc.Op.Pos, "%s on %s: %s takes %d value(s), not %d", what, a.Name, op, op.Operands(), len(sc.Consts))
			return nil
		}
		for _, k := range sc.Consts {
			if err := constFits(k, a, op); err != nil {
				r.errorf(k.Pos, "%s on %s: %v", what, a.Name, err)
				return nil
			}
			c.Consts = append(c.Consts, Const{Text: k.Value, Pos: k.Pos})
		}
		if op == OpBetween {
			if lo, hi := sc.Consts[0], sc.Consts[1]; constLess(hi, lo, a) {
				r.errorf(hi.Pos, "%s on %s: between %s and %s selects nothing; give the lower bound first", what, a.Name, lo.Value, hi.Value)
				return nil
			}
		}
	}
	return c
}

// constLess reports whether constant x sorts before y as values of a.
func constLess(x, y spec.Const, a *Attribute) bool {
	switch a.Type {
	case Int:
		xi, err1 := strconv.ParseInt(strings.ReplaceAll(x.Value, "_", ""), 0, 64)
		yi, err2 := strconv.ParseInt(strings.ReplaceAll(y.Value, "_", ""), 0, 64)
		return err1 == nil && err2 == nil && xi < yi
	case Float:
		xf, err1 := strconv.ParseFloat(x.Value, 64)
		yf, err2 := strconv.ParseFloat(y.Value, 64)
		return err1 == nil && err2 == nil && xf < yf
	case Time:
		layout := time.RFC3339Nano
		if a.Format == Date {
			layout = time.DateOnly
		}
		xt, err1 := time.Parse(layout, x.Value)
		yt, err2 := time.Parse(layout, y.Value)
		return err1 == nil && err2 == nil && xt.Before(yt)
	case String, Enum:
		return x.Value < y.Value
	}
	return false
}

// opFits reports whether a condition operator applies to the attribute.
func opFits(op CondOp, a *Attribute) bool {
	switch op {
	case OpExists, OpNotExists:
		return true
	case OpEq, OpNe:
		// An object is compared field by field: not a condition's
		// operand (a condition on a field takes its path).
		return a.Type != Document && a.Of == nil
	case OpIn:
		switch a.Type {
		case String, Int, Float, Time, Enum, Bool, Path:
			return true
		}
	case OpLt, OpLe, OpGt, OpGe, OpBetween:
		switch a.Type {
		case String, Int, Float, Time, Enum, Bytes, Bool, Path:
			return true
		}
	case OpBeginsWith:
		switch a.Type {
		case String, Enum, Path, Bytes:
			return true
		case Time:
			return a.DynamoType() == "S"
		}
	case OpContains:
		switch a.Type {
		case String, Strings, StringSet, IntSet, Bytes:
			return true
		}
	}
	return false
}

// constFits checks a constant operand against the attribute's type.
func constFits(k spec.Const, a *Attribute, op CondOp) error {
	t := a.Type
	if op == OpContains {
		switch t {
		case Strings, StringSet:
			t = String
		case IntSet:
			t = Int
		}
	}
	switch t {
	case Int:
		if k.Tag != "!!int" {
			return fmt.Errorf("%q is not an int", k.Value)
		}
		if _, err := CanonicalNumber(k.Value, true); err != nil {
			return fmt.Errorf("%q is not a 64-bit int", k.Value)
		}
	case Float:
		if k.Tag != "!!int" && k.Tag != "!!float" {
			return fmt.Errorf("%q is not a number", k.Value)
		}
		if _, err := CanonicalNumber(k.Value, false); err != nil {
			return fmt.Errorf("%q is not a number DynamoDB stores (%s)", k.Value, FloatRange)
		}
	case Bool:
		if k.Tag != "!!bool" {
			return fmt.Errorf("%q is not true or false", k.Value)
		}
	case Enum:
		if !slices.Contains(a.Values, k.Value) && op != OpBeginsWith {
			return fmt.Errorf("%q is not one of the values of %s: %s", k.Value, a.Name, strings.Join(a.Values, ", "))
		}
	case Time:
		if a.DynamoType() == "N" && k.Tag == "!!int" {
			return nil
		}
		layout := time.RFC3339Nano
		if a.Format == Date {
			layout = time.DateOnly
		}
		if _, err := time.Parse(layout, k.Value); err != nil {
			return fmt.Errorf("%q is not a time in the form %s", k.Value, layout)
		}
	case String, Path:
		if k.Tag != "!!str" {
			return fmt.Errorf("%s is a string; quote the constant: \"%s\"", a.Name, k.Value)
		}
	case Bytes:
		return fmt.Errorf("bytes can't be compared with a constant; make it a parameter")
	default:
		return fmt.Errorf("%s can't be compared with a constant", a.Describe())
	}
	return nil
}

// CanonicalNumber is the decimal text DynamoDB takes of a number
// constant as YAML writes it (1_000, 0x10, 1e3, .5): an int64 when isInt,
// else a float64 DynamoDB stores (FloatStored), in the form the generated
// code writes it in and DynamoDB gives it back (FloatText): two constants
// of one value have one text.
func CanonicalNumber(text string, isInt bool) (string, error) {
	t := strings.ReplaceAll(text, "_", "")
	if n, err := strconv.ParseInt(t, 0, 64); err == nil {
		return strconv.FormatInt(n, 10), nil
	} else if isInt {
		return "", err
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil || !FloatStored(f) {
		return "", fmt.Errorf("%q is not a number DynamoDB stores", text)
	}
	return FloatText(f), nil
}

// overlap reports whether a and b, attributes or paths an update writes,
// are one in the other (address and address.zip): DynamoDB refuses the
// update ("Two document paths overlap").
// A map's entry by a caller's key may be any entry: two of one map may
// be one.
func overlap(a, b *Attribute) bool {
	x, y := a.StoredPath(), b.StoredPath()
	if len(x) > len(y) {
		x, y = y, x
	}
	return slices.EqualFunc(x, y[:len(x)], func(s, t string) bool {
		return s == t || strings.HasPrefix(s, "{") && strings.HasPrefix(t, "{")
	})
}

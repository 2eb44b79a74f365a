package plan

import (
	"github.com/dyngen/dyngen/internal/model"
)

// What the generated package holds besides each pattern's call is
// decided here too, before anything is printed, as protoc-gen-go
// computes a file's descriptors before printing it (internal_gengo's
// newFileInfo): so every file of the package can be printed on its own,
// in any order.

// Entity is what the generated package holds for one entity besides its
// struct: the key builders the methods call and the layout of its
// MarshalItem.
type Entity struct {
	Entity *model.Entity
	// Builders are the functions that build the entity's key attributes
	// a method builds, in the order of its keys: a natural key (the
	// attribute itself) has none, and a key no method builds none.
	Builders []*Builder
	Layout   *ItemLayout
}

// Builder is the function that builds an entity's value of a key
// attribute from its template's attributes (bookPK, reviewGSI1SK).
type Builder struct {
	Name     string // model.BuilderName
	KeyAttr  *model.KeyAttr
	Template *model.Template
	// Limit is the limit its size is checked against: NoLimit for a key
	// that can't be over its limit, or is not a string.
	Limit KeyLimit
}

// Entity returns the plan of entity e.
func (p *Plan) Entity(e *model.Entity) *Entity { return p.entities[e] }

// Builder returns the builder of key attribute ka, or nil when no method
// builds it.
func (pe *Entity) Builder(ka *model.KeyAttr) *Builder {
	for _, b := range pe.Builders {
		if b.KeyAttr.Name == ka.Name {
			return b
		}
	}
	return nil
}

// planEntities plans what the package holds for each entity of p's
// model.
func planEntities(p *Plan) {
	p.entities = map[*model.Entity]*Entity{}
	built := map[*model.Entity]map[string]bool{}
	for _, pp := range p.Patterns {
		pp.keyBuilds(func(e *model.Entity, ka *model.KeyAttr) {
			if built[e] == nil {
				built[e] = map[string]bool{}
			}
			built[e][ka.Name] = true
		})
	}
	for _, e := range p.Model.Entities {
		pe := &Entity{Entity: e, Layout: itemLayout(e)}
		done := map[string]bool{}
		for _, k := range e.Keys {
			for i, tm := range k.AttrTemplates() {
				ka := k.Index.KeyAttrs()[i]
				if tm.IsNatural(ka) || done[ka.Name] || !built[e][ka.Name] {
					continue
				}
				done[ka.Name] = true
				b := &Builder{Name: model.BuilderName(e, ka), KeyAttr: ka, Template: tm}
				if ka.Type == model.S {
					b.Limit = keySizeLimit(e, ka, tm)
				}
				pe.Builders = append(pe.Builders, b)
			}
		}
		p.Entities = append(p.Entities, pe)
		p.entities[e] = pe
	}
}

// keyBuilds calls built with each key attribute whose value the method
// of pp (or the builder of a step) builds with its entity's builder: the
// key attributes of the key it sends that are neither natural nor
// literal text, and the index keys an update rewrites.
func (pp *Pattern) keyBuilds(built func(*model.Entity, *model.KeyAttr)) {
	key := func(e *model.Entity, ka *model.KeyAttr, tm *model.Template) {
		if !tm.IsNatural(ka) && !tm.IsLiteral(ka) {
			built(e, ka)
		}
	}
	primary := func(e *model.Entity) {
		k := e.PrimaryKey()
		key(e, k.Index.PK, k.PK)
		if k.SK != nil {
			key(e, k.Index.SK, k.SK)
		}
	}
	switch pp.Form {
	case FormGet, FormDelete, FormCheck, FormBatchGet, FormBatchDelete:
		primary(pp.Entity())
	case FormUpdate:
		primary(pp.Entity())
		for _, rb := range pp.Rebuild {
			if !rb.Remove {
				built(pp.Entity(), rb.KeyAttr)
			}
		}
	case FormGetByQuery, FormFirst, FormPages:
		if pp.Index.Multi() {
			// The attributes themselves, or the entity's type value.
			for _, b := range pp.Key.Bound() {
				key(pp.Entity(), b.Attr, b.Tm)
			}
			return
		}
		key(pp.Entity(), pp.Index.PK, pp.Key.PK)
		if pp.Key.SK.Kind == SKEq {
			key(pp.Entity(), pp.Index.SK, pp.Key.SK.Template)
		}
	case FormCopyGet:
		primary(pp.Pattern.Copy.Entity)
	case FormLookup:
		primary(pp.Unique.Claim.Entity())
		primary(pp.Entity())
	case FormManyAll, FormManyEach:
		pp.Many.Item.keyBuilds(built)
	case FormUniqueWrite, FormTransactWrite, FormTransactGet:
		if pp.Unique != nil && pp.Unique.Read != nil {
			primary(pp.Entity())
		}
		for _, s := range pp.Tx.Steps {
			s.Plan.keyBuilds(built)
		}
	}
}

// Uses is what a package's Store holds beyond its tables and calls, as
// its patterns need it.
type Uses struct {
	// Query: a pattern reads a query's page or its first item.
	Query bool
	// Cursors: a pattern pages a query; the Store has a cursor key.
	Cursors bool
	// Batch: a pattern is a batch; the Store has a batch concurrency.
	Batch bool
	// Concurrent: a pattern sends requests concurrently (a batch, a
	// write over many keys with many: each); the Store has a batch
	// concurrency.
	Concurrent bool
	// Transaction: a pattern is a transaction, or a write over many keys
	// in one (many: all).
	Transaction bool
	// Many: a pattern is a write over many keys; ManyEach: one with
	// many: each.
	Many, ManyEach bool
	// Expiry: a pattern, or a step of a transaction, treats expired
	// items as absent, by the Store's clock.
	Expiry bool
	// Clock: the Store has a clock: for Expiry, or to stamp the items
	// it writes with their created and updated times.
	Clock bool
}

// Uses is what p's Store holds beyond its tables and calls.
func (p *Plan) Uses() Uses {
	var u Uses
	for _, pp := range p.Patterns {
		u.Query = u.Query || pp.Form == FormPages || pp.Form == FormFirst
		u.Cursors = u.Cursors || pp.Form == FormPages
		u.Batch = u.Batch || pp.Call == BatchGetItem || pp.Call == BatchWriteItem
		u.Concurrent = u.Concurrent || pp.Call == BatchGetItem || pp.Call == BatchWriteItem || pp.Form == FormManyEach
		u.Transaction = u.Transaction || pp.Tx != nil || pp.Form == FormManyAll
		u.Many = u.Many || pp.Many != nil
		u.ManyEach = u.ManyEach || pp.Form == FormManyEach
		u.Expiry = u.Expiry || pp.Request.Expiry != nil
		if pp.Tx != nil {
			for _, s := range pp.Tx.Steps {
				u.Expiry = u.Expiry || s.Plan.Request.Expiry != nil
			}
		}
	}
	u.Clock = u.Expiry || p.Model.NeedsClock() || p.releases()
	return u
}

// releases reports whether a consumer of p releases expired items: its
// release reads the Store's clock (the receipt's time to live).
func (p *Plan) releases() bool {
	for _, st := range p.Streams {
		for _, c := range st.Consumers {
			if len(c.Releases) > 0 {
				return true
			}
		}
	}
	return false
}

// clientCalls are the calls a Store may make, in the order its Client
// interface lists them.
var clientCalls = []Call{GetItem, Query, PutItem, UpdateItem, DeleteItem, BatchGetItem, BatchWriteItem, TransactGetItems, TransactWriteItems}

// Calls are the DynamoDB operations the package's methods call, in the
// order the Client interface lists them: each pattern's own call, and the
// GetItem a write of an entity with unique values reads the item with
// before its transaction, or a get by a unique value reads the claim
// with, and the transaction of a consumer's release of expired items.
func (p *Plan) Calls() []Call {
	used := map[Call]bool{}
	for _, pp := range p.Patterns {
		used[pp.Call] = true

		if u := pp.Unique; u != nil {
			for _, r := range []*Pattern{u.Read, u.Claim} {
				if r != nil {
					used[r.Call] = true
				}
			}
		}
	}
	if p.releases() {
		// A release is one transaction (release.go).
		used[TransactWriteItems] = true
	}
	var out []Call
	for _, c := range clientCalls {
		if used[c] {
			out = append(out, c)
		}
	}
	return out
}

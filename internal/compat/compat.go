// Package compat is the compatibility check of a changed design (dyngen
// check): it compares a spec's plan with the lock an earlier generation
// committed (internal/lock) and classifies every change by what it does
// to the items already stored and to the code already running, in the
// manner of buf breaking and a schema registry's compatibility modes:
//
//   - read-old: new code reads every item old code wrote;
//   - read-new: old code, still running during a rolling deploy or after
//     a rollback, reads what new code writes;
//   - keys: every stored item is still found where the new patterns look;
//   - infrastructure: what deploying the tables does;
//   - api: what breaks the callers of the generated package.
//
// Each finding has an id (class/subject/kind) that accept: names to
// accept it on purpose, the position in the new spec, who breaks, and
// the safe order of the change.
package compat

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/dyngen/dyngen/internal/lock"
	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/plan"
)

// Class is the class of a finding.
type Class string

// The classes, in the order findings of one position are listed.
const (
	ReadOld        Class = "read-old"
	ReadNew        Class = "read-new"
	Keys           Class = "keys"
	Infrastructure Class = "infrastructure"
	API            Class = "api"
)

// Finding is one change and what it does.
type Finding struct {
	// ID names the finding for accept: class/subject/kind
	// (read-old/User.nick/required).
	ID    string
	Class Class
	// Breaking is set when the change breaks stored items, running code
	// or callers unless done in the safe order; the check fails on a
	// breaking finding the spec does not accept.
	Breaking bool
	// Pos is where the change is in the new spec: the part changed, or,
	// for a part removed, what held it.
	Pos model.Pos
	// What says what changed, Breaks who breaks, and Order the safe
	// order of the change, or its fix.
	What, Breaks, Order string
	// Accepted is the reason the spec's accept: gives, or "".
	Accepted string
	// Backfill is, for a change that a backfill of the migration output
	// makes safe, what it writes (its State unset); nil otherwise.
	Backfill *model.Backfill
	// Backfilled is the state (pending, done) of that backfill in the
	// lock generation wrote for the new spec (Result.Backfilled), ""
	// when that lock holds none: a breaking finding with one does not
	// fail the check, since the backfill makes it safe, and -strict
	// gates the release while it is pending. BackfillID is that
	// backfill's id in the lock.
	Backfilled, BackfillID string
}

// Result is the findings of a check, sorted by position, and the
// accept: entries that match none (AcceptedNone).
type Result struct {
	Findings     []*Finding
	AcceptedNone []*model.Accept
}

// Failed reports whether the check fails: a breaking finding is neither
// accepted nor made safe by a backfill of the new lock.
func (r *Result) Failed() bool {
	return slices.ContainsFunc(r.Findings, func(f *Finding) bool { return f.Breaking && f.Accepted == "" && f.Backfilled == "" })
}

// Backfilled marks each finding that a backfill of lock l (the lock
// generation wrote for the new spec) makes safe with that backfill's
// state: the backfill of the same kind, entity and index or unique
// attributes, whatever its id (one carried across a rename keeps the
// old).
func (r *Result) Backfilled(l *lock.Lock) {
	for _, f := range r.Findings {
		nb := f.Backfill
		if nb == nil {
			continue
		}
		index := ""
		if nb.Index != nil {
			index = nb.Index.Name
		}
		attrs := nb.Attributes()
		for _, b := range l.Backfills {
			if b.Kind == string(nb.Kind) && b.Entity == nb.Entity.Name && b.Index == index && slices.Equal(b.Attributes, attrs) {
				f.Backfilled, f.BackfillID = b.State, b.ID
			}
		}
	}
}

// Check compares plan p with old, the committed lock.
func Check(old *lock.Lock, p *plan.Plan, tools []Tool) *Result {
	return CheckLock(old, lock.Build(p, old.Source), p, tools)
}

// CheckLock is Check with the lock of p built already (lock.Build of p,
// its backfills aside): generation builds it once, for the check and
// the lock it writes.
func CheckLock(old, new *lock.Lock, p *plan.Plan, tools []Tool) *Result {
	c := &checker{old: old, new: new, m: p.Model, tools: tools}
	c.pkg()
	c.tables()
	c.objects()
	c.entities()
	c.patterns()
	res := &Result{Findings: c.out}
	accepted := map[string]*model.Accept{}
	for _, a := range p.Model.Accept {
		accepted[a.ID] = a
	}
	used := map[string]bool{}
	for _, f := range res.Findings {
		if a := accepted[f.ID]; a != nil {
			f.Accepted = a.Reason
			used[f.ID] = true
		}
	}
	for _, a := range p.Model.Accept {
		if !used[a.ID] {
			res.AcceptedNone = append(res.AcceptedNone, a)
		}
	}
	slices.SortStableFunc(res.Findings, func(a, b *Finding) int {
		return cmp.Or(cmp.Compare(a.Pos.Line, b.Pos.Line), cmp.Compare(a.Pos.Col, b.Pos.Col), strings.Compare(a.ID, b.ID))
	})
	return res
}

type checker struct {
	old, new *lock.Lock
	m        *model.Model
	// tools are the outputs of the spec that deploy its tables.
	tools []Tool
	out   []*Finding
	// matched holds the spec's derived entities (claims, counters,
	// copies, element items) the lock holds under their owner's old or
	// new name: none of them is new.
	matched map[*model.Entity]bool
	// entityMatch and patternMatch find the spec's part of a name of the
	// lock (entityFor, patternFor), indexed at their first use.
	entityMatch  *matcher[*model.Entity]
	patternMatch *matcher[*model.Pattern]
	// newEntities and newPatternIndex index the new lock's entities and
	// patterns by name.
	newEntities, newPatternIndex map[string]int
}

func (c *checker) add(f *Finding) { c.out = append(c.out, f) }

// finding adds a finding of class cl about subject, of kind kind.
func (c *checker) finding(cl Class, subject, kind string, breaking bool, pos model.Pos, what, breaks, order string) *Finding {
	f := &Finding{ID: string(cl) + "/" + subject + "/" + kind, Class: cl, Breaking: breaking, Pos: pos, What: what, Breaks: breaks, Order: order}
	c.add(f)
	return f
}

// fills marks finding f as one the backfill of kind k of entity e (on
// index ix, for index keys) makes safe; the backfill's id is the
// finding's subject.
func (f *Finding) fills(k model.BackfillKind, e *model.Entity, ix *model.Index) *Finding {
	subject := strings.TrimPrefix(f.ID, string(f.Class)+"/")
	subject = subject[:strings.LastIndex(subject, "/")]
	f.Backfill = &model.Backfill{ID: subject, Kind: k, Entity: e, Index: ix, Finding: f.ID}
	return f
}

// --- tables and indexes ---------------------------------------------------

func (c *checker) tableOf(name string) *model.Table {
	for _, t := range c.m.Tables {
		if t.Name == name {
			return t
		}
	}
	return nil
}

func keyText(k *lock.Key) string {
	if k == nil {
		return "none"
	}
	return k.Name + " (" + k.Type + ")"
}

// schema is a key schema as the findings say it, "PK (S), SK (S)":
// two schemas are one when their texts are.
func schema(pk lock.Key, sk *lock.Key) string { return keyText(&pk) + ", " + keyText(sk) }

// indexSchema shows an index's key; a multi-attribute key's as lists:
// [tenantId (S), region (S)], [createdAt (S)].
func indexSchema(i lock.Index) string {
	if i.PartitionKeys == nil {
		return schema(i.PartitionKey, i.SortKey)
	}
	pk, sk := i.Keys()
	list := func(ks []lock.Key) string {
		var parts []string
		for _, k := range ks {
			parts = append(parts, keyText(&k))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return list(pk) + ", " + list(sk)
}

func (c *checker) pkg() {
	if c.old.Package != c.new.Package {
		c.finding(API, c.new.Package, "package", true, c.m.PackagePos,
			fmt.Sprintf("the generated package is named %s, no longer %s", c.new.Package, c.old.Package),
			"callers of the generated package: they import it by the old name",
			"change the callers with the spec")
	}
}

func (c *checker) tables() {
	for _, ot := range c.old.Tables {
		i := slices.IndexFunc(c.new.Tables, func(t lock.Table) bool { return t.Name == ot.Name })
		if i < 0 {
			c.finding(Infrastructure, ot.Name, "removed", true, c.m.TablesPos,
				fmt.Sprintf("table %s is removed", ot.Name),
				c.removed(ot.Name),
				"remove the table from what is deployed only when its items are no longer needed (export them first); accept this finding to say so")
			continue
		}
		nt := c.new.Tables[i]
		t := c.tableOf(nt.Name)
		was, is := schema(ot.PartitionKey, ot.SortKey), schema(nt.PartitionKey, nt.SortKey)
		if was != is {
			typeOnly := ot.PartitionKey.Name == nt.PartitionKey.Name && (ot.SortKey == nil) == (nt.SortKey == nil) && (ot.SortKey == nil || ot.SortKey.Name == nt.SortKey.Name)
			c.finding(Infrastructure, nt.Name, "key-schema", true, t.Pos,
				fmt.Sprintf("the key of table %s changes from %s to %s", nt.Name, was, is),
				c.replaced(t, typeOnly),
				"create a new table with the new key, copy the items into it, then move the code to it")
		}
		if ot.EntityAttribute != nt.EntityAttribute {
			c.finding(ReadOld, nt.Name, "entity-attribute", true, t.Pos,
				fmt.Sprintf("table %s names its items' entity in %q, no longer in %q", nt.Name, nt.EntityAttribute, ot.EntityAttribute),
				"new code reading the items old code wrote: none holds the new attribute, so none is recognised",
				"write the entity attribute of every item under the new name (a backfill) before new code reads them, or keep the name (entityAttribute:)")
		}
		c.ttl(ot, nt, t)
		c.stream(ot, nt, t)
		c.indexes(ot, nt, t, was != is)
	}
}

// stream compares a table's stream. DynamoDB changes no view type of an
// enabled stream: it is disabled, then a new stream enabled, of another
// ARN, and the records of the writes in between are in neither.
func (c *checker) stream(ot, nt lock.Table, t *model.Table) {
	switch {
	case ot.Stream == nt.Stream:
	case ot.Stream == "":
		c.finding(Infrastructure, nt.Name, "stream-added", false, t.StreamPos,
			fmt.Sprintf("table %s gets a stream (%s)", nt.Name, nt.Stream),
			"no one: it holds the changes from the deploy on, none before",
			"deploy the table before the consumers of its stream")
	case nt.Stream == "":
		c.finding(Infrastructure, nt.Name, "stream-removed", true, t.Pos,
			fmt.Sprintf("table %s no longer has a stream (it had %s)", nt.Name, ot.Stream),
			"the consumers of the stream: it is disabled, and its records are gone 24 hours later",
			"remove the consumers first, then the stream")
	default:
		c.finding(Infrastructure, nt.Name, "stream-changed", true, t.StreamPos,
			fmt.Sprintf("the stream of table %s changes from %s to %s", nt.Name, ot.Stream, nt.Stream),
			"the consumers of the stream: DynamoDB can't change an enabled stream's view type; it must be disabled and a new one enabled, of another ARN, so the consumers of the old one stop, and the writes in between are in no stream",
			"remove the stream in one deploy and add the new one in the next (the writes in between are in no stream), then move the consumers to the new ARN")
	}
}

// ttl compares a table's time to live.
func (c *checker) ttl(ot, nt lock.Table, t *model.Table) {
	switch {
	case ot.TTL == nt.TTL:
	case ot.TTL == "":
		// Items that already hold the attribute, past its time, are
		// deleted by DynamoDB and read as absent at once.
		var holders []string
		for _, e := range c.old.Entities {
			if e.Table == ot.Name && slices.ContainsFunc(e.Attributes, func(a lock.Attribute) bool { return a.Stored == nt.TTL }) {
				holders = append(holders, e.Name)
			}
		}
		if len(holders) > 0 {
			c.finding(Infrastructure, nt.Name, "ttl-added", true, t.Pos,
				fmt.Sprintf("table %s takes %q as its ttl attribute, which items of %s already hold", nt.Name, nt.TTL, strings.Join(holders, ", ")),
				"the items whose "+nt.TTL+" is past: DynamoDB deletes them, and new code reads them as absent at once",
				"check that no stored item holds a past time there you mean to keep (rewrite those first), then deploy the time to live before code that relies on expiry")
			return
		}
		c.finding(Infrastructure, nt.Name, "ttl-added", false, t.Pos,
			fmt.Sprintf("table %s takes %q as its ttl attribute", nt.Name, nt.TTL),
			"no one: items expire by it once deployed (UpdateTimeToLive takes up to an hour)",
			"deploy the table's time to live before code that relies on expiry")
	case nt.TTL == "":
		c.finding(Infrastructure, nt.Name, "ttl-removed", true, t.Pos,
			fmt.Sprintf("table %s no longer has a ttl attribute (it had %q)", nt.Name, ot.TTL),
			"reads of the items past their time: new code no longer treats them as absent, and DynamoDB no longer deletes them",
			"delete the expired items, or keep the ttl, before new code reads them")
	default:
		c.finding(Infrastructure, nt.Name, "ttl-changed", true, t.Pos,
			fmt.Sprintf("the ttl attribute of table %s changes from %q to %q", nt.Name, ot.TTL, nt.TTL),
			"the deploy: DynamoDB disables a time to live and enables another one change an hour apart, so one update fails; items expire by neither in between",
			"disable the time to live in one deploy and enable the new one in another, an hour later")
	}
}

// indexFor returns the new index matching old index name of table t:
// renamed from it, or of its name.
func (c *checker) indexFor(t *model.Table, name string) *model.Index {
	held := func(n string) bool {
		for _, ot := range c.old.Tables {
			if ot.Name == t.Name {
				return slices.ContainsFunc(ot.Indexes, func(i lock.Index) bool { return i.Name == n })
			}
		}
		return false
	}
	return match(t.Indexes[1:], name, func(ix *model.Index) (string, model.Renamed) { return ix.Name, ix.RenamedFrom }, held)
}

// match returns the part of parts that the lock's part name is now: the
// one renamed from it (renamedFrom) whose own name the lock does not hold
// yet (held), else the one of that name (a lock written after the rename
// holds the new name, and another part may take the old one); nil when
// none is.
func match[T comparable](parts []T, name string, names func(T) (string, model.Renamed), held func(string) bool) T {
	return newMatcher(parts, names, held).find(name)
}

// matcher is match over one list of parts, indexed once: a check looks
// up every part of the lock, and a spec may have thousands.
type matcher[T comparable] struct {
	byName map[string]T
	byFrom map[string][]T
	names  func(T) (string, model.Renamed)
	held   func(string) bool
}

func newMatcher[T comparable](parts []T, names func(T) (string, model.Renamed), held func(string) bool) *matcher[T] {
	m := &matcher[T]{byName: map[string]T{}, byFrom: map[string][]T{}, names: names, held: held}
	for _, x := range parts {
		n, from := names(x)
		if _, ok := m.byName[n]; !ok {
			m.byName[n] = x
		}
		if from.Name != "" {
			m.byFrom[from.Name] = append(m.byFrom[from.Name], x)
		}
	}
	return m
}

// find is match of name.
func (m *matcher[T]) find(name string) T {
	for _, x := range m.byFrom[name] {
		if n, _ := m.names(x); !m.held(n) {
			return x
		}
	}
	return m.byName[name]
}

// indexes compares the indexes of a table; replaced says that the
// table is replaced (its key changes), when its global indexes are
// created with it.
func (c *checker) indexes(ot, nt lock.Table, t *model.Table, replaced bool) {
	globals := 0 // global indexes created or deleted by one deploy
	for _, oi := range ot.Indexes {
		ix := c.indexFor(t, oi.Name)
		if ix == nil {
			if oi.Kind == "local" {
				replaced = true
				c.finding(Infrastructure, ot.Name+"."+oi.Name, "removed", true, t.Pos,
					fmt.Sprintf("local index %s of table %s is removed", oi.Name, ot.Name),
					c.replaced(t, false),
					"create a new table without it, copy the items, then move the code to it")
				continue
			}
			globals++
			c.finding(Infrastructure, ot.Name+"."+oi.Name, "removed", true, t.Pos,
				fmt.Sprintf("global index %s of table %s is removed", oi.Name, ot.Name),
				"old code still running that queries it: its queries fail once the index is deleted",
				"deploy code that no longer reads the index everywhere first, then remove the index")
			continue
		}
		ni := nt.Indexes[slices.IndexFunc(nt.Indexes, func(i lock.Index) bool { return i.Name == ix.Name })]
		sub := nt.Name + "." + ni.Name
		if ni.Name != oi.Name && ni.Kind != "local" {
			globals += 2
			c.finding(Infrastructure, sub, "renamed", true, ix.RenamedFrom.Pos,
				fmt.Sprintf("index %s of table %s is renamed from %s: DynamoDB creates an index of the new name and deletes the old one", ni.Name, nt.Name, oi.Name),
				"queries of the new index while DynamoDB builds it, and old code querying the old one",
				"add the new index beside the old one in one deploy, move the code to it, then remove the old one")
		}
		was, is := indexSchema(oi), indexSchema(ni)
		if oi.Kind == "local" || ni.Kind == "local" {
			if oi.Name != ni.Name || was != is || oi.Kind != ni.Kind || projText(oi) != projText(ni) {
				replaced = true
				c.finding(Infrastructure, sub, "local-changed", true, ix.Pos,
					fmt.Sprintf("local index %s of table %s changes (its name, key or projection)", ni.Name, nt.Name),
					c.replaced(t, false),
					"create a new table with the new index, copy the items, then move the code to it")
			}
			continue
		}
		if was != is {
			globals += 2
			c.finding(Infrastructure, sub, "key-schema", true, ix.Pos,
				fmt.Sprintf("the key of index %s changes from %s to %s", ni.Name, was, is),
				"every query of the index: DynamoDB deletes it and builds a new one, and queries fail or miss items until it is ACTIVE",
				"add an index of another name with the new key, move the code to it once ACTIVE, then remove the old one")
		}
		if oi.Projection != ni.Projection || !slices.Equal(oi.Include, ni.Include) {
			globals += 2
			c.finding(Infrastructure, sub, "projection", true, ix.Pos,
				fmt.Sprintf("the projection of index %s changes from %s to %s", ni.Name, projText(oi), projText(ni)),
				"every query of the index: DynamoDB can't change a projection, so the index is deleted and built again",
				"add an index of another name with the new projection, move the code to it once ACTIVE, then remove the old one")
		}
	}
	for _, ix := range t.Indexes[1:] {
		if slices.ContainsFunc(ot.Indexes, func(oi lock.Index) bool { return c.indexFor(t, oi.Name) == ix }) {
			continue
		}
		if ix.Kind == model.Local {
			replaced = true
			c.finding(Infrastructure, nt.Name+"."+ix.Name, "added", true, ix.Pos,
				fmt.Sprintf("local index %s is added to table %s", ix.Name, nt.Name),
				c.replaced(t, false),
				"create a new table with the index, copy the items, then move the code to it")
			continue
		}
		globals++
		c.finding(Infrastructure, nt.Name+"."+ix.Name, "added", false, ix.Pos,
			fmt.Sprintf("global index %s is added to table %s: DynamoDB builds it from the items that hold its key attributes", ix.Name, nt.Name),
			"queries of the index before it is ACTIVE (they fail), and of items whose keys it lacks (see the keys findings)",
			"deploy the index, wait until it is ACTIVE, then deploy code that queries it")
	}
	if globals > 1 && !replaced {
		fails, what := c.globalIndexes(t, globals)
		c.finding(Infrastructure, nt.Name, "indexes", fails, t.Pos,
			fmt.Sprintf("one deploy creates or deletes %d global indexes of table %s, and DynamoDB's UpdateTable takes one a call", globals, nt.Name),
			what,
			"make the index changes one deploy each (generate and deploy with one change, then the next)")
	}
}

func projText(i lock.Index) string {
	if i.Projection == "INCLUDE" {
		return "INCLUDE " + strings.Join(i.Include, ", ")
	}
	return i.Projection
}

// --- entities and attributes ----------------------------------------------

// entityFor returns the new entity matching old entity name.
func (c *checker) entityFor(name string) *model.Entity {
	if c.entityMatch == nil {
		held := map[string]bool{}
		for _, e := range c.old.Entities {
			held[e.Name] = true
		}
		c.entityMatch = newMatcher(c.m.Entities, func(e *model.Entity) (string, model.Renamed) { return e.Name, e.RenamedFrom }, func(n string) bool { return held[n] })
	}
	return c.entityMatch.find(name)
}

func (c *checker) newEntity(name string) *lock.Entity {
	if c.newEntities == nil {
		c.newEntities = map[string]int{}
		for i, e := range c.new.Entities {
			c.newEntities[e.Name] = i
		}
	}
	if i, ok := c.newEntities[name]; ok {
		return &c.new.Entities[i]
	}
	return nil
}

// newPatterns indexes the new lock's patterns by name.
func (c *checker) newPatterns() map[string]int {
	if c.newPatternIndex == nil {
		c.newPatternIndex = map[string]int{}
		for i, p := range c.new.Patterns {
			c.newPatternIndex[p.Name] = i
		}
	}
	return c.newPatternIndex
}

func (c *checker) entities() {
	c.matched = map[*model.Entity]bool{}
	for _, oe := range c.old.Entities {
		if oe.Of != "" {
			if e := c.derivedFor(oe); e != nil {
				c.matched[e] = true
			}
		}
	}
	for _, oe := range c.old.Entities {
		var e *model.Entity
		if oe.Of == "" {
			e = c.entityFor(oe.Name)
		} else {
			e = c.derivedFor(oe)
		}
		switch {
		case e == nil && oe.Of == "":
			c.finding(Keys, oe.Name, "removed", false, c.m.EntitiesPos,
				fmt.Sprintf("entity %s is removed: its items stay in table %s, read by no pattern", oe.Name, oe.Table),
				"no one: they still take storage, and stay in the indexes whose key attributes they hold",
				"delete the items when they are no longer needed")
			continue
		case e == nil:
			if owner, _ := ownerOf(oe.Of); c.entityFor(owner) != nil {
				c.finding(Keys, oe.Name, "derived-removed", false, c.entityFor(owner).Pos,
					fmt.Sprintf("%s goes (the %s): its items stay in table %s", oe.Name, oe.Of, oe.Table),
					"no one the new code reads them for; old code still running (a rollback) reads them stale",
					"delete its items once no old code runs")
			}
			continue
		}
		ne := c.newEntity(e.Name)
		c.entity(oe, *ne, e)
	}
	for _, e := range c.m.Entities {
		if e.RenamedFrom.Name != "" && !slices.ContainsFunc(c.old.Entities, func(oe lock.Entity) bool { return oe.Name == e.RenamedFrom.Name || oe.Name == e.Name }) {
			c.finding(API, e.Name, "renamed-from-unknown", true, e.RenamedFrom.Pos,
				fmt.Sprintf("entity %s is renamed from %s, which the lock does not hold", e.Name, e.RenamedFrom.Name),
				"the check: it can't tell what the rename keeps",
				"name in renamedFrom an entity of the lock, or remove renamedFrom")
		}
	}
}

func (c *checker) entity(oe, ne lock.Entity, e *model.Entity) {
	name := ne.Name
	if oe.Table != ne.Table {
		c.finding(ReadOld, name, "table", true, e.Pos,
			fmt.Sprintf("entity %s moves from table %s to table %s", name, oe.Table, ne.Table),
			"new code reading the items old code wrote: they stay in the old table",
			"copy the items into the new table before new code reads them")
		return
	}
	if oe.TypeValue != ne.TypeValue {
		c.finding(ReadOld, name, "type-value", true, e.Pos,
			fmt.Sprintf("the type value of %s changes from %q to %q", name, oe.TypeValue, ne.TypeValue),
			"new code reading the items old code wrote: it recognises items by their type value, and takes them for another entity's (or none)",
			"rewrite the type attribute of every item (a backfill) before new code reads them")
	}
	if oe.GoType != ne.GoType && oe.Of == "" {
		c.finding(API, name, "go-type", true, e.Pos,
			fmt.Sprintf("the Go type of %s changes from %s to %s", name, oe.GoType, ne.GoType),
			"callers of the generated package: the old type is gone",
			"change the callers with the spec")
	}
	c.keys(oe, ne, e)
	c.attributes(oe, ne, e)
	c.derived(oe, ne, e)
}

// keys compares where the items of an entity are.
func (c *checker) keys(oe, ne lock.Entity, e *model.Entity) {
	name := ne.Name
	for _, ok := range oe.Keys {
		// The index the key was on, as it is named now.
		target := ok.Index
		if ix := c.indexFor(e.Table, ok.Index); ix != nil {
			target = ix.Name
		}
		var nk *lock.EntityKey
		var mk *model.EntityKey
		for i, k := range ne.Keys {
			if k.Index == target {
				nk, mk = &ne.Keys[i], e.Keys[i]
			}
		}
		sub := name + "." + ok.Index
		if nk == nil {
			if ok.Index == model.PrimaryName || len(ok.Via) > 0 || c.indexFor(e.Table, ok.Index) == nil {
				continue // an index removed is the table's finding
			}
			c.finding(Keys, sub, "left", false, e.Pos,
				fmt.Sprintf("%s leaves index %s: its items keep the index's key attributes, so they stay in it", name, ok.Index),
				"no one: the index still holds (and bills) them until they are rewritten",
				"remove the index's key attributes from the stored items (a backfill) if the index should not hold them")
			continue
		}
		if mk.Index.Multi() {
			c.multiKey(oe, ne, mk, sub, ok.Index != nk.Index || keyTemplates(ok) != keyTemplates(*nk) || c.indexKeyNames(c.old, oe.Table, ok.Index) != c.indexKeyNames(c.new, ne.Table, nk.Index))
			continue
		}
		if was, is := c.indexKeyNames(c.old, oe.Table, ok.Index), c.indexKeyNames(c.new, ne.Table, nk.Index); ok.Index != model.PrimaryName && was != is {
			c.finding(Keys, sub, "key-attributes", true, mk.Pos,
				fmt.Sprintf("index %s is keyed by %s, no longer by %s: the items of %s old code wrote hold only the old ones", nk.Index, is, was, name),
				"new code querying "+nk.Index+": DynamoDB rebuilds it from the items that hold its new key attributes, which those items lack",
				"write the new key attributes into every item (a backfill) before any pattern reads "+nk.Index).fills(model.IndexKeys, e, mk.Index)
			continue
		}
		if storedTemplate(oe, ok.PK) == storedTemplate(ne, nk.PK) && storedTemplate(oe, ok.SK) == storedTemplate(ne, nk.SK) && formsOf(oe, ok) == formsOf(ne, *nk) {
			continue // the same stored attributes, in the same forms
		}
		what := fmt.Sprintf("the key of %s on %s changes from %s to %s", name, ok.Index, keyTemplates(ok), keyTemplates(*nk))
		if storedTemplate(oe, ok.PK) == storedTemplate(ne, nk.PK) && storedTemplate(oe, ok.SK) == storedTemplate(ne, nk.SK) {
			what = fmt.Sprintf("the key of %s on %s holds its attributes in other forms (%s, no longer %s)", name, ok.Index, formsOf(ne, *nk), formsOf(oe, ok))
		}
		if ok.Index == model.PrimaryName {
			c.finding(Keys, sub, "template", true, mk.Pos, what,
				"new code looking up the items old code wrote: each is stored under its old key, where no new pattern looks",
				"write every item again under its new key, and delete it under the old one (a migration), before new code reads them")
			continue
		}
		c.finding(Keys, sub, "template", true, mk.Pos, what,
			"new code querying "+ok.Index+": the items old code wrote hold the old key there, and are missed (or found where they no longer belong)",
			"rewrite the index's key attributes of every item (a backfill) before any pattern reads "+ok.Index).fills(model.IndexKeys, e, mk.Index)
	}
	for i, nk := range ne.Keys {
		mk := e.Keys[i]
		if nk.Index == model.PrimaryName || mk.Derived() || slices.ContainsFunc(oe.Keys, func(k lock.EntityKey) bool {
			ix := c.indexFor(e.Table, k.Index)
			return ix != nil && ix.Name == nk.Index
		}) {
			continue
		}
		sub := ne.Name + "." + nk.Index
		if mk.Index.Multi() && !c.heldAlready(oe, mk) {
			c.multiKey(oe, ne, mk, sub, true)
			continue
		}
		if c.heldAlready(oe, mk) {
			c.finding(Keys, sub, "joined", false, mk.Pos,
				fmt.Sprintf("%s joins index %s, keyed by attributes its items already hold: DynamoDB puts them in the index itself", ne.Name, nk.Index),
				"queries of the index before DynamoDB has filled it",
				"deploy the index (or this key) before code that queries it, and wait until it is ACTIVE")
			continue
		}
		c.finding(Keys, sub, "joined", true, mk.Pos,
			fmt.Sprintf("%s joins index %s, whose key attributes (%s) the items old code wrote lack", ne.Name, nk.Index, keyTemplates(nk)),
			"new code querying "+nk.Index+": the items written before are not in it",
			"write the index's key attributes into every item (a backfill) before any pattern reads "+nk.Index).fills(model.IndexKeys, e, mk.Index)
	}
}

// multiKey classifies the key of entity ne on an index with a
// multi-attribute key that is new or changed (changed): DynamoDB builds
// the index from the attributes the items hold, so the items old code
// wrote are in it as soon as they hold every key attribute. Those they
// lack are the entity's attributes, which no index-keys backfill writes:
// a backfill of the attribute does (backfill: compute).
func (c *checker) multiKey(oe, ne lock.Entity, mk *model.EntityKey, sub string, changed bool) {
	if !changed {
		return
	}
	if c.heldAlready(oe, mk) {
		c.finding(Keys, sub, "joined", false, mk.Pos,
			fmt.Sprintf("%s is keyed on index %s by attributes its items already hold: DynamoDB puts them in the index itself", ne.Name, mk.Index.Name),
			"queries of the index before DynamoDB has filled it",
			"deploy the index (or this key) before code that queries it, and wait until it is ACTIVE")
		return
	}
	var lack []string
	for i, tm := range mk.AttrTemplates() {
		a := tm.Segments[0].Attr
		if a != nil && !slices.ContainsFunc(oe.Attributes, func(oa lock.Attribute) bool { return oa.Stored == a.Stored }) {
			lack = append(lack, a.Name)
		} else if a == nil && tm.Segments[0].Literal != oe.TypeValue {
			lack = append(lack, mk.Index.KeyAttrs()[i].Name)
		}
	}
	c.finding(Keys, sub, "joined", true, mk.Pos,
		fmt.Sprintf("%s is keyed on index %s, a multi-attribute key, by %s, which the items old code wrote lack", ne.Name, mk.Index.Name, strings.Join(lack, ", ")),
		"new code querying "+mk.Index.Name+": the items written before are not in it until they hold every key attribute",
		fmt.Sprintf("give %s backfill: compute, and run it before any pattern reads %s (then accept this finding), or make %s optional (the index sparse)", strings.Join(lack, ", "), mk.Index.Name, map[bool]string{true: "it", false: "them"}[len(lack) == 1]))
}

// indexKeyNames names the key attributes of index ix of table t in lock
// l: "GSI1PK, GSI1SK".
func (c *checker) indexKeyNames(l *lock.Lock, t, ix string) string {
	for _, tb := range l.Tables {
		if tb.Name != t {
			continue
		}
		for _, i := range tb.Indexes {
			if i.Name == ix {
				pk, sk := i.Keys()
				var names []string
				for _, k := range slices.Concat(pk, sk) {
					names = append(names, k.Name)
				}
				return strings.Join(names, ", ")
			}
		}
	}
	return ""
}

// heldAlready reports whether the items old code wrote hold the key
// attributes of key k already: each is an attribute of the entity, stored
// under the key attribute's name (a natural key), that old items stored
// too.
func (c *checker) heldAlready(oe lock.Entity, k *model.EntityKey) bool {
	for i, tm := range k.AttrTemplates() {
		ka := k.Index.KeyAttrs()[i]
		// The entity attribute, a key attribute of a multi-attribute key:
		// every item holds its type value.
		if ka.Name == k.Index.Table.EntityAttr && tm.IsConstant() && tm.Segments[0].Literal == oe.TypeValue {
			continue
		}
		// The attribute itself is the key attribute (a natural key, or
		// a template of it alone into its own name).
		if len(tm.Segments) != 1 || tm.Segments[0].Attr == nil || tm.Segments[0].Attr.Stored != ka.Name {
			return false
		}
		a := tm.Segments[0].Attr
		// An optional one keys a sparse index: the items without it are
		// out of it, as the spec means.
		if !slices.ContainsFunc(oe.Attributes, func(oa lock.Attribute) bool { return oa.Stored == a.Stored }) {
			return false
		}
	}
	return true
}

// placeholder finds a template's placeholders ({name}).
var placeholder = regexp.MustCompile(`\{([^{}]*)\}`)

// storedTemplate is template tm of an entity's key with each placeholder
// naming its attribute's stored name: what the key holds, whatever the
// spec calls the attributes.
func storedTemplate(e lock.Entity, tm string) string {
	return placeholder.ReplaceAllStringFunc(tm, func(m string) string {
		if a := lockAttr(e, m[1:len(m)-1]); a != nil {
			return "{" + a.Stored + "}"
		}
		return m
	})
}

// formsOf lists the stored forms of the attributes key k is built from:
// a form changed changes the key's bytes.
func formsOf(e lock.Entity, k lock.EntityKey) string {
	var out []string
	for _, m := range placeholder.FindAllStringSubmatch(k.PK+k.SK, -1) {
		if a := lockAttr(e, m[1]); a != nil {
			out = append(out, a.Stored+":"+a.Form)
		}
	}
	return strings.Join(out, ",")
}

func keyTemplates(k lock.EntityKey) string {
	if k.SK == "" {
		return fmt.Sprintf("%q", k.PK)
	}
	return fmt.Sprintf("%q, %q", k.PK, k.SK)
}

func lockAttr(e lock.Entity, name string) *lock.Attribute {
	for i := range e.Attributes {
		if e.Attributes[i].Name == name {
			return &e.Attributes[i]
		}
	}
	return nil
}

func (c *checker) attributes(oe, ne lock.Entity, e *model.Entity) {
	if oe.Of != "" {
		return // dyngen's own: its changes follow the owner's
	}
	c.fields(oe, ne, e, e.Attributes, e.Pos)
}

// objects compares the fields of each object type the lock holds with
// the spec's: an object is stored in its items, field by field, as an
// entity's attributes are. An object type removed is the finding of the
// attributes that held it.
func (c *checker) objects() {
	for _, oo := range c.old.Objects {
		o := match(c.m.Objects, oo.Name, func(o *model.ObjectType) (string, model.Renamed) { return o.Name, model.Renamed{} }, func(string) bool { return true })
		if o == nil {
			continue
		}
		no := c.new.Objects[slices.IndexFunc(c.new.Objects, func(x lock.Object) bool { return x.Name == o.Name })]
		// An object's fields are compared as attributes of an entity of
		// its name.
		owner := func(ob lock.Object) lock.Entity {
			return lock.Entity{Name: ob.Name, GoType: ob.GoType, Attributes: ob.Fields}
		}
		c.fields(owner(oo), owner(no), nil, o.Fields, o.Pos)
	}
}

// fields compares the attributes old holds with those of now, the
// spec's attrs (entity e's, or an object type's fields, e nil) held at
// pos. A version or a timestamp added is required like any attribute:
// the items written before lack it.
func (c *checker) fields(old, now lock.Entity, e *model.Entity, attrs []*model.Attribute, pos model.Pos) {
	for _, oa := range old.Attributes {
		a := match(attrs, oa.Name, func(a *model.Attribute) (string, model.Renamed) { return a.Name, a.RenamedFrom }, func(n string) bool { return lockAttr(old, n) != nil })
		sub := now.Name + "." + oa.Name
		if a == nil {
			breaking := !oa.Optional && oa.Default == nil
			breaks := "no one: old items keep the value, which new code ignores"
			if breaking {
				breaks = "old code still running (a rolling deploy, a rollback): it requires " + oa.Name + ", which new code's items lack"
			}
			c.finding(ReadNew, sub, "removed", breaking, pos,
				fmt.Sprintf("attribute %s of %s is removed", oa.Name, now.Name), breaks,
				"first deploy code that reads "+oa.Name+" as optional, then remove it")
			c.finding(API, sub, "field-removed", true, pos,
				fmt.Sprintf("field %s of %s is removed", oa.GoField, now.GoType),
				"callers of the generated package that use it", "change the callers with the spec")
			continue
		}
		na := lockAttr(now, a.Name)
		c.attribute(oa, *na, e, a, now)
	}
	for _, a := range attrs {
		if a.RenamedFrom.Name != "" && lockAttr(old, a.Name) == nil {
			if lockAttr(old, a.RenamedFrom.Name) == nil {
				c.finding(API, now.Name+"."+a.Name, "renamed-from-unknown", true, a.RenamedFrom.Pos,
					fmt.Sprintf("attribute %s of %s is renamed from %s, which the lock does not hold", a.Name, now.Name, a.RenamedFrom.Name),
					"the check: it can't tell what the rename keeps", "name in renamedFrom an attribute of the lock, or remove renamedFrom")
			}
			continue
		}
		if lockAttr(old, a.Name) != nil {
			continue
		}
		sub := now.Name + "." + a.Name
		if !a.Optional && a.Default == nil {
			c.computed(c.finding(ReadOld, sub, "required-added", true, a.Pos,
				fmt.Sprintf("required attribute %s is added to %s, without a default", a.Name, now.Name),
				"new code reading the items old code wrote: they lack "+a.Name+", and fail to decode",
				"give it a default (default:), make it optional, or "+fillOrder(e)+" before new code reads them"), e, a)
			continue
		}
		c.computed(c.finding(ReadNew, sub, "added", false, a.Pos,
			fmt.Sprintf("attribute %s is added to %s", a.Name, now.Name),
			"data written by new code: a put of old code still running (a rolling deploy, a rollback) replaces the item whole and drops "+a.Name,
			"deploy everywhere before code writes "+a.Name+" where old code may put the same items"), e, a)
	}
}

// fillOrder says how to give the items that lack an attribute of entity
// e (nil for an object's field) a value.
func fillOrder(e *model.Entity) string {
	if e == nil {
		return "write it into every item that lacks it (a migration of yours: no backfill of dyngen's rewrites an object)"
	}
	return "compute it for every item that lacks it (backfill: compute)"
}

// computed marks finding f, of attribute a of entity e (nil for an
// object's field), as one the backfill of a's values (backfill:
// compute) makes safe, when a says so.
func (c *checker) computed(f *Finding, e *model.Entity, a *model.Attribute) {
	if e != nil && a.Compute {
		f.fills(model.Computed, e, nil).Backfill.Attr = a
	}
}

func (c *checker) attribute(oa, na lock.Attribute, e *model.Entity, a *model.Attribute, ne lock.Entity) {
	sub := ne.Name + "." + na.Name
	if oa.Stored != na.Stored {
		c.finding(ReadOld, sub, "stored-name", true, a.Pos,
			fmt.Sprintf("attribute %s of %s is stored under %q, no longer %q", na.Name, ne.Name, na.Stored, oa.Stored),
			"new code reading the items old code wrote: they hold the value under the old name; old code reading new items",
			"copy the value to the new name in every item (a backfill) and deploy readers of both first, or keep the stored name (attr:)")
	}
	widened := oa.Form == na.Form && (oa.Type == "enum" && na.Type == "string" || oa.Type == "int" && na.Type == "float")
	if widened {
		// The new type reads every value of the old one, not the reverse.
		c.finding(ReadNew, sub, "widened", true, a.Pos,
			fmt.Sprintf("attribute %s of %s becomes %s, no longer %s: new code reads every value stored", na.Name, ne.Name, na.Type, oa.Type),
			"old code still running (a rolling deploy, a rollback): it can't read every value new code may write",
			"deploy everywhere before any code writes a value the old type can't hold")
	} else if oa.Type != na.Type || oa.Form != na.Form || oa.Object != na.Object {
		c.finding(ReadOld, sub, "form", true, a.Pos,
			fmt.Sprintf("attribute %s of %s is stored as %s (%s), no longer as %s (%s)", na.Name, ne.Name, na.Form, na.Type, oa.Form, oa.Type),
			"new code reading the items old code wrote, and old code reading what new code writes: each finds a value of the other form",
			"add an attribute of the new form, write it into every item (a backfill), move the readers to it, then remove the old one")
	}
	if oa.Optional && !na.Optional && na.Default == nil {
		c.computed(c.finding(ReadOld, sub, "required", true, a.Pos,
			fmt.Sprintf("attribute %s of %s becomes required, without a default", na.Name, ne.Name),
			"new code reading the items old code wrote without it: they fail to decode",
			"give it a default, or "+fillOrder(e)+" before new code reads them"), e, a)
	}
	if !oa.Optional && oa.Default == nil && na.Optional {
		c.finding(ReadNew, sub, "optional", true, a.Pos,
			fmt.Sprintf("attribute %s of %s becomes optional", na.Name, ne.Name),
			"old code still running (a rolling deploy, a rollback): it requires "+na.Name+", which new code's items may lack",
			"deploy everywhere before any code writes an item without it")
	}
	if ptr(oa.Default) != ptr(na.Default) && oa.Default != nil {
		c.finding(ReadOld, sub, "default", false, a.Pos,
			fmt.Sprintf("the default of attribute %s of %s changes from %s to %s", na.Name, ne.Name, quoted(oa.Default), quoted(na.Default)),
			"reads of the items stored without it: they read the new default", "write the old default into those items (a backfill) if they should keep it")
	}
	if oa.Type != "enum" || na.Type != "enum" {
		goto bounds // a type change is the form's finding
	}
	for _, v := range oa.Values {
		if !slices.Contains(na.Values, v) {
			c.finding(ReadOld, sub+"="+v, "enum-removed", true, a.Pos,
				fmt.Sprintf("value %q of enum %s of %s is removed", v, na.Name, ne.Name),
				"new code reading the items old code wrote with it: they fail to decode",
				"rewrite the items holding it (a backfill) before new code reads them")
		}
	}
	for _, v := range na.Values {
		if !slices.Contains(oa.Values, v) {
			c.finding(ReadNew, sub+"="+v, "enum-added", true, a.Pos,
				fmt.Sprintf("value %q is added to enum %s of %s", v, na.Name, ne.Name),
				"old code still running (a rolling deploy, a rollback): it can't decode an item holding the new value",
				"deploy everywhere before any code writes the value (deploy readers first)")
		}
	}
bounds:
	var tighter []string
	if na.MaxLength > 0 && (oa.MaxLength == 0 || na.MaxLength < oa.MaxLength) {
		tighter = append(tighter, fmt.Sprintf("maxLength %d", na.MaxLength))
	}
	if na.MaxItems > 0 && (oa.MaxItems == 0 || na.MaxItems < oa.MaxItems) {
		tighter = append(tighter, fmt.Sprintf("maxItems %d", na.MaxItems))
	}
	if na.Min != "" && na.Min != oa.Min {
		tighter = append(tighter, "min "+na.Min)
	}
	if na.Max != "" && na.Max != oa.Max {
		tighter = append(tighter, "max "+na.Max)
	}
	if len(tighter) > 0 {
		c.finding(ReadOld, sub, "bounds", false, a.Pos,
			fmt.Sprintf("attribute %s of %s takes new bounds (%s)", na.Name, ne.Name, strings.Join(tighter, ", ")),
			"writes of an item read with a value outside them: the write refuses it",
			"rewrite the stored values outside the bounds (a backfill) if they must be written back unchanged")
	}
	for _, k := range oa.GoConsts {
		if !slices.Contains(na.GoConsts, k) && oa.Type == "enum" && na.Type == "enum" {
			c.finding(API, sub+"."+k, "constant", true, a.Pos,
				fmt.Sprintf("constant %s of the package is gone", k),
				"callers of the generated package that use it", "change the callers with the spec")
		}
	}
	if oa.GoField != na.GoField || oa.GoType != na.GoType {
		c.finding(API, sub, "field", true, a.Pos,
			fmt.Sprintf("field %s %s of %s becomes %s %s", oa.GoField, oa.GoType, ne.GoType, na.GoField, na.GoType),
			"callers of the generated package that use the field", "change the callers with the spec")
	}
}

func ptr(s *string) string {
	if s == nil {
		return "\x00none"
	}
	return *s
}

func quoted(s *string) string {
	if s == nil {
		return "none"
	}
	return fmt.Sprintf("%q", *s)
}

// ownerOf splits the Of of a derived entity into its owner's name and
// the rest around it: "claim of User.email" is User, with "claim of %s.email".
func ownerOf(of string) (owner, format string) {
	switch {
	case strings.HasPrefix(of, "claim of "), strings.HasPrefix(of, "counter of "):
		head, tail, _ := strings.Cut(of, " of ")
		owner, rest, _ := strings.Cut(tail, ".")
		return owner, head + " of %s." + rest
	default: // copy N of X, items per element N of X
		i := strings.LastIndex(of, " of ")
		if i < 0 {
			return "", of
		}
		return of[i+4:], of[:i] + " of %s"
	}
}

// derivedFor returns the entity derived now as old entity oe (a claim, a
// counter, a copy, element items) was: of its owner, renamed or not.
func (c *checker) derivedFor(oe lock.Entity) *model.Entity {
	owner, format := ownerOf(oe.Of)
	e := c.entityFor(owner)
	if e == nil {
		return nil
	}
	want := fmt.Sprintf(format, e.Name)
	for _, ne := range c.new.Entities {
		if ne.Of == want {
			return c.m.Entities[slices.IndexFunc(c.m.Entities, func(x *model.Entity) bool { return x.Name == ne.Name })]
		}
	}
	return nil
}

// derived compares what dyngen writes with an entity's items: claims,
// versions, copies, counters, element items.
func (c *checker) derived(oe, ne lock.Entity, e *model.Entity) {
	if oe.Of != "" {
		return
	}
	for _, u := range ne.Unique {
		if slices.ContainsFunc(oe.Unique, func(o lock.Unique) bool { return slices.Equal(o.Attributes, u.Attributes) && o.Lower == u.Lower }) {
			continue
		}
		if slices.ContainsFunc(oe.Unique, func(o lock.Unique) bool { return slices.Equal(o.Attributes, u.Attributes) }) {
			c.finding(Keys, ne.Name+"."+strings.Join(u.Attributes, "+"), "normalize", true, e.Pos,
				fmt.Sprintf("the claims of %s of %s change form (normalize: lower, or not): the claims old code wrote hold the other", strings.Join(u.Attributes, "+"), ne.Name),
				"the uniqueness: a value's claim of the old form is not found (a taken value is not refused), and stays, taken, when its item changes",
				"write every item's claim of the new form and delete the old one (a migration; no backfill of dyngen's does it) before new code writes")
			continue
		}
		f := c.finding(Keys, ne.Name+"."+strings.Join(u.Attributes, "+"), "unique-added", true, e.Pos,
			fmt.Sprintf("%s of %s becomes unique: the items old code wrote have no claims", strings.Join(u.Attributes, "+"), ne.Name),
			"writes of those items (their claims are missing, so a taken value is not refused) and the uniqueness itself",
			"write a claim for every stored item (a backfill, which reports two items holding one value) before new code writes")
		if mu := uniqueOf(e, u.Attributes); mu != nil {
			f.fills(model.UniqueClaims, e, nil).Backfill.Unique = mu
		}
	}
	if ne.Version != "" && oe.Version == "" {
		c.finding(Keys, ne.Name+"."+ne.Version, "version-added", true, e.Pos,
			fmt.Sprintf("%s gains a version (%s): the items old code wrote have none", ne.Name, ne.Version),
			"writes of those items: each expects the version it read",
			"write an initial version into every item (a backfill) before new code writes them").fills(model.InitialVersion, e, nil)
	}
	for _, x := range c.m.Entities {
		owner := ""
		switch {
		case x.CopyOf != nil && x.CopyOf.Owner == e:
			owner = "copy " + x.CopyOf.Name
		case x.EachOf != nil && x.EachOf.Owner == e:
			owner = "items per element " + x.EachOf.Name
		case x.CountOf != nil && x.CountOf.Owner == e:
			owner = "count " + x.CountOf.Name
		default:
			continue
		}
		if c.matched[x] {
			continue
		}
		c.finding(Keys, ne.Name+"."+x.Name, "derived-added", true, e.Pos,
			fmt.Sprintf("%s gains %s: the items old code wrote have none", ne.Name, owner),
			"reads of it (a copy, an element item, a counter) for the items written before",
			"write it for every stored item (a backfill) before any pattern reads it")
	}
}

// uniqueOf is the unique value of e over the attributes named attrs, or
// nil.
func uniqueOf(e *model.Entity, attrs []string) *model.Unique {
	for _, u := range e.Unique {
		var names []string
		for _, a := range u.Attrs {
			names = append(names, a.Name)
		}
		if slices.Equal(names, attrs) {
			return u
		}
	}
	return nil
}

// --- patterns -------------------------------------------------------------

func (c *checker) patternFor(name string) *model.Pattern {
	if c.patternMatch == nil {
		held := map[string]bool{}
		for _, p := range c.old.Patterns {
			held[p.Name] = true
		}
		c.patternMatch = newMatcher(c.m.Patterns, func(p *model.Pattern) (string, model.Renamed) { return p.Name, p.RenamedFrom }, func(n string) bool { return held[n] })
	}
	return c.patternMatch.find(name)
}

func (c *checker) patterns() {
	for _, op := range c.old.Patterns {
		p := c.patternFor(op.Name)
		if p == nil {
			c.finding(API, op.Name, "removed", true, c.m.PatternsPos,
				fmt.Sprintf("pattern %s is removed: method %s of the Store is gone", op.Name, op.Method),
				"callers of the generated package that call it", "change the callers with the spec (renamedFrom: says a pattern is renamed)")
			continue
		}
		np := c.new.Patterns[c.newPatterns()[p.Name]]
		if np.Method != op.Method {
			c.finding(API, np.Name, "renamed", true, p.Pos,
				fmt.Sprintf("method %s of the Store is renamed %s", op.Method, np.Method),
				"callers of the generated package that call it", "change the callers with the spec")
		}
		for _, om := range op.Methods {
			i := slices.IndexFunc(np.Methods, func(m lock.Method) bool {
				return m.Name == om.Name || np.Method != op.Method && m.Name == strings.Replace(om.Name, op.Method, np.Method, 1)
			})
			switch {
			case i < 0 && om.Name != op.Method:
				c.finding(API, om.Name, "method-removed", true, p.Pos,
					fmt.Sprintf("method %s of the Store is gone", om.Name),
					"callers of the generated package that call it", "change the callers with the spec")
			case i >= 0 && np.Methods[i].Results != om.Results:
				c.finding(API, np.Methods[i].Name, "results", true, p.Pos,
					fmt.Sprintf("method %s of the Store returns (%s), no longer (%s)", np.Methods[i].Name, np.Methods[i].Results, om.Results),
					"callers of the generated package that call it", "change the callers with the spec")
			}
		}
		if np.Struct != op.Struct || !slices.Equal(np.Inputs, op.Inputs) {
			c.finding(API, np.Name, "inputs", true, p.Pos,
				fmt.Sprintf("the inputs of %s change from %s to %s", np.Method, inputsText(op), inputsText(np)),
				"callers of the generated package that call it", "change the callers with the spec")
		}
	}
	for _, p := range c.m.Patterns {
		if p.RenamedFrom.Name != "" && !slices.ContainsFunc(c.old.Patterns, func(op lock.Pattern) bool { return op.Name == p.RenamedFrom.Name || op.Name == p.Name }) {
			c.finding(API, p.Name, "renamed-from-unknown", true, p.RenamedFrom.Pos,
				fmt.Sprintf("pattern %s is renamed from %s, which the lock does not hold", p.Name, p.RenamedFrom.Name),
				"the check: it can't tell what the rename keeps", "name in renamedFrom a pattern of the lock, or remove renamedFrom")
		}
	}
}

func inputsText(p lock.Pattern) string {
	var parts []string
	for _, in := range p.Inputs {
		parts = append(parts, in.Name+" "+in.GoType)
	}
	s := "(" + strings.Join(parts, ", ") + ")"
	if p.Struct != "" {
		s = p.Struct + s
	}
	return s
}

// Verdict is how a finding stands: breaking (fails the check), accepted
// (breaking, accepted on purpose), or change (does not break).
func (f *Finding) Verdict() string {
	switch {
	case f.Breaking && f.Accepted != "":
		return "accepted"
	case f.Breaking && f.Backfilled != "":
		return "backfill"
	case f.Breaking:
		return "breaking"
	}
	return "change"
}

// Text is the finding as `dyngen compat` prints it, a line for people:
// spec.yaml:3:5: breaking read-old: what; breaks who; order [id].
func (f *Finding) Text() string {
	s := fmt.Sprintf("%s: %s %s: %s; breaks %s; %s [%s]", f.Pos, f.Verdict(), f.Class, f.What, f.Breaks, f.Order, f.ID)
	if f.Accepted != "" {
		s += " (accepted: " + f.Accepted + ")"
	}
	if f.Backfilled != "" {
		s += " (backfill " + f.BackfillID + ", " + f.Backfilled + " in the lock)"
	}
	return s
}

package model

import (
	"cmp"
	"fmt"
	"go/token"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dyngen/dyngen/internal/diag"
	"github.com/dyngen/dyngen/internal/suggest"
	"github.com/dyngen/dyngen/spec"
)

// DynamoDB's limits on secondary indexes per table.
const (
	MaxGSIs = 20
	MaxLSIs = 5
	// MaxProjected is the most non-key attributes the INCLUDE projections
	// of a table's secondary indexes may list together; an attribute in
	// two indexes counts twice.
	MaxProjected = 100
)

// DefaultEntityAttr is the stored name of the entity attribute when a
// table does not set one.
const DefaultEntityAttr = "_type"

var (
	// DynamoDB's names of tables and indexes (IsDynamoName).
	dynamoName = regexp.MustCompile(`^[a-zA-Z0-9_.-]{3,255}$`)
	// Entity and pattern names become Go identifiers; attribute names
	// also stand in key templates and expressions.
	entityName = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]*$`)
	attrName   = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
)

// IsDynamoName reports whether s is a name DynamoDB takes for a table or
// an index: 3 to 255 of a-z A-Z 0-9 _ . - (the model refuses any other).
func IsDynamoName(s string) bool { return dynamoName.MatchString(s) }

// Resolve turns a parsed spec into a model. It reports every problem it
// finds; the model is complete only when diags holds no error.
func Resolve(f *spec.File, diags *diag.List) *Model {
	r := &resolver{f: f, diags: diags, m: &Model{File: f.Name, Pos: f.Pos, broken: map[any]bool{}}, listed: map[*Index][]spec.Str{}}
	r.part = fileLevel{}
	r.file()
	r.part = nil
	r.tables()
	r.objects()
	r.entities()
	r.patterns()
	r.consumers()
	r.uniqueWrites()
	r.countWrites()
	r.includes()
	r.projections()
	r.projectionLimit()
	return r.m
}

// fileLevel is the part of an error about the spec as a whole (its
// package name), which breaks no table, entity or pattern.
type fileLevel struct{}

// includes refuses an INCLUDE projection that lists an attribute no entity
// of the table stores (a misspelling, or a spec name instead of the stored
// attr: name).
func (r *resolver) includes() {
	defer func() { r.part = nil }()
	for _, t := range r.m.Tables {
		r.part = t
		var stored []string
		for _, e := range t.Entities {
			for _, a := range e.Attributes {
				if !slices.Contains(stored, a.Stored) {
					stored = append(stored, a.Stored)
				}
			}
		}
		for _, ix := range t.Indexes {
			for _, inc := range r.listed[ix] {
				if !slices.Contains(stored, inc.Value) {
					r.errorf(inc.Pos, "projection of index %s lists %s, which no entity of table %s stores%s", ix.Name, inc.Value, t.Name, nearest(inc.Value, stored))
				}
			}
		}
	}
}

// projections completes INCLUDE projections with what decoding an item
// needs: the entity attribute and the stored attributes of the key
// templates of the entities in the index, and the ttl attribute of those
// that store it, which tells an expired item.
func (r *resolver) projections() {
	for _, t := range r.m.Tables {
		for _, ix := range t.Indexes {
			if ix.Projection != ProjectInclude {
				continue
			}
			add := func(name string) {
				if !slices.Contains(ix.Include, name) && !t.IsKeyAttr(name) && !ix.IsKeyAttr(name) {
					ix.Include = append(ix.Include, name)
				}
			}
			add(t.EntityAttr)
			for _, e := range t.Entities {
				k := e.Key(ix)
				if k == nil || len(e.Keys) == 0 {
					continue
				}
				for _, a := range k.Attrs() {
					add(a.Stored)
				}
				for _, a := range e.PrimaryKey().Attrs() {
					add(a.Stored)
				}
				if a := e.TTLAttr(); a != nil {
					add(a.Stored)
				}
			}
		}
	}
}

// projectionLimit refuses the index whose INCLUDE projection, completed
// by projections, takes the table's indexes past DynamoDB's limit on
// projected non-key attributes.
func (r *resolver) projectionLimit() {
	defer func() { r.part = nil }()
	for _, t := range r.m.Tables {
		r.part = t
		total := 0
		for _, ix := range t.Indexes {
			if ix.Projection != ProjectInclude {
				continue
			}
			total += len(ix.Include)
			if total <= MaxProjected {
				continue
			}
			listed := len(r.listed[ix])
			added := ix.Include[min(listed, len(ix.Include)):]
			what := fmt.Sprintf("the %d it lists", listed)
			if len(added) > 0 {
				what += fmt.Sprintf(" and %d dyngen adds to decode items (%s)", len(added), strings.Join(added, ", "))
			}
			r.errorf(ix.IncludePos, "projection of index %s takes table %s to %d projected non-key attributes over its indexes; DynamoDB allows at most %d (an attribute in two indexes counts twice). This index projects %d: %s. List fewer attributes, or give an index projection: all (the default) or keys, which count nothing toward the limit", ix.Name, t.Name, total, MaxProjected, len(ix.Include), what)
			break
		}
	}
}

type resolver struct {
	f     *spec.File
	diags *diag.List
	m     *Model
	// listed holds the attributes each INCLUDE projection lists, with
	// their positions.
	listed map[*Index][]spec.Str
	// part is the table, entity or pattern being resolved: an error
	// breaks it (see Model.Prune).
	part any
	// objectsByName holds the object types by their spec names.
	objectsByName map[string]*ObjectType
	// objectsCyclic is set when an object type holds itself: no depth
	// is then measured.
	objectsCyclic bool
}

func (r *resolver) errorf(pos Pos, format string, args ...any) {
	r.diags.Errorf(pos, format, args...)
	switch r.part.(type) {
	case nil:
		r.m.loose = true
	case fileLevel:
	default:
		r.m.broken[r.part] = true
	}
}

// acceptID is the form of a finding's id of the compatibility check:
// its class, then what it is of and what changed.
var acceptID = regexp.MustCompile(`^(read-old|read-new|keys|infrastructure|api)/[^\s]+$`)

// renamed is the model's record of a renamedFrom.
func renamed(s spec.Str) Renamed {
	if !s.Set {
		return Renamed{}
	}
	return Renamed{Name: s.Value, Pos: s.Pos}
}

// accepts resolves the findings the spec accepts (accept:).
func (r *resolver) accepts() {
	seen := map[string]bool{}
	for _, a := range r.f.Accept {
		switch {
		case !acceptID.MatchString(a.ID.Value):
			r.errorf(a.ID.Pos, "accept %q is not the id of a finding of dyngen compat, which is its class (read-old, read-new, keys, infrastructure or api), then what it is of and what changed, as dyngen compat prints it: read-old/User.nick/required", a.ID.Value)
		case strings.TrimSpace(a.Reason.Value) == "":
			r.errorf(a.ID.Pos, "accept %s gives no reason; say why the finding is accepted", a.ID.Value)
		case seen[a.ID.Value]:
			// The YAML parser refuses duplicate keys already.
		default:
			seen[a.ID.Value] = true
			r.m.Accept = append(r.m.Accept, &Accept{ID: a.ID.Value, Reason: a.Reason.Value, Pos: a.ID.Pos})
		}
	}
}

func (r *resolver) file() {
	r.accepts()
	r.m.TablesPos, r.m.EntitiesPos, r.m.PatternsPos = r.f.TablesPos, r.f.EntitiesPos, r.f.PatternsPos
	r.m.PackagePos = cmp.Or(r.f.Package.Pos, r.f.Pos)
	r.m.Doc = r.f.Doc.Value
	pkg := r.f.Package
	r.m.Package = pkg.Value
	if pkg.Set {
		switch {
		case !IsIdent(pkg.Value):
			r.errorf(pkg.Pos, "package %q is not a Go identifier; use a short lower-case name such as %q", pkg.Value, suggestPackage(pkg.Value))
		case pkg.Value == "_" || pkg.Value == "main":
			r.errorf(pkg.Pos, "package %q can't hold a generated store; use a library package name", pkg.Value)
		case pkg.Value != strings.ToLower(pkg.Value):
			r.diags.Warnf(pkg.Pos, "package %q is not lower case, as Go package names are by convention", pkg.Value)
		}
	}
	if len(r.f.Tables) == 0 && r.f.Tables != nil {
		r.errorf(r.f.Pos, "the spec has no table")
	}
}

func suggestPackage(s string) string {
	if token.IsKeyword(s) {
		return s + "s"
	}
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r < utf8.RuneSelf && (unicode.IsLetter(r) || (unicode.IsDigit(r) && b.Len() > 0)) {
			b.WriteRune(r)
		}
	}
	if b.Len() == 0 {
		return "store"
	}
	return b.String()
}

// nearest returns "; did you mean X?" when a known name is close to name,
// or the known names when they are few.
func nearest(name string, known []string) string {
	if hint := suggest.DidYouMean(name, known); hint != "" {
		return hint
	}
	if len(known) > 0 && len(known) <= 12 {
		return "; known: " + strings.Join(known, ", ")
	}
	return ""
}

// ---- tables ----

func (r *resolver) keyAttr(ka *spec.KeyAttr, what string) *KeyAttr {
	if ka == nil || !ka.Name.Set {
		return nil
	}
	out := &KeyAttr{Name: ka.Name.Value, Type: S, Pos: ka.Name.Pos}
	if ka.Name.Value == "" {
		r.errorf(ka.Name.Pos, "%s has an empty name", what)
	}
	if ka.Type.Set {
		switch t := ScalarType(ka.Type.Value); t {
		case S, N, B:
			out.Type = t
		default:
			r.errorf(ka.Type.Pos, "%s type %q is not a DynamoDB key type; use S, N or B", what, ka.Type.Value)
		}
	}
	return out
}

// keyAttrs resolves an index's partition or sort key: one attribute, or
// the list of a multi-attribute key (at list).
func (r *resolver) keyAttrs(kas []*spec.KeyAttr, list *spec.Pos, what string) []*KeyAttr {
	var out []*KeyAttr
	for _, ka := range kas {
		if k := r.keyAttr(ka, what); k != nil {
			out = append(out, k)
		}
	}
	if list != nil && len(kas) > MaxKeyParts {
		r.errorf(kas[MaxKeyParts].Pos, "%s lists %d attributes; a multi-attribute key has at most %d: remove %d", what, len(kas), MaxKeyParts, len(kas)-MaxKeyParts)
	}
	return out
}

// keyParts refuses a key attribute an index names twice: in its partition
// key and its sort key, or twice in a multi-attribute one.
func (r *resolver) keyParts(ix *Index, what string) {
	seen := map[string]bool{}
	for _, k := range ix.KeyAttrs() {
		if seen[k.Name] {
			if ix.Multi() {
				r.errorf(k.Pos, "%s names key attribute %s twice; each attribute of a multi-attribute key is named once", what, k.Name)
			} else {
				r.errorf(k.Pos, "%s uses %s as both partition and sort key", what, k.Name)
			}
		}
		seen[k.Name] = true
	}
}

func (r *resolver) tables() {
	goNames := map[string]*Table{}
	defer func() { r.part = nil }()
	for _, st := range r.f.Tables {
		t := &Table{Name: st.Name.Value, Doc: st.Doc.Value, Pos: st.Name.Pos}
		r.part = t
		if !dynamoName.MatchString(t.Name) {
			r.errorf(st.Name.Pos, "table name %q is not a DynamoDB table name: 3 to 255 of a-z A-Z 0-9 _ . -", t.Name)
		}
		t.GoName = PrefixedGoName("T", t.Name)
		if t.GoName == "" {
			r.errorf(st.Name.Pos, "table name %q holds no letter or digit to derive a Go name from; rename it", t.Name)
		} else if other := goNames[t.GoName]; other != nil {
			r.errorf(st.Name.Pos, "tables %s and %s have the same Go name %s; rename one", other.Name, t.Name, t.GoName)
		} else {
			goNames[t.GoName] = t
		}
		t.PK = r.keyAttr(st.PartitionKey, "partitionKey of table "+t.Name)
		t.SK = r.keyAttr(st.SortKey, "sortKey of table "+t.Name)
		if st.PartitionKey == nil {
			r.errorf(st.Pos, "table %s has no partitionKey", t.Name)
		}
		if t.PK == nil {
			t.PK = &KeyAttr{Name: "?", Type: S, Pos: st.Pos}
		}
		if t.SK != nil && t.SK.Name == t.PK.Name {
			r.errorf(t.SK.Pos, "table %s uses %s as both partition and sort key", t.Name, t.PK.Name)
		}
		t.EntityAttr = DefaultEntityAttr
		if st.EntityAttribute.Set {
			t.EntityAttr = st.EntityAttribute.Value
			if t.EntityAttr == "" {
				r.errorf(st.EntityAttribute.Pos, "entityAttribute of table %s is empty", t.Name)
			}
		}
		if t.IsKeyAttr(t.EntityAttr) {
			r.errorf(st.EntityAttribute.Pos, "entityAttribute %s of table %s is one of its key attributes", t.EntityAttr, t.Name)
		}
		if st.TTL.Set {
			t.TTL, t.TTLPos = st.TTL.Value, st.TTL.Pos
			if t.IsKeyAttr(t.TTL) || t.TTL == t.EntityAttr {
				r.errorf(st.TTL.Pos, "ttl %s of table %s is already a key attribute or the entity attribute", t.TTL, t.Name)
			}
		}
		if st.Stream.Set {
			t.Stream, t.StreamPos = st.Stream.Value, st.Stream.Pos
			if !slices.Contains(StreamViewTypes, t.Stream) {
				r.errorf(st.Stream.Pos, "stream of table %s is %q, which is no stream view type of DynamoDB; use one of %s", t.Name, t.Stream, strings.Join(StreamViewTypes, ", "))
			}
		}
		primary := &Index{Name: PrimaryName, GoName: "Primary", Pos: t.Pos, Table: t, Kind: Primary, PK: t.PK, SK: t.SK, PKs: []*KeyAttr{t.PK}}
		if t.SK != nil {
			primary.SKs = []*KeyAttr{t.SK}
		}
		t.Indexes = []*Index{primary}
		r.indexes(t, st)
		r.m.Tables = append(r.m.Tables, t)
	}
}

func (r *resolver) indexes(t *Table, st *spec.Table) {
	var gsis, lsis, totalGSIs, totalLSIs int
	for _, si := range st.Indexes {
		if si.Local.Value {
			totalLSIs++
		} else {
			totalGSIs++
		}
	}
	for _, si := range st.Indexes {
		ix := &Index{Name: si.Name.Value, Doc: si.Doc.Value, Pos: si.Name.Pos, Table: t, Kind: Global, RenamedFrom: renamed(si.RenamedFrom)}
		what := "index " + ix.Name
		switch {
		case ix.Name == PrimaryName:
			r.errorf(si.Name.Pos, "index name %q is reserved for the table's own key", PrimaryName)
		case !dynamoName.MatchString(ix.Name):
			r.errorf(si.Name.Pos, "index name %q is not a DynamoDB index name: 3 to 255 of a-z A-Z 0-9 _ . -", ix.Name)
		}
		ix.GoName = PrefixedGoName("I", ix.Name)
		if ix.GoName == "" {
			r.errorf(si.Name.Pos, "index name %q holds no letter or digit to derive a Go name from; rename it", ix.Name)
		}
		for _, other := range t.Indexes[1:] {
			if other.GoName == ix.GoName && ix.GoName != "" {
				r.errorf(si.Name.Pos, "indexes %s and %s of table %s have the same Go name %s; rename one", other.Name, ix.Name, t.Name, ix.GoName)
			}
		}
		ix.PKs = r.keyAttrs(si.PartitionKey, si.PartitionList, "partitionKey of "+what)
		ix.SKs = r.keyAttrs(si.SortKey, si.SortList, "sortKey of "+what)
		if len(ix.PKs) > 0 {
			ix.PK = ix.PKs[0]
		}
		if len(ix.SKs) > 0 {
			ix.SK = ix.SKs[0]
		}
		if si.Local.Value {
			ix.Kind = Local
			lsis++
			if lsis == MaxLSIs+1 {
				r.errorf(si.Name.Pos, "local index %s is past DynamoDB's limit of %d local indexes per table: table %s has %d; remove %d of them", ix.Name, MaxLSIs, t.Name, totalLSIs, totalLSIs-MaxLSIs)
			}
			if len(si.PartitionKey) > 0 {
				r.errorf(si.PartitionKey[0].Pos, "local index %s shares the table's partition key %s; remove its partitionKey", ix.Name, t.PK.Name)
			}
			if len(ix.SKs) > 1 {
				r.errorf(*si.SortList, "local index %s has a multi-attribute sort key; DynamoDB allows multi-attribute keys on global indexes only: make it global, or give it one sort key attribute", ix.Name)
			}
			if t.SK == nil {
				r.errorf(si.Name.Pos, "local index %s needs a table with a sort key; table %s has none", ix.Name, t.Name)
			}
			if ix.SK == nil {
				r.errorf(si.Pos, "local index %s has no sortKey; a local index differs from the table only by its sort key", ix.Name)
			}
			ix.PK, ix.PKs = t.PK, []*KeyAttr{t.PK}
			if ix.SK != nil {
				ix.SKs = ix.SKs[:1]
			}
		} else {
			gsis++
			if gsis == MaxGSIs+1 {
				r.errorf(si.Name.Pos, "global index %s is past DynamoDB's limit of %d global indexes per table: table %s has %d; remove %d of them, or let several entities share one index's key attributes", ix.Name, MaxGSIs, t.Name, totalGSIs, totalGSIs-MaxGSIs)
			}
			if ix.PK == nil {
				r.errorf(si.Pos, "index %s has no partitionKey (for a local index, set local: true)", ix.Name)
				ix.PK = &KeyAttr{Name: "?", Type: S, Pos: si.Pos}
				ix.PKs = []*KeyAttr{ix.PK}
			}
		}
		r.keyParts(ix, what)
		if ix.Kind == Local && ix.SK != nil && t.SK != nil && ix.SK.Name == t.SK.Name {
			r.errorf(ix.SK.Pos, "local index %s has the table's own sort key %s; it would repeat the table", ix.Name, t.SK.Name)
		}
		// A key attribute has one type across the table and its indexes:
		// the first place that declares it decides.
		for _, k := range ix.KeyAttrs() {
			if first := t.KeyAttrNamed(k.Name); first != nil && first.Type != k.Type && k.Pos != first.Pos {
				r.errorf(k.Pos, "key attribute %s is %s here but %s where it is first declared (line %d)", k.Name, k.Type, first.Type, first.Pos.Line)
			}
		}
		for _, k := range ix.KeyAttrs() {
			switch {
			case k.Name != t.EntityAttr:
			case !ix.Multi():
				r.errorf(k.Pos, "%s uses the entity attribute %s as a key; only a multi-attribute key may hold it, beside other attributes", what, t.EntityAttr)
			case k.Type != S:
				r.errorf(k.Pos, "%s uses the entity attribute %s as a key of type %s; it holds the entity's name, a string: make it S", what, t.EntityAttr, k.Type)
			}
		}
		ix.Inverted = !ix.Multi() && t.IsKeyAttr(ix.PK.Name) && (ix.SK == nil || t.IsKeyAttr(ix.SK.Name)) && ix.Kind == Global
		if ix.Inverted && ix.PK.Name == t.PK.Name && (ix.SK == nil || (t.SK != nil && ix.SK.Name == t.SK.Name)) {
			r.errorf(ix.Pos, "index %s repeats the table's own key", ix.Name)
		}
		r.projection(ix, si.Projection)
		if ix.Name == PrimaryName {
			continue // refused above; entities' keys primary mean the table
		}
		t.Indexes = append(t.Indexes, ix)
	}
}

func indexLabel(ix *Index) string {
	if ix.IsPrimary() {
		return "table " + ix.Table.Name
	}
	return "index " + ix.Name
}

func (r *resolver) projection(ix *Index, sp *spec.Projection) {
	if sp == nil {
		return
	}
	switch sp.Kind {
	case "keys":
		ix.Projection = ProjectKeys
	case "include":
		ix.Projection = ProjectInclude
		ix.IncludePos = sp.Pos
		for _, a := range sp.Attrs {
			if slices.Contains(ix.Include, a.Value) {
				r.errorf(a.Pos, "projection of index %s lists %s twice", ix.Name, a.Value)
				continue
			}
			if ix.Table.IsKeyAttr(a.Value) || ix.IsKeyAttr(a.Value) {
				r.errorf(a.Pos, "projection of index %s lists key attribute %s, which every index carries", ix.Name, a.Value)
				continue
			}
			ix.Include = append(ix.Include, a.Value)
			r.listed[ix] = append(r.listed[ix], a)
		}
	}
}

func (r *resolver) table(name spec.Str, pos Pos, what string) *Table {
	if !name.Set {
		if len(r.m.Tables) == 1 {
			return r.m.Tables[0]
		}
		if len(r.m.Tables) > 1 {
			r.errorf(pos, "%s names no table, and the spec has %d; add table: %s", what, len(r.m.Tables), tableNames(r.m.Tables))
		}
		return nil
	}
	for _, t := range r.m.Tables {
		if t.Name == name.Value {
			return t
		}
	}
	var known []string
	for _, t := range r.m.Tables {
		known = append(known, t.Name)
	}
	r.errorf(name.Pos, "%s names table %q, which the spec does not define%s", what, name.Value, nearest(name.Value, known))
	return nil
}

func tableNames(ts []*Table) string {
	var names []string
	for _, t := range ts {
		names = append(names, t.Name)
	}
	return strings.Join(names, " or ")
}

// ---- entities ----

func (r *resolver) entities() {
	goNames := map[string]*Entity{}
	typeValues := map[*Table]map[string]*Entity{}
	defer func() { r.part = nil }()
	// The claim entities of unique values follow the spec's own, each
	// resolved as they are.
	queue := slices.Clone(r.f.Entities)
	claims := map[*spec.Entity]*Unique{}
	counters := map[*spec.Entity]*Count{}
	copies := map[*spec.Entity]*Copy{}
	eachs := map[*spec.Entity]*Each{}
	checkpoints := map[*spec.Entity]*Table{}
	receipts := map[*spec.Entity]*Table{}
	// The checkpoints of the migration output and the receipts of the
	// consumers that release expired items follow every other entity,
	// once their keys are known (see checkpoints, receipts).
	checkpointed := false
	for i := 0; i < len(queue) || !checkpointed; i++ {
		if i == len(queue) {
			checkpointed = true
			r.computeFuncs()
			queue = append(queue, r.checkpoints(checkpoints)...)
			queue = append(queue, r.receipts(receipts)...)
			if i == len(queue) {
				break
			}
		}
		se := queue[i]
		e := &Entity{Name: se.Name.Value, Doc: se.Doc.Value, Pos: se.Name.Pos, RenamedFrom: renamed(se.RenamedFrom)}
		r.part = e
		if u := claims[se]; u != nil {
			u.Claim, e.ClaimOf = e, u
			// An error of the claim is one of its owner.
			r.part = u.Owner
			r.m.broken[e] = r.m.broken[u.Owner]
		}
		if c := counters[se]; c != nil {
			c.Counter, e.CountOf = e, c
			r.part = c.Owner
			r.m.broken[e] = r.m.broken[c.Owner]
		}
		if t := checkpoints[se]; t != nil {
			e.CheckpointOf = t
		}
		if t := receipts[se]; t != nil {
			e.ReceiptOf = t
		}
		if c := copies[se]; c != nil {
			c.Entity, e.CopyOf = e, c
			// An error of the copy is one of its owner.
			r.part = c.Owner
		}
		if ea := eachs[se]; ea != nil {
			ea.Entity, e.EachOf = e, ea
			// An error of the element items is one of their owner.
			r.part = ea.Owner
		}
		if !entityName.MatchString(e.Name) {
			r.errorf(se.Name.Pos, "entity name %q must be a letter then letters, digits or underscores", e.Name)
		}
		e.GoName = GoName(e.Name)
		if !entityName.MatchString(e.Name) {
			e.GoName = "" // reported; no second error about the Go name
		}
		if se.Go.Set {
			e.GoName = se.Go.Value
			if !IsExported(e.GoName) {
				r.errorf(se.Go.Pos, "go name %q of entity %s is not an exported Go identifier", e.GoName, e.Name)
			}
		}
		switch {
		case e.GoName == "":
			if entityName.MatchString(e.Name) {
				r.errorf(se.Name.Pos, "entity name %q gives no Go name; start it with a letter", e.Name)
			}
		case goNames[e.GoName] != nil:
			r.errorf(se.Name.Pos, "entities %s and %s have the same Go name %s", goNames[e.GoName].label(), e.label(), e.GoName)
		default:
			goNames[e.GoName] = e
		}
		e.Table = r.table(se.Table, se.Name.Pos, "entity "+e.Name)
		e.TypeValue = e.Name
		if se.TypeValue.Set {
			e.TypeValue = se.TypeValue.Value
			if e.TypeValue == "" {
				r.errorf(se.TypeValue.Pos, "typeValue of entity %s is empty", e.Name)
			}
		}
		r.attributes(e, se)
		if e.Table != nil {
			if typeValues[e.Table] == nil {
				typeValues[e.Table] = map[string]*Entity{}
			}
			if other := typeValues[e.Table][e.TypeValue]; other != nil {
				pos := se.Name.Pos
				if se.TypeValue.Set {
					pos = se.TypeValue.Pos
				}
				r.errorf(pos, "entities %s and %s write the same %s value %q in table %s; set typeValue apart", other.label(), e.label(), e.Table.EntityAttr, e.TypeValue, e.Table.Name)
			}
			typeValues[e.Table][e.TypeValue] = e
			e.Table.Entities = append(e.Table.Entities, e)
			r.keys(e, se)
			r.managed(e, se)
			queue = append(queue, r.uniques(e, se, claims)...)
			queue = append(queue, r.counts(e, se, counters)...)
			queue = append(queue, r.copies(e, se, copies)...)
			queue = append(queue, r.each(e, se, eachs)...)
			r.computeChecks(e)
			if e.CopyOf != nil {
				r.copyKeys(e)
			}
			if e.EachOf != nil {
				r.eachKeys(e)
			}
		}
		if e.ClaimOf != nil && r.m.broken[e.ClaimOf.Owner] {
			r.m.broken[e] = true
		}
		if e.CountOf != nil && r.m.broken[e.CountOf.Owner] {
			r.m.broken[e] = true
		}
		if e.CopyOf != nil && r.m.broken[e.CopyOf.Owner] {
			r.m.broken[e] = true
		}
		if e.EachOf != nil && r.m.broken[e.EachOf.Owner] {
			r.m.broken[e] = true
		}
		r.m.Entities = append(r.m.Entities, e)
	}
}

// newAttr resolves what an entity's attribute and an object's field
// share: names stored and in Go, and the type with its options; in is
// the object type holding a field (nil for an attribute); noun
// ("attribute", "field") and owner (the entity's name, "object O") name
// it in errors, as the returned what does.
func (r *resolver) newAttr(sa *spec.Attribute, in *ObjectType, noun, owner string) (*Attribute, string) {
	a := &Attribute{Name: sa.Name.Value, Stored: sa.Name.Value, Doc: sa.Doc.Value, Pos: sa.Name.Pos, Optional: sa.Optional.Value, In: in, RenamedFrom: renamed(sa.RenamedFrom)}
	what := fmt.Sprintf("%s %s of %s", noun, a.Name, owner)
	if sa.Attr.Set {
		a.Stored = sa.Attr.Value
		if a.Stored == "" {
			r.errorf(sa.Attr.Pos, "attr of %s is empty", what)
		}
	}
	if !attrName.MatchString(a.Name) {
		r.errorf(sa.Name.Pos, "%s name %q of %s must be a letter or underscore then letters, digits or underscores (the stored name may differ: set attr:)", noun, a.Name, owner)
	}
	r.attrType(a, sa, what)
	if sa.Go.Set {
		a.GoName = sa.Go.Value
		if !IsExported(a.GoName) {
			r.errorf(sa.Go.Pos, "go name %q of %s is not an exported Go identifier", a.GoName, what)
		}
	} else if attrName.MatchString(a.Name) {
		a.GoName = GoName(a.Name)
		if a.GoName == "" {
			r.errorf(sa.Name.Pos, "%s gives no Go name; set go: to one", what)
		}
	}
	return a, what
}

func (r *resolver) attributes(e *Entity, se *spec.Entity) {
	stored := map[string]*Attribute{}
	goNames := map[string]*Attribute{}
	for _, sa := range se.Attributes {
		a, what := r.newAttr(sa, nil, "attribute", e.Name)
		if slices.Contains(EntityMethods, a.GoName) {
			r.errorf(attrGoPos(sa), "%s gives the Go field %s, which is also the name of a method dyngen generates on %s; set go: to another name", what, a.GoName, e.GoName)
		}
		if other := goNames[a.GoName]; other != nil && a.GoName != "" && a.Name != "" {
			pos := sa.Name.Pos
			if sa.Go.Set {
				pos = sa.Go.Pos
			}
			r.errorf(pos, "attributes %s and %s of %s have the same Go name %s; set go: on one", other.Name, a.Name, e.Name, a.GoName)
		} else {
			goNames[a.GoName] = a
		}
		if other := stored[a.Stored]; other != nil && a.Stored != "" {
			pos := sa.Name.Pos
			if sa.Attr.Set {
				pos = sa.Attr.Pos
			}
			r.errorf(pos, "attributes %s and %s of %s are both stored as %s", other.Name, a.Name, e.Name, a.Stored)
		} else {
			stored[a.Stored] = a
		}
		if e.Table != nil {
			t := e.Table
			if a.Stored == t.EntityAttr {
				r.errorf(attrNamePos(sa), "%s is stored as %s, the entity attribute of table %s; rename it with attr:", what, a.Stored, t.Name)
			}
			if t.TTL != "" && a.Stored == t.TTL {
				switch {
				case a.Type == "":
					// Its type is unknown, and said so.
				case a.Type != Time:
					r.errorf(attrNamePos(sa), "%s is stored as %s, the table's ttl attribute, which must be a time (epoch seconds); it is %s", what, a.Stored, a.Type)
				case sa.Format.Set && a.Format != Unix:
					r.errorf(sa.Format.Pos, "%s is the table's ttl attribute, stored as epoch seconds; remove format: %s", what, a.Format)
				default:
					a.TTL = true
					a.Format = Unix
				}
			}
		}
		r.attrDefault(a, sa, what)
		r.attrBackfill(a, sa, what)
		e.Attributes = append(e.Attributes, a)
	}
}

// computeChecks refuses backfill: compute where a backfill of the one
// attribute can't make the items right: a value of the primary key
// (each item's is fixed), the version (a backfill of its own), a unique
// value (whose claim a write takes with it), or an attribute of an
// entity whose copies or items per element hold its attributes too (the
// backfill writes the item alone).
func (r *resolver) computeChecks(e *Entity) {
	for _, a := range e.Attributes {
		if !a.Compute {
			continue
		}
		var why string
		switch {
		case len(e.Keys) > 0 && slices.ContainsFunc(e.PrimaryKey().Templates(), func(tm *Template) bool { return tm.Has(a) }):
			why = "it is in the primary key, which an item can't change"
		case a == e.Version:
			why = "it is the version, whose backfill is dyngen's own (an entity gaining a version gets one)"
		case slices.ContainsFunc(e.Unique, func(u *Unique) bool { return slices.Contains(u.Attrs, a) }):
			why = "it is a unique value, whose claim each write of it takes"
		case len(e.Copies) > 0:
			why = "the entity has copies, which hold its attributes too, and the backfill writes the item alone"
		case len(e.Each) > 0:
			why = "the entity has items per element, which the backfill would not write"
		}
		if why != "" {
			r.errorf(a.ComputePos, "attribute %s of %s can't be backfilled by a function of yours (backfill: %s): %s; remove backfill:", a.Name, e.Name, Computed, why)
			a.Compute = false
		}
	}
}

// attrBackfill resolves an attribute's backfill: compute, the only
// value; what it may not be on is checked with the entity's keys
// (computeChecks).
func (r *resolver) attrBackfill(a *Attribute, sa *spec.Attribute, what string) {
	if !sa.Backfill.Set {
		return
	}
	if sa.Backfill.Value != string(Computed) {
		r.errorf(sa.Backfill.Pos, "%s: backfill must be %s (the items stored without it get it from a function of yours), not %q", what, Computed, sa.Backfill.Value)
		return
	}
	a.Compute, a.ComputePos = true, sa.Backfill.Pos
}

func attrNamePos(sa *spec.Attribute) Pos {
	if sa.Attr.Set {
		return sa.Attr.Pos
	}
	return sa.Name.Pos
}

// attrDefault resolves an attribute's default: a constant of a required
// scalar attribute, checked against its type and constraints as a write
// would check the value.
func (r *resolver) attrDefault(a *Attribute, sa *spec.Attribute, what string) {
	k := sa.Default
	if k == nil || a.Type == "" {
		return
	}
	switch {
	case a.Optional:
		r.errorf(k.Pos, "%s is optional, so a read of an item that lacks it gives nil; a default is for a required attribute: remove optional: true or default:", what)
		return
	case !a.StoredForm().Go.Scalar():
		r.errorf(k.Pos, "%s is %s; default: takes a string, enum, int, float, bool or time attribute", what, a.Describe())
		return
	}
	if err := constFits(*k, a, OpEq); err != nil {
		r.errorf(k.Pos, "default of %s: %v", what, err)
		return
	}
	if reason := constValueError(*k, a); reason != "" {
		r.errorf(k.Pos, "default of %s: %s", what, reason)
		return
	}
	a.Default = &Const{Text: k.Value, Pos: k.Pos}
}

func (r *resolver) attrType(a *Attribute, sa *spec.Attribute, what string) {
	if !sa.Type.Set {
		return
	}
	t := Type(sa.Type.Value)
	if !slices.Contains(Types, t) {
		var known []string
		for _, k := range Types {
			known = append(known, string(k))
		}
		r.errorf(sa.Type.Pos, "%s has unknown type %q%s", what, sa.Type.Value, nearest(sa.Type.Value, known))
		return
	}
	a.Type = t
	onlyFor := func(set bool, pos Pos, key string, types ...Type) {
		if set && !slices.Contains(types, t) {
			names := make([]string, len(types))
			for i, x := range types {
				names[i] = string(x)
			}
			r.errorf(pos, "%s is %s; %s applies only to %s", what, t, key, strings.Join(names, " and "))
		}
	}
	onlyFor(sa.Min.Present, sa.Min.Pos, "min", Int, Float)
	onlyFor(sa.Max.Present, sa.Max.Pos, "max", Int, Float)
	onlyFor(sa.MaxLength.Set, sa.MaxLength.Pos, "maxLength", String, Path)
	onlyFor(sa.MaxItems.Set, sa.MaxItems.Pos, "maxItems", Strings, StringSet, IntSet)
	onlyFor(sa.Values != nil, sa.Pos, "values", Enum)
	onlyFor(sa.Format.Set, sa.Format.Pos, "format", Time)
	onlyFor(sa.Separator.Set, sa.Separator.Pos, "separator", Path)
	onlyFor(sa.Of.Set, sa.Of.Pos, "of", Object, Objects)
	r.objectOf(a, sa, what)
	a.Min = r.bound(sa.Min, t, what)
	a.Max = r.bound(sa.Max, t, what)
	if a.Min != nil && a.Max != nil && a.Min.Float > a.Max.Float {
		r.errorf(a.Max.Pos, "%s has max %s below min %s", what, a.Max.Text, a.Min.Text)
	}
	if sa.MaxLength.Set {
		if sa.MaxLength.Value < 1 || sa.MaxLength.Value > 400_000 {
			r.errorf(sa.MaxLength.Pos, "maxLength of %s must be between 1 and 400000 (DynamoDB's item size)", what)
		} else {
			a.MaxLength = int(sa.MaxLength.Value)
		}
	}
	if sa.MaxItems.Set {
		if sa.MaxItems.Value < 1 || sa.MaxItems.Value > 400_000 {
			r.errorf(sa.MaxItems.Pos, "maxItems of %s must be between 1 and 400000 (DynamoDB's item size)", what)
		} else {
			a.MaxItems = int(sa.MaxItems.Value)
		}
	}
	if t == Enum {
		if sa.Values == nil {
			r.errorf(sa.Type.Pos, "%s is an enum with no values; add values: [...]", what)
		}
		for _, v := range sa.Values {
			switch {
			case v.Value == "":
				r.errorf(v.Pos, "%s has an empty enum value", what)
			case slices.Contains(a.Values, v.Value):
				r.errorf(v.Pos, "%s lists enum value %q twice", what, v.Value)
			default:
				a.Values = append(a.Values, v.Value)
			}
		}
	}
	if t == Time {
		a.Format = RFC3339
		if sa.Format.Set {
			f := TimeFormat(sa.Format.Value)
			if !slices.Contains(TimeFormats, f) {
				var known []string
				for _, k := range TimeFormats {
					known = append(known, string(k))
				}
				r.errorf(sa.Format.Pos, "%s has unknown time format %q%s", what, sa.Format.Value, nearest(sa.Format.Value, known))
			} else {
				a.Format = f
			}
		}
	}
	if t == Path {
		a.Separator = '#'
		if sa.Separator.Set {
			rs := []rune(sa.Separator.Value)
			if len(rs) != 1 || unicode.IsLetter(rs[0]) || unicode.IsDigit(rs[0]) || rs[0] == '{' || rs[0] == '}' {
				r.errorf(sa.Separator.Pos, "separator of %s must be one character that is not a letter, digit or brace, such as \"#\" or \"/\"", what)
			} else {
				a.Separator = rs[0]
			}
		}
	}
}

func (r *resolver) bound(n spec.Number, t Type, what string) *Bound {
	if !n.Present || (t != Int && t != Float) {
		return nil
	}
	if t == Int && !n.IsInt {
		r.errorf(n.Pos, "%s is an int; its bound %s must be an integer", what, n.Text)
		return nil
	}
	if t == Float && !FloatStored(n.Value) {
		// An atomic add sends it in its condition.
		r.errorf(n.Pos, "%s: its bound %s is not a number DynamoDB stores (%s); bring it within, or leave it out", what, n.Text, FloatRange)
		return nil
	}
	return &Bound{Text: n.Text, Int: n.Int, Float: n.Value, Pos: n.Pos}
}

// ---- keys ----

// keySource tells where an entity's template for one key attribute comes
// from.
type keySource int

const (
	absent    keySource = iota
	given               // written in keys:
	natural             // the entity's own attribute is the key attribute
	tableAttr           // a table key attribute reused by a secondary index
)

func (r *resolver) keys(e *Entity, se *spec.Entity) {
	t := e.Table
	given := map[string]*spec.Keys{}
	var known []string
	for _, ix := range t.Indexes {
		known = append(known, ix.Name)
	}
	for _, k := range se.Keys {
		ix := t.Index(k.Index.Value)
		if ix == nil {
			r.errorf(k.Index.Pos, "keys of %s name index %q, which table %s does not have%s", e.Name, k.Index.Value, t.Name, nearest(k.Index.Value, known))
			continue
		}
		if ix.Multi() {
			for _, tm := range []spec.Str{k.PK, k.SK} {
				if tm.Set {
					r.errorf(tm.Pos, "index %s has a multi-attribute key, whose attributes are the items' own, so keys %s of %s take no template; remove it (the index named with no template)", ix.Name, ix.Name, e.Name)
				}
			}
			given[k.Index.Value] = k
			continue
		}
		// No template: the index's key attributes must be the entity's
		// own (natural), or the missing templates are reported below.
		given[k.Index.Value] = k
	}
	var unnamed []unnamedKey
	var multi []*Index
	for _, ix := range t.Indexes {
		if ix.Multi() {
			multi = append(multi, ix)
			continue
		}
		sk := given[ix.Name]
		var pkText, skText spec.Str
		pos := e.Pos
		if sk != nil {
			pkText, skText, pos = sk.PK, sk.SK, sk.Pos
		}
		pk, pkSrc := r.keyTemplate(e, ix, ix.PK, pkText, "pk")
		var skT *Template
		skSrc := absent
		if ix.SK != nil {
			skT, skSrc = r.keyTemplate(e, ix, ix.SK, skText, "sk")
		} else if skText.Set {
			r.errorf(skText.Pos, "%s has no sort key; remove sk from keys %s of %s", indexLabel(ix), ix.Name, e.Name)
		}
		if ix.IsPrimary() {
			if pkSrc == absent {
				r.errorf(pos, "entity %s has no template for partition key %s of table %s; add keys: {primary: {pk: ...}}", e.Name, ix.PK.Name, t.Name)
				continue
			}
			if ix.SK != nil && skSrc == absent {
				r.errorf(pos, "entity %s has no template for sort key %s of table %s; add sk to keys primary", e.Name, ix.SK.Name, t.Name)
				continue
			}
			if pk == nil || (ix.SK != nil && skT == nil) {
				continue // an error was reported
			}
			for _, tmpl := range []*Template{pk, skT} {
				if tmpl == nil {
					continue
				}
				for _, a := range tmpl.Attrs() {
					if a.Optional {
						r.errorf(tmpl.Pos, "the primary key of %s uses optional attribute %s; every item needs its primary key", e.Name, a.Name)
					}
					if a.Default != nil {
						r.errorf(a.Default.Pos, "attribute %s of %s is in its primary key, which every item holds, so a read never needs its default; remove default:", a.Name, e.Name)
						a.Default = nil
					}
				}
			}
			e.Keys = append(e.Keys, &EntityKey{Index: ix, PK: pk, SK: skT, Pos: pos})
			continue
		}
		if len(e.Keys) == 0 {
			continue // no primary key: the error is reported
		}
		missing := pkSrc == absent || (ix.SK != nil && skSrc == absent)
		if missing && sk == nil && (pk != nil || pkSrc == absent) && (ix.SK == nil || skT != nil || skSrc == absent) {
			// Not named: the item may still hold every key attribute of
			// ix, written for other indexes. Decided once all named keys
			// are known.
			unnamed = append(unnamed, unnamedKey{ix, [2]*Template{pk, skT}})
			continue
		}
		if missing {
			if sk != nil {
				what := "pk for key attribute " + ix.PK.Name + ", and " + e.Name + " stores no attribute under that name"
				switch {
				case pkSrc != absent:
					what = "sk for key attribute " + ix.SK.Name + ", and " + e.Name + " stores no attribute under that name"
				case ix.SK != nil && skSrc == absent:
					what = "pk nor sk for key attributes " + ix.PK.Name + " and " + ix.SK.Name + ", and " + e.Name + " stores no attribute under those names"
				}
				r.errorf(sk.Pos, "keys %s of %s give no %s; an item is in an index only with all its key attributes", ix.Name, e.Name, what)
			}
			continue
		}
		if pk == nil || (ix.SK != nil && skT == nil) {
			continue
		}
		e.Keys = append(e.Keys, &EntityKey{Index: ix, PK: pk, SK: skT, Pos: pos})
	}
	if len(e.Keys) > 0 {
		for _, ix := range multi {
			if k := r.multiKey(e, ix, given[ix.Name]); k != nil {
				e.Keys = append(e.Keys, k)
			}
		}
	}
	r.sharedKeyAttrs(e)
	for _, u := range unnamed {
		if k := derivedKey(e, u.ix, u.found); k != nil {
			e.Keys = append(e.Keys, k)
		}
	}
	if len(unnamed) > 0 || len(multi) > 0 {
		slices.SortStableFunc(e.Keys, func(a, b *EntityKey) int {
			return slices.Index(t.Indexes, a.Index) - slices.Index(t.Indexes, b.Index)
		})
	}
}

// multiKey returns e's key on ix, an index with a multi-attribute key, or
// nil when e's items are not in it. An item is in the index exactly when
// it holds every key attribute of it, whether or not e names the index
// (named): the entity attribute, which holds e's type value, or an
// attribute of e stored under the key attribute's name, in the key
// attribute's type. Its templates are one segment per key attribute, in
// the order of the key schema: a literal for the type value, the
// attribute for the others.
func (r *resolver) multiKey(e *Entity, ix *Index, named *spec.Keys) *EntityKey {
	t := e.Table
	pos := e.Pos
	if named != nil {
		pos = named.Pos
	}
	var segs []Segment
	var missing []string
	// The refusals of key attributes the item holds in a form no
	// multi-attribute key takes: reported only when the item would be in
	// the index, holding every other.
	var refusals []func()
	ok := true
	for _, ka := range ix.KeyAttrs() {
		if ka.Name == t.EntityAttr {
			segs = append(segs, Segment{Literal: e.TypeValue})
			continue
		}
		var a *Attribute
		if t.IsKeyAttr(ka.Name) {
			// The table's key attribute: the entity's own attribute when
			// its primary key is natural.
			src := e.PrimaryKey().PK
			if t.SK != nil && ka.Name == t.SK.Name {
				src = e.PrimaryKey().SK
			}
			if !src.IsNatural(ka) {
				refusals = append(refusals, func() {
					r.errorf(pos, "%s is in index %s, whose multi-attribute key holds the table's key attribute %s, which %s fills with %q; each attribute of a multi-attribute key is an attribute of the entity in its own type: key the index on the attributes of the template instead", e.Name, ix.Name, ka.Name, e.Name, src.Source)
				})
				continue
			}
			a = src.Segments[0].Attr
		} else {
			a = e.AttrStored(ka.Name)
		}
		if a == nil {
			if tm, from := e.templateOf(ka.Name); tm != nil {
				refusals = append(refusals, func() {
					r.errorf(tm.Pos, "%s writes key attribute %s of %s with %q, and %s is also a key attribute of index %s, whose multi-attribute key holds the entity's own attributes, so its items are in %s with that text; give the indexes key attributes of their own", e.Name, ka.Name, indexLabel(from.Index), tm.Source, ka.Name, ix.Name, ix.Name)
				})
				continue
			}
			missing = append(missing, ka.Name)
			continue
		}
		if a.Type == "" {
			ok = false // its unknown type is reported
			continue
		}
		if !a.KeyTypeFits(ka.Type) {
			r.errorf(a.Pos, "attribute %s of %s is stored as key attribute %s of index %s, whose type %s can't hold %s attribute; give the key attribute the type of the attribute's stored form, or rename the attribute with attr:", a.Name, e.Name, ka.Name, ix.Name, ka.Type, Article(a.Describe()))
			ok = false
			continue
		}
		segs = append(segs, Segment{Attr: a})
	}
	if len(missing) > 0 {
		if named != nil {
			r.errorf(named.Pos, "keys %s of %s name index %s, but %s stores no attribute %s, so its items can't be in it: an item is in an index only with all its key attributes; give %s the attribute, or remove keys %s", ix.Name, e.Name, ix.Name, e.Name, strings.Join(missing, " or "), e.Name, ix.Name)
		}
		return nil
	}
	for _, refuse := range refusals {
		refuse()
	}
	if !ok || len(refusals) > 0 {
		return nil
	}
	n := len(ix.PKs)
	part := func(segs []Segment) *Template {
		tm := &Template{Pos: pos, Segments: segs, Implied: true, Multi: true}
		tm.Source = tm.String()
		return tm
	}
	k := &EntityKey{Index: ix, Pos: pos, PK: part(segs[:n]), Unnamed: named == nil}
	if len(segs) > n {
		k.SK = part(segs[n:])
	}
	for i, ka := range ix.KeyAttrs() {
		seg := segs[i]
		tm := &Template{Pos: pos, Segments: []Segment{seg}, KeyType: ka.Type, Implied: true}
		if seg.Attr != nil {
			tm.Pos = seg.Attr.Pos
		}
		tm.Source = tm.String()
		k.Parts = append(k.Parts, tm)
	}
	return k
}

// unnamedKey is an index an entity does not name, with the templates its
// item holds for the index's key attributes on its own (the table's key
// attributes, an attribute stored under a key attribute's name).
type unnamedKey struct {
	ix    *Index
	found [2]*Template
}

// derivedKey returns e's key on ix, an index e does not name, when e's
// item holds every key attribute of ix all the same: an attribute the
// table's key or e's own attribute fills (found), or one of e's templates
// on another index fills. DynamoDB puts an item in every index whose key
// attributes it holds, whatever index the spec names. Nil when a key
// attribute of ix is never written.
func derivedKey(e *Entity, ix *Index, found [2]*Template) *EntityKey {
	k := &EntityKey{Index: ix, Pos: e.Pos}
	var via []*EntityKey
	for i, ka := range ix.KeyAttrs() {
		tm := found[i]
		if tm == nil {
			src, from := e.templateOf(ka.Name)
			if src == nil {
				return nil
			}
			cp := *src
			cp.Implied = true
			tm = &cp
			if !slices.Contains(via, from) {
				via = append(via, from)
			}
			if len(via) == 1 {
				k.Pos = src.Pos
			}
		}
		if i == 0 {
			k.PK = tm
		} else {
			k.SK = tm
		}
	}
	// At least one key attribute came from another index: the caller
	// passes only indexes with an attribute the item does not hold itself.
	k.Via = via
	return k
}

// templateOf returns e's template for the key attribute stored under
// name on an index e names, with its key; nil when e names none that has
// it.
func (e *Entity) templateOf(name string) (*Template, *EntityKey) {
	for _, k := range e.Keys {
		if k.Derived() {
			continue
		}
		for i, ka := range k.Index.KeyAttrs() {
			if ka.Name == name {
				return k.AttrTemplates()[i], k
			}
		}
	}
	return nil, nil
}

// sharedKeyAttrs refuses an entity that fills one key attribute, shared by
// several indexes, with different templates: an item holds one value per
// attribute.
//
// A key attribute the entity writes from a template (not one of the
// table's, nor an attribute of its own) is written once, when the item is
// in the index it was first written for: every index that shares it must
// hold the item under the same optional attributes, or one of them would
// hold half of its key.
func (r *resolver) sharedKeyAttrs(e *Entity) {
	type filled struct {
		tm *Template
		k  *EntityKey
	}
	first := map[string]filled{}
	for _, k := range e.Keys {
		for i, tm := range k.AttrTemplates() {
			name := k.Index.KeyAttrs()[i].Name
			prev, ok := first[name]
			if !ok {
				first[name] = filled{tm, k}
				continue
			}
			if prev.tm.Source != tm.Source {
				r.errorf(tm.Pos, "%s fills key attribute %s with %q on %s but with %q on another index; an item holds one value per attribute, so give the indexes key attributes of their own", e.Name, name, tm.Source, indexLabel(k.Index), prev.tm.Source)
				continue
			}
			if tm.Implied || prev.tm.Implied {
				continue
			}
			if a, b := presenceText(prev.k), presenceText(k); a != b {
				r.errorf(tm.Pos, "%s writes key attribute %s for %s and for %s, but is in %s %s and in %s %s; an item holds one %s, so one of the indexes would hold it with half of its key; give the indexes key attributes of their own, or give both the same optional attributes", e.Name, name, indexLabel(prev.k.Index), indexLabel(k.Index), prev.k.Index.Name, a, k.Index.Name, b, name)
			}
		}
	}
}

// presenceText says when an item is in k's index: "always", or "only with
// a and b".
func presenceText(k *EntityKey) string {
	p := k.Presence()
	if len(p) == 0 {
		return "always"
	}
	var names []string
	for _, a := range p {
		names = append(names, a.Name)
	}
	slices.Sort(names)
	return "only with " + strings.Join(names, " and ")
}

// keyTemplate finds the entity's template for one key attribute of ix.
func (r *resolver) keyTemplate(e *Entity, ix *Index, ka *KeyAttr, text spec.Str, which string) (*Template, keySource) {
	if ka == nil {
		return nil, absent
	}
	t := e.Table
	if !ix.IsPrimary() && t.IsKeyAttr(ka.Name) && len(e.Keys) > 0 {
		prim := e.PrimaryKey()
		src := prim.PK
		if t.SK != nil && ka.Name == t.SK.Name {
			src = prim.SK
		}
		if text.Set && text.Value != src.Source {
			r.errorf(text.Pos, "on %s, %s is the table's own key attribute %s, which holds %q for %s; remove %s or write the same template", ix.Name, which, ka.Name, src.Source, e.Name, which)
		}
		cp := *src
		cp.Implied = true
		return &cp, tableAttr
	}
	if nat := e.AttrStored(ka.Name); nat != nil {
		if nat.Type == "" {
			return nil, natural // its unknown type is reported
		}
		if !nat.KeyTypeFits(ka.Type) {
			r.errorf(nat.Pos, "attribute %s of %s is stored as key attribute %s of %s, whose type %s can't hold a %s attribute; rename it with attr:", nat.Name, e.Name, ka.Name, indexLabel(ix), ka.Type, nat.Describe())
			return nil, natural
		}
		if text.Set && strings.TrimSpace(text.Value) != "{"+nat.Name+"}" {
			r.errorf(text.Pos, "%s of %s fills key attribute %s, but attribute %s of %s is stored under that name; the attribute is the key: remove %s, or rename the attribute with attr:", which, indexLabel(ix), ka.Name, nat.Name, e.Name, which)
			return nil, natural
		}
		tm := &Template{Source: "{" + nat.Name + "}", Pos: nat.Pos, Segments: []Segment{{Attr: nat}}, KeyType: ka.Type, Implied: !text.Set}
		if text.Set {
			tm.Pos = text.Pos
		}
		return tm, natural
	}
	if !text.Set {
		return nil, absent
	}
	return r.parseTemplate(e, ix, ka, text), given
}

func (r *resolver) parseTemplate(e *Entity, ix *Index, ka *KeyAttr, text spec.Str) *Template {
	tm := &Template{Source: text.Value, Pos: text.Pos, KeyType: ka.Type}
	where := fmt.Sprintf("template %q of %s on %s", text.Value, e.Name, indexLabel(ix))
	if text.Value == "" {
		r.errorf(text.Pos, "%s is empty; a key can't be empty", where)
		return nil
	}
	raw, err := splitTemplate(text.Value)
	if err != nil {
		r.errorf(text.Pos, "%s: %v", where, err)
		return nil
	}
	ok := true
	for _, s := range raw {
		if s.name == "" {
			tm.Segments = append(tm.Segments, Segment{Literal: s.literal})
			continue
		}
		a := e.Attr(s.name)
		if a == nil {
			r.errorf(text.Pos, "%s: {%s} is not an attribute of %s%s", where, s.name, e.Name, e.nearestAttr(s.name))
			ok = false
			continue
		}
		if tm.Has(a) {
			r.errorf(text.Pos, "%s uses {%s} twice", where, s.name)
			ok = false
			continue
		}
		tm.Segments = append(tm.Segments, Segment{Attr: a})
	}
	if !ok {
		return nil
	}
	if !r.checkTemplate(tm, where) {
		return nil
	}
	return tm
}

// checkTemplate applies the rules of key templates: types allowed in a key
// of the template's type, separators between placeholders, enum values
// and path separators that can't be confused with the template's own.
func (r *resolver) checkTemplate(tm *Template, where string) bool {
	ok := true
	fail := func(format string, args ...any) {
		r.errorf(tm.Pos, where+": "+format, args...)
		ok = false
	}
	switch tm.KeyType {
	case N, B:
		if len(tm.Segments) != 1 || tm.Segments[0].Attr == nil {
			want := "one int or float placeholder, such as {orderId}"
			if tm.KeyType == B {
				want = "one bytes placeholder"
			}
			fail("a key attribute of type %s takes exactly %s, with no literal text", tm.KeyType, want)
			return false
		}
		a := tm.Segments[0].Attr
		if (tm.KeyType == N && a.DynamoType() != "N") || (tm.KeyType == B && a.Type != Bytes) {
			fail("{%s} is %s, which can't fill a key of type %s", a.Name, a.Describe(), tm.KeyType)
		}
		return ok
	}
	seps := tm.Separators()
	paths := 0
	for i, s := range tm.Segments {
		if s.Attr == nil {
			continue
		}
		a := s.Attr
		switch a.Type {
		case "":
			continue // its unknown type is reported
		case String, Enum, Int, Time, Bool, Path:
		case Float:
			fail("{%s} is a float, which has no order-preserving text form; use an int, or a key attribute of type N", a.Name)
		default:
			fail("{%s} is %s, which can't be part of a key; keys take string, enum, int, time, bool and path", a.Name, a.Type)
		}
		if i > 0 && tm.Segments[i-1].Attr != nil {
			fail("{%s} and {%s} touch; separate placeholders with literal text such as \"#\"", tm.Segments[i-1].Attr.Name, a.Name)
		}
		if i > 1 && tm.Segments[i-1].Attr == nil && tm.Segments[i-2].Attr != nil && !hasSeparator(tm.Segments[i-1].Literal) {
			fail("{%s} and {%s} are separated by %q, which holds no separator character; use one such as \"#\"", tm.Segments[i-2].Attr.Name, a.Name, tm.Segments[i-1].Literal)
		}
		if a.Type == Enum {
			for _, v := range a.Values {
				if strings.ContainsAny(v, string(seps)) {
					fail("enum value %q of {%s} holds a separator character of the template (%s)", v, a.Name, quoteRunes(seps))
				}
			}
		}
		if a.Type == Path {
			paths++
			if !slices.Contains(seps, a.Separator) {
				fail("path {%s} separates its elements with %q, which the template's literal text does not use; write the template with %q", a.Name, string(a.Separator), string(a.Separator))
			}
		}
	}
	if paths > 1 {
		fail("holds two paths; a key can hold one hierarchy")
	}
	return ok
}

func hasSeparator(lit string) bool {
	for _, r := range lit {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return true
		}
	}
	return false
}

func quoteRunes(rs []rune) string {
	var q []string
	for _, r := range rs {
		q = append(q, strconv.QuoteRune(r))
	}
	return strings.Join(q, " ")
}

func attrGoPos(sa *spec.Attribute) Pos {
	if sa.Go.Set {
		return sa.Go.Pos
	}
	return sa.Name.Pos
}

// managed resolves the attributes the generated code sets itself: the
// version of optimistic locking and the timestamps. Each must be a
// required attribute of the right type in no key template, the key of an
// item can't change with its version or its time, but for the created
// time in a secondary index's key: it never changes.
func (r *resolver) managed(e *Entity, se *spec.Entity) {
	attr := func(name spec.Str, what string, t Type, typeName string, secondaryKeys bool) *Attribute {
		if !name.Set {
			return nil
		}
		a := e.Attr(name.Value)
		if a == nil {
			var known []string
			for _, a := range e.Attributes {
				if a.Type == t {
					known = append(known, a.Name)
				}
			}
			r.errorf(name.Pos, "%s of %s names %q, which is not an attribute of %s; declare %s: %s among its attributes%s", what, e.Name, name.Value, e.Name, name.Value, typeName, nearest(name.Value, known))
			return nil
		}
		if a.Type == "" {
			return nil // its type is reported
		}
		if a.Type != t {
			r.errorf(name.Pos, "%s of %s names %s, which is %s; it must be %s", what, e.Name, a.Name, a.Describe(), typeName)
			return nil
		}
		if a.Optional {
			r.errorf(name.Pos, "%s of %s names %s, which is optional; every item holds it: remove optional: true", what, e.Name, a.Name)
			return nil
		}
		if a.TTL {
			r.errorf(name.Pos, "%s of %s names %s, the table's ttl attribute, which says when the item expires; use another attribute", what, e.Name, a.Name)
			return nil
		}
		for _, k := range e.Keys {
			for i, tm := range k.AttrTemplates() {
				if !tm.Has(a) || secondaryKeys && !k.Index.IsPrimary() {
					continue
				}
				ka := k.Index.KeyAttrs()[i]
				if !k.Index.IsPrimary() && tm.IsNatural(ka) {
					// The attribute itself is the index's key attribute:
					// DynamoDB moves the item in the index as it changes.
					continue
				}
				if secondaryKeys {
					r.errorf(name.Pos, "%s of %s names %s, which %s=%q of its primary key is built from; the generated code sets it at create, so the caller could not address the item before reading it: use it in a secondary index's key only", what, e.Name, a.Name, ka.Name, tm.Source)
					return nil
				}
				r.errorf(name.Pos, "%s of %s names %s, which %s=%q on %s is built from; the generated code sets it, not the caller, and an item's keys can't be built from it: use an attribute in no key template", what, e.Name, a.Name, ka.Name, tm.Source, k.Index.Name)
				return nil
			}
		}
		return a
	}
	e.Version = attr(se.Version, "version", Int, "int", false)
	if a := e.Version; a != nil && a.Default != nil {
		// An item written before the version was added holds none: no
		// condition on the version read could hold for it.
		r.errorf(a.Default.Pos, "version of %s names %s, which has a default; an item without a stored version could never be written with the version read: remove default:, and write a version into the items that lack one", e.Name, a.Name)
	}
	if a := e.Version; a != nil && (a.Min != nil || a.Max != nil) {
		// The generated code writes 1, then one more on every write: a
		// bound would refuse a version it wrote itself.
		r.errorf(se.Version.Pos, "version of %s names %s, which has a min or max; the store writes 1 and then counts up by itself: remove min: and max:", e.Name, a.Name)
	}
	if ts := se.Timestamps; ts != nil {
		// The created time is written once, at create: a secondary
		// index's key may hold it ("newest first"), and the writes that
		// can't know it without a read are planned or refused (plan).
		e.Created = attr(ts.Created, "timestamps created", Time, "time", true)
		e.Updated = attr(ts.Updated, "timestamps updated", Time, "time", false)
		if e.Created != nil && e.Created == e.Updated {
			r.errorf(ts.Updated.Pos, "timestamps of %s name %s as both created and updated; give each its own attribute, or leave one out", e.Name, e.Created.Name)
			e.Updated = nil
		}
	}
}

// nearestAttr is nearest of name among the entity's attribute names: a
// hint for a name that is not one of them.
func (e *Entity) nearestAttr(name string) string {
	var known []string
	for _, x := range e.Attributes {
		known = append(known, x.Name)
	}
	return nearest(name, known)
}

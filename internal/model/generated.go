package model

import (
	"fmt"
	"iter"
	"slices"
	"strconv"
	"strings"
)

// The names of the generated package, derived here so that the checks and
// the emitter agree on them.

// RuntimeImport is the name generated code imports dyngen's runtime
// (github.com/dyngen/dyngen/generator/runtime) under.
const RuntimeImport = "dyngen"

// Holder is what a generated package holds, which some of its names
// come with.
type Holder int

const (
	HoldsAlways      Holder = iota // every package
	HoldsQuery                     // a package with a query
	HoldsBatch                     // a package with a batch pattern
	HoldsTransaction               // a package with a transaction
	HoldsMany                      // a package with a write over many keys
	HoldsStream                    // a package with a table's stream
)

// ReExported are the runtime's names a generated package declares as its
// own (var ErrNotFound = dyngen.ErrNotFound, type Cursor = dyngen.Cursor),
// for its callers, by what the package holds: errors (Err...), the types
// of errors and of a query's page.
var ReExported = []struct {
	Holder Holder
	Names  []string
}{
	{HoldsAlways, []string{
		"ErrNotFound", "ErrAlreadyExists", "ErrConditionFailed", "ErrVersionConflict", "ErrInvalidKey",
		"ErrInvalidItem", "ErrInvalidCursor", "KeyError", "ItemError", "DecodeError", "UndecodedItem",
	}},
	{HoldsQuery, []string{"Cursor", "Page"}},
	{HoldsBatch, []string{"ErrRetriesExhausted", "BatchError"}},
	{HoldsTransaction, []string{"ErrTransactionConflict", "ErrSameItem", "ErrInvalidRequestToken", "TransactionError"}},
	{HoldsMany, []string{"ErrTooManyKeys", "EachError", "KeyFailure"}},
	{HoldsStream, []string{
		"ErrInvalidRecord", "StreamRecord", "StreamOp", "StreamEvent", "KinesisEvent", "EventRecord",
		"BatchResponse", "BatchItemFailure", "RecordError", "RecordsError", "Change", "OwnChange", "UnknownChange",
	}},
}

// StreamOpConsts are the runtime's constants of a record's operation,
// which a package with a stream declares as its own.
var StreamOpConsts = []string{"OpInsert", "OpModify", "OpRemove"}

// FixedNames are the package-level identifiers a generated package may
// declare whatever the spec: the Store's, and the runtime's it declares
// as its own (ReExported).
var FixedNames = func() []string {
	out := []string{"Store", "StoreAPI", "New", "Option", "Client", "Table", CursorKeyOption, BatchOption, ClockOption}
	for _, group := range ReExported {
		out = append(out, group.Names...)
	}
	out = append(out, StreamOpConsts...)
	return out
}()

// Fixed reports whether the package of m declares name whatever its
// spec names (FixedNames): the names of its streams (HoldsStream,
// StreamOpConsts) only when a table of m has one, so that a spec
// without a stream keeps them for its own.
func (m *Model) Fixed(name string) bool {
	if !slices.Contains(FixedNames, name) {
		return false
	}
	if m.Streams() {
		return true
	}
	if slices.Contains(StreamOpConsts, name) {
		return false
	}
	for _, group := range ReExported {
		if group.Holder == HoldsStream && slices.Contains(group.Names, name) {
			return false
		}
	}
	return true
}

// StoreFixedMethods are the methods every generated Store declares besides
// the patterns'.
var StoreFixedMethods = []string{"Tables"}

// EntityMethods are the methods generated on every entity type; an
// attribute can't have a Go field of the same name.
var EntityMethods = []string{"MarshalItem", "UnmarshalItem"}

// EnumType is the Go type of an enum attribute: the entity's and the
// attribute's Go names (OrderStatus).
// An enum field of an object type is named after the object's (and
// not after an entity's, since several may hold the object).
func EnumType(e *Entity, a *Attribute) string {
	if a.IsPath() {
		a = a.Path[len(a.Path)-1]
	}
	if a.In != nil {
		return a.In.GoName + a.GoName
	}
	return e.GoName + a.GoName
}

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

// ResultType is the Go type of one page of a query's results, and of
// the items a transactGet reads.
func (p *Pattern) ResultType() string { return p.GoName + "Result" }

// ReturnsPages reports whether the pattern's method returns a page of
// results, which an iterator walks: a query, but one of its first item.
func (p *Pattern) ReturnsPages() bool { return p.Op == OpQuery && !p.First }

// AllMethod is the Store method that walks every page of a query.
func (p *Pattern) AllMethod() string { return p.GoName + "All" }

// BatchOption is the Store option that sets how many requests of one batch
// method are in flight at once, and BatchField the Store's field holding
// it; both are declared when a pattern is a batch. (No table's field,
// which ends in Table, and no input method, which ends in Input, can take
// BatchField.)
const (
	// CursorKeyOption is the Store option that seals cursors with a
	// secret.
	CursorKeyOption = "WithCursorKey"
	BatchOption     = "WithBatchConcurrency"
	BatchField      = "batchConcurrency"
	// ClockOption is the Store option that sets the clock the Store
	// reads the time from, and ClockField the Store's field holding it
	// (default time.Now); both are declared when a pattern writes an
	// entity with timestamps, or treats expired items as absent.
	ClockOption = "WithClock"
	ClockField  = "clock"
)

// NeedsClock reports whether a pattern of m, or a step of a
// transaction, writes an entity with timestamps, which the Store's clock
// sets.
func (m *Model) NeedsClock() bool {
	stamps := func(p *Pattern) bool {
		switch p.Op {
		case OpPut, OpCreate, OpUpdate, OpBatchPut:
			return p.Entity().Stamped()
		}
		return false
	}
	for _, p := range m.Patterns {
		if stamps(p) || slices.ContainsFunc(p.Steps, func(s *Step) bool { return stamps(s.Pattern) }) {
			return true
		}
	}
	return false
}

// TableOption is the option that sets a table's physical name.
func (t *Table) TableOption() string { return "With" + t.GoName + "Table" }

// KeyType is the Go type holding an entity's primary key attributes, for
// batch reads and deletes.
func (e *Entity) KeyType() string { return e.GoName + "Key" }

// NeedsKeyType reports whether a pattern of m takes keys of e: a batch
// read or delete, or a method that takes one key (TakesKey).
func (m *Model) NeedsKeyType(e *Entity) bool {
	for _, p := range m.Patterns {
		if p.Entity() == e && p.takesKeys() {
			return true
		}
	}
	return false
}

// KeyTypes holds the entities whose key type the package declares
// (NeedsKeyType), found in one pass over the patterns.
func (m *Model) KeyTypes() map[*Entity]bool {
	out := map[*Entity]bool{}
	for _, p := range m.Patterns {
		if p.takesKeys() {
			out[p.Entity()] = true
		}
	}
	for _, e := range m.Entities {
		if e.Streamed() {
			// A change holds the item's key.
			out[e] = true
		}
	}
	return out
}

// takesKeys reports whether p's method takes keys of its entity, in its
// entity's key type.
func (p *Pattern) takesKeys() bool {
	return p.Op == OpBatchGet || p.Op == OpBatchDelete || p.TakesKey() || p.Many != "" && len(p.Entity().PrimaryKey().Attrs()) > 1
}

// MaxPositional is the most inputs a Store method takes as parameters
// of their own, after ctx (and the item of a put, the page of a query).
// A method with more takes them in one struct, so that two inputs of one
// Go type can't be swapped without a word: its entity's key type
// (TakesKey), or <Pattern>Params (ParamsType). sqlc's
// query_parameter_limit does the same, with the same default.
const MaxPositional = 1

// Inputs is how many values a pattern's method takes from its caller,
// besides ctx, the item of a put or create, the page of a query and the
// keys or items of a batch: the key's attributes, the version an update
// or delete of a versioned entity expects, the where and condition
// operands, and the values an update sets and adds and the elements it
// removes from sets.
func (p *Pattern) Inputs() int {
	n := 0
	switch p.Op {
	case OpGet, OpQuery:
		n = len(p.By)
	case OpUpdate, OpDelete, OpCheck:
		if p.Many == "" {
			// A write over many keys takes its keys in a slice of their
			// own.
			n = len(p.Entity().PrimaryKey().Attrs())
		}
		if p.Entity().Version != nil {
			n++ // the version the caller read
		}
	}
	if p.Where != nil {
		n += p.Where.Op.Operands()
	}
	var mapKeys []*Attribute
	for _, c := range Leaves(append(slices.Clip(p.Filter), p.When...)) {
		if c.IsParam() {
			n += c.Op.Operands()
		}
		mapKeys = appendMapKey(mapKeys, c.Attr)
	}
	for _, a := range append(p.SetAttrs(), p.Remove...) {
		mapKeys = appendMapKey(mapKeys, a)
	}
	return n + len(p.Set) + len(p.Add) + len(p.RemoveFrom) + len(mapKeys)
}

// appendMapKey appends a to keys when it is a map's entry by a key the
// caller gives (a parameter of its own) not in keys yet.
func appendMapKey(keys []*Attribute, a *Attribute) []*Attribute {
	if a == nil || a.MapKey == "" || slices.Contains(keys, a) {
		return keys
	}
	return append(keys, a)
}

// TakesKey reports whether the pattern's method takes its entity's key
// type: a get or delete by the whole primary key, of more than
// MaxPositional attributes, with no other input (a map entry's key the
// caller gives is one).
func (p *Pattern) TakesKey() bool {
	if p.Inputs() <= MaxPositional || p.Many != "" {
		return false
	}
	switch p.Op {
	case OpGet:
		return len(p.By) == len(p.Entity().PrimaryKey().Attrs()) && p.Inputs() == len(p.By) && p.byPrimaryKey()
	case OpDelete:
		return p.Inputs() == len(p.Entity().PrimaryKey().Attrs())
	}
	return false
}

// byPrimaryKey reports whether by names exactly the primary key's
// attributes.
func (p *Pattern) byPrimaryKey() bool {
	e := p.Entity()
	for _, a := range e.PrimaryKey().Attrs() {
		if !slices.Contains(p.By, a.Name) {
			return false
		}
	}
	return true
}

// ParamsType is the struct a pattern's method takes its inputs in: its
// entity's key type (TakesKey), <Pattern>Params past MaxPositional
// inputs, or "" when it takes them as parameters of their own.
func (p *Pattern) ParamsType() string {
	switch {
	case p.Op.IsTransaction():
		// A transaction's inputs are named, and shared by its steps by
		// name: always a struct, which also holds the request token.
		return p.GoName + "Params"
	case p.Inputs() <= MaxPositional:
		return ""
	case p.TakesKey():
		return p.Entity().KeyType()
	}
	return p.GoName + "Params"
}

// ViewType is the Go type a read with select returns.
func (p *Pattern) ViewType() string { return p.GoName + "Item" }

// GenName is a package-level identifier the generated code declares, with
// what it comes from.
type GenName struct {
	Name string
	From string
	Pos  Pos
	// Fix says how to give the name another value, when it is not the
	// usual for where it comes from.
	Fix string
}

// GeneratedNames lists the package-level identifiers the spec makes the
// generator declare, besides FixedNames, in spec order.
func (m *Model) GeneratedNames() []GenName {
	var out []GenName
	for _, t := range m.Tables {
		out = append(out, GenName{t.TableOption(), "table " + t.Name, t.Pos, ""})
	}
	if o := m.Output(MigrationOutput); o != nil {
		for _, n := range []string{BackfillClientName, BackfillsName, BackfillMainName, BackfillFuncsName, WithBackfillFuncsName} {
			out = append(out, GenName{n, "output migration", o.Pos, ""})
		}
	}
	// enums adds the enum type and constants of each enum of attrs, of
	// entity e (nil for an object's fields), named owner in messages.
	enums := func(e *Entity, attrs []*Attribute, owner, name string) {
		for _, a := range attrs {
			if a.Type != Enum {
				continue
			}
			out = append(out, GenName{EnumType(e, a), fmt.Sprintf("enum %s of %s", a.Name, owner), a.Pos, ""})
			for _, v := range a.Values {
				out = append(out, GenName{EnumConst(e, a, v), fmt.Sprintf("enum value %q of %s.%s", v, name, a.Name), a.Pos, ""})
			}
		}
	}
	for _, o := range m.Objects {
		out = append(out, GenName{o.GoName, "object " + o.Name, o.Pos, ""})
		enums(nil, o.Fields, "object "+o.Name, o.Name)
	}
	keyTypes := m.KeyTypes()
	for _, t := range m.Tables {
		if t.Stream != "" {
			out = append(out, GenName{m.DecodeFunc(t), "table " + t.Name + "'s stream", t.StreamPos, ""})
		}
	}
	for _, e := range m.Entities {
		out = append(out, GenName{e.GoName, "entity " + e.Name, e.Pos, ""})
		if keyTypes[e] {
			out = append(out, GenName{e.KeyType(), "entity " + e.Name, e.Pos, ""})
		}
		if e.Streamed() {
			out = append(out, GenName{e.ChangeType(), "entity " + e.Name + " (its table's stream)", e.Pos, ""})
		}
		enums(e, e.Attributes, e.Name, e.Name)
	}
	for _, c := range m.Consumers {
		names := []string{c.HandleFunc(), c.LambdaFunc()}
		if c.Handles() {
			names = append(names, c.HandlerType())
		}
		for _, n := range names {
			out = append(out, GenName{n, "consumer " + c.Name, c.Pos, ""})
		}
	}
	for _, p := range m.Patterns {
		if p.ReturnsPages() || p.Op == OpTransactGet {
			out = append(out, GenName{p.ResultType(), "pattern " + p.Name, p.Pos, ""})
		}
		if len(p.Select) > 0 {
			out = append(out, GenName{p.ViewType(), "pattern " + p.Name, p.Pos, ""})
		}
		if t := p.ParamsType(); t != "" && !p.TakesKey() {
			out = append(out, GenName{t, "pattern " + p.Name, p.Pos, ""})
		}
	}
	return out
}

// StoreMethods lists the methods the generated Store declares, with what
// they come from: one per pattern, and an iterator per query.
func (m *Model) StoreMethods() []GenName {
	n := len(m.Patterns)
	for _, p := range m.Patterns {
		if p.ReturnsPages() {
			n++
		}
	}
	out := make([]GenName, 0, n)
	for _, p := range m.Patterns {
		out = append(out, GenName{p.GoName, "pattern " + p.Name, p.Pos, ""})
		if p.ReturnsPages() {
			out = append(out, GenName{p.AllMethod(), "pattern " + p.Name, p.Pos, ""})
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

// The names a generated method's parameter must not take, because the
// method's body refers to them: Go's predeclared identifiers, the
// packages generated code imports (dyngen's runtime among them, as
// RuntimeImport), and the locals the generated methods declare.
// (Generator tests keep the last two lists true.) The runtime's own
// names are no concern: the generated code names them through its
// import.
var (
	Predeclared = []string{
		"any", "append", "bool", "byte", "cap", "clear", "close", "comparable", "complex",
		"complex128", "complex64", "copy", "delete", "error", "false", "float32", "float64",
		"imag", "int", "int16", "int32", "int64", "int8", "iota", "len", "make", "max", "min",
		"new", "nil", "panic", "print", "println", "real", "recover", "rune", "string", "true",
		"uint", "uint16", "uint32", "uint64", "uint8", "uintptr",
	}
	ImportNames = []string{
		"aws", "context", RuntimeImport, "dynamodb", "errors", "iter", "math", "regexp", "strconv", "strings", "time", "types", "utf8",
	}
	MethodLocals = []string{
		"args", "check", "claim", "counter", "ctx", "dayBefore", "dec", "del", "el", "err", "expr", "failed", "found", "h", "i",
		"in", "instantBefore", "item", "items", "j", "k", "keep", "keyAttr", "keyMap", "keyOrder",
		"keys", "names", "now", "ok", "old", "out", "page", "pk", "receipt", "receiptID", "receiptTTL", "rel", "remove",
		"reqs", "requestAt", "res", "s", "seen", "set", "sk", "stamped", "step", "token", "v",
		"values", "view", "yield",
	}
)

// codeNames holds every name of Predeclared, ImportNames and
// MethodLocals.
var codeNames = func() map[string]bool {
	out := map[string]bool{}
	for _, list := range [][]string{Predeclared, ImportNames, MethodLocals} {
		for _, n := range list {
			out[n] = true
		}
	}
	return out
}()

// TakenByCode reports whether the generated code uses name itself: a Go
// predeclared identifier, an imported package or a local of the methods.
// A key builder's parameter never takes such a name.
func TakenByCode(name string) bool { return codeNames[name] }

// TakenByPackage reports whether name is one the generated methods can't
// let a parameter hide: a Go predeclared identifier or an imported
// package. A method's own locals (MethodLocals) are not: they give way
// to a parameter (LocalName).
func TakenByPackage(name string) bool { return packageCodeNames[name] }

// packageCodeNames holds every name of Predeclared and ImportNames.
var packageCodeNames = func() map[string]bool {
	out := map[string]bool{}
	for _, list := range [][]string{Predeclared, ImportNames} {
		for _, n := range list {
			out[n] = true
		}
	}
	return out
}()

// LocalName is the name a method's local name takes where taken refuses
// it (a parameter of the spec has it): name and the least number from 2
// up that taken does not refuse.
func LocalName(name string, taken func(string) bool) string {
	n := name
	for i := 2; taken(n); i++ {
		n = name + strconv.Itoa(i)
	}
	return n
}

// ConstName is a pattern's constant holding one of its expressions
// (suffix KeyCondition, Projection, Filter, Condition or Update), or a
// query's shape (Shape).
func (p *Pattern) ConstName(suffix string) string { return ParamName(p.GoName) + suffix }

// InputMethod is the Store method that builds a write pattern's request
// apart from its call.
func (p *Pattern) InputMethod() string { return ParamName(p.GoName) + "Input" }

// ExpressionConsts are the suffixes of a pattern's expression constants,
// of the description of a read's request (Read) and of a transaction's
// (Tx).
var ExpressionConsts = []string{"KeyCondition", "Projection", "Filter", "Condition", "Held", "Update", "Read", "Tx", "Many"}

// IndexVar is the variable that describes index ix to the runtime's
// reads: t0000Index for a table's primary key, t0000IndexGSI1 for its
// index GSI1.
func IndexVar(ix *Index) string {
	if ix.IsPrimary() {
		return ParamName(ix.Table.GoName) + "Index"
	}
	return ParamName(ix.Table.GoName) + "Index" + ix.GoName
}

// BuilderName is the function that builds an entity's value of a key
// attribute (bookPK, reviewGSI1SK).
func BuilderName(e *Entity, ka *KeyAttr) string { return ParamName(e.GoName) + GoName(ka.Name) }

// ValuesType is the type holding an entity item's scalar values, which
// MarshalItem allocates at once.
func ValuesType(e *Entity) string { return ParamName(e.GoName) + "Values" }

// FromKeysName is the function that puts into an item the attributes a
// read of p decodes from e's keys.
func FromKeysName(p *Pattern, e *Entity) string {
	if p.IsCollection() {
		return ParamName(p.GoName) + e.GoName + "FromKeys"
	}
	return ParamName(p.GoName) + "FromKeys"
}

// KeyPatternVar is the regular expression that parses e's key attribute
// ka for a read of p.
func KeyPatternVar(p *Pattern, e *Entity, ka *KeyAttr) string {
	return ParamName(p.GoName) + e.GoName + GoName(ka.Name) + "Pattern"
}

// UnexportedNames yields the package-level identifiers the generator may
// declare for the spec that are not exported, in spec order: the
// indexes' descriptions, key builders, value blocks, expression
// constants, key parsers. (Not every one is declared: a key builder no
// method calls is left out.) They are yielded, not listed: a spec of
// 5,000 patterns gives some 45,000, which the plan goes through once
// (plan.Plan.PackageNames).
func (m *Model) UnexportedNames() iter.Seq[GenName] {
	return func(yield func(GenName) bool) {
		for _, t := range m.Tables {
			for _, ix := range t.Indexes {
				if !yield(GenName{IndexVar(ix), "table " + t.Name + "'s index " + ix.Name, ix.Pos, "rename the table or the index"}) {
					return
				}
			}
		}
		for _, t := range m.Tables {
			if t.Stream != "" && !yield(GenName{KindsVar(t), "table " + t.Name + "'s stream", t.StreamPos, "rename the table"}) {
				return
			}
		}
		for _, e := range m.Entities {
			fix := "set go: on entity " + e.Name + " to give its generated names another start"
			if !yield(GenName{ValuesType(e), "entity " + e.Name, e.Pos, fix}) {
				return
			}
			if e.Streamed() && (!yield(GenName{StreamKeyFunc(e), "entity " + e.Name, e.Pos, fix}) || !yield(GenName{ChangeDecodeFunc(e), "entity " + e.Name, e.Pos, fix})) {
				return
			}
			for n, ka := range keyNames(e, func(ka *KeyAttr) string { return BuilderName(e, ka) }) {
				if !yield(GenName{n, "entity " + e.Name + "'s key attribute " + ka.Name, e.Pos, fix}) {
					return
				}
			}
		}
		for _, c := range m.Consumers {
			if !yield(GenName{ConsumerRecordFunc(c), "consumer " + c.Name, c.Pos, "rename consumer " + c.Name}) {
				return
			}
			for _, e := range c.Release {
				if !yield(GenName{ReleaseFunc(c, e), "consumer " + c.Name, c.ReleasePos, "rename consumer " + c.Name}) {
					return
				}
			}
		}
		for _, p := range m.Patterns {
			from := "pattern " + p.Name
			fix := "rename pattern " + p.Name
			for _, s := range ExpressionConsts {
				if !yield(GenName{p.ConstName(s), from, p.Pos, fix}) {
					return
				}
			}
			switch p.Op {
			case OpPut, OpCreate, OpUpdate, OpDelete, OpCheck:
				// A check is a pattern over many keys (many: all), whose
				// builder of one key's request is its input method.
				if !yield(GenName{p.InputMethod(), from, p.Pos, fix}) {
					return
				}
			}
			for _, st := range p.Steps {
				for _, s := range ExpressionConsts {
					if !yield(GenName{st.ConstName(s), from, st.Pos, fix}) {
						return
					}
				}
				if !yield(GenName{st.InputMethod(), from, st.Pos, fix}) {
					return
				}
			}
			if !p.Op.IsRead() {
				continue
			}
			for _, e := range p.Entities {
				if !yield(GenName{FromKeysName(p, e), from, p.Pos, fix}) {
					return
				}
				for n := range keyNames(e, func(ka *KeyAttr) string { return KeyPatternVar(p, e, ka) }) {
					if !yield(GenName{n, from, p.Pos, fix}) {
						return
					}
				}
			}
		}
	}
}

// keyNames yields name of each key attribute of e's keys, in order, and
// the attribute, each name once (an attribute that keys two indexes, as
// a table's sort key that is also a GSI's, gives one key builder).
func keyNames(e *Entity, name func(*KeyAttr) string) iter.Seq2[string, *KeyAttr] {
	return func(yield func(string, *KeyAttr) bool) {
		var buf [8]string
		seen := buf[:0]
		for _, k := range e.Keys {
			for _, ka := range k.Index.KeyAttrs() {
				n := name(ka)
				if slices.Contains(seen, n) {
					continue
				}
				seen = append(seen, n)
				if !yield(n, ka) {
					return
				}
			}
		}
	}
}

// Package spec reads a dyngen spec file into a syntax tree in which every
// value keeps its position, and checks its shape: the keys each mapping may
// hold, the YAML type of every value, duplicate keys. It makes no decision
// about meaning (that is the model's job) and never stops at the first
// problem: every shape error of the file is reported.
//
// The format is described in docs/spec.md; spec/schema.json is its JSON
// Schema for editors.
package spec

import "github.com/dyngen/dyngen/internal/diag"

// Pos is a position in the spec file.
type Pos = diag.Pos

// Str is a scalar value with its position. An absent value has Set false
// and the position of the mapping that would hold it.
type Str struct {
	Value string
	Pos   Pos
	Set   bool
}

// Int is an integer value with its position.
type Int struct {
	Value int64
	Pos   Pos
	Set   bool
}

// Bool is a boolean value with its position.
type Bool struct {
	Value bool
	Pos   Pos
	Set   bool
}

// Number is a numeric value (int or float) with its position; Text is the
// number as written, so that an int attribute's bound keeps full precision.
type Number struct {
	Value   float64
	Text    string
	IsInt   bool
	Int     int64
	Pos     Pos
	Present bool
}

// File is a whole spec.
type File struct {
	Name    string
	Pos     Pos // the document node
	Version Int
	Package Str
	Doc     Str
	Tables  []*Table
	// Objects are the named object types attributes take (`type:
	// object, of: Address`), in spec order.
	Objects  []*Object
	Entities []*Entity
	Patterns []*Pattern
	// Consumers are the consumers of tables' streams, in spec order.
	Consumers []*Consumer
	// Outputs are the files besides the Go package the spec asks for, in
	// spec order.
	Outputs []*Output
	// Accept holds the findings of the compatibility check (dyngen compat)
	// accepted on purpose: each a finding's id and the reason.
	Accept []*Accept
	// TablesPos, EntitiesPos and PatternsPos are the positions of the
	// keys tables:, entities: and patterns: (the file's when absent):
	// where a part the lock holds and the spec no longer does was.
	TablesPos, EntitiesPos, PatternsPos Pos
}

// Accept accepts one finding of the compatibility check: ID is its id,
// Reason why it is accepted.
type Accept struct {
	ID     Str
	Reason Str
}

// Output asks for one output besides the Go package: Kind names its
// format (the key under outputs:), File its file name when not the
// default.
type Output struct {
	Kind Str
	Pos  Pos
	File Str
}

// Consumer is a consumer of a table's stream: the changes it handles,
// per entity and operation, and what of the item each reads.
type Consumer struct {
	Name  Str
	Pos   Pos
	Doc   Str
	Table Str
	// On lists the entities whose changes the consumer handles, in spec
	// order.
	On    []*ConsumerOn
	OnPos Pos
	// Release lists the entities whose expired items' unique claims and
	// counts the consumer releases; ReleasePos is where.
	Release    []Str
	ReleasePos Pos
	// Lambda asks for the event source mapping of a Lambda function in
	// the outputs that deploy tables; nil when not asked.
	Lambda *ConsumerLambda
}

// ConsumerOn is one entity of a consumer's on: the operations handled
// (insert, modify, remove), each with the images it reads (keys, new,
// old or both); Image is unset where the list form gives the default.
type ConsumerOn struct {
	Entity Str
	Ops    []ConsumerOp
}

// ConsumerOp is one operation a consumer handles on an entity.
type ConsumerOp struct {
	Op    Str
	Image Str
}

// ConsumerLambda holds the settings of a consumer's event source mapping.
type ConsumerLambda struct {
	Pos Pos
	// BatchSize is the most records a batch holds (unset: Lambda's
	// default); StartingPosition TRIM_HORIZON or LATEST (unset:
	// TRIM_HORIZON).
	BatchSize        Int
	StartingPosition Str
}

// KeyAttr is a table's or index's key attribute: a name and a DynamoDB
// scalar type (S, N or B; S when not given).
type KeyAttr struct {
	Pos  Pos
	Name Str
	Type Str
}

// Table is a DynamoDB table.
type Table struct {
	Name            Str // the mapping key
	Pos             Pos // the table's mapping
	Doc             Str
	PartitionKey    *KeyAttr
	SortKey         *KeyAttr
	EntityAttribute Str
	TTL             Str
	// Stream is the view type of the table's stream (KEYS_ONLY,
	// NEW_IMAGE, OLD_IMAGE, NEW_AND_OLD_IMAGES); unset for none.
	Stream  Str
	Indexes []*Index
}

// Index is a global or local secondary index of a table. Its partition
// key and sort key are each one key attribute or, written as a list, the
// attributes of a multi-attribute key (PartitionList, SortList).
type Index struct {
	Name         Str
	Pos          Pos
	Doc          Str
	PartitionKey []*KeyAttr
	SortKey      []*KeyAttr
	// PartitionList and SortList are set when the key is written as a
	// list, at its position.
	PartitionList, SortList *Pos
	Projection              *Projection
	Local                   Bool
	// RenamedFrom is the index's name in the lock, when it is renamed.
	RenamedFrom Str
}

// Projection is an index's projection: Kind "all" or "keys", or a list of
// stored attribute names (Kind "include").
type Projection struct {
	Pos   Pos
	Kind  string
	Attrs []Str
}

// Entity is one kind of item.
type Entity struct {
	Name Str
	Pos  Pos
	Doc  Str
	// RenamedFrom is the entity's name in the lock, when it is renamed.
	RenamedFrom Str
	Go          Str
	Table       Str
	TypeValue   Str
	Attributes  []*Attribute
	Keys        []*Keys
	// Version names the attribute holding the item's version
	// (optimistic locking).
	Version Str
	// Timestamps names the attributes the generated code sets from the
	// Store's clock, or is nil.
	Timestamps *Timestamps
	// Unique lists the unique values of the entity: attributes, or
	// groups of them, whose values no two items share; UniquePos is the
	// list's position.
	Unique    []*Unique
	UniquePos Pos
	// Copies are the copies of the entity's item under other primary
	// keys of its table: Keys.Index is the copy's name.
	Copies []*Keys
	// Each are the items written per element of a set attribute
	// (each:), in the order of the spec.
	Each []*Each
	// Counts are the counts of the entity's items by group kept on
	// items of their own; CountsPos is the list's position.
	Counts    []*Count
	CountsPos Pos
}

// Each is an entry of an entity's each: an item per element of the set
// attribute Of, keyed by PK and SK (templates over the element, under
// the set's name, and the owner's attributes), holding the element, the
// owner's primary-key attributes and Attributes.
type Each struct {
	Name          Str
	Pos           Pos
	Of            Str
	PK            Str
	SK            Str
	Attributes    []Str
	AttributesPos Pos
}

// Count is a count of an entity's items by the value of one attribute
// (By), one per value of the attributes Per (the scope), kept by every
// write of the entity on a hidden item.
type Count struct {
	Pos    Pos
	Name   Str
	Per    []Str
	PerPos Pos
	By     Str
}

// Unique is an entry of an entity's unique list: an attribute
// (`email`), several together (`[libraryId, email]`), or the long form
// `{of: [email], normalize: lower}`.
type Unique struct {
	Pos Pos
	// Of are the attributes no two items share the values of together.
	Of []Str
	// List is set when the entry lists its attributes (a list, or the
	// long form), even one.
	List bool
	// Normalize names the normalisation of the string values the claim
	// holds ("lower"), or is unset.
	Normalize Str
}

// Object is a named object type: a Go struct stored as a map (M), whose
// fields are written as attributes are.
type Object struct {
	Name   Str
	Pos    Pos
	Doc    Str
	Go     Str
	Fields []*Attribute
}

// Timestamps are an entity's created and updated times; either may be
// left out (Set false).
type Timestamps struct {
	Pos     Pos
	Created Str
	Updated Str
}

// Attribute is one attribute of an entity, from its short form
// (`isbn: string`) or its long form (`{type: string, ...}`).
type Attribute struct {
	Name      Str
	Pos       Pos
	Short     bool
	Type      Str
	Attr      Str
	Go        Str
	Doc       Str
	Optional  Bool
	Default   *Const
	Min       Number
	Max       Number
	MaxLength Int
	// MaxItems is the most elements of a list or set.
	MaxItems  Int
	Values    []Str
	Format    Str
	Separator Str
	// Of names the object type of an object or objects attribute.
	Of Str
	// RenamedFrom is the attribute's name in the lock, when it is
	// renamed.
	RenamedFrom Str
	// Backfill is "compute": the items stored without the attribute get
	// it from a function of the user's, by a backfill of the migration
	// output.
	Backfill Str
}

// Keys holds an entity's key templates on one index.
type Keys struct {
	Index Str
	Pos   Pos
	PK    Str
	SK    Str
}

// Pattern is one named access pattern.
type Pattern struct {
	Name Str
	Pos  Pos
	Doc  Str
	// RenamedFrom is the pattern's name in the lock, when it is renamed.
	RenamedFrom Str
	Op          Str   // the operation key: get, query, put, ...
	Entities    []Str // the operation's value: one entity, or several for query
	EntityList  bool  // the value was written as a list
	By          []Str
	ByPos       Pos
	Where       []*Cond
	Order       Str
	Limit       Int
	First       Bool
	// Drops names the entities of other items a read's key condition may
	// read, which it drops (an index with a multi-attribute key).
	Drops      []Str
	DropsPos   Pos
	Index      Str
	Consistent Bool
	// Copy names the copy of the entity a get reads.
	Copy   Str
	Filter []*Cond
	When   []*Cond
	Select []Str
	Set    []Str // the attributes set to a parameter
	// SetConsts are the items of set written {attr: constant}: the
	// attributes set to a constant.
	SetConsts []*SetConst
	Add       []Str
	// AddConsts are the items of add written {attr: constant}: the
	// attributes a constant amount is added to.
	AddConsts  []*SetConst
	Remove     []Str
	RemoveFrom []Str
	Upsert     Bool
	// Expired is how the pattern treats items whose time to live has
	// passed: "include" reads (or writes over) them as stored.
	Expired Str
	// Many makes an update or delete one write over a list of keys the
	// caller gives: "all" (one transaction) or "each" (a call per key).
	Many  Str
	Given []Str // every key written in the pattern, in order
	// Steps are the steps of a transaction or transactGet, each written
	// as a pattern of its own (without a name).
	Steps []*Pattern
	// Bind maps an attribute a step takes to the input it takes it from:
	// another input's name, or Step.attr, a field of a step's item.
	Bind []*Bind
	// As names a step, for bind and for a transactGet's result.
	As Str
	// Exists is a check step's test: the item exists (default), or not.
	Exists Bool
}

// Bind is one entry of a step's bind: the step's attribute Attr takes its
// value from From (an input name, or Step.attr).
type Bind struct {
	Attr Str
	From Str
}

// Cond is one condition of where, filter or when: an attribute and an
// operator, with constants when the operator was given as a mapping
// (`status: {"=": escalated}`); or, for the key or of filter and when,
// a disjunction: Or holds its branches, each a list of conditions joined
// by AND (`or: [{active: notExists}, {active: {"<": 5}}]`), and Attr is
// not set (Pos is the key's).
type Cond struct {
	Attr   Str
	Pos    Pos
	Op     Str
	Consts []Const
	Or     [][]*Cond
}

// SetConst is an item of an update's set that gives the attribute a
// constant (`{status: closed}`).
type SetConst struct {
	Attr  Str
	Pos   Pos
	Const Const
}

// Const is a constant operand of a condition, or a constant an update
// sets.
type Const struct {
	Value string
	Tag   string // YAML tag: !!str, !!int, !!float, !!bool
	Pos   Pos
}

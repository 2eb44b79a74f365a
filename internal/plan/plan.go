package plan

import (
	"github.com/dyngen/dyngen/internal/diag"
	"github.com/dyngen/dyngen/internal/model"
)

// Call is a DynamoDB API operation.
type Call string

const (
	GetItem        Call = "GetItem"
	Query          Call = "Query"
	PutItem        Call = "PutItem"
	UpdateItem     Call = "UpdateItem"
	DeleteItem     Call = "DeleteItem"
	BatchGetItem   Call = "BatchGetItem"
	BatchWriteItem Call = "BatchWriteItem"
)

// Plan is the plan of a whole model.
type Plan struct {
	Model    *model.Model
	Patterns []*Pattern
	// Writes holds, per table, what one write of each entity costs on the
	// table and each index it appears in.
	Writes []*WriteAmp
	// Assumptions are the sizes the cost estimates assume.
	Assumptions []string
	// Tables defines every table, in spec order.
	Tables []*TableDef
	// Entities are what the Go package holds for each entity, in spec
	// order: the key builders the methods call, the layout of its
	// MarshalItem.
	Entities []*Entity
	entities map[*model.Entity]*Entity // Entities by entity
	// Backfills are the backfills of the design the lock holds, pending
	// or done, in its order (AddBackfills).
	Backfills []*Backfill
	// Streams are the tables' streams, in spec order (stream.go).
	Streams []*Stream
	// PackageNames holds the unexported package-level names of the
	// generated package, which the spec gives (model.UnexportedNames). A
	// local or a parameter never takes one: it would hide it.
	PackageNames map[string]bool
}

// Pattern is how one access pattern is served.
type Pattern struct {
	Pattern *model.Pattern
	Call    Call
	// Form is the form of the Store method that serves it, or of the
	// request builder of a transaction's step.
	Form  Form
	Index *model.Index
	Key   *KeyCond // nil for batch writes of whole items
	// Inputs are the attributes the key is built from, in order.
	Inputs []*model.Attribute
	// Struct is the struct the method takes its inputs in, or nil when
	// it takes them as parameters of their own.
	Struct *ParamsStruct
	// Members says, for each entity the pattern returns, how its items are
	// recognized among the items the Query reads.
	Members []*Member
	// Foreign lists the entities that can share the partition and the key
	// range, and how they are kept out of the result.
	Foreign []*Foreign
	// KeptOut says which entities can share the partition but have items
	// the key condition never reads: how many by the rule of sort key
	// prefixes, and the others by name.
	KeptOut KeptOut
	// FromKeys are the attributes a read decodes from key attribute values
	// because the index does not project them.
	FromKeys []*model.Attribute
	// Params are the parameters of the pattern's method after ctx.
	Params []*Param
	// Locals are the names the pattern's functions give the names of
	// their own (model.MethodLocals: the receiver s, ctx, page, in, out,
	// err, item...) that a parameter of the spec's takes: the local gives
	// way, never the parameter. Local reads it.
	Locals map[string]string
	// Version is the version attribute the write (or check) compares with
	// the version its caller read (VersionExpected), or nil.
	Version *model.Attribute
	// Rebuild lists the index keys an update rewrites.
	Rebuild []*Rebuild
	// Request holds the expressions the call sends, with their
	// placeholders.
	Request *Request
	Cost    Cost
	// Tx is the plan of a transaction's steps, or nil.
	Tx *Transaction
	// Unique is set on a write of an entity with unique values (its Tx
	// holds the write and the claims) and on a get by a unique value.
	Unique *Unique
	// Zero is set on a get of a counter (model.Count): no item is no
	// item counted yet, so the method returns the counter with every
	// number 0 (its key attributes the caller's) rather than
	// ErrNotFound.
	Zero bool
	// Many is set on an update or delete over a list of keys (many:);
	// Key, Request and Rebuild are then those of one key's write.
	Many *Many
}

// Form is the form of the Store method that serves a pattern, or of the
// request builder of a transaction's step, decided with its call: the
// emitter prints one kind of method for each.
type Form int

const (
	FormGet           Form = iota // GetItem of one item by its primary key
	FormGetByQuery                // Query of one item through an index: Limit 1
	FormFirst                     // Query of a query's first item
	FormPages                     // Query of one page, and the iterator of every page
	FormPut                       // PutItem of a whole item, over any item with its key
	FormCreate                    // PutItem of a whole item where no item has its key
	FormReplace                   // UpdateItem of a put's whole item, which keeps the stored created time
	FormUpdate                    // UpdateItem of some attributes
	FormDelete                    // DeleteItem by primary key
	FormCheck                     // ConditionCheck of a transaction's step
	FormBatchGet                  // BatchGetItem of many keys
	FormBatchPut                  // BatchWriteItem of many puts
	FormBatchDelete               // BatchWriteItem of many deletes
	FormTransactWrite             // TransactWriteItems of a transaction's steps
	FormTransactGet               // TransactGetItems of a transaction's steps
	FormUniqueWrite               // a write of an entity with unique values and its claims (Unique)
	FormLookup                    // a get by a unique value: its claim, then the item (Unique)
	FormManyAll                   // TransactWriteItems of the same update or delete of many keys' items (Many)
	FormManyEach                  // one UpdateItem or DeleteItem per key, concurrently (Many)
	FormCopyGet                   // GetItem of a copy of an item, decoded as the item (copy:)
)

// Entity returns the pattern's first entity.
func (p *Pattern) Entity() *model.Entity { return p.Pattern.Entity() }

// Local is the name the pattern's functions give name, one of their own
// (model.MethodLocals): name itself, unless a parameter has it
// (Pattern.Locals).
func (p *Pattern) Local(name string) string {
	if n, ok := p.Locals[name]; ok {
		return n
	}
	return name
}

// Recognize is how an item read by a Query is assigned to its entity.
type Recognize int

const (
	// ByKey: the key condition only reads items of this entity.
	ByKey Recognize = iota
	// BySortKeyPrefix: the sort key's literal prefix tells the entity.
	BySortKeyPrefix
	// ByEntityAttr: the entity attribute tells the entity.
	ByEntityAttr
)

func (r Recognize) String() string {
	switch r {
	case BySortKeyPrefix:
		return "sort key prefix"
	case ByEntityAttr:
		return "entity attribute"
	}
	return "key condition"
}

// Member is an entity a read returns.
type Member struct {
	Entity *model.Entity
	How    Recognize
	Prefix string // for BySortKeyPrefix
}

// KeptOut is what a read's key condition keeps out: the other entities
// that can share its partition but whose items it never reads. Most are
// kept out by a rule said once, not entity by entity: their sort keys
// start with literal text the condition's does not (ORDER#... against
// LINE#...). With every entity of a table sharing a partition, a list of
// them under every read grew with the square of the entities, in the
// plan, in `dyngen plan` and in the generated methods' docs; the report
// and the docs print this count and the names of the exceptions.
type KeptOut struct {
	// ByPrefix is how many entities the literal start of the condition's
	// sort key keeps out.
	ByPrefix int
	// Others are the entities kept out otherwise, in the table's order:
	// by the condition's bounds (the range of a placeholder's encoding,
	// of a where: range, of a narrowed key), which their sort keys'
	// literal text alone does not tell.
	Others []*model.Entity
}

// Len is how many entities the key condition keeps out.
func (k KeptOut) Len() int { return k.ByPrefix + len(k.Others) }

// Foreign is another entity whose items can be read by a pattern's key
// condition.
type Foreign struct {
	Entity *model.Entity
	// How the generated code drops its items: by the entity attribute, or
	// because every member is recognized by its own sort key prefix.
	How Recognize
}

// Rebuild is an index key attribute an update rewrites, with the
// attributes its template needs.
type Rebuild struct {
	Index    *model.Index
	KeyAttr  *model.KeyAttr
	Template *model.Template
	// Remove is set when the update removes an attribute of the index's
	// templates: the key attribute is removed too and the item leaves the
	// index.
	Remove bool
	// Sparse lists the optional attributes of the index's templates the
	// update sets from the call's values: the key is written only when
	// the call gives them all, and removed otherwise, so that the item is
	// in the index whole or not at all.
	Sparse []*model.Attribute
}

// Cost is an estimate of the capacity one call consumes.
type Cost struct {
	RCU    float64
	WCU    float64
	Detail string // how it was counted
}

// WriteAmp is what one write of an entity costs on each place it lands.
type WriteAmp struct {
	Entity *model.Entity
	Table  float64       // WCU on the table
	Index  []IndexWrites // per secondary index the entity appears in
	Total  float64
}

// IndexWrites is the WCU one write of an item costs on one index.
type IndexWrites struct {
	Index *model.Index
	WCU   float64
}

// Build plans every pattern of m and runs the whole-model checks. Problems
// are added to diags; the plan is complete only when diags holds no error.
func Build(m *model.Model, diags *diag.List) *Plan {
	b := &builder{m: m, diags: diags, sizes: newSizer(), langs: newLangs(), indexed: map[*model.Index][]indexed{}}
	p := &Plan{Model: m, Tables: tableDefs(m)}
	p.PackageNames = checkModel(m, b.langs, diags)
	b.packageNames = p.PackageNames
	for _, pat := range m.Patterns {
		if pp := b.pattern(pat); pp != nil {
			p.Patterns = append(p.Patterns, pp)
		}
	}
	if !diags.HasErrors() {
		// With a refused pattern, an index may look unused only because
		// the pattern meant for it was refused.
		b.indexUse(p)
	}
	p.Writes = b.writeAmps()
	p.Assumptions = b.sizes.assumptions()
	planEntities(p)
	p.Streams = streams(m)
	return p
}

type builder struct {
	m       *model.Model
	diags   *diag.List
	sizes   *sizer
	langs   *langs
	indexed map[*model.Index][]indexed
	// keptBuf and readBuf are scratch space for foreignEntities.
	keptBuf, readBuf []*model.Entity
	// packageNames are the package's unexported names (a parameter that
	// takes one hides it).
	packageNames map[string]bool
}

func (b *builder) errorf(pos model.Pos, format string, args ...any) {
	b.diags.Errorf(pos, format, args...)
}

func (b *builder) pattern(p *model.Pattern) *Pattern {
	var pp *Pattern
	switch p.Op {
	case model.OpGet, model.OpQuery:
		pp = b.read(p)
		if pp != nil && pp.Form == FormGet && p.Entity().CountOf != nil {
			pp.Zero = true
		}
	case model.OpBatchGet:
		pp = b.batchGet(p)
	case model.OpTransaction, model.OpTransactGet:
		// The steps' parameters are planned with them.
		return b.transaction(p)
	case model.OpPut, model.OpCreate, model.OpUpdate, model.OpDelete, model.OpCheck:
		if len(p.Steps) > 0 {
			// A write of an entity with unique values, and its claims.
			return b.uniqueWrite(p)
		}
		if p.Many != "" {
			return b.many(p)
		}
		pp = b.write(p)
	default:
		pp = b.write(p)
	}
	if pp != nil {
		b.params(pp)
	}
	return pp
}

package model

import (
	"slices"

	"github.com/dyngen/dyngen/spec"
)

// A backfill rewrites stored items that a change of the design left
// without what the new code reads. The compatibility check finds which
// (internal/compat), the lock carries them from one generation to the
// next (internal/lock), and the migration output (outputs: migration)
// runs them: the package's Backfill, which scans the table by segment
// and records where each segment stands in a checkpoint, an item of the
// table's own entity here.

// MigrationOutput is the output kind of the backfills: the package's
// backfill.go and the IAM policy of its calls.
const MigrationOutput OutputKind = "migration"

// BackfillFile is the file of the package's backfills.
const BackfillFile = "backfill.go"

// The names the migration output declares in the generated package
// (GeneratedNames).
const (
	BackfillClientName = "BackfillClient"
	BackfillsName      = "Backfills"
	BackfillMainName   = "BackfillMain"
	// BackfillFuncsName is the struct of the functions of the user's
	// that compute the attributes that say backfill: compute (a field
	// each, ComputeFunc), WithBackfillFuncsName the Store's option that
	// gives them, and BackfillFuncsField the Store's field that holds
	// them.
	BackfillFuncsName     = "BackfillFuncs"
	WithBackfillFuncsName = "WithBackfillFuncs"
	BackfillFuncsField    = "backfillFuncs"
)

// ComputeFunc is the field of BackfillFuncs that computes attribute a
// of entity e (backfill: compute): the entity's Go name, then the
// field's.
func ComputeFunc(e *Entity, a *Attribute) string { return e.GoName + a.GoName }

// computeFuncs refuses two attributes that say backfill: compute whose
// fields of BackfillFuncs (ComputeFunc) would be one.
func (r *resolver) computeFuncs() {
	seen := map[string]string{}
	for _, e := range r.m.Entities {
		for _, a := range e.Attributes {
			if !a.Compute {
				continue
			}
			name := ComputeFunc(e, a)
			if other := seen[name]; other != "" {
				r.errorf(a.ComputePos, "attribute %s of %s and %s say backfill: %s, and both would be computed by the field %s of %s; set go: on one of the attributes", a.Name, e.Name, other, Computed, name, BackfillFuncsName)
				continue
			}
			seen[name] = "attribute " + a.Name + " of " + e.Name
		}
	}
}

// TableEnv is the environment variable that names the physical name of
// table t to the package's BackfillMain (the backfill stack's function
// sets it).
func (t *Table) TableEnv() string { return "DYNGEN_TABLE_" + t.GoName }

// BackfillKind is what a backfill writes.
type BackfillKind string

const (
	// IndexKeys writes an index's key attributes, built from the
	// attributes the items hold.
	IndexKeys BackfillKind = "index-keys"
	// InitialVersion writes the first version into the items that have
	// none.
	InitialVersion BackfillKind = "version"
	// UniqueClaims writes the claim of each item's value made unique,
	// and reports two items holding one value, never overwriting a
	// claim.
	UniqueClaims BackfillKind = "claims"
	// Computed writes an attribute (backfill: compute) into the items
	// that lack it, each value from a function of the user's
	// (BackfillFuncs) given the item: a ttl, or a value no default
	// fits.
	Computed BackfillKind = "compute"
)

// Backfill is a backfill of the design: what it writes and its state.
type Backfill struct {
	// ID names it: the entity and the index or attribute it fills
	// (Review.ByGrade, Account.version).
	ID     string
	Kind   BackfillKind
	Entity *Entity
	// Index is the index whose keys an IndexKeys backfill writes.
	Index *Index
	// Unique is the unique value whose claims a UniqueClaims backfill
	// writes (of a set: a claim per element).
	Unique *Unique
	// Attr is the attribute a Computed backfill writes.
	Attr *Attribute
	// State is "pending" or "done"; Checked, for one done, the items its
	// verify read.
	State   string
	Checked int64
	What    string
	// Finding is the id of the compatibility finding that asked for it.
	Finding string
}

// The states of a backfill.
const (
	BackfillPending = "pending"
	BackfillDone    = "done"
)

// Attributes names, by their spec names, the attributes a backfill of
// claims makes claims of, or the one a Computed backfill writes: what
// the lock records with its entity.
func (b *Backfill) Attributes() []string {
	var out []string
	switch {
	case b.Unique != nil:
		for _, a := range b.Unique.Attrs {
			out = append(out, a.Name)
		}
	case b.Attr != nil:
		out = append(out, b.Attr.Name)
	}
	return out
}

// Pending reports whether the backfill has not been verified done.
func (b *Backfill) Pending() bool { return b.State != BackfillDone }

// The attributes of a backfill checkpoint, by their spec names, and
// what the runtime's dyngen.Checkpoint calls them. They are stored
// under names of dyngen's own (CheckpointStored), which no index of
// the spec keys by (checked).
var CheckpointAttrs = []struct {
	Name string
	Type Type
	// Optional is set on the start key, absent at a segment's start.
	Optional bool
}{
	{"backfill", String, false},
	{"segments", Int, false},
	{"segment", Int, false},
	{"fingerprint", String, false},
	{"after", String, true},
	{"done", Bool, false},
	{"scanned", Int, false},
	{"written", Int, false},
	// Open is set once the pass the checkpoint records has met an item
	// it left open; absent in a checkpoint of an older run.
	{"open", Bool, true},
}

// CheckpointStored is the stored name of checkpoint attribute name.
func CheckpointStored(name string) string { return "dyngen_" + name }

// CheckpointPK and CheckpointSK are the templates of a checkpoint's key:
// a literal no entity's key starts with (proved like any two entities'
// keys) and the backfill, a partition per backfill; then the segment. A
// table without a sort key takes both in its partition key.
const (
	CheckpointPK = "DYNGEN#BACKFILL#{backfill}"
	CheckpointSK = "{segments}#{segment}"
)

// CheckpointName is the name of the checkpoint entity of table t.
func (m *Model) CheckpointName(t *Table) string {
	if len(m.Tables) == 1 {
		return "BackfillCheckpoint"
	}
	return t.GoName + "BackfillCheckpoint"
}

// checkpoints returns the specs of the checkpoint entities of every
// table whose key attributes are strings and whose entities' partition
// keys all start with literal text (each is then proven apart from the
// checkpoints' by the collision check), when the spec asks for the
// migration output; set marks them. It runs once the other entities are
// resolved.
func (r *resolver) checkpoints(set map[*spec.Entity]*Table) []*spec.Entity {
	i := slices.IndexFunc(r.f.Outputs, func(o *spec.Output) bool { return o.Kind.Value == string(MigrationOutput) })
	if i < 0 {
		return nil
	}
	pos := r.f.Outputs[i].Pos
	str := func(v string) spec.Str { return spec.Str{Value: v, Pos: pos, Set: true} }
	var out []*spec.Entity
	for _, t := range r.m.Tables {
		if slices.ContainsFunc(t.Primary().KeyAttrs(), func(ka *KeyAttr) bool { return ka.Type != S }) {
			// No checkpoint fits a key of numbers or bytes: a backfill of
			// such a table is refused (plan.AddBackfills).
			continue
		}
		if slices.ContainsFunc(t.Entities, func(e *Entity) bool {
			return len(e.Keys) > 0 && e.PrimaryKey().PK.LiteralPrefix() == ""
		}) {
			// An entity whose partition key may be any string (a natural
			// key) may hold the checkpoints' too: none is proven apart.
			continue
		}
		name := r.m.CheckpointName(t)
		if i := slices.IndexFunc(r.f.Entities, func(se *spec.Entity) bool { return se.Name.Value == name }); i >= 0 {
			r.errorf(r.f.Entities[i].Name.Pos, "entity name %s is the name of the checkpoint entity the migration output (outputs: migration) adds to table %s; rename the entity", name, t.Name)
			continue
		}
		se := &spec.Entity{
			Name:      str(name),
			Pos:       pos,
			Doc:       str(name + " is where a segment of a backfill's scan of table " + t.Name + " stands (dyngen.Checkpoint): an item of its own per backfill and segment, which the package's Backfill writes after each page, so that a run resumes where it stopped."),
			Table:     str(t.Name),
			TypeValue: str("dyngen." + name),
		}
		for _, a := range CheckpointAttrs {
			sa := &spec.Attribute{Name: str(a.Name), Pos: pos, Type: str(string(a.Type)), Attr: str(CheckpointStored(a.Name))}
			if a.Optional {
				sa.Optional = spec.Bool{Value: true, Pos: pos, Set: true}
			}
			se.Attributes = append(se.Attributes, sa)
		}
		keys := &spec.Keys{Index: str(PrimaryName), Pos: pos, PK: str(CheckpointPK + "#" + CheckpointSK)}
		if t.SK != nil {
			keys.PK, keys.SK = str(CheckpointPK), str(CheckpointSK)
		}
		se.Keys = []*spec.Keys{keys}
		set[se] = t
		out = append(out, se)
	}
	return out
}

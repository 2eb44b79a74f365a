package plan

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"github.com/dyngen/dyngen/internal/diag"
	"github.com/dyngen/dyngen/internal/model"
)

// Backfill is how a backfill of the design (model.Backfill) runs: the
// requests of its scan and of its writes, decided here with their
// placeholders, and printed by the generated package's backfill.go and
// by dyngen plan.
type Backfill struct {
	Backfill *model.Backfill
	// Fingerprint is a digest of what the backfill writes (the entity,
	// the attributes, their templates and stored forms): a checkpoint or a
	// receipt of another definition is not taken for this one's.
	Fingerprint string
	// Writes are the attributes it writes, by stored name, with the
	// placeholder of the value Set sends.
	Writes []*BackfillWrite
	// Scan is the Scan's request: Projection (the key, the entity
	// attribute, every attribute of the entity, which Fill decodes, and
	// the attributes written) and Filter (the entity's items).
	Scan *Request
	// Write is the UpdateItem's request: Condition (the entity's type)
	// and Held (each attribute read or written, as the item read holds
	// it); Set and Clear are its two update expressions, the one that
	// writes Writes and the one that removes them.
	Write      *Request
	Set, Clear string
	// Claim is, for a backfill of claims, the Put of the claim's
	// request: its Condition, that no claim is there or that it is this
	// item's (each attribute of ClaimOwner, the owner's key as the claim
	// holds it, equal to the value of the claim built); Write is then the
	// ConditionCheck of the owner, held as read, in the same
	// TransactWriteItems. Nil for the other kinds.
	Claim      *Request
	ClaimOwner []*BackfillWrite
	// Computes are, for a backfill of an attribute computed by the
	// user's function, the attributes its Compute computes, each by its
	// function: its own first, then each other required attribute of the
	// entity whose computing is pending too, which the entity's checks
	// need (computing, AddBackfills). Missing are the entity's required
	// computed attributes, which a decode of the item tolerates as
	// missing (NULL read as absent); Unversioned is the version, tolerated
	// missing too while its backfill is pending. Nil for the other kinds.
	Computes, Missing []*model.Attribute
	Unversioned       *model.Attribute
}

// BackfillWrite is an attribute a backfill writes.
type BackfillWrite struct {
	Stored string
	// Value is the placeholder of its value in Set.
	Value string
}

// AddBackfills plans the backfills of the design, in their order:
// p.Backfills. A backfill whose entity or index the model no longer
// has is left out by the caller (the lock's reading); here each has
// both.
func AddBackfills(p *Plan, bs []*model.Backfill, diags *diag.List) {
	for _, b := range bs {
		pb := planBackfill(b)
		if b.Kind == model.IndexKeys && len(pb.Writes) == 0 {
			// Every key attribute is the table's or the entity's own:
			// DynamoDB fills the index itself.
			diags.Warnf(b.Entity.Pos, "backfill %s (%s) writes nothing: the key attributes of index %s are the table's or %s's own, which its items hold; the lock's record of it is dropped", b.ID, b.State, b.Index.Name, b.Entity.Name)
			continue
		}
		if b.Pending() && p.Model.Output(model.MigrationOutput) != nil && !slices.ContainsFunc(p.Model.Entities, func(x *model.Entity) bool { return x.CheckpointOf == b.Entity.Table }) {
			diags.Errorf(b.Entity.Pos, "backfill %s is of table %s, which holds no checkpoints: the migration output keeps a backfill's checkpoints in its table, under a string key that starts with DYNGEN#BACKFILL#, and the table's key attributes are not all strings, or an entity's partition key may be any string (a natural key)", b.ID, b.Entity.Table.Name)
			continue
		}
		if n := len(pb.FullCondition()); n > maxExpression && b.Pending() && p.Model.Output(model.MigrationOutput) != nil {
			diags.Errorf(b.Entity.Pos, "backfill %s: its write holds the attributes it is computed from as read, in a condition of %d bytes, past DynamoDB's %d", b.ID, n, maxExpression)
			continue
		}
		p.Backfills = append(p.Backfills, pb)
	}
	// The versions first, then the attributes computed: every other
	// backfill but a version's decodes the item, which needs both.
	rank := func(b *Backfill) int {
		switch b.Backfill.Kind {
		case model.InitialVersion:
			return 0
		case model.Computed:
			return 1
		}
		return 2
	}
	slices.SortStableFunc(p.Backfills, func(a, b *Backfill) int { return rank(a) - rank(b) })
	for _, pb := range p.Backfills {
		if pb.Backfill.Kind == model.Computed {
			computing(pb, p.Backfills)
		}
	}
}

// computing decides what the Compute of pb, a backfill of a computed
// attribute, computes and tolerates (Computes, Missing, Unversioned),
// given the backfills of the design: which are pending decides.
func computing(pb *Backfill, all []*Backfill) {
	b := pb.Backfill
	e := b.Entity
	pending := func(k model.BackfillKind, a *model.Attribute) bool {
		return slices.ContainsFunc(all, func(o *Backfill) bool {
			return o.Backfill.Kind == k && o.Backfill.Entity == e && o.Backfill.Attr == a && o.Backfill.Pending()
		})
	}
	if e.Version != nil && pending(model.InitialVersion, nil) {
		// The version's backfill comes first, but a dry run of all
		// writes none: an item without one is computed as well.
		pb.Unversioned = e.Version
	}
	pb.Computes = []*model.Attribute{b.Attr}
	for _, a := range e.Attributes {
		if !a.RequiredComputed() {
			continue
		}
		pb.Missing = append(pb.Missing, a)
		if a != b.Attr && pending(model.Computed, a) {
			pb.Computes = append(pb.Computes, a)
		}
	}
}

func planBackfill(b *model.Backfill) *Backfill {
	e := b.Entity
	t := e.Table
	pb := &Backfill{Backfill: b}
	// What the backfill writes, and the attributes what it writes is
	// computed from: the write holds those as read (with the version,
	// when there is one), so that a live write of any of them, a delete
	// and create again included, fails it and makes it compute anew.
	var writes []string
	var from []*model.Attribute
	switch b.Kind {
	case model.IndexKeys:
		writes, from = IndexKeyWrites(e, b.Index)
	case model.InitialVersion:
		writes = append(writes, e.Version.Stored)
	case model.UniqueClaims:
		from = b.Unique.Attrs
	case model.Computed:
		// The user's function is given the whole item: the write holds
		// every attribute it holds.
		writes = append(writes, b.Attr.Stored)
		for _, a := range e.Attributes {
			if a != b.Attr && !a.IsPath() {
				from = append(from, a)
			}
		}
	}
	// The scan reads the key, the entity attribute, the entity's
	// attributes and those written, each once.
	scan := &Request{}
	sn := newRequestNamer(scan)
	var proj []string
	seen := map[string]bool{}
	read := func(stored string) {
		if !seen[stored] {
			seen[stored] = true
			proj = append(proj, sn.name(stored, ""))
		}
	}
	for _, ka := range t.Primary().KeyAttrs() {
		read(ka.Name)
	}
	read(t.EntityAttr)
	var held []string
	if e.Version != nil && b.Kind != model.InitialVersion {
		held = append(held, e.Version.Stored)
	}
	for _, a := range from {
		if !t.IsKeyAttr(a.Stored) && !slices.Contains(held, a.Stored) {
			held = append(held, a.Stored)
		}
	}
	for _, a := range e.Attributes {
		if !a.IsPath() {
			read(a.Stored)
		}
	}
	for _, w := range writes {
		read(w)
		if !slices.Contains(held, w) {
			held = append(held, w)
		}
	}
	scan.Projection = strings.Join(proj, ", ")
	if len(scan.Projection) > maxExpression {
		// Past DynamoDB's 4 KB: the scan reads whole items (a
		// projection saves no read capacity, only the bytes sent back).
		scan = &Request{}
		sn = newRequestNamer(scan)
	}
	tv := sn.value(t.EntityAttr, &Value{Source: EntityType})
	scan.Filter = sn.name(t.EntityAttr, "") + " = " + tv.Placeholder
	// The write: set or remove the attributes, while the item is of the
	// entity and holds what the scan read.
	write := &Request{}
	wn := newRequestNamer(write)
	wtv := wn.value(t.EntityAttr, &Value{Source: EntityType})
	write.Condition = wn.name(t.EntityAttr, "") + " = " + wtv.Placeholder
	var sets, removes []string
	for _, w := range writes {
		name := wn.name(w, "")
		ph := wn.take(":" + placeholderText(w))
		pb.Writes = append(pb.Writes, &BackfillWrite{Stored: w, Value: ph})
		sets = append(sets, name+" = "+ph)
		removes = append(removes, name)
	}
	for _, h := range held {
		name := wn.name(h, "")
		ph := wn.take(":" + placeholderText(h+"_read"))
		write.Held = append(write.Held, &Held{Attr: e.AttrStored(h), Stored: h, Present: name + " = " + ph, Absent: "attribute_not_exists(" + name + ")", Value: ph})
	}
	if len(sets) > 0 {
		pb.Set = "SET " + strings.Join(sets, ", ")
		pb.Clear = "REMOVE " + strings.Join(removes, ", ")
	}
	pb.Scan, pb.Write = scan, write
	if b.Kind == model.UniqueClaims {
		pb.Claim, pb.ClaimOwner = claimPut(b.Unique)
	}
	pb.Fingerprint = fingerprint(b, writes)
	return pb
}

// IndexKeyWrites returns the key attributes of index ix a backfill of
// entity e writes, and the attributes their templates are built from:
// neither the table's own key attributes (a local index shares its
// partition key), which no update may set, nor a natural key (the
// entity's attribute itself), which the item holds already.
func IndexKeyWrites(e *model.Entity, ix *model.Index) (writes []string, from []*model.Attribute) {
	k := e.Key(ix)
	for i, tm := range k.AttrTemplates() {
		ka := ix.KeyAttrs()[i]
		if e.Table.IsKeyAttr(ka.Name) || tm.IsNatural(ka) || e.AttrStored(ka.Name) != nil {
			continue
		}
		writes = append(writes, ka.Name)
		for _, a := range tm.Attrs() {
			if !slices.Contains(from, a) {
				from = append(from, a)
			}
		}
	}
	return writes, from
}

// claimPut plans the Put of a claim of u by a backfill: it creates the
// claim, or finds it the owner's already; a claim of another item fails
// it (a conflict, reported, never overwritten).
func claimPut(u *model.Unique) (*Request, []*BackfillWrite) {
	req := &Request{}
	n := newRequestNamer(req)
	ce := u.Claim
	t := ce.Table
	var owner []*BackfillWrite
	var parts []string
	for _, a := range u.Owner.PrimaryKey().Attrs() {
		ca := ce.Attr(a.Name)
		name := n.name(ca.Stored, "")
		ph := n.take(":" + placeholderText(ca.Stored+"_owner"))
		owner = append(owner, &BackfillWrite{Stored: ca.Stored, Value: ph})
		parts = append(parts, name+" = "+ph)
	}
	req.Condition = "attribute_not_exists(" + n.name(t.PK.Name, "") + ") OR (" + strings.Join(parts, " AND ") + ")"
	return req, owner
}

// fingerprint digests what backfill b writes: its kind, table and
// entity, each attribute written, and the templates and stored forms of
// what it is built from.
func fingerprint(b *model.Backfill, writes []string) string {
	e := b.Entity
	var parts []string
	parts = append(parts, string(b.Kind), e.Table.Name, e.TypeValue)
	parts = append(parts, writes...)
	if u := b.Unique; u != nil {
		parts = append(parts, u.Claim.TypeValue, fmt.Sprint(u.Lower))
		for _, tm := range u.Claim.PrimaryKey().Templates() {
			parts = append(parts, tm.Source)
		}
		for _, a := range u.Claim.Attributes {
			parts = append(parts, storedAs(a))
		}
	}
	if a := b.Attr; a != nil {
		parts = append(parts, storedAs(a), fmt.Sprint(a.Optional))
	}
	if b.Index != nil {
		if k := e.Key(b.Index); k != nil {
			for _, tm := range k.Templates() {
				parts = append(parts, tm.Source)
				for _, a := range tm.Attrs() {
					parts = append(parts, storedAs(a))
				}
			}
		}
	}
	sum := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(sum[:8])
}

// storedAs is how attribute a is stored, for a fingerprint: its name,
// value type and time format.
func storedAs(a *model.Attribute) string {
	return a.Stored + ":" + a.StoredForm().Dynamo + ":" + string(a.Format)
}

// FullCondition is the ConditionExpression of a backfill's write when
// the item read holds every attribute it holds, as dyngen plan shows it.
func (b *Backfill) FullCondition() string { return b.Write.FullCondition() }

// Describe says what b writes, in words.
func (b *Backfill) Describe() string {
	mb := b.Backfill
	switch mb.Kind {
	case model.IndexKeys:
		var names []string
		for _, w := range b.Writes {
			names = append(names, w.Stored)
		}
		return fmt.Sprintf("writes %s, the key of index %s, into every %s item that lacks it", strings.Join(names, " and "), mb.Index.Name, mb.Entity.Name)
	case model.InitialVersion:
		return fmt.Sprintf("writes version 1 into every %s item that has none (%s)", mb.Entity.Name, mb.Entity.Version.Stored)
	case model.UniqueClaims:
		if mb.Unique.Each {
			return fmt.Sprintf("writes the claim of each element of %s of every %s item that lacks one, and reports two items holding one element", mb.Unique.Label(), mb.Entity.Name)
		}
		return fmt.Sprintf("writes the claim of %s of every %s item that has none, and reports two items holding one value", mb.Unique.Label(), mb.Entity.Name)
	case model.Computed:
		return fmt.Sprintf("writes %s (%s), computed by %s.%s from the item, into every %s item that lacks it", mb.Attr.Stored, mb.Attr.Name, model.BackfillFuncsName, model.ComputeFunc(mb.Entity, mb.Attr), mb.Entity.Name)
	}
	return string(mb.Kind)
}

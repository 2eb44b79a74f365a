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
		if n := len(pb.FullCondition()); n > maxExpression {
			diags.Errorf(b.Entity.Pos, "backfill %s: its write holds the item as read, each of its %d attributes, in a condition of %d bytes, past DynamoDB's %d; give %s a version (version:), which the write holds instead", b.ID, len(pb.Write.Held), n, maxExpression, b.Entity.Name)
			continue
		}
		p.Backfills = append(p.Backfills, pb)
	}
}

func planBackfill(b *model.Backfill) *Backfill {
	e := b.Entity
	t := e.Table
	pb := &Backfill{Backfill: b}
	var writes []string
	switch b.Kind {
	case model.IndexKeys:
		for _, ka := range b.Index.KeyAttrs() {
			writes = append(writes, ka.Name)
		}
	case model.InitialVersion:
		writes = append(writes, e.Version.Stored)
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
	// The write holds what the item read holds: its version, when it
	// has one (every write of new code changes it), else each attribute.
	var held []string
	if e.Version != nil && b.Kind != model.InitialVersion {
		held = append(held, e.Version.Stored)
	}
	for _, a := range e.Attributes {
		if a.IsPath() {
			continue
		}
		read(a.Stored)
		if e.Version == nil && !t.IsKeyAttr(a.Stored) {
			held = append(held, a.Stored)
		}
	}
	for _, w := range writes {
		read(w)
		if !slices.Contains(held, w) {
			held = append(held, w)
		}
	}
	scan.Projection = strings.Join(proj, ", ")
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
	pb.Set = "SET " + strings.Join(sets, ", ")
	pb.Clear = "REMOVE " + strings.Join(removes, ", ")
	pb.Scan, pb.Write = scan, write
	pb.Fingerprint = fingerprint(b, writes)
	return pb
}

// fingerprint digests what backfill b writes: its kind, table and
// entity, each attribute written, and the templates and stored forms of
// what it is built from.
func fingerprint(b *model.Backfill, writes []string) string {
	e := b.Entity
	var parts []string
	parts = append(parts, string(b.Kind), e.Table.Name, e.TypeValue)
	parts = append(parts, writes...)
	if b.Index != nil {
		if k := e.Key(b.Index); k != nil {
			for _, tm := range k.Templates() {
				parts = append(parts, tm.Source)
				for _, a := range tm.Attrs() {
					f := a.StoredForm()
					parts = append(parts, a.Stored+":"+f.Dynamo+":"+string(a.Format))
				}
			}
		}
	}
	sum := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(sum[:8])
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
	}
	return string(mb.Kind)
}

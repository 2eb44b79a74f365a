package generator

import (
	"fmt"
	"slices"
	"strings"

	dynrt "github.com/dyngen/dyngen/generator/runtime"
	"github.com/dyngen/dyngen/internal/compat"
	"github.com/dyngen/dyngen/internal/diag"
	"github.com/dyngen/dyngen/internal/lock"
	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/output"
	"github.com/dyngen/dyngen/internal/plan"
)

// Options are the settings of a generation besides the spec.
type Options struct {
	// Strict makes a pattern that reads what a pending backfill fills an
	// error rather than a warning: the release gate of a change that
	// needs a backfill.
	Strict bool
	// Receipts are the receipts of backfills verified (the backfill
	// program's -verify -receipt): each marks its backfill done in the
	// lock.
	Receipts []dynrt.Receipt
}

// changes compares the spec with the committed lock l (compat.Check),
// and returns the lock the generation writes (source is how it names the
// spec):
// it warns of each breaking change of the tables' infrastructure the
// spec does not accept (deploying fails, or replaces a table: what each
// output that deploys them does, output.Tools), decides the backfills of
// the design (compat.Backfills), applies the receipts, and warns at each
// pattern that reads what a backfill still pending fills.
func changes(res *Result, l *lock.Lock, source string, opts Options) *lock.Lock {
	p, diags := res.Plan, res.Diags
	nl := lock.Build(p, model.SourceLine(source))
	r := compat.CheckLock(l, nl, p, output.Tools(p.Model))
	for _, f := range r.Findings {
		if f.Class == compat.Infrastructure && f.Breaking && f.Accepted == "" {
			diags.Warnf(f.Pos, "%s since the committed lock: breaks %s; %s [%s: dyngen compat lists every finding; accept it with accept: to say it is meant]", f.What, f.Breaks, f.Order, f.ID)
		}
	}
	bs, gone, idle := compat.Backfills(l, r, res.Model)
	for _, g := range gone {
		diags.Warnf(res.Model.Pos, "%s: the lock's record of it is dropped", g)
	}
	for _, a := range idle {
		idleCompute(diags, a, "the lock does not hold its entity")
	}
	for _, r := range opts.Receipts {
		i := indexOf(bs, r.Backfill)
		if i < 0 {
			diags.Errorf(res.Model.Pos, "the receipt of backfill %s names no backfill of the lock (it has: %s)", r.Backfill, ids(bs))
			continue
		}
		bs[i].State, bs[i].Checked = model.BackfillDone, r.Checked
		if r.Checked == 0 {
			// A verify of a table without the entity's items proves
			// nothing of another table: a table name mistyped, or a
			// table of another environment, reads empty.
			diags.Warnf(res.Model.Pos, "the receipt of backfill %s is of a verify that read no item of %s (table %s): it is recorded done; if the items are stored in another table, verify the backfill there", r.Backfill, bs[i].Entity.Name, r.Table)
		}
	}
	plan.AddBackfills(p, bs, diags)
	for _, r := range opts.Receipts {
		for _, pb := range p.Backfills {
			if pb.Backfill.ID == r.Backfill && pb.Fingerprint != r.Fingerprint {
				diags.Errorf(res.Model.Pos, "the receipt of backfill %s is of another definition of it (fingerprint %s, the spec's is %s): run the backfill of this spec, and verify it again", r.Backfill, r.Fingerprint, pb.Fingerprint)
			}
		}
	}
	for _, pb := range p.Backfills {
		if pb.Backfill.Pending() {
			pendingReads(p, pb, opts.Strict, res)
		}
	}
	nl.Backfills = lock.BackfillsOf(p)
	return nl
}

// pendingReads says, at each pattern that reads what pending backfill
// pb fills, that its results miss the items written before the change:
// a warning, or with strict an error.
func pendingReads(p *plan.Plan, pb *plan.Backfill, strict bool, res *Result) {
	b := pb.Backfill
	report := res.Diags.Warnf
	if strict {
		report = res.Diags.Errorf
	}
	for _, pp := range p.Patterns {
		m := pp.Pattern
		var why string
		switch b.Kind {
		case model.IndexKeys:
			if pp.Index == b.Index && containsEntity(m.Entities, b.Entity) {
				why = fmt.Sprintf("reads index %s, where the %s items written before the change are missing", b.Index.Name, b.Entity.Name)
			}
		case model.InitialVersion:
			if !m.Op.IsRead() && m.Op != model.OpTransactGet && containsEntity(m.Entities, b.Entity) {
				why = fmt.Sprintf("writes %s items, each expecting a version, which the items written before the change lack", b.Entity.Name)
			}
		case model.Computed:
			// Every read of the entity meets the items stored without the
			// attribute; so do an update, which returns or checks the
			// item, and a write that reads the item first (its claims,
			// counts or copies).
			if (m.Op.IsRead() || m.Op == model.OpUpdate || m.Op == model.OpTransactGet || m.ReadsFirst() || len(m.ReadCopies) > 0) && containsEntity(m.Entities, b.Entity) {
				why = fmt.Sprintf("reads %s items, whose %s the items written before the change lack", b.Entity.Name, b.Attr.Name)
				if b.Attr.RequiredComputed() {
					why += " (required: they fail to decode)"
				}
			}
		case model.UniqueClaims:
			// An update that sets none of the values writes no claim.
			touches := m.Op != model.OpUpdate || slices.ContainsFunc(b.Unique.Attrs, func(a *model.Attribute) bool {
				return slices.Contains(m.Set, a) || slices.Contains(m.Remove, a)
			})
			switch {
			case pp.Form == plan.FormLookup && pp.Unique != nil && pp.Unique.Value == b.Unique:
				why = fmt.Sprintf("reads %s items by their %s, through its claim, which the items written before the change lack: it finds none of them", b.Entity.Name, b.Unique.Label())
			case touches && !m.Op.IsRead() && m.Op != model.OpTransactGet && containsEntity(m.Entities, b.Entity):
				why = fmt.Sprintf("writes %s items, whose %s the items written before the change hold without a claim: a value one of them holds is not refused, and a write that changes or deletes one fails where another item holds the claim of its old value", b.Entity.Name, b.Unique.Label())
			}
		}
		if why == "" {
			continue
		}
		report(m.Pos, "pattern %s %s until backfill %s has run and been verified (pending in the lock): run it (the package's BackfillMain, with -write), verify it (-verify -receipt FILE), then generate with -receipt FILE", m.Name, why, b.ID)
	}
}

// idleCompute warns that attribute a's backfill: compute does nothing,
// and why.
func idleCompute(diags *diag.List, a *model.Attribute, why string) {
	diags.Warnf(a.ComputePos, "backfill: %s of attribute %s does nothing: %s, so no item is stored without it; remove backfill:", model.Computed, a.Name, why)
}

func containsEntity(es []*model.Entity, e *model.Entity) bool {
	for _, x := range es {
		if x == e {
			return true
		}
	}
	return false
}

func indexOf(bs []*model.Backfill, id string) int {
	for i, b := range bs {
		if b.ID == id {
			return i
		}
	}
	return -1
}

func ids(bs []*model.Backfill) string {
	var out []string
	for _, b := range bs {
		out = append(out, b.ID)
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, ", ")
}

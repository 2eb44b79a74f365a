package golang

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/plan"
)

// The exported Store methods of a pattern, described once from its plan:
// the pattern's file declares each, and StoreAPI lists each with the
// summary line of its doc comment, so that either file is printed
// without the other.

// apiMethod is an exported Store method that serves a pattern: its name,
// whether it takes the pattern's page, its results, and the first
// paragraph of its doc comment.
type apiMethod struct {
	name    string
	page    bool
	results []jen.Code
	summary func() string
}

// exported are the exported Store methods of the pattern, in the order
// its file declares them: its own, and a query's iterator
// (model.Pattern.AllMethod).
func (m *method) exported() []apiMethod {
	var out []apiMethod
	for _, pm := range m.pp.Methods() {
		am := apiMethod{name: pm.Name, page: pm.Page, summary: m.summary}
		if pm.Iter != "" {
			am.results = []jen.Code{jen.Qual("iter", "Seq2").Types(typeCode(pm.Iter), jen.Error())}
			am.summary = m.allSummary
		} else {
			for _, r := range pm.Results {
				am.results = append(am.results, typeCode(r))
			}
		}
		out = append(out, am)
	}
	return out
}

// summary is the first paragraph of the doc comment of the pattern's
// method: what it does, with its errors, by its form.
func (m *method) summary() string {
	p, ent := m.p, m.ent()
	var s string
	switch m.pp.Form {
	case plan.FormGet:
		s = fmt.Sprintf("%s reads one %s by its primary key; ErrNotFound when there is none.", p.GoName, ent.GoName)
		if c := ent.CountOf; m.pp.Zero {
			s = fmt.Sprintf("%s reads the numbers of %s items by %s, one per group, from the counter %s by its key: one GetItem. With no counter item (no %s counted yet), every number is 0.", p.GoName, c.Owner.GoName, c.By.Name, ent.GoName, c.Owner.GoName)
		}
	case plan.FormGetByQuery:
		s = fmt.Sprintf("%s reads one %s through %s; ErrNotFound when there is none.", p.GoName, ent.GoName, m.pp.Index.Name)
	case plan.FormFirst:
		order := "ascending"
		if m.req.Descending {
			order = "descending"
		}
		s = fmt.Sprintf("%s reads the first %s of the query, in %s sort key order; ErrNotFound when there is none.", p.GoName, ent.GoName, order)
	case plan.FormPages:
		s = fmt.Sprintf("%s reads one page of %s (see Page and DecodeError).", p.GoName, m.queryWhat())
	case plan.FormPut:
		s = fmt.Sprintf("%s writes %s whole, replacing any item with its key.", p.GoName, m.pp.Params[0].Name) + m.whenDoc() + m.managedDoc()
	case plan.FormCreate:
		s = fmt.Sprintf("%s writes %s only when no item has its key: ErrAlreadyExists otherwise.", p.GoName, m.pp.Params[0].Name) + m.whenDoc() + m.managedDoc()
	case plan.FormReplace:
		s = fmt.Sprintf("%s writes %s whole, replacing any item with its key, in one UpdateItem that sets each of its attributes and removes those it lacks, so that a replaced item keeps its %s: a new item's is the Store's clock's time. Attributes of the stored item that %s does not declare are kept.", p.GoName, m.pp.Params[0].Name, ent.Created.Name, ent.GoName) + m.whenDoc() + m.managedDoc()
	case plan.FormUpdate:
		s = fmt.Sprintf("%s changes %s and returns it as it is after the change.", p.GoName, model.Article(ent.GoName))
		if !p.Upsert {
			s += " ErrNotFound when there is no such item."
		} else {
			s += " It creates the item when there is none."
		}
		s += m.whenDoc() + m.managedDoc()
	case plan.FormDelete:
		s = fmt.Sprintf("%s deletes the %s with this key; deleting an item that does not exist is no error.", p.GoName, ent.GoName)
		if m.pp.Version != nil {
			s = fmt.Sprintf("%s deletes the %s with this key.", p.GoName, ent.GoName)
		}
		s += m.whenDoc() + m.managedDoc()
	case plan.FormBatchGet:
		s = fmt.Sprintf("%s reads the %s items of keys, in the order of keys; keys with no item are left out, and a key given twice is read once, at its first place. On a failure it returns the items read with a *BatchError that lists the keys not read; items that can't be decoded are left out, and its Err is a DecodeError listing them.", p.GoName, ent.GoName)
	case plan.FormBatchPut:
		s = fmt.Sprintf("%s writes every %s of items whole; of two items with one key, the last is written. On a failure its *BatchError lists the items not written and those that may or may not have been.%s", p.GoName, ent.GoName, m.managedDoc())
	case plan.FormBatchDelete:
		s = fmt.Sprintf("%s deletes the %s items of keys; keys with no item are no error. On a failure its *BatchError lists the keys not deleted and those that may or may not have been.", p.GoName, ent.GoName)
	case plan.FormTransactWrite:
		s = fmt.Sprintf("%s writes its %d steps in one transaction: all of them, or none. A step that fails gives a *TransactionError naming it and wrapping its error (%s), with the SDK's TransactionCanceledException.", p.GoName, len(m.pp.Tx.Steps), strings.Join(stepErrors(m.pp.Tx), ", "))
	case plan.FormTransactGet:
		s = fmt.Sprintf("%s reads its %d items in one transaction, as they all are at one moment; an item that does not exist is nil in the result.", p.GoName, len(m.pp.Tx.Steps))
	case plan.FormUniqueWrite:
		// What the entity's writes keep: claims (and counts), copies,
		// items per element, counts alone; the model refuses copies
		// and items per element with anything else.
		switch ent := m.ent(); {
		case len(ent.Unique) > 0:
			s = m.uniqueSummary()
			if len(m.p.Counted) > 0 {
				s += " " + countSentence
			}
		case len(ent.Copies) > 0:
			s = m.copySummary()
		case len(ent.Each) > 0:
			s = m.eachSummary()
		default:
			s = m.countSummary()
		}
	case plan.FormManyAll, plan.FormManyEach:
		s = m.manySummary()
	case plan.FormCopyGet:
		s = m.copyGetSummary()
	case plan.FormLookup:
		u := m.pp.Unique
		what := "this " + u.Value.Label()
		if u.Value.Each {
			what = "this element of its set " + u.Value.Label()
		}
		if len(u.Value.Attrs) > 1 {
			what = "these values of " + u.Value.Label()
		}
		s = fmt.Sprintf("%s reads the %s holding %s: GetItem of its claim, then GetItem of the %s (two requests); ErrNotFound when no %s holds it.", p.GoName, ent.GoName, what, ent.GoName, ent.GoName)
		if u.Value.Lower {
			s += " Strings compare lower-cased (strings.ToLower): a value differing only in case finds the item."
		}
	}
	return s
}

// whenDoc is what a write's summary says of its when condition.
func (m *method) whenDoc() string {
	if len(m.p.When) > 0 {
		return " ErrConditionFailed when the when condition does not hold."
	}
	return ""
}

// txTail ends the summary of a write sent as a read and a transaction
// (claims, counters, copies, element items): its when, its version,
// times and constants, and how a step fails. held says which of its
// items another transaction may hold, after "one of its items".
func (m *method) txTail(held string) string {
	return m.whenDoc() + m.managedDoc() + " A failed step gives a *TransactionError naming it; ErrTransactionConflict when another transaction held one of its items" + held + " at once, and changed nothing: retrying may succeed."
}

// queryWhat says what a query's page holds.
func (m *method) queryWhat() string {
	if !m.p.IsCollection() {
		return m.ent().GoName + " items"
	}
	var names []string
	for _, e := range m.p.Entities {
		names = append(names, e.GoName)
	}
	return "the items of " + strings.Join(names, ", ")
}

// allSummary is the first paragraph of the doc comment of a query's
// iterator.
func (m *method) allSummary() string {
	if m.p.IsCollection() {
		return fmt.Sprintf("%s walks every page of %s, one at a time (see dyngen.WalkPages).", m.p.AllMethod(), m.p.GoName)
	}
	return fmt.Sprintf("%s walks every %s of %s, a page at a time (see dyngen.Walk).", m.p.AllMethod(), m.itemType(), m.p.GoName)
}

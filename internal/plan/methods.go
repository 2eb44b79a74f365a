package plan

import "github.com/dyngen/dyngen/internal/model"

// Method is an exported Store method of a pattern: its name and its
// results as Go source (the generated package's types, and error).
type Method struct {
	Name string
	// Page is set on the method that takes the page of a query (the
	// pattern's own); its iterator takes none.
	Page    bool
	Results []string
	// Iter is set on the iterator of a query's pages (AllMethod): the
	// element of its iter.Seq2[Iter, error], which Results then holds
	// alone.
	Iter string
}

// ItemType is the Go type of one item the pattern reads: the entity's,
// or, with select, the view type of the attributes it reads.
func (pp *Pattern) ItemType() string {
	if p := pp.Pattern; len(p.Select) > 0 {
		return p.ViewType()
	}
	return pp.Pattern.Entity().GoName
}

// Methods are the exported Store methods of the pattern, with their
// results, decided by its form: the emitter prints them, and the lock
// records them as the package's surface.
func (pp *Pattern) Methods() []Method {
	p := pp.Pattern
	item := pp.ItemType()
	var results []string
	switch pp.Form {
	case FormGet, FormGetByQuery, FormFirst, FormLookup, FormCopyGet:
		results = []string{"*" + item, "error"}
	case FormPages, FormTransactGet:
		results = []string{"*" + p.ResultType(), "error"}
	case FormUpdate:
		results = []string{"*" + p.Entity().GoName, "error"}
	case FormBatchGet:
		results = []string{"[]" + item, "error"}
	case FormManyEach:
		results = []string{"error"}
		if p.Op == model.OpUpdate {
			results = []string{"[]*" + p.Entity().GoName, "error"}
		}
	default:
		results = []string{"error"}
	}
	out := []Method{{Name: p.GoName, Page: true, Results: results}}
	if pp.Form == FormPages {
		elem := item
		if p.IsCollection() {
			elem = "*" + p.ResultType()
		}
		out = append(out, Method{Name: p.AllMethod(), Iter: elem, Results: []string{"iter.Seq2[" + elem + ", error]"}})
	}
	return out
}

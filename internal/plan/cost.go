package plan

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/dyngen/dyngen/internal/model"
)

// Sizes assumed where the spec does not bound a value, in bytes. The
// estimates print them.
const (
	assumeString   = 32  // a string or path without maxLength
	assumeBytes    = 64  // a bytes value
	assumeList     = 4   // elements of a list, set or map
	assumeDocument = 256 // a document
	assumePage     = 25  // items in a query page without limit
)

// assumption is a size the estimates assume where the spec sets none.
type assumption int

const (
	assumedString assumption = iota
	assumedBytes
	assumedList
	assumedDocument
	assumedPage
)

var assumptionText = [...]string{
	assumedString:   fmt.Sprintf("a string or path without maxLength holds %d bytes", assumeString),
	assumedBytes:    fmt.Sprintf("a bytes value holds %d bytes", assumeBytes),
	assumedList:     fmt.Sprintf("a list, set or map holds %d elements", assumeList),
	assumedDocument: fmt.Sprintf("a document holds %d bytes", assumeDocument),
	assumedPage:     fmt.Sprintf("a query page without limit holds %d items", assumePage),
}

// sizer estimates item sizes the way DynamoDB counts them: attribute
// names plus values, in bytes.
type sizer struct {
	used [len(assumptionText)]bool // the assumptions an estimate relied on
	// items holds each entity's item size: a query's estimate adds those
	// of every entity it can read, which can be all of a table's.
	items map[*model.Entity]int
}

func newSizer() *sizer { return &sizer{items: map[*model.Entity]int{}} }

func (s *sizer) assume(a assumption) { s.used[a] = true }

// assumptions lists what the estimates assumed.
func (s *sizer) assumptions() []string {
	var out []string
	for a, text := range assumptionText {
		if s.used[a] {
			out = append(out, text)
		}
	}
	return append(out,
		"numbers take 8 bytes; optional attributes are present",
		"reads are eventually consistent (half the RCU) unless the pattern says consistent")
}

// value estimates the stored size of one attribute value.
func (s *sizer) value(a *model.Attribute) int {
	switch a.Type {
	case model.String, model.Path:
		if a.MaxLength > 0 {
			return a.MaxLength
		}
		s.assume(assumedString)
		return assumeString
	case model.Enum:
		n := 0
		for _, v := range a.Values {
			n = max(n, len(v))
		}
		return n
	case model.Int, model.Float:
		return 8
	case model.Bool:
		return 1
	case model.Time:
		switch a.DynamoType() {
		case "N":
			return 8
		}
		if a.Format == model.Date {
			return 10
		}
		return 30
	case model.Bytes:
		s.assume(assumedBytes)
		return assumeBytes
	case model.Strings, model.StringSet, model.Map:
		s.assume(assumedList)
		per := assumeString
		if a.Type == model.Map {
			per += 16
		}
		return 3 + assumeList*(per+1)
	case model.IntSet:
		s.assume(assumedList)
		return assumeList * 8
	case model.Document:
		s.assume(assumedDocument)
		return assumeDocument
	case model.Object, model.Objects:
		// Its fields' names and values, every optional one present.
		n := 3
		for _, f := range a.Of.Fields {
			n += len(f.Stored) + s.value(f) + 1
		}
		if a.Type == model.Objects {
			s.assume(assumedList)
			return 3 + assumeList*n
		}
		return n
	}
	return 8
}

// template estimates the size of a key built from a template.
func (s *sizer) template(t *model.Template) int {
	n := 0
	for _, seg := range t.Segments {
		if seg.Attr == nil {
			n += len(seg.Literal)
			continue
		}
		if b, ok := MaxEncodedBytes(seg.Attr); ok && seg.Attr.Type != model.String && seg.Attr.Type != model.Path {
			n += b
		} else {
			n += s.value(seg.Attr)
		}
	}
	return n
}

// item estimates the size of a whole item of e: its attributes, the
// entity attribute and every generic key attribute it writes.
func (s *sizer) item(e *model.Entity) int {
	if n, ok := s.items[e]; ok {
		return n
	}
	n := len(e.Table.EntityAttr) + len(e.TypeValue)
	for _, a := range e.Attributes {
		n += len(a.Stored) + s.value(a)
	}
	written := map[string]bool{}
	for _, k := range e.Keys {
		for i, tm := range k.AttrTemplates() {
			ka := k.Index.KeyAttrs()[i]
			if tm.Implied || written[ka.Name] {
				continue
			}
			written[ka.Name] = true
			n += len(ka.Name) + s.template(tm)
		}
	}
	s.items[e] = n
	return n
}

// projected estimates the size of e's item in ix: what the index carries
// of it, plus the 100 bytes DynamoDB adds per index entry.
func (s *sizer) projected(e *model.Entity, ix *model.Index) int {
	if ix.Projection == model.ProjectAll {
		return s.item(e) + 100
	}
	n := 100
	for _, k := range e.Keys {
		if k.Index != ix && k.Index != e.Table.Primary() {
			continue
		}
		for i, tm := range k.AttrTemplates() {
			ka := k.Index.KeyAttrs()[i]
			n += len(ka.Name) + s.template(tm)
		}
	}
	for _, a := range e.Attributes {
		if ix.Projection == model.ProjectInclude && slices.Contains(ix.Include, a.Stored) {
			n += len(a.Stored) + s.value(a)
		}
	}
	return n
}

// readUnits is the RCU of reading size bytes in one request.
func readUnits(size int, consistent bool) float64 {
	u := math.Ceil(float64(max(size, 1)) / 4096)
	if !consistent {
		u /= 2
	}
	return u
}

// writeUnits is the WCU of writing one item of size bytes.
func writeUnits(size int) float64 { return math.Ceil(float64(max(size, 1)) / 1024) }

// cost fills in the estimated capacity of one call of pp.
func (b *builder) cost(pp *Pattern) {
	p := pp.Pattern
	s := b.sizes
	e := p.Entity()
	size := func(e *model.Entity) int {
		if pp.Index.IsPrimary() {
			return s.item(e)
		}
		return s.projected(e, pp.Index)
	}
	switch pp.Call {
	case GetItem:
		pp.Cost.RCU = readUnits(size(e), p.Consistent)
		pp.Cost.Detail = fmt.Sprintf("one item of about %d bytes", size(e))
	case Query:
		items := p.Limit
		switch {
		case pp.Request.Limit > 0:
			items = pp.Request.Limit
		case items == 0:
			items = assumePage
			s.assume(assumedPage)
		}
		total := 0
		for _, m := range p.Entities {
			total += size(m)
		}
		per := total / len(p.Entities)
		bytes := items * per
		detail := fmt.Sprintf("%s of about %d bytes", plural(items, "item"), per)
		var extra []string
		for _, f := range pp.Foreign {
			extra = append(extra, f.Entity.Name)
			bytes += size(f.Entity)
		}
		if len(extra) > 0 {
			detail += fmt.Sprintf(", plus items of %s read and dropped", strings.Join(extra, ", "))
		}
		if len(p.Filter) > 0 {
			detail += ", plus the items the filter drops"
		}
		if x := pp.Request.Expiry; x != nil && p.Op != model.OpGet {
			detail += ", plus the expired items it leaves out"
		}
		pp.Cost.RCU = readUnits(bytes, p.Consistent)
		pp.Cost.Detail = detail
	case BatchGetItem:
		pp.Cost.RCU = readUnits(s.item(e), p.Consistent)
		pp.Cost.Detail = fmt.Sprintf("per item of about %d bytes", s.item(e))
	case PutItem, DeleteItem, BatchWriteItem:
		w := b.writeAmp(e)
		pp.Cost.WCU = w.Total
		per := ""
		if pp.Call == BatchWriteItem {
			per = "per item: "
		}
		pp.Cost.Detail = per + ampDetail(w)
	case UpdateItem:
		pp.Cost.WCU, pp.Cost.Detail = b.updateCost(pp)
	case ConditionCheck:
		pp.Cost.WCU = writeUnits(s.item(e))
		pp.Cost.Detail = fmt.Sprintf("a condition on one item of about %d bytes", s.item(e))
	}
}

// updateCost counts an update: the item on the table, plus each index
// whose key it rewrites (a delete and a put there) or whose projected
// attributes it changes.
func (b *builder) updateCost(pp *Pattern) (float64, string) {
	p := pp.Pattern
	e := p.Entity()
	if p.Op == model.OpPut {
		// A put sent as an UpdateItem writes the whole item.
		w := b.writeAmp(e)
		return w.Total, ampDetail(w)
	}
	s := b.sizes
	total := writeUnits(s.item(e))
	parts := []string{fmt.Sprintf("table %g", total)}
	changed := append(append(append(p.SetAttrs(), p.AddAttrs()...), p.Remove...), p.RemoveFrom...)
	// What every update writes besides: the version, the updated time.
	for _, a := range []*model.Attribute{e.Version, e.Updated} {
		if a != nil {
			changed = append(changed, a)
		}
	}
	for _, k := range e.Keys[1:] {
		ix := k.Index
		rewrites := slices.ContainsFunc(pp.Rebuild, func(r *Rebuild) bool { return r.Index == ix })
		for _, a := range changed {
			if ix.IsKeyAttr(a.Stored) {
				rewrites = true
			}
		}
		touches := slices.ContainsFunc(changed, func(a *model.Attribute) bool { return ix.Projects(a.Stored) })
		var w float64
		switch {
		case rewrites:
			w = 2 * writeUnits(s.projected(e, ix))
		case touches:
			w = writeUnits(s.projected(e, ix))
		}
		if w > 0 {
			total += w
			parts = append(parts, fmt.Sprintf("%s %g", ix.Name, w))
		}
	}
	return total, strings.Join(parts, " + ")
}

func ampDetail(w *WriteAmp) string {
	parts := []string{fmt.Sprintf("table %g", w.Table)}
	for _, iw := range w.Index {
		parts = append(parts, fmt.Sprintf("%s %g", iw.Index.Name, iw.WCU))
	}
	return strings.Join(parts, " + ")
}

// writeAmp is what one write of a whole item of e costs.
func (b *builder) writeAmp(e *model.Entity) *WriteAmp {
	w := &WriteAmp{Entity: e, Table: writeUnits(b.sizes.item(e))}
	w.Total = w.Table
	for _, k := range e.Keys[1:] {
		u := writeUnits(b.sizes.projected(e, k.Index))
		w.Index = append(w.Index, IndexWrites{Index: k.Index, WCU: u})
		w.Total += u
	}
	return w
}

func (b *builder) writeAmps() []*WriteAmp {
	var out []*WriteAmp
	for _, e := range b.m.Entities {
		if e.Table == nil || len(e.Keys) == 0 {
			continue
		}
		out = append(out, b.writeAmp(e))
	}
	return out
}

// indexUse warns about secondary indexes no pattern reads, and about an
// index that projects all attributes when its patterns need fewer.
func (b *builder) indexUse(p *Plan) {
	for _, t := range b.m.Tables {
		for _, ix := range t.Indexes[1:] {
			var readers []*Pattern
			for _, pp := range p.Patterns {
				if pp.Index == ix {
					readers = append(readers, pp)
				}
			}
			if len(readers) == 0 {
				b.diags.Warnf(ix.Pos, "no pattern reads index %s: every write of its entities still pays for it; remove it, or add the pattern it is for", ix.Name)
				continue
			}
			if ix.Projection != model.ProjectAll {
				continue
			}
			need := map[string]bool{}
			all := map[string]bool{}
			for _, e := range t.Entities {
				if e.Key(ix) == nil {
					continue
				}
				for _, a := range e.Attributes {
					if !ix.Projects(a.Stored) || !isKeyOf(ix, a.Stored) {
						all[a.Stored] = true
					}
				}
			}
			for _, pp := range readers {
				for _, e := range pp.Pattern.Entities {
					attrs := e.Attributes
					if len(pp.Pattern.Select) > 0 {
						attrs = pp.Pattern.Select
					}
					for _, a := range attrs {
						need[a.Stored] = true
					}
				}
			}
			if len(need) < len(all) {
				// The list leaves out what an INCLUDE projection gets
				// anyway: the attributes of the entities' key templates.
				// When the patterns read only those (and key
				// attributes), the list names those they read: an
				// INCLUDE list is never empty.
				var names []string
				for _, templated := range []bool{false, true} {
					for _, e := range t.Entities {
						if e.Key(ix) == nil {
							continue
						}
						for _, a := range e.Attributes {
							if need[a.Stored] && !slices.Contains(names, a.Stored) && !isKeyOf(ix, a.Stored) && inKeys(e, ix, a) == templated {
								names = append(names, a.Stored)
							}
						}
					}
					if len(names) > 0 {
						break
					}
				}
				if len(names) == 0 {
					// They read key attributes alone: no INCLUDE list
					// says so, and whether keys would serve them is the
					// planner's to prove, not this warning's.
					continue
				}
				b.diags.Warnf(ix.Pos, "index %s projects all attributes, but its patterns read only %s; projection: [%s] would cut its storage and write cost", ix.Name, strings.Join(names, ", "), strings.Join(names, ", "))
			}
		}
	}
}

func isKeyOf(ix *model.Index, stored string) bool {
	for _, k := range ix.KeyAttrs() {
		if k.Name == stored {
			return true
		}
	}
	return ix.Table.IsKeyAttr(stored)
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

package plan

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"

	"github.com/dyngen/dyngen/internal/model"
)

// The event filters of a consumer's Lambda event source mapping. Lambda
// hands the function only the records that match one of the mapping's
// filters (the others are dropped, and the mapping reads on): each
// filter is a pattern of Lambda's event filtering, a JSON object whose
// fields the record must match, every field (AND), each field by one of
// its values (OR). Lambda's guide says a DynamoDB source's mappings
// filter on the record's dynamodb field alone, whose Keys every record
// holds, whatever the view type, as typed attribute values: {"S":
// "CUSTOMER#1"}. (A record's eventName is not filtered on: a filter
// that Lambda did not apply as written could drop records the consumer
// handles; the dispatch skips the operations it does not handle.) So a
// filter per entity the consumer handles lets through its keys' literal
// text:
//
//	{"dynamodb":{"Keys":{"PK":{"S":[{"prefix":"CUSTOMER#"}]},"SK":{"S":["PROFILE"]}}}}
//
// A key attribute whose template is literal text alone matches that
// value; one whose template starts with literal text matches its prefix
// ({"prefix": ...}); one whose template starts with a placeholder, or
// that is no string, is left out of the pattern: every value passes.
// (Lambda developer guide, "Control which events Lambda sends to your
// function" and "Using event filtering with a DynamoDB event source".)
//
// A filter lets through a superset of the entity's records: the keys of
// another entity's item may match it (the collision check proves two
// entities' keys apart, not their prefixes). That is sound: the
// consumer's dispatch reads each record's entity from its keys and
// skips the records it does not handle. A filter that let through fewer
// records than the consumer handles would lose changes, and never is
// written.

// MaxFilters is how many filters an event source mapping takes by
// default (Lambda's quota; a quota increase takes it to 10), and
// MaxFilterPattern the longest pattern a filter takes, in characters
// (Lambda API reference, Filter). A pattern is counted in bytes here,
// which are never fewer than its characters.
const (
	MaxFilters       = 5
	MaxFilterPattern = 4096
)

// Filter is one filter of a consumer's event source mapping.
type Filter struct {
	// Pattern is the filter pattern, compact JSON with its fields in a
	// fixed order (keys sorted, values in order).
	Pattern string
	// Entities are the entities whose changes the consumer handles and
	// the filter lets through, in spec order.
	Entities []*model.Entity
}

// filterValue is a value of a key attribute a filter lets through: a
// string, or every string with its prefix.
type filterValue struct {
	text   string
	prefix bool
}

// MarshalJSON writes v as the pattern holds it: "PROFILE", or
// {"prefix":"CUSTOMER#"}.
func (v filterValue) MarshalJSON() ([]byte, error) {
	if v.prefix {
		return marshalPattern(map[string]string{"prefix": v.text})
	}
	return marshalPattern(v.text)
}

// covers reports whether every string v lets through w lets through
// too.
func (w filterValue) covers(v filterValue) bool {
	if !w.prefix {
		return !v.prefix && v.text == w.text
	}
	return strings.HasPrefix(v.text, w.text)
}

// filterPattern is a filter before it is written: the operations it
// lets through (nil for all three), and per key attribute by name the
// values it lets through (an attribute it does not name lets any value
// through).
type filterPattern struct {
	keys     map[string][]filterValue
	entities []*model.Entity
}

// matchesAll reports whether p lets every record through.
func (p *filterPattern) matchesAll() bool { return len(p.keys) == 0 }

// json writes p as its filter's pattern.
func (p *filterPattern) json() string {
	doc := map[string]any{}
	if len(p.keys) > 0 {
		keys := map[string]any{}
		for name, vs := range p.keys {
			keys[name] = map[string]any{"S": vs}
		}
		doc["dynamodb"] = map[string]any{"Keys": keys}
	}
	data, err := marshalPattern(doc)
	if err != nil {
		panic(err) // strings, maps and slices only
	}
	return string(data)
}

// marshalPattern is v as compact JSON, without the HTML escapes of
// encoding/json: maps by their keys in order.
func marshalPattern(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// entityFilter is the filter of the changes c handles of entity e, whose
// item's keys are it's.
func entityFilter(c *model.Consumer, it *StreamItem) *filterPattern {
	p := &filterPattern{keys: map[string][]filterValue{}, entities: []*model.Entity{it.Entity}}
	for _, k := range it.Keys {
		if k.Attr.Type != model.S {
			continue
		}
		switch tm := k.Template; {
		case tm.IsLiteral(k.Attr):
			var text strings.Builder
			for _, seg := range tm.Segments {
				text.WriteString(seg.Literal)
			}
			p.keys[k.Attr.Name] = []filterValue{{text: text.String()}}
		case tm.LiteralPrefix() != "":
			p.keys[k.Attr.Name] = []filterValue{{text: tm.LiteralPrefix(), prefix: true}}
		}
	}
	return p
}

// mergeFilters is one pattern that lets through every record a or b
// does: for a key attribute both name, the
// values of either; a key attribute one of them does not name is left
// out. It lets through more than a and b together when they differ in
// more than one field.
func mergeFilters(a, b *filterPattern) *filterPattern {
	out := &filterPattern{keys: map[string][]filterValue{}, entities: append(slices.Clip(a.entities), b.entities...)}
	for name, vs := range a.keys {
		if ws, ok := b.keys[name]; ok {
			out.keys[name] = unionValues(vs, ws)
		}
	}
	return out
}

// unionValues are the values of vs and ws (simplifyValues); when some
// are strings and some prefixes, the strings become prefixes too,
// which let them through with more: Lambda's documentation shows a
// rule of values, or of one comparison, never the two in one list.
func unionValues(vs, ws []filterValue) []filterValue {
	all := append(slices.Clip(vs), ws...)
	if slices.ContainsFunc(all, func(v filterValue) bool { return v.prefix }) {
		for i := range all {
			all[i].prefix = true
		}
	}
	return simplifyValues(all)
}

// simplifyValues is vs without a value another covers, sorted.
func simplifyValues(vs []filterValue) []filterValue {
	var out []filterValue
	for i, v := range vs {
		covered := slices.ContainsFunc(vs, func(w filterValue) bool { return w != v && w.covers(v) }) ||
			slices.Index(vs, v) < i // a duplicate
		if !covered {
			out = append(out, v)
		}
	}
	slices.SortFunc(out, func(a, b filterValue) int {
		if c := strings.Compare(a.text, b.text); c != 0 {
			return c
		}
		if a.prefix == b.prefix {
			return 0
		}
		if a.prefix {
			return 1
		}
		return -1
	})
	return out
}

// mergeCost is what merging a and b gives up: a point per field whose
// values differ (their union lets through more than either), two per
// key attribute one of them does not name (the merge names it no more).
func mergeCost(a, b *filterPattern) int {
	cost := 0
	for name, vs := range a.keys {
		ws, ok := b.keys[name]
		switch {
		case !ok:
			cost += 2
		case !slices.Equal(unionValues(vs, nil), unionValues(ws, nil)):
			cost++
		}
	}
	for name := range b.keys {
		if _, ok := a.keys[name]; !ok {
			cost += 2
		}
	}
	return cost
}

// fitPattern leaves out of p's pattern, while it is longer than
// MaxFilterPattern, the key attribute whose values take the most room
// (the first by name of those that take as much): p then lets through
// more, never less.
func fitPattern(p *filterPattern) {
	for len(p.json()) > MaxFilterPattern && len(p.keys) > 0 {
		var widest string
		size := -1
		for _, name := range sortedNames(p.keys) {
			data, _ := marshalPattern(p.keys[name])
			if n := len(name) + len(data); n > size {
				widest, size = name, n
			}
		}
		delete(p.keys, widest)
	}
}

// sortedNames are the key attribute names of keys, sorted.
func sortedNames(keys map[string][]filterValue) []string {
	var out []string
	for name := range keys {
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}

// filterConsumers plans the filters of the event source mapping of each
// consumer of stream s with lambda: (Consumer.Filters): a filter per
// entity it handles (entityFilter), those of one pattern written once;
// when they are more than MaxFilters, the two whose merge gives up least
// (mergeCost; of those that give up as little, the one of the shortest
// pattern, the first pair in spec order of those) merged into one, until
// they are few enough (FiltersMerged). A consumer whose filters would
// let every record through gets none.
func filterConsumers(s *Stream) {
	for _, pc := range s.Consumers {
		c := pc.Consumer
		if c.Lambda == nil {
			continue
		}
		var ps []*filterPattern
		for _, e := range c.Entities() {
			i := slices.IndexFunc(s.Items, func(it *StreamItem) bool { return it.Entity == e })
			if i < 0 {
				// An entity the stream knows no item of: any record may be
				// its.
				ps = []*filterPattern{{}}
				break
			}
			p := entityFilter(c, s.Items[i])
			fitPattern(p)
			if j := slices.IndexFunc(ps, func(q *filterPattern) bool { return q.json() == p.json() }); j >= 0 {
				ps[j].entities = append(ps[j].entities, e)
				continue
			}
			ps = append(ps, p)
		}
		for len(ps) > MaxFilters {
			var best *filterPattern
			bi, bj, bestCost, bestSize := 0, 0, 0, 0
			for i := range ps {
				for j := i + 1; j < len(ps); j++ {
					cost := mergeCost(ps[i], ps[j])
					if best != nil && cost > bestCost {
						continue
					}
					m := mergeFilters(ps[i], ps[j])
					fitPattern(m)
					if size := len(m.json()); best == nil || cost < bestCost || size < bestSize {
						best, bi, bj, bestCost, bestSize = m, i, j, cost, size
					}
				}
			}
			ps[bi] = best
			ps = slices.Delete(ps, bj, bj+1)
			pc.FiltersMerged = true
		}
		if slices.ContainsFunc(ps, (*filterPattern).matchesAll) {
			continue
		}
		order := c.Entities()
		for _, p := range ps {
			slices.SortStableFunc(p.entities, func(a, b *model.Entity) int { return slices.Index(order, a) - slices.Index(order, b) })
			pc.Filters = append(pc.Filters, &Filter{Pattern: p.json(), Entities: p.entities})
		}
	}
}

// Consumer returns the plan of consumer c's reading of its table's
// stream, or nil.
func (p *Plan) Consumer(c *model.Consumer) *Consumer {
	if s := p.Stream(c.Table); s != nil {
		for _, pc := range s.Consumers {
			if pc.Consumer == c {
				return pc
			}
		}
	}
	return nil
}

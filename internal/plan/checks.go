package plan

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/dyngen/dyngen/internal/diag"
	"github.com/dyngen/dyngen/internal/keylang"
	"github.com/dyngen/dyngen/internal/model"
)

// DynamoDB's key size limits, in bytes of UTF-8.
const (
	MaxPartitionKeyBytes = 2048
	MaxSortKeyBytes      = 1024
)

// checkModel runs the whole-model checks: key collisions between entities,
// key sizes, hot partitions and the Go names of the generated package.
func checkModel(m *model.Model, langs *langs, diags *diag.List) {
	for _, t := range m.Tables {
		for _, ix := range t.Indexes {
			collisions(ix, langs, diags)
		}
	}
	for _, e := range m.Entities {
		for _, k := range e.Keys {
			keySizes(e, k, diags)
			if k.PK.IsConstant() {
				diags.Warnf(k.PK.Pos, "every %s item has partition key %s=%q on %s: one hot partition, limited to what one partition serves (3,000 reads and 1,000 writes a second); add a placeholder to spread the items", e.Name, k.Index.PK.Name, k.PK.Source, indexName(k.Index))
			}
		}
	}
	generatedNames(m, diags)
}

func indexName(ix *model.Index) string {
	if ix.IsPrimary() {
		return "table " + ix.Table.Name
	}
	return "index " + ix.Name
}

// keyOf converts an entity's key on an index to its key language form.
func keyOf(k *model.EntityKey) keylang.Key {
	key := keylang.Key{PK: keyTemplate(k.PK)}
	if k.SK != nil {
		sk := keyTemplate(k.SK)
		key.SK = &sk
	}
	return key
}

// collisions reports every pair of entities of ix whose keys can be equal.
// An index made only of the table's key attributes repeats the table's
// verdicts, so it is skipped.
//
// Every pair is looked at, so what sets most pairs apart is worked out
// once per entity: the literal texts its templates start with, then their
// languages. Keys whose partition keys or sort keys have no string in
// common are told apart without keylang.Collide's search, which is what
// Collide answers for them when the keys follow the rules of
// keylang.Key.Validate (otherwise Collide decides, as it may answer
// Undecided).
func collisions(ix *model.Index, langs *langs, diags *diag.List) {
	if ix.Inverted {
		return
	}
	type keyed struct {
		e              *model.Entity
		k              *model.EntityKey
		pkLead, skLead string
		pk, sk         int  // language numbers, when valid
		valid          bool // the key follows the rules of Validate
		prepared       *keylang.Prepared
	}
	var in []keyed
	for _, e := range ix.Table.Entities {
		if k := e.Key(ix); k != nil {
			o := keyed{e: e, k: k, pkLead: k.PK.LiteralPrefix(), pk: -1, sk: -1}
			if k.SK != nil {
				o.skLead = k.SK.LiteralPrefix()
			}
			in = append(in, o)
		}
	}
	// prepare works out what the pairs of x need beyond the literal texts,
	// once.
	prepare := func(x *keyed) {
		if x.prepared != nil {
			return
		}
		key := keyOf(x.k)
		x.prepared = keylang.Prepare(key)
		if x.valid = key.Validate() == nil; x.valid {
			x.pk = langs.template(x.k.PK)
			if x.k.SK != nil {
				x.sk = langs.template(x.k.SK)
			}
		}
	}
	// apart reports whether two languages have no string in common. The
	// verdicts are kept: a get through the table's key asks the same of
	// its sort key and the others' (foreignEntities).
	apart := func(a, b int) bool {
		return a >= 0 && b >= 0 && !langs.overlaps(a, b)
	}
	for i := range in {
		for j := i + 1; j < len(in); j++ {
			x, y := &in[i], &in[j]
			if diverge(x.pkLead, y.pkLead) || diverge(x.skLead, y.skLead) {
				continue
			}
			prepare(x)
			prepare(y)
			if x.valid && y.valid && (apart(x.pk, y.pk) || apart(x.sk, y.sk)) {
				continue
			}
			a, b, ka, kb := x.e, y.e, x.k, y.k
			verdict, w := keylang.CollidePrepared(x.prepared, y.prepared, keylang.DefaultBudget)
			switch verdict {
			case keylang.Collision:
				diags.Errorf(kb.Pos, "%s and %s can have the same key on %s: %s (%s) and %s (%s) both give %s%s; give each entity a literal prefix of its own that the other's values can't produce, e.g. %s",
					a.Name, b.Name, indexName(ix), describeKey(ka), a.Name, describeKey(kb), b.Name, witnessKey(ix, w), witnessValues(a, b, w), suggestPrefixes(a, ka, b, kb))
			case keylang.Undecided:
				diags.Warnf(kb.Pos, "could not decide whether %s and %s can have the same key on %s (%s and %s)", a.Name, b.Name, indexName(ix), describeKey(ka), describeKey(kb))
			}
		}
	}
}

func describeKey(k *model.EntityKey) string {
	s := k.Index.PK.Name + "=" + quoteTemplate(k.PK, len(k.PK.Segments), "")
	if k.SK != nil {
		s += " " + k.Index.SK.Name + "=" + quoteTemplate(k.SK, len(k.SK.Segments), "")
	}
	return s
}

func witnessKey(ix *model.Index, w *keylang.Witness) string {
	if w == nil {
		return "one key"
	}
	s := ix.PK.Name + "=" + keyValue(ix.PK, w.PK)
	if ix.SK != nil {
		s += " " + ix.SK.Name + "=" + keyValue(ix.SK, w.SK)
	}
	return s
}

// keyValue shows a key value of a witness: a number key as the number.
func keyValue(ka *model.KeyAttr, v string) string {
	if ka.Type == model.N {
		if n, err := keylang.DecodeInt(v); err == nil {
			return fmt.Sprint(n)
		}
	}
	return strconv.Quote(v)
}

func witnessValues(a, b *model.Entity, w *keylang.Witness) string {
	if w == nil {
		return ""
	}
	side := func(e *model.Entity, vals map[string]string) string {
		names := make([]string, 0, len(vals))
		for n := range vals {
			names = append(names, n)
		}
		sort.Strings(names)
		var parts []string
		for _, n := range names {
			parts = append(parts, fmt.Sprintf("%s=%q", n, vals[n]))
		}
		if len(parts) == 0 {
			return e.Name + " always"
		}
		return e.Name + " " + strings.Join(parts, ", ")
	}
	return fmt.Sprintf(" for %s and %s", side(a, w.A), side(b, w.B))
}

// suggestPrefixes proposes a partition key template (the sort key's when
// the partition key is constant or not a string) that starts with the
// entity's name, for each entity whose template has no literal start of
// its own: a template that starts with a placeholder can take the form of
// any key. An entity whose literal start already differs from the other's
// new one keeps its template.
func suggestPrefixes(a *model.Entity, ka *model.EntityKey, b *model.Entity, kb *model.EntityKey) string {
	pick := func(k *model.EntityKey) *model.Template {
		tm := k.PK
		if (tm.IsConstant() || tm.KeyType != model.S) && k.SK != nil {
			tm = k.SK
		}
		if tm.KeyType != model.S {
			return nil
		}
		return tm
	}
	ta, tb := pick(ka), pick(kb)
	if ta == nil || tb == nil {
		return "a sort key prefix of its own for each"
	}
	pa, pb := ta.LiteralPrefix(), tb.LiteralPrefix()
	common := commonString(pa, pb)
	newA, newB := strings.ToUpper(a.Name)+"#", strings.ToUpper(b.Name)+"#"
	diverge := func(x, y string) bool { return !strings.HasPrefix(x, y) && !strings.HasPrefix(y, x) }
	rename := func(e *model.Entity, tm *model.Template, prefix string) string {
		return fmt.Sprintf("%q for %s", prefix+strings.TrimPrefix(tm.Source, common), e.Name)
	}
	switch {
	case pa != common && diverge(pa, newB):
		return rename(b, tb, newB)
	case pb != common && diverge(pb, newA):
		return rename(a, ta, newA)
	}
	return rename(a, ta, newA) + " and " + rename(b, tb, newB)
}

// keySizes checks each template whose placeholders all have a bounded
// size against DynamoDB's key size limits.
func keySizes(e *model.Entity, k *model.EntityKey, diags *diag.List) {
	check := func(tm *model.Template, ka *model.KeyAttr, limit int) {
		if tm == nil || tm.KeyType != model.S || tm.Implied && k.Index.Kind != model.Primary {
			return
		}
		if size, ok := MaxKeyBytes(tm); ok && size > limit {
			diags.Errorf(tm.Pos, "%s=%q of %s on %s can be %d bytes long with the attributes' declared maxLength (4 bytes per character at most); DynamoDB allows %d: lower maxLength", ka.Name, tm.Source, e.Name, indexName(k.Index), size, limit)
		}
	}
	check(k.PK, k.Index.PK, MaxPartitionKeyBytes)
	if k.Index.SK != nil {
		check(k.SK, k.Index.SK, MaxSortKeyBytes)
	}
}

// MaxKeyBytes is the most bytes a string key built from tm can take, or
// false when a placeholder of tm is unbounded.
func MaxKeyBytes(tm *model.Template) (int, bool) {
	size := 0
	for _, s := range tm.Segments {
		if s.Attr == nil {
			size += len(s.Literal)
			continue
		}
		n, ok := MaxEncodedBytes(s.Attr)
		if !ok {
			return 0, false
		}
		size += n
	}
	return size, true
}

// MaxEncodedBytes is the most UTF-8 bytes a placeholder can take in a key,
// or false when it is unbounded.
func MaxEncodedBytes(a *model.Attribute) (int, bool) {
	switch a.Type {
	case model.String, model.Path:
		if a.MaxLength == 0 {
			return 0, false
		}
		return a.MaxLength * utf8.UTFMax, true
	case model.Enum:
		n := 0
		for _, v := range a.Values {
			n = max(n, len(v))
		}
		return n, true
	case model.Int:
		return 20, true
	case model.Bool:
		return 5, true
	case model.Time:
		switch a.Format {
		case model.Date:
			return 10, true
		case model.Unix, model.UnixMilli:
			return 20, true
		}
		return 30, true
	}
	return 0, false
}

// generatedNames refuses two declarations of the generated package with
// one name, and names that clash with the package's fixed identifiers.
func generatedNames(m *model.Model, diags *diag.List) {
	seen := map[string]model.GenName{}
	for _, n := range m.GeneratedNames() {
		if slices.Contains(model.FixedNames, n.Name) {
			diags.Errorf(n.Pos, "%s gives the Go name %s, which the generated package declares itself; %s", n.From, n.Name, renameHint(n))
			continue
		}
		if first, dup := seen[n.Name]; dup {
			diags.Errorf(n.Pos, "%s and %s both give the Go name %s; %s", first.From, n.From, n.Name, renameHint(n))
			continue
		}
		seen[n.Name] = n
	}
	// The fields of a collection read's result: one per entity, plural.
	for _, p := range m.Patterns {
		if !p.IsCollection() {
			continue
		}
		fields := map[string]*model.Entity{"Next": nil}
		for _, e := range p.Entities {
			f := e.PluralName()
			if other, dup := fields[f]; dup {
				what := "the result's Next field"
				if other != nil {
					what = "entity " + other.Name
				}
				diags.Errorf(p.Pos, "pattern %s reads %s and %s, which both give the result field %s; set go: on entity %s", p.Name, e.Name, what, f, e.Name)
				continue
			}
			fields[f] = e
		}
	}
	methods := map[string]model.GenName{}
	for _, n := range m.StoreMethods() {
		if first, dup := methods[n.Name]; dup {
			diags.Errorf(n.Pos, "%s and %s both give the Store method %s; rename one", first.From, n.From, n.Name)
			continue
		}
		methods[n.Name] = n
	}
}

// renameHint says how to give a generated name another value.
func renameHint(n model.GenName) string {
	if strings.HasPrefix(n.From, "entity ") {
		return fmt.Sprintf("set go: on the entity, e.g. go: %sItem", n.Name)
	}
	return "rename it"
}

package plan

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
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
// key sizes, hot partitions and the Go names of the generated package. It
// returns the set of the package's unexported names (Plan.PackageNames).
func checkModel(m *model.Model, langs *langs, diags *diag.List) map[string]bool {
	for _, t := range m.Tables {
		for _, ix := range t.Indexes {
			collisions(ix, langs, diags)
		}
		unusedTTL(m, t, diags)
	}
	for _, e := range m.Entities {
		for _, k := range e.Keys {
			keySizes(e, k, diags)
			if c := e.CountOf; c != nil {
				// Once, on the table: an index holding the counter
				// has its one item too.
				if !k.Index.IsPrimary() || !k.PK.IsConstant() {
					continue
				}
				diags.Warnf(k.PK.Pos, "count %s of %s has no per: every write of a %s adds to its one counter item, %s=%q on %s, which serves at most 1,000 writes a second, and transactions that write it at once conflict (ErrTransactionConflict); count per attributes of the primary key to spread them", c.Name, c.Owner.Name, c.Owner.Name, k.Index.PK.Name, k.PK.Source, indexName(k.Index))
			} else if k.PK.IsConstant() {
				diags.Warnf(k.PK.Pos, "every %s item has partition key %s=%q on %s: one hot partition, limited to what one partition serves (3,000 reads and 1,000 writes a second); add a placeholder to spread the items", e.Name, k.Index.PK.Name, k.PK.Source, indexName(k.Index))
			}
		}
	}
	return generatedNames(m, diags)
}

// unusedTTL warns of a table's ttl that no entity of the table stores:
// DynamoDB would expire nothing.
func unusedTTL(m *model.Model, t *model.Table, diags *diag.List) {
	if t.TTL == "" || diags.HasErrors() {
		// With errors, an entity that stores it may have been left out.
		return
	}
	for _, e := range m.Entities {
		if e.Table == t && slices.ContainsFunc(e.Attributes, func(a *model.Attribute) bool { return a.Stored == t.TTL }) {
			return
		}
	}
	diags.Warnf(t.TTLPos, "ttl %s of table %s is stored by no entity, so no item expires; add a time attribute named %s to the entities that expire, or remove ttl", t.TTL, t.Name, t.TTL)
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
	if ix.Multi() {
		multiCollisions(ix, langs, diags)
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
				diags.Errorf(kb.Pos, "%s and %s can have the same key on %s: %s (%s) and %s (%s) both give %s%s%s; %s",
					a.Name, b.Name, indexName(ix), describeKey(ka), a.Name, describeKey(kb), b.Name, witnessKey(ix, w), witnessValues(a, b, w), derivedNote(a, ka, b, kb), collisionFix(ix, a, ka, b, kb))
			case keylang.Undecided:
				diags.Warnf(kb.Pos, "could not decide whether %s and %s can have the same key on %s (%s and %s)", a.Name, b.Name, indexName(ix), describeKey(ka), describeKey(kb))
			}
		}
	}
}

// multiCollisions reports every pair of entities of ix, an index with a
// multi-attribute key, whose keys can be equal: DynamoDB compares each
// key attribute on its own, so two keys are apart exactly when some key
// attribute's values of one entity can never be the other's (a type value
// of its own, enum values the other can't hold).
func multiCollisions(ix *model.Index, langs *langs, diags *diag.List) {
	type keyed struct {
		e *model.Entity
		k *model.EntityKey
	}
	var in []keyed
	for _, e := range ix.Table.Entities {
		if k := e.Key(ix); k != nil {
			in = append(in, keyed{e, k})
		}
	}
	for i, x := range in {
		for _, y := range in[i+1:] {
			if !partsOverlap(langs, x.k.Parts, y.k.Parts) {
				continue
			}
			diags.Errorf(y.k.Pos, "%s and %s can have the same key on index %s: %s (%s) and %s (%s) can hold the same values in every key attribute (%s)%s; %s",
				x.e.Name, y.e.Name, ix.Name, describeKey(x.k), x.e.Name, describeKey(y.k), y.e.Name, keyAttrNames(ix), multiNote(x.e, x.k, y.e, y.k), multiFix(ix))
		}
	}
}

// keyAttrsSpec writes key attributes as a spec lists them: a name for a
// string key attribute, {name, type} for the others:
// [_type, round, {name: score, type: N}].
func keyAttrsSpec(kas []*model.KeyAttr) string {
	parts := make([]string, len(kas))
	for i, ka := range kas {
		parts[i] = ka.Name
		if ka.Type != model.S {
			parts[i] = fmt.Sprintf("{name: %s, type: %s}", ka.Name, ka.Type)
		}
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// partsOverlap reports whether two keys of a multi-attribute key can hold
// the same values in every key attribute.
func partsOverlap(langs *langs, a, b []*model.Template) bool {
	for i := range a {
		if !langs.overlaps(langs.template(a[i]), langs.template(b[i])) {
			return false
		}
	}
	return true
}

// multiNote says why an entity that does not name an index with a
// multi-attribute key is in it.
func multiNote(a *model.Entity, ka *model.EntityKey, b *model.Entity, kb *model.EntityKey) string {
	var notes []string
	for _, x := range []struct {
		e *model.Entity
		k *model.EntityKey
	}{{a, ka}, {b, kb}} {
		if x.k.Unnamed {
			notes = append(notes, fmt.Sprintf("%s does not name %s, but its items hold every key attribute of it, and DynamoDB puts an item in every index whose key attributes it holds", x.e.Name, x.k.Index.Name))
		}
	}
	if len(notes) == 0 {
		return ""
	}
	return " (" + strings.Join(notes, "; ") + ")"
}

// multiFix proposes how to set entities apart on ix, an index with a
// multi-attribute key.
func multiFix(ix *model.Index) string {
	t := ix.Table
	if !slices.ContainsFunc(ix.KeyAttrs(), func(ka *model.KeyAttr) bool { return ka.Name == t.EntityAttr }) && len(ix.SortKeys()) < model.MaxKeyParts {
		sk := append([]*model.KeyAttr{{Name: t.EntityAttr, Type: model.S}}, ix.SortKeys()...)
		return fmt.Sprintf("add the entity attribute %s to the sort key of %s (sortKey: %s), so that each entity's items have keys of their own, or rename one entity's attributes with attr: so that it is not in the index", t.EntityAttr, ix.Name, keyAttrsSpec(sk))
	}
	return "give one entity a key attribute whose values the other's can't be (an enum of its own), or rename one entity's attributes with attr: so that it is not in the index"
}

// derivedNote says why an entity whose key on the index is derived is in
// it at all: it does not name the index, but its item holds the index's
// key attributes, written for other indexes.
func derivedNote(a *model.Entity, ka *model.EntityKey, b *model.Entity, kb *model.EntityKey) string {
	var notes []string
	for _, x := range []struct {
		e *model.Entity
		k *model.EntityKey
	}{{a, ka}, {b, kb}} {
		if x.k.Derived() {
			notes = append(notes, fmt.Sprintf("%s does not name %s, but its items hold %s, written for %s, and DynamoDB puts an item in every index whose key attributes it holds", x.e.Name, x.k.Index.Name, keyAttrNames(x.k.Index), x.k.ViaNames()))
		}
	}
	if len(notes) == 0 {
		return ""
	}
	return " (" + strings.Join(notes, "; ") + ")"
}

// keyAttrNames lists an index's key attribute names: "G2PK and G2SK".
func keyAttrNames(ix *model.Index) string {
	var names []string
	for _, ka := range ix.KeyAttrs() {
		names = append(names, ka.Name)
	}
	return strings.Join(names, " and ")
}

func describeKey(k *model.EntityKey) string {
	if k.Parts != nil {
		return k.DescribeParts()
	}
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

// collisionFix proposes the smallest change of templates that sets a and b
// apart on ix: one entity's sort key, else one's partition key, else both
// sort keys, else both partition keys. The sort key comes first because a
// new sort key keeps every item in its partition: an item collection stays
// whole; a partition key another entity shares is never changed. A changed template starts with the entity's name in capitals in
// place of the literal text the two share ("ROOT" becomes "INVOICE",
// "ITEM#{sku}" "PRODUCT#{sku}"), and is proposed only when it sets the two
// apart without another collision.
func collisionFix(ix *model.Index, a *model.Entity, ka *model.EntityKey, b *model.Entity, kb *model.EntityKey) string {
	type part struct {
		attr   *model.KeyAttr
		ta, tb *model.Template
		name   string
	}
	var parts []part
	if ix.SK != nil {
		parts = append(parts, part{ix.SK, ka.SK, kb.SK, "sort"})
	}
	parts = append(parts, part{ix.PK, ka.PK, kb.PK, "partition"})
	pair := []*model.Entity{a, b}
	for _, both := range []bool{false, true} {
		for _, pt := range parts {
			common := commonString(pt.ta.LiteralPrefix(), pt.tb.LiteralPrefix())
			ca, okA := renamed(a, ix, pt.attr, pt.ta, common)
			cb, okB := renamed(b, ix, pt.attr, pt.tb, common)
			if pt.attr == ix.PK {
				// A partition key shared with another entity holds an item
				// collection: the entity stays in it.
				okA = okA && !sharesPartition(a, ix)
				okB = okB && !sharesPartition(b, ix)
			}
			// The key of a claim is the model's, not the spec's; a derived
			// key's templates are those of the keys it is written for.
			okA = okA && a.ClaimOf == nil && !ka.Derived()
			okB = okB && b.ClaimOf == nil && !kb.Derived()
			switch {
			case both && okA && okB && changesOK([]keyChange{ca, cb}, pair):
				return fmt.Sprintf("give each entity a %s key prefix of its own that the other's values can't produce, e.g. %s and %s", pt.name, ca, cb)
			case both:
			case okB && changesOK([]keyChange{cb}, pair):
				return fmt.Sprintf("give %s a %s key of its own that %s's values can't produce, e.g. %s", b.Name, pt.name, a.Name, cb)
			case okA && changesOK([]keyChange{ca}, pair):
				return fmt.Sprintf("give %s a %s key of its own that %s's values can't produce, e.g. %s", a.Name, pt.name, b.Name, ca)
			}
		}
	}
	if ka.Derived() || kb.Derived() {
		return fmt.Sprintf("give %s key attributes of its own, not shared with another index, or give each entity a literal key prefix of its own that the other's values can't produce", indexName(ix))
	}
	return "give each entity a literal key prefix of its own that the other's values can't produce"
}

// sharesPartition reports whether another entity of ix has e's partition
// key template.
func sharesPartition(e *model.Entity, ix *model.Index) bool {
	pk := e.Key(ix).PK.Source
	for _, x := range ix.Table.Entities {
		if k := x.Key(ix); x != e && k != nil && k.PK.Source == pk {
			return true
		}
	}
	return false
}

// renamed is tm, e's template for key attribute ka, starting with e's name
// in capitals in place of the literal text common: "ROOT" -> "INVOICE",
// "{invoiceId}" -> "INVOICE#{invoiceId}". It is false for a template the
// spec does not write (a natural key, a table key attribute on an index) or
// that is not a string.
func renamed(e *model.Entity, ix *model.Index, ka *model.KeyAttr, tm *model.Template, common string) (keyChange, bool) {
	if tm == nil || tm.Implied || tm.KeyType != model.S {
		return keyChange{}, false
	}
	sep := "#"
	if seps := tm.Separators(); len(seps) > 0 {
		sep = string(seps[0])
	}
	segs := slices.Clone(tm.Segments)
	if len(segs) > 0 && segs[0].Attr == nil {
		segs[0].Literal = strings.TrimPrefix(segs[0].Literal, common)
		if segs[0].Literal == "" {
			segs = segs[1:]
		}
	}
	lead := word(e.Name)
	switch {
	case len(segs) == 0:
	case segs[0].Attr == nil && !unicode.IsLetter(rune(segs[0].Literal[0])) && !unicode.IsDigit(rune(segs[0].Literal[0])):
		segs[0].Literal = lead + segs[0].Literal
		lead = ""
	case segs[0].Attr == nil:
		segs[0].Literal = lead + sep + segs[0].Literal
		lead = ""
	default:
		lead += sep
	}
	if lead != "" {
		segs = append([]model.Segment{{Literal: lead}}, segs...)
	}
	out := &model.Template{KeyType: model.S, Segments: segs}
	out.Source = out.String()
	if out.Source == tm.Source {
		return keyChange{}, false
	}
	return keyChange{e: e, ix: ix, keyAttr: ka, tm: out}, true
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
	k := a.StoredForm().Key
	switch {
	case k.Width > 0:
		return k.Width, true
	case k.Lang == keylang.Enum:
		n := 0
		for _, v := range a.Values {
			n = max(n, len(v))
		}
		return n, true
	case k.Func != "" && a.MaxLength > 0:
		// The others a key takes are strings and paths: maxLength
		// characters bound them.
		return a.MaxLength * utf8.UTFMax, true
	}
	return 0, false
}

// generatedNames refuses two declarations of the generated package with
// one name, and names that clash with the package's fixed identifiers.
// It returns the set of the package's unexported names
// (Plan.PackageNames).
func generatedNames(m *model.Model, diags *diag.List) map[string]bool {
	generated := m.GeneratedNames()
	seen := make(map[string]model.GenName, len(generated))
	for _, n := range generated {
		if m.Fixed(n.Name) {
			diags.Errorf(n.Pos, "%s gives the Go name %s, which the generated package declares itself; %s", n.From, n.Name, renameHint(n))
			continue
		}
		if first, dup := seen[n.Name]; dup {
			diags.Errorf(n.Pos, "%s and %s both give the Go name %s; %s", first.From, n.From, n.Name, renameHint(n))
			continue
		}
		seen[n.Name] = n
	}
	// The package-level names that are not exported: every one apart
	// from the others and from the packages the generated code imports.
	// Their set is built once; the names are gone through again, to say
	// which clash with which, only when one does.
	names, listed := packageNames(m)
	if listed > len(names) || clashes(names, seen) {
		unexportedClashes(m, seen, diags)
	}
	// The files: none may replace another, even where file names ignore
	// case (macOS, Windows).
	fileNames := m.FileNames()
	files := make(map[string]model.GenName, len(fileNames))
	for _, n := range fileNames {
		if len(n.Name) > model.MaxFileName {
			diags.Errorf(n.Pos, "%s gives a file name of %d bytes, %s; most file systems take at most %d; %s", n.From, len(n.Name), n.Name, model.MaxFileName, cmp.Or(n.Fix, "rename it"))
			continue
		}
		if !strings.HasSuffix(n.Name, ".go") && n.Name != model.ManifestFile && !model.IsOutputFileName(n.Name) {
			if model.IsWindowsDevice(n.Name) {
				base, _, _ := strings.Cut(n.Name, ".")
				diags.Errorf(n.Pos, "%s gives the file name %q, which can't be created on Windows: it reserves the name %s for a device; %s", n.From, n.Name, base, n.Fix)
			} else {
				diags.Errorf(n.Pos, "%s gives the file name %q, which does not start with a letter or digit; %s", n.From, n.Name, n.Fix)
			}
			continue
		}
		folded := strings.ToLower(n.Name)
		if first, dup := files[folded]; dup {
			fix := "rename one"
			switch {
			case strings.HasPrefix(n.From, "entity "):
				fix = "set go: on " + n.From + " to give it another file"
			case n.Fix != "":
				fix = n.Fix
			}
			name := n.Name
			if first.Name != n.Name {
				name = fmt.Sprintf("%s and %s, one file where names ignore case", first.Name, n.Name)
			}
			diags.Errorf(n.Pos, "%s and %s both give the file %s; %s", first.From, n.From, name, fix)
			continue
		}
		files[folded] = n
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
	storeMethods := m.StoreMethods()
	methods := make(map[string]model.GenName, len(storeMethods))
	for _, n := range storeMethods {
		if slices.Contains(model.StoreFixedMethods, n.Name) {
			diags.Errorf(n.Pos, "%s gives the Store method %s, which the generated Store declares itself; rename it", n.From, n.Name)
			continue
		}
		if first, dup := methods[n.Name]; dup {
			diags.Errorf(n.Pos, "%s and %s both give the Store method %s; rename one", first.From, n.From, n.Name)
			continue
		}
		methods[n.Name] = n
	}
	return names
}

// packageNames is the set of the package's unexported names
// (model.UnexportedNames), and how many the model lists: more than the
// set holds when two give one name.
func packageNames(m *model.Model) (map[string]bool, int) {
	// About what a spec of reads and writes gives, a little more: the
	// expression constants of each pattern, a write's input method, a
	// read's key parsers (two per key of a table and a GSI), the value
	// block and key builders of each entity.
	names := make(map[string]bool, len(m.Patterns)*(len(model.ExpressionConsts)+5)+len(m.Entities)*5)
	listed := 0
	for n := range m.UnexportedNames() {
		names[n.Name] = true
		listed++
	}
	return names, listed
}

// clashes reports whether a name of the set names is one the package
// imports, one its methods use for a local, or one of the generated
// names in seen.
func clashes(names map[string]bool, seen map[string]model.GenName) bool {
	for _, list := range [][]string{model.ImportNames, model.MethodLocals} {
		if slices.ContainsFunc(list, func(n string) bool { return names[n] }) {
			return true
		}
	}
	for n := range seen {
		if names[n] {
			return true
		}
	}
	return false
}

// unexportedClashes refuses the unexported names of the package that
// another name of the package has, or an imported package, or a local
// of the methods. Two sources that meet once meet many times (Thing and
// THING give thingValues, thingPK...): one error says so.
func unexportedClashes(m *model.Model, seen map[string]model.GenName, diags *diag.List) {
	reported := map[[2]model.Pos]bool{}
	for n := range m.UnexportedNames() {
		if slices.Contains(model.ImportNames, n.Name) {
			diags.Errorf(n.Pos, "%s gives the Go name %s, which the generated code imports a package as; %s", n.From, n.Name, n.Fix)
			continue
		}
		if slices.Contains(model.MethodLocals, n.Name) {
			diags.Errorf(n.Pos, "%s gives the Go name %s, which the generated methods use for a local of their own; %s", n.From, n.Name, n.Fix)
			continue
		}
		if first, dup := seen[n.Name]; dup {
			if pair := [2]model.Pos{first.Pos, n.Pos}; !reported[pair] {
				reported[pair] = true
				diags.Errorf(n.Pos, "%s and %s both give the Go name %s; %s", first.From, n.From, n.Name, n.Fix)
			}
			continue
		}
		seen[n.Name] = n
	}
}

// renameHint says how to give a generated name another value.
func renameHint(n model.GenName) string {
	if strings.HasPrefix(n.From, "entity ") {
		return fmt.Sprintf("set go: on the entity, e.g. go: %sItem", n.Name)
	}
	return "rename it"
}

package generator

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	dynrt "github.com/dyngen/dyngen/generator/runtime"
	"github.com/dyngen/dyngen/internal/compat"
	"github.com/dyngen/dyngen/internal/diag"
	"github.com/dyngen/dyngen/internal/lock"
	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/output"
)

// The design of the backfill tests, before and after a change: notes
// found by title (index ByTitle), and by tag (ByTag, sparse), which the
// notes stored before lack.
const (
	notesBefore = `version: 1
package: notes
tables:
  Notes:
    partitionKey: PK
    sortKey: SK
    indexes:
%s
entities:
  Note:
    attributes:
      id: string
      title: string
      tag: {type: string, optional: true}
%s
    keys:
      primary: {pk: "NOTE#{id}", sk: "NOTE"}
%s
patterns:
  GetNote: {get: Note}
  PutNote: {put: Note}
%s
outputs:
  migration:
%s
`
)

// notes is the spec with extra parts: indexes, attributes (with version:),
// keys, patterns, and the rest (accept:).
func notes(indexes, attrs, keys, patterns, rest string) []byte {
	if indexes == "" {
		indexes = "      Other: {partitionKey: OtherPK}"
	}
	return []byte(strings.TrimSpace(strings.NewReplacer("%s\n", "").Replace(
		strings.Replace(strings.Replace(strings.Replace(strings.Replace(strings.Replace(notesBefore, "%s", indexes, 1), "%s", attrs, 1), "%s", keys, 1), "%s", patterns, 1), "%s", rest, 1))) + "\n")
}

const (
	byTitleIndex = "      ByTitle: {partitionKey: TitlePK, sortKey: TitleSK}\n      ByTag: {partitionKey: TagPK}"
	byTitleKeys  = "      ByTitle: {pk: \"TITLE#{title}\", sk: \"NOTE#{id}\"}\n      ByTag: {pk: \"TAG#{tag}\"}"
	byTitleReads = "  NotesByTitle: {query: Note, index: ByTitle, by: [title]}\n  NotesByTag: {query: Note, index: ByTag, by: [tag]}"
)

// generation runs a generation over the committed lock (nil for none),
// and returns the new lock and the diagnostics.
func generation(t *testing.T, spec []byte, committed []byte, opts Options) (*lock.Lock, *diag.List, []File) {
	t.Helper()
	files, diags := GenerateWith("spec.yaml", "spec.yaml", spec, func(name string) []byte {
		if name == model.LockFile {
			return committed
		}
		return nil
	}, opts)
	if diags.HasErrors() {
		return nil, diags, nil
	}
	for _, f := range files {
		if f.Name == model.LockFile {
			l, err := lock.Parse(f.Data)
			if err != nil {
				t.Fatal(err)
			}
			return l, diags, files
		}
	}
	t.Fatal("no lock")
	return nil, nil, nil
}

func marshal(t *testing.T, l *lock.Lock) []byte {
	t.Helper()
	data, err := lock.Marshal(l)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func states(l *lock.Lock) []string {
	var out []string
	for _, b := range l.Backfills {
		out = append(out, b.ID+"="+b.State)
	}
	return out
}

func warnings(d *diag.List) string {
	var out []string
	for _, x := range d.Sorted() {
		out = append(out, x.String())
	}
	return strings.Join(out, "\n")
}

// A change that needs a backfill records it pending in the lock; the
// lock carries it to the next generation; a pattern that reads what it
// fills is warned of (an error with Strict); a receipt of its verify
// marks it done; a receipt of another definition, or of no backfill, is
// refused.
func TestBackfillsOfTheLock(t *testing.T) {
	before, d, _ := generation(t, notes("", "", "", "", ""), nil, Options{})
	if d.HasErrors() {
		t.Fatal(d.Err())
	}
	after := notes(byTitleIndex, "", byTitleKeys, byTitleReads, "")
	l, d, files := generation(t, after, marshal(t, before), Options{})
	if d.HasErrors() {
		t.Fatal(d.Err())
	}
	if got := states(l); !slices.Equal(got, []string{"Note.ByTitle=pending", "Note.ByTag=pending"}) {
		t.Fatalf("backfills %v", got)
	}
	if b := l.Backfills[0]; b.Kind != "index-keys" || b.Entity != "Note" || b.Index != "ByTitle" || b.Finding != "keys/Note.ByTitle/joined" || len(b.Fingerprint) != 16 {
		t.Errorf("backfill %+v", b)
	}
	for _, w := range []string{"pattern NotesByTitle reads index ByTitle", "pattern NotesByTag reads index ByTag"} {
		if !strings.Contains(warnings(d), w) {
			t.Errorf("no warning %q among:\n%s", w, warnings(d))
		}
	}
	if !slices.ContainsFunc(files, func(f File) bool {
		return f.Name == model.BackfillFile && strings.Contains(string(f.Data), `"Note.ByTitle",`)
	}) {
		t.Error("backfill.go does not declare the pending backfill")
	}
	// Carried, once, by the next generation.
	again, d, _ := generation(t, after, marshal(t, l), Options{})
	if d.HasErrors() || !slices.Equal(states(again), states(l)) || string(marshal(t, again)) != string(marshal(t, l)) {
		t.Fatalf("generated again: %v %v", states(again), d.Err())
	}
	// Strict: the reads are errors.
	if _, d, _ := generation(t, after, marshal(t, l), Options{Strict: true}); !d.HasErrors() || !strings.Contains(d.Err().Error(), "pattern NotesByTitle reads index ByTitle") {
		t.Errorf("strict: %v", d.Err())
	}
	// A receipt marks it done, and the warning of its reads goes.
	r := dynrt.Receipt{Format: dynrt.ReceiptFormat, Backfill: "Note.ByTitle", Fingerprint: l.Backfills[0].Fingerprint, Table: "Notes", Checked: 12}
	done, d, files := generation(t, after, marshal(t, l), Options{Receipts: []dynrt.Receipt{r}})
	if d.HasErrors() {
		t.Fatal(d.Err())
	}
	if got := states(done); !slices.Equal(got, []string{"Note.ByTitle=done", "Note.ByTag=pending"}) || done.Backfills[0].Checked != 12 {
		t.Errorf("after the receipt: %v", done.Backfills)
	}
	if strings.Contains(warnings(d), "NotesByTitle") || strings.Contains(warnings(d), "read no item") {
		t.Errorf("a backfill done still warns:\n%s", warnings(d))
	}
	// A receipt of a verify that read nothing is taken, and said.
	empty := r
	empty.Checked = 0
	if _, d, _ := generation(t, after, marshal(t, l), Options{Receipts: []dynrt.Receipt{empty}}); d.HasErrors() || !strings.Contains(warnings(d), "the receipt of backfill Note.ByTitle is of a verify that read no item of Note (table Notes)") {
		t.Errorf("a receipt of no item: %v\n%s", d.Err(), warnings(d))
	}
	if slices.ContainsFunc(files, func(f File) bool {
		return f.Name == model.BackfillFile && strings.Contains(string(f.Data), `"Note.ByTitle"`)
	}) {
		t.Error("backfill.go still declares the backfill done")
	}
	if _, d, _ := generation(t, after, marshal(t, done), Options{Strict: true}); !d.HasErrors() || strings.Contains(d.Err().Error(), "NotesByTitle") {
		t.Errorf("strict after one done: %v", d.Err())
	}
	// Receipts refused: of another definition, of no backfill.
	for _, c := range []struct {
		r    dynrt.Receipt
		want string
	}{
		{dynrt.Receipt{Backfill: "Note.ByTitle", Fingerprint: "0000000000000000"}, "is of another definition"},
		{dynrt.Receipt{Backfill: "Note.Nope", Fingerprint: r.Fingerprint}, "names no backfill of the lock"},
	} {
		if _, d, _ := generation(t, after, marshal(t, l), Options{Receipts: []dynrt.Receipt{c.r}}); !d.HasErrors() || !strings.Contains(d.Err().Error(), c.want) {
			t.Errorf("receipt %+v: %v, want %q", c.r, d.Err(), c.want)
		}
	}
	// The template of a backfill done changes: it is pending again,
	// with the new definition's fingerprint.
	changed := notes(byTitleIndex, "", strings.Replace(byTitleKeys, "TITLE#{title}", "T#{title}", 1), byTitleReads, "")
	re, d, _ := generation(t, changed, marshal(t, done), Options{})
	if d.HasErrors() {
		t.Fatal(d.Err())
	}
	if got := states(re); !slices.Equal(got, []string{"Note.ByTitle=pending", "Note.ByTag=pending"}) || re.Backfills[0].Fingerprint == done.Backfills[0].Fingerprint || re.Backfills[0].Finding != "keys/Note.ByTitle/template" {
		t.Errorf("after the template changed: %+v", re.Backfills)
	}
	// The index goes: its backfill is dropped, and said.
	gone, d, _ := generation(t, notes("      ByTag: {partitionKey: TagPK}", "", "      ByTag: {pk: \"TAG#{tag}\"}", "", ""), marshal(t, l), Options{})
	if d.HasErrors() {
		t.Fatal(d.Err())
	}
	if got := states(gone); !slices.Equal(got, []string{"Note.ByTag=pending"}) || !strings.Contains(warnings(d), "backfill Note.ByTitle (pending): Note is no longer keyed on index ByTitle") {
		t.Errorf("the index gone: %v\n%s", got, warnings(d))
	}
}

// A finding the spec accepts asks for no backfill; a version added asks
// for one of its own.
func TestBackfillsAcceptedAndVersion(t *testing.T) {
	before, _, _ := generation(t, notes("", "", "", "", ""), nil, Options{})
	accepted := notes(byTitleIndex, "", byTitleKeys, byTitleReads, "accept:\n  keys/Note.ByTitle/joined: no note is stored yet\n  keys/Note.ByTag/joined: no note is stored yet")
	l, d, _ := generation(t, accepted, marshal(t, before), Options{Strict: true})
	if d.HasErrors() {
		t.Fatal(d.Err())
	}
	if len(l.Backfills) != 0 {
		t.Errorf("accepted findings asked for backfills: %v", states(l))
	}
	versioned := []byte(strings.Replace(string(notes("", "      rev: int", "", "", "")), "  Note:\n", "  Note:\n    version: rev\n", 1))
	l, d, files := generation(t, versioned, marshal(t, before), Options{})
	if d.HasErrors() {
		t.Fatal(d.Err())
	}
	if got := states(l); !slices.Equal(got, []string{"Note.rev=pending"}) || l.Backfills[0].Kind != "version" {
		t.Errorf("version: %+v", l.Backfills)
	}
	if !strings.Contains(warnings(d), "pattern PutNote writes Note items, each expecting a version") {
		t.Errorf("no warning at the write:\n%s", warnings(d))
	}
	i := slices.IndexFunc(files, func(f File) bool { return f.Name == model.BackfillFile })
	if i < 0 || !strings.Contains(string(files[i].Data), `dyngen.FirstVersion(item, "rev")`) || !strings.Contains(string(files[i].Data), `"attribute_not_exists(#rev)"`) {
		t.Errorf("backfill.go of a version:\n%s", files[i].Data)
	}
}

// The receipt's JSON is the runtime's, as dyngen reads it.
func TestReceiptJSON(t *testing.T) {
	var r dynrt.Receipt
	if err := json.Unmarshal([]byte(`{"dyngenBackfillReceipt": 1, "backfill": "Note.ByTitle", "fingerprint": "ab", "table": "Notes", "checked": 3}`), &r); err != nil || r.Backfill != "Note.ByTitle" || r.Checked != 3 || r.Format != 1 {
		t.Errorf("%+v %v", r, err)
	}
}

// An entity renamed (renamedFrom) whose index key changes again keeps
// its one backfill, under the id the lock gave it: not a second one of
// the same index.
func TestBackfillsRenamed(t *testing.T) {
	before, _, _ := generation(t, notes("", "", "", "", ""), nil, Options{})
	after := notes(byTitleIndex, "", byTitleKeys, byTitleReads, "")
	l, d, _ := generation(t, after, marshal(t, before), Options{})
	if d.HasErrors() {
		t.Fatal(d.Err())
	}
	renamed := strings.NewReplacer("  Note:\n", "  Memo:\n    renamedFrom: Note\n", "query: Note", "query: Memo", "get: Note", "get: Memo", "put: Note", "put: Memo", "TITLE#{title}", "T#{title}").Replace(string(after))
	re, d, _ := generation(t, []byte(renamed), marshal(t, l), Options{})
	if d.HasErrors() {
		t.Fatal(d.Err())
	}
	if got := states(re); !slices.Equal(got, []string{"Note.ByTitle=pending", "Note.ByTag=pending"}) || re.Backfills[0].Entity != "Memo" {
		t.Errorf("after the rename and the change: %+v", re.Backfills)
	}
	// The check against the lock before the change finds the template
	// changed, made safe by the backfill of the new lock, under its old
	// id.
	res := Check("spec.yaml", []byte(renamed))
	r := compat.Check(l, res.Plan, output.Tools(res.Model))
	r.Backfilled(re)
	i := slices.IndexFunc(r.Findings, func(f *compat.Finding) bool { return f.ID == "keys/Memo.ByTitle/template" })
	if i < 0 || r.Findings[i].Verdict() != "backfill" || !strings.Contains(r.Findings[i].Text(), "(backfill Note.ByTitle, pending in the lock)") {
		for _, f := range r.Findings {
			t.Log(f.Text())
		}
		t.Error("the template's change is not made safe by the new lock's backfill")
	}
}

// A unique value and an index of one name on one entity: two backfills,
// the second's id saying its kind.
func TestBackfillIDsApart(t *testing.T) {
	const spec = `version: 1
package: users
tables:
  Users:
    partitionKey: PK
    sortKey: SK
    indexes:
%s
entities:
  User:
    attributes: {id: string, email: string}
%s
    keys:
      primary: {pk: "USER#{id}", sk: "USER"}
%s
patterns:
  GetUser: {get: User}
outputs:
  migration:
`
	before, _, _ := generation(t, []byte(fmt.Sprintf(spec, "      Other: {partitionKey: OtherPK}", "", "")), nil, Options{})
	l, d, _ := generation(t, []byte(fmt.Sprintf(spec, "      email: {partitionKey: EmailPK}", "    unique: [email]", "      email: {pk: \"E#{email}\"}")), marshal(t, before), Options{})
	if d.HasErrors() {
		t.Fatal(d.Err())
	}
	if got := states(l); len(got) != 2 || got[0] == strings.Replace(got[1], "claims", "index-keys", 1) || !slices.Contains(got, "User.email=pending") {
		t.Errorf("backfills %v, want two of distinct ids", got)
	}
}

// The write of a backfill of a versioned entity holds the version and
// the attributes its keys are built from, as read: a delete and create
// again starts the version over, and must not let the backfill write the
// key of a value the item no longer holds.
func TestBackfillHoldsItsSources(t *testing.T) {
	versioned := func(spec []byte) []byte {
		return []byte(strings.Replace(string(spec), "  Note:\n", "  Note:\n    version: rev\n", 1))
	}
	before, _, _ := generation(t, versioned(notes("", "      rev: int", "", "", "")), nil, Options{})
	_, d, files := generation(t, versioned(notes(byTitleIndex, "      rev: int", byTitleKeys, byTitleReads, "")), marshal(t, before), Options{})
	if d.HasErrors() {
		t.Fatal(d.Err())
	}
	i := slices.IndexFunc(files, func(f File) bool { return f.Name == model.BackfillFile })
	if i < 0 {
		t.Fatal("no backfill.go")
	}
	code := string(files[i].Data)
	for _, want := range []string{
		"ConditionExpression: #_type = :_type AND #rev = :rev_read AND #title = :title_read AND #id = :id_read AND #TitlePK = :TitlePK_read AND #TitleSK = :TitleSK_read",
		"ConditionExpression: #_type = :_type AND #rev = :rev_read AND #tag = :tag_read AND #TagPK = :TagPK_read",
	} {
		if !strings.Contains(strings.Join(strings.Fields(strings.ReplaceAll(code, "//", "")), " "), want) {
			t.Errorf("backfill.go does not send %q:\n%s", want, code)
		}
	}
}

// A table whose entities' partition keys may be any string (a natural
// key) holds no checkpoints, which no collision check could prove apart:
// a backfill of it, with the migration output, is refused with why.
func TestBackfillNoCheckpoints(t *testing.T) {
	const spec = `version: 1
package: carts
tables:
  Carts:
    partitionKey: cartId
    indexes:
%s
entities:
  Cart:
    attributes: {cartId: string, title: string}
    keys:
      primary: {pk: "{cartId}"}
%s
patterns:
  GetCart: {get: Cart}
outputs:
  migration:
`
	before, d, _ := generation(t, []byte(fmt.Sprintf(spec, "      Other: {partitionKey: OtherPK}", "")), nil, Options{})
	if d.HasErrors() {
		t.Fatal(d.Err())
	}
	_, d, _ = generation(t, []byte(fmt.Sprintf(spec, "      ByTitle: {partitionKey: TitlePK}", "      ByTitle: {pk: \"T#{title}\"}")), marshal(t, before), Options{})
	if !d.HasErrors() || !strings.Contains(d.Err().Error(), "backfill Cart.ByTitle is of table Carts, which holds no checkpoints") {
		t.Errorf("a backfill of a table of natural keys: %v", d.Err())
	}
}

// A backfill of index keys writes the synthetic ones only: not the
// table's partition key, which a local index shares (no update may set
// it), nor a natural key, an attribute the items hold already.
func TestBackfillWritesSyntheticKeys(t *testing.T) {
	const spec = `version: 1
package: events
tables:
  Events:
    partitionKey: PK
    sortKey: SK
    indexes:
%s
entities:
  Event:
    attributes: {id: string, tenant: string, day: {type: string, optional: true}}
    keys:
      primary: {pk: "EVENT#{id}", sk: "EVENT"}
%s
patterns:
  GetEvent: {get: Event}
outputs:
  migration:
`
	indexes := "      LSI1: {local: true, sortKey: LSI1SK}\n      ByTenant: {partitionKey: tenant, sortKey: DaySK}"
	before, d, _ := generation(t, []byte(fmt.Sprintf(spec, indexes, "")), nil, Options{})
	if d.HasErrors() {
		t.Fatal(d.Err())
	}
	l, d, files := generation(t, []byte(fmt.Sprintf(spec, indexes, "      LSI1: {pk: \"EVENT#{id}\", sk: \"T#{tenant}\"}\n      ByTenant: {pk: \"{tenant}\", sk: \"D#{day}\"}")), marshal(t, before), Options{})
	if d.HasErrors() {
		t.Fatal(d.Err())
	}
	if got := states(l); !slices.Equal(got, []string{"Event.LSI1=pending", "Event.ByTenant=pending"}) {
		t.Fatalf("backfills %v", got)
	}
	i := slices.IndexFunc(files, func(f File) bool { return f.Name == model.BackfillFile })
	code := string(files[i].Data)
	for _, want := range []string{`Set:        "SET LSI1SK = :LSI1SK"`, `Set:        "SET #DaySK = :DaySK"`, `dyngen.Pick(full, "LSI1SK")`, `dyngen.Pick(full, "DaySK")`} {
		if !strings.Contains(code, want) {
			t.Errorf("backfill.go lacks %s:\n%s", want, code)
		}
	}
}

// While the claims of a value made unique are pending, a lookup by the
// value finds none of the items stored before, and a write of the value
// may release another item's claim: both are warned of.
func TestBackfillClaimsWarnings(t *testing.T) {
	before, _, _ := generation(t, notes("", "      email: string", "", "", ""), nil, Options{})
	after := []byte(strings.Replace(string(notes("", "      email: string", "", "  NoteByEmail: {get: Note, by: [email]}", "")), "  Note:\n", "  Note:\n    unique: [email]\n", 1))
	l, d, _ := generation(t, after, marshal(t, before), Options{})
	if d.HasErrors() {
		t.Fatal(d.Err())
	}
	if got := states(l); !slices.Equal(got, []string{"Note.email=pending"}) || l.Backfills[0].Kind != "claims" {
		t.Fatalf("backfills %+v", l.Backfills)
	}
	for _, w := range []string{"pattern NoteByEmail reads Note items by their email, through its claim", "pattern PutNote writes Note items, whose email"} {
		if !strings.Contains(warnings(d), w) {
			t.Errorf("no warning %q among:\n%s", w, warnings(d))
		}
	}
}

// An attribute that says backfill: compute: added required, it makes
// its finding a backfill's, pending, and every read of the entity is
// warned of (an error with Strict); added to an attribute the lock holds
// already (a ttl given to the items stored before), it asks for one too;
// with no lock, or on an entity the lock does not hold, it does
// nothing, and says so; removed while pending, its backfill is dropped,
// and said; once done, it stays done, and backfill.go declares the
// function's field but no backfill.
func TestBackfillsComputed(t *testing.T) {
	computed := func(attrs string) []byte { return notes("", attrs, "", "", "") }
	before, _, _ := generation(t, computed("      seen: {type: time, optional: true}"), nil, Options{})

	after := computed("      seen: {type: time, optional: true}\n      words: {type: int, backfill: compute}")
	l, d, files := generation(t, after, marshal(t, before), Options{})
	if d.HasErrors() {
		t.Fatal(d.Err())
	}
	if got := states(l); !slices.Equal(got, []string{"Note.words=pending"}) {
		t.Fatalf("backfills %v", got)
	}
	if b := l.Backfills[0]; b.Kind != "compute" || !slices.Equal(b.Attributes, []string{"words"}) || b.Finding != "read-old/Note.words/required-added" {
		t.Errorf("backfill %+v", b)
	}
	if !strings.Contains(warnings(d), "pattern GetNote reads Note items, whose words the items written before the change lack (required: they fail to decode) until backfill Note.words") {
		t.Errorf("no warning at the read:\n%s", warnings(d))
	}
	i := slices.IndexFunc(files, func(f File) bool { return f.Name == model.BackfillFile })
	if i < 0 || !strings.Contains(string(files[i].Data), "NoteWords func(ctx context.Context, item *Note) (int64, error)") || !strings.Contains(string(files[i].Data), `dyngen.Missing(err, "words")`) {
		t.Fatalf("backfill.go of a computed attribute:\n%s", files[i].Data)
	}
	if _, d, _ := generation(t, after, marshal(t, l), Options{Strict: true}); !d.HasErrors() || !strings.Contains(d.Err().Error(), "pattern GetNote reads Note items") {
		t.Errorf("strict: %v", d.Err())
	}
	// The finding is made safe by the backfill.
	res := Check("spec.yaml", after)
	if res.Diags.HasErrors() {
		t.Fatal(res.Diags.Err())
	}
	r := compat.Check(before, res.Plan, output.Tools(res.Model))
	r.Backfilled(l)
	if r.Failed() {
		t.Errorf("the check fails with the backfill in the lock: %+v", r.Findings)
	}

	// On an attribute the lock holds: a ttl given to the stored items.
	ttl := computed("      seen: {type: time, optional: true, backfill: compute}")
	l2, d, _ := generation(t, ttl, marshal(t, before), Options{})
	if d.HasErrors() {
		t.Fatal(d.Err())
	}
	if got := states(l2); !slices.Equal(got, []string{"Note.seen=pending"}) || l2.Backfills[0].Finding != "" {
		t.Errorf("an attribute held already: %+v", l2.Backfills)
	}

	// No lock: nothing to backfill, and said.
	_, d, _ = generation(t, after, nil, Options{})
	if !strings.Contains(warnings(d), "backfill: compute of attribute words does nothing: the output directory holds no lock") {
		t.Errorf("no lock:\n%s", warnings(d))
	}

	// backfill: compute removed while pending: dropped, and said.
	gone, d, _ := generation(t, computed("      seen: {type: time, optional: true}\n      words: {type: int, default: 0}"), marshal(t, l), Options{})
	if d.HasErrors() {
		t.Fatal(d.Err())
	}
	if len(gone.Backfills) != 0 || !strings.Contains(warnings(d), "backfill Note.words (pending): words of Note no longer says backfill: compute") {
		t.Errorf("compute removed: %v\n%s", states(gone), warnings(d))
	}

	// Done: it stays done, and no backfill is declared.
	rc := dynrt.Receipt{Format: dynrt.ReceiptFormat, Backfill: "Note.words", Fingerprint: l.Backfills[0].Fingerprint, Table: "Notes", Checked: 3}
	done, d, files := generation(t, after, marshal(t, l), Options{Receipts: []dynrt.Receipt{rc}})
	if d.HasErrors() {
		t.Fatal(d.Err())
	}
	again, d, files2 := generation(t, after, marshal(t, done), Options{Strict: true})
	if d.HasErrors() || !slices.Equal(states(again), []string{"Note.words=done"}) {
		t.Fatalf("done, generated again: %v %v", states(again), d.Err())
	}
	for _, fs := range [][]File{files, files2} {
		i := slices.IndexFunc(fs, func(f File) bool { return f.Name == model.BackfillFile })
		if src := string(fs[i].Data); !strings.Contains(src, "NoteWords func(") || strings.Contains(src, `"Note.words"`) {
			t.Errorf("backfill.go after done:\n%s", src)
		}
	}
}

// Where a backfill of one attribute can't make the items right,
// backfill: compute is refused, with why.
func TestBackfillComputeRefused(t *testing.T) {
	for _, c := range []struct{ spec, want string }{
		{strings.Replace(string(notes("", "      words: {type: int}", "", "", "")), "id: string", "id: {type: string, backfill: compute}", 1), "it is in the primary key"},
		{strings.Replace(string(notes("", "      rev: {type: int, backfill: compute}", "", "", "")), "  Note:\n", "  Note:\n    version: rev\n", 1), "it is the version"},
		{strings.Replace(string(notes("", "      email: {type: string, backfill: compute}", "", "", "")), "  Note:\n", "  Note:\n    unique: [email]\n", 1), "it is a unique value"},
		{string(notes("", "      words: {type: int, backfill: later}", "", "", "")), `backfill must be compute`},
	} {
		d := Check("spec.yaml", []byte(c.spec)).Diags
		if !d.HasErrors() || !strings.Contains(d.Err().Error(), c.want) {
			t.Errorf("%q: %v", c.want, d.Err())
		}
	}
}

// What a computed attribute's backfill brings with it: the keys of a
// secondary index built from it, a backfill of their own, pending after
// it; a version added with it, whose backfill runs first (every other
// decodes the item); an accepted finding asks for none; and the locals
// of backfill.go never take the name of an import (an entity TYPE and
// attribute s would make "types").
func TestBackfillsComputedWith(t *testing.T) {
	spec := func(attrs, keys, head, rest string) []byte {
		return []byte(`version: 1
package: docs
tables:
  Docs:
    partitionKey: PK
    sortKey: SK
    indexes:
      ByNick: {partitionKey: NickPK}
entities:
  TYPE:
` + head + `    attributes:
      id: string
      nick: {type: string, optional: true}
` + attrs + `    keys:
      primary: {pk: "DOC#{id}", sk: "DOC"}
      ByNick: {pk: "NICK#{nick}"}
` + keys + `patterns:
  GetDoc: {get: TYPE}
  PutDoc: {put: TYPE}
outputs:
  migration:
` + rest)
	}
	before, d, _ := generation(t, spec("      rev: {type: int, optional: true}\n", "", "", ""), nil, Options{})
	if d.HasErrors() {
		t.Fatal(d.Err())
	}
	after := spec("      s: {type: int, backfill: compute}\n      rev: int\n", "", "    version: rev\n", "")
	after = []byte(strings.Replace(string(after), "nick: {type: string, optional: true}", "nick: {type: string, backfill: compute}", 1))
	l, d, files := generation(t, after, marshal(t, before), Options{})
	if d.HasErrors() {
		t.Fatal(d.Err())
	}
	if got := states(l); !slices.Equal(got, []string{"TYPE.rev=pending", "TYPE.nick=pending", "TYPE.s=pending", "TYPE.ByNick=pending"}) {
		t.Errorf("backfills %v, want the version, the attributes computed, then the keys of ByNick", got)
	}
	if errs := packageProblems(files); len(errs) > 0 {
		t.Errorf("the package does not compile: %v", errs)
	}
	// A receipt of the index's keys stays done while nick's computing is
	// still pending: the next generation does not undo it.
	i := slices.IndexFunc(l.Backfills, func(b lock.Backfill) bool { return b.ID == "TYPE.ByNick" })
	r := dynrt.Receipt{Format: dynrt.ReceiptFormat, Backfill: "TYPE.ByNick", Fingerprint: l.Backfills[i].Fingerprint, Table: "Docs", Checked: 4}
	done, d, _ := generation(t, after, marshal(t, l), Options{Receipts: []dynrt.Receipt{r}})
	if d.HasErrors() {
		t.Fatal(d.Err())
	}
	again, d, _ := generation(t, after, marshal(t, done), Options{})
	if d.HasErrors() || !slices.Contains(states(again), "TYPE.ByNick=done") || string(marshal(t, again)) != string(marshal(t, done)) {
		t.Errorf("generated again after the receipt of ByNick: %v %v", states(again), d.Err())
	}
	// nick no longer computed: its backfill goes, and so does that of
	// the index's keys that came with it.
	uncomputed := []byte(strings.Replace(string(after), "nick: {type: string, backfill: compute}", "nick: {type: string, optional: true}", 1))
	gone, d, _ := generation(t, uncomputed, marshal(t, l), Options{})
	if d.HasErrors() {
		t.Fatal(d.Err())
	}
	if got := states(gone); !slices.Equal(got, []string{"TYPE.rev=pending", "TYPE.s=pending"}) || !strings.Contains(warnings(d), "backfill TYPE.ByNick (pending): it came with TYPE.nick, dropped") {
		t.Errorf("nick no longer computed: %v\n%s", got, warnings(d))
	}
	// Accepted: no backfill of nick (nor of its index's keys).
	accepted := append(after, []byte("accept:\n  read-old/TYPE.nick/required: no document is stored yet\n  read-old/TYPE.s/required-added: no document is stored yet\n  keys/TYPE.rev/version-added: no document is stored yet\n")...)
	l, d, _ = generation(t, accepted, marshal(t, before), Options{})
	if d.HasErrors() {
		t.Fatal(d.Err())
	}
	if len(l.Backfills) != 0 {
		t.Errorf("accepted findings asked for backfills: %v", states(l))
	}
}

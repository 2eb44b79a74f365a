package generator

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/dyngen/dyngen/internal/dynamotest"
	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/plan"
)

// The property tests of what an item physically holds. Random layouts of
// one table whose indexes share key attributes, and of entities that name
// some of the indexes with templates drawn from a few that can meet, are
// planned; the layouts dyngen accepts are generated, compiled, and driven
// against DynamoDB Local by a test written for each: random writes by
// every write path (put, create, update of each kind, upsert, batch put,
// a transaction's put) with random presence of the optional attribute,
// then every read. Two properties must hold:
//
//   - a write leaves an item in an index with all of its key attributes
//     or none (read back by a Scan of the table);
//   - no read returns an item of another entity: every item a get or a
//     query of entity E returns holds E's secret.
//
// TestMembership runs a fixed set of seeds in the normal run;
// FuzzMembership runs one layout per input, for longer runs:
//
//	go test ./generator/ -run '^$' -fuzz '^FuzzMembership$' -fuzztime 50x
//
// (each input compiles a package: a few seconds each).

// membershipSeed and membershipLayouts are the layouts of the normal run:
// a fixed seed, so that a failure repeats. Among the first eight layouts
// accepted from seed 100, those of seeds 106 and 113 break both
// properties when the model does not derive membership of indexes an
// entity does not name.
const membershipSeed, membershipLayouts = 100, 8

func TestMembership(t *testing.T) {
	if testing.Short() {
		t.Skip("compiling generated code is skipped in -short mode")
	}
	dynamotest.Endpoint(t) // skip, or fail in CI, without DynamoDB Local
	var layouts []*layout
	refused := 0
	for seed := uint64(membershipSeed); len(layouts) < membershipLayouts && seed < membershipSeed+400; seed++ {
		if l := newLayout(seed); l.plan != nil {
			layouts = append(layouts, l)
		} else {
			refused++
		}
	}
	if len(layouts) < membershipLayouts {
		t.Fatalf("only %d of the layouts are accepted (%d refused)", len(layouts), refused)
	}
	runLayouts(t, layouts)
	t.Logf("%d layouts driven on DynamoDB Local, %d refused on the way", len(layouts), refused)
}

func FuzzMembership(f *testing.F) {
	for s := range uint64(4) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, seed uint64) {
		dynamotest.Endpoint(t)
		l := newLayout(seed)
		if l.plan == nil {
			t.Skip("refused")
		}
		runLayouts(t, []*layout{l})
	})
}

// layout is one random spec: what its patterns are, and, when dyngen
// accepts it, the plan.
type layout struct {
	seed     uint64
	spec     string
	plan     *plan.Plan
	entities []string
	indexes  [][2]string // key attribute names: pk, sk ("" for none)
}

// keyPool are the key attribute names the indexes draw from: indexes
// share them. templates are the templates an entity may fill one with;
// several can give the same text.
var (
	keyPool   = []string{"K1", "K2", "K3"}
	templates = []string{"P#{a}", "P#{id}", "P#{o}", "Q#{a}#{id}", "P#{a}#{o}", "R#{id}", "Q#{o}"}
)

// newLayout draws the layout of seed and plans it. Patterns the planner
// refuses are dropped, one round at a time, as long as the model is
// sound; a layout the model refuses (its keys can meet, an attribute two
// indexes share is written for both under different optional
// attributes) has no plan.
func newLayout(seed uint64) *layout {
	r := rand.New(rand.NewPCG(seed, 0x6d656d62))
	l := &layout{seed: seed}
	nix := 2 + r.IntN(3)
	seen := map[[2]string]bool{}
	for len(l.indexes) < nix {
		pk := keyPool[r.IntN(len(keyPool))]
		sk := ""
		if r.IntN(2) == 0 {
			sk = keyPool[r.IntN(len(keyPool))]
		}
		if sk == pk || seen[[2]string{pk, sk}] {
			continue
		}
		seen[[2]string{pk, sk}] = true
		l.indexes = append(l.indexes, [2]string{pk, sk})
	}
	var b strings.Builder
	b.WriteString("version: 1\npackage: prop\ntables:\n  Prop:\n    partitionKey: PK\n    sortKey: SK\n    indexes:\n")
	for i, ix := range l.indexes {
		fmt.Fprintf(&b, "      GSI%d: {partitionKey: %s", i, ix[0])
		if ix[1] != "" {
			fmt.Fprintf(&b, ", sortKey: %s", ix[1])
		}
		b.WriteString("}\n")
	}
	b.WriteString("entities:\n")
	var patterns []string
	ne := 2 + r.IntN(2)
	for e := range ne {
		name := fmt.Sprintf("E%d", e)
		l.entities = append(l.entities, name)
		// The template of each key attribute, drawn once: an item holds
		// one value per attribute.
		tmpl := map[string]string{}
		for _, k := range keyPool {
			tmpl[k] = templates[r.IntN(len(templates))]
		}
		fmt.Fprintf(&b, "  %s:\n    attributes: {id: string, a: string, o: {type: string, optional: true}, secret: string}\n    keys:\n      primary: {pk: \"%s#{id}\", sk: \"%s\"}\n", name, name, name)
		var named []int
		for i, ix := range l.indexes {
			if r.IntN(3) == 0 {
				continue
			}
			named = append(named, i)
			fmt.Fprintf(&b, "      GSI%d: {pk: %q", i, tmpl[ix[0]])
			if ix[1] != "" {
				fmt.Fprintf(&b, ", sk: %q", tmpl[ix[1]])
			}
			b.WriteString("}\n")
		}
		patterns = append(patterns,
			fmt.Sprintf("Put%s: {put: %s}", name, name),
			fmt.Sprintf("Create%s: {create: %s}", name, name),
			fmt.Sprintf("SetA%s: {update: %s, set: [a]}", name, name),
			fmt.Sprintf("SetO%s: {update: %s, set: [o]}", name, name),
			fmt.Sprintf("SetAO%s: {update: %s, set: [a, o]}", name, name),
			fmt.Sprintf("RemoveO%s: {update: %s, remove: [o]}", name, name),
			fmt.Sprintf("Upsert%s: {update: %s, set: [a, secret], upsert: true}", name, name),
			fmt.Sprintf("UpsertO%s: {update: %s, set: [a, o, secret], upsert: true}", name, name),
			fmt.Sprintf("Batch%s: {batchPut: %s}", name, name),
			fmt.Sprintf("Tx%s: {transaction: [{put: %s}]}", name, name),
			fmt.Sprintf("Get%s: {get: %s}", name, name),
		)
		// A query of every index the entity is in, whether it names it or
		// not: by what its partition key is built from.
		for i, ix := range l.indexes {
			pk := tmpl[ix[0]]
			if !slices.Contains(named, i) && !writes(l.indexes, named, ix, tmpl) {
				continue
			}
			var by []string
			for _, a := range []string{"a", "id", "o"} {
				if strings.Contains(pk, "{"+a+"}") {
					by = append(by, a)
				}
			}
			patterns = append(patterns, fmt.Sprintf("Q%sGSI%d: {query: %s, index: GSI%d, by: [%s]}", name, i, name, i, strings.Join(by, ", ")))
		}
	}
	for {
		spec := b.String() + "patterns:\n"
		first := strings.Count(spec, "\n") + 1
		for _, p := range patterns {
			spec += "  " + p + "\n"
		}
		l.spec = spec
		res := Check("prop.yaml", []byte(spec))
		if !res.Diags.HasErrors() {
			l.plan = res.Plan
			return l
		}
		// Drop the patterns with errors; any other error refuses the
		// layout.
		drop := map[int]bool{}
		for _, d := range res.Diags.Errors() {
			i := d.Pos.Line - first
			if i < 0 || i >= len(patterns) {
				return l
			}
			drop[i] = true
		}
		var kept []string
		for i, p := range patterns {
			if !drop[i] {
				kept = append(kept, p)
			}
		}
		patterns = kept
	}
}

// writes reports whether an entity that names the indexes named writes
// every key attribute of ix for them.
func writes(indexes [][2]string, named []int, ix [2]string, tmpl map[string]string) bool {
	has := func(k string) bool {
		for _, i := range named {
			if indexes[i][0] == k || indexes[i][1] == k {
				return true
			}
		}
		return false
	}
	return has(ix[0]) && (ix[1] == "" || has(ix[1]))
}

// runLayouts generates the packages of the layouts, writes a test that
// drives each, and runs them in one go test.
func runLayouts(t *testing.T, layouts []*layout) {
	t.Helper()
	root, err := os.MkdirTemp("testdata", "membership-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	var pkgs []string
	for _, l := range layouts {
		files, diags := Generate("prop.yaml", "prop.yaml", []byte(l.spec))
		if diags.HasErrors() {
			t.Fatalf("seed %d: %v", l.seed, diags.Err())
		}
		dir := filepath.Join(root, fmt.Sprintf("seed%d", l.seed))
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if err := os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(dir, "prop_test.go"), driver(l), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "spec.yaml"), []byte(l.spec), 0o644); err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, "./"+filepath.ToSlash(dir))
	}
	cmd := exec.Command("go", append([]string{"test", "-count=1", "-run", "^TestProperty$"}, pkgs...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		for _, l := range layouts {
			t.Logf("layout of seed %d:\n%s", l.seed, l.spec)
		}
		t.Fatalf("the generated packages break a property: %v\n%s", err, out)
	}
}

// driver writes the test of one layout's package: random writes, then
// the checks of both properties.
func driver(l *layout) []byte {
	var b strings.Builder
	b.WriteString(`package prop

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dyngen/dyngen/internal/dynamotest"
)

var _ = fmt.Sprint

// propValues are the values of every string: few, so that keys meet.
var propValues = []string{"x", "y"}

func propPick(r *rand.Rand) string { return propValues[r.IntN(len(propValues))] }

func propOptional(r *rand.Rand) *string {
	if r.IntN(3) == 0 {
		return nil
	}
	v := propPick(r)
	return &v
}

// propText is a string attribute's value, for messages.
func propText(v types.AttributeValue) string {
	if s, ok := v.(*types.AttributeValueMemberS); ok {
		return s.Value
	}
	return fmt.Sprint(v)
}

// propExpected tells the errors a random write may meet: it is of an item that
// does not exist, or exists.
func propExpected(err error) bool {
	return err == nil || errors.Is(err, ErrNotFound) || errors.Is(err, ErrAlreadyExists) || errors.Is(err, ErrConditionFailed)
}

`)
	// What the model says of each entity's items on each index: whether
	// it is in the index at all, and the optional attributes it needs.
	b.WriteString("type propOnIndex struct {\n\tkeys []string\n\tin bool\n\tneeds []string\n}\n\n")
	b.WriteString("// propModel is what the model says of each entity's items on each index.\nvar propModel = map[string][]propOnIndex{\n")
	for _, e := range l.plan.Model.Entities {
		fmt.Fprintf(&b, "\t%q: {", e.TypeValue)
		for _, ix := range e.Table.Indexes[1:] {
			var keys []string
			for _, ka := range ix.KeyAttrs() {
				keys = append(keys, strconv.Quote(ka.Name))
			}
			k := e.Key(ix)
			var needs []string
			if k != nil {
				for _, a := range k.Presence() {
					needs = append(needs, strconv.Quote(a.Stored))
				}
			}
			fmt.Fprintf(&b, "{keys: []string{%s}, in: %t, needs: []string{%s}}, ", strings.Join(keys, ", "), k != nil, strings.Join(needs, ", "))
		}
		b.WriteString("},\n")
	}
	b.WriteString("}\n\n")
	fmt.Fprintf(&b, `func TestProperty(t *testing.T) {
	ctx := context.Background()
	c := dynamotest.Client(t)
	s := New(c, WithPropTable(dynamotest.TableName("Prop")))
	for _, table := range s.Tables() {
		dynamotest.MakeTable(t, c, table.Create, table.TimeToLive)
	}
	r := rand.New(rand.NewPCG(%d, 1))
	for step := range 120 {
		var err error
		what := ""
		switch r.IntN(%d) {
`, l.seed, len(l.entities))
	for i, e := range l.entities {
		fmt.Fprintf(&b, "\t\tcase %d:\n\t\t\tid, a, o := propPick(r), propPick(r), propOptional(r)\n\t\t\titem := &%s{ID: id, A: a, O: o, Secret: %q + id}\n\t\t\t_ = item\n\t\t\tswitch r.IntN(10) {\n", i, e, e+":")
		n := 0
		for _, pp := range l.plan.Patterns {
			if pp.Pattern.Entity().Name != e || !writeOp(pp.Pattern.Op) {
				continue
			}
			fmt.Fprintf(&b, "\t\t\tcase %d:\n\t\t\t\twhat = %q\n\t\t\t\t%s\n", n, pp.Pattern.Name, writeCall(pp))
			n++
		}
		b.WriteString("\t\t\t}\n")
	}
	b.WriteString(`		}
		if !propExpected(err) {
			t.Fatalf("step %d, %s: %v", step, what, err)
		}
	}

	// Every item holds the key attributes of each index its entity is
	// in all or none, and is in exactly the indexes the model says: those
	// of its entity whose optional attributes it holds.
	out, err := c.Scan(ctx, &dynamodb.ScanInput{TableName: s.Tables()[0].Create.TableName})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Items) == 0 || out.LastEvaluatedKey != nil {
		t.Fatalf("the scan read %d items (more: %t)", len(out.Items), out.LastEvaluatedKey != nil)
	}
	for _, item := range out.Items {
		show := propText(item["PK"]) + " " + propText(item["SK"])
		ty, _ := item["_type"].(*types.AttributeValueMemberS)
		if ty == nil {
			t.Errorf("item %s holds no entity", show)
			continue
		}
		for _, ix := range propModel[ty.Value] {
			held := 0
			for _, a := range ix.keys {
				if _, ok := item[a]; ok {
					held++
				}
			}
			want := ix.in
			for _, a := range ix.needs {
				if _, ok := item[a]; !ok {
					want = false
				}
			}
			switch {
			case ix.in && held != 0 && held != len(ix.keys):
				t.Errorf("%s item %s holds %d of the key attributes %v of an index it is in", ty.Value, show, held, ix.keys)
			case (held == len(ix.keys)) != want:
				t.Errorf("%s item %s holds %d of the key attributes %v of an index; the model says it is in it: %t", ty.Value, show, held, ix.keys, want)
			}
		}
	}

	// No read returns an item of another entity.
	check := func(what, entity string, secret string) {
		if !strings.HasPrefix(secret, entity+":") {
			t.Errorf("%s returned an item whose secret is %q: not a %s", what, secret, entity)
		}
	}
	reads := 0
	for _, id := range propValues {
		for _, a := range propValues {
			for _, o := range propValues {
				_, _, _ = id, a, o
`)
	for _, pp := range l.plan.Patterns {
		e := pp.Pattern.Entity().Name
		switch pp.Pattern.Op {
		case model.OpGet:
			fmt.Fprintf(&b, "\t\t\t\tif got, err := s.%s(ctx, id); err == nil {\n\t\t\t\t\treads++\n\t\t\t\t\tcheck(%q, %q, got.Secret)\n\t\t\t\t} else if !errors.Is(err, ErrNotFound) {\n\t\t\t\t\tt.Fatal(err)\n\t\t\t\t}\n", pp.Pattern.GoName, pp.Pattern.Name, e)
		case model.OpQuery:
			var args, fields []string
			for _, q := range pp.Params {
				switch {
				case q.Role != plan.ParamKey:
				case q.Field == "":
					args = append(args, q.Attr.Name)
				default:
					fields = append(fields, q.Field+": "+q.Attr.Name)
				}
			}
			if len(fields) > 0 {
				args = append(args, pp.Struct.Type+"{"+strings.Join(fields, ", ")+"}")
			}
			fmt.Fprintf(&b, "\t\t\t\tfor got, err := range s.%sAll(ctx, %s) {\n\t\t\t\t\tif err != nil {\n\t\t\t\t\t\tt.Fatal(err)\n\t\t\t\t\t}\n\t\t\t\t\treads++\n\t\t\t\t\tcheck(%q, %q, got.Secret)\n\t\t\t\t}\n", pp.Pattern.GoName, strings.Join(args, ", "), pp.Pattern.Name, e)
		}
	}
	b.WriteString(`			}
		}
	}
	if reads == 0 {
		t.Error("no read returned an item")
	}
}
`)
	return []byte(b.String())
}

func writeOp(op model.Op) bool {
	switch op {
	case model.OpPut, model.OpCreate, model.OpUpdate, model.OpBatchPut, model.OpTransaction:
		return true
	}
	return false
}

// writeCall is the statement of a call of a write pattern, with the
// locals id, a, o and item.
func writeCall(pp *plan.Pattern) string {
	p := pp.Pattern
	switch p.Op {
	case model.OpPut, model.OpCreate:
		return fmt.Sprintf("err = s.%s(ctx, item)", p.GoName)
	case model.OpBatchPut:
		return fmt.Sprintf("err = s.%s(ctx, []%s{*item})", p.GoName, p.Entity().GoName)
	case model.OpTransaction:
		return fmt.Sprintf("err = s.%s(ctx, %s{%s: item})", p.GoName, pp.Struct.Type, pp.Tx.Inputs[0].Field)
	}
	var args, fields []string
	for _, q := range pp.Params {
		var v string
		switch {
		case q.Attr.Name == "id":
			v = "id"
		case q.Attr.Name == "a":
			v = "a"
		case q.Attr.Name == "o" && q.Pointer:
			v = "o"
		case q.Attr.Name == "secret":
			v = strconv.Quote(p.Entity().Name+":") + " + id"
		default:
			panic("no value for " + q.Name)
		}
		if q.Field == "" {
			args = append(args, v)
		} else {
			fields = append(fields, q.Field+": "+v)
		}
	}
	if len(fields) > 0 {
		args = append(args, pp.Struct.Type+"{"+strings.Join(fields, ", ")+"}")
	}
	return fmt.Sprintf("_, err = s.%s(ctx, %s)", p.GoName, strings.Join(args, ", "))
}

package compat_test

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/dyngen/dyngen/generator"
	"github.com/dyngen/dyngen/internal/compat"
	"github.com/dyngen/dyngen/internal/lock"
	"github.com/dyngen/dyngen/internal/output"
)

// TestExampleHistories makes two realistic changes to two examples, as
// their next pull requests could, and checks the findings against the
// examples' committed locks: one safe (retail gains a phone number its
// customers may give, and a refunded order status, accepted since no old
// reader runs), one that needs a backfill (bookreviews finds a book's
// reviews by grade, through a new index whose keys its stored reviews
// lack: the spec of example/bookreviews/next, whose test runs the
// backfill).
func TestExampleHistories(t *testing.T) {
	for _, c := range []struct {
		dir     string
		change  [][2]string
		kinds   []string // the ids' kinds expected, sorted
		failed  bool
		breaks  string // a word the breaking finding's order says
		comment string
		// next is the changed spec, when a file holds it (change is
		// then empty).
		next string
	}{
		{
			dir: "retail",
			change: [][2]string{
				{"      email: string\n", "      email: string\n      phone: {type: string, optional: true, doc: A phone number the customer may give.}\n"},
				{"values: [placed, shipped, delivered, cancelled]", "values: [placed, shipped, delivered, cancelled, refunded]"},
				{"\npatterns:\n", "\naccept:\n  read-new/Order.status=refunded/enum-added: every reader is deployed before an order is refunded\npatterns:\n"},
			},
			kinds:   []string{"added", "enum-added"},
			comment: "safe: an optional attribute, and an enum value accepted",
		},
		{
			dir:     "bookreviews",
			next:    "../../example/bookreviews/next/spec.yaml",
			failed:  true,
			breaks:  "backfill",
			comment: "needs a backfill: reviews keyed on a new index",
		},
	} {
		t.Run(c.dir, func(t *testing.T) {
			dir := "../../example/" + c.dir
			data, err := os.ReadFile(dir + "/dyngen.lock.json")
			if err != nil {
				t.Fatal(err)
			}
			committed, err := lock.Parse(data)
			if err != nil {
				t.Fatal(err)
			}
			path := dir + "/spec.yaml"
			if c.next != "" {
				path = c.next
			}
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			spec := string(src)
			for _, r := range c.change {
				if !strings.Contains(spec, r[0]) {
					t.Fatalf("the spec no longer holds %q", r[0])
				}
				spec = strings.Replace(spec, r[0], r[1], 1)
			}
			res := generator.Check("spec.yaml", []byte(spec))
			if res.Diags.HasErrors() {
				t.Fatal(res.Diags.Err())
			}
			r := compat.Check(committed, res.Plan, output.Tools(res.Model))
			var kinds, lines []string
			for _, f := range r.Findings {
				kinds = append(kinds, f.ID[strings.LastIndex(f.ID, "/")+1:])
				lines = append(lines, f.Text())
			}
			slices.Sort(kinds)
			t.Logf("%s (%s):\n%s", c.dir, c.comment, strings.Join(lines, "\n"))
			if c.kinds != nil && !slices.Equal(kinds, c.kinds) {
				t.Errorf("kinds %v, want %v", kinds, c.kinds)
			}
			if r.Failed() != c.failed {
				t.Errorf("failed %v, want %v", r.Failed(), c.failed)
			}
			if c.breaks != "" && !slices.ContainsFunc(r.Findings, func(f *compat.Finding) bool {
				return f.Verdict() == "breaking" && f.Class == compat.Keys && strings.Contains(f.Order, c.breaks)
			}) {
				t.Errorf("no breaking keys finding asks for a %s", c.breaks)
			}
			if c.next == "" {
				return
			}
			// The change's own lock, generated over the example's,
			// records the backfill: the check passes.
			data, err = os.ReadFile(strings.TrimSuffix(c.next, "spec.yaml") + "dyngen.lock.json")
			if err != nil {
				t.Fatal(err)
			}
			own, err := lock.Parse(data)
			if err != nil {
				t.Fatal(err)
			}
			r.Backfilled(own)
			if r.Failed() || !slices.ContainsFunc(r.Findings, func(f *compat.Finding) bool { return f.Verdict() == "backfill" && f.Backfilled == "pending" }) {
				t.Errorf("against the change's own lock: failed %v, findings %v", r.Failed(), r.Findings)
			}
		})
	}
}

// TestExampleNativeHistory checks the two deploys of
// example/storeinventory/native, which makes the example's synthetic GSI1
// a multi-attribute index: the first, against the example's committed
// lock, adds the index over attributes the goods already hold (no
// backfill, nothing breaking); the second, against the first's lock,
// removes GSI1, breaking until the spec accepts it, which it does.
func TestExampleNativeHistory(t *testing.T) {
	data, err := os.ReadFile("../../example/storeinventory/dyngen.lock.json")
	if err != nil {
		t.Fatal(err)
	}
	committed, err := lock.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("../../example/storeinventory/spec.yaml")
	if err != nil {
		t.Fatal(err)
	}
	first := string(src)
	for _, r := range [][2]string{
		{"      GSI1: {partitionKey: GSI1PK, sortKey: GSI1SK}\n", "      GSI1: {partitionKey: GSI1PK, sortKey: GSI1SK}\n      ByCategory:\n        partitionKey: [storeId, category]\n        sortKey: [{name: price, type: N}]\n"},
		{`      GSI1: {pk: "{storeId}#{category}", sk: "{price}"}` + "\n", `      GSI1: {pk: "{storeId}#{category}", sk: "{price}"}` + "\n      ByCategory: {}\n"},
		{"    index: GSI1\n", "    index: ByCategory\n"},
		{"    where: {price: between}\n", "    index: ByCategory\n    where: {price: between}\n"},
	} {
		if strings.Count(first, r[0]) != 1 {
			t.Fatalf("the example's spec no longer holds %q once", r[0])
		}
		first = strings.Replace(first, r[0], r[1], 1)
	}
	check := func(name, spec string, against *lock.Lock) (*compat.Result, *lock.Lock) {
		t.Helper()
		res := generator.Check("spec.yaml", []byte(spec))
		if res.Diags.HasErrors() {
			t.Fatal(res.Diags.Err())
		}
		r := compat.Check(against, res.Plan, output.Tools(res.Model))
		var lines []string
		for _, f := range r.Findings {
			lines = append(lines, f.Verdict()+" "+f.ID)
		}
		t.Logf("%s:\n%s", name, strings.Join(lines, "\n"))
		return r, lock.Build(res.Plan, "spec.yaml")
	}
	r, firstLock := check("first deploy", first, committed)
	if r.Failed() || len(r.Findings) != 2 ||
		!slices.ContainsFunc(r.Findings, func(f *compat.Finding) bool { return f.ID == "infrastructure/StoreInventory.ByCategory/added" }) ||
		!slices.ContainsFunc(r.Findings, func(f *compat.Finding) bool {
			return f.ID == "keys/Good.ByCategory/joined" && f.Verdict() != "backfill"
		}) {
		t.Errorf("first deploy: failed %v, findings %v; want the index added and the goods joining it, no backfill", r.Failed(), r.Findings)
	}
	native, err := os.ReadFile("../../example/storeinventory/native/spec.yaml")
	if err != nil {
		t.Fatal(err)
	}
	r, _ = check("second deploy", string(native), firstLock)
	if r.Failed() || !slices.ContainsFunc(r.Findings, func(f *compat.Finding) bool {
		return f.ID == "infrastructure/StoreInventory.GSI1/removed" && f.Verdict() == "accepted"
	}) {
		t.Errorf("second deploy: failed %v, findings %v; want GSI1's removal, accepted", r.Failed(), r.Findings)
	}
	// Both at once: two global index changes in one deploy.
	r, _ = check("both at once", string(native), committed)
	if !slices.ContainsFunc(r.Findings, func(f *compat.Finding) bool { return f.ID == "infrastructure/StoreInventory/indexes" }) {
		t.Errorf("both deploys at once: findings %v; want the two index changes of one deploy found", r.Findings)
	}
}

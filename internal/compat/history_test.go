package compat_test

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/dyngen/dyngen/generator"
	"github.com/dyngen/dyngen/internal/compat"
	"github.com/dyngen/dyngen/internal/lock"
)

// TestExampleHistories makes two realistic changes to two examples, as
// their next pull requests could, and checks the findings against the
// examples' committed locks: one safe (retail gains a phone number its
// customers may give, and a refunded order status, accepted since no old
// reader runs), one that needs a backfill (bookreviews finds a user's
// reviews by grade, a new index key its stored reviews lack).
func TestExampleHistories(t *testing.T) {
	for _, c := range []struct {
		dir     string
		change  [][2]string
		kinds   []string // the ids' kinds expected, sorted
		failed  bool
		breaks  string // a word the breaking finding's order says
		comment string
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
			dir: "bookreviews",
			change: [][2]string{
				{"      GSI1: {partitionKey: GSI1PK, sortKey: GSI1SK}\n", "      GSI1: {partitionKey: GSI1PK, sortKey: GSI1SK}\n      ByGrade: {partitionKey: GradePK, sortKey: GradeSK}\n"},
			},
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
			src, err := os.ReadFile(dir + "/spec.yaml")
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
			if c.dir == "bookreviews" {
				spec = reviewsByGrade(t, spec)
			}
			res := generator.Check("spec.yaml", []byte(spec))
			if res.Diags.HasErrors() {
				t.Fatal(res.Diags.Err())
			}
			r := compat.Check(committed, res.Plan)
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
		})
	}
}

// reviewsByGrade keys bookreviews' Review on a new index ByGrade and
// adds the query of it.
func reviewsByGrade(t *testing.T, spec string) string {
	t.Helper()
	i := strings.Index(spec, "\n  Review:\n")
	if i < 0 {
		t.Fatal("bookreviews has no entity Review")
	}
	j := strings.Index(spec[i:], "    keys:\n")
	if j < 0 {
		t.Fatal("Review has no keys")
	}
	at := i + j + len("    keys:\n")
	spec = spec[:at] + "      ByGrade: {pk: \"GRADE#{grade}\", sk: \"REVIEW#{isbn}#{username}\"}\n" + spec[at:]
	return strings.Replace(spec, "\npatterns:\n", "\npatterns:\n  ReviewsByGrade: {query: Review, by: [grade], index: ByGrade}\n", 1)
}

package main

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCIRank checks the ranks of the median's confidence interval against
// the binomial table: 14 for 40 values (the 14th and 27th), 6 for 20,
// 1 for 6, none below.
func TestCIRank(t *testing.T) {
	for n, want := range map[int]int{5: 0, 6: 1, 10: 2, 20: 6, 40: 14} {
		if got := ciRank(n); got != want {
			t.Errorf("ciRank(%d) = %d, want %d", n, got, want)
		}
	}
}

func TestSummary(t *testing.T) {
	st := summary([]float64{4, 1, 3, 2})
	if st.med != 2.5 || st.lo != 1 || st.hi != 4 || st.n != 4 || st.ci {
		t.Errorf("summary = %+v, want median 2.5, range 1 to 4, n 4, no CI", st)
	}
	st = summary([]float64{7, 1, 6, 2, 5, 3, 4})
	if st.med != 4 || st.lo != 1 || st.hi != 7 || !st.ci {
		t.Errorf("summary of 7 = %+v, want median 4 and the CI of ranks 1 and 7", st)
	}
}

// TestParsePairs reads interleaved passes and pairs them by pass: the
// ratio of each pass, not the ratio of the medians.
func TestParsePairs(t *testing.T) {
	const out = `goos: linux
BenchmarkMarshal/generated-2         	  100	      1000 ns/op	      1200 cpu-ns/op	    1032 B/op	       6 allocs/op
BenchmarkMarshal/attributevalue-2    	  100	      4000 ns/op	      4800 cpu-ns/op	    1840 B/op	      35 allocs/op
PASS
BenchmarkMarshal/generated-2         	  100	      2000 ns/op	      2400 cpu-ns/op	    1032 B/op	       6 allocs/op
BenchmarkMarshal/attributevalue-2    	  100	      5000 ns/op	      6000 cpu-ns/op	    1840 B/op	      35 allocs/op
`
	res, err := parse(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	gen := res.get("Marshal/generated", "sec/op")
	if len(gen) != 2 || gen[0] != 1e-6 || gen[1] != 2e-6 {
		t.Fatalf("Marshal/generated sec/op = %v, want [1e-06 2e-06]", gen)
	}
	r := paired(res.get("Marshal/attributevalue", "sec/op"), gen, ratio)
	if len(r) != 2 || math.Abs(r[0]-4) > 1e-9 || math.Abs(r[1]-2.5) > 1e-9 {
		t.Errorf("paired ratios = %v, want [4 2.5]", r)
	}
	if got := named(res, "Marshal/"); len(got) != 2 || got[0] != "Marshal/generated" {
		t.Errorf("named = %v, want the file's order", got)
	}
}

// TestSummaryTargets writes a run's micro.txt whose marshal misses its
// target against guregu and checks that the summary says so.
func TestSummaryTargets(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for range 3 {
		b.WriteString("BenchmarkMarshal/generated-2 100 1000 ns/op 1000 cpu-ns/op\n")
		b.WriteString("BenchmarkMarshal/attributevalue-2 100 3500 ns/op 3500 cpu-ns/op\n")
		b.WriteString("BenchmarkMarshal/guregu-2 100 1500 ns/op 1500 cpu-ns/op\n")
	}
	if err := os.WriteFile(filepath.Join(dir, "micro.txt"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := summarise(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"| in memory | Marshal: attributevalue over generated | 3.50× (CPU 3.50×) | ≥ 3× | yes |",
		"| in memory | Marshal: guregu over generated | 1.50× (CPU 1.50×) | ≥ 2× | **no** |",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("the summary lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "End to end") {
		t.Errorf("the summary has an area the run did not measure:\n%s", s)
	}
}

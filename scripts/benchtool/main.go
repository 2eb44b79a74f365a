// Command benchtool serves scripts/bench: it writes the synthetic specs
// the size and build measurements generate from, and it summarises the
// raw outputs of a run as the tables of BENCHMARKS.md.
//
//	go run ./scripts/benchtool spec PATTERNS [PER-TABLE] > spec.yaml
//	go run ./scripts/benchtool summary DIR
//
// The raw files are `go test -bench` outputs, and the script's own
// measurements (the command's `dyngen plan`, the user's `go build`, the
// generated lines) written as benchmark lines too, so that one parser
// reads them all. Interleaved passes run every sub-benchmark once each,
// so the k-th line of one benchmark and the k-th line of another come
// from the same pass: a ratio is taken within each pass, and the figure
// is the median of the passes' ratios. That pairing takes out the load
// drifts of a shared machine, which slow both sides of a pass alike.
package main

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/dyngen/dyngen/internal/synthetic"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "benchtool:", err)
		os.Exit(1)
	}
}

func run(args []string, w io.Writer) error {
	if len(args) == 0 {
		return fmt.Errorf("usage: benchtool spec PATTERNS [PER-TABLE] | summary DIR")
	}
	switch args[0] {
	case "spec":
		if len(args) < 2 || len(args) > 3 {
			return fmt.Errorf("usage: benchtool spec PATTERNS [PER-TABLE]")
		}
		n, err := strconv.Atoi(args[1])
		if err != nil {
			return err
		}
		per := 10
		if len(args) == 3 {
			if per, err = strconv.Atoi(args[2]); err != nil {
				return err
			}
		}
		_, err = w.Write(synthetic.SpecTables(n, per))
		return err
	case "summary":
		if len(args) != 2 {
			return fmt.Errorf("usage: benchtool summary DIR")
		}
		s, err := summarise(args[1])
		if err != nil {
			return err
		}
		_, err = io.WriteString(w, s)
		return err
	}
	return fmt.Errorf("unknown command %q", args[0])
}

// results are one file's benchmark lines: for each benchmark (its name
// without "Benchmark" and the GOMAXPROCS suffix) and unit, the values in
// the order of the lines. Go's ns/op is kept as sec/op, in seconds.
type results struct {
	values map[string]map[string][]float64
	names  []string // in the order of their first line
}

var procSuffix = regexp.MustCompile(`-\d+$`)

// parse reads the benchmark lines of r: "BenchmarkName-2 N v unit v unit...".
func parse(r io.Reader) (*results, error) {
	res := &results{values: map[string]map[string][]float64{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") || len(f)%2 != 0 {
			continue
		}
		if _, err := strconv.Atoi(f[1]); err != nil {
			continue
		}
		name := procSuffix.ReplaceAllString(strings.TrimPrefix(f[0], "Benchmark"), "")
		if res.values[name] == nil {
			res.values[name] = map[string][]float64{}
			res.names = append(res.names, name)
		}
		for i := 2; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				return nil, fmt.Errorf("%q: %v", sc.Text(), err)
			}
			unit := f[i+1]
			if unit == "ns/op" {
				unit, v = "sec/op", v/1e9
			}
			res.values[name][unit] = append(res.values[name][unit], v)
		}
	}
	return res, sc.Err()
}

func (r *results) get(name, unit string) []float64 { return r.values[name][unit] }

// --- statistics ------------------------------------------------------------

// stat is a median with the spread it comes from: the distribution-free
// 95% confidence interval of the median where there are enough values
// (ci), else the range; n values.
type stat struct {
	med, lo, hi float64
	n           int
	ci          bool
}

func summary(xs []float64) stat {
	if len(xs) == 0 {
		return stat{med: math.NaN(), lo: math.NaN(), hi: math.NaN()}
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	st := stat{n: n, lo: s[0], hi: s[n-1]}
	if n%2 == 1 {
		st.med = s[n/2]
	} else {
		st.med = (s[n/2-1] + s[n/2]) / 2
	}
	if k := ciRank(n); k > 0 {
		st.lo, st.hi, st.ci = s[k-1], s[n-k], true
	}
	return st
}

// ciRank is the rank k whose k-th smallest and k-th largest of n values
// bound a 95% confidence interval of their median: the largest k with
// P(Binomial(n, 1/2) < k) <= 0.025; 0 when n is too small for one (n < 6).
// For n = 40 it is 14: the 14th and the 27th values.
func ciRank(n int) int {
	k, cum := 0, 0.0
	for i := 0; i <= n; i++ {
		// P(B = i) = C(n, i) / 2^n, through logarithms.
		lg := func(x int) float64 { v, _ := math.Lgamma(float64(x + 1)); return v }
		cum += math.Exp(lg(n) - lg(i) - lg(n-i) - float64(n)*math.Ln2)
		if cum > 0.025 {
			break
		}
		k = i + 1
	}
	return k
}

// paired applies f to the i-th values of a and b, as many as both have.
func paired(a, b []float64, f func(x, y float64) float64) []float64 {
	n := min(len(a), len(b))
	out := make([]float64, n)
	for i := range n {
		out[i] = f(a[i], b[i])
	}
	return out
}

func ratio(x, y float64) float64 { return x / y }
func diff(x, y float64) float64  { return x - y }

// --- formatting ------------------------------------------------------------

func fmtTimes(st stat) string {
	if st.n == 0 {
		return "—"
	}
	if st.n == 1 {
		return fmt.Sprintf("%.2f×", st.med)
	}
	return fmt.Sprintf("%.2f× %s", st.med, spread(st, func(v float64) string { return fmt.Sprintf("%.2f", v) }))
}

func spread(st stat, f func(float64) string) string {
	if st.ci {
		return fmt.Sprintf("[%s, %s] (95%% CI, n=%d)", f(st.lo), f(st.hi), st.n)
	}
	return fmt.Sprintf("(%s to %s, n=%d)", f(st.lo), f(st.hi), st.n)
}

// dur formats seconds with a unit that keeps three significant digits.
func dur(s float64) string {
	a := math.Abs(s)
	switch {
	case math.IsNaN(s):
		return "—"
	case a >= 1:
		return fmt.Sprintf("%.2f s", s)
	case a >= 1e-3:
		return fmt.Sprintf("%.3g ms", s*1e3)
	case a >= 1e-6:
		return fmt.Sprintf("%.3g µs", s*1e6)
	}
	return fmt.Sprintf("%.3g ns", s*1e9)
}

func withSpread(st stat, f func(float64) string) string {
	if st.n == 0 {
		return "—"
	}
	if st.n == 1 {
		return f(st.med)
	}
	return f(st.med) + " " + spread(st, f)
}

func mib(b float64) string { return fmt.Sprintf("%.1f MiB", b/(1<<20)) }

func pct(x float64) string { return fmt.Sprintf("%+.2f%%", x*100) }

func yesNo(ok bool) string {
	if ok {
		return "yes"
	}
	return "**no**"
}

// --- the report --------------------------------------------------------------

// report collects the figures held against a target, for the table that
// opens the summary, and each area's own tables.
type report struct {
	dir     string
	targets strings.Builder
	areas   strings.Builder
}

func (r *report) target(area, figure, today, target, met string) {
	fmt.Fprintf(&r.targets, "| %s | %s | %s | %s | %s |\n", area, figure, today, target, met)
}

func (r *report) printf(format string, a ...any) { fmt.Fprintf(&r.areas, format, a...) }

// load reads DIR/name, or returns nil when the run did not write it.
func (r *report) load(name string) (*results, error) {
	f, err := os.Open(filepath.Join(r.dir, name))
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return parse(f)
}

func summarise(dir string) (string, error) {
	r := &report{dir: dir}
	for _, area := range []func(*report) error{
		(*report).micro, (*report).e2e, (*report).bulk, (*report).backfill, (*report).generator,
		(*report).scale, (*report).code,
	} {
		if err := area(r); err != nil {
			return "", err
		}
	}
	var out strings.Builder
	out.WriteString("## Figures against their targets\n\n")
	out.WriteString("| Area | Figure | Today | Target | Met? |\n|---|---|---|---|---|\n")
	out.WriteString(r.targets.String())
	out.WriteString("\n")
	out.WriteString(r.areas.String())
	return out.String(), nil
}

// micro: micro.txt, the in-memory comparison with the alternatives.
func (r *report) micro() error {
	res, err := r.load("micro.txt")
	if res == nil || err != nil {
		return err
	}
	r.printf("## In memory: generated code against the alternatives (micro.txt)\n\n")
	r.printf("Medians of the passes.\n\n| Benchmark | sec/op | cpu/op | B/op | allocs/op |\n|---|---|---|---|---|\n")
	for _, name := range named(res, "Marshal/", "Unmarshal/", "QueryInput/") {
		r.printf("| %s | %s | %s | %.0f | %.0f |\n", name,
			withSpread(summary(res.get(name, "sec/op")), dur),
			dur(summary(res.get(name, "cpu-ns/op")).med/1e9),
			summary(res.get(name, "B/op")).med, summary(res.get(name, "allocs/op")).med)
	}
	r.printf("\nThe alternative's time over the generated code's, in each pass; the median of the passes.\n\n")
	r.printf("| Operation | Against | Wall time | CPU time | Target | Met? |\n|---|---|---|---|---|---|\n")
	for _, c := range []struct {
		op, alt string
		target  float64
	}{
		{"Marshal", "attributevalue", 3}, {"Marshal", "guregu", 2}, {"Marshal", "handwritten", 0},
		{"Unmarshal", "attributevalue", 8}, {"Unmarshal", "guregu", 8},
		{"Unmarshal", "attributevalue-attrs", 8}, {"Unmarshal", "guregu-attrs", 8},
		{"Unmarshal", "handwritten", 0},
		{"QueryInput", "builder", 8}, {"QueryInput", "handwritten", 0},
	} {
		gen, alt := c.op+"/generated", c.op+"/"+c.alt
		wall := summary(paired(res.get(alt, "sec/op"), res.get(gen, "sec/op"), ratio))
		cpu := summary(paired(res.get(alt, "cpu-ns/op"), res.get(gen, "cpu-ns/op"), ratio))
		tgt, met := "—", "—"
		if c.target > 0 {
			tgt = fmt.Sprintf("≥ %g×", c.target)
			switch w, p := wall.med >= c.target, cpu.med >= c.target; {
			case w && p:
				met = "yes"
			case w:
				met = "by wall time only"
			case p:
				met = "by CPU time only"
			default:
				met = "**no**"
			}
			r.target("in memory", fmt.Sprintf("%s: %s over generated", c.op, c.alt),
				fmt.Sprintf("%.2f× (CPU %.2f×)", wall.med, cpu.med), tgt, met)
		}
		r.printf("| %s | %s | %s | %s | %s | %s |\n", c.op, c.alt, fmtTimes(wall), fmtTimes(cpu), tgt, met)
	}
	r.printf("\n")
	return nil
}

// e2e: e2e.txt (against DynamoDB Local) and canned.txt (no network).
func (r *report) e2e() error {
	live, err := r.load("e2e.txt")
	if err != nil {
		return err
	}
	canned, err := r.load("canned.txt")
	if err != nil || (live == nil && canned == nil) {
		return err
	}
	r.printf("## End to end: generated methods against the raw SDK calls (e2e.txt, canned.txt)\n\n")
	r.printf("Overhead is generated / sdk − 1 within each pass (median [95%% CI or range]); the extra work is generated − sdk in `E2ECanned`, which has no network; its share is that over the sdk call's median time against DynamoDB Local. The target: under 5%% overhead.\n\n")
	r.printf("| Operation | sdk, generated (median) | Overhead, wall | Overhead, client CPU | Extra work, no network | Share of the call | Met? |\n|---|---|---|---|---|---|---|\n")
	ops := map[string]string{"GetItem": "E2EGetItem", "Query": "E2EQuery", "PutItem": "E2EPutItem", "UpdateItem": "E2EUpdateItem"}
	for _, op := range []string{"GetItem", "Query", "PutItem", "UpdateItem"} {
		b := ops[op]
		sdk, gen := live.get(b+"/sdk", "sec/op"), live.get(b+"/generated", "sec/op")
		over := summary(paired(gen, sdk, func(x, y float64) float64 { return x/y - 1 }))
		cpu := summary(paired(live.get(b+"/generated", "cpu-ns/op"), live.get(b+"/sdk", "cpu-ns/op"), func(x, y float64) float64 { return x/y - 1 }))
		extra := summary(paired(canned.get("E2ECanned/"+op+"/generated", "sec/op"), canned.get("E2ECanned/"+op+"/sdk", "sec/op"), diff))
		sdkMed := summary(sdk).med
		share := extra.med / sdkMed
		met := "—"
		if extra.n > 0 && len(sdk) > 0 {
			met = yesNo(share < 0.05)
			r.target("end to end", op+": the generated method's overhead", pct(share)+" of a call", "< 5%", met)
		}
		r.printf("| %s | %s, %s | %s | %s | %s | %s | %s |\n", op, dur(sdkMed), dur(summary(gen).med),
			withSpread(over, pct), withSpread(cpu, pct), withSpread(extra, dur),
			func() string {
				if math.IsNaN(share) {
					return "—"
				}
				return pct(share)
			}(), met)
	}
	r.printf("\n")
	return nil
}

// bulk: bulk.txt (BenchmarkBulk) and bulklat.txt (BenchmarkBulkLatency).
func (r *report) bulk() error {
	res, err := r.load("bulk.txt")
	if err != nil {
		return err
	}
	lat, err := r.load("bulklat.txt")
	if err != nil || (res == nil && lat == nil) {
		return err
	}
	cs := []string{"1", "2", "4", "8", "16"}
	r.printf("## Bulk: batch methods against one call per item (bulk.txt, bulklat.txt)\n\n")
	if res != nil {
		r.printf("Items per second (median of the passes), and the batch method's over the sequential loop's in the same pass.\n\n")
		r.printf("| Operation | Sequential | c=1 | c=2 | c=4 | **c=8 (default)** | c=16 |\n|---|---|---|---|---|---|---|\n")
		for _, op := range []string{"put", "get"} {
			seq := res.get("Bulk/"+op+"/sequential", "items/s")
			row := fmt.Sprintf("| %s, items/s | %.0f", op, summary(seq).med)
			rat := fmt.Sprintf("| %s, over sequential | 1", op)
			for _, c := range cs {
				b := res.get("Bulk/"+op+"/batch/c="+c, "items/s")
				row += fmt.Sprintf(" | %.0f", summary(b).med)
				st := summary(paired(b, seq, ratio))
				rat += " | " + fmtTimes(st)
				if c == "8" {
					r.target("bulk", fmt.Sprintf("10,000 %ss: batch (c=8) over the loop", op),
						fmt.Sprintf("%.2f×", st.med), "none set", "—")
				}
			}
			r.printf("%s |\n%s |\n", row, rat)
		}
		r.printf("\nEach concurrency over c=1, in the same pass:\n\n| Operation | c=2 | c=4 | c=8 | c=16 |\n|---|---|---|---|---|\n")
		for _, op := range []string{"put", "get"} {
			one := res.get("Bulk/"+op+"/batch/c=1", "items/s")
			row := "| " + op
			for _, c := range cs[1:] {
				row += " | " + fmtTimes(summary(paired(res.get("Bulk/"+op+"/batch/c="+c, "items/s"), one, ratio)))
			}
			r.printf("%s |\n", row)
		}
		r.printf("\n")
	}
	if lat != nil {
		r.printf("With a latency added to every batch request (`BulkLatency`): items per second, median, and each concurrency over c=1 in the same pass.\n\n")
		r.printf("| Operation | c=1 | c=2 | c=4 | c=8 | c=16 |\n|---|---|---|---|---|---|\n")
		for _, op := range []string{"put", "get"} {
			one := lat.get("BulkLatency/"+op+"/batch/c=1", "items/s")
			row := fmt.Sprintf("| %s | %.0f", op, summary(one).med)
			for _, c := range cs[1:] {
				b := lat.get("BulkLatency/"+op+"/batch/c="+c, "items/s")
				row += fmt.Sprintf(" | %.0f (%.2f×)", summary(b).med, summary(paired(b, one, ratio)).med)
			}
			r.printf("%s |\n", row)
		}
		r.printf("\n")
	}
	return nil
}

// backfill: backfill.txt (BenchmarkBackfill, BenchmarkBackfillLatency and
// BenchmarkBackfillRate, each pass running the three).
func (r *report) backfill() error {
	res, err := r.load("backfill.txt")
	if res == nil || err != nil {
		return err
	}
	r.printf("## Backfills (backfill.txt)\n\n")
	r.printf("Users rewritten per second (median of the passes), and each over the hand-written loop in the same pass.\n\n")
	r.printf("| Variant | DynamoDB Local | over the loop | with 5 ms a call | over the loop |\n|---|---|---|---|---|\n")
	for _, v := range []string{"loop", "dyngen/segments=1", "dyngen/segments=4", "dyngen/segments=16"} {
		local, lat := res.get("Backfill/"+v, "items/s"), res.get("BackfillLatency/"+v, "items/s")
		over := summary(paired(local, res.get("Backfill/loop", "items/s"), ratio))
		overLat := summary(paired(lat, res.get("BackfillLatency/loop", "items/s"), ratio))
		cell := func(xs []float64) string {
			if len(xs) == 0 {
				return "—"
			}
			return fmt.Sprintf("%.0f", summary(xs).med)
		}
		r.printf("| %s | %s | %s | %s | %s |\n", v, cell(local), fmtTimes(over), cell(lat), fmtTimes(overLat))
		switch v {
		case "dyngen/segments=4":
			r.target("backfill", "2,000 users on DynamoDB Local: 4 segments over the hand loop", fmt.Sprintf("%.2f×", over.med), "≥ 0.90×", yesNo(over.med >= 0.9))
			r.target("backfill", "500 users, 5 ms a call: 4 segments over the hand loop", fmt.Sprintf("%.2f×", overLat.med), "≥ 2.50×", yesNo(overLat.med >= 2.5))
		}
	}
	r.printf("\nThe rate limit: capacity units consumed a second, over the run (4 segments, 2,000 users), against the target.\n\n")
	r.printf("| Target | Consumed | Consumed over target |\n|---|---|---|\n")
	for _, t := range []string{"200", "800"} {
		cu, of := summary(res.get("BackfillRate/target="+t, "cu/s")), summary(res.get("BackfillRate/target="+t, "of-target"))
		r.printf("| %s cu/s | %.1f | %.3f %s |\n", t, cu.med, of.med, spread(of, func(v float64) string { return fmt.Sprintf("%.3f", v) }))
		r.target("backfill", "rate held, target "+t+" cu/s: consumed over target", fmt.Sprintf("%.3f", of.med), "0.95 to 1.02", yesNo(of.med >= 0.95 && of.med <= 1.02))
	}
	r.printf("\n")
	return nil
}

// generator: generate.txt (BenchmarkGenerate), check.txt (BenchmarkCheck
// and BenchmarkCheckOneTable, interleaved) and command.txt
// (BenchmarkCommand).
func (r *report) generator() error {
	gen, err := r.load("generate.txt")
	if err != nil {
		return err
	}
	check, err := r.load("check.txt")
	if err != nil {
		return err
	}
	cmd, err := r.load("command.txt")
	if err != nil || (gen == nil && check == nil && cmd == nil) {
		return err
	}
	r.printf("## The generator and the command (generate.txt, check.txt, command.txt)\n\n")
	if gen != nil {
		r.printf("| `Generate` | sec/op | per pattern | MiB allocated |\n|---|---|---|---|\n")
		per := map[int]float64{}
		for _, n := range []int{100, 1000, 5000, 10000} {
			name := fmt.Sprintf("Generate/patterns=%d", n)
			st := summary(gen.get(name, "sec/op"))
			per[n] = st.med / float64(n)
			r.printf("| %d patterns | %s | %s | %.0f |\n", n, withSpread(st, dur), dur(per[n]), summary(gen.get(name, "B/op")).med/(1<<20))
		}
		r.printf("\n")
		if per[1000] > 0 && per[10000] > 0 {
			// In each pass: the time per pattern at 10,000 over that at 1,000.
			g := summary(paired(gen.get("Generate/patterns=10000", "sec/op"), gen.get("Generate/patterns=1000", "sec/op"),
				func(x, y float64) float64 { return x / 10 / y }))
			r.printf("Time per pattern at 10,000 patterns over that at 1,000, in each pass: %s.\n\n", fmtTimes(g))
			r.target("generator", "`Generate`: time per pattern at 10,000 patterns over at 1,000",
				fmt.Sprintf("%.2f×", g.med), "≤ 1.25× (linear)", yesNo(g.med <= 1.25))
		}
	}
	if check != nil {
		tens, one := check.get("Check", "sec/op"), check.get("CheckOneTable", "sec/op")
		rt := summary(paired(one, tens, ratio))
		oneB := summary(check.get("CheckOneTable", "B/op"))
		r.printf("| Check of 5,000 patterns | sec/op | MiB allocated | allocs/op |\n|---|---|---|---|\n")
		for _, n := range []string{"Check", "CheckOneTable"} {
			r.printf("| `%s` | %s | %.1f | %.0f |\n", n, withSpread(summary(check.get(n, "sec/op")), dur),
				summary(check.get(n, "B/op")).med/(1<<20), summary(check.get(n, "allocs/op")).med)
		}
		r.printf("\n`CheckOneTable` over `Check`, in each pass: %s.\n\n", fmtTimes(rt))
		r.target("one table", "`CheckOneTable` over `Check`, time", fmt.Sprintf("%.2f×", rt.med), "≤ 3×", yesNo(rt.med <= 3))
		r.target("one table", "`CheckOneTable`, allocated per check", mib(oneB.med), "< 200 MB (190.7 MiB)", yesNo(oneB.med < 200e6))
	}
	if cmd != nil {
		r.printf("| `Command`, 5,000 patterns | sec/op |\n|---|---|\n")
		for _, v := range []string{"fresh", "unchanged"} {
			st := summary(cmd.get("Command/"+v, "sec/op"))
			r.printf("| %s | %s |\n", v, withSpread(st, dur))
			r.target("command", "`dyngen spec.yaml -o out`, 5,000 patterns, "+v, dur(st.med), "≤ 2 s", yesNo(st.med <= 2))
		}
		r.printf("\n")
	}
	return nil
}

var sizesLine = regexp.MustCompile(`(the report|the package): (\d+) bytes for 100 entities, (\d+) for 200: ([\d.]+) times`)

// scale: onetable.txt (BenchmarkOneTable), sizes.txt (the log of
// TestOneTableSizesLinear) and plancmd.txt (`dyngen plan` and `dyngen
// spec.yaml -o DIR`, timed).
func (r *report) scale() error {
	res, err := r.load("onetable.txt")
	if err != nil {
		return err
	}
	plan, err := r.load("plancmd.txt")
	if err != nil {
		return err
	}
	sizes, err := os.ReadFile(filepath.Join(r.dir, "sizes.txt"))
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	if res == nil && plan == nil && sizes == nil {
		return nil
	}
	r.printf("## One table of 1,000 entities against tables of ten (onetable.txt, sizes.txt, plancmd.txt)\n\n")
	if res != nil {
		m := func(u string) stat { return summary(res.get("OneTable", u)) }
		r.printf("| `OneTable` metric | Median of the runs |\n|---|---|\n")
		for _, u := range []string{"ratio", "plan-ratio"} {
			r.printf("| %s | %s |\n", u, fmtTimes(m(u)))
		}
		for _, u := range []string{"one-s/op", "tens-s/op", "one-plan-s/op", "tens-plan-s/op"} {
			r.printf("| %s | %s |\n", u, withSpread(m(u), dur))
		}
		for _, u := range []string{"one-plan-MiB/op", "tens-plan-MiB/op", "one-MiB/op", "tens-MiB/op", "one-report-MiB", "one-package-MiB"} {
			r.printf("| %s | %.1f MiB |\n", u, m(u).med)
		}
		r.printf("\n")
		r.target("one table", "`OneTable`: one table over tables of ten, plan + report + package", fmt.Sprintf("%.2f×", m("ratio").med), "≤ 3×", yesNo(m("ratio").med <= 3))
		r.target("one table", "`OneTable`: the same, plan + report", fmt.Sprintf("%.2f×", m("plan-ratio").med), "≤ 3×", yesNo(m("plan-ratio").med <= 3))
		pm := m("one-plan-MiB/op").med
		r.target("one table", "`OneTable`: one table, plan + report, allocated", fmt.Sprintf("%.1f MiB", pm), "< 200 MB (190.7 MiB)", yesNo(pm*(1<<20) < 200e6))
	}
	for _, m := range sizesLine.FindAllStringSubmatch(string(sizes), -1) {
		v, _ := strconv.ParseFloat(m[4], 64)
		r.printf("- %s of 200 entities in one table over that of 100: %.2f× (%s and %s bytes)\n", m[1], v, m[3], m[2])
		r.target("one table", m[1]+" of 200 entities in one table over 100 (`TestOneTableSizesLinear`)", fmt.Sprintf("%.2f×", v), "≤ 2.05× (linear)", yesNo(v <= 2.05))
	}
	if sizes != nil {
		r.printf("\n")
	}
	if plan != nil {
		r.printf("| Command, 1,000 entities, 5,000 patterns | Spec | wall time | CPU (user + sys) | resident at most |\n|---|---|---|---|---|\n")
		for _, c := range []struct{ name, what string }{{"PlanCommand", "`dyngen plan spec.yaml`"}, {"GenerateCommand", "`dyngen spec.yaml -o DIR`"}} {
			for _, v := range []string{"one-table", "tables-of-ten"} {
				b := c.name + "/" + v
				cpu := summary(paired(plan.get(b, "user-s"), plan.get(b, "sys-s"), func(x, y float64) float64 { return x + y }))
				r.printf("| %s | %s | %s | %s | %.0f MB |\n", c.what, v, withSpread(summary(plan.get(b, "wall-s")), dur),
					dur(cpu.med), summary(plan.get(b, "maxrss-KB")).med/1000)
			}
		}
		r.printf("\n")
		for _, c := range []struct{ name, what string }{{"PlanCommand", "`dyngen plan`"}, {"GenerateCommand", "`dyngen spec.yaml -o DIR`"}} {
			one, tens := plan.get(c.name+"/one-table", "wall-s"), plan.get(c.name+"/tables-of-ten", "wall-s")
			if len(one) == 0 {
				continue
			}
			rt := summary(paired(one, tens, ratio))
			r.printf("- %s, one table over tables of ten, in each pass: %s\n", c.what, fmtTimes(rt))
			r.target("one table", c.what+": one table over tables of ten", fmt.Sprintf("%.2f×", rt.med), "≤ 3×", yesNo(rt.med <= 3))
			if c.name == "GenerateCommand" {
				st := summary(tens)
				r.target("command", "`dyngen spec.yaml -o DIR` as a user runs it, 5,000 patterns (tables of ten)", dur(st.med), "≤ 2 s", yesNo(st.med <= 2))
			}
		}
		r.printf("\n")
	}
	return nil
}

// code: code.txt (lines of generated Go) and build.txt (the user's
// `go build` of the generated package).
func (r *report) code() error {
	res, err := r.load("code.txt")
	if err != nil {
		return err
	}
	build, err := r.load("build.txt")
	if err != nil || (res == nil && build == nil) {
		return err
	}
	r.printf("## Generated code and the user's build (code.txt, build.txt)\n\n")
	if res != nil {
		r.printf("| Package | Files | Lines | KiB | Lines per pattern | Bytes per pattern |\n|---|---|---|---|---|---|\n")
		for _, name := range named(res, "GeneratedCode/") {
			lines, bytes, files := res.get(name, "lines"), res.get(name, "bytes"), res.get(name, "files")
			if len(lines) == 0 || len(bytes) == 0 || len(files) == 0 {
				continue
			}
			what := strings.TrimPrefix(name, "GeneratedCode/")
			perL, perB := "—", "—"
			if p, ok := strings.CutPrefix(what, "patterns="); ok {
				n, _ := strconv.ParseFloat(p, 64)
				perL, perB = fmt.Sprintf("%.1f", lines[0]/n), fmt.Sprintf("%.0f", bytes[0]/n)
				if p == "1000" {
					r.target("generated code", "lines per pattern, synthetic spec of 1,000 patterns", perL, "≤ 52.5 (half of issue 18's 105)", yesNo(lines[0]/n <= 52.5))
				}
			}
			if what == "example/bookreviews" {
				r.target("generated code", "`example/bookreviews`, generated lines", fmt.Sprintf("%.0f", lines[0]), "≤ 2,000", yesNo(lines[0] <= 2000))
			}
			r.printf("| %s | %.0f | %.0f | %.0f | %s | %s |\n", what, files[0], lines[0], bytes[0]/1024, perL, perB)
		}
		r.printf("\n")
	}
	if build != nil {
		r.printf("| `go build` of the generated package | CPU (user + sys) | per pattern | wall | resident at most |\n|---|---|---|---|---|\n")
		for _, name := range named(build, "UserBuild/") {
			p, _ := strings.CutPrefix(name, "UserBuild/patterns=")
			n, _ := strconv.ParseFloat(p, 64)
			cpu := summary(paired(build.get(name, "user-s"), build.get(name, "sys-s"), func(x, y float64) float64 { return x + y }))
			per := cpu.med / n
			r.printf("| %s patterns | %s | %s | %s | %.0f MB |\n", p, withSpread(cpu, dur), dur(per),
				dur(summary(build.get(name, "wall-s")).med), summary(build.get(name, "maxrss-KB")).med/1000)
			if p == "1000" {
				r.target("generated code", "the user's `go build`, CPU per pattern (1,000 patterns)", dur(per), "≤ 12.5 ms (half of issue 18's 25 ms)", yesNo(per <= 0.0125))
			}
		}
		r.printf("\n")
	}
	return nil
}

// named lists the benchmarks of res whose names start with one of the
// prefixes, by prefix, each in the order of the file.
func named(res *results, prefixes ...string) []string {
	var out []string
	for _, p := range prefixes {
		for _, name := range res.names {
			if strings.HasPrefix(name, p) {
				out = append(out, name)
			}
		}
	}
	return out
}

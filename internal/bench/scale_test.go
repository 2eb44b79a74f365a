package bench

import (
	"runtime"
	"testing"
	"time"

	"github.com/dyngen/dyngen/generator"
	"github.com/dyngen/dyngen/internal/golang"
	"github.com/dyngen/dyngen/internal/report"
	"github.com/dyngen/dyngen/internal/synthetic"
)

// run is what one pass of the pipeline over a spec took: the time and
// the bytes allocated to plan it (check: parse, resolve, plan, the
// outputs' checks) and to write its report (`dyngen plan`'s text), the
// time and bytes of the whole with the Go package, and the sizes of the
// report and of the package.
type run struct {
	planTime, allTime     time.Duration
	planAlloc, allAlloc   uint64
	planText, packageSize int
}

// countWriter counts the bytes written to it.
type countWriter struct{ n int }

func (w *countWriter) Write(p []byte) (int, error) {
	w.n += len(p)
	return len(p), nil
}

// pipeline plans the spec in data, writes its report as text and
// generates its Go package, as `dyngen plan` and `dyngen` do.
func pipeline(tb testing.TB, data []byte) run {
	tb.Helper()
	var r run
	var before, planned, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	res := generator.Check("big.yaml", data)
	if res.Diags.HasErrors() {
		tb.Fatal(res.Diags.Err())
	}
	var text countWriter
	if err := report.New("big.yaml", res.Plan, res.Diags).WriteText(&text); err != nil {
		tb.Fatal(err)
	}
	r.planTime = time.Since(start)
	runtime.ReadMemStats(&planned)
	files, err := golang.Package(res.Plan, "big.yaml")
	if err != nil {
		tb.Fatal(err)
	}
	r.allTime = time.Since(start)
	runtime.ReadMemStats(&after)
	r.planAlloc = planned.TotalAlloc - before.TotalAlloc
	r.allAlloc = after.TotalAlloc - before.TotalAlloc
	r.planText = text.n
	for _, f := range files {
		r.packageSize += len(f.Data)
	}
	return r
}

// BenchmarkOneTable runs the pipeline (plan, report, Go package) on
// 1,000 entities and 5,000 patterns in one table, where every query's
// partition (OWNER#{owner}) is shared by all the entities, which only
// their sort key prefixes tell apart, and on the same entities in tables
// of ten, one right after the other in each iteration (in turn first), so
// that a busy machine slows both alike. It reports the ratio of the two
// times (ratio: the whole; plan-ratio: plan and report), the time and
// megabytes allocated of each (one-*, tens-*), and the size of the one
// table's report and package. The targets: the one table within 3 times
// the tables of ten, planning it under 200 MB.
func BenchmarkOneTable(b *testing.B) {
	specs := [2][]byte{synthetic.SpecTables(5000, 1000), synthetic.Spec(5000)}
	var sum [2]run
	i := 0
	for b.Loop() {
		for j := range 2 {
			k := (i + j) % 2
			r := pipeline(b, specs[k])
			sum[k].planTime += r.planTime
			sum[k].allTime += r.allTime
			sum[k].planAlloc += r.planAlloc
			sum[k].allAlloc += r.allAlloc
			sum[k].planText, sum[k].packageSize = r.planText, r.packageSize
		}
		i++
	}
	one, tens := sum[0], sum[1]
	n := float64(i)
	const mb = 1 << 20
	b.ReportMetric(one.allTime.Seconds()/tens.allTime.Seconds(), "ratio")
	b.ReportMetric(one.planTime.Seconds()/tens.planTime.Seconds(), "plan-ratio")
	b.ReportMetric(one.allTime.Seconds()/n, "one-s/op")
	b.ReportMetric(tens.allTime.Seconds()/n, "tens-s/op")
	b.ReportMetric(one.planTime.Seconds()/n, "one-plan-s/op")
	b.ReportMetric(tens.planTime.Seconds()/n, "tens-plan-s/op")
	b.ReportMetric(float64(one.planAlloc)/n/mb, "one-plan-MiB/op")
	b.ReportMetric(float64(tens.planAlloc)/n/mb, "tens-plan-MiB/op")
	b.ReportMetric(float64(one.allAlloc)/n/mb, "one-MiB/op")
	b.ReportMetric(float64(tens.allAlloc)/n/mb, "tens-MiB/op")
	b.ReportMetric(float64(one.planText)/mb, "one-report-MiB")
	b.ReportMetric(float64(one.packageSize)/mb, "one-package-MiB")
}

// TestOneTableSizesLinear checks that the report and the Go package of a
// table whose every query's partition all its entities share grow
// linearly with its entities: twice the entities (and patterns) give at
// most 2.05 times the report and the package (2.01 and 1.97 times; the
// names' digits grow too). Each read's report and doc used to name every
// other entity of the partition: the sizes grew with the square of the
// entities (3.85 and 2.12 times from 100 to 200). The sizes do not
// depend on the machine: this is no timing.
func TestOneTableSizesLinear(t *testing.T) {
	small := pipeline(t, synthetic.SpecTables(500, 100))
	large := pipeline(t, synthetic.SpecTables(1000, 200))
	for _, s := range []struct {
		what         string
		small, large int
	}{
		{"the report", small.planText, large.planText},
		{"the package", small.packageSize, large.packageSize},
	} {
		ratio := float64(s.large) / float64(s.small)
		t.Logf("%s: %d bytes for 100 entities, %d for 200: %.2f times", s.what, s.small, s.large, ratio)
		if ratio > 2.05 {
			t.Errorf("%s of 200 entities in one table is %.2f times that of 100 (%d and %d bytes): it grows faster than the patterns", s.what, ratio, s.large, s.small)
		}
	}
}

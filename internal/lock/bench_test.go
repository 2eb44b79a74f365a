package lock_test

import (
	"testing"

	"github.com/dyngen/dyngen/generator"
	"github.com/dyngen/dyngen/internal/lock"
	"github.com/dyngen/dyngen/internal/synthetic"
)

// BenchmarkLock measures what the lock adds to every generation: its
// building from the plan and its JSON, on the synthetic spec of 5,000
// patterns BenchmarkCommand generates.
func BenchmarkLock(b *testing.B) {
	res := generator.Check("big.yaml", synthetic.Spec(5000))
	if res.Diags.HasErrors() {
		b.Fatal(res.Diags.Err())
	}
	var size int
	for b.Loop() {
		data, err := lock.Marshal(lock.Build(res.Plan, "big.yaml"))
		if err != nil {
			b.Fatal(err)
		}
		size = len(data)
	}
	b.ReportMetric(float64(size)/(1<<20), "MiB")
}

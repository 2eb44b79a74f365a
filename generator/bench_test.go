package generator

import (
	"fmt"
	"testing"

	"github.com/dyngen/dyngen/internal/synthetic"
)

func TestSyntheticSpecIsSound(t *testing.T) {
	files, diags := Generate("big.yaml", "big.yaml", synthetic.Spec(103))
	if diags.HasErrors() {
		t.Fatal(diags.Err())
	}
	if len(files) < 21 {
		t.Fatalf("only %d files", len(files))
	}
}

// BenchmarkGenerate measures the whole pipeline (parse, resolve, plan,
// emit) on synthetic specs: time should grow linearly with the patterns.
func BenchmarkGenerate(b *testing.B) {
	for _, n := range []int{100, 1000, 5000, 10000} {
		spec := synthetic.Spec(n)
		b.Run(fmt.Sprintf("patterns=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, diags := Generate("big.yaml", "big.yaml", spec); diags.HasErrors() {
					b.Fatal(diags.Err())
				}
			}
		})
	}
}

// BenchmarkCheck measures the part of BenchmarkGenerate before emission:
// parse, resolve, plan and the whole-model checks.
func BenchmarkCheck(b *testing.B) {
	spec := synthetic.Spec(5000)
	b.ReportAllocs()
	for b.Loop() {
		if res := Check("big.yaml", spec); res.Diags.HasErrors() {
			b.Fatal(res.Diags.Err())
		}
	}
}

// BenchmarkCheckOneTable is BenchmarkCheck with the 1,000 entities in one
// table rather than tables of ten: every query's partition is shared by
// all of them. Planning should take about as long as BenchmarkCheck.
func BenchmarkCheckOneTable(b *testing.B) {
	spec := synthetic.SpecTables(5000, 1000)
	b.ReportAllocs()
	for b.Loop() {
		if res := Check("big.yaml", spec); res.Diags.HasErrors() {
			b.Fatal(res.Diags.Err())
		}
	}
}

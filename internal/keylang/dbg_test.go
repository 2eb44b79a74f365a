package keylang

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestDbgFuzzInput(t *testing.T) {
	raw, err := os.ReadFile(os.Getenv("FUZZIN"))
	if err != nil {
		t.Skip()
	}
	line := strings.Split(string(raw), "\n")[1]
	line = strings.TrimSuffix(strings.TrimPrefix(line, "[]byte("), ")")
	s, _ := strconv.Unquote(line)
	r := &fuzzReader{b: []byte(s)}
	withSK := r.next()%2 == 0
	var a, b Key
	a.PK = r.template()
	if withSK {
		sk := r.template()
		a.SK = &sk
	}
	b.PK = r.template()
	if withSK {
		sk := r.template()
		b.SK = &sk
	}
	t.Logf("a=%v b=%v", a, b)
	t.Logf("a=%+v\nb=%+v", a.PK.Segs, b.PK.Segs)
	st := time.Now()
	v, w := CollideBudget(a, b, DefaultBudget)
	t.Log(v, w, time.Since(st))
}

func TestDbgStress(t *testing.T) {
	if os.Getenv("STRESS") == "" {
		t.Skip()
	}
	rnd := func(seed uint64) []byte {
		x := seed*6364136223846793005 + 1442695040888963407
		b := make([]byte, 40)
		for i := range b {
			x = x*6364136223846793005 + 1442695040888963407
			b[i] = byte(x >> 33)
		}
		return b
	}
	var worst time.Duration
	for seed := uint64(0); seed < 200000; seed++ {
		r := &fuzzReader{b: rnd(seed)}
		withSK := r.next()%2 == 0
		var a, b Key
		a.PK = r.template()
		if withSK {
			sk := r.template()
			a.SK = &sk
		}
		b.PK = r.template()
		if withSK {
			sk := r.template()
			b.SK = &sk
		}
		st := time.Now()
		v, _ := Collide(a, b)
		d := time.Since(st)
		if d > worst || d > 200*time.Millisecond {
			worst = max(worst, d)
			t.Logf("seed %d: %v vs %v: %v in %v", seed, a, b, v, d)
		}
	}
}

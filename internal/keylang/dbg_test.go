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
	v, w := CollideBudget(a, b, 200000)
	t.Log(v, w, time.Since(st))
}

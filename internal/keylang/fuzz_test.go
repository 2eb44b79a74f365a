package keylang

import (
	"flag"
	"testing"
	"time"
)

// fuzzReader hands out the fuzzer's bytes, then zeros.
type fuzzReader struct {
	b []byte
	i int
}

func (r *fuzzReader) next() int {
	if r.i >= len(r.b) {
		return 0
	}
	r.i++
	return int(r.b[r.i-1])
}

// template builds a template from the bytes. It does not enforce the
// rules of Validate: Collide must cope with any template.
func (r *fuzzReader) template() Template {
	const alpha = "ab#:-.01TZ"
	var t Template
	for range r.next() % 5 {
		if x := r.next(); x%3 == 0 {
			s := Segment{Var: string("xyz"[r.next()%3]), Kind: Kind(r.next() % 7)}
			switch s.Kind {
			case Enum:
				pool := []string{"a", "b", "ab", "0", "", "a#"}
				bits := r.next()
				for i, v := range pool {
					if bits&(1<<i) != 0 {
						s.Values = append(s.Values, v)
					}
				}
			case Path:
				s.PathSep = rune("#:-."[r.next()%4])
			case String:
				s.Empty = r.next()%2 == 0
			}
			t.Segs = append(t.Segs, s)
		} else {
			n := 1 + x%3
			b := make([]byte, n)
			for i := range b {
				b[i] = alpha[r.next()%len(alpha)]
			}
			t.Segs = append(t.Segs, Segment{Lit: string(b)})
		}
	}
	return t
}

func FuzzCollide(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{1, 3, 0, 0, 0, 2, 0, 1, 0})
	f.Add([]byte{3, 1, 2, 2, 0, 1, 1, 0, 0, 3, 2, 0, 2, 1, 1, 0, 0})
	f.Add([]byte{2, 2, 7, 3, 0, 1, 2, 0, 2, 1, 1, 4, 0, 3, 3, 2, 1, 0, 5, 7, 7, 7, 7, 1})
	f.Add([]byte{4, 0, 0, 3, 1, 1, 2, 3, 0, 1, 4, 0, 0, 5, 9, 9, 2, 3, 0, 2, 6, 1, 1, 0, 0, 6, 255, 0, 2, 1})
	f.Add([]byte{2, 0, 1, 0, 1, 5, 1, 6, 6, 2, 3, 1, 0, 0, 1, 2, 6, 2, 0, 2, 1, 0, 2, 1, 1, 3, 0, 0, 3})
	f.Fuzz(func(t *testing.T, data []byte) {
		r := &fuzzReader{b: data}
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
		// While fuzzing, an input that takes a minute (Collide bounds its
		// work; a pair takes milliseconds) fails and is kept; the seed
		// inputs of go test are not timed.
		start := time.Now()
		v1, w1 := Collide(a, b)
		v2, w2 := Collide(b, a)
		if d := time.Since(start); fuzzing() && d > time.Minute {
			t.Fatalf("%v vs %v took %v", a, b, d)
		}
		if v1 != Undecided && v2 != Undecided && v1 != v2 {
			t.Fatalf("Collide(%v, %v) = %v but reversed %v", a, b, v1, v2)
		}
		if v1 == Collision {
			checkWitness(t, a, b, w1)
		}
		if v2 == Collision {
			checkWitness(t, b, a, w2)
		}
	})
}

// fuzzing reports whether the test binary fuzzes (go test -fuzz), rather
// than running the seed inputs.
func fuzzing() bool {
	f := flag.Lookup("test.fuzz")
	return f != nil && f.Value.String() != ""
}

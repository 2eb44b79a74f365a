package keylang

import "testing"

func TestDbgSizes(t *testing.T) {
	for _, k := range []Kind{Int, Time, Date, Bool} {
		l := ValueLang(seg(k), nil)
		d := determinize(l)
		n := 0
		for _, es := range l.edges {
			n += len(es)
		}
		t.Logf("%v: nfa %d states %d edges %d starts; dfa %d", k, len(l.edges), n, len(l.start), len(d.edges))
	}
}

package keylang

import (
	"math/rand/v2"
	"reflect"
	"testing"
)

func lit(s string) Segment                { return Segment{Lit: s} }
func str(n string) Segment                { return Segment{Var: n, Kind: String} }
func enum(n string, vs ...string) Segment { return Segment{Var: n, Kind: Enum, Values: vs} }
func kind(n string, k Kind) Segment       { return Segment{Var: n, Kind: k} }
func path(n string, sep rune) Segment     { return Segment{Var: n, Kind: Path, PathSep: sep} }
func tpl(segs ...Segment) Template        { return Template{Segs: segs} }
func tp(segs ...Segment) *Template        { t := tpl(segs...); return &t }

// checkWitness re-encodes the witness values with Render and requires both
// keys to give the witness's key strings.
func checkWitness(t *testing.T, a, b Key, w *Witness) {
	t.Helper()
	if w == nil {
		t.Fatalf("%v vs %v: collision without witness", a, b)
	}
	for _, side := range []struct {
		k    Key
		vals map[string]string
	}{{a, w.A}, {b, w.B}} {
		pk, err := side.k.PK.Render(side.vals)
		if err != nil || pk != w.PK {
			t.Fatalf("%v vs %v: witness %+v: pk %q, %v", a, b, w, pk, err)
		}
		if side.k.SK != nil {
			sk, err := side.k.SK.Render(side.vals)
			if err != nil || sk != w.SK {
				t.Fatalf("%v vs %v: witness %+v: sk %q, %v", a, b, w, sk, err)
			}
		}
	}
}

func TestCollideRealistic(t *testing.T) {
	isbnT := tpl(lit("BOOK#"), str("isbn"))
	cases := []struct {
		name string
		a, b Key
		want Verdict
		// wantA/wantB, when set, must be the witness values.
		wantA, wantB map[string]string
	}{
		{
			name: "two free ids over ROOT",
			a:    Key{PK: tpl(str("customerId")), SK: tp(lit("ROOT"))},
			b:    Key{PK: tpl(str("invoiceId")), SK: tp(lit("ROOT"))},
			want: Collision,
		},
		{
			name:  "string vs int at the same place",
			a:     Key{PK: tpl(lit("ID#"), str("name"))},
			b:     Key{PK: tpl(lit("ID#"), kind("n", Int))},
			want:  Collision,
			wantA: map[string]string{"name": "0000000000000000000"},
			wantB: map[string]string{"n": "0"},
		},
		{
			name: "string cannot hold the separator",
			a:    Key{PK: tpl(lit("USER#"), str("name"))},
			b:    Key{PK: tpl(lit("USER#ADMIN#"), str("id"))},
			want: Disjoint,
		},
		{
			name: "book item vs book loan",
			a:    Key{PK: isbnT, SK: &isbnT},
			b:    Key{PK: isbnT, SK: tp(kind("date", Date), lit("#USER#"), str("username"))},
			want: Disjoint,
		},
		{
			name: "account metadata vs account user",
			a:    Key{PK: tpl(lit("account:"), str("a")), SK: tp(lit("metadata:account"))},
			b:    Key{PK: tpl(lit("account:"), str("a")), SK: tp(lit("user:"), str("u"))},
			want: Disjoint,
		},
		{
			name: "same key shape collides",
			a:    Key{PK: isbnT, SK: &isbnT},
			b:    Key{PK: tpl(lit("BOOK#"), str("id")), SK: tp(lit("BOOK#"), str("other"))},
			want: Collision,
		},
		{
			name: "shared placeholder across pk and sk (brief's example)",
			a:    Key{PK: tpl(lit("K#"), str("a")), SK: tp(str("a"))},
			b:    Key{PK: tpl(lit("K#"), enum("x", "1", "2")), SK: tp(enum("y", "3"))},
			want: Disjoint,
		},
		{
			name:  "shared placeholder, joint solution",
			a:     Key{PK: tpl(lit("K#"), str("a")), SK: tp(str("a"))},
			b:     Key{PK: tpl(lit("K#"), enum("x", "1", "2")), SK: tp(enum("y", "3", "2"))},
			want:  Collision,
			wantA: map[string]string{"a": "2"},
		},
		{
			name: "word equation: x = a.y and x = y.a",
			a:    Key{PK: tpl(str("x")), SK: tp(str("x"))},
			b:    Key{PK: tpl(lit("a"), str("y")), SK: tp(str("y"), lit("a"))},
			want: Collision,
		},
		{
			name: "word equation: x = a.y and x = y.b",
			a:    Key{PK: tpl(str("x")), SK: tp(str("x"))},
			b:    Key{PK: tpl(lit("a"), str("y")), SK: tp(str("y"), lit("b"))},
			want: Disjoint,
		},
		{
			name: "swap under separators",
			a:    Key{PK: tpl(str("x")), SK: tp(str("x"))},
			b:    Key{PK: tpl(str("y"), lit("#"), str("z")), SK: tp(str("z"), lit("#"), str("y"))},
			want: Collision,
		},
		{
			name: "int cannot be a word",
			a:    Key{PK: tpl(lit("N#"), kind("n", Int))},
			b:    Key{PK: tpl(lit("N#"), enum("s", "none", "all"))},
			want: Disjoint,
		},
		{
			name:  "negative int vs literal",
			a:     Key{PK: tpl(lit("N#"), kind("n", Int))},
			b:     Key{PK: tpl(lit("N#-9223372036854775807"))},
			want:  Collision,
			wantA: map[string]string{"n": "-1"},
		},
		{
			name: "int above MaxInt64 is not an encoding",
			a:    Key{PK: tpl(lit("N#"), kind("n", Int))},
			b:    Key{PK: tpl(lit("N#9223372036854775808"))},
			want: Disjoint,
		},
		{
			name: "time vs date prefix",
			a:    Key{PK: tpl(lit("T#"), kind("at", Time))},
			b:    Key{PK: tpl(lit("T#"), kind("d", Date), lit("T"), str("rest"))},
			want: Collision,
		},
		{
			name: "date vs string with '-' separator",
			a:    Key{PK: tpl(kind("d", Date), lit("#"), str("x"))},
			b:    Key{PK: tpl(str("y"), lit("-"), str("z"))},
			want: Disjoint, // y and z cannot hold '-', the date has two
		},
		{
			name:  "path vs string",
			a:     Key{PK: tpl(lit("CAT#"), path("p", '#'))},
			b:     Key{PK: tpl(lit("CAT#"), str("c"), lit("#"), str("d"))},
			want:  Collision,
			wantA: map[string]string{"p": "a#a"},
		},
		{
			name: "path cannot be empty at the end",
			a:    Key{PK: tpl(lit("CAT#"), path("p", '#'))},
			b:    Key{PK: tpl(lit("CAT#"), str("c"), lit("#"))},
			want: Disjoint,
		},
		{
			name: "bool vs enum",
			a:    Key{PK: tpl(lit("F#"), kind("b", Bool))},
			b:    Key{PK: tpl(lit("F#"), enum("e", "yes", "TRUE", "true"))},
			want: Collision,
		},
		{
			name: "time pinned against string with ':' separator",
			a:    Key{PK: tpl(lit("E:"), kind("at", Time))},
			b:    Key{PK: tpl(lit("E:"), str("s"))},
			want: Disjoint,
		},
		{
			name: "no sort key",
			a:    Key{PK: tpl(lit("ROOT"))},
			b:    Key{PK: tpl(lit("ROOT"))},
			want: Collision,
		},
		{
			name: "sort key on one side only",
			a:    Key{PK: tpl(lit("ROOT"))},
			b:    Key{PK: tpl(lit("ROOT")), SK: tp(lit("x"))},
			want: Undecided,
		},
		{
			name: "one name, two kinds",
			a:    Key{PK: tpl(lit("A#"), str("x")), SK: tp(kind("x", Int))},
			b:    Key{PK: tpl(lit("A#"), str("y")), SK: tp(str("z"))},
			want: Undecided,
		},
		{
			name: "shared int placeholder, pk and sk disagree",
			a:    Key{PK: tpl(lit("O#"), kind("n", Int)), SK: tp(lit("O#"), kind("n", Int))},
			b:    Key{PK: tpl(lit("O#"), lit("0000000000000000001")), SK: tp(lit("O#"), lit("0000000000000000002"))},
			want: Disjoint,
		},
		{
			name:  "int shared across pk and sk: s = a and s0 = 0a",
			a:     Key{PK: tpl(str("s")), SK: tp(str("s"), lit("0"))},
			b:     Key{PK: tpl(kind("a", Int)), SK: tp(lit("0"), kind("a", Int))},
			want:  Collision,
			wantB: map[string]string{"a": "0"},
		},
		{
			name: "time shared across pk and sk: s = a and s1 = 1a",
			a:    Key{PK: tpl(str("s")), SK: tp(str("s"), lit("1"))},
			b:    Key{PK: tpl(kind("a", Time)), SK: tp(lit("1"), kind("a", Time))},
			want: Disjoint,
		},
		{
			name: "ints swapped around '-'",
			a:    Key{PK: tpl(str("s")), SK: tp(str("s"))},
			b:    Key{PK: tpl(kind("n", Int), lit("-"), kind("m", Int)), SK: tp(kind("m", Int), lit("-"), kind("n", Int))},
			want: Collision,
		},
		{
			name: "ints swapped around '-' and '--'",
			a:    Key{PK: tpl(str("s")), SK: tp(str("s"))},
			b:    Key{PK: tpl(kind("n", Int), lit("-"), kind("m", Int)), SK: tp(kind("m", Int), lit("--"), kind("n", Int))},
			want: Disjoint,
		},
		{
			name: "time and date swapped around ':'",
			a:    Key{PK: tpl(str("s")), SK: tp(str("s"))},
			b:    Key{PK: tpl(kind("a", Time), lit(":"), kind("b", Date)), SK: tp(kind("b", Date), lit(":"), kind("a", Time))},
			want: Disjoint,
		},
		{
			name: "time in pk and sk vs strings",
			a:    Key{PK: tpl(lit("T#"), kind("t", Time)), SK: tp(kind("t", Time), lit("#"), kind("n", Int))},
			b:    Key{PK: tpl(lit("T#"), str("s")), SK: tp(str("u"), lit("#"), str("v"))},
			want: Collision,
		},
		{
			name:  "periodic: s = 00a, s00 = a0000",
			a:     Key{PK: tpl(str("s")), SK: tp(str("s"), lit("00"))},
			b:     Key{PK: tpl(lit("00"), str("a")), SK: tp(str("a"), lit("0000"))},
			want:  Collision,
			wantA: map[string]string{"s": "000"},
		},
		{
			name:  "enum with the empty value",
			a:     Key{PK: tpl(lit("S#"), enum("e", "", "x"), lit("#"))},
			b:     Key{PK: tpl(lit("S##"))},
			want:  Collision,
			wantA: map[string]string{"e": ""},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, swap := range []bool{false, true} {
				a, b := c.a, c.b
				wantA, wantB := c.wantA, c.wantB
				if swap {
					a, b, wantA, wantB = b, a, wantB, wantA
				}
				v, w := Collide(a, b)
				if v != c.want {
					t.Fatalf("Collide(%v, %v) = %v, want %v (witness %+v)", a, b, v, c.want, w)
				}
				if v != Collision {
					continue
				}
				checkWitness(t, a, b, w)
				for k, want := range wantA {
					if w.A[k] != want {
						t.Errorf("witness A[%s] = %q, want %q", k, w.A[k], want)
					}
				}
				for k, want := range wantB {
					if w.B[k] != want {
						t.Errorf("witness B[%s] = %q, want %q", k, w.B[k], want)
					}
				}
			}
		})
	}
}

func TestValidate(t *testing.T) {
	good := []Template{
		tpl(lit("BOOK#"), str("isbn")),
		tpl(kind("d", Date), lit("#USER#"), str("u")),
		tpl(lit("C#"), path("p", '#')),
		tpl(lit("ROOT")),
	}
	for _, g := range good {
		if err := g.Validate(); err != nil {
			t.Errorf("%v: %v", g, err)
		}
	}
	bad := []Template{
		tpl(str("a"), str("b")),
		tpl(str("a"), lit("x"), str("b")),
		tpl(str("a"), lit("#"), str("a")),
		tpl(lit("C:"), path("p", '#')),
		tpl(path("p", '#'), lit("#"), path("q", '#')),
		tpl(lit("#"), enum("e", "a#b")),
		tpl(lit("#"), enum("e")),
		tpl(lit("#"), kind("k", Kind(99))),
	}
	for _, b := range bad {
		if err := b.Validate(); err == nil {
			t.Errorf("%v: no error", b)
		}
	}
}

func TestCollideBudget(t *testing.T) {
	a := Key{PK: tpl(str("s")), SK: tp(str("s"))}
	b := Key{PK: tpl(kind("n", Int), lit("-"), kind("m", Int)), SK: tp(kind("m", Int), lit("--"), kind("n", Int))}
	if v, w := CollideBudget(a, b, 100); v != Undecided || w != nil {
		t.Errorf("tiny budget: %v %v", v, w)
	}
	// A name used twice in one template makes the equation non-quadratic;
	// the answer is still never wrong.
	c := Key{PK: tpl(str("x"), lit("#"), str("x"))}
	d := Key{PK: tpl(str("y"), lit("#a"))}
	if v, w := Collide(c, d); v != Collision || w.A["x"] != "a" {
		t.Errorf("x#x vs y#a: %v %+v", v, w)
	}
}

// TestPreparedReused checks that keys prepared once and checked against
// many others give the answers and witnesses of Collide on the keys.
func TestPreparedReused(t *testing.T) {
	g := keyGen{rand.New(rand.NewPCG(5, 6))}
	var keys []Key
	var prepared []*Prepared
	for i := range 40 {
		k := g.key(i%8 != 0)
		keys = append(keys, k)
		prepared = append(prepared, Prepare(k))
	}
	collisions := 0
	for i := range keys {
		for j := range keys {
			v, w := CollidePrepared(prepared[i], prepared[j], DefaultBudget)
			wantV, wantW := Collide(keys[i], keys[j])
			if v != wantV || !reflect.DeepEqual(w, wantW) {
				t.Fatalf("%v vs %v: %v %+v, want %v %+v", keys[i], keys[j], v, w, wantV, wantW)
			}
			if v == Collision {
				collisions++
			}
		}
	}
	if collisions < 40 {
		t.Errorf("only %d collisions", collisions)
	}
}

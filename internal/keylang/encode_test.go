package keylang

import (
	"math"
	"strings"
	"testing"
	"time"
)

func seg(k Kind) Segment { return Segment{Var: "v", Kind: k} }

func TestEncodeInt(t *testing.T) {
	cases := []struct {
		n    int64
		want string
	}{
		{0, "0000000000000000000"},
		{42, "0000000000000000042"},
		{math.MaxInt64, "9223372036854775807"},
		{-1, "-9223372036854775807"},
		{-2, "-9223372036854775806"},
		{math.MinInt64, "-0000000000000000000"},
		{math.MinInt64 + 1, "-0000000000000000001"},
	}
	lang := intLang()
	for _, c := range cases {
		got := EncodeInt(c.n)
		if got != c.want {
			t.Errorf("EncodeInt(%d) = %q, want %q", c.n, got, c.want)
		}
		if !lang.Contains(got) {
			t.Errorf("int language lacks %q", got)
		}
		back, err := DecodeInt(got)
		if err != nil || back != c.n {
			t.Errorf("DecodeInt(%q) = %d, %v", got, back, err)
		}
	}
	for _, bad := range []string{
		"", "0", "42", "9223372036854775808", "-9223372036854775808", "9999999999999999999",
		"00000000000000000000", "+0000000000000000000", "--000000000000000000", "000000000000000000a",
		"-000000000000000000", " 0000000000000000000",
	} {
		if lang.Contains(bad) {
			t.Errorf("int language holds %q", bad)
		}
		if _, err := DecodeInt(bad); err == nil {
			t.Errorf("DecodeInt(%q) succeeded", bad)
		}
	}
	// The language is exactly the encodings: the least and greatest
	// strings of each length are the extreme encodings.
	if !Equal(Intersect(lang, Interval("-", "-:")), Intersect(lang, Interval(EncodeInt(math.MinInt64), EncodeInt(-1)))) {
		t.Error("negative encodings are not exactly MinInt64..-1")
	}
	if !Subset(lang, Interval(EncodeInt(math.MinInt64), EncodeInt(math.MaxInt64))) {
		t.Error("int language exceeds [MinInt64, MaxInt64]")
	}
}

func FuzzEncodeInt(f *testing.F) {
	for _, p := range [][2]int64{{0, 1}, {-1, 0}, {math.MinInt64, math.MaxInt64}, {-5, 5}, {math.MinInt64, -1}, {99, 100}} {
		f.Add(p[0], p[1])
	}
	lang := intLang()
	f.Fuzz(func(t *testing.T, a, b int64) {
		ea, eb := EncodeInt(a), EncodeInt(b)
		if !lang.Contains(ea) || !lang.Contains(eb) {
			t.Fatalf("encodings %q %q outside the language", ea, eb)
		}
		if (a < b) != (ea < eb) || (a == b) != (ea == eb) {
			t.Fatalf("order: %d %d -> %q %q", a, b, ea, eb)
		}
		if d, err := DecodeInt(ea); err != nil || d != a {
			t.Fatalf("DecodeInt(%q) = %d, %v", ea, d, err)
		}
	})
}

func TestEncodeTime(t *testing.T) {
	lang := timeLang()
	tm := time.Date(2021, 3, 5, 18, 54, 56, 120, time.FixedZone("X", 3600))
	got, err := EncodeTime(tm)
	if err != nil || got != "2021-03-05T17:54:56.000000120Z" {
		t.Fatalf("EncodeTime = %q, %v", got, err)
	}
	for _, s := range []string{got, "0000-01-01T00:00:00.000000000Z", "9999-12-31T23:59:59.999999999Z", "2020-02-29T12:00:00.000000000Z"} {
		if !lang.Contains(s) {
			t.Errorf("time language lacks %q", s)
		}
		if d, err := DecodeTime(s); err != nil {
			t.Errorf("DecodeTime(%q): %v", s, err)
		} else if e, _ := EncodeTime(d); e != s {
			t.Errorf("round trip %q -> %q", s, e)
		}
	}
	for _, bad := range []string{
		"2021-03-05T17:54:56Z", "2021-03-05T17:54:56.00000012Z", "2021-13-05T17:54:56.000000000Z",
		"2021-00-05T17:54:56.000000000Z", "2021-03-00T17:54:56.000000000Z", "2021-03-32T17:54:56.000000000Z",
		"2021-03-05T24:00:00.000000000Z", "2021-03-05T17:60:56.000000000Z", "2021-03-05T17:54:60.000000000Z",
		"2021-03-05 17:54:56.000000000Z", "2021-03-05T17:54:56.000000000+", "12021-03-05T17:54:56.000000000Z",
	} {
		if lang.Contains(bad) {
			t.Errorf("time language holds %q", bad)
		}
	}
	// Field ranges only: the calendar is not modelled.
	if !lang.Contains("2021-02-30T00:00:00.000000000Z") {
		t.Error("time language should hold 2021-02-30 (field ranges only)")
	}
	for _, y := range []int{-1, 10000} {
		if _, err := EncodeTime(time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC)); err == nil {
			t.Errorf("year %d accepted", y)
		}
	}
	if s, err := EncodeTime(time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC)); err != nil || s != "0000-01-01T00:00:00.000000000Z" {
		t.Errorf("year 0: %q %v", s, err)
	}
	if got := userForm(Time, "2021-03-05T18:54:56.000000000Z"); got != "2021-03-05T18:54:56Z" {
		t.Errorf("userForm = %q", got)
	}
	if got := userForm(Time, "2021-03-05T18:54:56.120000000Z"); got != "2021-03-05T18:54:56.12Z" {
		t.Errorf("userForm = %q", got)
	}
}

func FuzzEncodeTime(f *testing.F) {
	f.Add(int64(0), int64(1))
	f.Add(int64(-62167219200), int64(253402300799))
	f.Add(int64(1614970496), int64(1614970496))
	lang := timeLang()
	const lo, hi = -62167219200, 253402300799 // 0000-01-01 .. 9999-12-31 (seconds)
	f.Fuzz(func(t *testing.T, a, b int64) {
		ta := time.Unix(lo+mod(a, hi-lo), mod(a, 1e9))
		tb := time.Unix(lo+mod(b, hi-lo), mod(b/7, 1e9))
		ea, err1 := EncodeTime(ta)
		eb, err2 := EncodeTime(tb)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if !lang.Contains(ea) || !lang.Contains(eb) {
			t.Fatalf("outside the language: %q %q", ea, eb)
		}
		if ta.Before(tb) != (ea < eb) || ta.Equal(tb) != (ea == eb) {
			t.Fatalf("order: %v %v -> %q %q", ta, tb, ea, eb)
		}
		da, _ := EncodeDate(ta.UTC())
		db, _ := EncodeDate(tb.UTC())
		if !dateLang().Contains(da) || (ta.Before(tb) && da > db) || da != ea[:10] {
			t.Fatalf("date: %q %q", da, db)
		}
	})
}

func mod(a, m int64) int64 { return ((a % m) + m) % m }

func TestEncodeDate(t *testing.T) {
	lang := dateLang()
	d, err := EncodeDate(time.Date(2021, 3, 5, 23, 0, 0, 0, time.FixedZone("X", -5*3600)))
	if err != nil || d != "2021-03-05" {
		t.Fatalf("EncodeDate = %q, %v", d, err)
	}
	for _, s := range []string{d, "0000-01-01", "9999-12-31", "2021-12-01"} {
		if !lang.Contains(s) {
			t.Errorf("date language lacks %q", s)
		}
	}
	for _, bad := range []string{"2021-3-05", "2021-03-5", "21-03-05", "2021-13-01", "2021-00-01", "2021-01-00", "2021-01-32", "2021/01/01", "2021-01-01T"} {
		if lang.Contains(bad) {
			t.Errorf("date language holds %q", bad)
		}
	}
}

func TestBoolStringPathEnum(t *testing.T) {
	tm := tpl(lit("USER#"), str("name"), lit(":x"))
	if got := tm.Seps(); string(got) != "#:" {
		t.Fatalf("Seps = %q", string(got))
	}
	s := SegmentLang(tm, 1)
	for _, ok := range []string{"a", "ALICE", "é", "a b", "x-y", "\x00"} {
		if !s.Contains(ok) || CheckString(tm, ok) != nil {
			t.Errorf("string %q rejected", ok)
		}
	}
	for _, bad := range []string{"", "a#b", "a:b", "#", "\xff"} {
		if s.Contains(bad) || CheckString(tm, bad) == nil {
			t.Errorf("string %q accepted", bad)
		}
	}
	// No separators: any non-empty string.
	free := tpl(str("id"))
	if !SegmentLang(free, 0).Contains("a#b:c") || SegmentLang(free, 0).Contains("") {
		t.Error("free string language wrong")
	}
	pt := tpl(lit("CAT#"), Segment{Var: "p", Kind: Path, PathSep: '#'}, lit(":"), str("x"))
	p := SegmentLang(pt, 1)
	for _, ok := range []string{"a", "Electronics#Laptops#Accessories"} {
		if !p.Contains(ok) || CheckPath(pt, '#', ok) != nil {
			t.Errorf("path %q rejected", ok)
		}
	}
	for _, bad := range []string{"", "#a", "a#", "a##b", "a:b", "a#b:c"} {
		if p.Contains(bad) || CheckPath(pt, '#', bad) == nil {
			t.Errorf("path %q accepted", bad)
		}
	}
	b := ValueLang(seg(Bool), nil)
	if !b.Contains("true") || !b.Contains("false") || b.Contains("True") || b.Contains("") {
		t.Error("bool language wrong")
	}
	if EncodeBool(true) != "true" || EncodeBool(false) != "false" {
		t.Error("EncodeBool")
	}
	e := ValueLang(enum("s", "OPEN", "CLOSED"), nil)
	if !e.Contains("OPEN") || e.Contains("OPENX") || e.Contains("") {
		t.Error("enum language wrong")
	}
}

func TestMinMaxEnc(t *testing.T) {
	for _, k := range []Kind{Int, Time, Date, Bool} {
		lo, ok1 := MinEnc(k)
		hi, ok2 := MaxEnc(k)
		l := ValueLang(seg(k), nil)
		if !ok1 || !ok2 || !l.Contains(lo) || !l.Contains(hi) {
			t.Errorf("%v: min %q max %q not members", k, lo, hi)
		}
		if !Subset(l, Interval(lo, hi)) {
			t.Errorf("%v: language exceeds [%q, %q]", k, lo, hi)
		}
		// Tight: nothing strictly below lo or above hi.
		below := Intersect(l, Interval("", lo))
		above := Intersect(l, Interval(hi, strings.Repeat("\U0010FFFF", 40)))
		if !Equal(below, Literal(lo)) || !Equal(above, Literal(hi)) {
			t.Errorf("%v: bounds not tight", k)
		}
	}
	for _, k := range []Kind{String, Path, Enum} {
		if _, ok := MinEnc(k); ok {
			t.Errorf("MinEnc(%v) should not exist", k)
		}
	}
}

func TestRender(t *testing.T) {
	tm := tpl(lit("ORDER#"), Segment{Var: "n", Kind: Int}, lit("#"), Segment{Var: "at", Kind: Time}, lit("#"), Segment{Var: "d", Kind: Date}, lit("#"), Segment{Var: "b", Kind: Bool})
	got, err := tm.Render(map[string]string{"n": "-1", "at": "2021-03-05T18:54:56+01:00", "d": "2021-03-05", "b": "true"})
	want := "ORDER#-9223372036854775807#2021-03-05T17:54:56.000000000Z#2021-03-05#true"
	if err != nil || got != want {
		t.Fatalf("Render = %q, %v", got, err)
	}
	if !TemplateLang(tm).Contains(got) {
		t.Error("rendered key outside the template language")
	}
	if _, err := tm.Render(map[string]string{"n": "x", "at": "", "d": "", "b": ""}); err == nil {
		t.Error("bad values accepted")
	}
}

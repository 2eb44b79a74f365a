package runtime

import (
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/dyngen/dyngen/internal/keylang"
)

// checkKeyError fails unless err is a *KeyError for attr wrapping
// ErrInvalidKey, with the runtime's prefix in its message.
func checkKeyError(t *testing.T, err error, attr string) {
	t.Helper()
	if err == nil {
		t.Fatalf("got no error, want a KeyError for %s", attr)
	}
	if !errors.Is(err, ErrInvalidKey) {
		t.Errorf("errors.Is(%v, ErrInvalidKey) = false", err)
	}
	var ke *KeyError
	if !errors.As(err, &ke) {
		t.Fatalf("errors.As(%v, *KeyError) = false", err)
	}
	if ke.Attr != attr {
		t.Errorf("KeyError.Attr = %q, want %q", ke.Attr, attr)
	}
	if ke.Reason == "" {
		t.Errorf("KeyError has no reason: %v", err)
	}
	if msg := err.Error(); !strings.HasPrefix(msg, pkgPrefix) || !strings.Contains(msg, attr) {
		t.Errorf("message %q lacks the prefix %q or the attribute %q", msg, pkgPrefix, attr)
	}
}

// intBoundaries are the int64 values where an encoding is likeliest to go
// wrong: the extremes, zero and its neighbours, and powers of ten.
func intBoundaries() []int64 {
	ns := []int64{math.MinInt64, math.MinInt64 + 1, -1, 0, 1, math.MaxInt64 - 1, math.MaxInt64,
		math.MinInt32, math.MaxInt32, math.MaxUint32, -1 << 62, 1 << 62}
	p := int64(1)
	for range 19 {
		ns = append(ns, p, p-1, p+1, -p, -p-1, -p+1)
		if p <= math.MaxInt64/10 {
			p *= 10
		}
	}
	slices.Sort(ns)
	return slices.Compact(ns)
}

func TestKeyIntMatchesKeylang(t *testing.T) {
	ns := intBoundaries()
	for i, n := range ns {
		got, want := KeyInt(n), keylang.EncodeInt(n)
		if got != want {
			t.Errorf("keyInt(%d) = %q, keylang.EncodeInt = %q", n, got, want)
		}
		if n >= 0 && len(got) != 19 || n < 0 && len(got) != 20 {
			t.Errorf("keyInt(%d) = %q: %d bytes", n, got, len(got))
		}
		back, ok := parseKeyInt(got)
		if !ok || back != n {
			t.Errorf("parseKeyInt(%q) = %d, %v; want %d, true", got, back, ok, n)
		}
		if i > 0 && KeyInt(ns[i-1]) >= got {
			t.Errorf("keyInt(%d) = %q is not below keyInt(%d) = %q", ns[i-1], KeyInt(ns[i-1]), n, got)
		}
	}
	for n, want := range map[int64]string{
		0:             "0000000000000000000",
		1:             "0000000000000000001",
		-1:            "-9223372036854775807",
		math.MaxInt64: "9223372036854775807",
		math.MinInt64: "-0000000000000000000",
	} {
		if got := KeyInt(n); got != want {
			t.Errorf("keyInt(%d) = %q, want %q", n, got, want)
		}
	}
}

// badKeyInts are strings KeyInt never produces.
var badKeyInts = []string{
	"", "-", "--", "0", "-1", "1",
	"000000000000000000",     // 18 digits
	"00000000000000000000",   // 20 digits
	"-000000000000000000",    // 18 digits
	"-00000000000000000000",  // 20 digits
	"9223372036854775808",    // MaxInt64 + 1
	"9999999999999999999",    // far over
	"-9223372036854775808",   // body over MaxInt64
	"-9999999999999999999",   // far over
	"+0000000000000000001",   // plus sign
	"--000000000000000001",   // two minus signs
	" 000000000000000001",    // space
	"000000000000000001 ",    // trailing space
	"00000000000000000a1",    // letter
	"0000000000000000/01",    // '/' is just below '0'
	"0000000000000000:01",    // ':' is just above '9'
	"000000000000000000\x00", // NUL
	"00000000000000000٣",     // a non-ASCII digit (2 bytes, so 19 bytes)
	"0x00000000000000001",    // hex
	"1e18000000000000000",    // exponent
}

func TestParseKeyIntRefuses(t *testing.T) {
	for _, s := range badKeyInts {
		if n, ok := parseKeyInt(s); ok {
			t.Errorf("parseKeyInt(%q) = %d, true; want false", s, n)
		}
		if _, err := keylang.DecodeInt(s); err == nil {
			t.Errorf("test data: keylang.DecodeInt(%q) accepts it", s)
		}
	}
}

func FuzzKeyIntOrder(f *testing.F) {
	ns := intBoundaries()
	for i := range ns {
		f.Add(ns[i], ns[len(ns)-1-i], KeyInt(ns[i]))
	}
	for _, s := range badKeyInts {
		f.Add(int64(0), int64(0), s)
	}
	f.Fuzz(func(t *testing.T, a, b int64, s string) {
		ka, kb := KeyInt(a), KeyInt(b)
		switch {
		case a < b && ka >= kb, a > b && ka <= kb, a == b && ka != kb:
			t.Fatalf("order: %d vs %d, but keyInt gives %q vs %q", a, b, ka, kb)
		}
		if want := keylang.EncodeInt(a); ka != want {
			t.Fatalf("keyInt(%d) = %q, keylang.EncodeInt = %q", a, ka, want)
		}
		if n, ok := parseKeyInt(ka); !ok || n != a {
			t.Fatalf("parseKeyInt(keyInt(%d)) = %d, %v", a, n, ok)
		}
		if n, ok := parseKeyInt(kb); !ok || n != b {
			t.Fatalf("parseKeyInt(keyInt(%d)) = %d, %v", b, n, ok)
		}
		n, ok := parseKeyInt(s)
		m, err := keylang.DecodeInt(s)
		if ok != (err == nil) {
			t.Fatalf("parseKeyInt(%q) ok = %v, keylang.DecodeInt error = %v", s, ok, err)
		}
		if ok {
			if n != m {
				t.Fatalf("parseKeyInt(%q) = %d, keylang.DecodeInt = %d", s, n, m)
			}
			if KeyInt(n) != s {
				t.Fatalf("parseKeyInt(%q) = %d accepted a string keyInt does not write (%q)", s, n, KeyInt(n))
			}
		}
	})
}

func TestKeyTime(t *testing.T) {
	plus5 := time.FixedZone("+05:00", 5*3600)
	minus730 := time.FixedZone("-07:30", -(7*3600 + 30*60))
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		ny = time.FixedZone("EST", -5*3600)
	}
	tests := []struct {
		in   time.Time
		want string
	}{
		{time.Date(2021, 3, 5, 18, 54, 56, 0, time.UTC), "2021-03-05T18:54:56.000000000Z"},
		{time.Date(2021, 3, 5, 18, 54, 56, 500_000_000, time.UTC), "2021-03-05T18:54:56.500000000Z"},
		{time.Date(2021, 3, 5, 18, 54, 56, 1, time.UTC), "2021-03-05T18:54:56.000000001Z"},
		{time.Date(2021, 3, 5, 18, 54, 56, 999_999_999, time.UTC), "2021-03-05T18:54:56.999999999Z"},
		{time.Date(2021, 3, 5, 23, 54, 56, 0, plus5), "2021-03-05T18:54:56.000000000Z"},
		{time.Date(2021, 3, 5, 2, 0, 0, 0, plus5), "2021-03-04T21:00:00.000000000Z"},       // day before in UTC
		{time.Date(2021, 12, 31, 20, 0, 0, 0, minus730), "2022-01-01T03:30:00.000000000Z"}, // year after in UTC
		{time.Date(2021, 7, 1, 12, 0, 0, 0, ny), time.Date(2021, 7, 1, 12, 0, 0, 0, ny).UTC().Format(keylang.TimeLayout)},
		{time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC), "0000-01-01T00:00:00.000000000Z"},
		{time.Date(9999, 12, 31, 23, 59, 59, 999_999_999, time.UTC), "9999-12-31T23:59:59.999999999Z"},
		{time.Date(10000, 1, 1, 3, 0, 0, 0, plus5), "9999-12-31T22:00:00.000000000Z"},    // year 10000 locally, 9999 in UTC
		{time.Date(-1, 12, 31, 22, 0, 0, 0, minus730), "0000-01-01T05:30:00.000000000Z"}, // year -1 locally, 0000 in UTC
		{time.Unix(0, 0), "1970-01-01T00:00:00.000000000Z"},
		{time.Unix(0, -1), "1969-12-31T23:59:59.999999999Z"},
		{time.Unix(0, 0).Add(time.Hour).Round(0), "1970-01-01T01:00:00.000000000Z"}, // monotonic reading stripped
		{time.Time{}, "0001-01-01T00:00:00.000000000Z"},
	}
	for _, tt := range tests {
		got, err := KeyTime("at", tt.in)
		if err != nil {
			t.Errorf("keyTime(%v): %v", tt.in, err)
			continue
		}
		if got != tt.want {
			t.Errorf("keyTime(%v) = %q, want %q", tt.in, got, tt.want)
		}
		if len(got) != 30 {
			t.Errorf("keyTime(%v) = %q: %d bytes, want 30", tt.in, got, len(got))
		}
		if !strings.HasSuffix(got, "Z") || got[19] != '.' || strings.Trim(got[20:29], "0123456789") != "" {
			t.Errorf("keyTime(%v) = %q: not UTC with nine fraction digits", tt.in, got)
		}
		if want, err := keylang.EncodeTime(tt.in); err != nil || got != want {
			t.Errorf("keyTime(%v) = %q, keylang.EncodeTime = %q, %v", tt.in, got, want, err)
		}
		back, err := time.Parse(time.RFC3339Nano, got)
		if err != nil || !back.Equal(tt.in) {
			t.Errorf("keyTime(%v) = %q parses back as %v, %v", tt.in, got, back, err)
		}
	}
}

func TestKeyTimeOrder(t *testing.T) {
	// Ordered times, some written in other zones; their keys must be in
	// the same order, sub-second differences included.
	plus14 := time.FixedZone("+14", 14*3600)
	minus12 := time.FixedZone("-12", -12*3600)
	parse := func(s string) time.Time {
		tm, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			t.Fatal(err)
		}
		return tm
	}
	times := []time.Time{
		time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(0, 1, 1, 0, 0, 0, 1, time.UTC),
		time.Date(999, 12, 31, 23, 59, 59, 999_999_999, time.UTC),
		time.Date(1000, 1, 1, 0, 0, 0, 0, time.UTC),
		parse("2021-03-05T18:54:55.999999999Z"),
		parse("2021-03-05T18:54:56Z"),
		parse("2021-03-05T18:54:56.000000001Z"),
		parse("2021-03-05T18:54:56.1Z"),
		parse("2021-03-05T18:54:56.5Z"),
		parse("2021-03-05T20:54:56.6+02:00"),
		parse("2021-03-05T18:54:56.9Z"),
		parse("2021-03-05T06:54:57-12:00"),
		time.Date(2021, 3, 6, 8, 54, 57, 1, plus14),
		time.Date(2021, 3, 5, 6, 54, 58, 0, minus12),
		time.Date(9999, 12, 31, 23, 59, 59, 999_999_999, time.UTC),
	}
	for i := 1; i < len(times); i++ {
		if !times[i-1].Before(times[i]) {
			t.Fatalf("test data: %v is not before %v", times[i-1], times[i])
		}
		a, err1 := KeyTime("at", times[i-1])
		b, err2 := KeyTime("at", times[i])
		if err1 != nil || err2 != nil {
			t.Fatalf("keyTime: %v, %v", err1, err2)
		}
		if a >= b {
			t.Errorf("%v before %v, but keys %q >= %q", times[i-1], times[i], a, b)
		}
	}
	// The example of the brief, literally.
	a, _ := KeyTime("at", parse("2021-03-05T18:54:56Z"))
	b, _ := KeyTime("at", parse("2021-03-05T18:54:56.5Z"))
	if !(a < b) {
		t.Errorf("keyTime(18:54:56Z) = %q is not below keyTime(18:54:56.5Z) = %q", a, b)
	}
}

func TestKeyTimeRefusesYears(t *testing.T) {
	plus5 := time.FixedZone("+05:00", 5*3600)
	minus5 := time.FixedZone("-05:00", -5*3600)
	for _, tm := range []time.Time{
		time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(-1, 12, 31, 23, 59, 59, 999_999_999, time.UTC),
		time.Date(-5000, 6, 1, 0, 0, 0, 0, time.UTC),
		time.Date(123456, 6, 1, 0, 0, 0, 0, time.UTC),
		time.Date(9999, 12, 31, 22, 0, 0, 0, minus5), // 10000 in UTC
		time.Date(0, 1, 1, 2, 0, 0, 0, plus5),        // -1 in UTC
		time.Unix(math.MaxInt64/2, 0),
		time.Unix(math.MinInt64/2, 0),
	} {
		s, err := KeyTime("at", tm)
		if s != "" {
			t.Errorf("keyTime(%v) = %q, want \"\"", tm, s)
		}
		checkKeyError(t, err, "at")
		if _, kerr := keylang.EncodeTime(tm); kerr == nil {
			t.Errorf("test data: keylang.EncodeTime(%v) accepts it", tm)
		}
	}
}

func FuzzKeyTimeOrder(f *testing.F) {
	f.Add(int64(0), int64(1), int32(0))
	f.Add(int64(1614970496000000000), int64(1614970496500000000), int32(3600))
	f.Add(int64(math.MinInt64), int64(math.MaxInt64), int32(-43200))
	f.Add(int64(-1), int64(0), int32(50400))
	f.Fuzz(func(t *testing.T, n1, n2 int64, offset int32) {
		// Both read as unix nanoseconds (years 1677-2262) and, to reach
		// the ends of 0000-9999, as unix microseconds too; the first in a
		// fuzzed fixed zone (at most +-18 h, as Go allows).
		zone := time.FixedZone("z", int(offset%(18*3600)))
		pairs := [][2]time.Time{
			{time.Unix(0, n1).In(zone), time.Unix(0, n2)},
			{time.UnixMicro(n1).In(zone), time.UnixMicro(n2)},
		}
		for _, p := range pairs {
			t1, t2 := p[0], p[1]
			k1, err1 := KeyTime("t", t1)
			k2, err2 := KeyTime("t", t2)
			for _, c := range []struct {
				tm  time.Time
				k   string
				err error
			}{{t1, k1, err1}, {t2, k2, err2}} {
				y := c.tm.UTC().Year()
				inRange := y >= 0 && y <= 9999
				if inRange != (c.err == nil) {
					t.Fatalf("keyTime(%v) (UTC year %d) = %q, %v", c.tm, y, c.k, c.err)
				}
				if c.err != nil {
					checkKeyError(t, c.err, "t")
					continue
				}
				if len(c.k) != 30 {
					t.Fatalf("keyTime(%v) = %q: %d bytes", c.tm, c.k, len(c.k))
				}
				if want, err := keylang.EncodeTime(c.tm); err != nil || want != c.k {
					t.Fatalf("keyTime(%v) = %q, keylang.EncodeTime = %q, %v", c.tm, c.k, want, err)
				}
			}
			if err1 != nil || err2 != nil {
				continue
			}
			switch {
			case t1.Before(t2) && k1 >= k2, t2.Before(t1) && k2 >= k1, t1.Equal(t2) && k1 != k2:
				t.Fatalf("times %v, %v but keys %q, %q", t1, t2, k1, k2)
			}
		}
	})
}

func TestKeyDate(t *testing.T) {
	plus5 := time.FixedZone("+05:00", 5*3600)
	for _, tt := range []struct {
		in   time.Time
		want string
	}{
		{time.Date(2021, 3, 5, 18, 54, 56, 0, time.UTC), "2021-03-05"},
		{time.Date(2021, 3, 5, 2, 0, 0, 0, plus5), "2021-03-05"}, // its own date, not UTC's
		{time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC), "0000-01-01"},
		{time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC), "9999-12-31"},
		{time.Date(5, 6, 7, 0, 0, 0, 0, time.UTC), "0005-06-07"},
	} {
		got, err := KeyDate("day", tt.in)
		if err != nil || got != tt.want {
			t.Errorf("keyDate(%v) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
		if want, err := keylang.EncodeDate(tt.in); err != nil || got != want {
			t.Errorf("keyDate(%v) = %q, keylang.EncodeDate = %q, %v", tt.in, got, want, err)
		}
	}
	for _, tm := range []time.Time{
		time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(-1, 12, 31, 0, 0, 0, 0, time.UTC),
	} {
		_, err := KeyDate("day", tm)
		checkKeyError(t, err, "day")
	}
}

func TestKeyBool(t *testing.T) {
	if KeyBool(true) != keylang.EncodeBool(true) || KeyBool(false) != keylang.EncodeBool(false) {
		t.Errorf("keyBool = %q, %q", KeyBool(true), KeyBool(false))
	}
}

func TestKeyString(t *testing.T) {
	const seps = "#|→"
	long := strings.Repeat("abcdefgh", 100_000)
	for _, v := range []string{
		"a", "hello", "ä", "日本語", "🎉", "a b", " ", "\x00", "a\tb", long,
		"A-B_C.D", // not separators here
		"←", "↓",  // neighbours of the separator →
	} {
		got, err := KeyString("id", v, seps)
		if err != nil || got != v {
			t.Errorf("keyString(%.40q) = %.40q, %v; want it unchanged", v, got, err)
		}
	}
	for _, tt := range []struct{ v, reason string }{
		{"", "empty"},
		{"\xff", "UTF-8"},
		{"a\xc3", "UTF-8"},        // truncated ä
		{"\xed\xa0\x80", "UTF-8"}, // surrogate
		{"\xe2\x86", "UTF-8"},     // truncated →
		{"#", "'#'"},
		{"a#b", "'#'"},
		{"ä#", "'#'"},
		{"#ä", "'#'"},
		{"a|", "'|'"},
		{"x→y", "'→'"},
		{"→", "'→'"},
		{long + "#", "'#'"},
		{"日本語|日本語", "'|'"},
	} {
		got, err := KeyString("id", tt.v, seps)
		if got != "" {
			t.Errorf("keyString(%.40q) = %.40q, want \"\"", tt.v, got)
		}
		checkKeyError(t, err, "id")
		if err != nil && !strings.Contains(err.Error(), tt.reason) {
			t.Errorf("keyString(%.40q): %v; want the reason to mention %s", tt.v, err, tt.reason)
		}
	}
	// No separators: anything non-empty and valid goes.
	if got, err := KeyString("id", "a#b|c", ""); err != nil || got != "a#b|c" {
		t.Errorf("keyString without separators = %q, %v", got, err)
	}
}

// TestKeyStringOrEmpty: the empty string goes, as the key language of a
// placeholder that may be empty says; every other value is KeyString's.
func TestKeyStringOrEmpty(t *testing.T) {
	const seps = "#|"
	if got, err := KeyStringOrEmpty("topic", "", seps); err != nil || got != "" {
		t.Errorf("keyStringOrEmpty(\"\") = %q, %v; want \"\", nil", got, err)
	}
	seg := keylang.Segment{Var: "v", Kind: keylang.String, Empty: true}
	tm := keylang.Template{Segs: []keylang.Segment{{Lit: "K" + seps}, seg}}
	if l := keylang.TemplateLang(tm); !l.Contains("K" + seps) {
		t.Errorf("the key language of %v does not hold the key of an empty value", tm)
	}
	for _, v := range []string{"a", "ä", "a#b", "x|", "\xff"} {
		want, wantErr := KeyString("topic", v, seps)
		got, err := KeyStringOrEmpty("topic", v, seps)
		if got != want || (err == nil) != (wantErr == nil) {
			t.Errorf("keyStringOrEmpty(%q) = %q, %v; keyString gives %q, %v", v, got, err, want, wantErr)
		}
	}
}

// keylangTemplate is a template whose separators are seps (and a letter,
// which is not a separator).
func keylangTemplate(seps string) keylang.Template {
	return keylang.Template{Segs: []keylang.Segment{
		{Lit: "K" + seps},
		{Var: "v", Kind: keylang.String},
	}}
}

func FuzzKeyString(f *testing.F) {
	f.Add("a#b", "#")
	f.Add("ä#", "#|")
	f.Add("x→y", "→")
	f.Add("\xff", "")
	f.Add("", "#")
	f.Add("日本", "/")
	f.Fuzz(func(t *testing.T, v, seps string) {
		if !onlySeparators(seps) {
			return
		}
		tpl := keylangTemplate(seps)
		got, err := KeyString("v", v, string(tpl.Seps()))
		kerr := keylang.CheckString(tpl, v)
		if (err == nil) != (kerr == nil) {
			t.Fatalf("keyString(%q, seps %q): %v; keylang.CheckString: %v", v, seps, err, kerr)
		}
		if err != nil {
			checkKeyError(t, err, "v")
		} else if got != v {
			t.Fatalf("keyString(%q) = %q", v, got)
		}
	})
}

// onlySeparators reports whether every character of s is a separator
// in keylang's sense, so that the template's Seps are exactly those.
func onlySeparators(s string) bool {
	tpl := keylangTemplate(s)
	return string(tpl.Seps()) == sortedUnique(s)
}

func sortedUnique(s string) string {
	rs := []rune(s)
	slices.Sort(rs)
	return string(slices.Compact(rs))
}

func TestKeyPath(t *testing.T) {
	const sep, seps = "/", "#/"
	for _, tt := range []struct {
		p    []string
		want string
	}{
		{[]string{"a"}, "a"},
		{[]string{"a", "b"}, "a/b"},
		{[]string{"usr", "local", "bin"}, "usr/local/bin"},
		{[]string{"ä", "日本", "🎉"}, "ä/日本/🎉"},
		{[]string{"a b", " "}, "a b/ "},
	} {
		got, err := KeyPath("dir", tt.p, sep, seps)
		if err != nil || got != tt.want {
			t.Errorf("keyPath(%q) = %q, %v; want %q", tt.p, got, err, tt.want)
		}
		if !slices.Equal(strings.Split(got, sep), tt.p) {
			t.Errorf("keyPath(%q) = %q does not split back", tt.p, got)
		}
		tpl := keylang.Template{Segs: []keylang.Segment{{Lit: "D#"}, {Var: "dir", Kind: keylang.Path, PathSep: '/'}, {Lit: "/"}}}
		if err := keylang.CheckPath(tpl, '/', got); err != nil {
			t.Errorf("keyPath(%q) = %q, which keylang refuses: %v", tt.p, got, err)
		}
	}
	// A multi-byte path separator.
	if got, err := KeyPath("dir", []string{"a", "b", "c"}, "→", "#→"); err != nil || got != "a→b→c" {
		t.Errorf("keyPath with → = %q, %v", got, err)
	}
	for _, p := range [][]string{
		nil,
		{},
		{""},
		{"a", ""},
		{"", "a"},
		{"a", "", "b"},
		{"a/b"},
		{"a", "b/"},
		{"/"},
		{"a#", "b"},
		{"a", "#"},
		{"a", "\xff"},
	} {
		got, err := KeyPath("dir", p, sep, seps)
		if got != "" {
			t.Errorf("keyPath(%q) = %q, want \"\"", p, got)
		}
		checkKeyError(t, err, "dir")
	}
}

func TestKeySize(t *testing.T) {
	for _, limit := range []int{MaxPartitionKey, MaxSortKey} {
		for _, n := range []int{0, 1, limit - 1, limit} {
			k := strings.Repeat("k", n)
			if got, err := KeySize("pk", k, limit); err != nil || got != k {
				t.Errorf("keySize(%d bytes, %d) = %d bytes, %v", n, limit, len(got), err)
			}
		}
		for _, n := range []int{limit + 1, 2 * limit, 100_000} {
			got, err := KeySize("pk", strings.Repeat("k", n), limit)
			if got != "" {
				t.Errorf("keySize(%d bytes, %d) = %d bytes, want \"\"", n, limit, len(got))
			}
			checkKeyError(t, err, "pk")
			if err != nil && !strings.Contains(err.Error(), strconv.Itoa(n)) {
				t.Errorf("keySize error %q lacks the size %d", err, n)
			}
		}
		// The limit is in bytes: ä is two.
		half := strings.Repeat("ä", limit/2)
		if _, err := KeySize("pk", half, limit); err != nil {
			t.Errorf("keySize(%d bytes of ä, %d): %v", len(half), limit, err)
		}
		if _, err := KeySize("pk", half+"a", limit); err == nil {
			t.Errorf("keySize(%d bytes of ä, %d): no error", len(half)+1, limit)
		}
	}
	if MaxPartitionKey != 2048 || MaxSortKey != 1024 {
		t.Errorf("limits %d, %d; DynamoDB's are 2048, 1024", MaxPartitionKey, MaxSortKey)
	}
}

func TestKeyPrefix(t *testing.T) {
	const seps = "#|"
	for _, v := range []string{"", "a", "ab", "ä", "日本", "a b"} {
		got, err := KeyPrefix("name", v, seps)
		if err != nil || got != v {
			t.Errorf("keyPrefix(%q) = %q, %v; want it unchanged", v, got, err)
		}
	}
	for _, v := range []string{"#", "a#", "a|b", "\xff", "a\xc3"} {
		got, err := KeyPrefix("name", v, seps)
		if got != "" {
			t.Errorf("keyPrefix(%q) = %q, want \"\"", v, got)
		}
		checkKeyError(t, err, "name")
	}
}

func TestKeyEnum(t *testing.T) {
	const seps = "#"
	if got, err := KeyEnum("style", "dark", true, seps); err != nil || got != "dark" {
		t.Errorf("keyEnum of a value = %q, %v; want it unchanged", got, err)
	}
	for _, tt := range []struct {
		v      string
		valid  bool
		reason string
	}{
		{"", false, "empty"},
		{"ADMIN", false, "not one of its enum values"},
		{"dark ", false, "not one of its enum values"},
		{"a#b", true, "'#'"}, // a value can't hold a separator: the spec refuses it
	} {
		got, err := KeyEnum("style", tt.v, tt.valid, seps)
		if got != "" {
			t.Errorf("keyEnum(%q) = %q, want \"\"", tt.v, got)
		}
		checkKeyError(t, err, "style")
		if err != nil && !strings.Contains(err.Error(), tt.reason) {
			t.Errorf("keyEnum(%q): %v; want the reason to mention %s", tt.v, err, tt.reason)
		}
	}
}

func TestKeyEnumPrefix(t *testing.T) {
	const seps = "#"
	values := []string{"light", "dark", "darker"}
	for _, v := range []string{"", "l", "light", "d", "dar", "dark", "darke", "darker"} {
		got, err := KeyEnumPrefix("style", v, seps, values...)
		if err != nil || got != v {
			t.Errorf("keyEnumPrefix(%q) = %q, %v; want it unchanged", v, got, err)
		}
	}
	for _, v := range []string{"L", "lights", "x", "AD", "dark#", "darkest", " ", "\xff"} {
		got, err := KeyEnumPrefix("style", v, seps, values...)
		if got != "" {
			t.Errorf("keyEnumPrefix(%q) = %q, want \"\"", v, got)
		}
		checkKeyError(t, err, "style")
	}
}

// TestHighChar: a bound followed by HighChar is above every key that
// starts with the bound's text and continues with a value KeyString
// accepts, and below the keys that do not start with it but sort after.
func TestHighChar(t *testing.T) {
	if HighChar != string(rune(0x10FFFF)) || !utf8.ValidString(HighChar) {
		t.Fatalf("highChar = %q", HighChar)
	}
	const seps = "#"
	for _, prefix := range []string{"", "ORDER#", "ORDER#ab", "A#日本", "Z#\u07ff", "a#" + string(rune(0xFFFF))} {
		hi := prefix + HighChar
		for _, rest := range []string{"", "a", "zzzz", "ÿ", "\u07ff", "\uffff", "\U0001F389", "\U0010FFFE", "\U0010FFFE\U0010FFFF",
			string(rune(0xFFFF)) + "x", "\U00100000", "\U0010FFFF"} {
			if rest != "" {
				if _, err := KeyString("v", rest, seps); err != nil {
					continue // no key holds it
				}
			}
			if k := prefix + rest; k > hi {
				t.Errorf("key %q > bound %q", k, hi)
			}
		}
	}
}

// TestHighCharAfterMaxRune: KeyString accepts a value starting with
// U+10FFFF; a key holding it after the bound's text must still sort
// below the bound, or a BETWEEN prefix AND prefix+HighChar range misses it.
func TestHighCharAfterMaxRune(t *testing.T) {
	const prefix = "ORDER#"
	v := "\U0010FFFFx"
	if _, err := KeyString("name", v, "#"); !errors.Is(err, ErrInvalidKey) {
		// Accepted, the key would sort above the bound and a range up to
		// prefix+HighChar (where name >= x on "ORDER#{name}") would miss it.
		t.Errorf("keyString accepts %q, and key %q sorts above the bound %q", v, prefix+v, prefix+HighChar)
	}
}

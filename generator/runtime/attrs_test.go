package runtime

import (
	"errors"
	"maps"
	"math"
	"math/big"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// checkItemError fails unless err is an *ItemError for entity.attr
// wrapping ErrInvalidItem.
func checkItemError(t *testing.T, err error, entity, attr string) {
	t.Helper()
	if err == nil {
		t.Fatalf("got no error, want an ItemError for %s.%s", entity, attr)
	}
	if !errors.Is(err, ErrInvalidItem) {
		t.Errorf("errors.Is(%v, ErrInvalidItem) = false", err)
	}
	var ie *ItemError
	if !errors.As(err, &ie) {
		t.Fatalf("errors.As(%v, *ItemError) = false", err)
	}
	if ie.Entity != entity || ie.Attr != attr || ie.Reason == "" {
		t.Errorf("ItemError = %+v, want entity %q, attr %q and a reason", *ie, entity, attr)
	}
	if msg := err.Error(); msg != pkgPrefix+entity+"."+attr+": "+ie.Reason {
		t.Errorf("message %q", msg)
	}
}

// oneOfEach holds a value of every DynamoDB type, keyed by type name.
func oneOfEach() map[string]types.AttributeValue {
	return map[string]types.AttributeValue{
		"S":    &types.AttributeValueMemberS{Value: "2021-03-05"},
		"N":    &types.AttributeValueMemberN{Value: "42"},
		"B":    &types.AttributeValueMemberB{Value: []byte("42")},
		"BOOL": &types.AttributeValueMemberBOOL{Value: true},
		"NULL": &types.AttributeValueMemberNULL{Value: true},
		"L":    &types.AttributeValueMemberL{Value: []types.AttributeValue{&types.AttributeValueMemberS{Value: "a"}}},
		"M":    &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"a": &types.AttributeValueMemberS{Value: "b"}}},
		"SS":   &types.AttributeValueMemberSS{Value: []string{"a"}},
		"NS":   &types.AttributeValueMemberNS{Value: []string{"1"}},
		"BS":   &types.AttributeValueMemberBS{Value: [][]byte{[]byte("a")}},
		"nil":  nil,
	}
}

// reader is the signature of the runtime's readers, with the result as
// any.
type reader func(entity, attr string, av types.AttributeValue) (any, error)

// asAny is read as a reader.
func asAny[T any](read func(entity, attr string, av types.AttributeValue) (T, error)) reader {
	return func(e, a string, av types.AttributeValue) (any, error) { return read(e, a, av) }
}

// readers wraps every reader as one signature, with the DynamoDB type it
// reads.
var readers = []struct {
	name string
	typ  string
	read reader
}{
	{"readString", "S", asAny(ReadString)},
	{"readInt", "N", asAny(ReadInt)},
	{"readFloat", "N", asAny(ReadFloat)},
	{"readBool", "BOOL", asAny(ReadBool)},
	{"readTime", "S", asAny(ReadTime)},
	{"readDate", "S", asAny(ReadDate)},
	{"readUnix", "N", asAny(ReadUnix)},
	{"readUnixMilli", "N", asAny(ReadUnixMilli)},
	{"readBytes", "B", asAny(ReadBytes)},
	{"readStrings", "L", asAny(ReadStrings)},
	{"readStringSet", "SS", asAny(ReadStringSet)},
	{"readIntSet", "NS", asAny(ReadIntSet)},
	{"readMap", "M", asAny(ReadMap)},
	{"readPath", "S", func(e, a string, av types.AttributeValue) (any, error) { return ReadPath(e, a, av, "/") }},
}

func TestReadersRightType(t *testing.T) {
	for _, r := range readers {
		av := oneOfEach()[r.typ]
		if r.name == "readTime" {
			av = &types.AttributeValueMemberS{Value: "2021-03-05T18:54:56Z"}
		}
		if _, err := r.read("Book", "x", av); err != nil {
			t.Errorf("%s(%#v): %v", r.name, av, err)
		}
	}
}

func TestReadersWrongType(t *testing.T) {
	for _, r := range readers {
		for typ, av := range oneOfEach() {
			if typ == r.typ {
				continue
			}
			_, err := r.read("Book", "title", av)
			if err == nil {
				t.Errorf("%s(%s value): no error", r.name, typ)
				continue
			}
			checkItemError(t, err, "Book", "title")
			if !strings.Contains(err.Error(), "not stored as "+r.typ) {
				t.Errorf("%s(%s value): %q does not name the expected type %s", r.name, typ, err, r.typ)
			}
		}
	}
}

func TestReadValues(t *testing.T) {
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	n := func(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }

	if v, err := ReadString("E", "a", s("héllo")); err != nil || v != "héllo" {
		t.Errorf("readString = %q, %v", v, err)
	}
	if v, err := ReadString("E", "a", s("")); err != nil || v != "" {
		t.Errorf("readString(\"\") = %q, %v", v, err)
	}
	for in, want := range map[string]int64{
		"0": 0, "-0": 0, "42": 42, "-42": -42, "+7": 7, "007": 7,
		"9223372036854775807": math.MaxInt64, "-9223372036854775808": math.MinInt64,
	} {
		if v, err := ReadInt("E", "a", n(in)); err != nil || v != want {
			t.Errorf("readInt(%q) = %d, %v; want %d", in, v, err, want)
		}
	}
	for _, in := range []string{"", " 1", "1 ", "1.5", "1.0", "1e3", "abc", "0x10", "1_000",
		"9223372036854775808", "-9223372036854775809", "99999999999999999999999999999999999999"} {
		_, err := ReadInt("E", "a", n(in))
		checkItemError(t, err, "E", "a")
		noValue(t, "readInt", err, in)
	}
	for in, want := range map[string]float64{
		"0": 0, "1.5": 1.5, "-1.5": -1.5, "1e3": 1000, "1E-130": 1e-130, "9.9999999999999999999999999999999999999E+125": 1e126,
		"42": 42, "0.1": 0.1, "123456789012345678901234567890": 1.2345678901234568e29,
	} {
		if v, err := ReadFloat("E", "a", n(in)); err != nil || v != want {
			t.Errorf("readFloat(%q) = %v, %v; want %v", in, v, err, want)
		}
	}
	for _, in := range []string{"", "abc", "1.5.5", "1e", "--1", "1e400", "-1e400", " 1"} {
		_, err := ReadFloat("E", "a", n(in))
		checkItemError(t, err, "E", "a")
		noValue(t, "readFloat", err, in)
	}
	for _, in := range []string{"", "2021-3-5", "20210305", "2021-02-30", "05/03/2021", "2021-03-05T00:00:00Z"} {
		_, err := ReadDate("E", "a", s(in))
		checkItemError(t, err, "E", "a")
		noValue(t, "readDate", err, in)
	}
	for _, in := range []string{"1.5", "9223372036854775808", "x7q"} {
		_, err := ReadIntSet("E", "a", &types.AttributeValueMemberNS{Value: []string{"1", in}})
		checkItemError(t, err, "E", "a")
		noValue(t, "readIntSet", err, in)
	}
	for _, b := range []bool{true, false} {
		if v, err := ReadBool("E", "a", &types.AttributeValueMemberBOOL{Value: b}); err != nil || v != b {
			t.Errorf("readBool(%v) = %v, %v", b, v, err)
		}
	}
	if v, err := ReadBytes("E", "a", &types.AttributeValueMemberB{Value: []byte{0, 1, 255}}); err != nil || string(v) != "\x00\x01\xff" {
		t.Errorf("readBytes = %q, %v", v, err)
	}
	if v, err := ReadStringSet("E", "a", &types.AttributeValueMemberSS{Value: []string{"x", "y"}}); err != nil || !slices.Equal(v, []string{"x", "y"}) {
		t.Errorf("readStringSet = %q, %v", v, err)
	}
	if v, err := ReadPath("E", "a", s("usr/local/bin"), "/"); err != nil || !slices.Equal(v, []string{"usr", "local", "bin"}) {
		t.Errorf("readPath = %q, %v", v, err)
	}
	if v, err := ReadPath("E", "a", s("a→b"), "→"); err != nil || !slices.Equal(v, []string{"a", "b"}) {
		t.Errorf("readPath(→) = %q, %v", v, err)
	}
	// Elements of the wrong type in containers.
	for _, tt := range []struct {
		name string
		err  error
	}{
		{"readStrings N element", func() error {
			_, err := ReadStrings("E", "a", &types.AttributeValueMemberL{Value: []types.AttributeValue{s("x"), n("1")}})
			return err
		}()},
		{"readStrings nil element", func() error {
			_, err := ReadStrings("E", "a", &types.AttributeValueMemberL{Value: []types.AttributeValue{nil}})
			return err
		}()},
		{"readMap N value", func() error {
			_, err := ReadMap("E", "a", &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"k": s("v"), "j": n("1")}})
			return err
		}()},
		{"readIntSet malformed", func() error {
			_, err := ReadIntSet("E", "a", &types.AttributeValueMemberNS{Value: []string{"1", "1.5"}})
			return err
		}()},
		{"readIntSet overflow", func() error {
			_, err := ReadIntSet("E", "a", &types.AttributeValueMemberNS{Value: []string{"9223372036854775808"}})
			return err
		}()},
		{"readTime N", func() error {
			_, err := ReadTime("E", "a", n("1614970496"))
			return err
		}()},
		{"readUnix S", func() error {
			_, err := ReadUnix("E", "a", s("1614970496"))
			return err
		}()},
		{"readUnix malformed", func() error {
			_, err := ReadUnix("E", "a", n("1.5"))
			return err
		}()},
		{"readUnixMilli malformed", func() error {
			_, err := ReadUnixMilli("E", "a", n("x"))
			return err
		}()},
		{"readPath N", func() error {
			_, err := ReadPath("E", "a", n("1"), "/")
			return err
		}()},
		{"readDate N", func() error {
			_, err := ReadDate("E", "a", n("20210305"))
			return err
		}()},
	} {
		t.Run(tt.name, func(t *testing.T) { checkItemError(t, tt.err, "E", "a") })
	}

	// missing
	checkItemError(t, missing("Book", "isbn"), "Book", "isbn")
}

func TestReadTime(t *testing.T) {
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	base := time.Date(2021, 3, 5, 18, 54, 56, 0, time.UTC)
	for in, want := range map[string]time.Time{
		"2021-03-05T18:54:56Z":                       base,
		"2021-03-05T18:54:56.5Z":                     base.Add(500 * time.Millisecond),
		"2021-03-05T18:54:56.000000001Z":             base.Add(1),
		"2021-03-05T18:54:56.000000000Z":             base,
		"2021-03-05T20:54:56+02:00":                  base,
		"2021-03-05T20:54:56.25+02:00":               base.Add(250 * time.Millisecond),
		"2021-03-05T13:24:56-05:30":                  base,
		"2021-03-05T18:54:56.123456789-00:00":        base.Add(123456789),
		"0000-01-01T00:00:00Z":                       time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC),
		"9999-12-31T23:59:59.999999999Z":             time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC),
		FormatTime(base.Add(123 * time.Microsecond)): base.Add(123 * time.Microsecond),
	} {
		got, err := ReadTime("E", "at", s(in))
		if err != nil || !got.Equal(want) {
			t.Errorf("readTime(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{
		"", "2021-03-05", "2021-03-05 18:54:56Z", "2021-03-05T18:54:56", "2021-03-05T18:54:56+0200",
		"2021-03-05T25:54:56Z", "2021-02-30T18:54:56Z", "1614970496", "2021-03-05T18:54:56.Z", "yesterday",
	} {
		_, err := ReadTime("E", "at", s(in))
		checkItemError(t, err, "E", "at")
		noValue(t, "readTime", err, in)
	}
}

func TestReadDateAndUnix(t *testing.T) {
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	n := func(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }
	if d, err := ReadDate("E", "d", s("2021-03-05")); err != nil || !d.Equal(time.Date(2021, 3, 5, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("readDate = %v, %v", d, err)
	}
	for _, in := range []string{"", "2021-3-5", "2021-02-30", "2021-03-05T00:00:00Z", "05/03/2021"} {
		_, err := ReadDate("E", "d", s(in))
		checkItemError(t, err, "E", "d")
	}
	// FormatDate / ReadDate round trip.
	d := time.Date(1999, 12, 31, 0, 0, 0, 0, time.UTC)
	if got, err := ReadDate("E", "d", s(FormatDate(d))); err != nil || !got.Equal(d) {
		t.Errorf("readDate(formatDate(%v)) = %v, %v", d, got, err)
	}
	if u, err := ReadUnix("E", "u", n("1614970496")); err != nil || !u.Equal(time.Date(2021, 3, 5, 18, 54, 56, 0, time.UTC)) || u.Location() != time.UTC {
		t.Errorf("readUnix = %v, %v", u, err)
	}
	if u, err := ReadUnix("E", "u", n("-1")); err != nil || !u.Equal(time.Unix(-1, 0)) {
		t.Errorf("readUnix(-1) = %v, %v", u, err)
	}
	if u, err := ReadUnixMilli("E", "u", n("1614970496500")); err != nil || !u.Equal(time.Date(2021, 3, 5, 18, 54, 56, 5e8, time.UTC)) || u.Location() != time.UTC {
		t.Errorf("readUnixMilli = %v, %v", u, err)
	}
}

// Writers and readers are inverse.

func TestIntRoundTrip(t *testing.T) {
	ns := intBoundaries()
	r := rand.New(rand.NewPCG(1, 2))
	for range 1000 {
		ns = append(ns, int64(r.Uint64()))
	}
	for _, n := range ns {
		av := IntValue(n)
		got, err := ReadInt("E", "n", av)
		if err != nil || got != n {
			t.Errorf("readInt(intValue(%d)) = %d, %v", n, got, err)
		}
	}
}

func TestFloatRoundTrip(t *testing.T) {
	fs := []float64{0, 1, -1, 0.1, -0.1, 1.0 / 3, math.Pi, -math.E, 1e-130, 9.9e125,
		1e300, -1e300, 1e-300, -1e-300, math.MaxFloat64, -math.MaxFloat64,
		math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64, 2.2250738585072014e-308,
		1 << 53, 1<<53 + 1, -(1 << 63), 123456789.123456789, 1e21, 1e-7}
	r := rand.New(rand.NewPCG(3, 4))
	for range 1000 {
		fs = append(fs, math.Float64frombits(r.Uint64()))
	}
	for _, f := range fs {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			continue // DynamoDB has no such numbers
		}
		av := FloatValue(f)
		got, err := ReadFloat("E", "f", av)
		if err != nil || math.Float64bits(got) != math.Float64bits(f) && !(f == 0 && got == 0) {
			t.Errorf("readFloat(floatValue(%v)) = %v, %v (written %q)", f, got, err, av.(*types.AttributeValueMemberN).Value)
		}
	}
	// Negative zero comes back as a zero (DynamoDB has no -0 anyway).
	if got, err := ReadFloat("E", "f", FloatValue(math.Copysign(0, -1))); err != nil || got != 0 {
		t.Errorf("readFloat(floatValue(-0)) = %v, %v", got, err)
	}
	// Whole floats come back through ReadInt when in range.
	if got, err := ReadInt("E", "f", FloatValue(42)); err != nil || got != 42 {
		t.Errorf("readInt(floatValue(42)) = %v, %v", got, err)
	}
}

func TestStringsRoundTrip(t *testing.T) {
	for _, ss := range [][]string{nil, {}, {""}, {"a"}, {"a", "b", "a"}, {"ä", "日本", "🎉", "\x00"}} {
		av := StringsValue(ss)
		got, err := ReadStrings("E", "l", av)
		if err != nil || !slices.Equal(got, ss) {
			t.Errorf("readStrings(stringsValue(%q)) = %q, %v", ss, got, err)
		}
		if got == nil {
			t.Errorf("readStrings(stringsValue(%q)) = nil, want a non-nil slice", ss)
		}
	}
}

func TestIntSetRoundTrip(t *testing.T) {
	for _, ns := range [][]int64{nil, {}, {0}, {1, -1}, intBoundaries()} {
		av := IntSetValue(ns)
		got, err := ReadIntSet("E", "ns", av)
		if err != nil || !slices.Equal(got, ns) {
			t.Errorf("readIntSet(intSetValue(%d)) = %d, %v", ns, got, err)
		}
	}
}

func TestMapRoundTrip(t *testing.T) {
	for _, m := range []map[string]string{nil, {}, {"": ""}, {"a": "1", "b": "2"}, {"ä": "日本", "🎉": "\x00"}} {
		av := MapValue(m)
		got, err := ReadMap("E", "m", av)
		if err != nil || !maps.Equal(got, m) {
			t.Errorf("readMap(mapValue(%q)) = %q, %v", m, got, err)
		}
		if got == nil {
			t.Errorf("readMap(mapValue(%q)) = nil", m)
		}
	}
	// The map written is a copy: changing the input later changes nothing.
	m := map[string]string{"a": "1"}
	av := MapValue(m)
	m["a"] = "2"
	m["b"] = "3"
	if got, _ := ReadMap("E", "m", av); !maps.Equal(got, map[string]string{"a": "1"}) {
		t.Errorf("mapValue kept a reference to its input: %q", got)
	}
}

func TestKeyHash(t *testing.T) {
	S := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	N := func(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }
	B := func(v string) types.AttributeValue { return &types.AttributeValueMemberB{Value: []byte(v)} }
	key := func(pk, sk types.AttributeValue) map[string]types.AttributeValue {
		m := map[string]types.AttributeValue{"pk": pk}
		if sk != nil {
			m["sk"] = sk
		}
		return m
	}
	keys := []map[string]types.AttributeValue{
		key(S("1"), nil),
		key(N("1"), nil),
		key(B("1"), nil),
		key(S("a"), S("bc")),
		key(S("ab"), S("c")),
		key(S("abc"), nil),
		key(S("abc"), S("")),
		key(S("a"), N("1")),
		key(S("a"), S("1")),
		key(S("a"), B("1")),
		key(S("a"), B("")),
		key(N("1"), S("a")),
		key(S(""), S("a")),
		key(S("a"), S("a")),
		key(S("MQ=="), nil), // the base64 of "1"
		key(S("S1"), nil),
		key(S("aSb"), nil), // without a divider between attributes, = (a, b)
		key(S("a"), S("b")),
		key(S("aNb"), nil),
		key(S("a"), N("b")),
		key(B("\x00\x01"), nil),
		key(B("\x00\x02"), nil),
	}
	seen := map[string]int{}
	for i, k := range keys {
		h := keyHash(k, "pk", "sk")
		if j, dup := seen[h]; dup {
			t.Errorf("keyHash(%s) = keyHash(%s) = %q", showKey(k), showKey(keys[j]), h)
		}
		seen[h] = i
		// Equal keys (new values, same content) hash the same.
		if h2 := keyHash(cloneKey(k), "pk", "sk"); h2 != h {
			t.Errorf("keyHash(%s) not stable: %q vs %q", showKey(k), h, h2)
		}
	}
	// Attributes not named are ignored; the order of names matters only
	// as the caller's fixed choice.
	a := map[string]types.AttributeValue{"pk": S("x"), "sk": S("y"), "data": S("1")}
	b := map[string]types.AttributeValue{"pk": S("x"), "sk": S("y"), "data": S("2")}
	if keyHash(a, "pk", "sk") != keyHash(b, "pk", "sk") {
		t.Errorf("keyHash depends on an attribute not named")
	}
}

// TestKeyHashNUL checks that keyHash tells apart string keys holding NUL,
// which DynamoDB allows in S values and KeyString lets through.
func TestKeyHashNUL(t *testing.T) {
	S := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	k1 := map[string]types.AttributeValue{"pk": S("a\x00Sb"), "sk": S("c")}
	k2 := map[string]types.AttributeValue{"pk": S("a"), "sk": S("b\x00Sc")}
	// Both values pass KeyString for templates "{id}" (no separators).
	for _, v := range []string{"a\x00Sb", "b\x00Sc"} {
		if _, err := KeyString("id", v, ""); err != nil {
			t.Fatalf("keyString(%q): %v", v, err)
		}
	}
	if h1, h2 := keyHash(k1, "pk", "sk"), keyHash(k2, "pk", "sk"); h1 == h2 {
		t.Errorf("keyHash(pk %q, sk %q) = keyHash(pk %q, sk %q) = %q: a batch that drops duplicates by keyHash would lose one of two distinct keys", "a\x00Sb", "c", "a", "b\x00Sc", h1)
	}
}

func showKey(k map[string]types.AttributeValue) string {
	var parts []string
	for _, n := range slices.Sorted(maps.Keys(k)) {
		switch v := k[n].(type) {
		case *types.AttributeValueMemberS:
			parts = append(parts, n+"=S"+strconv.Quote(v.Value))
		case *types.AttributeValueMemberN:
			parts = append(parts, n+"=N"+strconv.Quote(v.Value))
		case *types.AttributeValueMemberB:
			parts = append(parts, n+"=B"+strconv.Quote(string(v.Value)))
		default:
			parts = append(parts, n+"=?")
		}
	}
	return "{" + strings.Join(parts, " ") + "}"
}

func cloneKey(k map[string]types.AttributeValue) map[string]types.AttributeValue {
	out := make(map[string]types.AttributeValue, len(k))
	for n, av := range k {
		switch v := av.(type) {
		case *types.AttributeValueMemberS:
			out[n] = &types.AttributeValueMemberS{Value: strings.Clone(v.Value)}
		case *types.AttributeValueMemberN:
			out[n] = &types.AttributeValueMemberN{Value: strings.Clone(v.Value)}
		case *types.AttributeValueMemberB:
			out[n] = &types.AttributeValueMemberB{Value: slices.Clone(v.Value)}
		default:
			out[n] = av
		}
	}
	return out
}

func TestIsTypeAndHasKeyPrefix(t *testing.T) {
	item := map[string]types.AttributeValue{
		"type": &types.AttributeValueMemberS{Value: "Book"},
		"sk":   &types.AttributeValueMemberS{Value: "ORDER#42"},
		"n":    &types.AttributeValueMemberN{Value: "Book"},
	}
	for _, tt := range []struct {
		attr, value string
		want        bool
	}{
		{"type", "Book", true},
		{"type", "book", false},
		{"type", "Boo", false},
		{"type", "Books", false},
		{"type", "", false},
		{"n", "Book", false}, // an N is not the entity's name
		{"absent", "Book", false},
		{"absent", "", false},
	} {
		if got := IsType(item, tt.attr, tt.value); got != tt.want {
			t.Errorf("isType(%s, %q) = %v", tt.attr, tt.value, got)
		}
	}
	for _, tt := range []struct {
		attr, prefix string
		want         bool
	}{
		{"sk", "ORDER#", true},
		{"sk", "", true},
		{"sk", "ORDER#42", true},
		{"sk", "ORDER#421", false},
		{"sk", "order#", false},
		{"sk", "RDER", false},
		{"n", "", false},
		{"absent", "", false},
	} {
		if got := HasKeyPrefix(item, tt.attr, tt.prefix); got != tt.want {
			t.Errorf("hasKeyPrefix(%s, %q) = %v", tt.attr, tt.prefix, got)
		}
	}
	if IsType(nil, "type", "Book") || HasKeyPrefix(nil, "sk", "") {
		t.Errorf("nil item matches")
	}
}

func TestReadPathEmpty(t *testing.T) {
	got, err := ReadPath("E", "p", &types.AttributeValueMemberS{Value: ""}, "/")
	if err != nil || len(got) != 0 {
		t.Errorf("readPath(\"\") = %q, %v; want no element", got, err)
	}
	got, err = ReadPath("E", "p", &types.AttributeValueMemberS{Value: "a"}, "/")
	if err != nil || !slices.Equal(got, []string{"a"}) {
		t.Errorf("readPath(\"a\") = %q, %v", got, err)
	}
}

// dynamoNumberOK tells, exactly, whether DynamoDB stores the number text
// s: zero, or a magnitude from 1E-130 to 9.9999999999999999999999999999999999999E+125,
// with at most 38 significant digits.
func dynamoNumberOK(s string) bool {
	x, ok := new(big.Rat).SetString(s)
	if !ok || strings.ContainsAny(s, "/xXpP_") {
		return false
	}
	if x.Sign() == 0 {
		return true
	}
	a := new(big.Rat).Abs(x)
	lo, _ := new(big.Rat).SetString("1e-130")
	hi, _ := new(big.Rat).SetString("9.9999999999999999999999999999999999999e125")
	if a.Cmp(lo) < 0 || a.Cmp(hi) > 0 {
		return false
	}
	mant := strings.TrimLeft(s, "+-")
	if i := strings.IndexAny(mant, "eE"); i >= 0 {
		mant = mant[:i]
	}
	mant = strings.Trim(strings.ReplaceAll(mant, ".", ""), "0")
	return len(mant) <= 38
}

func TestStorableFloat(t *testing.T) {
	for f, want := range map[float64]bool{
		0: true, 1: true, -1: true, 1e-130: true, -1e-130: true, 1e125: true,
		math.Nextafter(1e126, 0): true, 1e126: false, -1e126: false, math.Nextafter(1e-130, 0): false,
		1e-131: false, 1e300: false, math.MaxFloat64: false, math.SmallestNonzeroFloat64: false,
		math.Inf(1): false, math.Inf(-1): false, math.NaN(): false,
	} {
		if got := StorableFloat(f); got != want {
			t.Errorf("storableFloat(%v) = %v, want %v", f, got, want)
		}
	}
	// StorableFloat agrees with DynamoDB's rule on the text FloatValue
	// writes.
	r := rand.New(rand.NewPCG(7, 8))
	fs := []float64{1e-130, 1e126, math.Nextafter(1e126, 0), math.Nextafter(1e-130, 0), math.Nextafter(1e-130, 1)}
	for range 20000 {
		// Random bits, and random values near the limits.
		fs = append(fs, math.Float64frombits(r.Uint64()),
			math.Ldexp(1+r.Float64(), 418+r.IntN(3)-1)*(1-2*float64(r.IntN(2))),
			math.Ldexp(1+r.Float64(), -432+r.IntN(3)-1))
	}
	for _, f := range fs {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			continue
		}
		text := FloatValue(f).(*types.AttributeValueMemberN).Value
		if got, want := StorableFloat(f), dynamoNumberOK(text); got != want {
			t.Errorf("storableFloat(%v) = %v, but DynamoDB's rule on %q says %v", f, got, text, want)
		}
	}
}

func TestStorableYear(t *testing.T) {
	for y, want := range map[int]bool{-10000: false, -1: false, 0: true, 1: true, 1970: true, 9999: true, 10000: false, 1 << 40: false} {
		if got := StorableYear(y); got != want {
			t.Errorf("storableYear(%d) = %v", y, got)
		}
		// It is exactly the range KeyTime accepts.
		_, err := KeyTime("t", time.Date(y, 6, 1, 0, 0, 0, 0, time.UTC))
		if (err == nil) != want {
			t.Errorf("year %d: storableYear %v, keyTime error %v", y, want, err)
		}
	}
}

// decoder is the signature of the ItemDecoder's methods, with the result
// as any.
type decoder func(d *ItemDecoder, attr string, av types.AttributeValue, p Presence) any

// decodeAny is the method expression decode as a decoder.
func decodeAny[T any](decode func(d *ItemDecoder, attr string, av types.AttributeValue, p Presence) T) decoder {
	return func(d *ItemDecoder, a string, av types.AttributeValue, p Presence) any { return decode(d, a, av, p) }
}

// decoders wraps every ItemDecoder method as one signature, with the
// reader it must agree with.
var decoders = []struct {
	reader string
	decode decoder
}{
	{"readString", decodeAny((*ItemDecoder).String)},
	{"readInt", decodeAny((*ItemDecoder).Int)},
	{"readFloat", decodeAny((*ItemDecoder).Float)},
	{"readBool", decodeAny((*ItemDecoder).Bool)},
	{"readTime", decodeAny((*ItemDecoder).Time)},
	{"readDate", decodeAny((*ItemDecoder).Date)},
	{"readUnix", decodeAny((*ItemDecoder).Unix)},
	{"readUnixMilli", decodeAny((*ItemDecoder).UnixMilli)},
	{"readBytes", decodeAny((*ItemDecoder).Bytes)},
	{"readStrings", decodeAny((*ItemDecoder).Strings)},
	{"readStringSet", decodeAny((*ItemDecoder).StringSet)},
	{"readIntSet", decodeAny((*ItemDecoder).IntSet)},
	{"readMap", decodeAny((*ItemDecoder).StringMap)},
	{"readPath", func(d *ItemDecoder, a string, av types.AttributeValue, p Presence) any { return d.Path(a, av, "/", p) }},
}

// rightValue is a value each reader decodes.
func rightValue(reader, typ string) types.AttributeValue {
	switch reader {
	case "readTime":
		return &types.AttributeValueMemberS{Value: "2021-03-05T18:54:56.5Z"}
	case "readPath":
		return &types.AttributeValueMemberS{Value: "a/b/c"}
	}
	return oneOfEach()[typ]
}

func TestItemDecoderAgreesWithReaders(t *testing.T) {
	if len(decoders) != len(readers) {
		t.Fatalf("%d decoder methods for %d readers", len(decoders), len(readers))
	}
	for i, r := range readers {
		dm := decoders[i]
		if dm.reader != r.name {
			t.Fatalf("decoder %d is for %s, reader %d is %s", i, dm.reader, i, r.name)
		}
		for typ := range oneOfEach() {
			av := oneOfEach()[typ]
			if typ == r.typ {
				av = rightValue(r.name, typ)
			}
			if av == nil {
				continue
			}
			for _, p := range []Presence{Required, Optional} {
				want, wantErr := r.read("Book", "title", av)
				d := ItemDecoder{Entity: "Book"}
				got := dm.decode(&d, "title", av, p)
				if p == Optional && isNull(av) {
					// A stored NULL is an absent optional attribute.
					if d.Err != nil || !reflect.ValueOf(got).IsZero() {
						t.Errorf("%s(NULL value), optional = %#v, %v; want the zero value", dm.reader, got, d.Err)
					}
					continue
				}
				if wantErr != nil {
					if d.Err == nil || d.Err.Error() != wantErr.Error() {
						t.Errorf("%s(%s value): error %v, want %v", dm.reader, typ, d.Err, wantErr)
					}
					if !reflect.ValueOf(got).IsZero() {
						t.Errorf("%s(%s value) after an error = %#v, want the zero value", dm.reader, typ, got)
					}
					continue
				}
				if d.Err != nil || !reflect.DeepEqual(got, want) {
					t.Errorf("%s(%s value) = %#v, %v; want %#v", dm.reader, typ, got, d.Err, want)
				}
			}
		}
	}
}

func TestItemDecoderMissing(t *testing.T) {
	for _, dm := range decoders {
		d := ItemDecoder{Entity: "Book"}
		if got := dm.decode(&d, "title", nil, Optional); !reflect.ValueOf(got).IsZero() || d.Err != nil {
			t.Errorf("%s: missing optional = %#v, %v; want the zero value and no error", dm.reader, got, d.Err)
		}
		if got := dm.decode(&d, "title", nil, Required); !reflect.ValueOf(got).IsZero() {
			t.Errorf("%s: missing required = %#v, want the zero value", dm.reader, got)
		}
		checkItemError(t, d.Err, "Book", "title")
		if !strings.HasSuffix(d.Err.Error(), ": missing") {
			t.Errorf("%s: missing required: %v", dm.reader, d.Err)
		}
	}
}

func TestItemDecoderKeepsFirstError(t *testing.T) {
	d := ItemDecoder{Entity: "Book"}
	if got := d.String("isbn", &types.AttributeValueMemberS{Value: "1"}, Required); got != "1" {
		t.Errorf("isbn = %q", got)
	}
	d.Int("year", &types.AttributeValueMemberS{Value: "x"}, Required)
	d.String("title", nil, Required)
	if got := d.String("author", &types.AttributeValueMemberS{Value: "a"}, Required); got != "a" {
		t.Errorf("a good attribute after an error = %q, want it decoded", got)
	}
	checkItemError(t, d.Err, "Book", "year")
}

func TestIntDiff(t *testing.T) {
	for _, tt := range []struct {
		a, b int64
		want string
	}{
		{0, 0, "0"},
		{10, 3, "7"},
		{3, 10, "-7"},
		{0, math.MinInt64, "9223372036854775808"},
		{math.MinInt64, 1, "-9223372036854775809"},
		{math.MaxInt64, -1, "9223372036854775808"},
		{math.MaxInt64, math.MinInt64, "18446744073709551615"},
		{math.MinInt64, math.MaxInt64, "-18446744073709551615"},
		{math.MinInt64, math.MinInt64, "0"},
		{-5, math.MaxInt64, "-9223372036854775812"},
	} {
		got := IntDiff(tt.a, tt.b).(*types.AttributeValueMemberN).Value
		if got != tt.want {
			t.Errorf("intDiff(%d, %d) = %s, want %s", tt.a, tt.b, got, tt.want)
		}
	}
}

// noValue checks that the error of a reader given the stored text in does
// not hold it: error messages never hold a stored value.
func noValue(t *testing.T, reader string, err error, in string) {
	t.Helper()
	if err != nil && strings.TrimSpace(in) != "" && strings.Contains(err.Error(), in) {
		t.Errorf("%s(%q): %q holds the stored value", reader, in, err)
	}
}

func TestUpdateExpression(t *testing.T) {
	for _, tt := range []struct {
		set, remove, del []string
		add, want        string
	}{
		{nil, nil, nil, "", ""},
		{[]string{"#a = :a", "#b = :b"}, nil, nil, "", "SET #a = :a, #b = :b"},
		{nil, nil, []string{"#t :t"}, "", "DELETE #t :t"},
		{nil, []string{"#n"}, []string{"#t :t", "#u :u"}, "", "REMOVE #n DELETE #t :t, #u :u"},
		{[]string{"#a = :a"}, []string{"#n"}, []string{"#t :t"}, "#c :c", "SET #a = :a ADD #c :c REMOVE #n DELETE #t :t"},
		{nil, nil, nil, "#c :c", "ADD #c :c"},
	} {
		if got := UpdateExpression(tt.set, tt.add, tt.remove, tt.del); got != tt.want {
			t.Errorf("updateExpression(%q, %q, %q, %q) = %q, want %q", tt.set, tt.add, tt.remove, tt.del, got, tt.want)
		}
	}
}

// TestDecodePtrAndDefault: an optional scalar is nil when the item lacks
// it or holds NULL, and a pointer to the value otherwise, zero included;
// a default stands for a missing or NULL attribute and for nothing else.
func TestDecodePtrAndDefault(t *testing.T) {
	null := &types.AttributeValueMemberNULL{Value: true}
	d := ItemDecoder{Entity: "Book"}
	if p := decodePtr(&d, "n", nil, ReadInt); p != nil {
		t.Errorf("decodePtr(missing) = %v", *p)
	}
	if p := decodePtr(&d, "n", null, ReadInt); p != nil {
		t.Errorf("decodePtr(NULL) = %v", *p)
	}
	if p := decodePtr(&d, "n", &types.AttributeValueMemberN{Value: "0"}, ReadInt); p == nil || *p != 0 {
		t.Errorf("decodePtr(0) = %v", p)
	}
	if p := decodePtr(&d, "b", &types.AttributeValueMemberBOOL{Value: false}, ReadBool); p == nil || *p {
		t.Errorf("decodePtr(false) = %v", p)
	}
	if d.Err != nil {
		t.Fatalf("error %v", d.Err)
	}
	if p := decodePtr(&d, "n", &types.AttributeValueMemberS{Value: "x"}, ReadInt); p == nil || d.Err == nil {
		t.Errorf("decodePtr(S) for an int: %v, %v; want an error", p, d.Err)
	}
	d = ItemDecoder{Entity: "Book"}
	for _, av := range []types.AttributeValue{nil, null} {
		if got := decodeOr(&d, "n", av, int64(3), ReadInt); got != 3 {
			t.Errorf("decodeOr(%v) = %d, want the default 3", av, got)
		}
	}
	if got := decodeOr(&d, "n", &types.AttributeValueMemberN{Value: "0"}, int64(3), ReadInt); got != 0 {
		t.Errorf("decodeOr(0) = %d, want the stored 0", got)
	}
	if d.Err != nil {
		t.Fatalf("error %v", d.Err)
	}
	if Document(null) != nil || Document(nil) != nil {
		t.Error("document(NULL) is not nil")
	}
	if m := (&types.AttributeValueMemberM{}); Document(m) != m {
		t.Error("document(M) is not the value")
	}
}

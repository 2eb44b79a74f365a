package runtime

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// cursorKeys are LastEvaluatedKeys of 1 to 4 attributes (a table key, and
// a table key plus an index key) with S, N and B values.
func cursorKeys() []map[string]types.AttributeValue {
	S := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	N := func(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }
	B := func(v ...byte) types.AttributeValue { return &types.AttributeValueMemberB{Value: v} }
	long := strings.Repeat("x", 2048)
	return []map[string]types.AttributeValue{
		{"pk": S("USER#alice")},
		{"pk": N("42")},
		{"pk": B(0, 1, 2, 255)},
		{"pk": S("")},
		{"pk": B()},
		{"pk": S("USER#alice"), "sk": S("ORDER#0000000000000000042")},
		{"pk": S("a"), "sk": N("-1.5e10")},
		{"id": B(0), "n": N("0")},
		{"PK": S("日本"), "SK": S("🎉\x00")},
		{"pk": S(long), "sk": S(long[:1024])},
		{"pk": S("p"), "sk": S("s"), "gsi1pk": S("g"), "gsi1sk": N("7")},
		{"pk": B(1), "sk": N("2"), "lsi": S("3")},
		{"": S("empty name")},
		{"ä": S("x"), "a": S("y"), "b": B(9), "c": N("1")},
	}
}

func TestCursorRoundTrip(t *testing.T) {
	for _, key := range cursorKeys() {
		c := encodeCursor("Orders", "USER#alice", key)
		if c == "" {
			t.Errorf("encodeCursor(%s) = \"\"", showKey(key))
			continue
		}
		if strings.ContainsAny(string(c), "+/=") {
			t.Errorf("cursor %q is not URL-safe unpadded base64", c)
		}
		got, err := decodeCursor("Orders", "USER#alice", c)
		if err != nil {
			t.Errorf("decodeCursor(encodeCursor(%s)): %v", showKey(key), err)
			continue
		}
		if !reflect.DeepEqual(keyView(got), keyView(key)) {
			t.Errorf("decodeCursor(encodeCursor(%s)) = %s", showKey(key), showKey(got))
		}
		// Deterministic: map order does not matter.
		for range 5 {
			if c2 := encodeCursor("Orders", "USER#alice", cloneKey(key)); c2 != c {
				t.Errorf("encodeCursor(%s) not deterministic: %q vs %q", showKey(key), c, c2)
			}
		}
	}
}

// keyView is a key in comparable form: name -> type letter + value.
func keyView(k map[string]types.AttributeValue) map[string]string {
	if k == nil {
		return nil
	}
	out := map[string]string{}
	for n, av := range k {
		switch v := av.(type) {
		case *types.AttributeValueMemberS:
			out[n] = "S" + v.Value
		case *types.AttributeValueMemberN:
			out[n] = "N" + v.Value
		case *types.AttributeValueMemberB:
			out[n] = "B" + string(v.Value)
		default:
			out[n] = "?"
		}
	}
	return out
}

func TestCursorZero(t *testing.T) {
	for _, key := range []map[string]types.AttributeValue{nil, {}} {
		if c := encodeCursor("p", "q", key); c != "" {
			t.Errorf("encodeCursor(%v) = %q, want the zero cursor", key, c)
		}
	}
	for _, pat := range []string{"", "p"} {
		key, err := decodeCursor(pat, "q", "")
		if key != nil || err != nil {
			t.Errorf("decodeCursor(%q, zero) = %v, %v; want nil, nil", pat, key, err)
		}
	}
}

func TestCursorOtherPatternOrPartition(t *testing.T) {
	key := map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "USER#alice"}, "sk": &types.AttributeValueMemberN{Value: "1"}}
	c := encodeCursor("OrdersByUser", "USER#alice", key)
	for _, tt := range []struct{ pattern, partition string }{
		{"OrdersByDate", "USER#alice"},
		{"OrdersByUser", "USER#bob"},
		{"OrdersByDate", "USER#bob"},
		{"", "USER#alice"},
		{"OrdersByUser", ""},
		{"ordersbyuser", "USER#alice"},
		{"OrdersByUser", "USER#alice "},
		// Moving text between pattern and partition changes both.
		{"OrdersByUserU", "SER#alice"},
		{"OrdersByUse", "rUSER#alice"},
		{"USER#alice", "OrdersByUser"},
	} {
		got, err := decodeCursor(tt.pattern, tt.partition, c)
		if err == nil || got != nil {
			t.Errorf("decodeCursor(%q, %q) of a cursor of (OrdersByUser, USER#alice) = %s, %v", tt.pattern, tt.partition, showKey(got), err)
		}
		if !errors.Is(err, ErrInvalidCursor) {
			t.Errorf("decodeCursor(%q, %q): %v, want ErrInvalidCursor", tt.pattern, tt.partition, err)
		}
	}
}

func TestCursorEveryByteChange(t *testing.T) {
	for _, key := range cursorKeys() {
		if len(keyView(key)["pk"]) > 100 {
			continue // keep it fast
		}
		c := encodeCursor("P", "Q", key)
		raw, err := base64.RawURLEncoding.DecodeString(string(c))
		if err != nil {
			t.Fatalf("cursor %q is not RawURLEncoding: %v", c, err)
		}
		for i := range raw {
			for d := 1; d < 256; d++ {
				b := slices.Clone(raw)
				b[i] ^= byte(d)
				bad := Cursor(base64.RawURLEncoding.EncodeToString(b))
				if got, err := decodeCursor("P", "Q", bad); !errors.Is(err, ErrInvalidCursor) || got != nil {
					t.Fatalf("key %s: byte %d of %d xor %#x: decodeCursor = %s, %v", showKey(key), i, len(raw), d, showKey(got), err)
				}
			}
		}
		// Every change of one character of the text, too.
		const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_+/=. "
		for i := range len(c) {
			for _, r := range alphabet {
				if byte(r) == c[i] {
					continue
				}
				bad := c[:i] + Cursor(r) + c[i+1:]
				got, err := decodeCursor("P", "Q", bad)
				if err == nil {
					// A change of the last character's unused low bits
					// decodes to the same bytes; anything else must fail.
					if rb, derr := base64.RawURLEncoding.DecodeString(string(bad)); derr == nil && string(rb) == string(raw) {
						continue
					}
					t.Fatalf("key %s: char %d %q -> %q: decodeCursor = %s, nil", showKey(key), i, c[i], r, showKey(got))
				}
				if !errors.Is(err, ErrInvalidCursor) {
					t.Fatalf("char change: %v, want ErrInvalidCursor", err)
				}
			}
		}
	}
}

func TestCursorTruncatedOrExtended(t *testing.T) {
	for _, key := range cursorKeys() {
		c := encodeCursor("P", "Q", key)
		raw, _ := base64.RawURLEncoding.DecodeString(string(c))
		for n := range len(c) {
			if got, err := decodeCursor("P", "Q", c[:n]); n > 0 && (!errors.Is(err, ErrInvalidCursor) || got != nil) {
				t.Errorf("decodeCursor(first %d of %d chars) = %s, %v", n, len(c), showKey(got), err)
			}
		}
		for n := 1; n < len(raw); n++ { // n = 0 is the zero cursor
			bad := Cursor(base64.RawURLEncoding.EncodeToString(raw[:n]))
			if got, err := decodeCursor("P", "Q", bad); !errors.Is(err, ErrInvalidCursor) || got != nil {
				t.Errorf("decodeCursor(first %d of %d bytes) = %s, %v", n, len(raw), showKey(got), err)
			}
			// Dropping bytes from the front.
			bad = Cursor(base64.RawURLEncoding.EncodeToString(raw[n:]))
			if got, err := decodeCursor("P", "Q", bad); !errors.Is(err, ErrInvalidCursor) || got != nil {
				t.Errorf("decodeCursor(last %d of %d bytes) = %s, %v", len(raw)-n, len(raw), showKey(got), err)
			}
		}
		for _, extra := range []string{"A", "AA", "AAAA", "x", "="} {
			if got, err := decodeCursor("P", "Q", c+Cursor(extra)); !errors.Is(err, ErrInvalidCursor) || got != nil {
				t.Errorf("decodeCursor(cursor + %q) = %s, %v", extra, showKey(got), err)
			}
		}
		// The same bytes in another base64 alphabet or padded.
		for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding} {
			other := enc.EncodeToString(raw)
			if other == string(c) {
				continue
			}
			if got, err := decodeCursor("P", "Q", Cursor(other)); !errors.Is(err, ErrInvalidCursor) || got != nil {
				t.Errorf("decodeCursor(%q, padded or std alphabet) = %s, %v", other, showKey(got), err)
			}
		}
	}
}

func TestCursorGarbage(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	garbage := []string{
		"x", "!!!!", "====", "A", "AAAA", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
		" ", "\x00", "\xff\xfe", "null", "{}", "cursor", "ééééééé", strings.Repeat("A", 10000),
		"AQ", // just the version
	}
	for range 2000 {
		b := make([]byte, 1+r.IntN(80)) // not empty: that is the zero cursor
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		garbage = append(garbage, base64.RawURLEncoding.EncodeToString(b), string(b))
	}
	// A well-formed header (right version, pattern and partition) with a
	// random body and a random checksum.
	for range 2000 {
		b := []byte{cursorVersion}
		b = binary.BigEndian.AppendUint64(b, hash64("P"))
		b = binary.BigEndian.AppendUint64(b, hash64("Q"))
		for range r.IntN(40) + 9 {
			b = append(b, byte(r.Uint32()))
		}
		garbage = append(garbage, base64.RawURLEncoding.EncodeToString(b))
	}
	for _, g := range garbage {
		got, err := decodeCursor("P", "Q", Cursor(g))
		if !errors.Is(err, ErrInvalidCursor) || got != nil {
			t.Errorf("decodeCursor(%.60q) = %s, %v", g, showKey(got), err)
		}
	}
}

// sealCursor builds a cursor around body (what follows the header) with a
// right header and checksum, so that the body's parsing is what is tested.
func sealCursor(version byte, pattern, partition string, body []byte) Cursor {
	b := []byte{version}
	b = binary.BigEndian.AppendUint64(b, hash64(pattern))
	b = binary.BigEndian.AppendUint64(b, hash64(partition))
	b = append(b, body...)
	b = binary.BigEndian.AppendUint64(b, hash64(string(b)))
	return Cursor(base64.RawURLEncoding.EncodeToString(b))
}

// entry writes one attribute of a cursor's body.
func entry(name string, kind byte, value string) []byte {
	b := binary.AppendUvarint(nil, uint64(len(name)))
	b = append(b, name...)
	b = append(b, kind)
	b = binary.AppendUvarint(b, uint64(len(value)))
	return append(b, value...)
}

func TestCursorSealedBodies(t *testing.T) {
	// The parser behind a valid checksum: well-formed bodies decode, the
	// others are refused, none panics.
	cat := func(parts ...[]byte) []byte { return slices.Concat(parts...) }
	good := cat([]byte{2}, entry("pk", 'S', "a"), entry("sk", 'N', "1"))
	if key, err := decodeCursor("P", "Q", sealCursor(cursorVersion, "P", "Q", good)); err != nil ||
		!maps.Equal(keyView(key), map[string]string{"pk": "Sa", "sk": "N1"}) {
		t.Fatalf("sealed good body: %s, %v", showKey(key), err)
	}
	for name, body := range map[string][]byte{
		"other version":      nil, // handled below
		"no count":           {},
		"zero attributes":    {0},
		"five attributes":    cat([]byte{5}, entry("a", 'S', "1"), entry("b", 'S', "1"), entry("c", 'S', "1"), entry("d", 'S', "1"), entry("e", 'S', "1")),
		"huge count":         cat(binary.AppendUvarint(nil, 1<<40), entry("a", 'S', "1")),
		"count above":        cat([]byte{2}, entry("pk", 'S', "a")),
		"count below":        cat([]byte{1}, entry("pk", 'S', "a"), entry("sk", 'S', "b")),
		"trailing byte":      cat([]byte{1}, entry("pk", 'S', "a"), []byte{0}),
		"kind BOOL":          cat([]byte{1}, entry("pk", 'b', "a")),
		"kind lower s":       cat([]byte{1}, entry("pk", 's', "a")),
		"kind zero":          cat([]byte{1}, entry("pk", 0, "a")),
		"name overruns":      {1, 200, 'p', 'k'},
		"value overruns":     {1, 2, 'p', 'k', 'S', 100, 'a'},
		"huge value length":  cat([]byte{1, 2, 'p', 'k', 'S'}, binary.AppendUvarint(nil, 1<<63), []byte("a")),
		"max uvarint length": cat([]byte{1}, binary.AppendUvarint(nil, ^uint64(0)), []byte("pk")),
		"bad uvarint":        {1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01},
		"no kind":            {1, 2, 'p', 'k'},
		"no value length":    {1, 2, 'p', 'k', 'S'},
	} {
		c := sealCursor(cursorVersion, "P", "Q", body)
		if name == "other version" {
			c = sealCursor(cursorVersion+1, "P", "Q", good)
		}
		got, err := decodeCursor("P", "Q", c)
		if name == "zero attributes" {
			// An empty key is never encoded (it is the zero cursor); a
			// decoder may take it as "from the start" or refuse it, but it
			// must not return a non-empty key.
			if len(got) != 0 {
				t.Errorf("%s: decodeCursor = %s, %v", name, showKey(got), err)
			}
			continue
		}
		if !errors.Is(err, ErrInvalidCursor) || got != nil {
			t.Errorf("%s: decodeCursor = %s, %v; want ErrInvalidCursor", name, showKey(got), err)
		}
	}
}

func FuzzDecodeCursor(f *testing.F) {
	for _, key := range cursorKeys()[:8] {
		c := encodeCursor("P", "Q", key)
		raw, _ := base64.RawURLEncoding.DecodeString(string(c))
		f.Add("P", "Q", string(c), raw[17:len(raw)-8])
	}
	f.Add("", "", "", []byte{})
	f.Add("P", "Q", "!!", []byte{1, 0xff})
	f.Fuzz(func(t *testing.T, pattern, partition, c string, body []byte) {
		// Any text: no panic; an error is ErrInvalidCursor.
		check := func(c Cursor) {
			key, err := decodeCursor(pattern, partition, c)
			if err != nil {
				if !errors.Is(err, ErrInvalidCursor) || key != nil {
					t.Fatalf("decodeCursor(%q) = %s, %v", c, showKey(key), err)
				}
				return
			}
			if c == "" {
				if key != nil {
					t.Fatalf("decodeCursor(zero) = %s", showKey(key))
				}
				return
			}
			if len(key) > 4 {
				t.Fatalf("decodeCursor(%q) = %s: more than 4 attributes", c, showKey(key))
			}
			// It decodes: re-encoding gives a cursor of the same key.
			c2 := encodeCursor(pattern, partition, key)
			key2, err := decodeCursor(pattern, partition, c2)
			if err != nil || !maps.Equal(keyView(key2), keyView(key)) {
				t.Fatalf("decodeCursor(%q) = %s, re-encoded %q decodes to %s, %v", c, showKey(key), c2, showKey(key2), err)
			}
			if len(key) > 0 && c2 == "" {
				t.Fatalf("decodeCursor(%q) = %s re-encodes to the zero cursor", c, showKey(key))
			}
		}
		check(Cursor(c))
		// The body behind a right header and checksum, to reach the
		// parser.
		check(sealCursor(cursorVersion, pattern, partition, body))
	})
}

func TestPageLimit(t *testing.T) {
	for _, tt := range []struct {
		limit   int
		pattern int32
		want    int32 // 0: nil
	}{
		{0, 0, 0},
		{0, 25, 25},
		{10, 0, 10},
		{10, 25, 10},
		{30, 25, 30},
		{-1, 0, 0},
		{-1, 25, 25},
		{1, 1 << 30, 1},
		{1<<31 - 1, 0, 1<<31 - 1},
		{1 << 31, 0, 1<<31 - 1},
		{1 << 40, 7, 1<<31 - 1},
		{int(^uint(0) >> 1), 0, 1<<31 - 1},
	} {
		f := queryFixed{limit: pageLimit(Page{Limit: tt.limit}, tt.pattern)}
		got := f.limitRef()
		switch {
		case tt.want == 0 && got != nil:
			t.Errorf("pageLimit(%d, %d) = %d, want none", tt.limit, tt.pattern, *got)
		case tt.want != 0 && (got == nil || *got != tt.want):
			t.Errorf("pageLimit(%d, %d) = %v, want %d", tt.limit, tt.pattern, got, tt.want)
		}
		if got != nil && *got <= 0 {
			t.Errorf("pageLimit(%d, %d) = %d: DynamoDB wants a Limit >= 1", tt.limit, tt.pattern, *got)
		}
		if got != nil && got != &f.limit {
			t.Errorf("limitRef does not point into the request's own block")
		}
	}
}

func TestPartitionOf(t *testing.T) {
	vals := []types.AttributeValue{
		&types.AttributeValueMemberS{Value: "1"},
		&types.AttributeValueMemberN{Value: "1"},
		&types.AttributeValueMemberB{Value: []byte("1")},
		&types.AttributeValueMemberS{Value: ""},
		&types.AttributeValueMemberB{Value: nil},
		&types.AttributeValueMemberS{Value: "MQ=="},
		&types.AttributeValueMemberS{Value: "N1"},
		&types.AttributeValueMemberS{Value: "USER#alice"},
		&types.AttributeValueMemberS{Value: "USER#alice "},
	}
	seen := map[string]int{}
	for i, v := range vals {
		p := partitionOf(v)
		if j, dup := seen[p]; dup {
			t.Errorf("partitionOf(%#v) = partitionOf(%#v) = %q", v, vals[j], p)
		}
		seen[p] = i
	}
	// A cursor read from one partition is refused for another, even one
	// whose value has the same text in another type.
	key := map[string]types.AttributeValue{"pk": vals[0], "sk": &types.AttributeValueMemberS{Value: "x"}}
	c := encodeCursor("P", partitionOf(vals[0]), key)
	if _, err := decodeCursor("P", partitionOf(vals[0]), c); err != nil {
		t.Fatalf("own partition: %v", err)
	}
	for _, v := range vals[1:] {
		if _, err := decodeCursor("P", partitionOf(v), c); !errors.Is(err, ErrInvalidCursor) {
			t.Errorf("cursor of partition S \"1\" used for %#v: %v", v, err)
		}
	}
}

func TestEmptyRange(t *testing.T) {
	S := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	N := func(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }
	B := func(v ...byte) types.AttributeValue { return &types.AttributeValueMemberB{Value: v} }
	for _, tt := range []struct {
		lo, hi types.AttributeValue
		want   bool
	}{
		{S("a"), S("b"), false},
		{S("b"), S("a"), true},
		{S("a"), S("a"), false},
		{S("ab"), S("a"), true},
		{S("a"), S("ab"), false},
		{S(""), S(""), false},
		{S("é"), S("z"), true}, // UTF-8 byte order, as DynamoDB's
		{S("\uffff"), S("\U00010000"), false},
		{S("ORDER#" + highChar), S("ORDER#zz"), true},
		{N("1"), N("2"), false},
		{N("2"), N("10"), false}, // numeric, not text, order
		{N("10"), N("2"), true},
		{N("-1"), N("-2"), true},
		{N("-2"), N("-1"), false},
		{N("1.5"), N("1.25"), true},
		{N("1E+2"), N("99"), true},
		{N("1e-130"), N("0"), true},
		{N("0"), N("-0"), false},
		{N("-0"), N("0"), false},
		{N("9.9999999999999999999999999999999999999E+125"), N("9.9999999999999999999999999999999999998E+125"), true},
		{N("0000000000000000042"), N("-9223372036854775807"), true},
		{B(1), B(2), false},
		{B(2), B(1), true},
		{B(1, 0), B(1), true},
		{B(), B(), false},
		{B(0xff), B(0x00, 0xff), true},
		// Mismatched or absent: not decided here.
		{S("b"), N("1"), false},
		{N("2"), S("1"), false},
		{B(2), S("1"), false},
		{nil, S("a"), false},
		{S("b"), nil, false},
		{&types.AttributeValueMemberBOOL{Value: true}, &types.AttributeValueMemberBOOL{Value: false}, false},
	} {
		if got := emptyRange(tt.lo, tt.hi); got != tt.want {
			t.Errorf("emptyRange(%s, %s) = %v, want %v", showKey(map[string]types.AttributeValue{"lo": tt.lo}), showKey(map[string]types.AttributeValue{"hi": tt.hi}), got, tt.want)
		}
	}
	// Keys as keyInt and keyTime write them: empty exactly when lo > hi.
	ns := intBoundaries()
	for _, a := range ns {
		for _, b := range ns[:10] {
			if got := emptyRange(S(keyInt(a)), S(keyInt(b))); got != (a > b) {
				t.Errorf("emptyRange(keyInt(%d), keyInt(%d)) = %v", a, b, got)
			}
		}
	}
}

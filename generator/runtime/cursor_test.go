package runtime

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func avS(v string) types.AttributeValue  { return &types.AttributeValueMemberS{Value: v} }
func avN(v string) types.AttributeValue  { return &types.AttributeValueMemberN{Value: v} }
func avB(v ...byte) types.AttributeValue { return &types.AttributeValueMemberB{Value: v} }
func binding(s string) *cursorBinding    { b := cursorBinding(sha256.Sum256([]byte(s))); return &b }
func keysOf(secret string) *CursorKeys   { return NewCursorKeys([]byte(secret)) }
func rawCursor(t *testing.T, c Cursor) []byte {
	t.Helper()
	raw, err := base64.RawURLEncoding.DecodeString(string(c))
	if err != nil {
		t.Fatalf("cursor %q is not RawURLEncoding: %v", c, err)
	}
	return raw
}

// sampleKeys are LastEvaluatedKeys of 1 to 10 attributes (a table key, a
// table key plus an index key, one of a multi-attribute key) with S, N and
// B values.
func sampleKeys() []map[string]types.AttributeValue {
	S, N, B := avS, avN, avB
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
		// A multi-attribute key's, the most a start key holds: four
		// partition and four sort key attributes, and the table's two.
		{"p1": S("a"), "p2": N("2"), "p3": B(3), "p4": S("d"), "s1": N("-1"), "s2": S("b"), "s3": B(0), "s4": N("1e10"), "PK": S(long), "SK": S(long[:1024])},
	}
}

// TestCursorTooManyAttributes refuses a cursor of more key attributes than
// a start key holds.
func TestCursorTooManyAttributes(t *testing.T) {
	key := map[string]types.AttributeValue{}
	for i := range maxStartAttrs + 1 {
		key[strconv.Itoa(i)] = avN(strconv.Itoa(i))
	}
	for _, mode := range keyModes {
		c := encodeCursor(mode.keys, binding("Q"), key)
		if _, err := decodeCursor(mode.keys, binding("Q"), c); !errors.Is(err, ErrInvalidCursor) {
			t.Errorf("%s: a cursor of %d attributes: %v, want ErrInvalidCursor", mode.name, len(key), err)
		}
	}
}

// keyModes are the two ways a Store makes cursors: unsigned, and sealed
// with a key.
var keyModes = []struct {
	name string
	keys *CursorKeys
}{{"unsigned", nil}, {"keyed", NewCursorKeys([]byte("the secret of the tests"))}}

func TestCursorRoundTrip(t *testing.T) {
	for _, mode := range keyModes {
		for _, key := range sampleKeys() {
			c := encodeCursor(mode.keys, binding("Q"), key)
			if c == "" {
				t.Errorf("%s: encodeCursor(%s) = \"\"", mode.name, showKey(key))
				continue
			}
			if strings.ContainsAny(string(c), "+/=") {
				t.Errorf("%s: cursor %q is not URL-safe unpadded base64", mode.name, c)
			}
			got, err := decodeCursor(mode.keys, binding("Q"), c)
			if err != nil {
				t.Errorf("%s: decodeCursor(encodeCursor(%s)): %v", mode.name, showKey(key), err)
				continue
			}
			if !reflect.DeepEqual(keyView(got), keyView(key)) {
				t.Errorf("%s: decodeCursor(encodeCursor(%s)) = %s", mode.name, showKey(key), showKey(got))
			}
			// Deterministic: map order does not matter.
			for range 5 {
				if c2 := encodeCursor(mode.keys, binding("Q"), cloneKey(key)); c2 != c {
					t.Errorf("%s: encodeCursor(%s) not deterministic: %q vs %q", mode.name, showKey(key), c, c2)
				}
			}
		}
	}
}

// keyView is a key in comparable form: name -> type letter + value, a
// number's value as DynamoDB writes it (a cursor holds it so).
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
			text, _ := NumberText(v.Value)
			out[n] = "N" + text
		case *types.AttributeValueMemberB:
			out[n] = "B" + string(v.Value)
		default:
			out[n] = "?"
		}
	}
	return out
}

func TestCursorZero(t *testing.T) {
	for _, mode := range keyModes {
		for _, key := range []map[string]types.AttributeValue{nil, {}} {
			if c := encodeCursor(mode.keys, binding("q"), key); c != "" {
				t.Errorf("%s: encodeCursor(%v) = %q, want the zero cursor", mode.name, key, c)
			}
		}
		key, err := decodeCursor(mode.keys, binding("q"), "")
		if key != nil || err != nil {
			t.Errorf("%s: decodeCursor(zero) = %v, %v; want nil, nil", mode.name, key, err)
		}
	}
}

func TestCursorSecrets(t *testing.T) {
	key := map[string]types.AttributeValue{"pk": avS("USER#alice"), "sk": avS("ORDER#secret-42")}
	a, b := keysOf("secret A"), keysOf("secret B")
	signedA := encodeCursor(a, binding("Q"), key)
	unsigned := encodeCursor(nil, binding("Q"), key)
	refused := func(what string, k *CursorKeys, c Cursor) {
		t.Helper()
		if got, err := decodeCursor(k, binding("Q"), c); !errors.Is(err, ErrInvalidCursor) || got != nil {
			t.Errorf("%s: decodeCursor = %s, %v; want ErrInvalidCursor", what, showKey(got), err)
		}
	}
	refused("a cursor signed with one key, read with another", b, signedA)
	refused("a signed cursor read by a store without a key", nil, signedA)
	refused("an unsigned cursor read by a store with a key", a, unsigned)
	refused("a key differing in one byte", keysOf("secret a"), signedA)
	if got, err := decodeCursor(keysOf("secret A"), binding("Q"), signedA); err != nil || !maps.Equal(keyView(got), keyView(key)) {
		t.Errorf("the same secret given again: %s, %v", showKey(got), err)
	}
	if signedA == encodeCursor(b, binding("Q"), key) {
		t.Errorf("two keys give one cursor")
	}
	// A sealed cursor shows none of the key's values, nor its names; an
	// unsigned one does (it is only checksummed).
	for _, text := range []string{"USER#alice", "ORDER#secret-42", "alice", "secret", "pk"} {
		if bytes.Contains(rawCursor(t, signedA), []byte(text)) {
			t.Errorf("the sealed cursor holds %q in clear", text)
		}
	}
	if !bytes.Contains(rawCursor(t, unsigned), []byte("USER#alice")) {
		t.Errorf("the unsigned cursor does not hold its key in clear; the docs say it does")
	}
	// The secret is copied: changing the caller's slice changes nothing.
	secret := []byte("secret A")
	k := NewCursorKeys(secret)
	secret[0] = 'X'
	if _, err := decodeCursor(k, binding("Q"), signedA); err != nil {
		t.Errorf("after the caller changed its secret slice: %v", err)
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Errorf("newCursorKeys(empty) did not panic")
			}
		}()
		NewCursorKeys(nil)
	}()
}

// queryIn is the QueryInput of a query on table, index ("" for the
// table's key), with the values of its key condition and filter.
func queryIn(table, index string, values map[string]types.AttributeValue) *dynamodb.QueryInput {
	in := &dynamodb.QueryInput{
		TableName:                 aws.String(table),
		KeyConditionExpression:    aws.String("#pk = :pk AND begins_with(#sk, :sk)"),
		ExpressionAttributeValues: values,
	}
	if index != "" {
		in.IndexName = aws.String(index)
	}
	return in
}

func TestCursorBinding(t *testing.T) {
	values := func(pk, sk, status string) map[string]types.AttributeValue {
		m := map[string]types.AttributeValue{":pk": avS(pk), ":sk": avS(sk)}
		if status != "" {
			m[":status"] = avS(status)
		}
		return m
	}
	base := bindQuery("OrdersByUser", "", queryIn("Orders", "GSI1", values("USER#alice", "ORDER#", "live")))
	key := map[string]types.AttributeValue{"pk": avS("USER#alice"), "sk": avS("ORDER#1")}
	others := map[string]cursorBinding{
		"another table name":        bindQuery("OrdersByUser", "", queryIn("Orders-prod", "GSI1", values("USER#alice", "ORDER#", "live"))),
		"another index":             bindQuery("OrdersByUser", "", queryIn("Orders", "GSI2", values("USER#alice", "ORDER#", "live"))),
		"the table's key":           bindQuery("OrdersByUser", "", queryIn("Orders", "", values("USER#alice", "ORDER#", "live"))),
		"another pattern":           bindQuery("OrdersByDate", "", queryIn("Orders", "GSI1", values("USER#alice", "ORDER#", "live"))),
		"another partition":         bindQuery("OrdersByUser", "", queryIn("Orders", "GSI1", values("USER#bob", "ORDER#", "live"))),
		"another where operand":     bindQuery("OrdersByUser", "", queryIn("Orders", "GSI1", values("USER#alice", "ORDER#2024", "live"))),
		"another filter operand":    bindQuery("OrdersByUser", "", queryIn("Orders", "GSI1", values("USER#alice", "ORDER#", "draft"))),
		"no filter operand":         bindQuery("OrdersByUser", "", queryIn("Orders", "GSI1", values("USER#alice", "ORDER#", ""))),
		"text moved between them":   bindQuery("OrdersByUser", "", queryIn("Orders", "GSI1", values("USER#aliceORDER#", "", "live"))),
		"pattern and table swapped": bindQuery("Orders", "", queryIn("OrdersByUser", "GSI1", values("USER#alice", "ORDER#", "live"))),
		"a value of another type": bindQuery("OrdersByUser", "", queryIn("Orders", "GSI1", map[string]types.AttributeValue{
			":pk": avB([]byte("USER#alice")...), ":sk": avS("ORDER#"), ":status": avS("live"),
		})),
		"another placeholder": bindQuery("OrdersByUser", "", queryIn("Orders", "GSI1", map[string]types.AttributeValue{
			":pk": avS("USER#alice"), ":sk": avS("ORDER#"), ":state": avS("live"),
		})),
	}
	for _, mode := range keyModes {
		c := encodeCursor(mode.keys, &base, key)
		if _, err := decodeCursor(mode.keys, &base, c); err != nil {
			t.Fatalf("%s: own query: %v", mode.name, err)
		}
		same := bindQuery("OrdersByUser", "", queryIn("Orders", "GSI1", values("USER#alice", "ORDER#", "live")))
		if _, err := decodeCursor(mode.keys, &same, c); err != nil {
			t.Errorf("%s: the same query again: %v", mode.name, err)
		}
		for what, bind := range others {
			if bind == base {
				t.Errorf("%s binds like the query", what)
			}
			if got, err := decodeCursor(mode.keys, &bind, c); !errors.Is(err, ErrInvalidCursor) || got != nil {
				t.Errorf("%s: a cursor used with %s: %s, %v; want ErrInvalidCursor", mode.name, what, showKey(got), err)
			}
		}
	}
}

func TestBindValues(t *testing.T) {
	// Distinct values bind apart; a set's order and a map's do not count.
	vals := []types.AttributeValue{
		avS("1"), avN("1"), avB('1'), avS(""), avB(), avS("MQ=="), avS("N1"), avS("USER#alice"), avS("USER#alice "),
		&types.AttributeValueMemberBOOL{Value: true}, &types.AttributeValueMemberBOOL{Value: false},
		&types.AttributeValueMemberNULL{Value: true},
		&types.AttributeValueMemberSS{Value: []string{"a", "b"}}, &types.AttributeValueMemberSS{Value: []string{"ab"}},
		&types.AttributeValueMemberNS{Value: []string{"1", "2"}}, &types.AttributeValueMemberBS{Value: [][]byte{{1}, {2}}},
		&types.AttributeValueMemberL{Value: []types.AttributeValue{avS("a"), avS("b")}},
		&types.AttributeValueMemberL{Value: []types.AttributeValue{avS("b"), avS("a")}},
		&types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"a": avS("b")}},
		&types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"ab": avS("")}},
		nil,
	}
	seen := map[cursorBinding]int{}
	for i, v := range vals {
		b := bindQuery("P", "", queryIn("T", "", map[string]types.AttributeValue{":v": v}))
		if j, dup := seen[b]; dup {
			t.Errorf("values %d and %d bind alike", j, i)
		}
		seen[b] = i
	}
	for _, pair := range [][2]types.AttributeValue{
		{&types.AttributeValueMemberSS{Value: []string{"a", "b"}}, &types.AttributeValueMemberSS{Value: []string{"b", "a"}}},
		{&types.AttributeValueMemberNS{Value: []string{"1", "2"}}, &types.AttributeValueMemberNS{Value: []string{"2", "1"}}},
		{&types.AttributeValueMemberBS{Value: [][]byte{{1}, {2}}}, &types.AttributeValueMemberBS{Value: [][]byte{{2}, {1}}}},
	} {
		a := bindQuery("P", "", queryIn("T", "", map[string]types.AttributeValue{":v": pair[0]}))
		b := bindQuery("P", "", queryIn("T", "", map[string]types.AttributeValue{":v": pair[1]}))
		if a != b {
			t.Errorf("a set in another order binds apart")
		}
	}
	// Numbers bind by value: a cursor of a query by 1e+06 is one of a
	// query by 1000000.
	for _, pair := range [][2]types.AttributeValue{
		{avN("1e+06"), avN("1000000")}, {avN("-0"), avN("0")}, {avN("1.50"), avN("1.5")},
		{&types.AttributeValueMemberNS{Value: []string{"1e1", "2"}}, &types.AttributeValueMemberNS{Value: []string{"2", "10"}}},
	} {
		a := bindQuery("P", "", queryIn("T", "", map[string]types.AttributeValue{":v": pair[0]}))
		b := bindQuery("P", "", queryIn("T", "", map[string]types.AttributeValue{":v": pair[1]}))
		if a != b {
			t.Errorf("%v and %v, one number, bind apart", pair[0], pair[1])
		}
	}
	// Binding does not change what it reads (a set is sorted in a copy).
	bs := &types.AttributeValueMemberBS{Value: [][]byte{{2}, {1}}}
	bindQuery("P", "", queryIn("T", "", map[string]types.AttributeValue{":v": bs}))
	if bs.Value[0][0] != 2 {
		t.Errorf("bindQuery sorted the caller's set")
	}
}

func TestCursorEveryByteChange(t *testing.T) {
	for _, mode := range keyModes {
		for _, key := range sampleKeys() {
			if len(keyView(key)["pk"]) > 100 {
				continue // keep it fast
			}
			c := encodeCursor(mode.keys, binding("Q"), key)
			raw := rawCursor(t, c)
			for i := range raw {
				for d := 1; d < 256; d++ {
					b := slices.Clone(raw)
					b[i] ^= byte(d)
					bad := Cursor(base64.RawURLEncoding.EncodeToString(b))
					if got, err := decodeCursor(mode.keys, binding("Q"), bad); !errors.Is(err, ErrInvalidCursor) || got != nil {
						t.Fatalf("%s: key %s: byte %d of %d xor %#x: decodeCursor = %s, %v", mode.name, showKey(key), i, len(raw), d, showKey(got), err)
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
					got, err := decodeCursor(mode.keys, binding("Q"), bad)
					if err == nil {
						// A change of the last character's unused low bits
						// decodes to the same bytes; anything else must fail.
						if rb, derr := base64.RawURLEncoding.DecodeString(string(bad)); derr == nil && string(rb) == string(raw) {
							continue
						}
						t.Fatalf("%s: key %s: char %d %q -> %q: decodeCursor = %s, nil", mode.name, showKey(key), i, c[i], r, showKey(got))
					}
					if !errors.Is(err, ErrInvalidCursor) {
						t.Fatalf("char change: %v, want ErrInvalidCursor", err)
					}
				}
			}
		}
	}
}

func TestCursorTruncatedOrExtended(t *testing.T) {
	for _, mode := range keyModes {
		for _, key := range sampleKeys() {
			c := encodeCursor(mode.keys, binding("Q"), key)
			raw := rawCursor(t, c)
			dec := func(c Cursor) (map[string]types.AttributeValue, error) {
				return decodeCursor(mode.keys, binding("Q"), c)
			}
			for n := 1; n < len(c); n++ {
				if got, err := dec(c[:n]); !errors.Is(err, ErrInvalidCursor) || got != nil {
					t.Errorf("%s: decodeCursor(first %d of %d chars) = %s, %v", mode.name, n, len(c), showKey(got), err)
				}
			}
			for n := 1; n < len(raw); n++ { // n = 0 is the zero cursor
				bad := Cursor(base64.RawURLEncoding.EncodeToString(raw[:n]))
				if got, err := dec(bad); !errors.Is(err, ErrInvalidCursor) || got != nil {
					t.Errorf("%s: decodeCursor(first %d of %d bytes) = %s, %v", mode.name, n, len(raw), showKey(got), err)
				}
				// Dropping bytes from the front.
				bad = Cursor(base64.RawURLEncoding.EncodeToString(raw[n:]))
				if got, err := dec(bad); !errors.Is(err, ErrInvalidCursor) || got != nil {
					t.Errorf("%s: decodeCursor(last %d of %d bytes) = %s, %v", mode.name, len(raw)-n, len(raw), showKey(got), err)
				}
			}
			for _, extra := range []string{"A", "AA", "AAAA", "x", "="} {
				if got, err := dec(c + Cursor(extra)); !errors.Is(err, ErrInvalidCursor) || got != nil {
					t.Errorf("%s: decodeCursor(cursor + %q) = %s, %v", mode.name, extra, showKey(got), err)
				}
			}
			// The same bytes in another base64 alphabet or padded.
			for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding} {
				other := enc.EncodeToString(raw)
				if other == string(c) {
					continue
				}
				if got, err := dec(Cursor(other)); !errors.Is(err, ErrInvalidCursor) || got != nil {
					t.Errorf("%s: decodeCursor(%q, padded or std alphabet) = %s, %v", mode.name, other, showKey(got), err)
				}
			}
		}
	}
}

func TestCursorGarbage(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	garbage := []string{
		"x", "!!!!", "====", "A", "AAAA", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
		" ", "\x00", "\xff\xfe", "null", "{}", "cursor", "ééééééé", strings.Repeat("A", 10000),
		strings.Repeat("A", maxCursor+4),
		"Ag", "Aw", // just the format
	}
	for range 2000 {
		b := make([]byte, 1+r.IntN(80)) // not empty: that is the zero cursor
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		garbage = append(garbage, base64.RawURLEncoding.EncodeToString(b), string(b))
		// With a right format byte.
		b[0] = []byte{cursorChecked, cursorSealed}[r.IntN(2)]
		garbage = append(garbage, base64.RawURLEncoding.EncodeToString(b))
	}
	for _, mode := range keyModes {
		for _, g := range garbage {
			got, err := decodeCursor(mode.keys, binding("Q"), Cursor(g))
			if !errors.Is(err, ErrInvalidCursor) || got != nil {
				t.Errorf("%s: decodeCursor(%.60q) = %s, %v", mode.name, g, showKey(got), err)
			}
		}
	}
}

// sealCursor builds a cursor around body (the encoded key) with a right
// format and checksum, or seal with keys, so that the body's parsing is
// what is tested.
func sealCursor(keys *CursorKeys, bind *cursorBinding, body []byte) Cursor {
	var b []byte
	if keys == nil {
		b = append([]byte{cursorChecked}, body...)
		b = append(b, cursorSum(bind, b)...)
	} else {
		iv := keys.iv(bind, body)
		b = append([]byte{cursorSealed}, iv...)
		b = append(b, body...)
		keys.crypt(iv, b[1+cursorIVSize:])
	}
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
	// The parser behind a valid checksum or seal: well-formed bodies
	// decode, the others are refused, none panics.
	cat := func(parts ...[]byte) []byte { return slices.Concat(parts...) }
	good := cat([]byte{2}, entry("pk", 'S', "a"), entry("sk", 'N', "1"))
	for _, mode := range keyModes {
		if key, err := decodeCursor(mode.keys, binding("Q"), sealCursor(mode.keys, binding("Q"), good)); err != nil ||
			!maps.Equal(keyView(key), map[string]string{"pk": "Sa", "sk": "N1"}) {
			t.Fatalf("%s: sealed good body: %s, %v", mode.name, showKey(key), err)
		}
		for name, body := range map[string][]byte{
			"no count":           {},
			"zero attributes":    {0},
			"eleven attributes":  cat([]byte{11}, entry("a", 'S', "1"), entry("b", 'S', "1"), entry("c", 'S', "1"), entry("d", 'S', "1"), entry("e", 'S', "1"), entry("f", 'S', "1"), entry("g", 'S', "1"), entry("h", 'S', "1"), entry("i", 'S', "1"), entry("j", 'S', "1"), entry("k", 'S', "1")),
			"huge count":         cat(binary.AppendUvarint(nil, 1<<40), entry("a", 'S', "1")),
			"count above":        cat([]byte{2}, entry("pk", 'S', "a")),
			"count below":        cat([]byte{1}, entry("pk", 'S', "a"), entry("sk", 'S', "b")),
			"one name twice":     cat([]byte{2}, entry("pk", 'S', "a"), entry("pk", 'S', "b")),
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
			c := sealCursor(mode.keys, binding("Q"), body)
			got, err := decodeCursor(mode.keys, binding("Q"), c)
			if name == "zero attributes" {
				// An empty key is never encoded (it is the zero cursor); a
				// decoder may take it as "from the start" or refuse it, but it
				// must not return a non-empty key (nor the check of the start
				// key take it).
				if len(got) != 0 {
					t.Errorf("%s: %s: decodeCursor = %s, %v", mode.name, name, showKey(got), err)
				}
				continue
			}
			if !errors.Is(err, ErrInvalidCursor) || got != nil {
				t.Errorf("%s: %s: decodeCursor = %s, %v; want ErrInvalidCursor", mode.name, name, showKey(got), err)
			}
		}
		// The good body under the other mode's format byte.
		other := keyModes[0].keys
		if mode.keys == nil {
			other = keyModes[1].keys
		}
		if got, err := decodeCursor(mode.keys, binding("Q"), sealCursor(other, binding("Q"), good)); !errors.Is(err, ErrInvalidCursor) {
			t.Errorf("%s: a cursor of the other mode: %s, %v", mode.name, showKey(got), err)
		}
	}
}

func FuzzDecodeCursor(f *testing.F) {
	for _, key := range sampleKeys()[:8] {
		c := encodeCursor(nil, binding("Q"), key)
		raw, _ := base64.RawURLEncoding.DecodeString(string(c))
		f.Add("Q", false, string(c), raw[1:len(raw)-cursorSumSize])
		f.Add("Q", true, string(encodeCursor(keyModes[1].keys, binding("Q"), key)), raw[1:len(raw)-cursorSumSize])
	}
	f.Add("", false, "", []byte{})
	f.Add("Q", true, "!!", []byte{1, 0xff})
	f.Fuzz(func(t *testing.T, query string, keyed bool, c string, body []byte) {
		var keys *CursorKeys
		if keyed {
			keys = keyModes[1].keys
		}
		bind := binding(query)
		// Any text: no panic; an error is ErrInvalidCursor.
		check := func(c Cursor) {
			key, err := decodeCursor(keys, bind, c)
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
			c2 := encodeCursor(keys, bind, key)
			key2, err := decodeCursor(keys, bind, c2)
			if err != nil || !maps.Equal(keyView(key2), keyView(key)) {
				t.Fatalf("decodeCursor(%q) = %s, re-encoded %q decodes to %s, %v", c, showKey(key), c2, showKey(key2), err)
			}
			if len(key) > 0 && c2 == "" {
				t.Fatalf("decodeCursor(%q) = %s re-encodes to the zero cursor", c, showKey(key))
			}
			// The check of a start key takes any key without a panic, and
			// takes only keys of the query's attributes.
			for _, q := range []*queryKeys{
				ordersByDate("BETWEEN", avS("a"), avS("z")),
				ordersByDate("begins_with", avS("D"), nil),
				{pattern: "R", attrs: []StartAttr{{"pk", 'N', false}, {"sk", 'N', true}}, pk: "pk", sk: "sk", op: "<", pkValue: avN("1"), lo: avN("10")},
				{pattern: "B", attrs: []StartAttr{{"pk", 'B', false}}, pk: "pk", pkValue: avB(1)},
			} {
				if q.admits(key) {
					for _, a := range q.attrs {
						if _, ok := key[a.Name]; !ok || len(key) != len(q.attrs) {
							t.Fatalf("admits(%s) for attributes %v", showKey(key), q.attrs)
						}
					}
				}
			}
			// Another query's binding refuses it.
			if key, err := decodeCursor(keys, binding(query+"x"), c); err == nil {
				t.Fatalf("decodeCursor(%q) for another query = %s", c, showKey(key))
			}
		}
		check(Cursor(c))
		// The body behind a right checksum or seal, to reach the parser.
		check(sealCursor(keys, bind, body))
	})
}

// ordersByDate is the start key check of a query on index GSI1 (GSI1PK,
// GSI1SK) of a table keyed by PK and SK, in partition USER#alice.
func ordersByDate(op string, lo, hi types.AttributeValue) *queryKeys {
	return &queryKeys{
		pattern: "OrdersByDate",
		attrs:   []StartAttr{{"GSI1PK", 'S', false}, {"GSI1SK", 'S', true}, {"PK", 'S', false}, {"SK", 'S', true}},
		pk:      "GSI1PK", sk: "GSI1SK", op: op,
		pkValue: avS("USER#alice"), lo: lo, hi: hi,
	}
}

// startKey is a start key of ordersByDate with sort key value sk.
func startKey(sk types.AttributeValue) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{"GSI1PK": avS("USER#alice"), "GSI1SK": sk, "PK": avS("ORDER#1"), "SK": avS("ORDER#1")}
}

func TestStartKeyAdmitted(t *testing.T) {
	with := func(k map[string]types.AttributeValue, name string, v types.AttributeValue) map[string]types.AttributeValue {
		k = maps.Clone(k)
		if v == nil {
			delete(k, name)
		} else {
			k[name] = v
		}
		return k
	}
	date := avS("DATE#2024-05-01")
	for _, tt := range []struct {
		what string
		q    *queryKeys
		key  map[string]types.AttributeValue
		want bool
	}{
		{"inside begins_with", ordersByDate("begins_with", avS("DATE#2024"), nil), startKey(date), true},
		{"the prefix itself", ordersByDate("begins_with", avS("DATE#2024"), nil), startKey(avS("DATE#2024")), true},
		{"outside begins_with", ordersByDate("begins_with", avS("DATE#2024"), nil), startKey(avS("DATE#2023-12-31")), false},
		{"shorter than the prefix", ordersByDate("begins_with", avS("DATE#2024"), nil), startKey(avS("DATE#")), false},
		{"inside between", ordersByDate("BETWEEN", avS("DATE#2024-01"), avS("DATE#2024-06")), startKey(date), true},
		{"on the low bound", ordersByDate("BETWEEN", avS("DATE#2024-05-01"), avS("DATE#2024-06")), startKey(date), true},
		{"on the high bound", ordersByDate("BETWEEN", avS("DATE#2024-01"), avS("DATE#2024-05-01")), startKey(date), true},
		{"below between", ordersByDate("BETWEEN", avS("DATE#2024-06"), avS("DATE#2024-07")), startKey(date), false},
		{"above between", ordersByDate("BETWEEN", avS("DATE#2024-01"), avS("DATE#2024-02")), startKey(date), false},
		{"equal", ordersByDate("=", date, nil), startKey(date), true},
		{"not equal", ordersByDate("=", date, nil), startKey(avS("DATE#2024-05-02")), false},
		{"below <", ordersByDate("<", avS("DATE#2025"), nil), startKey(date), true},
		{"at <", ordersByDate("<", date, nil), startKey(date), false},
		{"at <=", ordersByDate("<=", date, nil), startKey(date), true},
		{"above <=", ordersByDate("<=", avS("DATE#2024"), nil), startKey(date), false},
		{"above >", ordersByDate(">", avS("DATE#2024"), nil), startKey(date), true},
		{"at >", ordersByDate(">", date, nil), startKey(date), false},
		{"at >=", ordersByDate(">=", date, nil), startKey(date), true},
		{"below >=", ordersByDate(">=", avS("DATE#2025"), nil), startKey(date), false},
		{"the whole partition", ordersByDate("", nil, nil), startKey(avS("anything")), true},
		{"another partition", ordersByDate("", nil, nil), with(startKey(date), "GSI1PK", avS("USER#bob")), false},
		{"the partition's text as B", ordersByDate("", nil, nil), with(startKey(date), "GSI1PK", avB([]byte("USER#alice")...)), false},
		{"missing the index's sort key", ordersByDate("", nil, nil), with(startKey(date), "GSI1SK", nil), false},
		{"missing the index's partition key", ordersByDate("", nil, nil), with(startKey(date), "GSI1PK", nil), false},
		{"missing the table's sort key", ordersByDate("", nil, nil), with(startKey(date), "SK", nil), false},
		{"missing the table's partition key", ordersByDate("", nil, nil), with(startKey(date), "PK", nil), false},
		{"an extra attribute", ordersByDate("", nil, nil), with(startKey(date), "GSI2PK", avS("x")), false},
		{"another name instead", ordersByDate("", nil, nil), with(with(startKey(date), "SK", nil), "sk", avS("ORDER#1")), false},
		{"the sort key of another type", ordersByDate("", nil, nil), startKey(avN("1")), false},
		{"the table's key of another type", ordersByDate("", nil, nil), with(startKey(date), "PK", avB(1)), false},
		{"a BOOL", ordersByDate("", nil, nil), with(startKey(date), "PK", &types.AttributeValueMemberBOOL{Value: true}), false},
		{"a nil value", ordersByDate("", nil, nil), with(startKey(date), "PK", types.AttributeValue(nil)), false},
		{"an empty string", ordersByDate("", nil, nil), with(startKey(date), "PK", avS("")), false},
		{"not UTF-8", ordersByDate("", nil, nil), with(startKey(date), "PK", avS("\xff")), false},
		{"a table sort key too long", ordersByDate("", nil, nil), with(startKey(date), "SK", avS(strings.Repeat("x", 1025))), false},
		{"a table sort key the longest", ordersByDate("", nil, nil), with(startKey(date), "SK", avS(strings.Repeat("x", 1024))), true},
		{"a table partition key the longest", ordersByDate("", nil, nil), with(startKey(date), "PK", avS(strings.Repeat("x", 2048))), true},
		{"a table partition key too long", ordersByDate("", nil, nil), with(startKey(date), "PK", avS(strings.Repeat("x", 2049))), false},
		{"an empty key", ordersByDate("", nil, nil), map[string]types.AttributeValue{}, false},
		{"no key", ordersByDate("", nil, nil), nil, false},
		{"an unknown operator", ordersByDate("<>", date, nil), startKey(date), false},
	} {
		if got := tt.q.admits(tt.key); got != tt.want {
			t.Errorf("%s: admits(%s) = %v, want %v", tt.what, showKey(tt.key), got, tt.want)
		}
	}
	// A multi-attribute key: every attribute bound with equality, then
	// the range on the next one.
	multi := func(op string, lo types.AttributeValue) *queryKeys {
		return &queryKeys{pattern: "M", attrs: []StartAttr{{"t", 'S', false}, {"r", 'S', false}, {"_type", 'S', true}, {"score", 'N', true}, {"PK", 'S', false}, {"SK", 'S', true}},
			equal: []keyEqual{{"t", avS("t1")}, {"r", avS("eu")}, {"_type", avS("Match")}}, sk: "score", op: op, lo: lo}
	}
	mk := func(t, r, typ, score string) map[string]types.AttributeValue {
		return map[string]types.AttributeValue{"t": avS(t), "r": avS(r), "_type": avS(typ), "score": avN(score), "PK": avS("MATCH#1"), "SK": avS("MATCH")}
	}
	for _, tt := range []struct {
		what string
		q    *queryKeys
		key  map[string]types.AttributeValue
		want bool
	}{
		{"multi: all bound", multi("", nil), mk("t1", "eu", "Match", "3"), true},
		{"multi: another first attribute", multi("", nil), mk("t2", "eu", "Match", "3"), false},
		{"multi: another second attribute", multi("", nil), mk("t1", "us", "Match", "3"), false},
		{"multi: another entity", multi("", nil), mk("t1", "eu", "Team", "3"), false},
		{"multi: in range", multi(">", avN("2")), mk("t1", "eu", "Match", "3"), true},
		{"multi: out of range", multi(">", avN("3")), mk("t1", "eu", "Match", "3"), false},
		{"multi: in range, another partition", multi(">", avN("2")), mk("t1", "us", "Match", "3"), false},
	} {
		if got := tt.q.admits(tt.key); got != tt.want {
			t.Errorf("%s: admits(%s) = %v, want %v", tt.what, showKey(tt.key), got, tt.want)
		}
	}
	// Natural keys of type N and B: numbers by value, binary by bytes.
	readings := func(op string, lo, hi types.AttributeValue) *queryKeys {
		return &queryKeys{pattern: "R", attrs: []StartAttr{{"deviceId", 'N', false}, {"seq", 'N', true}}, pk: "deviceId", sk: "seq", op: op, pkValue: avN("7"), lo: lo, hi: hi}
	}
	rk := func(pk, seq string) map[string]types.AttributeValue {
		return map[string]types.AttributeValue{"deviceId": avN(pk), "seq": avN(seq)}
	}
	blobs := func(op string, lo types.AttributeValue) *queryKeys {
		return &queryKeys{pattern: "B", attrs: []StartAttr{{"id", 'B', false}, {"part", 'B', true}}, pk: "id", sk: "part", op: op, pkValue: avB(1), lo: lo}
	}
	bk := func(part ...byte) map[string]types.AttributeValue {
		return map[string]types.AttributeValue{"id": avB(1), "part": avB(part...)}
	}
	for _, tt := range []struct {
		what string
		q    *queryKeys
		key  map[string]types.AttributeValue
		want bool
	}{
		{"N in range", readings("BETWEEN", avN("2"), avN("10")), rk("7", "9"), true},
		{"N by value, not text", readings("BETWEEN", avN("2"), avN("10")), rk("7", "100"), false},
		{"N below", readings(">=", avN("-5"), nil), rk("7", "-6"), false},
		{"N partition by value", readings("", nil, nil), rk("7.0", "1"), true},
		{"N another partition", readings("", nil, nil), rk("8", "1"), false},
		{"N not a number", readings("", nil, nil), rk("7", "1x"), false},
		{"N empty", readings("", nil, nil), rk("7", ""), false},
		{"N a fraction", readings("", nil, nil), rk("7", "1/2"), false},
		{"N hexadecimal", readings("", nil, nil), rk("7", "0x10"), false},
		{"N 39 digits", readings("", nil, nil), rk("7", strings.Repeat("1", 39)), false},
		{"N 38 digits", readings("", nil, nil), rk("7", strings.Repeat("1", 38)), true},
		{"N with exponent", readings("<", avN("1e3"), nil), rk("7", "1.5E+2"), true},
		{"N negative zero", readings("=", avN("0"), nil), rk("7", "-0"), true},
		{"N partition with exponent", readings("", nil, nil), rk("0.7e1", "1"), true},
		{"N 38 digits by value", readings(">", avN("12345678901234567890123456789012345677"), nil), rk("7", "1.2345678901234567890123456789012345678e37"), true},
		{"N the least", readings(">", avN("0"), nil), rk("7", "1e-130"), true},
		{"N the greatest", readings(">", avN("0"), nil), rk("7", "9.9999999999999999999999999999999999999E+125"), true},
		{"N above the greatest", readings(">", avN("0"), nil), rk("7", "1e126"), false},
		{"N far above the greatest", readings(">", avN("0"), nil), rk("7", "1e200"), false},
		{"N below the least", readings("<", avN("1"), nil), rk("7", "1e-131"), false},
		{"N partition above the greatest", readings("", nil, nil), rk("1e200", "1"), false},
		{"N bound above the greatest", readings("<", avN("1e200"), nil), rk("7", "1"), false},
		{"B begins_with", blobs("begins_with", avB(1, 2)), bk(1, 2, 3), true},
		{"B outside begins_with", blobs("begins_with", avB(1, 2)), bk(1, 3), false},
		{"B empty", blobs("", nil), bk(), false},
		{"B ordered by bytes", blobs(">", avB(0x7f)), bk(0x80), true},
		{"B against an S prefix", blobs("begins_with", avS("\x01")), bk(1, 2), false},
	} {
		if got := tt.q.admits(tt.key); got != tt.want {
			t.Errorf("%s: admits(%s) = %v, want %v", tt.what, showKey(tt.key), got, tt.want)
		}
	}
}

func TestCursorStart(t *testing.T) {
	values := func() map[string]types.AttributeValue {
		return map[string]types.AttributeValue{":pk": avS("USER#alice"), ":sk": avS("DATE#2024")}
	}
	q := func(in *dynamodb.QueryInput) *queryShape {
		k := ordersByDate("begins_with", nil, nil)
		k.pkValue = nil
		return &queryShape{keys: *k, pkValue: ":pk", lo: ":sk"}
	}
	newInput := func() *dynamodb.QueryInput { return queryIn("Orders", "GSI1", values()) }
	for _, mode := range keyModes {
		// The first page: no start key; its Next continues.
		in := newInput()
		scope, err := cursorStart(mode.keys, "", in, q(in))
		if err != nil || in.ExclusiveStartKey != nil || scope.bound {
			t.Fatalf("%s: first page: %v, start %s, bound at once %v", mode.name, err, showKey(in.ExclusiveStartKey), scope.bound)
		}
		// The client may change what it is given: the next cursor is
		// bound to the request as the method built it.
		in.ExpressionAttributeValues[":pk"].(*types.AttributeValueMemberS).Value = "USER#bob"
		*in.TableName = "Other"
		last := startKey(avS("DATE#2024-05-01"))
		if c := cursorNext(&scope, nil, newInput); c != "" || scope.bound {
			t.Errorf("%s: cursorNext(none) = %q, bound %v", mode.name, c, scope.bound)
		}
		next := cursorNext(&scope, last, newInput)
		if next == "" {
			t.Fatalf("%s: no cursor after a page with a LastEvaluatedKey", mode.name)
		}
		if again := cursorNext(&scope, last, func() *dynamodb.QueryInput { panic("built again") }); again != next {
			t.Errorf("%s: a second cursor of the page differs", mode.name)
		}
		in2 := newInput()
		if _, err := cursorStart(mode.keys, next, in2, q(in2)); err != nil || !maps.Equal(keyView(in2.ExclusiveStartKey), keyView(last)) {
			t.Errorf("%s: the next page: %v, start %s", mode.name, err, showKey(in2.ExclusiveStartKey))
		}
		// Refused, and no start key set: another partition, a forged key.
		in3 := queryIn("Orders", "GSI1", map[string]types.AttributeValue{":pk": avS("USER#bob"), ":sk": avS("DATE#2024")})
		if _, err := cursorStart(mode.keys, next, in3, q(in3)); !errors.Is(err, ErrInvalidCursor) || in3.ExclusiveStartKey != nil {
			t.Errorf("%s: a cursor of another partition: %v, start %s", mode.name, err, showKey(in3.ExclusiveStartKey))
		}
		// A key outside the range, in a cursor of this very query
		// (as a caller who knows the format can build one unsigned).
		in4 := queryIn("Orders", "GSI1", values())
		forged := encodeCursor(mode.keys, new(bindQuery("OrdersByDate", "", in4)), startKey(avS("DATE#2023")))
		if _, err := cursorStart(mode.keys, forged, in4, q(in4)); !errors.Is(err, ErrInvalidCursor) || in4.ExclusiveStartKey != nil {
			t.Errorf("%s: a key outside the range: %v, start %s", mode.name, err, showKey(in4.ExclusiveStartKey))
		}
		if _, err := cursorStart(mode.keys, "!!", in4, q(in4)); !errors.Is(err, ErrInvalidCursor) || in4.ExclusiveStartKey != nil {
			t.Errorf("%s: a damaged cursor: %v", mode.name, err)
		}
	}
}

// A cursor of a query of number keys: a key out of DynamoDB's range is
// refused before any call, whether or not it is inside the query's
// bounds, and a number is sent as DynamoDB writes it, whatever the text
// the cursor holds.
func TestCursorStartNumbers(t *testing.T) {
	shape := &queryShape{
		keys:    queryKeys{pattern: "GaugesFrom", attrs: []StartAttr{{"zone", 'N', false}, {"level", 'N', true}}, pk: "zone", sk: "level", op: ">="},
		pkValue: ":pk", lo: ":sk",
	}
	newInput := func() *dynamodb.QueryInput {
		return queryIn("Gauges", "", map[string]types.AttributeValue{":pk": avN("1000000"), ":sk": avN("-1e5")})
	}
	key := func(zone, level string) map[string]types.AttributeValue {
		return map[string]types.AttributeValue{"zone": avN(zone), "level": avN(level)}
	}
	for _, mode := range keyModes {
		for _, tt := range []struct {
			zone, level string
			want        map[string]string // nil: refused
		}{
			{"1e+06", "1E200", nil},
			{"1e+06", "-1e200", nil},
			{"1e+06", "1e126", nil},
			{"1e+06", "1e-131", nil},
			{"1e+06", "123456789012345678901234567890123456789", nil},
			{"1e200", "1", nil},
			{"1e+06", "-0", map[string]string{"zone": "N1000000", "level": "N0"}},
			{"1000000.0", "1.50E+2", map[string]string{"zone": "N1000000", "level": "N150"}},
			{"1e6", "9.9999999999999999999999999999999999999e125", map[string]string{"zone": "N1000000", "level": "N" + greatest}},
			{"1e6", "-1e-130", map[string]string{"zone": "N1000000", "level": "N-" + least}},
		} {
			in := newInput()
			c := encodeCursor(mode.keys, new(bindQuery("GaugesFrom", "", in)), key(tt.zone, tt.level))
			_, err := cursorStart(mode.keys, c, in, shape)
			if tt.want == nil {
				if !errors.Is(err, ErrInvalidCursor) || in.ExclusiveStartKey != nil {
					t.Errorf("%s: a cursor at %s, %s: %v, start %s; want ErrInvalidCursor", mode.name, tt.zone, tt.level, err, showKey(in.ExclusiveStartKey))
				}
				continue
			}
			if err != nil || !maps.Equal(rawView(in.ExclusiveStartKey), tt.want) {
				t.Errorf("%s: a cursor at %s, %s: %v, start %v; want %v", mode.name, tt.zone, tt.level, err, rawView(in.ExclusiveStartKey), tt.want)
			}
		}
	}
}

// rawView is a key's values as they are sent: type letter + text.
func rawView(k map[string]types.AttributeValue) map[string]string {
	out := map[string]string{}
	for n, av := range k {
		if v, ok := av.(*types.AttributeValueMemberN); ok {
			out[n] = "N" + v.Value
		} else {
			out[n] = "?"
		}
	}
	return out
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
		{S("ORDER#" + HighChar), S("ORDER#zz"), true},
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
	// Keys as KeyInt and KeyTime write them: empty exactly when lo > hi.
	ns := intBoundaries()
	for _, a := range ns {
		for _, b := range ns[:10] {
			if got := emptyRange(S(KeyInt(a)), S(KeyInt(b))); got != (a > b) {
				t.Errorf("emptyRange(keyInt(%d), keyInt(%d)) = %v", a, b, got)
			}
		}
	}
}

// TestBindQueryClock: a query that leaves expired items out sends the
// Store clock's now, which changes from page to page: its cursors are
// bound to the placeholder, not to the value, and still to every other
// value.
func TestBindQueryClock(t *testing.T) {
	in := func(now, pk string) *dynamodb.QueryInput {
		return queryIn("T", "", map[string]types.AttributeValue{":pk": avS(pk), ":now": &types.AttributeValueMemberN{Value: now}})
	}
	base := bindQuery("P", ":now", in("100", "a"))
	if later := bindQuery("P", ":now", in("200", "a")); later != base {
		t.Errorf("another now binds otherwise")
	}
	if other := bindQuery("P", ":now", in("100", "b")); other == base {
		t.Errorf("another partition binds alike")
	}
	if unbound := bindQuery("P", "", in("100", "a")); unbound == base {
		t.Errorf("the clock's value binds like its placeholder")
	}
}

package runtime

import (
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// DynamoDB's key size limits, in bytes.
const (
	MaxPartitionKey = 2048
	MaxSortKey      = 1024
)

// KeyString checks a string placed in a key template whose separator
// characters are seps: it must be non-empty valid UTF-8 and hold none of
// them, so that no value can produce the key of another item.
func KeyString(attr, v, seps string) (string, error) {
	switch {
	case v == "":
		return "", &KeyError{Attr: attr, Value: v, Reason: "empty"}
	case !utf8.ValidString(v):
		return "", &KeyError{Attr: attr, Value: v, Reason: "not valid UTF-8"}
	}
	if strings.ContainsRune(v, maxRune) {
		// HighChar bounds key ranges from above: no key value may hold it.
		return "", &KeyError{Attr: attr, Value: v, Reason: "holds U+10FFFF, which keys reserve"}
	}
	if i := strings.IndexAny(v, seps); i >= 0 {
		r, _ := utf8.DecodeRuneInString(v[i:])
		return "", &KeyError{Attr: attr, Value: v, Reason: "holds " + strconv.QuoteRune(r) + ", a separator of its key"}
	}
	return v, nil
}

// KeyStringOrEmpty is KeyString for a placeholder that may also hold the
// empty string: an optional string's present "" in a key template with
// literal text, whose key is then never empty.
func KeyStringOrEmpty(attr, v, seps string) (string, error) {
	if v == "" {
		return "", nil
	}
	return KeyString(attr, v, seps)
}

// KeyEnum checks an enum value placed in a key template whose separator
// characters are seps: it must be one of the enum's values (valid, as
// its Valid method says). The collision check counts only those values:
// another value could make the key of another entity's item.
func KeyEnum(attr, v string, valid bool, seps string) (string, error) {
	switch {
	case v == "":
		return "", &KeyError{Attr: attr, Value: v, Reason: "empty"}
	case !valid:
		return "", &KeyError{Attr: attr, Value: v, Reason: "not one of its enum values"}
	}
	return KeyString(attr, v, seps)
}

// KeyPath joins the elements of a hierarchy with sep; each element is
// checked like a string of the key.
func KeyPath(attr string, p []string, sep, seps string) (string, error) {
	if len(p) == 0 {
		return "", &KeyError{Attr: attr, Reason: "an empty path"}
	}
	n := len(sep) * (len(p) - 1)
	for _, e := range p {
		if _, err := KeyString(attr, e, seps); err != nil {
			return "", err
		}
		n += len(e)
	}
	var b strings.Builder
	b.Grow(n)
	for i, e := range p {
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(e)
	}
	return b.String(), nil
}

// KeyInt writes n so that the text order is the numeric order: n >= 0 as
// 19 zero-padded digits, n < 0 as "-" and the 19 digits of n - MinInt64
// ("-" sorts before every digit).
func KeyInt(n int64) string {
	var b [20]byte
	u := uint64(n)
	if n < 0 {
		u ^= 1 << 63 // n - MinInt64, as an unsigned number
	}
	i := len(b)
	for range 19 {
		i--
		b[i] = byte('0' + u%10)
		u /= 10
	}
	if n < 0 {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}

// parseKeyInt reverses KeyInt.
func parseKeyInt(s string) (int64, bool) {
	neg := strings.HasPrefix(s, "-")
	body := strings.TrimPrefix(s, "-")
	if len(body) != 19 {
		return 0, false
	}
	var u uint64
	for i := range len(body) {
		c := body[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		next := u*10 + uint64(c-'0')
		if next < u {
			return 0, false
		}
		u = next
	}
	if u >= 1<<63 {
		return 0, false
	}
	if neg {
		return int64(u ^ 1<<63), true
	}
	return int64(u), true
}

// timeLayout is how a time is stored: UTC, nine fraction digits, so that
// the text order is the time order.
const timeLayout = "2006-01-02T15:04:05.000000000Z"

// FormatTime writes t in timeLayout.
func FormatTime(t time.Time) string {
	u := t.UTC()
	if y := u.Year(); y < 0 || y > 9999 {
		// No fixed-width form; the stored value only (keys refuse it).
		return u.Format(timeLayout)
	}
	var b [len(timeLayout)]byte
	return string(appendTime(b[:0], u))
}

// appendTime appends u (UTC, years 0000-9999) in timeLayout, without
// parsing the layout.
func appendTime(b []byte, u time.Time) []byte {
	var d [len(timeLayout)]byte
	y, mo, day := u.Date()
	h, mi, sec := u.Clock()
	putDigits(d[0:4], y)
	d[4] = '-'
	putDigits(d[5:7], int(mo))
	d[7] = '-'
	putDigits(d[8:10], day)
	d[10] = 'T'
	putDigits(d[11:13], h)
	d[13] = ':'
	putDigits(d[14:16], mi)
	d[16] = ':'
	putDigits(d[17:19], sec)
	d[19] = '.'
	putDigits(d[20:29], u.Nanosecond())
	d[29] = 'Z'
	return append(b, d[:]...)
}

// AppendKeyTime appends t to a key's text, refusing years outside
// 0000-9999 as KeyTime does.
func AppendKeyTime(b []byte, attr string, t time.Time) ([]byte, error) {
	u := t.UTC()
	if y := u.Year(); y < 0 || y > 9999 {
		return b, &KeyError{Attr: attr, Value: t.String(), Reason: "year outside 0000-9999"}
	}
	return appendTime(b, u), nil
}

// putDigits writes v as len(b) decimal digits, zero-padded.
func putDigits(b []byte, v int) {
	for i := len(b) - 1; i >= 0; i-- {
		b[i] = byte('0' + v%10)
		v /= 10
	}
}

// KeyTime writes t for a key: years outside 0000-9999 have no fixed-width
// form and are refused.
func KeyTime(attr string, t time.Time) (string, error) {
	if y := t.UTC().Year(); y < 0 || y > 9999 {
		return "", &KeyError{Attr: attr, Value: t.String(), Reason: "year outside 0000-9999"}
	}
	return FormatTime(t), nil
}

// FormatDate writes the calendar date of t (in its own location).
func FormatDate(t time.Time) string {
	var b [10]byte
	return string(t.AppendFormat(b[:0], time.DateOnly))
}

// KeyDate writes t's date for a key, years 0000-9999.
func KeyDate(attr string, t time.Time) (string, error) {
	if y := t.Year(); y < 0 || y > 9999 {
		return "", &KeyError{Attr: attr, Value: t.String(), Reason: "year outside 0000-9999"}
	}
	return FormatDate(t), nil
}

// KeyBool writes a bool for a key.
func KeyBool(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// KeySize refuses a key over DynamoDB's limit for its attribute.
func KeySize(attr, key string, limit int) (string, error) {
	if len(key) > limit {
		return "", &KeyError{Attr: attr, Value: key, Reason: "the key is " + strconv.Itoa(len(key)) + " bytes, over DynamoDB's " + strconv.Itoa(limit)}
	}
	return key, nil
}

// KeyPrefix checks the start of a string value for a begins_with on a key:
// it may be empty, but holds none of the key's separators.
func KeyPrefix(attr, v, seps string) (string, error) {
	if v == "" {
		return "", nil
	}
	return KeyString(attr, v, seps)
}

// KeyEnumPrefix checks the start of an enum value for a begins_with on a
// key: it may be empty, but otherwise starts one of values, the enum's
// values (a prefix that starts none can only match other items' keys).
func KeyEnumPrefix(attr, v, seps string, values ...string) (string, error) {
	if v == "" {
		return "", nil
	}
	for _, value := range values {
		if strings.HasPrefix(value, v) {
			return KeyString(attr, v, seps)
		}
	}
	return "", &KeyError{Attr: attr, Value: v, Reason: "starts none of its enum values"}
}

// maxRune is the greatest code point; no string value of a key holds it.
const maxRune = '\U0010FFFF'

// HighChar, appended to a bound, puts it above every key that starts
// with the bound's text, since no key value holds it.
const HighChar = string(maxRune)

// StoredInt turns an int of a key back into the number it is stored as
// (for attributes read back from keys); text that is no int of a key
// gives a string, which the decoding of the int attribute refuses.
func StoredInt(key string) types.AttributeValue {
	n, ok := parseKeyInt(key)
	if !ok {
		// No int of a key: a string, which no int attribute decodes.
		return &types.AttributeValueMemberS{Value: key}
	}
	return &types.AttributeValueMemberN{Value: strconv.FormatInt(n, 10)}
}

// KeyCheck keeps the first error of the key encodings of one item, or of
// one key: each method is the function of its name, which returns the
// text and keeps the error, so that the generated code checks once, when
// the keys are built (Done, Sized), rather than after each value.
type KeyCheck struct {
	// Err is the first error of the encodings, nil for none.
	Err error
}

// keep keeps err when it is the first.
func (k *KeyCheck) keep(err error) {
	if k.Err == nil {
		k.Err = err
	}
}

// text is s, keeping err.
func (k *KeyCheck) text(s string, err error) string {
	k.keep(err)
	return s
}

// KeyString is KeyString, keeping its error.
func (k *KeyCheck) KeyString(attr, v, seps string) string { return k.text(KeyString(attr, v, seps)) }

// KeyStringOrEmpty is KeyStringOrEmpty, keeping its error.
func (k *KeyCheck) KeyStringOrEmpty(attr, v, seps string) string {
	return k.text(KeyStringOrEmpty(attr, v, seps))
}

// KeyEnum is KeyEnum, keeping its error.
func (k *KeyCheck) KeyEnum(attr, v string, valid bool, seps string) string {
	return k.text(KeyEnum(attr, v, valid, seps))
}

// KeyPath is KeyPath, keeping its error.
func (k *KeyCheck) KeyPath(attr string, p []string, sep, seps string) string {
	return k.text(KeyPath(attr, p, sep, seps))
}

// KeyTime is KeyTime, keeping its error.
func (k *KeyCheck) KeyTime(attr string, t time.Time) string { return k.text(KeyTime(attr, t)) }

// KeyDate is KeyDate, keeping its error.
func (k *KeyCheck) KeyDate(attr string, t time.Time) string { return k.text(KeyDate(attr, t)) }

// KeyFloat is KeyFloat, keeping its error.
func (k *KeyCheck) KeyFloat(attr string, f float64) string { return k.text(KeyFloat(attr, f)) }

// KeySize is KeySize, keeping its error.
func (k *KeyCheck) KeySize(attr, key string, limit int) string {
	return k.text(KeySize(attr, key, limit))
}

// AppendKeyTime is AppendKeyTime, keeping its error.
func (k *KeyCheck) AppendKeyTime(b []byte, attr string, t time.Time) []byte {
	b, err := AppendKeyTime(b, attr, t)
	k.keep(err)
	return b
}

// Done is key, or the first error of the encodings.
func (k *KeyCheck) Done(key string) (string, error) {
	if k.Err != nil {
		return "", k.Err
	}
	return key, nil
}

// Sized is key after KeySize's check, or the first error of the
// encodings.
func (k *KeyCheck) Sized(attr, key string, limit int) (string, error) {
	if k.Err != nil {
		return "", k.Err
	}
	return KeySize(attr, key, limit)
}

// Key is s, keeping err: the result of a key builder, in a call's
// arguments.
func (k *KeyCheck) Key(s string, err error) string { return k.text(s, err) }

package runtime

import (
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// The readers decode one attribute value of an item; entity and attr name
// the attribute in errors, which never hold the value. A value of another
// DynamoDB type is an error: the item does not hold what the spec says it
// holds.

func wrongType(entity, attr, want string) error {
	return &ItemError{Entity: entity, Attr: attr, Reason: "not stored as " + want}
}

func readString(entity, attr string, av types.AttributeValue) (string, error) {
	v, ok := av.(*types.AttributeValueMemberS)
	if !ok {
		return "", wrongType(entity, attr, "S")
	}
	return v.Value, nil
}

func readInt(entity, attr string, av types.AttributeValue) (int64, error) {
	v, ok := av.(*types.AttributeValueMemberN)
	if !ok {
		return 0, wrongType(entity, attr, "N")
	}
	n, err := strconv.ParseInt(v.Value, 10, 64)
	if err != nil {
		return 0, &ItemError{Entity: entity, Attr: attr, Reason: "not an int64"}
	}
	return n, nil
}

func readFloat(entity, attr string, av types.AttributeValue) (float64, error) {
	v, ok := av.(*types.AttributeValueMemberN)
	if !ok {
		return 0, wrongType(entity, attr, "N")
	}
	f, err := strconv.ParseFloat(v.Value, 64)
	if err != nil {
		return 0, &ItemError{Entity: entity, Attr: attr, Reason: "not a float64"}
	}
	return f, nil
}

func readBool(entity, attr string, av types.AttributeValue) (bool, error) {
	v, ok := av.(*types.AttributeValueMemberBOOL)
	if !ok {
		return false, wrongType(entity, attr, "BOOL")
	}
	return v.Value, nil
}

// readTime accepts any RFC 3339 time; dyngen writes timeLayout.
func readTime(entity, attr string, av types.AttributeValue) (time.Time, error) {
	s, err := readString(entity, attr, av)
	if err != nil {
		return time.Time{}, err
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, &ItemError{Entity: entity, Attr: attr, Reason: "not an RFC 3339 time"}
	}
	return t, nil
}

func readDate(entity, attr string, av types.AttributeValue) (time.Time, error) {
	s, err := readString(entity, attr, av)
	if err != nil {
		return time.Time{}, err
	}
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return time.Time{}, &ItemError{Entity: entity, Attr: attr, Reason: "not a date YYYY-MM-DD"}
	}
	return t, nil
}

func readUnix(entity, attr string, av types.AttributeValue) (time.Time, error) {
	n, err := readInt(entity, attr, av)
	return time.Unix(n, 0).UTC(), err
}

func readUnixMilli(entity, attr string, av types.AttributeValue) (time.Time, error) {
	n, err := readInt(entity, attr, av)
	return time.UnixMilli(n).UTC(), err
}

func readBytes(entity, attr string, av types.AttributeValue) ([]byte, error) {
	v, ok := av.(*types.AttributeValueMemberB)
	if !ok {
		return nil, wrongType(entity, attr, "B")
	}
	return v.Value, nil
}

func readStrings(entity, attr string, av types.AttributeValue) ([]string, error) {
	v, ok := av.(*types.AttributeValueMemberL)
	if !ok {
		return nil, wrongType(entity, attr, "L")
	}
	out := make([]string, len(v.Value))
	for i, e := range v.Value {
		s, ok := e.(*types.AttributeValueMemberS)
		if !ok {
			return nil, wrongType(entity, attr, "a list of S")
		}
		out[i] = s.Value
	}
	return out, nil
}

func readStringSet(entity, attr string, av types.AttributeValue) ([]string, error) {
	v, ok := av.(*types.AttributeValueMemberSS)
	if !ok {
		return nil, wrongType(entity, attr, "SS")
	}
	return v.Value, nil
}

func readIntSet(entity, attr string, av types.AttributeValue) ([]int64, error) {
	v, ok := av.(*types.AttributeValueMemberNS)
	if !ok {
		return nil, wrongType(entity, attr, "NS")
	}
	out := make([]int64, len(v.Value))
	for i, s := range v.Value {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return nil, &ItemError{Entity: entity, Attr: attr, Reason: "an element is not an int64"}
		}
		out[i] = n
	}
	return out, nil
}

func readMap(entity, attr string, av types.AttributeValue) (map[string]string, error) {
	v, ok := av.(*types.AttributeValueMemberM)
	if !ok {
		return nil, wrongType(entity, attr, "M")
	}
	out := make(map[string]string, len(v.Value))
	for k, e := range v.Value {
		s, ok := e.(*types.AttributeValueMemberS)
		if !ok {
			return nil, wrongType(entity, attr, "a map of S")
		}
		out[k] = s.Value
	}
	return out, nil
}

func readPath(entity, attr string, av types.AttributeValue, sep string) ([]string, error) {
	s, err := readString(entity, attr, av)
	if err != nil {
		return nil, err
	}
	if s == "" {
		return nil, nil // the empty path: no element is empty
	}
	return strings.Split(s, sep), nil
}

// missing is the error of a required attribute an item lacks.
func missing(entity, attr string) error {
	return &ItemError{Entity: entity, Attr: attr, Reason: "missing"}
}

// itemDecoder decodes the attributes of one item of entity, one call per
// attribute: each method returns the Go value of av, the attribute's value
// (nil when the item lacks it), or the zero value when av is nil or can't
// be decoded. It keeps the first error, so a decoder reads every
// attribute and then checks err once.
type itemDecoder struct {
	entity string
	err    error
}

// presence says whether an item must hold an attribute: a required
// attribute the item lacks is an ItemError, an optional one the item
// lacks, or holds as NULL, is the zero value.
type presence bool

const (
	required presence = true
	optional presence = false
)

// isNull reports whether av is DynamoDB's NULL.
func isNull(av types.AttributeValue) bool {
	_, ok := av.(*types.AttributeValueMemberNULL)
	return ok
}

// decode reads av with read, the reader of the attribute's type.
func decode[T any](d *itemDecoder, attr string, av types.AttributeValue, p presence, read func(entity, attr string, av types.AttributeValue) (T, error)) T {
	var zero T
	if av == nil || p == optional && isNull(av) {
		if p == required && d.err == nil {
			d.err = missing(d.entity, attr)
		}
		return zero
	}
	v, err := read(d.entity, attr, av)
	if err != nil {
		if d.err == nil {
			d.err = err
		}
		return zero
	}
	return v
}

// decodePtr reads av, the value of an optional attribute, with read: nil
// when the item lacks it or holds NULL.
func decodePtr[T any](d *itemDecoder, attr string, av types.AttributeValue, read func(entity, attr string, av types.AttributeValue) (T, error)) *T {
	if av == nil || isNull(av) {
		return nil
	}
	v := decode(d, attr, av, required, read)
	return &v
}

// decodeOr reads av with read, or gives def when the item lacks the
// attribute or holds NULL: the default of an attribute added to the spec
// after items were written without it.
func decodeOr[T any](d *itemDecoder, attr string, av types.AttributeValue, def T, read func(entity, attr string, av types.AttributeValue) (T, error)) T {
	if av == nil || isNull(av) {
		return def
	}
	return decode(d, attr, av, required, read)
}

// document is the value of an optional document: nil when the item lacks
// it or holds NULL.
func document(av types.AttributeValue) types.AttributeValue {
	if isNull(av) {
		return nil
	}
	return av
}

func (d *itemDecoder) string(attr string, av types.AttributeValue, p presence) string {
	return decode(d, attr, av, p, readString)
}

func (d *itemDecoder) int(attr string, av types.AttributeValue, p presence) int64 {
	return decode(d, attr, av, p, readInt)
}

func (d *itemDecoder) float(attr string, av types.AttributeValue, p presence) float64 {
	return decode(d, attr, av, p, readFloat)
}

func (d *itemDecoder) bool(attr string, av types.AttributeValue, p presence) bool {
	return decode(d, attr, av, p, readBool)
}

func (d *itemDecoder) time(attr string, av types.AttributeValue, p presence) time.Time {
	return decode(d, attr, av, p, readTime)
}

func (d *itemDecoder) date(attr string, av types.AttributeValue, p presence) time.Time {
	return decode(d, attr, av, p, readDate)
}

func (d *itemDecoder) unix(attr string, av types.AttributeValue, p presence) time.Time {
	return decode(d, attr, av, p, readUnix)
}

func (d *itemDecoder) unixMilli(attr string, av types.AttributeValue, p presence) time.Time {
	return decode(d, attr, av, p, readUnixMilli)
}

func (d *itemDecoder) bytes(attr string, av types.AttributeValue, p presence) []byte {
	return decode(d, attr, av, p, readBytes)
}

func (d *itemDecoder) strings(attr string, av types.AttributeValue, p presence) []string {
	return decode(d, attr, av, p, readStrings)
}

func (d *itemDecoder) stringSet(attr string, av types.AttributeValue, p presence) []string {
	return decode(d, attr, av, p, readStringSet)
}

func (d *itemDecoder) intSet(attr string, av types.AttributeValue, p presence) []int64 {
	return decode(d, attr, av, p, readIntSet)
}

func (d *itemDecoder) stringMap(attr string, av types.AttributeValue, p presence) map[string]string {
	return decode(d, attr, av, p, readMap)
}

func (d *itemDecoder) path(attr string, av types.AttributeValue, sep string, p presence) []string {
	return decode(d, attr, av, p, func(entity, attr string, av types.AttributeValue) ([]string, error) {
		return readPath(entity, attr, av, sep)
	})
}

// storableFloat reports whether DynamoDB stores f as a number: zero, or a
// magnitude from 1e-130 to below 1e126 (so neither NaN nor an infinity).
func storableFloat(f float64) bool {
	a := math.Abs(f)
	return a == 0 || a >= 1e-130 && a < 1e126
}

// storableYear reports whether a time or date of year y has the fixed
// four-digit form it is stored in, and so can be read back.
func storableYear(y int) bool {
	return 0 <= y && y <= 9999
}

// The writers build attribute values.

func intValue(n int64) types.AttributeValue {
	return &types.AttributeValueMemberN{Value: strconv.FormatInt(n, 10)}
}

// expired reports whether an item's time to live has passed: its ttl
// attribute attr holds epoch seconds at or before now. DynamoDB deletes
// such an item only eventually; the store reads it as absent. An item
// without the attribute, or with one that is no number, never expires,
// as in DynamoDB.
func expired(item map[string]types.AttributeValue, attr string, now int64) bool {
	v, ok := item[attr].(*types.AttributeValueMemberN)
	if !ok {
		return false
	}
	t, err := strconv.ParseFloat(v.Value, 64)
	return err == nil && t <= float64(now)
}

// expiredAt is expired at the now a request sent, the attribute value of
// its :now placeholder; false when ttl is "" or now is no number.
func expiredAt(item map[string]types.AttributeValue, ttl string, now types.AttributeValue) bool {
	n, ok := now.(*types.AttributeValueMemberN)
	if !ok || ttl == "" {
		return false
	}
	sec, err := strconv.ParseInt(n.Value, 10, 64)
	return err == nil && expired(item, ttl, sec)
}

// queryFixed holds what a Query's input points to, the request's own:
// the client may change what it is given, and one block is cheaper than
// a value per pointer.
type queryFixed struct {
	table, index, keyCondition, filter, projection string
	forward, consistent                            bool
	limit                                          int32
	pk, sk, skLo, skHi                             types.AttributeValueMemberS
}

// limitRef is the input's Limit: nil for none.
func (f *queryFixed) limitRef() *int32 {
	if f.limit <= 0 {
		return nil
	}
	return &f.limit
}

// intDiff is the number a - b, exact also where it is outside int64's
// range (DynamoDB's numbers hold 38 digits): an atomic add's condition
// compares a stored value with a bound less the amount added.
func intDiff(a, b int64) types.AttributeValue {
	d := a - b
	if (b > 0) == (d < a) || b == 0 {
		return &types.AttributeValueMemberN{Value: strconv.FormatInt(d, 10)}
	}
	return &types.AttributeValueMemberN{Value: new(big.Int).Sub(big.NewInt(a), big.NewInt(b)).String()}
}

func floatValue(f float64) types.AttributeValue {
	return &types.AttributeValueMemberN{Value: formatFloat(f)}
}

func stringsValue(ss []string) types.AttributeValue {
	l := make([]types.AttributeValue, len(ss))
	for i, s := range ss {
		l[i] = &types.AttributeValueMemberS{Value: s}
	}
	return &types.AttributeValueMemberL{Value: l}
}

func intSetValue(ns []int64) types.AttributeValue {
	ns = unique(ns)
	l := make([]string, len(ns))
	for i, n := range ns {
		l[i] = strconv.FormatInt(n, 10)
	}
	return &types.AttributeValueMemberNS{Value: l}
}

func mapValue(m map[string]string) types.AttributeValue {
	out := make(map[string]types.AttributeValue, len(m))
	for k, v := range m {
		out[k] = &types.AttributeValueMemberS{Value: v}
	}
	return &types.AttributeValueMemberM{Value: out}
}

// keyHash identifies a key in a batch, to drop duplicates and to find
// the keys and items DynamoDB answers with among those sent: keys of
// equal values give one text, a number's value being its text as
// DynamoDB writes it back (numberText: 1e+06 is 1000000, -0 is 0).
func keyHash(key map[string]types.AttributeValue, names ...string) string {
	// Each value is written with its type and its length, so that no
	// two keys give the same text.
	var b strings.Builder
	for _, n := range names {
		var kind, value string
		switch v := key[n].(type) {
		case *types.AttributeValueMemberS:
			kind, value = "S", v.Value
		case *types.AttributeValueMemberN:
			kind, value = "N", v.Value
			if text, ok := numberText(v.Value); ok {
				value = text
			}
		case *types.AttributeValueMemberB:
			kind, value = "B", string(v.Value)
		}
		b.WriteString(kind)
		b.WriteString(strconv.Itoa(len(value)))
		b.WriteByte(':')
		b.WriteString(value)
	}
	return b.String()
}

// isType reports whether an item's entity attribute holds value.
func isType(item map[string]types.AttributeValue, attr, value string) bool {
	v, ok := item[attr].(*types.AttributeValueMemberS)
	return ok && v.Value == value
}

// hasKeyPrefix reports whether an item's string key attribute starts with
// prefix.
func hasKeyPrefix(item map[string]types.AttributeValue, attr, prefix string) bool {
	v, ok := item[attr].(*types.AttributeValueMemberS)
	return ok && strings.HasPrefix(v.Value, prefix)
}

// validStrings reports whether every string is valid UTF-8.
func validStrings(ss []string) bool {
	for _, s := range ss {
		if !utf8.ValidString(s) {
			return false
		}
	}
	return true
}

// validMap reports whether every key and value is valid UTF-8.
func validMap(m map[string]string) bool {
	for k, v := range m {
		if !utf8.ValidString(k) || !utf8.ValidString(v) {
			return false
		}
	}
	return true
}

// stringSetValue writes a string set; a value given twice is written once
// (DynamoDB refuses a set with duplicates).
func stringSetValue(ss []string) types.AttributeValue {
	return &types.AttributeValueMemberSS{Value: unique(ss)}
}

// unique returns ss without repeated values, in first-seen order; ss
// itself when it has none.
func unique[T comparable](ss []T) []T {
	seen := make(map[T]struct{}, len(ss))
	for i, s := range ss {
		if _, dup := seen[s]; dup {
			out := slices.Clone(ss[:i])
			for _, s := range ss[i:] {
				if _, dup := seen[s]; !dup {
					seen[s] = struct{}{}
					out = append(out, s)
				}
			}
			return out
		}
		seen[s] = struct{}{}
	}
	return ss
}

// updateExpression writes an update expression from clauses chosen at
// run time: SET, REMOVE and DELETE parts, and the ADD part; "" when there
// is none (the request then sends no UpdateExpression).
func updateExpression(set []string, add string, remove, del []string) string {
	var b strings.Builder
	if len(set) > 0 {
		b.WriteString("SET " + strings.Join(set, ", "))
	}
	if add != "" {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString("ADD " + add)
	}
	if len(remove) > 0 {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString("REMOVE " + strings.Join(remove, ", "))
	}
	if len(del) > 0 {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString("DELETE " + strings.Join(del, ", "))
	}
	return b.String()
}

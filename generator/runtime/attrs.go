package runtime

import (
	"errors"
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

func ReadString(entity, attr string, av types.AttributeValue) (string, error) {
	v, ok := av.(*types.AttributeValueMemberS)
	if !ok {
		return "", wrongType(entity, attr, "S")
	}
	return v.Value, nil
}

func ReadInt(entity, attr string, av types.AttributeValue) (int64, error) {
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

func ReadFloat(entity, attr string, av types.AttributeValue) (float64, error) {
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

func ReadBool(entity, attr string, av types.AttributeValue) (bool, error) {
	v, ok := av.(*types.AttributeValueMemberBOOL)
	if !ok {
		return false, wrongType(entity, attr, "BOOL")
	}
	return v.Value, nil
}

// ReadTime accepts any RFC 3339 time; dyngen writes timeLayout.
func ReadTime(entity, attr string, av types.AttributeValue) (time.Time, error) {
	s, err := ReadString(entity, attr, av)
	if err != nil {
		return time.Time{}, err
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, &ItemError{Entity: entity, Attr: attr, Reason: "not an RFC 3339 time"}
	}
	return t, nil
}

func ReadDate(entity, attr string, av types.AttributeValue) (time.Time, error) {
	s, err := ReadString(entity, attr, av)
	if err != nil {
		return time.Time{}, err
	}
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return time.Time{}, &ItemError{Entity: entity, Attr: attr, Reason: "not a date YYYY-MM-DD"}
	}
	return t, nil
}

func ReadUnix(entity, attr string, av types.AttributeValue) (time.Time, error) {
	n, err := ReadInt(entity, attr, av)
	return time.Unix(n, 0).UTC(), err
}

func ReadUnixMilli(entity, attr string, av types.AttributeValue) (time.Time, error) {
	n, err := ReadInt(entity, attr, av)
	return time.UnixMilli(n).UTC(), err
}

func ReadBytes(entity, attr string, av types.AttributeValue) ([]byte, error) {
	v, ok := av.(*types.AttributeValueMemberB)
	if !ok {
		return nil, wrongType(entity, attr, "B")
	}
	return v.Value, nil
}

func ReadStrings(entity, attr string, av types.AttributeValue) ([]string, error) {
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

func ReadStringSet(entity, attr string, av types.AttributeValue) ([]string, error) {
	v, ok := av.(*types.AttributeValueMemberSS)
	if !ok {
		return nil, wrongType(entity, attr, "SS")
	}
	return v.Value, nil
}

func ReadIntSet(entity, attr string, av types.AttributeValue) ([]int64, error) {
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

func ReadMap(entity, attr string, av types.AttributeValue) (map[string]string, error) {
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

func ReadPath(entity, attr string, av types.AttributeValue, sep string) ([]string, error) {
	s, err := ReadString(entity, attr, av)
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
	return &ItemError{Entity: entity, Attr: attr, Reason: reasonMissing}
}

// reasonMissing is the Reason of the ItemError of a required attribute
// an item lacks (Missing).
const reasonMissing = "missing"

// ItemDecoder decodes the attributes of one item of entity, one call per
// attribute: each method returns the Go value of av, the attribute's value
// (nil when the item lacks it), or the zero value when av is nil or can't
// be decoded. It keeps the first error, so a decoder reads every
// attribute and then checks err once; after a required attribute
// missing, it keeps the next errors too, up to one of another kind (Err
// joins them), so that a backfill that computes the missing attributes
// (Missing) still sees what else the item can't give.
type ItemDecoder struct {
	Entity string
	Err    error
	// path holds the objects whose fields are being decoded, outermost
	// first: an error names its attribute by its path (address.zip,
	// previous[2].zip), written only when there is an error.
	path []pathElem
}

// pathElem is a step of a path: a field (index < 0) or element index of
// the list attr.
type pathElem struct {
	attr  string
	index int
}

// fail keeps err, the first error of the item, naming its attribute by
// the path of the objects being decoded.
func (d *ItemDecoder) fail(err error) {
	if d.Err != nil && !isMissing(last(d.Err)) {
		return
	}
	if ie, ok := err.(*ItemError); ok && len(d.path) > 0 {
		var b strings.Builder
		for _, p := range d.path {
			b.WriteString(p.attr)
			if p.index >= 0 {
				b.WriteString("[" + strconv.Itoa(p.index) + "]")
			}
			b.WriteString(".")
		}
		ie.Attr = b.String() + ie.Attr
	}
	if d.Err == nil {
		d.Err = err
		return
	}
	d.Err = errors.Join(d.Err, err)
}

// last is the last error err joins, or err.
func last(err error) error {
	for {
		j, ok := err.(interface{ Unwrap() []error })
		if !ok {
			return err
		}
		errs := j.Unwrap()
		err = errs[len(errs)-1]
	}
}

// isMissing reports whether err is the error of a required attribute an
// item lacks.
func isMissing(err error) bool {
	ie, ok := err.(*ItemError)
	return ok && ie.Reason == reasonMissing
}

// Presence says whether an item must hold an attribute: a required
// attribute the item lacks is an ItemError, an optional one the item
// lacks, or holds as NULL, is the zero value.
type Presence bool

const (
	Required Presence = true
	Optional Presence = false
)

// isNull reports whether av is DynamoDB's NULL.
func isNull(av types.AttributeValue) bool {
	_, ok := av.(*types.AttributeValueMemberNULL)
	return ok
}

// decode reads av with read, the reader of the attribute's type.
func decode[T any](d *ItemDecoder, attr string, av types.AttributeValue, p Presence, read func(entity, attr string, av types.AttributeValue) (T, error)) T {
	var zero T
	if av == nil || p == Optional && isNull(av) {
		if p == Required {
			d.fail(missing(d.Entity, attr))
		}
		return zero
	}
	v, err := read(d.Entity, attr, av)
	if err != nil {
		d.fail(err)
		return zero
	}
	return v
}

// Objects: a named object type of the spec is a struct stored as a map
// (M), with three generated methods: value (its M), validate (its
// fields' constraints, an *ItemError naming the field) and decode (its
// fields from an M, by an ItemDecoder). These functions apply them to an
// attribute or field of the type, and to a list of them (L of M).

// ObjectsValue is the list (L) of the maps of objects os, each made by
// value.
func ObjectsValue[T any](os []T, value func(*T) types.AttributeValue) types.AttributeValue {
	l := make([]types.AttributeValue, len(os))
	for i := range os {
		l[i] = value(&os[i])
	}
	return &types.AttributeValueMemberL{Value: l}
}

// ValidateObjects checks each of objects os with validate: the first
// error, naming the element (its Attr starts with [i]).
func ValidateObjects[T any](os []T, validate func(*T) error) error {
	for i := range os {
		if err := validate(&os[i]); err != nil {
			return InObject("", "["+strconv.Itoa(i)+"]", err)
		}
	}
	return nil
}

// InObject is err, an *ItemError of a field of an object (or of an
// element of a list), as an error of attribute attr holding it, of
// entity (when not ""): its Attr is attr's path then the field's. Any
// other error is returned as is, nil as nil.
func InObject(entity, attr string, err error) error {
	ie, ok := err.(*ItemError)
	if !ok {
		return err
	}
	sep := "."
	if strings.HasPrefix(ie.Attr, "[") {
		sep = ""
	}
	out := &ItemError{Entity: ie.Entity, Attr: attr + sep + ie.Attr, Reason: ie.Reason}
	if entity != "" {
		out.Entity = entity
	}
	return out
}

// objectMap is the map of av, the value of object attribute attr: nil
// when av is nil or NULL (a required attribute's, an error).
func (d *ItemDecoder) objectMap(attr string, av types.AttributeValue, p Presence) map[string]types.AttributeValue {
	return decode(d, attr, av, p, func(entity, attr string, av types.AttributeValue) (map[string]types.AttributeValue, error) {
		m, ok := av.(*types.AttributeValueMemberM)
		if !ok {
			return nil, wrongType(entity, attr, "M")
		}
		return m.Value, nil
	})
}

// in runs decode on the fields of m, the object at attr (element index
// of it when index >= 0): errors name their fields by path. Fields a
// stored map holds beyond the type's are ignored.
func in[T any](d *ItemDecoder, attr string, index int, o *T, m map[string]types.AttributeValue, decode func(*T, *ItemDecoder, map[string]types.AttributeValue)) {
	d.path = append(d.path, pathElem{attr, index})
	decode(o, d, m)
	d.path = d.path[:len(d.path)-1]
}

// DecodeObject decodes av, the value of a required object attribute attr,
// with decode: an item that lacks it is an error, and so is a field it
// lacks that the type requires.
func DecodeObject[T any](d *ItemDecoder, attr string, av types.AttributeValue, decode func(*T, *ItemDecoder, map[string]types.AttributeValue)) T {
	var o T
	if m := d.objectMap(attr, av, Required); m != nil {
		in(d, attr, -1, &o, m, decode)
	}
	return o
}

// DecodeObjectPtr decodes av, the value of an optional object attribute
// attr, with decode: nil when the item lacks it or holds NULL.
func DecodeObjectPtr[T any](d *ItemDecoder, attr string, av types.AttributeValue, decode func(*T, *ItemDecoder, map[string]types.AttributeValue)) *T {
	m := d.objectMap(attr, av, Optional)
	if m == nil {
		return nil
	}
	o := new(T)
	in(d, attr, -1, o, m, decode)
	return o
}

// DecodeObjects decodes av, the value of a list of objects attr (L of M),
// each element with decode: nil when it is absent (or optional and
// NULL), or empty.
func DecodeObjects[T any](d *ItemDecoder, attr string, av types.AttributeValue, p Presence, decode func(*T, *ItemDecoder, map[string]types.AttributeValue)) []T {
	l := listElems(d, attr, av, p)
	if len(l) == 0 {
		return nil
	}
	out := make([]T, len(l))
	for i, el := range l {
		m, ok := el.(*types.AttributeValueMemberM)
		if !ok {
			d.fail(wrongType(d.Entity, attr, "a list of M"))
			return nil
		}
		in(d, attr, i, &out[i], m.Value, decode)
	}
	return out
}

// listElems is the elements of av, the value of list attribute attr.
func listElems(d *ItemDecoder, attr string, av types.AttributeValue, p Presence) []types.AttributeValue {
	return decode(d, attr, av, p, func(entity, attr string, av types.AttributeValue) ([]types.AttributeValue, error) {
		l, ok := av.(*types.AttributeValueMemberL)
		if !ok {
			return nil, wrongType(entity, attr, "L")
		}
		return l.Value, nil
	})
}

// decodePtr reads av, the value of an optional attribute, with read: nil
// when the item lacks it or holds NULL.
func decodePtr[T any](d *ItemDecoder, attr string, av types.AttributeValue, read func(entity, attr string, av types.AttributeValue) (T, error)) *T {
	if av == nil || isNull(av) {
		return nil
	}
	v := decode(d, attr, av, Required, read)
	return &v
}

// decodeOr reads av with read, or gives def when the item lacks the
// attribute or holds NULL: the default of an attribute added to the spec
// after items were written without it.
func decodeOr[T any](d *ItemDecoder, attr string, av types.AttributeValue, def T, read func(entity, attr string, av types.AttributeValue) (T, error)) T {
	if av == nil || isNull(av) {
		return def
	}
	return decode(d, attr, av, Required, read)
}

// Document is the value of an optional document: nil when the item lacks
// it or holds NULL.
func Document(av types.AttributeValue) types.AttributeValue {
	if isNull(av) {
		return nil
	}
	return av
}

// The methods of ItemDecoder are kept out of line: the decoder then
// stays on its caller's stack (a call of a generic function, which their
// bodies make, from another package is taken to leak its arguments).

//go:noinline
func (d *ItemDecoder) String(attr string, av types.AttributeValue, p Presence) string {
	return decode(d, attr, av, p, ReadString)
}

//go:noinline
func (d *ItemDecoder) Int(attr string, av types.AttributeValue, p Presence) int64 {
	return decode(d, attr, av, p, ReadInt)
}

//go:noinline
func (d *ItemDecoder) Float(attr string, av types.AttributeValue, p Presence) float64 {
	return decode(d, attr, av, p, ReadFloat)
}

//go:noinline
func (d *ItemDecoder) Bool(attr string, av types.AttributeValue, p Presence) bool {
	return decode(d, attr, av, p, ReadBool)
}

//go:noinline
func (d *ItemDecoder) Time(attr string, av types.AttributeValue, p Presence) time.Time {
	return decode(d, attr, av, p, ReadTime)
}

//go:noinline
func (d *ItemDecoder) Date(attr string, av types.AttributeValue, p Presence) time.Time {
	return decode(d, attr, av, p, ReadDate)
}

//go:noinline
func (d *ItemDecoder) Unix(attr string, av types.AttributeValue, p Presence) time.Time {
	return decode(d, attr, av, p, ReadUnix)
}

//go:noinline
func (d *ItemDecoder) UnixMilli(attr string, av types.AttributeValue, p Presence) time.Time {
	return decode(d, attr, av, p, ReadUnixMilli)
}

//go:noinline
func (d *ItemDecoder) Bytes(attr string, av types.AttributeValue, p Presence) []byte {
	return decode(d, attr, av, p, ReadBytes)
}

//go:noinline
func (d *ItemDecoder) Strings(attr string, av types.AttributeValue, p Presence) []string {
	return decode(d, attr, av, p, ReadStrings)
}

//go:noinline
func (d *ItemDecoder) StringSet(attr string, av types.AttributeValue, p Presence) []string {
	return decode(d, attr, av, p, ReadStringSet)
}

//go:noinline
func (d *ItemDecoder) IntSet(attr string, av types.AttributeValue, p Presence) []int64 {
	return decode(d, attr, av, p, ReadIntSet)
}

//go:noinline
func (d *ItemDecoder) StringMap(attr string, av types.AttributeValue, p Presence) map[string]string {
	return decode(d, attr, av, p, ReadMap)
}

//go:noinline
func (d *ItemDecoder) Path(attr string, av types.AttributeValue, sep string, p Presence) []string {
	return decode(d, attr, av, p, func(entity, attr string, av types.AttributeValue) ([]string, error) {
		return ReadPath(entity, attr, av, sep)
	})
}

// StorableFloat reports whether DynamoDB stores f as a number: zero, or a
// magnitude from 1e-130 to below 1e126 (so neither NaN nor an infinity).
func StorableFloat(f float64) bool {
	a := math.Abs(f)
	return a == 0 || a >= 1e-130 && a < 1e126
}

// StorableYear reports whether a time or date of year y has the fixed
// four-digit form it is stored in, and so can be read back.
func StorableYear(y int) bool {
	return 0 <= y && y <= 9999
}

// The writers build attribute values.

func IntValue(n int64) types.AttributeValue {
	return &types.AttributeValueMemberN{Value: strconv.FormatInt(n, 10)}
}

// Expired reports whether an item's time to live has passed: its ttl
// attribute attr holds epoch seconds at or before now. DynamoDB deletes
// such an item only eventually; the store reads it as absent. An item
// without the attribute, or with one that is no number, never expires,
// as in DynamoDB.
func Expired(item map[string]types.AttributeValue, attr string, now int64) bool {
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
	return err == nil && Expired(item, ttl, sec)
}

// IntDiff is the number a - b, exact also where it is outside int64's
// range (DynamoDB's numbers hold 38 digits): an atomic add's condition
// compares a stored value with a bound less the amount added.
func IntDiff(a, b int64) types.AttributeValue {
	d := a - b
	if (b > 0) == (d < a) || b == 0 {
		return &types.AttributeValueMemberN{Value: strconv.FormatInt(d, 10)}
	}
	return &types.AttributeValueMemberN{Value: new(big.Int).Sub(big.NewInt(a), big.NewInt(b)).String()}
}

func FloatValue(f float64) types.AttributeValue {
	return &types.AttributeValueMemberN{Value: FormatFloat(f)}
}

func StringsValue(ss []string) types.AttributeValue {
	l := make([]types.AttributeValue, len(ss))
	for i, s := range ss {
		l[i] = &types.AttributeValueMemberS{Value: s}
	}
	return &types.AttributeValueMemberL{Value: l}
}

func IntSetValue(ns []int64) types.AttributeValue {
	ns = unique(ns)
	l := make([]string, len(ns))
	for i, n := range ns {
		l[i] = strconv.FormatInt(n, 10)
	}
	return &types.AttributeValueMemberNS{Value: l}
}

func MapValue(m map[string]string) types.AttributeValue {
	out := make(map[string]types.AttributeValue, len(m))
	for k, v := range m {
		out[k] = &types.AttributeValueMemberS{Value: v}
	}
	return &types.AttributeValueMemberM{Value: out}
}

// keyHash identifies a key in a batch, to drop duplicates and to find
// the keys and items DynamoDB answers with among those sent: keys of
// equal values give one text, a number's value being its text as
// DynamoDB writes it back (NumberText: 1e+06 is 1000000, -0 is 0).
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
			if text, ok := NumberText(v.Value); ok {
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

// IsType reports whether an item's entity attribute holds value.
func IsType(item map[string]types.AttributeValue, attr, value string) bool {
	v, ok := item[attr].(*types.AttributeValueMemberS)
	return ok && v.Value == value
}

// HasKeyPrefix reports whether an item's string key attribute starts with
// prefix.
func HasKeyPrefix(item map[string]types.AttributeValue, attr, prefix string) bool {
	v, ok := item[attr].(*types.AttributeValueMemberS)
	return ok && strings.HasPrefix(v.Value, prefix)
}

// ValidStrings reports whether every string is valid UTF-8.
func ValidStrings(ss []string) bool {
	for _, s := range ss {
		if !utf8.ValidString(s) {
			return false
		}
	}
	return true
}

// ValidMap reports whether every key and value is valid UTF-8.
func ValidMap(m map[string]string) bool {
	for k, v := range m {
		if !utf8.ValidString(k) || !utf8.ValidString(v) {
			return false
		}
	}
	return true
}

// StringSetValue writes a string set; a value given twice is written once
// (DynamoDB refuses a set with duplicates).
func StringSetValue(ss []string) types.AttributeValue {
	return &types.AttributeValueMemberSS{Value: unique(ss)}
}

// SetAdded returns the elements of to that from does not hold, each
// once, in to's order: the claims a write of a set with a claim per
// element takes (from the set read, to the set written) or releases
// (from the set written, to the set read); every element of to when
// from is nil.
func SetAdded[T comparable](from, to []T) []T {
	var out []T
	for _, v := range unique(to) {
		if !slices.Contains(from, v) {
			out = append(out, v)
		}
	}
	return out
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

// UpdateExpression writes an update expression from clauses chosen at
// run time: SET, REMOVE and DELETE parts, and the ADD part; "" when there
// is none (the request then sends no UpdateExpression).
func UpdateExpression(set []string, add string, remove, del []string) string {
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

// The decoders of an optional scalar attribute, a pointer (nil when the
// item lacks the attribute or holds NULL), and of a required one with a
// default, def when the item lacks it or holds NULL.

//go:noinline
func (d *ItemDecoder) StringPtr(attr string, av types.AttributeValue) *string {
	return decodePtr(d, attr, av, ReadString)
}

//go:noinline
func (d *ItemDecoder) StringOr(attr string, av types.AttributeValue, def string) string {
	return decodeOr(d, attr, av, def, ReadString)
}

//go:noinline
func (d *ItemDecoder) IntPtr(attr string, av types.AttributeValue) *int64 {
	return decodePtr(d, attr, av, ReadInt)
}

//go:noinline
func (d *ItemDecoder) IntOr(attr string, av types.AttributeValue, def int64) int64 {
	return decodeOr(d, attr, av, def, ReadInt)
}

//go:noinline
func (d *ItemDecoder) FloatPtr(attr string, av types.AttributeValue) *float64 {
	return decodePtr(d, attr, av, ReadFloat)
}

//go:noinline
func (d *ItemDecoder) FloatOr(attr string, av types.AttributeValue, def float64) float64 {
	return decodeOr(d, attr, av, def, ReadFloat)
}

//go:noinline
func (d *ItemDecoder) BoolPtr(attr string, av types.AttributeValue) *bool {
	return decodePtr(d, attr, av, ReadBool)
}

//go:noinline
func (d *ItemDecoder) BoolOr(attr string, av types.AttributeValue, def bool) bool {
	return decodeOr(d, attr, av, def, ReadBool)
}

//go:noinline
func (d *ItemDecoder) TimePtr(attr string, av types.AttributeValue) *time.Time {
	return decodePtr(d, attr, av, ReadTime)
}

//go:noinline
func (d *ItemDecoder) TimeOr(attr string, av types.AttributeValue, def time.Time) time.Time {
	return decodeOr(d, attr, av, def, ReadTime)
}

//go:noinline
func (d *ItemDecoder) DatePtr(attr string, av types.AttributeValue) *time.Time {
	return decodePtr(d, attr, av, ReadDate)
}

//go:noinline
func (d *ItemDecoder) DateOr(attr string, av types.AttributeValue, def time.Time) time.Time {
	return decodeOr(d, attr, av, def, ReadDate)
}

//go:noinline
func (d *ItemDecoder) UnixPtr(attr string, av types.AttributeValue) *time.Time {
	return decodePtr(d, attr, av, ReadUnix)
}

//go:noinline
func (d *ItemDecoder) UnixOr(attr string, av types.AttributeValue, def time.Time) time.Time {
	return decodeOr(d, attr, av, def, ReadUnix)
}

//go:noinline
func (d *ItemDecoder) UnixMilliPtr(attr string, av types.AttributeValue) *time.Time {
	return decodePtr(d, attr, av, ReadUnixMilli)
}

//go:noinline
func (d *ItemDecoder) UnixMilliOr(attr string, av types.AttributeValue, def time.Time) time.Time {
	return decodeOr(d, attr, av, def, ReadUnixMilli)
}

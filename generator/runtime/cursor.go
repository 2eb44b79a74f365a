package runtime

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"iter"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Cursor marks where the next page of a query starts. It is opaque: it
// holds DynamoDB's LastEvaluatedKey, bound to the query it was read from
// (the table's physical name, the index, the pattern, and every value the
// query sends: the partition, the sort key's bounds and the filter's
// operands). Without a cursor key it is checksummed; with one
// (WithCursorKey) it is signed with HMAC-SHA256 and its key values are
// encrypted. The zero Cursor asks for the first page; a page whose Next
// is zero is the last.
type Cursor string

// The first byte of a cursor: its format.
const (
	cursorChecked byte = 2 // the key, then a checksum
	cursorSealed  byte = 3 // a synthetic IV (the HMAC), then the key encrypted
)

// The sizes of a cursor's parts: the checksum of an unsigned cursor, the
// synthetic IV (the truncated HMAC-SHA256) of a sealed one, the most key
// attributes of a start key (the table's two and an index's, up to four
// of a multi-attribute partition key and four of its sort key), and the
// longest cursor text taken (that many key attributes at their largest).
const (
	cursorSumSize = 8
	cursorIVSize  = aes.BlockSize
	maxStartAttrs = 2 + 4 + 4
	maxCursor     = 32 << 10
)

// CursorKeys are the keys a Store signs and encrypts its cursors with,
// derived from the secret WithCursorKey gives it; nil when it has none.
type CursorKeys struct {
	mac, enc []byte
}

// NewCursorKeys derives the keys of a secret with HKDF-SHA256: one for
// HMAC-SHA256, one for AES-256. It panics on an empty secret.
func NewCursorKeys(secret []byte) *CursorKeys {
	if len(secret) == 0 {
		panic(pkgPrefix + "WithCursorKey: empty secret")
	}
	k, err := hkdf.Key(sha256.New, secret, []byte("dyngen cursor"), "hmac-sha256 aes-256-ctr", 64)
	if err != nil {
		panic(pkgPrefix + "WithCursorKey: " + err.Error())
	}
	return &CursorKeys{mac: k[:32], enc: k[32:]}
}

// cursorBinding identifies the query a cursor belongs to: a SHA-256 of
// what it sends besides its start key and limit.
type cursorBinding [sha256.Size]byte

// cursorScope is what the cursors of one call of a query are made with:
// the Store's keys and the query's binding, made before the call when a
// cursor is given, else only when a page has a next one, from a request
// built again from the method's own values: nothing the client is given
// feeds the next cursor, and a page with no cursor given and none to give
// costs no hash.
type cursorScope struct {
	keys    *CursorKeys
	pattern string
	clock   string // queryShape's clock
	bind    cursorBinding
	bound   bool
}

// queryShape is what a Query (Query.shape) tells cursorStart,
// the same for every call: the check of the start key, with the
// placeholders of the values it is checked against (read from the
// request).
type queryShape struct {
	// keys is the check, its values left nil.
	keys queryKeys
	// pkValue, lo and hi are the placeholders of keys' values; "" for
	// none.
	pkValue, lo, hi string
	// clock is the placeholder of the Store clock's now, which a query
	// that leaves expired items out sends ("" for none): a cursor is
	// bound to its name, not its value, which changes from page to page.
	clock string
	// equal are the key attributes of a multi-attribute key compared
	// with equality, with the placeholders of their values.
	equal []KeyValue
}

// check is the check of the start key of a query sent as in.
func (s *queryShape) check(in *dynamodb.QueryInput) *queryKeys {
	q := s.keys
	if s.pkValue != "" {
		q.pkValue = in.ExpressionAttributeValues[s.pkValue]
	}
	for _, e := range s.equal {
		q.equal = append(q.equal, keyEqual{e.Attr, in.ExpressionAttributeValues[e.Value]})
	}
	if s.lo != "" {
		q.lo = in.ExpressionAttributeValues[s.lo]
	}
	if s.hi != "" {
		q.hi = in.ExpressionAttributeValues[s.hi]
	}
	return &q
}

// StartAttr is an attribute of a query's start key: its name, its type
// ('S', 'N' or 'B'), and whether it is a sort key (of the index or the
// table), which bounds its size to 1024 bytes instead of 2048.
type StartAttr struct {
	Name string
	Kind byte
	Sort bool
}

// queryKeys is what a query's start key is checked against before it is
// sent: the attributes it holds (the index's key and the table's, each
// once) and the key condition it must meet.
type queryKeys struct {
	pattern string
	attrs   []StartAttr
	// pk and sk are the index's key attributes (sk "" when the index has
	// none).
	pk, sk string
	// op is the operator of the key condition on sk: "=", "<", "<=", ">",
	// ">=", "BETWEEN" or "begins_with"; "" when it reads the whole
	// partition.
	op string
	// pkValue is the partition's value; lo is the operand of op (the lower
	// bound of BETWEEN), hi the upper bound of BETWEEN.
	pkValue, lo, hi types.AttributeValue
	// equal are the values of the attributes of a multi-attribute key
	// the key condition compares with equality (pk is then "").
	equal []keyEqual
}

// keyEqual is a key attribute and the value a key condition gives it.
type keyEqual struct {
	attr  string
	value types.AttributeValue
}

// cursorStart binds the cursors of a query to in (its table, index and
// values) and, for a cursor c, sets in's ExclusiveStartKey to the key it
// holds: c must have been made for this query, with the Store's keys,
// and its key must lie inside the key condition (a forged one is refused
// before any call). It returns the scope the next cursor is made in.
func cursorStart(keys *CursorKeys, c Cursor, in *dynamodb.QueryInput, shape *queryShape) (cursorScope, error) {
	scope := cursorScope{keys: keys, pattern: shape.keys.pattern, clock: shape.clock}
	if c == "" {
		return scope, nil
	}
	scope.bind, scope.bound = bindQuery(shape.keys.pattern, shape.clock, in), true
	// A copy, so that only a call with a cursor allocates one.
	bind := scope.bind
	key, err := decodeCursor(keys, &bind, c)
	if err != nil {
		return cursorScope{}, err
	}
	if !shape.check(in).admits(key) {
		return cursorScope{}, ErrInvalidCursor
	}
	in.ExclusiveStartKey = key
	return scope, nil
}

// cursorNext is the cursor of the page after one whose LastEvaluatedKey
// is key: "" after the last page. newInput builds the request again, as
// it was sent, when the binding is not made yet.
func cursorNext(scope *cursorScope, key map[string]types.AttributeValue, newInput func() *dynamodb.QueryInput) Cursor {
	if len(key) == 0 {
		return ""
	}
	if !scope.bound {
		scope.bind, scope.bound = bindQuery(scope.pattern, scope.clock, newInput()), true
	}
	bind := scope.bind // a copy, allocated only with a next page
	return encodeCursor(scope.keys, &bind, key)
}

// bindQuery is the binding of the cursors of a query of pattern sent as
// in: its table, index, expressions and values, but the value of
// placeholder clock (the Store clock's now, "" for none). (Its buffers
// are on the stack for a usual query.)
func bindQuery(pattern, clock string, in *dynamodb.QueryInput) cursorBinding {
	var buf [512]byte
	b := append(buf[:0], "dyngen cursor\x00"...)
	for _, s := range [...]*string{in.TableName, in.IndexName, &pattern, in.KeyConditionExpression, in.FilterExpression} {
		if s == nil {
			b = append(b, 0)
			continue
		}
		b = appendChunk(append(b, 1), *s)
	}
	var arr [8]string
	names := arr[:0]
	for n := range in.ExpressionAttributeValues {
		names = append(names, n)
	}
	slices.Sort(names)
	b = binary.AppendUvarint(b, uint64(len(names)))
	for _, n := range names {
		b = appendChunk(b, n)
		if n == clock {
			b = append(b, 'C')
			continue
		}
		b = bindValue(b, in.ExpressionAttributeValues[n])
	}
	return sha256.Sum256(b)
}

// bindValue appends a value in a form that tells every value apart: its
// type, then its content; the members of a set and a map's keys in
// order, since their order means nothing.
func bindValue(b []byte, av types.AttributeValue) []byte {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return appendChunk(append(b, 'S'), v.Value)
	case *types.AttributeValueMemberN:
		// By value: a cursor of a query by 1e+06 is one of a query by
		// 1000000.
		text, _ := NumberText(v.Value)
		return appendChunk(append(b, 'N'), text)
	case *types.AttributeValueMemberB:
		return appendChunk(append(b, 'B'), v.Value)
	case *types.AttributeValueMemberBOOL:
		if v.Value {
			return append(b, 'T')
		}
		return append(b, 'F')
	case *types.AttributeValueMemberNULL:
		return append(b, '0')
	case *types.AttributeValueMemberSS:
		return appendSorted(append(b, 's'), slices.Clone(v.Value), strings.Compare)
	case *types.AttributeValueMemberNS:
		set := make([]string, len(v.Value))
		for i, n := range v.Value {
			set[i], _ = NumberText(n)
		}
		return appendSorted(append(b, 'n'), set, strings.Compare)
	case *types.AttributeValueMemberBS:
		return appendSorted(append(b, 'b'), slices.Clone(v.Value), bytes.Compare)
	case *types.AttributeValueMemberL:
		b = binary.AppendUvarint(append(b, 'L'), uint64(len(v.Value)))
		for _, e := range v.Value {
			b = bindValue(b, e)
		}
		return b
	case *types.AttributeValueMemberM:
		b = binary.AppendUvarint(append(b, 'M'), uint64(len(v.Value)))
		for _, k := range slices.Sorted(maps.Keys(v.Value)) {
			b = bindValue(appendChunk(b, k), v.Value[k])
		}
		return b
	}
	return append(b, '?')
}

// appendSorted appends the members of a set, sorted.
func appendSorted[T string | []byte](b []byte, set []T, cmp func(x, y T) int) []byte {
	slices.SortFunc(set, cmp)
	b = binary.AppendUvarint(b, uint64(len(set)))
	for _, v := range set {
		b = appendChunk(b, v)
	}
	return b
}

// appendChunk appends a length-prefixed byte string.
func appendChunk[T string | []byte](b []byte, data T) []byte {
	b = binary.AppendUvarint(b, uint64(len(data)))
	return append(b, data...)
}

// encodeCursor turns a LastEvaluatedKey into a cursor of the query bind
// identifies: checksummed without keys, sealed with them.
func encodeCursor(keys *CursorKeys, bind *cursorBinding, key map[string]types.AttributeValue) Cursor {
	if len(key) == 0 {
		return ""
	}
	names := make([]string, 0, len(key))
	for n := range key {
		names = append(names, n)
	}
	slices.Sort(names)
	body := make([]byte, 0, 64)
	body = binary.AppendUvarint(body, uint64(len(names)))
	for _, n := range names {
		var kind byte
		var value []byte
		switch v := key[n].(type) {
		case *types.AttributeValueMemberS:
			kind, value = 'S', []byte(v.Value)
		case *types.AttributeValueMemberN:
			kind, value = 'N', []byte(v.Value)
		case *types.AttributeValueMemberB:
			kind, value = 'B', v.Value
		default:
			// Not a key type: DynamoDB never gives one, and the
			// check of the start key refuses the cursor without it.
			continue
		}
		body = appendChunk(body, n)
		body = append(body, kind)
		body = appendChunk(body, value)
	}
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

// decodeCursor returns the ExclusiveStartKey of a cursor, refusing one
// that was damaged, made for another query than bind's, or made with
// other keys (or with keys when there are none, or without when there
// are).
func decodeCursor(keys *CursorKeys, bind *cursorBinding, c Cursor) (map[string]types.AttributeValue, error) {
	if c == "" {
		return nil, nil
	}
	if len(c) > maxCursor {
		return nil, ErrInvalidCursor
	}
	b, err := base64.RawURLEncoding.DecodeString(string(c))
	if err != nil || len(b) < 1 {
		return nil, ErrInvalidCursor
	}
	var body []byte
	switch {
	case keys == nil && b[0] == cursorChecked && len(b) > 1+cursorSumSize:
		n := len(b) - cursorSumSize
		if !bytes.Equal(b[n:], cursorSum(bind, b[:n])) {
			return nil, ErrInvalidCursor
		}
		body = b[1:n]
	case keys != nil && b[0] == cursorSealed && len(b) > 1+cursorIVSize:
		iv := b[1 : 1+cursorIVSize]
		body = b[1+cursorIVSize:]
		keys.crypt(iv, body)
		if !hmac.Equal(iv, keys.iv(bind, body)) {
			return nil, ErrInvalidCursor
		}
	default:
		return nil, ErrInvalidCursor
	}
	return parseCursorKey(body)
}

// parseCursorKey reads the key a cursor holds.
func parseCursorKey(rest []byte) (map[string]types.AttributeValue, error) {
	n, k := binary.Uvarint(rest)
	if k <= 0 || n > maxStartAttrs {
		return nil, ErrInvalidCursor
	}
	rest = rest[k:]
	key := make(map[string]types.AttributeValue, n)
	for range n {
		name, r, ok := chunk(rest)
		if !ok || len(r) < 1 {
			return nil, ErrInvalidCursor
		}
		kind := r[0]
		value, r, ok := chunk(r[1:])
		if !ok {
			return nil, ErrInvalidCursor
		}
		rest = r
		if _, dup := key[string(name)]; dup {
			return nil, ErrInvalidCursor
		}
		switch kind {
		case 'S':
			key[string(name)] = &types.AttributeValueMemberS{Value: string(value)}
		case 'N':
			// A number DynamoDB stores, or the cursor is refused before
			// any call; sent as DynamoDB writes it.
			text, ok := NumberText(string(value))
			if !ok {
				return nil, ErrInvalidCursor
			}
			key[string(name)] = &types.AttributeValueMemberN{Value: text}
		case 'B':
			key[string(name)] = &types.AttributeValueMemberB{Value: slices.Clone(value)}
		default:
			return nil, ErrInvalidCursor
		}
	}
	if len(rest) != 0 {
		return nil, ErrInvalidCursor
	}
	return key, nil
}

// cursorSum is the checksum of an unsigned cursor b of the query bind
// identifies: it finds damage, not forgery (anyone can compute it).
func cursorSum(bind *cursorBinding, b []byte) []byte {
	h := sha256.New()
	h.Write(bind[:])
	h.Write(b)
	return h.Sum(nil)[:cursorSumSize]
}

// iv is the synthetic IV of a sealed cursor: the HMAC-SHA256 of the
// query's binding, the format and the key, truncated to an AES block. It
// signs the cursor, and as the IV of AES-CTR it makes one key give one
// cursor (SIV: a deterministic authenticated encryption).
func (k *CursorKeys) iv(bind *cursorBinding, body []byte) []byte {
	h := hmac.New(sha256.New, k.mac)
	h.Write(bind[:])
	h.Write([]byte{cursorSealed})
	h.Write(body)
	return h.Sum(nil)[:cursorIVSize]
}

// crypt encrypts or decrypts b in place with AES-256-CTR from iv.
func (k *CursorKeys) crypt(iv, b []byte) {
	block, err := aes.NewCipher(k.enc)
	if err != nil {
		panic(err) // a 32-byte key always makes a cipher
	}
	cipher.NewCTR(block, iv).XORKeyStream(b, b)
}

// chunk reads a length-prefixed byte string.
func chunk(b []byte) (data, rest []byte, ok bool) {
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)-k) {
		return nil, nil, false
	}
	return b[k : k+int(n)], b[k+int(n):], true
}

// admits reports whether a start key fits the query: exactly its key
// attributes, of their types and sizes, the partition's value, and a sort
// key inside the key condition.
func (q *queryKeys) admits(key map[string]types.AttributeValue) bool {
	if len(key) != len(q.attrs) {
		return false
	}
	for _, a := range q.attrs {
		v, ok := key[a.Name]
		if !ok || !validKeyValue(v, a.Kind, a.Sort) {
			return false
		}
	}
	if q.pk != "" {
		if c, ok := compareValues(key[q.pk], q.pkValue); !ok || c != 0 {
			return false
		}
	}
	for _, e := range q.equal {
		if c, ok := compareValues(key[e.attr], e.value); !ok || c != 0 {
			return false
		}
	}
	if q.op == "" {
		return true
	}
	sk := key[q.sk]
	if q.op == "begins_with" {
		switch v := sk.(type) {
		case *types.AttributeValueMemberS:
			p, ok := q.lo.(*types.AttributeValueMemberS)
			return ok && strings.HasPrefix(v.Value, p.Value)
		case *types.AttributeValueMemberB:
			p, ok := q.lo.(*types.AttributeValueMemberB)
			return ok && bytes.HasPrefix(v.Value, p.Value)
		}
		return false
	}
	c, ok := compareValues(sk, q.lo)
	if !ok {
		return false
	}
	switch q.op {
	case "=":
		return c == 0
	case "<":
		return c < 0
	case "<=":
		return c <= 0
	case ">":
		return c > 0
	case ">=":
		return c >= 0
	case "BETWEEN":
		h, ok := compareValues(sk, q.hi)
		return c >= 0 && ok && h <= 0
	}
	return false
}

// validKeyValue reports whether v can be a key attribute's value of type
// kind: a non-empty string (valid UTF-8), number or binary, no longer than
// a sort key's (sort) or a partition key's largest.
func validKeyValue(v types.AttributeValue, kind byte, sort bool) bool {
	size := MaxPartitionKey
	if sort {
		size = MaxSortKey
	}
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return kind == 'S' && v.Value != "" && len(v.Value) <= size && utf8.ValidString(v.Value)
	case *types.AttributeValueMemberN:
		_, ok := parseNumber(v.Value)
		return kind == 'N' && ok
	case *types.AttributeValueMemberB:
		return kind == 'B' && len(v.Value) > 0 && len(v.Value) <= size
	}
	return false
}

// compareValues compares two key values of one type as DynamoDB orders
// them (strings by their UTF-8 bytes, numbers by value, binary by bytes);
// ok is false when their types differ or a number is none DynamoDB
// stores.
func compareValues(a, b types.AttributeValue) (c int, ok bool) {
	switch x := a.(type) {
	case *types.AttributeValueMemberS:
		y, ok := b.(*types.AttributeValueMemberS)
		if !ok {
			return 0, false
		}
		return strings.Compare(x.Value, y.Value), true
	case *types.AttributeValueMemberN:
		y, ok := b.(*types.AttributeValueMemberN)
		if !ok {
			return 0, false
		}
		return CompareNumbers(x.Value, y.Value)
	case *types.AttributeValueMemberB:
		y, ok := b.(*types.AttributeValueMemberB)
		if !ok {
			return 0, false
		}
		return bytes.Compare(x.Value, y.Value), true
	}
	return 0, false
}

// Page asks a query for one page of results: where it starts (the zero
// Cursor for the first page) and how many items it reads at most (0 for
// the pattern's limit, or DynamoDB's 1 MB page when it has none).
type Page struct {
	Cursor Cursor
	Limit  int
}

// pageLimit is the Limit of a query: the page's, else the pattern's def
// (0: none).
func pageLimit(p Page, def int32) int32 {
	if p.Limit > 0 {
		return int32(min(p.Limit, 1<<31-1))
	}
	return def
}

// emptyRange reports whether the bounds of a sort key BETWEEN are the
// wrong way round (lo above hi): the range holds nothing, and DynamoDB
// refuses such a condition, so the query returns no item instead.
func emptyRange(lo, hi types.AttributeValue) bool {
	c, ok := compareValues(lo, hi)
	return ok && c > 0
}

// WalkPages yields every page that page returns, one at a time from the
// first, with its error. It goes on with the next page when the page has
// one (a page that left out the items it could not decode, with a
// DecodeError), and stops after the last page, at an error with no next
// page, and when the caller stops.
func WalkPages[R any](page func(Page) (R, Cursor, error)) iter.Seq2[R, error] {
	return func(yield func(R, error) bool) {
		var p Page
		for {
			res, next, err := page(p)
			if !yield(res, err) || next == "" {
				return
			}
			p.Cursor = next
		}
	}
}

// UnsignedCursor is the cursor a Store without a cursor key gives for a
// page that ends at key, of the query of pattern sent as in (clock is
// the placeholder of the Store clock's now, "" for none): what anyone
// who knows the format can build, which the Store still checks against
// the query's key condition. dyngen's tests forge cursors with it.
func UnsignedCursor(pattern, clock string, in *dynamodb.QueryInput, key map[string]types.AttributeValue) Cursor {
	bind := bindQuery(pattern, clock, in)
	return encodeCursor(nil, &bind, key)
}

// UnsignedCursorKey is the key an unsigned cursor of that query holds;
// ErrInvalidCursor when c is none of its cursors.
func UnsignedCursorKey(pattern, clock string, in *dynamodb.QueryInput, c Cursor) (map[string]types.AttributeValue, error) {
	bind := bindQuery(pattern, clock, in)
	return decodeCursor(nil, &bind, c)
}

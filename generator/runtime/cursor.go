package runtime

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"hash/fnv"
	"iter"
	"math/big"
	"slices"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Cursor marks where the next page of a query starts. It is opaque: it
// holds DynamoDB's LastEvaluatedKey, the pattern it belongs to and the
// partition it was read from, with a checksum. The zero Cursor asks for
// the first page; a page whose Next is zero is the last.
type Cursor string

const cursorVersion = 1

// encodeCursor turns a LastEvaluatedKey into a cursor for the pattern and
// partition (the partition key value) it was read from.
func encodeCursor(pattern, partition string, key map[string]types.AttributeValue) Cursor {
	if len(key) == 0 {
		return ""
	}
	names := make([]string, 0, len(key))
	for n := range key {
		names = append(names, n)
	}
	slices.Sort(names)
	b := make([]byte, 0, 64)
	b = append(b, cursorVersion)
	b = binary.BigEndian.AppendUint64(b, hash64(pattern))
	b = binary.BigEndian.AppendUint64(b, hash64(partition))
	b = binary.AppendUvarint(b, uint64(len(names)))
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
			continue
		}
		b = binary.AppendUvarint(b, uint64(len(n)))
		b = append(b, n...)
		b = append(b, kind)
		b = binary.AppendUvarint(b, uint64(len(value)))
		b = append(b, value...)
	}
	b = binary.BigEndian.AppendUint64(b, hash64(string(b)))
	return Cursor(base64.RawURLEncoding.EncodeToString(b))
}

// decodeCursor returns the ExclusiveStartKey of a cursor, refusing one
// that was damaged or comes from another pattern or partition.
func decodeCursor(pattern, partition string, c Cursor) (map[string]types.AttributeValue, error) {
	if c == "" {
		return nil, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(string(c))
	if err != nil || len(b) < 1+8+8+1+8 {
		return nil, ErrInvalidCursor
	}
	body, sum := b[:len(b)-8], b[len(b)-8:]
	if binary.BigEndian.Uint64(sum) != hash64(string(body)) || body[0] != cursorVersion {
		return nil, ErrInvalidCursor
	}
	if binary.BigEndian.Uint64(body[1:9]) != hash64(pattern) || binary.BigEndian.Uint64(body[9:17]) != hash64(partition) {
		return nil, ErrInvalidCursor
	}
	rest := body[17:]
	n, k := binary.Uvarint(rest)
	if k <= 0 || n > 4 {
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
		switch kind {
		case 'S':
			key[string(name)] = &types.AttributeValueMemberS{Value: string(value)}
		case 'N':
			key[string(name)] = &types.AttributeValueMemberN{Value: string(value)}
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

// chunk reads a length-prefixed byte string.
func chunk(b []byte) (data, rest []byte, ok bool) {
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)-k) {
		return nil, nil, false
	}
	return b[k : k+int(n)], b[k+int(n):], true
}

func hash64(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
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

// partitionOf identifies a partition key value, to tie a cursor to it.
func partitionOf(av types.AttributeValue) string {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return "S" + v.Value
	case *types.AttributeValueMemberN:
		return "N" + v.Value
	case *types.AttributeValueMemberB:
		return "B" + base64.StdEncoding.EncodeToString(v.Value)
	}
	return ""
}

// emptyRange reports whether the bounds of a sort key BETWEEN are the
// wrong way round (lo above hi): the range holds nothing, and DynamoDB
// refuses such a condition, so the query returns no item instead.
func emptyRange(lo, hi types.AttributeValue) bool {
	switch l := lo.(type) {
	case *types.AttributeValueMemberS:
		h, ok := hi.(*types.AttributeValueMemberS)
		return ok && l.Value > h.Value
	case *types.AttributeValueMemberN:
		h, ok := hi.(*types.AttributeValueMemberN)
		if !ok {
			return false
		}
		x, okx := new(big.Rat).SetString(l.Value)
		y, oky := new(big.Rat).SetString(h.Value)
		return okx && oky && x.Cmp(y) > 0
	case *types.AttributeValueMemberB:
		h, ok := hi.(*types.AttributeValueMemberB)
		return ok && bytes.Compare(l.Value, h.Value) > 0
	}
	return false
}

// cursorStart is the ExclusiveStartKey of a page of a query of pattern on
// the partition pk: none for the first page.
func cursorStart(pattern string, pk types.AttributeValue, c Cursor) (map[string]types.AttributeValue, error) {
	if c == "" {
		return nil, nil
	}
	return decodeCursor(pattern, partitionOf(pk), c)
}

// cursorNext is the cursor of the page after one whose LastEvaluatedKey
// is key: "" after the last page.
func cursorNext(pattern string, pk types.AttributeValue, key map[string]types.AttributeValue) Cursor {
	if len(key) == 0 {
		return ""
	}
	return encodeCursor(pattern, partitionOf(pk), key)
}

// walk yields every item of every page that page returns, reading the
// pages one at a time from the first. A page's error is yielded after its
// items; the walk goes on with the next page when the page has one (a
// page that left out the items it could not decode, with a DecodeError),
// and stops after the last page, at an error with no next page, and when
// the caller stops.
func walk[T any](page func(Page) ([]T, Cursor, error)) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var p Page
		for {
			items, next, err := page(p)
			for _, v := range items {
				if !yield(v, nil) {
					return
				}
			}
			if err != nil {
				var zero T
				if !yield(zero, err) {
					return
				}
			}
			if next == "" {
				return
			}
			p.Cursor = next
		}
	}
}

// walkPages yields every page that page returns, one at a time from the
// first, with its error. It goes on with the next page when the page has
// one (a page that left out the items it could not decode, with a
// DecodeError), and stops after the last page, at an error with no next
// page, and when the caller stops.
func walkPages[R any](page func(Page) (R, Cursor, error)) iter.Seq2[R, error] {
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

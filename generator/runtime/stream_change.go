package runtime

import (
	"fmt"
	"regexp"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// A generated package decodes a table's stream records into typed
// changes: it tells each record's item apart by its keys alone (ItemKind,
// KindOf), so that a record of any view type names its entity, then
// decodes the images the record carries with the entity's UnmarshalItem.
// An item dyngen writes for an entity (a unique claim, a counter, a
// copy, an element item, a backfill's checkpoint, a release's receipt)
// is an OwnChange, and keys of no item the package knows an
// UnknownChange: neither is ever taken for an entity of the spec's.

// Change is a record decoded: a generated package's change of one of its
// entities (BookChange, ...), an *OwnChange or an *UnknownChange.
type Change interface {
	// Source returns the record the change was decoded from.
	Source() *StreamRecord
}

// OwnChange is a change of an item dyngen writes for an entity of the
// spec's: its keys, and what it is.
type OwnChange struct {
	// Entity names the item's entity in the generated package
	// (UserEmailClaim), Own what dyngen writes it for ("unique claim",
	// "counter", "copy", "element item", "backfill checkpoint", "release
	// receipt").
	Entity, Own string
	Op          StreamOp
	Keys        map[string]types.AttributeValue
	Record      *StreamRecord
}

// Source returns the record c was decoded from.
func (c *OwnChange) Source() *StreamRecord { return c.Record }

// UnknownChange is a change of an item whose keys are no item's the
// generated package knows: written by other code, or by a newer design.
type UnknownChange struct {
	Op     StreamOp
	Keys   map[string]types.AttributeValue
	Record *StreamRecord
}

// Source returns the record c was decoded from.
func (c *UnknownChange) Source() *StreamRecord { return c.Record }

// ItemKind describes the keys of one kind of item of a table: an entity
// of the spec's (Own empty) or an item dyngen writes for one.
type ItemKind struct {
	Entity string
	Own    string
	// Keys are the table's key attributes, in order, with what the
	// kind's items hold in each.
	Keys []KeyShape
}

// KeyShape is what a kind of item holds in one key attribute: a value of
// Type ("S", "N" or "B") and, for a string built from a key template,
// the text Pattern matches (its groups are the template's placeholders).
type KeyShape struct {
	Attr    string
	Type    string
	Pattern *regexp.Regexp
}

// matches reports whether av is a value of s.
func (s *KeyShape) matches(av types.AttributeValue) bool {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return s.Type == "S" && v.Value != "" && (s.Pattern == nil || s.Pattern.MatchString(v.Value))
	case *types.AttributeValueMemberN:
		_, ok := parseNumber(v.Value)
		return s.Type == "N" && ok
	case *types.AttributeValueMemberB:
		return s.Type == "B" && len(v.Value) > 0
	}
	return false
}

// KindOf returns the index in kinds of the one kind whose keys keys are,
// or -1 when they are no kind's, or (keys a design could not have
// written) several kinds'. keys must hold the table's key attributes and
// nothing else.
func KindOf(kinds []ItemKind, keys map[string]types.AttributeValue) int {
	found := -1
	for i := range kinds {
		k := &kinds[i]
		if len(keys) != len(k.Keys) {
			continue
		}
		match := true
		for j := range k.Keys {
			if !k.Keys[j].matches(keys[k.Keys[j].Attr]) {
				match = false
				break
			}
		}
		if !match {
			continue
		}
		if found >= 0 {
			return -1
		}
		found = i
	}
	return found
}

// Groups returns the text of each placeholder of key attribute j of k in
// keys, in order: the groups of its pattern. It is nil when keys do not
// match k there (KindOf returned another kind).
func (k *ItemKind) Groups(keys map[string]types.AttributeValue, j int) []string {
	s := &k.Keys[j]
	v, ok := keys[s.Attr].(*types.AttributeValueMemberS)
	if !ok || s.Pattern == nil {
		return nil
	}
	m := s.Pattern.FindStringSubmatch(v.Value)
	if m == nil {
		return nil
	}
	return m[1:]
}

// OtherChange is the change of a record whose keys are not those of an
// entity of the spec's: an *OwnChange when kinds[i] is an item dyngen
// writes, else an *UnknownChange (i is -1, or out of kinds).
func OtherChange(kinds []ItemKind, i int, r *StreamRecord) Change {
	if i >= 0 && i < len(kinds) && kinds[i].Own != "" {
		return &OwnChange{Entity: kinds[i].Entity, Own: kinds[i].Own, Op: r.Op, Keys: r.Keys, Record: r}
	}
	return &UnknownChange{Op: r.Op, Keys: r.Keys, Record: r}
}

// NeedImages returns an error wrapping ErrInvalidRecord when r lacks an
// image a consumer reads: the item as it was (old) or as written (new),
// which its stream's view type must carry.
func NeedImages(consumer string, r *StreamRecord, old, new bool) error {
	switch {
	case old && r.OldImage == nil:
		return fmt.Errorf("%w: consumer %s reads the item as it was, and the record of %s carries none: the stream's view type must be OLD_IMAGE or NEW_AND_OLD_IMAGES", ErrInvalidRecord, consumer, r.Op)
	case new && r.NewImage == nil:
		return fmt.Errorf("%w: consumer %s reads the item as written, and the record of %s carries none: the stream's view type must be NEW_IMAGE or NEW_AND_OLD_IMAGES", ErrInvalidRecord, consumer, r.Op)
	}
	return nil
}

// DecodeImages decodes the images r carries with decode (a generated
// entity's UnmarshalItem), of those old and new ask for: the item as it
// was (before) and as written (after), each nil where r carries none or
// it is not asked for. A consumer decodes only what it reads: an image
// it does not read (an old item written before an attribute it lacks
// was required) never fails its record.
func DecodeImages[T any](r *StreamRecord, decode func(*T, map[string]types.AttributeValue) error, old, new bool) (before, after *T, err error) {
	if old && r.OldImage != nil {
		before = newOf[T]()
		if err := decode(before, r.OldImage); err != nil {
			return nil, nil, err
		}
	}
	if new && r.NewImage != nil {
		after = newOf[T]()
		if err := decode(after, r.NewImage); err != nil {
			return nil, nil, err
		}
	}
	return before, after, nil
}

// newOf is new(T), where DecodeImages's parameter new hides the builtin.
func newOf[T any]() *T { return new(T) }

// EventRecords are ev's records; none for a nil event (aws-lambda-go
// gives one for the payload null).
func EventRecords(ev *StreamEvent) []EventRecord {
	if ev == nil {
		return nil
	}
	return ev.Records
}

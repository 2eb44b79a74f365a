package runtime

import (
	"errors"
	"regexp"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// TestKindOf names the one kind whose keys a record's are: by each key
// attribute's type and pattern, all of the table's key attributes and no
// other; keys two kinds match, which no design of dyngen writes, are no
// kind's.
func TestKindOf(t *testing.T) {
	kinds := []ItemKind{
		{Entity: "User", Keys: []KeyShape{{Attr: "PK", Type: "S", Pattern: regexp.MustCompile(`^USER#([^#]+)$`)}, {Attr: "SK", Type: "S", Pattern: regexp.MustCompile(`^PROFILE$`)}}},
		{Entity: "UserEmailClaim", Own: "unique claim", Keys: []KeyShape{{Attr: "PK", Type: "S", Pattern: regexp.MustCompile(`^UNIQUE#User#email#([^#]+)$`)}, {Attr: "SK", Type: "S", Pattern: regexp.MustCompile(`^UNIQUE#User#email#([^#]+)$`)}}},
		{Entity: "Loose", Keys: []KeyShape{{Attr: "PK", Type: "S", Pattern: regexp.MustCompile(`^LOOSE#`)}, {Attr: "SK", Type: "S"}}},
		{Entity: "Looser", Keys: []KeyShape{{Attr: "PK", Type: "S", Pattern: regexp.MustCompile(`^LOOSE#x$`)}, {Attr: "SK", Type: "S"}}},
		{Entity: "Reading", Keys: []KeyShape{{Attr: "PK", Type: "N"}, {Attr: "SK", Type: "B"}}},
	}
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	for _, c := range []struct {
		name string
		keys map[string]types.AttributeValue
		want int
	}{
		{"a user", map[string]types.AttributeValue{"PK": s("USER#ann"), "SK": s("PROFILE")}, 0},
		{"a claim", map[string]types.AttributeValue{"PK": s("UNIQUE#User#email#a@b"), "SK": s("UNIQUE#User#email#a@b")}, 1},
		{"a user's key holding a separator", map[string]types.AttributeValue{"PK": s("USER#a#b"), "SK": s("PROFILE")}, -1},
		{"another sort key", map[string]types.AttributeValue{"PK": s("USER#ann"), "SK": s("PROFILE2")}, -1},
		{"a key attribute missing", map[string]types.AttributeValue{"PK": s("USER#ann")}, -1},
		{"a key attribute more", map[string]types.AttributeValue{"PK": s("USER#ann"), "SK": s("PROFILE"), "GSI1PK": s("x")}, -1},
		{"a number where a string is", map[string]types.AttributeValue{"PK": &types.AttributeValueMemberN{Value: "1"}, "SK": s("PROFILE")}, -1},
		{"two kinds' keys", map[string]types.AttributeValue{"PK": s("LOOSE#x"), "SK": s("y")}, -1},
		{"one loose kind's", map[string]types.AttributeValue{"PK": s("LOOSE#z"), "SK": s("y")}, 2},
		{"numbers and bytes", map[string]types.AttributeValue{"PK": &types.AttributeValueMemberN{Value: "-1.5e3"}, "SK": &types.AttributeValueMemberB{Value: []byte{0}}}, 4},
		{"a number DynamoDB can't hold", map[string]types.AttributeValue{"PK": &types.AttributeValueMemberN{Value: "1e999"}, "SK": &types.AttributeValueMemberB{Value: []byte{0}}}, -1},
		{"empty bytes", map[string]types.AttributeValue{"PK": &types.AttributeValueMemberN{Value: "1"}, "SK": &types.AttributeValueMemberB{}}, -1},
		{"an empty string", map[string]types.AttributeValue{"PK": s(""), "SK": s("y")}, -1},
		{"nil keys", nil, -1},
	} {
		if got := KindOf(kinds, c.keys); got != c.want {
			t.Errorf("%s: kind %d, want %d", c.name, got, c.want)
		}
	}
	if g := kinds[0].Groups(map[string]types.AttributeValue{"PK": s("USER#ann"), "SK": s("PROFILE")}, 0); len(g) != 1 || g[0] != "ann" {
		t.Errorf("Groups: %q", g)
	}
	if g := kinds[0].Groups(map[string]types.AttributeValue{"PK": s("ORDER#1")}, 0); g != nil {
		t.Errorf("Groups of keys of another kind: %q", g)
	}
	r := &StreamRecord{Op: OpRemove, Keys: map[string]types.AttributeValue{"PK": s("x")}}
	if c, ok := OtherChange(kinds, 1, r).(*OwnChange); !ok || c.Entity != "UserEmailClaim" || c.Own != "unique claim" || c.Source() != r {
		t.Errorf("OtherChange of a claim: %+v", c)
	}
	for _, i := range []int{-1, 0, len(kinds)} {
		if c, ok := OtherChange(kinds, i, r).(*UnknownChange); !ok || c.Op != OpRemove || c.Source() != r {
			t.Errorf("OtherChange of kind %d: %+v", i, c)
		}
	}
}

// TestDecodeImages decodes the images a record carries, and none it
// does not; an image that does not decode is the error, with no image.
func TestDecodeImages(t *testing.T) {
	type item struct{ v string }
	decode := func(it *item, m map[string]types.AttributeValue) error {
		s, ok := m["v"].(*types.AttributeValueMemberS)
		if !ok {
			return ErrInvalidItem
		}
		it.v = s.Value
		return nil
	}
	img := func(v string) map[string]types.AttributeValue {
		return map[string]types.AttributeValue{"v": &types.AttributeValueMemberS{Value: v}}
	}
	before, after, err := DecodeImages(&StreamRecord{NewImage: img("n")}, decode, true, true)
	if err != nil || before != nil || after == nil || after.v != "n" {
		t.Errorf("an insert: %v, %v, %v", before, after, err)
	}
	before, after, err = DecodeImages(&StreamRecord{OldImage: img("o"), NewImage: img("n")}, decode, true, true)
	if err != nil || before.v != "o" || after.v != "n" {
		t.Errorf("a modify: %v, %v, %v", before, after, err)
	}
	before, after, err = DecodeImages(&StreamRecord{OldImage: img("o"), NewImage: map[string]types.AttributeValue{}}, decode, true, true)
	if !errors.Is(err, ErrInvalidItem) || before != nil || after != nil {
		t.Errorf("an image that does not decode: %v, %v, %v", before, after, err)
	}
	if err := NeedImages("Feed", &StreamRecord{Op: OpModify, NewImage: img("n")}, true, true); !errors.Is(err, ErrInvalidRecord) {
		t.Errorf("NeedImages of a modify without its old item: %v", err)
	}
	if err := NeedImages("Feed", &StreamRecord{Op: OpModify, OldImage: img("o")}, false, true); !errors.Is(err, ErrInvalidRecord) {
		t.Errorf("NeedImages of a modify without its new item: %v", err)
	}
	if err := NeedImages("Feed", &StreamRecord{Op: OpModify, OldImage: img("o"), NewImage: img("n")}, true, true); err != nil {
		t.Errorf("NeedImages of a modify with both: %v", err)
	}
}

// TestDecodeImagesAsked decodes only the images asked for: an image not
// read never fails the record; and a nil event has no record.
func TestDecodeImagesAsked(t *testing.T) {
	decode := func(it *string, m map[string]types.AttributeValue) error {
		s, ok := m["v"].(*types.AttributeValueMemberS)
		if !ok {
			return ErrInvalidItem
		}
		*it = s.Value
		return nil
	}
	r := &StreamRecord{OldImage: map[string]types.AttributeValue{}, NewImage: map[string]types.AttributeValue{"v": &types.AttributeValueMemberS{Value: "n"}}}
	before, after, err := DecodeImages(r, decode, false, true)
	if err != nil || before != nil || after == nil || *after != "n" {
		t.Errorf("the new image alone: %v, %v, %v", before, after, err)
	}
	if _, _, err := DecodeImages(r, decode, true, false); !errors.Is(err, ErrInvalidItem) {
		t.Errorf("the old image that does not decode: %v", err)
	}
	if EventRecords(nil) != nil {
		t.Error("records of a nil event")
	}
}

package runtime

import (
	"errors"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// point is an object type as generated code declares one: its value,
// validate and decode methods.
type point struct {
	X    string
	Tags []point
}

func (o *point) value() types.AttributeValue {
	m := map[string]types.AttributeValue{"x": &types.AttributeValueMemberS{Value: o.X}}
	if len(o.Tags) > 0 {
		m["tags"] = ObjectsValue(o.Tags, (*point).value)
	}
	return &types.AttributeValueMemberM{Value: m}
}

func (o *point) validate() error {
	if o.X == "bad" {
		return &ItemError{Attr: "x", Reason: "bad"}
	}
	if err := InObject("", "tags", ValidateObjects(o.Tags, (*point).validate)); err != nil {
		return err
	}
	return nil
}

func (o *point) decode(d *ItemDecoder, m map[string]types.AttributeValue) {
	o.X = d.String("x", m["x"], Required)
	o.Tags = DecodeObjects(d, "tags", m["tags"], Optional, (*point).decode)
}

// TestObjectsRoundTrip: an object with a list of objects is written and
// read back by its methods.
func TestObjectsRoundTrip(t *testing.T) {
	p := point{X: "a", Tags: []point{{X: "b"}, {X: "c", Tags: []point{{X: "d"}}}}}
	d := ItemDecoder{Entity: "E"}
	got := DecodeObject(&d, "p", p.value(), (*point).decode)
	if d.Err != nil || got.X != "a" || len(got.Tags) != 2 || got.Tags[1].Tags[0].X != "d" {
		t.Errorf("round trip: %+v, %v", got, d.Err)
	}
	if d.path != nil && len(d.path) != 0 {
		t.Errorf("the decoder's path is left at %v", d.path)
	}
}

// TestObjectErrorPaths: a decoding error and a validation error name the
// field by its path, lists' elements by their index.
func TestObjectErrorPaths(t *testing.T) {
	bad := &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{
		"x": &types.AttributeValueMemberS{Value: "a"},
		"tags": &types.AttributeValueMemberL{Value: []types.AttributeValue{
			&types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"x": &types.AttributeValueMemberS{Value: "b"}}},
			&types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"x": &types.AttributeValueMemberN{Value: "1"}}},
		}},
	}}
	d := ItemDecoder{Entity: "E"}
	_ = DecodeObject(&d, "p", bad, (*point).decode)
	var ie *ItemError
	if !errors.As(d.Err, &ie) || ie.Entity != "E" || ie.Attr != "p.tags[1].x" {
		t.Errorf("decode: %v, want an ItemError of E.p.tags[1].x", d.Err)
	}
	d = ItemDecoder{Entity: "E"}
	if got := DecodeObjectPtr(&d, "p", &types.AttributeValueMemberNULL{Value: true}, (*point).decode); got != nil || d.Err != nil {
		t.Errorf("an optional NULL object: %+v, %v", got, d.Err)
	}
	_ = DecodeObject(&d, "p", nil, (*point).decode)
	if !errors.As(d.Err, &ie) || ie.Attr != "p" || ie.Reason != "missing" {
		t.Errorf("a required object missing: %v", d.Err)
	}
	p := point{X: "a", Tags: []point{{X: "b"}, {X: "c", Tags: []point{{X: "bad"}}}}}
	err := InObject("E", "p", p.validate())
	if !errors.As(err, &ie) || ie.Entity != "E" || ie.Attr != "p.tags[1].tags[0].x" || !errors.Is(err, ErrInvalidItem) {
		t.Errorf("validate: %v, want an ItemError of E.p.tags[1].tags[0].x", err)
	}
	if InObject("E", "p", nil) != nil {
		t.Error("InObject of nil is not nil")
	}
}

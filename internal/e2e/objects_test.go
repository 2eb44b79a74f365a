package e2e

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// newShopper is a customer of region with every kind of field set:
// an address with a nested object, a list of two, and a billing address
// with only its required fields.
func newShopper(region, id string) *Shopper {
	since := time.Date(2020, 3, 4, 0, 0, 0, 0, time.UTC)
	return &Shopper{
		Region: region, CustomerID: id,
		Address: Address{Street: "1 Main St", Zip: "12345", City: "Springfield", Kind: new(AddressKindHome),
			Since: &since, Geo: &Geo{Lat: 48.85, Lng: 2.35}, Lines: []string{"Flat 2", "Back door"}},
		Billing: &Address{Street: "PO Box 7", Zip: "99999", City: "Shelbyville"},
		Previous: []Address{
			{Street: "2 Old Rd", Zip: "11111", City: "Ogdenville", Kind: new(AddressKindWork)},
			{Street: "3 Older Rd", Zip: "22222", City: "North Haverbrook", Geo: &Geo{Lat: -1.5, Lng: 0}},
		},
	}
}

// TestObjectsRoundTrip: an entity with an object, an optional object and
// a list of objects is stored as maps (M) and a list of maps (L of M),
// field by field under their stored names, and reads back equal by get
// and by query.
func TestObjectsRoundTrip(t *testing.T) {
	t.Parallel()
	s, raw := newStore(t, nil)
	ctx := t.Context()
	c := newShopper("objects-rt", "c1")
	must(t, s.PutShopper(ctx, c))
	bare := &Shopper{Region: "objects-rt", CustomerID: "c2", Address: Address{Street: "s", Zip: "z", City: "c"}}
	must(t, s.PutShopper(ctx, bare))

	item := rawItem(t, s, raw, "OWNER#objects-rt", "CUSTOMER#c1")
	addr, ok := item["address"].(*types.AttributeValueMemberM)
	if !ok {
		t.Fatalf("address stored as %T, want M", item["address"])
	}
	if z, ok := addr.Value["zip"].(*types.AttributeValueMemberS); !ok || z.Value != "12345" {
		t.Errorf("address.zip stored as %#v", addr.Value["zip"])
	}
	if g, ok := addr.Value["geo"].(*types.AttributeValueMemberM); !ok || len(g.Value) != 2 {
		t.Errorf("address.geo stored as %#v", addr.Value["geo"])
	}
	if prev, ok := item["previous"].(*types.AttributeValueMemberL); !ok || len(prev.Value) != 2 {
		t.Errorf("previous stored as %#v, want an L of 2", item["previous"])
	}
	plain := rawItem(t, s, raw, "OWNER#objects-rt", "CUSTOMER#c2")
	for _, name := range []string{"billing", "previous"} {
		if v, ok := plain[name]; ok {
			t.Errorf("an absent optional object is stored: %s = %#v", name, v)
		}
	}
	if m := plain["address"].(*types.AttributeValueMemberM).Value; len(m) != 3 {
		t.Errorf("an address with only its required fields stores %d fields, want 3: %#v", len(m), m)
	}

	got, err := s.GetShopper(ctx, ShopperKey{Region: "objects-rt", CustomerID: "c1"})
	must(t, err)
	if !reflect.DeepEqual(got, c) {
		t.Errorf("get: got %+v, want %+v", got, c)
	}
	page, err := s.ShoppersInRegion(ctx, "objects-rt", Page{})
	must(t, err)
	if len(page.Items) != 2 || !reflect.DeepEqual(&page.Items[0], c) || !reflect.DeepEqual(&page.Items[1], bare) {
		t.Errorf("query: got %+v", page.Items)
	}
}

// TestObjectsUpdate: an update sets a whole object and a list of objects;
// a remove drops an optional object under its condition.
func TestObjectsUpdate(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t, nil)
	ctx := t.Context()
	c := newShopper("objects-up", "c1")
	must(t, s.PutShopper(ctx, c))
	moved := Address{Street: "9 New St", Zip: "55555", City: "Capital City"}
	got, err := s.MoveShopper(ctx, MoveShopperParams{Region: "objects-up", CustomerID: "c1", Address: moved, Previous: []Address{c.Address}})
	must(t, err)
	if !reflect.DeepEqual(got.Address, moved) || !reflect.DeepEqual(got.Previous, []Address{c.Address}) || !reflect.DeepEqual(got.Billing, c.Billing) {
		t.Errorf("after the move: %+v", got)
	}
	got, err = s.DropBilling(ctx, DropBillingParams{Region: "objects-up", CustomerID: "c1"})
	must(t, err)
	if got.Billing != nil {
		t.Errorf("billing after its remove: %+v", got.Billing)
	}
	if _, err := s.DropBilling(ctx, DropBillingParams{Region: "objects-up", CustomerID: "c1"}); !errors.Is(err, ErrConditionFailed) {
		t.Errorf("a second remove: %v, want ErrConditionFailed", err)
	}
}

// TestObjectsRefused: a field that breaks its constraint, in an object,
// an optional object, an element of a list and a nested object, is an
// ItemError naming its path before any call, on a put as on an update.
func TestObjectsRefused(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t, nil)
	ctx := t.Context()
	for _, tc := range []struct {
		path   string
		change func(c *Shopper)
	}{
		{"address.zip", func(c *Shopper) { c.Address.Zip = "12345678901" }},
		{"address.street", func(c *Shopper) { c.Address.Street = "\xff" }},
		{"address.kind", func(c *Shopper) { c.Address.Kind = new(AddressKind("shop")) }},
		{"address.since", func(c *Shopper) { c.Address.Since = new(time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)) }},
		{"address.geo.lat", func(c *Shopper) { c.Address.Geo.Lat = 91 }},
		{"address.lines", func(c *Shopper) { c.Address.Lines = []string{"\xff"} }},
		{"billing.city", func(c *Shopper) { c.Billing.City = "\xfe" }},
		{"previous[1].geo.lng", func(c *Shopper) { c.Previous[1].Geo.Lng = -181 }},
	} {
		c := newShopper("objects-bad", "c1")
		tc.change(c)
		err := s.PutShopper(ctx, c)
		var ie *ItemError
		if !errors.As(err, &ie) || !errors.Is(err, ErrInvalidItem) || ie.Entity != "Shopper" || ie.Attr != tc.path {
			t.Errorf("put with a bad %s: %v (%+v), want an ItemError of Shopper.%s", tc.path, err, ie, tc.path)
		}
		if tc.path[0] == 'a' {
			_, err = s.MoveShopper(ctx, MoveShopperParams{Region: "objects-bad", CustomerID: "c1", Address: c.Address})
			if !errors.As(err, &ie) || ie.Attr != tc.path {
				t.Errorf("update with a bad %s: %v, want an ItemError of Shopper.%s", tc.path, err, tc.path)
			}
		}
	}
	if _, err := s.GetShopper(ctx, ShopperKey{Region: "objects-bad", CustomerID: "c1"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("a refused item was written: %v", err)
	}
}

// TestObjectsDecode: a stored map that lacks a required field, holds a
// field of another type, or holds fields beyond the type's: the first two
// are ItemErrors naming the field's path, the last read as the type's.
func TestObjectsDecode(t *testing.T) {
	t.Parallel()
	s, raw := newStore(t, nil)
	ctx := t.Context()
	put := func(id string, address, previous types.AttributeValue) {
		item := map[string]types.AttributeValue{
			"PK": &types.AttributeValueMemberS{Value: "OWNER#objects-dec"}, "SK": &types.AttributeValueMemberS{Value: "CUSTOMER#" + id},
			"_type": &types.AttributeValueMemberS{Value: "Shopper"}, "region": &types.AttributeValueMemberS{Value: "objects-dec"},
			"customerId": &types.AttributeValueMemberS{Value: id}, "address": address,
		}
		if previous != nil {
			item["previous"] = previous
		}
		_, err := raw.PutItem(ctx, &dynamodb.PutItemInput{TableName: &s.mainTable, Item: item})
		must(t, err)
	}
	str := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	m := func(kv ...any) types.AttributeValue {
		out := map[string]types.AttributeValue{}
		for i := 0; i < len(kv); i += 2 {
			out[kv[i].(string)] = kv[i+1].(types.AttributeValue)
		}
		return &types.AttributeValueMemberM{Value: out}
	}
	put("extra", m("street", str("s"), "zip", str("z"), "city", str("c"), "country", str("XX")), nil)
	put("nozip", m("street", str("s"), "city", str("c")), nil)
	put("badgeo", m("street", str("s"), "zip", str("z"), "city", str("c"), "geo", m("lat", str("north"), "lng", &types.AttributeValueMemberN{Value: "1"})), nil)
	put("badlist", m("street", str("s"), "zip", str("z"), "city", str("c")),
		&types.AttributeValueMemberL{Value: []types.AttributeValue{m("street", str("s"), "zip", str("z"), "city", str("c")), m("street", str("s"), "zip", str("z"))}})
	put("notmap", str("1 Main St"), nil)

	got, err := s.GetShopper(ctx, ShopperKey{Region: "objects-dec", CustomerID: "extra"})
	must(t, err)
	if want := (Address{Street: "s", Zip: "z", City: "c"}); !reflect.DeepEqual(got.Address, want) {
		t.Errorf("a map with a field beyond the type's: %+v, want %+v", got.Address, want)
	}
	for id, path := range map[string]string{"nozip": "address.zip", "badgeo": "address.geo.lat", "badlist": "previous[1].city", "notmap": "address"} {
		_, err := s.GetShopper(ctx, ShopperKey{Region: "objects-dec", CustomerID: id})
		var ie *ItemError
		if !errors.As(err, &ie) || ie.Attr != path || ie.Entity != "Shopper" {
			t.Errorf("%s: %v, want an ItemError of Shopper.%s", id, err, path)
		}
	}
}

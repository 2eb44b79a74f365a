package e2e

import (
	"errors"
	"reflect"
	"testing"
)

// TestPathsUpdate: an update of address.zip writes that field alone (SET
// #address.#zip), the other fields of the object and the other
// attributes kept; a remove of fields and an add to a field do the same.
func TestPathsUpdate(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t, nil)
	ctx := t.Context()
	c := newShopper("paths-up", "c1")
	must(t, s.PutShopper(ctx, c))

	got, err := s.UpdateShopperZip(ctx, UpdateShopperZipParams{Region: "paths-up", CustomerID: "c1", AddressZip: "67890"})
	must(t, err)
	want := *c
	want.Address.Zip = "67890"
	if !reflect.DeepEqual(got, &want) {
		t.Errorf("after the zip's update: %+v, want %+v", got, &want)
	}

	got, err = s.ForgetKind(ctx, ForgetKindParams{Region: "paths-up", CustomerID: "c1"})
	must(t, err)
	want.Address.Kind, want.Address.Geo = nil, nil
	if !reflect.DeepEqual(got, &want) {
		t.Errorf("after the remove of address.kind and address.geo: %+v, want %+v", got, &want)
	}

	for i := 1; i <= 2; i++ {
		got, err = s.CountVisit(ctx, CountVisitParams{Region: "paths-up", CustomerID: "c1", AddressKind: new(AddressKindWork)})
		must(t, err)
		if got.Address.Visits == nil || *got.Address.Visits != int64(i) || got.Address.Kind == nil || *got.Address.Kind != AddressKindWork {
			t.Errorf("after %d visits: %+v", i, got.Address)
		}
	}
	want.Address.Visits, want.Address.Kind = new(int64(2)), new(AddressKindWork)
	if !reflect.DeepEqual(got, &want) {
		t.Errorf("after the visits: %+v, want %+v", got, &want)
	}

	// A field's value is checked before the call, named by its path.
	_, err = s.UpdateShopperZip(ctx, UpdateShopperZipParams{Region: "paths-up", CustomerID: "c1", AddressZip: "12345678901"})
	var ie *ItemError
	if !errors.As(err, &ie) || ie.Attr != "address.zip" || ie.Entity != "Shopper" {
		t.Errorf("a zip longer than its maxLength: %v, want an ItemError of Shopper.address.zip", err)
	}
	if _, err := s.UpdateShopperZip(ctx, UpdateShopperZipParams{Region: "paths-up", CustomerID: "none", AddressZip: "1"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("an update of a missing item: %v, want ErrNotFound", err)
	}
}

// TestPathsAbsentParent: a write into billing.city, an optional object,
// when the item has no billing fails with ErrConditionFailed (DynamoDB
// would refuse the call: the update conditions on attribute_exists
// (#billing)); with billing there, it changes the city alone. Its when
// on address.city holds or fails as a condition on an attribute does.
func TestPathsAbsentParent(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t, nil)
	ctx := t.Context()
	c := newShopper("paths-parent", "c1")
	bare := *c
	bare.CustomerID, bare.Billing = "c2", nil
	must(t, s.PutShopper(ctx, c))
	must(t, s.PutShopper(ctx, &bare))

	_, err := s.SetBillingCity(ctx, SetBillingCityParams{Region: "paths-parent", CustomerID: "c2", BillingCity: "x", AddressCity: c.Address.City})
	if !errors.Is(err, ErrConditionFailed) {
		t.Errorf("a write into an absent billing: %v, want ErrConditionFailed", err)
	}
	_, err = s.SetBillingCity(ctx, SetBillingCityParams{Region: "paths-parent", CustomerID: "c1", BillingCity: "x", AddressCity: "elsewhere"})
	if !errors.Is(err, ErrConditionFailed) {
		t.Errorf("a when on address.city that does not hold: %v, want ErrConditionFailed", err)
	}
	got, err := s.SetBillingCity(ctx, SetBillingCityParams{Region: "paths-parent", CustomerID: "c1", BillingCity: "Ogdenville", AddressCity: c.Address.City})
	must(t, err)
	want := *c
	want.Billing = &Address{Street: c.Billing.Street, Zip: c.Billing.Zip, City: "Ogdenville"}
	if !reflect.DeepEqual(got, &want) {
		t.Errorf("after the billing city's update: %+v, want %+v", got, &want)
	}
}

// TestPathsFilter: a filter on address.zip (beginsWith) and on
// billing.geo.lat (exists) reads the fields in the stored maps.
func TestPathsFilter(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t, nil)
	ctx := t.Context()
	a := newShopper("paths-filter", "a")
	a.Billing.Geo = &Geo{Lat: 1, Lng: 2}
	b := newShopper("paths-filter", "b")
	b.Billing.Geo = &Geo{Lat: 3, Lng: 4}
	b.Address.Zip = "99000"
	c := newShopper("paths-filter", "c") // no billing.geo
	for _, x := range []*Shopper{a, b, c} {
		must(t, s.PutShopper(ctx, x))
	}
	page, err := s.ShoppersInZip(ctx, ShoppersInZipParams{Region: "paths-filter", AddressZip: "123"}, Page{})
	must(t, err)
	if len(page.Items) != 1 || page.Items[0].CustomerID != "a" {
		t.Errorf("customers with a zip beginning 123 and a billing geo: %+v, want a", page.Items)
	}
}

package workbench_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dyngen/dyngen/example/bookreviews"
	"github.com/dyngen/dyngen/example/orders"
	"github.com/dyngen/dyngen/example/retail"
	"github.com/dyngen/dyngen/example/storeinventory"
	"github.com/dyngen/dyngen/example/telemetryhub"
	"github.com/dyngen/dyngen/internal/e2e"
	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/spec"
)

// entityItem is what the generated type of every entity has.
type entityItem interface {
	MarshalItem() (map[string]types.AttributeValue, error)
	UnmarshalItem(map[string]types.AttributeValue) error
}

// wbPackages are the generated packages whose workbench.json the test
// reads, with the type of each facet (the entity's Go name).
var wbPackages = []struct {
	dir      string
	entities map[string]func() entityItem
}{
	{"../../../example/bookreviews", map[string]func() entityItem{
		"Book":           func() entityItem { return new(bookreviews.Book) },
		"User":           func() entityItem { return new(bookreviews.User) },
		"Review":         func() entityItem { return new(bookreviews.Review) },
		"UserEmailClaim": func() entityItem { return new(bookreviews.UserEmailClaim) },
	}},
	{"../../../example/orders", map[string]func() entityItem{
		"CartItem":      func() entityItem { return new(orders.CartItem) },
		"Order":         func() entityItem { return new(orders.Order) },
		"OrderLine":     func() entityItem { return new(orders.OrderLine) },
		"TrackingEvent": func() entityItem { return new(orders.TrackingEvent) },
	}},
	{"../../../example/retail", map[string]func() entityItem{
		"Customer":     func() entityItem { return new(retail.Customer) },
		"Invoice":      func() entityItem { return new(retail.Invoice) },
		"InvoiceOrder": func() entityItem { return new(retail.InvoiceOrder) },
		"Order":        func() entityItem { return new(retail.Order) },
	}},
	{"../../../example/storeinventory", map[string]func() entityItem{
		"Good":          func() entityItem { return new(storeinventory.Good) },
		"StoreMetadata": func() entityItem { return new(storeinventory.StoreMetadata) },
	}},
	{"../../../example/telemetryhub", map[string]func() entityItem{
		"Account":      func() entityItem { return new(telemetryhub.Account) },
		"Membership":   func() entityItem { return new(telemetryhub.Membership) },
		"ServiceGroup": func() entityItem { return new(telemetryhub.ServiceGroup) },
		"User":         func() entityItem { return new(telemetryhub.User) },
	}},
	{"../../e2e", map[string]func() entityItem{
		"Account":            func() entityItem { return new(e2e.Account) },
		"AccountEmailClaim":  func() entityItem { return new(e2e.AccountEmailClaim) },
		"AdminTheme":         func() entityItem { return new(e2e.AdminTheme) },
		"Block":              func() entityItem { return new(e2e.Block) },
		"Counter":            func() entityItem { return new(e2e.Counter) },
		"Customer":           func() entityItem { return new(e2e.Customer) },
		"CustomerByEmail":    func() entityItem { return new(e2e.CustomerByEmail) },
		"Event":              func() entityItem { return new(e2e.Event) },
		"Follow":             func() entityItem { return new(e2e.Follow) },
		"Gauge":              func() entityItem { return new(e2e.Gauge) },
		"Lease":              func() entityItem { return new(e2e.Lease) },
		"Ledger":             func() entityItem { return new(e2e.Ledger) },
		"Like":               func() entityItem { return new(e2e.Like) },
		"Member":             func() entityItem { return new(e2e.Member) },
		"Note":               func() entityItem { return new(e2e.Note) },
		"Photo":              func() entityItem { return new(e2e.Photo) },
		"Pin":                func() entityItem { return new(e2e.Pin) },
		"Profile":            func() entityItem { return new(e2e.Profile) },
		"Shopper":            func() entityItem { return new(e2e.Shopper) },
		"PullRequest":        func() entityItem { return new(e2e.PullRequest) },
		"ProfileHandleClaim": func() entityItem { return new(e2e.ProfileHandleClaim) },
		"Purchase":           func() entityItem { return new(e2e.Purchase) },
		"Reading":            func() entityItem { return new(e2e.Reading) },
		"Repo":               func() entityItem { return new(e2e.Repo) },
		"Theme":              func() entityItem { return new(e2e.Theme) },
		"Post":               func() entityItem { return new(e2e.Post) },
		"Vault":              func() entityItem { return new(e2e.Vault) },
		"Widget":             func() entityItem { return new(e2e.Widget) },
		"LoanCount":          func() entityItem { return new(e2e.LoanCount) },
		"Book":               func() entityItem { return new(e2e.Book) },
		"Tool":               func() entityItem { return new(e2e.Tool) },
		"Parcel":             func() entityItem { return new(e2e.Parcel) },
		"ParcelsByState":     func() entityItem { return new(e2e.ParcelsByState) },
		"FragileParcels":     func() entityItem { return new(e2e.FragileParcels) },
		// Unique values of several attributes, normalised, per element.
		"Patron":                    func() entityItem { return new(e2e.Patron) },
		"PatronLibraryIDEmailClaim": func() entityItem { return new(e2e.PatronLibraryIDEmailClaim) },
		"Login":                     func() entityItem { return new(e2e.Login) },
		"LoginEmailClaim":           func() entityItem { return new(e2e.LoginEmailClaim) },
		"Gear":                      func() entityItem { return new(e2e.Gear) },
		"GearBarcodesClaim":         func() entityItem { return new(e2e.GearBarcodesClaim) },
		"Crate":                     func() entityItem { return new(e2e.Crate) },
		"CrateLabels":               func() entityItem { return new(e2e.CrateLabels) },
		"LabelledCrates":            func() entityItem { return new(e2e.LabelledCrates) },
		"Bin":                       func() entityItem { return new(e2e.Bin) },
		"BinSlots":                  func() entityItem { return new(e2e.BinSlots) },
	}},
}

// TestWorkbenchItemsRoundTrip checks every sample item of the generated
// workbench.json files against the package it was generated with: the
// entity's UnmarshalItem reads it, and its MarshalItem, which builds and
// checks the keys of every index from the values read, writes exactly
// the sample item back. So the samples hold the keys the generated code
// builds, and only values it accepts. And the item is live when the
// model is opened: its time to live, read by the package, is after now
// (the Store treats an item whose ttl is at or before its clock as
// absent), and the times the Store stamps (created, updated) are not after
// now, the created time not after the updated one.
func TestWorkbenchItemsRoundTrip(t *testing.T) {
	now := time.Now()
	for _, pkg := range wbPackages {
		t.Run(filepath.Base(pkg.dir), func(t *testing.T) {
			entities := specEntities(t, filepath.Join(pkg.dir, "spec.yaml"))
			data, err := os.ReadFile(filepath.Join(pkg.dir, "workbench.json"))
			if err != nil {
				t.Fatal(err)
			}
			var m struct {
				DataModel []struct {
					TableName   string
					TableFacets []struct {
						FacetName string
						TableData []map[string]json.RawMessage
					}
				}
			}
			if err := json.Unmarshal(data, &m); err != nil {
				t.Fatal(err)
			}
			seen := map[string]bool{}
			for _, tb := range m.DataModel {
				for _, f := range tb.TableFacets {
					newItem := pkg.entities[f.FacetName]
					if newItem == nil {
						t.Errorf("table %s: facet %s is no entity the test knows", tb.TableName, f.FacetName)
						continue
					}
					seen[f.FacetName] = true
					if len(f.TableData) == 0 {
						t.Errorf("facet %s has no sample item", f.FacetName)
					}
					for i, raw := range f.TableData {
						item, err := decodeItem(raw)
						if err != nil {
							t.Fatalf("facet %s, item %d: %v", f.FacetName, i, err)
						}
						e := newItem()
						if err := e.UnmarshalItem(item); err != nil {
							t.Errorf("facet %s, item %d: UnmarshalItem: %v", f.FacetName, i, err)
							continue
						}
						back, err := e.MarshalItem()
						if err != nil {
							t.Errorf("facet %s, item %d: MarshalItem of what UnmarshalItem read: %v", f.FacetName, i, err)
							continue
						}
						if !reflect.DeepEqual(back, item) {
							t.Errorf("facet %s, item %d: the package writes\n%s\nthe model holds\n%s", f.FacetName, i, showItem(back), showItem(item))
						}
						checkSampleTimes(t, fmt.Sprintf("facet %s, item %d", f.FacetName, i), entities[f.FacetName], e, now)
					}
				}
			}
			for name := range pkg.entities {
				if !seen[name] {
					t.Errorf("entity %s has no facet", name)
				}
			}
		})
	}
}

// sampleClient answers every GetItem with one item.
type sampleClient struct {
	e2e.Client
	item map[string]types.AttributeValue
}

func (c sampleClient) GetItem(context.Context, *dynamodb.GetItemInput, ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	return &dynamodb.GetItemOutput{Item: c.item}, nil
}

// TestWorkbenchSampleNotExpired reads the sample Widget, an entity that
// stores its table's ttl, through a Store on the clock: the Store finds
// it, as it would once the model is committed to a table.
func TestWorkbenchSampleNotExpired(t *testing.T) {
	item := sampleItem(t, "../../e2e/workbench.json", "Widget")
	var w e2e.Widget
	if err := w.UnmarshalItem(item); err != nil {
		t.Fatal(err)
	}
	s := e2e.New(sampleClient{item: item})
	got, err := s.GetWidget(t.Context(), e2e.WidgetKey{OwnerID: w.OwnerID, WidgetID: w.WidgetID})
	if err != nil {
		t.Fatalf("GetWidget of the sample item: %v", err)
	}
	if got.ExpiresAt == nil {
		t.Errorf("the sample Widget has no time to live")
	}
}

// sampleItem is the sample item of facet in the workbench model at path.
func sampleItem(t *testing.T, path, facet string) map[string]types.AttributeValue {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		DataModel []struct {
			TableFacets []struct {
				FacetName string
				TableData []map[string]json.RawMessage
			}
		}
	}
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	for _, tb := range m.DataModel {
		for _, f := range tb.TableFacets {
			if f.FacetName == facet && len(f.TableData) > 0 {
				item, err := decodeItem(f.TableData[0])
				if err != nil {
					t.Fatal(err)
				}
				return item
			}
		}
	}
	t.Fatalf("%s: no sample item of %s", path, facet)
	return nil
}

// specEntities resolves the spec at path and returns its entities by Go
// name, the names of the facets.
func specEntities(t *testing.T, path string) map[string]*model.Entity {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, diags := spec.Parse(path, src)
	m := model.Resolve(f, diags)
	if diags.HasErrors() {
		t.Fatal(diags.Err())
	}
	out := map[string]*model.Entity{}
	for _, tb := range m.Tables {
		for _, e := range tb.Entities {
			out[e.GoName] = e
		}
	}
	return out
}

// checkSampleTimes checks the times of sample item v (of entity e, as
// its package read it) against now: its ttl after now, its created and
// updated times not after now, created not after updated.
func checkSampleTimes(t *testing.T, what string, e *model.Entity, v entityItem, now time.Time) {
	t.Helper()
	if e == nil {
		t.Errorf("%s: no entity of the spec has this Go name", what)
		return
	}
	at := func(a *model.Attribute) (time.Time, bool) {
		if a == nil {
			return time.Time{}, false
		}
		f := reflect.ValueOf(v).Elem().FieldByName(a.GoName)
		if f.Kind() == reflect.Pointer {
			if f.IsNil() {
				return time.Time{}, false
			}
			f = f.Elem()
		}
		tm, ok := f.Interface().(time.Time)
		if !ok {
			t.Fatalf("%s: field %s of %s is %s, not a time", what, a.GoName, e.GoName, f.Type())
		}
		return tm, true
	}
	if tm, ok := at(e.TTLAttr()); ok && !tm.After(now) {
		t.Errorf("%s: time to live %s (%s) is not after now: the Store reads the item as expired", what, tm.UTC().Format(time.RFC3339), e.TTLAttr().Name)
	} else if e.TTLAttr() != nil && !ok {
		t.Errorf("%s: no time to live %s", what, e.TTLAttr().Name)
	}
	created, hasCreated := at(e.Created)
	updated, hasUpdated := at(e.Updated)
	if hasCreated && created.After(now) {
		t.Errorf("%s: created %s is after now", what, created.UTC().Format(time.RFC3339))
	}
	if hasUpdated && updated.After(now) {
		t.Errorf("%s: updated %s is after now", what, updated.UTC().Format(time.RFC3339))
	}
	if hasCreated && hasUpdated && created.After(updated) {
		t.Errorf("%s: created %s is after updated %s", what, created.UTC().Format(time.RFC3339), updated.UTC().Format(time.RFC3339))
	}
}

// decodeItem reads an item in DynamoDB's JSON form.
func decodeItem(raw map[string]json.RawMessage) (map[string]types.AttributeValue, error) {
	item := make(map[string]types.AttributeValue, len(raw))
	for name, r := range raw {
		v, err := decodeValue(r)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		item[name] = v
	}
	return item, nil
}

// decodeValue reads an attribute value in DynamoDB's JSON form: an
// object of one member, named by its type.
func decodeValue(r json.RawMessage) (types.AttributeValue, error) {
	var v map[string]json.RawMessage
	if err := json.Unmarshal(r, &v); err != nil {
		return nil, err
	}
	if len(v) != 1 {
		return nil, fmt.Errorf("%s is not one typed value", r)
	}
	for typ, c := range v {
		var err error
		switch typ {
		case "S":
			var s string
			err = json.Unmarshal(c, &s)
			return &types.AttributeValueMemberS{Value: s}, err
		case "N":
			var s string
			err = json.Unmarshal(c, &s)
			return &types.AttributeValueMemberN{Value: s}, err
		case "B":
			var s string
			if err = json.Unmarshal(c, &s); err != nil {
				return nil, err
			}
			b, err := base64.StdEncoding.DecodeString(s)
			return &types.AttributeValueMemberB{Value: b}, err
		case "BOOL":
			var b bool
			err = json.Unmarshal(c, &b)
			return &types.AttributeValueMemberBOOL{Value: b}, err
		case "NULL":
			return &types.AttributeValueMemberNULL{Value: true}, nil
		case "SS":
			var ss []string
			err = json.Unmarshal(c, &ss)
			return &types.AttributeValueMemberSS{Value: ss}, err
		case "NS":
			var ns []string
			err = json.Unmarshal(c, &ns)
			return &types.AttributeValueMemberNS{Value: ns}, err
		case "L":
			var raws []json.RawMessage
			if err = json.Unmarshal(c, &raws); err != nil {
				return nil, err
			}
			l := make([]types.AttributeValue, len(raws))
			for i, e := range raws {
				if l[i], err = decodeValue(e); err != nil {
					return nil, err
				}
			}
			return &types.AttributeValueMemberL{Value: l}, nil
		case "M":
			var raws map[string]json.RawMessage
			if err = json.Unmarshal(c, &raws); err != nil {
				return nil, err
			}
			m, err := decodeItem(raws)
			return &types.AttributeValueMemberM{Value: m}, err
		}
		return nil, fmt.Errorf("unknown attribute value type %q", typ)
	}
	return nil, nil
}

// showItem prints an item for a failure message, its attributes sorted.
func showItem(item map[string]types.AttributeValue) string {
	names := make([]string, 0, len(item))
	for n := range item {
		names = append(names, n)
	}
	sort.Strings(names)
	s := ""
	for _, n := range names {
		s += fmt.Sprintf("  %s: %#v\n", n, item[n])
	}
	return s
}

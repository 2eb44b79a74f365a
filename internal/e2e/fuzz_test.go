package e2e

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// keyPart reports whether s may stand in a string key placeholder whose
// template separators are seps: non-empty valid UTF-8 without them.
func keyPart(s, seps string) bool {
	return s != "" && utf8.ValidString(s) && !strings.ContainsAny(s, seps)
}

// pathOK reports whether p is a path that may stand in a key with
// separator sep: at least one element, each a key part.
func pathOK(p []string, sep string) bool {
	if len(p) == 0 {
		return false
	}
	for _, e := range p {
		if !keyPart(e, sep) {
			return false
		}
	}
	return true
}

// numberOK reports whether DynamoDB stores f as a number.
func numberOK(f float64) bool {
	a := math.Abs(f)
	return a == 0 || a >= 1e-130 && a < 1e126
}

func yearOK(y int) bool { return 0 <= y && y <= 9999 }

// splitPath cuts a fuzz string into path elements at "|" (so that an
// element may hold the path's own separator); "" is the empty path.
func splitPath(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, "|")
}

// FuzzMarshalRoundTrip builds items of every attribute type from the fuzz
// inputs: MarshalItem refuses exactly the values the spec refuses, with
// ErrInvalidKey or ErrInvalidItem, and UnmarshalItem gives back what
// MarshalItem was given (times at the precision of their format).
func FuzzMarshalRoundTrip(f *testing.F) {
	f.Add("o", "w", "name", int64(-42), 19.99, true, int64(1), int64(1_700_000_000), int64(123456789), int64(1_700_000_000), int64(1_700_000_000_123), int64(1_709_164_800), int64(2_000_000_000), []byte{0, 1}, "a", "", "x", int64(-3), "k", "v", "live", "Electronics|Laptops", "eu", "S-1", "gadget")
	f.Add("", "", "", int64(0), 0.0, false, int64(0), int64(0), int64(0), int64(0), int64(0), int64(0), int64(0), []byte(nil), "", "", "", int64(0), "", "", "", "", "", "", "")
	f.Add("o#", "w/x", strings.Repeat("é", 101), int64(1_000_001), math.NaN(), false, int64(-1), int64(253_402_300_800), int64(-1), int64(-1), int64(-1), int64(-62_167_219_201), int64(-1), []byte{}, "\xff", "\x00", "", int64(math.MinInt64), "", "\xff", "gone", "a|b/c", "e#u", "s#", "k")
	f.Add("ünï", "日本", "🎉", int64(-1_000_000), math.Inf(1), true, int64(math.MaxInt64), int64(-62_135_596_800), int64(999_999_999), int64(math.MinInt64/2), int64(math.MaxInt64), int64(253_402_214_400), int64(0), []byte("b"), "", "t", "ss", int64(1<<62), "", "", "draft", "||", "r", "", "")
	f.Add(strings.Repeat("o", 1018), strings.Repeat("i", 1017), "n", int64(5), 1e-131, false, int64(2), int64(5), int64(5), int64(5), int64(5), int64(5), int64(5), []byte{9}, "a", "b", "c", int64(1), "k", "", "retired", "x", "", "", "")
	f.Add("o", "w", "n", int64(5), 9.999999999999999e125, false, int64(2), int64(-62_167_219_200), int64(0), int64(5), int64(5), int64(5), int64(5), []byte{9}, "a", "b", "c", int64(1), "k", "", "retired", "x", "r", "", "")
	// The zero time as a time to live: refused.
	f.Add("o", "w", "name", int64(-42), 19.99, true, int64(1), int64(1_700_000_000), int64(123456789), int64(1_700_000_000), int64(1_700_000_000_123), int64(1_709_164_800), int64(-62_135_596_800), []byte{0, 1}, "a", "", "x", int64(-3), "k", "v", "live", "Electronics|Laptops", "eu", "S-1", "gadget")
	f.Fuzz(func(t *testing.T, owner, id, name string, count int64, price float64, active bool, version, csec, cnsec, usec, ms, dsec, exp int64,
		blob []byte, tag1, tag2, label string, size int64, akey, aval, status, cat, region, serial, kind string) {
		created := time.Unix(csec, cnsec).In(plus0530)
		day := time.Unix(dsec, 0).UTC().Truncate(24 * time.Hour)
		// An empty or zero input is an absent optional attribute (nil); the
		// Reading below gives its optional attributes present zeros too.
		var expires *time.Time
		if exp != 0 {
			expires = new(time.Unix(exp, 0))
		}
		var regionPtr, kindPtr *string
		if region != "" {
			regionPtr = new(region)
		}
		if kind != "" {
			kindPtr = new(kind)
		}
		var labels []string
		if label != "" {
			labels = []string{label, label + "2"}
		}
		extra := &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{tag1: &types.AttributeValueMemberN{Value: "1"}}}
		w := Widget{
			OwnerID: owner, WidgetID: id, Name: name, Count: count, Price: price, Active: active, Version: version,
			CreatedAt: created, UpdatedAt: time.Unix(usec, 0), SeenAt: time.UnixMilli(ms), Day: day, ExpiresAt: expires,
			Blob: blob, Tags: []string{tag1, tag2}, Labels: labels, Sizes: []int64{size, size / 2}, Attrs: map[string]string{akey: aval},
			Status: WidgetStatus(status), Extra: extra, Category: splitPath(cat), Region: regionPtr, Serial: serial, KindName: kindPtr,
		}
		if size == 0 {
			w.Sizes = nil
		}
		valid := keyPart(owner, "#") && len("OWNER#"+owner) <= 1024 &&
			keyPart(id, "#/") && len("WIDGET#"+id) <= 1024 &&
			pathOK(w.Category, "/") && len("CAT/"+strings.Join(w.Category, "/")+"/"+id) <= 1024 &&
			(region == "" || keyPart(region, "#") && len("REGION#"+region) <= 2048 && len("SERIAL#"+serial) <= 1024) &&
			keyPart(serial, "#") && len("SERIAL#"+serial) <= 2048 &&
			utf8.RuneCountInString(name) <= 100 &&
			// Strings are refused when they are not valid UTF-8.
			utf8.ValidString(name) && utf8.ValidString(tag1) && utf8.ValidString(tag2) &&
			utf8.ValidString(label) && utf8.ValidString(akey) && utf8.ValidString(aval) && utf8.ValidString(kind) &&
			-1_000_000 <= count && count <= 1_000_000 &&
			numberOK(price) &&
			slices.Contains([]WidgetStatus{WidgetStatusDraft, WidgetStatusLive, WidgetStatusRetired}, w.Status) &&
			yearOK(created.UTC().Year()) && yearOK(day.Year()) &&
			// A time to live, when present, is not the zero time.
			(expires == nil || !expires.IsZero())
		item, err := w.MarshalItem()
		if err != nil {
			if !errors.Is(err, ErrInvalidKey) && !errors.Is(err, ErrInvalidItem) {
				t.Fatalf("MarshalItem: %v, neither ErrInvalidKey nor ErrInvalidItem", err)
			}
			if valid {
				t.Fatalf("MarshalItem refused a valid widget: %v", err)
			}
		} else {
			if !valid {
				t.Fatalf("MarshalItem accepted an invalid widget %+v", w)
			}
			var got Widget
			if err := got.UnmarshalItem(item); err != nil {
				t.Fatalf("UnmarshalItem(MarshalItem(w)): %v", err)
			}
			var d diff
			d.eq("OwnerID", got.OwnerID, w.OwnerID)
			d.eq("WidgetID", got.WidgetID, w.WidgetID)
			d.eq("Name", got.Name, w.Name)
			d.eq("Count", got.Count, w.Count)
			if got.Price != w.Price {
				d = append(d, "Price")
			}
			d.eq("Active", got.Active, w.Active)
			d.eq("Version", got.Version, w.Version)
			d.time("CreatedAt", got.CreatedAt, w.CreatedAt)
			d.time("UpdatedAt", got.UpdatedAt, w.UpdatedAt)
			d.time("SeenAt", got.SeenAt, w.SeenAt)
			d.time("Day", got.Day, w.Day)
			d.ptime("ExpiresAt", got.ExpiresAt, w.ExpiresAt)
			if !bytes.Equal(got.Blob, w.Blob) {
				d = append(d, "Blob")
			}
			d.strs("Tags", got.Tags, w.Tags)
			d.strs("Labels", got.Labels, w.Labels)
			if !slices.Equal(got.Sizes, w.Sizes) {
				d = append(d, "Sizes")
			}
			if !maps.Equal(got.Attrs, w.Attrs) {
				d = append(d, "Attrs")
			}
			d.eq("Status", got.Status, w.Status)
			d.eq("Extra", got.Extra, w.Extra)
			d.strs("Category", got.Category, w.Category)
			d.eq("Region", got.Region, w.Region)
			d.eq("Serial", got.Serial, w.Serial)
			d.eq("KindName", got.KindName, w.KindName)
			d.report(t, "Widget round trip")
		}

		// A path that is not in a key: the empty path is a path too.
		p := Pin{OwnerID: "o", PinID: "p", Label: name, Folder: splitPath(cat)}
		pinValid := utf8.ValidString(name)
		for _, e := range p.Folder {
			pinValid = pinValid && e != "" && !strings.Contains(e, "#") && utf8.ValidString(e)
		}
		item, err = p.MarshalItem()
		switch {
		case err != nil && (pinValid || !errors.Is(err, ErrInvalidItem)):
			t.Fatalf("Pin.MarshalItem with folder %q: %v", p.Folder, err)
		case err == nil && !pinValid:
			t.Fatalf("Pin.MarshalItem accepted folder %q", p.Folder)
		case err == nil:
			var got Pin
			if err := got.UnmarshalItem(item); err != nil {
				t.Fatalf("Pin.UnmarshalItem: %v", err)
			}
			if !reflect.DeepEqual(got.Label, p.Label) || !slices.Equal(got.Folder, p.Folder) || got.OwnerID != "o" || got.PinID != "p" {
				t.Fatalf("Pin round trip: %+v, want %+v", got, p)
			}
		}

		// Natural keys of type N, a unixMilli time, optional attributes.
		r := Reading{DeviceID: count, Seq: version, Value: price, At: time.UnixMilli(ms), Hits: new(size), Unit: new(kind)}
		item, err = r.MarshalItem()
		switch {
		case err != nil && (numberOK(price) && utf8.ValidString(kind) || !errors.Is(err, ErrInvalidItem)):
			t.Fatalf("Reading.MarshalItem with value %v and unit %q: %v", price, kind, err)
		case err == nil && !(numberOK(price) && utf8.ValidString(kind)):
			t.Fatalf("Reading.MarshalItem accepted value %v and unit %q", price, kind)
		case err == nil:
			var got Reading
			if err := got.UnmarshalItem(item); err != nil {
				t.Fatalf("Reading.UnmarshalItem: %v", err)
			}
			if got.DeviceID != r.DeviceID || got.Seq != r.Seq || got.Value != r.Value || !got.At.Equal(r.At) || !reflect.DeepEqual(got.Hits, r.Hits) || !reflect.DeepEqual(got.Unit, r.Unit) {
				t.Fatalf("Reading round trip: %+v, want %+v", got, r)
			}
		}
	})
}

// FuzzKeyOrder checks that the key builders of Event keep order: an int
// sort key placeholder (negative values too) and a time one (sub-second
// values, any zone) give key texts that sort as the values do.
func FuzzKeyOrder(f *testing.F) {
	f.Add(int64(-1), int64(1), int64(0), int64(500_000_000), int64(0), int64(0))
	f.Add(int64(math.MinInt64), int64(math.MaxInt64), int64(-62_135_596_800), int64(0), int64(253_402_300_799), int64(999_999_999))
	f.Add(int64(-10), int64(-9), int64(1_614_970_496), int64(0), int64(1_614_970_496), int64(500_000_000))
	f.Add(int64(9), int64(10), int64(1_614_970_496), int64(1), int64(1_614_970_495), int64(999_999_999))
	f.Add(int64(-100), int64(-2), int64(-62_167_219_200), int64(0), int64(-62_167_219_201), int64(0))
	f.Fuzz(func(t *testing.T, a, b, asec, ansec, bsec, bnsec int64) {
		ka, err1 := eventSK(a)
		kb, err2 := eventSK(b)
		if err1 != nil || err2 != nil {
			t.Fatalf("eventSK(%d), eventSK(%d): %v, %v", a, b, err1, err2)
		}
		if got, want := strings.Compare(ka, kb), cmp.Compare(a, b); got != want {
			t.Fatalf("seq %d vs %d: keys %q vs %q compare %d, want %d", a, b, ka, kb, got, want)
		}
		ta := time.Unix(asec, ansec).In(plus0530)
		tb := time.Unix(bsec, bnsec).In(time.FixedZone("-07:00", -7*3600))
		la, err1 := eventLSI1SK(ta)
		lb, err2 := eventLSI1SK(tb)
		for _, c := range []struct {
			t   time.Time
			err error
		}{{ta, err1}, {tb, err2}} {
			ok := yearOK(c.t.UTC().Year())
			if ok != (c.err == nil) {
				t.Fatalf("eventLSI1SK(%s): %v", c.t.Format(time.RFC3339Nano), c.err)
			}
			var ke *KeyError
			if c.err != nil && !errors.As(c.err, &ke) {
				t.Fatalf("eventLSI1SK(%s): %v, not a KeyError", c.t.Format(time.RFC3339Nano), c.err)
			}
		}
		if err1 != nil || err2 != nil {
			return
		}
		if got, want := strings.Compare(la, lb), ta.Compare(tb); got != want {
			t.Fatalf("at %s vs %s: keys %q vs %q compare %d, want %d", ta.Format(time.RFC3339Nano), tb.Format(time.RFC3339Nano), la, lb, got, want)
		}
	})
}

// FuzzObjectsRoundTrip builds Shoppers from the fuzz inputs, with typed
// nested objects at every depth the spec has: an Address (with an optional
// Geo inside it), an optional billing Address and a list of Addresses.
// MarshalItem refuses a key part with a *KeyError and any other value the
// spec refuses with an *ItemError naming the field's path (as
// "previous[1].geo.lat"), never a panic; what it accepts, UnmarshalItem
// gives back equal (dates as instants, floats by value).
func FuzzObjectsRoundTrip(f *testing.F) {
	f.Add("eu", "c1", "1 Main St", "12345", "Springfield", "home", int64(1_583_280_000), 48.85, 2.35, true, "Flat 2", int64(3), "99999", -1.5, uint8(2))
	f.Add("", "", "", "", "", "", int64(0), 0.0, 0.0, false, "", int64(0), "", 0.0, uint8(0))
	f.Add("e#u", "c", "s", "z", "c", "", int64(0), 0.0, 0.0, false, "", int64(0), "", 0.0, uint8(0))
	f.Add("eu", "c", "\xff", "12345678901", "c", "office", int64(-62_167_219_201), 90.5, -180.5, true, "\xff", int64(1001), "z\xff", math.NaN(), uint8(3))
	f.Add("eu", "c", "s", "éééééééééé", "c", "work", int64(253_402_214_400), -90.0, 180.0, true, "", int64(-1), "1234567890", 1e-131, uint8(1))
	f.Add("eu", "c", "s", "z", "c", "", int64(0), 1e-130, -0.0, true, "", int64(1000), "z", math.Inf(-1), uint8(3))
	f.Fuzz(func(t *testing.T, region, id, street, zip, city, kind string, since int64, lat, lng float64, geo bool,
		line string, visits int64, zip2 string, lat2 float64, n uint8) {
		a := Address{Street: street, Zip: zip, City: city}
		if kind != "" {
			a.Kind = new(AddressKind(kind))
		}
		if since != 0 {
			// A date: midnight UTC, as a date reads back.
			a.Since = new(time.Unix(since, 0).UTC().Truncate(24 * time.Hour))
		}
		if geo {
			a.Geo = &Geo{Lat: lat, Lng: lng}
		}
		if line != "" {
			a.Lines = []string{line, street}
		}
		if visits != 0 {
			a.Visits = new(visits)
		}
		c := Shopper{Region: region, CustomerID: id, Address: a}
		if n&1 != 0 {
			c.Billing = &Address{Street: city, Zip: zip2, City: street, Geo: &Geo{Lat: lat2, Lng: lng}}
		}
		// Up to three earlier addresses; the last one has the second zip
		// and latitude, so that an element after valid ones is refused.
		for i := range int(n>>1) % 4 {
			p := Address{Street: street, Zip: "z", City: city, Visits: new(int64(i))}
			if i == int(n>>1)%4-1 {
				p.Zip, p.Geo = zip2, &Geo{Lat: lat2, Lng: 0}
			}
			c.Previous = append(c.Previous, p)
		}

		// The path of the first field the spec refuses, "" when none.
		wantAttr := ""
		if e := addressFault(&c.Address); e != "" {
			wantAttr = "address." + e
		} else if e := addressFault(c.Billing); e != "" {
			wantAttr = "billing." + e
		} else {
			for i := range c.Previous {
				if e := addressFault(&c.Previous[i]); e != "" {
					wantAttr = "previous[" + strconv.Itoa(i) + "]." + e
					break
				}
			}
		}
		keyOK := keyPart(region, "#") && len("OWNER#"+region) <= 1024 && keyPart(id, "#") && len("CUSTOMER#"+id) <= 1024

		item, err := c.MarshalItem()
		var ke *KeyError
		var ie *ItemError
		switch {
		case !keyOK:
			if !errors.As(err, &ke) {
				t.Fatalf("MarshalItem of region %q, id %q: %v, want a *KeyError", region, id, err)
			}
		case wantAttr != "":
			if !errors.As(err, &ie) || ie.Entity != "Shopper" || ie.Attr != wantAttr {
				t.Fatalf("MarshalItem: %v (%#v), want an *ItemError of Shopper.%s", err, ie, wantAttr)
			}
		case err != nil:
			t.Fatalf("MarshalItem refused a valid shopper: %v", err)
		default:
			var got Shopper
			if err := got.UnmarshalItem(item); err != nil {
				t.Fatalf("UnmarshalItem(MarshalItem(c)): %v", err)
			}
			var d diff
			d.eq("Region", got.Region, c.Region)
			d.eq("CustomerID", got.CustomerID, c.CustomerID)
			d.address("Address", &got.Address, &c.Address)
			d.address("Billing", got.Billing, c.Billing)
			if len(got.Previous) != len(c.Previous) {
				d = append(d, fmt.Sprintf("Previous has %d addresses, want %d", len(got.Previous), len(c.Previous)))
			} else {
				for i := range c.Previous {
					d.address("Previous["+strconv.Itoa(i)+"]", &got.Previous[i], &c.Previous[i])
				}
			}
			d.report(t, "Shopper round trip")
		}
	})
}

// addressFault is the path of the first field of a (nil: none) that the
// spec's Address and Geo refuse, in the order of their fields; "" when
// every field holds.
func addressFault(a *Address) string {
	inRange := func(f, lim float64) bool { return -lim <= f && f <= lim && numberOK(f) }
	switch {
	case a == nil:
		return ""
	case !utf8.ValidString(a.Street):
		return "street"
	case utf8.RuneCountInString(a.Zip) > 10 || !utf8.ValidString(a.Zip):
		return "zip"
	case !utf8.ValidString(a.City):
		return "city"
	case a.Kind != nil && *a.Kind != AddressKindHome && *a.Kind != AddressKindWork:
		return "kind"
	case a.Since != nil && !yearOK(a.Since.Year()):
		return "since"
	case a.Geo != nil && !inRange(a.Geo.Lat, 90):
		return "geo.lat"
	case a.Geo != nil && !inRange(a.Geo.Lng, 180):
		return "geo.lng"
	case slices.IndexFunc(a.Lines, func(s string) bool { return !utf8.ValidString(s) }) >= 0:
		return "lines"
	case a.Visits != nil && (*a.Visits < 0 || *a.Visits > 1000):
		return "visits"
	}
	return ""
}

// address compares two optional addresses field by field: dates as
// instants, floats by value, an empty list as an absent one.
func (d *diff) address(field string, got, want *Address) {
	if got == nil || want == nil {
		if got != want {
			*d = append(*d, fmt.Sprintf("%s = %s, want %s", field, show(got), show(want)))
		}
		return
	}
	d.eq(field+".Street", got.Street, want.Street)
	d.eq(field+".Zip", got.Zip, want.Zip)
	d.eq(field+".City", got.City, want.City)
	d.eq(field+".Kind", got.Kind, want.Kind)
	d.ptime(field+".Since", got.Since, want.Since)
	switch {
	case got.Geo == nil && want.Geo == nil:
	case got.Geo == nil || want.Geo == nil || got.Geo.Lat != want.Geo.Lat || got.Geo.Lng != want.Geo.Lng:
		*d = append(*d, fmt.Sprintf("%s.Geo = %s, want %s", field, show(got.Geo), show(want.Geo)))
	}
	d.strs(field+".Lines", got.Lines, want.Lines)
	d.eq(field+".Visits", got.Visits, want.Visits)
}

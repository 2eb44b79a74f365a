package model

import "testing"

// TestStoredFormOfEveryType checks that every type and time format has a
// stored form, and the rules the emitters print by: a value with no
// writer is a scalar member or a document, every type but the document
// has a reader, a key encoding that keeps order has a width, and only
// what DynamoDB can't store empty is written only when not zero.
func TestStoredFormOfEveryType(t *testing.T) {
	var attrs []*Attribute
	for _, typ := range Types {
		if typ != Time {
			attrs = append(attrs, &Attribute{Name: string(typ), Type: typ})
			continue
		}
		for _, f := range TimeFormats {
			attrs = append(attrs, &Attribute{Name: "time " + string(f), Type: Time, Format: f})
		}
	}
	for _, a := range attrs {
		f := a.StoredForm()
		if f.Go == GoAny {
			t.Errorf("%s: no stored form", a.Name)
		}
		if f.Writer == "" {
			switch f.Dynamo {
			case "S", "B", "BOOL":
			case "any":
				if a.Type != Document {
					t.Errorf("%s: stored as any", a.Name)
				}
			default:
				t.Errorf("%s: stored as %s with no writer", a.Name, f.Dynamo)
			}
		}
		if (f.Reader == "") != (a.Type == Document) {
			t.Errorf("%s: reader %q", a.Name, f.Reader)
		}
		if f.Key.KeepsOrder && f.Key.Width == 0 {
			t.Errorf("%s: keeps order with no width", a.Name)
		}
		if f.Dynamo == "S" && f.Key.Func == "" {
			t.Errorf("%s: stored as S but can't be in a string key", a.Name)
		}
		wantOmit := a.Type == StringSet || a.Type == IntSet || a.Type == Document
		if f.OmitZero != wantOmit || f.Always == wantOmit {
			t.Errorf("%s: OmitZero %v, Always %v", a.Name, f.OmitZero, f.Always)
		}
		a.Optional = true
		if a.StoredForm().Always {
			t.Errorf("%s: optional but always written", a.Name)
		}
	}
}

// TestStoredFormOfTTL checks that the table's ttl attribute is stored in
// epoch seconds, as a number, whatever its format says.
func TestStoredFormOfTTL(t *testing.T) {
	a := &Attribute{Name: "expires", Type: Time, Format: RFC3339, TTL: true}
	f := a.StoredForm()
	if f.Dynamo != "N" || f.Base != BaseUnix || f.Reader != "unix" || f.Key.Arg != BaseUnix {
		t.Errorf("ttl stored as %+v", f)
	}
}

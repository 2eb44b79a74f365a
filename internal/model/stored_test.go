package model

import "testing"

// TestStoredFormOfEveryType checks that every type and time format has a
// stored form, and the rules the emitters print by: a value with no
// writer is a scalar member, a document or an object (written and read
// by its own generated methods), every type but those has a reader, a key encoding that keeps order has a width, and only
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
		object := a.Type == Object || a.Type == Objects
		if object != (f.Go == GoObject || f.Go == GoObjects) {
			t.Errorf("%s: Go kind %v", a.Name, f.Go)
		}
		if object && (f.Writer != "" || f.Reader != "") {
			t.Errorf("%s: writer %q, reader %q; an object's are its methods", a.Name, f.Writer, f.Reader)
		}
		if f.Writer == "" && !object {
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
		if (f.Reader == "") != (a.Type == Document || object) {
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
	if f.Dynamo != "N" || f.Base != BaseUnix || f.Reader != "Unix" || f.Key.Arg != BaseUnix {
		t.Errorf("ttl stored as %+v", f)
	}
}

// TestTakesEmpty: a placeholder may hold "" only where the value is an
// optional string's and the key still holds literal text: a required
// string, an enum, a whole key and a natural key refuse it, and so does
// an N key.
func TestTakesEmpty(t *testing.T) {
	opt := &Attribute{Name: "topic", Type: String, Optional: true}
	req := &Attribute{Name: "id", Type: String}
	enum := &Attribute{Name: "level", Type: Enum, Optional: true, Values: []string{"low"}}
	num := &Attribute{Name: "n", Type: Int, Optional: true}
	tm := func(kt ScalarType, implied bool, segs ...Segment) *Template {
		return &Template{KeyType: kt, Implied: implied, Segments: segs}
	}
	lit := func(s string) Segment { return Segment{Literal: s} }
	ph := func(a *Attribute) Segment { return Segment{Attr: a} }
	for _, c := range []struct {
		name string
		tm   *Template
		a    *Attribute
		want bool
	}{
		{"TOPIC#{topic}", tm(S, false, lit("TOPIC#"), ph(opt)), opt, true},
		{"{topic}#{id}", tm(S, false, ph(opt), lit("#"), ph(req)), opt, true},
		{"{topic}#{id}, id", tm(S, false, ph(opt), lit("#"), ph(req)), req, false},
		{"{topic}", tm(S, false, ph(opt)), opt, false},
		{"natural topic", tm(S, true, ph(opt)), opt, false},
		{"L#{level}", tm(S, false, lit("L#"), ph(enum)), enum, false},
		{"{n} (N)", tm(N, false, ph(num)), num, false},
	} {
		if got := c.tm.TakesEmpty(c.a); got != c.want {
			t.Errorf("%s: TakesEmpty(%s) = %v, want %v", c.name, c.a.Name, got, c.want)
		}
		if f := c.tm.KeyForm(c.a).Func; (f == "KeyStringOrEmpty") != c.want {
			t.Errorf("%s: KeyForm(%s).Func = %s", c.name, c.a.Name, f)
		}
	}
}

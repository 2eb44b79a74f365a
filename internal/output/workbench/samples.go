package workbench

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/plan"
)

// The sample items of the NoSQL Workbench model: an item of every entity,
// with a value of every attribute, and the key attributes the generated
// code writes for those values. The values are fixed (the same spec gives
// the same items) and pass the package's own rules: its MarshalItem writes
// the same item from what its UnmarshalItem reads of it.

// SampleValue is an attribute value in DynamoDB's JSON form: its type and
// what it holds.
type SampleValue struct {
	// Type is the attribute value type: S, N, B, BOOL, L, SS, NS or M.
	Type string
	// Text is the value of an S or N, the bytes of a B.
	Text string
	// Bool is the value of a BOOL.
	Bool bool
	// List holds the elements of an L.
	List []SampleValue
	// Set holds the members of an SS or NS.
	Set []string
	// Map holds the members of an M, sorted by name.
	Map []SampleAttr
}

// SampleAttr is one attribute of a sample item.
type SampleAttr struct {
	Name  string
	Value SampleValue
}

// Facet is what NoSQL Workbench shows of one entity of a table: its key
// aliases, the non-key attributes its items hold, and a sample item.
type Facet struct {
	Entity *model.Entity
	// PKAlias and SKAlias name the table's key attributes for the entity:
	// its primary key templates (KeyAlias); SKAlias is "" when the table
	// has no sort key.
	PKAlias, SKAlias string
	// NonKey are the stored names of the attributes its items hold
	// besides the table's key attributes: the key attributes of its
	// secondary indexes, the entity attribute, then its own attributes in
	// spec order.
	NonKey []string
	// Item is the sample item: the table's key attributes, then the
	// attributes NonKey names, in that order.
	Item []SampleAttr
}

// NonKeyAttr is an attribute the items of a table hold besides its key
// attributes, with the type of its values.
type NonKeyAttr struct {
	Name string
	Type string
}

// Workbench is what the NoSQL Workbench model shows of table d: the
// attributes its items hold besides its key attributes, and a facet per
// entity, in spec order.
type Workbench struct {
	NonKey []NonKeyAttr
	Facets []*Facet
}

// WorkbenchOf returns what the NoSQL Workbench model shows of table d.
// An attribute stored under one name by several entities is listed once,
// with the type of the first entity that stores it.
func WorkbenchOf(d *plan.TableDef) (*Workbench, error) {
	w := &Workbench{}
	seen := map[string]bool{}
	addNonKey := func(name, typ string) {
		if !seen[name] && !d.Table.IsKeyAttr(name) {
			seen[name] = true
			w.NonKey = append(w.NonKey, NonKeyAttr{name, typ})
		}
	}
	for _, a := range d.Attributes {
		addNonKey(a.Name, string(a.Type))
	}
	for _, e := range d.Table.Entities {
		item, err := SampleItem(e)
		if err != nil {
			return nil, err
		}
		f := &Facet{Entity: e, PKAlias: KeyAlias(e.PrimaryKey().PK), Item: item}
		if sk := e.PrimaryKey().SK; sk != nil {
			f.SKAlias = KeyAlias(sk)
		}
		for _, a := range item {
			if d.Table.IsKeyAttr(a.Name) {
				continue
			}
			f.NonKey = append(f.NonKey, a.Name)
			addNonKey(a.Name, a.Value.Type)
		}
		w.Facets = append(w.Facets, f)
	}
	return w, nil
}

// KeyAlias is how a facet names a key attribute built from template t:
// the template as written ("BOOK#{isbn}"), or the attribute's name when
// the template is that attribute alone (a natural key).
func KeyAlias(t *model.Template) string {
	if len(t.Segments) == 1 && t.Segments[0].Attr != nil {
		return t.Segments[0].Attr.Name
	}
	return t.String()
}

// SampleItem returns an item of entity e as its generated MarshalItem
// writes it, each attribute holding its sample value (SampleOf): first the
// key attributes of every index e is in, in the table's index order, then
// the entity attribute, then e's attributes in spec order.
func SampleItem(e *model.Entity) ([]SampleAttr, error) {
	vals := map[*model.Attribute]SampleValue{}
	for _, a := range e.Attributes {
		vals[a] = SampleOf(a)
	}
	var item []SampleAttr
	has := func(name string) bool {
		return slices.ContainsFunc(item, func(x SampleAttr) bool { return x.Name == name })
	}
	for _, k := range e.Keys {
		for i, ka := range k.Index.KeyAttrs() {
			if has(ka.Name) {
				continue
			}
			v, err := KeyValue(ka.Type, k.AttrTemplates()[i], vals)
			if err != nil {
				return nil, fmt.Errorf("the sample item of %s: %s: %w", e.Name, ka.Name, err)
			}
			item = append(item, SampleAttr{ka.Name, v})
		}
	}
	item = append(item, SampleAttr{e.Table.EntityAttr, SampleValue{Type: "S", Text: e.TypeValue}})
	for _, a := range e.Attributes {
		if !has(a.Stored) {
			item = append(item, SampleAttr{a.Stored, vals[a]})
		}
	}
	return item, nil
}

// KeyValue is the value of a key attribute of type kt that template t
// builds from the values of its placeholders, as the generated code
// builds it: a string key from the text of each value in its key form
// (the key language's Render: fixed-width numbers and times, checked
// strings), a number or bytes key from its one placeholder's value.
func KeyValue(kt model.ScalarType, t *model.Template, vals map[*model.Attribute]SampleValue) (SampleValue, error) {
	if kt != model.S {
		attrs := t.Attrs()
		if len(attrs) != 1 || len(t.Segments) != 1 {
			return SampleValue{}, fmt.Errorf("a %s key template is one placeholder, not %q", kt, t.Source)
		}
		v := vals[attrs[0]]
		if v.Type != string(kt) {
			return SampleValue{}, fmt.Errorf("{%s} is stored as %s, not %s", attrs[0].Name, v.Type, kt)
		}
		return v, nil
	}
	user := map[string]string{}
	for _, a := range t.Attrs() {
		text, ok := vals[a].scalarText()
		if !ok {
			return SampleValue{}, fmt.Errorf("{%s} can't be part of a string key", a.Name)
		}
		user[a.Name] = text
	}
	s, err := plan.KeyTemplate(t).Render(user)
	if err != nil {
		return SampleValue{}, err
	}
	return SampleValue{Type: "S", Text: s}, nil
}

// scalarText is the text of a scalar value as it is stored: the form the
// key language takes it in (see keylang.EncodeValue).
func (v SampleValue) scalarText() (string, bool) {
	switch v.Type {
	case "S", "N":
		return v.Text, true
	case "BOOL":
		return strconv.FormatBool(v.Bool), true
	}
	return "", false
}

// SampleTime is the instant of every sample time but the time to live: a
// time in the past, as a created or updated time the Store stamps is.
var SampleTime = time.Date(2025, time.January, 2, 3, 4, 5, 0, time.UTC)

// SampleExpiry is the sample time to live (the table's ttl attribute): far
// in the future, so that the sample item has not expired for the Store,
// which treats an item whose ttl is at or before its clock as absent.
var SampleExpiry = time.Date(2999, time.January, 2, 3, 4, 5, 0, time.UTC)

// SampleOf returns the sample value of attribute a, as its item stores
// it: a string is its name's letters and digits and "1" (cut to its
// maxLength), which holds no key separator; a number is 1 (1.5 for a
// float), or its min or max when 1 is outside them; a bool true; a time
// SampleTime in its format (SampleExpiry for the ttl); an enum its first
// value; a path two elements; a list, set or map one element; a document a
// string.
func SampleOf(a *model.Attribute) SampleValue {
	word := sampleWord(a)
	switch a.Type {
	case model.String:
		return SampleValue{Type: "S", Text: word}
	case model.Enum:
		return SampleValue{Type: "S", Text: a.Values[0]}
	case model.Int:
		n := int64(1)
		if a.Min != nil && n < a.Min.Int {
			n = a.Min.Int
		}
		if a.Max != nil && n > a.Max.Int {
			n = a.Max.Int
		}
		return SampleValue{Type: "N", Text: strconv.FormatInt(n, 10)}
	case model.Float:
		f := 1.5
		if a.Min != nil && f < a.Min.Float {
			f = a.Min.Float
		}
		if a.Max != nil && f > a.Max.Float {
			f = a.Max.Float
		}
		return SampleValue{Type: "N", Text: model.FloatText(f)}
	case model.Bool:
		return SampleValue{Type: "BOOL", Bool: true}
	case model.Time:
		at := SampleTime
		if a.TTL {
			at = SampleExpiry
		}
		f := a.StoredForm()
		switch f.Base {
		case model.BaseUnix:
			return SampleValue{Type: "N", Text: strconv.FormatInt(at.Unix(), 10)}
		case model.BaseUnixMilli:
			return SampleValue{Type: "N", Text: strconv.FormatInt(at.UnixMilli(), 10)}
		}
		if f.Text == model.TextDate {
			return SampleValue{Type: "S", Text: at.Format("2006-01-02")}
		}
		return SampleValue{Type: "S", Text: at.Format("2006-01-02T15:04:05.000000000Z")}
	case model.Bytes:
		return SampleValue{Type: "B", Text: word}
	case model.Strings:
		return SampleValue{Type: "L", List: []SampleValue{{Type: "S", Text: word}}}
	case model.StringSet:
		return SampleValue{Type: "SS", Set: []string{word}}
	case model.IntSet:
		return SampleValue{Type: "NS", Set: []string{"1"}}
	case model.Map:
		return SampleValue{Type: "M", Map: []SampleAttr{{"key", SampleValue{Type: "S", Text: "value"}}}}
	case model.Object, model.Objects:
		var fields []SampleAttr
		for _, f := range a.Of.Fields {
			fields = append(fields, SampleAttr{f.Stored, SampleOf(f)})
		}
		slices.SortFunc(fields, func(x, y SampleAttr) int { return strings.Compare(x.Name, y.Name) })
		m := SampleValue{Type: "M", Map: fields}
		if a.Type == model.Objects {
			return SampleValue{Type: "L", List: []SampleValue{m}}
		}
		return m
	case model.Path:
		if two := word + string(a.Separator) + "2"; a.MaxLength == 0 || utf8.RuneCountInString(two) <= a.MaxLength {
			return SampleValue{Type: "S", Text: two}
		}
		return SampleValue{Type: "S", Text: word}
	}
	return SampleValue{Type: "S", Text: word}
}

// sampleWord is the sample text of attribute a: the ASCII letters and
// digits of its name, then "1", cut to its maxLength.
func sampleWord(a *model.Attribute) string {
	var b strings.Builder
	for _, r := range a.Name {
		if r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			b.WriteRune(r)
		}
	}
	if b.Len() == 0 {
		b.WriteString("x")
	}
	b.WriteString("1")
	w := b.String()
	if a.MaxLength > 0 && len(w) > a.MaxLength {
		w = w[:a.MaxLength]
	}
	return w
}

package model

import (
	"math"
	"strconv"

	"github.com/dyngen/dyngen/internal/keylang"
)

// StoredForm describes how an attribute's Go value is stored: the
// attribute value its item holds, how that value is made and read back,
// which values DynamoDB refuses, and how the value is written into a
// string key. Attribute.StoredForm decides it, from the type and the time
// format; the planner and the generator look their choices up in it
// rather than deciding by type again.
type StoredForm struct {
	// Dynamo is the attribute value type the item holds: S, N, B, BOOL,
	// L, SS, NS, M, or "any" for a document, kept as DynamoDB stores it.
	Dynamo string
	// Go is the kind of the field's Go type.
	Go GoKind
	// Always is set when the attribute is written even when zero: it is
	// required, and DynamoDB stores its zero value (see OmitZero).
	Always bool
	// OmitZero is set when DynamoDB does not store the zero value (an
	// empty set, a nil document): the attribute is written only when it
	// holds something, even when required.
	OmitZero bool
	// Pointer is set when the attribute is optional and its Go type a
	// scalar (string, enum, int, float, bool, time) or an object: its
	// field is a pointer, nil when the item lacks it, so that a zero
	// value is a value. An optional list, set, map, path, bytes or document is its
	// Go type, absent when nil or empty (Attribute.Optional's doc says
	// why).
	Pointer bool
	// Base is what of the Go value is stored; Text and Writer take it.
	Base Base
	// Text is how Base becomes the value of a scalar member (S, N, B,
	// BOOL).
	Text Text
	// Writer is the runtime function that makes the attribute value from
	// Base (IntValue, StringsValue, ...); "" when the value is a member
	// holding Text, or (a document) the Go value itself.
	Writer string
	// Reader is the ItemDecoder method that reads the value back
	// (String, Unix, ...); "" for a document, which is the item's value.
	Reader string
	// Storable is the runtime test of a value DynamoDB can't store or
	// dyngen can't read back.
	Storable Storable
	// UTF8 is the runtime test that the value's strings are valid UTF-8,
	// which DynamoDB requires.
	UTF8 UTF8
	// Key is how the value is written into a string key.
	Key KeyForm
}

// KeyForm is how an attribute's value is written into a string key:
// by a runtime function, called with the attribute's name first when it
// can fail (Checked), then Arg, then what the flags add.
type KeyForm struct {
	// Lang is the key language of the placeholder. A number stands as
	// Int (in a key of type N, any two numbers can be equal).
	Lang keylang.Kind
	// Func is the runtime encoding function; "" when the attribute can't
	// be part of a string key.
	Func string
	// Checked is set when Func takes the attribute's name and returns an
	// error: its result is declared once, and the error checked.
	Checked bool
	// Arg is what of the Go value Func takes.
	Arg Base
	// Valid adds whether an enum's value is one of its values.
	Valid bool
	// PathSep adds the path's separator.
	PathSep bool
	// Seps adds the key's separators, which the value must not hold.
	Seps bool
	// KeepsOrder is set when the text sorts like the values (fixed width
	// where needed), wherever it stands in a template.
	KeepsOrder bool
	// Width is the most bytes the text takes whatever the value; 0 when
	// it depends on the attribute's maxLength or enum values, or is
	// unbounded.
	Width int
	// Number is the runtime function that checks a value standing as a
	// whole key of type N and returns its text, called with the
	// attribute's name: a float DynamoDB can't store is a KeyError before
	// any call. "" when every value is a number DynamoDB stores (an int,
	// a time's epoch seconds), written by Text.
	Number string
}

// GoKind is the kind of an attribute's Go type.
type GoKind int

const (
	GoAny       GoKind = iota // an unknown type
	GoString                  // string
	GoInt64                   // int64
	GoFloat64                 // float64
	GoBool                    // bool
	GoTime                    // time.Time
	GoBytes                   // []byte
	GoStrings                 // []string
	GoInt64s                  // []int64
	GoStringMap               // map[string]string
	GoEnum                    // the attribute's enum type, a string
	GoDocument                // types.AttributeValue
	GoObject                  // the struct of the attribute's object type
	GoObjects                 // a slice of them
)

// Scalar reports whether values of the kind are single values (string,
// enum, int64, float64, bool, time.Time), rather than slices, maps or
// documents.
func (k GoKind) Scalar() bool {
	switch k {
	case GoString, GoEnum, GoInt64, GoFloat64, GoBool, GoTime:
		return true
	}
	return false
}

// Base is what of a Go value v is stored.
type Base int

const (
	BaseValue     Base = iota // v
	BaseString                // string(v), an enum's text
	BaseJoined                // a path's elements joined by its separator
	BaseUnix                  // v.Unix()
	BaseUnixMilli             // v.UnixMilli()
)

// Text is how a stored Base becomes the value of a scalar member.
type Text int

const (
	TextBase  Text = iota // the base itself
	TextTime              // formatTime: UTC, nine fraction digits
	TextDate              // formatDate: YYYY-MM-DD
	TextInt               // strconv.FormatInt, base 10
	TextFloat             // formatFloat: shortest, in plain digits as DynamoDB writes it
)

// Storable is a runtime test of values DynamoDB can't store, or dyngen
// can't read back.
type Storable int

const (
	StorableAll   Storable = iota // every value is stored
	StorableFloat                 // a number DynamoDB stores
	StorableDate                  // a date in the years 0000-9999
	StorableTime                  // a time in the years 0000-9999, in UTC
)

// UTF8 is a runtime test that the strings of a value are valid UTF-8.
type UTF8 int

const (
	UTF8None    UTF8 = iota // no strings, or checked otherwise
	UTF8String              // a string
	UTF8Strings             // a list or set of strings
	UTF8Map                 // a map's keys and values
	// UTF8Object: an object's fields, checked by its validate method
	// with the rest of its constraints.
	UTF8Object
)

// typeForms are the stored forms of the types; a time's depends on its
// format (timeForms).
var typeForms = map[Type]StoredForm{
	String: {Dynamo: "S", Go: GoString, Reader: "String", UTF8: UTF8String,
		Key: KeyForm{Lang: keylang.String, Func: "KeyString", Checked: true, Seps: true}},
	Int: {Dynamo: "N", Go: GoInt64, Text: TextInt, Writer: "IntValue", Reader: "Int",
		Key: KeyForm{Lang: keylang.Int, Func: "KeyInt", KeepsOrder: true, Width: 20}},
	Float: {Dynamo: "N", Go: GoFloat64, Text: TextFloat, Writer: "FloatValue", Reader: "Float", Storable: StorableFloat,
		Key: KeyForm{Lang: keylang.Int, Number: "KeyFloat"}},
	Bool: {Dynamo: "BOOL", Go: GoBool, Reader: "Bool",
		Key: KeyForm{Lang: keylang.Bool, Func: "KeyBool", KeepsOrder: true, Width: 5}},
	Bytes:     {Dynamo: "B", Go: GoBytes, Reader: "Bytes"},
	Strings:   {Dynamo: "L", Go: GoStrings, Writer: "StringsValue", Reader: "Strings", UTF8: UTF8Strings},
	StringSet: {Dynamo: "SS", Go: GoStrings, OmitZero: true, Writer: "StringSetValue", Reader: "StringSet", UTF8: UTF8Strings},
	IntSet:    {Dynamo: "NS", Go: GoInt64s, OmitZero: true, Writer: "IntSetValue", Reader: "IntSet"},
	Map:       {Dynamo: "M", Go: GoStringMap, Writer: "MapValue", Reader: "StringMap", UTF8: UTF8Map},
	Enum: {Dynamo: "S", Go: GoEnum, Base: BaseString, Reader: "String",
		Key: KeyForm{Lang: keylang.Enum, Func: "KeyEnum", Checked: true, Arg: BaseString, Valid: true, Seps: true}},
	Document: {Dynamo: "any", Go: GoDocument, OmitZero: true},
	// An object is written by its generated value method, read by its
	// decode method, and checked by its validate method (UTF8Object).
	Object:  {Dynamo: "M", Go: GoObject, UTF8: UTF8Object},
	Objects: {Dynamo: "L", Go: GoObjects, UTF8: UTF8Object},
	Path: {Dynamo: "S", Go: GoStrings, Base: BaseJoined, Reader: "Path",
		Key: KeyForm{Lang: keylang.Path, Func: "KeyPath", Checked: true, PathSep: true, Seps: true}},
}

// timeForms are the stored forms of a time, by format.
var timeForms = map[TimeFormat]StoredForm{
	RFC3339: {Dynamo: "S", Go: GoTime, Text: TextTime, Reader: "Time", Storable: StorableTime,
		Key: KeyForm{Lang: keylang.Time, Func: "KeyTime", Checked: true, KeepsOrder: true, Width: 30}},
	Date: {Dynamo: "S", Go: GoTime, Text: TextDate, Reader: "Date", Storable: StorableDate,
		Key: KeyForm{Lang: keylang.Date, Func: "KeyDate", Checked: true, KeepsOrder: true, Width: 10}},
	Unix: {Dynamo: "N", Go: GoTime, Base: BaseUnix, Text: TextInt, Writer: "IntValue", Reader: "Unix",
		Key: KeyForm{Lang: keylang.Int, Func: "KeyInt", Arg: BaseUnix, KeepsOrder: true, Width: 20}},
	UnixMilli: {Dynamo: "N", Go: GoTime, Base: BaseUnixMilli, Text: TextInt, Writer: "IntValue", Reader: "UnixMilli",
		Key: KeyForm{Lang: keylang.Int, Func: "KeyInt", Arg: BaseUnixMilli, KeepsOrder: true, Width: 20}},
}

// StoredForm is how the attribute is stored. A time is stored by its
// format: RFC 3339 unless it says otherwise, epoch seconds when it is the
// table's ttl attribute.
func (a *Attribute) StoredForm() StoredForm {
	f, ok := typeForms[a.Type]
	if a.Type == Time {
		format := a.Format
		switch {
		case a.TTL:
			format = Unix
		case format == "":
			format = RFC3339
		}
		f, ok = timeForms[format]
	}
	if !ok {
		f = StoredForm{Dynamo: "any", Go: GoAny}
	}
	f.Always = !a.Optional && !f.OmitZero
	f.Pointer = a.Optional && (f.Go.Scalar() || f.Go == GoObject)
	return f
}

// GoType is the Go type of a value of attribute a of entity e, as Go
// source: a parameter's, a condition operand's; FieldType is its field's.
func GoType(e *Entity, a *Attribute) string {
	switch a.StoredForm().Go {
	case GoString:
		return "string"
	case GoInt64:
		return "int64"
	case GoFloat64:
		return "float64"
	case GoBool:
		return "bool"
	case GoTime:
		return "time.Time"
	case GoBytes:
		return "[]byte"
	case GoStrings:
		return "[]string"
	case GoInt64s:
		return "[]int64"
	case GoStringMap:
		return "map[string]string"
	case GoEnum:
		return EnumType(e, a)
	case GoDocument:
		return "types.AttributeValue"
	case GoObject:
		return a.Of.GoName
	case GoObjects:
		return "[]" + a.Of.GoName
	}
	return "any"
}

// FieldType is the Go type of attribute a's field in the struct of entity
// e: a pointer to its value for an optional scalar (nil when the item
// lacks it), its value's type otherwise.
func FieldType(e *Entity, a *Attribute) string {
	if a.StoredForm().Pointer {
		return "*" + GoType(e, a)
	}
	return GoType(e, a)
}

// FloatRange says which floats DynamoDB stores as a number (FloatStored).
const FloatRange = "zero, or 1e-130 to below 1e126 in magnitude"

// FloatStored reports whether DynamoDB stores f as a number: zero, or a
// magnitude from 1e-130 to below 1e126 (so neither NaN nor an infinity).
// The generated code checks it with the runtime's storableFloat.
func FloatStored(f float64) bool {
	a := math.Abs(f)
	return a == 0 || a >= 1e-130 && a < 1e126
}

// FloatText is a float as the generated code writes it, with the
// runtime's formatFloat: the shortest decimal that reads back as f, in
// plain digits as DynamoDB gives a number back (1e6 as 1000000, 1e-5 as
// 0.00001), negative zero as 0.
func FloatText(f float64) string {
	if f == 0 {
		return "0"
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

package generator

import (
	"github.com/dave/jennifer/jen"
	"github.com/dyngen/dyngen/internal/model"
)

// Printing an attribute's stored form (model.StoredForm, which decides
// it): its Go type and zero test, its attribute value and scalar text,
// the value read back, and the tests of values DynamoDB refuses. The key
// encodings are printed by encodeValue (emit_keys.go).

// goType is the Go type of an attribute's field.
func goType(ent *model.Entity, a *model.Attribute) jen.Code {
	switch a.StoredForm().Go {
	case model.GoString:
		return jen.String()
	case model.GoInt64:
		return jen.Int64()
	case model.GoFloat64:
		return jen.Float64()
	case model.GoBool:
		return jen.Bool()
	case model.GoTime:
		return jen.Qual("time", "Time")
	case model.GoBytes:
		return jen.Index().Byte()
	case model.GoStrings:
		return jen.Index().String()
	case model.GoInt64s:
		return jen.Index().Int64()
	case model.GoStringMap:
		return jen.Map(jen.String()).String()
	case model.GoEnum:
		return jen.Id(model.EnumType(ent, a))
	case model.GoDocument:
		return jen.Qual(pathTypes, "AttributeValue")
	}
	return jen.Any()
}

// isZero is the condition under which an optional attribute, of Go value
// v, is absent: v is its zero value.
func isZero(a *model.Attribute, v jen.Code) jen.Code { return zeroCheck(a, v, true) }

// notZero is the condition under which an optional attribute is present.
func notZero(a *model.Attribute, v jen.Code) jen.Code { return zeroCheck(a, v, false) }

// zeroCheck is the condition that v, a Go value of attribute a, is its
// zero value (zero) or is not (!zero), by the kind of its Go type.
func zeroCheck(a *model.Attribute, v jen.Code, zero bool) jen.Code {
	op := "!="
	if zero {
		op = "=="
	}
	switch a.StoredForm().Go {
	case model.GoString, model.GoEnum:
		return jen.Add(v).Op(op).Lit("")
	case model.GoInt64, model.GoFloat64:
		return jen.Add(v).Op(op).Lit(0)
	case model.GoDocument:
		return jen.Add(v).Op(op).Nil()
	case model.GoBool:
		if zero {
			return jen.Op("!").Add(v)
		}
		return v
	case model.GoTime:
		if zero {
			return jen.Add(v).Dot("IsZero").Call()
		}
		return jen.Op("!").Add(v).Dot("IsZero").Call()
	}
	if zero {
		return jen.Len(v).Op("==").Lit(0)
	}
	return jen.Len(v).Op(">").Lit(0)
}

// baseValue is what of v, a Go value of attribute a, is stored (or taken
// by a key encoding).
func baseValue(a *model.Attribute, base model.Base, v jen.Code) jen.Code {
	switch base {
	case model.BaseString:
		return jen.String().Parens(v)
	case model.BaseJoined:
		return jen.Qual("strings", "Join").Call(v, jen.Lit(string(a.Separator)))
	case model.BaseUnix:
		return jen.Add(v).Dot("Unix").Call()
	case model.BaseUnixMilli:
		return jen.Add(v).Dot("UnixMilli").Call()
	}
	return v
}

// textValue is the value of a scalar member made of a stored base x.
func textValue(text model.Text, x jen.Code) jen.Code {
	switch text {
	case model.TextTime:
		return jen.Id("formatTime").Call(x)
	case model.TextDate:
		return jen.Id("formatDate").Call(x)
	case model.TextInt:
		return jen.Qual("strconv", "FormatInt").Call(x, jen.Lit(10))
	case model.TextFloat:
		return jen.Qual("strconv", "FormatFloat").Call(x, jen.LitByte('g'), jen.Lit(-1), jen.Lit(64))
	}
	return x
}

// storedText is the value of the scalar member that stores v, a Go value
// of attribute a: its text (S, N), or its bytes or bool.
func storedText(a *model.Attribute, v jen.Code) jen.Code {
	f := a.StoredForm()
	return textValue(f.Text, baseValue(a, f.Base, v))
}

// memberValue is &types.AttributeValueMember<dynamo>{Value: v}.
func memberValue(dynamo string, v jen.Code) jen.Code {
	return jen.Op("&").Qual(pathTypes, "AttributeValueMember"+dynamo).Values(jen.Dict{jen.Id("Value"): v})
}

// attrValue is the attribute value of a Go value of attribute a.
func attrValue(a *model.Attribute, v jen.Code) jen.Code {
	f := a.StoredForm()
	x := baseValue(a, f.Base, v)
	switch {
	case f.Writer != "":
		return jen.Id(f.Writer).Call(x)
	case f.Dynamo == "any":
		return x
	}
	return memberValue(f.Dynamo, textValue(f.Text, x))
}

// decodeAttr is the Go value of attribute a of item, read by dec; a
// document is the item's value itself.
func decodeAttr(ent *model.Entity, a *model.Attribute) jen.Code {
	f := a.StoredForm()
	av := jen.Id("item").Index(jen.Lit(a.Stored))
	if f.Reader == "" {
		return av
	}
	args := []jen.Code{jen.Lit(a.Name), av}
	if f.Base == model.BaseJoined {
		args = append(args, jen.Lit(string(a.Separator)))
	}
	p := "optional"
	if f.Always {
		p = "required"
	}
	call := jen.Id("dec").Dot(f.Reader).Call(append(args, jen.Id(p))...)
	if f.Go == model.GoEnum {
		return jen.Id(model.EnumType(ent, a)).Parens(call)
	}
	return call
}

// unstorable is the condition under which v, a value of attribute a, is
// one DynamoDB can't store, or dyngen can't read back, and the reason;
// nil when every value is stored.
func unstorable(a *model.Attribute, v jen.Code) (jen.Code, string) {
	switch a.StoredForm().Storable {
	case model.StorableFloat:
		return jen.Op("!").Id("storableFloat").Call(v), "not a number DynamoDB stores (NaN, infinite, or outside 1e-130 to 1e126 in magnitude)"
	case model.StorableDate:
		return jen.Op("!").Id("storableYear").Call(jen.Add(v).Dot("Year").Call()), "a date outside the years 0000-9999"
	case model.StorableTime:
		return jen.Op("!").Id("storableYear").Call(jen.Add(v).Dot("UTC").Call().Dot("Year").Call()), "a time outside the years 0000-9999 (UTC)"
	}
	return nil, ""
}

// invalidUTF8 is the condition under which the strings of v, a value of
// attribute a, are not valid UTF-8, and the reason; nil when a holds no
// strings or is checked otherwise.
func invalidUTF8(a *model.Attribute, v jen.Code) (jen.Code, string) {
	switch a.StoredForm().UTF8 {
	case model.UTF8String:
		return jen.Op("!").Qual("unicode/utf8", "ValidString").Call(v), "not valid UTF-8"
	case model.UTF8Strings:
		return jen.Op("!").Id("validStrings").Call(v), "holds a string that is not valid UTF-8"
	case model.UTF8Map:
		return jen.Op("!").Id("validMap").Call(v), "holds a key or value that is not valid UTF-8"
	}
	return nil, ""
}

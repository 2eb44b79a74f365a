package golang

import (
	"reflect"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/plan"
)

// Printing an attribute's stored form (model.StoredForm, which decides
// it): its Go type and zero test, its attribute value and scalar text,
// the value read back, and the tests of values DynamoDB refuses. The key
// encodings are printed by encodeValue (emit_keys.go).

// goType is the Go type of a value of attribute a (model.GoType).
func goType(ent *model.Entity, a *model.Attribute) jen.Code { return typeCode(model.GoType(ent, a)) }

// fieldType is the Go type of an attribute's field in the entity's
// struct (model.FieldType).
func fieldType(ent *model.Entity, a *model.Attribute) jen.Code {
	return typeCode(model.FieldType(ent, a))
}

// typeCode prints a Go type the model or the plan wrote as source text:
// a name, time.Time or types.AttributeValue, after *, [] or map[string].
func typeCode(t string) jen.Code {
	switch {
	case strings.HasPrefix(t, "*"):
		return jen.Op("*").Add(typeCode(t[1:]))
	case strings.HasPrefix(t, "[]"):
		return jen.Index().Add(typeCode(t[2:]))
	case strings.HasPrefix(t, "map[string]"):
		return jen.Map(jen.String()).Add(typeCode(strings.TrimPrefix(t, "map[string]")))
	case t == "time.Time":
		return jen.Qual("time", "Time")
	case t == "types.AttributeValue":
		return jen.Qual(pathTypes, "AttributeValue")
	}
	return jen.Id(t)
}

// present is the condition under which v, a field of optional attribute a
// (or the parameter that sets it), holds a value: not nil for a pointer,
// not empty for a slice or map, not nil for a document.
func present(a *model.Attribute, v jen.Code) jen.Code {
	if a.StoredForm().Pointer {
		return jen.Add(v).Op("!=").Nil()
	}
	return zeroCheck(a, v, false)
}

// absent is the condition under which v, a field of optional attribute a
// (or the parameter that sets it), holds no value.
func absent(a *model.Attribute, v jen.Code) jen.Code {
	if a.StoredForm().Pointer {
		return jen.Add(v).Op("==").Nil()
	}
	return zeroCheck(a, v, true)
}

// deref is the value v, a field of attribute a (or the parameter that
// sets it), holds: *v for a pointer, which only code run when v is
// present reads; v itself otherwise.
func deref(a *model.Attribute, v jen.Code) jen.Code {
	if a.StoredForm().Pointer {
		return jen.Op("*").Add(v)
	}
	return v
}

// derefOp is the operator that starts what deref returns.
var derefOp = (*jen.Op("*"))[0]

// dot is v.name, a method of the value v: (*p).name when deref made v of
// a pointer p, so that the method is the value's.
func dot(v jen.Code, name string) *jen.Statement {
	if s, ok := v.(*jen.Statement); ok && len(*s) == 2 && reflect.DeepEqual((*s)[0], derefOp) {
		return jen.Parens(v).Dot(name)
	}
	return jen.Add(v).Dot(name)
}

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
			return dot(v, "IsZero").Call()
		}
		return jen.Op("!").Add(dot(v, "IsZero")).Call()
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
		return dot(v, "Unix").Call()
	case model.BaseUnixMilli:
		return dot(v, "UnixMilli").Call()
	}
	return v
}

// textValue is the value of a scalar member made of a stored base x.
func textValue(text model.Text, x jen.Code) jen.Code {
	switch text {
	case model.TextTime:
		return rt("FormatTime").Call(x)
	case model.TextDate:
		return rt("FormatDate").Call(x)
	case model.TextInt:
		return jen.Qual("strconv", "FormatInt").Call(x, jen.Lit(10))
	case model.TextFloat:
		return rt("FormatFloat").Call(x)
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
	switch f.Go {
	case model.GoObject:
		return dot(v, "value").Call()
	case model.GoObjects:
		return rt("ObjectsValue").Call(v, objectMethod(a, "value"))
	}
	switch {
	case f.Writer != "":
		return rt(f.Writer).Call(x)
	case f.Dynamo == "any":
		return x
	}
	return memberValue(f.Dynamo, textValue(f.Text, x))
}

// decodeAttr is the Go value of attribute a of item, read by dec: a
// pointer for an optional scalar (nil when the item lacks it or holds
// NULL), the default when the item lacks an attribute that has one; a
// document is the item's value itself.
func decodeAttr(ent *model.Entity, a *model.Attribute) jen.Code {
	return decodeFrom(ent, a, jen.Id("dec"), jen.Op("&").Id("dec"), jen.Id("item"))
}

// decodeFrom is decodeAttr with the decoder dec (decPtr, a pointer to
// it) and the map item of the attribute (an item, or an object's map).
func decodeFrom(ent *model.Entity, a *model.Attribute, dec, decPtr, item jen.Code) jen.Code {
	f := a.StoredForm()
	av := jen.Add(item).Index(jen.Lit(a.Stored))
	switch f.Go {
	case model.GoObject:
		if a.Optional {
			return rt("DecodeObjectPtr").Call(decPtr, jen.Lit(a.Name), av, objectMethod(a, "decode"))
		}
		return rt("DecodeObject").Call(decPtr, jen.Lit(a.Name), av, objectMethod(a, "decode"))
	case model.GoObjects:
		p := "Optional"
		if f.Always {
			p = "Required"
		}
		return rt("DecodeObjects").Call(decPtr, jen.Lit(a.Name), av, rt(p), objectMethod(a, "decode"))
	}
	if f.Reader == "" {
		if a.Optional {
			return rt("Document").Call(av)
		}
		return av
	}
	var call jen.Code
	switch {
	case f.Pointer:
		call = jen.Add(dec).Dot(f.Reader+"Ptr").Call(jen.Lit(a.Name), av)
		if f.Go == model.GoEnum {
			return jen.Parens(jen.Op("*").Id(model.EnumType(ent, a))).Parens(call)
		}
		return call
	case a.Default != nil:
		call = jen.Add(dec).Dot(f.Reader+"Or").Call(jen.Lit(a.Name), av, defaultValue(ent, a))
	default:
		args := []jen.Code{jen.Lit(a.Name), av}
		if f.Base == model.BaseJoined {
			args = append(args, jen.Lit(string(a.Separator)))
		}
		p := "Optional"
		if f.Always {
			p = "Required"
		}
		call = jen.Add(dec).Dot(f.Reader).Call(append(args, rt(p))...)
	}
	if f.Go == model.GoEnum {
		return jen.Id(model.EnumType(ent, a)).Parens(call)
	}
	return call
}

// defaultValue is an attribute's default as a Go value of its reader's
// type (an enum's as its text): the model checked it, and stores it as a
// constant of the spec is stored (model.StoredConst).
func defaultValue(ent *model.Entity, a *model.Attribute) jen.Code {
	dynamo, text := model.StoredConst(a, model.OpEq, a.Default.Text)
	if a.StoredForm().Go == model.GoEnum {
		return jen.Lit(text)
	}
	return goLiteral(ent, a, &plan.Literal{Dynamo: dynamo, Text: text})
}

// unstorable is the condition under which v, a value of attribute a, is
// one DynamoDB can't store, or dyngen can't read back, and the reason;
// nil when every value is stored.
func unstorable(a *model.Attribute, v jen.Code) (jen.Code, string) {
	switch a.StoredForm().Storable {
	case model.StorableFloat:
		return jen.Op("!").Add(rt("StorableFloat")).Call(v), "not a number DynamoDB stores (NaN, infinite, or outside 1e-130 to 1e126 in magnitude)"
	case model.StorableDate:
		return jen.Op("!").Add(rt("StorableYear")).Call(dot(v, "Year").Call()), "a date outside the years 0000-9999"
	case model.StorableTime:
		return jen.Op("!").Add(rt("StorableYear")).Call(dot(v, "UTC").Call().Dot("Year").Call()), "a time outside the years 0000-9999 (UTC)"
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
		return jen.Op("!").Add(rt("ValidStrings")).Call(v), "holds a string that is not valid UTF-8"
	case model.UTF8Map:
		return jen.Op("!").Add(rt("ValidMap")).Call(v), "holds a key or value that is not valid UTF-8"
	}
	return nil, ""
}

// objectMethod is the method expression (*T).name of the object type of
// attribute a.
func objectMethod(a *model.Attribute, name string) jen.Code {
	return jen.Parens(jen.Op("*").Id(a.Of.GoName)).Dot(name)
}

// objectCheck is the error of v, a value of object or objects attribute a,
// that breaks a constraint of its fields (nil when none does), named
// after entity ent (nil for an object's field) and a's path.
func objectCheck(ent *model.Entity, a *model.Attribute, v jen.Code) jen.Code {
	var err jen.Code
	if a.StoredForm().Go == model.GoObject {
		err = dot(v, "validate").Call()
	} else {
		err = rt("ValidateObjects").Call(v, objectMethod(a, "validate"))
	}
	entity := ""
	if ent != nil {
		entity = ent.Name
	}
	return rt("InObject").Call(jen.Lit(entity), jen.Lit(a.Name), err)
}

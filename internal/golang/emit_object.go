package golang

import (
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/dyngen/dyngen/internal/model"
)

// objectsFile emits the object types of the spec: for each, its enum
// types, its struct, and its three methods, which the runtime's object
// functions (ObjectsValue, ValidateObjects, DecodeObject...) and the
// entities' code call: validate (its fields' constraints), value (its
// map, field by field) and decode (its fields from a map).
func (e *emitter) objectsFile() *jen.File {
	f := e.newFile()
	for _, o := range e.p.Model.Objects {
		for _, a := range o.Fields {
			if a.Type == model.Enum {
				e.enum(f, nil, a)
			}
		}
		e.objectStruct(f, o)
		e.objectValidate(f, o)
		e.objectValue(f, o)
		e.objectDecode(f, o)
	}
	return f
}

// objectStruct emits an object type's struct, with the spec's docs.
func (e *emitter) objectStruct(f *jen.File, o *model.ObjectType) {
	if o.Doc != "" {
		comment(f, o.Doc)
		comment(f, "")
	}
	commentf(f, "%s is object %s, stored as a map (M) of its fields.", o.GoName, o.Name)
	f.Type().Id(o.GoName).StructFunc(func(g *jen.Group) {
		for _, a := range o.Fields {
			st := jen.Id(a.GoName).Add(fieldType(nil, a))
			switch note := strings.Join(fieldNotes(a), "; "); {
			case len(note) > maxTrailing:
				comment(g, capitalize(note)+".")
			case note != "":
				trailing(st, note)
			}
			g.Add(st)
		}
	})
	f.Line()
}

// objectValidate emits validate: the checks of the object's fields that
// every write of an attribute holding it runs, an *ItemError naming the
// field (the holder names the entity and the path: runtime.InObject).
func (e *emitter) objectValidate(f *jen.File, o *model.ObjectType) {
	comment(f, "validate checks o's fields against the constraints of the spec.")
	f.Func().Params(jen.Id("o").Op("*").Id(o.GoName)).Id("validate").Params().Error().BlockFunc(func(g *jen.Group) {
		ret := func(err jen.Code) jen.Code { return jen.Return(err) }
		for _, a := range o.Fields {
			v := jen.Id("o").Dot(a.GoName)
			var checks []jen.Code
			for _, c := range valueConds(nil, a, deref(a, v)) {
				checks = append(checks, jen.If(c.cond).Block(ret(itemError(nil, a, c.reason))))
			}
			if a.Type == model.Path {
				checks = append(checks, pathLoop(nil, a, deref(a, v), ret))
			}
			if a.StoredForm().Pointer && len(checks) > 0 {
				checks = []jen.Code{jen.If(present(a, v)).Block(checks...)}
			}
			for _, c := range checks {
				g.Add(c)
			}
			if a.Of != nil {
				g.Add(objectIf(nil, a, v, ret))
			}
			if !a.Optional {
				for _, c := range emptiness(nil, a, v, ret) {
					g.Add(c)
				}
			}
		}
		g.Return(jen.Nil())
	})
	f.Line()
}

// objectValue emits value: the object's map (M), each field under its
// stored name; an optional field only when present.
func (e *emitter) objectValue(f *jen.File, o *model.ObjectType) {
	comment(f, "value is o as DynamoDB stores it: a map (M) of its fields, which validate checked.")
	f.Func().Params(jen.Id("o").Op("*").Id(o.GoName)).Id("value").Params().Qual(pathTypes, "AttributeValue").BlockFunc(func(g *jen.Group) {
		mapType := jen.Map(jen.String()).Qual(pathTypes, "AttributeValue")
		g.Id("m").Op(":=").Make(mapType, jen.Lit(len(o.Fields)))
		for _, a := range o.Fields {
			v := jen.Id("o").Dot(a.GoName)
			st := jen.Id("m").Index(jen.Lit(a.Stored)).Op("=").Add(attrValue(a, deref(a, v)))
			f := a.StoredForm()
			if f.Always {
				g.Add(st)
			} else {
				g.If(present(a, v)).Block(st)
			}
		}
		g.Return(memberValue("M", jen.Id("m")))
	})
	f.Line()
}

// objectDecode emits decode: the object's fields read from m by d, which
// names an error's field by its path. A field m holds beyond the type's
// is ignored.
func (e *emitter) objectDecode(f *jen.File, o *model.ObjectType) {
	comment(f, "decode sets o's fields from m, a stored map of the object, with d (see dyngen.ItemDecoder); a field m holds beyond the type's is ignored.")
	f.Func().Params(jen.Id("o").Op("*").Id(o.GoName)).Id("decode").Params(jen.Id("d").Op("*").Add(rt("ItemDecoder")), jen.Id("m").Map(jen.String()).Qual(pathTypes, "AttributeValue")).BlockFunc(func(g *jen.Group) {
		for _, a := range o.Fields {
			g.Id("o").Dot(a.GoName).Op("=").Add(decodeFrom(nil, a, jen.Id("d"), jen.Id("d"), jen.Id("m")))
		}
	})
	f.Line()
}

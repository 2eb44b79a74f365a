package model

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dyngen/dyngen/spec"
)

// ObjectType is a named object type of the spec (under objects:): a Go struct
// stored as a map (M), whose fields are attributes, written, checked and
// read back as an item's are. Attributes of type object or objects take
// it (Attribute.Of); several entities may share it.
type ObjectType struct {
	Name   string
	GoName string
	Doc    string
	Pos    Pos
	Fields []*Attribute
}

// MaxDepth is the most levels of maps and lists DynamoDB nests in an
// attribute value: an object (and a list of objects, which is a level of
// its own) may nest at most this deep.
const MaxDepth = 32

// ObjectMethods are the methods generated on every object type; they are
// unexported, so no field (an exported Go name) can take one.
var ObjectMethods = []string{"validate", "value", "decode"}

// Field returns the field named name (its spec name), or nil.
func (o *ObjectType) Field(name string) *Attribute {
	for _, a := range o.Fields {
		if a.Name == name {
			return a
		}
	}
	return nil
}

// Depth is how many levels of maps and lists a value of the object
// takes: 1 for its own map, and more for its objects' fields.
func (o *ObjectType) Depth() int {
	d := 0
	for _, a := range o.Fields {
		if a.Of != nil {
			d = max(d, a.Depth())
		} else if a.Type == Strings || a.Type == Map || a.Type == Document {
			d = max(d, 1)
		}
	}
	return 1 + d
}

// Depth is how many levels of maps and lists the value of an object or
// objects attribute takes (0 for any other attribute).
func (a *Attribute) Depth() int {
	switch {
	case a.Of == nil:
		return 0
	case a.Type == Objects:
		return 1 + a.Of.Depth()
	}
	return a.Of.Depth()
}

// objects resolves the named object types: their names, fields and the
// types they refer to, then refuses cycles and nesting DynamoDB can't
// store. Its errors tie to no entity (an object may serve several): the
// model is then not planned.
func (r *resolver) objects() {
	r.part = nil
	byName := map[string]*ObjectType{}
	goNames := map[string]*ObjectType{}
	for _, so := range r.f.Objects {
		o := &ObjectType{Name: so.Name.Value, Doc: so.Doc.Value, Pos: so.Name.Pos}
		if !entityName.MatchString(o.Name) {
			r.errorf(so.Name.Pos, "object name %q must be a letter then letters, digits or underscores", o.Name)
		} else {
			o.GoName = GoName(o.Name)
		}
		if so.Go.Set {
			o.GoName = so.Go.Value
			if !IsExported(o.GoName) {
				r.errorf(so.Go.Pos, "go name %q of object %s is not an exported Go identifier", o.GoName, o.Name)
			}
		}
		if other := goNames[o.GoName]; other != nil && o.GoName != "" {
			r.errorf(so.Name.Pos, "objects %s and %s have the same Go name %s; set go: on one", other.Name, o.Name, o.GoName)
		} else {
			goNames[o.GoName] = o
		}
		byName[o.Name] = o
		r.m.Objects = append(r.m.Objects, o)
	}
	r.objectsByName = byName
	for i, so := range r.f.Objects {
		r.fields(r.m.Objects[i], so)
	}
	r.objectCycles()
}

// fields resolves the fields of object o: each an attribute but for what
// only an item's attributes have (a default, which a read of an item
// gives, and a stored name that is a table's).
func (r *resolver) fields(o *ObjectType, so *spec.Object) {
	stored := map[string]*Attribute{}
	goNames := map[string]*Attribute{}
	for _, sa := range so.Fields {
		a, what := r.newAttr(sa, o, "field", "object "+o.Name)
		if other := goNames[a.GoName]; other != nil && a.GoName != "" && a.Name != "" {
			r.errorf(attrGoPos(sa), "fields %s and %s of object %s have the same Go name %s; set go: on one", other.Name, a.Name, o.Name, a.GoName)
		} else {
			goNames[a.GoName] = a
		}
		if other := stored[a.Stored]; other != nil && a.Stored != "" {
			r.errorf(attrNamePos(sa), "fields %s and %s of object %s are both stored as %s", other.Name, a.Name, o.Name, a.Stored)
		} else {
			stored[a.Stored] = a
		}
		if sa.Default != nil {
			// A default is what a read gives an item stored before the
			// attribute was added; a field's object is written whole.
			r.errorf(sa.Default.Pos, "%s: default: is for an item's attribute added after items were written; a field is written with its object, so give its value (or make it optional)", what)
		}
		if sa.Backfill.Set {
			r.errorf(sa.Backfill.Pos, "%s: backfill: is for an item's attribute; a field is written with its object: give the object attribute backfill: %s", what, Computed)
		}
		o.Fields = append(o.Fields, a)
	}
}

// objectOf resolves the object type an object or objects attribute
// takes (its of:).
func (r *resolver) objectOf(a *Attribute, sa *spec.Attribute, what string) {
	if a.Type != Object && a.Type != Objects {
		return
	}
	if !sa.Of.Set {
		r.errorf(sa.Type.Pos, "%s is %s and names no object type; give of: the name of an object type under objects:", what, a.Type)
		return
	}
	o := r.objectsByName[sa.Of.Value]
	if o == nil {
		var known []string
		for _, x := range r.m.Objects {
			known = append(known, x.Name)
		}
		r.errorf(sa.Of.Pos, "%s: %q is not an object type (under objects:)%s", what, sa.Of.Value, nearest(sa.Of.Value, known))
		return
	}
	a.Of = o
	if a.In == nil && !r.objectsCyclic && a.Depth() > MaxDepth {
		r.errorf(sa.Of.Pos, "%s nests %d levels of maps and lists; DynamoDB stores at most %d", what, a.Depth(), MaxDepth)
	}
}

// objectCycles refuses an object type that holds itself, directly or
// through others (its Go struct would have no end), naming the cycle,
// and one nested deeper than DynamoDB stores.
func (r *resolver) objectCycles() {
	const (
		unseen = iota
		open
		done
	)
	state := map[*ObjectType]int{}
	var stack []*Attribute
	cyclic := map[*ObjectType]bool{}
	var visit func(o *ObjectType)
	visit = func(o *ObjectType) {
		state[o] = open
		for _, a := range o.Fields {
			if a.Of == nil {
				continue
			}
			stack = append(stack, a)
			switch state[a.Of] {
			case unseen:
				visit(a.Of)
			case open:
				// The cycle: from where a.Of's fields start on the stack.
				start := slices.IndexFunc(stack, func(x *Attribute) bool { return x.In == a.Of })
				var names []string
				for _, x := range stack[start:] {
					names = append(names, x.In.Name+"."+x.Name)
					cyclic[x.In] = true
				}
				r.errorf(a.Pos, "object %s holds itself (%s -> %s): no bound on its nesting keeps it within DynamoDB's %d levels of maps and lists; break the cycle (store the inner values as items of their own, or as a document)", a.Of.Name, strings.Join(names, " -> "), a.Of.Name, MaxDepth)
			}
			stack = stack[:len(stack)-1]
		}
		state[o] = done
	}
	for _, o := range r.m.Objects {
		if state[o] == unseen {
			visit(o)
		}
	}
	if len(cyclic) > 0 {
		r.objectsCyclic = true
		return
	}
	for _, o := range r.m.Objects {
		if d := o.Depth(); d > MaxDepth {
			r.errorf(o.Pos, "object %s nests %d levels of maps and lists; DynamoDB stores at most %d", o.Name, d, MaxDepth)
		}
	}
}

// PathAttr returns the attribute of path, the dotted names of an object
// attribute of e and of fields (address.zip, address.geo.lat): the same
// for every use of the path, so that an update lists it once. It returns
// nil and why when the path leads to no field.
func (e *Entity) PathAttr(path string) (*Attribute, string) {
	if a, ok := e.paths[path]; ok {
		return a, ""
	}
	names := strings.Split(path, ".")
	root := e.Attr(names[0])
	if root == nil {
		return nil, fmt.Sprintf("%q is not an attribute of %s%s", names[0], e.Name, e.nearestAttr(names[0]))
	}
	chain := []*Attribute{root}
	for i, n := range names[1:] {
		at := chain[len(chain)-1]
		if key, ok := strings.CutPrefix(n, "{"); ok {
			key, ok = strings.CutSuffix(key, "}")
			switch {
			case !ok || !attrName.MatchString(key) || GoName(key) == "":
				return nil, fmt.Sprintf("{%s} is no key parameter: write a name between braces, as in {reviewer}", strings.Trim(n, "{}"))
			case at.Type != Map:
				return nil, fmt.Sprintf("%s is %s; an entry by a key the caller gives ({%s}) is a map's", pathText(chain), at.Describe(), key)
			case i != len(names)-2:
				return nil, fmt.Sprintf("{%s} is a map's entry, a string: a path ends there", key)
			}
			entry := &Attribute{Name: path, Stored: root.Stored, Type: String, Pos: at.Pos, MapKey: key}
			for _, x := range chain {
				entry.GoName += x.GoName
			}
			entry.GoName += "Value"
			entry.Path = append(chain, entry)
			if e.paths == nil {
				e.paths = map[string]*Attribute{}
			}
			e.paths[path] = entry
			return entry, ""
		}
		switch {
		case at.Type == Objects:
			return nil, fmt.Sprintf("%s is a list of objects; a path goes through objects' fields, not a list's elements", pathText(chain))
		case at.Of == nil:
			return nil, fmt.Sprintf("%s is %s; a path goes into the fields of an object attribute", pathText(chain), at.Describe())
		}
		f := at.Of.Field(n)
		if f == nil {
			var known []string
			for _, x := range at.Of.Fields {
				known = append(known, x.Name)
			}
			return nil, fmt.Sprintf("%q is not a field of object %s%s", n, at.Of.Name, nearest(n, known))
		}
		chain = append(chain, f)
	}
	leaf := chain[len(chain)-1]
	cp := *leaf
	cp.Name = path
	cp.Stored = root.Stored
	cp.GoName = ""
	for _, x := range chain {
		cp.GoName += x.GoName
	}
	cp.Path = chain
	if e.paths == nil {
		e.paths = map[string]*Attribute{}
	}
	e.paths[path] = &cp
	return &cp, ""
}

// pathText is the path of a chain of attributes, by their spec names.
func pathText(chain []*Attribute) string {
	var names []string
	for _, x := range chain {
		names = append(names, x.Name)
	}
	return strings.Join(names, ".")
}

// StoredPath is the path of a's value in the item, by stored names
// (address.postcode); a's stored name for an entity's attribute. A map
// entry's key the caller gives stands as {key}.
func (a *Attribute) StoredPath() []string {
	if !a.IsPath() {
		return []string{a.Stored}
	}
	var out []string
	for _, x := range a.Path {
		if x.MapKey != "" {
			out = append(out, "{"+x.MapKey+"}")
			continue
		}
		out = append(out, x.Stored)
	}
	return out
}

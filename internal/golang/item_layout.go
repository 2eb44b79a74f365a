package golang

import (
	"slices"
	"strconv"

	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/plan"
)

// itemLayout is what an entity's MarshalItem does, decided before any
// code is printed: the checks and builds of its keys, in order, the keys
// whose texts share one buffer, and the attributes of the item with the
// slots of the values block that hold them. itemLayoutOf computes it;
// the marshal functions of emit_entity.go print it.
type itemLayout struct {
	recv       string // the receiver
	valuesType string // the struct of the values block
	// steps are the checks and builds of keys before the plain keys, in
	// the order of the entity's indexes.
	steps []keyStep
	// plain are the string keys every item has, built after the steps:
	// alone, or, when there are several, written into one buffer.
	plain []*keyBuild
	// bufSize is the length of the buffer; bufErr is set when a time is
	// appended to it in place (text, err = ...): err is declared first.
	bufSize int
	bufErr  bool
	// items are the attributes of the item, in the order they are set.
	items []*itemAttr
}

// keyStep is one step of MarshalItem before its plain keys: one of the
// three is set.
type keyStep struct {
	// natural is the attribute standing as a whole string key attribute,
	// checked as the key builders check it (when present, if optional).
	natural *model.Attribute
	// build is a key of type N or B every item has.
	build *keyBuild
	// sparse holds the keys of an index only some items are in.
	sparse *sparseKeys
}

// sparseKeys are the keys of an index whose templates hold optional
// attributes: only an item with all of them is in the index.
type sparseKeys struct {
	index *model.Index
	attrs []*model.Attribute // the optional attributes, all present
	in    string             // the variable: the item is in the index
	keys  []*keyBuild
}

// keyBuild is a key attribute MarshalItem builds from a template.
type keyBuild struct {
	ka *model.KeyAttr
	tm *model.Template
	v  string // the variable holding it
	// limit is the constant keySize checks a string key's size against,
	// "" when no key tm builds can be over the limit.
	limit string
	// pieces are its text written into the buffer (several plain keys).
	pieces []keyPiece
}

// keyPiece is a part of a plain key's text in the buffer.
type keyPiece struct {
	lit  string           // literal text, when attr is nil
	attr *model.Attribute // a placeholder
	how  pieceHow
}

// pieceHow is how a placeholder's text gets into the buffer.
type pieceHow int

const (
	pieceEncoded  pieceHow = iota // its key encoding, appended
	pieceTimeNew                  // a time appended in place, where it is first
	pieceTimeCopy                 // a time copied from where it was appended
)

// itemAttr is an attribute of the item: its name and where its value
// comes from, a built key, the entity's type value or an attribute.
type itemAttr struct {
	name string
	key  *keyBuild        // a built key's value
	attr *model.Attribute // an attribute's value; key and attr nil: the type value
	// keyText is set when attr's value is the text a plain key holds (a
	// time encoded as it is stored).
	keyText bool
	// member is the member type (S, N, B, BOOL) of a value held in the
	// values block, at slot; "" when the value is made on its own.
	member string
	slot   int
	// in is the variable that must be true for the attribute to be set
	// (a key of a sparse index); present: that attr must be present.
	in      string
	present bool
}

// blockMembers are the member types of the values block, in order.
var blockMembers = []string{"S", "N", "B", "BOOL"}

// blockMember is the member type of an attribute value held in an item's
// values block (S, N, B, BOOL), or "" for the others.
func blockMember(a *model.Attribute) string {
	switch d := a.StoredForm().Dynamo; d {
	case "S", "N", "B", "BOOL":
		return d
	}
	return ""
}

// itemLayoutOf decides what MarshalItem does for ent.
func itemLayoutOf(ent *model.Entity) *itemLayout {
	l := &itemLayout{recv: ent.Receiver(), valuesType: model.ValuesType(ent)}
	written := map[string]bool{}
	for _, k := range ent.Keys {
		l.addIndex(ent, k, written)
	}
	if len(l.plain) > 1 {
		l.buffer()
	}
	l.addAttrs(ent)
	l.assignSlots()
	return l
}

// addIndex adds the steps, plain keys and item attributes of the keys of
// one index; written holds the key attributes already handled (an index
// may share one with another).
func (l *itemLayout) addIndex(ent *model.Entity, k *model.EntityKey, written map[string]bool) {
	keys := l.indexKeys(ent, k, written)
	if len(keys) == 0 {
		return
	}
	in := l.addSparse(k, keys)
	for _, b := range keys {
		switch {
		case in != "":
		case b.ka.Type == model.S:
			l.plain = append(l.plain, b)
		default:
			l.steps = append(l.steps, keyStep{build: b})
		}
		l.items = append(l.items, &itemAttr{name: b.ka.Name, key: b, member: string(b.ka.Type), in: in})
	}
}

// indexKeys are the keys of an index MarshalItem builds, each key
// attribute once; the check of a natural key that has one (a string, a
// float) is a step of its own.
func (l *itemLayout) indexKeys(ent *model.Entity, k *model.EntityKey, written map[string]bool) []*keyBuild {
	var keys []*keyBuild
	for i, tm := range k.Templates() {
		ka := k.Index.KeyAttrs()[i]
		switch {
		case isNatural(tm, ka) && naturalChecked(tm.Segments[0].Attr, ka) && !written[ka.Name]:
			written[ka.Name] = true
			l.steps = append(l.steps, keyStep{natural: tm.Segments[0].Attr})
		case tm.Implied || written[ka.Name]:
		default:
			written[ka.Name] = true
			b := &keyBuild{ka: ka, tm: tm, v: l.keyVar(ka, len(written))}
			if ka.Type == model.S {
				b.limit = keySizeLimit(ent, ka, tm)
			}
			keys = append(keys, b)
		}
	}
	return keys
}

// addSparse adds the step of an index's keys when its templates hold
// optional attributes, and returns the variable that tells whether the
// item is in the index; "" for an index every item is in.
func (l *itemLayout) addSparse(k *model.EntityKey, keys []*keyBuild) string {
	var sparse []*model.Attribute
	for _, a := range k.Attrs() {
		if a.Optional {
			sparse = append(sparse, a)
		}
	}
	if len(sparse) == 0 {
		return ""
	}
	in := "in" + k.Index.GoName
	l.steps = append(l.steps, keyStep{sparse: &sparseKeys{index: k.Index, attrs: sparse, in: in, keys: keys}})
	return in
}

// keyVar is the variable of a built key attribute, the n-th handled: its
// name, unless that is empty or taken by MarshalItem.
func (l *itemLayout) keyVar(ka *model.KeyAttr, n int) string {
	v := model.ParamName(model.GoName(ka.Name))
	if v == "" || slices.Contains([]string{"item", "vals", "err", l.recv}, v) {
		v = "key" + strconv.Itoa(n)
	}
	return v
}

// buffer lays out the plain keys' texts in one buffer: each time is
// appended once, where it first stands, and copied from there after.
func (l *itemLayout) buffer() {
	size := 0
	appended := map[*model.Attribute]bool{}
	for _, k := range l.plain {
		size += estimateKey(k.tm)
		for _, seg := range k.tm.Segments {
			a := seg.Attr
			p := keyPiece{lit: seg.Literal, attr: a}
			switch {
			case a == nil:
			case !appendsTime(a):
				p.how = pieceEncoded
			case appended[a]:
				p.how = pieceTimeCopy
			default:
				p.how = pieceTimeNew
				appended[a] = true
				l.bufErr = true
			}
			k.pieces = append(k.pieces, p)
		}
	}
	l.bufSize = min(max(size, 64), 1024)
}

// addAttrs adds the entity's type value and its attributes to the item.
// A time a plain key holds is stored as the text the key holds.
func (l *itemLayout) addAttrs(ent *model.Entity) {
	l.items = append(l.items, &itemAttr{name: ent.Table.EntityAttr, member: "S"})
	for _, a := range ent.Attributes {
		f := a.StoredForm()
		it := &itemAttr{name: a.Stored, attr: a, member: blockMember(a), present: !f.Always}
		if f.Pointer {
			// Made only when present: the values block is filled
			// whatever the item holds.
			it.member = ""
		}
		it.keyText = appendsTime(a) && slices.ContainsFunc(l.plain, func(k *keyBuild) bool { return k.tm.Has(a) })
		l.items = append(l.items, it)
	}
}

// assignSlots gives each value of the values block its slot, in the order
// the item's attributes are set.
func (l *itemLayout) assignSlots() {
	next := map[string]int{}
	for _, it := range l.items {
		if it.member != "" {
			it.slot = next[it.member]
			next[it.member]++
		}
	}
}

// slots are the item attributes the values block holds in member m, in
// slot order.
func (l *itemLayout) slots(m string) []*itemAttr {
	var out []*itemAttr
	for _, it := range l.items {
		if it.member == m {
			out = append(out, it)
		}
	}
	return out
}

// appendsTime reports whether a placeholder's text is a time appended in
// place to the key buffer of MarshalItem (appendKeyTime).
func appendsTime(a *model.Attribute) bool {
	return a.StoredForm().Key.Func == "keyTime"
}

// estimateKey is the usual length of a key built from tm: its literal
// text and a typical length of each value.
func estimateKey(tm *model.Template) int {
	n := 0
	for _, seg := range tm.Segments {
		switch {
		case seg.Attr == nil:
			n += len(seg.Literal)
		default:
			if b, ok := plan.MaxEncodedBytes(seg.Attr); ok && seg.Attr.KeepsOrder() {
				n += b
			} else {
				n += 24
			}
		}
	}
	return n
}

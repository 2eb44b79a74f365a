package plan

import (
	"slices"
	"strconv"
	"strings"

	"github.com/dyngen/dyngen/internal/keylang"
	"github.com/dyngen/dyngen/internal/model"
)

// ItemLayout is what an entity's MarshalItem does, decided before any
// code is printed: the checks and builds of its keys, in order, the keys
// whose texts share one buffer, the attributes of the item with the
// slots of the values block that hold them, and the locals that hold
// them. The emitter prints it.
type ItemLayout struct {
	Recv       string // the receiver (model.Entity.Receiver)
	ValuesType string // the struct of the values block (model.ValuesType)
	// Steps are the checks and builds of keys before the plain keys, in
	// the order of the entity's indexes.
	Steps []KeyStep
	// Plain are the string keys every item has, built after the steps:
	// alone, or, when there are several, written into one buffer.
	Plain []*KeyBuild
	// BufSize is the length of the buffer; BufErr is set when a time is
	// appended to it in place (text, err = ...): err is declared first.
	BufSize int
	BufErr  bool
	// Items are the attributes of the item, in the order they are set.
	Items []*ItemEntry
	// Blocks are the arrays of the values block, one per member type
	// that holds a value, in the order of blockMembers.
	Blocks []*ValuesBlock
}

// ValuesBlock is an array of the values block: the values of one member
// type (S, N, B, BOOL), in slot order.
type ValuesBlock struct {
	Member string
	Field  string // the field of the values block's struct: s, n, b, bool
	Items  []*ItemEntry
}

// KeyStep is one step of MarshalItem before its plain keys: one of the
// three is set.
type KeyStep struct {
	// Natural is the attribute standing as a whole string key attribute,
	// checked as the key builders check it (when present, if optional).
	Natural *model.Attribute
	// Build is a key of type N or B every item has.
	Build *KeyBuild
	// Sparse holds the keys of an index only some items are in.
	Sparse *SparseKeys
}

// SparseKeys are the keys of an index whose templates hold optional
// attributes: only an item with all of them is in the index.
type SparseKeys struct {
	Index *model.Index
	Attrs []*model.Attribute // the optional attributes, all present
	In    string             // the local: the item is in the index
	Keys  []*KeyBuild
}

// KeyBuild is a key attribute MarshalItem builds from a template.
type KeyBuild struct {
	KeyAttr  *model.KeyAttr
	Template *model.Template
	// Var is the local holding it; Built the one a sparse index's size
	// checked key is built into first, End the one holding where its
	// text ends in the buffer (several plain keys).
	Var, Built, End string
	// Limit is the limit the size of a string key is checked against,
	// NoLimit when no key Template builds can be over it.
	Limit KeyLimit
	// Pieces are its text written into the buffer (several plain keys).
	Pieces []*KeyPiece
}

// KeyPiece is a part of a plain key's text in the buffer.
type KeyPiece struct {
	Lit  string           // literal text, when Attr is nil
	Attr *model.Attribute // a placeholder
	How  PieceHow
	// From and To are the locals holding where a time's text stands in
	// the buffer (PieceTimeNew, PieceTimeCopy).
	From, To string
}

// PieceHow is how a placeholder's text gets into the buffer.
type PieceHow int

const (
	PieceEncoded  PieceHow = iota // its key encoding, appended
	PieceTimeNew                  // a time appended in place, where it is first
	PieceTimeCopy                 // a time copied from where it was appended
)

// ItemEntry is an attribute of the item: its name and where its value
// comes from, a built key, the entity's type value or an attribute.
type ItemEntry struct {
	Name string
	Key  *KeyBuild        // a built key's value
	Attr *model.Attribute // an attribute's value; Key and Attr nil: the type value
	// KeyText is set when Attr's value is the text a plain key holds (a
	// time encoded as it is stored): Span, the piece that appended it to
	// the buffer, or nil when the one plain key is built alone.
	KeyText bool
	Span    *KeyPiece
	// Member is the member type (S, N, B, BOOL) of a value held in the
	// values block, at Slot of Block; "" when the value is made on its
	// own.
	Member string
	Block  *ValuesBlock
	Slot   int
	// In is the local that must be true for the attribute to be set (a
	// key of a sparse index); Present: Attr must be present.
	In      string
	Present bool
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

// itemLayout decides what MarshalItem does for ent.
func itemLayout(ent *model.Entity) *ItemLayout {
	l := &ItemLayout{Recv: ent.Receiver(), ValuesType: model.ValuesType(ent)}
	written := map[string]bool{}
	for _, k := range ent.Keys {
		l.addIndex(ent, k, written)
	}
	// An attribute stored under the name of a key attribute of an index
	// the item is not in: DynamoDB refuses a value no key holds all the
	// same.
	for _, a := range ent.Attributes {
		if ka := ent.IndexKeyAttr(a); ka != nil && !written[ka.Name] && model.NaturalChecked(a, ka) {
			written[ka.Name] = true
			l.Steps = append(l.Steps, KeyStep{Natural: a})
		}
	}
	if len(l.Plain) > 1 {
		l.buffer()
	}
	l.addAttrs(ent)
	l.assignSlots()
	return l
}

// addIndex adds the steps, plain keys and item attributes of the keys of
// one index; written holds the key attributes already handled (an index
// may share one with another).
func (l *ItemLayout) addIndex(ent *model.Entity, k *model.EntityKey, written map[string]bool) {
	keys := l.indexKeys(ent, k, written)
	if len(keys) == 0 {
		return
	}
	in := l.addSparse(k, keys)
	for _, b := range keys {
		switch {
		case in != "":
		case b.KeyAttr.Type == model.S:
			l.Plain = append(l.Plain, b)
		default:
			l.Steps = append(l.Steps, KeyStep{Build: b})
		}
		l.Items = append(l.Items, &ItemEntry{Name: b.KeyAttr.Name, Key: b, Member: string(b.KeyAttr.Type), In: in})
	}
}

// indexKeys are the keys of an index MarshalItem builds, each key
// attribute once; the check of a natural key that has one (a string, a
// float) is a step of its own.
func (l *ItemLayout) indexKeys(ent *model.Entity, k *model.EntityKey, written map[string]bool) []*KeyBuild {
	var keys []*KeyBuild
	for i, tm := range k.AttrTemplates() {
		ka := k.Index.KeyAttrs()[i]
		switch {
		case tm.IsNatural(ka) && model.NaturalChecked(tm.Segments[0].Attr, ka) && !written[ka.Name]:
			written[ka.Name] = true
			l.Steps = append(l.Steps, KeyStep{Natural: tm.Segments[0].Attr})
		case tm.Implied || written[ka.Name]:
		default:
			written[ka.Name] = true
			v := l.keyVar(ka, len(written))
			b := &KeyBuild{KeyAttr: ka, Template: tm, Var: v, Built: v + "Built", End: v + "End"}
			if ka.Type == model.S {
				b.Limit = keySizeLimit(ent, ka, tm)
			}
			keys = append(keys, b)
		}
	}
	return keys
}

// addSparse adds the step of an index's keys when its templates hold
// optional attributes, and returns the local that tells whether the
// item is in the index; "" for an index every item is in.
func (l *ItemLayout) addSparse(k *model.EntityKey, keys []*KeyBuild) string {
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
	l.Steps = append(l.Steps, KeyStep{Sparse: &SparseKeys{Index: k.Index, Attrs: sparse, In: in, Keys: keys}})
	return in
}

// marshalLocals are MarshalItem's own locals, which its printer names:
// the item, the values block, the error, and the buffer of the key texts
// and its text.
var marshalLocals = []string{"item", "vals", "err", "keyBuf", "text", "texts"}

// keyVar is the local of a built key attribute, the n-th handled: its
// name, unless that is empty or one of MarshalItem's own locals or its
// receiver.
func (l *ItemLayout) keyVar(ka *model.KeyAttr, n int) string {
	v := model.ParamName(model.GoName(ka.Name))
	if v == "" || v == l.Recv || slices.Contains(marshalLocals, v) {
		v = "key" + strconv.Itoa(n)
	}
	return v
}

// buffer lays out the plain keys' texts in one buffer: each time is
// appended once, where it first stands, and copied from there after.
func (l *ItemLayout) buffer() {
	size := 0
	appended := map[*model.Attribute]*KeyPiece{}
	for _, k := range l.Plain {
		size += estimateKey(k.Template)
		for _, seg := range k.Template.Segments {
			a := seg.Attr
			p := &KeyPiece{Lit: seg.Literal, Attr: a}
			switch {
			case a == nil:
			case !appendsTime(a):
				p.How = PieceEncoded
			case appended[a] != nil:
				p.How = PieceTimeCopy
				p.From, p.To = appended[a].From, appended[a].To
			default:
				p.How = PieceTimeNew
				p.From, p.To = a.VarName()+"From", a.VarName()+"To"
				appended[a] = p
				l.BufErr = true
			}
			k.Pieces = append(k.Pieces, p)
		}
	}
	l.BufSize = min(max(size, 64), 1024)
}

// addAttrs adds the entity's type value and its attributes to the item.
// A time a plain key holds is stored as the text the key holds.
func (l *ItemLayout) addAttrs(ent *model.Entity) {
	l.Items = append(l.Items, &ItemEntry{Name: ent.Table.EntityAttr, Member: "S"})
	for _, a := range ent.Attributes {
		f := a.StoredForm()
		it := &ItemEntry{Name: a.Stored, Attr: a, Member: blockMember(a), Present: !f.Always}
		if f.Pointer {
			// Made only when present: the values block is filled
			// whatever the item holds.
			it.Member = ""
		}
		it.KeyText = appendsTime(a) && slices.ContainsFunc(l.Plain, func(k *KeyBuild) bool { return k.Template.Has(a) })
		if it.KeyText {
			it.Span = l.span(a)
		}
		l.Items = append(l.Items, it)
	}
}

// span is the piece of the buffer that appends time a, or nil.
func (l *ItemLayout) span(a *model.Attribute) *KeyPiece {
	for _, k := range l.Plain {
		for _, p := range k.Pieces {
			if p.Attr == a && p.How == PieceTimeNew {
				return p
			}
		}
	}
	return nil
}

// assignSlots gives each value of the values block its block and slot, in
// the order the item's attributes are set.
func (l *ItemLayout) assignSlots() {
	for _, m := range blockMembers {
		b := &ValuesBlock{Member: m, Field: strings.ToLower(m)}
		for _, it := range l.Items {
			if it.Member == m {
				it.Block, it.Slot = b, len(b.Items)
				b.Items = append(b.Items, it)
			}
		}
		if len(b.Items) > 0 {
			l.Blocks = append(l.Blocks, b)
		}
	}
}

// appendsTime reports whether a placeholder's text is a time appended in
// place to the key buffer of MarshalItem (the runtime's AppendKeyTime).
func appendsTime(a *model.Attribute) bool {
	return a.StoredForm().Key.Func == "KeyTime"
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
			if b, ok := MaxEncodedBytes(seg.Attr); ok && seg.Attr.KeepsOrder() {
				n += b
			} else {
				n += 24
			}
		}
	}
	return n
}

// KeyLimit is the limit the size of a string key attribute's value is
// checked against when it is built.
type KeyLimit int

const (
	// NoLimit: no key the template builds can be over its limit.
	NoLimit KeyLimit = iota
	// PartitionKeyLimit: MaxPartitionKeyBytes.
	PartitionKeyLimit
	// SortKeyLimit: MaxSortKeyBytes.
	SortKeyLimit
)

// keySizeLimit is the limit a string key attribute ka, built from tm, is
// checked against: the sort key's where ka is a sort key, the partition
// key's elsewhere; NoLimit when no key tm builds can be over the limit
// whatever the values: its placeholders are all of fixed width (ints,
// bools, times) or enums (every key refuses a value outside the enum's).
// A string's maxLength bounds a key only for values that keep it, and a
// read does not check it.
func keySizeLimit(ent *model.Entity, ka *model.KeyAttr, tm *model.Template) KeyLimit {
	limit, bytes := PartitionKeyLimit, MaxPartitionKeyBytes
	if isSortKey(ent, ka) {
		limit, bytes = SortKeyLimit, MaxSortKeyBytes
	}
	bounded := !slices.ContainsFunc(tm.Attrs(), func(a *model.Attribute) bool {
		k := a.StoredForm().Key
		return !k.KeepsOrder && k.Lang != keylang.Enum
	})
	if size, ok := MaxKeyBytes(tm); bounded && ok && size <= bytes {
		return NoLimit
	}
	return limit
}

// isSortKey reports whether ka is the sort key of an index the entity is
// in: its value then has the sort key's smaller limit, also where it is a
// partition key elsewhere (the table's SK on an inverted index).
func isSortKey(ent *model.Entity, ka *model.KeyAttr) bool {
	for _, k := range ent.Keys {
		if sk := k.Index.SK; sk != nil && sk.Name == ka.Name {
			return true
		}
	}
	return false
}

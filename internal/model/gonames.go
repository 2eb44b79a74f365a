package model

import (
	"strconv"
	"strings"
)

// The Go names of the generated package's declarations and locals that
// are made from a spec's names, each named here once; the emitter and the
// plan call these, and make up none of their own.

// Receiver is the receiver of an entity's methods (MarshalItem,
// UnmarshalItem, validate): the first letter of its Go name, lower case.
func (e *Entity) Receiver() string { return strings.ToLower(e.GoName[:1]) }

// StoreField is the Store's field holding a table's physical name
// (ordersTable).
func (t *Table) StoreField() string { return ParamName(t.GoName) + "Table" }

// VarName is the Go name of an attribute as a key builder's parameter,
// and the start of the locals named after it (isbnKey, titlePrefix): its
// Go name unexported, with _ after it where that is a name the generated
// code uses itself (TakenByCode).
func (a *Attribute) VarName() string {
	n := ParamName(a.GoName)
	if TakenByCode(n) {
		return n + "_"
	}
	return n
}

// KeyVar is the local holding the checked key encoding of an attribute
// (isbnKey), and PrefixVar the one holding the key text of its
// beginsWith operand (titlePrefix). A function that declares several
// gives the later ones a number (see the emitter's scopeName).
func (a *Attribute) KeyVar() string { return a.VarName() + "Key" }

// PrefixVar: see KeyVar.
func (a *Attribute) PrefixVar() string { return a.VarName() + "Prefix" }

// RebuiltVar is the local holding the n-th index key an update rewrites
// (rebuilt1), counted from 1.
func RebuiltVar(n int) string { return "rebuilt" + strconv.Itoa(n) }

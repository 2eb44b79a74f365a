package model

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dyngen/dyngen/spec"
)

// MaxIn is the most operands an in condition takes: DynamoDB's IN
// compares with at most 100 values.
const MaxIn = 100

// timeLayout is how dyngen stores a time as S: UTC, nine fraction digits
// (the runtime's timeLayout).
const timeLayout = "2006-01-02T15:04:05.000000000Z"

// StoredConst is a constant of the spec as the request sends it, already
// checked against attribute a (constFits): the attribute value type (S,
// N or BOOL) and its text. A number is written as DynamoDB reads it (0x10
// as 16, 1_000 as 1000), a time as dyngen stores it (timeLayout, a date,
// or epoch seconds or milliseconds). op is the operator the constant is
// an operand of (OpEq for a value an update sets): contains compares
// with an element of a set or list.
func StoredConst(a *Attribute, op CondOp, text string) (dynamo, stored string) {
	t := a.Type
	if op == OpContains {
		switch t {
		case Strings, StringSet:
			t = String
		case IntSet:
			t = Int
		}
	}
	switch t {
	case Int, Float:
		if n, err := CanonicalNumber(text, t == Int); err == nil {
			return "N", n
		}
		return "N", text
	case Bool:
		return "BOOL", text
	case Time:
		return storedTime(a, text)
	}
	return "S", text
}

// storedTime is a time constant as attribute a stores it.
func storedTime(a *Attribute, text string) (dynamo, stored string) {
	f := a.StoredForm()
	if f.Dynamo == "N" {
		if n, err := CanonicalNumber(text, true); err == nil {
			return "N", n
		}
		t, err := time.Parse(time.RFC3339Nano, text)
		if err != nil {
			return "N", text
		}
		if f.Base == BaseUnixMilli {
			return "N", strconv.FormatInt(t.UnixMilli(), 10)
		}
		return "N", strconv.FormatInt(t.Unix(), 10)
	}
	if f.Text == TextDate {
		return "S", text
	}
	t, err := time.Parse(time.RFC3339Nano, text)
	if err != nil {
		return "S", text
	}
	return "S", t.UTC().Format(timeLayout)
}

// inConsts checks the constants of an in condition: 1 to MaxIn values,
// each valid as for =, none given twice (as the request sends them).
func (r *resolver) inConsts(c *Cond, sc *spec.Cond, what string) bool {
	a := c.Attr
	if len(sc.Consts) > MaxIn {
		r.errorf(sc.Consts[MaxIn].Pos, "%s on %s: in takes at most %d values (DynamoDB's IN), not %d", what, a.Name, MaxIn, len(sc.Consts))
		return false
	}
	seen := map[string]spec.Const{}
	ok := true
	for _, k := range sc.Consts {
		if err := constFits(k, a, OpEq); err != nil {
			r.errorf(k.Pos, "%s on %s: %v", what, a.Name, err)
			ok = false
			continue
		}
		dynamo, stored := StoredConst(a, OpEq, k.Value)
		if prev, dup := seen[dynamo+":"+stored]; dup {
			r.errorf(k.Pos, "%s on %s: in lists %s twice (%s at %s)", what, a.Name, strconv.Quote(k.Value), strconv.Quote(prev.Value), prev.Pos)
			ok = false
			continue
		}
		seen[dynamo+":"+stored] = k
		c.Consts = append(c.Consts, Const{Text: k.Value, Pos: k.Pos})
	}
	return ok
}

// setConst checks a constant an update, create or put sets: it is a value the
// attribute holds (its type, enum values, bounds, maxLength, time
// format; a time to live that is not the zero time), and it fits in every
// key template of the entity that is built from the attribute. An
// optional attribute's zero value is a value (a present false or 0).
func (r *resolver) setConst(p *Pattern, sc *spec.SetConst, a *Attribute) bool {
	k := sc.Const
	fail := func(format string, args ...any) bool {
		r.errorf(k.Pos, "%s %s: set %s: %s", p.Op, p.Name, a.Name, fmt.Sprintf(format, args...))
		return false
	}
	switch a.Type {
	case String, Int, Float, Bool, Enum, Time, Path:
	default:
		return fail("%s takes no constant; give it as a parameter (set: [%s])", a.Describe(), a.Name)
	}
	if err := constFits(k, a, OpEq); err != nil {
		return fail("%v", err)
	}
	if reason := constValueError(k, a); reason != "" {
		return fail("%s", reason)
	}
	// An update can't set an attribute of the primary key's templates
	// (refused with its own error); a create's or put's constant fixes
	// that part of the key.
	keys := p.Entity().Keys
	if p.Op == OpUpdate {
		keys = keys[1:]
	}
	for _, ek := range keys {
		for i, tm := range ek.AttrTemplates() {
			if !tm.Has(a) {
				continue
			}
			ka := ek.Index.KeyAttrs()[i]
			if tm.Implied {
				// The attribute itself is the key attribute.
				if k.Value == "" && (a.Type == String || a.Type == Enum) {
					return fail("the constant is empty, and DynamoDB refuses an empty key: %s is key attribute %s of %s", a.Name, ka.Name, ek.Index.Name)
				}
				continue
			}
			if k.Value == "" && tm.TakesEmpty(a) {
				continue
			}
			if reason := keyBreaker(a, tm, k.Value); reason != "" {
				return fail("the constant %s, so it can't be written into %s=%q on %s", reason, ka.Name, tm.Source, ek.Index.Name)
			}
		}
	}
	return true
}

// addConst checks a constant amount an update adds: a number of the
// attribute's type, not zero. Bounds are kept by the update's condition,
// as for an amount given as a parameter.
func (r *resolver) addConst(p *Pattern, sc *spec.SetConst, a *Attribute) bool {
	k := sc.Const
	fail := func(format string, args ...any) bool {
		r.errorf(k.Pos, "update %s: add %s: %s", p.Name, a.Name, fmt.Sprintf(format, args...))
		return false
	}
	switch a.Type {
	case Int, Float:
	case StringSet, IntSet:
		return fail("%s takes no constant amount; only an int or a float does (give the elements as a parameter: add: [%s])", a.Describe(), a.Name)
	default:
		return false // add's own check refuses the type
	}
	if err := constFits(k, a, OpEq); err != nil {
		return fail("%v", err)
	}
	if text, err := CanonicalNumber(k.Value, a.Type == Int); err == nil && text == "0" {
		return fail("adding 0 changes nothing; remove it")
	}
	return true
}

// constValueError is why constant k, which fits a's type, is not a value
// a write of a may store (below its min, above its max, longer than its
// maxLength, a float DynamoDB does not store, a time outside the years
// 0000-9999, an empty path element, the zero time as a time to live), or
// "". Set constants and defaults are checked with it.
func constValueError(k spec.Const, a *Attribute) string {
	_, stored := StoredConst(a, OpEq, k.Value)
	switch a.Type {
	case Int:
		n, _ := strconv.ParseInt(stored, 10, 64)
		if a.Min != nil && n < a.Min.Int {
			return fmt.Sprintf("%s is below its min %s", stored, a.Min.Text)
		}
		if a.Max != nil && n > a.Max.Int {
			return fmt.Sprintf("%s is above its max %s", stored, a.Max.Text)
		}
	case Float:
		f, _ := strconv.ParseFloat(stored, 64)
		if a.Min != nil && f < a.Min.Float {
			return fmt.Sprintf("%s is below its min %s", stored, a.Min.Text)
		}
		if a.Max != nil && f > a.Max.Float {
			return fmt.Sprintf("%s is above its max %s", stored, a.Max.Text)
		}
	case String, Path:
		if a.MaxLength > 0 && utf8.RuneCountInString(k.Value) > a.MaxLength {
			return fmt.Sprintf("the constant is longer than its maxLength %d", a.MaxLength)
		}
		if !utf8.ValidString(k.Value) {
			return "the constant is not valid UTF-8"
		}
	case Time:
		if a.StoredForm().Dynamo == "S" {
			if t, err := time.Parse(time.RFC3339Nano, k.Value); err == nil && a.Format != Date && (t.UTC().Year() < 0 || t.UTC().Year() > 9999) {
				return fmt.Sprintf("%s is a time outside the years 0000-9999 (UTC)", k.Value)
			}
		}
	}
	if a.Type == Path {
		for _, el := range strings.Split(k.Value, string(a.Separator)) {
			if el == "" {
				return fmt.Sprintf("%q has an empty path element (the elements are separated by %q)", k.Value, string(a.Separator))
			}
		}
	}
	if a.TTL {
		if t, err := time.Parse(time.RFC3339Nano, k.Value); err == nil && t.IsZero() {
			return "the zero time as a time to live would never expire; give a time"
		}
	}
	return ""
}

// keyBreaker is why a string constant of attribute a can't stand in key
// template tm (the runtime's keyString refuses the same), or "".
func keyBreaker(a *Attribute, tm *Template, text string) string {
	if a.Type != String && a.Type != Enum && a.Type != Path {
		return ""
	}
	els := []string{text}
	if a.Type == Path {
		els = strings.Split(text, string(a.Separator))
	}
	seps := string(tm.Separators())
	for _, el := range els {
		switch {
		case el == "":
			return "is empty"
		case strings.ContainsRune(el, utf8.MaxRune):
			return "holds U+10FFFF, which keys reserve"
		}
		if i := strings.IndexAny(el, seps); i >= 0 {
			r, _ := utf8.DecodeRuneInString(el[i:])
			return "holds " + strconv.QuoteRune(r) + ", a separator of the key"
		}
	}
	return ""
}

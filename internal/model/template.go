package model

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// Template is a parsed key template: literal text and typed placeholders.
type Template struct {
	Source   string
	Pos      Pos
	Segments []Segment
	// KeyType is the type of the key attribute the template fills.
	KeyType ScalarType
	// Implied is set when the spec did not write the template: a natural
	// key, or a table key attribute reused by a secondary index.
	Implied bool
	// Multi is set on the partition or sort key of a multi-attribute
	// key (always Implied): each segment is the whole value of one key
	// attribute of the index, in order (an attribute, or a literal: the
	// entity's type value), and KeyType is empty; EntityKey.Parts holds
	// them one by one.
	Multi bool
}

// Segment is literal text (Attr nil) or a placeholder.
type Segment struct {
	Literal string
	Attr    *Attribute
}

// Attrs returns the placeholders' attributes in order.
func (t *Template) Attrs() []*Attribute {
	var out []*Attribute
	for _, s := range t.Segments {
		if s.Attr != nil {
			out = append(out, s.Attr)
		}
	}
	return out
}

// Has reports whether a is a placeholder of t.
func (t *Template) Has(a *Attribute) bool { return contains(t.Attrs(), a) }

// IsConstant reports whether the template has no placeholder.
func (t *Template) IsConstant() bool { return len(t.Attrs()) == 0 }

// IsNatural reports whether t, the template of key attribute ka, is an
// attribute standing as the key attribute itself (a natural key): no
// builder, the attribute's own value is the key.
func (t *Template) IsNatural(ka *KeyAttr) bool {
	return t.Implied && len(t.Segments) == 1 && t.Segments[0].Attr != nil && t.Segments[0].Attr.Stored == ka.Name
}

// IsLiteral reports whether t, the template of key attribute ka, is
// literal text only, for a string key attribute: its value is one value,
// known when generating.
func (t *Template) IsLiteral(ka *KeyAttr) bool { return ka.Type == S && t.IsConstant() }

// Separators returns the characters of the literal text that are neither
// letters nor digits, in first-seen order: a string value in the template
// may not contain them.
func (t *Template) Separators() []rune {
	var out []rune
	for _, s := range t.Segments {
		for _, r := range s.Literal {
			if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !contains(out, r) {
				out = append(out, r)
			}
		}
	}
	return out
}

// String returns the template as written; a multi-attribute key's as its
// values, one per key attribute: {tournamentId}, {region}, "Match".
func (t *Template) String() string {
	if t.Multi {
		parts := make([]string, len(t.Segments))
		for i, s := range t.Segments {
			parts[i] = s.partText()
		}
		return strings.Join(parts, ", ")
	}
	var b strings.Builder
	for _, s := range t.Segments {
		if s.Attr != nil {
			b.WriteString("{" + s.Attr.Name + "}")
		} else {
			b.WriteString(s.Literal)
		}
	}
	return b.String()
}

// PartText shows the value of t, the template of one attribute of a
// multi-attribute key (EntityKey.Parts): {name} for an attribute, the
// entity's type value quoted.
func (t *Template) PartText() string { return t.Segments[0].partText() }

// partText shows s as the whole value of a key attribute: {name}, or a
// literal quoted.
func (s Segment) partText() string {
	if s.Attr == nil {
		return strconv.Quote(s.Literal)
	}
	return "{" + s.Attr.Name + "}"
}

// TakesEmpty reports whether a placeholder of a in t may hold the empty
// string: a's is an optional string, whose present "" is a value like any
// other (a pointer to ""), and t is a string key holding literal text, so
// that its key is never empty (DynamoDB refuses an empty key). A required
// string's "" is refused: it has no absence to be told from, and is most
// often a field left unset; so is "" where it would be the whole key.
func (t *Template) TakesEmpty(a *Attribute) bool {
	if a.Type != String || !a.Optional || t.KeyType != S || t.Implied {
		return false
	}
	for _, s := range t.Segments {
		if s.Attr == nil && s.Literal != "" {
			return true
		}
	}
	return false
}

// KeyForm is how a's value is written into t: its stored form's, but for
// a placeholder that may be empty (TakesEmpty), whose encoding lets "" by.
func (t *Template) KeyForm(a *Attribute) KeyForm {
	k := a.StoredForm().Key
	if t.TakesEmpty(a) {
		k.Func = "KeyStringOrEmpty"
	}
	return k
}

// LiteralPrefix returns the literal text before the first placeholder.
func (t *Template) LiteralPrefix() string {
	if len(t.Segments) > 0 && t.Segments[0].Attr == nil {
		return t.Segments[0].Literal
	}
	return ""
}

// rawSegment is a segment before its placeholder is resolved.
type rawSegment struct {
	literal string
	name    string
	col     int // rune offset of the segment in the template
}

// splitTemplate cuts a template into literal and placeholder segments.
// Braces can't appear in literal text.
func splitTemplate(src string) ([]rawSegment, error) {
	var segs []rawSegment
	rs := []rune(src)
	lit := strings.Builder{}
	litStart := 0
	for i := 0; i < len(rs); i++ {
		switch rs[i] {
		case '{':
			end := -1
			for j := i + 1; j < len(rs); j++ {
				if rs[j] == '}' {
					end = j
					break
				}
				if rs[j] == '{' {
					break
				}
			}
			if end < 0 {
				return nil, fmt.Errorf("the { at offset %d has no closing }", i)
			}
			if lit.Len() > 0 {
				segs = append(segs, rawSegment{literal: lit.String(), col: litStart})
				lit.Reset()
			}
			name := string(rs[i+1 : end])
			if strings.TrimSpace(name) == "" {
				return nil, fmt.Errorf("the placeholder at offset %d names no attribute", i)
			}
			segs = append(segs, rawSegment{name: strings.TrimSpace(name), col: i})
			i = end
			litStart = i + 1
		case '}':
			return nil, fmt.Errorf("the } at offset %d closes no placeholder", i)
		default:
			lit.WriteRune(rs[i])
		}
	}
	if lit.Len() > 0 {
		segs = append(segs, rawSegment{literal: lit.String(), col: litStart})
	}
	return segs, nil
}

package model

import (
	"regexp"
	"strings"

	"github.com/dyngen/dyngen/internal/keylang"
)

// Pattern is the regular expression of the template's keys, with one
// group per placeholder, in order: the reads that decode attributes from
// keys parse them with it, and a stream's records are told apart by it.
func (tm *Template) Pattern() string {
	seps := tm.Separators()
	// QuoteMeta escapes the class's ], ^ and \, but not -, which between
	// two separators would make a range.
	class := "[^" + strings.ReplaceAll(regexp.QuoteMeta(string(seps)), "-", `\-`) + "]+"
	if len(seps) == 0 {
		// Any text, a line break too.
		class = "(?s:.)+"
	}
	var b strings.Builder
	b.WriteString("^")
	for _, s := range tm.Segments {
		if s.Attr == nil {
			b.WriteString(regexp.QuoteMeta(s.Literal))
			continue
		}
		pattern := placeholderPattern(s.Attr, class)
		if tm.TakesEmpty(s.Attr) {
			// An optional string's present "" is read back as "".
			pattern = strings.TrimSuffix(pattern, "+") + "*"
		}
		b.WriteString("(" + pattern + ")")
	}
	b.WriteString("$")
	return b.String()
}

// placeholderPattern is the regular expression of the text of a's
// placeholder, by its key language; class matches text free of the key's
// separators.
func placeholderPattern(a *Attribute, class string) string {
	switch a.StoredForm().Key.Lang {
	case keylang.Path:
		return class + "(?:" + regexp.QuoteMeta(string(a.Separator)) + class + ")*"
	case keylang.Enum:
		var alts []string
		for _, v := range a.Values {
			alts = append(alts, regexp.QuoteMeta(v))
		}
		return strings.Join(alts, "|")
	case keylang.Int:
		return "-?[0-9]{19}"
	case keylang.Time:
		return `[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{9}Z`
	case keylang.Date:
		return `[0-9]{4}-[0-9]{2}-[0-9]{2}`
	case keylang.Bool:
		return "true|false"
	}
	return class
}

package model

import (
	"go/token"
	"strings"
	"unicode"
)

// initialisms are written all upper case in Go names (customerId ->
// CustomerID), as Go's own naming conventions ask.
var initialisms = map[string]bool{
	"ACL": true, "API": true, "ASCII": true, "CPU": true, "CSS": true, "DNS": true,
	"EOF": true, "GUID": true, "HTML": true, "HTTP": true, "HTTPS": true, "ID": true,
	"IP": true, "JSON": true, "LHS": true, "QPS": true, "RAM": true, "RHS": true,
	"RPC": true, "SKU": true, "SLA": true, "SMTP": true, "SQL": true, "SSH": true,
	"TCP": true, "TLS": true, "TTL": true, "UDP": true, "UI": true, "UID": true,
	"UUID": true, "URI": true, "URL": true, "UTF8": true, "VM": true, "XML": true,
	"XMPP": true, "XSRF": true, "XSS": true, "ISBN": true,
}

// words splits a name into words at separators and case changes:
// "customerId" -> customer Id, "game-player-profiles" -> game player
// profiles, "GSI1PK" -> GSI1PK, "HTTPServer" -> HTTP Server.
func words(s string) []string {
	var out []string
	rs := []rune(s)
	start := -1
	flush := func(end int) {
		if start >= 0 && end > start {
			out = append(out, string(rs[start:end]))
		}
		start = -1
	}
	for i, r := range rs {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush(i)
			continue
		}
		if start < 0 {
			start = i
			continue
		}
		prev := rs[i-1]
		switch {
		case unicode.IsUpper(r) && unicode.IsLower(prev):
			flush(i)
			start = i
		case unicode.IsUpper(r) && unicode.IsDigit(prev) && i+1 < len(rs) && unicode.IsLower(rs[i+1]):
			flush(i)
			start = i
		case unicode.IsUpper(prev) && unicode.IsUpper(r) && i+1 < len(rs) && unicode.IsLower(rs[i+1]):
			// "HTTPServer": the last upper letter starts the next word.
			flush(i)
			start = i
		}
	}
	flush(len(rs))
	return out
}

// GoName derives an exported Go identifier from a spec name. It returns ""
// when the name has no letter to start an identifier with.
func GoName(s string) string {
	name := joinWords(words(s))
	if name == "" || !unicode.IsLetter([]rune(name)[0]) {
		return ""
	}
	return name
}

// PrefixedGoName derives the Go name of a table or index, whose DynamoDB
// name may start with a digit: GoName, or for a name that starts with a
// digit, prefix, the digits and the Go name of the rest (2shop -> T2Shop
// with prefix T). It returns "" when the name has no letter or digit.
func PrefixedGoName(prefix, s string) string {
	ws := words(s)
	if len(ws) == 0 {
		return ""
	}
	if name := GoName(s); name != "" {
		return name
	}
	first := []rune(ws[0])
	n := 0
	for n < len(first) && unicode.IsDigit(first[n]) {
		n++
	}
	digits := string(first[:n])
	if n < len(first) {
		ws[0] = string(first[n:])
	} else {
		ws = ws[1:]
	}
	return prefix + digits + joinWords(ws)
}

// joinWords writes words as one Go name: each word capitalized, an
// initialism or an all upper case word kept upper case.
func joinWords(ws []string) string {
	var b strings.Builder
	for _, w := range ws {
		up := strings.ToUpper(w)
		switch {
		case initialisms[up]:
			b.WriteString(up)
		case w == up:
			// All upper case already (GSI1PK): keep it.
			b.WriteString(w)
		default:
			rs := []rune(w)
			b.WriteRune(unicode.ToUpper(rs[0]))
			b.WriteString(string(rs[1:]))
		}
	}
	return b.String()
}

// ParamName derives an unexported Go identifier (a parameter or local
// name) from a Go name: CustomerID -> customerID, ID -> id. A Go keyword
// gets a trailing underscore (type -> type_).
func ParamName(goName string) string {
	rs := []rune(goName)
	n := 0
	for n < len(rs) && unicode.IsUpper(rs[n]) {
		n++
	}
	switch {
	case n == 0:
	case n == 1 || n == len(rs):
		n = len(rs[:n])
	default:
		// "URLPath": lower the initialism but not the next word's capital.
		if n < len(rs) && unicode.IsLower(rs[n]) {
			n--
		}
	}
	name := strings.ToLower(string(rs[:n])) + string(rs[n:])
	if token.IsKeyword(name) {
		name += "_"
	}
	return name
}

// IsIdent reports whether s is a valid Go identifier that is not a keyword.
func IsIdent(s string) bool {
	return token.IsIdentifier(s)
}

// IsExported reports whether s is an exported Go identifier.
func IsExported(s string) bool {
	return token.IsIdentifier(s) && token.IsExported(s)
}

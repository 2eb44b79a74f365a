package spec

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// The YAML library reports a syntax error as text, "yaml: line N: problem",
// where N is the line of the construct it was reading (a quoted value, a
// mapping; for some problems the line before it), not of the offending
// token, and with no column. yamlError finds the token itself: the
// shortest beginning of the file that fails with the very same error text
// ends with it (the parser reads left to right, so the text before the
// token parses as it did, and the token makes the same error). Only a
// position found that way, and checked to hold the character the problem
// names, is reported; otherwise the error is reported at the line the
// library gave.

// yamlFailure is an error of the YAML library, split.
type yamlFailure struct {
	text    string // the whole error text, compared when probing
	line    int    // the line it names, 0 when none
	problem string // the text after "yaml: line N: "
}

// splitYAMLError splits err, when it is a syntax error of the YAML
// library.
func splitYAMLError(err error) (yamlFailure, bool) {
	msg := err.Error()
	rest, ok := strings.CutPrefix(msg, "yaml: ")
	if !ok {
		return yamlFailure{}, false
	}
	f := yamlFailure{text: msg, problem: rest}
	if r, ok := strings.CutPrefix(rest, "line "); ok {
		if n, m, ok := strings.Cut(r, ": "); ok {
			if line, err := strconv.Atoi(n); err == nil {
				f.line, f.problem = line, m
			}
		}
	}
	return f, true
}

// maxProbes bounds the prefixes of the file parsed to find an error's
// token, so that a large file fails promptly.
const maxProbes = 600

// yamlError returns the position and message of err, the error the YAML
// library returned for data.
func yamlError(file string, data []byte, err error) (Pos, string) {
	var pe *posError
	if errors.As(err, &pe) {
		return Pos{File: file, Line: pe.line, Col: pe.col}, pe.msg
	}
	f, ok := splitYAMLError(err)
	if !ok {
		return Pos{File: file, Line: 1, Col: 1}, err.Error()
	}
	if off, p, exact, ok := locateYAMLError(data, f); ok {
		line, col := lineCol(data, off)
		if !exact {
			return Pos{File: file, Line: line, Col: 1}, "invalid YAML: " + f.problem + " (at a token of this line; the YAML parser gives no column)"
		}
		return Pos{File: file, Line: line, Col: col}, "invalid YAML: " + f.problem + p.hint(off, f.problem)
	}
	msg := "invalid YAML: " + f.problem
	if f.line > 0 {
		msg += fmt.Sprintf(" (the YAML parser names line %d and no column)", f.line)
	} else {
		msg += " (the YAML parser names no line)"
	}
	return Pos{File: file, Line: max(f.line, 1), Col: 1}, msg
}

// The kinds of token a problem names: what the character at the
// position found must be.
var problemChars = map[string]func(c byte) bool{
	"mapping values are not allowed in this context":               func(c byte) bool { return c == ':' },
	"block sequence entries are not allowed in this context":       func(c byte) bool { return c == '-' },
	"mapping keys are not allowed in this context":                 func(c byte) bool { return c == '?' },
	"found a tab character that violates indentation":              func(c byte) bool { return c == '\t' },
	"found a tab character where an indentation space is expected": func(c byte) bool { return c == '\t' },
	"found character that cannot start any token":                  func(c byte) bool { return c != ' ' && c != '\n' && c != '\r' },
	"found unknown escape character":                               notBlank,
	"did not find expected hexdecimal number":                      notBlank,
	"found unexpected document indicator":                          func(c byte) bool { return c == '-' || c == '.' },
	"found undefined tag handle":                                   func(c byte) bool { return c == '!' },
	"found an indentation indicator equal to 0":                    func(c byte) bool { return c == '0' },
	"found invalid Unicode character escape code":                  notBlank,
	"did not find expected comment or line break":                  notBlank,
	"did not find expected alphabetic or numeric character":        func(c byte) bool { return c == '&' || c == '*' },
	"did not find expected <document start>":                       notBlank,
	"found unexpected end of stream":                               func(c byte) bool { return c == '"' || c == '\'' },
	"could not find expected ':'":                                  notBlank,
	"did not find expected key":                                    notBlank,
	"did not find expected '-' indicator":                          notBlank,
	"did not find expected node content":                           notBlank,
	"did not find expected ',' or '}'":                             notBlank,
	"did not find expected ',' or ']'":                             notBlank,
}

func notBlank(c byte) bool { return c != ' ' && c != '\t' && c != '\n' && c != '\r' }

// tokenProblems are the problems the library finds in the parser, which
// point at the start of a whole token (the probe finds its last
// character read); the others are the scanner's, at one character.
var tokenProblems = map[string]bool{
	"did not find expected key":              true,
	"did not find expected <document start>": true,
	"found undefined tag handle":             true,
	"did not find expected '-' indicator":    true,
	"did not find expected node content":     true,
	"did not find expected ',' or '}'":       true,
	"did not find expected ',' or ']'":       true,
}

// escapeProblems are the problems of an escape in a double-quoted value,
// reported at its backslash.
var escapeProblems = map[string]bool{
	"found unknown escape character":              true,
	"did not find expected hexdecimal number":     true,
	"found invalid Unicode character escape code": true,
}

// flowProblems are the problems inside a flow collection, where the file
// cut anywhere fails the same way (the collection is not closed): they
// are probed with the open collections closed.
var flowProblems = map[string]bool{
	"did not find expected ',' or '}'":   true,
	"did not find expected ',' or ']'":   true,
	"did not find expected node content": true,
}

// A prober parses beginnings of a file.
type prober struct {
	data   []byte
	starts []int // lineStarts(data)
	probes int
	// flowFrom is where the flow collection of a flow problem opens, at
	// the start of its line, or -1 for other problems.
	flowFrom int
}

// err is the YAML library's error text for the file's first end bytes,
// the flow collections open there closed when p.flowFrom >= 0; "" when it
// parses or can't be closed.
func (p *prober) err(end int) string {
	p.probes++
	src := p.data[:end]
	if p.flowFrom >= 0 && p.flowFrom <= end {
		st := scanFlow(p.data[p.flowFrom:end])
		if st.escaped || st.comment {
			return ""
		}
		src = append(append([]byte(nil), src...), st.closers(p.data[p.flowFrom:end])...)
	}
	// As decode reads the file: the first document, then whether another
	// one follows.
	dec := yaml.NewDecoder(bytes.NewReader(src))
	var doc, next yaml.Node
	err := decodeFirst(dec, &doc)
	if err == nil {
		err = decodeFirst(dec, &next)
	}
	if err != nil && err != io.EOF {
		return err.Error()
	}
	return ""
}

// quoteOpens reports whether the YAML parser reads the quote at q as the
// start of a quoted value: the file cut before it is not inside one, the
// file cut after it is.
func (p *prober) quoteOpens(q int) bool {
	const open = "found unexpected end of stream"
	if p.data[q] != '"' && p.data[q] != '\'' {
		return false
	}
	saved := p.flowFrom
	p.flowFrom = -1
	defer func() { p.flowFrom = saved }()
	return !strings.HasSuffix(p.err(q), open) && strings.HasSuffix(p.err(q+1), open)
}

// failsWithout reports whether the whole file, with the characters from
// off to last blanked (line breaks kept), fails with the error text.
func (p *prober) failsWithout(off, last int, text string) bool {
	blanked := bytes.Clone(p.data)
	for i := off; i <= last && i < len(blanked); i++ {
		if blanked[i] != '\n' && blanked[i] != '\r' {
			blanked[i] = ' '
		}
	}
	saved := p.data
	p.data = blanked
	defer func() { p.data = saved }()
	return p.err(len(blanked)) == text
}

// quoteEnd is the offset of the quote that closes the quoted value opening
// at q, or -1 when it runs to the end of the file.
func quoteEnd(data []byte, q int) int {
	for i := q + 1; i < len(data); i++ {
		switch {
		case data[q] == '"' && data[i] == '\\':
			i++
		case data[i] == data[q] && data[q] == '\'' && i+1 < len(data) && data[i+1] == '\'':
			i++
		case data[i] == data[q]:
			return i
		}
	}
	return -1
}

// tokenStart is the start of the token whose last character the probe
// found at off: the opening quote of a quoted value (which the parser
// confirms), the & * or ! of an anchor, alias or tag, else off itself.
func (p *prober) tokenStart(off int) int {
	if c := p.data[off]; c == '"' || c == '\'' {
		for q := off - 1; q >= 0 && p.probes < maxProbes; q-- {
			if p.data[q] == c && quoteEnd(p.data, q) == off && p.quoteOpens(q) {
				return q
			}
		}
	}
	start := off
	for start > 0 && !bytes.ContainsRune([]byte(" \t\n\r,[]{}"), rune(p.data[start-1])) {
		start--
	}
	if start < off && bytes.ContainsRune([]byte("&*!"), rune(p.data[start])) {
		return start
	}
	// A plain value that starts with - ? or : is read as one only once
	// the character after it is (any other one is a token from its first
	// character on, and the probe stops there).
	if off > 0 && bytes.ContainsRune([]byte("-?:"), rune(p.data[off-1])) {
		return off - 1
	}
	return off
}

// locateYAMLError returns the offset in data of the token the error f is
// about, when it can be found and checked.
func locateYAMLError(data []byte, f yamlFailure) (off int, p *prober, exact, ok bool) {
	if bytes.HasPrefix(data, []byte{0xfe, 0xff}) || bytes.HasPrefix(data, []byte{0xff, 0xfe}) {
		return 0, nil, false, false // UTF-16: offsets are not the parser's
	}
	want := problemChars[f.problem]
	anchor := strings.HasPrefix(f.problem, "unknown anchor '")
	if anchor {
		want = func(c byte) bool { return c == '*' }
	}
	if want == nil {
		return 0, nil, false, false
	}
	p = &prober{data: data, starts: lineStarts(data), flowFrom: -1}
	lineEnd := func(line int) int {
		if line < len(p.starts) {
			return p.starts[line]
		}
		return len(data)
	}
	if f.problem == "could not find expected ':'" {
		// A key without its colon: the library names the key's line, or,
		// when that is line 1, the line where it noticed; the key is the
		// first token of its line. Line 1 is the key's when the file cut
		// after it fails so.
		line := f.line
		if line > 1 && strings.HasSuffix(p.err(lineEnd(1)), f.problem) || line < 1 {
			line = 1
			if p.err(lineEnd(1)) != f.text {
				return 0, nil, false, false
			}
		}
		if line > len(p.starts) {
			return 0, nil, false, false
		}
		key := lineToken(data, p.starts[line-1], lineEnd(line))
		if key >= lineEnd(line) || !notBlank(data[key]) {
			return 0, nil, false, false
		}
		return key, p, true, true
	}
	if f.problem == "found unexpected end of stream" {
		// A quoted value left open at the end of the file. The library
		// names the line of its opening quote, or, when that is line 1,
		// the last line.
		for _, line := range []int{f.line, 1} {
			if line < 1 || line > len(p.starts) {
				continue
			}
			for q := p.starts[line-1]; q < lineEnd(line) && p.probes < maxProbes; q++ {
				if (data[q] == '"' || data[q] == '\'') && quoteEnd(data, q) < 0 && p.quoteOpens(q) {
					return q, p, true, true
				}
			}
		}
		return 0, nil, false, false
	}
	// The token is on the line the library names or after it (that line
	// is the construct's, or the one before it).
	first := max(f.line-1, 1)
	if first > len(p.starts) {
		return 0, nil, false, false
	}
	if flowProblems[f.problem] {
		// The library names the line before the collection's.
		p.flowFrom = 0
		if f.line > 0 {
			p.flowFrom = p.starts[min(f.line, len(p.starts)-1)]
		}
	}
	fails := func(end int) bool { return p.err(end) == f.text }
	// The first line whose end fails so (the file cut after the token
	// fails as the file does, cut before it does not): looked for in
	// steps doubling from the line named, then by halves, then checked
	// (the line before does not fail); one line after another when the
	// check fails.
	last := len(p.starts)
	lo, hi := first, first
	for step := 1; hi <= last && !fails(lineEnd(hi)); step *= 2 {
		lo, hi = hi+1, hi+step
	}
	hi = min(hi, last)
	line := lo + sort.Search(hi-lo+1, func(i int) bool { return fails(lineEnd(lo + i)) })
	if line > last || line > first && fails(lineEnd(line-1)) {
		for line = first; line <= last && p.probes < maxProbes && !fails(lineEnd(line)); line++ {
		}
	}
	if line > last || p.probes >= maxProbes || fails(p.starts[line-1]) {
		return 0, nil, false, false
	}
	// The first character of the line whose cut fails so: found by
	// halves, then checked (the cut before it does not fail); one by one
	// when the check fails.
	var ends []int // the end of each character of the line
	for i := p.starts[line-1]; i < lineEnd(line); {
		_, size := utf8.DecodeRune(data[i:])
		i += size
		ends = append(ends, i)
	}
	k := sort.Search(len(ends), func(k int) bool { return fails(ends[k]) })
	if k == len(ends) || k > 0 && fails(ends[k-1]) {
		for k = 0; k < len(ends) && p.probes < maxProbes && !fails(ends[k]); k++ {
		}
	}
	if k < len(ends) && p.probes < maxProbes {
		off := p.starts[line-1]
		if k > 0 {
			off = ends[k-1]
		}
		if f.problem == "found unexpected document indicator" {
			off = p.starts[line-1] // --- or ... at the start of a line
		}
		if escapeProblems[f.problem] {
			// The escape starts at its backslash, on this line.
			if i := bytes.LastIndexByte(data[p.starts[line-1]:off+1], '\\'); i >= 0 {
				off = p.starts[line-1] + i
			}
		}
		exact := true
		if tokenProblems[f.problem] || anchor {
			// The parser's problems are at a token, read whole before it
			// fails: a value indicator once the blank after it is read.
			for off > p.starts[line-1] && (data[off] == ' ' || data[off] == '\t') {
				off--
			}
			last := off
			off = p.tokenStart(off)
			if !flowProblems[f.problem] {
				off, exact = simpleKeyStart(data, p.starts[line-1], off)
			}
			if exact && (data[off] == '"' || data[off] == '\'') && p.failsWithout(off, last, f.text) {
				// The scanner reads ahead past a value that may be a key:
				// the error can be about a token before the quoted value
				// found, whose error showed only once this one was read.
				// The file without the value failing the same way says so.
				exact = false
			}
		}
		if !want(data[off]) {
			return 0, nil, false, false
		}
		return off, p, exact, true
	}
	return 0, nil, false, false
}

// lineStarts returns the offset where each line of data starts, lines
// ending as the YAML parser ends them (\r\n, \r, \n, NEL, LS, PS).
func lineStarts(data []byte) []int {
	starts := []int{0}
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		i += size
		switch r {
		case '\r':
			if i < len(data) && data[i] == '\n' {
				i++
			}
			starts = append(starts, i)
		case '\n', '\u0085', '\u2028', '\u2029':
			starts = append(starts, i)
		}
	}
	return starts
}

// lineCol is the line and column of offset off, as the YAML parser counts
// them: columns in characters, a byte order mark not counted.
func lineCol(data []byte, off int) (line, col int) {
	starts := lineStarts(data[:off])
	start := starts[len(starts)-1]
	if start == 0 && bytes.HasPrefix(data, []byte("\ufeff")) {
		start = len("\ufeff")
	}
	return len(starts), utf8.RuneCount(data[start:off]) + 1
}

// flowState is what is open at a point of a YAML text, as far as a light
// scan tells: the flow collections, innermost last, and a quoted value.
type flowState struct {
	open       []int // offsets of the { and [ not closed
	quote      byte  // '"' or '\'' inside a quoted value, else 0
	quoteStart int
	escaped    bool // after a backslash in a double-quoted value
	comment    bool
	// lastQuote is the span of the last quoted value closed, from its
	// opening quote to its closing one.
	lastQuote [2]int
}

// scanFlow scans src: the quoted values, comments and flow collections
// it leaves open at its end. Brackets count only where a token starts or
// inside a flow collection, as YAML reads them.
func scanFlow(src []byte) flowState {
	var st flowState
	tokenStart, blank := true, true
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case st.comment:
			if c == '\n' || c == '\r' {
				st.comment, tokenStart, blank = false, true, true
			}
			continue
		case st.quote == '"':
			switch {
			case st.escaped:
				st.escaped = false
			case c == '\\':
				st.escaped = true
			case c == '"':
				st.quote, st.lastQuote = 0, [2]int{st.quoteStart, i}
			}
			continue
		case st.quote == '\'':
			if c == '\'' {
				if i+1 < len(src) && src[i+1] == '\'' {
					i++
				} else {
					st.quote, st.lastQuote = 0, [2]int{st.quoteStart, i}
				}
			}
			continue
		}
		nextBlank := i+1 >= len(src) || src[i+1] == ' ' || src[i+1] == '\t' || src[i+1] == '\n' || src[i+1] == '\r'
		inFlow := len(st.open) > 0
		switch {
		case c == '\n' || c == '\r':
			tokenStart, blank = true, true
			continue
		case c == ' ' || c == '\t':
			blank = true
			continue
		case c == '#' && blank:
			st.comment = true
			continue
		case (c == '"' || c == '\'') && tokenStart:
			st.quote, st.quoteStart = c, i
			tokenStart = false
		case (c == '{' || c == '[') && (tokenStart || inFlow):
			st.open = append(st.open, i)
			tokenStart = true
		case (c == '}' || c == ']') && inFlow:
			st.open = st.open[:len(st.open)-1]
			tokenStart = false
		case c == ',' && inFlow:
			tokenStart = true
		case c == ':' && (inFlow || nextBlank):
			tokenStart = true
		case (c == '-' || c == '?') && tokenStart && nextBlank:
			tokenStart = true
		default:
			tokenStart = false
		}
		blank = false
	}
	return st
}

// closers closes the quoted value and the flow collections st, the
// state at the end of src, leaves open.
func (st flowState) closers(src []byte) []byte {
	var out []byte
	if st.quote != 0 {
		out = append(out, st.quote)
	}
	for i := len(st.open) - 1; i >= 0; i-- {
		if src[st.open[i]] == '{' {
			out = append(out, '}')
		} else {
			out = append(out, ']')
		}
	}
	return out
}

// lineToken is where the first token of the line from lineStart to end
// starts: after its indentation and any "- " or "? ".
func lineToken(data []byte, lineStart, end int) int {
	i := lineStart
	for i < end && data[i] == ' ' || i+1 < end && (data[i] == '-' || data[i] == '?') && data[i+1] == ' ' {
		i++
	}
	return i
}

// simpleKeyStart is where the key starts that a value indicator at off
// ends, in the block context (so not for a flow problem): the parser's
// token there is the key, one token on one line. It is sure of it (exact)
// when the text before the indicator, after the line's indentation and
// any "- " or "? ", is one plain value; else it gives that text's start.
func simpleKeyStart(data []byte, lineStart, off int) (start int, exact bool) {
	if data[off] != ':' {
		return off, true
	}
	i := lineToken(data, lineStart, off)
	key := data[i:off]
	if len(key) == 0 || bytes.ContainsAny(key, "\"'\t") || bytes.Contains(key, []byte(": ")) || bytes.Contains(key, []byte(" #")) || bytes.ContainsAny(key[:1], "&*!|>{[%@`") {
		return i, false
	}
	return i, true
}

// hint is the fix of problem, found at offset off: "; " and what to do,
// or "".
func (p *prober) hint(off int, problem string) string {
	data := p.data
	hint := p.fix(off, problem)
	// A quoted value that runs over lines before the error is most often
	// one whose closing quote is missing: the error is where it ends.
	if q := scanFlow(data[:off]).lastQuote; q != [2]int{} && quoteEnd(data, q[0]) == q[1] && p.quoteOpens(q[0]) {
		open, _ := lineCol(data, q[0])
		end, _ := lineCol(data, q[1])
		here, _ := lineCol(data, off)
		if open < end && end <= here && open < here {
			_, col := lineCol(data, q[0])
			hint += fmt.Sprintf("; note that the quoted value opened at %d:%d runs to line %d: is its closing quote missing?", open, col, end)
		}
	}
	return hint
}

// fix is the fix hint gives, without the note.
func (p *prober) fix(off int, problem string) string {
	data := p.data
	c := data[off]
	starts := lineStarts(data[:off])
	lineStart := starts[len(starts)-1]
	lineEnd := len(data)
	if i := bytes.IndexAny(data[off:], "\r\n\u0085\u2028\u2029"); i >= 0 {
		lineEnd = off + i
	}
	line := string(data[lineStart:lineEnd])
	before := string(data[lineStart:off])
	prevLine, prev := previousLine(data, lineStart)
	prevKeyless := prev != "" && !strings.Contains(prev, ": ") && !strings.HasSuffix(prev, ":") && !strings.HasPrefix(strings.TrimSpace(prev), "- ")
	switch {
	case c == '\t':
		return "; YAML does not allow tabs in indentation: indent with spaces, not tabs"
	case problem == "mapping values are not allowed in this context":
		if q, ok := quoteValue(line); ok && strings.Contains(before, ": ") {
			return "; \": \" in a plain value starts a mapping: quote the value: " + q
		}
		if prevKeyless {
			return fmt.Sprintf("; line %d (%s) has no \": \" after its key, so YAML reads this line as more of its value: write the colon there", prevLine, strings.TrimSpace(prev))
		}
		if prev != "" {
			return fmt.Sprintf("; this line is indented deeper than the key on line %d, so YAML reads it as more of that key's value: indent it like that key, or quote the value if \": \" is part of it", prevLine)
		}
		return "; quote the value if \": \" is part of it"
	case problem == "found character that cannot start any token":
		if q, ok := quoteValue(line); ok {
			return fmt.Sprintf("; a value can't start with %q in YAML: quote it: %s", c, q)
		}
		return fmt.Sprintf("; a value can't start with %q in YAML: quote it", c)
	case problem == "block sequence entries are not allowed in this context":
		return "; a list item (\"- \") starts its own line, indented under its key; or quote the value"
	case problem == "mapping keys are not allowed in this context":
		return "; quote the value"
	case problem == "found unexpected end of stream":
		if c == '"' {
			return "; the quoted value that opens here is never closed: end it with \" (write \\\" for a quote inside it)"
		}
		return "; the quoted value that opens here is never closed: end it with ' (write '' for a quote inside it)"
	case escapeProblems[problem]:
		return "; a backslash in a double-quoted value starts an escape (\\n, \\\", \\\\): write \\\\ for a backslash, or single-quote the value"
	case problem == "could not find expected ':'":
		if strings.HasPrefix(strings.TrimSpace(prev), "- ") && indent(prev) == indent(line) {
			return fmt.Sprintf("; this line sits in the list of line %d: start it with \"- \"", prevLine)
		}
		return "; a key needs \": \" after it; if this line continues the value above, indent it deeper than that value's key"
	case problem == "did not find expected '-' indicator":
		return "; this line sits in a list: start it with \"- \", or indent it like the key the list belongs to"
	case problem == "did not find expected key":
		switch {
		case strings.ContainsAny(strings.TrimSpace(before), "\"'"):
			return "; text follows a quoted value: put the whole value inside the quotes"
		case c == '}' || c == ']':
			return fmt.Sprintf("; nothing opens this %q: remove it", c)
		case prevKeyless && indent(prev) == indent(line):
			return fmt.Sprintf("; line %d (%s) has no \": \" after its key, so YAML reads it as a value: write the colon there", prevLine, strings.TrimSpace(prev))
		case prev != "" && indent(prev) != indent(line):
			return fmt.Sprintf("; this line is indented by %s and line %d by %s: the keys of one mapping line up (indent with spaces)", spaces(indent(line)), prevLine, spaces(indent(prev)))
		}
		return "; indent this line like the keys of the mapping it belongs to (with spaces)"
	case problem == "did not find expected ',' or '}'", problem == "did not find expected ',' or ']'":
		closer, what := "}", "mapping {"
		if strings.HasSuffix(problem, "']'") {
			closer, what = "]", "list ["
		}
		from := max(p.flowFrom, 0)
		if from > off {
			// The probe found the collection's opening past the error
			// (the file ends inside it, "{0\n"): scan from the start.
			from = 0
		}
		st := scanFlow(data[from:off])
		if len(st.open) == 0 {
			return fmt.Sprintf("; separate the entries of a flow %s with ',' and end it with '%s'", what, closer)
		}
		at := from + st.open[len(st.open)-1]
		l, col := lineCol(data, at)
		if here, _ := lineCol(data, off); l < here {
			return fmt.Sprintf("; the flow %s opened at %d:%d is still open here: end it with '%s' (or separate its entries with ',')", what, l, col, closer)
		}
		return fmt.Sprintf("; separate the entries of the flow %s opened at %d:%d with ',' and end it with '%s'; quote a value that holds \": \", ',' or brackets", what, l, col, closer)
	case problem == "did not find expected alphabetic or numeric character":
		return fmt.Sprintf("; %q starts an anchor (&name) or an alias (*name), and a name follows it: quote the value if %q is part of it", c, c)
	case problem == "found undefined tag handle":
		return "; a spec uses no tags: quote the value if \"!\" is part of it"
	case problem == "found an indentation indicator equal to 0":
		return "; the digit after | or > is the indentation of the lines of the value, 1 to 9: remove it or write one of those"
	case problem == "found unexpected document indicator":
		return "; a line that starts with --- or ... ends the document, even inside a quoted value: indent it"
	case problem == "did not find expected <document start>":
		return "; the spec ends before this line (a value at the top level, or a line indented less than the first one): a spec is one mapping, its keys at the first column"
	case problem == "did not find expected comment or line break":
		return "; this text can't follow what comes before it on the line: quote the whole value, or start a comment with \" #\""
	case strings.HasPrefix(problem, "unknown anchor '"):
		return "; define the anchor (&name) before this alias (*name) uses it"
	}
	return ""
}

// previousLine is the last line before the line starting at lineStart
// that holds more than blanks and a comment, and its number; "" when
// there is none.
func previousLine(data []byte, lineStart int) (int, string) {
	starts := lineStarts(data[:lineStart])
	// starts ends with lineStart itself (or 0): the lines before are
	// starts[:len-1].
	for n := len(starts) - 1; n >= 1; n-- {
		text := strings.TrimRight(string(data[starts[n-1]:starts[n]]), "\r\n\u0085\u2028\u2029")
		if t := strings.TrimSpace(text); t != "" && !strings.HasPrefix(t, "#") {
			return n, text
		}
	}
	return 0, ""
}

// spaces is "n spaces", or "1 space".
func spaces(n int) string {
	if n == 1 {
		return "1 space"
	}
	return strconv.Itoa(n) + " spaces"
}

// indent is the number of spaces line starts with.
func indent(line string) int { return len(line) - len(strings.TrimLeft(line, " ")) }

// quoteValue rewrites a "key: value" line with its value quoted, for a
// hint: false when the line is not one.
func quoteValue(line string) (string, bool) {
	text := strings.TrimLeft(line, " \t")
	for strings.HasPrefix(text, "- ") {
		text = strings.TrimLeft(text[2:], " ")
	}
	key, val, ok := strings.Cut(text, ": ")
	if !ok || key == "" || strings.ContainsAny(key[:1], "\"'{[#") {
		return "", false
	}
	val = strings.TrimSpace(val)
	if i := strings.Index(val, " #"); i >= 0 {
		val = strings.TrimSpace(val[:i])
	}
	if val == "" {
		return "", false
	}
	if strings.ContainsAny(val, "\"\\") {
		return key + ": '" + strings.ReplaceAll(val, "'", "''") + "'", true
	}
	return key + ": \"" + val + "\"", true
}

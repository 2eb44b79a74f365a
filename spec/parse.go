package spec

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/dyngen/dyngen/internal/diag"
	suggestpkg "github.com/dyngen/dyngen/internal/suggest"
	"go.yaml.in/yaml/v3"
)

// maxAliases bounds how many YAML alias expansions a spec may make, so a
// small file can't expand into an enormous tree.
const maxAliases = 1000

// Parse reads the spec in data, named file in diagnostics. It returns the
// syntax tree (possibly partial) and every shape problem found; the tree
// is only meaningful when diags holds no error.
func Parse(file string, data []byte) (f *File, diags *diag.List) {
	diags = new(diag.List)
	f = &File{Name: file, Pos: Pos{File: file}}
	if badCharacters(file, data, diags) {
		return f, diags
	}
	root, err := decode(data)
	if err != nil {
		pos, msg := yamlError(file, data, err)
		diags.Errorf(pos, "%s", msg)
		return f, diags
	}
	p := &parser{file: file, diags: diags}
	p.file1(root, f)
	return f, diags
}

// maxBadLines bounds the lines badCharacters reports one by one.
const maxBadLines = 10

// badCharacters reports the characters the YAML parser refuses (invalid
// UTF-8, control characters), which it reports with no position: the first
// of each line, at its line and column as the parser counts them (in
// characters, after a byte order mark, with \r\n, \r, NEL, LS and PS as
// line breaks). It reports whether it found any. UTF-16 (a spec that starts
// with its byte order mark) is left to the parser.
func badCharacters(file string, data []byte, diags *diag.List) bool {
	if bytes.HasPrefix(data, []byte{0xfe, 0xff}) || bytes.HasPrefix(data, []byte{0xff, 0xfe}) {
		return false
	}
	i := 0
	if bytes.HasPrefix(data, []byte("\ufeff")) {
		i = len("\ufeff")
	}
	line, col := 1, 1
	bad, lastBad, more := 0, 0, 0
	var morePos Pos
	for i < len(data) {
		r, size := utf8.DecodeRune(data[i:])
		var msg string
		switch {
		case r == utf8.RuneError && size == 1:
			msg = fmt.Sprintf("byte 0x%02x is not valid UTF-8, which a spec must be; save the file as UTF-8", data[i])
		case !yamlAllows(r):
			msg = fmt.Sprintf("the spec holds %s, a control character YAML does not allow; remove it", describeControl(r))
		}
		if msg != "" && line != lastBad {
			lastBad = line
			pos := Pos{File: file, Line: line, Col: col}
			if bad < maxBadLines {
				bad++
				diags.Errorf(pos, "%s", msg)
			} else {
				if more == 0 {
					morePos = pos
				}
				more++
			}
		}
		switch r {
		case '\r':
			if i+1 < len(data) && data[i+1] == '\n' {
				i++
			}
			line, col = line+1, 1
		case '\n', '\u0085', '\u2028', '\u2029':
			line, col = line+1, 1
		default:
			col++
		}
		i += size
	}
	if more > 0 {
		diags.Errorf(morePos, "%d more lines from here hold characters YAML does not allow; is the file a YAML spec?", more)
	}
	return bad > 0
}

// yamlAllows reports whether YAML allows r in a stream: tab, line breaks
// and the printable characters.
func yamlAllows(r rune) bool {
	switch {
	case r == '\t', r == '\n', r == '\r', r == 0x85:
		return true
	case r >= 0x20 && r <= 0x7e, r >= 0xa0 && r <= 0xd7ff, r >= 0xe000 && r <= 0xfffd:
		return true
	}
	return r >= 0x10000 && r <= 0x10ffff
}

func describeControl(r rune) string {
	if r == 0 {
		return "a NUL byte (U+0000)"
	}
	return fmt.Sprintf("U+%04X", r)
}

// decode parses the YAML text into one document node. The YAML library is
// called under recover so that no input can crash the generator.
func decode(data []byte) (root *yaml.Node, err error) {
	defer func() {
		if r := recover(); r != nil {
			root, err = nil, fmt.Errorf("the YAML parser failed on this input: %v", r)
		}
	}()
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, errors.New("the spec is empty")
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := decodeFirst(dec, &doc); err != nil {
		if err == io.EOF {
			return nil, errors.New("the spec is empty")
		}
		return nil, err
	}
	var next yaml.Node
	if err := dec.Decode(&next); err != io.EOF {
		if err != nil {
			return nil, err
		}
		return nil, &posError{next.Line, next.Column, "a spec holds one YAML document; remove the second one (after ---)"}
	}
	return &doc, nil
}

// decodeFirst decodes the next document of dec into doc, under recover
// (so that no input can crash the generator).
func decodeFirst(dec *yaml.Decoder, doc *yaml.Node) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the YAML parser failed on this input: %v", r)
		}
	}()
	return dec.Decode(doc)
}

type posError struct {
	line, col int
	msg       string
}

func (e *posError) Error() string { return e.msg }

type parser struct {
	file    string
	diags   *diag.List
	aliases int
}

func (p *parser) pos(n *yaml.Node) Pos {
	return Pos{File: p.file, Line: n.Line, Col: n.Column}
}

func (p *parser) errorf(n *yaml.Node, format string, args ...any) {
	p.diags.Errorf(p.pos(n), format, args...)
}

// resolve follows aliases, bounded by maxAliases. It returns nil (after
// reporting) when the bound is passed.
func (p *parser) resolve(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		p.aliases++
		if p.aliases > maxAliases {
			if p.aliases == maxAliases+1 {
				p.errorf(n, "the spec expands more than %d YAML aliases; write the values out", maxAliases)
			}
			return nil
		}
		n = n.Alias
	}
	return n
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!null":
			return "empty"
		case "!!int", "!!float":
			return "a number"
		case "!!bool":
			return "a boolean"
		case "!!str":
			return "a string"
		}
		return "a " + strings.TrimPrefix(n.Tag, "!!")
	}
	return "something else"
}

// entry is one key/value pair of a mapping.
type entry struct {
	key, val *yaml.Node
	name     string
}

// entries returns the pairs of a mapping node in order, reporting keys
// that are not strings and duplicate keys (the duplicate is dropped).
func (p *parser) entries(n *yaml.Node, what string) []entry {
	n = p.resolve(n)
	if n == nil {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		p.errorf(n, "%s must be a mapping, not %s", what, kindName(n))
		return nil
	}
	var out []entry
	seen := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := p.resolve(n.Content[i]), n.Content[i+1]
		if k == nil {
			continue
		}
		if k.Kind != yaml.ScalarNode || k.Tag == "!!null" {
			p.errorf(k, "a key of %s must be a name, not %s", what, kindName(k))
			continue
		}
		if k.Tag == "!!merge" {
			p.errorf(k, "YAML merge keys (<<) are not supported in a spec; write the keys out")
			continue
		}
		if first, dup := seen[k.Value]; dup {
			p.errorf(k, "duplicate key %q in %s (first at line %d)", k.Value, what, first.Line)
			continue
		}
		seen[k.Value] = k
		out = append(out, entry{key: k, val: v, name: k.Value})
	}
	return out
}

// fields walks a mapping whose keys are fixed: each key must be one of the
// handlers' names; an unknown key is reported with the nearest known one.
func (p *parser) fields(n *yaml.Node, what string, handlers map[string]func(k, v *yaml.Node)) {
	for _, e := range p.entries(n, what) {
		h, ok := handlers[e.name]
		if !ok {
			known := make([]string, 0, len(handlers))
			for name := range handlers {
				known = append(known, name)
			}
			slices.Sort(known)
			p.errorf(e.key, "unknown key %q in %s%s", e.name, what, suggest(e.name, known))
			continue
		}
		h(e.key, e.val)
	}
}

// suggest returns "; did you mean X?" for the known name nearest to name,
// or a list of the known names when none is near.
func suggest(name string, known []string) string {
	if hint := suggestpkg.DidYouMean(name, known); hint != "" {
		return hint
	}
	if len(known) == 0 {
		return ""
	}
	return "; known keys: " + strings.Join(known, ", ")
}

// str reads a string scalar. Plain scalars YAML would read as numbers or
// booleans are refused, with the advice to quote them.
func (p *parser) str(n *yaml.Node, what string) Str {
	use := n // where the value is used: an alias, or the value itself
	n = p.resolve(n)
	if n == nil {
		return Str{}
	}
	if n.Kind != yaml.ScalarNode || n.Tag != "!!str" {
		if n.Kind == yaml.ScalarNode && n.Tag != "!!null" {
			p.errorf(use, "%s must be a string, not %s; quote it: \"%s\"", what, kindName(n), n.Value)
		} else {
			p.errorf(use, "%s must be a string, not %s", what, kindName(n))
		}
		return Str{Pos: p.pos(use)}
	}
	return Str{Value: n.Value, Pos: p.pos(use), Set: true}
}

// name reads a mapping key as a Str.
func (p *parser) name(k *yaml.Node) Str {
	return Str{Value: k.Value, Pos: p.pos(k), Set: true}
}

func (p *parser) integer(n *yaml.Node, what string) Int {
	use := n // where the value is used: an alias, or the value itself
	n = p.resolve(n)
	if n == nil {
		return Int{}
	}
	if n.Kind == yaml.ScalarNode && n.Tag == "!!float" && strings.Trim(n.Value, "+-0123456789_") == "" {
		p.errorf(use, "%s: %s is too large for a 64-bit integer", what, n.Value)
		return Int{Pos: p.pos(use)}
	}
	if n.Kind != yaml.ScalarNode || n.Tag != "!!int" {
		p.errorf(use, "%s must be an integer, not %s", what, kindName(n))
		return Int{Pos: p.pos(use)}
	}
	var v int64
	if err := n.Decode(&v); err != nil {
		p.errorf(use, "%s: %q is not a 64-bit integer", what, n.Value)
		return Int{Pos: p.pos(use)}
	}
	return Int{Value: v, Pos: p.pos(use), Set: true}
}

func (p *parser) boolean(n *yaml.Node, what string) Bool {
	use := n // where the value is used: an alias, or the value itself
	n = p.resolve(n)
	if n == nil {
		return Bool{}
	}
	if n.Kind != yaml.ScalarNode || n.Tag != "!!bool" {
		p.errorf(use, "%s must be true or false, not %s", what, kindName(n))
		return Bool{Pos: p.pos(use)}
	}
	var v bool
	if err := n.Decode(&v); err != nil {
		p.errorf(use, "%s must be true or false", what)
		return Bool{Pos: p.pos(use)}
	}
	return Bool{Value: v, Pos: p.pos(use), Set: true}
}

func (p *parser) number(n *yaml.Node, what string) Number {
	use := n // where the value is used: an alias, or the value itself
	n = p.resolve(n)
	if n == nil {
		return Number{}
	}
	out := Number{Pos: p.pos(use), Text: n.Value}
	if n.Kind != yaml.ScalarNode || (n.Tag != "!!int" && n.Tag != "!!float") {
		p.errorf(use, "%s must be a number, not %s", what, kindName(n))
		return out
	}
	if n.Tag == "!!int" {
		if err := n.Decode(&out.Int); err != nil {
			p.errorf(use, "%s: %q is not a 64-bit integer", what, n.Value)
			return out
		}
		out.IsInt = true
		out.Value = float64(out.Int)
	} else if err := n.Decode(&out.Value); err != nil || math.IsNaN(out.Value) || math.IsInf(out.Value, 0) {
		p.errorf(use, "%s: %q is not a finite number", what, n.Value)
		return out
	}
	out.Present = true
	return out
}

// strList reads a list of strings.
func (p *parser) strList(n *yaml.Node, what string) []Str {
	n = p.resolve(n)
	if n == nil {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		p.errorf(n, "%s must be a list, not %s", what, kindName(n))
		return nil
	}
	out := make([]Str, 0, len(n.Content))
	for _, item := range n.Content {
		s := p.str(item, "an item of "+what)
		if s.Set {
			out = append(out, s)
		}
	}
	return out
}

func (p *parser) file1(doc *yaml.Node, f *File) {
	root := doc
	if doc.Kind == yaml.DocumentNode && len(doc.Content) == 1 {
		root = doc.Content[0]
	}
	f.Pos = p.pos(root)
	f.TablesPos, f.EntitiesPos, f.PatternsPos = f.Pos, f.Pos, f.Pos
	var sawVersion, sawPackage, sawTables, sawEntities bool
	before := p.diags.Len()
	p.fields(root, "the spec", map[string]func(k, v *yaml.Node){
		"version": func(k, v *yaml.Node) {
			sawVersion = true
			f.Version = p.integer(v, "version")
			if f.Version.Set && f.Version.Value != 1 {
				p.errorf(v, "version %d is not supported; this dyngen reads version 1", f.Version.Value)
			}
		},
		"package": func(k, v *yaml.Node) { sawPackage = true; f.Package = p.str(v, "package") },
		"doc":     func(k, v *yaml.Node) { f.Doc = p.str(v, "doc") },
		"tables": func(k, v *yaml.Node) {
			sawTables = true
			f.TablesPos = p.pos(k)
			for _, e := range p.entries(v, "tables") {
				f.Tables = append(f.Tables, p.table(e))
			}
			if len(f.Tables) == 0 && p.isEmptyMapping(v) {
				p.errorf(v, "tables is empty; define at least one table")
			}
		},
		"objects": func(k, v *yaml.Node) {
			for _, e := range p.entries(v, "objects") {
				f.Objects = append(f.Objects, p.object(e))
			}
		},
		"entities": func(k, v *yaml.Node) {
			sawEntities = true
			f.EntitiesPos = p.pos(k)
			for _, e := range p.entries(v, "entities") {
				f.Entities = append(f.Entities, p.entity(e))
			}
			if len(f.Entities) == 0 && p.isEmptyMapping(v) {
				p.errorf(v, "entities is empty; define at least one entity")
			}
		},
		"patterns": func(k, v *yaml.Node) {
			f.PatternsPos = p.pos(k)
			for _, e := range p.entries(v, "patterns") {
				f.Patterns = append(f.Patterns, p.pattern(e))
			}
		},
		"consumers": func(k, v *yaml.Node) {
			for _, e := range p.entries(v, "consumers") {
				f.Consumers = append(f.Consumers, p.consumer(e))
			}
		},
		"outputs": func(k, v *yaml.Node) {
			for _, e := range p.entries(v, "outputs") {
				f.Outputs = append(f.Outputs, p.output(e))
			}
		},
		"accept": func(k, v *yaml.Node) {
			for _, e := range p.entries(v, "accept") {
				f.Accept = append(f.Accept, &Accept{ID: Str{Value: e.name, Pos: p.pos(e.key), Set: true}, Reason: p.str(e.val, "the reason of accept "+e.name)})
			}
		},
	})
	if root.Kind != yaml.MappingNode || p.diags.Len() > before {
		// A misspelt key already explains what is missing.
		return
	}
	for _, req := range []struct {
		saw  bool
		name string
		hint string
	}{
		{sawVersion, "version", "add `version: 1`"},
		{sawPackage, "package", "add `package: <go package name>`"},
		{sawTables, "tables", "add at least one table"},
		{sawEntities, "entities", "add at least one entity"},
	} {
		if !req.saw {
			p.errorf(root, "the spec has no %s; %s", req.name, req.hint)
		}
	}
}

// output reads one entry of outputs: the format's name, then nothing
// (the defaults) or its options.
func (p *parser) output(e entry) *Output {
	o := &Output{Kind: p.name(e.key), Pos: p.pos(e.key)}
	if !slices.Contains(OutputKinds, e.name) {
		p.errorf(e.key, "unknown output %q%s", e.name, suggest(e.name, OutputKinds))
		return o
	}
	if v := p.resolve(e.val); v == nil || v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
		return o
	}
	p.fields(e.val, "output "+e.name, map[string]func(k, v *yaml.Node){
		"file": func(k, v *yaml.Node) { o.File = p.str(v, "file") },
	})
	return o
}

// consumer reads one entry of consumers.
func (p *parser) consumer(e entry) *Consumer {
	c := &Consumer{Name: p.name(e.key), Pos: p.pos(e.val)}
	what := "consumer " + e.name
	c.OnPos = c.Pos
	p.fields(e.val, what, map[string]func(k, v *yaml.Node){
		"doc":   func(k, v *yaml.Node) { c.Doc = p.str(v, "doc") },
		"table": func(k, v *yaml.Node) { c.Table = p.str(v, "table") },
		"on": func(k, v *yaml.Node) {
			c.OnPos = p.pos(k)
			for _, oe := range p.entries(v, "on of "+what) {
				c.On = append(c.On, p.consumerOn(oe, what))
			}
		},
		"lambda": func(k, v *yaml.Node) { c.Lambda = p.consumerLambda(k, v, what) },
		"release": func(k, v *yaml.Node) {
			c.ReleasePos = p.pos(k)
			c.Release = p.nonEmptyList(v, "release of "+what)
		},
	})
	return c
}

// consumerOn reads one entity of a consumer's on: a list of operations,
// or a mapping of each operation to the images it reads.
func (p *parser) consumerOn(e entry, what string) *ConsumerOn {
	on := &ConsumerOn{Entity: p.name(e.key)}
	what = "on " + e.name + " of " + what
	v := p.resolve(e.val)
	if v == nil {
		return on
	}
	switch v.Kind {
	case yaml.SequenceNode:
		for _, op := range p.nonEmptyList(v, what) {
			on.Ops = append(on.Ops, ConsumerOp{Op: op})
		}
	case yaml.MappingNode:
		for _, oe := range p.entries(v, what) {
			on.Ops = append(on.Ops, ConsumerOp{Op: p.name(oe.key), Image: p.str(oe.val, "the images of "+oe.name)})
		}
		if len(v.Content) == 0 {
			p.errorf(v, "%s lists no operation; list insert, modify or remove", what)
		}
	default:
		p.errorf(v, "%s must list operations (insert, modify, remove) or map each to the images it reads, not %s", what, describe(v))
	}
	return on
}

// consumerLambda reads a consumer's lambda: true, or its settings.
func (p *parser) consumerLambda(k, v *yaml.Node, what string) *ConsumerLambda {
	l := &ConsumerLambda{Pos: p.pos(k)}
	r := p.resolve(v)
	if r == nil {
		return nil
	}
	if r.Kind == yaml.ScalarNode {
		b := p.boolean(v, "lambda of "+what)
		if !b.Value {
			return nil
		}
		return l
	}
	p.fields(v, "lambda of "+what, map[string]func(k, v *yaml.Node){
		"batchSize":        func(k, v *yaml.Node) { l.BatchSize = p.integer(v, "batchSize") },
		"startingPosition": func(k, v *yaml.Node) { l.StartingPosition = p.str(v, "startingPosition") },
	})
	return l
}

// OutputKinds are the formats outputs: may name, in the order the
// reference lists them.
var OutputKinds = []string{"cloudformation", "terraform", "createTable", "workbench", "design", "iam", "migration"}

func (p *parser) keyAttr(n *yaml.Node, what string) *KeyAttr {
	n = p.resolve(n)
	if n == nil {
		return nil
	}
	ka := &KeyAttr{Pos: p.pos(n)}
	if n.Kind == yaml.ScalarNode {
		ka.Name = p.str(n, what)
		return ka
	}
	if n.Kind != yaml.MappingNode {
		p.errorf(n, "%s must be an attribute name or {name, type}, not %s", what, kindName(n))
		return ka
	}
	p.fields(n, what, map[string]func(k, v *yaml.Node){
		"name": func(k, v *yaml.Node) { ka.Name = p.str(v, what+" name") },
		"type": func(k, v *yaml.Node) { ka.Type = p.str(v, what+" type") },
	})
	if !ka.Name.Set {
		p.errorf(n, "%s has no name", what)
	}
	return ka
}

// keyAttrs reads an index's partition or sort key: one key attribute, or
// a list of them (a multi-attribute key), with the list's position.
func (p *parser) keyAttrs(n *yaml.Node, what string) ([]*KeyAttr, *Pos) {
	r := p.resolve(n)
	if r == nil {
		return nil, nil
	}
	if r.Kind != yaml.SequenceNode {
		if ka := p.keyAttr(r, what); ka != nil {
			return []*KeyAttr{ka}, nil
		}
		return nil, nil
	}
	pos := p.pos(r)
	if len(r.Content) == 0 {
		p.errorf(r, "%s lists no attribute", what)
	}
	var out []*KeyAttr
	for _, item := range r.Content {
		if ka := p.keyAttr(item, what); ka != nil {
			out = append(out, ka)
		}
	}
	return out, &pos
}

func (p *parser) table(e entry) *Table {
	t := &Table{Name: p.name(e.key), Pos: p.pos(e.val)}
	what := "table " + e.name
	p.fields(e.val, what, map[string]func(k, v *yaml.Node){
		"doc":             func(k, v *yaml.Node) { t.Doc = p.str(v, "doc") },
		"partitionKey":    func(k, v *yaml.Node) { t.PartitionKey = p.keyAttr(v, "partitionKey") },
		"sortKey":         func(k, v *yaml.Node) { t.SortKey = p.keyAttr(v, "sortKey") },
		"entityAttribute": func(k, v *yaml.Node) { t.EntityAttribute = p.str(v, "entityAttribute") },
		"ttl":             func(k, v *yaml.Node) { t.TTL = p.str(v, "ttl") },
		"stream":          func(k, v *yaml.Node) { t.Stream = p.str(v, "stream") },
		"indexes": func(k, v *yaml.Node) {
			for _, ie := range p.entries(v, "indexes of "+what) {
				t.Indexes = append(t.Indexes, p.index(ie))
			}
		},
	})
	return t
}

func (p *parser) index(e entry) *Index {
	ix := &Index{Name: p.name(e.key), Pos: p.pos(e.val)}
	p.fields(e.val, "index "+e.name, map[string]func(k, v *yaml.Node){
		"doc":          func(k, v *yaml.Node) { ix.Doc = p.str(v, "doc") },
		"renamedFrom":  func(k, v *yaml.Node) { ix.RenamedFrom = p.str(v, "renamedFrom") },
		"partitionKey": func(k, v *yaml.Node) { ix.PartitionKey, ix.PartitionList = p.keyAttrs(v, "partitionKey") },
		"sortKey":      func(k, v *yaml.Node) { ix.SortKey, ix.SortList = p.keyAttrs(v, "sortKey") },
		"local":        func(k, v *yaml.Node) { ix.Local = p.boolean(v, "local") },
		"projection":   func(k, v *yaml.Node) { ix.Projection = p.projection(v) },
	})
	return ix
}

func (p *parser) projection(n *yaml.Node) *Projection {
	n = p.resolve(n)
	if n == nil {
		return nil
	}
	pr := &Projection{Pos: p.pos(n)}
	switch {
	case n.Kind == yaml.SequenceNode:
		pr.Kind = "include"
		pr.Attrs = p.strList(n, "projection")
		if len(n.Content) == 0 {
			p.errorf(n, "projection lists no attribute; use `keys` to project only the keys")
		}
	case n.Kind == yaml.ScalarNode && n.Tag == "!!str" && (n.Value == "all" || n.Value == "keys"):
		pr.Kind = n.Value
	default:
		p.errorf(n, "projection must be all, keys or a list of attribute names, not %s", describe(n))
	}
	return pr
}

// describe names a node for a message: a scalar by its value.
func describe(n *yaml.Node) string {
	if n.Kind == yaml.ScalarNode && n.Tag != "!!null" {
		return strconv.Quote(n.Value)
	}
	return kindName(n)
}

func (p *parser) entity(e entry) *Entity {
	en := &Entity{Name: p.name(e.key), Pos: p.pos(e.val)}
	what := "entity " + e.name
	sawAttrs := false
	before := p.diags.Len()
	p.fields(e.val, what, map[string]func(k, v *yaml.Node){
		"doc":         func(k, v *yaml.Node) { en.Doc = p.str(v, "doc") },
		"renamedFrom": func(k, v *yaml.Node) { en.RenamedFrom = p.str(v, "renamedFrom") },
		"go":          func(k, v *yaml.Node) { en.Go = p.str(v, "go") },
		"table":       func(k, v *yaml.Node) { en.Table = p.str(v, "table") },
		"typeValue":   func(k, v *yaml.Node) { en.TypeValue = p.str(v, "typeValue") },
		"attributes": func(k, v *yaml.Node) {
			sawAttrs = true
			for _, ae := range p.entries(v, "attributes of "+what) {
				en.Attributes = append(en.Attributes, p.attribute(ae))
			}
		},
		"version": func(k, v *yaml.Node) { en.Version = p.str(v, "version") },
		"timestamps": func(k, v *yaml.Node) {
			v = p.resolve(v)
			if v == nil {
				return
			}
			ts := &Timestamps{Pos: p.pos(v)}
			before := p.diags.Len()
			p.fields(v, "timestamps of "+what, map[string]func(k, v *yaml.Node){
				"created": func(k, v *yaml.Node) { ts.Created = p.str(v, "created") },
				"updated": func(k, v *yaml.Node) { ts.Updated = p.str(v, "updated") },
			})
			if p.diags.Len() == before && !ts.Created.Set && !ts.Updated.Set {
				p.errorf(v, "timestamps of %s names no attribute; give created, updated or both", what)
			}
			en.Timestamps = ts
		},
		"unique": func(k, v *yaml.Node) { en.Unique = p.uniques(v); en.UniquePos = p.pos(k) },
		"counts": func(k, v *yaml.Node) { en.Counts = p.counts(v, what); en.CountsPos = p.pos(k) },
		"keys": func(k, v *yaml.Node) {
			for _, ke := range p.entries(v, "keys of "+what) {
				en.Keys = append(en.Keys, p.keys(ke, what))
			}
		},
		"copies": func(k, v *yaml.Node) {
			for _, ce := range p.entries(v, "copies of "+what) {
				en.Copies = append(en.Copies, p.keys(ce, what))
			}
		},
		"each": func(k, v *yaml.Node) {
			for _, ee := range p.entries(v, "each of "+what) {
				en.Each = append(en.Each, p.each(ee, what))
			}
		},
	})
	if !sawAttrs && p.diags.Len() == before && e.val.Kind == yaml.MappingNode {
		p.errorf(e.key, "%s has no attributes", what)
	}
	return en
}

// counts reads an entity's counts: a list of {name, per, by}.
func (p *parser) counts(n *yaml.Node, what string) []*Count {
	r := p.resolve(n)
	if r == nil {
		return nil
	}
	if r.Kind != yaml.SequenceNode {
		p.errorf(r, "counts of %s must be a list of {name, per, by}, not %s", what, kindName(r))
		return nil
	}
	if len(r.Content) == 0 {
		p.errorf(r, "counts of %s is empty", what)
		return nil
	}
	var out []*Count
	for _, it := range r.Content {
		it := p.resolve(it)
		if it == nil {
			continue
		}
		if it.Kind != yaml.MappingNode {
			p.errorf(it, "a count of %s must be a mapping {name, per, by}, not %s", what, kindName(it))
			continue
		}
		c := &Count{Pos: p.pos(it)}
		before := p.diags.Len()
		p.fields(it, "a count of "+what, map[string]func(k, v *yaml.Node){
			"name": func(k, v *yaml.Node) { c.Name = p.str(v, "name") },
			"per":  func(k, v *yaml.Node) { c.Per = p.strList(v, "per"); c.PerPos = p.pos(k) },
			"by":   func(k, v *yaml.Node) { c.By = p.str(v, "by") },
		})
		if p.diags.Len() != before {
			continue
		}
		if !c.Name.Set {
			p.errorf(it, "a count of %s has no name: give it name: <Name>, the counter entity's", what)
			continue
		}
		if !c.By.Set {
			p.errorf(it, "count %s of %s has no by: give it by: <attribute>, the enum or bool whose values are its groups", c.Name.Value, what)
			continue
		}
		if c.PerPos == (Pos{}) {
			c.PerPos = c.Pos
		}
		out = append(out, c)
	}
	return out
}

// object reads one named object type: its doc, Go name and fields.
func (p *parser) object(e entry) *Object {
	o := &Object{Name: p.name(e.key), Pos: p.pos(e.val)}
	what := "object " + e.name
	sawFields := false
	before := p.diags.Len()
	p.fields(e.val, what, map[string]func(k, v *yaml.Node){
		"doc": func(k, v *yaml.Node) { o.Doc = p.str(v, "doc") },
		"go":  func(k, v *yaml.Node) { o.Go = p.str(v, "go") },
		"fields": func(k, v *yaml.Node) {
			sawFields = true
			for _, fe := range p.entries(v, "fields of "+what) {
				o.Fields = append(o.Fields, p.attributeOf(fe, "field "+fe.name))
			}
		},
	})
	if !sawFields && p.diags.Len() == before && e.val.Kind == yaml.MappingNode {
		p.errorf(e.key, "%s has no fields", what)
	}
	return o
}

func (p *parser) attribute(e entry) *Attribute { return p.attributeOf(e, "attribute "+e.name) }

// attributeOf reads an attribute, or a field of an object (what says
// which), in its short or long form.
func (p *parser) attributeOf(e entry, what string) *Attribute {
	a := &Attribute{Name: p.name(e.key), Pos: p.pos(e.val)}
	v := p.resolve(e.val)
	if v == nil {
		return a
	}
	if v.Kind == yaml.ScalarNode {
		a.Short = true
		a.Type = p.str(v, "the type of "+what)
		return a
	}
	if v.Kind != yaml.MappingNode {
		p.errorf(v, "%s must be a type name or a mapping {type: ...}, not %s", what, kindName(v))
		return a
	}
	before := p.diags.Len()
	sawType := false
	p.fields(v, what, map[string]func(k, v *yaml.Node){
		"type":        func(k, v *yaml.Node) { sawType = true; a.Type = p.str(v, "type") },
		"attr":        func(k, v *yaml.Node) { a.Attr = p.str(v, "attr") },
		"go":          func(k, v *yaml.Node) { a.Go = p.str(v, "go") },
		"doc":         func(k, v *yaml.Node) { a.Doc = p.str(v, "doc") },
		"optional":    func(k, v *yaml.Node) { a.Optional = p.boolean(v, "optional") },
		"default":     func(k, v *yaml.Node) { a.Default = p.constant(v, "the default of "+what) },
		"min":         func(k, v *yaml.Node) { a.Min = p.number(v, "min") },
		"max":         func(k, v *yaml.Node) { a.Max = p.number(v, "max") },
		"maxLength":   func(k, v *yaml.Node) { a.MaxLength = p.integer(v, "maxLength") },
		"maxItems":    func(k, v *yaml.Node) { a.MaxItems = p.integer(v, "maxItems") },
		"values":      func(k, v *yaml.Node) { a.Values = p.nonEmptyList(v, "values") },
		"format":      func(k, v *yaml.Node) { a.Format = p.str(v, "format") },
		"separator":   func(k, v *yaml.Node) { a.Separator = p.str(v, "separator") },
		"of":          func(k, v *yaml.Node) { a.Of = p.str(v, "of") },
		"renamedFrom": func(k, v *yaml.Node) { a.RenamedFrom = p.str(v, "renamedFrom") },
		"backfill":    func(k, v *yaml.Node) { a.Backfill = p.str(v, "backfill") },
	})
	if !sawType && p.diags.Len() == before {
		p.errorf(v, "%s has no type", what)
	}
	return a
}

// Normalizations are the values of a unique entry's normalize: lower,
// Unicode lower-casing (strings.ToLower).
var Normalizations = []string{"lower"}

// uniques parses an entity's unique list: each entry an attribute, a
// list of attributes, or {of: [attributes], normalize: lower}.
func (p *parser) uniques(n *yaml.Node) []*Unique {
	n = p.resolve(n)
	if n == nil {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		p.errorf(n, "unique must be a list, not %s", kindName(n))
		return nil
	}
	if len(n.Content) == 0 {
		p.errorf(n, "unique is empty")
	}
	var out []*Unique
	for _, item := range n.Content {
		item = p.resolve(item)
		if item == nil {
			continue
		}
		u := &Unique{Pos: p.pos(item)}
		switch item.Kind {
		case yaml.SequenceNode:
			u.List = true
			u.Of = p.nonEmptyList(item, "an entry of unique")
		case yaml.MappingNode:
			u.List = true
			sawOf := false
			p.fields(item, "an entry of unique", map[string]func(k, v *yaml.Node){
				"of": func(k, v *yaml.Node) { sawOf = true; u.Of = p.nonEmptyList(v, "of") },
				"normalize": func(k, v *yaml.Node) {
					u.Normalize = p.str(v, "normalize")
					if u.Normalize.Set && !slices.Contains(Normalizations, u.Normalize.Value) {
						p.errorf(v, "unknown normalize %q; known: %s", u.Normalize.Value, strings.Join(Normalizations, ", "))
					}
				},
			})
			if !sawOf {
				p.errorf(item, "an entry of unique in the long form needs of: the attributes")
				continue
			}
		default:
			s := p.str(item, "an entry of unique")
			if !s.Set {
				continue
			}
			u.Of = []Str{s}
		}
		if len(u.Of) > 0 {
			out = append(out, u)
		}
	}
	return out
}

func (p *parser) nonEmptyList(n *yaml.Node, what string) []Str {
	out := p.strList(n, what)
	if r := p.resolve(n); r != nil && r.Kind == yaml.SequenceNode && len(r.Content) == 0 {
		p.errorf(r, "%s is empty", what)
	}
	return out
}

// each reads an entry of an entity's each: {of, pk, sk, attributes}.
func (p *parser) each(e entry, what string) *Each {
	ea := &Each{Name: p.name(e.key), Pos: p.pos(e.val)}
	before := p.diags.Len()
	p.fields(e.val, "each "+e.name+" of "+what, map[string]func(kn, v *yaml.Node){
		"of":         func(kn, v *yaml.Node) { ea.Of = p.str(v, "of") },
		"pk":         func(kn, v *yaml.Node) { ea.PK = p.str(v, "pk") },
		"sk":         func(kn, v *yaml.Node) { ea.SK = p.str(v, "sk") },
		"attributes": func(kn, v *yaml.Node) { ea.Attributes = p.strList(v, "attributes"); ea.AttributesPos = p.pos(kn) },
	})
	if p.diags.Len() == before && !ea.Of.Set && e.val.Kind == yaml.MappingNode {
		p.errorf(e.key, "each %s of %s gives no of: name the set attribute it writes an item per element of", e.name, what)
	}
	return ea
}

func (p *parser) keys(e entry, what string) *Keys {
	k := &Keys{Index: p.name(e.key), Pos: p.pos(e.val)}
	p.fields(e.val, "keys "+e.name+" of "+what, map[string]func(kn, v *yaml.Node){
		"pk": func(kn, v *yaml.Node) { k.PK = p.str(v, "pk") },
		"sk": func(kn, v *yaml.Node) { k.SK = p.str(v, "sk") },
	})
	return k
}

// Operations are the operation keys of a pattern, in the order of
// docs/spec.md: those of one call, then the transactions, whose value is
// a list of steps.
var Operations = []string{"get", "query", "put", "create", "update", "delete", "check", "batchGet", "batchPut", "batchDelete", "transaction", "transactGet"}

// StepOperations are the operation keys of a transaction's step and of a
// transactGet's.
var StepOperations = []string{"get", "put", "create", "update", "delete", "check"}

func (p *parser) pattern(e entry) *Pattern {
	pt := &Pattern{Name: p.name(e.key), Pos: p.pos(e.val)}
	p.patternBody(e.key, e.val, pt, "pattern "+e.name, false)
	return pt
}

// patternBody reads the keys of a pattern, or of a transaction's step
// (which takes bind, as and exists, and no transaction).
func (p *parser) patternBody(key, val *yaml.Node, pt *Pattern, what string, step bool) {
	handlers := map[string]func(k, v *yaml.Node){
		"doc":         func(k, v *yaml.Node) { pt.Doc = p.str(v, "doc") },
		"renamedFrom": func(k, v *yaml.Node) { pt.RenamedFrom = p.str(v, "renamedFrom") },
		"by":          func(k, v *yaml.Node) { pt.By = p.strList(v, "by"); pt.ByPos = p.pos(v) },
		"where":       func(k, v *yaml.Node) { pt.Where = p.conds(v, "where", false) },
		"order":       func(k, v *yaml.Node) { pt.Order = p.str(v, "order") },
		"limit":       func(k, v *yaml.Node) { pt.Limit = p.integer(v, "limit") },
		"first":       func(k, v *yaml.Node) { pt.First = p.boolean(v, "first") },
		"drops":       func(k, v *yaml.Node) { pt.Drops = p.nonEmptyList(v, "drops"); pt.DropsPos = p.pos(k) },
		"index":       func(k, v *yaml.Node) { pt.Index = p.str(v, "index") },
		"consistent":  func(k, v *yaml.Node) { pt.Consistent = p.boolean(v, "consistent") },
		"copy":        func(k, v *yaml.Node) { pt.Copy = p.str(v, "copy") },
		"filter":      func(k, v *yaml.Node) { pt.Filter = p.conds(v, "filter", true) },
		"when":        func(k, v *yaml.Node) { pt.When = p.conds(v, "when", true) },
		"select":      func(k, v *yaml.Node) { pt.Select = p.nonEmptyList(v, "select") },
		"set":         func(k, v *yaml.Node) { pt.Set, pt.SetConsts = p.constList(v, "set") },
		"add":         func(k, v *yaml.Node) { pt.Add, pt.AddConsts = p.constList(v, "add") },
		"remove":      func(k, v *yaml.Node) { pt.Remove = p.nonEmptyList(v, "remove") },
		"removeFrom":  func(k, v *yaml.Node) { pt.RemoveFrom = p.nonEmptyList(v, "removeFrom") },
		"upsert":      func(k, v *yaml.Node) { pt.Upsert = p.boolean(v, "upsert") },
		"expired":     func(k, v *yaml.Node) { pt.Expired = p.str(v, "expired") },
		"many":        func(k, v *yaml.Node) { pt.Many = p.str(v, "many") },
	}
	ops := Operations
	if step {
		ops = StepOperations
		handlers["bind"] = func(k, v *yaml.Node) { pt.Bind = p.binds(v) }
		handlers["as"] = func(k, v *yaml.Node) { pt.As = p.str(v, "as") }
		handlers["exists"] = func(k, v *yaml.Node) { pt.Exists = p.boolean(v, "exists") }
	}
	for _, op := range ops {
		handlers[op] = func(k, v *yaml.Node) {
			if pt.Op.Set {
				p.errorf(k, "%s has two operations, %s and %s; it has exactly one", what, pt.Op.Value, op)
				return
			}
			pt.Op = p.name(k)
			v = p.resolve(v)
			if v == nil {
				return
			}
			if op == "transaction" || op == "transactGet" {
				pt.Steps = p.steps(v, op)
				return
			}
			if op == "query" && v.Kind == yaml.SequenceNode {
				pt.EntityList = true
				pt.Entities = p.nonEmptyList(v, "query")
				return
			}
			if s := p.str(v, op+" (an entity name)"); s.Set {
				pt.Entities = []Str{s}
			}
		}
	}
	if r := p.resolve(val); r != nil && r.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(r.Content); i += 2 {
			if k := r.Content[i]; k.Kind == yaml.ScalarNode {
				pt.Given = append(pt.Given, Str{Value: k.Value, Pos: p.pos(k), Set: true})
			}
		}
	}
	before := p.diags.Len()
	p.fields(val, what, handlers)
	if !pt.Op.Set && p.diags.Len() == before {
		if r := p.resolve(val); r != nil && r.Kind == yaml.MappingNode {
			p.errorf(key, "%s has no operation; give one of %s", what, strings.Join(ops, ", "))
		}
	}
}

// steps reads the list of a transaction's steps: at least one, each a
// mapping with its operation.
func (p *parser) steps(n *yaml.Node, op string) []*Pattern {
	if n.Kind != yaml.SequenceNode {
		p.errorf(n, "%s must be a list of steps, not %s", op, kindName(n))
		return nil
	}
	if len(n.Content) == 0 {
		p.errorf(n, "%s has no steps", op)
		return nil
	}
	var out []*Pattern
	for i, it := range n.Content {
		st := &Pattern{Pos: p.pos(it)}
		r := p.resolve(it)
		if r == nil {
			continue
		}
		if r.Kind != yaml.MappingNode {
			p.errorf(it, "step %d of %s must be a mapping, as in {create: Like}, not %s", i+1, op, kindName(r))
			continue
		}
		p.patternBody(it, it, st, fmt.Sprintf("step %d of %s", i+1, op), true)
		out = append(out, st)
	}
	return out
}

// binds reads a step's bind: attribute -> input.
func (p *parser) binds(n *yaml.Node) []*Bind {
	var out []*Bind
	for _, e := range p.entries(n, "bind") {
		b := &Bind{Attr: p.name(e.key), From: p.str(e.val, "the input bound to "+e.name)}
		if b.From.Set {
			out = append(out, b)
		}
	}
	return out
}

// constExample shows an item of set or add that gives a constant.
var constExample = map[string]string{"set": "{status: closed}", "add": "{likesCount: 1}"}

// constList reads set or add: a list whose items are attribute names
// (set to, or added, a parameter) or one-entry mappings {attr:
// constant}, or a mapping whose every entry gives a constant (set:
// {status: closed}).
func (p *parser) constList(n *yaml.Node, what string) ([]Str, []*SetConst) {
	r := p.resolve(n)
	if r == nil {
		return nil, nil
	}
	var names []Str
	var consts []*SetConst
	// pairs are the attributes given a constant, with their values: the
	// one-entry mappings of the list, or the entries of a mapping.
	type pair struct{ k, v *yaml.Node }
	var pairs []pair
	switch r.Kind {
	case yaml.MappingNode:
		// The mapping form, set: {status: closed}: every entry a constant.
		if len(r.Content) == 0 {
			p.errorf(r, "%s is empty", what)
			return nil, nil
		}
		for _, e := range p.entries(r, what) {
			pairs = append(pairs, pair{e.key, e.val})
		}
	case yaml.SequenceNode:
		if len(r.Content) == 0 {
			p.errorf(r, "%s is empty", what)
			return nil, nil
		}
		for _, it := range r.Content {
			it := p.resolve(it)
			if it == nil {
				continue
			}
			if it.Kind != yaml.MappingNode {
				if s := p.str(it, "an item of "+what); s.Set {
					names = append(names, s)
				}
				continue
			}
			if len(it.Content) != 2 {
				p.errorf(it, "an item of %s that gives a constant is one attribute and its value, as in %s", what, constExample[what])
				continue
			}
			k := it.Content[0]
			if k.Kind != yaml.ScalarNode {
				p.errorf(k, "an item of %s that gives a constant is one attribute and its value, as in %s", what, constExample[what])
				continue
			}
			pairs = append(pairs, pair{k, it.Content[1]})
		}
	default:
		return p.nonEmptyList(n, what), nil
	}
	for _, pr := range pairs {
		k, v := pr.k, p.resolve(pr.v)
		if v == nil {
			continue
		}
		attr := p.name(k)
		if v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
			if what == "set" {
				p.errorf(v, "the constant set to %s must be a value, not %s (use remove to remove it)", attr.Value, kindName(v))
			} else {
				p.errorf(v, "the amount added to %s must be a number, not %s", attr.Value, kindName(v))
			}
			continue
		}
		consts = append(consts, &SetConst{Attr: attr, Pos: p.pos(k), Const: Const{Value: v.Value, Tag: v.Tag, Pos: p.pos(v)}})
	}
	return names, consts
}

// conds reads a mapping of attribute -> operator. With constants allowed,
// an operator may be a one-key mapping {op: constant}.
func (p *parser) conds(n *yaml.Node, what string, constants bool) []*Cond {
	var out []*Cond
	for _, e := range p.entries(n, what) {
		if e.name == OrKey && constants {
			if c := p.or(e, what); c != nil {
				out = append(out, c)
			}
			continue
		}
		if v := p.resolve(e.val); e.name == OrKey && v != nil && v.Kind == yaml.SequenceNode {
			p.errorf(e.key, "%s takes one range condition on the sort key, and no or; conditions joined by OR belong in filter", what)
			continue
		}
		c := &Cond{Attr: p.name(e.key), Pos: p.pos(e.key)}
		v := p.resolve(e.val)
		if v == nil {
			continue
		}
		switch {
		case v.Kind == yaml.ScalarNode:
			c.Op = p.str(v, "the operator of "+what+" "+e.name)
		case v.Kind == yaml.MappingNode && constants:
			ops := p.entries(v, "the condition on "+e.name)
			if len(ops) != 1 {
				if len(v.Content) != 2 {
					p.errorf(v, "a constant condition is one operator and its value, e.g. {\"=\": shipped}")
				}
				continue
			}
			c.Op = p.name(ops[0].key)
			c.Consts = p.consts(ops[0].val, e.name)
		default:
			if constants {
				p.errorf(v, "the condition on %s must be an operator such as \"=\" or {operator: constant}, not %s", e.name, kindName(v))
			} else {
				p.errorf(v, "the condition on %s must be an operator such as \">=\", not %s", e.name, kindName(v))
			}
			continue
		}
		out = append(out, c)
	}
	return out
}

// OrKey is the key of filter and when whose value is a list of
// conditions joined by OR. It is always the operator there: an attribute
// named or takes no condition (its stored name can stay or, with attr:).
const OrKey = "or"

// or reads the key or of filter or when: a list of at least two
// mappings of conditions, each joined by AND (and taking or itself).
func (p *parser) or(e entry, what string) *Cond {
	c := &Cond{Pos: p.pos(e.key)}
	v := p.resolve(e.val)
	if v == nil {
		return nil
	}
	if v.Kind != yaml.SequenceNode {
		p.errorf(v, "or in %s is the operator OR: a list of condition mappings, as in or: [{active: notExists}, {active: {\"<\": 5}}], not %s; an attribute named or takes no condition in %s (rename it and keep its stored name with attr: or)", what, kindName(v), what)
		return nil
	}
	if len(v.Content) < 2 {
		if len(v.Content) == 1 {
			p.errorf(v, "or in %s has one branch, which is its conditions joined by AND; give two or more mappings, as in or: [{a: notExists}, {b: \"=\"}] (or: [{a: notExists, b: \"=\"}] is one branch, a AND b), or write the conditions without or", what)
		} else {
			p.errorf(v, "or in %s has no branches; give two or more mappings of conditions", what)
		}
		return nil
	}
	ok := true
	for _, it := range v.Content {
		r := p.resolve(it)
		if r == nil {
			ok = false
			continue
		}
		if r.Kind == yaml.MappingNode && len(r.Content) == 0 {
			p.errorf(it, "a branch of or in %s is empty; give its conditions, as in {active: notExists}", what)
			ok = false
			continue
		}
		if r.Kind != yaml.MappingNode {
			p.errorf(it, "a branch of or in %s is a mapping of one or more conditions, as in {active: notExists}, not %s", what, describe(r))
			ok = false
			continue
		}
		before := p.diags.Len()
		branch := p.conds(r, what, true)
		if p.diags.Len() > before || len(branch) == 0 {
			ok = false
			continue
		}
		c.Or = append(c.Or, branch)
	}
	if !ok {
		return nil
	}
	return c
}

// consts reads a constant operand: a scalar, or a list of two for between.
func (p *parser) consts(n *yaml.Node, attr string) []Const {
	n = p.resolve(n)
	if n == nil {
		return nil
	}
	var items []*yaml.Node
	switch n.Kind {
	case yaml.ScalarNode:
		items = []*yaml.Node{n}
	case yaml.SequenceNode:
		items = n.Content
	default:
		p.errorf(n, "the constant compared with %s must be a value, not %s", attr, kindName(n))
		return nil
	}
	var out []Const
	for _, it := range items {
		it = p.resolve(it)
		if it == nil {
			continue
		}
		if it.Kind != yaml.ScalarNode || it.Tag == "!!null" {
			p.errorf(it, "the constant compared with %s must be a value, not %s", attr, kindName(it))
			continue
		}
		out = append(out, Const{Value: it.Value, Tag: it.Tag, Pos: p.pos(it)})
	}
	if n.Kind == yaml.SequenceNode && len(out) == 0 && len(n.Content) == 0 {
		p.errorf(n, "the constant list for %s is empty", attr)
	}
	return out
}

// constant reads one constant: a scalar value, not null.
func (p *parser) constant(n *yaml.Node, what string) *Const {
	n = p.resolve(n)
	if n == nil {
		return nil
	}
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		p.errorf(n, "%s must be a value, not %s", what, kindName(n))
		return nil
	}
	return &Const{Value: n.Value, Tag: n.Tag, Pos: p.pos(n)}
}

// isEmptyMapping reports whether n is a mapping with no entries.
func (p *parser) isEmptyMapping(n *yaml.Node) bool {
	return n.Kind == yaml.MappingNode && len(n.Content) == 0
}

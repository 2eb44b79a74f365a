package main

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
	"golang.org/x/tools/txtar"

	"github.com/dyngen/dyngen/generator"
	"github.com/dyngen/dyngen/internal/checktest"
	"github.com/dyngen/dyngen/internal/diag"
)

// A fix dyngen proposes is written in one of these forms, so that it can be
// applied as written. Each form is found in a message, then applied to the
// spec by edit.
var proposalForms = []struct {
	name string
	re   *regexp.Regexp
	edit func(s *specDoc, msg string, m []string) error
}{
	{
		// e.g. GSI2: {partitionKey: GSI2PK, sortKey: GSI2SK} with keys GSI2: {pk: "...", sk: "..."} on E
		// [and keys GSI2: {...} on E2] [and index: GSI2 on Pattern]
		"new index",
		regexp.MustCompile(`(?:(?i:add) (?:an|a local) index [^;]*?, )?e\.g\. ([\w.-]+): (\{[^{}]*\}) with ((?:keys [\w.-]+: ` + templates + ` on \w+(?: and )?)+)(?:index: ([\w.-]+) on (\w+))?`),
		func(s *specDoc, msg string, m []string) error {
			keys := keysRe.FindAllStringSubmatch(m[3], -1)
			if len(keys) == 0 {
				return fmt.Errorf("no keys in %q", m[3])
			}
			table, err := s.tableOf(keys[0][3])
			if err != nil {
				return err
			}
			decl, err := parseNode(m[2])
			if err != nil {
				return err
			}
			setKey(ensureMap(table, "indexes"), m[1], decl)
			if err := s.mergeKeys(keys); err != nil {
				return err
			}
			if m[4] != "" {
				p, err := s.pattern(m[5])
				if err != nil {
					return err
				}
				setKey(p, "index", scalar(m[4]))
			}
			return nil
		},
	},
	{
		// add the entity attribute _type to the sort key of byTournament
		// [...] (sortKey: [_type, round, {name: score, type: N}]): a
		// multi-attribute sort key written anew.
		"multi-attribute sort key",
		regexp.MustCompile(`add the entity attribute [\w.-]+ to the sort key of ([\w.-]+)[^(]*\(sortKey: (\[[^\]]*\])\)`),
		func(s *specDoc, msg string, m []string) error {
			list, err := parseNode(m[2])
			if err != nil {
				return err
			}
			tables := getKey(s.root, "tables")
			if tables == nil {
				return fmt.Errorf("the spec has no tables")
			}
			for i := 1; i < len(tables.Content); i += 2 {
				if ix := getKey(getKey(tables.Content[i], "indexes"), m[1]); ix != nil && ix.Kind == yaml.MappingNode {
					setKey(ix, "sortKey", list)
					return nil
				}
			}
			return fmt.Errorf("no index %s", m[1])
		},
	},
	{
		// e.g. keys primary: {sk: "..."} on E [and keys primary: {...} on E2]
		"key templates",
		regexp.MustCompile(`e\.g\. ((?:keys [\w.-]+: ` + templates + ` on \w+(?: and )?)+)`),
		func(s *specDoc, msg string, m []string) error {
			return s.mergeKeys(keysRe.FindAllStringSubmatch(m[1], -1))
		},
	},
	{
		// e.g. copies ByEmail: {sk: "..."} on E: a copy's templates
		"copy templates",
		regexp.MustCompile(`e\.g\. copies ([\w.-]+): (` + templates + `) on (\w+)`),
		func(s *specDoc, msg string, m []string) error {
			return s.mergeEntry("copies", [][]string{m})
		},
	},
	{
		// e.g. each ParcelTags: {sk: "..."} on E: an element item's templates
		"each templates",
		regexp.MustCompile(`e\.g\. each ([\w.-]+): (` + templates + `) on (\w+)`),
		func(s *specDoc, msg string, m []string) error {
			return s.mergeEntry("each", [][]string{m})
		},
	},
	{
		// gives no value for total, paid, which every Order has; add them to set
		"add them to set",
		regexp.MustCompile(`gives no value for (\w+(?:, \w+)*), which every \w+ has; add them to set`),
		func(s *specDoc, msg string, m []string) error {
			p, err := s.pattern(subjectPattern(msg))
			if err != nil {
				return err
			}
			appendSeq(p, "set", strings.Split(m[1], ", "))
			return nil
		},
	},
	{
		// add customerId to by; add paid to set; add email to select
		"add to a list",
		regexp.MustCompile(`(?i)add (\w+(?:, \w+)*) to (by|set|select)\b`),
		func(s *specDoc, msg string, m []string) error {
			p, err := s.pattern(subjectPattern(msg))
			if err != nil {
				return err
			}
			appendSeq(p, m[2], strings.Split(m[1], ", "))
			return nil
		},
	},
	{
		// file "model.yaml" of output workbench must end in .json; e.g. "workbench.json"
		"output file",
		regexp.MustCompile(`of output (\w+)\b.*\be\.g\. "([^"]+)"`),
		func(s *specDoc, msg string, m []string) error {
			o, err := s.section("outputs", m[1])
			if err != nil {
				return err
			}
			if o.Kind != yaml.MappingNode {
				o.Kind, o.Tag, o.Value = yaml.MappingNode, "!!map", ""
			}
			setKey(o, "file", scalar(m[2]))
			return nil
		},
	},
	{
		// add expired: include
		"add expired: include",
		regexp.MustCompile(`(?i)add expired: include`),
		func(s *specDoc, msg string, m []string) error {
			p, err := s.pattern(subjectPattern(msg))
			if err != nil {
				return err
			}
			setKey(p, "expired", scalar("include"))
			return nil
		},
	},
	{
		// remove consistent: true; remove index: GSI1
		"remove a pattern key",
		regexp.MustCompile(`(?i)remove (consistent: true|index: [\w.-]+)`),
		func(s *specDoc, msg string, m []string) error {
			p, err := s.pattern(subjectPattern(msg))
			if err != nil {
				return err
			}
			key, _, _ := strings.Cut(m[1], ":")
			if !deleteKey(p, key) {
				return fmt.Errorf("pattern has no %s", key)
			}
			return nil
		},
	},
	{
		// entity Store gives the Go name Store, ...; set go: on the entity, e.g. go: StoreItem
		"go name",
		regexp.MustCompile(`set go: on the entity, e\.g\. go: (\w+)`),
		func(s *specDoc, msg string, m []string) error {
			name := regexp.MustCompile(`entity (\w+)`).FindStringSubmatch(msg)
			if name == nil {
				return fmt.Errorf("no entity named")
			}
			e, err := s.entity(name[1])
			if err != nil {
				return err
			}
			setKey(e, "go", scalar(m[1]))
			return nil
		},
	},
	{
		// entity Order names no table, and the spec has 2; add table: Orders or Carts
		"table of an entity",
		regexp.MustCompile(`add table: ([\w.-]+) or [\w.-]+`),
		func(s *specDoc, msg string, m []string) error {
			name := regexp.MustCompile(`^entity (\w+) names no table`).FindStringSubmatch(msg)
			if name == nil {
				return fmt.Errorf("no entity named")
			}
			e, err := s.entity(name[1])
			if err != nil {
				return err
			}
			setKey(e, "table", scalar(m[1]))
			return nil
		},
	},
	{
		"version",
		regexp.MustCompile("add `version: 1`"),
		func(s *specDoc, msg string, m []string) error {
			setKey(s.root, "version", scalar("1"))
			return nil
		},
	},
}

// templates matches the {pk: ..., sk: ...} of a keys entry, whose
// templates hold {attribute} placeholders.
const templates = `\{(?:[^{}]|\{\w+\})*\}`

var keysRe = regexp.MustCompile(`keys ([\w.-]+): (` + templates + `) on (\w+)`)

// Messages that hold "e.g." or "add " but propose no fix that can be
// applied as written, with the reason.
var notProposals = []struct {
	re  *regexp.Regexp
	why string
}{
	{regexp.MustCompile(`add values: \[\.\.\.\]`), "the enum's values are the user's to give"},
	{regexp.MustCompile(`add pk: and sk:`), "the templates are the user's to give"},
	{regexp.MustCompile(`add keys: \{primary: \{pk: \.\.\.\}\}`), "the template is the user's to give"},
	{regexp.MustCompile(`add sk to keys primary`), "the template is the user's to give"},
	{regexp.MustCompile(`gives no sk, and table [\w.-]+ has sort key \w+: add sk|a copy is keyed on the table's own key attributes: add pk`), "the template is the user's to give"},
	{regexp.MustCompile(`add at least one (entity|table)`), "the model is the user's to give"},
	{regexp.MustCompile("add `package: <go package name>`"), "the package name is the user's to give"},
	{regexp.MustCompile(`can't add \w+`), "add is the operation named"},
	{regexp.MustCompile(`^add needs a number or a set`), "add is the operation named"},
	{regexp.MustCompile(`give set, add or remove`), "add is the operation named"},
	{regexp.MustCompile(`^add is empty`), "add is the key named"},
	{regexp.MustCompile(`is in both add and \w+`), "add is the key named"},
	{regexp.MustCompile(`an atomic add gives no value`), "add is the operation named"},
	{regexp.MustCompile(`add -o DIR`), "a command line flag, not the spec"},
	{regexp.MustCompile(`add a placeholder to spread the items`), "a warning's advice; which placeholder is the user's choice"},
	{regexp.MustCompile(`add the pattern it is for`), "a warning's advice"},
	{regexp.MustCompile(`add a time attribute named \w+ to the entities that expire`), "a warning's advice; which entities expire is the user's choice"},
	{regexp.MustCompile(`a constant condition is one operator and its value, e\.g\. \{"=": shipped\}`), "illustrates the form of a constant condition"},
	{regexp.MustCompile(`set, add,? (and|or) removeFrom`), "add is the key named"},
	{regexp.MustCompile(`^update \w+: add \w+:`), "add is the key named"},
	{regexp.MustCompile(`^add lists \w+ twice`), "add is the key named"},
	{regexp.MustCompile(`an item of add that gives`), "add is the key named"},
}

// errorCases are the cases of the command (testdata/errors) and those of
// the model's and the planner's checks (see package checktest).
var errorCases = []string{"testdata/errors/*.txtar", "../../internal/model/testdata/*.txtar", "../../internal/plan/testdata/*.txtar"}

// TestProposals applies every fix the error cases' messages propose, as
// written, and checks the spec again: the diagnostic the fix is for must be
// gone, and no error may appear that the spec did not have. Every
// message holding "e.g." or "add " must be a known proposal form or one of
// notProposals.
func TestProposals(t *testing.T) {
	var files []string
	for _, pattern := range errorCases {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	applied := map[string]int{}
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var stderr string
		inputs := map[string][]byte{}
		specName := ""
		for _, f := range ar.Files {
			switch f.Name {
			case "stderr":
				stderr = string(f.Data)
			case checktest.Diagnostics:
				// A case of the checks has no command line.
				stderr, specName = string(f.Data), checktest.Spec
			default:
				inputs[f.Name] = f.Data
			}
		}
		for _, line := range strings.Split(string(ar.Comment), "\n") {
			if !strings.HasPrefix(line, "dyngen ") {
				continue
			}
			for _, arg := range strings.Fields(line)[1:] {
				if _, ok := inputs[arg]; ok && specName == "" {
					specName = arg
				}
			}
		}
		for _, line := range strings.Split(stderr, "\n") {
			msg := diagMessage(line, specName)
			name := strings.TrimSuffix(filepath.Base(file), ".txtar")
			rest := msg
			for _, np := range notProposals {
				rest = np.re.ReplaceAllString(rest, "")
			}
			for _, form := range proposalForms {
				for _, m := range form.re.FindAllStringSubmatch(rest, -1) {
					t.Run(name+"/"+form.name, func(t *testing.T) {
						applyProposal(t, specName, inputs[specName], msg, form.edit, m)
					})
					applied[form.name]++
				}
				rest = form.re.ReplaceAllString(rest, "")
			}
			if strings.Contains(rest, "e.g.") || strings.Contains(strings.ToLower(rest), "add ") {
				t.Errorf("%s: a proposal in no known form (left %q):\n%s", name, rest, line)
			}
		}
	}
	// The corpus holds each form at least once: a form that matches
	// nothing would test nothing.
	for _, form := range proposalForms {
		if applied[form.name] == 0 {
			t.Errorf("no error case proposes a fix of the form %q", form.name)
		}
	}
}

// diagMessage strips the position and severity from a line of stderr; a
// line that is not a diagnostic of the spec is returned whole.
func diagMessage(line, specName string) string {
	if specName == "" || !strings.HasPrefix(line, specName+":") {
		return line
	}
	rest := strings.TrimPrefix(line, specName+":")
	// line:col: (or none, for the whole file)
	for range 2 {
		if i := strings.Index(rest, ":"); i > 0 && strings.Trim(rest[:i], "0123456789") == "" {
			rest = rest[i+1:]
		}
	}
	rest = strings.TrimPrefix(rest, " ")
	return strings.TrimPrefix(rest, "warning: ")
}

// applyProposal edits the spec as the proposal says and checks it again.
func applyProposal(t *testing.T, specName string, data []byte, msg string, edit func(*specDoc, string, []string) error, m []string) {
	t.Helper()
	if data == nil {
		t.Fatalf("the case has no spec file for %q", msg)
	}
	before := generator.Check(specName, data).Diags
	if !slices.ContainsFunc(before.Sorted(), func(d diag.Diagnostic) bool { return d.Message == msg }) {
		t.Fatalf("checking the spec does not give the message of the case:\n%s", msg)
	}
	s, err := loadSpec(data)
	if err != nil {
		t.Fatal(err)
	}
	if err := edit(s, msg, m); err != nil {
		t.Fatalf("can't apply %q: %v", m[0], err)
	}
	out, err := yaml.Marshal(s.doc)
	if err != nil {
		t.Fatal(err)
	}
	after := generator.Check(specName, out).Diags
	fixed := subject(msg)
	old := map[string]bool{}
	for _, d := range before.Errors() {
		old[subject(d.Message)] = true
	}
	// Only errors: a warning the errors hid (an index no pattern reads
	// yet, a projection) may appear once the spec is sound.
	for _, d := range after.Errors() {
		switch s := subject(d.Message); {
		case s == fixed:
			t.Errorf("applying %q leaves the diagnostic:\n%s\nspec:\n%s", m[0], d.Message, out)
		case !old[s]:
			t.Errorf("applying %q gives a new diagnostic:\n%s\nspec:\n%s", m[0], d.Message, out)
		}
	}
}

// subject is what a diagnostic is about: the pattern a refusal names
// ("pattern P"), or its text up to the first colon or semicolon ("A and B
// can have the same key on table T").
func subject(msg string) string {
	if m := regexp.MustCompile(`^pattern \w+`).FindString(msg); m != "" {
		return m
	}
	if i := strings.IndexAny(msg, ":;"); i >= 0 {
		return msg[:i]
	}
	return msg
}

// subjectPattern is the pattern a message is about: "pattern P ..." or
// "update P ...".
func subjectPattern(msg string) string {
	m := regexp.MustCompile(`^(?:pattern|update) (\w+)`).FindStringSubmatch(msg)
	if m == nil {
		return ""
	}
	return m[1]
}

// specDoc is a spec as a YAML node tree.
type specDoc struct {
	doc  *yaml.Node
	root *yaml.Node
}

func loadSpec(data []byte) (*specDoc, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, fmt.Errorf("the spec is not a mapping")
	}
	return &specDoc{doc: &doc, root: doc.Content[0]}, nil
}

func (s *specDoc) section(name, key string) (*yaml.Node, error) {
	sec := getKey(s.root, name)
	if sec == nil {
		return nil, fmt.Errorf("the spec has no %s", name)
	}
	n := getKey(sec, key)
	if n == nil || n.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s has no %s", name, key)
	}
	return n, nil
}

func (s *specDoc) entity(name string) (*yaml.Node, error) { return s.section("entities", name) }

func (s *specDoc) pattern(name string) (*yaml.Node, error) { return s.section("patterns", name) }

// tableOf returns the table of an entity: the one it names, or the only one.
func (s *specDoc) tableOf(entity string) (*yaml.Node, error) {
	e, err := s.entity(entity)
	if err != nil {
		return nil, err
	}
	tables := getKey(s.root, "tables")
	if tables == nil {
		return nil, fmt.Errorf("the spec has no tables")
	}
	if n := getKey(e, "table"); n != nil {
		return s.section("tables", n.Value)
	}
	if len(tables.Content) != 2 {
		return nil, fmt.Errorf("entity %s names no table and the spec has several", entity)
	}
	return tables.Content[1], nil
}

// mergeKeys sets the templates of keys entries (index, templates, entity).
func (s *specDoc) mergeKeys(keys [][]string) error { return s.mergeEntry("keys", keys) }

// mergeEntry merges into the entries of field (keys, copies, each) of entities
// the templates of each match: the entry's name, its templates, the
// entity.
func (s *specDoc) mergeEntry(field string, keys [][]string) error {
	for _, k := range keys {
		e, err := s.entity(k[3])
		if err != nil {
			return err
		}
		tm, err := parseNode(k[2])
		if err != nil {
			return err
		}
		entry := ensureMap(ensureMap(e, field), k[1])
		for i := 0; i+1 < len(tm.Content); i += 2 {
			setKey(entry, tm.Content[i].Value, tm.Content[i+1])
		}
	}
	return nil
}

func parseNode(text string) (*yaml.Node, error) {
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(text), &n); err != nil {
		return nil, fmt.Errorf("%q: %v", text, err)
	}
	return n.Content[0], nil
}

func scalar(v string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Value: v} }

func getKey(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

func setKey(m *yaml.Node, key string, v *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			m.Content[i+1] = v
			return
		}
	}
	m.Content = append(m.Content, scalar(key), v)
}

func deleteKey(m *yaml.Node, key string) bool {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			m.Content = slices.Delete(m.Content, i, i+2)
			return true
		}
	}
	return false
}

func ensureMap(m *yaml.Node, key string) *yaml.Node {
	if n := getKey(m, key); n != nil && n.Kind == yaml.MappingNode {
		return n
	}
	n := &yaml.Node{Kind: yaml.MappingNode, Style: m.Style & yaml.FlowStyle}
	setKey(m, key, n)
	return n
}

func appendSeq(m *yaml.Node, key string, values []string) {
	seq := getKey(m, key)
	if seq == nil || seq.Kind != yaml.SequenceNode {
		seq = &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
		setKey(m, key, seq)
	}
	for _, v := range values {
		seq.Content = append(seq.Content, scalar(v))
	}
}

// The forms themselves: a proposal must be found, whole, by its form.
func TestProposalForms(t *testing.T) {
	tests := []struct {
		msg, form, match string
	}{
		{`... Add an index whose partition key is built from [email], e.g. GSI2: {partitionKey: GSI2PK, sortKey: GSI2SK} with keys GSI2: {pk: "EMAIL#{email}", sk: "CUSTOMER"} on Customer`,
			"new index", `Add an index whose partition key is built from [email], e.g. GSI2: {partitionKey: GSI2PK, sortKey: GSI2SK} with keys GSI2: {pk: "EMAIL#{email}", sk: "CUSTOMER"} on Customer`},
		{`... e.g. GSI1: {partitionKey: GSI1PK, sortKey: GSI1SK} with keys GSI1: {pk: "A#{a}", sk: "B"} on B and keys GSI1: {pk: "A#{a}", sk: "C#{c}"} on C and index: GSI1 on P`,
			"new index", `e.g. GSI1: {partitionKey: GSI1PK, sortKey: GSI1SK} with keys GSI1: {pk: "A#{a}", sk: "B"} on B and keys GSI1: {pk: "A#{a}", sk: "C#{c}"} on C and index: GSI1 on P`},
		{`...; give InvoiceOrder a sort key the other's values can't produce, e.g. keys primary: {sk: "INVOICEORDER"} on InvoiceOrder`,
			"key templates", `e.g. keys primary: {sk: "INVOICEORDER"} on InvoiceOrder`},
		{`pattern P ... Add customerId to by, or ...`, "add to a list", "Add customerId to by"},
		{`pattern P ... remove consistent: true, or`, "remove a pattern key", "remove consistent: true"},
	}
	for _, tt := range tests {
		for _, form := range proposalForms {
			if form.name != tt.form {
				continue
			}
			if got := form.re.FindString(tt.msg); got != tt.match {
				t.Errorf("form %q finds %q in\n%s\nwant %q", tt.form, got, tt.msg, tt.match)
			}
		}
	}
}

package plan_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/dyngen/dyngen/generator"
	"github.com/dyngen/dyngen/internal/plan"
)

// filterSpec is a spec of streams and consumers: table Shop of string
// keys, with entities whose keys start with literal text, are literal
// text, or start with a placeholder; table Tags keyed by its entity's
// own string and number.
const filterSpec = `
version: 1
package: stream
tables:
  Shop: {partitionKey: PK, sortKey: SK, stream: NEW_AND_OLD_IMAGES}
  Tags:
    partitionKey: {name: tag, type: S}
    sortKey: {name: n, type: N}
    stream: KEYS_ONLY
entities:
  Customer:
    table: Shop
    attributes: {customerId: string, email: string}
    unique: [email]
    keys: {primary: {pk: "CUSTOMER#{customerId}", sk: "PROFILE"}}
  Order:
    table: Shop
    attributes: {customerId: string, orderId: int}
    keys: {primary: {pk: "CUSTOMER#{customerId}", sk: "ORDER#{orderId}"}}
  Note:
    table: Shop
    attributes: {noteId: string, at: string}
    keys: {primary: {pk: "{noteId}", sk: "NOTE#{at}"}}
  Config:
    table: Shop
    attributes: {name: string}
    keys: {primary: {pk: "CONFIG", sk: "CONFIG#{name}"}}
  Tag:
    table: Tags
    attributes: {tag: string, n: int}
patterns:
  GetCustomer: {get: Customer}
  GetOrder: {get: Order}
  GetNote: {get: Note}
  GetConfig: {get: Config}
  GetTag: {get: Tag}
consumers:
  Feed:
    on:
      Customer: [insert, modify, remove]
      Order: {insert: new, remove: keys}
    lambda: {batchSize: 100}
  Audit:
    table: Shop
    on:
      Customer: {remove: old}
  Notes:
    on:
      Note: [insert]
      Config: [modify]
    lambda: {}
  TagLog:
    on:
      Tag: {insert: keys, remove: keys}
    lambda: {startingPosition: LATEST}
  Everything:
    on:
      Tag: {insert: keys, modify: keys, remove: keys}
    lambda: {}
`

// consumerPlans plans spec and returns its consumers by name.
func consumerPlans(t *testing.T, spec string) map[string]*plan.Consumer {
	t.Helper()
	res := generator.Check("spec.yaml", []byte(spec))
	if err := res.Diags.Err(); err != nil {
		t.Fatal(err)
	}
	out := map[string]*plan.Consumer{}
	for _, s := range res.Plan.Streams {
		for _, c := range s.Consumers {
			out[c.Consumer.Name] = c
		}
	}
	return out
}

// filterText shows a consumer's filters, one a line: the entities, then
// the pattern.
func filterText(c *plan.Consumer) string {
	var b strings.Builder
	for _, f := range c.Filters {
		var names []string
		for _, e := range f.Entities {
			names = append(names, e.Name)
		}
		fmt.Fprintf(&b, "%s %s\n", strings.Join(names, ","), f.Pattern)
	}
	return b.String()
}

// TestConsumerFilters: a filter per entity a Lambda consumer handles,
// with each string key's literal text (no operation: Lambda filters a
// DynamoDB record on its dynamodb field alone) (a constant template exactly, a
// template starting with text by its prefix, a placeholder first or a
// number not at all); no filter for a consumer without lambda:, nor for
// one whose filters would let every record through.
func TestConsumerFilters(t *testing.T) {
	cs := consumerPlans(t, filterSpec)
	want := map[string]string{
		"Feed": `Customer {"dynamodb":{"Keys":{"PK":{"S":[{"prefix":"CUSTOMER#"}]},"SK":{"S":["PROFILE"]}}}}
Order {"dynamodb":{"Keys":{"PK":{"S":[{"prefix":"CUSTOMER#"}]},"SK":{"S":[{"prefix":"ORDER#"}]}}}}
`,
		"Audit": "",
		"Notes": `Note {"dynamodb":{"Keys":{"SK":{"S":[{"prefix":"NOTE#"}]}}}}
Config {"dynamodb":{"Keys":{"PK":{"S":["CONFIG"]},"SK":{"S":[{"prefix":"CONFIG#"}]}}}}
`,
		"TagLog":     "",
		"Everything": "",
	}
	for name, w := range want {
		c := cs[name]
		if c == nil {
			t.Fatalf("no consumer %s", name)
		}
		if got := filterText(c); got != w {
			t.Errorf("consumer %s's filters:\n%s\nwant\n%s", name, got, w)
		}
		if c.FiltersMerged {
			t.Errorf("consumer %s's filters merged", name)
		}
		for _, f := range c.Filters {
			if !json.Valid([]byte(f.Pattern)) || len(f.Pattern) > plan.MaxFilterPattern {
				t.Errorf("consumer %s: pattern %s is no JSON of at most %d bytes", name, f.Pattern, plan.MaxFilterPattern)
			}
		}
	}
}

// manySpec is a table of n entities, entity i keyed PK = "E<i>#{id}", SK
// = "ITEM" or "V<i>#{id}", and a Lambda consumer of all of them, each on
// the operations ops(i).
func manySpec(n int, sk func(i int) string, ops func(i int) string) string {
	var b strings.Builder
	b.WriteString("version: 1\npackage: many\ntables:\n  Items: {partitionKey: PK, sortKey: SK, stream: NEW_AND_OLD_IMAGES}\nentities:\n")
	for i := range n {
		fmt.Fprintf(&b, "  E%d:\n    attributes: {id: string}\n    keys: {primary: {pk: \"E%d#{id}\", sk: %q}}\n", i, i, sk(i))
	}
	b.WriteString("patterns:\n  GetE0: {get: E0}\nconsumers:\n  C:\n    on:\n")
	for i := range n {
		fmt.Fprintf(&b, "      E%d: [%s]\n", i, ops(i))
	}
	b.WriteString("    lambda: {}\n")
	return b.String()
}

// recordFields are the fields of a record a filter reads.
type recordFields struct {
	op     string
	pk, sk string
}

// lets reports whether a filter pattern of the form the plan writes
// lets record r through: its eventName among the pattern's, each key
// attribute it names among its values (a string or a prefix).
func lets(t *testing.T, pattern string, r recordFields) bool {
	t.Helper()
	var p struct {
		EventName []string `json:"eventName"`
		DynamoDB  struct {
			Keys map[string]struct {
				S []json.RawMessage `json:"S"`
			} `json:"Keys"`
		} `json:"dynamodb"`
	}
	if err := json.Unmarshal([]byte(pattern), &p); err != nil {
		t.Fatal(err)
	}
	if p.EventName != nil && !containsString(p.EventName, r.op) {
		return false
	}
	for name, rule := range p.DynamoDB.Keys {
		v := map[string]string{"PK": r.pk, "SK": r.sk}[name]
		ok := false
		if kinds := map[bool]bool{}; true {
			for _, raw := range rule.S {
				kinds[raw[0] == '{'] = true
			}
			if len(kinds) > 1 {
				t.Errorf("rule of %s mixes strings and prefixes: %s", name, pattern)
			}
		}
		for _, raw := range rule.S {
			var s string
			var pre struct{ Prefix *string }
			switch {
			case json.Unmarshal(raw, &s) == nil:
				ok = ok || v == s
			case json.Unmarshal(raw, &pre) == nil && pre.Prefix != nil:
				ok = ok || strings.HasPrefix(v, *pre.Prefix)
			default:
				t.Fatalf("rule %s of %s", raw, pattern)
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

func containsString(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// TestConsumerFiltersMerged: a consumer of more entities than an event
// source mapping takes filters gets MaxFilters filters, which together
// let through every record it handles (a superset, never a subset), and
// say that they were merged; entities of one pattern share one filter
// whatever their number.
func TestConsumerFiltersMerged(t *testing.T) {
	allOps := []string{"INSERT", "MODIFY", "REMOVE"}
	for _, tc := range []struct {
		name   string
		n      int
		sk     func(int) string
		ops    func(int) string
		merged bool
		count  int
	}{
		{"same sort key", 8, func(int) string { return "ITEM" }, func(int) string { return "insert" }, true, plan.MaxFilters},
		{"sort keys of their own", 12, func(i int) string { return fmt.Sprintf("V%d#{id}", i) },
			func(i int) string { return []string{"insert", "modify", "remove, insert"}[i%3] }, true, plan.MaxFilters},
		{"literal and prefixed sort keys", 9, func(i int) string {
			if i%2 == 0 {
				return "ITEM"
			}
			return fmt.Sprintf("V%d#{id}", i)
		}, func(int) string { return "insert" }, true, plan.MaxFilters},
		{"as many as the quota", plan.MaxFilters, func(i int) string { return fmt.Sprintf("V%d#{id}", i) }, func(int) string { return "modify" }, false, plan.MaxFilters},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := consumerPlans(t, manySpec(tc.n, tc.sk, tc.ops))["C"]
			if len(c.Filters) != tc.count || c.FiltersMerged != tc.merged {
				t.Fatalf("%d filters, merged %v; want %d, %v:\n%s", len(c.Filters), c.FiltersMerged, tc.count, tc.merged, filterText(c))
			}
			t.Logf("filters:\n%s", filterText(c))
			seen := map[string]int{}
			for _, f := range c.Filters {
				for _, e := range f.Entities {
					seen[e.Name]++
				}
			}
			for i := range tc.n {
				e := fmt.Sprintf("E%d", i)
				if seen[e] != 1 {
					t.Errorf("entity %s is in %d filters", e, seen[e])
				}
				// A record of each operation the consumer handles on E<i>
				// passes some filter.
				sk := strings.ReplaceAll(tc.sk(i), "{id}", "x")
				for _, op := range allOps {
					if !strings.Contains(strings.ToUpper(tc.ops(i)), op) {
						continue
					}
					r := recordFields{op, e + "#x", sk}
					passes := false
					for _, f := range c.Filters {
						passes = passes || lets(t, f.Pattern, r)
					}
					if !passes {
						t.Errorf("no filter lets through %+v:\n%s", r, filterText(c))
					}
				}
			}
		})
	}
}

// TestConsumerFilterSize: a key's literal text too long for a pattern of
// MaxFilterPattern is left out of the pattern, which then names the rest.
func TestConsumerFilterSize(t *testing.T) {
	long := strings.Repeat("L", plan.MaxFilterPattern)
	spec := manySpec(1, func(int) string { return long + "#{id}" }, func(int) string { return "insert" })
	c := consumerPlans(t, spec)["C"]
	if len(c.Filters) != 1 {
		t.Fatalf("%d filters", len(c.Filters))
	}
	if want := `{"dynamodb":{"Keys":{"PK":{"S":[{"prefix":"E0#"}]}}}}`; c.Filters[0].Pattern != want {
		t.Errorf("pattern %s, want %s", c.Filters[0].Pattern, want)
	}
}

// TestConsumerFilterInert: a key's literal text reaches the pattern as a
// JSON string, whatever it holds.
func TestConsumerFilterInert(t *testing.T) {
	spec := manySpec(1, func(int) string { return `Q"\<&>$%#{id}` }, func(int) string { return "remove" })
	spec = strings.Replace(spec, `sk: "Q\"\\<&>$%#{id}"`, `sk: 'Q"\<&>$%#{id}'`, 1)
	c := consumerPlans(t, spec)["C"]
	var p map[string]any
	if err := json.Unmarshal([]byte(c.Filters[0].Pattern), &p); err != nil {
		t.Fatal(err)
	}
	got := p["dynamodb"].(map[string]any)["Keys"].(map[string]any)["SK"].(map[string]any)["S"].([]any)[0].(map[string]any)["prefix"]
	if got != `Q"\<&>$%#` {
		t.Errorf("prefix %q in %s", got, c.Filters[0].Pattern)
	}
	if regexp.MustCompile(`\\u00`).MatchString(c.Filters[0].Pattern) {
		t.Errorf("HTML escapes in %s", c.Filters[0].Pattern)
	}
}

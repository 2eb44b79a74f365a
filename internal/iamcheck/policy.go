// Package iamcheck evaluates the IAM policies dyngen writes, for tests:
// a small evaluator of identity-based policies (the part of IAM's policy
// language dyngen uses: Allow and Deny statements, actions, resources,
// and conditions on dynamodb:LeadingKeys), and a DynamoDB client that
// evaluates the policy on every call a Store makes and reports each call
// it denies (see [Checker]).
//
// It is test-support code: it is no model of IAM beyond what dyngen's
// policies hold, and refuses (Parse) a policy holding anything else.
package iamcheck

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
)

// Policy is an identity-based IAM policy.
type Policy struct {
	Version   string
	Statement []Statement
}

// Statement is a statement of a policy: its lists are arrays, as dyngen
// writes them.
type Statement struct {
	Sid       string
	Effect    string
	Action    []string
	Resource  []string
	Condition map[string]map[string]any `json:",omitempty"`
}

// LeadingKeys is the condition key of the partition key values of the
// items a request addresses.
const LeadingKeys = "dynamodb:LeadingKeys"

// Region and Account are those of the ARNs of the requests evaluated.
const (
	Region  = "eu-west-3"
	Account = "123456789012"
)

// RequestARN is the ARN of a table or index ("table/T",
// "table/T/index/I") as a request names it.
func RequestARN(resource string) string {
	return "arn:aws:dynamodb:" + Region + ":" + Account + ":" + resource
}

// Parse reads a policy, and refuses one whose statements hold what the
// evaluator does not know: an effect other than Allow or Deny, a
// condition other than ForAllValues:StringLike or Null on
// dynamodb:LeadingKeys.
func Parse(doc []byte) (*Policy, error) {
	var p Policy
	if err := json.Unmarshal(doc, &p); err != nil {
		return nil, err
	}
	for _, st := range p.Statement {
		if st.Effect != "Allow" && st.Effect != "Deny" {
			return nil, fmt.Errorf("statement %s: effect %q", st.Sid, st.Effect)
		}
		for op, kv := range st.Condition {
			for k, v := range kv {
				if k != LeadingKeys {
					return nil, fmt.Errorf("statement %s: condition key %s", st.Sid, k)
				}
				switch op {
				case "Null":
					if v != "true" && v != "false" {
						return nil, fmt.Errorf("statement %s: Null %v", st.Sid, v)
					}
				case "ForAllValues:StringLike":
					if _, err := stringList(v); err != nil {
						return nil, fmt.Errorf("statement %s: %v", st.Sid, err)
					}
				default:
					return nil, fmt.Errorf("statement %s: condition operator %s", st.Sid, op)
				}
			}
		}
	}
	return &p, nil
}

// Load reads and parses the policy in file.
func Load(file string) (*Policy, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	p, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	return p, nil
}

// Clone returns a deep copy of p, to change in a test.
func (p *Policy) Clone() *Policy {
	data, err := json.Marshal(p)
	if err != nil {
		panic(err)
	}
	q, err := Parse(data)
	if err != nil {
		panic(err)
	}
	return q
}

// stringList is a condition's value: a string or a list of strings.
func stringList(v any) ([]string, error) {
	switch v := v.(type) {
	case string:
		return []string{v}, nil
	case []any:
		var out []string
		for _, x := range v {
			s, ok := x.(string)
			if !ok {
				return nil, fmt.Errorf("condition value %v is no string", x)
			}
			out = append(out, s)
		}
		return out, nil
	}
	return nil, fmt.Errorf("condition value %v is no string nor list", v)
}

// Allows evaluates p as IAM does an identity-based policy alone: whether
// a request of action (dynamodb:GetItem) on resource (table/T or
// table/T/index/I) whose partition key values are keys is allowed: some
// Allow statement matches it and no Deny statement does.
func (p *Policy) Allows(action, resource string, keys []string) bool {
	allowed := false
	for _, st := range p.Statement {
		if !st.matches(action, RequestARN(resource), keys) {
			continue
		}
		if st.Effect == "Deny" {
			return false
		}
		allowed = true
	}
	return allowed
}

// matches reports whether the statement applies to the request: one of
// its actions (case aside) and resources matches, and its conditions
// hold.
func (st *Statement) matches(action, arn string, keys []string) bool {
	if !slices.ContainsFunc(st.Action, func(a string) bool { return Glob("(?i)", a).MatchString(action) }) {
		return false
	}
	if !slices.ContainsFunc(st.Resource, func(r string) bool { return Glob("", r).MatchString(arn) }) {
		return false
	}
	return st.conditionHolds(keys)
}

// conditionHolds evaluates the conditions dyngen writes on
// dynamodb:LeadingKeys (Parse refuses others): every operator's must
// hold.
func (st *Statement) conditionHolds(keys []string) bool {
	for op, kv := range st.Condition {
		for _, v := range kv {
			switch op {
			case "Null":
				// "true": the key is absent; "false": present. A
				// multivalued key with no value is absent.
				if (v == "true") != (len(keys) == 0) {
					return false
				}
			case "ForAllValues:StringLike":
				// Each value of the request matches one pattern; true
				// for a request with no value.
				pats, _ := stringList(v)
				for _, key := range keys {
					if !slices.ContainsFunc(pats, func(p string) bool { return Glob("", p).MatchString(key) }) {
						return false
					}
				}
			}
		}
	}
	return true
}

// Glob is a pattern of StringLike, of an ARN or of an action as a
// regular expression with flags: * any text, ? one character, IAM's
// special variables ${*}, ${?} and ${$} the character itself.
func Glob(flags, pat string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString(flags + "^")
	for pat != "" {
		switch {
		case strings.HasPrefix(pat, "${*}"), strings.HasPrefix(pat, "${?}"), strings.HasPrefix(pat, "${$}"):
			b.WriteString(regexp.QuoteMeta(pat[2:3]))
			pat = pat[4:]
			continue
		case pat[0] == '*':
			b.WriteString("(?s:.*)")
		case pat[0] == '?':
			b.WriteString("(?s:.)")
		default:
			b.WriteString(regexp.QuoteMeta(pat[:1]))
		}
		pat = pat[1:]
	}
	return regexp.MustCompile(b.String() + "$")
}

package outputtest

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// ParseTemplate parses a CloudFormation template written in YAML: a
// duplicate key is an error.
func ParseTemplate(t *testing.T, data []byte) map[string]any {
	t.Helper()
	var tmpl map[string]any
	if err := yaml.Unmarshal(data, &tmpl); err != nil {
		t.Fatalf("the template is not YAML: %v", err)
	}
	return tmpl
}

// subVariable is a variable of Fn::Sub, or its escape ${!...}.
var subVariable = regexp.MustCompile(`\$\{[^}]*\}`)

// noValue stands for AWS::NoValue while a template is resolved.
type noValue struct{}

// ResolveTemplate evaluates the intrinsic functions of tmpl's resources
// and outputs as CloudFormation would deploy it, with the parameter
// values given (the defaults for the others, each checked against its
// constraints; a parameter without default must be given). A reference
// to a resource reads "ref:<id>", its Arn attribute "arn:<id>" (in
// Fn::GetAtt or Fn::Sub), its StreamArn "streamarn:<id>", the stack's name
// "stack", the partition, region and account aws, us-east-1 and
// 123456789012; Fn::Sub reads the string parameters too. An intrinsic function
// the output is not expected to use fails the test.
func ResolveTemplate(t *testing.T, tmpl map[string]any, values map[string]string) map[string]any {
	t.Helper()
	params, _ := tmpl["Parameters"].(map[string]any)
	if params == nil {
		t.Fatal("no Parameters")
	}
	resources, _ := tmpl["Resources"].(map[string]any)
	for id := range values {
		if params[id] == nil {
			t.Fatalf("the test sets parameter %s, which the template does not declare", id)
		}
	}
	// The parameter values, checked against the parameters' constraints.
	pv := map[string]any{}
	for id, p := range params {
		p := p.(map[string]any)
		v, ok := values[id]
		if !ok {
			if p["Default"] == nil {
				t.Fatalf("parameter %s has no default, and the test sets none", id)
			}
			v = fmt.Sprint(p["Default"])
		}
		if allowed, ok := p["AllowedValues"].([]any); ok && !slices.Contains(allowed, any(v)) {
			t.Errorf("parameter %s: %q is not among %v", id, v, allowed)
		}
		switch p["Type"] {
		case "Number":
			n, err := strconv.Atoi(v)
			if err != nil {
				t.Fatalf("parameter %s: %q is not a number", id, v)
			}
			if minv, ok := p["MinValue"]; ok {
				if m, _ := strconv.Atoi(fmt.Sprint(minv)); n < m {
					t.Errorf("parameter %s: %d is under its MinValue %v", id, n, minv)
				}
			}
			pv[id] = n
		case "String":
			pv[id] = v
		default:
			t.Fatalf("parameter %s: type %v", id, p["Type"])
		}
	}
	conds := map[string]bool{}
	condDefs, _ := tmpl["Conditions"].(map[string]any)
	var eval func(v any) any
	condition := func(name any) bool {
		s, _ := name.(string)
		c, ok := conds[s]
		if !ok {
			t.Fatalf("condition %v is not declared", name)
		}
		return c
	}
	eval = func(v any) any {
		switch v := v.(type) {
		case []any:
			var out []any
			for _, e := range v {
				if r := eval(e); r != (noValue{}) {
					out = append(out, r)
				}
			}
			return out
		case map[string]any:
			if len(v) == 1 {
				for k, arg := range v {
					switch {
					case k == "Ref":
						switch {
						case arg == "AWS::NoValue":
							return noValue{}
						case pv[fmt.Sprint(arg)] != nil:
							return pv[fmt.Sprint(arg)]
						case resources[fmt.Sprint(arg)] != nil:
							return "ref:" + fmt.Sprint(arg)
						}
						t.Fatalf("Ref to %v, which is no parameter or resource", arg)
					case k == "Fn::If":
						a, _ := arg.([]any)
						if len(a) != 3 {
							t.Fatalf("Fn::If takes 3 arguments: %v", arg)
						}
						if condition(a[0]) {
							return eval(a[1])
						}
						return eval(a[2])
					case k == "Fn::Equals":
						a, _ := arg.([]any)
						if len(a) != 2 {
							t.Fatalf("Fn::Equals takes 2 arguments: %v", arg)
						}
						return fmt.Sprint(eval(a[0])) == fmt.Sprint(eval(a[1]))
					case k == "Fn::GetAtt":
						a, _ := arg.([]any)
						if len(a) != 2 || (a[1] != "Arn" && a[1] != "StreamArn") || resources[fmt.Sprint(a[0])] == nil {
							t.Fatalf("Fn::GetAtt %v: not the Arn or StreamArn of a resource", arg)
						}
						if a[1] == "StreamArn" {
							return "streamarn:" + fmt.Sprint(a[0])
						}
						return "arn:" + fmt.Sprint(a[0])
					case k == "Fn::Sub":
						s, _ := arg.(string)
						return subVariable.ReplaceAllStringFunc(s, func(v string) string {
							name := v[2 : len(v)-1]
							switch name {
							case "AWS::StackName":
								return "stack"
							case "AWS::Partition":
								return "aws"
							case "AWS::Region":
								return "us-east-1"
							case "AWS::AccountId":
								return "123456789012"
							}
							if p, ok := pv[name].(string); ok {
								return p
							}
							if id, ok := strings.CutSuffix(name, ".Arn"); ok && resources[id] != nil {
								return "arn:" + id
							}
							t.Fatalf("Fn::Sub %q: unexpected %s", s, v)
							return ""
						})
					case strings.HasPrefix(k, "Fn::") || k == "Condition":
						t.Fatalf("unexpected intrinsic function %s", k)
					}
				}
			}
			out := map[string]any{}
			for k, e := range v {
				if r := eval(e); r != (noValue{}) {
					out[k] = r
				}
			}
			return out
		}
		return v
	}
	for name, def := range condDefs {
		b, ok := eval(def).(bool)
		if !ok {
			t.Fatalf("condition %s is not a boolean", name)
		}
		conds[name] = b
	}
	out := map[string]any{}
	for k, v := range tmpl {
		switch k {
		case "Resources", "Outputs":
			out[k] = eval(v)
		default:
			out[k] = v
		}
	}
	return out
}

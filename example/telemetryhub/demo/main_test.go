package main

import (
	"strings"
	"testing"

	"github.com/dyngen/dyngen/example/internal/exampletest"
)

// patterns are the access patterns of spec.yaml: the demo runs each.
var patterns = []string{
	"GetAccount", "GetUser", "UsersOfAccount", "ServiceGroupsOfAccount", "AccountData",
	"ServiceGroupsOfUser", "UsersOfServiceGroup", "UserByID",
	"CreateAccount", "CreateUser", "CreateServiceGroup", "GrantServiceGroup", "RevokeServiceGroup",
}

func TestDemo(t *testing.T) {
	text := exampletest.Demo(t, run, patterns, []string{
		"creating it again: error ErrAlreadyExists",
		"granting usr-0001 sg-dev-41 again: step 2 (create Membership): error ErrAlreadyExists",
		"granting a user who does not exist: step 1 (check User): error ErrNotFound",
		"granting a group that does not exist: step 3 (update ServiceGroup): error ErrNotFound",
		"user usr-0003 -> service group sg-dev-41 (members 2)",
		"usr-9999: error ErrNotFound",
		"account       acc-7f3a9c \"Acme Rockets\"",
		"service group sg-prod-17 \"prod\", members 2",
	})
	for _, tc := range []struct {
		section string
		want    []string
		not     []string
	}{
		{"== ServiceGroupsOfUser:", []string{"usr-0001 -> service group sg-dev-41", "usr-0001 -> service group sg-prod-17"}, []string{"usr-0002", "usr-0003"}},
		{"== UsersOfServiceGroup:", []string{"usr-0001 -> service group sg-prod-17", "usr-0002 -> service group sg-prod-17"}, []string{"sg-dev-41", "usr-0003"}},
		{"== UserByID:", []string{"usr-0003 of acc-7f3a9c: Marvin Martian"}, []string{"usr-0001", "usr-0002"}},
		{"== RevokeServiceGroup:", []string{"revoking it again: step 1 (delete Membership): error ErrConditionFailed", "sg-prod-17, members 1:", "usr-0002 -> service group sg-prod-17"}, []string{"usr-0001"}},
	} {
		sec := exampletest.Between(text, tc.section, "\n== ")
		for _, w := range tc.want {
			if !strings.Contains(sec, w) {
				t.Errorf("%s output lacks %q:\n%s", tc.section, w, sec)
			}
		}
		for _, n := range tc.not {
			if strings.Contains(sec, n) {
				t.Errorf("%s output shows %q:\n%s", tc.section, n, sec)
			}
		}
	}
}

package plan

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestRoleNames: every role has a name of its own in `dyngen plan -json`,
// a word, never the fallback Role(n), and it marshals as that name.
func TestRoleNames(t *testing.T) {
	seen := map[string]Role{}
	for r := range roleCount {
		name := r.String()
		if name == "" || strings.ContainsAny(name, "() ") {
			t.Errorf("role %d has no name: %q", int(r), name)
			continue
		}
		if q, ok := seen[name]; ok {
			t.Errorf("roles %d and %d are both named %q", int(q), int(r), name)
		}
		seen[name] = r
		b, err := json.Marshal(r)
		if err != nil || string(b) != `"`+name+`"` {
			t.Errorf("role %s marshals as %s (%v)", name, b, err)
		}
	}
	if len(seen) < int(ParamClock) {
		t.Errorf("only %d roles named", len(seen))
	}
}

// TestPlaceholderTextAllocs: making a placeholder's text allocates its
// text only; the check of a spec makes one for every name and value of
// every request (a replacer built on each call took a third of the
// check's memory).
func TestPlaceholderTextAllocs(t *testing.T) {
	for _, s := range []string{"approvals.{reviewer}", "address.zip", "email"} {
		if n := testing.AllocsPerRun(100, func() { _ = placeholderText(s) }); n > 1 {
			t.Errorf("placeholderText(%q): %v allocations, want at most 1", s, n)
		}
	}
	if got := placeholderText("approvals.{reviewer}"); got != "approvals_reviewer" {
		t.Errorf("placeholderText: %q, want approvals_reviewer", got)
	}
}

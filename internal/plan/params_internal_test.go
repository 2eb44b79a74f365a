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

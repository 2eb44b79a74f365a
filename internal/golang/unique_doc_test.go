package golang

import (
	"strings"
	"testing"
)

// TestUniqueWriteDoc: the doc of a write of an entity with unique values
// says what the plan decided it sends over no item (plan.Unique.Absent):
// an unversioned put creates the item with every claim, a versioned one
// fails with ErrNotFound and has no create step to send.
func TestUniqueWriteDoc(t *testing.T) {
	const spec = `version: 1
package: accounts
tables:
  Main: {partitionKey: PK, sortKey: SK}
entities:
  User:
    attributes: {id: string, email: string}
    unique: [email]
    keys: {primary: {pk: "USER#{id}", sk: "USER#{id}"}}
  Account:
    version: rev
    attributes: {id: string, handle: string, rev: int}
    unique: [handle]
    keys: {primary: {pk: "ACCOUNT#{id}", sk: "ACCOUNT#{id}"}}
patterns:
  SaveUser: {put: User}
  SaveAccount: {put: Account}
`
	files, err := Package(planOf(t, "spec.yaml", []byte(spec)), "spec.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var src string
	for _, f := range files {
		if f.Name == "patterns.go" {
			src = string(f.Data)
		}
	}
	doc := func(method string) string {
		end := strings.Index(src, "\nfunc (s *Store) "+method+"(")
		if end < 0 {
			t.Fatalf("no method %s", method)
		}
		start := strings.LastIndex(src[:end], "\n}\n")
		var words []string
		for _, w := range strings.Fields(src[start+3 : end]) {
			if w != "//" {
				words = append(words, w)
			}
		}
		return strings.Join(words, " ")
	}
	for _, tc := range []struct {
		method    string
		want, not []string
	}{
		{"SaveUser",
			[]string{"over no item, it holds only while there is still none", "Over an item read, step 1 is sent, and the release and claim steps of a value only when the value changes; over no item, step 2 and every claim step."},
			nil},
		{"SaveAccount",
			[]string{"The put holds only while the item still holds the values read", "(ErrNotFound when there is no item)", "The release and claim steps of a value are sent only when the value changes."},
			[]string{"over no item"}},
	} {
		d := doc(tc.method)
		for _, w := range tc.want {
			if !strings.Contains(d, w) {
				t.Errorf("%s's doc does not say %q:\n%s", tc.method, w, d)
			}
		}
		for _, n := range tc.not {
			if strings.Contains(strings.ToLower(d), strings.ToLower(n)) {
				t.Errorf("%s's doc says %q:\n%s", tc.method, n, d)
			}
		}
	}
}

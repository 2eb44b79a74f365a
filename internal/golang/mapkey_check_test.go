package golang

import (
	"strings"
	"testing"
)

// TestMapKeyCheckedFirst: a write that reads its item first (an entity
// with unique values, counts, copies or items per element) checks the
// key of a map entry its when names before any request, as every other
// method does: an empty key is refused even when the read would find no
// item and the write would send nothing.
func TestMapKeyCheckedFirst(t *testing.T) {
	const spec = `version: 1
package: users
tables:
  Main: {partitionKey: PK, sortKey: SK}
entities:
  User:
    attributes: {id: string, email: string, approvals: map}
    keys: {primary: {pk: "U#{id}", sk: "U"}}
    unique: [email]
patterns:
  DelUser: {delete: User, when: {"approvals.{reviewer}": exists}}
  PutUser: {put: User, when: {"approvals.{reviewer}": notExists}}
`
	src := patternsSource(t, spec)
	for _, method := range []string{"DelUser", "PutUser"} {
		start := strings.Index(src, "\nfunc (s *Store) "+method+"(")
		if start < 0 {
			t.Fatalf("no method %s", method)
		}
		body := src[start : start+strings.Index(src[start+1:], "\n}\n")]
		check, read := strings.Index(body, "utf8.ValidString(reviewer)"), strings.Index(body, ".GetItem(")
		if check < 0 || read < 0 || check > read {
			t.Errorf("%s does not check the key before its GetItem (check at %d, read at %d):\n%s", method, check, read, body)
		}
	}
}

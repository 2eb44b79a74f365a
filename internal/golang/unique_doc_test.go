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
	doc := methodDocs(t, spec)
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
		checkDoc(t, tc.method, doc(tc.method), tc.want, tc.not)
	}
}

// TestDerivedWriteDoc: the summary of a write that keeps copies, or items
// per element, says what it keeps (not counts, which the entity has
// none of), and a create's or put's constants.
func TestDerivedWriteDoc(t *testing.T) {
	const spec = `version: 1
package: accounts
tables:
  Main: {partitionKey: PK, sortKey: SK}
entities:
  User:
    attributes: {id: string, email: string, state: {type: enum, values: [active, gone]}}
    keys: {primary: {pk: "USER#{id}", sk: "USER#{id}"}}
    copies:
      ByEmail: {pk: "EMAIL#{email}", sk: "EMAIL#{email}"}
  Parcel:
    attributes: {id: string, tags: {type: stringSet, maxItems: 5}, state: {type: enum, values: [new, sent]}}
    keys: {primary: {pk: "PARCEL#{id}", sk: "PARCEL#{id}"}}
    each:
      ParcelTags: {of: tags, pk: "TAG#{tags}", sk: "PARCEL#{id}", attributes: [state]}
patterns:
  CreateUser: {create: User, set: [{state: active}]}
  SaveUser: {put: User}
  UpdateUser: {update: User, set: [state]}
  DeleteUser: {delete: User}
  CreateParcel: {create: Parcel, set: [{state: new}]}
  SaveParcel: {put: Parcel}
  TagParcel: {update: Parcel, set: [tags]}
  SendParcel: {update: Parcel, set: [{state: sent}]}
  DeleteParcel: {delete: Parcel}
`
	doc := methodDocs(t, spec)
	for _, tc := range []struct {
		method    string
		want, not []string
	}{
		{"CreateUser", []string{"writes the User and each of its copies", `It writes state "active" (set) whatever user holds`}, []string{"count"}},
		{"SaveUser", []string{"and its copies"}, []string{"count"}},
		{"UpdateUser", []string{"applies the same update to each of its copies"}, []string{"count"}},
		{"DeleteUser", []string{"and its copies"}, []string{"count"}},
		{"CreateParcel", []string{"the item of each element of its tags (ParcelTags)", `It writes state "new" (set) whatever parcel holds`, "step 2 is sent for each element."}, []string{"count"}},
		{"SaveParcel", []string{"for ParcelTags, step 4 is sent for each element of tags read that the set written does not hold, step 5 for each new element, or for every element when state changes. Over no item, step 2 is sent instead of step 1, and step 5 for each element."}, []string{"count"}},
		{"TagParcel", []string{"updates the Parcel and the items of the elements of its tags (ParcelTags)", "for ParcelTags, step 3 is sent for each element of tags read that the set written does not hold, step 4 for each new element."}, []string{"count", "when state changes"}},
		{"SendParcel", []string{"for ParcelTags, step 3 is sent for every element of tags read when state changes."}, []string{"count"}},
		{"DeleteParcel", []string{"deletes the Parcel with this key and the item of each element of its tags (ParcelTags)", "step 3 is sent for each element read."}, []string{"count"}},
	} {
		checkDoc(t, tc.method, doc(tc.method), tc.want, tc.not)
	}
}

// checkDoc reports what method's doc d does not say of want, and what it
// says of not (in any case).
func checkDoc(t *testing.T, method, d string, want, not []string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(d, w) {
			t.Errorf("%s's doc does not say %q:\n%s", method, w, d)
		}
	}
	for _, n := range not {
		if strings.Contains(strings.ToLower(d), strings.ToLower(n)) {
			t.Errorf("%s's doc says %q:\n%s", method, n, d)
		}
	}
}

// methodDocs generates spec and returns the doc comment of a method of
// its Store, its words joined by one space.
func methodDocs(t *testing.T, spec string) func(method string) string {
	t.Helper()
	src := patternsSource(t, spec)
	return func(method string) string {
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
}

// patternsSource generates spec and returns its patterns.go.
func patternsSource(t *testing.T, spec string) string {
	t.Helper()
	files, err := Package(planOf(t, "spec.yaml", []byte(spec)), "spec.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if f.Name == "patterns.go" {
			return string(f.Data)
		}
	}
	t.Fatal("no patterns.go")
	return ""
}

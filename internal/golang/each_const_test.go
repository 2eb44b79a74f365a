package golang

import (
	"strings"
	"testing"
)

// TestEachConstValue: a constant a create or update sets, written in any
// form the spec takes (0x10), is the value the element items hold and
// the update compares with the value read: the one the owner's request
// sends (16).
func TestEachConstValue(t *testing.T) {
	const spec = `version: 1
package: parcels
tables:
  Main: {partitionKey: PK, sortKey: SK}
entities:
  Parcel:
    attributes: {id: string, tags: {type: stringSet, maxItems: 5}, n: int}
    keys: {primary: {pk: "PARCEL#{id}", sk: "PARCEL#{id}"}}
    each:
      ParcelTags: {of: tags, pk: "TAG#{tags}", sk: "PARCEL#{id}", attributes: [n]}
patterns:
  CreateParcel: {create: Parcel, set: [{n: 0x10}]}
  Renumber: {update: Parcel, set: [{n: 0x10}]}
`
	src := patternsSource(t, spec)
	if strings.Contains(src, "int64(0)") {
		t.Errorf("the constant 0x10 is printed 0:\n%s", src)
	}
	if n := strings.Count(src, "int64(16)"); n < 3 {
		t.Errorf("the constant 0x10 is printed 16 %d times, want at least 3 (the create's item, the update's compare and item):\n%s", n, src)
	}
}

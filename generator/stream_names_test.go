package generator

import (
	"strings"
	"testing"
)

// TestStreamNamesFreeWithoutStream: a spec whose tables have no stream
// may name its own what the stream side of a package declares (Change,
// StreamRecord); a spec with a stream may not
// (internal/plan/testdata/generated_name_stream.txtar).
func TestStreamNamesFreeWithoutStream(t *testing.T) {
	spec := `version: 1
package: shop
tables:
  Main: {partitionKey: PK, sortKey: SK}
entities:
  Change:
    table: Main
    attributes: {id: string}
    keys: {primary: {pk: "CHANGE#{id}", sk: CHANGE}}
  Record:
    go: StreamRecord
    table: Main
    attributes: {id: string}
    keys: {primary: {pk: "RECORD#{id}", sk: RECORD}}
patterns:
  GetChange: {get: Change}
`
	_, d, files := generation(t, []byte(spec), nil, Options{})
	if d.HasErrors() {
		t.Fatal(d.Err())
	}
	found := false
	for _, f := range files {
		found = found || strings.Contains(string(f.Data), "type StreamRecord struct")
	}
	if !found {
		t.Error("no entity type StreamRecord was generated")
	}
}

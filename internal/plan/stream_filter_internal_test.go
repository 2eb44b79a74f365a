package plan

import "testing"

// TestFilterMerge: a merge lets through what either pattern does: the
// values of a
// key attribute both name, a string covered by a prefix written once, a
// list of strings and prefixes all prefixes; a key attribute one of
// them leaves out is left out.
func TestFilterMerge(t *testing.T) {
	a := &filterPattern{keys: map[string][]filterValue{
		"PK": {{text: "CUSTOMER#", prefix: true}},
		"SK": {{text: "PROFILE"}},
		"GK": {{text: "G"}},
	}}
	b := &filterPattern{keys: map[string][]filterValue{
		"PK": {{text: "CUSTOMER#1"}, {text: "CUSTOMER#2", prefix: true}},
		"SK": {{text: "ORDER#", prefix: true}},
	}}
	m := mergeFilters(a, b)
	if want := `{"dynamodb":{"Keys":{"PK":{"S":[{"prefix":"CUSTOMER#"}]},"SK":{"S":[{"prefix":"ORDER#"},{"prefix":"PROFILE"}]}}}}`; m.json() != want {
		t.Errorf("merge %s, want %s", m.json(), want)
	}
	if got := mergeCost(a, b); got != 1+1+2 {
		t.Errorf("merge cost %d", got)
	}
	c := &filterPattern{keys: map[string][]filterValue{"SK": {{text: "B"}}}}
	d := &filterPattern{keys: map[string][]filterValue{"SK": {{text: "A"}, {text: "B"}}}}
	if want := `{"dynamodb":{"Keys":{"SK":{"S":["A","B"]}}}}`; mergeFilters(c, d).json() != want {
		t.Errorf("merge %s, want %s", mergeFilters(c, d).json(), want)
	}
}

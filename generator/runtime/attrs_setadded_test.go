package runtime

import (
	"slices"
	"testing"
)

func TestSetAdded(t *testing.T) {
	for _, tc := range []struct {
		from, to, want []string
	}{
		{nil, nil, nil},
		{nil, []string{"a", "b", "a"}, []string{"a", "b"}},
		{[]string{"a"}, []string{"a", "b", "c", "b"}, []string{"b", "c"}},
		{[]string{"a", "b"}, []string{"b", "a"}, nil},
		{[]string{"a", "b"}, nil, nil},
	} {
		if got := SetAdded(tc.from, tc.to); !slices.Equal(got, tc.want) {
			t.Errorf("SetAdded(%q, %q) = %q, want %q", tc.from, tc.to, got, tc.want)
		}
	}
	if got := SetAdded([]int64{1, 2}, []int64{3, 2, 3}); !slices.Equal(got, []int64{3}) {
		t.Errorf("SetAdded of ints = %v, want [3]", got)
	}
}

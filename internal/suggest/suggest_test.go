package suggest

import "testing"

func TestDistance(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"abc", "", 3}, {"kitten", "sitting", 3}, {"partitonKey", "partitionKey", 1}, {"état", "etat", 1},
	} {
		if got := Distance(tt.a, tt.b); got != tt.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestDidYouMean(t *testing.T) {
	known := []string{"partitionKey", "sortKey", "indexes"}
	if got := DidYouMean("partitonKey", known); got != `; did you mean "partitionKey"?` {
		t.Errorf("got %q", got)
	}
	if got := DidYouMean("SORTKEY", known); got != `; did you mean "sortKey"?` {
		t.Errorf("case is ignored: got %q", got)
	}
	if got := DidYouMean("projection", known); got != "" {
		t.Errorf("nothing near: got %q", got)
	}
}

// Package suggest finds, among known names, the one nearest to a name
// that was not found, for "did you mean" hints.
package suggest

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Distance is the Levenshtein edit distance between a and b, in runes.
func Distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// Nearest returns the known name nearest to name (ignoring case) and
// whether it is near enough to propose: within 2 edits, or a third of the
// name's length.
func Nearest(name string, known []string) (string, bool) {
	best, bestDist := "", 1<<30
	for _, k := range known {
		if d := Distance(strings.ToLower(name), strings.ToLower(k)); d < bestDist {
			best, bestDist = k, d
		}
	}
	return best, best != "" && bestDist <= max(2, utf8.RuneCountInString(name)/3)
}

// DidYouMean returns "; did you mean X?" when a known name is near, else
// "".
func DidYouMean(name string, known []string) string {
	if k, ok := Nearest(name, known); ok {
		return fmt.Sprintf("; did you mean %q?", k)
	}
	return ""
}

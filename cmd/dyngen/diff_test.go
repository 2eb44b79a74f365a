package main

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// applyDiff applies a unified diff made by unifiedDiff to old.
func applyDiff(t *testing.T, old, diff string) string {
	t.Helper()
	oldLines := splitLines(old)
	lines := strings.SplitAfter(diff, "\n")
	var out []string
	next := 0 // next old line to copy
	for i := 2; i < len(lines); i++ {
		l := lines[i]
		if l == "" {
			continue
		}
		if strings.HasPrefix(l, "@@ ") {
			spec := strings.Fields(l)[1] // -start,len
			startText, _, _ := strings.Cut(spec[1:], ",")
			start, err := strconv.Atoi(startText)
			if err != nil {
				t.Fatalf("bad hunk header %q", l)
			}
			if !strings.HasSuffix(spec, ",0") {
				start-- // 1-based; an empty range names the line before
			}
			for next < start {
				out = append(out, oldLines[next])
				next++
			}
			continue
		}
		text := l[1:]
		if strings.HasPrefix(text, "\\ No newline") {
			continue
		}
		switch l[0] {
		case ' ':
			out = append(out, oldLines[next])
			next++
		case '-':
			next++
		case '+':
			out = append(out, text)
		}
	}
	out = append(out, oldLines[next:]...)
	return strings.Join(out, "")
}

// lcs is the length of a longest common subsequence of lines.
func lcs(a, b []string) int {
	dp := make([][]int, len(a)+1)
	for i := range dp {
		dp[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				dp[i][j] = dp[i+1][j+1] + 1
			} else {
				dp[i][j] = max(dp[i+1][j], dp[i][j+1])
			}
		}
	}
	return dp[0][0]
}

// TestEditScriptIsMinimal checks on random texts that the edit script
// turns a into b and keeps a longest common subsequence: short texts of
// few distinct lines, and longer ones of more lines, so that the search
// for the middle of the path splits them several times.
func TestEditScriptIsMinimal(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 3000 {
		n, letters := 12, 4
		if i%3 == 0 {
			n, letters = 80, 2+r.IntN(12)
		}
		a := randomLines(r, n, letters)
		b := randomLines(r, n, letters)
		ops := editScript(a, b)
		var gotA, gotB []string
		kept := 0
		for _, o := range ops {
			if o.kind != '+' {
				gotA = append(gotA, o.text)
			}
			if o.kind != '-' {
				gotB = append(gotB, o.text)
			}
			if o.kind == ' ' {
				kept++
			}
		}
		if strings.Join(gotA, "") != strings.Join(a, "") || strings.Join(gotB, "") != strings.Join(b, "") {
			t.Fatalf("script does not turn %q into %q: %v", a, b, ops)
		}
		if want := lcs(a, b); kept != want {
			t.Fatalf("script keeps %d lines of %q and %q, a longest common subsequence has %d", kept, a, b, want)
		}
	}
}

// randomLines returns up to n lines, each one of the first letters of the
// alphabet.
func randomLines(r *rand.Rand, n, letters int) []string {
	out := make([]string, r.IntN(n))
	for i := range out {
		out[i] = fmt.Sprintf("%c\n", 'a'+r.IntN(letters))
	}
	return out
}

// TestUnifiedDiffApplies checks that applying the printed diff to the old
// text gives the new one, hunks and context included.
func TestUnifiedDiffApplies(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		old := strings.Join(randomLongLines(r), "")
		new := strings.Join(randomLongLines(r), "")
		d := unifiedDiff("f.go", old, new)
		if old == new {
			if d != "" {
				t.Fatalf("diff of equal texts: %q", d)
			}
			continue
		}
		if got := applyDiff(t, old, d); got != new {
			t.Fatalf("applying\n%s\nto %q gives %q, want %q", d, old, got, new)
		}
	}
}

func randomLongLines(r *rand.Rand) []string {
	n := r.IntN(40)
	out := make([]string, n)
	for i := range out {
		// Mostly equal lines, so that hunks have context around changes.
		if r.IntN(6) == 0 {
			out[i] = fmt.Sprintf("changed %d\n", r.IntN(3))
		} else {
			out[i] = fmt.Sprintf("line %d\n", i)
		}
	}
	return out
}

func TestUnifiedDiffFormat(t *testing.T) {
	old := "a\nb\nc\nd\ne\nf\ng\nh\n"
	new := "a\nb\nc\nD\ne\nf\ng\nh\n"
	want := "--- a/x.go\n+++ b/x.go\n@@ -1,7 +1,7 @@\n a\n b\n c\n-d\n+D\n e\n f\n g\n"
	if got := unifiedDiff("x.go", old, new); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got := unifiedDiff("x.go", "", "a\n"); got != "--- /dev/null\n+++ b/x.go\n@@ -0,0 +1 @@\n+a\n" {
		t.Errorf("new file: got\n%s", got)
	}
}

// TestDiffMemoryIsLinear diffs two unrelated files of 2,500 lines each,
// and two files that share a line in three (the shape of a generated file
// rewritten whole: braces and blank lines in common, the rest not), and
// fails when one diff allocates more than a few bytes per line: the edit
// script must not keep a frontier per edit step.
func TestDiffMemoryIsLinear(t *testing.T) {
	const lines = 2500
	var unrelatedA, unrelatedB, sharedA, sharedB strings.Builder
	for i := range lines {
		fmt.Fprintf(&unrelatedA, "\tkeep := a.Field%d // the old text of line %d\n", i, i)
		fmt.Fprintf(&unrelatedB, "\tkept := b.Other%d // the new text of line %d\n", i, i)
		if i%3 == 0 {
			sharedA.WriteString("}\n")
			sharedB.WriteString("}\n")
			continue
		}
		fmt.Fprintf(&sharedA, "\tx%d := old(%d)\n", i, i)
		fmt.Fprintf(&sharedB, "\ty%d := new(%d)\n", i, i)
	}
	for _, c := range []struct{ name, a, b string }{
		{"unrelated", unrelatedA.String(), unrelatedB.String()},
		{"shared", sharedA.String(), sharedB.String()},
	} {
		t.Run(c.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			d := unifiedDiff("f.go", c.a, c.b)
			runtime.ReadMemStats(&after)
			if got := applyDiff(t, c.a, d); got != c.b {
				t.Fatal("the diff does not turn the old text into the new one")
			}
			// The inputs and the diff are about 0.3 MB; the diff may take
			// a few times that, not hundreds of MB.
			const limit = 4 << 20
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > limit {
				t.Errorf("one diff of two %d-line files allocated %.1f MB, want under %d MB", lines, float64(alloc)/(1<<20), limit>>20)
			}
		})
	}
}

package main

import (
	"fmt"
	"strings"
)

// The unified diff of -check: Myers' O(ND) shortest edit script over
// lines, printed in hunks with three lines of context, like diff -u.

// op is one line of an edit script.
type op struct {
	kind byte // ' ', '-', '+'
	text string
}

// splitLines cuts text into lines, each with its newline; a last line
// without one gets a marker like diff's.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	} else {
		lines[len(lines)-1] += "\n\\ No newline at end of file\n"
	}
	return lines
}

// editScript returns a shortest sequence of kept, deleted and inserted
// lines turning a into b.
func editScript(a, b []string) []op {
	n, m := len(a), len(b)
	max := n + m
	v := make([]int, 2*max+2)
	var trace [][]int
	for d := 0; d <= max; d++ {
		trace = append(trace, append([]int(nil), v...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[max+k-1] < v[max+k+1]) {
				x = v[max+k+1]
			} else {
				x = v[max+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[max+k] = x
			if x >= n && y >= m {
				return backtrack(a, b, trace, d, max)
			}
		}
	}
	return nil
}

// backtrack walks the saved frontiers back from the end to the start.
func backtrack(a, b []string, trace [][]int, d, max int) []op {
	var out []op
	x, y := len(a), len(b)
	for ; d > 0; d-- {
		v := trace[d]
		k := x - y
		var prevK int
		if k == -d || (k != d && v[max+k-1] < v[max+k+1]) {
			prevK = k + 1
		} else {
			prevK = k - 1
		}
		prevX := v[max+prevK]
		prevY := prevX - prevK
		for x > prevX && y > prevY {
			x--
			y--
			out = append(out, op{' ', a[x]})
		}
		if x == prevX {
			y--
			out = append(out, op{'+', b[y]})
		} else {
			x--
			out = append(out, op{'-', a[x]})
		}
	}
	for x > 0 && y > 0 {
		x--
		y--
		out = append(out, op{' ', a[x]})
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// unifiedDiff returns the unified diff of old and new text of path, or ""
// when they are equal. A missing file is /dev/null.
func unifiedDiff(path, oldText, newText string) string {
	if oldText == newText {
		return ""
	}
	ops := editScript(splitLines(oldText), splitLines(newText))
	const context = 3
	var b strings.Builder
	from, to := "a/"+path, "b/"+path
	if oldText == "" {
		from = "/dev/null"
	}
	if newText == "" {
		to = "/dev/null"
	}
	fmt.Fprintf(&b, "--- %s\n+++ %s\n", from, to)
	// Walk the script, cutting hunks around changes.
	oldLine, newLine := 1, 1
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			oldLine++
			newLine++
			continue
		}
		// A change at i: the hunk starts up to context lines before.
		start := max(i-context, 0)
		for start < i && ops[start].kind != ' ' {
			start++
		}
		hunkOld, hunkNew := oldLine-(i-start), newLine-(i-start)
		end := i
		for end < len(ops) {
			if ops[end].kind != ' ' {
				end++
				continue
			}
			// A run of kept lines: does another change follow close
			// enough to join this hunk?
			run := end
			for run < len(ops) && ops[run].kind == ' ' {
				run++
			}
			if run < len(ops) && run-end <= 2*context {
				end = run
				continue
			}
			end = min(end+context, len(ops))
			break
		}
		var oldN, newN int
		var body strings.Builder
		for _, o := range ops[start:end] {
			body.WriteByte(o.kind)
			body.WriteString(o.text)
			if o.kind != '+' {
				oldN++
			}
			if o.kind != '-' {
				newN++
			}
		}
		fmt.Fprintf(&b, "@@ -%s +%s @@\n", hunkRange(hunkOld, oldN), hunkRange(hunkNew, newN))
		b.WriteString(body.String())
		for _, o := range ops[i:end] {
			if o.kind != '+' {
				oldLine++
			}
			if o.kind != '-' {
				newLine++
			}
		}
		i = end
	}
	return b.String()
}

// hunkRange formats a hunk's start and length as diff -u does.
func hunkRange(start, n int) string {
	switch n {
	case 0:
		return fmt.Sprintf("%d,0", start-1)
	case 1:
		return fmt.Sprintf("%d", start)
	}
	return fmt.Sprintf("%d,%d", start, n)
}

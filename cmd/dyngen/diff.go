package main

import (
	"fmt"
	"strings"
)

// The unified diff of -check: Myers' O(ND) shortest edit script over
// lines, in linear space, printed in hunks with three lines of context,
// like diff -u.

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
// lines turning a into b. It is Myers' linear-space refinement: the middle
// of an optimal path is found by searching from both ends at once, and the
// two halves are solved in turn, so memory is O(len(a)+len(b)) whatever
// the number of edits (the frontiers are two arrays reused by every step).
func editScript(a, b []string) []op {
	d := &differ{a: a, b: b}
	size := len(a) + len(b) + 3 // 2*maxD+2 of middle at the top
	d.fwd = make([]int, size)
	d.bwd = make([]int, size)
	d.ops = make([]op, 0, len(a)+len(b))
	d.compare(0, len(a), 0, len(b))
	return d.ops
}

// differ holds the lines, the two frontiers and the script being built.
type differ struct {
	a, b     []string
	fwd, bwd []int
	ops      []op
}

// compare appends the script turning a[a0:a1] into b[b0:b1].
func (d *differ) compare(a0, a1, b0, b1 int) {
	for a0 < a1 && b0 < b1 && d.a[a0] == d.b[b0] {
		d.ops = append(d.ops, op{' ', d.a[a0]})
		a0++
		b0++
	}
	suffix := a1
	for a1 > a0 && b1 > b0 && d.a[a1-1] == d.b[b1-1] {
		a1--
		b1--
	}
	switch {
	case a0 == a1:
		for _, l := range d.b[b0:b1] {
			d.ops = append(d.ops, op{'+', l})
		}
	case b0 == b1:
		for _, l := range d.a[a0:a1] {
			d.ops = append(d.ops, op{'-', l})
		}
	default:
		x, y, ok := d.middle(a0, a1, b0, b1)
		if !ok {
			// No line in common: a shortest script replaces them all.
			for _, l := range d.a[a0:a1] {
				d.ops = append(d.ops, op{'-', l})
			}
			for _, l := range d.b[b0:b1] {
				d.ops = append(d.ops, op{'+', l})
			}
			break
		}
		d.compare(a0, x, b0, y)
		d.compare(x, a1, y, b1)
	}
	for _, l := range d.a[a1:suffix] {
		d.ops = append(d.ops, op{' ', l})
	}
}

// middle returns a point (x, y) of a shortest path from (a0, b0) to
// (a1, b1) that splits it into two shorter ones, or false when a[a0:a1]
// and b[b0:b1] have no line in common. Both ranges are non-empty and
// differ in their first and last lines.
//
// The forward search keeps in fwd[off+k] the furthest x reached on
// diagonal k = x-y from the top left; the backward search keeps in
// bwd[off+k] the furthest distance reached on diagonal k from the bottom
// right, in mirrored coordinates. When the two meet on a diagonal, the
// end of the forward path there lies on a shortest path.
func (d *differ) middle(a0, a1, b0, b1 int) (x, y int, ok bool) {
	n, m := a1-a0, b1-b0
	maxD := (n + m + 1) / 2
	off := maxD
	size := 2*maxD + 2
	fwd, bwd := d.fwd[:size], d.bwd[:size]
	for i := range fwd {
		fwd[i] = -1
		bwd[i] = -1
	}
	fwd[off+1] = 0
	bwd[off+1] = 0
	delta := n - m
	// With an odd delta the paths meet after a forward step, else after a
	// backward one.
	odd := delta%2 != 0
	// Diagonals that ran off the grid are skipped from then on.
	fStart, fEnd, bStart, bEnd := 0, 0, 0, 0
	for e := 0; e < maxD; e++ {
		for k := -e + fStart; k <= e-fEnd; k += 2 {
			i := off + k
			var x int
			if k == -e || (k != e && fwd[i-1] < fwd[i+1]) {
				x = fwd[i+1]
			} else {
				x = fwd[i-1] + 1
			}
			y := x - k
			for x < n && y < m && d.a[a0+x] == d.b[b0+y] {
				x++
				y++
			}
			fwd[i] = x
			switch {
			case x > n:
				fEnd += 2
			case y > m:
				fStart += 2
			case odd:
				j := off + delta - k
				if j >= 0 && j < size && bwd[j] != -1 && x >= n-bwd[j] {
					return a0 + x, b0 + y, true
				}
			}
		}
		for k := -e + bStart; k <= e-bEnd; k += 2 {
			i := off + k
			var x int
			if k == -e || (k != e && bwd[i-1] < bwd[i+1]) {
				x = bwd[i+1]
			} else {
				x = bwd[i-1] + 1
			}
			y := x - k
			for x < n && y < m && d.a[a1-x-1] == d.b[b1-y-1] {
				x++
				y++
			}
			bwd[i] = x
			switch {
			case x > n:
				bEnd += 2
			case y > m:
				bStart += 2
			case !odd:
				j := off + delta - k
				if j >= 0 && j < size && fwd[j] != -1 {
					fx := fwd[j]
					if fx >= n-x {
						return a0 + fx, b0 + fx - (delta - k), true
					}
				}
			}
		}
	}
	return 0, 0, false
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

// Package diag holds positioned diagnostics: errors and warnings found in a
// spec, collected across the whole file, then sorted, de-duplicated and
// printed as file:line:col: message.
package diag

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
)

// Pos is a position in a spec file. Line and Col count from 1; a zero Line
// means the position is unknown (the whole file).
type Pos struct {
	File string
	Line int
	Col  int
}

// String formats the position as file:line:col.
func (p Pos) String() string {
	if p.Line == 0 {
		return p.File
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// Compare orders positions by file, line and column.
func (p Pos) Compare(q Pos) int {
	return cmp.Or(
		cmp.Compare(p.File, q.File),
		cmp.Compare(p.Line, q.Line),
		cmp.Compare(p.Col, q.Col),
	)
}

// Severity tells an error from a warning.
type Severity int

const (
	Error Severity = iota
	Warning
)

// Diagnostic is one finding at one position.
type Diagnostic struct {
	Pos      Pos
	Severity Severity
	Message  string
}

// String formats the diagnostic the way the command prints it.
func (d Diagnostic) String() string {
	if d.Severity == Warning {
		return fmt.Sprintf("%s: warning: %s", d.Pos, d.Message)
	}
	return fmt.Sprintf("%s: %s", d.Pos, d.Message)
}

// List collects diagnostics. The zero value is ready to use.
type List struct {
	items []Diagnostic
}

// Errorf adds an error at pos.
func (l *List) Errorf(pos Pos, format string, args ...any) {
	l.items = append(l.items, Diagnostic{pos, Error, fmt.Sprintf(format, args...)})
}

// Warnf adds a warning at pos.
func (l *List) Warnf(pos Pos, format string, args ...any) {
	l.items = append(l.items, Diagnostic{pos, Warning, fmt.Sprintf(format, args...)})
}

// Append adds every diagnostic of other.
func (l *List) Append(other *List) {
	l.items = append(l.items, other.items...)
}

// HasErrors reports whether any error (not warning) was added.
func (l *List) HasErrors() bool {
	return slices.ContainsFunc(l.items, func(d Diagnostic) bool { return d.Severity == Error })
}

// Len is the number of diagnostics collected so far.
func (l *List) Len() int { return len(l.items) }

// Sorted returns the diagnostics ordered by position, errors before warnings
// at the same position, without duplicates.
func (l *List) Sorted() []Diagnostic {
	out := slices.Clone(l.items)
	slices.SortStableFunc(out, func(a, b Diagnostic) int {
		return cmp.Or(
			a.Pos.Compare(b.Pos),
			cmp.Compare(a.Severity, b.Severity),
			strings.Compare(a.Message, b.Message),
		)
	})
	return slices.Compact(out)
}

// Errors returns the sorted errors only.
func (l *List) Errors() []Diagnostic {
	return slices.DeleteFunc(l.Sorted(), func(d Diagnostic) bool { return d.Severity != Error })
}

// Print writes every diagnostic, sorted, one per line (messages spanning
// several lines are indented after the first).
func (l *List) Print(w io.Writer) error {
	for _, d := range l.Sorted() {
		if _, err := fmt.Fprintln(w, d); err != nil {
			return err
		}
	}
	return nil
}

// Err returns the list as an error when it holds errors, or nil.
func (l *List) Err() error {
	if !l.HasErrors() {
		return nil
	}
	return &ListError{l.Errors()}
}

// ListError is the error form of the errors of a List.
type ListError struct {
	Diagnostics []Diagnostic
}

func (e *ListError) Error() string {
	var b strings.Builder
	for i, d := range e.Diagnostics {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(d.String())
	}
	return b.String()
}

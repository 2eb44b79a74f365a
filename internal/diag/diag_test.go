package diag

import (
	"strings"
	"testing"
)

func TestListSortsAndDeduplicates(t *testing.T) {
	var l List
	at := func(line, col int) Pos { return Pos{File: "s.yaml", Line: line, Col: col} }
	l.Warnf(at(3, 1), "unused index")
	l.Errorf(at(10, 2), "second")
	l.Errorf(at(2, 5), "first")
	l.Errorf(at(10, 2), "second")
	l.Errorf(at(3, 1), "same place, error first")
	var b strings.Builder
	if err := l.Print(&b); err != nil {
		t.Fatal(err)
	}
	want := "s.yaml:2:5: first\n" +
		"s.yaml:3:1: same place, error first\n" +
		"s.yaml:3:1: warning: unused index\n" +
		"s.yaml:10:2: second\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	if !l.HasErrors() || len(l.Errors()) != 3 {
		t.Errorf("errors: %v", l.Errors())
	}
	var w List
	w.Warnf(at(1, 1), "only a warning")
	if w.HasErrors() || w.Err() != nil {
		t.Error("a warning is not an error")
	}
}

package runtime

import (
	"errors"
	"slices"
	"testing"
)

// pages serves three pages of two items, then fails when asked for page 3
// if failAt says so; it records the cursors it is asked for.
type pages struct {
	asked  []Cursor
	failAt int
}

func (p *pages) page(pg Page) ([]int, Cursor, error) {
	p.asked = append(p.asked, pg.Cursor)
	i := len(p.asked) - 1
	if i == p.failAt {
		return nil, "", errors.New("boom")
	}
	next := Cursor("")
	if i < 2 {
		next = Cursor(rune('a' + i))
	}
	return []int{2 * i, 2*i + 1}, next, nil
}

func TestWalk(t *testing.T) {
	p := &pages{failAt: -1}
	var got []int
	for v, err := range walk(p.page) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, v)
	}
	if !slices.Equal(got, []int{0, 1, 2, 3, 4, 5}) || !slices.Equal(p.asked, []Cursor{"", "a", "b"}) {
		t.Errorf("items %v, cursors asked %q", got, p.asked)
	}
	// The caller stops: no more page is read.
	p = &pages{failAt: -1}
	for v := range walk(p.page) {
		if v == 2 {
			break
		}
	}
	if len(p.asked) != 2 {
		t.Errorf("read %d pages after the caller stopped on the second", len(p.asked))
	}
	// An error is yielded once, and ends the walk.
	p = &pages{failAt: 1}
	var errs int
	got = nil
	for v, err := range walk(p.page) {
		if err != nil {
			errs++
			continue
		}
		got = append(got, v)
	}
	if errs != 1 || !slices.Equal(got, []int{0, 1}) || len(p.asked) != 2 {
		t.Errorf("errors %d, items %v, pages %d", errs, got, len(p.asked))
	}
}

func TestWalkPages(t *testing.T) {
	p := &pages{failAt: -1}
	var n int
	for items, err := range walkPages(func(pg Page) ([]int, Cursor, error) { return p.page(pg) }) {
		if err != nil || len(items) != 2 {
			t.Fatalf("page %d: %v %v", n, items, err)
		}
		n++
	}
	if n != 3 {
		t.Errorf("walked %d pages, want 3", n)
	}
	p = &pages{failAt: 0}
	for _, err := range walkPages(func(pg Page) ([]int, Cursor, error) { return p.page(pg) }) {
		if err == nil {
			t.Error("the error was not yielded")
		}
	}
	if len(p.asked) != 1 {
		t.Errorf("read %d pages after an error", len(p.asked))
	}
}

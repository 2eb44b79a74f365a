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
	for v, err := range Walk(asResults(p.page)) {
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
	for v := range Walk(asResults(p.page)) {
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
	for v, err := range Walk(asResults(p.page)) {
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
	for items, err := range WalkPages(func(pg Page) ([]int, Cursor, error) { return p.page(pg) }) {
		if err != nil || len(items) != 2 {
			t.Fatalf("page %d: %v %v", n, items, err)
		}
		n++
	}
	if n != 3 {
		t.Errorf("walked %d pages, want 3", n)
	}
	p = &pages{failAt: 0}
	for _, err := range WalkPages(func(pg Page) ([]int, Cursor, error) { return p.page(pg) }) {
		if err == nil {
			t.Error("the error was not yielded")
		}
	}
	if len(p.asked) != 1 {
		t.Errorf("read %d pages after an error", len(p.asked))
	}
}

// partialPages serves three pages of two items; the second also comes
// with a DecodeError, as a query page that left out an item does.
func partialPages(asked *[]Cursor) func(Page) ([]int, Cursor, error) {
	return func(pg Page) ([]int, Cursor, error) {
		*asked = append(*asked, pg.Cursor)
		i := len(*asked) - 1
		next := Cursor("")
		if i < 2 {
			next = Cursor(rune('a' + i))
		}
		var err error
		if i == 1 {
			err = undecodedErr("P", []UndecodedItem{undecodable(1, &ItemError{Entity: "E", Attr: "a", Reason: "missing"}, "PK")})
		}
		return []int{2 * i, 2*i + 1}, next, err
	}
}

// TestWalkGoesOnAfterDecodeError checks that a page's DecodeError comes
// after its items and that the walk goes on with the next page.
func TestWalkGoesOnAfterDecodeError(t *testing.T) {
	var asked []Cursor
	var got []int
	var errs []int // the number of items yielded before each error
	for v, err := range Walk(asResults(partialPages(&asked))) {
		if err != nil {
			var de *DecodeError
			if !errors.As(err, &de) || !errors.Is(err, ErrInvalidItem) || de.Items[0].Position != 1 {
				t.Errorf("error %v, want the page's DecodeError", err)
			}
			errs = append(errs, len(got))
			continue
		}
		got = append(got, v)
	}
	if !slices.Equal(got, []int{0, 1, 2, 3, 4, 5}) || !slices.Equal(errs, []int{4}) || !slices.Equal(asked, []Cursor{"", "a", "b"}) {
		t.Errorf("items %v, errors after %v items, cursors asked %q", got, errs, asked)
	}
	// The caller stops at the error: no more page is read.
	asked = nil
	for _, err := range Walk(asResults(partialPages(&asked))) {
		if err != nil {
			break
		}
	}
	if len(asked) != 2 {
		t.Errorf("read %d pages after the caller stopped at the error of the second", len(asked))
	}
}

func TestWalkPagesGoesOnAfterDecodeError(t *testing.T) {
	var asked []Cursor
	var pages [][]int
	var errs []int
	for items, err := range WalkPages(partialPages(&asked)) {
		if err != nil {
			if !errors.Is(err, ErrInvalidItem) {
				t.Errorf("error %v, want the page's DecodeError", err)
			}
			errs = append(errs, len(pages))
		}
		pages = append(pages, items)
	}
	// The page comes with its error, and the walk goes on.
	if len(pages) != 3 || !slices.Equal(pages[1], []int{2, 3}) || !slices.Equal(errs, []int{1}) || len(asked) != 3 {
		t.Errorf("pages %v, errors at pages %v, pages read %d", pages, errs, len(asked))
	}
}

// asResults serves the pages of f as a query method does: a nil result
// with an error that leaves no page.
func asResults(f func(Page) ([]int, Cursor, error)) func(Page) (*Result[int], error) {
	return func(pg Page) (*Result[int], error) {
		items, next, err := f(pg)
		if items == nil {
			return nil, err
		}
		return &Result[int]{Items: items, Next: next}, err
	}
}

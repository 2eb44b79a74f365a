package bookreviews_test

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/dyngen/dyngen/example/bookreviews"
	"github.com/dyngen/dyngen/example/internal/exampletest"
	"github.com/dyngen/dyngen/internal/dynamotest"
	"github.com/dyngen/dyngen/internal/iamcheck"
)

// newStore returns a Store over tables of unique names in DynamoDB Local
// (see exampletest.NewStore).
func newStore(t *testing.T) *bookreviews.Store {
	t.Helper()
	return exampletest.NewStore(t, func(chk *iamcheck.Checker) *bookreviews.Store {
		return bookreviews.New(chk, bookreviews.WithBookReviewsTable(dynamotest.TableName("BookReviews")))
	})
}

// ---- fixtures ------------------------------------------------------------------

var (
	goBook = bookreviews.Book{
		ISBN:            "978-0134190440",
		Title:           "The Go Programming Language",
		Author:          "Alan A. A. Donovan, Brian W. Kernighan",
		PublicationYear: new(int64(2015)),
	}
	ddiaBook = bookreviews.Book{
		ISBN:            "978-1449373320",
		Title:           "Designing Data-Intensive Applications",
		Author:          "Martin Kleppmann",
		PublicationYear: new(int64(2017)),
	}
	// A book nobody reviewed, without a publication year (optional).
	quietBook = bookreviews.Book{
		ISBN:   "978-0000000002",
		Title:  "A Quiet Book",
		Author: "Nobody In Particular",
	}
	readers = []string{"alice", "bob", "carol", "dave", "erin"}
)

// firstReview is the date of the oldest review of goBook.
var firstReview = time.Date(2023, 1, 2, 9, 30, 0, 0, time.UTC)

// goReviews returns n reviews of goBook, oldest first: one every 7 hours
// and 13 minutes (so dates cross days, months and a year), by the readers
// in turn.
func goReviews(n int) []bookreviews.Review {
	rs := make([]bookreviews.Review, n)
	for i := range rs {
		rs[i] = bookreviews.Review{
			ISBN:       goBook.ISBN,
			Username:   readers[i%len(readers)],
			Grade:      int64(i % 11),
			ReviewText: fmt.Sprintf("Review #%02d: chapter %d was the best part.", i, i%13+1),
			ReviewDate: firstReview.Add(time.Duration(i) * (7*time.Hour + 13*time.Minute + 123456789)),
		}
	}
	return rs
}

// newestFirst returns a copy of rs sorted by date, newest first.
func newestFirst(rs []bookreviews.Review) []bookreviews.Review {
	out := slices.Clone(rs)
	slices.SortFunc(out, func(a, b bookreviews.Review) int { return b.ReviewDate.Compare(a.ReviewDate) })
	return out
}

// ---- comparisons ---------------------------------------------------------------

func checkBook(t *testing.T, what string, got *bookreviews.Book, want bookreviews.Book) {
	t.Helper()
	if got == nil {
		t.Errorf("%s: nil book", what)
		return
	}
	if got.ISBN != want.ISBN {
		t.Errorf("%s: ISBN = %q, want %q", what, got.ISBN, want.ISBN)
	}
	if got.Title != want.Title {
		t.Errorf("%s: Title = %q, want %q", what, got.Title, want.Title)
	}
	if got.Author != want.Author {
		t.Errorf("%s: Author = %q, want %q", what, got.Author, want.Author)
	}
	if !equalPtr(got.PublicationYear, want.PublicationYear) {
		t.Errorf("%s: PublicationYear = %s, want %s", what, ptrText(got.PublicationYear), ptrText(want.PublicationYear))
	}
	if got.ReviewCount != want.ReviewCount {
		t.Errorf("%s: ReviewCount = %d, want %d", what, got.ReviewCount, want.ReviewCount)
	}
}

// counting returns b with n reviews counted.
func counting(b bookreviews.Book, n int64) bookreviews.Book {
	b.ReviewCount = n
	return b
}

// stepFailed checks the failure of a step of a transaction (see
// exampletest.StepFailedOf).
var stepFailed = exampletest.StepFailedOf(func(e *bookreviews.TransactionError) (int, string) { return e.Step, e.Action },
	bookreviews.ErrNotFound, bookreviews.ErrAlreadyExists, bookreviews.ErrConditionFailed, bookreviews.ErrInvalidKey, bookreviews.ErrInvalidItem)

// writeReview writes r with WriteReview.
func writeReview(t *testing.T, s *bookreviews.Store, r bookreviews.Review) error {
	t.Helper()
	return s.WriteReview(t.Context(), bookreviews.WriteReviewParams{Review: &r})
}

// bookCount returns the stored review count of a book.
func bookCount(t *testing.T, s *bookreviews.Store, isbn string) int64 {
	t.Helper()
	b, err := s.GetBook(t.Context(), isbn)
	if err != nil {
		t.Fatalf("GetBook %s: %v", isbn, err)
	}
	return b.ReviewCount
}

// equalPtr reports whether two optional values are both absent or both
// present and equal.
func equalPtr[T comparable](a, b *T) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// ptrText formats an optional value for a test message.
func ptrText[T any](p *T) string {
	if p == nil {
		return "absent"
	}
	return fmt.Sprint(*p)
}

func checkUser(t *testing.T, what string, got *bookreviews.User, want bookreviews.User) {
	t.Helper()
	if got == nil {
		t.Errorf("%s: nil user", what)
		return
	}
	if got.Username != want.Username {
		t.Errorf("%s: Username = %q, want %q", what, got.Username, want.Username)
	}
	if !got.MembershipDate.Equal(want.MembershipDate) {
		t.Errorf("%s: MembershipDate = %s, want %s", what, got.MembershipDate, want.MembershipDate)
	}
	if got.Email != want.Email {
		t.Errorf("%s: Email = %q, want %q", what, got.Email, want.Email)
	}
}

func checkReview(t *testing.T, what string, got, want bookreviews.Review) {
	t.Helper()
	if got.ISBN != want.ISBN {
		t.Errorf("%s: ISBN = %q, want %q", what, got.ISBN, want.ISBN)
	}
	if got.Username != want.Username {
		t.Errorf("%s: Username = %q, want %q", what, got.Username, want.Username)
	}
	if got.Grade != want.Grade {
		t.Errorf("%s: Grade = %d, want %d", what, got.Grade, want.Grade)
	}
	if got.ReviewText != want.ReviewText {
		t.Errorf("%s: ReviewText = %q, want %q", what, got.ReviewText, want.ReviewText)
	}
	if !got.ReviewDate.Equal(want.ReviewDate) {
		t.Errorf("%s: ReviewDate = %s, want %s", what, got.ReviewDate.Format(time.RFC3339Nano), want.ReviewDate.Format(time.RFC3339Nano))
	}
}

// checkReviews compares two lists of reviews, in order.
func checkReviews(t *testing.T, what string, got, want []bookreviews.Review) {
	t.Helper()
	exampletest.CheckEach(t, what, "reviews", got, want, checkReview)
}

// checkOnce fails when a review (by its key: isbn, date, username) comes back
// more than once.
func checkOnce(t *testing.T, what string, rs []bookreviews.Review) {
	t.Helper()
	seen := map[string]bool{}
	for _, r := range rs {
		k := r.ISBN + "|" + r.ReviewDate.Format(time.RFC3339Nano) + "|" + r.Username
		if seen[k] {
			t.Errorf("%s: review %s returned twice", what, k)
		}
		seen[k] = true
	}
}

// seed writes the books, the users and n reviews of goBook, plus one review
// of ddiaBook by alice; it returns goBook's reviews, oldest first.
func seed(t *testing.T, s *bookreviews.Store, n int) []bookreviews.Review {
	t.Helper()
	ctx := t.Context()
	for _, b := range []bookreviews.Book{goBook, ddiaBook, quietBook} {
		if err := s.AddBook(ctx, &b); err != nil {
			t.Fatalf("AddBook %s: %v", b.ISBN, err)
		}
	}
	for i, u := range readers {
		user := bookreviews.User{Username: u, MembershipDate: time.Date(2020, time.Month(i+1), 15, 12, 0, 0, 0, time.UTC), Email: u + "@example.com"}
		if err := s.AddUser(ctx, &user); err != nil {
			t.Fatalf("AddUser %s: %v", u, err)
		}
	}
	rs := goReviews(n)
	for i := range rs {
		if err := writeReview(t, s, rs[i]); err != nil {
			t.Fatalf("WriteReview %d: %v", i, err)
		}
	}
	other := ddiaReview()
	if err := writeReview(t, s, other); err != nil {
		t.Fatalf("WriteReview ddia: %v", err)
	}
	return rs
}

// ddiaReview is alice's review of ddiaBook, written between two of her
// reviews of goBook.
func ddiaReview() bookreviews.Review {
	return bookreviews.Review{
		ISBN:       ddiaBook.ISBN,
		Username:   "alice",
		Grade:      10,
		ReviewText: "The chapter on replication is worth the price alone.",
		ReviewDate: firstReview.Add(100*time.Hour + 42*time.Second),
	}
}

// ---- tests ---------------------------------------------------------------------

func TestGetBookAndUser(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	seed(t, s, 3)

	// Each book counts the reviews written of it.
	for _, want := range []bookreviews.Book{counting(goBook, 3), counting(ddiaBook, 1), quietBook} {
		got, err := s.GetBook(ctx, want.ISBN)
		if err != nil {
			t.Fatalf("GetBook %s: %v", want.ISBN, err)
		}
		checkBook(t, "GetBook "+want.ISBN, got, want)
	}
	if _, err := s.GetBook(ctx, "978-9999999999"); !errors.Is(err, bookreviews.ErrNotFound) {
		t.Errorf("GetBook of a missing book: %v, want ErrNotFound", err)
	}
	if err := s.AddBook(ctx, &bookreviews.Book{ISBN: goBook.ISBN, Title: "Impostor", Author: "X"}); !errors.Is(err, bookreviews.ErrAlreadyExists) {
		t.Errorf("AddBook of an existing ISBN: %v, want ErrAlreadyExists", err)
	}
	// The failed AddBook left the book as it was.
	got, err := s.GetBook(ctx, goBook.ISBN)
	if err != nil {
		t.Fatal(err)
	}
	checkBook(t, "GetBook after a refused AddBook", got, counting(goBook, 3))

	u, err := s.GetUser(ctx, "carol")
	if err != nil {
		t.Fatalf("GetUser: %v", err)
	}
	checkUser(t, "GetUser carol", u, bookreviews.User{Username: "carol", MembershipDate: time.Date(2020, 3, 15, 12, 0, 0, 0, time.UTC), Email: "carol@example.com"})
	if _, err := s.GetUser(ctx, "mallory"); !errors.Is(err, bookreviews.ErrNotFound) {
		t.Errorf("GetUser of a missing user: %v, want ErrNotFound", err)
	}
	if err := s.AddUser(ctx, &bookreviews.User{Username: "carol", MembershipDate: time.Now(), Email: "carol2@example.com"}); !errors.Is(err, bookreviews.ErrAlreadyExists) {
		t.Errorf("AddUser of an existing username: %v, want ErrAlreadyExists", err)
	}
	// A key value holding the separator is refused before any call.
	if _, err := s.GetBook(ctx, "978#0"); !errors.Is(err, bookreviews.ErrInvalidKey) {
		t.Errorf("GetBook with '#' in the ISBN: %v, want ErrInvalidKey", err)
	}
}

// TestReviewsOfBookPages writes 50 reviews of a book and walks them a page at
// a time, with the cursor and with the iterator: every review comes back
// exactly once, newest first, and the book itself never does.
func TestReviewsOfBookPages(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	const n = 50
	want := newestFirst(seed(t, s, n))

	// With the cursor, the pattern's page size (15).
	var got []bookreviews.Review
	var sizes []int
	var page bookreviews.Page
	for {
		res, err := s.ReviewsOfBook(ctx, goBook.ISBN, page)
		if err != nil {
			t.Fatalf("ReviewsOfBook page %d: %v", len(sizes), err)
		}
		sizes = append(sizes, len(res.Items))
		got = append(got, res.Items...)
		if res.Next == "" {
			break
		}
		if len(sizes) > n {
			t.Fatal("ReviewsOfBook: the cursor never ends")
		}
		page.Cursor = res.Next
	}
	if !slices.Equal(sizes, []int{15, 15, 15, 5}) {
		t.Errorf("ReviewsOfBook page sizes = %v, want [15 15 15 5]", sizes)
	}
	checkOnce(t, "ReviewsOfBook pages", got)
	checkReviews(t, "ReviewsOfBook pages", got, want)

	// With a page size of the caller's: 7 per page.
	got, sizes, page = nil, nil, bookreviews.Page{Limit: 7}
	for {
		res, err := s.ReviewsOfBook(ctx, goBook.ISBN, page)
		if err != nil {
			t.Fatal(err)
		}
		sizes = append(sizes, len(res.Items))
		got = append(got, res.Items...)
		if res.Next == "" {
			break
		}
		page.Cursor = res.Next
	}
	if len(sizes) < 8 || slices.Max(sizes) > 7 {
		t.Errorf("ReviewsOfBook with Limit 7: page sizes %v", sizes)
	}
	checkReviews(t, "ReviewsOfBook pages of 7", got, want)

	// With the iterator.
	got = nil
	for r, err := range s.ReviewsOfBookAll(ctx, goBook.ISBN) {
		if err != nil {
			t.Fatalf("ReviewsOfBookAll: %v", err)
		}
		got = append(got, r)
	}
	checkOnce(t, "ReviewsOfBookAll", got)
	checkReviews(t, "ReviewsOfBookAll", got, want)

	// Stopping the iterator early stops it.
	count := 0
	for _, err := range s.ReviewsOfBookAll(ctx, goBook.ISBN) {
		if err != nil {
			t.Fatal(err)
		}
		count++
		if count == 20 {
			break
		}
	}
	if count != 20 {
		t.Errorf("ReviewsOfBookAll with a break after 20: %d reviews", count)
	}

	// The book's reviews only: ddiaBook's review lives in another partition.
	res, err := s.ReviewsOfBook(ctx, ddiaBook.ISBN, bookreviews.Page{})
	if err != nil {
		t.Fatal(err)
	}
	checkReviews(t, "ReviewsOfBook ddia", res.Items, []bookreviews.Review{ddiaReview()})
	if res.Next != "" {
		t.Errorf("ReviewsOfBook ddia: Next = %q, want \"\"", res.Next)
	}

	// A book without reviews: its partition holds only the book, which the
	// key condition keeps out: no review, no error, no next page.
	res, err = s.ReviewsOfBook(ctx, quietBook.ISBN, bookreviews.Page{})
	if err != nil {
		t.Fatalf("ReviewsOfBook of a book without reviews: %v", err)
	}
	if len(res.Items) != 0 || res.Next != "" {
		t.Errorf("ReviewsOfBook of a book without reviews: %d items, Next %q; want none", len(res.Items), res.Next)
	}
	// Nor with the iterator.
	for r, err := range s.ReviewsOfBookAll(ctx, quietBook.ISBN) {
		t.Errorf("ReviewsOfBookAll of a book without reviews: %+v, %v", r, err)
	}

	// A cursor is tied to its partition and its pattern.
	first, err := s.ReviewsOfBook(ctx, goBook.ISBN, bookreviews.Page{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.ReviewsOfBook(ctx, ddiaBook.ISBN, bookreviews.Page{Cursor: first.Next}); !errors.Is(err, bookreviews.ErrInvalidCursor) {
		t.Errorf("ReviewsOfBook with another book's cursor: %v, want ErrInvalidCursor", err)
	}
	if _, err := s.BookPage(ctx, goBook.ISBN, bookreviews.Page{Cursor: first.Next}); !errors.Is(err, bookreviews.ErrInvalidCursor) {
		t.Errorf("BookPage with a ReviewsOfBook cursor: %v, want ErrInvalidCursor", err)
	}
	if _, err := s.ReviewsOfBook(ctx, goBook.ISBN, bookreviews.Page{Cursor: first.Next + "x"}); !errors.Is(err, bookreviews.ErrInvalidCursor) {
		t.Errorf("ReviewsOfBook with a damaged cursor: %v, want ErrInvalidCursor", err)
	}
}

// TestBookPage reads the book page: the book then its 15 most recent reviews
// in one Query, and then the rest of the collection page by page.
func TestBookPage(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	const n = 50
	want := newestFirst(seed(t, s, n))

	res, err := s.BookPage(ctx, goBook.ISBN, bookreviews.Page{})
	if err != nil {
		t.Fatalf("BookPage: %v", err)
	}
	if len(res.Books) != 1 {
		t.Fatalf("BookPage first page: %d books, want 1", len(res.Books))
	}
	checkBook(t, "BookPage book", &res.Books[0], counting(goBook, n))
	checkReviews(t, "BookPage first page reviews", res.Reviews, want[:15])
	if res.Next == "" {
		t.Fatal("BookPage first page: Next is empty, but 35 reviews are left")
	}

	// The rest of the collection, from the first page's cursor: only reviews.
	var rest []bookreviews.Review
	page := bookreviews.Page{Cursor: res.Next}
	for {
		r, err := s.BookPage(ctx, goBook.ISBN, page)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Books) != 0 {
			t.Errorf("BookPage later page: %d books, want 0", len(r.Books))
		}
		rest = append(rest, r.Reviews...)
		if r.Next == "" {
			break
		}
		page.Cursor = r.Next
	}
	checkReviews(t, "BookPage later pages", rest, want[15:])

	// The whole collection with the iterator: 51 items, 16 per page.
	var books []bookreviews.Book
	var reviews []bookreviews.Review
	var sizes []int
	for p, err := range s.BookPageAll(ctx, goBook.ISBN) {
		if err != nil {
			t.Fatalf("BookPageAll: %v", err)
		}
		sizes = append(sizes, len(p.Books)+len(p.Reviews))
		books = append(books, p.Books...)
		reviews = append(reviews, p.Reviews...)
	}
	if !slices.Equal(sizes, []int{16, 16, 16, 3}) {
		t.Errorf("BookPageAll page sizes = %v, want [16 16 16 3]", sizes)
	}
	if len(books) != 1 {
		t.Errorf("BookPageAll: %d books, want 1", len(books))
	} else {
		checkBook(t, "BookPageAll book", &books[0], counting(goBook, n))
	}
	checkOnce(t, "BookPageAll", reviews)
	checkReviews(t, "BookPageAll reviews", reviews, want)

	// A book without reviews: its page is the book alone.
	res, err = s.BookPage(ctx, quietBook.ISBN, bookreviews.Page{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Books) != 1 || len(res.Reviews) != 0 || res.Next != "" {
		t.Errorf("BookPage of a book without reviews: %d books, %d reviews, Next %q", len(res.Books), len(res.Reviews), res.Next)
	} else {
		checkBook(t, "BookPage quiet book", &res.Books[0], quietBook)
	}

	// A missing book: an empty page, not an error.
	res, err = s.BookPage(ctx, "978-9999999999", bookreviews.Page{})
	if err != nil || len(res.Books)+len(res.Reviews) != 0 {
		t.Errorf("BookPage of a missing book: %+v, %v", res, err)
	}
}

// TestUserReviews reads a user's reviews through GSI1, with and without the
// user, newest first, across books.
func TestUserReviews(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	all := seed(t, s, 50)

	// alice wrote every fifth review of goBook and one of ddiaBook.
	var want []bookreviews.Review
	for _, r := range all {
		if r.Username == "alice" {
			want = append(want, r)
		}
	}
	want = newestFirst(append(want, ddiaReview()))
	if len(want) != 11 {
		t.Fatalf("fixture: alice has %d reviews, want 11", len(want))
	}

	res, err := s.ReviewsOfUser(ctx, "alice", bookreviews.Page{})
	if err != nil {
		t.Fatalf("ReviewsOfUser: %v", err)
	}
	checkReviews(t, "ReviewsOfUser alice", res.Items, want)
	if res.Next != "" {
		t.Errorf("ReviewsOfUser alice: Next = %q, want \"\"", res.Next)
	}
	// Both books are among them.
	isbns := map[string]int{}
	for _, r := range res.Items {
		isbns[r.ISBN]++
	}
	if isbns[goBook.ISBN] != 10 || isbns[ddiaBook.ISBN] != 1 {
		t.Errorf("ReviewsOfUser alice: books %v, want 10 of %s and 1 of %s", isbns, goBook.ISBN, ddiaBook.ISBN)
	}

	// Page by page (3 a page) with the cursor, then with the iterator.
	var got []bookreviews.Review
	page := bookreviews.Page{Limit: 3}
	for {
		r, err := s.ReviewsOfUser(ctx, "alice", page)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Items) > 3 {
			t.Errorf("ReviewsOfUser with Limit 3: %d items", len(r.Items))
		}
		got = append(got, r.Items...)
		if r.Next == "" {
			break
		}
		page.Cursor = r.Next
	}
	checkReviews(t, "ReviewsOfUser pages of 3", got, want)
	got = nil
	for r, err := range s.ReviewsOfUserAll(ctx, "alice") {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, r)
	}
	checkReviews(t, "ReviewsOfUserAll", got, want)

	// The user page: the user first, then the reviews, newest first.
	up, err := s.UserPage(ctx, "alice", bookreviews.Page{})
	if err != nil {
		t.Fatalf("UserPage: %v", err)
	}
	if len(up.Users) != 1 {
		t.Fatalf("UserPage: %d users, want 1", len(up.Users))
	}
	checkUser(t, "UserPage user", &up.Users[0], bookreviews.User{Username: "alice", MembershipDate: time.Date(2020, 1, 15, 12, 0, 0, 0, time.UTC), Email: "alice@example.com"})
	checkReviews(t, "UserPage reviews", up.Reviews, want)

	// The same page by page, the user on the first page only.
	var users []bookreviews.User
	got = nil
	first := true
	for p, err := range s.UserPageAll(ctx, "alice") {
		if err != nil {
			t.Fatal(err)
		}
		if !first && len(p.Users) != 0 {
			t.Errorf("UserPageAll: the user on a later page")
		}
		first = false
		users = append(users, p.Users...)
		got = append(got, p.Reviews...)
	}
	if len(users) != 1 {
		t.Errorf("UserPageAll: %d users, want 1", len(users))
	}
	checkReviews(t, "UserPageAll reviews", got, want)

	// Small pages: the user is the first item of the first page.
	p1, err := s.UserPage(ctx, "alice", bookreviews.Page{Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(p1.Users) != 1 || len(p1.Reviews) != 0 || p1.Next == "" {
		t.Errorf("UserPage with Limit 1: %d users, %d reviews, Next %q; want the user alone and a next page", len(p1.Users), len(p1.Reviews), p1.Next)
	}

	// A user without reviews, and one who does not exist.
	frank := bookreviews.User{Username: "frank", MembershipDate: time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC), Email: "frank@example.com"}
	if err := s.AddUser(ctx, &frank); err != nil {
		t.Fatal(err)
	}
	if r, err := s.ReviewsOfUser(ctx, "frank", bookreviews.Page{}); err != nil || len(r.Items) != 0 {
		t.Errorf("ReviewsOfUser of a user without reviews: %+v, %v", r, err)
	}
	if r, err := s.UserPage(ctx, "frank", bookreviews.Page{}); err != nil || len(r.Users) != 1 || len(r.Reviews) != 0 {
		t.Errorf("UserPage of a user without reviews: %+v, %v", r, err)
	} else {
		checkUser(t, "UserPage frank", &r.Users[0], frank)
	}
	if r, err := s.UserPage(ctx, "nobody", bookreviews.Page{}); err != nil || len(r.Users)+len(r.Reviews) != 0 {
		t.Errorf("UserPage of a missing user: %+v, %v", r, err)
	}
}

// TestWriteUpdateDeleteReview writes a review, updates it, and deletes it,
// checking both item collections (the book's and the user's) each time.
func TestWriteUpdateDeleteReview(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	seed(t, s, 4) // alice, bob, carol, dave reviewed goBook

	// A review in a non-UTC zone: it is stored, and read back, as the same instant.
	paris := time.FixedZone("CET", 3600)
	r := bookreviews.Review{
		ISBN:       ddiaBook.ISBN,
		Username:   "erin",
		Grade:      7,
		ReviewText: "Dense but rewarding.",
		ReviewDate: time.Date(2024, 2, 29, 23, 30, 0, 500, paris),
	}
	if err := writeReview(t, s, r); err != nil {
		t.Fatalf("WriteReview: %v", err)
	}
	if n := bookCount(t, s, ddiaBook.ISBN); n != 2 {
		t.Errorf("ddiaBook counts %d reviews after WriteReview, want 2", n)
	}
	// Writing the same review again (same book, date and user) is refused
	// at step 1 (create Review), and counts nothing.
	dup := r
	dup.ReviewText = "overwritten?"
	stepFailed(t, "WriteReview of an existing review", writeReview(t, s, dup), 1, bookreviews.ErrAlreadyExists, true)
	// Constraints of the spec: a grade is 0 to 10, refused before the call.
	bad := r
	bad.ReviewDate = bad.ReviewDate.Add(time.Hour)
	bad.Grade = 11
	stepFailed(t, "WriteReview with grade 11", writeReview(t, s, bad), 1, bookreviews.ErrInvalidItem, false)
	// A review of a book that does not exist: the update of step 2 finds
	// no book, and the review of step 1 is not written either.
	ghost := r
	ghost.ISBN = "978-9999999999"
	stepFailed(t, "WriteReview of a missing book", writeReview(t, s, ghost), 2, bookreviews.ErrNotFound, true)
	if res, err := s.BookPage(ctx, ghost.ISBN, bookreviews.Page{}); err != nil || len(res.Books)+len(res.Reviews) != 0 {
		t.Errorf("BookPage of a missing book after a refused review: %+v, %v", res, err)
	}
	if n := bookCount(t, s, ddiaBook.ISBN); n != 2 {
		t.Errorf("ddiaBook counts %d reviews after the refused reviews, want 2", n)
	}

	// The review is in the book's collection (after alice's older one)...
	byBook, err := s.ReviewsOfBook(ctx, ddiaBook.ISBN, bookreviews.Page{})
	if err != nil {
		t.Fatal(err)
	}
	checkReviews(t, "ReviewsOfBook after WriteReview", byBook.Items, []bookreviews.Review{r, ddiaReview()})
	// ... and in the user's, through GSI1.
	byUser, err := s.ReviewsOfUser(ctx, "erin", bookreviews.Page{})
	if err != nil {
		t.Fatal(err)
	}
	checkReviews(t, "ReviewsOfUser after WriteReview", byUser.Items, []bookreviews.Review{r})

	// Update the grade and the text; the result is the item after the change.
	updated, err := s.UpdateReview(ctx, bookreviews.UpdateReviewParams{ISBN: r.ISBN, ReviewDate: r.ReviewDate, Username: r.Username, Grade: 9, ReviewText: "Dense but rewarding; better on a second read."})
	if err != nil {
		t.Fatalf("UpdateReview: %v", err)
	}
	want := r
	want.Grade = 9
	want.ReviewText = "Dense but rewarding; better on a second read."
	checkReview(t, "UpdateReview result", *updated, want)

	// The update shows in both collections.
	byBook, err = s.ReviewsOfBook(ctx, ddiaBook.ISBN, bookreviews.Page{})
	if err != nil {
		t.Fatal(err)
	}
	checkReviews(t, "ReviewsOfBook after UpdateReview", byBook.Items, []bookreviews.Review{want, ddiaReview()})
	up, err := s.UserPage(ctx, "erin", bookreviews.Page{})
	if err != nil {
		t.Fatal(err)
	}
	checkReviews(t, "UserPage after UpdateReview", up.Reviews, []bookreviews.Review{want})

	// The same instant in UTC names the same review.
	if _, err := s.UpdateReview(ctx, bookreviews.UpdateReviewParams{ISBN: r.ISBN, ReviewDate: r.ReviewDate.UTC(), Username: r.Username, Grade: 8, ReviewText: "UTC"}); err != nil {
		t.Errorf("UpdateReview with the date in UTC: %v", err)
	}
	// Updating a review that does not exist: ErrNotFound, and nothing is created.
	if _, err := s.UpdateReview(ctx, bookreviews.UpdateReviewParams{ISBN: r.ISBN, ReviewDate: r.ReviewDate.Add(time.Second), Username: r.Username, Grade: 5, ReviewText: "ghost"}); !errors.Is(err, bookreviews.ErrNotFound) {
		t.Errorf("UpdateReview of a missing review: %v, want ErrNotFound", err)
	}
	if _, err := s.UpdateReview(ctx, bookreviews.UpdateReviewParams{ISBN: r.ISBN, ReviewDate: r.ReviewDate, Username: r.Username, Grade: -1, ReviewText: "negative"}); !errors.Is(err, bookreviews.ErrInvalidItem) {
		t.Errorf("UpdateReview with grade -1: %v, want ErrInvalidItem", err)
	}
	byBook, err = s.ReviewsOfBook(ctx, ddiaBook.ISBN, bookreviews.Page{})
	if err != nil {
		t.Fatal(err)
	}
	if len(byBook.Items) != 2 {
		t.Errorf("ReviewsOfBook after the refused updates: %d reviews, want 2", len(byBook.Items))
	}

	// Delete it: gone from both collections, and from the count. Deleting
	// it again fails at step 1 (its condition: the review exists) and
	// counts nothing.
	del := bookreviews.DeleteReviewParams{ISBN: r.ISBN, ReviewDate: r.ReviewDate, Username: r.Username}
	if err := s.DeleteReview(ctx, del); err != nil {
		t.Fatalf("DeleteReview: %v", err)
	}
	stepFailed(t, "DeleteReview of a deleted review", s.DeleteReview(ctx, del), 1, bookreviews.ErrConditionFailed, true)
	if n := bookCount(t, s, ddiaBook.ISBN); n != 1 {
		t.Errorf("ddiaBook counts %d reviews after DeleteReview, want 1", n)
	}
	byBook, err = s.ReviewsOfBook(ctx, ddiaBook.ISBN, bookreviews.Page{})
	if err != nil {
		t.Fatal(err)
	}
	checkReviews(t, "ReviewsOfBook after DeleteReview", byBook.Items, []bookreviews.Review{ddiaReview()})
	byUser, err = s.ReviewsOfUser(ctx, "erin", bookreviews.Page{})
	if err != nil {
		t.Fatal(err)
	}
	checkReviews(t, "ReviewsOfUser after DeleteReview", byUser.Items, nil)
	// The book is as it was, alice's review counted.
	b, err := s.GetBook(ctx, ddiaBook.ISBN)
	if err != nil {
		t.Fatal(err)
	}
	checkBook(t, "GetBook after the review's life", b, counting(ddiaBook, 1))
}

// TestBookNeverAReview pins the note of MODELS.md: a review's sort key starts
// with a date, not a prefix, so a Review-only query of the book's partition
// must still never return the book, even with reviews dated at the very ends
// of the years a key can hold.
func TestBookNeverAReview(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	if err := s.AddBook(ctx, &goBook); err != nil {
		t.Fatal(err)
	}
	edges := []bookreviews.Review{
		{ISBN: goBook.ISBN, Username: "first", Grade: 1, ReviewText: "at the dawn of time", ReviewDate: time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC)},
		{ISBN: goBook.ISBN, Username: "last", Grade: 2, ReviewText: "at the end of time", ReviewDate: time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC)},
	}
	for i := range edges {
		if err := writeReview(t, s, edges[i]); err != nil {
			t.Fatalf("WriteReview %s: %v", edges[i].Username, err)
		}
	}
	for _, limit := range []int{0, 1, 2, 3} {
		var got []bookreviews.Review
		page := bookreviews.Page{Limit: limit}
		for {
			res, err := s.ReviewsOfBook(ctx, goBook.ISBN, page)
			if err != nil {
				t.Fatalf("ReviewsOfBook (limit %d): %v", limit, err)
			}
			got = append(got, res.Items...)
			if res.Next == "" {
				break
			}
			page.Cursor = res.Next
		}
		checkReviews(t, fmt.Sprintf("ReviewsOfBook (limit %d)", limit), got, []bookreviews.Review{edges[1], edges[0]})
	}
	// The book page, by contrast, holds both, the book first.
	res, err := s.BookPage(ctx, goBook.ISBN, bookreviews.Page{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Books) != 1 {
		t.Errorf("BookPage: %d books, want 1", len(res.Books))
	}
	checkReviews(t, "BookPage reviews", res.Reviews, []bookreviews.Review{edges[1], edges[0]})
	// A date outside the years 0000-9999 can't be written.
	far := bookreviews.Review{ISBN: goBook.ISBN, Username: "far", Grade: 3, ReviewText: "x", ReviewDate: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)}
	if err := writeReview(t, s, far); err == nil {
		t.Error("WriteReview of a review dated 10000: no error")
	}
}

// TestUniqueEmail: no two users share an email. AddUser writes the user
// and the email's claim in one transaction, so a taken email fails at the
// claim (step 2) and writes no user; ChangeEmail moves the claim, and the
// old email is free again; UserByEmail reads the claim, then its user.
func TestUniqueEmail(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	day := time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)
	ann := bookreviews.User{Username: "ann", MembershipDate: day, Email: "ann@example.com"}
	if err := s.AddUser(ctx, &ann); err != nil {
		t.Fatalf("AddUser ann: %v", err)
	}
	got, err := s.UserByEmail(ctx, "ann@example.com")
	if err != nil {
		t.Fatalf("UserByEmail: %v", err)
	}
	checkUser(t, "UserByEmail ann", got, ann)
	if _, err := s.UserByEmail(ctx, "nobody@example.com"); !errors.Is(err, bookreviews.ErrNotFound) {
		t.Errorf("UserByEmail of an email no one holds: %v, want ErrNotFound", err)
	}

	// Another user can't take ann's email: the claim of step 2 fails, and
	// the user of step 1 is not written.
	bob := bookreviews.User{Username: "bob", MembershipDate: day, Email: "ann@example.com"}
	err = s.AddUser(ctx, &bob)
	var te *bookreviews.TransactionError
	if !errors.Is(err, bookreviews.ErrAlreadyExists) || !errors.As(err, &te) || te.Step != 2 || te.Action != "claim User.email" {
		t.Errorf("AddUser with a taken email: %v (%+v), want ErrAlreadyExists at step 2, the claim", err, te)
	}
	if _, err := s.GetUser(ctx, "bob"); !errors.Is(err, bookreviews.ErrNotFound) {
		t.Errorf("bob was written without his email's claim: %v", err)
	}

	// ann moves to a new email; the old one is then free for bob.
	if err := s.ChangeEmail(ctx, bookreviews.ChangeEmailParams{Username: "ann", Email: "ann@example.org"}); err != nil {
		t.Fatalf("ChangeEmail: %v", err)
	}
	if got, err := s.UserByEmail(ctx, "ann@example.org"); err != nil || got.Username != "ann" {
		t.Errorf("UserByEmail of the new email: %+v, %v", got, err)
	}
	if _, err := s.UserByEmail(ctx, "ann@example.com"); !errors.Is(err, bookreviews.ErrNotFound) {
		t.Errorf("UserByEmail of the released email: %v, want ErrNotFound", err)
	}
	if err := s.AddUser(ctx, &bob); err != nil {
		t.Fatalf("AddUser bob with the released email: %v", err)
	}
	// Moving to an email another user holds changes nothing.
	if err := s.ChangeEmail(ctx, bookreviews.ChangeEmailParams{Username: "ann", Email: "ann@example.com"}); !errors.Is(err, bookreviews.ErrAlreadyExists) {
		t.Errorf("ChangeEmail to bob's email: %v, want ErrAlreadyExists", err)
	}
	if got, err := s.GetUser(ctx, "ann"); err != nil || got.Email != "ann@example.org" {
		t.Errorf("ann after a refused change: %+v, %v", got, err)
	}
}

// TestUniqueEmailAnyCase: an email's case does not make it another
// address. The claim holds the email lower-cased and the user keeps what
// they typed: a sign-in by the email in any case finds the user, another
// user can't take it in another case (of 16 concurrent sign-ups with one
// address in 16 cases, exactly one wins), and changing only its case
// rewrites the user's text but moves no claim.
func TestUniqueEmailAnyCase(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	day := time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)
	ann := bookreviews.User{Username: "ann", MembershipDate: day, Email: "Ann@Example.com"}
	if err := s.AddUser(ctx, &ann); err != nil {
		t.Fatalf("AddUser ann: %v", err)
	}
	got, err := s.UserByEmail(ctx, "ANN@example.COM")
	if err != nil {
		t.Fatalf("UserByEmail in another case: %v", err)
	}
	checkUser(t, "UserByEmail ann", got, ann)

	bob := bookreviews.User{Username: "bob", MembershipDate: day, Email: "ann@example.com"}
	err = s.AddUser(ctx, &bob)
	var te *bookreviews.TransactionError
	if !errors.Is(err, bookreviews.ErrAlreadyExists) || !errors.As(err, &te) || te.Step != 2 || te.Action != "claim User.email" {
		t.Errorf("AddUser with ann's email lower-cased: %v (%+v), want ErrAlreadyExists at step 2, the claim", err, te)
	}
	if _, err := s.GetUser(ctx, "bob"); !errors.Is(err, bookreviews.ErrNotFound) {
		t.Errorf("bob was written without his email's claim: %v", err)
	}

	// Only the case changes: the user holds the new text, the claim stays
	// (still ann's, still refusing bob in any case).
	if err := s.ChangeEmail(ctx, bookreviews.ChangeEmailParams{Username: "ann", Email: "ann@example.com"}); err != nil {
		t.Fatalf("ChangeEmail to the same address lower-cased: %v", err)
	}
	if got, err := s.GetUser(ctx, "ann"); err != nil || got.Email != "ann@example.com" {
		t.Errorf("ann after changing her email's case: %+v, %v", got, err)
	}
	if got, err := s.UserByEmail(ctx, "Ann@Example.com"); err != nil || got.Username != "ann" || got.Email != "ann@example.com" {
		t.Errorf("UserByEmail after changing its case: %+v, %v", got, err)
	}
	bob.Email = "ANN@EXAMPLE.COM"
	if err := s.AddUser(ctx, &bob); !errors.Is(err, bookreviews.ErrAlreadyExists) {
		t.Errorf("AddUser with ann's email upper-cased: %v, want ErrAlreadyExists", err)
	}

	// 16 sign-ups race for one new address, each in its own case.
	const n = 16
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			email := []byte("race@example.com")
			for b := range 4 {
				if i>>b&1 != 0 {
					email[b] -= 'a' - 'A'
				}
			}
			u := bookreviews.User{Username: fmt.Sprintf("racer%02d", i), MembershipDate: day, Email: string(email)}
			errs[i] = s.AddUser(ctx, &u)
		})
	}
	wg.Wait()
	winner := -1
	for i, err := range errs {
		switch {
		case err == nil && winner >= 0:
			t.Errorf("racers %d and %d both hold the address", winner, i)
		case err == nil:
			winner = i
		case !errors.Is(err, bookreviews.ErrAlreadyExists):
			t.Errorf("racer %d: %v, want ErrAlreadyExists", i, err)
		}
	}
	if winner < 0 {
		t.Fatal("no racer got the address")
	}
	got, err = s.UserByEmail(ctx, "race@example.com")
	if err != nil || got.Username != fmt.Sprintf("racer%02d", winner) {
		t.Errorf("UserByEmail of the raced address: %+v, %v, want racer %d", got, err, winner)
	}
	for i := range n {
		if _, err := s.GetUser(ctx, fmt.Sprintf("racer%02d", i)); (err == nil) != (i == winner) {
			t.Errorf("GetUser racer %d: %v (winner %d)", i, err, winner)
		}
	}
}

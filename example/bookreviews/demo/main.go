// Command demo runs every access pattern of the bookreviews model against a
// DynamoDB server (DynamoDB Local) and prints what each returns.
//
//	DYNAMODB_ENDPOINT=http://127.0.0.1:8000 go run ./example/bookreviews/demo
//
// It creates the model's table under a unique name and deletes it at the end.
package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/dyngen/dyngen/example/bookreviews"
)

func main() {
	endpoint := os.Getenv("DYNAMODB_ENDPOINT")
	if endpoint == "" {
		fmt.Fprintln(os.Stderr, "demo: DYNAMODB_ENDPOINT is not set; point it at DynamoDB Local, e.g.\n"+
			"  scripts/dynamodb-local run go run ./example/bookreviews/demo")
		os.Exit(2)
	}
	client := dynamodb.New(dynamodb.Options{
		Region:       "us-east-1",
		BaseEndpoint: aws.String(endpoint),
		// DynamoDB Local checks no signature: dummy credentials do.
		Credentials: credentials.NewStaticCredentialsProvider("demo", "demo", ""),
		// DynamoDB Local's responses make the CRC32 check warn.
		DisableValidateResponseChecksum: true,
	})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := run(ctx, client, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "demo:", err)
		os.Exit(1)
	}
}

// run creates the tables, runs every pattern on a little data, prints what
// each returns to out, and deletes the tables.
func run(ctx context.Context, client *dynamodb.Client, out io.Writer) (err error) {
	var b [4]byte
	if _, err := rand.Read(b[:]); err != nil {
		return err
	}
	suffix := hex.EncodeToString(b[:])
	s := bookreviews.New(client, bookreviews.WithBookReviewsTable("BookReviews-demo-"+suffix))
	for _, table := range s.Tables() {
		name, cerr := createTable(ctx, client, table)
		if name != "" {
			defer func() { err = errors.Join(err, deleteTable(client, name)) }()
		}
		if cerr != nil {
			return cerr
		}
		fmt.Fprintf(out, "created table %s\n", name)
	}
	return demo(ctx, s, out)
}

func demo(ctx context.Context, s *bookreviews.Store, out io.Writer) error {
	p := func(format string, args ...any) { fmt.Fprintf(out, format+"\n", args...) }
	section := func(pattern, what string) { p("\n== %s: %s", pattern, what) }

	book := bookreviews.Book{ISBN: "978-0134190440", Title: "The Go Programming Language", Author: "Alan A. A. Donovan, Brian W. Kernighan", PublicationYear: new(int64(2015))}
	section("AddBook", "a book")
	if err := s.AddBook(ctx, &book); err != nil {
		return err
	}
	p("added %s", fmtBook(book))
	err := s.AddBook(ctx, &book)
	p("adding it again: %s", sentinel(err))

	section("AddUser", "three users, each with an email no other user holds")
	for i, name := range []string{"alice", "bob", "carol"} {
		u := bookreviews.User{Username: name, MembershipDate: time.Date(2021, time.Month(3*i+1), 1, 0, 0, 0, 0, time.UTC), Email: name + "@example.com"}
		if err := s.AddUser(ctx, &u); err != nil {
			return err
		}
		p("added user %s <%s>, member since %s", u.Username, u.Email, u.MembershipDate.Format(time.DateOnly))
	}
	err = s.AddUser(ctx, &bookreviews.User{Username: "mallory", MembershipDate: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC), Email: "alice@example.com"})
	p("a user with alice's email: %s", sentinel(err))

	section("UserByEmail", "who is bob@example.com (GetItem of the email's claim, then of its user)")
	holder, err := s.UserByEmail(ctx, "bob@example.com")
	if err != nil {
		return err
	}
	p("bob@example.com is %s", holder.Username)

	section("ChangeEmail", "carol moves to a new email; the old one is free again")
	if err := s.ChangeEmail(ctx, bookreviews.ChangeEmailParams{Username: "carol", Email: "carol@example.org"}); err != nil {
		return err
	}
	_, err = s.UserByEmail(ctx, "carol@example.com")
	p("carol@example.com now: %s", sentinel(err))

	section("WriteReview", "five reviews of the book, a day apart; the book counts each, in the same transaction")
	day := time.Date(2024, 5, 1, 18, 0, 0, 0, time.UTC)
	texts := []string{"Clear and precise.", "The concurrency chapters shine.", "A classic.", "Exercises are great.", "Still the best intro."}
	var reviews []bookreviews.Review
	for i, text := range texts {
		r := bookreviews.Review{ISBN: book.ISBN, Username: []string{"alice", "bob", "carol"}[i%3], Grade: int64(6 + i), ReviewText: text, ReviewDate: day.AddDate(0, 0, i)}
		if err := s.WriteReview(ctx, bookreviews.WriteReviewParams{Review: &r}); err != nil {
			return err
		}
		reviews = append(reviews, r)
		p("wrote %s", fmtReview(r))
	}
	err = s.WriteReview(ctx, bookreviews.WriteReviewParams{Review: &reviews[0]})
	p("writing the first again: %s", sentinel(err))
	orphan := reviews[0]
	orphan.ISBN = "978-0000000000"
	err = s.WriteReview(ctx, bookreviews.WriteReviewParams{Review: &orphan})
	p("a review of a missing book: %s", sentinel(err))

	section("GetBook", book.ISBN)
	b, err := s.GetBook(ctx, book.ISBN)
	if err != nil {
		return err
	}
	p("%s", fmtBook(*b))
	_, err = s.GetBook(ctx, "978-0000000000")
	p("a missing book: %s", sentinel(err))

	section("GetUser", "bob")
	u, err := s.GetUser(ctx, "bob")
	if err != nil {
		return err
	}
	p("user %s, member since %s", u.Username, u.MembershipDate.Format(time.DateOnly))

	section("BookPage", "the book and its reviews, newest first, 3 items a page")
	pageNo := 0
	page := bookreviews.Page{Limit: 3}
	for {
		res, err := s.BookPage(ctx, book.ISBN, page)
		if err != nil {
			return err
		}
		pageNo++
		if len(res.Books)+len(res.Reviews) == 0 {
			// DynamoDB can't tell that a full page was the last one.
			p("page %d: empty, the end", pageNo)
		} else {
			p("page %d:", pageNo)
		}
		for _, b := range res.Books {
			p("  book   %s", fmtBook(b))
		}
		for _, r := range res.Reviews {
			p("  review %s", fmtReview(r))
		}
		if res.Next == "" {
			break
		}
		page.Cursor = res.Next
	}

	section("ReviewsOfBook", "every review of the book, newest first (the book is never among them)")
	for r, err := range s.ReviewsOfBookAll(ctx, book.ISBN) {
		if err != nil {
			return err
		}
		p("  %s", fmtReview(r))
	}

	section("UserPage", "alice and her reviews, newest first (GSI1)")
	up, err := s.UserPage(ctx, "alice", bookreviews.Page{})
	if err != nil {
		return err
	}
	for _, u := range up.Users {
		p("  user   %s", u.Username)
	}
	for _, r := range up.Reviews {
		p("  review %s", fmtReview(r))
	}

	section("ReviewsOfUser", "bob's reviews, newest first (GSI1)")
	ru, err := s.ReviewsOfUser(ctx, "bob", bookreviews.Page{})
	if err != nil {
		return err
	}
	for _, r := range ru.Items {
		p("  %s", fmtReview(r))
	}

	first := reviews[0]
	section("UpdateReview", "alice changes her first review")
	upd, err := s.UpdateReview(ctx, bookreviews.UpdateReviewParams{ISBN: first.ISBN, ReviewDate: first.ReviewDate, Username: first.Username, Grade: 10, ReviewText: "Clear and precise; I reread it every year."})
	if err != nil {
		return err
	}
	p("now %s", fmtReview(*upd))
	_, err = s.UpdateReview(ctx, bookreviews.UpdateReviewParams{ISBN: first.ISBN, ReviewDate: first.ReviewDate.Add(time.Minute), Username: first.Username, Grade: 1, ReviewText: "no such review"})
	p("updating a missing review: %s", sentinel(err))

	section("DeleteReview", "bob deletes his review; the book counts one review less")
	second := reviews[1]
	del := bookreviews.DeleteReviewParams{ISBN: second.ISBN, ReviewDate: second.ReviewDate, Username: second.Username}
	if err := s.DeleteReview(ctx, del); err != nil {
		return err
	}
	left := 0
	for _, err := range s.ReviewsOfBookAll(ctx, book.ISBN) {
		if err != nil {
			return err
		}
		left++
	}
	p("deleted %s; the book has %d reviews left", fmtReview(second), left)
	err = s.DeleteReview(ctx, del)
	p("deleting it again: %s", sentinel(err))
	b, err = s.GetBook(ctx, book.ISBN)
	if err != nil {
		return err
	}
	p("%s", fmtBook(*b))
	return nil
}

// sentinel names the step of a transaction that failed, and the error
// sentinel of the package that err wraps.
func sentinel(err error) string {
	var te *bookreviews.TransactionError
	if errors.As(err, &te) {
		return fmt.Sprintf("step %d (%s): %s", te.Step, te.Action, sentinel(te.Err))
	}
	for _, e := range []struct {
		name string
		err  error
	}{
		{"ErrNotFound", bookreviews.ErrNotFound},
		{"ErrAlreadyExists", bookreviews.ErrAlreadyExists},
		{"ErrConditionFailed", bookreviews.ErrConditionFailed},
		{"ErrInvalidKey", bookreviews.ErrInvalidKey},
		{"ErrInvalidItem", bookreviews.ErrInvalidItem},
		{"ErrInvalidCursor", bookreviews.ErrInvalidCursor},
	} {
		if errors.Is(err, e.err) {
			return "error " + e.name
		}
	}
	if err == nil {
		return "no error"
	}
	return "error: " + err.Error()
}

func fmtBook(b bookreviews.Book) string {
	s := fmt.Sprintf("%s %q by %s", b.ISBN, b.Title, b.Author)
	if b.PublicationYear != nil {
		s += fmt.Sprintf(" (%d)", *b.PublicationYear)
	}
	return s + fmt.Sprintf(", %d reviews", b.ReviewCount)
}

func fmtReview(r bookreviews.Review) string {
	return fmt.Sprintf("%s %-6s on %s: %2d/10 %q", r.ReviewDate.Format(time.DateTime), r.Username, r.ISBN, r.Grade, r.ReviewText)
}

// createTable creates a table of the Store under the name the Store gave
// it, waits until it is active and turns its time to live on, if the spec
// names an attribute for it. It returns the name even when the wait
// fails, so that the caller can delete the table.
func createTable(ctx context.Context, c *dynamodb.Client, table bookreviews.Table) (string, error) {
	name := aws.ToString(table.Create.TableName)
	if _, err := c.CreateTable(ctx, table.Create); err != nil {
		return "", fmt.Errorf("create table %s: %w", name, err)
	}
	w := dynamodb.NewTableExistsWaiter(c, func(o *dynamodb.TableExistsWaiterOptions) {
		o.MinDelay = 50 * time.Millisecond
		o.MaxDelay = time.Second
	})
	if err := w.Wait(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)}, time.Minute); err != nil {
		return name, fmt.Errorf("wait for table %s: %w", name, err)
	}
	if table.TimeToLive != nil {
		if _, err := c.UpdateTimeToLive(ctx, table.TimeToLive); err != nil {
			return name, fmt.Errorf("turn time to live on for table %s: %w", name, err)
		}
	}
	return name, nil
}

// deleteTable deletes a table the demo created, even when ctx has ended.
func deleteTable(c *dynamodb.Client, name string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(name)}); err != nil {
		return fmt.Errorf("delete table %s: %w", name, err)
	}
	return nil
}

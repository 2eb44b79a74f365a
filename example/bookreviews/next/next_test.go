package bookreviews_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	old "github.com/dyngen/dyngen/example/bookreviews"
	"github.com/dyngen/dyngen/example/bookreviews/next"
	dyngen "github.com/dyngen/dyngen/generator/runtime"
	"github.com/dyngen/dyngen/internal/dynamotest"
	"github.com/dyngen/dyngen/internal/iamcheck"
)

// TestNextChange runs the change as it would be deployed: the reviews
// are written by the example's package as it is (the code before the
// change, which knows no ByGrade); the new package's tables are the same
// tables with the index added; its query of the index finds only the
// reviews written since, until the backfill has run; then it finds them
// all, and a verify writes the receipt that records it done.
func TestNextChange(t *testing.T) {
	ctx := context.Background()
	c := dynamotest.Client(t)
	name := dynamotest.TableName("BookReviews")
	chk := iamcheck.New(t, "iam-policy.json", c)
	store := bookreviews.New(chk, bookreviews.WithBookReviewsTable(name))
	for _, table := range store.Tables() {
		chk.Add(table.Name, table.Create)
		dynamotest.MakeTable(t, c, table.Create, table.TimeToLive)
	}
	// The code before the change, over the same table.
	oldChk := iamcheck.New(t, "../iam-policy.json", c)
	before := old.New(oldChk, old.WithBookReviewsTable(name))
	for _, table := range before.Tables() {
		oldChk.Add(table.Name, table.Create)
	}
	const isbn = "978-0134190440"
	if err := before.AddBook(ctx, &old.Book{ISBN: isbn, Title: "The Go Programming Language", Author: "Alan A. A. Donovan, Brian W. Kernighan"}); err != nil {
		t.Fatal(err)
	}
	day := time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC)
	for i := range 12 {
		r := &old.Review{ISBN: isbn, Username: fmt.Sprintf("reader%02d", i), Grade: int64(i % 3 * 5), ReviewText: "review " + fmt.Sprint(i), ReviewDate: day.Add(time.Duration(i) * time.Hour)}
		if err := before.WriteReview(ctx, old.WriteReviewParams{Review: r}); err != nil {
			t.Fatal(err)
		}
	}
	// The new code writes one review of grade 5 after the change.
	if err := store.WriteReview(ctx, bookreviews.WriteReviewParams{Review: &bookreviews.Review{ISBN: isbn, Username: "newreader", Grade: 5, ReviewText: "after", ReviewDate: day.Add(100 * time.Hour)}}); err != nil {
		t.Fatal(err)
	}
	fives := func() []string {
		t.Helper()
		var out []string
		for r, err := range store.ReviewsOfBookByGradeAll(ctx, bookreviews.ReviewsOfBookByGradeParams{ISBN: isbn, Grade: 5}) {
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, r.Username)
		}
		return out
	}
	if got := fives(); strings.Join(got, " ") != "newreader" {
		t.Fatalf("grade 5 before the backfill: %v, want only the review written since the change", got)
	}

	// The backfill, as its command line runs it.
	bf := iamcheck.New(t, "backfill-iam-policy.json", c)
	for _, table := range store.Tables() {
		bf.Add(table.Name, table.Create)
	}
	t.Setenv("DYNGEN_TABLE_BookReviews", name)
	run := func(args ...string) string {
		t.Helper()
		stdout, stderr := os.Stdout, os.Stderr
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		done := make(chan struct{})
		go func() {
			out.ReadFrom(r)
			close(done)
		}()
		os.Stdout, os.Stderr = w, w
		code := bookreviews.BackfillMain(ctx, bf, args)
		os.Stdout, os.Stderr = stdout, stderr
		w.Close()
		<-done
		t.Logf("backfill %s: exit %d\n%s", strings.Join(args, " "), code, out.String())
		if code != 0 {
			t.Fatalf("backfill %s: exit %d", strings.Join(args, " "), code)
		}
		return out.String()
	}
	if out := run("-quiet"); !strings.Contains(out, "Review.ByGrade: dry run: 13 items: 12 would be written, 1 hold it already") {
		t.Errorf("the dry run:\n%s", out)
	}
	if out := run("-write", "-segments", "4", "-quiet"); !strings.Contains(out, "Review.ByGrade: 13 items: 12 written, 1 held it already") {
		t.Errorf("the run:\n%s", out)
	}
	receipt := filepath.Join(t.TempDir(), "receipt.json")
	if out := run("-verify", "-segments", "2", "-receipt", receipt, "Review.ByGrade"); !strings.Contains(out, "verified 13 items: 0 lacking, 0 unreadable") {
		t.Errorf("the verify:\n%s", out)
	}
	if got := fives(); strings.Join(got, " ") != "newreader reader10 reader07 reader04 reader01" {
		t.Errorf("grade 5 after the backfill: %v, want the five, newest first", got)
	}
	data, err := os.ReadFile(receipt)
	if err != nil {
		t.Fatal(err)
	}
	var rc dyngen.Receipt
	if err := json.Unmarshal(data, &rc); err != nil || rc.Backfill != "Review.ByGrade" || rc.Checked != 13 {
		t.Errorf("receipt %s: %v", data, err)
	}
}

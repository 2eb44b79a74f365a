package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
)

// BackfillJob is a backfill of a generated package, ready to run: its
// definition, the checkpoints of its table, and the table's physical
// name (the Store's options decide it).
type BackfillJob struct {
	Backfill    *Backfill
	Checkpoints *Checkpoints
	TableName   string
}

// Receipt is what a verify that found every item done writes, for
// dyngen to record the backfill done in the lock (dyngen -receipt).
type Receipt struct {
	Format      int    `json:"dyngenBackfillReceipt"`
	Backfill    string `json:"backfill"`
	Fingerprint string `json:"fingerprint"`
	Table       string `json:"table"`
	Checked     int64  `json:"checked"`
}

// ReceiptFormat is the version of the receipt's format.
const ReceiptFormat = 1

// BackfillMain runs the command line of a backfill program, args without
// the program's name, and returns its exit code: 0 when every backfill
// named ran (or verified), 1 when one failed, found two items holding
// one value made unique, or a verify found items lacking, 2 on a wrong
// command line.
//
//	backfill [-write] [-segments N] [-segment I] [-workers W] [-rate R] [-restart] [ID ...]
//	backfill -verify [-segments N] [-receipt FILE] ID
//	backfill -list
//
// Without IDs it takes every backfill of jobs, in their order. Without
// -write a run is dry: it prints each item it would change.
//
// Run with no argument where Lambda's runtime API is (a function on
// provided.al2023), it serves the invocations of a backfill's state
// machine instead (ServeLambda, RunSegment), until Lambda stops it.
func BackfillMain(ctx context.Context, client BackfillClient, jobs []BackfillJob, args []string, stdout, stderr io.Writer) int {
	if api := os.Getenv(lambdaAPIEnv); api != "" && len(args) == 0 {
		err := ServeLambda(ctx, api, segmentHandler(client, jobs))
		fmt.Fprintln(stderr, err)
		return 1
	}
	fs := flag.NewFlagSet("backfill", flag.ContinueOnError)
	fs.SetOutput(stderr)
	list := fs.Bool("list", false, "list the backfills, and exit")
	write := fs.Bool("write", false, "write the items (without it, a dry run prints what it would write)")
	verify := fs.Bool("verify", false, "read every item, and count those that lack what the backfill writes")
	receipt := fs.String("receipt", "", "with -verify: the file to write the receipt to, when no item lacks anything")
	segments := fs.Int("segments", 1, "the number of segments of the scan (the same in every process of one run)")
	segment := fs.Int("segment", -1, "the one segment this process runs, from 0 (-1: every segment)")
	workers := fs.Int("workers", 0, "the segments this process scans at once (0: all of them)")
	rate := fs.Float64("rate", 0, "the capacity units per second this process may consume (0: no bound)")
	page := fs.Int("page", 0, "the items a page of the scan reads at most (0: DynamoDB's 1 MB pages)")
	quiet := fs.Bool("quiet", false, "print the report only")
	restart := fs.Bool("restart", false, "start every segment from the beginning, whatever its checkpoint says (a run again after a verify found items lacking)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: backfill [flags] [backfill ...]\n\nRuns the backfills of the package, by default every one, dry unless -write.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *list {
		for _, j := range jobs {
			fmt.Fprintf(stdout, "%s\t%s\t%s\n", j.Backfill.ID, j.Backfill.Table, j.Backfill.What)
		}
		return 0
	}
	chosen, err := chooseJobs(jobs, fs.Args())
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	if *receipt != "" && (!*verify || len(chosen) != 1) {
		fmt.Fprintln(stderr, "backfill: -receipt goes with -verify of one backfill")
		return 2
	}
	if *verify && (*segment >= 0 || *write || *restart) {
		fmt.Fprintln(stderr, "backfill: -verify reads every segment, and writes nothing: no -segment, -write or -restart")
		return 2
	}
	if *page < 0 || *page > 1<<30 {
		fmt.Fprintln(stderr, "backfill: -page takes 0 or more items")
		return 2
	}
	o := BackfillOptions{Segments: *segments, Workers: *workers, Write: *write, Rate: *rate, PageSize: int32(*page), Restart: *restart}
	if *segment >= 0 {
		o.Only = []int{*segment}
	}
	if !*quiet {
		o.Log = stderr
	}
	if _, err := o.segmentsOf(); err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	code := 0
	for _, j := range chosen {
		o.TableName = j.TableName
		var rep *BackfillReport
		if *verify {
			rep, err = VerifyBackfill(ctx, client, j.Backfill, o)
		} else {
			rep, err = RunBackfill(ctx, client, j.Backfill, j.Checkpoints, o)
		}
		if rep != nil {
			printReport(stdout, j.Backfill, rep, *verify, *write)
		}
		if err != nil {
			fmt.Fprintln(stderr, err)
			code = 1
			continue
		}
		if *verify && rep.Lacking > 0 || rep.Unreadable > 0 || rep.Conflicts > 0 || rep.LeftOpen > 0 {
			// Two items holding one value made unique, or an item the
			// entity can't read or the function could not compute: the
			// items are the user's to change; the backfill never
			// overwrites.
			code = 1
			continue
		}
		if *verify && *receipt != "" {
			if err := writeReceipt(*receipt, j, rep); err != nil {
				fmt.Fprintln(stderr, err)
				code = 1
			}
		}
	}
	return code
}

func chooseJobs(jobs []BackfillJob, ids []string) ([]BackfillJob, error) {
	if len(ids) == 0 {
		if len(jobs) == 0 {
			return nil, errors.New("backfill: the package has no backfill pending")
		}
		return jobs, nil
	}
	var out []BackfillJob
	for _, id := range ids {
		i := slices.IndexFunc(jobs, func(j BackfillJob) bool { return j.Backfill.ID == id })
		if i < 0 {
			var known []string
			for _, j := range jobs {
				known = append(known, j.Backfill.ID)
			}
			return nil, fmt.Errorf("backfill: no backfill %q (the package has: %s)", id, strings.Join(known, ", "))
		}
		out = append(out, jobs[i])
	}
	return out, nil
}

func printReport(w io.Writer, b *Backfill, r *BackfillReport, verify, write bool) {
	switch {
	case verify:
		fmt.Fprintf(w, "%s: verified %d items: %d lacking, %d unreadable (%.1f capacity units)\n", b.ID, r.Scanned, r.Lacking, r.Unreadable, r.Capacity)
	case write:
		fmt.Fprintf(w, "%s: %d items: %d written, %d held it already, %d read again after a live write, %d gone, %d unreadable%s (%.1f capacity units)\n", b.ID, r.Scanned, r.Written, r.Already, r.Retried, r.Gone, r.Unreadable, conflicts(b, r), r.Capacity)
	default:
		fmt.Fprintf(w, "%s: dry run: %d items: %d would be written, %d hold it already, %d unreadable%s (-write to write)\n", b.ID, r.Scanned, r.Written, r.Already, r.Unreadable, conflicts(b, r))
	}
	if r.Stopped {
		fmt.Fprintf(w, "%s: stopped at its deadline; run again to resume\n", b.ID)
	}
	if r.LeftOpen > 0 {
		fmt.Fprintf(w, "%s: %d segments ended their pass with items left open (by this run or an earlier one of the pass, which listed them): not done; change the items, then run again\n", b.ID, r.LeftOpen)
	}
	for _, p := range r.Problems {
		fmt.Fprintf(w, "  %s\n", p)
	}
}

// conflicts says, for a backfill of claims, how many items' values
// another item's claim holds.
func conflicts(b *Backfill, r *BackfillReport) string {
	if b.Claim == nil && b.Claims == nil {
		return ""
	}
	return fmt.Sprintf(", %d in conflict", r.Conflicts)
}

func writeReceipt(path string, j BackfillJob, r *BackfillReport) error {
	data, err := json.MarshalIndent(Receipt{Format: ReceiptFormat, Backfill: j.Backfill.ID, Fingerprint: j.Backfill.Fingerprint, Table: j.Backfill.Table, Checked: r.Scanned}, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

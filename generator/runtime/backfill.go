package runtime

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// A backfill rewrites the stored items of one entity that a change of
// the design left without what the new code reads (an index's key
// attributes, a version): the only generated code that Scans. The
// generated package declares each backfill its lock holds pending
// (Backfill: the requests its plan decided, and Fill, which computes
// what an item should hold from what it holds); this file runs them.
//
// A run scans the table by segment (a parallel Scan), reads of each item
// of the entity only the attributes the backfill needs, and sends per
// item that lacks what Fill computes one UpdateItem, conditioned on the
// item being as read: a live writer that changed it in between wins, and
// the backfill reads the item again and computes anew. An item that
// holds what Fill computes is not written, so a run is idempotent. After
// each page, the segment's checkpoint (an item of the table under a key
// the generator proved apart from every entity's) records where the
// scan stands: a run killed at any point resumes from the last page it
// recorded, and the items it rewrote since are found as they should be.

// BackfillClient is the part of *dynamodb.Client a backfill calls.
type BackfillClient interface {
	Scan(ctx context.Context, in *dynamodb.ScanInput, optFns ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error)
	GetItem(ctx context.Context, in *dynamodb.GetItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error)
	UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error)
	PutItem(ctx context.Context, in *dynamodb.PutItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error)
	TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, optFns ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error)
}

// Backfill is one backfill as its generated package declares it. Every
// expression, with its placeholders, is the plan's.
type Backfill struct {
	// ID names the backfill (Review.ByGrade), as the lock does;
	// Fingerprint is a digest of what it writes, which a checkpoint and
	// a receipt carry so that neither is taken for another definition's;
	// What says in words what it writes.
	ID, Fingerprint, What string
	// Table is the spec's name of the table, and Key the stored names of
	// its primary key attributes. EntityAttr is the stored name of the
	// attribute that names an item's entity, TypeValue the entity's.
	Table                 string
	Key                   []string
	EntityAttr, TypeValue string
	// Projection is the ProjectionExpression of the scan and of the
	// read again after a live write: the attributes Fill reads and those
	// it writes. Filter is the scan's FilterExpression, which keeps the
	// entity's items. ReadNames are the placeholders of both,
	// ScanValues Filter's.
	Projection, Filter string
	ReadNames          map[string]string
	ScanValues         map[string]types.AttributeValue
	// Set is the UpdateExpression that writes the attributes of Writes,
	// Clear the one that removes them (for an item Fill leaves out);
	// Condition the constant part of the condition (the entity's type),
	// after which Held adds a part per attribute read or written, as the
	// item read holds it (HoldRead). UpdateNames are the placeholders of
	// the update and its condition, WriteValues Condition's values.
	Set, Clear, Condition string
	UpdateNames           map[string]string
	WriteValues           map[string]types.AttributeValue
	Held                  []Held
	Writes                []BackfillWrite
	// Fill returns what the item read (as Projection reads it) should
	// hold: the value of each attribute of Writes by its stored name, or
	// nil when it should hold none of them. An error is an item that
	// can't be read; it is reported, never written.
	Fill func(item map[string]types.AttributeValue) (map[string]types.AttributeValue, error)
	// Compute, set in place of Fill on a backfill of an attribute
	// computed by a function of the user's (backfill: compute), is Fill
	// with the run's context, which it passes to the function. Needs
	// says, when neither is set, which function the program did not give
	// (the package's BackfillFuncs): the backfill then refuses to run.
	Compute func(ctx context.Context, item map[string]types.AttributeValue) (map[string]types.AttributeValue, error)
	Needs   string
	// Claim, set on a backfill of claims (Fill is then nil), returns the
	// claim of the value made unique that the item read holds: its
	// entity's claim item. Per item whose claim is missing, the run
	// writes one TransactWriteItems: a ConditionCheck of the item
	// (Condition and Held, as an update's) and the Put of the claim,
	// conditioned on ClaimCondition (ClaimNames its placeholders): no
	// claim there, or this item's (each attribute of ClaimOwner, the
	// owner's key as the claim holds it, as the claim built holds it). A
	// claim of another item is a conflict: reported, never overwritten.
	Claim func(item map[string]types.AttributeValue) (map[string]types.AttributeValue, error)
	// Claims, set in place of Claim on a backfill of the claims of a set
	// made unique (a claim per element), returns the claims of the
	// elements the item read holds, none for an empty set: the run
	// writes the missing ones in one transaction with the item's
	// ConditionCheck, and reports the item when another item claims one
	// of its elements.
	Claims         func(item map[string]types.AttributeValue) ([]map[string]types.AttributeValue, error)
	ClaimCondition string
	ClaimNames     map[string]string
	ClaimOwner     []BackfillWrite
}

// BackfillWrite is an attribute a backfill writes: its stored name and
// the placeholder of its value in Set.
type BackfillWrite struct{ Stored, Value string }

// Checkpoint is where the scan of one segment of a backfill stands.
type Checkpoint struct {
	Backfill    string
	Fingerprint string
	// Segments is the number of segments of the run (Scan's
	// TotalSegments) and Segment this one's.
	Segments, Segment int
	// After is the key the scan resumes after (EncodeStartKey), "" at
	// the start.
	After string
	// Done is set when the segment's scan has ended.
	Done bool
	// Scanned and Written count the items of the entity read and written
	// so far.
	Scanned, Written int64
	// Open is set once the pass over the segment met an item it left as
	// it is (unreadable, or in conflict): the segment is then not
	// recorded done, and the next run, or the next Lambda invocation,
	// carries it to the pass's end, which starts the segment over.
	Open bool
}

// Checkpoints stores the checkpoints of a table's backfills, items of
// the table (keyed by its key attributes, Backfill.Key): Marshal and
// Unmarshal are the generated code's for its checkpoint entity, whose
// key the generator proved apart from every entity's.
type Checkpoints struct {
	Marshal   func(Checkpoint) (map[string]types.AttributeValue, error)
	Unmarshal func(map[string]types.AttributeValue) (Checkpoint, error)
}

// BackfillOptions are the settings of a run or a verify.
type BackfillOptions struct {
	// TableName is the physical name of the backfill's table.
	TableName string
	// Segments is the number of segments of the scan (1 or more); Only,
	// when not empty, the segments this process runs (another process,
	// or a Lambda invocation, runs the others). With Only empty, the
	// process runs every segment, Workers at a time (Segments when 0).
	Segments int
	Only     []int
	Workers  int
	// Write makes the run write; without it, a run is dry: it reads, and
	// prints each item it would change and how.
	Write bool
	// Rate bounds the capacity units the process consumes per second,
	// read and write together (0: no bound). It is measured from each
	// call's ConsumedCapacity.
	Rate float64
	// Log receives the dry run's items, progress lines and the report;
	// nil writes nothing.
	Log io.Writer
	// Deadline, when set, stops a run at the first page boundary past
	// it (after its first page), its checkpoint recorded: a Lambda
	// invocation returns before its time is up, and the next resumes.
	Deadline time.Time
	// PageSize is the scan's Limit (0: DynamoDB's 1 MB pages).
	PageSize int32
	// Restart makes a run start every segment from the beginning,
	// whatever its checkpoint says (a segment recorded done included),
	// and record anew: a run again after a verify found items lacking.
	Restart bool
	// clock and sleep replace the wall clock in tests of the rate.
	clock func() time.Time
	sleep func(context.Context, time.Duration) error
}

// BackfillReport is what a run or a verify did.
type BackfillReport struct {
	Backfill string
	// Scanned counts the entity's items read; Written those written (a
	// dry run: those it would write); Already those that held what the
	// backfill writes; Retried the writes a live writer's change made
	// the run read again; Gone the items deleted in between; Conflicts,
	// in a backfill of claims, the items whose value another item's
	// claim holds (each listed in Problems).
	Scanned, Written, Already, Retried, Gone, Conflicts int64
	// Lacking counts, in a verify, the items that do not hold what the
	// backfill writes; Unreadable the items Fill could not read (each
	// listed in Problems, by key).
	Lacking, Unreadable int64
	// LeftOpen counts the segments whose pass ended with items left
	// open (in this run or an earlier one of the pass): not done.
	LeftOpen int64
	Problems []string
	// Capacity is the capacity units consumed.
	Capacity float64
	// Stopped is set when a Deadline stopped the run before every
	// segment was done.
	Stopped bool
	mu      sync.Mutex
}

// maxProblems bounds the problems a report lists; the counts go on.
const maxProblems = 20

func (r *BackfillReport) problem(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.Problems) < maxProblems {
		r.Problems = append(r.Problems, fmt.Sprintf(format, args...))
	}
}

func (r *BackfillReport) add(f func(r *BackfillReport)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	f(r)
}

// errOpen is what a backfill's handling of an item returns when it
// leaves the item as it is, unreadable or in conflict: not a failure of
// the run, but its segment is not done.
var errOpen = errors.New(pkgPrefix + "backfill: an item left open")

// ErrBackfillBusy: an item changed under a backfill's write so many
// times in a row that the run gave up on it; run again.
var ErrBackfillBusy = errors.New(pkgPrefix + "backfill: an item kept changing under the write")

// maxBackfillAttempts bounds the writes of one item that a live writer's
// change fails.
const maxBackfillAttempts = 20

// segmentsOf returns the segments a run or verify takes.
func (o *BackfillOptions) segmentsOf() ([]int, error) {
	if o.Segments < 1 || o.Segments > 1000000 {
		return nil, fmt.Errorf("%sbackfill: %d segments; a scan takes 1 to 1000000", pkgPrefix, o.Segments)
	}
	if len(o.Only) == 0 {
		all := make([]int, o.Segments)
		for i := range all {
			all[i] = i
		}
		return all, nil
	}
	for _, s := range o.Only {
		if s < 0 || s >= o.Segments {
			return nil, fmt.Errorf("%sbackfill: segment %d of %d; segments count from 0", pkgPrefix, s, o.Segments)
		}
	}
	return o.Only, nil
}

// RunBackfill runs backfill b over its table's items, in segments, from
// where their checkpoints stand.
func RunBackfill(ctx context.Context, client BackfillClient, b *Backfill, cps *Checkpoints, o BackfillOptions) (*BackfillReport, error) {
	return runSegments(ctx, client, b, cps, o, false)
}

// VerifyBackfill reads every item of backfill b's entity, and counts those
// that do not hold what the backfill writes (Lacking) or can't be read
// (Unreadable): the backfill is done when both are 0. It writes nothing,
// and keeps no checkpoint.
func VerifyBackfill(ctx context.Context, client BackfillClient, b *Backfill, o BackfillOptions) (*BackfillReport, error) {
	o.Write, o.Only = false, nil
	return runSegments(ctx, client, b, nil, o, true)
}

func runSegments(ctx context.Context, client BackfillClient, b *Backfill, cps *Checkpoints, o BackfillOptions, verify bool) (*BackfillReport, error) {
	if b.Fill == nil && b.Compute == nil && b.Claim == nil && b.Claims == nil {
		return nil, fmt.Errorf("%sbackfill %s can't run: %s", pkgPrefix, b.ID, b.Needs)
	}
	segs, err := o.segmentsOf()
	if err != nil {
		return nil, err
	}
	if o.clock == nil {
		o.clock = time.Now
	}
	if o.sleep == nil {
		o.sleep = sleepCtx
	}
	rep := &BackfillReport{Backfill: b.ID}
	lim := &limiter{rate: o.Rate, now: o.clock, sleep: o.sleep}
	workers := o.Workers
	if workers <= 0 || workers > len(segs) {
		workers = len(segs)
	}
	run := &backfillRun{client: client, b: b, cps: cps, o: &o, rep: rep, lim: lim, verify: verify}
	next := make(chan int)
	errs := make([]error, len(segs))
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := range next {
				errs[i] = run.segment(ctx, segs[i])
			}
		})
	}
	for i := range segs {
		next <- i
	}
	close(next)
	wg.Wait()
	return rep, errors.Join(errs...)
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

type backfillRun struct {
	client BackfillClient
	b      *Backfill
	cps    *Checkpoints
	o      *BackfillOptions
	rep    *BackfillReport
	lim    *limiter
	verify bool
	logMu  sync.Mutex
}

func (r *backfillRun) logf(format string, args ...any) {
	if r.o.Log == nil {
		return
	}
	r.logMu.Lock()
	defer r.logMu.Unlock()
	fmt.Fprintf(r.o.Log, format+"\n", args...)
}

// segment scans one segment, from its checkpoint when the run writes.
func (r *backfillRun) segment(ctx context.Context, seg int) error {
	cp := Checkpoint{Backfill: r.b.ID, Fingerprint: r.b.Fingerprint, Segments: r.o.Segments, Segment: seg}
	keep := r.o.Write && r.cps != nil
	if keep && !r.o.Restart {
		stored, err := r.loadCheckpoint(ctx, cp)
		if err != nil {
			return err
		}
		if stored != nil && stored.Fingerprint == r.b.Fingerprint {
			cp = *stored
		}
		if cp.Done {
			r.logf("%s: segment %d of %d: done already (%d items, %d written)", r.b.ID, seg, r.o.Segments, cp.Scanned, cp.Written)
			return nil
		}
		if cp.After == "" {
			// A pass from the start: what an earlier pass left open is
			// read again, and counted anew.
			cp.Open, cp.Scanned, cp.Written = false, 0, 0
		}
	}
	var start map[string]types.AttributeValue
	if cp.After != "" {
		k, err := DecodeStartKey(cp.After)
		if err != nil {
			return fmt.Errorf("%sbackfill %s: the checkpoint of segment %d: %w", pkgPrefix, r.b.ID, seg, err)
		}
		start = k
		r.logf("%s: segment %d of %d: resumes after %d items", r.b.ID, seg, r.o.Segments, cp.Scanned)
	}
	names := ownNames(r.b.ReadNames)
	for page := 0; ; page++ {
		// A deadline stops a run at a page's start, after its first:
		// each invocation of a Lambda function moves on.
		if page > 0 && !r.o.Deadline.IsZero() && !r.o.clock().Before(r.o.Deadline) {
			r.rep.add(func(rep *BackfillReport) { rep.Stopped = true })
			return nil
		}
		if err := r.lim.wait(ctx); err != nil {
			return err
		}
		in := &dynamodb.ScanInput{
			TableName:                 aws.String(r.o.TableName),
			Segment:                   aws.Int32(int32(seg)),
			TotalSegments:             aws.Int32(int32(r.o.Segments)),
			ProjectionExpression:      projection(r.b.Projection),
			FilterExpression:          aws.String(r.b.Filter),
			ExpressionAttributeNames:  names,
			ExpressionAttributeValues: r.b.ScanValues,
			ExclusiveStartKey:         start,
			ReturnConsumedCapacity:    types.ReturnConsumedCapacityTotal,
		}
		if r.o.PageSize > 0 {
			in.Limit = aws.Int32(r.o.PageSize)
		}
		out, err := r.client.Scan(ctx, in)
		if err != nil {
			return fmt.Errorf("%sbackfill %s: scan of segment %d: %w", pkgPrefix, r.b.ID, seg, err)
		}
		r.consumed(out.ConsumedCapacity)
		var written int64
		for _, item := range out.Items {
			w, err := r.item(ctx, item)
			switch {
			case errors.Is(err, errOpen):
				// An item left as it is (unreadable, or in conflict): the
				// segment is not done, and a run again reads it again.
				cp.Open = true
			case err != nil:
				return err
			}
			if w {
				written++
			}
		}
		cp.Scanned += int64(len(out.Items))
		cp.Written += written
		r.rep.add(func(rep *BackfillReport) { rep.Scanned += int64(len(out.Items)) })
		start = out.LastEvaluatedKey
		switch {
		case len(start) == 0 && cp.Open:
			// Scanned to its end, with items left open (by this run, or
			// by an earlier one of the pass): the next run scans the
			// segment again from its start.
			cp.After = ""
			r.rep.add(func(rep *BackfillReport) { rep.LeftOpen++ })
		case len(start) == 0:
			cp.Done, cp.After = true, ""
		default:
			if cp.After, err = EncodeStartKey(start); err != nil {
				return err
			}
		}
		if keep {
			if err := r.saveCheckpoint(ctx, cp); err != nil {
				return err
			}
		}
		switch {
		case r.verify && cp.Done:
			r.logf("%s: segment %d of %d: verified (%d items)", r.b.ID, seg, r.o.Segments, cp.Scanned)
		case r.verify:
			r.logf("%s: segment %d of %d: %d items verified", r.b.ID, seg, r.o.Segments, cp.Scanned)
		case cp.Done:
			r.logf("%s: segment %d of %d: done (%d items, %d written)", r.b.ID, seg, r.o.Segments, cp.Scanned, cp.Written)
		default:
			r.logf("%s: segment %d of %d: %d items, %d written", r.b.ID, seg, r.o.Segments, cp.Scanned, cp.Written)
		}
		if cp.Done || len(start) == 0 {
			return nil
		}
	}
}

func (r *backfillRun) consumed(cc *types.ConsumedCapacity) {
	if cc == nil || cc.CapacityUnits == nil {
		return
	}
	units := *cc.CapacityUnits
	r.lim.spend(units)
	r.rep.add(func(rep *BackfillReport) { rep.Capacity += units })
}

// keyText names an item by its key, for a report.
func (r *backfillRun) keyText(item map[string]types.AttributeValue) string {
	var parts []string
	for _, k := range r.b.Key {
		parts = append(parts, k+"="+avText(item[k]))
	}
	return strings.Join(parts, " ")
}

func avText(av types.AttributeValue) string {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return fmt.Sprintf("%q", v.Value)
	case *types.AttributeValueMemberN:
		return v.Value
	case *types.AttributeValueMemberB:
		return "0x" + fmt.Sprintf("%x", v.Value)
	case nil:
		return "(absent)"
	}
	return fmt.Sprintf("%T", av)
}

// item brings one item to what the backfill writes; it reports whether
// it wrote (or, dry, would write) it.
func (r *backfillRun) item(ctx context.Context, item map[string]types.AttributeValue) (bool, error) {
	if r.b.Claim != nil || r.b.Claims != nil {
		return r.claim(ctx, item)
	}
	for attempt := 1; ; attempt++ {
		want, err := r.fill(ctx, item)
		if err != nil && ctx.Err() != nil {
			return false, ctx.Err()
		}
		if err != nil {
			r.rep.add(func(rep *BackfillReport) { rep.Unreadable++ })
			r.rep.problem("%s: %v", r.keyText(item), err)
			return false, errOpen
		}
		if r.holds(item, want) {
			// Held already, or since a live write read again.
			r.rep.add(func(rep *BackfillReport) { rep.Already++ })
			return false, nil
		}
		if r.verify {
			r.rep.add(func(rep *BackfillReport) { rep.Lacking++ })
			r.rep.problem("%s: lacks %s", r.keyText(item), r.change(item, want))
			return false, nil
		}
		if !r.o.Write {
			r.rep.add(func(rep *BackfillReport) { rep.Written++ })
			r.logf("would write %s: %s", r.keyText(item), r.change(item, want))
			return true, nil
		}
		if err := r.lim.wait(ctx); err != nil {
			return false, err
		}
		out, err := r.client.UpdateItem(ctx, r.update(item, want))
		var ccf *types.ConditionalCheckFailedException
		switch {
		case err == nil:
			r.consumed(out.ConsumedCapacity)
			r.rep.add(func(rep *BackfillReport) { rep.Written++ })
			return true, nil
		case !errors.As(err, &ccf):
			return false, fmt.Errorf("%sbackfill %s: write of %s: %w", pkgPrefix, r.b.ID, r.keyText(item), err)
		}
		// A live writer changed the item since it was read: read it
		// again, and compute anew.
		if item, err = r.reread(ctx, item, attempt); item == nil || err != nil {
			return false, err
		}
	}
}

// fill is what item should hold: Fill's, or Compute's.
func (r *backfillRun) fill(ctx context.Context, item map[string]types.AttributeValue) (map[string]types.AttributeValue, error) {
	if r.b.Compute != nil {
		return r.b.Compute(ctx, item)
	}
	return r.b.Fill(item)
}

// reread reads item again after a live write failed the backfill's
// write of it (its attempt-th): nil when it is gone, or no longer of the
// entity.
func (r *backfillRun) reread(ctx context.Context, item map[string]types.AttributeValue, attempt int) (map[string]types.AttributeValue, error) {
	r.lim.spend(1)
	r.rep.add(func(rep *BackfillReport) { rep.Retried++ })
	if attempt >= maxBackfillAttempts {
		return nil, fmt.Errorf("%sbackfill %s: %s: %w", pkgPrefix, r.b.ID, r.keyText(item), ErrBackfillBusy)
	}
	got, err := r.get(ctx, item, projection(r.b.Projection), readNames(r.b))
	if err != nil {
		return nil, err
	}
	if len(got) == 0 || !r.ofEntity(got) {
		r.rep.add(func(rep *BackfillReport) { rep.Gone++ })
		return nil, nil
	}
	return got, nil
}

// get reads the item of item's key, consistently, with projection
// (whole when nil).
func (r *backfillRun) get(ctx context.Context, item map[string]types.AttributeValue, projection *string, names map[string]string) (map[string]types.AttributeValue, error) {
	if err := r.lim.wait(ctx); err != nil {
		return nil, err
	}
	got, err := r.client.GetItem(ctx, &dynamodb.GetItemInput{
		TableName:                aws.String(r.o.TableName),
		Key:                      r.keyOf(item),
		ConsistentRead:           aws.Bool(true),
		ProjectionExpression:     projection,
		ExpressionAttributeNames: names,
		ReturnConsumedCapacity:   types.ReturnConsumedCapacityTotal,
	})
	if err != nil {
		return nil, fmt.Errorf("%sbackfill %s: read of %s: %w", pkgPrefix, r.b.ID, r.keyText(item), err)
	}
	r.consumed(got.ConsumedCapacity)
	return got.Item, nil
}

// keyOf is the primary key of item.
func (r *backfillRun) keyOf(item map[string]types.AttributeValue) map[string]types.AttributeValue {
	key := map[string]types.AttributeValue{}
	for _, k := range r.b.Key {
		key[k] = item[k]
	}
	return key
}

// ofEntity reports whether an item read again is still of the entity.
func (r *backfillRun) ofEntity(item map[string]types.AttributeValue) bool {
	return SameValue(item[r.b.EntityAttr], &types.AttributeValueMemberS{Value: r.b.TypeValue})
}

// holds reports whether item holds what want says: each written
// attribute with its value, or, for want nil, none of them.
func (r *backfillRun) holds(item, want map[string]types.AttributeValue) bool {
	for _, w := range r.b.Writes {
		got, ok := item[w.Stored]
		if want == nil {
			if ok {
				return false
			}
			continue
		}
		if !ok || !SameValue(got, want[w.Stored]) {
			return false
		}
	}
	return true
}

// change says what a write does to item, for the dry run and a verify.
func (r *backfillRun) change(item, want map[string]types.AttributeValue) string {
	var parts []string
	for _, w := range r.b.Writes {
		if want == nil {
			parts = append(parts, w.Stored+" removed (was "+avText(item[w.Stored])+")")
			continue
		}
		parts = append(parts, w.Stored+"="+avText(want[w.Stored])+" (was "+avText(item[w.Stored])+")")
	}
	return strings.Join(parts, ", ")
}

// update is the UpdateItem that brings item to want, held while the item
// is as read.
func (r *backfillRun) update(item, want map[string]types.AttributeValue) *dynamodb.UpdateItemInput {
	key := r.keyOf(item)
	values := map[string]types.AttributeValue{}
	maps.Copy(values, r.b.WriteValues)
	expr := r.b.Clear
	if want != nil {
		expr = r.b.Set
		for _, w := range r.b.Writes {
			values[w.Value] = want[w.Stored]
		}
	}
	in := &dynamodb.UpdateItemInput{
		TableName:                 aws.String(r.o.TableName),
		Key:                       key,
		UpdateExpression:          aws.String(expr),
		ConditionExpression:       aws.String(r.b.Condition),
		ExpressionAttributeNames:  ownNames(r.b.UpdateNames),
		ExpressionAttributeValues: values,
		ReturnConsumedCapacity:    types.ReturnConsumedCapacityTotal,
	}
	return HoldRead(in, item, r.b.Held)
}

// projection is a ProjectionExpression, or none (whole items) for "".
func projection(p string) *string {
	if p == "" {
		return nil
	}
	return aws.String(p)
}

// readNames are the names of a GetItem of an item of b: those of its
// projection, none without one.
func readNames(b *Backfill) map[string]string {
	if b.Projection == "" {
		return nil
	}
	return ownNames(b.ReadNames)
}

// ownNames is a request's own copy of names; nil for none, which
// DynamoDB takes where it refuses an empty map.
func ownNames(names map[string]string) map[string]string {
	if len(names) == 0 {
		return nil
	}
	return maps.Clone(names)
}

// Pick returns the attributes names of item, a backfill's Fill of an
// index's keys from the item its entity's MarshalItem writes: nil when
// the item holds none of them (it is not in the index), an error when
// it holds only some.
func Pick(item map[string]types.AttributeValue, names ...string) (map[string]types.AttributeValue, error) {
	out := map[string]types.AttributeValue{}
	for _, n := range names {
		if v, ok := item[n]; ok {
			out[n] = v
		}
	}
	switch len(out) {
	case 0:
		return nil, nil
	case len(names):
		return out, nil
	}
	return nil, fmt.Errorf("%sbackfill: the item holds some of %s, not all", pkgPrefix, strings.Join(names, ", "))
}

// Present returns, for a backfill's Compute of attribute name, what item
// holds of it, and whether it holds it (not absent, nor NULL): an item
// that holds the attribute keeps it, whatever the function would say.
func Present(item map[string]types.AttributeValue, name string) (map[string]types.AttributeValue, bool) {
	switch v := item[name].(type) {
	case nil, *types.AttributeValueMemberNULL:
		return nil, false
	default:
		return map[string]types.AttributeValue{name: v}, true
	}
}

// Missing reports whether err, an entity's UnmarshalItem's, says only
// that the item lacks required attributes of attrs (by their spec
// names), and nothing else: a backfill's Compute decodes the items that
// lack the attributes backfills compute. The decoder goes on past a
// missing attribute (ItemDecoder), so an error after it is seen.
func Missing(err error, attrs ...string) bool {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range j.Unwrap() {
			if !Missing(e, attrs...) {
				return false
			}
		}
		return true
	}
	ie, ok := err.(*ItemError)
	return ok && ie.Reason == reasonMissing && slices.Contains(attrs, ie.Attr)
}

// DropNull returns item without the attributes of names it holds as
// NULL (a copy, when it holds one): a backfill's Compute reads an
// attribute it computes, stored NULL, as absent.
func DropNull(item map[string]types.AttributeValue, names ...string) map[string]types.AttributeValue {
	out, copied := item, false
	for _, n := range names {
		if _, null := item[n].(*types.AttributeValueMemberNULL); null {
			if !copied {
				out, copied = maps.Clone(item), true
			}
			delete(out, n)
		}
	}
	return out
}

// With returns a copy of item holding the attributes of more too: an
// item as a backfill's write leaves it.
func With(item, more map[string]types.AttributeValue) map[string]types.AttributeValue {
	out := maps.Clone(item)
	maps.Copy(out, more)
	return out
}

// FirstVersion is a backfill's Fill of a version, attribute name of
// item: the version the item holds, or 1, the version a create writes.
func FirstVersion(item map[string]types.AttributeValue, name string) (map[string]types.AttributeValue, error) {
	if v, ok := item[name]; ok {
		return map[string]types.AttributeValue{name: v}, nil
	}
	return map[string]types.AttributeValue{name: &types.AttributeValueMemberN{Value: "1"}}, nil
}

func (r *backfillRun) loadCheckpoint(ctx context.Context, cp Checkpoint) (*Checkpoint, error) {
	item, err := r.cps.Marshal(cp)
	if err != nil {
		return nil, err
	}
	// The checkpoint is an item of the backfill's table: its key, the
	// table's.
	stored, err := r.get(ctx, item, nil, nil)
	if err != nil || len(stored) == 0 {
		return nil, err
	}
	got, err := r.cps.Unmarshal(stored)
	if err != nil {
		return nil, fmt.Errorf("%sbackfill %s: the checkpoint of segment %d: %w", pkgPrefix, r.b.ID, cp.Segment, err)
	}
	return &got, nil
}

func (r *backfillRun) saveCheckpoint(ctx context.Context, cp Checkpoint) error {
	item, err := r.cps.Marshal(cp)
	if err != nil {
		return err
	}
	if err := r.lim.wait(ctx); err != nil {
		return err
	}
	out, err := r.client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(r.o.TableName), Item: item, ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
	if err != nil {
		return fmt.Errorf("%sbackfill %s: write of the checkpoint of segment %d: %w", pkgPrefix, r.b.ID, cp.Segment, err)
	}
	r.consumed(out.ConsumedCapacity)
	return nil
}

// SameValue reports whether a and b are one DynamoDB value: of one type,
// numbers equal by value, sets equal in any order, lists and maps
// element by element.
func SameValue(a, b types.AttributeValue) bool {
	switch x := a.(type) {
	case *types.AttributeValueMemberS:
		y, ok := b.(*types.AttributeValueMemberS)
		return ok && x.Value == y.Value
	case *types.AttributeValueMemberN:
		y, ok := b.(*types.AttributeValueMemberN)
		return ok && sameNumber(x.Value, y.Value)
	case *types.AttributeValueMemberB:
		y, ok := b.(*types.AttributeValueMemberB)
		return ok && string(x.Value) == string(y.Value)
	case *types.AttributeValueMemberBOOL:
		y, ok := b.(*types.AttributeValueMemberBOOL)
		return ok && x.Value == y.Value
	case *types.AttributeValueMemberNULL:
		_, ok := b.(*types.AttributeValueMemberNULL)
		return ok
	case *types.AttributeValueMemberSS:
		y, ok := b.(*types.AttributeValueMemberSS)
		return ok && sameSet(x.Value, y.Value, func(p, q string) bool { return p == q })
	case *types.AttributeValueMemberNS:
		y, ok := b.(*types.AttributeValueMemberNS)
		return ok && sameSet(x.Value, y.Value, sameNumber)
	case *types.AttributeValueMemberBS:
		y, ok := b.(*types.AttributeValueMemberBS)
		return ok && sameSet(x.Value, y.Value, func(p, q []byte) bool { return string(p) == string(q) })
	case *types.AttributeValueMemberL:
		y, ok := b.(*types.AttributeValueMemberL)
		return ok && slices.EqualFunc(x.Value, y.Value, SameValue)
	case *types.AttributeValueMemberM:
		y, ok := b.(*types.AttributeValueMemberM)
		return ok && maps.EqualFunc(x.Value, y.Value, SameValue)
	}
	return false
}

// sameSet reports whether two sets (of distinct elements) hold the same
// elements.
func sameSet[T any](a, b []T, eq func(x, y T) bool) bool {
	if len(a) != len(b) {
		return false
	}
	for _, x := range a {
		if !slices.ContainsFunc(b, func(y T) bool { return eq(x, y) }) {
			return false
		}
	}
	return true
}

// startKeyAttr is one attribute of a scan's start key as a checkpoint
// stores it: its name, its type (S, N or B) and its value (B in
// base64).
type startKeyAttr struct {
	Name  string `json:"n"`
	Type  string `json:"t"`
	Value string `json:"v"`
}

// EncodeStartKey writes a scan's LastEvaluatedKey as the text a
// checkpoint stores (JSON, the attributes sorted by name); DecodeStartKey
// reads it back.
func EncodeStartKey(key map[string]types.AttributeValue) (string, error) {
	attrs := make([]startKeyAttr, 0, len(key))
	for _, name := range slices.Sorted(maps.Keys(key)) {
		a := startKeyAttr{Name: name}
		switch v := key[name].(type) {
		case *types.AttributeValueMemberS:
			a.Type, a.Value = "S", v.Value
		case *types.AttributeValueMemberN:
			a.Type, a.Value = "N", v.Value
		case *types.AttributeValueMemberB:
			a.Type, a.Value = "B", base64.StdEncoding.EncodeToString(v.Value)
		default:
			return "", fmt.Errorf("%sbackfill: a start key attribute %s of type %T", pkgPrefix, name, v)
		}
		attrs = append(attrs, a)
	}
	b, err := json.Marshal(attrs)
	return string(b), err
}

// DecodeStartKey reads a start key EncodeStartKey wrote.
func DecodeStartKey(s string) (map[string]types.AttributeValue, error) {
	var attrs []startKeyAttr
	if err := json.Unmarshal([]byte(s), &attrs); err != nil || len(attrs) == 0 || len(attrs) > 4 {
		return nil, fmt.Errorf("%sbackfill: a start key that is not one a checkpoint writes", pkgPrefix)
	}
	key := map[string]types.AttributeValue{}
	for _, a := range attrs {
		switch a.Type {
		case "S":
			key[a.Name] = &types.AttributeValueMemberS{Value: a.Value}
		case "N":
			key[a.Name] = &types.AttributeValueMemberN{Value: a.Value}
		case "B":
			b, err := base64.StdEncoding.DecodeString(a.Value)
			if err != nil {
				return nil, fmt.Errorf("%sbackfill: a start key that is not one a checkpoint writes", pkgPrefix)
			}
			key[a.Name] = &types.AttributeValueMemberB{Value: b}
		default:
			return nil, fmt.Errorf("%sbackfill: a start key that is not one a checkpoint writes", pkgPrefix)
		}
	}
	return key, nil
}

// limiter holds a process's consumption to rate capacity units per
// second: what was consumed is a debt, paid at the rate as time passes,
// and a call waits until it is paid. The units of a call are known after
// it (ConsumedCapacity), so the bound holds over time, within the units
// of the calls in flight. Time unused is credited up to one second's
// worth: after a slow spell, the process does not burst past the rate.
type limiter struct {
	rate  float64
	now   func() time.Time
	sleep func(context.Context, time.Duration) error
	mu    sync.Mutex
	last  time.Time
	debt  float64
}

func (l *limiter) spend(units float64) {
	if l.rate <= 0 {
		return
	}
	l.mu.Lock()
	l.debt += units
	l.mu.Unlock()
}

func (l *limiter) wait(ctx context.Context) error {
	if l.rate <= 0 {
		return ctx.Err()
	}
	l.mu.Lock()
	now := l.now()
	if !l.last.IsZero() {
		l.debt -= now.Sub(l.last).Seconds() * l.rate
	}
	l.last = now
	// The credit of time unused: one second at the rate.
	l.debt = max(l.debt, -l.rate)
	d := time.Duration(l.debt / l.rate * float64(time.Second))
	l.mu.Unlock()
	if d > 0 {
		return l.sleep(ctx, d)
	}
	return ctx.Err()
}

package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"
)

// A backfill scales out on AWS Step Functions: a Distributed Map over the
// segments of a backfill invokes a Lambda function per segment, which
// runs the segment until it is done or its time is nearly up, and
// returns whether it is done; the state machine invokes it again until
// it is (the migration output's backfill.cfn.yaml). The function is the
// backfill program itself, on Lambda's OS-only runtime (provided.al2023,
// an executable named bootstrap): BackfillMain serves Lambda's runtime
// API when it finds one (ServeLambda), with no library of Lambda's.

// SegmentEvent is the input of one invocation: one segment of a
// backfill, as the state machine's map gives it.
type SegmentEvent struct {
	Backfill string `json:"backfill"`
	Segments int    `json:"segments"`
	Segment  int    `json:"segment"`
	// Rate is the invocation's rate in capacity units a second (0: no
	// bound); PageSize the scan's Limit (0: 1 MB pages).
	Rate     float64 `json:"rate,omitempty"`
	PageSize int32   `json:"pageSize,omitempty"`
}

// SegmentResult is what an invocation returns: its event, whether the
// segment is done, and what the invocation read and wrote. The state
// machine invokes the function again with the result until Done; each
// invocation resumes from the segment's checkpoint. Open is set when the
// segment's scan ended with items left as they are (in conflict, or
// unreadable): invoking it again would read them again, and the state
// machine fails the segment instead.
type SegmentResult struct {
	SegmentEvent
	Done       bool  `json:"done"`
	Open       bool  `json:"open"`
	Scanned    int64 `json:"scanned"`
	Written    int64 `json:"written"`
	Unreadable int64 `json:"unreadable"`
	// Conflicts counts, for a backfill of claims, the items whose value
	// another item's claim holds: the segment is then not done, and
	// invoking it again reads them again (change their values first).
	Conflicts int64 `json:"conflicts"`
}

// SegmentMargin is the time an invocation keeps before its deadline: it
// starts no page after it, so that the page it is in (a scan page of 1 MB
// at most, and a write per item of it) and the checkpoint end before
// Lambda stops it. An invocation with less than four margins left keeps
// a quarter of its time; the first page of each is always read, so each
// moves the segment on.
const SegmentMargin = 2 * time.Minute

// RunSegment runs the segment of ev until it is done, or until margin
// before ctx's deadline.
func RunSegment(ctx context.Context, client BackfillClient, jobs []BackfillJob, ev SegmentEvent, margin time.Duration) (SegmentResult, error) {
	res := SegmentResult{SegmentEvent: ev}
	chosen, err := chooseJobs(jobs, []string{ev.Backfill})
	if err != nil {
		return res, err
	}
	j := chosen[0]
	o := BackfillOptions{TableName: j.TableName, Segments: ev.Segments, Only: []int{ev.Segment}, Write: true, Rate: ev.Rate, PageSize: ev.PageSize}
	if dl, ok := ctx.Deadline(); ok {
		// A function given less time than four margins keeps a quarter
		// of it; the first page is always read.
		margin = min(margin, time.Until(dl)/4)
		o.Deadline = dl.Add(-margin)
	}
	if _, err := o.segmentsOf(); err != nil {
		return res, err
	}
	rep, err := RunBackfill(ctx, client, j.Backfill, j.Checkpoints, o)
	if rep != nil {
		open := rep.LeftOpen > 0
		res.Done, res.Open = !rep.Stopped && !open, !rep.Stopped && open
		res.Scanned, res.Written, res.Unreadable, res.Conflicts = rep.Scanned, rep.Written, rep.Unreadable, rep.Conflicts
	}
	if err != nil {
		res.Done = false
	}
	return res, err
}

// lambdaAPIEnv names the address of Lambda's runtime API in a function's
// environment.
const lambdaAPIEnv = "AWS_LAMBDA_RUNTIME_API"

// maxEvent bounds what an invocation's event may be: far more than a
// SegmentEvent.
const maxEvent = 1 << 20

// ServeLambda serves the invocations of Lambda's runtime API at api (host
// and port), one at a time, with handle: each event's bytes in, the
// response's out, or an error Lambda reports as the invocation's. The
// invocation's context ends at its deadline. It returns when ctx ends,
// or when the API fails.
func ServeLambda(ctx context.Context, api string, handle func(ctx context.Context, event []byte) ([]byte, error)) error {
	base := "http://" + api + "/2018-06-01/runtime/invocation/"
	client := &http.Client{}
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"next", nil)
		if err != nil {
			return err
		}
		resp, err := client.Do(req)
		if err != nil {
			return err
		}
		event, err := io.ReadAll(io.LimitReader(resp.Body, maxEvent+1))
		resp.Body.Close()
		if err != nil {
			return err
		}
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("%slambda: the runtime API answered %s to the next invocation", pkgPrefix, resp.Status)
		}
		id := resp.Header.Get("Lambda-Runtime-Aws-Request-Id")
		if id == "" {
			return fmt.Errorf("%slambda: an invocation without its request id", pkgPrefix)
		}
		ictx, cancel := ctx, context.CancelFunc(func() {})
		if ms, err := strconv.ParseInt(resp.Header.Get("Lambda-Runtime-Deadline-Ms"), 10, 64); err == nil {
			ictx, cancel = context.WithDeadline(ctx, time.UnixMilli(ms))
		}
		var out []byte
		if len(event) > maxEvent {
			err = fmt.Errorf("%slambda: an event of more than %d bytes", pkgPrefix, maxEvent)
		} else {
			out, err = handle(ictx, event)
		}
		cancel()
		path, body := base+id+"/response", out
		if err != nil {
			path = base + id + "/error"
			body, _ = json.Marshal(struct {
				Message string `json:"errorMessage"`
				Type    string `json:"errorType"`
			}{err.Error(), "BackfillError"})
		}
		post, err := http.NewRequestWithContext(ctx, http.MethodPost, path, bytes.NewReader(body))
		if err != nil {
			return err
		}
		post.Header.Set("Content-Type", "application/json")
		resp, err = client.Do(post)
		if err != nil {
			return err
		}
		io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
		resp.Body.Close()
		if resp.StatusCode/100 != 2 {
			return fmt.Errorf("%slambda: the runtime API answered %s to the invocation's result", pkgPrefix, resp.Status)
		}
	}
}

// segmentHandler is the Lambda handler of jobs: a SegmentEvent in, its
// SegmentResult out.
func segmentHandler(client BackfillClient, jobs []BackfillJob) func(context.Context, []byte) ([]byte, error) {
	return func(ctx context.Context, event []byte) ([]byte, error) {
		// The state machine invokes the function with the map's item
		// first, then with the result of the invocation before.
		var in SegmentResult
		dec := json.NewDecoder(bytes.NewReader(event))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&in); err != nil {
			return nil, fmt.Errorf("%sbackfill: an event that is no segment: %w", pkgPrefix, err)
		}
		res, err := RunSegment(ctx, client, jobs, in.SegmentEvent, SegmentMargin)
		if err != nil {
			return nil, err
		}
		return json.Marshal(res)
	}
}

package backfill

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	dyngen "github.com/dyngen/dyngen/generator/runtime"
)

// fakeRuntimeAPI is Lambda's runtime API as a function sees it: it hands
// out the events, one per GET of next, with the deadline of each, and
// records each response or error; once the events are out, next fails,
// which ends ServeLambda.
type fakeRuntimeAPI struct {
	mu        sync.Mutex
	events    []string
	deadlines []time.Time
	results   map[string]string // by request id: "response: ..." or "error: ..."
}

func (f *fakeRuntimeAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	const prefix = "/2018-06-01/runtime/invocation/"
	rest, ok := strings.CutPrefix(r.URL.Path, prefix)
	switch {
	case !ok:
		http.NotFound(w, r)
	case rest == "next" && r.Method == http.MethodGet:
		if len(f.events) == 0 {
			http.Error(w, "no more events", http.StatusInternalServerError)
			return
		}
		id := strconv.Itoa(len(f.results) + 1)
		f.results[id] = "pending"
		w.Header().Set("Lambda-Runtime-Aws-Request-Id", id)
		w.Header().Set("Lambda-Runtime-Deadline-Ms", strconv.FormatInt(f.deadlines[0].UnixMilli(), 10))
		io.WriteString(w, f.events[0])
		f.events, f.deadlines = f.events[1:], f.deadlines[1:]
	case r.Method == http.MethodPost:
		id, kind, _ := strings.Cut(rest, "/")
		body, _ := io.ReadAll(r.Body)
		f.results[id] = kind + ": " + string(body)
		w.WriteHeader(http.StatusAccepted)
	default:
		http.NotFound(w, r)
	}
}

// The backfill program as a Lambda function, served through the runtime
// API: an invocation runs its segment to the end and says so (given the
// state machine's first event, or the result of the invocation before);
// one of a segment done reads nothing and says it is done; an event that
// is no segment is the invocation's error, not the function's end. (An
// invocation stopped by its deadline: TestBackfillDeadline, in the
// runtime.)
func TestBackfillLambda(t *testing.T) {
	e := newEnv(t)
	for i := range 30 {
		e.putOld(t, user(i))
	}
	now := time.Now()
	api := &fakeRuntimeAPI{results: map[string]string{}}
	seg := func(s int) string {
		return `{"backfill": "User.GSI1", "segments": 2, "segment": ` + strconv.Itoa(s) + `, "pageSize": 5}`
	}
	api.events = []string{
		seg(0),
		`{"backfill": "User.GSI1", "segments": 2, "segment": 1, "pageSize": 5, "done": false, "scanned": 0, "written": 0, "unreadable": 0}`,
		seg(1),
		`{"segment": "one"}`,
	}
	api.deadlines = []time.Time{now.Add(time.Hour), now.Add(time.Hour), now.Add(time.Hour), now.Add(time.Hour)}
	srv := httptest.NewServer(api)
	defer srv.Close()
	t.Setenv("AWS_LAMBDA_RUNTIME_API", strings.TrimPrefix(srv.URL, "http://"))
	var out, errs strings.Builder
	if code := dyngen.BackfillMain(context.Background(), e.bf, Backfills(e.opts...), nil, &out, &errs); code != 1 || !strings.Contains(errs.String(), "500") {
		t.Fatalf("BackfillMain as a function: exit %d, %s", code, errs.String())
	}
	result := func(id string) dyngen.SegmentResult {
		t.Helper()
		body, ok := strings.CutPrefix(api.results[id], "response: ")
		if !ok {
			t.Fatalf("invocation %s: %s", id, api.results[id])
		}
		var r dyngen.SegmentResult
		if err := json.Unmarshal([]byte(body), &r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	if r := result("1"); !r.Done || r.Segment != 0 || r.Scanned == 0 || r.Scanned != r.Written {
		t.Errorf("segment 0: %+v, want done, every item read written", r)
	}
	r0, r1 := result("1"), result("2")
	if !r1.Done || r0.Scanned+r1.Scanned != 30 {
		t.Errorf("segment 1: %+v, want done, the 30 users read by the two segments", r1)
	}
	if r := result("3"); !r.Done || r.Scanned != 0 {
		t.Errorf("segment 1 again: %+v, want done, nothing read", r)
	}
	if !strings.HasPrefix(api.results["4"], "error: ") || !strings.Contains(api.results["4"], "no segment") {
		t.Errorf("a bad event: %s", api.results["4"])
	}
	if rep := e.verify(t, "User.GSI1", 1); rep.Lacking != 0 || rep.Scanned != 30 {
		t.Errorf("verify: %+v", rep)
	}
}

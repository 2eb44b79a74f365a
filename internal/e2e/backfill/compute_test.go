package backfill

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	dyngen "github.com/dyngen/dyngen/generator/runtime"
)

// The attributes the change adds to Session, which the sessions stored
// before lack: minutes and kind (required) and expiresAt (the table's
// ttl).
var sessionAdded = []string{"minutes", "kind", "expiresAt"}

// putOldSession stores s as the code before the change wrote it:
// without minutes, kind and expiresAt.
func (e *env) putOldSession(t testing.TB, s *Session) { e.putWithout(t, s, sessionAdded...) }

// The sessions' times: i's starts at base plus i hours; one of three is
// still open, the others ended i minutes after they started.
var base = time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)

func session(i int) *Session {
	// Kind is any valid value: the code before the change stores none.
	s := &Session{ID: fmt.Sprintf("s%03d", i), User: fmt.Sprintf("u%05d", i%5), Started: base.Add(time.Duration(i) * time.Hour), Kind: SessionKindWeb}
	if i%3 != 0 {
		ended := s.Started.Add(time.Duration(i) * time.Minute)
		s.Ended = &ended
	}
	return s
}

// minutesOf and expiresOf are the tests' functions: a session's length in
// minutes (0 while open), and its time to live, a day after it ended (none
// while open).
func minutesOf(s *Session) int64 {
	if s.Ended == nil {
		return 0
	}
	return int64(s.Ended.Sub(s.Started) / time.Minute)
}

func kindOf(s *Session) SessionKind {
	if s.ID[len(s.ID)-1]%2 == 0 {
		return SessionKindWeb
	}
	return SessionKindApp
}

func expiresOf(s *Session) *time.Time {
	if s.Ended == nil {
		return nil
	}
	t := s.Ended.Add(24 * time.Hour)
	return &t
}

// computeEnv is an env whose backfills are given funcs.
func computeEnv(t *testing.T, funcs BackfillFuncs) *env {
	e := newEnv(t)
	e.opts = append(e.opts, WithBackfillFuncs(funcs))
	return e
}

// sessionFuncs are the functions every env gives its backfills.
var sessionFuncs = BackfillFuncs{
	SessionMinutes: func(_ context.Context, s *Session) (int64, error) { return minutesOf(s), nil },
	SessionKind:    func(_ context.Context, s *Session) (SessionKind, error) { return kindOf(s), nil },
	SessionExpires: func(_ context.Context, s *Session) (*time.Time, error) { return expiresOf(s), nil },
}

// Attributes added to an entity with items, one required and one the
// table's ttl, computed by the user's functions: a dry run changes
// nothing; the run writes each item's value as its MarshalItem stores
// it, keeps what new code wrote, yields to a live write (computing again
// from the item as written), reports an item whose value can't be
// written, and the verify proves every other item holds it; then the
// Store reads the sessions, and leaves the expired ones out.
func TestBackfillCompute(t *testing.T) {
	ctx := context.Background()
	const n = 30
	var (
		mu       sync.Mutex
		calls    = map[string]int{}
		e        *env
		live     atomic.Bool
		liveOnce sync.Once
	)
	// Session s007's first computation meets a live write of code still
	// running the old design (a put without minutes), which changes its
	// end: the backfill's write fails, and it computes again from the
	// item as the live write left it. Session s013's length is refused by
	// the spec (min: 0): never written, reported.
	moved := session(7)
	movedEnd := moved.Started.Add(95 * time.Minute)
	moved.Ended = &movedEnd
	e = computeEnv(t, BackfillFuncs{
		SessionMinutes: func(ctx context.Context, s *Session) (int64, error) {
			if s.Minutes != 0 {
				return 0, fmt.Errorf("session %s: minutes is %d before it is computed", s.ID, s.Minutes)
			}
			if s.ID == "s013" {
				return -1, nil
			}
			if !live.Load() {
				return minutesOf(s), nil
			}
			mu.Lock()
			calls[s.ID]++
			mu.Unlock()
			if s.ID == moved.ID {
				liveOnce.Do(func() { e.putOldSession(t, moved) })
			}
			return minutesOf(s), nil
		},
		SessionKind: func(ctx context.Context, s *Session) (SessionKind, error) {
			return kindOf(s), nil
		},
		SessionExpires: func(ctx context.Context, s *Session) (*time.Time, error) {
			return expiresOf(s), nil
		},
	})
	for i := range n {
		e.putOldSession(t, session(i))
	}
	// A session written by new code holds its own values, which the
	// backfill keeps.
	fresh := session(n)
	fresh.Minutes, fresh.Kind = 999, SessionKindApp
	far := time.Now().Add(48 * time.Hour).Truncate(time.Second)
	fresh.Expires = &far
	if err := e.store.PutSession(ctx, fresh); err != nil {
		t.Fatal(err)
	}
	// New code can't read the sessions stored before: minutes is
	// required.
	if _, err := e.store.GetSession(ctx, session(1).ID); !errors.Is(err, dyngen.ErrInvalidItem) {
		t.Fatalf("GetSession of a session stored before: %v, want ErrInvalidItem", err)
	}
	before := e.sessions(t)

	dry := e.run(t, e.bf, "Session.minutes", dyngen.BackfillOptions{Segments: 3})
	if dry.Written != n-1 || dry.Already != 1 || dry.Unreadable != 1 {
		t.Fatalf("dry run: %+v", dry)
	}
	if got := e.sessions(t); !sameItems(got, before) {
		t.Fatal("a dry run changed items")
	}
	if v := e.verify(t, "Session.minutes", 2); v.Lacking != n-1 || v.Unreadable != 1 || v.Already != 1 {
		t.Fatalf("verify before: %+v", v)
	}

	live.Store(true)
	rep := e.run(t, e.bf, "Session.minutes", dyngen.BackfillOptions{Segments: 3, Write: true})
	if rep.Written != n-1 || rep.Unreadable != 1 || rep.Retried != 1 || rep.Already != 1 {
		t.Fatalf("run of minutes: %+v", rep)
	}
	if calls[moved.ID] != 2 {
		t.Errorf("session %s computed %d times, want 2 (once more after the live write)", moved.ID, calls[moved.ID])
	}
	// kind: its zero value is none of its values, and minutes's function
	// gave one to each session's checks above; s013, whose minutes the
	// spec refuses, can't be written by its entity: left open again.
	rep = e.run(t, e.bf, "Session.kind", dyngen.BackfillOptions{Segments: 2, Write: true})
	if rep.Written != n-1 || rep.Unreadable != 1 || rep.Already != 1 {
		t.Fatalf("run of kind: %+v", rep)
	}
	rep = e.run(t, e.bf, "Session.expires", dyngen.BackfillOptions{Segments: 2, Write: true})
	// Open sessions keep no ttl (their function says nil): only the
	// ended ones, but s013.
	ended := 0
	for i := range n {
		if session(i).Ended != nil && i != 13 {
			ended++
		}
	}
	if rep.Written != int64(ended) || rep.Unreadable != 1 {
		t.Fatalf("run of expires: %+v (%d ended)", rep, ended)
	}
	for _, id := range []string{"Session.minutes", "Session.kind", "Session.expires"} {
		if v := e.verify(t, id, 2); v.Lacking != 0 || v.Unreadable != 1 {
			t.Fatalf("verify of %s after: %+v", id, v)
		}
	}

	got := e.sessions(t)
	for i := range n + 1 {
		want := session(i)
		switch {
		case i == 7:
			want = moved
		case i == n:
			want = fresh
		}
		item := got[want.ID]
		if want.ID == "s013" {
			for _, k := range sessionAdded {
				if _, ok := item[k]; ok {
					t.Errorf("session s013 holds %s %v, though its minutes are refused by the spec", k, item[k])
				}
			}
			continue
		}
		if i != n {
			want.Minutes, want.Kind, want.Expires = minutesOf(want), kindOf(want), expiresOf(want)
		}
		full, err := want.MarshalItem()
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range sessionAdded {
			w, should := full[k]
			g, has := item[k]
			if has != should || has && !dyngen.SameValue(g, w) {
				t.Errorf("session %s: %s is %v, want %v", want.ID, k, avString(g), avString(w))
			}
		}
	}

	// The Store reads them now; an ended session's ttl (a day after
	// 2020) has passed: it reads as absent.
	if _, err := e.store.GetSession(ctx, session(1).ID); !errors.Is(err, dyngen.ErrNotFound) {
		t.Errorf("GetSession of an expired session: %v, want ErrNotFound", err)
	}
	open, err := e.store.GetSession(ctx, session(3).ID)
	if err != nil || open.Minutes != 0 || open.Expires != nil {
		t.Errorf("GetSession of an open session: %+v, %v", open, err)
	}
	if got, err := e.store.GetSession(ctx, fresh.ID); err != nil || got.Minutes != 999 {
		t.Errorf("GetSession of the session new code wrote: %+v, %v", got, err)
	}
}

// A required attribute stored NULL is computed as an absent one; one
// stored in another form is unreadable, to the run and to the verify,
// never taken as holding it.
func TestBackfillComputeNullAndForm(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	put := func(s *Session, minutes types.AttributeValue) {
		item, err := s.MarshalItem()
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range sessionAdded {
			delete(item, k)
		}
		item["minutes"] = minutes
		if _, err := e.raw.PutItem(ctx, &dynamodb.PutItemInput{TableName: &e.table, Item: item}); err != nil {
			t.Fatal(err)
		}
	}
	put(session(1), &types.AttributeValueMemberNULL{Value: true})
	put(session(2), &types.AttributeValueMemberS{Value: "ten"})
	rep := e.run(t, e.bf, "Session.minutes", dyngen.BackfillOptions{Segments: 1, Write: true})
	if rep.Written != 1 || rep.Unreadable != 1 {
		t.Fatalf("run: %+v", rep)
	}
	got := e.sessions(t)
	if n, ok := got["s001"]["minutes"].(*types.AttributeValueMemberN); !ok || n.Value != strconv.FormatInt(minutesOf(session(1)), 10) {
		t.Errorf("s001's minutes, NULL before: %v", avString(got["s001"]["minutes"]))
	}
	if v := e.verify(t, "Session.minutes", 1); v.Unreadable != 1 || v.Lacking != 0 {
		t.Errorf("verify with s002's minutes a string: %+v", v)
	}
}

// A backfill whose function the program did not give refuses to run,
// and writes nothing.
func TestBackfillComputeNeedsFunc(t *testing.T) {
	e := newEnv(t)
	e.opts = []Option{WithThingsTable(e.table)}
	e.putOldSession(t, session(1))
	j := e.job(t, "Session.minutes")
	if j.Backfill.Compute != nil {
		t.Fatal("Compute set without BackfillFuncs")
	}
	_, err := dyngen.RunBackfill(context.Background(), e.bf, j.Backfill, j.Checkpoints, dyngen.BackfillOptions{TableName: j.TableName, Segments: 1, Write: true})
	if err == nil {
		t.Fatal("a backfill without its function ran")
	}
	if item := e.sessions(t)["s001"]; item["minutes"] != nil {
		t.Fatalf("written without a function: %v", item)
	}
}

// sessions reads every Session item of the table, by id.
func (e *env) sessions(t testing.TB) map[string]map[string]types.AttributeValue {
	t.Helper()
	out := map[string]map[string]types.AttributeValue{}
	for _, item := range e.scanAll(t, "") {
		if str(item, "_type") == "Session" {
			out[str(item, "id")] = item
		}
	}
	return out
}

func sameItems(a, b map[string]map[string]types.AttributeValue) bool {
	if len(a) != len(b) {
		return false
	}
	for k, x := range a {
		y, ok := b[k]
		if !ok || !dyngen.SameValue(&types.AttributeValueMemberM{Value: x}, &types.AttributeValueMemberM{Value: y}) {
			return false
		}
	}
	return true
}

func avString(av types.AttributeValue) string {
	switch v := av.(type) {
	case nil:
		return "(absent)"
	case *types.AttributeValueMemberN:
		return v.Value
	case *types.AttributeValueMemberS:
		return strconv.Quote(v.Value)
	}
	return fmt.Sprintf("%T", av)
}

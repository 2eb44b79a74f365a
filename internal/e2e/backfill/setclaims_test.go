package backfill

import (
	"context"
	"slices"
	"testing"

	dyngen "github.com/dyngen/dyngen/generator/runtime"
)

// putOldTeam stores team as the code before the change wrote it: without
// the claims of its members.
func (e *env) putOldTeam(t testing.TB, team *Team) { e.putWithout(t, team) }

// memberClaims reads every claim of a member, by the member it holds:
// the id of the team it leads to.
func (e *env) memberClaims(t testing.TB) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, item := range e.scanAll(t, "") {
		if str(item, "_type") == "Team.members" {
			out[str(item, "members")] = str(item, "id")
		}
	}
	return out
}

// The backfill of the claims of a set made unique, one per element: each
// team stored before gets the claims of its members in one transaction;
// a team without members holds none; a team of which one member is
// another team's is a conflict, reported, and none of its claims is
// written; once the team is changed, a run again claims its members, and
// the verify passes; the Store then finds a team by a member, and
// refuses a member taken.
func TestBackfillSetClaims(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	// Team t1, written by new code, holds its claims (ann, bob).
	if err := e.store.PutTeam(ctx, &Team{ID: "t1", Members: []string{"ann", "bob"}}); err != nil {
		t.Fatal(err)
	}
	e.putOldTeam(t, &Team{ID: "t2", Members: []string{"cat", "dan", "eve"}})
	e.putOldTeam(t, &Team{ID: "t3"})
	e.putOldTeam(t, &Team{ID: "t4", Members: []string{"bob", "fay"}}) // bob is t1's

	dry := e.run(t, e.bf, "Team.members", dyngen.BackfillOptions{Segments: 2})
	if dry.Written != 1 || dry.Conflicts != 1 || dry.Already != 2 || len(e.memberClaims(t)) != 2 {
		t.Fatalf("dry run: %+v, claims %v", dry, e.memberClaims(t))
	}
	rep := e.run(t, e.bf, "Team.members", dyngen.BackfillOptions{Segments: 2, Write: true})
	if rep.Scanned != 4 || rep.Written != 1 || rep.Already != 2 || rep.Conflicts != 1 || len(rep.Problems) != 1 {
		t.Fatalf("run: %+v; want 4 read, 1 written, 2 holding theirs, 1 conflict", rep)
	}
	want := map[string]string{"ann": "t1", "bob": "t1", "cat": "t2", "dan": "t2", "eve": "t2"}
	if got := e.memberClaims(t); !mapsEqual(got, want) {
		t.Fatalf("claims %v, want %v (none of t4's)", got, want)
	}
	if v := e.verify(t, "Team.members", 1); v.Lacking != 1 || v.Conflicts != 1 {
		t.Errorf("verify with the conflict: %+v", v)
	}
	// t4 leaves bob, by a write of the item alone; a run again claims
	// fay.
	e.putOldTeam(t, &Team{ID: "t4", Members: []string{"fay"}})
	if rep := e.run(t, e.bf, "Team.members", dyngen.BackfillOptions{Segments: 2, Write: true}); rep.Written != 1 || rep.Conflicts != 0 {
		t.Errorf("the run again: %+v", rep)
	}
	want["fay"] = "t4"
	if got := e.memberClaims(t); !mapsEqual(got, want) {
		t.Errorf("claims %v, want %v", got, want)
	}
	if v := e.verify(t, "Team.members", 3); v.Lacking != 0 || v.Conflicts != 0 || v.Scanned != 4 {
		t.Errorf("verify: %+v", v)
	}
	if team, err := e.store.TeamOfMember(ctx, "dan"); err != nil || team.ID != "t2" || !slices.Equal(team.Members, []string{"cat", "dan", "eve"}) {
		t.Errorf("TeamOfMember(dan): %+v, %v", team, err)
	}
	if err := e.store.PutTeam(ctx, &Team{ID: "t5", Members: []string{"eve"}}); err == nil {
		t.Error("a team of a member claimed by the backfill was stored")
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

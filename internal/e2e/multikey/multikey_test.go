package multikey

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	dyngen "github.com/dyngen/dyngen/generator/runtime"
	"github.com/dyngen/dyngen/internal/dynamotest"
	"github.com/dyngen/dyngen/internal/iamcheck"
)

// newStore makes the table under a name of its own, from the files dyngen
// wrote (which must match Tables), and a Store whose every call the spec's
// IAM policy must allow.
func newStore(t *testing.T, opts ...Option) (*Store, *dynamodb.Client) {
	t.Helper()
	c := dynamotest.Client(t)
	chk := iamcheck.New(t, "iam-policy.json", c)
	s := New(chk, append([]Option{WithEsportsTable(dynamotest.TableName("Esports"))}, opts...)...)
	for _, table := range s.Tables() {
		chk.Add(table.Name, table.Create)
		dynamotest.MakeTableFromFiles(t, c, ".", table.Name, table.Create, table.TimeToLive)
	}
	return s, c
}

func ptr[T any](v T) *T { return &v }

// all reads every page of a query with pages of limit items.
func all[T any](t *testing.T, limit int, read func(Page) (*dyngen.Result[T], error)) []T {
	t.Helper()
	var out []T
	page := Page{Limit: limit}
	for {
		res, err := read(page)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, res.Items...)
		if res.Next == "" {
			return out
		}
		page.Cursor = res.Next
	}
}

func matchIDs(ms []Match) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.MatchID)
	}
	return out
}

// TestQueryShapes reads matches through every shape of key condition the
// spec asks for: the partition, a sort key attribute bound, then a range,
// beginsWith and equality on the next one, in both orders, with items of
// another entity (teams) and of another partition beside them.
func TestQueryShapes(t *testing.T) {
	s, _ := newStore(t)
	ctx := context.Background()
	matches := []Match{
		{MatchID: "m1", TournamentID: "t1", Region: "eu", Round: "final", Score: ptr[int64](3)},
		{MatchID: "m2", TournamentID: "t1", Region: "eu", Round: "final", Score: ptr[int64](-2)},
		{MatchID: "m3", TournamentID: "t1", Region: "eu", Round: "final", Score: ptr[int64](10)},
		{MatchID: "m4", TournamentID: "t1", Region: "eu", Round: "semi1", Score: ptr[int64](1)},
		{MatchID: "m5", TournamentID: "t1", Region: "eu", Round: "semi2", Score: ptr[int64](0)},
		{MatchID: "m6", TournamentID: "t1", Region: "us", Round: "final", Score: ptr[int64](5)},
		{MatchID: "m7", TournamentID: "t2", Region: "eu", Round: "final", Score: ptr[int64](7)},
		// Not played: no score, so not in byTournament.
		{MatchID: "m8", TournamentID: "t1", Region: "eu", Round: "final"},
	}
	for i := range matches {
		if err := s.PutMatch(ctx, &matches[i]); err != nil {
			t.Fatal(err)
		}
	}
	// Teams share the partitions, told apart by the entity attribute, a
	// key attribute of the index.
	for i, score := range []int64{3, 4} {
		if err := s.PutTeam(ctx, &Team{TeamID: fmt.Sprint("team", i), TournamentID: "t1", Region: "eu", Round: "final", Score: score}); err != nil {
			t.Fatal(err)
		}
	}
	eu := func(limit int, read func(Page) (*MatchesOfRoundResult, error)) []string {
		return matchIDs(all(t, limit, read))
	}
	cases := []struct {
		name string
		got  []string
		want []string
	}{
		{"partition", eu(2, func(p Page) (*MatchesOfRoundResult, error) {
			return s.MatchesOfTournament(ctx, MatchesOfTournamentParams{TournamentID: "t1", Region: "eu"}, p)
		}), []string{"m2", "m1", "m3", "m4", "m5"}},
		{"round", eu(1, func(p Page) (*MatchesOfRoundResult, error) {
			return s.MatchesOfRound(ctx, MatchesOfRoundParams{TournamentID: "t1", Region: "eu", Round: "final"}, p)
		}), []string{"m2", "m1", "m3"}},
		{"score above", eu(0, func(p Page) (*MatchesOfRoundResult, error) {
			return s.MatchesOfRoundAbove(ctx, MatchesOfRoundAboveParams{TournamentID: "t1", Region: "eu", Round: "final", Score: -2}, p)
		}), []string{"m1", "m3"}},
		{"score between, descending", eu(1, func(p Page) (*MatchesOfRoundResult, error) {
			return s.MatchesOfRoundBetween(ctx, MatchesOfRoundBetweenParams{TournamentID: "t1", Region: "eu", Round: "final", ScoreFrom: -2, ScoreTo: 3}, p)
		}), []string{"m1", "m2"}},
		{"between the wrong way round", eu(0, func(p Page) (*MatchesOfRoundResult, error) {
			return s.MatchesOfRoundBetween(ctx, MatchesOfRoundBetweenParams{TournamentID: "t1", Region: "eu", Round: "final", ScoreFrom: 3, ScoreTo: -2}, p)
		}), nil},
		{"round prefix", eu(1, func(p Page) (*MatchesOfRoundResult, error) {
			return s.MatchesOfRoundsFrom(ctx, MatchesOfRoundsFromParams{TournamentID: "t1", Region: "eu", Round: "semi"}, p)
		}), []string{"m4", "m5"}},
	}
	for _, c := range cases {
		if !slices.Equal(c.got, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, c.got, c.want)
		}
	}
	m, err := s.MatchWithScore(ctx, MatchWithScoreParams{TournamentID: "t1", Region: "eu", Round: "final", Score: 10})
	if err != nil || m.MatchID != "m3" {
		t.Errorf("MatchWithScore: %v, %v; want m3", m, err)
	}
	if _, err := s.MatchWithScore(ctx, MatchWithScoreParams{TournamentID: "t1", Region: "eu", Round: "final", Score: 4}); !errors.Is(err, ErrNotFound) {
		t.Errorf("MatchWithScore of a team's score: %v, want ErrNotFound", err)
	}
	teams := all(t, 0, func(p Page) (*TeamsOfRoundResult, error) {
		return s.TeamsOfRound(ctx, TeamsOfRoundParams{TournamentID: "t1", Region: "eu", Round: "final", Score: 3}, p)
	})
	if len(teams) != 1 || teams[0].TeamID != "team0" {
		t.Errorf("TeamsOfRound: %+v, want team0 alone", teams)
	}
}

// TestSparse checks membership by the attributes an item holds: a match
// with a score of 0 is in the index, one without a score is not, and is
// once it has one.
func TestSparse(t *testing.T) {
	s, _ := newStore(t)
	ctx := context.Background()
	round := func() []string {
		return matchIDs(all(t, 0, func(p Page) (*MatchesOfRoundResult, error) {
			return s.MatchesOfRound(ctx, MatchesOfRoundParams{TournamentID: "t", Region: "r", Round: "q"}, p)
		}))
	}
	zero := Match{MatchID: "zero", TournamentID: "t", Region: "r", Round: "q", Score: ptr[int64](0)}
	none := Match{MatchID: "none", TournamentID: "t", Region: "r", Round: "q"}
	for _, m := range []*Match{&zero, &none} {
		if err := s.PutMatch(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	if got := round(); !slices.Equal(got, []string{"zero"}) {
		t.Errorf("with one score of 0 and one absent: %v, want [zero]", got)
	}
	none.Score = ptr[int64](-1)
	if err := s.PutMatch(ctx, &none); err != nil {
		t.Fatal(err)
	}
	if got := round(); !slices.Equal(got, []string{"none", "zero"}) {
		t.Errorf("once it has a score: %v, want [none zero]", got)
	}
}

// TestCursors checks that a cursor of one query is refused by the same
// query with other values of the bound attributes, before any call.
func TestCursors(t *testing.T) {
	s, _ := newStore(t)
	ctx := context.Background()
	for i := range 3 {
		if err := s.PutMatch(ctx, &Match{MatchID: fmt.Sprint("c", i), TournamentID: "t", Region: "r", Round: "q", Score: ptr(int64(i))}); err != nil {
			t.Fatal(err)
		}
	}
	res, err := s.MatchesOfRound(ctx, MatchesOfRoundParams{TournamentID: "t", Region: "r", Round: "q"}, Page{Limit: 1})
	if err != nil || res.Next == "" {
		t.Fatalf("first page: %v, %v", res, err)
	}
	for _, p := range []MatchesOfRoundParams{
		{TournamentID: "t", Region: "r", Round: "other"},
		{TournamentID: "t", Region: "other", Round: "q"},
		{TournamentID: "other", Region: "r", Round: "q"},
	} {
		if _, err := s.MatchesOfRound(ctx, p, Page{Cursor: res.Next}); !errors.Is(err, ErrInvalidCursor) {
			t.Errorf("cursor given to %+v: %v, want ErrInvalidCursor", p, err)
		}
	}
	above, err := s.MatchesOfRoundAbove(ctx, MatchesOfRoundAboveParams{TournamentID: "t", Region: "r", Round: "q", Score: 0}, Page{Limit: 1})
	if err != nil || above.Next == "" {
		t.Fatalf("first page above 0: %v, %v", above, err)
	}
	// Its last key (score 1) is not above 1.
	if _, err := s.MatchesOfRoundAbove(ctx, MatchesOfRoundAboveParams{TournamentID: "t", Region: "r", Round: "q", Score: 1}, Page{Cursor: above.Next}); !errors.Is(err, ErrInvalidCursor) {
		t.Errorf("cursor outside the range: %v, want ErrInvalidCursor", err)
	}
}

// TestOrderProperty puts players of random ratings (numbers of every
// sign and size, equal ones among them) and binary tags, and checks that
// DynamoDB returns them in the order of the ratings' values, then of the
// tags' bytes, as the generated code's ranges select them.
func TestOrderProperty(t *testing.T) {
	s, _ := newStore(t)
	ctx := context.Background()
	r := rand.New(rand.NewPCG(1, 2))
	ratings := []float64{0, -0.5, 1e-9, -1e10, 123.25, 1e15, -3}
	var players []Player
	for i := range 60 {
		rating := ratings[r.IntN(len(ratings))]
		if r.IntN(2) == 0 {
			rating = float64(r.IntN(2001)-1000) / 8
		}
		tag := make([]byte, 1+r.IntN(3))
		for j := range tag {
			tag[j] = byte(r.IntN(4) * 85) // 0x00, 0x55, 0xaa, 0xff
		}
		p := Player{PlayerID: strconv.Itoa(i), League: "L", Rating: rating, Tag: tag}
		if err := s.PutPlayer(ctx, &p); err != nil {
			t.Fatal(err)
		}
		players = append(players, p)
	}
	key := func(a, b Player) int { return cmp.Or(cmp.Compare(a.Rating, b.Rating), bytes.Compare(a.Tag, b.Tag)) }
	slices.SortFunc(players, key)
	got := all(t, 7, func(p Page) (*PlayersOfLeagueResult, error) {
		return s.PlayersOfLeague(ctx, "L", p)
	})
	// Items of equal keys come in any order.
	if !slices.IsSortedFunc(got, key) || !slices.Equal(sorted(playerIDs(got)), sorted(playerIDs(players))) {
		t.Fatalf("order of the index: got %v, want the order of %v", got, players)
	}
	for range 20 {
		lo, hi := players[r.IntN(len(players))], players[r.IntN(len(players))]
		between := all(t, 5, func(p Page) (*PlayersRatedBetweenResult, error) {
			return s.PlayersRatedBetween(ctx, PlayersRatedBetweenParams{League: "L", RatingFrom: lo.Rating, RatingTo: hi.Rating}, p)
		})
		var want []string
		for _, p := range players {
			if p.Rating >= lo.Rating && p.Rating <= hi.Rating {
				want = append(want, p.PlayerID)
			}
		}
		if got := playerIDs(between); !slices.Equal(sorted(got), sorted(want)) {
			t.Errorf("rating between %v and %v: got %v, want %v", lo.Rating, hi.Rating, got, want)
		}
		from := all(t, 3, func(p Page) (*PlayersWithRatingFromResult, error) {
			return s.PlayersWithRatingFrom(ctx, PlayersWithRatingFromParams{League: "L", Rating: lo.Rating, Tag: lo.Tag}, p)
		})
		want = want[:0]
		for _, p := range players {
			if p.Rating == lo.Rating && bytes.Compare(p.Tag, lo.Tag) >= 0 {
				want = append(want, p.PlayerID)
			}
		}
		if got := playerIDs(from); !slices.Equal(sorted(got), sorted(want)) {
			t.Errorf("rating %v, tag from %x: got %v, want %v", lo.Rating, lo.Tag, got, want)
		}
	}
}

func playerIDs(ps []Player) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.PlayerID)
	}
	return out
}

func sorted(s []string) []string { return slices.Sorted(slices.Values(s)) }

// TestUpdateKeyAttributes updates attributes of a multi-attribute key: the
// match moves in the index, leaves it when its score is removed, and a
// value no key can hold is refused before any call.
func TestUpdateKeyAttributes(t *testing.T) {
	s, _ := newStore(t)
	ctx := context.Background()
	if err := s.PutMatch(ctx, &Match{MatchID: "u", TournamentID: "t", Region: "r", Round: "q", Score: ptr[int64](1)}); err != nil {
		t.Fatal(err)
	}
	round := func(r string) []string {
		return matchIDs(all(t, 0, func(p Page) (*MatchesOfRoundResult, error) {
			return s.MatchesOfRound(ctx, MatchesOfRoundParams{TournamentID: "t", Region: "r", Round: r}, p)
		}))
	}
	if _, err := s.Replay(ctx, ReplayParams{MatchID: "u", Round: "final", Score: ptr[int64](2)}); err != nil {
		t.Fatal(err)
	}
	if got, was := round("final"), round("q"); !slices.Equal(got, []string{"u"}) || len(was) != 0 {
		t.Errorf("after the replay: final %v, q %v; want [u] and []", got, was)
	}
	var keyErr *KeyError
	if _, err := s.Replay(ctx, ReplayParams{MatchID: "u", Round: "", Score: ptr[int64](2)}); !errors.As(err, &keyErr) || keyErr.Attr != "round" {
		t.Errorf("an empty round, a key attribute of byTournament: %v, want a KeyError of round", err)
	}
	if _, err := s.Forfeit(ctx, "u"); err != nil {
		t.Fatal(err)
	}
	if got := round("final"); len(got) != 0 {
		t.Errorf("without a score: %v, want none", got)
	}
	if m, err := s.GetMatch(ctx, "u"); err != nil || m.Round != "final" || m.Score != nil {
		t.Errorf("GetMatch: %+v, %v", m, err)
	}
}

// TestDrops reads through an index where teams share the key range of the
// matches it selects: the read accepts them (drops: [Team]) and returns
// the matches alone, across pages.
func TestDrops(t *testing.T) {
	s, _ := newStore(t)
	ctx := context.Background()
	for i := range 5 {
		if err := s.PutMatch(ctx, &Match{MatchID: fmt.Sprint("d", i), TournamentID: "t", Region: "r", Round: "q", Score: ptr(int64(i))}); err != nil {
			t.Fatal(err)
		}
		if err := s.PutTeam(ctx, &Team{TeamID: fmt.Sprint("d", i), TournamentID: "t", Region: "r", Round: "q", Score: int64(i)}); err != nil {
			t.Fatal(err)
		}
	}
	got := matchIDs(all(t, 3, func(p Page) (*ScoresAboveResult, error) {
		return s.ScoresAbove(ctx, ScoresAboveParams{TournamentID: "t", Region: "r", Score: 2}, p)
	}))
	if !slices.Equal(got, []string{"d2", "d3", "d4"}) {
		t.Errorf("ScoresAbove 2: %v, want [d2 d3 d4]", got)
	}
}

// TestEmptyKeyValues refuses, before any call, a write of a value no key
// attribute holds: DynamoDB refuses an empty string or binary in a key.
func TestEmptyKeyValues(t *testing.T) {
	s, _ := newStore(t)
	ctx := context.Background()
	var keyErr *KeyError
	if err := s.PutPlayer(ctx, &Player{PlayerID: "p", League: "L", Rating: 1}); !errors.As(err, &keyErr) || keyErr.Attr != "tag" {
		t.Errorf("a player without a tag: %v, want a KeyError of tag", err)
	}
	if err := s.PutPlayer(ctx, &Player{PlayerID: "p", League: "", Rating: 1, Tag: []byte{1}}); !errors.As(err, &keyErr) || keyErr.Attr != "league" {
		t.Errorf("a player without a league: %v, want a KeyError of league", err)
	}
	// Coach holds region, a key attribute of byTournament, and not the
	// index's others: DynamoDB refuses an empty region all the same.
	if err := s.PutCoach(ctx, &Coach{CoachID: "c", Region: ""}); !errors.As(err, &keyErr) || keyErr.Attr != "region" {
		t.Errorf("a coach of an empty region: %v, want a KeyError of region", err)
	}
	if err := s.PutCoach(ctx, &Coach{CoachID: "c", Region: "eu"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.MoveCoach(ctx, MoveCoachParams{CoachID: "c", Region: ""}); !errors.As(err, &keyErr) || keyErr.Attr != "region" {
		t.Errorf("a coach moved to an empty region: %v, want a KeyError of region", err)
	}
	// An empty prefix is no key value either.
	if _, err := s.MatchesOfRoundsFrom(ctx, MatchesOfRoundsFromParams{TournamentID: "t", Region: "r", Round: ""}, Page{}); !errors.As(err, &keyErr) || keyErr.Attr != "round" {
		t.Errorf("an empty round prefix: %v, want a KeyError of round", err)
	}
	if _, err := s.PlayersWithRatingFrom(ctx, PlayersWithRatingFromParams{League: "L", Rating: 1}, Page{}); !errors.As(err, &keyErr) || keyErr.Attr != "tag" {
		t.Errorf("an empty tag bound: %v, want a KeyError of tag", err)
	}
}

// TestChangedTime keys an index on the updated time the Store writes from
// its clock: each write moves the ticket in the index, as DynamoDB holds
// the attribute itself.
func TestChangedTime(t *testing.T) {
	now := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	s, _ := newStore(t, WithClock(func() time.Time { return now }))
	ctx := context.Background()
	for _, id := range []string{"a", "b"} {
		if err := s.PutTicket(ctx, &Ticket{TicketID: id, Desk: "d"}); err != nil {
			t.Fatal(err)
		}
		now = now.Add(time.Hour)
	}
	since := func(at time.Time) []string {
		var ids []string
		for tk, err := range s.ChangedSinceAll(ctx, ChangedSinceParams{Desk: "d", ChangedAt: at}) {
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, tk.TicketID)
		}
		return ids
	}
	if got := since(time.Date(2026, 1, 1, 10, 30, 0, 0, time.UTC)); !slices.Equal(got, []string{"b"}) {
		t.Errorf("changed since 10:30: %v, want [b]", got)
	}
	if _, err := s.NoteTicket(ctx, NoteTicketParams{TicketID: "a", Note: ptr("seen")}); err != nil {
		t.Fatal(err)
	}
	// A time with no fixed-width text (year 10000) would compare below
	// 2026 as text: refused before any call.
	var keyErr *KeyError
	if _, err := s.ChangedSince(ctx, ChangedSinceParams{Desk: "d", ChangedAt: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)}, Page{}); !errors.As(err, &keyErr) || keyErr.Attr != "changedAt" {
		t.Errorf("changed since the year 10000: %v, want a KeyError of changedAt", err)
	}
	// a changed last, at 12:00: first in descending order.
	if got := since(time.Date(2026, 1, 1, 10, 30, 0, 0, time.UTC)); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("after the update: %v, want [a b]", got)
	}
}

// TestExpiredKeyAttribute reads sessions through an index keyed by the
// table's ttl attribute, which DynamoDB refuses in a FilterExpression: the
// expired ones (by the Store's clock) are read and dropped. The clock runs
// two hours ahead, so that DynamoDB Local deletes none of them first.
func TestExpiredKeyAttribute(t *testing.T) {
	now := time.Now().Truncate(time.Second)
	s, _ := newStore(t, WithClock(func() time.Time { return now.Add(2 * time.Hour) }))
	ctx := context.Background()
	for id, in := range map[string]time.Duration{"gone": time.Hour, "soon": 3 * time.Hour, "later": 4 * time.Hour} {
		if err := s.PutSession(ctx, &Session{SessionID: id, Desk: "d", ExpiresAt: now.Add(in)}); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	for se, err := range s.SessionsOfDeskAll(ctx, "d") {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, se.SessionID)
	}
	if !slices.Equal(got, []string{"soon", "later"}) {
		t.Errorf("SessionsOfDesk: %v, want [soon later] (gone has expired)", got)
	}
	res, err := s.SessionsEndingBy(ctx, SessionsEndingByParams{Desk: "d", ExpiresAt: now.Add(3 * time.Hour)}, Page{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Items) != 1 || res.Items[0].SessionID != "soon" {
		t.Errorf("SessionsEndingBy +3h: %+v, want soon alone", res.Items)
	}
}

// TestOptionalBinaryKey sets and removes an optional binary of a
// multi-attribute sort key with an update: the fan joins byBadge, then
// leaves it; nil removes the attribute rather than being refused.
func TestOptionalBinaryKey(t *testing.T) {
	s, _ := newStore(t)
	ctx := context.Background()
	if err := s.PutFan(ctx, &Fan{FanID: "f", Club: "c"}); err != nil {
		t.Fatal(err)
	}
	fans := func() int {
		n := 0
		for _, err := range s.FansOfClubAll(ctx, "c") {
			if err != nil {
				t.Fatal(err)
			}
			n++
		}
		return n
	}
	if n := fans(); n != 0 {
		t.Errorf("a fan without a badge: %d in byBadge, want 0", n)
	}
	if _, err := s.BadgeFan(ctx, BadgeFanParams{FanID: "f", Badge: []byte{7}}); err != nil {
		t.Fatal(err)
	}
	if n := fans(); n != 1 {
		t.Errorf("with a badge: %d in byBadge, want 1", n)
	}
	if _, err := s.BadgeFan(ctx, BadgeFanParams{FanID: "f", Badge: nil}); err != nil {
		t.Fatalf("taking the badge away: %v", err)
	}
	if n := fans(); n != 0 {
		t.Errorf("without the badge again: %d in byBadge, want 0", n)
	}
}

package e2e

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	dyngen "github.com/dyngen/dyngen/generator/runtime"
)

// DynamoDB holds a number's value, not its text: it answers 1000000 for
// a key sent as 1e+06, and 0 for -0. These tests check that every key
// path of a Store compares numbers by value, and refuses before any call
// a number DynamoDB can't store.

// unstorable are floats DynamoDB can't store: not numbers, or outside
// 1e-130 to below 1e126 in magnitude.
var unstorable = []float64{math.NaN(), math.Inf(1), math.Inf(-1), 1e126, -1e126, 1e200, math.MaxFloat64, 1e-131, -1e-131, math.SmallestNonzeroFloat64}

// TestFloatKeysRefused checks that every Gauge method refuses a float key
// DynamoDB can't store with a KeyError, before any call.
func TestFloatKeysRefused(t *testing.T) {
	t.Parallel()
	s := newChecked(t, noCalls{t})
	ctx := t.Context()
	for _, bad := range unstorable {
		calls := map[string]error{}
		_, calls["GetGauge zone"] = s.GetGauge(ctx, GaugeKey{Zone: bad, Level: 1})
		_, calls["GetGauge level"] = s.GetGauge(ctx, GaugeKey{Zone: 1, Level: bad})
		calls["PutGauge"] = s.PutGauge(ctx, &Gauge{Zone: 1, Level: bad})
		calls["DeleteGauge"] = s.DeleteGauge(ctx, GaugeKey{Zone: bad, Level: 1})
		_, calls["GaugesFrom zone"] = s.GaugesFrom(ctx, GaugesFromParams{Zone: bad}, Page{})
		_, calls["GaugesFrom level"] = s.GaugesFrom(ctx, GaugesFromParams{Zone: 1, Level: bad}, Page{})
		_, calls["GaugesBetween"] = s.GaugesBetween(ctx, GaugesBetweenParams{Zone: 1, LevelFrom: 0, LevelTo: bad}, Page{})
		_, calls["GaugesAtLevel level"] = s.GaugesAtLevel(ctx, GaugesAtLevelParams{Level: bad}, Page{})
		_, calls["GaugesAtLevel zone"] = s.GaugesAtLevel(ctx, GaugesAtLevelParams{Level: 1, Zone: bad}, Page{})
		_, calls["GetGauges"] = s.GetGauges(ctx, []GaugeKey{{1, 1}, {1, bad}})
		calls["PutGauges"] = s.PutGauges(ctx, []Gauge{{Zone: 1, Level: 1}, {Zone: bad, Level: 1}})
		calls["DeleteGauges"] = s.DeleteGauges(ctx, []GaugeKey{{bad, 1}})
		_, calls["LabelGauge"] = s.LabelGauge(ctx, LabelGaugeParams{Zone: bad, Level: 1})
		calls["LabelGauges"] = s.LabelGauges(ctx, LabelGaugesParams{Zone: 1, From: 1, To: bad})
		_, calls["MarshalItem"] = (&Gauge{Zone: bad, Level: 1}).MarshalItem()
		for method, err := range calls {
			var ke *KeyError
			if !errors.Is(err, ErrInvalidKey) || !errors.As(err, &ke) || (ke.Attr != "zone" && ke.Attr != "level") {
				t.Errorf("%s with %g: %v, want a KeyError", method, bad, err)
			}
		}
	}
}

// TestFloatKeysBatchGet is the batch read of items keyed by numbers whose
// shortest text has an exponent: each is found.
func TestFloatKeysBatchGet(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t, nil)
	ctx := t.Context()
	levels := []float64{1e6, 1234567, 1e21, 1e-5, -2e7, 0, math.Copysign(0, -1)}
	var keys []GaugeKey
	for _, l := range levels[:len(levels)-1] {
		must(t, s.PutGauge(ctx, &Gauge{Zone: 1e6, Level: l}))
	}
	for _, l := range levels {
		keys = append(keys, GaugeKey{Zone: 1e6, Level: l})
	}
	got, err := s.GetGauges(ctx, keys)
	if err != nil {
		t.Fatal(err)
	}
	// -0 is 0: read once, at its first place.
	if want := levels[:len(levels)-1]; !slices.Equal(gaugeLevels(got), want) {
		t.Errorf("GetGauges read levels %v, want %v", gaugeLevels(got), want)
	}
}

func gaugeLevels(gs []Gauge) []float64 {
	out := make([]float64, len(gs))
	for i, g := range gs {
		out[i] = g.Level
	}
	return out
}

// TestForgedNumberCursor checks that a cursor of a query whose number key
// is out of DynamoDB's range is ErrInvalidCursor before any call, and
// that one whose key is in range, in any text, continues after it.
func TestForgedNumberCursor(t *testing.T) {
	t.Parallel()
	rec := &callRecorder{}
	s, _ := newStore(t, func(c Client) Client { rec.Client = c; return rec })
	ctx := t.Context()
	for _, l := range []float64{-1.5, 0, 150, 1e6} {
		must(t, s.PutGauge(ctx, &Gauge{Zone: 7, Level: l}))
	}
	params := GaugesFromParams{Zone: 7, Level: -100}
	if _, err := s.GaugesFrom(ctx, params, Page{}); err != nil {
		t.Fatal(err)
	}
	in := rec.last()
	for _, level := range []string{"1e200", "1E+126", "-1e126", "1e-131", "123456789012345678901234567890123456789", "1e99999999999"} {
		n := rec.count()
		c := forge("GaugesFrom", in, map[string]types.AttributeValue{"zone": nv("7"), "level": nv(level)})
		if _, err := s.GaugesFrom(ctx, params, Page{Cursor: c}); !errors.Is(err, ErrInvalidCursor) || rec.count() != n {
			t.Errorf("a cursor at level %s: %v after %d calls, want ErrInvalidCursor before any", level, err, rec.count()-n)
		}
	}
	// In range: the page after the key, whatever its text.
	for _, tt := range []struct {
		zone, level string
		want        []float64
	}{
		{"7", "-1.50", []float64{0, 150, 1e6}},
		{"7.0", "-0", []float64{150, 1e6}},
		{"0.7e1", "1.5E+2", []float64{1e6}},
		{"7", "1e+06", nil},
	} {
		c := forge("GaugesFrom", in, map[string]types.AttributeValue{"zone": nv(tt.zone), "level": nv(tt.level)})
		res, err := s.GaugesFrom(ctx, params, Page{Cursor: c})
		if err != nil || !slices.Equal(gaugeLevels(res.Items), tt.want) {
			t.Errorf("a cursor at %s, %s: %v, %v; want %v", tt.zone, tt.level, gaugeLevels(res.Items), err, tt.want)
		}
	}
}

// ---- The property test: random numbers through every key path -------------

// numberValue is a number DynamoDB stores: ±0.digits × 10^exp (digits
// without a leading or trailing zero, "" for zero).
type numberValue struct {
	neg    bool
	digits string
	exp    int
}

// randomValue is a random number DynamoDB stores: zero, the least and
// greatest magnitudes, 38 significant digits, or fewer.
func randomValue(r *rand.Rand) numberValue {
	v := numberValue{neg: r.IntN(2) == 0}
	switch r.IntN(10) {
	case 0:
		return numberValue{}
	case 1:
		v.digits, v.exp = "1", -129 // 1e-130
		return v
	case 2:
		v.digits, v.exp = strings.Repeat("9", 38), 126
		return v
	}
	n := 1 + r.IntN(17)
	if r.IntN(3) == 0 {
		n = 38
	}
	var b strings.Builder
	for i := range n {
		d := byte('0' + r.IntN(10))
		if i == 0 && d == '0' || i == n-1 && d == '0' {
			d = '1' + byte(r.IntN(9))
		}
		b.WriteByte(d)
	}
	v.digits = b.String()
	if r.IntN(2) == 0 {
		v.exp = r.IntN(41) - 20 // near 1
	} else {
		v.exp = r.IntN(126+130) - 129
	}
	return v
}

// text writes v in one of the many texts DynamoDB takes: a point
// anywhere, leading and trailing zeros, an exponent (e or E, signed or
// not) or none.
func (v numberValue) text(r *rand.Rand) string {
	var b strings.Builder
	if v.neg || v.digits == "" && r.IntN(2) == 0 {
		b.WriteByte('-')
	}
	if v.digits == "" {
		b.WriteString([]string{"0", "0.0", "000", "0.", "0e7", "0E-200"}[r.IntN(6)])
		return b.String()
	}
	// digits[:q] "." digits[q:] is 0.digits × 10^q; the exponent makes
	// up the rest.
	q := r.IntN(len(v.digits) + 1)
	if r.IntN(3) == 0 {
		q = v.exp // no exponent, where that is short enough
		if q < -40 || q > 40 {
			q = 0
		}
	}
	b.WriteString(strings.Repeat("0", r.IntN(3)))
	switch {
	case q <= 0:
		b.WriteString("0." + strings.Repeat("0", -q) + v.digits)
	case q >= len(v.digits):
		b.WriteString(v.digits + strings.Repeat("0", q-len(v.digits)))
		if r.IntN(2) == 0 {
			b.WriteString("." + strings.Repeat("0", r.IntN(3)))
		}
	default:
		b.WriteString(v.digits[:q] + "." + v.digits[q:] + strings.Repeat("0", r.IntN(3)))
	}
	if e := v.exp - q; e != 0 || r.IntN(2) == 0 {
		b.WriteByte("eE"[r.IntN(2)])
		if e >= 0 && r.IntN(2) == 0 {
			b.WriteByte('+')
		}
		b.WriteString(strconv.Itoa(e))
	}
	return b.String()
}

// rat is v's value.
func (v numberValue) rat() *big.Rat {
	if v.digits == "" {
		return new(big.Rat)
	}
	r, _ := new(big.Rat).SetString("0." + v.digits + "e" + strconv.Itoa(v.exp))
	if v.neg {
		r.Neg(r)
	}
	return r
}

// float is v's nearest float64, when DynamoDB stores that too.
func (v numberValue) float() (float64, bool) {
	f, _ := v.rat().Float64()
	return f, numberOK(f)
}

// randomFloat is a random float64 DynamoDB stores: of a random number,
// or an edge (zero, negative zero, the least and greatest magnitudes).
func randomFloat(r *rand.Rand) float64 {
	if r.IntN(6) == 0 {
		return []float64{0, math.Copysign(0, -1), 1e-130, -1e-130, math.Nextafter(1e126, 0), math.Nextafter(-1e126, 0)}[r.IntN(6)]
	}
	for {
		if f, ok := randomValue(r).float(); ok {
			return f
		}
	}
}

// randomInt is a random int64: an edge or any.
func randomInt(r *rand.Rand) int64 {
	switch r.IntN(4) {
	case 0:
		return []int64{0, 1, -1, math.MaxInt64, math.MinInt64, math.MaxInt64 - 1, math.MinInt64 + 1, 1e18, -1e18}[r.IntN(9)]
	case 1:
		return r.Int64N(2000) - 1000
	}
	return int64(r.Uint64())
}

// TestNumberKeys runs numberRound with fixed seeds: random numbers through
// every key path of Gauge (float keys), Reading (int keys) and, as text,
// the runtime's batches, cursors and transactions.
func TestNumberKeys(t *testing.T) {
	t.Parallel()
	s, c := newStore(t, nil)
	for seed := range uint64(6) {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) { numberRound(t, s, c, seed) })
	}
}

// FuzzNumberKeys is TestNumberKeys for as long as -fuzztime says, on
// DynamoDB Local (it is not in the CI's fuzzing pass, which runs
// without one): go test ./internal/e2e -run '^$' -fuzz FuzzNumberKeys
// with DYNAMODB_ENDPOINT set (scripts/dynamodb-local start).
func FuzzNumberKeys(f *testing.F) {
	_, c, opts := newStoreOpts(f, nil)
	f.Add(uint64(1000))
	f.Fuzz(func(t *testing.T, seed uint64) {
		numberRound(t, New(c, opts...), c, seed)
	})
}

// numberRound puts random numbers through every key path, in random
// zones and a random device; each part deletes what it wrote.
func numberRound(t *testing.T, s *Store, c *dynamodb.Client, seed uint64) {
	r := rand.New(rand.NewPCG(seed, 17))
	gaugeKeys(t, s, r, randomFloat(r))
	readingKeys(t, s, r, randomInt(r))
	textKeys(t, s, c, r, randomFloat(r))
}

// gaugeKeys round-trips random floats as Gauge keys: put, get, batch
// put, get and delete (with -0 beside 0), the queries walked a page of
// one to three at a time, and a transaction.
func gaugeKeys(t *testing.T, s *Store, r *rand.Rand, zone float64) {
	ctx := t.Context()
	levels := []float64{0}
	seen := map[float64]bool{0: true}
	for len(levels) < 12 {
		if l := randomFloat(r); !seen[l] {
			seen[l] = true
			levels = append(levels, l)
		}
	}
	r.Shuffle(len(levels), func(i, j int) { levels[i], levels[j] = levels[j], levels[i] })
	var batch []Gauge
	for i, l := range levels {
		g := Gauge{Zone: zone, Level: l}
		if i%2 == 0 {
			must(t, s.PutGauge(ctx, &g))
		} else {
			batch = append(batch, g)
		}
	}
	must(t, s.PutGauges(ctx, batch))
	for _, l := range levels {
		g, err := s.GetGauge(ctx, GaugeKey{Zone: zone, Level: l})
		if err != nil || g.Zone != zone || g.Level != l {
			t.Fatalf("GetGauge(%g, %g) = %+v, %v", zone, l, g, err)
		}
	}
	// Each key once, and 0 again as -0.
	keys := []GaugeKey{{zone, math.Copysign(0, -1)}}
	for _, l := range levels {
		keys = append(keys, GaugeKey{zone, l})
	}
	got, err := s.GetGauges(ctx, keys)
	want := append([]float64{0}, slices.DeleteFunc(slices.Clone(levels), func(l float64) bool { return l == 0 })...)
	if err != nil || !slices.Equal(gaugeLevels(got), want) {
		t.Fatalf("GetGauges: %v, %v; want %v", gaugeLevels(got), err, want)
	}
	sorted := slices.Sorted(slices.Values(levels))
	lo, hi := sorted[r.IntN(len(sorted))], sorted[r.IntN(len(sorted))]
	if lo > hi {
		lo, hi = hi, lo
	}
	from := walkGauges(t, func(p Page) ([]Gauge, Cursor, error) {
		res, err := s.GaugesFrom(ctx, GaugesFromParams{Zone: zone, Level: lo}, p)
		return resultOf(res, err)
	}, r)
	if want := slices.DeleteFunc(slices.Clone(sorted), func(l float64) bool { return l < lo }); !slices.Equal(from, want) {
		t.Errorf("GaugesFrom(%g, >= %g) walked %v, want %v", zone, lo, from, want)
	}
	between := walkGauges(t, func(p Page) ([]Gauge, Cursor, error) {
		res, err := s.GaugesBetween(ctx, GaugesBetweenParams{Zone: zone, LevelFrom: lo, LevelTo: hi}, p)
		return resultOf(res, err)
	}, r)
	if want := slices.DeleteFunc(slices.Clone(sorted), func(l float64) bool { return l < lo || l > hi }); !slices.Equal(between, want) {
		t.Errorf("GaugesBetween(%g, %g..%g) walked %v, want %v", zone, lo, hi, between, want)
	}
	// The index keyed by {level}, a template of a key of type N.
	l := levels[r.IntN(len(levels))]
	var zones []float64
	for p := (Page{Limit: 1}); ; {
		res, err := s.GaugesAtLevel(ctx, GaugesAtLevelParams{Level: l, Zone: -1e125}, p)
		if err != nil {
			t.Fatalf("GaugesAtLevel(%g): %v", l, err)
		}
		for _, g := range res.Items {
			if g.Level != l {
				t.Errorf("GaugesAtLevel(%g) read level %g", l, g.Level)
			}
			zones = append(zones, g.Zone)
		}
		if res.Next == "" {
			break
		}
		p.Cursor = res.Next
	}
	if !slices.Contains(zones, zone) || !slices.IsSorted(zones) {
		t.Errorf("GaugesAtLevel(%g) read zones %v, want %g among them, in order", l, zones, zone)
	}
	// A transaction: two levels of one value (0 and -0) are one item;
	// two others are labelled together.
	label := "seen"
	err = s.LabelGauges(ctx, LabelGaugesParams{Zone: zone, From: 0, To: math.Copysign(0, -1), Label: &label})
	if !errors.Is(err, ErrSameItem) {
		t.Errorf("LabelGauges(0, -0): %v, want ErrSameItem", err)
	}
	a, b := levels[0], levels[1]
	must(t, s.LabelGauges(ctx, LabelGaugesParams{Zone: zone, From: a, To: b, Label: &label}))
	for _, l := range []float64{a, b} {
		if g, err := s.GetGauge(ctx, GaugeKey{zone, l}); err != nil || g.Label == nil || *g.Label != label {
			t.Errorf("GetGauge(%g) after LabelGauges: %+v, %v", l, g, err)
		}
	}
	// An update finds the item by its key, and gives it back.
	if g, err := s.LabelGauge(ctx, LabelGaugeParams{Zone: zone, Level: b}); err != nil || g.Level != b || g.Label != nil {
		t.Errorf("LabelGauge(%g, nil): %+v, %v", b, g, err)
	}
	must(t, s.DeleteGauge(ctx, GaugeKey{zone, levels[0]}))
	must(t, s.DeleteGauges(ctx, keys))
	if got, err := s.GetGauges(ctx, keys); err != nil || len(got) != 0 {
		t.Errorf("GetGauges after DeleteGauges: %v, %v", gaugeLevels(got), err)
	}
}

// resultOf is a page of a Gauge query, for walkGauges: the result types
// of the queries of one item type are one type, dyngen.Result[Gauge].
func resultOf(res *GaugesFromResult, err error) ([]Gauge, Cursor, error) {
	if res == nil {
		return nil, "", err
	}
	return res.Items, res.Next, err
}

// walkGauges reads every page of a query, of one to three items each,
// and returns the levels read.
func walkGauges(t *testing.T, page func(Page) ([]Gauge, Cursor, error), r *rand.Rand) []float64 {
	t.Helper()
	var out []float64
	for p := (Page{Limit: 1 + r.IntN(3)}); ; p.Limit = 1 + r.IntN(3) {
		items, next, err := page(p)
		if err != nil {
			t.Fatalf("a page from cursor %q: %v", p.Cursor, err)
		}
		out = append(out, gaugeLevels(items)...)
		if next == "" {
			return out
		}
		p.Cursor = next
	}
}

// readingKeys round-trips random ints as Reading keys: save, get, batch
// put, get and delete, and the queries walked a page at a time.
func readingKeys(t *testing.T, s *Store, r *rand.Rand, device int64) {
	ctx := t.Context()
	var seqs []int64
	for len(seqs) < 10 {
		if n := randomInt(r); !slices.Contains(seqs, n) {
			seqs = append(seqs, n)
		}
	}
	var batch []Reading
	for i, n := range seqs {
		rd := Reading{DeviceID: device, Seq: n, Value: randomFloat(r)}
		if i%2 == 0 {
			must(t, s.SaveReading(ctx, &rd))
		} else {
			batch = append(batch, rd)
		}
	}
	must(t, s.PutReadings(ctx, batch))
	keys := make([]ReadingKey, len(seqs))
	for i, n := range seqs {
		keys[i] = ReadingKey{device, n}
		if rd, err := s.GetReading(ctx, keys[i]); err != nil || rd.Seq != n {
			t.Fatalf("GetReading(%d, %d) = %+v, %v", device, n, rd, err)
		}
	}
	got, err := s.GetReadings(ctx, append(keys, keys[0]))
	if err != nil || len(got) != len(seqs) {
		t.Fatalf("GetReadings: %d, %v; want %d", len(got), err, len(seqs))
	}
	sorted := slices.Sorted(slices.Values(seqs))
	lo := sorted[r.IntN(len(sorted))]
	var from []int64
	for p := (Page{Limit: 1 + r.IntN(3)}); ; {
		res, err := s.ReadingsFrom(ctx, ReadingsFromParams{DeviceID: device, Seq: lo}, p)
		if err != nil {
			t.Fatal(err)
		}
		for _, rd := range res.Items {
			from = append(from, rd.Seq)
		}
		if res.Next == "" {
			break
		}
		p.Cursor = res.Next
	}
	if want := slices.DeleteFunc(slices.Clone(sorted), func(n int64) bool { return n < lo }); !slices.Equal(from, want) {
		t.Errorf("ReadingsFrom(%d, >= %d) walked %v, want %v", device, lo, from, want)
	}
	must(t, s.DeleteReadings(ctx, keys))
	if got, err := s.GetReadings(ctx, keys); err != nil || len(got) != 0 {
		t.Errorf("GetReadings after DeleteReadings: %d, %v", len(got), err)
	}
}

// textKeys puts numbers of up to 38 digits, each in random texts, through
// the runtime's key paths on the Gauges table: DynamoDB finds an item by
// any text of its key and gives back the text numberText makes; the
// batches find every item in whatever text they send it; a query's
// cursor, in any text, continues after its key in DynamoDB's order; and
// the keys a transaction's steps may not share are one item exactly when
// DynamoDB says so.
func textKeys(t *testing.T, s *Store, c *dynamodb.Client, r *rand.Rand, zone float64) {
	ctx := t.Context()
	table := s.gaugesTable
	zoneValue := numberValue{neg: zone < 0}
	zoneValue.digits, zoneValue.exp = floatDigits(zone)
	key := func(level string) map[string]types.AttributeValue {
		return map[string]types.AttributeValue{"zone": nv(zoneValue.text(r)), "level": nv(level)}
	}
	var values []numberValue
	seen := map[string]bool{}
	for len(values) < 10 {
		v := randomValue(r)
		if text, _ := dyngen.NumberText(v.text(r)); !seen[text] {
			seen[text] = true
			values = append(values, v)
		}
		if r.IntN(3) == 0 && v.digits != "" && len(v.digits) < 38 {
			// A neighbour, one in the last of 38 digits away.
			n := numberValue{neg: v.neg, digits: v.digits + strings.Repeat("0", 37-len(v.digits)) + "1", exp: v.exp}
			if text, _ := dyngen.NumberText(n.text(r)); !seen[text] {
				seen[text] = true
				values = append(values, n)
			}
		}
	}
	for _, v := range values {
		item := key(v.text(r))
		item["_type"] = sv("Gauge")
		if _, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: &table, Item: item}); err != nil {
			t.Fatalf("PutItem of level %s: %v", item["level"].(*types.AttributeValueMemberN).Value, err)
		}
		k := key(v.text(r))
		out, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: &table, Key: k, ConsistentRead: aws.Bool(true)})
		if err != nil || out.Item == nil {
			t.Fatalf("GetItem of level %s: %v, %v", k["level"].(*types.AttributeValueMemberN).Value, out, err)
		}
		text, ok := dyngen.NumberText(k["level"].(*types.AttributeValueMemberN).Value)
		if got := out.Item["level"].(*types.AttributeValueMemberN).Value; !ok || got != text {
			t.Errorf("DynamoDB gives level %s back as %q, numberText %q", k["level"].(*types.AttributeValueMemberN).Value, got, text)
		}
	}
	call := dyngen.BatchCall{Method: "Texts", Table: table, Key: []string{"zone", "level"}}
	raw := func(item map[string]types.AttributeValue) (map[string]types.AttributeValue, error) { return item, nil }
	// Every key in a new text, and some twice in two.
	var keys []map[string]types.AttributeValue
	for _, v := range values {
		keys = append(keys, key(v.text(r)))
		if r.IntN(3) == 0 {
			keys = append(keys, key(v.text(r)))
		}
	}
	items, err := dyngen.BatchGet(ctx, c, call, keys, true, "", nil, raw)
	if err != nil || len(items) != len(values) {
		t.Fatalf("batchGet of %d numbers in other texts: %d items, %v", len(values), len(items), err)
	}
	// DynamoDB's order is compareNumbers' and big.Rat's; a cursor at
	// any item the query reads, in another text, continues after it.
	slices.SortFunc(values, func(a, b numberValue) int { return a.rat().Cmp(b.rat()) })
	for i := 1; i < len(values); i++ {
		if c, ok := dyngen.CompareNumbers(values[i-1].text(r), values[i].text(r)); !ok || c >= 0 {
			t.Errorf("compareNumbers of %v and %v: %d, %v", values[i-1], values[i], c, ok)
		}
	}
	bound := math.Nextafter(-1e126, 0) // the least float DynamoDB stores
	var read []numberValue             // the values at or above it, in order
	var order []float64
	for _, v := range values {
		if f, _ := v.rat().Float64(); v.rat().Cmp(new(big.Rat).SetFloat64(bound)) >= 0 {
			read, order = append(read, v), append(order, f)
		}
	}
	rec := &callRecorder{Client: c}
	qs := New(rec, WithGaugesTable(table))
	params := GaugesFromParams{Zone: zone, Level: bound}
	first, err := qs.GaugesFrom(ctx, params, Page{Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(first.Items) != 1 || first.Items[0].Level != order[0] {
		t.Errorf("the first page: %v, want %g", gaugeLevels(first.Items), order[0])
	}
	in := rec.last()
	i := r.IntN(len(read))
	cur := forge("GaugesFrom", in, key(read[i].text(r)))
	var rest []float64
	for p := (Page{Cursor: cur}); ; {
		res, err := qs.GaugesFrom(ctx, params, p)
		if err != nil {
			t.Fatalf("GaugesFrom from a cursor at %v: %v", read[i], err)
		}
		rest = append(rest, gaugeLevels(res.Items)...)
		if res.Next == "" {
			break
		}
		p.Cursor = res.Next
	}
	if want := order[i+1:]; !slices.Equal(rest, want) {
		t.Errorf("GaugesFrom from a cursor at %v: %v, want %v", read[i], rest, want)
	}
	// Two steps at one number in two texts address one item, as the
	// reads above found it by any text: ErrSameItem before the call.
	// (DynamoDB Local refuses two steps on one item only when their keys
	// are one text: it would apply both.) At two numbers, even
	// neighbours, the steps address two items, and DynamoDB takes them.
	for j, v := range values {
		w := values[(j+1)%len(values)]
		if r.IntN(2) == 0 {
			w = v
		}
		items := []types.TransactWriteItem{labelStep(table, key(v.text(r))), labelStep(table, key(w.text(r)))}
		same := errors.Is(labelGaugesTx.DistinctItems(items), ErrSameItem)
		if same != (w.rat().Cmp(v.rat()) == 0) {
			t.Errorf("steps at %v and %v: ErrSameItem %v", v, w, same)
		}
		if !same {
			if _, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: items}); err != nil {
				t.Errorf("steps at %v and %v: %v", v, w, err)
			}
		}
	}
	// Deleted in yet other texts, some twice.
	var reqs []types.WriteRequest
	for _, k := range keys {
		k["level"] = nv(reparse(r, k["level"].(*types.AttributeValueMemberN).Value))
		reqs = append(reqs, types.WriteRequest{DeleteRequest: &types.DeleteRequest{Key: k}})
	}
	if err := dyngen.BatchWrite(ctx, c, call, "deleted", reqs); err != nil {
		t.Fatal(err)
	}
	if items, err := dyngen.BatchGet(ctx, c, call, keys, true, "", nil, raw); err != nil || len(items) != 0 {
		t.Errorf("batchGet after batchWrite deleted them: %d items, %v", len(items), err)
	}
}

// labelStep is the update of a transaction that labels the Gauge at key.
func labelStep(table string, key map[string]types.AttributeValue) types.TransactWriteItem {
	return types.TransactWriteItem{Update: &types.Update{
		TableName:                 &table,
		Key:                       key,
		UpdateExpression:          aws.String("SET #l = :l"),
		ExpressionAttributeNames:  map[string]string{"#l": "label"},
		ExpressionAttributeValues: map[string]types.AttributeValue{":l": sv("x")},
	}}
}

// reparse writes the number s in another random text.
func reparse(r *rand.Rand, s string) string {
	x, ok := new(big.Rat).SetString(s)
	if !ok {
		return s
	}
	v := numberValue{neg: x.Sign() < 0}
	text, _ := dyngen.NumberText(s)
	v.digits, v.exp = decimalDigits(strings.TrimPrefix(text, "-"))
	return v.text(r)
}

// floatDigits are the significant digits and exponent of f's shortest
// decimal, as numberValue holds them.
func floatDigits(f float64) (string, int) {
	return decimalDigits(strconv.FormatFloat(math.Abs(f), 'f', -1, 64))
}

// decimalDigits are the significant digits and exponent of a plain
// non-negative decimal ("120.5" is 0.1205e3).
func decimalDigits(s string) (string, int) {
	ip, fp, _ := strings.Cut(s, ".")
	all := strings.TrimLeft(ip+fp, "0")
	exp := len(strings.TrimLeft(ip, "0"))
	if exp == 0 {
		exp = -(len(fp) - len(strings.TrimLeft(fp, "0")))
	}
	return strings.TrimRight(all, "0"), exp
}

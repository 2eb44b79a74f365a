package runtime

import (
	"math"
	"math/big"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/dyngen/dyngen/internal/model"
)

// The numbers of the tests, at the edges of what DynamoDB stores.
var (
	digits38   = "12345678901234567890123456789012345678"
	least      = "0." + strings.Repeat("0", 129) + "1"             // 1e-130
	greatest   = strings.Repeat("9", 38) + strings.Repeat("0", 88) // 9.99...e125
	thirtyNine = "123456789012345678901234567890123456789"
)

func TestNumberText(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"0", "0"}, {"-0", "0"}, {"+0", "0"}, {"0.0", "0"}, {"-0.000", "0"}, {"0e500", "0"}, {"-0E-999", "0"}, {"000", "0"}, {".0", "0"}, {"0.", "0"},
		{"1", "1"}, {"+5", "5"}, {"5.", "5"}, {".5", "0.5"}, {"0001", "1"}, {"1.50", "1.5"}, {"100", "100"}, {"-100.00", "-100"},
		{"1e+06", "1000000"}, {"1E6", "1000000"}, {"1e6", "1000000"}, {"1234567", "1234567"}, {"1e21", "1000000000000000000000"},
		{"1e-5", "0.00001"}, {"1e-05", "0.00001"}, {"-2e7", "-20000000"}, {"-2.5e-3", "-0.0025"}, {"00.00100e+0003", "1"},
		{"1e0005", "100000"}, {"1e-0", "1"}, {"12.5e1", "125"}, {"0.125e2", "12.5"}, {"1.23456e2", "123.456"},
		{digits38, digits38}, {"-" + digits38, "-" + digits38}, {digits38 + "00000", digits38 + "00000"},
		{"1.2345678901234567890123456789012345678e37", digits38},
		{"0." + digits38 + "000", "0." + digits38},
		{"1e-130", least}, {"1E-130", least}, {"-1e-130", "-" + least}, {"0.1e-129", least}, {"10e-131", least},
		{"1.5e-130", "0." + strings.Repeat("0", 129) + "15"},
		{"9.9999999999999999999999999999999999999E+125", greatest}, {"1E+125", "1" + strings.Repeat("0", 125)},
		{"1" + strings.Repeat("0", 125), "1" + strings.Repeat("0", 125)},
		{"1" + strings.Repeat("0", 200) + "e-100", "1" + strings.Repeat("0", 100)},
	} {
		got, ok := NumberText(tt.in)
		if !ok || got != tt.want {
			t.Errorf("numberText(%q) = %q, %v; want %q", tt.in, got, ok, tt.want)
		}
	}
	for _, in := range []string{
		"", "-", "+", ".", "-.", "e5", "1e", "1e+", "1e-", "1.2.3", "1..2", "--1", "+-1", "1-", " 5", "5 ", "1 000", "1_000", "0x10", "1/2",
		"NaN", "Infinity", "-Inf", "inf", "1e5.5", "1e+-5", "1f", "١", // an Arabic-Indic one
		"1e126", "1E+126", "-1e126", "10e125", "1e200", "-1e200", "1e-131", "0.9e-130", "1e-200",
		"1e99999999999999999999", "1e-99999999999999999999",
		thirtyNine, "-" + thirtyNine, "1." + strings.Repeat("0", 37) + "1", "9.99999999999999999999999999999999999999E+125",
	} {
		if got, ok := NumberText(in); ok {
			t.Errorf("numberText(%q) = %q, a number; want none DynamoDB stores", in, got)
		}
	}
}

func TestNumberTextOfItsOwn(t *testing.T) {
	// Text already in DynamoDB's form is returned as it is, without a
	// copy.
	for _, s := range []string{"0", "1000000", "-0.00001", "-1.5", "12.25", digits38, "0." + digits38, "-" + least, least, greatest} {
		if !plainNumber(s) {
			t.Errorf("plainNumber(%q) = false", s)
		}
		got, ok := NumberText(s)
		if !ok || got != s {
			t.Errorf("numberText(%q) = %q, %v", s, got, ok)
		}
		if n := testing.AllocsPerRun(10, func() { NumberText(s) }); n != 0 {
			t.Errorf("numberText(%q) allocates %v times", s, n)
		}
	}
}

func TestNumberCompare(t *testing.T) {
	// Equal pairs: one number in two texts.
	for _, p := range [][2]string{
		{"0", "-0"}, {"0", "0.0"}, {"-0", "0e10"}, {"0", "-0.000e-3"},
		{"1e+06", "1000000"}, {"1E6", "1000000.000"}, {"1e21", "1000000000000000000000"},
		{"1e-5", "0.00001"}, {"-2e7", "-20000000"}, {"1234567", "1.234567e6"}, {"1.50", "1.5"}, {"+5", "5"},
		{digits38, "1.2345678901234567890123456789012345678E+37"}, {digits38 + "0", "1.2345678901234567890123456789012345678e38"},
		{"1e-130", least}, {"-1E-130", "-" + least}, {"9.9999999999999999999999999999999999999E+125", greatest},
		{"1E+125", "10e124"},
	} {
		c, ok := CompareNumbers(p[0], p[1])
		if !ok || c != 0 {
			t.Errorf("compareNumbers(%q, %q) = %d, %v; want one number", p[0], p[1], c, ok)
		}
		if !sameNumber(p[0], p[1]) || !sameNumber(p[1], p[0]) {
			t.Errorf("sameNumber(%q, %q) = false", p[0], p[1])
		}
	}
	// Ordered pairs: the first is the lesser. Their texts sort the other
	// way round, or not at all.
	for _, p := range [][2]string{
		{"-1", "0"}, {"0", "1e-130"}, {"-1e-130", "0"}, {"-1e-130", "1e-130"}, {"9", "10"}, {"100", "1e3"}, {"2", "10"},
		{"-10", "-9"}, {"-1e6", "-999999"}, {"0.1", "0.11"}, {"0.11", "0.2"}, {"1e-5", "1e-4"}, {"1.5e-130", "2e-130"},
		{"12345678901234567890123456789012345677", digits38}, {digits38, "12345678901234567890123456789012345679"},
		{"1.2345678901234567890123456789012345678", "1.2345678901234567890123456789012345679"},
		{"-" + greatest, "-1e125"}, {"1e125", greatest}, {"1e-129", "1e-128"}, {"-9e125", "9e-130"},
	} {
		if c, ok := CompareNumbers(p[0], p[1]); !ok || c >= 0 {
			t.Errorf("compareNumbers(%q, %q) = %d, %v; want < 0", p[0], p[1], c, ok)
		}
		if c, ok := CompareNumbers(p[1], p[0]); !ok || c <= 0 {
			t.Errorf("compareNumbers(%q, %q) = %d, %v; want > 0", p[1], p[0], c, ok)
		}
		if sameNumber(p[0], p[1]) {
			t.Errorf("sameNumber(%q, %q) = true", p[0], p[1])
		}
	}
	// What DynamoDB does not store compares with nothing; as a key's
	// value it is only the same as its own text.
	for _, p := range [][2]string{{"1E+126", "1E+126"}, {"1e126", "1"}, {"1", "1e-131"}, {thirtyNine, thirtyNine}, {"NaN", "0"}, {"", "0"}} {
		if c, ok := CompareNumbers(p[0], p[1]); ok {
			t.Errorf("compareNumbers(%q, %q) = %d, true; want refused", p[0], p[1], c)
		}
	}
	if !sameNumber("1e200", "1e200") || sameNumber("1e200", "1e+200") || sameNumber("NaN", "0") {
		t.Errorf("sameNumber of numbers DynamoDB does not store: not their text's equality")
	}
}

func TestFormatFloat(t *testing.T) {
	for _, tt := range []struct {
		f    float64
		want string
	}{
		{0, "0"}, {math.Copysign(0, -1), "0"}, {1, "1"}, {-1.5, "-1.5"}, {1e6, "1000000"}, {1234567, "1234567"},
		{1e21, "1000000000000000000000"}, {1e-5, "0.00001"}, {-2e7, "-20000000"}, {0.1, "0.1"}, {1.0 / 3, "0.3333333333333333"},
		{1e-130, least}, {1e125, "1" + strings.Repeat("0", 125)},
		{math.MaxInt64, "9223372036854776000"}, {math.Nextafter(1e126, 0), "9999999999999998" + strings.Repeat("0", 110)},
	} {
		got := FormatFloat(tt.f)
		if got != tt.want {
			t.Errorf("formatFloat(%g) = %q, want %q", tt.f, got, tt.want)
		}
		if text, ok := NumberText(got); !ok || text != got {
			t.Errorf("formatFloat(%g) = %q, not in DynamoDB's form %q (%v)", tt.f, got, text, ok)
		}
		if back, err := strconv.ParseFloat(got, 64); err != nil || back != tt.f {
			t.Errorf("formatFloat(%g) = %q reads back as %g, %v", tt.f, got, back, err)
		}
	}
}

func TestKeyFloat(t *testing.T) {
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), 1e126, -1e126, 1e200, math.MaxFloat64, 1e-131, -1e-131, 5e-324, math.SmallestNonzeroFloat64} {
		_, err := KeyFloat("level", f)
		checkKeyError(t, err, "level")
	}
	for _, f := range []float64{0, math.Copysign(0, -1), 1e-130, -1e-130, math.Nextafter(1e126, 0), math.Nextafter(-1e126, 0), 1e6, 0.5} {
		got, err := KeyFloat("level", f)
		if err != nil || got != FormatFloat(f) {
			t.Errorf("keyFloat(%g) = %q, %v; want %q", f, got, err, FormatFloat(f))
		}
	}
}

// numberSyntax is the syntax parseNumber takes, with an exponent of at
// most four digits after its zeros, which big.Rat reads cheaply.
var numberSyntax = regexp.MustCompile(`^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?0*[0-9]{1,4})?$`)

// ratOf is the value of s as big.Rat reads it, when s has numberSyntax.
func ratOf(s string) (*big.Rat, bool) {
	if !numberSyntax.MatchString(s) {
		return nil, false
	}
	return new(big.Rat).SetString(strings.TrimPrefix(s, "+"))
}

// significant is the number of significant digits of s, of numberSyntax.
func significant(s string) int {
	mant, _, _ := strings.Cut(strings.ToLower(strings.TrimLeft(s, "+-")), "e")
	d := strings.Trim(strings.Replace(mant, ".", "", 1), "0")
	return len(d)
}

var (
	ratLeast = new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Exp(big.NewInt(10), big.NewInt(130), nil))
	ratLimit = new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(126), nil))
)

// dynamoText is DynamoDB's own form of a number: no exponent, no sign on
// zero, no leading zero but the one before a point, no trailing zero
// after one.
var dynamoText = regexp.MustCompile(`^(0|-?[1-9][0-9]*|-?(0|[1-9][0-9]*)\.[0-9]*[1-9])$`)

// checkNumber checks NumberText and CompareNumbers on a and b, and
// FormatFloat on f, against big.Rat.
func checkNumber(t *testing.T, a, b string, f float64) {
	t.Helper()
	for _, s := range []string{a, b} {
		text, ok := NumberText(s)
		r, isNum := ratOf(s)
		if isNum {
			abs := new(big.Rat).Abs(r)
			want := significant(s) <= maxNumberDigits && (r.Sign() == 0 || abs.Cmp(ratLeast) >= 0 && abs.Cmp(ratLimit) < 0)
			if ok != want {
				t.Fatalf("numberText(%q) ok = %v, want %v", s, ok, want)
			}
		} else if ok && len(s) < 1000 && numberSyntax.MatchString(text) {
			// Taken, with an exponent too long for the oracle: its text
			// must still be DynamoDB's form.
			t.Logf("%q: beyond the oracle", s)
		}
		if plainNumber(s) != (ok && text == s) {
			t.Fatalf("plainNumber(%q) = %v, numberText %q, %v", s, plainNumber(s), text, ok)
		}
		if !ok {
			continue
		}
		if !dynamoText.MatchString(text) {
			t.Fatalf("numberText(%q) = %q, not in DynamoDB's form", s, text)
		}
		if again, ok := NumberText(text); !ok || again != text {
			t.Fatalf("numberText(%q) = %q, then %q, %v", s, text, again, ok)
		}
		if isNum {
			if got, _ := new(big.Rat).SetString(text); got.Cmp(r) != 0 {
				t.Fatalf("numberText(%q) = %q, of another value", s, text)
			}
		}
	}
	ra, oka := ratOf(a)
	rb, okb := ratOf(b)
	c, ok := CompareNumbers(a, b)
	_, va := NumberText(a)
	_, vb := NumberText(b)
	if ok != (va && vb) {
		t.Fatalf("compareNumbers(%q, %q) ok = %v, numbers %v and %v", a, b, ok, va, vb)
	}
	if ok && oka && okb && c != ra.Cmp(rb) {
		t.Fatalf("compareNumbers(%q, %q) = %d, want %d", a, b, c, ra.Cmp(rb))
	}
	if ok && sameNumber(a, b) != (c == 0) {
		t.Fatalf("sameNumber(%q, %q) = %v, compare %d", a, b, !(c == 0), c)
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return
	}
	text := FormatFloat(f)
	back, err := strconv.ParseFloat(text, 64)
	if err != nil || back != f {
		t.Fatalf("formatFloat(%g) = %q reads back as %g, %v", f, text, back, err)
	}
	canon, ok := NumberText(text)
	if ok != StorableFloat(f) {
		t.Fatalf("formatFloat(%g) = %q: a number DynamoDB stores %v, storableFloat %v", f, text, ok, StorableFloat(f))
	}
	if ok && canon != text {
		t.Fatalf("formatFloat(%g) = %q, not DynamoDB's %q", f, text, canon)
	}
}

// randomNumber writes a random number in one of the many texts DynamoDB
// takes: a sign, leading and trailing zeros, a point anywhere, an
// exponent, up to 40 significant digits, from below the least to above
// the greatest magnitude.
func randomNumber(r *rand.Rand) string {
	var b strings.Builder
	switch r.IntN(4) {
	case 0:
		b.WriteByte('-')
	case 1:
		if r.IntN(4) == 0 {
			b.WriteByte('+')
		}
	}
	n := r.IntN(41)
	if r.IntN(8) == 0 {
		n = 0 // zero
	}
	digits := make([]byte, n)
	for i := range digits {
		digits[i] = byte('0' + r.IntN(10))
	}
	if n > 0 && digits[0] == '0' {
		digits[0] = '1'
	}
	lead, trail := r.IntN(4), r.IntN(4)
	mant := strings.Repeat("0", lead) + string(digits) + strings.Repeat("0", trail)
	if mant == "" {
		mant = "0"
	}
	if p := r.IntN(len(mant) + 2); p <= len(mant) {
		mant = mant[:p] + "." + mant[p:]
		if mant == "." {
			mant = "0."
		}
	}
	b.WriteString(mant)
	if r.IntN(3) > 0 {
		b.WriteByte("eE"[r.IntN(2)])
		if s := r.IntN(3); s < 2 {
			b.WriteByte("+-"[s])
		}
		b.WriteString(strconv.Itoa(r.IntN(300) - 160))
	}
	s := b.String()
	return strings.Replace(s, "e-", "e", strings.Count(s, "e--")) // no "--"
}

// randomFloat is a random float64, of any exponent, at times an edge.
func randomFloat(r *rand.Rand) float64 {
	switch r.IntN(8) {
	case 0:
		return []float64{0, math.Copysign(0, -1), 1e-130, 1e126, 1e-131, math.Nextafter(1e126, 0), math.MaxFloat64, math.SmallestNonzeroFloat64}[r.IntN(8)]
	case 1:
		f, _ := strconv.ParseFloat(randomNumber(r), 64)
		return f
	}
	return math.Float64frombits(r.Uint64())
}

// The model writes a float constant of the spec as the generated code
// writes a float: one text per number.
func TestFloatTextAsModel(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 8))
	for range 5000 {
		f := randomFloat(r)
		if math.IsNaN(f) {
			continue
		}
		if model.FloatStored(f) != StorableFloat(f) || model.FloatStored(f) && model.FloatText(f) != FormatFloat(f) {
			t.Fatalf("%g: the model's %q (stored %v), the runtime's %q (stored %v)", f, model.FloatText(f), model.FloatStored(f), FormatFloat(f), StorableFloat(f))
		}
	}
}

func TestNumbersAgainstBigRat(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 3))
	for range 20000 {
		checkNumber(t, randomNumber(r), randomNumber(r), randomFloat(r))
	}
}

// FuzzNumbers checks the numbers' parser, comparison and float format
// against big.Rat (the CI runs it briefly; see .ci/run).
func FuzzNumbers(f *testing.F) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		f.Add(randomNumber(r), randomNumber(r), randomFloat(r))
	}
	f.Add("1e+06", "1000000", 1e6)
	f.Add("-0", "0.0", math.Copysign(0, -1))
	f.Add(digits38, thirtyNine, 1e-130)
	f.Add("1E+126", least, 1e126)
	f.Fuzz(func(t *testing.T, a, b string, x float64) {
		checkNumber(t, a, b, x)
	})
}

package keylang

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// TimeLayout is the layout of an encoded Time (always UTC, nine fraction
// digits).
const TimeLayout = "2006-01-02T15:04:05.000000000Z"

// DateLayout is the layout of an encoded Date.
const DateLayout = "2006-01-02"

// EncodeInt writes n in its order-preserving fixed-width form: n >= 0 as 19
// zero-padded decimal digits, n < 0 as "-" and the 19 zero-padded digits of
// n - math.MinInt64. "-" sorts before every digit, so the byte order of the
// encodings is the numeric order.
func EncodeInt(n int64) string {
	if n >= 0 {
		return fmt.Sprintf("%019d", n)
	}
	return fmt.Sprintf("-%019d", n-math.MinInt64)
}

// DecodeInt reverses EncodeInt. It rejects every string EncodeInt cannot
// produce.
func DecodeInt(s string) (int64, error) {
	neg := strings.HasPrefix(s, "-")
	body := strings.TrimPrefix(s, "-")
	if len(body) != 19 || strings.Trim(body, "0123456789") != "" || body > maxIntDigits {
		return 0, fmt.Errorf("keylang: %q is not an encoded int", s)
	}
	n, err := strconv.ParseInt(body, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("keylang: %q is not an encoded int", s)
	}
	if neg {
		return n + math.MinInt64, nil
	}
	return n, nil
}

// EncodeTime writes t in UTC with layout TimeLayout. Years outside
// 0000-9999 are an error.
func EncodeTime(t time.Time) (string, error) {
	u := t.UTC()
	if y := u.Year(); y < 0 || y > 9999 {
		return "", fmt.Errorf("keylang: year %d of %v is outside 0000-9999", y, t)
	}
	return u.Format(TimeLayout), nil
}

// DecodeTime reverses EncodeTime.
func DecodeTime(s string) (time.Time, error) {
	if !timeLang().Contains(s) {
		return time.Time{}, fmt.Errorf("keylang: %q is not an encoded time", s)
	}
	return time.Parse(TimeLayout, s)
}

// EncodeDate writes the calendar date of t (in t's own location) as
// YYYY-MM-DD. Years outside 0000-9999 are an error.
func EncodeDate(t time.Time) (string, error) {
	y, m, d := t.Date()
	if y < 0 || y > 9999 {
		return "", fmt.Errorf("keylang: year %d of %v is outside 0000-9999", y, t)
	}
	return fmt.Sprintf("%04d-%02d-%02d", y, int(m), d), nil
}

// EncodeBool writes "true" or "false".
func EncodeBool(b bool) string { return strconv.FormatBool(b) }

// CheckString reports whether v may fill a String placeholder of t: it
// must be non-empty valid UTF-8 holding none of t's separator characters.
func CheckString(t Template, v string) error { return checkElem(t.Seps(), v) }

func checkElem(seps []rune, v string) error {
	if v == "" {
		return errors.New("keylang: empty value")
	}
	if !utf8.ValidString(v) {
		return fmt.Errorf("keylang: %q is not valid UTF-8", v)
	}
	for _, r := range v {
		if slices.Contains(seps, r) {
			return fmt.Errorf("keylang: %q holds the separator %q", v, r)
		}
		if r == MaxRune {
			return fmt.Errorf("keylang: %q holds U+10FFFF, which keys reserve", v)
		}
	}
	return nil
}

// CheckPath reports whether v may fill a Path placeholder of t whose
// element separator is sep: elements joined by sep, each a valid String
// value of t.
func CheckPath(t Template, sep rune, v string) error {
	seps := append(t.Seps(), sep)
	if !utf8.ValidString(v) {
		return fmt.Errorf("keylang: %q is not valid UTF-8", v)
	}
	for _, e := range strings.Split(v, string(sep)) {
		if err := checkElem(seps, e); err != nil {
			return fmt.Errorf("keylang: path %q: %w", v, err)
		}
	}
	return nil
}

// EncodeValue returns the stored form of the value user (as a user writes
// it: "42", "2021-03-05T18:54:56Z", "2021-03-05", "true", or the text of a
// String, Path or Enum value) for segment s of template t.
func EncodeValue(t Template, s Segment, user string) (string, error) {
	switch s.Kind {
	case String:
		if user == "" && s.Empty {
			return "", nil
		}
		return user, CheckString(t, user)
	case Path:
		return user, CheckPath(t, s.PathSep, user)
	case Enum:
		if !slices.Contains(s.Values, user) {
			return "", fmt.Errorf("keylang: %q is not a value of enum {%s}", user, s.Var)
		}
		return user, nil
	case Int:
		n, err := strconv.ParseInt(user, 10, 64)
		if err != nil {
			return "", err
		}
		return EncodeInt(n), nil
	case Time:
		tm, err := time.Parse(time.RFC3339Nano, user)
		if err != nil {
			return "", err
		}
		return EncodeTime(tm)
	case Date:
		tm, err := time.Parse(DateLayout, user)
		if err != nil {
			return "", err
		}
		return EncodeDate(tm)
	case Bool:
		if user != "true" && user != "false" {
			return "", fmt.Errorf("keylang: %q is not a bool", user)
		}
		return user, nil
	}
	return "", fmt.Errorf("keylang: unknown kind %v", s.Kind)
}

// Render builds the key string t produces for the given placeholder values
// (user forms, as EncodeValue takes them).
func (t Template) Render(vals map[string]string) (string, error) {
	var b strings.Builder
	for _, s := range t.Segs {
		if !s.IsVar() {
			b.WriteString(s.Lit)
			continue
		}
		v, ok := vals[s.Var]
		if !ok {
			return "", fmt.Errorf("keylang: no value for {%s}", s.Var)
		}
		enc, err := EncodeValue(t, s, v)
		if err != nil {
			return "", err
		}
		b.WriteString(enc)
	}
	return b.String(), nil
}

// userForm turns an encoded value back into the form a user writes.
func userForm(k Kind, enc string) string {
	switch k {
	case Int:
		if n, err := DecodeInt(enc); err == nil {
			return strconv.FormatInt(n, 10)
		}
	case Time:
		// Textual, so that it also works for dates the calendar lacks.
		if len(enc) == len(TimeLayout) {
			frac := strings.TrimRight(enc[20:29], "0")
			if frac == "" {
				return enc[:19] + "Z"
			}
			return enc[:19] + "." + frac + "Z"
		}
	}
	return enc
}

// MinEnc returns the least encoding of a fixed-width kind (Int, Time,
// Date, Bool). It reports false for the other kinds.
func MinEnc(k Kind) (string, bool) {
	switch k {
	case Int:
		return "-" + strings.Repeat("0", 19), true
	case Time:
		return "0000-01-01T00:00:00.000000000Z", true
	case Date:
		return "0000-01-01", true
	case Bool:
		return "false", true
	}
	return "", false
}

// MaxEnc returns the greatest encoding of a fixed-width kind (Int, Time,
// Date, Bool). It reports false for the other kinds.
func MaxEnc(k Kind) (string, bool) {
	switch k {
	case Int:
		return maxIntDigits, true
	case Time:
		return "9999-12-31T23:59:59.999999999Z", true
	case Date:
		return "9999-12-31", true
	case Bool:
		return "true", true
	}
	return "", false
}

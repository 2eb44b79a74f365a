package runtime

import (
	"bytes"
	"cmp"
	"strconv"
)

// DynamoDB holds a number's value, not its text: "1e+06", "1000000" and
// "1000000.0" are one number, and so are "0" and "-0", and it answers
// each in one form (1000000, 0). A number has 38 significant digits at
// most, and is zero or of a magnitude from 1e-130 to below 1e126. Every
// number the generated code compares (the keys of a batch and of a
// transaction's steps, a cursor's key with its query's values) it
// compares by value, as parsed here; none is compared as text.

// maxNumberDigits is the most significant digits of a DynamoDB number.
const maxNumberDigits = 38

// The least and greatest exponent of a number other than zero, as
// decimalNumber.exp holds it (the magnitude is 0.d × 10^exp): 1e-130 is
// 0.1e-129, and the greatest, 9.99...e125, is 0.999...e126.
const (
	minNumberExp = -129
	maxNumberExp = 126
)

// maxNumberText is the longest text NumberText writes: a sign, "0.", the
// 129 zeros of the least exponent and 38 digits.
const maxNumberText = 3 + -minNumberExp + maxNumberDigits

// decimalNumber is the value of a DynamoDB number: ±0.d × 10^exp, d its
// significant digits (no leading or trailing zero); n is 0 for zero,
// which has no sign.
type decimalNumber struct {
	neg bool
	n   int
	d   [maxNumberDigits]byte
	exp int
}

// parseNumber reads a number written as DynamoDB takes it (an optional
// sign, digits with an optional point, an optional exponent: "-1.5e+06",
// ".5", "0001") and reports whether it is one DynamoDB stores: 38
// significant digits at most, and zero or within its range.
func parseNumber(s string) (x decimalNumber, ok bool) {
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		x.neg = s[i] == '-'
		i++
	}
	digits, zeros := 0, 0 // the mantissa's digits; zeros not yet placed
	point, lead := false, true
mantissa:
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			digits++
			if lead && c == '0' {
				if point {
					x.exp-- // 0.05 is 0.5e-1
				}
				continue
			}
			lead = false
			if !point {
				x.exp++ // 120 is 0.12e3
			}
			if c == '0' {
				zeros++ // placed only when a digit follows
				continue
			}
			if x.n+zeros >= maxNumberDigits {
				return decimalNumber{}, false
			}
			for ; zeros > 0; zeros-- {
				x.d[x.n] = '0'
				x.n++
			}
			x.d[x.n] = c
			x.n++
		case c == '.' && !point:
			point = true
		default:
			break mantissa
		}
	}
	if digits == 0 {
		return decimalNumber{}, false
	}
	if i < len(s) {
		if s[i] != 'e' && s[i] != 'E' {
			return decimalNumber{}, false
		}
		i++
		neg := false
		if i < len(s) && (s[i] == '-' || s[i] == '+') {
			neg = s[i] == '-'
			i++
		}
		if i == len(s) {
			return decimalNumber{}, false
		}
		e := 0
		for ; i < len(s); i++ {
			c := s[i]
			if c < '0' || c > '9' {
				return decimalNumber{}, false
			}
			// Past any exponent a number can have, where it can't
			// overflow.
			e = min(e*10+int(c-'0'), 1<<20)
		}
		if neg {
			e = -e
		}
		x.exp += e
	}
	if x.n == 0 {
		return decimalNumber{}, true // zero, of any sign and exponent
	}
	return x, minNumberExp <= x.exp && x.exp <= maxNumberExp
}

// appendText appends x as DynamoDB writes it back: plain decimal digits,
// no exponent, no trailing zero after a point ("1000000", "0.00001",
// "-1.5").
func (x *decimalNumber) appendText(b []byte) []byte {
	if x.n == 0 {
		return append(b, '0')
	}
	if x.neg {
		b = append(b, '-')
	}
	d := x.d[:x.n]
	switch {
	case x.exp <= 0:
		b = append(b, '0', '.')
		for range -x.exp {
			b = append(b, '0')
		}
		return append(b, d...)
	case x.exp >= len(d):
		b = append(b, d...)
		for range x.exp - len(d) {
			b = append(b, '0')
		}
		return b
	}
	b = append(b, d[:x.exp]...)
	b = append(b, '.')
	return append(b, d[x.exp:]...)
}

// compare compares x and y by value: -1, 0 or +1.
func (x *decimalNumber) compare(y *decimalNumber) int {
	if sx, sy := x.sign(), y.sign(); sx != sy || sx == 0 {
		return cmp.Compare(sx, sy)
	}
	c := cmp.Compare(x.exp, y.exp)
	if c == 0 {
		// Of one exponent, the digits compare as text: no trailing
		// zero, so a prefix is the smaller.
		c = bytes.Compare(x.d[:x.n], y.d[:y.n])
	}
	if x.neg {
		return -c
	}
	return c
}

// sign is -1, 0 or +1.
func (x *decimalNumber) sign() int {
	switch {
	case x.n == 0:
		return 0
	case x.neg:
		return -1
	}
	return 1
}

// NumberText is the text DynamoDB gives back for the number s (s itself
// when it is that already, without allocating), and whether s is a
// number DynamoDB stores.
func NumberText(s string) (string, bool) {
	if plainNumber(s) {
		return s, true // as DynamoDB answers, and as the generated code sends
	}
	x, ok := parseNumber(s)
	if !ok {
		return s, false
	}
	var buf [maxNumberText]byte
	b := x.appendText(buf[:0])
	if string(b) == s {
		return s, true
	}
	return string(b), true
}

// plainNumber reports whether s is a number DynamoDB stores written as
// DynamoDB writes it (NumberText(s) is s): one pass, no copy.
func plainNumber(s string) bool {
	i, n := 0, len(s)
	if i < n && s[i] == '-' {
		i++
	}
	start := i
	for i < n && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	whole := i - start
	if whole == 0 || whole > 1 && s[start] == '0' {
		return false
	}
	zero := s[start] == '0'
	if i == n {
		if zero {
			return start == 0 // "0", not "-0"
		}
		// An integer: its digits but the trailing zeros are significant.
		last := i - 1
		for s[last] == '0' {
			last--
		}
		return last-start < maxNumberDigits && whole <= maxNumberExp
	}
	if s[i] != '.' || i+1 == n || s[n-1] == '0' {
		return false
	}
	lead := 0 // of 0.00ddd, the zeros after the point: the exponent
	for j, leading := i+1, zero; j < n; j++ {
		switch c := s[j]; {
		case c < '0' || c > '9':
			return false
		case leading && c == '0':
			lead++
		default:
			leading = false
		}
	}
	frac := n - i - 1
	if zero {
		return frac-lead <= maxNumberDigits && -lead >= minNumberExp
	}
	return whole+frac <= maxNumberDigits && whole <= maxNumberExp
}

// CompareNumbers compares the numbers a and b by value; ok is false when
// either is no number DynamoDB stores.
func CompareNumbers(a, b string) (c int, ok bool) {
	x, okx := parseNumber(a)
	y, oky := parseNumber(b)
	if !okx || !oky {
		return 0, false
	}
	return x.compare(&y), true
}

// sameNumber reports whether a and b are one number: equal by value, or,
// when either is no number, equal as text.
func sameNumber(a, b string) bool {
	if a == b {
		return true
	}
	c, ok := CompareNumbers(a, b)
	return ok && c == 0
}

// FormatFloat writes f as DynamoDB writes a number back (see
// NumberText): the shortest decimal that reads back as f, in plain
// digits (1e6 as "1000000", 1e-5 as "0.00001"), and negative zero as "0".
// Writes check first that DynamoDB stores f (StorableFloat).
func FormatFloat(f float64) string {
	if f == 0 {
		return "0"
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// KeyFloat writes a float that stands as a whole key attribute of type N,
// refusing one DynamoDB can't store (NaN, infinite, or of a magnitude
// outside 1e-130 to 1e126) before any call.
func KeyFloat(attr string, f float64) (string, error) {
	if !StorableFloat(f) {
		return "", &KeyError{Attr: attr, Value: strconv.FormatFloat(f, 'g', -1, 64), Reason: "not a number DynamoDB stores (NaN, infinite, or outside 1e-130 to 1e126 in magnitude)"}
	}
	return FormatFloat(f), nil
}

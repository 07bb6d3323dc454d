package config

import (
	"errors"
	"math"
	"strings"
)

// Int reads an integer configuration value as git's
// git_config_int does: C's strtol in base 0 (leading blanks, a sign,
// 0x for hex, a leading 0 for octal), then an optional unit k, m or g
// (times 1024, 1024^2, 1024^3, either case), and the result must fit
// an int of 32 bits. The error is git's reason: "invalid unit" or "out
// of range".
func Int(v string) (int, error) {
	s := strings.TrimLeft(v, " \t\n\v\f\r")
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	base := 10
	switch {
	case len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && hexDigit(s[2]) >= 0:
		base, s = 16, s[2:]
	case len(s) > 0 && s[0] == '0':
		base = 8
	}
	var val uint64
	digits := 0
	for digits < len(s) {
		d := hexDigit(s[digits])
		if d < 0 || d >= base {
			break
		}
		if val = val*uint64(base) + uint64(d); val > math.MaxInt32+1 {
			return 0, errors.New("out of range")
		}
		digits++
	}
	if digits == 0 {
		// strtol consumed nothing: git refuses the value whole, a unit
		// alone ("k") included.
		return 0, errors.New("invalid unit")
	}
	unit := s[digits:]
	var factor uint64
	switch strings.ToLower(unit) {
	case "":
		factor = 1
	case "k":
		factor = 1 << 10
	case "m":
		factor = 1 << 20
	case "g":
		factor = 1 << 30
	default:
		return 0, errors.New("invalid unit")
	}
	if val*factor > math.MaxInt32 {
		return 0, errors.New("out of range")
	}
	n := int(val * factor)
	if neg {
		n = -n
	}
	return n, nil
}

// hexDigit is the value of a hex digit, -1 for another byte.
func hexDigit(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c-'a') + 10
	case 'A' <= c && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

package engine

import (
	"fmt"
	"strings"
)

// Rung is one step of the matching ladder (SPEC section 5). Each rung
// tolerates everything the rungs below it do, and one thing more.
type Rung int

// The rungs, from strictest to loosest.
const (
	RungExact      Rung = iota + 1 // CRLF and LF are the same
	RungTrailing                   // trailing white space ignored
	RungIndent                     // indentation off by a constant amount
	RungWhitespace                 // leading/trailing white space and blank lines ignored
	RungComments                   // comments ignored
	RungTypography                 // typographic look-alikes folded
	RungLoose                      // near matches by similarity (--fuzz loose only)
)

var rungNames = [...]string{"", "exact", "trailing-space", "indent", "whitespace", "comments", "typography", "loose"}

func (r Rung) String() string {
	if r > 0 && int(r) < len(rungNames) {
		return rungNames[r]
	}
	return fmt.Sprintf("rung(%d)", int(r))
}

// Fuzz is the --fuzz level: how far up the ladder matching may climb.
type Fuzz int

// The fuzz levels.
const (
	FuzzFormat Fuzz = iota // each format's own top rung
	FuzzExact              // rung 1 only
	FuzzLoose              // every rung, similarity included
)

func (f Fuzz) String() string {
	switch f {
	case FuzzExact:
		return "exact"
	case FuzzLoose:
		return "loose"
	}
	return "format"
}

// ParseFuzz reads a --fuzz value.
func ParseFuzz(s string) (Fuzz, error) {
	switch s {
	case "", "format":
		return FuzzFormat, nil
	case "exact":
		return FuzzExact, nil
	case "loose":
		return FuzzLoose, nil
	}
	return 0, fmt.Errorf("unknown fuzz level %q (want exact, format or loose)", s)
}

// formatTop is each format's default top rung (SPEC section 5).
var formatTop = map[string]Rung{
	"edit-v2":     RungExact,
	"fiup":        RungIndent,
	"diff":        RungIndent,
	"diff-fenced": RungIndent,
	"udiff":       RungTypography,
	"udiffx":      RungTypography,
	"apply-patch": RungTypography,
	"chunk":       RungComments,
	"whole":       RungExact,
	// A lazy edit's segments climb to indentation (SPEC section 5).
	"lazy": RungIndent,
	// Cline tries exact, then every line trimmed (diff.ts,
	// lineTrimmedFallbackMatch); its block-anchor fallback, which
	// replaces middle lines it never compared, has no rung.
	"cline": RungWhitespace,
	// Roo Code compares after normalizeString: white space collapsed,
	// smart quotes, dashes and non-breaking spaces folded.
	"roo": RungTypography,
}

// TopRung is the highest rung matching may use for format at level f.
func TopRung(format string, f Fuzz) Rung {
	switch f {
	case FuzzExact:
		return RungExact
	case FuzzLoose:
		return RungLoose
	}
	if r, ok := formatTop[format]; ok {
		return r
	}
	return RungIndent
}

// skipsBlank reports whether blank lines are ignored at rung r.
func (r Rung) skipsBlank() bool { return r >= RungWhitespace }

// normalizer turns a line into the key it is compared by at one rung.
type normalizer func(string) string

// keyFunc returns the comparison key of a line at rung r, for a file in
// language lang ("" when unknown: the comments rung then adds nothing).
// At the comments rungs the function carries block comments and
// multi-line strings from one call to the next: feed it a text's lines
// in order, and take a new one for each text.
func keyFunc(r Rung, lang string) normalizer {
	switch r {
	case RungExact:
		return func(s string) string { return s }
	case RungTrailing:
		return trimTrailing
	case RungIndent, RungWhitespace:
		return strings.TrimSpace
	case RungComments:
		st := newStripper(lang)
		return func(s string) string { return strings.TrimSpace(st.strip(s)) }
	default: // typography and loose
		st := newStripper(lang)
		return func(s string) string { return strings.TrimSpace(st.strip(foldTypography(s))) }
	}
}

// trimTrailing cuts the spaces, tabs, form feeds and vertical tabs
// that end s (a loop: strings.TrimRight builds its set of bytes at
// each call, a good part of the cost of indexing a long file).
func trimTrailing(s string) string {
	i := len(s)
	for i > 0 && (s[i-1] == ' ' || s[i-1] == '\t' || s[i-1] == '\f' || s[i-1] == '\v') {
		i--
	}
	return s[:i]
}

// typographic look-alikes a model writes for ASCII punctuation.
var typography = strings.NewReplacer(
	"\u2018", "'", "\u2019", "'", "\u201a", "'", "\u201b", "'", "\u2032", "'",
	"\u201c", `"`, "\u201d", `"`, "\u201e", `"`, "\u201f", `"`, "\u2033", `"`,
	"\u2010", "-", "\u2011", "-", "\u2012", "-", "\u2013", "-", "\u2014", "-", "\u2015", "-", "\u2212", "-",
	"\u00a0", " ", "\u2002", " ", "\u2003", " ", "\u2007", " ", "\u2009", " ", "\u200a", " ", "\u202f", " ", "\u3000", " ",
	"\u2026", "...",
)

func foldTypography(s string) string {
	if isASCII(s) {
		return s
	}
	return typography.Replace(s)
}

// isASCII reports whether s holds no byte of 0x80 or more, looking at
// eight bytes a step: the scope index and the typography rung ask it
// of every line of the file.
func isASCII(s string) bool {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		if load64(s[i:])&0x8080808080808080 != 0 {
			return false
		}
	}
	for ; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

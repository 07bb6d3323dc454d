package translate

import (
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// lazyRegexp is a regular expression compiled on its first use, as the
// go command's internal/lazyregexp. A run reads one or two formats, and
// compiling every reader's patterns when the package starts cost about
// a millisecond of every run, a quarter of a one-edit check
// (GODEBUG=inittrace=1). TestLazyRegexpsCompile compiles them all, so a
// bad pattern still fails at once.
type lazyRegexp struct {
	src  string
	once sync.Once
	rx   *regexp.Regexp
	// opens, when set, are what every match of an anchored pattern
	// opens with, compared as (?i) compares letters: a string opening
	// with none of them is no match, known without compiling. A
	// check's subject ("Rename twenty steps.") went through six such
	// patterns, whose compiling was half a millisecond of the check.
	opens []string
	// holds, when set, is a string every match holds: a string without
	// it is no match either.
	holds string
}

// lazyRegexps are every pattern made by lazyRegexpOf, for the test.
var lazyRegexps []*lazyRegexp

func lazyRegexpOf(src string) *lazyRegexp {
	l := &lazyRegexp{src: src}
	lazyRegexps = append(lazyRegexps, l)
	return l
}

// openingRegexpOf is lazyRegexpOf for a pattern anchored at the start
// whose every match opens with one of opens (case folded);
// TestOpeningRegexps holds each to its list.
func openingRegexpOf(src string, opens ...string) *lazyRegexp {
	l := lazyRegexpOf(src)
	l.opens = opens
	return l
}

// holdingRegexpOf is lazyRegexpOf for a pattern whose every match
// holds the string holds, which has no letter (a letter may match in
// another case); TestOpeningRegexps holds each to it.
func holdingRegexpOf(src, holds string) *lazyRegexp {
	l := lazyRegexpOf(src)
	l.holds = holds
	return l
}

// mayMatch reports whether s holds l's string and opens with one of
// its openings, of those l has: false means s holds no match.
func (l *lazyRegexp) mayMatch(s string) bool {
	if l.holds != "" && !strings.Contains(s, l.holds) {
		return false
	}
	if l.opens == nil {
		return true
	}
	for _, o := range l.opens {
		if hasFoldPrefix(s, o) {
			return true
		}
	}
	return false
}

// hasFoldPrefix reports whether s opens with prefix under Unicode
// simple case folding, as a (?i) literal matches (regexp/syntax folds
// with unicode.SimpleFold): "K" and the Kelvin sign are "k".
func hasFoldPrefix(s, prefix string) bool {
	for _, p := range prefix {
		r, n := utf8.DecodeRuneInString(s)
		if n == 0 || !foldEqual(r, p) {
			return false
		}
		s = s[n:]
	}
	return true
}

func foldEqual(a, b rune) bool {
	if a == b {
		return true
	}
	for r := unicode.SimpleFold(a); r != a; r = unicode.SimpleFold(r) {
		if r == b {
			return true
		}
	}
	return false
}

func (l *lazyRegexp) re() *regexp.Regexp {
	l.once.Do(func() { l.rx = regexp.MustCompile(l.src) })
	return l.rx
}

func (l *lazyRegexp) MatchString(s string) bool { return l.mayMatch(s) && l.re().MatchString(s) }
func (l *lazyRegexp) FindString(s string) string {
	if !l.mayMatch(s) {
		return ""
	}
	return l.re().FindString(s)
}
func (l *lazyRegexp) FindStringIndex(s string) []int {
	if !l.mayMatch(s) {
		return nil
	}
	return l.re().FindStringIndex(s)
}
func (l *lazyRegexp) FindStringSubmatch(s string) []string {
	if !l.mayMatch(s) {
		return nil
	}
	return l.re().FindStringSubmatch(s)
}
func (l *lazyRegexp) FindStringSubmatchIndex(s string) []int {
	if !l.mayMatch(s) {
		return nil
	}
	return l.re().FindStringSubmatchIndex(s)
}
func (l *lazyRegexp) Split(s string, n int) []string { return l.re().Split(s, n) }
func (l *lazyRegexp) ReplaceAllString(s, repl string) string {
	if !l.mayMatch(s) {
		return s
	}
	return l.re().ReplaceAllString(s, repl)
}
func (l *lazyRegexp) FindAllStringSubmatch(s string, n int) [][]string {
	return l.re().FindAllStringSubmatch(s, n)
}
func (l *lazyRegexp) FindAllStringIndex(s string, n int) [][]int {
	return l.re().FindAllStringIndex(s, n)
}

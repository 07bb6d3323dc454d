package translate

import (
	"regexp"
	"sync"
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
}

// lazyRegexps are every pattern made by lazyRegexpOf, for the test.
var lazyRegexps []*lazyRegexp

func lazyRegexpOf(src string) *lazyRegexp {
	l := &lazyRegexp{src: src}
	lazyRegexps = append(lazyRegexps, l)
	return l
}

func (l *lazyRegexp) re() *regexp.Regexp {
	l.once.Do(func() { l.rx = regexp.MustCompile(l.src) })
	return l.rx
}

func (l *lazyRegexp) MatchString(s string) bool            { return l.re().MatchString(s) }
func (l *lazyRegexp) FindString(s string) string           { return l.re().FindString(s) }
func (l *lazyRegexp) FindStringIndex(s string) []int       { return l.re().FindStringIndex(s) }
func (l *lazyRegexp) FindStringSubmatch(s string) []string { return l.re().FindStringSubmatch(s) }
func (l *lazyRegexp) FindStringSubmatchIndex(s string) []int {
	return l.re().FindStringSubmatchIndex(s)
}
func (l *lazyRegexp) Split(s string, n int) []string         { return l.re().Split(s, n) }
func (l *lazyRegexp) ReplaceAllString(s, repl string) string { return l.re().ReplaceAllString(s, repl) }
func (l *lazyRegexp) FindAllStringSubmatch(s string, n int) [][]string {
	return l.re().FindAllStringSubmatch(s, n)
}
func (l *lazyRegexp) FindAllStringIndex(s string, n int) [][]int {
	return l.re().FindAllStringIndex(s, n)
}

package wildmatch

import (
	"strings"
	"testing"
)

func TestWildmatch(t *testing.T) {
	tests := []struct {
		pattern, text string
		fold, want    bool
	}{
		{"/home/u/work/**", "/home/u/work/repo/.git", false, true},
		{"/home/u/work/**", "/home/u/other/repo/.git", false, false},
		{"**/repo/.git", "/home/u/work/repo/.git", false, true},
		{"**/.git", "/a/.git", false, true},
		{"/a/*/.git", "/a/b/.git", false, true},
		{"/a/*/.git", "/a/b/c/.git", false, false},
		{"/a/**/.git", "/a/.git", false, true},
		{"/a/**/.git", "/a/b/c/.git", false, true},
		{"/a/b?/.git", "/a/bc/.git", false, true},
		{"/a/b?/.git", "/a/b/.git", false, false},
		{"/a/[bc]x/**", "/a/cx/.git", false, true},
		{"/a/[!bc]x/**", "/a/cx/.git", false, false},
		{"/a/[a-c]x/**", "/a/bx/.git", false, true},
		{"/A/B/**", "/a/b/.git", true, true},
		{"/A/B/**", "/a/b/.git", false, false},
		{"main", "main", false, true},
		{"ma*", "main", false, true},
		{"feature/**", "feature/x/y", false, true},
		{"feature/*", "feature/x/y", false, false},
		{`a\*b`, "a*b", false, true},
		{`a\*b`, "axb", false, false},
		// A class that never closes matches nothing, as in git.
		{"a[b", "a[b", false, false},
		{"x[[:digit:]]", "x7", false, true},
		{"x[[:digit:]]", "xy", false, false},
		// Case folding is ASCII's: git folds no other letter.
		{"É.TXT", "é.txt", true, false},
		{"K.TXT", "k.txt", true, true},
		{"\u212a.txt", "k.txt", true, false}, // KELVIN SIGN folds to k in Unicode
		{"ǅ", "ǆ", true, false},
		// A NUL ends a C string.
		{"a\x00b", "a", false, true},
	}
	for _, tc := range tests {
		if got := Match(tc.pattern, tc.text, tc.fold); got != tc.want {
			t.Errorf("Match(%q, %q, fold=%v) = %v, want %v", tc.pattern, tc.text, tc.fold, got, tc.want)
		}
	}
}

// TestT3070 runs the cases of git's own wildmatch test
// (t/t3070-wildmatch.sh): each gives the result of wildmatch with
// WM_PATHNAME, with WM_PATHNAME|WM_CASEFOLD, with no flags, and with
// WM_CASEFOLD.
func TestT3070(t *testing.T) {
	for _, tc := range t3070 {
		for i, f := range []flags{pathname, pathname | casefold, 0, casefold} {
			want := tc.want[i] == '1'
			if got := match(tc.pattern, tc.text, f, nil) == matched; got != want {
				t.Errorf("flags %02b: match(%q, %q) = %v, want %v", f, tc.pattern, tc.text, got, want)
			}
		}
	}
}

// TestStarsStayLinear: a pattern of many stars that cannot match is
// given up at once, as git's WM_ABORT_ALL and WM_ABORT_TO_STARSTAR
// make it, where backtracking over every split doubles the work with
// each star. The work is counted in calls, never timed.
func TestStarsStayLinear(t *testing.T) {
	for _, tc := range []struct{ pattern, text string }{
		{strings.Repeat("*a", 12) + "*b", strings.Repeat("a", 30)},
		{strings.Repeat("*a", 40) + "*b", strings.Repeat("a", 200)},
		{strings.Repeat("a*", 40) + "b", strings.Repeat("a", 200)},
		{"**/" + strings.Repeat("*a", 30) + "*b", strings.Repeat("a/", 20) + strings.Repeat("a", 100)},
		{strings.Repeat("*/", 20) + "x", strings.Repeat("a/", 60) + "y"},
		{strings.Repeat("**/a", 20) + "b", strings.Repeat("a/", 100)},
		{strings.Repeat("?*", 30) + "b", strings.Repeat("a", 100)},
		{strings.Repeat("[a]*", 30) + "b", strings.Repeat("a", 100)},
	} {
		for _, f := range []flags{pathname, pathname | casefold, 0} {
			steps := budget{limit: 4 * (len(tc.pattern) + 1) * (len(tc.text) + 1)}
			if match(tc.pattern, tc.text, f, &steps) == matched {
				t.Errorf("%q matched %q", tc.pattern, tc.text)
			}
			if steps.calls > steps.limit {
				t.Errorf("flags %02b: %q against %d bytes took more than %d calls", f, tc.pattern, len(tc.text), steps.limit)
			}
		}
	}
}

func FuzzMatch(f *testing.F) {
	for _, tc := range t3070 {
		f.Add(tc.pattern, tc.text, uint8(0))
	}
	f.Fuzz(func(t *testing.T, pattern, text string, fl uint8) {
		if len(pattern) > 64 || len(text) > 256 {
			return
		}
		steps := budget{limit: 4 * (len(pattern) + 1) * (len(text) + 1)}
		match(pattern, text, flags(fl)&(pathname|casefold), &steps)
		if steps.calls > steps.limit {
			t.Errorf("%q against %q took more than %d calls", pattern, text, steps.limit)
		}
	})
}

// t3070 is the table of git's t/t3070-wildmatch.sh: text, pattern, and
// the four results (WM_PATHNAME, WM_PATHNAME|WM_CASEFOLD, none,
// WM_CASEFOLD).
var t3070 = []struct{ text, pattern, want string }{
	{`foo`, `foo`, "1111"},
	{`foo`, `bar`, "0000"},
	{``, ``, "1111"},
	{`foo`, `???`, "1111"},
	{`foo`, `??`, "0000"},
	{`foo`, `*`, "1111"},
	{`foo`, `f*`, "1111"},
	{`foo`, `*f`, "0000"},
	{`foo`, `*foo*`, "1111"},
	{`foobar`, `*ob*a*r*`, "1111"},
	{`aaaaaaabababab`, `*ab`, "1111"},
	{`foo*`, `foo\*`, "1111"},
	{`foobar`, `foo\*bar`, "0000"},
	{`f\oo`, `f\\oo`, "1111"},
	{`ball`, `*[al]?`, "1111"},
	{`ten`, `[ten]`, "0000"},
	{`ten`, `**[!te]`, "1111"},
	{`ten`, `**[!ten]`, "0000"},
	{`ten`, `t[a-g]n`, "1111"},
	{`ten`, `t[!a-g]n`, "0000"},
	{`ton`, `t[!a-g]n`, "1111"},
	{`ton`, `t[^a-g]n`, "1111"},
	{`a]b`, `a[]]b`, "1111"},
	{`a-b`, `a[]-]b`, "1111"},
	{`a]b`, `a[]-]b`, "1111"},
	{`aab`, `a[]-]b`, "0000"},
	{`aab`, `a[]a-]b`, "1111"},
	{`]`, `]`, "1111"},
	{`foo/baz/bar`, `foo*bar`, "0011"},
	{`foo/baz/bar`, `foo**bar`, "0011"},
	{`foobazbar`, `foo**bar`, "1111"},
	{`foo/baz/bar`, `foo/**/bar`, "1111"},
	{`foo/baz/bar`, `foo/**/**/bar`, "1100"},
	{`foo/b/a/z/bar`, `foo/**/bar`, "1111"},
	{`foo/b/a/z/bar`, `foo/**/**/bar`, "1111"},
	{`foo/bar`, `foo/**/bar`, "1100"},
	{`foo/bar`, `foo/**/**/bar`, "1100"},
	{`foo/bar`, `foo?bar`, "0011"},
	{`foo/bar`, `foo[/]bar`, "0011"},
	{`foo/bar`, `foo[^a-z]bar`, "0011"},
	{`foo/bar`, `f[^eiu][^eiu][^eiu][^eiu][^eiu]r`, "0011"},
	{`foo-bar`, `f[^eiu][^eiu][^eiu][^eiu][^eiu]r`, "1111"},
	{`foo`, `**/foo`, "1100"},
	{`XXX/foo`, `**/foo`, "1111"},
	{`bar/baz/foo`, `**/foo`, "1111"},
	{`bar/baz/foo`, `*/foo`, "0011"},
	{`foo/bar/baz`, `**/bar*`, "0011"},
	{`deep/foo/bar/baz`, `**/bar/*`, "1111"},
	{`deep/foo/bar/baz/`, `**/bar/*`, "0011"},
	{`deep/foo/bar/baz/`, `**/bar/**`, "1111"},
	{`deep/foo/bar`, `**/bar/*`, "0000"},
	{`deep/foo/bar/`, `**/bar/**`, "1111"},
	{`foo/bar/baz`, `**/bar**`, "0011"},
	{`foo/bar/baz/x`, `*/bar/**`, "1111"},
	{`deep/foo/bar/baz/x`, `*/bar/**`, "0011"},
	{`deep/foo/bar/baz/x`, `**/bar/*/*`, "1111"},
	{`acrt`, `a[c-c]st`, "0000"},
	{`acrt`, `a[c-c]rt`, "1111"},
	{`]`, `[!]-]`, "0000"},
	{`a`, `[!]-]`, "1111"},
	{``, `\`, "0000"},
	{`\`, `\`, "0000"},
	{`XXX/\`, `*/\`, "0000"},
	{`XXX/\`, `*/\\`, "1111"},
	{`foo`, `foo`, "1111"},
	{`@foo`, `@foo`, "1111"},
	{`foo`, `@foo`, "0000"},
	{`[ab]`, `\[ab]`, "1111"},
	{`[ab]`, `[[]ab]`, "1111"},
	{`[ab]`, `[[:]ab]`, "1111"},
	{`[ab]`, `[[::]ab]`, "0000"},
	{`[ab]`, `[[:digit]ab]`, "1111"},
	{`[ab]`, `[\[:]ab]`, "1111"},
	{`?a?b`, `\??\?b`, "1111"},
	{`abc`, `\a\b\c`, "1111"},
	{`foo`, ``, "0000"},
	{`foo/bar/baz/to`, `**/t[o]`, "1111"},
	{`a1B`, `[[:alpha:]][[:digit:]][[:upper:]]`, "1111"},
	{`a`, `[[:digit:][:upper:][:space:]]`, "0101"},
	{`A`, `[[:digit:][:upper:][:space:]]`, "1111"},
	{`1`, `[[:digit:][:upper:][:space:]]`, "1111"},
	{`1`, `[[:digit:][:upper:][:spaci:]]`, "0000"},
	{` `, `[[:digit:][:upper:][:space:]]`, "1111"},
	{`.`, `[[:digit:][:upper:][:space:]]`, "0000"},
	{`.`, `[[:digit:][:punct:][:space:]]`, "1111"},
	{`5`, `[[:xdigit:]]`, "1111"},
	{`f`, `[[:xdigit:]]`, "1111"},
	{`D`, `[[:xdigit:]]`, "1111"},
	{`_`, `[[:alnum:][:alpha:][:blank:][:cntrl:][:digit:][:graph:][:lower:][:print:][:punct:][:space:][:upper:][:xdigit:]]`, "1111"},
	{`.`, `[^[:alnum:][:alpha:][:blank:][:cntrl:][:digit:][:lower:][:space:][:upper:][:xdigit:]]`, "1111"},
	{`5`, `[a-c[:digit:]x-z]`, "1111"},
	{`b`, `[a-c[:digit:]x-z]`, "1111"},
	{`y`, `[a-c[:digit:]x-z]`, "1111"},
	{`q`, `[a-c[:digit:]x-z]`, "0000"},
	{`]`, `[\\-^]`, "1111"},
	{`[`, `[\\-^]`, "0000"},
	{`-`, `[\-_]`, "1111"},
	{`]`, `[\]]`, "1111"},
	{`\]`, `[\]]`, "0000"},
	{`\`, `[\]]`, "0000"},
	{`ab`, `a[]b`, "0000"},
	{`a[]b`, `a[]b`, "0000"},
	{`ab[`, `ab[`, "0000"},
	{`ab`, `[!`, "0000"},
	{`ab`, `[-`, "0000"},
	{`-`, `[-]`, "1111"},
	{`-`, `[a-`, "0000"},
	{`-`, `[!a-`, "0000"},
	{`-`, `[--A]`, "1111"},
	{`5`, `[--A]`, "1111"},
	{` `, `[ --]`, "1111"},
	{`$`, `[ --]`, "1111"},
	{`-`, `[ --]`, "1111"},
	{`0`, `[ --]`, "0000"},
	{`-`, `[---]`, "1111"},
	{`-`, `[------]`, "1111"},
	{`j`, `[a-e-n]`, "0000"},
	{`-`, `[a-e-n]`, "1111"},
	{`a`, `[!------]`, "1111"},
	{`[`, `[]-a]`, "0000"},
	{`^`, `[]-a]`, "1111"},
	{`^`, `[!]-a]`, "0000"},
	{`[`, `[!]-a]`, "1111"},
	{`^`, `[a^bc]`, "1111"},
	{`-b]`, `[a-]b]`, "1111"},
	{`\`, `[\]`, "0000"},
	{`\`, `[\\]`, "1111"},
	{`\`, `[!\\]`, "0000"},
	{`G`, `[A-\\]`, "1111"},
	{`aaabbb`, `b*a`, "0000"},
	{`aabcaa`, `*ba*`, "0000"},
	{`,`, `[,]`, "1111"},
	{`,`, `[\\,]`, "1111"},
	{`\`, `[\\,]`, "1111"},
	{`-`, `[,-.]`, "1111"},
	{`+`, `[,-.]`, "0000"},
	{`-.]`, `[,-.]`, "0000"},
	{`2`, `[\1-\3]`, "1111"},
	{`3`, `[\1-\3]`, "1111"},
	{`4`, `[\1-\3]`, "0000"},
	{`\`, `[[-\]]`, "1111"},
	{`[`, `[[-\]]`, "1111"},
	{`]`, `[[-\]]`, "1111"},
	{`-`, `[[-\]]`, "0000"},
	{`-adobe-courier-bold-o-normal--12-120-75-75-m-70-iso8859-1`, `-*-*-*-*-*-*-12-*-*-*-m-*-*-*`, "1111"},
	{`-adobe-courier-bold-o-normal--12-120-75-75-X-70-iso8859-1`, `-*-*-*-*-*-*-12-*-*-*-m-*-*-*`, "0000"},
	{`-adobe-courier-bold-o-normal--12-120-75-75-/-70-iso8859-1`, `-*-*-*-*-*-*-12-*-*-*-m-*-*-*`, "0000"},
	{`XXX/adobe/courier/bold/o/normal//12/120/75/75/m/70/iso8859/1`, `XXX/*/*/*/*/*/*/12/*/*/*/m/*/*/*`, "1111"},
	{`XXX/adobe/courier/bold/o/normal//12/120/75/75/X/70/iso8859/1`, `XXX/*/*/*/*/*/*/12/*/*/*/m/*/*/*`, "0000"},
	{`abcd/abcdefg/abcdefghijk/abcdefghijklmnop.txt`, `**/*a*b*g*n*t`, "1111"},
	{`abcd/abcdefg/abcdefghijk/abcdefghijklmnop.txtz`, `**/*a*b*g*n*t`, "0000"},
	{`foo`, `*/*/*`, "0000"},
	{`foo/bar`, `*/*/*`, "0000"},
	{`foo/bba/arr`, `*/*/*`, "1111"},
	{`foo/bb/aa/rr`, `*/*/*`, "0011"},
	{`foo/bb/aa/rr`, `**/**/**`, "1111"},
	{`abcXdefXghi`, `*X*i`, "1111"},
	{`ab/cXd/efXg/hi`, `*X*i`, "0011"},
	{`ab/cXd/efXg/hi`, `*/*X*/*/*i`, "1111"},
	{`ab/cXd/efXg/hi`, `**/*X*/**/*i`, "1111"},
	{`foo`, `fo`, "0000"},
	{`foo/bar`, `foo/bar`, "1111"},
	{`foo/bar`, `foo/*`, "1111"},
	{`foo/bba/arr`, `foo/*`, "0011"},
	{`foo/bba/arr`, `foo/**`, "1111"},
	{`foo/bba/arr`, `foo*`, "0011"},
	{`foo/bba/arr`, `foo**`, "0011"},
	{`foo/bba/arr`, `foo/*arr`, "0011"},
	{`foo/bba/arr`, `foo/**arr`, "0011"},
	{`foo/bba/arr`, `foo/*z`, "0000"},
	{`foo/bba/arr`, `foo/**z`, "0000"},
	{`foo/bar`, `foo?bar`, "0011"},
	{`foo/bar`, `foo[/]bar`, "0011"},
	{`foo/bar`, `foo[^a-z]bar`, "0011"},
	{`ab/cXd/efXg/hi`, `*Xg*i`, "0011"},
	{`a`, `[A-Z]`, "0101"},
	{`A`, `[A-Z]`, "1111"},
	{`A`, `[a-z]`, "0101"},
	{`a`, `[a-z]`, "1111"},
	{`a`, `[[:upper:]]`, "0101"},
	{`A`, `[[:upper:]]`, "1111"},
	{`A`, `[[:lower:]]`, "0101"},
	{`a`, `[[:lower:]]`, "1111"},
	{`A`, `[B-Za]`, "0101"},
	{`a`, `[B-Za]`, "1111"},
	{`A`, `[B-a]`, "0101"},
	{`a`, `[B-a]`, "1111"},
	{`z`, `[Z-y]`, "0101"},
	{`Z`, `[Z-y]`, "1111"},
}

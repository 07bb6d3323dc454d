package translate

import (
	"regexp"
	"testing"
)

// TestLazyRegexpsCompile compiles every lazily compiled pattern, so that
// a bad one fails here rather than in the run that first needs it.
func TestLazyRegexpsCompile(t *testing.T) {
	if len(lazyRegexps) < 30 {
		t.Fatalf("%d lazy patterns registered; the package has more than 30", len(lazyRegexps))
	}
	for _, l := range lazyRegexps {
		if _, err := regexp.Compile(l.src); err != nil {
			t.Errorf("%q: %v", l.src, err)
		}
		if l.re() == nil {
			t.Errorf("%q: not compiled", l.src)
		}
	}
}

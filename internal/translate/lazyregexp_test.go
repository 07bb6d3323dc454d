package translate

import (
	"math/rand/v2"
	"regexp"
	"regexp/syntax"
	"strings"
	"testing"
	"unicode"
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

// TestOpeningRegexps holds each pattern with openings, or a string
// every match holds, to them: strings drawn from the pattern itself
// (every alternative, letters in any case their folding allows, the
// Kelvin sign for k) that it matches must open with one and hold the
// string, and a subject that opens with none ("Rename twenty steps.")
// leaves it uncompiled.
func TestOpeningRegexps(t *testing.T) {
	var opening []*lazyRegexp
	for _, l := range lazyRegexps {
		if l.opens != nil || l.holds != "" {
			opening = append(opening, l)
		}
		if strings.ContainsFunc(l.holds, unicode.IsLetter) {
			t.Errorf("%.40q must hold %q, a letter, which may match in another case", l.src, l.holds)
		}
	}
	if len(opening) < 9 {
		t.Fatalf("%d patterns with openings, want the 6 of the description and 3 of whole", len(opening))
	}
	rng := rand.New(rand.NewPCG(28, 9))
	for _, l := range opening {
		tree, err := syntax.Parse(l.src, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		tree = tree.Simplify()
		matched := 0
		for range 4000 {
			var b strings.Builder
			drawMatch(&b, tree, rng)
			s := b.String() + " and so on"
			if !l.re().MatchString(s) {
				continue
			}
			matched++
			if !l.mayMatch(s) {
				t.Errorf("%.40q matches %q, which opens with none of %q or lacks %q", l.src, s, l.opens, l.holds)
			}
		}
		if matched < 100 {
			t.Errorf("%.40q: only %d of the strings drawn match", l.src, matched)
		}
		for _, s := range []string{"Rename twenty steps.", "rename twenty steps.", "Add a --verbose flag", "Fix the parser"} {
			if l.mayMatch(s) && l.re().MatchString(s) {
				t.Errorf("%.40q matches %q", l.src, s)
			}
		}
		if l.mayMatch("rename twenty steps.") {
			t.Errorf("%.40q: a subject opening with a verb needs it compiled", l.src)
		}
	}
	for _, c := range []struct {
		s, p string
		want bool
	}{{"Sorry", "sorry", true}, {"\u212Aeep", "keep", true}, {"Ok", "okay", false}, {"I'll", "i'", true}, {"", "i", false}, {"\xffx", "i", false}} {
		if got := hasFoldPrefix(c.s, c.p); got != c.want {
			t.Errorf("hasFoldPrefix(%q, %q) = %v", c.s, c.p, got)
		}
	}
}

// drawMatch writes to b a string that re may match: each alternation
// takes one alternative, a repetition 0 to 2 more times than its least,
// a class one of its runes, a folded literal each letter in a case of
// its fold orbit. Assertions (^, \b) write nothing; the caller keeps
// what the pattern matches.
func drawMatch(b *strings.Builder, re *syntax.Regexp, rng *rand.Rand) {
	switch re.Op {
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			if re.Flags&syntax.FoldCase != 0 {
				orbit := []rune{r}
				for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
					orbit = append(orbit, f)
				}
				r = orbit[rng.IntN(len(orbit))]
			}
			b.WriteRune(r)
		}
	case syntax.OpCharClass:
		k := rng.IntN(len(re.Rune) / 2)
		lo, hi := re.Rune[2*k], re.Rune[2*k+1]
		b.WriteRune(lo + rune(rng.IntN(int(min(hi-lo, 50))+1)))
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		b.WriteByte("ax ."[rng.IntN(4)])
	case syntax.OpCapture:
		drawMatch(b, re.Sub[0], rng)
	case syntax.OpConcat:
		for _, s := range re.Sub {
			drawMatch(b, s, rng)
		}
	case syntax.OpAlternate:
		drawMatch(b, re.Sub[rng.IntN(len(re.Sub))], rng)
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		least := 0
		switch re.Op {
		case syntax.OpPlus:
			least = 1
		case syntax.OpRepeat:
			least = re.Min
		}
		n := least + rng.IntN(3)
		if re.Op == syntax.OpQuest || re.Op == syntax.OpRepeat && re.Max >= 0 {
			n = min(n, max(re.Max, 1))
		}
		for range n {
			drawMatch(b, re.Sub[0], rng)
		}
	}
}

package translate

import (
	"strings"
	"unicode/utf8"
)

// A sentence too long for a subject is shortened to one that still
// reads whole, in git's way: no "...", no word cut in two, no "and" or
// "the" left hanging. The full sentence then opens the body.

// Clause boundaries, strongest first: what follows them qualifies what
// comes before, so the part before stands alone.
var (
	// strongCut: a comma, or a word that opens a reason, a purpose or a
	// relative clause.
	strongCut = lazyRegexpOf(`(?i)[,;]\s|\s[-\x{2013}\x{2014}]\s|\s(so that|so|because|which|since|while|where|whereas|when|although|though|unless|thereby|ensuring|allowing|making|in order to|to ensure|to make sure|as well as)\s`)
	// weakCut: a preposition or conjunction that starts a phrase of
	// detail ("in the X class", "to handle Y", "by doing Z").
	weakCut = lazyRegexpOf(`(?i)\s(to|by|using|with|without|in|inside|within|for|and|or|from|on|at|into|instead of|as|via|through|after|before|if|that)\s`)
	// openEnd is a part that ends wanting its object ("... to check",
	// "... is designed"): a cut there reads cut short.
	openEnd = lazyRegexpOf(`(?i)\bto \S+$|\b(designed|used|able|going|want|wants|need|needs|ensure|ensures|allow|allows|help|helps|make|makes|indicates|indicate|suggests|suggest|shows|show|means|mean|seems|seem|appears|appear|similar|related|equal|is|are|was|were|confirms|confirm|verifies|verify|checks|check|states|says|assumes|requires|causes|cause|based)$`)
	// introClause opens a sentence with a clause that needs the main
	// one after its comma ("To fix the error, we ...").
	introClause = lazyRegexpOf(`(?i)^(to|if|when|since|because|as|while|after|before|once|for|in order to|now that|given|with)\b`)
	// parenthetical is an aside "(like this)", not a call's "()".
	parenthetical = lazyRegexpOf(`\s+\([^()]+\)`)
)

// dangling are words a shortened subject must not end with.
var dangling = wordSet(`a an the and or but nor to of in into on onto at by for from with without as that
	which who whose so than then if when where while because since its their our your my this these
	those is are was were be been being will would should can could may might must need needs we i you
	also both either each every such via per not very more most due they there whether how what`)

// ShortSubject returns s when it has at most max characters, else a
// shortened form of it of at most max characters that reads whole: s
// without its parentheticals, or its part before a clause boundary, or
// failing those its longest part ending at a word, never ending in a
// word like "and" or "the"; a single word longer than max is cut.
func ShortSubject(s string, max int) string {
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	if t := strings.TrimSpace(parenthetical.ReplaceAllString(s, "")); t != s {
		s = t
		if utf8.RuneCountInString(s) <= max {
			return trimEnd(s)
		}
	}
	// Only the start of a long sentence can hold the subject: looking
	// no further keeps a sentence of megabytes linear.
	if n := 4*max + 16; len(s) > n {
		// Back to the start of the rune cut in two, which lies at most
		// UTFMax-1 bytes back; further back there are only stray
		// continuation bytes, each a rune of its own.
		for m := n; m > n-utf8.UTFMax && m > 0; m-- {
			if utf8.RuneStart(s[m]) {
				n = m
				break
			}
		}
		s = s[:n]
	}
	// A clause shorter than this says too little: a longer cut at a
	// word says more.
	const minClause = 24
	strong := bestCut(s, strongCut, max, minClause, false)
	weak := bestCut(s, weakCut, max, minClause, false)
	// "To fix X, we need to Y" cut at its comma keeps only the purpose:
	// a sentence still, but a weak one.
	if intro := bestCut(s, strongCut, max, minClause, true); len(intro) > len(weak) {
		weak = intro
	}
	switch {
	case utf8.RuneCountInString(strong) >= max/2:
		return strong
	case utf8.RuneCountInString(weak) >= max/2:
		return weak
	case strong != "" || weak != "":
		if utf8.RuneCountInString(weak) > utf8.RuneCountInString(strong) {
			return weak
		}
		return strong
	}
	if word := trimEnd(cutAtWord(s, max)); word != "" {
		return word
	}
	r := []rune(s) // one word longer than max
	return strings.TrimSpace(string(r[:min(max, len(r))]))
}

// bestCut returns the longest part of s before a boundary re matches
// that, tidied, fits in max and has at least min characters ("" if
// none). A part that is only a sentence's opening clause ("To fix the
// error" of "To fix the error, we ...") counts only when intro is set,
// and then only such parts do.
func bestCut(s string, re *lazyRegexp, max, min int, intro bool) string {
	best := ""
	for _, loc := range re.FindAllStringIndex(s, -1) {
		p := trimEnd(s[:loc[0]])
		if isIntro := introClause.MatchString(p) && !strings.Contains(p, ",") && strings.Contains(s[len(p):], ","); isIntro != intro {
			continue
		}
		n := utf8.RuneCountInString(p)
		switch {
		case n > max || n < min:
		case openEnd.MatchString(p): // reads cut short
		case n > utf8.RuneCountInString(best):
			best = p
		}
	}
	return best
}

// cutAtWord returns the longest part of s of at most n characters that
// ends at a space (all of s's first n characters when there is none).
func cutAtWord(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	cut := string(r[:n+1])
	if i := strings.LastIndexByte(cut, ' '); i > 0 {
		return cut[:i]
	}
	return string(r[:n])
}

// trimEnd tidies the end of a shortened subject: no trailing
// punctuation, no quote or parenthesis left open, no dangling word.
func trimEnd(s string) string {
	for {
		t := strings.TrimRight(s, " \t,;:.-\u2013\u2014([<{\"'")
		if strings.Count(t, `"`)%2 == 1 {
			t = t[:strings.LastIndexByte(t, '"')]
		}
		for _, p := range []string{"()", "[]", "<>", "{}"} {
			if strings.Count(t, p[:1]) > strings.Count(t, p[1:]) {
				t = t[:strings.LastIndex(t, p[:1])]
			}
		}
		t = strings.TrimRight(t, " \t,;:-\u2013\u2014")
		if i := strings.LastIndexAny(t, " \t"); i >= 0 && dangling()[normWord(t[i+1:])] {
			t = t[:i]
		} else if i < 0 && dangling()[normWord(t)] {
			t = ""
		}
		if t == s {
			return s
		}
		s = t
	}
}

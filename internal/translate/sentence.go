package translate

import (
	"strings"
)

// A reply's prose is read sentence by sentence for its subject. A
// sentence may run over several lines of one paragraph (models and
// people wrap prose), but never past a blank line, a list item, a
// heading or a fence; a line ending in ":" ends its sentence, as it
// introduces what follows.

// span is a sentence of a text: text[start:end].
type span struct{ start, end int }

var (
	mdFence = lazyRegexpOf("^\\s*(```|~~~)")
	// mdBlockStart is a line that starts a block of its own: a list
	// item, a heading, a quote, a table row.
	mdBlockStart = lazyRegexpOf(`^\s*(#{1,6}\s|>|[-*+]\s|\d+[.)]\s|\|)`)
	mdList       = lazyRegexpOf(`^\s*([-*+]|\d+[.)])\s`)
)

// abbreviations end in a period that ends no sentence.
var abbreviations = []string{"e.g.", "i.e.", "etc.", "vs.", "cf.", "approx.", "incl."}

// sentences lists the sentences of text in order, skipping fenced
// blocks, which are code, not prose.
func sentences(text string) []span {
	var out []span
	lines := proseLineStarts(text)
	for i := 0; i < len(lines); {
		l := proseLine(text, lines, i)
		switch {
		case mdFence.MatchString(l):
			i = proseFenceEnd(text, lines, i)
			continue
		case strings.TrimSpace(l) == "":
			i++
			continue
		}
		var next int
		out, next = paragraphSentences(text, lines, i, out)
		i = next
	}
	return out
}

// paragraphSentences appends the sentences of the paragraph starting
// at line i (up to a blank line, a fence or a line that starts a block)
// and returns the line after it.
func paragraphSentences(text string, lines []int, i int, out []span) ([]span, int) {
	j := i + 1
	for j < len(lines) {
		l := proseLine(text, lines, j)
		if strings.TrimSpace(l) == "" || mdFence.MatchString(l) || mdBlockStart.MatchString(l) {
			break
		}
		if prev := strings.TrimRight(proseLine(text, lines, j-1), " \t"); strings.HasSuffix(prev, ":") {
			break
		}
		j++
	}
	end := len(text)
	if j < len(lines) {
		end = lines[j]
	}
	start := lines[i] + len(mdBlockStart.FindString(proseLine(text, lines, i)))
	if lead := mdBlockStart.FindString(proseLine(text, lines, i)); strings.HasSuffix(lead, "|") {
		return out, j // a table row is no sentence
	}
	for start < end {
		for start < end && isSpace(text[start]) {
			start++
		}
		if start >= end {
			break
		}
		e := sentenceEnd(text[start:end]) + start
		out = append(out, span{start, e})
		start = e
	}
	return out, j
}

// sentenceEnd returns where the first sentence of p ends: after ". "
// "! " "? " (outside a code span, not an abbreviation) or at the end.
func sentenceEnd(p string) int {
	code := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c == '`' {
			code = !code
			continue
		}
		if code || (c != '.' && c != '!' && c != '?') {
			continue
		}
		// Emphasis, quotes and brackets may close after the stop:
		// "**Fix it.** More."
		j := i + 1
		for j < len(p) && strings.IndexByte(`*_"')]`, p[j]) >= 0 {
			j++
		}
		if j < len(p) && !isSpace(p[j]) {
			continue
		}
		if c == '.' && endsAbbreviation(p[:i+1]) {
			continue
		}
		return j
	}
	return len(strings.TrimRight(p, " \t\n"))
}

func endsAbbreviation(s string) bool {
	low := strings.ToLower(s)
	for _, a := range abbreviations {
		if strings.HasSuffix(low, a) && (len(low) == len(a) || !isLetter(low[len(low)-len(a)-1])) {
			return true
		}
	}
	return false
}

func isSpace(c byte) bool  { return c == ' ' || c == '\t' || c == '\n' }
func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// proseLineStarts returns the offset of every line of text.
func proseLineStarts(text string) []int {
	starts := []int{0}
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' && i+1 < len(text) {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// proseLine is line i of text without its line feed.
func proseLine(text string, starts []int, i int) string {
	end := len(text)
	if i+1 < len(starts) {
		end = starts[i+1]
	}
	return strings.TrimSuffix(text[starts[i]:end], "\n")
}

// proseFenceEnd returns the line after the fence opened at line i closes
// (the end of the text when it never does).
func proseFenceEnd(text string, starts []int, i int) int {
	open := strings.TrimSpace(proseLine(text, starts, i))[:3]
	for j := i + 1; j < len(starts); j++ {
		if strings.HasPrefix(strings.TrimSpace(proseLine(text, starts, j)), open) {
			return j + 1
		}
	}
	return len(starts)
}

package engine

import (
	"strings"

	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// blockEnd extends an edit whose Old lines are a block's header (doc
// lines [start, end)) to the end of the block the header opens. It
// returns the new end and, for a brace block, the text that follows
// the closing brace on its line (it survives the edit: "} else {").
// ok is false when the block has no end.
func blockEnd(d *doc, start, end int, rule translate.BlockRule, lang string) (int, string, bool) {
	switch rule {
	case translate.CBraces:
		return braceEnd(d, start, end, lang)
	case translate.PyIndent:
		return indentEnd(d, start, end), "", true
	}
	return end, "", true
}

// braceEnd finds the brace that ends the header (the last "{" the
// header lines leave open, else the first one after them) and the "}"
// that closes it, reading through strings, character literals,
// comments and raw strings.
func braceEnd(d *doc, start, end int, lang string) (int, string, bool) {
	sc := newScanner(lang)
	var open []int
	closedLine, closedAt := -1, 0
	for i := start; i < end; i++ {
		for _, t := range sc.tokens(d.content(i)) {
			switch {
			case t.c == '{':
				open = append(open, i)
			case t.c == '}' && len(open) > 0:
				if open = open[:len(open)-1]; len(open) == 0 {
					closedLine, closedAt = i, t.at
				}
			}
		}
	}
	if len(open) == 0 && closedLine >= 0 {
		// The header holds its whole block ("void f() {}").
		return end, d.content(closedLine)[closedAt+1:], closedLine == end-1
	}
	depth := min(len(open), 1)
	for i := end; i < d.len(); i++ {
		line := d.content(i)
		for _, t := range sc.tokens(line) {
			switch {
			case t.c == '{':
				depth++
			case t.c == '}' && depth > 0:
				if depth--; depth == 0 {
					return i + 1, line[t.at+1:], true
				}
			}
		}
	}
	return end, "", false
}

// indentEnd extends a Python header to the end of its block: the header
// ends at the first colon outside strings, comments and brackets; the
// block is the lines after it indented deeper than the header, up to
// the first non-blank line that is not (a comment included), trailing
// blank lines left out. A header with code after its colon is a block
// of its own.
func indentEnd(d *doc, start, end int) int {
	sc := newScanner("py")
	hdr := columns(leading(d.content(start)), 8)
	depth, colon := 0, -1
	for i := start; i < d.len() && colon < 0; i++ {
		line := d.content(i)
		for _, t := range sc.tokens(line) {
			switch t.c {
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				depth--
			case ':':
				if depth != 0 || colon >= 0 {
					continue
				}
				colon = i
				if rest := strings.TrimSpace(stripComment(line[t.at+1:], "py")); rest != "" {
					return max(i+1, end) // a one-line block
				}
			}
		}
	}
	if colon < 0 {
		return end
	}
	last := colon + 1
	for i := colon + 1; i < d.len(); i++ {
		line := d.content(i)
		inString := sc.inString()
		sc.tokens(line)
		switch {
		case inString:
			last = i + 1 // a line of a multi-line string belongs to the block
		case isBlank(line):
		case columns(leading(line), 8) <= hdr:
			return max(last, end)
		default:
			last = i + 1
		}
	}
	return max(last, end)
}

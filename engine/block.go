package engine

import (
	"strings"

	"github.com/git-llm-apply/git-llm-apply/translate"
)

// blockEnd extends an edit whose Old lines are a block's header
// (doc lines [start, end)) to the end of the block the header opens.
// When the block cannot be found the edit keeps its own lines.
func blockEnd(d *doc, start, end int, rule translate.BlockRule, lang string) int {
	switch rule {
	case translate.CBraces:
		return braceEnd(d, start, end, lang)
	case translate.PyIndent:
		return indentEnd(d, start, end)
	}
	return end
}

// braceEnd follows braces from the header's first line, skipping
// strings and comments, to the line holding the brace that closes the
// first block opened.
func braceEnd(d *doc, start, end int, lang string) int {
	if lang == "" {
		lang = "c"
	}
	depth, opened := 0, false
	for i := start; i < d.len(); i++ {
		code := stripComment(d.content(i), lang)
		for j := 0; j < len(code); j++ {
			switch c := code[j]; c {
			case '"', '\'', '`':
				k := strings.IndexByte(code[j+1:], c)
				if k < 0 {
					j = len(code)
				} else {
					j += k + 1
				}
			case '{':
				depth++
				opened = true
			case '}':
				depth--
				if opened && depth == 0 {
					return i + 1
				}
			}
		}
	}
	return end
}

// indentEnd extends a Python-style header to the last line indented
// deeper than the header, blank lines between body lines included.
func indentEnd(d *doc, start, end int) int {
	hdr := columns(leading(d.content(start)), 8)
	last := end
	for i := end; i < d.len(); i++ {
		c := d.content(i)
		if isBlank(c) {
			continue
		}
		if columns(leading(c), 8) <= hdr {
			break
		}
		last = i + 1
	}
	return last
}

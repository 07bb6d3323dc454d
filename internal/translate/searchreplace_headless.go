package translate

import "strings"

// A block whose "<<<<<<< SEARCH" line the model left out, written
// inside its own fence right after its file name:
//
//	path/to/file.py          ```python
//	```python                path/to/file.py
//	old line                 old line
//	=======                  =======
//	new line                 new line
//	>>>>>>> REPLACE          >>>>>>> REPLACE
//	```                      ```
//
// The fence's opening bounds the SEARCH text as the marker would: it
// is read, with a warning (SPEC section 4). aider's parser
// (aider/coders/editblock_coder.py, find_original_update_blocks) starts
// a block only at a SEARCH marker and passes over the rest silently;
// here the lines would otherwise fail as a stray end marker. Nothing
// else bounds a SEARCH text: the end marker of a block above in the
// same fence does not (the lines after it may be prose of the block, or
// a second edit whose start is lost; aider, whose older parser raised
// "Unexpected =======" there, never read it either), so a divider and
// end marker there still fail as a stray.

// headless reports whether the fence f opening at line i (0-based)
// opens straight into such a block, and returns the block with its
// name and Line (the fence line, or the name line first inside the
// fence: the line standing for the SEARCH marker). The block needs a
// file name: in the fence's info string, on the line right above the
// fence, or alone on the fence's first line (diff-fenced); its SEARCH
// text runs to a divider and its REPLACE text to an end marker, with
// no SEARCH marker, other divider, marker too far to read or the
// fence's closing line before them.
func (p *searchReplaceReader) headless(i int, f fence) (srBlock, bool) {
	b := srBlock{Line: i + 1}
	above := false
	switch {
	case fenceName(f) != "":
		b.Path, b.NameLine = fenceName(f), i+1
	case i > 0 && p.kind[i-1] == kProse:
		if n, ok := headlessName(p.lines[i-1]); ok {
			b.Path, b.NameLine, above = n, i, true
		}
	}
	if i+1 < len(p.lines) {
		// The name first inside the fence (also when it repeats the
		// one above): the SEARCH text starts after it.
		if n, ok := headlessName(p.lines[i+1]); ok && (b.Path == "" || n == b.Path) {
			b.Path, b.NameLine, b.NameInFence, b.Line = n, i+2, true, i+2
		}
	}
	if b.Path == "" || !p.headlessShape(b.Line, f) {
		return srBlock{}, false
	}
	if above {
		p.kind[i-1] = kName
	}
	return b, true
}

// headlessName reads the line l as the file name of a block without
// its SEARCH marker: a name as cleanFileName reads it that holds a dot
// or a separator, as aider's strip_filename asks of a name in a fence's
// info string. A bare word ("c", "Makefile") may as well be the first
// line of the SEARCH text.
func headlessName(l string) (string, bool) {
	n, ok := cleanFileName(l)
	return n, ok && strings.ContainsAny(n, `./\`)
}

// headlessShape reports whether the lines after line from (0-based)
// hold SEARCH text, a divider, REPLACE text and an end marker, in that
// order, inside the fence f.
func (p *searchReplaceReader) headlessShape(from int, f fence) bool {
	divider := false
	for j := from; j < len(p.lines); j++ {
		t := strings.TrimSpace(p.lines[j])
		switch {
		case isEnd(t):
			return divider
		case isDivider(t):
			if divider {
				return false
			}
			divider = true
		case isSearch(t), srMarker(t).fit == fitFar, f.closes(t):
			return false
		}
	}
	return false
}

// headlessBlock reads the block b that headless found and returns the
// line after its end marker; the fence stays open.
func (p *searchReplaceReader) headlessBlock(b srBlock) (int, error) {
	if b.NameLine != b.Line || b.NameInFence {
		p.kind[b.NameLine-1] = kName // not the fence line of an info-string name
	}
	p.prev = b.Path
	where := "the fence at line %d opens straight into its SEARCH text"
	if b.NameInFence {
		where = "the file name at line %d, first inside the fence, is followed straight by its SEARCH text"
	}
	p.warn(b.Line, "the block for %s has no %q line: "+where+", which is read up to the divider; write the marker on its own line", b.Path, "<<<<<<< SEARCH", b.Line)
	return p.blockBody(b)
}

// srAt is the detector of the SEARCH/REPLACE family: the offset of the
// first line resembling a SEARCH marker, or of the first block whose
// SEARCH marker is missing (see headless) when that comes first; -1
// when there is neither. Such a block ends in an end marker, so only
// the reply up to the first one is read for it, and only when no
// SEARCH marker comes first.
func srAt(x *markIndex) int {
	text := x.text
	at := x.lineAt(resembles(mkSearch))
	end := x.lineAt(resembles(mkReplace))
	if end < 0 || at >= 0 && at < end {
		return at
	}
	sp, _ := splitSearchReplace(text[:lineOffset(text, strings.Count(text[:end], "\n")+1)])
	if len(sp.Blocks) == 0 {
		return at
	}
	b := sp.Blocks[0]
	return lineOffset(text, min(b.NameLine, b.Line)-1)
}

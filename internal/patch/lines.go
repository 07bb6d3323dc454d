package patch

import "bytes"

// textLines reads the lines of a text by number without cutting the
// whole text into lines: a diff of a long file around a few regions
// reads a few lines of it, and a slice per line of a file of a million
// short lines costs as much memory as the file. It keeps a cursor at
// the last line it found, so reading lines in order, or near each
// other, costs their bytes, and a far jump a count of the newlines
// between (bytes.Count a block at a time).
type textLines struct {
	b    []byte
	n    int // lines, a last one without "\n" included
	line int // the cursor: line `line` starts at byte at
	at   int
	// starts, when the caller knew them, is where each line starts,
	// and len(b) last (see FileChange.OldStarts): a line is then found
	// without a count.
	starts []int32
}

func newTextLines(b []byte) *textLines {
	return &textLines{b: b, n: lineCount(b)}
}

// newTextLinesAt is newTextLines with the lines' starts known; starts
// that cannot be b's (not from 0 to len(b)) are ignored.
func newTextLinesAt(b []byte, starts []int32) *textLines {
	if len(starts) == 0 || starts[0] != 0 || int(starts[len(starts)-1]) != len(b) {
		return newTextLines(b)
	}
	return &textLines{b: b, n: len(starts) - 1, starts: starts}
}

// len is the number of lines.
func (t *textLines) len() int { return t.n }

// start returns where line i starts, len(b) for i == len().
func (t *textLines) start(i int) int {
	if t.starts != nil {
		return int(t.starts[min(i, t.n)])
	}
	switch {
	case i >= t.n:
		t.line, t.at = t.n, len(t.b)
	case i >= t.line:
		t.at, _ = skipLines(t.b, t.at, int64(i-t.line))
		t.line = i
	case i <= t.line-i:
		// Nearer the top than the cursor.
		t.at, _ = skipLines(t.b, 0, int64(i))
		t.line = i
	default:
		t.at = backLines(t.b, t.at, t.line-i)
		t.line = i
	}
	return t.at
}

// get returns line i with its "\n", capped so that appending to it
// cannot write over the next line.
func (t *textLines) get(i int) []byte {
	if t.starts != nil {
		s, e := t.starts[i], t.starts[i+1]
		return t.b[s:e:e]
	}
	s := t.start(i)
	e := bytes.IndexByte(t.b[s:], '\n') + 1
	if e == 0 {
		e = len(t.b) - s
	}
	e += s
	t.line, t.at = i+1, e
	return t.b[s:e:e]
}

// span returns the bytes of lines [i, j).
func (t *textLines) span(i, j int) []byte {
	s := t.start(i)
	return t.b[s:t.start(j)]
}

// backLines returns where the line n lines above the one starting at
// at starts; at is a line start (0, len(b), or just after a "\n").
func backLines(b []byte, at, n int) int {
	const block = 64 << 10
	// The line n lines up starts after the (n+1)th "\n" before at (the
	// first is the one ending the line just above), or at 0.
	pos, k := at, n+1
	if at == len(b) && at > 0 && b[at-1] != '\n' {
		k-- // at ends a last line that has no "\n"
	}
	// Near lines, the usual step back, are found a line at a time; a
	// count of a block costs as much as many of them.
	for pos > 0 && k > 64 {
		from := max(pos-block, 0)
		c := bytes.Count(b[from:pos], []byte{'\n'})
		if c >= k || from == 0 {
			break
		}
		k -= c
		pos = from
	}
	for ; k > 0; k-- {
		pos = bytes.LastIndexByte(b[:pos], '\n')
		if pos < 0 {
			return 0
		}
	}
	return pos + 1
}

// lastLineOf is lastLine for lines [from, to), counted from 0.
func (t *textLines) lastLineOf(from, to int, match func(line []byte) ([]byte, bool)) ([]byte, bool) {
	if t.starts == nil {
		return t.lastLine(t.start(from), t.start(to), match)
	}
	for i := to - 1; i >= from; i-- {
		s, e := t.starts[i], t.starts[i+1]
		if name, ok := match(t.b[s:e:e]); ok {
			return name, true
		}
	}
	return nil, false
}

// lastLine returns what match makes of the last line that it takes of
// those starting in b[lo:hi], lo and hi being line starts; false when it
// takes none. It reads the lines forward a chunk at a time, from the
// chunk just above hi up: a search backward for each "\n" would go a
// byte at a time (Go's LastIndexByte is a plain loop), while IndexByte
// is vectorised, and the line sought is most often near hi.
func (t *textLines) lastLine(lo, hi int, match func(line []byte) ([]byte, bool)) ([]byte, bool) {
	size := 4 << 10
	for hi > lo {
		from := max(hi-size, lo)
		if from > lo && t.b[from-1] != '\n' {
			// The chunk starts with the line it cuts in two.
			i := bytes.IndexByte(t.b[from:hi], '\n')
			if i < 0 || from+i+1 == hi {
				size *= 2 // a line longer than the chunk
				continue
			}
			from += i + 1
		}
		var found []byte
		ok := false
		for p := from; p < hi; {
			e := bytes.IndexByte(t.b[p:hi], '\n') + 1
			if e == 0 {
				e = hi - p
			}
			e += p
			if name, yes := match(t.b[p:e:e]); yes {
				found, ok = name, true
			}
			p = e
		}
		if ok {
			return found, true
		}
		hi = from
		size = min(size*2, 64<<10)
	}
	return nil, false
}

package translate

import (
	"iter"
	"math"
	"math/bits"
	"strings"
)

// markIndex holds the lines of a reply that may be a marker line, found
// in one pass, so that the detectors, whole's check and the search for
// stray markers each look at those lines only. A whole file of a
// million lines was cut into lines and trimmed once per detector.
//
// Every marker test (markerAt and the tests built on it) needs the
// line's first byte, after its blanks, to be one of "<>*-+": a line
// whose first byte after ASCII white space is another ASCII byte is
// none. A first byte of 0x80 or more may start a Unicode space
// (strings.TrimSpace takes U+0085 and U+00A0 off), so such a line is
// kept too. A line kept is tested exactly as before; a line left out
// is one every test says no to. The other tests of a line's start
// (udiff's headers and hunks, chunk's operations key, whole's closing
// fence) look at first the same way.
type markIndex struct {
	text  string
	built bool
	// starts holds where each line starts in text, and then where a
	// line after the last would (wide instead for a text of 2 GiB or
	// more): four bytes a line, and five with first, where a
	// string a line (what the readers cut) takes sixteen. A reply of
	// millions of short lines is read in a small multiple of its size.
	starts []int32
	wide   []int
	// first holds, for each line, its first byte after ASCII white
	// space (0 for a blank line): what a test of a line's start looks
	// at before anything else.
	first []byte
	// seen holds the bytes some line's first is, and marks the lines
	// that may be markers (mayMarkByte of first), a bit each: a test
	// of lines starting with bytes no line starts with ends at once,
	// and candidates passes 64 lines of a long file's code a step (a
	// whole file of a million lines is looked at by every detector).
	seen  [256]bool
	marks []uint64
	calls int8 // hasAgentCall(text): 0 not asked yet, 1 no, 2 yes
}

// hasAgentCall is hasAgentCall(x.text), asked once: detection, the
// agents' detectors and the readers' texts all want it.
func (x *markIndex) hasAgentCall() bool {
	if x.calls == 0 {
		x.calls = 1
		if hasAgentCall(x.text) {
			x.calls = 2
		}
	}
	return x.calls == 2
}

// markLine is a line that may be a marker: where it starts and ends in
// text (without its "\n") and its 0-based number.
type markLine struct{ off, end, n int }

func newMarkIndex(text string) *markIndex { return &markIndex{text: text} }

// build reads the lines' starts and first bytes, once.
func (x *markIndex) build() {
	if x.built {
		return
	}
	x.built = true
	text := x.text
	if text == "" {
		return
	}
	lines := strings.Count(text, "\n") + 1
	wide := len(text) >= math.MaxInt32
	if wide {
		x.wide = make([]int, 0, lines+1)
	} else {
		x.starts = make([]int32, 0, lines+1)
	}
	x.first = make([]byte, 0, lines)
	x.marks = make([]uint64, (lines+63)/64)
	at := 0
	for at < len(text) {
		if wide {
			x.wide = append(x.wide, at)
		} else {
			x.starts = append(x.starts, int32(at))
		}
		end := strings.IndexByte(text[at:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += at
		}
		c := firstByte(text[at:end])
		if mayMarkByte(c) {
			n := len(x.first)
			x.marks[n/64] |= 1 << (n % 64)
		}
		x.seen[c] = true
		x.first = append(x.first, c)
		at = end + 1
	}
	if wide {
		x.wide = append(x.wide, at)
	} else {
		x.starts = append(x.starts, int32(at))
	}
}

// lines is the number of lines.
func (x *markIndex) lines() int {
	x.build()
	return len(x.first)
}

// lineOf is line n as markIndex cut it: where it starts and ends
// (before its "\n", after any "\r").
func (x *markIndex) lineOf(n int) markLine {
	var off, next int
	if x.wide != nil {
		off, next = x.wide[n], x.wide[n+1]
	} else {
		off, next = int(x.starts[n]), int(x.starts[n+1])
	}
	return markLine{off, min(next-1, len(x.text)), n}
}

// candidates yields the lines that may be markers, in order.
func (x *markIndex) candidates() iter.Seq[markLine] {
	return func(yield func(markLine) bool) {
		x.build()
		for k, w := range x.marks {
			for w != 0 {
				n := k*64 + bits.TrailingZeros64(w)
				w &= w - 1
				if !yield(x.lineOf(n)) {
					return
				}
			}
		}
	}
}

// firstBytes returns the first byte of each line after ASCII white
// space (see markIndex.first).
func (x *markIndex) firstBytes() []byte {
	x.build()
	return x.first
}

// split is line n as splitLines cuts it.
func (x *markIndex) split(n int) string {
	return strings.TrimSuffix(x.line(x.lineOf(n)), "\r")
}

// anyLineStarts reports whether a line whose first byte after ASCII
// white space is one of bs passes is (the line as splitLines cuts it).
func (x *markIndex) anyLineStarts(bs string, is func(l string) bool) bool {
	x.build()
	var want [256]bool
	some := false
	for i := 0; i < len(bs); i++ {
		if c := bs[i]; c != 0 && x.seen[c] {
			want[c], some = true, true
		}
	}
	if !some {
		return false
	}
	for n, c := range x.first {
		if want[c] && is(x.split(n)) {
			return true
		}
	}
	return false
}

// lineSplit returns splitLines(x.text), cut where the index found the
// lines.
func (x *markIndex) lineSplit() []string {
	if x.text == "" {
		return nil
	}
	lines := make([]string, x.lines())
	if x.wide != nil {
		for n := range lines {
			lines[n] = x.split(n)
		}
		return lines
	}
	// split's work, for the lines of a text under 2 GiB in a loop of
	// its own: a whole file of a million lines is cut here.
	text, starts := x.text, x.starts
	for n := range lines {
		l := text[starts[n]:min(int(starts[n+1])-1, len(text))]
		if len(l) > 0 && l[len(l)-1] == '\r' {
			l = l[:len(l)-1]
		}
		lines[n] = l
	}
	return lines
}

// line is the text of l.
func (x *markIndex) line(l markLine) string { return x.text[l.off:l.end] }

// lineAt is lineAt(is)(x.text) for a test is that only a marker line
// passes.
func (x *markIndex) lineAt(is func(trimmed string) bool) int {
	for l := range x.candidates() {
		if is(strings.Trim(x.line(l), " \t\r\f")) {
			return l.off
		}
	}
	return -1
}

// markerLines is markerLines(x.text, fn).
func (x *markIndex) markerLines(fn func(line int, t string, m markerLike) bool) {
	for l := range x.candidates() {
		t := trimBlank(x.line(l))
		if m := markerAt(t); m.kind != noMarker && !fn(l.n+1, t, m) {
			return
		}
	}
}

// firstMarker is firstMarker(x.text).
func (x *markIndex) firstMarker() (line int, t string, m markerLike) {
	x.markerLines(func(n int, tn string, mn markerLike) bool {
		line, t, m = n, tn, mn
		return false
	})
	return line, t, m
}

// detectIn makes a detector of the reply's text one of its index.
func detectIn(detect func(string) int) func(*markIndex) int {
	return func(x *markIndex) int { return detect(x.text) }
}

// markerLineAt is lineAt for a marker test, on the index.
func markerLineAt(is func(trimmed string) bool) func(*markIndex) int {
	return func(x *markIndex) int { return x.lineAt(is) }
}

// mayMarkByte reports whether a line whose first byte after ASCII
// white space is c may be a marker line (see markIndex).
func mayMarkByte(c byte) bool {
	switch {
	case c == '<', c == '>', c == '*', c == '-', c == '+', c >= 0x80:
		return true
	}
	return false
}

// firstByte is the first byte of l after ASCII white space (" \t\r\f\v",
// and "\n", which no line holds); 0 when there is none.
func firstByte(l string) byte {
	for i := 0; i < len(l); i++ {
		switch l[i] {
		case ' ', '\t', '\r', '\n', '\f', '\v':
		default:
			return l[i]
		}
	}
	return 0
}

// mayStartWithByte reports whether a line whose first byte after ASCII
// white space is b, trimmed by strings.TrimSpace, may start with the
// ASCII byte c: b is c, or may start a Unicode space.
func mayStartWithByte(b, c byte) bool { return b == c || b >= 0x80 }

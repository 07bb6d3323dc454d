package translate

import (
	"sort"
	"strings"
)

// udxLines is a reply as the udiffx reader walks it: its text with
// "\r\n" folded to "\n", and where its lines and tags are. It keeps no
// string per line: the offset of every udxMark-th line is enough to
// find any line in a few steps, and the last line found makes a walk
// in order one step a line. A reply of millions of short lines (a
// FILE_NEW of a large file) then costs its own bytes, not a string
// header and offsets per line, which were tens of times its size.
type udxLines struct {
	src   string // the reply's lines joined by "\n" (as splitLines cuts them)
	n     int    // how many
	marks []int  // offset in src of line k*udxMark
	// tagged lists the lines that start with a tag (white space
	// aside), in order, and tags the tag of each ("FILE_NEW",
	// "/FILE_NEW").
	tagged []int
	tags   []string
	// at and atOff are the last line start asked for and its offset.
	at, atOff int
}

// udxMark is how many lines part two remembered offsets.
const udxMark = 64

func newUdxLines(text string) udxLines {
	var l udxLines
	l.src, l.n = udxFold(text)
	off := 0
	for i := 0; i < l.n; i++ {
		if i%udxMark == 0 {
			l.marks = append(l.marks, off)
		}
		end := strings.IndexByte(l.src[off:], '\n')
		if end < 0 {
			end = len(l.src) - off
		}
		t := strings.TrimLeft(l.src[off:off+end], " \t")
		if name := udxTagAt(t, 0, true); name != "" {
			if t[1] == '/' {
				name = "/" + name
			}
			l.tagged = append(l.tagged, i)
			l.tags = append(l.tags, name)
		}
		off += end + 1
	}
	return l
}

// udxFold returns the lines splitLines cuts text into, joined by "\n",
// and how many there are; without a "\r" in text that is text itself,
// less its last "\n", and no copy.
func udxFold(text string) (string, int) {
	if text == "" {
		return "", 0
	}
	n := strings.Count(text, "\n")
	if !strings.HasSuffix(text, "\n") {
		n++
	}
	if !strings.Contains(text, "\r") {
		return strings.TrimSuffix(text, "\n"), n
	}
	var b strings.Builder
	b.Grow(len(text))
	for i := 0; text != ""; i++ {
		line := text
		if j := strings.IndexByte(text, '\n'); j >= 0 {
			line, text = text[:j], text[j+1:]
		} else {
			text = ""
		}
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(strings.TrimSuffix(line, "\r"))
	}
	return b.String(), n
}

// start returns the offset in src of line i (0-based, i < n).
func (l *udxLines) start(i int) int {
	at, off := i/udxMark*udxMark, l.marks[i/udxMark]
	if l.at > at && l.at <= i {
		at, off = l.at, l.atOff
	}
	for ; at < i; at++ {
		off += strings.IndexByte(l.src[off:], '\n') + 1
	}
	l.at, l.atOff = i, off
	return off
}

// line returns line i, without its "\n".
func (l *udxLines) line(i int) string {
	off := l.start(i)
	if end := strings.IndexByte(l.src[off:], '\n'); end >= 0 {
		return l.src[off : off+end]
	}
	return l.src[off:]
}

// lineEnd returns the offset in src of the end of line i.
func (l *udxLines) lineEnd(i int) int { return l.start(i) + len(l.line(i)) }

// lineOf returns the 1-based reply line holding offset off of src.
func (l *udxLines) lineOf(off int) int {
	k := sort.Search(len(l.marks), func(k int) bool { return l.marks[k] > off }) - 1
	if k < 0 {
		return 0
	}
	i, at := k*udxMark, l.marks[k]
	for i+1 < l.n {
		next := at + strings.IndexByte(l.src[at:], '\n') + 1
		if next > off {
			break
		}
		i, at = i+1, next
	}
	return i + 1
}

// lineTag returns the tag line i starts with ("FILE_NEW", "/FILE_NEW";
// "" for none).
func (l *udxLines) lineTag(i int) string {
	if k := sort.SearchInts(l.tagged, i); k < len(l.tagged) && l.tagged[k] == i {
		return l.tags[k]
	}
	return ""
}

// tagLine returns the first line at or after line i that starts with a
// tag (n for none).
func (l *udxLines) tagLine(i int) int {
	if k := sort.SearchInts(l.tagged, i); k < len(l.tagged) {
		return l.tagged[k]
	}
	return l.n
}

package engine

import (
	"bytes"
	"context"
	"sort"
	"strings"
)

// doc is a text file as the engine edits it: its lines with their own
// terminators, so that every line an edit does not touch is written
// back byte for byte. The lines are kept as a list of pieces (runs of
// lines) so that an edit costs the size of the edit and the number of
// edits so far, not the length of the file; each edit is logged so that
// indexes built earlier can follow it (see view).
type doc struct {
	pieces [][]string // runs of lines, each with its terminator ("\n", "\r\n", or "" for a last line without one)
	starts []int      // starts[i]: first line of pieces[i]; the last entry is the line count
	eol    string     // the file's line ending for lines the reply adds
	final  bool       // the file ends with a line terminator (or is empty)
	log    []spliceRec
	unit   string // indentation unit, computed once
	// bom is the UTF-8 byte order mark the file starts with, or "". It
	// belongs to the file, not to its first line: the reply's lines
	// match that line without it, and it stays at the top whatever
	// replaces the line or is inserted above it.
	bom string
	// whole, while lazy is set, is the doc's text, not yet cut into
	// lines (see newDocWhole), and n its line count.
	whole string
	n     int
	lazy  bool
	// stop, when set, is the context of the resolution the doc belongs
	// to: each looks at it every checkEvery lines and unwinds the
	// resolution once it has ended (see stopped), so that no loop over
	// a long file keeps a cancelled run going.
	stop context.Context
}

// utf8BOM is the UTF-8 byte order mark (U+FEFF).
const utf8BOM = "\ufeff"

// spliceRec is one edit of a doc: lines [at, at+removed) became added
// lines.
type spliceRec struct{ at, removed, added int }

func newDoc(data []byte) *doc {
	final := true
	s := string(data)
	bom := ""
	if strings.HasPrefix(s, utf8BOM) {
		bom, s = utf8BOM, s[len(utf8BOM):]
	}
	// Sized once: grown by append, a million lines would allocate the
	// slice five times over.
	lines := make([]string, 0, strings.Count(s, "\n")+1)
	crlf, lf := 0, 0
	for len(s) > 0 {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			lines = append(lines, s)
			final = false
			break
		}
		if i > 0 && s[i-1] == '\r' {
			crlf++
		} else {
			lf++
		}
		lines = append(lines, s[:i+1])
		s = s[i+1:]
	}
	eol := "\n"
	if crlf > lf {
		eol = "\r\n"
	}
	d := newDocLines(lines, eol, final)
	d.bom = bom
	return d
}

// newDocWhole is the doc of a file created whole: text, whose n lines
// each end with "\n". Its lines are cut only when something asks for
// one; a created file that no later edit reads goes to the diff and the
// blob as it is, without a string per line (for a file of millions of
// short lines, most of what it would cost).
func newDocWhole(text string, n int) *doc {
	return &doc{whole: text, n: n, lazy: true, eol: "\n", final: true}
}

// open cuts a whole doc into its lines, as newDocLines holds them.
func (d *doc) open() {
	if !d.lazy {
		return
	}
	lines := make([]string, 0, d.n)
	for s := d.whole; s != ""; {
		i := strings.IndexByte(s, '\n') + 1
		lines = append(lines, s[:i])
		s = s[i:]
	}
	if len(lines) > 0 {
		d.pieces = [][]string{lines}
	}
	d.whole, d.lazy = "", false
	d.reindex()
}

func newDocLines(lines []string, eol string, final bool) *doc {
	d := &doc{eol: eol, final: final}
	if len(lines) > 0 {
		d.pieces = [][]string{lines}
	}
	d.reindex()
	return d
}

func (d *doc) reindex() {
	d.starts = d.starts[:0]
	n := 0
	for _, p := range d.pieces {
		d.starts = append(d.starts, n)
		n += len(p)
	}
	d.starts = append(d.starts, n)
}

// len is the number of lines.
func (d *doc) len() int {
	if d.lazy {
		return d.n
	}
	return d.starts[len(d.starts)-1]
}

// line returns line i with its terminator.
func (d *doc) line(i int) string {
	d.open()
	p := sort.Search(len(d.pieces), func(k int) bool { return d.starts[k+1] > i })
	return d.pieces[p][i-d.starts[p]]
}

// content returns line i without its terminator (a CR before the LF
// counts as part of the terminator: CRLF and LF are the same).
func (d *doc) content(i int) string { return trimEOL(d.line(i)) }

// trimEOL drops a line's terminator: "\n" or "\r\n". A "\r" that no
// "\n" follows is part of the line.
func trimEOL(s string) string {
	if strings.HasSuffix(s, "\n") {
		s = s[:len(s)-1]
		return strings.TrimSuffix(s, "\r")
	}
	return s
}

// each calls fn for every line from line from on, in order, until fn
// returns false.
func (d *doc) each(from int, fn func(i int, line string) bool) {
	d.open()
	for k, p := range d.pieces {
		if d.starts[k+1] <= from {
			continue
		}
		for j := max(0, from-d.starts[k]); j < len(p); j++ {
			i := d.starts[k] + j
			if i%checkEvery == 0 && d.stop != nil && d.stop.Err() != nil {
				panic(stopped{d.stop.Err()})
			}
			if !fn(i, p[j]) {
				return
			}
		}
	}
}

// slice returns a copy of lines [from, to).
func (d *doc) slice(from, to int) []string {
	out := make([]string, 0, max(0, to-from))
	if to > from {
		d.each(from, func(i int, l string) bool {
			if i >= to {
				return false
			}
			out = append(out, l)
			return true
		})
	}
	return out
}

// bytes joins the lines after the file's byte order mark, giving every
// line but the last a terminator and the last one the file's original
// final-newline state.
func (d *doc) bytes() []byte {
	if d.lazy {
		return []byte(d.whole)
	}
	var b bytes.Buffer
	n := d.len()
	size := len(d.bom) + len(d.eol)
	for _, p := range d.pieces {
		for _, l := range p {
			size += len(l)
		}
	}
	b.Grow(size) // grown by doubling, a long file would be copied over and over
	b.WriteString(d.bom)
	d.each(0, func(i int, l string) bool {
		body := trimEOL(l)
		term := l[len(body):]
		switch {
		case i == n-1 && !d.final:
			term = ""
		case term == "":
			term = d.eol
		}
		b.WriteString(body)
		b.WriteString(term)
		return true
	})
	return b.Bytes()
}

// splice replaces lines [from, to) with repl.
func (d *doc) splice(from, to int, repl []string) {
	d.open()
	d.log = append(d.log, spliceRec{from, to - from, len(repl)})
	var out [][]string
	for k, p := range d.pieces {
		s, e := d.starts[k], d.starts[k+1]
		if e <= from || s >= to {
			if s >= to && len(repl) > 0 {
				out = append(out, repl)
				repl = nil
			}
			out = append(out, p)
			continue
		}
		if s < from {
			out = append(out, p[:from-s])
		}
		if len(repl) > 0 {
			out = append(out, repl)
			repl = nil
		}
		if e > to {
			out = append(out, p[to-s:])
		}
	}
	if len(repl) > 0 {
		out = append(out, repl)
	}
	d.pieces = out
	d.reindex()
	// An empty last line has no bytes but its terminator: without it,
	// it would not be a line at all, and the doc would count one line
	// more than the file it writes. It keeps its terminator.
	if n := d.len(); !d.final && n > 0 && trimEOL(d.line(n-1)) == "" {
		d.final = true
	}
}

// forward maps line pos of the doc as it stood after log entry from-1
// to the line it is now; false when an edit since removed it.
func (d *doc) forward(pos, from int) (int, bool) {
	for _, r := range d.log[from:] {
		switch {
		case pos < r.at:
		case pos < r.at+r.removed:
			return 0, false
		default:
			pos += r.added - r.removed
		}
	}
	return pos, true
}

// indentUnit guesses one level of indentation in the file: "\t" when
// tab-indented lines dominate, else the most common step between the
// indents of consecutive lines, else four spaces.
func (d *doc) indentUnit() string {
	if d.unit == "" {
		d.unit = d.guessUnit()
	}
	return d.unit
}

func (d *doc) guessUnit() string {
	tabs, spaces := 0, 0
	steps := map[int]int{}
	prev := 0
	d.each(0, func(_ int, l string) bool {
		c := trimEOL(l)
		if strings.TrimSpace(c) == "" {
			return true
		}
		ws := c[:len(c)-len(strings.TrimLeft(c, " \t"))]
		switch {
		case strings.HasPrefix(ws, "\t"):
			tabs++
		case ws != "":
			spaces++
		}
		n := len(strings.TrimLeft(ws, "\t"))
		if !strings.HasPrefix(ws, "\t") && n > prev {
			steps[n-prev]++
		}
		prev = n
		return true
	})
	if tabs > spaces {
		return "\t"
	}
	best, bestN := 4, 0
	for step, n := range steps {
		if n > bestN || (n == bestN && step < best) {
			best, bestN = step, n
		}
	}
	return strings.Repeat(" ", best)
}

// plural returns one when n is 1, else many.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

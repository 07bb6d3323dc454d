package engine

import (
	"context"
	"math"
	"sort"
	"strings"
	"sync"
	"unsafe"

	"github.com/git-llm-apply/git-llm-apply/internal/poll"
	"github.com/git-llm-apply/git-llm-apply/internal/prefault"
)

// doc is a text file as the engine edits it: its lines with their own
// terminators, so that every line an edit does not touch is written
// back byte for byte.
//
// The file's text is kept whole, with where each line starts; the lines
// edits add go to a list of their own. The doc is a list of pieces,
// runs of lines of either, with a gap where the last edit was: an edit
// costs the size of the edit and how far it stands from the one before,
// not the length of the file nor the number of edits so far. Each edit
// is logged so that indexes built earlier can follow it (see view).
type doc struct {
	// text is the file after its byte order mark; off(i) is where its
	// line i starts, and off(textLines) is len(text). Offsets are kept
	// in offs, four bytes a line, or in wide for a text of 2 GiB or
	// more; neither is set while the doc is lazy.
	text      string
	offs      []int32
	wide      []int
	textLines int
	longest   int // bytes of the text's longest line, its terminator included
	// added holds the lines edits added, in the order of the log;
	// addedAt[e] is where the lines of log entry e start in it.
	added   []string
	addedAt []int
	// pieces[:gap] and pieces[gapEnd:] are the doc's pieces in order;
	// the start of a piece before the gap is counted from the top, of
	// one after it from the bottom (lines from its start to the end),
	// so that an edit at the gap changes neither.
	pieces      []piece
	gap, gapEnd int
	total       int // lines

	eol   string // the file's line ending for lines the reply adds
	final bool   // the file ends with a line terminator (or is empty)
	log   []spliceRec
	unit  string // indentation unit, computed once
	// bom is the UTF-8 byte order mark the file starts with, or "". It
	// belongs to the file, not to its first line: the reply's lines
	// match that line without it, and it stays at the top whatever
	// replaces the line or is inserted above it.
	bom string
	// lazy is set for the doc of a file created whole (see newDocWhole)
	// until something asks for a line.
	lazy bool
	// stop, when set, is the context of the resolution the doc belongs
	// to: each looks at it every checkEvery lines and unwinds the
	// resolution once it has ended (see stopped), so that no loop over
	// a long file keeps a cancelled run going.
	stop context.Context
}

// piece is n lines: lines [from, from+n) of the doc's text, or of its
// added lines when add is set. key orders the pieces by the text lines
// they hold or stand among: from for text lines, for added ones a text
// line number between those of the text pieces around them; it lets a
// text line be found by binary search (see where).
type piece struct {
	from, n, key int
	start        int // see doc.pieces
	add          bool
}

// utf8BOM is the UTF-8 byte order mark (U+FEFF).
const utf8BOM = "\ufeff"

// spliceRec is one edit of a doc: lines [at, at+removed) became added
// lines.
type spliceRec struct{ at, removed, added int }

// newDoc is the doc of data, which it keeps: the bytes a Source reads
// are never written afterwards, so its lines are read in place instead
// of from a copy of the file.
func newDoc(data []byte) *doc { return newDocStop(context.Background(), data) }

// newDocStop is newDoc whose indexing, and all later loops over its
// lines, look at stop (see doc.stop): finding a long file's lines
// looks every poll.Step bytes (SPEC section 2).
func newDocStop(stop context.Context, data []byte) *doc {
	s := unsafe.String(unsafe.SliceData(data), len(data))
	bom := ""
	if strings.HasPrefix(s, utf8BOM) {
		bom, s = utf8BOM, s[len(utf8BOM):]
	}
	d := &doc{text: s, bom: bom, stop: stop}
	crlf, lf := d.index()
	d.eol = "\n"
	if crlf > lf {
		d.eol = "\r\n"
	}
	d.final = s == "" || s[len(s)-1] == '\n'
	return d
}

// index finds where the text's lines start and makes them the doc's
// one piece; it counts the lines that end with CRLF and with LF alone.
func (d *doc) index() (crlf, lf int) {
	s := d.text
	n := strings.Count(s, "\n")
	if s != "" && s[len(s)-1] != '\n' {
		n++
	}
	// Sized once: grown by append, a million lines would allocate the
	// slice five times over.
	d.textLines, d.offs, d.wide = n, nil, nil
	if len(s) <= math.MaxInt32 {
		d.offs = make([]int32, n+1)
		crlf, lf = lineStarts(d.stop, s, d.offs, &d.longest)
	} else {
		d.wide = make([]int, n+1)
		crlf, lf = lineStarts(d.stop, s, d.wide, &d.longest)
	}
	d.pieces, d.gap, d.gapEnd, d.total = nil, 0, 0, n
	if n > 0 {
		d.pieces, d.gap, d.gapEnd = []piece{{from: 0, n: n, key: 0, start: 0}}, 1, 1
	}
	return crlf, lf
}

// startsOf returns where each line of data starts, and len(data)
// last, for patch.FileChange.OldStarts, when d is the doc of data as
// read (no byte order mark before its lines, offsets of 32 bits); nil
// otherwise.
func (d *doc) startsOf(data []byte) []int32 {
	if d == nil || d.bom != "" || d.offs == nil || d.lazy || len(d.text) != len(data) ||
		len(data) > 0 && unsafe.StringData(d.text) != unsafe.SliceData(data) {
		return nil
	}
	return d.offs
}

// lineStarts fills offs, one longer than s has lines, with where each
// line of s starts and, last, len(s); it raises *longest to the length
// of the longest line and counts the lines that end with CRLF and with
// LF alone.
func lineStarts[T int32 | int](stop context.Context, s string, offs []T, longest *int) (crlf, lf int) {
	k, at, next := 0, 0, 0
	if stop != nil && len(s) > poll.Step {
		poll.Begin("index", len(s))
	}
	for at < len(s) {
		if at >= next && stop != nil {
			if err := poll.Check(stop, min(poll.Step, len(s)-at)); err != nil {
				panic(stopped{err})
			}
			next = at + poll.Step
		}
		offs[k] = T(at)
		k++
		i := strings.IndexByte(s[at:], '\n')
		if i < 0 {
			*longest = max(*longest, len(s)-at)
			break
		}
		*longest = max(*longest, i+1)
		if i > 0 && s[at+i-1] == '\r' {
			crlf++
		} else {
			lf++
		}
		at += i + 1
	}
	offs[k] = T(len(s))
	return crlf, lf
}

// off returns where line i of the text starts.
func (d *doc) off(i int) int {
	if d.wide != nil {
		return d.wide[i]
	}
	return int(d.offs[i])
}

// newDocWhole is the doc of a file created whole: text, whose n lines
// each end with "\n". Where its lines start is found only when
// something asks for one; a created file that no later edit reads goes
// to the diff and the blob as it is.
func newDocWhole(text string, n int) *doc {
	return &doc{text: text, total: n, lazy: true, eol: "\n", final: true}
}

// open finds the lines of a lazy doc.
func (d *doc) open() {
	if d.lazy {
		d.lazy = false
		d.index()
	}
}

// newDocLines is the doc of lines, each with its terminator.
func newDocLines(lines []string, eol string, final bool) *doc {
	d := &doc{text: strings.Join(lines, ""), eol: eol, final: final}
	d.index()
	return d
}

// len is the number of lines.
func (d *doc) len() int { return d.total }

// pieceCount is the number of pieces, and piece(k) the kth.
func (d *doc) pieceCount() int { return d.gap + len(d.pieces) - d.gapEnd }

func (d *doc) piece(k int) *piece {
	if k >= d.gap {
		k += d.gapEnd - d.gap
	}
	return &d.pieces[k]
}

// startOf returns the first line of piece k.
func (d *doc) startOf(k int) int {
	if k < d.gap {
		return d.pieces[k].start
	}
	return d.total - d.pieces[k+d.gapEnd-d.gap].start
}

// pieceAt returns the piece holding line i (pieceCount when i is past
// the end).
func (d *doc) pieceAt(i int) int {
	return sort.Search(d.pieceCount(), func(k int) bool { return d.startOf(k)+d.piece(k).n > i })
}

// lineOf returns line j of piece p.
func (d *doc) lineOf(p *piece, j int) string {
	if p.add {
		return d.added[p.from+j]
	}
	return d.text[d.off(p.from+j):d.off(p.from+j+1)]
}

// line returns line i with its terminator.
func (d *doc) line(i int) string {
	d.open()
	k := d.pieceAt(i)
	return d.lineOf(d.piece(k), i-d.startOf(k))
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
	d.walk(from, func(i, _ int, line string) bool { return fn(i, line) })
}

// walk is each that also gives each line's id (see where).
func (d *doc) walk(from int, fn func(i, id int, line string) bool) {
	d.open()
	for k := d.pieceAt(from); k < d.pieceCount(); k++ {
		p, s := d.piece(k), d.startOf(k)
		id := p.from
		if p.add {
			id += d.textLines
		}
		for j := max(0, from-s); j < p.n; j++ {
			i := s + j
			if i%checkEvery == 0 && d.stop != nil && d.stop.Err() != nil {
				panic(stopped{d.stop.Err()})
			}
			if !fn(i, id+j, d.lineOf(p, j)) {
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
		return []byte(d.text)
	}
	// The content is laid out as segments (runs of text lines, added
	// lines, line endings), each with where it goes, and then copied.
	var segs []string
	size := 0
	add := func(s string) {
		if s != "" {
			segs = append(segs, s)
			size += len(s)
		}
	}
	add(d.bom)
	for k := range d.pieceCount() {
		p := d.piece(k)
		if !p.add {
			// Text lines are written as a run: of them, only the text's
			// last line can lack a terminator.
			run := d.text[d.off(p.from):d.off(p.from+p.n)]
			add(run)
			if run != "" && run[len(run)-1] != '\n' {
				add(d.eol)
			}
			continue
		}
		for _, l := range d.added[p.from : p.from+p.n] {
			add(l)
			if trimEOL(l) == l {
				add(d.eol)
			}
		}
	}
	cut := 0
	if !d.final && d.total > 0 {
		// The last line keeps the file's want of a final newline.
		last := d.line(d.total - 1)
		cut = len(last) - len(trimEOL(last))
		if trimEOL(last) == last {
			cut += len(d.eol)
		}
	}
	out := make([]byte, size)
	copySegments(out, segs)
	return out[:size-cut]
}

// parallelCopy is the length from which copySegments copies on two
// goroutines; a variable, so that tests can make every copy take that
// path.
var parallelCopy = 1 << 20

// copySegments copies segs one after another into out, which they
// fill. A long content is copied in two halves side by side: the copy
// into memory fresh from the system is mostly its page faults (2 ms of
// a 2.3 MB file's check), which two processors take in half the time.
func copySegments(out []byte, segs []string) {
	if len(out) < parallelCopy {
		copyInSteps(out, segs)
		return
	}
	// The second half starts in segment k, h bytes in.
	half, at, k := len(out)/2, 0, 0
	for k < len(segs) && at+len(segs[k]) <= half {
		at += len(segs[k])
		k++
	}
	first, second := segs[:k:k], segs[k:]
	if h := half - at; h > 0 {
		first = append(first, segs[k][:h])
		second = append([]string{segs[k][h:]}, segs[k+1:]...)
	}
	var wg sync.WaitGroup
	wg.Go(func() { copyInSteps(out[:half], first) })
	copyInSteps(out[half:], second)
	wg.Wait()
}

// copyInSteps copies segs one after another into out, a step at a
// time, each step a call. A copy into memory fresh from the system is
// mostly page faults inside memmove, where the runtime cannot preempt
// the goroutine: a garbage collection that starts meanwhile signals
// the thread over and over until the copying ends, and the signals
// slow the faults down (a 2.3 MB file's copy took 5 ms instead of 0.5,
// a 28 MB one's 30 ms more). A call's prologue is a point where the
// goroutine stops at once, so every segment is copied through one, and
// long ones through one every 256 KiB. The pages of out are mapped
// first, in one system call where there is one (each half its own,
// side by side): a page fault a page costs more than the copy.
func copyInSteps(out []byte, segs []string) {
	const step = 256 << 10
	prefault.Touch(out)
	at := 0
	for _, s := range segs {
		for len(s) > step {
			at += copyStep(out[at:], s[:step])
			s = s[step:]
		}
		at += copyStep(out[at:], s)
	}
}

//go:noinline
func copyStep(b []byte, s string) int { return copy(b, s) }

// splice replaces lines [from, to) with repl.
func (d *doc) splice(from, to int, repl []string) {
	d.open()
	d.log = append(d.log, spliceRec{from, to - from, len(repl)})
	d.addedAt = append(d.addedAt, len(d.added))
	k := d.pieceAt(from)
	d.moveGap(k)
	// The pieces from k on now stand after the gap; cut off the part of
	// the first that stands before from.
	if d.gapEnd < len(d.pieces) {
		p := &d.pieces[d.gapEnd]
		if s := d.total - p.start; s < from {
			left := *p
			left.n, left.start = from-s, s
			d.insertAtGap(left)
			p = &d.pieces[d.gapEnd]
			p.from += from - s
			p.n -= from - s
			if !p.add {
				p.key = p.from
			}
			p.start = d.total - from
		}
	}
	// Drop what [from, to) covers: whole pieces, then the head of one.
	for d.gapEnd < len(d.pieces) {
		p := &d.pieces[d.gapEnd]
		s := d.total - p.start
		if s >= to {
			break
		}
		if s+p.n <= to {
			d.gapEnd++
			continue
		}
		p.from += to - s
		p.n -= to - s
		if !p.add {
			p.key = p.from
		}
		p.start = d.total - to
		break
	}
	if len(repl) > 0 {
		key := 0
		if d.gap > 0 {
			if l := d.pieces[d.gap-1]; l.add {
				key = l.key
			} else {
				key = l.from + l.n
			}
		}
		d.insertAtGap(piece{from: len(d.added), n: len(repl), key: key, start: from, add: true})
		d.added = append(d.added, repl...)
	}
	d.total += len(repl) - (to - from)
	// An empty last line has no bytes but its terminator: without it,
	// it would not be a line at all, and the doc would count one line
	// more than the file it writes. It keeps its terminator.
	if n := d.len(); !d.final && n > 0 && trimEOL(d.line(n-1)) == "" {
		d.final = true
	}
}

// moveGap moves the gap to stand before piece k.
func (d *doc) moveGap(k int) {
	for d.gap > k {
		d.gap--
		d.gapEnd--
		p := d.pieces[d.gap]
		p.start = d.total - p.start
		d.pieces[d.gapEnd] = p
	}
	for d.gap < k {
		p := d.pieces[d.gapEnd]
		p.start = d.total - p.start
		d.pieces[d.gap] = p
		d.gap++
		d.gapEnd++
	}
}

// insertAtGap puts p before the gap, growing the gap when it is closed.
func (d *doc) insertAtGap(p piece) {
	if d.gap == d.gapEnd {
		grown := make([]piece, 2*len(d.pieces)+8)
		copy(grown, d.pieces[:d.gap])
		tail := len(d.pieces) - d.gapEnd
		copy(grown[len(grown)-tail:], d.pieces[d.gapEnd:])
		d.gapEnd = len(grown) - tail
		d.pieces = grown
	}
	d.pieces[d.gap] = p
	d.gap++
}

// where returns the line that line id of the doc stands at now, false
// when an edit removed it. A line's id is its line number in the text
// for a line of the text, and len(text's lines) plus its place among
// the added lines for one an edit added.
func (d *doc) where(id int) (int, bool) {
	if n := d.textLines; id >= n {
		a := id - n
		e := sort.Search(len(d.addedAt), func(e int) bool { return d.addedAt[e] > a }) - 1
		return d.forward(d.log[e].at+a-d.addedAt[e], e+1)
	}
	// The text piece holding id is the last piece whose key is at most
	// id, or one of the added pieces just before it.
	k := sort.Search(d.pieceCount(), func(k int) bool { return d.piece(k).key > id }) - 1
	for ; k >= 0; k-- {
		if p := d.piece(k); !p.add {
			if id < p.from+p.n {
				return d.startOf(k) + id - p.from, true
			}
			return 0, false
		}
	}
	return 0, false
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

// unedited reports whether the doc is its text as read: not lazy, no
// edit made, so line i is text line i.
func (d *doc) unedited() bool { return !d.lazy && len(d.log) == 0 && d.total == d.textLines }

// linesOf returns the lines of a doc no edit has changed yet whose
// content is k, in order, found by a look at where each line starts
// and ends rather than at its bytes: a line is compared only when its
// length fits k with one of the three terminators. A search of the
// text for k (strings.Index) is faster on varied text but slows to a
// byte at a time where many lines share k's first bytes, as the
// entries of a log or a ledger do; this costs a few nanoseconds a line
// whatever the text. false for an edited doc, whose lines are not all
// in the text. k holds no "\n" and is not empty.
func (d *doc) linesOf(k string) ([]int, bool) {
	if !d.unedited() || k == "" {
		return nil, false
	}
	s, n, last := d.text, len(k), k[len(k)-1]
	var out []int
	a := 0
	for i := range d.textLines {
		if i%checkEvery == 0 && d.stop != nil && d.stop.Err() != nil {
			panic(stopped{d.stop.Err()})
		}
		b := d.off(i + 1)
		// The content of a line ends before its "\n" or "\r\n", or at
		// the end of the text; a "\r" before a "\n" is not part of it.
		switch b - a - n {
		case 0: // no terminator: only the last line, as k holds no "\n"
		case 1:
			if s[b-1] != '\n' || last == '\r' {
				a = b
				continue
			}
		case 2:
			if s[b-2] != '\r' || s[b-1] != '\n' {
				a = b
				continue
			}
		default:
			a = b
			continue
		}
		if s[a+n-1] == last && s[a:a+n] == k {
			out = append(out, i)
		}
		a = b
	}
	return out, true
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
		w := 0 // the spaces and tabs the line starts with
		for w < len(c) && (c[w] == ' ' || c[w] == '\t') {
			w++
		}
		// A line is blank when white space only; past the indentation,
		// a printable ASCII byte says at once that it is not.
		if w == len(c) || (c[w] >= 0x80 || c[w] <= ' ') && strings.TrimSpace(c) == "" {
			return true
		}
		tab := w > 0 && c[0] == '\t'
		switch {
		case tab:
			tabs++
		case w > 0:
			spaces++
		}
		n := len(strings.TrimLeft(c[:w], "\t"))
		if !tab && n > prev {
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

package patch

// Diffing a large file around its edited regions only, so that the
// cost of an edit does not grow with the file.

import (
	"bytes"

	"znkr.io/diff"
	"znkr.io/diff/textdiff"
)

// RegionMinLines is the length from which Format diffs an old file
// with Regions only around them; shorter files are diffed whole, which
// keeps their patches exactly what they have always been. A variable
// so that tests, the engine's too, can send small files through the
// region path.
var RegionMinLines = 5000

// regionMargin is how many unchanged lines each region is widened by
// before it is diffed, for the indent heuristic (see windowHolds).
const regionMargin = 20

// regionWindow is a stretch of the file diffed as one: old lines [os, oe)
// and new lines [ns, ne), holding spans first to last.
type regionWindow struct {
	os, oe, ns, ne int
	first, last    int
}

// regionHunks returns the hunks turning old into new, computed only
// around spans, as textdiff.Hunks would give them for the whole files
// with the indent heuristic and context lines; lines are old's lines.
// It returns false when spans do not describe old and new (lines
// outside them differ), so that the caller diffs the whole files: a
// wrong hint costs time, never a wrong patch.
func regionHunks(old, new []byte, lines *textLines, spans []Span, context int) ([]textdiff.Hunk[[]byte], bool) {
	if !validSpans(spans, lines.len()) {
		return nil, false
	}
	lo := make([]int, len(spans)) // unchanged lines taken above each span
	hi := make([]int, len(spans)) // and below it
	for k := range spans {
		lo[k], hi[k] = regionMargin, regionMargin
	}
	cache := map[[2]int][]lineChange{}
	for {
		changes, grow, ok := diffWindows(old, new, lines, spans, lo, hi, cache)
		if !ok {
			return nil, false
		}
		if len(grow) == 0 {
			return assembleHunks(lines, changes, context), true
		}
		for _, g := range grow {
			if g < 0 {
				lo[-g-1] *= 4
			} else {
				hi[g] *= 4
			}
		}
	}
}

// RegionsFit reports whether c.Regions describe where c.Old and c.New
// differ, so that Format may diff a long file only around them (it
// diffs the whole file when they do not), and in how many windows the
// regions fall before any widening: regions closer than twice
// regionMargin lines share one.
func RegionsFit(c FileChange) (windows int, ok bool) {
	lines := newTextLines(c.Old)
	margins := make([]int, len(c.Regions))
	for k := range margins {
		margins[k] = regionMargin
	}
	_, ok = regionHunks(c.Old, c.New, lines, c.Regions, 3)
	return len(regionWindows(c.Regions, margins, margins, lines.len())), ok
}

// validSpans reports whether spans are sorted, apart, and within a
// file of oldN lines, with the lines between them aligned.
func validSpans(spans []Span, oldN int) bool {
	if len(spans) == 0 || spans[0].OldStart != spans[0].NewStart {
		return false
	}
	for k, s := range spans {
		if s.OldStart > s.OldEnd || s.NewStart > s.NewEnd || s.OldEnd > oldN {
			return false
		}
		if k > 0 {
			p := spans[k-1]
			if s.OldStart <= p.OldEnd || s.NewStart-s.OldStart != p.NewEnd-p.OldEnd {
				return false
			}
		}
	}
	return true
}

// regionWindows widens each span by its margins, clamped to the file, and
// merges the windows that overlap or touch.
func regionWindows(spans []Span, lo, hi []int, oldN int) []regionWindow {
	var ws []regionWindow
	for k, s := range spans {
		w := regionWindow{os: s.OldStart - min(lo[k], s.OldStart), oe: s.OldEnd + min(hi[k], oldN-s.OldEnd), first: k, last: k}
		for n := len(ws); n > 0 && ws[n-1].oe >= w.os; n-- {
			w.os, w.oe, w.first = min(w.os, ws[n-1].os), max(w.oe, ws[n-1].oe), ws[n-1].first
			ws = ws[:n-1]
		}
		ws = append(ws, w)
	}
	for i, w := range ws {
		// Outside spans new lines are old ones shifted by what the spans
		// before added or removed.
		f, l := spans[w.first], spans[w.last]
		ws[i].ns, ws[i].ne = w.os+f.NewStart-f.OldStart, w.oe+l.NewEnd-l.OldEnd
	}
	return ws
}

// lineChange is a run of deletions and insertions that no unchanged line
// parts: old lines [s0, s1) became new lines [t0, t1), as edits.
type lineChange struct {
	s0, s1, t0, t1 int
	edits          []textdiff.Edit[[]byte]
}

// diffWindows diffs every window (once: cache keeps what a window
// gave, by its old lines) and returns the changes found, in
// file coordinates. It checks on the way that the lines between windows
// are the same bytes on both sides (false if not). grow lists the spans
// whose window must widen, inside the file, for the indent heuristic
// to see what it sees in the whole file: -k-1 above span k, k below.
//
// Where each window lies is found in order; the windows are then
// diffed side by side (each diff depends on its window's bytes alone),
// and their results taken in order again, so that the outcome is the
// same as one window after the other.
func diffWindows(old, new []byte, lines *textLines, spans []Span, lo, hi []int, cache map[[2]int][]lineChange) (changes []lineChange, grow []int, ok bool) {
	oldN := lines.len()
	ob := 0    // byte offset in old of the line reached
	shift := 0 // byte offset in new minus in old, outside spans
	gap := func(to int) bool {
		start := ob
		ob = lines.start(to)
		return ob+shift <= len(new) && bytes.Equal(old[start:ob], new[start+shift:ob+shift])
	}
	windows := regionWindows(spans, lo, hi, oldN)
	jobs := make([]windowJob, 0, len(windows))
	for _, w := range windows {
		if !gap(w.os) {
			return nil, nil, false
		}
		j := windowJob{w: w, ob0: ob, nb0: ob + shift}
		ob = lines.start(w.oe)
		nb1, ok := lineEnd(new, j.nb0, w.ne-w.ns, w.oe == oldN)
		if !ok {
			return nil, nil, false
		}
		j.ob1, j.nb1, shift = ob, nb1, nb1-ob
		j.found, j.seen = cache[[2]int{w.os, w.oe}]
		jobs = append(jobs, j)
	}
	if !gap(oldN) || ob+shift != len(new) {
		return nil, nil, false
	}
	sideBySide(len(jobs), parallelWindows, func() func(int) {
		var xs, ys [][]byte // a window's lines, reused from window to window
		return func(i int) {
			j := &jobs[i]
			x, y := old[j.ob0:j.ob1], new[j.nb0:j.nb1]
			xs, ys = appendLines(xs[:0], x), appendLines(ys[:0], y)
			if !j.seen {
				var ok bool
				if j.found, ok = plainChanges(xs, ys); !ok {
					j.found = windowChanges(textdiff.Edits(x, y, textdiff.IndentHeuristic()))
				}
			}
			if len(j.found) > 0 {
				j.above, j.below = windowHolds(xs, ys, j.found)
			}
		}
	})
	for _, j := range jobs {
		w := j.w
		if !j.seen {
			cache[[2]int{w.os, w.oe}] = j.found
		}
		if len(j.found) == 0 {
			continue
		}
		if !j.above && w.os > 0 {
			grow = append(grow, -w.first-1)
		}
		if !j.below && w.oe < oldN {
			grow = append(grow, w.last)
		}
		for _, c := range j.found {
			c.s0, c.s1, c.t0, c.t1 = c.s0+w.os, c.s1+w.os, c.t0+w.ns, c.t1+w.ns
			changes = append(changes, c)
		}
	}
	return changes, grow, true
}

// windowJob is one window to diff: its old bytes [ob0, ob1) and new
// bytes [nb0, nb1), what diffing them found (or the cache had), and
// whether the window holds what the indent heuristic reads around it.
type windowJob struct {
	w                  regionWindow
	ob0, ob1, nb0, nb1 int
	found              []lineChange
	seen               bool
	above, below       bool
}

// parallelWindows is the number of windows from which diffWindows
// diffs them side by side (500 windows of a 50,000-line file took 3 ms
// one after the other); a variable so that a test can diff them one
// after the other.
var parallelWindows = 32

// The diff of a window is the whole-file diff of the same edits: both
// strip the equal lines around the changes before diffing, so what lies
// beyond the window makes no difference. The indent heuristic is
// another matter: it slides each run of deleted or inserted lines along
// the equal lines around it and scores each place by the blank lines
// (maxBlanks of them at most) and the first other line on either side,
// all of which the window must hold.

// indentMaxBlanks is maxBlanks of znkr.io/diff's indent heuristic: it
// reads no more blank lines than this in a row.
const indentMaxBlanks = 20

// windowHolds reports whether a window with old lines x and new lines y
// holds, above and below its changes, every line the indent heuristic
// reads to place them.
func windowHolds(x, y [][]byte, changes []lineChange) (above, below bool) {
	above, below = true, true
	for _, c := range changes {
		for _, side := range []struct {
			lines  [][]byte
			s0, s1 int
		}{{x, c.s0, c.s1}, {y, c.t0, c.t1}} {
			if side.s0 == side.s1 {
				continue
			}
			top, bottom := slideRange(side.lines, side.s0, side.s1)
			above = above && readsFrom(side.lines, top-1, -1)
			below = below && bottom < len(side.lines) && readsFrom(side.lines, bottom+1, 1)
		}
	}
	return above, below
}

// slideRange returns how far up and down the run of lines [s0, s1) can
// slide along equal lines: the first line it can start at and the line
// after the last it can end at.
func slideRange(lines [][]byte, s0, s1 int) (top, bottom int) {
	a, b := s0, s1
	for a > 0 && bytes.Equal(lines[a-1], lines[b-1]) {
		a, b = a-1, b-1
	}
	top = a
	a, b = s0, s1
	for b < len(lines) && bytes.Equal(lines[a], lines[b]) {
		a, b = a+1, b+1
	}
	return top, b
}

// readsFrom reports whether lines hold, from line i on in direction
// dir, a line that is not blank or indentMaxBlanks blank ones, where
// the indent heuristic stops reading.
func readsFrom(lines [][]byte, i, dir int) bool {
	for range indentMaxBlanks {
		if i < 0 || i >= len(lines) {
			return false
		}
		if !isBlankLine(lines[i]) {
			return true
		}
		i += dir
	}
	return true
}

// isBlankLine is what the indent heuristic counts as blank: nothing
// but spaces, tabs, '\v', '\r' and the '\n'.
func isBlankLine(l []byte) bool {
	for _, c := range l {
		if c != ' ' && c != '\t' && c != '\v' && c != '\r' && c != '\n' {
			return false
		}
	}
	return true
}

// maxPlainPairs bounds the pairs of lines plainChanges compares.
const maxPlainPairs = 256

// plainChanges is windowChanges of the diff of a window's lines x and
// y when that diff has but one answer: once their common first and
// last lines are set aside, no line left of x is one left of y, so each
// is deleted or inserted whole, and neither run can slide along the
// equal lines around it, so the indent heuristic has no other place to
// weigh. It costs a fraction of the diff (an edit of a few lines
// replaced, the usual window); false when the window is not so plain.
func plainChanges(x, y [][]byte) ([]lineChange, bool) {
	nx, ny := len(x), len(y)
	p := 0
	for p < nx && p < ny && bytes.Equal(x[p], y[p]) {
		p++
	}
	sx, sy := nx, ny
	for sx > p && sy > p && bytes.Equal(x[sx-1], y[sy-1]) {
		sx, sy = sx-1, sy-1
	}
	if (sx-p)*(sy-p) > maxPlainPairs || !unslidable(x, p, sx) || !unslidable(y, p, sy) {
		return nil, false
	}
	for _, a := range x[p:sx] {
		for _, b := range y[p:sy] {
			if bytes.Equal(a, b) {
				return nil, false
			}
		}
	}
	if p == sx && p == sy {
		return nil, true
	}
	edits := make([]textdiff.Edit[[]byte], 0, sx-p+sy-p)
	for s := p; s < sx; s++ {
		edits = append(edits, textdiff.Edit[[]byte]{Op: diff.Delete, LineNoX: s, LineNoY: -1, Line: x[s]})
	}
	for t := p; t < sy; t++ {
		edits = append(edits, textdiff.Edit[[]byte]{Op: diff.Insert, LineNoX: -1, LineNoY: t, Line: y[t]})
	}
	return []lineChange{{s0: p, s1: sx, t0: p, t1: sy, edits: edits}}, true
}

// unslidable reports whether the run of lines [a, b) cannot slide up
// or down along equal lines (see slideRange); an empty run cannot.
func unslidable(lines [][]byte, a, b int) bool {
	if a == b {
		return true
	}
	return (a == 0 || !bytes.Equal(lines[a-1], lines[b-1])) && (b == len(lines) || !bytes.Equal(lines[a], lines[b]))
}

// windowChanges groups the edits of one window into changes, in the
// window's coordinates.
func windowChanges(edits []textdiff.Edit[[]byte]) []lineChange {
	var out []lineChange
	s, t := 0, 0
	for i := 0; i < len(edits); {
		if edits[i].Op == diff.Match {
			s, t, i = s+1, t+1, i+1
			continue
		}
		c := lineChange{s0: s, t0: t}
		j := i
		for ; j < len(edits) && edits[j].Op != diff.Match; j++ {
			if edits[j].Op == diff.Delete {
				s++
			} else {
				t++
			}
		}
		c.s1, c.t1, c.edits = s, t, edits[i:j]
		out = append(out, c)
		i = j
	}
	return out
}

// lineEnd returns the offset in b just past n lines from offset at; a
// window that ends the file takes the rest of b, which must hold n
// lines, the last of which may lack its "\n".
func lineEnd(b []byte, at, n int, toEnd bool) (int, bool) {
	if toEnd {
		rest := b[at:]
		count := bytes.Count(rest, []byte("\n"))
		if len(rest) > 0 && rest[len(rest)-1] != '\n' {
			count++
		}
		return len(b), count == n
	}
	for ; n > 0; n-- {
		i := bytes.IndexByte(b[at:], '\n')
		if i < 0 {
			return 0, false
		}
		at += i + 1
	}
	return at, true
}

// assembleHunks groups changes into hunks as textdiff.Hunks does
// (rvecs.Hunks in znkr.io/diff): a hunk starts context lines before its
// first change and ends context lines after its last, clamped to the
// file, and a change joins the hunk before it when at most 2*context
// unchanged lines part them (git's xdl_get_hunk merges the same way).
// Within a hunk come each change's deletions, then its insertions, then
// the unchanged lines up to the next change, all taken from old.
func assembleHunks(lines *textLines, changes []lineChange, context int) []textdiff.Hunk[[]byte] {
	oldN := lines.len()
	hunks := make([]textdiff.Hunk[[]byte], 0, len(changes)) // a hunk holds one change or more
	// Every hunk's edits in one slice, each hunk given its part at the
	// end: a slice of its own each, grown edit by edit, allocated each
	// hunk's edits about twice over. At most context lines go before
	// and after each change.
	size := 0
	for _, c := range changes {
		size += len(c.edits) + 2*max(context, 0)
	}
	all := make([]textdiff.Edit[[]byte], 0, size)
	match := func(s, t, to int) {
		for ; s < to; s, t = s+1, t+1 {
			all = append(all, textdiff.Edit[[]byte]{Op: diff.Match, LineNoX: s, LineNoY: t, Line: lines.get(s)})
		}
	}
	var starts []int
	for i := 0; i < len(changes); {
		c := changes[i]
		h := textdiff.Hunk[[]byte]{LineNoX: max(0, c.s0-context), LineNoY: max(0, c.t0-context)}
		starts = append(starts, len(all))
		match(h.LineNoX, h.LineNoY, c.s0)
		for {
			all = append(all, c.edits...)
			i++
			if i == len(changes) || changes[i].s0-c.s1 > 2*context {
				break
			}
			match(c.s1, c.t1, changes[i].s0)
			c = changes[i]
		}
		tail := min(context, oldN-c.s1)
		match(c.s1, c.t1, c.s1+tail)
		h.EndLineNoX, h.EndLineNoY = c.s1+tail, c.t1+tail
		hunks = append(hunks, h)
	}
	for k := range hunks {
		end := len(all)
		if k+1 < len(hunks) {
			end = starts[k+1]
		}
		hunks[k].Edits = all[starts[k]:end:end]
	}
	return hunks
}

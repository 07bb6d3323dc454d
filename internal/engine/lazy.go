package engine

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"znkr.io/diff"
)

// A lazy edit shows only the parts of a file that change; a marker
// line ("// ... existing code ...") stands for every unchanged span
// (SPEC section 5). The merge splits the edit at its markers into
// segments and places each by its lines that stand in the file (its
// anchors), in order, after the segment before it: the file's lines
// between a segment's first and last anchor become the segment's
// lines, and the lines between segments are kept. It reads each of the
// file's lines once per rung and each segment's lines once, so it is
// linear in both.

// lazySegment is a run of an edit's lines between markers.
type lazySegment struct {
	lines        []string
	first        int  // index in the edit of lines[0]
	above, below bool // a marker stands right above, right below
}

// lazyLine is a line of a merged span: a file line kept (file >= 0) or
// a line of the edit (text).
type lazyLine struct {
	file int
	text string
}

// lazySpan replaces the file's lines [start, end) with lines.
type lazySpan struct {
	start, end int
	lines      []lazyLine
	// cutAbove (cutBelow): the span's first (last) lines are new lines
	// a blank line of the segment parts from the lines it shows (see
	// edge): added beside the file's, replacing none.
	cutAbove, cutBelow bool
}

// lazyRefusal is why a lazy edit cannot be merged: which segment
// (1-based), the error kind, the sentence, and the places (1-based file
// lines) where its lines stand.
type lazyRefusal struct {
	seg    int
	kind   error
	msg    string
	places []int
	lines  []string // the segment's lines, for the closest place
}

// splitLazy cuts an edit at its marker lines (marker says which) into
// segments. The blank lines next to a marker are the edit's spacing
// around elided code, not lines of the file: they are dropped, and a
// segment left with no line goes.
func splitLazy(edit []string, marker func(i int) bool) (segs []lazySegment, markers int) {
	cur := lazySegment{first: 0}
	flush := func(below bool) {
		l := cur.lines
		if cur.above {
			for len(l) > 0 && isBlank(l[0]) {
				l, cur.first = l[1:], cur.first+1
			}
		}
		if below {
			for len(l) > 0 && isBlank(l[len(l)-1]) {
				l = l[:len(l)-1]
			}
		}
		if len(l) > 0 {
			cur.lines, cur.below = l, below
			segs = append(segs, cur)
		}
	}
	for i, l := range edit {
		if marker(i) {
			markers++
			flush(true)
			cur = lazySegment{first: i + 1, above: true}
			continue
		}
		cur.lines = append(cur.lines, l)
	}
	flush(false)
	return segs, markers
}

// lazyKey is a line's key at rung r: the rungs a lazy edit climbs are
// exact, trailing white space and indentation (any rung above compares
// as indentation does).
func lazyKey(r Rung, s string) string {
	switch r {
	case RungExact:
		return s
	case RungTrailing:
		return trimTrailing(s)
	}
	return strings.TrimSpace(s)
}

// lazyMerge places the segments of edit in file (each line without
// its terminator) climbing the rungs up to top. fileTabs says the file
// indents with tabs. It returns the spans to splice, in order, the
// warnings and the highest rung a segment needed.
type lazyMerge struct {
	file     []string
	fileTabs bool
	unit     string // one level of the file's indentation, "" when not known
	top      Rung
	segs     []lazySegment
	index    map[Rung]map[string][]int // file lines by key, only the keys the segments hold
}

func newLazyMerge(file []string, segs []lazySegment, top Rung, fileTabs bool) *lazyMerge {
	return &lazyMerge{file: file, segs: segs, top: min(top, RungIndent), fileTabs: fileTabs, index: map[Rung]map[string][]int{}}
}

// at returns the index of rung r: for each key a segment line has, the
// file lines with that key, in order.
func (m *lazyMerge) at(r Rung) map[string][]int {
	if x, ok := m.index[r]; ok {
		return x
	}
	x := map[string][]int{}
	for _, s := range m.segs {
		for _, l := range s.lines {
			if k := lazyKey(r, l); k != "" && !isBlank(k) {
				x[k] = nil
			}
		}
	}
	for i, l := range m.file {
		k := lazyKey(r, l)
		if ps, ok := x[k]; ok {
			x[k] = append(ps, i)
		}
	}
	m.index[r] = x
	return x
}

// after returns the file lines at or below cursor whose key at rung r is
// the key of line l.
func (m *lazyMerge) after(r Rung, l string, cursor int) []int {
	ps := m.at(r)[lazyKey(r, l)]
	return ps[sort.SearchInts(ps, cursor):]
}

// run merges every segment, in order.
func (m *lazyMerge) run() (spans []lazySpan, warns []string, rung Rung, refused *lazyRefusal) {
	cursor, last := 0, -1 // the line below the previous span; the segment it was
	for k, s := range m.segs {
		var sp *lazySpan
		r := RungExact
		if _, ok := m.foreignStyle(s); ok && m.top >= RungIndent {
			r = RungIndent
		}
		if at, ok := m.atEdge(s, k, cursor); ok {
			// A first segment with no marker above that is the file's
			// first lines (a last one, its last lines) stands there,
			// braces and all.
			sp = &lazySpan{start: at, end: at + len(s.lines)}
			for i := range s.lines {
				sp.lines = append(sp.lines, lazyLine{file: at + i})
			}
		}
		for ; sp == nil && r <= m.top; r++ {
			var err *lazyRefusal
			sp, err = m.place(s, cursor, r)
			if err != nil {
				err.seg, err.lines = k+1, s.lines
				if errors.Is(err.kind, ErrNotFound) && last >= 0 {
					if before := m.after(r, firstSolid(s.lines), 0); len(before) > 0 && before[0] < cursor {
						err.kind = ErrOverlap
						err.msg = fmt.Sprintf("its lines stand at line %d, above the end of segment %d (line %d): the segments overlap or are out of order; give them in the file's order, each once", before[0]+1, last+1, cursor)
						err.places = []int{before[0] + 1}
					}
				}
				if !errors.Is(err.kind, ErrNotFound) {
					return nil, nil, 0, err
				}
				sp = nil
				continue
			}
			break
		}
		if sp == nil {
			// No anchor at any rung: a first segment with no marker
			// above goes at the top, a last with none below at the end.
			switch {
			case !s.above && k == 0:
				sp = &lazySpan{start: 0, end: 0}
			case !s.below && k == len(m.segs)-1:
				sp = &lazySpan{start: len(m.file), end: len(m.file)}
			default:
				return nil, nil, 0, &lazyRefusal{seg: k + 1, kind: ErrNoAnchor, lines: s.lines,
					msg: "none of its lines stands in the file, and markers stand above and below it, so nothing says where it goes; show a line of the file above and below the new lines"}
			}
			for _, l := range s.lines {
				sp.lines = append(sp.lines, lazyLine{file: -1, text: l})
			}
			m.restyle(s, sp.lines)
			r = RungExact
		} else {
			// With no marker above (below), a new first (last) line
			// leaves open whether it is added beside the file's line
			// next to it or replaces it: the merge does not guess (a
			// segment ending in a changed call kept the old call below
			// it, a line written twice).
			if n := len(sp.lines); !s.above && sp.start > 0 && n > 0 && sp.lines[0].file < 0 ||
				!s.below && sp.end < len(m.file) && n > 0 && sp.lines[n-1].file < 0 {
				return nil, nil, 0, &lazyRefusal{seg: k + 1, kind: ErrNoAnchor, lines: s.lines,
					msg: "it starts or ends with a line the file does not have and no marker stands beyond it, so nothing says whether the file's lines beyond it stay or that line replaces them; end the segment with a line of the file, or put a marker beyond it"}
			}
			if !s.above && sp.start > 0 {
				warns = append(warns, fmt.Sprintf("segment %d of the lazy edit starts at line %d with no marker above it: lines 1-%d are kept (the marker was taken as forgotten)", k+1, sp.start+1, sp.start))
			}
			if !s.below && sp.end < len(m.file) {
				warns = append(warns, fmt.Sprintf("segment %d of the lazy edit ends at line %d with no marker below it: lines %d-%d are kept (the marker was taken as forgotten)", k+1, sp.end, sp.end+1, len(m.file)))
			}
		}
		rung = max(rung, r)
		spans = append(spans, *sp)
		cursor, last = sp.end, k
	}
	return spans, warns, rung, nil
}

// atEdge reports whether segment k, the first with no marker above it
// or the last with none below, is the file's first or last lines
// exactly, and where it starts.
func (m *lazyMerge) atEdge(s lazySegment, k, cursor int) (int, bool) {
	at := -1
	switch {
	case k == 0 && !s.above:
		at = 0
	case k == len(m.segs)-1 && !s.below:
		at = len(m.file) - len(s.lines)
	}
	if at < cursor || at+len(s.lines) > len(m.file) {
		return 0, false
	}
	for i, l := range s.lines {
		if l != m.file[at+i] {
			return 0, false
		}
	}
	return at, true
}

// firstSolid returns the first line of lines that is not blank.
func firstSolid(lines []string) string {
	for _, l := range lines {
		if !isBlank(l) {
			return l
		}
	}
	return ""
}

// maxLazyCandidates bounds the places of a segment whose lines all
// stand more than once that are weighed against each other.
const maxLazyCandidates = 256

// anchor is a segment line (seg) standing at a file line (file).
type anchor struct{ seg, file int }

// place finds where segment s stands at rung r, at or below cursor:
// nil and a refusal of kind ErrNotFound when no line of it stands
// there.
func (m *lazyMerge) place(s lazySegment, cursor int, r Rung) (*lazySpan, *lazyRefusal) {
	// Lines of substance that stand once below the cursor place the
	// segment; they must stand in the segment's order.
	var unique []anchor
	rarest, rarestN := -1, 0
	for i, l := range s.lines {
		if isBlank(l) {
			continue
		}
		ps := m.after(r, l, cursor)
		if len(ps) == 1 && !trivial(l) {
			unique = append(unique, anchor{i, ps[0]})
		}
		if len(ps) > 0 && !trivial(l) && (rarest < 0 || len(ps) < rarestN) {
			rarest, rarestN = i, len(ps)
		}
	}
	if rarest < 0 {
		return nil, &lazyRefusal{kind: ErrNotFound, msg: "none of its lines stands in the file below the segment before it"}
	}
	var skel []anchor
	if len(unique) > 0 {
		skel = increasing(unique)
		if len(skel) < len(unique) {
			a, b := outOfOrder(unique, skel)
			return nil, &lazyRefusal{kind: ErrAmbiguous, places: []int{a.file + 1, b.file + 1},
				msg: fmt.Sprintf("its lines are out of the file's order: %q (line %d of the segment) stands at line %d of the file, %q (line %d) at line %d; give the lines in the file's order, and move code by deleting it in one segment and adding it in another",
					strings.TrimSpace(s.lines[a.seg]), a.seg+1, a.file+1, strings.TrimSpace(s.lines[b.seg]), b.seg+1, b.file+1)}
		}
	} else {
		// Every line stands several times: the place where most of the
		// segment's lines stand around its rarest line decides.
		ps := m.after(r, s.lines[rarest], cursor)
		best, ties := -1, []int(nil)
		bestScore := -1
		for _, p := range ps[:min(len(ps), maxLazyCandidates)] {
			lo, hi := m.extend(s, anchor{rarest, p}, anchor{rarest, p}, cursor, r)
			score := hi.seg - lo.seg
			switch {
			case score > bestScore:
				best, bestScore, ties = p, score, []int{p + 1}
			case score == bestScore:
				ties = append(ties, p+1)
			}
		}
		if len(ties) > 1 || len(ps) > maxLazyCandidates {
			return nil, &lazyRefusal{kind: ErrAmbiguous, places: ties,
				msg: fmt.Sprintf("its lines stand in %d places (lines %s) and nothing in it tells which is meant; show more of the lines around the change", len(ties), joinInts(ties, 8))}
		}
		skel = []anchor{{rarest, best}}
	}
	// The lines above the first anchor and below the last are looked
	// for in a few lines of the file next to it.
	above, top := m.edge(s, skel[0], cursor, r, true)
	below, bottom := m.edge(s, skel[len(skel)-1], cursor, r, false)
	anchors := append(append(above, skel...), below...)
	lo, hi := anchors[0], anchors[len(anchors)-1]
	sp := &lazySpan{start: lo.file, end: hi.file + 1}
	if top != nil {
		// The cut's line and those above it are new; the file's lines
		// between the cut and the first anchor are aligned as between
		// two anchors.
		lo, sp.start, sp.cutAbove = anchor{top.seg + 1, top.file + 1}, top.file+1, true
	}
	if bottom != nil {
		anchors, sp.end, sp.cutBelow = append(anchors, *bottom), bottom.file, true
	}
	var pairs [2][]string // the file's and the segment's matched lines, for the shift
	var added []int       // indexes in sp.lines of the segment's lines
	keep := func(seg, file int) {
		sp.lines = append(sp.lines, lazyLine{file: file})
		if !isBlank(m.file[file]) {
			pairs[0], pairs[1] = append(pairs[0], m.file[file]), append(pairs[1], s.lines[seg])
		}
	}
	add := func(seg int) {
		added = append(added, len(sp.lines))
		sp.lines = append(sp.lines, lazyLine{file: -1, text: s.lines[seg]})
	}
	for i := 0; i < lo.seg; i++ {
		add(i)
	}
	// Between two anchors the lines are aligned by a diff of their
	// keys: a file line the segment does not show is deleted, a
	// segment line the file does not hold is added.
	from := lo
	for _, a := range anchors {
		x := m.keys(r, m.file[from.file:a.file])
		y := m.keys(r, s.lines[from.seg:a.seg])
		for _, e := range diff.Edits(x, y) {
			switch e.Op {
			case diff.Match:
				keep(from.seg+e.PosY, from.file+e.PosX)
			case diff.Insert:
				add(from.seg + e.PosY)
			}
		}
		if bottom != nil && a == *bottom {
			from = a // the cut: its line and those below are new
			break
		}
		keep(a.seg, a.file)
		from = anchor{a.seg + 1, a.file + 1}
	}
	for i := from.seg; i < len(s.lines); i++ {
		add(i)
	}
	if r >= RungIndent && len(added) > 0 {
		sh, ok := measureShift(pairs[0], pairs[1], m.fileTabs)
		if !ok && len(pairs[0]) > 0 {
			sh, _ = measureShift(pairs[0][:1], pairs[1][:1], m.fileTabs)
		}
		for _, i := range added {
			sp.lines[i].text = sh.apply(sp.lines[i].text)
		}
	} else {
		m.restyle(s, sp.lines)
	}
	m.changedEdges(s, sp, cursor, r)
	return sp, nil
}

// changedEdges widens span sp over the file's line right above (below)
// it when the segment's line next to it, new, below (above) a marker,
// is that line changed: the same key or declaration (see head), at the
// same indentation. "  replicas: 3" under "spec:" replaces
// "  replicas: 1", "def scale(x, factor=2):" above the body it shows
// replaces "def scale(x, factor):"; a new log call beside an old one
// has no such head and is added.
func (m *lazyMerge) changedEdges(s lazySegment, sp *lazySpan, cursor int, r Rung) {
	n := len(sp.lines)
	if n < 2 {
		return
	}
	same := func(l lazyLine, f string) bool {
		h := head(l.text)
		return l.file < 0 && h != "" && h == head(f) && leading(l.text) == leading(f)
	}
	if s.above && sp.start > cursor && sp.lines[0].file < 0 {
		i := 0
		for i+1 < n && sp.lines[i+1].file < 0 {
			i++
		}
		if i+1 < n && same(sp.lines[i], m.file[sp.start-1]) {
			sp.start--
		}
	}
	if s.below && sp.end < len(m.file) && sp.lines[n-1].file < 0 {
		i := n - 1
		for i > 0 && sp.lines[i-1].file < 0 {
			i--
		}
		if i > 0 && same(sp.lines[i], m.file[sp.end]) {
			sp.end++
		}
	}
}

// declWords open a declaration whose name, before "(", is its head.
var declWords = map[string]bool{"def": true, "func": true, "fn": true, "function": true, "async": true, "pub": true, "public": true, "private": true, "protected": true, "static": true, "sub": true, "proc": true}

// head is what a line declares or sets: a key or a name before ":",
// "=" or ":=" ("replicas:", "\"name\":", "timeout ="), or a declaration up
// to its "(" ("def scale(", "func (s *S) Get("); "" for any other line.
func head(l string) string {
	t := strings.TrimSpace(l)
	if w, _, _ := strings.Cut(t, " "); declWords[w] {
		if i := strings.IndexByte(t, '('); i > 0 {
			if j := strings.IndexByte(t[i+1:], ')'); w == "func" && i == len(w)+1 && j >= 0 {
				// a Go method: the name follows the receiver
				if k := strings.IndexByte(t[i+j+2:], '('); k > 0 {
					return t[:i+j+2+k+1]
				}
			}
			return t[:i+1]
		}
		return ""
	}
	i := strings.IndexAny(t, ":=")
	if i <= 0 {
		return ""
	}
	key := strings.TrimRight(t[:i], " ")
	for _, c := range key {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || strings.ContainsRune("_.-\"'$", c)) {
			return ""
		}
	}
	if i+1 < len(t) && t[i] == ':' && t[i+1] == ':' || i+1 < len(t) && t[i] == '=' && t[i+1] == '=' {
		return "" // "a::b", "a == b": no key
	}
	return t[:i+1]
}

// restyle writes the indentation of the new lines of segment s the
// file's way, where the segment indents otherwise throughout (see
// foreignStyle).
func (m *lazyMerge) restyle(s lazySegment, lines []lazyLine) {
	sh, ok := m.foreignStyle(s)
	if !ok {
		return
	}
	for i, l := range lines {
		if l.file < 0 {
			lines[i].text = sh.apply(l.text)
		}
	}
}

// foreignStyle reports whether segment s indents otherwise than the
// file throughout (SPEC section 5: indentation style is the file's):
// spaces only in a file indented with tabs (a level is the segment's
// narrowest indentation), tabs only in a file indented with spaces (a
// tab is the file's level); and the shift that writes its lines the
// file's way. Such a segment's indented lines never stand in the file
// exactly: it is placed from the indentation rung up.
func (m *lazyMerge) foreignStyle(s lazySegment) (shift, bool) {
	tabs, narrowest := false, 0
	for _, l := range s.lines {
		ws := leading(l)
		if isBlank(l) || ws == "" {
			continue
		}
		switch {
		case strings.Contains(ws, "\t") != strings.HasPrefix(ws, "\t"):
			return shift{}, false // spaces then tabs: leave it be
		case ws[0] == '\t':
			tabs = true
		case narrowest == 0 || len(ws) < narrowest:
			narrowest = len(ws)
		}
		if tabs && narrowest > 0 {
			return shift{}, false // both: no one style to translate
		}
	}
	switch {
	case m.fileTabs && !tabs && narrowest >= 2 && narrowest <= 8:
		return shift{tab: narrowest, useTabs: true, active: true}, true
	case !m.fileTabs && tabs && m.unit != "" && strings.Trim(m.unit, " ") == "":
		return shift{tab: len(m.unit), active: true}, true
	}
	return shift{}, false
}

// keys returns the keys of lines at rung r; a blank line's is "".
func (m *lazyMerge) keys(r Rung, lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		if !isBlank(l) {
			out[i] = lazyKey(r, l)
		}
	}
	return out
}

// edgeSlack is how many lines more than twice the segment's lines
// beyond its outer anchor the file is searched for them.
const edgeSlack = 3

// edge returns the anchors of the segment's lines above a (up) or
// below it, in the segment's order (SPEC section 5). It walks outward
// from a, one segment line at a time, and takes each at the nearest
// file line beyond the last one taken that has its key, within a few
// lines (never above cursor); a line found nowhere there is new. The
// nearest, not any alignment a diff may pick: "}" after a changed
// line is the "}" of the block the segment shows, not one of a
// function further down.
//
// A line with no word (a brace, a blank line) stands everywhere, so it
// is taken only where it skips no more file lines than the segment's
// new lines since the last one taken (a line replaced, not a span
// deleted to reach a brace further off); and nothing is taken across
// new lines after a blank line: a blank line then new lines is new
// code added next to the file's, as a new function after the one the
// segment shows, never a replacement of the code beyond.
func (m *lazyMerge) edge(s lazySegment, a anchor, cursor int, r Rung, up bool) (out []anchor, cut *anchor) {
	step, lo, hi := 1, a.file+1, min(len(m.file), a.file+1+2*(len(s.lines)-1-a.seg)+edgeSlack)
	if up {
		step, lo, hi = -1, max(cursor, a.file-2*a.seg-edgeSlack), a.file
	}
	key := func(l string) string {
		if isBlank(l) {
			return ""
		}
		return lazyKey(r, l)
	}
	prev := a
	for i := a.seg + step; i >= 0 && i < len(s.lines); i += step {
		fresh := (i-prev.seg)*step - 1 // new lines since prev
		if fresh > 0 && prev != a && isBlank(s.lines[prev.seg]) {
			break
		}
		k, l := key(s.lines[i]), s.lines[i]
		for j := prev.file + step; j >= lo && j < hi; j += step {
			if key(m.file[j]) != k {
				continue
			}
			if trivial(l) && (j-prev.file)*step-1 > fresh {
				break
			}
			out = append(out, anchor{i, j})
			prev = out[len(out)-1]
			break
		}
	}
	// A line that stands elsewhere in the file too, with new lines
	// beyond it, may be a new line that merely reads as the file's
	// ("return data" ending a new function, taken for the last line of
	// the function above): it and what lies beyond are new, never
	// glued into the code next to the anchor. Not while every line
	// from the anchor to it follows the one before in both, with no
	// blank line between: that is the anchor's own block ("return
	// data" ending the function the segment shows).
	solid := true
	for i, b := range out {
		last := a
		if i > 0 {
			last = out[i-1]
		}
		solid = solid && b.seg-last.seg == step && b.file-last.file == step && (i == 0 || !isBlank(s.lines[last.seg]))
		beyond := len(s.lines) - 1 - b.seg
		if up {
			beyond = b.seg
		}
		if !solid && !trivial(s.lines[b.seg]) && beyond > len(out)-1-i && len(m.after(r, s.lines[b.seg], cursor)) > 1 {
			out = out[:i]
			break
		}
	}
	// An outermost blank line with new lines beyond it separates the
	// code the segment adds from the code it shows: it is the cut,
	// the span ends next to it, and the file's own blank line stays,
	// beyond the new lines (a new function keeps its blank line on
	// both sides). Above the anchor, a brace with new lines above it
	// closes the code the segment adds, not the code above: no anchor.
	n := len(out)
	beyondAt := func(b anchor) bool { return up && b.seg > 0 || !up && b.seg < len(s.lines)-1 }
	for up && n > 0 && beyondAt(out[n-1]) && trivial(s.lines[out[n-1].seg]) && !isBlank(s.lines[out[n-1].seg]) {
		n--
	}
	if n > 0 && beyondAt(out[n-1]) && isBlank(s.lines[out[n-1].seg]) {
		// A run of blank lines cuts at its innermost: two blank lines
		// between Python functions stay two on both sides.
		for n > 1 && isBlank(s.lines[out[n-2].seg]) && out[n-1].seg-out[n-2].seg == step && out[n-1].file-out[n-2].file == step {
			n--
		}
		c := out[n-1]
		cut, n = &c, n-1
	} else if up {
		for n > 0 && beyondAt(out[n-1]) && trivial(s.lines[out[n-1].seg]) {
			n--
		}
	}
	out = out[:n]
	if up {
		reverse(out)
	}
	return out, cut
}

// trivial reports whether a line has no letter or digit, or only a
// word that closes a block: a blank line, a brace, "});", Ruby's and
// Lua's "end", the shell's "fi" and "done", which stand everywhere and
// say nothing of where they are.
func trivial(l string) bool {
	words := strings.FieldsFunc(l, func(c rune) bool {
		return !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c >= 0x80)
	})
	return len(words) == 0 || len(words) == 1 && closers[strings.ToLower(words[0])]
}

// closers are the words that close a block on a line of their own.
var closers = map[string]bool{"end": true, "fi": true, "done": true, "esac": true, "endif": true, "endfor": true, "endwhile": true, "wend": true}

func reverse[T any](s []T) {
	for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
		s[i], s[j] = s[j], s[i]
	}
}

// extend widens the anchors lo and hi over the segment lines right
// above and below them that stand right above and below in the file
// (blank lines match blank lines), never above cursor.
func (m *lazyMerge) extend(s lazySegment, lo, hi anchor, cursor int, r Rung) (anchor, anchor) {
	same := func(seg, file int) bool {
		a, b := s.lines[seg], m.file[file]
		if isBlank(a) || isBlank(b) {
			return isBlank(a) && isBlank(b)
		}
		return lazyKey(r, a) == lazyKey(r, b)
	}
	for lo.seg > 0 && lo.file > cursor && same(lo.seg-1, lo.file-1) {
		lo.seg, lo.file = lo.seg-1, lo.file-1
	}
	for hi.seg+1 < len(s.lines) && hi.file+1 < len(m.file) && same(hi.seg+1, hi.file+1) {
		hi.seg, hi.file = hi.seg+1, hi.file+1
	}
	return lo, hi
}

// increasing returns the longest run of anchors, in segment order,
// whose file lines increase (patience sorting: n log n).
func increasing(as []anchor) []anchor {
	tails := []int{} // index in as of the last anchor of the best run of each length
	prev := make([]int, len(as))
	for i, a := range as {
		k := sort.Search(len(tails), func(k int) bool { return as[tails[k]].file >= a.file })
		prev[i] = -1
		if k > 0 {
			prev[i] = tails[k-1]
		}
		if k == len(tails) {
			tails = append(tails, i)
		} else {
			tails[k] = i
		}
	}
	out := make([]anchor, len(tails))
	for i, k := len(tails)-1, tails[len(tails)-1]; i >= 0; i, k = i-1, prev[k] {
		out[i] = as[k]
	}
	return out
}

// outOfOrder returns two anchors of all that stand in the file in the
// other order than in the segment: one left out of the run skel, and
// the anchor of skel it crosses.
func outOfOrder(all, skel []anchor) (anchor, anchor) {
	in := map[anchor]bool{}
	for _, a := range skel {
		in[a] = true
	}
	for _, a := range all {
		if in[a] {
			continue
		}
		for _, b := range skel {
			if b.seg < a.seg && b.file > a.file {
				return b, a
			}
			if b.seg > a.seg && b.file < a.file {
				return a, b
			}
		}
	}
	return all[0], all[len(all)-1]
}

func joinInts(xs []int, most int) string {
	var b strings.Builder
	for i, x := range xs {
		if i == most {
			fmt.Fprintf(&b, ", ... (%d in all)", len(xs))
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprint(&b, x)
	}
	return b.String()
}

package engine

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"znkr.io/diff"
)

// window is a run of n doc lines starting at start: how many of the
// pattern's lines stand in it whole, and its characters' similarity.
type window struct {
	start int
	hits  int
	sim   float64
}

// closer reports whether w is more like the pattern than o: whole lines
// first, as already-applied contenders are weighed, then characters.
func (w window) closer(o window) bool {
	if w.hits != o.hits {
		return w.hits > o.hits
	}
	return w.sim > o.sim
}

// text joins doc lines [from, to) without their trailing white space,
// as joinTrimmed joins a reply's lines, for textSimilarity.
func (m *matcher) text(from, to int) string {
	var b strings.Builder
	for i := from; i < to; i++ {
		if i > from {
			b.WriteByte('\n')
		}
		b.WriteString(trimTrailing(m.d.content(i)))
	}
	return b.String()
}

// lines joins doc lines [from, to) as the file has them, line endings
// aside: the closest lines a report quotes, white space and all.
func (m *matcher) lines(from, to int) string {
	var b strings.Builder
	for i := from; i < to; i++ {
		if i > from {
			b.WriteByte('\n')
		}
		b.WriteString(m.d.content(i))
	}
	return b.String()
}

func joinTrimmed(lines []string) string { return strings.Join(trimAll(lines), "\n") }

// textSimilarity is 2*matched/total over the runes of a and b, like
// difflib's ratio; long texts are compared line by line instead, bytes
// counted, a line replaced by another credited with the start and end
// they share (so that a long line differing in one character is not
// taken for a line wholly different).
func textSimilarity(a, b string) float64 {
	if a == b {
		return 1
	}
	var matched, total int
	if len(a)+len(b) > 20000 {
		x, y := strings.Split(a, "\n"), strings.Split(b, "\n")
		var gone, come []string // the lines of a and b since the last match
		pair := func() {
			for i := range min(len(gone), len(come)) {
				matched += 2 * commonAffix(gone[i], come[i])
			}
			gone, come = gone[:0], come[:0]
		}
		for _, e := range diff.Edits(x, y) {
			switch e.Op {
			case diff.Match:
				pair()
				matched += 2 * len(e.X)
			case diff.Delete:
				gone = append(gone, e.X)
			case diff.Insert:
				come = append(come, e.Y)
			}
		}
		pair()
		total = len(a) + len(b)
	} else {
		x, y := []rune(a), []rune(b)
		for _, e := range diff.Edits(x, y) {
			if e.Op == diff.Match {
				matched += 2
			}
		}
		total = len(x) + len(y)
	}
	if total == 0 {
		return 1
	}
	return float64(matched) / float64(total)
}

// candidates returns windows of len(pattern) lines (fewer when the file
// is shorter) that are most like pattern, most similar character by
// character first. A small file's windows are all compared. In a
// larger one, windows are found two ways within the edit's budget:
// anchored on the pattern's lines that stand whole in the file (rarest
// first), and voted for by its words (rarest first), which finds a
// place when no line stands whole; the best of each are compared.
// keep bounds the windows each way gives. searched is false when the
// file's budget was spent before this search, which then found
// nothing. m.cut says whether the search passed over lines or words
// of the pattern standing in too many places for its budget.
func (m *matcher) candidates(pattern []string, keep int) (out []window, searched bool) {
	n := min(len(pattern), m.d.len())
	if n == 0 {
		return nil, true
	}
	w := &m.work
	want := joinTrimmed(pattern)
	if c := m.cached; c != nil && c.want == want && c.log == len(m.d.log) && c.keep >= keep {
		m.cut = c.cut
		return c.out, c.searched
	}
	m.cut = false
	defer func() {
		m.cached = &searchCache{want: want, log: len(m.d.log), keep: keep, out: out, searched: searched, cut: m.cut}
	}()
	score := func(s int) window {
		w.scored++
		return window{s, lineHits(pattern, m.trimmedLines(s, s+n, nil)), textSimilarity(m.text(s, s+n), want)}
	}
	if m.scansAll(pattern) {
		windows := m.d.len() - n + 1
		out = make([]window, windows)
		for s := range out {
			out[s] = score(s)
		}
		sort.SliceStable(out, func(a, b int) bool { return out[a].sim > out[b].sim })
		return out, true
	}
	budget := min(nearEditWork, m.workLeft())
	if budget <= 0 {
		w.spent = true
		return nil, false
	}
	// Anchoring may spend half the budget, voting by words the rest.
	starts, used, cut := m.anchored(pattern, n, keep, budget/2)
	voted, more, cutVotes, ok := m.tokenVoted(pattern, n, keep, budget-used)
	used += more
	w.visited += used
	m.cut = cut || cutVotes
	if (cut || cutVotes) && budget < nearEditWork {
		w.spent = true // the file's budget, not the edit's, cut this search short
	}
	if !ok && len(starts) == 0 {
		return nil, false
	}
	seen := map[int]bool{}
	for _, s := range append(starts, voted...) {
		if !seen[s] {
			seen[s] = true
			out = append(out, score(s))
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].sim > out[b].sim })
	return out, true
}

// searchCache is the last closest-place search of a matcher: a failing
// edit's lines are searched for up to three times (already applied?
// loose? closest?), and the file has not changed in between.
type searchCache struct {
	want     string
	log      int
	keep     int
	out      []window
	searched bool
	cut      bool
}

// Loose matching accepts a near match only when it is good and clearly
// better than any other place that does not overlap it.
const (
	looseMin    = 0.8
	looseMargin = 0.05
)

func (m *matcher) loose(pattern []string) *place {
	if len(pattern) > m.d.len() {
		return nil
	}
	c, _ := m.candidates(pattern, 16)
	if len(c) == 0 || c[0].sim < looseMin {
		return nil
	}
	best := c[0]
	for _, o := range c[1:] {
		if abs(o.start-best.start) >= len(pattern) && o.sim > best.sim-looseMargin {
			return nil
		}
	}
	if !m.sameConstructs(pattern, best.start) {
		return nil
	}
	p := place{rung: RungLoose, lines: make([]int, len(pattern)), score: best.sim}
	for i := range p.lines {
		p.lines[i] = best.start + i
	}
	for i, l := range pattern {
		fc := m.d.content(best.start + i)
		if !isBlank(l) && !isBlank(fc) {
			p.shift, _ = measureShift([]string{fc}, []string{l}, m.d.indentUnit() == "\t")
			break
		}
	}
	return &p
}

// similarMin is the similarity below which a place that holds few of
// an edit's lines whole is not offered as its closest lines: pointing
// at unrelated lines misleads more than saying that none are alike.
const similarMin = 0.5

// closest returns the place most like pattern, for a failure report:
// the one holding most of its lines whole, then the most similar
// character by character; nil when no place is similar enough (or the
// file's budget allowed no search). mark is the rung the edit's own
// lines were compared at, by which its lines are marked as differing.
func (m *matcher) closest(pattern []string, mark Rung) *Closest {
	c, _ := m.candidates(pattern, 16)
	if len(c) == 0 {
		return nil
	}
	best := c[0]
	for _, w := range c[1:] {
		if w.closer(best) || !best.closer(w) && w.start < best.start {
			best = w
		}
	}
	solid := 0
	for _, l := range pattern {
		if !isBlank(l) {
			solid++
		}
	}
	if best.sim < similarMin && (best.hits < 2 || 2*best.hits < solid) {
		return nil
	}
	n := min(len(pattern), m.d.len())
	from, to, sim := m.fit(pattern, best, n)
	return m.describe(pattern, from, to, sim, mark)
}

// maxFit bounds the length of a pattern whose closest window is fitted.
const maxFit = 200

// fit returns the run of doc lines around window w (of n lines) that
// lines up best with pattern, and its similarity: when the edit left a
// line out or holds one the file lacks, the window of its length cuts
// off a line it holds (a SEARCH block of three lines standing in four
// is shown whole, its extra line marked). The run reaches from the
// first to the last of pattern's lines standing whole near the window,
// widened by the pattern lines beyond those; it is taken only when it
// holds more of them, or as many and is more similar.
func (m *matcher) fit(pattern []string, w window, n int) (from, to int, sim float64) {
	from, to, sim = w.start, w.start+n, w.sim
	if n > maxFit {
		return
	}
	lo, hi := max(0, w.start-n), min(m.d.len(), w.start+2*n)
	// Blank lines are keyed apart, so that they never line up: a run
	// stretched to reach a blank line far off shows nothing.
	key := func(l string, i int) string {
		if k := strings.TrimSpace(l); k != "" {
			return k
		}
		return fmt.Sprintf("\x00%d", i)
	}
	file := make([]string, 0, hi-lo)
	for i := lo; i < hi; i++ {
		file = append(file, key(m.d.content(i), i))
	}
	want := make([]string, len(pattern))
	for i, l := range pattern {
		want[i] = key(l, -1-i)
	}
	first, last := -1, -1
	var before, after int
	for _, e := range diff.Edits(file, want) {
		if e.Op != diff.Match {
			continue
		}
		if first < 0 {
			first, before = e.PosX, e.PosY
		}
		last, after = e.PosX, len(pattern)-1-e.PosY
	}
	if first < 0 {
		return
	}
	f, t := max(0, lo+first-before), min(m.d.len(), lo+last+1+after)
	if t-f > n+n/2+2 || f == from && t == to {
		return
	}
	hits := lineHits(pattern, m.trimmedLines(f, t, nil))
	s := textSimilarity(m.text(f, t), joinTrimmed(pattern))
	if hits > w.hits || hits == w.hits && s > w.sim {
		return f, t, s
	}
	return
}

// describe is the Closest of doc lines [from, to) for pattern, whose
// character similarity is sim: capped below 1 unless the lines are the
// pattern's byte for byte, so that a report never calls lines that
// differ (in trailing white space, say) the same.
func (m *matcher) describe(pattern []string, from, to int, sim float64, mark Rung) *Closest {
	sim = math.Round(sim*100) / 100
	if sim >= 1 && !m.same(pattern, from, to) {
		sim = 0.99
	}
	differ, missing := m.differing(pattern, from, to, mark)
	return &Closest{
		Start:      from + 1,
		End:        to,
		Similarity: sim,
		Text:       m.lines(from, to),
		Differ:     differ,
		Missing:    missing,
	}
}

// same reports whether doc lines [from, to) are pattern, byte for byte
// (line endings aside).
func (m *matcher) same(pattern []string, from, to int) bool {
	if to-from != len(pattern) {
		return false
	}
	for i, l := range pattern {
		if m.d.content(from+i) != strings.TrimSuffix(l, "\r") {
			return false
		}
	}
	return true
}

// differing returns the 1-based numbers of doc lines [from, to) that
// do not read as a line of pattern, compared as rung r compares lines
// and in order: the lines a report marks. At the rungs that ignore
// blank lines, a blank line never differs. missing is pattern's lines
// that read as none of those lines, each with the doc line it stands
// after in that order, so that a report can show every line of the
// edit, not only those the file has.
func (m *matcher) differing(pattern []string, from, to int, r Rung) (out []int, missing []MissingLine) {
	r = min(r, RungTypography)
	keyed := func(lines []string) []string {
		key := keyFunc(r, m.lang)
		out := make([]string, len(lines))
		for i, l := range lines {
			out[i] = key(strings.TrimSuffix(l, "\r"))
		}
		return out
	}
	file := make([]string, 0, to-from)
	for i := from; i < to; i++ {
		file = append(file, m.d.content(i))
	}
	a, b := keyed(file), keyed(pattern)
	matched := make([]bool, len(a))
	after := from // the doc line (1-based) the next pattern line stands after
	for _, e := range diff.Edits(a, b) {
		switch e.Op {
		case diff.Match:
			matched[e.PosX] = true
			after = from + e.PosX + 1
		case diff.Delete:
			after = from + e.PosX + 1
		case diff.Insert:
			if !(r.skipsBlank() && b[e.PosY] == "") {
				missing = append(missing, MissingLine{Line: e.PosY + 1, After: after, Text: strings.TrimSuffix(pattern[e.PosY], "\r")})
			}
		}
	}
	out = []int{}
	for i, ok := range matched {
		if !ok && !(r.skipsBlank() && a[i] == "") {
			out = append(out, from+i+1)
		}
	}
	return out, missing
}

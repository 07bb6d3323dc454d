package engine

import (
	"math"
	"sort"
	"strings"

	"znkr.io/diff"
)

// window is a run of n doc lines starting at start, with its score.
type window struct {
	start int
	sim   float64
}

// candidates ranks the windows of len(pattern) lines by how many of
// the pattern's lines they hold (one pass over the file), then scores
// the best few by character similarity, best first.
func (m *matcher) candidates(pattern []string, keep int) []window {
	n := len(pattern)
	lines := m.d.len()
	if n == 0 || lines == 0 {
		return nil
	}
	if n > lines {
		n = lines
	}
	need := map[string]int{}
	for _, l := range pattern {
		if k := strings.TrimSpace(l); k != "" {
			need[k]++
		}
	}
	have := map[string]int{}
	hits := 0
	key := func(i int) string { return strings.TrimSpace(m.d.content(i)) }
	type ranked struct{ start, hits int }
	var rank []ranked
	for i := 0; i < lines; i++ {
		if k := key(i); need[k] > 0 {
			if have[k] < need[k] {
				hits++
			}
			have[k]++
		}
		if i >= n {
			if k := key(i - n); need[k] > 0 {
				have[k]--
				if have[k] < need[k] {
					hits--
				}
			}
		}
		if i >= n-1 && (hits > 0 || lines <= 200) {
			rank = append(rank, ranked{i - n + 1, hits})
		}
	}
	sort.SliceStable(rank, func(a, b int) bool { return rank[a].hits > rank[b].hits })
	if len(rank) > keep {
		rank = rank[:keep]
	}
	want := strings.Join(trimAll(pattern), "\n")
	out := make([]window, 0, len(rank))
	for _, r := range rank {
		out = append(out, window{r.start, textSimilarity(m.text(r.start, r.start+n), want)})
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].sim > out[b].sim })
	return out
}

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

// textSimilarity is 2*matched/total over the runes of a and b, like
// difflib's ratio; long texts are compared line by line instead.
func textSimilarity(a, b string) float64 {
	if a == b {
		return 1
	}
	var matched, total int
	if len(a)+len(b) > 20000 {
		x, y := strings.Split(a, "\n"), strings.Split(b, "\n")
		for _, e := range diff.Edits(x, y) {
			if e.Op == diff.Match {
				matched += 2 * len(e.X)
			}
		}
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

// closest describes the place most like pattern, for a failure report.
func (m *matcher) closest(pattern []string) *Closest {
	c := m.candidates(pattern, 8)
	if len(c) == 0 || c[0].sim == 0 {
		return nil
	}
	n := min(len(pattern), m.d.len())
	w := c[0]
	return &Closest{
		Start:      w.start + 1,
		End:        w.start + n,
		Similarity: math.Round(w.sim*100) / 100,
		Text:       m.text(w.start, w.start+n),
	}
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
	c := m.candidates(pattern, 16)
	if len(c) == 0 || c[0].sim < looseMin {
		return nil
	}
	best := c[0]
	for _, o := range c[1:] {
		if abs(o.start-best.start) >= len(pattern) && o.sim > best.sim-looseMargin {
			return nil
		}
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

package engine

import (
	"math"
	"strings"

	"znkr.io/diff"
)

// window is a run of n doc lines starting at start, with its score.
type window struct {
	start int
	sim   float64
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

func joinTrimmed(lines []string) string { return strings.Join(trimAll(lines), "\n") }

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
	c, _ := m.candidates(pattern, 8)
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

package engine

import (
	"math"
	"sort"
	"strings"
)

// The closest-place search anchors on the lines of an edit that stand
// whole in the file (white space around them aside): a block of which
// all lines but one stand at some place is found at that place however
// long the file, when the rarest of its lines stand in few enough
// places for the search's budget. The file's lines are looked up in the
// indent rung's view, whose keys are the lines without that white
// space; the matching ladder has usually built it already.

// lineView returns the view that keys the file's lines without the
// white space around them, building it when the file's budget allows
// (charged like the word index); nil when it does not.
func (m *matcher) lineView() *view {
	if _, ok := m.views[RungIndent]; !ok {
		if m.workLeft() < m.d.len() {
			m.work.spent = true
			return nil
		}
		m.work.indexed += m.d.len()
	}
	v := m.view(RungIndent)
	v.index(m.d)
	return v
}

// anchored returns up to keep starts of the windows of n lines that
// hold the most of pattern's lines, each at its own place, best first,
// spending at most budget postings: the pattern's lines are visited
// rarest first, and a line standing in too many places for what is
// left is passed over. used is what the visit cost; cut says that
// lines were passed over.
func (m *matcher) anchored(pattern []string, n, keep, budget int) (starts []int, used int, cut bool) {
	v := m.lineView()
	if v == nil {
		return nil, 0, true
	}
	at := map[string][]int{} // key -> the pattern lines holding it
	var keys []string
	for i, l := range pattern {
		k := strings.TrimSpace(l)
		if k == "" {
			continue
		}
		if _, ok := at[k]; !ok {
			keys = append(keys, k)
		}
		at[k] = append(at[k], i)
	}
	sort.SliceStable(keys, func(a, b int) bool { return v.count(m.d, keys[a]) < v.count(m.d, keys[b]) })
	type tally struct {
		start  int
		hits   int
		weight float64 // the rarity of the lines that hit, to order equal hits
		like   float64 // how like the lines it lacks are (measured ones only)
	}
	var tallies []tally
	index := map[int]int{}             // start -> its tally
	step := 1 + len(m.d.log) - v.built // forwarding a posting through the edits since
	last := m.d.len() - n
	for _, k := range keys {
		c := v.count(m.d, k)
		if c == 0 {
			continue
		}
		cost := c * step * len(at[k])
		if cost > budget-used {
			cut = true
			continue // a line in fewer places may still fit
		}
		used += cost
		weight := math.Log(1 + float64(m.d.len())/float64(c))
		for _, line := range v.where(m.d, k) {
			for _, i := range at[k] {
				s := min(max(line-i, 0), last)
				x, ok := index[s]
				if !ok {
					x = len(tallies)
					index[s] = x
					tallies = append(tallies, tally{start: s})
				}
				tallies[x].hits++
				tallies[x].weight += weight
			}
		}
	}
	sort.Slice(tallies, func(a, b int) bool {
		x, y := &tallies[a], &tallies[b]
		switch {
		case x.hits != y.hits:
			return x.hits > y.hits
		case x.weight != y.weight:
			return x.weight > y.weight
		}
		return x.start < y.start
	})
	// Places holding as many whole lines are told apart by how like
	// the lines they lack are (the timeout = 30 of one of a hundred
	// copies, where the edit wrote 300): the best voted are measured
	// so, as many as anchorMeasured, and the best measured compared
	// character by character.
	tallies = tallies[:min(len(tallies), anchorMeasured)]
	for x := range tallies {
		tallies[x].hits, tallies[x].like = m.measureAt(pattern, tallies[x].start)
	}
	sort.SliceStable(tallies, func(a, b int) bool {
		x, y := &tallies[a], &tallies[b]
		if x.hits != y.hits {
			return x.hits > y.hits
		}
		return x.like > y.like
	})
	starts = make([]int, 0, min(len(tallies), keep))
	for _, t := range tallies[:min(len(tallies), keep)] {
		starts = append(starts, t.start)
	}
	return starts, used, cut
}

// anchorMeasured bounds the anchored windows whose lines are measured
// one by one against the edit's.
const anchorMeasured = 4096

// measureAt measures the window of pattern's length from start: how
// many of pattern's non-blank lines stand in it whole, each at its own
// place (white space around them aside), and how like the others are
// to the lines standing at their places, by the characters they start
// and end with (a quick measure: the closest windows are compared
// character by character later).
func (m *matcher) measureAt(pattern []string, start int) (hits int, like float64) {
	for i, l := range pattern {
		if start+i >= m.d.len() {
			break
		}
		k := strings.TrimSpace(l)
		if k == "" {
			continue
		}
		f := strings.TrimSpace(m.d.content(start + i))
		if k == f {
			hits++
		} else {
			like += affixShare(k, f)
		}
	}
	return hits, like
}

// affixShare is the part of the longer of a and b that their common
// start and end cover.
func affixShare(a, b string) float64 {
	return float64(commonAffix(a, b)) / float64(max(len(a), len(b)))
}

// commonAffix is how many bytes the common start and end of a and b
// hold, not overlapping.
func commonAffix(a, b string) int {
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	q := 0
	for q < len(a)-p && q < len(b)-p && a[len(a)-1-q] == b[len(b)-1-q] {
		q++
	}
	return p + q
}

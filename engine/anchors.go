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
	return m.view(RungIndent)
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
	sort.SliceStable(keys, func(a, b int) bool { return v.count(keys[a]) < v.count(keys[b]) })
	type tally struct {
		hits   int
		weight float64 // the rarity of the lines that hit, to order equal hits
	}
	votes := map[int]*tally{}
	step := 1 + len(m.d.log) - v.built // forwarding a posting through the edits since
	last := m.d.len() - n
	for _, k := range keys {
		c := v.count(k)
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
				t := votes[s]
				if t == nil {
					t = &tally{}
					votes[s] = t
				}
				t.hits++
				t.weight += weight
			}
		}
	}
	starts = make([]int, 0, len(votes))
	for s := range votes {
		starts = append(starts, s)
	}
	sort.Slice(starts, func(a, b int) bool {
		x, y := votes[starts[a]], votes[starts[b]]
		switch {
		case x.hits != y.hits:
			return x.hits > y.hits
		case x.weight != y.weight:
			return x.weight > y.weight
		}
		return starts[a] < starts[b]
	})
	// Places holding as many whole lines are told apart by how like
	// the lines they lack are (the timeout = 30 of one of a hundred
	// copies, where the edit wrote 300): the best voted are measured
	// so, as many as anchorMeasured.
	starts = starts[:min(len(starts), anchorMeasured)]
	type measure struct {
		hits int
		like float64
	}
	ms := make(map[int]measure, len(starts))
	for _, s := range starts {
		h, l := m.measureAt(pattern, s)
		ms[s] = measure{h, l}
	}
	sort.SliceStable(starts, func(a, b int) bool {
		x, y := ms[starts[a]], ms[starts[b]]
		if x.hits != y.hits {
			return x.hits > y.hits
		}
		return x.like > y.like
	})
	return starts[:min(len(starts), keep)], used, cut
}

// anchorMeasured bounds the anchored windows whose lines are measured
// one by one against the edit's.
const anchorMeasured = 4096

// measureAt measures the window of pattern's length from start: how
// many of pattern's non-blank lines stand in it whole, each at its own
// place (white space around them aside), and how like the others are
// to the lines standing at their places, character by character.
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
		} else if len(k)+len(f) <= 512 {
			like += textSimilarity(k, f)
		}
	}
	return hits, like
}

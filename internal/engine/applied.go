package engine

import (
	"fmt"
	"strings"

	"znkr.io/diff"
)

// maxDonePlaces bounds the places of an edit's result that are weighed
// as the one it was meant for; a result standing in more is too common
// to say that the edit is done.
const maxDonePlaces = 64

// maxSiteRuns bounds the runs of new lines compared with the old ones
// over all the places holding an edit's result.
const maxSiteRuns = 256

// contender is a place an edit whose lines to find stand nowhere may
// have been meant for, and how much it looks like those lines.
type contender struct {
	p    place
	hits int     // lines to find that stand there whole, in order
	toks float64 // the part of their tokens (by rarity) that stands there
	sim  float64 // their characters' similarity with it
	done bool    // the edit's result stands there
}

// closer reports whether c looks more like the lines to find than d:
// whole lines first, rare tokens next (the "89" of "return x - 89"),
// characters last.
func (c contender) closer(d contender) bool {
	const eps = 1e-9
	switch {
	case c.hits != d.hits:
		return c.hits > d.hits
	case c.toks > d.toks+eps || c.toks < d.toks-eps:
		return c.toks > d.toks
	}
	return c.sim > d.sim+eps
}

// doneAt decides whether an edit whose lines to find (pattern: before,
// old and after) stand nowhere is already applied (SPEC section 5): its
// result (before, new and after) must stand at the place the edit was
// meant for, which is where the lines to find most nearly stand. A
// result standing somewhere else proves nothing: a file holding
// "return x + 90" in one function does not make an edit of another
// function's "return x - 89" done.
//
// The places holding the result compete with the places the closest
// search finds (those the edit's scope lines and end-of-file mark
// allow) on how much they look like pattern. At a place holding the
// result, the before and after lines stand as they are and the old
// lines are compared with the new ones standing between them (with
// the run of as many new lines that is most like them, when the new
// lines are more). Places that look alike are told apart as choose
// tells matches apart (scope lines, the order of a group's members,
// the line hint, the first for the SEARCH/REPLACE family); when that
// leaves several, the edit is not done. why, when the result stands
// somewhere but the edit is not done, says why for the report.
func (r *resolver) doneAt(o *Outcome, m *matcher, pattern, result []string, top Rung, cursor int) (done *place, why string) {
	if len(result) == 0 {
		return nil, ""
	}
	op := &o.Op
	var held []place
	for rung := RungExact; rung <= min(top, RungTypography); rung++ {
		if rung == RungComments && m.lang == "" {
			continue
		}
		held = m.find(result, rung)
		if op.AtEOF {
			held = m.atEOF(held)
		}
		if len(held) > 0 {
			break
		}
	}
	n := min(len(pattern), m.d.len())
	scopeAt := 0
	if len(op.Scope) > 0 {
		scopeAt, _ = m.scopeEnd(op.Scope)
	}
	// The scope lines say where the edit was meant: a result above
	// them is another function's (a place reaching the last of them
	// counts as below, as in aboveScope).
	if scopeAt > 0 {
		var below []place
		for _, q := range held {
			if q.end() >= scopeAt {
				below = append(below, q)
			}
		}
		if len(below) == 0 && len(held) > 0 {
			return nil, fmt.Sprintf("; its new lines stand at line %d, above the scope lines (%s), so it is not taken as already applied", held[0].first()+1, quoteLines(op.Scope))
		}
		held = below
	}
	switch {
	case len(held) == 0:
		return nil, ""
	case len(held) > maxDonePlaces:
		return nil, fmt.Sprintf("; its new lines stand in %d places, too many to tell whether it was meant for one of them", len(held))
	}
	windows, searched := m.candidates(pattern, 16)
	x, indexed := m.nearIndex()
	if !searched || !indexed {
		return nil, fmt.Sprintf("; its new lines stand at line %d, but too many edits failed in this file to tell whether it was meant for that place", held[0].first()+1)
	}
	l := likeness{m: m, x: x, pattern: pattern, want: joinTrimmed(pattern), weights: x.tokenWeights(pattern, m.d.len())}
	var all []contender
	runs := max(2, maxSiteRuns/len(held))
	for _, q := range held {
		all = append(all, l.site(q, len(op.Before), len(op.Old), len(op.New), runs))
	}
	for _, w := range windows {
		// A place the edit cannot have been meant for is no rival:
		// above its scope lines, or short of the end it must reach.
		if w.start < scopeAt || op.AtEOF && len(m.atEOF([]place{{lines: []int{w.start + n - 1}}})) == 0 {
			continue
		}
		apart := true
		for _, q := range held {
			if w.start < q.end() && q.first() < w.start+n {
				apart = false // part of that place
				break
			}
		}
		if apart {
			all = append(all, l.window(w, n))
		}
	}
	best := all[0]
	for _, c := range all[1:] {
		if c.closer(best) {
			best = c
		}
	}
	var tied []contender
	for _, c := range all {
		if !best.closer(c) {
			tied = append(tied, c)
		}
	}
	pick := 0
	if len(tied) > 1 {
		places := sortContenders(tied)
		scratch := Outcome{N: o.N, Op: *op, Path: o.Path}
		p := r.choose(&scratch, m, places, cursor)
		if p == nil {
			return nil, fmt.Sprintf("; its new lines stand at line %d, but the lines most like the ones it replaces stand in several places (lines %s), so nothing tells which one it was meant for",
				held[0].first()+1, intList(firstLines(places)))
		}
		for i := range places {
			if &places[i] == p {
				pick = i
			}
		}
	}
	switch c := tied[pick]; {
	case c.done && c.hits == 0 && c.toks == 0 && !m.scansAll(pattern):
		// Closest only for want of rivals: the index offers no place
		// that shares nothing with the lines to find.
		return nil, fmt.Sprintf("; its new lines stand at line %d, but nothing there is like the lines it replaces, so it is not taken as already applied", c.p.first()+1)
	case c.done:
		return &c.p, ""
	}
	return nil, fmt.Sprintf("; its new lines stand at line %d, but the lines most like the ones it replaces are at line %d, so it is not taken as already applied",
		held[0].first()+1, tied[pick].p.first()+1)
}

// likeness measures places against an edit's lines to find.
type likeness struct {
	m       *matcher
	x       *nearIndex
	pattern []string
	want    string // pattern joined as joinTrimmed joins it
	weights map[uint32]float64
}

// window measures the n lines from w.start, whose similarity the
// closest search measured.
func (l likeness) window(w window, n int) contender {
	p := place{rung: RungLoose, lines: make([]int, n)}
	for i := range p.lines {
		p.lines[i] = w.start + i
	}
	lines := l.m.trimmedLines(w.start, w.start+n, nil)
	return contender{p: p, hits: lineHits(l.pattern, lines), toks: l.x.tokenShare(l.weights, lines), sim: w.sim}
}

// site measures the place q, which holds the edit's result: whole
// lines over all of it; tokens and characters over its before and
// after lines with the new lines between them, or with the run of as
// many new lines as there are old ones that is most like the old
// ones, when the new ones are more (at most maxRuns runs, spread
// evenly, both ends included).
func (l likeness) site(q place, nb, no, nn, maxRuns int) contender {
	m := l.m
	c := contender{p: q, done: true, hits: lineHits(l.pattern, m.trimmedLines(q.first(), q.end(), nil))}
	s, e := region(q, nb, nn, len(q.lines)-nb-nn)
	measure := func(from, to int) {
		var lines []string
		lines = m.trimmedLines(q.first(), s, lines)
		lines = m.trimmedLines(from, to, lines)
		lines = m.trimmedLines(e, q.end(), lines)
		d := contender{hits: c.hits, toks: l.x.tokenShare(l.weights, lines), sim: textSimilarity(strings.Join(lines, "\n"), l.want)}
		if d.closer(c) {
			c.toks, c.sim = d.toks, d.sim
		}
	}
	if no == 0 || e-s <= no {
		measure(s, e)
		return c
	}
	runs := e - s - no + 1
	stride := max(1, (runs+maxRuns-2)/(maxRuns-1))
	for j := s; ; j += stride {
		j = min(j, e-no)
		measure(j, j+no)
		if j == e-no {
			return c
		}
	}
}

// lineHits counts the non-blank lines of pattern that stand in lines,
// in order, white space around them aside.
func lineHits(pattern, lines []string) int {
	a, b := make([]string, len(pattern)), make([]string, len(lines))
	for i, l := range pattern {
		a[i] = strings.TrimSpace(l)
	}
	for i, l := range lines {
		b[i] = strings.TrimSpace(l)
	}
	n := 0
	for _, e := range diff.Edits(a, b) {
		if e.Op == diff.Match && a[e.PosX] != "" {
			n++
		}
	}
	return n
}

// trimmedLines appends doc lines [from, to), without their trailing
// white space, to out.
func (m *matcher) trimmedLines(from, to int, out []string) []string {
	for i := from; i < to; i++ {
		out = append(out, trimTrailing(m.d.content(i)))
	}
	return out
}

// sortContenders orders contenders by first line and returns their
// places in that order.
func sortContenders(cs []contender) []place {
	for i := 1; i < len(cs); i++ {
		for j := i; j > 0 && cs[j].p.first() < cs[j-1].p.first(); j-- {
			cs[j], cs[j-1] = cs[j-1], cs[j]
		}
	}
	ps := make([]place, len(cs))
	for i, c := range cs {
		ps[i] = c.p
	}
	return ps
}

func firstLines(ps []place) []int {
	out := make([]int, len(ps))
	for i, p := range ps {
		out[i] = p.first() + 1
	}
	return out
}

// aboveScope settles an edit whose lines to find stand only above the
// scope lines that say where it is (apply-patch's "@@ def remove():"),
// when those stand: the edit was meant for a place below them, so it is
// already applied when its result stands there, and fails otherwise
// rather than change another function. It reports whether it settled
// the edit; a place reaching the last scope line counts as below it (a
// chunk may repeat that line as context).
func (r *resolver) aboveScope(o *Outcome, m *matcher, p place, result []string, top Rung, cursor int) bool {
	op := &o.Op
	if len(op.Scope) == 0 {
		return false
	}
	at, ok := m.scopeEnd(op.Scope)
	if !ok || p.end() >= at {
		return false
	}
	for rung := RungExact; rung <= min(top, RungTypography) && len(result) > 0; rung++ {
		if rung == RungComments && m.lang == "" {
			continue
		}
		var below []place
		for _, q := range m.find(result, rung) {
			if q.end() >= at && (!op.AtEOF || len(m.atEOF([]place{q})) > 0) {
				below = append(below, q)
			}
		}
		if len(below) == 0 {
			continue
		}
		scratch := Outcome{N: o.N, Op: *op, Path: o.Path}
		if q := r.choose(&scratch, m, below, cursor); q != nil {
			o.Status, o.Rung, o.Start, o.End = AlreadyApplied, q.rung, q.first()+1, q.end()
			return true
		}
		break
	}
	r.fail(o, ErrNotFound, "the lines to find stand only above the scope lines (%s, ending at line %d of %s), at line %d; copy them from below the scope lines",
		quoteLines(op.Scope), at, o.Path, p.first()+1)
	o.Err.Places = []int{p.first() + 1}
	return true
}

// quoteLines quotes lines for a message, " / " between them.
func quoteLines(lines []string) string {
	q := make([]string, len(lines))
	for i, l := range lines {
		q[i] = fmt.Sprintf("%q", strings.TrimSpace(l))
	}
	return strings.Join(q, " / ")
}

package engine

import (
	"fmt"

	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// closestFor finds, for an edit whose lines to find (pattern) stand
// nowhere at the rungs up to top, the lines to show in its failure
// report. When a looser --fuzz (loose, or the format's own level after
// --fuzz exact) would apply the edit, those are the lines it would
// take, and the report says so; else they are the closest lines, or
// none when nothing is alike. result is what the edit leaves in place
// of pattern. why is what the failure's message should add ("" for
// nothing).
func (r *resolver) closestFor(o *Outcome, m *matcher, pattern, result []string, top Rung, cursor int) (c *Closest, why string) {
	if p, fuzz := r.looserPlace(o, m, pattern, result, top, cursor); p != nil {
		from, to := p.first(), p.end()
		sim := p.score
		if p.rung != RungLoose {
			sim = textSimilarity(m.text(from, to), joinTrimmed(pattern))
		}
		c = m.describe(pattern, from, to, sim, top)
		c.Rung, c.Fuzz = p.rung, fuzz
		return c, ""
	}
	if c = m.closest(pattern, top); c == nil {
		switch {
		case m.work.spent:
			return nil, "; so many edits failed in this file that their closest lines were not all looked for"
		case m.cut:
			// Lines passed over may be the alike ones (a file of one
			// line repeated): not finding any proves nothing.
			return nil, fmt.Sprintf("; its lines stand in too many places of %s for the closest to be looked for", o.Path)
		}
		return nil, "; no similar lines were found"
	}
	return c, ""
}

// looserPlace returns the place at which the edit would be applied at
// a looser --fuzz, and that --fuzz: the format's own level when the
// run's is exact and that level takes it, else loose. It is nil when
// none would apply it (not finding it, finding it ambiguously or above
// its scope lines, or finding it already applied), or when the file's
// budget for failing edits does not allow telling.
//
// Most failing edits differ in words, and building the views of a
// large file for each rung would cost more than the search (a reply of
// 1,500 failing blocks against a million-line file took two and a half
// times as long): so the rungs above top are climbed only when one of
// the closest-place search's windows reads as the edit's lines at one
// of them, or when --fuzz loose's similarity would take a window and
// the file is short enough (looserViewLines). Then the edit is
// resolved again at the looser level, every rung climbed as
// locateEdit climbs, so that what the report claims holds: a rung
// between may find the lines at another place than the windows
// searched, or find the edit's new lines already standing.
func (r *resolver) looserPlace(o *Outcome, m *matcher, pattern, result []string, top Rung, cursor int) (*place, Fuzz) {
	if top >= RungLoose {
		return nil, 0
	}
	// Only a near match to offer: in a long file, not worth the views.
	nearOnly := m.looserTop(pattern, top) == top
	if nearOnly && m.loose(pattern) == nil {
		return nil, 0
	}
	for rung := top + 1; rung <= RungTypography; rung++ {
		if rung == RungComments && m.lang == "" {
			continue
		}
		if _, ok := m.views[rung]; !ok {
			if nearOnly && m.d.len() > looserViewLines || m.workLeft() < m.d.len() {
				return nil, 0
			}
			m.work.indexed += m.d.len()
		}
	}
	p := r.takenAt(o, m, pattern, result, RungLoose, cursor)
	if p == nil {
		return nil, 0
	}
	if own := TopRung(o.Op.Format, FuzzFormat); r.opts.Fuzz == FuzzExact && p.rung <= own {
		if q := r.takenAt(o, m, pattern, result, own, cursor); q != nil && q.rung == p.rung && q.first() == p.first() && q.end() == p.end() {
			return q, FuzzFormat
		}
	}
	return p, FuzzLoose
}

// looserViewLines bounds the length of a file whose looser rungs' views
// are built to tell whether --fuzz loose's near match would be taken:
// each view of a million-line file holds a hundred megabytes, and most
// failing edits are near matches. Past it, the near match is named
// only when the views were built already.
const looserViewLines = 1 << 17

// takenAt returns the place locateEdit would apply the edit at, were
// top its highest rung: nil when it would fail, find the edit's lines
// ambiguously or only above its scope lines, or find the edit already
// applied. It follows locateEdit step by step, on a scratch outcome.
func (r *resolver) takenAt(o *Outcome, m *matcher, pattern, result []string, top Rung, cursor int) *place {
	scratch := Outcome{N: o.N, Op: o.Op, Path: o.Path}
	if p, ok := r.climb(&scratch, m, pattern, top, cursor); ok {
		if p == nil || r.aboveScope(&scratch, m, *p, result, top, cursor) || m.around(result, pattern, *p, top) != nil {
			return nil
		}
		return p
	}
	if p, _ := r.doneAt(&scratch, m, pattern, result, top, cursor); p != nil || top < RungLoose {
		return nil
	}
	return m.looseFor(&o.Op, pattern)
}

// looseFor is --fuzz loose's near match for op's lines, held to what
// op says of its place as the rungs below are: nil when it stands
// above op's scope lines, or short of the end of the file that op must
// reach.
func (m *matcher) looseFor(op *translate.Operation, pattern []string) *place {
	p := m.loose(pattern)
	if p == nil || aboveScopeLines(m, op.Scope, *p) || op.AtEOF && len(m.atEOF([]place{*p})) == 0 {
		return nil
	}
	return p
}

// aboveScopeLines reports whether the place p stands above the scope
// lines an edit names, where locateEdit refuses it (aboveScope).
func aboveScopeLines(m *matcher, scope []string, p place) bool {
	if len(scope) == 0 {
		return false
	}
	at, ok := m.scopeEnd(scope)
	return ok && p.end() < at
}

// looserTop is the highest rung above top at which one of the windows
// the closest-place search found reads as pattern (top when none
// does): no rung above it can take the edit at a place the search
// would find.
func (m *matcher) looserTop(pattern []string, top Rung) Rung {
	windows, _ := m.candidates(pattern, 16)
	n := min(len(pattern), m.d.len())
	for rung := RungTypography; rung > top; rung-- {
		for _, w := range windows {
			// At the rungs that skip blank lines the place may start
			// below the window's start, when the pattern's blank lines
			// are more than the file's.
			last := w.start
			if rung.skipsBlank() {
				last = min(w.start+n, m.d.len()) - 1
			}
			for s := w.start; s <= last; s++ {
				if m.readsAt(pattern, s, rung) {
					return rung
				}
			}
		}
	}
	return top
}

// readsAt reports whether the file's lines from start read as pattern
// at rung r, blank lines skipped at the rungs that skip them (the
// constant indentation of the indent rung is not checked).
func (m *matcher) readsAt(pattern []string, start int, r Rung) bool {
	if r == RungComments && m.lang == "" {
		return false
	}
	fileKey, patternKey := keyFunc(r, m.lang), keyFunc(r, m.lang)
	skip := r.skipsBlank()
	i := start
	for _, l := range pattern {
		k := patternKey(l)
		if skip && k == "" {
			continue
		}
		for {
			if i >= m.d.len() {
				return false
			}
			f := fileKey(m.d.content(i))
			i++
			if skip && f == "" {
				continue
			}
			if f != k {
				return false
			}
			break
		}
	}
	return true
}

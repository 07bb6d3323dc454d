package engine

import (
	"fmt"
	"strings"

	"github.com/git-llm-apply/git-llm-apply/translate"
)

// locateEdit finds where an anchored edit applies and plans its
// replacement; nil when the edit failed or is already applied.
func (r *resolver) locateEdit(o *Outcome, f *fileState) *plan {
	if !r.editable(o, f) {
		return nil
	}
	op := &o.Op
	pattern := concat(op.Before, op.Old, op.After)
	if len(pattern) == 0 {
		r.fail(o, ErrNoAnchor, "the edit names no lines to find in %s", f.path)
		return nil
	}
	m := f.matcher()
	result := concat(op.Before, op.New, op.After)
	if p, ok := r.climb(o, m, pattern); ok {
		if p == nil {
			return nil // ambiguous: already reported
		}
		// An edit whose new lines keep the old ones (an insertion
		// written as a replacement) still finds them once applied: it
		// is done when its result already stands around them.
		if q := m.around(result, *p, r.top); q != nil {
			o.Status, o.Rung, o.Start, o.End = AlreadyApplied, q.rung, q.first()+1, q.end()
			return nil
		}
		return r.plan(o, f, *p)
	}
	if len(result) > 0 {
		if p, ok := r.climb(&Outcome{N: o.N, Op: *op}, m, result); ok && p != nil {
			o.Status, o.Rung = AlreadyApplied, p.rung
			o.Start, o.End = p.first()+1, p.end()
			return nil
		}
	}
	if r.top >= RungLoose {
		if p := m.loose(pattern); p != nil {
			return r.plan(o, f, *p)
		}
	}
	r.fail(o, ErrNotFound, "the lines to replace were not found in %s", f.path)
	o.Err.Closest = m.closest(pattern)
	if op.FirstMatch || len(op.Before)+len(op.After) == 0 {
		o.Err.Msg = fmt.Sprintf("the SEARCH text does not match any lines of %s", f.path)
	}
	return nil
}

// climb tries the rungs up to the top one (similarity aside) and
// returns the chosen place at the first rung that finds one. ok is
// false when no rung found the pattern; a nil place with ok true means
// the pattern was ambiguous (the failure is recorded on o).
func (r *resolver) climb(o *Outcome, m *matcher, pattern []string) (*place, bool) {
	top := r.top
	if top > RungTypography {
		top = RungTypography
	}
	for rung := RungExact; rung <= top; rung++ {
		if rung == RungComments && m.lang == "" {
			continue // no comment syntax: the rung adds nothing
		}
		places := m.find(pattern, rung)
		if len(places) == 0 {
			continue
		}
		p := r.choose(o, m, places)
		return p, true
	}
	return nil, false
}

// around returns a place of result that contains p, found at the
// first rung up to top that finds result at all; nil when there is none
// (or result is the pattern itself).
func (m *matcher) around(result []string, p place, top Rung) *place {
	if len(result) <= len(p.lines) {
		return nil
	}
	top = min(top, RungTypography)
	for rung := RungExact; rung <= top; rung++ {
		places := m.find(result, rung)
		if len(places) == 0 {
			continue
		}
		for _, q := range places {
			if q.first() <= p.first() && p.end() <= q.end() {
				return &q
			}
		}
		return nil
	}
	return nil
}

// choose picks one of several places: those below the scope lines,
// then the one nearest the line hint; the SEARCH/REPLACE family takes
// the first. Anything else is ambiguous.
func (r *resolver) choose(o *Outcome, m *matcher, places []place) *place {
	op := &o.Op
	if len(places) > 1 && len(op.Scope) > 0 {
		if in := m.belowScope(places, op.Scope); len(in) > 0 {
			places = in
		}
	}
	if len(places) > 1 && op.LineHint > 0 {
		best := 0
		for i, p := range places {
			if abs(p.first()+1-op.LineHint) < abs(places[best].first()+1-op.LineHint) {
				best = i
			}
		}
		return &places[best]
	}
	if len(places) == 1 {
		return &places[0]
	}
	lines := make([]int, len(places))
	for i, p := range places {
		lines[i] = p.first() + 1
	}
	if op.FirstMatch {
		o.Warnings = append(o.Warnings, fmt.Sprintf("the SEARCH text matches %d places (lines %s); the first was used", len(places), intList(lines)))
		return &places[0]
	}
	r.fail(o, ErrAmbiguous, "the lines to replace stand in %d places in %s (lines %s); add lines above or below to tell them apart", len(places), o.Path, intList(lines))
	o.Err.Places = lines
	return nil
}

// belowScope keeps the places that stand below every scope line, the
// scope lines themselves standing in order.
func (m *matcher) belowScope(places []place, scope []string) []place {
	at := 0
	for _, s := range scope {
		want := strings.TrimSpace(s)
		found := false
		m.d.each(at, func(i int, l string) bool {
			if strings.TrimSpace(trimEOL(l)) == want {
				at, found = i+1, true
				return false
			}
			return true
		})
		if !found {
			return nil
		}
	}
	var out []place
	for _, p := range places {
		if p.first() >= at {
			out = append(out, p)
		}
	}
	return out
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

func intList(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = fmt.Sprint(n)
	}
	return strings.Join(s, ", ")
}

func concat(parts ...[]string) []string {
	var out []string
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// plan turns a place into the lines that replace the edit's region.
func (r *resolver) plan(o *Outcome, f *fileState, p place) *plan {
	op := &o.Op
	start, end := region(p, len(op.Before), len(op.Old), len(op.After))
	if op.Block != translate.NoBlock && len(op.Old) > 0 {
		end = blockEnd(f.d, start, end, op.Block, f.lang)
	}
	repl, err := replacement(f.d, p, op, start, end)
	if err != nil {
		r.fail(o, ErrElided, "%s", err)
		return nil
	}
	o.Status, o.Rung, o.Start, o.End = Applied, p.rung, start+1, end
	return &plan{o: o, start: start, end: end, repl: repl}
}

// region is the doc line range [start, end) that a place's Old lines
// cover; for an insertion start == end is where the new lines go.
func region(p place, nb, no, na int) (int, int) {
	if p.rung < RungWhitespace || p.rung == RungLoose {
		s := p.first() - firstMapped(p.lines)
		return s + nb, s + nb + no
	}
	lastBefore, firstAfter := -1, -1
	for _, l := range p.lines[:nb] {
		if l >= 0 {
			lastBefore = l
		}
	}
	for _, l := range p.lines[nb+no:] {
		if l >= 0 {
			firstAfter = l
			break
		}
	}
	oldFirst, oldLast := -1, -1
	for _, l := range p.lines[nb : nb+no] {
		if l >= 0 {
			if oldFirst < 0 {
				oldFirst = l
			}
			oldLast = l
		}
	}
	if oldFirst < 0 {
		at := lastBefore + 1
		if lastBefore < 0 {
			at = firstAfter
		}
		return at, at
	}
	start, end := oldFirst, oldLast+1
	if lastBefore >= 0 {
		start = lastBefore + 1
	}
	if firstAfter >= 0 {
		end = firstAfter
	}
	return start, end
}

// firstMapped is the pattern index of the first line a place maps.
func firstMapped(lines []int) int {
	for i, l := range lines {
		if l >= 0 {
			return i
		}
	}
	return 0
}

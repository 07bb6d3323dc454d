package engine

// closestFor finds, for an edit whose lines to find (pattern) stand
// nowhere at the rungs up to top, the lines to show in its failure
// report. When a rung above top would take the edit (as --fuzz loose,
// or the format's own level after --fuzz exact, would climb to it),
// those are the lines it would take, and the report says so; else they
// are the closest lines, or none when nothing is alike. why is what
// the failure's message should add ("" for nothing).
func (r *resolver) closestFor(o *Outcome, m *matcher, pattern []string, top Rung, cursor int) (c *Closest, why string) {
	if p := r.looserPlace(o, m, pattern, top, cursor); p != nil {
		from, to := p.first(), p.end()
		sim := p.score
		if p.rung != RungLoose {
			sim = textSimilarity(m.text(from, to), joinTrimmed(pattern))
		}
		c = m.describe(pattern, from, to, sim, top)
		c.Rung, c.Fuzz = p.rung, FuzzLoose
		if p.rung <= TopRung(o.Op.Format, FuzzFormat) && r.opts.Fuzz == FuzzExact {
			c.Fuzz = FuzzFormat
		}
		return c, ""
	}
	if c = m.closest(pattern, top); c == nil {
		if m.work.spent {
			return nil, "; so many edits failed in this file that their closest lines were not all looked for"
		}
		return nil, "; no similar lines were found"
	}
	return c, ""
}

// looserPlace returns the place the edit would take at the rungs above
// top, climbing as locateEdit climbs: the first that finds its lines,
// then similarity; nil when none would take it (or takes it only
// ambiguously, or above its scope lines). The rungs are climbed only as
// high as one of the closest-place search's windows reads as the
// edit's lines, and a rung's view is built only when the file's budget
// for failing edits allows: most failing edits differ in words, and
// building the views of a large file for each rung would cost more
// than the search (a reply of 1,500 failing blocks against a
// million-line file took two and a half times as long).
func (r *resolver) looserPlace(o *Outcome, m *matcher, pattern []string, top Rung, cursor int) *place {
	if top >= RungLoose {
		return nil
	}
	op := &o.Op
	high := m.looserTop(pattern, top)
	for rung := top + 1; rung <= high; rung++ {
		if rung == RungComments && m.lang == "" {
			continue
		}
		if _, ok := m.views[rung]; !ok {
			if m.workLeft() < m.d.len() {
				return nil
			}
			m.work.indexed += m.d.len()
		}
		places := m.find(pattern, rung)
		if op.AtEOF {
			places = m.atEOF(places)
		}
		if len(places) == 0 {
			continue
		}
		scratch := Outcome{N: o.N, Op: *op, Path: o.Path}
		p := r.choose(&scratch, m, places, cursor)
		if p == nil || aboveScopeLines(m, op.Scope, *p) {
			return nil
		}
		return p
	}
	p := m.loose(pattern)
	if p == nil || aboveScopeLines(m, op.Scope, *p) {
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

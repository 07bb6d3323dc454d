package engine

import (
	"fmt"
	"strings"

	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// locateEdit finds where an anchored edit applies and plans its
// replacement; nil when the edit failed or is already applied. cursor
// is where the previous member of an ordered group ended (-1: none).
func (r *resolver) locateEdit(o *Outcome, f *fileState, cursor int) *plan {
	if !r.editable(o, f) {
		return nil
	}
	op := &o.Op
	if marksUnits(op) {
		// Guessing the file's unit reads every line of the file.
		expandUnitsOf(op, f.d.indentUnit)
	}
	dropBOMs(op, f.d)
	r.useLanguage(f, op.Language)
	top := r.topFor(op)
	pattern := concat(op.Before, op.Old, op.After)
	if len(pattern) == 0 {
		return r.planEdge(o, f)
	}
	m := f.matcher()
	result := concat(op.Before, op.New, op.After)
	if p, ok := r.climb(o, m, pattern, top, cursor); ok {
		if p == nil {
			return nil // ambiguous: already reported
		}
		if r.aboveScope(o, m, *p, result, top, cursor) {
			return nil
		}
		// An edit whose new lines keep the old ones (an insertion
		// written as a replacement) still finds them once applied: it
		// is done when its result already stands around them.
		if q := m.around(result, pattern, *p, top); q != nil {
			o.Status, o.Rung, o.Start, o.End = AlreadyApplied, q.rung, q.first()+1, q.end()
			return nil
		}
		return r.plan(o, f, *p)
	}
	p, why := r.doneAt(o, m, pattern, result, top, cursor)
	if p != nil {
		o.Status, o.Rung = AlreadyApplied, p.rung
		o.Start, o.End = p.first()+1, p.end()
		return nil
	}
	if top >= RungLoose {
		if p := m.looseFor(op, pattern); p != nil {
			return r.plan(o, f, *p)
		}
	}
	r.fail(o, ErrNotFound, "%s%s", r.whyNotFound(m, op, f.path, top), why)
	if !r.opts.forAdvice {
		var more string
		o.Err.Closest, more = r.closestFor(o, m, pattern, result, top, cursor)
		o.Err.Msg += more
	}
	return nil
}

// whyNotFound says which part of an edit's lines is missing, in the
// words of the edit-v2 seed's error table when the edit has anchors.
func (r *resolver) whyNotFound(m *matcher, op *translate.Operation, path string, top Rung) string {
	found := func(lines []string) bool {
		_, ok := r.climb(&Outcome{Op: *op}, m, lines, top, -1)
		return ok
	}
	if op.AtEOF {
		// Lines that stand whole but not at the end match lines of the
		// file: saying they match none sends the model to copy them
		// again as they were.
		anywhere := *op
		anywhere.AtEOF = false
		if p, ok := r.climb(&Outcome{Op: anywhere}, m, concat(op.Before, op.Old, op.After), top, -1); ok && p != nil {
			return fmt.Sprintf("the lines to find stand at line %d of %s, not at its end, where the edit says they end (*** End of File)", p.first()+1, path)
		}
	}
	switch {
	case op.FirstMatch:
		return fmt.Sprintf("the SEARCH text does not match any lines of %s", path)
	case len(op.Before)+len(op.After) == 0 && op.Format != "edit-v2":
		return fmt.Sprintf("the lines to find do not match any lines of %s", path)
	case len(op.Before) > 0 && !found(op.Before):
		return fmt.Sprintf("Leading anchor not found: the lines above the edit do not stand in %s", path)
	case len(op.Before) > 0 && len(op.Old) > 0 && !found(concat(op.Before, op.Old)):
		return fmt.Sprintf("Old lines don't match content after anchor in %s", path)
	case len(op.After) > 0 && len(op.Before)+len(op.Old) > 0:
		return fmt.Sprintf("Trailing anchor not found after old lines in %s", path)
	}
	return fmt.Sprintf("Content sequence not found in %s", path)
}

// topFor is the highest rung an operation may climb to: its own
// format's, unless --fuzz says otherwise.
func (r *resolver) topFor(op *translate.Operation) Rung {
	if op.Format != "" {
		return TopRung(op.Format, r.opts.Fuzz)
	}
	return r.top
}

// marksUnits reports whether a line of op starts with an IndentUnit
// mark, which expandUnits expands.
func marksUnits(op *translate.Operation) bool {
	for _, lines := range [][]string{op.Scope, op.Before, op.Old, op.After, op.New} {
		for _, l := range lines {
			if strings.HasPrefix(l, translate.IndentUnit) {
				return true
			}
		}
	}
	return false
}

// expandUnits turns the IndentUnit marks at the start of an
// operation's lines into the file's indentation unit.
func expandUnits(op *translate.Operation, unit string) {
	expandUnitsOf(op, func() string { return unit })
}

// expandUnitsOf is expandUnits asking for the unit only when a line
// holds one: guessing a file's unit reads all of it.
func expandUnitsOf(op *translate.Operation, unitOf func() string) {
	unit := ""
	for _, lines := range []*[]string{&op.Scope, &op.Before, &op.Old, &op.After, &op.New} {
		var out []string // a copy: the reply's operations stay as read
		for i, l := range *lines {
			if !strings.HasPrefix(l, translate.IndentUnit) {
				continue
			}
			if out == nil {
				out = append([]string(nil), *lines...)
			}
			if unit == "" {
				unit = unitOf()
			}
			n := 0
			for strings.HasPrefix(l, translate.IndentUnit) {
				l, n = l[len(translate.IndentUnit):], n+1
			}
			out[i] = strings.Repeat(unit, n) + l
		}
		if out != nil {
			*lines = out
		}
	}
}

// dropBOMs takes the byte order mark off the start of an operation's
// lines when the file starts with one: the doc holds the file's mark
// apart from its first line, and a model that copies that line copies
// the mark too.
func dropBOMs(op *translate.Operation, d *doc) {
	if d.bom == "" {
		return
	}
	for _, lines := range []*[]string{&op.Scope, &op.Before, &op.Old, &op.After, &op.New} {
		var out []string // a copy: the reply's operations stay as read
		for i, l := range *lines {
			if !strings.HasPrefix(l, d.bom) {
				continue
			}
			if out == nil {
				out = append([]string(nil), *lines...)
			}
			out[i] = l[len(d.bom):]
		}
		if out != nil {
			*lines = out
		}
	}
}

// useLanguage makes the comments rung use the comment syntax an
// operation names instead of the one the file's extension implies.
func (r *resolver) useLanguage(f *fileState, language string) {
	lang := languageNamed(language)
	if lang == "" || lang == f.lang {
		return
	}
	f.lang, f.m = lang, nil
}

// planEdge plans an edit with nothing to find: New at the top or the
// end of the file.
func (r *resolver) planEdge(o *Outcome, f *fileState) *plan {
	op := &o.Op
	n := f.d.len()
	switch op.Where {
	case translate.AtStart:
		if startsWith(f.d, op.New) {
			o.Status, o.Start, o.End = AlreadyApplied, 1, len(op.New)
			return nil
		}
		repl := make([]string, len(op.New))
		for i, l := range op.New {
			repl[i] = l + f.d.eol
		}
		o.Status, o.Start, o.End = Applied, 1, 0
		return &plan{o: o, start: 0, end: 0, repl: repl}
	case translate.AtEnd:
		// A hunk's line number is a hint, but one that puts the lines
		// above the end contradicts the end: nothing then says where
		// they go.
		last := n
		for last > 0 && isBlank(f.d.content(last-1)) {
			last--
		}
		// A number at the end as the file stands (blank lines after it
		// aside or not) puts the lines after it: that the last lines
		// read the same proves nothing. Below it, where a first run
		// left them, they are done.
		hint := op.LineHint
		if endsWith(f.d, op.New) && (hint == 0 || hint >= last-len(op.New) && (hint < last || hint > n)) {
			o.Status, o.Start, o.End = AlreadyApplied, n-len(op.New)+1, n
			return nil
		}
		if hint > 0 && hint < last {
			r.fail(o, ErrNoAnchor, "the hunk adds lines with no context lines around them, and its @@ line puts them after line %d, not at the end of %s (line %d); line numbers are only hints, so add the lines around them", hint, f.path, last)
			return nil
		}
		r.appendLines(f, op.New)
		o.Status, o.Start, o.End = Applied, n+1, n
		if op.Ordered && (op.Format == "udiff" || op.Format == "udiffx") {
			// A unified diff says nothing of such a hunk's place (the
			// apply-patch prompt promises the end): the report says
			// where its lines went, in case the model meant another.
			// A hunk is Ordered; udiffx's FILE_APPEND, which says the
			// end, is not.
			o.Warnings = append(o.Warnings, fmt.Sprintf("the hunk has no context lines, so its lines were added at the end of %s", f.path))
		}
		return nil
	}
	if len(op.Scope) > 0 {
		return r.planBelowScope(o, f)
	}
	r.fail(o, ErrNoAnchor, "the edit names no lines to find in %s, so nothing says where its new lines go; add the lines around them", f.path)
	return nil
}

// planBelowScope places an insertion that names only scope lines right
// below the last of them (apply-patch's "@@ def f():" followed by added
// lines only).
func (r *resolver) planBelowScope(o *Outcome, f *fileState) *plan {
	op := &o.Op
	at, ok := f.matcher().scopeEnd(op.Scope)
	if !ok {
		r.fail(o, ErrNotFound, "the scope lines %q do not stand in order in %s", strings.Join(op.Scope, " / "), f.path)
		return nil
	}
	if at+len(op.New) <= f.d.len() && sameRun(f.d, at, op.New) {
		o.Status, o.Start, o.End = AlreadyApplied, at+1, at+len(op.New)
		return nil
	}
	repl := make([]string, len(op.New))
	for i, l := range op.New {
		repl[i] = l + f.d.eol
	}
	o.Status, o.Start, o.End = Applied, at+1, at
	return &plan{o: o, start: at, end: at, repl: repl}
}

// sameRun reports whether doc lines from at on are lines (trailing
// white space aside).
func sameRun(d *doc, at int, lines []string) bool {
	for i, l := range lines {
		if trimTrailing(d.content(at+i)) != trimTrailing(l) {
			return false
		}
	}
	return true
}

// climb tries the rungs up to top (similarity aside) and returns the
// chosen place at the first rung that finds one. ok is false when no
// rung found the pattern; a nil place with ok true means the pattern
// was ambiguous (the failure is recorded on o).
func (r *resolver) climb(o *Outcome, m *matcher, pattern []string, top Rung, cursor int) (*place, bool) {
	top = min(top, RungTypography)
	for rung := RungExact; rung <= top; rung++ {
		if rung == RungComments && m.lang == "" {
			continue // no comment syntax: the rung adds nothing
		}
		places := m.find(pattern, rung)
		if o.Op.AtEOF {
			places = m.atEOF(places)
		}
		if len(places) == 0 {
			continue
		}
		return r.choose(o, m, places, cursor), true
	}
	return nil, false
}

// around returns a place of result that contains p (where pattern
// stands), found at the first rung up to top that finds result at all;
// nil when there is none. A rung that cannot tell result from pattern
// (the new lines add only a comment, at the comments rung) proves
// nothing and is passed over.
func (m *matcher) around(result, pattern []string, p place, top Rung) *place {
	if len(result) <= len(p.lines) {
		return nil
	}
	top = min(top, RungTypography)
	for rung := RungExact; rung <= top; rung++ {
		if m.alike(result, pattern, rung) {
			continue
		}
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

// alike reports whether a and b read the same at rung r.
func (m *matcher) alike(a, b []string, r Rung) bool {
	ka, kb := m.keys(a, r), m.keys(b, r)
	if len(ka) != len(kb) {
		return false
	}
	for i := range ka {
		if ka[i] != kb[i] {
			return false
		}
	}
	return true
}

// choose picks one of several places: those below the scope lines;
// for an ordered group, those after the previous member (cursor); then
// the one nearest the line hint; the SEARCH/REPLACE family takes the
// first. Anything else is ambiguous.
func (r *resolver) choose(o *Outcome, m *matcher, places []place, cursor int) *place {
	op := &o.Op
	if len(places) > 1 && len(op.Scope) > 0 {
		if in := m.belowScope(places, op.Scope); len(in) > 0 {
			places = in
		}
	}
	if len(places) > 1 && op.Ordered && cursor >= 0 {
		var after []place
		for _, p := range places {
			if p.first() >= cursor {
				after = append(after, p)
			}
		}
		if len(after) > 0 {
			places = after
			if op.LineHint == 0 {
				return &places[0] // the next one in order
			}
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
	r.fail(o, ErrAmbiguous, "Edit location is ambiguous (multiple matches): the lines stand in %d places in %s (lines %s); add lines above or below to tell them apart", len(places), o.Path, intList(lines))
	o.Err.Places = lines
	return nil
}

// atEOF keeps the places that end at the end of the file (blank lines
// after them aside).
func (m *matcher) atEOF(places []place) []place {
	var out []place
	n := m.d.len()
	for _, p := range places {
		e := p.end()
		for e < n && isBlank(m.d.content(e)) {
			e++
		}
		if e == n {
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
	tail := ""
	if op.Block != translate.NoBlock && len(op.Old) > 0 {
		var ok bool
		if end, tail, ok = blockEnd(f.d, start, end, op.Block, f.lang); !ok {
			r.fail(o, ErrNotFound, "the block that starts at line %d of %s has no end: its braces do not balance", start+1, f.path)
			return nil
		}
	}
	// Lines the reply adds under IndentAnchor take their indentation
	// from the line the operation names (the first matched line unless
	// it says otherwise).
	base := start
	if i := op.IndentFrom; i >= 0 && i < len(p.lines) && p.lines[i] >= 0 {
		base = p.lines[i]
	} else if len(op.Old) == 0 && len(op.Before) > 0 && start > 0 {
		base = start - 1
	}
	repl, warns, err := replacement(f, p, op, start, end, base)
	if err != nil {
		r.fail(o, ErrElided, "%s", err)
		return nil
	}
	o.Warnings = append(o.Warnings, warns...)
	if tail != "" {
		// What follows the block's closing brace on its line stays.
		if n := len(repl); n > 0 {
			repl[n-1] = trimEOL(repl[n-1]) + tail + f.d.eol
		} else {
			repl = []string{leading(f.d.content(start)) + strings.TrimLeft(tail, " \t") + f.d.eol}
		}
	}
	if head, tail := repeatedComments(f.d, f.lang, repl, start, end); head+tail > 0 {
		repl = repl[head : len(repl)-tail]
		o.Warnings = append(o.Warnings, repeatedNote(f.path, start, end, head, tail))
	}
	if op.TrimBlank && len(repl) == 0 {
		start, end = dropStrayBlank(f.d, start, end)
	}
	o.Status, o.Rung, o.Start, o.End = Applied, p.rung, start+1, end
	if p.rung.skipsBlank() && len(repl) > 0 {
		o.Start, o.End = reported(f.d, start, end)
	}
	return keptEdgesOff(&plan{o: o, start: start, end: end, repl: repl}, f.d)
}

// repeatedNote says which comment lines of the file the new lines
// repeated at the edges of region [start, end), and so were not
// written again.
func repeatedNote(path string, start, end, head, tail int) string {
	var parts []string
	if head > 0 {
		parts = append(parts, lineSpan(start-head+1, start))
	}
	if tail > 0 {
		parts = append(parts, lineSpan(end+1, end+tail))
	}
	return fmt.Sprintf("the new lines repeat the comment at %s of %s, which stays; it is not written twice", strings.Join(parts, " and "), path)
}

func lineSpan(from, to int) string {
	if from == to {
		return fmt.Sprintf("line %d", from)
	}
	return fmt.Sprintf("lines %d-%d", from, to)
}

// keptEdgesOff narrows a plan to the lines it changes, leaving out the
// lines at its edges that it writes back byte for byte (a hunk's
// context): two hunks of a diff that share an unchanged context line
// then neither overlap nor stand in each other's order.
func keptEdgesOff(pl *plan, d *doc) *plan {
	for pl.start < pl.end && len(pl.repl) > 0 && pl.repl[0] == d.line(pl.start) {
		pl.start++
		pl.repl = pl.repl[1:]
	}
	for pl.end > pl.start && len(pl.repl) > 0 && pl.repl[len(pl.repl)-1] == d.line(pl.end-1) {
		pl.end--
		pl.repl = pl.repl[:len(pl.repl)-1]
	}
	return pl
}

// reported returns the 1-based lines of region [start, end) that the
// report names: the blank lines at its edges, which a rung that skips
// blank lines takes in up to the context, are left out.
func reported(d *doc, start, end int) (int, int) {
	s, e := start, end
	for s < e && isBlank(d.content(s)) {
		s++
	}
	for e > s && isBlank(d.content(e-1)) {
		e--
	}
	if s == e {
		return start + 1, end
	}
	return s + 1, e
}

// dropStrayBlank widens a deletion over the blank lines it would leave
// behind: those after it when blank lines (or the top of the file)
// stand before it, those before it when it reaches the end.
func dropStrayBlank(d *doc, start, end int) (int, int) {
	if end <= start {
		return start, end
	}
	n := d.len()
	blankBefore := start == 0 || isBlank(d.content(start-1))
	switch {
	case blankBefore && end < n && isBlank(d.content(end)):
		for end < n && isBlank(d.content(end)) {
			end++
		}
	case end == n:
		for start > 0 && isBlank(d.content(start-1)) {
			start--
		}
	}
	return start, end
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

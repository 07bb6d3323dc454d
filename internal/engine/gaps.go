package engine

import (
	"strings"

	"znkr.io/diff"
)

// rebuild writes the lines that replace an edit's region, gap by gap.
// A gap is what stands between two lines the edit keeps that a rung
// matched to file lines: the file lines there that it deletes or that
// a tolerant rung skipped (blank lines, comments the reply did not
// show), and the reply's lines there that it adds or keeps without a
// file line of their own.
type rebuild struct {
	d        *doc
	old, new []string
	mapped   []int // file line of each old line; -1 when a rung skipped it
	matched  map[int]bool
	lang     string
	comment  []bool // which new lines are comments, in lang; read when first needed
	add      func(string) string

	out      []string
	dropped  []int // skipped comments that went with the removed lines around them
	replaced []int // skipped comments that gave way to a comment of the new lines
}

// Where a skipped file line stands in its gap, which decides whether it
// stays.
const (
	inOpenGap    = iota // the gap removes no matched line
	beforeChange        // above the first removed line
	amidChange          // between two removed lines
	afterChange         // below the last removed line
)

// gap writes the lines of one gap: steps are its part of the script,
// [lo, hi) its file lines.
//
// A reply line that maps to no file line stands for the skipped file
// line it pairs with: the same text (white space and typography
// aside), else the next line of its kind (blank, comment) in order. It
// keeps that line's bytes when the reply keeps it and drops it when the
// reply deletes it. The skipped lines nothing pairs with stay, unless
// they stand between two removed lines (the seed formats replace the
// whole matched range), or they are comments and the new lines bring a
// comment to the same place: above the change, the comments the new
// lines open with; below it, or in a gap that removes nothing, the
// comments they end with (a comment speaks of the code below it). A
// comment the new lines hold identically is never kept besides.
func (rb *rebuild) gap(steps []diff.Edit[string], lo, hi int) {
	if len(steps) == 0 && lo == hi {
		return
	}
	d := rb.d
	var skipped []int
	for i := lo; i < hi; i++ {
		if !rb.matched[i] {
			skipped = append(skipped, i)
		}
	}
	if len(skipped) == 0 {
		// Nothing skipped (every rung below the whitespace one): the
		// gap is the lines the reply adds.
		for _, e := range steps {
			if e.Op != diff.Delete {
				rb.out = append(rb.out, rb.add(rb.new[e.PosY]))
			}
		}
		return
	}
	firstDel, lastDel := -1, -1
	for _, e := range steps {
		if e.Op == diff.Delete && rb.mapped[e.PosX] >= 0 {
			if firstDel < 0 {
				firstDel = rb.mapped[e.PosX]
			}
			lastDel = rb.mapped[e.PosX]
		}
	}
	pair := rb.pairSkipped(steps, skipped)
	paired := map[int]bool{}
	for _, f := range pair {
		if f >= 0 {
			paired[f] = true
		}
	}

	whereOf := func(s int) int {
		switch {
		case firstDel < 0:
			return inOpenGap
		case s < firstDel:
			return beforeChange
		case s > lastDel:
			return afterChange
		}
		return amidChange
	}
	replaces, runs := rb.brought(steps, pair)
	held := heldComments(d, skipped, paired, runs, whereOf)

	keep := map[int]bool{}
	lastLead := -1 // the last skipped line above the change that stays
	for _, s := range skipped {
		if paired[s] {
			continue
		}
		where := whereOf(s)
		l := d.content(s)
		switch {
		case where == amidChange:
			if !isBlank(l) {
				rb.dropped = append(rb.dropped, s)
			}
		case isBlank(l):
			keep[s] = where != beforeChange
		case held[s]:
			// Written once, where the new lines put it.
		case replaces[where]:
			rb.replaced = append(rb.replaced, s)
		default:
			keep[s] = true
			if where == beforeChange {
				lastLead = s
			}
		}
	}
	// Blank lines above the change stay only above a comment that
	// stays there: the new lines bring their own.
	for _, s := range skipped {
		if s < lastLead && !paired[s] && isBlank(d.content(s)) {
			keep[s] = true
		}
	}

	blankFor := rb.blankLines(steps, pair, skipped, keep, func(s int) bool { return firstDel < 0 || s > lastDel }, firstDel < 0)

	cursor := lo
	flush := func(to int) {
		for ; cursor < to; cursor++ {
			if keep[cursor] {
				rb.out = append(rb.out, d.line(cursor))
			}
		}
	}
	for k, e := range steps {
		switch {
		case pair[k] >= 0:
			flush(pair[k])
			if e.Op == diff.Match {
				rb.out = append(rb.out, d.line(pair[k]))
			}
			cursor = max(cursor, pair[k]+1)
		case e.Op == diff.Delete && rb.mapped[e.PosX] >= 0:
			flush(rb.mapped[e.PosX])
			cursor = max(cursor, rb.mapped[e.PosX]+1)
		case e.Op == diff.Delete:
			// A line of the reply the file does not have: nothing to drop.
		default:
			if s, ok := blankFor[k]; ok && s >= 0 {
				rb.out = append(rb.out, d.line(s))
			} else {
				rb.out = append(rb.out, rb.add(rb.new[e.PosY]))
			}
		}
	}
	flush(hi)
}

// broughtRun is a run of comment lines the new lines of a gap bring,
// following each other: key is "\n" and each line's gapKey and "\n";
// side is beforeChange when it stands above the first line of code the
// new lines hold (or they hold none), afterChange when below the last,
// else inOpenGap.
type broughtRun struct {
	key  string
	side int
}

// brought looks at the comments the new lines of a gap bring from the
// reply: whether they replace the skipped comments of each place
// (where they stand before the first line of code the new lines hold,
// or after the last), and their runs.
func (rb *rebuild) brought(steps []diff.Edit[string], pair []int) (replaces [4]bool, runs []broughtRun) {
	if rb.comment == nil {
		rb.comment = commentLines(rb.new, rb.lang)
	}
	firstCode, lastCode := -1, -1
	var comments []int // steps
	var starts []int   // the step opening each run
	prev := -1
	for k, e := range steps {
		if e.Op == diff.Delete {
			continue
		}
		switch l := rb.new[e.PosY]; {
		case isBlank(l):
		case !rb.comment[e.PosY]:
			if firstCode < 0 {
				firstCode = k
			}
			lastCode = k
		case pair[k] < 0:
			if prev < 0 || e.PosY != prev+1 {
				runs = append(runs, broughtRun{key: "\n"})
				starts = append(starts, k)
			}
			runs[len(runs)-1].key += gapKey(l) + "\n"
			prev = e.PosY
			comments = append(comments, k)
		}
	}
	var opening, closing bool
	for _, k := range comments {
		opening = opening || firstCode < 0 || k < firstCode
		closing = closing || firstCode >= 0 && k > lastCode
	}
	replaces[inOpenGap] = closing || firstCode < 0 && len(comments) > 0
	replaces[beforeChange] = opening
	replaces[afterChange] = closing
	for i, k := range starts {
		switch {
		case firstCode < 0 || k < firstCode:
			runs[i].side = beforeChange
		case k > lastCode:
			runs[i].side = afterChange
		default:
			runs[i].side = inOpenGap
		}
	}
	return replaces, runs
}

// heldComments finds the skipped comments the new lines hold: a
// comment is the skipped non-blank lines that follow each other, and
// the new lines hold it when they bring the same lines in a row (runs,
// as brought returns them). Each line the new lines bring holds one
// comment of the file, so that a comment the file has twice is not
// taken for written when the new lines bring it once: first the
// comments on the side of the change the new ones stand (whereOf says
// where a skipped line stands), then the others. A comment between two
// removed lines goes with them whatever the new lines bring.
func heldComments(d *doc, skipped []int, paired map[int]bool, runs []broughtRun, whereOf func(s int) int) map[int]bool {
	type fileRun struct {
		from, to int // in skipped
		key      string
		where    int
	}
	var frs []fileRun
	for i := 0; i < len(skipped); {
		j := i
		key := "\n"
		for ; j < len(skipped) && !paired[skipped[j]] && !isBlank(d.content(skipped[j])) &&
			(j == i || skipped[j] == skipped[j-1]+1); j++ {
			key += gapKey(d.content(skipped[j])) + "\n"
		}
		if j == i {
			i++
			continue
		}
		if w := whereOf(skipped[i]); w != amidChange {
			frs = append(frs, fileRun{i, j, key, w})
		}
		i = j
	}
	left := make([]string, len(runs)) // what each run has not yet held
	for i, r := range runs {
		left[i] = r.key
	}
	held := map[int]bool{}
	take := func(fr fileRun, sameSide bool) bool {
		for i := range left {
			if sameSide && runs[i].side != fr.where {
				continue
			}
			if k := strings.Index(left[i], fr.key); k >= 0 {
				// A line no key holds stands in for the lines taken.
				left[i] = left[i][:k] + "\n\x00\n" + left[i][k+len(fr.key):]
				for _, s := range skipped[fr.from:fr.to] {
					held[s] = true
				}
				return true
			}
		}
		return false
	}
	var rest []fileRun
	for _, fr := range frs {
		if !take(fr, true) {
			rest = append(rest, fr)
		}
	}
	for _, fr := range rest {
		take(fr, false)
	}
	return held
}

// blankLines pairs the blank lines the new lines of a gap bring with
// the skipped blank lines that stay below the change, or in a gap that
// removes nothing (below reports which): the rung ignored blank lines
// on both sides, so they are the same lines, and writing both would
// write one twice. The last ones pair first, as the lines that stay
// are written below the new ones. It returns the file line each step
// writes, -1 for one written as the reply has it, and drops the paired
// lines from keep: a blank line with a new line that is not blank
// below it in the gap (or, in a gap that removes nothing, above it as
// well) stands among lines the reply writes, and keeps the reply's
// bytes (SPEC section 5).
func (rb *rebuild) blankLines(steps []diff.Edit[string], pair, skipped []int, keep map[int]bool, below func(int) bool, open bool) map[int]int {
	var spare []int
	for _, s := range skipped {
		if keep[s] && isBlank(rb.d.content(s)) && below(s) {
			spare = append(spare, s)
		}
	}
	if len(spare) == 0 {
		return nil
	}
	var blanks []int // steps
	first, last := len(steps), -1
	for k, e := range steps {
		switch {
		case e.Op == diff.Delete:
		case !isBlank(rb.new[e.PosY]):
			first, last = min(first, k), k
		case pair[k] < 0:
			blanks = append(blanks, k)
		}
	}
	blankFor := map[int]int{}
	for len(spare) > 0 && len(blanks) > 0 {
		s, k := spare[len(spare)-1], blanks[len(blanks)-1]
		keep[s] = false
		blankFor[k] = -1
		if k > last || open && k < first {
			blankFor[k] = s
		}
		spare, blanks = spare[:len(spare)-1], blanks[:len(blanks)-1]
	}
	return blankFor
}

// pairSkipped pairs the reply's old lines of a gap that map to no file
// line with the gap's skipped file lines: the same text first, then,
// between those, lines of the same kind in order. An old line pairs
// only with the skipped lines between the same two deleted lines of
// the gap that map to file lines, never across one (SPEC section 5).
// It returns the file line each step stands for, -1 when none.
func (rb *rebuild) pairSkipped(steps []diff.Edit[string], skipped []int) []int {
	pair := make([]int, len(steps))
	for k := range pair {
		pair[k] = -1
	}
	from, si := 0, 0
	for k := 0; k <= len(steps); k++ {
		last := k == len(steps)
		if !last && (steps[k].Op != diff.Delete || rb.mapped[steps[k].PosX] < 0) {
			continue
		}
		sj := len(skipped)
		if !last {
			sj = si
			for sj < len(skipped) && skipped[sj] < rb.mapped[steps[k].PosX] {
				sj++
			}
		}
		rb.pairPart(steps, from, k, skipped[si:sj], pair)
		from, si = k+1, sj
	}
	return pair
}

// pairPart pairs, for pairSkipped, the old lines without a file line of
// steps [from, to) with skipped, setting pair.
func (rb *rebuild) pairPart(steps []diff.Edit[string], from, to int, skipped []int, pair []int) {
	var us []int // steps of old lines without a file line
	var uk, sk []string
	for k := from; k < to; k++ {
		if e := steps[k]; e.Op != diff.Insert && rb.mapped[e.PosX] < 0 {
			us = append(us, k)
			uk = append(uk, gapKey(rb.old[e.PosX]))
		}
	}
	if len(us) == 0 || len(skipped) == 0 {
		return
	}
	for _, s := range skipped {
		sk = append(sk, gapKey(rb.d.content(s)))
	}
	var loneU, loneS []int // a stretch the same text does not pair
	pairKind := func() {
		kind := func(keys []string, at []int) []bool {
			out := make([]bool, len(at))
			for i, a := range at {
				out[i] = keys[a] == ""
			}
			return out
		}
		for _, e := range diff.Edits(kind(uk, loneU), kind(sk, loneS)) {
			if e.Op == diff.Match {
				pair[us[loneU[e.PosX]]] = skipped[loneS[e.PosY]]
			}
		}
		loneU, loneS = loneU[:0], loneS[:0]
	}
	for _, e := range diff.Edits(uk, sk) {
		switch e.Op {
		case diff.Match:
			pairKind()
			pair[us[e.PosX]] = skipped[e.PosY]
		case diff.Delete:
			loneU = append(loneU, e.PosX)
		case diff.Insert:
			loneS = append(loneS, e.PosY)
		}
	}
	pairKind()
}

// gapKey is what a skipped line is compared by: its words, typography
// folded; "" for a blank line.
func gapKey(l string) string {
	return strings.Join(strings.Fields(foldTypography(l)), " ")
}

// commentLines reports which of lines, read in order, are comments
// only, in language lang.
func commentLines(lines []string, lang string) []bool {
	out := make([]bool, len(lines))
	st := newStripper(lang)
	for i, l := range lines {
		out[i] = !isBlank(l) && isBlank(st.strip(l))
	}
	return out
}

// repeatedComments returns how many of repl's first lines repeat,
// comment for comment, the lines standing right above line start, and
// how many of its last lines repeat those right below line end (white
// space aside): a model that starts its new lines with the doc comment
// the file already holds above the lines it matched (a rung that skips
// comments never showed it that comment was outside them) would have
// it written twice. Only comment lines count; code the new lines
// repeat is theirs to write.
func repeatedComments(d *doc, lang string, repl []string, start, end int) (head, tail int) {
	if lang == "" || len(repl) == 0 {
		return 0, 0
	}
	same := func(a, b string) bool { return strings.TrimSpace(a) == strings.TrimSpace(b) }
	// Most edits repeat neither neighbour: tell that without reading
	// the new lines' comments.
	holds := func(line string) bool {
		for _, l := range repl {
			if same(trimEOL(l), line) {
				return true
			}
		}
		return false
	}
	if !(start > 0 && holds(d.content(start-1))) && !(end < d.len() && holds(d.content(end))) {
		return 0, 0
	}
	contents := make([]string, len(repl))
	for i, l := range repl {
		contents[i] = trimEOL(l)
	}
	comment := commentLines(contents, lang)
	// A line written back byte for byte at an edge of the region is the
	// file's own line, which the edit keeps (a hunk's context), not a
	// repetition of the line next to the region.
	keptFirst := start < end && repl[0] == d.line(start)
	keptLast := start < end && repl[len(repl)-1] == d.line(end-1)
	lead := 0
	for !keptFirst && lead < len(repl) && comment[lead] {
		lead++
	}
	head = longestRun(min(lead, start), func(k, i int) bool { return same(contents[i], d.content(start-k+i)) })
	trail := 0
	for !keptLast && trail < len(repl)-head && comment[len(repl)-1-trail] {
		trail++
	}
	tail = longestRun(min(trail, d.len()-end), func(k, i int) bool { return same(contents[len(repl)-k+i], d.content(end+i)) })
	return head, tail
}

// longestRun returns the largest k, at most most, for which eq(k, i)
// holds for every i below k; 0 when there is none.
func longestRun(most int, eq func(k, i int) bool) int {
	for k := most; k > 0; k-- {
		ok := true
		for i := 0; i < k && ok; i++ {
			ok = eq(k, i)
		}
		if ok {
			return k
		}
	}
	return 0
}

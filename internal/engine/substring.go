package engine

import (
	"fmt"
	"sort"
	"strings"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"znkr.io/diff"

	"github.com/git-llm-apply/git-llm-apply/internal/patch"
)

// A Replace is the string-replace edit of coding agents: the old text
// is found as a substring of the file, not by lines, and must occur
// exactly once unless the call says how often (the str_replace command
// of anthropics/anthropic-quickstarts
// computer-use-demo/computer_use_demo/tools/edit.py counts occurrences
// and refuses none or several; google-gemini/gemini-cli
// packages/core/src/tools/edit.ts checks expected_replacements and reads
// CRLF as LF; Claude Code's Edit takes replace_all and creates a file
// from an empty old_string). Matching is exact: the tools promise it,
// and --fuzz does not loosen it.
//
// Already applied (SPEC section 5: running a reply twice must not
// damage anything). The rule decides only on evidence, never on a
// guess; when it cannot tell, the edit fails and changes nothing:
//
//   - when the new text holds the old one (an insertion written as a
//     replacement), the old text still stands once the edit is done:
//     the edit is done when every occurrence of the old text stands
//     inside an occurrence of the new text, at its offset there, and the
//     new text stands as often as the edit asks. When only some do, the
//     edit fails: it cannot be told which are still to be replaced.
//   - otherwise, the edit is done when the old text stands nowhere, the
//     new text (not blank) stands as often as the edit asks, and the
//     lines most like the old text (the closest place a failure would
//     report) are lines of an occurrence of the new text: the new text
//     stands where the old was meant to be, not merely somewhere. When
//     no line is like the old text at all, nothing competes with the
//     new text's occurrences, which are then enough if they hold a
//     letter or digit and are as many as the edit asks for (not for
//     All, which names no number) (a short line rewritten whole leaves nothing of
//     itself to find). A
//     deletion (empty new text) leaves nothing to recognise: its second
//     run fails as not found.

// flatText is a doc's text with its line endings read as "\n", and
// where each line starts in it: what a Replace's text is matched
// against.
//
// It may hold only lines [base, base+len(starts)-1) of the doc (see
// flatAround); offsets are into text, line numbers the doc's.
type flatText struct {
	text   string
	starts []int // starts[i] is line base+i's offset; the last is len(text)
	base   int
}

func flatten(d *doc) flatText { return flattenLines(d, 0, d.len()) }

// linesFlattened counts the lines flattenLines has read, for the test
// that an edit reads the lines around it, not the file.
var linesFlattened atomic.Int64

// flattenLines is the flatText of lines [from, to) of d.
func flattenLines(d *doc, from, to int) flatText {
	linesFlattened.Add(int64(to - from))
	n := d.len()
	var b strings.Builder
	starts := make([]int, 0, to-from+1)
	d.each(from, func(i int, l string) bool {
		if i >= to {
			return false
		}
		starts = append(starts, b.Len())
		b.WriteString(trimEOL(l))
		if i < n-1 || d.final {
			b.WriteByte('\n')
		}
		return true
	})
	return flatText{text: b.String(), starts: append(starts, b.Len()), base: from}
}

// flatAround is the flatText of the lines of f that can hold old: old
// has whole lines (three lines or more: those between its first and
// last), so every occurrence has the rarest of them on a line where
// the exact rung's index finds it; the lines from the first such place
// to the last, with old's lines around them, hold every occurrence,
// and they alone are read (an edit costs the place it stands, not the
// file: N edits of a long file were N times the file). false when old
// has no whole line, or none of its places is in the file: the caller
// reads the file whole.
func flatAround(f *fileState, old string) (flatText, bool) {
	pieces := strings.Split(old, "\n")
	k := len(pieces)
	if k < 3 {
		return flatText{}, false
	}
	v := f.matcher().view(RungExact)
	j, best := 0, -1
	for i := 1; i < k-1; i++ {
		if c := v.count(f.d, pieces[i]); best < 0 || c < best {
			j, best = i, c
		}
	}
	at := v.where(f.d, pieces[j])
	if len(at) == 0 {
		return flatText{}, false
	}
	// An occurrence starts j lines above its line pieces[j]; replaceAt
	// may take in the line after an occurrence's last (k-1 below).
	from, to := max(at[0]-j, 0), min(at[len(at)-1]-j+k+1, f.d.len())
	return flattenLines(f.d, from, to), true
}

// line is the doc's 0-based line holding byte off.
func (ft flatText) line(off int) int {
	return ft.base + sort.Search(len(ft.starts), func(i int) bool { return ft.starts[i] > off }) - 1
}

// occurrences returns the offsets of old in text, left to right and
// not overlapping, as strings.Count and strings.Replace see them.
func occurrences(text, old string) []int {
	var out []int
	for i := 0; ; {
		j := strings.Index(text[i:], old)
		if j < 0 {
			return out
		}
		out = append(out, i+j)
		i += j + len(old)
	}
}

// breaksRead turns the CRLF of a tool call's text into "\n", as the
// file's line endings are read (gemini-cli normalises both sides so).
func breaksRead(s string) string { return strings.ReplaceAll(s, "\r\n", "\n") }

// replaceText resolves a Replace against the file as the reply has
// left it so far.
func (r *resolver) replaceText(o *Outcome, f *fileState) {
	op := &o.Op
	old, new := breaksRead(op.OldText), breaksRead(op.NewText)
	if old == "" {
		r.createByReplace(o, f, new)
		return
	}
	if !r.editable(o, f) {
		return
	}
	if op.Count < 0 {
		r.fail(o, ErrNotFound, "the edit asks for %d occurrences of its old text", op.Count)
		return
	}
	if bom := f.d.bom; bom != "" && len(old) > len(bom) {
		// The doc holds the file's mark apart from its text; a model
		// that copies the first line copies the mark too.
		old, new = strings.TrimPrefix(old, bom), strings.TrimPrefix(new, bom)
	}
	// An occurrence of new around one of old may reach beyond the
	// lines around old's: that case reads the whole file.
	ft, around := flatText{}, false
	if !strings.Contains(new, old) {
		ft, around = flatAround(f, old)
	}
	if !around {
		ft = flatten(f.d)
	}
	at := occurrences(ft.text, old)
	if len(at) == 0 && around {
		ft = flatten(f.d) // the failure's closest places are looked for in the whole file
	}
	if len(at) > 0 && strings.Contains(new, old) {
		if inside := insideNew(ft.text, at, old, new); inside > 0 {
			r.doneInside(o, f, ft, at, inside, new)
			return
		}
	}
	want := max(op.Count, 1)
	switch {
	case len(at) == 0:
		r.notFoundText(o, f, ft, old, new)
		return
	case op.Count == 0 && op.All:
	case len(at) != want:
		lines := occurrenceLines(ft, at)
		kind, asked := ErrAmbiguous, "once"
		if op.Count > 0 {
			asked = fmt.Sprintf("%d times", op.Count)
			if len(at) < op.Count {
				kind = ErrNotFound
			}
		}
		r.fail(o, kind, "the old text %s stands %d times in %s (at lines %s), and the edit asks for it %s; give more of the text around it, or say how many to replace",
			firstLineOf(old), len(at), f.path, intList(lines), asked)
		o.Err.Places = lines
		return
	}
	first, last := r.replaceAt(f, ft, at, old, new)
	o.Status, o.Rung, o.Start, o.End = Applied, RungExact, first+1, last
}

// insideNew counts the occurrences of old (at) that stand inside an
// occurrence of new, at one of old's offsets in new.
func insideNew(text string, at []int, old, new string) int {
	var offs []int
	for i := 0; i+len(old) <= len(new); i++ {
		if strings.HasPrefix(new[i:], old) {
			offs = append(offs, i)
		}
	}
	n := 0
	for _, s := range at {
		for _, k := range offs {
			if s >= k && strings.HasPrefix(text[s-k:], new) {
				n++
				break
			}
		}
	}
	return n
}

// doneInside decides a Replace whose old text stands inside its new
// text at some of its occurrences (see the already-applied rule).
func (r *resolver) doneInside(o *Outcome, f *fileState, ft flatText, at []int, inside int, new string) {
	op := &o.Op
	held := occurrences(ft.text, new)
	if inside == len(at) && (op.Count == 0 && op.All || len(held) == max(op.Count, 1)) {
		o.Status, o.Rung = AlreadyApplied, RungExact
		o.Start, o.End = ft.line(held[0])+1, ft.line(held[0]+len(new)-1)+1
		return
	}
	lines := occurrenceLines(ft, at)
	r.fail(o, ErrAmbiguous, "the old text %s stands %d times in %s (at lines %s), %d of them inside the new text as if the edit were partly done; it cannot be told which are still to be replaced",
		firstLineOf(op.OldText), len(at), f.path, intList(lines), inside)
	o.Err.Places = lines
}

// notFoundText decides a Replace whose old text stands nowhere: done
// when its new text stands where the old was meant to be, else failed
// with the closest lines.
func (r *resolver) notFoundText(o *Outcome, f *fileState, ft flatText, old, new string) {
	op := &o.Op
	pattern := strings.Split(strings.TrimSuffix(old, "\n"), "\n")
	m := f.matcher()
	var c *Closest
	if !r.opts.forAdvice || strings.TrimSpace(new) != "" {
		c = m.closest(pattern, RungExact)
	}
	if strings.TrimSpace(new) != "" && (c != nil || !op.All && distinctive(strings.Split(new, "\n"))) {
		held := occurrences(ft.text, new)
		if len(held) > 0 && (op.Count == 0 && op.All || len(held) == max(op.Count, 1)) {
			for _, s := range held {
				from, to := ft.line(s)+1, ft.line(s+len(new)-1)+1
				if c == nil || c.Start <= to && from <= c.End {
					o.Status, o.Rung, o.Start, o.End = AlreadyApplied, RungExact, from, to
					return
				}
			}
		}
	}
	why := ""
	if c == nil && !r.opts.forAdvice {
		why = "; no similar lines were found"
		if m.work.spent {
			why = "; so many edits failed in this file that their closest lines were not all looked for"
		}
	}
	r.fail(o, ErrNotFound, "the old text %s does not stand in %s (it must match exactly, white space and all)%s", firstLineOf(old), f.path, why)
	if !r.opts.forAdvice {
		o.Err.Closest = c
	}
}

// occurrenceLines are the 1-based lines where each occurrence starts.
func occurrenceLines(ft flatText, at []int) []int {
	lines := make([]int, len(at))
	for i, s := range at {
		lines[i] = ft.line(s) + 1
	}
	return lines
}

// firstLineOf quotes the first line of an edit's text for a report,
// saying when more follows.
func firstLineOf(s string) string {
	first, rest, _ := strings.Cut(s, "\n")
	more := rest != ""
	if len(first) > 60 {
		cut := 60
		for cut > 0 && !utf8.RuneStart(first[cut]) {
			cut--
		}
		first, more = first[:cut], true
	}
	if more {
		return fmt.Sprintf("%q...", first)
	}
	return fmt.Sprintf("%q", first)
}

// textRegion is a run of doc lines [a, b) that some occurrences touch,
// and the text (line endings read as "\n") that replaces it.
type textRegion struct {
	a, b int
	text string
}

// replaceAt replaces the occurrences at (of old, in ft) with new and
// returns the 0-based first line and the end of the lines they touched.
// Occurrences on shared lines are replaced together; a region whose new
// text would run into the next line takes that line in, so that every
// spliced line is whole.
func (r *resolver) replaceAt(f *fileState, ft flatText, at []int, old, new string) (first, last int) {
	n := f.d.len()
	var regions []textRegion
	for i := 0; i < len(at); {
		a, b := ft.line(at[i]), ft.line(at[i]+len(old)-1)+1
		j := i + 1
		var text string
		for {
			for j < len(at) && ft.line(at[j]) < b {
				b = max(b, ft.line(at[j]+len(old)-1)+1)
				j++
			}
			text = rebuildText(ft, a, b, at[i:j], len(old), new)
			if text == "" || strings.HasSuffix(text, "\n") || b == n {
				break
			}
			b++
		}
		regions = append(regions, textRegion{a, b, text})
		i = j
	}
	first, last = regions[0].a, regions[len(regions)-1].b
	for k := len(regions) - 1; k >= 0; k-- {
		g := regions[k]
		repl := spliceLines(f.d, g.a, g.b, g.text)
		if g.b == n {
			// The end of the file is where the replacement leaves it:
			// with a newline when its text ends with one (or removes the
			// last lines whole), without one when it does not.
			f.d.final = g.text == "" || strings.HasSuffix(g.text, "\n")
		}
		a, b := g.a, g.b
		for a < b && len(repl) > 0 && repl[0] == f.d.line(a) {
			a, repl = a+1, repl[1:]
		}
		for b > a && len(repl) > 0 && repl[len(repl)-1] == f.d.line(b-1) {
			b, repl = b-1, repl[:len(repl)-1]
		}
		if a < b || len(repl) > 0 {
			f.splice(a, b, repl)
		}
	}
	return first, last
}

// rebuildText is the text of lines [a, b) of ft with the occurrences
// at (each size bytes long) replaced by new.
func rebuildText(ft flatText, a, b int, at []int, size int, new string) string {
	var s strings.Builder
	pos := ft.starts[a-ft.base]
	for _, o := range at {
		s.WriteString(ft.text[pos:o])
		s.WriteString(new)
		pos = o + size
	}
	s.WriteString(ft.text[pos:ft.starts[b-ft.base]])
	return s.String()
}

// spliceLines cuts text into the doc lines that replace lines [a, b):
// a line that stands unchanged keeps the file's bytes, terminator and
// all; a line the replacement makes gets the terminator the replaced
// lines share (the file's line ending when they differ), and the last
// line none when text does not end with a newline.
func spliceLines(d *doc, a, b int, text string) []string {
	orig := d.slice(a, b)
	origC := make([]string, len(orig))
	eol := ""
	for i, l := range orig {
		origC[i] = trimEOL(l)
		term := l[len(origC[i]):]
		switch {
		case term == "":
		case eol == "":
			eol = term
		case eol != term:
			eol = d.eol
		}
	}
	if eol == "" {
		eol = d.eol
	}
	parts := strings.SplitAfter(text, "\n")
	if len(parts) > 0 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	newC := make([]string, len(parts))
	for i, p := range parts {
		newC[i] = strings.TrimSuffix(p, "\n")
	}
	same := map[int]int{}
	for _, e := range diff.Edits(origC, newC) {
		if e.Op == diff.Match {
			same[e.PosY] = e.PosX
		}
	}
	out := make([]string, len(parts))
	for i, p := range parts {
		ends := strings.HasSuffix(p, "\n")
		if j, ok := same[i]; ok && (orig[j] != origC[j]) == ends {
			out[i] = orig[j]
			continue
		}
		out[i] = newC[i]
		if ends {
			out[i] += eol
		}
	}
	return out
}

// createByReplace resolves a Replace with empty old text: Claude
// Code's Edit creates the file with the new text. The file may exist
// empty; with other content, the edit fails, unless it already holds
// the new text. Like every new file, it ends with a newline (SPEC
// section 5).
func (r *resolver) createByReplace(o *Outcome, f *fileState, new string) {
	if new != "" && !strings.HasSuffix(new, "\n") {
		new += "\n"
	}
	if !f.exists {
		d := newDocWhole(new, strings.Count(new, "\n"))
		d.stop = r.ctx
		f.setDoc(d)
		f.exists, f.mode, f.binary = true, patch.ModeRegular, false
		o.Status, o.Start, o.End = Applied, 1, d.len()
		return
	}
	if !r.editable(o, f) {
		return
	}
	have := flatten(f.d).text
	switch {
	case have == new || have+"\n" == new:
		o.Status, o.Start, o.End = AlreadyApplied, 1, f.d.len()
	case have != "":
		r.fail(o, ErrFileExists, "%s already exists and is not empty; an edit with empty old text only creates a file, so give the text to replace", f.path)
	default:
		lines := strings.SplitAfter(new, "\n")
		lines = lines[:len(lines)-1]
		for i, l := range lines {
			lines[i] = strings.TrimSuffix(l, "\n") + f.d.eol
		}
		f.d.final = true
		f.splice(0, f.d.len(), lines)
		o.Status, o.Start, o.End = Applied, 1, len(lines)
	}
}

// distinctive reports whether lines say enough to be recognised where
// they stand: one of them holds a letter or a digit. A lone "}" or a
// blank line stands in too many places to prove anything.
func distinctive(lines []string) bool {
	for _, l := range lines {
		if strings.IndexFunc(l, func(c rune) bool { return unicode.IsLetter(c) || unicode.IsDigit(c) }) >= 0 {
			return true
		}
	}
	return false
}

package engine

import (
	"fmt"
	"strings"

	"znkr.io/diff"

	"github.com/git-llm-apply/git-llm-apply/translate"
)

// replacement builds the lines that take the place of doc lines
// [start, end) of f. Lines the edit keeps (standing unchanged in both
// Old and New) are the file's own bytes, even when they matched at a
// tolerant rung; only lines the reply adds come from the reply,
// re-indented and given the file's line ending.
//
// File lines a tolerant rung skipped (blank, or a comment the reply did
// not show) stay when they stand between kept lines, or above or below
// a change, unless the new lines bring a comment to that place; between
// two removed lines they go, as the seed formats replace the whole
// matched range (see rebuild.gap). warns says which comments went, for
// the report.
func replacement(f *fileState, p place, op *translate.Operation, start, end, base int) (out, warns []string, err error) {
	d := f.d
	add := func(l string) string { return p.shift.apply(l) + d.eol }
	switch op.Indent {
	case translate.IndentAsIs:
		add = func(l string) string { return l + d.eol }
	case translate.IndentAnchor:
		ind := ""
		if base < d.len() {
			ind = leading(d.content(base))
		}
		add = func(l string) string {
			if isBlank(l) {
				return l + d.eol
			}
			return ind + l + d.eol
		}
	}
	if op.Block != translate.NoBlock || p.rung == RungLoose {
		out := make([]string, len(op.New))
		for i, l := range op.New {
			out[i] = add(l)
		}
		return out, nil, checkElision(op, op.Old, d, start, end)
	}
	nb := len(op.Before)
	rb := &rebuild{d: d, old: op.Old, new: op.New, mapped: p.lines[nb : nb+len(op.Old)],
		matched: map[int]bool{}, lang: f.lang, add: add}
	for _, l := range p.lines {
		if l >= 0 {
			rb.matched[l] = true
		}
	}
	script := alignBlanks(diff.Edits(trimAll(op.Old), trimAll(op.New)), op.Old, op.New)
	var deleted bool
	var placeholder string
	cursor := start
	var gap []diff.Edit[string]
	for _, e := range script {
		switch {
		case e.Op == diff.Delete && !isBlank(op.Old[e.PosX]):
			deleted = true
		case e.Op == diff.Insert && placeholder == "" && translate.IsPlaceholder(op.New[e.PosY]):
			placeholder = op.New[e.PosY]
		}
		if e.Op != diff.Match || rb.mapped[e.PosX] < 0 {
			gap = append(gap, e)
			continue
		}
		l := rb.mapped[e.PosX]
		rb.gap(gap, cursor, l)
		rb.out = append(rb.out, d.line(l))
		cursor, gap = l+1, gap[:0]
	}
	rb.gap(gap, cursor, end)
	if deleted && placeholder != "" {
		return nil, nil, elisionError(placeholder)
	}
	warns = append(warns, skippedNote(rb.dropped, f.path, "stood among the replaced lines and went with them")...)
	warns = append(warns, skippedNote(rb.replaced, f.path, "gave way to the comment the new lines bring to the same place")...)
	return rb.out, warns, nil
}

// skippedNote is the warning naming file lines (0-based) a tolerant
// rung skipped and the edit did not keep; none when there are none.
func skippedNote(lines []int, path, what string) []string {
	if len(lines) == 0 {
		return nil
	}
	word := "line"
	if len(lines) > 1 {
		word = "lines"
	}
	ns := make([]int, len(lines))
	for i, l := range lines {
		ns[i] = l + 1
	}
	return []string{fmt.Sprintf("%s %s of %s, which the reply did not show, %s", word, intList(ns), path, what)}
}

func trimAll(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = trimTrailing(l)
	}
	return out
}

// checkElision refuses a whole-block replacement whose new lines hold
// a placeholder where the old ones held code.
func checkElision(op *translate.Operation, old []string, d *doc, start, end int) error {
	if end <= start {
		return nil
	}
	for _, l := range op.New {
		if translate.IsPlaceholder(l) && !contains(old, l) {
			return elisionError(l)
		}
	}
	return nil
}

func contains(lines []string, l string) bool {
	t := strings.TrimSpace(l)
	for _, x := range lines {
		if strings.TrimSpace(x) == t {
			return true
		}
	}
	return false
}

func elisionError(l string) error {
	return fmt.Errorf("the new lines hold the placeholder %q where the old lines held code; write the code out in full, or leave those lines out of the edit", strings.TrimSpace(l))
}

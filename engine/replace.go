package engine

import (
	"fmt"
	"strings"

	"znkr.io/diff"

	"github.com/git-llm-apply/git-llm-apply/translate"
)

// replacement builds the lines that take the place of doc lines
// [start, end). Lines the edit keeps (standing unchanged in both Old and
// New) are the file's own bytes, even when they matched at a tolerant
// rung; only lines the reply adds come from the reply, re-indented and
// given the file's line ending.
//
// File lines a tolerant rung skipped (blank, or a comment the reply did
// not show) stay when they stand between kept lines; comments before a
// change stay too.
// Between two removed lines they go, as the seed formats replace the
// whole matched range; dropped lists the non-blank ones, for the report.
func replacement(d *doc, p place, op *translate.Operation, start, end, base int) (out []string, dropped []int, err error) {
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
	mapped := p.lines[nb : nb+len(op.Old)]
	script := alignBlanks(diff.Edits(trimAll(op.Old), trimAll(op.New)), op.Old, op.New)

	// A tolerant rung maps some reply lines (blank, or comment-only)
	// to no file line, and skips such file lines too. A reply line of
	// that kind stands for the next skipped file line in the gap: kept
	// when the line is kept, dropped when it is deleted.
	matched := map[int]bool{}
	for _, f := range p.lines {
		if f >= 0 {
			matched[f] = true
		}
	}
	skipped := func(cursor int) bool { return cursor < end && !matched[cursor] }
	var deleted bool
	var placeholder string
	cursor := start
	inRun := false // the previous script step deleted a mapped line
	for _, e := range script {
		wasRun := inRun
		inRun = e.Op == diff.Delete && mapped[e.PosX] >= 0
		switch e.Op {
		case diff.Match:
			f := mapped[e.PosX]
			if f < 0 {
				if skipped(cursor) {
					out = append(out, d.line(cursor))
					cursor++
				} else {
					out = append(out, add(op.New[e.PosY]))
				}
				continue
			}
			out = append(out, d.slice(cursor, f)...) // lines a tolerant rung skipped
			out = append(out, d.line(f))
			cursor = f + 1
		case diff.Delete:
			if f := mapped[e.PosX]; f >= 0 {
				if wasRun {
					for i := cursor; i < f; i++ {
						if !isBlank(d.content(i)) {
							dropped = append(dropped, i)
						}
					}
				} else {
					// Before the change: comments stay; blank lines
					// after the last of them go, the new lines
					// bringing their own.
					keep := cursor
					for i := cursor; i < f; i++ {
						if !isBlank(d.content(i)) {
							keep = i + 1
						}
					}
					out = append(out, d.slice(cursor, keep)...)
				}
				cursor = f + 1
			} else if skipped(cursor) {
				cursor++
			}
			if !isBlank(op.Old[e.PosX]) {
				deleted = true
			}
		case diff.Insert:
			l := op.New[e.PosY]
			if placeholder == "" && translate.IsPlaceholder(l) {
				placeholder = l
			}
			out = append(out, add(l))
		}
	}
	if cursor < end {
		out = append(out, d.slice(cursor, end)...)
	}
	if deleted && placeholder != "" {
		return nil, nil, elisionError(placeholder)
	}
	return out, dropped, nil
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

package engine

import (
	"slices"
	"sort"

	"github.com/git-llm-apply/git-llm-apply/internal/patch"
)

// A diff of a whole file costs time in its length for every change it
// finds, so a patch of many edits to a long file would spend most of its
// time on lines nobody touched. The engine knows which lines each edit
// replaced: this file turns a doc's splice log into the regions that
// changed (package patch diffs only around them).

// changedSpans returns the regions a splice log changed, sorted, with
// at least one unchanged line between two of them. A splice merges
// with the spans it overlaps or touches, so each span holds at least
// one splice; it costs a search and a shift of the later spans.
//
// The resolver applies a group's edits bottom first, so a log of many
// edits is often one splice above the other: each then stood before
// every span so far and shifted them all, which made 10,000 edits cost
// 50 million shifts. Such a log is read top first instead (ascending),
// which changes the same lines, each splice landing after the spans so
// far and shifting none.
func changedSpans(log []spliceRec) []patch.Span {
	if descending(log) {
		log = ascending(log)
	}
	return spansOf(log)
}

// descending reports whether each splice of log ends at or above the
// line the one before it starts at: none reaches into a line an
// earlier one moved, so they can be made in the other order.
func descending(log []spliceRec) bool {
	for k := 1; k < len(log); k++ {
		if log[k].at+log[k].removed > log[k-1].at {
			return false
		}
	}
	return len(log) > 1
}

// ascending is a descending log in the other order, top first, each
// splice moved down by what the ones above it, now made before it,
// added or removed.
func ascending(log []spliceRec) []spliceRec {
	out := make([]spliceRec, len(log))
	shift := 0
	for k := range log {
		r := log[len(log)-1-k]
		r.at += shift
		shift += r.added - r.removed
		out[k] = r
	}
	return out
}

// spansOf is changedSpans of log in the order it is.
func spansOf(log []spliceRec) []patch.Span {
	// cur spans are in the coordinates of the doc as it stands: lines
	// [start, end) now, which replaced orig lines of the original.
	type cur struct{ start, end, orig int }
	var spans []cur
	for _, r := range log {
		if r.removed == 0 && r.added == 0 {
			continue
		}
		lo, hi := r.at, r.at+r.removed
		i := sort.Search(len(spans), func(k int) bool { return spans[k].end >= lo })
		j := i
		m := cur{start: lo, end: hi}
		covered, orig := 0, 0
		for ; j < len(spans) && spans[j].start <= hi; j++ {
			m.start, m.end = min(m.start, spans[j].start), max(m.end, spans[j].end)
			covered += spans[j].end - spans[j].start
			orig += spans[j].orig
		}
		// Lines of the merged range that no span held are original lines.
		m.orig = orig + (m.end - m.start - covered)
		shift := r.added - r.removed
		m.end += shift
		if m.orig == 0 && m.start == m.end {
			// Lines added and taken out again: nothing changed here.
			spans = slices.Delete(spans, i, j)
		} else {
			spans = slices.Replace(spans, i, j, m)
			i++
		}
		for k := i; k < len(spans); k++ {
			spans[k].start += shift
			spans[k].end += shift
		}
	}
	out := make([]patch.Span, len(spans))
	delta := 0 // new minus old line numbers before the span
	for k, s := range spans {
		out[k] = patch.Span{OldStart: s.start - delta, OldEnd: s.start - delta + s.orig, NewStart: s.start, NewEnd: s.end}
		delta += s.end - s.start - s.orig
	}
	return out
}

package engine

import (
	"fmt"
	"strings"

	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// lazyEdit merges a Lazy operation into its file (SPEC section 5). A
// new file is created from an edit without markers and refused with
// one; an edit without markers replaces an existing file only where it
// is plausibly the whole of it.
func (r *resolver) lazyEdit(o *Outcome, f *fileState) {
	op := &o.Op
	marker := placeholderRule(f.path, nil, op.New)
	segs, markers := splitLazy(op.New, marker)
	if !f.exists {
		if markers > 0 {
			i := firstMarker(op.New, marker)
			r.fail(o, ErrElided, "%s does not exist, and line %d of the edit (reply line %d) is the marker %q, which stands for lines of a file that has none; write the new file whole",
				f.path, i+1, op.Line+1+i, strings.TrimSpace(op.New[i]))
			return
		}
		op.Kind, op.Overwrite = translate.Create, false
		r.create(o, f)
		return
	}
	if !r.editable(o, f) {
		return
	}
	dropBOMs(op, f.d)
	n := f.d.len()
	file := lineContents(f.d, 0, n)
	if markers == 0 {
		if kept, total, ok := plausiblyWhole(file, op.New); !ok {
			r.fail(o, ErrNoAnchor, "the edit holds no marker (such as \"// ... existing code ...\") and keeps %d of the %d %s of substance of %s, so it is no whole file: mark every span of the file it leaves out with a marker line",
				kept, total, plural(total, "line", "lines"), f.path)
			return
		}
		op.Kind, op.Overwrite = translate.Create, true
		r.create(o, f)
		return
	}
	r.mergeLazy(o, f, file, segs, r.topFor(op), false)
}

// mergeLazy merges the segments into f, whose lines are file, climbing
// the rungs up to top, and reports whether it did; when it did not, o
// has failed naming the segment and the closest places.
//
// strict asks more: every span starts and ends with a line of the
// file, so that no part of it ends on a new line that may have been
// meant to replace the line below; or with new lines a blank line
// parts from the lines shown (a new function after the one shown),
// which replace nothing.
func (r *resolver) mergeLazy(o *Outcome, f *fileState, file []string, segs []lazySegment, top Rung, strict bool) bool {
	m := newLazyMerge(file, segs, top, f.d.indentUnit() == "\t")
	m.unit = f.d.indentUnit()
	spans, warns, rung, refused := m.run()
	if refused == nil && strict {
		for k, sp := range spans {
			if len(sp.lines) == 0 || sp.lines[0].file < 0 && !sp.cutAbove || sp.lines[len(sp.lines)-1].file < 0 && !sp.cutBelow {
				refused = &lazyRefusal{seg: k + 1, kind: ErrNoAnchor, msg: "it starts or ends with a line the file does not have, so nothing says whether that line is added beside the file's or replaces it; show the file's line above and below the new lines"}
			}
		}
	}
	if refused != nil {
		r.fail(o, refused.kind, "segment %d of the lazy edit (reply line %d): %s", refused.seg, o.Op.Line+1+segs[refused.seg-1].first, refused.msg)
		o.Err.Places = refused.places
		if len(refused.places) == 0 && !r.opts.forAdvice {
			o.Err.Closest = f.matcher().closest(refused.lines, top)
		}
		return false
	}
	o.Warnings = append(o.Warnings, warns...)
	if unchanged(spans) {
		o.Status, o.Rung = AlreadyApplied, rung
		o.Start, o.End = spans[0].start+1, spans[len(spans)-1].end
		return true
	}
	// The spans are spliced bottom-up, so that the line numbers of
	// those above stay true; kept lines keep the file's bytes.
	repls := make([][]string, len(spans))
	for k, sp := range spans {
		repl := make([]string, len(sp.lines))
		for i, l := range sp.lines {
			if l.file >= 0 {
				repl[i] = f.d.line(l.file)
			} else {
				repl[i] = l.text + f.d.eol
			}
		}
		repls[k] = repl
	}
	for k := len(spans) - 1; k >= 0; k-- {
		f.splice(spans[k].start, spans[k].end, repls[k])
	}
	o.Status, o.Rung = Applied, rung
	o.Start, o.End = spans[0].start+1, spans[len(spans)-1].end
	return true
}

// unchanged reports whether the spans keep every line they cover and
// add none: the edit is already applied.
func unchanged(spans []lazySpan) bool {
	for _, sp := range spans {
		if len(sp.lines) != sp.end-sp.start {
			return false
		}
		for i, l := range sp.lines {
			if l.file != sp.start+i {
				return false
			}
		}
	}
	return true
}

func firstMarker(lines []string, marker func(int) bool) int {
	for i := range lines {
		if marker(i) {
			return i
		}
	}
	return -1
}

// lazyWhole tries a whole file holding elision markers as a lazy edit
// (SPEC section 5, auto): it applies only when every segment places
// uniquely; otherwise nothing is changed, o is left as it was, and
// the caller refuses the file as an elision.
func (r *resolver) lazyWhole(o *Outcome, f *fileState) bool {
	op := o.Op
	segs, markers := splitLazy(op.New, placeholderRule(f.path, nil, op.New))
	if markers == 0 {
		return false
	}
	n := f.d.len()
	file := lineContents(f.d, 0, n)
	try := *o
	try.Warnings = append([]string(nil), o.Warnings...)
	if !r.mergeLazy(&try, f, file, segs, r.topFor(&op), true) {
		return false
	}
	*o = try
	o.Warnings = append(o.Warnings, fmt.Sprintf("the block at reply line %d holds markers of elided code, and is merged into %s as a lazy edit: every part of it stands in one place of the file", op.Line, f.path))
	return true
}

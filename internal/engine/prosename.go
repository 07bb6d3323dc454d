package engine

import (
	"fmt"
	"strings"

	"znkr.io/diff"

	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// A whole file named only in prose ("Here's the updated `app.py`:"
// above a bare fence) is as often a snippet as the whole file, and a
// snippet taken for the file would delete the rest of it. So the name
// counts only when it is the one existing file the prose line names
// and the fence is plausibly all of it, or the file is short and the
// line calls the fence its new version; otherwise the block is skipped
// and the report says why. No file is created from prose.

// shortFile is the most lines of substance a file may have for any
// rewrite of it to be plausibly whole: the rewrite of a short file may
// keep few of its lines.
const shortFile = 10

// proseName picks the file that o, a whole file whose reply named it
// only in prose, replaces: the one existing file its names resolve to,
// when its content is plausibly all of that file. Otherwise it marks o
// skipped, with a warning saying why, and returns false.
func (r *resolver) proseName(o *Outcome) (string, bool, error) {
	op := &o.Op
	var found []*fileState
	for _, n := range op.ProseNames {
		f, err := r.namedFile(n)
		if err != nil {
			return "", false, err
		}
		if f == nil || !f.exists || !f.mode.Editable() || f.binary || f.refused != "" {
			continue
		}
		dup := false
		for _, g := range found {
			dup = dup || g == f
		}
		if !dup {
			found = append(found, f)
		}
	}
	named := quoteNames(op.ProseNames)
	op.Path = op.ProseNames[0] // for the report, until one is chosen
	switch {
	case len(found) == 0:
		r.skip(o, "the fence at reply line %d stands under prose naming %s, which is no file of the repository: it is taken for a snippet, as no file is created from prose; to create one, write its name alone on the line above the fence", op.Line, named)
		return "", false, nil
	case len(found) > 1:
		var ps []string
		for _, f := range found {
			ps = append(ps, f.path)
		}
		r.skip(o, "the fence at reply line %d stands under prose naming several files (%s): it is taken for a snippet; to replace one of them, write its name alone on the line above the fence", op.Line, strings.Join(ps, ", "))
		return "", false, nil
	}
	f := found[0]
	o.Path = f.path
	kept, total, ok := plausiblyWhole(lineContents(f.d, 0, f.d.len()), op.New)
	if !ok && total <= shortFile {
		said, err := r.saysWhole(op, f)
		if err != nil {
			return "", false, err
		}
		if said {
			o.Warnings = append(o.Warnings, fmt.Sprintf("the fence at reply line %d is taken for the whole of %s, which the prose above it calls the file's new version (%s has %d %s of substance; the fence keeps %d)", op.Line, f.path, f.path, total, plural(total, "line", "lines"), kept))
			return f.path, true, nil
		}
	}
	if !ok {
		r.skip(o, "the fence at reply line %d stands under prose naming %s, but it keeps %d of the %d %s of substance of that file: it is taken for a snippet, not the whole file; to replace the file, write its name alone on the line above the fence", op.Line, f.path, kept, total, plural(total, "line", "lines"))
		return "", false, nil
	}
	o.Warnings = append(o.Warnings, fmt.Sprintf("the fence at reply line %d is taken for the whole of %s, which the prose above it names", op.Line, f.path))
	return f.path, true, nil
}

// saysWhole reports whether the prose above o's fence calls it the new
// version of f ("Here's the modified `a.py` file", see
// translate.Operation.ProseWhole): a short file (shortFile lines of
// substance at most) is then taken whole even when the fence keeps
// none of its lines, as aider's whole-file coder rewrites a one-line
// placeholder (SPEC section 4). A longer file keeps the plausibility
// rule: a snippet of it under such a line would delete the rest.
func (r *resolver) saysWhole(op *translate.Operation, f *fileState) (bool, error) {
	if op.ProseWhole == "" {
		return false, nil
	}
	g, err := r.namedFile(op.ProseWhole)
	return g == f, err
}

// namedFile returns the file a name of the prose stands for: as
// written, as for any whole file (a short name is not taken for the
// one path ending in it: the prose would then replace a file it never
// named); nil when the name is unsafe.
func (r *resolver) namedFile(name string) (*fileState, error) {
	p, _, err := r.resolvePath(name, false)
	if err != nil {
		if refusal(err) == nil {
			return nil, err
		}
		return nil, nil
	}
	return r.file(p)
}

// plausiblyWhole reports whether content is plausibly a whole new
// version of a file holding old: it keeps at least half of the file's
// lines of substance, in order, and has three quarters as many (a
// fence of the file's first half, changed, is no rewrite of it), or
// the file is short and the content
// keeps one of them and is no shorter (a snippet of a short file, the
// lines a change touches, is shorter, and written whole it would drop
// the rest). It returns how many of
// how many lines of substance it keeps.
func plausiblyWhole(old, content []string) (kept, total int, ok bool) {
	a, b := substance(old), substance(content)
	for _, e := range diff.Edits(a, b) {
		if e.Op == diff.Match {
			kept++
		}
	}
	total = len(a)
	short := total <= shortFile && (total == 0 || kept > 0) && len(b) >= total
	return kept, total, 2*kept >= total && 4*len(b) >= 3*total || short
}

// substance returns the lines of substance of a text, trimmed: not
// blank, nor punctuation or one short word alone.
func substance(lines []string) []string {
	var out []string
	for _, l := range lines {
		if substantial(l) {
			out = append(out, strings.TrimSpace(l))
		}
	}
	return out
}

func quoteNames(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = "`" + n + "`"
	}
	return strings.Join(q, ", ")
}

// skip marks o skipped: the block is no edit, and why is its warning.
func (r *resolver) skip(o *Outcome, format string, args ...any) {
	o.Status = Skipped
	o.Warnings = append(o.Warnings, fmt.Sprintf(format, args...))
}

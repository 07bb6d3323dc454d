package engine

import (
	"sort"
	"strings"

	"github.com/git-llm-apply/git-llm-apply/internal/patch"
	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// group resolves operations that belong together (or one alone).
// Edits of one group are placed against the file as it stood before
// the group and then applied together, so they must not overlap. Each
// operation goes through three steps: whether it stands at all
// (dropped), which file it names (target), and what it does to that
// file (act). The outcomes go into outs, one for each of ops: the
// caller's own, so that the outcomes of a reply are made once, not
// once a group and again where they are gathered (an Outcome holds
// its operation: 500 of them are a quarter of a megabyte).
func (r *resolver) group(ops []translate.Operation, firstN int, outs []Outcome) error {
	pending := pendingEdits{cursor: -1}
	for i, op := range ops {
		if err := r.ctx.Err(); err != nil {
			return err
		}
		o := &outs[i]
		o.N, o.Op = firstN+i, op
		if r.dropped(o) {
			continue
		}
		f, err := r.target(o, &op)
		if err != nil {
			return err
		}
		if f == nil {
			continue
		}
		if err := r.act(o, &op, f, &pending); err != nil {
			return err
		}
	}
	r.applyPending(&pending)
	return nil
}

// pendingEdits are the located edits of a group not applied yet, all
// to the file target.
type pendingEdits struct {
	plans  []*plan
	target *fileState
	cursor int // where the previous member of an ordered group ended
}

// applyPending applies the pending edits, if any, and forgets them.
func (r *resolver) applyPending(g *pendingEdits) {
	if g.target != nil {
		r.applyPlans(g.target, g.plans)
	}
	g.plans, g.target = nil, nil
}

// dropped fails o when it cannot stand: a member of a tool call that
// failed, or an operation the reader could not read.
func (r *resolver) dropped(o *Outcome) bool {
	if d, ok := r.drop[o.N]; ok {
		o.Path = d.path
		if d.cause == o.N {
			r.fail(o, ErrCallFailed, "it failed while the tool calls before it stood, and they are dropped: the agent never saw it apply, and the tool applies all of a call's edits or none, so nothing of the call is kept")
		} else {
			r.fail(o, ErrCallFailed, "edit %d of the same tool call failed, and the tool applies all of a call's edits or none: nothing of the call is kept", d.cause)
		}
		return true
	}
	if o.Op.Kind == translate.Invalid {
		o.Path = o.Op.Path
		r.fail(o, ErrUnreadable, "%s", o.Op.Comment)
		return true
	}
	return false
}

// target finds the file op (o's operation) names and sets o.Path. It
// returns nil when o is settled on the way: skipped or failed, or a
// directory deleted; the error is one that aborts the run.
func (r *resolver) target(o *Outcome, op *translate.Operation) (*fileState, error) {
	if ok, err := r.repoName(o, op); !ok || err != nil {
		return nil, err
	}
	if op.Kind == translate.Delete && op.Recursive {
		if done, err := r.deleteDir(o); err != nil || done {
			return nil, err
		}
	}
	// Only an edit of a file's lines may find its file by suffix:
	// a create, delete or move by a short name would touch a file
	// the reply never named.
	lines := op.Kind == translate.Edit || op.Kind == translate.Insert || op.Kind == translate.Lazy ||
		op.Kind == translate.Replace && op.OldText != ""
	p, note, err := r.resolvePath(op.Path, lines)
	if err != nil {
		if !r.failWith(o, err) {
			return nil, err
		}
		return nil, nil
	}
	o.Path = p
	if note != "" {
		o.Warnings = append(o.Warnings, note)
	}
	f, err := r.file(p)
	if err != nil {
		return nil, err
	}
	if f.refused != "" {
		r.fail(o, ErrTooLarge, "%s", f.refused)
		return nil, nil
	}
	return f, nil
}

// repoName turns the name op gives into a name in the repository, in
// op and o.Op: the file a whole file named only in prose replaces, and
// an absolute path mapped below the repository's top. It returns false
// when o is settled (skipped or failed).
func (r *resolver) repoName(o *Outcome, op *translate.Operation) (bool, error) {
	if len(op.ProseNames) > 0 {
		p, ok, err := r.proseName(o)
		if err != nil || !ok {
			return false, err
		}
		op.Path, o.Op.Path = p, p
	}
	if isAbsolute(op.Path) {
		rel, note, err := r.mapAbsolute(op.Path, op.Root, findsText(op))
		if err != nil {
			if !r.failWith(o, err) {
				return false, err
			}
			return false, nil
		}
		if note != "" {
			o.Warnings = append(o.Warnings, note)
		}
		op.Path, o.Op.Path = rel, rel
	}
	return true, nil
}

// act does what op (o's operation) does to f. A line edit is located
// and joins the pending edits of its group; any other operation
// applies at once, after the pending edits of its file.
func (r *resolver) act(o *Outcome, op *translate.Operation, f *fileState, g *pendingEdits) error {
	switch op.Kind {
	case translate.Edit:
		if g.target != nil && g.target != f {
			// A group spans one file; a stray member stands alone.
			r.applyPending(g)
		}
		if pl := r.locateEdit(o, f, g.cursor); pl != nil {
			g.plans = append(g.plans, pl)
			g.target = f
			g.cursor = pl.end
		}
	case translate.Create:
		r.create(o, f)
	case translate.Delete:
		r.deleteFile(o, f)
	case translate.Rename:
		return r.rename(o, f)
	case translate.Chmod:
		r.chmod(o, f)
	case translate.Replace, translate.Insert, translate.Lazy:
		if g.target == f {
			// Text edits apply at once, to the file as the edits
			// before them left it.
			r.applyPending(g)
		}
		switch op.Kind {
		case translate.Replace:
			r.replaceText(o, f)
		case translate.Lazy:
			r.lazyEdit(o, f)
		default:
			r.insertLines(o, f)
		}
	}
	return nil
}

// plan is one located edit: replace doc lines [start, end) with repl.
type plan struct {
	o          *Outcome
	start, end int
	repl       []string
}

// applyPlans checks a group's located edits for overlap and applies
// the rest bottom-up, so that earlier line numbers stay valid.
func (r *resolver) applyPlans(f *fileState, plans []*plan) {
	sort.SliceStable(plans, func(i, j int) bool { return plans[i].start < plans[j].start })
	bad := map[*plan]bool{}
	for i := 1; i < len(plans); i++ {
		a, b := plans[i-1], plans[i]
		if b.start < a.end || (b.start == a.start && a.end > a.start) {
			bad[a], bad[b] = true, true
		}
	}
	for i := len(plans) - 1; i >= 0; i-- {
		p := plans[i]
		if bad[p] {
			r.fail(p.o, ErrOverlap, "it overlaps lines %d-%d that another edit of the same block changes", p.start+1, p.end)
			continue
		}
		f.splice(p.start, p.end, p.repl)
	}
}

// editable refuses what the engine never edits.
func (r *resolver) editable(o *Outcome, f *fileState) bool {
	switch {
	case !f.exists:
		r.fail(o, ErrNoFile, "%s does not exist", f.path)
	case !f.mode.Editable():
		r.fail(o, ErrNotEditable, "%s is a %s, which is never edited", f.path, modeName(f.mode))
	case f.binary:
		r.fail(o, ErrBinary, "%s is a binary file, which is never edited", f.path)
	default:
		return true
	}
	return false
}

func modeName(m patch.Mode) string {
	switch m {
	case patch.ModeSymlink:
		return "symbolic link"
	case patch.ModeGitlink:
		return "submodule"
	}
	return "special file"
}

// create makes a new file. On an existing file, Append adds to it,
// Overwrite replaces it, and otherwise only identical content (already
// applied) is accepted.
func (r *resolver) create(o *Outcome, f *fileState) {
	op := &o.Op
	if !f.exists {
		d := r.createdDoc(op)
		f.setDoc(d)
		f.exists, f.mode, f.binary = true, patch.ModeRegular, false
		o.Status, o.Start, o.End = Applied, 1, d.len()
		return
	}
	// An existing file is compared with the new lines one by one.
	op.New, op.Content = op.NewLines(), ""
	if !r.editable(o, f) {
		return
	}
	expandUnitsOf(op, f.d.indentUnit)
	dropBOMs(op, f.d)
	n := f.d.len()
	switch {
	case op.Append && endsWith(f.d, op.New), op.Overwrite && sameContent(f.d, op.New),
		!op.Append && !op.Overwrite && sameLines(f.d, op.New):
		o.Status, o.Start, o.End = AlreadyApplied, max(1, n-len(op.New)+1), n
	case op.Append:
		r.appendLines(f, op.New)
		o.Status, o.Start, o.End = Applied, n+1, n
	case op.Overwrite:
		if i := elisionIn(f.path, nil, func() []string { return lineContents(f.d, 0, n) }, op.New); i >= 0 {
			if op.Format == translate.FormatWhole && r.opts.Detected && r.lazyWhole(o, f) {
				return // merged as a lazy edit (SPEC section 5)
			}
			r.fail(o, ErrElided, "line %d of the new content (reply line %d) is the placeholder %q where %s has code; write the whole file out, or edit only the lines that change",
				i+1, op.Line+1+i, strings.TrimSpace(op.New[i]), f.path)
			return
		}
		overwrite(f, op.New, f.d.eol)
		o.Status, o.Start, o.End = Applied, 1, n
	default:
		r.fail(o, ErrFileExists, "%s already exists with other content; edit it instead of creating it", f.path)
	}
}

// overwrite makes the file's lines lines, each ended by eol.
// New content of as many lines as the file is spliced in run by run of
// the lines that differ, so that the diff is written around them (as
// an edit's is, patch.FileChange.Regions) rather than over the whole
// file: one splice of every line had patch diff a million-line file
// whole, with the lines of both sides in a map, for a reply that
// changed a thousand of them. Content of another length is spliced
// whole, and diffed whole, as before. Only the lines spliced in are
// made with their ending: a line compared in place costs no copy.
func overwrite(f *fileState, lines []string, eol string) {
	n := f.d.len()
	f.d.final = true
	ended := func(ls []string) []string {
		out := make([]string, len(ls))
		for i, l := range ls {
			out[i] = l + eol
		}
		return out
	}
	if len(lines) != n {
		f.splice(0, n, ended(lines))
		return
	}
	type run struct{ from, to int }
	var runs []run
	differs := func(i int) {
		if k := len(runs) - 1; k >= 0 && runs[k].to == i {
			runs[k].to++
		} else {
			runs = append(runs, run{i, i + 1})
		}
	}
	d := f.d
	d.open()
	if d.pieceCount() == 1 && !d.piece(0).add && d.piece(0).from == 0 {
		// The file as read: its lines straight from the text, a
		// million of them without a call each through walk, and the
		// ending compared byte by byte (a comparison of strings is a
		// call).
		for i := range n {
			if i%checkEvery == 0 && d.stop != nil && d.stop.Err() != nil {
				panic(stopped{d.stop.Err()})
			}
			l, nl := d.text[d.off(i):d.off(i+1)], lines[i]
			if len(l) != len(nl)+len(eol) || !endsWithEOL(l, eol) || l[:len(nl)] != nl {
				differs(i)
			}
		}
	} else {
		d.each(0, func(i int, l string) bool {
			if nl := lines[i]; len(l) != len(nl)+len(eol) || l[:len(nl)] != nl || l[len(nl):] != eol {
				differs(i)
			}
			return true
		})
	}
	for _, r := range runs {
		f.splice(r.from, r.to, ended(lines[r.from:r.to]))
	}
}

// endsWithEOL reports whether l, at least as long as eol, ends with it.
func endsWithEOL(l, eol string) bool {
	l = l[len(l)-len(eol):]
	for i := 0; i < len(eol); i++ {
		if l[i] != eol[i] {
			return false
		}
	}
	return true
}

// appendLines adds lines at the end of a file, giving its last line
// the terminator it lacked.
func (r *resolver) appendLines(f *fileState, lines []string) {
	n := f.d.len()
	add := make([]string, len(lines))
	for i, l := range lines {
		add[i] = l + f.d.eol
	}
	if n > 0 && !f.d.final {
		f.splice(n-1, n, []string{f.d.line(n-1) + f.d.eol})
	}
	f.d.final = true
	f.splice(n, n, add)
}

// sameLines reports whether the file holds exactly lines (trailing
// white space and trailing blank lines aside).
func sameLines(d *doc, lines []string) bool {
	n := d.len()
	for n > 0 && isBlank(d.content(n-1)) {
		n--
	}
	for len(lines) > 0 && isBlank(lines[len(lines)-1]) {
		lines = lines[:len(lines)-1]
	}
	if n != len(lines) {
		return false
	}
	for i, l := range lines {
		if trimTrailing(d.content(i)) != trimTrailing(l) {
			return false
		}
	}
	return true
}

// sameContent reports whether the file holds exactly lines, line
// endings aside: a whole new content that changes only white space
// (trailing spaces, blank lines at the end) still changes the file.
func sameContent(d *doc, lines []string) bool {
	if d.len() != len(lines) {
		return false
	}
	for i, l := range lines {
		if d.content(i) != l {
			return false
		}
	}
	return true
}

// startsWith reports whether the file's first lines are lines.
func startsWith(d *doc, lines []string) bool {
	if len(lines) == 0 || len(lines) > d.len() {
		return len(lines) == 0
	}
	for i, l := range lines {
		if trimTrailing(d.content(i)) != trimTrailing(l) {
			return false
		}
	}
	return true
}

// endsWith reports whether the file's last lines are lines (trailing
// white space aside): a create or append that is already there.
func endsWith(d *doc, lines []string) bool {
	for len(lines) > 0 && isBlank(lines[len(lines)-1]) {
		lines = lines[:len(lines)-1]
	}
	n := d.len()
	for n > 0 && isBlank(d.content(n-1)) {
		n--
	}
	if len(lines) == 0 || len(lines) > n {
		return len(lines) == 0 && n == 0
	}
	for i, l := range lines {
		if trimTrailing(d.content(n-len(lines)+i)) != trimTrailing(l) {
			return false
		}
	}
	return true
}

// deleteDir deletes every file under the directory a Recursive delete
// names, as the reply has left it; done is false when the name is not
// a directory.
func (r *resolver) deleteDir(o *Outcome) (done bool, err error) {
	ps := r.pathSet()
	// The readings of the name are tried as for a file; when none
	// names a directory, the name is deleted as a file.
	rs, _ := readings(o.Op.Path)
	var dir string
	var files []string
	for _, rd := range rs {
		if rd.err != nil {
			continue
		}
		if _, ok := r.present(rd.path); ok {
			return false, nil // a file: deleted as one
		}
		if err := ps.eachUnder(rd.path, func(p string) bool { files = append(files, p); return true }); err != nil {
			return false, err
		}
		if len(files) > 0 {
			dir = rd.path
			break
		}
	}
	if dir == "" {
		return false, nil
	}
	o.Path, o.Status = dir, AlreadyApplied
	var doomed []*fileState
	for _, p := range files {
		f, err := r.file(p)
		if err != nil {
			return true, err
		}
		if f.mode == patch.ModeGitlink {
			r.fail(o, ErrNotEditable, "%s holds the submodule %s, which is never edited", dir, p)
			return true, nil
		}
		if f.refused != "" {
			r.fail(o, ErrTooLarge, "%s", f.refused)
			return true, nil
		}
		doomed = append(doomed, f)
	}
	for _, f := range doomed {
		f.exists = false
		o.Status = Applied
	}
	return true, nil
}

func (r *resolver) deleteFile(o *Outcome, f *fileState) {
	if !f.exists {
		// Deleting what is gone is the state the reply asks for.
		o.Status = AlreadyApplied
		return
	}
	if !f.mode.Editable() {
		r.fail(o, ErrNotEditable, "%s is a %s, which is never edited", f.path, modeName(f.mode))
		return
	}
	f.exists = false
	o.Status = Applied
}

func (r *resolver) rename(o *Outcome, f *fileState) error {
	name, _, err := r.relativeName(&o.Op, o.Op.NewPath)
	to := ""
	if err == nil {
		to, _, err = r.resolvePath(name, false)
	}
	if err != nil {
		if !r.failWith(o, err) {
			return err
		}
		return nil
	}
	g, err := r.file(to)
	if err != nil {
		return err
	}
	switch {
	case g.refused != "":
		r.fail(o, ErrTooLarge, "%s", g.refused)
	case to == f.path:
		o.Status = AlreadyApplied
	case !f.exists && g.exists:
		o.Status = AlreadyApplied
	case !f.exists:
		r.fail(o, ErrNoFile, "%s does not exist", f.path)
	case !f.mode.Editable():
		r.fail(o, ErrNotEditable, "%s is a %s, which is never edited", f.path, modeName(f.mode))
	case g.exists && !o.Op.Overwrite:
		r.fail(o, ErrFileExists, "cannot rename %s: %s already exists", f.path, to)
	case g.exists:
		// The target's content is replaced: in the diff, a change of
		// the target and a deletion, not a rename onto a live path.
		if !r.editable(o, g) || !r.editable(o, f) {
			return nil
		}
		g.d.final, g.d.bom = f.d.final, f.d.bom
		g.splice(0, g.d.len(), f.d.slice(0, f.d.len()))
		g.mode = f.mode
		f.exists = false
		o.Status = Applied
	default:
		moved := *f
		moved.path, moved.lang, moved.m = to, languageOf(to), nil
		r.files[to] = &moved
		*f = fileState{path: f.path, lang: f.lang}
		o.Status = Applied
	}
	return nil
}

// chmod makes a file executable or not; only the mode changes, so a
// binary file may have it too.
func (r *resolver) chmod(o *Outcome, f *fileState) {
	want := patch.ModeRegular
	if o.Op.Executable {
		want = patch.ModeExec
	}
	switch {
	case !f.exists:
		r.fail(o, ErrNoFile, "%s does not exist", f.path)
	case !f.mode.Editable():
		r.fail(o, ErrNotEditable, "%s is a %s, which is never edited", f.path, modeName(f.mode))
	case f.mode == want:
		o.Status = AlreadyApplied
	default:
		f.mode = want
		o.Status = Applied
	}
}

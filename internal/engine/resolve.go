package engine

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/git-llm-apply/git-llm-apply/internal/patch"
	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// Status is what became of one edit.
type Status string

// The statuses of an edit (SPEC section 8).
const (
	Applied        Status = "applied"
	AlreadyApplied Status = "already-applied"
	Failed         Status = "failed"
	Skipped        Status = "skipped"
)

// Options steer resolution.
type Options struct {
	// Format is the reply's format; it sets the default top rung.
	Format string
	Fuzz   Fuzz
	// Detected says the reply's format was detected (auto): a whole
	// file holding elision markers is then tried as a lazy edit.
	Detected bool
	// Limits refuses files over its FileSize and LineLength.
	Limits Limits
	// WholeCalls keeps or drops the operations of one tool call
	// (translate.Operation.Call) together: when one fails, the others
	// fail too (ErrCallFailed) and the reply is resolved again without
	// them, so that nothing of the call is recorded and the edits that
	// depended on it fail as well. The agent's tool applied the call
	// all or none (Claude Code's MultiEdit, Codex's apply_patch): a
	// part of it is a state the agent never saw. Run sets it with
	// Partial; without Partial a failed edit rejects the whole reply.
	WholeCalls bool
	// forAdvice is the second resolution that looks for advice in the
	// other base (addElsewhere), which needs only the edits' statuses:
	// it leaves out the path suggestions (see addSuggestions) and the
	// closest lines of failing edits.
	forAdvice bool
}

// Outcome is the result of one edit.
type Outcome struct {
	N      int // 1-based number in the reply
	Op     translate.Operation
	Path   string // resolved path ("" when it could not be resolved)
	Status Status
	Rung   Rung // rung that placed the edit (0 when none)
	// Start and End are the 1-based lines of the file (as it stood
	// when the edit applied) that the edit replaced, inclusive; for a
	// pure insertion End < Start and Start-1 is the line it follows.
	Start, End int
	Err        *EditError
	Warnings   []string
}

// Result is what resolving a reply's operations against a base gives.
type Result struct {
	Outcomes []Outcome
	// Changes are the files the applied edits change, by path.
	Changes []patch.FileChange
}

// Failed reports how many edits failed.
func (r *Result) Failed() int {
	n := 0
	for _, o := range r.Outcomes {
		if o.Status == Failed {
			n++
		}
	}
	return n
}

// Resolve applies ops in order, each to the result of the ones before,
// against src, and returns every edit's outcome and the resulting file
// changes. A failed edit changes nothing and does not stop the others,
// so that one run reports every problem. The error is for a base that
// cannot be read, never for an edit.
func Resolve(src Source, ops []translate.Operation, opts Options) (*Result, error) {
	return ResolveContext(context.Background(), src, ops, opts)
}

// ResolveContext is Resolve that stops when ctx ends, returning its
// error and no result. It looks at ctx between operations and every
// few thousand lines of a loop over a file, so that no file is too
// long to stop in.
//
// An edited file's change carries no id of its new content:
// patch.Format hashes it while it writes the hunks, and keeps the id in
// the change.
func ResolveContext(ctx context.Context, src Source, ops []translate.Operation, opts Options) (*Result, error) {
	res, err := resolveOnce(ctx, src, ops, opts, nil)
	if errors.Is(err, errReadAhead) {
		// A file read ahead was not the base's: again, from Read.
		src = plainReads{src}
		res, err = resolveOnce(ctx, src, ops, opts, nil)
	}
	if err != nil || !opts.WholeCalls {
		return res, err
	}
	// Dropping a call only takes edits away, so each round fails at
	// least one more edit or ends: at most one round per call.
	var drop map[int]dropped
	cause := map[int]int{} // call -> its first edit that failed of itself, in any round
	for {
		for _, o := range res.Outcomes {
			if o.Status == Failed && o.Op.Call != 0 && cause[o.Op.Call] == 0 && !errors.Is(o.Err, ErrCallFailed) {
				cause[o.Op.Call] = o.N
			}
		}
		more := false
		for _, o := range res.Outcomes {
			// An edit that failed in an earlier round may apply once
			// the calls before it are dropped: its call is still
			// dropped, the edit with it.
			if n := cause[o.Op.Call]; n != 0 && o.Op.Call != 0 && o.Status != Failed {
				if drop == nil {
					drop = map[int]dropped{}
				}
				drop[o.N], more = dropped{cause: n, path: o.Path}, true
			}
		}
		if !more {
			return res, nil
		}
		if res, err = resolveOnce(ctx, src, ops, opts, drop); err != nil {
			return nil, err
		}
	}
}

// dropped is an edit failed for its call's sake: the edit of the call
// that failed (see Options.WholeCalls), and the path the edit resolved
// to before, for the report.
type dropped struct {
	cause int
	path  string
}

// resolveOnce resolves ops, failing the edits drop names (by number)
// without trying them.
func resolveOnce(ctx context.Context, src Source, ops []translate.Operation, opts Options, drop map[int]dropped) (out *Result, err error) {
	r := newResolver(src, opts)
	defer func() {
		// Nothing resolved on a file read ahead may be used, an error
		// included, before its check has passed.
		for _, check := range r.checks {
			if !check() {
				out, err = nil, errReadAhead
				return
			}
		}
	}()
	defer recoverStopped(&err)
	r.drop = drop
	r.ctx = ctx
	r.ops = ops // an absolute path may be placed by the others (see mapAbsolute)
	res := &Result{}
	if len(ops) > 0 {
		// An outcome per operation, each group filling its own: grown
		// by append, the outcomes of thousands of edits would be
		// copied over and over.
		res.Outcomes = make([]Outcome, len(ops))
	}
	for i := 0; i < len(ops); {
		j := i + 1
		for ops[i].Group != 0 && j < len(ops) && ops[j].Group == ops[i].Group {
			j++
		}
		if err := r.group(ops[i:j], i+1, res.Outcomes[i:j]); err != nil {
			return nil, err
		}
		i = j
	}
	if !opts.forAdvice {
		r.addSuggestions(res.Outcomes)
	}
	res.Changes = r.changes()
	return res, nil
}

// errReadAhead: a file's content read ahead (see AheadReader) was not
// the base's, so nothing resolved on it may be used.
var errReadAhead = errors.New("a file read ahead is not the base's")

// plainReads is a Source without its AheadReader.
type plainReads struct{ Source }

func (p plainReads) ReadContext(ctx context.Context, path string) ([]byte, error) {
	return readContext(ctx, p.Source, path)
}

func (p plainReads) Size(path string) (int64, bool, error) { return sizeOf(p.Source, path) }

// read returns the base's content of p, read ahead when the source can
// (see AheadReader); the check is kept for the end of the resolution.
func (r *resolver) read(p string) ([]byte, error) {
	a, ok := r.src.(AheadReader)
	if !ok {
		return readContext(r.ctx, r.src, p)
	}
	data, check, err := a.ReadAhead(r.ctx, p)
	if check != nil {
		r.checks = append(r.checks, check)
	}
	return data, err
}

// sizeRefusal says why Limits keep the file p from being touched when
// the source knows its size without reading it (a Sizer) and it is
// over --max-file-size; "" when it is not, or the size is unknown.
func (r *resolver) sizeRefusal(p string) (string, error) {
	if r.opts.Limits.FileSize <= 0 {
		return "", nil
	}
	size, known, err := sizeOf(r.src, p)
	if err != nil || !known {
		return "", err
	}
	return r.opts.Limits.checkSize(p, size), nil
}

// fileState is one file as the reply has left it so far.
type fileState struct {
	path     string
	origPath string // path in the base; "" for a file the reply creates
	origMode patch.Mode
	origID   string // orig's blob id when the base names it ("" when not)
	orig     []byte
	exists   bool
	mode     patch.Mode
	d        *doc
	base     *doc // the doc read from the base: d is another once the reply replaced the file
	m        *matcher
	lang     string
	binary   bool
	refused  string     // why Limits keep the file from being touched ("" when they do not)
	edits    int        // the reply's operations naming the file as its path reads
	want     [][]string // the lines those operations look for (matcher.want)
	scopes   [][]string // their scope lines (matcher.wantScopes)
}

func (f *fileState) matcher() *matcher {
	if f.m == nil {
		f.m = newMatcher(f.d, f.lang)
		f.m.indexAtOnce = f.edits > maxScans
		f.m.want, f.m.wantScopes = f.want, f.scopes
	}
	return f.m
}

// setDoc gives the file new content, dropping what was learnt of the old.
func (f *fileState) setDoc(d *doc) { f.d, f.m = d, nil }

// splice edits the file through its matcher, whose indexes follow.
func (f *fileState) splice(from, to int, repl []string) { f.matcher().splice(from, to, repl) }

type resolver struct {
	ctx   context.Context // checked before each operation; docs check it too (see doc.stop)
	src   Source
	opts  Options
	top   Rung
	files map[string]*fileState
	paths *pathSet
	ops   []translate.Operation // the reply's operations
	tops  map[string]absPath    // the repository's top by session Root, once established (sessionTop)
	drop  map[int]dropped       // edits failed for their call's sake, by number
	opsOn map[string]int        // operations by path, counted on first use (editsOf)
	want  map[string][][]string // the lines they look for, by path (editsOf)
	// scopes are their scope lines, by path, apart: only the scope
	// index looks for them, and the rungs' indexes never do.
	scopes map[string][][]string
	// checks are those of the files read ahead (see AheadReader), each
	// called before the resolution's result is used.
	checks []func() bool
}

func newResolver(src Source, opts Options) *resolver {
	return &resolver{ctx: context.Background(), src: src, opts: opts, top: TopRung(opts.Format, opts.Fuzz), files: map[string]*fileState{}}
}

// editsOf counts the reply's operations whose path reads p: how many
// finds the file may see, which decides how its views answer them (see
// matcher.indexAtOnce). Paths the resolver maps count for nothing; the
// count only weighs the cost, never where an edit is placed.
func (r *resolver) editsOf(p string) int {
	r.countOps()
	return r.opsOn[p]
}

// wantOf returns the lines the reply's operations whose path reads p
// look for (see matcher.want). Like editsOf it only weighs the cost: a
// line looked for that is not among them has the index built whole.
func (r *resolver) wantOf(p string) [][]string {
	r.countOps()
	return r.want[p]
}

// scopesOf returns the scope lines of the operations wantOf counts
// (see matcher.wantScopes); nil when wantOf is.
func (r *resolver) scopesOf(p string) [][]string {
	r.countOps()
	if r.want[p] == nil {
		return nil
	}
	return r.scopes[p]
}

func (r *resolver) countOps() {
	if r.opsOn != nil {
		return
	}
	r.opsOn, r.want, r.scopes = map[string]int{}, map[string][][]string{}, map[string][][]string{}
	// An agent's absolute path is counted under the repository's name
	// it maps to (repoName), which is what the file is loaded by: a
	// session's edits counted under /home/dev/proj/calc.py had every
	// file's index built whole. A path that does not map counts as
	// written; the operation fails later, with the reason.
	mapped := map[string]string{}
	for i := range r.ops {
		op := &r.ops[i]
		path := op.Path
		if isAbsolute(path) {
			key := path + "\x00" + op.Root
			rel, ok := mapped[key]
			if !ok {
				rel = path
				if m, _, err := r.mapAbsolute(path, op.Root, findsText(op)); err == nil {
					rel = m
				}
				mapped[key] = rel
			}
			path = rel
		}
		r.opsOn[path]++
		if op.Kind == translate.Replace {
			// A tool call's old text is found through its whole lines
			// (flatAround).
			if pieces := strings.Split(breaksRead(op.OldText), "\n"); len(pieces) >= 3 {
				r.want[path] = append(r.want[path], pieces[1:len(pieces)-1])
			}
			continue
		}
		if op.Kind != translate.Edit {
			continue
		}
		if len(op.Scope) > 0 {
			r.scopes[path] = append(r.scopes[path], op.Scope)
		}
		w := r.want[path]
		for _, lines := range [][]string{op.Before, op.Old, op.After, op.New} {
			if len(lines) > 0 {
				w = append(w, lines)
			}
		}
		r.want[path] = w
	}
}

// file returns the state of path, loading it from the base.
func (r *resolver) file(p string) (*fileState, error) {
	if f, ok := r.files[p]; ok {
		return f, nil
	}
	f := &fileState{path: p, lang: languageOf(p), edits: r.editsOf(p), want: r.wantOf(p), scopes: r.scopesOf(p)}
	e, err := r.src.Lookup(p)
	switch {
	case errors.Is(err, ErrNotExist):
		ps := r.pathSet()
		ps.addNew(p)
	case err != nil:
		return nil, err
	default:
		f.origPath, f.origMode, f.mode, f.exists = p, e.Mode, e.Mode, true
		if e.Mode != patch.ModeGitlink {
			// A size the base knows without reading the file is checked
			// first: a file over the limit is never read (SPEC section 5).
			if f.refused, err = r.sizeRefusal(p); err != nil {
				return nil, err
			}
			if f.refused == "" {
				if f.orig, err = r.read(p); err != nil {
					return nil, err
				}
				f.refused = r.opts.Limits.checkSize(p, int64(len(f.orig)))
			}
			if f.refused == "" {
				f.setDoc(newDocStop(r.ctx, f.orig))
				f.binary = patch.IsBinary(f.orig)
				if !f.binary {
					// Lines matter where text is matched; a binary file
					// may still be deleted, moved or made executable.
					f.refused = r.opts.Limits.checkLines(p, f.d)
				}
			}
			if f.refused != "" {
				f.orig, f.d, f.binary = nil, nil, false // nothing changes
				break
			}
			f.base = f.d
			f.d.stop = r.ctx
			if len(e.ID) == 40 {
				// The blob orig was read from, named as the diff names
				// blobs (SHA-1): hashing orig again would be a pass over
				// the file.
				f.origID = e.ID
			}
		}
	}
	r.files[p] = f
	return f, nil
}

// present answers for the reply's current state, not just the base.
func (r *resolver) present(p string) (Entry, bool) {
	if f, ok := r.files[p]; ok {
		return Entry{Mode: f.mode}, f.exists
	}
	e, err := r.src.Lookup(p)
	return e, err == nil
}

// pathSet is the reply's set of paths, loaded on its first use (its
// methods return the error of reading the source's paths).
func (r *resolver) pathSet() *pathSet {
	if r.paths == nil {
		r.paths = newPathSet(r.src.Paths, r.present)
	}
	return r.paths
}

// resolvePath turns the name an operation gives into a safe path of
// the tree the reply is building. A reading of the name that names a
// file wins (readings); else the path is the name as written, to be
// created, or to fail as missing. With bySuffix (an edit of a file's
// lines, SPEC section 5), a name that is no file, and no path the
// reply has touched, stands for the one file ending in "/name", and
// note says so for the report.
func (r *resolver) resolvePath(name string, bySuffix bool) (p, note string, err error) {
	ps := r.pathSet()
	rs, written := readings(name)
	p, err = rs[written].path, rs[written].err
	found, touched := false, false
	for _, rd := range rs {
		if rd.err != nil {
			continue
		}
		if _, ok := r.present(rd.path); ok {
			p, err, found = rd.path, nil, true
			break
		}
		_, seen := r.files[rd.path]
		touched = touched || seen
	}
	if !found && bySuffix && !touched {
		// The name as written first: an escape is removed only where
		// the separator reading finds nothing.
		for _, rd := range rs[written:] {
			if rd.err != nil {
				continue
			}
			hits, err := ps.bySuffix(rd.path)
			if err != nil {
				return "", "", err
			}
			if len(hits) > 1 {
				return "", "", fmt.Errorf("%w: %q could be any of %s", ErrAmbiguous, name, strings.Join(hits, ", "))
			}
			if len(hits) == 1 {
				p, err, note = hits[0], nil, fmt.Sprintf("took %s for %s, the one file whose path ends in it", hits[0], name)
				break
			}
		}
	}
	if err != nil {
		return "", "", err
	}
	if err := ps.checkPlace(p); err != nil {
		return "", "", err
	}
	return p, note, nil
}

// changes lists what the reply did to each file, by path.
func (r *resolver) changes() []patch.FileChange {
	var out []patch.FileChange
	for _, f := range r.files {
		var c patch.FileChange
		switch {
		case f.origPath != "" && !f.exists:
			c = patch.FileChange{OldPath: f.origPath, OldMode: f.origMode, Old: f.orig, OldID: f.origID}
		case f.origPath == "" && f.exists:
			c = patch.FileChange{NewPath: f.path, NewMode: f.mode, New: f.d.bytes()}
		case f.origPath != "" && f.exists:
			c = patch.FileChange{OldPath: f.origPath, NewPath: f.path, OldMode: f.origMode, NewMode: f.mode, Old: f.orig, OldID: f.origID}
			c.New, c.NewID = f.orig, f.origID
			c.OldStarts = f.base.startsOf(f.orig)
			switch {
			case f.d != f.base:
				// Deleted and created again: a doc of its own, whose
				// splices say nothing of how it differs from orig.
				c.New, c.NewID = f.d.bytes(), ""
			case f.d != nil && len(f.d.log) > 0:
				c.New, c.NewID = f.d.bytes(), "" // only edited files are written back
				c.Regions = changedSpans(f.d.log)
			}
			if c.OldPath == c.NewPath && c.OldMode == c.NewMode && string(c.Old) == string(c.New) {
				continue
			}
		default:
			continue
		}
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path() < out[j].Path() })
	return out
}

func (r *resolver) fail(o *Outcome, kind error, format string, args ...any) {
	o.Status = Failed
	o.Err = &EditError{N: o.N, Path: o.Path, Line: o.Op.Line, Err: kind, Msg: fmt.Sprintf(format, args...)}
	if o.Path == "" {
		o.Err.Path = o.Op.Path
	}
}

// refusals are the errors of finding an edit's file that fail the edit,
// each as its kind; any other error there is the base's (it cannot be
// read), which stops the run.
var refusals = []error{ErrUnsafePath, ErrAmbiguous, ErrNoFile, ErrFileExists, ErrBinary, ErrNotEditable}

// refusal is the one of refusals err is, or nil.
func refusal(err error) error {
	for _, k := range refusals {
		if errors.Is(err, k) {
			return k
		}
	}
	return nil
}

// failWith fails o with err when err is one of refusals, and reports
// whether it did; the caller stops the run with any other error.
func (r *resolver) failWith(o *Outcome, err error) bool {
	kind := refusal(err)
	if kind == nil {
		return false
	}
	r.fail(o, kind, "%s", err.Error())
	return true
}

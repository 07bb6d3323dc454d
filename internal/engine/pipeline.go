package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/git-llm-apply/git-llm-apply/internal/message"
	"github.com/git-llm-apply/git-llm-apply/internal/patch"
	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// Input is one model reply to process.
type Input struct {
	Source string // where it came from: a file name, or "-"
	Text   string
	// Reply, when set, is the reply already read (a turn of a session
	// log, or a reply apply read to name its branch): Run resolves its
	// operations and does not parse Text. ReadErr is what reading it
	// found (translate.Parse's error), which Run reports as the reply's
	// error; set alone, for a reply that could not be read at all, Run
	// does not parse Text either.
	Reply   *translate.Reply
	ReadErr error
	// Subject and Body, when Subject is set, make the commit message
	// instead of the reply's description (replay: the user's request
	// and the assistant's prose); -m still wins over them.
	Subject, Body string
	// Trailers are lines ("LLM-Session: log.jsonl#3") that end the
	// commit message after LLM-Edit-Format.
	Trailers []string
}

// RunOptions steer Run.
type RunOptions struct {
	Format  string // "auto" or a format name
	Fuzz    Fuzz
	Partial bool   // record the edits that resolved even when others failed
	Message string // commit message for every reply instead of its description
	// Parent, when set, is the tree the first commit builds on, for the
	// note that a touched path's base content differs from it (the
	// index base, whose staged changes become part of the commit).
	Parent Source
	Patch  patch.Options
	// ShellOps turns the file commands of shell blocks into delete and
	// rename operations (--shell-ops).
	ShellOps bool
	// Limits refuses replies and files over them.
	Limits Limits
	// Other, when set, is the base a failed edit is tried against
	// once more, for advice only (see Elsewhere): the working tree when
	// Run resolves against the index, the index when it resolves
	// against the working tree. OtherName names it ("worktree" or
	// "index"). It sees the changes of the replies before, as the base
	// does. A reply whose edits all resolve never reads it.
	Other     Source
	OtherName string
	// Progress, when set, is called as each reply (by its index in the
	// inputs) enters a phase, before the work of that phase.
	Progress func(reply int, phase Phase)
	// Recorded, when set, names the commit that recorded a reply of
	// this digest (ReplyDigest) on the branch before the run, "" when
	// none did: such a reply is not resolved again but reported
	// Unchanged, as already recorded (SPEC section 5).
	Recorded func(digest string) (commit string, err error)
}

// ReplyStatus is what became of one reply (SPEC section 8).
type ReplyStatus string

// The statuses of a reply. Unchanged is a reply whose edits are all
// already applied: nothing is recorded, and that is a success.
const (
	Recorded    ReplyStatus = "recorded"
	Partial     ReplyStatus = "partial"
	ReplyFailed ReplyStatus = "failed"
	Checked     ReplyStatus = "checked"
	Unchanged   ReplyStatus = "unchanged"
)

// ReplyResult is everything Run learnt about one reply.
type ReplyResult struct {
	Source   string
	Format   string
	Subject  string
	Body     string
	Message  string // the commit message (also when nothing is recorded)
	Status   ReplyStatus
	Err      error // why the reply could not be read (parse error, no edits)
	Outcomes []Outcome
	Changes  []patch.FileChange
	Patch    []byte // canonical diff of Changes, verified
	Commit   string
	Shell    []translate.Shell
	Warnings []translate.Warning
	Notes    []string
	// RecordedAs is the commit that recorded this very reply before
	// (see RunOptions.Recorded), and ShortRecordedAs that commit as git
	// would show it; the reply is then Unchanged.
	RecordedAs, ShortRecordedAs string

	// ShortCommit is Commit abbreviated as git would show it (see
	// patch.Options.ShortID), for reports.
	ShortCommit string
}

// Failed reports whether the reply counts as failed for the exit status.
func (r *ReplyResult) Failed() bool {
	if r.Err != nil {
		return true
	}
	for _, o := range r.Outcomes {
		if o.Status == Failed {
			return true
		}
	}
	return false
}

// Run translates and resolves each reply in order against base, each
// one seeing the changes of the replies before it that were kept, and
// hands every reply's changes to rec (nil: nothing is recorded, as for
// check and translate). A reply that cannot be read or whose edits fail
// is reported in its ReplyResult; the error is for what stops the run:
// an unreadable base, a recording failure, a generated patch that
// does not verify (a bug, never committed), or the end of ctx.
//
// ctx is looked at between replies, between the phases of a reply,
// between its operations and within the loops over a large file, so a
// cancellation stops the run within moments wherever it is: the
// replies finished before it keep their results (and commits), the one
// in hand is dropped whole, and the error is an *InterruptError naming
// it. The reader of a reply knows no context: Run stops waiting for it
// and leaves it to finish unseen.
//
// Run is RunEach over a slice, keeping every result.
func Run(ctx context.Context, inputs []Input, base Source, rec Recorder, opts RunOptions) ([]*ReplyResult, error) {
	i := 0
	next := func() (Input, error) {
		if i == len(inputs) {
			return Input{}, io.EOF
		}
		i++
		return inputs[i-1], nil
	}
	var out []*ReplyResult
	err := RunEach(ctx, next, base, rec, opts, func(r *ReplyResult) error {
		out = append(out, r)
		return nil
	})
	return out, err
}

// RunEach is Run for inputs that come one at a time, as the turns of a
// long session log do: next returns each input in turn and io.EOF after
// the last, and each receives every result as soon as it is made (once
// its changes are recorded and laid over the base for the inputs after
// it), so that a run of any length holds one input at a time. each may
// drop what it no longer needs of a result (Changes, Patch): RunEach
// keeps nothing of it. Progress counts the inputs from 0 in the order
// next gave them.
//
// An error of next or of each stops the run and is returned as it is;
// the results handed to each before it stand (and their commits, which
// rec holds). Otherwise RunEach stops as Run does, for the same reasons
// and with the same errors.
func RunEach(ctx context.Context, next func() (Input, error), base Source, rec Recorder, opts RunOptions, each func(*ReplyResult) error) error {
	u := &runner{ctx: ctx, cur: newOverlay(base), rec: rec, opts: opts}
	if opts.Parent != nil { // else no notes about the base differing from the parent
		u.parent = newOverlay(opts.Parent)
	}
	if opts.Other != nil { // else no advice from another base
		u.other = newOverlay(opts.Other)
	}
	for i := 0; ; i++ {
		in, err := next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return &InterruptError{Err: err}
		}
		res, err := u.runOne(i, in)
		if err != nil {
			if ctx.Err() != nil {
				// Whatever failed, the run was being stopped: what the
				// reply did is dropped with it.
				return &InterruptError{Cut: in.Source, Err: ctx.Err()}
			}
			return err // the reply that stopped the run has no result to report
		}
		if len(res.Changes) > 0 && res.Status != ReplyFailed {
			u.advance(res.Changes)
		}
		if err := each(res); err != nil {
			return err
		}
	}
}

// runner is what the replies of one run share: the base as the replies
// before have left it (cur), the parent and the other base likewise
// (nil when not asked for), the recorder (nil: check only) and the
// options.
type runner struct {
	ctx           context.Context
	cur           *overlay
	parent, other *overlay
	rec           Recorder
	opts          RunOptions
}

// advance lays the changes of a reply that stands over the bases, for
// the replies after it.
func (u *runner) advance(changes []patch.FileChange) {
	u.cur.apply(changes)
	if u.parent != nil {
		u.parent.apply(changes)
	}
	if u.other != nil {
		u.other.apply(changes)
	}
}

// replyRun is one reply on its way through the run: reply n of the
// run, its input and its result so far.
type replyRun struct {
	*runner
	n   int
	in  Input
	res *ReplyResult
	// reply is the reply read, digest its ReplyDigest; failed says an
	// edit of it failed (it stands only with Partial).
	reply  *translate.Reply
	digest string
	failed bool
}

// runOne does the work of reply n, in steps: read it, look for it among
// the replies recorded already, resolve it, check its diff and record
// it. A step that settles the result (a reply that failed, or needs no
// commit) ends it. The error is for what stops the run, the end of ctx
// included (see Run); with it there is no result.
func (u *runner) runOne(n int, in Input) (*ReplyResult, error) {
	r := &replyRun{runner: u, n: n, in: in, res: &ReplyResult{Source: in.Source}}
	for _, step := range []func() (bool, error){r.parse, r.fresh, r.resolve, r.check, r.record} {
		ok, err := step()
		if err != nil {
			return nil, err
		}
		if !ok {
			return r.res, nil
		}
	}
	if r.failed {
		r.res.Status = Partial
	}
	return r.res, nil
}

// enter starts phase p of the reply: it tells Progress and returns the
// context's error.
func (r *replyRun) enter(p Phase) error {
	if r.opts.Progress != nil {
		r.opts.Progress(r.n, p)
	}
	return r.ctx.Err()
}

// parse reads the reply (unless the input holds it read) and takes its
// format, warnings and description into the result. A reply too long,
// that cannot be read or holds too many edits fails: parse returns
// false.
func (r *replyRun) parse() (bool, error) {
	res, in, opts := r.res, r.in, r.opts
	if err := opts.Limits.checkReply(in.Text); err != nil {
		res.Err, res.Status = err, ReplyFailed
		return false, nil
	}
	if err := r.enter(PhaseParse); err != nil {
		return false, err
	}
	reply, err := in.Reply, in.ReadErr
	switch {
	case reply == nil && err == nil:
		var stop error
		reply, err, stop = parseReply(r.ctx, in.Text, translate.ParseOptions{Format: opts.Format, ShellOps: opts.ShellOps, Partial: opts.Partial})
		if stop != nil {
			return false, stop
		}
	case reply != nil:
		reply = withFailures(reply)
		if err == nil && len(reply.Ops) == 0 {
			err = translate.ErrNoEdits
		}
	}
	if reply != nil {
		res.Format, res.Shell, res.Warnings = reply.Format, reply.Shell, reply.Warnings
		res.Subject, res.Body = translate.Describe(reply)
	}
	if in.Subject != "" {
		res.Subject, res.Body = in.Subject, in.Body
	}
	if err == nil {
		err = opts.Limits.checkEdits(len(reply.Ops))
	}
	if err != nil {
		res.Err, res.Status = err, ReplyFailed
		return false, nil
	}
	r.reply, r.digest = reply, message.ReplyDigest(reply.Ops)
	return true, nil
}

// fresh reports whether the reply is not among those recorded already
// (RunOptions.Recorded); one that is stands Unchanged, with a note.
func (r *replyRun) fresh() (bool, error) {
	if r.opts.Recorded == nil {
		return true, nil
	}
	// A retry, or a client sending a call again, must not apply the
	// edits a second time: a first match would take the next place,
	// insertions would stand twice (SPEC section 5).
	was, err := r.opts.Recorded(r.digest)
	if err != nil || was == "" {
		return err == nil, err
	}
	res := r.res
	res.RecordedAs, res.ShortRecordedAs, res.Status = was, r.opts.Patch.ShortID(was), Unchanged
	res.Notes = append(res.Notes, fmt.Sprintf("already recorded as %s (%s)", res.ShortRecordedAs, message.ReplyTrailerLine(r.digest)))
	return false, nil
}

// resolve resolves the reply's operations against the base (and the
// other base, for advice) and writes its commit message. It returns
// false when the reply fails (only snippets, or a failed edit without
// Partial) or changes nothing.
func (r *replyRun) resolve() (bool, error) {
	res, opts := r.res, r.opts
	if err := r.enter(PhaseResolve); err != nil {
		return false, err
	}
	ropts := Options{Format: r.reply.Format, Detected: opts.Format == "" || opts.Format == "auto", Fuzz: opts.Fuzz, Limits: opts.Limits, WholeCalls: opts.Partial}
	result, err := ResolveContext(r.ctx, r.cur, r.reply.Ops, ropts)
	if err != nil {
		return false, err
	}
	if r.other != nil {
		if err := addElsewhere(r.ctx, r.cur, r.other, opts.OtherName, r.reply.Ops, ropts, result.Outcomes); err != nil {
			return false, err
		}
	}
	res.Outcomes = result.Outcomes
	if err := onlySnippets(result.Outcomes); err != nil {
		res.Err, res.Status = err, ReplyFailed
		return false, nil
	}
	r.failed = result.Failed() > 0
	if r.failed && !opts.Partial {
		res.Status = ReplyFailed
		return false, nil
	}
	res.Changes = result.Changes
	res.Message = message.Commit(opts.Message, res.Subject, res.Body, res.Format, res.Changes, len(r.reply.Ops), append([]string{message.ReplyTrailerLine(r.digest)}, r.in.Trailers...)...)
	if len(res.Changes) == 0 {
		res.Status = Unchanged
		if r.failed {
			res.Status = ReplyFailed
		}
		return false, nil
	}
	return true, nil
}

// check writes the diff of the reply's changes and verifies it, and
// notes the paths whose base differs from the parent: the reply is
// Checked.
func (r *replyRun) check() (bool, error) {
	res := r.res
	if err := r.enter(PhaseDiff); err != nil {
		return false, err
	}
	var err error
	if res.Patch, err = patch.FormatContext(r.ctx, res.Changes, r.opts.Patch); err != nil {
		return false, fmt.Errorf("writing the diff of %s: %w", r.in.Source, err)
	}
	if err := r.enter(PhaseVerify); err != nil {
		return false, err
	}
	if err := patch.VerifyContext(r.ctx, res.Patch, res.Changes); err != nil {
		return false, fmt.Errorf("the diff generated for %s does not reproduce the edit (a bug; nothing was recorded): %w", r.in.Source, err)
	}
	if r.parent != nil {
		notes, err := stagedNotes(r.cur, r.parent, res.Changes)
		if err != nil {
			return false, err
		}
		res.Notes = append(res.Notes, notes...)
	}
	res.Status = Checked
	return true, nil
}

// record records the reply's changes as a commit, when the run has a
// recorder: the reply is Recorded.
func (r *replyRun) record() (bool, error) {
	if r.rec == nil {
		return true, nil
	}
	if err := r.enter(PhaseRecord); err != nil {
		return false, err
	}
	res := r.res
	var err error
	if res.Commit, err = r.rec.Record(r.ctx, res.Changes, res.Message); err != nil {
		return false, err
	}
	res.ShortCommit, res.Status = r.opts.Patch.ShortID(res.Commit), Recorded
	return true, nil
}

// withFailures is a reply read elsewhere (a session log) with the
// blocks its reader could not read made Invalid operations, in the
// order of their lines, as translate.Parse hands them on: each then
// fails as an edit of its own instead of being dropped unseen.
func withFailures(r *translate.Reply) *translate.Reply {
	if len(r.Failed) == 0 {
		return r
	}
	c := *r
	c.Ops = append([]translate.Operation(nil), r.Ops...)
	for _, f := range r.Failed {
		c.Ops = append(c.Ops, translate.Operation{Kind: translate.Invalid, Path: f.Path, Line: f.Line, Comment: f.Msg, Format: r.Format})
	}
	c.Failed = nil
	sort.SliceStable(c.Ops, func(i, j int) bool { return c.Ops[i].Line < c.Ops[j].Line })
	return &c
}

// onlySnippets is the error of a reply whose every block was skipped
// as a snippet (see Skipped): it holds no edit, which is not a success
// to report as "nothing to change". The error says why each was.
func onlySnippets(outs []Outcome) error {
	var why []string
	for _, o := range outs {
		if o.Status != Skipped {
			return nil
		}
		why = append(why, o.Warnings...)
	}
	if len(why) == 0 {
		return nil
	}
	return fmt.Errorf("%w: %s", translate.ErrNoEdits, strings.Join(why, "; "))
}

// stagedNotes names the touched paths whose base content differs from
// the commit's parent: that difference becomes part of the commit.
func stagedNotes(cur, parent Source, changes []patch.FileChange) ([]string, error) {
	var notes []string
	for _, c := range changes {
		if c.OldPath == "" {
			continue
		}
		same, err := sameEntry(cur, parent, c.OldPath)
		if err != nil {
			return nil, err
		}
		if !same {
			notes = append(notes, fmt.Sprintf("%s has staged changes that are not in the parent commit; they are part of this commit", c.OldPath))
		}
	}
	return notes, nil
}

func sameEntry(a, b Source, p string) (bool, error) {
	ea, err := a.Lookup(p)
	if err != nil {
		return false, err
	}
	eb, err := b.Lookup(p)
	if errors.Is(err, ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if ea.Mode != eb.Mode {
		return false, nil
	}
	if ea.ID != "" && eb.ID != "" {
		return ea.ID == eb.ID, nil
	}
	da, err := a.Read(p)
	if err != nil {
		return false, err
	}
	db, err := b.Read(p)
	if err != nil {
		return false, err
	}
	return bytes.Equal(da, db), nil
}

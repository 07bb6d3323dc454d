package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/urfave/cli/v3"

	"github.com/git-llm-apply/git-llm-apply/internal/engine"
	"github.com/git-llm-apply/git-llm-apply/internal/gitops"
	"github.com/git-llm-apply/git-llm-apply/internal/message"
	"github.com/git-llm-apply/git-llm-apply/internal/patch"
	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

type applyOptions struct {
	commonOptions
	Branch   string
	Onto     string
	OntoSet  bool
	Message  string
	Partial  bool
	Worktree string
	PatchDir string
	Sign     signChoice // -S, --gpg-sign, --no-gpg-sign
}

func applyCommand(s streams) *cli.Command {
	return &cli.Command{
		Name:      "apply",
		Usage:     "record each reply as one commit on a branch",
		ArgsUsage: "[REPLY ...]",
		Description: `Resolves every edit of each reply and records the reply as one commit,
with the reply's description as its message, on a new branch (llm/<slug>
by default) started at --onto, or appended to an existing branch given
with -b, whose tip the replies are then resolved against. A reply with a
failed edit records nothing unless --partial. Your working tree, index
and HEAD are not changed; look at the result with git log -p BRANCH.

--worktree PATH also adds a linked worktree at PATH with the branch
checked out, to build and test the change there. When -b names a branch
already checked out in a linked worktree, that worktree's files follow
the new commits if it has no local changes; otherwise they are left as
they are, and the report says so. These two worktree steps run git
porcelain there (git worktree add, git status, git read-tree -m -u),
and so that repository's hooks (post-checkout) and checkout filters, as
git does; nothing else apply does runs git or code the repository
configures. -o DIR also writes one NNNN-<slug>.patch per recorded
commit, which git am applies.`,
		Flags:        applyFlags(),
		OnUsageError: usageOnError,
		Action: func(ctx context.Context, cmd *cli.Command) error {
			o, err := readApplyOptions(cmd)
			if err != nil {
				return err
			}
			return runApply(ctx, o, s)
		},
	}
}

// applyFlags are apply's flags, which replay shares.
func applyFlags() []cli.Flag {
	return append(append(commonFlags(),
		&cli.StringFlag{Name: "branch", Aliases: []string{"b"}, Usage: "record on `NAME` (appending when it exists)"},
		&cli.StringFlag{Name: "onto", Value: "HEAD", Usage: "start a new branch at `REV`"},
		&cli.StringFlag{Name: "message", Aliases: []string{"m"}, Usage: "use `MSG` as the commit message of every reply"},
		&cli.BoolFlag{Name: "partial", Usage: "record the edits that resolved even when others failed"},
		&cli.StringFlag{Name: "worktree", Usage: "also add a linked worktree at `PATH` with the branch checked out"},
		&cli.StringFlag{Name: "patch-dir", Aliases: []string{"o"}, Usage: "also write one format-patch file per recorded commit into `DIR`"},
	), signFlags()...)
}

func readApplyOptions(cmd *cli.Command) (applyOptions, error) {
	c, err := readCommon(cmd)
	if err != nil {
		return applyOptions{}, err
	}
	return applyOptions{commonOptions: c, Branch: cmd.String("branch"), Onto: cmd.String("onto"),
		OntoSet: cmd.IsSet("onto"), Message: cmd.String("message"), Partial: cmd.Bool("partial"),
		Worktree: cmd.String("worktree"), PatchDir: cmd.String("patch-dir"), Sign: readSign(cmd)}, nil
}

// target is where apply records: the branch, what its commits build
// on, and what the edits are resolved against.
type target struct {
	branch  string
	exists  bool
	parent  string        // commit the first new commit builds on ("" on an unborn HEAD)
	src     engine.Source // what edits resolve against
	tree    engine.Source // the parent's files, for the staged-content note (nil: none)
	reflog  string
	ontoRev string
}

func runApply(ctx context.Context, o applyOptions, s streams) error {
	rc, err := openRecording(o, s)
	if err != nil {
		return err
	}
	defer rc.close()
	inputs, err := readReplies(o.Dir, o.Replies, s.in, o.Limits.ReplySize)
	if err != nil {
		return err
	}
	if err := rc.prepare(ctx, o, func() (string, []string) { return describeFirst(o, inputs) }); err != nil {
		return err
	}
	defer interruptible(ctx)() // until the branch, worktree and patch files are written
	m := progress(rc.s, o.commonOptions, inputs)
	results, err := engine.Run(ctx, inputs, rc.t.src, rc.w, rc.runOptions(o, m.hook()))
	m.stop(err == nil)
	return rc.finish(ctx, o, results, nil, err, func(stop error) (outputs, error) {
		return interruption(stop, results, inputs, rc.t.branch)
	})
}

// recording is what apply and replay set up to record on a branch:
// the repository, the target, the worktrees and the branch writer.
type recording struct {
	s         streams
	repo      *gitops.Repo
	patch     patch.Options
	t         *target
	wt        *worktreePlan
	w         *gitops.BranchWriter
	other     engine.Source // the other base, for advice on failed edits (nil: none)
	otherName string
}

// openRecording checks -o and opens the repository, before any input
// is read.
func openRecording(o applyOptions, s streams) (*recording, error) {
	if err := checkPatchDir(o.Dir, o.PatchDir, "recorded"); err != nil {
		return nil, err
	}
	repo, err := openRepo(o.Dir, o.DirArg)
	if err != nil {
		return nil, err
	}
	patch, err := patchOptions(repo)
	if err != nil {
		return nil, err
	}
	if s, err = s.withColor(o.commonOptions, repo); err != nil {
		return nil, err
	}
	s.at = placeOf(o.Dir, o.DirArg, repo)
	return &recording{s: s, repo: repo, patch: patch}, nil
}

// prepare chooses the branch (describe gives the first description and
// paths, for its default name), checks the worktrees and makes the
// branch writer, which updates the branch with compare-and-swap.
func (rc *recording) prepare(ctx context.Context, o applyOptions, describe func() (string, []string)) error {
	t, err := chooseTarget(rc.repo, o, describe)
	if err != nil {
		return err
	}
	wt, err := planWorktrees(ctx, rc.repo, o, t)
	if err != nil {
		return err
	}
	expect := ""
	if t.exists {
		expect = t.parent
	}
	w, err := rc.repo.NewBranchWriter(gitops.WriteOptions{Branch: t.branch, Parent: t.parent, Expect: expect,
		ReflogMsg: t.reflog, Worktree: wt.follow, Sign: o.Sign.mode, SigningKey: o.Sign.key})
	if err != nil {
		if moved := notRecorded(err); moved != nil {
			printReport(rc.s, o.commonOptions, nil, outputs{branch: t.branch, fatal: moved})
			return moved
		}
		return err
	}
	rc.t, rc.wt, rc.w = t, wt, w
	if !t.exists { // an existing branch is resolved against its tip: no other base
		rc.other, rc.otherName = otherBase(rc.repo, o.Base, t.src)
	}
	return nil
}

// close removes what the branch writer wrote and no Finish made
// durable (a run that failed or was stopped before).
func (rc *recording) close() {
	if rc.w != nil {
		rc.w.Close()
	}
}

// runOptions are the engine's options for o; progress is the meter's
// hook.
func (rc *recording) runOptions(o applyOptions, progress func(int, engine.Phase)) engine.RunOptions {
	ro := engine.RunOptions{
		Format: o.Format, Fuzz: o.Fuzz, Partial: o.Partial, Message: o.Message, Parent: rc.t.tree, ShellOps: o.ShellOps,
		Limits: o.Limits, Progress: progress, Other: rc.other, OtherName: rc.otherName, Patch: rc.patch,
	}
	if rc.t.exists {
		// A reply the branch recorded already is not applied twice
		// (SPEC section 5).
		ro.Recorded = rc.repo.RecordedReplies(rc.t.parent)
	}
	return ro
}

// finish ends a run whose engine error is runErr: it moves the branch
// to the commits recorded (unless runErr says the run must record
// nothing), writes the patch files, adds or updates the worktrees and
// reports. stopped says what the report and the exit status say of a
// run that ended early (interrupted): it gets the run's error. The
// report is of results, or, for a replay, tr's, whose turns are told
// already (tr nil: results').
func (rc *recording) finish(ctx context.Context, o applyOptions, results []*engine.ReplyResult, tr *turnReport, runErr error, stopped func(error) (outputs, error)) error {
	s, t, w := rc.s, rc.t, rc.w
	status := func() error { return statusOf(results) }
	report := func(out outputs) { printReport(s, o.commonOptions, results, out) }
	if tr != nil {
		status, report = tr.status.err, tr.close
	}
	err := runErr
	if errors.Is(err, engine.ErrInterrupted) {
		err = nil // the replies recorded so far are kept
	}
	if err == nil && len(w.Commits()) > 0 {
		err = w.Finish()
	}
	if err != nil {
		for _, r := range results {
			if r.Commit != "" {
				r.Commit, r.ShortCommit, r.Status = "", "", engine.ReplyFailed
			}
		}
		switch moved := notRecorded(err); {
		case moved != nil:
			err = moved
		case tr != nil && tr.named:
			// The turns told of their commits as they ended: the
			// error says that none of them is on the branch (SPEC
			// section 8).
			err = fmt.Errorf("%w; nothing was recorded: %s was not moved to the commits the report names", err, t.branch)
		}
		if tr != nil {
			tr.spool.discard()
		}
		report(outputs{branch: t.branch, fatal: err})
		return err
	}
	out, stopErr := stopped(runErr)
	out.branch, out.signed = t.branch, w.Signed()
	var after []error // what failed once the commits were recorded
	switch {
	case tr != nil:
		if err := tr.spool.write(); err != nil {
			after = append(after, err)
		}
	case o.PatchDir != "":
		if out.patches, err = writePatches(o.Dir, o.PatchDir, results, w.Author()); err != nil {
			after = append(after, err)
		}
	}
	notes, err := rc.wt.finish(ctx, rc.repo, t, w.Commits(), status())
	if err != nil {
		after = append(after, err)
	}
	report(out)
	for _, n := range notes {
		if !o.Quiet {
			fmt.Fprintf(s.err, "%s\n", n)
		}
	}
	if !o.Quiet && !o.JSON && len(w.Commits()) > 0 {
		// Quoted: a branch or revision may hold what a shell reads
		// ($, ;, quotes), and the hints are meant to be pasted.
		fmt.Fprintf(s.err, "Review with: %s log -p %s\n", s.at.git(), shellArg(reviewRange(t, rc.patch.ShortID)))
		if rc.wt.add == "" && rc.wt.follow == "" {
			fmt.Fprintf(s.err, "Switch with: %s switch %s\n", s.at.git(), shellArg(t.branch))
		}
	}
	if len(after) > 0 {
		return fmt.Errorf("the commits are recorded on %s, but %w", t.branch, errors.Join(after...))
	}
	if stopErr != nil {
		return stopErr
	}
	if rc.wt.interrupted {
		// The signal came once the replies were done, in the worktree
		// step, which it left undone (the notes say how to finish).
		return fmt.Errorf("%w: the commits are recorded on %s, the worktree step was not done", errInterrupted, t.branch)
	}
	return status()
}

// reviewRange is what git log -p shows of the commits apply recorded
// on t: from where the branch started to its tip, or, when the
// repository had no commit yet, the whole branch, which then starts
// with a root commit (there is no revision to start from).
func reviewRange(t *target, short func(id string) string) string {
	switch {
	case t.exists:
		return short(t.parent) + ".." + t.branch
	case t.parent == "":
		return t.branch
	}
	return t.ontoRev + ".." + t.branch
}

// notRecorded is the error of a run another writer got in the way of
// (the branch moved, or its lock is held), saying what to do, or nil
// for any other error.
func notRecorded(err error) error {
	if errors.Is(err, gitops.ErrRefMoved) || errors.Is(err, gitops.ErrRefLocked) {
		return fmt.Errorf("%w; nothing was recorded, run the command again", err)
	}
	return nil
}

// chooseTarget decides the branch and base: an existing -b branch is
// resolved against its tip; a new branch starts at --onto (HEAD) and
// resolves against --base (the index).
func chooseTarget(repo *gitops.Repo, o applyOptions, describe func() (string, []string)) (*target, error) {
	if o.Branch != "" {
		if err := gitops.ValidBranchName(o.Branch); err != nil {
			return nil, err
		}
		tip, exists, err := repo.BranchTip(o.Branch)
		if err != nil {
			return nil, err
		}
		if exists {
			if o.BaseSet || o.OntoSet {
				return nil, usageError("branch %s exists: replies are resolved against its tip, so --base and --onto do not apply", o.Branch)
			}
			src, _, err := repo.RevisionSource(tip)
			if err != nil {
				return nil, err
			}
			return &target{branch: o.Branch, exists: true, parent: tip, src: src, reflog: "llm-apply: append"}, nil
		}
	}
	onto := o.Onto
	if !o.OntoSet && o.Base != "index" && o.Base != "worktree" {
		onto = o.Base // a revision base is also where the branch starts
	}
	t := &target{branch: o.Branch, ontoRev: onto, reflog: "llm-apply: created from " + onto}
	parent, err := repo.ResolveCommit(onto)
	switch {
	case errors.Is(err, gitops.ErrUnbornHead) && !o.OntoSet:
		// No commit yet: the first commit is a root commit.
	case err != nil:
		return nil, err
	default:
		t.parent = parent
	}
	if t.src, _, err = openBase(repo, o.Base); err != nil {
		return nil, err
	}
	if t.parent != "" && (o.Base == "index" || o.Base == "worktree") {
		if t.tree, _, err = repo.RevisionSource(t.parent); err != nil {
			return nil, err
		}
	}
	if t.branch == "" {
		if t.branch, err = defaultBranch(repo, o, describe); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// defaultBranch is llm/<a few words of the first description>
// (-m, else what describe gives), made unique; a reply whose
// description gives no word is named by the files it edits
// (llm/edit-app-py).
func defaultBranch(repo *gitops.Repo, o applyOptions, describe func() (string, []string)) (string, error) {
	subject, paths := describe()
	if o.Message != "" {
		subject = o.Message
	}
	base := "llm/" + message.BranchSlug(subject, paths)
	if gitops.ValidBranchName(base) != nil {
		base = "llm/edit" // not reached: a slug is letters, digits and dashes
	}
	name := base
	for n := 2; ; n++ {
		_, exists, err := repo.BranchTip(name)
		if err != nil {
			return "", err
		}
		if !exists {
			return name, nil
		}
		name = fmt.Sprintf("%s-%d", base, n)
	}
}

// describeFirst is the description and paths of apply's first reply.
func describeFirst(o applyOptions, inputs []engine.Input) (subject string, paths []string) {
	if len(inputs) == 0 {
		return "", nil
	}
	return describeReply(o, &inputs[0])
}

// describeReply reads in, as engine.Run would, for its description and
// paths, and keeps what it read in in, so that Run does not read the
// reply again.
func describeReply(o applyOptions, in *engine.Input) (subject string, paths []string) {
	in.Reply, in.ReadErr = translate.Parse(in.Text, translate.ParseOptions{Format: o.Format, ShellOps: o.ShellOps, Partial: o.Partial})
	if in.Reply == nil {
		return "", nil
	}
	subject, _ = translate.Describe(in.Reply)
	for _, op := range in.Reply.Ops {
		paths = append(paths, op.Path)
	}
	return subject, paths
}

package gitops

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/oid"

	"github.com/git-llm-apply/git-llm-apply/internal/engine"
	"github.com/git-llm-apply/git-llm-apply/internal/patch"
)

// WriteOptions says where a BranchWriter records.
type WriteOptions struct {
	// Branch is the short branch name: commits go to refs/heads/<Branch>.
	Branch string
	// Parent is the commit (full hex id) the first commit is built on;
	// "" makes a root commit on an empty tree.
	Parent string
	// Expect is the value (full hex id) refs/heads/<Branch> must still
	// hold when Finish moves it; "" means the branch must not exist.
	Expect string
	// ReflogMsg is the reflog message of the update, e.g. "llm-apply:
	// created from HEAD"; "" gives "llm-apply: " and the last commit's
	// subject.
	ReflogMsg string
	// Worktree is the top of a linked worktree where Branch may be
	// checked out: the caller brings that worktree up to date after
	// Finish (see HeadAt, UpdateWorktree). A branch checked out
	// anywhere else is refused.
	Worktree string
	// Sign says whether the commits are signed: by commit.gpgSign, or
	// always or never as -S and --no-gpg-sign say (see newSigner).
	Sign Sign
	// SigningKey is the key of --gpg-sign=<keyid>; "" takes
	// user.signingKey's.
	SigningKey string
}

// Validate checks that Branch is a valid branch name (ErrBadBranchName)
// and that Parent and Expect are empty or full hex commit ids.
func (o WriteOptions) Validate() error {
	if err := ValidBranchName(o.Branch); err != nil {
		return err
	}
	if o.Parent != "" && !isFullHex(o.Parent) {
		return fmt.Errorf("WriteOptions.Parent %q is not a full lower-case commit id", o.Parent)
	}
	if o.Expect != "" && !isFullHex(o.Expect) {
		return fmt.Errorf("WriteOptions.Expect %q is not a full lower-case commit id", o.Expect)
	}
	if strings.ContainsAny(o.ReflogMsg, "\x00") {
		return errors.New("WriteOptions.ReflogMsg holds a NUL byte")
	}
	return nil
}

// BranchWriter records commits for one branch: Record adds objects
// only, to a pack Finish completes and names, then Finish moves the
// branch. Close removes a pack Finish did not complete: call it once
// the writer is done with. It implements engine.Recorder. It is not
// safe for concurrent use.
type BranchWriter struct {
	r         *Repo
	opts      WriteOptions
	author    Ident
	committer Ident
	// fixedDate: the committer date came from GIT_COMMITTER_DATE, so the
	// reflog entry carries it too (else the time of Finish).
	fixedDate bool
	logRefs   bool    // core.logAllRefUpdates allows creating the reflog
	signer    *signer // nil: commits are not signed

	// held are the run's objects while they are fewer than the unpack
	// limit: Finish writes them loose (see loosewrite.go). nil when
	// none is held.
	held       *heldObjects
	limit      int // the unpack limit: fetch.unpackLimit's
	looseLevel int // core.looseCompression's
	// durable says what Finish syncs and how: core.fsync and
	// core.fsyncMethod's (fsync.go).
	durable durability
	// pack is the pack the run writes its objects to once they reach
	// the unpack limit, nil until then and after Finish names it.
	pack *runPack
	// unsynced are the directories that gained a pack's names and are
	// not yet synced: Finish syncs them before the branch moves.
	unsynced map[string]bool

	tip     oid.ID // last commit recorded, or the parent
	tipTree oid.ID
	commits []string
	subject string // of the last commit, for the default reflog message
}

var _ engine.Recorder = (*BranchWriter)(nil)

// NewBranchWriter validates opts, refuses a branch checked out in a
// worktree other than opts.Worktree (ErrBranchCheckedOut, naming the
// worktree), fails early with
// ErrRefMoved when the branch already differs from opts.Expect, and
// reads the author and committer once for all commits (see Author).
func (r *Repo) NewBranchWriter(opts WriteOptions) (*BranchWriter, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	if err := r.checkNotCheckedOut(opts); err != nil {
		return nil, err
	}
	cur, exists, err := r.BranchTip(opts.Branch)
	if err != nil {
		return nil, err
	}
	if err := checkExpected(opts, cur, exists); err != nil {
		return nil, err
	}
	w := &BranchWriter{r: r, opts: opts, tipTree: emptyTree, unsynced: map[string]bool{}}
	if opts.Parent != "" {
		c, err := r.readCommit(oid.FromHex(opts.Parent))
		if err != nil {
			return nil, fmt.Errorf("%w: parent %s: %v", ErrUnknownRevision, opts.Parent, err)
		}
		w.tip, w.tipTree = c.Hash, c.TreeHash
	}
	cfg, err := r.config()
	if err != nil {
		return nil, err
	}
	if w.author, _, err = identFrom("author", cfg, r.env, time.Now); err != nil {
		return nil, err
	}
	if w.committer, w.fixedDate, err = identFrom("committer", cfg, r.env, time.Now); err != nil {
		return nil, err
	}
	if w.signer, err = r.newSigner(opts, cfg, w.committer); err != nil {
		return nil, err
	}
	if w.limit, err = unpackLimit(cfg); err != nil {
		return nil, err
	}
	if w.looseLevel, err = looseLevel(cfg); err != nil {
		return nil, err
	}
	if w.durable, err = readDurability(cfg); err != nil {
		return nil, err
	}
	w.logRefs = r.mainRoot != "" || r.root != ""
	if v, ok := cfg.Get("core.logallrefupdates"); ok {
		w.logRefs = strings.EqualFold(v, "always") || cfgBool(cfg, "core.logallrefupdates", false)
	}
	return w, nil
}

// checkExpected compares the branch's value with opts.Expect.
func checkExpected(opts WriteOptions, cur string, exists bool) error {
	switch {
	case opts.Expect == "" && exists:
		return fmt.Errorf("%w: refs/heads/%s exists (at %s) but was expected not to", ErrRefMoved, opts.Branch, cur)
	case opts.Expect != "" && !exists:
		return fmt.Errorf("%w: refs/heads/%s no longer exists (expected %s)", ErrRefMoved, opts.Branch, opts.Expect)
	case opts.Expect != "" && cur != opts.Expect:
		return fmt.Errorf("%w: refs/heads/%s is at %s, expected %s", ErrRefMoved, opts.Branch, cur, opts.Expect)
	}
	return nil
}

// Record writes one commit holding changes on top of the previous
// commit of w (or opts.Parent): the blobs of the new contents, the
// trees along the touched paths (each once, bottom-up; other entries
// stay byte-identical; a directory left empty disappears) and the
// commit, whose message is message with exactly one final newline.
// Files get FileChange.NewMode (0 keeps OldMode, else 100644).
// Deleting a path that does not exist changes nothing; deleting a
// directory, writing below a file or over a directory is an error, and
// then nothing is written. Record moves no ref (see Finish) and returns
// the new commit's id. When ctx ends before every object is written,
// Record returns its error and the commit is not made.
func (w *BranchWriter) Record(ctx context.Context, changes []patch.FileChange, message string) (string, error) {
	root, pending, err := planChanges(changes)
	if err != nil {
		return "", err
	}
	var trees []pendingObject
	treeID, empty, err := w.r.rewriteTree(w.tipTree, root, "", &trees)
	if err != nil {
		return "", err
	}
	if empty {
		o, _ := encodeTree(nil)
		trees = append(trees, pendingObject{o.Hash(), o})
	}
	pending = append(pending, trees...)

	msg := strings.TrimRight(message, "\n") + "\n"
	var parents []oid.ID
	if !w.tip.IsZero() {
		parents = []oid.ID{w.tip}
	}
	data := commitData(treeID, parents, w.author, w.committer, msg)
	if w.signer != nil {
		// Signed before anything is written: a commit that cannot be
		// signed leaves nothing behind (SPEC section 3).
		sig, err := w.signer.sign(ctx, data)
		if err != nil {
			return "", err
		}
		data = withSignature(data, sig)
	}
	co := newObject(oid.Commit, data)
	pending = append(pending, pendingObject{co.Hash(), co})
	if err := w.writeObjects(ctx, pending); err != nil {
		return "", err
	}
	w.tip, w.tipTree = co.Hash(), treeID
	w.commits = append(w.commits, co.Hash().String())
	w.subject, _, _ = strings.Cut(strings.TrimLeft(msg, "\n"), "\n")
	return co.Hash().String(), nil
}

// Close forgets the objects recorded since the last Finish, held or in
// a pack it removes: their commits were not made durable, and nothing
// names them. Closing twice, or after Finish, does nothing. A later
// Record starts anew.
func (w *BranchWriter) Close() {
	w.dropHeld()
	w.dropPack()
}

// dropPack removes the pack in progress, if any.
func (w *BranchWriter) dropPack() {
	if w.pack == nil {
		return
	}
	w.r.running.drop(w.pack)
	w.pack.remove()
	w.pack = nil
}

// Commits returns the ids recorded so far, in order.
func (w *BranchWriter) Commits() []string { return append([]string(nil), w.commits...) }

// Signed reports whether the writer signs its commits.
func (w *BranchWriter) Signed() bool { return w.signer != nil }

// Author is the author the writer's commits carry.
func (w *BranchWriter) Author() Ident { return w.author }

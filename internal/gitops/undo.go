package gitops

import (
	"errors"
	"fmt"
	"time"
)

// ErrNoParent: the commit a branch is to move back from is a root
// commit, so there is nothing to move back to.
var ErrNoParent = errors.New("the branch tip has no parent")

// MoveBranchBack moves refs/heads/<branch> from expect, which it must
// still hold, to expect's first parent, under the ref's lock
// (ErrRefMoved when it moved, ErrRefLocked when another writer holds
// it), with a reflog entry saying msg, so that git reflog shows the
// commit the branch left and git reset can bring it back. A branch
// checked out in a worktree is refused (ErrBranchCheckedOut): its files
// would no longer match it; but not in worktree, a linked worktree
// whose HEAD is the branch, which the caller brings back with
// UpdateWorktree ("" for none). It returns the parent's id. The commit
// itself stays in the object store until git gc prunes it.
func (r *Repo) MoveBranchBack(branch, expect, msg, worktree string) (string, error) {
	opts := WriteOptions{Branch: branch, Expect: expect, ReflogMsg: msg, Worktree: worktree}
	if err := opts.Validate(); err != nil {
		return "", err
	}
	if expect == "" {
		return "", fmt.Errorf("moving %s back needs the commit it is expected at", branch)
	}
	parent, err := r.ResolveCommit(expect + "^")
	if errors.Is(err, ErrUnknownRevision) {
		return "", fmt.Errorf("%w: %s is a root commit", ErrNoParent, expect)
	}
	if err != nil {
		return "", err
	}
	who, fixed, err := r.ident("committer")
	if err != nil {
		return "", err
	}
	if !fixed { // as Finish: GIT_COMMITTER_DATE dates the reflog entry too
		who.When = time.Now()
	}
	// An existing reflog is always appended to; one the branch's
	// creation did not make (core.logAllRefUpdates off) is not made now.
	cfg, err := r.config()
	if err != nil {
		return "", err
	}
	d, err := readDurability(cfg)
	if err != nil {
		return "", err
	}
	if err := r.updateBranch(opts, parent, who, msg, false, d); err != nil {
		return "", err
	}
	return parent, nil
}

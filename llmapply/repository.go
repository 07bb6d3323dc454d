package llmapply

import (
	"context"
	"errors"
	"fmt"

	"github.com/git-llm-apply/git-llm-apply/internal/engine"
	"github.com/git-llm-apply/git-llm-apply/internal/gitops"
	"github.com/git-llm-apply/git-llm-apply/internal/message"
	"github.com/git-llm-apply/git-llm-apply/internal/patch"
)

// ErrBranchMoved: the branch Record or Undo was to move was moved by
// someone else meanwhile (or another writer holds its lock); nothing
// was changed, and trying again sees the new tip.
var ErrBranchMoved = errors.New("the branch moved")

// ErrRootCommit: the commit Undo was to move a branch back from is a
// root commit, so there is nothing to move back to.
var ErrRootCommit = errors.New("a root commit has no parent to move back to")

// Repository is a git repository, read and written without running
// git: its index, working tree and revisions are sources, and Record
// writes commits and moves one branch, never the checkout, the index or
// HEAD. A Repository is not safe for concurrent use.
type Repository struct {
	dir   string // as OpenRepository was given it, for Refresh
	repo  *gitops.Repo
	patch patch.Options
}

// OpenRepository opens the repository dir is in (as git finds it from
// there, GIT_DIR included).
func OpenRepository(dir string) (*Repository, error) {
	repo, err := gitops.Open(dir)
	if err != nil {
		return nil, err
	}
	n, err := repo.Abbrev()
	if err != nil {
		return nil, err
	}
	return &Repository{dir: dir, repo: repo, patch: patch.Options{Abbrev: n, Unique: repo.ShortID}}, nil
}

// Refresh opens the repository again when its configuration changed
// since it was read: a file of it (the repository's config and
// config.worktree, the user's and the system's, the files they
// include, and those looked for but missing) was created, removed or
// written, or HEAD names another branch (includeIf onbranch:). A
// Repository kept open across requests, as a server keeps it, then
// sees a configuration edit as a new git command would; objects,
// refs, the index and the working tree are read afresh by every call
// anyway. It reports whether it opened again; on an error r is left
// as it was.
func (r *Repository) Refresh() (bool, error) {
	if !r.repo.ConfigChanged() {
		return false, nil
	}
	fresh, err := OpenRepository(r.dir)
	if err != nil {
		return false, err
	}
	*r = *fresh
	return true, nil
}

// Root is the top of the working tree ("" for a bare repository).
func (r *Repository) Root() string { return r.repo.Root() }

// Index is the source of the files staged in the index.
func (r *Repository) Index() (*Source, error) {
	if r.repo.Root() == "" {
		return nil, fmt.Errorf("%w: a bare repository has no index", ErrInvalidOption)
	}
	src, err := r.repo.IndexSource()
	if err != nil {
		return nil, err
	}
	return &Source{src: src, repo: r, what: "index"}, nil
}

// Worktree is the source of the files of the working tree, as git add
// would stage them (tracked and untracked files, .gitignore honoured).
func (r *Repository) Worktree() (*Source, error) {
	if r.repo.Root() == "" {
		return nil, fmt.Errorf("%w: a bare repository has no working tree", ErrInvalidOption)
	}
	src, err := r.repo.WorktreeSource()
	if err != nil {
		return nil, err
	}
	return &Source{src: src, repo: r, what: "worktree"}, nil
}

// Revision is the source of the files of a commit: rev is what git
// rev-parse takes for one (HEAD, a branch, a tag, an id, with ~ and ^).
func (r *Repository) Revision(rev string) (*Source, error) {
	src, _, err := r.repo.RevisionSource(rev)
	if err != nil {
		return nil, err
	}
	return &Source{src: src, repo: r, what: rev}, nil
}

// BranchTip is the commit refs/heads/<name> is at, and whether the
// branch exists.
func (r *Repository) BranchTip(name string) (commit string, exists bool, err error) {
	commit, exists, err = r.repo.BranchTip(name)
	return commit, exists, err
}

// ShortID is id abbreviated as git shows it in this repository.
func (r *Repository) ShortID(id string) string { return r.patch.ShortID(id) }

// RecordOptions steer Record.
type RecordOptions struct {
	Options
	// Branch is the branch to record on. An existing branch is
	// appended to, and the reply resolved against its tip; a new one
	// starts at Onto. "" names a new branch llm/<a few words of the
	// reply's description>.
	Branch string
	// Onto is where a new branch starts: a revision, "" for HEAD (or
	// Base, when Base is a revision).
	Onto string
	// Base is what a new branch's reply is resolved against: "" or
	// "index", "worktree", or a revision. What the base holds that the
	// commit Onto does not (staged changes) becomes part of the commit,
	// and the report notes it.
	Base string
	// Message is the commit message; "" takes the reply's description.
	Message string
	// Trailers are "Key: value" lines that end the commit message after
	// its LLM-Reply trailer.
	Trailers []string
	// Worktree is the top of the linked worktree whose HEAD is Branch
	// (see LinkedWorktree), if it is checked out there: Record moves
	// the branch all the same, and the caller brings the worktree's
	// files along with UpdateWorktree. A branch checked out anywhere
	// else is refused.
	Worktree string
}

// Record resolves reply as Resolve does and records its changes as one
// commit on a branch, which it then moves by compare-and-swap with a
// reflog entry (ErrBranchMoved when another writer got there first:
// nothing is recorded). A reply whose edits fail records nothing
// (unless Partial) and is not an error: see Result.OK. The checkout,
// the index and HEAD are never written; a branch checked out in a
// worktree is refused.
func (r *Repository) Record(ctx context.Context, reply string, o RecordOptions) (*Result, error) {
	ro, err := o.engineOptions()
	if err != nil {
		return nil, err
	}
	ro.Message, ro.Patch = o.Message, r.patch
	t, err := r.target(o, func() (string, []string) { return describe(reply, ro) })
	if err != nil {
		return nil, err
	}
	ro.Parent = t.tree
	expect := ""
	if t.exists {
		expect = t.parent
		// A reply the branch recorded already (a call sent again) is
		// not applied twice (SPEC section 5).
		ro.Recorded = r.repo.RecordedReplies(t.parent)
	}
	w, err := r.repo.NewBranchWriter(gitops.WriteOptions{Branch: t.branch, Parent: t.parent, Expect: expect, ReflogMsg: t.reflog, Worktree: o.Worktree})
	if err != nil {
		return nil, recordError(err)
	}
	defer w.Close()
	res, err := runOne(ctx, engine.Input{Source: "reply", Text: reply, Trailers: o.Trailers}, t.src, w, ro, t.branch)
	if err != nil {
		return nil, err
	}
	if len(w.Commits()) > 0 {
		if err := w.Finish(); err != nil {
			return nil, recordError(err)
		}
	}
	return res, nil
}

// recordError makes the errors of another writer ErrBranchMoved.
func recordError(err error) error {
	if errors.Is(err, gitops.ErrRefMoved) || errors.Is(err, gitops.ErrRefLocked) {
		return fmt.Errorf("%w: %v; nothing was recorded", ErrBranchMoved, err)
	}
	if errors.Is(err, gitops.ErrBadBranchName) || errors.Is(err, gitops.ErrBranchCheckedOut) {
		return fmt.Errorf("%w: %v", ErrInvalidOption, err)
	}
	return err
}

// target is where Record records and what it resolves against.
type target struct {
	branch string
	exists bool
	parent string        // the commit the new one builds on ("" on an unborn HEAD)
	src    engine.Source // what the reply resolves against
	tree   engine.Source // the parent's files, for the note on staged changes (nil: none)
	reflog string
}

// target decides as git llm-apply apply does: an existing branch is
// resolved against its tip; a new one starts at Onto and resolves
// against Base.
func (r *Repository) target(o RecordOptions, describe func() (string, []string)) (*target, error) {
	base := o.Base
	if base == "" {
		base = "index"
	}
	if o.Branch != "" {
		if err := gitops.ValidBranchName(o.Branch); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrInvalidOption, err)
		}
		tip, exists, err := r.repo.BranchTip(o.Branch)
		if err != nil {
			return nil, err
		}
		if exists {
			if o.Base != "" || o.Onto != "" {
				return nil, fmt.Errorf("%w: branch %s exists: replies are resolved against its tip, so base and onto do not apply", ErrInvalidOption, o.Branch)
			}
			src, _, err := r.repo.RevisionSource(tip)
			if err != nil {
				return nil, err
			}
			return &target{branch: o.Branch, exists: true, parent: tip, src: src, reflog: "llm-apply: append"}, nil
		}
	}
	onto := o.Onto
	if onto == "" {
		onto = "HEAD"
		if base != "index" && base != "worktree" {
			onto = base // a revision base is also where the branch starts
		}
	}
	t := &target{branch: o.Branch, reflog: "llm-apply: created from " + onto}
	parent, err := r.repo.ResolveCommit(onto)
	switch {
	case errors.Is(err, gitops.ErrUnbornHead) && o.Onto == "":
		// No commit yet: the first commit is a root commit.
	case err != nil:
		return nil, fmt.Errorf("%w: %v", ErrInvalidOption, err)
	default:
		t.parent = parent
	}
	var src *Source
	switch base {
	case "index":
		src, err = r.Index()
	case "worktree":
		src, err = r.Worktree()
	default:
		src, err = r.Revision(base)
	}
	if err != nil {
		return nil, err
	}
	t.src = src.src
	if t.parent != "" && (base == "index" || base == "worktree") {
		if t.tree, _, err = r.repo.RevisionSource(t.parent); err != nil {
			return nil, err
		}
	}
	if t.branch == "" {
		subject, paths := describe()
		if o.Message != "" {
			subject = o.Message
		}
		if t.branch, err = r.FreeBranch("llm/" + message.BranchSlug(subject, paths)); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// FreeBranch is name, or name-2, name-3 and so on: the first that
// names no branch yet.
func (r *Repository) FreeBranch(name string) (string, error) {
	if err := gitops.ValidBranchName(name); err != nil {
		return "", fmt.Errorf("%w: %v", ErrInvalidOption, err)
	}
	try := name
	for n := 2; ; n++ {
		_, exists, err := r.repo.BranchTip(try)
		if err != nil {
			return "", err
		}
		if !exists {
			return try, nil
		}
		try = fmt.Sprintf("%s-%d", name, n)
	}
}

// Undo moves branch back one commit, from expect, the commit it must
// still be at (ErrBranchMoved when it is not: someone else moved it),
// to expect's parent, by compare-and-swap with a reflog entry, and
// returns the parent. The commit stays in the repository (git reflog
// shows it) until git gc prunes it. A branch checked out in a worktree
// is refused.
func (r *Repository) Undo(branch, expect string) (string, error) {
	return r.UndoIn(branch, expect, "")
}

package llmapply

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/git-llm-apply/git-llm-apply/internal/engine"
	"github.com/git-llm-apply/git-llm-apply/internal/gitops"
	"github.com/git-llm-apply/git-llm-apply/internal/patch"
)

// ErrNoFile: the path a read names is no file of the source.
var ErrNoFile = errors.New("no such file")

// ReadFile returns the content of the file at path, a slash-separated
// path relative to the top of the source. A path that is absolute,
// leaves the source or goes into .git is refused as an edit's path is
// (an error that says why); a path that names no regular file or
// executable is ErrNoFile (a symbolic link or a submodule too).
func (s *Source) ReadFile(path string) ([]byte, error) {
	p, err := engine.CheckPath(path)
	if err != nil {
		return nil, err
	}
	e, err := s.src.Lookup(p)
	if errors.Is(err, engine.ErrNotExist) {
		return nil, fmt.Errorf("%w: %s is no file of %s", ErrNoFile, p, s.what)
	}
	if err != nil {
		return nil, err
	}
	switch e.Mode {
	case patch.ModeSymlink:
		return nil, fmt.Errorf("%w: %s is a symbolic link in %s", ErrNoFile, p, s.what)
	case patch.ModeGitlink:
		return nil, fmt.Errorf("%w: %s is a submodule in %s", ErrNoFile, p, s.what)
	}
	return s.src.Read(p)
}

// LinkedWorktree is the top of the linked worktree whose HEAD is
// branch, if there is one: the worktree a writer may keep in step with
// the branch (RecordOptions.Worktree, UndoIn, UpdateWorktree). The
// user's own checkout never counts.
func (r *Repository) LinkedWorktree(branch string) (string, bool) { return r.repo.HeadAt(branch) }

// CheckedOutAt is the top of the worktree where branch is checked out
// (the user's own checkout too), if any.
func (r *Repository) CheckedOutAt(branch string) (string, bool) { return r.repo.CheckedOutAt(branch) }

// AddWorktree adds a linked worktree at path with branch checked out,
// as git worktree add PATH BRANCH does. path must not exist or be an
// empty directory; branch must exist and be checked out nowhere. A
// ctx that ends stops git and removes what it had added.
func (r *Repository) AddWorktree(ctx context.Context, path, branch string) error {
	return r.repo.AddWorktree(ctx, path, branch)
}

// WorktreeChangesError is UpdateWorktree's refusal: files of the
// worktree the update would overwrite hold changes of their own.
// Nothing was updated.
type WorktreeChangesError struct {
	Root  string   // the worktree's top
	Paths []string // the files, sorted
	// Untracked are those of Paths that are untracked files in the way
	// of a new one.
	Untracked []string
	msg       string
}

func (e *WorktreeChangesError) Error() string { return e.msg }

// UpdateWorktree brings the files and index of the linked worktree at
// path from commit from to commit to, once its branch has moved from
// one to the other (Record, UndoIn). Only the files that differ between
// the two commits are written; a local change to one of them (or an
// untracked file where a new one goes) stops it with nothing changed:
// a *WorktreeChangesError naming every such file. Local changes to
// other files are kept. A ctx that ends stops git; the error then
// wraps ctx's, and the files the update changes may be half written
// (none had changes of its own: restoring them from to finishes it).
func (r *Repository) UpdateWorktree(ctx context.Context, path, from, to string) error {
	err := r.repo.UpdateWorktree(ctx, path, from, to)
	var lc *gitops.LocalChangesError
	if errors.As(err, &lc) {
		return &WorktreeChangesError{Root: lc.Root, Paths: lc.Paths, Untracked: lc.Untracked, msg: lc.Error()}
	}
	return err
}

// UndoIn is Undo for a branch that is the HEAD of the linked worktree
// at worktree ("" for none: then as Undo), whose files the caller then
// brings back with UpdateWorktree.
func (r *Repository) UndoIn(branch, expect, worktree string) (string, error) {
	if err := gitops.ValidBranchName(branch); err != nil {
		return "", fmt.Errorf("%w: %v", ErrInvalidOption, err)
	}
	parent, err := r.repo.MoveBranchBack(branch, expect, "llm-apply: undo "+r.ShortID(expect), worktree)
	if errors.Is(err, gitops.ErrNoParent) {
		return "", fmt.Errorf("%w: %v", ErrRootCommit, err)
	}
	if err != nil {
		return "", recordError(err)
	}
	return parent, nil
}

// Commit is a commit of a branch, as CommitsWithTrailer lists it.
type Commit struct {
	ID      string `json:"id" jsonschema:"the full commit id"`
	Parent  string `json:"parent" jsonschema:"the full id of its first parent (empty for a root commit)"`
	Subject string `json:"subject" jsonschema:"the first line of the commit message"`
}

// CommitsWithTrailer returns the commit branch is at ("" when it does
// not exist) and, oldest first, those of its last 100 first-parent
// commits whose message ends with the trailer "key: value".
func (r *Repository) CommitsWithTrailer(branch, key, value string) (string, []Commit, error) {
	tip, exists, err := r.repo.BranchTip(branch)
	if err != nil || !exists {
		return "", nil, err
	}
	found, err := r.repo.CommitsWithTrailer(tip, key, value)
	if err != nil {
		return "", nil, err
	}
	slices.Reverse(found)
	out := []Commit{}
	for _, c := range found {
		out = append(out, Commit{ID: c.ID, Parent: c.Parent, Subject: c.Subject})
	}
	return tip, out, nil
}

// CommitFiles returns the files commit (a full id) changes from its
// first parent: status A, M or D (no renames are looked for) and the
// lines its diff adds and deletes.
func (r *Repository) CommitFiles(commit string) ([]FileStat, error) {
	changes, err := r.repo.CommitChanges(commit)
	if err != nil {
		return nil, err
	}
	diff, err := patch.Format(changes, r.patch)
	if err != nil {
		return nil, err
	}
	files := []FileStat{}
	for _, f := range patch.FileStats(changes, diff) {
		files = append(files, FileStat{Status: f.Status, Path: f.Path, OldPath: f.OldPath, Added: f.Added, Deleted: f.Deleted})
	}
	return files, nil
}

package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops"
	"github.com/git-llm-apply/git-llm-apply/internal/shquote"
)

// worktreePlan is what apply does with linked worktrees besides
// recording: add one (--worktree), and keep the one where an existing
// branch is checked out in step with it.
type worktreePlan struct {
	add    string // add a linked worktree here once the branch exists
	name   string // add as the user gave it (relative to -C), for the report
	follow string // the linked worktree where the branch is checked out
	// interrupted: a signal left a worktree step undone (finish).
	interrupted bool
}

// planWorktrees checks, before anything is recorded, what the
// worktrees allow: a --worktree path must be new or an empty
// directory, and a branch may be checked out only in a linked
// worktree, never in the user's own checkout.
func planWorktrees(ctx context.Context, repo *gitops.Repo, o applyOptions, t *target) (*worktreePlan, error) {
	p := &worktreePlan{}
	if t.exists {
		if at, ok := repo.CheckedOutAt(t.branch); ok {
			head, ok := repo.HeadAt(t.branch)
			if !ok {
				return nil, fmt.Errorf("%w: %s is checked out in the worktree at %s, which is your checkout (or is rebasing or bisecting it); name another branch with -b",
					gitops.ErrBranchCheckedOut, t.branch, at)
			}
			p.follow = head
		}
	}
	if o.Worktree == "" {
		return p, nil
	}
	abs, err := filepath.Abs(under(o.Dir, o.Worktree))
	if err != nil {
		return nil, err
	}
	if p.follow != "" {
		if gitops.SameDir(abs, p.follow) {
			return p, nil // already there: it follows the branch
		}
		return nil, usageError("--worktree %s: %s is already checked out in the worktree at %s, and a branch can be checked out in one worktree only", o.Worktree, t.branch, p.follow)
	}
	switch ents, err := os.ReadDir(abs); {
	case err == nil && len(ents) > 0:
		return nil, usageError("--worktree %s: the path exists and is not empty; nothing was recorded", o.Worktree)
	case err != nil && !errors.Is(err, os.ErrNotExist):
		return nil, usageError("--worktree %s: %v; nothing was recorded", o.Worktree, pathErr(err))
	}
	p.add, p.name = abs, o.Worktree
	return p, nil
}

// finish runs once the commits are recorded: the followed worktree is
// brought up to date, unless a file the commits change has changes of
// its own there, which are never overwritten (SPEC section 3,
// worktrees); and the new worktree is added. It returns what to tell
// the user. Both run git, which a signal stops (SPEC section 2):
// interrupted before or while they run, they are left undone, a
// worktree half added is removed, and the notes say the command that
// does what is left. status is the exit status the replies earn
// (statusOf): a run with none recorded adds a worktree to an existing
// branch only when every edit resolved.
func (p *worktreePlan) finish(ctx context.Context, repo *gitops.Repo, t *target, commits []string, status error) ([]string, error) {
	var notes []string
	if p.follow != "" && len(commits) > 0 {
		tip := commits[len(commits)-1]
		var lc *gitops.LocalChangesError
		var stopped *gitops.UpdateInterruptedError
		if ctx.Err() != nil {
			p.interrupted = true
			notes = append(notes, fmt.Sprintf("Interrupted: the worktree at %s was not brought up to date; to do it, run there: git read-tree -m -u %s %s",
				p.follow, t.parent[:12], tip[:12]))
		} else if err := repo.UpdateWorktree(ctx, p.follow, t.parent, tip); errors.As(err, &lc) {
			notes = append(notes, worktreeNotUpdated(lc, t.parent, tip))
		} else if errors.As(err, &stopped) {
			p.interrupted = true
			// The files it changes had no changes of their own: what
			// read-tree left half written is the branch's to take back.
			return append(notes, fmt.Sprintf("Interrupted while the worktree at %s was brought up to date; the files it changes had no changes of their own, so to finish, run there: git restore --source=%s --staged --worktree -- %s",
				p.follow, tip[:12], shellWords(stopped.Paths))), nil
		} else if err != nil {
			return notes, fmt.Errorf("the worktree at %s could not be brought up to date: %w", p.follow, err)
		} else {
			notes = append(notes, fmt.Sprintf("Updated the worktree at %s to the new commits.", p.follow))
		}
	}
	if p.add == "" {
		return notes, nil
	}
	if len(commits) == 0 && (!t.exists || status != nil) {
		return append(notes, fmt.Sprintf("No worktree was added at %s: nothing was recorded.", p.name)), nil
	}
	added := false
	if ctx.Err() == nil {
		err := repo.AddWorktree(ctx, p.add, t.branch)
		if err != nil && ctx.Err() == nil {
			return notes, fmt.Errorf("the worktree could not be added: %w", err)
		}
		added = err == nil
	}
	if !added {
		p.interrupted = true
		return append(notes, fmt.Sprintf("Interrupted: no worktree was added at %s; to add it, run: git worktree add %s %s", p.name, shellArg(p.name), shellArg(t.branch))), nil
	}
	return append(notes, fmt.Sprintf("Added a worktree at %s with %s checked out.", p.name, t.branch)), nil
}

// worktreeNotUpdated says which files kept a linked worktree from
// following its branch from one commit to another, and how to bring it
// along once they are dealt with.
func worktreeNotUpdated(lc *gitops.LocalChangesError, from, to string) string {
	return fmt.Sprintf("The worktree at %s was not brought up to date, so that your changes there are kept: %s. To bring it up to date once they are committed, stashed or removed, run there: git read-tree -m -u %s %s",
		lc.Root, strings.Join(lc.Paths, ", ")+map[bool]string{true: " has changes of its own", false: " have changes of their own"}[len(lc.Paths) == 1], from[:12], to[:12])
}

// shellWords is words quoted for sh where they need it, space-separated.
func shellWords(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = shquote.Word(w)
	}
	return strings.Join(q, " ")
}

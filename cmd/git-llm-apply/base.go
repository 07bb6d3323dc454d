package main

import (
	"os"

	"github.com/git-llm-apply/git-llm-apply/internal/engine"
	"github.com/git-llm-apply/git-llm-apply/internal/gitops"
)

// openRepo opens the repository around dir, where the command runs
// ("" for the process's working directory); arg is -C as given.
func openRepo(dir, arg string) (*gitops.Repo, error) {
	if err := checkStartDir(dir, arg); err != nil {
		return nil, err
	}
	if dir == "" {
		var err error
		if dir, err = os.Getwd(); err != nil {
			return nil, err
		}
	}
	return gitops.Open(dir)
}

// openBase returns the source --base names: the index, the working
// tree, or a revision (and that revision's commit id).
func openBase(repo *gitops.Repo, base string) (engine.Source, string, error) {
	var src engine.Source
	var err error
	commit := ""
	switch base {
	case "index":
		if repo.Root() == "" {
			// A bare repository has no index to speak of (an empty one
			// would make every file look absent).
			return nil, "", usageError("this repository is bare: it has no index to resolve edits against; name a revision with --base (for example --base HEAD)")
		}
		src, err = repo.IndexSource()
	case "worktree":
		if repo.Root() == "" {
			return nil, "", usageError("--base worktree needs a working tree; this repository is bare")
		}
		src, err = repo.WorktreeSource()
	default:
		src, commit, err = repo.RevisionSource(base)
	}
	if err != nil {
		return nil, "", err
	}
	return src, commit, nil
}

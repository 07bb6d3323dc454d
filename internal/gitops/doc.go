// Package gitops is where git llm-apply meets the repository: it finds
// the repository (linked worktrees included), reads the bases that
// edits are resolved against (the index, a revision's tree, the working
// tree) as engine.Source values, and records resolved replies as
// commits on a branch without touching the user's HEAD, index or
// working tree.
//
// Recording follows git's own rules. A BranchWriter writes blobs, the
// trees along the touched paths (bottom-up, each once, none left
// unreferenced) and a commit per Record call; Finish then moves
// refs/heads/<branch> with git's lock-file protocol, compares and swaps
// against the value the caller read at the start, and appends a reflog
// entry. Author and committer come from the GIT_AUTHOR_* and
// GIT_COMMITTER_* environment variables and git configuration, as git
// takes them, so fixed dates give reproducible commit ids.
//
// Linked worktrees are added, checked for local changes and brought up
// to date after their branch moved (AddWorktree, WorktreeClean,
// UpdateWorktree); the pre-commit check reads the staged blobs, their
// gitattributes and the hooks directory (StagedFiles, CheckAttr,
// HooksDir). Object names are abbreviated as git abbreviates them
// (Abbrev, ShortID).
//
// git's formats are read and written by the packages under
// gitops/internal, which only gitops can use; no git library is
// linked. Reading a repository and recording on it run no git and no code the
// repository configures (hooks, filters, fsmonitor, a fetch's
// transport), so a hostile configuration cannot run anything through
// check, translate or apply. The git CLI runs only for porcelain steps
// the user asks for: adding a linked worktree, checking whether one is
// clean and bringing it up to date (which then run that repository's
// checkout hooks and filters, as git does), and the pre-commit check,
// which git runs as a hook anyway. Each names the repository
// explicitly, with the caller's GIT_DIR-style variables removed;
// worktree steps fall back to code of gitops when git is not on PATH.
//
// git's on-disk formats are read by the packages under
// gitops/internal, which gitops alone uses: index (the index file,
// versions 2 to 4, split and sparse), odb (loose objects and packs,
// their indexes read in place; writing a pack and its index), config (configuration files, includes
// and the environment's settings) and wildmatch (git's glob matching).
package gitops

// Package llmapply applies language-model edit replies as a library:
// it reads a reply (SEARCH/REPLACE blocks, unified diffs, agent tool
// calls and the other formats git llm-apply knows), resolves its edits
// against a source of files and gives the new contents, the canonical
// git diff and a report of every edit: applied or failed, at which
// rung of the matching ladder, and for a failed one why, with the
// closest lines of the file, ready to send back to the model.
//
// A source is a map of paths to contents (MapSource), a directory
// (DirSource), any io/fs file system (FSSource), or a repository's
// index, working tree or revision (OpenRepository, then
// Repository.Index, Repository.Worktree, Repository.Revision). Resolve
// writes nothing. Repository.Record records a reply as one commit on a
// branch, without touching the checkout, the index or HEAD;
// Repository.Undo moves such a branch back one commit.
//
// # Compatibility
//
// This package is the Go API of git llm-apply, and the only one: every
// other package of the module lives under internal/ (engine, translate,
// patch, gitops), which Go lets no other module import, and changes
// without notice. From v1.0.0 the
// exported identifiers of llmapply follow semantic versioning: within a
// major version nothing exported is removed or changes its meaning,
// fields and functions may be added, and the wording of reports and
// error messages (which are for people) may improve. What counts as a
// match is the matching ladder's, which may learn to place more edits
// but never to place an edit elsewhere than it placed it before.
package llmapply

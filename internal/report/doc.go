// Package report makes the machine-readable account of a run (SPEC
// section 8), the document --json prints (docs/usage.md, --json), from
// the results of engine.Run: each reply's status, commit, edits (where
// each applied, or why it failed and the closest place), changed files,
// shell blocks, notes and warnings. It decides nothing: it says what
// the results say.
package report

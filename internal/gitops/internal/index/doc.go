// Package index reads the git index file as Documentation/gitformat-index.txt
// describes it: versions 2, 3 and 4 (prefix-compressed names), entries
// with extended flags (intent-to-add, skip-worktree), conflict stages,
// the extensions ("link" of a split index, with its EWAH bitmaps as
// ewah/ewah_io.c writes them, and "sdir" of a sparse index, whose
// directory entries are expanded to their trees' files), the others
// skipped when optional and refused otherwise.
//
// The file is read once and paths are looked up in place, without
// decoding every entry: a reply touches a handful of paths of an index
// that may hold a hundred thousand. Split and sparse indexes are
// decoded whole.
//
// Errors read as sentences without a package prefix: they reach the
// user unchanged.
package index

// Package patch writes what git writes for a set of file changes:
// plain structs in, bytes out. A FileChange holds one file's old and
// new paths, modes and contents; Format turns changes into the unified
// diff `git diff --binary -M` prints (git-diff(1), "Generating patch
// text with -p"), with xdiff's hunk headers and function context and
// binary blobs as "GIT binary patch" literals;
// Verify checks such a diff against its changes by parsing it with
// go-gitdiff and applying it; FormatMail wraps a diff in the mailbox
// `git format-patch` writes (git-format-patch(1): the mbox "From "
// line, RFC 2822 and RFC 2047 headers, diffstat and summary), and
// FileName names its file. BlobID is git's blob object id.
//
// The package knows nothing of replies, of matching or of a
// repository: package engine builds the changes, package gitops stores
// them.
package patch

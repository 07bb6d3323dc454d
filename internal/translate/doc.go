// Package translate reads model replies, one reader per format, into
// the neutral Operation type that package engine resolves. It knows
// nothing of git or of the files being edited: a reply is text in,
// operations (with the reply line each came from) out.
//
// Parse is the one entry point: it detects the formats a reply holds
// (Detect) and runs the reader of each. The readers share a skeleton
// (reader.go): they sort the reply's lines into kinds, read the blocks
// of their format, gather the rest as prose, read fenced shell blocks
// with readShell (shell.go), and report warnings and failures with
// their reply lines (errors.go). The contract every reader keeps is
// the doc comment of the reader type.
package translate

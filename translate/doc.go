// Package translate reads model replies, one reader per format, into
// the neutral Operation type that package engine resolves. It knows
// nothing of git or of the files being edited: a reply is text in,
// operations (with the reply line each came from) out.
package translate

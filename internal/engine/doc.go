// Package engine resolves the edit operations of a model reply against
// a base (the index, a revision or the working tree), climbing the
// matching ladder of SPEC section 5, and turns the result into file
// changes (patch.FileChange) and a canonical git diff, written and
// verified by package patch. It knows nothing of git's storage: a
// Source supplies file contents and a Recorder takes the result;
// package gitops provides both.
package engine

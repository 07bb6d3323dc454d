// Package wildmatch is git's glob matching with WM_PATHNAME (git's
// wildmatch.c; the pattern syntax of Documentation/gitignore.txt,
// "PATTERN FORMAT"), as includeIf conditions (git-config.txt,
// "Conditional includes") and gitattributes patterns use it.
package wildmatch

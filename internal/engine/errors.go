package engine

import (
	"errors"
	"fmt"
)

// Why an edit could not be resolved. An *EditError wraps one of these,
// so callers test the kind with errors.Is.
var (
	ErrNotFound    = errors.New("text not found")
	ErrAmbiguous   = errors.New("text found in several places")
	ErrOverlap     = errors.New("edits overlap")
	ErrNoFile      = errors.New("no such file")
	ErrFileExists  = errors.New("file already exists")
	ErrBinary      = errors.New("binary file")
	ErrNotEditable = errors.New("not a regular file")
	ErrUnsafePath  = errors.New("unsafe path")
	ErrElided      = errors.New("placeholder instead of code")
	ErrNoAnchor    = errors.New("nothing to anchor the edit to")
	ErrUnreadable  = errors.New("block could not be read")
	// ErrCallFailed: another edit of the same tool call failed, and
	// the agent's tool applies a call's edits all or none.
	ErrCallFailed = errors.New("another edit of the same tool call failed")
)

// Closest is the place in a file that best resembles text an edit
// looked for and did not find.
type Closest struct {
	Start, End int     // 1-based, inclusive
	Similarity float64 // 0..1; 1 only for the very lines looked for
	Text       string
	// Differ lists the lines (1-based) that do not read as a line the
	// edit looked for, compared as its format compares lines.
	Differ []int
	// Missing lists the edit's lines that read as none of these lines,
	// compared as Differ compares them.
	Missing []MissingLine
	// Rung is the rung above the edit's own at which these lines match
	// the edit's, and Fuzz the --fuzz level that climbs to it (Rung is
	// 0 when no rung does).
	Rung Rung
	Fuzz Fuzz
}

// MissingLine is a line of the edit's lines to find that none of the
// closest lines reads as: its number among them (1-based), its text,
// and the closest line it stands after in their order (Start-1 when it
// comes first).
type MissingLine struct {
	Line, After int
	Text        string
}

// EditError is a failed edit: which one, where it came from, and why.
type EditError struct {
	N    int    // 1-based number of the edit in its reply
	Path string // file the edit names (resolved when it could be)
	Line int    // reply line of the edit
	Err  error  // one of the Err* kinds
	Msg  string // one sentence saying why, for a person or a model
	// Places lists the 1-based lines where ambiguous text stands.
	Places  []int
	Closest *Closest
	// Suggestions are the closest paths of the base to a path that is
	// no file there (ErrNoFile), best first (see closestPaths).
	Suggestions []string
	// Elsewhere, when set, says what the edit does in the other base
	// (see RunOptions.Other): advice only.
	Elsewhere *Elsewhere
}

func (e *EditError) Error() string {
	return fmt.Sprintf("edit %d (%s, reply line %d): %s", e.N, e.Path, e.Line, e.Msg)
}

func (e *EditError) Unwrap() error { return e.Err }

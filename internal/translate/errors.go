package translate

import (
	"errors"
	"fmt"
	"sort"
)

// ErrNoEdits is returned when a reply holds no edit of any format.
var ErrNoEdits = errors.New("no edit found in the reply")

// ErrUnknownFormat is returned for a format name no reader has.
var ErrUnknownFormat = errors.New("unknown format")

// ParseError is a malformed reply: Line is the 1-based reply line
// where the problem was seen.
type ParseError struct {
	Format string
	Line   int
	Msg    string
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("%s: reply line %d: %s", e.Format, e.Line, e.Msg)
}

// parseErr is the *ParseError of a reader of format that stopped at
// reply line line. Every reader builds its errors here, as it builds
// its warnings with warning, so that each names the line it is about.
func parseErr(format string, line int, msg string, args ...any) *ParseError {
	return &ParseError{Format: format, Line: line, Msg: fmt.Sprintf(msg, args...)}
}

// warning is the Warning about reply line line. Every reader builds
// its warnings here so that each names the line it is about.
func warning(line int, format string, args ...any) Warning {
	return Warning{Line: line, Msg: fmt.Sprintf(format, args...)}
}

// warnf records a warning about reply line line: the reply is read,
// and the user is told what was read in place of what.
func (r *Reply) warnf(line int, format string, args ...any) {
	r.Warnings = append(r.Warnings, warning(line, format, args...))
}

// failf records that the block at reply line line, editing path ("" when
// unknown), could not be read. A reader whose markers delimit its blocks
// fails the block rather than the reply: the block becomes an Invalid
// operation (see normalize) and the blocks after it still count.
func (r *Reply) failf(line int, path, format string, args ...any) {
	r.Failed = append(r.Failed, Failure{Line: line, Path: path, Msg: fmt.Sprintf(format, args...)})
}

// sortWarnings orders ws by reply line. The sort is stable: warnings
// about one line keep the order the reader found them in.
func sortWarnings(ws []Warning) {
	sort.SliceStable(ws, func(i, j int) bool { return ws[i].Line < ws[j].Line })
}

package translate

import (
	"errors"
	"fmt"
)

// ErrNoEdits is returned when a reply holds no edit of any format.
var ErrNoEdits = errors.New("translate: no edit found in the reply")

// ErrUnknownFormat is returned for a format name no reader has.
var ErrUnknownFormat = errors.New("translate: unknown format")

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

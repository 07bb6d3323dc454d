package engine

import (
	"errors"
	"fmt"
	"strings"
)

// Limits bound what a run reads, so that a hostile or runaway reply, or
// an edit aimed at a huge file, is refused at once with an error that
// names the limit, instead of being handled slowly in unbounded memory.
// A field of zero or less sets no limit.
type Limits struct {
	ReplySize  int64 // bytes of one reply (--max-reply-size)
	FileSize   int64 // bytes of a file an operation touches (--max-file-size)
	LineLength int   // bytes of one line, of a reply or of a file an operation touches (--max-line-length)
	Edits      int   // operations in one reply (--max-edits)
}

// DefaultLimits are the limits of the command line. They let through
// any reply and source file a person would write, with room to spare;
// each has its flag to raise it.
var DefaultLimits = Limits{
	ReplySize:  64 << 20,
	FileSize:   64 << 20,
	LineLength: 1 << 20,
	Edits:      10000,
}

// ErrTooLarge: an input is over one of the Limits.
var ErrTooLarge = errors.New("over a limit")

// checkReply refuses a reply over the size or line-length limit, naming
// the first line that is too long.
func (l Limits) checkReply(text string) error {
	if l.ReplySize > 0 && int64(len(text)) > l.ReplySize {
		return fmt.Errorf("%w: the reply is %s, more than --max-reply-size (%s)", ErrTooLarge, Size(int64(len(text))), Size(l.ReplySize))
	}
	if l.LineLength <= 0 {
		return nil
	}
	for n, rest := 1, text; rest != ""; n++ {
		i := strings.IndexByte(rest, '\n')
		if i < 0 {
			i = len(rest)
		}
		if i > l.LineLength {
			return fmt.Errorf("%w: reply line %d is %s long, more than --max-line-length (%s)", ErrTooLarge, n, Size(int64(i)), Size(int64(l.LineLength)))
		}
		rest = rest[min(i+1, len(rest)):]
	}
	return nil
}

// checkEdits refuses a reply with more operations than the limit.
func (l Limits) checkEdits(n int) error {
	if l.Edits > 0 && n > l.Edits {
		return fmt.Errorf("%w: the reply holds %d operations, more than --max-edits (%d)", ErrTooLarge, n, l.Edits)
	}
	return nil
}

// checkSize says why the file path, of size bytes, may not be touched,
// or "" when it may.
func (l Limits) checkSize(path string, size int64) string {
	if l.FileSize > 0 && size > l.FileSize {
		return fmt.Sprintf("%s is %s, more than --max-file-size (%s)", path, Size(size), Size(l.FileSize))
	}
	return ""
}

// checkLines says why the file path, read into d, may not be touched
// for a line over the limit (its terminator not counted), or "".
func (l Limits) checkLines(path string, d *doc) string {
	why := ""
	// No line of the text is longer than its longest, terminator and
	// all: only a doc with a longer one needs a look at each line.
	if l.LineLength > 0 && (d.lazy || len(d.log) > 0 || d.longest > l.LineLength) {
		d.each(0, func(i int, line string) bool {
			if n := len(trimEOL(line)); n > l.LineLength {
				why = fmt.Sprintf("line %d of %s is %s long, more than --max-line-length (%s)", i+1, path, Size(int64(n)), Size(int64(l.LineLength)))
			}
			return why == ""
		})
	}
	return why
}

// Size writes a byte count as a person reads it: "512 bytes",
// "64 KiB", "1.5 MiB".
func Size(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d %s", n, plural(int(n), "byte", "bytes"))
	}
	v, suffix := float64(n)/unit, "KiB"
	for _, s := range []string{"MiB", "GiB", "TiB"} {
		if v < unit {
			break
		}
		v, suffix = v/unit, s
	}
	if v == float64(int64(v)) {
		return fmt.Sprintf("%d %s", int64(v), suffix)
	}
	return fmt.Sprintf("%.1f %s", v, suffix)
}

package engine

import (
	"context"
	"errors"

	"github.com/git-llm-apply/git-llm-apply/internal/patch"
)

// ErrNotExist is returned by a Source for a path it does not hold.
var ErrNotExist = errors.New("no such file in the base")

// Entry is what a base knows of one path.
type Entry struct {
	Mode patch.Mode
	// ID is the hex blob id of the content when the base knows it
	// without hashing (index and tree entries); empty otherwise.
	ID string
}

// Source is where file contents come from: the index, a revision's
// tree or the working tree. Paths are slash-separated and relative to
// the repository root.
type Source interface {
	// Lookup returns the entry at path, or ErrNotExist.
	Lookup(path string) (Entry, error)
	// Read returns the content of the file at path, or ErrNotExist.
	Read(path string) ([]byte, error)
	// Paths returns every file path of the base (any order).
	Paths() ([]string, error)
}

// AheadReader is a Source that can hand out a file's content before it
// has finished checking that it is the base's: the index source reads a
// staged file's working-tree copy and hashes it meanwhile. ReadAhead
// returns the content and, when a check is still due, check, which
// waits for it and reports whether the content is the base's (nil: it
// is). The resolver reads a reply's files this way and calls every
// check before its result is used; when one fails, the reply is
// resolved again from Read. ReadAhead stops when ctx ends, returning
// its error, as ContextReader's ReadContext does.
type AheadReader interface {
	ReadAhead(ctx context.Context, path string) (data []byte, check func() bool, err error)
}

// ContextReader is a Source whose reads stop when ctx ends, returning
// its error: reading, inflating and hashing a large file look at ctx
// every few megabytes (SPEC section 2). The resolver reads through it
// when a Source has it.
type ContextReader interface {
	ReadContext(ctx context.Context, path string) ([]byte, error)
}

// readContext reads path from src through its ContextReader when it
// has one.
func readContext(ctx context.Context, src Source, path string) ([]byte, error) {
	if c, ok := src.(ContextReader); ok {
		return c.ReadContext(ctx, path)
	}
	return src.Read(path)
}

// Sizer is a Source that knows the size of a file's content without
// reading it: a blob's size from its object header, inflating none of
// its body. The resolver asks it before reading a file when a file-size
// limit is set, so that a file over --max-file-size is refused unread
// (SPEC section 5). known is false when the size cannot be had that
// way; the file is then read and its length checked.
type Sizer interface {
	Size(path string) (size int64, known bool, err error)
}

// sizeOf asks src's Sizer, when it has one, for the size of path.
func sizeOf(src Source, path string) (int64, bool, error) {
	if s, ok := src.(Sizer); ok {
		return s.Size(path)
	}
	return 0, false, nil
}

// Recorder is where resolved replies go: each Record call makes one
// commit holding changes on top of the previous one, and returns its id.
// When ctx ends first, Record returns its error and the commit is not
// made (objects written meanwhile may stay, unreachable).
type Recorder interface {
	Record(ctx context.Context, changes []patch.FileChange, message string) (commit string, err error)
}

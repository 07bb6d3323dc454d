package patch

import (
	"bytes"
	"crypto/sha1"
	"encoding/hex"
	"strconv"
)

// Mode is a git tree entry mode.
type Mode uint32

// The modes a tree entry can have.
const (
	ModeRegular Mode = 0o100644
	ModeExec    Mode = 0o100755
	ModeSymlink Mode = 0o120000
	ModeGitlink Mode = 0o160000
)

// Editable reports whether files of mode m may be edited.
func (m Mode) Editable() bool { return m == ModeRegular || m == ModeExec }

// FileChange is one file's old and new state. A created file has an
// empty OldPath, a deleted one an empty NewPath; a rename has both,
// different. Contents are the exact bytes of the blobs.
type FileChange struct {
	OldPath, NewPath string
	OldMode, NewMode Mode
	Old, New         []byte

	// OldID and NewID are the hex blob ids of Old and New when the
	// caller knows them: a base's index or tree entry names its blob,
	// and a caller that hashed the new content keeps its id. Format
	// writes them instead of hashing the contents, each a pass over
	// the file; an empty one is computed. Verify trusts them only for
	// long contents (see verifyIDs).
	OldID, NewID string

	// OldStarts, when set, is where each line of Old starts, and
	// len(Old) last, as a caller that cut Old into lines knows it:
	// Format then finds the lines around a change without counting
	// them. Verify never reads it: it counts Old's lines itself, so
	// that a wrong table cannot make it agree with a wrong diff.
	OldStarts []int32

	// Regions, when set, are the spans where Old and New differ, as
	// an editor recorded its edits; Format diffs only around them in a
	// long file. It checks them and diffs the whole file when they do
	// not fit, so a stale hint is slow, never wrong.
	Regions []Span
}

// Span is a region where a file changed: old lines [OldStart, OldEnd)
// became new lines [NewStart, NewEnd), counted from 0. Lines outside
// every span are the old lines, unchanged and aligned one to one.
type Span struct{ OldStart, OldEnd, NewStart, NewEnd int }

// IsCreate reports whether c adds a file.
func (c FileChange) IsCreate() bool { return c.OldPath == "" }

// IsDelete reports whether c removes a file.
func (c FileChange) IsDelete() bool { return c.NewPath == "" }

// IsRename reports whether c moves a file.
func (c FileChange) IsRename() bool {
	return c.OldPath != "" && c.NewPath != "" && c.OldPath != c.NewPath
}

// Path is the path a person would name the change by: the new path,
// or the old one for a deletion.
func (c FileChange) Path() string {
	if c.NewPath != "" {
		return c.NewPath
	}
	return c.OldPath
}

// BlobID returns the hex git (SHA-1) object id of a blob holding data,
// as `git hash-object` prints it.
//
// It hashes a megabyte at a time: the hash of a long file in one call
// is one run of assembly that the runtime cannot preempt, and a
// collection that starts meanwhile would signal the thread over and
// over until it ends. Between calls the goroutine stops at once.
func BlobID(data []byte) string {
	h := sha1.New()
	h.Write([]byte("blob " + strconv.Itoa(len(data)) + "\x00"))
	for len(data) > 0 {
		n := min(len(data), 1<<20)
		h.Write(data[:n])
		data = data[n:]
	}
	return hex.EncodeToString(h.Sum(nil))
}

// oldID and newID are the blob ids of c's sides, the carried ones when
// c has them; a missing side is not asked for.
func (c FileChange) oldID() string {
	if c.OldID != "" {
		return c.OldID
	}
	return BlobID(c.Old)
}

func (c FileChange) newID() string {
	if c.NewID != "" {
		return c.NewID
	}
	return BlobID(c.New)
}

// withModes gives each side of c that has a file and no mode (zero)
// the regular file mode, as callers may leave modes out.
func (c FileChange) withModes() FileChange {
	if c.OldMode == 0 && !c.IsCreate() {
		c.OldMode = ModeRegular
	}
	if c.NewMode == 0 && !c.IsDelete() {
		c.NewMode = ModeRegular
	}
	return c
}

// IsBinary reports whether data looks binary the way git decides it: a
// NUL byte in the first 8000 bytes (FIRST_FEW_BYTES, buffer_is_binary).
func IsBinary(data []byte) bool {
	if len(data) > 8000 {
		data = data[:8000]
	}
	return bytes.IndexByte(data, 0) >= 0
}

package engine

import (
	"crypto/sha1"
	"encoding/hex"
	"strconv"
)

// FileChange is one file's old and new state. A created file has an
// empty OldPath, a deleted one an empty NewPath; a rename has both,
// different. Contents are the exact bytes of the blobs.
type FileChange struct {
	OldPath, NewPath string
	OldMode, NewMode Mode
	Old, New         []byte

	// regions, when set, are the spans where Old and New differ, from
	// the engine's record of its edits; FormatPatch diffs only around
	// them in a long file. It checks them and diffs the whole file
	// when they do not fit, so a stale hint is slow, never wrong.
	regions []span
}

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
func BlobID(data []byte) string {
	h := sha1.New()
	h.Write([]byte("blob " + strconv.Itoa(len(data)) + "\x00"))
	h.Write(data)
	return hex.EncodeToString(h.Sum(nil))
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

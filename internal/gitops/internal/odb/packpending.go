package odb

// Reading the objects of a pack still being written: the run that
// writes it reads back the trees of its earlier replies before the
// pack has a trailer, an index or its name.

import (
	"context"
	"fmt"
	"os"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/oid"
)

// PendingReader reads whole entries of a pack being written to f. It
// is not safe for concurrent use.
type PendingReader struct {
	rd *reader
}

// NewPendingReader reads the pack being written to f.
func NewPendingReader(f *os.File) *PendingReader {
	return &PendingReader{rd: newReader(f, 0)}
}

// Read returns the type and content of the entry at off of the pack,
// whose first size bytes are in the file: a whole object (the writer
// writes no delta). The content is the caller's.
func (r *PendingReader) Read(off, size int64) (oid.Type, []byte, error) {
	// The reader keeps clear of a trailer, which this pack has not
	// yet: its end is past the bytes written by a trailer's length.
	r.rd.size = size + 20
	h, err := r.rd.header(off)
	if err != nil {
		return oid.Invalid, nil, err
	}
	if h.typ >= ofsDeltaType {
		return oid.Invalid, nil, fmt.Errorf("%w: a delta at %d of a pack being written", errCorrupt, off)
	}
	data, err := r.rd.inflate(context.Background(), h)
	if err != nil {
		return oid.Invalid, nil, err
	}
	return oid.Type(h.typ), data, nil
}

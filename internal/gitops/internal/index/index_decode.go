package index

// Decoding index entries (v2/v3 and v4) and walking them through a
// read window, and checking the extensions that follow them.

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// walk decodes the idx.n entries from the start of the file, reading it
// a window at a time, never past end, and calls fn with each entry's
// number, offset, bytes and name (both valid until fn returns). It
// returns where the entries end, or the first error of fn or of an
// entry ("entry 3 runs past the end of the file").
func (idx *Index) walk(end int, fn func(i, off int, e, name []byte) error) (int, error) {
	w := window{r: idx.r, start: headerSize, end: end}
	var name []byte // v4: the previous name, in a buffer of its own
	off := headerSize
	for i := range idx.n {
		var size int
		for {
			b := w.from(off)
			n, s, err := idx.decode(b, name)
			if err == nil {
				name, size = n, s
				break
			}
			if _, ok := err.(short); !ok || w.atEnd() {
				return 0, fmt.Errorf("entry %d %w", i, err)
			}
			if err := w.advance(off); err != nil {
				return 0, err
			}
		}
		if err := fn(i, off, w.from(off)[:size], name); err != nil {
			return 0, err
		}
		off += size
	}
	return off, nil
}

// window holds the bytes of a file from start, never those past end.
type window struct {
	r          io.ReaderAt
	buf        []byte
	start, end int
}

func (w *window) from(off int) []byte { return w.buf[off-w.start:] }
func (w *window) atEnd() bool         { return w.start+len(w.buf) == w.end }

// advance moves the window to start at off, where it holds too little,
// and fills it: windowSize bytes, or twice what it held from off (an
// entry larger than half the window).
func (w *window) advance(off int) error {
	kept := len(w.buf) - (off - w.start)
	n := min(max(windowSize, 2*kept), w.end-off)
	buf := w.buf[:cap(w.buf)]
	if n > len(buf) {
		buf = make([]byte, n)
	}
	copy(buf, w.buf[off-w.start:])
	if err := readFull(w.r, buf[kept:n], off+kept); err != nil {
		return err
	}
	w.buf, w.start = buf[:n], off
	return nil
}

// readExtensions walks the extensions from off to end (the checksum),
// reading only their headers, and returns the body of the split index's
// link extension when there is one. Those whose signature starts with
// an upper-case letter are optional (caches such as TREE, UNTR, FSMN,
// EOIE, IEOT, or REUC that this package does not need); the others
// change what the entries mean: link (split index) and sdir (sparse
// index) are understood, any other is an error.
func readExtensions(r io.ReaderAt, off, end int) (link []byte, err error) {
	// git ignores fewer than 8 bytes left before the checksum.
	for end-off >= 8 {
		var head [8]byte
		if err := readFull(r, head[:], off); err != nil {
			return nil, err
		}
		sig, size := head[:4], binary.BigEndian.Uint32(head[4:])
		if uint64(size) > uint64(end-off-8) {
			return nil, fmt.Errorf("extension %q runs past the end of the file", sig)
		}
		switch {
		case string(sig) == "link":
			link = make([]byte, size)
			if err := readFull(r, link, off+8); err != nil {
				return nil, err
			}
		case string(sig) == "sdir":
			// Marks a sparse index; its directory entries say so too.
		case sig[0] < 'A' || sig[0] > 'Z':
			return nil, fmt.Errorf("the index uses the %q extension, which git llm-apply does not know", sig)
		}
		off += 8 + int(size)
	}
	return link, nil
}

// short is a decoding error that more bytes of the file may undo: the
// entry runs past the bytes at hand.
type short struct{ error }

var (
	errMalformed = errors.New("has a malformed name")
	// Made once: converting a short to an error allocates.
	shortPastEnd   error = short{errors.New("runs past the end of the file")}
	shortMalformed error = short{errMalformed}
)

// decode decodes the entry at the start of b and returns its name and
// size; prev is the name of the entry before (v4, whose names are
// prefix-compressed), which it appends to and leaves as it was on
// error.
func (idx *Index) decode(b, prev []byte) ([]byte, int, error) {
	if idx.v4 {
		return decodeV4(b, prev)
	}
	return decodeV2(b)
}

// entryHead checks the fixed part of the entry at the start of b and
// returns where its name starts and its flags.
func entryHead(b []byte) (name int, flags uint16, err error) {
	name = nameAt
	if name > len(b) {
		return 0, 0, shortPastEnd
	}
	flags = binary.BigEndian.Uint16(b[flagsAt:])
	if flags&flagExtended != 0 {
		if name += 2; name > len(b) {
			return 0, 0, shortPastEnd
		}
		// git refuses flags it does not know, as they may change what
		// the entry means.
		if x := binary.BigEndian.Uint16(b[nameAt:]); x&^xflagKnown != 0 {
			return 0, 0, fmt.Errorf("has unknown extended flags %#04x", x)
		}
	}
	return name, flags, nil
}

// decodeV2 decodes a version 2 or 3 entry: the name is stored whole,
// its length in the flags unless it is too long for them, and padded
// with 1 to 8 NULs to a multiple of 8 bytes.
func decodeV2(b []byte) ([]byte, int, error) {
	p, flags, err := entryHead(b)
	if err != nil {
		return nil, 0, err
	}
	n := int(flags & flagNameLen)
	if n == flagNameLen {
		if n = bytes.IndexByte(b[p:], 0); n < 0 {
			return nil, 0, shortPastEnd
		}
	}
	size := (p + n + 8) &^ 7
	if size > len(b) {
		return nil, 0, shortPastEnd
	}
	return b[p : p+n], size, nil
}

// decodeV4 decodes a version 4 entry: its name is a varint count of
// bytes to drop from the end of the previous name, then the bytes to
// append and a NUL.
func decodeV4(b, prev []byte) ([]byte, int, error) {
	p, flags, err := entryHead(b)
	if err != nil {
		return nil, 0, err
	}
	strip, n := uvarint(b[p:])
	if n == 0 {
		if len(b)-p < maxVarintLen {
			return nil, 0, shortMalformed
		}
		return nil, 0, errMalformed
	}
	if strip > uint64(len(prev)) {
		return nil, 0, fmt.Errorf("drops %d bytes of a %d-byte name", strip, len(prev))
	}
	keep := len(prev) - int(strip)
	p += n
	var suffix int
	if l := int(flags & flagNameLen); l != flagNameLen {
		switch suffix = l - keep; {
		case suffix < 0:
			return nil, 0, errMalformed
		case p+suffix >= len(b):
			return nil, 0, shortMalformed
		case b[p+suffix] != 0:
			return nil, 0, errMalformed
		}
	} else if suffix = bytes.IndexByte(b[p:], 0); suffix < 0 {
		return nil, 0, shortPastEnd
	}
	return append(prev[:keep], b[p:p+suffix]...), p + suffix + 1, nil
}

// maxVarintLen is more bytes than uvarint reads before it overflows.
const maxVarintLen = 10

// uvarint decodes git's offset varint (varint.c), which adds one per
// continuation byte so that each value has a single encoding; n is 0
// when b ends early or the value overflows.
func uvarint(b []byte) (v uint64, n int) {
	if len(b) == 0 {
		return 0, 0
	}
	c := b[0]
	v, n = uint64(c&0x7f), 1
	for c&0x80 != 0 {
		if v++; v >= 1<<56 || n == len(b) {
			return 0, 0
		}
		c = b[n]
		v, n = v<<7|uint64(c&0x7f), n+1
	}
	return v, n
}

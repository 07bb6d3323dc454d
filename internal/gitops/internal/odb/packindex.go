package odb

// A pack's .idx read in place: the fanout once, then only the names
// and offsets a lookup needs.

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/fsread"
	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/oid"
)

// packIndex is a pack's .idx (version 1 or 2) read in place: the
// fanout table when it is opened, then only the names and offsets a
// lookup touches, as git reads it: find for each object asked for and
// each REF_DELTA base, then offset. Not safe for concurrent use: the
// Store's lock covers it.
type packIndex struct {
	f       *os.File
	path    string
	version int
	fanout  [256]uint32
	n       int64
	names   int64 // file offset of the first name
	stride  int64 // from one name to the next: 20 (v2), 24 (v1)
	offs    int64 // file offset of the first 32-bit offset
	large   int64 // v2: file offset of the 64-bit offset table
	nLarge  int64
	packSum [20]byte

	buf []byte // scratch for reads
	// readAtOnce is how many bytes of names a lookup reads at once to
	// finish its search in memory (maxBucketRead; tests lower it).
	readAtOnce int64

	// The last name found, which a read looks up again after Has.
	lastID  oid.ID
	lastPos int64
}

// errMalformed: the index file is not what git writes.
var errMalformed = errors.New("malformed IDX file")

const (
	idxHeaderV2 = "\xfftOc"
	// maxBucketRead is how many bytes of names a lookup reads at once
	// to finish its search in memory: the names of a fanout bucket of a
	// pack of 100,000 objects, about.
	maxBucketRead = 8 << 10
)

func openPackIndex(path string) (*packIndex, error) {
	f, _, err := fsread.Open(path)
	if err != nil {
		return nil, err
	}
	x := &packIndex{f: f, path: path, readAtOnce: maxBucketRead}
	if err := x.readHeader(); err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return x, nil
}

func (x *packIndex) readHeader() error {
	fi, err := x.f.Stat()
	if err != nil {
		return err
	}
	size := fi.Size()
	var head [8 + 256*4]byte
	if size < 256*4+40 {
		return errMalformed
	}
	if _, err := x.f.ReadAt(head[:], 0); err != nil {
		return err
	}
	fan := head[:256*4]
	x.version = 1
	if string(head[:4]) == idxHeaderV2 {
		if v := be32(head[4:]); v != 2 {
			return fmt.Errorf("unsupported version: version %d", v)
		}
		x.version, fan = 2, head[8:]
	}
	for i := range x.fanout {
		x.fanout[i] = be32(fan[4*i:])
		if i > 0 && x.fanout[i] < x.fanout[i-1] {
			return fmt.Errorf("%w: fanout table not sorted", errMalformed)
		}
	}
	x.n = int64(x.fanout[255])
	if x.version == 1 {
		x.offs, x.names, x.stride = 256*4, 256*4+4, 24
		if size != 256*4+24*x.n+40 {
			return fmt.Errorf("%w: size %d for %d objects", errMalformed, size, x.n)
		}
	} else {
		x.names, x.stride = int64(len(head)), 20
		x.offs = x.names + 24*x.n // after the names and the CRC32s
		x.large = x.offs + 4*x.n
		rest := size - x.large - 40
		if rest < 0 || rest%8 != 0 || (x.n > 0 && rest > 8*(x.n-1)) {
			return fmt.Errorf("%w: size %d for %d objects", errMalformed, size, x.n)
		}
		x.nLarge = rest / 8
	}
	_, err = x.f.ReadAt(x.packSum[:], size-40)
	return err
}

// read reads n bytes at off into the scratch buffer.
func (x *packIndex) read(off, n int64) ([]byte, error) {
	if int64(cap(x.buf)) < n {
		x.buf = make([]byte, n)
	}
	b := x.buf[:n]
	if _, err := x.f.ReadAt(b, off); err != nil {
		return nil, fmt.Errorf("%s: %w", x.path, err)
	}
	return b, nil
}

// find returns the position of id among the names: binary search with
// single-name reads down to a range that one read brings in.
func (x *packIndex) find(id oid.ID) (int64, bool, error) {
	if id == x.lastID && !id.IsZero() {
		return x.lastPos, true, nil
	}
	lo, hi := int64(0), int64(x.fanout[id[0]])
	if id[0] > 0 {
		lo = int64(x.fanout[id[0]-1])
	}
	// Once the range fits in one read, it is read whole and searched
	// in memory; until then each probe reads one name.
	var bulk []byte
	first := int64(-1)
	for lo < hi {
		if first < 0 && (hi-lo)*x.stride <= x.readAtOnce {
			b, err := x.read(x.names+lo*x.stride, (hi-lo-1)*x.stride+20)
			if err != nil {
				return 0, false, err
			}
			bulk, first = b, lo
		}
		mid := lo + (hi-lo)/2
		var name []byte
		if first >= 0 {
			rel := (mid - first) * x.stride
			name = bulk[rel : rel+20]
		} else {
			b, err := x.read(x.names+mid*x.stride, 20)
			if err != nil {
				return 0, false, err
			}
			name = b
		}
		switch c := compareName(id, name); {
		case c == 0:
			x.lastID, x.lastPos = id, mid
			return mid, true, nil
		case c < 0:
			hi = mid
		default:
			lo = mid + 1
		}
	}
	return 0, false, nil
}

func compareName(id oid.ID, name []byte) int {
	return bytes.Compare(id[:], name)
}

// offset returns the pack offset of the object at position pos.
func (x *packIndex) offset(pos int64) (int64, error) {
	b, err := x.read(x.offs+x.offEntry(pos), 4)
	if err != nil {
		return 0, err
	}
	v := be32(b)
	if x.version == 1 || v&(1<<31) == 0 {
		return int64(v), nil
	}
	j := int64(v &^ (1 << 31))
	if j >= x.nLarge {
		return 0, fmt.Errorf("%s: %w: 64-bit offset %d out of range", x.path, errMalformed, j)
	}
	b, err = x.read(x.large+8*j, 8)
	if err != nil {
		return 0, err
	}
	o := be64(b)
	if o >= 1<<63 {
		return 0, fmt.Errorf("%s: %w: offset %d", x.path, errMalformed, o)
	}
	return int64(o), nil
}

// offEntry is where the 32-bit offset of position pos is, from x.offs.
func (x *packIndex) offEntry(pos int64) int64 {
	if x.version == 1 {
		return 24 * pos
	}
	return 4 * pos
}

func (x *packIndex) close() {
	x.f.Close()
}

func be32(b []byte) uint32 { return binary.BigEndian.Uint32(b) }
func be64(b []byte) uint64 { return binary.BigEndian.Uint64(b) }

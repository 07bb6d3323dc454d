package odb

// A pack's .idx read in place: the fanout once, then only the names
// and offsets a lookup needs (go-git's idxfile.Index, for its packfile).

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/idxfile"
)

// packIndex is a pack's .idx (version 1 or 2) read in place: the
// fanout table when it is opened, then only the names and offsets a
// lookup touches, as git reads it. It is the idxfile.Index go-git's
// Packfile reads through: FindOffset for each object asked for and
// each REF_DELTA base, FindHash for each OFS_DELTA base. Entries and
// EntriesByOffset, which only iterating a whole pack needs, return
// errIndexIteration; FindCRC32 fails on a version 1 index, which has
// no checksums. Not safe for concurrent use: the Store's lock
// covers it.
type packIndex struct {
	f       *os.File
	path    string
	version int
	fanout  [256]uint32
	n       int64
	names   int64 // file offset of the first name
	stride  int64 // from one name to the next: 20 (v2), 24 (v1)
	crcs    int64 // v2: file offset of the CRC32 table
	offs    int64 // file offset of the first 32-bit offset
	large   int64 // v2: file offset of the 64-bit offset table
	nLarge  int64
	packSum [20]byte

	buf []byte // scratch for reads
	// readAtOnce is how many bytes of names a lookup reads at once to
	// finish its search in memory (maxBucketRead; tests lower it).
	readAtOnce int64

	// The last name found, which Packfile.Get looks up again.
	lastID  plumbing.Hash
	lastPos int64

	// For FindHash, loaded on its first call: the 32-bit offsets as
	// stored (v1: the whole entries), the 64-bit ones, and the objects
	// in pack order from the .rev file git writes next to the pack, or
	// else, after a few scans, the positions grouped by offset here.
	tab         []byte
	largeTab    []byte
	rev         []uint32 // positions in pack order, from the .rev file
	scans       int
	bucketShift uint
	bucketStart []uint32 // bucket b is bucketPos[bucketStart[b]:bucketStart[b+1]]
	bucketPos   []uint32
	hashAt      map[int64]plumbing.Hash
}

var _ idxfile.Index = (*packIndex)(nil)

// errIndexIteration: packIndex does not list a pack's objects.
var errIndexIteration = errors.New("gitops: listing the objects of a pack index is not supported")

const (
	idxHeaderV2 = "\xfftOc"
	// bucketAfterScans is how many FindHash calls scan the offset
	// table before the rest get the table grouped by offset: a scan
	// costs about a twelfth of grouping, and a read of a few objects
	// through short delta chains needs only a few.
	bucketAfterScans = 12
	// maxBucketRead is how many bytes of names a lookup reads at once
	// to finish its search in memory: the names of a fanout bucket of a
	// pack of 100,000 objects, about.
	maxBucketRead = 8 << 10
)

func openPackIndex(path string) (*packIndex, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	x := &packIndex{f: f, path: path, readAtOnce: maxBucketRead}
	if err := x.readHeader(); err != nil {
		f.Close()
		return nil, fmt.Errorf("gitops: %s: %w", path, err)
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
		return idxfile.ErrMalformedIdxFile
	}
	if _, err := x.f.ReadAt(head[:], 0); err != nil {
		return err
	}
	fan := head[:256*4]
	x.version = 1
	if string(head[:4]) == idxHeaderV2 {
		if v := be32(head[4:]); v != 2 {
			return fmt.Errorf("%w: version %d", idxfile.ErrUnsupportedVersion, v)
		}
		x.version, fan = 2, head[8:]
	}
	for i := range x.fanout {
		x.fanout[i] = be32(fan[4*i:])
		if i > 0 && x.fanout[i] < x.fanout[i-1] {
			return fmt.Errorf("%w: fanout table not sorted", idxfile.ErrMalformedIdxFile)
		}
	}
	x.n = int64(x.fanout[255])
	if x.version == 1 {
		x.offs, x.names, x.stride = 256*4, 256*4+4, 24
		if size != 256*4+24*x.n+40 {
			return fmt.Errorf("%w: size %d for %d objects", idxfile.ErrMalformedIdxFile, size, x.n)
		}
	} else {
		x.names, x.stride = int64(len(head)), 20
		x.crcs = x.names + 20*x.n
		x.offs = x.crcs + 4*x.n
		x.large = x.offs + 4*x.n
		rest := size - x.large - 40
		if rest < 0 || rest%8 != 0 || (x.n > 0 && rest > 8*(x.n-1)) {
			return fmt.Errorf("%w: size %d for %d objects", idxfile.ErrMalformedIdxFile, size, x.n)
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
		return nil, fmt.Errorf("gitops: %s: %w", x.path, err)
	}
	return b, nil
}

// find returns the position of id among the names: binary search with
// single-name reads down to a range that one read brings in.
func (x *packIndex) find(id plumbing.Hash) (int64, bool, error) {
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

func compareName(id plumbing.Hash, name []byte) int {
	return bytes.Compare(id[:], name)
}

// offset returns the pack offset of the object at position pos.
func (x *packIndex) offset(pos int64) (int64, error) {
	var v uint32
	if x.tab != nil {
		v = be32(x.tab[x.offEntry(pos):])
	} else {
		b, err := x.read(x.offs+x.offEntry(pos), 4)
		if err != nil {
			return 0, err
		}
		v = be32(b)
	}
	if x.version == 1 || v&(1<<31) == 0 {
		return int64(v), nil
	}
	j := int64(v &^ (1 << 31))
	if j >= x.nLarge {
		return 0, fmt.Errorf("gitops: %s: %w: 64-bit offset %d out of range", x.path, idxfile.ErrMalformedIdxFile, j)
	}
	var o uint64
	if x.largeTab != nil {
		o = be64(x.largeTab[8*j:])
	} else {
		b, err := x.read(x.large+8*j, 8)
		if err != nil {
			return 0, err
		}
		o = be64(b)
	}
	if o >= 1<<63 {
		return 0, fmt.Errorf("gitops: %s: %w: offset %d", x.path, idxfile.ErrMalformedIdxFile, o)
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

// Contains implements idxfile.Index.
func (x *packIndex) Contains(id plumbing.Hash) (bool, error) {
	_, ok, err := x.find(id)
	return ok, err
}

// FindOffset implements idxfile.Index.
func (x *packIndex) FindOffset(id plumbing.Hash) (int64, error) {
	pos, ok, err := x.find(id)
	if err != nil {
		return 0, err
	}
	if !ok {
		return 0, plumbing.ErrObjectNotFound
	}
	return x.offset(pos)
}

// FindCRC32 implements idxfile.Index.
func (x *packIndex) FindCRC32(id plumbing.Hash) (uint32, error) {
	if x.version == 1 {
		return 0, fmt.Errorf("gitops: %s: a version 1 pack index has no checksums", x.path)
	}
	pos, ok, err := x.find(id)
	if err != nil {
		return 0, err
	}
	if !ok {
		return 0, plumbing.ErrObjectNotFound
	}
	b, err := x.read(x.crcs+4*pos, 4)
	if err != nil {
		return 0, err
	}
	return be32(b), nil
}

// Count implements idxfile.Index.
func (x *packIndex) Count() (int64, error) { return x.n, nil }

// Entries implements idxfile.Index: errIndexIteration.
func (x *packIndex) Entries() (idxfile.EntryIter, error) { return nil, errIndexIteration }

// EntriesByOffset implements idxfile.Index: errIndexIteration.
func (x *packIndex) EntriesByOffset() (idxfile.EntryIter, error) { return nil, errIndexIteration }

// FindHash implements idxfile.Index: the name of the object at pack
// offset o, plumbing.ErrObjectNotFound when no object starts there.
// The first calls scan the offset table; later ones look in the
// objects in pack order, from the pack's .rev file when git wrote one,
// else grouped by offset once here.
func (x *packIndex) FindHash(o int64) (plumbing.Hash, error) {
	if h, ok := x.hashAt[o]; ok {
		return h, nil
	}
	if err := x.loadOffsets(); err != nil {
		return plumbing.ZeroHash, err
	}
	if x.rev == nil && x.bucketStart == nil && x.scans >= bucketAfterScans {
		x.bucketByOffset()
	}
	var pos int64 = -1
	switch {
	case x.rev != nil:
		i, found := slices.BinarySearchFunc(x.rev, o, func(p uint32, o int64) int {
			off, _ := x.offset(int64(p))
			return cmp.Compare(off, o)
		})
		if found {
			pos = int64(x.rev[i])
		}
	case x.bucketStart != nil:
		if b := o >> x.bucketShift; o >= 0 && b < int64(len(x.bucketStart)-1) {
			for _, p := range x.bucketPos[x.bucketStart[b]:x.bucketStart[b+1]] {
				if off, _ := x.offset(int64(p)); off == o {
					pos = int64(p)
					break
				}
			}
		}
	default:
		x.scans++
		pos = x.scan(o)
	}
	if pos < 0 {
		return plumbing.ZeroHash, plumbing.ErrObjectNotFound
	}
	b, err := x.read(x.names+pos*x.stride, 20)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	var h plumbing.Hash
	copy(h[:], b)
	if x.hashAt == nil {
		x.hashAt = map[int64]plumbing.Hash{}
	}
	x.hashAt[o] = h
	return h, nil
}

// loadOffsets reads the offset tables, and the .rev file if there is
// a valid one.
func (x *packIndex) loadOffsets() error {
	if x.tab != nil {
		return nil
	}
	size := 4 * x.n
	if x.version == 1 {
		size = 24 * x.n
	}
	tab := make([]byte, size)
	if _, err := x.f.ReadAt(tab, x.offs); err != nil {
		return fmt.Errorf("gitops: %s: %w", x.path, err)
	}
	if x.nLarge > 0 {
		x.largeTab = make([]byte, 8*x.nLarge)
		if _, err := x.f.ReadAt(x.largeTab, x.large); err != nil {
			return fmt.Errorf("gitops: %s: %w", x.path, err)
		}
	}
	x.tab = tab
	x.rev = x.readRev()
	return nil
}

// readRev reads the pack's reverse index (pack-*.rev: "RIDX", version
// 1, hash 1, the positions of the objects in pack order, the pack's
// checksum, its own), nil when there is none or it does not fit.
func (x *packIndex) readRev() []uint32 {
	data, err := os.ReadFile(strings.TrimSuffix(x.path, ".idx") + ".rev")
	if err != nil || int64(len(data)) != 12+4*x.n+40 ||
		string(data[:4]) != "RIDX" || be32(data[4:]) != 1 || be32(data[8:]) != 1 ||
		string(data[12+4*x.n:12+4*x.n+20]) != string(x.packSum[:]) {
		return nil
	}
	out := make([]uint32, x.n)
	for i := range out {
		if out[i] = be32(data[12+4*i:]); int64(out[i]) >= x.n {
			return nil
		}
	}
	return out
}

// scan finds the position of the object at offset o in the offset
// table; -1 when there is none.
func (x *packIndex) scan(o int64) int64 {
	if x.version == 1 {
		if o >= 1<<32 {
			return -1
		}
		for pos := int64(0); pos < x.n; pos++ {
			if int64(be32(x.tab[24*pos:])) == o {
				return pos
			}
		}
		return -1
	}
	// The 64-bit table holds the offsets past 2 GiB, and may hold
	// smaller ones (index-pack --index-version=2,<limit>).
	want, found := uint32(o), false
	for j := int64(0); j < x.nLarge; j++ {
		if int64(be64(x.largeTab[8*j:])) == o {
			want, found = 1<<31|uint32(j), true
			break
		}
	}
	if !found && o >= 1<<31 {
		return -1
	}
	for pos := int64(0); pos < x.n; pos++ {
		if be32(x.tab[4*pos:]) == want {
			return pos
		}
	}
	return -1
}

// bucketByOffset groups the positions of the objects by offset>>shift,
// with about two objects a bucket on average: a counting sort on the
// high bits, a few passes over the offsets where a full sort would
// take several times that.
func (x *packIndex) bucketByOffset() {
	offs := make([]int64, x.n)
	var last int64
	for pos := range offs {
		if v := be32(x.tab[x.offEntry(int64(pos)):]); x.version == 1 || v&(1<<31) == 0 {
			offs[pos] = int64(v)
		} else if o, err := x.offset(int64(pos)); err == nil {
			offs[pos] = o // else 0, where no object starts
		}
		last = max(last, offs[pos])
	}
	shift := uint(0)
	for last>>shift > x.n/2 {
		shift++
	}
	start := make([]uint32, last>>shift+2)
	for _, o := range offs {
		start[o>>shift+1]++
	}
	for b := 1; b < len(start); b++ {
		start[b] += start[b-1]
	}
	next := slices.Clone(start)
	bucket := make([]uint32, x.n)
	for pos, o := range offs {
		b := o >> shift
		bucket[next[b]] = uint32(pos)
		next[b]++
	}
	x.bucketShift, x.bucketStart, x.bucketPos = shift, start, bucket
}

func (x *packIndex) close() {
	x.f.Close()
}

func be32(b []byte) uint32 { return binary.BigEndian.Uint32(b) }
func be64(b []byte) uint64 { return binary.BigEndian.Uint64(b) }

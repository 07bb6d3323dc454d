package index

// Reading the git index (git's Documentation/gitformat-index.txt):
// versions 2, 3 and 4, split and sparse indexes included, all decoded
// here (see index_layered.go for why not through git).

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"sync"
	"time"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/fsread"
	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/oid"

	"github.com/git-llm-apply/git-llm-apply/internal/patch"
)

// Index is what gitops needs of the git index: per path, its mode,
// blob id, whether it is unmerged and whether it is intent-to-add.
//
// A reply touches a handful of paths of an index that may hold a
// hundred thousand, so the file is not kept in memory: one sequential
// pass checks its entries and keeps the name of about every
// markEvery-th one (a mark), and lookup binary-searches the marks and
// reads the few kilobytes up to the next mark with one ReadAt. Listing
// every path reads the entries again.
//
// The file stays open until Close (or until the index is garbage: an
// os.File closes itself then), and an open file is a snapshot: git
// writes an index by renaming a new file over the old one, which leaves
// the open one as it was, so lookups answer from the index as it was
// when opened, as they did when the whole file was read at once. Only a
// write into the file itself (not what git does) changes it: each read
// first compares its size and modification time with those at open, and
// a change, or any failure to read, makes that lookup and every later
// one fail; Err returns why.
type Index struct {
	n         int // entries
	nameBytes int // their names' total length
	v4        bool

	r     io.ReaderAt // the file (bytes in tests)
	f     *os.File    // r, when it is a file: for Stat and close
	path  string
	size  int64
	mtime time.Time
	end   int // where the entries end

	// marks are entries to start decoding from, in file order, with
	// their names in markNames; lookup decodes the entries of at most
	// two marks after a binary search over them. Version 4
	// prefix-compresses each name against the previous one, so it
	// cannot start from any other entry.
	marks     []mark
	markNames []byte

	mu     sync.Mutex // lookup's buffers and failed
	buf    []byte     // the bytes of the marks lookup reads
	name   []byte     // v4: the name lookup decodes
	failed error

	// listed holds every entry, merged per path, when the file is
	// layered (split or sparse index).
	listed []listedEntry
}

// Entry is what the index holds for a path.
type Entry struct {
	Mode        patch.Mode
	ID          oid.ID
	Unmerged    bool // some stage other than 0 is present
	IntentToAdd bool // `git add -N`: no content staged yet
	// Size is the low 32 bits of the file's size when it was last
	// staged or checked out, from the entry's stat data; 0 for an entry
	// a tree gave (a sparse index's directory, expanded), and for one
	// git left racily clean with other content.
	Size uint32
}

// TreeFiles calls fn with each file of the tree id and of its
// subtrees, with its path below the tree, its mode and its id; a
// sparse index's directory entries are expanded with it.
type TreeFiles func(id oid.ID, fn func(path string, mode patch.Mode, id oid.ID)) error

// mark is an entry lookup can start from: where it and the next entry
// start in the file, and where its name starts in markNames (it ends
// where the next mark's starts). 32 bits suffice: Open refuses
// files of 4 GiB or more.
type mark struct{ off, next, name uint32 }

// The on-disk layout: a 12-byte header, entries, extensions and a
// trailing checksum. An entry is 40 bytes of stat data (the mode at
// offset 24), the object id, 16 bits of flags, 16 more when flagExtended
// is set, and the name. Object ids are SHA-1: Open refuses repositories
// with another object format, whose indexes hold longer ids.
const (
	headerSize   = 12
	checksumSize = idSize
	idSize       = 20 // SHA-1
	modeAt       = 24
	sizeAt       = 36
	idAt         = 40
	flagsAt      = idAt + idSize
	nameAt       = flagsAt + 2 // without extended flags
	minEntrySize = nameAt + 2  // v2/v3: padding; v4: a varint and a NUL

	flagExtended = 0x4000
	flagStage    = 0x3000
	flagNameLen  = 0x0fff // all ones: the name is longer; read to its NUL

	xflagIntentToAdd = 0x2000
	xflagKnown       = 0x6000 // with skip-worktree (0x4000), which changes nothing here

	modeTypeMask = 0o170000
	modeDir      = 0o040000 // a sparse index's directory entry

	// markEvery is how many entries there are between marks at least,
	// unless markBytes come first; a lookup reads and decodes the
	// entries from one mark to the next, rarely two (see Lookup).
	// Measured on 100,000 entries of 96 bytes (BenchmarkReadIndex), a
	// lookup takes 1.7 µs, most of it the two system calls (fstat and
	// pread), and from 8 to 128 that changes by a fifth; with 32 the
	// marks take 1% of the file's size in memory.
	markEvery = 32
	markBytes = 4 << 10

	// windowSize is how much of the file the sequential passes read at
	// once; more when one entry is longer.
	windowSize = 64 << 10
)

// errIndexChanged: the open index file was written to in place (its
// size or modification time changed, or its bytes no longer decode).
var errIndexChanged = errors.New("the file changed while it was in use (written in place, which git does not do); run the command again")

type listedEntry struct {
	path string
	e    Entry
}

// layered says why an index file's entries are not the index itself:
// a split index records changes to a shared index, and a sparse index
// has entries that stand for whole directories. Open then reads
// every entry (see flatIndex) instead of looking paths up in place.
type layered struct{ feature string }

func (e *layered) Error() string { return "a " + e.feature }

var (
	splitIndex  = &layered{"split index"}
	sparseIndex = &layered{"sparse index"}
)

// Open opens the index file at path, of the repository whose git dir
// is gitDir; a missing file is an empty index. A split index is merged
// with its shared index, and a sparse index's directories are expanded
// to the files of their trees, which files lists (both held in memory:
// see flatIndex). The index keeps the file open: Close it when done
// (see Index).
func Open(path, gitDir string, files TreeFiles) (*Index, error) {
	// The file's stat is taken before it is read, so that a write
	// during the pass shows at the next lookup.
	f, fi, err := fsread.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &Index{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the index: %w", err)
	}
	idx, err := newIndex(f, fi.Size())
	if err == nil {
		idx.f, idx.path, idx.mtime = f, path, fi.ModTime()
		return idx, nil
	}
	var l *layered
	if errors.As(err, &l) {
		idx, err = flatIndex(f, fi.Size(), path, gitDir, files)
	}
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("reading the index %s: %w", path, err)
	}
	return idx, nil
}

// newIndex checks the header, the entries and the extensions of the
// index file r of size bytes and sets marks. Like git on a normal read,
// it does not verify the trailing checksum (only git fsck does: hashing
// the whole file would cost more than the rest) nor the sort order
// (lookups on a misordered file miss, as git's do); it checks that no
// entry runs past the file, and allocates at most in proportion to the
// file's size.
func newIndex(r io.ReaderAt, size int64) (*Index, error) {
	idx, end, err := indexHeader(r, size)
	if err != nil {
		return nil, err
	}
	idx.marks = make([]mark, 0, idx.n/markEvery+1)
	lastMark, lastOff := 0, headerSize
	idx.end, err = idx.walk(end, func(i, off int, e, name []byte) error {
		if binary.BigEndian.Uint32(e[modeAt:])&modeTypeMask == modeDir {
			return sparseIndex
		}
		if i == 0 {
			// Room for names as long as the first or the average entry
			// (less its fixed part) allow, within the file's size:
			// growing by append from nothing would allocate five times
			// what it keeps.
			avg := max((end-headerSize)/idx.n-nameAt, len(name))
			idx.markNames = make([]byte, 0, min(cap(idx.marks)*avg, end))
		}
		// A mark's name is only stored once the file bytes since the
		// previous mark are at least as many, so that names made long
		// by v4's prefix compression cannot make the marks outgrow the
		// file.
		if i == 0 || (i-lastMark >= markEvery || off-lastOff >= markBytes) && off-lastOff >= len(name) {
			idx.marks = append(idx.marks, mark{uint32(off), uint32(off + len(e)), uint32(len(idx.markNames))})
			idx.markNames = append(idx.markNames, name...)
			lastMark, lastOff = i, off
		}
		idx.nameBytes += len(name)
		return nil
	})
	if err != nil {
		return nil, err
	}
	switch link, err := readExtensions(r, idx.end, end); {
	case err != nil:
		return nil, err
	case link != nil:
		return nil, splitIndex
	}
	return idx, nil
}

// indexHeader checks the header of the index file r of size bytes and
// returns an index holding its entry count and version, and where its
// extensions end (the checksum starts).
func indexHeader(r io.ReaderAt, size int64) (*Index, int, error) {
	var head [headerSize]byte
	if size >= headerSize+checksumSize {
		if err := readFull(r, head[:], 0); err != nil {
			return nil, 0, err
		}
	}
	if size < headerSize+checksumSize || string(head[:4]) != "DIRC" {
		return nil, 0, errors.New("not an index file (no DIRC header)")
	}
	if size > math.MaxUint32 {
		return nil, 0, errors.New("index larger than 4 GiB")
	}
	version := binary.BigEndian.Uint32(head[4:])
	if version < 2 || version > 4 {
		return nil, 0, fmt.Errorf("index version %d is not supported", version)
	}
	end := int(size) - checksumSize
	count := binary.BigEndian.Uint32(head[8:])
	if uint64(count) > uint64(end-headerSize)/minEntrySize {
		return nil, 0, fmt.Errorf("index claims %d entries, more than its %d bytes can hold", count, size)
	}
	return &Index{n: int(count), v4: version == 4, r: r, size: size}, end, nil
}

// Close closes the file; lookups fail after it.
func (idx *Index) Close() {
	if idx.f != nil {
		idx.f.Close()
	}
}

// Err returns why a lookup or a listing failed (they then find nothing
// more), or nil.
func (idx *Index) Err() error {
	idx.mu.Lock()
	defer idx.mu.Unlock()
	return idx.failed
}

// fail records the first failure. The decoders only fail on bytes that
// differ from those newIndex checked.
func (idx *Index) fail(err error) {
	var pe *fs.PathError
	if !errors.As(err, &pe) {
		err = errIndexChanged
	}
	if idx.failed == nil {
		idx.failed = fmt.Errorf("reading the index %s: %w", idx.path, err)
	}
}

// unchanged fails when the file's size or modification time are no
// longer those of open.
func (idx *Index) unchanged() error {
	if idx.f == nil {
		return nil
	}
	fi, err := idx.f.Stat()
	if err != nil {
		return err
	}
	if fi.Size() != idx.size || !fi.ModTime().Equal(idx.mtime) {
		return errIndexChanged
	}
	return nil
}

// readFull fills b from off; the file ending first means it shrank.
func readFull(r io.ReaderAt, b []byte, off int) error {
	n, err := r.ReadAt(b, int64(off))
	if n == len(b) {
		return nil
	}
	if err == io.EOF || err == nil {
		err = errIndexChanged
	}
	return err
}

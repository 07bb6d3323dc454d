package gitops

// Reading the git index (git's Documentation/gitformat-index.txt):
// versions 2, 3 and 4 are decoded here; split and sparse indexes are
// listed by the git CLI.

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/git-llm-apply/git-llm-apply/engine"
)

// index is what gitops needs of the git index: per path, its mode, blob
// id, whether it is unmerged and whether it is intent-to-add.
//
// A reply touches a handful of paths of an index that may hold a
// hundred thousand, so nothing is decoded ahead: the file is read once,
// one pass checks that its entries fit and notes where they start, and
// lookup decodes only the entries of the path asked for, allocating
// nothing.
type index struct {
	data      []byte
	n         int // entries in data
	nameBytes int // their names' total length

	// v2 and v3: where each entry starts. Entries are sorted by name,
	// then stage, so lookup is a binary search.
	offs []uint32

	// v4 prefix-compresses each name against the previous one: only a
	// sequential decode recovers names. marks are places to start one
	// from, with their names in markNames, so that lookup decodes at
	// most markEvery entries after a binary search over them.
	v4        bool
	marks     []v4mark
	markNames []byte

	// listed holds the entries git ls-files gave, merged per path,
	// when the file needs git (split or sparse index).
	listed []listedEntry
}

type indexEntry struct {
	mode        engine.Mode
	id          plumbing.Hash
	unmerged    bool // some stage other than 0 is present
	intentToAdd bool // `git add -N`: no content staged yet
}

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

	// markEvery is how many v4 entries there are between marks at
	// least; a lookup decodes at most that many past the mark it starts
	// from.
	markEvery = 32
)

type v4mark struct {
	i          int // entry number
	off, next  int // where the entry and the one after it start
	name, nend int // the entry's name is markNames[name:nend]
}

type listedEntry struct {
	path string
	e    indexEntry
}

// needsGit says why an index file cannot be read here: the entries it
// holds are not the index's (split index) or stand for whole
// directories (sparse index).
type needsGit struct {
	feature string // "split index" or "sparse index"
	off     string // the command that turns it off
}

func (e *needsGit) Error() string {
	return fmt.Sprintf("a %s can only be read with the git CLI, which is not on PATH (turn it off with %s)", e.feature, e.off)
}

var (
	splitIndex  = &needsGit{"split index", "git update-index --no-split-index"}
	sparseIndex = &needsGit{"sparse index", "git sparse-checkout reapply --no-sparse-index, or git sparse-checkout disable"}
)

// readIndex reads the index file at path, of the repository whose git
// dir is gitDir and whose working tree is workTree ("" when bare); a
// missing file is an empty index. A split or sparse index is listed by
// git ls-files instead; without git on PATH, that is an error naming the
// command that turns the feature off.
func (r *Repo) readIndex(path, gitDir, workTree string) (*index, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &index{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("gitops: reading the index: %w", err)
	}
	idx, err := parseIndex(data)
	var ng *needsGit
	if errors.As(err, &ng) {
		idx, err = r.listIndex(path, gitDir, workTree, ng)
	}
	if err != nil {
		return nil, fmt.Errorf("gitops: reading the index %s: %w", path, err)
	}
	return idx, nil
}

// parseIndex checks the header, the entries and the extensions of an
// index file and notes where entries start. Like git on a normal read,
// it does not verify the trailing checksum (only git fsck does: hashing
// the whole file would cost more than the rest) nor the sort order
// (lookups on a misordered file miss, as git's do); it checks that no
// entry runs past the file, and allocates at most in proportion to the
// file's size.
func parseIndex(data []byte) (*index, error) {
	if len(data) < headerSize+checksumSize || string(data[:4]) != "DIRC" {
		return nil, errors.New("not an index file (no DIRC header)")
	}
	if uint64(len(data)) > math.MaxUint32 {
		return nil, errors.New("index larger than 4 GiB")
	}
	version := binary.BigEndian.Uint32(data[4:])
	if version < 2 || version > 4 {
		return nil, fmt.Errorf("index version %d is not supported", version)
	}
	end := len(data) - checksumSize
	count := binary.BigEndian.Uint32(data[8:])
	if uint64(count) > uint64(end-headerSize)/minEntrySize {
		return nil, fmt.Errorf("index claims %d entries, more than its %d bytes can hold", count, len(data))
	}
	idx := &index{data: data, n: int(count), v4: version == 4}
	var off int
	var err error
	if idx.v4 {
		off, err = idx.scanV4(end)
	} else {
		off, err = idx.scanV2(end)
	}
	if err != nil {
		return nil, err
	}
	if err := checkExtensions(data[off:end]); err != nil {
		return nil, err
	}
	return idx, nil
}

// entryHead checks that the fixed part of the entry at off fits before
// end and returns where its name starts and its flags.
func entryHead(data []byte, off, end int) (name int, flags uint16, err error) {
	name = off + nameAt
	if name > end {
		return 0, 0, errors.New("runs past the end of the file")
	}
	flags = binary.BigEndian.Uint16(data[off+flagsAt:])
	if flags&flagExtended != 0 {
		if name += 2; name > end {
			return 0, 0, errors.New("runs past the end of the file")
		}
		// git refuses flags it does not know, as they may change what
		// the entry means.
		if x := binary.BigEndian.Uint16(data[off+nameAt:]); x&^xflagKnown != 0 {
			return 0, 0, fmt.Errorf("has unknown extended flags %#04x", x)
		}
	}
	return name, flags, nil
}

// scanV2 notes where each entry of a version 2 or 3 file starts and
// returns where the entries end.
func (idx *index) scanV2(end int) (int, error) {
	data := idx.data
	idx.offs = make([]uint32, idx.n)
	off := headerSize
	for i := range idx.offs {
		name, flags, err := entryHead(data, off, end)
		if err != nil {
			return 0, fmt.Errorf("entry %d %w", i, err)
		}
		n := int(flags & flagNameLen)
		if n == flagNameLen {
			if n = bytes.IndexByte(data[name:end], 0); n < 0 {
				return 0, fmt.Errorf("entry %d runs past the end of the file", i)
			}
		}
		// 1 to 8 NULs pad the entry to a multiple of 8 bytes.
		size := (name - off + n + 8) &^ 7
		if off+size > end {
			return 0, fmt.Errorf("entry %d runs past the end of the file", i)
		}
		if binary.BigEndian.Uint32(data[off+modeAt:])&modeTypeMask == modeDir {
			return 0, sparseIndex
		}
		idx.offs[i] = uint32(off)
		idx.nameBytes += n
		off += size
	}
	return off, nil
}

// scanV4 checks the entries of a version 4 file, sets marks and returns
// where the entries end. A mark's name is only stored once the file
// bytes since the previous mark are at least as many, so that names
// made long by prefix compression cannot make the marks outgrow the
// file.
func (idx *index) scanV4(end int) (int, error) {
	var name []byte
	idx.marks = make([]v4mark, 0, idx.n/markEvery+1)
	off, lastMark, lastOff := headerSize, 0, headerSize
	for i := range idx.n {
		var next int
		var err error
		if name, next, err = v4Entry(idx.data, off, end, name); err != nil {
			return 0, fmt.Errorf("entry %d %w", i, err)
		}
		if binary.BigEndian.Uint32(idx.data[off+modeAt:])&modeTypeMask == modeDir {
			return 0, sparseIndex
		}
		if i == 0 || i-lastMark >= markEvery && off-lastOff >= len(name) {
			at := len(idx.markNames)
			idx.markNames = append(idx.markNames, name...)
			idx.marks = append(idx.marks, v4mark{i: i, off: off, next: next, name: at, nend: len(idx.markNames)})
			lastMark, lastOff = i, off
		}
		idx.nameBytes += len(name)
		off = next
	}
	return off, nil
}

// v4Entry decodes the name of the version 4 entry at off into name,
// which holds the previous entry's name, and returns it with where the
// next entry starts. The name is a varint count of bytes to drop from
// the end of the previous name, then the bytes to append and a NUL.
func v4Entry(data []byte, off, end int, name []byte) ([]byte, int, error) {
	p, flags, err := entryHead(data, off, end)
	if err != nil {
		return name, 0, err
	}
	strip, n := uvarint(data[p:end])
	if n == 0 {
		return name, 0, errors.New("has a malformed name")
	}
	if strip > uint64(len(name)) {
		return name, 0, fmt.Errorf("drops %d bytes of a %d-byte name", strip, len(name))
	}
	name = name[:len(name)-int(strip)]
	p += n
	var suffix int
	if l := int(flags & flagNameLen); l != flagNameLen {
		if suffix = l - len(name); suffix < 0 || p+suffix >= end || data[p+suffix] != 0 {
			return name, 0, errors.New("has a malformed name")
		}
	} else if suffix = bytes.IndexByte(data[p:end], 0); suffix < 0 {
		return name, 0, errors.New("runs past the end of the file")
	}
	return append(name, data[p:p+suffix]...), p + suffix + 1, nil
}

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

// checkExtensions walks the extensions after the entries. Those whose
// signature starts with an upper-case letter are optional (caches such
// as TREE, UNTR, FSMN, EOIE, IEOT, or REUC that this package does not
// need); the others change what the entries mean.
func checkExtensions(b []byte) error {
	// git ignores fewer than 8 bytes left before the checksum.
	for len(b) >= 8 {
		sig, size := b[:4], binary.BigEndian.Uint32(b[4:])
		if uint64(size) > uint64(len(b)-8) {
			return fmt.Errorf("extension %q runs past the end of the file", sig)
		}
		switch string(sig) {
		case "link":
			return splitIndex
		case "sdir":
			return sparseIndex
		}
		if sig[0] < 'A' || sig[0] > 'Z' {
			return fmt.Errorf("the index uses the %q extension, which git llm-apply does not know", sig)
		}
		b = b[8+int(size):]
	}
	return nil
}

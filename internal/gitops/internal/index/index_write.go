package index

// Writing an index file, for the checkout of a linked worktree when
// git is not installed: version 2 (3 when an entry has extended
// flags), no extensions, entries carrying the stat data of the files
// written so that git takes them as clean without reading them again.

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/fsread"
	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/oid"
)

// Raw is an index entry as stored: its stat data (with the mode at
// offset 24), id, stage and extended flags.
type Raw struct {
	Path   string
	Stat   [idAt]byte
	ID     oid.ID
	Stage  int
	XFlags uint16 // skip-worktree, intent-to-add
	// Flags are the bits of the flags field other than the stage, the
	// name length and extended (assume-valid).
	Flags uint16
}

// NewRaw is the stage-0 entry of a file of the given git mode
// (0o100644, 0o100755, 0o120000, 0o160000) and id, with the stat data
// of fi, what lstat gave for it on disk.
func NewRaw(path string, mode uint32, id oid.ID, fi fs.FileInfo) Raw {
	e := Raw{Path: path, ID: id}
	fillStat(&e.Stat, fi)
	binary.BigEndian.PutUint32(e.Stat[modeAt:], mode)
	return e
}

// ReadRaw reads every entry of the index file at path as stored. A
// split or sparse index is refused: its entries are not all in the
// file, or not all files.
func ReadRaw(path string) ([]Raw, error) {
	data, err := fsread.ReadFile(path)
	if err != nil {
		return nil, err
	}
	rd := bytes.NewReader(data)
	idx, end, err := indexHeader(rd, int64(len(data)))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	// index.skipHash writes zeros, which git then does not check.
	trailer := data[len(data)-checksumSize:]
	if sum := sha1.Sum(data[:len(data)-checksumSize]); !bytes.Equal(sum[:], trailer) && !bytes.Equal(trailer, make([]byte, checksumSize)) {
		return nil, fmt.Errorf("%s: bad checksum", path)
	}
	out := make([]Raw, 0, idx.n)
	sparse := false
	idx.end, err = idx.walk(end, func(_, _ int, raw, name []byte) error {
		flags := binary.BigEndian.Uint16(raw[flagsAt:])
		e := Raw{Path: string(name), Stage: int(flags&flagStage) >> 12, Flags: flags &^ (flagStage | flagNameLen | flagExtended)}
		copy(e.Stat[:], raw)
		copy(e.ID[:], raw[idAt:])
		if flags&flagExtended != 0 {
			e.XFlags = binary.BigEndian.Uint16(raw[nameAt:])
		}
		sparse = sparse || binary.BigEndian.Uint32(raw[modeAt:])&modeTypeMask == modeDir
		out = append(out, e)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	link, err := readExtensions(rd, idx.end, end)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if link != nil || sparse {
		return nil, fmt.Errorf("%s: %w", path, &layered{feature: map[bool]string{true: "split index", false: "sparse index"}[link != nil]})
	}
	return out, nil
}

// Write writes entries (sorted here, as git sorts them) as the index
// file at path: through path.lock, which must not exist (another git
// process holds the index), renamed into place.
func Write(path string, entries []Raw) error {
	ents := slices.Clone(entries)
	slices.SortFunc(ents, func(a, b Raw) int {
		if c := strings.Compare(a.Path, b.Path); c != 0 {
			return c
		}
		return a.Stage - b.Stage
	})
	version := uint32(2)
	for _, e := range ents {
		if e.XFlags != 0 {
			version = 3
		}
	}
	var b bytes.Buffer
	b.WriteString("DIRC")
	binary.Write(&b, binary.BigEndian, version)
	binary.Write(&b, binary.BigEndian, uint32(len(ents)))
	for i, e := range ents {
		if i > 0 && ents[i-1].Path == e.Path && ents[i-1].Stage == e.Stage {
			return fmt.Errorf("the index lists %s twice", e.Path)
		}
		if e.Path == "" || strings.IndexByte(e.Path, 0) >= 0 {
			return errors.New("an index entry has no valid path")
		}
		start := b.Len()
		b.Write(e.Stat[:])
		b.Write(e.ID[:])
		flags := e.Flags&^(flagStage|flagNameLen|flagExtended) | uint16(e.Stage<<12)&flagStage | uint16(min(len(e.Path), flagNameLen))
		if e.XFlags != 0 {
			flags |= flagExtended
		}
		binary.Write(&b, binary.BigEndian, flags)
		if e.XFlags != 0 {
			binary.Write(&b, binary.BigEndian, e.XFlags)
		}
		b.WriteString(e.Path)
		size := b.Len() - start
		b.Write(make([]byte, (size+8)&^7-size)) // 1 to 8 NULs
	}
	sum := sha1.Sum(b.Bytes())
	b.Write(sum[:])

	lock := path + ".lock"
	f, err := os.OpenFile(lock, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
	if err != nil {
		return err
	}
	_, err = f.Write(b.Bytes())
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(lock, path)
	}
	if err != nil {
		os.Remove(lock)
	}
	return err
}

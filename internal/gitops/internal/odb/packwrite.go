package odb

// Writing a pack and its index (Documentation/gitformat-pack.txt), as
// git's bulk writers (fast-import, index-pack, bulk-checkin) store
// many new objects at once: one pack file and one .idx to make durable
// instead of a loose file, and a fan-out directory, per object.

import (
	"compress/zlib" // the writer; the readers use klauspost's
	"crypto/sha1"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/oid"
)

// PackWriter writes a pack of version 2 holding whole objects (no
// deltas: the objects of one run share little), then its index of
// version 2. The number of objects is not known when the pack starts
// (a run adds the objects of each reply as it records it): the header
// holds a placeholder until Seal fixes it, reads the pack back for its
// checksum and appends that, as git fast-import does. Add each object,
// then Seal, then WriteIndex.
type PackWriter struct {
	out     packOut
	entries []indexEntry
	sum     oid.ID // the pack's trailer, once sealed
	done    bool
}

// indexEntry is what the index says of one object of the pack.
type indexEntry struct {
	id  oid.ID
	crc uint32 // of the entry's packed bytes, header included
	off int64
}

// packOut counts and checksums what goes to the pack file.
type packOut struct {
	w   io.Writer
	off int64
	crc hash.Hash32 // of the entry being written
}

func (o *packOut) Write(b []byte) (int, error) {
	n, err := o.w.Write(b)
	o.crc.Write(b[:n])
	o.off += int64(n)
	return n, err
}

// NewPackWriter writes to w the header of a pack whose object count
// Seal fills in.
func NewPackWriter(w io.Writer) (*PackWriter, error) {
	p := &PackWriter{out: packOut{w: w, crc: crc32.NewIEEE()}}
	var head [12]byte
	copy(head[:], "PACK")
	binary.BigEndian.PutUint32(head[4:], 2)
	if _, err := p.out.Write(head[:]); err != nil {
		return nil, err
	}
	return p, nil
}

// Size is how many bytes the pack has so far: where the next entry
// starts.
func (p *PackWriter) Size() int64 { return p.out.off }

// Count is how many objects the pack has so far.
func (p *PackWriter) Count() int { return len(p.entries) }

// Rewind forgets the objects added after the first count, which began
// at offset size (Count and Size before they were added): the caller
// cuts the file back to size.
func (p *PackWriter) Rewind(count int, size int64) error {
	if p.done || count > len(p.entries) || size > p.out.off || size < 12 ||
		(count < len(p.entries) && p.entries[count].off != size) {
		return fmt.Errorf("cannot rewind the pack to %d objects at %d", count, size)
	}
	p.entries = p.entries[:count]
	p.out.off = size
	return nil
}

// zlibWriters keeps the compressors for the next pack: each holds
// about a megabyte of tables, and a cold apply that made one per
// object (32 for a 10-file reply) peaked at 10 MB more than a warm one.
var zlibWriters = sync.Pool{New: func() any {
	zw, _ := zlib.NewWriterLevel(nil, zlib.BestSpeed) // a valid level: no error
	return zw
}}

// Add writes object id, of type t and size bytes read from content, as
// the next entry: its type and size header, then the zlib stream of
// the content, at best speed (the level git's loose objects have by
// default: these objects were loose ones before).
func (p *PackWriter) Add(id oid.ID, t oid.Type, size int64, content io.Reader) error {
	switch {
	case p.done:
		return errors.New("adding to a sealed pack")
	case int64(len(p.entries)) == 1<<32-1:
		return errors.New("a pack cannot hold more objects")
	case t != oid.Commit && t != oid.Tree && t != oid.Blob && t != oid.Tag:
		return fmt.Errorf("cannot pack %s as a whole object", t)
	case size < 0:
		return fmt.Errorf("object %s of size %d", id, size)
	}
	p.out.crc.Reset()
	e := indexEntry{id: id, off: p.out.off}
	// The header: the type in bits 4-6 of the first byte, the size
	// in its low 4 bits and then 7 bits a byte, low bits first; a set
	// high bit says another byte follows.
	var head [10]byte
	head[0] = byte(t)<<4 | byte(size&0x0f)
	n, rest := 1, size>>4
	for rest > 0 {
		head[n-1] |= 0x80
		head[n] = byte(rest & 0x7f)
		n, rest = n+1, rest>>7
	}
	if _, err := p.out.Write(head[:n]); err != nil {
		return err
	}
	zw := zlibWriters.Get().(*zlib.Writer)
	defer zlibWriters.Put(zw)
	zw.Reset(&p.out)
	copied, err := io.Copy(zw, content)
	if err != nil {
		return err
	}
	if copied != size {
		return fmt.Errorf("object %s is %d bytes, expected %d", id, copied, size)
	}
	if err := zw.Close(); err != nil {
		return err
	}
	e.crc = p.out.crc.Sum32()
	p.entries = append(p.entries, e)
	return nil
}

// Seal fixes the object count in the header of the pack, which was
// written to f and is there whole, then appends its trailer, the SHA-1
// of all before it, and returns it: the pack is named
// pack-<trailer>.pack. The checksum is of the bytes read back from f,
// so it covers what is on disk.
func (p *PackWriter) Seal(f *os.File) (oid.ID, error) {
	if p.done {
		return p.sum, nil
	}
	if fi, err := f.Stat(); err != nil {
		return oid.Zero, err
	} else if fi.Size() != p.out.off {
		return oid.Zero, fmt.Errorf("%s holds %d bytes, the pack %d", f.Name(), fi.Size(), p.out.off)
	}
	var count [4]byte
	binary.BigEndian.PutUint32(count[:], uint32(len(p.entries)))
	if _, err := f.WriteAt(count[:], 8); err != nil {
		return oid.Zero, err
	}
	sum := sha1.New()
	if _, err := io.Copy(sum, io.NewSectionReader(f, 0, p.out.off)); err != nil {
		return oid.Zero, err
	}
	copy(p.sum[:], sum.Sum(nil))
	if _, err := f.WriteAt(p.sum[:], p.out.off); err != nil {
		return oid.Zero, err
	}
	p.done = true
	return p.sum, nil
}

// WriteIndex writes the finished pack's index, version 2: the magic
// "\377tOc" and version, the fanout table (for each first byte, how
// many names start with it or less), the sorted names, their entries'
// CRC32s, their offsets (4 bytes; one of 2^31 or more is the index,
// with the high bit set, of its 8 bytes in the table that follows),
// the pack's trailer and the SHA-1 of the index itself.
func (p *PackWriter) WriteIndex(w io.Writer) error {
	if !p.done {
		return errors.New("the index of an unsealed pack")
	}
	entries := slices.Clone(p.entries)
	slices.SortFunc(entries, func(a, b indexEntry) int { return compareName(a.id, b.id[:]) })
	for i := 1; i < len(entries); i++ {
		if entries[i].id == entries[i-1].id {
			return fmt.Errorf("object %s is twice in the pack", entries[i].id)
		}
	}
	sum := sha1.New()
	out := io.MultiWriter(w, sum)
	buf := make([]byte, 0, 8+256*4+len(entries)*(20+4+4))
	buf = append(buf, idxHeaderV2...)
	buf = binary.BigEndian.AppendUint32(buf, 2)
	var fanout [256]uint32
	for _, e := range entries {
		fanout[e.id[0]]++
	}
	total := uint32(0)
	for _, n := range fanout {
		total += n
		buf = binary.BigEndian.AppendUint32(buf, total)
	}
	for _, e := range entries {
		buf = append(buf, e.id[:]...)
	}
	for _, e := range entries {
		buf = binary.BigEndian.AppendUint32(buf, e.crc)
	}
	var large []byte
	for _, e := range entries {
		if e.off < 1<<31 {
			buf = binary.BigEndian.AppendUint32(buf, uint32(e.off))
			continue
		}
		buf = binary.BigEndian.AppendUint32(buf, 1<<31|uint32(len(large)/8))
		large = binary.BigEndian.AppendUint64(large, uint64(e.off))
	}
	buf = append(buf, large...)
	buf = append(buf, p.sum[:]...)
	if _, err := out.Write(buf); err != nil {
		return err
	}
	_, err := w.Write(sum.Sum(nil))
	return err
}

// AddPack makes s read the pack whose index is idxPath, which the
// caller has just put in place: a pack added since s listed its packs
// is found otherwise only when a lookup misses and lists them again.
// A pack already listed, or outside s's directories, is left as is.
func (s *Store) AddPack(idxPath string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.listed {
		return // the first lookup lists it
	}
	idxPath = filepath.Clean(idxPath)
	dir := filepath.Dir(filepath.Dir(idxPath))
	for _, d := range s.dirs {
		if d.path != dir {
			continue
		}
		for _, p := range d.packs {
			if p.idxPath == idxPath {
				return
			}
		}
		// Newest first, as listPacks orders them.
		p := &pack{idxPath: idxPath, packPath: strings.TrimSuffix(idxPath, ".idx") + ".pack"}
		d.packs = append([]*pack{p}, d.packs...)
		if s.counted {
			s.packed += p.count()
		}
		return
	}
}

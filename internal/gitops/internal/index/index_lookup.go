package index

// Finding paths in an index: binary search over its marks, then one
// read of the entries from a mark to the next; and listing every path,
// which reads all entries again.

import (
	"encoding/binary"
	"errors"
	"iter"
	"slices"
	"strings"

	"github.com/git-llm-apply/git-llm-apply/internal/patch"
)

// entryAt decodes the entry at the start of e, which newIndex checked.
func entryAt(e []byte) (ie Entry, stage int) {
	flags := binary.BigEndian.Uint16(e[flagsAt:])
	copy(ie.ID[:], e[idAt:])
	ie.Mode = modeOf(binary.BigEndian.Uint32(e[modeAt:]))
	ie.Size = binary.BigEndian.Uint32(e[sizeAt:])
	ie.IntentToAdd = flags&flagExtended != 0 && binary.BigEndian.Uint16(e[nameAt:])&xflagIntentToAdd != 0
	return ie, int(flags&flagStage) >> 12
}

// fold adds the next entry of a path to acc, what the earlier ones gave
// (seen: there were some); the entry of the last stage is the one kept.
func fold(acc Entry, seen bool, e Entry, stage int) Entry {
	e.Unmerged = stage != 0 || seen && acc.Unmerged
	return e
}

// compare compares a name with path as git sorts them, byte by byte;
// the conversion does not copy (the compiler sees a comparison).
func compare(name []byte, path string) int {
	switch {
	case string(name) < path:
		return -1
	case string(name) == path:
		return 0
	}
	return 1
}

func (idx *Index) markName(m int) []byte {
	end := len(idx.markNames)
	if m+1 < len(idx.marks) {
		end = int(idx.marks[m+1].name)
	}
	return idx.markNames[idx.marks[m].name:end]
}

// Lookup returns the entry of path; for an unmerged path, that of its
// last stage, with Unmerged set. When the file cannot be read (see
// Index), it finds nothing and Err says why.
func (idx *Index) Lookup(path string) (Entry, bool) {
	if idx.listed != nil {
		i, ok := slices.BinarySearchFunc(idx.listed, path, func(l listedEntry, p string) int { return strings.Compare(l.path, p) })
		if !ok {
			return Entry{}, false
		}
		return idx.listed[i].e, true
	}
	// The entries of path are after the last mark before it (the first
	// mark when none is) and before the first mark after it: marks
	// between those two are entries of path, another of its stages.
	lo, hi := 0, len(idx.marks)
	for lo < hi {
		if m := int(uint(lo+hi) >> 1); compare(idx.markName(m), path) < 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	for hi < len(idx.marks) && compare(idx.markName(hi), path) == 0 {
		hi++
	}
	if hi == 0 {
		return Entry{}, false // before the first entry, or none
	}
	from := max(lo-1, 0)
	to := idx.end
	if hi < len(idx.marks) {
		to = int(idx.marks[hi].off)
	}
	idx.mu.Lock()
	defer idx.mu.Unlock()
	if idx.failed != nil {
		return Entry{}, false
	}
	e, ok, err := idx.find(path, from, to)
	if err != nil {
		idx.fail(err)
		return Entry{}, false
	}
	return e, ok
}

// find reads the entries from mark from to the offset to and decodes
// those of path.
func (idx *Index) find(path string, from, to int) (acc Entry, seen bool, err error) {
	mk := idx.marks[from]
	span, err := idx.read(int(mk.off), to)
	if err != nil {
		return acc, false, err
	}
	name := idx.markName(from)
	if idx.v4 {
		// Each name is decoded into the one before: a copy of the
		// mark's, in a buffer lookups share.
		name = append(idx.name[:0], name...)
	}
	for off, next := 0, int(mk.next-mk.off); ; {
		c := compare(name, path)
		if c > 0 {
			break
		}
		if c == 0 {
			e, stage := entryAt(span[off:])
			acc, seen = fold(acc, seen, e, stage), true
		}
		if off = next; off == len(span) {
			break
		}
		var size int
		if name, size, err = idx.decode(span[off:], name); err != nil {
			return acc, false, err
		}
		next = off + size
	}
	if idx.v4 {
		idx.name = name[:0]
	}
	return acc, seen, nil
}

// read returns the bytes of the file from off to end, in a buffer
// lookups share, once the file is found unchanged.
func (idx *Index) read(off, end int) ([]byte, error) {
	if err := idx.unchanged(); err != nil {
		return nil, err
	}
	if cap(idx.buf) < end-off {
		idx.buf = make([]byte, end-off)
	}
	b := idx.buf[:end-off]
	if err := readFull(idx.r, b, off); err != nil {
		return nil, err
	}
	if cap(idx.buf) > windowSize {
		idx.buf = nil // a rare long span: not kept
	}
	return b, nil
}

// errStop ends a walk early.
var errStop = errors.New("stop")

// All yields each path once, in index order, with its entry as Lookup
// gives it; the paths share one allocation. It reads the file again, and
// stops early when it fails; Err then says why.
func (idx *Index) All() iter.Seq2[string, Entry] {
	return func(yield func(string, Entry) bool) {
		if idx.listed != nil {
			for _, l := range idx.listed {
				if !yield(l.path, l.e) {
					return
				}
			}
			return
		}
		if idx.n == 0 || idx.Err() != nil {
			return
		}
		if err := idx.unchanged(); err != nil {
			idx.failWith(err)
			return
		}
		// A Builder never changes bytes it has written, so each path
		// can be a piece of what it holds, taken as it grows.
		var sb strings.Builder
		sb.Grow(idx.nameBytes)
		var cur string
		var acc Entry
		seen := false
		_, err := idx.walk(idx.end, func(_, _ int, raw, name []byte) error {
			e, stage := entryAt(raw)
			if seen && string(name) == cur {
				acc = fold(acc, true, e, stage)
				return nil
			}
			if seen && !yield(cur, acc) {
				return errStop
			}
			start := sb.Len()
			sb.Write(name)
			cur, acc, seen = sb.String()[start:], fold(Entry{}, false, e, stage), true
			return nil
		})
		switch {
		case err == errStop:
		case err != nil:
			idx.failWith(err)
		case seen:
			yield(cur, acc)
		}
	}
}

// failWith is fail for callers that do not hold the lock.
func (idx *Index) failWith(err error) {
	idx.mu.Lock()
	defer idx.mu.Unlock()
	idx.fail(err)
}

// Paths lists each path once, in index order; when the file cannot be
// read, those before the failure, and Err says why.
func (idx *Index) Paths() []string {
	out := make([]string, 0, idx.Len())
	for p := range idx.All() {
		out = append(out, p)
	}
	return out
}

// Len is how many paths there are at most: the entries of the file, a
// path's stages counted apart (of a split or sparse index, the paths).
func (idx *Index) Len() int { return idx.n + len(idx.listed) }

// modeOf maps an index entry's mode to a patch.Mode.
func modeOf(m uint32) patch.Mode {
	switch m & modeTypeMask {
	case 0o120000:
		return patch.ModeSymlink
	case 0o160000:
		return patch.ModeGitlink
	}
	if m&0o111 != 0 {
		return patch.ModeExec
	}
	return patch.ModeRegular
}

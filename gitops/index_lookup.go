package gitops

// Finding paths in a decoded index: binary search over entry offsets
// (v2, v3) or restart points (v4), and listing every path.

import (
	"bytes"
	"encoding/binary"
	"iter"
	"slices"
	"strings"

	"github.com/git-llm-apply/git-llm-apply/engine"
)

// entryAt decodes the entry at off, which parseIndex checked.
func (idx *index) entryAt(off int) (e indexEntry, stage int) {
	data := idx.data
	flags := binary.BigEndian.Uint16(data[off+flagsAt:])
	copy(e.id[:], data[off+idAt:])
	e.mode = modeOf(binary.BigEndian.Uint32(data[off+modeAt:]))
	e.intentToAdd = flags&flagExtended != 0 && binary.BigEndian.Uint16(data[off+nameAt:])&xflagIntentToAdd != 0
	return e, int(flags&flagStage) >> 12
}

// nameV2 is the name of the version 2 or 3 entry at off.
func (idx *index) nameV2(off int) []byte {
	data := idx.data
	flags := binary.BigEndian.Uint16(data[off+flagsAt:])
	p := off + nameAt
	if flags&flagExtended != 0 {
		p += 2
	}
	if n := int(flags & flagNameLen); n != flagNameLen {
		return data[p : p+n]
	}
	return data[p : p+bytes.IndexByte(data[p:], 0)]
}

// fold adds the next entry of a path to acc, what the earlier ones gave
// (seen: there were some); the entry of the last stage is the one kept.
func fold(acc indexEntry, seen bool, e indexEntry, stage int) indexEntry {
	e.unmerged = stage != 0 || seen && acc.unmerged
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

// lookup returns the entry of path; for an unmerged path, that of its
// last stage, with unmerged set.
func (idx *index) lookup(path string) (indexEntry, bool) {
	switch {
	case idx.listed != nil:
		i, ok := slices.BinarySearchFunc(idx.listed, path, func(l listedEntry, p string) int { return strings.Compare(l.path, p) })
		if !ok {
			return indexEntry{}, false
		}
		return idx.listed[i].e, true
	case idx.v4:
		return idx.lookupV4(path)
	}
	lo, hi := 0, len(idx.offs)
	for lo < hi {
		if m := int(uint(lo+hi) >> 1); compare(idx.nameV2(int(idx.offs[m])), path) < 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	var acc indexEntry
	seen := false
	for ; lo < len(idx.offs) && compare(idx.nameV2(int(idx.offs[lo])), path) == 0; lo++ {
		e, stage := idx.entryAt(int(idx.offs[lo]))
		acc, seen = fold(acc, seen, e, stage), true
	}
	return acc, seen
}

// lookupV4 decodes entries from the last mark whose name sorts before
// path (the first mark when none does) until the names pass path.
func (idx *index) lookupV4(path string) (indexEntry, bool) {
	lo, hi := 0, len(idx.marks)
	for lo < hi {
		if m := int(uint(lo+hi) >> 1); compare(idx.markName(m), path) < 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if len(idx.marks) == 0 {
		return indexEntry{}, false
	}
	mk := idx.marks[max(lo-1, 0)]
	var buf [256]byte
	name := append(buf[:0], idx.markNames[mk.name:mk.nend]...)
	off, next := mk.off, mk.next
	var acc indexEntry
	seen := false
	for i := mk.i; ; {
		c := compare(name, path)
		if c > 0 {
			break
		}
		if c == 0 {
			e, stage := idx.entryAt(off)
			acc, seen = fold(acc, seen, e, stage), true
		}
		if i++; i == idx.n {
			break
		}
		var err error
		off = next
		if name, next, err = v4Entry(idx.data, off, len(idx.data)-checksumSize, name); err != nil {
			break // not reached: parseIndex decoded the same bytes
		}
	}
	return acc, seen
}

func (idx *index) markName(m int) []byte {
	return idx.markNames[idx.marks[m].name:idx.marks[m].nend]
}

// raw yields the name and offset of each entry of the file in order;
// a name is only valid until the next one.
func (idx *index) raw(yield func([]byte, int) bool) {
	if !idx.v4 {
		for _, off := range idx.offs {
			if !yield(idx.nameV2(int(off)), int(off)) {
				return
			}
		}
		return
	}
	var name []byte
	off := headerSize
	for range idx.n {
		var next int
		var err error
		if name, next, err = v4Entry(idx.data, off, len(idx.data)-checksumSize, name); err != nil {
			return // not reached: parseIndex decoded the same bytes
		}
		if !yield(name, off) {
			return
		}
		off = next
	}
}

// all yields each path once, in index order, with its entry as lookup
// gives it. The paths share one allocation.
func (idx *index) all() iter.Seq2[string, indexEntry] {
	return func(yield func(string, indexEntry) bool) {
		if idx.listed != nil {
			for _, l := range idx.listed {
				if !yield(l.path, l.e) {
					return
				}
			}
			return
		}
		// A Builder never changes bytes it has written, so each path
		// can be a piece of what it holds, taken as it grows.
		var sb strings.Builder
		sb.Grow(idx.nameBytes)
		var cur string
		var acc indexEntry
		seen := false
		for name, off := range idx.raw {
			e, stage := idx.entryAt(off)
			if seen && string(name) == cur {
				acc = fold(acc, true, e, stage)
				continue
			}
			if seen && !yield(cur, acc) {
				return
			}
			start := sb.Len()
			sb.Write(name)
			cur, acc, seen = sb.String()[start:], fold(indexEntry{}, false, e, stage), true
		}
		if seen {
			yield(cur, acc)
		}
	}
}

// paths lists each path once, in index order.
func (idx *index) paths() []string {
	out := make([]string, 0, idx.n+len(idx.listed))
	for p := range idx.all() {
		out = append(out, p)
	}
	return out
}

// modeOf maps an index entry's mode to an engine.Mode.
func modeOf(m uint32) engine.Mode {
	switch m & modeTypeMask {
	case 0o120000:
		return engine.ModeSymlink
	case 0o160000:
		return engine.ModeGitlink
	}
	if m&0o111 != 0 {
		return engine.ModeExec
	}
	return engine.ModeRegular
}

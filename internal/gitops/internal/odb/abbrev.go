package odb

// What abbreviating object names as git does asks of the store: how
// many objects the packs hold, and how many leading hex digits a name
// shares with another object's (git's object-name.c).

import (
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/oid"
)

// PackedCount is git's repo_approximate_object_count: the objects of
// every pack of the store, alternates' included; a pack whose index
// cannot be read counts none. As git's, it is counted once and kept
// until the packs are listed again (git's reprepare_packed_git), and a
// pack added through AddPack adds its count; each pack's count is read
// once, so that counting again reads only the packs new since.
func (s *Store) PackedCount() (uint64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.list(false); err != nil {
		return 0, err
	}
	if s.counted {
		return s.packed, nil
	}
	var n uint64
	for _, d := range s.dirs {
		for _, p := range d.packs {
			n += p.count()
		}
	}
	s.packed, s.counted = n, true
	return n, nil
}

// count is the number of objects the pack's index names, 0 when it
// cannot be read, read once. A pack not yet open is not opened for it
// (a repository of many packs would keep them all open), only its
// index header read.
func (p *pack) count() uint64 {
	if p.nKnown {
		return p.n
	}
	switch {
	case p.idx != nil:
		p.n = uint64(p.idx.n)
	default:
		x, err := openPackIndex(p.idxPath)
		if err != nil {
			return 0 // read again next time: it may be being written
		}
		x.close()
		p.n = uint64(x.n)
	}
	p.nKnown = true
	return p.n
}

// LongestShared is the most leading hex digits id shares with another
// object of the store, packed or loose; a pack or loose directory that
// cannot be read counts as empty.
func (s *Store) LongestShared(id oid.ID) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.list(false) != nil {
		return 0
	}
	best := 0
	for _, d := range s.dirs {
		for _, p := range d.packs {
			if x := p.index(s); x != nil {
				best = max(best, x.longestShared(id))
			}
		}
		best = max(best, looseShared(d.path, id))
	}
	return best
}

// index returns the pack's index, opening the pack first; nil when it
// cannot be opened.
func (p *pack) index(s *Store) *packIndex {
	if p.idx == nil && p.err == nil {
		p.err = p.open()
	}
	return p.idx
}

// longestShared is the most leading hex digits id shares with another
// name of the pack: the names sort, so the longest is shared with a
// neighbour of where id stands or would stand. Names in other fanout
// buckets share no whole byte and are not looked at. A read error
// counts as no name shared.
func (x *packIndex) longestShared(id oid.ID) int {
	lo, hi := int64(0), int64(x.fanout[id[0]])
	if id[0] > 0 {
		lo = int64(x.fanout[id[0]-1])
	}
	start, end := lo, hi
	for lo < hi { // the first name not below id
		mid := lo + (hi-lo)/2
		name, err := x.read(x.names+mid*x.stride, 20)
		if err != nil {
			return 0
		}
		if compareName(id, name) > 0 {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	best := 0
	for _, pos := range []int64{lo - 1, lo, lo + 1} {
		if pos < start || pos >= end {
			continue
		}
		name, err := x.read(x.names+pos*x.stride, 20)
		if err != nil {
			return 0
		}
		if compareName(id, name) != 0 {
			best = max(best, sharedDigits(id[:], name))
		}
	}
	return best
}

// looseShared is the most leading hex digits id shares with another
// loose object of objects directory dir: those in id's fanout
// directory. A session that keeps writing loose objects makes that
// directory longer with every call, so the names are compared as
// text, where they are; only one that would be the longest is checked
// to be an object's name at all. (os.ReadDir opens a directory without
// the poller's system calls, which os.Open makes.)
func looseShared(dir string, id oid.ID) int {
	hex := id.String()
	ents, err := os.ReadDir(filepath.Join(dir, hex[:2]))
	if err != nil {
		return 0
	}
	best := 0
	for _, e := range ents {
		rest := e.Name()
		if len(rest) != len(hex)-2 || rest == hex[2:] {
			continue
		}
		// Most names differ from id in their first digits; only one
		// that shares more than the best so far needs to be a name.
		n := 0
		for n < len(rest) && rest[n]|0x20 == hex[2+n] {
			n++
		}
		if 2+n > best && oid.IsHex(hex[:2]+rest) {
			best = 2 + n
		}
	}
	return best
}

// sharedDigits counts the leading hex digits two binary names share.
func sharedDigits(a, b []byte) int {
	for i := range a {
		if x := a[i] ^ b[i]; x != 0 {
			if x&0xf0 == 0 {
				return 2*i + 1
			}
			return 2 * i
		}
	}
	return 2 * len(a)
}

// WithPrefix lists the objects of the store, packed or loose, whose
// names start with the hex digits prefix (lower case, at least two),
// each once. A pack or loose directory that cannot be read counts as
// empty, as for LongestShared.
func (s *Store) WithPrefix(prefix string) ([]oid.ID, error) {
	if len(prefix) < 2 || len(prefix) > 2*len(oid.Zero) {
		return nil, fmt.Errorf("%q is not an object name prefix", prefix)
	}
	var lo oid.ID // the smallest name with the prefix
	if _, err := hex.Decode(lo[:], []byte(prefix[:len(prefix)&^1])); err != nil {
		return nil, fmt.Errorf("%q is not an object name prefix", prefix)
	}
	if len(prefix)%2 == 1 {
		d, err := strconv.ParseUint(prefix[len(prefix)-1:], 16, 8)
		if err != nil {
			return nil, fmt.Errorf("%q is not an object name prefix", prefix)
		}
		lo[len(prefix)/2] = byte(d) << 4
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.list(false); err != nil {
		return nil, err
	}
	seen := map[oid.ID]bool{}
	var out []oid.ID
	add := func(h oid.ID) {
		if !seen[h] {
			seen[h] = true
			out = append(out, h)
		}
	}
	for _, d := range s.dirs {
		for _, p := range d.packs {
			if x := p.index(s); x != nil {
				x.withPrefix(lo, prefix, add)
			}
		}
		ents, _ := os.ReadDir(filepath.Join(d.path, prefix[:2]))
		for _, e := range ents {
			name := prefix[:2] + e.Name()
			if oid.IsHex(name) && strings.HasPrefix(name, prefix) {
				add(oid.FromHex(name))
			}
		}
	}
	return out, nil
}

// withPrefix calls fn with each name of the pack starting with prefix,
// from lo, the smallest name that could. A read error ends the list.
func (x *packIndex) withPrefix(lo oid.ID, prefix string, fn func(oid.ID)) {
	first, end := int64(0), int64(x.fanout[lo[0]])
	if lo[0] > 0 {
		first = int64(x.fanout[lo[0]-1])
	}
	for hi := end; first < hi; { // the first name not below lo
		mid := first + (hi-first)/2
		name, err := x.read(x.names+mid*x.stride, 20)
		if err != nil {
			return
		}
		if compareName(lo, name) > 0 {
			first = mid + 1
		} else {
			hi = mid
		}
	}
	for pos := first; pos < end; pos++ {
		name, err := x.read(x.names+pos*x.stride, 20)
		if err != nil {
			return
		}
		h := oid.ID(name)
		if !strings.HasPrefix(h.String(), prefix) {
			return
		}
		fn(h)
	}
}

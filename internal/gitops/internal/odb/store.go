package odb

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/fsread"
	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/oid"
	"github.com/git-llm-apply/git-llm-apply/internal/prefault"
)

// Store reads objects from an objects directory and its alternates.
// It keeps the packs it opened until Close: an open pack is what makes
// the next read cheap. Safe for concurrent use: one lock covers every
// read.
type Store struct {
	mu     sync.Mutex
	root   string       // the repository's objects directory
	dirs   []*objectDir // root first, then its alternates, depth first
	listed bool         // dirs and their packs are listed
	// packed is the number of objects in the packs of dirs when
	// counted is set (see PackedCount).
	packed  uint64
	counted bool
	// cache holds the delta bases the packs inflated: one for all
	// packs, so that many packs do not make many caches of the default
	// size.
	cache *baseCache
}

// objectDir is an objects directory and the packs it held when last
// listed, newest first.
type objectDir struct {
	path  string
	packs []*pack
}

// maxAlternateDepth is how deep git follows alternates of alternates.
const maxAlternateDepth = 5

// ErrNotFound: no objects directory of the store holds the object.
var ErrNotFound = errors.New("object not in the object directories")

// New returns the store of the objects directory root (and its
// alternates); nothing is read before the first object is asked for.
func New(root string) *Store {
	return &Store{root: root, cache: newBaseCache(baseCacheLimit)}
}

// Root is the objects directory the store was made for.
func (s *Store) Root() string { return s.root }

// Read returns the type and content of object id, found as git finds
// it: in the packs (a pack holds most
// objects of a repository, and looking there costs a lookup in an
// index already open), then loose, then in packs added since they were
// listed (a concurrent repack may have moved a loose object into one).
// ErrNotFound when none holds it. The content is the caller's.
func (s *Store) Read(id oid.ID) (oid.Type, []byte, error) {
	return s.ReadContext(context.Background(), id)
}

// ReadContext is Read that stops when ctx ends, returning its error:
// a long object is inflated a step at a time (SPEC section 2).
func (s *Store) ReadContext(ctx context.Context, id oid.ID) (oid.Type, []byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for attempt := 0; attempt < 2; attempt++ {
		if err := s.list(attempt > 0); err != nil {
			return oid.Invalid, nil, err
		}
		for _, d := range s.dirs {
			if t, data, err := d.readPacked(ctx, id, s.cache); !errors.Is(err, ErrNotFound) {
				return t, data, err
			}
		}
		for _, d := range s.dirs {
			if t, data, err := readLoose(ctx, d.path, id); !errors.Is(err, ErrNotFound) {
				return t, data, err
			}
		}
	}
	return oid.Invalid, nil, ErrNotFound
}

// Has is Read without the reading.
func (s *Store) Has(id oid.ID) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for attempt := 0; attempt < 2; attempt++ {
		if err := s.list(attempt > 0); err != nil {
			return false, err
		}
		for _, d := range s.dirs {
			for _, p := range d.packs {
				if ok, err := p.contains(id); ok || err != nil {
					return ok, err
				}
			}
		}
		for _, d := range s.dirs {
			if _, err := os.Stat(LoosePath(d.path, id)); err == nil {
				return true, nil
			}
		}
	}
	return false, nil
}

// list finds the objects directories and their packs, once, or again
// when relist is set. Packs already open stay open.
func (s *Store) list(relist bool) error {
	if s.listed && !relist {
		return nil
	}
	old := map[string]*pack{}
	for _, d := range s.dirs {
		for _, p := range d.packs {
			old[p.idxPath] = p
		}
	}
	var dirs []*objectDir
	seen := map[string]bool{}
	var add func(path string, depth int)
	add = func(path string, depth int) {
		path = filepath.Clean(path)
		if seen[path] {
			return
		}
		seen[path] = true
		if fi, err := os.Stat(path); err != nil || !fi.IsDir() {
			return // git warns and goes on without it
		}
		d := &objectDir{path: path, packs: listPacks(path, old)}
		dirs = append(dirs, d)
		if depth >= maxAlternateDepth {
			return
		}
		for _, alt := range readAlternates(path) {
			add(alt, depth+1)
		}
	}
	add(s.root, 0)
	for _, d := range dirs {
		for _, p := range d.packs {
			delete(old, p.idxPath)
		}
	}
	for _, p := range old {
		p.close(s.cache) // removed since, by a repack
	}
	s.dirs, s.listed, s.counted = dirs, true, false
	return nil
}

// readAlternates reads dir/info/alternates: one objects directory a
// line, relative ones relative to dir, '#' comments, C-quoted when the
// line starts with '"'.
func readAlternates(dir string) []string {
	data, err := fsread.ReadFile(filepath.Join(dir, "info", "alternates"))
	if err != nil {
		return nil
	}
	var out []string
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSuffix(line, "\r")
		if line == "" || line[0] == '#' {
			continue
		}
		if line[0] == '"' {
			if uq, err := strconv.Unquote(line); err == nil {
				line = uq
			}
		}
		if !filepath.IsAbs(line) {
			line = filepath.Join(dir, line)
		}
		out = append(out, line)
	}
	return out
}

// listPacks lists the packs of objects directory dir, newest first as
// git orders them (recent packs are the likeliest to hold what is
// asked), reusing the open ones of old. An .idx without its .pack is
// left out (a pack being written or removed).
func listPacks(dir string, old map[string]*pack) []*pack {
	ents, err := os.ReadDir(filepath.Join(dir, "pack"))
	if err != nil {
		return nil
	}
	type found struct {
		p     *pack
		mtime int64
	}
	var fs []found
	for _, e := range ents {
		name, ok := strings.CutSuffix(e.Name(), ".idx")
		if !ok || !strings.HasPrefix(name, "pack-") {
			continue
		}
		base := filepath.Join(dir, "pack", name)
		fi, err := os.Stat(base + ".pack")
		if err != nil {
			continue
		}
		p := old[base+".idx"]
		if p == nil || p.err != nil { // try again what failed to open
			p = &pack{idxPath: base + ".idx", packPath: base + ".pack"}
		}
		fs = append(fs, found{p, fi.ModTime().UnixNano()})
	}
	slices.SortStableFunc(fs, func(a, b found) int {
		switch {
		case a.mtime > b.mtime:
			return -1
		case a.mtime < b.mtime:
			return 1
		}
		return 0
	})
	out := make([]*pack, len(fs))
	for i, f := range fs {
		out[i] = f.p
	}
	return out
}

// readPacked reads id from the first pack of d holding it.
func (d *objectDir) readPacked(ctx context.Context, id oid.ID, c *baseCache) (oid.Type, []byte, error) {
	for _, p := range d.packs {
		if p.idx == nil && p.err == nil {
			p.err = p.open()
		}
		if errors.Is(p.err, fsread.ErrNotRegular) {
			return oid.Invalid, nil, p.err
		}
		if p.err != nil {
			continue
		}
		pos, ok, err := p.idx.find(id)
		if err != nil {
			return oid.Invalid, nil, err
		}
		if !ok {
			continue
		}
		off, err := p.idx.offset(pos)
		if err != nil {
			return oid.Invalid, nil, err
		}
		t, data, err := p.readAt(ctx, off, c)
		if err != nil {
			return oid.Invalid, nil, fmt.Errorf("%s: %s: %w", filepath.Base(p.packPath), id, err)
		}
		return t, data, nil
	}
	return oid.Invalid, nil, ErrNotFound
}

// LoosePath is where the loose object id is under objects directory
// dir.
func LoosePath(dir string, id oid.ID) string {
	h := id.String()
	return filepath.Join(dir, h[:2], h[2:])
}

// readLoose reads a loose object: the zlib stream of "<type>
// <size>\x00<content>", inflated into a buffer of the size its header
// gives, and checks its name (git's loose objects are named by the
// hash of what they hold) and the stream's checksum.
func readLoose(ctx context.Context, dir string, id oid.ID) (oid.Type, []byte, error) {
	f, fi, err := fsread.Open(LoosePath(dir, id))
	if errors.Is(err, os.ErrNotExist) {
		return oid.Invalid, nil, ErrNotFound
	}
	if err != nil {
		return oid.Invalid, nil, err
	}
	defer f.Close()
	fail := func(err error) (oid.Type, []byte, error) {
		return oid.Invalid, nil, fmt.Errorf("loose object %s: %w", id, err)
	}
	var zs zstream
	br := bufio.NewReader(f)
	if err := zs.reset(br); err != nil {
		return fail(err)
	}
	t, size, err := looseHeader(&zs)
	if err != nil {
		return fail(err)
	}
	if size > fi.Size()*deflateRatio+64 {
		return fail(fmt.Errorf("header claims %d bytes, more than its %d compressed bytes hold", size, fi.Size()))
	}
	data := prefault.Make(size)
	h := oid.NewHasher(t, size)
	if err := zs.fill(ctx, data, h); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			return fail(fmt.Errorf("content ends before the %d bytes its header says", size))
		}
		return fail(err)
	}
	if err := zs.end(); err != nil {
		return fail(err)
	}
	if _, err := br.ReadByte(); err != io.EOF {
		// git's unpack_loose_rest refuses any byte after the stream
		// (SPEC section 5).
		if err != nil {
			return fail(err)
		}
		return oid.Invalid, nil, fmt.Errorf("garbage at end of loose object '%s'", id)
	}
	if got := h.Sum(); got != id {
		return fail(fmt.Errorf("content hashes to %s", got))
	}
	return t, data, nil
}

// looseHeader reads "<type> <size>\x00" from r.
func looseHeader(r io.Reader) (oid.Type, int64, error) {
	var head [32]byte // "commit " and 20 digits, with room
	var one [1]byte
	for n := 0; ; n++ {
		if n == len(head) {
			return oid.Invalid, 0, errors.New("malformed header")
		}
		if _, err := io.ReadFull(r, one[:]); err != nil {
			return oid.Invalid, 0, fmt.Errorf("header: %w", err)
		}
		if one[0] != 0 {
			head[n] = one[0]
			continue
		}
		typ, sz, ok := strings.Cut(string(head[:n]), " ")
		t, err := oid.ParseType(typ)
		size, serr := strconv.ParseInt(sz, 10, 64)
		// git takes the size in canonical decimal only: no sign, no
		// leading zero (parse_loose_header).
		canonical := serr == nil && strconv.FormatInt(size, 10) == sz
		if !ok || err != nil || !t.Valid() || t == oid.OFSDelta || t == oid.REFDelta || !canonical || size < 0 {
			return oid.Invalid, 0, fmt.Errorf("malformed header %q", head[:n])
		}
		return t, size, nil
	}
}

// Close closes the packs the store opened; a later read opens them
// again.
func (s *Store) Close() {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, d := range s.dirs {
		for _, p := range d.packs {
			p.close(s.cache)
		}
	}
	s.dirs, s.listed = nil, false
}

// pack is one pack of an objects directory, opened on first use.
type pack struct {
	idxPath, packPath string
	idx               *packIndex
	rd                *reader
	err               error  // opening failed: the pack is skipped
	n                 uint64 // objects in the pack, once nKnown
	nKnown            bool
}

// contains looks id up in the pack's index, opening it first. A pack
// that cannot be opened holds nothing (git warns and goes on), but a
// .idx or .pack that is no regular file (a FIFO) is refused, as any
// such file of the repository (SPEC section 5).
func (p *pack) contains(id oid.ID) (bool, error) {
	if p.idx == nil && p.err == nil {
		p.err = p.open()
	}
	if errors.Is(p.err, fsread.ErrNotRegular) {
		return false, p.err
	}
	if p.err != nil {
		return false, nil
	}
	_, ok, err := p.idx.find(id)
	return ok, err
}

func (p *pack) open() error {
	idx, err := openPackIndex(p.idxPath)
	if err != nil {
		return err
	}
	f, fi, err := fsread.Open(p.packPath)
	if err != nil {
		idx.close()
		return err
	}
	// The pack ends with the checksum its index names: a pack replaced
	// under the same name (or a truncated one) is not read with the
	// wrong index.
	var sum [20]byte
	if fi.Size() < 32 {
		err = fmt.Errorf("%s: too short for a pack", p.packPath)
	}
	if err == nil {
		_, err = f.ReadAt(sum[:], fi.Size()-20)
	}
	if err == nil && sum != idx.packSum {
		err = fmt.Errorf("%s does not match its index", p.packPath)
	}
	if err != nil {
		f.Close()
		idx.close()
		return err
	}
	p.idx = idx
	p.rd = newReader(f, fi.Size())
	return nil
}

func (p *pack) close(c *baseCache) {
	if p.rd != nil {
		p.rd.f.Close()
		c.forget(p)
	}
	if p.idx != nil {
		p.idx.close()
	}
	p.idx, p.rd, p.err = nil, nil, nil
}

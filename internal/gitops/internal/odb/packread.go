package odb

// Reading an object from a pack (gitformat-pack): the entry header
// gives the type and the inflated size, so a whole object is inflated
// into a buffer of its final size, allocated once; a delta's header
// gives the size of its result, which is allocated once too. Delta
// bases met on the way are kept in a cache shared by the store's
// packs, as git's delta base cache.

import (
	"bufio"
	"container/list"
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/oid"
	"github.com/git-llm-apply/git-llm-apply/internal/prefault"
)

// Pack entry types beyond the object types (which plumbing's
// ObjectType numbers as git does).
const (
	ofsDeltaType = 6
	refDeltaType = 7
	// maxDeltaChain bounds a chain of deltas: git writes at most 4095,
	// and a corrupt pack may make REF_DELTA entries a loop.
	maxDeltaChain = 10000
	// deflateRatio is more than deflate can expand (1032:1): an entry
	// claiming more than its compressed bytes can hold is corrupt, and
	// is refused before its buffer is allocated.
	deflateRatio = 1040
)

// errCorrupt wraps what is wrong with a pack entry.
var errCorrupt = errors.New("corrupt pack entry")

// reader holds what reading entries of a pack reuses: buffered
// readers over the pack and a zlib stream reader.
type reader struct {
	f    *os.File
	size int64 // of the pack file
	br   *bufio.Reader
	at   int64 // where br reads next in the pack, -1 when unknown
	// big reads the data of large entries: a read of the file for each
	// 4 KiB of a large blob costs more than its inflation.
	big *bufio.Reader
	zs  zstream
}

// bigEntry is the inflated size from which an entry is read with
// reader.big.
const bigEntry = 32 << 10

func newReader(f *os.File, size int64) *reader {
	return &reader{f: f, size: size, br: bufio.NewReader(nil), at: -1}
}

// entryHeader is a pack entry's header: its type, its inflated size
// and, for a delta, where its base is (OFS_DELTA) or its base's name
// (REF_DELTA); data is where the compressed bytes start.
type entryHeader struct {
	typ     int
	size    int64
	baseOff int64
	baseID  oid.ID
	data    int64
}

// header reads the entry header at off.
func (rd *reader) header(off int64) (entryHeader, error) {
	if off < 12 || off >= rd.size-20 {
		return entryHeader{}, fmt.Errorf("%w: offset %d is outside the pack", errCorrupt, off)
	}
	rd.br.Reset(io.NewSectionReader(rd.f, off, rd.size-20-off))
	rd.at = -1
	var h entryHeader
	c, err := rd.br.ReadByte()
	if err != nil {
		return h, rd.short(err)
	}
	n := int64(1)
	h.typ = int(c>>4) & 7
	h.size = int64(c & 15)
	for shift := 4; c&0x80 != 0; shift += 7 {
		if shift > 56 {
			return h, fmt.Errorf("%w: size at %d overflows", errCorrupt, off)
		}
		if c, err = rd.br.ReadByte(); err != nil {
			return h, rd.short(err)
		}
		n++
		h.size |= int64(c&0x7f) << shift
	}
	switch h.typ {
	case 1, 2, 3, 4:
	case ofsDeltaType:
		if c, err = rd.br.ReadByte(); err != nil {
			return h, rd.short(err)
		}
		n++
		back := int64(c & 0x7f)
		for c&0x80 != 0 {
			if back >= 1<<55 {
				return h, fmt.Errorf("%w: base offset at %d overflows", errCorrupt, off)
			}
			if c, err = rd.br.ReadByte(); err != nil {
				return h, rd.short(err)
			}
			n++
			back = (back+1)<<7 | int64(c&0x7f)
		}
		if back <= 0 || back >= off {
			return h, fmt.Errorf("%w: delta at %d has its base at %d", errCorrupt, off, off-back)
		}
		h.baseOff = off - back
	case refDeltaType:
		if _, err := io.ReadFull(rd.br, h.baseID[:]); err != nil {
			return h, rd.short(err)
		}
		n += 20
	default:
		return h, fmt.Errorf("%w: type %d at %d", errCorrupt, h.typ, off)
	}
	h.data = off + n
	rd.at = h.data
	if h.size > (rd.size-20-h.data)*deflateRatio+64 {
		return h, fmt.Errorf("%w: the entry at %d claims %d bytes, more than its data can hold", errCorrupt, off, h.size)
	}
	return h, nil
}

func (rd *reader) short(err error) error {
	if errors.Is(err, io.EOF) {
		err = io.ErrUnexpectedEOF
	}
	return fmt.Errorf("%w: %w", errCorrupt, err)
}

// inflate inflates the data of entry h, which must be exactly h.size
// bytes and end the zlib stream (whose checksum is then checked).
func (rd *reader) inflate(ctx context.Context, h entryHeader) ([]byte, error) {
	src := rd.br
	switch {
	case h.size >= bigEntry:
		if rd.big == nil {
			rd.big = bufio.NewReaderSize(nil, 256<<10)
		}
		src = rd.big
		src.Reset(io.NewSectionReader(rd.f, h.data, rd.size-20-h.data))
	case rd.at != h.data:
		src.Reset(io.NewSectionReader(rd.f, h.data, rd.size-20-h.data))
	}
	rd.at = -1
	if err := rd.zs.reset(src); err != nil {
		return nil, fmt.Errorf("%w: at %d: %w", errCorrupt, h.data, rd.short(err))
	}
	buf := prefault.Make(h.size)
	if err := rd.zs.fill(ctx, buf, nil); err != nil {
		return nil, fmt.Errorf("%w: at %d: %w", errCorrupt, h.data, rd.short(err))
	}
	if err := rd.zs.end(); err != nil {
		return nil, fmt.Errorf("%w: at %d: %w", errCorrupt, h.data, err)
	}
	return buf, nil
}

// read returns the type and content of the object at off, resolving
// deltas; the content is the caller's.
func (p *pack) readAt(ctx context.Context, off int64, cache *baseCache) (oid.Type, []byte, error) {
	// Walk down to a base that is whole or cached, then apply the
	// deltas back up.
	type step struct {
		off int64
		h   entryHeader
	}
	var chain []step
	var typ oid.Type
	var data []byte
	for cur := off; ; {
		if t, d, ok := cache.get(p, cur); ok {
			typ, data = t, d
			if len(chain) == 0 {
				data = append([]byte(nil), d...) // the cache keeps its copy
			}
			break
		}
		h, err := p.rd.header(cur)
		if err != nil {
			return oid.Invalid, nil, err
		}
		if h.typ < ofsDeltaType {
			if data, err = p.rd.inflate(ctx, h); err != nil {
				return oid.Invalid, nil, err
			}
			typ = oid.Type(h.typ)
			if len(chain) > 0 {
				cache.put(p, cur, typ, data)
			}
			break
		}
		if len(chain) == maxDeltaChain {
			return oid.Invalid, nil, fmt.Errorf("%w: a chain of more than %d deltas at %d", errCorrupt, maxDeltaChain, off)
		}
		chain = append(chain, step{cur, h})
		if h.typ == ofsDeltaType {
			cur = h.baseOff
			continue
		}
		pos, ok, err := p.idx.find(h.baseID)
		if err != nil {
			return oid.Invalid, nil, err
		}
		if !ok {
			return oid.Invalid, nil, fmt.Errorf("%w: the base %s of the delta at %d is not in the pack", errCorrupt, h.baseID, cur)
		}
		if cur, err = p.idx.offset(pos); err != nil {
			return oid.Invalid, nil, err
		}
	}
	for i := len(chain) - 1; i >= 0; i-- {
		delta, err := p.rd.inflate(ctx, chain[i].h)
		if err != nil {
			return oid.Invalid, nil, err
		}
		if data, err = applyDelta(data, delta); err != nil {
			return oid.Invalid, nil, fmt.Errorf("%w: delta at %d: %w", errCorrupt, chain[i].off, err)
		}
		if i > 0 {
			cache.put(p, chain[i].off, typ, data)
		}
	}
	return typ, data, nil
}

// applyDelta applies a git delta to base (git's patch_delta): the
// sizes of the base and of the result, then copies from the base and
// inserted bytes. The result, of the size the delta gives, is
// allocated once.
func applyDelta(base, delta []byte) ([]byte, error) {
	srcSize, delta, ok := deltaSize(delta)
	if !ok || srcSize != uint64(len(base)) {
		return nil, fmt.Errorf("base is %d bytes, the delta expects %d", len(base), srcSize)
	}
	dstSize, delta, ok := deltaSize(delta)
	if !ok || dstSize > uint64(len(delta))*max(uint64(len(base)), 127) {
		return nil, errors.New("bad result size")
	}
	out := prefault.Make(dstSize)[:0]
	for len(delta) > 0 {
		cmd := delta[0]
		delta = delta[1:]
		switch {
		case cmd&0x80 != 0:
			var off, size uint64
			for i := range 4 {
				if cmd&(1<<i) != 0 {
					if len(delta) == 0 {
						return nil, errors.New("truncated copy")
					}
					off |= uint64(delta[0]) << (8 * i)
					delta = delta[1:]
				}
			}
			for i := range 3 {
				if cmd&(0x10<<i) != 0 {
					if len(delta) == 0 {
						return nil, errors.New("truncated copy")
					}
					size |= uint64(delta[0]) << (8 * i)
					delta = delta[1:]
				}
			}
			if size == 0 {
				size = 0x10000
			}
			if off+size > uint64(len(base)) || size > dstSize-uint64(len(out)) {
				return nil, errors.New("copy out of bounds")
			}
			out = append(out, base[off:off+size]...)
		case cmd != 0:
			if int(cmd) > len(delta) || uint64(cmd) > dstSize-uint64(len(out)) {
				return nil, errors.New("insert out of bounds")
			}
			out = append(out, delta[:cmd]...)
			delta = delta[cmd:]
		default:
			return nil, errors.New("unexpected delta opcode 0")
		}
	}
	if uint64(len(out)) != dstSize {
		return nil, fmt.Errorf("result is %d bytes, the delta says %d", len(out), dstSize)
	}
	return out, nil
}

// deltaSize reads a size of a delta header: 7 bits a byte, least
// significant first.
func deltaSize(b []byte) (uint64, []byte, bool) {
	var v uint64
	for i, shift := 0, 0; i < len(b) && shift < 64; i, shift = i+1, shift+7 {
		v |= uint64(b[i]&0x7f) << shift
		if b[i]&0x80 == 0 {
			return v, b[i+1:], true
		}
	}
	return 0, nil, false
}

// baseCache keeps delta bases by pack and offset, least recently used
// out first, up to a total size (git's core.deltaBaseCacheLimit
// default, 96 MiB).
type baseCache struct {
	limit, size int64
	order       *list.List // of *cached, most recent first
	byKey       map[cacheKey]*list.Element
}

type cacheKey struct {
	p   *pack
	off int64
}

type cached struct {
	key  cacheKey
	typ  oid.Type
	data []byte
}

const baseCacheLimit = 96 << 20

func newBaseCache(limit int64) *baseCache {
	return &baseCache{limit: limit, order: list.New(), byKey: map[cacheKey]*list.Element{}}
}

func (c *baseCache) get(p *pack, off int64) (oid.Type, []byte, bool) {
	e, ok := c.byKey[cacheKey{p, off}]
	if !ok {
		return oid.Invalid, nil, false
	}
	c.order.MoveToFront(e)
	o := e.Value.(*cached)
	return o.typ, o.data, true
}

// put keeps data, which nothing else may change from now on.
func (c *baseCache) put(p *pack, off int64, typ oid.Type, data []byte) {
	k := cacheKey{p, off}
	if _, ok := c.byKey[k]; ok || int64(len(data)) > c.limit/4 {
		return
	}
	c.byKey[k] = c.order.PushFront(&cached{k, typ, data})
	c.size += int64(len(data))
	for c.size > c.limit {
		last := c.order.Back()
		o := last.Value.(*cached)
		c.order.Remove(last)
		delete(c.byKey, o.key)
		c.size -= int64(len(o.data))
	}
}

// forget drops the bases of pack p, which is closed.
func (c *baseCache) forget(p *pack) {
	for e := c.order.Front(); e != nil; {
		next := e.Next()
		if o := e.Value.(*cached); o.key.p == p {
			c.order.Remove(e)
			delete(c.byKey, o.key)
			c.size -= int64(len(o.data))
		}
		e = next
	}
}

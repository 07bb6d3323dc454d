package gitops

// The pack of a run: written as the run records, then sealed, synced
// and named as git's bulk writers do (see objects_write.go).

import (
	"bufio"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/oid"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/odb"
)

// runPack is the pack a BranchWriter writes during a run, under git's
// temporary name tmp_pack_* in objects/pack until Finish seals and
// names it. The objects written so far are in the file (each add ends
// with a flush) and are read from there by the Repo (readRaw,
// hasObject), from any goroutine: mu guards ids, size and rd.
type runPack struct {
	dir     string // objects/pack
	created bool   // dir was made for this pack
	f       *os.File
	bw      *bufio.Writer
	pw      *odb.PackWriter

	mu   sync.Mutex
	ids  map[oid.ID]int64 // offset of each object's entry
	size int64            // bytes in the file
	rd   *odb.PendingReader
}

// newRunPack starts a pack in packDir, made if missing.
func newRunPack(packDir string) (*runPack, error) {
	p := &runPack{dir: packDir, ids: map[oid.ID]int64{}}
	if _, err := os.Stat(packDir); errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(packDir, 0o777); err != nil {
			return nil, err
		}
		p.created = true
	}
	f, err := os.CreateTemp(packDir, "tmp_pack_")
	if err != nil {
		return nil, err
	}
	p.f = f
	p.bw = bufio.NewWriterSize(f, 64<<10)
	if p.pw, err = odb.NewPackWriter(p.bw); err == nil {
		err = p.bw.Flush()
	}
	if err != nil {
		p.remove()
		return nil, err
	}
	p.size = p.pw.Size()
	p.rd = odb.NewPendingReader(f)
	return p, nil
}

// add appends objs to the pack and flushes them to the file. When it
// fails, or ctx ends between two objects, the pack is cut back to what
// it held before: none of objs is in it.
func (p *runPack) add(ctx context.Context, objs []pendingObject) error {
	count, size := p.pw.Count(), p.pw.Size()
	offs := make([]int64, 0, len(objs))
	err := func() error {
		for _, o := range objs {
			if err := ctx.Err(); err != nil {
				return err
			}
			offs = append(offs, p.pw.Size())
			rd, err := o.obj.Reader()
			if err != nil {
				return err
			}
			err = p.pw.Add(o.id, o.obj.Type(), o.obj.Size(), rd)
			rd.Close()
			if err != nil {
				return err
			}
		}
		return p.bw.Flush()
	}()
	if err != nil {
		return errors.Join(err, p.rewind(count, size))
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for i, o := range objs {
		p.ids[o.id] = offs[i]
	}
	p.size = p.pw.Size()
	return nil
}

// rewind cuts the pack back to count objects, size bytes.
func (p *runPack) rewind(count int, size int64) error {
	p.bw.Reset(p.f) // drops what was not flushed
	if err := p.pw.Rewind(count, size); err != nil {
		return err
	}
	if err := p.f.Truncate(size); err != nil {
		return err
	}
	_, err := p.f.Seek(size, io.SeekStart)
	return err
}

// has reports whether object id is in the pack.
func (p *runPack) has(id oid.ID) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	_, ok := p.ids[id]
	return ok
}

// read returns the type and content of object id, ok false when the
// pack does not hold it.
func (p *runPack) read(id oid.ID) (t oid.Type, data []byte, ok bool, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	off, ok := p.ids[id]
	if !ok {
		return oid.Invalid, nil, false, nil
	}
	t, data, err = p.rd.Read(off, p.size)
	return t, data, true, err
}

// empty reports whether the pack holds no object.
func (p *runPack) empty() bool { return p.pw.Count() == 0 }

// seal completes the pack (its object count and trailer), writes its
// index under tmp_idx_*, syncs both as d says (core.fsync's pack and
// pack-metadata) and names them pack-<sum>.pack and
// .idx, the index last, and returns the index's path. Both files are
// complete and synced before their names appear; a pack of the same
// name already there holds the same objects and is kept as it is. The
// index's temporary file is gone after it; remove, which the caller
// calls next whether seal failed or not, removes the pack's. A kill
// leaves only the temporary names, which git gc removes.
func (p *runPack) seal(d durability) (idxPath string, err error) {
	sum, err := p.pw.Seal(p.f)
	if err != nil {
		return "", err
	}
	idxFile, err := os.CreateTemp(p.dir, "tmp_idx_")
	if err != nil {
		return "", err
	}
	defer func() {
		idxFile.Close()           // a second Close only fails
		os.Remove(idxFile.Name()) // after a link, or after a failure
	}()
	p.bw.Reset(idxFile)
	if err := p.pw.WriteIndex(p.bw); err != nil {
		return "", err
	}
	if err := p.bw.Flush(); err != nil {
		return "", err
	}
	// Side by side: the filesystem serves the two waits together.
	files := []*os.File{p.f, idxFile}
	parts := []fsyncComponent{fsyncPack, fsyncPackMetadata}
	if err := eachAtOnce(len(files), func(i int) error { return d.sync(parts[i], files[i]) }); err != nil {
		return "", err
	}
	if err := idxFile.Close(); err != nil {
		return "", err
	}
	for _, f := range files {
		if err := os.Chmod(f.Name(), 0o444); err != nil {
			return "", err
		}
	}
	base := filepath.Join(p.dir, "pack-"+sum.String())
	named, err := publish(p.f.Name(), base+".pack")
	if err != nil {
		return "", err
	}
	if _, err := publish(idxFile.Name(), base+".idx"); err != nil {
		if named {
			os.Remove(base + ".pack") // no pack without its index
		}
		return "", err
	}
	return base + ".idx", nil
}

// remove closes the pack's file and removes its temporary name (its
// final one, once sealed, stays); the pack reads as empty from then on.
func (p *runPack) remove() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.ids = nil
	p.f.Close()
	os.Remove(p.f.Name())
}

// publish gives the synced file tmp its final name, and says whether it
// did. A file already there (same name, so same content) is kept:
// linking, not renaming, never replaces it with one a reader may see
// half written on a filesystem without atomic rename.
func publish(tmp, final string) (bool, error) {
	err := os.Link(tmp, final)
	if errors.Is(err, fs.ErrExist) {
		return false, nil
	}
	if err != nil {
		// Some filesystems have no hard links; git falls back to rename.
		if err := os.Rename(tmp, final); err != nil {
			return false, err
		}
	}
	return true, nil
}

// syncFile makes the content of f durable (a variable for the tests,
// which watch the order of the syncs).
var syncFile = func(f *os.File) error { return f.Sync() }

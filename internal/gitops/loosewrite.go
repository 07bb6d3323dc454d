package gitops

// The objects of a small run, written loose as git unpacks a small
// fetch (SPEC section 3).
//
// A pack per run made a session of 1,000 one-reply runs hold 1,000
// packs, which every lookup then tried in turn. git keeps a fetch of
// fewer than fetch.unpackLimit (or transfer.unpackLimit, default 100)
// objects as loose objects instead; so does a run here: its objects
// wait in memory, where its later Records read them back, until they
// reach that many (or 1 MiB), and then go to the run's pack as before.
// Finish writes a run still under the limit loose as git writes one:
// a temporary tmp_obj_* in the object's fan-out directory, deflated at
// core.looseCompression, made durable as core.fsync and
// core.fsyncMethod say (fsync.go; by default written out, then one
// flush for all), linked into place (an object already there is kept),
// all before the branch moves. A run stopped before Finish wrote
// nothing.

import (
	"compress/zlib"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/config"
	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/odb"
	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/oid"
)

const (
	// defaultUnpackLimit is git's unpack_limit: a fetch of fewer
	// objects is unpacked into loose objects.
	defaultUnpackLimit = 100
	// heldBytesLimit bounds the content a run keeps in memory for
	// loose objects: a run past it writes a pack, however few its
	// objects.
	heldBytesLimit = 1 << 20
)

// unpackLimit is git fetch's: fetch.unpackLimit, else
// transfer.unpackLimit, else 100; 0 keeps every run's objects in a
// pack.
func unpackLimit(cfg *config.Values) (int, error) {
	n, ok, err := firstInt(cfg, func(n int) bool { return n >= 0 }, "fetch.unpacklimit", "transfer.unpacklimit")
	if err != nil || ok {
		return n, err
	}
	return defaultUnpackLimit, nil
}

// firstInt is the integer of the first of keys that is set and whose
// value takes (a value it does not take falls through to the next key,
// as git's negative unpackLimit does).
func firstInt(cfg *config.Values, take func(int) bool, keys ...string) (int, bool, error) {
	for _, key := range keys {
		v, ok := cfg.Get(key)
		if !ok {
			continue
		}
		n, err := config.Int(v)
		if err != nil {
			return 0, false, fmt.Errorf("bad numeric config value '%s' for '%s': %v", v, key, err)
		}
		if take(n) {
			return n, true, nil
		}
	}
	return 0, false, nil
}

// looseLevel is the zlib level of loose objects, as git reads it:
// core.looseCompression, else core.compression, else best speed; -1
// is zlib's default, and any other value outside 0-9 an error.
func looseLevel(cfg *config.Values) (int, error) {
	n, ok, err := firstInt(cfg, func(int) bool { return true }, "core.loosecompression", "core.compression")
	switch {
	case err != nil:
		return 0, err
	case !ok:
		return zlib.BestSpeed, nil
	case n < -1 || n > 9:
		return 0, fmt.Errorf("bad zlib compression level %d", n)
	}
	return n, nil
}

// heldObjects are the objects of a run not yet written: Records add
// to them, the Repo reads them (readRaw, hasObject) from any
// goroutine, and Finish writes them loose. mu guards all.
type heldObjects struct {
	mu    sync.Mutex
	objs  map[oid.ID]*memObject
	order []oid.ID // as added: the pack they may move to gets them so
	bytes int64
}

func newHeldObjects() *heldObjects { return &heldObjects{objs: map[oid.ID]*memObject{}} }

// fits reports whether todo joins the held objects without their
// reaching limit objects or heldBytesLimit bytes.
func (h *heldObjects) fits(todo []pendingObject, limit int) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	n, size := len(h.objs)+len(todo), h.bytes
	for _, p := range todo {
		size += p.obj.Size()
	}
	return n < limit && size < heldBytesLimit
}

// add reads each of todo into memory and holds them all, or none when
// reading one fails or ctx ends first.
func (h *heldObjects) add(ctx context.Context, todo []pendingObject) error {
	read := make([]*memObject, 0, len(todo))
	for _, p := range todo {
		if err := ctx.Err(); err != nil {
			return err
		}
		m, ok := p.obj.(*memObject)
		if !ok {
			rd, err := p.obj.Reader()
			if err != nil {
				return err
			}
			data, err := io.ReadAll(rd)
			rd.Close()
			if err != nil {
				return err
			}
			if int64(len(data)) != p.obj.Size() {
				return fmt.Errorf("object %s is %d bytes, expected %d", p.id, len(data), p.obj.Size())
			}
			m = &memObject{typ: p.obj.Type(), id: p.id, data: data}
		}
		read = append(read, m)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, m := range read {
		if _, ok := h.objs[m.id]; !ok {
			h.objs[m.id] = m
			h.order = append(h.order, m.id)
			h.bytes += m.Size()
		}
	}
	return nil
}

// pending returns the held objects in the order they were added.
func (h *heldObjects) pending() []pendingObject {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]pendingObject, len(h.order))
	for i, id := range h.order {
		out[i] = pendingObject{id, h.objs[id]}
	}
	return out
}

func (h *heldObjects) has(id oid.ID) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	_, ok := h.objs[id]
	return ok
}

// read returns a copy of held object id's content, ok false when it is
// not held.
func (h *heldObjects) read(id oid.ID) (oid.Type, []byte, bool, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	m, ok := h.objs[id]
	if !ok {
		return oid.Invalid, nil, false, nil
	}
	return m.typ, append([]byte(nil), m.data...), true, nil
}

// writeHeld writes the held objects of the run loose, in two steps,
// as git's batch mode does: each object under a temporary name, side
// by side (synced or written out as w.durable says; the filesystem
// serves waits that overlap together), then, after the one flush of
// batch mode, the final names. A failure before the names leaves none
// (the temporary files are removed); one while naming leaves the
// objects named so far, unreachable, as git leaves them: git gc prunes
// them.
func (w *BranchWriter) writeHeld() error {
	root := filepath.Join(w.r.commonDir, "objects")
	objs := w.held.pending()
	tmps := make([]string, len(objs))
	defer func() {
		for _, name := range tmps {
			if name != "" {
				os.Remove(name) // after a link, or after a failure
			}
		}
	}()
	err := eachAtOnce(len(objs), func(i int) error {
		p := objs[i]
		tmp, err := stageLoose(root, p.obj.(*memObject), w.looseLevel, w.durable)
		tmps[i] = tmp
		if err != nil {
			return fmt.Errorf("writing %s %s: %w", p.obj.Type(), p.id, err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if w.durable.batchLoose() && len(objs) > 0 {
		if err := flushBatch(root); err != nil {
			return fmt.Errorf("syncing %d objects: %w", len(objs), err)
		}
	}
	for i, p := range objs {
		if _, err := publish(tmps[i], odb.LoosePath(root, p.id)); err != nil {
			return fmt.Errorf("writing %s %s: %w", p.obj.Type(), p.id, err)
		}
	}
	w.dropHeld()
	return nil
}

// dropHeld forgets the held objects: written, moved to the pack, or
// given up.
func (w *BranchWriter) dropHeld() {
	if w.held != nil {
		w.r.running.drop(w.held)
		w.held = nil
	}
}

// stageLoose writes obj under a temporary name in its fan-out
// directory below root (made if missing), complete and synced as d
// says for a loose object, and returns that name ("" when there is no
// file). publish then gives it its final name, where an object that
// appeared meanwhile (another writer of the same content) is kept as
// it is.
func stageLoose(root string, obj *memObject, level int, d durability) (string, error) {
	dir := filepath.Dir(odb.LoosePath(root, obj.id))
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(dir, 0o777); err != nil {
			return "", err
		}
	}
	// git's own name for these, so that git gc removes any a crash
	// leaves behind.
	tmp, err := os.CreateTemp(dir, "tmp_obj_")
	if err != nil {
		return "", err
	}
	name := tmp.Name()
	if err := deflateLoose(tmp, obj, level); err != nil {
		tmp.Close()
		return name, err
	}
	if err := d.syncLoose(tmp); err != nil {
		tmp.Close()
		return name, err
	}
	if err := tmp.Close(); err != nil {
		return name, err
	}
	return name, os.Chmod(name, 0o444)
}

// looseZlib keeps a compressor per level (-1 to 9) for the next object:
// each holds about a megabyte of tables.
var looseZlib [11]sync.Pool

// deflateLoose writes git's loose form of obj to w: the zlib stream of
// "<type> <size>\x00<content>" at level.
func deflateLoose(w io.Writer, obj *memObject, level int) error {
	pool := &looseZlib[level+1]
	zw, _ := pool.Get().(*zlib.Writer)
	if zw == nil {
		var err error
		if zw, err = zlib.NewWriterLevel(w, level); err != nil {
			return err
		}
	} else {
		zw.Reset(w)
	}
	defer pool.Put(zw)
	if _, err := fmt.Fprintf(zw, "%s %d\x00", obj.typ, len(obj.data)); err != nil {
		return err
	}
	if _, err := zw.Write(obj.data); err != nil {
		return err
	}
	return zw.Close()
}

package gitops

// Writing loose objects durably.
//
// A commit is only as safe as the objects it names: the branch must
// never point at a commit whose blobs a crash lost. So each object is
// written to a temporary file beside its final name, synced, and linked
// into place; the directories that gained names are synced before the
// caller moves any ref. go-git's storage does the same steps without
// the syncs, and puts its temporary files where git's gc does not look.

import (
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/go-git/go-git/v5/plumbing"
)

// writeObjects stores objects in order, skipping those already stored,
// and returns once every new one is on disk.
func (r *Repo) writeObjects(objs []pendingObject) error {
	done := map[plumbing.Hash]bool{}
	dirs := map[string]bool{}
	root := filepath.Join(r.commonDir, "objects")
	for _, p := range objs {
		if done[p.id] {
			continue
		}
		done[p.id] = true
		if has, err := r.hasObject(p.id); err != nil {
			return err
		} else if has {
			continue
		}
		dir, created, err := writeLoose(root, p.id, p.obj)
		if err != nil {
			return fmt.Errorf("gitops: writing %s %s: %w", p.obj.Type(), p.id, err)
		}
		dirs[dir] = true
		if created {
			dirs[root] = true // which now names dir
		}
	}
	for dir := range dirs {
		if err := syncDir(dir); err != nil {
			return fmt.Errorf("gitops: syncing %s: %w", dir, err)
		}
	}
	return nil
}

// writeLoose writes obj as objects/xx/yyyy... under root and returns
// the directory that holds it, and whether it made that directory. The
// file is complete and synced before its name appears; an object that
// appears meanwhile (another writer of the same content) is kept as it
// is.
func writeLoose(root string, id plumbing.Hash, obj plumbing.EncodedObject) (dir string, created bool, err error) {
	final := loosePath(root, id)
	dir = filepath.Dir(final)
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(dir, 0o777); err != nil {
			return "", false, err
		}
		created = true
	}
	// git's own name for these, so that git gc removes any a crash
	// leaves behind.
	tmp, err := os.CreateTemp(dir, "tmp_obj_")
	if err != nil {
		return "", false, err
	}
	name := tmp.Name()
	defer os.Remove(name) // after a link, or after a failure
	if err := deflateObject(tmp, obj); err != nil {
		tmp.Close()
		return "", false, err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return "", false, err
	}
	if err := tmp.Close(); err != nil {
		return "", false, err
	}
	if err := os.Chmod(name, 0o444); err != nil {
		return "", false, err
	}
	// link, not rename: an object already there (same name, so same
	// content) must not be replaced by a file a reader may see half
	// written on a filesystem without atomic rename.
	err = os.Link(name, final)
	if errors.Is(err, fs.ErrExist) {
		return dir, created, nil
	}
	if err != nil {
		// Some filesystems have no hard links; git falls back to rename.
		if err := os.Rename(name, final); err != nil {
			return "", false, err
		}
	}
	return dir, created, nil
}

// deflateObject writes git's loose form of obj to w: the zlib stream of
// "<type> <size>\x00<content>", at core.looseCompression's default
// level (best speed).
func deflateObject(w io.Writer, obj plumbing.EncodedObject) error {
	zw, err := zlib.NewWriterLevel(w, zlib.BestSpeed)
	if err != nil {
		return err
	}
	if _, err := fmt.Fprintf(zw, "%s %d\x00", obj.Type(), obj.Size()); err != nil {
		return err
	}
	rd, err := obj.Reader()
	if err != nil {
		return err
	}
	n, err := io.Copy(zw, rd)
	rd.Close()
	if err != nil {
		return err
	}
	if n != obj.Size() {
		return fmt.Errorf("object is %d bytes, expected %d", n, obj.Size())
	}
	return zw.Close()
}

// syncDir makes the names created in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}

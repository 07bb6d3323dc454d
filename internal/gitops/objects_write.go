package gitops

// Writing loose objects durably.
//
// A commit is only as safe as the objects it names: the branch must
// never point at a commit whose blobs a crash lost. So each object is
// written to a temporary file beside its final name, synced, and linked
// into place; the directories that gained names are synced once per
// run, all of them before the branch moves (BranchWriter.Finish): a
// reply's objects land in as many fan-out directories as there are
// objects, about, and a run of several replies names the same
// directories again. go-git's storage does the same steps without the
// syncs, and puts its temporary files where git's gc does not look.

import (
	"compress/zlib"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/odb"
)

// writeObjects stores the objects not stored yet and returns once the
// content of every one is on disk; the directories whose new names
// syncDirs must make durable before a ref names the objects are added
// to dirs. The objects are written side by side: each waits for its
// own sync, and the filesystem serves waits that overlap together (a
// reply's four or five objects cost about one sync, not five). Once
// ctx ends no further object is started and its error is returned: the
// objects written by then are unreachable, as after a kill.
func (r *Repo) writeObjects(ctx context.Context, objs []pendingObject, dirs map[string]bool) error {
	root := filepath.Join(r.commonDir, "objects")
	seen := map[plumbing.Hash]bool{}
	var todo []pendingObject
	for _, p := range objs {
		if seen[p.id] {
			continue
		}
		seen[p.id] = true
		if has, err := r.hasObject(p.id); err != nil {
			return err
		} else if !has {
			todo = append(todo, p)
		}
	}
	var mu sync.Mutex
	return eachAtOnce(len(todo), func(i int) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		p := todo[i]
		dir, created, err := writeLoose(root, p.id, p.obj)
		if err != nil {
			return fmt.Errorf("gitops: writing %s %s: %w", p.obj.Type(), p.id, err)
		}
		mu.Lock()
		dirs[dir] = true
		if created {
			dirs[root] = true // which now names dir
		}
		mu.Unlock()
		return nil
	})
}

// syncDirs syncs each of dirs (side by side, as writeObjects writes)
// and forgets those synced.
func syncDirs(dirs map[string]bool) error {
	names := slices.Sorted(maps.Keys(dirs))
	err := eachAtOnce(len(names), func(i int) error {
		if err := syncDir(names[i]); err != nil {
			return fmt.Errorf("gitops: syncing %s: %w", names[i], err)
		}
		return nil
	})
	if err == nil {
		clear(dirs)
	}
	return err
}

// eachAtOnce runs fn(0) ... fn(n-1) on up to 8 goroutines and returns
// the first error. The work is waiting on the disk, not the processor.
func eachAtOnce(n int, fn func(i int) error) error {
	if n == 0 {
		return nil
	}
	if n == 1 {
		return fn(0)
	}
	next := make(chan int)
	errs := make(chan error, n)
	var wg sync.WaitGroup
	for range min(n, 8) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if err := fn(i); err != nil {
					errs <- err
				}
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	close(errs)
	return <-errs // nil when none
}

// writeLoose writes obj as objects/xx/yyyy... under root and returns
// the directory that holds it, and whether it made that directory. The
// file is complete and synced before its name appears; an object that
// appears meanwhile (another writer of the same content) is kept as it
// is.
func writeLoose(root string, id plumbing.Hash, obj plumbing.EncodedObject) (dir string, created bool, err error) {
	final := odb.LoosePath(root, id)
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

// zlibWriters keeps the compressors of object writes for the next
// object: each holds about a megabyte of tables, and a cold apply that
// made one per object (32 for a 10-file reply) peaked at 10 MB more
// than a warm one.
var zlibWriters = sync.Pool{New: func() any {
	zw, _ := zlib.NewWriterLevel(nil, zlib.BestSpeed) // a valid level: no error
	return zw
}}

// deflateObject writes git's loose form of obj to w: the zlib stream of
// "<type> <size>\x00<content>", at core.looseCompression's default
// level (best speed).
func deflateObject(w io.Writer, obj plumbing.EncodedObject) error {
	zw := zlibWriters.Get().(*zlib.Writer)
	defer zlibWriters.Put(zw)
	zw.Reset(w)
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

// syncDir makes the names created in dir durable (a variable for the
// tests, which watch the order of the syncs).
var syncDir = func(dir string) error {
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

package gitops

// Writing objects durably.
//
// A commit is only as safe as the objects it names: the branch must
// never point at a commit whose blobs a crash lost. So the new objects
// of a run are written as one pack, as git's bulk writers (fast-import,
// index-pack, bulk-checkin) write theirs: each Record appends its
// objects to a pack under git's temporary name tmp_pack_* in
// objects/pack, where the run's later Records read them back; Finish
// fixes the pack's object count, appends its checksum, writes its index
// (tmp_idx_*), syncs both and renames them into place, the index last
// (git reads a pack once its index is there), then syncs objects/pack,
// which gained the names, before the branch moves. Loose objects each
// synced with its directory cost a cold apply of a 10-file reply 66
// syncs for its 32 objects, where a pack costs 5 (a small run goes
// loose all the same, flushed once: loosewrite.go, fsync.go); a pack
// per reply made a replay of 1,000 turns open 1,000 packs. The temporary
// names are git's, so git gc removes what a crash leaves behind.

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/oid"
)

// writeObjects appends the objects not stored yet to the pack of the
// run (started on the first of them) and returns once they are in its
// file, readable through r. Once ctx ends no further object is
// written and its error is returned; when it fails, none of objs is
// in the pack.
func (w *BranchWriter) writeObjects(ctx context.Context, objs []pendingObject) error {
	seen := map[oid.ID]bool{}
	var todo []pendingObject
	for _, p := range objs {
		if seen[p.id] {
			continue
		}
		seen[p.id] = true
		// Also true of the objects of the pack in progress.
		if has, err := w.r.hasObject(p.id); err != nil {
			return err
		} else if !has {
			todo = append(todo, p)
		}
	}
	if len(todo) == 0 {
		return nil
	}
	if w.pack == nil {
		if w.held == nil {
			w.held = newHeldObjects()
			w.r.running.add(w.held)
		}
		if w.held.fits(todo, w.limit) {
			if err := w.held.add(ctx, todo); err != nil {
				return fmt.Errorf("reading %d objects: %w", len(todo), err)
			}
			return nil
		}
		// The run outgrows loose objects: it and the objects held
		// so far go to a pack.
		p, err := newRunPack(filepath.Join(w.r.commonDir, "objects", "pack"))
		if err != nil {
			return fmt.Errorf("starting a pack: %w", err)
		}
		w.pack = p
		w.r.running.add(p)
		todo = append(w.held.pending(), todo...)
	}
	if err := w.pack.add(ctx, todo); err != nil {
		if w.pack.empty() {
			w.dropPack() // the held objects stay held
		}
		return fmt.Errorf("writing %d objects: %w", len(todo), err)
	}
	w.dropHeld() // in the pack now, which is read first
	return nil
}

// sealPack makes the pack of the run durable under its final name and
// readable through the store, and notes the directories that syncDirs
// must sync before a ref names its objects (git syncs none; this syncs
// objects/pack when packs are synced).
func (w *BranchWriter) sealPack() error {
	p := w.pack
	idx, err := p.seal(w.durable)
	if err == nil {
		w.r.objects().AddPack(idx)
		if w.durable.syncsDir(fsyncPack) {
			w.unsynced[p.dir] = true
			if p.created {
				w.unsynced[filepath.Dir(p.dir)] = true // which now names p.dir
			}
		}
	}
	w.dropPack()
	if err != nil {
		return fmt.Errorf("writing the pack of %d objects: %w", p.pw.Count(), err)
	}
	return nil
}

// syncDirs syncs each of dirs (side by side: the filesystem serves
// waits that overlap together) and forgets those synced.
func syncDirs(dirs map[string]bool) error {
	names := slices.Sorted(maps.Keys(dirs))
	err := eachAtOnce(len(names), func(i int) error {
		if err := syncDir(names[i]); err != nil {
			return fmt.Errorf("syncing %s: %w", names[i], err)
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

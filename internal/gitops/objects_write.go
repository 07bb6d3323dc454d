package gitops

// Writing objects durably.
//
// A commit is only as safe as the objects it names: the branch must
// never point at a commit whose blobs a crash lost. So the new objects
// of a record are written as one pack, as git's bulk writers
// (fast-import, index-pack, bulk-checkin) write theirs: the pack and
// its index under git's temporary names in objects/pack, both synced,
// then renamed into place, the index last (git reads a pack once its
// index is there). objects/pack, which gained the names, is synced
// once per run, before the branch moves (BranchWriter.Finish). Loose
// objects cost a file and about a directory each to sync: a cold apply
// of a 10-file reply made 66 syncs for its 32 objects, and makes 5
// now. The temporary names are git's, so git gc removes what a crash
// leaves behind.

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
)

// writeObjects stores the objects not stored yet as one pack and
// returns once its content is on disk; the directories whose new names
// syncDirs must make durable before a ref names the objects are added
// to dirs. Once ctx ends no further object is written and its error is
// returned: what was written by then is removed, or left under git's
// temporary names after a kill.
func (r *Repo) writeObjects(ctx context.Context, objs []pendingObject, dirs map[string]bool) error {
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
	if len(todo) == 0 {
		return nil
	}
	root := filepath.Join(r.commonDir, "objects")
	packDir := filepath.Join(root, "pack")
	idx, created, err := writePack(ctx, packDir, todo)
	if err != nil {
		return fmt.Errorf("gitops: writing %d objects: %w", len(todo), err)
	}
	dirs[packDir] = true
	if created {
		dirs[root] = true // which now names packDir
	}
	// The next Record reads this one's trees, and Finish checks that
	// the commit is stored.
	r.objects().AddPack(idx)
	return nil
}

// syncDirs syncs each of dirs (side by side: the filesystem serves
// waits that overlap together) and forgets those synced.
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

package gitops

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/patch"
)

// Objects are git's loose objects: read-only, readable by git, with no
// temporary file left beside them, and written once.
func TestRecordWritesLooseObjects(t *testing.T) {
	tr := newFixture(t)
	w := newWriter(t, tr.open(tr.dir), WriteOptions{Branch: "objs", Parent: tr.git("rev-parse", "HEAD")})
	before := len(tr.looseObjects())
	id, err := w.Record(context.Background(), []patch.FileChange{
		create("new/a.txt", "same\n", 0),
		create("new/b.txt", "same\n", 0), // one blob for both
	}, "two files")
	if err != nil {
		t.Fatal(err)
	}
	if got := tr.git("cat-file", "-t", id); got != "commit" {
		t.Fatalf("cat-file -t %s = %q", id, got)
	}
	// blob, tree new/, root tree, commit
	if got := len(tr.looseObjects()) - before; got != 4 {
		t.Errorf("%d new loose objects, want 4: %v", got, tr.looseObjects())
	}
	for _, o := range tr.looseObjects() {
		if strings.Contains(o, "tmp_obj_") {
			t.Errorf("temporary file left: %s", o)
			continue
		}
		fi, err := os.Stat(filepath.Join(tr.dir, ".git", "objects", o[:2], o[2:]))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm()&0o222 != 0 {
			t.Errorf("%s is writable: %v", o, fi.Mode())
		}
	}
	// Recording the same content again writes nothing new.
	n := len(tr.looseObjects())
	if _, err := w.Record(context.Background(), []patch.FileChange{create("new/c.txt", "same\n", 0)}, "third"); err != nil {
		t.Fatal(err)
	}
	if got := len(tr.looseObjects()) - n; got != 3 { // tree new/, root tree, commit
		t.Errorf("%d new loose objects, want 3", got)
	}
	if err := w.Finish(); err != nil {
		t.Fatal(err)
	}
	tr.fsck()
}

// TestObjectsDurableBeforeRefMoves: every directory that gained a new
// object's name is synced, once in the run however many replies named
// it, and before the branch moves.
func TestObjectsDurableBeforeRefMoves(t *testing.T) {
	tr := newFixture(t)
	head := tr.git("rev-parse", "HEAD")
	before := map[string]bool{}
	for _, o := range tr.looseObjects() {
		before[o] = true
	}
	refPath := filepath.Join(tr.dir, ".git", "refs", "heads", "durable")
	var synced []string
	var mu sync.Mutex
	old := syncDir
	syncDir = func(dir string) error {
		mu.Lock()
		defer mu.Unlock()
		if _, err := os.Stat(refPath); err != nil { // the branch is new
			synced = append(synced, dir)
		} else if dir != filepath.Dir(refPath) {
			t.Errorf("%s synced after the branch moved", dir)
		}
		return old(dir)
	}
	t.Cleanup(func() { syncDir = old })

	w := newWriter(t, tr.open(tr.dir), WriteOptions{Branch: "durable", Parent: head})
	for i := range 3 {
		var changes []patch.FileChange
		for j := range 12 {
			changes = append(changes, create(fmt.Sprintf("d%d/f%d.txt", j%3, j), fmt.Sprintf("reply %d file %d\n", i, j), 0))
		}
		if _, err := w.Record(context.Background(), changes, fmt.Sprintf("reply %d", i)); err != nil {
			t.Fatal(err)
		}
	}
	if len(synced) != 0 {
		t.Errorf("Record synced %v: directories are synced once, by Finish", synced)
	}
	if err := w.Finish(); err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, d := range synced {
		count[d]++
	}
	objects := filepath.Join(tr.dir, ".git", "objects")
	for _, o := range tr.looseObjects() {
		if before[o] {
			continue
		}
		if dir := filepath.Join(objects, o[:2]); count[dir] != 1 {
			t.Errorf("%s synced %d times before the branch moved, want once", dir, count[dir])
		}
	}
	for d, n := range count {
		if n != 1 {
			t.Errorf("%s synced %d times", d, n)
		}
	}
	tr.fsck()
}

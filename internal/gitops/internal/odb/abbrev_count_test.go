package odb

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/oid"
)

// PackedCount counts the packs once, as git's approximate count: a
// pack made unreadable after the count still counts, a pack added
// through AddPack adds its objects, and a pack put in place behind the
// store's back counts once a lookup that misses lists the packs again
// (when the unreadable one, tried again, counts none).
func TestPackedCountOnce(t *testing.T) {
	t.Parallel()
	src := newObjectFixture(t)
	objs := src.allObjects()
	dst := newTestRepo(t)
	dst.write("f", "f\n", 0o644)
	dst.git("add", "f")
	dst.git("commit", "-q", "-m", "f")
	dst.git("gc", "-q")
	s := dst.store()
	first, err := s.PackedCount()
	if err != nil || first != 3 {
		t.Fatalf("PackedCount = %d, %v; want the 3 objects of the commit", first, err)
	}
	idxs, _ := filepath.Glob(filepath.Join(dst.dir, ".git", "objects", "pack", "pack-*.idx"))
	if len(idxs) != 1 {
		t.Fatalf("packs %v", idxs)
	}
	// Counted already: not read again.
	if err := os.Remove(idxs[0]); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(idxs[0], []byte("not an index"), 0o444); err != nil {
		t.Fatal(err)
	}
	if n, err := s.PackedCount(); err != nil || n != first {
		t.Errorf("PackedCount again = %d, %v; want %d, not counted again", n, err, first)
	}

	root := filepath.Join(dst.dir, ".git", "objects")
	s.AddPack(writeTestPack(t, root, objs[:2]))
	if n, _ := s.PackedCount(); n != first+2 {
		t.Errorf("after AddPack of 2 objects PackedCount = %d, want %d", n, first+2)
	}
	writeTestPack(t, root, objs[2:5]) // behind the store's back
	if n, _ := s.PackedCount(); n != first+2 {
		t.Errorf("a pack nothing told of counted: %d", n)
	}
	if _, _, err := s.Read(oid.Sum(oid.Blob, []byte("nowhere\n"))); err == nil {
		t.Fatal("read an object nobody wrote")
	}
	// Listed again, the pack that no longer opens counts none.
	if n, _ := s.PackedCount(); n != 5 {
		t.Errorf("after the packs were listed again PackedCount = %d, want 5", n)
	}
}

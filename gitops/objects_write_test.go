package gitops

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/patch"
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

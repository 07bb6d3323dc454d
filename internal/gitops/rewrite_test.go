package gitops

import (
	"io"
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/oid"

	"github.com/git-llm-apply/git-llm-apply/internal/patch"
)

// rewrite runs planChanges and rewriteTree on the fixture's HEAD tree.
func rewrite(t *testing.T, tr *testRepo, changes []patch.FileChange) (oid.ID, []pendingObject, []pendingObject) {
	t.Helper()
	r := tr.open(tr.dir)
	root, blobs, err := planChanges(changes)
	if err != nil {
		t.Fatal(err)
	}
	var trees []pendingObject
	id, _, err := r.rewriteTree(oid.FromHex(tr.git("rev-parse", "HEAD^{tree}")), root, "", &trees)
	if err != nil {
		t.Fatal(err)
	}
	return id, blobs, trees
}

func TestRewriteTreeUnchangedWritesNothing(t *testing.T) {
	t.Parallel()
	tr := newFixture(t)
	// Rewriting a file with its own content and mode changes no tree.
	id, blobs, trees := rewrite(t, tr, []patch.FileChange{modify("dir/sub/c.txt", "c\n", reg)})
	if id.String() != tr.git("rev-parse", "HEAD^{tree}") {
		t.Errorf("tree %s, want HEAD's", id)
	}
	if len(trees) != 0 {
		t.Errorf("%d trees to write, want none", len(trees))
	}
	if len(blobs) != 1 || blobs[0].id.String() != tr.git("rev-parse", "HEAD:dir/sub/c.txt") {
		t.Errorf("blobs %v", blobs)
	}
}

func TestRewriteTreeOrderAndCount(t *testing.T) {
	t.Parallel()
	tr := newFixture(t)
	_, blobs, trees := rewrite(t, tr, []patch.FileChange{
		create("n/1.txt", "same\n", reg), create("n/2.txt", "same\n", reg), modify("dir/sub/c.txt", "C\n", reg),
	})
	if len(blobs) != 2 {
		t.Errorf("%d blobs, want 2 (equal contents stored once)", len(blobs))
	}
	// Trees: n, dir/sub, dir, root; each one after the trees it holds.
	if len(trees) != 4 {
		t.Fatalf("%d trees, want 4", len(trees))
	}
	if last := trees[len(trees)-1]; last.obj.Hash() != last.id {
		t.Error("pending id and object differ")
	}
	pos := map[oid.ID]int{}
	for i, p := range trees {
		pos[p.id] = i
	}
	for i, p := range trees {
		entries, err := parseTree(readAll(t, p.obj))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if j, ok := pos[e.id]; ok && j > i {
				t.Errorf("tree %d refers to tree %d, written later", i, j)
			}
		}
	}
}

func TestPlanChangesRenameOntoVacatedPath(t *testing.T) {
	t.Parallel()
	// a -> b and b -> a in one change: both deletions happen first.
	root, _, err := planChanges([]patch.FileChange{
		rename("a", "b", "A\n", reg), rename("b", "a", "B\n", reg),
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"a", "b"} {
		n := root.children[name]
		if n == nil || !n.del || n.write == nil {
			t.Errorf("%s: %+v, want deleted then written", name, n)
		}
	}
}

func TestPlanChangesDefaultsModes(t *testing.T) {
	t.Parallel()
	root, _, err := planChanges([]patch.FileChange{
		{NewPath: "new", New: []byte("x")},
		{OldPath: "old", NewPath: "old", OldMode: exe, New: []byte("y")},
	})
	if err != nil {
		t.Fatal(err)
	}
	if m := root.children["new"].write.mode; m != "100644" {
		t.Errorf("new file mode %s, want 100644", m)
	}
	if m := root.children["old"].write.mode; m != "100755" {
		t.Errorf("mode 0 kept %s, want the old 100755", m)
	}
	if _, _, err := planChanges([]patch.FileChange{{NewPath: "x", NewMode: 0o100600}}); err == nil || !strings.Contains(err.Error(), "mode") {
		t.Errorf("odd mode: %v", err)
	}
}

func readAll(t *testing.T, o encodedObject) []byte {
	t.Helper()
	rd, err := o.Reader()
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	data, err := io.ReadAll(rd)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestPlanChangesHoldsCarriedIDs: a change that carries the id of its
// new content (the diff's index line names it) is written only when the
// content is that blob.
func TestPlanChangesHoldsCarriedIDs(t *testing.T) {
	t.Parallel()
	content := []byte("hello\n")
	right := oid.Sum(oid.Blob, content).String()
	for _, tt := range []struct {
		name, id string
		ok       bool
	}{
		{"none carried", "", true},
		{"the content's", right, true},
		{"another blob's", oid.Sum(oid.Blob, []byte("hullo\n")).String(), false},
		{"not an id", "abc", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := planChanges([]patch.FileChange{{NewPath: "a.txt", New: content, NewID: tt.id}})
			if (err == nil) != tt.ok {
				t.Fatalf("err = %v, want ok %v", err, tt.ok)
			}
			if err != nil && !strings.Contains(err.Error(), "a.txt") {
				t.Errorf("the error does not name the file: %v", err)
			}
		})
	}
}

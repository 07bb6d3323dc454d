package gitops

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/odb"
	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/oid"

	"github.com/git-llm-apply/git-llm-apply/internal/patch"
	"github.com/git-llm-apply/git-llm-apply/internal/scratch"
)

// newObjectFixture makes a repository with every kind of object:
// commits (a merge among them), nested trees, an executable, a
// symbolic link, an empty blob, a blob of 100 KiB, an annotated tag,
// a tag of a tag, and a file in twelve versions, so that a repack
// stores deltas.
func newObjectFixture(t *testing.T) *testRepo {
	t.Helper()
	return fromScratch(t, scratch.ObjectFixture(t))
}

// gitOut runs git in the repository and returns its stdout as it is.
func (tr *testRepo) gitOut(args ...string) []byte {
	tr.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env = tr.dir, tr.env
	var errb bytes.Buffer
	cmd.Stderr = &errb
	out, err := cmd.Output()
	if err != nil {
		tr.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, errb.String())
	}
	return out
}

// gitObject is an object as git reads it.
type gitObject struct {
	id   oid.ID
	typ  oid.Type
	data []byte
}

// allObjects returns every object git reads in the repository
// (alternates included), with git cat-file --batch.
func (tr *testRepo) allObjects() []gitObject {
	tr.t.Helper()
	out := bufio.NewReader(bytes.NewReader(tr.gitOut("cat-file", "--batch-all-objects", "--batch")))
	var objs []gitObject
	for {
		line, err := out.ReadString('\n')
		if line == "" && err != nil {
			break
		}
		f := strings.Fields(line)
		if len(f) != 3 {
			tr.t.Fatalf("cat-file --batch: %q", line)
		}
		size, _ := strconv.Atoi(f[2])
		typ, err := oid.ParseType(f[1])
		if err != nil {
			tr.t.Fatal(err)
		}
		data := make([]byte, size+1) // and the newline after it
		if _, err := io.ReadFull(out, data); err != nil {
			tr.t.Fatal(err)
		}
		objs = append(objs, gitObject{oid.FromHex(f[0]), typ, data[:size]})
	}
	return objs
}

// checkObjects reads every object git reads through the object store
// (not go-git's storage) and through readObject, compares them with
// git's, and requires objects of every type among them.
func checkObjects(t *testing.T, tr *testRepo, r *Repo) {
	t.Helper()
	objs := tr.allObjects()
	if len(objs) == 0 {
		t.Fatal("no objects")
	}
	count := map[oid.Type]int{}
	for _, o := range objs {
		count[o.typ]++
		typ, data, err := r.objects().Read(o.id)
		if err != nil {
			t.Errorf("store: %s %s: %v", o.typ, o.id, err)
			continue
		}
		if typ != o.typ || !bytes.Equal(data, o.data) {
			t.Errorf("store: %s is a %s of %d bytes, git reads a %s of %d bytes", o.id, typ, len(data), o.typ, len(o.data))
		}
		data, err = r.readObject(o.typ, o.id)
		if err != nil || !bytes.Equal(data, o.data) {
			t.Errorf("readObject(%s, %s): %d bytes, %v", o.typ, o.id, len(data), err)
		}
		other := oid.Blob
		if o.typ == oid.Blob {
			other = oid.Tree
		}
		if _, err := r.readObject(other, o.id); !errors.Is(err, odb.ErrNotFound) {
			t.Errorf("readObject(%s, %s) of a %s: %v, want ErrObjectNotFound", other, o.id, o.typ, err)
		}
	}
	for _, typ := range []oid.Type{oid.Commit, oid.Tree, oid.Blob, oid.Tag} {
		if count[typ] == 0 {
			t.Errorf("no %s among the objects", typ)
		}
	}
}

func TestReadObjectsLinkedWorktree(t *testing.T) {
	t.Parallel()
	tr := newObjectFixture(t)
	tr.git("gc", "-q")
	wt := filepath.Join(filepath.Dir(tr.dir), "wt")
	tr.git("worktree", "add", "-q", wt, "side")
	r := tr.open(wt)
	if r.objects().Root() != filepath.Join(tr.dir, ".git", "objects") {
		t.Errorf("objects of a linked worktree read from %s", r.objects().Root())
	}
	checkObjects(t, tr, r)
}

func TestReadObjectsMissing(t *testing.T) {
	t.Parallel()
	tr := newObjectFixture(t)
	tr.git("gc", "-q")
	r := tr.open(tr.dir)
	missing := oid.FromHex("0123456789abcdef0123456789abcdef01234567")
	_, err := r.readObject(oid.Blob, missing)
	if !errors.Is(err, odb.ErrNotFound) || err.Error() != "reading blob "+missing.String()+": object not in the object directories" {
		t.Errorf("readObject of a missing object: %v", err)
	}
	if ok, err := r.hasObject(missing); ok || err != nil {
		t.Errorf("hasObject of a missing object: %v, %v", ok, err)
	}
	head := oid.FromHex(tr.git("rev-parse", "HEAD"))
	if ok, err := r.hasObject(head); !ok || err != nil {
		t.Errorf("hasObject(HEAD): %v, %v", ok, err)
	}
}

// TestReadObjectsWrittenInTheRun: objects a BranchWriter adds (to the
// pack in progress of its run) read back at once, trees included, in a
// repository whose other objects are packed.
func TestReadObjectsWrittenInTheRun(t *testing.T) {
	t.Parallel()
	tr := newObjectFixture(t)
	tr.git("gc", "-q")
	r := tr.open(tr.dir)
	parent := tr.git("rev-parse", "HEAD")
	w := newWriter(t, r, WriteOptions{Branch: "llm", Parent: parent})
	first, err := w.Record(context.Background(), []patch.FileChange{
		modify("doc/many.txt", "rewritten\n", patch.ModeRegular),
		create("dir/sub/new.txt", "new\n", patch.ModeRegular),
	}, "first")
	if err != nil {
		t.Fatal(err)
	}
	c, err := r.readCommit(oid.FromHex(first))
	if err != nil {
		t.Fatalf("reading back the commit just written: %v", err)
	}
	src, _, err := r.RevisionSource(first)
	if err != nil {
		t.Fatal(err)
	}
	if data, err := src.Read("dir/sub/new.txt"); err != nil || string(data) != "new\n" {
		t.Errorf("reading back a blob just written: %q, %v", data, err)
	}
	// The second commit rewrites the trees the first one wrote.
	second, err := w.Record(context.Background(), []patch.FileChange{create("dir/sub/newer.txt", "newer\n", patch.ModeRegular)}, "second")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := r.readCommit(oid.FromHex(second)); err != nil || got.TreeHash == c.TreeHash {
		t.Errorf("reading back the second commit: %v, %v", got, err)
	}
	finish(t, w) // git reads the run's objects once their pack is named
	if got := tr.git("rev-parse", second+"^{tree}"); got == c.TreeHash.String() {
		t.Error("the second commit has the first one's tree")
	}
	if got := tr.git("show", second+":dir/sub/new.txt"); got != "new" {
		t.Errorf("second commit: dir/sub/new.txt = %q", got)
	}
	tr.fsck()
	checkObjects(t, tr, r)
}

// TestObjectStoreGoesWithRepo: the packs a Repo opened are closed once
// the Repo is garbage.
func TestObjectStoreGoesWithRepo(t *testing.T) {
	tr := newObjectFixture(t)
	tr.git("gc", "-q")
	packs, _ := filepath.Glob(filepath.Join(tr.dir, ".git", "objects", "pack", "*.pack"))
	if len(packs) != 1 {
		t.Fatalf("%d packs", len(packs))
	}
	// The store's packs are gitops/internal/odb's: what shows here is
	// whether this process still has the pack file open.
	packOpen := func() bool {
		fds, err := os.ReadDir("/proc/self/fd")
		if err != nil {
			t.Skipf("open files are not listed here: %v", err)
		}
		for _, fd := range fds {
			if target, _ := os.Readlink(filepath.Join("/proc/self/fd", fd.Name())); target == packs[0] {
				return true
			}
		}
		return false
	}
	r := tr.open(tr.dir)
	if _, err := r.readCommit(oid.FromHex(tr.git("rev-parse", "HEAD"))); err != nil {
		t.Fatal(err)
	}
	if !packOpen() {
		t.Fatal("pack not open")
	}
	r = nil
	for range 100 {
		runtime.GC()
		if !packOpen() {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Error("the pack is still open after the Repo went")
}

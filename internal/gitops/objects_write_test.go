package gitops

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/git-llm-apply/git-llm-apply/internal/patch"
)

// storedObjects lists every object git reads in the repository, loose
// or packed.
func (tr *testRepo) storedObjects() []string {
	tr.t.Helper()
	out := tr.git("cat-file", "--batch-all-objects", "--batch-check=%(objectname)")
	if out == "" {
		return nil
	}
	return strings.Split(out, "\n")
}

// packDir is the repository's objects/pack.
func (tr *testRepo) packDir() string {
	return filepath.Join(tr.dir, ".git", "objects", "pack")
}

// packFiles lists the names in objects/pack.
func (tr *testRepo) packFiles() []string {
	tr.t.Helper()
	ents, err := os.ReadDir(tr.packDir())
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		tr.t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	return out
}

// newPacks returns the pack-*.idx names of objects/pack not in before.
func (tr *testRepo) newPacks(before []string) []string {
	tr.t.Helper()
	var out []string
	for _, name := range tr.packFiles() {
		if strings.HasSuffix(name, ".idx") && !slices.Contains(before, name) {
			out = append(out, name)
		}
	}
	return out
}

// packedObjects runs git verify-pack -v on the pack of index idx (a
// name in objects/pack) and returns "<id> <type>" of each object; a
// delta fails the test.
func (tr *testRepo) packedObjects(idx string) []string {
	tr.t.Helper()
	out := tr.git("verify-pack", "-v", filepath.Join(tr.packDir(), idx))
	var objs []string
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) == 5 && len(f[0]) == 40 {
			objs = append(objs, f[0]+" "+f[1])
		} else if len(f) > 5 && len(f[0]) == 40 {
			tr.t.Errorf("a delta in %s: %s", idx, line)
		}
	}
	slices.Sort(objs)
	return objs
}

// checkPacks fails the test on anything in objects/pack but whole
// read-only packs with their indexes (names in keep excepted).
func (tr *testRepo) checkPacks(keep []string) {
	tr.t.Helper()
	files := tr.packFiles()
	for _, name := range files {
		if slices.Contains(keep, name) {
			continue
		}
		base, ok := strings.CutSuffix(name, ".pack")
		if !ok {
			base, ok = strings.CutSuffix(name, ".idx")
		}
		if !ok || !strings.HasPrefix(base, "pack-") {
			tr.t.Errorf("objects/pack holds %s", name)
			continue
		}
		if !slices.Contains(files, base+".pack") || !slices.Contains(files, base+".idx") {
			tr.t.Errorf("%s without its pack or index", name)
		}
		fi, err := os.Stat(filepath.Join(tr.packDir(), name))
		if err != nil {
			tr.t.Fatal(err)
		}
		if fi.Mode().Perm()&0o222 != 0 {
			tr.t.Errorf("%s is writable: %v", name, fi.Mode())
		}
	}
}

// A Record writes its new objects as one pack that git verifies and
// reads, and no loose object; objects already stored, loose or packed,
// are not written again, and a Record that makes nothing new writes no
// pack.
func TestRecordWritesOnePack(t *testing.T) {
	tr := newFixture(t)
	tr.git("gc", "-q") // the fixture's objects are packed
	head := tr.git("rev-parse", "HEAD")
	loose := tr.gitEnv(tr.dir, nil, "already loose\n", "hash-object", "-w", "--stdin")
	packsBefore := tr.packFiles()
	looseBefore := tr.looseObjects()

	r := tr.open(tr.dir)
	w := newWriter(t, r, WriteOptions{Branch: "objs", Parent: head})
	changes := []patch.FileChange{
		create("new/a.txt", "same\n", reg),
		create("new/b.txt", "same\n", reg),          // one blob for both
		create("new/c.txt", "hello\n", reg),         // a.txt's blob, packed
		create("new/d.txt", "already loose\n", reg), // loose
		modify("dir/b.txt", "B\n", reg),
	}
	id, err := w.Record(context.Background(), changes, "five files")
	if err != nil {
		t.Fatal(err)
	}
	packs := tr.newPacks(packsBefore)
	if len(packs) != 1 {
		t.Fatalf("new packs %v, want one", packs)
	}
	if after := tr.looseObjects(); !slices.Equal(after, looseBefore) {
		t.Errorf("loose objects written: %v", after)
	}
	var want []string
	for _, spec := range []string{"", ":new", ":dir", ":new/a.txt", ":dir/b.txt"} {
		obj := id + spec
		want = append(want, tr.git("rev-parse", obj)+" "+tr.git("cat-file", "-t", obj))
	}
	want = append(want, tr.git("rev-parse", id+"^{tree}")+" tree")
	slices.Sort(want)
	if got := tr.packedObjects(packs[0]); !slices.Equal(got, want) {
		t.Errorf("the pack holds\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got := tr.git("rev-parse", id+":new/d.txt"); got != loose {
		t.Errorf("new/d.txt is %s, want the loose blob %s", got, loose)
	}
	tr.checkPacks(packsBefore)
	// What git reads is what was recorded: git's plumbing makes the
	// same commit, and each file holds its content.
	if byGit := tr.gitRecord(head, changes, "five files\n"); byGit != id {
		t.Errorf("commit %s, git makes %s", id, byGit)
	}
	for _, c := range changes {
		if got := tr.git("cat-file", "-p", id+":"+c.NewPath); got+"\n" != string(c.New) {
			t.Errorf("%s holds %q, want %q", c.NewPath, got, c.New)
		}
	}

	// The same record on the same parent makes the same commit: all of
	// its objects are stored, and nothing is written.
	w2 := newWriter(t, r, WriteOptions{Branch: "again", Parent: head})
	files := tr.packFiles()
	if again, err := w2.Record(context.Background(), changes, "five files"); err != nil || again != id {
		t.Fatalf("Record again = %s, %v; want %s", again, err, id)
	}
	if got := tr.packFiles(); !slices.Equal(got, files) {
		t.Errorf("a Record of stored objects wrote %v", got)
	}
	if len(w2.unsynced) != 0 {
		t.Errorf("a Record of stored objects has directories to sync: %v", w2.unsynced)
	}

	if err := w.Finish(); err != nil {
		t.Fatal(err)
	}
	log := tr.git("log", "-p", "--format=%s", "main..objs")
	for _, line := range []string{"five files", "+++ b/new/a.txt", "+++ b/new/d.txt", "-b", "+B", "+already loose"} {
		if !slices.Contains(strings.Split(log, "\n"), line) {
			t.Errorf("git log -p lacks %q:\n%s", line, log)
		}
	}
	tr.fsck()
}

// Several Records in one run, as apply of several replies and replay
// make: each reads the trees the one before wrote (in its pack) and
// writes its own pack; Finish moves the branch to commits git would
// have made.
func TestRecordsReadEarlierPacks(t *testing.T) {
	tr := newFixture(t)
	head := tr.git("rev-parse", "HEAD")
	before := tr.packFiles()
	r := tr.open(tr.dir)
	w := newWriter(t, r, WriteOptions{Branch: "chain", Parent: head})
	parent := head
	for i := range 4 {
		changes := []patch.FileChange{
			create(fmt.Sprintf("dir/sub/n%d.txt", i), fmt.Sprintf("new %d\n", i), reg),
			modify("dir/sub/c.txt", fmt.Sprintf("c %d\n", i), reg),
		}
		msg := fmt.Sprintf("reply %d", i)
		id, err := w.Record(context.Background(), changes, msg)
		if err != nil {
			t.Fatal(err)
		}
		if byGit := tr.gitRecord(parent, changes, msg+"\n"); byGit != id {
			t.Fatalf("commit %d is %s, git makes %s", i, id, byGit)
		}
		parent = id
		if n := len(tr.newPacks(before)); n != i+1 {
			t.Errorf("%d packs after %d Records", n, i+1)
		}
	}
	if err := w.Finish(); err != nil {
		t.Fatal(err)
	}
	if got := tr.git("rev-parse", "chain"); got != parent {
		t.Errorf("chain is at %s, want %s", got, parent)
	}
	if got := tr.git("show", "chain:dir/sub/c.txt"); got != "c 3" {
		t.Errorf("c.txt: %q", got)
	}
	if got := tr.git("ls-tree", "--name-only", "chain:dir/sub"); got != "c.txt\nd.txt\nn0.txt\nn1.txt\nn2.txt\nn3.txt" {
		t.Errorf("dir/sub: %q", got)
	}
	tr.checkPacks(before)
	tr.fsck()
}

// TestObjectsDurableBeforeRefMoves: a pack and its index are synced
// while they still have their temporary names, and objects/pack, which
// gains the final names, is synced once in the run however many
// Records wrote packs, and before the branch moves.
func TestObjectsDurableBeforeRefMoves(t *testing.T) {
	tr := newFixture(t)
	head := tr.git("rev-parse", "HEAD")
	refPath := filepath.Join(tr.dir, ".git", "refs", "heads", "durable")
	packsBefore := tr.packFiles()
	var mu sync.Mutex
	var syncedDirs, syncedFiles []string
	oldDir, oldFile := syncDir, syncFile
	syncDir = func(dir string) error {
		mu.Lock()
		defer mu.Unlock()
		if _, err := os.Stat(refPath); err != nil { // the branch is new
			syncedDirs = append(syncedDirs, dir)
		} else if dir != filepath.Dir(refPath) {
			t.Errorf("%s synced after the branch moved", dir)
		}
		return oldDir(dir)
	}
	var named []string // the packs' final names when the Record began
	syncFile = func(f *os.File) error {
		mu.Lock()
		defer mu.Unlock()
		name := filepath.Base(f.Name())
		if !strings.HasPrefix(name, "tmp_pack_") && !strings.HasPrefix(name, "tmp_idx_") {
			t.Errorf("synced %s: not one of git's temporary names", name)
		}
		// A crash now leaves only temporary names beside the packs
		// of the Records before.
		for _, n := range tr.packFiles() {
			if !strings.HasPrefix(n, "tmp_") && !slices.Contains(named, n) {
				t.Errorf("%s has its name before its content is synced", n)
			}
		}
		syncedFiles = append(syncedFiles, name)
		return oldFile(f)
	}
	t.Cleanup(func() { syncDir, syncFile = oldDir, oldFile })

	w := newWriter(t, tr.open(tr.dir), WriteOptions{Branch: "durable", Parent: head})
	for i := range 3 {
		var changes []patch.FileChange
		for j := range 12 {
			changes = append(changes, create(fmt.Sprintf("d%d/f%d.txt", j%3, j), fmt.Sprintf("reply %d file %d\n", i, j), 0))
		}
		named = tr.packFiles()
		syncedFiles = nil
		if _, err := w.Record(context.Background(), changes, fmt.Sprintf("reply %d", i)); err != nil {
			t.Fatal(err)
		}
		if len(syncedFiles) != 2 {
			t.Errorf("Record %d synced %v, want its pack and its index", i, syncedFiles)
		}
		if n := len(tr.newPacks(named)); n != 1 {
			t.Errorf("Record %d made %d packs", i, n)
		}
	}
	if len(syncedDirs) != 0 {
		t.Errorf("Record synced %v: directories are synced once, by Finish", syncedDirs)
	}
	if err := w.Finish(); err != nil {
		t.Fatal(err)
	}
	if want := []string{tr.packDir()}; !slices.Equal(syncedDirs, want) {
		t.Errorf("synced %v before the branch moved, want %v once", syncedDirs, want)
	}
	tr.checkPacks(packsBefore)
	tr.fsck()
}

// A repository without objects/pack gets one, and objects, which then
// names it, is synced too.
func TestRecordMakesPackDir(t *testing.T) {
	tr := newFixture(t)
	head := tr.git("rev-parse", "HEAD")
	if err := os.RemoveAll(tr.packDir()); err != nil {
		t.Fatal(err)
	}
	var synced []string
	old := syncDir
	syncDir = func(dir string) error { synced = append(synced, dir); return old(dir) }
	t.Cleanup(func() { syncDir = old })
	w := newWriter(t, tr.open(tr.dir), WriteOptions{Branch: "made", Parent: head})
	if _, err := w.Record(context.Background(), []patch.FileChange{create("m.txt", "m\n", reg)}, "m"); err != nil {
		t.Fatal(err)
	}
	if err := w.Finish(); err != nil {
		t.Fatal(err)
	}
	slices.Sort(synced)
	objects := filepath.Dir(tr.packDir())
	want := []string{objects, tr.packDir(), filepath.Join(tr.dir, ".git", "refs", "heads")}
	slices.Sort(want)
	if !slices.Equal(synced, want) {
		t.Errorf("synced %v, want %v", synced, want)
	}
	tr.fsck()
}

// failingObject is a blob whose content cannot be read past its first
// bytes: before failing, it calls hook.
type failingObject struct {
	plumbing.MemoryObject
	hook func()
}

func (o *failingObject) Reader() (io.ReadCloser, error) {
	return io.NopCloser(io.MultiReader(strings.NewReader("part"), readerFunc(func([]byte) (int, error) {
		o.hook()
		return 0, errors.New("injected read error")
	}))), nil
}

type readerFunc func([]byte) (int, error)

func (f readerFunc) Read(b []byte) (int, error) { return f(b) }

// A write that fails midway (an object that cannot be read, the context
// ended between two objects, a sync that fails) leaves no pack and no
// temporary file, makes no commit, and moves no ref.
func TestPackWriteFailureLeavesNothing(t *testing.T) {
	blob := func(s string) pendingObject {
		o := &plumbing.MemoryObject{}
		o.SetType(plumbing.BlobObject)
		o.Write([]byte(s))
		return pendingObject{o.Hash(), o}
	}
	broken := func(hook func()) pendingObject {
		o := &failingObject{hook: hook}
		o.SetType(plumbing.BlobObject)
		o.Write([]byte("part of it, and more\n"))
		return pendingObject{o.Hash(), o}
	}
	for _, tc := range []struct {
		name string
		run  func(t *testing.T, r *Repo) error
	}{
		{"read error", func(t *testing.T, r *Repo) error {
			dirs := map[string]bool{}
			err := r.writeObjects(context.Background(), []pendingObject{blob("one\n"), broken(func() {}), blob("two\n")}, dirs)
			if len(dirs) != 0 {
				t.Errorf("directories to sync after a failure: %v", dirs)
			}
			return err
		}},
		{"cancelled midway", func(t *testing.T, r *Repo) error {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			// The second object is read, then fails, once ctx has ended.
			err := r.writeObjects(ctx, []pendingObject{blob("one\n"), broken(cancel), blob("two\n")}, map[string]bool{})
			if ctx.Err() == nil {
				t.Error("the context did not end")
			}
			return err
		}},
		{"cancelled between objects", func(t *testing.T, r *Repo) error {
			ctx, cancel := context.WithCancel(context.Background())
			calls := 0
			p := blob("one\n")
			p.obj = &cancellingObject{MemoryObject: p.obj.(*plumbing.MemoryObject), cancel: func() { calls++; cancel() }}
			err := r.writeObjects(ctx, []pendingObject{p, blob("two\n")}, map[string]bool{})
			if !errors.Is(err, context.Canceled) || calls != 1 {
				t.Errorf("writeObjects = %v after %d cancels, want context.Canceled", err, calls)
			}
			return err
		}},
		{"sync fails", func(t *testing.T, r *Repo) error {
			old := syncFile
			syncFile = func(f *os.File) error {
				if strings.Contains(f.Name(), "tmp_idx_") {
					return errors.New("injected sync error")
				}
				return old(f)
			}
			defer func() { syncFile = old }()
			w := newWriter(t, r, WriteOptions{Branch: "failed", Parent: ""})
			_, err := w.Record(context.Background(), []patch.FileChange{create("f.txt", "f\n", reg)}, "f")
			if len(w.Commits()) != 0 {
				t.Errorf("Commits() = %v after a failed Record", w.Commits())
			}
			if err := w.Finish(); err != nil {
				t.Errorf("Finish after a failed Record: %v", err)
			}
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := newFixture(t)
			before, objs := tr.packFiles(), tr.storedObjects()
			if err := tc.run(t, tr.open(tr.dir)); err == nil {
				t.Fatal("no error")
			}
			if got := tr.packFiles(); !slices.Equal(got, before) {
				t.Errorf("objects/pack holds %v, held %v", got, before)
			}
			if got := tr.storedObjects(); !slices.Equal(got, objs) {
				t.Errorf("%d objects stored, %d before", len(got), len(objs))
			}
			if refs := tr.git("for-each-ref", "refs/heads/failed"); refs != "" {
				t.Errorf("the branch moved: %s", refs)
			}
			tr.fsck()
		})
	}
}

// cancellingObject calls cancel once its content is read whole.
type cancellingObject struct {
	*plumbing.MemoryObject
	cancel func()
}

func (o *cancellingObject) Reader() (io.ReadCloser, error) {
	rd, err := o.MemoryObject.Reader()
	if err != nil {
		return nil, err
	}
	return io.NopCloser(io.MultiReader(rd, readerFunc(func([]byte) (int, error) {
		o.cancel()
		return 0, io.EOF
	}))), nil
}

// A pack written again (same objects, so same name) leaves the one
// there as it is and no temporary file beside it.
func TestWritePackKeepsExistingPack(t *testing.T) {
	tr := newFixture(t)
	var objs []pendingObject
	for _, s := range []string{"one\n", "two\n"} {
		o := &plumbing.MemoryObject{}
		o.SetType(plumbing.BlobObject)
		o.Write([]byte(s))
		objs = append(objs, pendingObject{o.Hash(), o})
	}
	first, _, err := writePack(context.Background(), tr.packDir(), objs)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(first)
	if err != nil {
		t.Fatal(err)
	}
	files := tr.packFiles()
	again, created, err := writePack(context.Background(), tr.packDir(), objs)
	if err != nil || again != first || created {
		t.Fatalf("writePack again = %s, %v, %v; want %s", again, created, err, first)
	}
	if got := tr.packFiles(); !slices.Equal(got, files) {
		t.Errorf("objects/pack holds %v, held %v", got, files)
	}
	if fi2, err := os.Stat(first); err != nil || !os.SameFile(fi, fi2) {
		t.Errorf("the index was replaced (%v)", err)
	}
	tr.checkPacks(nil)
	tr.fsck()
}

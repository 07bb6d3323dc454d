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

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/oid"

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

// tmpFiles lists git's temporary names in objects/pack.
func (tr *testRepo) tmpFiles() []string {
	tr.t.Helper()
	var out []string
	for _, name := range tr.packFiles() {
		if strings.HasPrefix(name, "tmp_") {
			out = append(out, name)
		}
	}
	return out
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

// packAlways sets fetch.unpackLimit to 0: every run of the repository
// writes a pack, however few its objects (as git keeps every fetched
// pack then).
func (tr *testRepo) packAlways() {
	tr.t.Helper()
	tr.git("config", "fetch.unpackLimit", "0")
}

// blobToWrite is a blob to write.
func blobToWrite(s string) pendingObject {
	o := newBlob([]byte(s))
	return pendingObject{o.Hash(), o}
}

// A run's Records write their new objects to one pack under git's
// temporary name, which the repository reads before it is named, and
// no loose object; objects already stored, loose or packed, are not
// written again, and a Record that makes nothing new writes nothing.
// Finish names the pack, which git verifies and reads.
func TestRecordWritesOnePack(t *testing.T) {
	t.Parallel()
	tr := newFixture(t)
	tr.packAlways()
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
	if packs := tr.newPacks(packsBefore); len(packs) != 0 {
		t.Errorf("packs named before Finish: %v", packs)
	}
	if tmp := tr.tmpFiles(); len(tmp) != 1 || !strings.HasPrefix(tmp[0], "tmp_pack_") {
		t.Errorf("temporary files %v, want one tmp_pack_", tmp)
	}
	if after := tr.looseObjects(); !slices.Equal(after, looseBefore) {
		t.Errorf("loose objects written: %v", after)
	}
	// Before Finish, the repository reads them from the pack in
	// progress.
	c, err := r.readCommit(oid.FromHex(id))
	if err != nil {
		t.Fatalf("readCommit before Finish: %v", err)
	}
	for _, o := range []struct {
		id  oid.ID
		typ oid.Type
	}{
		{c.Hash, oid.Commit},
		{c.TreeHash, oid.Tree},
		{oid.Sum(oid.Blob, []byte("same\n")), oid.Blob},
		{oid.Sum(oid.Blob, []byte("B\n")), oid.Blob},
	} {
		if has, err := r.hasObject(o.id); !has || err != nil {
			t.Errorf("hasObject(%s) = %v, %v before Finish", o.id, has, err)
		}
		got, data, err := r.readRaw(o.id)
		if err != nil || got != o.typ || oid.Sum(got, data) != o.id {
			t.Errorf("readRaw(%s) = %s, %v before Finish", o.id, got, err)
		}
	}

	// The same record on the same parent makes the same commit: all of
	// its objects are stored or in the pack in progress, and nothing is
	// written.
	w2 := newWriter(t, r, WriteOptions{Branch: "again", Parent: head})
	files := tr.packFiles()
	if again, err := w2.Record(context.Background(), changes, "five files"); err != nil || again != id {
		t.Fatalf("Record again = %s, %v; want %s", again, err, id)
	}
	if got := tr.packFiles(); !slices.Equal(got, files) {
		t.Errorf("a Record of stored objects wrote %v", got)
	}
	if w2.pack != nil {
		t.Error("a Record of stored objects started a pack")
	}

	if err := w.Finish(); err != nil {
		t.Fatal(err)
	}
	packs := tr.newPacks(packsBefore)
	if len(packs) != 1 {
		t.Fatalf("new packs %v, want one", packs)
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
	log := tr.git("log", "-p", "--format=%s", "main..objs")
	for _, line := range []string{"five files", "+++ b/new/a.txt", "+++ b/new/d.txt", "-b", "+B", "+already loose"} {
		if !slices.Contains(strings.Split(log, "\n"), line) {
			t.Errorf("git log -p lacks %q:\n%s", line, log)
		}
	}
	tr.fsck()
}

// Several Records in one run, as apply of several replies and replay
// make: each reads the trees the one before wrote (in the pack in
// progress), an object already in that pack is not written again, and
// Finish names one pack holding them all and moves the branch to
// commits git would have made.
func TestRecordsReadEarlierObjects(t *testing.T) {
	t.Parallel()
	tr := newFixture(t)
	tr.packAlways()
	head := tr.git("rev-parse", "HEAD")
	before := tr.packFiles()
	r := tr.open(tr.dir)
	w := newWriter(t, r, WriteOptions{Branch: "chain", Parent: head})
	parent := head
	var ids []string
	for i := range 4 {
		changes := []patch.FileChange{
			create(fmt.Sprintf("dir/sub/n%d.txt", i), fmt.Sprintf("new %d\n", i), reg),
			modify("dir/sub/c.txt", fmt.Sprintf("c %d\n", i), reg),
			// The blob of n0.txt, in the pack since the first Record.
			create(fmt.Sprintf("copies/n0-%d.txt", i), "new 0\n", reg),
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
		ids = append(ids, id)
		if packs := tr.newPacks(before); len(packs) != 0 {
			t.Errorf("packs named after %d Records: %v", i+1, packs)
		}
	}
	if err := w.Finish(); err != nil {
		t.Fatal(err)
	}
	packs := tr.newPacks(before)
	if len(packs) != 1 {
		t.Fatalf("new packs %v, want one", packs)
	}
	// Each object once: git lists every object of the four commits
	// not in the fixture, and verify-pack refuses a pack with an object
	// twice.
	got := tr.packedObjects(packs[0])
	want := strings.Split(tr.git("rev-list", "--objects", "--no-object-names", "main.."+parent), "\n")
	if len(got) != len(want) {
		t.Errorf("the pack holds %d objects, the commits %d new ones", len(got), len(want))
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
	log := tr.git("log", "-p", "--format=%H %s", "main..chain")
	for i, id := range ids {
		for _, line := range []string{id + fmt.Sprintf(" reply %d", i), fmt.Sprintf("+new %d", i), fmt.Sprintf("+++ b/copies/n0-%d.txt", i)} {
			if !slices.Contains(strings.Split(log, "\n"), line) {
				t.Errorf("git log -p lacks %q:\n%s", line, log)
			}
		}
	}
	tr.checkPacks(before)
	tr.fsck()
}

// TestObjectsDurableBeforeRefMoves: Records sync nothing; Finish syncs
// the pack and its index while they still have their temporary names,
// then objects/pack, which gains the final names, once, before the
// branch moves (and its lock file, which is not counted here). A second run on the writer does the same with its own
// pack.
func TestObjectsDurableBeforeRefMoves(t *testing.T) {
	tr := newFixture(t)
	tr.packAlways()
	head := tr.git("rev-parse", "HEAD")
	refPath := filepath.Join(tr.dir, ".git", "refs", "heads", "durable")
	packsBefore := tr.packFiles()
	var mu sync.Mutex
	var syncedDirs, syncedFiles []string
	var tip string // the branch before the Finish
	oldDir, oldFile := syncDir, syncFile
	syncDir = func(dir string) error {
		mu.Lock()
		defer mu.Unlock()
		if cur, err := os.ReadFile(refPath); err != nil || strings.TrimSpace(string(cur)) == tip {
			syncedDirs = append(syncedDirs, dir)
		} else if dir != filepath.Dir(refPath) {
			t.Errorf("%s synced after the branch moved", dir)
		}
		return oldDir(dir)
	}
	var named []string // the packs' final names when the run began
	syncFile = func(f *os.File) error {
		mu.Lock()
		defer mu.Unlock()
		name := filepath.Base(f.Name())
		if name == "durable.lock" { // the ref's, once the pack is named
			return oldFile(f)
		}
		if !strings.HasPrefix(name, "tmp_pack_") && !strings.HasPrefix(name, "tmp_idx_") {
			t.Errorf("synced %s: not one of git's temporary names", name)
		}
		// A crash now leaves only temporary names beside the packs
		// of the runs before.
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
	for run := range 2 {
		named, syncedFiles, syncedDirs = tr.packFiles(), nil, nil
		for i := range 3 {
			var changes []patch.FileChange
			for j := range 12 {
				changes = append(changes, create(fmt.Sprintf("d%d/f%d.txt", j%3, j), fmt.Sprintf("run %d reply %d file %d\n", run, i, j), 0))
			}
			if _, err := w.Record(context.Background(), changes, fmt.Sprintf("run %d reply %d", run, i)); err != nil {
				t.Fatal(err)
			}
		}
		if len(syncedFiles) != 0 || len(syncedDirs) != 0 {
			t.Errorf("Records synced %v %v: Finish syncs", syncedFiles, syncedDirs)
		}
		if n := len(tr.newPacks(named)); n != 0 {
			t.Errorf("run %d: %d packs named before Finish", run, n)
		}
		tip = "" // the branch is new
		if run > 0 {
			tip = tr.git("rev-parse", "durable")
		}
		if err := w.Finish(); err != nil {
			t.Fatal(err)
		}
		slices.Sort(syncedFiles)
		if len(syncedFiles) != 2 || !strings.HasPrefix(syncedFiles[0], "tmp_idx_") || !strings.HasPrefix(syncedFiles[1], "tmp_pack_") {
			t.Errorf("run %d synced %v, want its pack and its index", run, syncedFiles)
		}
		if want := []string{tr.packDir()}; !slices.Equal(syncedDirs, want) {
			t.Errorf("run %d synced %v before the branch moved, want %v once", run, syncedDirs, want)
		}
		if n := len(tr.newPacks(named)); n != 1 {
			t.Errorf("run %d made %d packs", run, n)
		}
	}
	tr.checkPacks(packsBefore)
	tr.fsck()
}

// A repository without objects/pack gets one, and objects, which then
// names it, is synced too.
func TestRecordMakesPackDir(t *testing.T) {
	tr := newFixture(t)
	tr.packAlways()
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
	*memObject
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

// cancellingObject calls cancel once its content is read whole.
type cancellingObject struct {
	*memObject
	cancel func()
}

func (o *cancellingObject) Reader() (io.ReadCloser, error) {
	rd, err := o.memObject.Reader()
	if err != nil {
		return nil, err
	}
	return io.NopCloser(io.MultiReader(rd, readerFunc(func([]byte) (int, error) {
		o.cancel()
		return 0, io.EOF
	}))), nil
}

// A write that fails midway (an object that cannot be read, the context
// ended between two objects) leaves none of its objects in the pack in
// progress: in a first Record, no pack at all; after a Record that
// worked, the pack Finish names holds that Record's objects only. A
// sync that fails in Finish leaves no pack and moves no ref. Close then
// leaves no temporary file.
func TestPackWriteFailureLeavesNothing(t *testing.T) {
	broken := func(hook func()) pendingObject {
		o := &failingObject{newBlob([]byte("part of it, and more\n")), hook}
		return pendingObject{o.Hash(), o}
	}
	for _, tc := range []struct {
		name string
		run  func(t *testing.T, tr *testRepo, w *BranchWriter) error
	}{
		{"read error", func(t *testing.T, tr *testRepo, w *BranchWriter) error {
			return w.writeObjects(context.Background(), []pendingObject{blobToWrite("one\n"), broken(func() {}), blobToWrite("two\n")})
		}},
		{"cancelled midway", func(t *testing.T, tr *testRepo, w *BranchWriter) error {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			// The second object is read, then fails, once ctx has ended.
			err := w.writeObjects(ctx, []pendingObject{blobToWrite("one\n"), broken(cancel), blobToWrite("two\n")})
			if ctx.Err() == nil {
				t.Error("the context did not end")
			}
			return err
		}},
		{"cancelled between objects", func(t *testing.T, tr *testRepo, w *BranchWriter) error {
			ctx, cancel := context.WithCancel(context.Background())
			calls := 0
			p := blobToWrite("one\n")
			p.obj = &cancellingObject{memObject: p.obj.(*memObject), cancel: func() { calls++; cancel() }}
			err := w.writeObjects(ctx, []pendingObject{p, blobToWrite("two\n")})
			if !errors.Is(err, context.Canceled) || calls != 1 {
				t.Errorf("writeObjects = %v after %d cancels, want context.Canceled", err, calls)
			}
			return err
		}},
		{"sync fails", func(t *testing.T, tr *testRepo, w *BranchWriter) error {
			old := syncFile
			syncFile = func(f *os.File) error {
				if strings.Contains(f.Name(), "tmp_idx_") {
					return errors.New("injected sync error")
				}
				return old(f)
			}
			defer func() { syncFile = old }()
			if _, err := w.Record(context.Background(), []patch.FileChange{create("f.txt", "f\n", reg)}, "f"); err != nil {
				t.Fatal(err)
			}
			err := w.Finish()
			if tmp := tr.tmpFiles(); len(tmp) != 0 {
				t.Errorf("temporary files after a failed Finish: %v", tmp)
			}
			if err2 := w.Finish(); err2 == nil {
				t.Error("Finish again after a failed Finish moved the branch")
			}
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := newFixture(t)
			tr.packAlways()
			before, objs := tr.packFiles(), tr.storedObjects()
			w := newWriter(t, tr.open(tr.dir), WriteOptions{Branch: "failed", Parent: ""})
			if err := tc.run(t, tr, w); err == nil {
				t.Fatal("no error")
			}
			if len(w.unsynced) != 0 {
				t.Errorf("directories to sync after a failure: %v", w.unsynced)
			}
			w.Close()
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

	t.Run("after a Record", func(t *testing.T) {
		tr := newFixture(t)
		tr.packAlways()
		head := tr.git("rev-parse", "HEAD")
		before := tr.packFiles()
		w := newWriter(t, tr.open(tr.dir), WriteOptions{Branch: "kept", Parent: head})
		id, err := w.Record(context.Background(), []patch.FileChange{create("k.txt", "kept\n", reg)}, "kept")
		if err != nil {
			t.Fatal(err)
		}
		if err := w.writeObjects(context.Background(), []pendingObject{blobToWrite("lost\n"), broken(func() {}), blobToWrite("lost too\n")}); err == nil {
			t.Fatal("no error")
		}
		if err := w.Finish(); err != nil {
			t.Fatal(err)
		}
		packs := tr.newPacks(before)
		if len(packs) != 1 {
			t.Fatalf("new packs %v, want one", packs)
		}
		want := strings.Split(tr.git("rev-list", "--objects", "--no-object-names", "main.."+id), "\n")
		if got := tr.packedObjects(packs[0]); len(got) != len(want) {
			t.Errorf("the pack holds %v, the commit's new objects are %v", got, want)
		}
		if got := tr.git("rev-parse", "kept"); got != id {
			t.Errorf("kept is at %s, want %s", got, id)
		}
		tr.checkPacks(before)
		tr.fsck()
	})
}

// Close without Finish (after a run that failed, or was stopped)
// removes the pack in progress and moves no ref; Close twice, or after
// Finish, changes nothing.
func TestCloseRemovesPackInProgress(t *testing.T) {
	t.Parallel()
	tr := newFixture(t)
	tr.packAlways()
	head := tr.git("rev-parse", "HEAD")
	before, objs := tr.packFiles(), tr.storedObjects()
	r := tr.open(tr.dir)
	w := newWriter(t, r, WriteOptions{Branch: "closed", Parent: head})
	var ids []oid.ID
	for i := range 3 {
		id, err := w.Record(context.Background(), []patch.FileChange{create(fmt.Sprintf("c%d.txt", i), fmt.Sprintf("c %d\n", i), reg)}, "c")
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, oid.FromHex(id))
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := w.Record(ctx, []patch.FileChange{create("stop.txt", "stop\n", reg)}, "stopped"); !errors.Is(err, context.Canceled) {
		t.Fatalf("Record with an ended context = %v", err)
	}
	w.Close()
	w.Close()
	if got := tr.packFiles(); !slices.Equal(got, before) {
		t.Errorf("objects/pack holds %v, held %v", got, before)
	}
	if got := tr.storedObjects(); !slices.Equal(got, objs) {
		t.Errorf("%d objects stored, %d before", len(got), len(objs))
	}
	for _, id := range ids {
		if has, _ := r.hasObject(id); has {
			t.Errorf("%s is still read after Close", id)
		}
	}
	if refs := tr.git("for-each-ref", "refs/heads/closed"); refs != "" {
		t.Errorf("the branch moved: %s", refs)
	}
	if n := len(r.running.list()); n != 0 {
		t.Errorf("%d packs still registered", n)
	}

	w2 := newWriter(t, r, WriteOptions{Branch: "finished", Parent: head})
	id, err := w2.Record(context.Background(), []patch.FileChange{create("f.txt", "f\n", reg)}, "f")
	if err != nil {
		t.Fatal(err)
	}
	if err := w2.Finish(); err != nil {
		t.Fatal(err)
	}
	files := tr.packFiles()
	w2.Close()
	if got := tr.packFiles(); !slices.Equal(got, files) {
		t.Errorf("Close after Finish: objects/pack holds %v, held %v", got, files)
	}
	if got := tr.git("rev-parse", "finished"); got != id {
		t.Errorf("finished is at %s, want %s", got, id)
	}
	tr.checkPacks(before)
	tr.fsck()
}

// Record and Finish, then Record and Finish again on the same writer
// (as the MCP server and llmapply do): a pack each, both whole, and the
// branch at the second commit.
func TestFinishTwiceTwoPacks(t *testing.T) {
	t.Parallel()
	tr := newFixture(t)
	tr.packAlways()
	head := tr.git("rev-parse", "HEAD")
	before := tr.packFiles()
	w := newWriter(t, tr.open(tr.dir), WriteOptions{Branch: "twice", Parent: head})
	var id string
	for i := range 2 {
		var err error
		id, err = w.Record(context.Background(), []patch.FileChange{modify("dir/b.txt", fmt.Sprintf("b %d\n", i), reg)}, fmt.Sprintf("b %d", i))
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Finish(); err != nil {
			t.Fatal(err)
		}
		if n := len(tr.newPacks(before)); n != i+1 {
			t.Errorf("%d packs after %d runs", n, i+1)
		}
	}
	for _, idx := range tr.newPacks(before) {
		tr.packedObjects(idx)
	}
	if got := tr.git("rev-parse", "twice"); got != id {
		t.Errorf("twice is at %s, want %s", got, id)
	}
	if got := tr.git("log", "--format=%s", "main..twice"); got != "b 1\nb 0" {
		t.Errorf("log: %q", got)
	}
	tr.checkPacks(before)
	tr.fsck()
}

// A pack sealed again (same objects, so same name) leaves the one
// there as it is and no temporary file beside it.
func TestSealKeepsExistingPack(t *testing.T) {
	tr := newFixture(t)
	objs := []pendingObject{blobToWrite("one\n"), blobToWrite("two\n")}
	write := func() string {
		t.Helper()
		p, err := newRunPack(tr.packDir())
		if err != nil {
			t.Fatal(err)
		}
		defer p.remove()
		if err := p.add(context.Background(), objs); err != nil {
			t.Fatal(err)
		}
		idx, err := p.seal(durability{components: fsyncOurDefault})
		if err != nil {
			t.Fatal(err)
		}
		return idx
	}
	first := write()
	fi, err := os.Stat(first)
	if err != nil {
		t.Fatal(err)
	}
	files := tr.packFiles()
	if again := write(); again != first {
		t.Fatalf("sealed again as %s, want %s", again, first)
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

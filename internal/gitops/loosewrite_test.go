package gitops

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/odb"
	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/oid"
	"github.com/git-llm-apply/git-llm-apply/internal/patch"
)

// newLoose returns the loose objects of the repository not in before.
func (tr *testRepo) newLoose(before []string) []string {
	tr.t.Helper()
	var out []string
	for _, o := range tr.looseObjects() {
		if !slices.Contains(before, o) {
			out = append(out, o)
		}
	}
	return out
}

// A run of one reply, under the unpack limit, writes its objects loose
// at Finish and no pack: nothing reaches the disk before Finish (the
// repository reads them from memory); as git's batch mode, each file is
// written out under its temporary name, then one flush of a file of
// its own makes them durable, all before any final name appears; no
// fan-out directory is synced (git syncs none), the ref's lock is; an
// object already loose is kept as it is, and git reads each object and
// fsck --strict passes.
func TestSmallRunWritesLoose(t *testing.T) {
	tr := newFixture(t)
	head := tr.git("rev-parse", "HEAD")
	already := tr.gitEnv(tr.dir, nil, "already loose\n", "hash-object", "-w", "--stdin")
	alreadyPath := odb.LoosePath(filepath.Join(tr.dir, ".git", "objects"), oid.FromHex(already))
	alreadyFi, err := os.Stat(alreadyPath)
	if err != nil {
		t.Fatal(err)
	}
	packsBefore, looseBefore := tr.packFiles(), tr.looseObjects()
	refPath := filepath.Join(tr.dir, ".git", "refs", "heads", "small")

	var mu sync.Mutex
	var syncedDirs, writtenOut, synced []string
	oldDir, oldFile, oldOut := syncDir, syncFile, writeOut
	syncDir = func(dir string) error {
		mu.Lock()
		defer mu.Unlock()
		syncedDirs = append(syncedDirs, dir)
		return oldDir(dir)
	}
	// A crash now leaves only temporary names.
	noFinalNames := func(what string) {
		got := slices.DeleteFunc(tr.newLoose(looseBefore), func(o string) bool { return strings.Contains(o, "tmp_") })
		if len(got) != 0 {
			t.Errorf("%s: %v already have their final names", what, got)
		}
	}
	writeOut = func(f *os.File) error {
		mu.Lock()
		defer mu.Unlock()
		name := filepath.Base(f.Name())
		if !strings.HasPrefix(name, "tmp_obj_") {
			t.Errorf("wrote out %s: not git's temporary name of a loose object", name)
		}
		noFinalNames("writing out " + name)
		writtenOut = append(writtenOut, name)
		return oldOut(f)
	}
	syncFile = func(f *os.File) error {
		mu.Lock()
		defer mu.Unlock()
		name := filepath.Base(f.Name())
		switch {
		case strings.HasPrefix(name, "tmp_bulk_fsync_"):
			noFinalNames("the flush")
		case name == "small.lock":
		default:
			t.Errorf("synced %s: neither the flush of the objects nor the ref", name)
		}
		synced = append(synced, name)
		return oldFile(f)
	}
	t.Cleanup(func() { syncDir, syncFile, writeOut = oldDir, oldFile, oldOut })

	r := tr.open(tr.dir)
	w := newWriter(t, r, WriteOptions{Branch: "small", Parent: head})
	changes := []patch.FileChange{
		create("new/a.txt", "fresh\n", reg),
		create("new/d.txt", "already loose\n", reg),
		modify("dir/b.txt", "B\n", reg),
	}
	id, err := w.Record(context.Background(), changes, "three files")
	if err != nil {
		t.Fatal(err)
	}
	if got := tr.newLoose(looseBefore); len(got) != 0 {
		t.Errorf("written before Finish: %v", got)
	}
	if got := tr.packFiles(); !slices.Equal(got, packsBefore) {
		t.Errorf("objects/pack holds %v before Finish, held %v", got, packsBefore)
	}
	c, err := r.readCommit(oid.FromHex(id))
	if err != nil {
		t.Fatalf("readCommit before Finish: %v", err)
	}
	if has, err := r.hasObject(c.TreeHash); !has || err != nil {
		t.Errorf("hasObject(tree) = %v, %v before Finish", has, err)
	}
	if err := w.Finish(); err != nil {
		t.Fatal(err)
	}
	if got := tr.packFiles(); !slices.Equal(got, packsBefore) {
		t.Errorf("objects/pack holds %v, held %v: a small run wrote a pack", got, packsBefore)
	}
	want := strings.Split(tr.git("rev-list", "--objects", "--no-object-names", "main..small"), "\n")
	want = slices.DeleteFunc(want, func(s string) bool { return s == already })
	slices.Sort(want)
	if got := tr.newLoose(looseBefore); !slices.Equal(got, want) {
		t.Errorf("new loose objects %v, want the commit's new ones %v", got, want)
	}
	for _, o := range want {
		tr.git("cat-file", "-p", o)
	}
	if len(writtenOut) != len(want) {
		t.Errorf("wrote out %d files, want the %d new objects", len(writtenOut), len(want))
	}
	if len(synced) != 2 || !strings.HasPrefix(synced[0], "tmp_bulk_fsync_") || synced[1] != "small.lock" {
		t.Errorf("synced %v, want one flush of the objects, then the ref's lock", synced)
	}
	if want := []string{filepath.Dir(refPath)}; !slices.Equal(syncedDirs, want) {
		t.Errorf("synced the directories %v, want only %v", syncedDirs, want)
	}
	if fi, err := os.Stat(alreadyPath); err != nil || !os.SameFile(fi, alreadyFi) {
		t.Errorf("the loose object already there was replaced (%v)", err)
	}
	if byGit := tr.gitRecord(head, changes, "three files\n"); byGit != id {
		t.Errorf("commit %s, git makes %s", id, byGit)
	}
	if got := tr.git("rev-parse", "small"); got != id {
		t.Errorf("small is at %s, want %s", got, id)
	}
	tr.fsck()
}

// 200 replies in one run go past the unpack limit: one pack holds all
// their objects, those held before the limit too, and no loose object
// is written. A single object of 1 MiB or more makes a pack as well.
func TestLargeRunWritesOnePack(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		replies int
		size    int
	}{
		{"200 replies", 200, 10},
		{"one big blob", 1, 1 << 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := newFixture(t)
			head := tr.git("rev-parse", "HEAD")
			packsBefore, looseBefore := tr.packFiles(), tr.looseObjects()
			w := newWriter(t, tr.open(tr.dir), WriteOptions{Branch: "large", Parent: head})
			for i := range tc.replies {
				body := fmt.Sprintf("%d\n", i) + strings.Repeat("x", tc.size)
				if _, err := w.Record(context.Background(), []patch.FileChange{create(fmt.Sprintf("r/%d.txt", i), body, reg)}, fmt.Sprintf("reply %d", i)); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Finish(); err != nil {
				t.Fatal(err)
			}
			if got := tr.newLoose(looseBefore); len(got) != 0 {
				t.Errorf("%d loose objects written", len(got))
			}
			packs := tr.newPacks(packsBefore)
			if len(packs) != 1 {
				t.Fatalf("new packs %v, want one", packs)
			}
			want := strings.Split(tr.git("rev-list", "--objects", "--no-object-names", "main..large"), "\n")
			if got := tr.packedObjects(packs[0]); len(got) != len(want) {
				t.Errorf("the pack holds %d objects, the run made %d", len(got), len(want))
			}
			if got := tr.git("log", "-1", "--format=%s", "large"); got != fmt.Sprintf("reply %d", tc.replies-1) {
				t.Errorf("large's tip is %q", got)
			}
			tr.checkPacks(packsBefore)
			tr.fsck()
		})
	}
}

// A small run stopped before Finish (a Record cut short, then Close)
// leaves nothing at all: no loose object, no temporary file, no pack,
// and the repository no longer reads its objects. A Finish whose
// object write fails moves no ref and leaves no temporary file.
func TestSmallRunInterruptedLeavesNothing(t *testing.T) {
	tr := newFixture(t)
	head := tr.git("rev-parse", "HEAD")
	packsBefore, looseBefore := tr.packFiles(), tr.looseObjects()
	r := tr.open(tr.dir)
	w := newWriter(t, r, WriteOptions{Branch: "stopped", Parent: head})
	var ids []oid.ID
	for i := range 3 {
		id, err := w.Record(context.Background(), []patch.FileChange{create(fmt.Sprintf("s%d.txt", i), fmt.Sprintf("s %d\n", i), reg)}, "s")
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
	if got := tr.newLoose(looseBefore); len(got) != 0 {
		t.Errorf("left behind: %v", got)
	}
	if got := tr.packFiles(); !slices.Equal(got, packsBefore) {
		t.Errorf("objects/pack holds %v, held %v", got, packsBefore)
	}
	for _, id := range ids {
		if has, _ := r.hasObject(id); has {
			t.Errorf("%s is still read after Close", id)
		}
	}
	if n := len(r.running.list()); n != 0 {
		t.Errorf("%d runs still registered", n)
	}

	old := syncFile
	syncFile = func(f *os.File) error { return errors.New("injected sync error") }
	t.Cleanup(func() { syncFile = old })
	w2 := newWriter(t, r, WriteOptions{Branch: "failed", Parent: head})
	if _, err := w2.Record(context.Background(), []patch.FileChange{create("f.txt", "f\n", reg)}, "f"); err != nil {
		t.Fatal(err)
	}
	if err := w2.Finish(); err == nil {
		t.Fatal("Finish with failing syncs succeeded")
	}
	w2.Close()
	if refs := tr.git("for-each-ref", "refs/heads/failed", "refs/heads/stopped"); refs != "" {
		t.Errorf("a branch moved: %s", refs)
	}
	if got := tr.newLoose(looseBefore); len(got) != 0 {
		t.Errorf("a failed Finish left %v", got)
	}
	tr.fsck()
}

// The loose objects are deflated at core.looseCompression, else
// core.compression, else best speed, as git's zlib header shows; a
// level git refuses is refused.
func TestLooseCompression(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		config []string
		flg    byte // the second byte of the zlib stream
		err    string
	}{
		{nil, 0x01, ""},
		{[]string{"core.compression", "9"}, 0xda, ""},
		{[]string{"core.compression", "9", "core.looseCompression", "-1"}, 0x9c, ""},
		{[]string{"core.looseCompression", "0"}, 0x01, ""},
		{[]string{"core.compression", "10"}, 0, "bad zlib compression level 10"},
		{[]string{"fetch.unpackLimit", "many"}, 0, "bad numeric config value"},
	} {
		t.Run(strings.Join(tc.config, "="), func(t *testing.T) {
			tr := newFixture(t)
			head := tr.git("rev-parse", "HEAD")
			for i := 0; i < len(tc.config); i += 2 {
				tr.git("config", tc.config[i], tc.config[i+1])
			}
			w, err := tr.open(tr.dir).NewBranchWriter(WriteOptions{Branch: "z", Parent: head})
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("NewBranchWriter = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			if _, err := w.Record(context.Background(), []patch.FileChange{create("z.txt", strings.Repeat("z", 1000), reg)}, "z"); err != nil {
				t.Fatal(err)
			}
			if err := w.Finish(); err != nil {
				t.Fatal(err)
			}
			blob := tr.git("rev-parse", "z:z.txt")
			data, err := os.ReadFile(odb.LoosePath(filepath.Join(tr.dir, ".git", "objects"), oid.FromHex(blob)))
			if err != nil {
				t.Fatal(err)
			}
			if data[0] != 0x78 || data[1] != tc.flg {
				t.Errorf("zlib header % x, want 78 %02x", data[:2], tc.flg)
			}
			tr.fsck()
		})
	}
}

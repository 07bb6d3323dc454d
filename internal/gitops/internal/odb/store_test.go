package odb

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/oid"
	"github.com/git-llm-apply/git-llm-apply/internal/scratch"
)

// newObjectFixture makes a repository with every kind of object:
// commits (a merge among them), nested trees, an executable, a
// symbolic link, an empty blob, a blob of 100 KiB, an annotated tag,
// a tag of a tag, and a file in twelve versions, so that a repack
// stores deltas.
func newObjectFixture(t *testing.T) *testRepo {
	t.Helper()
	r := scratch.ObjectFixture(t)
	return &testRepo{t: t, dir: r.Dir, home: r.Home, env: r.Env}
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

// gitObject is an object as git reads it.
type gitObject struct {
	id   oid.ID
	typ  oid.Type
	data []byte
}

// checkObjects reads every object git reads through the store,
// compares them with git's, and requires objects of every type among
// them.
func checkObjects(t *testing.T, tr *testRepo, s *Store) {
	t.Helper()
	objs := tr.allObjects()
	if len(objs) == 0 {
		t.Fatal("no objects")
	}
	count := map[oid.Type]int{}
	for _, o := range objs {
		count[o.typ]++
		typ, data, err := s.Read(o.id)
		if err != nil {
			t.Errorf("store: %s %s: %v", o.typ, o.id, err)
			continue
		}
		if typ != o.typ || !bytes.Equal(data, o.data) {
			t.Errorf("store: %s is a %s of %d bytes, git reads a %s of %d bytes", o.id, typ, len(data), o.typ, len(o.data))
		}
		// The size from the header alone: a loose object's, a pack
		// entry's, a delta's result size.
		if size, err := s.Size(o.id); err != nil || size != int64(len(o.data)) {
			t.Errorf("store: Size(%s) = %d, %v; git reads %d bytes", o.id, size, err, len(o.data))
		}
	}
	for _, typ := range []oid.Type{oid.Commit, oid.Tree, oid.Blob, oid.Tag} {
		if count[typ] == 0 {
			t.Errorf("no %s among the objects", typ)
		}
	}
}

// store is the object store of the repository at dir.
func (tr *testRepo) store() *Store {
	s := New(filepath.Join(tr.dir, ".git", "objects"))
	tr.t.Cleanup(s.Close)
	return s
}

// packEntries lists the entries of every pack of the repository with
// their type as stored: 1-4 whole objects, 6 OFS_DELTA, 7 REF_DELTA.
func (tr *testRepo) packEntries() map[oid.ID]int {
	tr.t.Helper()
	out := map[oid.ID]int{}
	idxs, _ := filepath.Glob(filepath.Join(tr.dir, ".git", "objects", "pack", "*.idx"))
	for _, idx := range idxs {
		pack, err := os.ReadFile(strings.TrimSuffix(idx, ".idx") + ".pack")
		if err != nil {
			tr.t.Fatal(err)
		}
		for _, line := range strings.Split(string(tr.gitOut("verify-pack", "-v", idx)), "\n") {
			f := strings.Fields(line)
			if len(f) < 5 || len(f[0]) != 40 {
				continue
			}
			off, _ := strconv.Atoi(f[4])
			out[oid.FromHex(f[0])] = int(pack[off]>>4) & 7
		}
	}
	return out
}

func countTypes(entries map[oid.ID]int) map[int]int {
	n := map[int]int{}
	for _, typ := range entries {
		n[typ]++
	}
	return n
}

const (
	ofsDelta = 6
	refDelta = 7
)

func TestReadObjectsLoose(t *testing.T) {
	t.Parallel()
	tr := newObjectFixture(t)
	if n := len(tr.looseObjects()); n < 50 {
		t.Fatalf("%d loose objects, want the fixture's unpacked", n)
	}
	checkObjects(t, tr, tr.store())
}

func TestReadObjectsPackedOfsDelta(t *testing.T) {
	t.Parallel()
	tr := newObjectFixture(t)
	tr.git("gc", "-q", "--aggressive")
	if n := len(tr.looseObjects()); n != 0 {
		t.Fatalf("%d loose objects after gc", n)
	}
	types := countTypes(tr.packEntries())
	if types[ofsDelta] < 10 || types[refDelta] != 0 {
		t.Fatalf("pack entries by type %v, want OFS_DELTA ones and no REF_DELTA", types)
	}
	s := tr.store()
	checkObjects(t, tr, s)
	// Reading them again is served by the delta base cache.
	checkObjects(t, tr, s)
	idxs, _ := filepath.Glob(filepath.Join(tr.dir, ".git", "objects", "pack", "*.idx"))
	checkPackIndex(t, tr, idxs[0])
}

func TestReadObjectsPackedRefDelta(t *testing.T) {
	t.Parallel()
	tr := newObjectFixture(t)
	tr.git("-c", "repack.useDeltaBaseOffset=false", "repack", "-q", "-adf")
	types := countTypes(tr.packEntries())
	if types[refDelta] < 10 || types[ofsDelta] != 0 {
		t.Fatalf("pack entries by type %v, want REF_DELTA ones and no OFS_DELTA", types)
	}
	checkObjects(t, tr, tr.store())
}

// reindex writes the index of the repository's only pack again with
// git index-pack and the given arguments.
func (tr *testRepo) reindex(args ...string) string {
	tr.t.Helper()
	tr.git("repack", "-q", "-adf")
	idxs, _ := filepath.Glob(filepath.Join(tr.dir, ".git", "objects", "pack", "*.idx"))
	if len(idxs) != 1 {
		tr.t.Fatalf("%d packs", len(idxs))
	}
	base := strings.TrimSuffix(idxs[0], ".idx")
	for _, ext := range []string{".idx", ".rev"} {
		if err := os.Remove(base + ext); err != nil && !errors.Is(err, os.ErrNotExist) {
			tr.t.Fatal(err)
		}
	}
	tr.git(append(append([]string{"index-pack"}, args...), base+".pack")...)
	return idxs[0]
}

func TestReadObjectsIndexFormats(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		args []string
		rev  bool
	}{
		{"v1", []string{"--index-version=1", "--no-rev-index"}, false},
		{"v2-64bit", []string{"--index-version=2,0x200", "--no-rev-index"}, false},
		{"v2-rev", []string{"--rev-index"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := newObjectFixture(t)
			idx := tr.reindex(tc.args...)
			if _, err := os.Stat(strings.TrimSuffix(idx, ".idx") + ".rev"); (err == nil) != tc.rev {
				t.Fatalf(".rev file exists: %v, want %v", err == nil, tc.rev)
			}
			s := tr.store()
			checkObjects(t, tr, s)
			x := s.dirs[0].packs[0].idx
			want := map[string]int{"v1": 1, "v2-64bit": 2, "v2-rev": 2}[tc.name]
			if x.version != want || (tc.name == "v2-64bit") != (x.nLarge > 0) {
				t.Errorf("index version %d with %d 64-bit offsets", x.version, x.nLarge)
			}
			checkPackIndex(t, tr, idx)
		})
	}
}

// checkPackIndex compares every entry of a packIndex with git
// show-index, finding offsets from names with the whole fanout bucket
// read at once or one name a read.
func checkPackIndex(t *testing.T, tr *testRepo, path string) {
	t.Helper()
	idxData, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("git", "show-index")
	cmd.Stdin, cmd.Env = bytes.NewReader(idxData), tr.env
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	type entry struct {
		off int64
		id  oid.ID
	}
	var entries []entry
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		off, _ := strconv.ParseInt(f[0], 10, 64)
		entries = append(entries, entry{off: off, id: oid.FromHex(f[1])})
	}
	for _, mode := range []string{"bucket", "probing"} {
		x, err := openPackIndex(path)
		if err != nil {
			t.Fatal(err)
		}
		defer x.close()
		if mode == "probing" {
			x.readAtOnce = 20 // one name a read, as in a pack of millions
		}
		if x.n != int64(len(entries)) {
			t.Errorf("%d objects, git lists %d", x.n, len(entries))
		}
		for _, e := range entries {
			pos, ok, err := x.find(e.id)
			if !ok || err != nil {
				t.Errorf("find(%s) (%s) = %v, %v", e.id, mode, ok, err)
				continue
			}
			if off, err := x.offset(pos); off != e.off || err != nil {
				t.Errorf("offset of %s (%s) = %d, %v, want %d", e.id, mode, off, err, e.off)
			}
		}
		// Names next to every name, and at both ends: not there.
		names := map[oid.ID]bool{}
		for _, e := range entries {
			names[e.id] = true
		}
		absent := []oid.ID{oid.Zero, oid.FromHex("ffffffffffffffffffffffffffffffffffffffff")}
		for _, e := range entries {
			for _, d := range []byte{1, 0xff} {
				id := e.id
				id[19] += d
				absent = append(absent, id)
			}
		}
		for _, id := range absent {
			if _, ok, err := x.find(id); ok != names[id] || err != nil {
				t.Errorf("find(%s) = %v, %v", id, ok, err)
			}
		}
	}
}

func TestReadObjectsPacksAndLoose(t *testing.T) {
	t.Parallel()
	tr := newObjectFixture(t)
	tr.git("repack", "-q", "-d")
	tr.write("later.txt", "later\n", 0o644)
	tr.git("add", "-A")
	tr.git("commit", "-q", "-m", "later")
	tr.git("repack", "-q", "-d")
	tr.write("loose.txt", "loose\n", 0o644)
	tr.git("add", "-A")
	tr.git("commit", "-q", "-m", "loose")
	idxs, _ := filepath.Glob(filepath.Join(tr.dir, ".git", "objects", "pack", "*.idx"))
	if len(idxs) != 2 || len(tr.looseObjects()) == 0 {
		t.Fatalf("%d packs and %d loose objects, want 2 and some", len(idxs), len(tr.looseObjects()))
	}
	checkObjects(t, tr, tr.store())
}

func TestReadObjectsAlternates(t *testing.T) {
	t.Parallel()
	src := newObjectFixture(t)
	src.git("gc", "-q")
	src.write("loose-in-source.txt", "x\n", 0o644)
	src.git("add", "-A")
	src.git("commit", "-q", "-m", "loose in the source")

	// A shared clone of a shared clone: alternates of alternates, one
	// of them relative.
	base := filepath.Dir(src.dir)
	mid := &testRepo{t: t, dir: filepath.Join(base, "mid"), home: src.home, env: src.env}
	src.gitAt(base, "clone", "-q", "--shared", src.dir, mid.dir)
	rel, err := filepath.Rel(filepath.Join(mid.dir, ".git", "objects"), filepath.Join(src.dir, ".git", "objects"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mid.dir, ".git", "objects", "info", "alternates"), []byte("# relative\n"+rel+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mid.write("mid.txt", "mid\n", 0o644)
	mid.git("add", "-A")
	mid.git("commit", "-q", "-m", "in mid")
	top := &testRepo{t: t, dir: filepath.Join(base, "top"), home: src.home, env: src.env}
	src.gitAt(base, "clone", "-q", "--shared", mid.dir, top.dir)
	top.write("top.txt", "top\n", 0o644)
	top.git("add", "-A")
	top.git("commit", "-q", "-m", "in top")

	s := top.store()
	checkObjects(t, top, s)
	if n := len(s.dirs); n != 3 {
		t.Errorf("%d object directories, want top, mid and the source", n)
	}
	src.write("after.txt", "after\n", 0o644)
	src.git("add", "-A")
	src.git("commit", "-q", "-m", "after")
	id := oid.FromHex(src.git("rev-parse", "HEAD"))
	if typ, _, err := s.Read(id); err != nil || typ != oid.Commit {
		t.Errorf("a commit added to the source after the first reads: %v, %v", typ, err)
	}
}

// TestReadObjectsCorruptLoose: a loose object under another's name
// fails, short or long enough to be hashed on a goroutine of its own
// as it is inflated (see zstream.fill), and a long good one reads.
func TestReadObjectsCorruptLoose(t *testing.T) {
	t.Parallel()
	tr := newTestRepo(t)
	objs := filepath.Join(tr.dir, ".git", "objects")
	for _, n := range []int{2, 1 << 20, 1<<20 + 1, 3<<20 + 7} {
		content := strings.Repeat("a", n-1) + "\n"
		a := tr.gitEnv(tr.dir, nil, content, "hash-object", "-w", "--stdin")
		typ, got, err := tr.store().Read(oid.FromHex(a))
		if err != nil || typ != oid.Blob || string(got) != content {
			t.Errorf("%d bytes: the good object reads as %s, %d bytes, %v", n, typ, len(got), err)
		}
		b := oid.FromHex(tr.gitEnv(tr.dir, nil, "b"+content[1:], "hash-object", "--stdin"))
		data, err := os.ReadFile(filepath.Join(objs, a[:2], a[2:]))
		if err != nil {
			t.Fatal(err)
		}
		if err := scratch.WriteFile(LoosePath(objs, b), string(data)); err != nil {
			t.Fatal(err)
		}
		_, _, err = tr.store().Read(b)
		if err == nil || !strings.Contains(err.Error(), "content hashes to "+a) {
			t.Errorf("%d bytes: a loose object under another's name: %v", n, err)
		}
	}
}

// TestReadObjectsRepackedMeanwhile: a repack run while the Repo is
// open deletes the pack it reads and packs the loose objects it knows;
// the open pack still reads, and the new pack is found.
func TestReadObjectsRepackedMeanwhile(t *testing.T) {
	t.Parallel()
	tr := newObjectFixture(t)
	tr.git("gc", "-q")
	s := tr.store()
	head := oid.FromHex(tr.git("rev-parse", "HEAD"))
	if _, _, err := s.Read(head); err != nil {
		t.Fatal(err)
	}
	tr.write("new.txt", "new\n", 0o644)
	tr.git("add", "-A")
	tr.git("commit", "-q", "-m", "new")
	newHead := oid.FromHex(tr.git("rev-parse", "HEAD"))
	if _, _, err := s.Read(newHead); err != nil {
		t.Fatal(err)
	}
	tr.git("repack", "-q", "-adf")
	tr.git("prune-packed")
	if n := len(tr.looseObjects()); n != 0 {
		t.Fatalf("%d loose objects left", n)
	}
	checkObjects(t, tr, s)
}

// TestReadObjectsGarbageAfterLoose: bytes after a loose object's zlib
// stream (after its checksum, or a second stream) make it git's
// "garbage at end of loose object", however few, short or long the
// content (SPEC section 5).
func TestReadObjectsGarbageAfterLoose(t *testing.T) {
	t.Parallel()
	tr := newTestRepo(t)
	objs := filepath.Join(tr.dir, ".git", "objects")
	for _, n := range []int{2, 3<<20 + 7} {
		content := strings.Repeat("a", n-1) + "\n"
		id := tr.gitEnv(tr.dir, nil, content, "hash-object", "-w", "--stdin")
		path := filepath.Join(objs, id[:2], id[2:])
		good, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for name, tail := range map[string]string{"a zero byte": "\x00", "text": "garbage\n", "another stream": string(good)} {
			os.Chmod(path, 0o644)
			if err := os.WriteFile(path, append(slices.Clip(good), tail...), 0o644); err != nil {
				t.Fatal(err)
			}
			_, _, err := tr.store().Read(oid.FromHex(id))
			if want := "garbage at end of loose object '" + id + "'"; err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%d bytes, %s after the stream: %v, want %q", n, name, err, want)
			}
		}
	}
}

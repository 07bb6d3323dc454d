package odb

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

// writeTestPack packs objs into dir/pack and returns the index's path.
func writeTestPack(t *testing.T, dir string, objs []gitObject) string {
	t.Helper()
	var pk, idx bytes.Buffer
	pw, err := NewPackWriter(&pk, len(objs))
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range objs {
		if err := pw.Add(o.id, o.typ, int64(len(o.data)), bytes.NewReader(o.data)); err != nil {
			t.Fatal(err)
		}
	}
	sum, err := pw.Finish()
	if err != nil {
		t.Fatal(err)
	}
	if err := pw.WriteIndex(&idx); err != nil {
		t.Fatal(err)
	}
	base := filepath.Join(dir, "pack", "pack-"+sum.String())
	if err := os.WriteFile(base+".pack", pk.Bytes(), 0o444); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(base+".idx", idx.Bytes(), 0o444); err != nil {
		t.Fatal(err)
	}
	return base + ".idx"
}

// Every object of a repository (blobs empty and large, trees, commits,
// tags), packed by PackWriter into another repository: git verifies
// the pack and its index and reads every object as it was, and so does
// the store.
func TestPackWriterRoundTrip(t *testing.T) {
	src := newObjectFixture(t)
	objs := src.allObjects()
	dst := newTestRepo(t)
	idx := writeTestPack(t, filepath.Join(dst.dir, ".git", "objects"), objs)

	out := dst.git("verify-pack", "-v", idx)
	for _, o := range objs {
		if !strings.Contains(out, o.id.String()+" "+o.typ.String()+" ") {
			t.Errorf("verify-pack does not list %s %s", o.typ, o.id)
		}
	}
	if strings.Contains(out, "chain length") {
		t.Errorf("a delta in the pack:\n%s", out)
	}
	if got := dst.allObjects(); len(got) != len(objs) {
		t.Errorf("git reads %d objects, %d packed", len(got), len(objs))
	}
	checkObjects(t, dst, dst.store())
}

// The index names offsets of 2^31 and more through its table of 8-byte
// offsets; the store and git's show-index read them back.
func TestPackIndexLargeOffsets(t *testing.T) {
	offs := []int64{12, 1<<31 - 1, 1 << 31, 5<<32 + 7, 1 << 40}
	pw := &PackWriter{done: true}
	copy(pw.sum[:], bytes.Repeat([]byte{0xab}, 20))
	for i, off := range offs {
		// Names in descending order: the index sorts them.
		id := plumbing.NewHash(fmt.Sprintf("%02x%038x", 0xf0-i*0x30, i))
		pw.entries = append(pw.entries, indexEntry{id: id, crc: uint32(i * 1000), off: off})
	}
	var buf bytes.Buffer
	if err := pw.WriteIndex(&buf); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "pack-x.idx")
	if err := os.WriteFile(path, buf.Bytes(), 0o444); err != nil {
		t.Fatal(err)
	}
	x, err := openPackIndex(path)
	if err != nil {
		t.Fatal(err)
	}
	defer x.close()
	if x.nLarge != 3 || x.packSum != pw.sum {
		t.Errorf("%d large offsets, pack checksum %x", x.nLarge, x.packSum)
	}
	var want strings.Builder
	for i := len(offs) - 1; i >= 0; i-- {
		e := pw.entries[i]
		pos, ok, err := x.find(e.id)
		if err != nil || !ok {
			t.Fatalf("find %s: %v %v", e.id, ok, err)
		}
		if got, err := x.offset(pos); err != nil || got != e.off {
			t.Errorf("offset of %s = %d, %v; want %d", e.id, got, err, e.off)
		}
		fmt.Fprintf(&want, "%d %s (%08x)\n", e.off, e.id, e.crc)
	}
	tr := newTestRepo(t)
	if got := tr.gitEnv(tr.dir, nil, buf.String(), "show-index"); got+"\n" != want.String() {
		t.Errorf("git show-index:\n%s\nwant:\n%s", got, want.String())
	}
}

// A writer refuses more or fewer objects than its header announced.
func TestPackWriterCountsObjects(t *testing.T) {
	blob := func(s string) (plumbing.Hash, []byte) {
		return plumbing.ComputeHash(plumbing.BlobObject, []byte(s)), []byte(s)
	}
	id, data := blob("one\n")
	pw, err := NewPackWriter(&bytes.Buffer{}, 2)
	if err != nil {
		t.Fatal(err)
	}
	if err := pw.Add(id, plumbing.BlobObject, int64(len(data)), bytes.NewReader(data)); err != nil {
		t.Fatal(err)
	}
	if _, err := pw.Finish(); err == nil {
		t.Error("Finish after 1 object of 2 did not fail")
	}
	pw, _ = NewPackWriter(&bytes.Buffer{}, 1)
	if err := pw.Add(id, plumbing.BlobObject, int64(len(data))+1, bytes.NewReader(data)); err == nil {
		t.Error("Add of fewer bytes than the size given did not fail")
	}
	pw, _ = NewPackWriter(&bytes.Buffer{}, 1)
	pw.Add(id, plumbing.BlobObject, int64(len(data)), bytes.NewReader(data))
	if err := pw.Add(id, plumbing.BlobObject, int64(len(data)), bytes.NewReader(data)); err == nil {
		t.Error("a second Add to a pack of 1 did not fail")
	}
}

// AddPack puts a pack written after the store listed its packs first
// in its list, so that reading its objects lists nothing again.
func TestAddPack(t *testing.T) {
	src := newObjectFixture(t)
	objs := src.allObjects()
	dst := newTestRepo(t)
	dst.write("f", "f\n", 0o644)
	dst.git("add", "f")
	dst.git("commit", "-q", "-m", "f")
	dst.git("gc", "-q")
	s := dst.store()
	head := plumbing.NewHash(dst.git("rev-parse", "HEAD"))
	if _, _, err := s.Read(head); err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(dst.dir, ".git", "objects")
	idx := writeTestPack(t, root, objs)
	s.AddPack(idx)
	s.AddPack(idx) // once is enough
	if n := len(s.dirs[0].packs); n != 2 || s.dirs[0].packs[0].idxPath != idx {
		t.Fatalf("%d packs listed, the first %s", n, s.dirs[0].packs[0].idxPath)
	}
	for _, o := range objs {
		if ok, err := s.Has(o.id); !ok || err != nil {
			t.Fatalf("Has(%s) = %v, %v", o.id, ok, err)
		}
	}
	checkObjects(t, dst, s)
}

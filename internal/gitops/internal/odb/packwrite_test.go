package odb

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/oid"
)

// writeTestPack packs objs into dir/pack and returns the index's path.
func writeTestPack(t *testing.T, dir string, objs []gitObject) string {
	t.Helper()
	f, err := os.CreateTemp(filepath.Join(dir, "pack"), "tmp_pack_")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	pw, err := NewPackWriter(f)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range objs {
		if err := pw.Add(o.id, o.typ, int64(len(o.data)), bytes.NewReader(o.data)); err != nil {
			t.Fatal(err)
		}
	}
	sum, err := pw.Seal(f)
	if err != nil {
		t.Fatal(err)
	}
	var idx bytes.Buffer
	if err := pw.WriteIndex(&idx); err != nil {
		t.Fatal(err)
	}
	base := filepath.Join(dir, "pack", "pack-"+sum.String())
	if err := os.Rename(f.Name(), base+".pack"); err != nil {
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
	t.Parallel()
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
	t.Parallel()
	offs := []int64{12, 1<<31 - 1, 1 << 31, 5<<32 + 7, 1 << 40}
	pw := &PackWriter{done: true}
	copy(pw.sum[:], bytes.Repeat([]byte{0xab}, 20))
	for i, off := range offs {
		// Names in descending order: the index sorts them.
		id := oid.FromHex(fmt.Sprintf("%02x%038x", 0xf0-i*0x30, i))
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

// A writer refuses an object of another size than the one given and
// an object after Seal; a pack whose file lacks bytes written is not
// sealed.
func TestPackWriterChecks(t *testing.T) {
	t.Parallel()
	id := oid.Sum(oid.Blob, []byte("one\n"))
	data := []byte("one\n")
	f, err := os.Create(filepath.Join(t.TempDir(), "tmp_pack_x"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var buf bytes.Buffer
	pw, _ := NewPackWriter(&buf)
	if err := pw.Add(id, oid.Blob, int64(len(data))+1, bytes.NewReader(data)); err == nil {
		t.Error("Add of fewer bytes than the size given did not fail")
	}
	if _, err := pw.Seal(f); err == nil {
		t.Error("Seal of a pack not in its file did not fail")
	}
	pw, _ = NewPackWriter(f)
	if err := pw.Add(id, oid.Blob, int64(len(data)), bytes.NewReader(data)); err != nil {
		t.Fatal(err)
	}
	if _, err := pw.Seal(f); err != nil {
		t.Fatal(err)
	}
	if err := pw.Add(id, oid.Blob, int64(len(data)), bytes.NewReader(data)); err == nil {
		t.Error("Add after Seal did not fail")
	}
}

// A pack being written is read at the offsets of its entries before
// it has a trailer; after Rewind and a cut of the file, the entries
// added since are gone, and the pack seals as git expects.
func TestPendingPack(t *testing.T) {
	t.Parallel()
	src := newObjectFixture(t)
	objs := src.allObjects()
	dst := newTestRepo(t)
	f, err := os.CreateTemp(filepath.Join(dst.dir, ".git", "objects", "pack"), "tmp_pack_")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	pw, err := NewPackWriter(f)
	if err != nil {
		t.Fatal(err)
	}
	rd := NewPendingReader(f)
	offs := map[oid.ID]int64{}
	for _, o := range objs {
		offs[o.id] = pw.Size()
		if err := pw.Add(o.id, o.typ, int64(len(o.data)), bytes.NewReader(o.data)); err != nil {
			t.Fatal(err)
		}
	}
	for _, o := range objs {
		typ, data, err := rd.Read(offs[o.id], pw.Size())
		if err != nil || typ != o.typ || !bytes.Equal(data, o.data) {
			t.Fatalf("Read(%s) = %s, %d bytes, %v", o.id, typ, len(data), err)
		}
	}
	count, size := pw.Count(), pw.Size()
	extra := []byte("not kept\n")
	if err := pw.Add(oid.Sum(oid.Blob, extra), oid.Blob, int64(len(extra)), bytes.NewReader(extra)); err != nil {
		t.Fatal(err)
	}
	if err := pw.Rewind(count, size); err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(size); err != nil {
		t.Fatal(err)
	}
	sum, err := pw.Seal(f)
	if err != nil {
		t.Fatal(err)
	}
	var idx bytes.Buffer
	if err := pw.WriteIndex(&idx); err != nil {
		t.Fatal(err)
	}
	base := filepath.Join(dst.dir, ".git", "objects", "pack", "pack-"+sum.String())
	if err := os.Rename(f.Name(), base+".pack"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(base+".idx", idx.Bytes(), 0o444); err != nil {
		t.Fatal(err)
	}
	out := dst.git("verify-pack", "-v", base+".idx")
	if !strings.Contains(out, fmt.Sprintf("non delta: %d objects", len(objs))) {
		t.Errorf("verify-pack:\n%s", out)
	}
	checkObjects(t, dst, dst.store())
}

// AddPack puts a pack written after the store listed its packs first
// in its list, so that reading its objects lists nothing again.
func TestAddPack(t *testing.T) {
	t.Parallel()
	src := newObjectFixture(t)
	objs := src.allObjects()
	dst := newTestRepo(t)
	dst.write("f", "f\n", 0o644)
	dst.git("add", "f")
	dst.git("commit", "-q", "-m", "f")
	dst.git("gc", "-q")
	s := dst.store()
	head := oid.FromHex(dst.git("rev-parse", "HEAD"))
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

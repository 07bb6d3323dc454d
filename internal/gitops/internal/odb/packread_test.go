package odb

import (
	"bytes"
	"compress/zlib"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/oid"
)

// TestReadObjectsCorruptPack: a pack entry whose compressed bytes or
// zlib checksum were damaged is an error, for a whole object and for
// a delta, never other content.
func TestReadObjectsCorruptPack(t *testing.T) {
	t.Parallel()
	tr := newObjectFixture(t)
	tr.git("repack", "-q", "-adf")
	idxs, _ := filepath.Glob(filepath.Join(tr.dir, ".git", "objects", "pack", "*.idx"))
	packPath := strings.TrimSuffix(idxs[0], ".idx") + ".pack"
	orig, err := os.ReadFile(packPath)
	if err != nil {
		t.Fatal(err)
	}
	// The largest whole blob and the largest delta.
	var whole, delta struct {
		id        oid.ID
		off, size int
	}
	for _, line := range strings.Split(string(tr.gitOut("verify-pack", "-v", idxs[0])), "\n") {
		f := strings.Fields(line)
		if len(f) < 5 || len(f[0]) != 40 || f[1] != "blob" {
			continue
		}
		size, _ := strconv.Atoi(f[3])
		off, _ := strconv.Atoi(f[4])
		target := &whole
		if len(f) > 5 {
			target = &delta
		}
		if size > target.size {
			target.id, target.off, target.size = oid.FromHex(f[0]), off, size
		}
	}
	if whole.size == 0 || delta.size == 0 {
		t.Fatalf("no whole blob (%d) or no delta (%d) in the pack", whole.size, delta.size)
	}
	for _, c := range []struct {
		name string
		id   oid.ID
		at   int
	}{
		{"whole/data", whole.id, whole.off + whole.size/2},
		{"whole/checksum", whole.id, whole.off + whole.size - 1},
		{"delta/data", delta.id, delta.off + delta.size/2},
		{"delta/checksum", delta.id, delta.off + delta.size - 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			data := append([]byte(nil), orig...)
			data[c.at] ^= 0x55
			if err := os.WriteFile(packPath, data, 0o644); err != nil {
				t.Fatal(err)
			}
			if _, got, err := tr.store().Read(c.id); err == nil {
				t.Errorf("read %d bytes from a damaged entry, no error", len(got))
			}
		})
	}
}

func TestApplyDelta(t *testing.T) {
	t.Parallel()
	base := []byte("0123456789")
	// base size 10, result size 7: copy 4 bytes at 2, insert "abc".
	delta := []byte{10, 7, 0x80 | 0x01 | 0x10, 2, 4, 3, 'a', 'b', 'c'}
	got, err := applyDelta(base, delta)
	if err != nil || string(got) != "2345abc" {
		t.Fatalf("applyDelta = %q, %v", got, err)
	}
	if cap(got) != 7 {
		t.Errorf("result capacity %d, want its size", cap(got))
	}
	for name, d := range map[string][]byte{
		"wrong base size":  {9, 7, 0x80 | 0x01 | 0x10, 2, 4, 3, 'a', 'b', 'c'},
		"short result":     {10, 8, 0x80 | 0x01 | 0x10, 2, 4, 3, 'a', 'b', 'c'},
		"long result":      {10, 6, 0x80 | 0x01 | 0x10, 2, 4, 3, 'a', 'b', 'c'},
		"copy past base":   {10, 4, 0x80 | 0x01 | 0x10, 8, 4},
		"truncated insert": {10, 3, 3, 'a', 'b'},
		"opcode 0":         {10, 1, 0},
		"truncated copy":   {10, 4, 0x80 | 0x01 | 0x10, 2},
	} {
		if got, err := applyDelta(base, d); err == nil {
			t.Errorf("%s: applied, %q", name, got)
		}
	}
}

// TestReadObjectsCallerOwns: what Read returns is the caller's, also
// for an object the delta base cache holds.
func TestReadObjectsCallerOwns(t *testing.T) {
	t.Parallel()
	tr := newObjectFixture(t)
	tr.git("gc", "-q", "--aggressive")
	s := tr.store()
	ids := tr.packEntries()
	first := map[oid.ID]string{}
	for range 2 {
		for id := range ids {
			_, data, err := s.Read(id)
			if err != nil {
				t.Fatal(err)
			}
			if want, ok := first[id]; ok && string(data) != want {
				t.Fatalf("%s read differently the second time", id)
			}
			first[id] = string(data)
			for i := range data {
				data[i] = '!'
			}
		}
	}
}

// TestReadLooseMalformed: a loose object whose header, length or zlib
// checksum is wrong is an error.
func TestReadLooseMalformed(t *testing.T) {
	tr := newTestRepo(t)
	objs := filepath.Join(tr.dir, ".git", "objects")
	deflate := func(s string) []byte {
		var b bytes.Buffer
		zw := zlib.NewWriter(&b)
		zw.Write([]byte(s))
		zw.Close()
		return b.Bytes()
	}
	good := deflate("blob 3\x00ab\n")
	badSum := append([]byte(nil), good...)
	badSum[len(badSum)-1] ^= 1
	for name, data := range map[string][]byte{
		"short":     deflate("blob 4\x00ab\n"),
		"long":      deflate("blob 2\x00ab\n"),
		"bad type":  deflate("blub 3\x00ab\n"),
		"delta":     deflate("ofs-delta 3\x00ab\n"),
		"no size":   deflate("blob\x00ab\n"),
		"no NUL":    deflate("blob 3 ab\n"),
		"signed":    deflate("blob +3\x00ab\n"),
		"zero-led":  deflate("blob 03\x00ab\n"),
		"huge size": deflate("blob 99999999999999\x00ab\n"),
		"checksum":  badSum,
		"long, cut": deflate("blob 3000000\x00" + strings.Repeat("ab\n", 700000)),
		"not zlib":  []byte("blob 3\x00ab\n"),
	} {
		// Named as the object it would be, so that only the damage
		// fails it.
		id := oid.Sum(oid.Blob, []byte("ab\n"))
		if err := os.MkdirAll(filepath.Dir(LoosePath(objs, id)), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(LoosePath(objs, id), data, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, got, err := tr.store().Read(id); err == nil {
			t.Errorf("%s: read %q, no error", name, got)
		}
	}
	id := oid.Sum(oid.Blob, []byte("ab\n"))
	if err := os.WriteFile(LoosePath(objs, id), good, 0o644); err != nil {
		t.Fatal(err)
	}
	if typ, got, err := tr.store().Read(id); err != nil || typ != oid.Blob || string(got) != "ab\n" || cap(got) != 3 {
		t.Errorf("the good object: %s %q (capacity %d), %v", typ, got, cap(got), err)
	}
}

// TestReadLongObjectChecksums: a content long enough to be checksummed
// on a second goroutine as it inflates (see zstream.fill) still fails
// on a damaged Adler-32, loose and packed, and reads when whole.
func TestReadLongObjectChecksums(t *testing.T) {
	tr := newTestRepo(t)
	content := strings.Repeat("0123456789abcdef\n", 200000) // 3.4 MB
	id := oid.FromHex(tr.gitEnv(tr.dir, nil, content, "hash-object", "-w", "--stdin"))
	damage := func(path string, at func(data []byte) int) {
		t.Helper()
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		os.Chmod(path, 0o644)
		data[at(data)] ^= 0x01
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, got, err := tr.store().Read(id); err != nil || string(got) != content {
		t.Fatalf("the loose object: %d bytes, %v", len(got), err)
	}
	loose := LoosePath(filepath.Join(tr.dir, ".git", "objects"), id)
	damage(loose, func(data []byte) int { return len(data) - 1 })
	if _, _, err := tr.store().Read(id); err == nil || !strings.Contains(err.Error(), "checksum") {
		t.Errorf("a loose object with a damaged checksum: %v", err)
	}
	damage(loose, func(data []byte) int { return len(data) - 1 })
	tr.gitEnv(tr.dir, nil, id.String()+"\n", "pack-objects", "-q", filepath.Join(".git", "objects", "pack", "pack"))
	os.Remove(loose)
	idxs, _ := filepath.Glob(filepath.Join(tr.dir, ".git", "objects", "pack", "*.idx"))
	if len(idxs) != 1 {
		t.Fatalf("packs: %v", idxs)
	}
	if _, got, err := tr.store().Read(id); err != nil || string(got) != content {
		t.Fatalf("the packed object: %d bytes, %v", len(got), err)
	}
	var off, size int
	for _, line := range strings.Split(tr.git("verify-pack", "-v", idxs[0]), "\n") {
		if f := strings.Fields(line); len(f) >= 5 && f[0] == id.String() {
			size, _ = strconv.Atoi(f[3])
			off, _ = strconv.Atoi(f[4])
		}
	}
	if size == 0 {
		t.Fatal("the blob is not in the pack")
	}
	damage(strings.TrimSuffix(idxs[0], ".idx")+".pack", func([]byte) int { return off + size - 1 })
	if _, _, err := tr.store().Read(id); err == nil || !strings.Contains(err.Error(), "checksum") {
		t.Errorf("a packed object with a damaged checksum: %v", err)
	}
}

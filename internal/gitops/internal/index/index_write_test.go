package index

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/oid"
	"github.com/google/go-cmp/cmp"
)

// TestWriteReadRaw: entries written come back as they were, sorted,
// in version 2 unless one has extended flags, and a damaged file is
// refused unless its checksum is zeros (index.skipHash).
func TestWriteReadRaw(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "index")
	fi, err := os.Lstat(dir)
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("x", 0x1000) // a name too long for the flags
	ents := []Raw{
		NewRaw("b/c.txt", 0o100644, oid.FromHex("1111111111111111111111111111111111111111"), fi),
		NewRaw("a", 0o120000, oid.FromHex("2222222222222222222222222222222222222222"), fi),
		NewRaw(long, 0o100755, oid.FromHex("3333333333333333333333333333333333333333"), fi),
	}
	ents[0].Stage = 2
	for _, xflags := range []uint16{0, 0x4000} {
		ents[1].XFlags = xflags
		if err := Write(path, ents); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if v, want := data[7], map[uint16]byte{0: 2, 0x4000: 3}[xflags]; v != want {
			t.Errorf("version %d, want %d", v, want)
		}
		got, err := ReadRaw(path)
		if err != nil {
			t.Fatal(err)
		}
		want := []Raw{ents[1], ents[0], ents[2]}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("ReadRaw (-want +got):\n%s", d)
		}
		if _, err := os.Stat(path + ".lock"); err == nil {
			t.Errorf("lock file left")
		}
	}
	data, _ := os.ReadFile(path)
	data[20] ^= 1
	os.WriteFile(path, data, 0o644)
	if _, err := ReadRaw(path); err == nil {
		t.Errorf("a damaged index was read")
	}
	copy(data[len(data)-checksumSize:], make([]byte, checksumSize))
	os.WriteFile(path, data, 0o644)
	if _, err := ReadRaw(path); err != nil {
		t.Errorf("an index with index.skipHash's zero checksum: %v", err)
	}
	if err := os.WriteFile(path+".lock", nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Write(path, ents); err == nil {
		t.Errorf("Write went ahead with the index locked")
	}
}

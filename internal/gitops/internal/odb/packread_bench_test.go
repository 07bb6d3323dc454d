package odb

import (
	"fmt"
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/oid"
)

// BenchmarkReadLargeBlob reads a blob of 1.4 MB from a pack, stored
// whole ("whole") or as a delta of the version before ("delta"), and
// loose ("loose").
func BenchmarkReadLargeBlob(b *testing.B) {
	tr := newTestRepo(b)
	var text strings.Builder
	for i := 0; text.Len() < 1400_000; i++ {
		fmt.Fprintf(&text, "line %d of a large file, with some text to compress %x\n", i, i*7919)
	}
	tr.write("big.txt", text.String(), 0o644)
	tr.git("add", "-A")
	tr.git("commit", "-q", "-m", "one")
	whole := oid.FromHex(tr.git("rev-parse", "HEAD:big.txt"))
	tr.write("big.txt", "changed\n"+text.String()+"tail\n", 0o644)
	tr.git("add", "-A")
	tr.git("commit", "-q", "-m", "two")
	loose := oid.FromHex(tr.git("rev-parse", "HEAD:big.txt"))
	root := tr.store().Root()
	b.Run("loose", func(b *testing.B) { benchRead(b, root, loose) })
	tr.git("repack", "-q", "-adf")
	// git stores the newer version whole and the older as its delta.
	b.Run("whole", func(b *testing.B) { benchRead(b, root, loose) })
	b.Run("delta", func(b *testing.B) { benchRead(b, root, whole) })
}

// benchRead reads id with a fresh store each time, as a run reads a
// file once: nothing is cached.
func benchRead(b *testing.B, root string, id oid.ID) {
	b.ReportAllocs()
	for b.Loop() {
		s := New(root)
		if _, _, err := s.Read(id); err != nil {
			b.Fatal(err)
		}
		s.Close()
	}
}

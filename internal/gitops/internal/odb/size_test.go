package odb

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/oid"
)

// TestLooseSizeHeaderLate: Size finds a loose object's header in the
// stream's first looseHeadBytes, and in the whole stream when it stands
// later (empty stored blocks first, which zlib's flush writes and git
// reads); a malformed header is refused either way.
func TestLooseSizeHeaderLate(t *testing.T) {
	dir := t.TempDir()
	content := strings.Repeat("\tv := compute(1) // step\n", 2000)
	write := func(header string, flushes int) oid.ID {
		var z bytes.Buffer
		w := zlib.NewWriter(&z)
		for range flushes {
			w.Flush() // an empty stored block: five bytes, no content
		}
		fmt.Fprint(w, header)
		w.Write([]byte(content))
		w.Close()
		id := oid.ID{byte(flushes), byte(len(header))}
		p := LoosePath(dir, id)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, z.Bytes(), 0o444); err != nil {
			t.Fatal(err)
		}
		return id
	}
	head := fmt.Sprintf("blob %d\x00", len(content))
	// After zlib's two bytes, each flush is five: the last count puts
	// the header past looseHeadBytes.
	for _, flushes := range []int{0, 1, looseHeadBytes/5 + 10} {
		id := write(head, flushes)
		if size, err := looseSize(dir, id); err != nil || size != int64(len(content)) {
			t.Errorf("%d empty blocks first: size %d, %v; want %d", flushes, size, err, len(content))
		}
		bad := write("blob 0012\x00", flushes)
		if _, err := looseSize(dir, bad); err == nil || !strings.Contains(err.Error(), "malformed header") {
			t.Errorf("%d empty blocks first, a size with a leading zero: %v", flushes, err)
		}
	}
}

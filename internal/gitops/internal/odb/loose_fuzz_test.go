package odb

import (
	"bytes"
	"compress/zlib"
	"context"
	"crypto/sha1"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/oid"
)

// FuzzReadLoose holds the loose-object reader (our zlib framing and
// checksum over klauspost's inflater, see zstream) to compress/zlib: a
// file named by the hash of what compress/zlib inflates it to reads
// back as that content exactly when the content is "<type> <size>\0"
// and size bytes and nothing follows the stream, and every other file
// fails.
func FuzzReadLoose(f *testing.F) {
	deflate := func(s string) []byte {
		var b bytes.Buffer
		zw := zlib.NewWriter(&b)
		zw.Write([]byte(s))
		zw.Close()
		return b.Bytes()
	}
	f.Add(deflate("blob 3\x00ab\n"))
	f.Add(deflate("tree 0\x00"))
	f.Add(deflate("blob 4\x00ab\n"))
	f.Add(deflate("commit 2\x00ab\n"))
	long := strings.Repeat("0123456789abcdef\n", 70000)
	f.Add(deflate("blob " + strconv.Itoa(len(long)) + "\x00" + long))
	f.Add([]byte("x\x9c"))
	f.Add(append(deflate("blob 3\x00ab\n"), 0))
	f.Fuzz(func(t *testing.T, raw []byte) {
		br := bytes.NewReader(raw)
		zr, err := zlib.NewReader(br)
		var want []byte
		if err == nil {
			want, err = io.ReadAll(io.LimitReader(zr, 8<<20))
		}
		// compress/zlib leaves what follows the stream unread; git
		// refuses a loose object with bytes there, and so do we.
		stdOK := err == nil && br.Len() == 0
		id := oid.FromHex("0123456789012345678901234567890123456789")
		if stdOK {
			id = oid.ID(sha1.Sum(want))
		}
		dir := t.TempDir()
		p := LoosePath(dir, id)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, raw, 0o644); err != nil {
			t.Fatal(err)
		}
		typ, got, err := readLoose(context.Background(), dir, id)
		wellFormed := false
		var content []byte
		if stdOK {
			head, rest, ok := bytes.Cut(want, []byte{0})
			name, size, _ := strings.Cut(string(head), " ")
			n, serr := strconv.Atoi(size)
			t, terr := oid.ParseType(name)
			wellFormed = ok && serr == nil && terr == nil && t.Valid() && t != oid.OFSDelta && t != oid.REFDelta &&
				n == len(rest) && fmt.Sprint(n) == size
			content = rest
		}
		switch {
		case wellFormed && err != nil:
			t.Fatalf("compress/zlib reads %q, we fail: %v", want, err)
		case !wellFormed && err == nil:
			t.Fatalf("compress/zlib: %v (well formed %v), we read %s %q", stdOK, wellFormed, typ, got)
		case err == nil && !bytes.Equal(got, content):
			t.Fatalf("we read %q, compress/zlib %q", got, content)
		}
	})
}

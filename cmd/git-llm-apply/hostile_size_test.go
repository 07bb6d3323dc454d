package main

import (
	"bytes"
	"compress/zlib"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// writeZeroBlob writes a blob of size zero bytes as a loose object of
// the repository, compressed in-process (zeros compress a
// thousandfold), and returns its id.
func writeZeroBlob(t *testing.T, dir string, size int64) string {
	t.Helper()
	var z bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&z, zlib.BestCompression)
	h := sha1.New()
	head := fmt.Sprintf("blob %d\x00", size)
	zw.Write([]byte(head))
	h.Write([]byte(head))
	zeros := make([]byte, 1<<20)
	for n := int64(0); n < size; n += int64(len(zeros)) {
		b := zeros[:min(int64(len(zeros)), size-n)]
		zw.Write(b)
		h.Write(b)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	id := hex.EncodeToString(h.Sum(nil))
	p := filepath.Join(dir, ".git", "objects", id[:2], id[2:])
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, z.Bytes(), 0o444); err != nil {
		t.Fatal(err)
	}
	return id
}

// TestOverLimitRefusedFromTheHeader: a file over --max-file-size is
// refused from its object's header, before its body is inflated (SPEC
// section 5): a 256 MiB blob stored as a small loose object, staged
// with no checked-out copy, loose or packed. The child process must say
// the file is over the limit having begun no inflating of it (the poll
// hook, package poll) and with a peak memory far below the blob's.
func TestOverLimitRefusedFromTheHeader(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 256 MiB blob")
	}
	t.Parallel()
	const size = 256 << 20
	r := newRepo(t, map[string]string{"small.txt": "small\n"})
	id := writeZeroBlob(t, r.dir, size)
	r.git("update-index", "--add", "--cacheinfo", "100644,"+id+",big.bin")
	reply := r.reply("r.md", "Edit the big file.\n\n"+block("big.bin", "x\n", "y\n"))
	for _, packed := range []bool{false, true} {
		if packed {
			// The staged blob goes into the pack with the rest
			// (repack packs what the index names), its loose copy away.
			r.git("repack", "-adq")
			if _, err := os.Stat(filepath.Join(r.dir, ".git", "objects", id[:2], id[2:])); err == nil {
				t.Fatal("the blob is still loose after repack")
			}
		}
		hook := filepath.Join(t.TempDir(), "poll")
		cmd := exec.Command(binary(), "check", reply)
		cmd.Dir = r.dir
		cmd.Env = append(os.Environ(), "GIT_LLM_APPLY_TEST_POLL="+hook)
		res := r.collect(cmd)
		want := "big.bin is 256 MiB, more than --max-file-size (64 MiB)"
		if res.code != exitFailed || !strings.Contains(res.stderr, want) {
			t.Errorf("packed %v: exit %d, want %d saying %q\n%s", packed, res.code, exitFailed, want, res.stderr)
		}
		if begun, _, _ := pollReport(t, hook); len(begun) > 0 {
			t.Errorf("packed %v: the refused file was worked on: %q", packed, begun)
		}
		kib := peakRSSKiB(cmd.ProcessState)
		t.Logf("packed %v: peak memory %d KiB", packed, kib)
		if kib > 96<<10 {
			t.Errorf("packed %v: peak memory %d MiB to refuse a 256 MiB file", packed, kib>>10)
		}
	}
}

// TestCheckedOutCopyOfAnotherSize: the index keeps a file's size on 32
// bits; a checked-out copy sparse-extended by exactly 4 GiB has the
// staged size there, but not the blob's whole size (from its object
// header), and is never read for the staged file (SPEC section 5): the
// blob is, and the edit resolves on it.
func TestCheckedOutCopyOfAnotherSize(t *testing.T) {
	t.Parallel()
	var content strings.Builder
	for i := 0; content.Len() < 100<<10; i++ {
		fmt.Fprintf(&content, "line %d\n", i)
	}
	r := newRepo(t, map[string]string{"f.txt": content.String()})
	full := filepath.Join(r.dir, "f.txt")
	if err := os.Truncate(full, int64(content.Len())+4<<30); err != nil {
		t.Skip("no sparse file of 4 GiB here:", err)
	}
	hook := filepath.Join(t.TempDir(), "poll")
	reply := r.reply("r.md", "Edit.\n\n"+block("f.txt", "line 7\n", "line seven\n"))
	cmd := exec.Command(binary(), "check", reply)
	cmd.Dir = r.dir
	cmd.Env = append(os.Environ(), "GIT_LLM_APPLY_TEST_POLL="+hook)
	res := r.collect(cmd)
	if res.code != exitOK {
		t.Errorf("exit %d, want 0\n%s", res.code, res.stderr)
	}
	if begun, _, _ := pollReport(t, hook); len(begun) > 0 {
		t.Errorf("the 4 GiB copy was read: %q", begun)
	}
	if kib := peakRSSKiB(cmd.ProcessState); kib > 96<<10 {
		t.Errorf("peak memory %d MiB for a 100 KiB blob", kib>>10)
	}
}

// TestWorktreeOverLimitRefusedUnread: under --base worktree a file over
// --max-file-size is refused from its size on disk, unread, where no
// conversion changes its length (SPEC section 5); where a CRLF
// conversion shortens it, its cleaned length is what is held to the
// limit, so a file longer than the limit on disk only by its CRs is
// edited. Against the index, the working tree's copy over the limit is
// not read for advice either.
func TestWorktreeOverLimitRefusedUnread(t *testing.T) {
	t.Parallel()
	crlf := strings.Repeat("a\r\n", 499) + "last\r\n" // 1,503 bytes; 1,003 once cleaned
	lf := strings.Repeat("a\n", 749) + "last\n"       // 1,503 bytes
	r := newRepo(t, map[string]string{"small.txt": "small\n", "crlf.txt": crlf, "lf.txt": lf, ".gitattributes": "crlf.txt text\n"})
	// A sparse file of 256 MiB: reading it would take its size in
	// memory; no byte of it is on the disk.
	big := filepath.Join(r.dir, "big.txt")
	if err := os.WriteFile(big, []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r.git("add", "big.txt")
	if err := os.Truncate(big, 256<<20); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, base, file, limit string
		code                    int
		says                    string
	}{
		{"over the default limit on disk", "worktree", "big.txt", "", exitFailed, "big.txt is 256 MiB, more than --max-file-size (64 MiB)"},
		{"over the limit, no conversion", "worktree", "lf.txt", "1100", exitFailed, "lf.txt is 1.5 KiB, more than --max-file-size (1.1 KiB)"},
		{"over the limit by its CRs only", "worktree", "crlf.txt", "1100", exitOK, ""},
		{"the index's file, the working tree's over the limit", "index", "big.txt", "", exitFailed, "does not match"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			reply := r.reply(c.file+".md", "Edit it.\n\n"+block(c.file, "last\n", "first\n"))
			args := []string{"check", "--base", c.base}
			if c.limit != "" {
				args = append(args, "--max-file-size", c.limit)
			}
			hook := filepath.Join(t.TempDir(), "poll")
			cmd := exec.Command(binary(), append(args, reply)...)
			cmd.Dir = r.dir
			cmd.Env = append(os.Environ(), "GIT_LLM_APPLY_TEST_POLL="+hook)
			res := r.collect(cmd)
			if res.code != c.code || !strings.Contains(res.stderr, c.says) {
				t.Fatalf("exit %d, want %d saying %q\n%s%s", res.code, c.code, c.says, res.stdout, res.stderr)
			}
			if begun, _, _ := pollReport(t, hook); len(begun) > 0 {
				t.Errorf("the file was read: %q", begun)
			}
			if kib := peakRSSKiB(cmd.ProcessState); kib > 96<<10 {
				t.Errorf("peak memory %d MiB", kib>>10)
			}
		})
	}
}

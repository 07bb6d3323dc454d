package gitops

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/git-llm-apply/git-llm-apply/internal/engine"
)

// bigText is a file of size bytes or a little more, every line
// numbered, over the size from which the working tree is read.
func bigText(size int, tag string) string {
	var b strings.Builder
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "%s line %06d of the file\n", tag, i)
	}
	return b.String()
}

// TestReadCheckedOut: the index source reads a staged file's working
// tree copy when, and only when, it is the staged blob byte for byte.
// Each case stages big.txt, then does something to the working tree
// or the object store, and Read must return the staged content, or
// fail where only the object store could have given it and cannot.
func TestReadCheckedOut(t *testing.T) {
	t.Parallel()
	staged := bigText(3*minCheckedOut, "staged")
	other := strings.Replace(staged, "staged line 000007", "OTHERS line 000007", 1) // the same size
	small := bigText(minCheckedOut/4, "small")
	long := bigText(3<<20/2, "long") // read in two halves
	longOther := strings.Replace(long, "long line 040000", "LONG LINE 040000", 1)
	tests := []struct {
		name     string
		content  string // staged as big.txt
		worktree func(tr *testRepo, full string)
		noObject bool // the blob is removed from the object store
		fails    bool // Read must fail: only the store had the content
	}{
		{name: "checked out, blob gone", content: staged, noObject: true},
		{name: "checked out, executable, blob gone", content: staged, noObject: true, worktree: func(tr *testRepo, full string) {
			tr.git("update-index", "--chmod=+x", "big.txt")
		}},
		{name: "changed, same size", content: staged, worktree: func(tr *testRepo, full string) {
			writeKeepTimes(t, full, other)
		}},
		{name: "changed, same size, blob gone", content: staged, noObject: true, fails: true, worktree: func(tr *testRepo, full string) {
			writeKeepTimes(t, full, other)
		}},
		{name: "longer", content: staged, worktree: func(tr *testRepo, full string) {
			writeKeepTimes(t, full, staged+"more\n")
		}},
		{name: "removed", content: staged, worktree: func(tr *testRepo, full string) {
			os.Remove(full)
		}},
		{name: "a symbolic link to the same content", content: staged, worktree: func(tr *testRepo, full string) {
			os.WriteFile(full+".copy", []byte(staged), 0o644)
			os.Remove(full)
			os.Symlink(filepath.Base(full)+".copy", full)
		}},
		{name: "small, blob gone", content: small, noObject: true, fails: true},
		{name: "long, checked out, blob gone", content: long, noObject: true},
		{name: "long, changed in its second half", content: long, worktree: func(tr *testRepo, full string) {
			writeKeepTimes(t, full, longOther)
		}},
		{name: "long, changed in its second half, blob gone", content: long, noObject: true, fails: true, worktree: func(tr *testRepo, full string) {
			writeKeepTimes(t, full, longOther)
		}},
	}
	if runtime.GOOS != "windows" {
		tests = append(tests, struct {
			name     string
			content  string
			worktree func(tr *testRepo, full string)
			noObject bool
			fails    bool
		}{name: "a FIFO", content: staged, worktree: func(tr *testRepo, full string) {
			os.Remove(full)
			if err := mkfifo(full); err != nil {
				t.Fatal(err)
			}
		}})
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr := newTestRepo(t)
			tr.write("big.txt", tc.content, 0o644)
			tr.git("add", "big.txt")
			id := tr.git("rev-parse", ":big.txt")
			full := filepath.Join(tr.dir, "big.txt")
			if tc.worktree != nil {
				tc.worktree(tr, full)
			}
			if tc.noObject {
				if err := os.Remove(filepath.Join(tr.dir, ".git", "objects", id[:2], id[2:])); err != nil {
					t.Fatal(err)
				}
			}
			src, err := tr.open(tr.dir).IndexSource()
			if err != nil {
				t.Fatal(err)
			}
			done := make(chan struct{})
			var got []byte
			go func() {
				defer close(done)
				got, err = src.Read("big.txt")
			}()
			select {
			case <-done:
			case <-time.After(30 * time.Second):
				t.Fatal("Read did not return")
			}
			// Read ahead: the content handed out is the staged one
			// unless its check fails.
			if data, check, aerr := src.(engine.AheadReader).ReadAhead(context.Background(), "big.txt"); aerr == nil {
				if (check == nil || check()) && !bytes.Equal(data, []byte(tc.content)) {
					t.Fatalf("ReadAhead handed out %d bytes that are not the staged content, and its check passed", len(data))
				}
			} else if !tc.fails {
				t.Fatalf("ReadAhead: %v", aerr)
			}
			switch {
			case tc.fails && err == nil:
				t.Fatalf("Read returned %d bytes, want an error (the blob is gone and the working tree's copy is not it)", len(got))
			case !tc.fails && err != nil:
				t.Fatalf("Read: %v", err)
			case !tc.fails && !bytes.Equal(got, []byte(tc.content)):
				t.Fatalf("Read returned %d bytes that are not the staged content", len(got))
			}
		})
	}
}

// writeKeepTimes replaces a file's content and gives it back its times,
// as an edit within the stat data's precision would leave them.
func writeKeepTimes(t *testing.T, path, content string) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
}

// TestReadCheckedOutWholeSize: the index keeps the low 32 bits of a
// file's size; a copy sparse-extended by exactly 4 GiB has them, but
// not the blob's size from its object header, and is not taken (SPEC
// section 5). The context has ended: a copy taken would start its read
// and return the context's error, one passed over returns none.
func TestReadCheckedOutWholeSize(t *testing.T) {
	tr := newTestRepo(t)
	staged := bigText(3*minCheckedOut, "staged")
	tr.write("big.txt", staged, 0o644)
	tr.git("add", "big.txt")
	full := filepath.Join(tr.dir, "big.txt")
	if err := os.Truncate(full, int64(len(staged))+4<<30); err != nil {
		t.Skip("no sparse file of 4 GiB here:", err)
	}
	r := tr.open(tr.dir)
	idx, err := r.loadIndex()
	if err != nil {
		t.Fatal(err)
	}
	e, ok := idx.Lookup("big.txt")
	if !ok || int64(e.Size) != int64(len(staged)) {
		t.Fatalf("index entry %+v, %v", e, ok)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, ok, err := r.readCheckedOut(ctx, "big.txt", e); ok || err != nil {
		t.Errorf("readCheckedOut took the copy 4 GiB longer than the blob (ok %v, %v)", ok, err)
	}
}

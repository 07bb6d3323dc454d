package gitops

// A staged file read from the working tree instead of the object
// store, when the file there is the staged content byte for byte.

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"sync"
	"syscall"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/oid"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/index"
)

// minCheckedOut is the size from which the working tree's copy of a
// staged file is tried first: below it, inflating the blob costs about
// what opening, reading and hashing the file does.
const minCheckedOut = 64 << 10

// readCheckedOut returns the working tree's copy of the staged file
// path when it may be exactly blob e.ID: a regular file of the size the
// index saw it at last. check says whether it is: whether its content
// hashes (collision-detecting SHA-1, as the blob's name) to e.ID; the
// hash is computed on another goroutine, and check waits for it. Git's
// diff reuses working-tree files in the same way (reuse_worktree_file),
// trusting the stat data where this checks the content: so a file
// changed since it was staged, one a filter (CRLF, a clean filter)
// makes different from its blob, or one replaced meanwhile is simply
// not used. Reading and hashing a file costs less than inflating its
// blob: 2.3 MB took 4 ms against 7 in a fresh process, and the hashing
// goes on while the content is used (see ReadAhead). ok is false
// when there is no such copy; the caller then reads the blob.
func (r *Repo) readCheckedOut(path string, e index.Entry) (data []byte, check func() bool, ok bool) {
	if r.root == "" || !e.Mode.Editable() || e.Size < minCheckedOut {
		return nil, nil, false
	}
	full := filepath.Join(r.root, filepath.FromSlash(path))
	fi, err := os.Lstat(full)
	if err != nil || !fi.Mode().IsRegular() || uint32(fi.Size()) != e.Size {
		return nil, nil, false
	}
	// Not waiting: should a FIFO take the file's place before it is
	// opened, opening must not wait for a writer.
	f, err := os.OpenFile(full, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, false
	}
	defer f.Close()
	if fi, err = f.Stat(); err != nil || !fi.Mode().IsRegular() || uint32(fi.Size()) != e.Size {
		return nil, nil, false
	}
	data = make([]byte, fi.Size())
	if err := readHalves(f, data); err != nil {
		return nil, nil, false
	}
	h := oid.NewHasher(oid.Blob, fi.Size())
	done := make(chan struct{})
	go func() {
		defer close(done)
		// A megabyte a call: a hash of many megabytes in one call
		// cannot be preempted (see engine's copyInSteps).
		for b := data; len(b) > 0; {
			n := min(len(b), 1<<20)
			h.Write(b[:n])
			b = b[n:]
		}
	}()
	return data, sync.OnceValue(func() bool {
		<-done
		return h.Sum() == e.ID
	}), true
}

// readHalves reads len(data) bytes of f from its start into data; a
// long file in two halves side by side, each goroutine taking the page
// faults of its half of the fresh buffer (2.3 MB: 0.8 ms against 1.2).
func readHalves(f *os.File, data []byte) error {
	if len(data) < 1<<20 {
		_, err := io.ReadFull(f, data)
		return err
	}
	half := len(data) / 2
	var first error
	var wg sync.WaitGroup
	wg.Go(func() { _, first = f.ReadAt(data[:half], 0) })
	_, err := f.ReadAt(data[half:], int64(half))
	wg.Wait()
	return errors.Join(first, err)
}

package gitops

// A staged file read from the working tree instead of the object
// store, when the file there is the staged content byte for byte.

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/git-llm-apply/git-llm-apply/internal/engine"
	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/fsread"
	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/index"
	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/oid"
	"github.com/git-llm-apply/git-llm-apply/internal/poll"
	"github.com/git-llm-apply/git-llm-apply/internal/prefault"
)

// minCheckedOut is the size from which the working tree's copy of a
// staged file is tried first: below it, inflating the blob costs about
// what opening, reading and hashing the file does.
const minCheckedOut = 64 << 10

// readCheckedOut returns the working tree's copy of the staged file
// path when it may be exactly blob e.ID: a regular file of the size the
// index saw it at last and of the blob's size. check says whether it is: whether its content
// hashes (collision-detecting SHA-1, as the blob's name) to e.ID; the
// hash is computed on another goroutine, and check waits for it. Git's
// diff reuses working-tree files in the same way (reuse_worktree_file),
// trusting the stat data where this checks the content: so a file
// changed since it was staged, one a filter (CRLF, a clean filter)
// makes different from its blob, or one replaced meanwhile is simply
// not used. Reading and hashing a file costs less than inflating its
// blob: 2.3 MB took 4 ms against 7 in a fresh process, and the hashing
// goes on while the content is used (see ReadAhead). ok is false
// when there is no such copy; the caller then reads the blob. Reading
// and hashing look at ctx every poll.Step bytes (SPEC section 2): err
// is its error when it ended during the read, and a hash it stops is
// no match.
func (r *Repo) readCheckedOut(ctx context.Context, path string, e index.Entry) (data []byte, check func() bool, ok bool, err error) {
	if r.root == "" || !e.Mode.Editable() || e.Size < minCheckedOut {
		return nil, nil, false, nil
	}
	full := filepath.Join(r.root, filepath.FromSlash(path))
	fi, err := os.Lstat(full)
	if err != nil || !fi.Mode().IsRegular() || uint32(fi.Size()) != e.Size {
		return nil, nil, false, nil
	}
	// The index keeps the low 32 bits of the size: the copy must have
	// the blob's whole size, read from its object header (a copy grown
	// by a multiple of 4 GiB is never read; SPEC section 5). Where the
	// store cannot say, the index's size is taken as whole.
	size, known, err := r.blobSize(engine.Entry{Mode: e.Mode, ID: e.ID.String()})
	if err != nil {
		return nil, nil, false, nil // reading the blob says what is wrong
	}
	if !known {
		size = int64(e.Size)
	}
	if fi.Size() != size {
		return nil, nil, false, nil
	}
	// Not waiting: should a FIFO take the file's place before it is
	// opened, opening must not wait for a writer.
	f, fi, err := fsread.Open(full)
	if err != nil {
		return nil, nil, false, nil
	}
	defer f.Close()
	if fi.Size() != size {
		return nil, nil, false, nil
	}
	data = make([]byte, fi.Size())
	poll.Begin("read", len(data))
	if err := readHalves(ctx, f, data); err != nil {
		if ctx.Err() != nil {
			return nil, nil, false, ctx.Err()
		}
		return nil, nil, false, nil
	}
	h := oid.NewHasher(oid.Blob, fi.Size())
	done := make(chan bool, 1)
	go func() {
		// A megabyte a call: a hash of many megabytes in one call
		// cannot be preempted (see engine's copyInSteps).
		for b, at := data, 0; len(b) > 0; at++ {
			n := min(len(b), 1<<20)
			if at%(poll.Step>>20) == 0 && poll.Check(ctx, min(len(b), poll.Step)) != nil {
				done <- false
				return
			}
			h.Write(b[:n])
			b = b[n:]
		}
		done <- true
	}()
	return data, sync.OnceValue(func() bool {
		return <-done && h.Sum() == e.ID
	}), true, nil
}

// readHalves reads len(data) bytes of f from its start into data; a
// long file in two halves side by side, each goroutine taking the page
// faults of its half of the fresh buffer (2.3 MB: 0.8 ms against 1.2).
// Each half is read poll.Step bytes at a time, looking at ctx before
// each.
func readHalves(ctx context.Context, f *os.File, data []byte) error {
	if len(data) < 1<<20 {
		_, err := io.ReadFull(f, data)
		return err
	}
	half := len(data) / 2
	var first error
	var wg sync.WaitGroup
	wg.Go(func() { first = readSteps(ctx, f, data[:half], 0) })
	err := readSteps(ctx, f, data[half:], int64(half))
	wg.Wait()
	return errors.Join(first, err)
}

// readSteps fills data from f at off, a step at a time.
func readSteps(ctx context.Context, f *os.File, data []byte, off int64) error {
	prefault.Touch(data) // each half its own, side by side
	for at := 0; at < len(data); at += poll.Step {
		b := data[at:min(at+poll.Step, len(data))]
		if err := poll.Check(ctx, len(b)); err != nil {
			return err
		}
		if _, err := f.ReadAt(b, off+int64(at)); err != nil {
			return err
		}
	}
	return nil
}

// readFileContext reads the file at name as os.ReadFile does, a step
// at a time, looking at ctx before each (SPEC section 2). What is no
// regular file is refused without waiting (fsread, SPEC section 5).
func readFileContext(ctx context.Context, name string) ([]byte, error) {
	f, fi, err := fsread.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi.Size() <= poll.Step {
		return io.ReadAll(f)
	}
	data := make([]byte, fi.Size())
	poll.Begin("read", len(data))
	if err := readSteps(ctx, f, data, 0); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, err
	}
	// A file grown since: the rest, as os.ReadFile would read it.
	rest, err := io.ReadAll(io.NewSectionReader(f, fi.Size(), 1<<62))
	return append(data, rest...), err
}

package gitops

// Reading objects: through the object store of gitops/internal/odb
// (pack indexes read in place, as git reads them).

import (
	"context"
	"errors"
	"path/filepath"
	"runtime"
	"slices"
	"sync"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/oid"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/odb"
)

// objects returns the object store of r, made on first use. The packs
// it opens stay open while r lives: Repo has no Close, and an open pack
// is what makes the next read cheap.
func (r *Repo) objects() *odb.Store {
	r.objsOnce.Do(func() {
		s := odb.New(filepath.Join(r.commonDir, "objects"))
		runtime.AddCleanup(r, func(s *odb.Store) { s.Close() }, s)
		r.objs = s
	})
	return r.objs
}

// readRaw returns the type and content of object id: from a pack or a
// loose object of the repository or its alternates, else from a pack a
// BranchWriter of r is writing. An object a
// partial clone left out is ErrMissingObject (see missingPromised),
// any other missing one odb.ErrNotFound. The content is the
// caller's.
func (r *Repo) readRaw(id oid.ID) (oid.Type, []byte, error) {
	return r.readRawContext(context.Background(), id)
}

// readRawContext is readRaw that stops when ctx ends (SPEC section 2).
func (r *Repo) readRawContext(ctx context.Context, id oid.ID) (oid.Type, []byte, error) {
	t, data, err := r.objects().ReadContext(ctx, id)
	if !errors.Is(err, odb.ErrNotFound) {
		return t, data, err
	}
	for _, p := range r.running.list() {
		if t, data, ok, err := p.read(id); ok {
			return t, data, err
		}
	}
	if r.isPartialClone() {
		return oid.Invalid, nil, r.missingPromised(id)
	}
	return oid.Invalid, nil, odb.ErrNotFound
}

// readCommit reads and decodes commit id. A non-commit is
// odb.ErrNotFound, as go-git's Repository.CommitObject had
// it.
func (r *Repo) readCommit(id oid.ID) (*commit, error) {
	t, data, err := r.readRaw(id)
	if err != nil {
		return nil, err
	}
	if t != oid.Commit {
		return nil, odb.ErrNotFound
	}
	return parseCommit(id, data)
}

// hasObject reports whether object id exists, looking no further than
// pack indexes, the stat of a loose file and the packs being written: a writer asks about new
// objects, which are absent, and a wrong no costs only a duplicate
// copy of an object.
func (r *Repo) hasObject(id oid.ID) (bool, error) {
	if has, err := r.objects().Has(id); has || err != nil {
		return has, err
	}
	for _, p := range r.running.list() {
		if p.has(id) {
			return true, nil
		}
	}
	return false, nil
}

// runningPacks are the packs the BranchWriters of a Repo are writing,
// and the objects they hold to write loose: their objects are read
// before they have their names. The list is copied on change, so that
// a reader may go through the one it got.
type runningPacks struct {
	mu    sync.Mutex
	packs []runObjects
}

// runObjects are objects of a run not yet in the store: a runPack or
// heldObjects.
type runObjects interface {
	has(id oid.ID) bool
	read(id oid.ID) (t oid.Type, data []byte, ok bool, err error)
}

func (rp *runningPacks) add(p runObjects) {
	rp.mu.Lock()
	defer rp.mu.Unlock()
	rp.packs = append(slices.Clip(rp.packs), p)
}

func (rp *runningPacks) drop(p runObjects) {
	rp.mu.Lock()
	defer rp.mu.Unlock()
	rp.packs = slices.DeleteFunc(slices.Clone(rp.packs), func(q runObjects) bool { return q == p })
}

func (rp *runningPacks) list() []runObjects {
	rp.mu.Lock()
	defer rp.mu.Unlock()
	return rp.packs
}

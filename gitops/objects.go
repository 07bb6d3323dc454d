package gitops

// Reading objects: through the object store of gitops/internal/odb
// (pack indexes read in place, as git reads them), and through
// go-git's storage only for what the store does not find.

import (
	"errors"
	"path/filepath"
	"runtime"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/git-llm-apply/git-llm-apply/gitops/internal/odb"
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
// loose object of the repository or its alternates, else through
// go-git's storage (which reads all pack indexes: only for what the
// fast path misses, in practice a missing object). An object a partial
// clone left out is ErrMissingObject (see missingPromised). The
// content is the caller's.
func (r *Repo) readRaw(id plumbing.Hash) (plumbing.ObjectType, []byte, error) {
	t, data, err := r.objects().Read(id)
	if !errors.Is(err, odb.ErrNotFound) {
		return t, data, err
	}
	o, err := r.repo.Storer.EncodedObject(plumbing.AnyObject, id)
	if errors.Is(err, plumbing.ErrObjectNotFound) && r.isPartialClone() {
		return plumbing.InvalidObject, nil, r.missingPromised(id)
	}
	if err != nil {
		return plumbing.InvalidObject, nil, err
	}
	rd, err := o.Reader()
	if err != nil {
		return plumbing.InvalidObject, nil, err
	}
	defer rd.Close()
	data, err = odb.ReadSized(rd, o.Size())
	return o.Type(), data, err
}

// readEncoded is readRaw as a go-git object, for go-git's commit and
// tag decoders.
func (r *Repo) readEncoded(id plumbing.Hash) (plumbing.EncodedObject, error) {
	t, data, err := r.readRaw(id)
	if err != nil {
		return nil, err
	}
	o := &plumbing.MemoryObject{}
	o.SetType(t)
	if _, err := o.Write(data); err != nil {
		return nil, err
	}
	return o, nil
}

// readCommit reads and decodes commit id. A non-commit is
// plumbing.ErrObjectNotFound, as go-git's Repository.CommitObject has
// it.
func (r *Repo) readCommit(id plumbing.Hash) (*object.Commit, error) {
	o, err := r.readEncoded(id)
	if err != nil {
		return nil, err
	}
	if o.Type() != plumbing.CommitObject {
		return nil, plumbing.ErrObjectNotFound
	}
	return object.DecodeCommit(r.repo.Storer, o)
}

// hasObject reports whether object id exists, looking no further than
// pack indexes and the stat of a loose file. Unlike readRaw it does not
// ask go-git's storage when the answer is no: a writer asks about new
// objects, which are absent, and a wrong no costs only a duplicate
// loose object.
func (r *Repo) hasObject(id plumbing.Hash) (bool, error) {
	return r.objects().Has(id)
}

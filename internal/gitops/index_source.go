package gitops

// The index as a base: where it is, and the staged content it names.

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/oid"

	"github.com/git-llm-apply/git-llm-apply/internal/engine"
	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/index"
	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/odb"
	"github.com/git-llm-apply/git-llm-apply/internal/patch"
)

// indexPath is this worktree's index file: GIT_INDEX_FILE (relative to
// the current directory) when set, else <gitdir>/index.
func (r *Repo) indexPath() (string, error) {
	if p, ok := r.env("GIT_INDEX_FILE"); ok && p != "" {
		abs, err := filepath.Abs(p)
		if err != nil {
			return "", fmt.Errorf("GIT_INDEX_FILE: %w", err)
		}
		return abs, nil
	}
	return filepath.Join(r.gitDir, "index"), nil
}

// readIndex opens the index file at path, of the worktree whose git
// dir is gitDir (see index.Open); a sparse index's directories are
// expanded from the trees they name.
func (r *Repo) readIndex(path, gitDir string) (*index.Index, error) {
	return index.Open(path, gitDir, r.walkTree)
}

// walkTree lists the files of tree id and its subtrees, for
// index.Open.
func (r *Repo) walkTree(id oid.ID, fn func(path string, mode patch.Mode, id oid.ID)) error {
	return walkFiles(r.readTree, id, func(p string, e treeEntry) { fn(p, e.engineMode(), e.id) })
}

func (r *Repo) loadIndex() (*index.Index, error) {
	p, err := r.indexPath()
	if err != nil {
		return nil, err
	}
	return r.readIndex(p, r.gitDir)
}

// IndexSource returns the staged content as a base: entries (mode and
// blob id) come from the index as it is now, Read loads the blob. An
// unmerged (conflicted) path is listed by Paths, but Lookup and Read
// fail for it, saying so; an intent-to-add entry (`git add -N`) does
// not exist in this base. A split or sparse index is read whole, with
// its shared index or the trees of its directories. The index file
// stays open while the source is in use (until it is garbage), which
// keeps the index as it was here; should the file be written in place
// meanwhile, Lookup, Read and Paths fail, saying so.
func (r *Repo) IndexSource() (engine.Source, error) {
	idx, err := r.loadIndex()
	if err != nil {
		return nil, err
	}
	return &indexSource{r: r, idx: idx}, nil
}

type indexSource struct {
	r   *Repo
	idx *index.Index
}

func (s *indexSource) Lookup(path string) (engine.Entry, error) {
	e, err := s.entry(path)
	if err != nil {
		return engine.Entry{}, err
	}
	return engine.Entry{Mode: e.Mode, ID: e.ID.String()}, nil
}

// entry is the index entry of path, when this base has the file.
func (s *indexSource) entry(path string) (index.Entry, error) {
	if err := checkPath(path); err != nil {
		return index.Entry{}, err
	}
	e, ok := s.idx.Lookup(path)
	if err := s.idx.Err(); err != nil {
		return index.Entry{}, err
	}
	if !ok || e.IntentToAdd {
		return index.Entry{}, engine.ErrNotExist
	}
	if e.Unmerged {
		return index.Entry{}, fmt.Errorf("%s is unmerged in the index; resolve the conflict first", path)
	}
	return e, nil
}

// Read returns the staged content of path: the working tree's copy
// when that is the staged blob byte for byte (see readCheckedOut), else
// the blob.
func (s *indexSource) Read(path string) ([]byte, error) {
	return s.ReadContext(context.Background(), path)
}

// ReadContext is Read that stops when ctx ends (engine.ContextReader).
func (s *indexSource) ReadContext(ctx context.Context, path string) ([]byte, error) {
	data, check, err := s.ReadAhead(ctx, path)
	if err == nil && check != nil && !check() {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return s.readBlob(ctx, path)
	}
	return data, err
}

// ReadAhead is ReadContext handing out the working tree's copy of a
// staged file before its hash is checked (see engine.AheadReader).
func (s *indexSource) ReadAhead(ctx context.Context, path string) ([]byte, func() bool, error) {
	e, err := s.entry(path)
	if err != nil {
		return nil, nil, err
	}
	if data, check, ok, err := s.r.readCheckedOut(ctx, path, e); ok || err != nil {
		return data, check, err
	}
	data, err := s.r.readBlob(ctx, path, engine.Entry{Mode: e.Mode, ID: e.ID.String()})
	return data, nil, err
}

// readBlob reads the staged blob of path, passing over the working
// tree.
func (s *indexSource) readBlob(ctx context.Context, path string) ([]byte, error) {
	e, err := s.entry(path)
	if err != nil {
		return nil, err
	}
	return s.r.readBlob(ctx, path, engine.Entry{Mode: e.Mode, ID: e.ID.String()})
}

// Size is the staged blob's size from its object header
// (engine.Sizer), inflating none of its body; unknown for a submodule
// or a blob the object store does not hold.
func (s *indexSource) Size(path string) (int64, bool, error) {
	e, err := s.entry(path)
	if err != nil {
		return 0, false, err
	}
	return s.r.blobSize(engine.Entry{Mode: e.Mode, ID: e.ID.String()})
}

func (s *indexSource) Paths() ([]string, error) {
	out := make([]string, 0, s.idx.Len())
	for p, e := range s.idx.All() {
		if !e.IntentToAdd {
			out = append(out, p)
		}
	}
	if err := s.idx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// blobSize is the size of the blob of an index or tree entry from its
// object header (odb.Store.Size); unknown for a submodule or a blob the
// object store does not hold (a partial clone's, or one of a pack
// being written), which the read then finds or refuses.
func (r *Repo) blobSize(e engine.Entry) (int64, bool, error) {
	if e.Mode == patch.ModeGitlink {
		return 0, false, nil
	}
	size, err := r.objects().Size(oid.FromHex(e.ID))
	if errors.Is(err, odb.ErrNotFound) {
		return 0, false, nil
	}
	return size, err == nil, err
}

// readBlob loads the blob of an index or tree entry; a submodule has
// no blob to read.
func (r *Repo) readBlob(ctx context.Context, path string, e engine.Entry) ([]byte, error) {
	if e.Mode == patch.ModeGitlink {
		return nil, fmt.Errorf("%s is a submodule, not a file", path)
	}
	return r.readObjectContext(ctx, oid.Blob, oid.FromHex(e.ID))
}

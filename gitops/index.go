package gitops

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	goindex "github.com/go-git/go-git/v5/plumbing/format/index"

	"github.com/git-llm-apply/git-llm-apply/engine"
)

// index is what gitops needs of the git index: per path, its mode, blob
// id and whether it is unmerged.
type index struct {
	entries map[string]indexEntry
	paths   []string // each path once, in index order
}

type indexEntry struct {
	mode        engine.Mode
	id          plumbing.Hash
	unmerged    bool // some stage other than 0 is present
	intentToAdd bool // `git add -N`: no content staged yet
}

// readIndex reads the index file at path; a missing file is an empty
// index. It is the only place that decodes an index, so that the
// decoder can be replaced by a faster one.
func readIndex(path string) (*index, error) {
	idx := &index{entries: map[string]indexEntry{}}
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return idx, nil
	}
	if err != nil {
		return nil, fmt.Errorf("gitops: reading the index: %w", err)
	}
	defer f.Close()
	var raw goindex.Index
	if err := goindex.NewDecoder(f).Decode(&raw); err != nil {
		if errors.Is(err, goindex.ErrUnknownExtension) {
			return nil, fmt.Errorf("gitops: reading the index %s: %w (a split index is not supported: git update-index --no-split-index)", path, err)
		}
		return nil, fmt.Errorf("gitops: reading the index %s: %w", path, err)
	}
	for _, e := range raw.Entries {
		if e.Mode == filemode.Dir {
			return nil, fmt.Errorf("gitops: reading the index %s: sparse index (directory entry %s) is not supported", path, e.Name)
		}
		old, seen := idx.entries[e.Name]
		if !seen {
			idx.paths = append(idx.paths, e.Name)
		}
		ie := indexEntry{mode: fromFileMode(e.Mode), id: e.Hash, intentToAdd: e.IntentToAdd}
		// Stage 0 is a merged entry (go-git's index.Merged constant is 1,
		// which is the ancestor stage; compare with 0).
		if e.Stage != 0 || (seen && old.unmerged) {
			ie.unmerged = true
		}
		idx.entries[e.Name] = ie
	}
	return idx, nil
}

// fromFileMode maps a go-git file mode to an engine.Mode.
func fromFileMode(m filemode.FileMode) engine.Mode {
	switch m {
	case filemode.Executable:
		return engine.ModeExec
	case filemode.Symlink:
		return engine.ModeSymlink
	case filemode.Submodule:
		return engine.ModeGitlink
	}
	return engine.ModeRegular
}

// indexPath is this worktree's index file: GIT_INDEX_FILE (relative to
// the current directory) when set, else <gitdir>/index.
func (r *Repo) indexPath() (string, error) {
	if p, ok := r.env("GIT_INDEX_FILE"); ok && p != "" {
		abs, err := filepath.Abs(p)
		if err != nil {
			return "", fmt.Errorf("gitops: GIT_INDEX_FILE: %w", err)
		}
		return abs, nil
	}
	return filepath.Join(r.gitDir, "index"), nil
}

func (r *Repo) loadIndex() (*index, error) {
	p, err := r.indexPath()
	if err != nil {
		return nil, err
	}
	return readIndex(p)
}

// IndexSource returns the staged content as a base: entries (mode and
// blob id) come from the index as it is now, Read loads the blob. An
// unmerged (conflicted) path is listed by Paths, but Lookup and Read
// fail for it, saying so; an intent-to-add entry (`git add -N`) does
// not exist in this base.
func (r *Repo) IndexSource() (engine.Source, error) {
	idx, err := r.loadIndex()
	if err != nil {
		return nil, err
	}
	return &indexSource{r: r, idx: idx}, nil
}

type indexSource struct {
	r   *Repo
	idx *index
}

func (s *indexSource) Lookup(path string) (engine.Entry, error) {
	if err := checkPath(path); err != nil {
		return engine.Entry{}, err
	}
	e, ok := s.idx.entries[path]
	if !ok || e.intentToAdd {
		return engine.Entry{}, engine.ErrNotExist
	}
	if e.unmerged {
		return engine.Entry{}, fmt.Errorf("gitops: %s is unmerged in the index; resolve the conflict first", path)
	}
	return engine.Entry{Mode: e.mode, ID: e.id.String()}, nil
}

func (s *indexSource) Read(path string) ([]byte, error) {
	e, err := s.Lookup(path)
	if err != nil {
		return nil, err
	}
	return s.r.readBlob(path, e)
}

func (s *indexSource) Paths() ([]string, error) {
	out := make([]string, 0, len(s.idx.paths))
	for _, p := range s.idx.paths {
		if !s.idx.entries[p].intentToAdd {
			out = append(out, p)
		}
	}
	return out, nil
}

// readBlob loads the blob of an index or tree entry; a submodule has
// no blob to read.
func (r *Repo) readBlob(path string, e engine.Entry) ([]byte, error) {
	if e.Mode == engine.ModeGitlink {
		return nil, fmt.Errorf("gitops: %s is a submodule, not a file", path)
	}
	return r.readObject(plumbing.BlobObject, plumbing.NewHash(e.ID))
}

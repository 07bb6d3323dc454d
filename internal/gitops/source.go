package gitops

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/fsread"
	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/oid"

	"github.com/git-llm-apply/git-llm-apply/internal/engine"
	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/config"
	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/index"
	"github.com/git-llm-apply/git-llm-apply/internal/patch"
)

// RevisionSource returns the files of the tree of the commit rev names
// (see ResolveCommit for the syntax and errors) as a base, and that
// commit's id.
func (r *Repo) RevisionSource(rev string) (engine.Source, string, error) {
	id, err := r.ResolveCommit(rev)
	if err != nil {
		return nil, "", err
	}
	c, err := r.readCommit(oid.FromHex(id))
	if err != nil {
		return nil, "", fmt.Errorf("reading commit %s: %w", id, err)
	}
	return &treeSource{r: r, root: c.TreeHash, trees: map[oid.ID][]treeEntry{}}, id, nil
}

// treeSource reads a tree; the trees it walks are kept.
type treeSource struct {
	r     *Repo
	root  oid.ID
	trees map[oid.ID][]treeEntry
}

func (s *treeSource) tree(id oid.ID) ([]treeEntry, error) {
	if t, ok := s.trees[id]; ok {
		return t, nil
	}
	t, err := s.r.readTree(id)
	if err != nil {
		return nil, err
	}
	s.trees[id] = t
	return t, nil
}

// entry finds the entry at path; nil when there is none.
func (s *treeSource) entry(path string) (*treeEntry, error) {
	id := s.root
	parts := strings.Split(path, "/")
	for i, name := range parts {
		entries, err := s.tree(id)
		if err != nil {
			return nil, err
		}
		var found *treeEntry
		for j := range entries {
			if entries[j].name == name {
				found = &entries[j]
				break
			}
		}
		if found == nil || (i < len(parts)-1 && !found.isDir()) {
			return nil, nil
		}
		if i == len(parts)-1 {
			return found, nil
		}
		id = found.id
	}
	return nil, nil
}

func (s *treeSource) Lookup(path string) (engine.Entry, error) {
	if err := checkPath(path); err != nil {
		return engine.Entry{}, err
	}
	e, err := s.entry(path)
	if err != nil {
		return engine.Entry{}, err
	}
	if e == nil || e.isDir() {
		return engine.Entry{}, engine.ErrNotExist
	}
	return engine.Entry{Mode: e.engineMode(), ID: e.id.String()}, nil
}

func (s *treeSource) Read(path string) ([]byte, error) {
	return s.ReadContext(context.Background(), path)
}

// ReadContext is Read that stops when ctx ends (engine.ContextReader).
func (s *treeSource) ReadContext(ctx context.Context, path string) ([]byte, error) {
	e, err := s.Lookup(path)
	if err != nil {
		return nil, err
	}
	return s.r.readBlob(ctx, path, e)
}

// Size is the blob's size from its object header (engine.Sizer).
func (s *treeSource) Size(path string) (int64, bool, error) {
	e, err := s.Lookup(path)
	if err != nil {
		return 0, false, err
	}
	return s.r.blobSize(e)
}

func (s *treeSource) Paths() ([]string, error) {
	var out []string
	err := walkFiles(s.tree, s.root, func(p string, _ treeEntry) { out = append(out, p) })
	return out, err
}

// WorktreeSource returns the files on disk as a base. Lookup uses lstat
// and never follows a symbolic link: a link is ModeSymlink (Read gives
// its target, as git stores it), a file with an exec bit is ModeExec
// (unless core.fileMode is false: then the index's mode), a directory
// the index records as a submodule is ModeGitlink; other directories,
// missing paths and paths through a symbolic link are ErrNotExist.
// Entry.ID is empty. Read gives what git add would store: the clean
// conversion of line endings and ident (see checkinOf), with the
// attributes git reads when it adds a file (the working tree's
// .gitattributes, else the index's, and those outside the tree); a
// path with a configured clean filter or a working-tree-encoding is
// ErrConversion. Paths lists the index's paths that exist on disk. A
// bare repository has no working tree: an error.
func (r *Repo) WorktreeSource() (engine.Source, error) {
	if r.root == "" {
		return nil, fmt.Errorf("%s is a bare repository: no working tree", r.gitDir)
	}
	idx, err := r.loadIndex()
	if err != nil {
		return nil, err
	}
	cfg, err := r.config()
	if err != nil {
		return nil, err
	}
	fileMode := cfgBool(cfg, "core.filemode", true)
	s := &worktreeSource{r: r, root: r.root, idx: idx, fileMode: fileMode, cfg: cfg, fold: cfgBool(cfg, "core.ignorecase", false)}
	if s.attrs, err = r.newAttrReader(cfg, s.readAttrs); err != nil {
		return nil, err
	}
	return s, nil
}

type worktreeSource struct {
	r        *Repo
	root     string
	idx      *index.Index
	fileMode bool
	cfg      *config.Values
	fold     bool // core.ignoreCase: attribute patterns match either case
	attrs    *attrReader
}

// readAttrs reads a .gitattributes of the tree as git does on adding a
// file: the working tree's, else (a sparse checkout) the index's; a
// symbolic link is not followed, and is no attributes file.
//
// A FIFO, socket or device there is refused, never opened for reading
// in a way that waits (SPEC section 5).
func (s *worktreeSource) readAttrs(path string) ([]byte, error) {
	full := filepath.Join(s.root, filepath.FromSlash(path))
	fi, err := s.lstat(path)
	switch {
	case err == nil && fi.Mode().IsRegular():
		data, err := fsread.ReadFile(full)
		if err == nil || !errors.Is(err, fs.ErrNotExist) {
			return data, err
		}
	case err == nil && fi.Mode()&(fs.ModeNamedPipe|fs.ModeSocket|fs.ModeDevice|fs.ModeCharDevice|fs.ModeIrregular) != 0:
		return nil, &fsread.NotRegularError{Path: full, Mode: fi.Mode()}
	case err != nil && !errors.Is(err, engine.ErrNotExist):
		return nil, err
	}
	return s.staged(context.Background(), path)
}

// staged returns the blob the index holds at path, nil when none does
// (or a symbolic link or submodule is there).
func (s *worktreeSource) staged(ctx context.Context, path string) ([]byte, error) {
	e, ok := s.idx.Lookup(path)
	if err := s.idx.Err(); err != nil {
		return nil, err
	}
	if !ok || e.IntentToAdd || (e.Mode != patch.ModeRegular && e.Mode != patch.ModeExec) {
		return nil, nil
	}
	return s.r.readObjectContext(ctx, oid.Blob, e.ID)
}

// clean applies git add's clean conversion to data, the file at path.
func (s *worktreeSource) clean(ctx context.Context, path string, data []byte) ([]byte, error) {
	c, err := s.checkin(path)
	if err != nil {
		return nil, err
	}
	return c.clean(ctx, path, data, func() ([]byte, error) { return s.staged(ctx, path) })
}

// checkin is the conversion git add applies to the file at path.
func (s *worktreeSource) checkin(path string) (checkin, error) {
	st, err := s.attrs.stack(path)
	if err != nil {
		return checkin{}, err
	}
	return checkinOf(st.values(path, s.fold, "text", "crlf", "eol", "ident", "filter", "working-tree-encoding"), s.cfg), nil
}

// lstat stats path without following links, also in its parents.
func (s *worktreeSource) lstat(path string) (fs.FileInfo, error) {
	if err := checkPath(path); err != nil {
		return nil, err
	}
	parts := strings.Split(path, "/")
	dir := s.root
	for _, p := range parts[:len(parts)-1] {
		dir = filepath.Join(dir, p)
		fi, err := os.Lstat(dir)
		if err != nil || !fi.IsDir() {
			return nil, engine.ErrNotExist
		}
	}
	fi, err := os.Lstat(filepath.Join(s.root, filepath.FromSlash(path)))
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return nil, engine.ErrNotExist
	}
	if err != nil {
		return nil, err
	}
	return fi, nil
}

func (s *worktreeSource) Lookup(path string) (engine.Entry, error) {
	fi, err := s.lstat(path)
	if err != nil {
		return engine.Entry{}, err
	}
	ie, inIndex := s.idx.Lookup(path)
	if err := s.idx.Err(); err != nil {
		return engine.Entry{}, err
	}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		return engine.Entry{Mode: patch.ModeSymlink}, nil
	case fi.Mode().IsRegular():
		if !s.fileMode {
			if inIndex && ie.Mode == patch.ModeExec {
				return engine.Entry{Mode: patch.ModeExec}, nil
			}
			return engine.Entry{Mode: patch.ModeRegular}, nil
		}
		if fi.Mode()&0o111 != 0 {
			return engine.Entry{Mode: patch.ModeExec}, nil
		}
		return engine.Entry{Mode: patch.ModeRegular}, nil
	case fi.IsDir() && inIndex && ie.Mode == patch.ModeGitlink:
		return engine.Entry{Mode: patch.ModeGitlink}, nil
	}
	return engine.Entry{}, engine.ErrNotExist
}

// Size is the length of the file as git add would stage it, when its
// size on disk says it (engine.Sizer): a symbolic link's target, or a
// regular file no conversion changes, so that a file over
// --max-file-size is refused unread (SPEC section 5). Where a CRLF or
// ident conversion applies, the cleaned content may be shorter than
// the file, so the size is unknown and the file is read and its
// cleaned length checked; the conversions git llm-apply refuses
// (filter, working-tree-encoding) are refused by the read.
func (s *worktreeSource) Size(path string) (int64, bool, error) {
	e, err := s.Lookup(path)
	if err != nil {
		return 0, false, err
	}
	if e.Mode == patch.ModeGitlink {
		return 0, false, nil
	}
	fi, err := s.lstat(path)
	if err != nil {
		return 0, false, err
	}
	if e.Mode == patch.ModeSymlink {
		return fi.Size(), true, nil
	}
	c, err := s.checkin(path)
	if err != nil {
		return 0, false, err
	}
	if c != (checkin{crlf: crlfBinary}) {
		return 0, false, nil
	}
	return fi.Size(), true, nil
}

func (s *worktreeSource) Read(path string) ([]byte, error) {
	return s.ReadContext(context.Background(), path)
}

// ReadContext is Read that stops when ctx ends (engine.ContextReader):
// the file is read a step at a time.
func (s *worktreeSource) ReadContext(ctx context.Context, path string) ([]byte, error) {
	e, err := s.Lookup(path)
	if err != nil {
		return nil, err
	}
	full := filepath.Join(s.root, filepath.FromSlash(path))
	switch e.Mode {
	case patch.ModeGitlink:
		return nil, fmt.Errorf("%s is a submodule, not a file", path)
	case patch.ModeSymlink:
		target, err := os.Readlink(full)
		if err != nil {
			return nil, err
		}
		return []byte(target), nil
	}
	data, err := readFileContext(ctx, full)
	if err != nil {
		return nil, err
	}
	return s.clean(ctx, path, data)
}

func (s *worktreeSource) Paths() ([]string, error) {
	var out []string
	all := s.idx.Paths()
	if err := s.idx.Err(); err != nil {
		return nil, err
	}
	for _, p := range all {
		if _, err := s.Lookup(p); err == nil || !errors.Is(err, engine.ErrNotExist) {
			out = append(out, p)
		}
	}
	return out, nil
}

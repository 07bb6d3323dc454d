package llmapply

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"

	"github.com/git-llm-apply/git-llm-apply/internal/engine"
	"github.com/git-llm-apply/git-llm-apply/internal/patch"
)

// Mode is a file's git mode.
type Mode uint32

// The modes of the files a source holds and a result writes.
const (
	ModeRegular    Mode = 0o100644
	ModeExecutable Mode = 0o100755
	ModeSymlink    Mode = 0o120000
)

// String is the mode as git writes it ("100644").
func (m Mode) String() string { return fmt.Sprintf("%06o", uint32(m)) }

// Source is where the files a reply edits are read from. Make one with
// MapSource, DirSource or a Repository's Index, Worktree or Revision.
// Paths are slash-separated and relative to the top of the source.
type Source struct {
	src  engine.Source
	repo *Repository // the repository the source belongs to, or nil
	what string      // for error messages: "map", a directory, "index", a revision
}

// MapSource is a source holding files, keyed by slash-separated path
// relative to the top ("cmd/main.go"), each a regular file. The map is
// copied.
func MapSource(files map[string][]byte) *Source {
	m := mapSource{}
	for p, b := range files {
		m[strings.TrimPrefix(path.Clean(p), "./")] = b
	}
	return &Source{src: m, what: "map"}
}

type mapSource map[string][]byte

func (m mapSource) Lookup(p string) (engine.Entry, error) {
	if _, ok := m[p]; !ok {
		return engine.Entry{}, engine.ErrNotExist
	}
	return engine.Entry{Mode: patch.ModeRegular}, nil
}

func (m mapSource) Read(p string) ([]byte, error) {
	b, ok := m[p]
	if !ok {
		return nil, engine.ErrNotExist
	}
	return b, nil
}

func (m mapSource) Paths() ([]string, error) {
	out := make([]string, 0, len(m))
	for p := range m {
		out = append(out, p)
	}
	sort.Strings(out)
	return out, nil
}

// DirSource is a source reading the files under dir as they are on
// disk, when they are asked for: regular files, executables and
// symbolic links (whose content is their target). A .git entry, at
// any depth, is left out. Reads stay inside dir: a path, or a symbolic
// link on the way to it, that leads out of dir is not found.
func DirSource(dir string) (*Source, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	// The root's file system reads through the root, symbolic links
	// included (fs.ReadLinkFS), so it is read as FSSource reads one.
	return &Source{src: fsSource{root.FS()}, what: dir}, nil
}

// isDotGit reports whether p has a .git component (any case: on a
// case-insensitive disk .GIT is the same directory).
func isDotGit(p string) bool {
	for _, c := range strings.Split(p, "/") {
		if strings.EqualFold(c, ".git") {
			return true
		}
	}
	return false
}

// FSSource is a source reading the files of fsys (a zip archive, an
// embedded tree, a test's fstest.MapFS, any io/fs file system), as
// DirSource reads a directory: regular files, executables (a mode
// with an execute bit), symbolic links where fsys reads them
// (fs.ReadLinkFS), and no .git entry.
func FSSource(fsys fs.FS) *Source {
	return &Source{src: fsSource{fsys}, what: "file system"}
}

type fsSource struct{ fsys fs.FS }

func (s fsSource) lstat(p string) (fs.FileInfo, error) {
	if isDotGit(p) || !fs.ValidPath(p) {
		return nil, engine.ErrNotExist
	}
	fi, err := fs.Lstat(s.fsys, p)
	if err != nil {
		if errors.Is(err, fs.ErrPermission) {
			return nil, err
		}
		return nil, engine.ErrNotExist
	}
	if !fi.Mode().IsRegular() && fi.Mode()&fs.ModeSymlink == 0 {
		return nil, engine.ErrNotExist
	}
	return fi, nil
}

func (s fsSource) Lookup(p string) (engine.Entry, error) {
	fi, err := s.lstat(p)
	if err != nil {
		return engine.Entry{}, err
	}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		return engine.Entry{Mode: patch.ModeSymlink}, nil
	case fi.Mode()&0o111 != 0:
		return engine.Entry{Mode: patch.ModeExec}, nil
	}
	return engine.Entry{Mode: patch.ModeRegular}, nil
}

func (s fsSource) Read(p string) ([]byte, error) {
	fi, err := s.lstat(p)
	if err != nil {
		return nil, err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		t, err := fs.ReadLink(s.fsys, p)
		return []byte(t), err
	}
	return fs.ReadFile(s.fsys, p)
}

func (s fsSource) Paths() ([]string, error) {
	var out []string
	err := fs.WalkDir(s.fsys, ".", func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.Name() == ".git" && p != "." {
			if e.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if e.Type().IsRegular() || e.Type()&fs.ModeSymlink != 0 {
			out = append(out, p)
		}
		return nil
	})
	return out, err
}

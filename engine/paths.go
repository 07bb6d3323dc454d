package engine

import (
	"fmt"
	"path"
	"sort"
	"strings"
)

// safePath checks a path as a reply wrote it and returns it in clean,
// slash-separated form. exists says whether a clean path names a file
// (used for the backslash rule). Errors wrap ErrUnsafePath.
func safePath(name string, exists func(string) bool) (string, error) {
	bad := func(why string) (string, error) {
		return "", fmt.Errorf("%w: %q %s", ErrUnsafePath, name, why)
	}
	if name == "" {
		return bad("is empty")
	}
	for _, c := range name {
		if c < 0x20 || c == 0x7f {
			return bad("holds a control character")
		}
	}
	if strings.HasPrefix(name, "/") || strings.HasPrefix(name, `\`) ||
		len(name) >= 2 && name[1] == ':' && isLetter(name[0]) {
		return bad("is absolute; paths must be relative to the repository root")
	}
	if strings.HasSuffix(name, "/") {
		return bad("names a directory")
	}
	p := name
	if strings.Contains(p, `\`) {
		alt := path.Clean(strings.ReplaceAll(p, `\`, "/"))
		if !exists(alt) {
			return bad(`uses "\" separators and names no existing file`)
		}
		p = alt
	}
	p = path.Clean(p)
	if p == "." || p == ".." || strings.HasPrefix(p, "../") {
		return bad("leaves the repository")
	}
	for _, c := range strings.Split(p, "/") {
		switch {
		case strings.EqualFold(c, ".git"):
			return bad("is inside .git")
		case isDotGit(c):
			return bad(fmt.Sprintf("is inside .git (Windows or macOS reads %q as .git)", c))
		}
	}
	return p, nil
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// pathSet answers questions about the files of a base plus the changes
// a reply has made so far. Listing the base is the costly part (a
// hundred thousand paths in a large index), so it is done only for the
// questions an exact lookup cannot answer: a name that is no path, a
// path that may name a directory.
type pathSet struct {
	list    func() ([]string, error)
	loaded  bool
	base    []string        // sorted base paths, once loaded
	dirs    map[string]bool // every directory of a base path, once loaded
	present func(string) (Entry, bool)
	// added lists, for each directory, the paths under it that the
	// base lacks and the reply has named: the files it may create.
	added map[string][]string
}

func newPathSet(list func() ([]string, error), present func(string) (Entry, bool)) *pathSet {
	return &pathSet{list: list, present: present, added: map[string][]string{}}
}

// load lists the base once.
func (ps *pathSet) load() error {
	if ps.loaded {
		return nil
	}
	paths, err := ps.list()
	if err != nil {
		return err
	}
	sorted := append([]string(nil), paths...)
	sort.Strings(sorted)
	ps.base, ps.dirs, ps.loaded = sorted, map[string]bool{}, true
	for _, p := range sorted {
		for d := path.Dir(p); d != "." && !ps.dirs[d]; d = path.Dir(d) {
			ps.dirs[d] = true
		}
	}
	return nil
}

// addNew notes p, a path the base lacks, as one the reply may create.
func (ps *pathSet) addNew(p string) {
	for d := path.Dir(p); d != "."; d = path.Dir(d) {
		ps.added[d] = append(ps.added[d], p)
	}
}

// eachUnder calls fn for each file standing under directory d now
// (the base's that the reply left, then the ones it made) until fn
// returns false: d is a directory of the tree the reply is building
// exactly when it holds a file.
func (ps *pathSet) eachUnder(d string, fn func(p string) bool) error {
	if err := ps.load(); err != nil {
		return err
	}
	if ps.dirs[d] {
		prefix := d + "/"
		for i := sort.SearchStrings(ps.base, prefix); i < len(ps.base) && strings.HasPrefix(ps.base[i], prefix); i++ {
			if _, ok := ps.present(ps.base[i]); ok && !fn(ps.base[i]) {
				return nil
			}
		}
	}
	for _, p := range ps.added[d] {
		if _, ok := ps.present(p); ok && !fn(p) {
			return nil
		}
	}
	return nil
}

// firstUnder returns a file standing under directory d now ("" when
// none).
func (ps *pathSet) firstUnder(d string) (string, error) {
	first := ""
	err := ps.eachUnder(d, func(p string) bool { first = p; return false })
	return first, err
}

// bySuffix returns the files of the base that end in "/name" and are
// still there.
func (ps *pathSet) bySuffix(name string) ([]string, error) {
	if err := ps.load(); err != nil {
		return nil, err
	}
	var hits []string
	for _, p := range ps.base {
		if strings.HasSuffix(p, "/"+name) {
			if _, ok := ps.present(p); ok {
				hits = append(hits, p)
			}
		}
	}
	return hits, nil
}

// checkPlace refuses a path that stands under a file, symlink or
// submodule, or that names a directory, as the reply has left the
// tree so far.
func (ps *pathSet) checkPlace(p string) error {
	for d := path.Dir(p); d != "."; d = path.Dir(d) {
		if e, ok := ps.present(d); ok {
			what := "a file"
			switch e.Mode {
			case ModeSymlink:
				what = "a symbolic link"
			case ModeGitlink:
				what = "a submodule"
			}
			return fmt.Errorf("%w: %q goes through %s (%s)", ErrUnsafePath, p, what, d)
		}
	}
	if _, ok := ps.present(p); ok {
		return nil // a file, so no directory
	}
	f, err := ps.firstUnder(p)
	switch {
	case err != nil:
		return err
	case f != "" && ps.dirs[p]:
		return fmt.Errorf("%w: %q names a directory", ErrUnsafePath, p)
	case f != "":
		return fmt.Errorf("%w: %q names a directory that an earlier edit of the reply made (it holds %s)", ErrUnsafePath, p, f)
	}
	return nil
}

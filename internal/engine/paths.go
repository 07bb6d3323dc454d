package engine

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/git-llm-apply/git-llm-apply/internal/patch"
)

// reading is one path a name as a reply writes it may stand for:
// clean and slash-separated, or the reason it is refused.
type reading struct {
	path string
	err  error
}

// readings returns the paths name may stand for, most literal first,
// and which of them is the name as written (what a create, delete or
// rename target uses when no reading names a file). A name holding a
// backslash has up to three (SPEC section 5): itself, since a file may
// really be called that; "\" read as a directory separator, which is
// how models on Windows write paths (Models\Offer.cs) and so the name
// as written; and Markdown escapes such as "\_" removed, since a
// reply's prose escapes them (my\_file.py). Which one is meant can
// only be told from the files that exist, so the readers hand names
// over untouched and the choice is made here.
func readings(name string) (rs []reading, written int) {
	if !strings.Contains(name, `\`) {
		return []reading{checkReading(name, name)}, 0
	}
	sep := strings.ReplaceAll(name, `\`, "/")
	rs = []reading{checkReading(name, name), checkReading(name, sep)}
	if unesc := strings.ReplaceAll(unescapeMarkdown(name), `\`, "/"); unesc != sep {
		rs = append(rs, checkReading(name, unesc))
	}
	return rs, 1
}

// markdownEscapable is the ASCII punctuation a Markdown backslash
// escapes.
const markdownEscapable = "!\"#$%&'()*+,-./:;<=>?@[]^_`{|}~"

// unescapeMarkdown removes the backslash of every Markdown escape (a
// backslash before ASCII punctuation) but "\\", which stays two
// separators rather than becoming a file name's backslash.
func unescapeMarkdown(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && s[i+1] != '\\' && strings.IndexByte(markdownEscapable, s[i+1]) >= 0 {
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// checkReading checks p, one reading of name, and returns it cleaned.
// Errors wrap ErrUnsafePath and quote name as the reply wrote it.
func checkReading(name, p string) reading {
	bad := func(why string) reading {
		return reading{err: fmt.Errorf("%w: %q %s", ErrUnsafePath, name, why)}
	}
	if p == "" {
		return bad("is empty")
	}
	for _, c := range p {
		if c < 0x20 || c == 0x7f {
			return bad("holds a control character")
		}
	}
	if strings.HasSuffix(p, "/") {
		return bad("names a directory")
	}
	// Cleaned first: "./C:" is the drive C: as much as "C:" is.
	p = path.Clean(p)
	if strings.HasPrefix(p, "/") || strings.HasPrefix(p, `\`) ||
		len(p) >= 2 && p[1] == ':' && isLetter(p[0]) {
		return bad("is absolute; paths must be relative to the repository root")
	}
	if p == "." || p == ".." || strings.HasPrefix(p, "../") {
		return bad("leaves the repository")
	}
	// A backslash left in a reading (a file really named so) is part of
	// a name here but a separator on Windows, where git checks the parts
	// it separates: they must be clean too.
	for _, c := range strings.Split(p, "/") {
		for _, c := range strings.Split(c, `\`) {
			switch {
			case c == "..":
				return bad("leaves the repository")
			case c == "" || c == ".":
				return bad(`has an empty or "." part between backslashes`)
			case strings.EqualFold(c, ".git"):
				return bad("is inside .git")
			case isDotGit(c):
				return bad(fmt.Sprintf("is inside .git (Windows or macOS reads %q as .git)", c))
			}
		}
	}
	return reading{path: p}
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
			case patch.ModeSymlink:
				what = "a symbolic link"
			case patch.ModeGitlink:
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

// CheckPath checks a path a tool names (the MCP server's read) as an
// edit's path is checked (SPEC section 5): relative, inside the
// repository, not inside .git. It returns the path cleaned; the error
// wraps ErrUnsafePath.
func CheckPath(name string) (string, error) {
	r := checkReading(name, name)
	return r.path, r.err
}

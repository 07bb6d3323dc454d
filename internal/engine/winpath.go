package engine

import (
	"fmt"
	"path"
	"strings"
)

// absPath is an absolute path as a reply or a session log writes it,
// read the way the system that wrote it reads it (SPEC section 5).
type absPath struct {
	// clean is the path with "/" separators, "." and ".." resolved
	// lexically: "/home/dev/a.py", or for Windows "c:/users/dev/a.py"
	// with the drive letter in lower case and the rest as written.
	clean string
	// windows: a drive path, whose drive and directory names Windows
	// reads without case.
	windows bool
}

// isAbsolute reports whether name is written as an absolute path of
// some system: POSIX ("/home/dev/a.py"), a Windows drive path
// ("C:\Users\dev\a.py", "c:/x", "C:\a/b"), and the Windows forms that
// are refused by name (readAbsolute): UNC, device, drive-relative and
// rooted on the current drive.
func isAbsolute(name string) bool {
	switch {
	case name == "":
		return false
	case name[0] == '\\' && len(name) > 1 && name[1] != '\\' && name[1] != '/' && strings.IndexByte(markdownEscapable, name[1]) >= 0 && !strings.HasPrefix(name, `\??\`):
		// "\_config.yml" is a Markdown escape, which readings removes.
		return false
	}
	return name[0] == '/' || name[0] == '\\' || len(name) >= 2 && isLetter(name[0]) && name[1] == ':'
}

// readAbsolute reads name, for which isAbsolute holds. The Windows
// forms that name no place a repository could be mapped from are
// refused by name: a UNC path (\\server\share\x) is on another
// machine, a device path (\\?\C:\x, \\.\pipe\x, \??\C:\x) is the
// system's namespace, and a drive-relative path (C:x) or one rooted
// on the current drive (\x) depends on a current directory that no
// log records.
func readAbsolute(name string) (absPath, error) {
	refuse := func(why string) (absPath, error) {
		return absPath{}, fmt.Errorf("%w: %q is %s; give the path relative to the repository", ErrUnsafePath, name, why)
	}
	sep := func(c byte) bool { return c == '/' || c == '\\' }
	switch {
	case len(name) >= 4 && sep(name[0]) && sep(name[1]) && (name[2] == '?' || name[2] == '.') && sep(name[3]),
		strings.HasPrefix(name, `\??\`):
		return refuse("a Windows device path (absolute, in the system's namespace, not a file of a repository)")
	case len(name) >= 2 && sep(name[0]) && sep(name[1]) && (name[0] == '\\' || name[1] == '\\'):
		return refuse(`a Windows UNC path (\\server\share: absolute, on another machine)`)
	case name[0] == '\\':
		return refuse("absolute on Windows' current drive, which the log does not record")
	case name[0] == '/':
		// A POSIX path: a backslash in it is part of a name.
		return absPath{clean: path.Clean(name)}, nil
	}
	// A drive letter.
	if len(name) == 2 || !sep(name[2]) {
		return refuse(fmt.Sprintf("relative to the current directory of drive %s, which the log does not record", name[:2]))
	}
	rest := path.Clean(strings.ReplaceAll(name[2:], `\`, "/"))
	return absPath{clean: strings.ToLower(name[:1]) + ":" + rest, windows: true}, nil
}

// slashed is a directory a session records (its cwd) read like an
// absolute path, or as written when it is none.
func slashed(dir string) absPath {
	if isAbsolute(dir) {
		if a, err := readAbsolute(dir); err == nil {
			return a
		}
	}
	return absPath{clean: path.Clean(dir)}
}

// below returns p's part below directory top, already clean, when p
// stands below it: a Windows path compares its drive and directory
// names without case, a POSIX one exactly.
func below(p, top absPath) (string, bool) {
	if p.windows != top.windows {
		return "", false
	}
	prefix := top.clean
	if !strings.HasSuffix(prefix, "/") {
		prefix += "/"
	}
	if len(p.clean) <= len(prefix) {
		return "", false
	}
	head := p.clean[:len(prefix)]
	if head != prefix && !(p.windows && strings.EqualFold(head, prefix)) {
		return "", false
	}
	return p.clean[len(prefix):], true
}

// sameDir reports whether two clean directories are one, a Windows
// one compared without case.
func sameDir(a, b string) bool {
	return a == b || isWindowsClean(a) && strings.EqualFold(a, b)
}

func isWindowsClean(p string) bool { return len(p) >= 2 && isLetter(p[0]) && p[1] == ':' }

// holds reports whether directory dir (ending in "/" or not) is top or
// one of its ancestors.
func holds(dir, top string) bool {
	dir = strings.TrimSuffix(dir, "/")
	if dir == "" {
		return true // the file system's root holds everything
	}
	if sameDir(dir, top) {
		return true
	}
	return len(top) > len(dir) && top[len(dir)] == '/' && sameDir(top[:len(dir)], dir)
}

// ancestors lists dir and the directories above it, deepest first:
// "c:/a/b", "c:/a", "c:/" (or "/a/b", "/a", "/").
func ancestors(dir string) []string {
	out := []string{dir}
	for {
		up := path.Dir(dir)
		if isWindowsClean(dir) {
			up = dir[:2] + path.Dir(dir[2:])
		}
		if up == dir {
			return out
		}
		out = append(out, up)
		dir = up
	}
}

package gitops

// gitattributes, read here as git reads them when it adds a file
// (git's attr.c, direction GIT_ATTR_CHECKIN), for the clean conversion
// of --base worktree (convert.go). git check-attr would compute them,
// but any git command that reads the index runs core.fsmonitor, and
// apply runs no code the repository configures.

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/config"
	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/fsread"
	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/wildmatch"
)

// Attribute states besides a value ("eol=crlf" gives "crlf"); none can
// come from a file, whose bytes are read up to the first NUL.
const (
	attrSet         = "\x00set"         // "text"
	attrUnset       = "\x00unset"       // "-text"
	attrUnspecified = "\x00unspecified" // "!text", or nothing said
)

// Limits git (2.40 and later) puts on attribute files: a longer line or
// a larger file is ignored.
const (
	attrMaxLine = 2048
	attrMaxFile = 100 << 20
)

// attrAssign is one "name", "-name", "!name" or "name=value" of a line.
type attrAssign struct{ name, value string }

// attrLine is a line of an attributes file: a pattern, or the name of a
// macro it defines ("[attr]binary -diff -merge -text"), and what it
// assigns.
type attrLine struct {
	macro   string // the macro defined; pattern is unused then
	pattern string // without a leading "!" (refused) or trailing "/"
	dirOnly bool   // the pattern ended with "/": it matches no file
	noDir   bool   // no "/" in the pattern: it matches the base name
	assigns []attrAssign
}

// attrFile is a parsed attributes file and the directory its patterns
// are relative to ("" for the top, and for files outside the tree).
type attrFile struct {
	base  string
	lines []attrLine
}

// builtinAttrs is git's own macro, below every file.
var builtinAttrs = attrFile{lines: parseAttrs([]byte("[attr]binary -diff -merge -text\n"), true)}

// parseAttrs parses an attributes file; macroOK is false where git
// refuses macro definitions (a .gitattributes below the top). Lines git
// ignores (with a warning) are left out: negative patterns, invalid
// attribute names, macros where none may be defined, over-long lines.
func parseAttrs(data []byte, macroOK bool) []attrLine {
	if i := bytes.IndexByte(data, 0); i >= 0 {
		data = data[:i]
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	var out []attrLine
	for _, raw := range strings.Split(string(data), "\n") {
		if len(raw) >= attrMaxLine {
			continue
		}
		if l, ok := parseAttrLine(raw, macroOK); ok {
			out = append(out, l)
		}
	}
	return out
}

const attrBlank = " \t\r\n"

func parseAttrLine(s string, macroOK bool) (attrLine, bool) {
	s = strings.TrimLeft(s, attrBlank)
	if s == "" || s[0] == '#' {
		return attrLine{}, false
	}
	var name, states string
	if unq, rest, ok := unquoteC(s); ok {
		name, states = unq, rest
	} else if i := strings.IndexAny(s, attrBlank); i >= 0 {
		name, states = s[:i], s[i:]
	} else {
		name = s
	}
	var l attrLine
	if m, ok := strings.CutPrefix(name, "[attr]"); ok && m != "" {
		if !macroOK || !attrNameValid(m) {
			return l, false
		}
		l.macro = m
	} else {
		if strings.HasPrefix(name, "!") {
			return l, false // negative patterns are ignored
		}
		if p, ok := strings.CutSuffix(name, "/"); ok {
			name, l.dirOnly = p, true
		}
		l.pattern, l.noDir = name, !strings.Contains(name, "/")
	}
	for _, f := range strings.FieldsFunc(states, func(r rune) bool { return strings.ContainsRune(attrBlank, r) }) {
		a := attrAssign{name: f, value: attrSet}
		switch {
		case f[0] == '-':
			a = attrAssign{f[1:], attrUnset}
		case f[0] == '!':
			a = attrAssign{f[1:], attrUnspecified}
		default:
			if n, v, ok := strings.Cut(f, "="); ok {
				a = attrAssign{n, v}
			}
		}
		if !attrNameValid(a.name) {
			return attrLine{}, false // git ignores the whole line
		}
		l.assigns = append(l.assigns, a)
	}
	return l, true
}

// attrNameValid: letters, digits, "-", "." and "_", not starting with "-".
func attrNameValid(n string) bool {
	if n == "" || n[0] == '-' {
		return false
	}
	for i := 0; i < len(n); i++ {
		c := n[i]
		if !(c == '-' || c == '.' || c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return false
		}
	}
	return true
}

// unquoteC reads a C-quoted string at the start of s (git's
// unquote_c_style) and returns it and what follows; ok is false when s
// does not start with a well-formed one.
func unquoteC(s string) (string, string, bool) {
	if s == "" || s[0] != '"' {
		return "", "", false
	}
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"':
			return b.String(), s[i+1:], true
		case c != '\\':
			b.WriteByte(c)
			continue
		}
		if i++; i == len(s) {
			return "", "", false
		}
		switch c = s[i]; c {
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case '\\', '"':
			b.WriteByte(c)
		case '0', '1', '2', '3':
			if i+2 >= len(s) || s[i+1] < '0' || s[i+1] > '7' || s[i+2] < '0' || s[i+2] > '7' {
				return "", "", false
			}
			b.WriteByte((c-'0')<<6 | (s[i+1]-'0')<<3 | (s[i+2] - '0'))
			i += 2
		default:
			return "", "", false
		}
	}
	return "", "", false
}

// matches reports whether l's pattern, from a file whose base is base,
// matches the file at path (git's path_matches for a file).
func (l *attrLine) matches(path, base string, fold bool) bool {
	if l.dirOnly {
		return false
	}
	if l.noDir {
		return wildmatch.Match(l.pattern, path[strings.LastIndexByte(path, '/')+1:], fold)
	}
	name := path
	if base != "" {
		prefix := path[:min(len(base), len(path))]
		if len(path) <= len(base) || path[len(base)] != '/' || !(prefix == base || fold && equalFoldASCII(prefix, base)) {
			return false
		}
		name = path[len(base)+1:]
	}
	return wildmatch.Match(strings.TrimPrefix(l.pattern, "/"), name, fold)
}

// equalFoldASCII is git's strncasecmp over equal lengths: it folds
// ASCII letters only, as core.ignoreCase does everywhere in git.
func equalFoldASCII(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// attrStack is the attributes files that apply to one path, from the
// lowest precedence to the highest.
type attrStack []*attrFile

// values returns the state of each of names for path (attrUnspecified
// when nothing says), as git's fill: the files from the highest
// precedence down, each from its last line up, each line's assignments
// from last to first; the first assignment of an attribute wins, and a
// macro set by it assigns its own attributes the same way.
func (st attrStack) values(path string, fold bool, names ...string) map[string]string {
	macros := map[string]*attrLine{}
	for i := len(st) - 1; i >= 0; i-- {
		for j := len(st[i].lines) - 1; j >= 0; j-- {
			if l := &st[i].lines[j]; l.macro != "" && macros[l.macro] == nil {
				macros[l.macro] = l
			}
		}
	}
	got := map[string]string{}
	var fill func(assigns []attrAssign, depth int)
	fill = func(assigns []attrAssign, depth int) {
		for k := len(assigns) - 1; k >= 0; k-- {
			a := assigns[k]
			if _, done := got[a.name]; done {
				continue
			}
			got[a.name] = a.value
			// An attribute is assigned once, so expansion ends; depth
			// only bounds the recursion's stack.
			if m := macros[a.name]; m != nil && a.value == attrSet && depth < 1000 {
				fill(m.assigns, depth+1)
			}
		}
	}
	for i := len(st) - 1; i >= 0; i-- {
		f := st[i]
		for j := len(f.lines) - 1; j >= 0; j-- {
			if l := &f.lines[j]; l.macro == "" && l.matches(path, f.base, fold) {
				fill(l.assigns, 0)
			}
		}
	}
	out := make(map[string]string, len(names))
	for _, n := range names {
		v, ok := got[n]
		if !ok {
			v = attrUnspecified
		}
		out[n] = v
	}
	return out
}

// attrReader builds the attribute stacks of paths of the working tree,
// reading each attributes file once.
type attrReader struct {
	outer []*attrFile // builtin, system, global: below the tree's
	info  *attrFile   // $GIT_COMMON_DIR/info/attributes: above them
	dirs  map[string]*attrFile
	// read returns a .gitattributes of the tree ("" for the top's):
	// the working tree's file, else the index's (nil: none).
	read func(path string) ([]byte, error)
}

// newAttrReader reads the attributes files outside the tree as git
// does: system ($(prefix)/etc/gitattributes, here /etc/gitattributes,
// unless GIT_ATTR_NOSYSTEM), global (core.attributesFile, else
// $XDG_CONFIG_HOME/git/attributes or ~/.config/git/attributes), and
// info/attributes of the common dir.
func (r *Repo) newAttrReader(cfg *config.Values, read func(string) ([]byte, error)) (*attrReader, error) {
	ar := &attrReader{outer: []*attrFile{&builtinAttrs}, dirs: map[string]*attrFile{}, read: read}
	home, _ := r.env("HOME")
	var files []string
	noSystem, err := config.EnvBool(r.env, "GIT_ATTR_NOSYSTEM")
	if err != nil {
		return nil, err
	}
	if !noSystem {
		files = append(files, "/etc/gitattributes")
	}
	if v, ok := cfg.Get("core.attributesfile"); ok && v != "" {
		files = append(files, config.ExpandHome(v, home))
	} else if xdg, _ := r.env("XDG_CONFIG_HOME"); xdg != "" {
		files = append(files, filepath.Join(xdg, "git", "attributes"))
	} else if home != "" {
		files = append(files, filepath.Join(home, ".config", "git", "attributes"))
	}
	for _, f := range files {
		data, err := readAttrFile(f)
		if err != nil {
			return nil, err
		}
		ar.outer = append(ar.outer, &attrFile{lines: parseAttrs(data, true)})
	}
	data, err := readAttrFile(filepath.Join(r.commonDir, "info", "attributes"))
	if err != nil {
		return nil, err
	}
	ar.info = &attrFile{lines: parseAttrs(data, true)}
	return ar, nil
}

// readAttrFile reads an attributes file outside the tree; a missing or
// too large one, or a directory, holds nothing. A FIFO, socket or
// device is refused (fsread, SPEC section 5).
func readAttrFile(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) || err == nil && (fi.IsDir() || fi.Size() >= attrMaxFile) {
		return nil, nil
	}
	data, err := fsread.ReadFile(path)
	var nr *fsread.NotRegularError
	if errors.Is(err, fs.ErrNotExist) || errors.As(err, &nr) && nr.Mode.IsDir() {
		return nil, nil
	}
	return data, err
}

// stack returns the attribute stack of the file at path: the files
// outside the tree, the .gitattributes of the top and of each directory
// down to path's, then info/attributes.
func (ar *attrReader) stack(path string) (attrStack, error) {
	st := append(attrStack{}, ar.outer...)
	dirs := []string{""}
	for i := 0; i < len(path); i++ {
		if path[i] == '/' {
			dirs = append(dirs, path[:i])
		}
	}
	for _, dir := range dirs {
		f, ok := ar.dirs[dir]
		if !ok {
			name := ".gitattributes"
			if dir != "" {
				name = dir + "/.gitattributes"
			}
			data, err := ar.read(name)
			if err != nil {
				return nil, err
			}
			if len(data) >= attrMaxFile {
				data = nil
			}
			f = &attrFile{base: dir, lines: parseAttrs(data, dir == "")}
			ar.dirs[dir] = f
		}
		st = append(st, f)
	}
	return append(st, ar.info), nil
}

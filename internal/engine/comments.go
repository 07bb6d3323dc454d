package engine

import (
	"bytes"
	"path"
	"strings"
)

// commentSyntax is what the comments rung needs to know of a language.
type commentSyntax struct {
	line   []string // line comment openers
	block  [2]string
	quotes string   // characters that open a one-line string literal
	long   []string // openers of strings that may span lines; each closes with itself
	// A string literal is code at every rung, a Python docstring
	// included: a docstring a later commit rewrote is not the one a
	// stale edit quotes, and reading both as nothing let --fuzz loose
	// write the old one under the new (SPEC section 5).
}

var (
	cLike  = commentSyntax{line: []string{"//"}, block: [2]string{"/*", "*/"}, quotes: "\"'", long: []string{"`"}}
	rustLk = commentSyntax{line: []string{"//"}, block: [2]string{"/*", "*/"}, quotes: "\""}
	cssLk  = commentSyntax{block: [2]string{"/*", "*/"}, quotes: "\"'"}
	hashLk = commentSyntax{line: []string{"#"}, quotes: "\"'"}
	pyLk   = commentSyntax{line: []string{"#"}, quotes: "\"'", long: []string{`"""`, "'''"}}
	phpLk  = commentSyntax{line: []string{"//", "#"}, block: [2]string{"/*", "*/"}, quotes: "\"'"}
	dashLk = commentSyntax{line: []string{"--"}, quotes: "\"'"}
	semiLk = commentSyntax{line: []string{";"}, quotes: "\""}
	pctLk  = commentSyntax{line: []string{"%"}, quotes: "\""}
	xmlLk  = commentSyntax{block: [2]string{"<!--", "-->"}, quotes: ""}
)

// spansLines reports whether a line's comments can depend on the lines
// before it (block comments, multi-line strings).
func (c commentSyntax) spansLines() bool { return c.block[0] != "" || len(c.long) > 0 }

var languages = map[string]commentSyntax{
	"go": cLike, "c": cLike, "h": cLike, "cc": cLike, "cpp": cLike, "cxx": cLike, "hpp": cLike, "hh": cLike,
	"java": cLike, "js": cLike, "jsx": cLike, "mjs": cLike, "cjs": cLike, "ts": cLike, "tsx": cLike,
	"cs": cLike, "swift": cLike, "kt": cLike, "kts": cLike, "scala": cLike, "dart": cLike, "groovy": cLike,
	"gradle": cLike, "m": cLike, "mm": cLike, "proto": cLike, "zig": cLike, "v": cLike, "sol": cLike,
	"rs": rustLk, "css": cssLk, "scss": cLike, "less": cLike, "php": phpLk,
	"py": pyLk, "pyi": pyLk, "rb": hashLk, "sh": hashLk, "bash": hashLk, "zsh": hashLk, "fish": hashLk,
	"pl": hashLk, "pm": hashLk, "yaml": hashLk, "yml": hashLk, "toml": hashLk, "r": hashLk, "cmake": hashLk,
	"mk": hashLk, "dockerfile": hashLk, "makefile": hashLk, "conf": hashLk, "ps1": hashLk, "nim": hashLk,
	"jl": hashLk, "ex": hashLk, "exs": hashLk, "coffee": hashLk, "tf": phpLk, "hcl": phpLk,
	"sql": dashLk, "lua": dashLk, "hs": dashLk, "elm": dashLk, "ada": dashLk,
	"lisp": semiLk, "clj": semiLk, "el": semiLk, "scm": semiLk, "asm": semiLk, "s": semiLk, "ini": semiLk,
	"tex": pctLk, "erl": pctLk,
	"html": xmlLk, "htm": xmlLk, "xml": xmlLk, "svg": xmlLk, "vue": xmlLk,
}

// languageOf names the comment language of a file by its extension or
// well-known name ("" when unknown).
func languageOf(p string) string {
	base := strings.ToLower(path.Base(p))
	switch base {
	case "makefile", "gnumakefile", "dockerfile":
		return base
	}
	ext := strings.TrimPrefix(path.Ext(base), ".")
	if _, ok := languages[ext]; ok {
		return ext
	}
	return ""
}

// languageAliases maps the language names replies use (chunk's
// "language: c++") to the extensions the comment table is keyed by.
var languageAliases = map[string]string{
	"c++": "cpp", "cplusplus": "cpp", "python": "py", "python3": "py", "golang": "go",
	"javascript": "js", "typescript": "ts", "rust": "rs", "ruby": "rb", "shell": "sh",
	"csharp": "cs", "c#": "cs", "kotlin": "kt", "perl": "pl",
}

// languageNamed returns the comment language a reply names ("" when
// unknown or unnamed).
func languageNamed(name string) string {
	n := strings.ToLower(strings.TrimSpace(name))
	if a, ok := languageAliases[n]; ok {
		return a
	}
	if _, ok := languages[n]; ok {
		return n
	}
	return ""
}

// stripComment removes the comment parts of one line read on its
// own, leaving string literals alone ("http://x" is not a comment). A
// line that is a block comment's continuation (" * text") counts as all
// comment in languages with C block comments.
func stripComment(s, lang string) string {
	return newStripper(lang).strip(s)
}

// stripper removes comments from the lines of a text read in order,
// carrying block comments and multi-line strings (docstrings among
// them, kept as code) from one line to the next.
type stripper struct {
	syn   commentSyntax
	known bool
	close string // what ends the comment or string the next line starts inside
	keep  bool   // that construct is a string (kept), not a comment
	buf   []byte
}

func newStripper(lang string) *stripper {
	syn, ok := languages[lang]
	return &stripper{syn: syn, known: ok}
}

// strip returns line s without its comments. The white space around a
// comment collapses to one space, so "a /* x */ b" reads "a b" and
// "<p><!-- x --></p>" reads "<p></p>".
func (st *stripper) strip(s string) string {
	if !st.known {
		return s
	}
	if st.close == "" && st.syn.block[0] == "/*" {
		t := strings.TrimSpace(s)
		if t == "*" || strings.HasPrefix(t, "* ") || strings.HasPrefix(t, "*/") {
			return ""
		}
	}
	b := st.buf[:0]
	gap := false // a comment was dropped: white space around it collapses
	write := func(t string) {
		if gap {
			if strings.TrimLeft(t, " \t") == "" {
				if len(b) > 0 && !isSpace(b[len(b)-1]) {
					b = append(b, ' ')
				}
				return
			}
			if len(b) > 0 && isWord(b[len(b)-1]) && isWord(t[0]) {
				b = append(b, ' ') // int/**/x is int x
			}
			gap = false
		}
		b = append(b, t...)
	}
	for i := 0; i < len(s); {
		if st.close != "" {
			stop, closed := len(s), false
			if end := strings.Index(s[i:], st.close); end >= 0 {
				stop, closed = i+end+len(st.close), true
			}
			if st.keep {
				write(s[i:stop])
			} else {
				gap = true
			}
			i = stop
			if closed {
				st.close = ""
			}
			continue
		}
		rest, c := s[i:], s[i]
		if open := st.longOpener(rest); open != "" {
			st.close, st.keep = open, true
			write(open)
			i += len(open)
			continue
		}
		if strings.IndexByte(st.syn.quotes, c) >= 0 {
			j := skipString(s, i)
			write(s[i:j])
			i = j
			continue
		}
		for _, open := range st.syn.line {
			if strings.HasPrefix(rest, open) {
				st.buf = b
				return string(bytes.TrimRight(b, " \t"))
			}
		}
		if open := st.syn.block[0]; open != "" && strings.HasPrefix(rest, open) {
			st.close, st.keep, gap = st.syn.block[1], false, true
			i += len(open)
			continue
		}
		write(s[i : i+1])
		i++
	}
	st.buf = b
	if gap {
		b = bytes.TrimRight(b, " \t")
	}
	return string(b)
}

// sameConstructs reports whether the file's lines from start, as many
// as pattern's, open and close strings and block comments as pattern's
// lines do, both read from the state the file is in at start: a near
// match must not cut a string or comment in two (SPEC section 5). A
// SEARCH quoting a one-line docstring a later commit made three lines
// reads 0.8 alike the new docstring's first line, and taking it left
// the new docstring's rest as code. It is false when the file's budget
// does not allow reading up to start.
func (m *matcher) sameConstructs(pattern []string, start int) bool {
	syn := languages[m.lang]
	if !syn.spansLines() {
		return true
	}
	delimits := func(l string) bool {
		if syn.block[0] != "" && (strings.Contains(l, syn.block[0]) || strings.Contains(l, syn.block[1])) {
			return true
		}
		for _, o := range syn.long {
			if strings.Contains(l, o) {
				return true
			}
		}
		return false
	}
	any := false // no delimiter in either: both leave the state as it was
	for i, l := range pattern {
		if delimits(l) || delimits(m.d.content(start+i)) {
			any = true
			break
		}
	}
	if !any {
		return true
	}
	at, ok := m.constructAt(start)
	if !ok {
		return false
	}
	file := newStripper(m.lang)
	file.close, file.keep = at.close, at.keep
	edit := &stripper{syn: file.syn, known: file.known, close: at.close, keep: at.keep}
	for i, l := range pattern {
		file.strip(m.d.content(start + i))
		edit.strip(strings.TrimSuffix(l, "\r"))
	}
	return file.state() == edit.state()
}

// constructs is the string or comment each line of a file starts
// inside, for the file as its edit log stood when it was read.
type constructs struct {
	log    int
	states []uint8 // 0 none, 1 a block comment, 2+k the k-th long string; +128 kept
}

// constructAt returns the stripper's state at the start of line i,
// reading the file once for as long as it is not edited; ok is false
// when the file's budget does not allow reading it.
func (m *matcher) constructAt(i int) (at stripper, ok bool) {
	if m.opened == nil || m.opened.log != len(m.d.log) {
		if m.workLeft() < m.d.len() {
			return at, false
		}
		m.work.indexed += m.d.len()
		st := newStripper(m.lang)
		c := &constructs{log: len(m.d.log), states: make([]uint8, 0, m.d.len())}
		m.d.each(0, func(_ int, l string) bool {
			c.states = append(c.states, st.state())
			st.strip(trimEOL(l))
			return true
		})
		m.opened = c
	}
	s := m.opened.states[i]
	at.keep = s&128 != 0
	switch s &^= 128; {
	case s == 1:
		at.close = m.syn().block[1]
	case s >= 2:
		at.close = m.syn().long[s-2]
	}
	return at, true
}

func (m *matcher) syn() commentSyntax { return languages[m.lang] }

// state encodes what the next line starts inside (see constructs).
func (st *stripper) state() uint8 {
	var s uint8
	if st.close != "" {
		s = 1
		for k, o := range st.syn.long {
			if st.close == o {
				s = uint8(2 + k)
			}
		}
	}
	if st.keep && st.close != "" {
		s |= 128
	}
	return s
}

func (st *stripper) longOpener(rest string) string {
	for _, open := range st.syn.long {
		if strings.HasPrefix(rest, open) {
			return open
		}
	}
	return ""
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' }

func isWord(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

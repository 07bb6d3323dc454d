package engine

import (
	"path"
	"strings"
)

// commentSyntax is what the comments rung needs to know of a language.
type commentSyntax struct {
	line   []string // line comment openers
	block  [2]string
	quotes string // characters that open a string literal
}

var (
	cLike  = commentSyntax{line: []string{"//"}, block: [2]string{"/*", "*/"}, quotes: "\"'`"}
	rustLk = commentSyntax{line: []string{"//"}, block: [2]string{"/*", "*/"}, quotes: "\""}
	cssLk  = commentSyntax{block: [2]string{"/*", "*/"}, quotes: "\"'"}
	hashLk = commentSyntax{line: []string{"#"}, quotes: "\"'"}
	phpLk  = commentSyntax{line: []string{"//", "#"}, block: [2]string{"/*", "*/"}, quotes: "\"'"}
	dashLk = commentSyntax{line: []string{"--"}, quotes: "\"'"}
	semiLk = commentSyntax{line: []string{";"}, quotes: "\""}
	pctLk  = commentSyntax{line: []string{"%"}, quotes: "\""}
	xmlLk  = commentSyntax{block: [2]string{"<!--", "-->"}, quotes: ""}
)

var languages = map[string]commentSyntax{
	"go": cLike, "c": cLike, "h": cLike, "cc": cLike, "cpp": cLike, "cxx": cLike, "hpp": cLike, "hh": cLike,
	"java": cLike, "js": cLike, "jsx": cLike, "mjs": cLike, "cjs": cLike, "ts": cLike, "tsx": cLike,
	"cs": cLike, "swift": cLike, "kt": cLike, "kts": cLike, "scala": cLike, "dart": cLike, "groovy": cLike,
	"gradle": cLike, "m": cLike, "mm": cLike, "proto": cLike, "zig": cLike, "v": cLike, "sol": cLike,
	"rs": rustLk, "css": cssLk, "scss": cLike, "less": cLike, "php": phpLk,
	"py": hashLk, "pyi": hashLk, "rb": hashLk, "sh": hashLk, "bash": hashLk, "zsh": hashLk, "fish": hashLk,
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

// stripComment removes the comment parts of one line, leaving string
// literals alone ("http://x" is not a comment). A line that is a block
// comment's continuation (" * text") counts as all comment in languages
// with C block comments.
func stripComment(s, lang string) string {
	syn, ok := languages[lang]
	if !ok {
		return s
	}
	if syn.block[0] == "/*" {
		t := strings.TrimSpace(s)
		if t == "*" || strings.HasPrefix(t, "* ") || strings.HasPrefix(t, "*/") {
			return ""
		}
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		c := s[i]
		if strings.IndexByte(syn.quotes, c) >= 0 {
			j := i + 1
			for j < len(s) && s[j] != c {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			if j > len(s) {
				j = len(s)
			} else if j < len(s) {
				j++
			}
			b.WriteString(s[i:j])
			i = j
			continue
		}
		for _, open := range syn.line {
			if strings.HasPrefix(s[i:], open) {
				return b.String()
			}
		}
		if open := syn.block[0]; open != "" && strings.HasPrefix(s[i:], open) {
			end := strings.Index(s[i+len(open):], syn.block[1])
			if end < 0 {
				return b.String()
			}
			i += len(open) + end + len(syn.block[1])
			b.WriteByte(' ')
			continue
		}
		b.WriteByte(c)
		i++
	}
	return b.String()
}

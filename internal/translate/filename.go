package translate

import (
	"strings"
	"unicode"
)

// cleanFileName returns the file name that a reply line holds, cleaned
// of the Markdown models wrap names in: surrounding white space,
// heading marks (# a.py), bold (**a.py**), backticks (`a.py`), quotes,
// a trailing colon (a.py:) and a trailing "(new file)"-like remark. A
// backslash stays: whether my\_file.py escapes an underscore or names
// the directory "my" can only be told from the files that exist, which
// the engine knows (SPEC section 5). ok is false when the line is not a
// file name.
//
// Unlike the reference parser, which takes any non-empty line above a
// block as its file name, a line that reads like prose never is one:
//   - a line with spaces is a name only when it has no sentence
//     punctuation (", ", ": ", ". ") and either was quoted or backticked
//     as a whole and has an extension or separator (`My File.md`), or is
//     clearly a path: a separator before its first space and none after
//     it, and an extension (docs/My File.md);
//   - a single word ending in "." is a sentence ("Done."), not a name;
//   - a single word without extension or separator followed by a colon
//     ("Changes:") is a heading, unless it is a well-known extensionless
//     file name (Makefile:, Dockerfile:);
//   - fences, edit markers, "...", URLs and words without a letter are
//     never names.
func cleanFileName(line string) (name string, ok bool) {
	s := strings.TrimSpace(line)
	if s == "" || s == "..." || isFenceLine(s) || isMarker(s) {
		return "", false
	}
	colon := false  // the line ended in a colon ("Changes:")
	quoted := false // the name was backticked or quoted as a whole
	for {
		prev := s
		if t := strings.TrimRight(s, ":"); t != s {
			s, colon = t, true
		}
		s = strings.TrimSpace(strings.TrimLeft(s, "#"))
		for _, q := range [...]string{"`", `"`, "'"} {
			if len(s) > 2 && strings.HasPrefix(s, q) && strings.HasSuffix(s, q) {
				s, quoted = s[1:len(s)-1], true
			}
		}
		// Like the reference, asterisks and backticks go from both ends
		// even when unpaired (a "* a.py" bullet, a stray "`").
		s = strings.TrimSpace(strings.Trim(s, "*`"))
		if s == prev {
			break
		}
	}
	if s == "" || s == "..." {
		return "", false
	}
	// "**a.py** (new file)", "`a.py` (new)": drop a remark in parentheses
	// after a name that stands on its own.
	if i := strings.LastIndex(s, " ("); i > 0 && strings.HasSuffix(s, ")") {
		if n, ok := cleanFileName(s[:i]); ok && !strings.ContainsAny(n, " \t") {
			return n, true
		}
	}
	if !plausibleName(s, quoted, colon) {
		return "", false
	}
	return s, true
}

// plausibleName reports whether s, already cleaned of Markdown, can be
// a file name rather than prose. quoted says the name was backticked or
// quoted as a whole; colon that the line ended in a colon.
func plausibleName(s string, quoted, colon bool) bool {
	if strings.Contains(s, "://") || strings.HasSuffix(s, "()") || strings.HasSuffix(s, ".") {
		return false
	}
	letter := false
	for _, r := range s {
		switch {
		case unicode.IsLetter(r) || r == '_':
			letter = true
		case unicode.IsControl(r), strings.ContainsRune("<>|*?`\"", r):
			return false
		}
	}
	if !letter {
		return false
	}
	sep := strings.IndexAny(s, `/\`)
	if sp := strings.IndexFunc(s, unicode.IsSpace); sp >= 0 {
		if strings.Contains(s, ", ") || strings.Contains(s, ": ") || strings.Contains(s, ". ") {
			return false
		}
		if !hasExtension(s) && sep < 0 {
			return false
		}
		// Clearly a path: a separator before the first space and none
		// after it ("docs/My File.md", not "src/a.py and src/b.py").
		return quoted || (sep >= 0 && sep < sp && !strings.ContainsAny(s[sp:], `/\`) && hasExtension(s))
	}
	if sep >= 0 || hasExtension(s) {
		return true
	}
	return !colon || knownBareNames[strings.ToLower(s)]
}

// hasExtension reports whether the last element of path s ends in a
// dot and an extension of letters and digits that is not all digits
// (a.py, .gitignore; not v1.2 or "etc.").
func hasExtension(s string) bool {
	if i := strings.LastIndexAny(s, `/\`); i >= 0 {
		s = s[i+1:]
	}
	dot := strings.LastIndexByte(s, '.')
	if dot < 0 || dot == len(s)-1 {
		return false
	}
	ext, digits := s[dot+1:], true
	for _, r := range ext {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' && r != '-' {
			return false
		}
		if !unicode.IsDigit(r) {
			digits = false
		}
	}
	return !digits
}

// knownBareNames are file names without extension that models name
// with a trailing colon ("Makefile:"), lower-cased.
var knownBareNames = map[string]bool{
	"makefile": true, "gnumakefile": true, "dockerfile": true,
	"containerfile": true, "jenkinsfile": true, "vagrantfile": true,
	"gemfile": true, "rakefile": true, "procfile": true, "brewfile": true,
	"podfile": true, "justfile": true, "license": true, "licence": true,
	"copying": true, "readme": true, "authors": true, "changelog": true,
	"notice": true, "codeowners": true, "version": true,
}

// fenceName returns the file name written as a fence's info string
// (```` ```src/a.py ````), or "" when the info string is a language.
func fenceName(f fence) string {
	info := f.info
	if info == "" || strings.ContainsAny(info, " \t") {
		return ""
	}
	if strings.ContainsAny(info, `/\`) || hasExtension(info) {
		if n, ok := cleanFileName(info); ok {
			return n
		}
	}
	return ""
}

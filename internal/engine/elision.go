package engine

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"znkr.io/diff"

	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// An elision is a placeholder a model writes instead of code it did not
// want to repeat ("// ... existing code ...", "// keep the rest as
// is"). Written into the file it deletes that code, so an edit whose
// new lines hold one where the edit removes lines fails. A placeholder
// that replaces nothing (a line added between kept ones, an example in
// documentation) is content like any other line.

// standsIn returns the index in new of the first placeholder that
// stands in for lines the script of old to new removes, -1 when none.
//
// A placeholder stands in for the lines removed between the same two
// kept lines that the new lines there do not rewrite: a removed line of
// substance with no new line like it after the ones already paired.
// Where no line is removed there, and no new line of code stands there
// besides the placeholder, a kept line without substance (a brace, a
// blank line, which the diff keeps wherever it finds one) does not part
// it from the lines removed beyond: "}" then "// rest unchanged" under
// a shortened function may have kept the last "}" of the file. A
// placeholder line that the removed lines hold themselves is not taken
// for one. counts says which new lines may be placeholders at all.
func standsIn(script []diff.Edit[string], old, new []string, counts func(i int) bool) int {
	if !slices.ContainsFunc(script, func(e diff.Edit[string]) bool { return e.Op == diff.Insert && counts(e.PosY) }) {
		return -1
	}
	// The script in stretches between kept lines; a run is the
	// stretches between two kept lines of substance.
	type stretch struct {
		removed []string // trimmed, non-blank
		code    []string // new lines of code that are no placeholder, trimmed
		cands   []int
		run     int
	}
	var ss []stretch
	cur, run := stretch{}, 0
	for _, e := range script {
		switch e.Op {
		case diff.Match:
			ss = append(ss, cur)
			if substantial(old[e.PosX]) {
				run++
			}
			cur = stretch{run: run}
		case diff.Delete:
			if t := strings.TrimSpace(old[e.PosX]); t != "" {
				cur.removed = append(cur.removed, t)
			}
		case diff.Insert:
			switch {
			case counts(e.PosY):
				cur.cands = append(cur.cands, e.PosY)
			case substantial(new[e.PosY]):
				cur.code = append(cur.code, strings.TrimSpace(new[e.PosY]))
			}
		}
	}
	ss = append(ss, cur)
	for _, st := range ss {
		if len(st.cands) == 0 {
			continue
		}
		removed, code := st.removed, st.code
		if len(removed) == 0 && len(code) == 0 {
			for _, o := range ss {
				if o.run == st.run {
					removed, code = append(removed, o.removed...), append(code, o.code...)
				}
			}
		}
		if !unrewritten(removed, code) {
			continue
		}
		for _, i := range st.cands {
			if !slices.Contains(removed, strings.TrimSpace(new[i])) {
				return i
			}
		}
	}
	return -1
}

// maxRewriteChecks bounds the comparisons unrewritten makes; past it a
// removed line counts as not rewritten, which fails the edit rather
// than risk losing code.
const maxRewriteChecks = 20000

// unrewritten reports whether a removed line of substance has no line
// of code like it among the new ones, taken in order.
func unrewritten(removed, code []string) bool {
	next, checks := 0, 0
	for _, r := range removed {
		if !substantial(r) {
			continue
		}
		found := false
		for j := next; j < len(code) && !found; j++ {
			if checks++; checks > maxRewriteChecks {
				return true
			}
			if textSimilarity(r, code[j]) >= 0.6 {
				found, next = true, j+1
			}
		}
		if !found {
			return true
		}
	}
	return false
}

// substantial reports whether a kept line parts the lines around it:
// not a blank line, nor punctuation or one short word ("}", "end",
// "fi", "});"), which a diff keeps wherever it finds one.
func substantial(l string) bool {
	alnum, words, inWord := 0, 0, false
	for _, r := range l {
		w := r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= 0x80
		if w {
			alnum++
			if !inWord {
				words++
			}
		}
		inWord = w
	}
	return words > 1 || alnum > 4
}

// elisionIn returns the index in new of the first placeholder that
// stands in for lines of old it replaces in the file at path, -1 when
// none. oldLines gives old, asked for only when new holds a line that
// may be a placeholder (a whole file of a million lines is not copied
// out of its doc to find it has none). prefix gives the file's lines above old, which say whether
// new starts inside a code fence of a Markdown file.
func elisionIn(path string, prefix func(yield func(string) bool), oldLines func() []string, new []string) int {
	counts := placeholderRule(path, prefix, new)
	any := false
	for i := range new {
		any = any || counts(i)
	}
	if !any {
		return -1
	}
	old := oldLines()
	return standsIn(diff.Edits(trimAll(old), trimAll(new)), old, new, counts)
}

// placeholderRule says which lines of new, the new lines of a file at
// path, may be placeholders. In code every elision comment may. In
// documentation a comment of code is text ("# rest" is a heading in
// Markdown, "// ..." a line of prose), and inside a fence an example:
// only a bare ellipsis line or an HTML comment outside fences may.
func placeholderRule(p string, prefix func(yield func(string) bool), new []string) func(i int) bool {
	if !docFile(p) {
		return func(i int) bool { return translate.IsElision(new[i]) }
	}
	var fc fences
	if prefix != nil {
		for l := range prefix {
			fc.read(l)
		}
	}
	inFence := make([]bool, len(new))
	for i, l := range new {
		inFence[i] = fc.read(l)
	}
	return func(i int) bool {
		t := strings.TrimSpace(new[i])
		if inFence[i] || !translate.IsElision(t) {
			return false
		}
		return t == "..." || t == "…" || strings.HasPrefix(t, "<!--")
	}
}

// docExts are the extensions of documentation files, whose placeholders
// placeholderRule reads as text. Not .txt: CMakeLists.txt is code and
// requirements.txt a list, both with "#" comments, where
// "# ... rest unchanged ..." stands for lines as in code.
var docExts = map[string]bool{
	"md": true, "markdown": true, "mdown": true, "mkd": true, "rst": true,
	"adoc": true, "asciidoc": true, "org": true, "textile": true, "rdoc": true,
}

func docFile(p string) bool {
	return docExts[strings.ToLower(strings.TrimPrefix(path.Ext(p), "."))]
}

// fences follows the code fences of a Markdown text read line by line.
type fences struct {
	char byte // '`' or '~' while a fence is open, else 0
	n    int  // the length of the open fence
}

// read takes the next line and reports whether it belongs to a fenced
// block, its fences included.
func (f *fences) read(l string) bool {
	t := strings.TrimSpace(l)
	c := byte(0)
	if t != "" {
		c = t[0]
	}
	n := 0
	for n < len(t) && t[n] == c {
		n++
	}
	switch {
	case f.char != 0:
		if c == f.char && n >= f.n && strings.TrimSpace(t[n:]) == "" {
			f.char = 0
		}
		return true
	case (c == '`' || c == '~') && n >= 3 && !(c == '`' && strings.ContainsRune(t[n:], '`')):
		f.char, f.n = c, n
		return true
	}
	return false
}

func elisionError(l string) error {
	return fmt.Errorf("the new lines hold the placeholder %q where the old lines held code; write the code out in full, or leave those lines out of the edit", strings.TrimSpace(l))
}

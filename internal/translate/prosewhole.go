package translate

import "strings"

// A bare fence under a prose line naming a file is as often a snippet
// as the whole file. aider's whole-file coder (aider/coders/
// wholefile_coder.py) takes the file a prose line names in backticks
// for the next bare fence, and its tests
// (tests/basic/test_wholefile.py) rewrite a one-line file under
// "Here's the modified `accumulate.py` file that implements ..." and
// "Here is a new version of `a.txt` for you to consider:". A line that
// says so makes the fence the file's new version; one that merely
// names the file ("in `config.py`:", "add this to `x`") does not
// (SPEC section 4, the whole row).

// proseVersionWords say that what follows is a file's new version.
var proseVersionWords = map[string]bool{
	"new": true, "updated": true, "modified": true, "complete": true,
	"full": true, "entire": true, "whole": true,
}

// proseVersionNouns name the file's version: "the new version of".
var proseVersionNouns = map[string]bool{
	"version": true, "content": true, "contents": true, "file": true, "code": true, "source": true,
}

// prosePartNouns after the name make it a part of the file: "the
// updated `a.py` function".
var prosePartNouns = map[string]bool{
	"function": true, "method": true, "class": true, "section": true, "snippet": true,
	"part": true, "portion": true, "block": true, "change": true, "changes": true,
	"diff": true, "excerpt": true, "line": true, "lines": true, "hunk": true, "patch": true,
	"import": true, "imports": true, "test": true, "tests": true,
}

// proseWhole returns the first of names that the prose line t calls
// the fence's file in its new version: right after a version word
// ("the modified `a.py` file", "the complete, updated `a.py`"), after
// a version word and noun with "of" or "for" ("a new version of
// `a.txt`", "the full content of the `a.py` file"), or as what "here
// is" gives ("Here is `b.txt`:", "Here's the `a.py` file:"); never
// when a word naming a part of it follows ("the updated `a.py`
// function"). "" when the line says none of that.
func proseWhole(t string, names []string) string {
	t = strings.NewReplacer("’", "'", ",", " ").Replace(t)
	var words []string
	for _, f := range strings.Fields(t) {
		if w := strings.Trim(f, "`.:;!?()[]{}<>\"*_"); w != "" {
			words = append(words, w)
		}
	}
	lower := func(k int) string {
		if k < 0 || k >= len(words) {
			return ""
		}
		return strings.ToLower(words[k])
	}
	for k, w := range words {
		name := ""
		for _, n := range names {
			if c, ok := cleanFileName(w); w == n || ok && c == n {
				name = n
				break
			}
		}
		if name == "" || prosePartNouns[lower(k+1)] {
			continue
		}
		j := k - 1
		if lower(j) == "the" {
			j--
		}
		switch {
		case proseVersionWords[lower(j)]:
			return name
		case lower(j) == "of" || lower(j) == "for":
			if proseVersionNouns[lower(j-1)] && proseVersionWords[lower(j-2)] {
				return name
			}
		case lower(j) == "here's" || lower(j) == "is" && lower(j-1) == "here":
			return name
		}
	}
	return ""
}

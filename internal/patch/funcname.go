package patch

// This file reproduces the text git prints after the second "@@" of a
// hunk header when no diff driver (.gitattributes "diff=...") is set:
// xdiff's default function-line rule (def_ff and get_func_line in
// xdiff/xemit.c, git 2.39).

// funcLineMax is the size of xdiff's func_line buffer: a function line
// is cut to this many bytes before trailing blanks are trimmed.
const funcLineMax = 80

// hunkHeaderMax is the size of the buffer xdl_emit_hunk_hdr formats a
// header into; the function text is cut so the header fits in it.
const hunkHeaderMax = 128

// funcFinder returns the function line for successive hunks of one
// file, scanning each old line at most once like xdiff does.
type funcFinder struct {
	lines *textLines // the old file's
	limit int        // index of the line the previous search started at
	cur   []byte     // the last function line found; kept when none is
}

func newFuncFinder(lines *textLines) *funcFinder {
	return &funcFinder{lines: lines, limit: -1}
}

// find returns the function line for a hunk whose old range starts at
// the zero-based line start. xdiff looks upward from the line before
// the hunk and stops where the previous hunk's search began: when it
// finds nothing there, the previous hunk's line is still the nearest
// one, so git reuses it.
func (f *funcFinder) find(start int) []byte {
	if from := max(f.limit+1, 0); from < start {
		if name, ok := f.lines.lastLineOf(from, start, defaultFuncName); ok {
			f.cur = name
		}
	}
	f.limit = start - 1
	return f.cur
}

// defaultFuncName implements def_ff: a line that starts with an ASCII
// letter, '_' or '$' is a function line. It is cut to funcLineMax bytes
// and then trimmed of trailing whitespace, in that order, so a long
// line can lose inner blanks that fall at the cut.
func defaultFuncName(line []byte) ([]byte, bool) {
	if len(line) == 0 {
		return nil, false
	}
	c := line[0]
	if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '$') {
		return nil, false
	}
	n := min(len(line), funcLineMax)
	for n > 0 && isGitSpace(line[n-1]) {
		n--
	}
	return line[:n], true
}

// isGitSpace is git's isspace (sane_ctype in ctype.c), which xdiff uses
// since it includes git-compat-util.h: unlike C's it excludes \v and \f.
func isGitSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r'
}

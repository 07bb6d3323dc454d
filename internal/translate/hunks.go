package translate

import (
	"slices"
	"strconv"
	"strings"
)

// The hunk reader reads the unified diff of one file as a model writes
// it, leniently: "@@" lines are hunk boundaries whose numbers are hints
// at most and whose counts are never trusted, file headers are
// optional, and a context line that lost its leading space still
// counts. udiffx (a FILE_PATCH body) and udiff (one file of a fenced
// diff) share it.

// hunk is one "@@" section of a unified diff.
type hunk struct {
	// Line is the reply line of the "@@" header; for a patch without
	// any "@@" line, of the first line read as the hunk's body.
	Line int
	// OldStart is the old start line of "@@ -a,b +c,d @@"; Numbered
	// says the header carried one (it may be 0: "@@ -0,0 +1 @@").
	OldStart int
	Numbered bool
	// Old holds the context and removed lines in order, New the
	// context and added lines.
	Old, New []string
	// Changed: the hunk removes or adds a line.
	Changed bool
	// NoEOLOld and NoEOLNew: a "\ No newline at end of file" marker
	// stood after the hunk's last old or new line. They are noted
	// only: the engine keeps the file's own final newline.
	NoEOLOld, NoEOLNew bool
	// File is the index in hunkPatch.Headers of the file header the
	// hunk follows; -1 when none stands above it.
	File int
}

// hunkFileHeader is a file header found in a patch: a "diff --git"
// line or a "--- "/"+++ " pair, with the names as written after the
// markers ("" when absent).
type hunkFileHeader struct {
	Line     int
	Git      string // the "diff --git" line, without "diff --git "
	Old, New string
	// Ext are the extended header lines that followed "diff --git"
	// (index, mode, rename, copy, binary lines), as written.
	Ext []hunkExt
}

// hunkExt is an extended header line of a git diff and its reply line.
type hunkExt struct {
	Line int
	Text string
}

// hunkPatch is what parseHunks found in the lines of one file's patch.
type hunkPatch struct {
	Headers  []hunkFileHeader
	Hunks    []hunk // context-only hunks included
	Warnings []Warning
}

// hunkGitHeaders start the extended header lines git writes between
// "diff --git" and "---".
var hunkGitHeaders = []string{
	"index ", "old mode ", "new mode ", "deleted file mode ", "new file mode ",
	"similarity index ", "dissimilarity index ", "rename from ", "rename to ",
	"copy from ", "copy to ", "Binary files ", "GIT binary patch",
}

// hunkOps turns the hunks of p (the unified diff of one file, read by
// parseHunks) into one Edit per hunk that changes something, in order:
// Old the hunk's context and removed lines, New its context and added
// lines, LineHint the old start line of its "@@ -a,b +c,d @@" header
// when it has one, Group group (non-zero, shared by the patch), Ordered
// set, Line the reply line of the header, Path path and Format format.
// A hunk of added lines only goes at the start of the file (Where
// AtStart) when its header says "-0" ("@@ -0,0 +1,2 @@"), else at the
// end (AtEnd, with its old start line, if any, as LineHint); the hunks
// of a patch that go at the end are one Edit, the first one's, adding
// all their lines in order.
func hunkOps(p *hunkPatch, format, path string, group int) []Operation {
	var ops []Operation
	atEnd := -1 // the op that the patch's hunks going at the end join
	for _, h := range p.Hunks {
		if !h.Changed {
			continue
		}
		op := Operation{Kind: Edit, Format: format, Path: path, LineEdit: LineEdit{Old: h.Old, New: h.New}, Placement: Placement{Group: group, Ordered: true}, Line: h.Line}
		if h.Numbered && h.OldStart > 0 {
			op.LineHint = h.OldStart
		}
		if len(h.Old) == 0 {
			// Added lines with no context: "-0" puts them above line
			// 1, as git's zero-context diffs do; otherwise they go at
			// the end (rust-udiffx's rule, and git apply's for a hunk
			// without trailing context), where the engine checks that
			// the line hint, if any, agrees.
			op.Where = AtEnd
			if h.Numbered && h.OldStart == 0 {
				op.Where = AtStart
			}
		}
		if op.Where == AtEnd && atEnd >= 0 {
			// They all go at the end, in order: as one edit, a second
			// run finds them there together, where the first of two
			// would not stand last.
			ops[atEnd].New = append(append([]string(nil), ops[atEnd].New...), op.New...)
			continue
		}
		if op.Where == AtEnd {
			atEnd = len(ops)
		}
		ops = append(ops, op)
	}
	return ops
}

// parseHunks splits the lines of one file's patch into file headers
// and hunks. A hunk starts at an "@@" line and ends at the next one,
// at the next file header or at the end; its counts are ignored. Inside
// a hunk a line starting with " ", "-" or "+" is context, removed or
// added, "\ " is the no-newline marker, and any other line (an empty
// one included) is context that lost its leading space; empty lines
// ending a hunk are dropped as separation. Text before the first "@@"
// that is no header is ignored with a warning. When the patch has no
// "@@" line at all, everything after its headers is one hunk.
//
// The error, when the patch is empty, holds no hunk or changes nothing,
// is a *ParseError without Format at line first; the patch is returned
// in every case.
func parseHunks(lines []string, first int) (*hunkPatch, *ParseError) {
	p := &hunkPatch{}
	if blank(lines) {
		return p, parseErr("", first, "the patch is empty")
	}
	s := &hunkScanner{p: p, lines: lines, first: first, hasAt: slices.ContainsFunc(lines, hunkIsHeader)}
	for i := 0; i < len(lines); i++ {
		if s.cur != nil && s.ended(i) {
			continue
		}
		if s.cur == nil {
			var body bool
			if i, body = s.outside(i); !body {
				continue
			}
		}
		s.body(lines[i])
	}
	s.flush()
	return p, p.verdict(first)
}

// hunkScanner is parseHunks' state while it walks a patch's lines.
type hunkScanner struct {
	p     *hunkPatch
	lines []string
	first int  // the reply line of lines[0]
	hasAt bool // the patch has an "@@" line
	// cur is the hunk being read, nil between hunks.
	cur *hunk
	// last is the prefix of the previous body line, trail the number
	// of empty lines ending the current hunk so far.
	last  byte
	trail int
	// afterGit: the last header was a "diff --git" line, whose
	// extended header lines may follow.
	afterGit bool
	// ignored: text before the first "@@" has been warned about.
	ignored bool
}

// start makes h the current hunk.
func (s *hunkScanner) start(h *hunk) {
	s.cur, s.last, s.trail = h, ' ', 0
}

// flush ends the current hunk, if any, and adds it to the patch.
func (s *hunkScanner) flush() {
	if s.cur == nil {
		return
	}
	// Empty lines ending a hunk separate it from what follows; as
	// context they would only demand blank lines the file may lack.
	cur := s.cur
	cur.Old, cur.New = cur.Old[:len(cur.Old)-s.trail], cur.New[:len(cur.New)-s.trail]
	s.p.Hunks = append(s.p.Hunks, *cur)
	s.cur = nil
}

// ended handles lines[i] inside a hunk when it ends the hunk: an "@@"
// line starts the next hunk (ended reports true: the line is read), a
// file header closes the hunk and is left to outside (ended reports
// false, s.cur is nil).
func (s *hunkScanner) ended(i int) bool {
	l := s.lines[i]
	if hunkIsHeader(l) {
		s.flush()
		s.start(s.p.hunkStart(l, s.first+i))
		return true
	}
	if hunkStartsFile(s.lines, i) {
		s.flush()
		s.afterGit = false
	}
	return false
}

// outside reads lines[i] between hunks: a hunk's "@@" line, a file
// header or extended header line (skipping a binary patch's data), a
// blank line, or other text. It returns the index of the last line it
// read and whether lines[i] is the first body line of a hunk it
// started (a patch without "@@" lines), which the caller reads next.
func (s *hunkScanner) outside(i int) (int, bool) {
	p, l, line := s.p, s.lines[i], s.first+i
	switch {
	case hunkIsHeader(l):
		s.start(p.hunkStart(l, line))
	case strings.HasPrefix(l, "diff --git "):
		p.Headers = append(p.Headers, hunkFileHeader{Line: line, Git: strings.TrimPrefix(l, "diff --git ")})
		s.afterGit = true
	case s.afterGit && hunkHasPrefix(l, hunkGitHeaders):
		h := &p.Headers[len(p.Headers)-1]
		h.Ext = append(h.Ext, hunkExt{Line: line, Text: l})
		if strings.HasPrefix(l, "GIT binary patch") {
			// Its data lines are no hunk; git starts the next file
			// with "diff --git".
			for i+1 < len(s.lines) && hunkBinaryData(s.lines[i+1]) {
				i++
			}
		}
	case strings.HasPrefix(l, "--- ") && (s.hasAt || i+1 < len(s.lines) && strings.HasPrefix(s.lines[i+1], "+++ ")):
		if n := len(p.Headers); n > 0 && s.afterGit && p.Headers[n-1].Old == "" {
			p.Headers[n-1].Old = strings.TrimPrefix(l, "--- ")
		} else {
			p.Headers = append(p.Headers, hunkFileHeader{Line: line, Old: strings.TrimPrefix(l, "--- ")})
		}
		s.afterGit = false
	case strings.HasPrefix(l, "+++ ") && (s.hasAt || i > 0 && strings.HasPrefix(s.lines[i-1], "--- ")):
		if n := len(p.Headers); n > 0 && p.Headers[n-1].New == "" {
			p.Headers[n-1].New = strings.TrimPrefix(l, "+++ ")
		} else {
			p.Headers = append(p.Headers, hunkFileHeader{Line: line, New: strings.TrimPrefix(l, "+++ ")})
		}
	case strings.TrimSpace(l) == "":
	case !s.hasAt:
		p.Warnings = append(p.Warnings, warning(line, "the patch has no @@ line; its lines are read as one hunk"))
		s.start(&hunk{Line: line, File: len(p.Headers) - 1})
		return i, true
	default:
		if !s.ignored {
			p.Warnings = append(p.Warnings, warning(line, "%q stands before the first @@ line and is ignored", hunkClip(l)))
			s.ignored = true
		}
	}
	return i, false
}

// body reads l as a line of the current hunk's body.
func (s *hunkScanner) body(l string) {
	cur := s.cur
	if l == "" {
		cur.Old, cur.New, s.last = append(cur.Old, ""), append(cur.New, ""), ' '
		s.trail++
		return
	}
	s.trail = 0
	switch {
	case l[0] == ' ':
		cur.Old, cur.New = append(cur.Old, l[1:]), append(cur.New, l[1:])
	case l[0] == '-':
		cur.Old, cur.Changed = append(cur.Old, l[1:]), true
	case l[0] == '+':
		cur.New, cur.Changed = append(cur.New, l[1:]), true
	case strings.HasPrefix(l, `\ `):
		switch s.last {
		case '-':
			cur.NoEOLOld = true
		case '+':
			cur.NoEOLNew = true
		default:
			cur.NoEOLOld, cur.NoEOLNew = true, true
		}
		return
	default:
		// A context line that lost its leading space.
		cur.Old, cur.New = append(cur.Old, l), append(cur.New, l)
		s.last = ' '
		return
	}
	s.last = l[0]
}

// verdict warns about each hunk that changes no line and returns the
// error of a patch that holds no hunk or changes nothing, at reply
// line first.
func (p *hunkPatch) verdict(first int) *ParseError {
	changed := 0
	for _, h := range p.Hunks {
		if h.Changed {
			changed++
		} else {
			p.Warnings = append(p.Warnings, warning(h.Line, "the hunk changes no line (context only); ignored"))
		}
	}
	switch {
	case len(p.Hunks) == 0:
		return parseErr("", first, "the patch holds no hunk: write each change as an @@ line followed by context (\" \"), removed (\"-\") and added (\"+\") lines")
	case changed == 0:
		return parseErr("", first, "the patch changes nothing: its hunks hold context lines only, no \"-\" or \"+\" line")
	}
	return nil
}

// hunkStart starts the hunk whose "@@" header l stands at reply line.
func (p *hunkPatch) hunkStart(l string, line int) *hunk {
	h := &hunk{Line: line, File: len(p.Headers) - 1}
	h.OldStart, h.Numbered = hunkOldStart(l)
	return h
}

// hunkIsHeader reports whether l is an "@@" line.
func hunkIsHeader(l string) bool { return strings.HasPrefix(l, "@@") }

// hunkOldStart reads the old start line of an "@@" header: the number
// after the "-" that follows the opening "@@"s, if there is one.
func hunkOldStart(l string) (int, bool) {
	s := strings.TrimLeft(l, "@")
	s = strings.TrimLeft(s, " \t")
	if !strings.HasPrefix(s, "-") {
		return 0, false
	}
	s = s[1:]
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	if n == 0 || n > 9 {
		return 0, false
	}
	v, err := strconv.Atoi(s[:n])
	return v, err == nil
}

// hunkStartsFile reports whether a file header starts at lines[i],
// inside a hunk: a "diff --git" line, or a "--- "/"+++ " pair followed
// by an "@@" line, or one that reads as a header by its names (git's
// "a/" and "b/", a /dev/null, or the same name twice). Any other pair
// reads as a removed and an added line ("-- a SQL comment").
func hunkStartsFile(lines []string, i int) bool {
	if strings.HasPrefix(lines[i], "diff --git ") {
		return true
	}
	if !strings.HasPrefix(lines[i], "--- ") || i+1 >= len(lines) || !strings.HasPrefix(lines[i+1], "+++ ") {
		return false
	}
	if i+2 < len(lines) && hunkIsHeader(lines[i+2]) {
		return true
	}
	name := func(l string) string {
		l, _, _ = strings.Cut(l[4:], "\t")
		return strings.Trim(strings.TrimSpace(l), `"`)
	}
	old, new := name(lines[i]), name(lines[i+1])
	return old == "/dev/null" || new == "/dev/null" || old != "" && old == new ||
		strings.HasPrefix(old, "a/") && strings.HasPrefix(new, "b/")
}

// hunkBinaryData reports whether l can be a line of the data after
// "GIT binary patch": "literal N", "delta N", a blank line, or a
// base85 line whose first letter gives its length.
func hunkBinaryData(l string) bool {
	if l == "" || strings.HasPrefix(l, "literal ") || strings.HasPrefix(l, "delta ") {
		return true
	}
	var n int
	switch c := l[0]; {
	case c >= 'A' && c <= 'Z':
		n = int(c-'A') + 1
	case c >= 'a' && c <= 'z':
		n = int(c-'a') + 27
	default:
		return false
	}
	return len(l) == 1+(n+3)/4*5 && !strings.ContainsAny(l, " \t\"'")
}

// hunkHasPrefix reports whether s starts with one of prefixes.
func hunkHasPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// hunkClip shortens s for a message.
func hunkClip(s string) string {
	s = strings.TrimSpace(s)
	if r := []rune(s); len(r) > 60 {
		return string(r[:57]) + "..."
	}
	return s
}

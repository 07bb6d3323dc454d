package translate

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
)

// FormatWhole is the format of replies that give each changed file
// whole: its name, then a fence holding all of its new content.
const FormatWhole = "whole"

// readWhole reads a reply that writes files whole. A block is a fence
// of three or more backticks or tildes (or an HTML-like tag, see
// openFence) named by the line above it or by its info string:
//
//	**src/app.py**          ```python src/app.py
//	```python               ```python:src/app.py
//	...                     ```python title="src/app.py"
//	```                     ```src/app.py
//
// The name line is cleaned as in the SEARCH/REPLACE family (bold,
// backticks, a heading's "#", a trailing colon, a "File:" label, a list
// bullet) and may stand one blank line above the fence. As a file
// name is all that tells a whole file from a code sample, a name must
// have an extension or a path separator, or be a well-known bare name
// (Makefile, Dockerfile, ...); a name in the info string wins over
// the line above.
//
// Each block becomes a Create with Overwrite set, New its lines and
// Line the opening fence's line; a block with no lines creates an
// empty file but has no Overwrite, so that it never empties an
// existing one. The lines are read as CommonMark reads them: the first
// fence line of the same character, at least as long and bare, closes
// the block, and the indentation of an indented opening fence comes
// off the lines inside. One thing more, so that a Markdown file
// written inside a three-backtick fence is not cut at its first
// example: a line that could close the block but carries an info
// string (```` ```python ````) opens a nested fence inside the file,
// which the next bare fence of at least its length closes.
//
// A block whose fence is never closed (a reply cut off) is a
// Reply.Failed entry naming its opening line, and nothing of that file
// is written; the blocks before it still count.
//
// Not whole files: an unnamed shell fence (bash, sh, console, ...) is a
// Reply.Shell entry, and so is a shell fence whose name is no script's;
// any other unnamed fence is an example and part of Reply.Prose; a
// named fence whose lines hold another format's edit markers or near
// misses of them (<<<<<<< SEARCH, <<<<<<<SEARCH, *** begin patch, ...;
// see markerAt) or a unified diff, unless the
// name is a .diff or .patch file, is skipped with a warning. The lines
// outside the blocks are Reply.Prose.
//
// A reply with no whole-file block returns ErrNoEdits with its prose,
// shell blocks and warnings. No other error comes back.
func readWhole(text string) (*Reply, error) { return scanWhole(text, false).reply() }

// reply reads the rest of the reply s has scanned up to its first
// block (for wholeAt), or all of it, and returns what readWhole does.
func (s *wholeReader) reply() (*Reply, error) {
	s.scan(false)
	r := &Reply{Format: FormatWhole, Shell: s.shell, Warnings: s.warns, Prose: s.prose()}
	seen := map[string]int{}
	for _, b := range s.blocks {
		if b.end == len(s.lines) {
			r.Failed = append(r.Failed, Failure{Line: b.fence + 1, Path: b.path, Msg: b.unclosed(len(s.lines))})
			continue
		}
		if len(b.named) > 0 {
			r.Ops = append(r.Ops, Operation{Kind: Create, Format: FormatWhole, FileCreate: FileCreate{ProseNames: b.named, ProseWhole: b.whole, Overwrite: true},
				LineEdit: LineEdit{New: b.content}, Line: b.fence + 1})
			continue
		}
		if prev, ok := seen[b.path]; ok {
			r.warnf(b.fence+1, "%s is written whole twice, at lines %d and %d: the later block wins", b.path, prev, b.fence+1)
		}
		seen[b.path] = b.fence + 1
		r.Ops = append(r.Ops, Operation{Kind: Create, Format: FormatWhole, Path: b.path, LineEdit: LineEdit{New: b.content},
			FileCreate: FileCreate{Overwrite: len(b.content) > 0}, Line: b.fence + 1})
	}
	sortWarnings(r.Warnings)
	if len(r.Ops) == 0 && len(r.Failed) == 0 {
		return r, ErrNoEdits
	}
	return r, nil
}

// wholeAt returns the byte offset of the first block readWhole would
// read as a whole file (closed or not): the start of its name line, or
// of its fence line when the info string names it; -1 when there is
// none.
func wholeAt(text string) int {
	s := scanWhole(text, true)
	if len(s.blocks) == 0 {
		return -1
	}
	line := min(s.blocks[0].nameLine, s.blocks[0].fence)
	off := 0
	for i := 0; i < line; i++ {
		off += strings.IndexByte(text[off:], '\n') + 1
	}
	return off
}

// wholeBlock is a fenced block read as a whole file. Lines are 0-based.
type wholeBlock struct {
	path     string
	nameLine int // the line the name was read from: the fence's own when in the info string
	fence    int // the opening fence
	end      int // the closing fence; len(lines) when the fence is never closed
	content  []string
	nested   int      // the first line (1-based) that opened a fence inside the file; 0 when none
	named    []string // a bare fence's: the names the prose line above holds (path is "")
	whole    string   // the one of named the prose line calls the fence the new version of
}

// unclosed is the Failure message of a block whose fence is never
// closed.
func (b wholeBlock) unclosed(n int) string {
	msg := fmt.Sprintf("the fence that opens %s at line %d is never closed: the reply ends first, at line %d (was it cut off?); nothing of %s is written",
		b.path, b.fence+1, n, b.path)
	if b.nested > 0 {
		msg += fmt.Sprintf(". Line %d opens a fence inside the file, which takes the next bare fence as its own end: "+
			"if it starts another file, close this one before it; if the file holds fences, write it inside a longer fence (````)", b.nested)
	}
	return msg
}

// wholeReader reads a reply in one scan (scanWhole) and holds what it found.
type wholeReader struct {
	replyLines // kind: kFenced for an unnamed fence, fences included, read as prose
	text       string
	starts     []byte // each line's first byte after ASCII white space; nil when not known
	next       int    // the line the scan goes on from
	blocks     []wholeBlock
	shell      []Shell
	warns      []Warning
}

// wfence is an opening fence line: a fence of fence.go, or one of
// tildes (whose length is kept in ticks).
type wfence struct {
	fence
	tildes bool
}

// char is the character a closing or nested fence of f is made of;
// 0 for an HTML-like fence.
func (f wfence) char() byte {
	switch {
	case f.tildes:
		return '~'
	case f.ticks > 0:
		return '`'
	}
	return 0
}

func (f wfence) closes(t string) bool {
	if !f.tildes {
		return f.fence.closes(t)
	}
	n := countPrefix(t, '~')
	return n >= f.ticks && strings.TrimSpace(t[n:]) == ""
}

// lang is the fence's language, without the ":path" some models add.
func (f wfence) lang() string {
	l, _, _ := strings.Cut(f.fence.lang(), ":")
	return l
}

func (f wfence) isShell() bool { return shellLangs[f.lang()] }

// openWhole reports whether the trimmed line t opens a fence. Unlike
// backticks, a tilde fence's info string may hold backticks
// (CommonMark).
func openWhole(t string) (wfence, bool) {
	if n := countPrefix(t, '~'); n >= 3 {
		return wfence{fence: fence{ticks: n, info: strings.TrimSpace(t[n:])}, tildes: true}, true
	}
	f, ok := openFence(t)
	return wfence{fence: f}, ok
}

// scanWhole reads the fences of a reply. With first it stops at the
// first whole-file block, which is all wholeAt needs; reply goes on
// from there.
func scanWhole(text string, first bool) *wholeReader {
	return scanWholeLines(text, splitLines(text), nil, first)
}

// scanWholeLines is scanWhole of text cut into its lines already, with
// the first byte of each after ASCII white space (markIndex.first) when
// starts is not nil.
func scanWholeLines(text string, lines []string, starts []byte, first bool) *wholeReader {
	s := &wholeReader{replyLines: replyLinesOf(lines), text: text, starts: starts}
	s.scan(first)
	return s
}

// scan reads the fences from line s.next on, up to the first
// whole-file block with first.
func (s *wholeReader) scan(first bool) {
	for s.next < len(s.lines) {
		i := s.next
		f, ok := openWhole(strings.TrimSpace(s.lines[i]))
		if !ok {
			s.next++ // kProse
			continue
		}
		b := s.readBlock(i, f)
		s.classify(b, f)
		s.next = b.end + 1
		if first && len(s.blocks) > 0 {
			return
		}
	}
}

// readBlock reads the lines of the fence f opening at line i.
func (s *wholeReader) readBlock(i int, f wfence) wholeBlock {
	b := s.scanBlock(i, f)
	if b.end > i+1 {
		b.content = s.lines[i+1 : b.end : b.end]
	}
	if indent := countPrefix(s.lines[i], ' '); indent > 0 && len(b.content) > 0 {
		// An indented fence's indentation comes off the lines inside;
		// without one the lines are the reply's own, with no copy (a
		// file of millions of short lines costs its bytes only once).
		lines := b.content
		b.content = make([]string, len(lines))
		for k, l := range lines {
			b.content[k] = l[min(indent, countPrefix(l, ' ')):]
		}
	}
	return b
}

// start is the first byte of line j after ASCII white space.
func (s *wholeReader) start(j int) byte {
	if s.starts != nil {
		return s.starts[j]
	}
	return firstByte(s.lines[j])
}

// scanBlock finds where the fence f opening at line i ends.
func (s *wholeReader) scanBlock(i int, f wfence) wholeBlock {
	b := wholeBlock{fence: i, nameLine: i, end: len(s.lines)}
	c := f.char()
	// Under a fence of backticks or tildes only a line that starts
	// with its character can close it or nest: the others of a long
	// file are passed over without trimming them.
	only := c != 0 && f.ticks >= 3
	var nested []int // lengths of the nested fences open, innermost last
	nestedAt := 0
	for j := i + 1; j < len(s.lines); j++ {
		if only && !mayStartWithByte(s.start(j), c) {
			continue
		}
		t := strings.TrimSpace(s.lines[j])
		n := 0
		if c != 0 {
			n = countPrefix(t, c)
		}
		bare := n >= 3 && strings.TrimSpace(t[n:]) == ""
		// Only a fence that could be taken for the end of the one open
		// nests: inside a longer fence, a shorter one is content.
		open := f.ticks
		if len(nested) > 0 {
			open = nested[len(nested)-1]
		}
		switch {
		case len(nested) > 0 && bare && n >= nested[len(nested)-1]:
			nested = nested[:len(nested)-1]
		case len(nested) == 0 && f.closes(t):
			b.end = j
			return b
		case n >= open && n >= 3 && !bare && (c == '~' || !strings.ContainsRune(t[n:], '`')):
			if nestedAt == 0 {
				nestedAt = j + 1
			}
			nested = append(nested, n)
		}
	}
	b.nested = nestedAt
	return b
}

// classify decides what the block b, opened by f, is, and marks its
// lines.
func (s *wholeReader) classify(b wholeBlock, f wfence) {
	last := min(b.end, len(s.lines)-1)
	mark := func(k lineKind) {
		for j := b.fence; j <= last; j++ {
			s.kind[j] = k
		}
	}
	name, nameLine := s.blockName(b.fence, f)
	switch {
	case name == "" && f.isShell():
		mark(kShell)
		s.shell = append(s.shell, Shell{Line: b.fence + 1, Lang: f.info, Text: joinLines(b.content)})
		return
	case name == "":
		// A fence under prose naming a file may be that whole file (the
		// engine decides); one left open is a snippet cut off.
		if names, at := s.proseNames(b.fence); len(names) > 0 && len(b.content) > 0 && b.end < len(s.lines) {
			if what, _ := s.otherFormat(b, f, names[0]); what == "" {
				mark(kBlock)
				b.named, b.nameLine = names, at
				b.whole = proseWhole(s.lines[at], names)
				s.blocks = append(s.blocks, b)
				return
			}
		}
		mark(kFenced)
		return
	case f.isShell() && !scriptName(name):
		mark(kShell)
		s.shell = append(s.shell, Shell{Line: b.fence + 1, Lang: f.info, Text: joinLines(b.content)})
		s.warn(b.fence+1, "the %s fence under %s (line %d) is read as shell commands, not as the whole of that file", f.lang(), name, nameLine+1)
		return
	}
	if what, at := s.otherFormat(b, f, name); what != "" {
		mark(kBlock)
		s.kind[nameLine] = kName // not prose: part of that edit
		s.warn(b.fence+1, "the block for %s is not read as a whole file: line %d holds %s", name, b.fence+2+at, what)
		return
	}
	mark(kBlock)
	if nameLine != b.fence {
		s.kind[nameLine] = kName
	}
	b.path, b.nameLine = name, nameLine
	s.blocks = append(s.blocks, b)
}

// blockName returns the file name of the fence f opening at line i and
// the line it was read from; "" when it has none.
func (s *wholeReader) blockName(i int, f wfence) (string, int) {
	above, at := "", -1
	for j := i - 1; j >= 0 && j >= i-2 && s.kind[j] == kProse; j-- {
		t := strings.TrimSpace(s.lines[j])
		if t == "" && j == i-1 {
			continue // "### src/app.py", a blank line, the fence
		}
		if n, ok := wholeNameLine(t); ok {
			above, at = n, j
		}
		break
	}
	if n := infoName(f); n != "" {
		if above != "" && above != n {
			s.warn(at+1, "the fence at line %d names %s in its info string, which wins over %s", i+1, n, above)
		}
		return n, i
	}
	return above, at
}

// proseNames returns the file names that the prose line above the
// bare fence at line i holds (one blank line may stand between), and
// that line: the names in backticks, and the words that read as paths
// (an extension or a separator). "Run it like this:" holds none.
func (s *wholeReader) proseNames(i int) ([]string, int) {
	j := i - 1
	if j >= 0 && strings.TrimSpace(s.lines[j]) == "" {
		j--
	}
	if j < 0 || s.kind[j] != kProse {
		return nil, -1
	}
	t := strings.TrimSpace(s.lines[j])
	var names []string
	add := func(n string) {
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	for _, m := range codeSpanRe.FindAllStringSubmatch(t, -1) {
		if n, ok := cleanFileName(m[1]); ok && wholeName(n, true) && !strings.ContainsAny(n, " \t") {
			add(n)
		}
	}
	for _, w := range strings.Fields(codeSpanRe.ReplaceAllString(t, " ")) {
		w = strings.Trim(w, ".,:;!?()[]{}<>\"'*_")
		if !pathLike(w) || strings.Contains(w, "://") {
			continue
		}
		// "e.g." and "i.e." read as names; a file's is longer.
		if n, ok := cleanFileName(w); ok && wholeName(n, false) && len(n) > 3 {
			add(n)
		}
	}
	if len(names) == 0 {
		return nil, -1
	}
	return names, j
}

// codeSpanRe is a Markdown code span.
var codeSpanRe = lazyRegexpOf("`([^`]+)`")

func (s *wholeReader) warn(line int, format string, args ...any) {
	s.warns = append(s.warns, warning(line, format, args...))
}

// prose gathers the prose lines and unnamed fences, one blank line
// standing for each run of them, none at the ends.
func (s *wholeReader) prose() []string {
	return collapseProse(s.lines, s.kind, len(s.lines), 1<<kProse|1<<kFenced)
}

var (
	// A list bullet before a name: "- ", "+ ", "1. ", "2) ".
	listMarkerRe = openingRegexpOf(`^(?:[-+]|\d{1,3}[.)])\s+`, "-", "+", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9")
	// A label before a name: "File: a.py", "**File:** `a.py`", "# Path: a.py".
	nameLabelRe = holdingRegexpOf(`(?i)^[#>*_\s]*(?:(?:new|updated|modified|changed|full|complete)\s+)?(?:file\s*name|file\s*path|file|path)[*_\s]*:[*_\s]*(\S.*)$`, ":")
	// A name as an attribute of the info string: path=a.py, title="a.py".
	infoAttrRe = holdingRegexpOf(`(?i)(?:^|[\s{])(?:path|file|filename|file_name|filepath|title|name)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'}]+))`, "=")
)

// wholeNameLine returns the file name the trimmed line t holds.
func wholeNameLine(t string) (string, bool) {
	t = listMarkerRe.ReplaceAllString(t, "")
	if m := nameLabelRe.FindStringSubmatch(t); m != nil {
		t = m[1]
	}
	n, ok := cleanFileName(t)
	if !ok || !wholeName(n, strings.Contains(t, "`")) {
		return "", false
	}
	return n, true
}

// infoName returns the file name the info string of f holds: the whole
// of it (```` ```src/a.py ````), after the language and a colon
// (```` ```python:src/a.py ````, but not an "12:15:src/a.py" citation
// of existing lines), as an attribute (path=, title=, ...), or as a
// word after the language (```` ```python src/a.py ````).
func infoName(f wfence) string {
	accept := func(s string) string {
		if n, ok := cleanFileName(s); ok && wholeName(n, true) {
			return n
		}
		return ""
	}
	if n := fenceName(f.fence); n != "" && !strings.Contains(n, ":") {
		return accept(n)
	}
	words := strings.Fields(f.info)
	if len(words) == 0 {
		return ""
	}
	if lang, rest, ok := strings.Cut(words[0], ":"); ok && lang != "" && strings.Trim(lang, "0123456789") != "" && pathLike(rest) {
		return accept(rest)
	}
	if m := infoAttrRe.FindStringSubmatch(f.info); m != nil {
		return accept(m[1] + m[2] + m[3])
	}
	for _, w := range words[1:] {
		if pathLike(w) {
			return accept(w)
		}
	}
	return ""
}

func pathLike(s string) bool { return strings.ContainsAny(s, `/\`) || hasExtension(s) }

// wholeName reports whether n, a cleaned file name, is one a whole
// file may have. A heading such as "### Usage" or "Input/Output" above
// an example must not become a file: a name needs an extension, a
// well-known bare name (Makefile), or a separator in a name written in
// lower case or as code. A few technologies are spelled like files. A
// colon is never in a name: "12:15:src/a.py" cites lines of a file.
func wholeName(n string, code bool) bool {
	if strings.HasSuffix(n, "/") || strings.HasSuffix(n, `\`) || strings.Contains(n, ":") {
		return false
	}
	base := n
	if i := strings.LastIndexAny(n, `/\`); i >= 0 {
		base = n[i+1:]
	}
	sep := base != n
	switch {
	case hasExtension(n):
		return sep || !techNames[strings.ToLower(n)]
	case knownBareNames[strings.ToLower(base)]:
		return true
	case sep:
		return code || !strings.ContainsFunc(n, unicode.IsUpper)
	}
	return false
}

// techNames are names of technologies that read like file names in a
// heading ("### Node.js").
var techNames = map[string]bool{
	"node.js": true, "next.js": true, "nuxt.js": true, "vue.js": true, "react.js": true,
	"express.js": true, "three.js": true, "d3.js": true, "chart.js": true, "nest.js": true,
	"socket.io": true, "asp.net": true, "ado.net": true, "vb.net": true, "angular.js": true,
}

// scriptName reports whether a shell fence named n can be the whole of
// that file: a script (run.sh), a dotfile (.bashrc) or a name without
// extension (bin/setup). "app.py" above a bash fence names the file
// the commands are about, not the file they are.
func scriptName(n string) bool {
	base := n
	if i := strings.LastIndexAny(n, `/\`); i >= 0 {
		base = n[i+1:]
	}
	dot := strings.LastIndexByte(base, '.')
	if dot <= 0 || !hasExtension(base) {
		return true
	}
	return scriptExts[strings.ToLower(base[dot+1:])]
}

var scriptExts = map[string]bool{
	"sh": true, "bash": true, "zsh": true, "ksh": true, "csh": true, "tcsh": true, "fish": true,
	"ps1": true, "psm1": true, "bat": true, "cmd": true, "command": true, "env": true,
}

// otherFormat reports whether the lines of the block b named name are
// an edit of another format rather than a file: it returns what it
// found and the index of the line, or "".
func (s *wholeReader) otherFormat(b wholeBlock, f wfence, name string) (string, int) {
	content := b.content
	lastHunk := -1
	for i, l := range content {
		// An indented fence's lines lose spaces only: their first
		// byte after them is the reply line's.
		c := s.start(b.fence + 1 + i)
		if c == '@' && strings.HasPrefix(l, "@@") {
			lastHunk = i
		}
		if !mayMarkByte(c) {
			continue
		}
		if m := editMarker(strings.TrimSpace(l)); m != "" {
			return m, i
		}
	}
	ext := strings.ToLower(name[strings.LastIndexByte(name, '.')+1:])
	if ext == "diff" || ext == "patch" {
		return "", 0
	}
	for i := 0; i+2 <= lastHunk; i++ {
		if strings.HasPrefix(content[i], "--- ") && strings.HasPrefix(content[i+1], "+++ ") {
			return "a unified diff", i
		}
	}
	switch f.lang() {
	case "diff", "patch", "udiff":
		return "a " + f.lang() + " fence", -1
	}
	return "", 0
}

// editMarker names the edit marker of another format that the trimmed
// line t is or resembles (see markerAt: near misses count, so that a
// misspelt block is never written as a file); "" when it is none.
func editMarker(t string) string {
	if m := markerAt(t); m.kind != noMarker {
		return m.describe(t)
	}
	return ""
}

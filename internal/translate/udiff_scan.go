package translate

// Finding the diffs of a reply: fenced blocks and pasted git diffs,
// and where each ends.

import (
	"strconv"
	"strings"
)

// udiffBlock is a diff found in a reply. Lines are 0-based.
type udiffBlock struct {
	open     int      // the opening fence; -1 for an unfenced git diff
	first    int      // the line of lines[0]
	lines    []string // the diff, the opening fence's indentation removed
	unclosed bool     // the fence is never closed
	name     string   // the file named by the info string or the line above, for a diff without headers
	nameLine int      // the line name was read from
}

// udiffScan is what scanUdiff found in a reply.
type udiffScan struct {
	replyLines // kind: kBlock for a diff, another format's block, or a fence line; kFenced for another fence
	blocks     []udiffBlock
	shell      []Shell
	warns      []Warning
}

// scanUdiff finds the diffs, the shell blocks and the prose of a reply.
// With first it stops at the first diff, which is all udiffAt needs.
func scanUdiff(text string, first bool) *udiffScan {
	s := &udiffScan{replyLines: newReplyLines(text)}
	for i := 0; i < len(s.lines) && !(first && len(s.blocks) > 0); {
		l := s.lines[i]
		t := strings.TrimSpace(l)
		switch {
		case udxTagAt(t, 0, false) == udxEnvelope:
			i = s.skip(i, func(l string) bool { return strings.Contains(strings.ToUpper(l), "</"+udxEnvelope) })
		case markerAt(t).kind == mkApBegin:
			i = s.skip(i, func(l string) bool { return markerAt(strings.TrimSpace(l)).kind == mkApEnd })
		case strings.HasPrefix(l, "diff --git "):
			end, warns := udiffGitEnd(s.lines, i)
			s.warns = append(s.warns, warns...)
			s.blocks = append(s.blocks, udiffBlock{open: -1, first: i, lines: s.lines[i:end]})
			s.mark(i, end, kBlock)
			i = end
		default:
			if f, ok := openFence(t); ok {
				i = s.fenced(i, f)
				continue
			}
			i++
		}
	}
	return s
}

// skip marks another format's block, from line i to the first line
// from i on for which end holds (or the end of the reply), and returns
// the line after it.
func (s *udiffScan) skip(i int, end func(string) bool) int {
	j := i
	for j < len(s.lines) && !end(s.lines[j]) {
		j++
	}
	j = min(j+1, len(s.lines))
	s.mark(i, j, kBlock)
	return j
}

func (s *udiffScan) mark(from, to int, k lineKind) {
	for i := from; i < to; i++ {
		s.kind[i] = k
	}
}

// fenced reads the fence f opening at line i, decides what it holds,
// and returns the line after it.
func (s *udiffScan) fenced(i int, f fence) int {
	lang, nameInInfo, _ := strings.Cut(f.lang(), ":")
	diffish := udiffLangs[lang] || f.info == ""
	indent := countPrefix(s.lines[i], ' ')
	end := i + 1
	for ; end < len(s.lines); end++ {
		l := s.lines[end]
		// A context line " ```" of a Markdown file is no closing fence:
		// in a diff, a fence closes at most as indented as it opened.
		if f.closes(strings.TrimSpace(l)) && (!diffish || f.ticks == 0 || countPrefix(l, ' ') <= indent) {
			break
		}
	}
	content := make([]string, 0, end-i-1)
	for _, l := range s.lines[i+1 : end] {
		content = append(content, l[min(indent, countPrefix(l, ' ')):])
	}
	next := min(end+1, len(s.lines))
	switch {
	case udiffForeign(content):
		s.mark(i, next, kBlock)
	case f.isShell() && !udiffGitFirst(content):
		s.mark(i, next, kShell)
		s.shell = append(s.shell, Shell{Line: i + 1, Lang: f.info, Text: joinLines(content)})
	case udiffGitFirst(content) || udiffHeaded(content, diffish) || diffish && udiffHunked(content):
		// A fence of another language counts only when it starts with
		// the diff (a model's ```python around a diff), so that a
		// Markdown file that shows a diff is not read as one.
		b := udiffBlock{open: i, first: i + 1, lines: content, unclosed: end == len(s.lines)}
		b.name, b.nameLine = s.blockName(i, f, nameInInfo)
		s.blocks = append(s.blocks, b)
		s.mark(i, next, kBlock)
	default:
		s.mark(i, next, kFenced)
	}
	return next
}

// udiffLangs are the fence languages of a diff.
var udiffLangs = map[string]bool{"diff": true, "patch": true, "udiff": true, "gitdiff": true}

// blockName returns the file a diff without headers edits: a path in
// the info string of its fence f (```diff src/a.py, ```diff:src/a.py),
// or on the line above the fence (one blank line may stand between).
func (s *udiffScan) blockName(i int, f fence, afterColon string) (string, int) {
	words := strings.Fields(f.info)
	if afterColon != "" {
		words = append([]string{""}, afterColon)
	}
	for _, w := range words[min(1, len(words)):] {
		if n, ok := cleanFileName(w); ok && udiffPathLike(n) {
			return n, i
		}
	}
	for j := i - 1; j >= 0 && j >= i-2 && s.kind[j] == kProse; j-- {
		t := strings.TrimSpace(s.lines[j])
		if t == "" && j == i-1 {
			continue
		}
		if n, ok := cleanFileName(t); ok && udiffPathLike(n) {
			return n, j
		}
		break
	}
	return "", 0
}

func udiffPathLike(n string) bool { return strings.ContainsAny(n, `/\`) || hasExtension(n) }

// udiffForeign reports whether the lines of a fence hold another
// format's block: a ```diff fence around SEARCH/REPLACE blocks is
// common, and their "-"/"+" lines must not be read as a diff. A near
// miss of a start marker counts (see markerAt): that format's reader
// reads the block or fails naming it.
func udiffForeign(lines []string) bool {
	for _, l := range lines {
		switch markerAt(strings.TrimSpace(l)).kind {
		case mkSearch, mkApBegin, mkUdxEnvelope, mkFiupStart, mkEditStart:
			return true
		}
	}
	return false
}

// udiffGitFirst reports whether the first non-blank line is "diff --git".
func udiffGitFirst(lines []string) bool {
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			return strings.HasPrefix(l, "diff --git ")
		}
	}
	return false
}

// udiffHeaded reports whether the lines hold a "--- "/"+++ " pair with
// an "@@" line after it. With loose the pair may stand anywhere and a
// removed or added line will do for the "@@"; otherwise the pair must
// be the first non-blank lines.
func udiffHeaded(lines []string, loose bool) bool {
	for i := 0; i+1 < len(lines); i++ {
		if !loose && strings.TrimSpace(lines[i]) == "" {
			continue
		}
		if strings.HasPrefix(lines[i], "--- ") && strings.HasPrefix(lines[i+1], "+++ ") {
			for _, l := range lines[i+2:] {
				if hunkIsHeader(l) {
					return true
				}
			}
			return loose && udiffHasChange(lines[i+2:])
		}
		if !loose {
			return false
		}
	}
	return false
}

// udiffHunked reports whether the lines hold an "@@" line followed by
// a removed or added line.
func udiffHunked(lines []string) bool {
	for i, l := range lines {
		if hunkIsHeader(l) {
			return udiffHasChange(lines[i+1:])
		}
	}
	return false
}

func udiffHasChange(lines []string) bool {
	for _, l := range lines {
		if strings.HasPrefix(l, "-") || strings.HasPrefix(l, "+") {
			return true
		}
	}
	return false
}

// udiffGitEnd returns the end (exclusive) of the unfenced git diff
// whose "diff --git" line is lines[i]: its headers, and each hunk's
// lines as far as its "@@" counts reach (git's own rule, so that a
// list after the diff or a format-patch signature "-- " is not read as
// removed lines); a blank line goes on only when another hunk or file
// follows it. A hunk without counts reaches to its last context,
// removed or added line. The warnings name lines that a hunk's counts
// leave out although they read like more of it.
func udiffGitEnd(lines []string, i int) (int, []Warning) {
	j, header := i, false
	var warn []Warning
	for j < len(lines) {
		l := lines[j]
		switch {
		case strings.HasPrefix(l, "diff --git "):
			header = true
			j++
		case strings.HasPrefix(l, "--- ") && j+1 < len(lines) && strings.HasPrefix(lines[j+1], "+++ "):
			header = true
			j++
		case header && (hunkHasPrefix(l, hunkGitHeaders) || strings.HasPrefix(l, "+++ ")):
			j++
			if strings.HasPrefix(l, "GIT binary patch") {
				j = udiffBinaryEnd(lines, j)
			}
		case hunkIsHeader(l):
			header = false
			end, over := udiffHunkEnd(lines, j)
			if over >= 0 {
				warn = append(warn, warning(over+1,
					"the @@ counts of the hunk at line %d end the diff before this line, which is read as prose; fix the counts if it belongs to the hunk", j+1))
			}
			j = end
		case l == "" && udiffGoesOn(lines, j):
			j++
		default:
			return j, warn
		}
	}
	return j, warn
}

// udiffGoesOn reports whether the blank lines from lines[j] on are
// followed by another hunk or file of a git diff.
func udiffGoesOn(lines []string, j int) bool {
	for j < len(lines) && lines[j] == "" {
		j++
	}
	return j < len(lines) && (hunkIsHeader(lines[j]) || strings.HasPrefix(lines[j], "diff --git "))
}

// udiffBinaryEnd returns the end of the data of a binary patch starting
// at lines[j]: its lines, and blank lines standing between them.
func udiffBinaryEnd(lines []string, j int) int {
	for j < len(lines) {
		switch {
		case lines[j] != "" && hunkBinaryData(lines[j]):
		case lines[j] == "" && j+1 < len(lines) && lines[j+1] != "" && hunkBinaryData(lines[j+1]):
		default:
			return j
		}
		j++
	}
	return j
}

// udiffCountsRe reads the counts of an "@@" line; a count left out is 1.
var udiffCountsRe = lazyRegexpOf(`^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@`)

// udiffHunkEnd returns the end of the hunk whose "@@" line is lines[i]:
// as far as its counts reach, else to its last context, removed or
// added line (a blank line goes on only when such a line follows it).
// overrun is the line after a counted hunk when that line reads like
// more of it: the counts were too small.
func udiffHunkEnd(lines []string, i int) (end, overrun int) {
	j := i + 1
	if m := udiffCountsRe.FindStringSubmatch(lines[i]); m != nil {
		old, new := udiffCount(m[1]), udiffCount(m[2])
		for ; j < len(lines) && (old > 0 || new > 0 || strings.HasPrefix(lines[j], `\ `)); j++ {
			l := lines[j]
			switch {
			case l == "" || l[0] == ' ':
				old, new = old-1, new-1
			case l[0] == '-':
				old--
			case l[0] == '+':
				new--
			case strings.HasPrefix(l, `\ `):
			default:
				return j, -1
			}
		}
		if j < len(lines) && udiffBodyLine(lines[j]) && !hunkStartsFile(lines, j) {
			return j, j
		}
		return j, -1
	}
	for j < len(lines) {
		l := lines[j]
		switch {
		case l == "":
			k := j
			for k < len(lines) && lines[k] == "" {
				k++
			}
			if k == len(lines) || !udiffBodyLine(lines[k]) {
				return j, -1
			}
			j = k
		case udiffBodyLine(l) && !hunkStartsFile(lines, j), strings.HasPrefix(l, `\ `):
			j++
		default:
			return j, -1
		}
	}
	return j, -1
}

// udiffBodyLine reports whether l is a context, removed or added line.
func udiffBodyLine(l string) bool {
	return l != "" && (l[0] == ' ' || l[0] == '-' || l[0] == '+') && l != "-- " && l != "--"
}

func udiffCount(s string) int {
	if s == "" {
		return 1
	}
	n, err := strconv.Atoi(s)
	if err != nil || n > 1<<20 {
		return 1 << 20
	}
	return n
}

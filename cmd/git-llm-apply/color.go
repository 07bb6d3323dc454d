package main

// Colour, as git colours: the report on standard error and translate's
// diff on standard output, each decided apart (README, Use). Reply text
// still goes through termWriter: only our own SGR sequences, constants
// all, reach a stream unescaped.

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"golang.org/x/term"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops"
)

// slot names what a piece of output is, for its colour.
type slot int

const (
	slotPlain   slot = iota
	slotError        // "error:"
	slotWarning      // "warning:"
	slotNew          // added lines and counts, a created file
	slotOld          // removed lines and counts, a deleted file
	slotDiffers      // a quoted line that differs from the edit's
	slotMeta         // a diff's file header lines
	slotFrag         // a hunk header's "@@ ... @@"
)

// sgr holds the colours of git's defaults: color.diff's meta, frag, old
// and new, the diffstat's counts, and the bold red and yellow git gives
// errors and warnings (color.push.error, color.advice).
var sgr = map[slot]string{
	slotError:   "\x1b[1;31m",
	slotWarning: "\x1b[1;33m",
	slotNew:     "\x1b[32m",
	slotOld:     "\x1b[31m",
	slotDiffers: "\x1b[31m",
	slotMeta:    "\x1b[1m",
	slotFrag:    "\x1b[36m",
}

const sgrReset = "\x1b[m"

// painter writes a report: its text through termWriter, escaped, and,
// when on, each painted piece between a colour sequence and a reset
// written straight to the stream. With colour off it writes the same
// bytes as fmt.Fprintf on the text writer.
type painter struct {
	text io.Writer // the stream through termWriter (or, for a pipe's diff, as is)
	raw  io.Writer // the stream itself
	on   bool
}

func (p *painter) Write(b []byte) (int, error) { return p.text.Write(b) }

// paint writes format's text in the colour of s.
func (p *painter) paint(s slot, format string, args ...any) {
	code := sgr[s]
	if !p.on || code == "" {
		fmt.Fprintf(p.text, format, args...)
		return
	}
	io.WriteString(p.raw, code)
	fmt.Fprintf(p.text, format, args...)
	io.WriteString(p.raw, sgrReset)
}

// colorFor decides whether w gets colour: the command line's when
// (--color, --no-color; "" when not given), then NO_COLOR, then
// config (gitops.Repo.ColorConfig; called only when the flags and
// NO_COLOR leave it open), then auto. Only an explicit always beats
// NO_COLOR (https://no-color.org).
func colorFor(w io.Writer, when string, config func() (string, error)) (bool, error) {
	if when == "" && os.Getenv("NO_COLOR") == "" && config != nil {
		var err error
		if when, err = config(); err != nil {
			return false, err
		}
	}
	switch {
	case when == "always":
		return true, nil
	case when == "never" || os.Getenv("NO_COLOR") != "":
		return false, nil
	}
	// auto, as git's check_auto_color: a terminal that is not dumb,
	// or, for standard output, the pager git started for us (git -p
	// llm-apply, pager.llm-apply), which git tells its commands with
	// GIT_PAGER_IN_USE.
	t := os.Getenv("TERM")
	return (isTerminal(w) || isStdout(w) && pagerInUse()) && t != "" && t != "dumb", nil
}

func isStdout(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && f.Fd() == 1
}

// pagerInUse reads GIT_PAGER_IN_USE as git does, a boolean.
func pagerInUse() bool {
	v := strings.ToLower(os.Getenv("GIT_PAGER_IN_USE"))
	switch v {
	case "true", "yes", "on":
		return true
	}
	n, err := strconv.Atoi(v)
	return err == nil && n != 0
}

// withColor decides the colour of both outputs of a run in repo (nil
// outside one): the config is read once, only when needed.
func (s streams) withColor(o commonOptions, repo *gitops.Repo) (streams, error) {
	var config func() (string, error)
	if repo != nil {
		var when string
		var err error
		read := false
		config = func() (string, error) {
			if !read {
				when, err = repo.ColorConfig("llm-apply")
				read = true
			}
			return when, err
		}
	}
	var err error
	if s.errColor, err = colorFor(s.rawErr, o.Color, config); err != nil {
		return s, err
	}
	if s.outColor, err = colorFor(s.out, o.Color, config); err != nil {
		return s, err
	}
	return s, nil
}

// reportPainter is the painter of the human report on standard error.
func (s streams) reportPainter() *painter {
	return &painter{text: s.err, raw: s.rawErr, on: s.errColor}
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// writeDiff writes a diff translate prints on standard output: on a
// pipe or in a file, uncoloured, as it is, for git apply; else through
// termWriter, and coloured when on byte for byte as git diff colours
// with color.diff's defaults and core.whitespace's (see paintDiffLine).
func writeDiff(w io.Writer, patch []byte, on bool) error {
	if !on {
		_, err := forTerminal(w).Write(patch)
		return err
	}
	// Several writes a line: buffered, or a long diff crawls onto the
	// terminal one system call at a time.
	bw := bufio.NewWriter(w)
	p := &painter{text: termWriter{bw}, raw: bw, on: true}
	for _, l := range diffLines(patch) {
		paintDiffLine(p, l)
	}
	return bw.Flush()
}

// sgrWhitespace is color.diff.whitespace's default, a red background.
const sgrWhitespace = "\x1b[41m"

// paintDiffLine writes one line as git diff writes it in colour: the
// file header lines bold and the hunk header's "@@ ... @@" cyan, each
// piece followed by a reset, context (and "\ No newline") lines plain
// but for a reset at their end, a removed line red. An added line has
// its "+" green and its text checked as core.whitespace's default
// rules check it (only added lines are, git's --ws-error-highlight
// default): white space at the end of the line, and spaces before a
// tab in the indentation, on a red background, the tabs of the
// indentation plain; a blank line added at the end of the file is
// red-backed whole, "+" included.
func paintDiffLine(p *painter, l diffLine) {
	text, nl := strings.CutSuffix(l.text, "\n")
	raw := func(code string) { io.WriteString(p.raw, code) }
	switch {
	case l.slot == slotFrag:
		i := strings.Index(text[min(2, len(text)):], "@@")
		if i < 0 {
			p.paint(slotMeta, "%s", text) // not reached: diffLines saw "@@ -"
			break
		}
		end := 2 + i + 2
		p.paint(slotFrag, "%s", text[:end])
		rest := text[end:]
		name := strings.TrimLeft(rest, " \t")
		if blank := rest[:len(rest)-len(name)]; blank != "" {
			io.WriteString(p, blank)
			raw(sgrReset)
		}
		if name != "" {
			io.WriteString(p, name)
			raw(sgrReset)
		}
	case l.slot == slotNew && l.eofBlank:
		raw(sgrWhitespace)
		io.WriteString(p, text)
		raw(sgrReset)
	case l.slot == slotNew:
		p.paint(slotNew, "+")
		paintAdded(p, text[1:])
	case l.slot == slotPlain && l.body:
		io.WriteString(p, text)
		raw(sgrReset)
	default:
		p.paint(l.slot, "%s", text)
	}
	if nl {
		io.WriteString(p, "\n")
	}
}

// paintAdded writes the text of an added line, after its "+", checked
// for white space errors as git's ws_check_emit does with the rules
// blank-at-eol and space-before-tab.
func paintAdded(p *painter, text string) {
	trail := len(strings.TrimRight(text, " \t\v\f\r"))
	written := 0
	for i := 0; i < trail; i++ {
		if text[i] == ' ' {
			continue
		}
		if text[i] != '\t' {
			break
		}
		if written < i { // spaces before a tab
			io.WriteString(p.raw, sgrWhitespace)
			io.WriteString(p, text[written:i])
			io.WriteString(p.raw, sgrReset)
		}
		io.WriteString(p, "\t")
		written = i + 1
	}
	if written < trail {
		p.paint(slotNew, "%s", text[written:trail])
	}
	if trail < len(text) {
		io.WriteString(p.raw, sgrWhitespace)
		io.WriteString(p, text[trail:])
		io.WriteString(p.raw, sgrReset)
	}
}

// diffLine is one line of a diff and what it is.
type diffLine struct {
	text string // with its line feed
	slot slot
	// body: a line of a hunk's body (context, removed, added, or "\ No
	// newline at end of file").
	body bool
	// eofBlank: an added blank line among those a hunk ends with,
	// which then end the new file (a hunk reaches on to the next
	// change or its context lines, so one ending in added lines ends
	// at the end of the file), core.whitespace's blank-at-eof.
	eofBlank bool
}

// diffLines classifies a git diff's lines: a hunk's body is read by its
// header's counts, so that a removed line "--- x" is not taken for a
// file header; after "GIT binary patch" the data lines are plain.
func diffLines(patch []byte) []diffLine {
	var out []diffLine
	old, new := 0, 0
	inHunk, binary := false, false
	for _, l := range strings.SplitAfter(string(patch), "\n") {
		if l == "" {
			continue
		}
		s := slotMeta
		body := inHunk && (old > 0 || new > 0)
		switch {
		case body && l[0] == '-':
			s, old = slotOld, old-1
		case body && l[0] == '+':
			s, new = slotNew, new-1
		case body && l[0] == ' ':
			s, old, new = slotPlain, old-1, new-1
		case inHunk && l[0] == '\\': // "\ No newline at end of file"
			s = slotPlain
		case strings.HasPrefix(l, "diff --git "):
			inHunk, binary = false, false
		case strings.HasPrefix(l, "@@ -"):
			s, inHunk = slotFrag, true
			old, new = hunkCounts(l)
		case binary:
			s = slotPlain
		case strings.HasPrefix(l, "GIT binary patch"):
			binary = true
		}
		out = append(out, diffLine{text: l, slot: s, body: body || inHunk && l[0] == '\\'})
	}
	markBlankAtEOF(out)
	return out
}

// markBlankAtEOF marks the added lines git's blank-at-eof rule flags:
// blank lines that a hunk reaching the end of the file adds to the
// blank lines the file ends with, when the new file ends with more of
// them than the old one. A hunk reaches the end of the file when fewer
// than translate's 3 lines of context follow its last change.
func markBlankAtEOF(lines []diffLine) {
	for h := 0; h < len(lines); h++ {
		if lines[h].slot != slotFrag {
			continue
		}
		e := h + 1
		for e < len(lines) && lines[e].body {
			e++
		}
		markHunkBlankAtEOF(lines[h].text, lines[h+1:e])
		h = e - 1
	}
}

func markHunkBlankAtEOF(header string, body []diffLine) {
	blank := func(l diffLine) bool { return strings.TrimSpace(l.text[1:]) == "" }
	// The old and the new file's trailing blank lines, as far as the
	// hunk shows them, and the context after the last change.
	oldBlank, newBlank, trailing := 0, 0, 0
	oldDone, newDone, changed := false, false, false
	for i := len(body) - 1; i >= 0; i-- {
		l := body[i]
		c := l.text[0]
		if c == '\\' {
			continue
		}
		if c != ' ' {
			changed = true
		} else if !changed {
			trailing++
		}
		if c != '+' && !oldDone {
			if blank(l) {
				oldBlank++
			} else {
				oldDone = true
			}
		}
		if c != '-' && !newDone {
			if blank(l) {
				newBlank++
			} else {
				newDone = true
			}
		}
	}
	if trailing >= 3 || newBlank <= oldBlank {
		return
	}
	oldStart, oldCount, newStart, newCount := hunkRanges(header)
	// The first line of each side's blank end. A side with no line
	// names the line before it ("-0,0" for a new file): git's count
	// then puts the blank end past its line counter, flagging nothing
	// in a file that did not exist.
	oldFrom := oldStart + oldCount - oldBlank
	if oldCount == 0 {
		oldFrom = oldStart + 1
	}
	newFrom := newStart + newCount - newBlank
	oldAt, newAt := oldStart, newStart // the next line of each side
	for i := range body {
		switch body[i].text[0] {
		case '+':
			if newAt >= newFrom && oldAt >= oldFrom && blank(body[i]) {
				body[i].eofBlank = true
			}
			newAt++
		case '-':
			oldAt++
		case ' ':
			oldAt++
			newAt++
		}
	}
}

// hunkRanges reads the starts and counts of "@@ -a[,b] +c[,d] @@".
func hunkRanges(header string) (oldStart, oldCount, newStart, newCount int) {
	f := strings.Fields(header)
	if len(f) < 3 {
		return 0, 0, 0, 0
	}
	start := func(r string) int {
		a, _, _ := strings.Cut(r[1:], ",")
		n, _ := strconv.Atoi(a)
		return n
	}
	oldCount, newCount = hunkCounts(header)
	return start(f[1]), oldCount, start(f[2]), newCount
}

// hunkCounts reads the line counts of "@@ -a[,b] +c[,d] @@" (1 when a
// count is left out, as git writes a one-line side).
func hunkCounts(header string) (old, new int) {
	f := strings.Fields(header)
	if len(f) < 3 {
		return 0, 0
	}
	count := func(r string) int {
		_, c, ok := strings.Cut(r, ",")
		if !ok {
			return 1
		}
		n, _ := strconv.Atoi(c)
		return n
	}
	return count(f[1]), count(f[2])
}

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

	"github.com/git-llm-apply/git-llm-apply/gitops"
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
	// auto, as git's check_auto_color: a terminal that is not dumb.
	t := os.Getenv("TERM")
	return isTerminal(w) && t != "" && t != "dumb", nil
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
// termWriter, and coloured when on as git diff colours (color.diff's
// defaults: the file header bold, the hunk header's "@@ ... @@" cyan,
// removed lines red, added green, context and the hunk header's
// function name plain).
func writeDiff(w io.Writer, patch []byte, on bool) error {
	if !on {
		_, err := forTerminal(w).Write(patch)
		return err
	}
	// Three writes a line: buffered, or a long diff crawls onto the
	// terminal one system call at a time.
	bw := bufio.NewWriter(w)
	p := &painter{text: termWriter{bw}, raw: bw, on: true}
	for _, l := range diffLines(patch) {
		text, nl := strings.CutSuffix(l.text, "\n")
		if i := strings.Index(text[min(2, len(text)):], "@@"); l.slot == slotFrag && i >= 0 {
			end := 2 + i + 2
			p.paint(slotFrag, "%s", text[:end])
			io.WriteString(p, text[end:])
		} else {
			p.paint(l.slot, "%s", text)
		}
		if nl {
			bw.WriteByte('\n')
		}
	}
	return bw.Flush()
}

// diffLine is one line of a diff and what it is.
type diffLine struct {
	text string // with its line feed
	slot slot
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
		out = append(out, diffLine{l, s})
	}
	return out
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

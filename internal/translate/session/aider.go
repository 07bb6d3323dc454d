package session

import (
	"bufio"
	"errors"
	"io"
	"path"
	"strings"

	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// aider appends its chat to .aider.chat.history.md through its io
// (aider/io.py): "# aider chat started at TIME" when it starts; each
// user input as "#### " lines (user_input); each model reply as plain
// text between blank lines (ai_output); and its own output as "> "
// lines ending in the two spaces of a Markdown line break
// (append_chat_history with blockquote). A multi-line output is written
// as one text: only its first line has the "> ", and only its last the
// two spaces, so the lines between are read as the same output.
//
// Every "#### " block is a request, aider's commands included: /test
// and /lint send their output to the model, and a command that does
// not just gives a turn without edits. A turn runs to the next request
// or the next "# aider chat started at".
//
// Each reply (the model's text between two outputs of aider) is read
// by translate.Parse in "auto". What aider printed after it says which
// of its edits were made (aider/coders/base_coder.py apply_updates,
// editblock_coder.py apply_edits):
//   - "# N SEARCH/REPLACE block(s) failed to match!" lists each failed
//     block ("## SearchReplaceNoExactMatch: ... lines in PATH" and the
//     block); those are skipped and the reply's other edits were made;
//   - "The LLM did not conform to the edit format." with no such list:
//     aider could not read the reply and made none of its edits;
//   - otherwise the files of "Applied edit to PATH" are the ones edited;
//     an edit of another file (a snippet in an /ask answer, an
//     architect's proposal, a reply cut short) was not made.
type aiderReader struct {
	lines    lines
	n        int
	b        builder
	msg      *aiderMsg // the reply being read, or awaiting aider's output
	inMsg    bool      // the last non-blank line was model text
	cont     bool      // inside a multi-line output of aider
	report   bool      // that output is a failed-to-match report
	reportOK bool      // its closing sentence was seen
	req      []string  // the request being read
	reqLine  int
	pending  []*Turn // turns finished, to return in order
}

// aiderMsg is one reply of the model and what aider printed after it.
type aiderMsg struct {
	start int      // log line of its first line
	text  []string // its lines, from start on
	out   []string // aider's output after it, "> " and line breaks removed
}

func newAiderReader(r *bufio.Reader) *aiderReader {
	return &aiderReader{lines: lines{r: r}}
}

func (a *aiderReader) next() (*Turn, error) {
	for {
		if len(a.pending) > 0 {
			t := a.pending[0]
			a.pending = a.pending[1:]
			return t, nil
		}
		raw, ok := a.lines.next()
		if !ok {
			if a.lines.err != nil {
				return nil, a.lines.err
			}
			a.endRequest()
			a.close()
			if a.b.empty() {
				return nil, io.EOF
			}
			a.pending = append(a.pending, a.b.finish())
			continue
		}
		a.line(string(raw), a.lines.n)
	}
}

// line reads one log line.
func (a *aiderReader) line(s string, n int) {
	trimmed := strings.TrimRight(s, " \t")
	twoSpaces := len(s)-len(strings.TrimRight(s, " ")) >= 2
	if a.cont {
		if strings.HasPrefix(s, "#### ") || strings.HasPrefix(s, "# aider chat started at") {
			a.cont = false
		} else {
			a.output(strings.TrimPrefix(trimmed, "> "))
			if a.report && strings.HasPrefix(trimmed, "The SEARCH section must exactly match") {
				a.reportOK = true
			}
			if twoSpaces && (!a.report || a.reportOK) {
				a.cont = false
			}
			return
		}
	}
	switch {
	case strings.HasPrefix(s, "# aider chat started at"):
		a.endRequest()
		a.close()
		a.inMsg = false
		if !a.b.empty() {
			a.pending = append(a.pending, a.b.finish())
		}
	case (strings.HasPrefix(s, "#### ") || trimmed == "####") && (twoSpaces || !a.inMsg):
		// aider ends every line of a request with two spaces; within a
		// reply, a "#### " line without them is the reply's heading.
		if a.req == nil {
			a.close()
			a.inMsg = false
			a.reqLine = n
		}
		text := strings.TrimPrefix(strings.TrimPrefix(trimmed, "####"), " ")
		if text == "<blank>" {
			text = ""
		}
		a.req = append(a.req, text)
	case (strings.HasPrefix(s, "> ") || trimmed == ">") && (twoSpaces || !a.inMsg):
		a.endRequest()
		a.inMsg = false
		out := strings.TrimPrefix(strings.TrimPrefix(trimmed, ">"), " ")
		if !twoSpaces {
			// The first line of a multi-line output.
			a.cont = true
			a.report = isReportHead(out)
			a.reportOK = false
		}
		a.output(out)
	case trimmed == "":
		a.endRequest()
		if a.msg != nil && a.inMsg {
			a.msg.text = append(a.msg.text, "")
		}
	default:
		a.endRequest()
		if !a.inMsg {
			a.close()
			a.msg = &aiderMsg{start: n}
			a.inMsg = true
		}
		a.msg.text = append(a.msg.text, s)
	}
}

// output keeps a line of aider's output for the reply before it.
func (a *aiderReader) output(s string) {
	if a.msg != nil {
		a.msg.out = append(a.msg.out, s)
	}
}

// endRequest opens the turn of the request just read.
func (a *aiderReader) endRequest() {
	if a.req == nil {
		return
	}
	if !a.b.empty() {
		a.pending = append(a.pending, a.b.finish())
	}
	a.n++
	a.b.open(a.n, a.reqLine, strings.Join(a.req, "\n"))
	a.req = nil
}

func isReportHead(s string) bool {
	return strings.HasPrefix(s, "# ") && (strings.Contains(s, "SEARCH/REPLACE block failed to match!") || strings.Contains(s, "SEARCH/REPLACE blocks failed to match!"))
}

// close reads the reply kept and decides, from aider's output after
// it, which of its edits the turn replays.
func (a *aiderReader) close() {
	m := a.msg
	a.msg = nil
	if m == nil {
		return
	}
	for len(m.text) > 0 && strings.TrimSpace(m.text[len(m.text)-1]) == "" {
		m.text = m.text[:len(m.text)-1]
	}
	text := strings.Join(m.text, "\n")
	r, err := translate.Parse(text, translate.ParseOptions{Format: "auto"})
	if r == nil || errors.Is(err, translate.ErrNoEdits) && len(r.Ops) == 0 {
		a.b.say(text)
		return
	}
	a.b.say(strings.Join(r.Prose, "\n"))
	at := func(l int) int {
		if l < 1 {
			return m.start
		}
		return m.start + l - 1
	}
	v := readOutput(m.out)
	// made: aider made some of the reply's edits.
	made := len(v.failed) > 0 || !v.malformed && !v.dryRun && len(v.applied) > 0
	var perr *translate.ParseError
	if errors.As(err, &perr) {
		if made {
			a.b.failed = append(a.b.failed, translate.Failure{Line: at(perr.Line), Msg: perr.Msg})
		} else {
			a.b.skip(at(perr.Line), "", "unreadable, and "+v.none())
		}
	}
	used := make([]bool, len(v.failed))
	for _, op := range r.Ops {
		op.Line = at(op.Line)
		why := ""
		switch {
		case len(v.failed) > 0:
			if i := matchFailed(&op, v.failed, used); i >= 0 {
				why = "aider: the SEARCH block failed to match lines in " + v.failed[i].path
			}
		case !made:
			why = v.none()
		case !appliedTo(&op, v.applied):
			why = "aider reported no edit to this file"
		}
		if why != "" {
			a.b.skip(op.Line, opPath(&op), why)
			continue
		}
		a.b.ops = append(a.b.ops, op)
	}
	for i, f := range v.failed {
		if !used[i] {
			a.b.warn(m.start, "aider reported a failed block in "+f.path+" that no edit of the reply matches")
		}
	}
	if !made {
		for _, f := range r.Failed {
			a.b.skip(at(f.Line), f.Path, "unreadable, and "+v.none())
		}
		return
	}
	for _, f := range r.Failed {
		f.Line = at(f.Line)
		a.b.failed = append(a.b.failed, f)
	}
	for _, w := range r.Warnings {
		a.b.warn(at(w.Line), w.Msg)
	}
	for _, s := range r.Shell {
		s.Line = at(s.Line)
		a.b.shell = append(a.b.shell, s)
	}
}

// aiderVerdict is what aider's output after a reply says of it.
type aiderVerdict struct {
	applied   []string // "Applied edit to PATH"
	failed    []failedBlock
	malformed bool   // "did not conform" with no failed blocks
	why       string // the first line of aider's error
	dryRun    bool
}

type failedBlock struct {
	path     string
	old, new []string
}

// none says why aider made none of a reply's edits.
func (v *aiderVerdict) none() string {
	switch {
	case v.malformed:
		return "aider could not read the reply: " + v.why
	case v.dryRun:
		return "aider did not apply the reply (--dry-run)"
	}
	return "aider applied no edit of this reply"
}

func readOutput(out []string) aiderVerdict {
	var v aiderVerdict
	conform := false
	for i := 0; i < len(out); i++ {
		l := out[i]
		switch {
		case strings.HasPrefix(l, "Applied edit to "):
			v.applied = append(v.applied, strings.TrimPrefix(l, "Applied edit to "))
		case strings.HasPrefix(l, "Did not apply edit to "):
			v.dryRun = true
		case strings.HasPrefix(l, "The LLM did not conform to the edit format."):
			conform = true
		case strings.HasPrefix(l, "## SearchReplaceNoExactMatch:"):
			f := failedBlock{path: l[strings.LastIndex(l, " lines in ")+len(" lines in "):]}
			if !strings.Contains(l, " lines in ") {
				f.path = ""
			}
			i++
			for i < len(out) && out[i] != "<<<<<<< SEARCH" {
				i++
			}
			side := &f.old
			for i++; i < len(out) && out[i] != ">>>>>>> REPLACE"; i++ {
				if out[i] == "=======" && side == &f.old {
					side = &f.new
					continue
				}
				*side = append(*side, out[i])
			}
			v.failed = append(v.failed, f)
		case conform && v.why == "" && strings.TrimSpace(l) != "" && !strings.HasPrefix(l, "http"):
			v.why = l
		}
	}
	v.malformed = conform && len(v.failed) == 0
	return v
}

// matchFailed finds the failed block an operation is: the same SEARCH
// lines (aider's output lost their trailing blanks) and the same
// REPLACE lines, first by exact lines, then by lines with their spaces
// trimmed.
func matchFailed(op *translate.Operation, failed []failedBlock, used []bool) int {
	var old []string
	old = append(old, op.Before...)
	old = append(old, op.Old...)
	old = append(old, op.After...)
	for _, loose := range []bool{false, true} {
		for i, f := range failed {
			if !used[i] && sameLines(old, f.old, loose) && sameLines(op.NewLines(), f.new, loose) {
				used[i] = true
				return i
			}
		}
	}
	return -1
}

func sameLines(a, b []string, loose bool) bool {
	norm := func(s []string) []string {
		var out []string
		for _, l := range s {
			l = strings.TrimRight(l, " \t")
			if loose {
				l = strings.Join(strings.Fields(l), " ")
			}
			out = append(out, l)
		}
		for len(out) > 0 && out[len(out)-1] == "" {
			out = out[:len(out)-1]
		}
		for len(out) > 0 && out[0] == "" {
			out = out[1:]
		}
		return out
	}
	x, y := norm(a), norm(b)
	if len(x) != len(y) {
		return false
	}
	for i := range x {
		if x[i] != y[i] {
			return false
		}
	}
	return true
}

// appliedTo reports whether aider said it edited the file of op.
func appliedTo(op *translate.Operation, applied []string) bool {
	names := append([]string{op.Path, op.NewPath}, op.ProseNames...)
	for _, n := range names {
		if n == "" {
			continue
		}
		for _, a := range applied {
			if samePath(n, a) {
				return true
			}
		}
	}
	return false
}

// samePath: the same path, or one ends with the other at a slash (aider
// prints paths relative to the repository; a reply may name them from
// a subdirectory or in full).
func samePath(a, b string) bool {
	a = path.Clean(strings.ReplaceAll(strings.TrimSpace(a), "\\", "/"))
	b = path.Clean(strings.ReplaceAll(strings.TrimSpace(b), "\\", "/"))
	return a == b || strings.HasSuffix(a, "/"+b) || strings.HasSuffix(b, "/"+a)
}

func opPath(op *translate.Operation) string {
	if op.Path == "" && len(op.ProseNames) > 0 {
		return op.ProseNames[0]
	}
	return op.Path
}

package translate

// The tool calls that Cline and Roo Code have their models write as
// XML-like tags in the reply text: <replace_in_file> (Cline),
// <apply_diff> (Roo Code) and <write_to_file> (both). Cline reads them
// with src/core/assistant-message/parse-assistant-message.ts, Roo Code
// with its own copy of it; both take a tool's parameters as the text
// between <name> and </name>, and the file content up to the last
// </content> of the call, so that a file holding that tag survives.
// What is here finds the calls line by line, for detection, for the
// masking that keeps other readers out of them, and for the two
// readers (cline.go, roo.go).

import (
	"fmt"
	"strconv"
	"strings"
)

// Format names of the agent tool calls.
const (
	// FormatCline: Cline's <replace_in_file> and <write_to_file>.
	FormatCline = "cline"
	// FormatRoo: Roo Code's <apply_diff> and <write_to_file>.
	FormatRoo = "roo"
)

// The tools, as their tags spell them.
const (
	toolReplaceInFile = "replace_in_file"
	toolApplyDiff     = "apply_diff"
	toolWriteToFile   = "write_to_file"
)

var agentTools = [...]string{toolReplaceInFile, toolApplyDiff, toolWriteToFile}

// agentCall is one tool call of a reply: the lines from its opening
// tag to its closing tag.
type agentCall struct {
	tool string
	// open and end are 0-based reply lines: the opening tag's, and the
	// closing tag's, or the last line the call reaches when it has no
	// closing tag (closed false).
	open, end int
	closed    bool
	// spelled is the opening tag as written when it is a near miss
	// ("<Apply-Diff>"); "" when it is spelt as the tool spells it.
	spelled string
	// owner is the format that reads the call in a reply read by
	// format detection (see callOwners).
	owner string
}

// agentTagAt reads an agent tool's tag at the start of the trimmed line
// t: "<replace_in_file>", "</apply_diff>", ... Another case, and "-"
// or nothing in place of "_", are near misses (exact false); any
// other tag is none (tool "").
func agentTagAt(t string) (tool string, closing, exact bool, size int) {
	if len(t) < 3 || t[0] != '<' {
		return "", false, false, 0
	}
	i := 1
	if t[1] == '/' {
		closing, i = true, 2
	}
	j := i
	for j < len(t) && (apIsLetter(t[j]) || t[j] == '_' || t[j] == '-') {
		j++
	}
	if j >= len(t) || t[j] != '>' {
		return "", false, false, 0
	}
	name := t[i:j]
	for _, tool := range agentTools {
		if foldTool(name, tool) {
			return tool, closing, name == tool, j + 1
		}
	}
	return "", false, false, 0
}

// foldTool reports whether name is tool in any case, with "-" or
// nothing for its "_". It allocates nothing: detection asks it of
// every line that starts with a tag.
func foldTool(name, tool string) bool {
	j := 0
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c == '_' || c == '-' {
			continue
		}
		for j < len(tool) && tool[j] == '_' {
			j++
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if j == len(tool) || c != tool[j] {
			return false
		}
		j++
	}
	return j == len(tool)
}

// hasAgentCall reports whether a line of text starts with an agent
// tool's opening tag, without splitting text into lines: most replies
// have none, and some have millions of lines.
//
// It jumps from one '<' to the next, the lines without one never
// looked at byte by byte: trimming every line of a million-line reply
// (a whole file) to look at its first byte cost more than reading it.
func hasAgentCall(text string) bool {
	for at := 0; at < len(text); {
		i := strings.IndexByte(text[at:], '<')
		if i < 0 {
			return false
		}
		i += at
		end := strings.IndexByte(text[i:], '\n')
		if end < 0 {
			end = len(text) - i
		}
		if start := at + strings.LastIndexByte(text[at:i], '\n') + 1; blanks(text[start:i]) {
			if tool, closing, _, _ := agentTagAt(strings.TrimRight(text[i:i+end], " \t\r")); tool != "" && !closing {
				return true
			}
		}
		at = i + end + 1 // a line's first '<' decides it
	}
	return false
}

// blanks reports whether s is only spaces and tabs.
func blanks(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != ' ' && s[i] != '\t' {
			return false
		}
	}
	return true
}

// agentCalls finds the tool calls of a reply (its lines), in order. A
// call starts at a line that starts with a tool's opening tag and runs
// to its closing tag; a file's content or a diff may hold that closing
// tag, so the call ends at the first closing tag after the first end
// of its content (</content>, </diff> or </args>). A call without
// its closing tag runs to the last line that ends its content, or to
// the line before the next call.
func agentCalls(lines []string) []agentCall {
	var opens []int
	var tools []string
	var spelled []string
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if tool, closing, exact, size := agentTagAt(t); tool != "" && !closing {
			opens, tools = append(opens, i), append(tools, tool)
			s := ""
			if !exact {
				s = t[:size]
			}
			spelled = append(spelled, s)
		}
	}
	calls := make([]agentCall, 0, len(opens))
	for k, open := range opens {
		bound := len(lines) // the next call's line
		if k+1 < len(opens) {
			bound = opens[k+1]
		}
		c := agentCall{tool: tools[k], open: open, end: bound - 1, spelled: spelled[k]}
		// Blank lines before the next call are no part of this one.
		for c.end > open && strings.TrimSpace(lines[c.end]) == "" {
			c.end--
		}
		inner := "diff"
		switch {
		case c.tool == toolWriteToFile:
			inner = "content"
		case c.tool == toolApplyDiff && lineWith(lines, open, bound, "<args>", 0) >= 0:
			inner = "args"
		}
		from := open
		if at := lineWith(lines, open, bound, "<"+inner+">", 0); at >= 0 {
			if first := lineWith(lines, at, bound, "</"+inner+">", 0); first >= 0 {
				from = first
			}
		}
		if e := lineWith(lines, from, bound, "</"+c.tool+">", 0); e >= 0 {
			c.end, c.closed = e, true
		} else if e := lastLineWith(lines, open, bound, "</"+inner+">"); e >= 0 {
			c.end = e
		}
		calls = append(calls, c)
	}
	return calls
}

// lineWith returns the first line in [from, to) holding s (the first
// one after byte skip on line from), or -1.
func lineWith(lines []string, from, to int, s string, skip int) int {
	for i := from; i < to && i < len(lines); i++ {
		l := lines[i]
		if i == from && skip > 0 {
			if skip > len(l) {
				continue
			}
			l = l[skip:]
		}
		if strings.Contains(l, s) {
			return i
		}
	}
	return -1
}

// lastLineWith returns the last line in [from, to) holding s, or -1.
func lastLineWith(lines []string, from, to int, s string) int {
	for i := min(to, len(lines)) - 1; i >= from; i-- {
		if strings.Contains(lines[i], s) {
			return i
		}
	}
	return -1
}

// callOwners says which format reads each call of a reply read by
// detection: <replace_in_file> is Cline's, <apply_diff> Roo Code's. A
// <write_to_file> is Roo Code's when it carries <line_count> (Roo
// Code's parameter; Cline's tool has none), or when the reply holds
// an <apply_diff> and no <replace_in_file>; otherwise Cline's. Both
// tools write the whole file, so the choice decides only the name the
// report gives the format.
func callOwners(lines []string, calls []agentCall) {
	cline, roo := false, false
	for _, c := range calls {
		cline = cline || c.tool == toolReplaceInFile
		roo = roo || c.tool == toolApplyDiff
	}
	for i := range calls {
		c := &calls[i]
		switch {
		case c.tool == toolReplaceInFile:
			c.owner = FormatCline
		case c.tool == toolApplyDiff:
			c.owner = FormatRoo
		case lineWith(lines, c.open, c.end+1, "<line_count>", 0) >= 0 && lastLineWith(lines, c.open, c.end+1, "</content>") < lastLineWith(lines, c.open, c.end+1, "<line_count>"):
			c.owner = FormatRoo
		case roo && !cline:
			c.owner = FormatRoo
		default:
			c.owner = FormatCline
		}
	}
}

// maskCalls returns text with the lines of every call that keep does
// not keep made blank, so that a reader meets neither their markers
// nor their content; the reply keeps its line numbers. The text
// itself comes back when nothing is masked.
func maskCalls(text string, keep func(agentCall) bool) string {
	if !hasAgentCall(text) {
		return text
	}
	lines := splitLines(text)
	calls := agentCalls(lines)
	callOwners(lines, calls)
	masked := false
	for _, c := range calls {
		if keep(c) {
			continue
		}
		for i := c.open; i <= c.end; i++ {
			lines[i], masked = "", true
		}
	}
	if !masked {
		return text
	}
	return strings.Join(lines, "\n") + "\n"
}

// element is the text of one parameter of a call: its lines, the
// parts of the first and last that the tags leave included when they
// hold more than white space.
type element struct {
	lines []string
	first int // 0-based reply line of lines[0]
	at    int // 0-based reply line of the opening tag
	close int // 0-based reply line of the closing tag; -1 when missing
}

// findElement finds the parameter name among lines [from, to]: the
// first "<name>" and, after it, the first "</name>", or the last one
// when last is set (a file's content or a diff may hold the tag). ok
// is false when there is no "<name>".
func findElement(lines []string, from, to int, name string, last bool) (el element, ok bool) {
	open, cls := "<"+name+">", "</"+name+">"
	at := lineWith(lines, from, to+1, open, 0)
	if at < 0 {
		return element{}, false
	}
	el = element{at: at, close: -1}
	start := strings.Index(lines[at], open) + len(open)
	head := lines[at][start:]
	if e := strings.Index(head, cls); e >= 0 && (!last || lastLineWith(lines, at+1, to+1, cls) < 0) {
		if last {
			e = strings.LastIndex(head, cls)
		}
		el.lines, el.first, el.close = []string{head[:e]}, at, at
		return el, true
	}
	c := -1
	if last {
		c = lastLineWith(lines, at+1, to+1, cls)
	} else {
		c = lineWith(lines, at+1, to+1, cls, 0)
	}
	el.first = at + 1
	if strings.TrimSpace(head) != "" {
		el.lines, el.first = append(el.lines, head), at
	}
	if c < 0 {
		el.lines = append(el.lines, lines[at+1:to+1]...)
		return el, true
	}
	el.close = c
	el.lines = append(el.lines, lines[at+1:c]...)
	tailAt := strings.Index(lines[c], cls)
	if last {
		tailAt = strings.LastIndex(lines[c], cls)
	}
	if tail := lines[c][:tailAt]; strings.TrimSpace(tail) != "" {
		el.lines = append(el.lines, tail)
	}
	if len(el.lines) == 0 {
		el.first = at
	}
	return el, true
}

// value is a one-line parameter's text, trimmed; ok is false when it
// spans lines.
func (el element) value() (string, bool) {
	var parts []string
	for _, l := range el.lines {
		if t := strings.TrimSpace(l); t != "" {
			parts = append(parts, t)
		}
	}
	if len(parts) > 1 {
		return "", false
	}
	if len(parts) == 0 {
		return "", true
	}
	return parts[0], true
}

// stripCDATA takes a CDATA section's brackets off an element's lines
// (Roo Code's multi-file apply_diff wrapped each diff in one).
func (el *element) stripCDATA() {
	if len(el.lines) == 0 {
		return
	}
	first := strings.TrimLeft(el.lines[0], " \t")
	if !strings.HasPrefix(first, "<![CDATA[") {
		return
	}
	lines := append([]string(nil), el.lines...)
	lines[0] = strings.TrimPrefix(first, "<![CDATA[")
	last := len(lines) - 1
	if t := strings.TrimRight(lines[last], " \t"); strings.HasSuffix(t, "]]>") {
		lines[last] = strings.TrimSuffix(t, "]]>")
	}
	// The brackets' own lines are no lines of the diff.
	if strings.TrimSpace(lines[last]) == "" {
		lines = lines[:last]
	}
	if len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines, el.first = lines[1:], el.first+1
	}
	el.lines = lines
}

// agentReader is the skeleton both agent readers share: it walks the
// reply, hands each tool call to the format's own read, and gathers
// the lines outside the calls as prose, fenced text and shell blocks.
type agentReader struct {
	replyLines
	r     *Reply
	near  nearMisses
	group int // the last group number given out
}

// readAgentReply reads text with read, which gets each call in turn.
// A reply without any call returns ErrNoEdits (wrapped).
func readAgentReply(text, format string, read func(p *agentReader, c agentCall)) (*Reply, error) {
	p := &agentReader{replyLines: newReplyLines(text), r: &Reply{Format: format}}
	calls := agentCalls(p.lines)
	var open fence
	inFence := false
	next := 0
	for i := 0; i < len(p.lines); {
		if next < len(calls) && calls[next].open == i {
			c := calls[next]
			next++
			for j := c.open; j <= c.end; j++ {
				p.kind[j] = kBlock
			}
			if c.spelled != "" {
				p.r.warnf(c.open+1, "%q is read as the tag <%s>; write it as the tool spells it", c.spelled, c.tool)
			}
			read(p, c)
			i = c.end + 1
			continue
		}
		t := strings.TrimSpace(p.lines[i])
		switch {
		case inFence:
			// A fence around a call closes after it.
			if open.closes(t) {
				inFence = false
				p.kind[i] = kFence
			} else {
				p.kind[i] = kFenced
			}
		default:
			if f, ok := openFence(t); ok {
				if f.isShell() {
					// A shell block ends at the next call at the latest:
					// read past it, the call and every later one would
					// be dropped (an unclosed fence, a call pasted in a
					// here-document).
					bound := len(p.lines)
					if next < len(calls) {
						bound = calls[next].open
					}
					var sh Shell
					sh, i = readShell(p.lines[:bound], p.kind, i, f, f.closes)
					p.r.Shell = append(p.r.Shell, sh)
					continue
				}
				open, inFence = f, true
				p.kind[i] = kFence
			} else {
				p.kind[i] = kProse
			}
		}
		i++
	}
	for i := range p.r.Ops {
		p.r.Ops[i].Format = format
	}
	p.r.Prose = p.prose()
	p.r.Warnings = append(p.r.Warnings, p.near.warnings()...)
	sortWarnings(p.r.Warnings)
	if len(calls) == 0 {
		return p.r, fmt.Errorf("%w: the reply has no <%s> tool call", ErrNoEdits, strings.Join(formatTools(format), "> or <"))
	}
	return p.r, nil
}

// formatTools are the tools a format's reader reads.
func formatTools(format string) []string {
	if format == FormatRoo {
		return []string{toolApplyDiff, toolWriteToFile}
	}
	return []string{toolReplaceInFile, toolWriteToFile}
}

// path reads the <path> parameter of the call c, failing the call when
// it has none, one without its </path>, or one that spans lines; ""
// then.
func (p *agentReader) path(c agentCall, from, to int) string {
	el, ok := findElement(p.lines, from, to, "path", false)
	if !ok {
		p.r.failf(c.open+1, "", "the <%s> call has no <path>: write <path>the file's path</path> first inside it", c.tool)
		return ""
	}
	if el.close < 0 {
		// What follows <path> is then the rest of the call, its other
		// parameters included: no name to write to.
		p.r.failf(el.at+1, "", "the <path> of the <%s> call has no </path>: write <path>the file's path</path>", c.tool)
		return ""
	}
	v, one := el.value()
	if !one || v == "" || strings.ContainsRune(v, '\r') {
		p.r.failf(el.at+1, "", "the <path> of the <%s> call must hold the file's path on one line", c.tool)
		return ""
	}
	return v
}

// otherTool fails a call of a tool the format does not read: the
// other agent's, read under --format.
func (p *agentReader) otherTool(c agentCall) {
	owner := FormatRoo
	if c.tool == toolReplaceInFile {
		owner = FormatCline
	}
	p.r.failf(c.open+1, "", "<%s> is a tool of the %s format, not of %s: read the reply with --format auto or --format %s", c.tool, owner, p.r.Format, owner)
}

// writeToFile reads a <write_to_file> call: the whole new content of
// a file, created or overwritten. Both agents write the file whatever
// it held; a content whose end the reply does not hold is a file cut
// short, which is never written. A <line_count> (Roo Code's: "the
// number of lines in the file") that the content does not have says
// the model cut the file short too. A content wrapped in a Markdown
// fence loses the fence, as both agents' handlers take it off (see
// unfenceLines).
func (p *agentReader) writeToFile(c agentCall) {
	path := p.path(c, c.open, c.end)
	if path == "" {
		return
	}
	el, ok := findElement(p.lines, c.open, c.end, "content", true)
	switch {
	case !ok:
		p.r.failf(c.open+1, path, "the <write_to_file> call has no <content>: nothing says what %s holds", path)
		return
	case el.close < 0:
		p.r.failf(el.at+1, path, "the <content> of %s has no </content>: the file may be cut short, so it is not written; send the whole file again", path)
		return
	}
	lines := el.lines
	// The lines that carry only the tags are no lines of the file
	// (Cline trims the parameter; the indentation of the first line
	// is kept here, where Cline's trim would lose it).
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	if lc, ok := findElement(p.lines, el.close, c.end, "line_count", false); ok && lc.at >= el.close {
		v, _ := lc.value()
		n, err := atoiPlain(v)
		switch {
		case err != nil:
			p.r.failf(lc.at+1, path, "the <line_count> of %s, %q, is no number of lines", path, v)
			return
		case n != len(lines) && n != len(el.lines): // blank lines at the ends counted or not
			p.r.failf(lc.at+1, path, "the content of %s has %d lines but its <line_count> says %d: the file was cut short or padded, so it is not written; send the whole file again", path, len(lines), n)
			return
		}
	}
	if inner, open, ok := unfenceLines(lines); ok {
		lines = inner
		p.r.Warnings = append(p.r.Warnings, unfenceWarning(c.open+1, "<write_to_file>", path, open))
	}
	p.r.Ops = append(p.r.Ops, Operation{Kind: Create, FileCreate: FileCreate{Overwrite: true}, Path: path, LineEdit: LineEdit{New: append([]string{}, lines...)}, Line: c.open + 1})
}

// atoiPlain reads a decimal number of digits only.
func atoiPlain(s string) (int, error) {
	if s == "" || len(s) > 9 {
		return 0, strconv.ErrSyntax
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, strconv.ErrSyntax
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, nil
}

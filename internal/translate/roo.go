package translate

import (
	"strings"
)

// readRoo reads a reply holding Roo Code's file tools: <apply_diff>
// with <path> and a <diff> of SEARCH/REPLACE blocks (or the multi-file
// shape <args><file><path/><diff><content/><start_line/></diff></file>
// </args> of its former experiment), and <write_to_file> with <path>,
// the whole new <content> and <line_count>. Roo Code applies the
// blocks with MultiSearchReplaceDiffStrategy
// (src/core/diff/strategies/multi-search-replace.ts), whose tool
// description is the format's prompt.
//
// A block is "<<<<<<< SEARCH" (an optional ">" after it), optional
// ":start_line:N" and ":end_line:N" lines, an optional "-------", the
// lines to find, "=======", the new lines, ">>>>>>> REPLACE". A line of
// content that starts with one of these markers is written with a
// backslash before it ("\=======") and read without it. Near misses of
// SEARCH and REPLACE (another case or number of brackets, the space
// missing) are read with a warning. When every SEARCH line (and every
// REPLACE line, or none) starts with a line number ("12 | "), as
// read_file shows them, the numbers are taken off, as Roo Code does;
// the first gives the line hint when the block has none.
//
// Each block becomes an Edit whose LineHint is its :start_line:; the
// blocks of one file share a Group: Roo Code sorts them by start line
// and places each against the file as it was, its numbers shifted by
// what the blocks above it changed, which is what a group does. Roo
// Code looks for the lines at start_line, then within 40 lines of it,
// then gives up; here the lines may stand anywhere, the hint choosing
// the nearest of several places, and with no hint several places are
// ambiguous (Roo Code takes the one nearest the middle of the file).
// Blocks it cannot read fail (Reply.Failed) and the others still
// count; <write_to_file> is read as in readCline, and its content
// must have the lines its <line_count> says. The only error is
// ErrNoEdits, for a reply without any call.
func readRoo(text string) (*Reply, error) {
	return readAgentReply(text, FormatRoo, func(p *agentReader, c agentCall) {
		switch c.tool {
		case toolWriteToFile:
			p.writeToFile(c)
		case toolApplyDiff:
			p.applyDiff(c)
		default:
			p.otherTool(c)
		}
	})
}

// applyDiff reads an <apply_diff> call, in either shape.
func (p *agentReader) applyDiff(c agentCall) {
	if args, ok := findElement(p.lines, c.open, c.end, "args", true); ok {
		p.rooArgs(c, args)
		return
	}
	path := p.path(c, c.open, c.end)
	if path == "" {
		return
	}
	el, ok := findElement(p.lines, c.open, c.end, "diff", true)
	switch {
	case !ok:
		p.r.failf(c.open+1, path, "the <apply_diff> call has no <diff>: put the SEARCH/REPLACE blocks between <diff> and </diff>")
		return
	case el.close < 0:
		p.r.failf(el.at+1, path, "the <diff> of %s has no </diff>: the reply may be cut short, so none of its blocks is applied", path)
		return
	}
	p.group++
	p.rooBlocks(path, el, 0)
}

// rooArgs reads the multi-file shape: each <file> holds a <path> and
// <diff> elements, each of those a <content> and an optional
// <start_line>, the hint of a first block that names none.
func (p *agentReader) rooArgs(c agentCall, args element) {
	from, to := args.at, args.close
	if to < 0 {
		p.r.failf(args.at+1, "", "the <args> of the <apply_diff> call have no </args>: the reply may be cut short, so none of its blocks is applied")
		return
	}
	found := false
	for from <= to {
		file, ok := findElement(p.lines, from, to, "file", false)
		if !ok {
			break
		}
		found = true
		if file.close < 0 {
			p.r.failf(file.at+1, "", "the <file> has no </file>")
			return
		}
		from = file.close + 1
		path := p.path(c, file.at, file.close)
		if path == "" {
			continue
		}
		p.group++
		diffs := 0
		for at := file.at; at <= file.close; {
			d, ok := findElement(p.lines, at, file.close, "diff", false)
			if !ok {
				break
			}
			diffs++
			if d.close < 0 {
				p.r.failf(d.at+1, path, "the <diff> of %s has no </diff>", path)
				break
			}
			at = d.close + 1
			content, ok := findElement(p.lines, d.at, d.close, "content", true)
			if !ok || content.close < 0 {
				p.r.failf(d.at+1, path, "the <diff> of %s has no <content> ... </content>", path)
				continue
			}
			content.stripCDATA()
			hint := 0
			if sl, ok := findElement(p.lines, content.close, d.close, "start_line", false); ok {
				v, _ := sl.value()
				if n, err := atoiPlain(v); err == nil && n > 0 {
					hint = n
				} else {
					p.r.failf(sl.at+1, path, "the <start_line> %q is no line number", v)
					continue
				}
			}
			p.rooBlocks(path, content, hint)
		}
		if diffs == 0 {
			p.r.failf(file.at+1, path, "the <file> %s has no <diff>", path)
		}
	}
	if !found {
		p.r.failf(args.at+1, "", "the <args> of the <apply_diff> call hold no <file>")
	}
}

// rooBlock is one block of a diff being read.
type rooBlock struct {
	line     int // 0-based reply line of its SEARCH marker
	hint     int
	head     bool // still among the lines before the content (:start_line:, -------)
	divider  bool
	old, new []string
}

// rooBlocks reads the blocks of a diff; hint is the <start_line> of
// the multi-file shape, for the first block.
func (p *agentReader) rooBlocks(path string, el element, hint int) {
	var b *rooBlock
	n, failed := len(p.r.Ops), len(p.r.Failed)
	strayWarned := false
	// skip: the rest of a block that failed, up to its end marker, is
	// no more failures.
	skip := false
	fail := func(format string, args ...any) {
		p.r.failf(b.line+1, path, format, args...)
		b, skip = nil, true
	}
	for k, l := range el.lines {
		i := el.first + k
		t := strings.TrimSpace(l)
		escaped := strings.HasPrefix(t, `\`)
		m := markerLike{}
		if !escaped {
			m = markerAt(t)
		}
		if skip && m.kind != mkSearch {
			skip = m.kind != mkReplace
			continue
		}
		skip = false
		switch {
		case m.kind == mkSearch && m.fit == fitFar, m.kind == mkReplace && m.fit == fitFar:
			p.r.failf(i+1, path, "%s", m.farMsg(t))
			b = nil
			continue
		case m.kind == mkSearch:
			p.near.add(i+1, t, m)
			if b != nil {
				fail("the block has no %s: %q starts another block first, at line %d", rooEndWant(b), t, i+1)
			}
			b = &rooBlock{line: i, head: true}
			if hint > 0 {
				b.hint, hint = hint, 0
			}
			continue
		case b == nil:
			switch {
			case m.kind == mkReplace || rooDivider(t):
				p.r.failf(i+1, path, "%q stands outside any SEARCH/REPLACE block: start each block with %q", t, "<<<<<<< SEARCH")
			case t != "" && !strayWarned:
				strayWarned = true
				p.r.warnf(i+1, "text between the blocks of the diff is ignored: %q", clipLine(t))
			}
			continue
		}
		if b.head {
			if v, ok := strings.CutPrefix(t, ":start_line:"); ok {
				n, err := atoiPlain(strings.TrimSpace(v))
				if err != nil || n < 1 {
					fail("%q is no line number: write :start_line: and the line of the file where the SEARCH lines start", t)
					continue
				}
				b.hint = n
				continue
			}
			if strings.HasPrefix(t, ":end_line:") {
				continue // Roo Code reads it and does not use it
			}
			b.head = false
			if t == "-------" {
				continue
			}
		}
		switch {
		case !escaped && (strings.HasPrefix(t, ":start_line:") || strings.HasPrefix(t, ":end_line:")) && b.divider:
			fail("%q stands in the REPLACE part, at line %d: line markers belong right after %q", t, i+1, "<<<<<<< SEARCH")
		case rooDivider(t) && !b.divider:
			if t != "=======" {
				p.r.warnf(i+1, "%q is read as the divider %q", t, "=======")
			}
			b.divider = true
		case rooDivider(t):
			fail("the block has a second %q at line %d: a line of content that is a marker is written with a backslash before it (\\=======)", t, i+1)
		case m.kind == mkReplace && !b.divider:
			fail("the block has no %q divider: %q comes first, at line %d", "=======", t, i+1)
		case m.kind == mkReplace:
			p.near.add(i+1, t, m)
			p.rooOp(path, b)
			b = nil
		case !escaped && (strings.HasPrefix(t, "<<<<<<<") || strings.HasPrefix(t, ">>>>>>>")):
			fail("%q at line %d is a merge-conflict marker inside the block: write a backslash before it (\\%s) so that it is read as content", t, i+1, t)
		case b.divider:
			b.new = append(b.new, rooUnescape(l))
		default:
			b.old = append(b.old, rooUnescape(l))
		}
	}
	if b != nil {
		p.r.failf(b.line+1, path, "the block has no %s: the diff ends first", rooEndWant(b))
	}
	if len(p.r.Ops) == n && len(p.r.Failed) == failed {
		p.r.failf(el.at+1, path, "the <diff> of %s holds no SEARCH/REPLACE block", path)
	}
}

// rooOp turns a complete block into an operation.
func (p *agentReader) rooOp(path string, b *rooBlock) {
	old, new := b.old, b.new
	if rooNumbered(old) && (rooNumbered(new) || blank(new)) {
		if b.hint == 0 {
			b.hint, _ = atoiPlain(rooNumber.FindStringSubmatch(old[0])[1])
		}
		old, new = rooStrip(old), rooStrip(new)
		p.r.warnf(b.line+1, "every line of the block starts with a line number (\"12 | \"); the numbers are taken off")
	}
	switch {
	case blank(old):
		p.r.failf(b.line+1, path, "the SEARCH part is empty: Roo Code's blocks must name the lines they replace; to add lines, replace a line next to them with it and the new lines")
	case strings.Join(old, "\n") == strings.Join(new, "\n"):
		p.r.failf(b.line+1, path, "the SEARCH and REPLACE parts are the same: the block changes nothing")
	default:
		p.r.Ops = append(p.r.Ops, Operation{Kind: Edit, Path: path, LineEdit: LineEdit{Old: old, New: append([]string{}, new...)},
			Placement: Placement{LineHint: b.hint, Group: p.group}, Line: b.line + 1})
	}
}

// rooEndWant names what a block still lacks.
func rooEndWant(b *rooBlock) string {
	if b.divider {
		return `end marker ">>>>>>> REPLACE"`
	}
	return `"=======" divider`
}

// rooDivider reports whether the trimmed line t is the divider: seven
// "=" as Roo Code writes it, or five to nine as the SEARCH/REPLACE
// family reads it.
func rooDivider(t string) bool { return isDivider(t) }

// rooUnescape takes the backslash off a line of content that starts
// with an escaped marker, as Roo Code's unescapeMarkers does.
func rooUnescape(l string) string {
	for _, m := range [...]string{`\<<<<<<<`, `\=======`, `\>>>>>>>`, `\-------`, `\:end_line:`, `\:start_line:`} {
		if strings.HasPrefix(l, m) {
			return l[1:]
		}
	}
	return l
}

// rooNumber is a line number as Roo Code's read_file shows it ("12 | "),
// one "|" and not two (extract-text.ts, everyLineHasLineNumbers).
var rooNumber = lazyRegexpOf(`^\s*(\d+)\s+\|(?:[^|]|$)`)

// rooNumbered reports whether every one of lines (at least one)
// starts with a line number.
func rooNumbered(lines []string) bool {
	for _, l := range lines {
		if !rooNumber.MatchString(l) {
			return false
		}
	}
	return len(lines) > 0
}

// rooStrip takes the line numbers off lines, and the one space after
// the "|".
func rooStrip(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		_, rest, _ := strings.Cut(l, "|")
		out[i] = strings.TrimPrefix(rest, " ")
	}
	return out
}

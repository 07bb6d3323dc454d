package translate

import (
	"fmt"
	"strings"
	"unicode"
)

// fiupFormat is the name of the FIUP v3.0 format.
const fiupFormat = "fiup"

// The FIUP markers, as the seed spells them.
const (
	fiupStart = "<<<FIUP>>>"
	fiupEnd   = "<<<END>>>"
	fiupArrow = "→"
)

// fiupOps are the operation names of FIUP, upper-cased.
var fiupOps = []string{"REPLACE", "INSERT_AFTER", "INSERT_BEFORE", "DELETE", "CREATE"}

// readFIUP reads a reply in FIUP v3.0: blocks from a "<<<FIUP>>>" line
// to a "<<<END>>>" line, each holding "[FILE]:" and "[OP]:" lines, then
// an "[ANCHOR]" section and a "[CONTENT]" section. Blocks count inside
// or outside fences, several to a fence; the fence is only a wrapper,
// and the fences around the blocks are not paired with the blocks. It
// returns what it parsed so far together with any error.
//
// Each block becomes one operation with Format "fiup" and Line the
// reply line of its "<<<FIUP>>>": REPLACE an Edit of Old (the anchor)
// into New (the content); INSERT_AFTER an Edit with the anchor as
// Before; INSERT_BEFORE one with the anchor as After; DELETE an Edit
// with no New lines and TrimBlank set (so is a REPLACE whose content
// is empty); CREATE a Create, neither Append nor Overwrite. FirstMatch
// is never set: an anchor found at several places is ambiguous.
//
// The block markers may stand indented, and their near misses
// ("<<<fiup>>>", "<<<FIUP>>", "<<< END >>>"; see markerAt) are read as
// them with a warning naming the line. Section markers count only at
// the start of a line ("[FILE]:" and
// "[OP]:" may stand indented before the first section). Names and op
// values are case-insensitive; the path is cleaned of Markdown like the
// SEARCH/REPLACE family's names. In anchor and content lines each "→"
// at the start of the line becomes IndentUnit and "\→" anywhere a
// literal "→"; any other "→" stays as written. Once "[CONTENT]" has
// begun, every line up to "<<<END>>>" is content, marker-like lines
// included, so a file about FIUP can itself be edited with FIUP.
//
// Blank lines are kept as written in both sections, at their ends too:
// the seed's INSERT_AFTER example opens its content with a blank line
// that separates the new method from the anchor, and its INSERT_BEFORE
// example ends its content with one that separates the new imports
// from the anchor, so a blank line before "<<<END>>>" is never taken
// as mere separation.
//
// Reply.Prose holds the lines outside the blocks and outside the fences
// that wrap them (a fiup fence, or any fence holding a block); a fence
// of other code in the prose is prose. A "<<<END>>>" right after a
// block's own, blank lines aside, is ignored with a warning.
//
// A block without "[FILE]:" or "[OP]:", with an unknown op, with an
// "[ANCHOR]" for CREATE or none for another op, without a "[CONTENT]"
// where the op needs one, with content for DELETE, or without its
// "<<<END>>>" (the reply ends or another "<<<FIUP>>>" starts first) is
// a *ParseError naming the reply line, and so is a "<<<END>>>" outside
// any block (the end of a block whose "<<<FIUP>>>" is missing) unless
// it follows the end of the block above it, blank lines aside; the
// operations of the blocks
// before it are returned with it. A reply without any block returns
// ErrNoEdits (wrapped) along with its prose.
func readFIUP(text string) (*Reply, error) {
	p := &fiupReader{replyLines: newReplyLines(text)}
	err := p.run()
	r := &Reply{Format: fiupFormat, Ops: p.ops, Warnings: append(p.warns, p.near.warnings()...), Prose: p.prose()}
	sortWarnings(r.Warnings)
	if err != nil {
		return r, err
	}
	if len(p.ops) == 0 {
		return r, fmt.Errorf("%w: the reply has no %s block", ErrNoEdits, fiupStart)
	}
	return r, nil
}

// fiupReader reads a reply line by line. Of the line kinds it uses
// kProse, kFence (a wrapping fence's own lines and the lines inside it
// around the blocks), kBlock and kMarker.
type fiupReader struct {
	replyLines
	ops   []Operation
	warns []Warning
	near  nearMisses
}

// fiupFence is a fence open outside the blocks.
type fiupFence struct {
	f        fence
	start    int  // 0-based line of the opening fence
	wrapping bool // a fiup fence, or one that has held a block
}

func (p *fiupReader) run() error {
	var open *fiupFence
	for i := 0; i < len(p.lines); i++ {
		t := strings.TrimSpace(p.lines[i])
		switch {
		case markerAt(t).kind == mkFiupStart:
			end, err := p.block(i)
			if err != nil {
				if open != nil {
					open.wrapping = true
					p.closeFence(open, i)
				}
				p.unread = i
				return err
			}
			if open != nil {
				open.wrapping = true
			}
			i = end
		case markerAt(t).kind == mkFiupEnd && !followsBlock(p.lines, p.kind, i):
			// The end of a block whose <<<FIUP>>> the model left out
			// (in a fence or not): the edit it meant must not vanish.
			if open != nil {
				p.closeFence(open, i)
			}
			p.unread = i
			return parseErr(fiupFormat, i+1, "%s", strayMarkerMsg(t, markerAt(t), false))
		case markerAt(t).kind == mkFiupEnd:
			p.kind[i] = kMarker
			p.warns = append(p.warns, warning(i+1, "%q stands outside any block; ignored", t))
		case open != nil:
			if open.f.closes(t) {
				p.closeFence(open, i)
				open = nil
			}
		default:
			if f, ok := openFence(t); ok {
				open = &fiupFence{f: f, start: i, wrapping: f.lang() == fiupFormat}
			}
		}
	}
	if open != nil {
		p.closeFence(open, len(p.lines)-1)
	}
	return nil
}

// closeFence marks the lines from the opening fence to line end, the
// blocks excepted, as a wrapper's when the fence wraps blocks.
func (p *fiupReader) closeFence(open *fiupFence, end int) {
	if !open.wrapping {
		return
	}
	for j := open.start; j <= end; j++ {
		if p.kind[j] == kProse {
			p.kind[j] = kFence
		}
	}
}

// fiupSection is the part of a block being read.
type fiupSection int

const (
	fiupHeader fiupSection = iota
	fiupAnchor
	fiupContent
)

// fiupBlock is one block as the reply wrote it; lines are 0 when the
// part is missing, else 1-based reply lines.
type fiupBlock struct {
	line                    int // the "<<<FIUP>>>" line
	path, op                string
	fileLine, opLine        int
	anchorLine, contentLine int
	anchor, content         []string // decoded lines
}

// block reads the block whose "<<<FIUP>>>" is at line i (0-based),
// appends its operation and returns the line of its "<<<END>>>".
func (p *fiupReader) block(i int) (int, error) {
	b := fiupBlock{line: i + 1}
	sec := fiupHeader
	for j := i + 1; j < len(p.lines); j++ {
		raw := p.lines[j]
		t := strings.TrimSpace(raw)
		switch {
		case markerAt(t).kind == mkFiupStart:
			return j, parseErr(fiupFormat, b.line, "the block has no %s: %s at line %d starts another block first", fiupEnd, fiupStart, j+1)
		case markerAt(t).kind == mkFiupEnd:
			for k := i; k <= j; k++ {
				p.kind[k] = kBlock
			}
			start := strings.TrimSpace(p.lines[i])
			p.near.add(i+1, start, markerAt(start))
			p.near.add(j+1, t, markerAt(t))
			return j, p.finish(&b)
		}
		switch sec {
		case fiupHeader:
			if t == "" {
				continue
			}
			name, value, ok := fiupMarker(strings.TrimLeft(raw, " \t"))
			if !ok {
				return j, parseErr(fiupFormat, j+1, "%q is not a FIUP header line: expected [FILE]:, [OP]:, [ANCHOR] or [CONTENT]", t)
			}
			if err := p.header(&b, &sec, name, value, j+1); err != nil {
				return j, err
			}
		case fiupAnchor:
			if name, value, ok := fiupMarker(raw); ok && name == "CONTENT" && value == "" {
				sec, b.contentLine = fiupContent, j+1
				continue
			}
			b.anchor = append(b.anchor, fiupDecode(raw))
		case fiupContent:
			b.content = append(b.content, fiupDecode(raw))
		}
	}
	return len(p.lines), parseErr(fiupFormat, b.line, "the block has no %s: the reply ends first, at line %d", fiupEnd, len(p.lines))
}

// header reads the marker name (with its value) found at the 1-based
// line of a block's header.
func (p *fiupReader) header(b *fiupBlock, sec *fiupSection, name, value string, line int) error {
	switch name {
	case "FILE":
		if b.fileLine != 0 {
			return parseErr(fiupFormat, line, "a second [FILE]: line in the block (the first is line %d); write one block per operation", b.fileLine)
		}
		path := fiupPath(value)
		if path == "" {
			return parseErr(fiupFormat, line, "[FILE]: names no file")
		}
		if strings.IndexFunc(path, unicode.IsControl) >= 0 {
			return parseErr(fiupFormat, line, "[FILE]: %q holds a control character", path)
		}
		b.path, b.fileLine = path, line
	case "OP":
		if b.opLine != 0 {
			return parseErr(fiupFormat, line, "a second [OP]: line in the block (the first is line %d); write one block per operation", b.opLine)
		}
		op := strings.ToUpper(strings.TrimSpace(strings.Trim(value, "*`\"' \t")))
		op = strings.NewReplacer("-", "_", " ", "_").Replace(op)
		if !fiupKnownOp(op) {
			return parseErr(fiupFormat, line, "unknown operation %q: use one of %s", strings.TrimSpace(value), strings.Join(fiupOps, ", "))
		}
		b.op, b.opLine = op, line
	case "ANCHOR", "CONTENT":
		if value != "" {
			return parseErr(fiupFormat, line, "text after [%s] on its line: the section starts on the next line", name)
		}
		if name == "ANCHOR" {
			*sec, b.anchorLine = fiupAnchor, line
		} else {
			*sec, b.contentLine = fiupContent, line
		}
	}
	return nil
}

// finish checks a complete block and appends its operation.
func (p *fiupReader) finish(b *fiupBlock) error {
	switch {
	case b.fileLine == 0:
		return parseErr(fiupFormat, b.line, "the block has no [FILE]: line naming the file")
	case b.opLine == 0:
		return parseErr(fiupFormat, b.line, "the block has no [OP]: line (%s)", strings.Join(fiupOps, ", "))
	case b.op == "CREATE" && b.anchorLine != 0:
		return parseErr(fiupFormat, b.anchorLine, "CREATE takes no [ANCHOR]: it writes a new file from [CONTENT] alone")
	case b.op != "CREATE" && b.anchorLine == 0:
		return parseErr(fiupFormat, b.line, "%s needs an [ANCHOR] section: the lines of %s to locate", b.op, b.path)
	case b.op != "CREATE" && blank(b.anchor):
		return parseErr(fiupFormat, b.anchorLine, "the [ANCHOR] holds no code: copy the lines of %s to locate", b.path)
	case b.op == "DELETE" && !blank(b.content):
		return parseErr(fiupFormat, b.contentLine, "DELETE takes no [CONTENT]: use REPLACE to put new lines in place of the anchor")
	case b.op != "DELETE" && b.contentLine == 0:
		return parseErr(fiupFormat, b.line, "%s needs a [CONTENT] section", b.op)
	case (b.op == "INSERT_AFTER" || b.op == "INSERT_BEFORE") && len(b.content) == 0:
		return parseErr(fiupFormat, b.contentLine, "the [CONTENT] of %s is empty: nothing to insert", b.op)
	}
	op := Operation{Kind: Edit, Format: fiupFormat, Path: b.path, LineEdit: LineEdit{New: b.content}, Line: b.line}
	switch b.op {
	case "REPLACE":
		op.Old = b.anchor
		op.TrimBlank = len(b.content) == 0
	case "INSERT_AFTER":
		op.Before = b.anchor
	case "INSERT_BEFORE":
		op.After = b.anchor
	case "DELETE":
		op.Old, op.New, op.TrimBlank = b.anchor, nil, true
	case "CREATE":
		op.Kind = Create
	}
	if len(op.New) == 0 {
		op.New = nil
	}
	p.ops = append(p.ops, op)
	return nil
}

// fiupMarker reads a section marker at the start of line: "[NAME]",
// upper-cased, then an optional colon and the value after it, trimmed.
func fiupMarker(line string) (name, value string, ok bool) {
	line = strings.TrimRight(line, " \t")
	if !strings.HasPrefix(line, "[") {
		return "", "", false
	}
	end := strings.IndexByte(line, ']')
	if end < 0 {
		return "", "", false
	}
	name = strings.ToUpper(line[1:end])
	switch name {
	case "FILE", "OP", "ANCHOR", "CONTENT":
	default:
		return "", "", false
	}
	rest := strings.TrimSpace(line[end+1:])
	rest = strings.TrimSpace(strings.TrimPrefix(rest, ":"))
	return name, rest, true
}

// fiupKnownOp reports whether op (upper-cased) is a FIUP operation.
func fiupKnownOp(op string) bool {
	for _, o := range fiupOps {
		if o == op {
			return true
		}
	}
	return false
}

// fiupPath cleans the value of a "[FILE]:" line: the marker says it is
// a path, so what the name cleaner would reject as prose is kept once
// stripped of backticks, quotes and bold.
func fiupPath(v string) string {
	if n, ok := cleanFileName(v); ok {
		return n
	}
	return strings.TrimSpace(strings.Trim(strings.TrimSpace(v), "*`\"'"))
}

// fiupDecode turns a reply line of an anchor or content into a file
// line: each "→" at the start becomes IndentUnit, and "\→" anywhere a
// literal "→".
func fiupDecode(line string) string {
	n := 0
	for strings.HasPrefix(line, fiupArrow) {
		line = line[len(fiupArrow):]
		n++
	}
	line = strings.ReplaceAll(line, `\`+fiupArrow, fiupArrow)
	if n == 0 {
		return line
	}
	return strings.Repeat(IndentUnit, n) + line
}

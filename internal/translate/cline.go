package translate

import (
	"fmt"
	"strings"
)

// readCline reads a reply holding Cline's file tools: <replace_in_file>
// with <path> and a <diff> of SEARCH/REPLACE blocks, and <write_to_file>
// with <path> and the whole new <content> (a file created or
// overwritten). Cline defines the tools in
// src/core/prompts/system-prompt/tools/{replace_in_file,write_to_file}.ts
// and applies the blocks with constructNewFileContent
// (src/core/assistant-message/diff.ts).
//
// A block is "------- SEARCH", the lines to find, "=======", the new
// lines, "+++++++ REPLACE"; Cline's parser takes three or more of each
// marker character, an optional ">" after SEARCH or REPLACE, and the
// legacy "<<<<<<< SEARCH" / ">>>>>>> REPLACE" markers. Near misses
// (another case, the space missing or doubled) are read with a warning.
//
// Each block becomes an Edit; the blocks of one call share a Group and
// are Ordered, since Cline matches every block of a diff against the
// file as it was, each from the end of the one before, and takes the
// first place (FirstMatch). An empty SEARCH part creates a file that
// does not exist (Cline: "new file"); on a file that exists and is not
// identical it fails, as Cline's does on a non-empty file. Blocks it
// cannot read, and calls without a path or whose diff has no end,
// fail (Reply.Failed); the others still count. The only error is
// ErrNoEdits, for a reply without any call.
func readCline(text string) (*Reply, error) {
	return readAgentReply(text, FormatCline, func(p *agentReader, c agentCall) {
		switch c.tool {
		case toolWriteToFile:
			p.writeToFile(c)
		case toolReplaceInFile:
			p.replaceInFile(c)
		default:
			p.otherTool(c)
		}
	})
}

// replaceInFile reads a <replace_in_file> call.
func (p *agentReader) replaceInFile(c agentCall) {
	path := p.path(c, c.open, c.end)
	if path == "" {
		return
	}
	el, ok := findElement(p.lines, c.open, c.end, "diff", true)
	switch {
	case !ok:
		p.r.failf(c.open+1, path, "the <replace_in_file> call has no <diff>: put the SEARCH/REPLACE blocks between <diff> and </diff>")
		return
	case el.close < 0:
		p.r.failf(el.at+1, path, "the <diff> of %s has no </diff>: the reply may be cut short, so none of its blocks is applied", path)
		return
	}
	p.group++
	p.clineBlocks(path, el)
}

// clineBlock is one SEARCH/REPLACE block of a diff being read.
type clineBlock struct {
	line     int // 0-based reply line of its SEARCH marker
	old, new []string
	divider  bool // the "=======" was read
}

// clineBlocks reads the blocks of a diff element.
func (p *agentReader) clineBlocks(path string, el element) {
	var b *clineBlock
	n, failed := len(p.r.Ops), len(p.r.Failed)
	strayWarned := false
	// skip: the rest of a block that failed, up to its end marker, is
	// no more failures.
	skip := false
	for k, l := range el.lines {
		i := el.first + k
		t := strings.TrimSpace(l)
		m := clineMarker(t)
		isSearch := m.kind == mkClineSearch || m.kind == mkSearch
		if skip && !isSearch {
			skip = m.kind != mkClineReplace && m.kind != mkReplace
			continue
		}
		skip = false
		if m.kind != noMarker {
			p.near.add(i+1, t, m)
		}
		switch {
		case m.kind == mkClineSearch || m.kind == mkSearch:
			if b != nil {
				p.r.failf(b.line+1, path, "the block has no %s: %q starts another block first, at line %d", clineEndWant(b), t, i+1)
			}
			b = &clineBlock{line: i}
		case b == nil && (m.kind != noMarker || clineDivider(t)):
			p.r.failf(i+1, path, "%q stands outside any SEARCH/REPLACE block: start each block with %q", t, clineSearch)
		case b == nil:
			if t != "" && !strayWarned {
				strayWarned = true
				p.r.warnf(i+1, "text between the blocks of the diff is ignored: %q", clipLine(t))
			}
		case !b.divider && clineDivider(t):
			b.divider = true
		case !b.divider:
			if m.kind != noMarker {
				p.r.failf(b.line+1, path, "the block has no %q divider: %q comes first, at line %d", "=======", t, i+1)
				b, skip = nil, m.kind != mkClineReplace && m.kind != mkReplace
				continue
			}
			b.old = append(b.old, l)
		case m.kind == mkClineReplace || m.kind == mkReplace:
			p.clineOp(path, b, false)
			b = nil
		case clineDivider(t):
			p.r.failf(b.line+1, path, "the block has a second %q at line %d before its end marker %q", "=======", i+1, clineReplace)
			b, skip = nil, true
		default:
			b.new = append(b.new, l)
		}
	}
	if b != nil {
		if !b.divider {
			p.r.failf(b.line+1, path, "the block has no %q divider: the diff ends first", "=======")
		} else {
			// Cline applies a last block whose end marker the diff lacks.
			p.clineOp(path, b, true)
		}
	}
	if len(p.r.Ops) == n && len(p.r.Failed) == failed {
		p.r.failf(el.at+1, path, "the <diff> of %s holds no SEARCH/REPLACE block", path)
	}
}

// clineOp turns a complete block into an operation.
func (p *agentReader) clineOp(path string, b *clineBlock, noEnd bool) {
	if noEnd {
		p.r.warnf(b.line+1, "the block has no end marker %q; its REPLACE part runs to </diff>", clineReplace)
	}
	switch {
	case len(b.old) == 0:
		p.r.Ops = append(p.r.Ops, Operation{Kind: Create, Path: path, LineEdit: LineEdit{New: append([]string{}, b.new...)}, Line: b.line + 1})
	case blank(b.old):
		p.r.failf(b.line+1, path, "the SEARCH part holds only blank lines, which say nothing of where the block goes: copy the lines to replace from the file")
	default:
		p.r.Ops = append(p.r.Ops, Operation{Kind: Edit, Path: path, LineEdit: LineEdit{Old: b.old, New: append([]string{}, b.new...)},
			Placement: Placement{FirstMatch: true, Ordered: true, Group: p.group}, Line: b.line + 1})
	}
}

// Cline's markers as its prompt spells them, for messages.
const (
	clineSearch  = "------- SEARCH"
	clineReplace = "+++++++ REPLACE"
)

// clineEndWant names what a block still lacks.
func clineEndWant(b *clineBlock) string {
	if b.divider {
		return fmt.Sprintf("end marker %q", clineReplace)
	}
	return fmt.Sprintf("%q divider", "=======")
}

// clineDivider reports whether the trimmed line t is Cline's divider:
// three or more "=" and nothing else.
func clineDivider(t string) bool { return len(t) >= 3 && countPrefix(t, '=') == len(t) }

// clineMarker says which of Cline's markers the trimmed line t is:
// mkClineSearch or mkClineReplace for the "-" and "+" markers,
// mkSearch or mkReplace for the legacy "<" and ">" ones. Cline's own
// patterns (three or more characters, one space, the word, an
// optional ">") are exact; another case or spacing is a near miss;
// fewer than three characters are none.
func clineMarker(t string) markerLike {
	if len(t) < 4 {
		return markerLike{}
	}
	var kind markerKind
	word := "SEARCH"
	switch t[0] {
	case '-':
		kind = mkClineSearch
	case '+':
		kind, word = mkClineReplace, "REPLACE"
	case '<':
		kind = mkSearch
	case '>':
		kind, word = mkReplace, "REPLACE"
	default:
		return markerLike{}
	}
	n := countPrefix(t, t[0])
	gap, w, after := splitKeyword(t[n:])
	if n < 3 || !strings.EqualFold(w, word) || after != "" && after != ">" {
		return markerLike{}
	}
	if gap == " " && w == word {
		return markerLike{kind: kind, fit: fitExact}
	}
	return markerLike{kind: kind, fit: fitNear}
}

package translate

import (
	"fmt"
	"strings"
)

// Format names of the SEARCH/REPLACE family.
const (
	// FormatDiff: the file name stands on the line before the fence.
	FormatDiff = "diff"
	// FormatDiffFenced: the file name is the first line inside the fence.
	FormatDiffFenced = "diff-fenced"
)

// readSearchReplace reads a reply in the SEARCH/REPLACE family ("diff":
// file name on the line before the fence; "diff-fenced": name first
// inside the fence). It returns what it parsed so far together with any
// error (*ParseError naming the reply line).
//
// Each block becomes one operation: an empty (or white-space-only)
// SEARCH part an Append Create of the REPLACE lines, any other an Edit
// with FirstMatch set. A block whose SEARCH and REPLACE parts hold the
// same number of "..." lines is split there into pieces, one Edit each,
// sharing a Group and each required to match once. Shell blocks are
// returned in Reply.Shell, never as operations; the reply's other lines
// (name lines excepted) in Reply.Prose.
//
// Markers are read as the reference reads them (five to nine
// characters, "SEARCH>", white space around), and so are their near
// misses (another case, the space missing or doubled; see markerAt),
// with one warning per spelling. A block with no divider or no end
// marker, or with no file name when no earlier block named one, is a
// *ParseError naming the block's SEARCH line (the message names a
// divider or end marker of the wrong length); so is a line like a
// SEARCH marker with a run of "<" outside five to nine, naming it,
// inside a block or not, and an end marker standing outside any block
// (the end of a block whose SEARCH marker is missing) unless it follows
// the end of the block above it, blank lines aside. A block whose
// SEARCH marker is missing is read, with a warning, when a fence opens
// straight into its SEARCH text right after its file name (see
// headless). A reply without any
// block returns ErrNoEdits along with its prose and shell blocks.
func readSearchReplace(text string) (*Reply, error) {
	sp, err := splitSearchReplace(text)
	r := &Reply{
		Format:   srFormat(sp.Blocks),
		Prose:    sp.Prose,
		Shell:    sp.Shell,
		Warnings: sp.Warnings,
	}
	ops, warns := searchReplaceOps(sp.Blocks)
	r.Ops = ops
	if len(warns) > 0 {
		r.Warnings = append(r.Warnings, warns...)
		sortWarnings(r.Warnings)
	}
	if err != nil {
		return r, err
	}
	if len(sp.Blocks) == 0 {
		return r, ErrNoEdits
	}
	return r, nil
}

// srBlock is one SEARCH/REPLACE block as the reply wrote it.
type srBlock struct {
	Path            string // cleaned file name; the previous block's when this one names none
	Search, Replace string // raw text, every line ended by "\n"
	Line            int    // reply line of the SEARCH marker
	NameLine        int    // reply line the name was read from; 0 when reused
	NameInFence     bool   // the name stood inside a fence (diff-fenced)
	End             int    // reply line of the end marker (or the divider standing in for it)
}

// srSplit is what splitSearchReplace found in a reply.
type srSplit struct {
	Blocks   []srBlock
	Shell    []Shell
	Prose    []string
	Warnings []Warning
	// Stop is, when reading failed, the reply line where it stopped:
	// the SEARCH marker of a block without a name, the line where the
	// next marker appeared, or the reply's last line.
	Stop int
}

// searchReplaceReader reads a reply line by line.
type searchReplaceReader struct {
	replyLines
	out     srSplit
	prev    string // file of the previous block
	open    fence  // the fence open at the current line, if inFence
	inFence bool
	near    nearMisses
}

// splitSearchReplace is the lower layer of readSearchReplace: it
// finds the blocks, shell blocks and prose of a reply without turning
// them into operations. It agrees with the reference parser (aider's
// find_original_update_blocks) block for block, except that it never
// takes prose for a file name, stops at a marker that cannot stand
// where it does (a SEARCH marker inside a block, an end marker before
// the divider) instead of reading on into the next block, and takes
// four-backtick shell fences as shell blocks. The error is a
// *ParseError; the split is returned, with what was read so far, in
// every case.
func splitSearchReplace(text string) (*srSplit, error) {
	p := &searchReplaceReader{replyLines: newReplyLines(text)}
	err := p.run()
	p.out.Prose = p.prose()
	if w := p.near.warnings(); len(w) > 0 {
		p.out.Warnings = append(p.out.Warnings, w...)
		sortWarnings(p.out.Warnings)
	}
	return &p.out, err
}

func (p *searchReplaceReader) run() error {
	for i := 0; i < len(p.lines); {
		t := strings.TrimSpace(p.lines[i])
		m := srMarker(t)
		switch {
		case m.kind == mkSearch && m.fit == fitFar:
			// Not a block that can be read, nor a line of a file.
			return p.fail(i+1, i+1, "%s", m.farMsg(t))
		case isSearch(t):
			next, err := p.block(i)
			if err != nil {
				return err
			}
			i = next
			continue
		case p.inFence:
			if p.open.closes(t) {
				p.inFence = false
				p.kind[i] = kFence
			} else {
				p.kind[i] = kFenced
			}
		default:
			if f, ok := openFence(t); ok {
				if f.ticks > 0 && f.isShell() && !p.searchFollows(i) {
					var sh Shell
					sh, i = readShell(p.lines, p.kind, i, f, f.ticksClose)
					p.out.Shell = append(p.out.Shell, sh)
					continue
				}
				p.open, p.inFence = f, true
				p.kind[i] = kFence
				if b, ok := p.headless(i, f); ok {
					next, err := p.headlessBlock(b)
					if err != nil {
						return err
					}
					i = next
					continue
				}
			}
		}
		if m.kind == mkReplace {
			p.kind[i] = kMarker
			if !followsBlock(p.lines, p.kind, i) {
				// The end of a block whose SEARCH marker the model left
				// out: the edit it meant must not vanish.
				return p.fail(i+1, i+1, "%s", strayMarkerMsg(t, m, false))
			}
			p.warn(i+1, "%q stands outside any block; ignored", t)
		}
		i++
	}
	return nil
}

// followsBlock reports whether the line before line i, blank lines
// aside, is the last line of a block (kBlock: the SEARCH/REPLACE, FIUP
// and edit-v2 readers ask outside their blocks). An end marker at i is
// then that block's, doubled or written after the second divider that
// ended it (see block), and no edit is lost with it; any other end
// marker outside a block ends one whose start marker is missing.
func followsBlock(lines []string, kind []lineKind, i int) bool {
	j := i - 1
	for j >= 0 && strings.TrimSpace(lines[j]) == "" {
		j--
	}
	return j >= 0 && kind[j] == kBlock
}

// searchFollows reports whether one of the two lines after line i is a
// SEARCH marker: a shell-tagged fence opening an edit block
// (```` ```bash ```` then script.sh then the marker) is no shell block.
func (p *searchReplaceReader) searchFollows(i int) bool {
	for j := i + 1; j <= i+2 && j < len(p.lines); j++ {
		if isSearch(strings.TrimSpace(p.lines[j])) {
			return true
		}
	}
	return false
}

// block reads the block whose SEARCH marker is at line i and returns
// the line after it.
func (p *searchReplaceReader) block(i int) (int, error) {
	b := srBlock{Line: i + 1}
	name, nameLine, inFence, rejected := p.findName(i)
	switch {
	case name != "":
		b.Path, b.NameLine, b.NameInFence = name, nameLine, inFence
		p.kind[nameLine-1] = kName
	case p.prev == "":
		msg := "missing file name: write the file's path alone on the line before the opening fence (diff) or first inside it (diff-fenced)"
		if rejected > 0 {
			msg += fmt.Sprintf("; line %d, %q, reads as prose, not as a file name", rejected, strings.TrimSpace(p.lines[rejected-1]))
		}
		return i, p.fail(i+1, i+1, "%s", msg)
	default:
		b.Path = p.prev
		if rejected > 0 {
			p.warn(rejected, "%q is not taken as a file name; the block at line %d edits %s like the block before it",
				strings.TrimSpace(p.lines[rejected-1]), i+1, p.prev)
		}
	}
	p.prev = b.Path
	p.kind[i] = kBlock
	p.near.add(i+1, strings.TrimSpace(p.lines[i]), srMarker(strings.TrimSpace(p.lines[i])))
	return p.blockBody(b)
}

// blockBody reads the SEARCH and REPLACE parts of block b, whose
// SEARCH text starts on the line after b.Line, and returns the line
// after its end marker.
func (p *searchReplaceReader) blockBody(b srBlock) (int, error) {
	i := b.Line - 1
	var text strings.Builder
	j := i + 1
	for ; j < len(p.lines); j++ {
		t := strings.TrimSpace(p.lines[j])
		if isDivider(t) {
			break
		}
		if isSearch(t) || isEnd(t) || srMarker(t).fit == fitFar {
			return j, p.fail(i+1, j+1, "the block has no %q divider: %q comes first, at line %d%s", srDivider, t, j+1, p.hint(i+1, j, '='))
		}
		p.kind[j] = kBlock
		text.WriteString(p.lines[j])
		text.WriteByte('\n')
	}
	if j == len(p.lines) {
		return j, p.fail(i+1, len(p.lines), "the block has no %q divider: the reply ends first, at line %d%s", srDivider, len(p.lines), p.hint(i+1, j, '='))
	}
	p.kind[j] = kBlock
	b.Search = text.String()

	text.Reset()
	k := j + 1
	for ; k < len(p.lines); k++ {
		t := strings.TrimSpace(p.lines[k])
		if isEnd(t) || isDivider(t) {
			break
		}
		if isSearch(t) || srMarker(t).fit == fitFar {
			// A marker too far to be read is no line of the file either
			// (see markerAt): taken as new lines, it and what follows up
			// to a later divider would be written.
			return k, p.fail(i+1, k+1, "the block has no %q end marker: %q comes first, at line %d%s", srEnd, t, k+1, p.hint(j+1, k+1, '>'))
		}
		p.kind[k] = kBlock
		text.WriteString(p.lines[k])
		text.WriteByte('\n')
	}
	if k == len(p.lines) {
		return k, p.fail(i+1, len(p.lines), "the block has no %q end marker: the reply ends first, at line %d%s", srEnd, len(p.lines), p.hint(j+1, k, '>'))
	}
	p.kind[k] = kBlock
	p.near.add(k+1, strings.TrimSpace(p.lines[k]), srMarker(strings.TrimSpace(p.lines[k])))
	if isDivider(strings.TrimSpace(p.lines[k])) {
		// The reference parser takes a second divider as the end of the
		// block (models write one in place of the end marker); so do we.
		p.warn(k+1, "the block at line %d ends with %q instead of %q", i+1, strings.TrimSpace(p.lines[k]), srEnd)
	}
	b.Replace = text.String()
	b.End = k + 1
	p.out.Blocks = append(p.out.Blocks, b)
	return k + 1, nil
}

// findName looks for the file name of the block whose SEARCH marker is
// at line i: on the line above it, or above the fence lines standing
// right above it (up to three lines up, like the reference). A fence
// line may carry the name as its info string (```` ```src/a.py ````).
// Of several names, the first holding a dot wins. rejected is a
// non-blank line that stood where the name belongs but reads as prose.
// All lines are 1-based.
func (p *searchReplaceReader) findName(i int) (name string, line int, inFence bool, rejected int) {
	type candidate struct {
		name    string
		line    int
		inFence bool
	}
	var cands []candidate
	for j := i - 1; j >= 0 && j >= i-3; j-- {
		t := strings.TrimSpace(p.lines[j])
		if p.kind[j] != kBlock && isFenceLine(t) {
			if f, ok := openFence(t); ok {
				if n := fenceName(f); n != "" {
					cands = append(cands, candidate{n, j + 1, false})
				}
			}
			continue
		}
		if p.kind[j] == kProse || p.kind[j] == kFenced {
			if n, ok := cleanFileName(t); ok {
				cands = append(cands, candidate{n, j + 1, p.kind[j] == kFenced})
			} else if t != "" {
				rejected = j + 1
			}
		}
		break
	}
	if len(cands) == 0 {
		return "", 0, false, rejected
	}
	best := cands[0]
	for _, c := range cands {
		if strings.Contains(c.name, ".") {
			best = c
			break
		}
	}
	return best.name, best.line, best.inFence, 0
}

// hint names the first line of [from, to) (0-based) that looks like
// the divider (c is '=') or the end marker (c is '>') the block lacks
// but is too far from it to be read as it, for the failure message.
func (p *searchReplaceReader) hint(from, to int, c byte) string {
	for k := from; k < to; k++ {
		t := strings.TrimSpace(p.lines[k])
		n := countPrefix(t, c)
		far := c == '=' && n >= 3 && n == len(t) || c == '>' && srMarker(t).kind == mkReplace
		if far {
			return fmt.Sprintf(" (line %d, %q, is not read as one: the marker has five to nine %q)", k+1, t, string(c))
		}
	}
	return ""
}

// fail records where reading stopped and returns the *ParseError for
// the block at line.
func (p *searchReplaceReader) fail(line, stop int, msg string, args ...any) error {
	p.out.Stop = stop
	p.unread = line - 1
	return parseErr(srFormat(p.out.Blocks), line, msg, args...)
}

func (p *searchReplaceReader) warn(line int, format string, args ...any) {
	p.out.Warnings = append(p.out.Warnings, warning(line, format, args...))
}

// srFormat names the format of blocks: diff-fenced when every name was
// read inside a fence, diff otherwise.
func srFormat(blocks []srBlock) string {
	fenced := false
	for _, b := range blocks {
		if b.NameLine == 0 {
			continue
		}
		if !b.NameInFence {
			return FormatDiff
		}
		fenced = true
	}
	if fenced {
		return FormatDiffFenced
	}
	return FormatDiff
}

// The divider and end marker as the prompt spells them, for messages.
const (
	srDivider = "======="
	srEnd     = ">>>>>>> REPLACE"
)

// srMarker returns what markerAt says of the trimmed line t when t
// resembles a SEARCH or an end marker.
func srMarker(t string) markerLike {
	if m := markerAt(t); m.kind == mkSearch || m.kind == mkReplace {
		return m
	}
	return markerLike{}
}

// isSearch reports whether the trimmed line t is read as a SEARCH
// marker: five to nine "<", " SEARCH", and an optional ">", or a near
// miss of it (another case, the space missing or doubled).
func isSearch(t string) bool {
	m := srMarker(t)
	return m.kind == mkSearch && m.fit != fitFar
}

// isDivider reports whether the trimmed line t is five to nine "=".
func isDivider(t string) bool {
	n := countPrefix(t, '=')
	return n >= 5 && n <= 9 && n == len(t)
}

// isEnd reports whether the trimmed line t is read as an end marker:
// five to nine ">" and " REPLACE", or a near miss of it.
func isEnd(t string) bool {
	m := srMarker(t)
	return m.kind == mkReplace && m.fit != fitFar
}

// isMarker reports whether the trimmed line t is a divider or resembles
// the marker of any format.
func isMarker(t string) bool { return isDivider(t) || markerAt(t).kind != noMarker }

package translate

// The apply-patch parser: patches found in the reply (bare, fenced or
// in a heredoc), their file sections and chunks.

import (
	"slices"
	"strconv"
	"strings"
)

// applyPatchReader reads a reply line by line.
type applyPatchReader struct {
	replyLines          // lines: the reply's lines, as written
	body       []string // the same, patches dedented: what patches are read from (lines itself until dedent changes one)
	r          *Reply
	group      int
	// fences are the fenced blocks outside patches, for Reply.Shell.
	fences  []apFenceSpan
	patches int // "*** Begin Patch" lines read
	first   int // line (0-based) of the first of them
	// open: the patch being read has no end marker, so a line that
	// cannot continue it ends it instead of being stray text.
	open bool
	stop int // the line after the patch being read: its end, or where an open one stopped
}

// apFenceSpan is a fenced block: its opening and closing lines
// (0-based; to is len(lines) when it never closes).
type apFenceSpan struct {
	f        fence
	from, to int
}

// apHeredocRe finds a heredoc operator and its word: <<EOF, <<'EOF',
// <<"EOF", <<-EOF; not in a run of "<" (a conflict marker).
var apHeredocRe = lazyRegexpOf(`(?:^|[^<])<<-?[ \t]*(?:'([^'\s]+)'|"([^"\s]+)"|([A-Za-z_][A-Za-z0-9_]*))`)

// run sorts the reply's lines into prose, fences and patches, and
// reads each patch where it starts.
func (p *applyPatchReader) run() {
	var open fence
	in := false
	for i := 0; i < len(p.lines); {
		t := strings.TrimSpace(p.lines[i])
		if m, _ := apMarker(t); m == apMarkBegin {
			i = p.patch(i, open, in)
			continue
		}
		switch {
		case in:
			p.kind[i] = kFenced
			if open.closes(t) {
				p.kind[i], in = kFence, false
				p.fences[len(p.fences)-1].to = i
			}
		default:
			if f, ok := openFence(t); ok {
				open, in = f, true
				p.kind[i] = kFence
				p.fences = append(p.fences, apFenceSpan{f: f, from: i, to: len(p.lines)})
			}
		}
		i++
	}
}

// patch reads the patch whose "*** Begin Patch" is line begin; wrap is
// the fence open there, if in. It returns the line where the run goes
// on: after the patch and its heredoc terminator, or at the line that
// closes its fence.
func (p *applyPatchReader) patch(begin int, wrap fence, in bool) int {
	if p.patches == 0 {
		p.first = begin
	}
	p.patches++
	word := ""
	if begin > 0 && (p.kind[begin-1] == kProse || p.kind[begin-1] == kFenced) {
		if m := apHeredocRe.FindStringSubmatch(p.lines[begin-1]); m != nil {
			word = m[1] + m[2] + m[3]
			p.kind[begin-1] = kWrapper
		}
	}
	end, limit := -1, len(p.lines)
	for j := begin + 1; j < len(p.lines); j++ {
		m, _ := apMarker(strings.TrimSpace(p.lines[j]))
		if m == apMarkEnd {
			end = j
			break
		}
		if m == apMarkBegin {
			limit = j
			break
		}
	}
	to, wrapEnd := end, -1
	if end < 0 {
		// Without its end marker, the wrapper says where the patch ends.
		for j := begin + 1; j < limit && wrapEnd < 0; j++ {
			t := strings.TrimSpace(p.lines[j])
			if word != "" && t == word || word == "" && in && wrap.closes(t) {
				wrapEnd = j
			}
		}
		to = limit
		if wrapEnd >= 0 {
			to = wrapEnd
		}
	}
	p.dedent(begin, to)
	p.open, p.stop = end < 0 && wrapEnd < 0, to
	p.sections(begin+1, to)
	for j := begin; j < p.stop; j++ {
		p.kind[j] = kBlock
	}
	switch {
	case end >= 0:
		p.kind[end] = kBlock
		next := end + 1
		if word != "" {
			j := next
			for j < len(p.lines) && strings.TrimSpace(p.lines[j]) == "" {
				j++
			}
			if j < len(p.lines) && strings.TrimSpace(p.lines[j]) == word {
				p.kind[j] = kWrapper
				next = j + 1
			}
		}
		return next
	case wrapEnd >= 0 && word != "":
		p.r.warnf(begin+1, "the patch has no %q line; it is read up to line %d, where its heredoc ends", apEnd, wrapEnd+1)
		p.kind[wrapEnd] = kWrapper
		return wrapEnd + 1
	case wrapEnd >= 0:
		p.r.warnf(begin+1, "the patch has no %q line; it is read up to line %d, where its fence ends", apEnd, wrapEnd+1)
		return wrapEnd // the run closes the fence
	}
	last := p.stop
	for last > begin+1 && strings.TrimSpace(p.lines[last-1]) == "" {
		last--
	}
	p.r.warnf(begin+1, "the patch has no %q line; it ends at line %d, the last line that can belong to it", apEnd, last)
	return p.stop
}

// dedent removes the indentation of the "*** Begin Patch" line at
// begin from every line up to to (the end marker included) when all
// the non-blank ones have it: a patch indented as a whole.
func (p *applyPatchReader) dedent(begin, to int) {
	l := p.lines[begin]
	ind := l[:len(l)-len(strings.TrimLeft(l, " \t"))]
	if ind == "" {
		return
	}
	last := min(to, len(p.lines)-1)
	for j := begin + 1; j <= last; j++ {
		if strings.TrimSpace(p.lines[j]) != "" && !strings.HasPrefix(p.lines[j], ind) {
			return
		}
	}
	if &p.body[0] == &p.lines[0] {
		p.body = append([]string(nil), p.lines...)
	}
	for j := begin + 1; j <= last; j++ {
		p.body[j] = strings.TrimPrefix(p.lines[j], ind)
	}
}

// sections reads the file sections of the patch lines [from, to).
func (p *applyPatchReader) sections(from, to int) {
	for i := from; i < to; {
		t := strings.TrimSpace(p.body[i])
		m, path := apMarker(t)
		switch m {
		case apMarkAdd, apMarkDelete, apMarkUpdate:
			if path == "" {
				p.r.failf(i+1, "", "the header %q names no file", hunkClip(t))
				i = p.nextHeader(i+1, to)
				continue
			}
		}
		switch m {
		case apMarkAdd:
			i = p.add(i, to, path)
		case apMarkDelete:
			p.r.Ops = append(p.r.Ops, Operation{Kind: Delete, Format: FormatApplyPatch, Path: path, Line: i + 1})
			i++
		case apMarkUpdate:
			i = p.update(i, to, path)
		case apMarkMove:
			p.r.failf(i+1, path, "%q stands outside an Update section: it belongs right below an %q line", hunkClip(t), apUpdate)
			i = p.nextHeader(i+1, to)
		case apMarkOther:
			p.r.failf(i+1, path, "%q is not a header of the format: the file headers are %q, %q and %q",
				hunkClip(t), apAdd+" P", apDelete+" P", apUpdate+" P")
			i = p.nextHeader(i+1, to)
		default:
			if t == "" {
				i++
				continue
			}
			if p.open {
				p.stop = i
				return
			}
			j := p.nextHeader(i+1, to)
			p.r.warnf(i+1, "text outside any file section is ignored: %q", hunkClip(t))
			i = j
		}
	}
}

// nextHeader returns the first line from i on (before to) that holds a
// file header or an unknown "***" header; to when none.
func (p *applyPatchReader) nextHeader(i, to int) int {
	for ; i < to; i++ {
		switch m, _ := apMarker(strings.TrimSpace(p.body[i])); m {
		case apMarkAdd, apMarkDelete, apMarkUpdate, apMarkOther:
			return i
		}
	}
	return to
}

// ends reports whether line i ends the body of a section: a known
// marker (with white space around it), or an unknown "***" header in
// the first column (indented, it is a context line).
func (p *applyPatchReader) ends(i int) bool {
	m, _ := apMarker(strings.TrimSpace(p.body[i]))
	return m != apNoMark && m != apMarkOther || m == apMarkOther && strings.HasPrefix(p.body[i], "***")
}

// add reads the Add section whose header is line i.
//
// The file's lines are kept whole (Operation.Content), in one string:
// a string per line would cost several times a file of short lines.
func (p *applyPatchReader) add(i, to int, path string) int {
	var content strings.Builder
	blanks := 0 // empty lines read but not yet known to be content
	j := i + 1
	for ; j < to && !p.ends(j); j++ {
		l := p.body[j]
		if strings.HasPrefix(l, "+") {
			for ; blanks > 0; blanks-- {
				content.WriteByte('\n')
			}
			content.WriteString(l[1:])
			content.WriteByte('\n')
			continue
		}
		if strings.TrimSpace(l) == "" {
			blanks++
			continue
		}
		if !p.open && p.plusFollows(j+1, to) {
			p.r.failf(j+1, path, "line %d of the new file %s does not start with \"+\": every line of an added file does (\"+\" alone for an empty line)", j-i, path)
			return p.nextHeader(j+1, to)
		}
		break // stray text after the file: sections() decides
	}
	p.r.Ops = append(p.r.Ops, Operation{Kind: Create, Format: FormatApplyPatch, Path: path, FileCreate: FileCreate{Content: content.String(), Overwrite: true}, Line: i + 1})
	return j - blanks
}

// plusFollows reports whether a "+" line follows from j on, before the
// end of the section.
func (p *applyPatchReader) plusFollows(j, to int) bool {
	for ; j < to && !p.ends(j); j++ {
		if strings.HasPrefix(p.body[j], "+") {
			return true
		}
	}
	return false
}

// apChunk is one chunk of an Update section.
type apChunk struct {
	line     int // reply line of its first "@@" line, or of its first line
	scope    []string
	hint     int
	hinted   bool // an "@@ -a,b +c,d @@" line gave hint (it may be 0)
	old, new []string
	changed  bool
	eof      bool
	lostAt   int // first line that lost its leading space (0: none)
}

// update reads the Update section whose header is line i.
func (p *applyPatchReader) update(i, to int, path string) int {
	var move string
	moveLine, last := 0, i
	var chunks []apChunk
	j := i + 1
	for j < to {
		l := p.body[j]
		t := strings.TrimSpace(l)
		m, arg := apMarker(t)
		switch {
		case m == apMarkMove:
			switch {
			case arg == "":
				p.r.failf(j+1, path, "the line %q names no path to move %s to", hunkClip(t), path)
			case moveLine != 0:
				p.r.failf(j+1, path, "%q: the section moves %s once, to %s (line %d)", hunkClip(t), path, move, moveLine)
			default:
				move, moveLine = arg, j+1
			}
			last = j
			j++
			continue
		case m == apMarkEOF:
			p.r.warnf(j+1, "%q stands outside a chunk; ignored", apEOF)
			last = j
			j++
			continue
		case p.ends(j):
		case t == "":
			j++
			continue
		case strings.HasPrefix(l, "@@") || strings.IndexByte(" -+", l[0]) >= 0 || p.prefixedFollows(j+1, to):
			c, next := p.chunk(j, to)
			chunks = append(chunks, c)
			last = next - 1
			j = next
			continue
		}
		break // stray text, or the end of the section: sections() decides
	}
	p.updateOps(i, path, move, moveLine, chunks, last)
	return j
}

// updateOps turns an Update section into operations.
func (p *applyPatchReader) updateOps(i int, path, move string, moveLine int, chunks []apChunk, last int) {
	p.group++
	n := 0
	// Room for the section's operations at once: an Operation is a few
	// hundred bytes, and a slice doubling its way to 500 of them
	// allocates them twice over.
	p.r.Ops = slices.Grow(p.r.Ops, len(chunks)+1)
	for _, c := range chunks {
		if c.lostAt != 0 {
			p.r.warnf(c.lostAt, "a line of the chunk has no \" \", \"-\" or \"+\" prefix; it is read as a context line that lost its leading space")
		}
		if !c.changed {
			if len(c.old) == 0 {
				p.r.warnf(c.line, "the chunk has no line under its @@ line; ignored")
			} else {
				p.r.warnf(c.line, "the chunk changes no line (context only); ignored")
			}
			continue
		}
		op := Operation{Kind: Edit, Format: FormatApplyPatch, Path: path, LineEdit: LineEdit{Old: c.old, New: c.new, Scope: c.scope, AtEOF: c.eof},
			Placement: Placement{Group: p.group, Ordered: true}, Line: c.line}
		if c.hinted && c.hint > 0 {
			op.LineHint = c.hint
		}
		if len(c.old) == 0 && len(c.scope) == 0 {
			op.Where = AtEnd
			if c.hinted && c.hint == 0 {
				op.Where = AtStart
			}
		}
		p.r.Ops = append(p.r.Ops, op)
		n++
	}
	switch {
	case move != "":
		p.r.Ops = append(p.r.Ops, Operation{Kind: Rename, Format: FormatApplyPatch, Path: path, FileOp: FileOp{NewPath: move}, FileCreate: FileCreate{Overwrite: true}, Line: last + 1})
	case len(chunks) == 0 && moveLine == 0:
		p.r.failf(i+1, path, "the section %q has no chunk: write \"@@\" and the lines of the change (\" \" context, \"-\" removed, \"+\" added) under it", hunkClip(strings.TrimSpace(p.body[i])))
	case n == 0 && moveLine == 0:
		p.r.failf(i+1, path, "the section %q changes nothing: its chunks have no \"-\" or \"+\" line", hunkClip(strings.TrimSpace(p.body[i])))
	}
}

// prefixedFollows reports whether a chunk line (" ", "-", "+") follows
// from j on, before the next "@@" line or the end of the section. In a
// patch without end marker nothing does: a line without prefix there
// more likely starts the prose after it than lost its space.
func (p *applyPatchReader) prefixedFollows(j, to int) bool {
	return p.nextPrefixed(j, to) >= 0
}

// nextPrefixed returns the line of the chunk line prefixedFollows
// looks for; -1 when there is none.
func (p *applyPatchReader) nextPrefixed(j, to int) int {
	if p.open {
		return -1
	}
	for ; j < to && !p.ends(j) && !strings.HasPrefix(p.body[j], "@@"); j++ {
		if l := p.body[j]; l != "" && strings.IndexByte(" -+", l[0]) >= 0 {
			return j
		}
	}
	return -1
}

// lostUntil sets *lost to the next prefixed line from j on and reports
// whether there is one.
func (p *applyPatchReader) lostUntil(lost *int, j, to int) bool {
	*lost = p.nextPrefixed(j, to)
	return *lost >= 0
}

// apNumbersRe is the numbers part of a unified-diff "@@" line.
var apNumbersRe = lazyRegexpOf(`^-(\d{1,9})(?:,\d+)?\s+\+\d+(?:,\d+)?\s*@@`)

// chunk reads the chunk starting at line j and returns it with the
// line after it.
func (p *applyPatchReader) chunk(j, to int) (apChunk, int) {
	c := apChunk{line: j + 1}
	for ; j < to && strings.HasPrefix(p.body[j], "@@"); j++ {
		s := strings.TrimSpace(strings.TrimPrefix(p.body[j], "@@"))
		if m := apNumbersRe.FindStringSubmatch(s); m != nil {
			c.hint, _ = strconv.Atoi(m[1])
			c.hinted = true
			continue
		}
		// "@@ def f(): @@": some models close the line like a diff's.
		if t := strings.TrimSpace(strings.TrimSuffix(s, "@@")); t != "" {
			c.scope = append(c.scope, t)
		}
	}
	trail := 0 // empty lines ending the chunk so far
	// lost: the lines before it are known to be followed by a prefixed
	// line, so that a run of unprefixed lines is scanned once.
	lost := -1
	for ; j < to; j++ {
		l := p.body[j]
		if strings.HasPrefix(l, "@@") {
			break
		}
		if p.ends(j) {
			if m, _ := apMarker(strings.TrimSpace(l)); m == apMarkEOF {
				c.eof = true
				c.old, c.new = c.old[:len(c.old)-trail], c.new[:len(c.new)-trail]
				return c, j + 1
			}
			break
		}
		switch {
		case strings.TrimSpace(l) == "" && !strings.HasPrefix(l, " "):
			c.old, c.new = append(c.old, ""), append(c.new, "")
			trail++
			continue
		case l[0] == ' ':
			c.old, c.new = append(c.old, l[1:]), append(c.new, l[1:])
		case l[0] == '-':
			c.old, c.changed = append(c.old, l[1:]), true
		case l[0] == '+':
			c.new, c.changed = append(c.new, l[1:]), true
		case j < lost || p.lostUntil(&lost, j+1, to):
			if c.lostAt == 0 {
				c.lostAt = j + 1
			}
			c.old, c.new = append(c.old, l), append(c.new, l)
		default:
			// Stray text after the chunk: the section decides.
			c.old, c.new = c.old[:len(c.old)-trail], c.new[:len(c.new)-trail]
			return c, j - trail
		}
		trail = 0
	}
	c.old, c.new = c.old[:len(c.old)-trail], c.new[:len(c.new)-trail]
	return c, j - trail
}

// collect sorts the lines outside patches into Reply.Prose (one blank
// line standing for each run of them, none at the ends) and the
// fenced shell commands into Reply.Shell.
func (p *applyPatchReader) collect() {
	p.r.Prose = p.prose()
	for _, s := range p.fences {
		if s.f.ticks == 0 || !s.f.isShell() {
			continue
		}
		var b strings.Builder
		wraps := false
		for j := s.from + 1; j < s.to; j++ {
			switch p.kind[j] {
			case kFenced:
				b.WriteString(p.lines[j] + "\n")
			case kBlock, kWrapper:
				wraps = true
			}
		}
		// The fence that held the patch is no suggestion of its own
		// unless it holds other commands too.
		if !wraps || strings.TrimSpace(b.String()) != "" {
			p.r.Shell = append(p.r.Shell, Shell{Line: s.from + 1, Lang: s.f.info, Text: b.String()})
		}
	}
}
